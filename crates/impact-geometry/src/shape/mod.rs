//! The convex shapes of impact.
//!
//! Every shape is a *core* (a point, a segment, or a convex polygon, given by its vertices in
//! the body frame) inflated by a *radius*. This is what lets one set of algorithms, from the
//! closed-form times of impact to GJK, serve every pair: the distance between two shapes is
//! the distance between their cores minus the sum of their radii.

mod capsule;
mod chain;
mod chain_check;
mod circle;
mod crossing;
mod decompose;
mod outline;
mod polygon;
mod seam;
mod segment;
mod strip;

pub use capsule::Capsule;
pub use chain::{Chain, ChainSegment};
pub use circle::Circle;
pub use outline::ConcaveOutline;
pub use polygon::ConvexPolygon;
pub use seam::Seam;
pub use segment::Segment;
pub use strip::Strip;

use crate::{Aabb, GeometryError, Isometry, MassProperties, Point, Real};

/// Which kind of shape a [`Shape`] holds; used to pick the right pair query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShapeKind {
    /// A [`Circle`].
    Circle,
    /// A [`Segment`].
    Segment,
    /// A [`Capsule`].
    Capsule,
    /// A [`ConvexPolygon`], sharp or rounded (one kind: the pair queries read the radius).
    Polygon,
    /// A [`ChainSegment`].
    ChainSegment,
}

/// Any shape of impact.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "snake_case"))]
pub enum Shape {
    /// A disc.
    Circle(Circle),
    /// A thin segment.
    Segment(Segment),
    /// A segment inflated by a radius.
    Capsule(Capsule),
    /// A convex polygon, sharp or rounded by a radius.
    Polygon(ConvexPolygon),
    /// One segment of a chain: one-sided, with its neighbours' vertices (see
    /// [`ChainSegment`]).
    ChainSegment(ChainSegment),
}

impl Shape {
    /// Which kind of shape this is.
    #[inline]
    pub fn kind(&self) -> ShapeKind {
        match self {
            Self::Circle(_) => ShapeKind::Circle,
            Self::Segment(_) => ShapeKind::Segment,
            Self::Capsule(_) => ShapeKind::Capsule,
            Self::Polygon(_) => ShapeKind::Polygon,
            Self::ChainSegment(_) => ShapeKind::ChainSegment,
        }
    }

    /// The core vertices in the body frame: one for a circle, two for a segment, capsule or
    /// chain segment (its ghosts are not part of it), the corners for a polygon.
    #[inline]
    pub fn core(&self) -> &[Point] {
        match self {
            Self::Circle(s) => s.core(),
            Self::Segment(s) => s.core(),
            Self::Capsule(s) => s.core(),
            Self::Polygon(s) => s.core(),
            Self::ChainSegment(s) => s.core(),
        }
    }

    /// The narrowest strip that holds the shape (see [`Strip`]): precomputed for a polygon
    /// (its rounding included), along the core for a segment, capsule or chain segment; none
    /// for a disc (its strip would be as wide as
    /// its circle) or a segment of zero length.
    #[inline]
    pub fn strip(&self) -> Option<Strip> {
        match self {
            Self::Circle(_) => None,
            Self::Segment(s) => Strip::of_segment(&s.core()[0], &s.core()[1], 0.0),
            Self::Capsule(c) => Strip::of_segment(&c.core()[0], &c.core()[1], c.radius()),
            Self::Polygon(p) => Some(*p.strip()),
            Self::ChainSegment(s) => Strip::of_segment(&s.a(), &s.b(), 0.0),
        }
    }

    /// The radius the core is inflated by (zero for segments, chain segments and sharp
    /// polygons).
    #[inline]
    pub fn radius(&self) -> Real {
        match self {
            Self::Circle(s) => s.radius(),
            Self::Capsule(s) => s.radius(),
            Self::Polygon(s) => s.radius(),
            Self::Segment(_) | Self::ChainSegment(_) => 0.0,
        }
    }

    /// The tight axis-aligned box of the shape placed at `pose`.
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        Aabb::from_points(self.core().iter().map(|p| pose * p)).inflated(self.radius())
    }

    /// The largest distance from `center` (body frame) to any point of the shape: the radius
    /// of the smallest disc about `center` that holds the shape whatever its rotation.
    #[inline]
    pub fn bounding_radius(&self, center: &Point) -> Real {
        self.core_bounding_radius(center) + self.radius()
    }

    /// The largest distance from `center` (body frame) to a point of the core: how far a
    /// turn of one radian about `center` can move a point of the core (the rounding turns in
    /// place). [`Shape::bounding_radius`] without the radius.
    #[inline]
    pub fn core_bounding_radius(&self, center: &Point) -> Real {
        // The largest squared distance, then one square root: the same value as the largest
        // distance (the square root is correctly rounded, so it keeps the order), for less
        // work in conservative advancement, which asks twice per query.
        // A plain comparison rather than `Real::max`: the same value (a NaN distance is
        // skipped either way), without `max`'s NaN handling in a loop conservative
        // advancement runs on every query.
        let mut farthest: Real = 0.0;
        for p in self.core() {
            let d = (p - center).norm_squared();
            if d > farthest {
                farthest = d;
            }
        }
        farthest.sqrt()
    }

    /// Area, centroid and angular inertia for a uniform `density` (mass per unit area).
    ///
    /// # Errors
    /// [`GeometryError`] naming `density` if it is negative or not finite.
    pub fn mass_properties(&self, density: Real) -> Result<MassProperties, GeometryError> {
        MassProperties::from_shape(self, density)
    }
}

impl From<Circle> for Shape {
    fn from(s: Circle) -> Self {
        Self::Circle(s)
    }
}

impl From<Segment> for Shape {
    fn from(s: Segment) -> Self {
        Self::Segment(s)
    }
}

impl From<Capsule> for Shape {
    fn from(s: Capsule) -> Self {
        Self::Capsule(s)
    }
}

impl From<ChainSegment> for Shape {
    fn from(s: ChainSegment) -> Self {
        Self::ChainSegment(s)
    }
}

impl From<ConvexPolygon> for Shape {
    fn from(s: ConvexPolygon) -> Self {
        Self::Polygon(s)
    }
}
