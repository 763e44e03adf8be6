//! A thin body pressed into a zero-thickness segment by a heavy one stays on its side.
//!
//! The soft contact solver lets a light body under a heavy load sink into what it rests
//! on. A segment has no inside: past half the body's thickness the far side is nearer, the
//! exact manifold's normal turns round, and the solver then pushed the body the rest of the
//! way through (a 0.02 m stick under a box 280 times its mass fell 125 m in 5 s under
//! `Discrete`). The world keeps each segment contact's side from step to step
//! (`impact_narrowphase::contact_manifold_on_side`), for every stepper, and snapshots carry
//! it.

mod common;

use common::DT;
#[cfg(feature = "serde")]
use common::state_hash;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{ConvexPolygon, Isometry, Point, Real, Segment, Vector};
use impact_solver::{BodyHandle, RigidBodyDef};
use impact_stepper::{Discrete, FirstTimeOfImpact, MotionClamping, Stepper, World, WorldSettings};

/// A stick 0.18 by 0.02 resting on a segment along `y = 0`, under a box of side 0.1 and
/// density `density` (the stick's is 1).
fn pressed<S: Stepper + Default>(density: Real) -> (World<RTreeBroadphase, S>, BodyHandle) {
    let mut world = World::new(WorldSettings::with_gravity(Vector::new(0.0, -10.0))).unwrap();
    world
        .create_body(RigidBodyDef::fixed(
            Segment::new(Point::new(-5.0, 0.0), Point::new(5.0, 0.0))
                .unwrap()
                .into(),
        ))
        .unwrap();
    let stick = world
        .create_body(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.09, 0.01).unwrap().into())
                .pose(Isometry::translation(0.0, 0.0101))
                .ccd(true),
        )
        .unwrap();
    world
        .create_body(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.05, 0.05).unwrap().into())
                .pose(Isometry::translation(0.0, 0.0705))
                .density(density)
                .ccd(true),
        )
        .unwrap();
    (world, stick)
}

fn stays_on_its_side<S: Stepper + Default>() {
    for density in [10.0, 100.0, 1_000.0, 10_000.0] {
        let (mut world, stick) = pressed::<S>(density);
        for _ in 0..300 {
            world.step(DT).unwrap();
        }
        let y = world.body(stick).unwrap().pose().translation.y;
        assert!(
            (0.0..0.0101).contains(&y),
            "{}, box density {density}: the stick's centre at y = {y}",
            std::any::type_name::<S>()
        );
    }
}

#[test]
fn a_stick_under_a_heavy_box_stays_above_the_segment_under_discrete() {
    stays_on_its_side::<Discrete>();
}

#[test]
fn a_stick_under_a_heavy_box_stays_above_the_segment_under_the_ccd_steppers() {
    stays_on_its_side::<MotionClamping>();
    stays_on_its_side::<FirstTimeOfImpact>();
}

/// The sides are part of the world's state: a run restored from a snapshot taken while the
/// stick's centre is below the segment's line (its exact normal turned round, the kept side
/// still up; the third step under `Discrete`) continues bit for bit, and on its side.
#[cfg(feature = "serde")]
#[test]
fn a_restored_world_keeps_the_sides() {
    let (mut straight, stick) = pressed::<Discrete>(1_000.0);
    let (mut halted, _) = pressed::<Discrete>(1_000.0);
    for _ in 0..3 {
        straight.step(DT).unwrap();
        halted.step(DT).unwrap();
    }
    assert!(halted.body(stick).unwrap().pose().translation.y < 0.0);
    let json = serde_json::to_string(&halted).unwrap();
    let mut restored: World<RTreeBroadphase, Discrete> = serde_json::from_str(&json).unwrap();
    for _ in 0..297 {
        straight.step(DT).unwrap();
        restored.step(DT).unwrap();
    }
    assert_eq!(state_hash(&straight), state_hash(&restored));
    assert!(restored.body(stick).unwrap().pose().translation.y > 0.0);
}

/// A snapshot's sides must name live bodies, in order; one written before sides were kept
/// (no `sides` field) loads with none.
#[cfg(feature = "serde")]
#[test]
fn a_snapshot_with_bad_sides_is_refused_by_name() {
    let (mut world, _) = pressed::<Discrete>(1_000.0);
    world.step(DT).unwrap();
    let json = serde_json::to_value(&world).unwrap();
    let sides = json["sides"].as_array().unwrap().clone();
    assert_eq!(sides.len(), 2, "the stick's side and the box's: {sides:?}");

    let mut old = json.clone();
    old.as_object_mut().unwrap().remove("sides");
    let loaded = serde_json::from_value::<World<RTreeBroadphase, Discrete>>(old).unwrap();
    assert_eq!(loaded.len(), world.len());

    let mut unknown = json.clone();
    unknown["sides"][0][1]["index"] = serde_json::json!(99);
    let mut unsorted = json.clone();
    unsorted["sides"] = serde_json::json!([sides[1], sides[0]]);
    for (bad, message) in [
        (unknown, "sides: no body"),
        (unsorted, "sides: must be pairs sorted by handle"),
    ] {
        let err = serde_json::from_value::<World<RTreeBroadphase, Discrete>>(bad)
            .err()
            .unwrap_or_else(|| panic!("{message}: accepted"));
        assert!(err.to_string().contains("sides"), "{message}: {err}");
    }
}
