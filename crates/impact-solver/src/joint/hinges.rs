//! Plain hinges four at a time: the revolute joints whose only row is the point row (no
//! spring, motor or limit acts), laid out one field per four-wide vector (`wide::f64x4`) for
//! each chunk of the joint schedule that holds nothing else, as the contacts' chunks are
//! (`contact::packed`).
//!
//! The rows of a schedule chunk share no body, so their lanes can be solved at once; each
//! body still sees its rows in the schedule's order, and every lane does the scalar point
//! row's arithmetic (`solve::point_row`, `solve::apply`) operation for operation, so the
//! results are those of the scalar rows bit for bit. Box2D's joint grid (19,800 hinges) is
//! made of nothing else.
//!
//! What a point row reads that does not change within a substep (the lever arms turned with
//! the bodies, the anchors' separation, the inverse of the 2 x 2 effective mass) is computed
//! once per substep ([`refresh`]), when the bodies have moved, instead of at the warm start,
//! the solve and the relax alike: the same numbers from the same motion, three times fewer.
//! While the step runs the accumulated impulses live in the lanes; [`store`] copies them
//! back to the rows, which the joint set and the reactions read.

use super::rows::JointRow;
use super::solve::{Anchors, Prepared};
use crate::settings::Softness;
use crate::solver::bodies::{Motion, SolverBody};
use crate::solver::schedule::LANES;
use impact_geometry::Vector;
use wide::f64x4 as V;

/// Rows per chunk: one per lane.
const W: usize = LANES;

/// Up to [`W`] plain hinges without a body in common, one per lane. Padding lanes hold
/// zeros, read lane 0's bodies and are never written back.
#[derive(Debug, Clone, Default)]
pub(crate) struct HingeChunk {
    /// The rows of the lanes (indices into the joint rows), the first `len` lanes.
    rows: [u32; W],
    len: usize,
    /// The bodies' indices in the body table.
    body_a: [u32; W],
    body_b: [u32; W],
    /// The lever arms at the step's start, B's centre minus A's there, the inverse masses.
    anchor_ax: V,
    anchor_ay: V,
    anchor_bx: V,
    anchor_by: V,
    center_x: V,
    center_y: V,
    ma: V,
    mb: V,
    ia: V,
    ib: V,
    /// The substep's lever arms, the anchors' separation and the inverse effective mass
    /// (`k11, k12, k22` and `1 / det`), from [`refresh`].
    rax: V,
    ray: V,
    rbx: V,
    rby: V,
    sep_x: V,
    sep_y: V,
    k11: V,
    k12: V,
    k22: V,
    inv_det: V,
    /// The accumulated impulse on B (world frame).
    jx: V,
    jy: V,
}

/// Whether `row` is a plain hinge: a revolute joint whose spring, motor and limits are off
/// (or cannot act, neither body turning), so that its only row is the point row and its
/// warm start applies no torque of its own.
pub(crate) fn is_plain_hinge(row: &JointRow) -> bool {
    match &row.prepared {
        Prepared::Revolute(p) => p.is_plain(),
        _ => false,
    }
}

/// Fills `chunk` with `rows[ids]`, which must be plain hinges without a body in common
/// (at most [`W`]), with their bodies' inverse masses from `velocities`.
pub(crate) fn pack(
    chunk: &mut HingeChunk,
    ids: core::ops::Range<usize>,
    rows: &[JointRow],
    velocities: &[SolverBody],
) {
    *chunk = HingeChunk::default();
    chunk.len = ids.len();
    let first = &rows[ids.start];
    chunk.body_a = [first.a; W];
    chunk.body_b = [first.b; W];
    for (l, i) in ids.enumerate() {
        let row = &rows[i];
        let Anchors {
            anchor_a,
            anchor_b,
            delta_center,
            ..
        } = row.anchors;
        let (a, b) = (&velocities[row.a as usize], &velocities[row.b as usize]);
        chunk.rows[l] = i as u32;
        chunk.body_a[l] = row.a;
        chunk.body_b[l] = row.b;
        let set = |v: &mut V, x| v.as_mut_array()[l] = x;
        set(&mut chunk.anchor_ax, anchor_a.x);
        set(&mut chunk.anchor_ay, anchor_a.y);
        set(&mut chunk.anchor_bx, anchor_b.x);
        set(&mut chunk.anchor_by, anchor_b.y);
        set(&mut chunk.center_x, delta_center.x);
        set(&mut chunk.center_y, delta_center.y);
        set(&mut chunk.ma, a.inv_mass);
        set(&mut chunk.mb, b.inv_mass);
        set(&mut chunk.ia, a.inv_inertia);
        set(&mut chunk.ib, b.inv_inertia);
        set(&mut chunk.jx, row.impulses.linear.x);
        set(&mut chunk.jy, row.impulses.linear.y);
    }
}

/// The bodies' motion since the step's start on one side of a chunk.
struct Moved {
    dpx: V,
    dpy: V,
    cos: V,
    sin: V,
}

impl Moved {
    #[inline(always)]
    fn gather(motion: &[Motion], index: &[u32; W]) -> Self {
        let [m0, m1, m2, m3] = index.map(|i| &motion[i as usize]);
        Self {
            dpx: V::new([m0.dp.x, m1.dp.x, m2.dp.x, m3.dp.x]),
            dpy: V::new([m0.dp.y, m1.dp.y, m2.dp.y, m3.dp.y]),
            cos: V::new([m0.dq.0, m1.dq.0, m2.dq.0, m3.dq.0]),
            sin: V::new([m0.dq.1, m1.dq.1, m2.dq.1, m3.dq.1]),
        }
    }

    /// `(x, y)` turned by the rotation, as `solve::rotate`.
    #[inline(always)]
    fn rotate(&self, x: V, y: V) -> (V, V) {
        (self.cos * x - self.sin * y, self.sin * x + self.cos * y)
    }
}

/// What the rows read that changes only when the bodies move, with the bodies moved by
/// `motion` since the step's start: the arithmetic of `Anchors::frame`, `Frame::separation`
/// and the `K` of `solve::point_row`, lane by lane.
pub(crate) fn refresh(chunks: &mut [HingeChunk], motion: &[Motion]) {
    for ch in chunks {
        let a = Moved::gather(motion, &ch.body_a);
        let b = Moved::gather(motion, &ch.body_b);
        let (rax, ray) = a.rotate(ch.anchor_ax, ch.anchor_ay);
        let (rbx, rby) = b.rotate(ch.anchor_bx, ch.anchor_by);
        let (dpx, dpy) = (b.dpx - a.dpx, b.dpy - a.dpy);
        ch.sep_x = (dpx + (rbx - rax)) + ch.center_x;
        ch.sep_y = (dpy + (rby - ray)) + ch.center_y;
        let (ma, mb, ia, ib) = (ch.ma, ch.mb, ch.ia, ch.ib);
        ch.k11 = ((ma + mb) + ray * ray * ia) + rby * rby * ib;
        ch.k12 = (-ray) * rax * ia - rby * rbx * ib;
        ch.k22 = ((ma + mb) + rax * rax * ia) + rbx * rbx * ib;
        let det = ch.k11 * ch.k22 - ch.k12 * ch.k12;
        ch.inv_det = det.simd_ne(V::ZERO).select(V::ONE / det, V::ZERO);
        (ch.rax, ch.ray, ch.rbx, ch.rby) = (rax, ray, rbx, rby);
    }
}

/// Velocities of one side of a chunk's rows.
struct Velocities {
    vx: V,
    vy: V,
    w: V,
}

impl Velocities {
    #[inline(always)]
    fn gather(velocities: &[SolverBody], index: &[u32; W]) -> Self {
        let [b0, b1, b2, b3] = index.map(|i| &velocities[i as usize]);
        Self {
            vx: V::new([b0.v.x, b1.v.x, b2.v.x, b3.v.x]),
            vy: V::new([b0.v.y, b1.v.y, b2.v.y, b3.v.y]),
            w: V::new([b0.w, b1.w, b2.w, b3.w]),
        }
    }

    /// Writes the first `len` lanes back, as the scalar rows write their bodies back.
    #[inline(always)]
    fn scatter(&self, velocities: &mut [SolverBody], index: &[u32; W], len: usize) {
        let (vx, vy, w) = (self.vx.to_array(), self.vy.to_array(), self.w.to_array());
        let mut set = |l: usize| {
            let body = &mut velocities[index[l] as usize];
            body.v = Vector::new(vx[l], vy[l]);
            body.w = w[l];
        };
        if len == W {
            // A full chunk, the common case: a loop of fixed length the compiler unrolls.
            (0..W).for_each(&mut set);
        } else {
            (0..len).for_each(set);
        }
    }
}

/// Applies the impulse `(jx, jy)` on B and its opposite on A at the chunk's lever arms, as
/// `solve::apply` with no torque of its own.
#[inline(always)]
fn apply(ch: &HingeChunk, a: &mut Velocities, b: &mut Velocities, (jx, jy): (V, V)) {
    let zero = V::ZERO;
    a.vx -= jx * ch.ma;
    a.vy -= jy * ch.ma;
    a.w -= ch.ia * ((ch.rax * jy - ch.ray * jx) + zero);
    b.vx += jx * ch.mb;
    b.vy += jy * ch.mb;
    b.w += ch.ib * ((ch.rbx * jy - ch.rby * jx) + zero);
}

/// The warm start of every chunk: the accumulated impulses at the substep's lever arms.
pub(crate) fn warm_start(chunks: &[HingeChunk], velocities: &mut [SolverBody]) {
    for ch in chunks {
        let mut a = Velocities::gather(velocities, &ch.body_a);
        let mut b = Velocities::gather(velocities, &ch.body_b);
        apply(ch, &mut a, &mut b, (ch.jx, ch.jy));
        a.scatter(velocities, &ch.body_a, ch.len);
        b.scatter(velocities, &ch.body_b, ch.len);
    }
}

/// One iteration of the point rows of every chunk: with the position bias of `soft` (the
/// solve) or without it (the relax), as `solve::point_row`.
pub(crate) fn solve(
    chunks: &mut [HingeChunk],
    velocities: &mut [SolverBody],
    soft: &Softness,
    use_bias: bool,
) {
    let (bias_rate, mass_scale, impulse_scale) = if use_bias {
        (
            V::splat(soft.bias_rate),
            V::splat(soft.mass_scale),
            V::splat(soft.impulse_scale),
        )
    } else {
        (V::ZERO, V::ONE, V::ZERO)
    };
    for ch in chunks {
        let mut a = Velocities::gather(velocities, &ch.body_a);
        let mut b = Velocities::gather(velocities, &ch.body_b);
        let cdot_x = ((b.vx + (-b.w) * ch.rby) - a.vx) - (-a.w) * ch.ray;
        let cdot_y = ((b.vy + b.w * ch.rbx) - a.vy) - a.w * ch.rax;
        let (rhs_x, rhs_y) = if use_bias {
            (cdot_x + ch.sep_x * bias_rate, cdot_y + ch.sep_y * bias_rate)
        } else {
            (cdot_x + V::ZERO, cdot_y + V::ZERO)
        };
        let x = ch.inv_det * (ch.k22 * rhs_x - ch.k12 * rhs_y);
        let y = ch.inv_det * (ch.k11 * rhs_y - ch.k12 * rhs_x);
        let jx = (-x) * mass_scale - ch.jx * impulse_scale;
        let jy = (-y) * mass_scale - ch.jy * impulse_scale;
        ch.jx += jx;
        ch.jy += jy;
        apply(ch, &mut a, &mut b, (jx, jy));
        a.scatter(velocities, &ch.body_a, ch.len);
        b.scatter(velocities, &ch.body_b, ch.len);
    }
}

/// Copies each lane's accumulated impulse back into its row.
pub(crate) fn store(chunks: &[HingeChunk], rows: &mut [JointRow]) {
    for ch in chunks {
        let (jx, jy) = (ch.jx.to_array(), ch.jy.to_array());
        for l in 0..ch.len {
            rows[ch.rows[l] as usize].impulses.linear = Vector::new(jx[l], jy[l]);
        }
    }
}
