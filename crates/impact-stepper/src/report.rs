//! The reports of the steppers: what each one says about a step, in one place.
//!
//! The two CCD steppers report alike: each embeds the contact solver's [`DiscreteReport`],
//! and each lists the bodies it stopped short of the end of the step as [`ClampedBody`]s.
//! Kept together, a reader comparing what [`MotionClamping`](crate::MotionClamping) and
//! [`FirstTimeOfImpact`](crate::FirstTimeOfImpact) count sees both side by side, and neither
//! stepper's module has to reach into the other's for the type they share. Each stepper's
//! module re-exports its own report, so the public paths are the stepper's.

use impact_geometry::Real;
use impact_solver::BodyHandle;

/// What [`Discrete`](crate::Discrete) reports about one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DiscreteReport {
    /// Contact constraints the solver built (manifolds with a dynamic body).
    pub constraints: usize,
}

/// One body a CCD stepper stopped short of the end of the step: [`MotionClamping`] at its
/// earliest time of impact ([`ClampReport::clamped`]), [`FirstTimeOfImpact`] where a safety
/// net stopped it ([`FirstToiReport::stopped`]).
///
/// [`MotionClamping`]: crate::MotionClamping
/// [`FirstTimeOfImpact`]: crate::FirstTimeOfImpact
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClampedBody {
    /// The body.
    pub body: BodyHandle,
    /// Where along its motion over the step the body stopped, in `[0, 1)`: its earliest
    /// safe time-of-impact fraction.
    pub fraction: Real,
    /// The simulated time the body lost, `(1 - fraction) * dt` seconds.
    pub time_lost: Real,
}

/// What [`MotionClamping`](crate::MotionClamping) reports about one step.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClampReport {
    /// The report of the discrete step that produced the targets.
    pub discrete: DiscreteReport,
    /// Impacts of touching pairs that closed fast at the start of the step, resolved before
    /// the contact solver's step (each one is a [`CollisionEvent`](crate::CollisionEvent)
    /// at fraction 0 in [`World::events`](crate::World::events); no hook is called).
    pub start_impacts: usize,
    /// CCD bodies whose motion exceeded the velocity threshold and was checked.
    pub checked_bodies: usize,
    /// Time-of-impact queries run (candidates of the checked bodies).
    pub toi_queries: usize,
    /// Candidate pairs skipped because the shapes overlapped at the start of the step (left
    /// to the contact solver).
    pub overlapping: usize,
    /// Candidate pairs skipped because the shapes were already within the target
    /// separation at the start (a hit at fraction 0), the step's contact manifolds held the
    /// pair, and the targets are still on the same side: the contact solver held them.
    pub touching: usize,
    /// Contacts the solver would have pushed through each other (their closest-point normal
    /// turned round over the step, which no time of impact sees since the pair overlapped):
    /// their dynamic bodies stay at their start poses (fraction 0, in `clamped`), and leave
    /// with one rigid motion, that of the two as one body (linear and angular momentum
    /// kept), or the other body's if it is not dynamic: clamped with the velocities that
    /// pushed them through, they were pushed through again at every step.
    pub crossings_stopped: usize,
    /// Pairs within the target separation at the start, held by the contact solver, whose
    /// targets still overlap beyond the tolerance or turned round: the checked body stays at
    /// its start (fraction 0, in `clamped`) and both leave moving as one body, as after
    /// [`crossings_stopped`](Self::crossings_stopped).
    pub closing_stopped: usize,
    /// Bodies stopped at the start of the step (fraction 0) in a group of touching bodies
    /// stopped there, moved on as one rigid body over the rest of the step, to the group's
    /// earliest safe fraction (see [`MotionClamping`](crate::MotionClamping)'s "One step");
    /// listed in `clamped` at that fraction if it is below 1.
    pub stopped_as_one: usize,
    /// Free bodies (dynamic, without joints) that a driver (a CCD body a joint's motor or
    /// spring drives, or a kinematic CCD body, moving past the threshold) passed into over
    /// the step, carried by it instead from where they met: each keeps its pose relative to
    /// the driver from then to the end of the step and ends at the velocity of the driver's
    /// point where it rests (see [`MotionClamping`](crate::MotionClamping)'s "One step").
    /// A carried body is in `clamped` only if its carried course met a static or kinematic
    /// body, where it stops.
    pub carried: usize,
    /// Dynamic drivers stopped where a free body they carry meets a static or kinematic body
    /// (a rigid wedge), listed in `clamped` at that fraction.
    pub stalled_drivers: usize,
    /// The bodies stopped short of their target, sorted by handle. A clamp at a time of
    /// impact changes a body's velocity only by the gravity of the time it lost (see the
    /// stepper's "One step"); the pairs of [`crossings_stopped`](Self::crossings_stopped)
    /// and [`closing_stopped`](Self::closing_stopped), listed here at fraction 0, leave
    /// moving as one, which against a static body is standing still: freed to slide along
    /// it, such a body was pressed through again at the next step, and the tumbling rain
    /// held hundreds of them in mid-air.
    pub clamped: Vec<ClampedBody>,
    /// The time lost over all clamped bodies (seconds): the sum of their `time_lost`.
    pub time_lost: Real,
}

/// What [`FirstTimeOfImpact`](crate::FirstTimeOfImpact) reports about one step. The events
/// themselves are in
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
    /// Impacts resolved (each is one [`CollisionEvent`](crate::CollisionEvent)).
    pub events: usize,
    /// Of `events`, the impacts on a body held by rigid joints, resolved for its whole
    /// jointed group (see [`FirstTimeOfImpact`](crate::FirstTimeOfImpact), "Jointed groups").
    pub group_impacts: usize,
    /// Jointed groups with a fast CCD body, advanced rigidly over the step in place of the
    /// contact solver's targets (see [`FirstTimeOfImpact`](crate::FirstTimeOfImpact),
    /// "Jointed groups").
    pub groups_advanced: usize,
    /// Queue entries dropped because a body had changed course since they were planned.
    pub invalidated: usize,
    /// The most entries the queue held at once.
    pub queue_peak: usize,
    /// Courses that left their body's reach (the box its neighbour list was made for) and
    /// cost a query of the step's neighbour grid; the others were planned from the list
    /// alone. With
    /// [`FirstTimeOfImpactSettings::reach_skin`](crate::FirstTimeOfImpactSettings::reach_skin),
    /// the escapes: bodies whose centre left the box it may roam, given a new reach and list
    /// there.
    pub reach_escapes: usize,
    /// Course changes that kept the plans of the body's course: a kinematic or driven body
    /// (the tumbler's drum) whose new course stays within a quarter of the tolerance of the
    /// one its queued impacts were planned on, to the end of the step, so it was not
    /// planned again.
    pub kept_plans: usize,
    /// Pairs handed to the contact solver as Zeno sequences, in the order it happened. A
    /// handed-over pair that meets again in the step stops its moving bodies there.
    pub zeno_pairs: Vec<(BodyHandle, BodyHandle)>,
    /// Bodies a motor-driven body carried against a static surface and could not slide out
    /// of the wedge between them (faces within 0.01 rad of parallel, or a slide too long for
    /// one chord of the turning pusher): each stopped there with its pusher, both listed in
    /// `stopped` (see `docs/algorithms/joints-ccd.md`, "Driven bodies").
    pub wedges: usize,
    /// Whether
    /// [`FirstTimeOfImpactSettings::max_events`](crate::FirstTimeOfImpactSettings::max_events)
    /// was reached.
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
    /// (see [`FirstTimeOfImpact`](crate::FirstTimeOfImpact)'s "Discs"). The counters mean the
    /// same there, with `reach_escapes` counting cell crossings.
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
