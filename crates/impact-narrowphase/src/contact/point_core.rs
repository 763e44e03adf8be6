//! A point core against any core, the manifold of every pair with a circle (or a segment so
//! short that it is a point): the face of largest separation decides; beyond an end of it the
//! vertex there is nearest. One point, exact.

use super::manifold::{ContactId, ContactPoint, Manifold, edge_feature, vertex_feature};
use super::rounded_core::Core;
use impact_geometry::{Point, Real, Vector};

/// The manifold of a rounded core `poly` (A) and a disc of radius `rc` centred at `c` (B):
/// the face of largest separation decides; if the centre lies beyond an end of that face, the
/// nearest feature is the vertex there and the normal points from it to the centre.
pub(crate) fn rounded_versus_point<C: Core>(
    poly: &C,
    c: Vector,
    rc: Real,
    speculative: Real,
) -> Manifold {
    let v = poly.v();
    let radius = poly.radius() + rc;
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
                point: Point::from(v[vertex] + normal * (poly.radius() + 0.5 * separation)),
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
