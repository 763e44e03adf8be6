//! Box2D's benchmark "joint grid": impact against rapier2d on the same scene, in the same
//! process (Box2D v3 itself is measured in `peers/box2d`, apart, so that its C build stays out
//! of the workspace's tests).
//!
//! Scene: `impact_testkit::scenes::joint_grid(100)`: 10,000 circles of radius 0.4 a unit
//! apart, 19,800 revolute joints to the neighbours above and on the left, the top row's 7
//! middle bodies static, nothing colliding (category 2, mask without 2), gravity -10, 60 Hz,
//! 4 substeps. impact runs its defaults (joints at 60 Hz, damping ratio 2, warm-started, as
//! Box2D); rapier2d its defaults (`IntegrationParameters::default()`, single-threaded,
//! impulse joints, no sleeping, collision groups that keep every pair apart). Each engine
//! first runs `SETTLE_STEPS` steps (the grid falls and swings), then criterion measures one
//! step at a time, and a back-to-back run of `TIMED_STEPS` gives the ratio. The summary also
//! prints each engine's largest joint stretch (anchor separation) at the end.
//!
//! Run: `cargo bench --bench joint_grid` (about a minute); `JOINT_GRID_N=30` runs a smaller
//! grid. `JOINT_GRID_COUNT_ONLY=N` skips the timing and rapier2d: it settles impact's grid
//! under `Discrete` (`JOINT_GRID_STEPPER=toi`: `FirstTimeOfImpact`) and steps it `N` more
//! times in `counted_steps`, for `valgrind --tool=callgrind --collect-atstart=no
//! --toggle-collect='*counted_steps*'`.

use criterion::{Criterion, criterion_group};
use impact_testkit::scenes::{JointedScene, joint_grid};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::geometry::Real;
use impact2d::solver::BodyType;
use impact2d::stepper::{Discrete, FirstTimeOfImpact, Stepper, World};
use rapier2d_f64::prelude as rp;
use std::hint::black_box;
use std::time::{Duration, Instant};

const DT: Real = 1.0 / 60.0;
const SETTLE_STEPS: usize = 60;
const TIMED_STEPS: usize = 60;

struct Rapier {
    world: rp::PhysicsWorld,
    bodies: Vec<rp::RigidBodyHandle>,
}

impl Rapier {
    fn new(grid: &JointedScene) -> Self {
        let mut world = rp::PhysicsWorld {
            gravity: rp::Vector::new(0.0, -10.0),
            ..Default::default()
        };
        world.integration_parameters.dt = DT;
        let groups = rp::InteractionGroups::new(
            rp::Group::GROUP_2,
            !rp::Group::GROUP_2,
            rp::InteractionTestMode::And,
        );
        let mut bodies = Vec::new();
        for def in &grid.scene.bodies {
            let t = def.pose.translation.vector;
            let body = if def.body_type == BodyType::Dynamic {
                rp::RigidBodyBuilder::dynamic().can_sleep(false)
            } else {
                rp::RigidBodyBuilder::fixed()
            }
            .translation(rp::Vector::new(t.x, t.y));
            let collider = rp::ColliderBuilder::ball(def.shape.radius())
                .density(def.density)
                .collision_groups(groups);
            bodies.push(world.insert(body, collider).0);
        }
        for j in &grid.joints {
            let [a, b] = j.local_anchors;
            let joint = rp::RevoluteJointBuilder::new()
                .local_anchor1(rp::Vector::new(a.x, a.y))
                .local_anchor2(rp::Vector::new(b.x, b.y));
            world.insert_impulse_joint(bodies[j.bodies[0]], bodies[j.bodies[1]], joint);
        }
        Self { world, bodies }
    }

    /// The largest anchor separation of any joint.
    fn stretch(&self, grid: &JointedScene) -> Real {
        let anchor = |i: usize, p: &impact2d::geometry::Point| {
            let body = &self.world.bodies[self.bodies[i]];
            let q = body.position() * rp::Vector::new(p.x, p.y);
            (q.x, q.y)
        };
        grid.joints
            .iter()
            .map(|j| {
                let (ax, ay) = anchor(j.bodies[0], &j.local_anchors[0]);
                let (bx, by) = anchor(j.bodies[1], &j.local_anchors[1]);
                (ax - bx).hypot(ay - by)
            })
            .fold(0.0, Real::max)
    }
}

fn time_steps(steps: usize, mut step: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..steps {
        step();
    }
    start.elapsed() / steps as u32
}

fn settled<S: Stepper + Default>(grid: &JointedScene) -> World<RTreeBroadphase, S> {
    let (world, _, _) = grid.build::<RTreeBroadphase, S>().expect("valid scene");
    let mut world = awake(world);
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
    let mut rapier = Rapier::new(&grid);
    for _ in 0..SETTLE_STEPS {
        rapier.world.step();
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
    group.finish();

    let t_discrete = time_steps(TIMED_STEPS, || {
        black_box(discrete.step(DT).expect("valid step"));
    });
    let t_toi = time_steps(TIMED_STEPS, || {
        black_box(toi.step(DT).expect("valid step"));
    });
    let t_rapier = time_steps(TIMED_STEPS, || rapier.world.step());
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "\n{} ({} bodies, {} joints), per step: impact Discrete {:.2} ms, FirstTimeOfImpact \
         {:.2} ms, rapier2d {:.2} ms; ratios {:.2} and {:.2}; largest joint stretch: impact \
         {:.2e}, rapier2d {:.2e}",
        grid.scene.name,
        grid.scene.bodies.len(),
        grid.joints.len(),
        ms(t_discrete),
        ms(t_toi),
        ms(t_rapier),
        ms(t_discrete) / ms(t_rapier),
        ms(t_toi) / ms(t_rapier),
        toi.largest_joint_separation().linear,
        rapier.stretch(&grid),
    );
}

criterion_group!(benches, bench_joint_grid);

/// `steps` steps of `world`, in a function of its own so that callgrind can count them alone.
#[inline(never)]
fn counted_steps<S: Stepper>(world: &mut World<RTreeBroadphase, S>, steps: usize) {
    for _ in 0..steps {
        black_box(world.step(DT).expect("valid step"));
    }
}

fn main() {
    if let Some(steps) = std::env::var("JOINT_GRID_COUNT_ONLY")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        // The counting run: impact alone, settled, then `steps` counted steps; the state's
        // hash lets runs be compared.
        let grid = joint_grid(100);
        match std::env::var("JOINT_GRID_STEPPER").as_deref() {
            Ok("toi") => count::<FirstTimeOfImpact>(&grid, steps),
            _ => count::<Discrete>(&grid, steps),
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}

/// The counting run of `grid` under the stepper `S`: settled, then `steps` counted steps,
/// printing the time a step and the bodies' state hash.
fn count<S: Stepper + Default>(grid: &JointedScene, steps: usize) {
    let mut world = settled::<S>(grid);
    let start = Instant::now();
    counted_steps(&mut world, steps);
    let ms = start.elapsed().as_secs_f64() * 1e3 / steps.max(1) as f64;
    println!(
        "{} ({}): {steps} counted steps after {SETTLE_STEPS}, {ms:.3} ms a step, state hash \
         {:016x}",
        grid.scene.name,
        std::any::type_name::<S>(),
        world.body_set().state_hash()
    );
}

/// `world` with sleeping off: rapier2d's bodies here cannot sleep either, so both engines
/// time the same awake physics (the sleeping bench times sleep).
fn awake<S: Stepper>(mut world: World<RTreeBroadphase, S>) -> World<RTreeBroadphase, S> {
    let settings = impact2d::stepper::WorldSettings {
        sleeping: false,
        ..*world.settings()
    };
    world.set_settings(settings).expect("valid settings");
    world
}
