//! Contact between a segment and a convex polygon.

use super::manifold::Manifold;
use super::polygon_polygon::collide_with_polygon;
use super::rounded_core::SegmentCore;
use impact_geometry::{ConvexPolygon, Isometry, Real, Segment};

/// The manifold of segment `a` and convex polygon `b`, sharp or rounded (normal from A to B),
/// with points wherever the surfaces are closer than `speculative_distance`.
pub fn contact_segment_polygon(
    a: &Segment,
    pose_a: &Isometry,
    b: &ConvexPolygon,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    let core_a = SegmentCore::new(a.core(), 0.0, pose_a);
    collide_with_polygon(&core_a, b, pose_b, speculative_distance)
}
