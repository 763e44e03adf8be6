//! [`World`]: bodies, a broadphase and a stepper, advanced one step at a time.
//!
//! This file holds the world itself and everything a caller does between steps: creating,
//! removing, moving and reading bodies, and the settings. The step's pipeline (broadphase,
//! narrowphase, stepper, and the bookkeeping that makes a failed step change nothing) is in
//! `step`, with what it reports; snapshots are in `snapshot`. The split follows what a
//! reader comes for: the API of bodies changes rarely and reads top to bottom, the step is
//! one pipeline with its own invariants.

use crate::contact_events::ContactEvents;
use crate::domain::PeriodicImages;
use crate::error::WorldError;
use crate::events::CollisionEvent;
use crate::first_toi::FirstTimeOfImpact;
use crate::hooks::{PairFilter, PreSolveHook};
use crate::rules::ShapeRule;
use crate::sensing::SensorEvents;
use crate::settings::WorldSettings;
use crate::shape_proxies::ShapeProxies;
use crate::stepper::Stepper;
use impact_broadphase::{Broadphase, ProxyId, RTreeBroadphase};
use impact_geometry::{Aabb, Isometry, Real, Vector};
use impact_solver::{
    BodyHandle, BodySet, CollisionFilter, ContactCache, ContactPair, JointPairs, JointSet,
    JointSetState, RigidBody, RigidBodyDef, ShapeId, SolverScratch,
};
use std::sync::{Arc, OnceLock};

mod events;
mod joints;
mod narrowphase;
mod queries;
mod shapes;
mod sleep;
#[cfg(feature = "serde")]
mod snapshot;
mod step;
mod swept_boxes;
mod wake;

use events::{Ending, Tracking, TrackingScratch};

pub use joints::JointEvent;
pub use sleep::SleepEvents;
pub use step::{AdvanceReport, StepReport};

/// Buffers reused from step to step; they hold no state between steps.
#[derive(Debug, Clone, Default)]
struct Scratch {
    moved: Vec<(ProxyId, Aabb)>,
    /// Per body slot: linear velocity, an upper bound of `|w| r` (the speed a point of the
    /// body gains from its rotation), and the bounding radius `r` about the centre of mass.
    motion: Vec<(Vector, Real, Real)>,
    contacts: Vec<ContactPair>,
    /// The pairs of `contacts` that touch (see `contact_events::touches`), in pair order,
    /// and their indices there: noted as each manifold is built, while it is in cache. The
    /// pairs become the world's touching pairs after the step.
    touched: Vec<(ShapeId, ShapeId)>,
    touched_at: Vec<u32>,
    /// The stepper writes the events here; swapped into `World::events` on success.
    events: Vec<CollisionEvent>,
    removed: Vec<BodyHandle>,
    /// Periodic domains: the step's wrapped queries, the candidates of one query, and every
    /// candidate pair as (smaller slot, larger slot, period counts of the larger's image).
    images: Option<PeriodicImages>,
    candidates: Vec<ProxyId>,
    periodic_pairs: Vec<(u32, u32, i8, i8)>,
    /// While most bodies sleep, the step's candidate pairs with an awake non-static body
    /// (see `find_awake_pairs`), used in place of the broadphase's when
    /// `use_awake_pairs`.
    awake_pairs: Vec<impact_broadphase::ProxyPair>,
    use_awake_pairs: bool,
    /// The sides of this step's segment contacts, becoming [`World::sides`] if it succeeds.
    sides: Vec<(ShapeId, ShapeId, Vector)>,
    /// The narrowphase's candidates and their manifolds (see `narrowphase`), kept for their
    /// storage.
    narrow_candidates: Vec<narrowphase::Candidate>,
    narrow_manifolds: Vec<impact_narrowphase::Manifold>,
    /// Every body's pose and velocities, and the contact cache, as the stepper found them:
    /// put back if the step leaves a body that is not finite.
    before: Vec<(BodyHandle, Isometry, Vector, Real)>,
    cache_before: ContactCache,
    /// The joints' impulses and reactions as the stepper found them, put back likewise.
    joints_before: JointSetState,
    /// The step's candidate pairs with a sensor (see [`StepContext::sensor_pairs`]).
    ///
    /// [`StepContext::sensor_pairs`]: crate::StepContext::sensor_pairs
    sensor_pairs: Vec<(ShapeId, ShapeId, Vector)>,
    /// The contact solver's arrays, lent to the stepper in every step's
    /// [`StepContext`](crate::StepContext).
    solver: SolverScratch,
    /// The buffers of the step's contact and sensor events.
    tracking: TrackingScratch,
}

/// The user's pair hooks, kept by the world: code, not state, so not part of a snapshot.
#[derive(Clone, Default)]
struct Hooks {
    pair_filter: Option<Arc<dyn PairFilter>>,
    pre_solve: Option<Arc<dyn PreSolveHook>>,
}

impl core::fmt::Debug for Hooks {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Hooks")
            .field("pair_filter", &self.pair_filter.is_some())
            .field("pre_solve", &self.pre_solve.is_some())
            .finish()
    }
}

/// A 2D physics world: rigid bodies, a broadphase `B` and a [`Stepper`] `S`.
///
/// Both stages are type parameters with defaults; swapping either is one line:
/// `World::<BruteForce, MotionClamping>::new(settings)`. The defaults are
/// [`RTreeBroadphase`] and [`FirstTimeOfImpact`], the stepper that loses no time.
///
/// # One step
/// [`World::step`] runs, each stage in a `tracing` span with its counts:
/// 1. **broadphase**: each body's swept box over `dt` ([`Aabb::swept`] of
///    [`RigidBody::sweep`]), padded by `settings.speculative_distance + |g| dt^2` so pairs
///    that gravity brings within the speculative margin are candidates too, goes to
///    [`Broadphase::update_batch`]; candidate pairs come back sorted. A body the stepper
///    only needs close contacts of ([`Stepper::contact_reach`]: [`FirstTimeOfImpact`]'s
///    fast CCD bodies, whose impacts it finds on its own) gives its box at the start pose,
///    padded by that reach, instead;
/// 2. **narrowphase**: a manifold per candidate pair with a dynamic body, up to
///    `speculative_distance + (relative speed + |g| dt) dt`, where the relative speed bounds
///    how fast any point of one body approaches any point of the other; the second term
///    stops at the smaller body's bounding radius unless the stepper follows the pair past
///    it ([`Stepper::speculates_past_size`]). Pairs of static or kinematic bodies are
///    skipped. A contact with a zero-thickness segment that overlaps, and whose normal
///    turned round since the last step, is taken on the side it had
///    ([`contact_manifold_on_side`](impact_narrowphase::contact_manifold_on_side)): a body
///    pressed past half its thickness is nearer the far side, and the solver would push it
///    the rest of the way;
/// 3. **stepper**: [`Stepper::advance`] with the manifolds (for
///    [`Discrete`](crate::Discrete), the solver's whole soft step: gravity, contacts,
///    positions).
///
/// 4. **events**: the step's contact events ([`World::contact_events`]) from the manifolds
///    of stage 2 and the impulses the stepper recorded, and, while a sensor exists, its
///    sensor events ([`World::sensor_events`]) from a search over every body's motion.
///
/// Stages 1 and 2 are skipped when the stepper says it does not need them
/// ([`Stepper::needs_world_pass`]; [`FirstTimeOfImpact`]'s disc path for a periodic gas of
/// free discs): the stepper then gets no manifolds, and the broadphase keeps the boxes of
/// the last step that used it until the next one does.
///
/// # Determinism
/// Bodies live in a [`BodySet`] (slot order), proxies are named by body slot and the indices
/// it reserves for further shapes ([`ShapeProxies`]), pairs come
/// sorted from the broadphase, and the warm-starting cache is a sorted vector: the same calls
/// give bit-identical worlds, whatever the broadphase.
#[derive(Debug, Clone)]
pub struct World<B: Broadphase = RTreeBroadphase, S: Stepper = FirstTimeOfImpact> {
    settings: WorldSettings,
    bodies: BodySet,
    broadphase: B,
    stepper: S,
    cache: ContactCache,
    /// The joints, and the pairs of bodies they keep from colliding.
    joints: JointSet,
    joint_pairs: JointPairs,
    /// The joints that broke in the last successful step.
    joint_events: Vec<joints::JointEvent>,
    /// The normal (from the first body toward the second) of each contact with a
    /// zero-thickness segment at the last step, sorted by the pair: which side of the segment
    /// the other body is on. A body pressed into a segment past half its thickness (a stick
    /// under a pile) is nearer the far side, and the exact manifold's normal turns round; the
    /// contact keeps its side instead
    /// ([`contact_manifold_on_side`](impact_narrowphase::contact_manifold_on_side)).
    sides: Vec<(ShapeId, ShapeId, Vector)>,
    /// Body of each body slot (= the proxy of its first shape), by slot index; `None` for
    /// free slots and for the indices held for further shapes' proxies.
    proxies: Vec<Option<BodyHandle>>,
    /// The shape of each proxy, and each body's proxies.
    shape_proxies: ShapeProxies,
    time: Real,
    steps: u64,
    accumulator: Real,
    /// The collision events of the last successful step.
    events: Vec<CollisionEvent>,
    hooks: Hooks,
    /// Each slot's filter and sensor flag (see `rules`), rebuilt before a step when
    /// `rules_stale`...
    rules: Vec<ShapeRule>,
    /// ...which every call that can change a body's filter or add a slot sets: a body
    /// created, [`World::set_filter`], and [`World::body_mut`] (whatever the caller does
    /// with it). A scan of every body at every step cost 0.2% of the instructions of a step
    /// of the rain of 1,000 discs, a fifth of what filtering may cost a world without
    /// filters.
    rules_stale: bool,
    /// The pairs touching and overlapping sensors, and the last step's contact and sensor
    /// events.
    tracking: Tracking,
    scratch: Scratch,
    /// The shapes that may have left their proxies' fat boxes (moved by the last step or
    /// by hand), which scene queries test from their own boxes: found at the first query
    /// after a change, emptied by every call that can move a body.
    unindexed: OnceLock<Vec<ShapeId>>,
    /// The sleeping islands and the sleep events (see `sleep`).
    sleep: sleep::Sleep,
}

impl<B: Broadphase + Default, S: Stepper + Default> World<B, S> {
    /// An empty world with a default broadphase and stepper.
    ///
    /// # Errors
    /// As [`WorldSettings::validate`].
    pub fn new(settings: WorldSettings) -> Result<Self, WorldError> {
        Self::with_parts(settings, B::default(), S::default())
    }
}

impl<B: Broadphase, S: Stepper> World<B, S> {
    /// An empty world with the given broadphase (which must be empty: the world names its
    /// proxies) and stepper.
    ///
    /// # Errors
    /// As [`WorldSettings::validate`];
    /// [`WorldError::OutOfRange`] naming `broadphase.len` if the broadphase is not empty.
    pub fn with_parts(
        settings: WorldSettings,
        broadphase: B,
        stepper: S,
    ) -> Result<Self, WorldError> {
        settings.validate()?;
        if !broadphase.is_empty() {
            return Err(WorldError::OutOfRange {
                field: "broadphase.len".to_owned(),
                value: broadphase.len() as Real,
                expected: "0 (the world names the proxies)",
            });
        }
        Ok(Self {
            settings,
            bodies: BodySet::new(),
            broadphase,
            stepper,
            cache: ContactCache::new(),
            joints: JointSet::new(),
            joint_pairs: JointPairs::default(),
            joint_events: Vec::new(),
            sides: Vec::new(),
            proxies: Vec::new(),
            shape_proxies: ShapeProxies::default(),
            time: 0.0,
            steps: 0,
            accumulator: 0.0,
            events: Vec::new(),
            hooks: Hooks::default(),
            rules: Vec::new(),
            rules_stale: true,
            tracking: Tracking::default(),
            scratch: Scratch::default(),
            unindexed: OnceLock::new(),
            sleep: sleep::Sleep::default(),
        })
    }

    /// The settings.
    #[inline]
    pub fn settings(&self) -> &WorldSettings {
        &self.settings
    }

    /// Replaces the settings.
    ///
    /// # Errors
    /// As [`WorldSettings::validate`]; the world is unchanged.
    pub fn set_settings(&mut self, settings: WorldSettings) -> Result<(), WorldError> {
        settings.validate()?;
        if settings.domain != self.settings.domain {
            // Every body must fit the new domain before any is moved into it.
            for (_, body) in self.bodies.iter() {
                settings
                    .domain
                    .check_fits(&proxy_box(body, "body")?, "body.aabb")?;
            }
        }
        // New gravity, margins or a domain change what every body at rest feels.
        if settings != self.settings {
            self.wake_all();
        }
        self.settings = settings;
        self.wrap_bodies();
        self.bodies_moved();
        Ok(())
    }

    /// Moves every body whose origin left a periodic domain back into it by whole periods.
    fn wrap_bodies(&mut self) {
        let domain = self.settings.domain;
        if !domain.is_periodic() {
            return;
        }
        for (_, body) in self.bodies.iter_mut() {
            let pose = domain.wrap_pose(body.pose());
            if pose != *body.pose() {
                let ok = body.set_pose(pose);
                debug_assert!(ok.is_ok(), "a wrapped finite pose is valid");
            }
        }
    }

    /// Sets gravity (world units per second squared).
    ///
    /// # Errors
    /// [`WorldError::NotFinite`] naming `gravity.x` or `gravity.y`, or
    /// [`WorldError::OutOfRange`] naming `gravity` if its length overflows `f64`; the world
    /// is unchanged.
    pub fn set_gravity(&mut self, gravity: Vector) -> Result<(), WorldError> {
        crate::error::finite_length("gravity", &gravity)?;
        if gravity != self.settings.gravity {
            self.wake_all();
        }
        self.settings.gravity = gravity;
        Ok(())
    }

    /// Validates `def`, adds the body and its broadphase proxies (one per shape, each the box
    /// of its shape at the body's pose), and returns its handle. In a periodic domain the
    /// body's origin is first moved into the domain by whole periods.
    ///
    /// The body takes the first free slot of the body set; the proxies of its further shapes
    /// take slots the set then holds back for them (see [`ShapeProxies`]), so a body created
    /// after a body of several shapes does not get the next index. [`World::create_bodies`]
    /// creates a list of bodies in consecutive slots.
    ///
    /// # Errors
    /// The body's validation error ([`WorldError::Solver`] naming `body.*`),
    /// [`WorldError::NotFinite`] naming `body.aabb` if the shape's box at that pose
    /// overflows, or [`WorldError::OutOfRange`] naming `body.aabb.width` or `.height` if the
    /// domain is periodic and the body is wider or taller than half of it; the world is
    /// unchanged.
    pub fn create_body(&mut self, def: RigidBodyDef) -> Result<BodyHandle, WorldError> {
        let (body, boxes) = self.checked_body(def)?;
        let handle = self.bodies.insert_body(body);
        if let Err(e) = self.install_proxies(handle, boxes) {
            self.bodies.remove(handle);
            return Err(e);
        }
        Ok(handle)
    }

    /// Validates every def of `defs`, then adds the bodies in order, each in the next free
    /// slot of the body set, before the proxies of any further shape hold slots back: in a
    /// world whose set has no free slot (one nothing was removed from), the bodies take
    /// consecutive slots after the last one in use, whatever their numbers of shapes, and in
    /// a new world body `k` of the list is slot `k`. A scene file relies on it: its body `k`
    /// is slot `k`. Returns the handles in the order of `defs`.
    ///
    /// # Errors
    /// The first def refused, with its error as [`World::create_body`] gives it but its
    /// fields named under `bodies[k]` (`bodies[3].density`, `bodies[3].aabb.width`); the
    /// world is unchanged.
    pub fn create_bodies(
        &mut self,
        defs: impl IntoIterator<Item = RigidBodyDef>,
    ) -> Result<Vec<BodyHandle>, WorldError> {
        let mut ready = Vec::new();
        for (k, def) in defs.into_iter().enumerate() {
            let body = self
                .checked_body(def)
                .map_err(|e| e.renamed("body", &format!("bodies[{k}]")))?;
            ready.push(body);
        }
        let mut created = Vec::with_capacity(ready.len());
        let mut all_boxes = Vec::with_capacity(ready.len());
        for (body, boxes) in ready {
            created.push(self.bodies.insert_body(body));
            all_boxes.push(boxes);
        }
        for (k, boxes) in all_boxes.into_iter().enumerate() {
            if let Err(e) = self.install_proxies(created[k], boxes) {
                // Unreachable (see `install_proxies`); the bodies not yet given proxies go.
                for &handle in &created[k..] {
                    self.bodies.remove(handle);
                }
                return Err(e.renamed("body", &format!("bodies[{k}]")));
            }
        }
        Ok(created)
    }

    /// `def` validated into a body, moved into a periodic domain, with the boxes of its
    /// shapes at its pose; errors as [`World::create_body`]'s.
    fn checked_body(&self, def: RigidBodyDef) -> Result<(RigidBody, Vec<Aabb>), WorldError> {
        let mut body = RigidBody::new(def)?;
        if self.settings.domain.is_periodic() {
            body.set_pose(self.settings.domain.wrap_pose(body.pose()))?;
        }
        let boxes = shape_boxes(&body, "body")?;
        self.settings.domain.check_fits(&body.aabb(), "body.aabb")?;
        Ok((body, boxes))
    }

    /// Names the proxies of the shapes of the body `handle` (just inserted in the set) and
    /// inserts them with `boxes`, one per shape.
    ///
    /// # Errors
    /// The broadphase's, unreachable with finite boxes (the proxy of a free or reserved slot
    /// is always free); the proxies are then undone, and the caller removes the body.
    fn install_proxies(&mut self, handle: BodyHandle, boxes: Vec<Aabb>) -> Result<(), WorldError> {
        self.rules_stale = true;
        let proxies = self
            .shape_proxies
            .attach(&mut self.bodies, handle, boxes.len());
        for (k, (&proxy, aabb)) in proxies.iter().zip(boxes).enumerate() {
            if let Err(e) = self.broadphase.insert(proxy, aabb) {
                for &done in &proxies[..k] {
                    let _ = self.broadphase.remove(done);
                }
                self.shape_proxies.detach(&mut self.bodies, handle);
                return Err(e.into());
            }
        }
        let slot = handle.index as usize;
        if self.proxies.len() <= slot {
            self.proxies.resize(slot + 1, None);
        }
        self.proxies[slot] = Some(handle);
        Ok(())
    }

    /// Removes the body, its proxies and its cached contact impulses, and returns it. The
    /// pairs its shapes touched and the sensors they overlapped (or, a sensor shape, the
    /// shapes in it) end:
    /// their end events, at the world's time, come with the next step's events
    /// ([`World::contact_events`], [`World::sensor_events`]).
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] naming `handle` if it is stale or foreign; the world is
    /// unchanged.
    pub fn remove_body(&mut self, handle: BodyHandle) -> Result<RigidBody, WorldError> {
        self.remove_body_ending(handle, Ending::Pending)
    }

    /// [`World::remove_body`], its pairs' end events where `ending` says.
    fn remove_body_ending(
        &mut self,
        handle: BodyHandle,
        ending: Ending,
    ) -> Result<RigidBody, WorldError> {
        self.try_body(handle)?;
        // What it touched loses its support: the island, and the bodies touching it, wake.
        self.wake_body(handle);
        self.wake_touching(handle);
        let body = self.bodies.remove(handle).ok_or(WorldError::UnknownBody {
            field: "handle".to_owned(),
            handle,
        })?;
        // The proxies exist for every live body's shapes; ignoring a failure here would only
        // mean the world's own bookkeeping was already broken.
        for proxy in self.shape_proxies.detach(&mut self.bodies, handle) {
            let removed = self.broadphase.remove(proxy);
            debug_assert!(removed.is_ok(), "every shape has a proxy");
        }
        self.proxies[handle.index as usize] = None;
        self.rules_stale = true;
        self.forget_contacts(handle);
        self.forget_wake(handle);
        self.end_pairs_of(handle, ending);
        self.remove_joints_of(handle);
        Ok(body)
    }

    /// The body, or `None` if the handle is stale or foreign.
    #[inline]
    pub fn body(&self, handle: BodyHandle) -> Option<&RigidBody> {
        self.bodies.get(handle)
    }

    /// The body, or [`WorldError::UnknownBody`] naming `handle`.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] if the handle is stale or foreign.
    pub fn try_body(&self, handle: BodyHandle) -> Result<&RigidBody, WorldError> {
        self.bodies.get(handle).ok_or(WorldError::UnknownBody {
            field: "handle".to_owned(),
            handle,
        })
    }

    /// The body, mutably, or `None` if the handle is stale or foreign; a sleeping body is
    /// woken with its island. Its setters validate their input ([`RigidBody::set_linvel`],
    /// ...). Its box in the broadphase follows at the
    /// next step; after moving a body by hand (a teleport), prefer [`World::set_pose`], which
    /// also forgets its warm-starting impulses.
    #[inline]
    pub fn body_mut(&mut self, handle: BodyHandle) -> Option<&mut RigidBody> {
        self.bodies_moved();
        self.rules_stale = true;
        // Whatever the caller changes (a velocity, an impulse, a shape), the body's island
        // takes part in the next step.
        if self.bodies.contains(handle) {
            self.wake(handle).ok();
        }
        self.bodies.get_mut(handle)
    }

    /// Moves the body to `pose` (a teleport; in a periodic domain, wrapped into it) and
    /// forgets its cached contact impulses, which belonged to contacts at the old place.
    /// A sleeping body wakes with its island, and so do the bodies it touched.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] naming `handle`, the body's validation error naming
    /// `body.pose`, or in a periodic domain [`WorldError::OutOfRange`] naming
    /// `body.aabb.width` or `.height` if the body turned to that pose is wider or taller than
    /// half the domain; the world is unchanged.
    pub fn set_pose(&mut self, handle: BodyHandle, pose: Isometry) -> Result<(), WorldError> {
        let domain = self.settings.domain;
        let body = self.bodies.get_mut(handle).ok_or(WorldError::UnknownBody {
            field: "handle".to_owned(),
            handle,
        })?;
        let old = *body.pose();
        body.set_pose(domain.wrap_pose(&pose))?;
        let fits = proxy_box(body, "body").and_then(|aabb| domain.check_fits(&aabb, "body.aabb"));
        if let Err(e) = fits {
            let ok = body.set_pose(old);
            debug_assert!(ok.is_ok(), "the old pose was valid");
            return Err(e);
        }
        self.wake(handle)?;
        self.wake_touching(handle);
        self.forget_contacts(handle);
        self.bodies_moved();
        Ok(())
    }

    /// Notes that bodies may have moved away from their proxies' boxes: scene queries list
    /// the shapes outside them again
    /// ([`QueryView::unindexed_shapes`](crate::QueryView::unindexed_shapes)) at the next
    /// query.
    fn bodies_moved(&mut self) {
        self.unindexed.take();
    }

    /// Drops what the world remembers of `handle`'s contacts: warm-start impulses and the
    /// sides of its segment contacts.
    fn forget_contacts(&mut self, handle: BodyHandle) {
        self.cache.remove_body(handle);
        self.sides
            .retain(|&(a, b, _)| a.body != handle && b.body != handle);
    }

    /// Sets the velocities of the body (linear: world units per second; angular: radians per
    /// second, counter-clockwise). A sleeping body wakes with its island.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] naming `handle`, or the body's validation error naming
    /// `body.linvel` / `body.angvel`; the world is unchanged.
    pub fn set_velocity(
        &mut self,
        handle: BodyHandle,
        linvel: Vector,
        angvel: Real,
    ) -> Result<(), WorldError> {
        let body = self.bodies.get_mut(handle).ok_or(WorldError::UnknownBody {
            field: "handle".to_owned(),
            handle,
        })?;
        body.set_velocity(linvel, angvel)?;
        self.wake(handle)?;
        Ok(())
    }

    /// Sets the collision filter of every shape of the body (see [`CollisionFilter`];
    /// [`World::set_shape_filter`] sets one shape's). Pairs are
    /// filtered afresh at every step: from the next step a pair the filter now keeps apart
    /// has no contact, impact or event, and its warm-starting impulses are dropped with the
    /// step's contacts (they never push again, and a pair allowed again starts cold).
    /// [`RigidBody::set_filter`] through [`World::body_mut`] does the same.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] naming `handle`; the world is unchanged.
    pub fn set_filter(
        &mut self,
        handle: BodyHandle,
        filter: CollisionFilter,
    ) -> Result<(), WorldError> {
        let body = self.bodies.get_mut(handle).ok_or(WorldError::UnknownBody {
            field: "handle".to_owned(),
            handle,
        })?;
        body.set_filter(filter);
        self.rules_stale = true;
        // A pair the filter lets meet again may overlap: both sides take part.
        self.wake(handle)?;
        self.wake_touching(handle);
        Ok(())
    }

    /// Sets the hook that may veto pairs of shapes their filters let collide (see
    /// [`PairFilter`]), in place of any set before. It is kept until
    /// [`World::clear_pair_filter`]; a snapshot does not hold it (it is code): set it again
    /// on a restored world.
    ///
    /// ```
    /// use impact_geometry::{Circle, Vector};
    /// use impact_solver::RigidBodyDef;
    /// use impact_stepper::{PairView, World, WorldSettings};
    ///
    /// let mut world: World = World::new(WorldSettings::with_gravity(Vector::zeros()))?;
    /// let disc = || RigidBodyDef::new(Circle::new(0.5).unwrap().into());
    /// let a = world.create_body(disc().linvel(Vector::new(1.0, 0.0)).user_data(7))?;
    /// let b = world.create_body(disc().pose(impact_geometry::Isometry::translation(1.2, 0.0)))?;
    /// // Bodies tagged 7 pass through everything.
    /// world.set_pair_filter(|pair: &PairView<'_>| {
    ///     pair.body_a.user_data() != 7 && pair.body_b.user_data() != 7
    /// });
    /// for _ in 0..60 {
    ///     world.step(1.0 / 60.0)?;
    /// }
    /// assert!(world.body(a).unwrap().pose().translation.x > 0.99);
    /// assert_eq!(world.body(b).unwrap().linvel(), Vector::zeros());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_pair_filter(&mut self, filter: impl PairFilter + 'static) {
        self.hooks.pair_filter = Some(Arc::new(filter));
    }

    /// Removes the pair filter hook: from the next step only the filters decide.
    pub fn clear_pair_filter(&mut self) {
        self.hooks.pair_filter = None;
    }

    /// Sets the hook asked before each contact and CCD impact is used, which may disable it
    /// or change its friction and restitution for the step (see [`PreSolveHook`]), in place
    /// of any set before. It is kept until [`World::clear_pre_solve`]; a snapshot does not
    /// hold it (it is code): set it again on a restored world.
    pub fn set_pre_solve(&mut self, hook: impl PreSolveHook + 'static) {
        self.hooks.pre_solve = Some(Arc::new(hook));
    }

    /// Removes the pre-solve hook.
    pub fn clear_pre_solve(&mut self) {
        self.hooks.pre_solve = None;
    }

    /// Every body with its handle, in slot order: the order depends only on the sequence of
    /// creations and removals.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyHandle, &RigidBody)> + '_ {
        self.bodies.iter()
    }

    /// The body set.
    #[inline]
    pub fn body_set(&self) -> &BodySet {
        &self.bodies
    }

    /// How many bodies the world holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Whether the world holds no body.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// The broadphase.
    #[inline]
    pub fn broadphase(&self) -> &B {
        &self.broadphase
    }

    /// The stepper.
    #[inline]
    pub fn stepper(&self) -> &S {
        &self.stepper
    }

    /// The stepper, mutably (to change its settings between steps).
    #[inline]
    pub fn stepper_mut(&mut self) -> &mut S {
        &mut self.stepper
    }

    /// The warm-starting impulses kept from the last step.
    #[inline]
    pub fn contact_cache(&self) -> &ContactCache {
        &self.cache
    }

    /// Simulated time (seconds): the sum of the `dt` of every successful step.
    #[inline]
    pub fn time(&self) -> Real {
        self.time
    }

    /// How many steps succeeded.
    #[inline]
    pub fn step_count(&self) -> u64 {
        self.steps
    }

    /// The collision events of the last successful step, in time order: each impact the
    /// stepper resolved inside the step, with its absolute time, fraction of the step,
    /// bodies, point, normal, approach speed and impulse. Only
    /// [`FirstTimeOfImpact`] resolves impacts inside a step;
    /// the other steppers record none.
    ///
    /// They are the step's *hit* events; the contact solver's pairs that begin and end
    /// touching, and the forces they carry, are in [`World::contact_events`], and the
    /// overlaps of sensors in [`World::sensor_events`].
    #[inline]
    pub fn events(&self) -> &[CollisionEvent] {
        &self.events
    }

    /// The contact events of the last successful step: the pairs that began and ended
    /// touching (a manifold point within the linear slop, judged on the manifolds the step
    /// started from), after the end events of bodies removed since the step before, and
    /// the pairs whose normal force over the step passed the smaller of their bodies'
    /// [`contact_force_threshold`](RigidBody::contact_force_threshold)s (counted only while
    /// a body has one). See [`ContactEvents`].
    #[inline]
    pub fn contact_events(&self) -> &ContactEvents {
        &self.tracking.contact
    }

    /// The sensor events of the last successful step: the bodies that began and ended
    /// overlapping a sensor, each at its time (exact along the bodies' courses under the
    /// CCD steppers, at the step's end under [`Discrete`](crate::Discrete)). See
    /// [`SensorEvents`].
    #[inline]
    pub fn sensor_events(&self) -> &SensorEvents {
        &self.tracking.sensor
    }

    /// The pairs of shapes touching as of the last step (`(a, b)` in the order of their
    /// proxies, sorted by slot and shape index): those with a begin event and no end event
    /// since, the pairs of sleeping islands among them (they go on touching while they
    /// sleep). Two shapes of one body never touch each other. A new list at each call.
    pub fn touching_pairs(&self) -> Vec<(ShapeId, ShapeId)> {
        let mut all = self.tracking.touching.clone();
        if self.bodies.asleep_len() > 0 {
            all.extend(self.sleeping_touching());
            all.sort_by_key(|&p| crate::contact_events::touch_key(p));
        }
        all
    }

    /// The shapes overlapping a sensor shape as the last step ended, as `(sensor, other)`
    /// pairs sorted by sensor, then other shape: those with a begin event and no end event
    /// since. A sensor never overlaps the shapes of its own body.
    #[inline]
    pub fn sensor_overlaps(&self) -> &[(ShapeId, ShapeId)] {
        &self.tracking.overlaps
    }
}

/// The box of each of `body`'s shapes at its pose, for their broadphase proxies.
///
/// # Errors
/// [`WorldError::NotFinite`] naming `{field}.aabb.*` if a box overflows.
pub(crate) fn shape_boxes(body: &RigidBody, field: &str) -> Result<Vec<Aabb>, WorldError> {
    body.shapes()
        .iter()
        .map(|s| finite_box(s.shape().aabb(body.pose()), field))
        .collect()
}

/// The box of all of `body`'s shapes at its pose.
///
/// # Errors
/// [`WorldError::NotFinite`] naming `{field}.aabb.*` if the box overflows.
pub(crate) fn proxy_box(body: &RigidBody, field: &str) -> Result<Aabb, WorldError> {
    finite_box(body.aabb(), field)
}

fn finite_box(aabb: Aabb, field: &str) -> Result<Aabb, WorldError> {
    for (name, value) in [
        ("aabb.mins.x", aabb.mins.x),
        ("aabb.mins.y", aabb.mins.y),
        ("aabb.maxs.x", aabb.maxs.x),
        ("aabb.maxs.y", aabb.maxs.y),
    ] {
        if !value.is_finite() {
            return Err(WorldError::NotFinite {
                field: format!("{field}.{name}"),
                value,
            });
        }
    }
    Ok(aabb)
}
