//! [`TunnelCounter`]: the bodies of a scene that pass through its static segments.

use super::{CourseRecorder, Scene};
use impact_broadphase::Broadphase;
use impact_geometry::{Point, Real, Shape, Vector, cross};
use impact_solver::BodyType;
use impact_stepper::{Stepper, World};

/// One static segment as [`TunnelCounter`] sees it.
#[derive(Debug, Clone, Copy)]
struct Line {
    a: Point,
    b: Point,
    /// Unit direction from `a` to `b`.
    direction: Vector,
    length: Real,
    /// The ends that no other static segment shares, which a body can go round.
    open: [Option<Point>; 2],
}

/// Counts the dynamic bodies of a scene that pass through its static segments, from body
/// positions alone, so that the bodies of any engine running the same scene are judged the
/// same way.
///
/// Feed it the positions (the origin of each body's pose; the centre of a disc) of the
/// scene's dynamic bodies, in the scene's order, after every step ([`TunnelCounter::observe`],
/// or [`TunnelCounter::observe_world`] for a [`World`] built by [`Scene::build`]). The start
/// of the scene counts as the first observation.
///
/// # Definition
/// A body *tunnelled* at an observation `p1`, after `p0` (and `p_prev` before that, `p0` at
/// the first step), if one of these holds:
/// 1. **It crossed a static segment.** `p0` and `p1` are strictly on opposite sides of the
///    segment's line, the chord from `p0` to `p1` meets the line within the segment, and no
///    path of length `S = max(|p1 - p0|, |p0 - p_prev|, dt max(|v0|, |v1|))` could have gone
///    round an open end `E` of the segment (an end no other static segment shares) instead:
///    for every such end, `|p0 - E| + |E - p1| > S`. `S` stands for the length of the body's
///    path over the step: its longer displacement over this step and the previous one, or
///    the step length times its faster speed at the two observations when the speeds are
///    given ([`TunnelCounter::observe_moving`], [`TunnelCounter::observe_world`]; a disc
///    that bounces back within a step travels further than either displacement). The last
///    condition is
///    there because a stepper that resolves impacts inside the step bends paths there: a disc
///    that passes the end of a segment and is then knocked back under it by another disc has
///    a chord that cuts through the segment. Any path from `p0` to `p1` that crosses the line
///    beyond `E` is at least `|p0 - E| + |E - p1|` long, so with a path no longer than `S`
///    the crossings counted are certain; the price is that a true crossing close to an open
///    end, at distance `d` with a chord of length `c`, is not counted when `2 sqrt((c/2)^2 +
///    d^2) <= S`, which is `d` up to about `sqrt(c r)` (0.5 m for a 5 m chord) for a body
///    that keeps its speed.
/// 2. **It left the box.** Only when the static segments close their bounding box below and
///    on both sides (one segment along the whole bottom edge, and one up each side from its
///    ends: the floor and walls of [`rain`]) and every dynamic body starts strictly inside:
///    its centre is below the box's bottom or beyond either side. Nothing gets there without
///    passing through the floor or a wall, since the walls are higher than any body flies, so
///    this count is certain and complete for the floor and the walls whatever the path.
/// 3. **It was lost.** Its position is not finite. Counted with the bodies that left the box.
///
/// Each body counts once, from the first observation at which it tunnelled on. `S` is an
/// estimate: a body sped up and slowed down again within one step, or that went back and
/// forth, can travel further than `S` and so round an end the counter thinks it could not
/// reach. A body that goes through a segment and back within one step is not seen.
#[derive(Debug, Clone)]
pub struct TunnelCounter {
    lines: Vec<Line>,
    /// Indices of `lines` by column of width `column_width` from `x0`: every line whose
    /// horizontal extent meets the column.
    columns: Vec<Vec<u32>>,
    x0: Real,
    column_width: Real,
    /// `(min x, max x, min y)` of the static segments, when every dynamic body starts inside.
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
    /// `observe_moving_via`'s turns sorted by body, its positions with the bodies that
    /// turned held still, and which bodies turned; kept from call to call.
    via: Vec<(usize, Point)>,
    straight: Vec<Point>,
    turned: Vec<bool>,
}

impl TunnelCounter {
    /// A counter for the static [`Segment`] bodies and the dynamic bodies of `scene`, which
    /// start at the poses of their definitions. Static bodies of other shapes, and kinematic
    /// bodies, are ignored.
    pub fn new(scene: &Scene) -> Self {
        let mut lines = Vec::new();
        let mut start = Vec::new();
        let mut speeds = Vec::new();
        for def in &scene.bodies {
            match (def.body_type, &def.shape) {
                (BodyType::Static, Shape::Segment(s)) => {
                    let (a, b) = (def.pose * s.a(), def.pose * s.b());
                    let length = (b - a).norm();
                    lines.push(Line {
                        a,
                        b,
                        direction: (b - a) / length,
                        length,
                        open: [Some(a), Some(b)],
                    });
                }
                (BodyType::Dynamic, _) => {
                    start.push(Point::from(def.pose.translation.vector));
                    speeds.push(def.linvel.norm());
                }
                _ => {}
            }
        }
        // An end shared with another segment (the floor's corners with the walls) cannot be
        // gone round: the other segment closes it.
        let ends: Vec<Point> = lines.iter().flat_map(|l| [l.a, l.b]).collect();
        for (i, line) in lines.iter_mut().enumerate() {
            for (k, end) in line.open.iter_mut().enumerate() {
                let shared = ends
                    .iter()
                    .enumerate()
                    .any(|(j, e)| j != 2 * i + k && (e - ends[2 * i + k]).norm() <= 1e-9);
                if shared {
                    *end = None;
                }
            }
        }

        let (mut x0, mut x1, mut y0) = (Real::INFINITY, Real::NEG_INFINITY, Real::INFINITY);
        for p in &ends {
            x0 = x0.min(p.x);
            x1 = x1.max(p.x);
            y0 = y0.min(p.y);
        }
        // A box only when the segments close it below and on both sides, as the rain's floor
        // and walls do; a lone segment's box says nothing about where bodies may go.
        let near = |a: Point, b: Point| (a - b).norm() <= 1e-9;
        let has = |from: Point, to: Point| {
            lines
                .iter()
                .any(|l| (near(l.a, from) && near(l.b, to)) || (near(l.a, to) && near(l.b, from)))
        };
        let (corner0, corner1) = (Point::new(x0, y0), Point::new(x1, y0));
        let top = |x: Real| {
            lines
                .iter()
                .filter(|l| l.a.x == x && l.b.x == x)
                .map(|l| l.a.y.max(l.b.y))
                .fold(y0, Real::max)
        };
        let closed = has(corner0, corner1)
            && has(corner0, Point::new(x0, top(x0)))
            && has(corner1, Point::new(x1, top(x1)));
        let container = (closed && start.iter().all(|p| x0 < p.x && p.x < x1 && y0 < p.y))
            .then_some((x0, x1, y0));

        // Columns about as wide as a fast disc's step, so a chord meets one to three of them;
        // never more than 4,096 columns, whatever the scene's extent.
        let (x0, column_width, count) = if lines.is_empty() {
            (0.0, 1.0, 1)
        } else {
            let width = ((x1 - x0) / 4096.0).max(2.0);
            (x0, width, ((x1 - x0) / width).floor() as usize + 1)
        };
        let mut counter = Self {
            lines,
            columns: vec![Vec::new(); count],
            x0,
            column_width,
            container,
            previous: start.iter().map(|&p| (p, p)).collect(),
            speeds,
            last_time: 0.0,
            tunnelled: vec![false; start.len()],
            count: 0,
            escaped: 0,
            scratch: (Vec::new(), Vec::new()),
            via: Vec::new(),
            straight: Vec::new(),
            turned: Vec::new(),
        };
        for i in 0..counter.lines.len() {
            let l = counter.lines[i];
            let columns = counter.columns_of(l.a.x.min(l.b.x), l.a.x.max(l.b.x));
            for column in &mut counter.columns[columns] {
                column.push(i as u32);
            }
        }
        counter
    }

    /// Takes the positions of the dynamic bodies after a step, in the scene's order, and
    /// returns how many bodies tunnelled for the first time (see the type's definition).
    ///
    /// # Panics
    /// If `positions` does not hold one position per dynamic body of the scene.
    pub fn observe(&mut self, positions: &[Point]) -> usize {
        self.speeds.fill(0.0);
        self.observe_paths(positions, |_, _| 0.0)
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
        assert_eq!(
            velocities.len(),
            self.previous.len(),
            "one velocity per dynamic body of the scene"
        );
        let new = self.observe_paths(positions, |i, before| dt * before.max(velocities[i].norm()));
        for (speed, v) in self.speeds.iter_mut().zip(velocities) {
            *speed = v.norm();
        }
        new
    }

    /// [`TunnelCounter::observe_moving`] for an engine that also says where bodies changed
    /// course inside the step: `turns` holds `(body, position)` for each such change (bodies
    /// in the scene's order of dynamic bodies, each body's turns in time order; a
    /// [`CourseRecorder`] collects them from [`FirstTimeOfImpact`](impact_stepper::FirstTimeOfImpact)'s
    /// impacts), and a body moves on a straight line between its turns.
    ///
    /// A body with turns is judged on its path itself, not on an estimate of it: it
    /// tunnelled if one of its legs (from the last observation to its first turn, from turn
    /// to turn, from its last turn to `positions`) crosses a static segment (case 1 of the
    /// type's definition with `S` the leg's length, which no way round an end can match, so
    /// every crossing of a segment's interior counts). A body that sped up at a turn and
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
        let mut via = core::mem::take(&mut self.via);
        via.clear();
        via.extend_from_slice(turns);
        // Stable: each body's turns keep their time order.
        via.sort_by_key(|&(body, _)| body);
        let mut straight = core::mem::take(&mut self.straight);
        straight.clear();
        straight.extend_from_slice(positions);
        let mut turned = core::mem::take(&mut self.turned);
        turned.clear();
        turned.resize(positions.len(), false);
        let mut newly = 0;
        for legs in via.chunk_by(|x, y| x.0 == y.0) {
            let i = legs[0].0;
            turned[i] = true;
            let (_, p0) = self.previous[i];
            if self.tunnelled[i] {
                continue;
            }
            let waypoints = core::iter::once(p0)
                .chain(legs.iter().map(|&(_, p)| p))
                .chain(core::iter::once(positions[i]));
            let mut from = p0;
            for to in waypoints.skip(1) {
                if self.outside(to) || self.crossed(from, from, to, 0.0) {
                    self.tunnelled[i] = true;
                    if self.outside(to) {
                        self.escaped += 1;
                    }
                    newly += 1;
                    break;
                }
                from = to;
            }
        }
        // The bodies with turns were judged above: the usual rule sees them stand still.
        for (i, p) in straight.iter_mut().enumerate() {
            if turned[i] {
                *p = self.previous[i].1;
            }
        }
        self.count += newly;
        newly += self.observe_paths(&straight, |i, before| dt * before.max(velocities[i].norm()));
        for (i, p) in positions.iter().enumerate() {
            if turned[i] {
                // `observe_paths` saw it stand at `p0`: its last two observations are
                // `(p0, p1)`.
                self.previous[i].1 = *p;
            }
        }
        for (speed, v) in self.speeds.iter_mut().zip(velocities) {
            *speed = v.norm();
        }
        self.via = via;
        self.straight = straight;
        self.turned = turned;
        newly
    }

    /// The observation, with `reach(i, speed before)` bounding body `i`'s path beyond its
    /// displacements.
    fn observe_paths(&mut self, positions: &[Point], reach: impl Fn(usize, Real) -> Real) -> usize {
        assert_eq!(
            positions.len(),
            self.previous.len(),
            "one position per dynamic body of the scene"
        );
        let mut new = 0;
        for (i, &p1) in positions.iter().enumerate() {
            let (p_prev, p0) = self.previous[i];
            let path = reach(i, self.speeds[i]);
            if !self.tunnelled[i] {
                if self.outside(p1) {
                    self.escaped += 1;
                    self.tunnelled[i] = true;
                    new += 1;
                } else if self.crossed(p_prev, p0, p1, path) {
                    self.tunnelled[i] = true;
                    new += 1;
                }
            }
            self.previous[i] = (p0, p1);
        }

        self.count += new;
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

    /// How many of [`TunnelCounter::tunnelled`] were counted because they left the box of
    /// the static segments or their position stopped being finite (cases 2 and 3 of the
    /// definition): the part of the count that holds whatever the bodies' paths.
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

    /// The columns that the horizontal extent `[lo, hi]` meets.
    fn columns_of(&self, lo: Real, hi: Real) -> core::ops::RangeInclusive<usize> {
        let last = (self.columns.len() - 1) as Real;
        let column =
            |x: Real| ((x - self.x0) / self.column_width).floor().clamp(0.0, last) as usize;
        column(lo)..=column(hi)
    }

    /// Cases 2 and 3 of the definition.
    fn outside(&self, p: Point) -> bool {
        !(p.x.is_finite() && p.y.is_finite())
            || self
                .container
                .is_some_and(|(x0, x1, y0)| p.x < x0 || p.x > x1 || p.y < y0)
    }

    /// Case 1 of the definition, for positions that are finite.
    fn crossed(&self, p_prev: Point, p0: Point, p1: Point, reach: Real) -> bool {
        let chord = p1 - p0;
        let path = chord.norm().max((p0 - p_prev).norm()).max(reach);
        self.columns[self.columns_of(p0.x.min(p1.x), p0.x.max(p1.x))]
            .iter()
            .flatten()
            .any(|&i| {
                let l = &self.lines[i as usize];
                let s0 = cross(&l.direction, &(p0 - l.a));
                let s1 = cross(&l.direction, &(p1 - l.a));
                if !((s0 > 0.0 && s1 < 0.0) || (s0 < 0.0 && s1 > 0.0)) {
                    return false;
                }
                let meet = p0 + chord * (s0 / (s0 - s1));
                let t = l.direction.dot(&(meet - l.a));
                (0.0..=l.length).contains(&t)
                    && l.open
                        .iter()
                        .flatten()
                        .all(|e| (p0 - e).norm() + (e - p1).norm() > path)
            })
    }
}
