//! The error type of the world and its steppers, and the checks that produce it.

use core::fmt;
use impact_broadphase::BroadphaseError;
use impact_geometry::validate::Shown;
use impact_geometry::{GeometryError, Real, Vector, validate};
use impact_solver::{BodyHandle, SolverError};

/// Why a world call was refused. Unless a method's documentation says otherwise, nothing was
/// changed when an error is returned.
///
/// Each variant names the offending field (`"dt"`, `"settings.gravity.x"`, `"handle"`,
/// `"fixed_dt"`, ...) and the bad value, so a message reaching a user says what to fix.
/// Errors of the stages below (a body definition, a solver setting, a broadphase box) are
/// wrapped with their own field paths (`"body.density"`, `"settings.substeps"`, ...).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum WorldError {
    /// A value was NaN or infinite.
    NotFinite {
        /// The field, as a path such as `"settings.gravity.y"`.
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
    /// A handle named no body of this world: never issued by it, or its body was removed.
    UnknownBody {
        /// The field, as a path (`"handle"`).
        field: String,
        /// The stale or foreign handle.
        handle: BodyHandle,
    },
    /// The solver or a body definition refused a value.
    Solver(SolverError),
    /// The broadphase refused a box (a body so far away or so fast that its box overflows).
    Broadphase(BroadphaseError),
}

impl fmt::Display for WorldError {
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
            Self::UnknownBody { field, handle } => write!(
                f,
                "{field}: no body with index {} and generation {}",
                handle.index, handle.generation
            ),
            Self::Solver(e) => e.fmt(f),
            Self::Broadphase(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for WorldError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Solver(e) => Some(e),
            Self::Broadphase(e) => Some(e),
            _ => None,
        }
    }
}

impl From<SolverError> for WorldError {
    fn from(e: SolverError) -> Self {
        Self::Solver(e)
    }
}

impl From<BroadphaseError> for WorldError {
    fn from(e: BroadphaseError) -> Self {
        Self::Broadphase(e)
    }
}

impl WorldError {
    /// The same error with its field's leading `from` (a whole first part of the path:
    /// `"body"` in `"body.density"` or `"body"`, not in `"bodyguard"`) replaced by `to`,
    /// for a caller that knows where the value came from (`bodies[3]`). A field that does
    /// not start with `from` is kept.
    pub(crate) fn renamed(mut self, from: &str, to: &str) -> Self {
        let rename = |field: &mut String| {
            if let Some(rest) = field.strip_prefix(from)
                && (rest.is_empty() || rest.starts_with('.') || rest.starts_with('['))
            {
                *field = format!("{to}{rest}");
            }
        };
        match &mut self {
            Self::NotFinite { field, .. }
            | Self::Negative { field, .. }
            | Self::NotPositive { field, .. }
            | Self::OutOfRange { field, .. }
            | Self::UnknownBody { field, .. } => rename(field),
            Self::Solver(e) => match e {
                SolverError::NotFinite { field, .. }
                | SolverError::Negative { field, .. }
                | SolverError::NotPositive { field, .. }
                | SolverError::OutOfRange { field, .. }
                | SolverError::MasslessDynamic { field, .. }
                | SolverError::UnknownBody { field, .. }
                | SolverError::SameBody { field, .. }
                | SolverError::UnknownShape { field, .. }
                | SolverError::UnknownJoint { field, .. }
                | SolverError::WrongJointKind { field, .. } => rename(field),
                // A shape's own checks name the shape's fields, not the body's.
                SolverError::Geometry(_) => {}
            },
            Self::Broadphase(_) => {}
        }
        self
    }

    /// The world's own variant for a field error found by [`impact_geometry::validate`]
    /// (the checks live there once; the messages are the same).
    fn from_field(e: GeometryError) -> Self {
        match e {
            GeometryError::NotFinite { field, value } => Self::NotFinite { field, value },
            GeometryError::Negative { field, value } => Self::Negative { field, value },
            GeometryError::NotPositive { field, value } => Self::NotPositive { field, value },
            other => Self::Solver(SolverError::Geometry(other)),
        }
    }
}

/// Checks that `value` is finite.
pub(crate) fn finite(field: &str, value: Real) -> Result<Real, WorldError> {
    validate::finite(field, value).map_err(WorldError::from_field)
}

/// Checks that `value` is finite and zero or more.
pub(crate) fn non_negative(field: &str, value: Real) -> Result<Real, WorldError> {
    validate::non_negative(field, value).map_err(WorldError::from_field)
}

/// Checks that `value` is finite and strictly positive.
pub(crate) fn positive(field: &str, value: Real) -> Result<Real, WorldError> {
    validate::positive(field, value).map_err(WorldError::from_field)
}

/// Checks that both components of a vector are finite.
pub(crate) fn finite_vector(field: &str, v: &Vector) -> Result<(), WorldError> {
    validate::finite_vector(field, v).map_err(WorldError::from_field)
}

/// Checks that a vector's components and its length are finite: a step measures gravity by
/// its length, which overflows from components of about 1.3e154 on.
pub(crate) fn finite_length(field: &str, v: &Vector) -> Result<(), WorldError> {
    finite_vector(field, v)?;
    let length = v.norm();
    if length.is_finite() {
        Ok(())
    } else {
        Err(WorldError::OutOfRange {
            field: field.to_owned(),
            value: v.x.abs().max(v.y.abs()),
            expected: "a vector whose length is finite in f64 (components below about 1.3e154)",
        })
    }
}
