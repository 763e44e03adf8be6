//! Time of impact of translating shapes: impact's closed forms against parry2d-f64's
//! `cast_shapes`, on the same precomputed scenes in the same run.
//!
//! Every benchmark runs a batch of 1,024 prepared queries per iteration (about half of them
//! hits), so criterion's time per iteration divided by 1,024 is the cost of one query.
//! `scripts/bench-report` runs this bench and writes the table of `docs/benchmarks.md`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use impact_testkit::SplitMix64 as Rng;
use impact2d::geometry::{
    Capsule, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Sweep, Vector,
};
use impact2d::narrowphase::{ToiOptions, time_of_impact};
use parry2d_f64::math::{Pose as PPose, Vector as PVector};
use parry2d_f64::query::{ShapeCastOptions, cast_shapes};
use parry2d_f64::shape::{
    Ball as PBall, Capsule as PCapsule, ConvexPolygon as PPolygon, Segment as PSegment,
    Shape as PShape,
};
use std::hint::black_box;
use std::time::Duration;

/// Queries per benchmark iteration.
const BATCH: usize = 1024;

/// A point in the square of half side `half`, from the seeded generator (`Rng`, the test
/// kit's SplitMix64), so every run measures the same scenes.
trait Draws {
    fn point(&mut self, half: Real) -> Point;
}

impl Draws for Rng {
    fn point(&mut self, half: Real) -> Point {
        Point::new(self.range(-half, half), self.range(-half, half))
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Circle,
    Segment,
    Capsule,
    /// A rectangle.
    Box,
    /// A regular hexagon.
    Hexagon,
}

fn pv(v: Vector) -> PVector {
    PVector::new(v.x, v.y)
}

/// The same shape in both libraries.
fn make_shape(kind: Kind, rng: &mut Rng) -> (Shape, Box<dyn PShape>) {
    match kind {
        Kind::Circle => {
            let r = rng.range(0.2, 1.0);
            (Circle::new(r).unwrap().into(), Box::new(PBall::new(r)))
        }
        Kind::Segment => {
            let (a, b) = (rng.point(1.0), rng.point(1.0));
            (
                Segment::new(a, b).unwrap().into(),
                Box::new(PSegment::new(pv(a.coords), pv(b.coords))),
            )
        }
        Kind::Capsule => {
            let (a, b) = (rng.point(0.8), rng.point(0.8));
            let r = rng.range(0.1, 0.5);
            (
                Capsule::new(a, b, r).unwrap().into(),
                Box::new(PCapsule::new(pv(a.coords), pv(b.coords), r)),
            )
        }
        Kind::Box | Kind::Hexagon => {
            let polygon = match kind {
                Kind::Box => ConvexPolygon::rectangle(rng.range(0.2, 1.0), rng.range(0.2, 1.0)),
                _ => ConvexPolygon::regular(6, rng.range(0.3, 1.0)),
            }
            .unwrap();
            let points = polygon.vertices().iter().map(|p| pv(p.coords)).collect();
            let parry = PPolygon::from_convex_polyline_unmodified(points).unwrap();
            (polygon.into(), Box::new(parry))
        }
    }
}

/// One prepared query, in both libraries' terms.
struct Case {
    shape_a: Shape,
    sweep_a: Sweep,
    shape_b: Shape,
    sweep_b: Sweep,
    parry_a: Box<dyn PShape>,
    parry_b: Box<dyn PShape>,
    pose_a: PPose,
    pose_b: PPose,
    vel_a: PVector,
    vel_b: PVector,
}

/// `BATCH` scenes: B starts 3 to 6 units from A (never overlapping) and moves toward it with
/// a random miss distance, so that about half of the queries hit.
fn cases(kind_a: Kind, kind_b: Kind, seed: u64) -> Vec<Case> {
    let mut rng = Rng(seed);
    (0..BATCH)
        .map(|_| {
            let (shape_a, parry_a) = make_shape(kind_a, &mut rng);
            let (shape_b, parry_b) = make_shape(kind_b, &mut rng);
            let (angle_a, angle_b) = (rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
            let pos_a = rng.point(10.0).coords;
            let heading = rng.range(0.0, std::f64::consts::TAU);
            let toward = Vector::new(heading.cos(), heading.sin());
            let pos_b = pos_a + toward * rng.range(3.0, 6.0);
            let side = Vector::new(-toward.y, toward.x);
            let vel_a = rng.point(1.0).coords;
            let relative = -toward * rng.range(2.0, 8.0) + side * rng.range(-2.5, 2.5);
            let vel_b = vel_a + relative;
            let (iso_a, iso_b) = (Isometry::new(pos_a, angle_a), Isometry::new(pos_b, angle_b));
            Case {
                shape_a,
                sweep_a: Sweep::translating(iso_a, vel_a).unwrap(),
                shape_b,
                sweep_b: Sweep::translating(iso_b, vel_b).unwrap(),
                parry_a,
                parry_b,
                pose_a: PPose::new(pv(pos_a), angle_a),
                pose_b: PPose::new(pv(pos_b), angle_b),
                vel_a: pv(vel_a),
                vel_b: pv(vel_b),
            }
        })
        .collect()
}

fn bench_pair(c: &mut Criterion, name: &str, kind_a: Kind, kind_b: Kind, seed: u64) {
    let cases = cases(kind_a, kind_b, seed);
    let ours = ToiOptions::exact();
    let theirs = ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };
    // Both libraries must see the same scenes: check they agree on which ones hit.
    let hits = |case: &Case| {
        let a = time_of_impact(
            &case.shape_a,
            &case.sweep_a,
            &case.shape_b,
            &case.sweep_b,
            &ours,
        )
        .hit()
        .is_some();
        let b = cast_shapes(
            &case.pose_a,
            case.vel_a,
            case.parry_a.as_ref(),
            &case.pose_b,
            case.vel_b,
            case.parry_b.as_ref(),
            theirs,
        )
        .unwrap()
        .is_some();
        (a, b)
    };
    let (ours_hits, same) = cases.iter().map(hits).fold((0, 0), |(n, s), (a, b)| {
        (n + usize::from(a), s + usize::from(a == b))
    });
    assert!(
        same >= BATCH * 99 / 100 && ours_hits > BATCH / 5 && ours_hits < BATCH * 4 / 5,
        "{name}: {ours_hits} hits, {same} of {BATCH} answers agree with parry"
    );

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("impact", |bench| {
        bench.iter(|| {
            for case in &cases {
                black_box(time_of_impact(
                    black_box(&case.shape_a),
                    black_box(&case.sweep_a),
                    black_box(&case.shape_b),
                    black_box(&case.sweep_b),
                    &ours,
                ));
            }
        });
    });
    group.bench_function("parry", |bench| {
        bench.iter(|| {
            for case in &cases {
                let _ = black_box(cast_shapes(
                    black_box(&case.pose_a),
                    black_box(case.vel_a),
                    black_box(case.parry_a.as_ref()),
                    black_box(&case.pose_b),
                    black_box(case.vel_b),
                    black_box(case.parry_b.as_ref()),
                    theirs,
                ));
            }
        });
    });
    group.finish();
}

fn toi(c: &mut Criterion) {
    use Kind::{Box as Rect, Capsule as Cap, Circle as Cir, Hexagon as Hex, Segment as Seg};
    let pairs = [
        ("toi_circle_circle", Cir, Cir),
        ("toi_circle_segment", Cir, Seg),
        ("toi_polygon_polygon_boxes", Rect, Rect),
        ("toi_polygon_polygon_hexagons", Hex, Hex),
        ("toi_circle_capsule", Cir, Cap),
        ("toi_circle_polygon", Cir, Rect),
        ("toi_segment_segment", Seg, Seg),
        ("toi_segment_capsule", Seg, Cap),
        ("toi_segment_polygon", Seg, Rect),
        ("toi_capsule_capsule", Cap, Cap),
        ("toi_capsule_polygon", Cap, Rect),
    ];
    for (i, (name, a, b)) in pairs.into_iter().enumerate() {
        bench_pair(c, name, a, b, 0xC0FF_EE00 + i as u64);
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(40)
}

criterion_group! {
    name = benches;
    config = config();
    targets = toi
}
criterion_main!(benches);
