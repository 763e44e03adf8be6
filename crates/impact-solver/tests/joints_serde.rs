//! Invariant: with the `serde` feature a joint set round-trips through JSON unchanged, and a
//! simulation restored from a snapshot (bodies, joints, contact cache) continues bit for bit
//! as the original; a snapshot whose free list or joints are inconsistent is refused with
//! the field named.

#![cfg(feature = "serde")]

mod common;

use impact_solver::{BodySet, ContactCache, JointSet};
use serde_json::{Value, json};

#[test]
fn a_restored_joint_scene_continues_bit_for_bit() {
    let mut scene = common::mixed_joint_scene();
    // A free slot in the snapshot: a joint removed, its slot waiting in the free list.
    let (a, b) = (
        scene.bodies.iter().next().unwrap().0,
        scene.bodies.iter().nth(1).unwrap().0,
    );
    let extra = scene.join(
        a,
        b,
        impact_geometry::Point::origin(),
        impact_solver::WeldJoint::default().into(),
    );
    scene.joints.remove(extra).unwrap();
    for _ in 0..60 {
        scene.step();
    }
    let json = (
        serde_json::to_string(&scene.bodies).unwrap(),
        serde_json::to_string(&scene.joints).unwrap(),
        serde_json::to_string(&scene.cache).unwrap(),
    );
    let mut restored = common::mixed_joint_scene();
    restored.bodies = serde_json::from_str::<BodySet>(&json.0).unwrap();
    restored.joints = serde_json::from_str::<JointSet>(&json.1).unwrap();
    restored.cache = serde_json::from_str::<ContactCache>(&json.2).unwrap();
    assert_eq!(restored.joints, scene.joints);
    assert_eq!(restored.bodies.state_hash(), scene.bodies.state_hash());
    for _ in 0..60 {
        scene.step();
        restored.step();
    }
    println!(
        "joint scene restored after 60 steps, 60 more: hashes {:#018x} and {:#018x}",
        scene.bodies.state_hash(),
        restored.bodies.state_hash()
    );
    assert_eq!(restored.bodies.state_hash(), scene.bodies.state_hash());
    assert_eq!(restored.joints, scene.joints);
    // Handles stay valid, the freed slot is reused the same way.
    let (a, b) = (
        scene.bodies.iter().next().unwrap().0,
        scene.bodies.iter().nth(1).unwrap().0,
    );
    let weld = impact_solver::JointDef::new(a, b, impact_solver::WeldJoint::default().into());
    assert_eq!(
        scene.joints.insert(&scene.bodies, weld.clone()).unwrap(),
        restored.joints.insert(&restored.bodies, weld).unwrap()
    );
}

/// The snapshot of a set of three joints with the middle one removed.
fn snapshot() -> Value {
    let mut scene = common::mixed_joint_scene();
    scene.step();
    let mut joints = JointSet::new();
    let handles: Vec<_> = scene.joints.iter().map(|(h, _)| h).take(3).collect();
    for h in &handles {
        let def = scene.joints.get(*h).unwrap().def().clone();
        joints.insert(&scene.bodies, def).unwrap();
    }
    let middle = joints.iter().nth(1).unwrap().0;
    joints.remove(middle).unwrap();
    serde_json::to_value(&joints).unwrap()
}

fn refused(value: Value, field: &str) {
    let err = serde_json::from_value::<JointSet>(value)
        .unwrap_err()
        .to_string();
    assert!(err.contains(field), "{err} should name {field}");
}

#[test]
fn inconsistent_free_lists_are_refused() {
    let good = snapshot();
    assert_eq!(good["free"], json!([1]));
    serde_json::from_value::<JointSet>(good.clone()).unwrap();
    for (free, field) in [
        (json!([0]), "joints.free[0]"),    // an occupied slot
        (json!([1, 1]), "joints.free[1]"), // listed twice
        (json!([7]), "joints.free[0]"),    // no such slot
        (json!([]), "joints.slots[1]"),    // an empty slot not listed
    ] {
        let mut bad = good.clone();
        bad["free"] = free;
        refused(bad, field);
    }
}

#[test]
fn invalid_joints_in_a_snapshot_are_refused() {
    let good = snapshot();
    let mut bad = good.clone();
    bad["slots"][0]["joint"]["def"]["body_b"] = bad["slots"][0]["joint"]["def"]["body_a"].clone();
    refused(bad, "joint: both sides name body");
    let mut bad = good.clone();
    bad["slots"][0]["joint"]["def"]["break_force"] = json!(-1.0);
    refused(bad, "joint.break_force");
    let mut bad = good.clone();
    bad["slots"][0]["joint"]["def"]["kind"] =
        json!({"type": "prismatic", "local_axis_a": [0.0, 0.0]});
    refused(bad, "joint.prismatic.local_axis_a.length");
    let mut bad = good.clone();
    bad["slots"][0]["joint"]["def"]["kind"] = json!({"type": "wheel", "local_axis_a": [0.0, 2.0]});
    refused(bad, "joint.wheel.local_axis_a.length");
    let mut bad = good.clone();
    bad["slots"][0]["joint"]["def"]["kind"] = json!({"type": "revolute", "spring_hertz": -2.0});
    refused(bad, "joint.revolute.spring_hertz");
    let mut bad = good;
    bad["slots"][2]["joint"]["def"]["local_anchor_a"] = json!([0.0, null]);
    assert!(serde_json::from_value::<JointSet>(bad).is_err());
}
