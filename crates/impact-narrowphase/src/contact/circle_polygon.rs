//! Contact between a circle and a convex polygon; the shared routine for a point core against
//! any core with edges (segments and capsules too).

use super::rounded::Rounded;
use super::{ContactId, ContactPoint, Manifold};
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Vector};

/// Feature number of vertex `i` in a [`ContactId`].
pub(crate) fn vertex_feature(i: usize) -> usize {
    i
}

/// Feature number of edge `i` (from vertex `i` to `i + 1`) in a [`ContactId`].
pub(crate) fn edge_feature(i: usize) -> usize {
    0x100 | i
}

/// The manifold of a rounded core `poly` (A) and a disc of radius `rc` centred at `c` (B):
/// the face of largest separation decides; if the centre lies beyond an end of that face, the
/// nearest feature is the vertex there and the normal points from it to the centre.
pub(crate) fn rounded_versus_point(
    poly: &Rounded,
    c: Vector,
    rc: Real,
    speculative: Real,
) -> Manifold {
    let v = poly.v();
    let radius = poly.radius + rc;
    let point_contact = |vertex: usize| {
        let offset = c - v[vertex];
        let distance = offset.norm();
        let separation = distance - radius;
        if separation > speculative {
            return Manifold::EMPTY;
        }
        let normal = if distance > 0.0 {
            offset / distance
        } else {
            Vector::new(1.0, 0.0)
        };
        Manifold::single(
            normal,
            ContactPoint {
                point: Point::from(v[vertex] + normal * (poly.radius + 0.5 * separation)),
                separation,
                id: ContactId::new(vertex_feature(vertex), 0),
            },
        )
    };
    if v.len() == 1 {
        return point_contact(0);
    }
    let normals = poly.n();
    let m = v.len();
    let (mut face, mut face_separation) = (0, Real::NEG_INFINITY);
    for i in 0..m {
        let s = normals[i].dot(&(c - v[i]));
        if s > face_separation {
            face = i;
            face_separation = s;
        }
    }
    if face_separation - radius > speculative {
        return Manifold::EMPTY;
    }
    let (v1, v2) = (v[face], v[(face + 1) % m]);
    // Beyond an end of the face (and outside the core): the vertex there is nearest. A
    // segment core has no inside, and a point on its line beyond an end is level with both
    // sides (to rounding, either sign): the end is nearest there too (found by fuzzing: a
    // point 1.1 mm beyond a capsule's axis was taken to be on it).
    if face_separation > 0.0 || m == 2 {
        if (c - v1).dot(&(v2 - v1)) < 0.0 {
            return point_contact(face);
        }
        if (c - v2).dot(&(v1 - v2)) < 0.0 {
            return point_contact((face + 1) % m);
        }
    }
    let normal = normals[face];
    let separation = face_separation - radius;
    Manifold::single(
        normal,
        ContactPoint {
            point: Point::from(c - normal * (rc + 0.5 * separation)),
            separation,
            id: ContactId::new(edge_feature(face), 0),
        },
    )
}

/// The manifold of circle `a` and polygon `b` (normal from the circle to the polygon).
pub fn contact_circle_polygon(
    a: &Circle,
    pose_a: &Isometry,
    b: &ConvexPolygon,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    let poly = Rounded::new(b.core(), 0.0, pose_b);
    let center = (pose_a * a.center()).coords;
    rounded_versus_point(&poly, center, a.radius(), speculative_distance).swapped()
}

#[cfg(test)]
mod tests {
    use super::*;

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
