//! Which shapes may touch: [`CollisionFilter`] (defined in `impact-geometry`, so that the
//! broadphase's proxies hold the same filter), and [`ShapeId`], the name of one shape of one
//! body.

use crate::body_set::BodyHandle;
pub use impact_geometry::CollisionFilter;

/// One shape of one body: what hits and events name, so that a body of several shapes
/// needs no other API. `index` counts the body's shapes from 0 in the order they were given;
/// a body of one shape has only index 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShapeId {
    /// The body the shape belongs to.
    pub body: BodyHandle,
    /// The shape's place in its body's list.
    pub index: u32,
}

impl ShapeId {
    /// The first (or only) shape of `body`.
    #[inline]
    #[must_use]
    pub const fn first_of(body: BodyHandle) -> Self {
        Self { body, index: 0 }
    }
}
