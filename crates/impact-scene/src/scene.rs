//! [`Scene`]: a whole world and how to run it, resolved from a scene file.

use crate::error::SceneError;
use crate::joints::SceneJoint;
use crate::{read, validate, write};
use core::fmt;
use core::str::FromStr;
use impact_geometry::Real;
use impact_solver::RigidBodyDef;
use impact_stepper::{FirstTimeOfImpactSettings, MotionClampingSettings, WorldSettings};
use std::collections::BTreeMap;

/// The step length of a scene that gives none (seconds): 60 Hz.
pub const DEFAULT_DT: Real = 1.0 / 60.0;
/// The number of steps of a scene that gives neither `steps` nor `duration`: one second at
/// [`DEFAULT_DT`].
pub const DEFAULT_STEPS: u64 = 60;
/// The most steps a `duration` may resolve to: far more than any run can take, and small
/// enough that the count is exact in an `f64`.
pub const MAX_STEPS: u64 = 1 << 50;
/// The most vertices of one polygon in a scene file. Polygon validation is quadratic in the
/// vertex count in the worst case (collinear runs), so the loader caps it; 1024 is also the
/// cap of [`ConvexPolygon::regular`](impact_geometry::ConvexPolygon::regular).
pub const MAX_POLYGON_VERTICES: usize = 1024;
/// The only version of the scene format so far.
pub const FORMAT_VERSION: u32 = 1;

/// Which broadphase a scene's world uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BroadphaseChoice {
    /// [`RTreeBroadphase`](impact_broadphase::RTreeBroadphase) (`"rtree"`, the default).
    #[default]
    RTree,
    /// [`SortAndSweep`](impact_broadphase::SortAndSweep) (`"sap"`).
    SortAndSweep,
    /// [`BruteForce`](impact_broadphase::BruteForce) (`"brute"`), the oracle.
    BruteForce,
}

impl BroadphaseChoice {
    /// Every choice, in the order of the documentation.
    pub const ALL: [Self; 3] = [Self::RTree, Self::SortAndSweep, Self::BruteForce];
    /// The names a file or a command line may use, in the order of [`BroadphaseChoice::ALL`].
    pub const NAMES: [&'static str; 3] = ["rtree", "sap", "brute"];

    /// The name in a scene file: `"rtree"`, `"sap"` or `"brute"`.
    pub fn name(self) -> &'static str {
        // The variants are declared in the order of `ALL`, so the discriminant indexes NAMES.
        Self::NAMES[self as usize]
    }
}

impl FromStr for BroadphaseChoice {
    type Err = SceneError;

    /// Parses `"rtree"`, `"sap"` or `"brute"`; the error has an empty path (the caller
    /// knows where the name came from).
    fn from_str(s: &str) -> Result<Self, SceneError> {
        named(&Self::ALL, &Self::NAMES, s)
    }
}

impl fmt::Display for BroadphaseChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which stepper a scene's world uses, without its settings (what `--stepper` names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StepperKind {
    /// [`Discrete`](impact_stepper::Discrete) (`"discrete"`): no CCD.
    Discrete,
    /// [`MotionClamping`](impact_stepper::MotionClamping) (`"clamp"`).
    Clamp,
    /// [`FirstTimeOfImpact`](impact_stepper::FirstTimeOfImpact) (`"toi"`, the default).
    #[default]
    Toi,
}

impl StepperKind {
    /// Every kind, in the order of the documentation.
    pub const ALL: [Self; 3] = [Self::Discrete, Self::Clamp, Self::Toi];
    /// The names a file or a command line may use, in the order of [`StepperKind::ALL`].
    pub const NAMES: [&'static str; 3] = ["discrete", "clamp", "toi"];

    /// The name in a scene file: `"discrete"`, `"clamp"` or `"toi"`.
    pub fn name(self) -> &'static str {
        // The variants are declared in the order of `ALL`, so the discriminant indexes NAMES.
        Self::NAMES[self as usize]
    }
}

impl FromStr for StepperKind {
    type Err = SceneError;

    /// Parses `"discrete"`, `"clamp"` or `"toi"`; the error has an empty path.
    fn from_str(s: &str) -> Result<Self, SceneError> {
        named(&Self::ALL, &Self::NAMES, s)
    }
}

impl fmt::Display for StepperKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which stepper a scene's world uses, with its settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StepperChoice {
    /// [`Discrete`](impact_stepper::Discrete): no settings.
    Discrete,
    /// [`MotionClamping`](impact_stepper::MotionClamping) with its settings.
    Clamp(MotionClampingSettings),
    /// [`FirstTimeOfImpact`](impact_stepper::FirstTimeOfImpact) with its settings.
    Toi(FirstTimeOfImpactSettings),
}

impl Default for StepperChoice {
    /// [`FirstTimeOfImpact`](impact_stepper::FirstTimeOfImpact) with its default settings, as
    /// [`World`](impact_stepper::World)'s default.
    fn default() -> Self {
        Self::Toi(FirstTimeOfImpactSettings::default())
    }
}

impl StepperChoice {
    /// Which stepper this is.
    pub fn kind(&self) -> StepperKind {
        match self {
            Self::Discrete => StepperKind::Discrete,
            Self::Clamp(_) => StepperKind::Clamp,
            Self::Toi(_) => StepperKind::Toi,
        }
    }

    /// The same scene run with another stepper (`impact run --stepper`): the settings the
    /// two CCD steppers share (`threshold_radii_per_step`, `toi_options`) carry over, the others
    /// take their defaults. The same kind returns `self` unchanged.
    pub fn with_kind(self, kind: StepperKind) -> Self {
        if kind == self.kind() {
            return self;
        }
        let shared = match self {
            Self::Discrete => None,
            Self::Clamp(s) => Some((s.threshold_radii_per_step, s.toi)),
            Self::Toi(s) => Some((s.threshold_radii_per_step, s.toi)),
        };
        match kind {
            StepperKind::Discrete => Self::Discrete,
            StepperKind::Clamp => {
                let mut s = MotionClampingSettings::default();
                if let Some((threshold, toi)) = shared {
                    s.threshold_radii_per_step = threshold;
                    s.toi = toi;
                }
                Self::Clamp(s)
            }
            StepperKind::Toi => {
                let mut s = FirstTimeOfImpactSettings::default();
                if let Some((threshold, toi)) = shared {
                    s.threshold_radii_per_step = threshold;
                    s.toi = toi;
                }
                Self::Toi(s)
            }
        }
    }
}

/// What happens to a body at its first impact (a body's `on_first_hit` in the file).
///
/// A reaction is carried out by the hook [`Scene::reactions`] returns, at the first
/// [`CollisionEvent`](impact_stepper::CollisionEvent) that involves the body. Only
/// [`FirstTimeOfImpact`](impact_stepper::FirstTimeOfImpact) resolves impacts inside a step
/// and calls a hook; under the other two steppers no reaction ever fires, and neither does
/// one for a contact the solver handles (a body resting on the ground), which is not an
/// impact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OnFirstHit {
    /// The body is removed at the instant of its first impact (Colp's ECSE write-up's
    /// projectile that dies where it hits): it takes part in no later impact of the step, and
    /// the world removes it when the step ends. The impact itself is resolved before the hook
    /// runs, so the other body still gets its impulse.
    Destroy,
}

impl OnFirstHit {
    /// Every reaction, in the order of the documentation.
    pub const ALL: [Self; 1] = [Self::Destroy];
    /// The names a file may use, in the order of [`OnFirstHit::ALL`].
    pub const NAMES: [&'static str; 1] = ["destroy"];

    /// The name in a scene file: `"destroy"`.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl FromStr for OnFirstHit {
    type Err = SceneError;

    /// Parses `"destroy"`; the error has an empty path.
    fn from_str(s: &str) -> Result<Self, SceneError> {
        named(&Self::ALL, &Self::NAMES, s)
    }
}

/// A whole world and how to run it: what a scene file holds once it is read and checked.
///
/// Every value is resolved: defaults are filled in, a `rectangle` is a polygon, a `mass` is a
/// density, a `duration` is a number of steps. The fields are public so a program can build
/// or change a scene; [`Scene::validate`] (run by [`Scene::build`] and [`Scene::to_json`])
/// holds such a scene to the rules of the file, so every valid scene can be written and read
/// back equal.
///
/// ```
/// use impact_scene::{BroadphaseChoice, Scene, StepperKind};
///
/// let scene = Scene::from_json(r#"{
///     "gravity": [0, 0],
///     "stepper": {"type": "clamp"},
///     "bodies": [
///         {"type": "static", "shape": {"type": "segment", "a": [1, -1], "b": [1, 1]}},
///         {"shape": {"type": "circle", "radius": 0.05}, "linvel": [600, 0], "ccd": true}
///     ]
/// }"#)?;
/// assert_eq!(scene.stepper.kind(), StepperKind::Clamp);
/// assert_eq!(scene.broadphase, BroadphaseChoice::RTree);
/// assert_eq!(scene.steps, 60);
/// // Written out and read back, the scene is the same.
/// assert_eq!(Scene::from_json(&scene.to_json()?)?, scene);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// A short name for reports (may be empty).
    pub name: String,
    /// Gravity, the contact solver's settings, the speculative distance and the domain (the
    /// plane, or a periodic rectangle).
    pub settings: WorldSettings,
    /// The bodies, created in this order: body `i` of the file gets slot `i`.
    pub bodies: Vec<RigidBodyDef>,
    /// The joints between the bodies, created in this order after the bodies: joint `k` of
    /// the file gets slot `k` (handle index `k`). None in a periodic domain.
    pub joints: Vec<SceneJoint>,
    /// The reactions of bodies at their first impact, by index in `bodies` (dynamic bodies
    /// only). A world does not hold them: run it with the hook of [`Scene::reactions`].
    pub on_first_hit: BTreeMap<usize, OnFirstHit>,
    /// The stepper and its settings.
    pub stepper: StepperChoice,
    /// The broadphase.
    pub broadphase: BroadphaseChoice,
    /// The step length (seconds, positive).
    pub dt: Real,
    /// How many steps a run takes.
    pub steps: u64,
}

impl Default for Scene {
    /// What an empty scene file (`{}`) gives: no bodies, the world's default settings
    /// (gravity `(0, -10)`), [`FirstTimeOfImpact`](impact_stepper::FirstTimeOfImpact), the
    /// R-tree, [`DEFAULT_STEPS`] steps of [`DEFAULT_DT`].
    fn default() -> Self {
        Self {
            name: String::new(),
            settings: WorldSettings::default(),
            bodies: Vec::new(),
            joints: Vec::new(),
            on_first_hit: BTreeMap::new(),
            stepper: StepperChoice::default(),
            broadphase: BroadphaseChoice::default(),
            dt: DEFAULT_DT,
            steps: DEFAULT_STEPS,
        }
    }
}

impl Scene {
    /// Reads and checks a scene file's text (JSON).
    ///
    /// # Errors
    /// [`SceneError`] with the path of the first bad field and why: the JSON parser's error
    /// (syntax, a wrong type, an unknown field) or a rule of the format (see
    /// `docs/scene-format.md`).
    pub fn from_json(text: &str) -> Result<Self, SceneError> {
        Self::from_json_slice(text.as_bytes())
    }

    /// [`Scene::from_json`] on bytes (a file read whole); invalid UTF-8 is an error, not a
    /// panic.
    ///
    /// # Errors
    /// As [`Scene::from_json`].
    pub fn from_json_slice(bytes: &[u8]) -> Result<Self, SceneError> {
        let crate::file::Obj(file) = read::parse(bytes)?;
        // Resolving checks each part as it goes, so the first error in the file's order is
        // the one reported; the result passes `validate`.
        read::resolve(file)
    }

    /// The scene as a scene file (pretty-printed JSON): fields at their default value are
    /// left out, numbers are written so they read back bit for bit.
    ///
    /// # Errors
    /// As [`Scene::validate`]: a scene that breaks a rule of the file is not written.
    pub fn to_json(&self) -> Result<String, SceneError> {
        self.validate()?;
        let file = write::scene_file(self);
        serde_json::to_string_pretty(&file)
            .map_err(|e| SceneError::new("", format!("cannot write the scene: {e}")))
    }

    /// Checks the scene against the rules of the scene file, naming the first bad field by
    /// its path in the file (`bodies[3].material.restitution`).
    ///
    /// # Errors
    /// [`SceneError`] naming the field.
    pub fn validate(&self) -> Result<(), SceneError> {
        validate::scene(self)
    }

    /// The same scene with another stepper kind, carrying over the settings the CCD
    /// steppers share (see [`StepperChoice::with_kind`]).
    #[must_use]
    pub fn with_stepper(mut self, kind: StepperKind) -> Self {
        self.stepper = self.stepper.with_kind(kind);
        self
    }

    /// The scene's simulated duration, `steps * dt` (seconds).
    pub fn duration(&self) -> Real {
        self.steps as Real * self.dt
    }
}

/// The choice of `all` whose name in `names` (the same order) is `s`.
fn named<T: Copy>(all: &[T], names: &[&'static str], s: &str) -> Result<T, SceneError> {
    names
        .iter()
        .position(|n| *n == s)
        .map(|i| all[i])
        .ok_or_else(|| crate::error::not_one_of("", s, names))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_parses_back_from_its_name() {
        for (i, c) in BroadphaseChoice::ALL.into_iter().enumerate() {
            assert_eq!(c as usize, i, "declared in the order of ALL");
            assert_eq!(c.name().parse::<BroadphaseChoice>().unwrap(), c);
        }
        for (i, k) in StepperKind::ALL.into_iter().enumerate() {
            assert_eq!(k as usize, i, "declared in the order of ALL");
            assert_eq!(k.name().parse::<StepperKind>().unwrap(), k);
        }
        assert!("rtre".parse::<BroadphaseChoice>().is_err());
    }
}
