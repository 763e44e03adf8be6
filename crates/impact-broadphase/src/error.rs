//! The error type of every broadphase operation, and the checks that produce it.

use crate::ProxyId;
use core::fmt;
use impact_geometry::validate::Shown;
use impact_geometry::{Aabb, Point, Real, Vector};

/// Why a broadphase refused an operation. Nothing was changed when an error is returned.
///
/// Each variant names the offending field (`"aabb.mins.x"`, `"moved[3].aabb.maxs.y"`,
/// `"ray.max_fraction"`, ...) and the bad value, so that a message reaching a user says what
/// to fix.
#[derive(Debug, Clone, PartialEq)]
pub enum BroadphaseError {
    /// A coordinate or parameter was NaN or infinite.
    NotFinite {
        /// The field, as a path such as `"aabb.mins.x"`.
        field: String,
        /// The offending value.
        value: Real,
    },
    /// A box had `mins > maxs` along an axis.
    Inverted {
        /// The axis, as a path such as `"aabb.x"`.
        field: String,
        /// The lower bound given (`mins` along that axis).
        min: Real,
        /// The upper bound given (`maxs` along that axis).
        max: Real,
    },
    /// A value that must be zero or more was negative.
    Negative {
        /// The field, as a path.
        field: String,
        /// The offending value.
        value: Real,
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
    /// An update or removal named a proxy that is not in the broadphase.
    UnknownProxy {
        /// The field, as a path such as `"update.id"`.
        field: String,
        /// The unknown handle.
        id: ProxyId,
    },
    /// An insertion named a proxy that is already in the broadphase.
    DuplicateProxy {
        /// The field, as a path such as `"insert.id"`.
        field: String,
        /// The handle already in use.
        id: ProxyId,
    },
}

impl fmt::Display for BroadphaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFinite { field, value } => {
                write!(f, "{field}: must be finite, got {}", Shown(*value))
            }
            Self::Inverted { field, min, max } => {
                write!(
                    f,
                    "{field}: mins must not exceed maxs, got mins {min} > maxs {max}"
                )
            }
            Self::Negative { field, value } => {
                write!(
                    f,
                    "{field}: must be zero or positive, got {}",
                    Shown(*value)
                )
            }
            Self::OutOfRange {
                field,
                value,
                expected,
            } => write!(f, "{field}: must be {expected}, got {}", Shown(*value)),
            Self::UnknownProxy { field, id } => write!(f, "{field}: unknown proxy {}", id.0),
            Self::DuplicateProxy { field, id } => {
                write!(f, "{field}: proxy {} is already inserted", id.0)
            }
        }
    }
}

impl std::error::Error for BroadphaseError {}

/// Checks that `value` is finite; `field` is only called to build the path on error.
pub(crate) fn finite(field: impl FnOnce() -> String, value: Real) -> Result<(), BroadphaseError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(BroadphaseError::NotFinite {
            field: field(),
            value,
        })
    }
}

/// Checks that `value` is finite and zero or more.
pub(crate) fn non_negative(field: &str, value: Real) -> Result<(), BroadphaseError> {
    finite(|| field.to_owned(), value)?;
    if value < 0.0 {
        return Err(BroadphaseError::Negative {
            field: field.to_owned(),
            value,
        });
    }
    Ok(())
}

/// Checks that both coordinates are finite.
pub(crate) fn finite_point(field: &str, p: &Point) -> Result<(), BroadphaseError> {
    finite(|| format!("{field}.x"), p.x)?;
    finite(|| format!("{field}.y"), p.y)
}

/// Checks that both components are finite.
pub(crate) fn finite_vector(field: &str, v: &Vector) -> Result<(), BroadphaseError> {
    finite(|| format!("{field}.x"), v.x)?;
    finite(|| format!("{field}.y"), v.y)
}

/// Checks that a box has finite corners and `mins <= maxs` on both axes.
///
/// Infinite boxes are refused too: the tree's heuristics compute areas and the swept tests
/// subtract coordinates, and `inf - inf` is NaN, which would silently drop a proxy from every
/// query. A world-spanning ground is a large finite box.
pub(crate) fn valid_aabb(field: &str, aabb: &Aabb) -> Result<(), BroadphaseError> {
    finite_point_with(|axis| format!("{field}.mins.{axis}"), &aabb.mins)?;
    finite_point_with(|axis| format!("{field}.maxs.{axis}"), &aabb.maxs)?;
    for (axis, min, max) in [
        ("x", aabb.mins.x, aabb.maxs.x),
        ("y", aabb.mins.y, aabb.maxs.y),
    ] {
        if min > max {
            return Err(BroadphaseError::Inverted {
                field: format!("{field}.{axis}"),
                min,
                max,
            });
        }
    }
    Ok(())
}

fn finite_point_with(field: impl Fn(&str) -> String, p: &Point) -> Result<(), BroadphaseError> {
    finite(|| field("x"), p.x)?;
    finite(|| field("y"), p.y)
}
