//! The buffers of the last solver dropped on this thread, reused by the next one.
//!
//! A solver lives for one step, and its arrays are as large as the step's constraints (a
//! constraint is a few hundred bytes, a packed chunk most of a kilobyte). Allocated afresh
//! every step, they took the step's allocations past glibc's trim threshold, and every step
//! page-faulted its memory back in: a fifth of the step on the 20-base pyramid before the
//! packed chunks were kept, and still an eighth of `MotionClamping`'s rain step at 1,000
//! discs (the constraints and body arrays, first written by `ContactSolver::new`) before
//! the rest was.
//!
//! Only capacity is kept: every buffer is cleared when taken and every element is written
//! before it is read, so nothing of a previous step can reach the results.

use super::packed::{Anchors, Applied, Chunk};
use super::{BodyState, ContactConstraint, LANES, SolverBody};
use std::cell::RefCell;

/// Every array a [`ContactSolver`](super::ContactSolver) owns or builds on the way.
#[derive(Default)]
pub(super) struct Buffers {
    pub(super) constraints: Vec<ContactConstraint>,
    pub(super) solver_bodies: Vec<SolverBody>,
    pub(super) states: Vec<BodyState>,
    pub(super) state_of: Vec<u32>,
    pub(super) start_velocities: Vec<SolverBody>,
    pub(super) chunks: Vec<Chunk>,
    pub(super) anchors: Vec<Anchors>,
    pub(super) applied: Vec<[Applied; 2]>,
    pub(super) order: SweepOrder,
    /// The restitution pass's buffers (refilled by the pass itself).
    pub(super) restitution_scratch: super::restitution::Scratch,
}

/// [`sweep_order`](super::sweep_order)'s result and working arrays.
#[derive(Debug, Clone, Default)]
pub(super) struct SweepOrder {
    /// The constraints in the order the sweeps visit them.
    pub(super) order: Vec<u32>,
    /// Where each chunk starts in `order`, and where the last ends.
    pub(super) chunk_starts: Vec<u32>,
    /// Per body: the first chunk its next constraint may join.
    pub(super) next_chunk: Vec<u32>,
    /// Per chunk: its constraints and how many there are.
    pub(super) members: Vec<([u32; LANES], usize)>,
    /// Per chunk: itself if it has room, else a later chunk to look at instead.
    pub(super) room: Vec<u32>,
}

impl SweepOrder {
    /// The arrays, emptied.
    pub(super) fn clear(&mut self) {
        self.order.clear();
        self.chunk_starts.clear();
        self.next_chunk.clear();
        self.members.clear();
        self.room.clear();
    }
}

impl Buffers {
    /// The buffers, emptied.
    fn cleared(mut self) -> Self {
        self.constraints.clear();
        self.solver_bodies.clear();
        self.states.clear();
        self.state_of.clear();
        self.start_velocities.clear();
        self.chunks.clear();
        self.anchors.clear();
        self.applied.clear();
        self.order.clear();
        self
    }
}

thread_local! {
    static SPARE: RefCell<Buffers> = RefCell::default();
}

/// The spare buffers of this thread, empty (fresh ones if there are none).
pub(super) fn take() -> Buffers {
    SPARE
        .try_with(|spare| spare.try_borrow_mut().map(|mut s| core::mem::take(&mut *s)))
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default()
        .cleared()
}

/// Hands the buffers of a solver being dropped to the next one on this thread, unless the
/// spare ones are larger (a clone of a solver dropped after it keeps the spare it found).
pub(super) fn give(buffers: Buffers) {
    // During thread teardown the spare may be gone already; the buffers are then just freed.
    let _ = SPARE.try_with(|spare| {
        if let Ok(mut spare) = spare.try_borrow_mut()
            && buffers.constraints.capacity() >= spare.constraints.capacity()
        {
            *spare = buffers;
        }
    });
}
