//! Invariant: a fast spinning body landing on the top of a post is not held there by the
//! event loop. `FirstTimeOfImpact` resolves its impacts with the velocities they have at
//! their instants and moves on: the pair is handed to the contact solver as a Zeno sequence
//! at most once a step (once in all, in the scene below, where it loses under 1% of the
//! time), and the body leaves the post top or falls past it (the oracle is the motion
//! itself: a body that moves less than a millimetre a step for ten steps, above the post
//! top, is held there), but for one known case in 300 seeded landings (see the last test).
//!
//! The scene: a 4 x 0.1 plank at (0.35, 8) falling at 100 units/s and spinning at 50 rad/s
//! onto a static 0.2 x 2 post, no ground. An event loop that holds it sits it on the post top
//! with 8 impacts a step and a Zeno handover every step, frozen while its velocities say 13
//! units/s and 25 rad/s, and loses 0.9 s of 1 s.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{ConvexPolygon, Isometry, Real, Vector};
use impact_solver::RigidBodyDef;
use impact_stepper::{EventKind, FirstTimeOfImpact, World, WorldSettings};

/// What a run of a plank onto a post showed.
#[derive(Debug)]
struct Landing {
    zeno_handovers: usize,
    /// The most Zeno handovers in one step.
    zeno_in_a_step: usize,
    time_lost: Real,
    /// The most steps in a row the plank stayed within a millimetre, its centre above the
    /// post top.
    held: usize,
    events: usize,
}

fn land(x: Real, speed: Real, spin: Real, angle: Real) -> Landing {
    let mut world: World<RTreeBroadphase, FirstTimeOfImpact> =
        World::new(WorldSettings::default()).unwrap();
    world
        .create_body(RigidBodyDef::fixed(
            ConvexPolygon::rectangle(0.1, 1.0).unwrap().into(),
        ))
        .unwrap();
    let plank = world
        .create_body(
            RigidBodyDef::new(ConvexPolygon::rectangle(2.0, 0.05).unwrap().into())
                .pose(Isometry::new(Vector::new(x, 8.0), angle))
                .linvel(Vector::new(0.0, -speed))
                .angvel(spin)
                .ccd(true),
        )
        .unwrap();
    let mut out = Landing {
        zeno_handovers: 0,
        zeno_in_a_step: 0,
        time_lost: 0.0,
        held: 0,
        events: 0,
    };
    let (mut before, mut still) = (world.body(plank).unwrap().pose().translation.vector, 0);
    for _ in 0..60 {
        let report = world.step(DT).unwrap();
        out.time_lost += report.stepper.time_lost;
        out.events += world.events().len();
        let zeno = world
            .events()
            .iter()
            .filter(|e| e.kind == EventKind::ZenoHandover)
            .count();
        out.zeno_handovers += zeno;
        out.zeno_in_a_step = out.zeno_in_a_step.max(zeno);
        let now = world.body(plank).unwrap().pose().translation.vector;
        still = if (now - before).norm() < 1e-3 && now.y > 1.0 {
            still + 1
        } else {
            0
        };
        out.held = out.held.max(still);
        before = now;
    }
    out
}

#[test]
fn a_spinning_plank_leaves_the_post_it_lands_on() {
    let landing = land(0.35, 100.0, 50.0, 0.0);
    assert!(landing.events >= 1, "{landing:?}");
    assert!(landing.zeno_handovers <= 1, "{landing:?}");
    assert!(landing.time_lost < 0.01, "{landing:?}");
    assert_eq!(landing.held, 0, "{landing:?}");
}

/// Over 300 seeded landings (offset, speed up to 200 units/s, spin up to 80 rad/s either
/// way, any tilt), the pair is handed to the solver at most once a step and no plank is held
/// on the post top, but one: a plank that lands spinning with its face across a corner of the
/// post top and pivots on it, which conservative advancement from a touching start finds a
/// tolerance closer at each re-plan (a grazing contact resolved as impacts that take nothing,
/// until the Zeno rule stops it, step after step). That one is a known limit (see
/// `docs/algorithms/steppers.md`); the bound keeps it from spreading. Not the time lost: a
/// plank that falls past the post and swings into its bottom corner grinds along it in runs
/// of small impacts, which the Zeno rule ends with stops (up to a sixth of the second).
#[test]
fn spinning_planks_are_not_held_on_a_post_top() {
    let mut rng = common::Rng(7);
    let mut held = Vec::new();
    for _ in 0..300 {
        let (x, speed) = (rng.range(-1.5, 1.5), rng.range(10.0, 200.0));
        let (spin, angle) = (rng.range(-80.0, 80.0), rng.range(-1.5, 1.5));
        let landing = land(x, speed, spin, angle);
        assert!(landing.zeno_in_a_step <= 1, "{landing:?}");
        if landing.held >= 10 {
            held.push((x, speed, spin, angle));
        }
    }
    assert!(held.len() <= 1, "held: {held:?}");
}
