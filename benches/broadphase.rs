//! The broadphase's per-step cycle: update the proxies that moved (their swept boxes), then
//! find every overlapping pair. Two scenes from `impact_testkit::moving_boxes` (a uniform random
//! walk; dense rain onto a static floor) at 1,000, 10,000 and 100,000 bodies, against
//! `BruteForce` (up to 10,000) and parry2d's `Bvh` in the same process.
//!
//! Only the broadphase calls are timed (`iter_custom`): advancing the scene is excluded.
//! Every competitor first runs `WARMUP_STEPS` steps so it is measured in steady state (fat
//! boxes settled, rain drops landing and respawning).
//!
//! parry runs two cycles, both starting with `insert_or_update_partially` (same margin as
//! ours) for each moved leaf and ending with `traverse_bvtt_single_tree::<false>` for all
//! pairs: the refit path rapier's broadphase uses (`refit`, `optimize_incremental`) and the
//! rebuild path (`rebuild` with the binned strategy). Its pairs come out unsorted; ours
//! include sorting them.
//!
//! Run: `cargo bench --bench broadphase` (a few minutes; results and ratios in
//! `docs/benchmarks.md`).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use impact_testkit::moving_boxes::Scene;
use impact2d::broadphase::{
    Broadphase, BruteForce, DEFAULT_MARGIN, ProxyId, RTreeBroadphase, SortAndSweep, margin_for,
};
use impact2d::geometry::Aabb;
use parry2d_f64::bounding_volume::Aabb as ParryAabb;
use parry2d_f64::math::Vector as ParryVector;
use parry2d_f64::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use std::hint::black_box;
use std::time::{Duration, Instant};

const WARMUP_STEPS: usize = 60;
const SIZES: [usize; 3] = [1_000, 10_000, 100_000];
const BRUTE_FORCE_MAX: usize = 10_000;
const SEED: u64 = 0x1a2b_3c4d;

/// One broadphase under test: built from the initial boxes, then stepped.
trait Competitor {
    fn build(initial: &[(ProxyId, Aabb)]) -> Self;
    /// Applies one step's moved boxes and returns the number of overlapping pairs.
    fn step(&mut self, moved: &[(ProxyId, Aabb)]) -> usize;
}

struct Ours<B>(B);

impl<B: Broadphase + Default> Competitor for Ours<B> {
    fn build(initial: &[(ProxyId, Aabb)]) -> Self {
        let mut b = B::default();
        for (id, aabb) in initial {
            b.insert(*id, *aabb).expect("scene boxes are valid");
        }
        b.overlapping_pairs();
        Self(b)
    }

    fn step(&mut self, moved: &[(ProxyId, Aabb)]) -> usize {
        self.0.update_batch(moved).expect("scene boxes are valid");
        self.0.overlapping_pairs().len()
    }
}

/// parry2d's `Bvh` driven the way rapier drives it (`REBUILD = false`: refit and incremental
/// optimisation, topology kept) or rebuilt from its leaves every step (`REBUILD = true`).
struct ParryBvh<const REBUILD: bool> {
    bvh: Bvh,
    workspace: BvhWorkspace,
    pairs: Vec<(u32, u32)>,
}

fn parry_aabb(aabb: &Aabb) -> ParryAabb {
    ParryAabb::new(
        ParryVector::new(aabb.mins.x, aabb.mins.y),
        ParryVector::new(aabb.maxs.x, aabb.maxs.y),
    )
}

impl<const REBUILD: bool> Competitor for ParryBvh<REBUILD> {
    fn build(initial: &[(ProxyId, Aabb)]) -> Self {
        // Same fat boxes as ours at the start; handles are 0..n, which `from_leaves` uses.
        let leaves: Vec<ParryAabb> = initial
            .iter()
            .map(|(_, aabb)| parry_aabb(&aabb.inflated(margin_for(DEFAULT_MARGIN, aabb))))
            .collect();
        let mut s = Self {
            bvh: Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves),
            workspace: BvhWorkspace::default(),
            pairs: Vec::new(),
        };
        s.step(&[]);
        s
    }

    fn step(&mut self, moved: &[(ProxyId, Aabb)]) -> usize {
        for (id, aabb) in moved {
            // The margin ours gives this box (a small drop gets less than the default).
            self.bvh.insert_or_update_partially(
                parry_aabb(aabb),
                id.0,
                margin_for(DEFAULT_MARGIN, aabb),
            );
        }
        if REBUILD {
            self.bvh
                .rebuild(&mut self.workspace, BvhBuildStrategy::Binned);
        } else {
            self.bvh.refit(&mut self.workspace);
            self.bvh.optimize_incremental(&mut self.workspace);
        }
        self.pairs.clear();
        let pairs = &mut self.pairs;
        self.bvh
            .traverse_bvtt_single_tree::<false>(&mut self.workspace, &mut |a, b| {
                pairs.push((a, b))
            });
        self.pairs.len()
    }
}

fn bench_competitor<C: Competitor>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    make_scene: fn(usize, u64) -> Scene,
    n: usize,
) {
    let mut scene = make_scene(n, SEED);
    let mut competitor = C::build(&scene.boxes());
    let mut pairs = 0;
    for _ in 0..WARMUP_STEPS {
        scene.step();
        pairs = competitor.step(scene.moved());
    }
    eprintln!(
        "{name}/{n}: {} moved, {pairs} pairs per step after warm-up",
        scene.moved().len()
    );
    group.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                scene.step();
                let start = Instant::now();
                black_box(competitor.step(scene.moved()));
                total += start.elapsed();
            }
            total
        })
    });
}

/// `refit_max`: the largest size at which parry's refit path runs. In the rain scene,
/// respawning drops keep their place in the refitted tree while they jump across the scene,
/// so its nodes grow until a step at 10,000 bodies costs more than brute force; at 100,000
/// it would dominate the bench's run time, so only parry's rebuild path runs there.
fn bench_scene(
    c: &mut Criterion,
    scene_name: &str,
    make_scene: fn(usize, u64) -> Scene,
    refit_max: usize,
) {
    let mut group = c.benchmark_group(format!("broadphase_step/{scene_name}"));
    // Short on purpose: the whole file runs in a few minutes.
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for n in SIZES {
        bench_competitor::<Ours<RTreeBroadphase>>(&mut group, "rtree", make_scene, n);
        bench_competitor::<Ours<SortAndSweep>>(&mut group, "sort_and_sweep", make_scene, n);
        bench_competitor::<ParryBvh<true>>(&mut group, "parry_bvh_rebuild", make_scene, n);
        if n <= refit_max {
            bench_competitor::<ParryBvh<false>>(&mut group, "parry_bvh_refit", make_scene, n);
        }
        if n <= BRUTE_FORCE_MAX {
            bench_competitor::<Ours<BruteForce>>(&mut group, "brute_force", make_scene, n);
        }
    }
    group.finish();
}

fn broadphase(c: &mut Criterion) {
    bench_scene(c, "random_walk", Scene::random_walk, usize::MAX);
    bench_scene(c, "rain", Scene::rain, BRUTE_FORCE_MAX);
}

criterion_group!(benches, broadphase);
criterion_main!(benches);
