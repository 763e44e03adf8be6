//! The normals a chain segment answers for: its face normal, and at a convex joint the
//! normals between its face's and its neighbour's (the vertex there). What contacts and
//! times of impact with a [`ChainSegment`] share: which side is in front, and which normals
//! belong to this segment rather than to a neighbour.
//!
//! Directions are the chain's normals seen from it: a unit vector from the segment toward
//! the other shape. At the joint `a` the neighbour before turns into this segment; going
//! counter-clockwise from its normal `n0` one reaches this segment's normal `n1` when the
//! joint is convex (the polyline turns counter-clockwise there, seen with the front on the
//! right), and the directions between are the vertex's. At `b` the same holds from `n1` to the
//! next neighbour's `n2`. The directions clockwise of `n1` point back along the segment
//! (toward `a`), those counter-clockwise of it forward (toward `b`).

use impact_geometry::tolerances::PARALLEL_FACES_ANGLE;
use impact_geometry::{ChainSegment, Real, Rotation, Vector, cross};

/// A chain segment's front normal, its neighbours' normals, and the turns at its joints, in
/// one frame (the segment's body frame, or the world once rotated).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cone {
    /// The neighbour before's front normal.
    pub n0: Vector,
    /// This segment's front normal.
    pub n1: Vector,
    /// The neighbour after's front normal.
    pub n2: Vector,
    /// The sine of the turn at `a` (positive: convex).
    pub turn_a: Real,
    /// The sine of the turn at `b` (positive: convex).
    pub turn_b: Real,
}

impl Cone {
    /// The cone of `segment` in its body frame.
    #[inline]
    pub(crate) fn of(segment: &ChainSegment) -> Self {
        let (n0, n1, n2) = (
            segment.normal_before(),
            segment.normal(),
            segment.normal_after(),
        );
        // What `ChainSegment::turn_at_a` and `turn_at_b` compute, from the normals at hand.
        Self {
            n0,
            n1,
            n2,
            turn_a: cross(&n0, &n1),
            turn_b: cross(&n1, &n2),
        }
    }

    /// The same cone in a frame turned by `rotation` (the turns do not change).
    #[inline]
    pub(crate) fn rotated(&self, rotation: &Rotation) -> Self {
        Self {
            n0: rotation * self.n0,
            n1: rotation * self.n1,
            n2: rotation * self.n2,
            ..*self
        }
    }

    /// Whether each joint, at `a` then `b`, is convex: turns counter-clockwise at all (the
    /// exact sign). A joint convex by less than rounding has a cone of rounding width
    /// between its faces, which [`Cone::is_face`] covers.
    #[inline]
    pub(crate) fn convex(&self) -> [bool; 2] {
        [self.turn_a > 0.0, self.turn_b > 0.0]
    }

    /// Whether `d` is this segment's face normal, to [`PARALLEL_FACES_ANGLE`]: a tilt that
    /// small is rounding or a face lying flat on this one, never a ghost.
    #[inline]
    pub(crate) fn is_face(&self, d: &Vector) -> bool {
        d.dot(&self.n1) > 0.0 && cross(&self.n1, d).abs() <= PARALLEL_FACES_ANGLE
    }

    /// Whether `d` lies between `n0` and `n1`, both ends included (the directions of the
    /// vertex `a` when it is convex).
    #[inline]
    pub(crate) fn in_arc_at_a(&self, d: &Vector) -> bool {
        cross(&self.n0, d) >= 0.0 && cross(d, &self.n1) >= 0.0
    }

    /// [`Cone::in_arc_at_a`] without the directions within [`PARALLEL_FACES_ANGLE`] of `n0`,
    /// which are the neighbour's face: what a contact at `a` may claim without both
    /// segments claiming it.
    #[inline]
    pub(crate) fn owns_arc_at_a(&self, d: &Vector) -> bool {
        cross(&self.n0, d) > PARALLEL_FACES_ANGLE && cross(d, &self.n1) >= 0.0
    }

    /// Whether `d` lies between `n1` and `n2` (the vertex `b`'s directions when it is
    /// convex), both ends included.
    #[inline]
    pub(crate) fn in_arc_at_b(&self, d: &Vector) -> bool {
        cross(&self.n1, d) >= 0.0 && cross(d, &self.n2) >= 0.0
    }

    /// Whether `d` points toward `b` (counter-clockwise of the face normal) rather than
    /// toward `a`.
    #[inline]
    pub(crate) fn toward_b(&self, d: &Vector) -> bool {
        cross(&self.n1, d) > 0.0
    }

    /// Whether a point at `from_a` from `a` and `from_b` from `b` is behind this segment
    /// (strictly, on the back of its line) and behind each neighbour whose joint with it is
    /// convex by the test `convex` (the two joints' verdicts, at `a` then `b`). A shape whose
    /// centre is there came from the back: Box2D's one-sided rule, which looks at the convex
    /// neighbours too because round a convex corner the front of the neighbour is in front of
    /// the corner, though behind this segment's line.
    #[inline]
    pub(crate) fn behind(&self, from_a: &Vector, from_b: &Vector, convex: [bool; 2]) -> bool {
        self.n1.dot(from_a) < 0.0
            && (!convex[0] || self.n0.dot(from_a) < 0.0)
            && (!convex[1] || self.n2.dot(from_b) < 0.0)
    }
}
