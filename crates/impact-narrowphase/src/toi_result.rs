//! The one result type of every time-of-impact method, and the error of a closed form asked
//! for a motion that has none.

use impact_geometry::{Point, Real, Vector};
use std::fmt;

/// The first impact found by a time-of-impact query.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Hit {
    /// When, as a fraction of the step in `[0, max_fraction]`.
    pub fraction: Real,
    /// Where (world frame, at that time): midway between the two surfaces, which at a hit
    /// are `target_separation` apart along `normal`. Swapping the shapes gives the same point.
    pub point: Point,
    /// Unit normal pointing from shape A toward shape B.
    pub normal: Vector,
}

/// What a time-of-impact query found over `[0, max_fraction]`.
///
/// Every method, closed-form or iterative, answers with this type and never reports a
/// fraction later than the true first time the shapes come within the target separation.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Toi {
    /// The shapes come within the target separation at [`Hit::fraction`]. A hit at fraction
    /// 0 means they start within the target separation (but not overlapping) and approach.
    Hit(Hit),
    /// The shapes overlap by more than the tolerance at the start: time of impact has no
    /// answer, the contact solver must separate them.
    Overlapping,
    /// The shapes never come within the target separation before `max_fraction`, including
    /// shapes that touch at the start and move apart.
    Separated,
    /// An iterative method reached its iteration cap. Up to `safe_fraction` the shapes are
    /// known to stay farther apart than the target separation.
    NotConverged {
        /// The last fraction known to be safe.
        safe_fraction: Real,
    },
}

impl Toi {
    /// The hit, if there is one.
    #[inline]
    pub fn hit(&self) -> Option<&Hit> {
        match self {
            Self::Hit(hit) => Some(hit),
            _ => None,
        }
    }

    /// The same answer with the roles of A and B exchanged (the normal flips).
    #[inline]
    pub fn swapped(self) -> Self {
        match self {
            Self::Hit(hit) => Self::Hit(Hit {
                normal: -hit.normal,
                ..hit
            }),
            other => other,
        }
    }

    /// How far a body may safely advance: the hit fraction, the safe fraction of a
    /// non-converged answer, `0` when overlapping, and `None` when the path is clear.
    #[inline]
    pub fn safe_fraction(&self) -> Option<Real> {
        match self {
            Self::Hit(hit) => Some(hit.fraction),
            Self::NotConverged { safe_fraction } => Some(*safe_fraction),
            Self::Overlapping => Some(0.0),
            Self::Separated => None,
        }
    }
}

/// A closed form was asked for a motion that has none: a sweep rotates (other than a disc
/// spinning about its own centre).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoClosedForm;

impl fmt::Display for NoClosedForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no closed-form time of impact: a sweep rotates")
    }
}

impl std::error::Error for NoClosedForm {}
