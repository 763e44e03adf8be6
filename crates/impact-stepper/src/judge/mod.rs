//! Did a body pass through static geometry? One judge for every run: the `impact` tool's
//! summary, a viewer, and the tests and benches of any engine.
//!
//! The judge sees only where bodies were, one observation after each step, and where a
//! stepper says their courses turned inside the step; it shares nothing with the steppers
//! it judges. Three pieces:
//!
//! - [`PassThroughJudge`]: the static geometry and the rule, on points. Give it a body's
//!   [`Course`] between two observations and it answers with a [`Passage`] or nothing. Any
//!   engine's bodies can be judged this way.
//! - [`PassThroughDetector`]: the judge over a [`BodySet`](impact_solver::BodySet) observed
//!   after every step, following each dynamic body by its handle and reporting each
//!   [`PassThrough`] once.
//! - [`TurnRecorder`]: an [`ImpactHook`](crate::ImpactHook) that records where the bodies of
//!   each impact were, the turns of their courses inside the step.
//!
//! ```
//! use impact_geometry::{Circle, Isometry, Point, Segment, Vector};
//! use impact_solver::RigidBodyDef;
//! use impact_stepper::judge::{PassThroughDetector, TurnRecorder};
//! use impact_stepper::{Discrete, FirstTimeOfImpact, NoHook, World, WorldSettings};
//!
//! // A disc at 600 units/s toward a sheet of paper 1 unit away, at 60 Hz.
//! fn run<S: impact_stepper::Stepper + Default>() -> usize {
//!     let mut world: World<impact_broadphase::RTreeBroadphase, S> =
//!         World::new(WorldSettings::with_gravity(Vector::zeros())).unwrap();
//!     let paper = Segment::new(Point::new(1.0, -1.0), Point::new(1.0, 1.0)).unwrap();
//!     world.create_body(RigidBodyDef::fixed(paper.into())).unwrap();
//!     world
//!         .create_body(
//!             RigidBodyDef::new(Circle::new(0.05).unwrap().into())
//!                 .linvel(Vector::new(600.0, 0.0))
//!                 .restitution(1.0)
//!                 .ccd(true),
//!         )
//!         .unwrap();
//!     let mut detector = PassThroughDetector::new(world.body_set());
//!     let mut hook = TurnRecorder::new(NoHook);
//!     for step in 1..=10 {
//!         world.step_with(1.0 / 60.0, &mut hook).unwrap();
//!         detector.observe_with_turns(world.body_set(), step, &hook.turns(world.events()));
//!         hook.clear();
//!     }
//!     detector.found().len()
//! }
//! assert_eq!(run::<Discrete>(), 1, "without CCD the disc goes through the paper");
//! assert_eq!(run::<FirstTimeOfImpact>(), 0, "with it, it bounces");
//! ```

mod detector;
mod turns;

pub use detector::{PassThrough, PassThroughDetector, PassThroughKind};
pub use turns::TurnRecorder;

use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{Isometry, Point, Real, Shape, Vector, cross};

/// Two ends closer than this (world units) are one point: the end of one static line is
/// shared with another there.
const SHARED_END: Real = 1e-9;

/// One body's course between two observations, as the judge sees it. The points are each
/// body's centre of mass: contact keeps it out of static geometry, by the body's own size
/// (for a body whose shape is centred on its origin, the origin is the same point).
#[derive(Debug, Clone, Copy)]
pub struct Course<'a> {
    /// Where the body was at the observation before `from` (`from` itself at the first).
    pub before: Point,
    /// Where it was at the last observation.
    pub from: Point,
    /// Where it is now.
    pub to: Point,
    /// A bound on the length of its path over the step beyond its displacements: the
    /// step's length times the faster of its speeds at the two observations, or 0 when the
    /// speeds are not known.
    pub reach: Real,
    /// Where its course turned inside the step, in time order (an engine that resolves
    /// impacts inside the step knows; see [`TurnRecorder`]): the body went straight from
    /// `from` through each turn to `to`. Empty when the engine does not say.
    pub turns: &'a [Point],
}

/// How a body passed through static geometry: [`PassThroughJudge::judge`]'s answer.
/// Obstacles are numbered in the order given to [`PassThroughJudge::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Passage {
    /// Its centre crossed this obstacle: a segment, a capsule's axis, an edge of a polygon's
    /// core, or the middle of a disc.
    Crossed(usize),
    /// Its centre ended the step more than [`LINEAR_SLOP`] inside this obstacle (a disc,
    /// capsule or polygon), which did not hold it at the last observation.
    EndedInside(usize),
    /// Its position is no longer finite: wherever it went, it left the world. A world never
    /// gets there (a step that would is refused); another engine's body can.
    Lost,
}

/// The static geometry bodies must not pass through, and the rule that says whether one
/// did: the same for every stepper and every engine, since it reads only positions.
///
/// # The rule
/// A body whose [`Course`] goes from `from` to `to` *passed through* static geometry if,
/// checked in this order:
/// 1. **It was lost**: `to`, or a turn, is not finite ([`Passage::Lost`]).
/// 2. **It crossed an obstacle**: its path goes from strictly one side to strictly the
///    other of a static segment, of a static capsule's axis or of an edge of a static
///    polygon's core (rounded or not), at a point of it (ends included), and no path the
///    body could have taken went round an open end of it instead; or its path passes
///    within half a static disc's radius of the disc's centre. The path is the chord from
///    `from` to `to`, or, when the course has turns, each straight leg between them
///    ([`Passage::Crossed`], the first obstacle along the path).
/// 3. **It ended inside an obstacle**: `to` is more than [`LINEAR_SLOP`] inside a static
///    disc, capsule or polygon that did not hold `from` ([`Passage::EndedInside`]).
///
/// *Going round an end.* A stepper that resolves impacts inside the step, or a solver's
/// substeps, bend paths: a body turned round the end `E` of a segment by a contact, or
/// knocked back under it by another body, has a chord that cuts through the segment. Any
/// path from `from` to `to` that goes round `E` is at least `|from - E| + |E - to|` long,
/// so a crossing counts only where that is longer than `S`, the longest path the body may
/// have taken: the largest of `|to - from|`, `|from - before|` and [`Course::reach`]. For
/// a leg between turns, `S` is the leg's length: the leg is the path. An end is *closed*,
/// and has no such allowance, where another static line leaves the same point on the side
/// the body would have had to sweep round (the floor's corner with a wall, as seen from
/// inside the box; two collinear segments end to end): no path goes round it without
/// crossing that line. The price of the allowance: a true crossing at distance `d` from an
/// open end, by a chord of length `c` across the segment, is not counted when
/// `2 sqrt((c/2)^2 + d^2) <= S`, as for a disc that lands on a segment near its end after a
/// long fall and is pressed through it (`S` is then its fall, not its short last path).
///
/// *Why centres.* A body's centre never legitimately reaches a static body's core: contact
/// keeps it a body's size away (a disc's radius from a segment). The counts are certain
/// within the estimate `S`: a body that sped up and slowed down again within one step, or
/// went back and forth, can travel further than `S` and so round an end the judge thinks it
/// could not reach; a body that goes through and back within one step, without turns to
/// say so, is not seen.
#[derive(Debug, Clone)]
pub struct PassThroughJudge {
    lines: Vec<Line>,
    /// Per end of each line (`2 i` and `2 i + 1` for line `i`'s `a` and `b`): the range of
    /// `blockers` holding the directions of the other lines that leave that end.
    ends: Vec<(u32, u32)>,
    blockers: Vec<Vector>,
    discs: Vec<Disc>,
    solids: Vec<(usize, Solid)>,
    columns: Columns,
}

/// A static line: a segment, a capsule's axis or a polygon's edge, in the world.
#[derive(Debug, Clone, Copy)]
struct Line {
    obstacle: usize,
    a: Point,
    b: Point,
    /// Unit direction from `a` to `b`.
    direction: Vector,
    length: Real,
}

/// A static disc: its middle is crossed like a line.
#[derive(Debug, Clone, Copy)]
struct Disc {
    obstacle: usize,
    centre: Point,
    radius: Real,
}

/// A static body with an inside, in the world.
#[derive(Debug, Clone)]
enum Solid {
    /// A disc or capsule: within `radius` of the core from `a` to `b`.
    Rounded { a: Point, b: Point, radius: Real },
    /// A convex polygon: its vertices counter-clockwise, outward unit edge normals, and the
    /// radius it is rounded by (zero when sharp).
    Polygon {
        vertices: Vec<Point>,
        normals: Vec<Vector>,
        radius: Real,
    },
}

impl Solid {
    /// How far `p` is inside (positive inside, negative outside; a lower bound outside).
    fn depth(&self, p: &Point) -> Real {
        match self {
            Self::Rounded { a, b, radius } => {
                let ab = b - a;
                let t = if ab.norm_squared() > 0.0 {
                    ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                radius - (p - (a + ab * t)).norm()
            }
            Self::Polygon {
                vertices,
                normals,
                radius,
            } => {
                let core = vertices
                    .iter()
                    .zip(normals)
                    .map(|(v, n)| -n.dot(&(p - v)))
                    .fold(Real::INFINITY, Real::min);
                if core >= 0.0 || *radius == 0.0 {
                    return core + radius;
                }
                // Outside a rounded polygon's core: the radius less the distance to its
                // nearest edge.
                let n = vertices.len();
                let nearest = (0..n)
                    .map(|i| {
                        let (a, b) = (vertices[i], vertices[(i + 1) % n]);
                        let ab = b - a;
                        let t = ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
                        (p - (a + ab * t)).norm()
                    })
                    .fold(Real::INFINITY, Real::min);
                radius - nearest
            }
        }
    }
}

/// Which static features lie over which strip of `x`: a chord meets one to three columns,
/// whatever the number of obstacles.
#[derive(Debug, Clone)]
struct Columns {
    x0: Real,
    width: Real,
    /// Per column, the features whose horizontal extent meets it.
    features: Vec<Vec<Feature>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Feature {
    Line(u32),
    Disc(u32),
    Solid(u32),
}

impl Columns {
    /// Columns over `[x0, x1]` about as wide as a fast body's step; never more than 4,096,
    /// whatever the extent. One column when there is nothing to hold (`x0` and `x1` are the
    /// infinities their folds start from).
    fn new(x0: Real, x1: Real) -> Self {
        if !(x0.is_finite() && x1.is_finite()) {
            return Self {
                x0: 0.0,
                width: 1.0,
                features: vec![Vec::new()],
            };
        }
        let width = ((x1 - x0) / 4096.0).max(2.0);
        let count = ((x1 - x0) / width).floor() as usize + 1;
        Self {
            x0,
            width,
            features: vec![Vec::new(); count],
        }
    }

    /// The columns that the horizontal extent `[lo, hi]` meets.
    fn of(&self, lo: Real, hi: Real) -> core::ops::RangeInclusive<usize> {
        let last = (self.features.len() - 1) as Real;
        let column = |x: Real| ((x - self.x0) / self.width).floor().clamp(0.0, last) as usize;
        column(lo)..=column(hi)
    }

    fn insert(&mut self, lo: Real, hi: Real, feature: Feature) {
        let range = self.of(lo, hi);
        for column in &mut self.features[range] {
            column.push(feature);
        }
    }

    fn over(&self, lo: Real, hi: Real) -> impl Iterator<Item = Feature> + '_ {
        self.features[self.of(lo, hi)].iter().flatten().copied()
    }
}

impl PassThroughJudge {
    /// A judge of the static geometry `statics`: each obstacle's shape and pose, numbered in
    /// this order by the [`Passage`]s. Shapes with nothing to cross (a segment or capsule
    /// axis of zero length) are kept in the numbering but never reported.
    pub fn new<'a>(statics: impl IntoIterator<Item = (&'a Shape, &'a Isometry)>) -> Self {
        let mut lines = Vec::new();
        let mut discs = Vec::new();
        let mut solids = Vec::new();
        let mut line = |obstacle, a: Point, b: Point| {
            let d = b - a;
            let length = d.norm();
            if length > 0.0 && length.is_finite() {
                lines.push(Line {
                    obstacle,
                    a,
                    b,
                    direction: d / length,
                    length,
                });
            }
        };
        for (obstacle, (shape, pose)) in statics.into_iter().enumerate() {
            match shape {
                Shape::Segment(s) => line(obstacle, pose * s.a(), pose * s.b()),
                // Judged as its plain segment: a crossing from its back (which the chain's
                // one-sided rule lets through) counts as a crossing too.
                Shape::ChainSegment(s) => line(obstacle, pose * s.a(), pose * s.b()),
                Shape::Capsule(c) => {
                    let (a, b) = (pose * c.axis().a(), pose * c.axis().b());
                    line(obstacle, a, b);
                    let radius = c.radius();
                    solids.push((obstacle, Solid::Rounded { a, b, radius }));
                }
                Shape::Circle(c) => {
                    let centre = pose * c.center();
                    let radius = c.radius();
                    discs.push(Disc {
                        obstacle,
                        centre,
                        radius,
                    });
                    let (a, b) = (centre, centre);
                    solids.push((obstacle, Solid::Rounded { a, b, radius }));
                }
                Shape::Polygon(p) => {
                    let vertices: Vec<Point> = p.vertices().iter().map(|v| pose * v).collect();
                    let n = vertices.len();
                    for i in 0..n {
                        line(obstacle, vertices[i], vertices[(i + 1) % n]);
                    }
                    let normals = p.normals().iter().map(|n| pose.rotation * n).collect();
                    let radius = p.radius();
                    solids.push((
                        obstacle,
                        Solid::Polygon {
                            vertices,
                            normals,
                            radius,
                        },
                    ));
                }
            }
        }

        // Each end's blockers: the other lines that leave the same point.
        let points: Vec<Point> = lines.iter().flat_map(|l| [l.a, l.b]).collect();
        let mut ends = Vec::with_capacity(points.len());
        let mut blockers = Vec::new();
        for (k, end) in points.iter().enumerate() {
            let start = blockers.len() as u32;
            for (j, other) in points.iter().enumerate() {
                if j / 2 != k / 2 && (other - end).norm() <= SHARED_END {
                    let line = &lines[j / 2];
                    // From the shared point along the other line.
                    blockers.push(if j % 2 == 0 {
                        line.direction
                    } else {
                        -line.direction
                    });
                }
            }
            ends.push((start, blockers.len() as u32 - start));
        }

        let (mut x0, mut x1) = (Real::INFINITY, Real::NEG_INFINITY);
        let mut extents: Vec<(Real, Real, Feature)> = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            extents.push((l.a.x.min(l.b.x), l.a.x.max(l.b.x), Feature::Line(i as u32)));
        }
        for (i, d) in discs.iter().enumerate() {
            let (lo, hi) = (d.centre.x - d.radius, d.centre.x + d.radius);
            extents.push((lo, hi, Feature::Disc(i as u32)));
        }
        for (i, (_, solid)) in solids.iter().enumerate() {
            let (lo, hi) = match solid {
                Solid::Rounded { a, b, radius } => (a.x.min(b.x) - radius, a.x.max(b.x) + radius),
                Solid::Polygon {
                    vertices, radius, ..
                } => {
                    let (lo, hi) = vertices
                        .iter()
                        .fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), v| {
                            (lo.min(v.x), hi.max(v.x))
                        });
                    (lo - radius, hi + radius)
                }
            };
            extents.push((lo, hi, Feature::Solid(i as u32)));
        }
        for &(lo, hi, _) in &extents {
            x0 = x0.min(lo);
            x1 = x1.max(hi);
        }
        let mut columns = Columns::new(x0, x1);
        for (lo, hi, feature) in extents {
            columns.insert(lo, hi, feature);
        }
        Self {
            lines,
            ends,
            blockers,
            discs,
            solids,
            columns,
        }
    }

    /// Whether the body of `course` passed through static geometry (see the type's rule),
    /// and how.
    pub fn judge(&self, course: &Course<'_>) -> Option<Passage> {
        let finite = |p: &Point| p.x.is_finite() && p.y.is_finite();
        if !finite(&course.from) {
            return Some(Passage::Lost);
        }
        if course.turns.is_empty() {
            if !finite(&course.to) {
                return Some(Passage::Lost);
            }
            let chord = (course.to - course.from).norm();
            let path = chord
                .max((course.from - course.before).norm())
                .max(course.reach);
            if let Some(obstacle) = self.crossed(course.from, course.to, path) {
                return Some(Passage::Crossed(obstacle));
            }
        } else {
            // Leg by leg along the actual path, which holds each leg whole.
            let mut from = course.from;
            for &to in course.turns.iter().chain(core::iter::once(&course.to)) {
                if !finite(&to) {
                    return Some(Passage::Lost);
                }
                if let Some(obstacle) = self.crossed(from, to, (to - from).norm()) {
                    return Some(Passage::Crossed(obstacle));
                }
                from = to;
            }
        }
        self.inside(course.to)
            .filter(|&obstacle| self.inside(course.from) != Some(obstacle))
            .map(Passage::EndedInside)
    }

    /// The obstacle whose inside holds `p` more than [`LINEAR_SLOP`] deep (the first, if
    /// several do), if any.
    pub fn inside(&self, p: Point) -> Option<usize> {
        if !(p.x.is_finite() && p.y.is_finite()) {
            return None;
        }
        self.columns
            .over(p.x, p.x)
            .filter_map(|f| match f {
                Feature::Solid(i) => Some(&self.solids[i as usize]),
                _ => None,
            })
            .filter(|(_, solid)| solid.depth(&p) > LINEAR_SLOP)
            .map(|&(obstacle, _)| obstacle)
            .min()
    }

    /// The first obstacle along `p0 -> p1` that the body crossed on a path no longer than
    /// `path` (case 2 of the rule), if any.
    fn crossed(&self, p0: Point, p1: Point, path: Real) -> Option<usize> {
        let chord = p1 - p0;
        let len2 = chord.norm_squared();
        // The first crossing along the chord, then the lowest obstacle.
        let mut first: Option<(Real, usize)> = None;
        let mut keep = |along: Real, obstacle: usize| {
            if first.is_none_or(|(t, o)| along < t || (along == t && obstacle < o)) {
                first = Some((along, obstacle));
            }
        };
        for feature in self.columns.over(p0.x.min(p1.x), p0.x.max(p1.x)) {
            match feature {
                Feature::Line(i) => {
                    let i = i as usize;
                    let l = &self.lines[i];
                    let s0 = cross(&l.direction, &(p0 - l.a));
                    let s1 = cross(&l.direction, &(p1 - l.a));
                    if !((s0 > 0.0 && s1 < 0.0) || (s0 < 0.0 && s1 > 0.0)) {
                        continue;
                    }
                    let along = s0 / (s0 - s1);
                    let meet = p0 + chord * along;
                    let t = l.direction.dot(&(meet - l.a));
                    if (0.0..=l.length).contains(&t) && self.open_ends_out_of_reach(i, p0, p1, path)
                    {
                        keep(along, l.obstacle);
                    }
                }
                Feature::Disc(i) if len2 > 0.0 => {
                    let d = &self.discs[i as usize];
                    let along = (d.centre - p0).dot(&chord) / len2;
                    if 0.0 < along
                        && along < 1.0
                        && (p0 + chord * along - d.centre).norm() < 0.5 * d.radius
                    {
                        keep(along, d.obstacle);
                    }
                }
                _ => {}
            }
        }
        first.map(|(_, obstacle)| obstacle)
    }

    /// Whether no path from `p0` to `p1` of length `path` could have gone round an open end
    /// of line `i` instead of through it.
    fn open_ends_out_of_reach(&self, i: usize, p0: Point, p1: Point, path: Real) -> bool {
        let l = &self.lines[i];
        [(l.a, -l.direction, 2 * i), (l.b, l.direction, 2 * i + 1)]
            .into_iter()
            .all(|(end, beyond, k)| {
                self.closed(k, end, beyond, p0, p1) || (p0 - end).norm() + (end - p1).norm() > path
            })
    }

    /// Whether end `k` (at `end`, its line going on as `beyond` past it) is closed to a body
    /// going from `p0` to `p1`: another line leaves `end` inside the angle the body would
    /// sweep round it, from `p0` through `beyond` to `p1`.
    fn closed(&self, k: usize, end: Point, beyond: Vector, p0: Point, p1: Point) -> bool {
        let (start, count) = self.ends[k];
        if count == 0 {
            return false;
        }
        // Angles about `end` from `beyond`: `p0` and `p1` are on opposite sides of the
        // line, so the sweep round the end is the interval between their angles.
        let angle = |v: Vector| cross(&beyond, &v).atan2(beyond.dot(&v));
        let (a0, a1) = (angle(p0 - end), angle(p1 - end));
        let (lo, hi) = (a0.min(a1), a0.max(a1));
        self.blockers[start as usize..(start + count) as usize]
            .iter()
            .any(|&d| {
                let t = angle(d);
                lo < t && t < hi
            })
    }
}

#[cfg(test)]
mod tests;
