//! Distance joints: a rigid rod keeps its length within 1% while it swings; a rope is slack
//! below its maximum (no force: the body falls freely on the exact path) and taut at it;
//! a spring oscillates at its frequency (period within 2% of `1 / hertz`).

mod common;

use common::{JointScene, anchor_body, disc};
use impact_geometry::{Point, Real, Vector};
use impact_solver::DistanceJoint;

const G: Real = 10.0;

#[test]
fn a_rigid_rod_keeps_its_length() {
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let pivot = scene.add(anchor_body(Point::origin()));
    let bob = scene.add(disc(0.1, 1.0, Point::new(2.0, 0.0), Vector::zeros()));
    let def = impact_solver::JointDef::at_world_anchors(
        &scene.bodies,
        pivot,
        bob,
        (Point::origin(), Point::new(2.0, 0.0)),
        DistanceJoint::rod(2.0).into(),
    )
    .unwrap();
    scene.joints.insert(&scene.bodies, def).unwrap();
    let mut worst: Real = 0.0;
    for _ in 0..600 {
        scene.step();
        worst = worst.max((scene.center(bob).coords.norm() / 2.0 - 1.0).abs());
    }
    println!(
        "rigid rod of 2 m swinging from the horizontal for 10 s: worst length error {:.4}%",
        worst * 100.0
    );
    assert!(worst < 0.01, "{worst}");
}

#[test]
fn a_rope_is_slack_below_its_maximum_and_taut_at_it() {
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let pivot = scene.add(anchor_body(Point::origin()));
    let start = Point::new(0.0, -1.0);
    let bob = scene.add(disc(0.1, 1.0, start, Vector::zeros()));
    let def = impact_solver::JointDef::at_world_anchors(
        &scene.bodies,
        pivot,
        bob,
        (Point::origin(), start),
        DistanceJoint::rope(2.0).into(),
    )
    .unwrap();
    let rope = scene.joints.insert(&scene.bodies, def).unwrap();
    // A free body: the same disc, no joint, falling beside it.
    let mut free = JointScene::new(Vector::new(0.0, -G));
    let twin = free.add(disc(0.1, 1.0, start, Vector::zeros()));
    let mut slack_steps = 0;
    loop {
        scene.step();
        free.step();
        if scene.center(bob).coords.norm() > 1.9 {
            break;
        }
        slack_steps += 1;
        assert_eq!(scene.joint(rope).reaction_force(), Vector::zeros());
        assert_eq!(
            scene.center(bob),
            free.center(twin),
            "the slack rope changed the fall"
        );
    }
    println!("rope of 2 m: slack for {slack_steps} steps, no force, the free fall bit for bit");
    assert!(slack_steps > 20);
    let mut longest: Real = 0.0;
    for _ in 0..180 {
        scene.step();
        longest = longest.max(scene.center(bob).coords.norm());
    }
    let m = scene.body(bob).mass();
    let force = scene.joint(rope).reaction_force();
    let length = scene.center(bob).coords.norm();
    println!(
        "rope taut: longest {longest:.5} m, after 3 s {length:.5} m, force {:.5} (m g {:.5})",
        force.y,
        m * G
    );
    assert!(
        longest < 2.0 * 1.01 && (length / 2.0 - 1.0).abs() < 0.01,
        "{longest} {length}"
    );
    assert!((force.y / (m * G) - 1.0).abs() < 0.01 && force.x.abs() < 1e-9 * m * G);
}

#[test]
fn a_spring_oscillates_at_its_frequency() {
    let hertz = 2.0;
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let pivot = scene.add(anchor_body(Point::origin()));
    // A heavy body: 100 kg on a spring that holds it at 1 m.
    let start = Point::new(0.0, -1.2);
    let body = scene.add(disc(
        0.2,
        100.0 / (core::f64::consts::PI * 0.04),
        start,
        Vector::zeros(),
    ));
    let def = impact_solver::JointDef::at_world_anchors(
        &scene.bodies,
        pivot,
        body,
        (Point::origin(), start),
        DistanceJoint::spring(1.0, hertz, 0.0).into(),
    )
    .unwrap();
    scene.joints.insert(&scene.bodies, def).unwrap();
    // The body oscillates about the length where the spring holds its weight.
    let omega = 2.0 * core::f64::consts::PI * hertz;
    let rest = 1.0 + G / (omega * omega);
    let mut crossings = Vec::new();
    let mut last = scene.center(body).coords.norm() - rest;
    let mut t = 0.0;
    while crossings.len() < 11 && t < 10.0 {
        scene.step();
        t += scene.dt;
        let x = scene.center(body).coords.norm() - rest;
        if last < 0.0 && x >= 0.0 {
            crossings.push(t - scene.dt * x / (x - last));
        }
        last = x;
    }
    assert_eq!(crossings.len(), 11);
    let period = (crossings[10] - crossings[0]) / 10.0;
    println!(
        "spring of {hertz} Hz holding 100 kg: period {period:.5} s, 1 / hertz {:.5} s, ratio {:.5}",
        1.0 / hertz,
        period * hertz
    );
    assert!((period * hertz - 1.0).abs() < 0.02, "{period}");
}
