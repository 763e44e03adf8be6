//! The persistent candidate pairs of [`RTreeBroadphase`]: the pairs of overlapping tree
//! boxes, each with whether the fat boxes overlap, kept from call to call of
//! [`overlapping_pairs`](crate::Broadphase::overlapping_pairs) and brought up to date from
//! what moved: only pairs of a proxy with a new tree box are searched in the trees, and only
//! pairs of a proxy with a new fat box are tested again.

use super::tree::{Leaf, TreeParams, filed, join_trees};
use super::{RTreeBroadphase, State};
use crate::pair_sort::sort_pairs;
use crate::{ProxyId, ProxyPair};
use impact_geometry::Real;
use rstar::RTree;

/// Above this fraction of moving proxies with a new tree box, the pair search joins the
/// moving tree with itself and with the settled tree; below it, a tree bulk loaded from
/// just those proxies with both trees. Measured on the benchmark scenes: the second is
/// faster up to about half of the moving tree (the first visits every moving leaf, moved
/// or not; the second pays for one more bulk load).
const JOIN_FRACTION: Real = 0.5;
/// A pair of proxies whose tree boxes overlap, and whether their fat boxes do.
#[derive(Debug, Clone, Copy)]
pub(super) struct Candidate {
    pub(super) pair: ProxyPair,
    pub(super) fat_overlap: bool,
}

impl RTreeBroadphase {
    /// Puts every pair of overlapping tree boxes with a moved proxy into `found`, each once,
    /// unsorted.
    fn find_moved_pairs(&mut self) {
        let state = &self.state;
        let table = &self.table;
        let moved = |id: ProxyId| state[id.index()].has(State::MOVED);
        let settled = |id: ProxyId| state[id.index()].has(State::SETTLED);
        // Pairs the filters refuse are never candidates (the trees' filter bits prune most
        // of them, folded and so not all): a proxy whose filter changes is searched again
        // (`set_filter` files it as moved).
        let accepts = |a: ProxyId, b: ProxyId| table.accepts(a, b);
        let found = &mut self.found;
        found.clear();
        // Settled proxies have kept their tree boxes since their tree was built, so every
        // moved proxy is in the moving tree (or absent).
        let moved_count = self.dirty.iter().filter(|&&d| moved(d)).count();
        if moved_count as Real > JOIN_FRACTION * self.moving_len as Real {
            #[cfg(feature = "parallel")]
            if parallel::moving_pairs(
                (&self.moving, self.moving_len),
                self.settled.root(),
                (state, table),
                found,
            ) {
                return;
            }
            self.moving.self_join(&mut |a, b| {
                if (moved(a) || moved(b)) && accepts(a, b) {
                    found.push(ProxyPair::new(a, b));
                }
            });
            self.moving.join(self.settled.root(), &mut |m, s| {
                if moved(m) && settled(s) && accepts(m, s) {
                    found.push(ProxyPair::new(m, s));
                }
            });
        } else {
            // Fewer moved proxies: a tree of just those, joined with both trees, shares the
            // descent among neighbours that one query per proxy would repeat.
            let leaves: Vec<Leaf> = self
                .dirty
                .iter()
                .filter(|&&d| moved(d) && state[d.index()].present())
                .map(|&d| filed(table, d, &self.tree_box[d.index()]))
                .collect();
            let moved_tree: RTree<Leaf, TreeParams> = RTree::bulk_load_with_params(leaves);
            join_trees(moved_tree.root(), self.settled.root(), &mut |m, s| {
                if settled(s) && accepts(m, s) {
                    found.push(ProxyPair::new(m, s));
                }
            });
            // Two moved proxies find each other twice: keep the find from the smaller handle.
            self.moving.join_from(moved_tree.root(), &mut |m, x| {
                if x != m && !(moved(x) && x < m) && accepts(m, x) {
                    found.push(ProxyPair::new(m, x));
                }
            });
        }
    }

    /// Brings `candidates` and `pairs` up to date with the tree and fat boxes.
    pub(super) fn refresh_pairs(&mut self) {
        self.find_moved_pairs();
        sort_pairs(&mut self.found, &mut self.sort_scratch);
        let state = &self.state;
        let table = &self.table;
        let fat = |id: ProxyId| table.get(id).expect("candidates are present");
        // Two tight tree boxes are the fat boxes: their overlap needs no lookup.
        let fat_overlap = |p: ProxyPair| {
            (state[p.a.index()].has(State::TIGHT) && state[p.b.index()].has(State::TIGHT))
                || fat(p.a).intersects(fat(p.b))
        };
        let removed = self.removed;
        // A candidate of two unmoved, present proxies keeps overlapping tree boxes; its fat
        // boxes need a new test only if one of them changed.
        let keep = |c: &Candidate| {
            let (sa, sb) = (state[c.pair.a.index()], state[c.pair.b.index()]);
            if sa.has(State::MOVED) || sb.has(State::MOVED) {
                return None;
            }
            if removed && !(sa.present() && sb.present()) {
                return None;
            }
            let fat_overlap = if sa.has(State::DIRTY) || sb.has(State::DIRTY) {
                fat_overlap(c.pair)
            } else {
                c.fat_overlap
            };
            Some(Candidate {
                pair: c.pair,
                fat_overlap,
            })
        };
        let next = &mut self.next_candidates;
        let pairs = &mut self.pairs;
        next.clear();
        next.reserve(self.candidates.len() + self.found.len());
        pairs.clear();
        let mut push = |c: Candidate| {
            next.push(c);
            if c.fat_overlap {
                pairs.push(c.pair);
            }
        };
        let new = |pair: ProxyPair| Candidate {
            pair,
            fat_overlap: fat_overlap(pair),
        };
        // Merge: the two lists are sorted and disjoint (new ones have a moved proxy). `keep`
        // is called in the loop rather than through `filter_map`, where the compiler may
        // leave it a call per candidate instead of inlining it into the merge.
        let found = &self.found;
        let mut j = 0;
        for c in &self.candidates {
            let Some(c) = keep(c) else { continue };
            while j < found.len() && found[j].key() < c.pair.key() {
                push(new(found[j]));
                j += 1;
            }
            push(c);
        }
        for &pair in &found[j..] {
            push(new(pair));
        }
        core::mem::swap(&mut self.candidates, &mut self.next_candidates);
        for id in self.dirty.drain(..) {
            self.state[id.index()].set(State::DIRTY | State::MOVED, false);
        }
        self.removed = false;
    }
}

/// The pair search of the moving tree on several threads (`parallel` feature): the same pairs
/// as the serial joins, in another order, which the sort that follows makes the same.
#[cfg(feature = "parallel")]
mod parallel {
    use super::super::forest::Forest;
    use super::super::tree::{Leaf, Piece, run_piece};
    use super::State;
    use crate::ProxyPair;
    use crate::proxy::ProxyTable;
    use rayon::prelude::*;
    use rstar::ParentNode;

    /// Proxies below which the joins stay on the calling thread.
    const MIN_PROXIES: usize = 2048;

    /// Every pair of overlapping tree boxes with a moved proxy, within `moving` and between
    /// `moving` and `settled`, into `found` (unsorted); `false` (and nothing done) when the
    /// trees are too small to share out or there is one thread.
    pub(super) fn moving_pairs(
        (moving, moving_len): (&Forest, usize),
        settled: &ParentNode<Leaf>,
        (state, table): (&[State], &ProxyTable),
        found: &mut Vec<ProxyPair>,
    ) -> bool {
        if moving_len < MIN_PROXIES || rayon::current_num_threads() < 2 {
            return false;
        }
        let moved = |id: crate::ProxyId| state[id.index()].has(State::MOVED);
        let settled_id = |id: crate::ProxyId| state[id.index()].has(State::SETTLED);
        let mut within = Vec::new();
        moving.self_join_pieces(2, &mut within);
        let mut across = Vec::new();
        moving.join_pieces(settled, &mut across);
        let pieces: Vec<(Piece<'_>, bool)> = within
            .into_iter()
            .map(|p| (p, true))
            .chain(across.into_iter().map(|p| (p, false)))
            .collect();
        let parts: Vec<Vec<ProxyPair>> = pieces
            .par_iter()
            .map(|&(piece, within)| {
                let mut out = Vec::new();
                run_piece(piece, &mut |a, b| {
                    let keep = if within {
                        moved(a) || moved(b)
                    } else {
                        moved(a) && settled_id(b)
                    } && table.accepts(a, b);
                    if keep {
                        out.push(ProxyPair::new(a, b));
                    }
                });
                out
            })
            .collect();
        found.reserve(parts.iter().map(Vec::len).sum());
        for part in parts {
            found.extend(part);
        }
        true
    }
}
