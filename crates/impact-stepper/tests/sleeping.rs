//! Islands and sleeping: the 20-base pyramid falls asleep within 3 s and stands asleep for
//! 60 s; a sleeping body gets no swept box, manifold or solver row; each rule that wakes an
//! island; snapshots and determinism with sleeping bodies.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Circle, Isometry, Vector};
use impact_solver::RigidBodyDef;
use impact_stepper::{Discrete, FirstTimeOfImpact, MotionClamping, Stepper, World};
use impact_testkit::scenes;

/// The pyramid of `base` built under stepper `S`, stepped until every box sleeps (at most
/// `max_steps`), with the step it fell asleep at.
fn asleep_pyramid<S: Stepper + Default>(
    base: usize,
    max_steps: usize,
) -> (World<RTreeBroadphase, S>, Vec<impact_solver::BodyHandle>, Option<usize>) {
    let (mut world, handles) = scenes::pyramid(base).build::<RTreeBroadphase, S>().unwrap();
    let boxes = handles[1..].to_vec();
    let mut at = None;
    for step in 0..max_steps {
        world.step(DT).unwrap();
        if boxes.iter().all(|&h| world.is_sleeping(h)) {
            at = Some(step + 1);
            break;
        }
    }
    (world, boxes, at)
}

#[test]
fn pyramid_of_twenty_sleeps_within_three_seconds_and_stands_asleep_for_a_minute() {
    let (mut world, boxes, at) = asleep_pyramid::<FirstTimeOfImpact>(20, 180);
    let at = at.expect("the pyramid fell asleep within 3 s");
    println!("pyramid of 20 asleep after {at} steps ({:.2} s)", at as f64 * DT);
    let home: Vec<_> = boxes
        .iter()
        .map(|&h| *world.body(h).unwrap().pose())
        .collect();
    for step in 0..3600 {
        let report = world.step(DT).unwrap();
        assert!(world.sleep_events().woke.is_empty(), "a box woke at step {step}");
        assert_eq!(report.sleeping_bodies, boxes.len());
        assert_eq!(report.awake_bodies, 1, "only the ground is given a box");
        assert_eq!(report.manifolds, 0);
    }
    for (&h, home) in boxes.iter().zip(&home) {
        assert_eq!(world.body(h).unwrap().pose(), home, "a sleeping box moved");
    }
}
