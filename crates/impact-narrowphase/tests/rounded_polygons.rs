//! Rounded polygons: hand-computed answers for each pair (a rounded box against a disc, a
//! segment, a capsule, a box and another rounded box), and, on random shapes, the exact
//! distance as the cores' distance less the radii and ray casts against a brute-force oracle
//! (`support::point_gap`, every point against every edge). The pair properties of
//! `toi_properties.rs`, `queries.rs`, `contacts.rs` and `rotating_toi.rs` cover them against
//! every kind too.

mod support;

use impact_geometry::{
    Capsule, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Sweep, Vector,
};
use impact_narrowphase::ray::{Ray, cast_ray};
use impact_narrowphase::{Toi, ToiOptions, contact_manifold, distance, time_of_impact};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use support::{Kind, point_gap, spec};

fn p(x: Real, y: Real) -> Point {
    Point::new(x, y)
}

/// A box of core 2 x 1 rounded by 0.25: its outline reaches 1.25 along x and 0.75 along y.
fn rounded_box() -> Shape {
    ConvexPolygon::rectangle(1.0, 0.5)
        .unwrap()
        .with_radius(0.25)
        .unwrap()
        .into()
}

fn resting(x: Real, y: Real) -> Sweep {
    Sweep::stationary(Isometry::translation(x, y)).unwrap()
}

fn moving(x: Real, y: Real, dx: Real, dy: Real) -> Sweep {
    Sweep::translating(Isometry::translation(x, y), Vector::new(dx, dy)).unwrap()
}

fn hit(toi: Toi) -> impact_narrowphase::Hit {
    match toi {
        Toi::Hit(h) => h,
        other => panic!("expected a hit, got {other:?}"),
    }
}

fn close(a: Real, b: Real) {
    assert!((a - b).abs() <= 1e-12, "{a} != {b}");
}

#[test]
fn each_pair_meets_the_rounded_outline() {
    let exact = ToiOptions::exact();
    let block = rounded_box();
    // A disc of radius 0.5 down onto the flat top (0.75): its centre stops at 1.25.
    let disc: Shape = Circle::new(0.5).unwrap().into();
    let h = hit(time_of_impact(
        &disc,
        &moving(0.3, 3.25, 0.0, -4.0),
        &block,
        &resting(0.0, 0.0),
        &exact,
    ));
    close(h.fraction, 0.5);
    assert_eq!(h.normal, Vector::new(0.0, -1.0));
    // The same disc along the diagonal onto the round at the corner (1, 0.5): its centre
    // stops 0.75 from the corner.
    let s = core::f64::consts::FRAC_1_SQRT_2;
    let h = hit(time_of_impact(
        &disc,
        &moving(1.0 + 3.0 * s, 0.5 + 3.0 * s, -4.0 * s, -4.0 * s),
        &block,
        &resting(0.0, 0.0),
        &exact,
    ));
    close(h.fraction, (3.0 - 0.75) / 4.0);
    assert!((h.normal - Vector::new(-s, -s)).norm() < 1e-12);
    // A ground segment: the box's bottom (-0.75) lands on y = 0 from 2.75.
    let ground: Shape = Segment::new(p(-5.0, 0.0), p(5.0, 0.0)).unwrap().into();
    let h = hit(time_of_impact(
        &ground,
        &resting(0.0, 0.0),
        &block,
        &moving(0.0, 2.75, 0.0, -4.0),
        &exact,
    ));
    close(h.fraction, 0.5);
    // A capsule of radius 0.1 standing on end: its cap's bottom lands on the top.
    let post: Shape = Capsule::new(p(0.0, 0.0), p(0.0, 1.0), 0.1).unwrap().into();
    let h = hit(time_of_impact(
        &block,
        &resting(0.0, 0.0),
        &post,
        &moving(0.5, 2.85, 0.0, -4.0),
        &exact,
    ));
    close(h.fraction, 0.5);
    // A sharp box and another rounded box side by side: x gaps close at 4 per step.
    let sharp: Shape = ConvexPolygon::rectangle(0.5, 0.5).unwrap().into();
    let h = hit(time_of_impact(
        &block,
        &resting(0.0, 0.0),
        &sharp,
        &moving(3.75, 0.0, -4.0, 0.0),
        &exact,
    ));
    close(h.fraction, 0.5);
    let h = hit(time_of_impact(
        &block,
        &resting(0.0, 0.0),
        &block,
        &moving(4.5, 0.0, -4.0, 0.0),
        &exact,
    ));
    close(h.fraction, 0.5);
    assert_eq!(h.normal, Vector::new(1.0, 0.0));
    // With a target separation of 0.1 the same boxes stop 0.1 apart.
    let target = ToiOptions::exact().with_target_separation(0.1).unwrap();
    let h = hit(time_of_impact(
        &block,
        &resting(0.0, 0.0),
        &block,
        &moving(4.5, 0.0, -4.0, 0.0),
        &target,
    ));
    close(h.fraction, 0.475);
}

#[test]
fn a_rounded_box_rests_on_two_points_of_its_flat_side() {
    let block = rounded_box();
    let ground: Shape = ConvexPolygon::rectangle(5.0, 0.5).unwrap().into();
    // Its bottom 0.01 into the ground's top (0.5): the core's bottom at 0.5 + 0.25 - 0.01.
    let pose = Isometry::translation(1.0, 0.5 + 0.75 - 0.01);
    let m = contact_manifold(&ground, &Isometry::identity(), &block, &pose, 0.02);
    assert_eq!(m.normal, Vector::new(0.0, 1.0));
    assert_eq!(m.points().len(), 2);
    for point in m.points() {
        close(point.separation, -0.01);
        // Midway between the surfaces.
        close(point.point.y, 0.495);
    }
    let mut xs: Vec<Real> = m.points().iter().map(|q| q.point.x).collect();
    xs.sort_by(Real::total_cmp);
    close(xs[0], 0.0);
    close(xs[1], 2.0);
    // Tipped onto its round corner (1, -0.5) of the core, 0.01 into the ground: one point.
    let angle: Real = 0.4;
    let tipped = Isometry::new(Vector::zeros(), angle);
    let lowest = (tipped * p(1.0, -0.5)).y.min((tipped * p(-1.0, -0.5)).y);
    let pose = Isometry::new(Vector::new(0.0, 0.5 - lowest + 0.25 - 0.01), angle);
    let m = contact_manifold(&ground, &Isometry::identity(), &block, &pose, 0.0);
    assert_eq!(m.points().len(), 1);
    assert!((m.points()[0].separation + 0.01).abs() < 1e-12);
}

/// The first fraction of `ray` (up to 1) in `shape` at `pose` by the brute-force gap: 4,000
/// samples, then bisection. `None` if no sample is inside.
fn first_inside(shape: &Shape, pose: &Isometry, ray: &Ray) -> Option<Real> {
    let inside = |t: Real| point_gap(&ray.point_at(t), shape, pose) <= 0.0;
    let n = 4_000;
    let first = (0..=n).find(|&i| inside(i as Real / n as Real))?;
    if first == 0 {
        return Some(0.0);
    }
    let (mut lo, mut hi) = ((first - 1) as Real / n as Real, first as Real / n as Real);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if inside(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

proptest! {
    #![proptest_config(Config { cases: 3_000, rng_seed: RngSeed::Fixed(0x0509), failure_persistence: None, ..Config::default() })]

    /// The exact distance from a rounded polygon to any shape is its core's less the radius.
    #[test]
    fn the_distance_is_the_cores_less_the_radius(
        sa in spec(Kind::RoundedPolygon),
        sb in prop_oneof![spec(Kind::Circle), spec(Kind::Segment), spec(Kind::Capsule), spec(Kind::Polygon), spec(Kind::RoundedPolygon)],
        (x, y, aa, ab) in (-2.5..2.5f64, -2.5..2.5f64, -3.2..3.2f64, -3.2..3.2f64),
    ) {
        let (a, b) = (sa.build(1.0), sb.build(1.0));
        let Shape::Polygon(rounded) = &a else { unreachable!("a polygon's spec") };
        let sharp = Shape::from(rounded.clone().with_radius(0.0).unwrap());
        let (pa, pb) = (Isometry::rotation(aa), Isometry::new(Vector::new(x, y), ab));
        let d = distance(&a, &pa, &b, &pb);
        let core = distance(&sharp, &pa, &b, &pb);
        prop_assert!((d.distance - (core.distance - rounded.radius())).abs() <= 1e-12);
        prop_assert!((d.normal - core.normal).norm() <= 1e-12);
        // A's point is the core's pushed out along the normal by the radius.
        prop_assert!((d.point_a - (core.point_a + core.normal * rounded.radius())).norm() <= 1e-12);
        // And the brute-force gap agrees where the cores are apart.
        let truth = support::gap(&a, &pa, &b, &pb);
        if core.distance > b.radius() {
            prop_assert!((d.distance - truth).abs() <= 1e-9, "{} vs {truth}", d.distance);
        }
    }

    /// A ray enters a rounded polygon where the brute-force gap first reaches zero, through
    /// the outline with its outward normal there; a hollow cast from inside leaves where the
    /// gap comes back to zero.
    #[test]
    fn rays_meet_the_rounded_outline(
        shape in spec(Kind::RoundedPolygon),
        (x, y, angle) in (-1.0..1.0f64, -1.0..1.0f64, -3.2..3.2f64),
        (ox, oy) in (-4.0..4.0f64, -4.0..4.0f64),
        (ax, ay, reach) in (-2.0..2.0f64, -2.0..2.0f64, 0.2..2.0f64),
    ) {
        let shape = shape.build(1.0);
        let pose = Isometry::new(Vector::new(x, y), angle);
        // Aimed at a point about the shape, reaching short of it or past it.
        let ray = Ray::new(p(ox, oy), (p(ax, ay) - p(ox, oy)) * reach);
        prop_assume!(ray.translation.norm() > 1e-3);
        let cast = cast_ray(&shape, &pose, &ray, 1.0, true);
        let oracle = first_inside(&shape, &pose, &ray);
        let length = ray.translation.norm();
        match (cast, oracle) {
            (Some(h), Some(o)) => {
                prop_assert!((h.fraction - o).abs() * length <= 1e-9, "cast {h:?}, oracle {o}");
                if h.fraction > 0.0 {
                    prop_assert!(point_gap(&h.point, &shape, &pose).abs() <= 1e-9);
                    prop_assert!((h.normal.norm() - 1.0).abs() <= 1e-12);
                    prop_assert!(h.normal.dot(&ray.translation) <= 0.0);
                    // Outward: a step along it leaves the shape by that much.
                    let out = point_gap(&(h.point + h.normal * 1e-4), &shape, &pose);
                    prop_assert!((out - 1e-4).abs() <= 1e-9, "{h:?}: {out}");
                }
            }
            // A graze the samples stepped over, or a touch they caught at rounding.
            (Some(h), None) => prop_assert!(point_gap(&h.point, &shape, &pose).abs() <= 1e-9),
            (None, Some(o)) => prop_assert!(false, "no hit, oracle {o}"),
            (None, None) => {}
        }
        // From inside, hollow: where the gap comes back to zero, with the inward normal.
        if let Some(o) = oracle.filter(|&o| o < 1.0) {
            let start = ray.point_at(o + 1e-3 * (1.0 - o));
            if point_gap(&start, &shape, &pose) < -1e-6 {
                let inner = Ray::new(start, ray.translation);
                if let Some(out) = cast_ray(&shape, &pose, &inner, 1.0, false) {
                    prop_assert!(out.fraction > 0.0);
                    prop_assert!(point_gap(&out.point, &shape, &pose).abs() <= 1e-9, "{out:?}");
                    let back = point_gap(&(out.point - out.normal * 1e-4), &shape, &pose);
                    prop_assert!((back - 1e-4).abs() <= 1e-9, "{out:?}: {back}");
                }
            }
        }
    }
}
