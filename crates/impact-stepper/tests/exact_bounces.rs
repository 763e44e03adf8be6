//! Invariant: a bounce is exact under both CCD steppers, and a clamp never stops a body it
//! should not. Each test is a scene that can break it, with its right value
//! from the closed form of a body falling under gravity, or of a sequence of binary
//! collisions:
//! - an impact at fraction `s` of the step resolves the velocity the body has at `s` on its
//!   course (start velocity plus gravity up to `s`), and the rest of the step continues from
//!   the resolved velocity, so `y + v_y^2 / (2 |g|)` is kept through a bounce with
//!   restitution 1, and scaled by `e^2` (above the impact's height) with restitution `e`;
//! - a clamp changes a body's velocity only by removing the gravity of the part of the step
//!   it lost; a clamped body touching the ground and closing on it bounces at the next step,
//!   it is never left at velocity exactly zero;
//! - a pair touching at the start of a step and closing faster than the restitution
//!   threshold is an impact, not resting contact: a line of touching discs struck at one end
//!   passes the blow along as a sequence of binary collisions.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::tolerances::TOI_TARGET_SEPARATION;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Segment, Vector};
use impact_solver::{BodyHandle, RigidBodyDef};
use impact_stepper::{
    FirstTimeOfImpact, FirstTimeOfImpactSettings, MotionClamping, MotionClampingSettings, Stepper,
    World, WorldSettings,
};

type Toi = World<RTreeBroadphase, FirstTimeOfImpact>;
type Clamp = World<RTreeBroadphase, MotionClamping>;

fn toi_world(gravity: Real, threshold: Option<Real>) -> Toi {
    let mut settings = FirstTimeOfImpactSettings::default();
    if let Some(t) = threshold {
        settings.threshold_radii_per_step = t;
    }
    World::with_parts(
        WorldSettings::with_gravity(Vector::new(0.0, gravity)),
        RTreeBroadphase::default(),
        FirstTimeOfImpact::new(settings).unwrap(),
    )
    .unwrap()
}

fn clamp_world(gravity: Real, threshold: Option<Real>) -> Clamp {
    let mut settings = MotionClampingSettings::default();
    if let Some(t) = threshold {
        settings.threshold_radii_per_step = t;
    }
    World::with_parts(
        WorldSettings::with_gravity(Vector::new(0.0, gravity)),
        RTreeBroadphase::default(),
        MotionClamping::new(settings).unwrap(),
    )
    .unwrap()
}

/// A static box whose top is at y = 0, `half_width` wide each way.
fn ground(half_width: Real, half_height: Real) -> RigidBodyDef {
    RigidBodyDef::fixed(
        ConvexPolygon::rectangle(half_width, half_height)
            .unwrap()
            .into(),
    )
    .pose(Isometry::translation(0.0, -half_height))
}

fn ball(radius: Real, y: Real, restitution: Real) -> RigidBodyDef {
    RigidBodyDef::new(Circle::new(radius).unwrap().into())
        .pose(Isometry::translation(0.0, y))
        .restitution(restitution)
        .ccd(true)
}

/// `y + v_y^2 / (2 g)` of `body`: the height it reaches in free flight.
fn apex<B: impact_broadphase::Broadphase, S: Stepper>(
    world: &World<B, S>,
    body: BodyHandle,
    g: Real,
) -> Real {
    let b = world.body(body).unwrap();
    b.pose().translation.y + b.linvel().y * b.linvel().y / (2.0 * g)
}

/// The ball of radius 0.5 dropped from rest at y = 2.5 onto the ground, restitution 1,
/// gravity 9.81, velocity threshold 0: every impact meets it at the speed of a 1.995 m drop
/// (to the target separation), and the apex stays at 2.5 bounce after bounce. The step-end
/// velocity, reflected, gained 9.1% of the energy at the first bounce (`approach_speed`
/// 6.3765): after 18 bounces the apex was 4.33.
#[test]
fn a_restitution_one_ball_keeps_its_apex_under_gravity() {
    let g = 9.81;
    let expected_speed = (2.0 * g * (2.0 - TOI_TARGET_SEPARATION)).sqrt();
    for clamp in [false, true] {
        let mut toi = toi_world(-g, Some(0.0));
        let mut clamped = clamp_world(-g, Some(0.0));
        let mut events = Vec::new();
        let mut apexes = Vec::new();
        let ball_handle = if clamp {
            clamped.create_body(ground(10.0, 0.5)).unwrap();
            clamped.create_body(ball(0.5, 2.5, 1.0)).unwrap()
        } else {
            toi.create_body(ground(10.0, 0.5)).unwrap();
            toi.create_body(ball(0.5, 2.5, 1.0)).unwrap()
        };
        // About 18 bounces of 1.28 s.
        for _ in 0..1_400 {
            if clamp {
                clamped.step(DT).unwrap();
                events.extend_from_slice(clamped.events());
                apexes.push(apex(&clamped, ball_handle, g));
            } else {
                toi.step(DT).unwrap();
                events.extend_from_slice(toi.events());
                apexes.push(apex(&toi, ball_handle, g));
            }
        }
        assert!(
            events.len() >= 18,
            "clamp {clamp}: {} bounces",
            events.len()
        );
        for e in &events {
            assert!(
                (e.approach_speed() - expected_speed).abs() < 1e-9,
                "clamp {clamp}: {e:?}"
            );
        }
        for (step, a) in apexes.iter().enumerate() {
            assert!(
                (a - 2.5).abs() < 1e-9,
                "clamp {clamp}, step {step}: apex {a}"
            );
        }
    }
}

/// The same drop from 50 m with every setting at its default (velocity threshold 0.5):
/// the apexes stay at 50, where they climbed to 50.47, 51.05 and 51.52.
#[test]
fn a_ball_dropped_fifty_metres_with_default_settings_does_not_climb() {
    let g = 9.81;
    let mut world = toi_world(-g, None);
    world.create_body(ground(10.0, 0.5)).unwrap();
    let b = world.create_body(ball(0.5, 50.0, 1.0)).unwrap();
    let mut bounces = 0;
    // Three bounces of 6.4 s.
    for _ in 0..1_200 {
        world.step(DT).unwrap();
        bounces += world.events().len();
        let a = apex(&world, b, g);
        assert!((a - 50.0).abs() < 1e-9, "apex {a} after {bounces} bounces");
    }
    assert_eq!(bounces, 3);
}

/// Restitution 0.8: each rebound reaches 0.64 of the height above the impact, where the
/// step-end velocity gave +0.9%, +5.6% and +6.4% off it.
#[test]
fn a_ball_with_restitution_below_one_rebounds_to_e_squared() {
    let g = 9.81;
    let e: Real = 0.8;
    for clamp in [false, true] {
        let mut toi = toi_world(-g, Some(0.0));
        let mut clamped = clamp_world(-g, Some(0.0));
        let (mut heights, mut impact_y) = (vec![2.5], 0.5 + TOI_TARGET_SEPARATION);
        let b = if clamp {
            clamped.create_body(ground(10.0, 0.5)).unwrap();
            clamped.create_body(ball(0.5, 2.5, e)).unwrap()
        } else {
            toi.create_body(ground(10.0, 0.5)).unwrap();
            toi.create_body(ball(0.5, 2.5, e)).unwrap()
        };
        for _ in 0..600 {
            let (a, events) = if clamp {
                clamped.step(DT).unwrap();
                (apex(&clamped, b, g), clamped.events().to_vec())
            } else {
                toi.step(DT).unwrap();
                (apex(&toi, b, g), toi.events().to_vec())
            };
            if let Some(event) = events.first() {
                impact_y = event.point().y + 0.5 * TOI_TARGET_SEPARATION + 0.5;
                heights.push(a);
            }
        }
        assert!(heights.len() >= 4, "clamp {clamp}: {heights:?}");
        for pair in heights.windows(2).take(3) {
            let (before, after) = (pair[0] - impact_y, pair[1] - impact_y);
            assert!(
                (after - e * e * before).abs() < 1e-9,
                "clamp {clamp}: {after} after {before}"
            );
        }
    }
}

/// Pixel scale under `MotionClamping` with its defaults: radius 10, restitution 1, dropped
/// 300 units, gravity -1000. Clamped at the target separation above the ground, the ball
/// was stopped dead at the next step (velocity exactly zero, never to bounce: -97% energy);
/// it bounces back to 310.
#[test]
fn a_clamped_ball_at_pixel_scale_bounces_instead_of_freezing() {
    let g = 1000.0;
    let mut world = clamp_world(-g, None);
    world.create_body(ground(200.0, 10.0)).unwrap();
    let b = world.create_body(ball(10.0, 310.0, 1.0)).unwrap();
    let mut clamps = 0;
    for step in 0..120 {
        let report = world.step(DT).unwrap().stepper;
        clamps += report.clamped.len();
        let body = world.body(b).unwrap();
        assert_ne!(body.linvel(), Vector::zeros(), "step {step}");
        let a = apex(&world, b, g);
        assert!((a - 310.0).abs() < 1e-9, "step {step}: apex {a}");
    }
    assert!(clamps >= 1, "the ball was clamped at the ground");
}

/// Zero gravity, a CCD disc of radius 0.3 (friction 0.6, restitution 0.9) at y = 0.8 moving
/// at (10, -10) toward the ground under `MotionClamping`: clamped at the ground, it was then
/// held at velocity exactly (0, 0) forever. It bounces off at the velocity of one impact:
/// the normal speed times 0.9, and the friction impulse that stops the slip (within
/// Coulomb's bound) at the contact point, half the target separation below the disc, so
/// `lever = r + s / 2` and the tangential speed loses `10 / (1 + 2 lever^2 / r^2)`.
#[test]
fn a_disc_clamped_at_the_ground_leaves_it_at_the_resolvers_velocity() {
    let mut world = clamp_world(0.0, None);
    world.create_body(ground(10.0, 0.5)).unwrap();
    let b = world
        .create_body(
            RigidBodyDef::new(Circle::new(0.3).unwrap().into())
                .pose(Isometry::translation(0.0, 0.8))
                .linvel(Vector::new(10.0, -10.0))
                .friction(0.6)
                .restitution(0.9)
                .ccd(true),
        )
        .unwrap();
    for _ in 0..10 {
        world.step(DT).unwrap();
    }
    let body = world.body(b).unwrap();
    let (r, lever) = (0.3, 0.3 + 0.5 * TOI_TARGET_SEPARATION);
    let lost = 10.0 / (1.0 + 2.0 * lever * lever / (r * r));
    assert!(
        (body.linvel() - Vector::new(10.0 - lost, 9.0)).norm() < 1e-9,
        "{body:?}"
    );
    assert!((body.angvel() + 2.0 * lever * lost / (r * r)).abs() < 1e-9);
}

/// A disc touching a static segment and moving into it at 100 units/s, restitution 1, no
/// gravity: every stepper reverses it at the start of the step, without losing the step
/// (`MotionClamping` stopped it dead there, a whole step lost, then left it still).
#[test]
fn a_disc_driven_into_a_segment_it_touches_is_reversed_at_once() {
    let segment = || {
        RigidBodyDef::fixed(
            Segment::new(Point::new(-5.0, 0.0), Point::new(5.0, 0.0))
                .unwrap()
                .into(),
        )
    };
    let disc = || {
        RigidBodyDef::new(Circle::new(0.5).unwrap().into())
            .pose(Isometry::translation(0.0, 0.5))
            .linvel(Vector::new(0.0, -100.0))
            .restitution(1.0)
            .ccd(true)
    };
    let mut clamped = clamp_world(0.0, None);
    clamped.create_body(segment()).unwrap();
    let c = clamped.create_body(disc()).unwrap();
    let report = clamped.step(DT).unwrap().stepper;
    assert_eq!(report.time_lost, 0.0);
    let mut toi = toi_world(0.0, None);
    toi.create_body(segment()).unwrap();
    let t = toi.create_body(disc()).unwrap();
    let report = toi.step(DT).unwrap().stepper;
    assert_eq!(report.time_lost, 0.0);
    for body in [clamped.body(c).unwrap(), toi.body(t).unwrap()] {
        assert_eq!(body.linvel(), Vector::new(0.0, 100.0));
        assert!((body.pose().translation.y - (0.5 + 100.0 * DT)).abs() < 1e-12);
    }
}

/// Three discs of radius 0.5 touching at x = 1, 2 and 3, restitution 1, no friction, no
/// gravity, the first moving at +2, one step with every threshold at 0: the blow passes
/// along the line, `(0, 0, 2)`, as when the first starts a little apart; the contact
/// solver's restitution on all points at once gave `(-0.667, 1.333, 1.333)`.
#[test]
fn a_touching_line_struck_at_one_end_passes_the_blow_along() {
    let disc = |x: Real, v: Real| {
        RigidBodyDef::new(Circle::new(0.5).unwrap().into())
            .pose(Isometry::translation(x, 0.0))
            .linvel(Vector::new(v, 0.0))
            .restitution(1.0)
            .friction(0.0)
            .ccd(true)
    };
    let mut settings = FirstTimeOfImpactSettings {
        threshold_radii_per_step: 0.0,
        ..FirstTimeOfImpactSettings::default()
    };
    settings.impact.restitution_threshold = 0.0;
    let mut world_settings = WorldSettings::with_gravity(Vector::zeros());
    world_settings.solver.restitution_threshold = 0.0;
    let mut toi: Toi = World::with_parts(
        world_settings,
        RTreeBroadphase::default(),
        FirstTimeOfImpact::new(settings).unwrap(),
    )
    .unwrap();
    let mut clamped: Clamp = World::with_parts(
        world_settings,
        RTreeBroadphase::default(),
        MotionClamping::new(MotionClampingSettings {
            threshold_radii_per_step: 0.0,
            ..MotionClampingSettings::default()
        })
        .unwrap(),
    )
    .unwrap();
    let mut lines = [Vec::new(), Vec::new()];
    for (x, v) in [(1.0, 2.0), (2.0, 0.0), (3.0, 0.0)] {
        lines[0].push(toi.create_body(disc(x, v)).unwrap());
        lines[1].push(clamped.create_body(disc(x, v)).unwrap());
    }
    toi.step(DT).unwrap();
    clamped.step(DT).unwrap();
    let speeds = |line: &[BodyHandle], body: &dyn Fn(BodyHandle) -> Real| -> Vec<Real> {
        line.iter().map(|&h| body(h)).collect()
    };
    let from_toi = speeds(&lines[0], &|h| toi.body(h).unwrap().linvel().x);
    let from_clamp = speeds(&lines[1], &|h| clamped.body(h).unwrap().linvel().x);
    for got in [from_toi, from_clamp] {
        for (v, want) in got.iter().zip([0.0, 0.0, 2.0]) {
            assert!((v - want).abs() < 1e-12, "{got:?}");
        }
    }
}
