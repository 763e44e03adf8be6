//! [`TurnRecorder`]: where the bodies of each impact were, the turns of their courses.

use crate::{CollisionEvent, Impact, ImpactHook};
use impact_geometry::Point;
use impact_solver::BodyHandle;

/// An [`ImpactHook`] that records where the two bodies of each impact were (their centres of
/// mass at the impact), for [`PassThroughDetector`](super::PassThroughDetector)'s
/// `observe_with_turns` and for traces, and then hands the impact to `inner`. It only reads: a step with it is
/// the step with `inner` alone, bit for bit, unless `inner` is inert
/// ([`ImpactHook::is_inert`]), whose steps a stepper may take by a faster path that needs no
/// hook (`FirstTimeOfImpact`'s disc path: the same impacts, to rounding).
///
/// ```
/// use impact_geometry::{Circle, Point, Segment, Vector};
/// use impact_solver::RigidBodyDef;
/// use impact_stepper::judge::{PassThroughDetector, TurnRecorder};
/// use impact_stepper::{NoHook, World, WorldSettings};
///
/// let mut world: World = World::new(WorldSettings::with_gravity(Vector::zeros()))?;
/// let wall = Segment::new(Point::new(1.0, -1.0), Point::new(1.0, 1.0))?;
/// world.create_body(RigidBodyDef::fixed(wall.into()))?;
/// world.create_body(
///     RigidBodyDef::new(Circle::new(0.05)?.into())
///         .linvel(Vector::new(120.0, 0.0))
///         .ccd(true),
/// )?;
/// let mut detector = PassThroughDetector::new(world.body_set());
/// let mut hook = TurnRecorder::new(NoHook);
/// world.step_with(1.0 / 60.0, &mut hook)?;
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
    /// A recorder in front of `inner` (a scene's reactions, say, or
    /// [`NoHook`](crate::NoHook)).
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

    /// The turns of the step for
    /// [`PassThroughDetector::observe_with_turns`](super::PassThroughDetector::observe_with_turns):
    /// each dynamic body of each of `events` (the step's, in the order recorded) with its
    /// centre of mass at that impact.
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
