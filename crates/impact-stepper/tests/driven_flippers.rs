//! Invariant: a motor-driven body never carries another body through itself. A flipper
//! that its motor turns pushes the bodies on it along with it: under `FirstTimeOfImpact`
//! each push is an impact after which the pushed body leaves on a straight course and the
//! turning flipper falls back onto it at once (a Zeno pair), and a body that stopped there
//! while the flipper went on was passed whole.
//!
//! Scenes, seeded: a flipper (a thin box 1 long, 0.02 to 0.08 thick, on a fixed pivot at
//! one end, a revolute motor at 10 to 40 rad/s with torque to spare, a limit 0.6 to 1.8
//! rad up) with one disc 0.02 to 0.1 across resting on it (the pinball flipper's own shot),
//! or 2 to 7 discs resting on its top face, a little above it or stacked on the previous
//! disc, or those under a fixed ceiling over part of its travel that traps some of them
//! against it; and the flipper as a kinematic body turned at the same speed up to the same
//! limit. Every step, each disc's centre in the flipper's frame says on which side of the
//! flipper it clearly lies (farther from its mid line than its half thickness plus the
//! disc's radius, less the linear slop); a disc that goes from one side to the other
//! without being beyond the flipper's ends is through it.
//!
//! Without the carry (`first_toi/carry.rs`), `FirstTimeOfImpact` let 211 of 400 single
//! discs, 403 discs of the 400 scenes of several and 76 single discs on a kinematic flipper
//! through, and 290 of the scenes under a ceiling; carried rigidly, without the slide off
//! the ceiling, 80 of those. The contact solver alone does not hold a disc on such a
//! flipper (`Discrete` lets 88 single discs through): its manifold's normal and points are
//! the step's start's, and the flipper turns up to 0.67 rad in a step. `MotionClamping`
//! left such pairs to it and stopped the flipper where the rebuilt motions met (27 of 400
//! single discs through, 7 of the scenes of several); it now carries the disc as
//! `FirstTimeOfImpact` does (`motion_clamping/carry.rs`) and passes none. Under the
//! ceiling it passes a disc in 13 of 400 scenes (11 before), a known limit counted by an
//! ignored test.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Vector};
use impact_solver::{BodyHandle, CollisionFilter, JointDef, RevoluteJoint, RigidBodyDef};
use impact_stepper::{FirstTimeOfImpact, MotionClamping, Stepper, World, WorldSettings};
use impact_testkit::SplitMix64;

/// Throws per scene (a tenth of a second in a debug build).
const THROWS: u64 = 400;

/// Steps per throw: the flipper's whole travel at its slowest speed, and the bounces after.
const STEPS: usize = 30;

/// The flipper's half length.
const HALF_LENGTH: Real = 0.5;

/// What turns the flipper.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Drive {
    /// A revolute motor on the pivot, with a limit.
    Motor,
    /// Nothing: the flipper is a kinematic body whose velocities are set before each step
    /// to turn it about the pivot at the motor's speed, until the step would take it past
    /// the limit.
    Kinematic,
}

/// One throw's world, its flipper and half thickness, and its discs with their radii.
struct Throw<S: Stepper> {
    world: World<RTreeBroadphase, S>,
    /// The flipper's speed (radians per second) and its angle at the limit, when kinematic.
    kinematic: Option<(Real, Real)>,
    flipper: BodyHandle,
    half_thickness: Real,
    discs: Vec<(BodyHandle, Real)>,
}

/// The scenes of the module's docs.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Discs {
    /// One disc resting on the flipper, no ceiling.
    One,
    /// 2 to 7 discs, no ceiling.
    Several,
    /// 2 to 7 discs under the ceiling.
    UnderCeiling,
}

/// Throw `throw` under `S`: the scene `discs` of the module's docs, the flipper turned by
/// `drive`.
fn throw<S: Stepper + Default>(throw: u64, discs_kind: Discs, drive: Drive) -> Throw<S> {
    let one_disc = discs_kind == Discs::One;
    let mut rng = SplitMix64::new(throw ^ 0xf11b_be25);
    let mut w =
        World::<RTreeBroadphase, S>::new(WorldSettings::with_gravity(Vector::new(0.0, -10.0)))
            .unwrap();
    let half_thickness = rng.range(0.01, 0.04);
    let start = rng.range(-0.6, -0.3);
    let pivot_at = Point::new(0.0, 0.0);
    let group = CollisionFilter::DEFAULT.group(-1);
    let pivot = w
        .create_body(RigidBodyDef::fixed(Circle::new(0.01).unwrap().into()).filter(group))
        .unwrap();
    let axis = Vector::new(start.cos(), start.sin());
    let shape = ConvexPolygon::rectangle(HALF_LENGTH, half_thickness).unwrap();
    let def = match drive {
        Drive::Motor => RigidBodyDef::new(shape.into()),
        Drive::Kinematic => RigidBodyDef::kinematic(shape.into()),
    };
    let flipper = w
        .create_body(
            def.pose(Isometry::new(axis * HALF_LENGTH, start))
                .density(rng.range(5.0, 50.0))
                .friction(rng.range(0.0, 0.6))
                .filter(group)
                .ccd(true),
        )
        .unwrap();
    let omega = rng.range(10.0, 40.0);
    let limit = rng.range(0.6, 1.8);
    let kind = RevoluteJoint::default()
        .motor(omega, 1.0e4)
        .limits(0.0, limit);
    if drive == Drive::Motor {
        let def = JointDef::at_world_anchor(w.body_set(), pivot, flipper, pivot_at, kind.into());
        w.create_joint(def.unwrap()).unwrap();
    }
    // A ceiling over part of the flipper's travel.
    let ceiling_height = rng.range(0.15, 0.6);
    let ceiling_x = rng.range(0.3, 1.0);
    if discs_kind == Discs::UnderCeiling {
        w.create_body(
            RigidBodyDef::fixed(ConvexPolygon::rectangle(0.4, 0.05).unwrap().into())
                .pose(Isometry::translation(ceiling_x, ceiling_height + 0.05)),
        )
        .unwrap();
    }
    let mut discs = Vec::new();
    let count = if one_disc { 1 } else { rng.below(6) + 2 };
    for _ in 0..count {
        let r = rng.range(0.01, 0.05);
        // Along the flipper, resting on its top face or a little above it, or stacked
        // on the previous disc.
        let along = rng.range(0.1, 2.0 * HALF_LENGTH - r);
        let lift = match rng.below(3) {
            _ if one_disc => 0.0,
            0 => 0.0,
            1 => rng.range(0.0, 0.2),
            _ => discs
                .last()
                .map_or(0.0, |&(_, prev): &(BodyHandle, Real)| 2.0 * prev),
        };
        let normal = Vector::new(-start.sin(), start.cos());
        let center = Point::from(axis * along + normal * (half_thickness + r + lift + 1e-4));
        let disc = w
            .create_body(
                RigidBodyDef::new(Circle::new(r).unwrap().into())
                    .pose(Isometry::translation(center.x, center.y))
                    .restitution(rng.range(0.0, 0.5))
                    .friction(rng.range(0.0, 0.6))
                    .ccd(true),
            )
            .unwrap();
        discs.push((disc, r));
    }
    Throw {
        world: w,
        kinematic: (drive == Drive::Kinematic).then_some((omega, start + limit)),
        flipper,
        half_thickness,
        discs,
    }
}

/// On which side of the flipper (at `pose`, of half thickness `h`) a disc of radius `r`
/// centred at `c` clearly lies: `Some(1)` above its top face, `Some(-1)` below, `None`
/// overlapping it (within the slop) or beyond one of its ends, where it may go round.
fn side(pose: &Isometry, h: Real, c: Point, r: Real, slop: Real) -> Option<i8> {
    let local = pose.inverse_transform_point(&c);
    if local.x.abs() > HALF_LENGTH {
        return None;
    }
    let clear = h + r - slop;
    if local.y > clear {
        Some(1)
    } else if local.y < -clear {
        Some(-1)
    } else {
        None
    }
}

/// The throws `throws` of scene `discs` under `S`, the flipper turned by `drive`: every
/// disc that went through the flipper, with where.
fn through<S: Stepper + Default>(
    throws: impl Iterator<Item = u64>,
    discs: Discs,
    drive: Drive,
) -> Vec<String> {
    let mut out = Vec::new();
    for t in throws {
        let mut th = throw::<S>(t, discs, drive);
        let slop = LINEAR_SLOP;
        let sides = |th: &Throw<S>| -> Vec<Option<i8>> {
            let pose = *th.world.body(th.flipper).unwrap().pose();
            th.discs
                .iter()
                .map(|&(d, r)| {
                    let c = th.world.body(d).unwrap().center_of_mass();
                    side(&pose, th.half_thickness, c, r, slop)
                })
                .collect()
        };
        // The last side each disc was clearly on, forgotten when it is beyond an end.
        let mut last: Vec<Option<i8>> = sides(&th);
        for step in 0..STEPS {
            if let Some((omega, limit)) = th.kinematic {
                // About the pivot at the origin.
                let body = th.world.body(th.flipper).unwrap();
                let c = body.center_of_mass();
                let w = if body.pose().rotation.angle() + omega * DT <= limit {
                    omega
                } else {
                    0.0
                };
                th.world
                    .set_velocity(th.flipper, Vector::new(-c.y, c.x) * w, w)
                    .unwrap();
            }
            th.world.step(DT).unwrap();
            let pose = *th.world.body(th.flipper).unwrap().pose();
            for (k, now) in sides(&th).into_iter().enumerate() {
                let (d, r) = th.discs[k];
                let c = th.world.body(d).unwrap().center_of_mass();
                let local = pose.inverse_transform_point(&c);
                if local.x.abs() > HALF_LENGTH {
                    last[k] = None;
                    continue;
                }
                if let (Some(before), Some(now)) = (last[k], now)
                    && before != now
                {
                    out.push(format!(
                        "throw {t}, step {step}: disc {k} (r {r:.3}) from side {before} to \
                         {now}, at {local:?} in the flipper's frame"
                    ));
                }
                if now.is_some() {
                    last[k] = now;
                }
            }
        }
    }
    out
}

#[test]
fn a_flipper_shoots_the_disc_resting_on_it_without_passing_it() {
    let through = through::<FirstTimeOfImpact>(0..THROWS, Discs::One, Drive::Motor);
    assert!(
        through.is_empty(),
        "{} through: {through:#?}",
        through.len()
    );
}

#[test]
fn a_flipper_never_carries_a_disc_through_itself_first_time_of_impact() {
    let through = through::<FirstTimeOfImpact>(0..THROWS, Discs::Several, Drive::Motor);
    assert!(
        through.is_empty(),
        "{} through: {through:#?}",
        through.len()
    );
}

/// A kinematic flipper is moved whatever it meets, so a disc it squeezes against the
/// ceiling must pass one of them: the scenes without a ceiling.
#[test]
fn a_kinematic_flipper_never_carries_a_disc_through_itself_first_time_of_impact() {
    for discs in [Discs::One, Discs::Several] {
        let through = through::<FirstTimeOfImpact>(0..THROWS, discs, Drive::Kinematic);
        assert!(
            through.is_empty(),
            "{discs:?}: {} through: {through:#?}",
            through.len()
        );
    }
}

/// Discs squeezed between the flipper and the ceiling. `FirstTimeOfImpact` carries a
/// squeezed disc along the flipper's face off the ceiling, out of the closing wedge, and
/// stalls the flipper only for a wedge it cannot leave (`first_toi/carry.rs`); carried
/// rigidly until the ceiling had struck it free 16 times and then passed, 80 of the 400
/// scenes had a disc through.
#[test]
fn discs_squeezed_under_a_ceiling_are_not_passed_first_time_of_impact() {
    let through = through::<FirstTimeOfImpact>(0..THROWS, Discs::UnderCeiling, Drive::Motor);
    assert!(
        through.is_empty(),
        "{} through: {through:#?}",
        through.len()
    );
}

/// `MotionClamping` carries a free body its driver passes into (`motion_clamping/carry.rs`),
/// and never stops the driver against it: no disc goes through a flipper turned by its
/// motor, nor through a kinematic one.
#[test]
fn a_flipper_never_carries_a_disc_through_itself_motion_clamping() {
    for (discs, drive) in [
        (Discs::One, Drive::Motor),
        (Discs::Several, Drive::Motor),
        (Discs::One, Drive::Kinematic),
        (Discs::Several, Drive::Kinematic),
    ] {
        let through = through::<MotionClamping>(0..THROWS, discs, drive);
        assert!(
            through.is_empty(),
            "{discs:?}, {drive:?}: {} through: {through:#?}",
            through.len()
        );
    }
}

/// Discs squeezed between the flipper and the ceiling under `MotionClamping`: a carried disc
/// whose course meets the ceiling head on stops the flipper there (a rigid wedge), one that
/// meets it at a glancing angle stops at the ceiling and the flipper goes on into it. A
/// known limit, counted here (13 of 400 scenes; none through the ceiling).
#[test]
#[ignore = "known limit: a disc squeezed against a ceiling by a flipper with unlimited torque"]
fn discs_squeezed_under_a_ceiling_motion_clamping() {
    let through = through::<MotionClamping>(0..THROWS, Discs::UnderCeiling, Drive::Motor);
    println!("{} through", through.len());
}
