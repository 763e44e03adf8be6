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

impl Entry {
    /// Earliest first; ties by slots, so the order never depends on the order of planning.
    fn key(&self) -> (Real, u32, u32) {
        (self.time, self.a, self.b)
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    /// Reversed, so the standard max-heap pops the earliest entry.
    fn cmp(&self, other: &Self) -> Ordering {
        let (ta, a0, a1) = self.key();
        let (tb, b0, b1) = other.key();
        tb.total_cmp(&ta)
            .then(b0.cmp(&a0))
            .then(b1.cmp(&a1))
            .then(other.version_a.cmp(&self.version_a))
            .then(other.version_b.cmp(&self.version_b))
    }
}

/// A min-queue of [`Entry`]s whose storage is kept from step to step.
#[derive(Debug, Clone, Default)]
pub(crate) struct EventQueue {
    heap: BinaryHeap<Entry>,
    /// The most entries held at once this step.
    pub peak: usize,
}

impl EventQueue {
    pub fn clear(&mut self) {
        self.heap.clear();
        self.peak = 0;
    }

    pub fn push(&mut self, entry: Entry) {
        self.heap.push(entry);
        self.peak = self.peak.max(self.heap.len());
    }

    pub fn pop(&mut self) -> Option<Entry> {
        self.heap.pop()
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
