//! Rounded polygons in a world: a rounded box dropped on ground comes to rest on its flat side,
//! its core the radius above the ground (within the solver's resting depth), under every
//! stepper; a thin rounded plank thrown spinning at a thin rounded wall at 300 units/s never
//! passes through it under the CCD steppers.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{ConvexPolygon, Isometry, Real, Vector};
use impact_solver::RigidBodyDef;
use impact_stepper::judge::{PassThroughDetector, TurnRecorder};
use impact_stepper::{
    Discrete, FirstTimeOfImpact, MotionClamping, NoHook, Stepper, World, WorldSettings,
};

/// A box of core 1 x 0.6 rounded by 0.2, dropped from 1 unit up (tilted) onto a static box
/// whose top is y = 0: after 3 s it rests flat, its centre 0.3 + 0.2 above the ground.
fn rests_on_its_flat_side<S: Stepper + Default>() {
    let mut world: World<RTreeBroadphase, S> =
        World::new(WorldSettings::with_gravity(Vector::new(0.0, -10.0))).unwrap();
    let ground = ConvexPolygon::rectangle(5.0, 0.5).unwrap();
    world
        .create_body(RigidBodyDef::fixed(ground.into()).pose(Isometry::translation(0.0, -0.5)))
        .unwrap();
    let rounded = ConvexPolygon::rectangle(0.5, 0.3)
        .unwrap()
        .with_radius(0.2)
        .unwrap();
    let body = world
        .create_body(
            RigidBodyDef::new(rounded.into())
                .pose(Isometry::new(Vector::new(0.0, 1.5), 0.2))
                .friction(0.6),
        )
        .unwrap();
    for _ in 0..180 {
        world.step(DT).unwrap();
    }
    let b = world.body(body).unwrap();
    let (y, angle) = (b.pose().translation.y, b.pose().rotation.angle());
    let name = core::any::type_name::<S>();
    assert!(
        (y - 0.5).abs() < 2.0 * LINEAR_SLOP,
        "{name}: centre at {y}, expected 0.5"
    );
    assert!(angle.abs() < 1e-3, "{name}: tilted by {angle}");
    assert!(
        b.linvel().norm() < 1e-3,
        "{name}: still moving at {}",
        b.linvel()
    );
}

#[test]
fn a_rounded_box_rests_on_its_flat_side() {
    rests_on_its_flat_side::<Discrete>();
    rests_on_its_flat_side::<MotionClamping>();
    rests_on_its_flat_side::<FirstTimeOfImpact>();
}

/// Thin rounded planks (core 1 x 0.02, radius 0.01) thrown spinning at a static rounded wall
/// (core 0.02 thick, radius 0.005) from 3 units away at `speed`, for a second: how many
/// pass-throughs the judge finds (a plank knocked round an end of the wall is not one).
fn throw_planks<S: Stepper + Default>(speed: Real) -> usize {
    let mut world: World<RTreeBroadphase, S> =
        World::new(WorldSettings::with_gravity(Vector::zeros())).unwrap();
    let wall = ConvexPolygon::rectangle(0.01, 3.0)
        .unwrap()
        .with_radius(0.005)
        .unwrap();
    world.create_body(RigidBodyDef::fixed(wall.into())).unwrap();
    for i in 0..8 {
        let plank = ConvexPolygon::rectangle(0.5, 0.01)
            .unwrap()
            .with_radius(0.01)
            .unwrap();
        let k = Real::from(i);
        world
            .create_body(
                RigidBodyDef::new(plank.into())
                    .pose(Isometry::new(Vector::new(-3.0, -2.1 + 0.6 * k), 0.3 * k))
                    .linvel(Vector::new(speed, 0.0))
                    .angvel(10.0 + 5.0 * k)
                    .restitution(0.5)
                    .ccd(true),
            )
            .unwrap();
    }
    let mut judge = PassThroughDetector::new(world.body_set());
    let mut turns = TurnRecorder::new(NoHook);
    for step in 1..=60 {
        world.step_with(DT, &mut turns).unwrap();
        judge.observe_with_turns(world.body_set(), step, &turns.turns(world.events()));
        turns.clear();
    }
    judge.found().len()
}

#[test]
fn fast_spinning_rounded_planks_never_pass_a_rounded_wall() {
    for speed in [30.0, 300.0] {
        assert_eq!(throw_planks::<FirstTimeOfImpact>(speed), 0, "at {speed}");
        assert_eq!(throw_planks::<MotionClamping>(speed), 0, "at {speed}");
    }
    // Without CCD the fast ones go through: the judge sees a pass-through when there is one.
    assert!(throw_planks::<Discrete>(300.0) > 0);
}
