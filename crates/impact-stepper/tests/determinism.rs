//! Invariant: the same calls give bit-identical worlds. Two worlds built from the same scene
//! hash to the same bits (every body's handle, pose, rotation and velocities) after 300
//! steps, and a run that also removes and re-creates bodies does too. Swapping the
//! broadphase (R-tree, sort and sweep, brute force) changes nothing either: pairs come
//! sorted by proxy and are a function of the fat boxes alone, so the 20-base pyramid is
//! bit-identical after 120 steps with each of them.

mod common;

use common::{DT, state_hash};
use impact_broadphase::{Broadphase, BruteForce, RTreeBroadphase, SortAndSweep};
use impact_geometry::{Circle, Isometry, Vector};
use impact_solver::RigidBodyDef;
use impact_stepper::{Discrete, World};
use impact_testkit::scenes;

/// A busy scene: the pyramid, plus discs thrown into it, one body removed and one added
/// midway (so slots and generations are reused).
fn busy_run<B: Broadphase + Default>() -> u64 {
    let (mut world, handles) = scenes::pyramid(8).build::<B, Discrete>().unwrap();
    for i in 0..5 {
        let x = -6.0 + 3.0 * f64::from(i);
        world
            .create_body(
                RigidBodyDef::new(Circle::new(0.3).unwrap().into())
                    .pose(Isometry::translation(x, 9.0 + f64::from(i)))
                    .linvel(Vector::new(1.5 - f64::from(i), -2.0))
                    .angvel(4.0)
                    .restitution(0.4),
            )
            .unwrap();
    }
    for step in 0..300 {
        if step == 100 {
            world.remove_body(handles[30]).unwrap();
        }
        if step == 150 {
            world
                .create_body(
                    RigidBodyDef::new(Circle::new(0.4).unwrap().into())
                        .pose(Isometry::translation(0.3, 12.0)),
                )
                .unwrap();
        }
        world.step(DT).unwrap();
    }
    state_hash(&world)
}

#[test]
fn same_calls_give_the_same_bits() {
    let a = busy_run::<RTreeBroadphase>();
    let b = busy_run::<RTreeBroadphase>();
    assert_eq!(a, b);
}

#[test]
fn same_scene_twice_gives_the_same_bits_after_300_steps() {
    let run = || {
        let (mut world, _) = scenes::stack(10)
            .build::<RTreeBroadphase, Discrete>()
            .unwrap();
        let mut hashes = Vec::new();
        for _ in 0..300 {
            world.step(DT).unwrap();
            hashes.push(state_hash(&world));
        }
        hashes
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b);
    // The hash sees motion: the settling stack changes state from step to step.
    assert_ne!(a[0], a[1]);
}

fn pyramid_hashes<B: Broadphase + Default>() -> Vec<u64> {
    let (mut world, _) = scenes::pyramid(20).build::<B, Discrete>().unwrap();
    (0..120)
        .map(|_| {
            world.step(DT).unwrap();
            state_hash(&world)
        })
        .collect()
}

#[test]
fn swapping_the_broadphase_changes_no_bit() {
    let rtree = pyramid_hashes::<RTreeBroadphase>();
    assert_eq!(rtree, pyramid_hashes::<SortAndSweep>(), "sort and sweep");
    assert_eq!(rtree, pyramid_hashes::<BruteForce>(), "brute force");
    // And the busy scene, where bodies fly, leave fat boxes and are removed.
    let busy = busy_run::<RTreeBroadphase>();
    assert_eq!(
        busy,
        busy_run::<SortAndSweep>(),
        "sort and sweep, busy scene"
    );
    assert_eq!(busy, busy_run::<BruteForce>(), "brute force, busy scene");
}

#[test]
fn the_type_parameters_swap_in_one_line() {
    let settings = scenes::stack(1).settings;
    let world = World::<BruteForce, Discrete>::new(settings).unwrap();
    assert!(world.is_empty());
    let default: World = World::new(settings).unwrap();
    assert_eq!(default.broadphase().len(), 0);
}
