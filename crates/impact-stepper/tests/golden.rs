//! Invariant: same inputs, same build, same bits, today and after every future change that
//! does not mean to alter the physics. The hash of every body's state bits (handle, pose,
//! rotation, velocities) after a fixed run is pinned to a golden value, so an arithmetic change
//! anywhere in the pipeline (narrowphase, solver, stepper) shows up here and must be made on
//! purpose: when it is, update the constant in the same commit and say why.

mod common;

use common::{DT, state_hash};
use impact_broadphase::RTreeBroadphase;
use impact_stepper::{Discrete, FirstTimeOfImpact, MotionClamping};
use impact_testkit::scenes;

/// The 20-base pyramid after 120 steps of the Discrete stepper.
const PYRAMID_120: u64 = 0xaed4817f810164be;
/// Bullets through paper after 3 steps of MotionClamping (both walls, three speeds).
const BULLETS_3: u64 = 0x1eb926ebfac7dace;

#[test]
fn pyramid_matches_its_golden_hash() {
    let (mut world, _) = scenes::pyramid(20)
        .build::<RTreeBroadphase, Discrete>()
        .unwrap();
    // The golden value is of awake physics: the pyramid would fall asleep within the run.
    let awake = impact_stepper::WorldSettings {
        sleeping: false,
        ..*world.settings()
    };
    world.set_settings(awake).unwrap();
    for _ in 0..120 {
        world.step(DT).unwrap();
    }
    assert_eq!(
        state_hash(&world),
        PYRAMID_120,
        "got {:#018x}",
        state_hash(&world)
    );
}

#[test]
fn clamped_bullets_match_their_golden_hash() {
    let mut h = 0u64;
    for wall in [scenes::Wall::Thin, scenes::Wall::Segment] {
        for speed in [100.0, 1_000.0, 10_000.0] {
            let (mut world, _) = scenes::bullet_through_paper(speed, 0.3, wall)
                .build::<RTreeBroadphase, MotionClamping>()
                .unwrap();
            for _ in 0..3 {
                world.step(DT).unwrap();
            }
            h = h.rotate_left(7) ^ state_hash(&world);
        }
    }
    assert_eq!(h, BULLETS_3, "got {h:#018x}");
}

/// The rain of 300 fast discs onto the thin segments (seed 6) after 30 steps of
/// FirstTimeOfImpact.
const RAIN_TOI_30: u64 = 0x5871c4391cfba664;
/// The tumbling rain of 300 turning bodies (seed 6) after 30 steps of FirstTimeOfImpact.
const TUMBLING_TOI_30: u64 = 0xaff1b71f194d557d;
/// The same tumbling rain after 30 steps of MotionClamping.
const TUMBLING_CLAMP_30: u64 = 0x9e5ef9153cf8885c;
/// The hard-disk gas of 256 discs at packing fraction 0.3 (seed 1) after 5 steps of
/// FirstTimeOfImpact on its disc path.
const GAS_5: u64 = 0x2879a82a6a2573a7;

fn run<S: impact_stepper::Stepper + Default>(scene: &scenes::Scene, steps: usize) -> u64 {
    let (mut world, _) = scene.build::<RTreeBroadphase, S>().unwrap();
    for _ in 0..steps {
        world.step(DT).unwrap();
    }
    state_hash(&world)
}

#[test]
fn first_toi_rain_matches_its_golden_hash() {
    let h = run::<FirstTimeOfImpact>(&scenes::rain(300, 6), 30);
    assert_eq!(h, RAIN_TOI_30, "got {h:#018x}");
}

#[test]
fn tumbling_rain_matches_its_golden_hashes() {
    let scene = scenes::tumbling_rain(300, 6);
    let toi = run::<FirstTimeOfImpact>(&scene, 30);
    let clamp = run::<MotionClamping>(&scene, 30);
    assert_eq!(
        (toi, clamp),
        (TUMBLING_TOI_30, TUMBLING_CLAMP_30),
        "got {toi:#018x}, {clamp:#018x}"
    );
}

#[test]
fn hard_disk_gas_matches_its_golden_hash() {
    let scene = scenes::hard_disks(256, 0.3, 1).unwrap();
    let (mut world, _) = scene.build::<RTreeBroadphase, FirstTimeOfImpact>().unwrap();
    *world.stepper_mut() =
        FirstTimeOfImpact::new(impact_stepper::FirstTimeOfImpactSettings::elastic()).unwrap();
    for _ in 0..5 {
        world.step(0.5).unwrap();
    }
    let h = state_hash(&world);
    assert_eq!(h, GAS_5, "got {h:#018x}");
}
