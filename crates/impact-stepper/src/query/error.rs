//! [`QueryError`]: why a scene query was refused, and the checks that produce it.

use core::fmt;
use impact_broadphase::BroadphaseError;
use impact_geometry::validate::Shown;
use impact_geometry::{Aabb, GeometryError, Isometry, Point, Real, Vector, validate};

/// Why a scene query was refused. A refused query has looked at nothing and called no
/// callback.
///
/// Each variant names the offending field of the query (`"ray.origin.x"`,
/// `"ray.translation"`, `"max_distance"`, `"filter.mask_bits"`, `"options.target_distance"`,
/// ...) and the bad value, as [`WorldError`](crate::WorldError) does for the world.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum QueryError {
    /// A value was NaN or infinite.
    NotFinite {
        /// The field, as a path such as `"ray.origin.y"`.
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
    /// A length that must be positive was zero (a ray or a cast that goes nowhere).
    Zero {
        /// The field, as a path (`"ray.translation"`).
        field: String,
    },
    /// A value was outside its allowed range.
    OutOfRange {
        /// The field, as a path.
        field: String,
        /// The offending value.
        value: Real,
        /// What the range is, in words.
        expected: &'static str,
    },
    /// The world's domain is periodic: scene queries take the plane as unbounded, and a
    /// periodic world would answer only about the bodies' primary images, so they refuse.
    PeriodicDomain {
        /// The field (`"settings.domain"`).
        field: String,
    },
    /// The broadphase refused the query's box: a query so far out that its box overflows.
    Broadphase(BroadphaseError),
    /// A shape or value the geometry's checks refused.
    Geometry(GeometryError),
}

impl fmt::Display for QueryError {
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
            Self::Zero { field } => write!(f, "{field}: must not be zero"),
            Self::OutOfRange {
                field,
                value,
                expected,
            } => write!(f, "{field}: must be {expected}, got {}", Shown(*value)),
            Self::PeriodicDomain { field } => write!(
                f,
                "{field}: scene queries do not support periodic domains (they would see only \
                 the primary image of each body)"
            ),
            Self::Broadphase(e) => e.fmt(f),
            Self::Geometry(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for QueryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Broadphase(e) => Some(e),
            Self::Geometry(e) => Some(e),
            _ => None,
        }
    }
}

impl From<BroadphaseError> for QueryError {
    fn from(e: BroadphaseError) -> Self {
        Self::Broadphase(e)
    }
}

impl QueryError {
    /// The query's own variant for a field error found by [`impact_geometry::validate`] (the
    /// checks live there once; the messages are the same).
    fn from_field(e: GeometryError) -> Self {
        match e {
            GeometryError::NotFinite { field, value } => Self::NotFinite { field, value },
            GeometryError::Negative { field, value } => Self::Negative { field, value },
            GeometryError::OutOfRange {
                field,
                value,
                expected,
            } => Self::OutOfRange {
                field,
                value,
                expected,
            },
            other => Self::Geometry(other),
        }
    }
}

/// Checks that `value` is finite.
///
/// This and the other checks a cast or ray makes on every call test the usual case inline
/// and call the shared check, which names the field, only when it fails (a call and the
/// copy of its result each, a few percent of a shape cast).
#[inline]
pub(crate) fn finite(field: &str, value: Real) -> Result<Real, QueryError> {
    if value.is_finite() {
        return Ok(value);
    }
    finite_slow(field, value)
}

#[cold]
#[inline(never)]
fn finite_slow(field: &str, value: Real) -> Result<Real, QueryError> {
    validate::finite(field, value).map_err(QueryError::from_field)
}

/// Checks that `value` is finite and zero or more.
#[inline]
pub(crate) fn non_negative(field: &str, value: Real) -> Result<Real, QueryError> {
    if value.is_finite() && value >= 0.0 {
        return Ok(value);
    }
    non_negative_slow(field, value)
}

#[cold]
#[inline(never)]
fn non_negative_slow(field: &str, value: Real) -> Result<Real, QueryError> {
    validate::non_negative(field, value).map_err(QueryError::from_field)
}

/// Checks that both coordinates of a point are finite.
pub(crate) fn finite_point(field: &str, p: &Point) -> Result<(), QueryError> {
    validate::finite_point(field, p).map_err(QueryError::from_field)
}

/// Checks that both components of a vector are finite.
pub(crate) fn finite_vector(field: &str, v: &Vector) -> Result<(), QueryError> {
    validate::finite_vector(field, v).map_err(QueryError::from_field)
}

/// Checks a displacement that must go somewhere: finite, not zero, and of a length that
/// does not overflow (a vector of components beyond about `1e154` does).
#[inline]
pub(crate) fn displacement(field: &str, v: &Vector) -> Result<(), QueryError> {
    // A finite length has finite components; then only zero is refused.
    if v.norm().is_finite() && *v != Vector::zeros() {
        return Ok(());
    }
    displacement_slow(field, v)
}

#[cold]
#[inline(never)]
fn displacement_slow(field: &str, v: &Vector) -> Result<(), QueryError> {
    finite_vector(field, v)?;
    if *v == Vector::zeros() {
        return Err(QueryError::Zero {
            field: field.to_owned(),
        });
    }
    let length = v.norm();
    if !length.is_finite() {
        // The path is formatted only on error: rays are checked by the thousand per frame.
        finite(&format!("{field}.length"), length)?;
    }
    Ok(())
}

/// Checks a pose: a finite translation and a finite unit rotation (to 1e-9, as bodies'
/// poses are checked: [`validate::unit_pose`]).
#[inline]
pub(crate) fn pose(field: &str, pose: &Isometry) -> Result<(), QueryError> {
    // Every number finite (their sum is, unless it overflows, which only sends a good pose
    // to the full check), and the unit test as `validate::unit_pose` makes it.
    let t = pose.translation.vector;
    let (re, im) = (pose.rotation.re, pose.rotation.im);
    if (t.x + t.y + re + im).is_finite() && (re * re + im * im - 1.0).abs() <= 1e-9 {
        return Ok(());
    }
    pose_slow(field, pose)
}

#[cold]
#[inline(never)]
fn pose_slow(field: &str, pose: &Isometry) -> Result<(), QueryError> {
    validate::unit_pose(field, pose).map_err(QueryError::from_field)
}

/// Checks a box: finite corners, `mins <= maxs` on both axes.
pub(crate) fn aabb(field: &str, aabb: &Aabb) -> Result<(), QueryError> {
    let corners = [aabb.mins.x, aabb.mins.y, aabb.maxs.x, aabb.maxs.y];
    if !corners.iter().all(|c| c.is_finite()) {
        finite_point(&format!("{field}.mins"), &aabb.mins)?;
        finite_point(&format!("{field}.maxs"), &aabb.maxs)?;
    }
    for (axis, lo, hi) in [
        ("x", aabb.mins.x, aabb.maxs.x),
        ("y", aabb.mins.y, aabb.maxs.y),
    ] {
        if hi < lo {
            return Err(QueryError::OutOfRange {
                field: format!("{field}.maxs.{axis}"),
                value: hi,
                expected: "at least the same coordinate of mins",
            });
        }
    }
    Ok(())
}
