//! # impact-stepper
//!
//! The [`World`] of [impact](https://example.invalid/impact), a 2D physics stack built around
//! continuous collision detection, and the [`Stepper`]s that decide how its bodies advance.
//!
//! - [`World<B, S>`](World): bodies created from
//!   [`RigidBodyDef`](impact_solver::RigidBodyDef)s, named by generational
//!   [`BodyHandle`](impact_solver::BodyHandle)s, a broadphase `B` (default
//!   [`RTreeBroadphase`](impact_broadphase::RTreeBroadphase)) and a stepper `S`;
//!   [`World::step`] for one step, [`World::advance`] for fixed steps from a real-time clock.
//!   Swapping either stage is one type parameter: `World::<BruteForce, Discrete>::new(...)`.
//! - [`Stepper`]: the stage that moves bodies, with a documented contract; [`Discrete`] is
//!   the baseline without CCD. The default stepper is [`Discrete`] for now and becomes
//!   `FirstTimeOfImpact` when the CCD steppers land (with `MotionClamping`), so write
//!   `World::<_, Discrete>` where the baseline is meant.
//! - [`scenes`]: the stack, pyramid and ball-drop scenes shared by tests and benches.
//!
//! Each step runs in a `tracing` span (`world.step`) with one span per stage
//! (`broadphase`, `narrowphase`, `stepper`) and the counts of [`StepReport`] as fields; the
//! library installs no subscriber.
//!
//! ```
//! use impact_broadphase::BruteForce;
//! use impact_geometry::{Circle, ConvexPolygon, Isometry, Vector};
//! use impact_solver::RigidBodyDef;
//! use impact_stepper::{Discrete, World, WorldSettings};
//!
//! let mut world = World::<BruteForce, Discrete>::new(WorldSettings::default())?;
//! world.create_body(
//!     RigidBodyDef::fixed(ConvexPolygon::rectangle(5.0, 0.5)?.into())
//!         .pose(Isometry::translation(0.0, -0.5)),
//! )?;
//! let ball = world.create_body(
//!     RigidBodyDef::new(Circle::new(0.25)?.into())
//!         .pose(Isometry::translation(0.0, 2.0))
//!         .restitution(0.5),
//! )?;
//!
//! // Two simulated seconds at 60 Hz: the ball falls, bounces, and comes to rest on the floor.
//! for _ in 0..120 {
//!     world.step(1.0 / 60.0)?;
//! }
//! let y = world.body(ball).unwrap().pose().translation.y;
//! assert!((y - 0.25).abs() < 0.02, "the ball rests on the floor, at {y}");
//!
//! // A real-time clock: 50 ms elapsed is three 60 Hz steps, with the rest kept for later.
//! let advanced = world.advance(0.05, 1.0 / 60.0, 8)?;
//! assert_eq!(advanced.steps, 3);
//!
//! // Bad input is refused with the field and the value, and changes nothing.
//! let err = world.step(-1.0).unwrap_err();
//! assert_eq!(err.to_string(), "dt: must be positive, got -1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! `serde` derives `Serialize` and `Deserialize` for [`WorldSettings`] (validated when read)
//! and [`Discrete`]. World snapshots come with issue 6.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod error;
pub mod scenes;
mod settings;
mod stepper;
mod world;

pub use error::WorldError;
pub use settings::WorldSettings;
pub use stepper::{Discrete, DiscreteReport, StepContext, Stepper};
pub use world::{AdvanceReport, StepReport, World};
