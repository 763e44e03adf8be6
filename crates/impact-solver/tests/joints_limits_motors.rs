//! Limits hold against a motor pushing into them at 10 times the static load (revolute:
//! within 0.5 degree; prismatic: within 0.5% of the range), and motors whose torque or
//! force allows reach their target speed within 1% in less than 0.5 s and stay there
//! (revolute, prismatic, wheel).

mod common;

use common::{JointScene, anchor_body, boxed, disc};
use impact_geometry::{Point, Real, Vector};
use impact_solver::{PrismaticJoint, RevoluteJoint, WheelJoint};

const G: Real = 10.0;

/// The joint angle of a bar (2 m long, hinged at its left end) under gravity, over 3 s with
/// a motor of speed `speed` and 10 times the bar's static load torque, with limits
/// `[-0.3, 0.3]`: the lowest and highest angle over the last 2 s.
fn revolute_against_limit(speed: Real) -> (Real, Real) {
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let pivot = scene.add(anchor_body(Point::origin()));
    let bar = scene.add(boxed(1.0, 0.05, Point::new(1.0, 0.0), 0.0));
    let load = scene.body(bar).mass() * G * 1.0;
    let hinge = RevoluteJoint::default()
        .limits(-0.3, 0.3)
        .motor(speed, 10.0 * load);
    scene.join(pivot, bar, Point::origin(), hinge.into());
    let (mut low, mut high) = (Real::INFINITY, Real::NEG_INFINITY);
    for step in 0..180 {
        scene.step();
        if step >= 60 {
            let angle = scene.body(bar).angle();
            (low, high) = (low.min(angle), high.max(angle));
        }
    }
    (low, high)
}

#[test]
fn a_revolute_limit_holds_against_its_motor() {
    let tolerance = 0.5_f64.to_radians();
    let (low, high) = revolute_against_limit(10.0);
    println!(
        "revolute, motor up at 10x the load: angle in [{:.4}, {:.4}] deg, limit 17.1887 deg",
        low.to_degrees(),
        high.to_degrees()
    );
    assert!(
        high < 0.3 + tolerance && low > 0.3 - tolerance,
        "{low} {high}"
    );
    let (low, high) = revolute_against_limit(-10.0);
    println!(
        "revolute, motor down at 10x the load (and gravity): angle in [{:.4}, {:.4}] deg, limit -17.1887 deg",
        low.to_degrees(),
        high.to_degrees()
    );
    assert!(
        low > -0.3 - tolerance && high < -0.3 + tolerance,
        "{low} {high}"
    );
}

/// The translation of a box on a vertical slider (limits `[-1, 1]`) under gravity, over 3 s
/// with a motor of speed `speed` and 10 times the box's weight: the lowest and highest over
/// the last 2 s.
fn prismatic_against_limit(speed: Real) -> (Real, Real) {
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let ground = scene.add(anchor_body(Point::origin()));
    let slider = scene.add(boxed(0.2, 0.2, Point::origin(), 0.0));
    let weight = scene.body(slider).mass() * G;
    let joint = PrismaticJoint::along(Vector::y())
        .limits(-1.0, 1.0)
        .motor(speed, 10.0 * weight);
    scene.join(ground, slider, Point::origin(), joint.into());
    let (mut low, mut high) = (Real::INFINITY, Real::NEG_INFINITY);
    for step in 0..180 {
        scene.step();
        if step >= 60 {
            let y = scene.center(slider).y;
            (low, high) = (low.min(y), high.max(y));
        }
    }
    (low, high)
}

#[test]
fn a_prismatic_limit_holds_against_its_motor() {
    let tolerance = 0.005 * 2.0;
    let (low, high) = prismatic_against_limit(5.0);
    println!(
        "prismatic, motor up at 10x the weight: translation in [{low:.5}, {high:.5}], limit 1"
    );
    assert!(
        high < 1.0 + tolerance && low > 1.0 - tolerance,
        "{low} {high}"
    );
    let (low, high) = prismatic_against_limit(-5.0);
    println!(
        "prismatic, motor down at 10x the weight (and gravity): translation in [{low:.5}, {high:.5}], limit -1"
    );
    assert!(
        low > -1.0 - tolerance && high < -1.0 + tolerance,
        "{low} {high}"
    );
}

/// The worst relative error of `speed(scene)` against `target` from 0.5 s to 1.5 s.
fn worst_after_half_a_second(
    scene: &mut JointScene,
    target: Real,
    speed: impl Fn(&JointScene) -> Real,
) -> Real {
    let mut worst: Real = 0.0;
    for step in 0..90 {
        scene.step();
        if step >= 29 {
            worst = worst.max((speed(scene) / target - 1.0).abs());
        }
    }
    worst
}

#[test]
fn a_revolute_motor_reaches_its_speed() {
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let pivot = scene.add(anchor_body(Point::origin()));
    let wheel = scene.add(disc(0.5, 1.0, Point::origin(), Vector::zeros()));
    // Enough torque for 20 rad/s^2: the 5 rad/s in a quarter of a second.
    let torque = 20.0 * scene.body(wheel).inertia();
    scene.join(
        pivot,
        wheel,
        Point::origin(),
        RevoluteJoint::default().motor(5.0, torque).into(),
    );
    let worst = worst_after_half_a_second(&mut scene, 5.0, |s| s.body(wheel).angvel());
    println!("revolute motor, 5 rad/s: worst relative error after 0.5 s {worst:.2e}");
    assert!(worst < 0.01, "{worst}");
}

#[test]
fn a_prismatic_motor_reaches_its_speed_against_gravity() {
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let ground = scene.add(anchor_body(Point::origin()));
    let slider = scene.add(boxed(0.2, 0.2, Point::origin(), 0.0));
    // Five times the weight: 40 m/s^2 net, the 2 m/s in 0.05 s.
    let force = 5.0 * scene.body(slider).mass() * G;
    let joint = PrismaticJoint::along(Vector::y()).motor(2.0, force);
    scene.join(ground, slider, Point::origin(), joint.into());
    let worst = worst_after_half_a_second(&mut scene, 2.0, |s| s.body(slider).linvel().y);
    println!("prismatic motor, 2 m/s up: worst relative error after 0.5 s {worst:.2e}");
    assert!(worst < 0.01, "{worst}");
}

#[test]
fn a_wheel_motor_reaches_its_speed_on_its_suspension() {
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let chassis = scene.add(anchor_body(Point::origin()));
    let wheel = scene.add(disc(0.4, 1.0, Point::new(0.0, -1.0), Vector::zeros()));
    let torque = 40.0 * scene.body(wheel).inertia();
    let joint = WheelJoint::along(Vector::y())
        .spring(4.0, 0.7)
        .motor(-8.0, torque);
    scene.join(chassis, wheel, Point::new(0.0, -1.0), joint.into());
    let worst = worst_after_half_a_second(&mut scene, -8.0, |s| s.body(wheel).angvel());
    println!("wheel motor, -8 rad/s: worst relative error after 0.5 s {worst:.2e}");
    assert!(worst < 0.01, "{worst}");
    let sag = -1.0 - scene.center(wheel).y;
    // A spring of 4 Hz on the wheel's mass sags by g / omega^2 = 1.6 cm.
    let omega = 2.0 * core::f64::consts::PI * 4.0;
    println!(
        "wheel suspension: sag {sag:.5} m, static g / omega^2 {:.5} m",
        G / (omega * omega)
    );
    assert!(sag > 0.0 && scene.center(wheel).x.abs() < 1e-9);
}
