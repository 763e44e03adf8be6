//! [`ChainSegment`] and [`Chain`]: a polyline of one-sided segments, each knowing its
//! neighbours' vertices (its *ghost vertices*), so that a body sliding over a joint is not
//! caught on it. Box2D v3's chain shape (`b2ChainSegment`, `b2CreateChain`).

use super::chain_check::{repeats, validate_chain};
use crate::validate::finite_point;
use crate::{GeometryError, Point, Real, Segment, Vector, cross};

/// One segment of a [`Chain`]: a one-sided segment from `a` to `b` (body frame), with the
/// vertex before `a` and the vertex after `b` of the polyline it belongs to (its *ghosts*).
///
/// **Which side is solid.** The *front*, where bodies collide, is to the right of `a -> b`:
/// the outward unit normal is `(d.y, -d.x) / |d|` with `d = b - a` ([`ChainSegment::normal`]),
/// the same rule as the edge normals of a counter-clockwise
/// [`ConvexPolygon`](crate::ConvexPolygon). So a closed chain wound counter-clockwise is the
/// outline of a solid island (bodies stay outside it), one wound clockwise is a container
/// (bodies stay inside), and ground is drawn from right to left to face up. This is Box2D's
/// convention. The back collides with nothing: a body whose centre is behind the segment (and
/// behind each neighbour whose joint with it is convex) passes through, in contacts and in
/// time of impact alike.
///
/// **Ghosts.** Only `a` and `b` are the shape: its core, radius zero, zero mass like a
/// [`Segment`]. The ghosts tell the narrowphase where the polyline goes on, so that it leaves
/// to the neighbour a contact or an impact whose normal lies outside this segment's cone of
/// normals (the ghost collisions of separate segments: a disc sliding over the joint of two
/// collinear segments is kicked up by the end of the second). The rules are in the
/// narrowphase's contact and time-of-impact docs and in `docs/algorithms/chains.md`.
///
/// Built by [`Chain`] for a whole polyline, or one at a time by [`ChainSegment::new`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "ChainSegmentDef", into = "ChainSegmentDef")
)]
pub struct ChainSegment {
    vertices: [Point; 2],
    ghost_before: Point,
    ghost_after: Point,
}

impl ChainSegment {
    /// The segment from `a` to `b` whose chain comes from `ghost_before` into `a` and goes on
    /// from `b` to `ghost_after`.
    ///
    /// # Errors
    /// - [`GeometryError::NotFinite`] naming `chain_segment.a.x` (and so on);
    /// - [`GeometryError::RepeatedPoint`] naming `chain_segment.b` if `b` is `a` (to rounding:
    ///   closer than [`POINT_SEGMENT_RELATIVE`](crate::tolerances::POINT_SEGMENT_RELATIVE)
    ///   of their coordinates), or a ghost that is the vertex next to it.
    pub fn new(
        ghost_before: Point,
        a: Point,
        b: Point,
        ghost_after: Point,
    ) -> Result<Self, GeometryError> {
        finite_point("chain_segment.ghost_before", &ghost_before)?;
        finite_point("chain_segment.a", &a)?;
        finite_point("chain_segment.b", &b)?;
        finite_point("chain_segment.ghost_after", &ghost_after)?;
        let repeated = |field: &str, same_as: &str| GeometryError::RepeatedPoint {
            field: format!("chain_segment.{field}"),
            same_as: format!("chain_segment.{same_as}"),
        };
        if repeats(&ghost_before, &a) {
            return Err(repeated("a", "ghost_before"));
        }
        if repeats(&a, &b) {
            return Err(repeated("b", "a"));
        }
        if repeats(&b, &ghost_after) {
            return Err(repeated("ghost_after", "b"));
        }
        Ok(Self::new_unchecked(ghost_before, a, b, ghost_after))
    }

    /// For [`Chain`], which has checked its points already.
    pub(crate) fn new_unchecked(
        ghost_before: Point,
        a: Point,
        b: Point,
        ghost_after: Point,
    ) -> Self {
        Self {
            vertices: [a, b],
            ghost_before,
            ghost_after,
        }
    }

    /// The first end point.
    #[inline]
    pub fn a(&self) -> Point {
        self.vertices[0]
    }

    /// The second end point.
    #[inline]
    pub fn b(&self) -> Point {
        self.vertices[1]
    }

    /// The chain's vertex before `a`.
    #[inline]
    pub fn ghost_before(&self) -> Point {
        self.ghost_before
    }

    /// The chain's vertex after `b`.
    #[inline]
    pub fn ghost_after(&self) -> Point {
        self.ghost_after
    }

    /// `b - a`.
    #[inline]
    pub fn direction(&self) -> Vector {
        self.vertices[1] - self.vertices[0]
    }

    /// Both end points, as the segment's core.
    #[inline]
    pub fn core(&self) -> &[Point] {
        &self.vertices
    }

    /// The same two points as a two-sided [`Segment`], which is what distance queries and
    /// GJK see.
    #[inline]
    pub fn segment(&self) -> Segment {
        Segment::from_points_unchecked(self.vertices[0], self.vertices[1])
    }

    /// The front's outward unit normal (body frame): the direction `a -> b` turned a quarter
    /// turn clockwise.
    #[inline]
    pub fn normal(&self) -> Vector {
        right_normal(&self.direction())
    }

    /// The front normal of the neighbour before, the segment `ghost_before -> a`.
    #[inline]
    pub fn normal_before(&self) -> Vector {
        right_normal(&(self.vertices[0] - self.ghost_before))
    }

    /// The front normal of the neighbour after, the segment `b -> ghost_after`.
    #[inline]
    pub fn normal_after(&self) -> Vector {
        right_normal(&(self.ghost_after - self.vertices[1]))
    }

    /// The sine of the turn at `a` from the neighbour before to this segment (the cross
    /// product of their unit directions, equally of their normals): positive where the joint
    /// is convex seen from the front (the polyline turns counter-clockwise there, as at a
    /// corner of a counter-clockwise polygon), negative where it is concave, zero where it
    /// runs straight on (or folds straight back).
    #[inline]
    pub fn turn_at_a(&self) -> Real {
        cross(&self.normal_before(), &self.normal())
    }

    /// The sine of the turn at `b` from this segment to the neighbour after; the sign as in
    /// [`ChainSegment::turn_at_a`].
    #[inline]
    pub fn turn_at_b(&self) -> Real {
        cross(&self.normal(), &self.normal_after())
    }
}

/// The unit normal to the right of `d` (zero length gives `(1, 0)`; a validated chain has
/// none), computed as the narrowphase's cores compute edge normals, so the two agree bit for
/// bit.
#[inline]
fn right_normal(d: &Vector) -> Vector {
    Vector::new(d.y, -d.x)
        .try_normalize(0.0)
        .unwrap_or_else(|| Vector::new(1.0, 0.0))
}

/// A polyline of one-sided segments: open (from the first point to the last) or closed (the
/// last point joined back to the first), validated once, yielding its [`ChainSegment`]s.
///
/// Segment `i` runs from `points[i]` to `points[i + 1]` (the last of a closed chain from the
/// last point back to the first); its front is to the right of that direction (see
/// [`ChainSegment`]: a counter-clockwise closed chain is a solid island, a clockwise one a
/// container). Its ghosts are the points before and after it. At the two ends of an open
/// chain, where there is no neighbour, the ghost is the segment's own end extended by its
/// length (as Box2D v2.4 does): the end vertex behaves like a straight continuation, so a
/// body sliding off the end stops touching the chain when its centre passes the end, and
/// nothing is reported around the end's corner (close the chain, or continue it, to round
/// an end).
///
/// A material per segment is the caller's business: the index of a segment here is the
/// index a body-level chain uses for it.
///
/// ```
/// use impact_geometry::{Chain, GeometryError, Point};
///
/// // Ground from right to left, so its front faces up.
/// let ground = Chain::open(&[Point::new(4.0, 0.0), Point::new(0.0, 0.0), Point::new(-4.0, 0.5)])?;
/// assert_eq!(ground.segment_count(), 2);
/// let first = ground.segment(0).unwrap();
/// assert_eq!(first.normal(), impact_geometry::Vector::new(0.0, 1.0));
/// assert_eq!(first.ghost_after(), Point::new(-4.0, 0.5));
/// assert_eq!(first.ghost_before(), Point::new(8.0, 0.0));
///
/// let err = Chain::open(&[Point::new(0.0, 0.0), Point::new(0.0, 0.0)]).unwrap_err();
/// assert_eq!(err.to_string(), "chain.points[1]: the same point as chain.points[0] (consecutive points must differ)");
/// # Ok::<(), GeometryError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "ChainDef", into = "ChainDef"))]
pub struct Chain {
    points: Vec<Point>,
    closed: bool,
}

impl Chain {
    /// The chain through `points`, closed (the last point joined to the first) if `closed`.
    ///
    /// # Errors
    /// - [`GeometryError::TooFewPoints`] naming `chain.points`: fewer than two points, or
    ///   than three for a closed chain;
    /// - [`GeometryError::NotFinite`] naming `chain.points[i].x` or `.y`;
    /// - [`GeometryError::RepeatedPoint`] naming `chain.points[i]`, a point equal to the one
    ///   before it (to rounding: closer than
    ///   [`POINT_SEGMENT_RELATIVE`](crate::tolerances::POINT_SEGMENT_RELATIVE) of their
    ///   coordinates), or for a closed chain a last point equal to the first (the chain
    ///   closes itself: do not repeat the first point);
    /// - [`GeometryError::SelfIntersecting`] naming `chain.points[i]`, the start of a
    ///   segment that meets a segment other than its neighbours, or that folds back onto the
    ///   one before it. Checked for open and closed chains alike: a front that crosses the
    ///   polyline would lie in the solid of another part of it.
    pub fn new(points: &[Point], closed: bool) -> Result<Self, GeometryError> {
        validate_chain("chain.points", points, closed)?;
        Ok(Self {
            points: points.to_vec(),
            closed,
        })
    }

    /// [`Chain::new`] for an open chain.
    ///
    /// # Errors
    /// As [`Chain::new`].
    pub fn open(points: &[Point]) -> Result<Self, GeometryError> {
        Self::new(points, false)
    }

    /// [`Chain::new`] for a closed chain.
    ///
    /// # Errors
    /// As [`Chain::new`].
    pub fn closed(points: &[Point]) -> Result<Self, GeometryError> {
        Self::new(points, true)
    }

    /// The points, as given.
    #[inline]
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// Whether the last point is joined back to the first.
    #[inline]
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// How many segments: one fewer than the points for an open chain, as many for a
    /// closed one.
    #[inline]
    pub fn segment_count(&self) -> usize {
        if self.closed {
            self.points.len()
        } else {
            self.points.len() - 1
        }
    }

    /// Segment `index`, from `points[index]` to the next point, with its ghosts; `None` past
    /// the last.
    pub fn segment(&self, index: usize) -> Option<ChainSegment> {
        (index < self.segment_count()).then(|| self.segment_at(index))
    }

    /// Every segment in order, segment `i` from `points[i]`.
    pub fn segments(&self) -> impl ExactSizeIterator<Item = ChainSegment> + '_ {
        (0..self.segment_count()).map(|i| self.segment_at(i))
    }

    /// Segment `index`, which exists.
    fn segment_at(&self, index: usize) -> ChainSegment {
        let p = &self.points;
        let n = p.len();
        let (a, b) = (p[index], p[(index + 1) % n]);
        let ghost_before = if self.closed {
            p[(index + n - 1) % n]
        } else if index == 0 {
            a + (a - b)
        } else {
            p[index - 1]
        };
        let ghost_after = if self.closed {
            p[(index + 2) % n]
        } else if index + 2 == n {
            b + (b - a)
        } else {
            p[index + 2]
        };
        ChainSegment::new_unchecked(ghost_before, a, b, ghost_after)
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct ChainSegmentDef {
    ghost_before: Point,
    a: Point,
    b: Point,
    ghost_after: Point,
}

#[cfg(feature = "serde")]
impl TryFrom<ChainSegmentDef> for ChainSegment {
    type Error = GeometryError;
    fn try_from(def: ChainSegmentDef) -> Result<Self, GeometryError> {
        Self::new(def.ghost_before, def.a, def.b, def.ghost_after)
    }
}

#[cfg(feature = "serde")]
impl From<ChainSegment> for ChainSegmentDef {
    fn from(s: ChainSegment) -> Self {
        Self {
            ghost_before: s.ghost_before(),
            a: s.a(),
            b: s.b(),
            ghost_after: s.ghost_after(),
        }
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct ChainDef {
    points: Vec<Point>,
    #[serde(default)]
    closed: bool,
}

#[cfg(feature = "serde")]
impl TryFrom<ChainDef> for Chain {
    type Error = GeometryError;
    fn try_from(def: ChainDef) -> Result<Self, GeometryError> {
        Self::new(&def.points, def.closed)
    }
}

#[cfg(feature = "serde")]
impl From<Chain> for ChainDef {
    fn from(c: Chain) -> Self {
        Self {
            points: c.points,
            closed: c.closed,
        }
    }
}
