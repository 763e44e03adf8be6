//! Islands and sleeping: the 20-base pyramid falls asleep within 3 s and stands asleep for
//! 60 s; a sleeping body gets no swept box, manifold or solver row; each rule that wakes an
//! island (and those that must not); bullets into a sleeping pyramid under both CCD
//! steppers; snapshots and determinism with sleeping bodies.

mod common;

use common::{DT, Rng, state_hash};
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Vector};
use impact_narrowphase::ray::Ray;
use impact_solver::{BodyHandle, CollisionFilter, JointDef, RevoluteJoint, RigidBodyDef};
use impact_stepper::{
    Discrete, FirstTimeOfImpact, Interior, MotionClamping, QueryFilter, Stepper, World,
    WorldSettings,
};
use impact_testkit::scenes;

type W<S> = World<RTreeBroadphase, S>;

/// The pyramid of `base` under stepper `S`, stepped until every box sleeps (at most
/// `max_steps`), with the number of steps that took.
fn asleep_pyramid<S: Stepper + Default>(
    base: usize,
    max_steps: usize,
) -> (W<S>, Vec<BodyHandle>, Option<usize>) {
    let (mut world, handles) = scenes::pyramid(base).build::<RTreeBroadphase, S>().unwrap();
    let boxes = handles[1..].to_vec();
    let mut at = None;
    for step in 0..max_steps {
        world.step(DT).unwrap();
        if boxes.iter().all(|&h| world.is_sleeping(h)) {
            at = Some(step + 1);
            break;
        }
    }
    (world, boxes, at)
}

fn pyramid_sleeps_and_stands<S: Stepper + Default>() {
    let (mut world, boxes, at) = asleep_pyramid::<S>(20, 180);
    let at = at.expect("the pyramid fell asleep within 3 s");
    println!(
        "pyramid of 20 asleep after {at} steps ({:.2} s)",
        at as Real * DT
    );
    let home: Vec<_> = boxes
        .iter()
        .map(|&h| *world.body(h).unwrap().pose())
        .collect();
    for step in 0..3600 {
        let report = world.step(DT).unwrap();
        assert!(world.sleep_events().is_empty(), "a box woke at step {step}");
        assert_eq!(report.sleeping_bodies, boxes.len());
        assert_eq!(report.awake_bodies, 1, "only the ground is given a box");
        assert_eq!(report.manifolds, 0);
        assert_eq!(report.woken_bodies, 0);
    }
    for (&h, home) in boxes.iter().zip(&home) {
        assert_eq!(world.body(h).unwrap().pose(), home, "a sleeping box moved");
    }
}

#[test]
fn pyramid_of_twenty_sleeps_within_three_seconds_and_stands_asleep_for_a_minute() {
    pyramid_sleeps_and_stands::<FirstTimeOfImpact>();
    pyramid_sleeps_and_stands::<MotionClamping>();
    pyramid_sleeps_and_stands::<Discrete>();
}

#[test]
fn the_step_it_falls_asleep_lists_every_box_once() {
    let (mut world, handles) = scenes::pyramid(5)
        .build::<RTreeBroadphase, FirstTimeOfImpact>()
        .unwrap();
    let mut fell = Vec::new();
    for _ in 0..180 {
        world.step(DT).unwrap();
        fell.extend_from_slice(&world.sleep_events().fell_asleep);
    }
    assert_eq!(fell, handles[1..], "one island, every box, in handle order");
}

/// A sleeping body is in no stage: no swept box, no manifold, no solver row. An awake box
/// far away still gets all three.
#[test]
fn a_sleeping_body_gets_no_swept_box_manifold_or_solver_row() {
    let (mut world, boxes, at) = asleep_pyramid::<Discrete>(10, 180);
    assert!(at.is_some());
    let report = world.step(DT).unwrap();
    assert_eq!(report.awake_bodies, 1);
    assert_eq!(report.manifolds, 0);
    assert_eq!(report.stepper.constraints, 0, "no solver row");
    // Not even a candidate pair: the pairs come from the awake bodies' queries.
    assert_eq!(report.pairs, 0);
    // A box dropped far from the pyramid, on the same ground: its own island.
    let far = world
        .create_body(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.5, 0.5).unwrap().into())
                .pose(Isometry::translation(8.0, 0.5)),
        )
        .unwrap();
    let report = world.step(DT).unwrap();
    assert_eq!(report.awake_bodies, 2, "the ground and the new box");
    assert_eq!(report.manifolds, 1, "the new box on the ground");
    assert_eq!(report.stepper.constraints, 1);
    assert!(!world.is_sleeping(far));
    assert!(
        boxes.iter().all(|&h| world.is_sleeping(h)),
        "static contacts link no island"
    );
    for _ in 0..60 {
        world.step(DT).unwrap();
    }
    assert!(world.is_sleeping(far), "the new box fell asleep on its own");
}

fn unit_box(x: Real, y: Real) -> RigidBodyDef {
    RigidBodyDef::new(ConvexPolygon::rectangle(0.5, 0.5).unwrap().into())
        .pose(Isometry::translation(x, y))
}

/// Two boxes resting on a ground, apart (two islands), stepped until both sleep.
fn two_boxes() -> (W<FirstTimeOfImpact>, BodyHandle, BodyHandle, BodyHandle) {
    let mut world = W::<FirstTimeOfImpact>::new(WorldSettings::default()).unwrap();
    let ground = world
        .create_body(
            RigidBodyDef::fixed(ConvexPolygon::rectangle(20.0, 0.5).unwrap().into())
                .pose(Isometry::translation(0.0, -0.5)),
        )
        .unwrap();
    let a = world.create_body(unit_box(-3.0, 0.5)).unwrap();
    let b = world.create_body(unit_box(3.0, 0.5)).unwrap();
    for _ in 0..60 {
        world.step(DT).unwrap();
    }
    assert!(world.is_sleeping(a) && world.is_sleeping(b));
    (world, ground, a, b)
}

#[test]
fn calls_that_change_a_body_wake_its_island_and_no_other() {
    type Call = fn(&mut W<FirstTimeOfImpact>, BodyHandle, BodyHandle);
    let calls: [(&str, Call); 6] = [
        ("set_velocity", |w, a, _| {
            w.set_velocity(a, Vector::new(0.1, 0.0), 0.0).unwrap();
        }),
        ("set_pose", |w, a, _| {
            w.set_pose(a, Isometry::translation(-3.0, 0.6)).unwrap();
        }),
        ("body_mut impulse", |w, a, _| {
            let at = Point::new(-3.0, 0.5);
            w.body_mut(a)
                .unwrap()
                .apply_impulse_at_point(Vector::new(0.0, 1.0), at)
                .unwrap();
        }),
        ("set_filter", |w, a, _| {
            w.set_filter(a, CollisionFilter::new(2, u64::MAX)).unwrap();
        }),
        ("wake", |w, a, _| {
            assert!(w.wake(a).unwrap());
        }),
        ("joint", |w, a, ground| {
            let def = JointDef::at_world_anchor(
                w.body_set(),
                ground,
                a,
                Point::new(-3.0, 1.0),
                RevoluteJoint::default().into(),
            )
            .unwrap();
            w.create_joint(def).unwrap();
        }),
    ];
    for (name, call) in calls {
        let (mut world, ground, a, b) = two_boxes();
        call(&mut world, a, ground);
        assert!(!world.is_sleeping(a), "{name} woke nothing");
        assert!(world.is_sleeping(b), "{name} woke the other island");
        world.step(DT).unwrap();
        assert_eq!(world.sleep_events().woke, [a], "{name}");
    }
}

#[test]
fn a_joint_changed_or_removed_wakes_both_bodies() {
    let (mut world, _, a, b) = two_boxes();
    let def = JointDef::at_world_anchor(
        world.body_set(),
        a,
        b,
        Point::new(0.0, 0.5),
        RevoluteJoint::default().into(),
    )
    .unwrap();
    let joint = world.create_joint(def).unwrap();
    assert!(!world.is_sleeping(a) && !world.is_sleeping(b));
    for _ in 0..60 {
        world.step(DT).unwrap();
    }
    assert!(
        world.is_sleeping(a) && world.is_sleeping(b),
        "one island, asleep"
    );
    world.joint_mut(joint).unwrap().set_enabled(true);
    assert!(!world.is_sleeping(a) && !world.is_sleeping(b));
    for _ in 0..60 {
        world.step(DT).unwrap();
    }
    assert!(world.is_sleeping(a));
    world.remove_joint(joint).unwrap();
    assert!(!world.is_sleeping(a) && !world.is_sleeping(b));
}

#[test]
fn removing_a_body_wakes_what_it_touched() {
    let (mut world, boxes, at) = asleep_pyramid::<FirstTimeOfImpact>(4, 180);
    assert!(at.is_some());
    world.remove_body(boxes[0]).unwrap();
    assert!(boxes[1..].iter().all(|&h| !world.is_sleeping(h)));
    world.step(DT).unwrap();
    assert_eq!(world.sleep_events().woke.len(), boxes.len() - 1);
}

#[test]
fn removing_the_floor_wakes_what_rests_on_it() {
    let (mut world, ground, a, b) = two_boxes();
    assert_eq!(
        world.touching_pairs().len(),
        2,
        "the sleeping pairs go on touching"
    );
    world.remove_body(ground).unwrap();
    assert!(!world.is_sleeping(a) && !world.is_sleeping(b));
    for _ in 0..60 {
        world.step(DT).unwrap();
    }
    assert!(
        world.body(a).unwrap().pose().translation.y < -4.0,
        "it falls"
    );
}

#[test]
fn an_awake_body_that_starts_touching_wakes_the_island() {
    let (mut world, boxes, at) = asleep_pyramid::<FirstTimeOfImpact>(6, 180);
    assert!(at.is_some());
    let ball = world
        .create_body(
            RigidBodyDef::new(Circle::new(0.25).unwrap().into())
                .pose(Isometry::translation(0.0, 8.0)),
        )
        .unwrap();
    let mut woke_at = None;
    for step in 0..120 {
        world.step(DT).unwrap();
        if !world.sleep_events().woke.is_empty() {
            woke_at = Some(step);
            assert_eq!(world.sleep_events().woke, boxes, "the whole island wakes");
            break;
        }
        assert!(boxes.iter().all(|&h| world.is_sleeping(h)));
    }
    let woke_at = woke_at.expect("the ball woke the pyramid");
    // It woke in the step the ball came within reach, not before: the ball fell from 8
    // onto a top at 6, 2 m in about 0.63 s.
    assert!((30..45).contains(&woke_at), "woke at step {woke_at}");
    let y = world.body(ball).unwrap().pose().translation.y;
    assert!(y > 6.0, "the ball rests on the top, at {y}");
}

#[test]
fn queries_see_sleeping_bodies_and_do_not_wake_them() {
    let (world, _, a, _) = two_boxes();
    let ray = Ray::new(Point::new(-10.0, 0.5), Vector::new(20.0, 0.0));
    let hit = world
        .cast_ray(&ray, Interior::Solid, &QueryFilter::default())
        .unwrap()
        .unwrap();
    assert_eq!(hit.shape.body, a);
    assert!(world.is_sleeping(a));
}

#[test]
fn sensors_neither_wake_nor_join_islands() {
    let (mut world, _, a, b) = two_boxes();
    // A kinematic sensor sweeping through both boxes.
    world
        .create_body(
            RigidBodyDef::kinematic(ConvexPolygon::rectangle(0.5, 2.0).unwrap().into())
                .pose(Isometry::translation(-6.0, 1.0))
                .linvel(Vector::new(6.0, 0.0))
                .sensor(true),
        )
        .unwrap();
    let mut sensed = 0;
    for _ in 0..120 {
        world.step(DT).unwrap();
        let events = world.sensor_events().begin();
        sensed += events
            .iter()
            .filter(|e| e.visitor.body == a || e.visitor.body == b)
            .count();
        assert!(world.is_sleeping(a) && world.is_sleeping(b));
    }
    assert_eq!(sensed, 2, "the sensor saw both sleeping boxes");
}

#[test]
fn a_moving_kinematic_body_keeps_its_island_awake() {
    for speed in [0.0, 0.02] {
        let mut world = W::<FirstTimeOfImpact>::new(WorldSettings::default()).unwrap();
        world
            .create_body(
                RigidBodyDef::kinematic(ConvexPolygon::rectangle(5.0, 0.5).unwrap().into())
                    .pose(Isometry::translation(0.0, -0.5))
                    .linvel(Vector::new(speed, 0.0)),
            )
            .unwrap();
        let rider = world.create_body(unit_box(0.0, 0.5)).unwrap();
        for _ in 0..180 {
            world.step(DT).unwrap();
        }
        // At 0.02 m/s the rider moves slower than its threshold, and would sleep but for
        // the platform under it.
        assert_eq!(
            world.is_sleeping(rider),
            speed == 0.0,
            "platform at {speed}"
        );
    }
}

#[test]
fn bodies_that_cannot_sleep_keep_their_island_awake() {
    let (mut world, handles) = scenes::stack(3)
        .build::<RTreeBroadphase, FirstTimeOfImpact>()
        .unwrap();
    world.body_mut(handles[2]).unwrap().set_can_sleep(false);
    for _ in 0..180 {
        world.step(DT).unwrap();
    }
    assert!(handles[1..].iter().all(|&h| !world.is_sleeping(h)));
    // And with sleeping off, nothing sleeps; turning it off wakes every island.
    let (mut world, boxes, at) = asleep_pyramid::<FirstTimeOfImpact>(4, 180);
    assert!(at.is_some());
    let off = WorldSettings {
        sleeping: false,
        ..*world.settings()
    };
    world.set_settings(off).unwrap();
    assert!(boxes.iter().all(|&h| !world.is_sleeping(h)));
    for _ in 0..120 {
        world.step(DT).unwrap();
    }
    assert_eq!(world.sleeping_count(), 0);
}

#[test]
fn bad_sleep_settings_are_refused_by_name() {
    let settings = WorldSettings {
        time_to_sleep: -1.0,
        ..WorldSettings::default()
    };
    let e = W::<FirstTimeOfImpact>::new(settings).unwrap_err();
    assert!(e.to_string().starts_with("settings.time_to_sleep"), "{e}");
    let mut world = W::<FirstTimeOfImpact>::new(WorldSettings::default()).unwrap();
    let e = world
        .create_body(unit_box(0.0, 0.0).sleep_threshold(Real::NAN))
        .unwrap_err();
    assert!(e.to_string().starts_with("body.sleep_threshold"), "{e}");
}

/// A bullet of radius 0.05 at 10,000 units/s fired level into a sleeping 20-base pyramid,
/// at a seeded row and height and from a seeded distance (so its impact falls anywhere in
/// the step): the pyramid wakes, and the bullet never passes through the first box on its
/// line (never ends a step beyond its centre while that box is still near its place) nor
/// ends a step inside a box.
/// The next shot of `rng` at the pyramid of `base` with a bullet of radius `r`: the row it
/// is aimed at, its height, and where it starts (1 to 151 units left of the row).
fn pyramid_shot(rng: &mut Rng, base: usize, r: Real) -> (usize, Real, Real) {
    let row = (rng.unit() * (base - 1) as Real) as usize;
    let y = row as Real + 0.1 + 0.8 * rng.unit();
    let x0 = -0.5 * (base - row - 1) as Real;
    (row, y, x0 - 0.5 - r - 1.0 - 150.0 * rng.unit())
}

fn bullets_into_a_sleeping_pyramid<S: Stepper + Default + Clone>(shots: usize, seed: u64) {
    const BASE: usize = 20;
    const R: Real = 0.05;
    let (asleep, boxes, at) = asleep_pyramid::<S>(BASE, 180);
    assert!(at.is_some());
    let mut rng = Rng::new(seed);
    for shot in 0..shots {
        let mut world = asleep.clone();
        let (row, y, start) = pyramid_shot(&mut rng, BASE, R);
        let count = BASE - row;
        let x0 = -0.5 * (count - 1) as Real;
        let target = boxes[(0..row).map(|i| BASE - i).sum::<usize>()];
        let home = world.body(target).unwrap().pose().translation.vector;
        assert!((home.x - x0).abs() < 0.05 && (home.y - (row as Real + 0.5)).abs() < 0.05);
        let bullet = world
            .create_body(
                RigidBodyDef::new(Circle::new(R).unwrap().into())
                    .pose(Isometry::translation(start, y))
                    .linvel(Vector::new(10_000.0, 0.0))
                    .ccd(true),
            )
            .unwrap();
        let mut woke = false;
        for step in 0..4 {
            world.step(DT).unwrap();
            woke |= !world.sleep_events().woke.is_empty();
            let b = *world.body(bullet).unwrap().pose();
            let t = world.body(target).unwrap().pose().translation.vector;
            if (t - home).norm() < 0.5 {
                assert!(
                    b.translation.x < t.x,
                    "shot {shot} (row {row}, y {y}): the bullet at {:?} passed the box at {t:?} \
                     in step {step}",
                    b.translation.vector
                );
            }
            let disc = Circle::new(R).unwrap().into();
            for &h in &boxes {
                let body = world.body(h).unwrap();
                let d = impact_narrowphase::distance(&disc, &b, body.shape(), body.pose());
                // The boxes it hits shove each other; its centre never ends in one.
                assert!(
                    d.distance > -R,
                    "shot {shot}: the bullet ends step {step} {:.3} inside a box",
                    -d.distance
                );
            }
        }
        assert!(woke, "shot {shot}: the pyramid never woke");
    }
}

#[test]
fn bullets_into_a_sleeping_pyramid_wake_it_and_never_pass_through() {
    bullets_into_a_sleeping_pyramid::<FirstTimeOfImpact>(1_000, 31);
    bullets_into_a_sleeping_pyramid::<MotionClamping>(1_000, 32);
}

/// Shot 84 of seed 32 under `MotionClamping`: in its third step the bullet, knocked up to 7
/// units/s, is stopped at 0.44 of the step against a box spinning off the pyramid at 3.3
/// rad/s, which comes on at 8.7 units/s. The box is stopped where they meet, at the same
/// fraction (both are reported clamped), and the bullet ends the step clear of it: left on
/// its target, the box ended with the bullet's centre 0.069 inside it.
#[test]
fn a_bullet_stopped_against_a_box_spinning_off_the_pyramid_is_not_run_over() {
    const BASE: usize = 20;
    const R: Real = 0.05;
    let (mut world, boxes, at) = asleep_pyramid::<MotionClamping>(BASE, 180);
    assert!(at.is_some());
    let mut rng = Rng::new(32);
    let mut shot = pyramid_shot(&mut rng, BASE, R);
    for _ in 0..84 {
        shot = pyramid_shot(&mut rng, BASE, R);
    }
    let (_, y, start) = shot;
    let bullet = world
        .create_body(
            RigidBodyDef::new(Circle::new(R).unwrap().into())
                .pose(Isometry::translation(start, y))
                .linvel(Vector::new(10_000.0, 0.0))
                .ccd(true),
        )
        .unwrap();
    let disc = Circle::new(R).unwrap().into();
    let spinning = boxes[195];
    for step in 0..4 {
        let report = world.step(DT).unwrap();
        let b = *world.body(bullet).unwrap().pose();
        if step == 2 {
            let clamped: Vec<_> = report
                .stepper
                .clamped
                .iter()
                .map(|c| (c.body, c.fraction))
                .collect();
            assert_eq!(clamped.len(), 2, "{clamped:?}");
            assert_eq!((clamped[0].0, clamped[1].0), (spinning, bullet));
            assert_eq!(clamped[0].1, clamped[1].1);
            let body = world.body(spinning).unwrap();
            let d = impact_narrowphase::distance(&disc, &b, body.shape(), body.pose());
            assert!(
                d.distance > 0.0,
                "the box ends {:.4} over the bullet",
                -d.distance
            );
        }
        for &h in &boxes {
            let body = world.body(h).unwrap();
            let d = impact_narrowphase::distance(&disc, &b, body.shape(), body.pose());
            assert!(
                d.distance > -R,
                "step {step}: {:.3} inside {h:?}",
                -d.distance
            );
        }
    }
}

#[cfg(feature = "serde")]
/// A world with sleeping islands and an awake one: a snapshot taken while the pyramid
/// sleeps continues bit for bit, sleep state included, through a ball that wakes it.
fn sleeping_snapshot_continues<S>()
where
    S: Stepper + Default + serde::Serialize + serde::de::DeserializeOwned,
{
    let (mut first, boxes, at) = asleep_pyramid::<S>(8, 180);
    assert!(at.is_some());
    let (mut straight, _, _) = asleep_pyramid::<S>(8, 180);
    for w in [&mut first, &mut straight] {
        w.create_body(
            RigidBodyDef::new(Circle::new(0.25).unwrap().into())
                .pose(Isometry::translation(0.3, 12.0)),
        )
        .unwrap();
        w.step(DT).unwrap();
    }
    let json = serde_json::to_string(&first).unwrap();
    drop(first);
    let mut restored: W<S> = serde_json::from_str(&json).unwrap();
    assert_eq!(restored.sleeping_count(), boxes.len());
    assert_eq!(restored.contact_cache(), straight.contact_cache());
    // The ball may come to rest on the top box still rolling, and roll off its edge tens of
    // seconds later (nothing slows a ball rolling on a level face): the run goes on until the
    // pyramid has slept again for a second, or 60 s.
    let mut woke = false;
    let mut asleep_for = 0;
    for step in 0..3600 {
        straight.step(DT).unwrap();
        restored.step(DT).unwrap();
        assert_eq!(
            restored.sleep_events(),
            straight.sleep_events(),
            "step {step}"
        );
        assert_eq!(
            restored.contact_events(),
            straight.contact_events(),
            "step {step}"
        );
        assert_eq!(state_hash(&restored), state_hash(&straight), "step {step}");
        woke |= !restored.sleep_events().woke.is_empty();
        for &h in &boxes {
            assert_eq!(restored.is_sleeping(h), straight.is_sleeping(h));
            assert_eq!(
                restored.body_set().sleep_time(h).to_bits(),
                straight.body_set().sleep_time(h).to_bits()
            );
        }
        if woke && restored.sleeping_count() > 0 {
            asleep_for += 1;
            if asleep_for == 60 {
                break;
            }
        } else {
            asleep_for = 0;
        }
    }
    assert!(woke, "the ball woke the pyramid");
    assert!(restored.sleeping_count() > 0, "and it fell asleep again");
    assert_eq!(restored.contact_cache(), straight.contact_cache());
}

#[cfg(feature = "serde")]
#[test]
fn snapshots_of_sleeping_worlds_continue_bit_for_bit() {
    sleeping_snapshot_continues::<FirstTimeOfImpact>();
    sleeping_snapshot_continues::<MotionClamping>();
    sleeping_snapshot_continues::<Discrete>();
}

#[test]
fn sleeping_runs_are_deterministic() {
    let run = || {
        let (mut world, _, _) = asleep_pyramid::<FirstTimeOfImpact>(10, 180);
        world
            .create_body(
                RigidBodyDef::new(Circle::new(0.1).unwrap().into())
                    .pose(Isometry::translation(-30.0, 3.3))
                    .linvel(Vector::new(300.0, 0.0))
                    .ccd(true),
            )
            .unwrap();
        let mut log = Vec::new();
        for _ in 0..300 {
            world.step(DT).unwrap();
            log.push((state_hash(&world), world.sleep_events().clone()));
        }
        log
    };
    assert_eq!(run(), run());
}

/// `FirstTimeOfImpact` that fails its step on demand, after the world's wake pass.
#[derive(Debug, Clone, Default, PartialEq)]
struct FailsOnDemand {
    inner: FirstTimeOfImpact,
    fail: bool,
}

impl Stepper for FailsOnDemand {
    type Report = impact_stepper::FirstToiReport;

    fn advance<B: impact_broadphase::Broadphase>(
        &mut self,
        ctx: impact_stepper::StepContext<'_, B>,
    ) -> Result<Self::Report, impact_stepper::WorldError> {
        if self.fail {
            return Err(impact_stepper::WorldError::OutOfRange {
                field: "test.fail".to_owned(),
                value: 1.0,
                expected: "a step that does not fail",
            });
        }
        self.inner.advance(ctx)
    }

    fn needs_world_pass(&mut self, preview: &impact_stepper::StepPreview<'_>) -> bool {
        self.inner.needs_world_pass(preview)
    }
}

/// A step that fails after its wake pass woke a sleeping pyramid (a bullet within reach)
/// leaves the sleeping as it was: every box asleep with its time at rest, the cache and
/// touching pairs as before; the next step is the one the world would have taken.
#[test]
fn a_failed_step_puts_the_islands_it_woke_back_to_sleep() {
    let (mut world, boxes, at) = asleep_pyramid::<FailsOnDemand>(8, 180);
    assert!(at.is_some());
    world
        .create_body(
            RigidBodyDef::new(Circle::new(0.05).unwrap().into())
                .pose(Isometry::translation(-20.0, 0.5))
                .linvel(Vector::new(10_000.0, 0.0))
                .ccd(true),
        )
        .unwrap();
    let before = world.clone();
    world.stepper_mut().fail = true;
    let err = world.step(DT).unwrap_err();
    assert!(err.to_string().starts_with("test.fail"), "{err}");
    for &h in &boxes {
        assert!(world.is_sleeping(h));
        assert_eq!(
            world.body_set().sleep_time(h).to_bits(),
            before.body_set().sleep_time(h).to_bits()
        );
    }
    assert_eq!(world.sleeping_count(), before.sleeping_count());
    assert_eq!(world.contact_cache(), before.contact_cache());
    assert_eq!(world.touching_pairs(), before.touching_pairs());
    world.stepper_mut().fail = false;
    let mut straight = before;
    for step in 0..3 {
        let a = world.step(DT).unwrap();
        let b = straight.step(DT).unwrap();
        assert_eq!(a, b, "step {step}");
        assert_eq!(world.sleep_events(), straight.sleep_events(), "step {step}");
        assert_eq!(state_hash(&world), state_hash(&straight), "step {step}");
    }
    assert!(
        boxes.iter().any(|&h| !world.is_sleeping(h)),
        "the bullet woke the pyramid"
    );
}

/// A light CCD disc at rest knocked inside a step by a heavy one at `speed` (the light one
/// leaves at up to twice that, farther than any body could reach from its start velocities)
/// toward a box `gap` units on, asleep if `sleeping`. Returns whether the box woke, the
/// light disc's lead over the box's centre at its worst over three steps, and the final
/// state hash.
fn knocked_toward_a_box<S: Stepper + Default>(
    sleeping: bool,
    (heavy, speed, gap, dy): (Real, Real, Real, Real),
) -> (bool, Real, u64) {
    let mut settings = WorldSettings::with_gravity(Vector::zeros());
    settings.sleeping = sleeping;
    let mut w: W<S> = World::new(settings).unwrap();
    let target = w.create_body(unit_box(2.0 + gap, dy)).unwrap();
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    assert_eq!(w.is_sleeping(target), sleeping);
    let disc = |x: Real, density: Real| {
        RigidBodyDef::new(Circle::new(0.1).unwrap().into())
            .pose(Isometry::translation(x, 0.0))
            .density(density)
            .restitution(1.0)
            .ccd(true)
            .can_sleep(false)
    };
    w.create_body(disc(-1.0, heavy).linvel(Vector::new(speed, 0.0)))
        .unwrap();
    let light = w.create_body(disc(2.0, 1.0)).unwrap();
    let mut woke = false;
    let mut lead = Real::MIN;
    for _ in 0..3 {
        w.step(DT).unwrap();
        woke |= w.sleep_events().woke.contains(&target);
        let x = w.body(light).unwrap().pose().translation.x;
        lead = lead.max(x - w.body(target).unwrap().pose().translation.x);
    }
    (woke, lead, state_hash(&w))
}

/// A sleeping body is met as an awake one would be by a body knocked fast inside a step:
/// the step is taken again with its island awake, so the world ends exactly as it would
/// have with sleeping off, over random mass ratios, speeds and distances, under both CCD
/// steppers; and in the case a user met (a 1,000-fold heavier disc at 600 units/s, the box
/// 13 units on, which the light disc passed while the box slept), the disc stops at it.
#[test]
fn a_body_knocked_fast_inside_a_step_meets_a_sleeping_one_as_an_awake_one() {
    fn both<S: Stepper + Default>(name: &str, case: (Real, Real, Real, Real)) {
        let (_, lead, asleep) = knocked_toward_a_box::<S>(true, case);
        let (_, lead_awake, awake) = knocked_toward_a_box::<S>(false, case);
        let what = format!("{name}, case {case:?}");
        assert_eq!(asleep, awake, "{what}: ends as with sleeping off");
        assert_eq!(lead.to_bits(), lead_awake.to_bits(), "{what}");
    }
    let user = (1000.0, 600.0, 13.0, 0.0);
    for (name, (woke, lead, _)) in [
        (
            "FirstTimeOfImpact",
            knocked_toward_a_box::<FirstTimeOfImpact>(true, user),
        ),
        (
            "MotionClamping",
            knocked_toward_a_box::<MotionClamping>(true, user),
        ),
    ] {
        assert!(woke, "{name}: the box woke");
        assert!(
            lead < 0.0,
            "{name}: the light disc ended {lead} past the box's centre"
        );
    }
    let mut rng = Rng::new(41);
    for _ in 0..40 {
        let case = (
            10.0 + 990.0 * rng.unit(),
            200.0 + 700.0 * rng.unit(),
            4.0 + 26.0 * rng.unit(),
            0.4 * (rng.unit() - 0.5),
        );
        both::<FirstTimeOfImpact>("FirstTimeOfImpact", case);
        both::<MotionClamping>("MotionClamping", case);
    }
}
