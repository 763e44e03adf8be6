//! [`PassThroughDetector`]: the judge over a body set observed after every step.

use super::{Course, PassThroughJudge, Passage};
use impact_geometry::Point;
use impact_solver::{BodyHandle, BodySet, BodyType};

/// How a body passed through static geometry (see [`PassThroughJudge`]'s rule).
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

/// What the detector remembers of a dynamic body between observations.
#[derive(Debug, Clone, Copy)]
struct Track {
    handle: BodyHandle,
    /// Its centre of mass at the observation before the last.
    before: Point,
    /// Its centre of mass at the last observation.
    position: Point,
    /// Reported already: each body is reported once.
    reported: bool,
}

/// Says which dynamic bodies of a [`BodySet`] passed through its static bodies, observing
/// the set after every step: [`PassThroughJudge`] on each body's centre of mass, so any
/// stepper is judged the same way, as are the tests' and benches' counts.
///
/// Each body is reported once, at the first observation that shows it. Static bodies never
/// move, so their geometry is taken when the detector is made; kinematic bodies are not
/// obstacles (they move, and the rule assumes still geometry), and sensors are neither
/// obstacles nor judged (nothing collides with them). A body created later is
/// followed from the first observation that sees it; a removed one is forgotten. The
/// detector is not told the bodies' speeds or the step's length, so the path it allows a
/// body round the end of a segment is its longer displacement of the last two steps
/// ([`Course::reach`] 0).
///
/// A stepper that resolves impacts inside the step (`FirstTimeOfImpact`) bends a body's
/// path there: the chord of a bent path can cross what the path went round, or miss what
/// the path crossed and crossed back. [`observe_with_turns`](Self::observe_with_turns) takes
/// where each body was at each such impact ([`TurnRecorder`](super::TurnRecorder) collects
/// them): a body with turns is judged on the straight legs between them instead of on its
/// chord, each leg a part of its actual path.
#[derive(Debug, Clone)]
pub struct PassThroughDetector {
    judge: PassThroughJudge,
    /// The static body of each of the judge's obstacles.
    obstacles: Vec<BodyHandle>,
    /// Per body slot.
    tracks: Vec<Option<Track>>,
    found: Vec<PassThrough>,
}

impl PassThroughDetector {
    /// A detector for the static bodies of `bodies`, with the dynamic bodies where they are
    /// now as the first observation.
    pub fn new(bodies: &BodySet) -> Self {
        // Every solid shape of a static body is an obstacle, named by its body.
        let statics: Vec<_> = bodies
            .iter()
            .filter(|(_, b)| b.body_type() == BodyType::Static)
            .flat_map(|(h, b)| {
                b.shapes()
                    .iter()
                    .filter(|s| !s.is_sensor())
                    .map(move |s| (h, s.shape(), b.pose()))
            })
            .collect();
        let judge = PassThroughJudge::new(statics.iter().map(|&(_, shape, pose)| (shape, pose)));
        let mut detector = Self {
            judge,
            obstacles: statics.iter().map(|&(h, _, _)| h).collect(),
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
    /// time order (see [`TurnRecorder::turns`](super::TurnRecorder::turns)). A body with
    /// turns is judged leg by leg (see the type's docs); turns of bodies that are not
    /// dynamic are ignored.
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
        let mut path = Vec::new();
        let mut seen = vec![false; self.tracks.len()];
        for (handle, body) in bodies.iter() {
            if !body.is_dynamic() || crate::motion::never_collides(body) {
                continue;
            }
            let slot = handle.index as usize;
            if self.tracks.len() <= slot {
                self.tracks.resize(slot + 1, None);
                seen.resize(slot + 1, false);
            }
            seen[slot] = true;
            let p1 = body.center_of_mass();
            let previous = self.tracks[slot].filter(|t| t.handle == handle);
            let mut reported = previous.is_some_and(|t| t.reported);
            if let (Some(step), Some(t)) = (step, previous)
                && !reported
            {
                let first = turns.partition_point(|(h, _)| h.index < handle.index);
                path.clear();
                path.extend(
                    turns[first..]
                        .iter()
                        .take_while(|(h, _)| h.index == handle.index)
                        .filter(|(h, _)| *h == handle)
                        .map(|(_, p)| *p),
                );
                let course = Course {
                    before: t.before,
                    from: t.position,
                    to: p1,
                    reach: 0.0,
                    turns: &path,
                };
                let hit = match self.judge.judge(&course) {
                    Some(Passage::Crossed(i)) => Some((i, PassThroughKind::Crossed)),
                    Some(Passage::EndedInside(i)) => Some((i, PassThroughKind::EndedInside)),
                    // A body set holds finite poses only.
                    Some(Passage::Lost) | None => None,
                };
                if let Some((i, kind)) = hit {
                    reported = true;
                    self.found.push(PassThrough {
                        body: handle,
                        obstacle: self.obstacles[i],
                        step,
                        kind,
                        ccd: body.ccd(),
                    });
                }
            }
            self.tracks[slot] = Some(Track {
                handle,
                before: previous.map_or(p1, |t| t.position),
                position: p1,
                reported,
            });
        }
        for (slot, seen) in seen.into_iter().enumerate() {
            if !seen {
                self.tracks[slot] = None;
            }
        }
    }
}
