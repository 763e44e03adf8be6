//! Conservative advancement (seed 002): time of impact for shapes that rotate.
//!
//! At the current time the distance `g` and its normal `n` are known, and the separation of
//! the shapes along the fixed direction `n` is a lower bound on their distance at every later
//! time. Bounds on how fast such a separation can fall certify a step during which the shapes
//! stay farther apart than the target:
//!
//! - **Linear** (seed 002): every point of A approaches along `n` at most at
//!   `v_a . n + |w_a| r_a` and every point of B recedes at least at `v_b . n - |w_b| r_b` (with
//!   `r` the farthest core point from the centre of mass), so the separation falls by at most
//!   `mu = (v_a - v_b) . n + |w_a| r_a + |w_b| r_b` per step and `(g - target) / mu` is safe.
//!   If `mu <= 0` the shapes can never approach.
//! - **Curved**: the height along `n` of a core vertex at distance `r` from its centre of mass
//!   is `h(t) = h(0) + h'(0) t + e(t)` with `|e(t)| <= w^2 r t^2 / 2` (its second derivative is
//!   the centripetal acceleration's component). The separation is at least the smallest, over
//!   vertex pairs, of `c + s t - k t^2 / 2` (with `c` the pair's gap, `s` its exact approach
//!   rate at the current time and `k = w_a^2 r_a + w_b^2 r_b`), and the first root of that is
//!   safe. Near contact it is Newton's step from below, where the linear bound crawls: a box
//!   turning twice per step approaches at a fraction of the `|w| r` the linear bound assumes.
//! - **Turning face**: the height of B's core vertices over the face of A that faces B, turning
//!   with A (and the same with the roles swapped), is Box2D's separation function. Its second
//!   derivative is bounded too, and near a face contact it falls at the true approach rate,
//!   where the fixed normal overstates it (see `curved_step`). It is tried once plain
//!   advancement slows down.
//!
//! The step taken is the longest of these; each is a proof, so their union is. Before any of
//! this, each body's bounding circle about its centre of mass (radius `r` plus its rounding)
//! moves on a line without turning, so the closed-form time at which the circles come within
//! the target opens a window outside of which the shapes cannot come within it: a sweep whose
//! circles never meet is answered at once, advancement starts where the circles first meet,
//! and it stops where they part for good. When only one body turns, the closed-form time of
//! impact of its circle against the other shape itself opens the window instead (a spinning
//! plank over long static ground, whose own circle covers everything).
//!
//! By construction the answer is never later than the first time the shapes come within the
//! target (to the accuracy of the distance computation, which is exact to rounding).
//! Iterations stop once within `tolerance` of the target. The distance at `t = 0` is the exact
//! signed distance when the start is close (it must classify overlap); every other distance
//! comes from GJK warm-started from the previous simplex, exact for separated shapes.

use super::closed_form_toi;
use crate::distance::distance;
use crate::gjk::{GjkCache, GjkOutput, gjk_distance};
use crate::minkowski::{circle_entry, circle_exit};
use crate::{Hit, Toi, ToiOptions};
use impact_geometry::{
    Circle, Isometry, Point, Real, Rotation, Shape, Sweep, Vector, cross, cross_scalar_vector,
    nalgebra, perp, rotation_by,
};

/// How many core vertices per shape the curved bound handles (it keeps B's on the stack and
/// visits every pair); larger polygons advance by the linear bound alone.
const CURVED_MAX_VERTICES: usize = 16;

/// A shape on its sweep, with what the bounds need precomputed.
struct Mover<'a> {
    shape: &'a Shape,
    sweep: &'a Sweep,
    /// Displacement of the centre of mass over the step.
    displacement: Vector,
    /// Angle turned over the step.
    turn: Real,
    /// The largest distance from the centre of mass to a core point: how far rotation can
    /// move a point of the core per radian (the rounding turns in place).
    arm: Real,
    /// The centre of mass at the start, in world coordinates.
    start_center: Point,
}

impl<'a> Mover<'a> {
    fn new(shape: &'a Shape, sweep: &'a Sweep) -> Self {
        Self {
            shape,
            sweep,
            displacement: sweep.displacement(),
            turn: sweep.rotation_angle(),
            arm: shape.core_bounding_radius(&sweep.local_center()),
            start_center: sweep.center_at(0.0),
        }
    }

    /// The pose at fraction `t`: [`Sweep::pose_at`] bit for bit, with the start's centre of
    /// mass computed once.
    fn pose_at(&self, t: Real) -> Isometry {
        if self.turn == 0.0 {
            return self.sweep.pose_at(t);
        }
        let rotation =
            self.sweep.start().rotation * rotation_by(self.sweep.angvel() * (self.sweep.dt() * t));
        let center = self.start_center + self.sweep.linvel() * (self.sweep.dt() * t);
        Isometry::from_parts(
            (center.coords - rotation * self.sweep.local_center().coords).into(),
            rotation,
        )
    }

    /// Radius of the circle about the centre of mass that holds the whole shape
    /// ([`Shape::bounding_radius`] about it, from the arm already known).
    fn bounding_radius(&self) -> Real {
        self.arm + self.shape.radius()
    }

    /// How fast rotation can move a core point, per step.
    fn rotation_speed(&self) -> Real {
        self.turn.abs() * self.arm
    }

    /// Bound on the centripetal acceleration of any core point, per step squared.
    fn curvature(&self) -> Real {
        self.turn * self.turn * self.arm
    }

    /// Velocity (per step) of the material point at world position `p` at `t = 0`.
    fn point_velocity(&self, p: &Point) -> Vector {
        self.displacement + cross_scalar_vector(self.turn, &(p - self.start_center))
    }
}

/// Where the bounding circles allow an impact.
enum Window {
    /// The circles never come within the target: no impact is possible.
    Never,
    /// Only in `[enter, leave]` can the shapes come within the target; `close_start` says the
    /// circles are within target plus tolerance at `t = 0`, so the start must be classified.
    Open {
        enter: Real,
        leave: Real,
        close_start: bool,
    },
}

impl Window {
    fn new(a: &Mover<'_>, b: &Mover<'_>, target: Real, tolerance: Real) -> Self {
        let p = b.start_center - a.start_center;
        let v = b.displacement - a.displacement;
        let pp = p.norm_squared();
        let reach = a.bounding_radius() + b.bounding_radius() + target;
        // Rounding in the positions must not shrink the window: widen it far beyond it.
        let reach = reach + 1e-9 * (reach + pp.sqrt());
        let close_start = pp <= (reach + tolerance) * (reach + tolerance);
        // In the frame of A's centre, B's centre starts at `p` and moves by `v`: the point
        // `t v` against the circle of radius `reach` about `-p`.
        let leave = circle_exit(&-p, reach, &v);
        if close_start {
            let leave = match leave {
                Some(t) => t.max(0.0),
                // Not moving apart: the circles stay as close as they start.
                None if v == Vector::zeros() => Real::INFINITY,
                // The line misses the circle of the target: never within it.
                None => 0.0,
            };
            return Self::Open {
                enter: 0.0,
                leave,
                close_start,
            };
        }
        match (circle_entry(&-p, reach, &v), leave) {
            (Some(enter), Some(leave)) => Self::Open {
                enter,
                leave,
                close_start,
            },
            _ => Self::Never,
        }
    }
}

/// When exactly one body turns, the closed-form time of impact of its bounding circle (moving
/// with its centre of mass) against the other shape itself: a tighter window than two circles,
/// which matters most where it is most common, a spinning body falling onto long static
/// ground whose bounding circle covers everything.
///
/// `None` when both or neither turn, or when the circle starts within the target plus the
/// tolerance of the other shape: there the closed form applies its sliding rule to the circle
/// (a circle that starts touching and slides is "separated"), which says nothing about the
/// shape inside it, so only the start classification of conservative advancement can decide.
/// Otherwise `Separated` means the circle, and so the shape, never comes within the target,
/// and a hit is the first time the circle does, before which the shape cannot.
fn against_still_partner(a: &Mover<'_>, b: &Mover<'_>, options: &ToiOptions) -> Option<Toi> {
    let (spinning, still, swapped) = match (a.turn != 0.0, b.turn != 0.0) {
        (true, false) => (a, b, false),
        (false, true) => (b, a, true),
        _ => return None,
    };
    let circle = Shape::from(Circle::new(spinning.bounding_radius()).ok()?);
    let start = Isometry::from_parts(spinning.start_center.coords.into(), Rotation::identity());
    let apart = gjk_distance(
        &circle,
        &start,
        still.shape,
        &still.sweep.start(),
        &mut GjkCache::default(),
    );
    if apart.cores_overlap || apart.distance <= options.target_separation() + options.tolerance() {
        return None;
    }
    let sweep = Sweep::translating(start, spinning.displacement).ok()?;
    let toi = if swapped {
        closed_form_toi(still.shape, still.sweep, &circle, &sweep, options)
    } else {
        closed_form_toi(&circle, &sweep, still.shape, still.sweep, options)
    };
    toi.ok()
}

/// Time of impact of any two shapes under any sweeps, by conservative advancement.
///
/// Never later than the true first time the shapes come within the target separation (to the
/// accuracy of the distance computation, which is exact to rounding). Returns
/// [`Toi::NotConverged`] with the last safe fraction after `options.max_iterations()` distance
/// evaluations. Shapes that start within the target and slide or move apart are followed until
/// they come closer than they started by at least half the tolerance (the hit is reported
/// between half and the whole tolerance closer), since a rotating body can part at one corner
/// and strike with another later in the step.
pub fn toi_conservative_advancement(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Toi {
    let ma = Mover::new(a, sweep_a);
    let mb = Mover::new(b, sweep_b);
    let tolerance = options.tolerance();
    let mut target = options.target_separation();
    let mut convergence = tolerance;
    let (enter, leave, close_start) = match Window::new(&ma, &mb, target, tolerance) {
        Window::Never => return Toi::Separated,
        Window::Open {
            enter,
            leave,
            close_start,
        } => (enter, leave, close_start),
    };
    let end = leave.min(options.max_fraction());
    if enter > end {
        return Toi::Separated;
    }
    let (enter, close_start) = match against_still_partner(&ma, &mb, options) {
        Some(Toi::Separated) => return Toi::Separated,
        // The circle starts farther than the target plus the tolerance, so the shape does.
        Some(Toi::Hit(h)) => (enter.max(h.fraction), false),
        _ => (enter, close_start),
    };
    if enter > end {
        return Toi::Separated;
    }

    let mut t = enter;
    let mut pose_a = ma.pose_at(t);
    let mut pose_b = mb.pose_at(t);
    let mut cache = GjkCache::toward(
        a,
        &pose_a,
        b,
        &pose_b,
        &(pose_b * mb.sweep.local_center() - pose_a * ma.sweep.local_center()),
    );
    let mut now = gjk_distance(a, &pose_a, b, &pose_b, &mut cache);
    if close_start {
        // GJK is exact for separated cores and cheap; only overlapping cores need the exact
        // signed distance (to classify how deep they are).
        if now.cores_overlap {
            let exact = distance(a, &pose_a, b, &pose_b);
            now.distance = exact.distance;
            now.normal = exact.normal;
            now.point_a = exact.point_a;
            now.point_b = exact.point_b;
        }
        if now.distance < -tolerance {
            return Toi::Overlapping;
        }
        if now.distance <= target + tolerance {
            // The relative motion of the touching points over the step decides, through the
            // same rule as the closed forms (robust when the distance is of rounding size).
            let relative_motion = mb.point_velocity(&now.point_b) - ma.point_velocity(&now.point_a);
            if crate::distance::approaches_from_touch(
                a,
                &pose_a,
                b,
                &pose_b,
                &relative_motion,
                tolerance,
            ) {
                return hit(0.0, now.point_a, now.point_b, now.normal);
            }
            // Parting or sliding: only a later approach closer than the start by more than the
            // tolerance is an impact (the closed forms allow the same drift while sliding).
            target = now.distance - tolerance;
            convergence = 0.5 * tolerance;
        }
    } else if let Some(toi) = arrived(t, &now, target, convergence, a, &pose_a, b, &pose_b) {
        // Where the bounding circles first meet, a shape that fills its circle (a disc) is
        // already there.
        return toi;
    }

    let bounds = Bounds {
        relative: ma.displacement - mb.displacement,
        spin: ma.rotation_speed() + mb.rotation_speed(),
        half_curvature: 0.5 * (ma.curvature() + mb.curvature()),
        offset: a.radius() + b.radius() + target,
    };
    let mut previous_gap = Real::INFINITY;
    let mut frame = Frame::fits(a, b).then(|| Frame::new(&ma, &mb));
    for _ in 1..options.max_iterations() {
        let gap = now.distance - target;
        let mu = bounds.relative.dot(&now.normal) + bounds.spin;
        if mu <= 0.0 {
            return Toi::Separated;
        }
        let linear = gap / mu;
        // The curved bounds only ever lengthen the step: a linear step past the end already
        // proves the shapes stay apart.
        if t + linear > end {
            return Toi::Separated;
        }
        let curved = frame.as_mut().map_or(0.0, |frame| {
            curved_step(
                &ma,
                &pose_a,
                &mb,
                &pose_b,
                &now.normal,
                &bounds,
                end - t,
                gap > 0.5 * previous_gap,
                frame,
            )
        });
        let next = t + linear.max(curved);
        previous_gap = gap;
        if next > end {
            return Toi::Separated;
        }
        t = next;
        pose_a = ma.pose_at(t);
        pose_b = mb.pose_at(t);
        now = gjk_distance(a, &pose_a, b, &pose_b, &mut cache);
        if let Some(toi) = arrived(t, &now, target, convergence, a, &pose_a, b, &pose_b) {
            return toi;
        }
    }
    Toi::NotConverged { safe_fraction: t }
}

/// What the step bounds share over one query.
struct Bounds {
    /// Displacement of A's centre of mass relative to B's, over the step.
    relative: Vector,
    /// The fastest rotation can move a core point of A plus that of B, per step.
    spin: Real,
    /// Half the bound on the relative centripetal acceleration of two core points.
    half_curvature: Real,
    /// Radii plus target: how far apart the cores must stay.
    offset: Real,
}

/// The hit at `t` if the shapes are within `convergence` of the target there.
#[allow(clippy::too_many_arguments)]
fn arrived(
    t: Real,
    now: &GjkOutput,
    target: Real,
    convergence: Real,
    a: &Shape,
    pose_a: &Isometry,
    b: &Shape,
    pose_b: &Isometry,
) -> Option<Toi> {
    if now.cores_overlap {
        // Only rounding can bring the cores together before the target is reached; the exact
        // distance still gives a usable normal and point.
        let d = distance(a, pose_a, b, pose_b);
        return Some(hit(t, d.point_a, d.point_b, d.normal));
    }
    (now.distance - target <= convergence).then(|| hit(t, now.point_a, now.point_b, now.normal))
}

/// The longest step the bounds certify from the poses at the current time: along the fixed
/// GJK normal, and along the normal of the face of each shape that faces the other, turning
/// with its body. Each separation is a lower bound on the distance, so the longest step any
/// of them certifies is safe.
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
#[allow(clippy::too_many_arguments)]
fn curved_step(
    a: &Mover<'_>,
    pose_a: &Isometry,
    b: &Mover<'_>,
    pose_b: &Isometry,
    normal: &Vector,
    bounds: &Bounds,
    remaining: Real,
    faces: bool,
    frame: &mut Frame,
) -> Real {
    frame.place(a, pose_a, b, pose_b);
    let mut step = frame.step_along(a, b, normal, bounds);
    let arms_a = &frame.arms_a[..frame.count_a];
    let arms_b = &frame.arms_b[..frame.count_b];
    if faces {
        if let Some(face) = Face::facing(a.shape, a.sweep, pose_a, normal) {
            step = step.max(face.step(a, b, arms_b, &frame.centers, bounds.offset, remaining));
        }
        if let Some(face) = Face::facing(b.shape, b.sweep, pose_b, &-normal) {
            step = step.max(face.step(b, a, arms_a, &-frame.centers, bounds.offset, remaining));
        }
    }
    step
}

/// The core vertices of both shapes relative to their centres of mass, in world axes, at the
/// current poses.
struct Frame {
    arms_a: [Vector; CURVED_MAX_VERTICES],
    arms_b: [Vector; CURVED_MAX_VERTICES],
    count_a: usize,
    count_b: usize,
    /// From A's centre of mass to B's.
    centers: Vector,
}

impl Frame {
    /// Whether both shapes have few enough vertices for the curved bounds.
    fn fits(a: &Shape, b: &Shape) -> bool {
        a.core().len() <= CURVED_MAX_VERTICES && b.core().len() <= CURVED_MAX_VERTICES
    }

    /// An empty frame for the two shapes, to be [`place`](Self::place)d; they must
    /// [`fit`](Self::fits). Made once per query and refilled in place at every step: built
    /// whole at every step, the arrays were filled past the vertex counts and copied out.
    fn new(a: &Mover<'_>, b: &Mover<'_>) -> Self {
        Self {
            arms_a: [Vector::zeros(); CURVED_MAX_VERTICES],
            arms_b: [Vector::zeros(); CURVED_MAX_VERTICES],
            count_a: a.shape.core().len(),
            count_b: b.shape.core().len(),
            centers: Vector::zeros(),
        }
    }

    /// The arms at the given poses.
    #[inline]
    fn place(&mut self, a: &Mover<'_>, pose_a: &Isometry, b: &Mover<'_>, pose_b: &Isometry) {
        let (center_a, center_b) = (a.sweep.local_center(), b.sweep.local_center());
        for (arm, p) in self.arms_a.iter_mut().zip(a.shape.core()) {
            *arm = pose_a.rotation * (p - center_a);
        }
        for (arm, p) in self.arms_b.iter_mut().zip(b.shape.core()) {
            *arm = pose_b.rotation * (p - center_b);
        }
        self.centers = pose_b * center_b - pose_a * center_a;
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
    fn step_along(&self, a: &Mover<'_>, b: &Mover<'_>, axis: &Vector, bounds: &Bounds) -> Real {
        let mut heights_a = [(0.0, 0.0); CURVED_MAX_VERTICES];
        let mut heights_b = [(0.0, 0.0); CURVED_MAX_VERTICES];
        let (along_a, along_b) = (axis.dot(&a.displacement), axis.dot(&b.displacement));
        for (h, arm) in heights_a.iter_mut().zip(&self.arms_a[..self.count_a]) {
            *h = (axis.dot(arm), along_a + a.turn * cross(arm, axis));
        }
        for (h, arm) in heights_b.iter_mut().zip(&self.arms_b[..self.count_b]) {
            *h = (axis.dot(arm), along_b + b.turn * cross(arm, axis));
        }
        let (heights_a, heights_b) = (&heights_a[..self.count_a], &heights_b[..self.count_b]);
        let centers = axis.dot(&self.centers) - bounds.offset;
        let half_k = bounds.half_curvature;

        // Trial 0 finds the pair that realises the separation.
        first_root(half_k, self.count_a * self.count_b, |t| {
            let (ha, ra) = highest(heights_a, t, 1.0);
            let (hb, rb) = highest(heights_b, t, -1.0);
            (centers + hb - ha, rb - ra)
        })
    }
}

/// A face of a shape, as the line it lies on, in world axes at the current pose.
struct Face {
    /// Outward unit normal.
    normal: Vector,
    /// Distance of the face's line from the body's centre of mass along `normal`.
    offset: Real,
}

impl Face {
    /// The face of `shape` whose outward normal is closest in direction to `direction`; none
    /// for a disc or a segment of zero length, whose core has no face.
    fn facing(shape: &Shape, sweep: &Sweep, pose: &Isometry, direction: &Vector) -> Option<Self> {
        let local = pose.rotation.inverse_transform_vector(direction);
        let (normal, on_face) = match shape {
            Shape::Circle(_) => return None,
            Shape::Polygon(p) => {
                let normals = p.normals();
                let k = (1..normals.len()).fold(0, |best, k| {
                    if normals[k].dot(&local) > normals[best].dot(&local) {
                        k
                    } else {
                        best
                    }
                });
                (normals[k], p.vertices()[k])
            }
            Shape::Segment(s) => (side_normal(&s.direction(), &local)?, s.a()),
            Shape::Capsule(c) => (side_normal(&c.axis().direction(), &local)?, c.axis().a()),
        };
        Some(Self {
            normal: pose.rotation * normal,
            offset: normal.dot(&(on_face - sweep.local_center())),
        })
    }

    /// The step certified by the height over this face (of `body`, which turns with it) of
    /// the core vertices of `other`, whose arms from its centre of mass are `arms` and whose
    /// centre of mass is at `centers` from `body`'s. `offset` is radii plus target.
    ///
    /// A vertex at `x` from the face body's centre has height `g = f . x - offset` with `f`
    /// the turning normal; `g' = w_f perp(f) . x + f . x'` and
    /// `g'' = -w_f^2 f . x + 2 w_f perp(f) . x' + f . x''`, so over the next `remaining` of
    /// the step `|g''| <= w_f^2 (X + V remaining) + 2 |w_f| V + w_o^2 r_o`, with `X` the
    /// largest `|x|` now, `V` the fastest a vertex can move relative to the face body's centre
    /// and `r_o` the other's arm. Every vertex shares that bound, so the first root over the
    /// vertices of `g + g' t - K t^2 / 2` is found by [`first_root`].
    fn step(
        &self,
        body: &Mover<'_>,
        other: &Mover<'_>,
        arms: &[Vector],
        centers: &Vector,
        offset: Real,
        remaining: Real,
    ) -> Real {
        let relative = other.displacement - body.displacement;
        let across = perp(&self.normal);
        let mut heights = [(0.0, 0.0); CURVED_MAX_VERTICES];
        for (h, arm) in heights.iter_mut().zip(arms) {
            let x = centers + arm;
            let velocity = relative + cross_scalar_vector(other.turn, arm);
            *h = (
                self.normal.dot(&x) - self.offset,
                body.turn * across.dot(&x) + self.normal.dot(&velocity),
            );
        }
        let heights = &heights[..arms.len()];
        let reach = centers.norm() + other.arm;
        let speed = relative.norm() + other.rotation_speed();
        let half_k = 0.5
            * (body.turn * body.turn * (reach + speed * remaining)
                + 2.0 * body.turn.abs() * speed
                + other.curvature());

        first_root(half_k, arms.len(), |t| {
            let (h, rate) = highest(heights, t, -1.0);
            (h - offset, rate)
        })
    }
}

/// The unit normal of a segment along `direction` on the side of `toward`; none for a segment
/// of zero length (a point, which has no face).
fn side_normal(direction: &Vector, toward: &Vector) -> Option<Vector> {
    let n = perp(direction).try_normalize(0.0)?;
    Some(if n.dot(toward) >= 0.0 { n } else { -n })
}

/// The first root over a family of bounds `c + s t - half_k t^2` that share `half_k` (each
/// concave), given `lowest(t)`: the `(c, s)` of the member lowest at `t` when each is
/// extrapolated linearly. Zero if the lowest member at 0 is not positive.
///
/// If the member lowest at a trial is still positive there, every member is (each is concave
/// and positive at 0), and the trial is the answer; otherwise that member's root is a shorter
/// trial. Trials shrink strictly, so each of the `members` is tried at most once.
fn first_root(half_k: Real, members: usize, lowest: impl Fn(Real) -> (Real, Real)) -> Real {
    let (gap, rate) = lowest(0.0);
    if gap <= 0.0 {
        return 0.0;
    }
    let mut best = root(gap, rate, half_k);
    for _ in 0..members {
        let (c, s) = lowest(best);
        if c + best * (s - half_k * best) > 0.0 || c <= 0.0 {
            break;
        }
        let shorter = root(c, s, half_k);
        // A member repeats only through rounding of its own root.
        if shorter >= best {
            break;
        }
        best = shorter;
    }
    best
}

/// The positive root of `c + s t - half_k t^2` for `c > 0`, in the form without cancellation;
/// an infinite root (no approach, no curvature) is capped past the end of any step.
#[inline]
fn root(c: Real, s: Real, half_k: Real) -> Real {
    (2.0 * c / (-s + (s * s + 4.0 * half_k * c).sqrt())).min(2.0)
}

/// The `(height, rate)` whose height extrapolated to `t` is the largest (`sign` 1) or the
/// smallest (`sign` -1).
#[inline]
fn highest(heights: &[(Real, Real)], t: Real, sign: Real) -> (Real, Real) {
    let mut top = heights[0];
    let mut top_at = sign * (top.0 + t * top.1);
    for &h in &heights[1..] {
        let at = sign * (h.0 + t * h.1);
        if at > top_at {
            top = h;
            top_at = at;
        }
    }
    top
}

fn hit(t: Real, point_a: Point, point_b: Point, normal: Vector) -> Toi {
    Toi::Hit(Hit {
        fraction: t,
        point: nalgebra::center(&point_a, &point_b),
        normal,
    })
}
