//! Checks of a run that need nothing but body states: energy and momentum (the state hash
//! is [`BodySet::state_hash`]),
//! and [`PassThroughDetector`], which says which bodies passed through static geometry
//! (told, through [`TurnRecorder`], where paths turned inside a step when the stepper turns
//! them there).

use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{Point, Real, Shape, Vector, cross};
use impact_solver::{BodyHandle, BodySet};
use impact_stepper::{CollisionEvent, Impact, ImpactHook};

/// Kinetic plus potential energy of the dynamic bodies in `gravity`: the sum of
/// `m v^2 / 2 + I w^2 / 2 - m g . c` (potential zero at the origin). Static and kinematic
/// bodies have none: nothing can change what they have.
pub fn mechanical_energy(bodies: &BodySet, gravity: Vector) -> Real {
    bodies
        .iter()
        .filter(|(_, b)| b.is_dynamic())
        .map(|(_, b)| b.kinetic_energy() - b.mass() * gravity.dot(&b.center_of_mass().coords))
        // `sum` of no floats is -0.0; a world without dynamic bodies has +0 energy.
        .fold(0.0, |total, e| total + e)
}

/// The linear momentum of the dynamic bodies, `sum m v`.
pub fn linear_momentum(bodies: &BodySet) -> Vector {
    bodies
        .iter()
        .map(|(_, b)| b.linear_momentum())
        .fold(Vector::zeros(), |a, p| a + p)
}

/// How a body passed through static geometry (see [`PassThroughDetector`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PassThroughKind {
    /// Its centre of mass crossed a static segment, a capsule's axis, a polygon's edge or
    /// the middle of a static disc between two observations.
    Crossed,
    /// Its centre of mass ended an observation inside a static body it was not inside at the
    /// previous one.
    EndedInside,
}

/// One body that passed through static geometry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PassThrough {
    /// The dynamic body.
    pub body: BodyHandle,
    /// The static body it passed through.
    pub obstacle: BodyHandle,
    /// The observation at which it was seen (the step count passed to
    /// [`PassThroughDetector::observe`]).
    pub step: u64,
    /// How.
    pub kind: PassThroughKind,
    /// Whether the body has the `ccd` flag.
    pub ccd: bool,
}

/// A static line feature: a segment, a capsule's axis or a polygon's edge, in the world.
#[derive(Debug, Clone, Copy)]
struct Line {
    owner: BodyHandle,
    a: Point,
    /// Unit direction from `a`.
    direction: Vector,
    length: Real,
}

/// A static body with an inside, in the world.
#[derive(Debug, Clone)]
enum Solid {
    /// A disc or capsule: within `radius` of the core from `a` to `b`.
    Rounded { a: Point, b: Point, radius: Real },
    /// A convex polygon: its vertices counter-clockwise, and outward unit edge normals.
    Polygon {
        vertices: Vec<Point>,
        normals: Vec<Vector>,
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
            Self::Polygon { vertices, normals } => vertices
                .iter()
                .zip(normals)
                .map(|(v, n)| -n.dot(&(p - v)))
                .fold(Real::INFINITY, Real::min),
        }
    }
}

/// What the detector remembers of a dynamic body between observations.
#[derive(Debug, Clone, Copy)]
struct Track {
    handle: BodyHandle,
    position: Point,
    /// The static body whose inside holds the centre, if any.
    inside: Option<BodyHandle>,
    /// Reported already: each body is reported once.
    reported: bool,
}

/// Says which dynamic bodies passed through static geometry, from body states alone, so any
/// stepper (or any engine) is judged the same way.
///
/// Observe the bodies after every step. The criterion, checked for each dynamic body on the
/// straight chord its centre of mass took between two observations:
///
/// 1. **Crossed**: the chord goes from strictly one side to strictly the other of a static
///    segment, of a static capsule's axis, or of an edge of a static polygon, at a point of
///    it at least `r` from both of its ends, where `r` is the body's bounding radius about
///    its centre of mass (nearer an end, a body going round it within one step, turned by
///    its contact, can cut the corner with its chord); or the chord passes within half a
///    static disc's radius of the disc's centre, at a point strictly between the chord's
///    ends. A body's centre never legitimately reaches a static body's core or a polygon's
///    boundary: contact keeps it a radius away.
/// 2. **Ended inside**: the centre ends the observation more than
///    [`LINEAR_SLOP`] inside a static disc, capsule or polygon that did not hold it at the
///    previous observation.
///
/// Each body is reported once, at the first observation that shows it. Static bodies never
/// move, so their geometry is taken when the detector is made; kinematic bodies are not
/// obstacles (they move, and the chord test assumes still geometry). A body created later is
/// followed from the first observation that sees it; a removed one is forgotten.
///
/// A stepper that resolves impacts inside the step (`FirstTimeOfImpact`) bends a body's
/// path there: the chord of a bent path can cross what the path went round, or miss what
/// the path crossed and crossed back. [`observe_with_turns`](Self::observe_with_turns) takes
/// where each body was at each such impact ([`TurnRecorder`] collects them): a body with
/// turns is judged on the straight legs between them instead of on its chord, each leg a
/// part of its actual path (the stepper's courses are straight between impacts), with no
/// allowance for going round an end, since no path shorter than the leg is assumed.
#[derive(Debug, Clone)]
pub struct PassThroughDetector {
    lines: Vec<Line>,
    discs: Vec<(BodyHandle, Point, Real)>,
    solids: Vec<(BodyHandle, Solid)>,
    /// Per body slot.
    tracks: Vec<Option<Track>>,
    found: Vec<PassThrough>,
}

impl PassThroughDetector {
    /// A detector for the static bodies of `bodies`, with the dynamic bodies where they are
    /// now as the first observation.
    pub fn new(bodies: &BodySet) -> Self {
        let mut lines = Vec::new();
        let mut discs = Vec::new();
        let mut solids = Vec::new();
        let mut line = |owner, a: Point, b: Point| {
            let d = b - a;
            let length = d.norm();
            if length > 0.0 && length.is_finite() {
                lines.push(Line {
                    owner,
                    a,
                    direction: d / length,
                    length,
                });
            }
        };
        for (handle, body) in bodies.iter() {
            if body.body_type() != impact_solver::BodyType::Static {
                continue;
            }
            let pose = body.pose();
            match body.shape() {
                Shape::Segment(s) => line(handle, pose * s.a(), pose * s.b()),
                Shape::Capsule(c) => {
                    let (a, b) = (pose * c.axis().a(), pose * c.axis().b());
                    line(handle, a, b);
                    solids.push((
                        handle,
                        Solid::Rounded {
                            a,
                            b,
                            radius: c.radius(),
                        },
                    ));
                }
                Shape::Circle(c) => {
                    let centre = pose * c.center();
                    discs.push((handle, centre, c.radius()));
                    solids.push((
                        handle,
                        Solid::Rounded {
                            a: centre,
                            b: centre,
                            radius: c.radius(),
                        },
                    ));
                }
                Shape::Polygon(p) => {
                    let vertices: Vec<Point> = p.vertices().iter().map(|v| pose * v).collect();
                    let n = vertices.len();
                    for i in 0..n {
                        line(handle, vertices[i], vertices[(i + 1) % n]);
                    }
                    let normals = p.normals().iter().map(|n| pose.rotation * n).collect();
                    solids.push((handle, Solid::Polygon { vertices, normals }));
                }
            }
        }
        let mut detector = Self {
            lines,
            discs,
            solids,
            tracks: Vec::new(),
            found: Vec::new(),
        };
        detector.sync(bodies, None, &[]);
        detector
    }

    /// Takes the bodies after a step (`step` is recorded in what is found) and returns how
    /// many bodies were found passing through static geometry for the first time.
    pub fn observe(&mut self, bodies: &BodySet, step: u64) -> usize {
        self.observe_with_turns(bodies, step, &[])
    }

    /// [`observe`](Self::observe), told where bodies turned inside the step: `turns` holds a
    /// body and its centre of mass at each impact the stepper resolved inside the step, in
    /// time order (see [`TurnRecorder::turns`]). A body with turns is judged leg by leg (see
    /// the type's docs); turns of bodies that are not dynamic are ignored.
    pub fn observe_with_turns(
        &mut self,
        bodies: &BodySet,
        step: u64,
        turns: &[(BodyHandle, Point)],
    ) -> usize {
        let before = self.found.len();
        self.sync(bodies, Some(step), turns);
        self.found.len() - before
    }

    /// Every body found so far, in the order found.
    pub fn found(&self) -> &[PassThrough] {
        &self.found
    }

    fn sync(&mut self, bodies: &BodySet, step: Option<u64>, turns: &[(BodyHandle, Point)]) {
        // By slot, each body's turns still in time order (a stable sort): a body finds its
        // own in one search, not a scan of every impact of the step.
        let mut turns = turns.to_vec();
        turns.sort_by_key(|(h, _)| h.index);
        let mut seen = vec![false; self.tracks.len()];
        for (handle, body) in bodies.iter() {
            if !body.is_dynamic() {
                continue;
            }
            let slot = handle.index as usize;
            if self.tracks.len() <= slot {
                self.tracks.resize(slot + 1, None);
                seen.resize(slot + 1, false);
            }
            seen[slot] = true;
            let p1 = body.center_of_mass();
            let inside = self.inside(&p1);
            let previous = self.tracks[slot].filter(|t| t.handle == handle);
            let mut reported = previous.is_some_and(|t| t.reported);
            if let (Some(step), Some(t)) = (step, previous)
                && !reported
            {
                let margin = body.shape().bounding_radius(&body.local_center());
                let first = turns.partition_point(|(h, _)| h.index < handle.index);
                let mut path = turns[first..]
                    .iter()
                    .take_while(|(h, _)| h.index == handle.index)
                    .filter(|(h, _)| *h == handle)
                    .map(|(_, p)| *p)
                    .peekable();
                let crossed = if path.peek().is_none() {
                    self.crossed(&t.position, &p1, margin)
                } else {
                    // Leg by leg along the actual path, which holds each leg whole.
                    let mut from = t.position;
                    path.chain(core::iter::once(p1)).find_map(|to| {
                        let leg = self.crossed(&from, &to, 0.0);
                        from = to;
                        leg
                    })
                };
                let hit = crossed
                    .map(|owner| (owner, PassThroughKind::Crossed))
                    .or_else(|| {
                        inside
                            .filter(|&owner| t.inside != Some(owner))
                            .map(|owner| (owner, PassThroughKind::EndedInside))
                    });
                if let Some((obstacle, kind)) = hit {
                    reported = true;
                    self.found.push(PassThrough {
                        body: handle,
                        obstacle,
                        step,
                        kind,
                        ccd: body.ccd(),
                    });
                }
            }
            self.tracks[slot] = Some(Track {
                handle,
                position: p1,
                inside,
                reported,
            });
        }
        for (slot, seen) in seen.into_iter().enumerate() {
            if !seen {
                self.tracks[slot] = None;
            }
        }
    }

    /// The static body holding `p` more than the slop deep, if any.
    fn inside(&self, p: &Point) -> Option<BodyHandle> {
        if !(p.x.is_finite() && p.y.is_finite()) {
            return None;
        }
        self.solids
            .iter()
            .find(|(_, s)| s.depth(p) > LINEAR_SLOP)
            .map(|(h, _)| *h)
    }

    /// The static body whose line or disc the chord `p0 -> p1` crosses, if any.
    fn crossed(&self, p0: &Point, p1: &Point, margin: Real) -> Option<BodyHandle> {
        if !(p1.x.is_finite() && p1.y.is_finite()) {
            return None;
        }
        let chord = p1 - p0;
        let line = self.lines.iter().find(|l| {
            let s0 = cross(&l.direction, &(p0 - l.a));
            let s1 = cross(&l.direction, &(p1 - l.a));
            if !((s0 > 0.0 && s1 < 0.0) || (s0 < 0.0 && s1 > 0.0)) {
                return false;
            }
            let meet = p0 + chord * (s0 / (s0 - s1));
            let t = l.direction.dot(&(meet - l.a));
            margin <= t && t <= l.length - margin
        });
        if let Some(l) = line {
            return Some(l.owner);
        }
        let len2 = chord.norm_squared();
        if len2 == 0.0 {
            return None;
        }
        self.discs
            .iter()
            .find(|(_, c, r)| {
                let t = (c - p0).dot(&chord) / len2;
                0.0 < t && t < 1.0 && (p0 + chord * t - c).norm() < 0.5 * r
            })
            .map(|(h, _, _)| *h)
    }
}

/// An [`ImpactHook`] that records where the two bodies of each impact were (their centres of
/// mass at the impact), for [`PassThroughDetector::observe_with_turns`] and for traces, and
/// then hands the impact to `inner`. It only reads: a step with it is the step with `inner`
/// alone, bit for bit, unless `inner` is inert ([`ImpactHook::is_inert`]), whose steps a
/// stepper may take by a faster path that needs no hook (`FirstTimeOfImpact`'s disc path:
/// the same impacts, to rounding).
///
/// ```
/// use impact_scene::{PassThroughDetector, Scene, StepperKind, TurnRecorder};
///
/// let scene = Scene::from_json(r#"{
///     "gravity": [0, 0],
///     "bodies": [
///         {"type": "static", "shape": {"type": "segment", "a": [1, -1], "b": [1, 1]}},
///         {"shape": {"type": "circle", "radius": 0.05}, "linvel": [120, 0], "ccd": true}
///     ]
/// }"#)?
/// .with_stepper(StepperKind::Toi);
/// let mut world = scene.build()?;
/// let mut detector = PassThroughDetector::new(world.body_set());
/// let mut hook = TurnRecorder::new(scene.reactions());
/// world.step_with(scene.dt, &mut hook)?;
/// // The disc turned at the wall, inside the step.
/// assert_eq!(hook.centres().len(), world.events().len());
/// let turns = hook.turns(world.events());
/// assert_eq!(turns.len(), 1);
/// assert_eq!(detector.observe_with_turns(world.body_set(), 1, &turns), 0);
/// hook.clear();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct TurnRecorder<H> {
    inner: H,
    /// Per impact since the last `clear`, in order: the centres of mass of its two bodies.
    centres: Vec<[Option<Point>; 2]>,
}

impl<H: ImpactHook> TurnRecorder<H> {
    /// A recorder in front of `inner` (a scene's [`Reactions`](crate::Reactions), say, or
    /// [`NoHook`](impact_stepper::NoHook)).
    pub fn new(inner: H) -> Self {
        Self {
            inner,
            centres: Vec::new(),
        }
    }

    /// The hook the impacts are handed to.
    pub fn inner(&self) -> &H {
        &self.inner
    }

    /// Per impact since the last [`clear`](Self::clear), in the order of the impacts, which
    /// is the order of the step's events: the centres of mass of its bodies `a` and `b` at
    /// the impact, `None` for a body that is not dynamic.
    pub fn centres(&self) -> &[[Option<Point>; 2]] {
        &self.centres
    }

    /// The turns of the step for [`PassThroughDetector::observe_with_turns`]: each dynamic
    /// body of each of `events` (the step's, in the order recorded) with its centre of mass
    /// at that impact.
    pub fn turns(&self, events: &[CollisionEvent]) -> Vec<(BodyHandle, Point)> {
        events
            .iter()
            .zip(&self.centres)
            .flat_map(|(e, [a, b])| [a.map(|p| (e.a, p)), b.map(|p| (e.b, p))])
            .flatten()
            .collect()
    }

    /// Forgets what was recorded: call it after each step is observed.
    pub fn clear(&mut self) {
        self.centres.clear();
    }
}

impl<H: ImpactHook> ImpactHook for TurnRecorder<H> {
    fn on_impact(&mut self, impact: &mut Impact<'_>) {
        let event = *impact.event();
        let centre = |handle| {
            let body = impact.body(handle).filter(|b| b.is_dynamic())?;
            Some(impact.pose(handle)? * body.local_center())
        };
        // Before `inner`, which may remove a body or change its course.
        self.centres.push([centre(event.a), centre(event.b)]);
        self.inner.on_impact(impact);
    }
}
