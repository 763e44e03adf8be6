//! Settings of the contact solver and of the single-impact resolver.

use crate::error::{SolverError, non_negative};
use impact_geometry::Real;

/// Settings of the sequential-impulse contact solver ([`ContactSolver`](crate::ContactSolver)).
///
/// The defaults are Box2D v3's, in world units where 1 unit is a metre: they stack boxes of
/// 0.1 to 10 units at 60 Hz. The solver runs the soft step: the step is cut into `substeps`;
/// each substep integrates velocities, warm starts, runs `velocity_iterations` with the soft
/// position bias, integrates positions, then `relax_iterations` without it; restitution is
/// applied once at the end. There is no position-iteration pass: the substeps and the soft
/// bias do that job (see the crate documentation for why).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "SolverSettingsDef", into = "SolverSettingsDef")
)]
pub struct SolverSettings {
    /// Substeps per step, 1 to [`MAX_SOLVER_ITERATIONS`] (default 4). More substeps stiffen
    /// contacts and stacks at proportional cost.
    pub substeps: u32,
    /// Biased (position-correcting) velocity iterations per substep, at least 1 (default 1).
    pub velocity_iterations: u32,
    /// Unbiased relax iterations per substep (default 1): they remove the velocity the push
    /// out left behind, so correcting overlap never turns into bounce.
    pub relax_iterations: u32,
    /// Stiffness of the contact spring (Hz, positive; default 30). Clamped to a quarter of the
    /// substep rate, above which the soft constraint stops being stable.
    pub contact_hertz: Real,
    /// Damping ratio of the contact spring (dimensionless, zero or more; default 10: heavily
    /// over-damped, so overlap is removed without overshoot).
    pub contact_damping_ratio: Real,
    /// Fastest speed at which overlap is pushed out (world units per second, zero or more;
    /// default 3). Caps the energy a deep overlap can inject.
    pub max_push_out_velocity: Real,
    /// Restitution applies only to contacts approaching faster than this (world units per
    /// second, zero or more; default 1). Below it contacts are inelastic, so resting bodies
    /// do not jitter with micro-bounces.
    pub restitution_threshold: Real,
    /// Most Gauss-Seidel sweeps of the restitution pass, at least 1 (default 32). The pass
    /// stops earlier once the bounces settle: two sweeps when no two bouncing contacts share
    /// a body. Through a chain of touching bodies each sweep halves what is left to settle
    /// (a disc hitting a disc pressed against a wall keeps all but `2^-sweeps` of its
    /// bounce), and only the islands with a bounce are swept.
    pub restitution_iterations: u32,
    /// Whether impulses of the previous step seed this one (default `true`). Stacks need it;
    /// turning it off is for tests and debugging.
    pub warm_starting: bool,
    /// Stiffness of the joints' position correction (Hz, positive; default 60, Box2D v3's):
    /// how fast a joint's anchors are pulled back together when they drift apart. Clamped
    /// to half the substep rate, twice the contacts' cap, since one body of a joint is
    /// rarely fixed.
    pub joint_hertz: Real,
    /// Damping ratio of the joints' position correction (zero or more; default 2, Box2D
    /// v3's: over-damped, so a stretched chain comes back without ringing).
    pub joint_damping_ratio: Real,
}

impl Default for SolverSettings {
    fn default() -> Self {
        Self {
            substeps: 4,
            velocity_iterations: 1,
            relax_iterations: 1,
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            max_push_out_velocity: 3.0,
            restitution_threshold: 1.0,
            restitution_iterations: 32,
            warm_starting: true,
            joint_hertz: 60.0,
            joint_damping_ratio: 2.0,
        }
    }
}

/// The most substeps, or iterations of one kind per substep, [`SolverSettings`] takes: a step
/// runs them for every constraint, so a count of billions (a typo, a scene file's stray
/// digits) would take hours a step instead of failing. Far past what any scene needs (Box2D
/// runs 4 substeps of one iteration each).
pub const MAX_SOLVER_ITERATIONS: u32 = 1024;

impl SolverSettings {
    /// Checks every field.
    ///
    /// # Errors
    /// [`SolverError`] naming `settings.substeps`, `settings.velocity_iterations`,
    /// `settings.restitution_iterations` (zero, or past [`MAX_SOLVER_ITERATIONS`]),
    /// `settings.relax_iterations` (past [`MAX_SOLVER_ITERATIONS`]),
    /// `settings.contact_hertz` (not positive and finite), `settings.contact_damping_ratio`,
    /// `settings.max_push_out_velocity`, `settings.restitution_threshold` or
    /// `settings.joint_damping_ratio` (negative or not finite), `settings.joint_hertz` (not
    /// positive and finite).
    pub fn validate(&self) -> Result<(), SolverError> {
        for (field, value) in [
            ("settings.substeps", self.substeps),
            ("settings.velocity_iterations", self.velocity_iterations),
            (
                "settings.restitution_iterations",
                self.restitution_iterations,
            ),
        ] {
            if value == 0 {
                return Err(SolverError::OutOfRange {
                    field: field.to_owned(),
                    value: Real::from(value),
                    expected: "at least 1",
                });
            }
        }
        for (field, value) in [
            ("settings.substeps", self.substeps),
            ("settings.velocity_iterations", self.velocity_iterations),
            ("settings.relax_iterations", self.relax_iterations),
            (
                "settings.restitution_iterations",
                self.restitution_iterations,
            ),
        ] {
            if value > MAX_SOLVER_ITERATIONS {
                return Err(SolverError::OutOfRange {
                    field: field.to_owned(),
                    value: Real::from(value),
                    expected: "at most 1024 (MAX_SOLVER_ITERATIONS)",
                });
            }
        }
        crate::error::positive("settings.contact_hertz", self.contact_hertz)?;
        non_negative("settings.contact_damping_ratio", self.contact_damping_ratio)?;
        non_negative("settings.max_push_out_velocity", self.max_push_out_velocity)?;
        non_negative("settings.restitution_threshold", self.restitution_threshold)?;
        crate::error::positive("settings.joint_hertz", self.joint_hertz)?;
        non_negative("settings.joint_damping_ratio", self.joint_damping_ratio)?;
        Ok(())
    }
}

/// Settings of [`resolve_impact`](crate::resolve_impact), the single-impact resolver.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "ImpactSettingsDef", into = "ImpactSettingsDef")
)]
pub struct ImpactSettings {
    /// Impacts approaching slower than this (world units per second, zero or more) are
    /// resolved inelastically (default 0: at the exact moment of impact every bounce is
    /// honoured). A stepper that detects a Zeno sequence may raise it so the bounces die out.
    pub restitution_threshold: Real,
    /// Whether the Coulomb friction impulse is applied (default `true`).
    pub friction: bool,
}

impl Default for ImpactSettings {
    fn default() -> Self {
        Self {
            restitution_threshold: 0.0,
            friction: true,
        }
    }
}

impl ImpactSettings {
    /// Checks every field.
    ///
    /// # Errors
    /// [`SolverError`] naming `impact_settings.restitution_threshold` if negative or not
    /// finite.
    pub fn validate(&self) -> Result<(), SolverError> {
        non_negative(
            "impact_settings.restitution_threshold",
            self.restitution_threshold,
        )?;
        Ok(())
    }
}

/// The soft-constraint coefficients for one substep of length `h` (Box2D v3's `b2Softness`).
///
/// A contact is a spring of frequency `hertz` and damping ratio `zeta` solved implicitly.
/// With `omega = 2 pi hertz`, the implicit Euler step of the spring turns into a velocity
/// target `bias_rate * separation`, a scale on the effective mass and a scale on the
/// accumulated impulse (which makes the constraint give a little, like a damped spring, and
/// keeps it stable at any stiffness below the substep rate).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Softness {
    pub bias_rate: Real,
    pub mass_scale: Real,
    pub impulse_scale: Real,
}

impl Softness {
    pub(crate) fn new(hertz: Real, zeta: Real, h: Real) -> Self {
        if hertz == 0.0 {
            return Self {
                bias_rate: 0.0,
                mass_scale: 1.0,
                impulse_scale: 0.0,
            };
        }
        let omega = 2.0 * core::f64::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct SolverSettingsDef {
    substeps: u32,
    velocity_iterations: u32,
    relax_iterations: u32,
    contact_hertz: Real,
    contact_damping_ratio: Real,
    max_push_out_velocity: Real,
    restitution_threshold: Real,
    /// Absent from snapshots written before the setting existed.
    #[serde(default = "default_restitution_iterations")]
    restitution_iterations: u32,
    warm_starting: bool,
    /// Absent from snapshots written before joints existed.
    #[serde(default = "default_joint_hertz")]
    joint_hertz: Real,
    #[serde(default = "default_joint_damping_ratio")]
    joint_damping_ratio: Real,
}

#[cfg(feature = "serde")]
fn default_joint_hertz() -> Real {
    SolverSettings::default().joint_hertz
}

#[cfg(feature = "serde")]
fn default_joint_damping_ratio() -> Real {
    SolverSettings::default().joint_damping_ratio
}

#[cfg(feature = "serde")]
fn default_restitution_iterations() -> u32 {
    SolverSettings::default().restitution_iterations
}

#[cfg(feature = "serde")]
impl TryFrom<SolverSettingsDef> for SolverSettings {
    type Error = SolverError;
    fn try_from(d: SolverSettingsDef) -> Result<Self, SolverError> {
        let s = Self {
            substeps: d.substeps,
            velocity_iterations: d.velocity_iterations,
            relax_iterations: d.relax_iterations,
            contact_hertz: d.contact_hertz,
            contact_damping_ratio: d.contact_damping_ratio,
            max_push_out_velocity: d.max_push_out_velocity,
            restitution_threshold: d.restitution_threshold,
            restitution_iterations: d.restitution_iterations,
            warm_starting: d.warm_starting,
            joint_hertz: d.joint_hertz,
            joint_damping_ratio: d.joint_damping_ratio,
        };
        s.validate()?;
        Ok(s)
    }
}

#[cfg(feature = "serde")]
impl From<SolverSettings> for SolverSettingsDef {
    fn from(s: SolverSettings) -> Self {
        Self {
            substeps: s.substeps,
            velocity_iterations: s.velocity_iterations,
            relax_iterations: s.relax_iterations,
            contact_hertz: s.contact_hertz,
            contact_damping_ratio: s.contact_damping_ratio,
            max_push_out_velocity: s.max_push_out_velocity,
            restitution_threshold: s.restitution_threshold,
            restitution_iterations: s.restitution_iterations,
            warm_starting: s.warm_starting,
            joint_hertz: s.joint_hertz,
            joint_damping_ratio: s.joint_damping_ratio,
        }
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct ImpactSettingsDef {
    restitution_threshold: Real,
    friction: bool,
}

#[cfg(feature = "serde")]
impl TryFrom<ImpactSettingsDef> for ImpactSettings {
    type Error = SolverError;
    fn try_from(d: ImpactSettingsDef) -> Result<Self, SolverError> {
        let s = Self {
            restitution_threshold: d.restitution_threshold,
            friction: d.friction,
        };
        s.validate()?;
        Ok(s)
    }
}

#[cfg(feature = "serde")]
impl From<ImpactSettings> for ImpactSettingsDef {
    fn from(s: ImpactSettings) -> Self {
        Self {
            restitution_threshold: s.restitution_threshold,
            friction: s.friction,
        }
    }
}
