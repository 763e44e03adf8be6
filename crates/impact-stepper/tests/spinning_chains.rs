//! Invariant: under `FirstTimeOfImpact`, a free jointed chain thrown spinning at a thin wall
//! never passes it, and moves as its momentum says whenever nothing outside it acts on it,
//! however fast it spins after the blow.
//!
//! A chain of four links (boxes 0.2 x 0.04, every link CCD, no gravity) joined by revolute
//! joints, by rigid distance joints or by ropes ([`Links`]), thrown at up to 3,000 units/s and
//! 60 rad/s at a wall 1 mm thick (and 20,000 long: no throw leaves its span in the steps
//! checked): the wall's blow sets its links turning at up to 16,000 rad/s, past what the
//! group's rigid advance follows in its substeps, and its links fold onto one another. The
//! checks, after every step:
//!
//! - **Nothing passes the wall**: no link's centre of mass past the wall's far face, and
//!   none off the wall's span, for every throw (the property test, and 1,000 seeded throws
//!   of each kind of joint in a release build, `seeded_throws_never_pass_the_wall_*`). A
//!   pair that a group keeps in contact after an impact is left unplanned only while the
//!   rigid advance that holds its touch moves it: a link sent on at its velocities when a
//!   later impact's advance failed, its pair with the wall still left to a touch nothing
//!   held any more, ended past the wall in 7 of 1,000 revolute throws, 6 of 1,000 rod throws
//!   and 13 of 1,000 rope throws of seed 1; `a_chain_tumbling_along_a_wall_stays_on_its_side`,
//!   `a_rod_chain_stays_on_its_side` and `a_rope_chain_stays_on_its_side` keep one of each.
//!   Of 6,000 throws of each kind (seeds 1 to 6) one rope chain still ends past the wall, a
//!   link that the chord of a kept pair carried into it before an advance failed
//!   (`a_rope_chain_dipped_into_the_wall_stays_on_its_side`, ignored), and none but it.
//! - **It moves.** In a step that starts off the wall, without an impact on it and without
//!   lost time, the chain's centre of mass moves by its momentum over its mass times the step
//!   (no gravity, and every other force is inside the chain), to 1e-6 of that distance. A
//!   chain whose bodies kept their velocities but stayed where they were (its rigid advance
//!   failing every step, its bodies left at their start poses) broke it by 30 units a step.
//! - **Its joints hold**, for the frozen throw: every joint within `JOINT_BOUND` of closed
//!   (see [`joint_gap`]). Not over random throws: where the group's rigid advance after an
//!   impact does not hold, the group goes on at its velocities and a joint opens by up to a
//!   few links for a step (see `docs/algorithms/joints-ccd.md`).
//! - **It does not stop.** Time is lost (reported) in at most `MOST_LOST_STEPS` steps.
//! - **Its energy does not grow** beyond the rigid advance's slack.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{ConvexPolygon, Isometry, Point, Real, Rotation, Vector};
use impact_solver::{BodyHandle, DistanceJoint, JointDef, JointKind, RevoluteJoint, RigidBodyDef};
use impact_stepper::{FirstTimeOfImpact, World, WorldSettings};
use proptest::prelude::*;

type W = World<RTreeBroadphase, FirstTimeOfImpact>;

/// The links' half length and half width.
const HALF: (Real, Real) = (0.1, 0.02);

/// Half the wall's length: a throw slides along it at up to 3,000 units/s, 1,500 units in
/// the 30 steps of a random throw and 5,500 in the 120 of the frozen one.
const WALL_HALF_LENGTH: Real = 10_000.0;

/// The largest gap between a joint's two anchors after a step (world units; the links are
/// 0.2 long). The chain's joints close to about 1e-9 while its rigid advance holds; where a
/// link turns too fast for it, the chain moves as one rigid body (see
/// `docs/algorithms/joints-ccd.md`), from where the last impact's group left it.
const JOINT_BOUND: Real = 0.5;

/// The most steps of a throw that may lose time (a Zeno pair or a stopped body, reported):
/// of 6,000 seeded throws of each kind of link (seeds 1 to 6), one lost time in 6 of its 30
/// steps and none in more (the pairs a group keeps are planned again once its advance fails, and two
/// links folded onto each other then stop rather than pass); a chain stopped step after step
/// loses it in every one.
const MOST_LOST_STEPS: usize = 8;

/// The most the chain's energy may grow, relative to its start: the rigid advance's own
/// slack (RATTLE's energy error; see `GroupImpactSolver::advance`). One throw in 256 gains
/// 0.1% from its impacts.
const ENERGY_SLACK: Real = 1e-2;

/// How a chain's links are joined.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Links {
    /// End to end, a revolute joint where two links meet.
    Revolute,
    /// `GAP` apart, a rigid distance joint (`DistanceJoint::rod`) between the facing ends.
    Rod,
    /// `GAP` apart, a rope (`DistanceJoint::rope`) between the facing ends.
    Rope,
}

/// The gap between the facing ends of two links joined by a distance joint or a rope.
const GAP: Real = 0.05;

/// A throw: speed, direction of the velocity, spin, the chain's angle, its first link's
/// centre, the restitution, the joints.
#[derive(Debug, Clone, Copy)]
struct Throw {
    speed: Real,
    dir: Real,
    spin: Real,
    angle: Real,
    start: Point,
    restitution: Real,
    links: Links,
}

/// The chain of `throw` and a wall 1 mm thick at `x = 0`.
fn chain(throw: &Throw) -> (W, Vec<BodyHandle>) {
    let mut w = W::new(WorldSettings::with_gravity(Vector::zeros())).unwrap();
    w.create_body(RigidBodyDef::fixed(
        ConvexPolygon::rectangle(0.0005, WALL_HALF_LENGTH)
            .unwrap()
            .into(),
    ))
    .unwrap();
    let rot = Rotation::new(throw.angle);
    let v = Vector::new(throw.dir.cos(), throw.dir.sin()) * throw.speed;
    let pitch = match throw.links {
        Links::Revolute => 2.0 * HALF.0,
        Links::Rod | Links::Rope => 2.0 * HALF.0 + GAP,
    };
    let mut links = Vec::new();
    for i in 0..4 {
        let c = throw.start + rot * Vector::new(pitch * Real::from(i), 0.0);
        let r = c - throw.start;
        let def = RigidBodyDef::new(ConvexPolygon::rectangle(HALF.0, HALF.1).unwrap().into())
            .pose(Isometry::new(c.coords, throw.angle))
            .linvel(v + Vector::new(-throw.spin * r.y, throw.spin * r.x))
            .angvel(throw.spin)
            .restitution(throw.restitution)
            .ccd(true);
        links.push(w.create_body(def).unwrap());
    }
    for i in 1..4 {
        let end =
            throw.start + rot * Vector::new(pitch * Real::from(i as u8) - pitch + HALF.0, 0.0);
        let next = end + rot * Vector::new(pitch - 2.0 * HALF.0, 0.0);
        let kind: JointKind = match throw.links {
            Links::Revolute => RevoluteJoint::default().into(),
            Links::Rod => DistanceJoint::rod(GAP).into(),
            Links::Rope => DistanceJoint::rope(GAP).into(),
        };
        let def =
            JointDef::at_world_anchors(w.body_set(), links[i - 1], links[i], (end, next), kind)
                .unwrap();
        w.create_joint(def).unwrap();
    }
    (w, links)
}

/// The chain's centre of mass, momentum over mass, and energy.
fn state(w: &W, links: &[BodyHandle]) -> (Point, Vector, Real) {
    let (mut mass, mut moment, mut momentum, mut energy) =
        (0.0, Vector::zeros(), Vector::zeros(), 0.0);
    for &h in links {
        let b = w.body(h).unwrap();
        mass += b.mass();
        moment += b.center_of_mass().coords * b.mass();
        momentum += b.linvel() * b.mass();
        energy += 0.5 * (b.mass() * b.linvel().norm_squared() + b.inertia() * b.angvel().powi(2));
    }
    (Point::from(moment / mass), momentum / mass, energy)
}

/// The largest error of a joint: the gap between a revolute joint's anchors, how far a
/// distance joint's anchors are from its length, or past a rope's (`Joint::separation`).
fn joint_gap(w: &W) -> Real {
    w.largest_joint_separation().linear
}

/// Runs `throw` for `steps` steps and checks the module's invariants after each, joints to
/// `joints`; returns the chain's centre of mass at the end.
fn check(throw: &Throw, steps: usize, joints: Real) -> Result<Point, String> {
    let (mut w, links) = chain(throw);
    let (_, _, energy0) = state(&w, &links);
    let mut lost_steps = 0;
    for step in 0..steps {
        let (c0, v0, _) = state(&w, &links);
        // Off the wall by more than a half link: no contact of the solver's with it.
        let off = links
            .iter()
            .all(|&h| w.body(h).unwrap().center_of_mass().x < -0.2);
        let report = w.step(DT).map_err(|e| format!("step {step}: {e:?}"))?;
        let (c1, v1, energy) = state(&w, &links);
        let lost = report.stepper.time_lost;
        if off && w.events().is_empty() && lost == 0.0 {
            let expected = v0 * DT;
            let moved = c1 - c0;
            let tol = 1e-6 * expected.norm() + 1e-9;
            if (moved - expected).norm() > tol || (v1 - v0).norm() * DT > tol {
                return Err(format!(
                    "step {step}: the centre moved {moved:?} where its momentum says {expected:?} \
                     (momentum over mass {v0:?} then {v1:?}); {:?}",
                    report.stepper
                ));
            }
        }
        if lost > 0.0 {
            lost_steps += 1;
            if lost_steps > MOST_LOST_STEPS {
                return Err(format!("step {step}: time lost in {lost_steps} steps"));
            }
        }
        let gap = joint_gap(&w);
        if gap > joints {
            return Err(format!("step {step}: a joint open by {gap}"));
        }
        if energy > energy0 * (1.0 + ENERGY_SLACK) {
            return Err(format!("step {step}: energy {energy} from {energy0}"));
        }
        for &h in &links {
            let c = w.body(h).unwrap().center_of_mass();
            if c.y.is_nan() || c.y.abs() >= WALL_HALF_LENGTH {
                return Err(format!("step {step}: {h:?} at {c:?}, off the wall's span"));
            }
            if c.x > 0.0005 {
                return Err(format!("step {step}: {h:?} past the wall at {c:?}"));
            }
        }
    }
    Ok(state(&w, &links).0)
}

/// The `n` throws of `seed` (the test kit's generator) with `links`, from the ranges of the
/// property test.
fn seeded_throws(seed: u64, n: usize, links: Links) -> Vec<Throw> {
    let mut rng = common::Rng::new(seed);
    (0..n)
        .map(|_| {
            let speed = rng.range(100.0, 3000.0);
            let dir = rng.range(-0.6, 0.6);
            let spin = rng.range(-60.0, 60.0);
            let angle = rng.range(-core::f64::consts::PI, core::f64::consts::PI);
            let y = rng.range(-1.0, 1.0);
            let steps_out = rng.range(0.3, 3.0);
            let restitution = [0.0, 0.5, 1.0][rng.below(3)];
            Throw {
                speed,
                dir,
                spin,
                angle,
                start: Point::new(-1.0 - speed * DT * steps_out, y),
                restitution,
                links,
            }
        })
        .collect()
}

/// The throws of [`seeded_throws`] each run 30 steps: every one keeps the invariants, joints
/// aside.
fn check_seeded(seed: u64, links: Links) {
    let n = if cfg!(debug_assertions) { 40 } else { 1000 };
    let failed: Vec<String> = seeded_throws(seed, n, links)
        .iter()
        .enumerate()
        .filter_map(|(i, throw)| {
            check(throw, 30, Real::INFINITY)
                .err()
                .map(|e| format!("throw {i}: {throw:?}: {e}"))
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {n}:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// 1,000 revolute chains in a release build (40 in a debug one; about 13 s in release):
/// seven ended past the wall where a pair kept by a group outlived the advance that held it.
#[test]
fn seeded_throws_never_pass_the_wall_revolute() {
    check_seeded(1, Links::Revolute);
}

/// As [`seeded_throws_never_pass_the_wall_revolute`], rod chains: six of 1,000 ended past
/// the wall.
#[test]
fn seeded_throws_never_pass_the_wall_rod() {
    check_seeded(1, Links::Rod);
}

/// As [`seeded_throws_never_pass_the_wall_revolute`], rope chains: thirteen of 1,000 ended
/// past the wall.
#[test]
fn seeded_throws_never_pass_the_wall_rope() {
    check_seeded(1, Links::Rope);
}

/// The throw a newcomer's trial found frozen: after two steps its links, folded onto one
/// another and turning at thousands of radians per second, kept ~1,800 units/s and never
/// moved again.
#[test]
fn the_frozen_throw_flies_off_at_its_momentum() {
    let throw = Throw {
        speed: 2746.729134561861,
        dir: 0.41241549014058043,
        spin: -35.489879983999444,
        angle: 2.841490642546066,
        start: Point::new(-37.15682542796672, 0.8051550041471547),
        restitution: 0.5,
        links: Links::Revolute,
    };
    let end = check(&throw, 120, JOINT_BOUND).unwrap();
    // Off the wall and far along it: it left at over 1,000 units/s.
    assert!(end.x < -1.0 && end.y > 500.0, "{end:?}");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: if cfg!(debug_assertions) { 8 } else { 64 },
        ..ProptestConfig::default()
    })]

    /// Throws of every speed, spin and angle at the wall, with every kind of link, keep the
    /// invariants (joints aside).
    #[test]
    fn spinning_chains_move_as_their_momentum_says(
        speed in 100.0..3000.0,
        dir in -0.6..0.6,
        spin in -60.0..60.0,
        angle in -core::f64::consts::PI..core::f64::consts::PI,
        y in -1.0..1.0,
        steps_out in 0.3..3.0,
        restitution in prop_oneof![Just(0.0), Just(0.5), Just(1.0)],
        links in prop_oneof![Just(Links::Revolute), Just(Links::Rod), Just(Links::Rope)],
    ) {
        let throw = Throw {
            speed,
            dir,
            spin,
            angle,
            start: Point::new(-1.0 - speed * DT * steps_out, y),
            restitution,
            links,
        };
        if let Err(e) = check(&throw, 30, Real::INFINITY) {
            prop_assert!(false, "{throw:?}: {e}");
        }
    }
}

/// A chain that lands without bounce at 210 units/s and tumbles along the wall (throw 822 of
/// `seeded_throws(1, ..)`): at its second impact on the wall in step 1 its group kept the
/// pair of link 1 and the wall; a later impact's rigid advance did not hold, link 1 went on
/// at its velocities with the pair still unplanned, and it ended the step past the wall at
/// (0.013, -1.93).
#[test]
fn a_chain_tumbling_along_a_wall_stays_on_its_side() {
    let throw = Throw {
        speed: 210.03011588335562,
        dir: -0.47185427730400387,
        spin: 24.068289832667602,
        angle: 1.6011648702865715,
        start: Point::new(-4.65001106902486, 0.9675341038921514),
        restitution: 0.0,
        links: Links::Revolute,
    };
    check(&throw, 30, Real::INFINITY).unwrap();
}

/// A rod chain at 335 units/s (throw 122 of `seeded_throws(1, ..)`): its last link ended the
/// first step past the wall at (0.043, -0.128) the same way.
#[test]
fn a_rod_chain_stays_on_its_side() {
    let throw = Throw {
        speed: 334.74418883443553,
        dir: -0.17346695864203704,
        spin: 7.166499079315145,
        angle: 0.7079421204297298,
        start: Point::new(-4.167929852536889, 0.7997245890659592),
        restitution: 1.0,
        links: Links::Rod,
    };
    check(&throw, 30, Real::INFINITY).unwrap();
}

/// A rope chain at 566 units/s (throw 69 of `seeded_throws(1, ..)`): its last link ended the
/// first step past the wall at (0.021, -4.66) the same way.
#[test]
fn a_rope_chain_stays_on_its_side() {
    let throw = Throw {
        speed: 566.3321309936726,
        dir: -0.3876012409406808,
        spin: 9.193297309036623,
        angle: -1.2472183065142062,
        start: Point::new(-8.380441714418629, -0.4799408783052219),
        restitution: 0.0,
        links: Links::Rope,
    };
    check(&throw, 30, Real::INFINITY).unwrap();
}

/// A rope chain at 177 units/s (throw 825 of `seeded_throws(4, ..)`): in step 2 its group
/// kept the pair of link 1 and the wall at 1.3 ms, and link 1's chord to where the advance
/// ended it (a turn of 173 degrees) dipped into the 1 mm wall; at 5.8 ms a later impact's
/// advance failed with link 1 6 cm into the wall, and link 1, sent on at its velocities from
/// there, ended the step past it at (0.0044, 1.31). Ignored: the one throw of the 6,000 of
/// each kind that still passes (see `docs/algorithms/joints-ccd.md`, "Left out").
#[test]
#[ignore = "known: a kept chord dipped into the wall when the group's advance fails"]
fn a_rope_chain_dipped_into_the_wall_stays_on_its_side() {
    let throw = Throw {
        speed: 177.25132467615143,
        dir: 0.22974326174996929,
        spin: 51.52579550238154,
        angle: 1.5922531690433877,
        start: Point::new(-5.343994375426918, -0.9894411976261634),
        restitution: 0.0,
        links: Links::Rope,
    };
    check(&throw, 30, Real::INFINITY).unwrap();
}

/// A rope chain at 2,066 units/s (throw 554 of `seeded_throws(4, ..)`): in step 2 a rigid
/// advance after an impact "held" with every link moved 15,000 units along the wall in
/// 2.6 ms (a position projection along nearly dependent rows), and the chain ended the step
/// there, its velocities untouched. The advance does not hold such a motion.
#[test]
fn a_rope_chain_is_not_carried_off_by_a_projection() {
    let throw = Throw {
        speed: 2066.361839419413,
        dir: -0.49504984800563584,
        spin: 36.382783771670674,
        angle: -2.479179549008969,
        start: Point::new(-61.741251990700796, -0.971413692426859),
        restitution: 0.0,
        links: Links::Rope,
    };
    check(&throw, 30, Real::INFINITY).unwrap();
}
