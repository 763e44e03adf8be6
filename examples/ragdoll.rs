//! Ragdolls shot into a paper-thin wall, under the three steppers.
//!
//! Each ragdoll is Box2D's "human" (`impact_testkit::scenes::ragdoll`): eleven capsules (the
//! lower legs with a foot) held by ten revolute joints with limits and joint friction. Twenty
//! of them, each in its own collision group, are shot at a zero-thickness static segment (a
//! wall from y = -2 to y = 4 at x = 0) at 500 units/s, tilted and spinning by seeded amounts,
//! without gravity. Discrete has no continuous collision detection and lets most limbs
//! through; MotionClamping and FirstTimeOfImpact stop every body at the wall.
//!
//! The program prints, per stepper, how many of the 220 bodies pass through the wall (the test
//! kit's judge, `TunnelCounter`: a body whose path crosses the segment, not one that went
//! round an end) and the largest joint stretch (the distance between a joint's two anchors) at
//! the end, and checks that no body passes under `FirstTimeOfImpact`.
//!
//! `cargo run --release --example ragdoll`

use impact_testkit::SplitMix64;
use impact_testkit::scenes::{JointedScene, Scene, TunnelCounter, ragdoll};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::prelude::*;

const DT: Real = 1.0 / 60.0;
const STEPS: usize = 90;
const RAGDOLLS: usize = 20;
const SPEED: Real = 500.0;

/// The wall and the ragdolls, each a ragdoll's length apart in y and 2 to 6 units from the
/// wall, shot at it.
fn scene(seed: u64) -> JointedScene {
    let mut rng = SplitMix64::new(seed);
    let wall = Segment::new(Point::new(0.0, -2.0), Point::new(0.0, 4.0)).expect("a segment");
    let mut bodies = vec![RigidBodyDef::fixed(wall.into())];
    let mut joints = Vec::new();
    for r in 0..RAGDOLLS {
        let x = rng.range(-6.0, -2.0);
        let y = -1.5 + 0.25 * r as Real;
        let (mut parts, links) = ragdoll(Vector::new(x, y), 1.0, r as i32 + 1, 0.05);
        let tilt = rng.range(-0.2, 0.2);
        let spin = rng.range(-10.0, 10.0);
        let velocity = Vector::new(SPEED * tilt.cos(), SPEED * tilt.sin());
        for part in &mut parts {
            part.ccd = true;
            part.linvel = velocity;
            part.angvel = spin;
        }
        let offset = bodies.len();
        bodies.extend(parts);
        joints.extend(links.into_iter().map(|mut j| {
            j.bodies = j.bodies.map(|i| i + offset);
            j
        }));
    }
    let scene = Scene {
        name: "ragdolls".into(),
        settings: WorldSettings::with_gravity(Vector::zeros()),
        bodies,
    };
    JointedScene { scene, joints }
}

/// Runs the scene under `S`: bodies through the wall, largest joint stretch at the end.
fn run<S: Stepper + Default>(seed: u64) -> (usize, Real) {
    let scene = scene(seed);
    let (mut world, _, _) = scene.build::<RTreeBroadphase, S>().expect("a valid scene");
    let mut judge = TunnelCounter::new(&scene.scene);
    for _ in 0..STEPS {
        world.step(DT).expect("a valid step");
        judge.observe_world(&world);
    }
    let through = judge.tunnelled();
    (through, world.largest_joint_separation().linear)
}

fn main() {
    let seed = 7;
    println!(
        "{RAGDOLLS} ragdolls ({} bodies) at {SPEED} units/s into a zero-thickness wall:",
        RAGDOLLS * 11
    );
    let results = [
        ("Discrete", run::<Discrete>(seed)),
        ("MotionClamping", run::<MotionClamping>(seed)),
        ("FirstTimeOfImpact", run::<FirstTimeOfImpact>(seed)),
    ];
    for (name, (through, stretch)) in results {
        println!("  {name:<18} bodies through: {through:>3}   largest joint stretch: {stretch:.4}");
    }
    assert_eq!(
        results[2].1.0, 0,
        "no body passes the wall under FirstTimeOfImpact"
    );
}
