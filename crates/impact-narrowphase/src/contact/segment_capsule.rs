//! Contact between a segment and a capsule.

use super::manifold::Manifold;
use super::segment_pair::collide_segment_cores;
use impact_geometry::{Capsule, Isometry, Real, Segment};

/// The manifold of segment `a` and capsule `b` (normal from A to B), with points wherever the
/// surfaces are closer than `speculative_distance`.
pub fn contact_segment_capsule(
    a: &Segment,
    pose_a: &Isometry,
    b: &Capsule,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    collide_segment_cores(
        (a.core(), 0.0, pose_a),
        (b.core(), b.radius(), pose_b),
        speculative_distance,
    )
}
