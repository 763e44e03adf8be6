//! Contact with one segment of a chain: one-sided, and without ghost collisions at its
//! joints (Box2D v3's `b2CollideChainSegmentAndPolygon` and `...AndCircle`, rebuilt on our
//! kernels).
//!
//! The segment and the other shape's rounded core are first collided as a plain two-sided
//! segment would be (`point_core` or `clipping`); the chain's rules then keep, drop or redo
//! that manifold by where its normal `d` (from the segment toward the other) points:
//!
//! - **One-sided.** Nothing when the centre of the other core (its vertices' mean) is behind
//!   the segment, and behind each neighbour whose joint with it is convex (see
//!   `chain_cone`): the body came from the back, and passes.
//! - **Face.** `d` along the segment's front normal `n1` (to [`PARALLEL_FACES_ANGLE`]): kept,
//!   with `n1` itself as the normal.
//! - **Convex joint** (the polyline turns counter-clockwise there, by any amount): the
//!   vertex's directions, between the two faces' normals, belong to the segment that *starts*
//!   there, so each vertex is owned once: at `a` they are kept (but for those within
//!   [`PARALLEL_FACES_ANGLE`] of the neighbour's face normal, the neighbour's face's); at `b`
//!   dropped (the next segment keeps them). Directions beyond the neighbour's normal are the
//!   neighbour's face's: dropped. (Box2D counts a joint convex only past a turn of 0.57
//!   degrees and clamps below that; then a disc over the vertex of a joint bent by less,
//!   between the two faces' reaches, had no contact from either segment.)
//! - **Flat or concave joint**: a direction tilted toward it is a ghost (the other shape is
//!   over the neighbour, which reports its own face). The manifold is redone on this
//!   segment's face alone: the other's edge most against the face clipped to it, separations
//!   along `n1` (Box2D's snap), and nothing if that edge lies wholly beyond the segment's end;
//!   a point core (a circle) touches the face only if it projects onto the segment.
//!
//! So over collinear segments every normal is the face normal and every separation the one
//! flat ground would give, a convex joint reports no normal outside the cone of its two faces,
//! and a concave one only its faces' normals. A body pressed deep enough that the plain
//! manifold points out the back, with its centre still in front, is pushed out the front
//! (the redone face manifold), as [`contact_manifold_on_side`](super::contact_manifold_on_side)
//! does for a plain segment.
//!
//! [`PARALLEL_FACES_ANGLE`]: impact_geometry::tolerances::PARALLEL_FACES_ANGLE

use super::clipping::{collide_rounded_any, reference_face_within};
use super::manifold::{ContactId, ContactPoint, Manifold, edge_feature};
use super::rounded_core::Rounded;
use crate::chain_cone::Cone;
use impact_geometry::{ChainSegment, Isometry, Point, Real, Shape, Vector};

/// The manifold of shape `a` at `pose_a` and chain segment `b` at `pose_b` (normal from A to
/// B), with points wherever the surfaces are closer than `speculative_distance`, under the
/// chain's rules (see the module docs): no contact from behind, none that belongs to a
/// neighbour, and a face normal where a plain segment would give a ghost's.
///
/// A circle, capsule or polygon (any core with a radius) collides; a segment or another
/// chain segment gives no contact (thin static geometry against thin static geometry: both
/// are static in practice, and neither has a side a body could be in).
pub fn contact_chain_segment(
    a: &Shape,
    pose_a: &Isometry,
    b: &ChainSegment,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    if matches!(a, Shape::Segment(_) | Shape::ChainSegment(_)) {
        return Manifold::EMPTY;
    }
    let other = Rounded::new(a.core(), a.radius(), pose_a);
    chain_versus(b, pose_b, &other, speculative_distance).swapped()
}

/// What the chain's rules do with a plain manifold's normal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// The manifold is this segment's.
    Keep,
    /// The manifold is a neighbour's (or the body is behind).
    Leave,
    /// A ghost at a flat or concave joint: redo it on the face.
    Clamp,
}

/// The manifold of chain segment `chain` at `pose` (A) and the rounded core `other` (B),
/// normal from the chain toward the other.
fn chain_versus(
    chain: &ChainSegment,
    pose: &Isometry,
    other: &Rounded,
    speculative: Real,
) -> Manifold {
    let segment = Rounded::new(chain.core(), 0.0, pose);
    if segment.v().len() < 2 || other.v().is_empty() {
        // Shorter than rounding: a point, with no face to be one-sided about.
        return Manifold::EMPTY;
    }
    let cone = Cone::of(chain).rotated(&pose.rotation);
    let convex = cone.convex();
    let (a, b) = (segment.v()[0], segment.v()[1]);
    let center = other.v().iter().sum::<Vector>() / other.v().len() as Real;
    if cone.behind(&(center - a), &(center - b), convex) {
        return Manifold::EMPTY;
    }
    let plain = collide_rounded_any(&segment, other, speculative);
    if plain.is_empty() {
        return plain;
    }
    let in_front = cone.n1.dot(&(center - a)) >= 0.0;
    match classify(&cone, &plain.normal, convex, in_front) {
        // Along the face to within a tilt of rounding size: the face's own normal (a disc a
        // hair past the joint meets the end vertex, tilted by the hair).
        Verdict::Keep if cone.is_face(&plain.normal) => Manifold {
            normal: cone.n1,
            ..plain
        },
        Verdict::Keep => plain,
        Verdict::Leave => Manifold::EMPTY,
        Verdict::Clamp => on_face(&segment, &cone, other, speculative),
    }
}

/// The verdict on normal `d` (see the module docs), with the joints' convexity at `a` and
/// `b` and whether the other core's centre is in front of the segment's line.
fn classify(cone: &Cone, d: &Vector, convex: [bool; 2], in_front: bool) -> Verdict {
    if cone.is_face(d) || (convex[0] && cone.owns_arc_at_a(d)) {
        return Verdict::Keep;
    }
    if convex[1] && cone.in_arc_at_b(d) {
        // The vertex `b` belongs to the segment that starts there.
        return Verdict::Leave;
    }
    let convex_side = if cone.toward_b(d) {
        convex[1]
    } else {
        convex[0]
    };
    if d.dot(&cone.n1) > 0.0 && convex_side {
        // Beyond the neighbour's normal: its face's contact.
        return Verdict::Leave;
    }
    if in_front {
        Verdict::Clamp
    } else {
        Verdict::Leave
    }
}

/// The manifold on the segment's front face alone: the other's incident edge clipped to the
/// face (nothing if it lies beyond the face's ends), or a point core's projection onto it.
fn on_face(segment: &Rounded, cone: &Cone, other: &Rounded, speculative: Real) -> Manifold {
    if other.v().len() >= 2 {
        // Edge 0 of a segment's core runs from `a` to `b`: its normal is the front's.
        return reference_face_within(segment, other, 0, speculative);
    }
    let (a, b) = (segment.v()[0], segment.v()[1]);
    let c = other.v()[0];
    let along = b - a;
    let s = (c - a).dot(&along);
    if s < 0.0 || s > along.norm_squared() {
        return Manifold::EMPTY;
    }
    let normal = cone.n1;
    let separation = normal.dot(&(c - a)) - other.radius;
    if separation > speculative {
        return Manifold::EMPTY;
    }
    Manifold::single(
        normal,
        ContactPoint {
            point: Point::from(c - normal * (other.radius + 0.5 * separation)),
            separation,
            id: ContactId::new(edge_feature(0), 0),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::{Chain, Circle, ConvexPolygon};

    /// Ground from x = 4 to x = -4 through the origin, facing up.
    fn flat() -> Chain {
        Chain::open(&[
            Point::new(4.0, 0.0),
            Point::new(0.0, 0.0),
            Point::new(-4.0, 0.0),
        ])
        .unwrap()
    }

    fn manifolds(chain: &Chain, shape: &Shape, pose: &Isometry, spec: Real) -> Vec<Manifold> {
        chain
            .segments()
            .map(|s| contact_chain_segment(shape, pose, &s, &Isometry::identity(), spec))
            .filter(|m| !m.is_empty())
            .collect()
    }

    #[test]
    fn a_disc_past_the_joint_touches_only_the_face_below_it() {
        let disc = Shape::from(Circle::new(0.5).unwrap());
        // Centre just past the joint over the second segment, 1 mm into the ground.
        let pose = Isometry::translation(-0.01, 0.499);
        let all = manifolds(&flat(), &disc, &pose, 0.02);
        assert_eq!(all.len(), 1);
        // Normal from the disc toward the ground.
        assert_eq!(all[0].normal, Vector::new(0.0, -1.0));
        assert!((all[0].points()[0].separation + 0.001).abs() < 1e-15);
        // A plain segment would tilt it: the ghost.
        let first = flat().segment(0).unwrap();
        let plain = crate::contact_manifold(
            &disc,
            &pose,
            &Shape::Segment(first.segment()),
            &Isometry::identity(),
            0.02,
        );
        assert!(plain.normal.x.abs() > 1e-3);
    }

    #[test]
    fn the_back_is_open_and_a_box_over_the_joint_gets_the_face() {
        let block = Shape::from(ConvexPolygon::rectangle(0.5, 0.5).unwrap());
        // Below the ground: nothing, however close.
        let below = Isometry::translation(1.0, -0.501);
        assert!(manifolds(&flat(), &block, &below, 0.02).is_empty());
        // Over the joint, its right side 1 mm past it, 2 mm deep: every normal is the face's.
        let over = Isometry::translation(-0.499, 0.498);
        let all = manifolds(&flat(), &block, &over, 0.02);
        assert_eq!(all.len(), 2);
        for m in &all {
            assert_eq!(m.normal, Vector::new(0.0, -1.0));
            for p in m.points() {
                assert!((p.separation + 0.002).abs() < 1e-15, "{p:?}");
            }
        }
    }

    #[test]
    fn a_convex_corner_is_owned_by_the_segment_that_starts_there() {
        // An island's corner at the origin: the top runs right to left, then down the side.
        let chain = Chain::open(&[
            Point::new(2.0, 0.0),
            Point::new(0.0, 0.0),
            Point::new(0.0, -2.0),
        ])
        .unwrap();
        let disc = Shape::from(Circle::new(0.5).unwrap());
        let pose = Isometry::translation(-0.3, 0.4);
        let per: Vec<Manifold> = chain
            .segments()
            .map(|s| contact_chain_segment(&disc, &pose, &s, &Isometry::identity(), 0.02))
            .collect();
        assert!(per[0].is_empty());
        assert_eq!(per[1].points().len(), 1);
        assert!((per[1].normal - Vector::new(0.6, -0.8)).norm() < 1e-15);
        assert!(per[1].points()[0].separation.abs() < 1e-15);
    }
}
