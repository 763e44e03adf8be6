//! Options shared by every time-of-impact method, closed-form or iterative.

use impact_geometry::Real;
use impact_geometry::tolerances::{LINEAR_SLOP, TOI_TARGET_SEPARATION, TOI_TOLERANCE};
use std::fmt;

/// What a time-of-impact query looks for, and how precisely.
///
/// - `max_fraction`: only impacts at fractions in `[0, max_fraction]` of the step count;
///   `max_fraction` is in `[0, 1]`.
/// - `target_separation` (world units, zero or more): the query reports the first time the
///   shapes come within this distance, not the time they touch. A stepper keeps this small gap
///   so that the next step's contact solver sees a contact, not an overlap.
/// - `tolerance` (world units, positive): shapes closer than `-tolerance` at the start are
///   reported as overlapping; shapes within `target_separation + tolerance` at the start count
///   as touching. Iterative methods stop when they are within `tolerance` of the target.
/// - `max_iterations`: the cap of iterative methods, after which they answer
///   [`Toi::NotConverged`](crate::Toi::NotConverged) with the last safe fraction.
///
/// The defaults derive from [`LINEAR_SLOP`]; scale them with
/// [`ToiOptions::for_length_unit`] if your world unit is not a metre-sized thing.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "ToiOptionsDef", into = "ToiOptionsDef")
)]
pub struct ToiOptions {
    max_fraction: Real,
    target_separation: Real,
    tolerance: Real,
    max_iterations: u32,
}

/// Why a [`ToiOptions`] value was refused; names the field and the value.
#[derive(Debug, Clone, PartialEq)]
pub struct ToiOptionsError {
    /// The field, such as `"toi_options.tolerance"`.
    pub field: &'static str,
    /// The offending value.
    pub value: Real,
    /// The allowed range, in words.
    pub expected: &'static str,
}

impl fmt::Display for ToiOptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: must be {}, got {}",
            self.field,
            self.expected,
            impact_geometry::validate::Shown(self.value)
        )
    }
}

impl std::error::Error for ToiOptionsError {}

impl Default for ToiOptions {
    fn default() -> Self {
        Self {
            max_fraction: 1.0,
            target_separation: TOI_TARGET_SEPARATION,
            tolerance: TOI_TOLERANCE,
            max_iterations: 64,
        }
    }
}

impl ToiOptions {
    /// Options with every field given.
    ///
    /// # Errors
    /// [`ToiOptionsError`] naming the first field out of range: `max_fraction` outside
    /// `[0, 1]`, `target_separation` negative or not finite, `tolerance` not positive or not
    /// finite, `max_iterations` zero.
    #[inline]
    pub fn new(
        max_fraction: Real,
        target_separation: Real,
        tolerance: Real,
        max_iterations: u32,
    ) -> Result<Self, ToiOptionsError> {
        if !(0.0..=1.0).contains(&max_fraction) {
            return Err(ToiOptionsError {
                field: "toi_options.max_fraction",
                value: max_fraction,
                expected: "in [0, 1]",
            });
        }
        if !(target_separation.is_finite() && target_separation >= 0.0) {
            return Err(ToiOptionsError {
                field: "toi_options.target_separation",
                value: target_separation,
                expected: "finite and zero or more",
            });
        }
        if !(tolerance.is_finite() && tolerance > 0.0) {
            return Err(ToiOptionsError {
                field: "toi_options.tolerance",
                value: tolerance,
                expected: "finite and positive",
            });
        }
        if max_iterations == 0 {
            return Err(ToiOptionsError {
                field: "toi_options.max_iterations",
                value: 0.0,
                expected: "at least 1",
            });
        }
        Ok(Self {
            max_fraction,
            target_separation,
            tolerance,
            max_iterations,
        })
    }

    /// Touching means touching: zero target separation and a tolerance of `1e-9` world
    /// units. What closed-form queries and tests against other libraries use.
    pub fn exact() -> Self {
        Self {
            target_separation: 0.0,
            tolerance: 1e-9,
            ..Self::default()
        }
    }

    /// The defaults scaled for a world whose natural length is `unit` times a metre-sized
    /// object: target separation and tolerance are multiplied by `unit`.
    ///
    /// # Errors
    /// [`ToiOptionsError`] naming `toi_options.length_unit` if `unit` is not finite and positive.
    pub fn for_length_unit(unit: Real) -> Result<Self, ToiOptionsError> {
        if !(unit.is_finite() && unit > 0.0) {
            return Err(ToiOptionsError {
                field: "toi_options.length_unit",
                value: unit,
                expected: "finite and positive",
            });
        }
        let d = Self::default();
        Self::new(
            d.max_fraction,
            d.target_separation * unit,
            d.tolerance * unit,
            d.max_iterations,
        )
    }

    /// The same options with another `max_fraction`.
    ///
    /// # Errors
    /// As [`ToiOptions::new`].
    pub fn with_max_fraction(self, max_fraction: Real) -> Result<Self, ToiOptionsError> {
        Self::new(
            max_fraction,
            self.target_separation,
            self.tolerance,
            self.max_iterations,
        )
    }

    /// The same options with another `target_separation`.
    ///
    /// # Errors
    /// As [`ToiOptions::new`].
    pub fn with_target_separation(self, target: Real) -> Result<Self, ToiOptionsError> {
        Self::new(
            self.max_fraction,
            target,
            self.tolerance,
            self.max_iterations,
        )
    }

    /// The same options with another `tolerance`.
    ///
    /// # Errors
    /// As [`ToiOptions::new`].
    pub fn with_tolerance(self, tolerance: Real) -> Result<Self, ToiOptionsError> {
        Self::new(
            self.max_fraction,
            self.target_separation,
            tolerance,
            self.max_iterations,
        )
    }

    /// The same options with another iteration cap.
    ///
    /// # Errors
    /// As [`ToiOptions::new`].
    pub fn with_max_iterations(self, max_iterations: u32) -> Result<Self, ToiOptionsError> {
        Self::new(
            self.max_fraction,
            self.target_separation,
            self.tolerance,
            max_iterations,
        )
    }

    /// Impacts later than this fraction of the step are ignored.
    #[inline]
    pub fn max_fraction(&self) -> Real {
        self.max_fraction
    }

    /// The distance (world units) at which shapes count as impacting.
    #[inline]
    pub fn target_separation(&self) -> Real {
        self.target_separation
    }

    /// The accuracy (world units) of classification and of iterative methods.
    #[inline]
    pub fn tolerance(&self) -> Real {
        self.tolerance
    }

    /// The iteration cap of iterative methods.
    #[inline]
    pub fn max_iterations(&self) -> u32 {
        self.max_iterations
    }
}

const _: () = assert!(TOI_TOLERANCE < LINEAR_SLOP);

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct ToiOptionsDef {
    max_fraction: Real,
    target_separation: Real,
    tolerance: Real,
    max_iterations: u32,
}

#[cfg(feature = "serde")]
impl TryFrom<ToiOptionsDef> for ToiOptions {
    type Error = ToiOptionsError;
    fn try_from(d: ToiOptionsDef) -> Result<Self, ToiOptionsError> {
        Self::new(
            d.max_fraction,
            d.target_separation,
            d.tolerance,
            d.max_iterations,
        )
    }
}

#[cfg(feature = "serde")]
impl From<ToiOptions> for ToiOptionsDef {
    fn from(o: ToiOptions) -> Self {
        Self {
            max_fraction: o.max_fraction,
            target_separation: o.target_separation,
            tolerance: o.tolerance,
            max_iterations: o.max_iterations,
        }
    }
}
