//! The world's contact and sensor events: what it keeps between steps (the pairs touching
//! and the sensor overlaps as the last step ended, the events of that step, the end events
//! of removals since), and the stage of a step that finds them once the stepper is done.
//!
//! Removing a body ends its pairs: between steps the end events wait for the next step's
//! events (timed at the removal), so a game that reads the events after each step sees
//! them; a body the impact hook removed ends its pairs in the step that removed it.

use super::World;
use crate::contact_events::{
    ContactEndEvent, ContactEvents, force_events, touch_events, touch_key,
};
use crate::rules::{CollisionRules, Scan};
use crate::sensing::{SenseStep, Sensing, SensorEvent, SensorEvents};
use crate::step_log::{CourseLog, ImpulseLog};
use crate::stepper::Stepper;
use impact_broadphase::Broadphase;
use impact_geometry::Real;
use impact_solver::{BodyHandle, ShapeId};

/// What the world keeps of its events from step to step.
#[derive(Debug, Clone, Default)]
pub(super) struct Tracking {
    /// The pairs touching as the last step started, sorted.
    pub(super) touching: Vec<(ShapeId, ShapeId)>,
    /// The (sensor shape, other shape) pairs overlapping as the last step ended, sorted.
    pub(super) overlaps: Vec<(ShapeId, ShapeId)>,
    /// The last step's events.
    pub(super) contact: ContactEvents,
    pub(super) sensor: SensorEvents,
    /// End events of bodies removed since the last step, for the next step's events.
    pub(super) pending_contact: Vec<ContactEndEvent>,
    pub(super) pending_sensor: Vec<SensorEvent>,
    /// Whether a body is a sensor and whether one has a contact force threshold, as of
    /// the last look at every body (see `World::rules_stale`).
    pub(super) scan: Scan,
    /// The caller asked for the courses of every step ([`World::record_courses`]).
    pub(super) record_courses: bool,
}

/// The buffers of one step's events, kept for their storage.
#[derive(Debug, Clone, Default)]
pub(super) struct TrackingScratch {
    pub(super) courses: CourseLog,
    pub(super) impulses: ImpulseLog,
    overlaps: Vec<(ShapeId, ShapeId)>,
    contact: ContactEvents,
    sensor: SensorEvents,
    sensing: Sensing,
}

/// When a removed body's pairs end.
#[derive(Debug, Clone, Copy)]
pub(super) enum Ending {
    /// Between steps: with the next step's events, at the world's time.
    Pending,
    /// Removed by the impact hook in the step of `dt` seconds that just ran: with its
    /// events, at its end.
    InStep { dt: Real },
}

impl<B: Broadphase, S: Stepper> World<B, S> {
    /// Keeps, from the next step on (`true`) or not, the courses the stepper moved bodies
    /// along inside each step, for [`World::courses`]: a test's judge of tunnelling or a
    /// tool that draws paths reads where a body went, not only where it ended. Recording
    /// only writes down what the stepper does; the steps are the same bit for bit. Off by
    /// default; a step of a world with a sensor (or with sleeping bodies) records them anyway.
    pub fn record_courses(&mut self, on: bool) {
        self.tracking.record_courses = on;
    }

    /// The courses of the last step, if it recorded them (see [`World::record_courses`]):
    /// `(body, from, sweep)` in the order the stepper recorded them: the bodies' records
    /// interleave, each body's in time order (its first course starts at 0, from its pose at
    /// the step's start), each running from `from` seconds into the step on `sweep` until the
    /// body's next one or, for its last, the end of the step, where the body ends (in a
    /// periodic domain, before it is wrapped back into the domain). Only the
    /// bodies whose motion was not one constant-velocity sweep about their centre of mass
    /// from their start pose to their end pose: a CCD stepper's stopped, clamped, carried,
    /// struck or group-moved bodies (see [`CourseLog`]). Empty under a stepper that does not
    /// follow courses ([`Stepper::follows_courses`]: [`Discrete`](crate::Discrete)).
    ///
    /// ```
    /// use impact_broadphase::RTreeBroadphase;
    /// use impact_geometry::{Circle, Isometry, Point, Segment, Vector};
    /// use impact_solver::{BodyType, RigidBodyDef};
    /// use impact_stepper::{FirstTimeOfImpact, World, WorldSettings};
    ///
    /// let settings = WorldSettings::with_gravity(Vector::zeros());
    /// let mut world: World<RTreeBroadphase, FirstTimeOfImpact> = World::new(settings)?;
    /// let wall = Segment::new(Point::new(1.0, -1.0), Point::new(1.0, 1.0))?;
    /// world.create_body(RigidBodyDef::new(wall.into()).body_type(BodyType::Static))?;
    /// let bullet = RigidBodyDef::new(Circle::new(0.05)?.into()).linvel(Vector::new(100.0, 0.0));
    /// let bullet = world.create_body(bullet.ccd(true))?;
    /// world.record_courses(true);
    /// world.step(1.0 / 60.0)?;
    /// // The bullet's course to the wall, then its course back from where it struck it.
    /// let legs: Vec<_> = world.courses().iter().filter(|c| c.0 == bullet).collect();
    /// assert_eq!(legs.len(), 2);
    /// assert_eq!(legs[0].1, 0.0);
    /// let struck = legs[1].2.pose_at(0.0).translation.x;
    /// assert!((struck - (1.0 - 0.05)).abs() < 0.01);
    /// let end = legs[1].2.pose_at(1.0);
    /// assert_eq!(end, *world.body(bullet).unwrap().pose());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn courses(&self) -> &[(BodyHandle, Real, impact_geometry::Sweep)] {
        self.scratch.tracking.courses.courses()
    }

    /// Before the stepper: the logs record what the step's events need (courses while a
    /// sensor exists and the stepper follows courses, impulses while a body has a
    /// contact force threshold).
    pub(super) fn start_logs(&mut self) {
        let scan = self.tracking.scan;
        let scratch = &mut self.scratch.tracking;
        // The courses are also the paths along which a body may meet a sleeping one
        // (`World::wake_along_paths`).
        let sleeping = self.bodies.asleep_len() > 0;
        let wanted = scan.sensors || sleeping || self.tracking.record_courses;
        scratch
            .courses
            .start(wanted && self.stepper.follows_courses());
        scratch.impulses.start(scan.force_thresholds);
    }

    /// After a successful stepper, before the bodies are wrapped into a periodic domain:
    /// the step's contact and sensor events, and the pairs touching and overlapping now.
    /// `dt` is the step's length, `rules` its rules.
    pub(super) fn record_events(&mut self, dt: Real, rules: &CollisionRules<'_>) {
        let time = self.time;
        let tracking = &mut self.tracking;
        let scratch = &mut self.scratch.tracking;
        scratch.contact.clear();
        scratch.contact.end.append(&mut tracking.pending_contact);
        sort_touched(&mut self.scratch.touched, &mut self.scratch.touched_at);
        touch_events(
            &tracking.touching,
            (
                &self.scratch.touched,
                &self.scratch.touched_at,
                &self.scratch.contacts,
            ),
            time,
            &mut scratch.contact,
        );
        if scratch.impulses.is_recording() {
            force_events(
                scratch.impulses.impulses_mut(),
                &self.scratch.events,
                (&self.bodies, dt, time),
                &mut scratch.contact,
            );
        }
        core::mem::swap(&mut tracking.touching, &mut self.scratch.touched);
        core::mem::swap(&mut tracking.contact, &mut scratch.contact);

        scratch.sensor.clear();
        scratch.sensor.end.append(&mut tracking.pending_sensor);
        if tracking.scan.sensors || !tracking.overlaps.is_empty() {
            let courses = self
                .stepper
                .follows_courses()
                .then(|| scratch.courses.courses());
            let step = SenseStep {
                bodies: &self.bodies,
                shapes: &self.shape_proxies,
                start: &self.scratch.before,
                rules,
                courses,
                dt,
                time,
                period: self.scratch.images.map(|images| images.size()),
            };
            scratch.sensing.step(
                step,
                &tracking.overlaps,
                &mut scratch.overlaps,
                &mut scratch.sensor,
            );
            core::mem::swap(&mut tracking.overlaps, &mut scratch.overlaps);
        } else {
            scratch.sensor.sort();
        }
        core::mem::swap(&mut tracking.sensor, &mut scratch.sensor);
    }

    /// Ends every pair of `handle` (a body being removed) that touches or overlaps a
    /// sensor, with end events `ending` says where.
    pub(super) fn end_pairs_of(&mut self, handle: BodyHandle, ending: Ending) {
        let tracking = &mut self.tracking;
        let (contact, sensor, time, fraction) = match ending {
            Ending::Pending => (
                &mut tracking.pending_contact,
                &mut tracking.pending_sensor,
                self.time,
                0.0,
            ),
            Ending::InStep { dt } => (
                &mut tracking.contact.end,
                &mut tracking.sensor.end,
                self.time + dt,
                1.0,
            ),
        };
        tracking.touching.retain(|&(a, b)| {
            let ends = a.body == handle || b.body == handle;
            if ends {
                contact.push(ContactEndEvent { a, b, time });
            }
            !ends
        });
        let before = sensor.len();
        tracking.overlaps.retain(|&(s, v)| {
            let ends = s.body == handle || v.body == handle;
            if ends {
                sensor.push(SensorEvent {
                    sensor: s,
                    visitor: v,
                    time,
                    fraction,
                });
            }
            !ends
        });
        if matches!(ending, Ending::InStep { .. }) && sensor.len() > before {
            tracking.sensor.sort();
        }
    }
}

/// Puts the step's touching pairs (and their contact indices) in [`touch_key`] order: the
/// order they were found in, by proxy, unless a body has several shapes.
fn sort_touched(touched: &mut Vec<(ShapeId, ShapeId)>, at: &mut Vec<u32>) {
    if touched.is_sorted_by_key(|&p| touch_key(p)) {
        return;
    }
    let mut both: Vec<((ShapeId, ShapeId), u32)> =
        touched.iter().copied().zip(at.iter().copied()).collect();
    both.sort_by_key(|&(p, _)| touch_key(p));
    touched.clear();
    at.clear();
    for (p, i) in both {
        touched.push(p);
        at.push(i);
    }
}
