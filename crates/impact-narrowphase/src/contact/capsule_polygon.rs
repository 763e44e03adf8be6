//! Contact between a capsule and a convex polygon.

use super::manifold::Manifold;
use super::polygon_polygon::collide_with_polygon;
use super::rounded_core::SegmentCore;
use impact_geometry::{Capsule, ConvexPolygon, Isometry, Real};

/// The manifold of capsule `a` and convex polygon `b`, sharp or rounded (normal from A to B),
/// with points wherever the surfaces are closer than `speculative_distance`.
pub fn contact_capsule_polygon(
    a: &Capsule,
    pose_a: &Isometry,
    b: &ConvexPolygon,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    let core_a = SegmentCore::new(a.core(), a.radius(), pose_a);
    collide_with_polygon(&core_a, b, pose_b, speculative_distance)
}
