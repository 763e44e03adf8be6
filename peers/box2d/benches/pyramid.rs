//! Box2D's benchmark "large_pyramid": impact, rapier2d and Box2D v3 on the same scene, in
//! the same process.
//!
//! Scene: `impact_testkit::scenes::pyramid(100)`: 5,050 unit boxes (1 x 1, density 1,
//! friction 0.6) in rows of 100 down to 1, each touching its neighbours, on a static ground
//! box whose top is y = 0; gravity -10, 60 Hz, 4 substeps. impact runs its defaults
//! (`World<RTreeBroadphase, Discrete>`, soft step, 1 velocity and 1 relax iteration per
//! substep); rapier2d-f64 its defaults (single-threaded, 4 solver iterations as substeps);
//! Box2D its defaults (contacts at 30 Hz, damping ratio 10, push-out 3 m/s), one worker, f32
//! with SSE2 as `boxdd` builds it. Sleeping is off in all three: Box2D's benchmark turns it
//! off, and a sleeping pyramid would time the island manager.
//!
//! The figures to compare are the summary's, printed last: Box2D's benchmark protocol, the
//! mean of steps 1 to 499 of fresh worlds, every engine run in lockstep rounds of
//! `ROUND_STEPS` steps (see `impact_peer_box2d::timing`), then whether each pyramid still
//! stands after the 500 steps (no box more than half a box below or beside its place).
//! Criterion's figures before it time one step at a time after `SETTLE_STEPS` steps, each
//! engine as many steps as criterion asks for.
//!
//! Run: `cargo bench --bench pyramid` (about two minutes after the build); `PYRAMID_BASE=20`
//! runs a smaller pyramid; `cargo bench --bench pyramid -- summary` prints the summary alone.

use criterion::{Criterion, criterion_group};
use impact_peer_box2d::box2d::Box2d;
use impact_peer_box2d::rapier::Rapier;
use impact_peer_box2d::timing::{Entrant, lockstep, summary};
use impact_peer_box2d::{DT, assert_same_start, awake, fallen, impact_positions};
use impact_testkit::scenes::{Scene, pyramid};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::geometry::Real;
use impact2d::stepper::{Discrete, World};
use std::hint::black_box;
use std::time::Duration;

/// Steps before criterion measures.
const SETTLE_STEPS: usize = 120;
/// Steps of the lockstep summary: Box2D's benchmark runs the large pyramid for 500.
const STEPS: usize = 500;
/// Steps of each engine in a round of the lockstep summary.
const ROUND_STEPS: usize = 10;

/// The three engines' worlds of one pyramid, the scene and where its boxes start.
struct Engines {
    scene: Scene,
    home: Vec<(Real, Real)>,
    impact: World<RTreeBroadphase, Discrete>,
    rapier: Rapier,
    box2d: Box2d,
}

impl Engines {
    /// Fresh worlds of `scene`, checked to start from the same boxes.
    fn new(scene: Scene) -> Self {
        let (impact, _) = scene.build().expect("valid scene");
        let rapier = Rapier::from_scene(&scene);
        let mut box2d = Box2d::from_scene(&scene).expect("valid Box2D scene");
        let home = impact_positions(&impact);
        assert_same_start("rapier2d", &home, &rapier.positions());
        assert_same_start("Box2D", &home, &box2d.positions());
        Self {
            scene,
            home,
            impact,
            rapier,
            box2d,
        }
    }
}

fn scene() -> Scene {
    let base = std::env::var("PYRAMID_BASE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    // Box2D's program runs the pyramid with sleeping off.
    awake(pyramid(base))
}

/// Criterion's figures: one step at a time after `SETTLE_STEPS` steps. Each engine runs as
/// many steps as criterion asks for: the lockstep summary is the one to compare.
fn bench_steady(c: &mut Criterion) {
    let mut e = Engines::new(scene());
    for _ in 0..SETTLE_STEPS {
        e.impact.step(DT).expect("valid step");
        e.rapier.world.step();
        e.box2d.step(DT);
    }
    let mut group = c.benchmark_group(format!("step/{}", e.scene.name));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("impact", |b| {
        b.iter(|| black_box(e.impact.step(DT).expect("valid step")));
    });
    group.bench_function("rapier2d", |b| b.iter(|| e.rapier.world.step()));
    group.bench_function("box2d", |b| b.iter(|| e.box2d.step(DT)));
    group.finish();
}

/// Box2D's protocol: the mean of steps 1 to `STEPS - 1` of fresh worlds, in lockstep.
fn lockstep_summary() {
    let Engines {
        scene,
        home,
        mut impact,
        mut rapier,
        mut box2d,
    } = Engines::new(scene());
    let timings = lockstep(
        &mut [
            Entrant::new("impact", || {
                black_box(impact.step(DT).expect("valid step"));
            }),
            Entrant::new("rapier2d", || rapier.world.step()),
            Entrant::new("Box2D", || box2d.step(DT)),
        ],
        STEPS,
        ROUND_STEPS,
    );
    println!(
        "\n{} ({} boxes): mean of steps 1 to {} of fresh worlds, in lockstep rounds of \
         {ROUND_STEPS} steps:",
        scene.name,
        home.len(),
        STEPS - 1,
    );
    for line in summary(&timings) {
        println!("{line}");
    }
    let show = |(fell, sideways, sink): (usize, usize, Real)| {
        format!("{fell} ({sideways} sideways, deepest sink {sink:.2})")
    };
    println!(
        "  fallen after {STEPS} steps: impact {}, rapier2d {}, Box2D {}",
        show(fallen(&home, &impact_positions(&impact))),
        show(fallen(&home, &rapier.positions())),
        show(fallen(&home, &box2d.positions())),
    );
}

criterion_group!(benches, bench_steady);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    lockstep_summary();
}
