//! Contact between a circle and a convex polygon.

use super::manifold::Manifold;
use super::point_core::rounded_versus_point;
use super::rounded_core::{Quad, Rounded};
use impact_geometry::{Circle, ConvexPolygon, Isometry, Real};

/// The manifold of circle `a` and polygon `b`, sharp or rounded (normal from the circle to the
/// polygon).
pub fn contact_circle_polygon(
    a: &Circle,
    pose_a: &Isometry,
    b: &ConvexPolygon,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    let center = (pose_a * a.center()).coords;
    // The polygon's core as `Rounded::new` makes it, bit for bit (see
    // `polygon_polygon::collide_with_polygon`), without its square root per edge.
    if let Some(quad) = Quad::new(b, pose_b) {
        return rounded_versus_point(&quad, center, a.radius(), speculative_distance).swapped();
    }
    let mut poly = Rounded::empty();
    poly.set_polygon(b, pose_b);
    rounded_versus_point(&poly, center, a.radius(), speculative_distance).swapped()
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::{Point, Vector};

    #[test]
    fn face_vertex_and_inside() {
        let disc = Circle::new(0.5).unwrap();
        let block = ConvexPolygon::rectangle(1.0, 1.0).unwrap();
        // Resting on the top face, 0.1 deep.
        let m = contact_circle_polygon(
            &disc,
            &Isometry::translation(0.3, 1.4),
            &block,
            &Isometry::identity(),
            0.0,
        );
        assert_eq!(m.normal, Vector::new(0.0, -1.0));
        assert!((m.points()[0].separation + 0.1).abs() < 1e-15);
        assert!((m.points()[0].point - Point::new(0.3, 0.95)).norm() < 1e-15);
        // Near the corner (1, 1), beyond both faces: normal along the diagonal.
        let m = contact_circle_polygon(
            &disc,
            &Isometry::translation(1.3, 1.4),
            &block,
            &Isometry::identity(),
            0.0,
        );
        assert!((m.normal - Vector::new(-0.6, -0.8)).norm() < 1e-15);
        assert!((m.points()[0].separation).abs() < 1e-15);
        // Centre inside the block: the shallowest face pushes it out.
        let m = contact_circle_polygon(
            &disc,
            &Isometry::translation(0.8, 0.1),
            &block,
            &Isometry::identity(),
            0.0,
        );
        assert_eq!(m.normal, Vector::new(-1.0, 0.0));
        assert!((m.points()[0].separation + 0.7).abs() < 1e-15);
        // Speculative: 0.05 above the face with a 0.1 margin gives a point, 0.2 above does not.
        let hover = contact_circle_polygon(
            &disc,
            &Isometry::translation(0.0, 1.55),
            &block,
            &Isometry::identity(),
            0.1,
        );
        assert!((hover.points()[0].separation - 0.05).abs() < 1e-15);
        assert!(
            contact_circle_polygon(
                &disc,
                &Isometry::translation(0.0, 1.7),
                &block,
                &Isometry::identity(),
                0.1
            )
            .is_empty()
        );
    }
}
