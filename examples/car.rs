//! A car on wheel joints driven over a bumpy floor, under the three steppers.
//!
//! The car is a 3 by 0.5 chassis (density 5) on two wheels of radius 0.4 (density 2,
//! friction 0.9), each held by a `WheelJoint`: a vertical suspension spring of 4 Hz and
//! damping ratio 0.7, and on the rear wheel a motor turning it backwards at 20 rad/s with at
//! most 400 N m (forward, to the right). The floor is one static chain of 200 segments, half
//! a unit apart, with bumps: a smooth wave of 0.15 units plus a seeded bump of up to 0.1 on
//! every second point. The car drives for 8 seconds.
//!
//! The program prints, per stepper, how far the car went, its average speed, the largest
//! chassis tilt, the suspension's travel and the largest joint stretch (the distance between
//! a joint's two anchors), and checks that the car drove at least 30 units without turning
//! over, and that no wheel ended beneath the floor.
//!
//! `cargo run --release --example car`

use impact_testkit::SplitMix64;
use impact2d::broadphase::RTreeBroadphase;
use impact2d::prelude::*;
use impact2d::solver::{JointDef, WheelJoint};

const DT: Real = 1.0 / 60.0;
const STEPS: usize = 480;

/// The floor's points, right to left (a chain's solid side is on its right, so a floor runs
/// right to left to face up).
fn floor(seed: u64) -> Vec<Point> {
    let mut rng = SplitMix64::new(seed);
    let mut points: Vec<Point> = (0..=200)
        .map(|i| {
            let x = -10.0 + 0.5 * Real::from(i);
            let bump = if i % 2 == 0 { rng.range(0.0, 0.1) } else { 0.0 };
            Point::new(x, 0.15 * (0.7 * x).sin() + bump)
        })
        .collect();
    points.reverse();
    points
}

struct Car<S: Stepper> {
    world: World<RTreeBroadphase, S>,
    chassis: BodyHandle,
    wheels: [BodyHandle; 2],
}

fn build<S: Stepper + Default>(seed: u64) -> Car<S> {
    let mut world =
        World::<RTreeBroadphase, S>::new(WorldSettings::with_gravity(Vector::new(0.0, -10.0)))
            .expect("valid settings");
    let chain = Chain::new(&floor(seed), false).expect("a valid chain");
    world
        .create_body(RigidBodyDef::from_chain(&chain))
        .expect("the floor");
    let chassis = world
        .create_body(
            RigidBodyDef::new(ConvexPolygon::rectangle(1.5, 0.25).expect("a box").into())
                .pose(Isometry::translation(0.0, 1.3))
                .density(5.0),
        )
        .expect("the chassis");
    let wheels = [-1.1, 1.1].map(|x| {
        let mut wheel = RigidBodyDef::new(Circle::new(0.4).expect("a radius").into())
            .pose(Isometry::translation(x, 0.65))
            .density(2.0)
            .friction(0.9);
        wheel.ccd = true;
        world.create_body(wheel).expect("a wheel")
    });
    for (i, &wheel) in wheels.iter().enumerate() {
        let at = world.body(wheel).expect("live").pose().translation.vector;
        let mut joint = WheelJoint::along(Vector::y()).spring(4.0, 0.7);
        if i == 0 {
            joint = joint.motor(-20.0, 400.0);
        }
        let def = JointDef::at_world_anchor(
            world.body_set(),
            chassis,
            wheel,
            Point::from(at),
            joint.into(),
        )
        .expect("live bodies");
        world.create_joint(def).expect("a valid joint");
    }
    Car {
        world,
        chassis,
        wheels,
    }
}

struct Outcome {
    distance: Real,
    tilt: Real,
    travel: (Real, Real),
    stretch: Real,
    lowest_wheel_gap: Real,
}

fn run<S: Stepper + Default>(seed: u64) -> Outcome {
    let mut car = build::<S>(seed);
    let floor_at = |x: Real| {
        let pts = floor(seed);
        pts.windows(2)
            .find(|w| (w[1].x..=w[0].x).contains(&x))
            .map_or(0.0, |w| {
                w[1].y + (w[0].y - w[1].y) * (x - w[1].x) / (w[0].x - w[1].x)
            })
    };
    let x0 = car
        .world
        .body(car.chassis)
        .expect("live")
        .pose()
        .translation
        .x;
    let (mut tilt, mut travel, mut stretch): (Real, (Real, Real), Real) =
        (0.0, (Real::MAX, Real::MIN), 0.0);
    let mut lowest_wheel_gap = Real::MAX;
    for _ in 0..STEPS {
        car.world.step(DT).expect("a valid step");
        let chassis = car.world.body(car.chassis).expect("live").pose();
        tilt = tilt.max(chassis.rotation.angle().abs());
        for (_, j) in car.world.joints().iter() {
            let a = car.world.body(j.body_a()).expect("live").pose();
            let b = car.world.body(j.body_b()).expect("live").pose();
            let d = (b * j.def().local_anchor_b) - (a * j.def().local_anchor_a);
            let along = chassis.rotation * Vector::y();
            let t = d.dot(&along);
            travel = (travel.0.min(t), travel.1.max(t));
            stretch = stretch.max((d - along * t).norm());
        }
        for &w in &car.wheels {
            let p = car.world.body(w).expect("live").pose().translation;
            lowest_wheel_gap = lowest_wheel_gap.min(p.y - floor_at(p.x));
        }
    }
    let x1 = car
        .world
        .body(car.chassis)
        .expect("live")
        .pose()
        .translation
        .x;
    Outcome {
        distance: x1 - x0,
        tilt,
        travel,
        stretch,
        lowest_wheel_gap,
    }
}

fn main() {
    let seed = 3;
    println!(
        "a car on wheel joints over 100 units of bumps, {} s:",
        STEPS as Real * DT
    );
    for (name, o) in [
        ("Discrete", run::<Discrete>(seed)),
        ("MotionClamping", run::<MotionClamping>(seed)),
        ("FirstTimeOfImpact", run::<FirstTimeOfImpact>(seed)),
    ] {
        println!(
            "  {name:<18} distance {:.1} ({:.1} units/s)   largest tilt {:.1} deg   suspension \
             {:+.3} to {:+.3}   largest stretch {:.4}   lowest wheel centre {:.3} above the floor",
            o.distance,
            o.distance / (STEPS as Real * DT),
            o.tilt.to_degrees(),
            o.travel.0,
            o.travel.1,
            o.stretch,
            o.lowest_wheel_gap,
        );
        assert!(o.distance > 30.0, "{name}: the car drove {:.1}", o.distance);
        assert!(o.tilt < 1.0, "{name}: the car tilted {:.2} rad", o.tilt);
        assert!(
            o.lowest_wheel_gap > 0.0,
            "{name}: a wheel went beneath the floor"
        );
    }
}
