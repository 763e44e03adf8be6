//! [`Capsule`]: a segment core with a radius.

use crate::validate::{finite_point, non_negative};
use crate::{GeometryError, Point, Real, Segment};

/// Every point within `radius` of the segment from `a` to `b` (body frame): a stadium.
///
/// A zero radius gives a segment and a zero-length axis gives a disc; both are allowed.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "CapsuleDef", into = "CapsuleDef"))]
pub struct Capsule {
    axis: Segment,
    radius: Real,
}

impl Capsule {
    /// The capsule around the segment `a`–`b` with `radius`.
    ///
    /// # Errors
    /// [`GeometryError`] naming `capsule.a.x` (and so on) or `capsule.radius`.
    pub fn new(a: Point, b: Point, radius: Real) -> Result<Self, GeometryError> {
        finite_point("capsule.a", &a)?;
        finite_point("capsule.b", &b)?;
        non_negative("capsule.radius", radius)?;
        Ok(Self {
            axis: Segment::new(a, b)?,
            radius,
        })
    }

    /// A capsule centred on the origin along the x axis: total length `2 * (half_length +
    /// radius)`.
    ///
    /// # Errors
    /// [`GeometryError`] naming `capsule.half_length` or `capsule.radius`.
    pub fn along_x(half_length: Real, radius: Real) -> Result<Self, GeometryError> {
        non_negative("capsule.half_length", half_length)?;
        Self::new(
            Point::new(-half_length, 0.0),
            Point::new(half_length, 0.0),
            radius,
        )
    }

    /// The inner segment (the capsule's axis).
    #[inline]
    pub fn axis(&self) -> &Segment {
        &self.axis
    }

    /// The radius around the axis.
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The axis end points, as the capsule's core.
    #[inline]
    pub fn core(&self) -> &[Point] {
        self.axis.core()
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct CapsuleDef {
    a: Point,
    b: Point,
    radius: Real,
}

#[cfg(feature = "serde")]
impl TryFrom<CapsuleDef> for Capsule {
    type Error = GeometryError;
    fn try_from(def: CapsuleDef) -> Result<Self, GeometryError> {
        Self::new(def.a, def.b, def.radius)
    }
}

#[cfg(feature = "serde")]
impl From<Capsule> for CapsuleDef {
    fn from(c: Capsule) -> Self {
        Self {
            a: c.axis.a(),
            b: c.axis.b(),
            radius: c.radius,
        }
    }
}
