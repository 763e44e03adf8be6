//! # impact2d
//!
//! The facade of impact: every crate of the stack re-exported under one name, plus a
//! [`prelude`].
//!
//! ```
//! use impact2d::prelude::*;
//!
//! let bullet = Shape::from(Circle::new(0.05)?);
//! let paper = Shape::from(Segment::new(Point::new(1.0, -1.0), Point::new(1.0, 1.0))?);
//! let bullet_sweep = Sweep::translating(Isometry::identity(), Vector::new(50.0, 0.0))?;
//! let paper_sweep = Sweep::stationary(Isometry::identity())?;
//! let toi = time_of_impact(&bullet, &bullet_sweep, &paper, &paper_sweep, &ToiOptions::exact());
//! let hit = toi.hit().expect("the bullet hits the paper");
//! assert!((hit.fraction - 0.95 / 50.0).abs() < 1e-15);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//! - `scene`: scene files (`impact2d::scene`), with serde and serde_json.
//! - `serde`: `Serialize` and `Deserialize` for the worlds, bodies and settings (snapshots).
//! - `parallel`: a step's heavy stages (manifolds, the contact solve by graph colouring,
//!   the broadphase's pair search, `MotionClamping`'s times of impact) on every core through
//!   rayon, with the same bits as without it for any number of threads; see
//!   `docs/architecture.md`, "Parallel steps". On two cores the 5,050-box pyramid steps about
//!   1.4 to 1.5 times as fast (`cargo bench --features parallel --bench parallel`).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub use impact_broadphase as broadphase;
pub use impact_geometry as geometry;
pub use impact_narrowphase as narrowphase;
#[cfg(feature = "scene")]
pub use impact_scene as scene;
pub use impact_solver as solver;
pub use impact_stepper as stepper;

/// The names most programs need, in one import.
///
/// ```
/// use impact2d::prelude::*;
///
/// // A bob on a hinge, swinging under gravity on its rod of length 2.
/// let mut world: World = World::new(WorldSettings::default())?;
/// let pin = world.create_body(RigidBodyDef::fixed(Circle::new(0.05)?.into()))?;
/// let bob = world.create_body(
///     RigidBodyDef::new(Circle::new(0.1)?.into()).pose(Isometry::translation(2.0, 0.0)),
/// )?;
/// let hinge = JointDef::at_world_anchor(
///     world.body_set(), pin, bob, Point::origin(), RevoluteJoint::default().into())?;
/// let handle: JointHandle = world.create_joint(hinge)?;
/// for _ in 0..30 {
///     world.step(1.0 / 60.0)?;
/// }
/// assert!(matches!(world.joint(handle).unwrap().kind(), JointKind::Revolute(_)));
/// assert!(world.joint_events().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod prelude {
    pub use impact_broadphase::{
        Broadphase, BroadphaseError, BruteForce, ProxyId, ProxyPair, RTreeBroadphase, RTreeConfig,
        SortAndSweep,
    };
    pub use impact_geometry::{
        Aabb, Capsule, Chain, ChainSegment, Circle, ConcaveOutline, ConvexPolygon, GeometryError,
        Isometry, MassProperties, Point, Real, Rotation, Segment, Shape, ShapeKind, Sweep, Vector,
    };
    pub use impact_narrowphase::ray::Ray;
    pub use impact_narrowphase::{Hit, Toi, ToiOptions, time_of_impact};
    pub use impact_solver::{
        BodyHandle, BodySet, BodyShape, BodyType, CollisionFilter, ContactCache, ContactPair,
        ContactSolver, DistanceJoint, ImpactSettings, Impulse, Joint, JointDef, JointHandle,
        JointKind, JointSeparation, JointSet, Material, MotorJoint, MouseJoint, PrismaticJoint,
        RevoluteJoint, RigidBody, RigidBodyDef, ShapeDef, ShapeId, SolverError, SolverSettings,
        WeldJoint, WheelJoint, integrate_positions, integrate_velocities, resolve_impact,
        solve_step,
    };
    pub use impact_stepper::{
        AdvanceReport, CastStatus, ClampReport, ClampedBody, CollisionEvent, ContactBeginEvent,
        ContactEndEvent, ContactEvents, ContactForceEvent, Discrete, Domain, EventKind,
        FirstTimeOfImpact, FirstTimeOfImpactSettings, FirstToiReport, Impact, ImpactHook, Interior,
        JointEvent, MotionClamping, MotionClampingSettings, NoHook, PairFilter, PairView,
        PointProjection, PreSolveContact, PreSolveHook, QueryError, QueryFilter, QueryView, RayHit,
        SensorEvent, SensorEvents, ShapeCastHit, ShapeCastOptions, ShapeProxies, SleepEvents,
        StepContext, StepReport, Stepper, World, WorldError, WorldSettings,
    };
}

/// The README's code example, compiled and run as a doc test so it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The guides' code, compiled and run as doc tests so they stay true to the API.
#[cfg(doctest)]
mod guides {
    #[doc = include_str!("../docs/guides/choosing-a-stepper.md")]
    struct ChoosingAStepper;
    #[doc = include_str!("../docs/guides/tuning-ccd.md")]
    struct TuningCcd;
    #[doc = include_str!("../docs/guides/coming-from-rapier-and-parry.md")]
    struct ComingFromRapierAndParry;
    #[doc = include_str!("../docs/guides/queries-filters-and-sensors.md")]
    struct QueriesFiltersAndSensors;
    #[doc = include_str!("../docs/guides/joints.md")]
    struct Joints;
    #[doc = include_str!("../docs/guides/sleeping.md")]
    struct Sleeping;
    #[cfg(feature = "scene")]
    #[doc = include_str!("../docs/guides/scene-files.md")]
    struct SceneFiles;
}
