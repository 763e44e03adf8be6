//! The settings of [`MotionClamping`](super::MotionClamping): which bodies it checks and the
//! options of its time-of-impact queries, validated wherever they enter (the constructor,
//! the setter, deserialization), so a stepper never holds settings it would refuse.

use crate::error::WorldError;
use impact_geometry::Real;
use impact_narrowphase::ToiOptions;

/// The settings of [`MotionClamping`](super::MotionClamping), validated by
/// [`MotionClampingSettings::validate`] (and by
/// [`MotionClamping::new`](super::MotionClamping::new),
/// [`MotionClamping::set_settings`](super::MotionClamping::set_settings) and deserialization).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "MotionClampingSettingsDef",
        into = "MotionClampingSettingsDef"
    )
)]
pub struct MotionClampingSettings {
    /// How far a CCD body must move over one step, in bounding radii, before its motion is
    /// checked (dimensionless, finite, zero or more; default `0.5`). A body's motion over the
    /// step is the distance its centre of mass covers plus the arc its rim covers
    /// (`|dc| + |dtheta| r`, with `r` its [`bounding radius`] about the centre of mass); it
    /// is checked when that exceeds `threshold_radii_per_step * r`. A body that moves less than
    /// its own size per step cannot pass through anything thicker than zero without its
    /// contacts seeing it first; `0` checks every moving CCD body. For a body a joint's
    /// motor or spring drives, `r` is at most `sqrt(2)` times the half width of its thinnest
    /// shape: a thin flipper is judged by its thickness, which is what it can sweep past.
    ///
    /// [`bounding radius`]: impact_geometry::Shape::bounding_radius
    pub threshold_radii_per_step: Real,
    /// The options of every time-of-impact query (default [`ToiOptions::default`]: bodies
    /// stop at the target separation, so the next step's contacts see them).
    pub toi: ToiOptions,
}

impl Default for MotionClampingSettings {
    fn default() -> Self {
        Self {
            threshold_radii_per_step: 0.5,
            toi: ToiOptions::default(),
        }
    }
}

impl MotionClampingSettings {
    /// [`threshold_radii_per_step`](Self::threshold_radii_per_step) under its former name,
    /// which read as a speed: the threshold is a distance per step in bounding radii.
    #[deprecated(
        since = "0.2.0",
        note = "renamed to the field `threshold_radii_per_step`"
    )]
    pub fn velocity_threshold(&self) -> Real {
        self.threshold_radii_per_step
    }

    /// Checks every field ([`ToiOptions`] is valid by construction).
    ///
    /// # Errors
    /// [`WorldError::NotFinite`] or [`WorldError::Negative`] naming
    /// `motion_clamping.threshold_radii_per_step`.
    pub fn validate(&self) -> Result<(), WorldError> {
        crate::error::non_negative(
            "motion_clamping.threshold_radii_per_step",
            self.threshold_radii_per_step,
        )?;
        Ok(())
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct MotionClampingSettingsDef {
    /// Its former name, `velocity_threshold`, still loads (see CHANGELOG.md).
    #[serde(alias = "velocity_threshold")]
    threshold_radii_per_step: Real,
    toi: ToiOptions,
}

#[cfg(feature = "serde")]
impl TryFrom<MotionClampingSettingsDef> for MotionClampingSettings {
    type Error = WorldError;
    fn try_from(d: MotionClampingSettingsDef) -> Result<Self, WorldError> {
        let s = Self {
            threshold_radii_per_step: d.threshold_radii_per_step,
            toi: d.toi,
        };
        s.validate()?;
        Ok(s)
    }
}

#[cfg(feature = "serde")]
impl From<MotionClampingSettings> for MotionClampingSettingsDef {
    fn from(s: MotionClampingSettings) -> Self {
        Self {
            threshold_radii_per_step: s.threshold_radii_per_step,
            toi: s.toi,
        }
    }
}
