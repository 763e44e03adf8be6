//! Invariant: under `MotionClamping`, a driver (a bar a revolute motor turns, or a kinematic
//! bar turned at the same speed) never passes through the free bodies it pushes, whatever
//! their shapes, and never stalls against them.
//!
//! Scenes, drawn by proptest: a bar 0.5 to 2 long and 0.02 to 0.1 thick on a fixed pivot at
//! its end or its middle, turned at 5 to 40 rad/s (a motor of torque to spare, no limit, or
//! a kinematic body given those velocities every step), with 1 to 5 discs, boxes and
//! capsules (0.01 to 0.06 across) on either side of it, resting on it or up to 0.1 above,
//! under gravity, for 20 steps of 1/60 s. Every step, each body's centre in the bar's frame
//! says on which side of the bar it clearly lies (farther from its mid line than its half
//! thickness plus the body's bounding radius, less the linear slop); a body that goes from
//! one side to the other within the bar's length is through it. The bar turns at least 80%
//! of what its speed gives over every step (a motor of torque to spare).
//!
//! `tests/driven_flippers.rs` throws discs off flippers with limits; this covers other
//! shapes, bars turning about their middle (Box2D's spinner) and bodies on both faces.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Isometry, Point, Real, Vector};
use impact_solver::{BodyHandle, RigidBodyDef};
use impact_stepper::{MotionClamping, World, WorldSettings};
use proptest::prelude::*;

/// Steps per scene.
const STEPS: usize = 20;

/// One free body of a scene: its shape kind (disc, box, capsule), size, place along the bar
/// (a fraction of its length), side (above or below), and lift off the face.
type Free = (u8, Real, Real, bool, Real);

/// A scene of the module docs.
#[derive(Debug, Clone)]
struct Scene {
    half_length: Real,
    half_thickness: Real,
    /// The pivot at the bar's end (else its middle).
    at_end: bool,
    omega: Real,
    kinematic: bool,
    angle: Real,
    free: Vec<Free>,
}

fn scene() -> impl Strategy<Value = Scene> {
    (
        (0.25..1.0, 0.01..0.05, any::<bool>()),
        (5.0..40.0, any::<bool>(), -1.5..1.5),
        prop::collection::vec(
            (0u8..3, 0.005..0.03, 0.05..0.95, any::<bool>(), 0.0..0.1),
            1..6,
        ),
    )
        .prop_map(
            |((half_length, half_thickness, at_end), (omega, kinematic, angle), free)| Scene {
                half_length,
                half_thickness,
                at_end,
                omega,
                kinematic,
                angle,
                free,
            },
        )
}

/// The world of `scene`, its bar, and its free bodies with their bounding radii.
fn build(
    s: &Scene,
) -> (
    World<RTreeBroadphase, MotionClamping>,
    BodyHandle,
    Vec<(BodyHandle, Real)>,
) {
    let mut w = World::<RTreeBroadphase, MotionClamping>::new(WorldSettings::with_gravity(
        Vector::new(0.0, -10.0),
    ))
    .unwrap();
    let axis = Vector::new(s.angle.cos(), s.angle.sin());
    let normal = Vector::new(-axis.y, axis.x);
    let centre = if s.at_end {
        axis * s.half_length
    } else {
        Vector::zeros()
    };
    let bar = common::driven_bar(
        &mut w,
        (s.half_length, s.half_thickness),
        (centre, s.angle),
        s.omega,
        s.kinematic,
    );
    let mut free = Vec::new();
    for &(kind, size, along, above, lift) in &s.free {
        let shape = common::small_shape(kind, size);
        let r = shape.bounding_radius(&Point::origin());
        let side = if above { 1.0 } else { -1.0 };
        let x = (2.0 * along - 1.0) * s.half_length;
        let at = centre + axis * x + normal * side * (s.half_thickness + r + lift + 1e-4);
        let body = w
            .create_body(
                RigidBodyDef::new(shape)
                    .pose(Isometry::new(at, s.angle))
                    .friction(0.3)
                    .ccd(true),
            )
            .unwrap();
        free.push((body, r));
    }
    (w, bar, free)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_driver_never_passes_through_nor_stalls_on_what_it_pushes(s in scene()) {
        let (mut w, bar, free) = build(&s);
        let judged = |x: Real, _| x.abs() <= s.half_length;
        let mut sides = common::BarSides::new(&w, (bar, s.half_thickness), &free, judged);
        for step in 0..STEPS {
            let before = w.body(bar).unwrap().pose().rotation;
            if s.kinematic {
                let c = w.body(bar).unwrap().center_of_mass();
                w.set_velocity(bar, Vector::new(-c.y, c.x) * s.omega, s.omega).unwrap();
            }
            w.step(DT).unwrap();
            let turned = (w.body(bar).unwrap().pose().rotation * before.inverse()).angle();
            // The motor reaches its speed within the first step.
            if step > 0 {
                prop_assert!(
                    turned > 0.8 * s.omega * DT,
                    "step {}: the bar turned {} of {}", step, turned, s.omega * DT
                );
            }
            let crossed = sides.crossed(&w, judged);
            prop_assert!(crossed.is_none(), "step {}: body {:?} went through the bar", step, crossed);
        }
    }
}
