//! Contact between a circle and a segment.

use super::manifold::Manifold;
use super::point_core::rounded_versus_point;
use super::rounded_core::Rounded;
use impact_geometry::{Circle, Isometry, Real, Segment};

/// The manifold of circle `a` and segment `b` (normal from A to B), with points wherever the
/// surfaces are closer than `speculative_distance`.
pub fn contact_circle_segment(
    a: &Circle,
    pose_a: &Isometry,
    b: &Segment,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    let core = Rounded::new(b.core(), 0.0, pose_b);
    let center = (pose_a * a.center()).coords;
    rounded_versus_point(&core, center, a.radius(), speculative_distance).swapped()
}
