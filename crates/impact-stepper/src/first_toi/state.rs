//! The per-step state of [`FirstTimeOfImpact`](super::FirstTimeOfImpact), and [`Run`], the
//! step's view of it on which every phase is a method.
//!
//! [`Scratch`] holds one array per body slot (start poses, courses, reaches, neighbour lists,
//! flags) and the queue, kept from step to step for their storage and reset at the start of
//! each: a step allocates nothing once the world has stopped growing. What a plan reads of a
//! neighbour is packed apart in [`Hot`], one cache line per neighbour rather than one per
//! array, because a plan reads it for bodies all over memory. The state of each pair that met
//! in the step ([`PairState`]) is in a hash map, looked up and never iterated, so its order
//! cannot reach a result. [`Run`] borrows the scratch with the parts of the step's context the
//! event loop needs; the phases are its methods, in the files named after them.

use super::FirstTimeOfImpactSettings;
use super::carry::Slide;
use super::discs::DiscPath;
use super::groups::Turning;
use super::joint_notes::JointNotes;
use super::queue::EventQueue;
use super::reach::Neighbour;
use crate::domain::PeriodicImages;
use crate::events::HookRequests;
use crate::grid::ReachGrid;
use crate::motion::{BySlots, HeldPairs, ShapeRules};
use crate::ramp::Ramp;
use crate::report::FirstToiReport;
use crate::rules::CollisionRules;
use crate::shape_proxies::ShapeProxies;
use crate::step_log::CourseLog;
use crate::sweep_pairs::SweepPairs;
use crate::touching::ClosingScratch;
use impact_geometry::{Aabb, Isometry, Point, Real, Segment, Sweep, Vector};
use impact_solver::{
    BodyHandle, BodySet, ContactPair, GroupImpactSolver, GroupMotion, GroupPoint, JointSet, Touch,
};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Per body slot, reused from step to step.
#[derive(Debug, Clone, Default)]
pub(super) struct Scratch {
    pub(super) start: Vec<Option<Isometry>>,
    /// Per slot: how the body's velocity changes along its current course (see [`Ramp`]).
    pub(super) ramps: Vec<Ramp>,
    /// Per slot: the body is in a contact the solver held this step (not in free flight).
    pub(super) constrained: Vec<bool>,
    /// The body's motion since it last changed course: (start time in the step, sweep from
    /// there to the end of the step).
    pub(super) motions: Vec<Option<(Real, Sweep)>>,
    /// Per slot: what a plan reads of a neighbour (see [`Hot`]).
    pub(super) hot: Vec<Hot>,
    pub(super) checked: Vec<bool>,
    /// Changed course inside the step: its end pose comes from its motion, not the solver.
    pub(super) rerouted: Vec<bool>,
    /// Per slot: the course the body's queued impacts and plans were made for, from when
    /// it began (see [`Run::keeps_plans`]).
    pub(super) planned: Vec<Option<(Real, Sweep)>>,
    /// The slot whose next course keeps the plans of its current one (see
    /// [`Run::keeps_plans`]); taken by the next [`Run::lay_course`] of that slot.
    pub(super) keep_plans: Option<usize>,
    /// Per slot: the body's last course kept its plans: it is not planned again.
    pub(super) plans_kept: Vec<bool>,
    /// The current course turns some point of the body's shape farther than the contact
    /// distance by the end of the step (never a disc about its centre): the contact solver's
    /// manifolds, taken at the start poses, do not bound where its far side swings, so its
    /// pairs the solver holds are planned too (see [`Run::plan_pair`]), and an overlapping
    /// pair is followed along the courses (see [`Run::overlapping`]). Not in [`Hot`]: read
    /// only for those pairs, and a byte more there costs every plan a longer copy.
    pub(super) swings: Vec<bool>,
    /// Per slot: the segment of a static body that is one, which a disc's plan asks by its
    /// closed form straight from the start pose (see [`Run::plan_pair`]). Not in [`Hot`]:
    /// read only for those pairs.
    pub(super) segments: Vec<Option<Segment>>,
    pub(super) stopped: Vec<bool>,
    pub(super) requests: Vec<HookRequests>,
    /// Per pair (smaller slot, larger slot): impacts this step, time of the last one, and
    /// whether the pair was handed to the contact solver. Looked up, never iterated.
    pub(super) pairs: HashMap<(u32, u32), PairState, BuildHasherDefault<PairHasher>>,
    pub(super) solver_contacts: Vec<ContactPair>,
    /// The pairs of bodies of several shapes with a contact within the contact distance at
    /// the start of the step (smaller slot first, sorted), whose every contact the solver
    /// keeps (see `split_contacts`).
    pub(super) touching_pairs: Vec<(u32, u32)>,
    /// `solver_contacts` ordered by slots, for the look-ups of a pair's side.
    pub(super) by_slots: BySlots,
    /// The times of impact of one pair's shapes (see [`Run::plan_pair`]).
    pub(super) tois: Vec<([u32; 2], impact_narrowphase::Toi)>,
    /// The pairs of `solver_contacts`, for the plans' look-ups.
    pub(super) held: HeldPairs,
    pub(super) queue: EventQueue,
    /// Per slot with a course: its *reach*, a box holding every place its shape goes in the
    /// step (padded by the target separation and the tolerance), with room to spare for
    /// course changes (a static body's is its box).
    pub(super) reach: Vec<Option<Aabb>>,
    /// Finds the bodies a grown reach meets during the step, and the pairs of reach boxes
    /// at its start in a periodic domain (see [`grid`](crate::grid))...
    pub(super) grid: ReachGrid,
    /// ...and outside one (see [`sweep_pairs`](crate::sweep_pairs)).
    pub(super) sweep: SweepPairs,
    /// Pairs found by one query of the grid.
    pub(super) found: Vec<(u32, Vector)>,
    /// Per slot with a reach, static bodies aside (see [`Hot::fixed`]): every body whose
    /// reach meets it, with the translation of the image it is met through. Two bodies can
    /// only meet if their reach boxes do, so a plan looks no further than this list: the
    /// lists are made once per step, not a search per impact, and only a course that leaves
    /// its reach searches again (see [`Run::set_course`]). The inner vectors keep their
    /// storage from step to step.
    pub(super) neighbours: Vec<Vec<Neighbour>>,
    /// Per slot, with a positive [`FirstTimeOfImpactSettings::reach_skin`]: the box its
    /// centre of mass may roam before it escapes its reach (see [`Run::escape`]); `None` for
    /// a reach that covers the whole course.
    pub(super) anchor: Vec<Option<Aabb>>,
    /// The storage of the neighbour list an escape builds, swapped with the old list's.
    pub(super) fresh: Vec<Neighbour>,
    /// The periods of the domain this step, if it is periodic.
    pub(super) period: Option<Vector>,
    pub(super) touched: Vec<BodyHandle>,
    pub(super) replan: Vec<u32>,
    /// The disc path's buffers (see [`discs`](super::discs)).
    pub(super) discs: DiscPath,
    /// The buffers of the impacts of touching pairs at the start of the step.
    pub(super) closing: ClosingScratch,
    /// The joint graph and what the step needs of the joints (see
    /// [`groups`](super::groups)), kept while the joints' keys stay the same.
    pub(super) joint_notes: JointNotes,
    /// Per slot: a dynamic body a rigid joint holds, with its velocities at the start of the
    /// step (after the impacts of touching pairs).
    pub(super) jointed: Vec<Option<(Vector, Real)>>,
    /// Per slot: how a jointed body's velocity turns along its current course (`None`: as
    /// its ramp says).
    pub(super) turning: Vec<Option<Turning>>,
    /// Per slot: a jointed body a spring or a motor drives, or one that joints tie to such a
    /// body (see `Scratch::note_joints`).
    pub(super) driven: Vec<bool>,
    /// Per slot: a dynamic body an enabled motor of unlimited torque or force turns or
    /// slides (see `motion::unstoppable`): a carrier that no wedge stalls.
    pub(super) unstoppable: Vec<bool>,
    /// Per slot: the slot of the driven body that carries the body (see `carry`), or
    /// `u32::MAX`.
    pub(super) carried_by: Vec<u32>,
    /// Whether a body was carried in the step (see `carry`).
    pub(super) carried_any: bool,
    /// Per slot: how many times the body was carried in the step (see `carry`).
    pub(super) carries: Vec<u8>,
    /// Per slot: the carrier's surface and the fixed surface a carried body slides on and
    /// against (see `carry`).
    pub(super) slides: Vec<Slide>,
    /// Per slot: how many bodies the body carries now (see `carry`).
    pub(super) carrying: Vec<u32>,
    /// Per slot: how many distinct bodies the body carried in the step (see `carry`).
    pub(super) carried_count: Vec<u32>,
    /// The bodies carried in the step, each once, in the order they were first carried.
    pub(super) carried_list: Vec<u32>,
    /// The impacts of jointed groups, and the group of the last one.
    pub(super) group: GroupImpactSolver,
    /// Whether the impact being resolved is a jointed group's.
    pub(super) grouped: bool,
    /// The rigid advance's motions of the last group.
    pub(super) group_motions: Vec<GroupMotion>,
    /// The other points of a group impact ([`Run::together`](super::Run::together)) and
    /// the shape pair of each, the group's shape first.
    pub(super) together: Vec<GroupPoint>,
    pub(super) together_shapes: Vec<[u32; 2]>,
    /// The rigid advances' work in this step so far, in bodies times substeps (see
    /// `groups::ADVANCE_BUDGET`).
    pub(super) advance_work: u64,
    /// The bodies of tied groups whose rigid advance at the step's start did not hold: they
    /// stay where they started, their lost time reported (see `groups`).
    pub(super) parked: Vec<BodyHandle>,
    /// The contacts of this step's group impacts, which the groups keep for the rest of the
    /// step (see [`Touch`]).
    pub(super) touches: Vec<Touch>,
    /// Per slot: met by the search for the fast groups this step (see
    /// [`Scratch::settle_fast_groups`]).
    pub(super) visited: Vec<bool>,
    /// Per slot: which of the step's held rigid advances after an impact gave the body its
    /// current course (numbered from 1 by `advances`), 0 for any other course. A pair the
    /// group keeps in contact is the group's only while the advance that holds its touch
    /// moves it (see [`Run::keeps`]).
    pub(super) advance_of: Vec<u32>,
    /// The held rigid advances after an impact so far in the step.
    pub(super) advances: u32,
    /// Per slot: a member of a free group locked rigid at the step's start (see
    /// `Scratch::settle_fast_groups`): its first course is neither the solver's nor an advance
    /// that holds the solver's contacts, so the pairs the solver holds are planned as for a
    /// body that swings.
    pub(super) locked: Vec<bool>,
}

/// What a plan reads of each neighbour, kept together: a large gas reads it for bodies
/// all over memory, and one cache line per neighbour costs less than one per array.
#[derive(Debug, Clone, Copy)]
pub(super) struct Hot {
    /// The box the body's shape sweeps on its current course (padded as the reach), from
    /// the course's start to the end of the step. A plan skips the neighbours whose course
    /// box its own course's box misses, as a broadphase query of the course would.
    pub(super) course_box: Aabb,
    /// When the body next escapes its reach (infinite if it does not this step). A pair's
    /// impacts are queued only up to the earlier of its bodies' escapes, its *horizon*:
    /// each escape asks all the body's pairs again, so later ones are found in time, and
    /// the queue holds the near future only, not every impact a long step could bring
    /// (most of which other impacts make stale).
    pub(super) escape_at: Real,
    /// With `round`, the disc's radius.
    pub(super) radius: Real,
    /// The radius of the body's bounding disc about its centre of mass, whatever it turns.
    pub(super) bound: Real,
    /// Bumped at every change of course; queue entries carry the versions they assumed.
    pub(super) version: u32,
    /// A disc centred on the body origin and on its centre of mass, for which a time of
    /// impact does not depend on the rotation (see [`Run::course_from`]).
    pub(super) round: bool,
    pub(super) dynamic: bool,
    /// A static body: its course never changes, so it never plans its own pairs (each is
    /// planned by its other body, whenever that one's course changes) and keeps no
    /// neighbour list.
    pub(super) fixed: bool,
    /// The current course stays put (no velocity: a static body, or a stopped one). Two
    /// such courses never come closer, so their pair has nothing to plan: the query would
    /// find them apart, or touching without one driving into the other.
    pub(super) still: bool,
}

impl Default for Hot {
    fn default() -> Self {
        Self {
            course_box: Aabb::new(Point::origin(), Point::origin()),
            escape_at: Real::INFINITY,
            radius: 0.0,
            bound: 0.0,
            version: 0,
            round: false,
            dynamic: false,
            fixed: false,
            still: false,
        }
    }
}

/// The hasher of [`Scratch::pairs`]: a multiply-and-rotate of the two slots, much cheaper
/// than the default SipHash, which guards against keys chosen by an adversary (slots are
/// not). The map is only looked up, never iterated, so its order cannot leak into results.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.add(u64::from(byte));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
}

impl PairHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        // The constant of FxHash (rustc's hasher).
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct PairState {
    pub(super) impacts: u32,
    pub(super) last: Real,
    pub(super) handed_over: bool,
    /// The pre-solve hook disabled an impact of the pair: it passes through for the rest
    /// of the step, and nothing more of it is planned or resolved.
    pub(super) disabled: bool,
    /// The normal of the pair's last impact, from the smaller slot toward the larger (zero
    /// before the first): the side each body is on, which an overlap past the middle of a
    /// zero-thickness segment no longer tells (see [`Run::overlapping`]).
    pub(super) normal: Vector,
    /// The shapes of the pair's last impact (the smaller slot's first), whose side `normal`
    /// is.
    pub(super) shapes: [u32; 2],
    /// A jointed group keeps the pair in contact (see [`groups`](super::groups)): nothing
    /// more of it is planned while the advance that holds its touch moves it (see
    /// [`Run::keeps`]).
    pub(super) kept: bool,
}

impl Scratch {
    /// Every per-slot array at its value for a step of `slots` slots and length `dt`, the
    /// neighbour lists and pair states empty, the queue cleared: nothing of the last step
    /// is read again, only its storage is kept.
    pub(super) fn reset_step(&mut self, slots: usize, dt: Real) {
        reset(&mut self.constrained, slots, false);
        reset(&mut self.ramps, slots, Ramp::still(dt));
        reset(&mut self.motions, slots, None);
        reset(&mut self.reach, slots, None);
        reset(&mut self.hot, slots, Hot::default());
        reset(&mut self.anchor, slots, None);
        if self.neighbours.len() < slots {
            self.neighbours.resize_with(slots, Vec::new);
        }
        for list in &mut self.neighbours {
            list.clear();
        }
        reset(&mut self.rerouted, slots, false);
        reset(&mut self.planned, slots, None);
        reset(&mut self.plans_kept, slots, false);
        self.keep_plans = None;
        reset(&mut self.swings, slots, false);
        reset(&mut self.segments, slots, None);
        reset(&mut self.stopped, slots, false);
        reset(&mut self.turning, slots, None);
        reset(&mut self.advance_of, slots, 0);
        reset(&mut self.carried_by, slots, u32::MAX);
        reset(&mut self.carries, slots, 0);
        reset(&mut self.carrying, slots, 0);
        reset(&mut self.carried_count, slots, 0);
        reset(&mut self.slides, slots, Slide::default());
        self.carried_any = false;
        self.carried_list.clear();
        self.advances = 0;
        self.grouped = false;
        self.pairs.clear();
        // A bin per body. A gas holds about two entries per body at once (an escape and an
        // impact), where a bin per eight bodies kept each bin's heap a few levels deep and
        // the pushes in cache (measured on a gas of 65,536 discs stepped on this path; gases
        // take the disc path). The rain queues more at a time, most of it bound to go stale,
        // and its heaps ran deep: a bin per body takes 2.5% off its instructions at 1,000
        // and at 10,000 discs, four per body 3.3% (at four times the bins to clear every
        // step).
        self.queue.clear(dt, slots);
    }
}

/// One step's event loop: the context's parts it needs, with the scratch and the report.
pub(super) struct Run<'r> {
    pub(super) settings: FirstTimeOfImpactSettings,
    pub(super) dt: Real,
    pub(super) time: Real,
    pub(super) bodies: &'r mut BodySet,
    pub(super) proxies: &'r [Option<BodyHandle>],
    /// The periodic domain's images, if any: reach boxes stay within half a period.
    pub(super) periodic: Option<PeriodicImages>,
    /// Which pairs may collide: neighbour lists hold only those, and the pre-solve hook is
    /// asked before each impact.
    pub(super) rules: CollisionRules<'r>,
    /// The proxy of each shape, through which the rules are asked of shape pairs.
    pub(super) shapes: &'r ShapeProxies,
    pub(super) s: &'r mut Scratch,
    pub(super) report: &'r mut FirstToiReport,
    /// Where each course change is recorded when the world asks (see [`Run::set_course`]).
    pub(super) courses: &'r mut CourseLog,
    /// The joints, for the impacts of jointed groups (see [`groups`](super::groups)).
    pub(super) joints: &'r JointSet,
    /// Gravity and the solver's substeps, for a group's advance over the rest of the step.
    pub(super) gravity: Vector,
    pub(super) substeps: u32,
}

impl Run<'_> {
    /// Takes part in impacts: not removed or disabled by the hook.
    pub(super) fn is_live(&self, slot: usize) -> bool {
        is_live(&self.s.requests, slot)
    }

    /// The state of the pair of slots `a` < `b` in this step, made empty at its first use.
    pub(super) fn pair_state(&mut self, a: u32, b: u32) -> &mut PairState {
        self.s.pairs.entry((a, b)).or_default()
    }
}

impl<'r> Run<'r> {
    /// The rules as shape pairs ask them.
    pub(super) fn shape_rules(&self) -> ShapeRules<'r> {
        ShapeRules {
            rules: self.rules,
            proxies: self.shapes,
        }
    }
}

/// Empties `v` and fills it with `len` copies of `value`, keeping its storage.
pub(super) fn reset<T: Clone>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
}

/// Whether an entry planned with the bodies of slots `a` and `b` at these versions still
/// holds: neither changed course since, and both take part in impacts.
pub(super) fn is_current(
    hot: &[Hot],
    requests: &[HookRequests],
    (a, version_a): (u32, u32),
    (b, version_b): (u32, u32),
) -> bool {
    hot[a as usize].version == version_a
        && hot[b as usize].version == version_b
        && is_live(requests, a as usize)
        && is_live(requests, b as usize)
}

/// Whether `slot` takes part in impacts: not removed or disabled by the hook.
pub(super) fn is_live(requests: &[HookRequests], slot: usize) -> bool {
    let r = requests[slot];
    !r.removed && !r.disabled
}
