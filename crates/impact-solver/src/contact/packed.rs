//! The constraints as the per-point passes (sweeps, warm start, capture of approach
//! velocities, separations) see them: each chunk of up to [`LANES`] constraints that share
//! no body (see [`sweep_order`](super::sweep_order)) laid out one field per four-wide vector
//! (`wide::f64x4`: two SSE2 registers on the baseline x86-64 target), so a pass updates the
//! constraints of a chunk with one SIMD operation per step of the arithmetic, as rapier2d
//! does with its four-wide groups.
//!
//! Each body still sees its constraints in pair order, so every pass gives the result of the
//! pair order. The sweeps are bound by the latency of each chain of dependent impulse updates
//! (a chunk's bodies are usually the next chunk's) more than by the operation count, so the
//! arithmetic keeps on that chain only what depends on the velocities: `n / m` and
//! `I^-1 (r x n)` are fixed for the step, the softness and bias terms are added beside it,
//! and within a chunk the later updates of a constraint see the earlier impulses through
//! couplings fixed for the step instead of through the bodies' velocities. That is what
//! makes the layout pay: with the scalar arithmetic of the per-constraint form (bit for bit
//! the interleaved scalar sweeps), the same layout is no faster than those sweeps, at two
//! lanes or four.
//!
//! A lane a pass skips (a missing second point or a padding lane, which hold zeros, or a point
//! the pass leaves alone) gets a change of impulse of exactly zero, so its bodies keep their
//! velocities up to the sign of a zero. While a pass runs, the impulses, separations and
//! approach velocities live here; [`store_dynamic`] copies them back to the constraints
//! (what the public accessors, the cache and the restitution pass read). Restitution writes
//! only its own impulses, which the chunks do not hold, so nothing copies back.

use super::gate::{CONTACT_DISTANCE, Certificate, Gate, PairVelocities};
use super::{ContactConstraint, current_separation};
use crate::solver::bodies::{BodyState, SolverBody};
use crate::solver::colours::{BodyAccess, for_each_independent, for_each_zipped};
use crate::solver::schedule::LANES;
use impact_geometry::{Real, Vector};
use wide::f64x4 as V;

mod store;

pub(super) use store::{Applied, count_warm_start, start_applied, store_applied, store_dynamic};

/// Constraints per packed chunk: the lanes of `V`, one per constraint of a sweep chunk.
const W: usize = LANES;

/// One point of every constraint of a chunk.
#[derive(Debug, Clone, Copy, Default)]
struct PointLanes {
    rn_a: V,
    rn_b: V,
    rt_a: V,
    rt_b: V,
    normal_mass: V,
    tangent_mass: V,
    separation: V,
    normal_impulse: V,
    tangent_impulse: V,
    max_normal_impulse: V,
    /// How long the point flew free this step before it first pushed (see
    /// `capture_free_flight`).
    free_time: V,
    /// `I_a^-1 (r_a x n)` and the same for B and along the tangent: the spin a unit impulse
    /// gives each body.
    wn_a: V,
    wn_b: V,
    wt_a: V,
    wt_b: V,
}

/// What the separations need of one point of every constraint of a chunk: the lever arms of
/// the core anchors and the separation at preparation. Kept apart from [`Chunk`], which the
/// sweeps stream through.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct AnchorLanes {
    r_ax: V,
    r_ay: V,
    r_bx: V,
    r_by: V,
    separation0: V,
}

/// What the separations and the certificates of contact need of a chunk's constraints:
/// each point's anchors, and each constraint's certificate (see `gate::Certificate`; the
/// first point's, since any point that certifies contact certifies it for the bodies).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Anchors {
    points: [AnchorLanes; 2],
    lead: V,
    room: V,
    turn_a: V,
    turn_b: V,
}

/// Up to [`W`] constraints without a body in common, one per lane.
#[derive(Debug, Clone, Default)]
pub(super) struct Chunk {
    /// Indices of the constraints (the first `len` lanes).
    members: [u32; W],
    len: usize,
    /// Solver body indices; padding lanes repeat lane 0's and are never written.
    body_a: [u32; W],
    body_b: [u32; W],
    /// The lanes whose body A (B) the passes write back, a bit per lane: those of finite
    /// mass or inertia. An impulse changes nothing of a body of infinite mass, and leaving it
    /// unwritten lets any number of chunks of a colour share it (see `schedule::colour`).
    write_a: u32,
    write_b: u32,
    nx: V,
    ny: V,
    friction: V,
    bias_rate: V,
    mass_scale: V,
    impulse_scale: V,
    /// `n / m_a` and `n / m_b`: the velocity a unit normal impulse gives each body (the
    /// tangent's are the same turned a quarter turn).
    nx_ma: V,
    ny_ma: V,
    nx_mb: V,
    ny_mb: V,
    /// How much a unit impulse of one update changes the relative velocity of a later one
    /// of the same sweep (second normal after the first; each tangent after the normals and,
    /// for the second, the first tangent): the velocity changes in between are linear in the
    /// impulses, so the later velocity is the one at the start of the chunk plus these
    /// couplings times the impulses, without waiting for the bodies' velocities.
    k_n1n0: V,
    k_t0n0: V,
    k_t0n1: V,
    k_t1n0: V,
    k_t1n1: V,
    k_t1t0: V,
    points: [PointLanes; 2],
    /// Lanes whose bodies are known to be in contact this substep, a bit per lane: the
    /// normal impulses of their points may rise without asking the gate (see
    /// [`rises`]).
    armed: u32,
    /// The lanes holding a constraint, a bit per lane.
    live: u32,
    /// Whether any lane's certificate counts the bodies' turns (`Anchors::turn_a` or
    /// `turn_b` not zero): the chords are computed only then.
    turns: bool,
}

/// Whether an impulse can change `body`'s velocities: it has a finite mass or inertia.
#[inline]
pub(crate) fn moves(body: &SolverBody) -> bool {
    body.inv_mass != 0.0 || body.inv_inertia != 0.0
}

/// Velocities of one side of a chunk's constraints.
#[derive(Clone, Copy)]
struct Velocities {
    vx: V,
    vy: V,
    w: V,
}

impl Velocities {
    #[inline(always)]
    fn gather<B: BodyAccess + ?Sized>(bodies: &B, index: &[u32; W]) -> Self {
        // Straight from the bodies into the lanes, one load per lane.
        let (v0, w0) = bodies.get(index[0]);
        let (v1, w1) = bodies.get(index[1]);
        let (v2, w2) = bodies.get(index[2]);
        let (v3, w3) = bodies.get(index[3]);
        Self {
            vx: V::new([v0.x, v1.x, v2.x, v3.x]),
            vy: V::new([v0.y, v1.y, v2.y, v3.y]),
            w: V::new([w0, w1, w2, w3]),
        }
    }

    /// The velocity of B relative to A along `(dx, dy)` at points with `rd_a = r_a x d`,
    /// `rd_b = r_b x d` (in 2D, `(w x r) . d = w (r x d)`).
    #[inline(always)]
    fn along(&self, b: &Self, dx: V, dy: V, rd_a: V, rd_b: V) -> V {
        ((b.vx - self.vx) * dx + (b.vy - self.vy) * dy) + (b.w * rd_b - self.w * rd_a)
    }

    #[inline(always)]
    fn scatter<B: BodyAccess + ?Sized>(&self, bodies: &mut B, index: &[u32; W], mut lanes: u32) {
        let (vx, vy, w) = (self.vx.to_array(), self.vy.to_array(), self.w.to_array());
        if lanes == (1 << W) - 1 {
            // Every lane, the common case (a full chunk of dynamic bodies): a loop the
            // compiler unrolls, without a branch per lane.
            for l in 0..W {
                bodies.set(index[l], Vector::new(vx[l], vy[l]), w[l]);
            }
            return;
        }
        while lanes != 0 {
            let l = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            bodies.set(index[l], Vector::new(vx[l], vy[l]), w[l]);
        }
    }

    /// `self -= d`.
    #[inline(always)]
    fn sub(&mut self, dx: V, dy: V, dw: V) {
        self.vx -= dx;
        self.vy -= dy;
        self.w -= dw;
    }

    /// `self += d`.
    #[inline(always)]
    fn add(&mut self, dx: V, dy: V, dw: V) {
        self.vx += dx;
        self.vy += dy;
        self.w += dw;
    }
}

/// Fills `chunks` and `anchors` (whatever they held) with the chunks of `order` cut at
/// `chunk_starts`, with the constraints' current impulses. Filled in place, lane by lane: a
/// chunk is most of a kilobyte, and building each by value cost a copy.
pub(super) fn pack(
    constraints: &[ContactConstraint],
    bodies: &[SolverBody],
    order: &[u32],
    chunk_starts: &[u32],
    chunks: &mut Vec<Chunk>,
    anchors: &mut Vec<Anchors>,
) {
    // Each chunk is emptied where it is packed, on the thread that packs it.
    let n = chunk_starts.len().saturating_sub(1);
    chunks.truncate(n);
    chunks.resize_with(n, Chunk::default);
    anchors.truncate(n);
    anchors.resize(n, Anchors::default());
    for_each_zipped(chunks, anchors, |first, chunks, anchors| {
        for (k, (ch, an)) in chunks.iter_mut().zip(anchors).enumerate() {
            let j = first + k;
            let ids = &order[chunk_starts[j] as usize..chunk_starts[j + 1] as usize];
            pack_chunk(ch, an, ids, constraints, bodies);
        }
    });
}

/// Fills the chunk `ch` and its anchors `an` (whatever they held) with the constraints
/// `ids`.
fn pack_chunk(
    ch: &mut Chunk,
    an: &mut Anchors,
    ids: &[u32],
    constraints: &[ContactConstraint],
    bodies: &[SolverBody],
) {
    *ch = Chunk::default();
    *an = Anchors::default();
    ch.len = ids.len();
    ch.live = (1 << ids.len()) - 1;
    // Padding lanes read lane 0's bodies and are never written.
    ch.body_a = [constraints[ids[0] as usize].state_a; W];
    ch.body_b = [constraints[ids[0] as usize].state_b; W];
    for (l, &i) in ids.iter().enumerate() {
        let c = &constraints[i as usize];
        let (a, b) = (&bodies[c.state_a as usize], &bodies[c.state_b as usize]);
        ch.members[l] = i;
        ch.body_a[l] = c.state_a;
        ch.body_b[l] = c.state_b;
        ch.write_a |= u32::from(moves(a)) << l;
        ch.write_b |= u32::from(moves(b)) << l;
        ch.nx.as_mut_array()[l] = c.normal.x;
        ch.ny.as_mut_array()[l] = c.normal.y;
        ch.friction.as_mut_array()[l] = c.friction;
        ch.bias_rate.as_mut_array()[l] = c.softness.bias_rate;
        ch.mass_scale.as_mut_array()[l] = c.softness.mass_scale;
        ch.impulse_scale.as_mut_array()[l] = c.softness.impulse_scale;
        ch.nx_ma.as_mut_array()[l] = c.normal.x * a.inv_mass;
        ch.ny_ma.as_mut_array()[l] = c.normal.y * a.inv_mass;
        ch.nx_mb.as_mut_array()[l] = c.normal.x * b.inv_mass;
        ch.ny_mb.as_mut_array()[l] = c.normal.y * b.inv_mass;
        {
            // `n . n` is one to rounding (`t . t` the same, `t . n` zero exactly).
            let linear = (a.inv_mass + b.inv_mass) * c.normal.norm_squared();
            let [p, q] = &c.points;
            let (ia, ib) = (a.inv_inertia, b.inv_inertia);
            ch.k_n1n0.as_mut_array()[l] = linear + (ia * p.rn_a * q.rn_a + ib * p.rn_b * q.rn_b);
            ch.k_t0n0.as_mut_array()[l] = ia * p.rn_a * p.rt_a + ib * p.rn_b * p.rt_b;
            ch.k_t0n1.as_mut_array()[l] = ia * q.rn_a * p.rt_a + ib * q.rn_b * p.rt_b;
            ch.k_t1n0.as_mut_array()[l] = ia * p.rn_a * q.rt_a + ib * p.rn_b * q.rt_b;
            ch.k_t1n1.as_mut_array()[l] = ia * q.rn_a * q.rt_a + ib * q.rn_b * q.rt_b;
            ch.k_t1t0.as_mut_array()[l] = linear + (ia * p.rt_a * q.rt_a + ib * p.rt_b * q.rt_b);
        }
        for (al, p) in an.points.iter_mut().zip(&c.points[..c.count]) {
            let (k_a, k_b) = c.core_anchors(p);
            al.r_ax.as_mut_array()[l] = k_a.x;
            al.r_ay.as_mut_array()[l] = k_a.y;
            al.r_bx.as_mut_array()[l] = k_b.x;
            al.r_by.as_mut_array()[l] = k_b.y;
            al.separation0.as_mut_array()[l] = p.separation0;
        }
        // The radii for now; the certificates are made below, all lanes at once.
        an.room.as_mut_array()[l] = c.radii.0 + c.radii.1;
        for (pl, p) in ch.points.iter_mut().zip(&c.points[..c.count]) {
            pl.rn_a.as_mut_array()[l] = p.rn_a;
            pl.rn_b.as_mut_array()[l] = p.rn_b;
            pl.rt_a.as_mut_array()[l] = p.rt_a;
            pl.rt_b.as_mut_array()[l] = p.rt_b;
            pl.normal_mass.as_mut_array()[l] = p.normal_mass;
            pl.tangent_mass.as_mut_array()[l] = p.tangent_mass;
            pl.wn_a.as_mut_array()[l] = a.inv_inertia * p.rn_a;
            pl.wn_b.as_mut_array()[l] = b.inv_inertia * p.rn_b;
            pl.wt_a.as_mut_array()[l] = a.inv_inertia * p.rt_a;
            pl.wt_b.as_mut_array()[l] = b.inv_inertia * p.rt_b;
            pl.separation.as_mut_array()[l] = p.separation;
            pl.normal_impulse.as_mut_array()[l] = p.normal_impulse;
            pl.tangent_impulse.as_mut_array()[l] = p.tangent_impulse;
            pl.max_normal_impulse.as_mut_array()[l] = p.max_normal_impulse;
            pl.free_time.as_mut_array()[l] = p.free_time;
        }
    }
    certify(ch, an, constraints);
}

/// The certificates of the chunk's constraints (see [`Certificate::new`], whose arithmetic
/// this is lane by lane), `an.room` holding the sum of each constraint's radii: all lanes at
/// once for the core anchors, and [`Certificate::new`] itself for the few whose overlap is
/// deeper than their radii hold.
fn certify(ch: &mut Chunk, an: &mut Anchors, constraints: &[ContactConstraint]) {
    let radii = an.room;
    let s0 = an.points[0].separation0;
    let reach = V::splat(CONTACT_DISTANCE);
    an.lead = s0 + radii;
    an.room = radii + reach;
    let deep = s0.simd_lt(-(radii + radii) - reach).to_bitmask() & ch.live;
    ch.turns = deep != 0;
    for l in (0..W).filter(|l| deep & (1 << l) != 0) {
        let c = &constraints[ch.members[l] as usize];
        let cert = Certificate::new(c.points[0].separation0, c.radii, c.thin);
        an.lead.as_mut_array()[l] = cert.lead;
        an.room.as_mut_array()[l] = cert.room;
        an.turn_a.as_mut_array()[l] = cert.turn_a;
        an.turn_b.as_mut_array()[l] = cert.turn_b;
    }
    // Where the bodies were prepared, as `update_separations` finds it there: no gap, no
    // turn.
    let (kx, ky) = (an.lead * ch.nx, an.lead * ch.ny);
    let room = an.room.fast_max(V::ZERO);
    ch.armed = (kx * kx + ky * ky).simd_lt(room * room).to_bitmask();
    if cfg!(debug_assertions) {
        // The scalar form, lane by lane, bit for bit.
        for (l, &i) in ch.members[..ch.len].iter().enumerate() {
            let c = &constraints[i as usize];
            let cert = Certificate::new(c.points[0].separation0, c.radii, c.thin);
            let lane = |x: V| x.to_array()[l].to_bits();
            debug_assert_eq!(
                [
                    lane(an.lead),
                    lane(an.room),
                    lane(an.turn_a),
                    lane(an.turn_b)
                ],
                [cert.lead, cert.room, cert.turn_a, cert.turn_b].map(Real::to_bits)
            );
        }
    }
}

/// Every point's separation where the bodies are now (see
/// [`current_separation`], whose arithmetic this is lane by
/// lane), and whether its core anchors are near enough to arm it for the substep (see
/// [`gate`](super::gate)). Lanes without a point get a meaningless separation, which no pass
/// reads back.
pub(super) fn update_separations(
    chunks: &mut [Chunk],
    anchors: &[Anchors],
    constraints: &[ContactConstraint],
    states: &[BodyState],
) {
    for_each_independent(chunks, |first, chunks| {
        for (ch, an) in chunks.iter_mut().zip(&anchors[first..]) {
            update_chunk_separations(ch, an, constraints, states);
        }
    });
}

/// [`update_separations`] of one chunk.
#[inline]
fn update_chunk_separations(
    ch: &mut Chunk,
    an: &Anchors,
    constraints: &[ContactConstraint],
    states: &[BodyState],
) {
    let a = Motion::gather(states, &ch.body_a);
    let b = Motion::gather(states, &ch.body_b);
    // The anchors turned with their bodies, then the gap between B's and A's.
    let gap = |al: &AnchorLanes| {
        let (rax, ray) = a.rotate(al.r_ax, al.r_ay);
        let (rbx, rby) = b.rotate(al.r_bx, al.r_by);
        (
            ((b.dpx - a.dpx) + (al.r_ax - al.r_bx)) + (rbx - rax),
            ((b.dpy - a.dpy) + (al.r_ay - al.r_by)) + (rby - ray),
        )
    };
    let [p, q] = &mut ch.points;
    let [ap, aq] = &an.points;
    let (gx, gy) = gap(ap);
    p.separation = (gx * ch.nx + gy * ch.ny) + ap.separation0;
    let (hx, hy) = gap(aq);
    q.separation = (hx * ch.nx + hy * ch.ny) + aq.separation0;
    // The certificate, on the first point: the witnesses are no farther apart than the
    // room they have.
    let (kx, ky) = (gx + an.lead * ch.nx, gy + an.lead * ch.ny);
    let room = if ch.turns {
        let (chord_a, chord_b) = (
            Motion::chords(states, &ch.body_a),
            Motion::chords(states, &ch.body_b),
        );
        (an.room - (an.turn_a * chord_a + an.turn_b * chord_b)).fast_max(V::ZERO)
    } else {
        an.room
    };
    ch.armed = (kx * kx + ky * ky).simd_lt(room * room).to_bitmask();
    if cfg!(debug_assertions) {
        // The scalar form, lane by lane, bit for bit.
        for (l, &i) in ch.members[..ch.len].iter().enumerate() {
            let c = &constraints[i as usize];
            let (sa, sb) = (&states[c.state_a as usize], &states[c.state_b as usize]);
            for (pl, p) in ch.points.iter().zip(c.points()) {
                let scalar = current_separation(sa, sb, c, p);
                debug_assert_eq!(pl.separation.to_array()[l].to_bits(), scalar.to_bits());
            }
        }
    }
}

/// Displacement and rotation since preparation of one side of a chunk's constraints.
struct Motion {
    dpx: V,
    dpy: V,
    cos: V,
    sin: V,
}

impl Motion {
    #[inline(always)]
    fn gather(states: &[BodyState], index: &[u32; W]) -> Self {
        let [s0, s1, s2, s3] = index.map(|i| &states[i as usize]);
        Self {
            dpx: V::new([s0.dp.x, s1.dp.x, s2.dp.x, s3.dp.x]),
            dpy: V::new([s0.dp.y, s1.dp.y, s2.dp.y, s3.dp.y]),
            cos: V::new([s0.dq.0, s1.dq.0, s2.dq.0, s3.dq.0]),
            sin: V::new([s0.dq.1, s1.dq.1, s2.dq.1, s3.dq.1]),
        }
    }

    /// How far each body's rotation moves the end of a unit lever: `|dq - 1|`.
    #[inline(always)]
    fn chords(states: &[BodyState], index: &[u32; W]) -> V {
        V::new(index.map(|i| states[i as usize].chord))
    }

    /// `(x, y)` turned by the rotation, as `rotate` in the scalar code.
    #[inline(always)]
    fn rotate(&self, x: V, y: V) -> (V, V) {
        (self.cos * x - self.sin * y, self.sin * x + self.cos * y)
    }
}

/// Re-applies every accumulated impulse at the prepared lever arms, chunk by chunk (each
/// body sees its constraints in pair order).
pub(super) fn warm_start<B: BodyAccess + ?Sized>(chunks: &[Chunk], bodies: &mut B) {
    for ch in chunks {
        let mut a = Velocities::gather(bodies, &ch.body_a);
        let mut b = Velocities::gather(bodies, &ch.body_b);
        let [p, q] = &ch.points;
        // Both points at once: the impulse n * normal + t * tangent, the tangent being
        // (normal.y, -normal.x), summed over the points for the linear part.
        let n = p.normal_impulse + q.normal_impulse;
        let t = p.tangent_impulse + q.tangent_impulse;
        let spin = |wn_p: V, wn_q: V, wt_p: V, wt_q: V| {
            (wn_p * p.normal_impulse + wn_q * q.normal_impulse)
                + (wt_p * p.tangent_impulse + wt_q * q.tangent_impulse)
        };
        a.sub(
            ch.nx_ma * n + ch.ny_ma * t,
            ch.ny_ma * n - ch.nx_ma * t,
            spin(p.wn_a, q.wn_a, p.wt_a, q.wt_a),
        );
        b.add(
            ch.nx_mb * n + ch.ny_mb * t,
            ch.ny_mb * n - ch.nx_mb * t,
            spin(p.wn_b, q.wn_b, p.wt_b, q.wt_b),
        );
        a.scatter(bodies, &ch.body_a, ch.write_a);
        b.scatter(bodies, &ch.body_b, ch.write_b);
    }
}

/// Points that have not pushed yet this step fly free one more substep of `h`: their
/// `free_time` ends as the time from the step's start to the substep they first push in.
pub(super) fn capture_free_flight(chunks: &mut [Chunk], h: Real) {
    let h = V::splat(h);
    for_each_independent(chunks, |_, chunks| {
        for ch in chunks {
            for p in &mut ch.points {
                let fresh =
                    p.normal_impulse.simd_eq(V::ZERO) & p.max_normal_impulse.simd_eq(V::ZERO);
                p.free_time = fresh.select(p.free_time + h, p.free_time);
            }
        }
    });
}

/// One Gauss-Seidel sweep, with or without the position bias: per chunk, the normal impulses
/// of the first and the second points, then their friction clamped by the updated normal
/// impulses.
pub(super) fn sweep<const BIAS: bool, B: BodyAccess + ?Sized>(
    chunks: &mut [Chunk],
    bodies: &mut B,
    inv_h: Real,
    max_push: Real,
    gate: &Gate<'_>,
) {
    let inv_h = V::splat(inv_h);
    let min_bias = V::splat(-max_push);
    for ch in chunks {
        let mut a = Velocities::gather(bodies, &ch.body_a);
        let mut b = Velocities::gather(bodies, &ch.body_b);
        // Every relative velocity at the start of the chunk, side by side; each update then
        // adds the couplings of the impulses before it (see `Chunk::k_n1n0`), and the bodies
        // take all four impulses at the end. Only impulses wait on impulses.
        let (tx, ty) = (ch.ny, -ch.nx);
        let [p, q] = &ch.points;
        let vn0 = a.along(&b, ch.nx, ch.ny, p.rn_a, p.rn_b);
        let vn1 = a.along(&b, ch.nx, ch.ny, q.rn_a, q.rn_b);
        let vt0 = a.along(&b, tx, ty, p.rt_a, p.rt_b);
        let vt1 = a.along(&b, tx, ty, q.rt_a, q.rt_b);
        let soft = (ch.bias_rate, ch.mass_scale, ch.impulse_scale);
        // The lanes the gate may have to see: none, nearly always.
        let (armed, live) = (&mut ch.armed, ch.live);
        let unarmed = |armed: u32| !armed & live;
        let [p, q] = &mut ch.points;
        let mut new0 = normal_target::<BIAS>(p, soft, vn0, inv_h, min_bias);
        if unarmed(*armed) != 0 {
            let flagged = rises(p, new0) & unarmed(*armed);
            if flagged != 0 {
                let pass = Pass { gate, ahead: BIAS };
                let allowed = pass.vet(&ch.members, flagged, |l| lane_velocities(&a, &b, l));
                *armed |= allowed;
                new0 = refuse(new0, flagged & !allowed);
            }
        }
        let n0 = commit(p, new0);
        let mut new1 = normal_target::<BIAS>(q, soft, vn1 + ch.k_n1n0 * n0, inv_h, min_bias);
        if unarmed(*armed) != 0 {
            let flagged = rises(q, new1) & unarmed(*armed);
            if flagged != 0 {
                // The velocities the second point sees: the first point's impulse applied.
                let pass = Pass { gate, ahead: BIAS };
                let (ma, mb) = ((ch.nx_ma, ch.ny_ma), (ch.nx_mb, ch.ny_mb));
                let (wa, wb) = (p.wn_a, p.wn_b);
                let allowed = pass.vet(&ch.members, flagged, |l| {
                    let [(va, sa), (vb, sb)] = lane_velocities(&a, &b, l);
                    let (j, lane) = (n0.to_array()[l], |x: V| x.to_array()[l]);
                    [
                        (
                            va - Vector::new(lane(ma.0), lane(ma.1)) * j,
                            sa - lane(wa) * j,
                        ),
                        (
                            vb + Vector::new(lane(mb.0), lane(mb.1)) * j,
                            sb + lane(wb) * j,
                        ),
                    ]
                });
                *armed |= allowed;
                new1 = refuse(new1, flagged & !allowed);
            }
        }
        let n1 = commit(q, new1);
        let t0 = friction(p, ch.friction, vt0 + (ch.k_t0n0 * n0 + ch.k_t0n1 * n1));
        let t1 = friction(
            q,
            ch.friction,
            vt1 + ((ch.k_t1n0 * n0 + ch.k_t1n1 * n1) + ch.k_t1t0 * t0),
        );
        let (n, t) = (n0 + n1, t0 + t1);
        // The impulse n * normal + t * tangent, the tangent being (normal.y, -normal.x).
        a.sub(
            ch.nx_ma * n + ch.ny_ma * t,
            ch.ny_ma * n - ch.nx_ma * t,
            (p.wn_a * n0 + q.wn_a * n1) + (p.wt_a * t0 + q.wt_a * t1),
        );
        b.add(
            ch.nx_mb * n + ch.ny_mb * t,
            ch.ny_mb * n - ch.nx_mb * t,
            (p.wn_b * n0 + q.wn_b * n1) + (p.wt_b * t0 + q.wt_b * t1),
        );
        a.scatter(bodies, &ch.body_a, ch.write_a);
        b.scatter(bodies, &ch.body_b, ch.write_b);
    }
}

/// The velocities of lane `l`'s bodies.
#[inline(always)]
fn lane_velocities(a: &Velocities, b: &Velocities, l: usize) -> PairVelocities {
    let side = |v: &Velocities| {
        (
            Vector::new(v.vx.to_array()[l], v.vy.to_array()[l]),
            v.w.to_array()[l],
        )
    };
    [side(a), side(b)]
}

/// One pass's view of the gate: looking a substep ahead (the biased pass) or not (relax).
struct Pass<'a, 'g> {
    gate: &'a Gate<'g>,
    ahead: bool,
}

impl Pass<'_, '_> {
    /// The lanes of `flagged` (a bit per lane) whose bodies the gate lets push, as bits, with
    /// lane `l`'s velocities given by `velocities(l)`.
    #[cold]
    #[inline(never)]
    fn vet(
        &self,
        members: &[u32; W],
        flagged: u32,
        velocities: impl Fn(usize) -> PairVelocities,
    ) -> u32 {
        (0..W)
            .filter(|&l| {
                flagged & (1 << l) != 0 && self.gate.allows(members[l], velocities(l), self.ahead)
            })
            .fold(0, |bits, l| bits | (1 << l))
    }
}

/// The lanes (a bit per lane) where the pass would raise the normal impulse of point `p` to
/// `new`: those of a constraint not armed the gate must see first (see [`refuse`]). Padding
/// lanes and missing points hold zeros and never rise.
#[inline(always)]
fn rises(p: &PointLanes, new: V) -> u32 {
    new.simd_gt(p.normal_impulse).to_bitmask()
}

/// `new` with the lanes of `refused` (bits) set to zero: bodies not in contact hold no
/// impulse at all.
#[inline(always)]
fn refuse(new: V, refused: u32) -> V {
    let lane = |l: u32| if refused & (1 << l) != 0 { 1.0 } else { 0.0 };
    let refused = V::new([lane(0), lane(1), lane(2), lane(3)]).simd_gt(V::ZERO);
    refused.select(V::ZERO, new)
}

/// Makes `new` the normal impulse of point `p` in every lane; returns the change.
#[inline(always)]
fn commit(p: &mut PointLanes, new: V) -> V {
    let impulse = new - p.normal_impulse;
    p.normal_impulse = new;
    // Only ever compared with zero: which zero does not matter.
    p.max_normal_impulse = impulse.fast_max(p.max_normal_impulse);
    impulse
}

/// The accumulated normal impulse the pass would give point `p` in every lane, given its
/// relative velocity `vn` and the softness `(bias_rate, mass_scale, impulse_scale)`, before
/// the gate's say (see [`rises`]).
#[inline(always)]
fn normal_target<const BIAS: bool>(
    p: &PointLanes,
    (bias_rate, soft_mass_scale, soft_impulse_scale): (V, V, V),
    vn: V,
    inv_h: V,
    min_bias: V,
) -> V {
    let s = p.separation;
    let speculative = s.simd_gt(V::ZERO);
    let old = p.normal_impulse;
    if BIAS {
        // Speculative: the bodies may close the gap within this substep and no more, with no
        // impulse until they would touch. Touching: the soft push-out, at most `max_push`.
        let bias = speculative.select(s * inv_h, (bias_rate * s).fast_max(min_bias));
        let mass_scale = speculative.select(V::ONE, soft_mass_scale);
        let impulse_scale = speculative.select(V::ZERO, soft_impulse_scale);
        let k = -p.normal_mass * mass_scale;
        let rest = old + (k * bias - impulse_scale * old);
        (k * vn + rest).fast_max(V::ZERO)
    } else {
        // Relax runs after positions moved and leaves speculative points alone: the next
        // substep's biased pass caps the approach before anything moves again, so capping it
        // here as well (as Box2D v3 does) only slows the bodies a substep early. At the end of
        // a step that early cap would make restitution fire across a gap (a bounce off thin
        // air) and shave the approach speed the next step captures. Nor does it give back
        // what a speculative point holds beyond closing its gap: that lets rain discs through
        // thin segments under MotionClamping, and makes its steps much slower.
        let new = (old - p.normal_mass * vn).fast_max(V::ZERO);
        speculative.select(old, new)
    }
}

/// The change of friction impulse of a point in every lane, given its tangent relative
/// velocity `vt`, clamped by its normal impulse.
#[inline(always)]
fn friction(p: &mut PointLanes, friction: V, vt: V) -> V {
    let old = p.tangent_impulse;
    let max_friction = friction * p.normal_impulse;
    // `clamp` as `if x < lo { x = lo }; if x > hi { x = hi }`.
    let new = max_friction.fast_min((-max_friction).fast_max(old - p.tangent_mass * vt));
    // A point that holds no impulse (a speculative one; in a stack the gaps between
    // neighbours in a row, a third of a pyramid's points) could only clamp its friction to
    // zero; it is left alone.
    let holds_nothing = p.normal_impulse.simd_eq(V::ZERO) & old.simd_eq(V::ZERO);
    let new = holds_nothing.select(old, new);
    p.tangent_impulse = new;
    new - old
}
