//! Any combination of broadphase and stepper as one type: [`AnyWorld`], built from a
//! [`Scene`], captured back into one, and saved as a snapshot.

use crate::error::{SceneError, remap};
use crate::joints::SceneJoint;
use crate::scene::{BroadphaseChoice, Scene, StepperChoice, StepperKind};
use core::any::Any;
use core::fmt::Debug;
use impact_broadphase::{Broadphase, BruteForce, RTreeBroadphase, SortAndSweep};
use impact_geometry::Real;
use impact_narrowphase::ray::Ray;
use impact_solver::{BodySet, JointSet};
use impact_stepper::{
    ClampReport, CollisionEvent, ContactEvents, Discrete, DiscreteReport, FirstTimeOfImpact,
    FirstToiReport, ImpactHook, Interior, JointEvent, MotionClamping, NoHook, QueryError,
    QueryFilter, RayHit, SensorEvents, StepReport, Stepper, World, WorldError, WorldSettings,
};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};

/// What one step of an [`AnyWorld`] did, whatever its stepper: the counts every stepper
/// reports.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepSummary {
    /// Candidate pairs the broadphase reported.
    pub pairs: usize,
    /// Contact manifolds given to the stepper.
    pub manifolds: usize,
    /// Collision events the stepper recorded (impacts resolved inside the step).
    pub events: usize,
    /// Bodies the impact hook removed.
    pub removed: usize,
    /// Simulated time the stepper lost over all bodies (seconds): clamped bodies under
    /// [`MotionClamping`], bodies stopped by a cap under [`FirstTimeOfImpact`], zero under
    /// [`Discrete`].
    pub time_lost: Real,
}

/// A stepper a scene can choose: one of the three of `impact-stepper`.
///
/// Sealed in practice: the scene format names exactly these three.
pub trait SceneStepper: Stepper + Serialize + DeserializeOwned + Debug + Clone + 'static {
    /// The stepper with its settings, as a scene names it.
    fn choice(&self) -> StepperChoice;

    /// The time lost in one step (seconds), from the stepper's report.
    fn time_lost(report: &Self::Report) -> Real;
}

impl SceneStepper for Discrete {
    fn choice(&self) -> StepperChoice {
        StepperChoice::Discrete
    }

    fn time_lost(_: &DiscreteReport) -> Real {
        0.0
    }
}

impl SceneStepper for MotionClamping {
    fn choice(&self) -> StepperChoice {
        StepperChoice::Clamp(*self.settings())
    }

    fn time_lost(report: &ClampReport) -> Real {
        report.time_lost
    }
}

impl SceneStepper for FirstTimeOfImpact {
    fn choice(&self) -> StepperChoice {
        StepperChoice::Toi(*self.settings())
    }

    fn time_lost(report: &FirstToiReport) -> Real {
        report.time_lost
    }
}

/// A broadphase a scene can choose: one of the three of `impact-broadphase`.
pub trait SceneBroadphase: Broadphase + Default + Debug + Clone + 'static {
    /// The broadphase as a scene names it.
    const CHOICE: BroadphaseChoice;
}

impl SceneBroadphase for RTreeBroadphase {
    const CHOICE: BroadphaseChoice = BroadphaseChoice::RTree;
}

impl SceneBroadphase for SortAndSweep {
    const CHOICE: BroadphaseChoice = BroadphaseChoice::SortAndSweep;
}

impl SceneBroadphase for BruteForce {
    const CHOICE: BroadphaseChoice = BroadphaseChoice::BruteForce;
}

/// A [`World`] of any broadphase and stepper a scene can choose, behind one object-safe
/// trait: what [`Scene::build`] returns, since the world's type depends on choices made in
/// the file.
///
/// Every `World<B, S>` with a [`SceneBroadphase`] and a [`SceneStepper`] is one, so a
/// program that built its world by hand can capture it with [`Scene::from_world`] too. The
/// concrete world is one [`AnyWorld::as_any`] downcast away.
pub trait AnyWorld: Debug {
    /// Advances the world by `dt` seconds ([`World::step`]).
    ///
    /// # Errors
    /// As [`World::step`]; nothing is changed then.
    fn step(&mut self, dt: Real) -> Result<StepSummary, WorldError> {
        self.step_with(dt, &mut NoHook)
    }

    /// Advances the world by `dt` seconds, calling `hook` at each impact resolved inside the
    /// step ([`World::step_with`]).
    ///
    /// # Errors
    /// As [`World::step_with`].
    fn step_with(&mut self, dt: Real, hook: &mut dyn ImpactHook)
    -> Result<StepSummary, WorldError>;

    /// The bodies ([`World::body_set`]).
    fn body_set(&self) -> &BodySet;

    /// The joints ([`World::joints`]).
    fn joints(&self) -> &JointSet;

    /// The joint events of the last step: the joints that broke ([`World::joint_events`]).
    fn joint_events(&self) -> &[JointEvent];

    /// The collision events of the last step ([`World::events`]).
    fn events(&self) -> &[CollisionEvent];

    /// The contact events of the last step ([`World::contact_events`]).
    fn contact_events(&self) -> &ContactEvents;

    /// The sensor events of the last step ([`World::sensor_events`]).
    fn sensor_events(&self) -> &SensorEvents;

    /// The simulated time (seconds).
    fn time(&self) -> Real;

    /// The number of steps taken.
    fn step_count(&self) -> u64;

    /// The world's settings.
    fn settings(&self) -> &WorldSettings;

    /// The stepper and its settings.
    fn stepper_choice(&self) -> StepperChoice;

    /// The broadphase.
    fn broadphase_choice(&self) -> BroadphaseChoice;

    /// Every shape `ray` hits, nearest first ([`World::cast_ray_all`]); the first is the
    /// nearest ([`World::cast_ray`]).
    ///
    /// # Errors
    /// As [`World::cast_ray_all`].
    fn cast_ray_all(
        &self,
        ray: &Ray,
        interior: Interior,
        filter: &QueryFilter<'_>,
    ) -> Result<Vec<RayHit>, QueryError>;

    /// A snapshot of the whole world as JSON: the world's own serde snapshot (settings,
    /// bodies with their handles, stepper, warm-starting impulses, clock) with the choice of
    /// broadphase and stepper beside it, so [`restore`] can rebuild the right type.
    ///
    /// # Errors
    /// [`SceneError`] if serialization fails (it does not for a valid world).
    fn snapshot(&self) -> Result<String, SceneError>;

    /// The concrete `World<B, S>`, for downcasting.
    fn as_any(&self) -> &dyn Any;

    /// The concrete `World<B, S>`, mutably, for downcasting.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// The snapshot's header, written before the world so a reader learns the types first.
#[derive(Serialize)]
struct SnapshotOut<'a, W> {
    format: &'static str,
    broadphase: &'static str,
    stepper: &'static str,
    world: &'a W,
}

/// The header alone, read first to pick the world's type.
#[derive(Deserialize)]
struct SnapshotHeader {
    format: String,
    broadphase: String,
    stepper: String,
    #[allow(dead_code)]
    world: IgnoredAny,
}

/// The snapshot read again with the world's type known.
#[derive(Deserialize)]
struct SnapshotIn<W> {
    #[allow(dead_code)]
    format: IgnoredAny,
    #[allow(dead_code)]
    broadphase: IgnoredAny,
    #[allow(dead_code)]
    stepper: IgnoredAny,
    world: W,
}

/// The `format` field of a snapshot.
const SNAPSHOT_FORMAT: &str = "impact-world-snapshot";

impl<B: SceneBroadphase, S: SceneStepper> AnyWorld for World<B, S> {
    fn step_with(
        &mut self,
        dt: Real,
        hook: &mut dyn ImpactHook,
    ) -> Result<StepSummary, WorldError> {
        let report: StepReport<S::Report> = World::step_with(self, dt, hook)?;
        Ok(StepSummary {
            pairs: report.pairs,
            manifolds: report.manifolds,
            events: report.events,
            removed: report.removed.len(),
            time_lost: S::time_lost(&report.stepper),
        })
    }

    fn body_set(&self) -> &BodySet {
        World::body_set(self)
    }

    fn joints(&self) -> &JointSet {
        World::joints(self)
    }

    fn joint_events(&self) -> &[JointEvent] {
        World::joint_events(self)
    }

    fn events(&self) -> &[CollisionEvent] {
        World::events(self)
    }

    fn contact_events(&self) -> &ContactEvents {
        World::contact_events(self)
    }

    fn sensor_events(&self) -> &SensorEvents {
        World::sensor_events(self)
    }

    fn time(&self) -> Real {
        World::time(self)
    }

    fn step_count(&self) -> u64 {
        World::step_count(self)
    }

    fn settings(&self) -> &WorldSettings {
        World::settings(self)
    }

    fn stepper_choice(&self) -> StepperChoice {
        self.stepper().choice()
    }

    fn broadphase_choice(&self) -> BroadphaseChoice {
        B::CHOICE
    }

    fn cast_ray_all(
        &self,
        ray: &Ray,
        interior: Interior,
        filter: &QueryFilter<'_>,
    ) -> Result<Vec<RayHit>, QueryError> {
        World::cast_ray_all(self, ray, interior, filter)
    }

    fn snapshot(&self) -> Result<String, SceneError> {
        serde_json::to_string(&SnapshotOut {
            format: SNAPSHOT_FORMAT,
            broadphase: B::CHOICE.name(),
            stepper: self.stepper().choice().kind().name(),
            world: self,
        })
        .map_err(|e| SceneError::new("", format!("cannot write the snapshot: {e}")))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// Rebuilds a world from [`AnyWorld::snapshot`]: it continues bit for bit as the original
/// would have (its broadphase is rebuilt from the bodies, see `impact-stepper`'s snapshot
/// documentation).
///
/// # Errors
/// [`SceneError`] with the path of the bad field (`world.bodies.slots[2]...`), or naming
/// `format`, `broadphase` or `stepper` if the header is not a snapshot's.
pub fn restore(json: &str) -> Result<Box<dyn AnyWorld>, SceneError> {
    let header: SnapshotHeader = crate::read::parse(json.as_bytes())?;
    if header.format != SNAPSHOT_FORMAT {
        return Err(SceneError::new(
            "format",
            format!("must be {SNAPSHOT_FORMAT:?}, got {:?}", header.format),
        ));
    }
    let broadphase: BroadphaseChoice = header
        .broadphase
        .parse()
        .map_err(|e: SceneError| e.under("broadphase"))?;
    let stepper: StepperKind = header
        .stepper
        .parse()
        .map_err(|e: SceneError| e.under("stepper"))?;
    fn typed<B: SceneBroadphase, S: SceneStepper>(
        json: &str,
    ) -> Result<Box<dyn AnyWorld>, SceneError> {
        let s: SnapshotIn<World<B, S>> = crate::read::parse(json.as_bytes())?;
        Ok(Box::new(s.world))
    }
    fn with_broadphase<B: SceneBroadphase>(
        json: &str,
        stepper: StepperKind,
    ) -> Result<Box<dyn AnyWorld>, SceneError> {
        match stepper {
            StepperKind::Discrete => typed::<B, Discrete>(json),
            StepperKind::Clamp => typed::<B, MotionClamping>(json),
            StepperKind::Toi => typed::<B, FirstTimeOfImpact>(json),
        }
    }
    match broadphase {
        BroadphaseChoice::RTree => with_broadphase::<RTreeBroadphase>(json, stepper),
        BroadphaseChoice::SortAndSweep => with_broadphase::<SortAndSweep>(json, stepper),
        BroadphaseChoice::BruteForce => with_broadphase::<BruteForce>(json, stepper),
    }
}

impl Scene {
    /// A world of this scene: its settings, its broadphase and stepper, its bodies created
    /// in order (body `i` of the scene gets slot `i`, handle index `i`), then its joints in
    /// order (joint `k` gets slot `k`).
    ///
    /// # Errors
    /// As [`Scene::validate`]: the first field that breaks a rule of the file.
    pub fn build(&self) -> Result<Box<dyn AnyWorld>, SceneError> {
        self.validate()?;
        match self.broadphase {
            BroadphaseChoice::RTree => self.build_with::<RTreeBroadphase>(),
            BroadphaseChoice::SortAndSweep => self.build_with::<SortAndSweep>(),
            BroadphaseChoice::BruteForce => self.build_with::<BruteForce>(),
        }
    }

    fn build_with<B: SceneBroadphase>(&self) -> Result<Box<dyn AnyWorld>, SceneError> {
        let stepper_error = |e: WorldError| remap(&e, "", "stepper");
        match self.stepper {
            StepperChoice::Discrete => self.build_typed::<B, _>(Discrete),
            StepperChoice::Clamp(s) => {
                self.build_typed::<B, _>(MotionClamping::new(s).map_err(stepper_error)?)
            }
            StepperChoice::Toi(s) => {
                self.build_typed::<B, _>(FirstTimeOfImpact::new(s).map_err(stepper_error)?)
            }
        }
    }

    fn build_typed<B: SceneBroadphase, S: SceneStepper>(
        &self,
        stepper: S,
    ) -> Result<Box<dyn AnyWorld>, SceneError> {
        // Validation ran the same checks as these constructors, with the file's paths; what
        // could still fail here is mapped as well as the library's field names allow.
        let mut world = World::with_parts(self.settings, B::default(), stepper)
            .map_err(|e| remap(&e, "settings", "solver"))?;
        // All at once, so that body `i` is slot `i` even after a body of several shapes
        // (whose further shapes' proxies hold slots back).
        let handles = world
            .create_bodies(self.bodies.iter().cloned())
            .map_err(|e| remap(&e, "bodies", "bodies"))?;
        for (k, j) in self.joints.iter().enumerate() {
            let [a, b] = j.bodies.map(|i| handles[i]);
            world
                .create_joint(j.def(a, b))
                .map_err(|e| remap(&e, "joint", &format!("joints[{k}]")))?;
        }
        Ok(Box::new(world))
    }

    /// The scene of a world as it is now: its settings, stepper, broadphase, its bodies in
    /// slot order at their current poses and velocities, and its joints in slot order;
    /// `name`, `dt`, `steps` and `on_first_hit` are the defaults (set them with struct
    /// update syntax): a world holds none of them.
    ///
    /// `Scene::from_world(&*scene.build()?)` gives back `scene` with its name, `dt` and
    /// `steps`: what a scene holds round-trips through a world, except that the world keeps
    /// a prismatic or wheel joint's axis as a unit vector (a scene whose axis is not one
    /// gets it back normalised). What a world holds beyond a scene is lost: the clock, the
    /// warm-starting impulses of contacts and joints, and the handles' generations (bodies
    /// and joints are renumbered from 0, closing the slots of removed ones). A world
    /// snapshot ([`AnyWorld::snapshot`]) keeps all of that; a scene is where a run starts.
    pub fn from_world(world: &dyn AnyWorld) -> Self {
        let bodies = world.body_set();
        // A body's index in the scene is its place in slot order.
        let index: std::collections::HashMap<_, usize> = bodies
            .iter()
            .enumerate()
            .map(|(i, (h, _))| (h, i))
            .collect();
        let joints = world
            .joints()
            .iter()
            .filter_map(|(_, j)| {
                let pair = [*index.get(&j.body_a())?, *index.get(&j.body_b())?];
                Some(SceneJoint::from_def(j.def(), pair))
            })
            .collect();
        Self {
            settings: *world.settings(),
            bodies: bodies.iter().map(|(_, b)| b.to_def()).collect(),
            joints,
            stepper: world.stepper_choice(),
            broadphase: world.broadphase_choice(),
            ..Self::default()
        }
    }
}
