//! Contact between a capsule and a capsule.

use super::manifold::Manifold;
use super::segment_pair::collide_segment_cores;
use impact_geometry::{Capsule, Isometry, Real};

/// The manifold of capsule `a` and capsule `b` (normal from A to B), with points wherever the
/// surfaces are closer than `speculative_distance`.
pub fn contact_capsule_capsule(
    a: &Capsule,
    pose_a: &Isometry,
    b: &Capsule,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    collide_segment_cores(
        (a.core(), a.radius(), pose_a),
        (b.core(), b.radius(), pose_b),
        speculative_distance,
    )
}
