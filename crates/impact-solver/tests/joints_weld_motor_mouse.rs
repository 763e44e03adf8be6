//! Weld joints hold two boxes without relative rotation (rigid) or let them bend (soft);
//! a motor joint drives B to its offset from A (in A's frame); a mouse joint pulls a body
//! to its target and never applies more than its maximum force, and leaves body A alone.

mod common;

use common::{JointScene, anchor_body, boxed};
use impact_geometry::{Isometry, Point, Real, Vector};
use impact_solver::{MotorJoint, MouseJoint, RevoluteJoint, WeldJoint};

const G: Real = 10.0;

/// Two boxes welded end to end at (1, 0), the first hinged at the origin, swinging from the
/// horizontal for 5 s: the largest relative rotation (radians).
fn welded_swing(weld: WeldJoint) -> Real {
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let pivot = scene.add(anchor_body(Point::origin()));
    let a = scene.add(boxed(0.5, 0.1, Point::new(0.5, 0.0), 0.0));
    let b = scene.add(boxed(0.5, 0.1, Point::new(1.5, 0.0), 0.0));
    scene.join(pivot, a, Point::origin(), RevoluteJoint::default().into());
    scene.join(a, b, Point::new(1.0, 0.0), weld.into());
    let mut worst: Real = 0.0;
    for _ in 0..300 {
        scene.step();
        let relative = scene.body(b).pose().rotation * scene.body(a).pose().rotation.inverse();
        worst = worst.max(relative.angle().abs());
    }
    worst
}

#[test]
fn a_weld_holds_two_boxes_together() {
    let worst = welded_swing(WeldJoint::default());
    println!(
        "rigid weld, swinging 5 s: relative rotation at most {:.4} deg",
        worst.to_degrees()
    );
    assert!(worst < 0.5_f64.to_radians(), "{worst}");
}

#[test]
fn a_soft_weld_bends() {
    let worst = welded_swing(WeldJoint::soft((0.0, 0.0), (2.0, 0.5)));
    println!(
        "soft weld (angular 2 Hz), swinging 5 s: relative rotation up to {:.3} deg",
        worst.to_degrees()
    );
    assert!(
        worst > 5.0_f64.to_radians() && worst < 90.0_f64.to_radians(),
        "{worst}"
    );
}

#[test]
fn a_motor_joint_drives_its_body_to_the_offset_in_a_frame() {
    let mut scene = JointScene::new(Vector::zeros());
    let turned = 0.3;
    let a = scene.add(
        anchor_body(Point::new(1.0, -1.0)).pose(Isometry::new(Vector::new(1.0, -1.0), turned)),
    );
    let b = scene.add(boxed(0.5, 0.25, Point::new(-1.0, 0.5), 0.0));
    let motor = MotorJoint {
        linear_offset: Vector::new(2.0, 1.0),
        angular_offset: 0.5,
        max_force: 100.0,
        max_torque: 100.0,
        ..MotorJoint::default()
    };
    // Anchors at A's origin and at B's: B's origin is driven to A's origin plus the offset
    // turned with A; B's angle to A's plus the reference angle plus 0.5.
    let def = impact_solver::JointDef::at_world_anchors(
        &scene.bodies,
        a,
        b,
        (Point::new(1.0, -1.0), Point::new(-1.0, 0.5)),
        motor.into(),
    )
    .unwrap();
    let reference = def.reference_angle;
    let joint = scene.joints.insert(&scene.bodies, def).unwrap();
    for _ in 0..180 {
        scene.step();
        assert!(scene.joint(joint).reaction_force().norm() <= 100.0 * (1.0 + 1e-9));
    }
    let target =
        Point::new(1.0, -1.0) + impact_geometry::Rotation::new(turned) * Vector::new(2.0, 1.0);
    let error = (scene.body(b).pose().translation.vector - target.coords).norm();
    let angle_error = scene.body(b).angle() - (turned + reference + 0.5);
    println!(
        "motor joint after 3 s: position error {error:.2e} m, angle error {angle_error:.2e} rad"
    );
    assert!(
        error < 1e-3 && angle_error.abs() < 1e-3,
        "{error} {angle_error}"
    );
}

/// A 1 kg box under gravity pulled toward (0, 2) by a mouse joint of `max_force` on a free
/// body A, for 3 s: the box's distance to the target, the largest reaction force (its
/// length) and the last, and whether A stayed at rest.
fn mouse_pull(max_force: Real) -> (Real, Real, Real, bool) {
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    // A: a dynamic box far away, falling freely; it must fall exactly as without the joint.
    let a = scene.add(boxed(0.1, 0.1, Point::new(5.0, 0.0), 0.0));
    let b = scene.add(boxed(0.5, 0.5, Point::origin(), 0.0).density(1.0));
    let target = Point::new(0.0, 2.0);
    let joint = scene.join(
        a,
        b,
        Point::origin(),
        MouseJoint::toward(target, max_force).into(),
    );
    let mut alone = JointScene::new(Vector::new(0.0, -G));
    let twin = alone.add(boxed(0.1, 0.1, Point::new(5.0, 0.0), 0.0));
    let mut largest: Real = 0.0;
    let mut a_alone = true;
    for _ in 0..180 {
        scene.step();
        alone.step();
        largest = largest.max(scene.joint(joint).reaction_force().norm());
        a_alone &= scene.body(a).pose() == alone.body(twin).pose();
    }
    let distance = (scene.center(b) - target).norm();
    (
        distance,
        largest,
        scene.joint(joint).reaction_force().norm(),
        a_alone,
    )
}

#[test]
fn a_mouse_joint_pulls_its_body_to_the_target() {
    let (distance, largest, last, a_alone) = mouse_pull(1000.0);
    // The spring of 5 Hz sags under 1 kg by g / omega^2 = 1 cm.
    println!(
        "mouse joint, 1000 N: distance after 3 s {distance:.5} m, largest force {largest:.3} N, last {last:.4} N"
    );
    assert!(distance < 0.02, "{distance}");
    assert!(largest <= 1000.0 * (1.0 + 1e-9) && a_alone);
}

#[test]
fn a_mouse_joint_never_pulls_harder_than_its_maximum() {
    // Half the box's weight: it cannot hold the box up.
    let (distance, largest, last, a_alone) = mouse_pull(5.0);
    println!(
        "mouse joint, 5 N on a 1 kg box: largest force {largest:.12} N, last {last:.12} N, distance {distance:.2} m"
    );
    assert!(largest <= 5.0 * (1.0 + 1e-9), "{largest}");
    assert!(last > 5.0 * 0.999 && distance > 2.0 && a_alone);
}
