//! The curved step bounds of conservative advancement: how far the shapes can advance from the
//! cores placed in a [`Frame`] while a separation, a lower bound on their distance, stays
//! above the target. Along the fixed normal of the last distance (each vertex pair's separation
//! bounded below by a concave quadratic), and over the faces that turn with their bodies
//! (the face that realised the last distance, or those that face each other); each step is the
//! first root of its family of bounds (`roots`).

use super::faces::Face;
use super::frame::Frame;
use super::mover::{CURVED_MAX_VERTICES, Mover};
use super::roots::{first_root, highest, lesser, lowest, positive, root};
use impact_geometry::{Real, Vector, cross, perp};

/// What the step bounds share over one query.
pub(super) struct Bounds {
    /// Displacement of A's centre of mass relative to B's, over the step.
    pub(super) relative: Vector,
    /// The fastest rotation can move a core point of A plus that of B, per step.
    pub(super) spin: Real,
    /// Half the bound on the relative centripetal acceleration of two core points.
    pub(super) half_curvature: Real,
    /// Radii plus target: how far apart the cores must stay.
    pub(super) offset: Real,
}

/// The longest step the bounds certify from the cores placed in `frame` at the current time:
/// along the fixed GJK normal, and along the normal of the face of each shape that faces the
/// other, turning with its body. Each separation is a lower bound on the distance, so the
/// longest step any of them certifies is safe.
///
/// The turning face is what makes this fast. Against a face that turns, the separation along
/// the fixed normal falls at the rate of the face's far corner, while the distance falls at
/// the rate of the face under the other body's vertex; conservative advancement along the
/// fixed normal then closes only part of the gap each step (half of it when the vertex is
/// halfway out along the face). The height of the other body's vertices over the turning face
/// is Box2D's separation function, here with a proven bound on its second derivative.
///
/// The faces cost about as much as the fixed axis, so they are only tried when `faces` is
/// set: the caller sets it when the last step closed less than half of the gap.
#[inline]
pub(super) fn curved_step(
    a: &Mover<'_>,
    b: &Mover<'_>,
    normal: &Vector,
    bounds: &Bounds,
    remaining: Real,
    faces: bool,
    frame: &Frame,
) -> Real {
    let mut step = frame.step_along(a, b, normal, bounds);
    let arms_a = &frame.arms_a[..frame.count_a];
    let arms_b = &frame.arms_b[..frame.count_b];
    if faces {
        if let Some(face) = Face::facing(a.shape, a.sweep, &frame.rotation_a, normal) {
            step = step.max(face.step(a, b, arms_b, &frame.centers, bounds.offset, remaining));
        }
        if let Some(face) = Face::facing(b.shape, b.sweep, &frame.rotation_b, &-normal) {
            step = step.max(face.step(b, a, arms_a, &-frame.centers, bounds.offset, remaining));
        }
    }
    step
}

impl Frame {
    /// The step certified by the height of the other core's vertices over face `k` of `body`
    /// (A's if `on_a`, else B's; `local_normal` its outward normal in the body's axes),
    /// turning with it: [`Face::step`] for the face the last evaluation found realising the
    /// distance, with a curvature bound per vertex that holds up to `remaining`.
    ///
    /// A vertex of the other core at `c + a` from the face body's centre (`c` the other's
    /// centre, `a` the vertex's arm) has height `g = f . c + f . a - level` over the face,
    /// `f` its normal turning at `w_f`. The centre's part has `(f . c)'' = -w_f^2 f . c +
    /// 2 w_f perp(f) . v`, at most `w_f^2 (|c| + |v| T) + 2 |w_f| |v|` in size over a reach
    /// `T` (`v` the centres' relative velocity); or, from its exact value now, it is within
    /// `|(f . c)'''| T <= (|w_f|^3 (|c| + |v| T) + 3 w_f^2 |v|) T` of it, which is far less
    /// when the face turns by little over the reach: the lesser bound is taken (each vertex's
    /// total, which may then come out negative, counts as zero, as the family's roots need
    /// concave members). The arm's part is the arm turning at `w =
    /// w_o - w_f` against the face, exactly `u cos w t + v_a sin w t` with `u = f . a` and
    /// `v_a = cross(a, f)` now, so it falls below its tangent by at most `w^2 r_o t^2 / 2`,
    /// and by at most `u w^2 t^2 / 2` (only if `u > 0`: a vertex beyond its centre) plus
    /// `v_a w^3 t^3 / 6 <= v_a w^3 T t^2 / 6` (only if `w v_a > 0`: turning toward the face);
    /// the smaller is taken. The vertices that decide, near the face, have `u < 0`: a cubic
    /// term, where one bound on the second derivative of the whole height charged them the
    /// rotation of both bodies in full (`w_o^2 r_o` and `w_f^2 |x|` and the cross terms).
    /// When both bodies turn together the arm's part hardly moves.
    ///
    /// The reach `T` is the root of the `hint` vertex's bound without its cubic term (any
    /// vertex's: the step, the first root over all of them, comes no later), capped at
    /// `remaining`. The last distance's vertex is the likeliest to be lowest.
    ///
    /// Near contact the face of a face-to-vertex contact turns with its body while the fixed
    /// normal does not, so this step closes the gap where the fixed axis, overstating the
    /// approach by the face's far corner, crawls. Its rate at `t = 0` is
    /// `s0 + (w_o - w_f) cross(arm, f)` for a vertex at `arm` from the other's centre.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn face_step(
        &mut self,
        body: &Mover<'_>,
        other: &Mover<'_>,
        on_a: bool,
        k: usize,
        local_normal: &Vector,
        offset: Real,
        remaining: Real,
        hint: usize,
    ) -> Real {
        // The other core is read in its own axes (its arms may be stale): `u` and `v` below
        // are the same in any axes, the normal turned into them.
        let (rotation, local, arms, other_rotation, centers) = if on_a {
            (
                &self.rotation_a,
                &self.local_a,
                &self.local_b[..self.count_b],
                &self.rotation_b,
                self.centers,
            )
        } else {
            (
                &self.rotation_b,
                &self.local_b,
                &self.local_a[..self.count_a],
                &self.rotation_a,
                -self.centers,
            )
        };
        let normal = rotation * local_normal;
        let axis = other_rotation.inverse_transform_vector(&normal);
        // The face's line, from the face body's centre, plus radii and target.
        let level = local_normal.dot(&local[k]) + offset;
        let relative = other.displacement - body.displacement;
        let rate = body.turn * perp(&normal).dot(&centers) + normal.dot(&relative);
        let spin = other.turn - body.turn;
        let (centre, drift, now, taylor) =
            centre_curvature(body.turn, &normal, &centers, &relative);
        let half_s2 = 0.5 * spin * spin;
        // Each vertex's height beyond the offset is `base + f . a`.
        let base = normal.dot(&centers) - level;
        let arm = &arms[hint.min(arms.len() - 1)];
        let u = axis.dot(arm);
        if base + u <= 0.0 {
            // Some vertex is already within the offset: so is the lowest.
            return 0.0;
        }
        let reach = root(
            base + u,
            rate + spin * cross(arm, &axis),
            positive(lesser(centre, now) + half_s2 * positive(u)),
        )
        .min(remaining);
        let shared = lesser(
            centre + drift * reach,
            now + (taylor.0 + taylor.1 * reach) * reach,
        );
        let cubic = spin * spin * reach / 6.0;
        let quadratic = half_s2 * other.arm;
        // Each vertex's bound `c + s t - half_k t^2`; the lowest at 0 read off while filling.
        let family = &mut self.family;
        let (mut bottom, mut bottom_height) = (0, Real::INFINITY);
        for (i, (m, arm)) in family.iter_mut().zip(arms).enumerate() {
            let (u, v) = (axis.dot(arm), cross(arm, &axis));
            let signed = half_s2 * positive(u) + cubic * positive(spin * v);
            *m = (
                base + u,
                rate + spin * v,
                positive(shared + lesser(signed, quadratic)),
            );
            if m.0 < bottom_height {
                (bottom, bottom_height) = (i, m.0);
            }
        }
        let family = &family[..arms.len()];
        // As `first_root`: the root of the member lowest at 0 is the first trial; if the
        // member lowest at a trial is still positive there, every member is positive up to it
        // (each is concave and positive at 0); otherwise that member's root is a shorter
        // trial.
        let (c, s, half_k) = family[bottom];
        if c <= 0.0 {
            return 0.0;
        }
        let mut best = root(c, s, half_k);
        for _ in 0..family.len() {
            let mut low = family[0];
            let mut low_at = low.0 + best * (low.1 - best * low.2);
            for &m in &family[1..] {
                let at = m.0 + best * (m.1 - best * m.2);
                if at < low_at {
                    (low, low_at) = (m, at);
                }
            }
            if low_at > 0.0 {
                break;
            }
            let shorter = root(low.0, low.1, low.2);
            // A member repeats only through rounding of its own root.
            if shorter >= best {
                break;
            }
            best = shorter;
        }
        best
    }

    /// The step certified along the fixed unit `axis` (from A toward B): zero if the
    /// separation along it is not positive.
    ///
    /// The separation is at least the smallest, over vertex pairs, of `c + s t - k t^2 / 2`,
    /// `c` the pair's separation beyond the offset, `s` its rate and `k` the bound on the
    /// relative centripetal acceleration. Every pair shares `k`, so at a trial step the pair
    /// lowest there is the vertex of A highest along the axis and the vertex of B lowest, each
    /// extrapolated linearly to the trial: one pass over each shape finds it, and
    /// [`first_root`] does the rest.
    #[inline]
    fn step_along(&self, a: &Mover<'_>, b: &Mover<'_>, axis: &Vector, bounds: &Bounds) -> Real {
        let mut heights_a = [(0.0, 0.0); CURVED_MAX_VERTICES];
        let mut heights_b = [(0.0, 0.0); CURVED_MAX_VERTICES];
        let (along_a, along_b) = (axis.dot(&a.displacement), axis.dot(&b.displacement));
        // Trial 0, which finds the pair that realises the separation, is read off while
        // filling: A's highest vertex and B's lowest, the first of equals, as `highest` and
        // `lowest` pick them at 0.
        // (Each running extreme is kept in a local: read back from the array, it cost a
        // reload and a bounds check per vertex.)
        let (mut top, mut top_height) = (0, Real::NEG_INFINITY);
        for (i, arm) in self.arms_a[..self.count_a].iter().enumerate() {
            let h = (axis.dot(arm), along_a + a.turn * cross(arm, axis));
            heights_a[i] = h;
            if h.0 > top_height {
                (top, top_height) = (i, h.0);
            }
        }
        let (mut bottom, mut bottom_height) = (0, Real::INFINITY);
        for (i, arm) in self.arms_b[..self.count_b].iter().enumerate() {
            let h = (axis.dot(arm), along_b + b.turn * cross(arm, axis));
            heights_b[i] = h;
            if h.0 < bottom_height {
                (bottom, bottom_height) = (i, h.0);
            }
        }
        let centers = axis.dot(&self.centers) - bounds.offset;
        let start = (
            centers + heights_b[bottom].0 - heights_a[top].0,
            heights_b[bottom].1 - heights_a[top].1,
        );
        let (heights_a, heights_b) = (&heights_a[..self.count_a], &heights_b[..self.count_b]);
        let half_k = bounds.half_curvature;

        first_root(half_k, self.count_a * self.count_b, start, |t| {
            let (ha, ra) = highest(heights_a, t);
            let (hb, rb) = lowest(heights_b, t);
            (centers + hb - ha, rb - ra)
        })
    }
}

/// The centre's part of each half curvature of [`Frame::face_step`]'s family, for a face
/// turning at `w` (per step) with unit `normal`, the other body's centre at `centers` from
/// the face body's and moving at `relative` to it: bounded two ways, by the size of its second
/// derivative (`centre` at reach 0, `drift` per unit of reach), and by its exact value `now`
/// plus the size of its third derivative over the reach (`taylor`: per unit of reach, and per
/// unit of reach squared). All zero for a face that does not turn (ground).
#[inline(always)]
fn centre_curvature(
    w: Real,
    normal: &Vector,
    centers: &Vector,
    relative: &Vector,
) -> (Real, Real, Real, (Real, Real)) {
    if w == 0.0 {
        return (0.0, 0.0, 0.0, (0.0, 0.0));
    }
    let (w2, speed, distance) = (w * w, relative.norm(), centers.norm());
    let second = w * (2.0 * perp(normal).dot(relative) - w * normal.dot(centers));
    let w3 = (w2 * w).abs();
    (
        0.5 * w2 * distance + w.abs() * speed,
        0.5 * w2 * speed,
        -0.5 * second,
        ((w3 * distance + 3.0 * w2 * speed) / 6.0, w3 * speed / 6.0),
    )
}
