//! Exact distance between two placed shapes.

use crate::minkowski::{approaches, minkowski_sum, signed_distance_to_origin};
use crate::toi::linear::relative_points;
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
    let origin = pose_a.translation.vector;
    let a_pts = relative_points(a.core(), pose_a, &origin, false);
    let q_pts = relative_points(b.core(), pose_b, &origin, true);
    let k = minkowski_sum(a_pts.as_slice(), q_pts.as_slice());
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
    let a_pts = relative_points(a.core(), pose_a, &origin, false);
    let q_pts = relative_points(b.core(), pose_b, &origin, true);
    let k = minkowski_sum(a_pts.as_slice(), q_pts.as_slice());
    let (core_distance, _, normal) = signed_distance_to_origin(k.as_slice());
    approaches(k.as_slice(), core_distance, &normal, d, tolerance)
}
