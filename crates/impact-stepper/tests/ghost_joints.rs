//! Bodies thrown along a chain across its joints under `FirstTimeOfImpact`: a chain body of
//! three segments whose two joints bend by random angles either way (convex crests and
//! concave valleys up to 40 degrees), and a disc or a box starting on or near the first
//! segment (within the target separation of it, or resting in it), thrown along it at 1 to
//! 3,000 units/s, level or into it, spinning or not, with or without restitution, under
//! gravity. Whatever the joints, the body's centre never ends a step behind the chain: the
//! hits a segment judges as ghosts (its neighbour's face is nearer) are settled against the
//! face that owns them, and no hit is dropped on a neighbour's promise.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Chain, Circle, ConvexPolygon, Isometry, Point, Real, Shape, Vector};
use impact_solver::RigidBodyDef;
use impact_stepper::{FirstTimeOfImpact, World, WorldSettings};
use proptest::prelude::*;

/// The chain's points from right to left (ground drawn right to left faces up): a level
/// first segment from (6, 0) to (2, 0), then two of length 3, each turned from the one before
/// by its bend (radians; positive rises to the left, a concave valley).
fn points(bends: [Real; 2]) -> Vec<Point> {
    let mut points = vec![Point::new(6.0, 0.0), Point::new(2.0, 0.0)];
    let mut angle = 0.0;
    for bend in bends {
        angle += bend;
        let last = *points.last().unwrap();
        points.push(last + Vector::new(-angle.cos(), angle.sin()) * 3.0);
    }
    points
}

/// The chain's height at `x` (its points run toward -x), if `x` is over it.
fn height(points: &[Point], x: Real) -> Option<Real> {
    points.windows(2).find_map(|w| {
        let (right, left) = (w[0], w[1]);
        (left.x <= x && x <= right.x).then(|| {
            let t = (x - left.x) / (right.x - left.x);
            left.y + (right.y - left.y) * t
        })
    })
}

/// A thrown body: its shape and how far its lowest point lies below its centre at angle 0.
fn shape(kind: u8, size: Real, aspect: Real) -> (Shape, Real) {
    if kind == 0 {
        (Circle::new(size).unwrap().into(), size)
    } else {
        let half_height = size * aspect;
        (
            ConvexPolygon::rectangle(size, half_height).unwrap().into(),
            half_height,
        )
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_body_thrown_along_a_chain_ends_behind_it(
        bends in [-0.7f64..0.7, -0.7f64..0.7],
        (kind, size, aspect) in (0u8..2, 0.05f64..0.4, 0.1f64..1.0),
        (x, gap) in (3.0f64..5.5, prop_oneof![Just(0.0), Just(0.002), Just(0.004), Just(-0.001)]),
        (speed, dip) in (1.0f64..3000.0, -0.5f64..0.15),
        (spin, restitution) in (prop_oneof![Just(0.0), -30.0f64..30.0], prop_oneof![Just(0.0), 0.0f64..0.5]),
    ) {
        let points = points(bends);
        let mut w = World::<RTreeBroadphase, FirstTimeOfImpact>::new(
            WorldSettings::with_gravity(Vector::new(0.0, -10.0)),
        )
        .unwrap();
        w.create_body(RigidBodyDef::from_chain(&Chain::open(&points).unwrap())).unwrap();
        let (shape, lift) = shape(kind, size, aspect);
        let h = w
            .create_body(
                RigidBodyDef::new(shape)
                    .pose(Isometry::translation(x, lift + gap))
                    .linvel(Vector::new(-dip.cos(), dip.sin()) * speed)
                    .angvel(spin)
                    .restitution(restitution)
                    .ccd(true),
            )
            .unwrap();
        for step in 0..12 {
            w.step(DT).unwrap();
            let c = w.body(h).unwrap().center_of_mass();
            if let Some(ground) = height(&points, c.x) {
                prop_assert!(
                    c.y > ground,
                    "step {step}: centre {c:?} behind the chain (height {ground} there)"
                );
            }
        }
    }
}
