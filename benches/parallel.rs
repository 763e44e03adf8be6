//! The `parallel` feature against one thread, in the same process, on the scenes the issue
//! names: Box2D's large pyramid (5,050 boxes, `Discrete` and `MotionClamping`) and the rain
//! of 10,000 fast discs onto thin segments (`Discrete`, `MotionClamping`, and
//! `FirstTimeOfImpact` reported).
//!
//! On one thread every stage takes its serial path, the code of the serial build; so "1
//! thread" here is the serial build's step, and both runs must end with the same state hash,
//! which the bench checks. Two worlds of each scene step in lockstep, one on a pool of one
//! thread and one on a pool of all the machine's threads, in alternating blocks of steps, so
//! both are timed on the same states and the same machine load. Sleeping is off (a settled
//! pyramid would sleep).
//!
//! Run: `cargo bench --features parallel --bench parallel` (about three minutes);
//! `PARALLEL_STEPS=N` changes the timed steps per world (default 60).

use criterion::{Criterion, criterion_group};
use impact_testkit::scenes::{self, Scene};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::geometry::Real;
use impact2d::stepper::{Discrete, FirstTimeOfImpact, MotionClamping, Stepper, World};
use std::time::{Duration, Instant};

const DT: Real = 1.0 / 60.0;
/// Steps per timed block; the two worlds alternate blocks.
const BLOCK: usize = 10;

type W<S> = World<RTreeBroadphase, S>;

/// A world of `scene` built and settled for `settle` steps on `pool`.
fn world_on<S: Stepper + Default + Send>(
    pool: &rayon::ThreadPool,
    scene: &Scene,
    settle: usize,
) -> W<S> {
    pool.install(|| {
        let (mut w, _) = scene.build::<RTreeBroadphase, S>().expect("valid scene");
        for _ in 0..settle {
            w.step(DT).expect("valid step");
        }
        w
    })
}

/// Every body's pose and velocity bits, folded.
fn hash<S: Stepper>(w: &W<S>) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325_u64;
    for (handle, b) in w.bodies() {
        let p = b.pose();
        let v = b.linvel();
        for bits in [
            u64::from(handle.index),
            p.translation.x.to_bits(),
            p.translation.y.to_bits(),
            p.rotation.re.to_bits(),
            p.rotation.im.to_bits(),
            v.x.to_bits(),
            v.y.to_bits(),
            b.angvel().to_bits(),
        ] {
            h = (h ^ bits).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// Times `steps` steps of each of two worlds in lockstep (alternating blocks), the first on
/// `serial` and the second on `shared`; returns both mean times per step.
fn lockstep<S: Stepper + Send>(
    (serial, one): (&rayon::ThreadPool, &mut W<S>),
    (shared, many): (&rayon::ThreadPool, &mut W<S>),
    steps: usize,
) -> (Duration, Duration) {
    let (mut t1, mut tn) = (Duration::ZERO, Duration::ZERO);
    let block = |pool: &rayon::ThreadPool, w: &mut W<S>| {
        pool.install(|| {
            let start = Instant::now();
            for _ in 0..BLOCK {
                w.step(DT).expect("valid step");
            }
            start.elapsed()
        })
    };
    for _ in 0..steps.div_ceil(BLOCK) {
        t1 += block(serial, one);
        tn += block(shared, many);
    }
    let n = (steps.div_ceil(BLOCK) * BLOCK) as u32;
    (t1 / n, tn / n)
}

fn compare<S: Stepper + Default + Send>(
    c: &mut Criterion,
    name: &str,
    scene: &Scene,
    settle: usize,
    summary: &mut Vec<String>,
) {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let serial = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let shared = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool");
    let mut one = world_on::<S>(&serial, scene, settle);
    let mut many = world_on::<S>(&shared, scene, settle);
    let steps = std::env::var("PARALLEL_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let (t1, tn) = lockstep((&serial, &mut one), (&shared, &mut many), steps);
    let (h1, hn) = (hash(&one), hash(&many));
    assert_eq!(h1, hn, "{name}: the runs on 1 and {threads} threads differ");
    let line = format!(
        "parallel-result {name}: 1 thread {:.3} ms/step, {threads} threads {:.3} ms/step, \
         throughput x{:.2}, state hash {h1:#018x} on both",
        t1.as_secs_f64() * 1e3,
        tn.as_secs_f64() * 1e3,
        t1.as_secs_f64() / tn.as_secs_f64()
    );
    println!("{line}");
    summary.push(line);
    let mut group = c.benchmark_group(format!("parallel/{name}"));
    group.sample_size(10);
    for (label, pool, w) in [("1", &serial, &mut one), ("all", &shared, &mut many)] {
        group.bench_function(format!("{label} threads"), |b| {
            b.iter_custom(|iters| {
                pool.install(|| {
                    let start = Instant::now();
                    for _ in 0..iters {
                        w.step(DT).expect("valid step");
                    }
                    start.elapsed()
                })
            })
        });
    }
    group.finish();
}

fn bench_parallel(c: &mut Criterion) {
    let mut summary = Vec::new();
    let mut pyramid = scenes::pyramid(100);
    pyramid.settings.sleeping = false;
    compare::<Discrete>(c, "large pyramid, Discrete", &pyramid, 60, &mut summary);
    compare::<MotionClamping>(
        c,
        "large pyramid, MotionClamping",
        &pyramid,
        60,
        &mut summary,
    );
    let mut rain = scenes::rain(10_000, 1);
    rain.settings.sleeping = false;
    compare::<Discrete>(c, "rain 10,000, Discrete", &rain, 30, &mut summary);
    compare::<MotionClamping>(c, "rain 10,000, MotionClamping", &rain, 30, &mut summary);
    compare::<FirstTimeOfImpact>(c, "rain 10,000, FirstTimeOfImpact", &rain, 30, &mut summary);
    println!("\nsummary:");
    for line in summary {
        println!("  {line}");
    }
}

criterion_group!(benches, bench_parallel);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
