//! Measures where bulk rebuilding the moving tree of `RTreeBroadphase` beats removing and
//! reinserting the proxies that left their tree boxes (`RTreeConfig::rebuild_fraction`),
//! counting the pair search that follows.
//!
//! Run: `cargo run --release -p impact-broadphase --example rebuild_threshold`
//!
//! For each size and fraction `f`, a broadphase holding the boxes of a random walk, all in
//! its moving tree (just inserted, pairs computed: nothing can settle in the next batch, so
//! the moving tree's update is all that is timed besides the pair search), is cloned and
//! `f * n` proxies (spread evenly over the handles) are moved 5 units, out of their tree
//! boxes. Timed, best of several trials: `update_batch` alone, and `update_batch` then
//! `overlapping_pairs` (the step), with rebuilds forced off (`incremental`) or on (`bulk`).

use impact_broadphase::{Broadphase, ProxyId, RTreeBroadphase};
use impact_geometry::{Aabb, Vector};
use impact_testkit::moving_boxes::Scene;
use std::time::{Duration, Instant};

const TRIALS: usize = 7;

fn moving(n: usize) -> RTreeBroadphase {
    let mut scene = Scene::random_walk(n, 5);
    for _ in 0..20 {
        scene.step();
    }
    let mut bp = RTreeBroadphase::new();
    for (id, aabb) in scene.boxes() {
        bp.insert(id, aabb).expect("valid box");
    }
    bp.overlapping_pairs();
    bp
}

fn moved(bp: &RTreeBroadphase, n: usize, fraction: f64) -> Vec<(ProxyId, Aabb)> {
    let count = ((n as f64 * fraction).round() as usize).max(1);
    (0..count)
        .map(|k| {
            let id = ProxyId((k * n / count) as u32);
            let fat = bp.fat_aabb(id).expect("present");
            let tight = fat.inflated(-bp.config().margin);
            let shift = Vector::new(5.0, 2.5);
            (id, Aabb::new(tight.mins + shift, tight.maxs + shift))
        })
        .collect()
}

/// Best of `TRIALS` (update time, update + pairs time), each on a fresh clone.
fn time(base: &RTreeBroadphase, batch: &[(ProxyId, Aabb)]) -> (Duration, Duration) {
    let mut best = (Duration::MAX, Duration::MAX);
    for _ in 0..TRIALS {
        let mut bp = base.clone();
        let start = Instant::now();
        bp.update_batch(batch).expect("valid boxes");
        let update = start.elapsed();
        std::hint::black_box(bp.overlapping_pairs().len());
        let step = start.elapsed();
        best = (best.0.min(update), best.1.min(step));
    }
    best
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

fn main() {
    println!(
        "| n | changed fraction | update, reinsert (ms) | update, bulk load (ms) | pairs after reinsert (ms) | pairs after bulk load (ms) | step, reinsert (ms) | step, bulk load (ms) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for n in [1_000, 10_000, 100_000] {
        // One broadphase (default configuration), measured from the same state both ways.
        let moving = moving(n);
        let mut incremental = moving.clone();
        incremental.set_rebuild_fraction(2.0).expect("valid");
        let mut bulk = moving;
        bulk.set_rebuild_fraction(0.0).expect("valid");
        for fraction in [0.01, 0.02, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0] {
            let batch = moved(&incremental, n, fraction);
            let (inc_update, inc_step) = time(&incremental, &batch);
            let (bulk_update, bulk_step) = time(&bulk, &batch);
            println!(
                "| {n} | {fraction} | {} | {} | {} | {} | {} | {} |",
                ms(inc_update),
                ms(bulk_update),
                ms(inc_step.saturating_sub(inc_update)),
                ms(bulk_step.saturating_sub(bulk_update)),
                ms(inc_step),
                ms(bulk_step)
            );
        }
    }
}
