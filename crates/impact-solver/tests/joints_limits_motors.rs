//! Limits hold against a motor pushing into them at 10 times the static load (revolute:
//! within 0.5 degree; prismatic: within 0.5% of the range), and motors whose torque or
//! force allows reach their target speed within 1% in less than 0.5 s and stay there
//! (revolute, prismatic, wheel).

mod common;

use common::{JointScene, anchor_body, boxed, disc};
use impact_geometry::{Point, Real, Vector};
use impact_solver::{JointDef, PrismaticJoint, RevoluteJoint, WheelJoint};

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

#[test]
fn a_motor_switched_off_or_a_spring_of_0_hz_exerts_nothing() {
    use impact_solver::JointKind;
    // A disc with angular damping: the motor pushes all the time to keep it at 5 rad/s.
    let spun = || disc(0.5, 1.0, Point::origin(), Vector::zeros()).damping(0.0, 2.0);
    let mut scene = JointScene::new(Vector::zeros());
    let pivot = scene.add(anchor_body(Point::origin()));
    let wheel = scene.add(spun());
    let torque = 20.0 * scene.body(wheel).inertia();
    let motor = RevoluteJoint::default().motor(5.0, torque);
    let hinge = scene.join(pivot, wheel, Point::origin(), motor.into());
    for _ in 0..60 {
        scene.step();
    }
    assert!(scene.joint(hinge).impulses().motor > 0.0);
    // Off: the motor's accumulated impulse must not keep pushing through the warm start;
    // the disc slows down as a free one does.
    let joint = scene.joints.get_mut(hinge).unwrap();
    joint
        .modify(|kind| {
            if let JointKind::Revolute(r) = kind {
                r.enable_motor = false;
            }
        })
        .unwrap();
    let mut free = JointScene::new(Vector::zeros());
    let twin = free.add(spun().angvel(scene.body(wheel).angvel()));
    for _ in 0..60 {
        scene.step();
        free.step();
    }
    let (w, w_free) = (scene.body(wheel).angvel(), free.body(twin).angvel());
    println!("motor switched off: {w:.12} rad/s a second later, a free disc {w_free:.12}");
    assert!((w - w_free).abs() < 1e-12 && w < 1.0);
    assert_eq!(scene.joint(hinge).impulses().motor, 0.0);
    // A spring of 0 Hz: no force at all, not a rigid row on the relative angle.
    let zero_hz = RevoluteJoint::default().spring(0.0, 1.0);
    let joint = scene.joints.get_mut(hinge).unwrap();
    joint.set_kind(zero_hz.into()).unwrap();
    for _ in 0..60 {
        scene.step();
        free.step();
    }
    let (w, w_free) = (scene.body(wheel).angvel(), free.body(twin).angvel());
    assert!((w - w_free).abs() < 1e-12, "{w} {w_free}");
    // The same for a slider: with a 0 Hz spring it coasts.
    let mut scene = JointScene::new(Vector::zeros());
    let ground = scene.add(anchor_body(Point::origin()));
    let slider = scene.add(boxed(0.2, 0.2, Point::origin(), 0.0).linvel(Vector::new(1.0, 0.0)));
    let joint = PrismaticJoint::along(Vector::x()).spring(0.0, 0.5);
    scene.join(ground, slider, Point::origin(), joint.into());
    for _ in 0..60 {
        scene.step();
    }
    assert!((scene.body(slider).linvel() - Vector::new(1.0, 0.0)).norm() < 1e-12);
}

/// The period of `position` (relative to its mean at rest, `rest`) over 10 oscillations.
fn period(scene: &mut JointScene, rest: Real, position: impl Fn(&JointScene) -> Real) -> Real {
    let mut crossings = Vec::new();
    let mut last = position(scene) - rest;
    let mut t = 0.0;
    while crossings.len() < 11 && t < 20.0 {
        scene.step();
        t += scene.dt;
        let x = position(scene) - rest;
        if last < 0.0 && x >= 0.0 {
            crossings.push(t - scene.dt * x / (x - last));
        }
        last = x;
    }
    assert_eq!(crossings.len(), 11);
    (crossings[10] - crossings[0]) / 10.0
}

#[test]
fn prismatic_and_wheel_springs_oscillate_at_their_frequency_and_the_wheel_travel_is_limited() {
    let hertz = 1.5;
    let omega = 2.0 * core::f64::consts::PI * hertz;
    let sag = G / (omega * omega);
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let ground = scene.add(anchor_body(Point::origin()));
    let slider = scene.add(boxed(0.2, 0.2, Point::new(0.0, 0.3), 0.0));
    // Anchored at the origin on the ground and at the slider's centre, 0.3 above it: the
    // spring pulls the translation toward 0, and the slider oscillates about -sag.
    let anchors = (Point::origin(), Point::new(0.0, 0.3));
    let joint = PrismaticJoint::along(Vector::y()).spring(hertz, 0.0);
    let def = JointDef::at_world_anchors(&scene.bodies, ground, slider, anchors, joint.into());
    scene.joints.insert(&scene.bodies, def.unwrap()).unwrap();
    let slider_period = period(&mut scene, -sag, |s| s.center(slider).y);
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let chassis = scene.add(anchor_body(Point::origin()));
    let wheel = scene.add(disc(0.3, 1.0, Point::new(0.0, -0.7), Vector::zeros()));
    let anchors = (Point::new(0.0, -1.0), Point::new(0.0, -0.7));
    let joint = WheelJoint::along(Vector::y()).spring(hertz, 0.0);
    let def = JointDef::at_world_anchors(&scene.bodies, chassis, wheel, anchors, joint.into());
    scene.joints.insert(&scene.bodies, def.unwrap()).unwrap();
    let wheel_period = period(&mut scene, -1.0 - sag, |s| s.center(wheel).y);
    println!(
        "springs of {hertz} Hz: prismatic period {slider_period:.5} s, wheel {wheel_period:.5} s, 1 / hertz {:.5} s",
        1.0 / hertz
    );
    assert!(
        (slider_period * hertz - 1.0).abs() < 0.02 && (wheel_period * hertz - 1.0).abs() < 0.02
    );

    // A soft suspension (0.5 Hz: a metre of sag) on limits [-0.2, 0.2]: the wheel rests on
    // the lower limit.
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let chassis = scene.add(anchor_body(Point::origin()));
    let wheel = scene.add(disc(0.3, 1.0, Point::new(0.0, -1.0), Vector::zeros()));
    let joint = WheelJoint::along(Vector::y())
        .spring(0.5, 0.7)
        .limits(-0.2, 0.2);
    scene.join(chassis, wheel, Point::new(0.0, -1.0), joint.into());
    let mut lowest = Real::INFINITY;
    for _ in 0..180 {
        scene.step();
        lowest = lowest.min(scene.center(wheel).y + 1.0);
    }
    println!("wheel on limits [-0.2, 0.2] sagging 1 m: lowest translation {lowest:.5}");
    assert!(lowest > -0.2 - 0.005 * 0.4, "{lowest}");
}

/// The bar of [`revolute_against_limit`] hinged at `reference` (its start angle and the
/// joint's reference angle) plus `turns` whole turns: its angle, wrapped into `(-pi, pi]`,
/// after each of 120 steps.
fn hinged_at_reference(reference: Real, turns: i32) -> Vec<Real> {
    use core::f64::consts::{PI, TAU};
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let pivot = scene.add(anchor_body(Point::origin()));
    let (s, c) = reference.sin_cos();
    let bar = scene.add(boxed(1.0, 0.05, Point::new(c, s), reference));
    let load = scene.body(bar).mass() * G * 1.0;
    let hinge = RevoluteJoint::default()
        .limits(-0.3, 0.3)
        .motor(10.0, 10.0 * load);
    let mut def =
        JointDef::at_world_anchor(&scene.bodies, pivot, bar, Point::origin(), hinge.into())
            .expect("a valid joint");
    def.reference_angle = reference + Real::from(turns) * TAU;
    scene
        .joints
        .insert(&scene.bodies, def)
        .expect("a valid joint");
    (0..120)
        .map(|_| {
            scene.step();
            let angle = scene.body(bar).angle();
            (angle + PI).rem_euclid(TAU) - PI
        })
        .collect()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]

    /// A reference angle whole turns away is the same joint: the limit sits at the same
    /// place, however many turns (a reference past a half turn was read a turn off, the
    /// limit then acting from the first step).
    #[test]
    fn a_reference_angle_whole_turns_away_is_the_same_joint(
        reference in -3.1..3.1,
        turns in proptest::prop_oneof![-40..-1, 1..40],
    ) {
        let near = hinged_at_reference(reference, 0);
        let far = hinged_at_reference(reference, turns);
        for (step, (a, b)) in near.iter().zip(&far).enumerate() {
            proptest::prop_assert!((a - b).abs() < 1e-9, "step {step}: {a} against {b}");
        }
        // And the limit holds about the reference.
        let last = near[near.len() - 1];
        let over = (last - reference + core::f64::consts::PI)
            .rem_euclid(core::f64::consts::TAU)
            - core::f64::consts::PI;
        proptest::prop_assert!((over - 0.3).abs() < 0.5_f64.to_radians(), "{over}");
    }
}

/// A motor of no torque bound (`Real::MAX`, and Box2D's `FLT_MAX` as its spinner scene gives
/// it) drives a heavy bar turning under gravity at its speed within 0.1% from the fifth step
/// on, with every number finite.
#[test]
fn a_motor_without_a_torque_bound_holds_its_speed() {
    for max in [Real::MAX, Real::from(f32::MAX)] {
        let mut scene = JointScene::new(Vector::new(0.0, -G));
        let pivot = scene.add(anchor_body(Point::origin()));
        let bar = scene.add(boxed(1.0, 0.05, Point::new(1.0, 0.0), 0.0).density(1000.0));
        scene.join(
            pivot,
            bar,
            Point::origin(),
            RevoluteJoint::default().motor(5.0, max).into(),
        );
        for step in 0..60 {
            scene.step();
            let w = scene.body(bar).angvel();
            // The first steps carry the start's jolt through the soft point row.
            assert!(
                step < 5 || (w - 5.0).abs() < 5e-3,
                "max {max:e}, step {step}: {w} rad/s"
            );
            assert!(w.is_finite() && scene.center(bar).coords.norm() < 1.01);
        }
    }
}
