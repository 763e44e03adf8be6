//! What a [`Stepper`](crate::Stepper) records during a step for the world's events, besides
//! the collision events: the courses bodies took inside the step ([`CourseLog`], for sensor
//! events) and the normal impulses the contacts applied ([`ImpulseLog`], for contact force
//! events).
//!
//! Both are off unless the world needs them (a sensor exists; a body has a contact force
//! threshold), and a stepper checks before it records, so a world without sensors or
//! thresholds pays one test per step for each.

use impact_geometry::{Real, Sweep, Vector};
use impact_solver::{BodyHandle, ContactSolver};

/// The courses bodies took inside a step, as the stepper moved them: for each body whose
/// motion was not one constant-velocity sweep from its start pose to its end pose over the
/// step, every leg of it. The world finds sensor events along them
/// ([`Stepper::follows_courses`](crate::Stepper::follows_courses)).
///
/// A stepper that records a body records its whole motion: its first course from time 0 (at
/// its start pose), then each change at the moment it happens, in time order. A body with
/// no course recorded moved in one constant-velocity sweep about its centre of mass from its
/// start pose to its end pose over the step (the chord both CCD steppers credit a body with).
///
/// ```
/// use impact_geometry::{Isometry, Point, Sweep, Vector};
/// use impact_solver::BodyHandle;
/// use impact_stepper::CourseLog;
///
/// let mut log = CourseLog::default();
/// let body = BodyHandle { index: 0, generation: 0 };
/// let sweep = Sweep::new(Isometry::identity(), Point::origin(), Vector::new(1.0, 0.0), 0.0, 0.5)?;
/// // A world without sensors does not ask: recording is off, and records are dropped.
/// assert!(!log.is_recording());
/// log.record(body, 0.0, sweep);
/// assert!(log.courses().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct CourseLog {
    recording: bool,
    courses: Vec<(BodyHandle, Real, Sweep)>,
}

impl CourseLog {
    /// Whether the world wants the courses this step (it has a sensor).
    #[inline]
    pub fn is_recording(&self) -> bool {
        self.recording
    }

    /// From `from` seconds into the step on, `body` moves on `sweep` (which starts at `from`
    /// and may run to the end of the step), until its next recorded course or the end of
    /// the step. Nothing is kept while the log is not recording.
    #[inline]
    pub fn record(&mut self, body: BodyHandle, from: Real, sweep: Sweep) {
        if self.recording {
            self.courses.push((body, from, sweep));
        }
    }

    /// Every course recorded this step, in the order recorded: body, start time (seconds
    /// into the step), sweep from there.
    #[inline]
    pub fn courses(&self) -> &[(BodyHandle, Real, Sweep)] {
        &self.courses
    }

    /// Drops every course recorded for `body` this step, to record its motion anew.
    pub(crate) fn forget(&mut self, body: BodyHandle) {
        self.courses.retain(|c| c.0 != body);
    }

    /// Empties the log for a step, recording or not.
    pub(crate) fn start(&mut self, recording: bool) {
        self.courses.clear();
        self.recording = recording;
    }
}

/// The normal impulse one pair of bodies took in a step, by one contact or impact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairImpulse {
    /// The first body (the smaller slot).
    pub a: BodyHandle,
    /// The second body.
    pub b: BodyHandle,
    /// The normal impulse, zero or more (newton seconds for kilograms, metres and seconds):
    /// `b` received it along `normal`, `a` the opposite.
    pub impulse: Real,
    /// The unit normal from `a` toward `b`.
    pub normal: Vector,
}

/// The normal impulses the contact solver applied in a step, per contact, for the world's
/// contact force events: each constraint's whole impulse over the step
/// ([`ConstraintPoint::total_normal_impulse`](impact_solver::ConstraintPoint::total_normal_impulse)
/// summed over its points). The impulses of the step's impacts the world takes from its
/// collision events.
///
/// A stepper that runs the contact solver asks it to count
/// ([`ImpulseLog::prepare`]) before the step, and hands it over ([`ImpulseLog::record_solver`])
/// after; both do nothing while the log is not recording.
#[derive(Debug, Clone, Default)]
pub struct ImpulseLog {
    recording: bool,
    impulses: Vec<PairImpulse>,
}

impl ImpulseLog {
    /// Whether the world wants the impulses this step (a body has a contact force
    /// threshold).
    #[inline]
    pub fn is_recording(&self) -> bool {
        self.recording
    }

    /// Asks `solver`, before its step, to count each point's whole normal impulse
    /// ([`ContactSolver::track_total_impulses`]), if the log is recording.
    #[inline]
    pub fn prepare(&self, solver: &mut ContactSolver) {
        if self.recording {
            solver.track_total_impulses();
        }
    }

    /// Records the whole normal impulse of each of `solver`'s constraints over its step,
    /// if the log is recording (the solver must have been prepared with
    /// [`ImpulseLog::prepare`]).
    pub fn record_solver(&mut self, solver: &ContactSolver) {
        if !self.recording {
            return;
        }
        debug_assert!(solver.tracks_total_impulses(), "prepared with `prepare`");
        for c in solver.constraints() {
            let (a, b) = c.bodies();
            let impulse = c.points().iter().map(|p| p.total_normal_impulse()).sum();
            self.record(PairImpulse {
                a,
                b,
                impulse,
                normal: c.normal(),
            });
        }
    }

    /// Records one impulse, if the log is recording.
    #[inline]
    pub fn record(&mut self, impulse: PairImpulse) {
        if self.recording {
            self.impulses.push(impulse);
        }
    }

    /// Every impulse recorded this step, in the order recorded.
    #[inline]
    pub fn impulses(&self) -> &[PairImpulse] {
        &self.impulses
    }

    /// Empties the log for a step, recording or not.
    pub(crate) fn start(&mut self, recording: bool) {
        self.impulses.clear();
        self.recording = recording;
    }

    /// The impulses, for the world to add the impacts' and sort.
    pub(crate) fn impulses_mut(&mut self) -> &mut Vec<PairImpulse> {
        &mut self.impulses
    }
}
