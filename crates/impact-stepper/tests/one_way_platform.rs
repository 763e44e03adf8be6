//! Invariant: a pre-solve hook makes a one-way platform, under every stepper it applies to,
//! at every speed: a body launched from below passes up through it (and, jumping, lands on
//! it), a body launched from above never passes down through it.
//!
//! The platform is a static slab 0.2 thick or a zero-thickness segment; the body a CCD disc
//! of radius 0.25 without restitution; the hook ([`OneWay`]) keeps a platform's contact only
//! where its normal away from the platform points up. Seeded launches: from 1.5 below at 8
//! to 10,000 units/s within 0.3 rad of straight up, from 1.5 above at 1 to 10,000 units/s
//! within 0.3 rad of straight down. `FirstTimeOfImpact` and `MotionClamping` at every speed
//! (the hook is asked before each impact and clamp, with its point and normal); `Discrete`,
//! which has no CCD, at the speeds a discrete step sees (up to 14 units/s).

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Point, Real, Vector};
use impact_stepper::judge::{PassThroughDetector, TurnRecorder};
use impact_stepper::{Discrete, FirstTimeOfImpact, MotionClamping, NoHook, Stepper, World};
use impact_testkit::filters::{
    JUMPER_RADIUS, OneWay, PLATFORM_HALF_WIDTH, PlatformKind, one_way_platform, platform_top,
};
use proptest::prelude::*;

/// A launch: the platform, where the disc starts across it (`x`), its speed and its angle
/// from straight up (from below) or straight down (from above).
#[derive(Debug, Clone, Copy)]
struct Launch {
    kind: PlatformKind,
    x: Real,
    speed: Real,
    angle: Real,
}

fn launches(slowest: Real, fastest: Real) -> impl Strategy<Value = Launch> {
    (
        prop_oneof![Just(PlatformKind::Slab), Just(PlatformKind::Segment)],
        -1.0..1.0f64,
        0.0..=1.0f64,
        -0.3..0.3f64,
    )
        .prop_map(move |(kind, x, u, angle)| Launch {
            kind,
            x,
            // Spread evenly over the decades.
            speed: slowest * (fastest / slowest).powf(u),
            angle,
        })
}

/// A world of the launch, `up` from below or down from above, with its one-way hook; and
/// the disc's handle.
fn world<S: Stepper + Default>(
    launch: &Launch,
    up: bool,
) -> (World<RTreeBroadphase, S>, impact_solver::BodyHandle) {
    let (sign, y) = if up { (1.0, -1.5) } else { (-1.0, 1.5) };
    let velocity = Vector::new(launch.angle.sin(), sign * launch.angle.cos()) * launch.speed;
    let scene = one_way_platform(launch.kind, Point::new(launch.x, y), velocity);
    let (mut world, handles) = scene.build::<RTreeBroadphase, S>().unwrap();
    world.set_pre_solve(OneWay {
        platform: handles[0],
    });
    (world, handles[1])
}

/// Steps a launch from below until the disc is wholly above the platform; fails if it is not
/// within `steps` steps, or if it meets the platform on its way up. Launched within 1 of the
/// middle and 0.3 rad of straight up, it reaches the platform's height within 1.5 of the
/// middle: above it, it came through it.
fn passes_from_below<S: Stepper + Default>(launch: &Launch, steps: usize) -> Result<(), String> {
    let (mut world, disc) = world::<S>(launch, true);
    let top = platform_top(launch.kind);
    for step in 0..steps {
        world.step(DT).map_err(|e| e.to_string())?;
        if let Some(e) = world.events().first() {
            return Err(format!(
                "step {step}: met the platform on its way up: {e:?}"
            ));
        }
        let p = world.body(disc).unwrap().pose().translation;
        if p.y - JUMPER_RADIUS > top {
            return Ok(());
        }
    }
    let p = world.body(disc).unwrap().pose().translation;
    Err(format!("still below after {steps} steps, at {p:?}"))
}

/// Steps a jump from below for four seconds: the disc ends resting on the platform.
fn lands_on_it<S: Stepper + Default>(launch: &Launch) -> Result<(), String> {
    let (mut world, disc) = world::<S>(launch, true);
    for _ in 0..240 {
        world.step(DT).map_err(|e| e.to_string())?;
    }
    let body = world.body(disc).unwrap();
    let rest = platform_top(launch.kind) + JUMPER_RADIUS;
    let y = body.pose().translation.y;
    if (y - rest).abs() > 0.02 || body.linvel().y.abs() > 0.1 {
        return Err(format!(
            "at {y} moving at {}, not resting at {rest}",
            body.linvel()
        ));
    }
    Ok(())
}

/// Steps a launch from above for two seconds: the judge of pass-throughs finds none, and the
/// disc never ends a step over the platform with its centre below the top by more than half
/// its radius.
fn never_passes_from_above<S: Stepper + Default>(launch: &Launch) -> Result<(), String> {
    let (mut world, disc) = world::<S>(launch, false);
    let top = platform_top(launch.kind);
    let mut judge = PassThroughDetector::new(world.body_set());
    let mut turns = TurnRecorder::new(NoHook);
    for step in 1..=120 {
        world.step_with(DT, &mut turns).map_err(|e| e.to_string())?;
        judge.observe_with_turns(world.body_set(), step, &turns.turns(world.events()));
        turns.clear();
        let p = world.body(disc).unwrap().pose().translation;
        if p.x.abs() <= PLATFORM_HALF_WIDTH && p.y < top - 0.5 * JUMPER_RADIUS {
            return Err(format!("step {step}: through, at {p:?}"));
        }
    }
    if let Some(passed) = judge.found().first() {
        return Err(format!("passed through: {passed:?}"));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn from_below_a_body_passes_at_any_speed(launch in launches(8.0, 10_000.0)) {
        let run = |r: Result<(), String>, who: &str| r.map_err(|e| format!("{who}: {e}"));
        run(passes_from_below::<FirstTimeOfImpact>(&launch, 60), "FirstTimeOfImpact")
            .map_err(TestCaseError::fail)?;
        run(passes_from_below::<MotionClamping>(&launch, 60), "MotionClamping")
            .map_err(TestCaseError::fail)?;
    }

    #[test]
    fn from_above_a_body_never_passes_at_any_speed(launch in launches(1.0, 10_000.0)) {
        for (who, result) in [
            ("FirstTimeOfImpact", never_passes_from_above::<FirstTimeOfImpact>(&launch)),
            ("MotionClamping", never_passes_from_above::<MotionClamping>(&launch)),
        ] {
            result.map_err(|e| TestCaseError::fail(format!("{who}: {e}")))?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A jump: slow enough to come down on the platform, under every stepper.
    #[test]
    fn a_body_jumps_up_through_and_lands_on_it(launch in launches(8.0, 14.0)) {
        let launch = Launch { angle: launch.angle * 0.5, ..launch };
        for (who, result) in [
            ("FirstTimeOfImpact", lands_on_it::<FirstTimeOfImpact>(&launch)),
            ("MotionClamping", lands_on_it::<MotionClamping>(&launch)),
            ("Discrete", lands_on_it::<Discrete>(&launch)),
        ] {
            result.map_err(|e| TestCaseError::fail(format!("{who}: {e}")))?;
        }
    }

    /// At the speeds a discrete step sees, `Discrete` too.
    #[test]
    fn discrete_passes_up_and_holds_down_at_its_speeds(launch in launches(1.0, 14.0)) {
        let up = Launch { speed: launch.speed.max(8.0), ..launch };
        passes_from_below::<Discrete>(&up, 60).map_err(TestCaseError::fail)?;
        never_passes_from_above::<Discrete>(&launch).map_err(TestCaseError::fail)?;
    }
}

/// The bullet of the brief: 10,000 units/s straight down onto either platform stops on it,
/// and comes to rest there, under both CCD steppers; straight up, it passes without an
/// event.
#[test]
fn a_bullet_at_ten_thousand_units_per_second_is_stopped_from_above() {
    for kind in [PlatformKind::Slab, PlatformKind::Segment] {
        let launch = Launch {
            kind,
            x: 0.0,
            speed: 10_000.0,
            angle: 0.0,
        };
        never_passes_from_above::<FirstTimeOfImpact>(&launch).unwrap();
        never_passes_from_above::<MotionClamping>(&launch).unwrap();
        passes_from_below::<FirstTimeOfImpact>(&launch, 1).unwrap();
        passes_from_below::<MotionClamping>(&launch, 1).unwrap();
        for rests in [
            rest_height::<FirstTimeOfImpact>(&launch),
            rest_height::<MotionClamping>(&launch),
        ] {
            let expected = platform_top(kind) + JUMPER_RADIUS;
            assert!(
                (rests - expected).abs() < 0.02,
                "{kind:?}: rests at {rests}"
            );
        }
    }
}

/// Where the disc launched from above is after two seconds.
fn rest_height<S: Stepper + Default>(launch: &Launch) -> Real {
    let (mut world, disc) = world::<S>(launch, false);
    for _ in 0..120 {
        world.step(DT).unwrap();
    }
    world.body(disc).unwrap().pose().translation.y
}
