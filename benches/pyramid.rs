//! Box2D's pyramids, impact against rapier2d on the same scene, in the same process.
//!
//! Scenes come from `impact_testkit::scenes::pyramid`: unit boxes (1 x 1, density 1,
//! friction 0.6) on a static ground box, gravity -10, 60 Hz. The 100-box base is Box2D's
//! "large pyramid" (5,050 boxes); the 20-box base has 210. Each engine first settles the
//! pyramid (`SETTLE_STEPS`), then criterion measures one step at a time while the pyramid
//! keeps standing, and after measuring the bench checks that it still stands in both engines
//! (no box more than half a box below or beside its place) and prints per-step times and the
//! ratio.
//!
//! Solver settings: impact's defaults (soft step: 4 substeps, 1 velocity and 1 relax iteration
//! per substep, `World<RTreeBroadphase, Discrete>`); rapier's defaults
//! (`IntegrationParameters::default()`: 4 solver iterations as substeps, 1 PGS and 1
//! stabilization iteration each), single-threaded (no `parallel` feature). One rapier default
//! is changed: bodies cannot sleep, and impact's world has sleeping off, because a sleeping
//! pyramid costs either engine next to nothing, which would time the island manager, not the
//! solver (`benches/sleeping.rs` times that).
//!
//! Run: `cargo bench --bench pyramid` (about two minutes). `PYRAMID_COUNT_ONLY=N` skips the
//! timing and rapier2d: it settles impact's 5,050-box pyramid and steps it `N` more times in
//! `counted_steps`, for `valgrind --tool=callgrind --collect-atstart=no
//! --toggle-collect='*counted_steps*'`.

use criterion::{Criterion, criterion_group};
use impact_testkit::scenes::{self, Scene};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::geometry::{Isometry, Real, ShapeKind};
use impact2d::solver::{BodyType, RigidBodyDef};
use impact2d::stepper::{Discrete, World};
use rapier2d_f64::prelude as rp;
use std::hint::black_box;
use std::time::{Duration, Instant};

const DT: Real = 1.0 / 60.0;
const SETTLE_STEPS: usize = 120;

type ImpactWorld = World<RTreeBroadphase, Discrete>;

struct Rapier {
    world: rp::PhysicsWorld,
    boxes: Vec<rp::RigidBodyHandle>,
}

impl Rapier {
    /// The same scene in rapier: each body's box as a cuboid of the same half extents, the
    /// same pose, density, friction and body type.
    fn new(scene: &Scene) -> Self {
        let mut world = rp::PhysicsWorld {
            gravity: rp::Vector::new(scene.settings.gravity.x, scene.settings.gravity.y),
            ..Default::default()
        };
        world.integration_parameters.dt = DT;
        let mut boxes = Vec::new();
        for def in &scene.bodies {
            let (handle, dynamic) = insert_rapier(&mut world, def);
            if dynamic {
                boxes.push(handle);
            }
        }
        Self { world, boxes }
    }

    fn positions(&self) -> Vec<(Real, Real)> {
        self.boxes
            .iter()
            .map(|h| {
                let t = self.world.bodies[*h].translation();
                (t.x, t.y)
            })
            .collect()
    }
}

fn insert_rapier(world: &mut rp::PhysicsWorld, def: &RigidBodyDef) -> (rp::RigidBodyHandle, bool) {
    assert_eq!(
        def.shape.kind(),
        ShapeKind::Polygon,
        "the pyramid is made of boxes"
    );
    assert_eq!(def.shape.radius(), 0.0, "the pyramid's boxes are sharp");
    let half = def.shape.aabb(&Isometry::identity()).half_extents();
    let t = def.pose.translation.vector;
    let dynamic = def.body_type == BodyType::Dynamic;
    let body = if dynamic {
        rp::RigidBodyBuilder::dynamic().can_sleep(false)
    } else {
        rp::RigidBodyBuilder::fixed()
    }
    .translation(rp::Vector::new(t.x, t.y))
    .rotation(def.pose.rotation.angle());
    let collider = rp::ColliderBuilder::cuboid(half.x, half.y)
        .density(def.density)
        .friction(def.friction);
    let (handle, _) = world.insert(body, collider);
    (handle, dynamic)
}

fn impact_positions(world: &ImpactWorld) -> Vec<(Real, Real)> {
    world
        .bodies()
        .filter(|(_, b)| b.is_dynamic())
        .map(|(_, b)| {
            let t = b.pose().translation;
            (t.x, t.y)
        })
        .collect()
}

/// Whether every box is within half a box of its place (and finite); returns the number of
/// boxes that fell, then of those how many are out sideways (`|dx| > 0.5`, or not finite),
/// and the deepest sink of any box below its place. A tall pyramid of soft contacts sinks
/// without toppling (each contact keeps an overlap proportional to its load, and the overlaps
/// of 100 rows add up), so the sideways count is the one that tells a collapse.
fn fallen(home: &[(Real, Real)], now: &[(Real, Real)]) -> (usize, usize, Real) {
    let mut fell = 0;
    let mut sideways = 0;
    let mut max_sink: Real = 0.0;
    for ((hx, hy), (x, y)) in home.iter().zip(now) {
        let finite = x.is_finite() && y.is_finite();
        max_sink = max_sink.max(hy - y);
        if !finite || (x - hx).abs() > 0.5 {
            sideways += 1;
        }
        if !finite || hy - y > 0.5 || (x - hx).abs() > 0.5 {
            fell += 1;
        }
    }
    (fell, sideways, max_sink)
}

struct Pair {
    name: String,
    home: Vec<(Real, Real)>,
    impact: ImpactWorld,
    rapier: Rapier,
}

fn setup(base: usize) -> Pair {
    let mut scene = scenes::pyramid(base);
    // Rapier2d's boxes here cannot sleep: both engines time the same awake physics (the
    // sleeping bench times sleep).
    scene.settings.sleeping = false;
    let (mut impact, _) = scene
        .build::<RTreeBroadphase, Discrete>()
        .expect("valid scene");
    let mut rapier = Rapier::new(&scene);
    let home = impact_positions(&impact);
    assert_eq!(
        home,
        rapier.positions(),
        "both engines build the same pyramid"
    );
    for _ in 0..SETTLE_STEPS {
        impact.step(DT).expect("valid step");
        rapier.world.step();
    }
    Pair {
        name: scene.name,
        home,
        impact,
        rapier,
    }
}

/// Mean time of one step over `steps` steps.
fn time_steps(steps: usize, mut step: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..steps {
        step();
    }
    start.elapsed() / steps as u32
}

fn bench_pyramids(c: &mut Criterion) {
    let mut summary = Vec::new();
    for (base, sample_size, timed_steps) in [(20, 50, 600), (100, 10, 120)] {
        let mut pair = setup(base);
        let mut group = c.benchmark_group(format!("step/{}", pair.name));
        group.sample_size(sample_size);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(if base == 100 { 20 } else { 5 }));
        group.bench_function("impact", |b| {
            b.iter(|| black_box(pair.impact.step(DT).expect("valid step")));
        });
        group.bench_function("rapier2d", |b| b.iter(|| pair.rapier.world.step()));
        group.finish();

        // Back-to-back timing of the same number of steps, for the ratio in the summary.
        let impact_step = time_steps(timed_steps, || {
            black_box(pair.impact.step(DT).expect("valid step"));
        });
        let rapier_step = time_steps(timed_steps, || pair.rapier.world.step());
        let impact_fallen = fallen(&pair.home, &impact_positions(&pair.impact));
        let rapier_fallen = fallen(&pair.home, &pair.rapier.positions());
        let show = |(fell, sideways, sink): (usize, usize, Real)| {
            format!("{fell} ({sideways} sideways, deepest sink {sink:.2})")
        };
        summary.push(format!(
            "{:<12} {:>6} boxes  impact {:>9.3} ms  rapier2d {:>9.3} ms  ratio {:.2}  \
             fallen: impact {}, rapier2d {}  (after {:.1} s)",
            pair.name,
            pair.home.len(),
            impact_step.as_secs_f64() * 1e3,
            rapier_step.as_secs_f64() * 1e3,
            impact_step.as_secs_f64() / rapier_step.as_secs_f64(),
            show(impact_fallen),
            show(rapier_fallen),
            pair.impact.time(),
        ));
    }
    println!("\nper-step time, impact / rapier2d:");
    for line in summary {
        println!("{line}");
    }
}

criterion_group!(benches, bench_pyramids);

/// `steps` steps of `world`, in a function of its own so that callgrind can count them alone.
#[inline(never)]
fn counted_steps(world: &mut ImpactWorld, steps: usize) {
    for _ in 0..steps {
        black_box(world.step(DT).expect("valid step"));
    }
}

/// The counting run (`PYRAMID_COUNT_ONLY=N`): impact alone, settled, then `steps` counted
/// steps; prints the state's hash so that runs can be compared.
fn count_only(steps: usize) {
    let mut scene = scenes::pyramid(100);
    scene.settings.sleeping = false;
    let (mut world, _) = scene
        .build::<RTreeBroadphase, Discrete>()
        .expect("valid scene");
    for _ in 0..SETTLE_STEPS {
        world.step(DT).expect("valid step");
    }
    let start = Instant::now();
    counted_steps(&mut world, steps);
    let ms = start.elapsed().as_secs_f64() * 1e3 / steps.max(1) as f64;
    println!(
        "{}: {steps} counted steps after {SETTLE_STEPS}, {ms:.3} ms a step, state hash {:016x}",
        scene.name,
        world.body_set().state_hash()
    );
}

fn main() {
    if let Some(steps) = std::env::var("PYRAMID_COUNT_ONLY")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        count_only(steps);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
