//! [`Circle`]: a point core with a radius.

use crate::validate::{finite_point, non_negative};
use crate::{GeometryError, Point, Real};

/// A disc: every point within `radius` of `center` (body frame).
///
/// A zero radius is allowed and makes a point, which is how moving particles are modelled.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "CircleDef", into = "CircleDef"))]
pub struct Circle {
    center: Point,
    radius: Real,
}

impl Circle {
    /// A disc of `radius` centred on the body origin.
    ///
    /// # Errors
    /// [`GeometryError`] naming `circle.radius` when it is NaN, infinite or negative.
    pub fn new(radius: Real) -> Result<Self, GeometryError> {
        Self::with_center(Point::origin(), radius)
    }

    /// A disc of `radius` centred on `center` (body frame).
    ///
    /// # Errors
    /// [`GeometryError`] naming `circle.center.x`, `circle.center.y` or `circle.radius`.
    pub fn with_center(center: Point, radius: Real) -> Result<Self, GeometryError> {
        finite_point("circle.center", &center)?;
        non_negative("circle.radius", radius)?;
        Ok(Self { center, radius })
    }

    /// The centre in the body frame.
    #[inline]
    pub fn center(&self) -> Point {
        self.center
    }

    /// The radius (world units, zero or more).
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The core of the disc: its centre, as a one-vertex slice.
    #[inline]
    pub fn core(&self) -> &[Point] {
        core::slice::from_ref(&self.center)
    }
}

/// The serialized form of a [`Circle`], validated on the way in.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct CircleDef {
    #[serde(default = "Point::origin")]
    center: Point,
    radius: Real,
}

#[cfg(feature = "serde")]
impl TryFrom<CircleDef> for Circle {
    type Error = GeometryError;
    fn try_from(def: CircleDef) -> Result<Self, GeometryError> {
        Self::with_center(def.center, def.radius)
    }
}

#[cfg(feature = "serde")]
impl From<Circle> for CircleDef {
    fn from(c: Circle) -> Self {
        Self {
            center: c.center,
            radius: c.radius,
        }
    }
}
