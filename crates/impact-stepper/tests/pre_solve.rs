//! Invariant: the pre-solve hook sees each contact before it is used, with what it needs to
//! decide, and what it decides holds for that contact in that step, under every stepper.
//!
//! - A restitution it sets makes a ball that does not bounce bounce back to near its height,
//!   through the contact solver (a ball without CCD) and through the impacts of the CCD
//!   steppers (a ball with it); a friction of 0 it sets lets a box slide on at its speed.
//! - At a CCD impact it sees the impact's time, point and normal (from the body of the
//!   smaller slot), the bodies where they are at that time; for a manifold, the manifold and
//!   its deepest point.
//! - Bad values are refused with the field named, and change nothing; the world, holding its
//!   hooks, stays `Send + Sync`.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Isometry, Point, Real, Vector};
use impact_solver::BodyHandle;
use impact_stepper::{
    ContactKind, Discrete, FirstTimeOfImpact, MotionClamping, PreSolveContact, Stepper, World,
    WorldError,
};
use impact_testkit::scenes;
use std::sync::{Arc, Mutex};

type W<S> = World<RTreeBroadphase, S>;

/// The highest the ball of a drop from `height` gets after its first bounce, with or without
/// a hook that makes every contact elastic.
fn apex_after_bounce<S: Stepper + Default>(height: Real, ccd: bool, elastic: bool) -> Real {
    let mut scene = scenes::ball_drop(height, 0.0);
    scene.bodies[1].ccd = ccd;
    let (mut world, handles) = scene.build::<RTreeBroadphase, S>().unwrap();
    if elastic {
        world.set_pre_solve(|c: &mut PreSolveContact<'_>| c.set_restitution(1.0).unwrap());
    }
    let ball = handles[1];
    let (mut bounced, mut apex) = (false, Real::NEG_INFINITY);
    for _ in 0..180 {
        world.step(DT).unwrap();
        let body = world.body(ball).unwrap();
        bounced |= body.linvel().y > 0.0;
        if bounced {
            apex = apex.max(body.pose().translation.y - scenes::BALL_RADIUS);
        }
    }
    apex
}

fn bounces<S: Stepper + Default>(who: &str) {
    for ccd in [false, true] {
        let apex = apex_after_bounce::<S>(2.0, ccd, true);
        assert!(apex > 1.6, "{who}, ccd {ccd}: rebounds to {apex} of 2");
        let dead = apex_after_bounce::<S>(2.0, ccd, false);
        assert!(dead < 0.1, "{who}, ccd {ccd}: without the hook, to {dead}");
    }
}

#[test]
fn a_restitution_set_by_the_hook_bounces_the_ball() {
    bounces::<Discrete>("Discrete");
    bounces::<MotionClamping>("MotionClamping");
    bounces::<FirstTimeOfImpact>("FirstTimeOfImpact");
}

/// The speed of a box sliding at 4 units/s on the ground after a second, with or without a
/// hook that takes friction away.
fn slide<S: Stepper + Default>(frictionless: bool) -> Real {
    let scene = scenes::stack(1);
    let (mut world, handles): (W<S>, _) = scene.build().unwrap();
    world
        .set_velocity(handles[1], Vector::new(4.0, 0.0), 0.0)
        .unwrap();
    if frictionless {
        world.set_pre_solve(|c: &mut PreSolveContact<'_>| c.set_friction(0.0).unwrap());
    }
    for _ in 0..60 {
        world.step(DT).unwrap();
    }
    world.body(handles[1]).unwrap().linvel().x
}

#[test]
fn a_friction_set_by_the_hook_holds() {
    for (who, with, without) in [
        (
            "Discrete",
            slide::<Discrete>(true),
            slide::<Discrete>(false),
        ),
        (
            "MotionClamping",
            slide::<MotionClamping>(true),
            slide::<MotionClamping>(false),
        ),
        (
            "FirstTimeOfImpact",
            slide::<FirstTimeOfImpact>(true),
            slide::<FirstTimeOfImpact>(false),
        ),
    ] {
        assert!((with - 4.0).abs() < 1e-9, "{who}: slowed to {with}");
        assert!(
            without.abs() < 1e-3,
            "{who}: without the hook, still at {without}"
        );
    }
}

/// What a hook saw of one contact.
#[derive(Debug, Clone, Copy)]
struct Seen {
    kind: ContactKind,
    a: BodyHandle,
    b: BodyHandle,
    point: Point,
    normal: Vector,
    separation: Real,
    pose_b: Isometry,
    manifold_points: Option<usize>,
}

fn recorder<S: Stepper>(world: &mut W<S>) -> Arc<Mutex<Vec<Seen>>> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    world.set_pre_solve(move |c: &mut PreSolveContact<'_>| {
        let (a, b) = c.shapes();
        log.lock().unwrap().push(Seen {
            kind: c.kind(),
            a: a.body,
            b: b.body,
            point: c.point(),
            normal: c.normal(),
            separation: c.separation(),
            pose_b: c.b().pose,
            manifold_points: c.manifold().map(|m| m.points().len()),
        });
    });
    seen
}

/// A bullet against the paper (the wall is slot 0): the hook sees the impact with its time,
/// point and normal, the bullet where it meets the wall; then the resting contacts'
/// manifolds.
#[test]
fn the_hook_sees_an_impact_and_a_manifold_as_they_are() {
    let scene = scenes::bullet_through_paper(3_000.0, 0.0, scenes::Wall::Segment);
    let (mut world, handles): (W<FirstTimeOfImpact>, _) = scene.build().unwrap();
    let (wall, bullet) = (handles[0], handles[1]);
    let seen = recorder(&mut world);
    world.step(DT).unwrap();
    let event = world.events()[0];
    let impacts: Vec<Seen> = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|s| matches!(s.kind, ContactKind::Impact { .. }))
        .copied()
        .collect();
    let first = impacts[0];
    let ContactKind::Impact { time } = first.kind else {
        unreachable!()
    };
    assert_eq!((first.a, first.b), (wall, bullet));
    assert_eq!(time, event.time, "the first step starts at 0");
    assert_eq!(first.normal, event.normal());
    assert!((first.point - event.point()).norm() < 1e-12);
    assert!(first.manifold_points.is_none());
    // The bullet where it meets the wall: its centre a radius and the separation off it.
    let gap = first.separation + scenes::BULLET_RADIUS;
    assert!(
        (first.pose_b.translation.x + gap).abs() < 1e-9,
        "{:?}",
        first.pose_b
    );

    // A box resting on the ground: manifolds, their deepest point.
    let (mut world, handles): (W<Discrete>, _) = scenes::stack(1).build().unwrap();
    let seen = recorder(&mut world);
    world.step(DT).unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    let manifold = seen[0];
    assert_eq!(manifold.kind, ContactKind::Manifold);
    assert_eq!((manifold.a, manifold.b), (handles[0], handles[1]));
    assert_eq!(manifold.manifold_points, Some(2));
    assert_eq!(manifold.normal, Vector::new(0.0, 1.0));
    assert!(manifold.separation.abs() < 1e-9);
}

/// Under `MotionClamping` the hook sees the hit at the time the body would be clamped.
#[test]
fn the_hook_sees_a_clamp_at_its_time() {
    let scene = scenes::bullet_through_paper(3_000.0, 0.0, scenes::Wall::Thin);
    let (mut world, handles): (W<MotionClamping>, _) = scene.build().unwrap();
    let seen = recorder(&mut world);
    let report = world.step(DT).unwrap();
    let clamp = report.stepper.clamped[0];
    assert_eq!(clamp.body, handles[1]);
    let seen = seen.lock().unwrap();
    let ContactKind::Impact { time } = seen[0].kind else {
        panic!("{:?}", seen[0])
    };
    assert!(
        (time - clamp.fraction * DT).abs() < 1e-15,
        "{time} {clamp:?}"
    );
    assert_eq!(
        seen[0].normal,
        Vector::new(-1.0, 0.0),
        "from the wall toward the bullet"
    );
}

#[test]
fn bad_values_are_refused_with_the_field_named() {
    let (mut world, _): (W<Discrete>, _) = scenes::stack(1).build().unwrap();
    let errors = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&errors);
    world.set_pre_solve(move |c: &mut PreSolveContact<'_>| {
        let (friction, restitution) = (c.friction(), c.restitution());
        let mut log = log.lock().unwrap();
        for result in [
            c.set_friction(-1.0),
            c.set_friction(Real::NAN),
            c.set_friction(Real::INFINITY),
            c.set_restitution(1.5),
            c.set_restitution(-0.1),
            c.set_restitution(Real::NAN),
        ] {
            log.push(result.map_err(|e: WorldError| e.to_string()));
        }
        // Nothing changed.
        assert_eq!((c.friction(), c.restitution()), (friction, restitution));
        assert!(c.is_enabled());
    });
    world.step(DT).unwrap();
    let errors = errors.lock().unwrap();
    let expected = [
        "contact.friction: must be zero or positive, got -1",
        "contact.friction: must be finite, got NaN",
        "contact.friction: must be finite, got inf",
        "contact.restitution: must be in [0, 1], got 1.5",
        "contact.restitution: must be in [0, 1], got -0.1",
        "contact.restitution: must be finite, got NaN",
    ];
    assert_eq!(errors.len(), expected.len());
    for (got, want) in errors.iter().zip(expected) {
        assert_eq!(got.as_ref().unwrap_err(), want);
    }
}

#[test]
fn a_world_with_hooks_is_send_and_sync() {
    fn send_sync<T: Send + Sync>(_: &T) {}
    let (mut world, _): (W<FirstTimeOfImpact>, _) = scenes::stack(1).build().unwrap();
    world.set_pre_solve(|c: &mut PreSolveContact<'_>| c.disable());
    world.set_pair_filter(|_: &impact_stepper::PairView<'_>| true);
    send_sync(&world);
    // A world with its hooks moves to another thread and steps there.
    let handle = std::thread::spawn(move || {
        world.step(DT).unwrap();
        world
    });
    let world = handle.join().unwrap();
    assert_eq!(world.step_count(), 1);
}
