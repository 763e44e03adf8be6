//! Invariant: a world restored from a snapshot continues bit for bit. For each stepper, 500
//! steps in one run equal 250 steps, a JSON snapshot, a restore and 250 more steps, compared
//! by a hash of every body's state bits, on a busy scene: a pyramid, discs thrown into it,
//! and fast CCD bullets (so motion clamping clamps and first time of impact resolves impacts
//! mid-step), with a sensor across it and a force threshold on its ground. The restored
//! world's collision, contact and sensor events are the original's at every step, including
//! the end events of a body removed just before the snapshot. The same holds of a world of
//! bodies of several shapes (L-shapes, dumbbells, sensor shapes beside solid ones, shapes
//! added and removed before and after the snapshot). A snapshot keeps handles valid, and a
//! corrupt snapshot is refused by name.

#![cfg(feature = "serde")]

mod common;

use common::{DT, state_hash};
use impact_broadphase::{Broadphase, RTreeBroadphase, SortAndSweep};
use impact_geometry::{Circle, Isometry, Point, Vector};
use impact_solver::{RigidBodyDef, ShapeDef, ShapeId};
use impact_stepper::{Discrete, FirstTimeOfImpact, MotionClamping, Stepper, World};
use impact_testkit::scenes;
use serde::Serialize;
use serde::de::DeserializeOwned;

fn busy_world<B: Broadphase + Default, S: Stepper + Default>() -> World<B, S> {
    let (mut world, _) = scenes::pyramid(6).build::<B, S>().unwrap();
    for i in 0..4 {
        let x = -4.0 + 2.5 * f64::from(i);
        world
            .create_body(
                RigidBodyDef::new(Circle::new(0.3).unwrap().into())
                    .pose(Isometry::translation(x, 9.0 + f64::from(i)))
                    .linvel(Vector::new(1.5 - f64::from(i), -2.0))
                    .angvel(4.0)
                    .restitution(0.6),
            )
            .unwrap();
    }
    for i in 0..3 {
        // Bullets that reach the pyramid inside one step.
        world
            .create_body(
                RigidBodyDef::new(Circle::new(0.05).unwrap().into())
                    .pose(Isometry::translation(-30.0, 0.5 + 1.1 * f64::from(i)))
                    .linvel(Vector::new(1_500.0 + 200.0 * f64::from(i), 0.0))
                    .restitution(0.5)
                    .ccd(true),
            )
            .unwrap();
    }
    // A sensor across the pyramid's upper rows, and forces asked of the ground.
    world
        .create_body(
            RigidBodyDef::fixed(
                impact_geometry::ConvexPolygon::rectangle(8.0, 2.0)
                    .unwrap()
                    .into(),
            )
            .pose(Isometry::translation(0.0, 4.0))
            .sensor(true),
        )
        .unwrap();
    let ground = world.bodies().next().unwrap().0;
    world
        .body_mut(ground)
        .unwrap()
        .set_contact_force_threshold(Some(5.0))
        .unwrap();
    world
}

fn continues_bit_for_bit<B: Broadphase + Default, S>()
where
    S: Stepper + Default + Serialize + DeserializeOwned,
{
    let mut straight = busy_world::<B, S>();
    let mut first = busy_world::<B, S>();
    for _ in 0..250 {
        straight.step(DT).unwrap();
        first.step(DT).unwrap();
    }
    // A box of the pyramid's top leaves: its end events wait in the snapshot.
    let top = first.bodies().nth(21).unwrap().0;
    first.remove_body(top).unwrap();
    straight.remove_body(top).unwrap();
    let json = serde_json::to_string(&first).unwrap();
    drop(first);
    let mut restored: World<B, S> = serde_json::from_str(&json).unwrap();
    assert_eq!(restored.step_count(), 250);
    let (mut contact, mut sensor) = (0, 0);
    for step in 0..250 {
        straight.step(DT).unwrap();
        restored.step(DT).unwrap();
        assert_eq!(restored.events(), straight.events(), "step {step}");
        assert_eq!(
            restored.contact_events(),
            straight.contact_events(),
            "step {step}"
        );
        assert_eq!(
            restored.sensor_events(),
            straight.sensor_events(),
            "step {step}"
        );
        contact += restored.contact_events().end().len() + restored.contact_events().force().len();
        sensor += restored.sensor_events().begin().len() + restored.sensor_events().end().len();
    }
    assert!(
        contact > 0 && sensor > 0,
        "{contact} contact and {sensor} sensor events"
    );
    assert_eq!(state_hash(&restored), state_hash(&straight));
    assert_eq!(restored.time().to_bits(), straight.time().to_bits());
    assert_eq!(restored.contact_cache(), straight.contact_cache());
}

#[test]
fn discrete_continues_bit_for_bit() {
    continues_bit_for_bit::<RTreeBroadphase, Discrete>();
}

#[test]
fn motion_clamping_continues_bit_for_bit() {
    continues_bit_for_bit::<RTreeBroadphase, MotionClamping>();
}

#[test]
fn first_time_of_impact_continues_bit_for_bit() {
    continues_bit_for_bit::<RTreeBroadphase, FirstTimeOfImpact>();
    continues_bit_for_bit::<SortAndSweep, FirstTimeOfImpact>();
}

/// The box `[x0, x1] x [y0, y1]` in the body frame.
fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> impact_geometry::Shape {
    impact_geometry::ConvexPolygon::new(&[
        Point::new(x0, y0),
        Point::new(x1, y0),
        Point::new(x1, y1),
        Point::new(x0, y1),
    ])
    .unwrap()
    .into()
}

/// A floor with a sensor zone as one body, and a heap of bodies of several shapes thrown
/// onto it: L-shapes of two boxes, dumbbells of two discs and a capsule, and a disc with a
/// sensor ring; fast CCD L-shapes among them. Shapes are added to and removed from bodies
/// before the run, so further shapes' proxies come from reused indices.
fn compound_world<B: Broadphase + Default, S: Stepper + Default>() -> World<B, S> {
    let mut world = World::<B, S>::new(impact_stepper::WorldSettings::with_gravity(Vector::new(
        0.0, -9.81,
    )))
    .unwrap();
    let ground = world
        .create_body(
            RigidBodyDef::fixed(rect(-12.0, -1.0, 12.0, 0.0))
                .with_shape(ShapeDef::new(rect(-12.0, 0.0, -11.0, 8.0)))
                .with_shape(ShapeDef::new(rect(11.0, 0.0, 12.0, 8.0)))
                .with_shape(ShapeDef::new(rect(-3.0, 0.0, 3.0, 2.0)).sensor(true)),
        )
        .unwrap();
    let disc = |r: f64, x: f64, y: f64| -> impact_geometry::Shape {
        Circle::with_center(Point::new(x, y), r).unwrap().into()
    };
    for i in 0..12 {
        let x = -9.0 + 1.6 * f64::from(i);
        let y = 3.0 + 1.3 * f64::from(i % 4);
        let def = match i % 3 {
            0 => RigidBodyDef::new(rect(0.0, 0.0, 1.2, 0.4))
                .with_shape(ShapeDef::new(rect(0.0, 0.4, 0.4, 1.2)).friction(0.2)),
            1 => RigidBodyDef::new(disc(0.3, -0.6, 0.0))
                .with_shape(ShapeDef::new(disc(0.3, 0.6, 0.0)).density(2.0))
                .with_shape(ShapeDef::new(
                    impact_geometry::Capsule::new(Point::new(-0.6, 0.0), Point::new(0.6, 0.0), 0.1)
                        .unwrap()
                        .into(),
                )),
            _ => RigidBodyDef::new(disc(0.3, 0.0, 0.0))
                .with_shape(ShapeDef::new(disc(0.9, 0.0, 0.0)).sensor(true)),
        };
        world
            .create_body(
                def.pose(Isometry::new(Vector::new(x, y), 0.3 * f64::from(i)))
                    .linvel(Vector::new(1.0 - 0.2 * f64::from(i), -1.0))
                    .angvel(2.0 - 0.3 * f64::from(i))
                    .restitution(0.4),
            )
            .unwrap();
    }
    for i in 0..2 {
        world
            .create_body(
                RigidBodyDef::new(rect(0.0, 0.0, 0.3, 0.1))
                    .with_shape(ShapeDef::new(rect(0.0, 0.1, 0.1, 0.3)))
                    .pose(Isometry::translation(-40.0, 1.0 + 1.5 * f64::from(i)))
                    .linvel(Vector::new(1_200.0, 0.0))
                    .ccd(true),
            )
            .unwrap();
    }
    // The ground's right wall is taken out and a ledge added: indices are released and
    // reserved again.
    world
        .remove_shape(ShapeId {
            body: ground,
            index: 2,
        })
        .unwrap();
    world
        .add_shape(ground, ShapeDef::new(rect(6.0, 4.0, 10.0, 4.5)))
        .unwrap();
    world
}

fn compound_continues_bit_for_bit<B: Broadphase + Default, S>()
where
    S: Stepper + Default + Serialize + DeserializeOwned,
{
    let mut straight = compound_world::<B, S>();
    let mut first = compound_world::<B, S>();
    for _ in 0..150 {
        straight.step(DT).unwrap();
        first.step(DT).unwrap();
    }
    // A further shape of a dumbbell goes: its pairs' end events wait in the snapshot.
    let dumbbell = first.bodies().nth(2).unwrap().0;
    let gone = ShapeId {
        body: dumbbell,
        index: 1,
    };
    first.remove_shape(gone).unwrap();
    straight.remove_shape(gone).unwrap();
    let json = serde_json::to_string(&first).unwrap();
    drop(first);
    let mut restored: World<B, S> = serde_json::from_str(&json).unwrap();
    assert_eq!(restored.touching_pairs(), straight.touching_pairs());
    assert_eq!(restored.sensor_overlaps(), straight.sensor_overlaps());
    let (mut further, mut sensor) = (0, 0);
    for step in 0..150 {
        straight.step(DT).unwrap();
        restored.step(DT).unwrap();
        assert_eq!(restored.events(), straight.events(), "step {step}");
        assert_eq!(
            restored.contact_events(),
            straight.contact_events(),
            "step {step}"
        );
        assert_eq!(
            restored.sensor_events(),
            straight.sensor_events(),
            "step {step}"
        );
        further += restored
            .touching_pairs()
            .iter()
            .filter(|(a, b)| a.index > 0 || b.index > 0)
            .count();
        sensor += restored.sensor_events().begin().len() + restored.sensor_events().end().len();
        if step == 75 {
            // Shapes changed after the restore change both worlds alike.
            let ground = restored.bodies().next().unwrap().0;
            let ledge = ShapeDef::new(rect(-8.0, 5.0, -6.0, 5.5));
            assert_eq!(
                restored.add_shape(ground, ledge.clone()).unwrap(),
                straight.add_shape(ground, ledge).unwrap()
            );
        }
    }
    assert!(
        further > 0 && sensor > 0,
        "{further} touching pairs of further shapes and {sensor} sensor events"
    );
    assert_eq!(state_hash(&restored), state_hash(&straight));
    assert_eq!(restored.contact_cache(), straight.contact_cache());
    assert_eq!(
        serde_json::to_string(&restored).unwrap(),
        serde_json::to_string(&straight).unwrap()
    );
}

#[test]
fn compound_bodies_continue_bit_for_bit() {
    compound_continues_bit_for_bit::<RTreeBroadphase, Discrete>();
    compound_continues_bit_for_bit::<RTreeBroadphase, MotionClamping>();
    compound_continues_bit_for_bit::<RTreeBroadphase, FirstTimeOfImpact>();
    compound_continues_bit_for_bit::<SortAndSweep, FirstTimeOfImpact>();
}

#[test]
fn a_snapshot_keeps_handles_and_settings() {
    let mut world = busy_world::<RTreeBroadphase, FirstTimeOfImpact>();
    let handles: Vec<_> = world.bodies().map(|(h, _)| h).collect();
    world.remove_body(handles[3]).unwrap();
    let json = serde_json::to_string(&world).unwrap();
    let restored: World<RTreeBroadphase, FirstTimeOfImpact> = serde_json::from_str(&json).unwrap();
    assert!(restored.body(handles[3]).is_none());
    for &h in handles.iter().filter(|&&h| h != handles[3]) {
        assert_eq!(restored.body(h), world.body(h));
    }
    assert_eq!(restored.settings(), world.settings());
    assert_eq!(restored.stepper(), world.stepper());
    assert_eq!(restored.broadphase().len(), world.len());
}

#[test]
fn a_corrupt_snapshot_is_refused_by_name() {
    let world = busy_world::<RTreeBroadphase, FirstTimeOfImpact>();
    let json = serde_json::to_value(&world).unwrap();
    let cases: [(&str, serde_json::Value, &str); 3] = [
        (
            "/settings/speculative_distance",
            serde_json::json!(-1.0),
            "settings.speculative_distance: must be zero or positive",
        ),
        (
            "/accumulator",
            serde_json::json!(-1.0),
            "accumulator: must be zero or positive",
        ),
        (
            "/stepper/settings/max_events",
            serde_json::json!(0),
            "first_toi.max_events: must be at least 1",
        ),
    ];
    for (path, value, message) in cases {
        let mut bad = json.clone();
        *bad.pointer_mut(path).unwrap() = value;
        let err = serde_json::from_value::<World<RTreeBroadphase, FirstTimeOfImpact>>(bad)
            .err()
            .unwrap_or_else(|| panic!("{path} accepted"));
        assert!(err.to_string().contains(message), "{path}: {err}");
    }
    // A snapshot written before the events loads, with nothing touching or overlapping.
    let mut old = json.clone();
    for field in [
        "touching",
        "sensor_overlaps",
        "pending_contact_ends",
        "pending_sensor_ends",
    ] {
        old.as_object_mut().unwrap().remove(field).unwrap();
    }
    let restored: World<RTreeBroadphase, FirstTimeOfImpact> = serde_json::from_value(old).unwrap();
    assert!(restored.touching_pairs().is_empty() && restored.sensor_overlaps().is_empty());
    // The pairs the events are judged against name live bodies, in order.
    let stale = serde_json::json!({"index": 999, "generation": 0});
    let live = serde_json::json!({"index": 0, "generation": 0});
    let shape = |body: &serde_json::Value| serde_json::json!({"body": body, "index": 0});
    let (stale_shape, live_shape) = (shape(&stale), shape(&live));
    let (one, two) = (
        shape(&serde_json::json!({"index": 1, "generation": 0})),
        shape(&serde_json::json!({"index": 2, "generation": 0})),
    );
    for (field, pairs, message) in [
        (
            "touching",
            serde_json::json!([[live_shape, stale_shape]]),
            "touching",
        ),
        (
            "sensor_overlaps",
            serde_json::json!([[stale_shape, live_shape]]),
            "sensor_overlaps",
        ),
        (
            "touching",
            serde_json::json!([[live_shape, two], [live_shape, one]]),
            "touching: must be pairs sorted by slot and shape",
        ),
    ] {
        let mut bad = json.clone();
        bad[field] = pairs;
        let err = serde_json::from_value::<World<RTreeBroadphase, FirstTimeOfImpact>>(bad)
            .err()
            .unwrap_or_else(|| panic!("{field} accepted"));
        assert!(err.to_string().contains(message), "{field}: {err}");
    }
}

/// Settings saved under the former name of `threshold_radii_per_step`, `velocity_threshold`,
/// load to the same settings.
#[test]
#[allow(deprecated)]
fn settings_under_the_former_name_of_the_ccd_threshold_load() {
    use impact_stepper::{FirstTimeOfImpactSettings, MotionClampingSettings};
    let toi = FirstTimeOfImpactSettings {
        threshold_radii_per_step: 1.25,
        ..FirstTimeOfImpactSettings::default()
    };
    let json = serde_json::to_string(&toi).unwrap();
    let old = json.replace("threshold_radii_per_step", "velocity_threshold");
    assert_ne!(json, old);
    let back: FirstTimeOfImpactSettings = serde_json::from_str(&old).unwrap();
    assert_eq!(back, toi);
    assert_eq!(back.velocity_threshold(), 1.25);

    let clamp = MotionClampingSettings {
        threshold_radii_per_step: 0.75,
        ..MotionClampingSettings::default()
    };
    let json = serde_json::to_string(&clamp).unwrap();
    let old = json.replace("threshold_radii_per_step", "velocity_threshold");
    let back: MotionClampingSettings = serde_json::from_str(&old).unwrap();
    assert_eq!(back, clamp);
    assert_eq!(back.velocity_threshold(), 0.75);
}
