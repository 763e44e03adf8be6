//! A plank bridge with a heavy load, under the three steppers.
//!
//! Forty planks 1 unit long (density 20) hang between two fixed posts 36 units apart, each
//! held to the next by a revolute joint at their shared end, the end planks to the posts; they
//! start in a V whose arms are 20 units long, so the bridge has slack and settles into a
//! catenary without stretching a joint. Each joint has Box2D's bridge-sample friction (a
//! motor of speed 0 and 200 N m), which damps the swinging. Two boxes 2 units wide of 200 kg
//! each (40 times a plank; together twice the whole bridge) fall on its middle: the first
//! from y = 0 onto the hanging V, the second from y = 12 at 10 units/s onto the first.
//!
//! The program prints, per stepper, the bridge's sag under the load (how far the middle
//! joint hangs below the posts), the largest joint stretch (distance between a joint's
//! anchors) over the run, and where the boxes came to rest; it checks that the bridge holds
//! (the largest stretch under a fifth of a plank, back under 1% at the end, the boxes resting
//! on the bridge below the posts) under all three. The stretch is the soft joints' (60 Hz,
//! damping ratio 2, as Box2D's): a load 40 times a plank's mass landing at 12 units/s
//! stretches the joints near it by about a tenth of a plank for a moment.
//!
//! `cargo run --release --example bridge`

use impact2d::broadphase::RTreeBroadphase;
use impact2d::prelude::*;
use impact2d::solver::{JointDef, RevoluteJoint};

const DT: Real = 1.0 / 60.0;
const STEPS: usize = 300;
const PLANKS: usize = 40;
const PLANK: Real = 1.0;
/// Joint friction (newton metres): a motor of speed 0, as in Box2D's bridge sample.
const FRICTION_TORQUE: Real = 200.0;

struct Bridge<S: Stepper> {
    world: World<RTreeBroadphase, S>,
    middle: BodyHandle,
    boxes: [BodyHandle; 2],
}

fn build<S: Stepper + Default>() -> Bridge<S> {
    let mut world =
        World::<RTreeBroadphase, S>::new(WorldSettings::with_gravity(Vector::new(0.0, -10.0)))
            .expect("valid settings");
    let half = 18.0;
    // Each arm of the V slopes so that its 20 planks span 18 units.
    let slope = (half / (0.5 * PLANK * PLANKS as Real)).acos();
    let post = |x: Real| {
        RigidBodyDef::fixed(ConvexPolygon::rectangle(0.25, 2.0).expect("a post").into())
            .pose(Isometry::translation(x, -2.0))
    };
    let left = world.create_body(post(-half - 0.25)).expect("a post");
    let right = world.create_body(post(half + 0.25)).expect("a post");
    let mut previous = left;
    let mut middle = left;
    let mut anchor = Point::new(-half, 0.0);
    for i in 0..PLANKS {
        let angle = if i < PLANKS / 2 { -slope } else { slope };
        let along = Vector::new(angle.cos(), angle.sin()) * PLANK;
        let centre = anchor + along * 0.5;
        let plank = world
            .create_body(
                RigidBodyDef::new(
                    ConvexPolygon::rectangle(0.5 * PLANK, 0.125)
                        .expect("a plank")
                        .into(),
                )
                .pose(Isometry::new(centre.coords, angle))
                .density(20.0)
                .friction(0.6),
            )
            .expect("a plank");
        let def = JointDef::at_world_anchor(
            world.body_set(),
            previous,
            plank,
            anchor,
            RevoluteJoint::default().motor(0.0, FRICTION_TORQUE).into(),
        )
        .expect("live bodies");
        world.create_joint(def).expect("a valid joint");
        if i == PLANKS / 2 {
            middle = plank;
        }
        previous = plank;
        anchor += along;
    }
    let def = JointDef::at_world_anchor(
        world.body_set(),
        previous,
        right,
        anchor,
        RevoluteJoint::default().motor(0.0, FRICTION_TORQUE).into(),
    )
    .expect("live bodies");
    world.create_joint(def).expect("a valid joint");
    let load = |y: Real, vy: Real| {
        let mut def = RigidBodyDef::new(ConvexPolygon::rectangle(1.0, 1.0).expect("a box").into())
            .pose(Isometry::translation(0.0, y))
            .density(50.0)
            .friction(0.6);
        def.linvel = Vector::new(0.0, vy);
        def.ccd = true;
        def
    };
    let first = world.create_body(load(0.0, 0.0)).expect("a box");
    let second = world.create_body(load(12.0, -10.0)).expect("a box");
    Bridge {
        world,
        middle,
        boxes: [first, second],
    }
}

/// What a run ends with.
struct Outcome {
    sag: Real,
    /// The largest joint stretch over the run, and at its end.
    peak: Real,
    end: Real,
    heights: [Real; 2],
}

/// The largest distance between a joint's two anchors (the bridge's joints are all
/// revolute: their linear separation).
fn stretch<S: Stepper>(world: &World<RTreeBroadphase, S>) -> Real {
    world.largest_joint_separation().linear
}

fn run<S: Stepper + Default>() -> Outcome {
    let mut b = build::<S>();
    let mut peak: Real = 0.0;
    for _ in 0..STEPS {
        b.world.step(DT).expect("a valid step");
        peak = peak.max(stretch(&b.world));
    }
    Outcome {
        sag: -b.world.body(b.middle).expect("live").pose().translation.y,
        peak,
        end: stretch(&b.world),
        heights: b
            .boxes
            .map(|h| b.world.body(h).expect("live").pose().translation.y),
    }
}

fn main() {
    println!("a {PLANKS}-plank bridge under two boxes of 200 kg:");
    for (name, o) in [
        ("Discrete", run::<Discrete>()),
        ("MotionClamping", run::<MotionClamping>()),
        ("FirstTimeOfImpact", run::<FirstTimeOfImpact>()),
    ] {
        let [y1, y2] = o.heights;
        println!(
            "  {name:<18} sag {:.2}   joint stretch: largest {:.4}, at the end {:.4}   boxes at \
             y = {y1:.2}, {y2:.2}",
            o.sag, o.peak, o.end
        );
        assert!(
            o.peak < 0.2 * PLANK,
            "{name}: the bridge stretched {}",
            o.peak
        );
        assert!(
            o.end < 0.01 * PLANK,
            "{name}: the bridge stays stretched by {}",
            o.end
        );
        for y in [y1, y2] {
            assert!(
                (-12.0..0.0).contains(&y),
                "{name}: a box is not on the bridge: {y}"
            );
        }
    }
}
