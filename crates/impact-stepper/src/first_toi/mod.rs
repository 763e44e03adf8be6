//! [`FirstTimeOfImpact`]: an event queue of pair impacts inside the step, each resolved at its
//! exact time, with nothing lost (seed 002's "real first time of impact solver", seed 001's
//! mid-frame loop).

mod discs;
mod queue;
mod settings;

pub use settings::FirstTimeOfImpactSettings;

use crate::domain::{PeriodicImages, shifted, translated, translated_sweep};
use crate::error::WorldError;
use crate::events::{CollisionEvent, EventKind, HookRequests, Impact};
use crate::grid::ReachGrid;
use crate::motion::{
    HeldPairs, closes_in, fast_ccd_body, held_normal, is_finite, move_pair_as_one,
    moves_past_threshold, pose_on_course, pushed_through, rebuilt_sweep,
};
use crate::motion_clamping::ClampedBody;
use crate::ramp::Ramp;
use crate::stepper::{DiscreteReport, StepContext, StepPreview, Stepper, solve_contacts};
use crate::sweep_pairs::SweepPairs;
use crate::swing::{Deepening, anchored, swinging_deepening, swings, unit_normal};
use crate::touching::{self, Closing, ClosingScratch};
use discs::DiscPath;
use impact_broadphase::Broadphase;
use impact_geometry::{Aabb, Isometry, Point, Real, Segment, Shape, Sweep, Vector, cross, perp};
use impact_narrowphase::toi::moving_points::moving_spheres;
use impact_narrowphase::{
    Distance, Toi, distance, shared_face_middle, time_of_impact, toi_disc_still_segment, toi_discs,
};
use impact_solver::{
    BodyHandle, BodySet, BodyType, ContactPair, ImpactSettings, RigidBody, combine_restitution,
    resolve_impact,
};
use queue::{Due, Entry, EventQueue};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// What [`FirstTimeOfImpact`] reports about one step. The events themselves are in
/// [`World::events`](crate::World::events).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FirstToiReport {
    /// The contact solver's step over the pairs left to it.
    pub discrete: DiscreteReport,
    /// Contact manifolds taken from the contact solver and planned as impacts instead (a
    /// fast CCD body, apart from the other body at the start).
    pub event_pairs: usize,
    /// CCD bodies fast enough to be planned at the start of the step.
    pub checked_bodies: usize,
    /// CCD bodies too slow to be checked at their start velocities whose course to the
    /// contact solver's target is fast enough (a body kicked by the contacts it was left
    /// with): planned at the start of the step as the checked ones are. Counted apart from
    /// `checked_bodies`; their contacts stayed with the solver.
    pub kicked_bodies: usize,
    /// Time-of-impact queries run.
    pub toi_queries: usize,
    /// Pairs a plan did not ask because neither course moves (a stopped body among stopped
    /// or static neighbours): they can only stay apart or touch without pressing.
    pub still_pairs: usize,
    /// Pairs a plan did not ask because the two bodies' bounding discs, about their
    /// centres of mass, stay farther apart over the rest of the step than the target
    /// separation plus the tolerance: the query would find them apart (it starts with
    /// that test, after building both courses and its own set-up).
    pub bounds_apart: usize,
    /// Queries that found the pair overlapping at the time they were asked (left to the
    /// contact solver).
    pub overlapping: usize,
    /// Impacts resolved (each is one [`CollisionEvent`]).
    pub events: usize,
    /// Queue entries dropped because a body had changed course since they were planned.
    pub invalidated: usize,
    /// The most entries the queue held at once.
    pub queue_peak: usize,
    /// Courses that left their body's reach (the box its neighbour list was made for) and
    /// cost a query of the step's neighbour grid; the others were planned from the list
    /// alone. With [`FirstTimeOfImpactSettings::reach_skin`], the escapes: bodies whose
    /// centre left the box it may roam, given a new reach and list there.
    pub reach_escapes: usize,
    /// Pairs handed to the contact solver as Zeno sequences, in the order it happened. A
    /// handed-over pair that meets again in the step stops its moving bodies there.
    pub zeno_pairs: Vec<(BodyHandle, BodyHandle)>,
    /// Whether [`FirstTimeOfImpactSettings::max_events`] was reached.
    pub capped: bool,
    /// Bodies stopped short of the end of the step (a Zeno pair meeting again, the event
    /// cap, a time-of-impact query that reached its iteration cap, a body that hit a
    /// stopped one and still headed into it, or a pair the contact solver pushed through
    /// each other), sorted by handle. Their velocities are untouched, but for the last two
    /// kinds: a body that hit a stopped one loses its velocity into it, as in an impact on
    /// a fixed body, and a pushed-through pair leaves moving as one body (see
    /// `crossings_stopped`).
    pub stopped: Vec<ClampedBody>,
    /// The time lost over the stopped bodies (seconds): the sum of their `time_lost`. Zero
    /// unless a body was stopped (see `stopped`).
    pub time_lost: Real,
    /// Bodies the hook removed.
    pub removed: usize,
    /// Whether the step was the disc path's: a periodic world of free discs without
    /// gravity, friction or a hook, stepped as classic event-driven molecular dynamics
    /// (see [`FirstTimeOfImpact`]'s "Discs"). The counters mean the same there, with
    /// `reach_escapes` counting cell crossings.
    pub disc_path: bool,
    /// Pairs the contact solver would have pushed through each other (their closest-point
    /// normal turned round over the step, and either they still touch or one's centre of mass
    /// went through the other's shape, on its path seen from that body): their moving bodies
    /// were stopped at the start of the step, and are listed in `stopped`. They leave with
    /// one rigid motion, as after a perfectly inelastic, rough impact: that of the two as one
    /// body (linear and angular momentum kept), or the other body's if it is not dynamic.
    /// Stopped with the velocities that pushed them through, they were pushed through again
    /// at every step. Not counted: a pair of two dynamic bodies whose meeting the event loop
    /// plans along those courses from the start of the step, which resolves it there.
    pub crossings_stopped: usize,
}

/// Per body slot, reused from step to step.
#[derive(Debug, Clone, Default)]
struct Scratch {
    start: Vec<Option<Isometry>>,
    /// Per slot: how the body's velocity changes along its current course (see [`Ramp`]).
    ramps: Vec<Ramp>,
    /// Per slot: the body is in a contact the solver held this step (not in free flight).
    constrained: Vec<bool>,
    /// The body's motion since it last changed course: (start time in the step, sweep from
    /// there to the end of the step).
    motions: Vec<Option<(Real, Sweep)>>,
    /// Per slot: what a plan reads of a neighbour (see [`Hot`]).
    hot: Vec<Hot>,
    checked: Vec<bool>,
    /// Changed course inside the step: its end pose comes from its motion, not the solver.
    rerouted: Vec<bool>,
    /// The current course turns some point of the body's shape farther than the contact
    /// distance by the end of the step (never a disc about its centre): the contact solver's
    /// manifolds, taken at the start poses, do not bound where its far side swings, so its
    /// pairs the solver holds are planned too (see [`Run::plan_pair`]), and an overlapping
    /// pair is followed along the courses (see [`Run::overlapping`]). Not in [`Hot`]: read
    /// only for those pairs, and a byte more there costs every plan a longer copy.
    swings: Vec<bool>,
    /// Per slot: the segment of a static body that is one, which a disc's plan asks by its
    /// closed form straight from the start pose (see [`Run::plan_pair`]). Not in [`Hot`]:
    /// read only for those pairs.
    segments: Vec<Option<Segment>>,
    stopped: Vec<bool>,
    requests: Vec<HookRequests>,
    /// Per pair (smaller slot, larger slot): impacts this step, time of the last one, and
    /// whether the pair was handed to the contact solver. Looked up, never iterated.
    pairs: HashMap<(u32, u32), PairState, BuildHasherDefault<PairHasher>>,
    solver_contacts: Vec<ContactPair>,
    /// The pairs of `solver_contacts`, for the plans' look-ups.
    held: HeldPairs,
    queue: EventQueue,
    /// Per slot with a course: its *reach*, a box holding every place its shape goes in the
    /// step (padded by the target separation and the tolerance), with room to spare for
    /// course changes (a static body's is its box).
    reach: Vec<Option<Aabb>>,
    /// Finds the bodies a grown reach meets during the step, and the pairs of reach boxes
    /// at its start in a periodic domain (see [`grid`])...
    grid: ReachGrid,
    /// ...and outside one (see [`sweep_pairs`](crate::sweep_pairs)).
    sweep: SweepPairs,
    /// Pairs found by one query of the grid.
    found: Vec<(u32, Vector)>,
    /// Per slot with a reach, static bodies aside (see [`Hot::fixed`]): every body whose
    /// reach meets it, with the translation of the image it is met through. Two bodies can
    /// only meet if their reach boxes do, so a plan looks no further than this list: the
    /// lists are made once per step, not a search per impact, and only a course that leaves
    /// its reach searches again (see [`Run::set_course`]). The inner vectors keep their
    /// storage from step to step.
    neighbours: Vec<Vec<Neighbour>>,
    /// Per slot, with a positive [`FirstTimeOfImpactSettings::reach_skin`]: the box its
    /// centre of mass may roam before it escapes its reach (see [`Run::escape`]); `None` for
    /// a reach that covers the whole course.
    anchor: Vec<Option<Aabb>>,
    /// The storage of the neighbour list an escape builds, swapped with the old list's.
    fresh: Vec<Neighbour>,
    /// The periods of the domain this step, if it is periodic.
    period: Option<Vector>,
    touched: Vec<BodyHandle>,
    replan: Vec<u32>,
    /// The disc path's buffers (see [`discs`]).
    discs: DiscPath,
    /// The buffers of the impacts of touching pairs at the start of the step.
    closing: ClosingScratch,
}

/// What a plan reads of each neighbour, kept together: a large gas reads it for bodies
/// all over memory, and one cache line per neighbour costs less than one per array.
#[derive(Debug, Clone, Copy)]
struct Hot {
    /// The box the body's shape sweeps on its current course (padded as the reach), from
    /// the course's start to the end of the step. A plan skips the neighbours whose course
    /// box its own course's box misses, as a broadphase query of the course would.
    course_box: Aabb,
    /// When the body next escapes its reach (infinite if it does not this step). A pair's
    /// impacts are queued only up to the earlier of its bodies' escapes, its *horizon*:
    /// each escape asks all the body's pairs again, so later ones are found in time, and
    /// the queue holds the near future only, not every impact a long step could bring
    /// (most of which other impacts make stale).
    escape_at: Real,
    /// With `round`, the disc's radius.
    radius: Real,
    /// The radius of the body's bounding disc about its centre of mass, whatever it turns.
    bound: Real,
    /// Bumped at every change of course; queue entries carry the versions they assumed.
    version: u32,
    /// A disc centred on the body origin and on its centre of mass, for which a time of
    /// impact does not depend on the rotation (see [`Run::course_from`]).
    round: bool,
    dynamic: bool,
    /// A static body: its course never changes, so it never plans its own pairs (each is
    /// planned by its other body, whenever that one's course changes) and keeps no
    /// neighbour list.
    fixed: bool,
    /// The current course stays put (no velocity: a static body, or a stopped one). Two
    /// such courses never come closer, so their pair has nothing to plan: the query would
    /// find them apart, or touching without one driving into the other.
    still: bool,
}

impl Default for Hot {
    fn default() -> Self {
        Self {
            course_box: Aabb::new(Point::origin(), Point::origin()),
            escape_at: Real::INFINITY,
            radius: 0.0,
            bound: 0.0,
            version: 0,
            round: false,
            dynamic: false,
            fixed: false,
            still: false,
        }
    }
}

/// The hasher of [`Scratch::pairs`]: a multiply-and-rotate of the two slots, much cheaper
/// than the default SipHash, which guards against keys chosen by an adversary (slots are
/// not). The map is only looked up, never iterated, so its order cannot leak into results.
#[derive(Debug, Clone, Copy, Default)]
struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.add(u64::from(byte));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
}

impl PairHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        // The constant of FxHash (rustc's hasher).
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct PairState {
    impacts: u32,
    last: Real,
    handed_over: bool,
    /// The normal of the pair's last impact, from the smaller slot toward the larger (zero
    /// before the first): the side each body is on, which an overlap past the middle of a
    /// zero-thickness segment no longer tells (see [`Run::overlapping`]).
    normal: Vector,
}

/// The first-time-of-impact stepper: bodies advance from impact to impact inside the step,
/// each impact resolved at its exact time with restitution and friction, so fast bodies
/// bounce off thin walls and off each other where they meet, and no time is lost.
///
/// # One step
/// 1. **Split the contacts.** A dynamic body with [`RigidBody::ccd`](impact_solver::RigidBody::ccd) whose motion bound over
///    the step exceeds [`FirstTimeOfImpactSettings::velocity_threshold`] bounding radii is
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
///    length, goes into one sort and sweep whose pairs give every body a neighbour list for the
///    step (in a periodic domain, a hierarchical grid's pairs; the world's broadphase, built
///    for the start velocities, is not asked), and into that grid, which answers the searches
///    of reaches that grow during the step. For each checked
///    body, one time of impact per neighbour whose course's box meets its own and not held by the
///    solver (unless either body swings, see below), static or moving, along both sweeps. Hits
///    enter an event queue, ordered by time then by slots.
/// 4. **Advance to the earliest impact.** Entries planned with an outdated course of either
///    body (per-body version counters) are dropped. The two bodies are brought to the time
///    of the impact, which [`resolve_impact`] resolves (restitution, friction, full angular
///    terms); a [`CollisionEvent`] is recorded and the hook runs.
/// 5. **Re-plan what changed.** The two bodies, and any the hook touched, continue from the impact
///    at their new velocities: versions bumped, and their impacts for the rest of the step
///    re-planned against their neighbour lists (a static body keeps its course and plans nothing:
///    each of its pairs is planned by the other body, whenever that body's course changes). A
///    course that leaves its body's reach grows the reach, and a query of the grid adds the new
///    neighbours to both lists ([`FirstToiReport::reach_escapes`]). Nothing else is recomputed.
///    Repeat from 4 until the queue is empty; every body then ends the step on its course.
///
/// With [`FirstTimeOfImpactSettings::reach_skin`], a moving body's reach is instead its
/// bounding disc grown by the skin, and the queue also holds its *escape*, when its centre
/// leaves the box the reach allows: it gets a new reach where it is and an exact neighbour
/// list, and its pairs are asked again. A pair's impacts are queued only up to the earlier
/// escape of its two bodies. The impacts are the same, bit for bit: each pair is asked the
/// same question, from the start of the later of its two courses, only at another moment.
///
/// # Discs
/// A step of a periodic world whose bodies are all dynamic CCD discs about their centres
/// of mass, without damping or (with friction in the impact settings) friction, in
/// a world without gravity, called without a hook (or with an inert one, see
/// [`ImpactHook::is_inert`](crate::ImpactHook::is_inert)), under settings with every safety
/// net off (`velocity_threshold` 0, `max_events`, `max_pair_events` and `min_advance` off:
/// `scenes::hard_disk_stepper()`), takes the *disc path*: classic event-driven molecular
/// dynamics, with a cell list over the domain, one planned event per disc (its next
/// collision or its next cell crossing) in a tournament tree, positions on per-disc local
/// clocks, and discs laid out in cell order each step. Every step above would give the
/// same collisions there (every moving body checked, no pair left to the contact solver,
/// nothing for the hook to change), so the disc path resolves them with the same closed
/// form and the same impulse, in the same order, at the same times to rounding (tested),
/// for a fraction of the work; and it tells the world it needs no broadphase update or
/// contact manifolds ([`Stepper::needs_world_pass`]). [`FirstToiReport::disc_path`] says
/// when it was taken; `reach_escapes` then counts cell crossings.
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

/// Which planning a query belongs to, which decides the pairs it skips.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Planning {
    /// The first of the step: pairs the solver holds are skipped, and a pair of two checked
    /// bodies is asked from the smaller slot only.
    Start,
    /// After an impact: a pair of two re-planned bodies is asked from the smaller slot only.
    Replan,
    /// One body on its own (a body that stopped).
    Alone,
    /// A pair met through a body's escape (see [`Run::escape`]), asked from when the later
    /// of the two courses began: the question the whole-course reach would have asked
    /// then, with the pairs it would have skipped skipped.
    Escape,
}

impl Stepper for FirstTimeOfImpact {
    type Report = FirstToiReport;

    fn advance<B: Broadphase>(
        &mut self,
        mut ctx: StepContext<'_, B>,
    ) -> Result<FirstToiReport, WorldError> {
        let settings = self.settings;
        settings.validate()?;
        let dt = ctx.dt;
        let s = &mut self.scratch;
        if let Some(ready) = s.discs.take()
            && ctx.contacts.is_empty()
        {
            return Ok(disc_step(&mut s.discs, ready, &settings, ctx));
        }
        let slots = ctx.proxies.len();
        let g = ctx.gravity.norm();

        // 1. Start poses, checked bodies, and the contacts left to the solver.
        reset(&mut s.start, slots, None);
        reset(&mut s.checked, slots, false);
        let mut report = FirstToiReport::default();
        let mut any_ccd = false;
        for (handle, body) in ctx.bodies.iter() {
            let slot = handle.index as usize;
            s.start[slot] = Some(*body.pose());
            if body.is_dynamic() && body.ccd() {
                any_ccd = true;
                if fast_ccd_body(settings.velocity_threshold, body, g, dt) {
                    s.checked[slot] = true;
                    report.checked_bodies += 1;
                }
            }
        }
        let contact_distance = settings.toi.target_separation() + settings.toi.tolerance();
        reset(&mut s.requests, slots, HookRequests::default());
        report.events += start_impacts(&settings, &mut ctx, &mut s.closing, &mut s.requests);
        s.solver_contacts.clear();
        for c in ctx.contacts {
            if !(is_live(&s.requests, c.a.index as usize)
                && is_live(&s.requests, c.b.index as usize))
            {
                // A body the hook removed or disabled at an impact at the start.
                continue;
            }
            let apart = c.manifold.min_separation() > contact_distance;
            let checked = s.checked[c.a.index as usize] || s.checked[c.b.index as usize];
            if checked && apart {
                report.event_pairs += 1;
            } else {
                s.solver_contacts.push(*c);
            }
        }

        // 2. The contact solver's step gives the targets. It validates everything before
        // changing a body, which keeps a failed step all-or-nothing.
        report.discrete = solve_contacts(&mut ctx, &s.solver_contacts)?;
        if !any_ccd {
            // Nothing to plan and no CCD body to guard: the step was the discrete one, and
            // rebuilding every body's course and box would be wasted.
            return Ok(report);
        }
        // A pair the solver held is its business, unless its targets close in past a slack
        // (see `closes_in`): the soft contact did not hold, and its meeting is planned like
        // any other pair's. In the rain of 10,000 discs two discs sliding side by side on a
        // segment, hammered from above by impacts the solver does not see, had targets 7 cm
        // into each other.
        let tolerance = settings.toi.tolerance();
        let (bodies, start) = (&*ctx.bodies, &s.start);
        s.held.rebuild_where(&s.solver_contacts, |c| {
            !closes_in(bodies, start, c, tolerance)
        });

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

        reset(&mut s.constrained, slots, false);
        for c in &s.solver_contacts {
            if !c.manifold.is_empty() {
                s.constrained[c.a.index as usize] = true;
                s.constrained[c.b.index as usize] = true;
            }
        }
        reset(&mut s.ramps, slots, Ramp::still(dt));
        reset(&mut s.motions, slots, None);
        reset(&mut s.reach, slots, None);
        reset(&mut s.hot, slots, Hot::default());
        reset(&mut s.anchor, slots, None);
        if s.neighbours.len() < slots {
            s.neighbours.resize_with(slots, Vec::new);
        }
        for list in &mut s.neighbours {
            list.clear();
        }
        reset(&mut s.rerouted, slots, false);
        reset(&mut s.swings, slots, false);
        reset(&mut s.segments, slots, None);
        reset(&mut s.stopped, slots, false);
        s.pairs.clear();
        // A bin per body. A gas holds about two entries per body at once (an escape and an
        // impact), where a bin per eight bodies kept each bin's heap a few levels deep and
        // the pushes in cache (measured at N = 65,536, before gases took the disc path).
        // The rain queues more at a time, most of it bound to go stale, and its heaps ran
        // deep: a bin per body takes 2.5% off its instructions at 1,000 and at 10,000
        // discs, four per body 3.3% (at four times the bins to clear every step).
        s.queue.clear(dt, slots);
        let pad = contact_distance;
        let periodic = ctx.periodic;
        for (handle, body) in ctx.bodies.iter() {
            let slot = handle.index as usize;
            let Some(start) = s.start[slot] else { continue };
            let Some(sweep) = rebuilt_sweep(body, &start, dt) else {
                continue;
            };
            let swept = Aabb::swept(body.shape(), &sweep).inflated(pad);
            if !is_finite(&swept) {
                // A box that overflows: the body is too far out to plan; it keeps its
                // target, as under `Discrete`.
                continue;
            }
            let bound = body.shape().bounding_radius(&body.local_center());
            if !s.checked[slot] && body.is_dynamic() && body.ccd() {
                // Judged by its start velocities alone, a body the solver then kicked (in
                // the tumbling rain, a slow capsule squeezed between two bodies, sent
                // spinning at 200 rad/s) would cross a segment it had no contact with,
                // unplanned and unguarded.
                let velocities = (sweep.linvel().norm(), sweep.angvel());
                if moves_past_threshold(settings.velocity_threshold, velocities, bound, dt) {
                    s.checked[slot] = true;
                    report.kicked_bodies += 1;
                }
            }
            s.motions[slot] = Some((0.0, sweep));
            s.ramps[slot] = Ramp::over_step(body, ctx.gravity, !s.constrained[slot], dt);
            let disc = match body.shape() {
                Shape::Circle(c) if c.center() == Point::origin() => Some(c.radius()),
                _ => None,
            };
            s.hot[slot] = Hot {
                course_box: swept,
                round: disc.is_some() && sweep.local_center() == Point::origin(),
                radius: disc.unwrap_or(0.0),
                bound,
                dynamic: body.is_dynamic(),
                fixed: body.body_type() == BodyType::Static,
                still: still(&sweep),
                ..Hot::default()
            };
            s.swings[slot] = swings(body, &sweep, pad);
            if let (BodyType::Static, Shape::Segment(segment)) = (body.body_type(), body.shape()) {
                s.segments[slot] = Some(*segment);
            }
            s.reach[slot] = Some(if body.body_type() == BodyType::Static {
                // It never leaves its box, and it keeps no neighbour list (see
                // `Hot::fixed`): its reach is only there for the moving bodies to find it.
                swept
            } else if let Some((anchor, around)) =
                skin_reach(body, &start, settings.reach_skin, pad, periodic.as_ref())
            {
                s.anchor[slot] = Some(anchor);
                around
            } else {
                reach(body, swept, &sweep, periodic.as_ref())
            });
        }
        // The neighbour lists: every pair of reach boxes that meet, through the image they
        // meet through in a periodic domain.
        s.grid
            .build(&s.reach, Point::origin(), periodic.map(|p| p.size()));
        s.period = periodic.map(|p| p.size());
        let period = s.period;
        let hot = &s.hot;
        let neighbours = &mut s.neighbours;
        let mut found = |x: u32, y: u32, shift: Vector| {
            let (xs, ys) = (x as usize, y as usize);
            if ys < slots && xs < slots {
                if !hot[xs].fixed {
                    neighbours[xs].push(Neighbour::new(y, shift, period));
                }
                if !hot[ys].fixed {
                    neighbours[ys].push(Neighbour::new(x, -shift, period));
                }
            }
        };
        match period {
            Some(_) => s.grid.pairs(&s.reach, &mut s.found, found),
            None => s.sweep.pairs(&s.reach, |x, y| found(x, y, Vector::zeros())),
        }
        let mut run = Run {
            settings,
            dt,
            time: ctx.time,
            bodies: ctx.bodies,
            proxies: ctx.proxies,
            periodic,
            s,
            report: &mut report,
        };

        // A contact the solver held must not end on the far side: soft contacts can push a
        // body through a zero-thickness segment under a load. A pair whose closest-point
        // normal turned round over the step is stopped where it was at the start, unless the
        // event loop follows it along its courses from the start of the step.
        for i in 0..run.s.solver_contacts.len() {
            let c = run.s.solver_contacts[i];
            if run.followed_from_start(&c) {
                continue;
            }
            if pushed_through(run.bodies, &run.s.start, &c, contact_distance, dt) {
                run.report.crossings_stopped += 1;
                run.stop(c.a.index as usize, 0.0);
                run.stop(c.b.index as usize, 0.0);
                // ...and leaves moving as one body, or it hangs there step after step.
                move_pair_as_one(run.bodies, &run.s.start, &c);
            }
        }

        // Bodies the hook removed at an impact at the start stay where they were.
        for slot in 0..slots {
            if run.s.requests[slot].removed
                && let Some(handle) = run.proxies[slot]
            {
                ctx.removed.push(handle);
                run.report.removed += 1;
                run.set_course(slot, 0.0, true);
            }
        }

        // 3. Plan the checked bodies (escapes first: they bound what is queued).
        if settings.reach_skin > 0.0 {
            for slot in 0..slots {
                run.schedule_escape(slot, 0.0);
            }
        }
        for slot in 0..slots {
            if run.s.checked[slot] {
                run.plan(slot as u32, 0.0, Planning::Start);
            }
        }

        // 4-5. Impact after impact.
        loop {
            let s = &mut *run.s;
            let (hot, requests) = (&s.hot, &s.requests);
            let Some(entry) = s.queue.pop_current(
                |a, b, version_a, version_b| {
                    is_current(hot, requests, (a, version_a), (b, version_b))
                },
                &mut run.report.invalidated,
            ) else {
                break;
            };
            if entry.due != Due::Escape
                && run
                    .s
                    .pairs
                    .get(&(entry.a, entry.b))
                    .is_some_and(|p| p.handed_over)
            {
                // A Zeno pair meets again: rather than another impact, or letting one pass
                // through the other, both stop here until the step ends (time lost,
                // reported); the contact solver takes the pair from the next step.
                run.stop_pair(&entry);
                continue;
            }
            match entry.due {
                Due::Impact { .. } if run.report.events < settings.max_events => {
                    run.resolve(&entry, ctx.events, &mut *ctx.hook, ctx.removed);
                }
                Due::Impact { .. } => {
                    run.report.capped = true;
                    run.stop_pair(&entry);
                }
                Due::Stop => run.stop_pair(&entry),
                Due::Escape => run.escape(&entry),
            }
        }

        // Every body that changed course ends the step on its course.
        for slot in 0..slots {
            if !run.s.rerouted[slot] {
                continue;
            }
            let (Some(handle), Some((_, sweep))) = (run.proxies[slot], run.s.motions[slot]) else {
                continue;
            };
            if let Some(body) = run.bodies.get_mut(handle) {
                let ok = body.set_pose(sweep.pose_at(1.0));
                debug_assert!(ok.is_ok(), "a pose on a finite sweep is valid");
            }
        }
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
    fn contact_reach(&self, body: &RigidBody, gravity: Real, dt: Real, _pad: Real) -> Option<Real> {
        fast_ccd_body(self.settings.velocity_threshold, body, gravity, dt)
            .then(|| self.settings.toi.target_separation() + self.settings.toi.tolerance())
    }

    /// The disc path's test (see [`FirstTimeOfImpact`]'s "Discs"): when it applies, the
    /// step is the disc path's, which needs neither the broadphase nor the contacts.
    fn needs_world_pass(&mut self, preview: &StepPreview<'_>) -> bool {
        !self.scratch.discs.applies(&self.settings, preview)
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

/// How much room a reach box leaves for course changes: it is the swept box of the body's
/// course grown on every side by this fraction of the distance the course covers. Larger
/// means longer neighbour lists (more time-of-impact queries per plan), smaller means more
/// courses that leave their reach (a grid query each). Most fast bodies never change
/// course in a step, and the room they would leave mostly lists pairs that are never
/// asked: in the rain at 1,000 discs a tenth costs about 100 reach escapes per step
/// against 25 for a half, and saves a sixth of the step's work in the pair search and
/// the plans' longer lists. 0.03 does better still: at 10,000 discs it finds 29% fewer
/// pairs at the start for 1.7 times the escapes, 3% fewer instructions per step than a
/// tenth, and no room at all costs more (2.6 times the escapes). The same pairs are asked
/// whatever the room: the rain's results are the same, bit for bit (the tests of 0.015 to
/// 0.1 and of [`REACH_SKIN_RADII`] 0 to 1 in session 15 found, and now confirm, that).
const REACH_SKIN: Real = 0.03;

/// ...and by this many of the body's bounding radii, so that a slow body has room too: a
/// body at rest, whose reach is otherwise its box, left it at the first knock (in the rain
/// of 1,000 discs most escapes were of slow discs nudged by a few centimetres). Half a
/// radius: 2.5% off the rain's step at 1,000 discs and 2.7% at 10,000, 1% off the tumbling
/// rain's (callgrind, instructions with branch and cache misses); 0.25 to 1 were within 1%
/// of each other.
const REACH_SKIN_RADII: Real = 0.5;

/// The reach box of `body` on `sweep` (see [`Scratch::reach`]): its padded swept box
/// `swept`, grown by [`REACH_SKIN`] of the course's length and [`REACH_SKIN_RADII`] of its
/// bounding radius if that keeps it within half a period of a periodic domain.
fn reach(
    body: &impact_solver::RigidBody,
    swept: Aabb,
    sweep: &Sweep,
    periodic: Option<&PeriodicImages>,
) -> Aabb {
    let r = body.shape().bounding_radius(&sweep.local_center());
    let length = sweep.displacement().norm() + sweep.angvel().abs() * sweep.dt() * r;
    let grown = swept.inflated(REACH_SKIN * length + REACH_SKIN_RADII * r);
    if is_finite(&grown) && periodic.is_none_or(|images| images.fits(&grown)) {
        grown
    } else {
        swept
    }
}

/// With a positive `skin`, the skin reach of `body` at `pose`: its *anchor*, the box its
/// centre of mass may roam (`skin` bounding radii each way), and the reach around it (the
/// anchor grown by the radius and `pad`), which holds the body's shape until the centre
/// leaves the anchor, whatever its rotation. `None` without a skin, for a body without
/// extent, and for a reach that would overflow or not fit a periodic domain.
fn skin_reach(
    body: &impact_solver::RigidBody,
    pose: &Isometry,
    skin: Real,
    pad: Real,
    periodic: Option<&PeriodicImages>,
) -> Option<(Aabb, Aabb)> {
    let center = body.local_center();
    let r = body.shape().bounding_radius(&center);
    let room = Vector::repeat(skin * r);
    if !(room.x > 0.0 && room.x.is_finite()) {
        return None;
    }
    let c = pose * center;
    let anchor = Aabb::new(c - room, c + room);
    let around = anchor.inflated(r + pad);
    (is_finite(&around) && periodic.is_none_or(|images| images.fits(&around)))
        .then_some((anchor, around))
}

/// Records that `x` meets the image of `y` translated by `shift`: in the list of `x`, and in
/// that of `y` if it keeps one (it has a reach and is not static), unless already there.
fn add_neighbours(
    lists: &mut [Vec<Neighbour>],
    reach: &[Option<Aabb>],
    hot: &[Hot],
    x: usize,
    y: usize,
    shift: Vector,
    period: Option<Vector>,
) {
    if x == y || y >= lists.len() {
        return;
    }
    // The lists of the bodies that keep one are symmetric: every pair goes into both at
    // once (here, at the start of the step, and at a skin escape, which also takes a body
    // out of its old neighbours' lists). So a pair in the list of `x`, which is in cache
    // and short, is in that of `y`, which is all over memory, and one that is not is in
    // neither.
    let there = Neighbour::new(y as u32, shift, period);
    if lists[x].contains(&there) {
        return;
    }
    lists[x].push(there);
    let back = Neighbour::new(x as u32, -shift, period);
    if reach[y].is_some() && !hot[y].fixed {
        debug_assert!(!lists[y].contains(&back), "neighbour lists are symmetric");
        lists[y].push(back);
    }
}

/// An entry of a neighbour list: the slot, and the image it is met through as whole periods
/// on each axis (8 bytes rather than a slot and a vector's 24: the lists of a large gas
/// are read at every plan and should stay in cache).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Neighbour {
    slot: u32,
    periods: [i8; 2],
}

impl Neighbour {
    /// `slot` met through the image translated by `shift` (whole periods of `period`).
    fn new(slot: u32, shift: Vector, period: Option<Vector>) -> Self {
        let periods = match period {
            Some(size) if shift != Vector::zeros() => [
                (shift.x / size.x).round() as i8,
                (shift.y / size.y).round() as i8,
            ],
            _ => [0, 0],
        };
        Self { slot, periods }
    }

    /// The translation of the image: exactly the shift it was made from (a period times
    /// -1, 0 or 1 is exact).
    #[inline]
    fn shift(self, period: Option<Vector>) -> Vector {
        match (self.periods, period) {
            ([0, 0], _) | (_, None) => Vector::zeros(),
            ([kx, ky], Some(size)) => Vector::new(Real::from(kx) * size.x, Real::from(ky) * size.y),
        }
    }
}

/// A moving body that still closes in on a stopped one after their impact (see
/// [`Run::pressing`]).
struct Pressing {
    /// The moving body's slot.
    slot: usize,
    /// The point of contact, where the moving body is.
    at: Point,
    /// The unit normal from the moving body toward the stopped one.
    into: Vector,
}

/// Takes out of `body`'s velocity at `at` its component along `into` (a unit normal toward
/// an obstacle that does not move), if it closes in: the impulse at `at` of an inelastic
/// impact without friction on a fixed body. The obstacle is left as it is.
fn absorb_approach(body: &mut RigidBody, at: Point, into: Vector) {
    let approach = body.velocity_at_point(&at).dot(&into);
    if !body.is_dynamic() || approach <= 0.0 {
        return;
    }
    // How much an impulse of one along `into` at `at` changes the velocity there.
    let arm = cross(&(at - body.center_of_mass()), &into);
    let inverse_mass = body.inv_mass() + body.inv_inertia() * arm * arm;
    if inverse_mass > 0.0 {
        let ok = body.apply_impulse_at_point(-into * (approach / inverse_mass), at);
        debug_assert!(ok.is_ok(), "a finite impulse at a finite point");
    }
}

/// Where a disc about its own centre is at `t` on `course`, at its course's start rotation:
/// it looks the same at every angle, and the start rotation saves a sine and cosine per
/// query. The position is the one `pose_on_course` gives, bit for bit (its rotation of the
/// zero centre adds exact zeros); a query that works in the disc's frame (disc against
/// segment) rounds differently in the other frame, nothing more.
#[inline]
fn round_start((t0, sweep): (Real, Sweep), t: Real) -> Isometry {
    let at =
        sweep.start().translation.vector + sweep.linvel() * (sweep.dt() * ((t - t0) / sweep.dt()));
    Isometry::from_parts(at.into(), sweep.start().rotation)
}

/// Whether an entry planned with the bodies of slots `a` and `b` at these versions still
/// holds: neither changed course since, and both take part in impacts.
fn is_current(
    hot: &[Hot],
    requests: &[HookRequests],
    (a, version_a): (u32, u32),
    (b, version_b): (u32, u32),
) -> bool {
    hot[a as usize].version == version_a
        && hot[b as usize].version == version_b
        && is_live(requests, a as usize)
        && is_live(requests, b as usize)
}

/// Whether `slot` takes part in impacts: not removed or disabled by the hook.
fn is_live(requests: &[HookRequests], slot: usize) -> bool {
    let r = requests[slot];
    !r.removed && !r.disabled
}

/// Whether a course stays put (see [`Hot::still`]).
fn still(sweep: &Sweep) -> bool {
    sweep.linvel() == Vector::zeros() && sweep.angvel() == 0.0
}

/// Whether `slot` was stopped (see [`Run::stop`]) on a course that stays put.
fn halted(stopped: &[bool], hot: &[Hot], slot: usize) -> bool {
    stopped[slot] && hot[slot].still
}

/// Where a body of `shape` on `course` that overlaps a static zero-thickness segment (its two
/// ends, at `pose`) at the start of the course ends it with its centre of mass lower over the
/// segment, on the side `side` points to (a normal from the segment toward the body, of which
/// only the side is read), and within `tolerance` of the segment's line: the body's lowest
/// point at the end, carried back with the body to its start. `None` otherwise.
///
/// The closest points' approach ([`deepening`](Run::deepening)) allows a tolerance of
/// deepening per course, and a body in a pile gets a new course at every impact: in the
/// tumbling rain, sticks under piles, struck from above step after step and tilted into the
/// segments they rested on, sank past their middles a millimetre or two at a time. Neither the
/// overlap's depth (a tilted stick whose centre crosses the line can overlap less at the end,
/// the far side now being nearer) nor its normal says which side the body is on; its centre of
/// mass does, and a body whose centre stays on its side is pushed back out on that side by the
/// contact solver, which keeps the side of each segment contact.
///
/// Heights are taken along the segment's own normal. The pair's normal, an overlap's
/// closest-point normal, is often a face normal of the body turned from the segment's, and
/// heights along it, from an end of the segment metres away, are off by that distance times
/// the angle: 0.04 rad put a stick 25 cm above a 6 m segment's line when its centre was 1.7 mm
/// below it, near the far end. With the bodies the tumbling rain hung in mid-air freed (1,000
/// bodies), sticks went through that way on 5 of 80 seeds; none do with the segment's normal.
#[cold]
fn sinking(
    (shape, course): (&Shape, &Sweep),
    (ends, pose): (&[Point], &Isometry),
    side: Vector,
    tolerance: Real,
) -> Option<Point> {
    let (from, to) = (pose * ends[0], pose * ends[ends.len() - 1]);
    let along = to - from;
    let line = perp(&along).try_normalize(0.0)?;
    let up = if line.dot(&side) >= 0.0 { line } else { -line };
    let (c0, c1) = (course.center_at(0.0), course.center_at(1.0));
    let (h0, h1) = (up.dot(&(c0 - from)), up.dot(&(c1 - from)));
    let over = along.dot(&(c1 - from));
    if !(h1 < h0 && h1 < tolerance && (0.0..=along.norm_squared()).contains(&over)) {
        return None;
    }
    let (start, end) = (course.pose_at(0.0), course.pose_at(1.0));
    let lowest = shape.core().iter().min_by(|p, q| {
        up.dot(&(end * *p).coords)
            .total_cmp(&up.dot(&(end * *q).coords))
    })?;
    Some(start * lowest - up * shape.radius())
}

/// Resolves the pairs of `ctx.contacts` with a dynamic CCD body that touch and close fast at
/// the start of the step (see [`touching`]), records their events and runs the hook at each
/// (the bodies are where they start the step, and what the hook asks is kept in `requests`
/// for the rest of the step). Returns how many impacts it resolved.
fn start_impacts<B: Broadphase>(
    settings: &FirstTimeOfImpactSettings,
    ctx: &mut StepContext<'_, B>,
    scratch: &mut ClosingScratch,
    requests: &mut Vec<HookRequests>,
) -> usize {
    let closing = Closing {
        contacts: ctx.contacts,
        reach: settings.toi.target_separation() + settings.toi.tolerance(),
        speeds: touching::impact_speeds(
            settings.impact.restitution_threshold,
            settings.toi.tolerance(),
            ctx.gravity.norm(),
            ctx.dt,
        ),
        settings: settings.impact,
        most: settings.max_events,
        most_per_pair: settings.max_pair_events,
    };
    let live = |r: &[HookRequests], h: BodyHandle| is_live(r, h.index as usize);
    let dt = ctx.dt;
    let mut touched = Vec::new();
    let (time, events, hook) = (ctx.time, &mut *ctx.events, &mut *ctx.hook);
    touching::resolve_closing(
        ctx.bodies,
        &closing,
        scratch,
        requests,
        |bodies, c, requests| {
            live(requests, c.a)
                && live(requests, c.b)
                && match (bodies.get(c.a), bodies.get(c.b)) {
                    (Some(a), Some(b)) => touching::may_resolve(a, b, dt, closing.reach),
                    _ => false,
                }
        },
        |bodies, c, impulse, requests| {
            let event = touching::start_event(c, impulse, time);
            events.push(event);
            touched.clear();
            hook.on_impact(&mut Impact {
                event: &event,
                bodies,
                motions: &[],
                at: 0.0,
                requests,
                touched: &mut touched,
            });
            // Velocities the hook set hold from the start of the step, as every velocity
            // does until the step's solver.
            for h in &touched {
                if let Some(r) = requests.get_mut(h.index as usize) {
                    r.velocity_set = false;
                }
            }
        },
    )
}

fn reset<T: Clone>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
}

/// One step's event loop: the context's parts it needs, with the scratch and the report.
struct Run<'r> {
    settings: FirstTimeOfImpactSettings,
    dt: Real,
    time: Real,
    bodies: &'r mut BodySet,
    proxies: &'r [Option<BodyHandle>],
    /// The periodic domain's images, if any: reach boxes stay within half a period.
    periodic: Option<PeriodicImages>,
    s: &'r mut Scratch,
    report: &'r mut FirstToiReport,
}

impl Run<'_> {
    /// Whether `course_box` meets the box of `neighbour`'s current course, at the image it
    /// is met through: the test every pair passes before it is planned.
    fn courses_meet(&self, course_box: &Aabb, neighbour: Neighbour) -> bool {
        let other = self.s.hot[neighbour.slot as usize].course_box;
        let other = match neighbour.periods {
            [0, 0] => other,
            _ => shifted(&other, &neighbour.shift(self.s.period)),
        };
        course_box.intersects(&other)
    }

    /// Whether the pair of `c`, a contact the solver held, is two dynamic bodies whose
    /// meeting the start planning asks along their courses (see [`Run::plan_pair`]): one of
    /// them is checked, and the solver does not hold the pair or one of them swings. Such a
    /// pair cannot pass through itself unseen: a time of impact from where the two touch,
    /// or [`Run::overlapping`] from where they overlap, covers the very courses the
    /// pushed-through net judges, and resolves their meeting there.
    ///
    /// The net stops a pair where it was and leaves it moving as one. With a static body,
    /// moving as one is standing still, and the next step starts afresh. Two dynamic bodies
    /// keep their common motion, and a pair already moving as one, turning by more than a
    /// quarter turn a step, is found pushed through again by the solver's next targets (the
    /// closest-point normal turns round with the pair, and the straight courses from the
    /// start poses to the targets of two bodies on such arcs put them into each other, or
    /// one centre through the other body as seen from it), stopped again, and so at every
    /// step: in the tumbling rain at 1,000 bodies, pairs of sticks, capsules and squares
    /// turning together at 140 to 510 rad/s hung in mid-air with the bodies that landed on
    /// them (seeds 5 and 10 of 1-12: 8 and 4 bodies).
    fn followed_from_start(&self, c: &ContactPair) -> bool {
        let (a, b) = (c.a.index as usize, c.b.index as usize);
        let s = &*self.s;
        s.hot[a].dynamic
            && s.hot[b].dynamic
            && s.motions[a].is_some()
            && s.motions[b].is_some()
            && (s.checked[a] || s.checked[b])
            && (!s.held.holds(c.a.index, c.b.index) || s.swings[a] || s.swings[b])
    }

    /// Takes part in impacts: not removed or disabled by the hook.
    fn is_live(&self, slot: usize) -> bool {
        is_live(&self.s.requests, slot)
    }

    fn pair_state(&mut self, a: u32, b: u32) -> &mut PairState {
        self.s.pairs.entry((a, b)).or_default()
    }

    /// Where the body of `slot` is at `t` seconds into the step, on its current course.
    fn pose_at(&self, slot: usize, t: Real) -> Option<Isometry> {
        Some(pose_on_course(self.s.motions[slot]?, t))
    }

    /// The bodies of slots `xs` and `ys`, and `ys`'s course from `t` translated by `shift`
    /// (the image `xs` meets); `None` when either body is gone or `ys` has no course left.
    fn pair_from(
        &self,
        xs: usize,
        ys: usize,
        t: Real,
        shift: &Vector,
    ) -> Option<(&RigidBody, &RigidBody, Sweep)> {
        let body_x = self.proxies[xs].and_then(|h| self.bodies.get(h))?;
        let body_y = self.proxies[ys].and_then(|h| self.bodies.get(h))?;
        let sweep_y = translated_sweep(&self.course_from(ys, t)?, shift)?;
        Some((body_x, body_y, sweep_y))
    }

    /// The course of `slot` from `t` to the end of the step, or `None` if no time is left.
    fn course_from(&self, slot: usize, t: Real) -> Option<Sweep> {
        let course = self.s.motions[slot]?;
        let rest = self.dt - t;
        if rest <= 0.0 {
            return None;
        }
        let sweep = course.1;
        let start = if self.s.hot[slot].round {
            round_start(course, t)
        } else {
            pose_on_course(course, t)
        };
        Sweep::new(
            start,
            sweep.local_center(),
            sweep.linvel(),
            sweep.angvel(),
            rest,
        )
        .ok()
    }

    /// The course of `slot` from `t` to the end of the step and its padded box, as
    /// [`Run::plan`] makes them. From the start of the course they are the ones kept in
    /// the scratch, bit for bit, unless the body turns about a point other than its shape's
    /// origin (recomputing the pose then rounds differently).
    fn course_and_box(&self, slot: usize, t: Real) -> Option<(Sweep, Aabb)> {
        let (t0, sweep) = self.s.motions[slot]?;
        if t == t0
            && self.dt - t > 0.0
            && sweep.dt() == self.dt - t
            && (self.s.hot[slot].round || sweep.angvel() == 0.0)
        {
            return Some((sweep, self.s.hot[slot].course_box));
        }
        let sweep = self.course_from(slot, t)?;
        let body = self.bodies.get(self.proxies[slot]?)?;
        let pad = self.settings.toi.target_separation() + self.settings.toi.tolerance();
        Some((sweep, Aabb::swept(body.shape(), &sweep).inflated(pad)))
    }

    /// Queues the impacts of `x` from `t` to the end of the step.
    fn plan(&mut self, x: u32, t: Real, planning: Planning) {
        let xs = x as usize;
        if !self.is_live(xs) {
            return;
        }
        let Some((sweep_x, course_box)) = self.course_and_box(xs, t) else {
            return;
        };
        let candidates = core::mem::take(&mut self.s.neighbours[xs]);
        let start = planning == Planning::Start;
        let still_x = self.s.hot[xs].still;
        for &neighbour in &candidates {
            // A stopped body asks its neighbours again, and in a pile most of them are
            // stopped too (see `Hot::still`).
            if still_x && self.s.hot[neighbour.slot as usize].still {
                debug_assert!(
                    self.still_pair_is_quiet(xs, t, &sweep_x, neighbour),
                    "two still courses plan nothing"
                );
                self.report.still_pairs += 1;
                continue;
            }
            // At the start both bodies of a checked pair plan it, and the smaller slot
            // asks (see `plan_pair`): the other one skips it here, before reading anything
            // else of it.
            if start && neighbour.slot < x && self.s.checked[neighbour.slot as usize] {
                continue;
            }
            // Most neighbours' courses miss this one's, which costs less to test here than
            // a call to find out.
            if !self.courses_meet(&course_box, neighbour) {
                continue;
            }
            self.plan_pair(x, &sweep_x, neighbour, (t, t, Real::NEG_INFINITY), planning);
        }
        self.s.neighbours[xs] = candidates;
    }

    /// What [`Run::plan_pair`] would find for two still courses, the impact query run in
    /// full: nothing to queue (only called by a debug assertion).
    fn still_pair_is_quiet(
        &self,
        xs: usize,
        t: Real,
        sweep_x: &Sweep,
        neighbour: Neighbour,
    ) -> bool {
        let (ys, shift) = (neighbour.slot as usize, neighbour.shift(self.s.period));
        let Some((body_x, body_y, sweep_y)) = self.pair_from(xs, ys, t, &shift) else {
            return true;
        };
        match time_of_impact(
            body_x.shape(),
            sweep_x,
            body_y.shape(),
            &sweep_y,
            &self.settings.toi,
        ) {
            Toi::Separated => true,
            Toi::Overlapping => {
                let start = distance(
                    body_x.shape(),
                    &sweep_x.pose_at(0.0),
                    body_y.shape(),
                    &sweep_y.pose_at(0.0),
                );
                unit_normal(&start).is_none_or(|normal| {
                    self.deepening(&start, normal, sweep_x, &sweep_y, self.dt - t)
                        .is_none()
                })
            }
            Toi::Hit(_) | Toi::NotConverged { .. } => false,
        }
    }

    /// Queues the impact of `x` on `sweep_x` (its course from `t`) with `neighbour`, if they
    /// meet before the step ends and before the pair's horizon (see [`Hot::escape_at`]).
    /// Callers ask only pairs whose course boxes meet ([`Run::courses_meet`]). `(t, now, after)`: `now` is the time of
    /// the loop (`t` or later), nothing is queued before it; an impact at or before `after`
    /// was queued already and is not queued again.
    fn plan_pair(
        &mut self,
        x: u32,
        sweep_x: &Sweep,
        neighbour: Neighbour,
        (t, now, after): (Real, Real, Real),
        planning: Planning,
    ) {
        let xs = x as usize;
        let period = self.s.period;
        let (y, shift) = (neighbour.slot, neighbour.shift(period));
        let ys = y as usize;
        let (hot_x, hot_y) = (self.s.hot[xs], self.s.hot[ys]);
        if !self.is_live(ys) || !hot_x.dynamic && !hot_y.dynamic {
            return;
        }
        let asked_from_other_side = match planning {
            Planning::Start => self.s.checked[ys],
            Planning::Replan => self.s.replan.contains(&y),
            Planning::Alone | Planning::Escape => false,
        };
        if asked_from_other_side && y < x {
            return;
        }
        let key = if x < y { (x, y) } else { (y, x) };
        let held = || self.s.held.holds(key.0, key.1);
        // A pair the solver holds is the solver's, unless a body swings its far side round
        // more than the contact distance: a capsule spinning against a wall, held by one
        // point near its top, swung its bottom through the wall.
        let swing = || self.s.swings[xs] || self.s.swings[ys];
        match planning {
            Planning::Start if held() && !swing() => return,
            Planning::Escape => {
                // Both still on their start-of-step courses: the pair was the start
                // planning's, which asked it only for a checked body and not held by the
                // solver. A pair with a later course was asked when that course began.
                let from_start = !self.s.rerouted[xs] && !self.s.rerouted[ys];
                if from_start && (!(self.s.checked[xs] || self.s.checked[ys]) || held() && !swing())
                {
                    return;
                }
            }
            _ => {}
        }
        let rest = self.dt - t;
        let toi = match self.s.motions[ys] {
            Some(course_y) if hot_x.round && hot_y.round && rest > 0.0 => {
                // Two discs about their centres: the closed form the dispatcher would pick,
                // from the same centres and displacements, without building `y`'s sweep
                // or reading either body.
                let start_y = translated(&round_start(course_y, t), &shift);
                let linvel_y = course_y.1.linvel();
                if !(start_y.translation.x.is_finite() && start_y.translation.y.is_finite()) {
                    return;
                }
                self.report.toi_queries += 1;
                toi_discs(
                    sweep_x.start() * Point::origin(),
                    sweep_x.displacement(),
                    hot_x.radius,
                    start_y * Point::origin(),
                    linvel_y * rest,
                    hot_y.radius,
                    &self.settings.toi,
                )
            }
            Some(_) if hot_x.round && rest > 0.0 && self.s.segments[ys].is_some() => {
                // A disc against a static segment: the closed form the dispatcher would
                // pick, from the segment's start pose (a static body's course never moves
                // it), without building the segment's sweep or reading either body. Most of
                // a rain's other plans.
                let (Some(segment), Some(pose)) = (self.s.segments[ys], self.s.start[ys]) else {
                    return;
                };
                let pose = translated(&pose, &shift);
                if !(pose.translation.x.is_finite() && pose.translation.y.is_finite()) {
                    return;
                }
                self.report.toi_queries += 1;
                toi_disc_still_segment(
                    hot_x.radius,
                    &sweep_x.start(),
                    sweep_x.displacement(),
                    &segment,
                    &pose,
                    &self.settings.toi,
                )
            }
            _ if self.bounds_apart(xs, ys, t, &shift, sweep_x) => {
                self.report.bounds_apart += 1;
                return;
            }
            _ => match self.general_toi(xs, ys, t, &shift, sweep_x) {
                Some(toi) => toi,
                None => return,
            },
        };
        // The contact (point, normal from `x` toward `y`) in `x`'s frame, or none if the
        // query gave up.
        let (time, contact) = match toi {
            Toi::Separated => return,
            Toi::Hit(hit) => (t + hit.fraction * rest, Some((hit.point, hit.normal))),
            Toi::NotConverged { safe_fraction } => (t + safe_fraction * rest, None),
            Toi::Overlapping => match self.overlapping(xs, ys, t, &shift, sweep_x) {
                Deepening::Never => return,
                Deepening::At {
                    after,
                    point,
                    normal,
                } => (t + after, Some((point, normal))),
                Deepening::Unknown { safe } => (t + safe, None),
            },
        };
        // The entry has the smaller slot where it is, the larger at its image: from `x`'s
        // frame, where `y` is translated by `shift`, to the smaller slot's.
        let offset = if x < y { shift } else { -shift };
        let due = match contact {
            Some((point, normal)) if x < y => Due::Impact { point, normal },
            Some((point, normal)) => Due::Impact {
                point: point - shift,
                normal: -normal,
            },
            None => Due::Stop,
        };
        // An escape asks from when the courses began; the reach guarantees the pair cannot
        // meet before the escape, which rounding must not contradict.
        let time = time.max(now).min(self.dt);
        if time <= after || time > self.s.hot[xs].escape_at.min(self.s.hot[ys].escape_at) {
            return;
        }
        self.s.queue.push(Entry {
            time,
            a: key.0,
            b: key.1,
            version_a: self.s.hot[key.0 as usize].version,
            version_b: self.s.hot[key.1 as usize].version,
            offset,
            due,
        });
    }

    /// Whether the bounding discs of `xs` on `sweep_x` and of the image of `ys` translated
    /// by `shift`, both from `t`, stay farther apart than the target separation plus the
    /// tolerance to the end of the step: each disc is about its body's centre of mass, which
    /// moves on a straight line whatever the body turns, so the closest approach of the two
    /// is a closed form, and the shapes inside them cannot meet. A time of impact would say
    /// the same after building `ys`'s course (a sine and a cosine) and its own set-up: in the
    /// tumbling rain most of the neighbours a re-planned body asks are such pairs.
    #[inline]
    fn bounds_apart(&self, xs: usize, ys: usize, t: Real, shift: &Vector, sweep_x: &Sweep) -> bool {
        let Some((since, course_y)) = self.s.motions[ys] else {
            return false;
        };
        let rest = self.dt - t;
        let x0 = sweep_x.center_at(0.0);
        let y0 = course_y.center_at((t - since) / course_y.dt()) + shift;
        let toi = &self.settings.toi;
        let reach =
            self.s.hot[xs].bound + self.s.hot[ys].bound + toi.target_separation() + toi.tolerance();
        // A relative margin for rounding: a pair this near is asked.
        moving_spheres(
            x0,
            x0 + sweep_x.linvel() * rest,
            reach * (1.0 + 1e-9),
            y0,
            y0 + course_y.linvel() * rest,
            0.0,
        )
        .is_none()
    }

    /// The time of impact of `xs` on `sweep_x` and the image of `ys` translated by
    /// `shift`, both from `t`, by the dispatcher; `None` when either body is gone or `ys`
    /// has no course left. Kept out of [`plan_pair`](Run::plan_pair), whose disc pairs
    /// are most of a rain's plans.
    #[inline(never)]
    fn general_toi(
        &mut self,
        xs: usize,
        ys: usize,
        t: Real,
        shift: &Vector,
        sweep_x: &Sweep,
    ) -> Option<Toi> {
        let (body_x, body_y, sweep_y) = self.pair_from(xs, ys, t, shift)?;
        let toi = time_of_impact(
            body_x.shape(),
            sweep_x,
            body_y.shape(),
            &sweep_y,
            &self.settings.toi,
        );
        self.report.toi_queries += 1;
        Some(toi)
    }

    /// Which side of each other the bodies of slots `xs` and `ys` belong on, as a normal
    /// from `xs` toward `ys`: that of the pair's last impact in this step, or else of the
    /// contact solver's manifold, taken at the start poses. An overlap past the middle of a
    /// zero-thickness segment turns the exact distance's normal round, and an impact along
    /// it would push the body the rest of the way through (a stick pressed into a segment by
    /// a pile's weight, then struck).
    fn side_of(&self, xs: usize, ys: usize) -> Option<Vector> {
        let (lo, hi) = if xs < ys { (xs, ys) } else { (ys, xs) };
        let from_pair = self
            .s
            .pairs
            .get(&(lo as u32, hi as u32))
            .map(|p| p.normal)
            .filter(|n| *n != Vector::zeros())
            .map(|n| if xs < ys { n } else { -n });
        from_pair.or_else(|| held_normal(&self.s.solver_contacts, xs as u32, ys as u32))
    }

    /// The impact of a pair already overlapping at `t` (`xs` on `sweep_x`, the image of `ys`
    /// translated by `shift`), if the courses drive it deeper. Skipping it would let a body
    /// knocked into a resting neighbour (a disc bounced off a wall into the floor it slides
    /// on) go through it, since the solver's part of the step is over.
    ///
    /// The impact is at once if the closest points approach (see
    /// [`deepening`](Run::deepening)). Otherwise, when neither body swings (see
    /// [`Scratch::swings`]), there is none: under translation the overlap of two convex shapes
    /// only deepens if it deepens at once. A swinging body can part where it overlaps and
    /// strike with its far side (a stick resting on a segment, struck at one end, swung its
    /// other end through): the pair is then followed along the courses
    /// ([`swinging_deepening`]).
    #[cold]
    #[inline(never)]
    fn overlapping(
        &mut self,
        xs: usize,
        ys: usize,
        t: Real,
        shift: &Vector,
        sweep_x: &Sweep,
    ) -> Deepening {
        self.report.overlapping += 1;
        let Some((body_x, body_y, sweep_y)) = self.pair_from(xs, ys, t, shift) else {
            return Deepening::Never;
        };
        let (pose_x, pose_y) = (sweep_x.pose_at(0.0), sweep_y.pose_at(0.0));
        let start = distance(body_x.shape(), &pose_x, body_y.shape(), &pose_y);
        let Some(normal) = unit_normal(&start) else {
            return Deepening::Never;
        };
        let normal = anchored(normal, self.side_of(xs, ys));
        if let Some(point) = self.deepening(&start, normal, sweep_x, &sweep_y, self.dt - t) {
            return Deepening::At {
                after: 0.0,
                point,
                normal,
            };
        }
        let tolerance = self.settings.toi.tolerance();
        let sinking = match (body_x.shape(), body_y.shape()) {
            (_, Shape::Segment(segment)) if self.s.hot[ys].fixed => sinking(
                (body_x.shape(), sweep_x),
                (segment.core(), &pose_y),
                -normal,
                tolerance,
            ),
            (Shape::Segment(segment), _) if self.s.hot[xs].fixed => sinking(
                (body_y.shape(), &sweep_y),
                (segment.core(), &pose_x),
                normal,
                tolerance,
            ),
            _ => None,
        };
        if let Some(point) = sinking {
            return Deepening::At {
                after: 0.0,
                point,
                normal,
            };
        }
        if self.s.swings[xs] || self.s.swings[ys] {
            let toi = &self.settings.toi;
            return swinging_deepening(
                (body_x.shape(), sweep_x),
                (body_y.shape(), &sweep_y),
                normal,
                toi.tolerance(),
                toi.max_iterations(),
            );
        }
        Deepening::Never
    }

    /// Where a pair that touches at the start of its courses (`sweep_x`, `sweep_y`, both
    /// `rest` seconds long), at distance `start`, is driven deeper along `normal` (from `x`
    /// toward `y`) by more than the tolerance: the middle of the deepest points. `None` when
    /// the pair slides or leaves there.
    fn deepening(
        &self,
        start: &Distance,
        normal: Vector,
        sweep_x: &Sweep,
        sweep_y: &Sweep,
        rest: Real,
    ) -> Option<Point> {
        let point = impact_geometry::nalgebra::center(&start.point_a, &start.point_b);
        let approach =
            (sweep_y.velocity_at(0.0, &point) - sweep_x.velocity_at(0.0, &point)).dot(&normal);
        (approach * rest < -self.settings.toi.tolerance()).then_some(point)
    }

    /// Resolves the impact of `e`, records it, runs the hook and re-plans what changed.
    fn resolve(
        &mut self,
        e: &Entry,
        events: &mut Vec<CollisionEvent>,
        hook: &mut dyn crate::events::ImpactHook,
        removed: &mut Vec<BodyHandle>,
    ) {
        let Due::Impact { point, normal } = e.due else {
            return;
        };
        let t = e.time;
        let (a, b) = (e.a as usize, e.b as usize);
        let (Some(ha), Some(hb)) = (self.proxies[a], self.proxies[b]) else {
            return;
        };
        // Both bodies to the moment of the impact, `b` at the image the impact was planned
        // with (the resolver takes lever arms from the poses).
        // Their velocities too: those they have at `t` on their courses, which the step's
        // gravity after `t` is not yet part of.
        for (slot, handle, offset) in [(a, ha, Vector::zeros()), (b, hb, e.offset)] {
            if let (Some(pose), Some(body)) = (self.pose_at(slot, t), self.bodies.get_mut(handle)) {
                let ok = body.set_pose(translated(&pose, &offset));
                debug_assert!(ok.is_ok(), "a pose on a finite sweep is valid");
            }
            self.bring_velocity_to(slot, t);
        }
        let min_gap = self.settings.min_advance * self.dt;
        let max_pair = self.settings.max_pair_events;
        let pair = self.pair_state(e.a, e.b);
        let zeno = pair.impacts + 1 >= max_pair || (pair.impacts > 0 && t - pair.last < min_gap);
        pair.impacts += 1;
        pair.last = t;
        pair.handed_over = zeno;
        pair.normal = normal;
        let point = self.acting_point(ha, hb, point, normal);
        let rests = self.rests(e, point, normal, t);
        let impact_settings = if zeno || rests {
            // Inelastic: the bounce that would feed the sequence is dropped, and so is one
            // that would not outlast the step.
            ImpactSettings {
                restitution_threshold: Real::MAX,
                ..self.settings.impact
            }
        } else {
            self.settings.impact
        };
        let resolved = resolve_impact(self.bodies, ha, hb, point, normal, &impact_settings);
        if e.offset != Vector::zeros()
            && let (Some(pose), Some(body)) = (self.pose_at(b, t), self.bodies.get_mut(hb))
        {
            let ok = body.set_pose(pose);
            debug_assert!(ok.is_ok(), "a pose on a finite sweep is valid");
        }
        let impulse = match resolved {
            Ok(impulse) => impulse,
            Err(_) => {
                // Unreachable for a planned pair (live handles, a unit normal from the
                // narrowphase); stopping both is the safe answer if it ever happens.
                debug_assert!(false, "a planned impact resolves");
                self.stop(a, t);
                self.stop(b, t);
                return;
            }
        };
        self.report.events += 1;
        if zeno {
            self.report.zeno_pairs.push((ha, hb));
        }
        let event = CollisionEvent {
            time: self.time + t,
            fraction: (t / self.dt).clamp(0.0, 1.0),
            a: ha,
            b: hb,
            kind: if zeno {
                EventKind::ZenoHandover
            } else {
                EventKind::Impact
            },
            impulse,
        };
        events.push(event);

        self.s.touched.clear();
        let mut impact = Impact {
            event: &event,
            bodies: &mut *self.bodies,
            motions: &self.s.motions,
            at: t,
            requests: &mut self.s.requests,
            touched: &mut self.s.touched,
        };
        hook.on_impact(&mut impact);

        // The two bodies and whatever the hook touched change course now.
        self.s.replan.clear();
        self.s.replan.extend([e.a, e.b]);
        for i in 0..self.s.touched.len() {
            let slot = self.s.touched[i].index;
            let request = &mut self.s.requests[slot as usize];
            if core::mem::take(&mut request.velocity_set) {
                // What the hook set holds from now on.
                self.s.ramps[slot as usize].at = t;
            }
            if !self.s.replan.contains(&slot) {
                self.s.replan.push(slot);
            }
        }
        // A body that hit a stopped one and still heads into it would hit it again at
        // once: the stopped body keeps its place whatever the impulse gave its velocity.
        // That second impact would be a Zeno sequence (two at one instant), resolved
        // inelastically with the bodies' velocities, which seldom turns the moving body
        // away from a body that does not move; the pair's next meeting, again at once,
        // would stop it. It stops here instead, with the velocities of this impact, without
        // the two impacts and the plans in between. In the rain at 1,000 discs, where
        // piles of stopped discs are hit from above, that was two impacts of every three.
        //
        // Its velocity into the stopped body is taken out as well, as an impact on a body
        // that does not move would take it (inelastic, no friction): kept, it would press the
        // body into the stopped one at the start of the next step too, where both stop again.
        // In the rain, piles of discs held that way kept tens of units per second, step after
        // step, without moving: every disc of a pile was checked, planned and stopped anew.
        if let Some(Pressing { slot, at, into }) = self.pressing(e, point, normal) {
            if let Some(body) = self.proxies[slot].and_then(|h| self.bodies.get_mut(h)) {
                absorb_approach(body, at, into);
            }
            self.s.replan.retain(|&x| x as usize != slot);
            self.stop(slot, t);
        }
        for i in 0..self.s.replan.len() {
            let slot = self.s.replan[i] as usize;
            let request = self.s.requests[slot];
            if request.removed {
                if let Some(handle) = self.proxies[slot]
                    && !removed.contains(&handle)
                {
                    removed.push(handle);
                    self.report.removed += 1;
                    self.set_course(slot, t, true);
                }
            } else if !halted(&self.s.stopped, &self.s.hot, slot) {
                self.set_course(slot, t, false);
            }
        }
        // A static body that was hit plans nothing: its course did not change, and each of
        // its pairs is planned by its other body, from the start of that body's course
        // (the one it hit just now included). What a plan from here would add is the
        // pairs the contact solver keeps (resting bodies on their solver courses), asked
        // only because something else hit the same body: those are the solver's, with
        // `pushed_through` as their safety net, as at the start of the step. Nor does a
        // body stopped earlier: it keeps its halted course whatever the impulse gave its
        // velocity, so its version and queued impacts stay valid, and the other body
        // plans their pair.
        let s = &mut *self.s;
        let (hot, requests, stopped) = (&s.hot, &s.requests, &s.stopped);
        s.replan.retain(|&slot| {
            let slot = slot as usize;
            !hot[slot].fixed && (requests[slot].removed || !halted(stopped, hot, slot))
        });
        for i in 0..self.s.replan.len() {
            let slot = self.s.replan[i];
            self.plan(slot, t, Planning::Replan);
        }
    }

    /// Where the impact of the bodies of `ha` and `hb` (placed at the impact) at `point` with
    /// `normal` acts: the middle of the stretch along which their faces touch, to the
    /// tolerance, where they meet face to face (see [`shared_face_middle`]): the first point
    /// of contact is then an end of it, and an impulse there would spin a body that landed
    /// flat. Unless the faces close at the first point and not at the far end of the stretch
    /// (the point as far past the middle): a spinning body meeting a face with its own face
    /// turns one end in and the other away, and an impulse at the middle then stops at most
    /// the approach there, none of the turn that drives the first point in, so the pair met
    /// again at once, with nothing changed, until the Zeno limit stopped both.
    ///
    /// The middle was first refused only where the faces part there, and two bodies turning
    /// about it relative to each other close there by nothing, or by rounding: the middle
    /// then took an impulse of 1e-19, and a capsule and a square falling face to face at 180
    /// units/s, turning 6 rad/s apart, were stopped at the start of every step, hung in
    /// mid-air with the bodies that landed on them (the tumbling rain, seed 7: four).
    fn acting_point(&self, ha: BodyHandle, hb: BodyHandle, point: Point, normal: Vector) -> Point {
        let (Some(a), Some(b)) = (self.bodies.get(ha), self.bodies.get(hb)) else {
            return point;
        };
        let middle = shared_face_middle(
            a.shape(),
            a.pose(),
            b.shape(),
            b.pose(),
            point,
            normal,
            self.settings.toi.tolerance(),
        );
        let closing =
            |p: &Point| (b.velocity_at_point(p) - a.velocity_at_point(p)).dot(&normal) < 0.0;
        // The approach is affine along the faces: the stretch closes all along only if it
        // closes at both ends.
        let far_end = middle + (middle - point);
        if middle != point && closing(&point) && !closing(&far_end) {
            return point;
        }
        middle
    }

    /// After the impact of `e` at `point` (in the smaller slot's frame) with `normal` (from
    /// the smaller slot toward the larger): the moving body, if one of the two is stopped
    /// and the other (live, dynamic, not touched by the hook's removal) still closes in on
    /// it by more than the tolerance over the rest of the step.
    fn pressing(&self, e: &Entry, point: Point, normal: Vector) -> Option<Pressing> {
        let (a, b) = (e.a as usize, e.b as usize);
        let (mover, sign, at) = match (self.s.stopped[a], self.s.stopped[b]) {
            (true, false) => (b, -1.0, point - e.offset),
            (false, true) => (a, 1.0, point),
            _ => return None,
        };
        if !self.is_live(mover) || self.s.requests[mover].removed {
            return None;
        }
        let body = self.bodies.get(self.proxies[mover]?)?;
        if !body.is_dynamic() {
            return None;
        }
        let into = normal * sign;
        let closing = body.velocity_at_point(&at).dot(&into) * (self.dt - e.time);
        (closing > self.settings.toi.tolerance()).then_some(Pressing {
            slot: mover,
            at,
            into,
        })
    }

    /// The velocities of the body of `slot` at `t` on its current course (see [`Ramp`]).
    fn velocity_at(&self, slot: usize, t: Real) -> Option<(Vector, Real)> {
        let body = self.bodies.get(self.proxies[slot]?)?;
        let course = self.s.motions[slot]?;
        Some(self.s.ramps[slot].velocity_at((body.linvel(), body.angvel()), course, t))
    }

    /// Gives the body of `slot` the velocities it has at `t` on its course; they hold at `t`
    /// from then on.
    fn bring_velocity_to(&mut self, slot: usize, t: Real) {
        let Some((v, w)) = self.velocity_at(slot, t) else {
            return;
        };
        let Some(body) = self.proxies[slot].and_then(|h| self.bodies.get_mut(h)) else {
            return;
        };
        // Velocities past the range of `f64` (a scene of absurd sizes) are refused: the body
        // keeps its own, and the world reports what overflowed after the step.
        if body.is_dynamic() && body.set_velocity(v, w).is_ok() {
            self.s.ramps[slot].at = t;
        }
    }

    /// Whether the pair of `e`, about to be resolved at `t` (at `point` with `normal`, from
    /// the smaller slot toward the larger, both bodies in place and at their velocities at
    /// `t`), comes to rest on the contact: its accelerations along the normal (gravity, for a
    /// body falling on the ground) close it, and its bounce, if any, is too slow to part it
    /// for the rest of the step. Such a pair is resolved without the bounce and from then on
    /// shares one acceleration along the normal, the one that keeps the pair's momentum (a
    /// static body's): left with gravity into the ground, a ball's course would meet it
    /// again at once, and again, until the Zeno limit stopped it; let bounce, the bounce
    /// would be carried over the step without the gravity that ends it.
    fn rests(&mut self, e: &Entry, point: Point, normal: Vector, t: Real) -> bool {
        let (a, b) = (e.a as usize, e.b as usize);
        let (Some(ha), Some(hb)) = (self.proxies[a], self.proxies[b]) else {
            return false;
        };
        let (Some(body_a), Some(body_b)) = (self.bodies.get(ha), self.bodies.get(hb)) else {
            return false;
        };
        let (ra, rb) = (self.s.ramps[a], self.s.ramps[b]);
        let closing_accel = (rb.accel - ra.accel).dot(&normal);
        if closing_accel >= 0.0 {
            return false;
        }
        let approach =
            -(body_b.velocity_at_point(&point) - body_a.velocity_at_point(&point)).dot(&normal);
        let restitution = if approach < self.settings.impact.restitution_threshold {
            0.0
        } else {
            combine_restitution(
                body_a.material().restitution(),
                body_b.material().restitution(),
            )
        };
        let rest = self.dt - t;
        if restitution * approach.max(0.0) + closing_accel * rest * 0.5 >= 0.0 {
            return false;
        }
        let (ia, ib) = (body_a.inv_mass(), body_b.inv_mass());
        if ia + ib <= 0.0 {
            return false;
        }
        let shared = (ib * ra.accel.dot(&normal) + ia * rb.accel.dot(&normal)) / (ia + ib);
        for (slot, ramp, dynamic) in [(a, ra, body_a.is_dynamic()), (b, rb, body_b.is_dynamic())] {
            if dynamic {
                self.s.ramps[slot] = Ramp {
                    accel: ramp.accel + normal * (shared - ramp.accel.dot(&normal)),
                    free: false,
                    ..ramp
                };
            }
        }
        true
    }

    /// From `t` on, `slot` follows its body's current velocities (or stays put if `halt`):
    /// a new version, and a box that covers the rest of its motion.
    fn set_course(&mut self, slot: usize, t: Real, halt: bool) {
        let (Some(handle), Some(pose)) = (self.proxies[slot], self.pose_at(slot, t)) else {
            return;
        };
        let Some(now) = self.velocity_at(slot, t) else {
            return;
        };
        let Some(body) = self.bodies.get_mut(handle) else {
            return;
        };
        // A stopped body stays stopped for the rest of the step, whatever hits it, and keeps
        // the velocities it had when it stopped.
        let halt = halt || self.s.stopped[slot];
        // A course that starts at the very end of the step still needs a positive length.
        let rest = (self.dt - t).max(Real::MIN_POSITIVE);
        let ((linvel, angvel), end, ramp) = match body.body_type() {
            BodyType::Static => return,
            _ if halt => ((Vector::zeros(), 0.0), now, Ramp::still(t)),
            BodyType::Dynamic | BodyType::Kinematic => {
                let ramp = self.s.ramps[slot];
                let (course, end) = ramp.course(now, rest);
                (
                    course,
                    end,
                    Ramp {
                        at: self.dt,
                        ..ramp
                    },
                )
            }
        };
        let Ok(sweep) = Sweep::new(pose, body.local_center(), linvel, angvel, rest) else {
            return;
        };
        if body.is_dynamic() {
            // Refused only past the range of `f64` (see `bring_velocity_to`).
            let _ = body.set_velocity(end.0, end.1);
        }
        let body = &*body;
        self.s.ramps[slot] = ramp;
        self.s.motions[slot] = Some((t, sweep));
        self.s.hot[slot].version = self.s.hot[slot].version.wrapping_add(1);
        self.s.hot[slot].still = still(&sweep);
        self.s.rerouted[slot] = true;
        let pad = self.settings.toi.target_separation() + self.settings.toi.tolerance();
        self.s.swings[slot] = swings(body, &sweep, pad);
        let aabb = Aabb::swept(body.shape(), &sweep).inflated(pad);
        self.s.hot[slot].course_box = aabb;
        let Some(old) = self.s.reach[slot] else {
            // Never planned (its box overflowed at the start): nothing can be planned
            // against it, so it stays put.
            if !halt {
                self.set_course(slot, t, true);
            }
            return;
        };
        if !is_finite(&aabb) {
            // A box that overflows cannot be planned against: stay put.
            if !halt {
                self.set_course(slot, t, true);
            }
            return;
        }
        if self.s.anchor[slot].is_some() {
            // A skin reach: the list holds every body the new course can meet until the
            // centre leaves its anchor, when the body escapes.
            self.schedule_escape(slot, t);
            return;
        }
        if old.contains(&aabb) {
            // The usual case: the new course stays within the reach, the neighbour list
            // still holds every body it can meet.
            return;
        }
        // The course leaves its reach: a larger reach, and the bodies it meets added to
        // both neighbour lists.
        self.report.reach_escapes += 1;
        let fresh = reach(body, aabb, &sweep, self.periodic.as_ref());
        let grown = fresh.merged(&old);
        let x = slot as u32;
        let s = &mut *self.s;
        s.reach[slot] = Some(grown);
        s.grid.insert(x, &grown);
        // The list must hold every body the grown reach meets, not only those of the old
        // reach and of the fresh one: a later course that stays inside the grown box is not
        // searched again, and the box is larger than the two it was grown from (a bounce
        // off a diagonal wall turned a course from along x to down; the corner between the
        // two held a resting disc, which the next course, to the right, went into without
        // an impact). The bodies the old reach meets are found again, and skipped by
        // `add_neighbours`.
        let (lists, boxes, hot, period) = (&mut s.neighbours, &s.reach, &s.hot, s.period);
        s.grid.query(x, &grown, boxes, false, |y, shift| {
            add_neighbours(lists, boxes, hot, slot, y as usize, shift, period);
        });
    }

    /// With a skin reach: queues the time the centre of `slot`, on its course from `t`,
    /// leaves its anchor, if that is before the step ends (a body that does not move
    /// never escapes).
    fn schedule_escape(&mut self, slot: usize, t: Real) {
        self.s.hot[slot].escape_at = Real::INFINITY;
        let (Some(anchor), Some(course)) = (self.s.anchor[slot], self.s.motions[slot]) else {
            return;
        };
        let sweep = course.1;
        let v = sweep.linvel();
        let c = pose_on_course(course, t) * sweep.local_center();
        let leaves = |lo: Real, hi: Real, p: Real, v: Real| {
            if v > 0.0 {
                (hi - p).max(0.0) / v
            } else if v < 0.0 {
                (p - lo).max(0.0) / -v
            } else {
                Real::INFINITY
            }
        };
        let time = t + leaves(anchor.mins.x, anchor.maxs.x, c.x, v.x).min(leaves(
            anchor.mins.y,
            anchor.maxs.y,
            c.y,
            v.y,
        ));
        // A NaN time escapes nothing.
        if time.is_nan() || time >= self.dt {
            return;
        }
        self.s.hot[slot].escape_at = time;
        let version = self.s.hot[slot].version;
        self.s.queue.push(Entry {
            time,
            a: slot as u32,
            b: slot as u32,
            version_a: version,
            version_b: version,
            offset: Vector::zeros(),
            due: Due::Escape,
        });
    }

    /// The body of `e` leaves its anchor: a new anchor and reach around where it is, a new
    /// neighbour list from a query of the grid (and it in its new neighbours' lists), and
    /// the pairs new to its list planned. Its course, version and queued impacts stay:
    /// they are still right.
    fn escape(&mut self, e: &Entry) {
        let (slot, t) = (e.a as usize, e.time);
        let (Some(handle), Some(course)) = (self.proxies[slot], self.s.motions[slot]) else {
            return;
        };
        let Some(body) = self.bodies.get(handle) else {
            return;
        };
        let pad = self.settings.toi.target_separation() + self.settings.toi.tolerance();
        let periodic = self.periodic.as_ref();
        let (anchor, around) = match skin_reach(
            body,
            &pose_on_course(course, t),
            self.settings.reach_skin,
            pad,
            periodic,
        ) {
            Some((anchor, around)) => (Some(anchor), around),
            None => {
                // No skin reach fits here (unreachable for a body that had one, short of a
                // reach that overflows far out): the rest of the course, as without a skin.
                let Some(sweep) = self.course_from(slot, t) else {
                    return;
                };
                let swept = Aabb::swept(body.shape(), &sweep).inflated(pad);
                if !is_finite(&swept) {
                    return;
                }
                (None, reach(body, swept, &sweep, periodic))
            }
        };
        self.report.reach_escapes += 1;
        let x = e.a;
        let s = &mut *self.s;
        if let Some(old) = s.reach[slot] {
            s.grid.remove(x, &old);
        }
        s.reach[slot] = Some(around);
        s.anchor[slot] = anchor;
        s.grid.insert(x, &around);
        // Out of its old neighbours' lists: the lists stay exactly the pairs of reaches
        // that meet, so a pair in the old list and the new one has been listed all along,
        // and planned at the start of the later course or when it was listed.
        let old = core::mem::take(&mut s.neighbours[slot]);
        for n in &old {
            let back = Neighbour {
                slot: x,
                periods: [-n.periods[0], -n.periods[1]],
            };
            if let Some(list) = s.neighbours.get_mut(n.slot as usize)
                && let Some(i) = list.iter().position(|m| *m == back)
            {
                list.swap_remove(i);
            }
        }
        let mut list = core::mem::take(&mut s.fresh);
        list.clear();
        let (lists, boxes, hot, period) = (&mut s.neighbours, &s.reach, &s.hot, s.period);
        s.grid.query(x, &around, boxes, false, |y, shift| {
            list.push(Neighbour::new(y, shift, period));
            let ys = y as usize;
            let back = Neighbour::new(x, -shift, period);
            if ys < lists.len()
                && boxes[ys].is_some()
                && !hot[ys].fixed
                && !lists[ys].contains(&back)
            {
                lists[ys].push(back);
            }
        });
        s.neighbours[slot] = list;
        // Every pair is asked again, past the old horizon: a pair in the old list had its
        // impacts queued up to this escape, a new one none. Each is asked as the
        // whole-course reach would have asked it, when the later of the two courses began
        // and from that course's body (at the start of the step, from a checked body, the
        // smaller slot if both are): the same query gives the same entry, bit for bit, and
        // the two reaches resolve the same impacts.
        self.schedule_escape(slot, t);
        for i in 0..self.s.neighbours[slot].len() {
            let neighbour = self.s.neighbours[slot][i];
            let after = if old.contains(&neighbour) {
                t
            } else {
                Real::NEG_INFINITY
            };
            let y = neighbour.slot as usize;
            let Some((since, _)) = self.s.motions[y] else {
                continue;
            };
            let x_asks = if course.0 != since {
                course.0 > since
            } else if !self.s.rerouted[slot]
                && !self.s.rerouted[y]
                && self.s.checked[slot] != self.s.checked[y]
            {
                self.s.checked[slot]
            } else {
                slot < y
            };
            let (asker, other) = if x_asks {
                (slot, neighbour)
            } else {
                let back = Neighbour {
                    slot: x,
                    periods: [-neighbour.periods[0], -neighbour.periods[1]],
                };
                (y, back)
            };
            let t_pair = course.0.max(since).min(t);
            let Some((sweep, course_box)) = self.course_and_box(asker, t_pair) else {
                continue;
            };
            if !self.courses_meet(&course_box, other) {
                continue;
            }
            self.plan_pair(
                asker as u32,
                &sweep,
                other,
                (t_pair, t, after),
                Planning::Escape,
            );
        }
        self.s.fresh = old;
    }

    /// The event cap was reached, or a query gave up: the moving bodies of the pair stop at
    /// the entry's time, and whatever heads into them is planned anew.
    fn stop_pair(&mut self, e: &Entry) {
        for slot in [e.a as usize, e.b as usize] {
            self.stop(slot, e.time);
        }
    }

    fn stop(&mut self, slot: usize, t: Real) {
        let Some(handle) = self.proxies[slot] else {
            return;
        };
        if self.s.stopped[slot] || !self.bodies.get(handle).is_some_and(|b| b.is_dynamic()) {
            return;
        }
        self.set_course(slot, t, true);
        self.s.stopped[slot] = true;
        let time_lost = self.dt - t;
        self.report.time_lost += time_lost;
        self.report.stopped.push(ClampedBody {
            body: handle,
            fraction: (t / self.dt).clamp(0.0, 1.0),
            time_lost,
        });
        self.plan(slot as u32, t, Planning::Alone);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::ConvexPolygon;

    /// A stick 0.18 by 0.02 near the far end of a 6 m segment tilted by 0.1 rad, pressed 2.5
    /// mm into it, whose course lowers its centre from 7.5 mm above the segment's line to
    /// 1.75 mm below, is sinking, whichever normal of the pair gives the side: the segment's
    /// own, or the stick's face normal turned 0.04 rad from it either way (the overlap's
    /// closest-point normal in the tumbling rain); and one that slides along 7.5 mm above the
    /// line is not. Heights along the turned normal, from the segment's far end, were 24 cm
    /// off: the stick sinking through was 25 cm above the line, and the one sliding on it 23
    /// cm below.
    #[test]
    fn a_course_that_lowers_a_centre_through_the_line_is_sinking() {
        let tilt: Real = 0.1;
        let (from, to) = (
            Point::new(3.515, 4.7005),
            Point::new(3.515 + 6.0 * tilt.cos(), 4.7005 + 6.0 * tilt.sin()),
        );
        let ends = [from, to];
        let along = (to - from).normalize();
        let up = perp(&along);
        let at = |distance: Real, height: Real| from + along * distance + up * height;
        let stick: Shape = ConvexPolygon::rectangle(0.09, 0.01).unwrap().into();
        let tolerance = 0.00125;
        let dt = 1.0 / 60.0;
        for turn in [-0.04, 0.0, 0.04] {
            let start = Isometry::new(at(5.95, 0.0075).coords, tilt + turn);
            let face = Vector::new(-(tilt + turn).sin(), (tilt + turn).cos());
            let down = (at(5.944, -0.00175) - at(5.95, 0.0075)) / dt;
            let sinks = Sweep::new(start, Point::origin(), down, 0.0, dt).unwrap();
            let point = sinking(
                (&stick, &sinks),
                (&ends, &Isometry::identity()),
                face,
                tolerance,
            )
            .unwrap_or_else(|| panic!("turned {turn}: not sinking"));
            // The stick's lowest corner, at the start.
            assert!(up.dot(&(point - at(5.95, 0.0075))) < -0.01, "{point:?}");
            // Seen from the other side of the line, the course rises.
            assert!(
                sinking(
                    (&stick, &sinks),
                    (&ends, &Isometry::identity()),
                    -face,
                    tolerance
                )
                .is_none()
            );
            let slides = Sweep::new(start, Point::origin(), along * 3.0, 0.0, dt).unwrap();
            assert!(
                sinking(
                    (&stick, &slides),
                    (&ends, &Isometry::identity()),
                    face,
                    tolerance
                )
                .is_none(),
                "turned {turn}: sliding"
            );
        }
    }
}
