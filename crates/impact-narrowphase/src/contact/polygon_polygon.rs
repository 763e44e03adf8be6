//! Contact between two convex polygons: the shared clipping of two cores with edges (see
//! [`super::clipping`]), with boxes read into fixed-size arrays.

use super::clipping::{collide_rounded, collide_rounded_any};
use super::manifold::Manifold;
use super::rounded_core::{Core, Quad, Rounded};
use impact_geometry::{ConvexPolygon, Isometry, Real};

/// The manifold of polygons `a` and `b`, sharp or rounded (normal from A to B).
pub fn contact_polygon_polygon(
    a: &ConvexPolygon,
    pose_a: &Isometry,
    b: &ConvexPolygon,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    if let (Some(qa), Some(qb)) = (Quad::new(a, pose_a), Quad::new(b, pose_b)) {
        return collide_rounded(&qa, &qb, speculative_distance);
    }
    let (mut pa, mut pb) = (Rounded::empty(), Rounded::empty());
    pa.set_polygon(a, pose_a);
    pb.set_polygon(b, pose_b);
    collide_rounded(&pa, &pb, speculative_distance)
}

/// The manifold of core `a` (a point, a segment or a polygon) and polygon `b` at `pose_b`
/// (normal from A to B): a box's core in fixed arrays ([`Quad`]), any other polygon's filled
/// from its stored normals ([`Rounded::set_polygon`]); both are the core [`Rounded::new`]
/// makes, bit for bit, without its square root per edge.
pub(crate) fn collide_with_polygon<A: Core>(
    a: &A,
    b: &ConvexPolygon,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    if let Some(qb) = Quad::new(b, pose_b) {
        return collide_rounded_any(a, &qb, speculative_distance);
    }
    let mut pb = Rounded::empty();
    pb.set_polygon(b, pose_b);
    collide_rounded_any(a, &pb, speculative_distance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::{Point, Vector};

    #[test]
    fn a_box_resting_on_a_box_has_two_points() {
        let ground = ConvexPolygon::rectangle(5.0, 0.5).unwrap();
        let crate_ = ConvexPolygon::rectangle(0.5, 0.5).unwrap();
        let m = contact_polygon_polygon(
            &ground,
            &Isometry::identity(),
            &crate_,
            &Isometry::translation(1.0, 0.99),
            0.02,
        );
        assert_eq!(m.normal, Vector::new(0.0, 1.0));
        assert_eq!(m.points().len(), 2);
        for p in m.points() {
            assert!((p.separation + 0.01).abs() < 1e-15);
            assert!((p.point.y - 0.495).abs() < 1e-15);
        }
        let xs: Vec<f64> = m.points().iter().map(|p| p.point.x).collect();
        assert!(xs.contains(&0.5) && xs.contains(&1.5), "{xs:?}");
        // The ids are stable from one step to the next.
        let again = contact_polygon_polygon(
            &ground,
            &Isometry::identity(),
            &crate_,
            &Isometry::translation(1.01, 0.985),
            0.02,
        );
        assert_eq!(m.points()[0].id, again.points()[0].id);
        assert_eq!(m.points()[1].id, again.points()[1].id);
    }

    #[test]
    fn four_cornered_polygons_take_the_fixed_size_path_bit_for_bit() {
        // The Quad path must give exactly the manifold of the general path, overlapping,
        // apart, corner to corner and flipped, or every golden hash would move.
        let shapes = [
            ConvexPolygon::rectangle(0.5, 0.5).unwrap(),
            ConvexPolygon::rectangle(2.0, 0.1).unwrap(),
            ConvexPolygon::new(&[
                Point::new(0.0, 0.0),
                Point::new(1.0, -0.2),
                Point::new(1.3, 0.9),
                Point::new(-0.1, 0.7),
            ])
            .unwrap(),
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as Real / (1u64 << 53) as Real
        };
        let mut compared = 0;
        for a in &shapes {
            for b in &shapes {
                for _ in 0..300 {
                    let pose_a = Isometry::new(Vector::new(next(), next()), 6.0 * next());
                    let pose_b = Isometry::new(
                        Vector::new(2.5 * next() - 0.5, 2.5 * next() - 0.5),
                        6.0 * next(),
                    );
                    let speculative = 0.1 * next();
                    let (qa, qb) = (
                        Quad::new(a, &pose_a).unwrap(),
                        Quad::new(b, &pose_b).unwrap(),
                    );
                    let (mut ra, mut rb) = (Rounded::empty(), Rounded::empty());
                    ra.set_polygon(a, &pose_a);
                    rb.set_polygon(b, &pose_b);
                    let fast = collide_rounded(&qa, &qb, speculative);
                    let general = collide_rounded(&ra, &rb, speculative);
                    assert_eq!(fast, general);
                    assert_eq!(fast.normal.x.to_bits(), general.normal.x.to_bits());
                    compared += usize::from(!fast.is_empty());
                }
            }
        }
        assert!(compared > 500, "{compared} manifolds compared");
    }

    #[test]
    fn tilted_box_and_corner_to_corner() {
        let ground = ConvexPolygon::rectangle(5.0, 0.5).unwrap();
        let crate_ = ConvexPolygon::rectangle(0.5, 0.5).unwrap();
        // Tilted by 0.3 rad, its lowest corner 0.02 into the ground: one point.
        let angle: f64 = 0.3;
        let lowest = 0.5 * (angle.cos() + angle.sin());
        let m = contact_polygon_polygon(
            &ground,
            &Isometry::identity(),
            &crate_,
            &Isometry::new(Vector::new(0.0, 0.5 + lowest - 0.02), angle),
            0.0,
        );
        assert_eq!(m.points().len(), 1);
        assert!((m.points()[0].separation + 0.02).abs() < 1e-12);
        // Two boxes corner to corner, 0.01 apart along the diagonal.
        let d = 0.01 / 2f64.sqrt();
        let m = contact_polygon_polygon(
            &crate_,
            &Isometry::identity(),
            &crate_,
            &Isometry::translation(1.0 + d, 1.0 + d),
            0.02,
        );
        assert_eq!(m.points().len(), 1);
        assert!((m.normal - Vector::new(1.0, 1.0) / 2f64.sqrt()).norm() < 1e-12);
        assert!((m.points()[0].separation - 0.01).abs() < 1e-12);
    }

    proptest::proptest! {
        /// A circle, a capsule and a segment against any convex polygon (three to eight
        /// corners, sharp or rounded), at any poses: the same manifold, bit for bit, as the
        /// polygon's core made by `Rounded::new` gives (its normals computed from the
        /// corners, one square root per edge).
        #[test]
        fn round_and_segment_kernels_take_the_polygon_core_bit_for_bit(
            corners in proptest::collection::vec((0.0..core::f64::consts::TAU, 0.2..1.5), 3..9),
            rounding in proptest::prop_oneof![proptest::strategy::Just(0.0), 0.0..0.3],
            (x, y, angle) in (-2.0..2.0, -2.0..2.0, -4.0..4.0),
            (ax, ay, a_angle) in (-0.5..0.5, -0.5..0.5, -4.0..4.0),
            (half, radius, speculative) in (0.0..1.0 as Real, 0.01..0.5 as Real, 0.0..0.2 as Real),
        ) {
            use super::super::point_core::rounded_versus_point;
            use super::super::{contact_capsule_polygon, contact_circle_polygon, contact_segment_polygon};
            use super::super::rounded_core::SegmentCore;
            use impact_geometry::{Capsule, Circle, Segment};
            let points: Vec<Point> = corners
                .iter()
                .map(|&(t, r): &(Real, Real)| Point::new(r * t.cos(), r * t.sin()))
                .collect();
            let Ok(polygon) = ConvexPolygon::from_convex_hull(&points)
                .and_then(|p| p.with_radius(rounding))
            else {
                return Ok(());
            };
            let pose_b = Isometry::new(Vector::new(x, y), angle);
            let pose_a = Isometry::new(Vector::new(ax, ay), a_angle);
            let core_b = Rounded::new(polygon.core(), polygon.radius(), &pose_b);
            let (p, q) = (Point::new(-half, 0.0), Point::new(half, 0.1 * half));
            let expect_same = |fast: Manifold, slow: Manifold| -> Result<(), proptest::test_runner::TestCaseError> {
                proptest::prop_assert_eq!(fast, slow);
                proptest::prop_assert_eq!(fast.normal.x.to_bits(), slow.normal.x.to_bits());
                proptest::prop_assert_eq!(fast.normal.y.to_bits(), slow.normal.y.to_bits());
                Ok(())
            };
            let capsule = Capsule::new(p, q, radius).expect("a capsule");
            let core_a = SegmentCore::new(capsule.core(), capsule.radius(), &pose_a);
            expect_same(
                contact_capsule_polygon(&capsule, &pose_a, &polygon, &pose_b, speculative),
                collide_rounded_any(&core_a, &core_b, speculative),
            )?;
            if half > 0.0 {
                let segment = Segment::new(p, q).expect("a segment");
                let core_a = SegmentCore::new(segment.core(), 0.0, &pose_a);
                expect_same(
                    contact_segment_polygon(&segment, &pose_a, &polygon, &pose_b, speculative),
                    collide_rounded_any(&core_a, &core_b, speculative),
                )?;
            }
            let circle = Circle::new(radius).expect("a circle");
            let center = (pose_a * circle.center()).coords;
            expect_same(
                contact_circle_polygon(&circle, &pose_a, &polygon, &pose_b, speculative),
                rounded_versus_point(&core_b, center, radius, speculative).swapped(),
            )?;
        }
    }
}
