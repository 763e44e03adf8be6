//! # impact-stepper
//!
//! The [`World`] of [impact](https://docs.rs/impact2d), a 2D physics stack built around
//! continuous collision detection, and the [`Stepper`]s that decide how its bodies advance.
//!
//! - [`World<B, S>`](World): bodies created from
//!   [`RigidBodyDef`](impact_solver::RigidBodyDef)s, named by generational
//!   [`BodyHandle`](impact_solver::BodyHandle)s, a broadphase `B` (default
//!   [`RTreeBroadphase`](impact_broadphase::RTreeBroadphase)) and a stepper `S`;
//!   [`World::step`] for one step, [`World::advance`] for fixed steps from a real-time clock.
//!   Swapping either stage is one type parameter: `World::<BruteForce, Discrete>::new(...)`.
//!   [`World::step_with`] takes an [`ImpactHook`] called at each impact inside the step;
//!   [`World::events`] lists the step's [`CollisionEvent`]s (the hits),
//!   [`World::contact_events`] the pairs that began and ended touching and the forces above
//!   a threshold ([`ContactEvents`]), [`World::sensor_events`] the bodies that began and
//!   ended overlapping a sensor, at their exact times under the CCD steppers
//!   ([`SensorEvents`]).
//! - [`Stepper`]: the stage that moves bodies, with a documented contract; [`Discrete`] is
//!   the baseline without CCD.
//! - [`FirstTimeOfImpact`] (the default): the contact solver keeps resting and slow
//!   contacts; pairs of fast CCD bodies go to an event queue, and bodies advance from
//!   impact to impact inside the step, each resolved at its exact time with restitution and
//!   friction, re-planning only the bodies that changed. *Guarantee*: no tunnelling for
//!   checked bodies against anything, moving or not, and no time lost (zero of 20,000
//!   seeded bullets through paper; a billiard ball follows its analytic path to 1e-9 over
//!   100 steps). *Progress*: Zeno pairs go to the contact solver, an event cap falls back
//!   to clamping with the lost time reported. *Cost*: the discrete step plus work per
//!   impact that depends only on the neighbourhood of the bodies involved.
//! - [`MotionClamping`] (DigitalRune's CCD article): the discrete step gives target poses (a
//!   fast CCD body leaves its far contacts with static bodies to the clamp); then each dynamic
//!   body with the `ccd` flag that moves more than
//!   [`MotionClampingSettings::threshold_radii_per_step`] bounding radii in the step is swept
//!   from its start pose to its target (a constant-velocity sweep rebuilt from the two poses,
//!   since the solver's substeps make the real path piecewise), the time of impact is computed
//!   against every body whose motion's box meets its own (static or moving, along that body's
//!   own rebuilt sweep), and the body is placed at its earliest safe fraction, at the target
//!   separation; velocities are untouched, except for a pair the contact solver pushed through
//!   or let close in, which leaves moving as one body. A body a motor drives, or a kinematic
//!   one, is not stopped by a free body it pushes: it carries it. *Guarantee*: a checked body never passes
//!   through a static body, however thin (zero of 20,000 seeded bullets at up to 10,000
//!   units/s, where `Discrete` lets 99.7% through). *Cost*: one discrete step, plus one sort
//!   and sweep over the bodies' motion boxes and one TOI per candidate of the checked bodies.
//!   *Price*: time is lost, and reported per body in [`ClampReport`].
//! - Collision filters and sensors ([`CollisionFilter`](impact_solver::CollisionFilter),
//!   [`RigidBodyDef::sensor`](impact_solver::RigidBodyDef::sensor)) hold under every stepper,
//!   and two hooks kept by the world decide about the pairs they let through: a
//!   [`PairFilter`] vetoes pairs, a [`PreSolveHook`] disables or changes a contact or a CCD
//!   impact for one step (a one-way platform). [`CollisionRules`] is what a step asks.
//! - [`judge`]: whether a body passed through static geometry, from positions alone, so
//!   that every stepper (and any engine) is judged the same way.
//! - [`query`]: scene queries, exact: [`World::cast_ray`] (and every hit in order, or a
//!   callback that clips the ray), [`World::cast_shape`] and [`World::cast_sweep`] (a
//!   shape moved along a translation or a turning sweep, by the narrowphase's time of
//!   impact), [`World::intersections_with_point`], `_aabb`, `_shape` and
//!   [`World::project_point`], each with a [`QueryFilter`]; the same on a bare broadphase
//!   and body set through [`QueryView`].
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
//! `serde` derives `Serialize` and `Deserialize` for [`WorldSettings`] (validated when read),
//! the steppers and their settings (validated when read), [`CollisionEvent`], the contact
//! and sensor events, and [`World`] itself: a snapshot holds the settings, bodies, stepper,
//! warm-starting impulses and clock, and the pairs touching and overlapping sensors (so the
//! events continue too); the broadphase is rebuilt when it is read, and the restored world
//! continues bit for bit (with `serde_json`, enable its `float_roundtrip` feature so every
//! `f64` reads back exactly).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod contact_events;
mod domain;
mod error;
mod events;
mod first_toi;
mod grid;
mod hooks;
pub mod judge;
mod motion;
mod motion_clamping;
pub mod query;
mod ramp;
mod report;
mod rules;
mod sensing;
mod settings;
mod shape_proxies;
mod step_log;
mod stepper;
mod sweep_pairs;
mod swing;
#[cfg(feature = "parallel")]
mod threads;
mod touching;
mod world;

pub use contact_events::{ContactBeginEvent, ContactEndEvent, ContactEvents, ContactForceEvent};
pub use domain::{Domain, PeriodicImages};
pub use error::WorldError;
pub use events::{CollisionEvent, EventKind, Impact, ImpactHook, NoHook};
pub use first_toi::{FirstTimeOfImpact, FirstTimeOfImpactSettings, FirstToiReport};
pub use hooks::{
    ContactBody, ContactKind, ContactResponse, PairFilter, PairView, PreSolveContact, PreSolveHook,
};
pub use motion::{BodyToi, body_time_of_impact};
pub use motion_clamping::{ClampReport, ClampedBody, MotionClamping, MotionClampingSettings};
pub use query::{
    CastStatus, Interior, PointProjection, QueryError, QueryFilter, QueryView, RayHit,
    ShapeCastHit, ShapeCastOptions,
};
pub use rules::{CollisionRules, PairKind};
pub use sensing::{SensorEvent, SensorEvents};
pub use settings::{TIME_TO_SLEEP, WorldSettings};
pub use shape_proxies::ShapeProxies;
pub use step_log::{CourseLog, ImpulseLog, PairImpulse};
pub use stepper::{Discrete, DiscreteReport, StepContext, StepPreview, Stepper};
pub use world::{AdvanceReport, JointEvent, SleepEvents, StepReport, World};

/// The test scenes live in the unpublished `impact-testkit` crate; what users called from
/// here is kept, deprecated, at its former path.
#[deprecated(
    since = "0.2.0",
    note = "the scenes moved to the unpublished impact-testkit crate"
)]
pub mod scenes {
    /// [`FirstTimeOfImpactSettings::elastic`](crate::FirstTimeOfImpactSettings::elastic) at
    /// its former path.
    #[deprecated(since = "0.2.0", note = "use `FirstTimeOfImpactSettings::elastic()`")]
    pub fn hard_disk_stepper() -> crate::FirstTimeOfImpactSettings {
        crate::FirstTimeOfImpactSettings::elastic()
    }
}
