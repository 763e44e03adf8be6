//! [`WorldSettings`]: what a world is created from.

use crate::domain::Domain;
use crate::error::{WorldError, finite_length, non_negative, positive};
use impact_geometry::tolerances::SPECULATIVE_DISTANCE;
use impact_geometry::{Real, Vector};
use impact_solver::SolverSettings;

/// The settings of a [`World`](crate::World), validated when the world is created and by
/// every setter.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "WorldSettingsDef", into = "WorldSettingsDef")
)]
pub struct WorldSettings {
    /// Acceleration of every dynamic body (world units per second squared; default
    /// `(0, -10)`, Box2D's).
    pub gravity: Vector,
    /// The contact solver's settings (substeps, iterations, contact stiffness, ...).
    pub solver: SolverSettings,
    /// The base of the speculative margin (world units, zero or more; default
    /// [`SPECULATIVE_DISTANCE`]). Each pair's manifold is generated up to
    /// `speculative_distance + (relative speed + |gravity| dt) dt` before the shapes touch:
    /// the base alone is shorter than what a falling body covers in one step, and a contact
    /// that appears only after the bodies overlap arrives too late to stop them cleanly. The
    /// second term stops at the smaller body's bounding radius unless the stepper follows
    /// the pair past it ([`Stepper::speculates_past_size`](crate::Stepper::speculates_past_size)).
    pub speculative_distance: Real,
    /// The space the bodies live in (default [`Domain::Unbounded`]); see
    /// [`Domain::Periodic`] for a periodic rectangle.
    pub domain: Domain,
    /// Whether islands at rest fall asleep (default `true`): see
    /// [`World`](crate::World)'s "Sleeping". Turning it off wakes every island.
    pub sleeping: bool,
    /// How long (seconds, zero or more and finite; default 0.5, Box2D v3's
    /// `b2_timeToSleep`) every body of an island must have been at rest before it falls
    /// asleep.
    pub time_to_sleep: Real,
}

impl Default for WorldSettings {
    fn default() -> Self {
        Self {
            gravity: Vector::new(0.0, -10.0),
            solver: SolverSettings::default(),
            speculative_distance: SPECULATIVE_DISTANCE,
            domain: Domain::Unbounded,
            sleeping: true,
            time_to_sleep: TIME_TO_SLEEP,
        }
    }
}

/// The default [`WorldSettings::time_to_sleep`] (seconds), Box2D v3's.
pub const TIME_TO_SLEEP: Real = 0.5;

impl WorldSettings {
    /// The default settings with `gravity`.
    pub fn with_gravity(gravity: Vector) -> Self {
        Self {
            gravity,
            ..Self::default()
        }
    }

    /// Checks every field.
    ///
    /// # Errors
    /// [`WorldError`] naming `settings.gravity.x` / `.y` (not finite), `settings.gravity`
    /// ([`WorldError::OutOfRange`]: its length overflows `f64`),
    /// `settings.speculative_distance` (negative or not finite), `settings.domain.*` (as
    /// [`Domain::validate`]), `settings.time_to_sleep` (negative or not finite), or wrapping the solver's [`SolverSettings::validate`] error
    /// (`settings.substeps`, `settings.contact_hertz`, ...).
    pub fn validate(&self) -> Result<(), WorldError> {
        finite_length("settings.gravity", &self.gravity)?;
        self.solver.validate()?;
        non_negative("settings.speculative_distance", self.speculative_distance)?;
        self.domain.validate()?;
        non_negative("settings.time_to_sleep", self.time_to_sleep)?;
        Ok(())
    }

    /// Checks that a step of `dt` seconds can be taken under these settings: `dt` finite
    /// and positive, and the distance a step pads every body's box by, the speculative
    /// distance plus gravity's reach over the step `|gravity| dt^2` (world units), finite.
    /// [`World::step`](crate::World::step) runs this check first; a scene reader can run
    /// it at load.
    ///
    /// # Errors
    /// [`WorldError::NotFinite`] or [`WorldError::NotPositive`] naming `dt`;
    /// [`WorldError::OutOfRange`] naming `dt` when gravity's reach overflows.
    ///
    /// ```
    /// use impact_geometry::Vector;
    /// use impact_stepper::WorldSettings;
    ///
    /// let settings = WorldSettings::with_gravity(Vector::new(0.0, -9.81));
    /// assert!(settings.validate_dt(1.0 / 60.0).is_ok());
    /// let error = settings.validate_dt(1e300).unwrap_err();
    /// assert!(error.to_string().starts_with("dt: "));
    /// ```
    pub fn validate_dt(&self, dt: Real) -> Result<(), WorldError> {
        positive("dt", dt)?;
        let pad = self.speculative_distance + self.gravity.norm() * dt * dt;
        if pad.is_finite() {
            Ok(())
        } else {
            Err(WorldError::OutOfRange {
                field: "dt".to_owned(),
                value: dt,
                expected: "short enough that gravity's reach over a step, |gravity| dt^2, is finite",
            })
        }
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct WorldSettingsDef {
    gravity: Vector,
    solver: SolverSettings,
    speculative_distance: Real,
    /// Absent in files written before periodic domains: unbounded.
    #[serde(default)]
    domain: Domain,
    #[serde(default = "sleeping_default")]
    sleeping: bool,
    #[serde(default = "time_to_sleep_default")]
    time_to_sleep: Real,
}

#[cfg(feature = "serde")]
fn sleeping_default() -> bool {
    true
}

#[cfg(feature = "serde")]
fn time_to_sleep_default() -> Real {
    TIME_TO_SLEEP
}

#[cfg(feature = "serde")]
impl TryFrom<WorldSettingsDef> for WorldSettings {
    type Error = WorldError;
    fn try_from(d: WorldSettingsDef) -> Result<Self, WorldError> {
        let s = Self {
            gravity: d.gravity,
            solver: d.solver,
            speculative_distance: d.speculative_distance,
            domain: d.domain,
            sleeping: d.sleeping,
            time_to_sleep: d.time_to_sleep,
        };
        s.validate()?;
        Ok(s)
    }
}

#[cfg(feature = "serde")]
impl From<WorldSettings> for WorldSettingsDef {
    fn from(s: WorldSettings) -> Self {
        Self {
            gravity: s.gravity,
            solver: s.solver,
            speculative_distance: s.speculative_distance,
            domain: s.domain,
            sleeping: s.sleeping,
            time_to_sleep: s.time_to_sleep,
        }
    }
}
