//! What `FirstTimeOfImpact` must show: bullets never pass through paper; two
//! bullets meet and exchange momentum as the two-disc formula says; a disc bouncing between
//! walls follows the analytic billiard path with no time lost and energy kept to rounding;
//! Zeno sequences end; restitution survives CCD; the hook re-plans what it changed.

mod common;

use common::{DT, Rng, samples, state_hash};
use impact_broadphase::{BruteForce, RTreeBroadphase};
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Segment, Vector};
use impact_narrowphase::distance;
use impact_solver::{BodyHandle, RigidBodyDef};
use impact_stepper::{
    Discrete, EventKind, FirstTimeOfImpact, FirstTimeOfImpactSettings, Impact, MotionClamping,
    World, WorldSettings,
};
use impact_testkit::scenes::{self, Wall};

type ToiWorld = World<BruteForce, FirstTimeOfImpact>;

fn no_gravity() -> WorldSettings {
    WorldSettings::with_gravity(Vector::zeros())
}

fn event_driven_world(settings: WorldSettings) -> ToiWorld {
    World::with_parts(
        settings,
        BruteForce::default(),
        FirstTimeOfImpact::new(FirstTimeOfImpactSettings::event_driven()).unwrap(),
    )
    .unwrap()
}

fn disc(radius: Real) -> RigidBodyDef {
    RigidBodyDef::new(Circle::new(radius).unwrap().into()).ccd(true)
}

/// A frictionless disc of radius `r` at `(x, 0)` moving at `v` along x, restitution 0.1: the
/// inelastic lines of the Zeno tests.
fn inelastic_disc(r: Real, x: Real, v: Real) -> RigidBodyDef {
    disc(r)
        .restitution(0.1)
        .friction(0.0)
        .pose(Isometry::translation(x, 0.0))
        .linvel(Vector::new(v, 0.0))
}

fn segment(a: (Real, Real), b: (Real, Real)) -> RigidBodyDef {
    RigidBodyDef::fixed(
        Segment::new(Point::new(a.0, a.1), Point::new(b.0, b.1))
            .unwrap()
            .into(),
    )
}

fn bullet_through_paper(wall: Wall, seed: u64) {
    let cases = samples(seed, 10_000);
    let mut discrete_tunnelled = 0;
    for &(speed, angle) in &cases {
        let scene = scenes::bullet_through_paper(speed, angle, wall);
        let (mut world, h) = scene.build::<RTreeBroadphase, FirstTimeOfImpact>().unwrap();
        for step in 0..6 {
            let report = world.step(DT).unwrap();
            let x = world.body(h[1]).unwrap().pose().translation.x;
            assert!(
                x < 0.0,
                "speed {speed}, angle {angle}: through the wall at step {step} (x = {x})"
            );
            assert_eq!(report.stepper.time_lost, 0.0);
            if step == 0 {
                // The bullet reaches the wall within the first step, and the impact is
                // recorded there.
                assert!(report.stepper.events >= 1, "speed {speed}, angle {angle}");
                let e = world.events()[0];
                assert_eq!((e.a, e.b), (h[0], h[1]));
                assert!(e.fraction > 0.0 && e.fraction < 1.0);
                assert_eq!(e.time, e.fraction * DT);
                assert!(e.approach_speed() > 0.0);
            }
        }
        let (mut twin, th) = scene.build::<RTreeBroadphase, Discrete>().unwrap();
        let mut through = false;
        for _ in 0..6 {
            twin.step(DT).unwrap();
            through |= twin.body(th[1]).unwrap().pose().translation.x > 0.0;
        }
        discrete_tunnelled += usize::from(through);
    }
    // The oracle can fail: without CCD nearly every bullet goes through.
    assert!(discrete_tunnelled > 9_000, "{discrete_tunnelled}");
}

#[test]
fn bullet_through_a_thin_box_never_tunnels() {
    bullet_through_paper(Wall::Thin, 0x5eed_0101);
}

#[test]
fn bullet_through_a_segment_never_tunnels() {
    bullet_through_paper(Wall::Segment, 0x5eed_0102);
}

/// The two-disc impact along the line of centres, from the textbook: the velocities after.
fn two_disc_outcome(
    (ma, va): (Real, Vector),
    (mb, vb): (Real, Vector),
    normal: Vector,
    e: Real,
) -> (Vector, Vector) {
    let closing = (vb - va).dot(&normal);
    let j = -(1.0 + e) * closing / (1.0 / ma + 1.0 / mb);
    (va - normal * (j / ma), vb + normal * (j / mb))
}

#[test]
fn two_bullets_on_crossing_paths_collide_and_exchange_momentum() {
    let mut rng = Rng(0x00b0_11e7);
    for case in 0..200 {
        let (ra, rb) = (0.05, rng.range(0.03, 0.08));
        let (da, db) = (1.0, rng.range(0.5, 8.0));
        let e = rng.range(0.0, 1.0);
        // Both reach the origin region at the same moment, mid-step, from directions
        // `angle` apart, with an offset so the hit is oblique.
        let meet = rng.range(0.2, 0.8) * DT;
        let (sa, sb) = (rng.range(500.0, 5_000.0), rng.range(500.0, 5_000.0));
        let angle = rng.range(0.5, 2.6);
        let offset = rng.range(-0.5, 0.5) * (ra + rb);
        let dir_a = Vector::new(1.0, 0.0);
        let dir_b = Vector::new(angle.cos(), angle.sin());
        let side = Vector::new(-dir_b.y, dir_b.x) * offset;
        let mut world = event_driven_world(no_gravity());
        let a = world
            .create_body(
                disc(ra)
                    .density(da)
                    .restitution(e)
                    .friction(0.0)
                    .pose(Isometry::translation(-sa * meet, 0.0))
                    .linvel(dir_a * sa),
            )
            .unwrap();
        let b = world
            .create_body(
                disc(rb)
                    .density(db)
                    .restitution(e)
                    .friction(0.0)
                    .pose(Isometry::translation(
                        -dir_b.x * sb * meet + side.x,
                        -dir_b.y * sb * meet + side.y,
                    ))
                    .linvel(dir_b * sb),
            )
            .unwrap();
        let before = (
            world.body(a).unwrap().clone(),
            world.body(b).unwrap().clone(),
        );
        let report = world.step(DT).unwrap();
        assert_eq!(report.stepper.events, 1, "case {case}");
        let event = world.events()[0];
        assert_eq!(event.kind, EventKind::Impact);
        // The exact contact time of the two centres, from the quadratic.
        let dp = before.1.pose().translation.vector - before.0.pose().translation.vector;
        let dv = before.1.linvel() - before.0.linvel();
        let r = ra + rb;
        let (qa, qb, qc) = (dv.dot(&dv), 2.0 * dp.dot(&dv), dp.dot(&dp) - r * r);
        let t = (-qb - (qb * qb - 4.0 * qa * qc).sqrt()) / (2.0 * qa);
        assert!((event.time - t).abs() <= 1e-12 * DT.max(t), "case {case}");
        let normal = (dp + dv * t) / r;
        assert!((event.normal() - normal).norm() < 1e-9, "case {case}");
        let (va, vb) = two_disc_outcome(
            (before.0.mass(), before.0.linvel()),
            (before.1.mass(), before.1.linvel()),
            normal,
            e,
        );
        let (after_a, after_b) = (world.body(a).unwrap(), world.body(b).unwrap());
        let scale = sa.max(sb);
        assert!((after_a.linvel() - va).norm() < 1e-9 * scale, "case {case}");
        assert!((after_b.linvel() - vb).norm() < 1e-9 * scale, "case {case}");
        let p0 = before.0.linear_momentum() + before.1.linear_momentum();
        let p1 = after_a.linear_momentum() + after_b.linear_momentum();
        assert!(
            (p1 - p0).norm() <= 1e-12 * p0.norm().max(1.0),
            "case {case}"
        );
        // They end the step apart, on the far sides of the impact.
        let d = distance(
            after_a.shape(),
            after_a.pose(),
            after_b.shape(),
            after_b.pose(),
        );
        assert!(d.distance > -1e-9, "case {case}: {}", d.distance);
    }
}

#[test]
fn head_on_bullets_stop_each_other_at_the_target_separation() {
    let mut world = World::<RTreeBroadphase, FirstTimeOfImpact>::new(no_gravity()).unwrap();
    let a = world
        .create_body(
            disc(0.05)
                .pose(Isometry::translation(-10.0, 0.0))
                .linvel(Vector::new(1_200.0, 0.0)),
        )
        .unwrap();
    let b = world
        .create_body(
            disc(0.05)
                .pose(Isometry::translation(10.0, 0.0))
                .linvel(Vector::new(-1_200.0, 0.0)),
        )
        .unwrap();
    let mut events = 0;
    for _ in 0..3 {
        events += world.step(DT).unwrap().stepper.events;
    }
    assert_eq!(events, 1);
    let (ba, bb) = (world.body(a).unwrap(), world.body(b).unwrap());
    // Restitution 0, equal masses: both stop where they met.
    assert!(ba.linvel().norm() < 1e-9 && bb.linvel().norm() < 1e-9);
    let gap = bb.pose().translation.x - ba.pose().translation.x - 0.1;
    let target = FirstTimeOfImpactSettings::default().toi.target_separation();
    assert!((gap - target).abs() < 1e-6, "gap {gap}");
}

/// A disc of radius `R` bouncing in the square box `[-1, 1]^2` of four static segments
/// (longer than the box, so it never meets their ends).
const R: Real = 0.1;

fn billiard<S: impact_stepper::Stepper>(
    mut world: World<BruteForce, S>,
) -> (World<BruteForce, S>, BodyHandle) {
    for (a, b) in [
        ((-1.0, -2.0), (-1.0, 2.0)),
        ((1.0, -2.0), (1.0, 2.0)),
        ((-2.0, -1.0), (2.0, -1.0)),
        ((-2.0, 1.0), (2.0, 1.0)),
    ] {
        world.create_body(segment(a, b)).unwrap();
    }
    let ball = world
        .create_body(
            disc(R)
                .restitution(1.0)
                .friction(0.0)
                .pose(Isometry::translation(0.123, -0.321))
                .linvel(Vector::new(97.3, 41.7)),
        )
        .unwrap();
    (world, ball)
}

/// The analytic billiard coordinate: free motion folded into `[-L, L]`, `L = 1 - R`.
fn folded(x0: Real, v: Real, t: Real) -> Real {
    let l = 1.0 - R;
    let period = 4.0 * l;
    let u = (x0 + l + v * t).rem_euclid(period);
    if u <= 2.0 * l { u - l } else { 3.0 * l - u }
}

#[test]
fn billiard_follows_the_analytic_path_and_keeps_its_energy() {
    let (mut world, ball) = billiard(event_driven_world(no_gravity()));
    let e0 = world.body(ball).unwrap().kinetic_energy();
    let mut events = 0;
    for _ in 0..100 {
        let report = world.step(DT).unwrap();
        assert_eq!(report.stepper.time_lost, 0.0);
        events += report.stepper.events;
    }
    let t = 100.0 * DT;
    let body = world.body(ball).unwrap();
    let p = body.pose().translation.vector;
    let (x, y) = (folded(0.123, 97.3, t), folded(-0.321, 41.7, t));
    assert!(
        (p.x - x).abs() < 1e-9 && (p.y - y).abs() < 1e-9,
        "{p:?} vs ({x}, {y})"
    );
    let e1 = body.kinetic_energy();
    assert!(((e1 - e0) / e0).abs() < 1e-12, "energy {e0} -> {e1}");
    // About 97.3 * t / 1.8 + 41.7 * t / 1.8 wall hits.
    assert!((120..=135).contains(&events), "{events} impacts");

    // Motion clamping on the same scene stops short at the walls the contact solver's
    // speculative contacts do not catch first, and says so.
    let (mut clamped, cball) =
        billiard(World::<BruteForce, MotionClamping>::new(no_gravity()).unwrap());
    let mut lost = 0.0;
    for _ in 0..100 {
        lost += clamped.step(DT).unwrap().stepper.time_lost;
    }
    assert!(lost > 0.0, "motion clamping lost {lost} s of {t}");
    let cp = clamped.body(cball).unwrap().pose().translation.vector;
    assert!(
        (cp.x - x).abs() + (cp.y - y).abs() > 1e-3,
        "clamping drifts off the path"
    );
}

fn floor() -> RigidBodyDef {
    RigidBodyDef::fixed(ConvexPolygon::rectangle(20.0, 0.5).unwrap().into())
        .pose(Isometry::translation(0.0, -0.5))
}

#[test]
fn a_bouncing_ball_comes_to_rest_with_few_events_per_step() {
    for threshold in [1.0, 0.0] {
        let mut settings = FirstTimeOfImpactSettings {
            threshold_radii_per_step: 0.0,
            ..FirstTimeOfImpactSettings::default()
        };
        settings.impact.restitution_threshold = threshold;
        let mut world = World::with_parts(
            WorldSettings::default(),
            BruteForce::default(),
            FirstTimeOfImpact::new(settings).unwrap(),
        )
        .unwrap();
        world.create_body(floor()).unwrap();
        let ball = world
            .create_body(
                disc(0.25)
                    .restitution(0.5)
                    .pose(Isometry::translation(0.0, 3.0)),
            )
            .unwrap();
        let mut total = 0;
        for _ in 0..600 {
            let report = world.step(DT).unwrap();
            assert!(
                report.stepper.events <= 2,
                "{} events",
                report.stepper.events
            );
            total += report.stepper.events;
        }
        let body = world.body(ball).unwrap();
        assert!(total >= 3, "the ball bounced: {total} events");
        assert!(body.linvel().norm() < 0.05, "at rest: {:?}", body.linvel());
        let y = body.pose().translation.y;
        assert!((y - 0.25).abs() < 0.02, "on the floor: {y}");
    }
}

#[test]
fn three_discs_in_an_inelastic_line_do_not_hang() {
    for gap in [0.0, 1e-3, 1e-9] {
        let mut world = event_driven_world(no_gravity());
        let r = 0.5;
        let mut bodies = Vec::new();
        for (i, v) in [(0, 30.0), (1, 0.0), (2, -30.0)] {
            let x = Real::from(i) * (2.0 * r + gap) - (2.0 * r + gap);
            bodies.push(world.create_body(inelastic_disc(r, x, v)).unwrap());
        }
        let p0: Vector = bodies
            .iter()
            .map(|&h| world.body(h).unwrap().linear_momentum())
            .sum();
        for _ in 0..60 {
            let report = world.step(DT).unwrap();
            let max = 3 * FirstTimeOfImpactSettings::default().max_pair_events as usize;
            assert!(report.stepper.events <= max, "{}", report.stepper.events);
        }
        let p1: Vector = bodies
            .iter()
            .map(|&h| world.body(h).unwrap().linear_momentum())
            .sum();
        assert!((p1 - p0).norm() < 1e-9, "momentum {p0:?} -> {p1:?}");
        for w in bodies.windows(2) {
            let (a, b) = (world.body(w[0]).unwrap(), world.body(w[1]).unwrap());
            let d = distance(a.shape(), a.pose(), b.shape(), b.pose()).distance;
            assert!(d > -0.05, "gap {gap}: overlap {d}");
        }
    }
}

#[test]
fn a_body_that_hits_a_stopped_body_and_still_heads_into_it_stops_at_that_impact() {
    // Three discs a millimetre apart squeezed from both ends meet again at once and stop; a
    // fourth, a quarter unit behind the first and as fast, hits it half way through the
    // step.
    let mut world = event_driven_world(no_gravity());
    let r = 0.5;
    let mut line = Vec::new();
    // The line's gaps keep its pairs apart at the start (touching ones would be impacts
    // at the start, resolved before the event loop and left to the solver).
    let gap = 1e-3;
    for (x, v) in [
        (-1.25 - 2.0 * r - gap, 30.0),
        (-1.0 - gap, 30.0),
        (0.0, 0.0),
        (1.0 + gap, -30.0),
    ] {
        line.push(world.create_body(inelastic_disc(r, x, v)).unwrap());
    }
    let (late, first) = (line[0], line[1]);
    let report = world.step(DT).unwrap();
    let stopped = |h: BodyHandle| report.stepper.stopped.iter().find(|c| c.body == h);
    // The line, squeezed from both ends at 30 units/s, meets again and again at once and
    // stops (a Zeno sequence); the fourth disc, half a step later, hits the stopped first
    // disc and, still closing in after that inelastic impact, stops at it, without the two
    // more impacts at the same instant (a Zeno handover, then the meeting again) that would
    // otherwise stop it.
    let with_late: Vec<_> = world
        .events()
        .iter()
        .filter(|e| e.a == late || e.b == late)
        .collect();
    assert_eq!(with_late.len(), 1, "{with_late:?}");
    let last = with_late[0];
    assert!(last.a == first || last.b == first, "{last:?}");
    let first_stop = stopped(first).expect("the line stops");
    assert!(
        first_stop.fraction < last.fraction,
        "{first_stop:?} {last:?}"
    );
    let late_stop = stopped(late).expect("the late disc stops");
    assert_eq!(late_stop.fraction, last.fraction);
    let (a, b) = (world.body(late).unwrap(), world.body(first).unwrap());
    let d = distance(a.shape(), a.pose(), b.shape(), b.pose()).distance;
    assert!(d > -1e-6, "overlap {d}");
    // It keeps no velocity into the stopped disc, as after an impact on a fixed body: kept,
    // it would press the two together again at the start of the next step, where both
    // would stop again.
    let into = (b.pose().translation.vector - a.pose().translation.vector).normalize();
    let approach = a.linvel().dot(&into);
    assert!(approach.abs() < 1e-9, "still heads into it at {approach}");
}

/// A light disc at rest, touching a heavy box that runs into it at 4 units/s, with a
/// segment 5 cm beyond it: both too slow to be checked at the start of the step, their
/// contact is the solver's, which sends the disc off at about 8 units/s, enough to carry it
/// through the segment within the step. Its course is checked from there: it hits the
/// segment, and the box then presses it there without pushing it through (without the
/// check, the step had no event and the disc was through).
#[test]
fn a_body_the_contact_solver_sends_fast_is_checked_from_its_course() {
    let mut world: World<BruteForce, FirstTimeOfImpact> = World::new(no_gravity()).unwrap();
    let light = world
        .create_body(disc(0.05).density(0.01).friction(0.0).restitution(1.0))
        .unwrap();
    world
        .create_body(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.1, 0.1).unwrap().into())
                .density(100.0)
                .friction(0.0)
                .restitution(1.0)
                .pose(Isometry::translation(-0.155, 0.0))
                .linvel(Vector::new(4.0, 0.0))
                .ccd(true),
        )
        .unwrap();
    let wall = world.create_body(segment((0.1, -1.0), (0.1, 1.0))).unwrap();
    let report = world.step(DT).unwrap();
    assert_eq!(
        (report.stepper.checked_bodies, report.stepper.kicked_bodies),
        (0, 1),
        "{:?}",
        report.stepper
    );
    assert!(
        world
            .events()
            .iter()
            .any(|e| e.involves(light) && e.involves(wall)),
        "{:?}",
        world.events()
    );
    for _ in 0..60 {
        let x = world.body(light).unwrap().pose().translation.x;
        assert!(x < 0.1, "the disc centre at x = {x}");
        world.step(DT).unwrap();
    }
}

/// The speed a fast ball leaves the floor with, over the speed it hit it with.
fn rebound_ratio<S: impact_stepper::Stepper + Default>() -> Real {
    let mut world = World::<RTreeBroadphase, S>::new(WorldSettings::default()).unwrap();
    world.create_body(floor()).unwrap();
    let ball = world
        .create_body(
            disc(0.1)
                .restitution(0.8)
                .pose(Isometry::translation(0.0, 5.0))
                .linvel(Vector::new(0.0, -150.0)),
        )
        .unwrap();
    let mut approach: Real = 0.0;
    for _ in 0..30 {
        let v = world.body(ball).unwrap().linvel().y;
        if v > 0.0 {
            return v / approach;
        }
        approach = -v;
        world.step(DT).unwrap();
        assert!(
            world.body(ball).unwrap().pose().translation.y > 0.0,
            "through the floor"
        );
    }
    panic!("the ball never bounced");
}

/// A box falling at 150 units/s onto the floor, restitution 0.8, from `x` turned by `angle`
/// and spinning at `spin`: its velocities after three steps.
fn landing(x: Real, angle: Real, spin: Real) -> (Vector, Real) {
    let mut world = World::<RTreeBroadphase, FirstTimeOfImpact>::new(no_gravity()).unwrap();
    world.create_body(floor()).unwrap();
    let block = world
        .create_body(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.5, 0.25).unwrap().into())
                .restitution(0.8)
                .ccd(true)
                .pose(Isometry::new(Vector::new(x, 2.0), angle))
                .linvel(Vector::new(0.0, -150.0))
                .angvel(spin),
        )
        .unwrap();
    let mut events = 0;
    for _ in 0..3 {
        events += world.step(DT).unwrap().stepper.events;
    }
    assert!(events >= 1, "the box reached the floor");
    let body = world.body(block).unwrap();
    (body.linvel(), body.angvel())
}

/// A box landing flat on the floor bounces straight up without turning: the impact acts at
/// the middle of the stretch the two faces share, below its centre of mass. Within the
/// tolerance of flat is flat (a corner 1e-4 lower over the box's width, or a spin of 1e-12
/// rad/s, which takes the rotating time of impact): an impact at one corner, which the
/// first point of contact is, spins the box.
#[test]
fn a_box_landing_flat_bounces_straight_up_without_turning() {
    for (x, angle, spin) in [
        (0.0, 0.0, 0.0),
        (3.7, 0.0, 0.0),
        (-11.2, 0.0, 0.0),
        (1.3, std::f64::consts::PI, 0.0),
        (3.7, 0.0, 1e-12),
        (3.7, 1e-4, 0.0),
        (-2.1, -1e-4, 1e-6),
    ] {
        let (v, w) = landing(x, angle, spin);
        assert!(v.y > 100.0, "it bounced: {v:?}");
        // A tilt of 1e-4 puts the middle of the bottom face 2.5e-5 beside the centre of
        // mass: about 0.06 rad/s of spin from the impulse, where a corner impulse gives 68.
        assert!(
            w.abs() < 0.1,
            "at x = {x}, turned {angle}, spinning {spin}: spin {w}"
        );
        assert!(
            v.x.abs() < 0.1,
            "at x = {x}, turned {angle}, spinning {spin}: drift {}",
            v.x
        );
    }
    // Tilted by 0.05 rad, one corner lands 0.05 before the other: a corner impact, which
    // turns the box.
    let (_, w) = landing(3.7, 0.05, 0.0);
    assert!(w.abs() > 1.0, "a corner landing turns the box: spin {w}");
}

#[test]
fn restitution_survives_ccd() {
    for (name, ratio) in [
        ("first time of impact", rebound_ratio::<FirstTimeOfImpact>()),
        ("motion clamping", rebound_ratio::<MotionClamping>()),
    ] {
        assert!((ratio - 0.8).abs() < 0.008, "{name}: rebound ratio {ratio}");
    }
}

#[test]
fn the_hook_can_stop_disable_and_remove_and_the_stepper_replans_them() {
    // Two walls one behind the other; a bullet at 3,000 units/s crosses both gaps in a step.
    let setup = || {
        let mut world = event_driven_world(no_gravity());
        let near = world.create_body(segment((1.0, -1.0), (1.0, 1.0))).unwrap();
        let far = world.create_body(segment((2.0, -1.0), (2.0, 1.0))).unwrap();
        let bullet = world
            .create_body(
                disc(0.05)
                    .restitution(1.0)
                    .linvel(Vector::new(3_000.0, 0.0)),
            )
            .unwrap();
        (world, near, far, bullet)
    };

    // Pierce the first wall: the hook restores the velocity and turns collisions off; the
    // bullet flies on, through the near wall, and the far wall is not hit either.
    let (mut world, near, _, bullet) = setup();
    world
        .step_with(DT, &mut |impact: &mut Impact<'_>| {
            impact
                .set_velocity(bullet, Vector::new(3_000.0, 0.0), 0.0)
                .unwrap();
            impact.disable_collisions(bullet).unwrap();
        })
        .unwrap();
    assert_eq!(world.events().len(), 1);
    assert_eq!(world.events()[0].a, near);
    let x = world.body(bullet).unwrap().pose().translation.x;
    assert!((x - 3_000.0 * DT).abs() < 1e-9, "it kept its course: {x}");

    // Speed it up on the rebound: the re-planned course meets a wall behind the start that
    // the first plan never reached, at the time the new speed gives.
    let (mut world, near, _, bullet) = setup();
    let back = world
        .create_body(segment((-1.0, -1.0), (-1.0, 1.0)))
        .unwrap();
    let mut seen = Vec::new();
    world
        .step_with(DT, &mut |impact: &mut Impact<'_>| {
            let e = impact.event();
            let wall = if e.a == bullet { e.b } else { e.a };
            seen.push((wall, e.time));
            if seen.len() == 1 {
                // The bullet is at the wall now, not where it started the step.
                let x = impact.pose(bullet).unwrap().translation.x;
                assert!((x - 0.95).abs() < 1e-9, "{x}");
                impact
                    .set_velocity(bullet, Vector::new(-6_000.0, 0.0), 0.0)
                    .unwrap();
            }
        })
        .unwrap();
    assert_eq!(seen[0].0, near);
    assert_eq!(seen[1].0, back);
    let expected = 0.95 / 3_000.0 + 1.9 / 6_000.0;
    assert!(
        (seen[1].1 - expected).abs() < 1e-12,
        "{} vs {expected}",
        seen[1].1
    );
    let x = world.body(bullet).unwrap().pose().translation.x;
    assert!(x.abs() < 1.0, "still between the walls: {x}");

    // Removing: the bullet is gone after the step; removing it again is refused.
    let (mut world, _, _, bullet) = setup();
    let report = world
        .step_with(DT, &mut |impact: &mut Impact<'_>| {
            impact.remove_body(bullet).unwrap();
            assert!(impact.remove_body(bullet).is_err());
            assert!(impact.body(bullet).is_none());
        })
        .unwrap();
    assert_eq!(report.removed, [bullet]);
    assert!(world.body(bullet).is_none());
}

#[test]
fn first_toi_runs_are_bit_identical() {
    let run = || {
        let scene = scenes::bullet_through_paper(3_000.0, 0.3, Wall::Segment);
        let (mut world, _) = scene.build::<RTreeBroadphase, FirstTimeOfImpact>().unwrap();
        let (mut billiards, _) = billiard(event_driven_world(no_gravity()));
        for _ in 0..50 {
            world.step(DT).unwrap();
            billiards.step(DT).unwrap();
        }
        (state_hash(&world), state_hash(&billiards))
    };
    assert_eq!(run(), run());
}

#[test]
fn bad_settings_are_refused_by_name() {
    let cases: [(FirstTimeOfImpactSettings, &str); 5] = [
        (
            FirstTimeOfImpactSettings {
                threshold_radii_per_step: -1.0,
                ..Default::default()
            },
            "first_toi.threshold_radii_per_step: must be zero or positive, got -1",
        ),
        (
            FirstTimeOfImpactSettings {
                min_advance: Real::NAN,
                ..Default::default()
            },
            "first_toi.min_advance: must be finite, got NaN",
        ),
        (
            FirstTimeOfImpactSettings {
                max_events: 0,
                ..Default::default()
            },
            "first_toi.max_events: must be at least 1, got 0",
        ),
        (
            FirstTimeOfImpactSettings {
                max_pair_events: 0,
                ..Default::default()
            },
            "first_toi.max_pair_events: must be at least 1, got 0",
        ),
        (
            {
                let mut s = FirstTimeOfImpactSettings::default();
                s.impact.restitution_threshold = -2.0;
                s
            },
            "first_toi.impact.restitution_threshold: must be zero or positive, got -2",
        ),
    ];
    let mut stepper = FirstTimeOfImpact::default();
    for (settings, message) in cases {
        assert_eq!(
            FirstTimeOfImpact::new(settings).unwrap_err().to_string(),
            message
        );
        assert!(stepper.set_settings(settings).is_err());
        assert_eq!(stepper.settings(), &FirstTimeOfImpactSettings::default());
    }
}

/// Runs 2 s of `scene` under `FirstTimeOfImpact` and checks that its bodies hit the field,
/// that none went through a segment (`TunnelCounter`, judged on each body's actual path
/// through a `CourseRecorder` and the courses the world recorded), and that none hung in mid-air at the end (`HungCounter`, above
/// the bottom of the rain's column); returns the pairs of discs through each other
/// (`CrossingCounter`, judged on each disc's path in time: the recorder's turns with their
/// fractions, and the stepper's stops).
fn assert_the_field_holds(scene: &scenes::Scene, seed: u64) -> usize {
    let (mut world, _) = scene.build::<RTreeBroadphase, FirstTimeOfImpact>().unwrap();
    let mut counter = scenes::TunnelCounter::new(scene);
    let mut crossings = scenes::CrossingCounter::new(scene);
    let mut recorder = scenes::CourseRecorder::new(&world);
    let mut hung = scenes::HungCounter::new(scene, scenes::rain_field(0).column_bottom());
    let mut events = 0;
    world.record_courses(true);
    for _ in 0..120 {
        let report = world.step_with(DT, &mut recorder).unwrap();
        events += report.stepper.events;
        recorder.note_stops(&report.stepper.stopped, &world);
        recorder.note_courses(&world, DT);
        crossings.observe_world_timed(&world, recorder.turns(), recorder.fractions());
        counter.observe_world_via(&world, &mut recorder);
        hung.observe_world(&world);
    }
    let name = &scene.name;
    assert!(
        events > 200,
        "{name}, seed {seed}: the bodies hit the field ({events} impacts)"
    );
    assert_eq!(
        (counter.tunnelled(), counter.escaped()),
        (0, 0),
        "{name}, seed {seed}"
    );
    assert_eq!(
        hung.hung(),
        0,
        "{name}, seed {seed}: bodies hung in mid-air"
    );
    crossings.crossings()
}

/// The rain's target: no disc through a segment, the floor or a wall (judged by
/// `TunnelCounter` with the discs' speeds, so a disc that bounced back round the end of a
/// segment within a step is not counted), and no disc through another (judged by
/// `CrossingCounter` on the discs' paths in time, given the turns and their fractions by a
/// `CourseRecorder`, so that no pair is left unjudged as "bent").
#[test]
fn a_rain_of_fast_discs_never_passes_through_the_segments_or_each_other() {
    for seed in [1, 2] {
        assert_eq!(
            assert_the_field_holds(&scenes::rain(200, seed), seed),
            0,
            "seed {seed}"
        );
    }
}

/// The same for bodies that turn (`scenes::tumbling_rain`: squares, sticks, capsules and
/// hexagons spinning at up to 30 rad/s, and much faster after collisions): none through a
/// segment, the floor or a wall. Two ways through, both fixed together: a pair the contact
/// solver holds, whose manifold taken at the start poses does not bound a far side swinging
/// round (a capsule against a wall, held by its top, swings its bottom through), and an
/// overlapping pair whose nearest points part while a far end swings in (a stick on a
/// segment, struck at one end). Without the guards for both, these six seeds let 13 bodies
/// through.
///
/// No body hangs in mid-air either (`HungCounter`): fast bodies side by side that the
/// contact solver pushed through each other must not be stopped where they are, with the
/// velocities that did it, step after step (seed 1 has 7 such bodies). Moving them on
/// (`move_as_one`, and the pushed-through guard following a centre in the other body's own
/// frame) lets the piles grow, and the sticks at the bottom of them would sink past their
/// middles into the segments they lie on, a millimetre or two per impact; so a course may
/// not lower an overlapping body's centre of mass to within a tolerance of a segment's line
/// (without that rule, seeds 1 and 6 let a stick through).
#[test]
fn a_tumbling_rain_never_passes_through_the_segments() {
    for seed in 1..=6 {
        assert_the_field_holds(&scenes::tumbling_rain(200, seed), seed);
    }
}

/// A course that stays inside its grown reach must not meet a body its neighbour list never
/// had. A disc at 60 units/s bounces off a diagonal wall straight down (its course leaves its
/// reach: the reach grows to the bounding box of the old reach and the new course), then off
/// a second wall to the right, into the corner of that bounding box that neither the old
/// reach nor the new course covered, where a disc rests. The second course stays inside the
/// grown reach, so it is not searched again; the neighbour list must already hold the
/// resting disc. An escape that searched only the new course's reach, not the grown box it
/// stores, would let the disc go into the resting one without an impact (as in the rain of
/// 1,000 discs, seed 6, step 43: discs 838 and 566, 26 units/s).
#[test]
fn a_course_inside_its_grown_reach_meets_what_the_reach_holds() {
    let mut world = World::<RTreeBroadphase, FirstTimeOfImpact>::new(no_gravity()).unwrap();
    let elastic = |def: RigidBodyDef| def.restitution(1.0).friction(0.0);
    world
        .create_body(elastic(segment((0.5, 0.1), (0.7, -0.1))))
        .unwrap();
    world
        .create_body(elastic(segment((0.4, -0.142), (0.6, -0.342))))
        .unwrap();
    let mover = world
        .create_body(elastic(disc(0.05).linvel(Vector::new(60.0, 0.0))))
        .unwrap();
    let resting = world
        .create_body(elastic(disc(0.05).pose(Isometry::translation(0.75, -0.2))))
        .unwrap();
    world.step(DT).unwrap();
    let met = |a: BodyHandle, b: BodyHandle| {
        world
            .events()
            .iter()
            .any(|e| (e.a, e.b) == (a, b) || (e.a, e.b) == (b, a))
    };
    assert_eq!(world.events().len(), 3, "{:?}", world.events());
    assert!(met(mover, resting), "{:?}", world.events());
    let (m, r) = (world.body(mover).unwrap(), world.body(resting).unwrap());
    let gap = distance(m.shape(), m.pose(), r.shape(), r.pose()).distance;
    assert!(gap > 0.0, "the discs overlap by {}", -gap);
}
