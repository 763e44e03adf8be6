//! The nearest-first walk of [`RTreeBroadphase`]
//! ([`Broadphase::visit_swept`](crate::Broadphase::visit_swept)): both trees opened best
//! first, by the time the moving box enters each subtree, so a ray or shape cast that clips
//! its sweep at its nearest hit opens only the subtrees entered before it.

use super::{Leaf, RTreeBroadphase, State};
use crate::ProxyId;
use crate::swept::SweptBox;
use impact_geometry::Real;
use rstar::{ParentNode, RTreeNode};
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// One item of the best-first walk: a subtree (of the settled tree or the moving one), or a
/// proxy, under the key (entry bits, 0 for a subtree and 1 for a proxy, handle). Entries are zero or more, whose bits order as the numbers do; at equal
/// entries subtrees open first, so every proxy entered at that time is waiting before the
/// first of them is visited, and they go by handle.
struct Pending<'a> {
    key: (u64, u8, u32),
    node: Option<(&'a ParentNode<Leaf>, bool)>,
}

impl PartialEq for Pending<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Pending<'_> {}

impl PartialOrd for Pending<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Pending<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key.cmp(&other.key)
    }
}

impl RTreeBroadphase {
    /// The best-first walk: subtrees and proxies in a heap by entry. A subtree's entry is a
    /// lower bound of its proxies' (its envelope holds their tree boxes, which hold their
    /// fat boxes, and entry is monotone), so proxies leave the heap in the order of their fat
    /// boxes' entries, and the walk stops at the first item entered after the end of the
    /// sweep.
    pub(super) fn walk_swept(
        &self,
        sweep: &SweptBox,
        visit: &mut dyn FnMut(ProxyId, Real) -> Real,
    ) {
        let mut heap = BinaryHeap::new();
        let subtree = |node: &ParentNode<Leaf>| {
            let envelope = node.envelope();
            sweep.entry(envelope.lower(), envelope.upper())
        };
        for (root, settled) in [(self.moving.root(), false), (self.settled.root(), true)] {
            if let Some(entry) = subtree(root) {
                heap.push(Reverse(Pending {
                    key: (entry.to_bits(), 0, 0),
                    node: Some((root, settled)),
                }));
            }
        }
        let mut end: Real = 1.0;
        while let Some(Reverse(item)) = heap.pop() {
            let entry = Real::from_bits(item.key.0);
            if entry > end {
                return;
            }
            let Some((node, settled)) = item.node else {
                let next = visit(ProxyId(item.key.2), entry);
                if next.is_nan() || next < 0.0 {
                    return;
                }
                end = end.min(next);
                continue;
            };
            for child in node.children() {
                match child {
                    RTreeNode::Leaf(l) => {
                        // A settled entry whose proxy left the settled tree is stale.
                        if settled && !self.state[l.id.index()].has(State::SETTLED) {
                            continue;
                        }
                        let fat = self.table.get(l.id).expect("present");
                        if let Some(entry) = sweep.entry_aabb(fat) {
                            heap.push(Reverse(Pending {
                                key: (entry.to_bits(), 1, l.id.0),
                                node: None,
                            }));
                        }
                    }
                    RTreeNode::Parent(p) => {
                        if let Some(entry) = subtree(p) {
                            heap.push(Reverse(Pending {
                                key: (entry.to_bits(), 0, 0),
                                node: Some((p, settled)),
                            }));
                        }
                    }
                }
            }
        }
    }
}
