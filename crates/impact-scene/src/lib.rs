//! # impact-scene
//!
//! Scene files for [impact](https://docs.rs/impact2d), a 2D physics stack built around
//! continuous collision detection: a whole world (gravity, bodies with their shapes,
//! materials, velocities and CCD flags, the joints between them ([`SceneJoint`]), the stepper
//! and broadphase with their settings, the step and the duration) in one JSON file, read
//! with every field checked.
//!
//! - [`Scene::from_json`] reads a file. Every error names the path of the bad field in the
//!   file and says why: `bodies[3].shape.radius: must be positive, got -1`. Errors of the
//!   JSON itself (syntax, a wrong type, an unknown field) carry the path too, found by
//!   [serde_path_to_error](https://docs.rs/serde_path_to_error), and the parser's line and
//!   column. A bad file is an error, never a panic (the `scene_loader` fuzz target holds the
//!   loader to that).
//! - [`Scene::build`] makes the world. Its type depends on the file's choices of broadphase
//!   and stepper, so it comes as a `Box<dyn `[`AnyWorld`]`>`, which steps, reports and
//!   snapshots any of the nine combinations.
//! - [`Scene::from_world`] captures a world back into a scene, and [`Scene::to_json`] writes
//!   one: scene, world and file round-trip (`Scene::from_world(&*scene.build()?)` and
//!   `Scene::from_json(&scene.to_json()?)` both give the scene back, bit for bit). A scene is
//!   where a run starts; a world snapshot ([`AnyWorld::snapshot`], [`restore`]) is where a
//!   run is, with the clock and the warm-starting impulses, and continues bit for bit.
//! - A body may react to its first impact (`"on_first_hit": "destroy"`, [`OnFirstHit`]): a
//!   world does not hold reactions, so a run passes the hook [`Scene::reactions`] returns
//!   to [`AnyWorld::step_with`].
//! - [`ToiQuery`] is one time-of-impact query in the same vocabulary (what `impact toi`
//!   answers), and [`audit`] holds what a run summary checks: energy and momentum.
//!   Which bodies passed through static geometry is
//!   [`impact_stepper::judge::PassThroughDetector`]'s to say.
//!
//! `docs/scene-format.md` documents every field with its default.
//!
//! ```
//! use impact_scene::Scene;
//! use impact_stepper::judge::PassThroughDetector;
//!
//! // A bullet at 600 units/s toward a sheet of paper (a segment), under the default stepper.
//! let scene = Scene::from_json(r#"{
//!     "name": "bullet",
//!     "gravity": [0, 0],
//!     "steps": 10,
//!     "bodies": [
//!         {"type": "static", "shape": {"type": "segment", "a": [1, -1], "b": [1, 1]}},
//!         {"shape": {"type": "circle", "radius": 0.05}, "linvel": [600, 0], "ccd": true,
//!          "material": {"restitution": 1}}
//!     ]
//! }"#)?;
//! let mut world = scene.build()?;
//! let mut detector = PassThroughDetector::new(world.body_set());
//! for step in 1..=scene.steps {
//!     world.step(scene.dt)?;
//!     detector.observe(world.body_set(), step);
//! }
//! assert!(detector.found().is_empty(), "the bullet bounced off the paper");
//!
//! // The same scene with a negative radius is refused with the path of the field.
//! let bad = r#"{"bodies": [{"shape": {"type": "circle", "radius": -1}}]}"#;
//! assert_eq!(
//!     Scene::from_json(bad).unwrap_err().to_string(),
//!     "bodies[0].shape.radius: must be positive, got -1"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The format is JSON only: serde makes another format (RON, say) a few lines away, but each
//! is another dependency for every build, and JSON is what every tool already reads.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod audit;
mod chains;
mod error;
mod file;
mod joints;
mod query;
mod reactions;
mod read;
mod scene;
mod shapes;
mod validate;
mod world;
mod write;

pub use error::SceneError;
pub use joints::SceneJoint;
pub use query::{SweptShape, ToiQuery};
pub use reactions::{Fired, Reactions};
pub use scene::{
    BroadphaseChoice, DEFAULT_DT, DEFAULT_STEPS, FORMAT_VERSION, MAX_POLYGON_VERTICES, MAX_STEPS,
    OnFirstHit, Scene, StepperChoice, StepperKind,
};
pub use world::{AnyWorld, SceneBroadphase, SceneStepper, StepSummary, restore};

/// [`impact_stepper::judge::PassThroughDetector`] at its former path.
#[deprecated(
    since = "0.2.0",
    note = "moved to `impact_stepper::judge::PassThroughDetector`"
)]
pub type PassThroughDetector = impact_stepper::judge::PassThroughDetector;
/// [`impact_stepper::judge::PassThrough`] at its former path.
#[deprecated(
    since = "0.2.0",
    note = "moved to `impact_stepper::judge::PassThrough`"
)]
pub type PassThrough = impact_stepper::judge::PassThrough;
/// [`impact_stepper::judge::PassThroughKind`] at its former path.
#[deprecated(
    since = "0.2.0",
    note = "moved to `impact_stepper::judge::PassThroughKind`"
)]
pub type PassThroughKind = impact_stepper::judge::PassThroughKind;
/// [`impact_stepper::judge::TurnRecorder`] at its former path.
#[deprecated(
    since = "0.2.0",
    note = "moved to `impact_stepper::judge::TurnRecorder`"
)]
pub type TurnRecorder<H> = impact_stepper::judge::TurnRecorder<H>;
