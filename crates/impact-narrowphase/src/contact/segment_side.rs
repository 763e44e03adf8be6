//! Contact with a zero-thickness segment, on a given side of it.
//!
//! A segment has no inside. A body pressed into one past half its own thickness (a stick
//! under a pile, squeezed by the soft contact solver over many steps) is nearer the far side:
//! the exact normal turns round, and a solver that follows it pushes the body the rest of the
//! way through. A caller that remembers which side the body was on asks for the manifold on
//! that side instead.

use super::clipping::reference_face;
use super::manifold::Manifold;
use super::rounded_core::Rounded;
use impact_geometry::{Isometry, Real, Shape, Vector};

/// The manifold of `a` at `pose_a` and `b` at `pose_b` with the normal held to `side` (a unit
/// vector from A toward B), when one of them is a [`Segment`](impact_geometry::Segment) and
/// the other has a core with edges (a segment, capsule or polygon): the segment's face toward
/// `side` is the reference face, and the other's edge most against it is clipped to it, with
/// separations measured along that face's normal (negative however deep the overlap). `None`
/// for other pairs (a disc has no edge to clip; a chain segment is one-sided already), where
/// [`contact_manifold`](super::contact_manifold) is the answer.
///
/// ```
/// use impact_geometry::{ConvexPolygon, Isometry, Point, Segment, Shape, Vector};
/// use impact_narrowphase::{contact_manifold, contact_manifold_on_side};
///
/// let floor: Shape = Segment::new(Point::new(-5.0, 0.0), Point::new(5.0, 0.0)).unwrap().into();
/// let stick: Shape = ConvexPolygon::rectangle(0.1, 0.01).unwrap().into();
/// // Pressed 1.2 cm into a floor 0 thick: the stick is nearer the far side.
/// let pose = Isometry::translation(0.0, -0.002);
/// let exact = contact_manifold(&floor, &Isometry::identity(), &stick, &pose, 0.01);
/// assert!(exact.normal.y < 0.0);
/// let above = contact_manifold_on_side(&floor, &Isometry::identity(), &stick, &pose, Vector::y(), 0.01)
///     .unwrap();
/// assert_eq!(above.normal, Vector::y());
/// assert!((above.min_separation() + 0.012).abs() < 1e-12);
/// ```
pub fn contact_manifold_on_side(
    a: &Shape,
    pose_a: &Isometry,
    b: &Shape,
    pose_b: &Isometry,
    side: Vector,
    speculative_distance: Real,
) -> Option<Manifold> {
    match (a, b) {
        // One-sided already: a chain segment's manifold is always on its front.
        (Shape::ChainSegment(_), _) | (_, Shape::ChainSegment(_)) => None,
        (Shape::Segment(segment), other) if other.core().len() >= 2 => {
            let face = Rounded::new(segment.core(), 0.0, pose_a);
            let body = Rounded::new(other.core(), other.radius(), pose_b);
            if face.v().len() < 2 || body.v().len() < 2 {
                // Shorter than rounding: points, which have no edge either.
                return None;
            }
            let edge = usize::from(face.n()[1].dot(&side) > face.n()[0].dot(&side));
            Some(reference_face(&face, &body, edge, speculative_distance))
        }
        (other, Shape::Segment(_)) if other.core().len() >= 2 => {
            contact_manifold_on_side(b, pose_b, a, pose_a, -side, speculative_distance)
                .map(Manifold::swapped)
        }
        _ => None,
    }
}
