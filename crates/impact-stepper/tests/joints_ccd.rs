//! Invariant: under `FirstTimeOfImpact`, a fast body held by rigid joints moves with its
//! whole jointed group: struck inside the step, the group takes the impulse at that instant
//! and goes on as its joints take it, so fast whips and ragdolls do not pass thin walls and
//! no step opens their joints.
//!
//! - A chain of 20 links 0.1 long on a fixed pivot, turning at 10 to 50 rad/s, swung into a
//!   wall 1 mm thick (its tip reaching it within two steps): no link ends a step past the
//!   wall, and every step ends with the joints closed to 1% of a link.
//! - A ragdoll of 10 boxes and capsules (revolute joints with limits) shot at 500 units/s at
//!   a zero-thickness segment, from seeded poses, spins and directions: no body ends a step
//!   past the segment, and every step ends with the joints closed to 1% of its shortest link.
//! - A pendulum of length 2 whose bob meets a thin wall at 100 units/s, the wall's normal
//!   along the bob's velocity, rebounds at `e` times its speed to 2%, wherever in the step
//!   the impact falls.
//! - Determinism: a jointed scene under `FirstTimeOfImpact`, 500 steps equal 250, a JSON
//!   snapshot, a restore and 250 more, bit for bit.
//!
//! The figures are printed (`--nocapture`): the worst joint error after a step with an
//! impact on the group and after the others. The contact solver's soft joints alone would
//! open the chain by a third of a link in its first step at 50 rad/s; the stepper advances a
//! fast jointed group rigidly instead (see `docs/algorithms/joints-ccd.md`). The throws are
//! 1,000 each in release builds and 100 in debug builds (CI's profile), where they take
//! about a minute and a half each in release.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{
    Capsule, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Vector,
};
use impact_solver::{BodyHandle, CollisionFilter, JointDef, RevoluteJoint, RigidBodyDef};
use impact_stepper::{FirstTimeOfImpact, World, WorldSettings};
use impact_testkit::SplitMix64;

type W = World<RTreeBroadphase, FirstTimeOfImpact>;

/// Throws per scene: the tests run in release on CI's heavy jobs; a debug build samples.
const THROWS: u64 = if cfg!(debug_assertions) { 100 } else { 1000 };

/// The chain's links: 0.1 long.
const LINK: Real = 0.1;

/// The largest distance between a joint's two anchors in `w`, each joint's over `scale(j)`.
fn joint_error(w: &W, scale: impl Fn(BodyHandle, BodyHandle) -> Real) -> Real {
    w.joints()
        .iter()
        .map(|(_, j)| {
            let gap = j.separation(w.body_set()).unwrap().linear;
            gap / scale(j.body_a(), j.body_b())
        })
        .fold(0.0, Real::max)
}

/// What a scene's throws measured.
#[derive(Debug, Default)]
struct Tally {
    /// Throws run.
    throws: u64,
    /// Throws with a body past the wall, with where.
    through: Vec<String>,
    /// The worst joint error (relative) after a step with an impact on the group, and after
    /// one without.
    impact_steps: Real,
    other_steps: Real,
    /// Steps with an impact on the group, and those impacts.
    steps_with_impacts: usize,
    group_impacts: usize,
}

impl Tally {
    fn print(&self, name: &str) {
        println!(
            "{name}: {} throws, {} through; {} group impacts over {} steps; worst joint error \
             after an impact step {:.2e}, after the other steps {:.2e} (of the link)",
            self.throws,
            self.through.len(),
            self.group_impacts,
            self.steps_with_impacts,
            self.impact_steps,
            self.other_steps
        );
    }

    /// Steps `w` by `steps`, judging the bodies `bodies` against `past` after each step and
    /// the joints by `scale`.
    fn run(
        &mut self,
        (w, bodies, throw): (&mut W, &[BodyHandle], u64),
        steps: usize,
        past: impl Fn(&Point) -> bool,
        scale: impl Fn(BodyHandle, BodyHandle) -> Real,
    ) {
        self.throws += 1;
        for step in 0..steps {
            let report = w.step(DT).unwrap();
            let error = joint_error(w, &scale);
            if report.stepper.group_impacts > 0 {
                self.steps_with_impacts += 1;
                self.group_impacts += report.stepper.group_impacts;
                self.impact_steps = self.impact_steps.max(error);
            } else {
                self.other_steps = self.other_steps.max(error);
            }
            if let Some(&h) = bodies
                .iter()
                .find(|&&h| past(&w.body(h).unwrap().center_of_mass()))
            {
                self.through.push(format!(
                    "throw {throw}, step {step}: {h:?} at {:?}",
                    w.body(h).unwrap().center_of_mass()
                ));
                return;
            }
        }
    }
}

/// A world of the first-time-of-impact stepper with gravity 10 down.
fn world() -> W {
    W::new(WorldSettings::with_gravity(Vector::new(0.0, -10.0))).unwrap()
}

/// A revolute joint of `a` and `b` at `at` (world), with `limits` if given.
fn hinge(w: &mut W, (a, b): (BodyHandle, BodyHandle), at: Point, limits: Option<(Real, Real)>) {
    let kind = match limits {
        Some((lo, hi)) => RevoluteJoint::default().limits(lo, hi),
        None => RevoluteJoint::default(),
    };
    let def = JointDef::at_world_anchor(w.body_set(), a, b, at, kind.into()).unwrap();
    w.create_joint(def).unwrap();
}

/// Throw `throw` of the chain: 20 links on a fixed pivot at the origin, turning rigidly at
/// 10 to 50 rad/s counterclockwise toward a wall 1 mm thick at `x = wall` (0.4 to 1.9 out,
/// 6 units tall: the chain cannot go round it), the tip reaching it within two steps.
fn chain_throw(throw: u64) -> (W, Vec<BodyHandle>, Real) {
    let mut rng = SplitMix64::new(throw ^ 0xc4a1_2a11);
    let mut w = world();
    let wall = rng.range(0.4, 1.9);
    w.create_body(
        RigidBodyDef::fixed(ConvexPolygon::rectangle(0.0005, 3.0).unwrap().into())
            .pose(Isometry::translation(wall, 0.0)),
    )
    .unwrap();
    // The pivot does not collide with the links: it is in their group.
    let pivot = w
        .create_body(
            RigidBodyDef::fixed(Circle::new(0.01).unwrap().into())
                .filter(CollisionFilter::DEFAULT.group(-1)),
        )
        .unwrap();
    let omega = rng.range(10.0, 50.0);
    let length = 20.0 * LINK;
    // The tip meets the wall at this angle; start up to two steps of turn before it.
    let hit = -(wall / length).acos();
    let angle = hit - omega * DT * rng.range(0.05, 2.0);
    let dir = Vector::new(angle.cos(), angle.sin());
    let (restitution, friction) = (rng.range(0.0, 0.6), rng.range(0.0, 0.5));
    let mut links = Vec::new();
    let mut prev = pivot;
    for i in 0..20 {
        let center = dir * (LINK * (Real::from(i) + 0.5));
        let link = w
            .create_body(
                RigidBodyDef::new(ConvexPolygon::rectangle(0.5 * LINK, 0.01).unwrap().into())
                    .pose(Isometry::new(center, angle))
                    .linvel(Vector::new(-center.y, center.x) * omega)
                    .angvel(omega)
                    .restitution(restitution)
                    .friction(friction)
                    .filter(CollisionFilter::DEFAULT.group(-1))
                    .ccd(true),
            )
            .unwrap();
        let at = Point::from(dir * (LINK * Real::from(i)));
        hinge(&mut w, (prev, link), at, None);
        links.push(link);
        prev = link;
    }
    (w, links, wall)
}

/// Runs the whip throws `throws` into `tally`.
fn whip_throws(tally: &mut Tally, throws: impl Iterator<Item = u64>) {
    for throw in throws {
        let (mut w, links, wall) = chain_throw(throw);
        let past = |c: &Point| c.x > wall + 0.0005;
        tally.run((&mut w, &links, throw), 8, past, |_, _| LINK);
    }
}

#[test]
fn a_whip_swung_into_a_thin_wall_stays_on_its_side_and_keeps_its_joints() {
    let mut tally = Tally::default();
    whip_throws(&mut tally, 0..THROWS);
    tally.print("chain of 20 links at 10 to 50 rad/s into a 1 mm wall");
    assert!(tally.through.is_empty(), "{:#?}", tally.through);
    assert!(tally.group_impacts > 0, "the chain met the wall");
    assert!(tally.impact_steps < 0.01, "{}", tally.impact_steps);
    assert!(tally.other_steps < 0.01, "{}", tally.other_steps);
}

/// A joint of the ragdoll: parent part, child part, anchor, limits.
type RagdollJoint = (usize, usize, Point, (Real, Real));

/// The ragdoll's parts: (shape, centre) in its own frame (standing, facing +x), and
/// its joints: (parent, child, anchor, limits).
fn ragdoll_parts() -> (Vec<(Shape, Point)>, Vec<RagdollJoint>) {
    let capsule = |half: Real, r: Real| -> Shape {
        Capsule::new(Point::new(0.0, -half), Point::new(0.0, half), r)
            .unwrap()
            .into()
    };
    let parts = vec![
        // 0 torso, 1 head
        (
            ConvexPolygon::rectangle(0.15, 0.3).unwrap().into(),
            Point::new(0.0, 0.0),
        ),
        (Circle::new(0.12).unwrap().into(), Point::new(0.0, 0.45)),
        // 2-3 left arm, 4-5 right arm (hanging)
        (capsule(0.13, 0.04), Point::new(-0.2, 0.12)),
        (capsule(0.13, 0.035), Point::new(-0.2, -0.18)),
        (capsule(0.13, 0.04), Point::new(0.2, 0.12)),
        (capsule(0.13, 0.035), Point::new(0.2, -0.18)),
        // 6-7 left leg, 8-9 right leg
        (
            ConvexPolygon::rectangle(0.06, 0.18).unwrap().into(),
            Point::new(-0.08, -0.5),
        ),
        (
            ConvexPolygon::rectangle(0.05, 0.18).unwrap().into(),
            Point::new(-0.08, -0.88),
        ),
        (
            ConvexPolygon::rectangle(0.06, 0.18).unwrap().into(),
            Point::new(0.08, -0.5),
        ),
        (
            ConvexPolygon::rectangle(0.05, 0.18).unwrap().into(),
            Point::new(0.08, -0.88),
        ),
    ];
    let joints = vec![
        (0, 1, Point::new(0.0, 0.32), (-0.6, 0.6)),
        (0, 2, Point::new(-0.2, 0.27), (-2.5, 1.0)),
        (2, 3, Point::new(-0.2, -0.03), (0.0, 2.4)),
        (0, 4, Point::new(0.2, 0.27), (-1.0, 2.5)),
        (4, 5, Point::new(0.2, -0.03), (-2.4, 0.0)),
        (0, 6, Point::new(-0.08, -0.3), (-1.6, 0.6)),
        (6, 7, Point::new(-0.08, -0.69), (-2.4, 0.0)),
        (0, 8, Point::new(0.08, -0.3), (-0.6, 1.6)),
        (8, 9, Point::new(0.08, -0.69), (0.0, 2.4)),
    ];
    (parts, joints)
}

/// The shortest part of the ragdoll: a forearm, 0.33 long.
const RAGDOLL_LINK: Real = 0.33;

/// Throw `throw` of the ragdoll: turned at random, spinning at up to 20 rad/s, shot at 500
/// units/s (within 0.4 rad of `+x`) from 2 to 4 units left of a zero-thickness segment along
/// `x = 0`, 40 units tall.
fn ragdoll_throw(throw: u64) -> (W, Vec<BodyHandle>) {
    let mut rng = SplitMix64::new(throw ^ 0x5a9d_0111);
    let mut w = world();
    let paper = Segment::new(Point::new(0.0, -20.0), Point::new(0.0, 20.0)).unwrap();
    w.create_body(RigidBodyDef::fixed(paper.into())).unwrap();
    let at = Vector::new(rng.range(-4.0, -2.0), rng.range(-1.0, 1.0));
    let turn = rng.range(-3.2, 3.2);
    let heading = rng.range(-0.4, 0.4);
    let velocity = Vector::new(heading.cos(), heading.sin()) * 500.0;
    let spin = rng.range(-20.0, 20.0);
    let (restitution, friction) = (rng.range(0.0, 0.5), rng.range(0.0, 0.6));
    let place = Isometry::new(at, turn);
    let (parts, joints) = ragdoll_parts();
    let bodies: Vec<BodyHandle> = parts
        .into_iter()
        .map(|(shape, centre)| {
            let c = place * centre;
            let arm = c - Point::from(at);
            let def = RigidBodyDef::new(shape)
                .pose(Isometry::new(c.coords, turn))
                .linvel(velocity + Vector::new(-arm.y, arm.x) * spin)
                .angvel(spin)
                .restitution(restitution)
                .friction(friction)
                .filter(CollisionFilter::DEFAULT.group(-1))
                .ccd(true);
            w.create_body(def).unwrap()
        })
        .collect();
    for (parent, child, anchor, limits) in joints {
        hinge(
            &mut w,
            (bodies[parent], bodies[child]),
            place * anchor,
            Some(limits),
        );
    }
    (w, bodies)
}

/// Runs the ragdoll throws `throws` into `tally`. A body is past the segment where it is
/// on its far side within its 40 units: a ragdoll that slides along it (one shot nearly
/// along it, with little friction, slides at 230 units/s) can go round its end within the
/// six steps.
fn ragdoll_throws(tally: &mut Tally, throws: impl Iterator<Item = u64>) {
    for throw in throws {
        let (mut w, bodies) = ragdoll_throw(throw);
        let past = |c: &Point| c.x > 0.0 && c.y.abs() < 20.0;
        tally.run((&mut w, &bodies, throw), 6, past, |_, _| RAGDOLL_LINK);
    }
}

#[test]
fn a_ragdoll_shot_at_a_zero_thickness_segment_stays_on_its_side_and_keeps_its_joints() {
    let mut tally = Tally::default();
    ragdoll_throws(&mut tally, 0..THROWS);
    tally.print("ragdoll of 10 bodies at 500 units/s into a zero-thickness segment");
    assert!(tally.through.is_empty(), "{:#?}", tally.through);
    assert!(tally.group_impacts > 0, "the ragdoll met the segment");
    assert!(tally.impact_steps < 0.01, "{}", tally.impact_steps);
    assert!(tally.other_steps < 0.01, "{}", tally.other_steps);
}

/// The throws past the debug build's 100 that once ended a step with a joint open: the
/// whip's 316 (by 6% of a link) and 980 (16%), the ragdoll's 733 (a whole limb). Each group
/// impact there met the wall again with links or limbs the group already kept against it
/// from an earlier impact of the step; taken as points struck at that instant, each was
/// its kept touch's row a second time, bounced at its restitution off the approach of its
/// course, and left one more touch for every later advance, until an advance gained energy
/// or ran out of the step's budget and the group went on at its velocities. Run in every
/// build, so that CI's debug build, which samples the first 100 throws, holds them too.
#[test]
fn the_throws_that_once_opened_a_joint_keep_their_joints() {
    let mut whip = Tally::default();
    whip_throws(&mut whip, [316, 980].into_iter());
    whip.print("whip throws 316 and 980");
    let mut ragdoll = Tally::default();
    ragdoll_throws(&mut ragdoll, core::iter::once(733));
    ragdoll.print("ragdoll throw 733");
    for tally in [&whip, &ragdoll] {
        assert!(tally.through.is_empty(), "{:#?}", tally.through);
        assert!(tally.group_impacts > 0, "the group met the wall");
        assert!(tally.impact_steps < 0.01, "{}", tally.impact_steps);
        assert!(tally.other_steps < 0.01, "{}", tally.other_steps);
    }
}

/// A pendulum of length 2 on a fixed pivot, its bob (a disc of radius 0.1, restitution `e`,
/// no friction) at 100 units/s counterclockwise from angle `start`, and a wall 1 mm thick
/// along the radius at angle `wall` from 1.5 to 2.5 out: the bob meets it with the wall's
/// normal along its velocity. No gravity. Returns the bob's speed after each of `steps`
/// steps and whether it met the wall in the first.
fn pendulum(e: Real, start: Real, wall: Real, steps: usize) -> Vec<Real> {
    let mut w = W::new(WorldSettings::with_gravity(Vector::zeros())).unwrap();
    let pivot = w
        .create_body(RigidBodyDef::fixed(Circle::new(0.05).unwrap().into()))
        .unwrap();
    let radial = Vector::new(wall.cos(), wall.sin());
    w.create_body(
        RigidBodyDef::fixed(ConvexPolygon::rectangle(0.5, 0.0005).unwrap().into())
            .pose(Isometry::new(radial * 2.0, wall))
            .restitution(e)
            .friction(0.0),
    )
    .unwrap();
    let at = Vector::new(start.cos(), start.sin()) * 2.0;
    let bob = w
        .create_body(
            RigidBodyDef::new(Circle::new(0.1).unwrap().into())
                .pose(Isometry::new(at, start))
                .linvel(Vector::new(-at.y, at.x) * 50.0)
                .angvel(50.0)
                .restitution(e)
                .friction(0.0)
                .ccd(true),
        )
        .unwrap();
    hinge(&mut w, (pivot, bob), Point::origin(), None);
    (0..steps)
        .map(|_| {
            w.step(DT).unwrap();
            w.body(bob).unwrap().linvel().norm()
        })
        .collect()
}

#[test]
fn a_pendulum_rebounds_off_a_thin_wall_with_its_restitution() {
    let mut rng = SplitMix64::new(0x9e0d);
    let mut worst: Real = 0.0;
    for k in 0..50 {
        let e = [0.5, 0.3, 0.8][k % 3];
        // The bob's edge meets the wall 0.05 rad before its centre reaches it; the impact
        // falls anywhere in the first step (50 rad/s turns 0.83 rad a step).
        let start = rng.range(-3.0, 3.0);
        let wall = start + 0.05 + rng.range(0.02, 0.8);
        let speeds = pendulum(e, start, wall, 3);
        let off = (speeds[0] / (e * 100.0) - 1.0).abs();
        worst = worst.max(off);
        assert!(
            off < 0.02,
            "e {e}, start {start}, wall {wall}: speeds {speeds:?}, expected {}",
            e * 100.0
        );
    }
    println!(
        "pendulum at 100 units/s off a thin wall: rebound speed within {worst:.2e} of e * 100"
    );
}

#[cfg(feature = "serde")]
#[test]
fn a_jointed_scene_under_first_time_of_impact_continues_bit_for_bit_from_a_snapshot() {
    let scene = || {
        let (mut w, _, _) = chain_throw(7);
        let (parts, joints) = ragdoll_parts();
        let bodies: Vec<BodyHandle> = parts
            .into_iter()
            .map(|(shape, centre)| {
                let def = RigidBodyDef::new(shape)
                    .pose(Isometry::translation(-1.0 + centre.x, 3.0 + centre.y))
                    .linvel(Vector::new(40.0, -20.0))
                    .angvel(5.0)
                    .restitution(0.4)
                    .filter(CollisionFilter::DEFAULT.group(-1))
                    .ccd(true);
                w.create_body(def).unwrap()
            })
            .collect();
        for (parent, child, anchor, limits) in joints {
            let at = Point::new(-1.0 + anchor.x, 3.0 + anchor.y);
            hinge(&mut w, (bodies[parent], bodies[child]), at, Some(limits));
        }
        w.create_body(
            RigidBodyDef::fixed(ConvexPolygon::rectangle(10.0, 0.5).unwrap().into())
                .pose(Isometry::translation(0.0, -3.0)),
        )
        .unwrap();
        w
    };
    let (mut straight, mut first) = (scene(), scene());
    let mut impacts = 0;
    for _ in 0..250 {
        impacts += straight.step(DT).unwrap().stepper.group_impacts;
        first.step(DT).unwrap();
    }
    let json = serde_json::to_string(&first).unwrap();
    drop(first);
    let mut restored: W = serde_json::from_str(&json).unwrap();
    for _ in 0..250 {
        impacts += straight.step(DT).unwrap().stepper.group_impacts;
        restored.step(DT).unwrap();
        assert_eq!(restored.events(), straight.events());
    }
    println!("{impacts} group impacts over 500 steps");
    assert!(impacts > 0);
    assert_eq!(
        restored.body_set().state_hash(),
        straight.body_set().state_hash()
    );
    assert_eq!(restored.joints(), straight.joints());
}
