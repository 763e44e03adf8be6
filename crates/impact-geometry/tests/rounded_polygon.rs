//! Rounded polygons: the radius is validated and named, kept by `with_radius` and serde, and
//! the mass properties of the rounded shape match a numerical integration over the exact
//! test of whether a point lies within the radius of the core.

use core::f64::consts::PI;
use impact_geometry::{ConvexPolygon, GeometryError, MassProperties, Point, Real, Shape, Vector};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

fn p(x: Real, y: Real) -> Point {
    Point::new(x, y)
}

#[test]
fn the_radius_is_validated_and_named() {
    let square = [p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)];
    let rounded = ConvexPolygon::rounded(&square, 0.25).unwrap();
    assert_eq!(rounded.radius(), 0.25);
    assert_eq!(Shape::from(rounded.clone()).radius(), 0.25);
    assert_eq!(rounded.vertices(), &square);
    assert_eq!(ConvexPolygon::new(&square).unwrap().radius(), 0.0);
    for (value, message) in [
        (-0.5, "polygon.radius: must be zero or positive, got -0.5"),
        (Real::NAN, "polygon.radius: must be finite, got NaN"),
        (Real::INFINITY, "polygon.radius: must be finite, got inf"),
    ] {
        let err = ConvexPolygon::rounded(&square, value).unwrap_err();
        assert_eq!(err.to_string(), message);
        let err = ConvexPolygon::new(&square)
            .unwrap()
            .with_radius(value)
            .unwrap_err();
        assert_eq!(err.to_string(), message);
    }
    // The vertices are checked as for a sharp polygon, before the radius.
    let err = ConvexPolygon::rounded(&[p(0.0, 0.0), p(1.0, 0.0)], -1.0).unwrap_err();
    assert!(matches!(err, GeometryError::TooFewVertices { .. }), "{err}");
    // A negative zero is zero: one sharp polygon, bit for bit.
    let zero = ConvexPolygon::rounded(&square, -0.0).unwrap();
    assert_eq!(zero.radius().to_bits(), 0.0f64.to_bits());
    assert_eq!(zero, ConvexPolygon::new(&square).unwrap());
}

#[test]
fn with_radius_replaces_the_radius_and_widens_the_strip() {
    let plank = ConvexPolygon::rectangle(2.0, 0.1).unwrap();
    let sharp = *plank.strip();
    let rounded = plank.clone().with_radius(0.3).unwrap();
    assert_eq!(rounded.strip().normal, sharp.normal);
    assert_eq!(rounded.strip().middle, sharp.middle);
    assert_eq!(rounded.strip().half_width, sharp.half_width + 0.3);
    // Replaced, not added: back to zero gives the sharp polygon bit for bit.
    let back = rounded.with_radius(0.0).unwrap();
    assert_eq!(back, plank);
    assert_eq!(
        back.strip().half_width.to_bits(),
        sharp.half_width.to_bits()
    );
}

#[test]
fn a_rounded_box_has_the_closed_form_area_and_inertia() {
    // A 2a x 2b core rounded by r: a cross of two rectangles and four quarter discs.
    let (a, b, r) = (1.5, 0.4, 0.3);
    let shape = Shape::from(
        ConvexPolygon::rectangle(a, b)
            .unwrap()
            .with_radius(r)
            .unwrap(),
    );
    let props = shape.mass_properties(2.0).unwrap();
    let area = 4.0 * a * b + 4.0 * r * (a + b) + PI * r * r;
    assert!((props.mass - 2.0 * area).abs() < 1e-12 * area);
    assert!((MassProperties::area(&shape) - area).abs() < 1e-12 * area);
    assert!(props.local_center.coords.norm() < 1e-14);
    // Polar moments about the centre: the 2a x 2b core, the four side rectangles (each
    // moved out by its half thickness, parallel axes), and four quarter discs at the corners
    // (a whole disc's r^4 pi / 2 moved to distance sqrt(a^2 + b^2), with the sectors'
    // centroids off the corners: the whole disc's first moment about its centre vanishes
    // only as a whole, so each quarter's cross term 2 c . m adds up over the four).
    let rect = |w: Real, h: Real| w * h * (w * w + h * h) / 12.0;
    let core = rect(2.0 * a, 2.0 * b);
    let sides_x = 2.0 * (rect(r, 2.0 * b) + r * 2.0 * b * (a + 0.5 * r).powi(2));
    let sides_y = 2.0 * (rect(2.0 * a, r) + r * 2.0 * a * (b + 0.5 * r).powi(2));
    // Quarter disc at corner (a, b) spanning angles 0..pi/2: first moment about the corner
    // r^3 / 3 (1, 1); polar moment r^4 pi / 8.
    let quarter = PI * r.powi(4) / 8.0
        + 2.0 * (a + b) * r.powi(3) / 3.0
        + 0.25 * PI * r * r * (a * a + b * b);
    let polar = core + sides_x + sides_y + 4.0 * quarter;
    assert!(
        (props.inertia - 2.0 * polar).abs() < 1e-12 * polar,
        "{} vs {}",
        props.inertia,
        2.0 * polar
    );
}

#[test]
fn a_large_radius_approaches_the_disc_and_zero_is_the_sharp_polygon() {
    let triangle = ConvexPolygon::new(&[p(0.0, 0.0), p(1e-3, 0.0), p(0.0, 1e-3)]).unwrap();
    let disc = Shape::from(triangle.clone().with_radius(10.0).unwrap())
        .mass_properties(1.0)
        .unwrap();
    let m = PI * 100.0;
    assert!((disc.mass - m).abs() < 1e-3 * m);
    assert!((disc.inertia - 0.5 * m * 100.0).abs() < 1e-3 * 0.5 * m * 100.0);
    // Radius zero: the triangles alone, the same bits as a polygon built sharp.
    let sharp = Shape::from(triangle.clone()).mass_properties(3.0).unwrap();
    let zero = Shape::from(triangle.with_radius(0.0).unwrap())
        .mass_properties(3.0)
        .unwrap();
    assert_eq!(sharp.mass.to_bits(), zero.mass.to_bits());
    assert_eq!(sharp.inertia.to_bits(), zero.inertia.to_bits());
}

/// The signed distance from `q` to the convex polygon `vertices` (counter-clockwise):
/// outside, the distance to the nearest edge; inside, minus the distance to the nearest
/// edge's line. Brute force, sharing nothing with the mass properties; convex in `q`.
fn signed_distance(vertices: &[Point], q: &Point) -> Real {
    let n = vertices.len();
    let (mut depth, mut nearest) = (Real::NEG_INFINITY, Real::INFINITY);
    for i in 0..n {
        let (a, b) = (vertices[i], vertices[(i + 1) % n]);
        let e = b - a;
        let w = q - a;
        depth = depth.max((e.y * w.x - e.x * w.y) / e.norm());
        let t = (w.dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
        nearest = nearest.min((w - e * t).norm());
    }
    if depth <= 0.0 { depth } else { nearest }
}

/// Whether `q` lies in the polygon rounded by `radius`.
fn inside(vertices: &[Point], radius: Real, q: &Point) -> bool {
    signed_distance(vertices, q) <= radius
}

/// Area, first moment and polar second moment about the origin of the rounded polygon, by
/// integrating over horizontal lines: on each, the shape (convex) is one interval, whose
/// ends are found by bisection on [`inside`]; the lines are spaced in `y = mid - h cos(u)`
/// with `u` evenly spaced, which clusters them at the top and bottom, where the width grows
/// like a square root (a midpoint rule in `u` is then accurate to about `1e-7` here).
fn integrate(vertices: &[Point], radius: Real) -> (Real, Vector, Real) {
    let (mut lo, mut hi) = (
        Vector::repeat(Real::INFINITY),
        Vector::repeat(-Real::INFINITY),
    );
    for v in vertices {
        lo = lo.inf(&v.coords);
        hi = hi.sup(&v.coords);
    }
    let (lo, hi) = (lo - Vector::repeat(radius), hi + Vector::repeat(radius));
    let (mid, half) = (0.5 * (lo.y + hi.y), 0.5 * (hi.y - lo.y));
    let lines = 3000;
    let du = PI / lines as Real;
    let (mut area, mut first, mut second) = (0.0, Vector::zeros(), 0.0);
    for k in 0..lines {
        let u = (k as Real + 0.5) * du;
        let y = mid - half * u.cos();
        let dy = half * u.sin() * du;
        // The deepest point of the line: the signed distance is convex along it.
        let (mut a, mut b) = (lo.x, hi.x);
        for _ in 0..200 {
            let (m1, m2) = ((2.0 * a + b) / 3.0, (a + 2.0 * b) / 3.0);
            if signed_distance(vertices, &p(m1, y)) <= signed_distance(vertices, &p(m2, y)) {
                b = m2;
            } else {
                a = m1;
            }
        }
        let x_in = 0.5 * (a + b);
        if !inside(vertices, radius, &p(x_in, y)) {
            continue;
        }
        let edge = |mut out: Real| {
            let mut inn = x_in;
            for _ in 0..80 {
                let m = 0.5 * (inn + out);
                if inside(vertices, radius, &p(m, y)) {
                    inn = m;
                } else {
                    out = m;
                }
            }
            0.5 * (inn + out)
        };
        let (x0, x1) = (edge(lo.x - 1.0), edge(hi.x + 1.0));
        area += (x1 - x0) * dy;
        first += Vector::new(0.5 * (x1 * x1 - x0 * x0), y * (x1 - x0)) * dy;
        second += ((x1.powi(3) - x0.powi(3)) / 3.0 + y * y * (x1 - x0)) * dy;
    }
    (area, first, second)
}

fn convex_polygon() -> impl Strategy<Value = ConvexPolygon> {
    proptest::collection::vec((-2.0..2.0f64, -1.0..1.0f64), 3..12).prop_filter_map(
        "degenerate hull",
        |points| {
            let points: Vec<Point> = points.into_iter().map(|(x, y)| p(x, y)).collect();
            ConvexPolygon::from_convex_hull(&points).ok()
        },
    )
}

proptest! {
    #![proptest_config(Config { cases: 48, rng_seed: RngSeed::Fixed(29), failure_persistence: None, ..Config::default() })]
    /// Mass, centre of mass and inertia of random rounded polygons (away from the origin, so
    /// the parallel-axis shifts are exercised) against the integration over lines.
    #[test]
    fn mass_properties_match_numerical_integration(
        polygon in convex_polygon(),
        radius in prop_oneof![Just(0.0), 0.001..0.05f64, 0.05..1.5f64],
        (dx, dy) in (-3.0..3.0f64, -3.0..3.0f64),
        density in 0.1..5.0f64,
    ) {
        let moved: Vec<Point> = polygon.vertices().iter().map(|v| v + Vector::new(dx, dy)).collect();
        let shape = Shape::from(ConvexPolygon::rounded(&moved, radius).unwrap());
        let props = shape.mass_properties(density).unwrap();
        let (area, first, second) = integrate(&moved, radius);
        let center = first / area;
        let inertia = second - area * center.norm_squared();
        let size = area.sqrt();
        prop_assert!((props.mass - density * area).abs() <= 1e-6 * density * area,
            "mass {} vs {}", props.mass, density * area);
        prop_assert!((MassProperties::area(&shape) - area).abs() <= 1e-6 * area);
        prop_assert!((props.local_center.coords - center).norm() <= 1e-6 * size,
            "centre {:?} vs {center:?}", props.local_center);
        prop_assert!((props.inertia - density * inertia).abs() <= 1e-6 * density * inertia,
            "inertia {} vs {}", props.inertia, density * inertia);
    }
}
