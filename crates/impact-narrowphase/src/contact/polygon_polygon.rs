//! Contact between two convex polygons: the shared clipping of two cores with edges (see
//! [`super::clipping`]), with boxes read into fixed-size arrays.

use super::clipping::collide_rounded;
use super::manifold::Manifold;
use super::rounded_core::{Quad, Rounded};
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
}
