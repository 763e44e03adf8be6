//! Exact distance between two placed shapes.

use crate::minkowski::{
    CorePoints, Obstacle, approaches, minkowski_sum, relative_points, signed_distance_to_origin,
};
use impact_geometry::{Isometry, Point, Real, Shape, Vector};

/// The signed distance between two shapes and where it is realised.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Distance {
    /// Distance between the surfaces (world units); negative when they overlap, and then
    /// minus the penetration depth along `normal`.
    pub distance: Real,
    /// Unit normal from A toward B: moving B along it separates the shapes fastest.
    pub normal: Vector,
    /// The point of A's surface nearest to B (deepest into B when overlapping).
    pub point_a: Point,
    /// The point of B's surface nearest to A (deepest into A when overlapping).
    pub point_b: Point,
}

/// The exact signed distance between shape `a` at `pose_a` and shape `b` at `pose_b`.
///
/// Computed on the Minkowski difference of the cores, so it is exact to rounding for every
/// pair (no iteration) and costs `O(n + m)` for polygons with `n` and `m` vertices.
pub fn distance(a: &Shape, pose_a: &Isometry, b: &Shape, pose_b: &Isometry) -> Distance {
    if let (Shape::Circle(_), Shape::Circle(_)) = (a, b) {
        return between_points(a, pose_a, b, pose_b);
    }
    through_difference(a, pose_a, b, pose_b)
}

/// [`distance`] on the Minkowski difference of the cores: any shapes.
fn through_difference(a: &Shape, pose_a: &Isometry, b: &Shape, pose_b: &Isometry) -> Distance {
    let origin = pose_a.translation.vector;
    let mut a_pts = CorePoints::new();
    relative_points(&mut a_pts, a.core(), pose_a, &origin, false);
    let mut q_pts = CorePoints::new();
    relative_points(&mut q_pts, b.core(), pose_b, &origin, true);
    let mut k = Obstacle::new();
    minkowski_sum(&mut k, a_pts.as_slice(), q_pts.as_slice());
    let (core_distance, feature, normal) = signed_distance_to_origin(k.as_slice());
    let on_a = feature.point_on_a(k.as_slice(), a_pts.as_slice());
    let point_a = Point::from(origin + on_a + normal * a.radius());
    let point_b = Point::from(origin + on_a + normal * (core_distance - b.radius()));
    Distance {
        distance: core_distance - a.radius() - b.radius(),
        normal,
        point_a,
        point_b,
    }
}

/// [`distance`] for two shapes whose cores are single points (circles), without building
/// their Minkowski difference: the same operations on the same numbers as the general path
/// takes through a one-vertex difference, so the same answer bit for bit for finite input
/// (the steppers check every resting disc pair with it, and their runs must not change with
/// the path).
fn between_points(a: &Shape, pose_a: &Isometry, b: &Shape, pose_b: &Isometry) -> Distance {
    let origin = pose_a.translation.vector;
    let place = |shape: &Shape, pose: &Isometry, sign: Real| {
        let offset = pose.translation.vector - origin;
        (pose.rotation * shape.core()[0].coords + offset) * sign
    };
    let on_a = place(a, pose_a, 1.0);
    // The one vertex of the difference, and its nearest point to the origin: itself, plus
    // the `(k - k) * 0.0` the feature walk adds, which is `+0` for finite numbers (and turns
    // a `-0` coordinate into `+0`, which the normal's sign of zero shows).
    let k = on_a + place(b, pose_b, -1.0);
    let core_distance = (k - Vector::zeros()).norm_squared().sqrt();
    let closest = k + Vector::zeros();
    let normal = if core_distance > 0.0 {
        -closest / core_distance
    } else {
        // Concentric: a one-vertex difference has no edge to take a normal from.
        Vector::new(1.0, 0.0)
    };
    let on_a = on_a + Vector::zeros();
    Distance {
        distance: core_distance - a.radius() - b.radius(),
        normal,
        point_a: Point::from(origin + on_a + normal * a.radius()),
        point_b: Point::from(origin + on_a + normal * (core_distance - b.radius())),
    }
}

/// Whether `b` moving by `d` relative to `a` (both placed) approaches it from a touching start
/// by more than `tolerance`; see `minkowski::approaches`. Used where no closed form decides the
/// start, as in conservative advancement.
pub(crate) fn approaches_from_touch(
    a: &Shape,
    pose_a: &Isometry,
    b: &Shape,
    pose_b: &Isometry,
    d: &Vector,
    tolerance: Real,
) -> bool {
    let origin = pose_a.translation.vector;
    let mut a_pts = CorePoints::new();
    relative_points(&mut a_pts, a.core(), pose_a, &origin, false);
    let mut q_pts = CorePoints::new();
    relative_points(&mut q_pts, b.core(), pose_b, &origin, true);
    let mut k = Obstacle::new();
    minkowski_sum(&mut k, a_pts.as_slice(), q_pts.as_slice());
    let (core_distance, _, normal) = signed_distance_to_origin(k.as_slice());
    approaches(k.as_slice(), core_distance, &normal, d, tolerance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::Circle;

    /// The shortcut for two circles answers as the Minkowski difference does, bit for bit:
    /// apart, touching, overlapping, concentric, with centres off the body origins, turned,
    /// and far from the world origin.
    #[test]
    fn two_circles_take_the_general_path_s_answer_bit_for_bit() {
        let mut rng = impact_testkit::SplitMix64::new(0x9e37_79b9_7f4a_7c15);
        let mut unit = move || rng.range(0.0, 1.0);
        let bits = |d: &Distance| {
            [
                d.distance,
                d.normal.x,
                d.normal.y,
                d.point_a.x,
                d.point_a.y,
                d.point_b.x,
                d.point_b.y,
            ]
            .map(Real::to_bits)
        };
        let mut concentric = 0;
        for i in 0..20_000 {
            let far = [1.0, 1e3, 1e6][i % 3];
            let radius_a = if i % 7 == 0 { 0.0 } else { unit() };
            let radius_b = unit() * 2.0;
            // Concentric at the world level, for the fallback normal: both centres on the
            // body origins, and B placed at A's.
            let same_place = i % 11 == 0;
            let off_origin = |on: bool, x: Real, y: Real| {
                Point::new(x - 0.5, y - 0.5) * Real::from(u8::from(on && !same_place))
            };
            let center_a = off_origin(i % 2 == 1, unit(), unit());
            let center_b = off_origin(i % 5 % 2 == 1, unit(), unit());
            let a: Shape = Circle::with_center(center_a, radius_a).unwrap().into();
            let b: Shape = Circle::with_center(center_b, radius_b).unwrap().into();
            let pose_a = Isometry::new(Vector::new(unit() - 0.5, unit() - 0.5) * far, unit() * 7.0);
            let pose_b = if same_place {
                Isometry::new(pose_a.translation.vector, unit() * 7.0)
            } else {
                Isometry::new(
                    pose_a.translation.vector + Vector::new(unit() - 0.5, unit() - 0.5) * 4.0,
                    unit() * 7.0,
                )
            };
            let shortcut = between_points(&a, &pose_a, &b, &pose_b);
            if shortcut.distance == -radius_a - radius_b {
                concentric += 1;
            }
            let general = through_difference(&a, &pose_a, &b, &pose_b);
            assert_eq!(
                bits(&shortcut),
                bits(&general),
                "{a:?} {pose_a:?} {b:?} {pose_b:?}"
            );
            assert_eq!(distance(&a, &pose_a, &b, &pose_b), shortcut);
        }
        assert!(concentric > 1_000);
    }
}
