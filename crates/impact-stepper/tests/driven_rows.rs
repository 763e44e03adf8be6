//! Invariant: a row of free bodies a driven bar shoves end on never passes through the bar,
//! under both CCD steppers.
//!
//! A bar that turns and pushes the first body of a row meets it again at once after every
//! impact, and `FirstTimeOfImpact` carries it (`first_toi/carry.rs`); what a carried body
//! keeps meeting is carried too, rigidly with the bar, up to the carry's cap of 32 bodies
//! a driven body carries in a step. A row the bar cannot carry whole (its bodies struck
//! free of the carry until they ran out of carries) ends with the bar passing its first
//! body; `tests/driven_flippers.rs` has stacks of at most 7 bodies, this has rows up to the
//! cap.
//!
//! Scenes, drawn by proptest: a bar 0.5 to 2 long (half length `L`) and 0.02 to 0.1 thick
//! on a fixed pivot at its middle or its end, turned at 5 to 30 rad/s by a motor of torque
//! to spare or as a kinematic body, without gravity; on its leading face, at 0.1 to 0.9 of
//! the way from the pivot to its far end, a row of 10 to 32 discs, boxes or capsules (each
//! `L / 200` to `L / 60` across) standing straight out from the face, touching, restitution
//! 0. Over 10 steps of 1/60 s, no body goes from one side of the bar to the other within its
//! length (the side test of `tests/driven_carry.rs`), away from its ends by what each end
//! moves in a step: a body flung past the tip of a fast bar can be back over it, on its
//! other side, one step later.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Isometry, Point, Real, Vector};
use impact_solver::{BodyHandle, RigidBodyDef};
use impact_stepper::{FirstTimeOfImpact, MotionClamping, Stepper, World, WorldSettings};
use proptest::prelude::*;

/// Steps per scene.
const STEPS: usize = 10;

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
    /// Where the row stands, as a fraction of the way from the pivot to the far end.
    along: Real,
    /// Each body's shape kind (disc, box, capsule) and size, a fraction of the half length.
    row: Vec<(u8, Real)>,
}

fn scene() -> impl Strategy<Value = Scene> {
    (
        (0.25..1.0, 0.01..0.05, any::<bool>()),
        (5.0..30.0, any::<bool>(), -1.5..1.5, 0.1..0.9),
        prop::collection::vec((0u8..3, 1.0 / 400.0..1.0 / 120.0), 10..33),
    )
        .prop_map(
            |((half_length, half_thickness, at_end), (omega, kinematic, angle, along), row)| {
                Scene {
                    half_length,
                    half_thickness,
                    at_end,
                    omega,
                    kinematic,
                    angle,
                    along,
                    row,
                }
            },
        )
}

/// The world of `s` under `S`, its bar, and the row's bodies with their bounding radii.
fn build<S: Stepper + Default>(
    s: &Scene,
) -> (
    World<RTreeBroadphase, S>,
    BodyHandle,
    Vec<(BodyHandle, Real)>,
) {
    let mut w =
        World::<RTreeBroadphase, S>::new(WorldSettings::with_gravity(Vector::zeros())).unwrap();
    let axis = Vector::new(s.angle.cos(), s.angle.sin());
    let normal = Vector::new(-axis.y, axis.x);
    let (centre, reach) = if s.at_end {
        (axis * s.half_length, 2.0 * s.half_length)
    } else {
        (Vector::zeros(), s.half_length)
    };
    let bar = common::driven_bar(
        &mut w,
        (s.half_length, s.half_thickness),
        (centre, s.angle),
        s.omega,
        s.kinematic,
    );
    // The bar turns counter-clockwise: the face its normal points out of leads on the side
    // of the pivot toward its far end.
    let foot = axis * (s.along * reach);
    let mut height = s.half_thickness + 1e-4;
    let mut row = Vec::new();
    for &(kind, size) in &s.row {
        let shape = common::small_shape(kind, size * s.half_length);
        let r = shape.bounding_radius(&Point::origin());
        let at = foot + normal * (height + r);
        height += 2.0 * r + 1e-4;
        let body = w
            .create_body(
                RigidBodyDef::new(shape)
                    .pose(Isometry::new(at, s.angle))
                    .restitution(0.0)
                    .friction(0.3)
                    .ccd(true),
            )
            .unwrap();
        row.push((body, r));
    }
    (w, bar, row)
}

/// Whether a body whose centre is at `x` along the bar (from its middle) is judged: not
/// nearer an end than that end moves in a step, within which a body can go round the end
/// between two steps and come back over the bar on its other side.
fn judged(s: &Scene, x: Real) -> bool {
    let pivot = if s.at_end { -s.half_length } else { 0.0 };
    let end = s.half_length.copysign(x);
    x.abs() <= s.half_length - s.omega * (end - pivot).abs() * DT
}

/// Runs the scene under `S`: `Err` naming the first step and body that went through the
/// bar.
fn not_through<S: Stepper + Default>(s: &Scene) -> Result<(), String> {
    let (mut w, bar, row) = build::<S>(s);
    let judged = |x: Real, _| judged(s, x);
    let mut sides = common::BarSides::new(&w, (bar, s.half_thickness), &row, judged);
    for step in 0..STEPS {
        if s.kinematic {
            let c = w.body(bar).unwrap().center_of_mass();
            w.set_velocity(bar, Vector::new(-c.y, c.x) * s.omega, s.omega)
                .unwrap();
        }
        w.step(DT).unwrap();
        if let Some(k) = sides.crossed(&w, judged) {
            return Err(format!("step {step}: body {k} went through the bar"));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 128,
        rng_seed: proptest::test_runner::RngSeed::Fixed(5),
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_driven_bar_never_passes_the_row_it_shoves_first_time_of_impact(s in scene()) {
        let outcome = not_through::<FirstTimeOfImpact>(&s);
        prop_assert!(outcome.is_ok(), "{}", outcome.unwrap_err());
    }

    #[test]
    fn a_driven_bar_never_passes_the_row_it_shoves_motion_clamping(s in scene()) {
        let outcome = not_through::<MotionClamping>(&s);
        prop_assert!(outcome.is_ok(), "{}", outcome.unwrap_err());
    }
}
