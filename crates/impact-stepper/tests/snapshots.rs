//! Invariant: a world restored from a snapshot continues bit for bit. For each stepper, 500
//! steps in one run equal 250 steps, a JSON snapshot, a restore and 250 more steps, compared
//! by a hash of every body's state bits, on a busy scene: a pyramid, discs thrown into it,
//! and fast CCD bullets (so motion clamping clamps and first time of impact resolves impacts
//! mid-step), with a sensor across it and a force threshold on its ground. The restored
//! world's collision, contact and sensor events are the original's at every step, including
//! the end events of a body removed just before the snapshot. A snapshot keeps handles
//! valid, and a corrupt snapshot is refused by name.

#![cfg(feature = "serde")]

mod common;

use common::{DT, state_hash};
use impact_broadphase::{Broadphase, RTreeBroadphase, SortAndSweep};
use impact_geometry::{Circle, Isometry, Vector};
use impact_solver::RigidBodyDef;
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
            serde_json::json!([[stale, live]]),
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
