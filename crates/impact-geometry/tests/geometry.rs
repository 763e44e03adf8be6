//! Constructors refuse bad input with the field and value; mass properties equal the closed
//! forms; swept boxes hold every intermediate pose, rotation included.

use core::f64::consts::{FRAC_PI_2, PI};
use impact_geometry::{
    Aabb, Capsule, Circle, ConvexPolygon, GeometryError, Isometry, MassProperties, Point, Segment,
    Shape, Sweep, Vector,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

#[test]
fn bad_shapes_are_refused_with_field_and_value() {
    let msg = |e: GeometryError| e.to_string();
    assert_eq!(
        msg(Circle::new(-1.0).unwrap_err()),
        "circle.radius: must be zero or positive, got -1"
    );
    assert_eq!(
        msg(Circle::new(f64::NAN).unwrap_err()),
        "circle.radius: must be finite, got NaN"
    );
    assert_eq!(
        msg(Circle::with_center(p(f64::INFINITY, 0.0), 1.0).unwrap_err()),
        "circle.center.x: must be finite, got inf"
    );
    assert_eq!(
        msg(Segment::new(p(0.0, 0.0), p(1.0, f64::NAN)).unwrap_err()),
        "segment.b.y: must be finite, got NaN"
    );
    assert_eq!(
        msg(Capsule::new(p(0.0, 0.0), p(1.0, 0.0), -0.5).unwrap_err()),
        "capsule.radius: must be zero or positive, got -0.5"
    );
    assert_eq!(
        msg(Capsule::along_x(-1.0, 0.5).unwrap_err()),
        "capsule.half_length: must be zero or positive, got -1"
    );
    assert_eq!(
        msg(ConvexPolygon::rectangle(1.0, 0.0).unwrap_err()),
        "rectangle.half_height: must be positive, got 0"
    );
    assert_eq!(
        msg(ConvexPolygon::regular(2, 1.0).unwrap_err()),
        "regular.sides: must be between 3 and 1024, got 2"
    );
    assert_eq!(
        msg(ConvexPolygon::regular(5, f64::NAN).unwrap_err()),
        "regular.radius: must be finite, got NaN"
    );
    assert_eq!(
        msg(
            ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 0.0), p(f64::NEG_INFINITY, 1.0)]).unwrap_err()
        ),
        "polygon.vertices[2].x: must be finite, got -inf"
    );
}

#[test]
fn polygons_are_validated() {
    let square = [p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)];
    assert_eq!(ConvexPolygon::new(&square).unwrap().vertices().len(), 4);
    // Clockwise.
    let mut cw = square;
    cw.reverse();
    assert!(matches!(
        ConvexPolygon::new(&cw),
        Err(GeometryError::Clockwise { .. })
    ));
    // A reflex vertex: the error names it by its input index.
    let dart = [
        p(0.0, 0.0),
        p(2.0, 0.0),
        p(1.0, 0.5),
        p(2.0, 2.0),
        p(0.0, 2.0),
    ];
    assert_eq!(
        ConvexPolygon::new(&dart).unwrap_err(),
        GeometryError::NotConvex {
            field: "polygon.vertices".into(),
            index: 2
        }
    );
    // Collinear and duplicate points are dropped, not errors.
    let noisy = [
        p(0.0, 0.0),
        p(0.5, 0.0),
        p(1.0, 0.0),
        p(1.0, 0.0),
        p(1.0, 1.0),
        p(0.0, 1.0),
    ];
    assert_eq!(ConvexPolygon::new(&noisy).unwrap().vertices(), &square);
    // Near-duplicates and near-collinear points (relative to the polygon's size) are welded,
    // so no edge can collapse under the rounding of a rotation (found by fuzzing GJK).
    let fuzzed = [
        p(-2.0, -2.0),
        p(-1.9999999999997626, -2.0),
        p(-1.9989101890756302, -1.9999999999997626),
        p(-1.9989101890756302, -1.9999999999997624),
        p(-2.0, -1.9989100864955358),
    ];
    let welded = ConvexPolygon::new(&fuzzed).unwrap();
    assert_eq!(welded.vertices().len(), 3, "{:?}", welded.vertices());
    // A sliver thinner than the weld tolerance is degenerate.
    assert!(matches!(
        ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 0.0), p(0.5, 1e-11)]),
        Err(GeometryError::TooFewVertices { .. })
    ));
    // Degenerate: all on a line, or too few points.
    assert!(matches!(
        ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 1.0), p(2.0, 2.0)]),
        Err(GeometryError::TooFewVertices { count: 2, .. })
    ));
    assert!(matches!(
        ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 0.0)]),
        Err(GeometryError::TooFewVertices { .. })
    ));
    // A pentagram turns left at every vertex but winds twice.
    let star: Vec<Point> = (0..5)
        .map(|i| {
            let a = FRAC_PI_2 + 2.0 * (2.0 * PI / 5.0) * i as f64;
            p(a.cos(), a.sin())
        })
        .collect();
    assert!(matches!(
        ConvexPolygon::new(&star),
        Err(GeometryError::NotConvex { .. })
    ));
    // The hull constructor accepts any order and interior points.
    let cloud = [
        p(0.5, 0.5),
        p(1.0, 1.0),
        p(0.0, 0.0),
        p(0.0, 1.0),
        p(1.0, 0.0),
        p(0.2, 0.7),
    ];
    assert_eq!(
        ConvexPolygon::from_convex_hull(&cloud).unwrap().vertices(),
        &square
    );
    // Outward unit normals, one per edge.
    let normals = ConvexPolygon::rectangle(1.0, 2.0)
        .unwrap()
        .normals()
        .to_vec();
    assert_eq!(
        normals,
        vec![
            Vector::new(0.0, -1.0),
            Vector::new(1.0, 0.0),
            Vector::new(0.0, 1.0),
            Vector::new(-1.0, 0.0)
        ]
    );
}

fn close(a: f64, b: f64) {
    assert!(
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0),
        "{a} != {b}"
    );
}

#[test]
fn mass_properties_match_the_closed_forms() {
    let density = 2.5;
    // Disc: m r^2 / 2.
    let disc = Shape::from(Circle::with_center(p(1.0, -2.0), 0.7).unwrap())
        .mass_properties(density)
        .unwrap();
    let m = density * PI * 0.49;
    close(disc.mass, m);
    close(disc.inertia, 0.5 * m * 0.49);
    assert_eq!(disc.local_center, p(1.0, -2.0));
    // Rectangle w x h: m (w^2 + h^2) / 12, wherever it sits.
    let (w, h) = (3.0, 0.4);
    let rect = ConvexPolygon::new(&[
        p(10.0, 5.0),
        p(10.0 + w, 5.0),
        p(10.0 + w, 5.0 + h),
        p(10.0, 5.0 + h),
    ])
    .unwrap();
    let props = Shape::from(rect).mass_properties(density).unwrap();
    let m = density * w * h;
    close(props.mass, m);
    close(props.inertia, m * (w * w + h * h) / 12.0);
    close(props.local_center.x, 10.0 + w / 2.0);
    close(props.local_center.y, 5.0 + h / 2.0);
    // Right triangle with legs a, b: I about the centroid = m (a^2 + b^2) / 18.
    let tri = ConvexPolygon::new(&[p(0.0, 0.0), p(3.0, 0.0), p(0.0, 2.0)]).unwrap();
    let props = Shape::from(tri).mass_properties(1.0).unwrap();
    close(props.mass, 3.0);
    close(props.inertia, 3.0 * (9.0 + 4.0) / 18.0);
    // A regular polygon with many sides approaches the disc.
    let many = Shape::from(ConvexPolygon::regular(1024, 1.0).unwrap())
        .mass_properties(1.0)
        .unwrap();
    assert!((many.inertia - 0.5 * PI).abs() < 1e-4);
    // Segments have no area.
    assert_eq!(
        Shape::from(Segment::new(p(0.0, 0.0), p(2.0, 0.0)).unwrap())
            .mass_properties(1.0)
            .unwrap()
            .mass,
        0.0
    );
    // Bad density.
    assert_eq!(
        Shape::from(Circle::new(1.0).unwrap())
            .mass_properties(-1.0)
            .unwrap_err()
            .to_string(),
        "density: must be zero or positive, got -1"
    );
}

#[test]
fn capsule_mass_matches_numerical_integration() {
    // Integrate r^2 over the capsule on a fine grid: an oracle independent of the derivation.
    let (half, r) = (1.3, 0.45);
    let capsule = Capsule::along_x(half, r).unwrap();
    let props = Shape::from(capsule).mass_properties(1.0).unwrap();
    let n = 2000;
    let (x0, x1, y0, y1) = (-half - r, half + r, -r, r);
    let (dx, dy) = ((x1 - x0) / n as f64, (y1 - y0) / n as f64);
    let (mut area, mut second) = (0.0, 0.0);
    for i in 0..n {
        for j in 0..n {
            let x = x0 + (i as f64 + 0.5) * dx;
            let y = y0 + (j as f64 + 0.5) * dy;
            let cx = x.clamp(-half, half);
            if (x - cx).powi(2) + y * y <= r * r {
                area += dx * dy;
                second += (x * x + y * y) * dx * dy;
            }
        }
    }
    assert!((props.mass - area).abs() < 1e-4 * area);
    assert!((props.inertia - second).abs() < 1e-3 * second);
    assert!((MassProperties::area(&Shape::from(capsule)) - props.mass).abs() < 1e-12);
}

/// Each bad number of a sweep is named, the first in the order of the arguments when
/// several are bad, whatever the others hold.
#[test]
fn a_sweep_names_its_first_bad_number() {
    let fields = [
        "sweep.start.translation.x",
        "sweep.start.translation.y",
        "sweep.start.rotation.re",
        "sweep.start.rotation.im",
        "sweep.local_center.x",
        "sweep.local_center.y",
        "sweep.linvel.x",
        "sweep.linvel.y",
        "sweep.angvel",
        "sweep.dt",
    ];
    let good = [0.5, -2.0, 1.0, 0.0, 0.25, 0.0, 3.0, -1.0, 2.0, 0.5];
    let build = |n: &[f64; 10]| {
        let mut start = Isometry::new(Vector::new(n[0], n[1]), 0.0);
        start.rotation = impact_geometry::nalgebra::UnitComplex::new_unchecked(
            impact_geometry::nalgebra::Complex::new(n[2], n[3]),
        );
        Sweep::new(
            start,
            Point::new(n[4], n[5]),
            Vector::new(n[6], n[7]),
            n[8],
            n[9],
        )
    };
    assert!(build(&good).is_ok());
    for (i, field) in fields.iter().enumerate() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut n = good;
            n[i] = bad;
            // A later bad number does not change which is named.
            if i + 1 < n.len() {
                n[n.len() - 1] = -1.0;
            }
            let message = build(&n).unwrap_err().to_string();
            assert!(
                message.starts_with(&format!("{field}:")),
                "{field}: {message}"
            );
        }
    }
    let mut n = good;
    n[9] = -0.5;
    assert_eq!(
        build(&n).unwrap_err().to_string(),
        "sweep.dt: must be positive, got -0.5"
    );
}

#[test]
fn sweeps_validate_and_interpolate() {
    assert_eq!(
        Sweep::new(
            Isometry::identity(),
            Point::origin(),
            Vector::zeros(),
            0.0,
            0.0
        )
        .unwrap_err()
        .to_string(),
        "sweep.dt: must be positive, got 0"
    );
    assert!(
        Sweep::new(
            Isometry::identity(),
            Point::origin(),
            Vector::new(f64::NAN, 0.0),
            0.0,
            1.0
        )
        .unwrap_err()
        .to_string()
        .starts_with("sweep.linvel.x")
    );
    assert!(
        Sweep::new(
            Isometry::identity(),
            Point::origin(),
            Vector::zeros(),
            f64::INFINITY,
            1.0
        )
        .is_err()
    );
    // A body rotating about its centre of mass (1, 0) in the body frame: the centre moves on
    // a line, the body origin circles around it.
    let sweep = Sweep::new(
        Isometry::identity(),
        p(1.0, 0.0),
        Vector::new(2.0, 0.0),
        PI,
        0.5,
    )
    .unwrap();
    let end = sweep.pose_at(1.0);
    assert!((end.rotation.angle() - FRAC_PI_2).abs() < 1e-15);
    assert!((end * p(1.0, 0.0) - p(2.0, 0.0)).norm() < 1e-15);
    assert!((end * Point::origin() - p(2.0, -1.0)).norm() < 1e-15);
    // Several turns per step are kept (no wrapping).
    let spinning = Sweep::new(
        Isometry::identity(),
        Point::origin(),
        Vector::zeros(),
        100.0,
        0.1,
    )
    .unwrap();
    assert!((spinning.angle_at(1.0) - 10.0).abs() < 1e-15);
    // Translation keeps the orientation bit for bit.
    let slide = Sweep::translating(
        Isometry::new(Vector::new(1.0, 1.0), 0.3),
        Vector::new(3.0, 0.0),
    )
    .unwrap();
    assert_eq!(slide.pose_at(0.5).rotation, slide.start().rotation);
    // The remainder of a sweep continues the same motion.
    let rest = sweep.remainder_from(0.25).unwrap();
    assert!((rest.pose_at(1.0).translation.vector - end.translation.vector).norm() < 1e-14);
}

#[test]
fn aabb_operations() {
    let a = Aabb::new(p(0.0, 0.0), p(1.0, 1.0));
    let b = Aabb::new(p(1.0, 0.5), p(2.0, 2.0));
    assert!(a.intersects(&b), "touching counts");
    assert!(!a.intersects(&Aabb::new(p(1.1, 0.0), p(2.0, 1.0))));
    assert_eq!(a.merged(&b), Aabb::new(p(0.0, 0.0), p(2.0, 2.0)));
    assert!(a.merged(&b).contains(&a));
    assert_eq!(a.inflated(0.5), Aabb::new(p(-0.5, -0.5), p(1.5, 1.5)));
    let capsule = Shape::from(Capsule::along_x(1.0, 0.5).unwrap());
    assert_eq!(
        capsule
            .aabb(&Isometry::new(Vector::new(2.0, 0.0), FRAC_PI_2))
            .maxs
            .y,
        1.5
    );
}

fn shape_strategy() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0.0..2.0f64, -1.0..1.0f64, -1.0..1.0f64).prop_map(|(r, x, y)| Circle::with_center(
            p(x, y),
            r
        )
        .unwrap()
        .into()),
        (-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64)
            .prop_map(|(a, b, c, d)| Segment::new(p(a, b), p(c, d)).unwrap().into()),
        (-2.0..2.0f64, -2.0..2.0f64, 0.0..1.0f64).prop_map(|(a, b, r)| Capsule::new(
            p(a, b),
            p(-b, a),
            r
        )
        .unwrap()
        .into()),
        (3..9usize, 0.1..3.0f64).prop_map(|(n, r)| ConvexPolygon::regular(n, r).unwrap().into()),
        (3..9usize, 0.1..3.0f64, 0.0..1.0f64).prop_map(|(n, r, round)| ConvexPolygon::regular(
            n, r
        )
        .unwrap()
        .with_radius(round)
        .unwrap()
        .into()),
    ]
}

/// A long paddle turning a few degrees sweeps a thin fan: its swept box is a few widths
/// wide, not the square of its bounding disc (Box2D's spinner: a rounded box 40.4 long and
/// 1.2 wide turning 5 rad/s about its middle, 1/60 s).
#[test]
fn a_turning_paddle_sweeps_a_thin_box() {
    let paddle: Shape = ConvexPolygon::rounded(
        &[p(-0.4, -20.0), p(0.4, -20.0), p(0.4, 20.0), p(-0.4, 20.0)],
        0.2,
    )
    .unwrap()
    .into();
    let sweep = Sweep::new(
        Isometry::new(Vector::new(0.0, 12.0), 0.0),
        p(0.0, 0.0),
        Vector::zeros(),
        5.0,
        1.0 / 60.0,
    )
    .unwrap();
    let (swept, disc) = (
        Aabb::swept(&paddle, &sweep),
        Aabb::swept_in_disc(&paddle, &sweep),
    );
    let width = swept.maxs.x - swept.mins.x;
    // Its start width, 1.2, grown on each side by the farthest a point turns: its bounding
    // radius 20.2 times 5 / 60.
    assert!(width < 1.2 + 2.0 * 20.21 * 5.0 / 60.0, "{width}");
    // Along its length, its bounding disc's box, 2 * 20.2 high.
    let height = swept.maxs.y - swept.mins.y;
    assert!((40.4..40.41).contains(&height), "{height}");
    assert!(disc.maxs.x - disc.mins.x > 40.0);
}

proptest! {
    #![proptest_config(Config { cases: 3000, rng_seed: RngSeed::Fixed(7), failure_persistence: None, ..Config::default() })]
    /// The swept box holds the shape's box at every sampled pose, for any rotation, including
    /// several turns per step and centres of mass away from the body origin.
    #[test]
    fn swept_aabb_is_conservative(
        shape in shape_strategy(),
        (x, y, angle) in (-100.0..100.0f64, -100.0..100.0f64, -7.0..7.0f64),
        (vx, vy) in (-500.0..500.0f64, -500.0..500.0f64),
        angvel in prop_oneof![Just(0.0), -300.0..300.0f64],
        (cx, cy) in (-1.0..1.0f64, -1.0..1.0f64),
    ) {
        let sweep = Sweep::new(Isometry::new(Vector::new(x, y), angle), p(cx, cy), Vector::new(vx, vy), angvel, 1.0 / 60.0).unwrap();
        let swept = Aabb::swept(&shape, &sweep);
        for i in 0..=256 {
            let t = i as f64 / 256.0;
            let aabb = shape.aabb(&sweep.pose_at(t));
            prop_assert!(swept.contains(&aabb), "t = {t}: {aabb:?} outside {swept:?}");
        }
    }

    /// The swept box is never larger than the box of the bounding disc's path, which holds
    /// every pose too (`swept_aabb_is_conservative` checks both against sampled poses).
    #[test]
    fn swept_aabb_is_within_the_disc_box(
        shape in shape_strategy(),
        (x, y, angle) in (-100.0..100.0f64, -100.0..100.0f64, -7.0..7.0f64),
        (vx, vy) in (-500.0..500.0f64, -500.0..500.0f64),
        angvel in -300.0..300.0f64,
        (cx, cy) in (-1.0..1.0f64, -1.0..1.0f64),
    ) {
        let sweep = Sweep::new(Isometry::new(Vector::new(x, y), angle), p(cx, cy), Vector::new(vx, vy), angvel, 1.0 / 60.0).unwrap();
        let (swept, disc) = (Aabb::swept(&shape, &sweep), Aabb::swept_in_disc(&shape, &sweep));
        prop_assert!(disc.contains(&swept), "{swept:?} outside {disc:?}");
        for i in 0..=256 {
            let aabb = shape.aabb(&sweep.pose_at(i as f64 / 256.0));
            prop_assert!(disc.contains(&aabb));
        }
    }

    /// A sweep that does not move has the box of its one pose: `Aabb::still` is `Aabb::swept`
    /// to the sign of a zero, which `==` on coordinates does not see.
    #[test]
    fn a_still_sweep_has_the_box_of_its_pose(
        shape in shape_strategy(),
        (x, y, angle) in (-100.0..100.0f64, -100.0..100.0f64, -7.0..7.0f64),
        (cx, cy) in (-1.0..1.0f64, -1.0..1.0f64),
    ) {
        let pose = Isometry::new(Vector::new(x, y), angle);
        let sweep = Sweep::new(pose, p(cx, cy), Vector::zeros(), 0.0, 1.0 / 60.0).unwrap();
        prop_assert_eq!(Aabb::still(&shape, &pose), Aabb::swept(&shape, &sweep));
    }

    /// The shape's box holds every core vertex pushed out by the radius in every direction.
    #[test]
    fn shape_aabb_is_tight_and_conservative(shape in shape_strategy(), angle in -7.0..7.0f64) {
        let pose = Isometry::new(Vector::new(3.0, -4.0), angle);
        let aabb = shape.aabb(&pose);
        let r = shape.radius();
        for c in shape.core() {
            let w = pose * c;
            prop_assert!(aabb.contains_point(&(w + Vector::new(r, r) * (1.0 - 1e-12))));
            prop_assert!(aabb.contains_point(&(w - Vector::new(r, r) * (1.0 - 1e-12))));
        }
        let xs: Vec<f64> = shape.core().iter().map(|c| (pose * c).x).collect();
        let max_x = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max) + r;
        prop_assert!((aabb.maxs.x - max_x).abs() < 1e-12);
    }
}

#[test]
fn a_rectangle_lies_in_the_strip_of_its_long_sides() {
    let strip = *ConvexPolygon::rectangle(2.0, 0.1).unwrap().strip();
    assert_eq!(strip.normal.x, 0.0);
    assert_eq!(strip.normal.y.abs(), 1.0);
    assert!(strip.middle.abs() < 1e-15 && (strip.half_width - 0.1).abs() < 1e-15);
    let capsule: Shape = Capsule::new(p(1.0, 1.0), p(3.0, 3.0), 0.25).unwrap().into();
    let strip = capsule.strip().unwrap();
    assert!((strip.half_width - 0.25).abs() < 1e-15);
    assert!(
        strip.middle.abs() < 1e-15,
        "the axis passes through the origin"
    );
    let circle: Shape = Circle::new(1.0).unwrap().into();
    assert_eq!(circle.strip(), None);
}

fn hull_strategy() -> impl Strategy<Value = Shape> {
    prop_oneof![
        proptest::collection::vec((-3.0..3.0f64, -1.0..1.0f64), 3..24).prop_filter_map(
            "degenerate hull",
            |points| {
                let points: Vec<Point> = points.into_iter().map(|(x, y)| p(x, y)).collect();
                ConvexPolygon::from_convex_hull(&points)
                    .ok()
                    .map(Shape::from)
            }
        ),
        (0.01..3.0f64, 0.01..3.0f64)
            .prop_map(|(w, h)| ConvexPolygon::rectangle(w, h).unwrap().into()),
        (0.01..3.0f64, 0.01..3.0f64, 0.0..2.0f64).prop_map(|(w, h, r)| ConvexPolygon::rectangle(
            w, h
        )
        .unwrap()
        .with_radius(r)
        .unwrap()
        .into()),
        shape_strategy(),
    ]
}

proptest! {
    #![proptest_config(Config { cases: 3000, rng_seed: RngSeed::Fixed(11), failure_persistence: None, ..Config::default() })]
    /// The strip holds the whole shape (every core point pushed out by the radius), and no
    /// direction of 3,600 gives a narrower one: it is the narrowest.
    #[test]
    fn the_strip_is_the_narrowest_that_holds_the_shape(shape in hull_strategy()) {
        let Some(strip) = shape.strip() else {
            prop_assert!(matches!(shape, Shape::Circle(_)) || shape.core()[0] == shape.core()[1]);
            return Ok(());
        };
        prop_assert!((strip.normal.norm() - 1.0).abs() < 1e-12);
        let r = shape.radius();
        let scale = 1e-12 * (1.0 + shape.bounding_radius(&Point::origin()));
        for c in shape.core() {
            let height = strip.normal.dot(&c.coords) - strip.middle;
            prop_assert!(height.abs() + r <= strip.half_width + scale, "{c:?} sticks out of {strip:?}");
        }
        for i in 0..3_600 {
            let angle = PI * i as f64 / 3_600.0;
            let n = Vector::new(angle.cos(), angle.sin());
            let heights = shape.core().iter().map(|c| n.dot(&c.coords));
            let top = heights.clone().fold(f64::NEG_INFINITY, f64::max);
            let bottom = heights.fold(f64::INFINITY, f64::min);
            let half = 0.5 * (top - bottom) + r;
            prop_assert!(strip.half_width <= half + scale, "angle {angle}: {half} < {strip:?}");
        }
    }
}
