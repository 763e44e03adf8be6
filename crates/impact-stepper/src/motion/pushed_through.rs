//! The pushed-through net: whether the contact solver's targets put a pair it held on
//! opposite sides of where its manifold had them.
//!
//! Soft contacts can push a body through a zero-thickness segment under a load (a disc at
//! the bottom of a pile hit from above), and no time of impact sees it: the pair overlaps at
//! the start. Both CCD steppers ask this of the solver's pairs of a CCD body and stop such a
//! pair where it was. The test judges a side by the closest-point normal, seen from the body
//! that turned less, and by whether a centre of mass went through the other body's shape on
//! its path in that body's own frame; both are needed, for the reasons each function gives.
//!
//! Only a point inside a shape can be pushed through another: a point on a surface is met
//! by every body that rests or slides on that surface. So the point that must go through is
//! one inside the body's shape of the pair (`inner_point`), and a pair that ends within reach with its
//! normal turned counts only where the middle of a shape with area has passed the other's
//! surface. Without the first, the centre of a static chain (the mean of its segments, on
//! the ground it draws) stopped every box that slid over it; without the second, a box
//! tilted by 1e-4 rad sliding off a segment onto the next one of a chain ended with its
//! side face a millimetre from the segment's end, the normal to it turned by 90 degrees and
//! the tilt, and was stopped dead too.

use super::{rebuilt_sweep, start_pose};
use crate::domain::translated;
use core::f64::consts::PI;
use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{Circle, Isometry, Point, Real, Rotation, Segment, Shape, Vector, cross};
use impact_narrowphase::distance;
use impact_narrowphase::toi::moving_points::moving_circles;
use impact_solver::{BodySet, ContactPair, RigidBody};

/// Whether the contact solver's targets put the pair of `c`, one of them a dynamic CCD body,
/// on opposite sides of where its manifold had them: the closest-point normal at the targets
/// turned by more than 90 degrees, and either the shapes are still within `reach` with the
/// middle of one past the other's surface ([`crossed`]) or overlapping deeper than a resting
/// contact does (the linear slop: two sticks turning fast, whose start normal says little
/// once they turned, ended one on the other), or one body's centre of mass, seen
/// from the other body, went through that body's shape on its way (the pair was pushed
/// clean through; [`centre_went_through`]). A pair that only turned, such as a body that slid
/// round the end of a segment, is left alone. `start` holds the poses at the start of the
/// step, by slot, and `dt` is the step.
///
/// Soft contacts can push a body through a zero-thickness segment under a load (a disc at
/// the bottom of a pile hit by another from above): this is the safety net that stops such a
/// body where it was. It costs a distance query per contact of a CCD body that moved, and two
/// more when the normal turned round; the guarantee is for CCD bodies, and a query per
/// resting contact of every other body (a pyramid's) would buy nothing.
pub(crate) fn pushed_through(
    bodies: &BodySet,
    start: &[Option<Isometry>],
    c: &ContactPair,
    reach: Real,
    dt: Real,
) -> bool {
    let (Some(a), Some(b)) = (bodies.get(c.a), bodies.get(c.b)) else {
        return false;
    };
    if !(a.is_dynamic() && a.ccd() || b.is_dynamic() && b.ccd()) {
        return false;
    }
    let (a0, b0) = (start_pose(start, c.a, a), start_pose(start, c.b, b));
    if a0 == *a.pose() && b0 == *b.pose() {
        return false;
    }
    let (a1, b1) = (*a.pose(), translated(b.pose(), &c.offset));
    // The contact's own shapes: a body of several shapes has a contact per shape pair.
    let (shape_a, shape_b) = (c.shape_of(a, 0).shape(), c.shape_of(b, 1).shape());
    // Through a zero-thickness segment, a centre of mass that crossed it is through,
    // whichever way the closest-point normal turned: a stick pressed across a segment near
    // its end overlaps it sideways, its normal not turned round.
    match (shape_a, shape_b) {
        (_, Shape::Segment(segment))
            if may_cross(segment, (&translated(&b0, &c.offset), &b1), (a, &a0, &a1))
                && centre_went_through((a, shape_a, &a0), (b, shape_b, &b0), &c.offset, dt) =>
        {
            return true;
        }
        (Shape::Segment(segment), _)
            if may_cross(segment, (&a0, &a1), (b, &translated(&b0, &c.offset), &b1))
                && centre_went_through((b, shape_b, &b0), (a, shape_a, &a0), &-c.offset, dt) =>
        {
            return true;
        }
        _ => {}
    }
    let end = distance(shape_a, &a1, shape_b, &b1);
    let (ends_a, ends_b) = ((a, &a0, &a1), (b, &b0, &b1));
    if !turned_round(end.normal, c.manifold.normal, ends_a, ends_b) {
        return false;
    }
    let normal = lesser_turn(ends_a, ends_b) * c.manifold.normal;
    let deep = end.distance < -LINEAR_SLOP;
    (end.distance < reach && (deep || crossed((shape_a, &a1), (shape_b, &b1), &normal)))
        || centre_went_through((a, shape_a, &a0), (b, shape_b, &b0), &c.offset, dt)
        || centre_went_through((b, shape_b, &b0), (a, shape_a, &a0), &-c.offset, dt)
}

/// Whether, along `normal` (from `a` toward `b`, the side the pair started on), the middle
/// of either shape at its pose has passed the other's surface: `b`'s middle below `a`'s
/// highest point, or `a`'s above `b`'s lowest. Only a shape with area has a middle inside it
/// ([`has_interior`]). A disc squeezed half way through a segment has; a box that slid off
/// the end of one, its side face now nearest the end, has not, however its normal turned.
fn crossed(
    (shape_a, pose_a): (&Shape, &Isometry),
    (shape_b, pose_b): (&Shape, &Isometry),
    normal: &Vector,
) -> bool {
    let (low_a, high_a) = extent(shape_a, pose_a, normal);
    let (low_b, high_b) = extent(shape_b, pose_b, normal);
    (has_interior(shape_b) && 0.5 * (low_b + high_b) < high_a)
        || (has_interior(shape_a) && 0.5 * (low_a + high_a) > low_b)
}

/// The lowest and highest points of `shape` at `pose` along the unit `direction`.
fn extent(shape: &Shape, pose: &Isometry, direction: &Vector) -> (Real, Real) {
    let (low, high) = shape
        .core()
        .iter()
        .map(|p| (pose * p).coords.dot(direction))
        .fold((Real::INFINITY, Real::NEG_INFINITY), |(low, high), x| {
            (low.min(x), high.max(x))
        });
    (low - shape.radius(), high + shape.radius())
}

/// Whether `shape` has area, so that points lie inside it rather than on its surface: not a
/// segment or a chain's segment, nor a disc of radius zero.
fn has_interior(shape: &Shape) -> bool {
    match shape {
        Shape::Segment(_) | Shape::ChainSegment(_) => false,
        Shape::Polygon(_) => true,
        _ => shape.radius() > 0.0,
    }
}

/// The point of `body` (body frame) whose passage through another shape says that `shape`,
/// one of its shapes, was pushed through it: the body's centre of mass when it has one shape,
/// else the centre of `shape`'s core (its vertices' mean), and only where that point lies
/// strictly inside `shape`; `None` otherwise. A point on a surface (the middle of a segment,
/// the centre of a flat chain's body, the mean of its segments) goes through whatever rests
/// or slides on that surface, and the centre of mass of a body of several shapes may lie
/// outside them all (an L's, in its corner).
fn inner_point(body: &RigidBody, shape: &Shape) -> Option<Point> {
    if !has_interior(shape) {
        return None;
    }
    let point = if body.has_one_shape() {
        body.local_center()
    } else {
        let core = shape.core();
        let sum = core.iter().map(|p| p.coords).sum::<Vector>();
        Point::from(sum / core.len() as Real)
    };
    let disc: Shape = Circle::with_center(point, 0.0).ok()?.into();
    let id = Isometry::identity();
    (distance(&disc, &id, shape, &id).distance < 0.0).then_some(point)
}

/// Whether the centre of mass of `body` (from `start` to `end`) can have crossed `segment`
/// (at `from` and `to`, the same pose for a segment that does not move): `false` only when
/// the segment stood still and the centre stayed strictly on one side of its line.
fn may_cross(
    segment: &Segment,
    (from, to): (&Isometry, &Isometry),
    (body, start, end): (&RigidBody, &Isometry, &Isometry),
) -> bool {
    if from != to {
        return true;
    }
    let (p, q) = (from * segment.a(), from * segment.b());
    let side = |c: Point| cross(&(q - p), &(c - p));
    let (s0, s1) = (
        side(start * body.local_center()),
        side(end * body.local_center()),
    );
    !(s0 > 0.0 && s1 > 0.0 || s0 < 0.0 && s1 < 0.0)
}

/// Whether the normal `end` of a pair at the end of the step (from `a` toward `b`) points
/// against its normal `start` at the start, seen from the body of the pair that turned less
/// over the step (`a0` to `a1`, `b0` to `b1`; a disc about its centre of mass counts as not
/// turning, whatever its angle says): a pair that turns together (two bodies moving as one,
/// spinning at hundreds of radians per second) turns its normal round in the world without
/// either body changing side, and a body that spins alone against a wall turns its own
/// frame, not the wall's.
pub(crate) fn turned_round(
    end: Vector,
    start: Vector,
    (a, a0, a1): (&RigidBody, &Isometry, &Isometry),
    (b, b0, b1): (&RigidBody, &Isometry, &Isometry),
) -> bool {
    (lesser_turn((a, a0, a1), (b, b0, b1)).inverse() * end).dot(&start) < 0.0
}

/// The turn over the step of the body of a pair that turned less (`a0` to `a1`, `b0` to
/// `b1`; a disc about its centre of mass counts as not turning): the frame
/// [`turned_round`] judges a side in.
#[inline]
fn lesser_turn(
    (a, a0, a1): (&RigidBody, &Isometry, &Isometry),
    (b, b0, b1): (&RigidBody, &Isometry, &Isometry),
) -> Rotation {
    let turn = |body: &RigidBody, from: &Isometry, to: &Isometry| {
        if round_about_centre(body) {
            Rotation::identity()
        } else {
            to.rotation * from.rotation.inverse()
        }
    };
    let (turn_a, turn_b) = (turn(a, a0, a1), turn(b, b0, b1));
    if turn_a.angle().abs() <= turn_b.angle().abs() {
        turn_a
    } else {
        turn_b
    }
}

/// Whether `body` is one disc about its centre of mass, which its turn does not move.
pub(crate) fn round_about_centre(body: &RigidBody) -> bool {
    body.has_one_shape()
        && matches!(body.shape(), Shape::Circle(c) if c.center() == body.local_center())
}

/// Whether the centre of mass of `x` (or the point [`inner_point`] gives for `x_shape`, `x`'s
/// shape of the pair; never where it gives none) went through `shape`, one of `y`'s shapes, over the step, both
/// moving from their `start` poses to their current ones as [`rebuilt_sweep`] has them over `dt`,
/// `y` translated by `offset`: the path of that centre seen from `y`'s own frame, where `y` stands
/// still. The centre moves on a straight line (a sweep turns a body about it), so the path bends
/// only as `y` turns: a polyline with a vertex at least every sixteenth of a half turn of `y` (at
/// most 64 pieces), and a straight line when `y` does not turn or is a disc about its own centre of
/// mass.
///
/// Neither a straight path in `y`'s frame (a disc spinning half a turn while another was
/// pushed through it saw that one's path from its far side at both ends) nor a straight path
/// relative to `y`'s centre against `y` at a fixed orientation (two bodies turning together
/// at 550 rad/s, moving as one after an impact, drew a chord through each other while their
/// sweeps only drew apart) is the path `x` took.
pub(super) fn centre_went_through(
    (x, x_shape, x0): (&RigidBody, &Shape, &Isometry),
    (y, shape, y0): (&RigidBody, &Shape, &Isometry),
    offset: &Vector,
    dt: Real,
) -> bool {
    let Some(inner) = inner_point(x, x_shape) else {
        return false;
    };
    let (Some(sweep_y), Some(sweep_x)) = (rebuilt_sweep(y, y0, dt), rebuilt_sweep(x, x0, dt))
    else {
        // Not a finite motion: the safe answer is the one that stops the pair.
        return true;
    };
    let (from, to) = (x0 * x.local_center(), x.pose() * x.local_center());
    // The centre of mass moves on a straight line; another point of `x` turns with it.
    let at_centre = inner == x.local_center();
    let round = round_about_centre(y);
    let turn_y = if round {
        0.0
    } else {
        sweep_y.angvel().abs() * dt
    };
    let turn = if at_centre {
        turn_y
    } else {
        turn_y.max(sweep_x.angvel().abs() * dt)
    };
    let pieces = (turn / (PI / 16.0)).ceil().clamp(1.0, 64.0) as usize;
    let (y_from, y_to) = (
        y0 * y.local_center() + offset,
        y.pose() * y.local_center() + offset,
    );
    let seen = |k: usize| {
        let s = k as Real / pieces as Real;
        let centre = if at_centre {
            from + (to - from) * s
        } else {
            sweep_x.pose_at(s) * inner
        };
        if round {
            // Any orientation of a disc about its centre is the start one.
            y.local_center() + (centre - (y_from + (y_to - y_from) * s))
        } else {
            translated(&sweep_y.pose_at(s), offset).inverse_transform_point(&centre)
        }
    };
    // A piece that keeps out of `y`'s bounding disc cannot meet its shape: most do, where a
    // pair only slid past each other, and the test is a fraction of a distance query.
    let (centre, reach) = (y.local_center(), shape.bounding_radius(&y.local_center()));
    let clear = |a: Point, b: Point| moving_circles(a, b, reach, centre, centre, 0.0).is_none();
    let mut last = seen(0);
    for k in 1..=pieces {
        let next = seen(k);
        if clear(last, next) {
            last = next;
            continue;
        }
        let Ok(path) = Segment::new(last, next) else {
            last = next;
            continue;
        };
        let through = distance(
            &path.into(),
            &Isometry::identity(),
            shape,
            &Isometry::identity(),
        );
        if through.distance <= 0.0 {
            return true;
        }
        last = next;
    }
    false
}
