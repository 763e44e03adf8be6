//! The error type of every validating constructor, setter and solver stage, and the checks
//! that produce it.

use crate::{BodyHandle, JointHandle};
use core::fmt;
use impact_geometry::validate::Shown;
use impact_geometry::{GeometryError, Isometry, Point, Real, Vector, validate};

/// Why a body definition, a setting or a solver call was refused. Nothing was changed when
/// an error is returned.
///
/// Each variant names the offending field (`"body.density"`, `"pairs[3].a"`,
/// `"settings.contact_hertz"`, ...) and the bad value, so that a message reaching a user says
/// what to fix.
#[derive(Debug, Clone, PartialEq)]
pub enum SolverError {
    /// A value was NaN or infinite.
    NotFinite {
        /// The field, as a path such as `"body.linvel.x"`.
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
    /// A value was outside its allowed range.
    OutOfRange {
        /// The field, as a path.
        field: String,
        /// The offending value.
        value: Real,
        /// What the range is, in words.
        expected: &'static str,
    },
    /// A dynamic body ended up with zero mass: its shape has no area (a segment) or its
    /// density is zero, and no mass was set by hand.
    MasslessDynamic {
        /// The field, as a path (`"body.mass"`).
        field: String,
        /// The mass the shape and density gave.
        value: Real,
    },
    /// A handle named no body: it was never issued by this set, or its body was removed.
    UnknownBody {
        /// The field, as a path such as `"pairs[2].b"`.
        field: String,
        /// The stale or foreign handle.
        handle: BodyHandle,
    },
    /// A pair named the same body twice.
    SameBody {
        /// The field, as a path such as `"pairs[2]"`.
        field: String,
        /// The body named twice.
        handle: BodyHandle,
    },
    /// A shape index named no shape of the body, or named its only shape where a body must
    /// keep one.
    UnknownShape {
        /// The field, as a path (`"shape"`).
        field: String,
        /// The index given.
        index: u32,
        /// How many shapes the body has.
        count: u32,
    },
    /// A handle named no joint: it was never issued by this set, or its joint was removed.
    UnknownJoint {
        /// The field, as a path such as `"joint"`.
        field: String,
        /// The stale or foreign handle.
        handle: JointHandle,
    },
    /// A setting was asked of a joint whose kind has no such setting (a mouse target on a
    /// revolute joint).
    WrongJointKind {
        /// The field, as a path such as `"joint.mouse.target"`.
        field: String,
        /// The joint's kind (`"revolute"`, ...).
        kind: &'static str,
    },
    /// A geometry constructor refused a value (a sweep or mass properties built for a body).
    Geometry(GeometryError),
}

impl fmt::Display for SolverError {
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
            Self::OutOfRange {
                field,
                value,
                expected,
            } => write!(f, "{field}: must be {expected}, got {}", Shown(*value)),
            Self::MasslessDynamic { field, value } => write!(
                f,
                "{field}: a dynamic body needs a positive mass, got {} (the shape has no \
                 area or the density is zero; set the mass properties by hand)",
                Shown(*value)
            ),
            Self::UnknownBody { field, handle } => write!(
                f,
                "{field}: no body with index {} and generation {}",
                handle.index, handle.generation
            ),
            Self::SameBody { field, handle } => write!(
                f,
                "{field}: both sides name body {}:{}",
                handle.index, handle.generation
            ),
            Self::UnknownShape {
                field,
                index,
                count,
            } => write!(
                f,
                "{field}: no shape {index} to change of a body with {count} (a body keeps at \
                 least one)"
            ),
            Self::UnknownJoint { field, handle } => write!(
                f,
                "{field}: no joint with index {} and generation {}",
                handle.index, handle.generation
            ),
            Self::WrongJointKind { field, kind } => {
                write!(f, "{field}: a {kind} joint has no such setting")
            }
            Self::Geometry(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SolverError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Geometry(e) => Some(e),
            _ => None,
        }
    }
}

impl From<GeometryError> for SolverError {
    fn from(e: GeometryError) -> Self {
        Self::Geometry(e)
    }
}

impl SolverError {
    /// The solver's own variant for a field error found by [`impact_geometry::validate`]
    /// (the checks live there once; the messages are the same).
    fn from_field(e: GeometryError) -> Self {
        match e {
            GeometryError::NotFinite { field, value } => Self::NotFinite { field, value },
            GeometryError::Negative { field, value } => Self::Negative { field, value },
            GeometryError::NotPositive { field, value } => Self::NotPositive { field, value },
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
pub(crate) fn finite(field: &str, value: Real) -> Result<Real, SolverError> {
    validate::finite(field, value).map_err(SolverError::from_field)
}

/// Checks that `value` is finite and zero or more.
pub(crate) fn non_negative(field: &str, value: Real) -> Result<Real, SolverError> {
    validate::non_negative(field, value).map_err(SolverError::from_field)
}

/// Checks that `value` is finite and strictly positive.
pub(crate) fn positive(field: &str, value: Real) -> Result<Real, SolverError> {
    validate::positive(field, value).map_err(SolverError::from_field)
}

/// Checks that `value` is finite and in `[lo, hi]`; `expected` describes the range.
pub(crate) fn in_range(
    field: &str,
    value: Real,
    lo: Real,
    hi: Real,
    expected: &'static str,
) -> Result<Real, SolverError> {
    finite(field, value)?;
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(SolverError::OutOfRange {
            field: field.to_owned(),
            value,
            expected,
        })
    }
}

/// Checks that both components of a vector are finite; the path is only built on error.
pub(crate) fn finite_vector(field: &str, v: &Vector) -> Result<(), SolverError> {
    validate::finite_vector(field, v).map_err(SolverError::from_field)
}

/// Checks that both coordinates of a point are finite.
pub(crate) fn finite_point(field: &str, p: &Point) -> Result<(), SolverError> {
    validate::finite_point(field, p).map_err(SolverError::from_field)
}

/// Checks that a pose has a finite translation and a finite unit rotation
/// ([`validate::unit_pose`]).
pub(crate) fn valid_pose(field: &str, pose: &Isometry) -> Result<(), SolverError> {
    validate::unit_pose(field, pose).map_err(SolverError::from_field)
}
