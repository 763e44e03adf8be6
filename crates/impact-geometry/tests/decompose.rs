//! The convex decomposition of a simple polygon (`ConcaveOutline`): the pieces are convex,
//! made of the outline's own vertices, tile it exactly (their areas add up to the shoelace
//! area, dense sampling finds every point inside the outline in exactly one piece and no point
//! outside in any, no two overlap by clipping), number at most `n - 2` and at most Hertel and
//! Mehlhorn's `2 r + 1`, and come out the same, bit for bit, for the same outline; the mass
//! properties of their union match the shoelace closed forms of the outline; bad outlines are
//! refused with the field that is wrong.
//!
//! The oracles share no code with the decomposition: crossing-number point-in-polygon,
//! Sutherland-Hodgman clipping and the shoelace sums over the whole outline.

use impact_geometry::{
    ConcaveOutline, ConvexPolygon, GeometryError, Point, Real, Vector, nalgebra,
};
use impact_testkit::SplitMix64;
use impact_testkit::outlines;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

fn p(x: Real, y: Real) -> Point {
    Point::new(x, y)
}

fn cross(a: Vector, b: Vector) -> Real {
    a.x * b.y - a.y * b.x
}

// ---------------------------------------------------------------------------------------
// Oracles.

/// Area, centroid and second moment about the centroid (per unit density) of a simple
/// polygon, by the shoelace sums taken about its first vertex.
fn shoelace(outline: &[Point]) -> (Real, Point, Real) {
    let o = outline[0];
    let n = outline.len();
    let (mut twice_area, mut first, mut second) = (0.0, Vector::zeros(), 0.0);
    for i in 0..n {
        let (a, b) = (outline[i] - o, outline[(i + 1) % n] - o);
        let c = cross(a, b);
        twice_area += c;
        first += (a + b) * c;
        second += c * (a.dot(&a) + a.dot(&b) + b.dot(&b));
    }
    let area = 0.5 * twice_area;
    let centroid = first / (6.0 * area);
    let about_o = second / 12.0;
    (
        area.abs(),
        o + centroid,
        (about_o - area * centroid.norm_squared()).abs(),
    )
}

/// Whether `q` is inside the polygon, by counting the edges a ray toward +x crosses.
fn inside_outline(q: &Point, outline: &[Point]) -> bool {
    let n = outline.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (outline[i], outline[(i + 1) % n]);
        if (a.y > q.y) != (b.y > q.y) {
            let x = a.x + (q.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if q.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

fn distance_to_boundary(q: &Point, outline: &[Point]) -> Real {
    let n = outline.len();
    (0..n)
        .map(|i| {
            let (a, b) = (outline[i], outline[(i + 1) % n]);
            let e = b - a;
            let t = ((q - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
            (a + e * t - q).norm()
        })
        .fold(Real::INFINITY, Real::min)
}

fn inside_convex(q: &Point, poly: &[Point]) -> bool {
    let n = poly.len();
    (0..n).all(|i| cross(poly[(i + 1) % n] - poly[i], q - poly[i]) > 0.0)
}

fn polygon_area(poly: &[Point]) -> Real {
    if poly.len() < 3 {
        return 0.0;
    }
    let o = poly[0];
    (1..poly.len() - 1)
        .map(|i| 0.5 * cross(poly[i] - o, poly[i + 1] - o))
        .sum()
}

/// The part of convex `subject` inside convex counter-clockwise `clip` (Sutherland-Hodgman).
fn clip(subject: &[Point], clip: &[Point]) -> Vec<Point> {
    let mut out = subject.to_vec();
    for i in 0..clip.len() {
        let (a, b) = (clip[i], clip[(i + 1) % clip.len()]);
        let side = |q: &Point| cross(b - a, q - a);
        let input = std::mem::take(&mut out);
        for k in 0..input.len() {
            let (s, e) = (input[k], input[(k + 1) % input.len()]);
            let (ds, de) = (side(&s), side(&e));
            if ds >= 0.0 {
                out.push(s);
            }
            if (ds >= 0.0) != (de >= 0.0) {
                out.push(s + (e - s) * (ds / (ds - de)));
            }
        }
        if out.is_empty() {
            break;
        }
    }
    out
}

/// Reflex vertices of a counter-clockwise outline.
fn reflex(outline: &[Point]) -> usize {
    let n = outline.len();
    (0..n)
        .filter(|&i| {
            let (a, b, c) = (outline[(i + n - 1) % n], outline[i], outline[(i + 1) % n]);
            cross(b - a, c - b) < 0.0
        })
        .count()
}

fn bits(pieces: &[ConvexPolygon]) -> Vec<Vec<(u64, u64)>> {
    pieces
        .iter()
        .map(|c| {
            c.vertices()
                .iter()
                .map(|v| (v.x.to_bits(), v.y.to_bits()))
                .collect()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// The properties, on any outline.

/// Every property of the decomposition of `input`, with `samples` points for the covering.
fn check_outline(
    input: &[Point],
    rng: &mut SplitMix64,
    samples: usize,
) -> Result<(), TestCaseError> {
    let outline = ConcaveOutline::new(input).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let kept = outline.vertices();
    let pieces = outline.convex_pieces();
    let (area, centroid, second) = shoelace(kept);
    let extent = kept
        .iter()
        .map(|q| (q - kept[0]).amax())
        .fold(0.0, Real::max);
    // Convex, counter-clockwise, made of the outline's vertices.
    for piece in &pieces {
        let v = piece.vertices();
        prop_assert!(v.len() >= 3);
        for i in 0..v.len() {
            let turn = cross(
                v[(i + 1) % v.len()] - v[i],
                v[(i + 2) % v.len()] - v[(i + 1) % v.len()],
            );
            prop_assert!(
                turn > 0.0,
                "a piece turns right or goes straight at {:?}",
                v[(i + 1) % v.len()]
            );
            prop_assert!(
                kept.contains(&v[i]),
                "{:?} is not a vertex of the outline",
                v[i]
            );
        }
    }
    // Areas add up.
    let sum: Real = pieces.iter().map(|c| polygon_area(c.vertices())).sum();
    prop_assert!(
        (sum - area).abs() <= 1e-12 * area,
        "pieces {sum} vs outline {area}"
    );
    // Counts.
    let (n, r) = (kept.len(), reflex(kept));
    prop_assert!(
        pieces.len() <= n - 2,
        "{} pieces for {n} vertices",
        pieces.len()
    );
    prop_assert!(
        pieces.len() <= 2 * r + 1,
        "{} pieces for {r} reflex vertices",
        pieces.len()
    );
    prop_assert_eq!(outline.triangles().len(), n - 2);
    // No overlaps.
    for (i, a) in pieces.iter().enumerate() {
        for b in &pieces[i + 1..] {
            let overlap = polygon_area(&clip(a.vertices(), b.vertices()));
            prop_assert!(overlap <= 1e-12 * area, "two pieces overlap by {overlap}");
        }
    }
    // Covering: a point away from every boundary is in the outline iff in exactly one piece.
    let margin = 1e-9 * extent;
    let (low, high) = kept
        .iter()
        .fold((kept[0], kept[0]), |(l, h), q| (l.inf(q), h.sup(q)));
    for _ in 0..samples {
        let q = p(rng.range(low.x, high.x), rng.range(low.y, high.y));
        let near_a_piece = pieces
            .iter()
            .any(|c| distance_to_boundary(&q, c.vertices()) <= margin);
        if near_a_piece || distance_to_boundary(&q, kept) <= margin {
            continue;
        }
        let holders = pieces
            .iter()
            .filter(|c| inside_convex(&q, c.vertices()))
            .count();
        prop_assert_eq!(holders, usize::from(inside_outline(&q, kept)), "at {:?}", q);
    }
    // Mass properties of the union against the closed forms.
    let density = 2.5;
    let m = outline
        .mass_properties(density)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(
        (m.mass - density * area).abs() <= 1e-12 * density * area,
        "mass {} vs {}",
        m.mass,
        density * area
    );
    let off = (m.local_center - centroid).norm();
    prop_assert!(
        off <= 1e-12 * (centroid.coords.norm() + extent),
        "centre {:?} vs {:?}",
        m.local_center,
        centroid
    );
    prop_assert!(
        (m.inertia - density * second).abs() <= 1e-12 * density * second,
        "inertia {} vs {}",
        m.inertia,
        density * second
    );
    // The same outline gives the same pieces, bit for bit.
    let again = ConcaveOutline::new(input).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(bits(&again.convex_pieces()), bits(&pieces));
    // A cap on the vertices per piece keeps the tiling.
    for cap in [3, 4, 8] {
        let capped = outline
            .convex_pieces_with_at_most(cap)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(capped.iter().all(|c| c.vertices().len() <= cap));
        prop_assert!(capped.len() >= pieces.len() && capped.len() <= n - 2);
        let sum: Real = capped.iter().map(|c| polygon_area(c.vertices())).sum();
        prop_assert!(
            (sum - area).abs() <= 1e-12 * area,
            "capped at {cap}: {sum} vs {area}"
        );
    }
    Ok(())
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Star,
    Untangled,
    Comb,
}

fn outline_of(
    kind: Kind,
    seed: u64,
    size: usize,
    center: Vector,
    scale: Real,
    cw: bool,
) -> Vec<Point> {
    let mut rng = SplitMix64::new(seed);
    let o = match kind {
        Kind::Star => outlines::star(&mut rng, size, center, scale),
        Kind::Untangled => outlines::untangled(&mut rng, size, center, scale),
        Kind::Comb => outlines::comb(&mut rng, size / 3 + 1, center, scale),
    };
    if cw { outlines::clockwise(o) } else { o }
}

fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(600, 41))]

    /// Star-shaped, untangled random and comb outlines of 3 to 40 vertices, of sizes 1 to
    /// 10 within 1e3 of the origin, in either winding.
    #[test]
    fn pieces_tile_the_outline(
        kind in prop_oneof![Just(Kind::Star), Just(Kind::Untangled), Just(Kind::Comb)],
        seed in any::<u64>(),
        size in 3usize..40,
        (cx, cy) in (-1e3..1e3f64, -1e3..1e3f64),
        scale in 1.0..10.0f64,
        cw in any::<bool>(),
    ) {
        let input = outline_of(kind, seed, size, Vector::new(cx, cy), scale, cw);
        check_outline(&input, &mut SplitMix64::new(seed ^ 1), 300)?;
    }
}

proptest! {
    #![proptest_config(config(200, 42))]

    /// The same at sizes from 1e-6 to 1e6 about the origin (the mass properties' bound
    /// holds at every scale when the outline is near the origin).
    #[test]
    fn pieces_tile_the_outline_at_any_scale(
        kind in prop_oneof![Just(Kind::Star), Just(Kind::Untangled), Just(Kind::Comb)],
        seed in any::<u64>(),
        size in 3usize..30,
        exponent in -6.0..6.0f64,
        cw in any::<bool>(),
    ) {
        let input = outline_of(kind, seed, size, Vector::zeros(), (10.0f64).powf(exponent), cw);
        check_outline(&input, &mut SplitMix64::new(seed ^ 2), 100)?;
    }
}

proptest! {
    #![proptest_config(config(200, 43))]

    /// An outline with a point added halfway along each edge (on the edge's line to
    /// rounding) decomposes as the outline without them: the points are dropped as collinear.
    #[test]
    fn points_along_the_edges_are_dropped(
        kind in prop_oneof![Just(Kind::Star), Just(Kind::Untangled), Just(Kind::Comb)],
        seed in any::<u64>(),
        size in 3usize..30,
    ) {
        let input = outline_of(kind, seed, size, Vector::new(40.0, 7.0), 3.0, false);
        let n = input.len();
        let dense: Vec<Point> = (0..n)
            .flat_map(|i| [input[i], nalgebra::center(&input[i], &input[(i + 1) % n])])
            .collect();
        let plain = ConcaveOutline::new(&input).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let with_middles = ConcaveOutline::new(&dense).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(with_middles.vertices(), plain.vertices());
        prop_assert_eq!(with_middles.convex_pieces(), plain.convex_pieces());
    }
}

/// Large outlines: thousands of vertices decompose, within the bounds.
#[test]
fn large_outlines_tile() {
    let mut rng = SplitMix64::new(5);
    for n in [1_000, 5_000] {
        let input = outlines::star(&mut rng, n, Vector::new(-3.0, 1.0), 50.0);
        check_outline(&input, &mut rng, 200).unwrap();
    }
    let input = outlines::comb(&mut rng, 500, Vector::zeros(), 10.0);
    check_outline(&input, &mut rng, 200).unwrap();
}

/// Seeded: many larger outlines, one per generator and seed.
#[test]
fn seeded_outlines_tile() {
    for seed in 0..60u64 {
        for kind in [Kind::Star, Kind::Untangled, Kind::Comb] {
            let size = 40 + (seed as usize % 4) * 20;
            let input = outline_of(kind, seed, size, Vector::new(3.0, -2.0), 2.0, seed % 2 == 0);
            if let Err(e) = check_outline(&input, &mut SplitMix64::new(seed), 50) {
                panic!("{kind:?} seed {seed}: {e}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Known outlines.

fn pieces_of(points: &[Point]) -> Vec<Vec<Point>> {
    ConcaveOutline::new(points)
        .unwrap()
        .convex_pieces()
        .iter()
        .map(|c| c.vertices().to_vec())
        .collect()
}

#[test]
fn a_convex_outline_is_one_piece() {
    let square = [p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)];
    assert_eq!(pieces_of(&square), vec![square.to_vec()]);
    // Clockwise, with a vertex on an edge, which is dropped as collinear.
    let cw = [
        p(0.0, 0.0),
        p(0.0, 1.0),
        p(1.0, 1.0),
        p(1.0, 0.5),
        p(1.0, 0.0),
    ];
    let outline = ConcaveOutline::new(&cw).unwrap();
    assert_eq!(
        outline.vertices(),
        &[p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0), p(0.0, 0.0)]
    );
    assert_eq!(outline.convex_pieces().len(), 1);
    assert!((outline.area() - 1.0).abs() < 1e-15);
}

#[test]
fn an_l_is_two_pieces_and_a_u_three() {
    let l = [
        p(0.0, 0.0),
        p(2.0, 0.0),
        p(2.0, 1.0),
        p(1.0, 1.0),
        p(1.0, 2.0),
        p(0.0, 2.0),
    ];
    let pieces = pieces_of(&l);
    assert_eq!(pieces.len(), 2, "{pieces:?}");
    let u = [
        p(0.0, 0.0),
        p(3.0, 0.0),
        p(3.0, 2.0),
        p(2.0, 2.0),
        p(2.0, 1.0),
        p(1.0, 1.0),
        p(1.0, 2.0),
        p(0.0, 2.0),
    ];
    assert_eq!(pieces_of(&u).len(), 3);
    let outline = ConcaveOutline::new(&u).unwrap();
    assert!((outline.area() - 5.0).abs() < 1e-14);
    let m = outline.mass_properties(1.0).unwrap();
    // The 3 x 2 box less the unit notch: y = (6 * 1 - 1 * 1.5) / 5.
    assert!((m.local_center - p(1.5, 0.9)).norm() < 1e-14, "{m:?}");
}

#[test]
fn a_regular_polygon_with_a_notch_is_deterministic() {
    // Cocircular vertices: the Delaunay triangulation has ties, broken the same way each run.
    let mut ring: Vec<Point> = (0..24)
        .map(|k| {
            let a = core::f64::consts::TAU * Real::from(k) / 24.0;
            p(a.cos(), a.sin())
        })
        .collect();
    ring[0] = p(0.2, 0.0);
    let first = ConcaveOutline::new(&ring).unwrap();
    for _ in 0..20 {
        assert_eq!(ConcaveOutline::new(&ring).unwrap(), first);
    }
    assert!(first.convex_pieces().len() <= 3);
}

// ---------------------------------------------------------------------------------------
// Bad outlines.

fn refused(points: &[Point]) -> GeometryError {
    ConcaveOutline::new(points).unwrap_err()
}

#[test]
fn bad_outlines_are_refused_with_the_field() {
    assert_eq!(
        refused(&[p(0.0, 0.0), p(1.0, 0.0)]),
        GeometryError::TooFewVertices {
            field: "outline".into(),
            count: 2
        }
    );
    assert_eq!(
        refused(&[p(0.0, 0.0), p(1.0, Real::NAN), p(0.0, 1.0)]).to_string(),
        "outline[1].y: must be finite, got NaN"
    );
    // Repeated consecutively, and closed by repeating the first vertex.
    assert_eq!(
        refused(&[p(0.0, 0.0), p(1.0, 0.0), p(1.0, 0.0), p(0.0, 1.0)]),
        GeometryError::RepeatedVertex {
            field: "outline[2]".into(),
            first: 1
        }
    );
    assert_eq!(
        refused(&[
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(1.0, 1.0),
            p(0.0, 1.0),
            p(0.0, 0.0)
        ])
        .to_string(),
        "outline[4]: repeats vertex 0 of the outline"
    );
    // Coming back to a vertex: two triangles meeting at a corner.
    assert_eq!(
        refused(&[
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(1.0, 1.0),
            p(0.0, 0.0),
            p(-1.0, 0.0),
            p(-1.0, -1.0),
        ]),
        GeometryError::RepeatedVertex {
            field: "outline[3]".into(),
            first: 0
        }
    );
    // A bow tie.
    assert_eq!(
        refused(&[p(0.0, 0.0), p(1.0, 1.0), p(1.0, 0.0), p(0.0, 1.0)]),
        GeometryError::SelfIntersecting {
            field: "outline[0]".into(),
            other: "outline[2]".into()
        }
    );
    // A vertex on another edge: the edge from it is the first found to touch edge 0.
    assert_eq!(
        refused(&[
            p(0.0, 0.0),
            p(2.0, 0.0),
            p(2.0, 1.0),
            p(1.0, 0.0),
            p(0.0, 1.0)
        ]),
        GeometryError::SelfIntersecting {
            field: "outline[0]".into(),
            other: "outline[3]".into()
        }
    );
    // A spike turning straight back.
    assert!(matches!(
        refused(&[p(0.0, 0.0), p(2.0, 0.0), p(1.0, 0.0), p(1.0, 1.0)]),
        GeometryError::SelfIntersecting { .. }
    ));
    // All on one line.
    assert_eq!(
        refused(&[p(0.0, 0.0), p(1.0, 1.0), p(3.0, 3.0)]),
        GeometryError::ZeroArea {
            field: "outline".into()
        }
    );
    assert!(matches!(
        refused(&[p(-1e308, 0.0), p(1e308, 0.0), p(0.0, 1e308)]),
        GeometryError::OutOfRange { .. }
    ));
    let square =
        ConcaveOutline::new(&[p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)]).unwrap();
    assert_eq!(
        square
            .convex_pieces_with_at_most(2)
            .unwrap_err()
            .to_string(),
        "max_vertices: must be at least 3, got 2"
    );
    assert!(square.mass_properties(-1.0).is_err());
}
