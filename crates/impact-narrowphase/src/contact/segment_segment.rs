//! Contact between a segment and a segment.

use super::clipping::collide_rounded_any;
use super::manifold::Manifold;
use super::rounded_core::SegmentCore;
use impact_geometry::{Isometry, Real, Segment};

/// The manifold of segment `a` and segment `b` (normal from A to B), with points wherever the
/// surfaces are closer than `speculative_distance`.
pub fn contact_segment_segment(
    a: &Segment,
    pose_a: &Isometry,
    b: &Segment,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    let core_a = SegmentCore::new(a.core(), 0.0, pose_a);
    let core_b = SegmentCore::new(b.core(), 0.0, pose_b);
    collide_rounded_any(&core_a, &core_b, speculative_distance)
}
