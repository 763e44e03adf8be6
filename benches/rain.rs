//! A rain of fast discs onto a field of thin static segments: every impact stepper
//! against rapier2d with CCD on every body, on the same scene, in the same process.
//!
//! Scene: `impact_testkit::scenes::rain(n, SEED)` for n = 1,000 and 10,000: zero-thickness
//! static segments (a floor, two tall walls, six staggered rows of tilted segments with gaps)
//! and `n` discs of radius 0.05 launched down at 100 to 300 units/s (1.7 to 5 units per 60 Hz
//! step) within 14 degrees of vertical, from a column about 150 m tall, so the rain lasts from
//! the first step to about 1.7 s. Gravity -10, restitution 0.1 and friction 0.3 on every
//! body, 60 Hz. rapier2d gets the same bodies: each segment as a segment collider on a fixed
//! body, each disc as a ball collider of the same density on a dynamic body with
//! `ccd_enabled(true)`, with the combine rules set to impact's (geometric mean for friction,
//! maximum for restitution; with one material everywhere they agree with any rule anyway).
//!
//! Settings: impact's defaults (`World<RTreeBroadphase, S>`, soft step with 4 substeps, 1
//! velocity and 1 relax iteration each); rapier2d's defaults (`IntegrationParameters::default()`,
//! `max_ccd_substeps` 1, single-threaded), except that bodies cannot sleep, as in the pyramid
//! bench (and impact's world has sleeping off).
//!
//! Two passes per size, in this order:
//! 1. **Counting** (not timed by criterion): each engine runs `COUNT_STEPS` steps (2 s) from
//!    the start, its disc positions read after every step into
//!    `impact_testkit::scenes::TunnelCounter` (whose docs define "tunnelled"; impact's
//!    engines also give it, through a `CourseRecorder` hook and the courses the stepper
//!    recorded (`World::record_courses`), where each disc turned inside the step, so a disc
//!    that FirstTimeOfImpact knocked about mid-step is judged on its actual path, leg by leg,
//!    rather than on an estimate of its length, and a body moved with a rigid group on the
//!    arc it took about the group's centre) and
//!    `impact_testkit::scenes::CrossingCounter` (pairs of discs through each other: on their
//!    chords for rapier2d and `Discrete`; for impact's CCD steppers, on their paths in time,
//!    from the recorder's turns with their fractions and the steppers' stops; a pair with a
//!    disc that turned inside the step without a recorded turn is counted apart as *bent*),
//!    the bodies *hung* in mid-air at the end (`HungCounter`: above the field and not moved
//!    at all for its last five steps: stopped step after step), the largest disc speed seen
//!    (from positions: displacement over a step / dt, so an explosion shows whatever the
//!    engine) and the wall time of its steps. A step that fails (an impact body went
//!    non-finite), or after which a disc moved faster than `EXPLODED_SPEED`, ends the run
//!    and is reported with its step (from 0).
//! 2. **Timing** (criterion): one iteration is a window of `WINDOW_STEPS` steps from a world
//!    built and warmed for `WARM_STEPS` steps outside the timing (0.5 s: discs are hitting
//!    the rows and the floor, and the rain is still coming). Every engine times the same
//!    window of simulated time from the same scene, so the per-step times (criterion's time
//!    over `WINDOW_STEPS`) are comparable even though the scene changes from step to step.
//!    An engine whose counting run failed before the end of the window is not timed.
//!
//! The bench prints a table and one tab-separated `rain-result` line per engine and size,
//! which `scripts/rain-bench-report` joins with criterion's estimates into a markdown table.
//! `RAIN_COUNT_ONLY=1` skips the timing pass; `RAIN_SEED=N` runs another seed of the scene
//! (tunnel counts of a few in ten thousand move from seed to seed); `RAIN_SCENE=tumbling` runs
//! `scenes::tumbling_rain` instead, bodies of four shapes that turn (rapier2d gets each
//! polygon as a convex polyline and each capsule as a capsule; `CrossingCounter` judges discs
//! only, so its counts are zero there); `RAIN_ENGINES=key,key`
//! keeps only those engines (keys as in the `rain-result` lines); `RAIN_SIZES=1000` runs only
//! those disc counts.
//!
//! Run: `cargo bench --bench rain` (about 6 minutes on 2 busy cores), or
//! `scripts/rain-bench-report` for the markdown table of `docs/benchmarks.md`.

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion};
use impact_testkit::scenes::{
    self, CourseRecorder, CrossingCounter, HungCounter, Scene, TunnelCounter,
};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::geometry::{Point, Real, Shape, Vector};
use impact2d::solver::{BodyType, RigidBodyDef};
use impact2d::stepper::{
    ClampReport, ClampedBody, Discrete, DiscreteReport, FirstToiReport, MotionClamping, Stepper,
    World,
};
use rapier2d_f64::prelude as rp;
use std::time::{Duration, Instant};

const DT: Real = 1.0 / 60.0;
const SIZES: [usize; 2] = [1_000, 10_000];
/// The scene's seed: the one every figure of `docs/benchmarks.md` uses.
const SEED: u64 = 6;
/// Steps run before a timed window, outside the timing.
const WARM_STEPS: usize = 30;
/// Steps in one timed window (one criterion iteration).
const WINDOW_STEPS: usize = 20;
/// Steps of the counting run: 2 s of simulated time.
const COUNT_STEPS: usize = 120;
/// A disc faster than this (units per second; ten times the fastest launch) means the
/// simulation exploded: the run stops there, before the swept boxes of runaway bodies make
/// every pair a candidate and the process runs out of memory.
const EXPLODED_SPEED: Real = 10.0 * scenes::RAIN_MAX_SPEED;

/// One engine running a scene at 60 Hz.
trait Engine: Sized {
    /// The scene's bodies, in the scene's order, with their launch velocities.
    fn build(scene: &Scene) -> Self;
    /// One step of `DT`; an error ends the run.
    fn step(&mut self) -> Result<(), String>;
    /// One step of the counting run: [`Engine::step`], recording [`Engine::turns`] if the
    /// engine can.
    fn step_counted(&mut self) -> Result<(), String> {
        self.step()
    }
    /// Where discs changed course inside the last counted step, `(disc, position)` in time
    /// order (see `TunnelCounter::observe_moving_via`); nothing for an engine whose discs
    /// move on straight lines within a step.
    fn turns(&self) -> &[(usize, Point)] {
        &[]
    }
    /// The fraction of the step of each of [`Engine::turns`], for an engine whose discs move
    /// at constant velocity between them (its discs are then judged on their paths in time,
    /// `CrossingCounter::observe_timed`); `None` otherwise.
    fn fractions(&self) -> Option<&[Real]> {
        None
    }
    /// The positions of the dynamic bodies (body origins), in the scene's order.
    fn positions(&self, out: &mut Vec<Point>);
    /// The linear velocities of the dynamic bodies, in the scene's order.
    fn velocities(&self, out: &mut Vec<Vector>);
}

/// impact's world, with the recorder of where its discs turn inside a counted step.
struct Impact<S: Stepper> {
    world: World<RTreeBroadphase, S>,
    recorder: CourseRecorder,
}

/// The bodies a stepper's report says stopped short of the end of the step, and when: where
/// their paths bent without an impact to say so.
trait Stops {
    fn stops(&self) -> &[ClampedBody];
}

impl Stops for DiscreteReport {
    fn stops(&self) -> &[ClampedBody] {
        &[]
    }
}

impl Stops for ClampReport {
    fn stops(&self) -> &[ClampedBody] {
        &self.clamped
    }
}

impl Stops for FirstToiReport {
    fn stops(&self) -> &[ClampedBody] {
        &self.stopped
    }
}

impl<S: Stepper + Default> Engine for Impact<S>
where
    S::Report: Stops,
{
    fn build(scene: &Scene) -> Self {
        let world = awake(scene.build::<RTreeBroadphase, S>().expect("valid scene").0);
        let recorder = CourseRecorder::new(&world);
        Self { world, recorder }
    }

    fn step(&mut self) -> Result<(), String> {
        self.world.step(DT).map(drop).map_err(|e| e.to_string())
    }

    fn step_counted(&mut self) -> Result<(), String> {
        self.recorder.clear();
        // The courses of the bodies that did not move straight, which the counters judge
        // (the timed steps record none).
        self.world.record_courses(true);
        let report = self
            .world
            .step_with(DT, &mut self.recorder)
            .map_err(|e| e.to_string())?;
        self.recorder
            .note_stops(report.stepper.stops(), &self.world);
        self.recorder.note_courses(&self.world, DT);
        Ok(())
    }

    fn turns(&self) -> &[(usize, Point)] {
        self.recorder.turns()
    }

    fn fractions(&self) -> Option<&[Real]> {
        Some(self.recorder.fractions())
    }

    fn positions(&self, out: &mut Vec<Point>) {
        out.clear();
        out.extend(
            self.world
                .bodies()
                .filter(|(_, b)| b.is_dynamic())
                .map(|(_, b)| Point::from(b.pose().translation.vector)),
        );
    }

    fn velocities(&self, out: &mut Vec<Vector>) {
        out.clear();
        out.extend(
            self.world
                .bodies()
                .filter(|(_, b)| b.is_dynamic())
                .map(|(_, b)| b.linvel()),
        );
    }
}

struct Rapier {
    world: rp::PhysicsWorld,
    discs: Vec<rp::RigidBodyHandle>,
}

fn rapier_vector(x: Real, y: Real) -> rp::Vector {
    rp::Vector::new(x, y)
}

/// The body of `def` in rapier: a fixed body, or a dynamic one with CCD on that cannot sleep.
fn rapier_body(def: &RigidBodyDef) -> rp::RigidBodyBuilder {
    let builder = match def.body_type {
        BodyType::Dynamic => rp::RigidBodyBuilder::dynamic()
            .ccd_enabled(true)
            .can_sleep(false),
        BodyType::Static => rp::RigidBodyBuilder::fixed(),
        BodyType::Kinematic => panic!("the rain has no kinematic bodies"),
    };
    let t = def.pose.translation.vector;
    builder
        .translation(rapier_vector(t.x, t.y))
        .rotation(def.pose.rotation.angle())
        .linvel(rapier_vector(def.linvel.x, def.linvel.y))
        .angvel(def.angvel)
}

fn rapier_collider(def: &RigidBodyDef) -> rp::ColliderBuilder {
    let builder = match &def.shape {
        Shape::Circle(c) => {
            assert_eq!(
                c.center(),
                Point::origin(),
                "discs are centred on their body"
            );
            rp::ColliderBuilder::ball(c.radius())
        }
        Shape::Segment(s) => rp::ColliderBuilder::segment(
            rapier_vector(s.a().x, s.a().y),
            rapier_vector(s.b().x, s.b().y),
        ),
        // Not in the rain; rapier's nearest is its plain segment.
        Shape::ChainSegment(s) => rp::ColliderBuilder::segment(
            rapier_vector(s.a().x, s.a().y),
            rapier_vector(s.b().x, s.b().y),
        ),
        // The tumbling rain's bodies (`RAIN_SCENE=tumbling`), vertex for vertex.
        Shape::Polygon(p) => {
            let points = p
                .vertices()
                .iter()
                .map(|v| rapier_vector(v.x, v.y))
                .collect();
            if p.radius() > 0.0 {
                rp::ColliderBuilder::round_convex_polyline(points, p.radius())
            } else {
                rp::ColliderBuilder::convex_polyline(points)
            }
            .expect("a convex polygon is a convex polyline")
        }
        Shape::Capsule(c) => {
            let (a, b) = (c.axis().a(), c.axis().b());
            rp::ColliderBuilder::capsule_from_endpoints(
                rapier_vector(a.x, a.y),
                rapier_vector(b.x, b.y),
                c.radius(),
            )
        }
    };
    builder
        .density(def.density)
        .friction(def.friction)
        .restitution(def.restitution)
        .friction_combine_rule(rp::CoefficientCombineRule::GeometricMean)
        .restitution_combine_rule(rp::CoefficientCombineRule::Max)
}

impl Engine for Rapier {
    fn build(scene: &Scene) -> Self {
        let gravity = scene.settings.gravity;
        let mut world = rp::PhysicsWorld {
            gravity: rapier_vector(gravity.x, gravity.y),
            ..Default::default()
        };
        world.integration_parameters.dt = DT;
        let mut discs = Vec::new();
        for def in &scene.bodies {
            let (handle, _) = world.insert(rapier_body(def), rapier_collider(def));
            if def.body_type == BodyType::Dynamic {
                discs.push(handle);
            }
        }
        Self { world, discs }
    }

    fn step(&mut self) -> Result<(), String> {
        self.world.step();
        Ok(())
    }

    fn positions(&self, out: &mut Vec<Point>) {
        out.clear();
        out.extend(self.discs.iter().map(|h| {
            let t = self.world.bodies[*h].translation();
            Point::new(t.x, t.y)
        }));
    }

    fn velocities(&self, out: &mut Vec<Vector>) {
        out.clear();
        out.extend(self.discs.iter().map(|h| {
            let v = self.world.bodies[*h].linvel();
            Vector::new(v.x, v.y)
        }));
    }
}

/// What the counting run of one engine saw.
struct Counted {
    /// Steps completed.
    steps: usize,
    /// The step (from 0) that failed, and why.
    failed: Option<(usize, String)>,
    tunnelled: usize,
    /// Of `tunnelled`, those that left the box or went non-finite.
    escaped: usize,
    /// Pairs of discs through each other on straight paths (`CrossingCounter::crossings`).
    crossings: usize,
    /// Pairs that looked crossed but had a disc turn inside the step (`CrossingCounter::bent`).
    bent: usize,
    /// Bodies hung in mid-air at the end of the run (`HungCounter`, above the bottom of the
    /// rain's column: nothing holds a falling body up there).
    hung: usize,
    /// The largest disc speed seen (units per second), from displacements.
    max_speed: Real,
    /// Mean wall time of the completed steps.
    per_step: Duration,
}

fn count<E: Engine>(scene: &Scene) -> Counted {
    let mut engine = E::build(scene);
    let mut counter = TunnelCounter::new(scene);
    let mut crossings = CrossingCounter::new(scene);
    let (mut before, mut now, mut velocities) = (Vec::new(), Vec::new(), Vec::new());
    engine.positions(&mut before);
    let mut counted = Counted {
        steps: 0,
        failed: None,
        tunnelled: 0,
        escaped: 0,
        crossings: 0,
        bent: 0,
        hung: 0,
        max_speed: 0.0,
        per_step: Duration::ZERO,
    };
    let mut hung = HungCounter::new(scene, scenes::rain_field(0).column_bottom());
    let mut stepping = Duration::ZERO;
    for step in 0..COUNT_STEPS {
        let start = Instant::now();
        let result = engine.step_counted();
        stepping += start.elapsed();
        if let Err(e) = result {
            counted.failed = Some((step, e));
            break;
        }
        counted.steps += 1;
        engine.positions(&mut now);
        engine.velocities(&mut velocities);
        counter.observe_moving_via(&now, &velocities, DT, engine.turns());
        match engine.fractions() {
            Some(fractions) => crossings.observe_timed(&now, engine.turns(), fractions),
            None => crossings.observe(&now, engine.turns()),
        };
        hung.observe(&now);
        for (p0, p1) in before.iter().zip(&now) {
            let speed = (p1 - p0).norm() / DT;
            // A non-finite position is an explosion too.
            counted.max_speed = if speed.is_finite() {
                counted.max_speed.max(speed)
            } else {
                Real::INFINITY
            };
        }
        core::mem::swap(&mut before, &mut now);
        if counted.max_speed > EXPLODED_SPEED {
            counted.failed = Some((
                step,
                format!(
                    "exploded: a disc moved at {:.3e} units/s",
                    counted.max_speed
                ),
            ));
            break;
        }
    }
    counted.tunnelled = counter.tunnelled();
    counted.escaped = counter.escaped();
    counted.crossings = crossings.crossings();
    counted.bent = crossings.bent();
    counted.hung = hung.hung();
    counted.per_step = stepping / counted.steps.max(1) as u32;
    counted
}

/// A world of `scene` after `WARM_STEPS` steps.
fn warmed<E: Engine>(scene: &Scene) -> E {
    let mut engine = E::build(scene);
    for _ in 0..WARM_STEPS {
        engine
            .step()
            .expect("the counting run got past the warm-up");
    }
    engine
}

fn bench<E: Engine>(group: &mut BenchmarkGroup<'_, WallTime>, scene: &Scene, key: &str) {
    group.bench_function(key, |b| {
        b.iter_batched(
            || warmed::<E>(scene),
            |mut engine| {
                for _ in 0..WINDOW_STEPS {
                    engine.step().expect("the counting run got past the window");
                }
                // Returned so that dropping the world is not timed.
                engine
            },
            BatchSize::PerIteration,
        );
    });
}

/// One engine of the bench: a criterion id, a name for tables, and its two passes.
struct Entry {
    key: &'static str,
    name: &'static str,
    count: fn(&Scene) -> Counted,
    bench: fn(&mut BenchmarkGroup<'_, WallTime>, &Scene, &str),
}

const fn entry<E: Engine>(key: &'static str, name: &'static str) -> Entry {
    Entry {
        key,
        name,
        count: count::<E>,
        bench: bench::<E>,
    }
}

/// Every engine, in table order. A new stepper is one line here.
const ENGINES: &[Entry] = &[
    entry::<Impact<Discrete>>("impact_discrete", "impact Discrete"),
    entry::<Impact<MotionClamping>>("impact_motion_clamping", "impact MotionClamping"),
    entry::<Impact<impact2d::stepper::FirstTimeOfImpact>>(
        "impact_first_time_of_impact",
        "impact FirstTimeOfImpact",
    ),
    entry::<Rapier>("rapier2d_ccd", "rapier2d, CCD on"),
];

fn main() {
    // `cargo test --benches` runs each criterion bench once; the counting pass is minutes of
    // debug-build stepping and is not a test.
    let testing = std::env::args().any(|a| a == "--test" || a == "--list");
    let timing = std::env::var_os("RAIN_COUNT_ONLY").is_none();
    let seed = std::env::var("RAIN_SEED")
        .ok()
        .map(|s| s.parse::<u64>().expect("RAIN_SEED is an unsigned integer"))
        .unwrap_or(SEED);
    let tumbling = match std::env::var("RAIN_SCENE").as_deref() {
        Ok("tumbling") => true,
        Ok("discs") | Err(_) => false,
        Ok(other) => panic!("RAIN_SCENE is discs or tumbling, not {other}"),
    };
    let chosen = std::env::var("RAIN_ENGINES").ok();
    let engines: Vec<&Entry> = ENGINES
        .iter()
        .filter(|e| {
            chosen
                .as_ref()
                .is_none_or(|keys| keys.split(',').any(|k| k == e.key))
        })
        .collect();
    let sizes: Vec<usize> = std::env::var("RAIN_SIZES")
        .ok()
        .map_or(SIZES.to_vec(), |s| {
            s.split(',')
                .map(|n| {
                    n.parse()
                        .expect("RAIN_SIZES is a comma-separated list of disc counts")
                })
                .collect()
        });
    let mut criterion = Criterion::default().configure_from_args();
    let mut lines = Vec::new();
    for n in sizes {
        let scene = if tumbling {
            scenes::tumbling_rain(n, seed)
        } else {
            scenes::rain(n, seed)
        };
        let counted: Vec<Counted> = if testing {
            Vec::new()
        } else {
            engines
                .iter()
                .map(|e| {
                    eprintln!("counting rain_{n}/{}", e.key);
                    (e.count)(&scene)
                })
                .collect()
        };
        if timing {
            let mut group = criterion.benchmark_group(format!("rain_{n}"));
            group.sample_size(10);
            group.warm_up_time(Duration::from_secs(1));
            group.measurement_time(Duration::from_secs(if n >= 10_000 { 10 } else { 3 }));
            for (i, e) in engines.iter().enumerate() {
                // Deterministic engines: a run that got past the window in the counting pass
                // gets past it in every timed iteration.
                let viable = counted.get(i).is_none_or(|c| {
                    c.failed
                        .as_ref()
                        .is_none_or(|(step, _)| *step >= WARM_STEPS + WINDOW_STEPS)
                });
                if viable {
                    (e.bench)(&mut group, &scene, e.key);
                } else {
                    println!("rain_{n}/{}: not timed, its counting run failed", e.key);
                }
            }
            group.finish();
        }
        for (e, c) in engines.iter().zip(&counted) {
            let (failed_step, error) = c
                .failed
                .as_ref()
                .map_or((String::new(), String::new()), |(s, e)| {
                    (s.to_string(), e.clone())
                });
            lines.push(format!(
                "rain-result\t{}\t{}\t{n}\t{}\t{}\t{}\t{failed_step}\t{error}\t{:.1}\t{:.4}\t{}\t{}\t{}",
                e.key,
                e.name,
                c.steps,
                c.tunnelled,
                c.escaped,
                c.max_speed,
                c.per_step.as_secs_f64() * 1e3,
                c.crossings,
                c.bent,
                c.hung,
            ));
        }
    }
    if testing {
        criterion.final_summary();
        return;
    }
    println!("\nrain of fast discs, {COUNT_STEPS} steps (2 s) from the start, seed {seed}:");
    println!(
        "{:<26} {:>6} {:>6} {:>10} {:>8} {:>10} {:>6} {:>5} {:>16} {:>9}  failure",
        "engine",
        "discs",
        "steps",
        "tunnelled",
        "escaped",
        "crossings",
        "bent",
        "hung",
        "max speed (u/s)",
        "ms/step"
    );
    for line in &lines {
        let f: Vec<&str> = line.split('\t').collect();
        let failure = if f[7].is_empty() {
            String::new()
        } else {
            format!("step {}: {}", f[7], f[8])
        };
        println!(
            "{:<26} {:>6} {:>6} {:>10} {:>8} {:>10} {:>6} {:>5} {:>16} {:>9}  {failure}",
            f[2], f[3], f[4], f[5], f[6], f[11], f[12], f[13], f[9], f[10]
        );
    }
    println!("\nrain-window-steps\t{WINDOW_STEPS}");
    for line in &lines {
        println!("{line}");
    }
    criterion.final_summary();
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
