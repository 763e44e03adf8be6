//! Invariant: the contact solver does not make kinetic energy. Without gravity, with
//! restitution 1, no friction and every bounce honoured (`restitution_threshold` 0), the
//! Discrete and MotionClamping steppers keep the kinetic energy of the scenes below step by
//! step; in random crowds no step adds more than a few percent (the soft push-out's share,
//! rare and measured in the proptests' docs), with any restitution and friction too.
//!
//! The scenes are the ones that found the defects the restitution pass now guards against
//! (see `impact_solver`'s `contact::restitution`): discs in a walled box, a disc pressed
//! against a wall and hit by another, and a fast disc among thin segments.

mod common;

use common::{DT, Rng};
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Circle, Isometry, Point, Real, Segment, Vector};
use impact_narrowphase::distance;
use impact_solver::RigidBodyDef;
use impact_stepper::{Discrete, MotionClamping, Stepper, World, WorldSettings};
use proptest::prelude::*;

/// Half the side of the walled box.
const HALF_SIDE: Real = 6.25;

fn settings() -> WorldSettings {
    let mut s = WorldSettings::with_gravity(Vector::zeros());
    s.solver.restitution_threshold = 0.0;
    s
}

fn wall(a: (Real, Real), b: (Real, Real), restitution: Real) -> RigidBodyDef {
    RigidBodyDef::fixed(
        Segment::new(Point::new(a.0, a.1), Point::new(b.0, b.1))
            .unwrap()
            .into(),
    )
    .restitution(restitution)
    .friction(0.0)
}

fn walled_box(half: Real, restitution: Real) -> Vec<RigidBodyDef> {
    let corners = [(-half, -half), (half, -half), (half, half), (-half, half)];
    (0..4)
        .map(|i| wall(corners[i], corners[(i + 1) % 4], restitution))
        .collect()
}

fn disc(
    radius: Real,
    at: (Real, Real),
    v: (Real, Real),
    restitution: Real,
    friction: Real,
) -> RigidBodyDef {
    RigidBodyDef::new(Circle::new(radius).unwrap().into())
        .pose(Isometry::translation(at.0, at.1))
        .linvel(Vector::new(v.0, v.1))
        .restitution(restitution)
        .friction(friction)
}

fn kinetic_energy<S: Stepper>(world: &World<RTreeBroadphase, S>) -> Real {
    world
        .body_set()
        .iter()
        .map(|(_, b)| b.kinetic_energy())
        .sum()
}

/// Runs `steps` steps; returns the energy at the start and the largest relative rise of one
/// step over the one before.
fn run<S: Stepper + Default>(bodies: &[RigidBodyDef], steps: usize) -> (Real, Real, Real) {
    let (e0, e, rises) = run_split::<S>(bodies, steps);
    (e0, e, rises.apart.max(rises.overlapping))
}

/// The largest relative rise of one step, over the steps that start with every pair of
/// bodies apart (no overlap) and over those that start with some overlap; and what the
/// latter added over the run, the sum of their rises (relative to the run's start).
#[derive(Debug, Clone, Copy, Default)]
struct Rises {
    apart: Real,
    overlapping: Real,
    from_overlaps: Real,
}

/// The deepest overlap between two bodies of `world` (positive), or 0 if none overlap.
fn deepest_overlap<S: Stepper>(world: &World<RTreeBroadphase, S>) -> Real {
    let bodies: Vec<_> = world.bodies().map(|(_, b)| b).collect();
    let mut deepest: Real = 0.0;
    for (i, a) in bodies.iter().enumerate() {
        for b in &bodies[..i] {
            if a.is_dynamic() || b.is_dynamic() {
                let d = distance(a.shape(), a.pose(), b.shape(), b.pose()).distance;
                deepest = deepest.max(-d);
            }
        }
    }
    deepest
}

/// [`run`], with the rises split by whether the step started with an overlap.
fn run_split<S: Stepper + Default>(bodies: &[RigidBodyDef], steps: usize) -> (Real, Real, Rises) {
    let mut world: World<RTreeBroadphase, S> = World::new(settings()).unwrap();
    for b in bodies {
        world.create_body(b.clone()).unwrap();
    }
    let e0 = kinetic_energy(&world);
    let mut e = e0;
    let mut rises = Rises::default();
    for _ in 0..steps {
        let overlapping = deepest_overlap(&world) > 0.0;
        world.step(DT).unwrap();
        let next = kinetic_energy(&world);
        let rise = (next - e) / e0;
        if overlapping {
            rises.overlapping = rises.overlapping.max(rise);
            rises.from_overlaps += rise.max(0.0);
        } else {
            rises.apart = rises.apart.max(rise);
        }
        e = next;
    }
    (e0, e, rises)
}

/// 25 discs of radius 0.4 on a jittered grid in the 12.5 m walled box, speeds up to about 7.
fn walled_gas() -> Vec<RigidBodyDef> {
    let mut rng = Rng(7);
    let mut bodies = walled_box(HALF_SIDE, 1.0);
    for i in 0..5 {
        for j in 0..5 {
            let x = -5.0 + 2.5 * i as Real + rng.range(-0.15, 0.15);
            let y = -5.0 + 2.5 * j as Real + rng.range(-0.15, 0.15);
            let v = (rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
            bodies.push(disc(0.4, (x, y), v, 1.0, 0.0));
        }
    }
    bodies
}

fn assert_elastic<S: Stepper + Default>(bodies: &[RigidBodyDef], steps: usize, name: &str) {
    let (e0, e, worst_rise) = run::<S>(bodies, steps);
    let drift = (e - e0) / e0;
    assert!(
        worst_rise <= 1e-12,
        "{name}: one step added {worst_rise:e} of the energy"
    );
    assert!(drift.abs() <= 1e-5, "{name}: energy drifted by {drift:e}");
}

#[test]
fn walled_elastic_gas_keeps_its_energy() {
    // Before the restitution pass was fixed: +70% in these 5 s.
    assert_elastic::<Discrete>(&walled_gas(), 300, "Discrete");
    assert_elastic::<MotionClamping>(&walled_gas(), 300, "MotionClamping");
}

#[test]
fn disc_hitting_a_disc_pressed_against_a_wall_leaves_at_its_own_speed() {
    // The pressed disc touches the wall; the other comes at 4 units/s. Both contacts push in
    // the same step, so the bounce must travel through the pressed disc to the wall.
    let mut bodies = vec![wall((-5.0, -0.5), (-5.0, 0.5), 1.0)];
    bodies.push(disc(0.5, (-4.5, 0.0), (0.0, 0.0), 1.0, 0.0));
    bodies.push(disc(0.5, (-3.45, 0.0), (-4.0, 0.0), 1.0, 0.0));
    let mut world: World<RTreeBroadphase, Discrete> = World::new(settings()).unwrap();
    let handles: Vec<_> = bodies
        .into_iter()
        .map(|b| world.create_body(b).unwrap())
        .collect();
    for _ in 0..30 {
        world.step(DT).unwrap();
    }
    let pressed = world.body(handles[1]).unwrap().linvel();
    let hitter = world.body(handles[2]).unwrap().linvel();
    // Each restitution sweep halves what is left through the pressed disc: 32 sweeps leave
    // about 4 * 2^-32.
    assert!((hitter.x - 4.0).abs() < 1e-8, "hitter leaves at {hitter}");
    assert!(pressed.norm() < 1e-8, "pressed disc moves at {pressed}");
}

#[test]
fn fast_disc_among_thin_segments_gains_nothing() {
    // A disc of radius 0.1 at 200 units/s among segments: speculative contacts stop it at
    // vertices it then passes, which once made its speed double every few steps.
    let mut rng = Rng(11);
    let mut bodies = walled_box(10.0, 1.0);
    for i in 0..7 {
        for j in 0..7 {
            let (x, y) = (-7.5 + 2.5 * i as Real, -7.5 + 2.5 * j as Real);
            let angle = rng.range(0.0, std::f64::consts::PI);
            let (dx, dy) = (0.6 * angle.cos(), 0.6 * angle.sin());
            bodies.push(wall((x - dx, y - dy), (x + dx, y + dy), 1.0));
        }
    }
    bodies.push(disc(0.1, (-8.75, -8.75), (173.0, 101.0), 1.0, 0.0));
    for name in ["Discrete", "MotionClamping"] {
        let (e0, e, worst_rise) = if name == "Discrete" {
            run::<Discrete>(&bodies, 300)
        } else {
            run::<MotionClamping>(&bodies, 300)
        };
        assert!(worst_rise <= 1e-12, "{name}: one step added {worst_rise:e}");
        // The restitution pass keeps each step within a relative 1e-12 of the energy its
        // bodies came with (its slack for rounding), so 300 steps may add up to 300 times
        // that; the speed doubling this guards against was a factor of 4.
        assert!(e <= e0 * (1.0 + 300.0 * 1e-12), "{name}: {e0} -> {e}");
    }
}

#[test]
fn a_moving_paddle_still_adds_energy() {
    // The restitution pass bounds an island's energy by what its bodies came with, except
    // against a kinematic body: a paddle at 2 units/s sends a resting disc off at 4.
    let paddle = RigidBodyDef::kinematic(
        impact_geometry::ConvexPolygon::rectangle(0.1, 1.0)
            .unwrap()
            .into(),
    )
    .pose(Isometry::translation(-0.61, 0.0))
    .linvel(Vector::new(2.0, 0.0))
    .restitution(1.0)
    .friction(0.0);
    let mut world: World<RTreeBroadphase, Discrete> = World::new(settings()).unwrap();
    world.create_body(paddle).unwrap();
    let ball = world
        .create_body(disc(0.5, (0.0, 0.0), (0.0, 0.0), 1.0, 0.0))
        .unwrap();
    for _ in 0..10 {
        world.step(DT).unwrap();
    }
    let v = world.body(ball).unwrap().linvel();
    assert!((v.x - 4.0).abs() < 1e-9, "the disc leaves at {v}");
}

/// The crowds that broke a claim that no (nearly) elastic step or run adds energy, each found
/// by a random run: each has a step that does, and it starts with bodies overlapping. The first
/// three (restitution 1) broke the claim about steps. The fourth (restitution 0.997) broke the
/// claim that no run ends above its start: in one step a disc of radius 0.23 was squeezed 1.5
/// cm into a wall by a larger disc arriving behind it, and the next step's push-out added 5.7%
/// of the run's energy, which the run did not lose again (+4.5% after 90 steps).
#[test]
fn the_crowds_that_gained_energy_gained_it_from_an_overlap() {
    for (seed, count, restitution, speed) in [
        (18_384_789_153_637_862_439, 13, 1.0, 3.546_229_212_077_951_5),
        (10_711_946_069_125_540_478, 13, 1.0, 2.959_892_820_438_13),
        (10_751_937_659_697_041_642, 11, 1.0, 1.705_787_164_236_664_2),
        (
            18_300_565_895_174_152_747,
            8,
            0.996_973_998_554_014_1,
            4.313_680_618_206_129,
        ),
    ] {
        let bodies = random_discs(seed, count, restitution, 0.0, speed);
        let (_, _, rises) = run_split::<Discrete>(&bodies, 90);
        assert!(rises.overlapping > 1e-3, "seed {seed}: {rises:?}");
        assert!(rises.overlapping <= 0.1, "seed {seed}: {rises:?}");
        assert!(rises.apart <= 1e-12, "seed {seed}: {rises:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Random discs in a walled box, restitution 1, no friction, every bounce honoured,
    /// moving up to about a seventh of a unit (two thirds of the smallest radius) per step:
    /// no step that starts with every pair apart adds kinetic energy (19,000 runs: none
    /// did, beyond rounding). A step that starts with an overlap may: soft contacts let a
    /// crowd of up to 13 discs sink into each other by up to about 0.014, and the push-out
    /// is not wholly taken back; the worst seen added 1.7% of the energy (the bound here is
    /// loose on purpose). About one random run in 300 has such a step (seeds
    /// 18384789153637862439 and 10711946069125540478, 13 discs), which is why the claim is
    /// made only of steps that start apart.
    #[test]
    fn elastic_steps_add_no_energy(
        seed in any::<u64>(),
        count in 2usize..14,
        speed in 0.5..6.0f64,
    ) {
        let bodies = random_discs(seed, count, 1.0, 0.0, speed);
        for stepper in 0..2 {
            let (_, _, rises) = if stepper == 0 {
                run_split::<Discrete>(&bodies, 90)
            } else {
                run_split::<MotionClamping>(&bodies, 90)
            };
            prop_assert!(rises.apart <= 1e-12, "stepper {}: one step from apart added {:e}", stepper, rises.apart);
            prop_assert!(rises.overlapping <= 0.1, "stepper {}: one step from an overlap added {:e}", stepper, rises.overlapping);
        }
    }

    /// Any restitution up to 1 and any friction, at the same speeds: no run ends with more
    /// kinetic energy than it started with, beyond what its steps that start with an overlap
    /// added (the push-out of bodies the soft contacts let sink into each other; see the
    /// fourth crowd of `the_crowds_that_gained_energy_gained_it_from_an_overlap`, which a
    /// random run found after thousands had passed the plain claim). A single
    /// step may add some, since the soft contact's warm start and push-out are not exact
    /// projections where contacts persist: in 6,006 runs, 390 had such a step, the worst
    /// adding 6.6% of the run's energy (restitution 0.12, no friction). The step bound is
    /// loose on purpose.
    #[test]
    fn no_run_gains_energy(
        seed in any::<u64>(),
        count in 2usize..14,
        restitution in 0.0..=1.0f64,
        friction in prop_oneof![Just(0.0), 0.0..=1.0f64],
        speed in 0.5..6.0f64,
    ) {
        let bodies = random_discs(seed, count, restitution, friction, speed);
        for stepper in 0..2 {
            let (e0, e, rises) = if stepper == 0 {
                run_split::<Discrete>(&bodies, 90)
            } else {
                run_split::<MotionClamping>(&bodies, 90)
            };
            prop_assert!(
                e <= e0 * (1.0 + rises.from_overlaps),
                "stepper {}: {} -> {}, {:e} of it from overlaps", stepper, e0, e, rises.from_overlaps
            );
            let worst_rise = rises.apart.max(rises.overlapping);
            prop_assert!(worst_rise <= 0.1, "stepper {}: one step added {:e}", stepper, worst_rise);
        }
    }
}

/// `count` discs of radius 0.2 to 0.5 on a jittered 4 x 4 grid (so none starts overlapping
/// another) in the 6 m walled box, velocities up to `speed` on each axis.
fn random_discs(
    seed: u64,
    count: usize,
    restitution: Real,
    friction: Real,
    speed: Real,
) -> Vec<RigidBodyDef> {
    let mut rng = Rng(seed);
    let mut bodies = walled_box(3.0, restitution);
    for k in 0..count {
        let (i, j) = ((k % 4) as Real, (k / 4) as Real);
        let x = -2.25 + 1.5 * i + rng.range(-0.2, 0.2);
        let y = -2.25 + 1.5 * j + rng.range(-0.2, 0.2);
        let radius = rng.range(0.2, 0.5);
        let v = (rng.range(-speed, speed), rng.range(-speed, speed));
        bodies.push(disc(radius, (x, y), v, restitution, friction));
    }
    bodies
}
