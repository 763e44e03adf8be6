//! [`Segment`]: two points, zero thickness.

use crate::validate::finite_point;
use crate::{GeometryError, Point, Vector};

/// A line segment from `a` to `b` (body frame), with no thickness.
///
/// Thin static geometry (walls of paper, terrain edges) is made of segments. A zero-length
/// segment is allowed and behaves as a point.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "SegmentDef", into = "SegmentDef"))]
pub struct Segment {
    vertices: [Point; 2],
}

impl Segment {
    /// The segment from `a` to `b`.
    ///
    /// # Errors
    /// [`GeometryError`] naming `segment.a.x` (and so on) when a coordinate is not finite.
    pub fn new(a: Point, b: Point) -> Result<Self, GeometryError> {
        finite_point("segment.a", &a)?;
        finite_point("segment.b", &b)?;
        Ok(Self { vertices: [a, b] })
    }

    /// The segment from `a` to `b`, whose coordinates the caller has checked.
    pub(crate) fn from_points_unchecked(a: Point, b: Point) -> Self {
        Self { vertices: [a, b] }
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
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct SegmentDef {
    a: Point,
    b: Point,
}

#[cfg(feature = "serde")]
impl TryFrom<SegmentDef> for Segment {
    type Error = GeometryError;
    fn try_from(def: SegmentDef) -> Result<Self, GeometryError> {
        Self::new(def.a, def.b)
    }
}

#[cfg(feature = "serde")]
impl From<Segment> for SegmentDef {
    fn from(s: Segment) -> Self {
        Self { a: s.a(), b: s.b() }
    }
}
