//! Sensor events: when a body begins and ends overlapping a sensor ([`SensorEvents`],
//! [`World::sensor_events`](crate::World::sensor_events)).
//!
//! The world finds them after each step, from where the bodies went: a search over every
//! body's box over the step gives the pairs of a sensor and a body that can have met, and
//! each pair is followed along the two bodies' courses (`crossing`) under a stepper that
//! follows courses ([`Stepper::follows_courses`](crate::Stepper::follows_courses): both CCD
//! steppers), or judged at the step's end otherwise ([`Discrete`](crate::Discrete)). The
//! search is its own (a sort and sweep over the boxes, the wrapped grid in a periodic
//! domain), run only while the world has a sensor: the steppers' searches never see a
//! sensor, so every other body steps bit for bit as without one.
//!
//! What a sensor sees: the bodies whose filters and its own let them meet
//! ([`PairKind::Sense`](crate::PairKind::Sense)), static, kinematic or dynamic, but not other
//! sensors (an event names one sensor and one body that is not), and not two bodies of which
//! neither moves (a static sensor does not see static bodies). The pair filter hook decides
//! collisions, not sensing, and is not asked.

mod crossing;
mod search;

use crate::motion::rebuilt_sweep;
use crate::rules::CollisionRules;
use crossing::{Side, crossings};
use impact_geometry::{Aabb, Isometry, Real, Sweep, Vector};
use impact_solver::{BodyHandle, BodySet, BodyType, ShapeId};
use search::PairSearch;

/// A body began or ended overlapping a sensor.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SensorEvent {
    /// The sensor's shape.
    pub sensor: ShapeId,
    /// The other shape (its handle is stale if its body was removed).
    pub visitor: ShapeId,
    /// When (seconds, absolute): the world's time at the start of the step plus
    /// `fraction * dt`.
    pub time: Real,
    /// When in the step, as a fraction of its `dt` in `[0, 1]`: where the shapes' distance
    /// reached zero (a begin) or became positive again (an end) along their courses under a
    /// stepper that follows courses; 1 under [`Discrete`](crate::Discrete), which judges
    /// overlaps at the step's end; 0 for an end because the filters no longer let the two
    /// meet or because a body was removed between steps.
    pub fraction: Real,
}

/// The sensor events of one step ([`World::sensor_events`](crate::World::sensor_events)):
/// the overlaps that began and those that ended, each in time order (then by sensor and
/// body). A body that enters and leaves a sensor inside one step has both.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SensorEvents {
    pub(crate) begin: Vec<SensorEvent>,
    pub(crate) end: Vec<SensorEvent>,
}

impl SensorEvents {
    /// The overlaps that began.
    #[inline]
    pub fn begin(&self) -> &[SensorEvent] {
        &self.begin
    }

    /// The overlaps that ended.
    #[inline]
    pub fn end(&self) -> &[SensorEvent] {
        &self.end
    }

    /// Whether there is no event at all.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.begin.is_empty() && self.end.is_empty()
    }

    pub(crate) fn clear(&mut self) {
        self.begin.clear();
        self.end.clear();
    }

    /// Puts both lists in time order, then sensor and body order.
    pub(crate) fn sort(&mut self) {
        let key = |e: &SensorEvent| (e.sensor.body, e.visitor.body);
        for list in [&mut self.begin, &mut self.end] {
            list.sort_by(|x, y| x.time.total_cmp(&y.time).then(key(x).cmp(&key(y))));
        }
    }
}

/// What the world knows of a step it looks for sensor events in.
pub(crate) struct SenseStep<'a> {
    pub(crate) bodies: &'a BodySet,
    pub(crate) proxies: &'a [Option<BodyHandle>],
    /// Every body's pose at the start of the step, in slot order.
    pub(crate) start: &'a [(BodyHandle, Isometry, Vector, Real)],
    pub(crate) rules: &'a CollisionRules<'a>,
    /// The courses the stepper recorded, if it follows courses; `None` to judge the
    /// overlaps at the step's end.
    pub(crate) courses: Option<&'a [(BodyHandle, Real, Sweep)]>,
    pub(crate) dt: Real,
    pub(crate) time: Real,
    /// The periods of a periodic domain.
    pub(crate) period: Option<Vector>,
}

/// The world's buffers for sensor events, kept from step to step for their storage.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sensing {
    /// Per slot: the body's courses, `courses[ranges[slot]]` (its chord if it has none).
    ranges: Vec<(u32, u32)>,
    courses: Vec<(Real, Sweep)>,
    /// The log's order by slot: `(slot << 32) | index`.
    order: Vec<u64>,
    chords: Vec<Option<(Real, Sweep)>>,
    start: Vec<Option<Isometry>>,
    /// Per slot: the body's box over the step, if it can be in a pair.
    boxes: Vec<Option<Aabb>>,
    search: PairSearch,
    /// The step's pairs: (sensor, body, translation of the body's image).
    pairs: Vec<(BodyHandle, BodyHandle, Vector)>,
}

impl Sensing {
    /// The sensor events of `step` into `events`, and the pairs overlapping at its end into
    /// `next` (sorted), from those overlapping as the last step ended, `previous` (sorted by
    /// sensor, then body).
    pub(crate) fn step(
        &mut self,
        step: SenseStep<'_>,
        previous: &[(BodyHandle, BodyHandle)],
        next: &mut Vec<(BodyHandle, BodyHandle)>,
        events: &mut SensorEvents,
    ) {
        next.clear();
        let follows = step.courses.is_some();
        self.lay_courses((step.proxies.len(), step.start), step.courses);
        self.lay_boxes(&step);
        self.search.pairs(
            &self.boxes,
            (step.bodies, step.proxies, step.rules),
            step.period,
            &mut self.pairs,
        );
        if follows {
            self.lay_chords(&step);
        }
        let mut old = previous.iter().peekable();
        // A pair that no longer meets at all (the filters changed) ended at the start; one
        // judged at the step's end, there.
        let apart_at = if follows { 0.0 } else { step.dt };
        let at = |list: &mut Vec<SensorEvent>, (s, v): (BodyHandle, BodyHandle), t: Real| {
            list.push(SensorEvent {
                sensor: ShapeId::first_of(s),
                visitor: ShapeId::first_of(v),
                time: step.time + t,
                fraction: (t / step.dt).clamp(0.0, 1.0),
            });
        };
        for i in 0..self.pairs.len() {
            let (sensor, visitor, shift) = self.pairs[i];
            let pair = (sensor, visitor);
            while let Some(&&gone) = old.peek()
                && gone < pair
            {
                at(&mut events.end, gone, apart_at);
                old.next();
            }
            let was = old.peek() == Some(&&pair);
            if was {
                old.next();
            }
            let (Some(s), Some(v)) = (step.bodies.get(sensor), step.bodies.get(visitor)) else {
                continue;
            };
            let is = if follows {
                if self.legs(sensor.index).is_empty() || self.legs(visitor.index).is_empty() {
                    continue;
                }
                let side = |slot: u32, shape, shift| Side {
                    shape,
                    legs: self.legs(slot),
                    shift,
                };
                crossings(
                    side(sensor.index, s.shape(), Vector::zeros()),
                    side(visitor.index, v.shape(), shift),
                    was,
                    step.dt,
                    |begin, t| {
                        let list = if begin {
                            &mut events.begin
                        } else {
                            &mut events.end
                        };
                        at(list, pair, t);
                    },
                )
            } else {
                let pose = crate::domain::translated(v.pose(), &shift);
                let is = impact_narrowphase::distance(s.shape(), s.pose(), v.shape(), &pose)
                    .distance
                    <= 0.0;
                match (was, is) {
                    (false, true) => at(&mut events.begin, pair, step.dt),
                    (true, false) => at(&mut events.end, pair, step.dt),
                    _ => {}
                }
                is
            };
            if is {
                next.push(pair);
            }
        }
        for &gone in old {
            at(&mut events.end, gone, apart_at);
        }
        events.sort();
    }

    /// Every slot's start pose (`start`, of a world of `slots` slots), and the courses the
    /// stepper recorded (`log`), by slot.
    fn lay_courses(
        &mut self,
        (slots, start): (usize, &[(BodyHandle, Isometry, Vector, Real)]),
        log: Option<&[(BodyHandle, Real, Sweep)]>,
    ) {
        self.start.clear();
        self.start.resize(slots, None);
        for &(handle, pose, _, _) in start {
            if let Some(p) = self.start.get_mut(handle.index as usize) {
                *p = Some(pose);
            }
        }
        self.ranges.clear();
        self.ranges.resize(slots, (0, 0));
        self.courses.clear();
        self.chords.clear();
        self.chords.resize(slots, None);
        let Some(log) = log else {
            return;
        };
        // By slot, each body's courses in the order (of time) they were recorded: the keys
        // sorted, not the courses (a sweep is most of a hundred bytes, and a step of the
        // rain records thousands).
        self.order.clear();
        self.order.extend(
            log.iter()
                .enumerate()
                .map(|(i, c)| (u64::from(c.0.index) << 32) | i as u64),
        );
        self.order.sort_unstable();
        for group in self.order.chunk_by(|x, y| x >> 32 == y >> 32) {
            let slot = (group[0] >> 32) as usize;
            let lo = self.courses.len() as u32;
            self.courses.extend(group.iter().map(|&key| {
                let (_, t, sweep) = log[(key & u64::from(u32::MAX)) as usize];
                (t, sweep)
            }));
            debug_assert!(
                self.courses[lo as usize..].is_sorted_by(|x, y| x.0 <= y.0),
                "courses in time order"
            );
            if let Some(r) = self.ranges.get_mut(slot) {
                *r = (lo, self.courses.len() as u32);
            }
        }
    }

    /// Every body's box that can be in a pair: the sensors', and the other bodies' but for
    /// static ones while every sensor is static (neither would move).
    fn lay_boxes(&mut self, step: &SenseStep<'_>) {
        self.boxes.clear();
        self.boxes.resize(step.proxies.len(), None);
        let moving_sensor = step
            .bodies
            .iter()
            .any(|(_, b)| b.is_sensor() && b.body_type() != BodyType::Static);
        for (handle, body) in step.bodies.iter() {
            if !moving_sensor && !body.is_sensor() && body.body_type() == BodyType::Static {
                continue;
            }
            let aabb = self
                .boxed(step, handle.index)
                .filter(crate::motion::is_finite);
            if let Some(slot) = self.boxes.get_mut(handle.index as usize) {
                *slot = aabb;
            }
        }
    }

    /// The courses of `slot`: those recorded, or its chord (none if it has neither).
    fn legs(&self, slot: u32) -> &[(Real, Sweep)] {
        let (lo, hi) = self.ranges[slot as usize];
        if hi > lo {
            &self.courses[lo as usize..hi as usize]
        } else {
            self.chords[slot as usize].as_slice()
        }
    }

    /// The box of the body of `slot` over the step (its courses' boxes, or around its
    /// chord), or at its end pose when overlaps are judged there; `None` for a body without
    /// one.
    fn boxed(&self, step: &SenseStep<'_>, slot: u32) -> Option<Aabb> {
        let handle = step.proxies.get(slot as usize).copied().flatten()?;
        let body = step.bodies.get(handle)?;
        let shape = body.shape();
        if step.courses.is_none() {
            return Some(shape.aabb(body.pose()));
        }
        let (lo, hi) = self.ranges[slot as usize];
        if hi > lo {
            return self.courses[lo as usize..hi as usize]
                .iter()
                .map(|(_, sweep)| Aabb::swept(shape, sweep))
                .reduce(|x, y| x.merged(&y));
        }
        // A box that holds the whole chord, without the chord itself (laid only for the
        // bodies of a pair, see `Sensing::lay_chords`): a shape that does not turn sweeps
        // the box of its two ends' boxes; one that turns stays within its bounding radius of
        // its centre of mass, which goes straight from where it starts to where it ends.
        let start = self.start[slot as usize]?;
        let end = body.pose();
        if start.rotation == end.rotation {
            return Some(shape.aabb(&start).merged(&shape.aabb(end)));
        }
        let center = body.local_center();
        let (c0, c1) = (start * center, end * center);
        let r = shape.bounding_radius(&center);
        Some(Aabb::new(c0.inf(&c1), c0.sup(&c1)).inflated(r))
    }

    /// The chord of every body of the step's pairs that has no recorded course: its
    /// constant-velocity sweep from its start pose to its end pose, as the CCD steppers
    /// credit it with.
    fn lay_chords(&mut self, step: &SenseStep<'_>) {
        for i in 0..self.pairs.len() {
            let (sensor, visitor, _) = self.pairs[i];
            for handle in [sensor, visitor] {
                let slot = handle.index as usize;
                let (lo, hi) = self.ranges[slot];
                if hi > lo || self.chords[slot].is_some() {
                    continue;
                }
                let (Some(body), Some(start)) = (step.bodies.get(handle), self.start[slot]) else {
                    continue;
                };
                self.chords[slot] = rebuilt_sweep(body, &start, step.dt).map(|chord| (0.0, chord));
            }
        }
    }
}
