//! GJK agrees with the exact distance (Minkowski difference) and with the brute-force oracle
//! for every pair of shape kinds, cold and warm-started, including touching and degenerate
//! input, and always terminates.

mod support;

use impact_geometry::{ConvexPolygon, Isometry, Point, Segment, Shape, Vector};
use impact_narrowphase::{GjkCache, distance, gjk_distance};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use support::{Kind, gap, point_gap, spec};

fn kinds() -> impl Strategy<Value = (Kind, Kind)> {
    let k = prop_oneof![
        Just(Kind::Circle),
        Just(Kind::Segment),
        Just(Kind::Capsule),
        Just(Kind::Polygon)
    ];
    (k.clone(), k)
}

proptest! {
    #![proptest_config(Config { cases: 20_000, rng_seed: RngSeed::Fixed(31), failure_persistence: None, ..Config::default() })]
    #[test]
    fn gjk_matches_the_exact_distance(
        (sa, sb) in kinds().prop_flat_map(|(ka, kb)| (spec(ka), spec(kb))),
        (xa, ya, aa) in (-3.0..3.0f64, -3.0..3.0f64, -4.0..4.0f64),
        (xb, yb, ab) in (-3.0..3.0f64, -3.0..3.0f64, -4.0..4.0f64),
        (dx, dy, da) in (-0.1..0.1f64, -0.1..0.1f64, -0.1..0.1f64),
    ) {
        let (a, b) = (sa.build(1.0), sb.build(1.0));
        let pose_a = Isometry::new(Vector::new(xa, ya), aa);
        let pose_b = Isometry::new(Vector::new(xb, yb), ab);
        let exact = distance(&a, &pose_a, &b, &pose_b);
        let mut cache = GjkCache::default();
        let cold = gjk_distance(&a, &pose_a, &b, &pose_b, &mut cache);
        let r = a.radius() + b.radius();
        if cold.cores_overlap {
            prop_assert!(exact.distance <= -r + 1e-9, "GJK: cores overlap; exact {}", exact.distance);
        } else {
            prop_assert!((cold.distance - exact.distance).abs() <= 1e-9, "gjk {} exact {}", cold.distance, exact.distance);
            prop_assert!((cold.distance - gap(&a, &pose_a, &b, &pose_b)).abs() <= 1e-9);
            prop_assert!(point_gap(&cold.point_a, &a, &pose_a).abs() <= 1e-9);
            prop_assert!(point_gap(&cold.point_b, &b, &pose_b).abs() <= 1e-9);
            if cold.distance > 1e-9 {
                prop_assert!((cold.point_b - cold.point_a - cold.normal * cold.distance).norm() <= 1e-9);
            }
        }
        // Warm start after a small motion gives the same answer.
        let pose_b2 = Isometry::new(Vector::new(xb + dx, yb + dy), ab + da);
        let warm = gjk_distance(&a, &pose_a, &b, &pose_b2, &mut cache);
        let exact2 = distance(&a, &pose_a, &b, &pose_b2);
        if !warm.cores_overlap {
            prop_assert!((warm.distance - exact2.distance).abs() <= 1e-9, "warm {} exact {}", warm.distance, exact2.distance);
        } else {
            prop_assert!(exact2.distance <= -r + 1e-9);
        }
    }
}

#[test]
fn touching_and_degenerate_input_terminates() {
    let unit: Shape = ConvexPolygon::rectangle(1.0, 1.0).unwrap().into();
    let mut cache = GjkCache::default();
    // Face to face contact, corner to corner contact, identical placement.
    for (x, y) in [(2.0, 0.0), (2.0, 2.0), (0.0, 0.0), (2.0, 0.3)] {
        let out = gjk_distance(
            &unit,
            &Isometry::identity(),
            &unit,
            &Isometry::translation(x, y),
            &mut cache,
        );
        assert!(out.distance.abs() < 1e-15 || out.cores_overlap, "{out:?}");
        assert!(out.iterations < 10);
    }
    // A zero-length segment is a point; far apart and huge coordinates.
    let dot: Shape = Segment::new(Point::new(1.0, 1.0), Point::new(1.0, 1.0))
        .unwrap()
        .into();
    let out = gjk_distance(
        &dot,
        &Isometry::translation(1e6, -1e6),
        &unit,
        &Isometry::translation(1e6 + 5.0, -1e6 + 1.0),
        &mut GjkCache::default(),
    );
    assert!((out.distance - 3.0).abs() < 1e-9);
    // A cache from another pair is ignored safely.
    let tri: Shape = ConvexPolygon::regular(3, 1.0).unwrap().into();
    let big: Shape = ConvexPolygon::regular(40, 1.0).unwrap().into();
    let mut cache = GjkCache::default();
    gjk_distance(
        &big,
        &Isometry::identity(),
        &big,
        &Isometry::translation(3.0, 0.1),
        &mut cache,
    );
    let out = gjk_distance(
        &tri,
        &Isometry::identity(),
        &tri,
        &Isometry::translation(3.0, 0.0),
        &mut cache,
    );
    let exact = distance(
        &tri,
        &Isometry::identity(),
        &tri,
        &Isometry::translation(3.0, 0.0),
    );
    assert!((out.distance - exact.distance).abs() < 1e-12);
}

proptest! {
    #![proptest_config(Config { cases: 200_000, rng_seed: RngSeed::Fixed(321), failure_persistence: None, ..Config::default() })]
    /// The exact distance and GJK on features aligned exactly in the shapes' own frames
    /// (`support::Aligned`: corners on corners, flush sides, collinear edges, posts, beads on
    /// an edge's line), at gaps from overlap through zero, turned and moved far from the
    /// origin together: the exact distance equals the brute-force signed distance, and GJK
    /// the exact distance wherever it finds the cores apart, cold and warm-started after B
    /// moves a little (or not at all).
    #[test]
    fn aligned_features_keep_their_distance(
        aligned in support::aligned(),
        gap in prop_oneof![Just(0.0), -1e-3..1e-3f64, -1e-9..1e-9f64, 0.0..0.5f64],
        (angle, x, y) in (-3.2..3.2f64, -1e3..1e3f64, -1e3..1e3f64),
        nudge in prop_oneof![
            Just((Vector::zeros(), 0.0)),
            (-1e-3..1e-3f64, -1e-3..1e-3f64, -1e-3..1e-3f64).prop_map(|(x, y, a)| (Vector::new(x, y), a)),
        ],
    ) {
        let (a, b, local_b) = aligned.build(gap);
        let pose_a = Isometry::new(Vector::new(x, y), angle);
        let pose_b = pose_a * local_b;
        let eps = 1e-9 * (1.0 + x.abs() + y.abs());
        let truth = support::signed_gap(&a, &pose_a, &b, &pose_b);
        let exact = distance(&a, &pose_a, &b, &pose_b);
        prop_assert!((exact.distance - truth).abs() <= eps, "exact {} brute force {truth}", exact.distance);
        let mut cache = GjkCache::default();
        let cold = gjk_distance(&a, &pose_a, &b, &pose_b, &mut cache);
        if cold.cores_overlap {
            prop_assert!(exact.distance <= -(a.radius() + b.radius()) + eps, "GJK: cores overlap; exact {}", exact.distance);
        } else {
            prop_assert!((cold.distance - exact.distance).abs() <= eps, "gjk {} exact {}", cold.distance, exact.distance);
        }
        // Warm-started from that simplex after B moved a little (or not at all).
        let moved = pose_b * Isometry::new(nudge.0, nudge.1);
        let exact = distance(&a, &pose_a, &b, &moved);
        let warm = gjk_distance(&a, &pose_a, &b, &moved, &mut cache);
        if warm.cores_overlap {
            prop_assert!(exact.distance <= -(a.radius() + b.radius()) + eps, "warm GJK: cores overlap; exact {}", exact.distance);
        } else {
            prop_assert!((warm.distance - exact.distance).abs() <= eps, "warm gjk {} exact {}", warm.distance, exact.distance);
        }
    }
}
