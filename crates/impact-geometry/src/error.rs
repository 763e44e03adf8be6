//! The error type of every validating constructor in the geometry crate.

use crate::Real;
use crate::validate::Shown;
use core::fmt;

/// Why a shape, sweep or mass definition was refused.
///
/// Each variant names the offending field (`"circle.radius"`, `"polygon.vertices[3].x"`, ...)
/// and the bad value, so that a message reaching a user says what to fix.
#[derive(Debug, Clone, PartialEq)]
pub enum GeometryError {
    /// A value was NaN or infinite.
    NotFinite {
        /// The field, as a path such as `"capsule.b.y"`.
        field: String,
        /// The offending value.
        value: Real,
    },
    /// A value that must be zero or more was negative.
    Negative {
        /// The field, as a path.
        field: String,
        /// The offending value.
        value: Real,
    },
    /// A value that must be strictly positive was zero or negative.
    NotPositive {
        /// The field, as a path.
        field: String,
        /// The offending value.
        value: Real,
    },
    /// A polygon had fewer than three distinct, non-collinear vertices.
    TooFewVertices {
        /// The field, as a path.
        field: String,
        /// How many usable vertices remained after dropping duplicates and collinear points.
        count: usize,
    },
    /// A polygon turned clockwise at a vertex, or wound around more than once.
    NotConvex {
        /// The field, as a path.
        field: String,
        /// The index (in the input) of the first vertex where convexity failed.
        index: usize,
    },
    /// A polygon's vertices were given clockwise; impact wants counter-clockwise order.
    Clockwise {
        /// The field, as a path.
        field: String,
    },
    /// An outline came back to a vertex it had already visited: two of its vertices are
    /// equal, or nearer than the weld distance
    /// ([`POLYGON_WELD_RELATIVE`](crate::tolerances::POLYGON_WELD_RELATIVE) of its size).
    RepeatedVertex {
        /// The later vertex, as a path such as `"outline[7]"`.
        field: String,
        /// The index (in the input) of the vertex it repeats.
        first: usize,
    },
    /// An outline, or a part of it, encloses no area: every vertex on one line, or three
    /// vertices that would have to form a piece nearer to a line than the weld distance.
    ZeroArea {
        /// The outline (`"outline"`) or the vertex at the thin part (`"outline[4]"`).
        field: String,
    },
    /// A chain had too few points for its kind (two for an open chain, three for a closed
    /// one).
    TooFewPoints {
        /// The field, as a path such as `"chain.points"`.
        field: String,
        /// How many points were given.
        count: usize,
        /// How many are needed.
        min: usize,
    },
    /// A point of a chain repeated the point before it (to rounding), leaving a segment of no
    /// length, whose direction and normal are undefined.
    RepeatedPoint {
        /// The repeating point, as a path such as `"chain.points[4]"`.
        field: String,
        /// The point it repeats, as a path.
        same_as: String,
    },
    /// Two segments of a chain cross or touch away from the vertex they share (if any), or
    /// two consecutive segments fold back onto each other; or two edges of an outline cross,
    /// touch or overlap, or come nearer than the weld distance (the outline is not a simple
    /// polygon; edge `i` runs from vertex `i` to vertex `i + 1`).
    SelfIntersecting {
        /// The first point of the later segment or edge, as a path such as
        /// `"chain.points[7]"` or `"outline[2]"`.
        field: String,
        /// The first point of the segment or edge it meets, as a path.
        other: String,
    },
    /// A count was outside its allowed range (for example a regular polygon with 2 sides).
    OutOfRange {
        /// The field, as a path.
        field: String,
        /// The offending value.
        value: Real,
        /// What the range is, in words.
        expected: &'static str,
    },
}

impl fmt::Display for GeometryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFinite { field, value } => {
                write!(f, "{field}: must be finite, got {}", Shown(*value))
            }
            Self::Negative { field, value } => {
                write!(
                    f,
                    "{field}: must be zero or positive, got {}",
                    Shown(*value)
                )
            }
            Self::NotPositive { field, value } => {
                write!(f, "{field}: must be positive, got {}", Shown(*value))
            }
            Self::TooFewVertices { field, count } => write!(
                f,
                "{field}: needs at least 3 distinct non-collinear vertices, got {count}"
            ),
            Self::NotConvex { field, index } => {
                write!(f, "{field}: not convex at vertex {index}")
            }
            Self::Clockwise { field } => write!(
                f,
                "{field}: vertices are clockwise, expected counter-clockwise"
            ),
            Self::RepeatedVertex { field, first } => {
                write!(f, "{field}: repeats vertex {first} of the outline")
            }
            Self::ZeroArea { field } => write!(f, "{field}: encloses no area"),
            Self::TooFewPoints { field, count, min } => {
                write!(f, "{field}: needs at least {min} points, got {count}")
            }
            Self::RepeatedPoint { field, same_as } => write!(
                f,
                "{field}: the same point as {same_as} (consecutive points must differ)"
            ),
            Self::SelfIntersecting { field, other } => write!(
                f,
                "{field}: the segment from this point meets the segment from {other}"
            ),
            Self::OutOfRange {
                field,
                value,
                expected,
            } => write!(f, "{field}: must be {expected}, got {}", Shown(*value)),
        }
    }
}

impl std::error::Error for GeometryError {}
