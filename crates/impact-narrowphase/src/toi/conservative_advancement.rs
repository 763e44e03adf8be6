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
//!   with A (and the same with the roles swapped), is Box2D's separation function. Its fall
//!   below its tangent is bounded too, per vertex: the other's centre as seen from the
//!   turning face, plus the vertex's arm turning against the face at the difference of the
//!   spins, whose fall is cubic for the vertices near the face, which decide (see
//!   `Frame::face_step`). Near a face contact it falls at the true approach rate, where the
//!   fixed normal overstates it by the rate of the face's far corner (see `curved_step`).
//!
//! When the last distance was realised by a face against a vertex (polygons and rounded shapes
//! near contact, almost always), the step is that face's turning bound alone, taken with the
//! linear bound: near contact it is the distance itself, to second order, and it costs one
//! pass over the other core. Otherwise (the closest features are two vertices) the step is
//! the fixed-normal curved bound, and when a step closed less than half of the gap, the
//! longest of it and the turning bounds of both facing faces; shapes that start touching and
//! slide take that longest on slow steps even when a face is known (resting piles: without
//! it, the stepper's tumbling rain left bodies hung in mid-air). Each bound is a proof, so
//! whichever is taken is.
//!
//! Before any of this, each body's bounding circle about its centre of mass (radius `r` plus
//! its rounding) moves on a line without turning, so the closed-form time at which the circles
//! come within the target opens a window outside of which the shapes cannot come within it: a
//! sweep whose circles never meet is answered at once, advancement starts where the circles
//! first meet, and it stops where they part for good. When only one body turns, the
//! closed-form time of impact of its circle against the other shape itself opens the window
//! instead (a spinning plank over long static ground, whose own circle covers everything).
//! A long body narrows the window further: it lies in a strip that turns with it, and the
//! other body's circle must reach the strip before the shapes can meet. One sine and cosine
//! per step of the strip's own bound moves the start past the turns where the body points
//! away (see `turning_strip`; a plank spinning twice per step sweeps its whole circle, so the
//! circles' window opens long before it can strike).
//!
//! Against a segment that does not move (ground), the segment's line decides most queries
//! before any of this, and hands the rest back with the fraction up to which it proved the
//! shapes apart (see `still_segment`).
//!
//! By construction the answer is never later than the first time the shapes come within the
//! target (to the accuracy of the distance computation, which is exact to rounding).
//! Iterations stop once within `tolerance` of the target. The distance at `t = 0` is the exact
//! signed distance when the start is close (it must classify overlap); every other distance
//! comes from GJK warm-started from the previous simplex, exact for separated shapes, or from
//! the face that realised the last one (below), exact too.
//!
//! When both cores have at most 16 vertices (every shape but a large polygon), each evaluation
//! takes the fused path: it turns both cores once into the frame of A's centre of mass, from
//! the two rotations and centres alone, and GJK and the step bounds share those vertices (GJK
//! turns nothing, no pose is built). The generic path, which builds both poses and lets GJK
//! place the vertices, remains for larger polygons and as the reference the tests hold the
//! fused path to.
//!
//! On the fused path most evaluations skip GJK too. Near contact, polygons meet face to vertex,
//! and the face that realised one distance almost always realises the next: the lowest vertex
//! of the other core over that face's line, when it projects onto the face itself, is exactly
//! the distance (the separation along the face normal bounds it from below, and the vertex is
//! that far from a point of the face). Each evaluation tries the last such face first, then the
//! other body's face that faces it (near contact the closest features change sides far more
//! often than they move to a neighbouring face of the same body); the first evaluation, and one
//! after a distance realised vertex to vertex, try the faces that face each other along the
//! centres (the first) or the last normal. GJK runs, warm-started from the last simplex, only
//! when every test fails.

use super::still_segment::{OverSegment, over_still_segment};
use super::turning_strip::{TurningStrip, clear_until};
use super::{closed_form_toi, toi_disc_still_segment};
use crate::distance::distance;
use crate::gjk::{GjkCache, GjkOutput, Placed, farthest, gjk_distance, gjk_placed};
use crate::minkowski::{circle_entry, circle_exit};
use crate::{Hit, Toi, ToiOptions};
use impact_geometry::{
    Circle, Isometry, Point, Real, Rotation, Shape, Strip, Sweep, Vector, cross,
    cross_scalar_vector, nalgebra, perp, rotation_by, rotations_by,
};

/// How many core vertices per shape the curved bound handles (it keeps B's on the stack and
/// visits every pair); larger polygons advance by the linear bound alone.
const CURVED_MAX_VERTICES: usize = 16;

/// The zero vector as a constant: `[Vector::zeros(); N]` built each array on the stack and
/// copied it into place.
const ZERO: Vector = Vector::new(0.0, 0.0);

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
    /// The shape's core and rounding, looked up once: each lookup is a match on the shape.
    core: &'a [Point],
    radius: Real,
}

impl<'a> Mover<'a> {
    #[inline(always)]
    fn new(shape: &'a Shape, sweep: &'a Sweep) -> Self {
        Self {
            shape,
            sweep,
            displacement: sweep.displacement(),
            turn: sweep.rotation_angle(),
            arm: shape.core_bounding_radius(&sweep.local_center()),
            start_center: sweep.start() * sweep.local_center(),
            core: shape.core(),
            radius: shape.radius(),
        }
    }

    /// The pose at fraction `t`: [`Sweep::pose_at`] bit for bit, with the start's centre of
    /// mass computed once.
    fn pose_at(&self, t: Real) -> Isometry {
        if self.turn == 0.0 {
            return self.sweep.pose_at(t);
        }
        let rotation = self.rotation_at(t);
        let center = self.center_at(t);
        Isometry::from_parts(
            (center.coords - rotation * self.sweep.local_center().coords).into(),
            rotation,
        )
    }

    /// The rotation at fraction `t` ([`pose_at`](Self::pose_at)'s, bit for bit, when the body
    /// turns).
    #[inline]
    fn rotation_at(&self, t: Real) -> Rotation {
        if self.turn == 0.0 {
            return self.sweep.start().rotation;
        }
        self.sweep.start().rotation * rotation_by(self.angle_at(t))
    }

    /// The angle turned from the start to fraction `t`.
    #[inline]
    fn angle_at(&self, t: Real) -> Real {
        self.sweep.angvel() * (self.sweep.dt() * t)
    }

    /// The centre of mass at fraction `t`, in world coordinates.
    #[inline]
    fn center_at(&self, t: Real) -> Point {
        self.start_center + self.sweep.linvel() * (self.sweep.dt() * t)
    }

    /// Radius of the circle about the centre of mass that holds the whole shape
    /// ([`Shape::bounding_radius`] about it, from the arm already known).
    fn bounding_radius(&self) -> Real {
        self.arm + self.radius
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

/// A long body's strip (see [`TurningStrip`]) is used when it is at most this share of its
/// bounding circle's radius wide: for a square it is 0.71, and its strip saves nothing.
const STRIP_SHARE: Real = 0.5;

/// The strips stop stepping once the circles are within this many tolerances of their reach:
/// the last steps before it crawl.
const STRIP_NEAR: Real = 8.0;

/// The window narrowed by each long body's strip against the other's circle: the first
/// fraction from `enter` at which the shapes could come within the target, and whether the
/// start must still be classified (`close_start`: only if the strips cannot show the shapes
/// farther apart than the target plus the tolerance at the start); `None` if they cannot come
/// within the target before `end`.
#[inline]
fn through_strips(
    a: &Mover<'_>,
    b: &Mover<'_>,
    enter: Real,
    end: Real,
    target: Real,
    tolerance: Real,
    close_start: bool,
) -> Option<(Real, bool)> {
    let turning = |strip: Strip, body: &Mover<'_>, other: &Mover<'_>| {
        TurningStrip::new(
            &strip,
            &body.sweep.local_center(),
            &body.sweep.start().rotation,
            body.turn,
            (
                other.start_center - body.start_center,
                other.displacement - body.displacement,
            ),
            other.bounding_radius(),
            target,
        )
    };
    // Checked before any strip is built: building both and returning them as `Option`s went
    // through memory, 38 instructions a query on shapes that are not long.
    let (first, second) = match (long_strip(a), long_strip(b)) {
        (Some(sa), sb) => (turning(sa, a, b), sb.map(|sb| turning(sb, b, a))),
        (None, Some(sb)) => (turning(sb, b, a), None),
        (None, None) => return Some((enter, close_start)),
    };
    let clear = clear_until(&first, second.as_ref(), enter, end, STRIP_NEAR * tolerance)?;
    // Clear of the strips by more than the tolerance at `enter`: if that is the start, the
    // shapes do not start touching.
    Some(if clear > enter {
        (clear, false)
    } else {
        (enter, close_start)
    })
}

/// The body's strip if it is long: at most [`STRIP_SHARE`] of its bounding radius wide.
#[inline(always)]
fn long_strip(body: &Mover<'_>) -> Option<Strip> {
    let strip = match body.shape {
        // The common case read in place, without building an `Option` first.
        Shape::Polygon(p) => *p.strip(),
        Shape::Circle(_) => return None,
        shape => shape.strip()?,
    };
    (strip.half_width <= STRIP_SHARE * body.bounding_radius()).then_some(strip)
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
    let radius = spinning.bounding_radius();
    let reach = options.target_separation() + options.tolerance();
    let start = Isometry::from_parts(spinning.start_center.coords.into(), Rotation::identity());
    let beyond = starts_beyond_box(spinning.start_center, radius, still, reach);
    // Ground: a segment that does not move. The disc's closed form against it, without the
    // circle shape, its sweep and the dispatch (the same answer, bit for bit, as
    // `toi_disc_still_segment` promises), for a disc the checks below would accept.
    if let (true, Shape::Segment(segment)) = (beyond, still.shape)
        && still.displacement == Vector::zeros()
        && radius >= 0.0
        && (radius + spinning.displacement.x + spinning.displacement.y).is_finite()
    {
        let toi = toi_disc_still_segment(
            radius,
            &start,
            spinning.displacement,
            segment,
            &still.sweep.start(),
            options,
        );
        return Some(if swapped { toi.swapped() } else { toi });
    }
    let circle = Shape::from(Circle::new(radius).ok()?);
    if !beyond {
        let apart = gjk_distance(
            &circle,
            &start,
            still.shape,
            &still.sweep.start(),
            &mut GjkCache::default(),
        );
        if apart.cores_overlap || apart.distance <= reach {
            return None;
        }
    }
    let sweep = Sweep::translating(start, spinning.displacement).ok()?;
    let toi = if swapped {
        closed_form_toi(still.shape, still.sweep, &circle, &sweep, options)
    } else {
        closed_form_toi(&circle, &sweep, still.shape, still.sweep, options)
    };
    toi.ok()
}

/// Whether the circle of `radius` about `center` starts farther than `reach` from the box of
/// the still shape (its tight box at the start), and so from the shape, which lies in it, by a
/// margin far beyond rounding: then GJK, which settled that question in
/// [`against_still_partner`] for more instructions than the rest of it, would say the same. Over
/// ground the box is the ground itself; any closer call goes to GJK, so the decision is GJK's.
#[inline]
fn starts_beyond_box(center: Point, radius: Real, still: &Mover<'_>, reach: Real) -> bool {
    let bounds = still.shape.aabb(&still.sweep.start());
    let dx = (bounds.mins.x - center.x)
        .max(center.x - bounds.maxs.x)
        .max(0.0);
    let dy = (bounds.mins.y - center.y)
        .max(center.y - bounds.maxs.y)
        .max(0.0);
    let margin = 1e-9 * (1.0 + center.coords.amax() + radius + reach);
    (dx * dx + dy * dy).sqrt() - radius > reach + margin
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
    // Against a segment that does not move (ground), its line decides most queries at a
    // fraction of the cost (see `still_segment`).
    let still = |sweep: &Sweep| !sweep.rotates() && sweep.linvel() == Vector::zeros();
    let from = match (a, b) {
        (_, Shape::Segment(segment)) if still(sweep_b) => {
            match over_still_segment(a, sweep_a, segment, &sweep_b.start(), options) {
                OverSegment::Answer(toi) => return toi,
                OverSegment::From(from) => from,
            }
        }
        (Shape::Segment(segment), _) if still(sweep_a) => {
            match over_still_segment(b, sweep_b, segment, &sweep_a.start(), options) {
                OverSegment::Answer(toi) => return toi.swapped(),
                OverSegment::From(from) => from,
            }
        }
        _ => 0.0,
    };
    advance(a, sweep_a, b, sweep_b, options, Path::Fused, from)
}

/// How [`advance`] evaluates the distance: the two paths answer the same question and differ
/// only in rounding; the tests hold the fused one to the generic one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Path {
    /// Poses for both shapes, then GJK on the shapes: any shapes.
    Generic,
    /// When both cores fit the curved bounds: both turned once per evaluation into the frame
    /// of A's centre of mass, where GJK and the step bounds share them (GJK then turns
    /// nothing, and no pose is built). Falls back to [`Path::Generic`] otherwise.
    Fused,
}

/// [`toi_conservative_advancement`], with the distance evaluated by `path`, from fraction
/// `from`, up to which the shapes are known to stay farther apart than the target (zero: from
/// the start, which is then classified).
///
/// Out of line: inlined into [`toi_conservative_advancement`], its stack frame (the per-query
/// `Frame` among it) was set up for the ground queries the segment's line answers alone too,
/// and the bench's Box2D group ran 12% slower by the clock for the same instruction count.
#[inline(never)]
pub(super) fn advance(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
    path: Path,
    from: Real,
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
    let (enter, close_start) = if from > 0.0 {
        (enter.max(from), false)
    } else {
        (enter, close_start)
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
    let Some((enter, close_start)) =
        through_strips(&ma, &mb, enter, end, target, tolerance, close_start)
    else {
        return Toi::Separated;
    };

    let mut t = enter;
    // Not an `Option<Frame>`: moving the frame into one copied it.
    let mut frame = Frame::new(&ma, &mb);
    let fits = Frame::fits(ma.core, mb.core);
    if fits {
        frame.load(&ma, &mb);
    }
    let mut eval = Evaluator::new(&ma, &mb, fits.then_some(&mut frame), path);
    let mut now = eval.distance_at(&ma, &mb, t);
    if close_start {
        let (pose_a, pose_b) = (ma.pose_at(t), mb.pose_at(t));
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
            eval.sliding = true;
        }
    } else if let Some(toi) = arrived(t, &now, target, convergence, &ma, &mb) {
        // Where the bounding circles first meet, a shape that fills its circle (a disc) is
        // already there.
        return toi;
    }

    let bounds = Bounds {
        relative: ma.displacement - mb.displacement,
        spin: ma.rotation_speed() + mb.rotation_speed(),
        half_curvature: 0.5 * (ma.curvature() + mb.curvature()),
        offset: ma.radius + mb.radius + target,
    };
    let mut previous_gap = Real::INFINITY;
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
        let curved = eval.curved_step(
            &ma,
            &mb,
            &now.normal,
            &bounds,
            end - t,
            gap > 0.5 * previous_gap,
        );
        let next = t + linear.max(curved);
        previous_gap = gap;
        if next > end {
            return Toi::Separated;
        }
        t = next;
        now = eval.distance_at(&ma, &mb, t);
        if let Some(toi) = arrived(t, &now, target, convergence, &ma, &mb) {
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
#[inline(always)]
fn arrived(
    t: Real,
    now: &GjkOutput,
    target: Real,
    convergence: Real,
    a: &Mover<'_>,
    b: &Mover<'_>,
) -> Option<Toi> {
    if now.cores_overlap {
        return Some(overlapping_cores(t, a, b));
    }
    (now.distance - target <= convergence).then(|| hit(t, now.point_a, now.point_b, now.normal))
}

/// The hit at `t` where GJK found the cores touching. Only rounding can bring the cores
/// together before the target is reached; the exact distance still gives a usable normal and
/// point. Kept out of line: it is rare, and inlined it kept `arrived` from being inlined.
#[cold]
#[inline(never)]
fn overlapping_cores(t: Real, a: &Mover<'_>, b: &Mover<'_>) -> Toi {
    let d = distance(a.shape, &a.pose_at(t), b.shape, &b.pose_at(t));
    hit(t, d.point_a, d.point_b, d.normal)
}

/// Evaluates the distance along the sweeps (by its [`Path`]) and keeps what the step bounds
/// need from the last evaluation.
struct Evaluator<'f> {
    path: Path,
    /// The cores at the last evaluation, when they fit the curved bounds: placed from the
    /// rotations and centres by the fused path, from the poses by the generic one.
    /// Borrowed, not owned: the frame is large, and moving it cost more than it saved.
    frame: Option<&'f mut Frame>,
    /// The shapes' radii (their rounding), looked up once.
    radius_a: Real,
    radius_b: Real,
    /// The poses at the last evaluation (generic path only).
    pose_a: Isometry,
    pose_b: Isometry,
    /// GJK's simplex, carried from one evaluation to the next.
    cache: GjkCache,
    /// Whether an evaluation has run (the first one starts GJK from the facing vertices).
    started: bool,
    /// The polygons' outward face normals in their own axes (empty for other shapes).
    normals_a: &'f [Vector],
    normals_b: &'f [Vector],
    /// The face (of A if the flag is set, else of B; by the index of its first vertex and its
    /// outward unit normal in the body's axes) whose edge, against a vertex of the other core,
    /// realised the last distance: the next evaluation tries it first (see
    /// [`face_distance`]).
    face: Option<(bool, usize, Vector)>,
    /// Whether the shapes started touching and slide (see [`curved_step`](Self::curved_step)).
    sliding: bool,
    /// The normal of the last evaluation (from A toward B).
    normal: Vector,
}

impl<'f> Evaluator<'f> {
    fn new(a: &Mover<'f>, b: &Mover<'f>, frame: Option<&'f mut Frame>, path: Path) -> Self {
        let path = if frame.is_some() { path } else { Path::Generic };
        let normals = |shape: &'f Shape| match shape {
            Shape::Polygon(p) => p.normals(),
            _ => &[],
        };
        Self {
            normals_a: normals(a.shape),
            normals_b: normals(b.shape),
            face: None,
            sliding: false,
            normal: Vector::zeros(),
            path,
            frame,
            radius_a: a.radius,
            radius_b: b.radius,
            pose_a: Isometry::identity(),
            pose_b: Isometry::identity(),
            cache: GjkCache::default(),
            started: false,
        }
    }

    /// GJK's answer at fraction `t`, with the points in world coordinates.
    fn distance_at(&mut self, a: &Mover<'_>, b: &Mover<'_>, t: Real) -> GjkOutput {
        let first = !self.started;
        self.started = true;
        if let (Path::Fused, Some(frame)) = (self.path, self.frame.as_mut()) {
            // The arms wait: the face tests and the face step read the face's own two
            // vertices and the other core in its own axes; GJK turns them if it runs.
            frame.place_at(a, b, t);
            let (radius_a, radius_b) = (self.radius_a, self.radius_b);
            let try_face = |on_a: bool, shape: &Shape, rotation: &Rotation, d: &Vector| {
                facing_face_distance(frame, on_a, shape, rotation, d, (radius_a, radius_b))
            };
            let found = if first || self.face.is_none() {
                // No face is known yet: try the faces that face each other along the centres.
                // The larger body's face first: the other's vertex is likelier over it.
                let along = if first { frame.centers } else { self.normal };
                let found = if a.arm >= b.arm {
                    try_face(true, a.shape, &frame.rotation_a, &along)
                        .or_else(|| try_face(false, b.shape, &frame.rotation_b, &-along))
                } else {
                    try_face(false, b.shape, &frame.rotation_b, &-along)
                        .or_else(|| try_face(true, a.shape, &frame.rotation_a, &along))
                };
                found.map(|(found, n)| {
                    self.face = Some((found.1, found.2, n));
                    found
                })
            } else if let Some((on_a, k, n)) = self.face {
                face_distance(frame, on_a, k, &n, radius_a, radius_b).or_else(|| {
                    // Near contact the closest features change sides more often than faces
                    // of one body: the other body's face that faces this one, before GJK.
                    let (shape, rotation, toward) = if on_a {
                        (b.shape, &frame.rotation_b, -(frame.rotation_a * n))
                    } else {
                        (a.shape, &frame.rotation_a, -(frame.rotation_b * n))
                    };
                    let (found, n) = try_face(!on_a, shape, rotation, &toward)?;
                    self.face = Some((found.1, found.2, n));
                    Some(found)
                })
            } else {
                None
            };
            let mut out = match found {
                Some((out, on_a, i, j, v)) => {
                    self.cache.set_edge_against_vertex(on_a, i, j, v);
                    out
                }
                None => {
                    frame.freshen();
                    let placed_a = Placed {
                        arms: &frame.arms_a[..frame.count_a],
                        offset: Vector::zeros(),
                    };
                    let placed_b = Placed {
                        arms: &frame.arms_b[..frame.count_b],
                        offset: frame.centers,
                    };
                    if first {
                        self.cache = GjkCache::toward_placed(&placed_a, &placed_b, &frame.centers);
                    }
                    let out = gjk_placed(
                        &placed_a,
                        self.radius_a,
                        &placed_b,
                        self.radius_b,
                        &mut self.cache,
                    );
                    self.face = frame.face_of_simplex(
                        &self.cache,
                        (self.normals_a, self.normals_b),
                        &out.normal,
                    );
                    out
                }
            };
            self.normal = out.normal;
            // Placed relative to A's centre of mass: back to world coordinates.
            out.point_a += frame.center_a.coords;
            out.point_b += frame.center_a.coords;
            return out;
        }
        self.pose_a = a.pose_at(t);
        self.pose_b = b.pose_at(t);
        let (pose_a, pose_b) = (&self.pose_a, &self.pose_b);
        if first {
            self.cache = GjkCache::toward(
                a.shape,
                pose_a,
                b.shape,
                pose_b,
                &(pose_b * b.sweep.local_center() - pose_a * a.sweep.local_center()),
            );
        }
        let out = gjk_distance(a.shape, pose_a, b.shape, pose_b, &mut self.cache);
        if let Some(frame) = self.frame.as_mut() {
            // The step bounds read the cores and the face from here, as on the fused path.
            frame.place(a, pose_a, b, pose_b);
            self.face =
                frame.face_of_simplex(&self.cache, (self.normals_a, self.normals_b), &out.normal);
        }
        out
    }

    /// The step the curved bounds certify from the last evaluation: the turning bound of the
    /// face that realised the distance ([`Frame::face_step`]) when there is one (unless the
    /// shapes started touching and slide, and the last step was slow, `faces`), else
    /// the free [`curved_step`]'s (which tries the facing faces when `faces` is set); zero
    /// when the cores do not fit the curved bounds.
    ///
    /// The face's bound alone: taking the longest of it and the fixed-normal bound (and the
    /// facing faces on slow steps) saved under 1% of the steps for 10 to 15% more
    /// instructions. Its curvature bound holds up to its own reach (see
    /// [`Frame::face_step`]): capping it at a horizon of a few linear steps, which the bound
    /// over the whole `remaining` sweep needed before the reach, took 1 to 2% more
    /// instructions at 8 steps, 4 to 6% more at 4.
    fn curved_step(
        &mut self,
        a: &Mover<'_>,
        b: &Mover<'_>,
        normal: &Vector,
        bounds: &Bounds,
        remaining: Real,
        faces: bool,
    ) -> Real {
        let Some(frame) = self.frame.as_mut() else {
            return 0.0;
        };
        match self.face {
            // The face that realised the distance, turning with its body: the height of the
            // other core over it is the distance itself near contact (see `Frame::face_step`).
            Some((on_a, k, local_normal)) if !(self.sliding && faces) => {
                let (body, other) = if on_a { (a, b) } else { (b, a) };
                // The vertex that realised the distance: the likeliest lowest, whose own
                // bound gives the face's bound its reach.
                let hint = self.cache.edge_against_vertex().map_or(0, |e| e.3);
                frame.face_step(
                    body,
                    other,
                    on_a,
                    k,
                    &local_normal,
                    bounds.offset,
                    remaining,
                    hint,
                )
            }
            _ => {
                frame.freshen();
                curved_step(a, b, normal, bounds, remaining, faces, frame)
            }
        }
    }
}

/// The face of `shape` whose outward normal is closest in direction to `direction` (world
/// axes; the body turned by `rotation`; the first of the most aligned): its first vertex and
/// its normal in the body's axes. The side of a segment's or capsule's core that faces
/// `direction`; none for a disc or a core of zero length.
#[inline(always)]
fn facing_face(shape: &Shape, rotation: &Rotation, direction: &Vector) -> Option<(usize, Vector)> {
    let local = rotation.inverse_transform_vector(direction);
    match shape {
        Shape::Circle(_) => None,
        Shape::Polygon(p) => {
            let normals = p.normals();
            let k = farthest(normals.iter().map(|n| n.dot(&local)));
            Some((k, normals[k]))
        }
        Shape::Segment(s) => Some((0, side_normal(&s.direction(), &local)?)),
        Shape::Capsule(c) => Some((0, side_normal(&c.axis().direction(), &local)?)),
    }
}

/// What [`face_distance`] finds: the output as GJK would give it, the side (A's face or B's),
/// the face's two vertex indices and the other core's vertex, for GJK's cache.
type FaceFound = (GjkOutput, bool, usize, usize, usize);

/// [`face_distance`] for the face of `shape` (A's if `on_a`, turned by `rotation`) that faces
/// along `direction` ([`facing_face`]), with that face's normal in the body's axes. Inlined
/// into every caller: called (it was a closure), it cost 85 to 115 instructions a query.
#[inline(always)]
fn facing_face_distance(
    frame: &Frame,
    on_a: bool,
    shape: &Shape,
    rotation: &Rotation,
    direction: &Vector,
    (radius_a, radius_b): (Real, Real),
) -> Option<(FaceFound, Vector)> {
    let (k, n) = facing_face(shape, rotation, direction)?;
    let found = face_distance(frame, on_a, k, &n, radius_a, radius_b)?;
    Some((found, n))
}

/// The distance between the cores placed in `frame` when it is realised by face `k` (of A's
/// core if `on_a`, else of B's; `local_normal` its outward normal in the body's axes) against
/// a vertex of the other core, without GJK: `None` when it is not, and GJK decides. A face is
/// a polygon's, or the side of a segment's or capsule's core facing the other body.
///
/// The core lies on the inner side of its face's line, so the separation along the face
/// normal, the smallest height `h` of the other core's vertices over that line, is a lower
/// bound on the distance (a separating axis); when the lowest vertex projects onto the face
/// itself, it is `h` away from a point of the core, so the distance is exactly `h`. One pass
/// over the other core's vertices, where GJK runs supports, a simplex and a norm: near
/// contact, where conservative advancement takes most of its steps, polygons meet face to
/// vertex, and the face that realised the last distance almost always realises the next.
///
/// Returns the output as GJK would (in the frame, A's centre of mass at the origin), the side,
/// the face's two vertex indices and the other core's vertex, for GJK's cache.
#[inline(always)]
fn face_distance(
    frame: &Frame,
    on_a: bool,
    k: usize,
    local_normal: &Vector,
    radius_a: Real,
    radius_b: Real,
) -> Option<FaceFound> {
    // The face's vertices relative to its body's centre in the body's axes, its placement
    // offset, the other core in its own axes, its rotation and offset: the face body's vertex
    // `i` is at `face_offset + rotation * local[i]`, the other's `j` at `other_offset +
    // other_rotation * other_local[j]` (the arms may be stale).
    let (local, n, face_offset, rotation, other_local, other_rotation, other_offset) = if on_a {
        (
            &frame.local_a,
            frame.count_a,
            ZERO,
            &frame.rotation_a,
            &frame.local_b[..frame.count_b],
            &frame.rotation_b,
            frame.centers,
        )
    } else {
        (
            &frame.local_b,
            frame.count_b,
            frame.centers,
            &frame.rotation_b,
            &frame.local_a[..frame.count_a],
            &frame.rotation_a,
            ZERO,
        )
    };
    let l = k + 1;
    let l = if l == n { 0 } else { l };
    let (first, second) = (rotation * local[k], rotation * local[l]);
    let normal = rotation * local_normal;
    // The other core's lowest vertex along the normal, found in its own axes.
    let axis = other_rotation.inverse_transform_vector(&normal);
    let (mut low, mut low_height) = (0, Real::INFINITY);
    for (j, p) in other_local.iter().enumerate() {
        let h = axis.dot(p);
        if h < low_height {
            (low, low_height) = (j, h);
        }
    }
    let from = face_offset + first;
    let vertex = other_offset + other_rotation * other_local[low];
    let h = normal.dot(&(vertex - from));
    // Positive by more than rounding (GJK's own test for touching cores), and the vertex
    // over the face itself, not beyond either end.
    let edge = second - first;
    let along = (vertex - from).dot(&edge);
    let clear = h * h
        > 64.0 * Real::EPSILON * Real::EPSILON * (vertex.norm_squared() + from.norm_squared());
    if !clear || h <= 0.0 || along < 0.0 || along > edge.norm_squared() {
        return None;
    }
    let foot = vertex - normal * h;
    // From A toward B.
    let (normal, core_a, core_b) = if on_a {
        (normal, foot, vertex)
    } else {
        (-normal, vertex, foot)
    };
    let out = GjkOutput {
        distance: h - radius_a - radius_b,
        normal,
        point_a: Point::from(core_a + normal * radius_a),
        point_b: Point::from(core_b - normal * radius_b),
        cores_overlap: false,
        iterations: 0,
    };
    Some((out, on_a, k, l, low))
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
fn curved_step(
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

/// The core vertices of both shapes relative to their centres of mass, in world axes, at the
/// current poses.
#[repr(C)]
struct Frame {
    /// The core vertices relative to the centres of mass in the bodies' own axes: fixed over
    /// the query, turned into the arms at each placement.
    local_a: [Vector; CURVED_MAX_VERTICES],
    local_b: [Vector; CURVED_MAX_VERTICES],
    arms_a: [Vector; CURVED_MAX_VERTICES],
    arms_b: [Vector; CURVED_MAX_VERTICES],
    /// Room for [`face_step`](Self::face_step)'s bounds, one per vertex: kept here, it is
    /// cleared once per query, not at every step (declared beside the arrays, with
    /// `repr(C)`, so that one `memset` clears them all).
    family: [(Real, Real, Real); CURVED_MAX_VERTICES],
    count_a: usize,
    count_b: usize,
    /// From A's centre of mass to B's.
    centers: Vector,
    /// A's centre of mass, in world coordinates.
    center_a: Point,
    /// The bodies' rotations.
    rotation_a: Rotation,
    rotation_b: Rotation,
    /// Whether the arms are not turned to the current rotations (see
    /// [`place_at`](Self::place_at)).
    stale: bool,
}

impl Frame {
    /// Whether both shapes have few enough vertices for the curved bounds.
    fn fits(a: &[Point], b: &[Point]) -> bool {
        a.len() <= CURVED_MAX_VERTICES && b.len() <= CURVED_MAX_VERTICES
    }

    /// An empty frame for the two shapes, to be [`place`](Self::place)d; they must
    /// [`fit`](Self::fits). Made once per query and refilled in place at every step: built
    /// whole at every step, the arrays were filled past the vertex counts and copied out.
    ///
    /// Made empty and [`load`](Self::load)ed in place: built full and moved, its arrays were
    /// copied.
    #[inline(always)]
    fn new(a: &Mover<'_>, b: &Mover<'_>) -> Self {
        Self {
            local_a: [ZERO; CURVED_MAX_VERTICES],
            local_b: [ZERO; CURVED_MAX_VERTICES],
            arms_a: [ZERO; CURVED_MAX_VERTICES],
            arms_b: [ZERO; CURVED_MAX_VERTICES],
            count_a: a.core.len(),
            count_b: b.core.len(),
            centers: Vector::zeros(),
            center_a: Point::origin(),
            rotation_a: Rotation::identity(),
            rotation_b: Rotation::identity(),
            family: [(0.0, 0.0, 0.0); CURVED_MAX_VERTICES],
            stale: false,
        }
    }

    /// The core vertices relative to the centres of mass, once per query.
    fn load(&mut self, a: &Mover<'_>, b: &Mover<'_>) {
        let (center_a, center_b) = (a.sweep.local_center(), b.sweep.local_center());
        for (l, p) in self.local_a.iter_mut().zip(a.core) {
            *l = p - center_a;
        }
        for (l, p) in self.local_b.iter_mut().zip(b.core) {
            *l = p - center_b;
        }
    }

    /// The face (see [`Evaluator::face`]) of the edge GJK's simplex in `cache` ends on, if it
    /// ends edge against vertex (`normals`: A's outward normals, then B's; `normal` from A
    /// toward B): the fused and the generic paths read it the same way.
    fn face_of_simplex(
        &self,
        cache: &GjkCache,
        (normals_a, normals_b): (&[Vector], &[Vector]),
        normal: &Vector,
    ) -> Option<(bool, usize, Vector)> {
        let (on_a, i, j, _) = cache.edge_against_vertex()?;
        let normals = if on_a { normals_a } else { normals_b };
        self.face_of_edge(on_a, i, j, normals, normal)
    }

    /// The face (see [`Evaluator::face`]) whose edge joins vertices `i` and `j` of A's core
    /// (`on_a`) or B's, if they are adjacent: a polygon's own face (`normals` are its outward
    /// normals), or the side of a segment's or capsule's core facing the other body, which
    /// lies along `normal` (from A toward B) from it.
    fn face_of_edge(
        &self,
        on_a: bool,
        i: usize,
        j: usize,
        normals: &[Vector],
        normal: &Vector,
    ) -> Option<(bool, usize, Vector)> {
        let (n, local, rotation) = if on_a {
            (self.count_a, &self.local_a, &self.rotation_a)
        } else {
            (self.count_b, &self.local_b, &self.rotation_b)
        };
        if n == 2 && i < 2 && j < 2 {
            let outward = if on_a { *normal } else { -normal };
            let side = side_normal(
                &(local[1] - local[0]),
                &rotation.inverse_transform_vector(&outward),
            )?;
            return Some((on_a, 0, side));
        }
        if normals.len() != n || i >= n || j >= n {
            return None;
        }
        let k = if j == (i + 1) % n {
            i
        } else if i == (j + 1) % n {
            j
        } else {
            return None;
        };
        Some((on_a, k, normals[k]))
    }

    /// The arms at the given poses (the generic path, which has built them).
    #[inline]
    fn place(&mut self, a: &Mover<'_>, pose_a: &Isometry, b: &Mover<'_>, pose_b: &Isometry) {
        self.turn(&pose_a.rotation, &pose_b.rotation);
        let (center_a, center_b) = (a.sweep.local_center(), b.sweep.local_center());
        self.center_a = pose_a * center_a;
        self.centers = pose_b * center_b - self.center_a;
    }

    /// The rotations and centres of mass at fraction `t` of the sweeps (the fused path: no
    /// pose is built).
    ///
    /// The arms are left as they were, marked stale: the face tests and the face step read
    /// the face's own two vertices and the other core in its own axes, and most evaluations
    /// need nothing more (see [`freshen`](Self::freshen)).
    #[inline]
    fn place_at(&mut self, a: &Mover<'_>, b: &Mover<'_>, t: Real) {
        let (rotation_a, rotation_b) = if a.turn != 0.0 && b.turn != 0.0 {
            // Both turn: both sines and cosines at once (the same bits as `rotation_at`).
            let [turn_a, turn_b] = rotations_by([a.angle_at(t), b.angle_at(t)]);
            (
                a.sweep.start().rotation * turn_a,
                b.sweep.start().rotation * turn_b,
            )
        } else {
            (a.rotation_at(t), b.rotation_at(t))
        };
        self.rotation_a = rotation_a;
        self.rotation_b = rotation_b;
        self.stale = true;
        self.center_a = a.center_at(t);
        self.centers = b.center_at(t) - self.center_a;
    }

    /// Turns the arms [`place_at`](Self::place_at) left stale, for whatever reads them all
    /// (GJK, the fixed-normal and facing-face bounds).
    #[inline]
    fn freshen(&mut self) {
        if self.stale {
            self.turn_a();
            self.turn_b();
            self.stale = false;
        }
    }

    #[inline]
    fn turn_a(&mut self) {
        let (count, rotation) = (self.count_a, self.rotation_a);
        for (arm, l) in self.arms_a[..count].iter_mut().zip(&self.local_a[..count]) {
            *arm = rotation * l;
        }
    }

    #[inline]
    fn turn_b(&mut self) {
        let (count, rotation) = (self.count_b, self.rotation_b);
        for (arm, l) in self.arms_b[..count].iter_mut().zip(&self.local_b[..count]) {
            *arm = rotation * l;
        }
    }

    #[inline]
    fn turn(&mut self, rotation_a: &Rotation, rotation_b: &Rotation) {
        self.rotation_a = *rotation_a;
        self.rotation_b = *rotation_b;
        self.turn_a();
        self.turn_b();
        self.stale = false;
    }

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
    fn face_step(
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
        // The centre's part of each half curvature, bounded two ways: by the size of its
        // second derivative (at reach 0 and per unit of reach), and by its exact value now
        // plus the size of its third derivative over the reach (`taylor`, per unit of reach
        // squared). None for a face that does not turn (ground).
        let (centre, drift, now, taylor) = if body.turn == 0.0 {
            (0.0, 0.0, 0.0, (0.0, 0.0))
        } else {
            let w = body.turn;
            let (w2, speed, distance) = (w * w, relative.norm(), centers.norm());
            let second = w * (2.0 * perp(&normal).dot(&relative) - w * normal.dot(&centers));
            let w3 = (w2 * w).abs();
            (
                0.5 * w2 * distance + w.abs() * speed,
                0.5 * w2 * speed,
                -0.5 * second,
                ((w3 * distance + 3.0 * w2 * speed) / 6.0, w3 * speed / 6.0),
            )
        };
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
    fn facing(
        shape: &Shape,
        sweep: &Sweep,
        rotation: &Rotation,
        direction: &Vector,
    ) -> Option<Self> {
        let (k, normal) = facing_face(shape, rotation, direction)?;
        let on_face = shape.core()[k];
        Some(Self {
            normal: rotation * normal,
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
        // Trial 0 read off while filling, as in `Frame::step_along`.
        let (mut bottom, mut bottom_height) = (0, Real::INFINITY);
        for (i, arm) in arms.iter().enumerate() {
            let x = centers + arm;
            let velocity = relative + cross_scalar_vector(other.turn, arm);
            let h = (
                self.normal.dot(&x) - self.offset,
                body.turn * across.dot(&x) + self.normal.dot(&velocity),
            );
            heights[i] = h;
            if h.0 < bottom_height {
                (bottom, bottom_height) = (i, h.0);
            }
        }
        let start = (heights[bottom].0 - offset, heights[bottom].1);
        let heights = &heights[..arms.len()];
        let reach = centers.norm() + other.arm;
        let speed = relative.norm() + other.rotation_speed();
        let half_k = 0.5
            * (body.turn * body.turn * (reach + speed * remaining)
                + 2.0 * body.turn.abs() * speed
                + other.curvature());

        first_root(half_k, arms.len(), start, |t| {
            let (h, rate) = lowest(heights, t);
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
/// extrapolated linearly, and `start`, its value at 0 (the callers find it while building
/// the family). Zero if the lowest member at 0 is not positive.
///
/// If the member lowest at a trial is still positive there, every member is (each is concave
/// and positive at 0), and the trial is the answer; otherwise that member's root is a shorter
/// trial. Trials shrink strictly, so each of the `members` is tried at most once.
fn first_root(
    half_k: Real,
    members: usize,
    start: (Real, Real),
    lowest: impl Fn(Real) -> (Real, Real),
) -> Real {
    let (gap, rate) = start;
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

/// The first root over a family of concave bounds `c + s t - half_k t^2`, each positive at 0,
/// from `best`, the root of one of them, given `lowest_at(t)`: the member lowest at `t` and its
/// value there. If that member is still positive at the trial, every member is positive up to
/// it (each is concave and positive at 0), and the trial is the answer; otherwise that member's
/// root is a shorter trial. Trials shrink strictly, so each of the `members` is tried at most
/// once. ([`Frame::face_step`] runs the same search over its stored family, inline: through
/// this function it cost 15 instructions a query more.)
#[inline(always)]
pub(super) fn shortest_root(
    mut best: Real,
    members: usize,
    lowest_at: impl Fn(Real) -> ((Real, Real, Real), Real),
) -> Real {
    for _ in 0..members {
        let (low, low_at) = lowest_at(best);
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

/// The positive root of `c + s t - half_k t^2` for `c > 0`, in the form without cancellation;
/// an infinite root (no approach, no curvature) is capped past the end of any step.
#[inline]
pub(super) fn root(c: Real, s: Real, half_k: Real) -> Real {
    (2.0 * c / (-s + (s * s + 4.0 * half_k * c).sqrt())).min(2.0)
}

/// `x` if positive, else zero: `max(x, 0)` in one instruction (`f64::max` also orders NaN,
/// which cannot arise here, in several).
#[inline(always)]
pub(super) fn positive(x: Real) -> Real {
    if x > 0.0 { x } else { 0.0 }
}

/// The smaller of `a` and `b` in one instruction (`f64::min` also orders NaN, which cannot
/// arise here).
#[inline(always)]
pub(super) fn lesser(a: Real, b: Real) -> Real {
    if a < b { a } else { b }
}

/// The `(height, rate)` whose height extrapolated to `t` is the largest (the first of
/// equals). Tracks the index, not the pair: selecting pairs took twice the instructions.
#[inline]
fn highest(heights: &[(Real, Real)], t: Real) -> (Real, Real) {
    let mut top = 0;
    let mut top_at = heights[0].0 + t * heights[0].1;
    for (i, h) in heights.iter().enumerate().skip(1) {
        let at = h.0 + t * h.1;
        if at > top_at {
            top = i;
            top_at = at;
        }
    }
    heights[top]
}

/// The `(height, rate)` whose height extrapolated to `t` is the smallest (the first of
/// equals).
#[inline]
fn lowest(heights: &[(Real, Real)], t: Real) -> (Real, Real) {
    let mut bottom = 0;
    let mut bottom_at = heights[0].0 + t * heights[0].1;
    for (i, h) in heights.iter().enumerate().skip(1) {
        let at = h.0 + t * h.1;
        if at < bottom_at {
            bottom = i;
            bottom_at = at;
        }
    }
    heights[bottom]
}

fn hit(t: Real, point_a: Point, point_b: Point, normal: Vector) -> Toi {
    Toi::Hit(Hit {
        fraction: t,
        point: nalgebra::center(&point_a, &point_b),
        normal,
    })
}

#[cfg(test)]
mod tests {
    //! The fused path against the generic one: the same question answered with different
    //! rounding, so the same answers to rounding, and neither later than the oracle.

    use super::*;
    use impact_geometry::ConvexPolygon;
    use impact_testkit::SplitMix64;
    use impact_testkit::audit::{
        Verdict, random_rotating_case, rotating_case_with, skinny_box_case,
    };

    /// Both paths on one case: the fused answer, and whether it differs from the generic one
    /// by more than rounding (a different kind of answer, or fractions apart by more than
    /// 1e-9; an iteration's decision can flip on a rounding-size difference, rarely).
    fn both(c: &impact_testkit::audit::Case, options: &ToiOptions) -> (Toi, bool) {
        let fused = advance(
            &c.a,
            &c.sweep_a,
            &c.b,
            &c.sweep_b,
            options,
            Path::Fused,
            0.0,
        );
        let generic = advance(
            &c.a,
            &c.sweep_a,
            &c.b,
            &c.sweep_b,
            options,
            Path::Generic,
            0.0,
        );
        let differs = match (fused, generic) {
            (Toi::Hit(f), Toi::Hit(g)) => (f.fraction - g.fraction).abs() > 1e-9,
            (Toi::NotConverged { safe_fraction: f }, Toi::NotConverged { safe_fraction: g }) => {
                (f - g).abs() > 1e-9
            }
            (Toi::Separated, Toi::Separated) | (Toi::Overlapping, Toi::Overlapping) => false,
            _ => true,
        };
        (fused, differs)
    }

    /// Over seeded rotating sweeps of every pair of shape kinds (all of whose cores fit the
    /// fused path) and of boxes, skinny boxes and hexagons, the fused path agrees with the
    /// generic path to rounding and is never later than the dense-sampling oracle. A fused
    /// path that measured a wrong distance would report hits later than the oracle (too long
    /// a distance) or disagree with the generic path (any error larger than rounding).
    #[test]
    fn fused_path_matches_generic_path_and_oracle() {
        let options = ToiOptions::default();
        let mut rng = SplitMix64::new(0xF05E_D0CA);
        let mut shapes = SplitMix64::new(0x5EED_0B0C);
        let mut polygon = |kind: usize| -> Shape {
            match kind {
                0 => ConvexPolygon::rectangle(shapes.range(0.1, 1.0), shapes.range(0.1, 1.0)),
                1 => ConvexPolygon::rectangle(shapes.range(0.5, 2.0), shapes.range(0.025, 0.1)),
                _ => ConvexPolygon::regular(6, shapes.range(0.3, 1.5)),
            }
            .expect("valid polygon")
            .into()
        };
        let n = 3000;
        let (mut fused_cases, mut hits, mut differ) = (0, 0, 0);
        for i in 0..n {
            let c = if i % 2 == 0 {
                random_rotating_case(&mut rng)
            } else {
                let (a, b) = (polygon(i % 3), polygon((i / 3) % 3));
                rotating_case_with(a, b, &mut rng)
            };
            fused_cases += usize::from(Frame::fits(c.a.core(), c.b.core()));
            let (toi, differs) = both(&c, &options);
            differ += usize::from(differs);
            hits += usize::from(matches!(toi, Toi::Hit(_)));
            let (oracle, verdict) = c.audit(&toi, &options, 200);
            assert!(
                matches!(verdict, Verdict::Agree | Verdict::GaveUp),
                "case {i}: {verdict:?}, fused {toi:?}, oracle {oracle:?}\n{c:?}"
            );
        }
        assert_eq!(
            fused_cases, n,
            "every generated pair should take the fused path"
        );
        assert!(
            hits > n / 4,
            "only {hits} hits: the cases no longer exercise contact"
        );
        assert!(
            differ * 1000 <= n,
            "{differ} of {n} answers differ from the generic path by more than rounding"
        );
    }

    /// Box2D's spinning plank over ground (a polygon against a long segment), both paths.
    #[test]
    fn fused_path_matches_generic_path_on_skinny_box() {
        let options = ToiOptions::default();
        let mut differ = 0;
        for i in 0..500 {
            let c = skinny_box_case(2.06 + 1.5 * i as Real / 500.0, 0.0148 * i as Real);
            let (toi, differs) = both(&c, &options);
            differ += usize::from(differs);
            let (_, verdict) = c.audit(&toi, &options, 200);
            assert_eq!(verdict, Verdict::Agree, "case {i}: fused {toi:?}\n{c:?}");
        }
        assert!(differ <= 1, "{differ} answers differ from the generic path");
    }
}
