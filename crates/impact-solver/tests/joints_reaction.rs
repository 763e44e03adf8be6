//! A body hanging still on a joint of any kind feels the joint's reaction as its weight:
//! `reaction_force` is `(0, m g)` (within 1e-6 of `m g` once settled), and a weld holding
//! a body by one end also reports the torque `m g d`; break thresholds compare against
//! them. The same joint scene run twice is bit-identical.

mod common;

use common::{JointScene, anchor_body, boxed, disc};
use impact_geometry::{Point, Real, Vector};
use impact_solver::{
    DistanceJoint, JointDef, JointKind, MotorJoint, MouseJoint, PrismaticJoint, RevoluteJoint,
    WeldJoint, WheelJoint,
};

const G: Real = 10.0;

/// A small disc hanging still at (0, -1) from a fixed body at the origin through `kind`,
/// anchored at the origin on the fixed body and at the disc's centre; after `steps` steps,
/// the reaction force and torque over the disc's weight `m g`.
fn hanging(kind: JointKind, steps: usize) -> (Vector, Real) {
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let ground = scene.add(anchor_body(Point::origin()));
    let at = Point::new(0.0, -1.0);
    let bob = scene.add(disc(0.1, 3.0, at, Vector::zeros()));
    let def = JointDef::at_world_anchors(&scene.bodies, ground, bob, (Point::origin(), at), kind)
        .unwrap();
    let joint = scene.joints.insert(&scene.bodies, def).unwrap();
    for _ in 0..steps {
        scene.step();
    }
    let weight = scene.body(bob).mass() * G;
    let j = scene.joint(joint);
    (j.reaction_force() / weight, j.reaction_torque() / weight)
}

#[test]
fn a_revolute_joint_carries_the_weight_of_a_hanging_body() {
    // A pendulum at rest: the bob 1 m below the hinge.
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let ground = scene.add(anchor_body(Point::origin()));
    let bob = scene.add(disc(0.1, 3.0, Point::new(0.0, -1.0), Vector::zeros()));
    let hinge = scene.join(
        ground,
        bob,
        Point::origin(),
        RevoluteJoint::default().into(),
    );
    for _ in 0..120 {
        scene.step();
    }
    let weight = scene.body(bob).mass() * G;
    let force = scene.joint(hinge).reaction_force();
    let error = (force - Vector::new(0.0, weight)).norm() / weight;
    println!(
        "revolute, hanging still: reaction {force:?}, m g {weight}, relative error {error:.2e}"
    );
    assert!(error < 1e-6, "{error}");
    assert!(scene.joint(hinge).reaction_torque().abs() < 1e-9 * weight);
}

#[test]
fn every_kind_carries_the_weight_of_a_still_body() {
    let kinds: [(&str, JointKind); 7] = [
        ("revolute", RevoluteJoint::default().into()),
        ("prismatic", PrismaticJoint::along(Vector::x()).into()),
        ("weld", WeldJoint::default().into()),
        ("distance", DistanceJoint::rod(1.0).into()),
        (
            "wheel",
            WheelJoint::along(Vector::y()).spring(5.0, 1.0).into(),
        ),
        (
            "motor",
            MotorJoint {
                linear_offset: Vector::new(0.0, -1.0),
                max_force: 100.0,
                ..MotorJoint::default()
            }
            .into(),
        ),
        (
            "mouse",
            MouseJoint::toward(Point::new(0.0, -1.0), 100.0).into(),
        ),
    ];
    for (name, kind) in kinds {
        let (force, torque) = hanging(kind, 300);
        let error = (force - Vector::y()).norm();
        println!(
            "{name}: reaction / (m g) = ({:.9}, {:.9}), torque / (m g) {torque:.2e}",
            force.x, force.y
        );
        assert!(error < 1e-6, "{name}: {error}");
        assert!(torque.abs() < 1e-6, "{name}: torque {torque}");
    }
}

#[test]
fn a_weld_holding_a_body_by_one_end_reports_the_torque() {
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let wall = scene.add(anchor_body(Point::origin()));
    let beam = scene.add(boxed(1.0, 0.1, Point::new(1.0, 0.0), 0.0));
    let weld = scene.join(wall, beam, Point::origin(), WeldJoint::default().into());
    for _ in 0..300 {
        scene.step();
    }
    let weight = scene.body(beam).mass() * G;
    let (force, torque) = (
        scene.joint(weld).reaction_force(),
        scene.joint(weld).reaction_torque(),
    );
    // The force acts at the wall, a metre left of the beam's centre: the weld's torque on
    // the beam balances its moment, m g times 1 m.
    println!(
        "weld holding a 2 m beam by its end: force / (m g) {:.9}, torque / (m g d) {:.9}",
        force.y / weight,
        torque / weight
    );
    assert!((force - Vector::new(0.0, weight)).norm() < 1e-6 * weight);
    assert!((torque / weight - 1.0).abs() < 1e-6);

    // Break thresholds compare against the last step's reaction.
    let joint = scene.joints.get_mut(weld).unwrap();
    assert!(!joint.exceeds_break_threshold());
    let mut def = joint.def().clone();
    for (force_limit, torque_limit, breaks) in [
        (0.5 * weight, Real::INFINITY, true),
        (2.0 * weight, Real::INFINITY, false),
        (Real::INFINITY, 0.5 * weight, true),
        (Real::INFINITY, 2.0 * weight, false),
    ] {
        def = def.break_at(force_limit, torque_limit);
        let mut joints = impact_solver::JointSet::new();
        let h = joints.insert(&scene.bodies, def.clone()).unwrap();
        let mut solver = impact_solver::ContactSolver::new(
            &scene.bodies,
            &[],
            &scene.cache,
            &scene.settings,
            scene.dt,
        )
        .unwrap();
        let mut bodies = scene.bodies.clone();
        solver.prepare_joints(&bodies, &joints).unwrap();
        solver.step(&mut bodies, scene.gravity).unwrap();
        solver.store_joint_impulses(&mut joints);
        assert_eq!(
            joints.get(h).unwrap().exceeds_break_threshold(),
            breaks,
            "{force_limit} {torque_limit}"
        );
    }
}

#[test]
fn the_same_joint_scene_twice_is_bit_identical() {
    let run = || {
        let mut scene = common::mixed_joint_scene();
        for _ in 0..120 {
            scene.step();
        }
        (scene.bodies.state_hash(), scene.joints)
    };
    let (hash_a, joints_a) = run();
    let (hash_b, joints_b) = run();
    println!("mixed joint scene after 120 steps: state hash {hash_a:#018x}");
    assert_eq!(hash_a, hash_b);
    assert_eq!(joints_a, joints_b);
}
