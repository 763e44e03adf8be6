//! The R-tree plumbing of [`RTreeBroadphase`](super::RTreeBroadphase): the node capacity,
//! what a leaf holds, and the walks the broadphase is built on (pruned visits for the
//! queries, tree-against-tree joins for the pair search), which know nothing of the
//! broadphase's books.
//!
//! rstar's own queries take one envelope; the swept and ray queries need a test that prunes
//! by the moving box itself, and the pair search a join of two trees rather than one query
//! per leaf, so the walks are written here over rstar's nodes.

use crate::ProxyId;
use crate::bounds::{Bounds, FilterBits};
use crate::proxy::ProxyTable;
use impact_geometry::Aabb;
use rstar::{ParentNode, RStarInsertionStrategy, RTreeNode, RTreeObject, RTreeParams};

/// Most children of a tree node. Larger than rstar's default of 6: bulk loading, which
/// moves every leaf once per level, needs fewer levels. Measured 6, 8, 10, 12, 16, 25 and
/// 36 on the benchmark scenes: 6 and 8 were slower, the others within noise of each other.
pub(super) const NODE_CAPACITY: usize = 12;

/// Node capacities of the trees.
#[derive(Debug, Clone, Copy)]
pub(super) struct TreeParams;

impl RTreeParams for TreeParams {
    const MIN_SIZE: usize = NODE_CAPACITY / 2;
    const MAX_SIZE: usize = NODE_CAPACITY;
    const REINSERTION_COUNT: usize = NODE_CAPACITY / 3;
    type DefaultInsertionStrategy = RStarInsertionStrategy;
}

/// One proxy as a tree stores it. rstar envelopes must not change after insertion, so a
/// proxy whose tree box changes is removed and inserted again (or its tree rebuilt).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Leaf {
    pub(super) id: ProxyId,
    pub(super) envelope: Bounds,
}

impl RTreeObject for Leaf {
    type Envelope = Bounds;

    #[inline]
    fn envelope(&self) -> Self::Envelope {
        self.envelope
    }
}

/// The leaf of proxy `id` with tree box `tree_box` and filter bits `filter`.
pub(super) fn leaf(id: ProxyId, tree_box: &Aabb, filter: FilterBits) -> Leaf {
    Leaf {
        id,
        envelope: Bounds::of(tree_box).with_filter(filter),
    }
}

/// The leaf of proxy `id` with tree box `tree_box`, under the bits of its filter in `table`
/// now: every leaf is filed, and found again to be removed, under its proxy's current
/// filter, which is why a proxy whose filter changes leaves its tree first.
pub(super) fn filed(table: &ProxyTable, id: ProxyId, tree_box: &Aabb) -> Leaf {
    leaf(id, tree_box, table.filter_bits(id))
}

/// Calls `found` for every leaf under `node` whose envelope passes `test`, pruning every
/// subtree whose envelope fails it. `test` must be monotone (a box holding a passing box
/// passes), which holds for overlap and for the swept test.
pub(super) fn visit<T, F>(node: &ParentNode<Leaf>, test: &T, found: &mut F)
where
    T: Fn(&Bounds) -> bool,
    F: FnMut(ProxyId),
{
    for child in node.children() {
        match child {
            RTreeNode::Leaf(l) => {
                if test(&l.envelope) {
                    found(l.id);
                }
            }
            RTreeNode::Parent(p) => {
                if test(&p.envelope()) {
                    visit(p, test, found);
                }
            }
        }
    }
}

/// The joins below find the pairs of overlapping leaves whose filter bits may pair
/// ([`Bounds::meets`]): a node pair whose unions of bits cannot pair is not descended.
///
/// Every pair of overlapping leaves under `node`, each once: the tree traversed against
/// itself, so that subtrees apart from each other are never compared leaf by leaf.
pub(super) fn self_join<F: FnMut(ProxyId, ProxyId)>(node: &ParentNode<Leaf>, pair: &mut F) {
    let children = node.children();
    for (i, a) in children.iter().enumerate() {
        if let RTreeNode::Parent(p) = a {
            self_join(p, pair);
        }
        let env_a = a.envelope();
        for b in &children[i + 1..] {
            if env_a.meets(&b.envelope()) {
                cross_join(a, b, pair);
            }
        }
    }
}

/// Every pair of overlapping leaves with one under `a` and one under `b` (disjoint subtrees,
/// of one tree or of two, whose envelopes overlap), as `pair(leaf of a, leaf of b)`.
///
/// Of two inner nodes the larger one is opened, so the pairs compared stay of similar size
/// and a sparse side prunes the dense one (a few settled entries against a full moving tree
/// cost little), rather than every leaf of one side querying the other.
fn cross_join<F: FnMut(ProxyId, ProxyId)>(a: &RTreeNode<Leaf>, b: &RTreeNode<Leaf>, pair: &mut F) {
    match (a, b) {
        (RTreeNode::Leaf(x), RTreeNode::Leaf(y)) => pair(x.id, y.id),
        (RTreeNode::Leaf(x), RTreeNode::Parent(q)) => {
            visit(q, &|e| x.envelope.meets(e), &mut |y| pair(x.id, y));
        }
        (RTreeNode::Parent(p), RTreeNode::Leaf(y)) => {
            visit(p, &|e| y.envelope.meets(e), &mut |x| pair(x, y.id));
        }
        (RTreeNode::Parent(p), RTreeNode::Parent(q)) => {
            let (env_p, env_q) = (p.envelope(), q.envelope());
            if env_p.half_perimeter() >= env_q.half_perimeter() {
                for c in p.children() {
                    if c.envelope().meets(&env_q) {
                        cross_join(c, b, pair);
                    }
                }
            } else {
                for d in q.children() {
                    if env_p.meets(&d.envelope()) {
                        cross_join(a, d, pair);
                    }
                }
            }
        }
    }
}

/// Every pair of overlapping leaves with one in tree `a` and one in tree `b`, as
/// `pair(leaf of a, leaf of b)`.
pub(super) fn join_trees<F: FnMut(ProxyId, ProxyId)>(
    a: &ParentNode<Leaf>,
    b: &ParentNode<Leaf>,
    pair: &mut F,
) {
    for c in a.children() {
        for d in b.children() {
            if c.envelope().meets(&d.envelope()) {
                cross_join(c, d, pair);
            }
        }
    }
}

/// A piece of a join, for the `parallel` feature: the pairs of [`self_join`] or
/// [`join_trees`] cut into pieces that can run on several threads, whose pairs together are
/// the join's, each once.
#[cfg(feature = "parallel")]
#[derive(Clone, Copy)]
pub(super) enum Piece<'a> {
    /// Every pair within a subtree ([`self_join`]).
    Within(&'a ParentNode<Leaf>),
    /// Every pair across two disjoint subtrees whose envelopes overlap ([`cross_join`]).
    Across(&'a RTreeNode<Leaf>, &'a RTreeNode<Leaf>),
}

/// [`self_join`] of `node` as pieces into `out`, cut `depth` levels down.
#[cfg(feature = "parallel")]
pub(super) fn self_join_pieces<'a>(
    node: &'a ParentNode<Leaf>,
    depth: u32,
    out: &mut Vec<Piece<'a>>,
) {
    let children = node.children();
    for (i, a) in children.iter().enumerate() {
        if let RTreeNode::Parent(p) = a {
            if depth > 0 {
                self_join_pieces(p, depth - 1, out);
            } else {
                out.push(Piece::Within(p));
            }
        }
        let env_a = a.envelope();
        for b in &children[i + 1..] {
            if env_a.meets(&b.envelope()) {
                out.push(Piece::Across(a, b));
            }
        }
    }
}

/// [`join_trees`] of `a` and `b` as pieces into `out`.
#[cfg(feature = "parallel")]
pub(super) fn join_tree_pieces<'a>(
    a: &'a ParentNode<Leaf>,
    b: &'a ParentNode<Leaf>,
    out: &mut Vec<Piece<'a>>,
) {
    for c in a.children() {
        for d in b.children() {
            if c.envelope().meets(&d.envelope()) {
                out.push(Piece::Across(c, d));
            }
        }
    }
}

/// Every pair of one piece, as `pair(leaf, leaf)` (for an [`Piece::Across`], the first
/// leaf from the first subtree).
#[cfg(feature = "parallel")]
pub(super) fn run_piece<F: FnMut(ProxyId, ProxyId)>(piece: Piece<'_>, pair: &mut F) {
    match piece {
        Piece::Within(p) => self_join(p, pair),
        Piece::Across(a, b) => cross_join(a, b, pair),
    }
}
