//! Invariant: joints live in the world like bodies do, under every stepper.
//!
//! - A pendulum keeps its rod length within 1% over 10 s under `Discrete`, `MotionClamping`
//!   and `FirstTimeOfImpact`.
//! - A joint keeps its bodies' shapes from colliding unless `collide_connected` is on; the
//!   pair collides again once the joint is removed.
//! - Removing a body removes its joints; a stale handle, a body jointed to itself, a NaN
//!   anchor, an anchor of 1e200, a spring of 1e308 Hz and a joint in a periodic domain are
//!   refused with the field named, the world unchanged.
//! - A joint whose reaction exceeds its break force is removed at the end of the step with a
//!   `JointEvent::Broken` naming it and its reaction.
//! - Determinism: a swinging chain, 500 steps equal 250 + snapshot + restore + 250, bit for
//!   bit, for every stepper.

mod common;

use common::DT;
#[cfg(feature = "serde")]
use common::state_hash;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Vector};
use impact_solver::{
    BodyHandle, JointDef, JointKind, RevoluteJoint, RigidBodyDef, SolverError, WeldJoint,
};
use impact_stepper::{
    Discrete, Domain, FirstTimeOfImpact, JointEvent, MotionClamping, Stepper, World, WorldError,
    WorldSettings,
};
#[cfg(feature = "serde")]
use serde::{Serialize, de::DeserializeOwned};

type W<S> = World<RTreeBroadphase, S>;

fn world<S: Stepper + Default>() -> W<S> {
    W::<S>::new(WorldSettings::with_gravity(Vector::new(0.0, -10.0))).unwrap()
}

fn hinge(w: &W<impl Stepper>, a: BodyHandle, b: BodyHandle, at: Point) -> JointDef {
    JointDef::at_world_anchor(w.body_set(), a, b, at, RevoluteJoint::default().into()).unwrap()
}

/// A chain of `links` boxes 0.5 long hanging right from a fixed pivot at the origin.
fn chain<S: Stepper + Default>(links: usize) -> (W<S>, Vec<BodyHandle>) {
    let mut w = world::<S>();
    let pivot = w
        .create_body(RigidBodyDef::fixed(Circle::new(0.05).unwrap().into()))
        .unwrap();
    let mut handles = vec![pivot];
    for i in 0..links {
        let x = 0.25 + 0.5 * i as Real;
        let link = w
            .create_body(
                RigidBodyDef::new(ConvexPolygon::rectangle(0.25, 0.05).unwrap().into())
                    .pose(Isometry::translation(x, 0.0)),
            )
            .unwrap();
        let prev = *handles.last().unwrap();
        let def = hinge(&w, prev, link, Point::new(x - 0.25, 0.0));
        w.create_joint(def).unwrap();
        handles.push(link);
    }
    (w, handles)
}

fn pendulum_keeps_its_length<S: Stepper + Default>() -> Real {
    let mut w = world::<S>();
    let pivot = w
        .create_body(RigidBodyDef::fixed(Circle::new(0.05).unwrap().into()))
        .unwrap();
    let bob = w
        .create_body(
            RigidBodyDef::new(Circle::new(0.1).unwrap().into())
                .pose(Isometry::translation(2.0, 0.0)),
        )
        .unwrap();
    let def = hinge(&w, pivot, bob, Point::origin());
    w.create_joint(def).unwrap();
    let mut worst: Real = 0.0;
    for _ in 0..600 {
        w.step(DT).unwrap();
        let p = w.body(bob).unwrap().pose().translation.vector;
        worst = worst.max((p.norm() - 2.0).abs() / 2.0);
    }
    worst
}

#[test]
fn a_pendulum_keeps_its_length_under_every_stepper() {
    for (name, worst) in [
        ("discrete", pendulum_keeps_its_length::<Discrete>()),
        ("clamp", pendulum_keeps_its_length::<MotionClamping>()),
        ("toi", pendulum_keeps_its_length::<FirstTimeOfImpact>()),
    ] {
        println!("{name}: worst relative rod error {worst:.2e}");
        assert!(worst < 0.01, "{name}: {worst}");
    }
}

/// Two unit boxes overlapping by half, the left one fixed, jointed at their shared edge.
fn overlapping_pair(collide: bool) -> (W<Discrete>, BodyHandle, BodyHandle) {
    let mut w = W::<Discrete>::new(WorldSettings::default()).unwrap();
    let a = w
        .create_body(RigidBodyDef::fixed(
            ConvexPolygon::rectangle(0.5, 0.5).unwrap().into(),
        ))
        .unwrap();
    let b = w
        .create_body(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.5, 0.5).unwrap().into())
                .pose(Isometry::translation(0.5, 0.0)),
        )
        .unwrap();
    let def = JointDef::at_world_anchor(
        w.body_set(),
        a,
        b,
        Point::new(0.25, 0.0),
        WeldJoint::default().into(),
    )
    .unwrap()
    .collide_connected(collide);
    w.create_joint(def).unwrap();
    (w, a, b)
}

#[test]
fn a_joint_keeps_its_bodies_apart_unless_told_otherwise() {
    let (mut apart, _, b) = overlapping_pair(false);
    for _ in 0..10 {
        apart.step(DT).unwrap();
    }
    assert!(apart.touching_pairs().is_empty());
    let x = apart.body(b).unwrap().pose().translation.x;
    assert!(
        (x - 0.5).abs() < 1e-6,
        "the weld holds the box where it is: {x}"
    );

    let (mut together, _, b) = overlapping_pair(true);
    for _ in 0..10 {
        together.step(DT).unwrap();
    }
    assert_eq!(together.touching_pairs().len(), 1);
    let _ = b;

    // Without the joint the pair collides again.
    let joint = apart.joints().iter().next().unwrap().0;
    apart.remove_joint(joint).unwrap();
    apart.step(DT).unwrap();
    assert_eq!(apart.touching_pairs().len(), 1);
    assert!(matches!(
        apart.remove_joint(joint),
        Err(WorldError::Solver(SolverError::UnknownJoint { .. }))
    ));
}

#[test]
fn removing_a_body_removes_its_joints() {
    let (mut w, links) = chain::<Discrete>(3);
    assert_eq!(w.joints().len(), 3);
    w.remove_body(links[2]).unwrap();
    assert_eq!(
        w.joints().len(),
        1,
        "the joints on both sides of link 2 went with it"
    );
    w.step(DT).unwrap();
}

#[test]
fn bad_joints_are_refused_with_their_field_and_change_nothing() {
    let (mut w, links) = chain::<Discrete>(2);
    let before = w.joints().clone();
    let same = JointDef::new(links[1], links[1], RevoluteJoint::default().into());
    let e = w.create_joint(same).unwrap_err();
    assert!(e.to_string().starts_with("joint:"), "{e}");
    let nan = JointDef::new(links[0], links[1], RevoluteJoint::default().into())
        .local_anchors(Point::new(Real::NAN, 0.0), Point::origin());
    let e = w.create_joint(nan).unwrap_err();
    assert!(e.to_string().starts_with("joint.local_anchor_a.x"), "{e}");
    let inverted = JointDef::new(
        links[0],
        links[1],
        RevoluteJoint::default().limits(1.0, -1.0).into(),
    );
    let e = w.create_joint(inverted).unwrap_err();
    assert!(
        e.to_string().starts_with("joint.revolute.angle.lower"),
        "{e}"
    );
    // Finite but past `MAX_JOINT_MAGNITUDE`: refused here, where the first step failed
    // naming a body once the rows had overflowed.
    let far = JointDef::new(links[0], links[1], RevoluteJoint::default().into())
        .local_anchors(Point::new(1e200, 0.0), Point::origin());
    let e = w.create_joint(far).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("joint.local_anchor_a.x: must be at most 1e12"),
        "{e}"
    );
    let stiff = JointDef::new(
        links[0],
        links[1],
        RevoluteJoint::default().spring(1e308, 1.0).into(),
    );
    let e = w.create_joint(stiff).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("joint.revolute.spring_hertz: must be at most 1e12"),
        "{e}"
    );
    let removed = w
        .create_body(RigidBodyDef::new(Circle::new(0.1).unwrap().into()))
        .unwrap();
    w.remove_body(removed).unwrap();
    let stale = JointDef::new(links[0], removed, RevoluteJoint::default().into());
    let e = w.create_joint(stale).unwrap_err();
    assert!(e.to_string().starts_with("joint.body_b"), "{e}");
    assert_eq!(w.joints(), &before);

    let mut periodic = W::<Discrete>::new(WorldSettings {
        domain: Domain::periodic_square(20.0).unwrap(),
        ..WorldSettings::default()
    })
    .unwrap();
    let a = periodic
        .create_body(RigidBodyDef::new(Circle::new(0.1).unwrap().into()))
        .unwrap();
    let b = periodic
        .create_body(
            RigidBodyDef::new(Circle::new(0.1).unwrap().into())
                .pose(Isometry::translation(1.0, 0.0)),
        )
        .unwrap();
    let e = periodic
        .create_joint(JointDef::new(a, b, RevoluteJoint::default().into()))
        .unwrap_err();
    assert!(e.to_string().starts_with("joint:"), "{e}");
    assert!(periodic.joints().is_empty());
}

#[test]
fn a_joint_breaks_past_its_threshold_and_says_so() {
    let mut w = world::<Discrete>();
    let pivot = w
        .create_body(RigidBodyDef::fixed(Circle::new(0.05).unwrap().into()))
        .unwrap();
    let weight = w
        .create_body(
            RigidBodyDef::new(Circle::new(0.5).unwrap().into())
                .pose(Isometry::translation(0.0, -1.0)),
        )
        .unwrap();
    let mass = w.body(weight).unwrap().mass();
    let holds =
        hinge(&w, pivot, weight, Point::origin()).break_at(2.0 * mass * 10.0, Real::INFINITY);
    let joint = w.create_joint(holds).unwrap();
    for _ in 0..60 {
        w.step(DT).unwrap();
        assert!(w.joint_events().is_empty());
    }
    let force = w.joint(joint).unwrap().reaction_force();
    assert!(
        (force.y - mass * 10.0).abs() < 1e-6 * mass * 10.0,
        "{force}"
    );
    // Half the weight is too much: it breaks at the next step's end.
    w.joint_mut(joint).unwrap().set_enabled(true);
    let weak =
        hinge(&w, pivot, weight, Point::origin()).break_at(0.5 * mass * 10.0, Real::INFINITY);
    w.remove_joint(joint).unwrap();
    let weak = w.create_joint(weak).unwrap();
    w.step(DT).unwrap();
    match w.joint_events() {
        [JointEvent::Broken { joint, force, .. }] => {
            assert_eq!(*joint, weak);
            assert!(force.norm() > 0.5 * mass * 10.0);
        }
        other => panic!("{other:?}"),
    }
    assert!(w.joint(weak).is_none());
    let y = w.body(weight).unwrap().pose().translation.y;
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    assert!(
        w.body(weight).unwrap().pose().translation.y < y - 1.0,
        "it falls free"
    );
}

#[cfg(feature = "serde")]
fn chain_continues_bit_for_bit<S>()
where
    S: Stepper + Default + Serialize + DeserializeOwned,
{
    let (mut straight, _) = chain::<S>(10);
    let (mut first, _) = chain::<S>(10);
    for _ in 0..250 {
        straight.step(DT).unwrap();
        first.step(DT).unwrap();
    }
    let json = serde_json::to_string(&first).unwrap();
    drop(first);
    let mut restored: W<S> = serde_json::from_str(&json).unwrap();
    assert_eq!(restored.joints(), straight.joints());
    for _ in 0..250 {
        straight.step(DT).unwrap();
        restored.step(DT).unwrap();
    }
    assert_eq!(state_hash(&restored), state_hash(&straight));
    assert_eq!(restored.joints(), straight.joints());
}

#[cfg(feature = "serde")]
#[test]
fn a_swinging_chain_continues_bit_for_bit_from_a_snapshot() {
    chain_continues_bit_for_bit::<Discrete>();
    chain_continues_bit_for_bit::<MotionClamping>();
    chain_continues_bit_for_bit::<FirstTimeOfImpact>();
}

#[test]
fn a_motor_can_be_changed_between_steps() {
    let (mut w, _) = chain::<Discrete>(1);
    let joint = w.joints().iter().next().unwrap().0;
    w.joint_mut(joint)
        .unwrap()
        .modify(|k| {
            if let JointKind::Revolute(r) = k {
                *r = r.clone().motor(2.0, 1000.0);
            }
        })
        .unwrap();
    let bad = w.joint_mut(joint).unwrap().modify(|k| {
        if let JointKind::Revolute(r) = k {
            r.max_motor_torque = -1.0;
        }
    });
    assert!(
        bad.unwrap_err()
            .to_string()
            .starts_with("joint.revolute.max_motor_torque")
    );
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    let link = w.joint(joint).unwrap().body_b();
    let spin = w.body(link).unwrap().angvel();
    assert!((spin - 2.0).abs() < 0.02, "{spin}");
}

/// Two small boxes on a wheel joint thrown spinning at a zero-thickness segment: a CCD
/// stepper stops one at the segment while the other goes on, pulling the joint open by
/// units, and the rows' lever on A (the separation) then turns within the step. With the
/// effective masses of the step's start the rows overshot and the pair reached 1e40 units/s,
/// then NaN, within 3 to 7 steps; with the masses where the bodies are, it stays finite and
/// gains no speed, under every stepper, over seeded throws.
fn wheel_pair_at_a_wall<S: Stepper + Default>(speed: Real, dir: Real, spin: Real, angle: Real) {
    let mut w: W<S> = World::new(WorldSettings::with_gravity(Vector::zeros())).unwrap();
    let wall = impact_geometry::Segment::new(Point::new(0.0, -100.0), Point::new(0.0, 100.0));
    w.create_body(RigidBodyDef::fixed(wall.unwrap().into()))
        .unwrap();
    let turn = impact_geometry::Rotation::new(angle);
    let start = Vector::new(-1.0 - speed / 60.0, 0.0);
    let v = Vector::new(dir.cos(), dir.sin()) * speed;
    let bodies: Vec<BodyHandle> = (0..2)
        .map(|i| {
            let r = turn * Vector::new(0.2 * Real::from(i), 0.0);
            let mut def = RigidBodyDef::new(ConvexPolygon::rectangle(0.1, 0.02).unwrap().into())
                .pose(Isometry::new(start + r, angle))
                .ccd(true);
            def.linvel = v + Vector::new(-spin * r.y, spin * r.x);
            def.angvel = spin;
            w.create_body(def).unwrap()
        })
        .collect();
    let anchor = Point::from(start + turn * Vector::new(0.1, 0.0));
    let kind = JointKind::from(impact_solver::WheelJoint::default());
    let def = JointDef::at_world_anchor(w.body_set(), bodies[0], bodies[1], anchor, kind);
    w.create_joint(def.unwrap()).unwrap();
    let fastest_start = speed + spin.abs() * 0.3;
    for step in 0..60 {
        w.step(DT)
            .unwrap_or_else(|e| panic!("{speed} {dir} {spin} {angle}: step {step}: {e}"));
        for &h in &bodies {
            let s = w.body(h).unwrap().linvel().norm();
            assert!(
                s <= 1.5 * fastest_start,
                "{speed} {dir} {spin} {angle}: step {step}: {s} units/s"
            );
        }
    }
}

#[test]
fn a_wheel_pair_pulled_open_at_a_wall_stays_finite_and_gains_no_speed() {
    let mut rng = impact_testkit::SplitMix64::new(12);
    let mut cases = vec![(100.0, 0.0, 10.0, 0.0), (442.585, -0.354, -45.65, -2.034)];
    for _ in 0..10 {
        cases.push((
            rng.range(50.0, 2500.0),
            rng.range(-0.5, 0.5),
            rng.range(-60.0, 60.0),
            rng.range(-3.1, 3.1),
        ));
    }
    for (speed, dir, spin, angle) in cases {
        wheel_pair_at_a_wall::<Discrete>(speed, dir, spin, angle);
        wheel_pair_at_a_wall::<MotionClamping>(speed, dir, spin, angle);
        wheel_pair_at_a_wall::<FirstTimeOfImpact>(speed, dir, spin, angle);
    }
}
