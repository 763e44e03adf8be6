//! Contact between a capsule and a convex polygon.

use super::clipping::collide_rounded_any;
use super::manifold::Manifold;
use super::rounded_core::{Rounded, SegmentCore};
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
    let core_b = Rounded::new(b.core(), b.radius(), pose_b);
    collide_rounded_any(&core_a, &core_b, speculative_distance)
}
