//! Invariant: collision filters and the pair hooks take out exactly the pairs they keep
//! apart, under every stepper, and change nothing else.
//!
//! - Filters that let every pair collide (the default filter set on every body, one other
//!   filter on every body, or different categories with full masks, which the world must
//!   check pair by pair), a pair filter that answers
//!   `true` and a pre-solve hook that changes nothing give the same bits as a world without
//!   them, on the rain, the tumbling rain, the pyramid and the hard-disk gas (whose disc path
//!   steps aside for them: compared with the general path).
//! - With seeded filters (four categories, random masks, groups), at every step the
//!   contact manifolds the world gives the stepper are exactly, bit for bit, the ones a world
//!   without filters builds at the same poses, less the pairs the filters keep apart, and
//!   each is the one `contact_manifold` gives the pair at its poses; no event names such a
//!   pair.
//! - Two teams that never meet (by their filters, or by a pair filter hook), sharing the
//!   static field: each team's bodies move bit for bit as in a world without the other team
//!   (the other team left out, or turned into sensors), events included, under every
//!   stepper, in the rain and in a periodic gas: every allowed pair got the manifolds, times
//!   of impact and impacts of the unfiltered pipeline.
//! - Bullets fired through rows of static obstacles with seeded filters meet the first
//!   obstacle their filters allow, at the time of impact the narrowphase gives for it
//!   (`FirstTimeOfImpact`'s first event, `MotionClamping`'s clamp), and pass every other.
//! - A filter changed between steps holds from the next step, and the pair's warm-starting
//!   impulses do not come back to push.

mod common;

use common::{DT, state_hash};
use impact_broadphase::{BroadphaseError, ProxyId, ProxyPair, RTreeBroadphase};
use impact_geometry::{
    Aabb, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Sweep, Vector,
};
use impact_narrowphase::{
    Manifold, Toi, contact_manifold, contact_manifold_on_side, time_of_impact,
};
use impact_solver::{BodyHandle, CollisionFilter, ContactPair, RigidBody, RigidBodyDef};
use impact_stepper::{
    Discrete, FirstTimeOfImpact, FirstTimeOfImpactSettings, MotionClamping, PairView,
    PreSolveContact, Stepper, World, WorldSettings,
};
use impact_testkit::SplitMix64;
use impact_testkit::filters::{Recording, random_filter};
use impact_testkit::scenes::{self, Scene};

type W<S> = World<RTreeBroadphase, S>;

fn build<S: Stepper + Default>(scene: &Scene) -> (W<S>, Vec<BodyHandle>) {
    scene.build::<RTreeBroadphase, S>().unwrap()
}

/// The hard-disk gas on the general path of `FirstTimeOfImpact`, with its elastic settings.
fn gas_stepper() -> FirstTimeOfImpact {
    FirstTimeOfImpact::new(FirstTimeOfImpactSettings::elastic()).unwrap()
}

/// The state hash after `steps` steps of `dt` of `scene` under `S`, each body's filter set by
/// `filter` (by its place in the scene), with `hooks` applied to the world first.
fn run<S: Stepper + Default>(
    scene: &Scene,
    (steps, dt): (usize, Real),
    stepper: Option<S>,
    filter: impl Fn(usize) -> Option<CollisionFilter>,
    hooks: impl FnOnce(&mut W<S>),
) -> (u64, Vec<impact_stepper::CollisionEvent>) {
    let (mut world, handles) = build::<S>(scene);
    if let Some(stepper) = stepper {
        *world.stepper_mut() = stepper;
    }
    for (i, &h) in handles.iter().enumerate() {
        if let Some(f) = filter(i) {
            world.set_filter(h, f).unwrap();
        }
    }
    hooks(&mut world);
    let mut events = Vec::new();
    for _ in 0..steps {
        world.step(dt).unwrap();
        events.extend_from_slice(world.events());
    }
    (state_hash(&world), events)
}

/// Allow-all filters and hooks against none, for one scene and stepper.
fn allow_all_is_no_filter<S: Stepper + Default + Clone>(
    scene: &Scene,
    steps: (usize, Real),
    stepper: Option<S>,
) {
    let none = run::<S>(scene, steps, stepper.clone(), |_| None, |_| {});
    let default = |_| Some(CollisionFilter::DEFAULT);
    let explicit = run::<S>(scene, steps, stepper.clone(), default, |_| {});
    assert_eq!(explicit, none, "{}: the default filter, set", scene.name);
    let one = CollisionFilter::new(1 << 5, u64::MAX);
    let same = run::<S>(scene, steps, stepper.clone(), |_| Some(one), |_| {});
    assert_eq!(same, none, "{}: one filter on every body", scene.name);
    let mixed = |i: usize| Some(CollisionFilter::new(1 << (i % 7), u64::MAX));
    let checked = run::<S>(scene, steps, stepper.clone(), mixed, |_| {});
    assert_eq!(
        checked, none,
        "{}: mixed categories, full masks",
        scene.name
    );
    let hooked = run::<S>(
        scene,
        steps,
        stepper,
        |_| None,
        |w| {
            w.set_pair_filter(|_: &PairView<'_>| true);
            w.set_pre_solve(|_: &mut PreSolveContact<'_>| {});
        },
    );
    assert_eq!(hooked, none, "{}: hooks that allow everything", scene.name);
}

#[test]
fn filters_and_hooks_that_allow_everything_change_no_bit() {
    allow_all_is_no_filter::<FirstTimeOfImpact>(&scenes::rain(300, 6), (30, DT), None);
    let tumbling = scenes::tumbling_rain(300, 6);
    allow_all_is_no_filter::<FirstTimeOfImpact>(&tumbling, (30, DT), None);
    allow_all_is_no_filter::<MotionClamping>(&tumbling, (30, DT), None);
    allow_all_is_no_filter::<Discrete>(&scenes::pyramid(20), (120, DT), None);
}

/// The gas takes the disc path without filters, and the general path as soon as a pair
/// could be filtered: a filter on every body that lets all pairs collide still runs the disc
/// path (bit for bit), and mixed filters run the general path, bit for bit as a hook that
/// changes nothing does.
#[test]
fn the_disc_path_steps_aside_for_filters_and_hooks() {
    let gas = scenes::hard_disks(256, 0.3, 1).unwrap();
    let steps = (5, 0.5);
    let report = |filter: &dyn Fn(usize) -> Option<CollisionFilter>, hook: bool| {
        let (mut world, handles) = build::<FirstTimeOfImpact>(&gas);
        *world.stepper_mut() = gas_stepper();
        for (i, &h) in handles.iter().enumerate() {
            if let Some(f) = filter(i) {
                world.set_filter(h, f).unwrap();
            }
        }
        if hook {
            world.set_pre_solve(|_: &mut PreSolveContact<'_>| {});
        }
        let mut disc_path = true;
        for _ in 0..steps.0 {
            disc_path &= world.step(steps.1).unwrap().stepper.disc_path;
        }
        (disc_path, state_hash(&world))
    };
    let none = report(&|_| None, false);
    assert!(none.0, "the gas takes the disc path");
    let one = CollisionFilter::new(1 << 5, u64::MAX);
    assert_eq!(report(&|_| Some(one), false), none);
    let general = report(&|_| None, true);
    assert!(!general.0);
    let mixed = |i: usize| Some(CollisionFilter::new(1 << (i % 7), u64::MAX));
    assert_eq!(report(&mixed, false), general);
}

/// Whether the filters of `a` and `b` in `world` let them collide.
fn allowed<S: Stepper>(world: &W<S>, a: BodyHandle, b: BodyHandle) -> bool {
    let (x, y) = (world.body(a).unwrap(), world.body(b).unwrap());
    x.filter().should_collide(&y.filter())
}

/// Seeded filters on the dynamic bodies of `scene`; at every step the world's manifolds
/// against those of the same world without filters, and the events.
fn manifolds_are_the_unfiltered_ones<S: Stepper + Default + Clone>(scene: &Scene, seed: u64) {
    let (mut world, handles) = scene.build::<RTreeBroadphase, Recording<S>>().unwrap();
    // The filtered world and the unfiltered one would fall asleep at different steps: the
    // comparison is of awake manifolds.
    let awake = impact_stepper::WorldSettings {
        sleeping: false,
        ..*world.settings()
    };
    world.set_settings(awake).unwrap();
    let mut rng = SplitMix64::new(seed);
    for (i, &h) in handles.iter().enumerate() {
        if scene.bodies[i].body_type == impact_solver::BodyType::Dynamic {
            world.set_filter(h, random_filter(&mut rng)).unwrap();
        }
    }
    let (mut kept, mut left_out) = (0, 0);
    for step in 0..40 {
        let before = world.clone();
        let mut unfiltered = world.clone();
        for &h in &handles {
            unfiltered.set_filter(h, CollisionFilter::DEFAULT).unwrap();
        }
        unfiltered.step(DT).unwrap();
        world.step(DT).unwrap();
        let expected: Vec<_> = unfiltered
            .stepper()
            .contacts
            .iter()
            .filter(|c| allowed(&world, c.a, c.b))
            .copied()
            .collect();
        left_out += unfiltered.stepper().contacts.len() - expected.len();
        kept += expected.len();
        assert_eq!(
            world.stepper().contacts,
            expected,
            "{} seed {seed} step {step}",
            scene.name
        );
        for c in &world.stepper().contacts {
            assert_eq!(
                c.manifold,
                narrowphase_manifold(&before, c),
                "{} seed {seed} step {step}: {:?}",
                scene.name,
                (c.a, c.b)
            );
        }
        for e in world.events() {
            assert!(allowed(&world, e.a, e.b), "step {step}: {e:?}");
        }
    }
    assert!(kept > 0 && left_out > 0, "{kept} kept, {left_out} left out");
}

/// The manifold the narrowphase gives the pair of `c` in `world` before its step, as the
/// world's pass asks it (`World`'s docs, stage 2): up to the speculative distance plus how
/// far the pair can close over the step (the relative speed of the centres, plus each
/// body's spin times its bounding radius, plus gravity's share), that last capped at the
/// smaller body's bounding radius unless the stepper follows the pair past it; a contact with
/// a segment that overlaps taken on the side it had ([`contact_manifold_on_side`]).
fn narrowphase_manifold<S: Stepper>(world: &W<S>, c: &ContactPair) -> Manifold {
    let (a, b) = (world.body(c.a).unwrap(), world.body(c.b).unwrap());
    let motion = |body: &RigidBody| {
        let sweep = body.sweep(DT).unwrap();
        let r = body.shape().bounding_radius(&body.local_center());
        let spin = if sweep.angvel() == 0.0 {
            0.0
        } else {
            sweep.angvel().abs() * r
        };
        (sweep.linvel(), spin, r)
    };
    let ((va, sa, ra), (vb, sb, rb)) = (motion(a), motion(b));
    let closing = ((vb - va).norm() + sa + sb + world.settings().gravity.norm() * DT) * DT;
    let base = world.settings().speculative_distance;
    let margin = if world.stepper().speculates_past_size(a, b) {
        base + closing
    } else {
        base + closing.min(ra.min(rb))
    };
    let pose_b = Isometry::from_parts(
        (b.pose().translation.vector + c.offset).into(),
        b.pose().rotation,
    );
    let plain = contact_manifold(a.shape(), a.pose(), b.shape(), &pose_b, margin);
    if plain.normal != c.manifold.normal {
        // Pressed past the middle of a segment: the side the pair had.
        contact_manifold_on_side(
            a.shape(),
            a.pose(),
            b.shape(),
            &pose_b,
            c.manifold.normal,
            margin,
        )
        .unwrap()
    } else {
        plain
    }
}

#[test]
fn the_manifolds_are_the_unfiltered_ones_less_the_filtered_pairs() {
    for seed in 1..=3 {
        let rain = scenes::rain(150, seed);
        manifolds_are_the_unfiltered_ones::<Discrete>(&rain, seed);
        manifolds_are_the_unfiltered_ones::<MotionClamping>(&rain, seed);
        manifolds_are_the_unfiltered_ones::<FirstTimeOfImpact>(&rain, seed);
        let tumbling = scenes::tumbling_rain(150, seed);
        manifolds_are_the_unfiltered_ones::<MotionClamping>(&tumbling, seed);
        manifolds_are_the_unfiltered_ones::<FirstTimeOfImpact>(&tumbling, seed);
    }
}

/// Team A and team B: each accepts the static field (category 1) and its own team only.
const TEAM_A: CollisionFilter = CollisionFilter::new(2, 1 | 2);
const TEAM_B: CollisionFilter = CollisionFilter::new(4, 1 | 4);

/// `scene`'s dynamic bodies split in two teams that never meet, the first `split` of them
/// team A, the rest team B; stepped `steps` times by `dt` with `stepper` (and `hook`, with a
/// pre-solve hook that changes nothing, in every world). Each team's bodies against a world
/// of the scene without the other team: team B left out (its bodies come last), team A
/// turned into sensors (which nothing meets). Bodies' states and the events of the team's
/// pairs, bit for bit, at every step.
fn teams_move_as_alone<S: Stepper + Default + Clone>(
    scene: &Scene,
    (split, by): (usize, Split),
    (steps, dt): (usize, Real),
    (stepper, hook): (Option<S>, bool),
) {
    let first_dynamic = scene
        .bodies
        .iter()
        .position(|b| b.body_type == impact_solver::BodyType::Dynamic)
        .unwrap();
    let split = first_dynamic + split;
    let team = |i: usize| (i >= first_dynamic).then_some(i < split);
    let mut teams = scene.clone();
    for (i, body) in teams.bodies.iter_mut().enumerate() {
        match (team(i), by) {
            (Some(true), Split::Filters) => body.filter = TEAM_A,
            (Some(false), Split::Filters) => body.filter = TEAM_B,
            (Some(a), Split::PairFilter) => body.user_data = if a { 1 } else { 2 },
            (None, _) => {}
        }
    }
    let mut a_alone = scene.clone();
    a_alone.bodies.truncate(split);
    let mut b_alone = scene.clone();
    for body in &mut b_alone.bodies[first_dynamic..split] {
        body.sensor = true;
    }
    let make = |s: &Scene| {
        let (mut w, _) = build::<S>(s);
        if let Some(st) = &stepper {
            *w.stepper_mut() = st.clone();
        }
        if hook {
            w.set_pre_solve(|_: &mut PreSolveContact<'_>| {});
        }
        w
    };
    let (mut both, mut alone_a, mut alone_b) = (make(&teams), make(&a_alone), make(&b_alone));
    if by == Split::PairFilter {
        both.set_pair_filter(|p: &PairView<'_>| p.body_a.user_data() + p.body_b.user_data() != 3);
    }
    let handles: Vec<_> = both.bodies().map(|(h, _)| h).collect();
    let in_team = |h: BodyHandle, a: bool| team(h.index as usize).is_none_or(|t| t == a);
    let mut kept_apart = 0;
    for step in 0..steps {
        kept_apart += both.step(dt).unwrap().filtered_pairs;
        if by == Split::Filters {
            // Filters keep the teams' pairs out of the broadphase's list (the world never
            // sees them): the pairs of bodies of both teams whose boxes, grown by 0.1,
            // overlap.
            let boxes: Vec<_> = handles
                .iter()
                .filter_map(|&h| {
                    let body = both.body(h).unwrap();
                    team(h.index as usize).map(|t| (t, body.aabb_at(body.pose()).inflated(0.1)))
                })
                .collect();
            for (i, (ta, a)) in boxes.iter().enumerate() {
                kept_apart += boxes[i + 1..]
                    .iter()
                    .filter(|(tb, b)| ta != tb && a.intersects(b))
                    .count();
            }
        }
        alone_a.step(dt).unwrap();
        alone_b.step(dt).unwrap();
        for (alone, a) in [(&alone_a, true), (&alone_b, false)] {
            for &h in handles.iter().filter(|&&h| in_team(h, a)) {
                let (x, y) = (both.body(h).unwrap(), alone.body(h).unwrap());
                assert_eq!(
                    (x.pose(), x.linvel(), x.angvel()),
                    (y.pose(), y.linvel(), y.angvel()),
                    "{} step {step}: body {} of team {}",
                    scene.name,
                    h.index,
                    if a { "A" } else { "B" }
                );
            }
            let mine = |e: &&impact_stepper::CollisionEvent| in_team(e.a, a) && in_team(e.b, a);
            let theirs: Vec<_> = both.events().iter().filter(mine).collect();
            let own: Vec<_> = alone.events().iter().collect();
            assert_eq!(theirs, own, "{} step {step}: events", scene.name);
        }
        for e in both.events() {
            let (x, y) = (team(e.a.index as usize), team(e.b.index as usize));
            assert!(x.zip(y).is_none_or(|(x, y)| x == y), "step {step}: {e:?}");
        }
    }
    assert!(kept_apart > 0, "{}: no pair to keep apart", scene.name);
}

/// How the teams are kept apart: by their collision filters, or by a pair filter hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Split {
    Filters,
    PairFilter,
}

/// `scene` without restitution. The contact solver's restitution pass settles every bounce of
/// a step together: it stops when no row changes by more than a fraction of the step's
/// fastest bounce, whatever island it is in, so a bounce in one team changes how long the
/// other team's bounces are settled, in the last bits. Without restitution nothing but pairs
/// links two teams.
fn without_restitution(scene: &Scene) -> Scene {
    let mut scene = scene.clone();
    for body in &mut scene.bodies {
        body.restitution = 0.0;
    }
    scene
}

#[test]
fn two_teams_that_never_meet_move_as_if_alone() {
    for (seed, by) in [
        (1, Split::Filters),
        (6, Split::Filters),
        (2, Split::PairFilter),
    ] {
        let rain = without_restitution(&scenes::rain(200, seed));
        let teams = (100, by);
        teams_move_as_alone::<Discrete>(&rain, teams, (45, DT), (None, false));
        teams_move_as_alone::<MotionClamping>(&rain, teams, (45, DT), (None, false));
        teams_move_as_alone::<FirstTimeOfImpact>(&rain, teams, (45, DT), (None, false));
        let tumbling = without_restitution(&scenes::tumbling_rain(200, seed));
        teams_move_as_alone::<MotionClamping>(&tumbling, teams, (45, DT), (None, false));
        teams_move_as_alone::<FirstTimeOfImpact>(&tumbling, teams, (45, DT), (None, false));
    }
}

/// The periodic gas, all on the general path (a pre-solve hook that changes nothing sends
/// the worlds without filters there too; the disc path steps aside for filters and
/// sensors): two teams, each as if alone, elastic. Every pair of the gas is the event
/// loop's, so the contact solver links nothing.
#[test]
fn two_teams_in_a_periodic_gas_move_as_if_alone() {
    let gas = scenes::hard_disks(256, 0.3, 2).unwrap();
    for by in [Split::Filters, Split::PairFilter] {
        let stepper = (Some(gas_stepper()), true);
        teams_move_as_alone::<FirstTimeOfImpact>(&gas, (128, by), (5, 0.5), stepper);
    }
}

/// Seeded bullets through rows of static obstacles of three kinds, every body with a seeded
/// filter: a bullet's first impact (its clamp) is with the first obstacle its filter allows,
/// at the time of impact the narrowphase gives along its course; with none allowed, it
/// passes them all. `first_meeting` reads the stepper's answer: the fraction of the step, and
/// the obstacle if the stepper names it. Returns how many bullets met an obstacle and how
/// many passed them all.
fn bullets_meet_the_first_allowed_obstacle<S: Stepper + Default>(
    seed: u64,
    toi_options: &impact_narrowphase::ToiOptions,
    first_meeting: impl Fn(&W<S>, &S::Report, BodyHandle) -> Option<(Option<BodyHandle>, Real)>,
) -> (usize, usize) {
    const LANES: usize = 30;
    let mut rng = SplitMix64::new(seed);
    let mut world: W<S> = World::new(WorldSettings::with_gravity(Vector::zeros())).unwrap();
    // Per lane: the bullet, its course over the step, and the obstacles in its way.
    let mut lanes = Vec::new();
    for lane in 0..LANES {
        let y = 10.0 * lane as Real;
        let mut obstacles = Vec::new();
        for k in 0..6 {
            let x = 2.0 + 1.5 * k as Real + rng.range(0.0, 0.5);
            let shape: Shape = match rng.below(3) {
                0 => Segment::new(Point::new(0.0, -1.0), Point::new(0.0, 1.0))
                    .unwrap()
                    .into(),
                1 => ConvexPolygon::rectangle(0.05, 1.0).unwrap().into(),
                _ => Circle::new(0.3).unwrap().into(),
            };
            let def = RigidBodyDef::fixed(shape)
                .pose(Isometry::translation(x, y + rng.range(-0.2, 0.2)))
                .filter(random_filter(&mut rng));
            obstacles.push(world.create_body(def).unwrap());
        }
        let speed = rng.range(800.0, 3_000.0);
        let velocity = Vector::new(speed, speed * rng.range(-0.02, 0.02));
        let start = Isometry::translation(0.0, y);
        let bullet = world
            .create_body(
                RigidBodyDef::new(Circle::new(0.05).unwrap().into())
                    .pose(start)
                    .linvel(velocity)
                    .restitution(1.0)
                    .filter(random_filter(&mut rng))
                    .ccd(true),
            )
            .unwrap();
        let course = Sweep::new(start, Point::origin(), velocity, 0.0, DT).unwrap();
        lanes.push((bullet, course, obstacles));
    }
    let report = world.step(DT).unwrap().stepper;
    let (mut met, mut passed) = (0, 0);
    for (bullet, course, obstacles) in &lanes {
        let body = world.body(*bullet).unwrap();
        let mut expected: Option<(BodyHandle, Real)> = None;
        for &o in obstacles {
            let obstacle = world.body(o).unwrap();
            if !obstacle.filter().should_collide(&body.filter()) {
                continue;
            }
            let toi = time_of_impact(
                body.shape(),
                course,
                obstacle.shape(),
                &Sweep::stationary(*obstacle.pose()).unwrap(),
                toi_options,
            );
            if let Toi::Hit(hit) = toi
                && expected.is_none_or(|(_, f)| hit.fraction < f)
            {
                expected = Some((o, hit.fraction));
            }
        }
        let found = first_meeting(&world, &report, *bullet);
        match (expected, found) {
            (None, None) => passed += 1,
            (Some((o, f)), Some((p, g))) => {
                met += 1;
                assert!(
                    p.is_none_or(|p| p == o),
                    "seed {seed}: bullet {} met the wrong obstacle",
                    bullet.index
                );
                assert!((f - g).abs() < 1e-9, "seed {seed}: at {g}, expected {f}");
            }
            _ => panic!(
                "seed {seed}: bullet {}: expected {expected:?}, found {found:?}",
                bullet.index
            ),
        }
    }
    (met, passed)
}

#[test]
fn bullets_meet_the_first_obstacle_their_filters_allow() {
    let toi = FirstTimeOfImpactSettings::default().toi;
    let clamp = impact_stepper::MotionClampingSettings::default().toi;
    let mut counts = [0; 4];
    for seed in 1..=20 {
        let (met, passed) = bullets_meet_the_first_allowed_obstacle::<FirstTimeOfImpact>(
            seed,
            &toi,
            |world, _, bullet| {
                world
                    .events()
                    .iter()
                    .find(|e| e.involves(bullet))
                    .map(|e| (Some(if e.a == bullet { e.b } else { e.a }), e.fraction))
            },
        );
        let (clamped, free) = bullets_meet_the_first_allowed_obstacle::<MotionClamping>(
            seed,
            &clamp,
            |_, report, bullet| {
                report
                    .clamped
                    .iter()
                    .find(|c| c.body == bullet)
                    .map(|c| (None, c.fraction))
            },
        );
        for (count, n) in counts.iter_mut().zip([met, passed, clamped, free]) {
            *count += n;
        }
    }
    assert!(
        counts.iter().all(|&n| n > 20),
        "met, passed, clamped, free: {counts:?}"
    );
}

/// A disc resting on the ground, its filter changed between steps to accept nothing: the
/// next step has no contact and no warm-starting impulse for the pair, and the disc falls
/// freely; its filter restored, it meets the ground again. Through `World::set_filter` and
/// through `RigidBody::set_filter` on `World::body_mut`.
#[test]
fn a_filter_changed_between_steps_holds_from_the_next_step() {
    for through_body in [false, true] {
        let scene = scenes::ball_drop(0.0, 0.0);
        let (mut world, handles) = build::<FirstTimeOfImpact>(&scene);
        let (ground, ball) = (handles[0], handles[1]);
        for _ in 0..30 {
            world.step(DT).unwrap();
        }
        let pair_cached = |w: &W<FirstTimeOfImpact>| {
            w.contact_cache()
                .iter()
                .any(|(k, _)| (k.a, k.b) == (ground, ball))
        };
        assert!(pair_cached(&world), "the resting ball is warm started");
        let set = |w: &mut W<FirstTimeOfImpact>, f: CollisionFilter| {
            if through_body {
                w.body_mut(ball).unwrap().set_filter(f);
            } else {
                w.set_filter(ball, f).unwrap();
            }
        };
        set(&mut world, CollisionFilter::new(1, 0));
        let y0 = world.body(ball).unwrap().pose().translation.y;
        let report = world.step(DT).unwrap();
        assert_eq!(report.manifolds, 0);
        assert!(!pair_cached(&world), "the filtered pair keeps no impulse");
        let ball_body = world.body(ball).unwrap();
        assert!(
            (ball_body.linvel().y + 10.0 * DT).abs() < 1e-6,
            "{}",
            ball_body.linvel()
        );
        assert!(ball_body.pose().translation.y < y0);
        set(&mut world, CollisionFilter::DEFAULT);
        let report = world.step(DT).unwrap();
        assert_eq!(report.manifolds, 1);
        assert!(pair_cached(&world));
    }
}

/// A pair filter that vetoes the ball's pairs, set and cleared between steps: the ball falls
/// through the ground while it is set, and, put back above it, lands on it once cleared. The
/// hook sees the pair's shapes and bodies, the smaller slot first.
#[test]
fn the_pair_filter_vetoes_pairs_while_it_is_set() {
    let scene = scenes::ball_drop(1.0, 0.0);
    let (mut world, handles) = build::<FirstTimeOfImpact>(&scene);
    let (ground, ball) = (handles[0], handles[1]);
    world.set_pair_filter(move |pair: &PairView<'_>| {
        assert_eq!((pair.a.body, pair.b.body), (ground, ball));
        assert!(pair.involves(ball) && pair.body_b.is_dynamic());
        false
    });
    for _ in 0..60 {
        world.step(DT).unwrap();
        assert!(world.events().is_empty());
    }
    assert!(world.body(ball).unwrap().pose().translation.y < -1.0);
    world.clear_pair_filter();
    world
        .set_pose(ball, Isometry::translation(0.0, 2.0))
        .unwrap();
    world.set_velocity(ball, Vector::zeros(), 0.0).unwrap();
    for _ in 0..120 {
        world.step(DT).unwrap();
    }
    let y = world.body(ball).unwrap().pose().translation.y;
    assert!((y - scenes::BALL_RADIUS).abs() < 0.02, "rests at {y}");
}

/// A filter set on a handle the world does not know is refused, naming the handle, and
/// changes nothing.
#[test]
fn a_filter_for_an_unknown_body_is_refused() {
    let (mut world, handles) = build::<Discrete>(&scenes::stack(1));
    let gone = world.remove_body(handles[1]).map(|_| handles[1]).unwrap();
    let err = world
        .set_filter(gone, CollisionFilter::new(2, 2))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "handle: no body with index {} and generation {}",
            gone.index, gone.generation
        )
    );
    assert_eq!(
        world.body(handles[0]).unwrap().filter(),
        CollisionFilter::DEFAULT
    );
}

/// The R-tree, delegating everything but [`Broadphase::set_filter`], whose default keeps no
/// filter: every pair reaches the world, which refuses it.
#[derive(Default)]
struct Unfiltered(RTreeBroadphase);

impl impact_broadphase::Broadphase for Unfiltered {
    fn insert(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadphaseError> {
        self.0.insert(id, aabb)
    }
    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, BroadphaseError> {
        self.0.update(id, aabb)
    }
    fn update_batch(&mut self, moved: &[(ProxyId, Aabb)]) -> Result<usize, BroadphaseError> {
        self.0.update_batch(moved)
    }
    fn remove(&mut self, id: ProxyId) -> Result<(), BroadphaseError> {
        self.0.remove(id)
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn fat_aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.0.fat_aabb(id)
    }
    fn overlapping_pairs(&mut self) -> &[ProxyPair] {
        self.0.overlapping_pairs()
    }
    fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<ProxyId>) -> Result<(), BroadphaseError> {
        self.0.query_aabb(aabb, out)
    }
    fn search_swept(
        &self,
        aabb: &Aabb,
        translation: &Vector,
        visit: &mut dyn FnMut(ProxyId, Real) -> Real,
    ) -> Result<(), BroadphaseError> {
        self.0.search_swept(aabb, translation, visit)
    }
}

/// The broadphase leaves out the pairs the filters refuse, so the world never sees them:
/// the same bits, step for step, as a world whose broadphase keeps no filter (every pair
/// reaching the world's own test), and fewer pairs. Box2D's joint grid (every circle in a
/// category its mask refuses), and the rain with seeded categories, masks and groups, its
/// filters changed part way through; under every stepper.
#[test]
fn pairs_the_broadphase_leaves_out_change_nothing_but_the_work() {
    fn compare<S: Stepper + Default>(
        scene: &Scene,
        joints: &[scenes::SceneJoint],
        change_at: Option<usize>,
    ) {
        let grid = scenes::JointedScene {
            scene: scene.clone(),
            joints: joints.to_vec(),
        };
        let (mut filtered, handles, _) = grid.build::<RTreeBroadphase, S>().unwrap();
        let (mut unfiltered, _, _) = grid.build::<Unfiltered, S>().unwrap();
        let (mut fewer, mut pairs) = (0, 0);
        for step in 0..40 {
            if Some(step) == change_at {
                // Every third body changes team: pairs it was kept from come in.
                for &h in handles.iter().step_by(3) {
                    let filter = CollisionFilter::new(2, 1 | 2);
                    filtered.set_filter(h, filter).unwrap();
                    unfiltered.set_filter(h, filter).unwrap();
                }
            }
            let (a, b) = (filtered.step(DT).unwrap(), unfiltered.step(DT).unwrap());
            assert_eq!(
                state_hash(&filtered),
                state_hash(&unfiltered),
                "{} step {step}",
                scene.name
            );
            assert_eq!(
                filtered.events(),
                unfiltered.events(),
                "{} step {step}",
                scene.name
            );
            assert!(a.pairs <= b.pairs);
            fewer += b.pairs - a.pairs;
            pairs += a.pairs;
        }
        assert!(
            fewer > 0 && (change_at.is_none() || pairs > 0),
            "{}: {fewer} fewer",
            scene.name
        );
    }
    let grid = scenes::joint_grid(12);
    compare::<Discrete>(&grid.scene, &grid.joints, None);
    compare::<FirstTimeOfImpact>(&grid.scene, &grid.joints, None);
    let mut rain = scenes::rain(150, 2);
    let mut rng = SplitMix64::new(7);
    for body in rain.bodies.iter_mut().skip(1) {
        body.filter = random_filter(&mut rng);
    }
    compare::<Discrete>(&rain, &[], Some(20));
    compare::<MotionClamping>(&rain, &[], Some(20));
    compare::<FirstTimeOfImpact>(&rain, &[], Some(20));
}
