//! A whip: a chain of 20 links swung at 50 rad/s into paper-thin walls, under the three
//! steppers.
//!
//! The chain hangs from a fixed pivot at the origin: twenty boxes 0.1 long and 0.02 thick,
//! each held to the next by a revolute joint, the first to the pivot. It starts straight
//! along +x, turning as one about the pivot at 50 rad/s (its tip at 100 units/s), without
//! gravity, and meets three walls 1 mm thick standing radially at 90, 180 and 270 degrees
//! about the pivot, from 0.5 to 3 units out. Every link is a CCD body.
//!
//! The program prints, per stepper, how many links passed through a wall (the test kit's
//! judge) and the largest joint stretch (the distance between a joint's anchors) seen at the
//! end of any step, and checks that no link passes under `FirstTimeOfImpact`.
//!
//! `cargo run --release --example whip`

use impact_testkit::scenes::{JointedScene, Scene, SceneJoint, TunnelCounter};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::prelude::*;
use impact2d::solver::RevoluteJoint;

const DT: Real = 1.0 / 60.0;
const STEPS: usize = 60;
const LINKS: usize = 20;
const LINK: Real = 0.1;
const SPIN: Real = 50.0;

fn scene() -> JointedScene {
    let pivot = RigidBodyDef::fixed(Circle::new(0.01).expect("a radius").into());
    let mut bodies = vec![pivot];
    for angle in [0.5, 1.0, 1.5].map(|q: Real| q * core::f64::consts::PI) {
        let (s, c) = angle.sin_cos();
        let wall = ConvexPolygon::rectangle(1.25, 0.0005).expect("a wall");
        bodies.push(
            RigidBodyDef::fixed(wall.into())
                .pose(Isometry::new(Vector::new(1.75 * c, 1.75 * s), angle)),
        );
    }
    let mut joints = Vec::new();
    for i in 0..LINKS {
        let x = LINK * (i as Real + 0.5);
        let mut link = RigidBodyDef::new(
            ConvexPolygon::rectangle(0.5 * LINK, 0.01)
                .expect("a link")
                .into(),
        )
        .pose(Isometry::translation(x, 0.0));
        link.ccd = true;
        link.linvel = Vector::new(0.0, SPIN * x);
        link.angvel = SPIN;
        let parent = if i == 0 { 0 } else { bodies.len() - 1 };
        let parent_anchor = if i == 0 {
            Point::origin()
        } else {
            Point::new(0.5 * LINK, 0.0)
        };
        joints.push(SceneJoint {
            bodies: [parent, bodies.len()],
            local_anchors: [parent_anchor, Point::new(-0.5 * LINK, 0.0)],
            kind: RevoluteJoint::default().into(),
            reference_angle: 0.0,
        });
        bodies.push(link);
    }
    JointedScene {
        scene: Scene {
            name: "whip".into(),
            settings: WorldSettings::with_gravity(Vector::zeros()),
            bodies,
        },
        joints,
    }
}

/// Links through a wall, and the largest joint stretch at the end of a step.
fn run<S: Stepper + Default>() -> (usize, Real) {
    let scene = scene();
    let (mut world, _, _) = scene.build::<RTreeBroadphase, S>().expect("a valid scene");
    let mut judge = TunnelCounter::new(&scene.scene);
    let mut stretch: Real = 0.0;
    for _ in 0..STEPS {
        world.step(DT).expect("a valid step");
        judge.observe_world(&world);
        stretch = stretch.max(world.largest_joint_separation().linear);
    }
    (judge.tunnelled(), stretch)
}

fn main() {
    println!("a {LINKS}-link whip at {SPIN} rad/s into three walls 1 mm thick:");
    let results = [
        ("Discrete", run::<Discrete>()),
        ("MotionClamping", run::<MotionClamping>()),
        ("FirstTimeOfImpact", run::<FirstTimeOfImpact>()),
    ];
    for (name, (through, stretch)) in results {
        println!(
            "  {name:<18} links through: {through:>2}   largest joint stretch: {stretch:.4} \
             ({:.1}% of a link)",
            100.0 * stretch / LINK
        );
    }
    assert_eq!(
        results[2].1.0, 0,
        "no link passes a wall under FirstTimeOfImpact"
    );
}
