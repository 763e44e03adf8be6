//! Contact between two circles: one point on the line of centres.

use super::manifold::{ContactId, ContactPoint, Manifold};
use impact_geometry::{Circle, Isometry, Point, Real, Vector};

/// The manifold of circles `a` and `b`: empty if their surfaces are farther apart than
/// `speculative_distance`, else one point midway between the surfaces. Coincident centres get
/// the normal `+x`.
pub fn contact_circle_circle(
    a: &Circle,
    pose_a: &Isometry,
    b: &Circle,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    let ca = pose_a * a.center();
    let cb = pose_b * b.center();
    let offset = cb - ca;
    let distance = offset.norm();
    let separation = distance - a.radius() - b.radius();
    if separation > speculative_distance {
        return Manifold::EMPTY;
    }
    let normal = if distance > 0.0 {
        offset / distance
    } else {
        Vector::new(1.0, 0.0)
    };
    let point = ca + normal * (a.radius() + 0.5 * separation);
    Manifold::single(
        normal,
        ContactPoint {
            point: Point::from(point.coords),
            separation,
            id: ContactId::new(0, 0),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_touching_and_speculative() {
        let (a, b) = (Circle::new(1.0).unwrap(), Circle::new(0.5).unwrap());
        let m = contact_circle_circle(
            &a,
            &Isometry::identity(),
            &b,
            &Isometry::translation(1.4, 0.0),
            0.1,
        );
        assert_eq!(m.normal, Vector::new(1.0, 0.0));
        assert_eq!(m.points().len(), 1);
        assert!((m.points()[0].separation + 0.1).abs() < 1e-15);
        assert!((m.points()[0].point.x - 0.95).abs() < 1e-15);
        let m = contact_circle_circle(
            &a,
            &Isometry::identity(),
            &b,
            &Isometry::translation(0.0, 1.55),
            0.1,
        );
        assert!((m.points()[0].separation - 0.05).abs() < 1e-15);
        assert!(
            contact_circle_circle(
                &a,
                &Isometry::identity(),
                &b,
                &Isometry::translation(1.7, 0.0),
                0.1
            )
            .is_empty()
        );
    }
}
