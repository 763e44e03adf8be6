//! The event queue: pair impacts ordered by time, invalidated lazily by per-body versions.
//!
//! A calendar of time bins over the step rather than one heap: an entry goes to the bin of
//! its time, unordered, and only the current bin is a heap. Bins partition time in order,
//! so the entries come out in exactly the order one heap would give; but the heap stays a
//! few levels deep, and a push to a later bin is an append. A large gas keeps an entry or
//! two per body queued: one heap of them misses the cache at every level of every pop.

use core::cmp::Ordering;
use impact_geometry::{Point, Real, Vector};
use std::collections::BinaryHeap;

/// What is due at an entry's time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Due {
    /// The pair comes within the target separation: resolve an impact there, normal from
    /// the smaller slot toward the larger, between the shapes at `shapes` in their bodies'
    /// lists (the smaller slot's first).
    Impact {
        point: Point,
        normal: Vector,
        shapes: [u32; 2],
    },
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
    /// Planning order: full ties go to the entry planned first, so the order never depends
    /// on the heap's internals.
    seq: u32,
    /// Index in [`EventQueue::entries`].
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
            .then(other.seq.cmp(&self.seq))
    }
}

/// A min-queue of [`Entry`]s, earliest first, ties by slots (so the order never depends on
/// the order of planning between pairs), whose storage is kept from step to step. The bins
/// and the heap hold small keys; the entries stay in a slab whose slots are reused once
/// popped, so it holds no more than the queue (a long step pushes many times that over its
/// course).
#[derive(Debug, Clone, Default)]
pub(crate) struct EventQueue {
    /// The current bin's keys.
    heap: BinaryHeap<Key>,
    /// The keys of each later bin, unordered (earlier ones are empty).
    bins: Vec<Vec<Key>>,
    /// The bin `heap` holds.
    current: usize,
    /// Bins per second: the bin of time `t` is `t * rate`, floored.
    rate: Real,
    /// Keys held, in the heap and the bins.
    len: usize,
    entries: Vec<Entry>,
    /// Slots of `entries` whose entry was popped.
    free: Vec<u32>,
    /// Entries pushed this step.
    pushed: u32,
    /// The most entries held at once this step.
    pub peak: usize,
}

impl EventQueue {
    /// Empties the queue for a step of `dt` seconds (positive and finite) with `bins` time
    /// bins (at least one): a fraction of the entries usually held keeps each bin's heap a
    /// few levels deep.
    pub fn clear(&mut self, dt: Real, bins: usize) {
        let bins = bins.max(1);
        for bin in &mut self.bins {
            bin.clear();
        }
        if self.bins.len() < bins {
            self.bins.resize_with(bins, Vec::new);
        }
        self.bins.truncate(bins);
        self.current = 0;
        self.rate = bins as Real / dt;
        self.len = 0;
        self.heap.clear();
        self.entries.clear();
        self.free.clear();
        self.pushed = 0;
        self.peak = 0;
    }

    pub fn push(&mut self, entry: Entry) {
        let index = match self.free.pop() {
            Some(index) => {
                self.entries[index as usize] = entry;
                index
            }
            None => {
                self.entries.push(entry);
                u32::try_from(self.entries.len() - 1).unwrap_or(u32::MAX)
            }
        };
        let seq = self.pushed;
        self.pushed = self.pushed.wrapping_add(1);
        let key = Key {
            time: entry.time,
            a: entry.a,
            b: entry.b,
            version_a: entry.version_a,
            version_b: entry.version_b,
            seq,
            index,
        };
        // Floored, and monotonic in the time: entries of equal times share a bin, and a
        // later bin never holds an earlier time. Times are never before the current
        // bin's (nothing is planned in the past); one that rounds there joins its heap.
        let bin = ((entry.time * self.rate) as usize).min(self.bins.len().saturating_sub(1));
        if bin <= self.current {
            self.heap.push(key);
        } else {
            self.bins[bin].push(key);
        }
        self.len += 1;
        self.peak = self.peak.max(self.len);
    }

    /// Pops the earliest entry, stale or not (the tests' view of the order).
    #[cfg(test)]
    pub fn pop(&mut self) -> Option<Entry> {
        let key = self.pop_key()?;
        self.entries.get(key.index as usize).copied()
    }

    /// Pops entries until one passes `current(a, b, version_a, version_b)` and returns it,
    /// counting the others in `dropped`. Most entries of a busy step are stale: judged on
    /// their keys, they are dropped without a read of their entries, which lie all over
    /// the slab.
    pub fn pop_current(
        &mut self,
        mut current: impl FnMut(u32, u32, u32, u32) -> bool,
        dropped: &mut usize,
    ) -> Option<Entry> {
        loop {
            let key = self.pop_key()?;
            if current(key.a, key.b, key.version_a, key.version_b) {
                return self.entries.get(key.index as usize).copied();
            }
            *dropped += 1;
        }
    }

    /// Takes the earliest key out of the queue and frees its entry's place in the slab.
    fn pop_key(&mut self) -> Option<Key> {
        let key = loop {
            if let Some(key) = self.heap.pop() {
                break key;
            }
            // The next bin that holds anything becomes the heap.
            let next = self.current + 1;
            let bin = self.bins.get_mut(next)?;
            self.current = next;
            self.heap.extend(bin.drain(..));
        };
        self.len -= 1;
        self.free.push(key.index);
        Some(key)
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
        q.clear(1.0, 3);
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

    /// The calendar pops in exactly the order of one heap of the same keys, with pushes
    /// between pops (never earlier than the last entry popped, as in a step) and ties.
    #[test]
    fn the_calendar_pops_as_one_heap_would() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as Real / (1u64 << 53) as Real
        };
        let dt = 0.75;
        let mut q = EventQueue::default();
        q.clear(dt, 16);
        let mut reference = BinaryHeap::new();
        let mut seq = 0;
        let mut now: Real = 0.0;
        let (mut got, mut expected) = (Vec::new(), Vec::new());
        for round in 0..400 {
            for _ in 0..(round % 5) {
                // Some ties: times on a coarse lattice now and then.
                let u = next();
                let time = if u < 0.3 {
                    now + (u * 10.0).floor() / 10.0 * (dt - now)
                } else {
                    now + u * (dt - now)
                };
                let (a, b) = ((next() * 8.0) as u32, 8 + (next() * 8.0) as u32);
                q.push(entry(time, a, b));
                reference.push(Key {
                    time,
                    a,
                    b,
                    version_a: 0,
                    version_b: 0,
                    seq,
                    index: 0,
                });
                seq += 1;
            }
            if round % 3 != 0 {
                let (popped, key) = (q.pop(), reference.pop());
                assert_eq!(popped.is_some(), key.is_some());
                if let (Some(e), Some(k)) = (popped, key) {
                    now = e.time;
                    got.push((e.time, e.a, e.b));
                    expected.push((k.time, k.a, k.b));
                }
            }
        }
        while let Some(e) = q.pop() {
            got.push((e.time, e.a, e.b));
        }
        while let Some(k) = reference.pop() {
            expected.push((k.time, k.a, k.b));
        }
        assert_eq!(got, expected);
        assert!(got.len() > 500);
    }
}
