//! Scene queries: impact's `World` against rapier2d-f64 0.36's query pipeline on the same
//! 10,000 bodies, in the same process.
//!
//! # Scene
//! `impact_testkit::queries::query_field(10_000, SEED)`: circles, segments, capsules, boxes
//! (up to 40:1) and regular polygons 0.05 to 4 units across, at uniform positions and angles
//! over a square of side 300 centred on the origin. Every body is made static, with the
//! default collision filter and no sensor flag, so that both engines see the same solid
//! shapes (rapier2d's colliders carry no categories to mirror). impact: a
//! `World<RTreeBroadphase, Discrete>`, stepped three times (so its R-tree has been bulk
//! loaded, as in a running game). rapier2d: each body a standalone collider of the same
//! shape at the same pose (a ball at the circle's centre, a segment, a capsule from its end
//! points, a convex polyline of the polygon's vertices), its `BroadPhaseBvh` updated once
//! with every collider; queries through `broad_phase.as_query_pipeline` with the default
//! `QueryFilter`. Each index's construction is timed apart and printed, not counted in the
//! queries.
//!
//! # Queries (fixed seeds)
//! - **Short rays**: 4,096 rays (`random_ray`): origins uniform over the square grown by a
//!   tenth each way, directions uniform, lengths uniform in [10, 30] (about 3 to 10 body
//!   spacings). impact: `cast_ray` (solid), which gives the point and the normal; rapier2d:
//!   `cast_ray_and_get_normal` (solid, `max_toi` the length, unit direction).
//! - **Long rays**: the same with lengths uniform in [100, 300] (a third of the field to
//!   all of it).
//! - **Translating casts**: 2,048 casts (`random_cast`): a `random_shape` at a uniform point
//!   and angle, moved 3 to 30 units in a uniform direction. impact: `cast_shape` (target 0);
//!   rapier2d: `cast_shape` (`max_time_of_impact` 1, target 0, stopping at penetration).
//! - **Turning casts**: 1,024 sweeps (`random_sweep`): the same, turning about the centroid
//!   by up to two turns (70% of them; the rest by up to 0.3 rad). impact: `cast_sweep`
//!   (conservative advancement, tolerance 1e-9); rapier2d: `cast_shape_nonlinear` on the
//!   same motion (`NonlinearRigidMotion` with the velocities per unit time, times 0 to 1,
//!   stopping at penetration).
//!
//! The setup checks that both engines hit the same body for all but a few queries (ties,
//! grazes, and rotating casts where rapier2d misses), and prints the count.
//!
//! # Timing
//! Criterion times each batch per engine (throughput in queries). For the ratios, the bench
//! then times both engines back to back over the same batch, interleaved (the first engine
//! alternating), `ROUNDS` times, and prints the ratio of their fastest rounds (rapier2d's time
//! per query over impact's: above 1, impact is faster; the fastest round is the one least
//! disturbed by other work on the machine) with the median and range of the per-round
//! ratios.
//!
//! Run: `cargo bench --bench queries` (about three minutes on 2 busy cores);
//! `QUERIES_QUICK=1` skips criterion and prints only the interleaved ratios;
//! `QUERIES_PROFILE=1` runs each batch once per engine after the agreement check (which
//! builds every lazy index), in functions named `profile_impact_*` and `profile_rapier_*`,
//! for `valgrind --tool=callgrind --toggle-collect='queries::profile_*'` (see
//! `docs/benchmarks.md`).

use criterion::{Criterion, Throughput};
use impact_testkit::SplitMix64;
use impact_testkit::queries::{
    query_field, query_field_side, random_cast, random_ray, random_sweep,
};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::geometry::{Isometry, Real, Shape, Sweep, Vector};
use impact2d::narrowphase::ray::Ray;
use impact2d::solver::{BodyType, CollisionFilter};
use impact2d::stepper::{Discrete, Interior, QueryFilter, ShapeCastOptions, World};
use parry2d_f64::query::{NonlinearRigidMotion, ShapeCastOptions as PCastOptions};
use parry2d_f64::shape::{
    Ball, Capsule as PCapsule, ConvexPolygon as PPolygon, Segment as PSegment, Shape as PShape,
};
use rapier2d_f64::prelude as rp;
use std::hint::black_box;
use std::time::{Duration, Instant};

const BODIES: usize = 10_000;
const SEED: u64 = 7;
const ROUNDS: usize = 15;

type ImpactWorld = World<RTreeBroadphase, Discrete>;

fn pv(v: Vector) -> rp::Vector {
    rp::Vector::new(v.x, v.y)
}

fn ppose(iso: &Isometry) -> rp::Pose {
    rp::Pose::from_parts(
        rp::Vector::new(iso.translation.vector.x, iso.translation.vector.y),
        rp::Rotation {
            re: iso.rotation.re,
            im: iso.rotation.im,
        },
    )
}

/// Our shape as parry's, in the same body frame (a circle's centre is its body origin in
/// every generated cast shape).
fn parry_shape(shape: &Shape) -> Box<dyn PShape> {
    match shape {
        Shape::Circle(c) => {
            assert_eq!(c.center(), impact2d::geometry::Point::origin());
            Box::new(Ball::new(c.radius()))
        }
        Shape::Segment(s) => Box::new(PSegment::new(pv(s.a().coords), pv(s.b().coords))),
        // Not in the bench's field; parry's nearest is its plain segment.
        Shape::ChainSegment(s) => Box::new(PSegment::new(pv(s.a().coords), pv(s.b().coords))),
        Shape::Capsule(c) => Box::new(PCapsule::new(
            pv(c.axis().a().coords),
            pv(c.axis().b().coords),
            c.radius(),
        )),
        Shape::Polygon(p) => {
            let polygon = PPolygon::from_convex_polyline_unmodified(
                p.vertices().iter().map(|v| pv(v.coords)).collect(),
            )
            .expect("convex");
            if p.radius() > 0.0 {
                // A rounded polygon: parry's polygon with a border of the radius.
                Box::new(parry2d_f64::shape::RoundShape {
                    inner_shape: polygon,
                    border_radius: p.radius(),
                })
            } else {
                Box::new(polygon)
            }
        }
    }
}

/// One body as a rapier2d collider at its world pose.
fn collider(shape: &Shape, pose: &Isometry) -> rp::ColliderBuilder {
    let pose = ppose(pose);
    match shape {
        Shape::Circle(c) => {
            // A ball is centred on its collider's origin: put that at the circle's centre.
            let center = rp::Pose::from_translation(pv(c.center().coords));
            rp::ColliderBuilder::ball(c.radius()).position(pose * center)
        }
        Shape::Segment(s) => {
            rp::ColliderBuilder::segment(pv(s.a().coords), pv(s.b().coords)).position(pose)
        }
        // Not in the bench's field; rapier's nearest is its plain segment.
        Shape::ChainSegment(s) => {
            rp::ColliderBuilder::segment(pv(s.a().coords), pv(s.b().coords)).position(pose)
        }
        Shape::Capsule(c) => rp::ColliderBuilder::capsule_from_endpoints(
            pv(c.axis().a().coords),
            pv(c.axis().b().coords),
            c.radius(),
        )
        .position(pose),
        Shape::Polygon(p) => {
            let points = p.vertices().iter().map(|v| pv(v.coords)).collect();
            if p.radius() > 0.0 {
                rp::ColliderBuilder::round_convex_polyline(points, p.radius())
            } else {
                rp::ColliderBuilder::convex_polyline(points)
            }
            .expect("convex")
            .position(pose)
        }
    }
}

struct Rapier {
    world: rp::PhysicsWorld,
    /// Our body index of each collider, by collider index.
    bodies: Vec<u32>,
}

impl Rapier {
    fn query(&self) -> rp::QueryPipeline<'_> {
        self.world.query_pipeline()
    }

    fn body_of(&self, handle: rp::ColliderHandle) -> u32 {
        self.bodies[handle.into_raw_parts().0 as usize]
    }
}

struct Setup {
    impact: ImpactWorld,
    rapier: Rapier,
    short_rays: Vec<Ray>,
    long_rays: Vec<Ray>,
    casts: Vec<(Shape, Isometry, Vector)>,
    sweeps: Vec<(Shape, Sweep)>,
    parry_casts: Vec<Box<dyn PShape>>,
    parry_sweeps: Vec<Box<dyn PShape>>,
}

fn setup() -> Setup {
    let mut scene = query_field(BODIES, SEED);
    for def in &mut scene.bodies {
        def.body_type = BodyType::Static;
        def.linvel = Vector::zeros();
        def.angvel = 0.0;
        def.filter = CollisionFilter::default();
        def.sensor = false;
    }
    let start = Instant::now();
    let (mut impact, handles) = scene.build::<RTreeBroadphase, Discrete>().expect("valid");
    let built = start.elapsed();
    let start = Instant::now();
    for _ in 0..3 {
        impact.step(1.0 / 60.0).expect("valid step");
    }
    // The first query after the steps lists the bodies off their boxes (none here).
    let listed = impact.query_view().expect("unbounded").bodies().len();
    let stepped = start.elapsed();

    let mut world = rp::PhysicsWorld::default();
    let mut bodies = Vec::new();
    let mut modified = Vec::new();
    for (def, handle) in scene.bodies.iter().zip(&handles) {
        let h = world.colliders.insert(collider(&def.shape, &def.pose));
        assert_eq!(h.into_raw_parts().0 as usize, bodies.len());
        bodies.push(handle.index);
        modified.push(h);
    }
    let start = Instant::now();
    let mut events = Vec::new();
    world.broad_phase.update(
        &world.integration_parameters,
        &world.colliders,
        &world.bodies,
        &modified,
        &[],
        &mut events,
    );
    let bvh = start.elapsed();
    println!(
        "index: impact {listed} bodies created in {:.1} ms, three steps and the first query's \
         listing {:.1} ms; rapier2d BVH update over every collider {:.1} ms",
        built.as_secs_f64() * 1e3,
        stepped.as_secs_f64() * 1e3,
        bvh.as_secs_f64() * 1e3
    );

    let side = query_field_side(BODIES);
    let mut rng = SplitMix64::new(SEED ^ 0x9e37);
    let short_rays = (0..4096)
        .map(|_| random_ray(&mut rng, side, (10.0, 30.0)))
        .collect();
    let long_rays = (0..4096)
        .map(|_| random_ray(&mut rng, side, (100.0, 300.0)))
        .collect();
    let casts: Vec<_> = (0..2048)
        .map(|_| random_cast(&mut rng, side, (3.0, 30.0)))
        .collect();
    let sweeps: Vec<_> = (0..1024)
        .map(|_| random_sweep(&mut rng, side, (3.0, 30.0)))
        .collect();
    let parry_casts = casts.iter().map(|(s, _, _)| parry_shape(s)).collect();
    let parry_sweeps = sweeps.iter().map(|(s, _)| parry_shape(s)).collect();
    Setup {
        impact,
        rapier: Rapier { world, bodies },
        short_rays,
        long_rays,
        casts,
        sweeps,
        parry_casts,
        parry_sweeps,
    }
}

const ALL: QueryFilter<'static> = QueryFilter::new();

/// The body hit and the fraction of the query, by either engine.
type Found = Option<(u32, Real)>;

fn impact_ray(w: &ImpactWorld, ray: &Ray) -> Found {
    w.cast_ray(ray, Interior::Solid, &ALL)
        .expect("valid ray")
        .map(|h| (h.body.index, h.fraction))
}

fn rapier_ray(r: &Rapier, q: &rp::QueryPipeline<'_>, ray: &Ray) -> Found {
    let length = ray.translation.norm();
    let pray = rp::Ray::new(pv(ray.origin.coords), pv(ray.translation / length));
    q.cast_ray_and_get_normal(&pray, length, true)
        .map(|(h, i)| (r.body_of(h), i.time_of_impact / length))
}

fn impact_cast(w: &ImpactWorld, (shape, pose, translation): &(Shape, Isometry, Vector)) -> Found {
    w.cast_shape(shape, pose, translation, &ShapeCastOptions::default(), &ALL)
        .expect("valid cast")
        .map(|h| (h.body.index, h.fraction))
}

fn rapier_cast(
    r: &Rapier,
    q: &rp::QueryPipeline<'_>,
    (_, pose, translation): &(Shape, Isometry, Vector),
    shape: &dyn PShape,
) -> Found {
    let options = PCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };
    q.cast_shape(&ppose(pose), pv(*translation), shape, options)
        .map(|(h, hit)| (r.body_of(h), hit.time_of_impact))
}

fn impact_sweep(w: &ImpactWorld, (shape, sweep): &(Shape, Sweep)) -> Found {
    w.cast_sweep(shape, sweep, &ShapeCastOptions::default(), &ALL)
        .expect("valid cast")
        .map(|h| (h.body.index, h.fraction))
}

fn rapier_sweep(
    r: &Rapier,
    q: &rp::QueryPipeline<'_>,
    (_, sweep): &(Shape, Sweep),
    shape: &dyn PShape,
) -> Found {
    let motion = NonlinearRigidMotion::new(
        ppose(&sweep.start()),
        pv(sweep.local_center().coords),
        pv(sweep.displacement()),
        sweep.rotation_angle(),
    );
    q.cast_shape_nonlinear(&motion, shape, 0.0, 1.0, true)
        .map(|(h, hit)| (r.body_of(h), hit.time_of_impact))
}

/// How often the two engines agree, of `n` queries: both hit nothing, or both hit the same
/// body, or bodies hit at the same fraction to 1e-6 (a tie: casts that start overlapping
/// several bodies, or shapes that touch). Rotating casts are allowed more disagreement:
/// rapier2d's nonlinear cast misses some contacts (see the rotating time-of-impact bench).
fn agreement(
    label: &str,
    n: usize,
    ours: impl Fn(usize) -> Found,
    theirs: impl Fn(usize) -> Found,
) {
    let (mut same, mut hits, mut rapier_only, mut impact_only) = (0, 0, 0, 0);
    for i in 0..n {
        let (a, b) = (ours(i), theirs(i));
        let agree = match (a, b) {
            (None, None) => true,
            (Some((x, s)), Some((y, t))) => x == y || (s - t).abs() <= 1e-6,
            (Some(_), None) => {
                impact_only += 1;
                false
            }
            (None, Some(_)) => {
                rapier_only += 1;
                false
            }
        };
        same += usize::from(agree);
        hits += usize::from(a.is_some());
    }
    println!(
        "{label:<18} {hits:>5} of {n} hit; agree on {same} of {n} (hit by impact only \
         {impact_only}, by rapier2d only {rapier_only})"
    );
    assert!(
        same * 100 >= n * 97,
        "{label}: the engines disagree too often"
    );
}

/// Time per query of a batch, run once.
fn per_query(n: usize, mut run: impl FnMut()) -> Duration {
    let start = Instant::now();
    run();
    start.elapsed() / n as u32
}

struct Kind<'s> {
    label: &'static str,
    n: usize,
    ours: Box<dyn Fn() + 's>,
    theirs: Box<dyn Fn() + 's>,
}

fn kinds(s: &Setup) -> Vec<Kind<'_>> {
    let ours_rays = |rays: &'static str| -> Box<dyn Fn() + '_> {
        let rays = if rays == "short" {
            &s.short_rays
        } else {
            &s.long_rays
        };
        Box::new(move || {
            for ray in rays {
                black_box(impact_ray(&s.impact, ray));
            }
        })
    };
    let theirs_rays = |rays: &'static str| -> Box<dyn Fn() + '_> {
        let rays = if rays == "short" {
            &s.short_rays
        } else {
            &s.long_rays
        };
        Box::new(move || {
            let q = s.rapier.query();
            for ray in rays {
                black_box(rapier_ray(&s.rapier, &q, ray));
            }
        })
    };
    vec![
        Kind {
            label: "short rays",
            n: s.short_rays.len(),
            ours: ours_rays("short"),
            theirs: theirs_rays("short"),
        },
        Kind {
            label: "long rays",
            n: s.long_rays.len(),
            ours: ours_rays("long"),
            theirs: theirs_rays("long"),
        },
        Kind {
            label: "translating casts",
            n: s.casts.len(),
            ours: Box::new(|| {
                for c in &s.casts {
                    black_box(impact_cast(&s.impact, c));
                }
            }),
            theirs: Box::new(|| {
                let q = s.rapier.query();
                for (c, p) in s.casts.iter().zip(&s.parry_casts) {
                    black_box(rapier_cast(&s.rapier, &q, c, p.as_ref()));
                }
            }),
        },
        Kind {
            label: "turning casts",
            n: s.sweeps.len(),
            ours: Box::new(|| {
                for c in &s.sweeps {
                    black_box(impact_sweep(&s.impact, c));
                }
            }),
            theirs: Box::new(|| {
                let q = s.rapier.query();
                for (c, p) in s.sweeps.iter().zip(&s.parry_sweeps) {
                    black_box(rapier_sweep(&s.rapier, &q, c, p.as_ref()));
                }
            }),
        },
    ]
}

fn check_agreement(s: &Setup) {
    let q = s.rapier.query();
    let (w, r) = (&s.impact, &s.rapier);
    agreement(
        "short rays",
        s.short_rays.len(),
        |i| impact_ray(w, &s.short_rays[i]),
        |i| rapier_ray(r, &q, &s.short_rays[i]),
    );
    agreement(
        "long rays",
        s.long_rays.len(),
        |i| impact_ray(w, &s.long_rays[i]),
        |i| rapier_ray(r, &q, &s.long_rays[i]),
    );
    agreement(
        "translating casts",
        s.casts.len(),
        |i| impact_cast(w, &s.casts[i]),
        |i| rapier_cast(r, &q, &s.casts[i], s.parry_casts[i].as_ref()),
    );
    agreement(
        "turning casts",
        s.sweeps.len(),
        |i| impact_sweep(w, &s.sweeps[i]),
        |i| rapier_sweep(r, &q, &s.sweeps[i], s.parry_sweeps[i].as_ref()),
    );
}

/// One batch of one engine, once, under a name of its own for callgrind's
/// `--toggle-collect` (`QUERIES_PROFILE=1`): its inclusive cost over the batch's length is
/// the cost per query. Each returns how many queries hit; the constants keep the compiler
/// from folding the functions of equal bodies into one symbol.
macro_rules! profile_batch {
    ($name:ident, $tag:expr, |$s:ident| $body:expr) => {
        #[inline(never)]
        fn $name($s: &Setup) -> usize {
            let hits: usize = $body;
            hits + black_box($tag) - $tag
        }
    };
}

profile_batch!(profile_impact_short_rays, 0, |s| s
    .short_rays
    .iter()
    .filter(|r| black_box(impact_ray(&s.impact, r)).is_some())
    .count());
profile_batch!(profile_impact_long_rays, 1, |s| s
    .long_rays
    .iter()
    .filter(|r| black_box(impact_ray(&s.impact, r)).is_some())
    .count());
profile_batch!(profile_impact_casts, 2, |s| s
    .casts
    .iter()
    .filter(|c| black_box(impact_cast(&s.impact, c)).is_some())
    .count());
profile_batch!(profile_rapier_short_rays, 3, |s| {
    let q = s.rapier.query();
    s.short_rays
        .iter()
        .filter(|r| black_box(rapier_ray(&s.rapier, &q, r)).is_some())
        .count()
});
profile_batch!(profile_rapier_long_rays, 4, |s| {
    let q = s.rapier.query();
    s.long_rays
        .iter()
        .filter(|r| black_box(rapier_ray(&s.rapier, &q, r)).is_some())
        .count()
});
profile_batch!(profile_rapier_casts, 5, |s| {
    let q = s.rapier.query();
    (s.casts.iter().zip(&s.parry_casts))
        .filter(|(c, p)| black_box(rapier_cast(&s.rapier, &q, c, p.as_ref())).is_some())
        .count()
});

fn main() {
    let s = setup();
    check_agreement(&s);
    if std::env::var_os("QUERIES_PROFILE").is_some() {
        let hits = [
            profile_impact_short_rays(&s),
            profile_impact_long_rays(&s),
            profile_impact_casts(&s),
            profile_rapier_short_rays(&s),
            profile_rapier_long_rays(&s),
            profile_rapier_casts(&s),
        ];
        println!("profile: hits of each batch, impact then rapier2d: {hits:?}");
        return;
    }
    let kinds = kinds(&s);
    if std::env::var_os("QUERIES_QUICK").is_none() {
        let mut c = Criterion::default().configure_from_args();
        for k in &kinds {
            let mut group = c.benchmark_group(format!("queries/{}", k.label.replace(' ', "_")));
            group.throughput(Throughput::Elements(k.n as u64));
            group.sample_size(20);
            group.warm_up_time(Duration::from_secs(1));
            group.measurement_time(Duration::from_secs(5));
            group.bench_function("impact", |b| b.iter(|| (k.ours)()));
            group.bench_function("rapier2d", |b| b.iter(|| (k.theirs)()));
            group.finish();
        }
        c.final_summary();
    }
    println!("\nrapier2d's time per query / impact's, {ROUNDS} interleaved rounds:");
    for k in &kinds {
        let mut ratios = Vec::new();
        let (mut ours_ns, mut theirs_ns) = (Vec::new(), Vec::new());
        for round in 0..ROUNDS {
            // Alternate which engine goes first, so neither always runs on a warmer cache.
            let (ours, theirs) = if round % 2 == 0 {
                let ours = per_query(k.n, &k.ours);
                (ours, per_query(k.n, &k.theirs))
            } else {
                let theirs = per_query(k.n, &k.theirs);
                (per_query(k.n, &k.ours), theirs)
            };
            ours_ns.push(ours.as_nanos() as Real);
            theirs_ns.push(theirs.as_nanos() as Real);
            ratios.push(theirs.as_secs_f64() / ours.as_secs_f64());
        }
        let min = |v: &[Real]| v.iter().copied().fold(Real::INFINITY, Real::min);
        let max = |v: &[Real]| v.iter().copied().fold(0.0, Real::max);
        let mut sorted = ratios.clone();
        sorted.sort_by(Real::total_cmp);
        // The fastest round of each engine is the one least disturbed by other work on the
        // machine; the per-round ratios show the spread.
        println!(
            "queries-result\t{}\timpact {:.0} ns\trapier2d {:.0} ns\tratio of the fastest rounds {:.2}\t\
             per-round ratios: median {:.2}, range {:.2} to {:.2}",
            k.label,
            min(&ours_ns),
            min(&theirs_ns),
            min(&theirs_ns) / min(&ours_ns),
            sorted[sorted.len() / 2],
            min(&ratios),
            max(&ratios),
        );
    }
}
