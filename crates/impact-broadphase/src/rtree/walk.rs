//! The swept walks of [`RTreeBroadphase`]: nearest first
//! ([`Broadphase::visit_swept`](crate::Broadphase::visit_swept)), both trees opened best
//! first by the time the moving box enters each subtree, and the search for the nearest hit
//! ([`Broadphase::search_swept`](crate::Broadphase::search_swept)), depth first with each
//! node's children nearest first, through the moving trees and then the settled proxies'
//! four-wide BVH (`wide`). Either way a ray or shape cast that clips its sweep at its
//! nearest hit opens only the subtrees entered before it.

use super::tree::{Leaf, NODE_CAPACITY};
use super::wide::WideBvh;
use super::{RTreeBroadphase, State};
use crate::ProxyId;
use crate::swept::{SweptBox, SweptBoxF32};
use impact_geometry::Real;
use rstar::{ParentNode, RTreeNode};

/// One item of the best-first walk: a subtree (of the settled tree or the moving one), or a
/// proxy, under one key that orders by entry, then subtrees before proxies, then handle.
/// Entries are zero or more, whose bits order as the numbers do; at equal entries subtrees
/// open first, so every proxy entered at that time is waiting before the first of them is
/// visited, and they go by handle.
#[derive(Clone, Copy)]
struct Pending<'a> {
    key: u128,
    node: Option<(&'a ParentNode<Leaf>, bool)>,
}

impl<'a> Pending<'a> {
    const NONE: Self = Self { key: 0, node: None };

    fn subtree(entry: Real, node: &'a ParentNode<Leaf>, settled: bool) -> Self {
        Self {
            key: u128::from(entry.to_bits()) << 64,
            node: Some((node, settled)),
        }
    }

    fn proxy(entry: Real, id: ProxyId) -> Self {
        Self {
            key: (u128::from(entry.to_bits()) << 64) | (1 << 32) | u128::from(id.0),
            node: None,
        }
    }

    fn entry(&self) -> Real {
        Real::from_bits((self.key >> 64) as u64)
    }

    fn id(&self) -> ProxyId {
        ProxyId(self.key as u32)
    }
}

/// Items a walk holds without allocating: a ray or a short cast keeps a few dozen at most.
const INLINE: usize = 64;

/// A min-heap of pending items, on the stack up to [`INLINE`] of them and in a vector past
/// that: a query that allocated on every call spent a tenth of its time in the allocator.
struct Heap<'a> {
    inline: [Pending<'a>; INLINE],
    len: usize,
    spill: Vec<Pending<'a>>,
}

impl<'a> Heap<'a> {
    fn new() -> Self {
        Self {
            inline: [Pending::NONE; INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }

    fn items(&mut self) -> &mut [Pending<'a>] {
        if self.spill.is_empty() {
            &mut self.inline[..self.len]
        } else {
            &mut self.spill
        }
    }

    fn push(&mut self, item: Pending<'a>) {
        if self.spill.is_empty() && self.len < INLINE {
            self.inline[self.len] = item;
            self.len += 1;
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.inline[..self.len]);
                // The items now live in `spill`: once it is drained, the heap is empty, and
                // the copies left inline must not come back.
                self.len = 0;
            }
            self.spill.push(item);
        }
        let items = self.items();
        let mut i = items.len() - 1;
        while i > 0 {
            let parent = (i - 1) / 2;
            if items[parent].key <= items[i].key {
                break;
            }
            items.swap(parent, i);
            i = parent;
        }
    }

    fn pop(&mut self) -> Option<Pending<'a>> {
        let items = self.items();
        let last = items.len().checked_sub(1)?;
        items.swap(0, last);
        let top = items[last];
        let items = &mut items[..last];
        let mut i = 0;
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut least = i;
            if l < items.len() && items[l].key < items[least].key {
                least = l;
            }
            if r < items.len() && items[r].key < items[least].key {
                least = r;
            }
            if least == i {
                break;
            }
            items.swap(i, least);
            i = least;
        }
        if self.spill.is_empty() {
            self.len -= 1;
        } else {
            self.spill.pop();
        }
        Some(top)
    }
}

/// A subtree or proxy of one node, with its entry, as the depth-first search sorts them.
#[derive(Clone, Copy)]
struct Child<'a> {
    entry: Real,
    id: ProxyId,
    node: Option<&'a ParentNode<Leaf>>,
}

/// The sweep's [`SweptBox::first_touch`] of a child's box (a proxy's tree box or a
/// subtree's envelope).
#[inline]
fn touch(sweep: &SweptBox, child: &RTreeNode<Leaf>) -> Real {
    let envelope = match child {
        RTreeNode::Leaf(l) => l.envelope,
        RTreeNode::Parent(p) => p.envelope(),
    };
    sweep.first_touch(envelope.lower(), envelope.upper())
}

/// The most children a node's search sorts on the stack: the trees' node capacity; a node
/// with more (none is built so) is searched in the order of its children.
const CHILDREN: usize = NODE_CAPACITY;

impl RTreeBroadphase {
    /// The entry of `child` (a subtree's envelope, or a proxy's tree box then fat box), if
    /// the sweep enters it no later than `end`; `None` for a stale entry of the settled tree.
    #[inline]
    fn child_entry<'a>(
        &self,
        sweep: &SweptBox,
        child: &'a RTreeNode<Leaf>,
        settled: bool,
        end: Real,
    ) -> Option<Child<'a>> {
        let entry = Some(touch(sweep, child)).filter(|entry| *entry <= end)?;
        match child {
            RTreeNode::Leaf(l) => self.leaf_entry(l.id, entry, settled, sweep, end),
            RTreeNode::Parent(p) => Some(Child {
                entry,
                id: ProxyId(0),
                node: Some(p),
            }),
        }
    }

    /// The depth-first search of [`Broadphase::search_swept`](crate::Broadphase::search_swept)
    /// over both trees.
    ///
    /// The moving trees are searched first, then the settled proxies through their
    /// four-wide BVH (built here if the settled tree was rebuilt since the last search).
    pub(super) fn search(&self, sweep: &SweptBox, visit: &mut dyn FnMut(ProxyId, Real) -> Real) {
        let mut end: Real = 1.0;
        // A forest of no proxies still has a root (empty): not worth a test.
        if self.moving_len > 0 {
            for root in self.moving.roots() {
                let envelope = root.envelope();
                if sweep.entry(envelope.lower(), envelope.upper()).is_some()
                    && !self.search_node(root, false, sweep, &mut end, visit)
                {
                    return;
                }
            }
        }
        let bvh = self
            .settled_bvh
            .get_or_init(|| WideBvh::build(self.settled.iter()));
        if let (Some(bvh), Some(lanes)) = (bvh, SweptBoxF32::new(sweep)) {
            bvh.search(
                sweep,
                &lanes,
                &mut end,
                &mut |id, tree_entry, end| match self.leaf_entry(id, tree_entry, true, sweep, *end)
                {
                    Some(c) => self.search_child(c, true, sweep, end, visit),
                    None => true,
                },
            );
            return;
        }
        // Coordinates past single precision's comfort, or a tree too large to number: the
        // settled rstar tree.
        let root = self.settled.root();
        let envelope = root.envelope();
        if sweep.entry(envelope.lower(), envelope.upper()).is_some() {
            self.search_node(root, true, sweep, &mut end, visit);
        }
    }

    /// Searches `node`'s children nearest first, each only if entered no later than the end
    /// as it stands when its turn comes; false once the visitor ended the walk.
    ///
    /// Two passes: every child's entry first, kept or not without a branch (the children a
    /// sweep enters follow no pattern a predictor could learn), then the kept ones sorted
    /// and opened. A proxy's books (stale, tight) are read only in the second pass.
    fn search_node(
        &self,
        node: &ParentNode<Leaf>,
        settled: bool,
        sweep: &SweptBox,
        end: &mut Real,
        visit: &mut dyn FnMut(ProxyId, Real) -> Real,
    ) -> bool {
        let children = node.children();
        if children.len() > CHILDREN {
            return self.search_unsorted(children, settled, sweep, end, visit);
        }
        let mut order = [(0.0, 0u8); CHILDREN];
        let mut n = 0;
        for (i, child) in children.iter().enumerate() {
            let entry = touch(sweep, child);
            order[n] = (entry, i as u8);
            n += usize::from(entry <= *end);
        }
        // Insertion sort: a few children at most.
        for k in 1..n {
            let item = order[k];
            let mut i = k;
            while i > 0 && order[i - 1].0 > item.0 {
                order[i] = order[i - 1];
                i -= 1;
            }
            order[i] = item;
        }
        for &(entry, i) in &order[..n] {
            if entry > *end {
                break;
            }
            let c = match &children[usize::from(i)] {
                RTreeNode::Leaf(l) => match self.leaf_entry(l.id, entry, settled, sweep, *end) {
                    Some(c) => c,
                    None => continue,
                },
                RTreeNode::Parent(p) => Child {
                    entry,
                    id: ProxyId(0),
                    node: Some(p),
                },
            };
            if !self.search_child(c, settled, sweep, end, visit) {
                return false;
            }
        }
        true
    }

    /// The proxy `id` of a leaf whose tree box the sweep enters at `tree_entry`, with the
    /// entry of its fat box if that is no later than `end`; `None` for a stale entry of the
    /// settled tree.
    #[inline]
    fn leaf_entry(
        &self,
        id: ProxyId,
        tree_entry: Real,
        settled: bool,
        sweep: &SweptBox,
        end: Real,
    ) -> Option<Child<'static>> {
        let state = self.state[id.index()];
        // A settled entry whose proxy left the settled tree is stale.
        if settled && !state.has(State::SETTLED) {
            return None;
        }
        // A tight tree box is the fat box (a resting body's, typically).
        let entry = if state.has(State::TIGHT) {
            tree_entry
        } else {
            let fat = self.table.get(id).expect("present");
            sweep.entry_aabb(fat).filter(|e| *e <= end)?
        };
        Some(Child {
            entry,
            id,
            node: None,
        })
    }

    /// [`RTreeBroadphase::search_node`] for a node of more children than it sorts (none is
    /// built so): its children in their own order.
    fn search_unsorted(
        &self,
        children: &[RTreeNode<Leaf>],
        settled: bool,
        sweep: &SweptBox,
        end: &mut Real,
        visit: &mut dyn FnMut(ProxyId, Real) -> Real,
    ) -> bool {
        for child in children {
            if let Some(c) = self.child_entry(sweep, child, settled, *end)
                && !self.search_child(c, settled, sweep, end, visit)
            {
                return false;
            }
        }
        true
    }

    /// Visits the proxy `c` or searches the subtree `c`; false once the walk is ended.
    fn search_child(
        &self,
        c: Child<'_>,
        settled: bool,
        sweep: &SweptBox,
        end: &mut Real,
        visit: &mut dyn FnMut(ProxyId, Real) -> Real,
    ) -> bool {
        match c.node {
            Some(p) => self.search_node(p, settled, sweep, end, visit),
            None => {
                let next = visit(c.id, c.entry);
                if next.is_nan() || next < 0.0 {
                    return false;
                }
                *end = end.min(next);
                true
            }
        }
    }

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
        let mut heap = Heap::new();
        let subtree = |node: &ParentNode<Leaf>| {
            let envelope = node.envelope();
            sweep.entry(envelope.lower(), envelope.upper())
        };
        let moving = self.moving.roots().map(|root| (root, false));
        for (root, settled) in moving.chain([(self.settled.root(), true)]) {
            if let Some(entry) = subtree(root) {
                heap.push(Pending::subtree(entry, root, settled));
            }
        }
        let mut end: Real = 1.0;
        while let Some(item) = heap.pop() {
            let entry = item.entry();
            if entry > end {
                return;
            }
            let Some((node, settled)) = item.node else {
                let next = visit(item.id(), entry);
                if next.is_nan() || next < 0.0 {
                    return;
                }
                end = end.min(next);
                continue;
            };
            // Nothing entered after the end can be visited: it is not pushed.
            for child in node.children() {
                match self.child_entry(sweep, child, settled, end) {
                    Some(Child {
                        entry,
                        node: Some(p),
                        ..
                    }) => heap.push(Pending::subtree(entry, p, settled)),
                    Some(Child { entry, id, .. }) => heap.push(Pending::proxy(entry, id)),
                    None => {}
                }
            }
        }
    }
}
