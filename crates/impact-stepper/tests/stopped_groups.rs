//! Bodies `MotionClamping` stops at the start of a step (fraction 0) gain no kinetic energy
//! there, and a group of touching bodies stopped there in mid-air does not hang: it moves on
//! as one rigid body (see the stepper's "One step").
//!
//! The regression is the cluster the tumbling rain (`scenes::tumbling_rain`, 1,000 bodies,
//! seed 37) left hung in mid-air from step 23 to the end of the run: ten bodies, capsules,
//! squares, a stick and hexagons, overlapping one another and turning at 4 to 570 rad/s, as
//! they were after step 40, bit for bit. Stopped at 0 at every step (the solver's straight
//! courses do not keep a group that turns about its common centre together, so its targets
//! overlapped again), they kept the solver's velocities, a whole step of gravity and the
//! impulses of their overlaps, and gained energy at every step without moving.

mod common;

use common::{DT, Rng};
use impact_broadphase::RTreeBroadphase;
use impact_geometry::nalgebra::{Complex, Translation2, UnitComplex};
use impact_geometry::{Capsule, ConvexPolygon, Isometry, Point, Real, Shape, Vector};
use impact_solver::{BodyHandle, RigidBody, RigidBodyDef};
use impact_stepper::{MotionClamping, World, WorldSettings};
use impact_testkit::scenes::{GRAVITY, RAIN_FRICTION, RAIN_RESTITUTION};
use proptest::prelude::*;

type W = World<RTreeBroadphase, MotionClamping>;

/// One saved body: `(slot in the rain, shape kind, [x, y, cos, sin], [vx, vy], angular
/// velocity)`.
type Saved = (usize, u8, [Real; 4], [Real; 2], Real);

/// The cluster of seed 37 after step 40: `(slot in the rain, shape kind, [x, y, cos, sin],
/// [vx, vy], angular velocity)`, the kinds as [`shape_of`] numbers them.
const SEED_37_CLUSTER: &[Saved] = &[
    (
        761,
        0,
        [
            9.37409685974915,
            73.6277305646432,
            -0.4658946867002526,
            0.884840178170312,
        ],
        [-9.550345679982126, -179.34964569750176],
        243.32305892744932,
    ),
    (
        918,
        2,
        [
            9.294125881848759,
            73.60380212277965,
            0.9507936411656728,
            0.30982487298298256,
        ],
        [-3.728004010376387, -198.80842866564439],
        243.32305892744932,
    ),
    (
        764,
        2,
        [
            9.41057309753986,
            73.65219528683957,
            -0.5135490431552989,
            -0.8580602428001686,
        ],
        [-5.339166000360658, -163.9695467146356],
        58.53502470940617,
    ),
    (
        816,
        0,
        [
            9.371869573247107,
            73.71269289323655,
            0.9092069274507509,
            0.41634452449331916,
        ],
        [-35.35197243252356, -170.3876378385185],
        159.41458502151056,
    ),
    (
        828,
        1,
        [
            9.373478379818222,
            73.699132677227,
            -0.8524949813471681,
            0.5227354080009222,
        ],
        [-19.318543419538344, -26.24097278661442],
        302.47126794417807,
    ),
    (
        880,
        0,
        [
            9.36270376926207,
            73.71712785432419,
            -0.8552964211825357,
            -0.5181390082905887,
        ],
        [-21.599739424057226, -155.3434754142976],
        67.31746750452771,
    ),
    (
        896,
        3,
        [
            9.369211910260967,
            73.68891837839672,
            0.9999868591819164,
            0.005126544985098513,
        ],
        [-28.232884775633433, -171.99938682913654],
        201.51213340603368,
    ),
    (
        905,
        0,
        [
            9.218688346815814,
            73.66675449869116,
            -0.9888130341140812,
            -0.14916026135035804,
        ],
        [-18.539054189234857, -216.73651947148],
        237.6391610562025,
    ),
    (
        960,
        0,
        [
            9.454331011952904,
            73.61034142402771,
            -0.7516883258561765,
            0.6595185067695502,
        ],
        [-1.9135870844467828, -166.88827685259653],
        3.876470107534643,
    ),
    (
        965,
        3,
        [
            9.382661916879252,
            73.67100299235003,
            0.3447933423486467,
            0.9386786196947529,
        ],
        [-19.760932811552877, -172.54806602152644],
        239.66591632509028,
    ),
];

/// The tumbling rain's shapes: 0 a capsule, 1 a stick, 2 a square, 3 a hexagon.
fn shape_of(kind: u8) -> Shape {
    match kind {
        0 => Capsule::new(Point::new(-0.05, 0.0), Point::new(0.05, 0.0), 0.02)
            .unwrap()
            .into(),
        1 => ConvexPolygon::rectangle(0.09, 0.01).unwrap().into(),
        2 => ConvexPolygon::rectangle(0.05, 0.05).unwrap().into(),
        _ => ConvexPolygon::regular(6, 0.05).unwrap().into(),
    }
}

/// A body of the tumbling rain's material, with CCD.
fn rain_body(shape: Shape) -> RigidBodyDef {
    RigidBodyDef::new(shape)
        .restitution(RAIN_RESTITUTION)
        .friction(RAIN_FRICTION)
        .ccd(true)
}

fn rain_world() -> W {
    World::new(WorldSettings::with_gravity(Vector::new(0.0, GRAVITY))).unwrap()
}

fn kinetic(body: &RigidBody) -> Real {
    0.5 * (body.mass() * body.linvel().norm_squared() + body.inertia() * body.angvel().powi(2))
}

/// Steps `world` once and returns the kinetic energy, before and after the step, of the
/// bodies of `bodies` the step stopped at fraction 0 (summed), and how many bodies the step
/// moved on as one ([`ClampReport::stopped_as_one`](impact_stepper::ClampReport)).
fn step_stopped_energy(world: &mut W, bodies: &[BodyHandle]) -> (Real, Real, usize) {
    let before: Vec<Real> = bodies
        .iter()
        .map(|&h| kinetic(world.body(h).unwrap()))
        .collect();
    let report = world.step(DT).unwrap();
    let (mut start, mut end) = (0.0, 0.0);
    for c in report.stepper.clamped.iter().filter(|c| c.fraction == 0.0) {
        if let Some(i) = bodies.iter().position(|&h| h == c.body) {
            start += before[i];
            end += kinetic(world.body(c.body).unwrap());
        }
    }
    (start, end, report.stepper.stopped_as_one)
}

#[test]
fn the_seed_37_cluster_falls_and_gains_no_energy_where_it_is_stopped() {
    let mut world = rain_world();
    let bodies: Vec<BodyHandle> = SEED_37_CLUSTER
        .iter()
        .map(|&(_, kind, [x, y, re, im], [vx, vy], w)| {
            let pose = Isometry::from_parts(
                Translation2::new(x, y),
                UnitComplex::new_unchecked(Complex::new(re, im)),
            );
            world
                .create_body(
                    rain_body(shape_of(kind))
                        .pose(pose)
                        .linvel(Vector::new(vx, vy))
                        .angvel(w),
                )
                .unwrap()
        })
        .collect();
    let start_y: Vec<Real> = bodies
        .iter()
        .map(|&h| world.body(h).unwrap().pose().translation.y)
        .collect();
    let mut moved_as_one = 0;
    let mut still = vec![0usize; bodies.len()];
    for step in 0..30 {
        let before: Vec<Point> = bodies
            .iter()
            .map(|&h| world.body(h).unwrap().pose().translation.vector.into())
            .collect();
        let (start, end, as_one) = step_stopped_energy(&mut world, &bodies);
        moved_as_one += as_one;
        assert!(
            end <= start * (1.0 + 1e-12),
            "step {step}: stopped at 0, {start} J became {end} J"
        );
        for (i, &h) in bodies.iter().enumerate() {
            let now: Point = world.body(h).unwrap().pose().translation.vector.into();
            still[i] = if now == before[i] { still[i] + 1 } else { 0 };
            assert!(still[i] < 5, "step {step}: body {i} stood still 5 steps");
        }
    }
    assert!(moved_as_one > 0, "the cluster moved on as one");
    for (i, &h) in bodies.iter().enumerate() {
        // Half a second at 150 units/s and more, had they not been held; they fell free.
        let fell = start_y[i] - world.body(h).unwrap().pose().translation.y;
        assert!(fell > 20.0, "body {i} fell {fell}");
    }
}

/// A seeded cluster in mid-air: three to eight of the tumbling rain's bodies within a few
/// centimetres of one another (overlapping), falling at 100 to 250 units/s with a spread of
/// 30, turning at up to 400 rad/s either way.
fn cluster(seed: u64) -> (W, Vec<BodyHandle>) {
    let mut rng = Rng::new(seed);
    let mut world = rain_world();
    let fall = rng.range(100.0, 250.0);
    let count = 3 + rng.below(6);
    let bodies = (0..count)
        .map(|_| {
            let shape = shape_of(rng.below(4) as u8);
            let pose = Isometry::new(
                Vector::new(rng.range(-0.06, 0.06), 50.0 + rng.range(-0.06, 0.06)),
                rng.range(-core::f64::consts::PI, core::f64::consts::PI),
            );
            let v = Vector::new(rng.range(-30.0, 30.0), -fall + rng.range(-30.0, 30.0));
            world
                .create_body(
                    rain_body(shape)
                        .pose(pose)
                        .linvel(v)
                        .angvel(rng.range(-400.0, 400.0)),
                )
                .unwrap()
        })
        .collect();
    (world, bodies)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Bodies stopped at fraction 0 leave the step with no more kinetic energy, all
    /// together, than they started it with: stopped, they did not fall through the step's
    /// gravity.
    #[test]
    fn bodies_stopped_at_the_start_gain_no_kinetic_energy(seed in any::<u64>()) {
        let (mut world, bodies) = cluster(seed);
        for step in 0..5 {
            let (start, end, _) = step_stopped_energy(&mut world, &bodies);
            prop_assert!(
                end <= start * (1.0 + 1e-12) + 1e-12,
                "step {}: stopped at 0, {} J became {} J", step, start, end
            );
        }
    }
}
