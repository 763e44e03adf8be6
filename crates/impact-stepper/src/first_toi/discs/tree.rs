//! The disc path's event queue: a tournament tree with one leaf per disc.
//!
//! Each disc holds exactly one planned event (its earliest), so the queue never grows and
//! never holds a stale copy of a disc's own plan: re-planning a disc overwrites its leaf
//! and replays the matches on the way to the root (log2 N comparisons of two nodes that
//! sit next to each other in memory). A binary heap would need a position index to do the
//! same, and a calendar of entries would keep every superseded plan until it is popped.

use impact_geometry::Real;

/// A complete binary tree over the leaves `0..len` (padded to a power of two); each inner
/// node holds the earlier of its children, ties to the smaller leaf, so the root is the
/// earliest event and the order is deterministic.
#[derive(Debug, Clone, Default)]
pub(super) struct EventTree {
    /// The first leaf's node index (a power of two).
    base: usize,
    /// Node `k`'s children are `2k` and `2k + 1`; node 0 is unused. Each holds the time
    /// and the leaf it came from.
    nodes: Vec<(Real, u32)>,
}

impl EventTree {
    /// `len` leaves, every one at infinity (nothing planned). Keeps the storage.
    pub(super) fn reset(&mut self, len: usize) {
        self.base = len.max(1).next_power_of_two();
        self.nodes.clear();
        self.nodes.resize(2 * self.base, (Real::INFINITY, u32::MAX));
        for leaf in 0..len {
            self.nodes[self.base + leaf] = (Real::INFINITY, leaf as u32);
        }
        for k in (1..self.base).rev() {
            self.nodes[k] = earlier(self.nodes[2 * k], self.nodes[2 * k + 1]);
        }
    }

    /// Sets the time of `leaf`'s event and replays its path to the root, up to the first
    /// match whose winner does not change (the ones above it do not either): a disc that
    /// plans a later event than its neighbours' rarely climbs far.
    #[inline]
    pub(super) fn set(&mut self, leaf: u32, time: Real) {
        let mut k = self.base + leaf as usize;
        self.nodes[k] = (time, leaf);
        while k > 1 {
            let sibling = k ^ 1;
            let pair = if k & 1 == 0 {
                earlier(self.nodes[k], self.nodes[sibling])
            } else {
                earlier(self.nodes[sibling], self.nodes[k])
            };
            k >>= 1;
            let node = &mut self.nodes[k];
            // Bitwise, so that a NaN could not stop the climb early.
            if node.1 == pair.1 && node.0.to_bits() == pair.0.to_bits() {
                return;
            }
            *node = pair;
        }
    }

    /// The earliest event's time and leaf.
    #[inline]
    pub(super) fn first(&self) -> (Real, u32) {
        self.nodes[1]
    }
}

/// The earlier of two nodes given left then right; on a tie the left one (the smaller
/// leaf), so that equal times pop in leaf order.
#[inline]
fn earlier(left: (Real, u32), right: (Real, u32)) -> (Real, u32) {
    if right.0 < left.0 { right } else { left }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a linear scan, over a sequence of updates that includes ties and leaves
    /// set back to infinity.
    #[test]
    fn the_root_is_the_earliest_leaf_ties_to_the_smaller() {
        for len in [1, 2, 3, 7, 8, 9, 100] {
            let mut tree = EventTree::default();
            tree.reset(len);
            let mut times = vec![Real::INFINITY; len];
            let mut x: u64 = 12345;
            for _ in 0..1000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let leaf = (x >> 33) as usize % len;
                let time = match (x >> 20) % 5 {
                    0 => Real::INFINITY,
                    _ => ((x >> 40) % 16) as Real,
                };
                times[leaf] = time;
                tree.set(leaf as u32, time);
                let mut best = (Real::INFINITY, 0);
                for (i, &t) in times.iter().enumerate() {
                    if t < best.0 {
                        best = (t, i);
                    }
                }
                let (t, l) = tree.first();
                if best.0.is_finite() {
                    assert_eq!((t, l as usize), best, "len {len}");
                } else {
                    assert!(t.is_infinite());
                }
            }
        }
    }
}
