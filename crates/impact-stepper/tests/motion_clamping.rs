//! Invariant: under `MotionClamping` a dynamic body with `ccd` set that moves faster than
//! its threshold never passes through a static obstacle, however thin: over 10,000 seeded
//! speeds (200 to 10,000 units/s) and angles (within 57 degrees of the wall's normal), a disc
//! of radius 0.05 shot at a 1 mm box and at a zero-thickness segment at 60 Hz stays on the
//! start side for 6 steps, where `Discrete` lets most of them through. A clamped body stops
//! at the target separation from the wall, its velocities are the discrete step's bit for
//! bit, and the time it lost is reported as exactly `(1 - fraction) dt`. The flag is
//! respected (a body without it tunnels as under `Discrete`), slow bodies are not checked
//! (a ball resting on the ground with `ccd` on is never clamped), bad settings are refused
//! by name, and two identical runs are bit-identical.

mod common;

use common::{DT, samples, state_hash};
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Circle, Isometry, Real, Vector};
use impact_narrowphase::{ToiOptions, distance};
use impact_solver::RigidBodyDef;
use impact_stepper::{
    ClampReport, Discrete, MotionClamping, MotionClampingSettings, Stepper, World, WorldError,
};
use impact_testkit::scenes::{self, Wall};

/// Steps each bullet is followed for: the crossing step and five more.
const STEPS: usize = 6;

/// What one bullet run did.
struct Run {
    /// Whether the bullet's centre was past the wall (x > 0) after any step.
    tunnelled: bool,
    /// The report of every step.
    reports: Vec<ClampReport>,
    /// The state hash after the last step.
    hash: u64,
    /// The bullet's pose after the first step.
    first_pose: Isometry,
    /// Whether the discrete step's target (the first step) was past the wall.
    target_crossed: bool,
}

fn run_discrete(speed: Real, angle: Real, wall: Wall, ccd: bool) -> bool {
    let mut scene = scenes::bullet_through_paper(speed, angle, wall);
    scene.bodies[1].ccd = ccd;
    let (mut world, h) = scene.build::<RTreeBroadphase, Discrete>().unwrap();
    let mut tunnelled = false;
    for _ in 0..STEPS {
        world.step(DT).unwrap();
        tunnelled |= world.body(h[1]).unwrap().pose().translation.x > 0.0;
    }
    tunnelled
}

fn run_clamping(speed: Real, angle: Real, wall: Wall, ccd: bool) -> Run {
    let mut scene = scenes::bullet_through_paper(speed, angle, wall);
    scene.bodies[1].ccd = ccd;
    let (mut world, h) = scene.build::<RTreeBroadphase, MotionClamping>().unwrap();
    // The targets: the contact solver sees a static body only within the contact distance
    // of a fast CCD body at the start (the clamp finds the rest), so a CCD bullet, far from
    // the wall, flies free in the discrete step: a Discrete twin of the bullet alone takes
    // that same first step. Without the flag the twin is the whole scene.
    let mut twin_scene = scene.clone();
    if ccd {
        twin_scene.bodies.remove(0);
    }
    let (mut twin, twin_handles) = twin_scene.build::<RTreeBroadphase, Discrete>().unwrap();
    twin.step(DT).unwrap();
    let target = twin.body(*twin_handles.last().unwrap()).unwrap().clone();

    let mut run = Run {
        tunnelled: false,
        reports: Vec::new(),
        hash: 0,
        first_pose: Isometry::identity(),
        target_crossed: target.pose().translation.x > 0.0,
    };
    for step in 0..STEPS {
        let report = world.step(DT).unwrap().stepper;
        let bullet = world.body(h[1]).unwrap().clone();
        run.tunnelled |= bullet.pose().translation.x > 0.0;
        if step == 0 {
            run.first_pose = *bullet.pose();
            // Velocities untouched: exactly the discrete step's.
            assert_eq!(bullet.linvel().x.to_bits(), target.linvel().x.to_bits());
            assert_eq!(bullet.linvel().y.to_bits(), target.linvel().y.to_bits());
            assert_eq!(bullet.angvel().to_bits(), target.angvel().to_bits());
            if report.clamped.is_empty() {
                // Not clamped: the pose is the target, bit for bit.
                assert_eq!(bullet.pose(), target.pose());
            }
        }
        run.reports.push(report);
    }
    run.hash = state_hash(&world);
    run
}

/// Checks every clamped entry of `report`: fraction in [0, 1), time lost > 0 and exactly
/// `(1 - fraction) dt`, and the total is the sum.
fn check_time_lost(report: &ClampReport) {
    let mut total = 0.0;
    for c in &report.clamped {
        assert!((0.0..1.0).contains(&c.fraction), "fraction {}", c.fraction);
        assert!(c.time_lost > 0.0, "time lost {}", c.time_lost);
        assert_eq!(c.time_lost.to_bits(), ((1.0 - c.fraction) * DT).to_bits());
        total += c.time_lost;
    }
    assert_eq!(report.time_lost.to_bits(), total.to_bits());
}

fn bullet_through_paper(wall: Wall, seed: u64) {
    let cases = samples(seed, 10_000);
    let mut discrete_tunnels = 0;
    let mut clamped_tunnels = 0;
    let mut clamped_first_step = 0;
    let mut crossing_targets = 0;
    let mut time_lost = 0.0;
    let target = ToiOptions::default().target_separation();
    let tolerance = ToiOptions::default().tolerance();
    for &(speed, angle) in &cases {
        discrete_tunnels += usize::from(run_discrete(speed, angle, wall, true));
        let run = run_clamping(speed, angle, wall, true);
        if run.tunnelled {
            clamped_tunnels += 1;
            continue;
        }
        for report in &run.reports {
            check_time_lost(report);
            time_lost += report.time_lost;
        }
        // The crossing step is clamped whenever the discrete target is past the wall, and
        // the bullet stops at the target separation.
        let first = &run.reports[0];
        assert_eq!(first.checked_bodies, 1);
        if run.target_crossed {
            crossing_targets += 1;
            assert_eq!(first.clamped.len(), 1, "speed {speed} angle {angle}");
        }
        if let [clamp] = first.clamped.as_slice() {
            clamped_first_step += 1;
            // The bullet stopped at the target separation from the wall, measured on the
            // shapes at the pose it reached.
            let scene = scenes::bullet_through_paper(speed, angle, wall);
            let dist = distance(
                &scene.bodies[1].shape,
                &run.first_pose,
                &scene.bodies[0].shape,
                &scene.bodies[0].pose,
            );
            assert!(
                (dist.distance - target).abs() <= tolerance,
                "speed {speed} angle {angle}: gap {} at fraction {}",
                dist.distance,
                clamp.fraction
            );
        }
    }
    eprintln!(
        "{wall:?}: {} cases, Discrete tunnelled {discrete_tunnels}, MotionClamping tunnelled \
         {clamped_tunnels}, discrete targets past the wall {crossing_targets}, clamped on the \
         crossing step {clamped_first_step}, total time lost {time_lost:.6} s",
        cases.len()
    );
    assert_eq!(clamped_tunnels, 0, "MotionClamping let a bullet through");
    assert!(clamped_first_step >= crossing_targets);
    assert!(
        crossing_targets * 10 >= cases.len() * 9,
        "{crossing_targets}"
    );
    assert!(
        discrete_tunnels * 10 >= cases.len() * 9,
        "Discrete tunnelled only {discrete_tunnels} of {}",
        cases.len()
    );
    assert!(time_lost > 0.0);
}

#[test]
fn bullet_through_a_thin_box_never_tunnels() {
    bullet_through_paper(Wall::Thin, 0x5eed_0001);
}

#[test]
fn bullet_through_a_segment_never_tunnels() {
    bullet_through_paper(Wall::Segment, 0x5eed_0002);
}

#[test]
fn the_ccd_flag_is_respected() {
    let cases = samples(0x5eed_0003, 1_000);
    let mut discrete = 0;
    let mut clamping_without_flag = 0;
    for &(speed, angle) in &cases {
        discrete += usize::from(run_discrete(speed, angle, Wall::Thin, false));
        let run = run_clamping(speed, angle, Wall::Thin, false);
        assert!(run.reports.iter().all(|r| r.checked_bodies == 0));
        assert!(run.reports.iter().all(|r| r.clamped.is_empty()));
        clamping_without_flag += usize::from(run.tunnelled);
    }
    assert_eq!(clamping_without_flag, discrete);
    assert!(discrete * 10 >= cases.len() * 9, "{discrete}");
}

#[test]
fn two_identical_runs_are_bit_identical() {
    let cases = samples(0x5eed_0004, 500);
    let go = || {
        cases
            .iter()
            .map(|&(speed, angle)| {
                let run = run_clamping(speed, angle, Wall::Segment, true);
                (run.hash, run.reports)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(go(), go());

    // And a busier scene: fast CCD discs (some spinning) rained onto a pyramid.
    let busy = || {
        let (mut world, _) = scenes::pyramid(6)
            .build::<RTreeBroadphase, MotionClamping>()
            .unwrap();
        for i in 0..8 {
            let x = -4.0 + f64::from(i);
            world
                .create_body(
                    RigidBodyDef::new(Circle::new(0.1).unwrap().into())
                        .pose(Isometry::translation(x, 12.0))
                        .linvel(Vector::new(5.0 - f64::from(i), -600.0))
                        .angvel(f64::from(i) * 30.0)
                        .ccd(true),
                )
                .unwrap();
        }
        let mut reports = Vec::new();
        let mut hashes = Vec::new();
        for _ in 0..120 {
            reports.push(world.step(DT).unwrap().stepper);
            hashes.push(state_hash(&world));
        }
        (hashes, reports)
    };
    let (a, b) = (busy(), busy());
    assert!(
        a.1.iter().any(|r| !r.clamped.is_empty()),
        "something clamped"
    );
    assert_eq!(a, b);
}

#[test]
fn a_resting_ball_is_not_clamped() {
    let mut scene = scenes::ball_drop(1.0, 0.0);
    scene.bodies[1].ccd = true;
    let (mut world, h) = scene.build::<RTreeBroadphase, MotionClamping>().unwrap();
    for _ in 0..120 {
        world.step(DT).unwrap();
    }
    let y = world.body(h[1]).unwrap().pose().translation.y;
    assert!((y - scenes::BALL_RADIUS).abs() < 0.02, "at rest, at {y}");
    for _ in 0..120 {
        let report = world.step(DT).unwrap().stepper;
        assert_eq!(report.checked_bodies, 0);
        assert!(report.clamped.is_empty());
        assert_eq!(report.time_lost, 0.0);
    }
    // The threshold is what spares it: a ball falling fast through one radius per step is
    // checked.
    let mut scene = scenes::ball_drop(50.0, 0.0);
    scene.bodies[1].ccd = true;
    scene.bodies[1].linvel = Vector::new(0.0, -40.0);
    let (mut world, _) = scene.build::<RTreeBroadphase, MotionClamping>().unwrap();
    let checked: usize = (0..30)
        .map(|_| world.step(DT).unwrap().stepper.checked_bodies)
        .sum();
    assert!(checked > 0);
}

#[test]
fn bad_settings_are_refused_by_name() {
    for (value, message) in [
        (
            Real::NAN,
            "motion_clamping.threshold_radii_per_step: must be finite, got NaN",
        ),
        (
            -0.5,
            "motion_clamping.threshold_radii_per_step: must be zero or positive, got -0.5",
        ),
    ] {
        let settings = MotionClampingSettings {
            threshold_radii_per_step: value,
            ..MotionClampingSettings::default()
        };
        let err: WorldError = MotionClamping::new(settings).unwrap_err();
        assert_eq!(err.to_string(), message);
        let mut stepper = MotionClamping::default();
        assert!(stepper.set_settings(settings).is_err());
        assert_eq!(stepper.settings(), &MotionClampingSettings::default());
    }
    // A zero threshold is allowed and checks every moving CCD body.
    let stepper = MotionClamping::new(MotionClampingSettings {
        threshold_radii_per_step: 0.0,
        ..MotionClampingSettings::default()
    })
    .unwrap();
    let scene = scenes::bullet_through_paper(100.0, 0.0, Wall::Thin);
    let mut world = World::<RTreeBroadphase, MotionClamping>::with_parts(
        scene.settings,
        Default::default(),
        stepper,
    )
    .unwrap();
    for def in scene.bodies {
        world.create_body(def).unwrap();
    }
    assert_eq!(world.step(DT).unwrap().stepper.checked_bodies, 1);
}

/// `MotionClamping` is a `Stepper` usable wherever `Discrete` is.
#[test]
fn motion_clamping_is_a_stepper() {
    fn takes<S: Stepper + Default>() -> S {
        S::default()
    }
    assert_eq!(takes::<MotionClamping>(), MotionClamping::default());
}

/// A disc spinning at 2,000 rad/s, driven at 30 units/s into a wall it touches. Left to the
/// contact solver, it went into the wall, and the time of impact then clamped it at fraction
/// 0. A touching pair that closes that fast is an impact at the start of the step: the disc
/// leaves the wall at once, with the restitution and friction of the impact, and is never
/// clamped.
#[test]
fn a_spinning_disc_driven_into_a_wall_it_touches_bounces_off_at_the_start() {
    let mut world = World::<RTreeBroadphase, MotionClamping>::new(
        impact_stepper::WorldSettings::with_gravity(Vector::new(0.0, -10.0)),
    )
    .unwrap();
    let wall = impact_geometry::Segment::new(
        impact_geometry::Point::new(0.0, -100.0),
        impact_geometry::Point::new(0.0, 100.0),
    )
    .unwrap();
    world
        .create_body(RigidBodyDef::fixed(wall.into()).friction(0.3))
        .unwrap();
    let start = 0.05 + ToiOptions::default().target_separation();
    let disc = world
        .create_body(
            RigidBodyDef::new(Circle::new(0.05).unwrap().into())
                .pose(Isometry::translation(start, 0.0))
                .linvel(Vector::new(-30.0, 0.0))
                .angvel(2_000.0)
                .friction(0.3)
                .restitution(0.1)
                .ccd(true),
        )
        .unwrap();

    let report = world.step(DT).unwrap().stepper;
    assert_eq!(report.start_impacts, 1);
    assert!(report.clamped.is_empty(), "{report:?}");
    let event = world.events()[0];
    assert_eq!((event.fraction, event.approach_speed()), (0.0, 30.0));
    let body = world.body(disc).unwrap();
    assert!(
        body.linvel().x > 2.9,
        "it leaves the wall: {:?}",
        body.linvel()
    );
    assert!(
        body.pose().translation.x > start,
        "{}",
        body.pose().translation.x
    );

    // Friction on the spin threw it up the wall; it flies off, never clamped again.
    for step in 1..20 {
        let report = world.step(DT).unwrap().stepper;
        assert!(report.clamped.is_empty(), "step {step}");
        let body = world.body(disc).unwrap();
        assert!(body.pose().translation.x > start, "step {step}");
    }
}

/// A hexagon spinning at 2,000 rad/s (33 radians a step), driven at 30 units/s into a wall
/// it touches with a corner. The contact solver's manifold holds that corner, but the turn
/// swings the next corners through the wall within the step, where no manifold point is, so
/// the targets overlap and the time of impact (a hit at fraction 0) clamps the hexagon where
/// it was. With its velocities kept, it was driven in again at every step and hung there;
/// the pair now leaves moving as one (`ClampReport::closing_stopped`): against a static wall
/// the hexagon stops, then falls under gravity along the wall, never clamped again.
#[test]
fn a_body_the_solver_lets_into_a_wall_stops_there_instead_of_hanging() {
    let mut world = World::<RTreeBroadphase, MotionClamping>::new(
        impact_stepper::WorldSettings::with_gravity(Vector::new(0.0, -10.0)),
    )
    .unwrap();
    let wall = impact_geometry::Segment::new(
        impact_geometry::Point::new(0.0, -100.0),
        impact_geometry::Point::new(0.0, 100.0),
    )
    .unwrap();
    world
        .create_body(RigidBodyDef::fixed(wall.into()).friction(0.3))
        .unwrap();
    // A corner at (-0.05, 0) in the body frame faces the wall.
    let shape = impact_geometry::ConvexPolygon::regular(6, 0.05).unwrap();
    let start = 0.05 + ToiOptions::default().target_separation();
    let hexagon = world
        .create_body(
            RigidBodyDef::new(shape.into())
                .pose(Isometry::translation(start, 0.0))
                .linvel(Vector::new(-30.0, 0.0))
                .angvel(2_000.0)
                .friction(0.3)
                .restitution(0.1)
                .ccd(true),
        )
        .unwrap();

    let report = world.step(DT).unwrap().stepper;
    assert_eq!(report.closing_stopped, 1);
    assert_eq!(report.clamped.len(), 1);
    assert_eq!(report.clamped[0].fraction, 0.0);
    let body = world.body(hexagon).unwrap();
    assert_eq!(body.pose().translation.x, start);
    assert_eq!(body.linvel(), Vector::zeros());
    assert_eq!(body.angvel(), 0.0);

    let mut y = body.pose().translation.y;
    for step in 1..20 {
        let report = world.step(DT).unwrap().stepper;
        assert!(report.clamped.is_empty(), "step {step}");
        let body = world.body(hexagon).unwrap();
        assert!(body.pose().translation.x > 0.05 - 1e-3, "step {step}");
        assert!(body.pose().translation.y < y, "step {step}: it falls");
        y = body.pose().translation.y;
    }
}
