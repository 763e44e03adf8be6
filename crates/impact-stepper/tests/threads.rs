//! Invariant (`parallel` feature): a step gives the same bits on any number of threads. Every
//! stage that shares out work (contact manifolds, the solver's colours, the constraints'
//! preparation, the integration, the R-tree's joins, `MotionClamping`'s times of impact) is
//! a function of its inputs alone, and the solver's colours are visited in the same order by
//! the serial build. The scenes are large enough that every shared stage does share out (the
//! stages keep small inputs on the calling thread); one thread runs the serial paths, so the
//! runs on 2, 3 and 4 threads are checked against the serial code as well.
#![cfg(feature = "parallel")]

mod common;

use common::{DT, state_hash};
use impact_broadphase::RTreeBroadphase;
use impact_stepper::{Discrete, FirstTimeOfImpact, MotionClamping, StepReport, Stepper};
use impact_testkit::scenes::{self, Scene};

/// The state hash of `scene` after `steps` steps of stepper `S`, stepped on a pool of
/// `threads` threads, and the steps' reports (their counts of pairs, filtered pairs,
/// manifolds, moved proxies...).
fn run_on<S: Stepper<Report: Send> + Default + Send>(
    scene: &Scene,
    steps: usize,
    threads: usize,
) -> (u64, Vec<StepReport<S::Report>>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let (mut world, _) = scene.build::<RTreeBroadphase, S>().unwrap();
        let reports = (0..steps).map(|_| world.step(DT).unwrap()).collect();
        (state_hash(&world), reports)
    })
}

fn same_on_any_number_of_threads<S: Stepper<Report: Send> + Default + Send>(
    scene: &Scene,
    steps: usize,
) {
    let one = run_on::<S>(scene, steps, 1);
    for threads in [2, 3, 4] {
        assert_eq!(
            run_on::<S>(scene, steps, threads),
            one,
            "{} on {threads} threads",
            scene.name
        );
    }
}

#[test]
fn a_large_pyramid_steps_the_same_on_any_number_of_threads() {
    // 2,080 boxes: past every stage's threshold for sharing out, the R-tree's joins included.
    let mut scene = scenes::pyramid(64);
    scene.settings.sleeping = false;
    same_on_any_number_of_threads::<Discrete>(&scene, 12);
}

#[test]
fn a_disc_rain_steps_the_same_on_any_number_of_threads() {
    let scene = scenes::rain(3_000, 4);
    same_on_any_number_of_threads::<MotionClamping>(&scene, 12);
    same_on_any_number_of_threads::<FirstTimeOfImpact>(&scene, 6);
    same_on_any_number_of_threads::<Discrete>(&scene, 12);
}

#[test]
fn a_disc_rain_past_the_forest_threshold_steps_the_same_on_any_number_of_threads() {
    // 6,000 discs: the moving tree is bulk loaded as a forest (from 4,096 leaves), and the
    // swept boxes and the free flight of bodies without contacts are shared out (from
    // 2,048 bodies).
    let mut scene = scenes::rain(6_000, 2);
    scene.settings.sleeping = false;
    same_on_any_number_of_threads::<Discrete>(&scene, 10);
    same_on_any_number_of_threads::<MotionClamping>(&scene, 6);
}
