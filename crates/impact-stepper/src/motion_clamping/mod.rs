//! [`MotionClamping`]: the discrete step, then every fast CCD body stopped at its first time
//! of impact (DigitalRune's motion clamping).
//!
//! The stepper's documentation numbers the phases of a step, and `advance` is one call per
//! phase. This file holds the stepper, its per-step buffers and the phases that bracket the
//! search: the impacts of touching pairs at the start, the start poses and the contact
//! solver's targets, the motions rebuilt from them, and the clamp that places each body at
//! its fraction. The search in between has three files: `candidates` (which bodies are
//! checked, the boxes of their motions and the pairs whose boxes meet, and the net under the
//! solver's pairs), `earliest` (the time of impact of each candidate pair, and the earliest
//! safe fraction of each checked body) and `run_over` (the dynamic bodies that would run over
//! a stopped one, stopped where they meet it); `stopped` moves the groups of touching bodies
//! stopped at the start on as one body and caps the energy of those left there; `carry` has
//! a driver (a motor's body, a kinematic body), which no free body stops, carry the free
//! bodies it passed into. The settings are in `settings`; the report, shared in shape with `FirstTimeOfImpact`'s, in
//! `crate::report`.

mod candidates;
mod carry;
mod earliest;
mod run_over;
mod settings;
mod stopped;

pub use crate::report::{ClampReport, ClampedBody};
pub use settings::MotionClampingSettings;

use crate::error::{WorldError, finite};
use crate::grid::ReachGrid;
use crate::motion::{BySlots, ShapeRules, drives, fast_ccd_body, never_collides, rebuilt_sweep};
use crate::ramp::Ramp;
use crate::step_log::CourseLog;
use crate::stepper::{DiscreteReport, StepContext, Stepper, solve_contacts};
use crate::sweep_pairs::SweepPairs;
use crate::touching::{self, Closing, ClosingScratch};
use impact_broadphase::{Broadphase, ProxyId};
use impact_geometry::{Aabb, Isometry, Real, Sweep, Vector};
use impact_narrowphase::Toi;
use impact_solver::{BodyHandle, BodySet, ContactPair, ImpactSettings, JointSet, RigidBody};

/// Per body slot: the start pose, and the motion over the step once the targets are known;
/// the neighbour search over the motions' boxes. Kept from step to step for its storage.
#[derive(Debug, Clone, Default)]
struct Scratch {
    start: Vec<Option<Isometry>>,
    /// Per slot: the body's velocities at the start of the step (after the impacts of
    /// touching pairs), for the pairs that move as one (see the pushed-through net).
    start_velocity: Vec<(Vector, Real)>,
    /// Per slot: the body is in a contact the solver held (not in free flight).
    constrained: Vec<bool>,
    /// The buffers of the impacts of touching pairs at the start of the step.
    closing: ClosingScratch,
    sweeps: Vec<Option<Sweep>>,
    /// Per slot: the box of the body's motion over the step, padded for a checked body.
    boxes: Vec<Option<Aabb>>,
    /// Per slot: the body's handle, and whether its motion is checked.
    handles: Vec<Option<BodyHandle>>,
    checked: Vec<bool>,
    /// Per slot: whether the body was fast at the start of the step.
    fast: Vec<bool>,
    /// The step's contacts that go to the contact solver, sorted as the world's.
    solver_contacts: Vec<ContactPair>,
    /// The step's contacts, and those of the solver, ordered by slots for the look-ups.
    contacts_by_slots: BySlots,
    solver_by_slots: BySlots,
    /// The times of impact of one candidate's shape pairs.
    tois: Vec<([u32; 2], Toi)>,
    /// Per slot: the earliest safe fraction found for a checked body (and, once the bodies
    /// that would run over a stopped one are known, for those).
    earliest: Vec<Real>,
    /// Per slot: where a checked body stops, by its time of impact or the net (`run_over`).
    stopped_at: Vec<Real>,
    /// Per slot: the earliest fraction at which a dynamic body meets a stopped one.
    run_over: Vec<Real>,
    /// The pair search in a periodic domain...
    grid: ReachGrid,
    /// ...and outside one.
    sweep: SweepPairs,
    /// The grid's buffer.
    found: Vec<(u32, Vector)>,
    /// `(checked slot, other slot, translation of the other's image)` for every pair of
    /// boxes that meet with a checked body in it.
    candidates: Vec<(u32, u32, Vector)>,
    clamps: Vec<(BodyHandle, Real)>,
    /// Per slot: the group of bodies stopped at 0 the body moves on with (see `stopped`),
    /// an index into `groups`.
    as_one_of: Vec<Option<u32>>,
    groups: Vec<stopped::AsOne>,
    /// Per slot: the body has a joint. Jointed bodies are left out of the groups and of the
    /// energy cap: a group's one rigid motion and a cut of one link's velocities know nothing
    /// of the joints, and pulled ragdolls apart (the ragdoll example's largest end stretch
    /// over seeds 1-24 went from 0.7-6.9 to 0.9-12.8 units).
    jointed: Vec<bool>,
    /// Per slot: a body a joint's motor or spring drives ([`drives`]), judged fast by its
    /// thickness ([`motion_scale`](crate::motion::motion_scale)).
    driven: Vec<bool>,
    /// Per slot: a *driver*, a CCD body that a joint drives or a kinematic one, moving past
    /// the threshold by its thickness; and a *free* body, dynamic and without joints, which
    /// a driver carries rather than stops against (see `carry`).
    driver: Vec<bool>,
    free: Vec<bool>,
    /// How many drivers the step has.
    drivers: usize,
    /// Per slot: a *pusher*, a CCD body that a joint drives or a kinematic one, however
    /// fast: the run-over rule does not stop it at a free body stopped before it (a bar
    /// turning too slowly to be a driver stalled at every step at the small box it pushed,
    /// which the clamp stopped where they met). Its speed against its thickness bounds how
    /// far it goes into that body.
    pusher: Vec<bool>,
    /// How many pushers the step has (`free` is filled only if there are any).
    pushers: usize,
    /// `(driver slot, free slot, translation of the free body's image)` for every pair of
    /// motion boxes that meet with a driver and a free body in it: the carry's pairs, not the
    /// clamp's candidates.
    driver_pairs: Vec<(u32, u32, Vector)>,
    /// Per slot: the driver that carries the body over the rest of the step, if any.
    carried_by: Vec<Option<u32>>,
    /// Per slot: where a driver stops because it would squeeze a free body into a wall.
    stalled: Vec<Real>,
    /// The buffers of the carry's search for what a carried course meets.
    carry_query: Vec<ProxyId>,
    carry_found: Vec<(ProxyId, Vector)>,
    /// The groups' union-find and sizes, by slot.
    group_root: Vec<u32>,
    group_size: Vec<u32>,
    /// Per group root: the kinetic energy at the start and after the clamp.
    group_energy: Vec<(Real, Real)>,
    /// Per slot: a grouped body's course on its group's motion, and every body's box with
    /// the grouped ones' over those courses.
    group_sweeps: Vec<Option<Sweep>>,
    group_boxes: Vec<Option<Aabb>>,
    /// `(grouped slot, other slot)` for every pair of those boxes that meet across groups,
    /// and the search that finds them.
    group_pairs: Vec<(u32, u32)>,
    group_search: SweepPairs,
}

/// Motion clamping (DigitalRune's CCD articles): the discrete step, then every fast
/// CCD body stopped at its earliest time of impact.
///
/// # One step
/// 0. Touching pairs with a dynamic CCD body that close faster than the restitution
///    threshold are impacts, resolved first with the single-impact resolver, one pair after
///    the other (see `docs/algorithms/steppers.md`, "The rules every step keeps"); each is a
///    [`CollisionEvent`](crate::CollisionEvent) at fraction 0 ([`ClampReport::start_impacts`]).
///    A ball clamped at the ground in one step bounces at the start of the next.
/// 1. The start pose of every body is kept, then the contact solver's step of
///    [`Discrete`](crate::Discrete) runs (gravity, the soft step, positions), with one
///    difference: a *fast* body (a dynamic CCD body whose start velocities and gravity move
///    it past [`MotionClampingSettings::threshold_radii_per_step`] over the step) does not get
///    speculative contacts with static and kinematic bodies, only contacts within the target
///    separation plus the tolerance of them at the start. The world gives the broadphase
///    such a body's box at its start pose, padded by the world's speculative pad (or that
///    distance, if larger), instead of its swept box ([`Stepper::contact_reach`]). The
///    clamp below covers the rest of its motion against every body, exactly for static
///    ones, so the solver needs no speculative contact to stop it; speculative contacts with
///    other dynamic bodies, which the clamp covers only along their unclamped targets, are
///    kept wherever the broadphase finds them. The poses the step reaches are *targets*.
/// 2. Each body's motion over the step is rebuilt from its start pose and its target as a
///    constant-velocity [`Sweep`]: linear velocity `(c1 - c0) / dt` of the centre of mass,
///    angular velocity `dtheta / dt`. The solver's substeps make the real path piecewise, so
///    neither the start nor the end velocity describes it; only the two poses are certain,
///    and the straight sweep between them is the motion the body is actually credited with.
///    The angle change is the one of `(-pi, pi]` from the two rotations, moved by whole turns
///    to the one nearest the end angular velocity times `dt`, so a body spinning more than
///    half a turn per step keeps its turns.
/// 3. For each fast body, and each dynamic body with
///    [`RigidBody::ccd`](impact_solver::RigidBody::ccd) set whose rebuilt motion exceeds
///    [`MotionClampingSettings::threshold_radii_per_step`] (relative to its size), the candidates
///    are every body whose motion's box over the step ([`Aabb::swept`] of its rebuilt sweep)
///    meets the checked body's (padded by the target separation and the tolerance), found for
///    all checked bodies at once by a sort and sweep over those boxes (in a periodic domain,
///    by the spatial hash [`FirstTimeOfImpact`](crate::FirstTimeOfImpact) searches with,
///    whose wrapped cells find the images). The time of impact is computed against each
///    candidate, static or moving, along that candidate's own rebuilt sweep. Pairs that
///    overlap at the start ([`Toi::Overlapping`](impact_narrowphase::Toi::Overlapping)) are
///    the contact solver's business and are skipped, unless a body of the pair swings (its
///    sweep turns some point of its shape farther than the contact distance, which the
///    solver's manifold, taken at the start poses, does not bound) and the other is not
///    dynamic: the pair is then followed along the sweeps, and if its overlap can sink half
///    way into the thinner shape with area, the body's fraction is where the overlap deepens
///    along the contact normal by the tolerance (a stick on a segment, struck at one end,
///    swings the other through). Two dynamic bodies that overlap stay the solver's, under
///    the pushed-through net. So are pairs already within the target separation at the start (a hit
///    at fraction 0) for which the step had a contact manifold *and* whose targets are still
///    apart on the same side (overlapping by no more than the tolerance, or against a body
///    with area the larger of it and a quarter of the smaller body's bounding radius; the
///    normal within 90 degrees of the hit's): the solver held that contact over the step.
///    If the solver had the manifold and the targets closed in anyway, the body clamps at 0
///    and the pair leaves moving as one (below). Any other zero-fraction hit clamps at 0. A
///    deeper overlap is not tolerated there because an overlapping pair is handed to the
///    soft contact solver, which measurably pushes thin walls through (3% of bullets with a
///    one-radius allowance). Without this, a fast body sliding along a wall would be clamped
///    at 0 and frozen every step; with the side check, a body the soft solver let through
///    is still stopped (at fraction 0). The earliest
///    [`Toi::safe_fraction`](impact_narrowphase::Toi::safe_fraction) wins.
///    A dynamic body whose motion over the rest of the step would run into a checked body
///    where that one stops gets its own fraction: its time of impact with the stopped body
///    along the rest of its motion (see "Guarantees and limits").
/// 4. Every body with a fraction below 1 is placed at that fraction of its sweep, which is at
///    the target separation from what it hits, so the next step's contacts see it. A body in
///    free flight gets the velocity it has there (its end velocity less the gravity of the
///    time it lost, the component along gravity taken from energy at the chord's height, so
///    a clamp neither gains nor loses energy); a body the solver held keeps the solver's (but
///    for the two pairs that move as one, below). The time it lost, `(1 - fraction) dt`, is
///    reported.
/// 5. The dynamic bodies stopped at fraction 0 that the solver's contacts connect, two or
///    more, move on as one rigid body: the linear and angular momentum of their start
///    velocities about the group's centre of mass, each body on a sweep about that centre,
///    to the earliest safe fraction of their times of impact with every body outside the
///    group ([`ClampReport::stopped_as_one`]). Bodies left at 0 keep the velocities of
///    phase 4, scaled down per group to the kinetic energy they started the step with (see
///    `docs/algorithms/steppers.md`, step 6). Not in a periodic domain.
/// 6. A *driver* (a CCD body a joint's motor or spring drives, or a kinematic CCD body,
///    whose rim moves past the threshold times its thickness) is never stopped by a *free*
///    body (dynamic, without joints): their pair is not the driver's candidate, the driver
///    does not run over it, the net leaves it, and it does not move as one with it. A free
///    body the driver passed into over the step (at the end poses, overlapping it by more
///    than a held contact's slack, or on its other side in the driver's frame) is carried
///    instead: from where they met to the end of the step it keeps its pose relative to the
///    driver and leaves at the velocity of the driver's point where it rests
///    ([`ClampReport::carried`]). Its carried course stops at a static or kinematic body it
///    meets; met head on, that is a wedge, and a dynamic driver stops where the body meets it
///    ([`ClampReport::stalled_drivers`]). See `docs/algorithms/steppers.md`, step 7.
///
/// All sweeps are computed from the targets before any body is moved, so the result does
/// not depend on the order bodies are visited (a body's fraction is the least over its
/// candidates), and the report lists bodies sorted by handle.
///
/// # Guarantees and limits
/// - A checked body never passes through a static body during the step: its whole motion
///   is covered by the time of impact, which never reports a time later than the first
///   contact. This holds for zero-thickness segments too.
/// - Time is lost, never hidden: a clamped body ends the step short of where its velocity
///   took it, and the report says by how much.
/// - Dynamic versus dynamic is only as good as the targets: the other body's motion is its
///   own unclamped target motion (found by the box of that motion, so a body the solver
///   deflects is still a candidate), not the motion it ends up with if it is clamped too.
///   `FirstTimeOfImpact` is the mode for fast bodies meeting each other.
/// - A dynamic body (other than a driver meeting a free body, phase 6) whose motion over the
///   rest of the step would meet a checked body where that one stopped (the box it was stopped against, coming on; a box following it into a
///   wall) is stopped where they meet, at the target separation (or, for a pair that
///   overlaps there, where the overlap deepens by the tolerance), and reported as clamped:
///   left on its target it ran over the stopped body (a bullet stopped against a box spinning
///   off a toppling pyramid ended with its centre 0.069 inside it). Stopping it, rather than
///   carrying the stopped body along, keeps every pose on a motion already checked or the
///   contact solver's own, and gains no energy; the pair's approach is an impact of a
///   touching pair at the start of the next step (phase 0). One pass: a body stopped so is
///   not itself protected from a third.
/// - Otherwise only the CCD body is stopped; what it hits keeps its target. The exception is a contact
///   the soft solver pushed through: when a pair with a CCD body, touching at the start (a
///   manifold point within the target separation plus the tolerance) or with neither body
///   checked, ends with its closest-point normal turned round (a disc at the bottom of a
///   loaded pile squeezed through a zero-thickness segment; a slow stick a pile pressed
///   through the floor from a centimetre above), both of its dynamic bodies stay at their
///   start poses (reported in [`ClampReport::crossings_stopped`] and as clamped at 0), as
///   [`FirstTimeOfImpact`](crate::FirstTimeOfImpact) does, and they leave moving as one body.
///   The time of impact cannot see the first case (the pair overlaps at the start) and is not
///   asked in the second. It costs a distance query per such contact of a CCD body that
///   moved.
/// - Velocities change in two cases only, both a perfectly inelastic, rough impact that
///   keeps linear and angular momentum (the pair moves on as one body, or with the other
///   body's motion if that one is not dynamic): the pushed-through pair above, and a pair
///   within the target separation at the start whose manifold the solver had but whose
///   targets still overlap beyond the tolerance or turned round
///   ([`ClampReport::closing_stopped`]; a box spinning fast against a falling one, whose
///   contact the solver's anchors, turning with the box, see as opening). Clamped with the
///   velocities that closed them in, either pair would close in again from the same place at
///   every step and hang there: in the tumbling rain (1,000 bodies), 20 to 30 bodies hung in
///   mid-air without the first, and 4 to 10 without the second. (A free body a driver
///   carries, phase 6, leaves at the velocity of the driver's point where it rests: the
///   driver, moved by its motor or by its user, is not slowed.)
/// - A checked body whose motion's box overflows (a body at an absurd distance) is kept at its
///   start pose (fraction 0) rather than let it move unchecked.
///
/// # Cost
/// One discrete step; one sort of every body's motion box along one axis and one sweep over
/// them, four boxes at a time (the broadphase is not queried); then one time-of-impact query
/// per candidate of each checked body (closed forms when neither body rotates, conservative
/// advancement otherwise). Slow bodies and bodies without the flag are only swept past.
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MotionClamping {
    settings: MotionClampingSettings,
    #[cfg_attr(feature = "serde", serde(skip))]
    scratch: Scratch,
}

impl PartialEq for MotionClamping {
    /// Two steppers are equal when their settings are (the scratch buffers hold nothing
    /// between steps).
    fn eq(&self, other: &Self) -> bool {
        self.settings == other.settings
    }
}

impl MotionClamping {
    /// A stepper with `settings`.
    ///
    /// # Errors
    /// As [`MotionClampingSettings::validate`].
    pub fn new(settings: MotionClampingSettings) -> Result<Self, WorldError> {
        settings.validate()?;
        Ok(Self {
            settings,
            scratch: Scratch::default(),
        })
    }

    /// The settings.
    #[inline]
    pub fn settings(&self) -> &MotionClampingSettings {
        &self.settings
    }

    /// Replaces the settings.
    ///
    /// # Errors
    /// As [`MotionClampingSettings::validate`]; the stepper is unchanged.
    pub fn set_settings(&mut self, settings: MotionClampingSettings) -> Result<(), WorldError> {
        settings.validate()?;
        self.settings = settings;
        Ok(())
    }
}

impl Stepper for MotionClamping {
    type Report = ClampReport;

    /// One step, phase after phase as [`MotionClamping`]'s "One step" numbers them.
    fn advance<B: Broadphase>(
        &mut self,
        mut ctx: StepContext<'_, B>,
    ) -> Result<ClampReport, WorldError> {
        // The settings are valid by construction; the step length was checked by the world,
        // and `solve_step_in` validates the rest before changing anything.
        let dt = finite("dt", ctx.dt)?;
        let settings = self.settings;
        let scratch = &mut self.scratch;

        // 0. Touching pairs of a CCD body that close fast are impacts, resolved before
        // anything moves (see `touching`).
        let start_impacts = scratch.start_impacts(&settings, &mut ctx, dt);

        // 1. The start poses, then the contact solver's step: the targets.
        scratch.keep_start(&settings, ctx.bodies, ctx.gravity.norm(), dt);
        let discrete = scratch.solve_targets(&settings, &mut ctx)?;
        let mut report = ClampReport {
            discrete,
            start_impacts,
            ..ClampReport::default()
        };

        // 2. Every body's motion over the step, from its start pose to its target.
        scratch.rebuild_sweeps(ctx.bodies, dt);

        // 3. The earliest safe fraction of each checked body, over the candidates its
        // motion's box meets; and the net under the solver's pairs.
        scratch.clamps.clear();
        scratch.note_joints(ctx.joints, ctx.proxies.len());
        scratch.check_bodies(&settings, ctx.bodies, dt, &mut report);
        scratch.stop_pushed_through(&settings, ctx.bodies, ctx.contacts, dt, &mut report);
        let rules = ShapeRules {
            rules: ctx.rules,
            proxies: ctx.shapes,
        };
        scratch.find_candidates(ctx.periodic.as_ref().map(|p| p.size()), rules, ctx.bodies);
        scratch.earliest_fractions(
            &settings,
            (ctx.bodies, rules),
            ctx.contacts,
            dt,
            &mut report,
        );

        let _span = tracing::trace_span!(
            "motion_clamping",
            checked_bodies = report.checked_bodies,
            toi_queries = report.toi_queries,
            clamped = scratch.clamps.len()
        )
        .entered();
        // Groups of touching bodies stopped at the start move on as one.
        scratch.move_stopped_groups(
            &settings,
            (ctx.bodies, rules, ctx.contacts),
            (ctx.gravity, ctx.periodic.is_some()),
            dt,
            &mut report,
        );
        // 4. Clamp, after every sweep is known, so the order of visits changes nothing.
        scratch.clamp((ctx.bodies, ctx.courses), ctx.gravity, dt, &mut report);
        // Bodies left at 0 gain no energy there.
        scratch.cap_stopped_energy(ctx.bodies);
        // 5. A free body a driver passed into is carried by it.
        let search = (&*ctx.broadphase, ctx.periodic.as_ref(), ctx.shapes);
        scratch.carry_pushed(
            &settings,
            (ctx.bodies, rules, ctx.courses),
            search,
            dt,
            &mut report,
        );
        Ok(report)
    }

    /// A fast body (see "One step") gives the broadphase its box at the start pose, padded by
    /// the world's pad (or the target separation plus the tolerance, if larger), instead of
    /// its swept box: the clamp covers its motion against every body, and the broadphase and
    /// the narrowphase are spared the pairs its swept box meets. Its pairs with bodies close
    /// at the start, and with dynamic bodies whose own swept boxes reach it, still get their
    /// speculative contacts.
    ///
    /// A sensor keeps its swept box: it is never checked.
    fn contact_reach(&self, body: &RigidBody, gravity: Real, dt: Real, pad: Real) -> Option<Real> {
        (!never_collides(body)
            && fast_ccd_body(self.settings.threshold_radii_per_step, body, gravity, dt))
        .then(|| pad.max(self.settings.toi.target_separation() + self.settings.toi.tolerance()))
    }

    /// Yes: a clamped body has its motion to the clamp and its stay there recorded, and
    /// every other one goes on its chord from its start pose to the contact solver's
    /// target.
    fn follows_courses(&self) -> bool {
        true
    }
}

impl Scratch {
    /// The impacts of touching pairs with a dynamic CCD body that close fast at the start of
    /// the step (see [`touching`]), each recorded as an event at fraction 0 (no hook is
    /// called). Returns how many there were.
    fn start_impacts<B: Broadphase>(
        &mut self,
        settings: &MotionClampingSettings,
        ctx: &mut StepContext<'_, B>,
        dt: Real,
    ) -> usize {
        let pad = settings.toi.target_separation() + settings.toi.tolerance();
        let impact = ImpactSettings {
            restitution_threshold: ctx.solver.restitution_threshold,
            friction: true,
        };
        let closing = Closing {
            contacts: ctx.contacts,
            reach: pad,
            speeds: touching::impact_speeds(
                impact.restitution_threshold,
                settings.toi.tolerance(),
                ctx.gravity.norm(),
                dt,
            ),
            settings: impact,
            most: TOUCHING_IMPACTS,
            most_per_pair: TOUCHING_PAIR_IMPACTS,
        };
        let time = ctx.time;
        touching::resolve_closing(
            ctx.bodies,
            &closing,
            &mut self.closing,
            ctx.events,
            |bodies, c, _| match (bodies.get(c.a), bodies.get(c.b)) {
                (Some(a), Some(b)) => touching::may_resolve(a, b, dt, pad),
                _ => false,
            },
            |_, c, impulse, events| events.push(touching::start_event(c, impulse, time)),
        )
    }

    /// Every body's start pose and velocities, and whether it is fast, by slot.
    fn keep_start(
        &mut self,
        settings: &MotionClampingSettings,
        bodies: &BodySet,
        g: Real,
        dt: Real,
    ) {
        self.start.clear();
        self.start_velocity.clear();
        self.fast.clear();
        for (handle, body) in bodies.iter_awake() {
            let slot = handle.index as usize;
            if self.start.len() <= slot {
                self.start.resize(slot + 1, None);
                self.start_velocity.resize(slot + 1, (Vector::zeros(), 0.0));
                self.fast.resize(slot + 1, false);
            }
            self.start[slot] = Some(*body.pose());
            self.start_velocity[slot] = (body.linvel(), body.angvel());
            // A sensor never collides: nothing to check.
            self.fast[slot] = !never_collides(body)
                && fast_ccd_body(settings.threshold_radii_per_step, body, g, dt);
        }
    }

    /// The contact solver's step over the contacts the clamp does not cover: the targets.
    /// A fast body's contacts with static and kinematic bodies beyond the contact distance
    /// are left out: the clamp covers that motion exactly, and a speculative contact per
    /// segment a fast disc's swept box meets made most of the solver's work in the rain of
    /// discs.
    ///
    /// # Errors
    /// As [`solve_contacts`]; nothing is changed then.
    fn solve_targets<B: Broadphase>(
        &mut self,
        settings: &MotionClampingSettings,
        ctx: &mut StepContext<'_, B>,
    ) -> Result<DiscreteReport, WorldError> {
        let pad = settings.toi.target_separation() + settings.toi.tolerance();
        let fast = &self.fast;
        let fixed = |h: BodyHandle| ctx.bodies.get(h).is_some_and(|b| !b.is_dynamic());
        let clamp_covers = |c: &ContactPair| {
            c.manifold.min_separation() > pad
                && ((fast[c.a.index as usize] && fixed(c.b))
                    || (fast[c.b.index as usize] && fixed(c.a)))
        };
        self.solver_contacts.clear();
        self.solver_contacts
            .extend(ctx.contacts.iter().filter(|c| !clamp_covers(c)));
        let discrete = solve_contacts(ctx, &self.solver_contacts)?;
        reset(&mut self.constrained, self.start.len(), false);
        for c in &self.solver_contacts {
            if !c.manifold.is_empty() {
                for h in [c.a, c.b] {
                    if let Some(flag) = self.constrained.get_mut(h.index as usize) {
                        *flag = true;
                    }
                }
            }
        }
        Ok(discrete)
    }

    /// Every body's motion over the step, from its start pose to its target (see
    /// [`rebuilt_sweep`]).
    fn rebuild_sweeps(&mut self, bodies: &BodySet, dt: Real) {
        self.sweeps.clear();
        self.sweeps.resize(self.start.len(), None);
        for (handle, body) in bodies.iter_awake() {
            let slot = handle.index as usize;
            if let Some(start) = self.start.get(slot).copied().flatten() {
                self.sweeps[slot] = rebuilt_sweep(body, &start, dt);
            }
        }
    }

    /// Places every clamped body at its fraction of its motion, with the velocities it has
    /// there, and reports it and the time it lost; a body clamped twice (pushed through,
    /// and a time of impact) takes the earlier. Its two courses, along its motion to the
    /// clamp and standing there, go to `courses` if it records.
    fn clamp(
        &mut self,
        (bodies, courses): (&mut BodySet, &mut CourseLog),
        gravity: Vector,
        dt: Real,
        report: &mut ClampReport,
    ) {
        if self.clamps.len() > 1 {
            self.clamps
                .sort_by(|x, y| x.0.index.cmp(&y.0.index).then(x.1.total_cmp(&y.1)));
            self.clamps.dedup_by_key(|c| c.0);
        }
        for &(handle, fraction) in &self.clamps {
            let slot = handle.index as usize;
            let (Some(sweep), Some(body)) = (self.sweeps[slot], bodies.get_mut(handle)) else {
                continue;
            };
            let pose = sweep.pose_at(fraction);
            if body.set_pose(pose).is_err() {
                debug_assert!(false, "a pose on a finite sweep is valid");
                continue;
            }
            if courses.is_recording() {
                courses.record(handle, 0.0, sweep);
                let rest = (1.0 - fraction) * dt;
                if let Ok(still) =
                    Sweep::new(pose, sweep.local_center(), Vector::zeros(), 0.0, rest)
                {
                    courses.record(handle, fraction * dt, still);
                }
            }
            // The velocities it has where it stopped: those it ends the step with, without
            // the gravity (and the solver's change) of the part of the step it lost; or its
            // group's, for a body moved with one (see `stopped`).
            let (v, w) = self
                .velocity_as_one(slot, (&*body, &pose), (gravity, dt))
                .unwrap_or_else(|| {
                    let ramp = Ramp::over_step(body, gravity, !self.constrained[slot], dt);
                    ramp.velocity_at((body.linvel(), body.angvel()), (0.0, sweep), fraction * dt)
                });
            if body.is_dynamic() {
                // Refused only past the range of `f64` (a scene of absurd sizes): the body
                // keeps its own, and the world reports what overflowed after the step.
                let _ = body.set_velocity(v, w);
            }
            if fraction >= 1.0 {
                // A group moved as one over the whole step lost no time.
                continue;
            }
            let time_lost = (1.0 - fraction) * dt;
            report.time_lost += time_lost;
            report.clamped.push(ClampedBody {
                body: handle,
                fraction,
                time_lost,
            });
        }
    }
}

/// Most impacts of touching pairs that close fast at the start of a step (see
/// [`touching::resolve_closing`]), in all and of one pair (as `FirstTimeOfImpact`'s
/// defaults); the rest is the contact solver's.
const TOUCHING_IMPACTS: usize = 100_000;
const TOUCHING_PAIR_IMPACTS: u32 = 8;

/// Empties `v` and fills it with `len` copies of `value`, keeping its storage.
fn reset<T: Clone>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
}

impl Scratch {
    /// Which bodies have a joint (`jointed`) and which a joint's motor or spring drives
    /// (`driven`), by slot, in one pass over `joints`.
    fn note_joints(&mut self, joints: &JointSet, slots: usize) {
        reset(&mut self.jointed, slots, false);
        reset(&mut self.driven, slots, false);
        for (_, joint) in joints.iter() {
            let drives = joint.is_enabled() && drives(joint);
            for handle in [joint.body_a(), joint.body_b()] {
                let slot = handle.index as usize;
                if let Some(j) = self.jointed.get_mut(slot) {
                    *j = true;
                    self.driven[slot] |= drives;
                }
            }
        }
    }
}
