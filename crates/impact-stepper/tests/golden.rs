//! Invariant: same inputs, same build, same bits, today and after every future change that
//! does not mean to alter the physics. The hash of every body's state bits (handle, pose,
//! rotation, velocities) after a fixed run is pinned to a golden value, so an arithmetic change
//! anywhere in the pipeline (narrowphase, solver, stepper) shows up here and must be made on
//! purpose: when it is, update the constant in the same commit and say why.

mod common;

use common::{DT, state_hash};
use impact_broadphase::RTreeBroadphase;
use impact_stepper::{Discrete, MotionClamping};
use impact_testkit::scenes;

/// The 20-base pyramid after 120 steps of the Discrete stepper.
const PYRAMID_120: u64 = 0xd82b347c96009301;
/// Bullets through paper after 3 steps of MotionClamping (both walls, three speeds).
const BULLETS_3: u64 = 0x1eb926ebfac7dace;

#[test]
fn pyramid_matches_its_golden_hash() {
    let (mut world, _) = scenes::pyramid(20)
        .build::<RTreeBroadphase, Discrete>()
        .unwrap();
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
