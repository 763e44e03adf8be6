//! Box2D's benchmark "joint grid": impact, rapier2d and Box2D v3 on the same scene, in the
//! same process.
//!
//! Scene: `impact_testkit::scenes::joint_grid(100)`, Box2D's `benchmark/joint_grid.c`:
//! 10,000 circles of radius 0.4 (density 1) a unit apart, 19,800 revolute joints to the
//! neighbours above and on the left (anchors half-way), the top row's 7 middle bodies
//! static, nothing colliding (category 2, mask without 2), gravity -10, 60 Hz, 4 substeps.
//! impact runs its defaults (joints at 60 Hz, damping ratio 2, warm-started, as Box2D), as
//! `World<RTreeBroadphase, Discrete>` and `World<RTreeBroadphase, FirstTimeOfImpact>`;
//! rapier2d-f64 its defaults (single-threaded, impulse joints, no sleeping); Box2D its
//! defaults (joint softness 60 Hz and damping ratio 2 from `b2DefaultJointDef`), sleeping
//! off, one worker, f32 with SSE2 as `boxdd` builds it.
//!
//! Each engine first runs `SETTLE_STEPS` steps (the grid falls and swings), then criterion
//! measures one step at a time, then `ROUNDS` interleaved rounds of `ROUND_STEPS` steps of
//! each engine give the summary (median round, range, ratios), and each engine's largest
//! joint stretch (anchor separation) at the end.
//!
//! Run: `cargo bench --bench joint_grid` (about two minutes after the build);
//! `JOINT_GRID_N=30` runs a smaller grid; a criterion filter that matches no benchmark
//! (`cargo bench --bench joint_grid -- summary`) skips criterion's measurements and prints
//! the summary alone.

use criterion::{Criterion, criterion_group};
use impact_peer_box2d::box2d::Box2d;
use impact_peer_box2d::rapier::Rapier;
use impact_peer_box2d::timing::{Entrant, interleaved, summary};
use impact_peer_box2d::{DT, assert_same_start, impact_positions, impact_stretch};
use impact_testkit::scenes::{JointedScene, joint_grid};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::stepper::{Discrete, FirstTimeOfImpact, Stepper, World};
use std::hint::black_box;
use std::time::Duration;

const SETTLE_STEPS: usize = 60;
const ROUNDS: usize = 7;
const ROUND_STEPS: usize = 20;

fn settled<S: Stepper + Default>(grid: &JointedScene) -> World<RTreeBroadphase, S> {
    let (mut world, _, _) = grid.build::<RTreeBroadphase, S>().expect("valid scene");
    for _ in 0..SETTLE_STEPS {
        world.step(DT).expect("valid step");
    }
    world
}

fn bench_joint_grid(c: &mut Criterion) {
    let n = std::env::var("JOINT_GRID_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let grid = joint_grid(n);
    let mut discrete = settled::<Discrete>(&grid);
    let mut toi = settled::<FirstTimeOfImpact>(&grid);
    let mut rapier = Rapier::from_jointed(&grid);
    let mut box2d = Box2d::from_jointed(&grid).expect("valid Box2D scene");
    let (fresh, _, _) = grid
        .build::<RTreeBroadphase, Discrete>()
        .expect("valid scene");
    let home = impact_positions(&fresh);
    assert_same_start("rapier2d", &home, &rapier.positions());
    assert_same_start("Box2D", &home, &box2d.positions());
    for _ in 0..SETTLE_STEPS {
        rapier.world.step();
        box2d.step(DT);
    }

    let mut group = c.benchmark_group(format!("step/{}", grid.scene.name));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("impact_discrete", |b| {
        b.iter(|| black_box(discrete.step(DT).expect("valid step")));
    });
    group.bench_function("impact_toi", |b| {
        b.iter(|| black_box(toi.step(DT).expect("valid step")));
    });
    group.bench_function("rapier2d", |b| b.iter(|| rapier.world.step()));
    group.bench_function("box2d", |b| b.iter(|| box2d.step(DT)));
    group.finish();

    let figures = interleaved(
        &mut [
            Entrant::new("impact Discrete", || {
                black_box(discrete.step(DT).expect("valid step"));
            }),
            Entrant::new("impact FirstTOI", || {
                black_box(toi.step(DT).expect("valid step"));
            }),
            Entrant::new("rapier2d", || rapier.world.step()),
            Entrant::new("Box2D", || box2d.step(DT)),
        ],
        ROUNDS,
        ROUND_STEPS,
    );
    println!(
        "\n{} ({} bodies, {} joints), per step, median of {ROUNDS} interleaved rounds of \
         {ROUND_STEPS} steps after {SETTLE_STEPS} steps of settling:",
        grid.scene.name,
        grid.scene.bodies.len(),
        grid.joints.len(),
    );
    for line in summary(&figures) {
        println!("{line}");
    }
    println!(
        "  largest joint stretch: impact Discrete {:.2e}, impact FirstTOI {:.2e}, \
         rapier2d {:.2e}, Box2D {:.2e}",
        impact_stretch(&discrete),
        impact_stretch(&toi),
        rapier.stretch(&grid),
        box2d.stretch(&grid),
    );
}

criterion_group!(benches, bench_joint_grid);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
