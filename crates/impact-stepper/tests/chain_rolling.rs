//! Invariant: a body rolling or sliding over a chain's joints keeps going under every
//! stepper: no step clamps it at the start of the step for good.
//!
//! A chain segment answers a body at its joint with the face that owns the hit's direction
//! (its neighbour's past a convex joint, its own at a concave one), where the contact kernel
//! leaves the manifold to the segment the body rests on. `MotionClamping` must take such a
//! hit at the start of a step as the solver's, as it takes a hit of a held pair: without
//! that, a wheel of radius 0.4 rolling at 7 units/s over a floor of half-unit segments on a
//! gentle wave was stopped at the first concave joint at every step, for good (it stood at
//! x = 4.972 from step 45 on).
//!
//! - The wheel of that scene rolls on: after 2 s it is past x = 12 under `MotionClamping`
//!   and `FirstTimeOfImpact`.
//! - Property, 200 seeded floors in release (40 in debug; waves of random amplitude and
//!   wavelength, random bumps on every second point, so joints both convex and concave) and
//!   bodies (a disc or a box, 2 to 15 units/s): no body is clamped at fraction 0 three steps
//!   running under `MotionClamping`, and each that goes farther than a unit under
//!   `FirstTimeOfImpact` covers at least a fifth of that distance (the least measured is
//!   0.30: a box sliding at 13 units/s is clamped at the joints it meets face first and
//!   loses the rest of those steps, as `MotionClamping` does by design).
//! - Seed 11 alone: a box tipping over a crest of the chain at up to 20 rad/s, which
//!   `MotionClamping` stopped 1% into every step for good (its touching pair was followed
//!   along the rebuilt sweep, which deepens on the crest by the chord's sagitta), goes on.

mod common;

use common::{DT, Rng};
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Chain, Circle, ConvexPolygon, Isometry, Point, Real, Shape, Vector};
use impact_solver::{BodyHandle, RigidBodyDef};
use impact_stepper::{FirstTimeOfImpact, MotionClamping, Stepper, World, WorldSettings};

/// A floor of `n` half-unit segments from x = -10 on: `amplitude * sin(k x)` plus a bump of up
/// to `bump` on every second point, drawn right to left so that its solid side is below.
fn floor(amplitude: Real, k: Real, bump: Real, rng: &mut Rng) -> Chain {
    let mut points: Vec<Point> = (0..=120)
        .map(|i| {
            let x = -10.0 + 0.5 * Real::from(i);
            let b = if i % 2 == 0 {
                rng.range(0.0, bump)
            } else {
                0.0
            };
            Point::new(x, amplitude * (k * x).sin() + b)
        })
        .collect();
    points.reverse();
    Chain::new(&points, false).expect("a valid chain")
}

/// A world of `floor` and `body` (a CCD body), the body's handle.
fn world<S: Stepper + Default>(
    floor: &Chain,
    body: RigidBodyDef,
) -> (World<RTreeBroadphase, S>, BodyHandle) {
    let mut w =
        World::<RTreeBroadphase, S>::new(WorldSettings::with_gravity(Vector::new(0.0, -10.0)))
            .expect("valid settings");
    w.create_body(RigidBodyDef::from_chain(floor))
        .expect("the floor");
    let h = w.create_body(body).expect("the body");
    (w, h)
}

fn wheel(at: Point, speed: Real) -> RigidBodyDef {
    let mut def = RigidBodyDef::new(Circle::new(0.4).expect("a radius").into())
        .pose(Isometry::translation(at.x, at.y))
        .friction(0.9);
    def.ccd = true;
    def.linvel = Vector::new(speed, 0.0);
    def.angvel = -speed / 0.4;
    def
}

#[test]
fn a_wheel_rolls_over_the_joints_of_a_wavy_floor() {
    let mut points: Vec<Point> = (0..=100)
        .map(|i| {
            let x = -10.0 + 0.5 * Real::from(i);
            Point::new(x, 0.15 * (0.7 * x).sin())
        })
        .collect();
    points.reverse();
    let floor = Chain::new(&points, false).expect("a valid chain");
    let start = Point::new(0.0, 0.41);
    let (mut clamp, h) = world::<MotionClamping>(&floor, wheel(start, 7.0));
    let (mut toi, g) = world::<FirstTimeOfImpact>(&floor, wheel(start, 7.0));
    for _ in 0..120 {
        clamp.step(DT).expect("a valid step");
        toi.step(DT).expect("a valid step");
    }
    let xs = [clamp.body(h), toi.body(g)].map(|b| b.expect("live").pose().translation.x);
    println!(
        "after 2 s: MotionClamping x = {:.3}, FirstTimeOfImpact x = {:.3}",
        xs[0], xs[1]
    );
    assert!(xs.iter().all(|&x| x > 12.0), "{xs:?}");
}

/// The seeded floor of `rng`, and the place above its highest point, `above` higher, where
/// the body starts.
fn seeded_floor(rng: &mut Rng, above: Real) -> (Chain, Point) {
    let floor = floor(
        rng.range(0.0, 0.4),
        rng.range(0.2, 2.0),
        rng.range(0.0, 0.1),
        rng,
    );
    let height = floor
        .points()
        .iter()
        .map(|p| p.y)
        .fold(Real::MIN, Real::max);
    (floor, Point::new(-8.0, height + above))
}

/// `body` over `floor` for 90 steps under `MotionClamping` and `FirstTimeOfImpact`: the most
/// steps running `MotionClamping` clamped it at fraction 0, and the distance it covered from
/// `at` under each.
fn roll(floor: &Chain, body: RigidBodyDef, at: Point) -> (usize, [Real; 2]) {
    let (mut w, h) = world::<MotionClamping>(floor, body.clone());
    let (mut reference, g) = world::<FirstTimeOfImpact>(floor, body);
    let (mut run, mut longest) = (0, 0);
    for _ in 0..90 {
        let report = w.step(DT).expect("a valid step");
        reference.step(DT).expect("a valid step");
        let stuck = report
            .stepper
            .clamped
            .iter()
            .any(|c| c.body == h && c.fraction <= 0.0);
        run = if stuck { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let covered =
        [w.body(h), reference.body(g)].map(|b| b.expect("live").pose().translation.x - at.x);
    (longest, covered)
}

/// Runs a seeded case: the most steps running `MotionClamping` clamped the body at fraction 0,
/// the distance it covered there and under `FirstTimeOfImpact`.
fn case(seed: u64) -> (usize, [Real; 2], String) {
    let mut rng = Rng::new(seed);
    let (floor, at) = seeded_floor(&mut rng, 0.6);
    let speed = rng.range(2.0, 15.0);
    let disc = rng.range(0.0, 1.0) < 0.5;
    let body = if disc {
        wheel(at, speed)
    } else {
        let shape: Shape = ConvexPolygon::rectangle(0.3, 0.2).expect("a box").into();
        let mut def = RigidBodyDef::new(shape)
            .pose(Isometry::translation(at.x, at.y))
            .friction(0.1);
        def.ccd = true;
        def.linvel = Vector::new(speed, 0.0);
        def
    };
    let (longest, covered) = roll(&floor, body, at);
    let what = format!(
        "seed {seed}: {} at {speed:.2} units/s",
        if disc { "disc" } else { "box" }
    );
    (longest, covered, what)
}

/// The property over `cases` seeded cases: nothing clamped at the start three steps running,
/// and `MotionClamping` covering at least a fifth of `FirstTimeOfImpact`'s distance; the
/// least share it covers.
fn never_stopped(cases: u64, case: impl Fn(u64) -> (usize, [Real; 2], String)) -> Real {
    let mut worst: Real = Real::MAX;
    for seed in 0..cases {
        let (longest, [clamp, toi], what) = case(seed);
        assert!(
            longest < 3,
            "{what}: clamped at the start {longest} steps running"
        );
        assert!(
            toi <= 1.0 || clamp >= 0.2 * toi,
            "{what}: covered {clamp:.2} under MotionClamping, {toi:.2} under FirstTimeOfImpact"
        );
        if toi > 1.0 {
            worst = worst.min(clamp / toi);
        }
    }
    worst
}

#[test]
fn nothing_rolling_over_random_joints_is_stopped_for_good() {
    let cases = if cfg!(debug_assertions) { 40 } else { 200 };
    let worst = never_stopped(cases, case);
    println!(
        "{cases} cases: MotionClamping covers at least {worst:.2} of FirstTimeOfImpact's distance"
    );
}

/// The box of seed 11 tips over a crest at x = -4 at step 20; it must be well past it after
/// 90 steps under `MotionClamping` (it stood at x = -3.86, stopped 1% into every step).
#[test]
fn a_box_tipping_over_a_crest_goes_on() {
    let (longest, [clamp, toi], what) = case(11);
    assert!(
        longest < 3,
        "{what}: clamped at the start {longest} steps running"
    );
    assert!(
        clamp > 10.0 && toi > 10.0,
        "{what}: covered {clamp:.2} and {toi:.2}"
    );
}

/// The same floors under an L of two boxes (arms 0.6, 0.15 thick, friction 0.1) sliding at 2
/// to 15 units/s: no step of `MotionClamping` clamps it at fraction 0 three steps running, and
/// it covers at least a fifth of what it covers under `FirstTimeOfImpact` (a compound
/// tipping over a crest is followed along its rebuilt sweep, as a swinging body must be).
#[test]
fn no_compound_sliding_over_random_joints_is_stopped_for_good() {
    use impact_testkit::compounds::{about_centre, compound, l_pieces};
    let cases = if cfg!(debug_assertions) { 20 } else { 200 };
    let worst = never_stopped(cases, |seed| {
        let mut rng = Rng::new(1000 + seed);
        let (floor, at) = seeded_floor(&mut rng, 0.8);
        let speed = rng.range(2.0, 15.0);
        let mut body = compound(&about_centre(&l_pieces(0.6, 0.15)))
            .pose(Isometry::new(
                at.coords,
                rng.range(0.0, core::f64::consts::TAU),
            ))
            .linvel(Vector::new(speed, 0.0))
            .friction(0.1);
        for shape in &mut body.shapes {
            shape.friction = 0.1;
        }
        let (longest, covered) = roll(&floor, body, at);
        let what = format!("seed {}: an L at {speed:.2} units/s", 1000 + seed);
        (longest, covered, what)
    });
    println!(
        "{cases} L cases: MotionClamping covers at least {worst:.2} of FirstTimeOfImpact's distance"
    );
}
