//! The rain of fast discs onto thin segments (`scenes::rain`, the scene of the rain bench) and
//! its tunnel counter (`scenes::TunnelCounter`).
//!
//! Invariants: the scene is deterministic, its discs start apart, inside the box of the floor
//! and walls, with the ccd flag and their launch velocities in range; under `Discrete` most
//! discs of a sparse rain pass through a segment, so the counter can fail; and the counter
//! counts what its definition says on hand-placed positions: a crossing, not a path that may
//! have gone round an open end, a body that left the box, a lost body, each body once; and
//! `scenes::CrossingCounter` finds discs of the dense rain through each other under
//! `Discrete`.
//!
//! The rain's target, no disc through under `MotionClamping`, is checked here on 200 discs
//! (seed 6) and 1,000 discs (seed 8, which lets two through if the stepper does not stop
//! contacts the soft solver pushes through) for 2 s; `first_toi.rs` checks it for
//! `FirstTimeOfImpact`. A `CourseRecorder` gives the counter `FirstTimeOfImpact`'s turns. The
//! rain section of `docs/benchmarks.md` has the counts at 1,000 and 10,000 discs.
mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Circle, Isometry, Point, Real, Segment, Vector};
use impact_solver::{BodyType, RigidBodyDef};
use impact_stepper::{Discrete, FirstTimeOfImpact, MotionClamping, Stepper, WorldSettings};
use impact_testkit::scenes::{self, CourseRecorder, Scene, TunnelCounter, Wall};

/// Steps the target runs for: 2 s, long enough for every disc to land.
const STEPS: usize = 120;
/// Steps the `Discrete` runs take: 0.5 s, long after every disc of the sparse rain has met
/// the field for the first time (the column is 5 m tall and the slowest disc falls 1.7 m a
/// step).
const FIRST_LANDINGS: usize = 30;
/// Discs of the sparse rain.
const SPARSE: usize = 20;
const SEEDS: [u64; 4] = [0, 1, 2, 3];

/// Runs `scene` under stepper `S` for `steps` steps, counting tunnelled discs after each.
fn run<S: Stepper + Default>(scene: &Scene, steps: usize) -> TunnelCounter {
    let (mut world, _) = scene.build::<RTreeBroadphase, S>().expect("valid scene");
    let mut counter = TunnelCounter::new(scene);
    for _ in 0..steps {
        world.step(DT).expect("valid step");
        counter.observe_world(&world);
    }
    counter
}

#[test]
fn the_rain_is_deterministic_and_its_discs_start_apart_fast_and_inside() {
    let scene = scenes::rain(200, 6);
    assert_eq!(scene, scenes::rain(200, 6), "same seed, same scene");
    assert_ne!(scene, scenes::rain(200, 7), "the seed moves the discs");

    let field = scenes::rain_field(200);
    let segments: Vec<&Segment> = field.segments().collect();
    assert_eq!(scene.bodies.len(), segments.len() + 200);
    for (def, segment) in scene.bodies.iter().zip(&segments) {
        assert_eq!(def.body_type, BodyType::Static);
        assert_eq!(def.shape, (**segment).into());
    }
    // Rows lie inside the box, and their gaps let a disc through.
    for s in &field.rows {
        for p in [s.a(), s.b()] {
            assert!(
                p.x.abs() < field.half_width && p.y > 0.0,
                "{p:?} inside the box"
            );
        }
    }
    for pair in field.rows.windows(2) {
        let gap = pair[1].a().x.min(pair[1].b().x) - pair[0].a().x.max(pair[0].b().x);
        assert!(
            !(0.0..scenes::RAIN_SEGMENT_GAP - 1e-9).contains(&gap),
            "gap {gap} between neighbours of a row (negative: a new row)"
        );
    }

    let discs: Vec<&RigidBodyDef> = scene.bodies[segments.len()..].iter().collect();
    for d in &discs {
        assert_eq!(d.body_type, BodyType::Dynamic);
        assert!(d.ccd, "every disc has the ccd flag");
        assert_eq!(
            d.shape,
            Circle::new(scenes::RAIN_DISC_RADIUS).unwrap().into()
        );
        let speed = d.linvel.norm();
        assert!((scenes::RAIN_MIN_SPEED..scenes::RAIN_MAX_SPEED).contains(&speed));
        let angle = d.linvel.x.atan2(-d.linvel.y);
        assert!(angle.abs() <= scenes::RAIN_MAX_ANGLE + 1e-12, "{angle}");
        let p = d.pose.translation.vector;
        assert!(p.x.abs() < field.half_width && p.y > field.column_bottom());
    }
    let mut closest = Real::INFINITY;
    for (i, a) in discs.iter().enumerate() {
        for b in &discs[..i] {
            closest = closest.min((a.pose.translation.vector - b.pose.translation.vector).norm());
        }
    }
    assert!(
        closest >= 4.0 * scenes::RAIN_DISC_RADIUS,
        "discs start two diameters apart or more, closest {closest}"
    );
}

/// 200 discs on seed 6, and 1,000 on seed 8, which lets two discs through unless
/// `MotionClamping` stops contacts the soft solver pushes through: discs at the bottom of
/// piles, squeezed through the segment under them.
#[test]
fn motion_clamping_lets_no_disc_of_the_rain_through() {
    for (discs, seed) in [(200, 6), (1_000, 8)] {
        let scene = scenes::rain(discs, seed);
        let counter = run::<MotionClamping>(&scene, STEPS);
        assert_eq!(counter.bodies(), discs);
        assert_eq!(counter.tunnelled(), 0, "{discs} discs, seed {seed}");
    }
}

/// The dense rain under `Discrete`, whose discs move on (nearly) straight lines within a
/// step: fast discs pass through each other where the speculative contacts of the step's
/// start did not see them coming, so `CrossingCounter` can fail on a real engine
/// (`first_toi.rs` holds `FirstTimeOfImpact` to none).
#[test]
fn discrete_lets_discs_of_the_dense_rain_through_each_other() {
    let scene = scenes::rain(200, 6);
    let (mut world, _) = scene
        .build::<RTreeBroadphase, Discrete>()
        .expect("valid scene");
    let mut crossings = scenes::CrossingCounter::new(&scene);
    assert_eq!(crossings.bodies(), 200);
    for _ in 0..STEPS {
        world.step(DT).expect("valid step");
        crossings.observe_world(&world, &[]);
    }
    assert!(
        crossings.crossings() > 10,
        "{} crossed",
        crossings.crossings()
    );
    assert_eq!(crossings.bent(), 0, "no turns given, every pair is judged");
}

#[test]
fn discrete_lets_many_discs_of_a_sparse_rain_through() {
    let mut total = 0;
    for seed in SEEDS {
        let scene = scenes::rain(SPARSE, seed);
        let counter = run::<Discrete>(&scene, FIRST_LANDINGS);
        assert_eq!(counter.bodies(), SPARSE);
        assert!(counter.tunnelled() > 0, "seed {seed}: none tunnelled");
        assert!(counter.escaped() <= counter.tunnelled());
        total += counter.tunnelled();
    }
    // Speculative contacts catch a disc whose step starts close enough to a segment; the
    // others pass.
    assert!(total > SEEDS.len() * SPARSE / 3, "{total} tunnelled");
}

/// A scene of static segments and discs at `discs`, for hand-placed positions.
fn hand_scene(segments: &[(Point, Point)], discs: &[Point]) -> Scene {
    let mut bodies: Vec<RigidBodyDef> = segments
        .iter()
        .map(|&(a, b)| RigidBodyDef::fixed(Segment::new(a, b).unwrap().into()))
        .collect();
    bodies.extend(discs.iter().map(|p| {
        RigidBodyDef::new(Circle::new(0.05).unwrap().into()).pose(Isometry::translation(p.x, p.y))
    }));
    Scene {
        name: "hand".to_owned(),
        settings: WorldSettings::with_gravity(Vector::zeros()),
        bodies,
    }
}

fn p(x: Real, y: Real) -> Point {
    Point::new(x, y)
}

#[test]
fn the_counter_counts_a_crossing_and_not_a_path_that_may_have_gone_round_an_open_end() {
    // One segment from (-1, 0) to (1, 0); both ends open.
    let scene = hand_scene(&[(p(-1.0, 0.0), p(1.0, 0.0))], &[p(0.0, 0.5), p(0.9, 3.5)]);
    let mut counter = TunnelCounter::new(&scene);
    // Disc 1 falls 3 units: its path next step may be that long.
    assert_eq!(counter.observe(&[p(0.0, 0.5), p(0.9, 0.5)]), 0);
    // Disc 0 crosses the middle: going round an end takes more than 2 sqrt(1.25) > 1.
    // Disc 1 crosses 0.1 from the end: a 3-unit path could have gone round it.
    assert_eq!(counter.observe(&[p(0.0, -0.5), p(0.9, -0.5)]), 1);
    assert!(counter.is_tunnelled(0) && !counter.is_tunnelled(1));
    // Each body counts once, and nothing left the box here.
    assert_eq!(counter.observe(&[p(0.0, 0.5), p(0.9, -0.4)]), 0);
    assert_eq!((counter.tunnelled(), counter.escaped()), (1, 0));

    // The same crossing 0.1 from the end, by a disc whose steps are short, is counted.
    let scene = hand_scene(&[(p(-1.0, 0.0), p(1.0, 0.0))], &[p(0.9, 0.5)]);
    let mut counter = TunnelCounter::new(&scene);
    assert_eq!(counter.observe(&[p(0.9, -0.5)]), 1);
}

#[test]
fn the_counter_does_not_let_a_path_round_a_shared_end() {
    // Two collinear segments sharing (0, 0): nothing goes round there, however long the step.
    let shared = [(p(-5.0, 0.0), p(0.0, 0.0)), (p(0.0, 0.0), p(5.0, 0.0))];
    let scene = hand_scene(&shared, &[p(-0.05, 5.0)]);
    let mut counter = TunnelCounter::new(&scene);
    assert_eq!(counter.observe(&[p(-0.05, 0.5)]), 0);
    assert_eq!(counter.observe(&[p(-0.05, -0.5)]), 1);

    // The same steps by the end of a lone segment: a 4.5-unit path could have gone round.
    let scene = hand_scene(&shared[..1], &[p(-0.05, 5.0)]);
    let mut counter = TunnelCounter::new(&scene);
    assert_eq!(counter.observe(&[p(-0.05, 0.5)]), 0);
    assert_eq!(counter.observe(&[p(-0.05, -0.5)]), 0);
}

#[test]
fn the_counter_judges_a_path_with_turns_leg_by_leg() {
    // One segment from (-1, 0) to (1, 0), both ends open; the discs are slow at both
    // observations, so without their turns the usual rule allows them only short paths.
    let segment = [(p(-1.0, 0.0), p(1.0, 0.0))];
    let start = [p(0.9, 0.5), p(0.0, 0.5), p(-0.5, 0.5)];
    let scene = hand_scene(&segment, &start);
    let still = [Vector::zeros(); 3];

    // Disc 0 goes out round the right end and back under the segment: its chord crosses
    // 0.1 from the end, which a slow disc's short path could not have gone round, so
    // without the turn it counts. Disc 1 turns on the near side and comes back: its chord
    // crosses nothing, yet its second leg goes through the middle and its third back: it
    // passed through twice within the step and is counted. Disc 2 does not turn.
    let end = [p(0.9, -0.5), p(0.0, 0.4), p(-0.5, 0.3)];
    let turns = [
        (1, p(0.0, -0.3)),
        (0, p(1.2, 0.5)),
        (0, p(1.2, -0.5)),
        (1, p(0.0, -0.2)),
    ];
    let mut counter = TunnelCounter::new(&scene);
    assert_eq!(counter.observe_moving_via(&end, &still, DT, &turns), 1);
    assert!(!counter.is_tunnelled(0) && counter.is_tunnelled(1) && !counter.is_tunnelled(2));
    let mut without = TunnelCounter::new(&scene);
    assert_eq!(without.observe_moving(&end, &still, DT), 1);
    assert!(without.is_tunnelled(0) && !without.is_tunnelled(1));

    // The next observation goes on from where the turned discs ended: disc 0 is below the
    // segment now, and rising back through its middle counts, with turns or without.
    let back = [p(0.0, 0.5), p(0.0, 0.4), p(-0.5, -0.3)];
    assert_eq!(counter.observe_moving_via(&back, &still, DT, &[]), 2);
    assert_eq!((counter.tunnelled(), counter.escaped()), (3, 0));

    // A leg that leaves the box counts as an escape even if the path comes back.
    let scene = scenes::rain(1, 1);
    let inside = Point::from(scene.bodies.last().unwrap().pose.translation.vector);
    let mut counter = TunnelCounter::new(&scene);
    let below = p(inside.x, -1.0);
    assert_eq!(
        counter.observe_moving_via(&[inside], &[Vector::zeros()], DT, &[(0, below)]),
        1
    );
    assert_eq!((counter.tunnelled(), counter.escaped()), (1, 1));
}

#[test]
fn a_course_recorder_changes_nothing_and_sees_the_turns_of_first_time_of_impact() {
    // The dense rain: discs knock each other about inside steps.
    let scene = scenes::rain(200, 6);
    let (mut plain, _) = scene
        .build::<RTreeBroadphase, FirstTimeOfImpact>()
        .expect("valid scene");
    let (mut recorded, _) = scene
        .build::<RTreeBroadphase, FirstTimeOfImpact>()
        .expect("valid scene");
    let mut recorder = CourseRecorder::new(&recorded);
    let mut counter = TunnelCounter::new(&scene);
    let mut turns = 0;
    let mut still_pairs = 0;
    for _ in 0..60 {
        plain.step(DT).expect("valid step");
        let report = recorded.step_with(DT, &mut recorder).expect("valid step");
        // Two bodies per impact, less the static ones.
        let dynamic_sides: usize = recorded
            .events()
            .iter()
            .map(|e| {
                [e.a, e.b]
                    .iter()
                    .filter(|h| recorded.body(**h).is_some_and(|b| b.is_dynamic()))
                    .count()
            })
            .sum();
        assert_eq!(recorder.turns().len(), dynamic_sides);
        assert_eq!(report.stepper.events, recorded.events().len());
        turns += recorder.turns().len();
        still_pairs += report.stepper.still_pairs;
        counter.observe_world_via(&recorded, &mut recorder);
        assert!(recorder.turns().is_empty(), "observing forgets the turns");
        for ((_, a), (_, b)) in plain.bodies().zip(recorded.bodies()) {
            assert_eq!(a.pose(), b.pose(), "bit for bit");
            assert_eq!(a.linvel(), b.linvel());
        }
    }
    assert!(turns > 100, "the rain turns discs inside steps: {turns}");
    // Stopped discs in piles skip their stopped neighbours; in a debug build each skipped
    // pair is asked in full and must have nothing to plan.
    assert!(
        still_pairs > 100,
        "stopped discs meet stopped discs: {still_pairs}"
    );
    assert_eq!(counter.tunnelled(), 0);
}

#[test]
fn the_counter_counts_bodies_that_leave_the_box_or_are_lost() {
    let field = scenes::rain_field(0);
    let scene = scenes::rain(3, 1);
    let mut counter = TunnelCounter::new(&scene);
    let start: Vec<Point> = scene.bodies[scene.bodies.len() - 3..]
        .iter()
        .map(|d| Point::from(d.pose.translation.vector))
        .collect();
    // Below the floor, beyond a wall, and lost: counted whatever the path.
    let outside = [
        p(start[0].x, -0.01),
        p(field.half_width + 0.01, 100.0),
        p(Real::NAN, 1.0),
    ];
    assert_eq!(counter.observe(&outside), 3);
    assert_eq!((counter.tunnelled(), counter.escaped()), (3, 3));
}

#[test]
fn the_counter_does_not_use_a_box_that_bodies_start_outside() {
    // The bullet starts outside the (degenerate) box of its wall: only crossings count.
    let scene = scenes::bullet_through_paper(100.0, 0.0, Wall::Segment);
    let mut counter = TunnelCounter::new(&scene);
    assert_eq!(counter.observe(&[p(-0.5, 0.0)]), 0);
    assert_eq!(counter.observe(&[p(0.5, 0.0)]), 1);
}

#[test]
fn observing_a_world_is_observing_its_dynamic_bodies_in_order() {
    let scene = scenes::rain(SPARSE, 4);
    let (mut world, _) = scene
        .build::<RTreeBroadphase, Discrete>()
        .expect("valid scene");
    let (mut by_world, mut by_hand) = (TunnelCounter::new(&scene), TunnelCounter::new(&scene));
    for _ in 0..30 {
        world.step(DT).expect("valid step");
        let positions: Vec<Point> = world
            .bodies()
            .filter(|(_, b)| b.is_dynamic())
            .map(|(_, b)| Point::from(b.pose().translation.vector))
            .collect();
        let velocities: Vec<Vector> = world
            .bodies()
            .filter(|(_, b)| b.is_dynamic())
            .map(|(_, b)| b.linvel())
            .collect();
        assert_eq!(
            by_world.observe_world(&world),
            by_hand.observe_moving(&positions, &velocities, DT)
        );
    }
    assert!(by_world.tunnelled() > 0, "Discrete lets some through");
}

/// `FirstTimeOfImpact` with the world's default broadphase boxes: every body swept over
/// the step, fast CCD bodies too.
#[derive(Debug, Default)]
struct SweptBoxes(FirstTimeOfImpact);

impl Stepper for SweptBoxes {
    type Report = impact_stepper::FirstToiReport;

    fn advance<B: impact_broadphase::Broadphase>(
        &mut self,
        ctx: impact_stepper::StepContext<'_, B>,
    ) -> Result<Self::Report, impact_stepper::WorldError> {
        self.0.advance(ctx)
    }

    fn needs_world_pass(&mut self, preview: &impact_stepper::StepPreview<'_>) -> bool {
        self.0.needs_world_pass(preview)
    }
}

/// `FirstTimeOfImpact` gives the broadphase only the start boxes of its fast bodies
/// (`Stepper::contact_reach`): the contacts it keeps are the same, so the rain is the same
/// bit for bit, with fewer pairs for the broadphase and the narrowphase (a third fewer in
/// this small rain, 20,310 against 29,909 over 60 steps).
#[test]
fn first_toi_start_boxes_change_nothing_but_the_pairs() {
    let scene = scenes::rain(200, 3);
    let (mut reach, _) = scene.build::<RTreeBroadphase, FirstTimeOfImpact>().unwrap();
    let (mut swept, _) = scene.build::<RTreeBroadphase, SweptBoxes>().unwrap();
    let (mut pairs_reach, mut pairs_swept) = (0, 0);
    for step in 0..60 {
        let a = reach.step(DT).unwrap();
        let b = swept.step(DT).unwrap();
        pairs_reach += a.pairs;
        pairs_swept += b.pairs;
        assert_eq!(a.stepper.events, b.stepper.events, "step {step}");
        assert_eq!(
            common::state_hash(&reach),
            common::state_hash(&swept),
            "step {step}"
        );
    }
    assert!(
        4 * pairs_reach < 3 * pairs_swept,
        "pairs {pairs_reach} against {pairs_swept}"
    );
}

/// `scenes::tumbling_rain` is the rain with bodies that turn: the same field, places, launch
/// velocities and materials, every dynamic body one of the four shapes (all four used),
/// turned and spinning within `TUMBLING_MAX_SPIN`, no two touching at the start, and the
/// same scene for the same seed.
#[test]
fn the_tumbling_rain_is_the_rain_with_turning_bodies_that_start_apart() {
    let (rain, tumbling) = (scenes::rain(200, 6), scenes::tumbling_rain(200, 6));
    assert_eq!(tumbling, scenes::tumbling_rain(200, 6));
    assert_ne!(tumbling, scenes::tumbling_rain(200, 7));
    assert_eq!(rain.bodies.len(), tumbling.bodies.len());
    assert_eq!(rain.settings, tumbling.settings);
    let mut kinds = std::collections::BTreeSet::new();
    let mut spinning = Vec::new();
    for (r, t) in rain.bodies.iter().zip(&tumbling.bodies) {
        assert_eq!(r.body_type, t.body_type);
        assert_eq!(r.pose.translation, t.pose.translation);
        assert_eq!(
            (r.linvel, r.restitution, r.friction, r.ccd),
            (t.linvel, t.restitution, t.friction, t.ccd)
        );
        if t.body_type == BodyType::Dynamic {
            assert!(t.angvel.abs() <= scenes::TUMBLING_MAX_SPIN);
            kinds.insert(format!("{:?}", t.shape));
            spinning.push(t);
        } else {
            assert_eq!(r, t);
        }
    }
    assert_eq!(
        kinds.len(),
        4,
        "squares, sticks, capsules and hexagons: {kinds:?}"
    );
    for (i, a) in spinning.iter().enumerate() {
        for b in &spinning[i + 1..] {
            let d = impact_narrowphase::distance(&a.shape, &a.pose, &b.shape, &b.pose);
            assert!(d.distance > 0.0, "two bodies touch at the start");
        }
    }
}

/// The tumbling rain (`scenes::tumbling_rain`, 200 bodies, 2 s) leaves no body hung in
/// mid-air under `MotionClamping` (`HungCounter`). A pair the contact solver pushed through
/// each other is clamped where it was at the start of the step; clamped with the velocities
/// that did it, the same solver step pushed it through again at every step (2 to 6 bodies
/// hung at the end on each of seeds 1 to 8); it now leaves moving as one body.
/// Pairs that start the step inside each other, or moving as one, are the solver's: the
/// net found them pushed through again at every step (see `MotionClamping`'s step 5).
#[test]
fn motion_clamping_leaves_no_body_of_the_tumbling_rain_hung_in_mid_air() {
    for seed in 1..=8 {
        let scene = scenes::tumbling_rain(200, seed);
        let (mut world, _) = scene.build::<RTreeBroadphase, MotionClamping>().unwrap();
        let mut hung = scenes::HungCounter::new(&scene, scenes::rain_field(0).column_bottom());
        for _ in 0..STEPS {
            world.step(DT).unwrap();
            hung.observe_world(&world);
        }
        assert_eq!(hung.hung(), 0, "seed {seed}");
    }
}

/// A slow body pressed through a segment it was still above is stopped where it was, under
/// `MotionClamping`, as one that started touching it is. In the tumbling rain (1,000 bodies,
/// seed 1), a pile pressed a stick spinning at 11 rad/s, a centimetre above the floor, down
/// through it at step 47: too slow to be checked, the stick had no time of impact, and the
/// safety net against contacts pushed through (`pushed_through`) looked only at contacts
/// touching at the start of the step.
#[test]
fn motion_clamping_stops_a_slow_stick_the_pile_pushed_through_the_floor() {
    let scene = scenes::tumbling_rain(1_000, 1);
    let (mut world, _) = scene.build::<RTreeBroadphase, MotionClamping>().unwrap();
    let mut counter = scenes::TunnelCounter::new(&scene);
    for _ in 0..50 {
        world.step(DT).unwrap();
        counter.observe_world(&world);
    }
    assert_eq!(counter.tunnelled(), 0);
}

/// The tumbling rain of 1,000 bodies, seed 6, 2 s, where `MotionClamping` can let bodies
/// through the segment field and hang pairs turning together in mid-air (stopped again at
/// every step by the pushed-through net): under neither CCD stepper does any body do either, judged on the bodies' positions after every step
/// (`TunnelCounter`, `HungCounter`).
#[test]
fn the_tumbling_rain_passes_nothing_through_and_hangs_nothing() {
    fn run<S: Stepper + Default>(scene: &Scene) -> (usize, usize) {
        let (mut world, _) = scene.build::<RTreeBroadphase, S>().unwrap();
        let mut counter = scenes::TunnelCounter::new(scene);
        let mut hung = scenes::HungCounter::new(scene, scenes::rain_field(0).column_bottom());
        for _ in 0..STEPS {
            world.step(DT).unwrap();
            counter.observe_world(&world);
            hung.observe_world(&world);
        }
        (counter.tunnelled(), hung.hung())
    }
    let scene = scenes::tumbling_rain(1_000, 6);
    assert_eq!(run::<MotionClamping>(&scene), (0, 0), "MotionClamping");
    assert_eq!(
        run::<FirstTimeOfImpact>(&scene),
        (0, 0),
        "FirstTimeOfImpact"
    );
}
