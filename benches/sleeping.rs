//! A settled world of 10,000 boxes, asleep, against the same world awake and against
//! rapier2d (whose bodies sleep too), in the same process.
//!
//! The scene is `impact_testkit::scenes::pyramids(1000, 4)`: a thousand pyramids of ten unit
//! boxes (1 x 1, density 1, friction 0.6) on one static ground, gravity -10, 60 Hz. Each
//! engine steps until every box sleeps (impact: `World<RTreeBroadphase, Discrete>` with its
//! default sleeping, Box2D's 0.5 s at 0.05 m/s; rapier2d: its defaults, which sleep too), then
//! the step of the sleeping world is timed; impact's world is then woken with sleeping off
//! and its awake step timed. The bench prints per-step times, the asleep/awake ratio (the
//! issue asks under 5%) and impact/rapier2d asleep (at most 1).
//!
//! Run: `cargo bench --bench sleeping` (about a minute).

use criterion::{Criterion, criterion_group};
use impact_testkit::scenes::{self, Scene};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::geometry::{Isometry, Real};
use impact2d::solver::{BodyType, RigidBodyDef};
use impact2d::stepper::{Discrete, WorldSettings};
use rapier2d_f64::prelude as rp;
use std::hint::black_box;
use std::time::{Duration, Instant};

const DT: Real = 1.0 / 60.0;
/// Steps allowed for every box to fall asleep (10 s).
const MAX_SETTLE: usize = 600;
const TIMED_STEPS: usize = 200;

fn rapier_world(scene: &Scene) -> rp::PhysicsWorld {
    let mut world = rp::PhysicsWorld {
        gravity: rp::Vector::new(scene.settings.gravity.x, scene.settings.gravity.y),
        ..Default::default()
    };
    world.integration_parameters.dt = DT;
    for def in &scene.bodies {
        insert_rapier(&mut world, def);
    }
    world
}

fn insert_rapier(world: &mut rp::PhysicsWorld, def: &RigidBodyDef) {
    let half = def.shape.aabb(&Isometry::identity()).half_extents();
    let t = def.pose.translation.vector;
    let body = if def.body_type == BodyType::Dynamic {
        rp::RigidBodyBuilder::dynamic()
    } else {
        rp::RigidBodyBuilder::fixed()
    }
    .translation(rp::Vector::new(t.x, t.y))
    .rotation(def.pose.rotation.angle());
    let collider = rp::ColliderBuilder::cuboid(half.x, half.y)
        .density(def.density)
        .friction(def.friction);
    world.insert(body, collider);
}

fn rapier_sleeping(world: &rp::PhysicsWorld) -> usize {
    world
        .bodies
        .iter()
        .filter(|(_, b)| b.is_dynamic() && b.is_sleeping())
        .count()
}

/// Mean time of one step over `steps` steps.
fn time_steps(steps: usize, mut step: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..steps {
        step();
    }
    start.elapsed() / steps as u32
}

fn bench_sleeping(c: &mut Criterion) {
    let scene = scenes::pyramids(1000, 4);
    let boxes = scene.bodies.len() - 1;
    let (mut impact, _) = scene
        .build::<RTreeBroadphase, Discrete>()
        .expect("valid scene");
    let mut rapier = rapier_world(&scene);
    let mut impact_at = None;
    let mut rapier_at = None;
    for step in 1..=MAX_SETTLE {
        if impact_at.is_none() {
            impact.step(DT).expect("valid step");
            if impact.sleeping_count() == boxes {
                impact_at = Some(step);
            }
        }
        if rapier_at.is_none() {
            rapier.step();
            if rapier_sleeping(&rapier) == boxes {
                rapier_at = Some(step);
            }
        }
        if impact_at.is_some() && rapier_at.is_some() {
            break;
        }
    }
    let impact_at = impact_at.expect("impact's boxes fell asleep");
    println!(
        "{boxes} boxes asleep: impact after {impact_at} steps, rapier2d after {}",
        rapier_at.map_or("never (within 10 s)".to_owned(), |s| format!("{s} steps"))
    );

    let mut group = c.benchmark_group(format!("step/{}", scene.name));
    group.sample_size(50);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("impact asleep", |b| {
        b.iter(|| black_box(impact.step(DT).expect("valid step")));
    });
    group.bench_function("rapier2d asleep", |b| b.iter(|| rapier.step()));
    let asleep = time_steps(TIMED_STEPS, || {
        black_box(impact.step(DT).expect("valid step"));
    });
    let rapier_asleep = time_steps(TIMED_STEPS, || rapier.step());
    assert_eq!(impact.sleeping_count(), boxes, "nothing woke");

    let awake_settings = WorldSettings {
        sleeping: false,
        ..*impact.settings()
    };
    impact.set_settings(awake_settings).expect("valid settings");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("impact awake", |b| {
        b.iter(|| black_box(impact.step(DT).expect("valid step")));
    });
    group.finish();
    let awake = time_steps(TIMED_STEPS / 4, || {
        black_box(impact.step(DT).expect("valid step"));
    });
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "\nper-step time, {boxes} settled boxes:\n  impact asleep {:.4} ms, awake {:.3} ms, \
         asleep/awake {:.3}%\n  rapier2d asleep {:.4} ms, impact/rapier2d asleep {:.2}",
        ms(asleep),
        ms(awake),
        100.0 * asleep.as_secs_f64() / awake.as_secs_f64(),
        ms(rapier_asleep),
        asleep.as_secs_f64() / rapier_asleep.as_secs_f64(),
    );
}

criterion_group!(benches, bench_sleeping);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
