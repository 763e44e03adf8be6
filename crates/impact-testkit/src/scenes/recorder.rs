//! [`CourseRecorder`]: where the bodies of a world turned inside a step, and when.

use impact_broadphase::Broadphase;
use impact_geometry::{Point, Real, Sweep};
use impact_solver::BodyHandle;
use impact_stepper::{ClampedBody, Impact, ImpactHook, Stepper, World};

// The counters the recorded turns are for, named in the docs.
#[cfg(doc)]
use super::{CrossingCounter, TunnelCounter};

/// The largest angle (radians) a course turns over one of the pieces
/// [`CourseRecorder::note_courses`] follows it in.
const MOST_TURN_PER_PIECE: Real = 0.05;

/// The most pieces one course is followed in (a course turning 100 radians in a step).
const MOST_PIECES: Real = 2_000.0;

/// An [`ImpactHook`] that records where the dynamic bodies of a world are at each impact
/// inside a step, and when: the turns of their paths, for
/// [`TunnelCounter::observe_world_via`] and [`CrossingCounter::observe_world_timed`] (with
/// the stepper's stops noted, [`CourseRecorder::note_stops`], and the courses the world
/// recorded, [`CourseRecorder::note_courses`]). It only reads: a step with it is the step
/// without it, bit for bit.
///
/// ```
/// use impact_broadphase::RTreeBroadphase;
/// use impact_stepper::{FirstTimeOfImpact, World};
/// use impact_testkit::scenes::{self, CourseRecorder, CrossingCounter, TunnelCounter};
///
/// let scene = scenes::rain(100, 1);
/// let (mut world, _) = scene.build::<RTreeBroadphase, FirstTimeOfImpact>()?;
/// let mut counter = TunnelCounter::new(&scene);
/// let mut crossings = CrossingCounter::new(&scene);
/// let mut recorder = CourseRecorder::new(&world);
/// world.record_courses(true);
/// for _ in 0..30 {
///     let report = world.step_with(1.0 / 60.0, &mut recorder)?;
///     recorder.note_stops(&report.stepper.stopped, &world);
///     recorder.note_courses(&world, 1.0 / 60.0);
///     crossings.observe_world_timed(&world, recorder.turns(), recorder.fractions());
///     counter.observe_world_via(&world, &mut recorder);
/// }
/// assert_eq!((counter.tunnelled(), crossings.crossings()), (0, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct CourseRecorder {
    /// Per body slot: its handle and its index among the world's dynamic bodies in slot
    /// order (the scene's order for a world built by [`Scene::build`]).
    dynamic: Vec<Option<(BodyHandle, usize)>>,
    /// `(dynamic body, position)` at each impact, in time order, then at each stop given to
    /// [`CourseRecorder::note_stops`].
    turns: Vec<(usize, Point)>,
    /// The fraction of the step of each of `turns`.
    fractions: Vec<Real>,
}

impl CourseRecorder {
    /// A recorder for the dynamic bodies `world` holds now.
    pub fn new<B: Broadphase, S: Stepper>(world: &World<B, S>) -> Self {
        let mut dynamic = Vec::new();
        for (i, (handle, _)) in world.bodies().filter(|(_, b)| b.is_dynamic()).enumerate() {
            let slot = handle.index as usize;
            if dynamic.len() <= slot {
                dynamic.resize(slot + 1, None);
            }
            dynamic[slot] = Some((handle, i));
        }
        Self {
            dynamic,
            turns: Vec::new(),
            fractions: Vec::new(),
        }
    }

    /// The turns recorded since the last [`TunnelCounter::observe_world_via`]:
    /// `(dynamic body, position)` in time order.
    #[inline]
    pub fn turns(&self) -> &[(usize, Point)] {
        &self.turns
    }

    /// The fraction of the step at which each of [`CourseRecorder::turns`] happened, in the
    /// same order: with them, [`CrossingCounter::observe_timed`] follows each disc along its
    /// path in time.
    #[inline]
    pub fn fractions(&self) -> &[Real] {
        &self.fractions
    }

    /// Records, after a step, where and when the bodies of `stops` stopped (a stepper's
    /// stopped or clamped bodies, such as
    /// [`FirstToiReport::stopped`](impact_stepper::FirstToiReport::stopped)): a stopped body
    /// stays where `world` has it from its fraction on, and no impact says when its course
    /// bent there.
    pub fn note_stops<B: Broadphase, S: Stepper>(
        &mut self,
        stops: &[ClampedBody],
        world: &World<B, S>,
    ) {
        for stop in stops {
            let Some(&Some((known, i))) = self.dynamic.get(stop.body.index as usize) else {
                continue;
            };
            if let Some(body) = world.body(stop.body).filter(|_| known == stop.body) {
                self.turns
                    .push((i, Point::from(body.pose().translation.vector)));
                self.fractions.push(stop.fraction);
            }
        }
    }

    /// Replaces the turns of each body whose courses `world` recorded in its last step (a
    /// step of `dt` seconds, with [`World::record_courses`] on) with points along those
    /// courses, so that its path is the one the stepper moved it on. Call it after
    /// [`CourseRecorder::note_stops`], before the counters observe the step.
    ///
    /// The impacts and stops alone give a body's path as straight legs between them, which
    /// is its path only while it turns about its own centre of mass. A body that a CCD stepper
    /// moved as part of a rigid group (a group of touching bodies stopped at the start of the
    /// step and moved on as one, or a jointed group) turns about the group's centre: its origin
    /// follows an arc, which can pass round the end of a segment that the straight leg from
    /// its start to where it stopped crosses (a stick of the tumbling rain's seed 40 at 10,000
    /// bodies under `MotionClamping`, turning at 724 rad/s about a point 5.7 cm from its
    /// centre, 1.8 cm from the segment all the way). Each course is followed in pieces over
    /// which it turns by at most 0.05 radians, so that a piece's chord stays within
    /// `r (1 - cos(0.025))`, about `3e-4 r` (`r` the distance from the turning centre), of the
    /// arc.
    pub fn note_courses<B: Broadphase, S: Stepper>(&mut self, world: &World<B, S>, dt: Real) {
        if world.courses().is_empty() || dt <= 0.0 {
            return;
        }
        // Each body's courses together, in the order recorded (time order for each body;
        // the bodies' records interleave).
        let mut courses: Vec<(usize, Real, Sweep)> = world
            .courses()
            .iter()
            .filter_map(
                |&(body, from, sweep)| match self.dynamic.get(body.index as usize) {
                    Some(&Some((known, i))) if known == body => Some((i, from, sweep)),
                    _ => None,
                },
            )
            .collect();
        courses.sort_by_key(|c| c.0);
        // Their impacts and stops are on those courses: the courses replace them.
        let (mut turns, mut fractions) = (Vec::new(), Vec::new());
        for (&(i, point), &fraction) in self.turns.iter().zip(&self.fractions) {
            if courses.binary_search_by_key(&i, |c| c.0).is_err() {
                turns.push((i, point));
                fractions.push(fraction);
            }
        }
        (self.turns, self.fractions) = (turns, fractions);
        let mut start = 0;
        while start < courses.len() {
            let i = courses[start].0;
            let end = start + courses[start..].iter().take_while(|c| c.0 == i).count();
            let legs = courses[start..end]
                .iter()
                .map(|&(_, from, sweep)| (from, sweep));
            start = end;
            for (point, fraction) in course_points(legs, dt) {
                self.turns.push((i, point));
                self.fractions.push(fraction);
            }
        }
    }

    /// Forgets the turns recorded (done by [`TunnelCounter::observe_world_via`]).
    #[inline]
    pub fn clear(&mut self) {
        self.turns.clear();
        self.fractions.clear();
    }
}

/// The points a body's origin passes on its courses `legs` (`(from, sweep)`, in time order,
/// each running until the next one starts, the last to the end of a step of `dt` seconds),
/// with the fraction of the step at each: the end of every piece of at most
/// [`MOST_TURN_PER_PIECE`] radians of turn (see [`CourseRecorder::note_courses`]).
fn course_points(
    legs: impl Iterator<Item = (Real, Sweep)> + Clone,
    dt: Real,
) -> impl Iterator<Item = (Point, Real)> {
    let next_starts = legs
        .clone()
        .skip(1)
        .map(|(from, _)| from)
        .chain(core::iter::once(dt));
    legs.zip(next_starts)
        .flat_map(move |((from, sweep), until)| {
            let length = until - from;
            let pieces = if length > 0.0 && sweep.dt() > 0.0 {
                let turn = (sweep.angvel() * length).abs();
                (turn / MOST_TURN_PER_PIECE).ceil().clamp(1.0, MOST_PIECES) as usize
            } else {
                0
            };
            (1..=pieces).map(move |j| {
                let time = length * j as Real / pieces as Real;
                let pose = sweep.pose_at(time / sweep.dt());
                (
                    Point::from(pose.translation.vector),
                    ((from + time) / dt).clamp(0.0, 1.0),
                )
            })
        })
}

impl ImpactHook for CourseRecorder {
    fn on_impact(&mut self, impact: &mut Impact<'_>) {
        let event = *impact.event();
        for handle in [event.a, event.b] {
            let Some(&Some((known, i))) = self.dynamic.get(handle.index as usize) else {
                continue;
            };
            if known != handle {
                continue;
            }
            if let Some(pose) = impact.pose(handle) {
                self.turns.push((i, Point::from(pose.translation.vector)));
                self.fractions.push(event.fraction);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenes::{Scene, TunnelCounter};
    use impact_geometry::{Circle, Isometry, Segment, Vector};
    use impact_solver::RigidBodyDef;
    use impact_stepper::WorldSettings;

    const DT: Real = 1.0 / 60.0;

    /// A body whose origin turns 200 degrees about a point 0.3 from it, from above the left
    /// end of the segment from (0, 0) to (1, 0) to below it, round that end: its course, and
    /// the scene of the segment and the body at its start.
    fn round_the_end() -> (Sweep, Scene) {
        let centre = Point::new(-0.05, 0.0);
        let start = centre + 0.3 * Vector::new(80f64.to_radians().cos(), 80f64.to_radians().sin());
        let pose = Isometry::translation(start.x, start.y);
        let local_center = Point::from(centre - start);
        let turn = 200f64.to_radians();
        let sweep = Sweep::new(pose, local_center, Vector::zeros(), turn / DT, DT).unwrap();
        let segment = Segment::new(Point::origin(), Point::new(1.0, 0.0)).unwrap();
        let scene = Scene {
            name: "round the end".into(),
            settings: WorldSettings::default(),
            bodies: vec![
                RigidBodyDef::new(segment.into()).body_type(impact_solver::BodyType::Static),
                RigidBodyDef::new(Circle::new(0.01).unwrap().into()).pose(pose),
            ],
        };
        (sweep, scene)
    }

    #[test]
    fn the_points_of_a_course_lie_on_it_and_end_where_it_ends() {
        let (sweep, _) = round_the_end();
        // Two legs: the turn until half the step, then still.
        let half = sweep.pose_at(0.5);
        let still = Sweep::new(half, Point::origin(), Vector::zeros(), 0.0, 0.5 * DT).unwrap();
        let legs = [(0.0, sweep), (0.5 * DT, still)];
        let points: Vec<(Point, Real)> = course_points(legs.iter().copied(), DT).collect();
        // 100 degrees in pieces of at most 0.05 rad, then one piece for the still leg.
        assert_eq!(
            points.len(),
            (100f64.to_radians() / MOST_TURN_PER_PIECE).ceil() as usize + 1
        );
        let centre = sweep.center_at(0.0);
        for (k, &(p, fraction)) in points.iter().enumerate() {
            assert!(
                ((p - centre).norm() - 0.3).abs() < 1e-12,
                "on the arc: {p:?}"
            );
            assert!(k == 0 || fraction >= points[k - 1].1, "in time order");
        }
        let (last, fraction) = points[points.len() - 1];
        assert_eq!(fraction, 1.0);
        assert!((last - Point::from(half.translation.vector)).norm() < 1e-12);
    }

    #[test]
    fn a_body_that_turns_round_a_segment_end_is_judged_on_its_arc() {
        let (sweep, scene) = round_the_end();
        let end = Point::from(sweep.pose_at(1.0).translation.vector);
        assert!(
            end.x > 0.0 && end.y < 0.0,
            "it ends below the segment: {end:?}"
        );
        // Judged on the straight leg to where it stopped, it went through the segment...
        let mut straight = TunnelCounter::new(&scene);
        straight.observe_moving_via(&[end], &[Vector::zeros()], DT, &[(0, end)]);
        assert_eq!(straight.tunnelled(), 1);
        // ...judged on its course, round the end.
        let points: Vec<(usize, Point)> = course_points([(0.0, sweep)].into_iter(), DT)
            .map(|(p, _)| (0, p))
            .collect();
        let mut arc = TunnelCounter::new(&scene);
        arc.observe_moving_via(&[end], &[Vector::zeros()], DT, &points);
        assert_eq!(arc.tunnelled(), 0);
    }
}
