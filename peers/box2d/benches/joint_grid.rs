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
//! The figures to compare are the summary's, printed last: Box2D's benchmark protocol, the
//! mean of steps 1 to 499 of fresh worlds, every engine run in lockstep rounds of
//! `ROUND_STEPS` steps (see `impact_peer_box2d::timing`), then each engine's largest joint
//! stretch (anchor separation) after the 500 steps. Criterion's figures before it time one
//! step at a time after `SETTLE_STEPS` steps, each engine as many steps as criterion asks for.
//!
//! Run: `cargo bench --bench joint_grid` (about two minutes after the build);
//! `JOINT_GRID_N=30` runs a smaller grid; a criterion filter that matches no benchmark
//! (`cargo bench --bench joint_grid -- summary`) skips criterion's measurements and prints
//! the summary alone.

use criterion::{Criterion, criterion_group};
use impact_peer_box2d::box2d::Box2d;
use impact_peer_box2d::rapier::Rapier;
use impact_peer_box2d::timing::{Entrant, lockstep, summary};
use impact_peer_box2d::{DT, assert_same_start, awake_jointed, impact_positions, impact_stretch};
use impact_testkit::scenes::{JointedScene, joint_grid};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::stepper::{Discrete, FirstTimeOfImpact, World};
use std::hint::black_box;
use std::time::Duration;

/// Steps before criterion measures.
const SETTLE_STEPS: usize = 60;
/// Steps of the lockstep summary: Box2D's benchmark runs the joint grid for 500.
const STEPS: usize = 500;
/// Steps of each engine in a round of the lockstep summary.
const ROUND_STEPS: usize = 10;

/// The four engines' worlds of one grid, and the grid.
struct Engines {
    grid: JointedScene,
    discrete: World<RTreeBroadphase, Discrete>,
    toi: World<RTreeBroadphase, FirstTimeOfImpact>,
    rapier: Rapier,
    box2d: Box2d,
}

impl Engines {
    /// Fresh worlds of `grid`, checked to start from the same bodies.
    fn new(grid: JointedScene) -> Self {
        let (discrete, _, _) = grid.build().expect("valid scene");
        let (toi, _, _) = grid.build().expect("valid scene");
        let rapier = Rapier::from_jointed(&grid);
        let mut box2d = Box2d::from_jointed(&grid).expect("valid Box2D scene");
        let home = impact_positions(&discrete);
        assert_same_start("rapier2d", &home, &rapier.positions());
        assert_same_start("Box2D", &home, &box2d.positions());
        Self {
            grid,
            discrete,
            toi,
            rapier,
            box2d,
        }
    }

    /// One step of every engine.
    fn step(&mut self) {
        self.discrete.step(DT).expect("valid step");
        self.toi.step(DT).expect("valid step");
        self.rapier.world.step();
        self.box2d.step(DT);
    }
}

fn grid() -> JointedScene {
    let n = std::env::var("JOINT_GRID_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    // Box2D's program runs the joint grid with sleeping off.
    awake_jointed(joint_grid(n))
}

/// Criterion's figures: one step at a time after `SETTLE_STEPS` steps. Each engine runs as
/// many steps as criterion asks for, so their worlds part ways: the lockstep summary is the
/// one to compare.
fn bench_steady(c: &mut Criterion) {
    let mut e = Engines::new(grid());
    for _ in 0..SETTLE_STEPS {
        e.step();
    }
    let mut group = c.benchmark_group(format!("step/{}", e.grid.scene.name));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("impact_discrete", |b| {
        b.iter(|| black_box(e.discrete.step(DT).expect("valid step")));
    });
    group.bench_function("impact_toi", |b| {
        b.iter(|| black_box(e.toi.step(DT).expect("valid step")));
    });
    group.bench_function("rapier2d", |b| b.iter(|| e.rapier.world.step()));
    group.bench_function("box2d", |b| b.iter(|| e.box2d.step(DT)));
    group.finish();
}

/// Box2D's protocol: the mean of steps 1 to `STEPS - 1` of fresh worlds, in lockstep.
fn lockstep_summary() {
    let Engines {
        grid,
        mut discrete,
        mut toi,
        mut rapier,
        mut box2d,
    } = Engines::new(grid());
    let timings = lockstep(
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
        STEPS,
        ROUND_STEPS,
    );
    println!(
        "\n{} ({} bodies, {} joints): mean of steps 1 to {} of fresh worlds, in lockstep \
         rounds of {ROUND_STEPS} steps:",
        grid.scene.name,
        grid.scene.bodies.len(),
        grid.joints.len(),
        STEPS - 1,
    );
    for line in summary(&timings) {
        println!("{line}");
    }
    println!(
        "  largest joint stretch after {STEPS} steps: impact Discrete {:.2e}, impact FirstTOI \
         {:.2e}, rapier2d {:.2e}, Box2D {:.2e}",
        impact_stretch(&discrete),
        impact_stretch(&toi),
        rapier.stretch(&grid),
        box2d.stretch(&grid),
    );
}

criterion_group!(benches, bench_steady);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    lockstep_summary();
}
