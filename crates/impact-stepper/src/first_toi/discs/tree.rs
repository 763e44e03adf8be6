//! The disc path's event queue: a tournament tree with one leaf per disc.
//!
//! Each disc holds exactly one planned event (its earliest), so the queue never grows and
//! never holds a stale copy of a disc's own plan: re-planning a disc overwrites its leaf
//! and replays the matches on the way to the root (log4 N levels, one cache line each). A binary heap would need a position index to do the
//! same, and a calendar of entries would keep every superseded plan until it is popped.

use impact_geometry::Real;

/// A complete four-way tree over the leaves `0..len` (each level whole quads); each
/// inner node holds the earliest of its four children, ties to the smallest leaf, so the
/// root is the earliest event and the order is deterministic. Four siblings share one
/// cache line: a leaf's path to the root touches one line per level, and there are half
/// as many levels as in a binary tree (in a large gas the lower levels are not in cache).
#[derive(Debug, Clone, Default)]
pub(super) struct EventTree {
    /// The levels, leaves first: level `l` holds `quads[start[l]..start[l + 1]]`, the
    /// parent of slot `s` of quad `q` of a level is slot `q % 4` of quad `q / 4` of the
    /// next. The last level is one quad, whose earliest node is the root.
    quads: Vec<Quad>,
    start: Vec<usize>,
}

/// Four sibling nodes, each a time and the leaf it came from, in one cache line.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Quad([(Real, u32); 4]);

impl Quad {
    const EMPTY: Self = Self([(Real::INFINITY, u32::MAX); 4]);

    /// The earliest node; on a tie the first, which holds the smaller leaf.
    #[inline]
    fn earliest(&self) -> (Real, u32) {
        let [a, b, c, d] = self.0;
        earlier(earlier(a, b), earlier(c, d))
    }
}

impl EventTree {
    /// `len` leaves, every one at infinity (nothing planned). Keeps the storage.
    pub(super) fn reset(&mut self, len: usize) {
        self.quads.clear();
        self.start.clear();
        let mut quads = len.max(1).div_ceil(4);
        loop {
            self.start.push(self.quads.len());
            self.quads.resize(self.quads.len() + quads, Quad::EMPTY);
            if quads == 1 {
                break;
            }
            quads = quads.div_ceil(4);
        }
        self.start.push(self.quads.len());
        for leaf in 0..len {
            self.quads[leaf / 4].0[leaf % 4] = (Real::INFINITY, leaf as u32);
        }
        for level in 1..self.start.len() - 1 {
            for q in self.start[level]..self.start[level + 1] {
                for slot in 0..4 {
                    let child = self.start[level - 1] + 4 * (q - self.start[level]) + slot;
                    if child < self.start[level] {
                        self.quads[q].0[slot] = self.quads[child].earliest();
                    }
                }
            }
        }
    }

    /// Sets the time of `leaf`'s event and replays its path to the root, up to the first
    /// level where the earliest of the quad does not change (the ones above it do not
    /// either): a disc that plans a later event than its neighbours' rarely climbs far.
    #[inline]
    pub(super) fn set(&mut self, leaf: u32, time: Real) {
        let mut index = leaf as usize;
        let mut node = (time, leaf);
        let top = self.start.len() - 2;
        for level in 0..top {
            self.quads[self.start[level] + index / 4].0[index % 4] = node;
            let earliest = self.quads[self.start[level] + index / 4].earliest();
            index /= 4;
            let parent = self.quads[self.start[level + 1] + index / 4].0[index % 4];
            // Bitwise, so that a NaN could not stop the climb early.
            if parent.1 == earliest.1 && parent.0.to_bits() == earliest.0.to_bits() {
                return;
            }
            node = earliest;
        }
        self.quads[self.start[top] + index / 4].0[index % 4] = node;
    }

    /// The earliest event's time and leaf.
    #[inline]
    pub(super) fn first(&self) -> (Real, u32) {
        self.quads[self.start[self.start.len() - 2]].earliest()
    }
}

/// The earlier of two nodes given in leaf order; on a tie the first (the smaller leaf),
/// so that equal times pop in leaf order.
#[inline]
fn earlier(first: (Real, u32), second: (Real, u32)) -> (Real, u32) {
    if second.0 < first.0 { second } else { first }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a linear scan, over a sequence of updates that includes ties and leaves
    /// set back to infinity.
    #[test]
    fn the_root_is_the_earliest_leaf_ties_to_the_smaller() {
        for len in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 64, 100, 300] {
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
