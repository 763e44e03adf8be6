//! Bodies of several shapes, spinning, rained onto a hilly terrain: impact's CCD steppers
//! against rapier2d with CCD on every body, on the same scene, in the same process.
//!
//! Scene: `impact_testkit::scenes::compound_rain(n, SEED)` for n = 1,000: the rain's places
//! and launch velocities (100 to 300 units/s, within 14 degrees of straight down), each body
//! an L or a T of two bars, a U of three or an E of four (bars 0.04 thick, 0.12 long),
//! turned and spinning at up to 30 rad/s, onto a hilly terrain of segments 0.1 to 2 m long
//! between two tall walls. Gravity -10, restitution 0.1, friction 0.3, 60 Hz. impact gets the
//! terrain as one static chain body (one-sided segments facing up); rapier2d the same
//! terrain as a polyline collider, and each body
//! as a compound collider of the same bars, with `ccd_enabled(true)` and no sleeping.
//!
//! Two passes, as in `benches/rain.rs`:
//! 1. **Counting** (not timed by criterion): `COUNT_STEPS` steps (2 s) from the start; after
//!    every step, each body that lies wholly beneath the terrain or wholly outside a wall
//!    ([`Terrain::passed`], from its centre of mass and bounding radius) is counted once as
//!    *through*; the mean wall time per step.
//! 2. **Timing** (criterion): a window of `WINDOW_STEPS` steps from a world warmed for
//!    `WARM_STEPS` steps.
//!
//! `COMPOUND_RAIN_SIZES=200,1000` picks the sizes, `COMPOUND_RAIN_COUNT_ONLY=1` skips the
//! timing, `COMPOUND_RAIN_SEED=N` runs another seed. The last lines are machine-readable:
//! `compound-rain-result<TAB>key<TAB>bodies<TAB>steps<TAB>through<TAB>ms/step`.
//! `COMPOUND_RAIN_ENGINES=key,key` keeps only those engines (keys as in those lines), to
//! profile one.

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion};
use impact_testkit::scenes::{Scene, Terrain, compound_rain, compound_rain_terrain};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::geometry::{Point, Real, Shape};
use impact2d::solver::{BodyType, RigidBodyDef};
use impact2d::stepper::{FirstTimeOfImpact, MotionClamping, Stepper, World};
use rapier2d_f64::prelude as rp;
use std::time::{Duration, Instant};

const DT: Real = 1.0 / 60.0;
const SEED: u64 = 1;
const COUNT_STEPS: usize = 120;
const WARM_STEPS: usize = 30;
const WINDOW_STEPS: usize = 10;
const SIZES: [usize; 1] = [1_000];

/// One engine on the scene: build, step, and where each dynamic body's centre of mass is,
/// with the radius of the disc about it that holds the body.
trait Engine {
    fn build(scene: &Scene) -> Self;
    fn step(&mut self) -> Result<(), String>;
    fn centers(&self, out: &mut Vec<(Point, Real)>);
}

struct Impact<S: Stepper> {
    world: World<RTreeBroadphase, S>,
    bodies: Vec<impact2d::solver::BodyHandle>,
}

impl<S: Stepper + Default> Engine for Impact<S> {
    fn build(scene: &Scene) -> Self {
        let (world, handles) = scene
            .build::<RTreeBroadphase, S>()
            .expect("the scene is valid");
        let world = awake(world);
        let bodies = handles
            .into_iter()
            .filter(|&h| world.body(h).is_some_and(|b| b.is_dynamic()))
            .collect();
        Self { world, bodies }
    }

    fn step(&mut self) -> Result<(), String> {
        self.world.step(DT).map(|_| ()).map_err(|e| e.to_string())
    }

    fn centers(&self, out: &mut Vec<(Point, Real)>) {
        out.clear();
        out.extend(self.bodies.iter().map(|&h| {
            let body = self.world.body(h).expect("no body is removed");
            (
                body.center_of_mass(),
                body.bounding_radius(&body.local_center()),
            )
        }));
    }
}

struct Rapier {
    world: rp::PhysicsWorld,
    bodies: Vec<(rp::RigidBodyHandle, Real)>,
}

fn v(p: &Point) -> rp::Vector {
    rp::Vector::new(p.x, p.y)
}

/// One of impact's shapes as rapier's, in the body frame.
fn rapier_shape(shape: &Shape) -> rp::SharedShape {
    match shape {
        Shape::Polygon(p) => rp::SharedShape::convex_polyline(p.vertices().iter().map(v).collect())
            .expect("a convex polygon is a convex polyline"),
        Shape::Segment(s) => rp::SharedShape::segment(v(&s.a()), v(&s.b())),
        other => panic!("the compound rain has no {:?}", other.kind()),
    }
}

/// Every shape of `def`, with its first shape's material and density.
fn rapier_collider(def: &RigidBodyDef) -> rp::ColliderBuilder {
    let shapes: Vec<&Shape> = core::iter::once(&def.shape)
        .chain(def.shapes.iter().map(|s| &s.shape))
        .collect();
    let builder = if def.body_type == BodyType::Static && shapes.len() > 1 {
        // The terrain: one polyline through the segments' ends.
        let mut points: Vec<rp::Vector> = Vec::new();
        for s in &shapes {
            let Shape::ChainSegment(s) = s else {
                panic!("a static body of several shapes is the terrain's chain")
            };
            if points.is_empty() {
                points.push(v(&s.a()));
            }
            points.push(v(&s.b()));
        }
        rp::ColliderBuilder::polyline(points, None)
    } else if shapes.len() > 1 {
        rp::ColliderBuilder::compound(
            shapes
                .iter()
                .map(|s| (rp::Pose::IDENTITY, rapier_shape(s)))
                .collect(),
        )
    } else {
        rp::ColliderBuilder::new(rapier_shape(shapes[0]))
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
        let g = scene.settings.gravity;
        let mut world = rp::PhysicsWorld {
            gravity: rp::Vector::new(g.x, g.y),
            ..Default::default()
        };
        world.integration_parameters.dt = DT;
        let mut bodies = Vec::new();
        for def in &scene.bodies {
            let t = def.pose.translation.vector;
            let body = match def.body_type {
                BodyType::Dynamic => rp::RigidBodyBuilder::dynamic()
                    .ccd_enabled(true)
                    .can_sleep(false),
                _ => rp::RigidBodyBuilder::fixed(),
            }
            .translation(rp::Vector::new(t.x, t.y))
            .rotation(def.pose.rotation.angle())
            .linvel(rp::Vector::new(def.linvel.x, def.linvel.y))
            .angvel(def.angvel);
            let (handle, _) = world.insert(body, rapier_collider(def));
            if def.body_type == BodyType::Dynamic {
                let body = impact2d::solver::RigidBody::new(def.clone()).expect("valid");
                bodies.push((handle, body.bounding_radius(&body.local_center())));
            }
        }
        Self { world, bodies }
    }

    fn step(&mut self) -> Result<(), String> {
        self.world.step();
        Ok(())
    }

    fn centers(&self, out: &mut Vec<(Point, Real)>) {
        out.clear();
        out.extend(self.bodies.iter().map(|&(h, r)| {
            let c = self.world.bodies[h].center_of_mass();
            (Point::new(c.x, c.y), r)
        }));
    }
}

/// What the counting run of one engine saw: steps done, the failure if any, bodies through,
/// mean wall time per step.
struct Counted {
    steps: usize,
    failed: Option<String>,
    through: usize,
    per_step: Duration,
}

fn count<E: Engine>(scene: &Scene, terrain: &Terrain) -> Counted {
    let mut engine = E::build(scene);
    let mut centers = Vec::new();
    engine.centers(&mut centers);
    let mut through = vec![false; centers.len()];
    let mut counted = Counted {
        steps: 0,
        failed: None,
        through: 0,
        per_step: Duration::ZERO,
    };
    let mut stepping = Duration::ZERO;
    for _ in 0..COUNT_STEPS {
        let start = Instant::now();
        let result = engine.step();
        stepping += start.elapsed();
        if let Err(e) = result {
            counted.failed = Some(e);
            break;
        }
        counted.steps += 1;
        engine.centers(&mut centers);
        for (seen, (c, r)) in through.iter_mut().zip(&centers) {
            *seen |= !(c.x.is_finite() && c.y.is_finite()) || terrain.passed(c, *r);
        }
    }
    counted.through = through.iter().filter(|&&t| t).count();
    counted.per_step = stepping / counted.steps.max(1) as u32;
    counted
}

fn bench<E: Engine>(group: &mut BenchmarkGroup<'_, WallTime>, scene: &Scene, key: &str) {
    group.bench_function(key, |b| {
        b.iter_batched(
            || {
                let mut engine = E::build(scene);
                for _ in 0..WARM_STEPS {
                    engine
                        .step()
                        .expect("the counting run got past the warm-up");
                }
                engine
            },
            |mut engine| {
                for _ in 0..WINDOW_STEPS {
                    engine.step().expect("the counting run got past the window");
                }
                engine
            },
            BatchSize::PerIteration,
        );
    });
}

type Count = fn(&Scene, &Terrain) -> Counted;
type Bench = fn(&mut BenchmarkGroup<'_, WallTime>, &Scene, &str);

const ENGINES: [(&str, Count, Bench); 3] = [
    (
        "impact_motion_clamping",
        count::<Impact<MotionClamping>>,
        bench::<Impact<MotionClamping>>,
    ),
    (
        "impact_first_time_of_impact",
        count::<Impact<FirstTimeOfImpact>>,
        bench::<Impact<FirstTimeOfImpact>>,
    ),
    ("rapier2d_ccd", count::<Rapier>, bench::<Rapier>),
];

fn main() {
    let testing = std::env::args().any(|a| a == "--test" || a == "--list");
    let timing = std::env::var_os("COMPOUND_RAIN_COUNT_ONLY").is_none();
    let seed = std::env::var("COMPOUND_RAIN_SEED").ok().map_or(SEED, |s| {
        s.parse()
            .expect("COMPOUND_RAIN_SEED is an unsigned integer")
    });
    let sizes: Vec<usize> = std::env::var("COMPOUND_RAIN_SIZES")
        .ok()
        .map_or(SIZES.to_vec(), |s| {
            s.split(',')
                .map(|n| {
                    n.parse()
                        .expect("COMPOUND_RAIN_SIZES is a comma-separated list")
                })
                .collect()
        });
    let chosen = std::env::var("COMPOUND_RAIN_ENGINES").ok();
    let engines: Vec<&(&str, Count, Bench)> = ENGINES
        .iter()
        .filter(|(key, _, _)| {
            chosen
                .as_ref()
                .is_none_or(|keys| keys.split(',').any(|k| k == *key))
        })
        .collect();
    let mut criterion = Criterion::default().configure_from_args();
    let mut lines = Vec::new();
    for n in sizes {
        let scene = compound_rain(n, seed);
        let terrain = compound_rain_terrain(n, seed);
        if !testing {
            for &&(key, count, _) in &engines {
                eprintln!("counting compound_rain_{n}/{key}");
                let c = count(&scene, &terrain);
                lines.push(format!(
                    "compound-rain-result\t{key}\t{n}\t{}\t{}\t{:.4}\t{}",
                    c.steps,
                    c.through,
                    c.per_step.as_secs_f64() * 1e3,
                    c.failed.unwrap_or_default()
                ));
            }
        }
        if timing {
            let mut group = criterion.benchmark_group(format!("compound_rain_{n}"));
            group.sample_size(10);
            group.warm_up_time(Duration::from_secs(1));
            group.measurement_time(Duration::from_secs(3));
            for &&(key, _, bench) in &engines {
                bench(&mut group, &scene, key);
            }
            group.finish();
        }
    }
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
