//! The event queue: pair impacts ordered by time, invalidated lazily by per-body versions.

use core::cmp::Ordering;
use impact_geometry::{Point, Real, Vector};
use std::collections::BinaryHeap;

/// What is due at an entry's time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Due {
    /// The pair comes within the target separation: resolve an impact there, normal from
    /// the smaller slot toward the larger.
    Impact { point: Point, normal: Vector },
    /// The time-of-impact query gave up (iteration cap) with this as the last safe time:
    /// the moving bodies stop there.
    Stop,
    /// The body of both slots (`a == b`) leaves its reach (with
    /// [`reach_skin`](crate::FirstTimeOfImpactSettings::reach_skin)): it needs a new reach
    /// and neighbour list before it goes on.
    Escape,
}

/// One planned pair impact. Valid while both bodies still have the versions it was planned
/// with: a body that changes course bumps its version, and every entry planned with the old
/// one is dropped when it surfaces, instead of being searched for and removed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    /// Seconds from the start of the step.
    pub time: Real,
    /// The smaller slot.
    pub a: u32,
    /// The larger slot.
    pub b: u32,
    pub version_a: u32,
    pub version_b: u32,
    /// Translation of the larger slot's image the impact is with (non-zero only across a
    /// side of a periodic domain).
    pub offset: Vector,
    pub due: Due,
}

/// What the heap orders: an entry's time, slots and versions, and where the entry is
/// stored. Small, so that sifting moves 32 bytes rather than a whole [`Entry`].
#[derive(Debug, Clone, Copy)]
struct Key {
    time: Real,
    a: u32,
    b: u32,
    version_a: u32,
    version_b: u32,
    /// Index in [`EventQueue::entries`]: full ties go to the entry planned first, so the
    /// order never depends on the heap's internals.
    index: u32,
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    /// Earliest first, ties by slots, then by versions (older first: at most the newest is
    /// current), then by planning order; reversed, so the standard max-heap pops the
    /// earliest entry.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .time
            .total_cmp(&self.time)
            .then(other.a.cmp(&self.a))
            .then(other.b.cmp(&self.b))
            .then(other.version_a.cmp(&self.version_a))
            .then(other.version_b.cmp(&self.version_b))
            .then(other.index.cmp(&self.index))
    }
}

/// A min-queue of [`Entry`]s, earliest first, ties by slots (so the order never depends on
/// the order of planning between pairs), whose storage is kept from step to step. The
/// entries stay where they were pushed until the step ends; the heap holds their keys.
#[derive(Debug, Clone, Default)]
pub(crate) struct EventQueue {
    heap: BinaryHeap<Key>,
    entries: Vec<Entry>,
    /// The most entries held at once this step.
    pub peak: usize,
}

impl EventQueue {
    pub fn clear(&mut self) {
        self.heap.clear();
        self.entries.clear();
        self.peak = 0;
    }

    pub fn push(&mut self, entry: Entry) {
        let index = u32::try_from(self.entries.len()).unwrap_or(u32::MAX);
        self.heap.push(Key {
            time: entry.time,
            a: entry.a,
            b: entry.b,
            version_a: entry.version_a,
            version_b: entry.version_b,
            index,
        });
        self.entries.push(entry);
        self.peak = self.peak.max(self.heap.len());
    }

    pub fn pop(&mut self) -> Option<Entry> {
        let key = self.heap.pop()?;
        self.entries.get(key.index as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(time: Real, a: u32, b: u32) -> Entry {
        Entry {
            time,
            a,
            b,
            version_a: 0,
            version_b: 0,
            offset: Vector::zeros(),
            due: Due::Stop,
        }
    }

    #[test]
    fn pops_earliest_first_with_ties_broken_by_slots() {
        let mut q = EventQueue::default();
        for e in [
            entry(0.5, 3, 4),
            entry(0.25, 7, 9),
            entry(0.5, 1, 8),
            entry(0.0, 5, 6),
            entry(0.5, 1, 2),
        ] {
            q.push(e);
        }
        let order: Vec<_> = core::iter::from_fn(|| q.pop())
            .map(|e| (e.time, e.a, e.b))
            .collect();
        assert_eq!(
            order,
            [
                (0.0, 5, 6),
                (0.25, 7, 9),
                (0.5, 1, 2),
                (0.5, 1, 8),
                (0.5, 3, 4)
            ]
        );
        assert_eq!(q.peak, 5);
    }
}
