//! Collisions per second of the hard-disk gas under `FirstTimeOfImpact`.
//!
//! The gas of `impact_testkit::scenes::hard_disks` (discs of diameter 1 and mass 1,
//! restitution 1, no friction, kT = 1, a periodic square, `World<RTreeBroadphase,
//! FirstTimeOfImpact>` with `scenes::hard_disk_stepper()`) at N = 1,024, 4,096, 16,384 and
//! 65,536 discs and packing fractions 0.3 and 0.5. Each gas first runs 2 collisions per disc
//! from its lattice start; then each sample steps until it has resolved at least
//! `PER_SAMPLE` collisions, with a step of about `PER_STEP` collisions per disc (as the
//! `hard_disks` example). Criterion reports the time per sample; the bench then prints
//! collisions per second from the exact counts.
//!
//! Run: `cargo bench --bench hard_disks` (a few minutes).

use criterion::{BenchmarkId, Criterion, criterion_group};
use impact_testkit::scenes;
use impact2d::broadphase::RTreeBroadphase;
use impact2d::geometry::Real;
use impact2d::stepper::{FirstTimeOfImpact, World};
use std::cell::Cell;
use std::f64::consts::PI;
use std::time::{Duration, Instant};

type Gas = World<RTreeBroadphase, FirstTimeOfImpact>;

const PER_SAMPLE: u64 = 20_000;

/// The step, in collisions per disc: long, so that the world's per-step work is spread over
/// many collisions (the stepper's reach skin keeps its own work per collision the same).
const PER_STEP: Real = 5.0;

fn gas(n: usize, eta: Real) -> (Gas, Real) {
    let scene = scenes::hard_disks(n, eta, 1).expect("a valid gas");
    let mut world = Gas::with_parts(
        scene.settings,
        RTreeBroadphase::default(),
        FirstTimeOfImpact::new(scenes::hard_disk_stepper()).expect("valid settings"),
    )
    .expect("valid settings");
    for def in &scene.bodies {
        world.create_body(def.clone()).expect("a valid disc");
    }
    // `PER_STEP` collisions per disc per step, from Henderson's contact value (kT = 1,
    // m = 1), as the example's default.
    let g = ((1.0 + eta * eta / 8.0) / (1.0 - eta).powi(2) - 1.0) / (2.0 * eta);
    let rate = 2.0 * (4.0 * eta / PI) * g * PI.sqrt();
    let dt = PER_STEP / rate;
    let mut collisions = 0;
    while collisions < 2 * n {
        collisions += world.step(dt).expect("a valid step").events;
    }
    (world, dt)
}

fn bench_hard_disks(c: &mut Criterion) {
    let mut group = c.benchmark_group("hard_disks");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    let mut rates = Vec::new();
    for eta in [0.3, 0.5] {
        for n in [1_024, 4_096, 16_384, 65_536] {
            let (mut world, dt) = gas(n, eta);
            let counted = Cell::new((0u64, Duration::ZERO));
            group.bench_function(BenchmarkId::new(format!("eta_{eta}"), n), |b| {
                b.iter_custom(|iters| {
                    let start = Instant::now();
                    let mut collisions = 0;
                    for _ in 0..iters {
                        let mut sample = 0;
                        while sample < PER_SAMPLE {
                            sample += world.step(dt).expect("a valid step").events as u64;
                        }
                        collisions += sample;
                    }
                    let elapsed = start.elapsed();
                    let (c, t) = counted.get();
                    counted.set((c + collisions, t + elapsed));
                    elapsed
                });
            });
            let (collisions, time) = counted.get();
            rates.push((n, eta, collisions as Real / time.as_secs_f64()));
        }
    }
    group.finish();
    println!(
        "\n{:>7} {:>5} {:>14} {:>22}",
        "N", "eta", "collisions/s", "per collision vs 1024"
    );
    for &(n, eta, rate) in &rates {
        let base = rates
            .iter()
            .find(|r| r.0 == 1_024 && r.1 == eta)
            .map_or(rate, |r| r.2);
        println!("{n:>7} {eta:>5} {rate:>14.0} {:>21.2}x", base / rate);
    }
}

criterion_group!(benches, bench_hard_disks);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
