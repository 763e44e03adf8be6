//! [`TunnelCounter`]: the bodies of a scene that pass through its static geometry.

use super::{CourseRecorder, Scene};
use impact_broadphase::Broadphase;
use impact_geometry::{Point, Real, Shape, Vector};
use impact_solver::BodyType;
use impact_stepper::judge::{Course, PassThroughJudge, Passage};
use impact_stepper::{Stepper, World};

/// Counts the dynamic bodies of a scene that pass through its static geometry, from body
/// positions alone, so that the bodies of any engine running the same scene are judged the
/// same way.
///
/// Feed it the positions (the origin of each body's pose; the centre of a disc) of the
/// scene's dynamic bodies, in the scene's order, after every step ([`TunnelCounter::observe`],
/// or [`TunnelCounter::observe_world`] for a [`World`] built by [`Scene::build`]). The start
/// of the scene counts as the first observation.
///
/// # Definition
/// A body *tunnelled* at an observation when [`PassThroughJudge`], the judge of the `impact`
/// tool's summary, says it passed through the scene's static bodies since the last one: it
/// crossed a static segment, capsule axis, polygon edge or disc middle on a path that could
/// not have gone round an open end instead, ended inside a static disc, capsule or polygon,
/// or was lost (its position is not finite). The path's length `S`, against which going
/// round an end is weighed, is the body's longer displacement over this step and the
/// previous one, or the step length times its faster speed at the two observations when
/// the speeds are given ([`TunnelCounter::observe_moving`], [`TunnelCounter::observe_world`]:
/// a disc that bounces back within a step travels further than either displacement); a body
/// whose engine says where it turned inside the step is judged on its legs
/// ([`TunnelCounter::observe_moving_via`]). Each body counts once, from the first
/// observation at which it tunnelled on.
///
/// The positions are the bodies' origins, which the judge takes for their centres of mass:
/// the same points for the scenes here, whose shapes are centred on their origins.
///
/// [`TunnelCounter::escaped`] counts apart the bodies that were lost or, when counted, were
/// outside the box that the static segments close below and on both sides (one segment along
/// the whole bottom edge of their bounding box and one up each side from its ends: the floor
/// and walls of [`rain`](super::rain)), when every dynamic body starts strictly inside it:
/// with walls higher than any body flies, those went through the floor or a wall whatever
/// their paths.
#[derive(Debug, Clone)]
pub struct TunnelCounter {
    judge: PassThroughJudge,
    /// `(min x, max x, min y)` of the static segments, when they close that box below and on
    /// both sides and every dynamic body starts inside.
    container: Option<(Real, Real, Real)>,
    /// Each body's last two observations: `(p_prev, p0)`.
    previous: Vec<(Point, Point)>,
    /// Each body's speed at the last observation (at the start, its definition's), or zero
    /// where the speeds are not given.
    speeds: Vec<Real>,
    /// The world time of the last [`TunnelCounter::observe_world`] (the scene starts at 0).
    last_time: Real,
    tunnelled: Vec<bool>,
    count: usize,
    escaped: usize,
    /// The positions and velocities `observe_world` gathers, kept from call to call.
    scratch: (Vec<Point>, Vec<Vector>),
    /// An observation's turns sorted by body, and one body's legs; kept from call to call.
    via: Vec<(usize, Point)>,
    legs: Vec<Point>,
}

impl TunnelCounter {
    /// A counter for the static bodies and the dynamic bodies of `scene`, which start at the
    /// poses of their definitions. Kinematic bodies are ignored.
    pub fn new(scene: &Scene) -> Self {
        let statics: Vec<_> = scene
            .bodies
            .iter()
            .filter(|def| def.body_type == BodyType::Static)
            .collect();
        // Every shape of a static body (its first and those added with `with_shape`).
        let judge = PassThroughJudge::new(statics.iter().flat_map(|def| {
            core::iter::once(&def.shape)
                .chain(def.shapes.iter().map(|s| &s.shape))
                .map(move |shape| (shape, &def.pose))
        }));
        let (start, speeds): (Vec<Point>, Vec<Real>) = scene
            .bodies
            .iter()
            .filter(|def| def.body_type == BodyType::Dynamic)
            .map(|def| (Point::from(def.pose.translation.vector), def.linvel.norm()))
            .unzip();
        let segments: Vec<(Point, Point)> = statics
            .iter()
            .filter_map(|def| match &def.shape {
                Shape::Segment(s) => Some((def.pose * s.a(), def.pose * s.b())),
                _ => None,
            })
            .collect();
        let container = closed_box(&segments)
            .filter(|&(x0, x1, y0)| start.iter().all(|p| x0 < p.x && p.x < x1 && y0 < p.y));
        Self {
            judge,
            container,
            previous: start.iter().map(|&p| (p, p)).collect(),
            speeds,
            last_time: 0.0,
            tunnelled: vec![false; start.len()],
            count: 0,
            escaped: 0,
            scratch: (Vec::new(), Vec::new()),
            via: Vec::new(),
            legs: Vec::new(),
        }
    }

    /// Takes the positions of the dynamic bodies after a step, in the scene's order, and
    /// returns how many bodies tunnelled for the first time (see the type's definition).
    ///
    /// # Panics
    /// If `positions` does not hold one position per dynamic body of the scene.
    pub fn observe(&mut self, positions: &[Point]) -> usize {
        self.speeds.fill(0.0);
        self.observe_all(positions, None, &[])
    }

    /// [`TunnelCounter::observe`] with the bodies' velocities after the step too (in the same
    /// order), and the step's length `dt`: the path a body may have taken is then also bounded
    /// by `dt` times its faster speed at the two observations, which keeps a body that bounced
    /// back round the end of a segment within the step from counting.
    ///
    /// # Panics
    /// If `positions` or `velocities` does not hold one entry per dynamic body of the scene.
    pub fn observe_moving(
        &mut self,
        positions: &[Point],
        velocities: &[Vector],
        dt: Real,
    ) -> usize {
        self.observe_all(positions, Some((velocities, dt)), &[])
    }

    /// [`TunnelCounter::observe_moving`] for an engine that also says where bodies changed
    /// course inside the step: `turns` holds `(body, position)` for each such change (bodies
    /// in the scene's order of dynamic bodies, each body's turns in time order; a
    /// [`CourseRecorder`] collects them from
    /// [`FirstTimeOfImpact`](impact_stepper::FirstTimeOfImpact)'s impacts), and a body moves
    /// on a straight line between its turns.
    ///
    /// A body with turns is judged on its path itself, not on an estimate of it: it
    /// tunnelled if one of its legs (from the last observation to its first turn, from turn
    /// to turn, from its last turn to `positions`) crosses static geometry, with no allowance
    /// for going round an end, since the leg is the path. A body that sped up at a turn and
    /// slowed down at the next can travel much further in a step than its speeds at the
    /// observations allow for; without its turns it could pass round the end of a segment
    /// and be counted as having gone through it. Bodies without turns are judged as by
    /// [`TunnelCounter::observe_moving`].
    ///
    /// # Panics
    /// As [`TunnelCounter::observe_moving`], and if a body of `turns` is out of range.
    pub fn observe_moving_via(
        &mut self,
        positions: &[Point],
        velocities: &[Vector],
        dt: Real,
        turns: &[(usize, Point)],
    ) -> usize {
        self.observe_all(positions, Some((velocities, dt)), turns)
    }

    /// The observation: `positions`, with the velocities and step length when given, and
    /// the turns of the step.
    fn observe_all(
        &mut self,
        positions: &[Point],
        moving: Option<(&[Vector], Real)>,
        turns: &[(usize, Point)],
    ) -> usize {
        assert_eq!(
            positions.len(),
            self.previous.len(),
            "one position per dynamic body of the scene"
        );
        if let Some((velocities, _)) = moving {
            assert_eq!(
                velocities.len(),
                self.previous.len(),
                "one velocity per dynamic body of the scene"
            );
        }
        let mut via = core::mem::take(&mut self.via);
        via.clear();
        via.extend_from_slice(turns);
        // Stable: each body's turns keep their time order.
        via.sort_by_key(|&(body, _)| body);
        assert!(
            via.last().is_none_or(|&(body, _)| body < positions.len()),
            "a turn of a body out of range"
        );
        let mut legs = core::mem::take(&mut self.legs);
        let mut next_turn = 0;
        let mut new = 0;
        for (i, &p1) in positions.iter().enumerate() {
            let first = next_turn;
            while next_turn < via.len() && via[next_turn].0 == i {
                next_turn += 1;
            }
            let (p_prev, p0) = self.previous[i];
            if !self.tunnelled[i] {
                legs.clear();
                legs.extend(via[first..next_turn].iter().map(|&(_, p)| p));
                let reach = moving.map_or(0.0, |(velocities, dt)| {
                    dt * self.speeds[i].max(velocities[i].norm())
                });
                let course = Course {
                    before: p_prev,
                    from: p0,
                    to: p1,
                    reach,
                    turns: &legs,
                };
                if let Some(passage) = self.judge.judge(&course) {
                    self.tunnelled[i] = true;
                    new += 1;
                    let outside = |p: &Point| {
                        self.container
                            .is_some_and(|(x0, x1, y0)| p.x < x0 || p.x > x1 || p.y < y0)
                    };
                    if passage == Passage::Lost || legs.iter().chain([&p1]).any(outside) {
                        self.escaped += 1;
                    }
                }
            }
            self.previous[i] = (p0, p1);
        }
        if let Some((velocities, _)) = moving {
            for (speed, v) in self.speeds.iter_mut().zip(velocities) {
                *speed = v.norm();
            }
        }
        self.count += new;
        self.via = via;
        self.legs = legs;
        new
    }

    /// [`TunnelCounter::observe_moving`] with the positions and velocities of the dynamic
    /// bodies of `world`, in slot order (the scene's order for a world built by
    /// [`Scene::build`] with no body removed since), and the world time since the last call
    /// (or since 0, where a built scene starts) as `dt`.
    ///
    /// # Panics
    /// If the world does not hold one dynamic body per dynamic body of the scene.
    pub fn observe_world<B: Broadphase, S: Stepper>(&mut self, world: &World<B, S>) -> usize {
        self.observe_world_with(world, |counter, positions, velocities, dt| {
            counter.observe_moving(positions, velocities, dt)
        })
    }

    /// Gathers the positions and velocities of the dynamic bodies of `world` (slot order)
    /// and the world time since the last call, and hands them to `observe`.
    fn observe_world_with<B: Broadphase, S: Stepper>(
        &mut self,
        world: &World<B, S>,
        observe: impl FnOnce(&mut Self, &[Point], &[Vector], Real) -> usize,
    ) -> usize {
        let (mut positions, mut velocities) = core::mem::take(&mut self.scratch);
        positions.clear();
        velocities.clear();
        for (_, b) in world.bodies().filter(|(_, b)| b.is_dynamic()) {
            positions.push(Point::from(b.pose().translation.vector));
            velocities.push(b.linvel());
        }
        let dt = world.time() - self.last_time;
        self.last_time = world.time();
        let new = observe(self, &positions, &velocities, dt);
        self.scratch = (positions, velocities);
        new
    }

    /// [`TunnelCounter::observe_world`] with the turns `recorder` saw in the step (see
    /// [`TunnelCounter::observe_moving_via`]), which it then forgets, ready for the next step.
    /// Give the recorder to [`World::step_with`] for every step observed this way.
    ///
    /// # Panics
    /// As [`TunnelCounter::observe_world`].
    pub fn observe_world_via<B: Broadphase, S: Stepper>(
        &mut self,
        world: &World<B, S>,
        recorder: &mut CourseRecorder,
    ) -> usize {
        let new = self.observe_world_with(world, |counter, positions, velocities, dt| {
            counter.observe_moving_via(positions, velocities, dt, recorder.turns())
        });
        recorder.clear();
        new
    }

    /// How many bodies have tunnelled so far.
    #[inline]
    pub fn tunnelled(&self) -> usize {
        self.count
    }

    /// How many of [`TunnelCounter::tunnelled`] were outside the box of the static segments
    /// when counted (see the type's docs), or lost: the part of the count that holds
    /// whatever the bodies' paths.
    #[inline]
    pub fn escaped(&self) -> usize {
        self.escaped
    }

    /// Whether dynamic body `i` (in the scene's order of dynamic bodies) has tunnelled.
    ///
    /// # Panics
    /// If `i` is not below the number of dynamic bodies.
    #[inline]
    pub fn is_tunnelled(&self, i: usize) -> bool {
        self.tunnelled[i]
    }

    /// How many dynamic bodies the counter follows.
    #[inline]
    pub fn bodies(&self) -> usize {
        self.previous.len()
    }
}

/// `(min x, max x, min y)` of `segments` when they close their bounding box below and on
/// both sides: one segment along the whole bottom edge, and one up each side from its ends,
/// as the rain's floor and walls do. A lone segment's box says nothing about where bodies
/// may go.
fn closed_box(segments: &[(Point, Point)]) -> Option<(Real, Real, Real)> {
    let (mut x0, mut x1, mut y0) = (Real::INFINITY, Real::NEG_INFINITY, Real::INFINITY);
    for p in segments.iter().flat_map(|&(a, b)| [a, b]) {
        x0 = x0.min(p.x);
        x1 = x1.max(p.x);
        y0 = y0.min(p.y);
    }
    let near = |a: Point, b: Point| (a - b).norm() <= 1e-9;
    let has = |from: Point, to: Point| {
        segments
            .iter()
            .any(|&(a, b)| (near(a, from) && near(b, to)) || (near(a, to) && near(b, from)))
    };
    let (corner0, corner1) = (Point::new(x0, y0), Point::new(x1, y0));
    let top = |x: Real| {
        segments
            .iter()
            .filter(|(a, b)| a.x == x && b.x == x)
            .map(|(a, b)| a.y.max(b.y))
            .fold(y0, Real::max)
    };
    let closed = has(corner0, corner1)
        && has(corner0, Point::new(x0, top(x0)))
        && has(corner1, Point::new(x1, top(x1)));
    closed.then_some((x0, x1, y0))
}
