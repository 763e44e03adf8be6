//! Contact between a circle and a capsule.

use super::manifold::Manifold;
use super::point_core::rounded_versus_point;
use super::rounded_core::Rounded;
use impact_geometry::{Capsule, Circle, Isometry, Real};

/// The manifold of circle `a` and capsule `b` (normal from A to B), with points wherever the
/// surfaces are closer than `speculative_distance`.
pub fn contact_circle_capsule(
    a: &Circle,
    pose_a: &Isometry,
    b: &Capsule,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    let core = Rounded::new(b.core(), b.radius(), pose_b);
    let center = (pose_a * a.center()).coords;
    rounded_versus_point(&core, center, a.radius(), speculative_distance).swapped()
}
