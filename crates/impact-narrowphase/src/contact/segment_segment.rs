//! Contact between a segment and a segment.

use super::manifold::Manifold;
use super::segment_pair::collide_segment_cores;
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
    collide_segment_cores(
        (a.core(), 0.0, pose_a),
        (b.core(), 0.0, pose_b),
        speculative_distance,
    )
}
