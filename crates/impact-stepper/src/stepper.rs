//! [`Stepper`]: how positions advance in a step, and [`Discrete`], the baseline.

use crate::domain::{Domain, PeriodicImages};
use crate::error::WorldError;
use crate::events::{CollisionEvent, ImpactHook};
pub use crate::report::DiscreteReport;
use crate::rules::CollisionRules;
use crate::shape_proxies::ShapeProxies;
use crate::step_log::{CourseLog, ImpulseLog};
use core::fmt::Debug;
use impact_broadphase::{Broadphase, ProxyId};
use impact_geometry::{Real, Vector};
use impact_solver::{
    BodyHandle, BodySet, ContactCache, ContactPair, ContactSolver, JointSet, RigidBody, ShapeId,
    SolverScratch, SolverSettings,
};

/// Everything a [`Stepper`] sees of the world during one step.
///
/// The fields are public so that steppers can live outside this crate, and so that a stepper
/// can borrow the bodies mutably while it uses the broadphase.
pub struct StepContext<'a, B: Broadphase> {
    /// The bodies, at their poses and velocities at the start of the step (gravity not yet
    /// applied).
    pub bodies: &'a mut BodySet,
    /// The broadphase, holding for every body its swept box over this step (start and end
    /// pose at the start velocities, padded by the speculative reach of gravity): a body can
    /// only touch, during the step, bodies whose boxes overlap its box. (A body for which
    /// this stepper's [`Stepper::contact_reach`] answered `Some` has only its start box,
    /// padded by that reach.) Use
    /// [`Broadphase::query_swept`] on it for time-of-impact candidates, and
    /// [`StepContext::body_of`] to turn the proxies it answers into bodies. A stepper that
    /// changes a body's motion during the step must grow that body's box
    /// ([`Broadphase::update`]) to cover its new motion before it queries for it, so the
    /// broadphase's answers stay free of false negatives; the world gives every box anew at
    /// the next step.
    pub broadphase: &'a mut B,
    /// The body in each body slot, indexed by [`BodyHandle::index`]: the body whose first
    /// shape's proxy has that index (`None` for free slots and for indices held for the
    /// proxies of further shapes).
    pub proxies: &'a [Option<BodyHandle>],
    /// The shape each proxy stands for (every shape of a body is its own proxy): use
    /// [`StepContext::shape_of`] on the broadphase's answers.
    pub shapes: &'a ShapeProxies,
    /// This step's contact manifolds, one per candidate pair with at least one dynamic body
    /// and at least one point within its speculative margin, in pair order (smaller proxy,
    /// then larger), normal from `a` toward `b`.
    pub contacts: &'a [ContactPair],
    /// The warm-starting impulses of the previous step; the stepper replaces them with this
    /// step's.
    pub cache: &'a mut ContactCache,
    /// The joints, solved with the contacts in the solver's step; the stepper stores their
    /// impulses and reactions back for the next step.
    pub joints: &'a mut JointSet,
    /// Storage for the contact solver, kept by the world from step to step so that the
    /// solver does not allocate its arrays anew every step (it holds no state: see
    /// [`SolverScratch`]).
    pub solver_scratch: &'a mut SolverScratch,
    /// Gravity (world units per second squared), finite.
    pub gravity: Vector,
    /// The solver's settings, validated.
    pub solver: &'a SolverSettings,
    /// The step length (seconds), finite and positive.
    pub dt: Real,
    /// The world's simulated time at the start of the step (seconds), for event times.
    pub time: Real,
    /// Where the stepper records the collisions it resolves inside the step, in time order;
    /// empty on entry.
    pub events: &'a mut Vec<CollisionEvent>,
    /// Called at each impact the stepper resolves inside the step (see [`ImpactHook`]).
    pub hook: &'a mut dyn ImpactHook,
    /// Bodies the hook removed during the step, in the order it removed them; empty on
    /// entry. The stepper leaves them in the body set (frozen where they were removed) and
    /// the world removes them after a successful step.
    pub removed: &'a mut Vec<BodyHandle>,
    /// In a periodic domain, the step's wrapped queries: use
    /// [`PeriodicImages::query_swept`] instead of [`Broadphase::query_swept`] to get each
    /// candidate with the translation of the image it is met through, and
    /// [`PeriodicImages::cover`] every box given to the broadphase during the step. `None`
    /// in an unbounded world. Bodies are not wrapped during the step (the world wraps them
    /// after it), so a body's course is continuous.
    pub periodic: Option<PeriodicImages>,
    /// Which pairs may collide: the shapes' filters and sensor flags and the world's pair
    /// hooks. `contacts` holds only pairs they allow (the pre-solve hook asked, its changes
    /// in [`ContactPair::material`]); a stepper that finds pairs on its own asks
    /// [`CollisionRules::allows`] before it asks their time of impact, and
    /// [`CollisionRules::pre_solve`] before it acts on an impact.
    pub rules: CollisionRules<'a>,
    /// The world's candidate pairs of shapes with a sensor shape that the filters let meet
    /// (the shape of the smaller proxy first, with the translation of the second body's
    /// image, as `contacts`), in proxy pair order: set aside from the contacts, the
    /// broadphase's view at the start of the step, for a stepper of one's own. They are
    /// pairs of shapes, not bodies, because a sensor is a shape (a body may carry one beside
    /// solid shapes) and the broadphase pairs shapes; the body of each is its
    /// [`ShapeId::body`]. The world's sensor events do not come from them but from its own
    /// search after the step, along the courses of [`StepContext::courses`]; the steppers
    /// leave sensors out of their searches.
    pub sensor_pairs: &'a [(ShapeId, ShapeId, Vector)],
    /// Where a stepper whose bodies move inside the step otherwise than on one
    /// constant-velocity sweep from their start pose to their end pose records their
    /// courses, while [`CourseLog::is_recording`] (the world has a sensor): the world finds
    /// sensor events along them if [`Stepper::follows_courses`]. Empty on entry.
    pub courses: &'a mut CourseLog,
    /// Where a stepper records the normal impulses of its contacts over the step, while
    /// [`ImpulseLog::is_recording`] (a body has a contact force threshold): the world's
    /// contact force events come from them and from `events`. Empty on entry.
    pub impulses: &'a mut ImpulseLog,
}

impl<B: Broadphase> Debug for StepContext<'_, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StepContext")
            .field("bodies", &self.bodies.len())
            .field("proxies", &self.proxies.len())
            .field("contacts", &self.contacts.len())
            .field("gravity", &self.gravity)
            .field("dt", &self.dt)
            .field("time", &self.time)
            .field("rules", &self.rules)
            .field("sensor_pairs", &self.sensor_pairs.len())
            .field("courses", &self.courses.is_recording())
            .field("impulses", &self.impulses.is_recording())
            .finish_non_exhaustive()
    }
}

impl<B: Broadphase> StepContext<'_, B> {
    /// The body that `proxy` stands for (the body of its shape), or `None` if no shape has
    /// that proxy.
    #[inline]
    pub fn body_of(&self, proxy: ProxyId) -> Option<BodyHandle> {
        self.shapes.shape_of(proxy).map(|s| s.body)
    }

    /// The shape that `proxy` stands for, or `None` if no shape has that proxy.
    #[inline]
    pub fn shape_of(&self, proxy: ProxyId) -> Option<ShapeId> {
        self.shapes.shape_of(proxy)
    }
}

/// How a step spends what the narrowphase knows: the stage of
/// [`World::step`](crate::World::step) that moves bodies.
///
/// The world does everything that every stepper needs before calling
/// [`Stepper::advance`]: it validates `dt`, gives the broadphase each body's swept box, and
/// builds the contact manifolds of the candidate pairs. The stepper then owns the rest of the
/// step: gravity, the contact solver, and how positions reach the end of the step.
///
/// # Contract
/// On success, `advance` must:
/// - leave every body at the end of the step, `dt` seconds later: gravity applied to the
///   velocities of dynamic bodies, contacts solved, static bodies unmoved. A stepper that
///   loses time (a body stopped short of where its velocity would take it) keeps the time
///   it lost in its [`Stepper::Report`]; it must not hide it;
/// - leave in `ctx.cache` the impulses to warm start the next step from (or clear it);
/// - be deterministic: the same context and the same stepper state give bit-identical bodies,
///   cache and report. Iterate bodies and pairs in the order given, never in hash order;
/// - not add, remove or change the type or shape of bodies: the world keeps the broadphase
///   in step with the body set.
///
/// On error it must leave the bodies and the cache as they were on entry (validate before
/// mutating), so that a failed [`World::step`](crate::World::step) changes nothing the user
/// can see. A valid world with valid settings must not make `advance` fail or panic.
///
/// [`MotionClamping`](crate::MotionClamping) queries `ctx.broadphase` for the time of
/// impact of fast bodies and clamps their end poses;
/// [`FirstTimeOfImpact`](crate::FirstTimeOfImpact) runs an event queue of pair impacts
/// inside the step, records them in `ctx.events` and calls `ctx.hook` at each.
pub trait Stepper {
    /// What the stepper reports about one step (counts, time lost, events).
    type Report: Debug + Clone + PartialEq + Default;

    /// Advances every body of `ctx.bodies` by `ctx.dt` seconds. See the trait's contract.
    ///
    /// # Errors
    /// A [`WorldError`] naming the field the stepper refused; nothing is changed then.
    fn advance<B: Broadphase>(
        &mut self,
        ctx: StepContext<'_, B>,
    ) -> Result<Self::Report, WorldError>;

    /// Whether the coming step needs the world's per-step pass (the broadphase update and
    /// the contact manifolds), asked just before it. A stepper that moves every body of
    /// `preview` on its own can answer `false` and save the pass: [`Stepper::advance`] then
    /// gets no contacts, and the broadphase keeps the boxes of the last step that needed it
    /// until the next one does (it is given every box anew then). The default, `true`, is
    /// always correct.
    ///
    /// The pass also checks, in a periodic domain, that every body's swept box fits half
    /// the domain, and refuses the step otherwise (naming `dt`). A stepper that answers
    /// `false` takes that check on: it must answer `true` for a step whose boxes (see
    /// [`StepPreview::speculative_distance`]) would not fit, so that the world refuses it
    /// as usual.
    fn needs_world_pass(&mut self, preview: &StepPreview<'_>) -> bool {
        let _ = preview;
        true
    }

    /// For a body whose contacts this stepper only needs where they are close at the start
    /// of the step, how close: the world then gives the broadphase the body's box at its
    /// start pose, padded by this reach, instead of its swept box over the step padded by
    /// `pad`, and the manifolds of its pairs farther apart than the reach at the start may
    /// be missing from [`StepContext::contacts`]. Asked once per body per step with the
    /// world pass, before [`Stepper::advance`], with `gravity` the length of the world's
    /// gravity, `dt` the step length and `pad` the world's speculative pad (its speculative
    /// distance plus `gravity * dt^2`, what it pads every other box by). A stepper that
    /// wants the body's speculative contacts with bodies close at the start too answers at
    /// least `pad`, as [`MotionClamping`](crate::MotionClamping) does.
    ///
    /// `None`, the default, is always correct: the swept box, which gives every pair the
    /// body can meet during the step at the start velocities. A stepper that answers `Some`
    /// for a body must not rely on the broadphase for that body's later meetings (it finds
    /// them on its own, as [`FirstTimeOfImpact`](crate::FirstTimeOfImpact) does in its
    /// grid): it saves the broadphase and the narrowphase the pairs a fast body's swept box
    /// meets.
    fn contact_reach(&self, body: &RigidBody, gravity: Real, dt: Real, pad: Real) -> Option<Real> {
        let _ = (body, gravity, dt, pad);
        None
    }

    /// Whether the speculative contacts of `a` and `b` may reach as far as the pair can close
    /// over the step, past the size of the smaller body (its
    /// [bounding radius](impact_geometry::Shape::bounding_radius) about its centre of mass).
    /// Asked once per candidate pair per step with the world pass.
    ///
    /// The world gives each pair a manifold up to its speculative distance plus how far the
    /// pair can close over the step, so that the solver stops an approach it sees coming
    /// before the bodies overlap. Within a body's size that is what a discrete step can
    /// trust. Past it, it is continuous collision detection by another name (speculative
    /// CCD): a body that closes more than its own size in a step can cross a thin one
    /// between two steps, and a contact seen from that far stops it. Answering `false`
    /// caps the closing part of the margin at the smaller body's bounding radius, so the
    /// pair tunnels as it does without CCD.
    ///
    /// The default, `a.ccd() || b.ccd()`, follows the flag: a body without it is stepped as
    /// [`Discrete`] steps every body.
    fn speculates_past_size(&self, a: &RigidBody, b: &RigidBody) -> bool {
        a.ccd() || b.ccd()
    }

    /// Whether the bodies of this stepper's steps follow known courses inside the step: a
    /// body of which [`StepContext::courses`] records nothing moved in one constant-velocity
    /// sweep about its centre of mass from its start pose to its end pose, and a body it
    /// records moved on the courses recorded. The world then finds sensor events along
    /// those courses, at the times the shapes meet and part; otherwise (the default, the
    /// answer of [`Discrete`], whose solver moves bodies substep by substep) from the
    /// overlaps at the end of each step.
    fn follows_courses(&self) -> bool {
        false
    }
}

/// What [`Stepper::needs_world_pass`] sees of the coming step.
#[derive(Debug, Clone, Copy)]
pub struct StepPreview<'a> {
    /// The bodies, as [`StepContext::bodies`] will hold them.
    pub bodies: &'a BodySet,
    /// Gravity (world units per second squared), finite.
    pub gravity: Vector,
    /// The world's domain.
    pub domain: &'a Domain,
    /// The step length (seconds), finite and positive.
    pub dt: Real,
    /// The world's speculative distance: the pass pads each body's swept box over `dt`
    /// ([`Aabb::swept`](impact_geometry::Aabb::swept) of
    /// [`RigidBody::sweep`](impact_solver::RigidBody::sweep)) by it and by `|gravity| dt^2`.
    pub speculative_distance: Real,
    /// Whether the step's hook does nothing ([`ImpactHook::is_inert`]): a stepper that
    /// cannot call it may then skip it.
    pub inert_hook: bool,
    /// Which pairs may collide this step (see [`StepContext::rules`]).
    pub rules: CollisionRules<'a>,
}

/// The baseline stepper, without continuous collision detection: the contact solver runs
/// its whole soft step ([`solve_step`](impact_solver::solve_step)) over the step's
/// manifolds and every body moves to the end pose its solved velocity gives. Its sensor
/// events come from the overlaps at the end of each step ([`Stepper::follows_courses`]).
///
/// Resting and slow contacts are exact enough (the speculative margin grows with the
/// relative speed, so the solver sees a contact before two bodies meet), but a body that
/// crosses a thin obstacle in less than a step and had no manifold with it at the start
/// tunnels: the margin stops growing at the smaller body's size, whatever the `ccd` flags
/// ([`Stepper::speculates_past_size`]), since past it a speculative contact is continuous
/// collision detection. It is kept as the reference the CCD steppers are measured against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Discrete;

impl Stepper for Discrete {
    type Report = DiscreteReport;

    fn advance<B: Broadphase>(
        &mut self,
        mut ctx: StepContext<'_, B>,
    ) -> Result<DiscreteReport, WorldError> {
        discrete_step(&mut ctx)
    }

    /// Never: the baseline has no continuous collision detection, not even through its
    /// speculative contacts.
    fn speculates_past_size(&self, _a: &RigidBody, _b: &RigidBody) -> bool {
        false
    }
}

/// The discrete step of [`Discrete`]: gravity, the contact solver's whole soft step over the
/// step's manifolds, and every body moved to the end pose its solved velocity gives.
///
/// # Errors
/// As [`impact_solver::solve_step`]; nothing is changed then.
pub(crate) fn discrete_step<B: Broadphase>(
    ctx: &mut StepContext<'_, B>,
) -> Result<DiscreteReport, WorldError> {
    let contacts = ctx.contacts;
    solve_contacts(ctx, contacts)
}

/// [`discrete_step`] over `contacts` instead of all the step's manifolds: the CCD steppers
/// leave out the contacts they answer for themselves.
///
/// The solver counts its impulses for [`StepContext::impulses`] if that is recording.
///
/// # Errors
/// As [`impact_solver::solve_step`]; nothing is changed then.
pub(crate) fn solve_contacts<B: Broadphase>(
    ctx: &mut StepContext<'_, B>,
    contacts: &[ContactPair],
) -> Result<DiscreteReport, WorldError> {
    // The solver validates everything before it changes a body, which is the
    // all-or-nothing behaviour the contract asks for (`solve_step_in`'s steps, with the
    // impulse log's count between them).
    let mut solver = ContactSolver::new_in(
        ctx.bodies,
        contacts,
        ctx.cache,
        ctx.solver,
        ctx.dt,
        ctx.solver_scratch,
    )?;
    if let Err(error) = solver.prepare_joints(ctx.bodies, ctx.joints) {
        solver.recycle(ctx.solver_scratch);
        return Err(error.into());
    }
    ctx.impulses.prepare(&mut solver);
    if let Err(error) = solver.step(ctx.bodies, ctx.gravity) {
        solver.recycle(ctx.solver_scratch);
        return Err(error.into());
    }
    solver.store_impulses(ctx.cache);
    solver.store_joint_impulses(ctx.joints);
    ctx.impulses.record_solver(&solver);
    let constraints = solver.constraints().len();
    solver.recycle(ctx.solver_scratch);
    Ok(DiscreteReport { constraints })
}
