//! Invariant: under `FirstTimeOfImpact`, a jointed group thrown at a thin frictionless wall
//! at restitution 0 does not gain energy, keeps its momentum along the wall, keeps its
//! joints closed, and, where it meets the wall flat with several bodies at once, stops there.
//!
//! The oracle is the conservation laws of a perfectly inelastic, frictionless impact on a
//! body of infinite mass: the wall's impulses are along its normal, so the group's momentum
//! along the wall is unchanged; they do no positive work at restitution 0, so its kinetic
//! energy does not grow; and a group that meets the wall with all of its bodies at one
//! instant (lying along it, not turning) has every point that takes an impulse stopped, so
//! its centre of mass stops along the normal and no spin appears from a symmetric hit.
//!
//! The fault this keeps: the queue gave one pair at a time, and a group meeting a wall with
//! several bodies at once was resolved body after body, each impact turning the group about
//! the point it stopped and driving the next body in faster: two welded boxes met a 1 mm wall
//! flat at 20 units/s and left it at 3.6 units/s turning at 90 rad/s, a chain of 10
//! revolute links at 300 units/s left at half its speed with its joints open, three welded
//! links at 2,000 units/s left with momentum along the wall. Each is a test below.
//!
//! Groups: welded boxes, revolute chains and chains of rods (`DistanceJoint::rod`), 2 to 10
//! links of random size, thrown at 1 to 3,000 units/s, up to 60 degrees off the wall's normal,
//! spinning at up to 30 rad/s, at a box 1 mm thick or a segment. No gravity, no friction.

mod common;

use common::{DT, Rng};
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{ConvexPolygon, Isometry, Point, Real, Rotation, Segment, Vector};
use impact_solver::{
    BodyHandle, DistanceJoint, JointDef, JointKind, RevoluteJoint, RigidBodyDef, WeldJoint,
};
use impact_stepper::{FirstTimeOfImpact, World, WorldSettings};
use proptest::prelude::*;

type W = World<RTreeBroadphase, FirstTimeOfImpact>;

/// How the links are joined.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Links {
    /// End to end, welded: one rigid body.
    Weld,
    /// End to end, a revolute joint where two links meet.
    Revolute,
    /// `GAP` apart, a rigid distance joint between the facing ends.
    Rod,
}

/// The gap between the facing ends of two links joined by a rod.
const GAP: Real = 0.02;

/// Half the wall's thickness (a box) and half its length.
const WALL: (Real, Real) = (0.0005, 1_000.0);

/// A throw at the wall, which stands at `x = 0` along `y`.
#[derive(Debug, Clone, Copy)]
struct Throw {
    links: Links,
    count: usize,
    /// The links' half length (along the chain) and half width.
    half: (Real, Real),
    /// The chain's direction (radians from `+x`; `pi / 2` lies along the wall).
    angle: Real,
    speed: Real,
    /// The velocity's angle off the wall's normal (radians).
    incidence: Real,
    /// Turning rate of the whole chain (rad/s).
    spin: Real,
    /// A segment for the wall, else a box `2 * WALL.0` thick.
    segment: bool,
}

/// The world of `throw`: the wall, and the chain with its nearest corner a little before the
/// wall (half a step's travel along the normal, at least 1 mm, at most 0.5).
fn build(throw: &Throw) -> (W, Vec<BodyHandle>) {
    let mut w = W::new(WorldSettings::with_gravity(Vector::zeros())).unwrap();
    let wall = if throw.segment {
        Segment::new(Point::new(0.0, -WALL.1), Point::new(0.0, WALL.1))
            .unwrap()
            .into()
    } else {
        ConvexPolygon::rectangle(WALL.0, WALL.1).unwrap().into()
    };
    w.create_body(RigidBodyDef::fixed(wall).friction(0.0).restitution(0.0))
        .unwrap();
    let rot = Rotation::new(throw.angle);
    let gap = if throw.links == Links::Rod { GAP } else { 0.0 };
    let pitch = 2.0 * throw.half.0 + gap;
    let centres: Vec<Point> = (0..throw.count)
        .map(|i| Point::origin() + rot * Vector::new(pitch * i as Real, 0.0))
        .collect();
    let far = centres
        .iter()
        .flat_map(|c| {
            [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)]
                .map(|(sx, sy)| c.x + (rot * Vector::new(sx * throw.half.0, sy * throw.half.1)).x)
        })
        .fold(Real::NEG_INFINITY, Real::max);
    let normal_speed = throw.speed * throw.incidence.cos();
    let clearance = (0.5 * normal_speed * DT).clamp(0.001, 0.5);
    let shift = Vector::new(-WALL.0 - clearance - far, 0.0);
    let middle = centres[0] + (centres[throw.count - 1] - centres[0]) * 0.5 + shift;
    let v = Vector::new(throw.incidence.cos(), throw.incidence.sin()) * throw.speed;
    let mut links = Vec::new();
    for c in &centres {
        let c = c + shift;
        let r = c - middle;
        let def = RigidBodyDef::new(
            ConvexPolygon::rectangle(throw.half.0, throw.half.1)
                .unwrap()
                .into(),
        )
        .pose(Isometry::new(c.coords, throw.angle))
        .linvel(v + Vector::new(-throw.spin * r.y, throw.spin * r.x))
        .angvel(throw.spin)
        .restitution(0.0)
        .friction(0.0)
        .ccd(true);
        links.push(w.create_body(def).unwrap());
    }
    for i in 1..throw.count {
        let end = centres[i - 1] + shift + rot * Vector::new(throw.half.0, 0.0);
        let next = end + rot * Vector::new(gap, 0.0);
        let kind: JointKind = match throw.links {
            Links::Weld => WeldJoint::default().into(),
            Links::Revolute => RevoluteJoint::default().into(),
            Links::Rod => DistanceJoint::rod(GAP).into(),
        };
        let def =
            JointDef::at_world_anchors(w.body_set(), links[i - 1], links[i], (end, next), kind)
                .unwrap();
        w.create_joint(def).unwrap();
    }
    (w, links)
}

/// The group's mass, momentum, kinetic energy, centre of mass and the largest angular
/// velocity of a link.
#[derive(Debug, Clone, Copy)]
struct State {
    mass: Real,
    momentum: Vector,
    energy: Real,
    centre: Point,
    spin: Real,
}

fn state(w: &W, links: &[BodyHandle]) -> State {
    let (mut mass, mut moment, mut momentum, mut energy, mut spin) =
        (0.0, Vector::zeros(), Vector::zeros(), 0.0, 0.0 as Real);
    for &h in links {
        let b = w.body(h).unwrap();
        mass += b.mass();
        moment += b.center_of_mass().coords * b.mass();
        momentum += b.linvel() * b.mass();
        energy += 0.5 * (b.mass() * b.linvel().norm_squared() + b.inertia() * b.angvel().powi(2));
        spin = spin.max(b.angvel().abs());
    }
    State {
        mass,
        momentum,
        energy,
        centre: Point::from(moment / mass),
        spin,
    }
}

/// The largest joint error: the gap between the anchors (revolute, weld), or how far a rod's
/// anchors are from its length (`Joint::separation`).
fn joint_gap(w: &W) -> Real {
    w.largest_joint_separation().linear
}

/// How many steps a throw runs: it meets the wall in the first.
const STEPS: usize = 3;

/// The most the kinetic energy may grow over a step, relative to the throw's: the rigid
/// advance's slack (RATTLE's energy error over a step of a group turning at up to hundreds
/// of rad/s after its impacts; see `GroupImpactSolver::advance`). No impact adds any.
const ENERGY_SLACK: Real = 1e-4;

/// The same for a throw too slow for the time of impact (the contact solver's soft step
/// takes its contacts, and its soft joints give and spring back).
const SOFT_ENERGY_SLACK: Real = 1e-2;

/// The most the momentum along the wall may change over a step, relative to the throw's
/// momentum: rounding (no impulse of a frictionless wall has a part along it). Not checked
/// in a step that loses time: a body stopped there (reported) acts with infinite mass in
/// its group's later impacts.
const TANGENT_SLACK: Real = 1e-9;

/// The fastest a group that met the wall flat may leave it, relative to its speed, and the
/// fastest the tip of a link may turn then, relative to the same.
const REBOUND_SLACK: Real = 1e-6;

/// The largest joint error after a step of a flat throw (world units; links are 0.04 to
/// 0.2 long): the rigid advance's rows hold to `1e-10` of the group's size.
const JOINT_BOUND: Real = 1e-6;

/// What a throw came to: the worst of each check over its steps.
#[derive(Debug, Clone, Copy, Default)]
struct Worst {
    /// Energy gained in a step over the throw's energy.
    energy: Real,
    /// Momentum along the wall gained in a step that lost no time, over the throw's momentum.
    tangent: Real,
    /// The centre of mass's speed away from the wall at the end, over the throw's speed.
    rebound: Real,
    /// The largest link spin at the end (rad/s).
    spin: Real,
    /// The largest joint error after a step.
    joint: Real,
    /// Steps that lost time (bodies stopped, reported).
    lost: usize,
}

/// Whether `throw` is fast enough for the time of impact: a link covers half its bounding
/// radius in a step (`FirstTimeOfImpactSettings::threshold_radii_per_step`), with a margin.
fn fast(throw: &Throw) -> bool {
    throw.speed * DT > 0.75 * throw.half.0.hypot(throw.half.1)
}

/// Runs `throw` for [`STEPS`] steps.
fn run(throw: &Throw) -> Worst {
    let (mut w, links) = build(throw);
    let s0 = state(&w, &links);
    let scale = s0.mass * throw.speed;
    let mut worst = Worst::default();
    for _ in 0..STEPS {
        let before = state(&w, &links);
        let report = w.step(DT).unwrap();
        let after = state(&w, &links);
        worst.energy = worst.energy.max((after.energy - before.energy) / s0.energy);
        if report.stepper.time_lost > 0.0 {
            worst.lost += 1;
        } else {
            worst.tangent = worst
                .tangent
                .max((after.momentum.y - before.momentum.y).abs() / scale);
        }
        worst.joint = worst.joint.max(joint_gap(&w));
        assert!(
            after.centre.x < 0.0,
            "{throw:?}: the centre passed the wall"
        );
    }
    let end = state(&w, &links);
    worst.rebound = (-end.momentum.x / end.mass) / throw.speed;
    worst.spin = end.spin;
    worst
}

/// Checks the invariants of every throw on `worst`; for a flat throw fast enough for the
/// time of impact, that it stopped at the wall with its joints closed.
fn check(throw: &Throw, worst: &Worst, flat: bool) -> Result<(), String> {
    let fail = |what: &str| Err(format!("{what}: {worst:?} for {throw:?}"));
    let slack = if fast(throw) {
        ENERGY_SLACK
    } else {
        SOFT_ENERGY_SLACK
    };
    if worst.energy > slack {
        return fail("energy gained");
    }
    if worst.tangent > TANGENT_SLACK {
        return fail("momentum along the wall changed");
    }
    if !(flat && fast(throw)) {
        return Ok(());
    }
    if worst.joint > JOINT_BOUND {
        return fail("a joint opened");
    }
    if worst.rebound > REBOUND_SLACK || worst.spin * throw.half.0 > REBOUND_SLACK * throw.speed {
        return fail("a flat hit rebounded or turned");
    }
    Ok(())
}

fn links_of(i: usize) -> Links {
    [Links::Weld, Links::Revolute, Links::Rod][i % 3]
}

/// A random throw: `flat` lies along the wall without spin.
fn throw_of(rng: &mut Rng, flat: bool) -> Throw {
    let links = links_of(rng.below(3));
    Throw {
        links,
        count: 2 + rng.below(9),
        half: (rng.range(0.02, 0.1), rng.range(0.01, 0.05)),
        angle: if flat {
            core::f64::consts::FRAC_PI_2
        } else {
            rng.range(-3.2, 3.2)
        },
        speed: 10f64.powf(rng.range(0.0, 3.48)),
        incidence: rng.range(-1.05, 1.05),
        spin: if flat { 0.0 } else { rng.range(-30.0, 30.0) },
        segment: rng.below(2) == 0,
    }
}

fn base() -> Throw {
    Throw {
        links: Links::Weld,
        count: 2,
        half: (0.02, 0.05),
        angle: core::f64::consts::FRAC_PI_2,
        speed: 20.0,
        incidence: 0.0,
        spin: 0.0,
        segment: false,
    }
}

#[test]
fn two_welded_boxes_meeting_a_wall_flat_stop() {
    for half in [(0.02, 0.05), (0.05, 0.02), (0.04, 0.1), (0.1, 0.04)] {
        let throw = Throw { half, ..base() };
        check(&throw, &run(&throw), true).unwrap();
    }
}

#[test]
fn ten_revolute_links_meeting_a_wall_flat_stop() {
    for half in [(0.02, 0.05), (0.05, 0.02), (0.05, 0.01)] {
        let throw = Throw {
            links: Links::Revolute,
            count: 10,
            half,
            speed: 300.0,
            ..base()
        };
        check(&throw, &run(&throw), true).unwrap();
    }
}

#[test]
fn three_welded_links_at_2000_units_keep_their_momentum_along_the_wall() {
    for half in [(0.02, 0.05), (0.05, 0.02)] {
        let throw = Throw {
            count: 3,
            half,
            speed: 2_000.0,
            ..base()
        };
        check(&throw, &run(&throw), true).unwrap();
    }
}

/// Runs `count` seeded throws (`flat` ones, or turning and tilted ones) and checks each;
/// prints the worst of each check (`--nocapture`) and the first failures.
fn seeded(flat: bool, count: usize) {
    let mut rng = Rng(0x005e_ed0f_7a11);
    let (mut worst, mut slow) = (Worst::default(), Worst::default());
    let mut failures = Vec::new();
    for i in 0..2 * count {
        let throw = throw_of(&mut rng, i % 2 == 0);
        if (i % 2 == 0) != flat {
            continue;
        }
        let got = run(&throw);
        let w = if fast(&throw) { &mut worst } else { &mut slow };
        w.energy = w.energy.max(got.energy);
        w.tangent = w.tangent.max(got.tangent);
        w.joint = w.joint.max(got.joint);
        w.rebound = w.rebound.max(got.rebound);
        w.spin = w.spin.max(got.spin * throw.half.0 / throw.speed);
        w.lost += got.lost;
        if let Err(e) = check(&throw, &got, flat) {
            failures.push(format!("throw {i}: {e}"));
        }
    }
    println!("flat {flat}, fast: {worst:?} (spin as a tip's speed over the throw's)");
    println!("flat {flat}, slow: {slow:?}");
    for f in failures.iter().take(10) {
        println!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {count} throws failed",
        failures.len()
    );
}

/// Seeded flat throws, 1,000 in a release build (60 in a debug one). Without the
/// simultaneous points of a group impact, 1,414 of 2,000 flat and turning throws failed,
/// flat ones leaving the wall at up to 65% of their speed with joints open by 10 units.
#[test]
fn seeded_flat_throws_stop() {
    seeded(true, if cfg!(debug_assertions) { 60 } else { 1_000 });
}

/// Known faults, kept ignored: turning and tilted throws, whose bodies meet the wall one
/// after another. Of 1,000 (release):
///
/// - most change their momentum along the wall, by up to 20% over a step: the velocity a
///   group impact resolves is each body's turned along its course (`Turning` in
///   `first_toi/groups.rs`), and the turned velocities of a free group do not sum to its
///   momentum. Shifting every body's velocity by one amount, to the sum of the velocities
///   interpolated linearly (which a free group's momentum is, gravity and the wall's normal
///   pushes aside), keeps it to 1e-11 but for one throw (0.29%), and was taken out again:
///   it left `spinning_chains`' frozen throw with a joint open by 0.60 at step 5, past that
///   test's bound of 0.5.
/// - 25 gain energy over a step by more than `ENERGY_SLACK` (up to 4.6% of the throw's, two
///   welded links at 2 units/s turning at 7 rad/s, throw 951); the same throws do so without
///   the simultaneous points of a group impact, which do not cause it.
///
/// Joints are not checked: where a group's rigid advance after an impact does not hold, the
/// group goes on at its velocities and its joints open (see `docs/algorithms/joints-ccd.md`).
#[test]
#[ignore]
fn seeded_turning_throws_gain_no_energy() {
    seeded(false, if cfg!(debug_assertions) { 60 } else { 1_000 });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(debug_assertions) { 48 } else { 512 }))]

    /// A group lying along the wall, thrown fast enough for the time of impact at any angle
    /// of incidence: every check, the stop and the closed joints with them.
    #[test]
    fn a_group_meeting_a_wall_flat_stops(
        links in 0usize..3,
        count in 2usize..=10,
        half in (0.02..0.1, 0.01..0.05),
        log_speed in 0.0..3.48,
        incidence in -1.05..1.05,
        segment in any::<bool>(),
    ) {
        let throw = Throw {
            links: links_of(links),
            count,
            half,
            angle: core::f64::consts::FRAC_PI_2,
            speed: 10f64.powf(log_speed),
            incidence,
            spin: 0.0,
            segment,
        };
        prop_assume!(fast(&throw));
        let worst = run(&throw);
        let checked = check(&throw, &worst, true);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}

/// Prints a throw's steps: the report, the events and the group's state.
fn trace(throw: &Throw) {
    let (mut w, links) = build(throw);
    for step in 0..STEPS {
        let before = state(&w, &links);
        let report = w.step(DT).unwrap();
        let after = state(&w, &links);
        println!(
            "step {step}: momentum {:?} -> {:?}, energy {} -> {}, joint {:e}",
            before.momentum,
            after.momentum,
            before.energy,
            after.energy,
            joint_gap(&w)
        );
        let r = &report.stepper;
        println!(
            "  events {} group impacts {} advanced {} zeno {:?} stopped {:?} lost {} capped {}",
            r.events,
            r.group_impacts,
            r.groups_advanced,
            r.zeno_pairs,
            r.stopped,
            r.time_lost,
            r.capped
        );
        for e in w.events() {
            println!(
                "  {:.6} {} {} at {:?} n {:?} approach {} jn {} {:?}",
                e.fraction,
                e.a.index,
                e.b.index,
                e.impulse.point,
                e.impulse.normal_direction,
                e.impulse.approach_speed,
                e.impulse.normal,
                e.kind
            );
        }
    }
}

#[test]
#[ignore]
fn trace_throw() {
    let i: usize = std::env::var("THROW").map_or(0, |t| t.parse().unwrap_or(0));
    let mut rng = Rng(0x005e_ed0f_7a11);
    for j in 0..=i {
        let throw = throw_of(&mut rng, j % 2 == 0);
        if j == i {
            println!("{throw:?}");
            trace(&throw);
        }
    }
}
