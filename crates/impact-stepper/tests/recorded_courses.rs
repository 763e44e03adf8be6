//! `World::record_courses`: the courses a CCD stepper moved bodies along inside a step, for a
//! judge of tunnelling or a tool that draws paths. Recording changes no step, and the
//! courses are each body's whole motion: from its start pose at time 0, in time order, to
//! where it ends the step.

mod common;

use common::{DT, state_hash};
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Isometry, Real};
use impact_stepper::{Discrete, FirstTimeOfImpact, MotionClamping, Stepper, World};
use impact_testkit::scenes;

/// Steps the tumbling rain of `bodies` bodies (seed `seed`) `steps` times under `S`, with
/// courses recorded if `record`, checking every step's courses against the bodies' poses
/// before and after it; the state hash at the end and how many courses were recorded.
fn run<S: Stepper + Default>(bodies: usize, seed: u64, steps: usize, record: bool) -> (u64, usize) {
    let scene = scenes::tumbling_rain(bodies, seed);
    let (mut world, _): (World<RTreeBroadphase, S>, _) = scene.build().unwrap();
    world.record_courses(record);
    let mut recorded = 0;
    for step in 0..steps {
        let before: Vec<(impact_solver::BodyHandle, Isometry)> =
            world.bodies().map(|(h, b)| (h, *b.pose())).collect();
        world.step(DT).unwrap();
        // Each body's courses together, in the order recorded (the bodies' interleave).
        let mut courses = world.courses().to_vec();
        courses.sort_by_key(|c| c.0.index);
        recorded += courses.len();
        let mut k = 0;
        while k < courses.len() {
            let body = courses[k].0;
            let n = courses[k..].iter().take_while(|c| c.0 == body).count();
            let legs = &courses[k..k + n];
            k += n;
            let start = before.iter().find(|(h, _)| *h == body).unwrap().1;
            assert_eq!(
                legs[0].1, 0.0,
                "step {step}: a body's first course starts at 0"
            );
            assert!(
                close(&legs[0].2.pose_at(0.0), &start),
                "step {step}: from its start pose"
            );
            for pair in legs.windows(2) {
                assert!(pair[0].1 <= pair[1].1, "step {step}: in time order");
                // Each course starts where the one before had the body at that time.
                let (from, sweep) = (pair[0].1, pair[0].2);
                let at = (pair[1].1 - from) / sweep.dt();
                assert!(
                    close(&sweep.pose_at(at), &pair[1].2.pose_at(0.0)),
                    "step {step}: continuous"
                );
            }
            let last = legs[n - 1].2;
            let end = *world.body(body).unwrap().pose();
            assert!(
                close(&last.pose_at(1.0), &end),
                "{}: step {step}: to where it ends: {body:?} {:?} {:?}, {n} legs {legs:?}",
                std::any::type_name::<S>(),
                last.pose_at(1.0),
                end
            );
        }
    }
    (state_hash(&world), recorded)
}

/// The same pose to within 1e-9 (rounding of a sweep's pose).
fn close(a: &Isometry, b: &Isometry) -> bool {
    let tolerance: Real = 1e-9;
    (a.translation.vector - b.translation.vector).norm() < tolerance
        && (a.rotation.inverse() * b.rotation).angle().abs() < tolerance
}

/// The tumbling rain of 300 bodies (seed `seed`, 40 steps) under `S`: the same state with
/// courses recorded and without, and some courses recorded.
fn records_without_changing<S: Stepper + Default>(seed: u64) {
    let name = std::any::type_name::<S>();
    let (with, recorded) = run::<S>(300, seed, 40, true);
    let (without, none) = run::<S>(300, seed, 40, false);
    assert_eq!((with, none), (without, 0), "{name}, seed {seed}");
    assert!(
        recorded > 0,
        "{name}, seed {seed}: some body left its straight course"
    );
}

#[test]
fn recording_courses_changes_no_step_and_follows_each_body_from_start_to_end() {
    for seed in [3, 6] {
        records_without_changing::<MotionClamping>(seed);
        records_without_changing::<FirstTimeOfImpact>(seed);
    }
}

#[test]
fn the_contact_solver_records_no_course() {
    let (_, recorded) = run::<Discrete>(300, 6, 20, true);
    assert_eq!(recorded, 0);
}
