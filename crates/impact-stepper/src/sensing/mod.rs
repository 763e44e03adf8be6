//! Sensor events: when a shape begins and ends overlapping a sensor shape
//! ([`SensorEvents`], [`World::sensor_events`](crate::World::sensor_events)).
//!
//! A sensor is a shape: a body may have sensor shapes beside solid ones (a door's body and
//! the zone in front of it), each seen and reported on its own, named by its [`ShapeId`].
//! The world finds the events after each step, from where the bodies went: a search over
//! every shape's box over its body's courses gives the pairs of a sensor shape and another
//! shape that can have met, and each pair is followed along the two bodies' courses
//! (`crossing`) under a stepper that follows courses
//! ([`Stepper::follows_courses`](crate::Stepper::follows_courses): both CCD steppers), or
//! judged at the step's end otherwise ([`Discrete`](crate::Discrete)). The search is its own
//! (a sort and sweep over the boxes, the wrapped grid in a periodic domain), by proxy index
//! (every shape is its own proxy, named by the world's [`ShapeProxies`]), run only while the
//! world has a sensor: the steppers' searches never see a sensor, so every other body steps
//! bit for bit as without one.
//!
//! What a sensor sees: the shapes whose filters and its own let them meet
//! ([`PairKind::Sense`](crate::PairKind::Sense)), of static, kinematic or dynamic bodies, but
//! not other sensors (an event names one sensor and one shape that is not), not the shapes
//! of its own body (they move as one), and not the shapes of two bodies of which neither
//! moves (a static sensor does not see static bodies). The pair filter hook decides
//! collisions, not sensing, and is not asked.

mod crossing;
mod search;

use crate::motion::rebuilt_sweep;
use crate::rules::CollisionRules;
use crate::shape_proxies::ShapeProxies;
use crossing::{Side, crossings};
use impact_geometry::{Aabb, Isometry, Real, Shape, Sweep, Vector};
use impact_solver::{BodyHandle, BodySet, BodyType, RigidBody, ShapeId};
use search::PairSearch;

/// A shape began or ended overlapping a sensor shape.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SensorEvent {
    /// The sensor shape.
    pub sensor: ShapeId,
    /// The other shape (its handle is stale if its body was removed, its index if the
    /// shape was removed from its body).
    pub visitor: ShapeId,
    /// When (seconds, absolute): the world's time at the start of the step plus
    /// `fraction * dt`.
    pub time: Real,
    /// When in the step, as a fraction of its `dt` in `[0, 1]`: where the shapes' distance
    /// reached zero (a begin) or became positive again (an end) along their courses under a
    /// stepper that follows courses; 1 under [`Discrete`](crate::Discrete), which judges
    /// overlaps at the step's end; 0 for an end because the filters no longer let the two
    /// meet or because a body or shape was removed between steps.
    pub fraction: Real,
}

/// The sensor events of one step ([`World::sensor_events`](crate::World::sensor_events)):
/// the overlaps that began and those that ended, each in time order (then by sensor shape
/// and other shape). A shape that enters and leaves a sensor inside one step has both.
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

    /// Puts both lists in time order, then sensor and other shape order.
    pub(crate) fn sort(&mut self) {
        let key = |e: &SensorEvent| (e.sensor, e.visitor);
        for list in [&mut self.begin, &mut self.end] {
            list.sort_by(|x, y| x.time.total_cmp(&y.time).then(key(x).cmp(&key(y))));
        }
    }
}

/// What the world knows of a step it looks for sensor events in.
pub(crate) struct SenseStep<'a> {
    pub(crate) bodies: &'a BodySet,
    /// The shape of each proxy.
    pub(crate) shapes: &'a ShapeProxies,
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
    /// Per proxy: the shape's box over the step, if it can be in a pair.
    boxes: Vec<Option<Aabb>>,
    search: PairSearch,
    /// The step's pairs: (sensor, other shape, translation of the other's image).
    pairs: Vec<(ShapeId, ShapeId, Vector)>,
}

impl Sensing {
    /// The sensor events of `step` into `events`, and the pairs overlapping at its end into
    /// `next` (sorted), from those overlapping as the last step ended, `previous` (sorted by
    /// sensor shape, then other shape).
    pub(crate) fn step(
        &mut self,
        step: SenseStep<'_>,
        previous: &[(ShapeId, ShapeId)],
        next: &mut Vec<(ShapeId, ShapeId)>,
        events: &mut SensorEvents,
    ) {
        next.clear();
        let follows = step.courses.is_some();
        let slots = step.bodies.slot_count().max(step.shapes.len());
        self.lay_courses((slots, step.start), step.courses);
        self.lay_boxes(&step, slots);
        self.search.pairs(
            &self.boxes,
            (step.bodies, step.shapes, step.rules),
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
        let at = |list: &mut Vec<SensorEvent>, (s, v): (ShapeId, ShapeId), t: Real| {
            list.push(SensorEvent {
                sensor: s,
                visitor: v,
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
            let (Some((s, s_shape)), Some((v, v_shape))) = (
                shape_of(step.bodies, sensor),
                shape_of(step.bodies, visitor),
            ) else {
                continue;
            };
            let (s_slot, v_slot) = (sensor.body.index, visitor.body.index);
            let is = if follows {
                if self.legs(s_slot).is_empty() || self.legs(v_slot).is_empty() {
                    continue;
                }
                let side = |slot: u32, shape, shift| Side {
                    shape,
                    legs: self.legs(slot),
                    shift,
                };
                crossings(
                    side(s_slot, s_shape, Vector::zeros()),
                    side(v_slot, v_shape, shift),
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
                let is =
                    impact_narrowphase::distance(s_shape, s.pose(), v_shape, &pose).distance <= 0.0;
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

    /// Every shape's box that can be in a pair, by proxy (a world of `slots` slots): the
    /// sensor shapes', and the other shapes' but for those of static bodies while every
    /// sensor shape is on a static body (neither would move).
    fn lay_boxes(&mut self, step: &SenseStep<'_>, slots: usize) {
        self.boxes.clear();
        self.boxes.resize(slots, None);
        let moving_sensor = step
            .bodies
            .iter()
            .any(|(_, b)| b.body_type() != BodyType::Static && b.has_sensor());
        for (handle, body) in step.bodies.iter() {
            let still = body.body_type() == BodyType::Static;
            let shapes = body.shapes();
            let proxies = step.shapes.proxies_of(handle.index, shapes.len());
            for (shape, proxy) in shapes.iter().zip(proxies) {
                if !moving_sensor && still && !shape.is_sensor() {
                    continue;
                }
                let aabb = self
                    .boxed(step, (handle.index, body), shape.shape())
                    .filter(crate::motion::is_finite);
                if let Some(slot) = self.boxes.get_mut(proxy.index()) {
                    *slot = aabb;
                }
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

    /// The box of `shape` of the body in `slot` over the step (its courses' boxes, or around
    /// its chord), or at its end pose when overlaps are judged there; `None` for a body
    /// without one.
    fn boxed(
        &self,
        step: &SenseStep<'_>,
        (slot, body): (u32, &RigidBody),
        shape: &Shape,
    ) -> Option<Aabb> {
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
        let start = self.start_of(step, slot, body)?;
        let end = body.pose();
        if start.rotation == end.rotation {
            return Some(shape.aabb(&start).merged(&shape.aabb(end)));
        }
        let center = body.local_center();
        let (c0, c1) = (start * center, end * center);
        let r = shape.bounding_radius(&center);
        Some(Aabb::new(c0.inf(&c1), c0.sup(&c1)).inflated(r))
    }

    /// The start pose of the body in `slot`: the step's, or for a sleeping body (which the
    /// step leaves out) where it lies.
    fn start_of(&self, step: &SenseStep<'_>, slot: u32, body: &RigidBody) -> Option<Isometry> {
        match self.start.get(slot as usize).copied().flatten() {
            Some(start) => Some(start),
            None if step.bodies.is_asleep_at(slot) => Some(*body.pose()),
            None => None,
        }
    }

    /// The chord of every body of the step's pairs that has no recorded course: its
    /// constant-velocity sweep from its start pose to its end pose, as the CCD steppers
    /// credit it with.
    fn lay_chords(&mut self, step: &SenseStep<'_>) {
        for i in 0..self.pairs.len() {
            let (sensor, visitor, _) = self.pairs[i];
            for handle in [sensor.body, visitor.body] {
                let slot = handle.index as usize;
                let (lo, hi) = self.ranges[slot];
                if hi > lo || self.chords[slot].is_some() {
                    continue;
                }
                let Some(body) = step.bodies.get(handle) else {
                    continue;
                };
                let Some(start) = self.start_of(step, handle.index, body) else {
                    continue;
                };
                self.chords[slot] = rebuilt_sweep(body, &start, step.dt).map(|chord| (0.0, chord));
            }
        }
    }
}

/// The body of shape `id` and the shape's geometry, if both exist.
fn shape_of(bodies: &BodySet, id: ShapeId) -> Option<(&RigidBody, &Shape)> {
    let body = bodies.get(id.body)?;
    let shape = body.shapes().get(id.index as usize)?;
    Some((body, shape.shape()))
}
