//! The moving tree of [`RTreeBroadphase`](super::RTreeBroadphase) as a forest: a large
//! tree is bulk loaded as the subtrees under its top-level partition, each an rstar tree of
//! its own, so that the subtrees can be built on several threads (`parallel` feature).
//!
//! rstar builds a node from its children inside its own crate only, so the subtrees cannot
//! be put under one root; the forest's trees stand for the root's children instead. The
//! partition is rstar's top level of OMT bulk loading (Lee and Lee, "OMT: Overlap
//! Minimizing Top-down Bulk Loading Algorithm for R-tree", 2003) with the cut of
//! [`Bounds`](crate::bounds::Bounds) (each group across its longer side): as many slabs per
//! axis as rstar would cut for that many leaves, then each slab cut again. It depends on
//! the leaves alone, so the forest, and with it every walk's order, is the same on any
//! number of threads, and in the serial build; the pairs the joins report are the same set
//! as one tree's (the overlaps of the same boxes) and are sorted afterwards.
//!
//! A small moving tree (below [`SPLIT_MIN`] leaves) is a single tree, bulk loaded as
//! before: the forest then changes nothing.

use super::tree::{Leaf, NODE_CAPACITY, TreeParams, join_trees, self_join};
#[cfg(feature = "parallel")]
use super::tree::{Piece, join_tree_pieces, self_join_pieces};
use crate::ProxyId;
use crate::bounds::longer_axis;
use rstar::{Envelope, ParentNode, RTree, RTreeObject};

/// Leaves from which a bulk load is cut into a forest. Below it a bulk load is too short
/// to share out (a tree of 4,096 discs loads in about 0.3 ms).
const SPLIT_MIN: usize = 4096;

/// The moving proxies' trees (at least one; a leaf is in exactly one of them).
#[derive(Debug, Clone)]
pub(super) struct Forest {
    trees: Vec<RTree<Leaf, TreeParams>>,
}

impl Forest {
    /// An empty forest of one tree.
    pub(super) fn new() -> Self {
        Self {
            trees: vec![RTree::new_with_params()],
        }
    }

    /// The forest of `leaves`, in place of this one: one tree below [`SPLIT_MIN`] leaves,
    /// else one tree per cluster of the top-level partition, built on rayon's threads with
    /// the `parallel` feature (where the old trees are freed beside the first cut).
    pub(super) fn rebuild(&mut self, leaves: Vec<Leaf>) {
        let old = core::mem::take(&mut self.trees);
        if leaves.len() < SPLIT_MIN {
            drop(old);
            self.trees = vec![RTree::bulk_load_with_params(leaves)];
            return;
        }
        let per_axis = clusters_per_axis(leaves.len());
        #[cfg(feature = "parallel")]
        if rayon::current_num_threads() >= 2 {
            let ((), slabs) = rayon::join(move || drop(old), || cut(leaves, per_axis));
            self.trees = build_slabs(slabs, per_axis);
            return;
        }
        drop(old);
        self.trees = build_slabs(cut(leaves, per_axis), per_axis);
    }

    /// The roots of the trees, in a fixed order.
    pub(super) fn roots(&self) -> impl Iterator<Item = &ParentNode<Leaf>> + '_ {
        self.trees.iter().map(RTree::root)
    }

    /// Inserts `leaf` into the tree whose envelope it enlarges least (by area, then the
    /// first such tree), as R*'s choice of subtree does at the root; an empty tree takes it
    /// only if every tree is empty.
    pub(super) fn insert(&mut self, leaf: Leaf) {
        let env = leaf.envelope();
        let mut best: Option<(usize, (f64, f64))> = None;
        for (i, tree) in self.trees.iter().enumerate() {
            if tree.size() == 0 {
                continue;
            }
            let own = tree.root().envelope();
            let key = (own.merged(&env).area() - own.area(), own.area());
            if best.is_none_or(|(_, b)| key < b) {
                best = Some((i, key));
            }
        }
        let i = best.map_or(0, |(i, _)| i);
        self.trees[i].insert(leaf);
    }

    /// Removes `leaf` from whichever tree holds it.
    pub(super) fn remove(&mut self, leaf: &Leaf) -> Option<Leaf> {
        let env = leaf.envelope();
        self.trees
            .iter_mut()
            .filter(|t| t.root().envelope().contains_envelope(&env))
            .find_map(|t| t.remove(leaf))
    }

    /// Every pair of overlapping leaves of the forest, each once, as [`self_join`] of one
    /// tree gives them: the pairs within each tree, then those across each two trees whose
    /// envelopes overlap.
    pub(super) fn self_join<F: FnMut(ProxyId, ProxyId)>(&self, pair: &mut F) {
        for (i, a) in self.trees.iter().enumerate() {
            self_join(a.root(), pair);
            for b in &self.trees[i + 1..] {
                if a.root().envelope().meets(&b.root().envelope()) {
                    join_trees(a.root(), b.root(), pair);
                }
            }
        }
    }

    /// Every pair of overlapping leaves with one in the forest and one under `other`, as
    /// `pair(leaf of the forest, leaf of other)`.
    pub(super) fn join<F: FnMut(ProxyId, ProxyId)>(&self, other: &ParentNode<Leaf>, pair: &mut F) {
        for tree in &self.trees {
            join_trees(tree.root(), other, pair);
        }
    }

    /// Every pair of overlapping leaves with one under `other` and one in the forest, as
    /// `pair(leaf of other, leaf of the forest)`.
    pub(super) fn join_from<F: FnMut(ProxyId, ProxyId)>(
        &self,
        other: &ParentNode<Leaf>,
        pair: &mut F,
    ) {
        for tree in &self.trees {
            join_trees(other, tree.root(), pair);
        }
    }

    /// [`Forest::self_join`] as pieces into `out`, cut `depth` levels below a root over the
    /// whole forest (the trees of a forest of several stand for that root's children).
    #[cfg(feature = "parallel")]
    pub(super) fn self_join_pieces<'a>(&'a self, depth: u32, out: &mut Vec<Piece<'a>>) {
        let depth = if self.trees.len() == 1 {
            depth
        } else {
            depth.saturating_sub(1)
        };
        for (i, a) in self.trees.iter().enumerate() {
            self_join_pieces(a.root(), depth, out);
            for b in &self.trees[i + 1..] {
                if a.root().envelope().meets(&b.root().envelope()) {
                    join_tree_pieces(a.root(), b.root(), out);
                }
            }
        }
    }

    /// [`Forest::join`] with `other` as pieces into `out`.
    #[cfg(feature = "parallel")]
    pub(super) fn join_pieces<'a>(&'a self, other: &'a ParentNode<Leaf>, out: &mut Vec<Piece<'a>>) {
        for tree in &self.trees {
            join_tree_pieces(tree.root(), other, out);
        }
    }

    /// Every leaf, tree by tree.
    #[cfg(test)]
    pub(super) fn iter(&self) -> impl Iterator<Item = &Leaf> + '_ {
        self.trees.iter().flat_map(RTree::iter)
    }
}

/// rstar's count of slabs per axis at the top of a bulk load of `len` leaves
/// (`calculate_number_of_clusters_on_axis`, at least 2): the root's children spread over
/// the two axes.
fn clusters_per_axis(len: usize) -> usize {
    let max_size = NODE_CAPACITY as f32;
    let depth = (len as f32).log(max_size).ceil() as i32;
    let n_subtree = max_size.powi(depth - 1);
    let clusters = (len as f32 / n_subtree).ceil();
    (clusters.sqrt().floor() as usize).max(2)
}

/// `leaves` cut into `count` slabs across their longer side, each of
/// `ceil(len / count)` leaves but the last; in order along that side.
fn cut(mut leaves: Vec<Leaf>, count: usize) -> Vec<Vec<Leaf>> {
    let slab = leaves.len().div_ceil(count).max(1);
    let axis = longer_axis(&leaves);
    let mut slabs = Vec::with_capacity(count);
    while leaves.len() > slab {
        leaves.select_nth_unstable_by(slab, |l, r| by_lower(l, r, axis));
        let rest = leaves.drain(slab..).collect();
        slabs.push(core::mem::replace(&mut leaves, rest));
    }
    slabs.push(leaves);
    slabs
}

/// The order of two leaves by the lower corner along `axis` (finite: boxes are validated).
fn by_lower(l: &Leaf, r: &Leaf, axis: usize) -> core::cmp::Ordering {
    let (l, r) = (l.envelope.lower()[axis], r.envelope.lower()[axis]);
    l.partial_cmp(&r).unwrap_or(core::cmp::Ordering::Equal)
}

/// Each slab cut into `per_axis` clusters across its own longer side, and each cluster
/// bulk loaded by rstar; in slab order, then cluster order.
fn build_slabs(slabs: Vec<Vec<Leaf>>, per_axis: usize) -> Vec<RTree<Leaf, TreeParams>> {
    let one = |slab: Vec<Leaf>| -> Vec<RTree<Leaf, TreeParams>> {
        cut(slab, per_axis)
            .into_iter()
            .map(RTree::bulk_load_with_params)
            .collect()
    };
    #[cfg(feature = "parallel")]
    if rayon::current_num_threads() >= 2 {
        use rayon::prelude::*;
        let built: Vec<Vec<RTree<Leaf, TreeParams>>> =
            slabs.into_par_iter().with_max_len(1).map(one).collect();
        return built.into_iter().flatten().collect();
    }
    slabs.into_iter().flat_map(one).collect()
}
