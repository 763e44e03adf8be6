//! Bodies that `FirstTimeOfImpact` left hung in mid-air in the tumbling rain
//! (`scenes::tumbling_rain`, 1,000 bodies): each jam distilled to the two bodies at its root,
//! which alone hung the same way, stopped at the start of every step.
//!
//! A stepper that stops a body at the start of a step with the velocities that got it stopped
//! starts the next step from the same place with nearly the same velocities (gravity and the
//! contact solver change them little), and stops it again: the bodies keep their speeds, and
//! gain from gravity, without moving. Around each such root the bodies that landed on it were
//! stopped by the rule for bodies that hit a stopped one, and hung with it.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::nalgebra::{Complex, Translation2, UnitComplex};
use impact_geometry::{Capsule, ConvexPolygon, Isometry, Point, Real, Segment, Vector};
use impact_solver::{BodyHandle, RigidBodyDef};
use impact_stepper::{FirstTimeOfImpact, World, WorldSettings};
use impact_testkit::scenes::{GRAVITY, RAIN_FRICTION, RAIN_RESTITUTION};
use proptest::prelude::prop_oneof;

type RainWorld = World<RTreeBroadphase, FirstTimeOfImpact>;

fn rain_world() -> RainWorld {
    World::new(WorldSettings::with_gravity(Vector::new(0.0, GRAVITY))).unwrap()
}

/// The rain's world with the left wall of its field: a static segment along `x = -10`.
fn world_with_left_wall() -> RainWorld {
    let mut world = rain_world();
    let wall = Segment::new(Point::new(-10.0, 0.0), Point::new(-10.0, 1_000.0)).unwrap();
    world
        .create_body(rain_body(RigidBodyDef::fixed(wall.into())))
        .unwrap();
    world
}

/// A body of the tumbling rain's material, with CCD.
fn rain_body(def: RigidBodyDef) -> RigidBodyDef {
    def.restitution(RAIN_RESTITUTION)
        .friction(RAIN_FRICTION)
        .ccd(true)
}

/// The tumbling rain's capsule: half-length 0.05, radius 0.02.
fn capsule() -> RigidBodyDef {
    RigidBodyDef::new(
        Capsule::new(Point::new(-0.05, 0.0), Point::new(0.05, 0.0), 0.02)
            .unwrap()
            .into(),
    )
}

/// The pose at `(x, y)` turned by the unit complex `(re, im)`, bit for bit.
fn pose(x: Real, y: Real, re: Real, im: Real) -> Isometry {
    Isometry::from_parts(
        Translation2::new(x, y),
        UnitComplex::new_unchecked(Complex::new(re, im)),
    )
}

/// Steps `world` `steps` times and returns how far `body` fell, and in how many steps it
/// did not move at all.
fn fall(world: &mut RainWorld, body: BodyHandle, steps: usize) -> (Real, usize) {
    let start = world.body(body).unwrap().pose().translation.vector;
    let mut last = start;
    let mut still = 0;
    for _ in 0..steps {
        world.step(DT).unwrap();
        let now = world.body(body).unwrap().pose().translation.vector;
        still += usize::from(now == last);
        last = now;
    }
    (start.y - last.y, still)
}

/// A capsule falling at 171 units/s down a wall, nearly square to it, one end 0.42 mm
/// beyond the target separation and spinning away from it at 180 rad/s (seed 1: the root of
/// a jam of six bodies against the left wall). Its bounding circle cleared the wall's
/// target by 2e-5, and the time of impact against still ground judged the start from there:
/// a hit 1e-3 of a step in, where the resolver found the end parting and gave no impulse,
/// then the same hit again, a Zeno sequence, and the capsule stopped for the rest of the
/// step, at every step. Judged at the start, the start parts, and the capsule meets the wall
/// when its far end comes round, and bounces off.
#[test]
fn a_capsule_spinning_its_end_away_from_a_wall_falls_down_it() {
    let mut world = rain_world();
    world
        .create_body(rain_body(RigidBodyDef::fixed(
            Segment::new(Point::new(0.0, 0.0), Point::new(0.0, 1_000.0))
                .unwrap()
                .into(),
        )))
        .unwrap();
    let falling = world
        .create_body(rain_body(
            capsule()
                .pose(Isometry::new(Vector::new(0.075 + 2e-5, 500.0), 0.13))
                .linvel(Vector::new(-1.1, -171.0))
                .angvel(180.0),
        ))
        .unwrap();
    let (fell, still) = fall(&mut world, falling, 30);
    // Half a second at 171 units/s and more.
    assert!(fell > 80.0, "fell {fell}, still for {still} steps");
    assert!(world.body(falling).unwrap().pose().translation.x > 0.0);
}

/// A capsule and a square falling face to face at 180 units/s, turning at 63 and 69 rad/s
/// (seed 7, where they hung from step 12 to the end with two bodies that landed on them),
/// as they were at the start of step 120, bit for bit. Turning about the middle of the
/// stretch their faces share relative to each other, they close at one end of it and part at
/// the other; the impulse acted at the middle, where the approach was rounding (2.6e-16
/// units/s), and was 9e-19; the same impact followed at once, a Zeno handover, and both
/// stopped where they were, at every step. Acting at the closing end, the impact turns them
/// apart.
#[test]
fn a_pair_turning_apart_face_to_face_falls_on() {
    let mut world = rain_world();
    let falling = world
        .create_body(rain_body(
            capsule()
                .pose(pose(
                    -1.7740884467913443,
                    102.0177699578619,
                    0.44464724503116343,
                    -0.8957057706000321,
                ))
                .linvel(Vector::new(5.008081295816182, -178.9939182578602))
                .angvel(-63.41956380852148),
        ))
        .unwrap();
    world
        .create_body(rain_body(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.05, 0.05).unwrap().into())
                .pose(pose(
                    -1.7028855373430545,
                    102.03956509150397,
                    0.44190869215878453,
                    -0.8970600357805005,
                ))
                .linvel(Vector::new(6.438862935742389, -183.68867437872024))
                .angvel(-69.39555055330128),
        ))
        .unwrap();
    let (fell, still) = fall(&mut world, falling, 30);
    assert!(fell > 80.0, "fell {fell}, still for {still} steps");
}

/// Two sticks side by side, 2 mm apart and staggered by 2 cm, moving as one: falling at 200
/// units/s and turning together at 212 rad/s, 3.5 rad a step (as the pushed-through net
/// leaves a pair it stopped; seeds 5 and 10 hung such pairs of sticks, capsules and squares
/// turning at 140 to 510 rad/s). The straight courses from their start poses to the contact
/// solver's targets put them 1.2 cm into each other, with the closest-point normal turned
/// round: pushed through, the net said, and stopped them where they were, moving as one,
/// as they already did, at every step. Both are checked and swing, so the event loop follows
/// the pair along those courses and resolves their meeting.
#[test]
fn sticks_turning_together_fall_on() {
    let mut world = rain_world();
    let (gap, shift, spin): (Real, Real, Real) = (0.002, 0.01, -212.0);
    let stick = RigidBodyDef::new(ConvexPolygon::rectangle(0.09, 0.01).unwrap().into());
    let centre = Vector::new(0.0, 100.0);
    let mut sticks = Vec::new();
    // Across and along the sticks from their common centre, about which they turn.
    for offset in [
        Vector::new(-shift, -0.01 - gap / 2.0),
        Vector::new(shift, 0.01 + gap / 2.0),
    ] {
        let velocity = Vector::new(0.0, -200.0) + Vector::new(-offset.y, offset.x) * spin;
        sticks.push(
            world
                .create_body(rain_body(
                    stick
                        .clone()
                        .pose(Isometry::translation(
                            centre.x + offset.x,
                            centre.y + offset.y,
                        ))
                        .linvel(velocity)
                        .angvel(spin),
                ))
                .unwrap(),
        );
    }
    let (fell, still) = fall(&mut world, sticks[0], 30);
    assert!(fell > 80.0, "fell {fell}, still for {still} steps");
}

/// A stick standing nearly upright a few millimetres from a wall, falling at 28 units/s, and
/// a square beside its top end falling at 55 units/s and spinning at 326 rad/s (seed 62,
/// where they hung from step 99 to the end, with a third body that came by later), as they
/// were at the start of step 98, bit for bit. From the next step on the square meets the
/// stick and the stick the wall at the start of the step; both pairs go to the contact solver
/// as Zeno pairs, meet again at the start, and both bodies are stopped there with velocities
/// the impacts barely changed, at every step: alone, they hung for 15 steps. Stopped together
/// at the start, the two leave moving as one body, and fall on.
#[test]
fn a_stick_against_a_wall_and_a_square_spinning_at_its_top_fall_on() {
    let mut world = world_with_left_wall();
    let stick = world
        .create_body(rain_body(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.09, 0.01).unwrap().into())
                .pose(pose(
                    -9.971024184985124,
                    8.084459409080319,
                    0.05217441380789763,
                    -0.9986379877331945,
                ))
                .linvel(Vector::new(-6.140112967990029, -27.955672064364467))
                .angvel(207.39854720387385),
        ))
        .unwrap();
    world
        .create_body(rain_body(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.05, 0.05).unwrap().into())
                .pose(pose(
                    -9.907387171621076,
                    8.223286144602895,
                    -0.11548169197602824,
                    -0.9933096087415723,
                ))
                .linvel(Vector::new(3.903663364665296, -54.626657211188785))
                .angvel(-326.4028007627588),
        ))
        .unwrap();
    let (fell, still) = fall(&mut world, stick, 30);
    // Half a second at 28 units/s.
    assert!(fell > 14.0, "fell {fell}, still for {still} steps");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// The kind of the jam above: a stick standing up to 8 mm from a wall, turning, and a
    /// square at its top end spinning at 150 to 420 rad/s, both falling, the square driving
    /// the stick toward the wall. Over 30 steps neither body stands still for more than 8
    /// steps in a row. Not fewer: the pair moved on as one can turn the stick back into the
    /// wall, a static body, where it is stopped at the start of the step again until gravity
    /// has changed the pair's course (up to 5 steps in a row in 6,000 cases); a pair left
    /// with the velocities that closed it stands still for 15.
    #[test]
    fn a_square_spinning_at_a_stick_against_a_wall_never_hangs_them(
        gap in 0.0..0.008_f64,
        tilt in -0.15..0.15_f64,
        (dx, dy) in (0.055..0.075_f64, 0.12..0.16_f64),
        spin in prop_oneof![-420.0..-150.0_f64, 150.0..420.0_f64],
        (stick_fall, square_fall, stick_spin) in (10.0..40.0_f64, 30.0..80.0_f64, -250.0..250.0_f64),
    ) {
        let mut world = world_with_left_wall();
        // Upright: half its length along y, half its thickness from the wall plus the gap.
        let angle = -core::f64::consts::FRAC_PI_2 + tilt;
        let x = -10.0 + 0.01 + 0.09 * tilt.sin().abs() + gap;
        let stick = world
            .create_body(rain_body(
                RigidBodyDef::new(ConvexPolygon::rectangle(0.09, 0.01).unwrap().into())
                    .pose(Isometry::new(Vector::new(x, 8.08), angle))
                    .linvel(Vector::new(-6.0, -stick_fall))
                    .angvel(stick_spin),
            ))
            .unwrap();
        let square = world
            .create_body(rain_body(
                RigidBodyDef::new(ConvexPolygon::rectangle(0.05, 0.05).unwrap().into())
                    .pose(Isometry::new(Vector::new(x + dx, 8.08 + dy), 0.3))
                    .linvel(Vector::new(4.0, -square_fall))
                    .angvel(spin),
            ))
            .unwrap();
        let mut last = [stick, square].map(|h| world.body(h).unwrap().pose().translation.vector);
        let mut still = [0usize; 2];
        let mut longest = 0;
        for _ in 0..30 {
            world.step(DT).unwrap();
            for (k, h) in [stick, square].into_iter().enumerate() {
                let now = world.body(h).unwrap().pose().translation.vector;
                still[k] = if now == last[k] { still[k] + 1 } else { 0 };
                longest = longest.max(still[k]);
                last[k] = now;
            }
        }
        proptest::prop_assert!(longest <= 8, "still for {longest} steps in a row");
    }
}
