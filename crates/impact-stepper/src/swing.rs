//! Bodies that turn: a body *swings* when its course turns some point of its shape farther
//! than the contact distance over the step. The contact solver's manifolds, taken at the
//! start poses, do not bound where its far side goes, and an overlapping pair whose nearest
//! points part can still deepen where the far side comes round: both CCD steppers follow such
//! pairs along their courses ([`swinging_deepening`]).

use impact_geometry::{Circle, Isometry, Point, Real, Shape, Sweep, Vector};
use impact_narrowphase::{Distance, distance};
use impact_solver::RigidBody;

/// What following an overlapping pair along its courses found ([`swinging_deepening`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Deepening {
    /// The overlap does not get deeper than at the start by the tolerance before the courses
    /// end.
    Never,
    /// It does, `after` seconds into the courses, at `point` with the normal from the first
    /// body toward the second.
    At {
        after: Real,
        point: Point,
        normal: Vector,
    },
    /// The iteration cap was reached: up to `safe` seconds into the courses, it does not.
    Unknown { safe: Real },
}

/// The first moment two shapes overlapping at the start of their courses (`x` and `y`,
/// courses of the same length) overlap deeper than at the start by the tolerance, measured
/// along the start's contact normal `n` (a unit vector from `x` toward `y`, on the pair's
/// side, see [`anchored`]; fixed in the world): the separation `min n.q - max n.p` over the points `q` of `y`
/// and `p` of `x`. Not the signed distance: a thin body pressed through a zero-thickness
/// segment is deepest half way and shallower after, the far side then being the nearer way
/// out, so the signed distance never gets much deeper than at the start while the body goes
/// through.
///
/// Conservative advancement on that separation: the linear motion changes it at a known
/// rate along the fixed normal, and each body's rotation by no more than its angular speed
/// times its bounding radius, so a step of the current excess over the goal divided by the
/// net rate cannot pass the goal. Once within half the tolerance of it (between half and the
/// whole tolerance deeper than at the start, as conservative advancement does from a touching
/// start), the impact is there, with the normal `n`, at whichever of the two points that set
/// the separation lies deeper inside the other body, if the bodies close there along `n`.
/// If they do not, no impulse at that point would answer the deepening, and the pair is
/// followed on with the goal a tolerance below where it is now.
/// The point of `shape` at `pose` farthest along `sign * n`, and how far.
fn extreme(shape: &Shape, pose: &Isometry, n: &Vector, sign: Real) -> (Point, Real) {
    let (at, far) =
        shape
            .core()
            .iter()
            .fold((Point::origin(), Real::NEG_INFINITY), |(at, far), v| {
                let p = pose * v;
                let along = sign * n.dot(&p.coords);
                if along > far { (p, along) } else { (at, far) }
            });
    (at + n * (sign * shape.radius()), far + shape.radius())
}

/// The separation along `n` of `x` and `y` at `fraction` of their courses,
/// `min n.q - max n.p`, and the two points that set it.
fn separation_along(
    (shape_x, sweep_x): (&Shape, &Sweep),
    (shape_y, sweep_y): (&Shape, &Sweep),
    n: &Vector,
    fraction: Real,
) -> (Real, Point, Point) {
    let (p, p_far) = extreme(shape_x, &sweep_x.pose_at(fraction), n, 1.0);
    let (q, q_far) = extreme(shape_y, &sweep_y.pose_at(fraction), n, -1.0);
    (-q_far - p_far, p, q)
}

/// The fastest the separation along `n` can fall over the whole course (world units): the
/// linear approach along `n` and each body's angular speed times its bounding radius.
fn fastest_fall(
    (shape_x, sweep_x): (&Shape, &Sweep),
    (shape_y, sweep_y): (&Shape, &Sweep),
    n: &Vector,
) -> Real {
    let rest = sweep_x.dt();
    let swing = |shape: &Shape, sweep: &Sweep| {
        sweep.angvel().abs() * rest * shape.bounding_radius(&sweep.local_center())
    };
    swing(shape_x, sweep_x) + swing(shape_y, sweep_y)
        - n.dot(&(sweep_y.linvel() - sweep_x.linvel())) * rest
}

/// Whether the separation along `n` of two shapes on their courses (as in
/// [`swinging_deepening`]) may fall by `depth` below its start's at some moment of the
/// courses, whether or not a point closes there: conservative advancement toward that goal,
/// `true` if it is reached (within half of `depth`) or the iteration cap is.
pub(crate) fn deepens_by(
    x: (&Shape, &Sweep),
    y: (&Shape, &Sweep),
    n: Vector,
    depth: Real,
    max_iterations: u32,
) -> bool {
    let rate = fastest_fall(x, y, &n);
    let (start, _, _) = separation_along(x, y, &n, 0.0);
    if !(rate > 0.0 && start.is_finite()) {
        return false;
    }
    let goal = start - depth;
    let (mut fraction, mut now) = (0.0, start);
    for _ in 0..max_iterations {
        if now - goal <= 0.5 * depth {
            return true;
        }
        let next = fraction + (now - goal) / rate;
        if next >= 1.0 {
            return false;
        }
        let (there, _, _) = separation_along(x, y, &n, next);
        if !there.is_finite() {
            return true;
        }
        (fraction, now) = (next, there);
    }
    true
}

pub(crate) fn swinging_deepening(
    (shape_x, sweep_x): (&Shape, &Sweep),
    (shape_y, sweep_y): (&Shape, &Sweep),
    n: Vector,
    tolerance: Real,
    max_iterations: u32,
) -> Deepening {
    let rest = sweep_x.dt();
    debug_assert_eq!(rest, sweep_y.dt(), "courses of the same length");
    let separation =
        |fraction: Real| separation_along((shape_x, sweep_x), (shape_y, sweep_y), &n, fraction);
    let rate = fastest_fall((shape_x, sweep_x), (shape_y, sweep_y), &n);
    let (mut now, _, _) = separation(0.0);
    if !(rate > 0.0 && now.is_finite()) {
        return Deepening::Never;
    }
    let mut goal = now - tolerance;
    let mut fraction = 0.0;
    for _ in 0..max_iterations {
        let next = fraction + (now - goal) / rate;
        if next >= 1.0 {
            return Deepening::Never;
        }
        let (there, p, q) = separation(next);
        if !there.is_finite() {
            break;
        }
        (fraction, now) = (next, there);
        if now - goal <= 0.5 * tolerance {
            // The impact acts at one of the two points that set the separation (not at the
            // exact distance's nearest points, which can be parting while a far corner
            // swings in: an impulse there changes nothing, and the same deepening comes
            // back at once), if the bodies drive together there along `n`. If not, no
            // impulse at that point answers the deepening; follow on.
            let closing = |point: &Point| {
                (sweep_y.velocity_at(fraction, point) - sweep_x.velocity_at(fraction, point))
                    .dot(&n)
                    * rest
            };
            // Of the two, the one deeper inside the other body: a flat face has no one
            // farthest point, and an end of a long floor is no place for an impulse.
            let inside = |point: &Point, shape: &Shape, sweep: &Sweep| {
                depth(point, shape, &sweep.pose_at(fraction))
            };
            // Which of the two is deeper matters only if one of them closes: the exact
            // distances that tell are skipped when neither does (most goals a swinging body
            // reaches while it slides or parts).
            let closes = |point: &Point| closing(point) < -tolerance;
            if !(closes(&p) || closes(&q)) {
                goal = now - tolerance;
                continue;
            }
            let at = if inside(&p, shape_y, sweep_y) <= inside(&q, shape_x, sweep_x) {
                p
            } else {
                q
            };
            if closes(&at) {
                return Deepening::At {
                    after: fraction * rest,
                    point: at,
                    normal: n,
                };
            }
            // The goal moves on, as from a new start here.
            goal = now - tolerance;
        }
    }
    Deepening::Unknown {
        safe: fraction * rest,
    }
}

/// The signed distance from `point` to `shape` at `pose` (negative inside): the exact
/// distance of a point, by the core's own features rather than through a Minkowski
/// difference with a zero disc (which [`distance`] would build, a third of a swinging
/// pair's cost): inside a polygon's core, the nearest face's line (its largest separation
/// over the faces, since the core is convex); outside any core, the nearest point of its
/// edges (or of its one vertex); then the rounding taken off.
fn depth(point: &Point, shape: &Shape, pose: &Isometry) -> Real {
    let local = pose.inverse_transform_point(point);
    let core = shape.core();
    let to_edge = |a: &Point, b: &Point| {
        let e = b - a;
        let len2 = e.norm_squared();
        let s = if len2 > 0.0 {
            ((local - a).dot(&e) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (a + e * s - local).norm()
    };
    let core_distance = match (shape, core) {
        (_, [only]) => (local - only).norm(),
        (_, [a, b]) => to_edge(a, b),
        (Shape::Polygon(polygon), _) => {
            let separation = core
                .iter()
                .zip(polygon.normals())
                .map(|(v, n)| n.dot(&(local - v)))
                .fold(Real::NEG_INFINITY, Real::max);
            if separation <= 0.0 {
                separation
            } else {
                (0..core.len())
                    .map(|i| to_edge(&core[i], &core[(i + 1) % core.len()]))
                    .fold(Real::INFINITY, Real::min)
            }
        }
        _ => {
            let probe: Shape = Circle::new(0.0).expect("zero is a valid radius").into();
            return distance(
                &probe,
                &Isometry::translation(point.x, point.y),
                shape,
                pose,
            )
            .distance;
        }
    };
    core_distance - shape.radius()
}

/// The normal of `d` if it is a usable unit vector (finite and not zero: it is not for
/// shapes whose cores coincide).
pub(crate) fn unit_normal(d: &Distance) -> Option<Vector> {
    let n = d.normal;
    (n.x.is_finite() && n.y.is_finite() && n != Vector::zeros()).then_some(n)
}

/// `normal`, or `anchor` where `normal` points away from it: the side a pair's bodies belong on,
/// which the exact distance's normal loses past the middle of a zero-thickness segment.
pub(crate) fn anchored(normal: Vector, anchor: Option<Vector>) -> Vector {
    match anchor {
        Some(side) if normal.dot(&side) < 0.0 => side,
        _ => normal,
    }
}

/// Whether `sweep` turns a point of `body`'s shape farther than `contact_distance` over the
/// step: the contact solver's manifolds, taken at the start poses, do not bound where its far
/// side goes. Never a disc turning about its centre, which its turn does not move.
pub(crate) fn swings(body: &RigidBody, sweep: &Sweep, contact_distance: Real) -> bool {
    if body.has_one_shape()
        && let Shape::Circle(c) = body.shape()
        && c.center() == Point::origin()
        && sweep.local_center() == Point::origin()
    {
        return false;
    }
    let r = body.bounding_radius(&sweep.local_center());
    (sweep.angvel() * sweep.dt()).abs() * r > contact_distance
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::{Capsule, ConvexPolygon, Segment};
    use proptest::prelude::*;

    /// The shapes of the test: a circle, a segment, a capsule, a square, a stick, a rounded
    /// hexagon, off their centres.
    fn shape(kind: u8) -> Shape {
        match kind % 6 {
            0 => Circle::with_center(Point::new(0.01, -0.02), 0.05)
                .unwrap()
                .into(),
            1 => Segment::new(Point::new(-1.0, 0.1), Point::new(2.0, -0.3))
                .unwrap()
                .into(),
            2 => Capsule::new(Point::new(-0.05, 0.0), Point::new(0.05, 0.01), 0.02)
                .unwrap()
                .into(),
            3 => ConvexPolygon::rectangle(0.05, 0.05).unwrap().into(),
            4 => ConvexPolygon::rectangle(0.09, 0.01).unwrap().into(),
            _ => ConvexPolygon::regular(6, 0.05)
                .unwrap()
                .with_radius(0.01)
                .unwrap()
                .into(),
        }
    }

    proptest! {
        /// `depth` is the exact distance of a point (a zero disc) to the shape, inside and
        /// out, to rounding: the choice between two points it makes is the one the exact
        /// distance would make but for ties within rounding.
        #[test]
        fn depth_is_the_distance_of_a_point(
            kind in 0u8..6,
            x in -0.3..0.3f64,
            y in -0.3..0.3f64,
            angle in -4.0..4.0f64,
            tx in -100.0..100.0f64,
            ty in -100.0..100.0f64,
        ) {
            let shape = shape(kind);
            let pose = Isometry::new(Vector::new(tx, ty), angle);
            let point = pose * Point::new(x, y);
            let probe: Shape = Circle::new(0.0).unwrap().into();
            let exact = distance(&probe, &Isometry::translation(point.x, point.y), &shape, &pose)
                .distance;
            let fast = depth(&point, &shape, &pose);
            prop_assert!((fast - exact).abs() <= 1e-12 * (1.0 + tx.abs() + ty.abs()),
                "{shape:?} at {point:?}: {fast} against {exact}");
        }

        /// `deepens_by` never answers no where dense sampling of the courses finds the
        /// separation along `n` fallen by the depth or more below its start's.
        #[test]
        fn deepens_by_misses_no_sampled_fall(
            (kx, ky) in (0u8..6, 0u8..6),
            (vx, vy, w) in (-30.0..30.0f64, -30.0..30.0f64, -80.0..80.0f64),
            (ox, oy, turn) in (-0.2..0.2f64, -0.2..0.2f64, -4.0..4.0f64),
            normal_angle in -3.2..3.2f64,
            depth in 0.001..0.2f64,
        ) {
            let dt = 1.0 / 60.0;
            let (sx, sy) = (shape(kx), shape(ky));
            let x = Sweep::new(Isometry::new(Vector::new(ox, oy), turn), Point::origin(),
                Vector::new(vx, vy), w, dt).unwrap();
            let y = Sweep::new(Isometry::identity(), Point::origin(), Vector::zeros(), 0.0, dt)
                .unwrap();
            let n = Vector::new(normal_angle.cos(), normal_angle.sin());
            let at = |f: Real| separation_along((&sx, &x), (&sy, &y), &n, f).0;
            let start = at(0.0);
            let fell = (0..=2000).any(|i| at(Real::from(i) / 2000.0) <= start - depth);
            if fell {
                prop_assert!(deepens_by((&sx, &x), (&sy, &y), n, depth, 64));
            }
        }
    }
}
