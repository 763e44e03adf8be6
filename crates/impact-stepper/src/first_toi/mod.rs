//! [`FirstTimeOfImpact`]: an event queue of pair impacts inside the step, each resolved at its
//! exact time, with nothing lost (the "real first time of impact solver" of DigitalRune's CCD
//! article, Colp's ECSE write-up's mid-frame loop).
//!
//! The stepper's documentation numbers the phases of a step, and the code follows them: this
//! file holds the stepper and its `advance`, a short sequence of one call per phase; each
//! phase lives in the file named after it. `start` decides what the step starts from (checked
//! bodies, the contacts left to the solver, the impacts of touching pairs, the net under the
//! solver's pairs); `course` gives each body its course and answers where it is; `reach`
//! makes the neighbour lists a plan reads; `plan` queues the impacts a course meets;
//! `resolve` runs the event loop and resolves each impact; `state` holds the per-step state
//! they share. The queue (`queue`), the settings (`settings`) and the disc path of periodic
//! gases (`discs`) are subsystems of their own.

mod carry;
mod course;
mod discs;
mod groups;
mod joint_notes;
mod kept;
mod lock;
mod plan;
mod queue;
mod reach;
mod resolve;
mod settings;
mod sinking;
mod start;
mod state;
mod together;

pub use crate::report::FirstToiReport;
pub use settings::FirstTimeOfImpactSettings;

use crate::error::WorldError;
use crate::motion::{ShapeRules, fast_ccd_body, never_collides};
use crate::stepper::{StepContext, StepPreview, Stepper, solve_contacts};
use discs::DiscPath;
use impact_broadphase::Broadphase;
use impact_geometry::Real;
use impact_solver::RigidBody;
use reach::Admit;
use state::{Run, Scratch};

/// The first-time-of-impact stepper: bodies advance from impact to impact inside the step,
/// each impact resolved at its exact time with restitution and friction, so fast bodies
/// bounce off thin walls and off each other where they meet, and no time is lost.
///
/// # One step
/// 1. **Split the contacts.** A dynamic body with
///    [`RigidBody::ccd`](impact_solver::RigidBody::ccd) whose motion bound over the step
///    exceeds [`FirstTimeOfImpactSettings::threshold_radii_per_step`] bounding radii is
///    *checked*. A contact manifold of a checked body whose points are all farther apart
///    than the target separation plus the tolerance is taken from the contact solver: that
///    pair is the event loop's. The others (resting and slow contacts, and touching pairs)
///    stay with the solver.
/// 2. **Contact solver.** The soft step of [`Discrete`](crate::Discrete) over the solver's
///    pairs: gravity, contacts, positions. Its poses are *targets*; each body's motion is
///    the constant-velocity sweep from its start pose to its target (as in
///    [`MotionClamping`](crate::MotionClamping)). A CCD body whose sweep is fast enough to
///    be checked is checked from here on, though it was not at its start velocities
///    ([`FirstToiReport::kicked_bodies`]). A pair of the solver's whose targets put it
///    through each other is stopped where it was and leaves moving as one body
///    ([`FirstToiReport::crossings_stopped`]), unless it is two dynamic bodies whose meeting
///    the plan below asks along those courses.
/// 3. **Plan.** Each body's *reach*, its swept box grown on every side by 3% of its course's
///    length and half its bounding radius, goes into one sort and sweep whose pairs give
///    every body a neighbour list for the step (in a periodic domain, a hierarchical grid's
///    pairs; the world's broadphase, built for the start velocities, is not asked), and into
///    that grid, which answers the searches of reaches that grow during the step. For each
///    checked body, one time of impact per neighbour whose course's box meets its own and
///    not held by the solver (unless either body swings, see below), static or moving, along
///    both sweeps. Hits enter an event queue, ordered by time then by slots.
/// 4. **Advance to the earliest impact.** Entries planned with an outdated course of either
///    body (per-body version counters) are dropped. The two bodies are brought to the time
///    of the impact, which [`resolve_impact`](impact_solver::resolve_impact) resolves
///    (restitution, friction, full angular terms), or, for a body held by rigid joints, its
///    whole group (see "Jointed groups" below); a
///    [`CollisionEvent`](crate::CollisionEvent) is recorded and the hook runs.
/// 5. **Re-plan what changed.** The two bodies, and any the hook touched, continue from the
///    impact at their new velocities: versions bumped, and their impacts for the rest of the
///    step re-planned against their neighbour lists (a static body keeps its course and plans
///    nothing: each of its pairs is planned by the other body, whenever that body's course
///    changes). A course that leaves its body's reach grows the reach, and a query of the
///    grid adds the new neighbours to both lists ([`FirstToiReport::reach_escapes`]).
///    A kinematic or driven body whose new course stays within a quarter of the
///    tolerance, to the end of the step, of the course its queued impacts were planned on
///    (a motor-driven drum struck by the boxes it holds) keeps its version and its plans,
///    and the impact's own pair is asked again ([`FirstToiReport::kept_plans`]). Nothing
///    else is recomputed. Repeat from 4 until the queue is empty; every body then ends the
///    step on its course.
///
/// With [`FirstTimeOfImpactSettings::reach_skin`], a moving body's reach is instead its
/// bounding disc grown by the skin, and the queue also holds its *escape*, when its centre
/// leaves the box the reach allows: it gets a new reach where it is and an exact neighbour
/// list, and its pairs are asked again. A pair's impacts are queued only up to the earlier
/// escape of its two bodies. The impacts are the same, bit for bit: each pair is asked the
/// same question, from the start of the later of its two courses, only at another moment.
///
/// # Jointed groups
/// A body held by rigid joints (revolute, prismatic, wheel, welds and distance joints with a
/// rigid part) moves with its group, the dynamic bodies those joints reach from it
/// (`docs/algorithms/joints-ccd.md` has the design and the figures):
/// - **Each step**, a group with a fast CCD body (checked, or past the threshold at the
///   solver's velocities) is advanced rigidly over the step from where it started, in place
///   of the contact solver's targets ([`GroupImpactSolver::advance`](impact_solver::GroupImpactSolver::advance)):
///   the solver's soft joints open a 20-link chain of 0.1 links turning at 50 rad/s by a third
///   of a link in one 60 Hz step. The solver's contacts of the group hold as one-sided rows
///   without friction, and springs, motors and mouse joints do not act on it while it is
///   fast ([`FirstToiReport::groups_advanced`]).
/// - **At an impact** on a member, every body of the group is brought to the impact's time and
///   the group's velocity problem is solved at once ([`GroupImpactSolver::resolve`](impact_solver::GroupImpactSolver::resolve):
///   the contact, at both ends of a stretch where two faces meet, and every rigid joint row;
///   [`FirstToiReport::group_impacts`]). Every body of the group then gets the course to where
///   its joints take it over the rest of the step, keeping the step's contacts of group
///   impacts (against a wall, the struck body's whole shape held off its plane), and is
///   planned again.
/// - A jointed body's velocity along a course turns from the course's start to its end, which
///   the impacts resolve; a jointed body that stops is held in place and its groups go on
///   around it.
///
/// With it a 20-link chain swung at up to 50 rad/s into a 1 mm wall, and a ragdoll shot at
/// 500 units/s at a zero-thickness segment, never pass (1,000 seeded throws each, the tests in
/// `tests/joints_ccd.rs`), and every step ends with their joints closed to 2e-4 of a link.
///
/// # Discs
/// A step of a periodic world whose bodies are all dynamic CCD discs about their centres of
/// mass, without damping or (with friction in the impact settings) friction, in a world without
/// gravity, with no pair that a collision filter, a sensor or a pair hook could keep apart
/// ([`CollisionRules::is_trivial`](crate::CollisionRules::is_trivial)), called without a hook (or with an inert one, see
/// [`ImpactHook::is_inert`](crate::ImpactHook::is_inert)), under settings with every safety net
/// off (`threshold_radii_per_step` 0, `max_events`, `max_pair_events` and `min_advance` off:
/// [`FirstTimeOfImpactSettings::elastic`]), takes the *disc path*: classic event-driven
/// molecular dynamics, with a cell list over the domain, one planned event per disc (its next
/// collision or its next cell crossing) in a tournament tree, positions on per-disc local
/// clocks, and discs laid out in cell order each step. Every step above would give the same
/// collisions there (every moving body checked, no pair left to the contact solver, nothing for
/// the hook to change), so the disc path resolves them with the same closed form and the same
/// impulse, in the same order, at the same times to rounding (tested), for a fraction of the
/// work; and it tells the world it needs no broadphase update or contact manifolds
/// ([`Stepper::needs_world_pass`]). [`FirstToiReport::disc_path`] says when it was taken;
/// `reach_escapes` then counts cell crossings.
///
/// # Progress
/// - Impacts are resolved at the target separation, and a pair that has just been resolved
///   is not approaching, so it cannot hit again at the same instant unless a third body
///   drives it back.
/// - A pair with [`FirstTimeOfImpactSettings::max_pair_events`] impacts in the step, or two
///   impacts less than [`FirstTimeOfImpactSettings::min_advance`] apart, is a Zeno sequence
///   (three discs in an inelastic line, a body wedged between two): that impact is resolved
///   inelastically and the pair is handed to the contact solver (reported in
///   [`FirstToiReport::zeno_pairs`]). If the pair meets again in the step, its moving
///   bodies stop there until the step ends (reported as time lost) rather than pass
///   through each other; the next step's contact solver holds them.
/// - A stopped body keeps its place for the rest of the step, so a body that hits it and
///   still heads into it after the impact would meet it again at once, and end stopped by
///   the rule above after two more impacts at the same instant: it stops at the first
///   impact instead (reported with the others).
/// - After [`FirstTimeOfImpactSettings::max_events`] impacts the stepper clamps instead:
///   each body still heading for an impact stops at it, and its lost time is reported.
///   A query that reached its iteration cap stops the bodies at its last safe time, too.
///
/// A step therefore does a bounded amount of work and never hangs, and loses no time it
/// does not report in [`FirstToiReport::time_lost`].
///
/// # Guarantees and limits
/// - A checked body never passes through another body, static or moving, however thin and
///   however fast both are: every part of its motion is covered by time-of-impact queries
///   against bodies whose boxes cover their own motion, and each course change is
///   re-planned. Bodies it hits mid-step are re-planned too, whatever their speed (a
///   static or stopped body keeps its course, and its pairs are planned by the bodies that
///   move).
/// - A pair the contact solver holds is not planned at the start; the soft solver is what
///   keeps stacks and resting contacts steady, and a hit body that is driven into a resting
///   neighbour gets that pair planned from then on. Unless a body of the pair *swings*: its
///   course turns a point of its shape farther than the contact distance, which the solver's
///   manifold, taken at the start poses, does not bound.
/// - A pair that overlaps at the start of a course is an impact at once if its nearest points
///   close; if they part while a swinging body's far side comes round, it is followed along
///   the courses until the overlap deepens, and the impact acts where it does. Its normal
///   keeps the side of its last impact, or of the solver's manifold, which the exact
///   distance loses past the middle of a zero-thickness segment.
/// - Left over: the soft contact solver can press a thin body under a load to near half its
///   thickness into a zero-thickness segment, and a course that sinks while its nearest
///   points barely close (a slow tilt about them, below the swing threshold) can carry it
///   past the middle inside a step (one stick in the first twenty seeds of
///   the test kit's `scenes::tumbling_rain` at 200 bodies, which the pile
///   around it then holds there, 0.9 mm past, by stopping it step after step). The world
///   keeps the contact's side from then on, so the solver does not push it further.
/// - Left over: a packed pile stirred fast is mostly stopped. In Box2D's spinner (6,076 CCD
///   bodies in a ring, a paddle at 5 rad/s; `docs/benchmarks.md`, "The sweeping steppers damp
///   a stirred pile") a body struck in the pile changes course against neighbours that the
///   contact solver's soft contacts leave overlapping, and each that it drives deeper is an
///   impact at once: the blow runs through the pile as binary impacts at one instant, pairs
///   reach the Zeno net and stop, and every body that then presses into a stopped one stops
///   too (the rule under "Progress"). Most of the pile ends each step where it began, and it
///   moves at a tenth to a fifth of the contact solver's speed. Giving CCD
///   ([`RigidBody::ccd`](impact_solver::RigidBody::ccd)) only to the bodies that need it
///   (bullets, small fast props) leaves a pile's bodies to the contact solver, and the same
///   pile then moves at 40% to 80% of its speed.
/// - With restitution 1 and no friction, energy and momentum are conserved by every impact
///   to rounding (the event-driven simulation of hard disks).
/// - An impact resolves the velocity each body has at its instant on its course (for a body
///   in free flight, its start velocity plus gravity up to then, the component along gravity
///   taken from energy at the chord's height), and the rest of the step continues from the
///   resolved velocity with gravity: bounces under gravity keep `y + v_y^2 / (2 |g|)` (see
///   `docs/algorithms/steppers.md`, "The rules every step keeps").
/// - A pair touching at the start of the step and closing faster than the restitution
///   threshold is an impact there, resolved before the solver's step (the hook runs), one
///   pair after the other in slot order: a struck line of touching discs passes the blow
///   along as binary collisions.
///
/// # Cost
/// The discrete step, plus a grid pair search over the reach boxes (a few hash lookups per
/// body) and one time of impact per near neighbour of each checked body, plus per impact:
/// one resolution and the re-planning of the bodies that changed (a box test per neighbour
/// in the list and a time of impact per near one; a grid query only when the new course
/// leaves the reach; with a skin, a grid query per escape instead). Nothing depends on the
/// number of bodies but the per-step pair search. The queue is a calendar of time bins
/// over the step, the current one a binary heap of small keys, with lazy invalidation;
/// buffers, neighbour lists included, are kept from step to step.
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FirstTimeOfImpact {
    settings: FirstTimeOfImpactSettings,
    #[cfg_attr(feature = "serde", serde(skip))]
    scratch: Scratch,
}

impl PartialEq for FirstTimeOfImpact {
    /// Two steppers are equal when their settings are (the scratch buffers hold nothing
    /// between steps).
    fn eq(&self, other: &Self) -> bool {
        self.settings == other.settings
    }
}

impl FirstTimeOfImpact {
    /// A stepper with `settings`.
    ///
    /// # Errors
    /// As [`FirstTimeOfImpactSettings::validate`].
    pub fn new(settings: FirstTimeOfImpactSettings) -> Result<Self, WorldError> {
        settings.validate()?;
        Ok(Self {
            settings,
            scratch: Scratch::default(),
        })
    }

    /// The settings.
    #[inline]
    pub fn settings(&self) -> &FirstTimeOfImpactSettings {
        &self.settings
    }

    /// Replaces the settings.
    ///
    /// # Errors
    /// As [`FirstTimeOfImpactSettings::validate`]; the stepper is unchanged.
    pub fn set_settings(&mut self, settings: FirstTimeOfImpactSettings) -> Result<(), WorldError> {
        settings.validate()?;
        self.settings = settings;
        Ok(())
    }
}

impl Stepper for FirstTimeOfImpact {
    type Report = FirstToiReport;

    /// One step, phase after phase as [`FirstTimeOfImpact`]'s "One step" numbers them.
    fn advance<B: Broadphase>(
        &mut self,
        mut ctx: StepContext<'_, B>,
    ) -> Result<FirstToiReport, WorldError> {
        let settings = self.settings;
        settings.validate()?;
        let s = &mut self.scratch;
        if let Some(ready) = s.discs.take()
            && ctx.contacts.is_empty()
        {
            return Ok(disc_step(&mut s.discs, ready, &settings, ctx));
        }

        // 1. Start poses, checked bodies, the impacts of touching pairs at the start, and
        // the contacts left to the solver.
        let mut report = FirstToiReport::default();
        let any_ccd = s.split_contacts(&settings, &mut ctx, &mut report);

        // 2. The contact solver's step gives the targets. It validates everything before
        // changing a body, which keeps a failed step all-or-nothing.
        report.discrete = solve_contacts(&mut ctx, &s.solver_contacts)?;
        if !any_ccd {
            // Nothing to plan and no CCD body to guard: the step was the discrete one, and
            // rebuilding every body's course and box would be wasted.
            return Ok(report);
        }
        // Fast jointed groups moved as their rigid joints take them.
        let settle = groups::Settle {
            threshold: settings.threshold_radii_per_step,
            gravity: ctx.gravity,
            dt: ctx.dt,
            substeps: ctx.solver.substeps,
        };
        report.groups_advanced = s.settle_fast_groups(ctx.bodies, ctx.joints, settle);
        for &body in &s.parked {
            report.time_lost += ctx.dt;
            report.stopped.push(crate::report::ClampedBody {
                body,
                fraction: 0.0,
                time_lost: ctx.dt,
            });
        }
        s.hold_pairs(ctx.bodies, settings.toi.tolerance());

        let span = tracing::trace_span!(
            "first_toi",
            checked_bodies = report.checked_bodies,
            event_pairs = report.event_pairs,
            toi_queries = tracing::field::Empty,
            events = tracing::field::Empty,
            invalidated = tracing::field::Empty,
            zeno_pairs = tracing::field::Empty,
            stopped = tracing::field::Empty,
        )
        .entered();

        // 3. Plan: every body's course and reach, the neighbour lists of the reaches that
        // meet, the net under the solver's pairs, and the checked bodies' impacts.
        let slots = ctx.proxies.len();
        s.reset_step(slots, ctx.dt);
        s.lay_courses(&settings, &ctx, &mut report);
        let rules = ShapeRules {
            rules: ctx.rules,
            proxies: ctx.shapes,
        };
        let admit = Admit::new(rules, ctx.bodies, ctx.proxies);
        s.list_neighbours(slots, ctx.periodic.as_ref(), admit);
        let mut run = Run {
            settings,
            dt: ctx.dt,
            time: ctx.time,
            bodies: ctx.bodies,
            proxies: ctx.proxies,
            periodic: ctx.periodic,
            rules: ctx.rules,
            shapes: ctx.shapes,
            s,
            report: &mut report,
            courses: ctx.courses,
            joints: &*ctx.joints,
            gravity: ctx.gravity,
            substeps: ctx.solver.substeps,
        };
        run.stop_pushed_through();
        run.keep_removed(ctx.removed);
        run.plan_start();

        // 4-5. Impact after impact: advance to it, resolve it, record it and re-plan what
        // changed; every body that changed course then ends the step on its course.
        run.impacts(ctx.events, &mut *ctx.hook, ctx.removed);
        run.end_on_courses();

        report.queue_peak = s.queue.peak;
        report
            .stopped
            .sort_by_key(|c| (c.body.index, c.body.generation));
        span.record("toi_queries", report.toi_queries);
        span.record("events", report.events);
        span.record("invalidated", report.invalidated);
        span.record("zeno_pairs", report.zeno_pairs.len());
        span.record("stopped", report.stopped.len());
        Ok(report)
    }

    /// A checked body's pairs that are apart at the start are planned as impacts, found in
    /// the stepper's own grid: of the world's pass it only needs the contacts within the
    /// target separation plus the tolerance at the start, which it leaves to the solver,
    /// and it asks for no more (not the world's speculative pad: the contacts between that
    /// and the reach it would drop). The manifolds kept are the same as with its swept box
    /// (one test decides which bodies are checked, here and in the step); the broadphase
    /// and the narrowphase are spared the pairs a fast body's swept box meets.
    ///
    /// A sensor keeps its swept box: it is never checked.
    fn contact_reach(&self, body: &RigidBody, gravity: Real, dt: Real, _pad: Real) -> Option<Real> {
        (!never_collides(body)
            && fast_ccd_body(self.settings.threshold_radii_per_step, body, gravity, dt))
        .then(|| self.settings.toi.target_separation() + self.settings.toi.tolerance())
    }

    /// The disc path's test (see [`FirstTimeOfImpact`]'s "Discs"): when it applies, the
    /// step is the disc path's, which needs neither the broadphase nor the contacts.
    fn needs_world_pass(&mut self, preview: &StepPreview<'_>) -> bool {
        !self.scratch.discs.applies(&self.settings, preview)
    }

    /// Yes: a body that changes course inside the step has its courses recorded (every
    /// impact, stop and hook request), and every other one goes on its chord from its
    /// start pose to the contact solver's target.
    fn follows_courses(&self) -> bool {
        true
    }
}

/// The step on the disc path: counters and span as the general path's.
fn disc_step<B: Broadphase>(
    discs: &mut DiscPath,
    ready: discs::Ready,
    settings: &FirstTimeOfImpactSettings,
    ctx: StepContext<'_, B>,
) -> FirstToiReport {
    let mut report = FirstToiReport {
        disc_path: true,
        ..FirstToiReport::default()
    };
    let span = tracing::trace_span!(
        "first_toi",
        checked_bodies = tracing::field::Empty,
        event_pairs = 0,
        toi_queries = tracing::field::Empty,
        events = tracing::field::Empty,
        invalidated = tracing::field::Empty,
        zeno_pairs = 0,
        stopped = 0,
        discs = true,
    )
    .entered();
    // No contact is warm started on this path: the next general step starts cold.
    ctx.cache.clear();
    discs.step(
        ready,
        settings,
        ctx.bodies,
        ctx.dt,
        ctx.time,
        ctx.events,
        &mut report,
    );
    span.record("checked_bodies", report.checked_bodies);
    span.record("toi_queries", report.toi_queries);
    span.record("events", report.events);
    span.record("invalidated", report.invalidated);
    report
}
