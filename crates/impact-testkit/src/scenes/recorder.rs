//! [`CourseRecorder`]: where the bodies of a world turned inside a step, and when.

use impact_broadphase::Broadphase;
use impact_geometry::{Point, Real};
use impact_solver::BodyHandle;
use impact_stepper::{ClampedBody, Impact, ImpactHook, Stepper, World};

// The counters the recorded turns are for, named in the docs.
#[cfg(doc)]
use super::{CrossingCounter, TunnelCounter};

/// An [`ImpactHook`] that records where the dynamic bodies of a world are at each impact
/// inside a step, and when: the turns of their paths, for
/// [`TunnelCounter::observe_world_via`] and [`CrossingCounter::observe_world_timed`] (with
/// the stepper's stops noted, [`CourseRecorder::note_stops`]). It only reads: a step with it
/// is the step without it, bit for bit.
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
/// for _ in 0..30 {
///     let report = world.step_with(1.0 / 60.0, &mut recorder)?;
///     recorder.note_stops(&report.stepper.stopped, &world);
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

    /// Forgets the turns recorded (done by [`TunnelCounter::observe_world_via`]).
    #[inline]
    pub fn clear(&mut self) {
        self.turns.clear();
        self.fractions.clear();
    }
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
