use super::*;
use impact_geometry::{Rotation, Shape};
use impact_testkit::SplitMix64;
use impact_testkit::audit::{random_rounded_polygon, random_shape};

fn body<'a>(shape: &'a Shape, sweep: &Sweep) -> LinearBody<'a> {
    let body = LinearBody::new(shape.core(), shape.radius(), sweep).unwrap();
    match shape {
        Shape::Polygon(p) => body.with_normals(p.normals()),
        _ => body,
    }
}

/// The fast path's overlap (cores deep in each other by the separating-axis value) is
/// the exact path's, for pairs far from the origin and overlapping by anything from
/// rounding to most of their size: wherever the fast path says overlapping, so does the
/// obstacle.
#[test]
fn fast_overlap_agrees_with_the_obstacle_far_away() {
    let mut rng = SplitMix64::new(78);
    let options = ToiOptions::default();
    let mut overlaps = 0;
    for i in 0..20_000 {
        let (a, b) = (random_shape(&mut rng), random_shape(&mut rng));
        let far = [0.0, 1e3, -1e5, 3e7][i % 4];
        let base = Vector::new(far + rng.range(-1.0, 1.0), -far + rng.range(-1.0, 1.0));
        let pa = Isometry::new(base, rng.range(-3.2, 3.2));
        let scale = [1e-12, 1e-9, 1e-6, 1e-3, 1.0][rng.below(5)];
        let offset = Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * scale;
        let pb = Isometry::new(base + offset, rng.range(-3.2, 3.2));
        let sa = Sweep::translating(pa, Vector::new(rng.range(-1.0, 1.0), 0.5)).unwrap();
        let sb = Sweep::stationary(pb).unwrap();
        let (ba, bb) = (body(&a, &sa), body(&b, &sb));
        if fast_cast(&ba, &bb, &options) == Some(Toi::Overlapping) {
            overlaps += 1;
            assert_eq!(cast_with_obstacle(&ba, &bb, &options), Toi::Overlapping);
        }
    }
    assert!(overlaps > 1_000, "only {overlaps} fast overlaps");
}

/// Wherever the fast path answers, the obstacle path gives the same answer; and the fast
/// path answers most queries (else it is not worth having).
#[test]
fn fast_path_agrees_with_the_obstacle() {
    let answered = fast_path_against_the_obstacle(77, 20_000, random_shape);
    assert!(
        answered * 2 > 20_000,
        "fast path answered only {answered} of 20000"
    );
}

/// The same with a rounded polygon as A (any shape as B): its radius joins the others' in
/// the offset of every axis, and an entry beyond an edge's end (into a round corner) is left
/// to the obstacle path. The fast path answers as often (three in four).
#[test]
fn fast_path_agrees_with_the_obstacle_for_rounded_polygons() {
    let mut rounded = false;
    let answered = fast_path_against_the_obstacle(78, 20_000, |rng| {
        rounded = !rounded;
        if rounded {
            random_rounded_polygon(rng)
        } else {
            random_shape(rng)
        }
    });
    assert!(
        answered * 2 > 20_000,
        "fast path answered only {answered} of 20000"
    );
}

/// `total` random translating pairs (the shapes from `shape`, A's first): where the fast
/// path answers, the obstacle path's answer is the same. How many it answered.
fn fast_path_against_the_obstacle(
    seed: u64,
    total: usize,
    mut shape: impl FnMut(&mut SplitMix64) -> Shape,
) -> usize {
    let mut rng = SplitMix64::new(seed);
    let options = ToiOptions::default();
    let mut answered = 0;
    for _ in 0..total {
        let (a, b) = (shape(&mut rng), shape(&mut rng));
        let place = |rng: &mut SplitMix64| {
            Isometry::new(
                Vector::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0)),
                rng.range(-3.2, 3.2),
            )
        };
        let (pa, pb) = (place(&mut rng), place(&mut rng));
        let toward = (pa.translation.vector - pb.translation.vector) * rng.range(0.0, 2.0);
        let sa = Sweep::translating(pa, Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)))
            .unwrap();
        let sb = Sweep::translating(pb, toward).unwrap();
        let (ba, bb) = (body(&a, &sa), body(&b, &sb));
        let Some(fast) = fast_cast(&ba, &bb, &options) else {
            continue;
        };
        answered += 1;
        let exact = cast_with_obstacle(&ba, &bb, &options);
        match (fast, exact) {
            (Toi::Hit(f), Toi::Hit(e)) => {
                assert!(
                    (f.fraction - e.fraction).abs() <= 1e-12 * e.fraction.max(1e-3),
                    "{f:?} vs {e:?}"
                );
                assert!((f.normal - e.normal).norm() <= 1e-9, "{f:?} vs {e:?}");
                assert!((f.point - e.point).norm() <= 1e-9, "{f:?} vs {e:?}");
            }
            (f, e) => assert_eq!(f, e),
        }
    }
    answered
}

// ---------------------------------------------------------------------------------------
// The fast path's overlap against the exact path and a brute-force oracle, on random pairs
// chosen to stress it: zero-radius circles, segments down to the length at which they count
// as points, capsules, thin polygons, placed up to 3e7 from the origin and overlapping by
// anything from rounding to most of their size.

use impact_geometry::{Capsule, Circle, ConvexPolygon, Segment, cross};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// A shape whose size is about one: the degenerate and thin ones the overlap test must not
/// take for deep (a zero-area obstacle has no inside).
fn stress_shape() -> impl Strategy<Value = Shape> {
    let point = || (-1.0..1.0f64, -1.0..1.0f64).prop_map(|(x, y)| Point::new(x, y));
    // A segment of length 10^-12 to 1 (below about 1e-9 of its coordinates it is a point).
    let segment = (point(), -3.2..3.2f64, -12.0..0.0f64).prop_map(|(p, angle, exponent)| {
        let length = (10.0f64).powf(exponent);
        (p, p + Vector::new(angle.cos(), angle.sin()) * length)
    });
    prop_oneof![
        1 => prop_oneof![Just(0.0), 0.01..1.0f64]
            .prop_map(|r| Shape::from(Circle::new(r).unwrap())),
        1 => segment
            .clone()
            .prop_map(|(a, b)| Shape::from(Segment::new(a, b).unwrap())),
        1 => (segment, prop_oneof![Just(0.0), 0.01..0.5f64])
            .prop_map(|((a, b), r)| Shape::from(Capsule::new(a, b, r).unwrap())),
        // Hulls of random points squashed by up to 1e-6: thin and sliver polygons.
        2 => (
            proptest::collection::vec(point(), 3..9),
            -6.0..0.0f64,
            -3.2..3.2f64
        )
            .prop_filter_map("hull needs three corners", |(points, squash, angle)| {
                let (squash, turn) = ((10.0f64).powf(squash), Rotation::new(angle));
                let squashed: Vec<Point> = points
                    .iter()
                    .map(|p| Point::from(turn * Vector::new(p.x, p.y * squash)))
                    .collect();
                ConvexPolygon::from_convex_hull(&squashed)
                    .ok()
                    .map(Shape::from)
            }),
    ]
}

/// Two shapes placed near each other (B within `10^offset` of A), both up to 3e7 from the
/// origin, A translating and B translating or still, with default or exact options.
#[derive(Debug)]
struct Pair {
    a: Shape,
    b: Shape,
    sweep_a: Sweep,
    sweep_b: Sweep,
    options: ToiOptions,
}

fn stress_pair() -> impl Strategy<Value = Pair> {
    let vector = |r: Real| (-r..r, -r..r).prop_map(|(x, y)| Vector::new(x, y));
    (
        (stress_shape(), stress_shape()),
        (
            prop_oneof![Just(0.0), Just(1e3), Just(-1e5), Just(3e7)],
            vector(1.0),
            -12.0..0.3f64,
            vector(1.0),
        ),
        (
            -3.2..3.2f64,
            -3.2..3.2f64,
            vector(1.0),
            vector(1.0),
            any::<bool>(),
        ),
    )
        .prop_map(
            |((a, b), (far, jitter, exponent, direction), (ra, rb, da, db, exact))| {
                let base = Vector::new(far, -far) + jitter;
                let offset = direction * (10.0f64).powf(exponent);
                let pa = Isometry::new(base, ra);
                let pb = Isometry::new(base + offset, rb);
                Pair {
                    a,
                    b,
                    sweep_a: Sweep::translating(pa, da).unwrap(),
                    sweep_b: if exact {
                        Sweep::stationary(pb).unwrap()
                    } else {
                        Sweep::translating(pb, db).unwrap()
                    },
                    options: if exact {
                        ToiOptions::exact()
                    } else {
                        ToiOptions::default()
                    },
                }
            },
        )
}

/// Whether two cores (world points: one, two or a counter-clockwise polygon) share a point,
/// by brute force: an edge of one crossing an edge of the other, or a vertex of one inside
/// the other. Touching at rounding distance may go either way; the oracle asks it only of
/// cores that overlap by far more.
fn cores_meet(a: &[Point], b: &[Point]) -> bool {
    let orient = |p: &Point, q: &Point, r: &Point| cross(&(q - p), &(r - p));
    let edges = |core: &[Point]| -> Vec<(Point, Point)> {
        match core.len() {
            1 => vec![],
            2 => vec![(core[0], core[1])],
            n => (0..n).map(|i| (core[i], core[(i + 1) % n])).collect(),
        }
    };
    let inside = |p: &Point, poly: &[Point]| {
        poly.len() >= 3
            && (0..poly.len()).all(|i| orient(&poly[i], &poly[(i + 1) % poly.len()], p) >= 0.0)
    };
    let crossing = edges(a).iter().any(|(p, q)| {
        edges(b).iter().any(|(r, s)| {
            orient(p, q, r) * orient(p, q, s) <= 0.0 && orient(r, s, p) * orient(r, s, q) <= 0.0
        })
    });
    crossing || a.iter().any(|p| inside(p, b)) || b.iter().any(|p| inside(p, a))
}

/// The distance between two cores that do not meet: every vertex against every edge.
fn core_gap(a: &[Point], b: &[Point]) -> Real {
    let to_edges = |p: &Point, core: &[Point]| -> Real {
        let n = core.len();
        (0..n)
            .map(|i| {
                let (s, e) = (core[i], core[(i + 1) % n]);
                let v = e - s;
                let len2 = v.norm_squared();
                let t = if len2 > 0.0 {
                    ((p - s).dot(&v) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                (s + v * t - p).norm()
            })
            .fold(Real::INFINITY, Real::min)
    };
    let one_way = |x: &[Point], y: &[Point]| {
        x.iter()
            .map(|p| to_edges(p, y))
            .fold(Real::INFINITY, Real::min)
    };
    one_way(a, b).min(one_way(b, a))
}

/// What an answer of `Overlapping` claims, checked by brute force: the cores are nearer than
/// `radius_sum - tolerance`; when that is zero or less, they are so deep in each other that
/// B moved that far in any of 64 directions still meets A.
fn overlap_is_true(p: &Pair) -> Result<(), TestCaseError> {
    let world = |s: &Shape, sweep: &Sweep| -> Vec<Point> {
        s.core().iter().map(|v| sweep.start() * v).collect()
    };
    let (a, b) = (world(&p.a, &p.sweep_a), world(&p.b, &p.sweep_b));
    let limit = p.a.radius() + p.b.radius() - p.options.tolerance();
    if limit > 0.0 {
        let gap = if cores_meet(&a, &b) {
            0.0
        } else {
            core_gap(&a, &b)
        };
        prop_assert!(gap < limit, "cores {gap} apart, limit {limit}");
        return Ok(());
    }
    for k in 0..64 {
        let angle = core::f64::consts::TAU * Real::from(k) / 64.0;
        let shift = Vector::new(angle.cos(), angle.sin()) * -limit;
        let moved: Vec<Point> = b.iter().map(|q| q + shift).collect();
        prop_assert!(
            cores_meet(&a, &moved),
            "cores part when B moves by {shift:?}"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(Config {
        cases: 10_000,
        rng_seed: RngSeed::Fixed(79),
        failure_persistence: None,
        ..Config::default()
    })]

    /// An overlap the fast path finds is one: the exact path through `K` finds it too, a
    /// brute-force oracle that shares no code with either confirms it, and where the exact
    /// path finds an overlap the fast path does not answer otherwise.
    #[test]
    fn fast_overlap_is_an_overlap(p in stress_pair()) {
        let (ba, bb) = (body(&p.a, &p.sweep_a), body(&p.b, &p.sweep_b));
        let Some(fast) = fast_cast(&ba, &bb, &p.options) else {
            return Ok(());
        };
        let exact = cast_with_obstacle(&ba, &bb, &p.options);
        if fast == Toi::Overlapping || exact == Toi::Overlapping {
            prop_assert_eq!(fast, exact);
        }
        if fast == Toi::Overlapping {
            overlap_is_true(&p)?;
        }
    }
}

proptest! {
    #![proptest_config(Config {
        cases: 2000,
        rng_seed: RngSeed::Fixed(80),
        failure_persistence: None,
        ..Config::default()
    })]

    /// At the edge of the exact path's overlap, where the margin matters: B is moved along a
    /// random direction to where the obstacle's answer turns from `Overlapping` to something
    /// else (by bisection), and the fast path is asked a few ulps and a few billionths either
    /// side; wherever it says overlapping, so do the obstacle and the oracle.
    #[test]
    fn fast_overlap_at_the_edge_of_the_overlap(p in stress_pair(), angle in -3.2..3.2f64) {
        let direction = Vector::new(angle.cos(), angle.sin());
        let start = p.sweep_b.start();
        let at = |s: Real| {
            let pose = Isometry::new(p.sweep_a.start().translation.vector + direction * s, start.rotation.angle());
            Pair {
                a: p.a.clone(),
                b: p.b.clone(),
                sweep_a: p.sweep_a,
                sweep_b: Sweep::translating(pose, p.sweep_b.displacement()).unwrap(),
                options: p.options,
            }
        };
        let exact = |q: &Pair| {
            cast_with_obstacle(&body(&q.a, &q.sweep_a), &body(&q.b, &q.sweep_b), &q.options)
        };
        let (mut inside, mut outside) = (0.0, 4.0);
        if exact(&at(inside)) != Toi::Overlapping || exact(&at(outside)) == Toi::Overlapping {
            return Ok(());
        }
        for _ in 0..80 {
            let middle = 0.5 * (inside + outside);
            if middle == inside || middle == outside {
                break;
            }
            if exact(&at(middle)) == Toi::Overlapping {
                inside = middle;
            } else {
                outside = middle;
            }
        }
        for step in [1.0, 4.0, 64.0, 1e3, 1e6, 1e7] {
            for s in [inside - step * outside * Real::EPSILON, outside + step * outside * Real::EPSILON] {
                let q = at(s);
                let (ba, bb) = (body(&q.a, &q.sweep_a), body(&q.b, &q.sweep_b));
                if fast_cast(&ba, &bb, &q.options) == Some(Toi::Overlapping) {
                    prop_assert_eq!(cast_with_obstacle(&ba, &bb, &q.options), Toi::Overlapping, "at {}", s);
                    overlap_is_true(&q)?;
                }
            }
        }
    }
}
