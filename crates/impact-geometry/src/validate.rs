//! Number checks shared by every crate of impact: each names the field and the bad value in
//! its [`GeometryError`], and other crates map that error into their own (one place for the
//! rules, one wording for the messages).

use crate::{GeometryError, Real};

/// `value`, if it is finite.
///
/// # Errors
/// [`GeometryError::NotFinite`] naming `field`.
pub fn finite(field: &str, value: Real) -> Result<Real, GeometryError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(GeometryError::NotFinite {
            field: field.to_owned(),
            value,
        })
    }
}

/// `value`, if it is finite and zero or more.
///
/// # Errors
/// [`GeometryError::NotFinite`] or [`GeometryError::Negative`] naming `field`.
pub fn non_negative(field: &str, value: Real) -> Result<Real, GeometryError> {
    finite(field, value)?;
    if value < 0.0 {
        Err(GeometryError::Negative {
            field: field.to_owned(),
            value,
        })
    } else {
        Ok(value)
    }
}

/// `value`, if it is finite and strictly positive.
///
/// # Errors
/// [`GeometryError::NotFinite`] or [`GeometryError::NotPositive`] naming `field`.
pub fn positive(field: &str, value: Real) -> Result<Real, GeometryError> {
    finite(field, value)?;
    if value <= 0.0 {
        Err(GeometryError::NotPositive {
            field: field.to_owned(),
            value,
        })
    } else {
        Ok(value)
    }
}

/// Checks that both coordinates of a point are finite; the field path (`field.x`, `field.y`)
/// is only built on error, so hot setters can call it.
///
/// # Errors
/// [`GeometryError::NotFinite`] naming the coordinate.
pub fn finite_point(field: &str, p: &crate::Point) -> Result<(), GeometryError> {
    finite_xy(field, p.x, p.y)
}

/// Checks that both components of a vector are finite; the field path is only built on error.
///
/// # Errors
/// [`GeometryError::NotFinite`] naming the component.
pub fn finite_vector(field: &str, v: &crate::Vector) -> Result<(), GeometryError> {
    finite_xy(field, v.x, v.y)
}

/// Checks a pose: a finite translation and a finite unit rotation. The field paths
/// (`field.translation.x`, `field.rotation.re`, ...) are only built on error.
///
/// A rotation that is not unit length (a hand-built `UnitComplex` from bad data, or a
/// deserialized one) would scale every shape; it is refused with its squared norm. Rotations
/// composed over millions of steps drift by a few ulps; the 1e-9 allowed is far above that
/// and far below any visible scaling.
///
/// # Errors
/// [`GeometryError::NotFinite`] naming the component, or [`GeometryError::OutOfRange`]
/// naming `field.rotation` with the squared norm.
pub fn unit_pose(field: &str, pose: &crate::Isometry) -> Result<(), GeometryError> {
    let t = pose.translation.vector;
    let (re, im) = (pose.rotation.re, pose.rotation.im);
    if !(t.x.is_finite() && t.y.is_finite() && re.is_finite() && im.is_finite()) {
        finite_vector(&format!("{field}.translation"), &t)?;
        finite(&format!("{field}.rotation.re"), re)?;
        finite(&format!("{field}.rotation.im"), im)?;
    }
    let norm2 = re * re + im * im;
    if (norm2 - 1.0).abs() > 1e-9 {
        return Err(GeometryError::OutOfRange {
            field: format!("{field}.rotation"),
            value: norm2,
            expected: "a unit complex number (squared norm 1)",
        });
    }
    Ok(())
}

fn finite_xy(field: &str, x: Real, y: Real) -> Result<(), GeometryError> {
    for (axis, value) in [("x", x), ("y", y)] {
        if !value.is_finite() {
            return Err(GeometryError::NotFinite {
                field: format!("{field}.{axis}"),
                value,
            });
        }
    }
    Ok(())
}

/// A number as error messages print it: Rust's shortest round-trip decimal between 1e-4 and
/// 1e16 in magnitude (and for zero and non-finite values), scientific notation outside, so
/// that an absurd input such as `1e300` reads as `1e300`, not as 301 digits.
///
/// ```
/// use impact_geometry::validate::Shown;
///
/// assert_eq!(Shown(0.25).to_string(), "0.25");
/// assert_eq!(Shown(-1e300).to_string(), "-1e300");
/// assert_eq!(Shown(3e-9).to_string(), "3e-9");
/// assert_eq!(Shown(f64::NAN).to_string(), "NaN");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shown(pub Real);

impl core::fmt::Display for Shown {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let v = self.0;
        let magnitude = v.abs();
        if v == 0.0 || !v.is_finite() || (1e-4..1e16).contains(&magnitude) {
            write!(f, "{v}")
        } else {
            write!(f, "{v:e}")
        }
    }
}
