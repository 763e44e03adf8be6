//! [`RTreeBroadphase`]: tree boxes in two `rstar` R-trees, one for settled proxies and one
//! for moving ones, with persistent candidate pairs.
//!
//! This file holds the configuration, the per-proxy books and the [`Broadphase`] entry
//! points; the work is in its modules, one per stage of a step:
//!
//! - `tree`: the leaves, the node capacity, and the walks over rstar's nodes (pruned visits,
//!   tree-against-tree joins);
//! - `forest`: the moving tree as a forest of its top-level clusters, bulk loaded on
//!   several threads with the `parallel` feature;
//! - `update`: the batch update, from new fat boxes to tree boxes and the two trees;
//! - `pairs`: the persistent candidates, brought up to date by joining what moved with
//!   both trees;
//! - `queries`: box, swept-box and ray queries over both trees;
//! - `walk`: the swept walks of scene queries over both trees, nearest first (best first)
//!   and for the nearest hit (depth first);
//! - `wide`: the settled tree's leaves again as a four-wide BVH, which the search for the
//!   nearest hit walks instead of the settled tree.

mod forest;
mod pairs;
mod queries;
#[cfg(test)]
mod tests;
mod tree;
mod update;
mod walk;
mod wide;

use crate::bounds::Bounds;
use crate::broadphase::{check_ray, check_swept};
use crate::error::{BroadphaseError, non_negative, valid_aabb};
use crate::proxy::ProxyTable;
use crate::swept::SweptBox;
use crate::{Broadphase, DEFAULT_MARGIN, ProxyId, ProxyPair};
use forest::Forest;
use impact_geometry::{Aabb, CollisionFilter, Point, Real, Vector};
use pairs::Candidate;
use rstar::RTree;
use std::sync::OnceLock;
use tree::{Leaf, TreeParams, filed};
use wide::WideBvh;

/// Rebuild the moving tree with `bulk_load` when more than this fraction of its proxies
/// changed tree box in one [`Broadphase::update_batch`]; below it they are removed and
/// inserted again one by one.
///
/// Measured with `cargo run --release -p impact-broadphase --example rebuild_threshold`
/// (table in `docs/benchmarks.md`): counting the pair search that follows, a rebuild costs
/// as much as reinserting about 3% of the proxies at 1,000 and 1.5% at 10,000 and
/// 100,000 (rstar's R* insertion, with forced reinsertion and nodes of 12, costs 4 to 6 µs
/// per proxy there). At 2% the step costs at most about 1.6 times the better choice at
/// every measured size and fraction.
pub const DEFAULT_REBUILD_FRACTION: Real = 0.02;
/// Tuning of [`RTreeBroadphase`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RTreeConfig {
    /// How far (world units) each fat box extends beyond the box it was given, at most
    /// (a small box's margin is [`MARGIN_PER_SIZE`](crate::MARGIN_PER_SIZE) of its shorter
    /// side), so that a body moving less than this keeps its fat box and its pairs are not
    /// tested again.
    /// Larger margins mean fewer changes and more false-positive pairs; tree boxes grow in
    /// proportion. Default [`DEFAULT_MARGIN`].
    pub margin: Real,
    /// Above this fraction of moving proxies whose tree box changed in one
    /// [`Broadphase::update_batch`], the moving tree is rebuilt by bulk loading instead of
    /// removing and reinserting each of them. 0 rebuilds on any change; 1 or more never
    /// rebuilds. Default [`DEFAULT_REBUILD_FRACTION`].
    pub rebuild_fraction: Real,
}

impl Default for RTreeConfig {
    fn default() -> Self {
        Self {
            margin: DEFAULT_MARGIN,
            rebuild_fraction: DEFAULT_REBUILD_FRACTION,
        }
    }
}

/// Per-handle flags, one byte so that the pair search's lookups stay in cache.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct State(u8);

impl State {
    /// In the settled tree.
    const SETTLED: u8 = 1;
    /// In the moving tree. Neither flag: absent.
    const MOVING: u8 = 2;
    /// The fat box changed since the pairs were last brought up to date.
    const DIRTY: u8 = 4;
    /// The tree box changed (or the proxy was inserted) since then; implies `DIRTY`.
    const MOVED: u8 = 8;
    /// The tree box is the fat box (no slack), so overlapping tree boxes mean overlapping
    /// fat boxes.
    const TIGHT: u8 = 16;

    #[inline]
    fn has(self, flag: u8) -> bool {
        self.0 & flag != 0
    }

    #[inline]
    fn set(&mut self, flag: u8, on: bool) {
        if on {
            self.0 |= flag;
        } else {
            self.0 &= !flag;
        }
    }

    #[inline]
    fn present(self) -> bool {
        self.has(Self::SETTLED | Self::MOVING)
    }
}
/// A broadphase on `rstar` R*-trees, with persistent pairs.
///
/// - **Fat boxes.** Each proxy's box is grown by [`RTreeConfig::margin`] (or, for a small
///   box, [`MARGIN_PER_SIZE`](crate::MARGIN_PER_SIZE) of its shorter side); an update whose
///   box stays inside (and is not much smaller than) the fat box changes nothing. Pairs are
///   exactly the pairs of overlapping fat boxes (the [`Broadphase`] contract).
/// - **Tree boxes.** The trees hold a *tree box* per proxy that contains its fat box. For a
///   body drifting less than a margin per step it is the fat box grown by a margin and
///   stretched ahead along the drift, about 24 steps' worth of it (Box2D's dynamic tree
///   predicts motion the same way); for faster bodies, and for new, waking or teleported
///   ones, it is the fat box itself. A fat box that changes inside its tree box leaves the
///   trees untouched; only one that leaves it is reinserted. So a slowly drifting body (the
///   random walk) touches the trees about every twenty steps rather than every three, and
///   its pairs are then re-tested, not searched.
/// - **Settled and moving proxies.** Proxies whose tree boxes stopped changing live in a
///   *settled* tree that is rebuilt only once the proxies waiting to join it and its
///   entries gone stale have cost, in searches of the moving tree, about as much as a
///   rebuild; the others live in a *moving* tree, rebuilt with `bulk_load` when more than
///   [`RTreeConfig::rebuild_fraction`] of it changed in one [`Broadphase::update_batch`]
///   and updated entry by entry otherwise. A settled proxy whose tree box changes leaves
///   the settled tree lazily (its entry is skipped from then on).
/// - **Persistent candidates.** The pairs of overlapping tree boxes are kept from call to
///   call of [`Broadphase::overlapping_pairs`], each with whether the fat boxes overlap;
///   only pairs of a proxy with a new tree box are searched in the trees (by joining a tree
///   of those proxies with both trees, or the moving tree with itself and with the settled
///   tree when they are most of it), and only pairs of a proxy with a new fat box are
///   tested again.
/// - **Swept and ray queries** prune subtrees by the moving-box test itself, not by the union
///   of the start and end boxes, so a long diagonal motion visits only the nodes it crosses.
///   The search for the nearest hit ([`Broadphase::search_swept`]: rays and shape casts)
///   walks the settled proxies through a four-wide BVH of the settled tree's leaves, four
///   boxes tested at once per node in single precision, built at the first search after
///   each rebuild of the settled tree (about 80 bytes a settled proxy).
///
/// Costs per step: O(k log k) for the `k` moving proxies when the moving tree is rebuilt,
/// plus the pair search, which follows the proxies whose tree boxes changed, plus one pass
/// over the candidates. rstar envelopes cannot be refitted in place, so when every body
/// moves every step a refitting BVH (parry's) stays ahead. See `docs/benchmarks.md`.
#[derive(Debug, Clone)]
pub struct RTreeBroadphase {
    config: RTreeConfig,
    table: ProxyTable,
    /// Proxies flagged [`State::SETTLED`]; entries of any other proxy are stale.
    settled: RTree<Leaf, TreeParams>,
    /// The leaves of `settled` as a four-wide BVH for the nearest-hit search, built at the
    /// first search after each rebuild of `settled` (`None`: too many to number).
    settled_bvh: OnceLock<Option<WideBvh>>,
    /// Exactly the proxies flagged [`State::MOVING`], with their current tree boxes.
    moving: Forest,
    /// By handle.
    state: Vec<State>,
    /// By handle: the tree box (meaningless for absent handles).
    tree_box: Vec<Aabb>,
    /// By handle: the batch in which the tree box last changed.
    moved_at: Vec<u32>,
    /// By handle: the batch in which the fat box last changed.
    changed_at: Vec<u32>,
    moving_len: usize,
    /// Entries of the settled tree whose proxy left it.
    stale: usize,
    /// Moving proxies times batches spent waiting to settle since the settled tree was
    /// last rebuilt: what keeping them in the moving tree has cost, in leaves.
    waited: usize,
    /// Sorted; as of the last `overlapping_pairs`.
    candidates: Vec<Candidate>,
    /// The candidates whose fat boxes overlap, sorted.
    pairs: Vec<ProxyPair>,
    /// Proxies flagged [`State::DIRTY`], once each.
    dirty: Vec<ProxyId>,
    /// Whether a proxy was removed since the last `overlapping_pairs` (its pairs must go).
    removed: bool,
    /// Scratch: new candidate pairs.
    found: Vec<ProxyPair>,
    /// Scratch for sorting `found`.
    sort_scratch: Vec<ProxyPair>,
    /// Scratch: the next `candidates`, swapped in (no allocation per step).
    next_candidates: Vec<Candidate>,
    /// Scratch: moving-tree updates of a batch, `(id, old tree box)`, `None` for a proxy
    /// that was settled.
    changes: Vec<(ProxyId, Option<Aabb>)>,
    /// Batches applied so far.
    batch: u32,
    rebuilds: u64,
}

impl Default for RTreeBroadphase {
    fn default() -> Self {
        Self::new()
    }
}

impl RTreeBroadphase {
    /// An empty broadphase with the default [`RTreeConfig`].
    pub fn new() -> Self {
        Self::with_config(RTreeConfig::default()).expect("the default configuration is valid")
    }

    /// An empty broadphase with the given tuning.
    ///
    /// # Errors
    /// [`BroadphaseError::NotFinite`] or [`BroadphaseError::Negative`] naming `margin` or
    /// `rebuild_fraction`.
    pub fn with_config(config: RTreeConfig) -> Result<Self, BroadphaseError> {
        non_negative("rebuild_fraction", config.rebuild_fraction)?;
        Ok(Self {
            config,
            table: ProxyTable::new(config.margin)?,
            settled: RTree::new_with_params(),
            settled_bvh: OnceLock::new(),
            moving: Forest::new(),
            state: Vec::new(),
            tree_box: Vec::new(),
            moved_at: Vec::new(),
            changed_at: Vec::new(),
            moving_len: 0,
            stale: 0,
            waited: 0,
            candidates: Vec::new(),
            pairs: Vec::new(),
            dirty: Vec::new(),
            removed: false,
            found: Vec::new(),
            sort_scratch: Vec::new(),
            next_candidates: Vec::new(),
            changes: Vec::new(),
            batch: 0,
            rebuilds: 0,
        })
    }

    /// The tuning in use.
    pub fn config(&self) -> &RTreeConfig {
        &self.config
    }

    /// Changes [`RTreeConfig::rebuild_fraction`] from the next batch on.
    ///
    /// # Errors
    /// [`BroadphaseError::NotFinite`] or [`BroadphaseError::Negative`] naming
    /// `rebuild_fraction`; the configuration is then unchanged.
    pub fn set_rebuild_fraction(&mut self, rebuild_fraction: Real) -> Result<(), BroadphaseError> {
        non_negative("rebuild_fraction", rebuild_fraction)?;
        self.config.rebuild_fraction = rebuild_fraction;
        Ok(())
    }

    /// How many times [`Broadphase::update_batch`] rebuilt a tree by bulk loading.
    pub fn rebuild_count(&self) -> u64 {
        self.rebuilds
    }

    /// Takes proxy `id` out of its tree: out of the moving tree at once, out of the settled
    /// one lazily (its entry is skipped from then on).
    fn leave_trees(&mut self, id: ProxyId) {
        let i = id.index();
        let state = &mut self.state[i];
        if state.has(State::SETTLED) {
            self.stale += 1;
        } else if state.has(State::MOVING) {
            self.moving
                .remove(&filed(&self.table, id, &self.tree_box[i]));
            self.moving_len -= 1;
        }
        state.set(State::SETTLED | State::MOVING, false);
    }

    /// Puts proxy `id`, in no tree, into the moving tree with its fat box `fat` as its tree
    /// box, moved this batch (its pairs are searched at the next pair update).
    fn enter_moving(&mut self, id: ProxyId, fat: Aabb) {
        let i = id.index();
        // A handle removed and inserted again before the pairs were refreshed is listed in
        // `dirty` already; `mark_dirty` keeps it once.
        self.mark_dirty(i);
        self.state[i].set(State::MOVING | State::MOVED | State::TIGHT, true);
        self.tree_box[i] = fat;
        self.moved_at[i] = self.batch;
        self.moving_len += 1;
        self.moving.insert(filed(&self.table, id, &fat));
    }

    fn mark_dirty(&mut self, i: usize) {
        if !self.state[i].has(State::DIRTY) {
            self.state[i].set(State::DIRTY, true);
            // The table only grows through `insert`, which takes a u32 handle.
            self.dirty.push(ProxyId(i as u32));
        }
    }
}

impl Broadphase for RTreeBroadphase {
    fn insert(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadphaseError> {
        let fat = self.table.insert(id, &aabb)?;
        let i = id.index();
        if self.state.len() <= i {
            self.state.resize(i + 1, State::default());
            self.tree_box.resize(i + 1, fat);
            self.moved_at.resize(i + 1, 0);
            self.changed_at.resize(i + 1, 0);
        }
        self.enter_moving(id, fat);
        // Unknown speed: no slack before the fat box changes.
        self.changed_at[i] = self.batch.wrapping_sub(2);
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, BroadphaseError> {
        self.table.check_update("update", id, &aabb)?;
        let Some((old_fat, new)) = self.table.update_checked(id, &aabb) else {
            return Ok(false);
        };
        if let Some(old) = self.note_change(id, &old_fat, &new) {
            self.update_moving_tree(&[(id, old)], false);
        }
        Ok(true)
    }

    fn update_batch(&mut self, moved: &[(ProxyId, Aabb)]) -> Result<usize, BroadphaseError> {
        let _span = tracing::trace_span!("broadphase.update_batch", moved = moved.len()).entered();
        self.table.check_batch(moved)?;
        self.batch = self.batch.wrapping_add(1);
        let mut changes = core::mem::take(&mut self.changes);
        changes.clear();
        let mut changed = 0;
        for (id, aabb) in moved {
            if let Some((old_fat, new)) = self.table.update_checked(*id, aabb) {
                changed += 1;
                if let Some(old) = self.note_change(*id, &old_fat, &new) {
                    changes.push((*id, old));
                }
            }
        }
        let settled = self.maybe_settle();
        self.update_moving_tree(&changes, settled);
        self.changes = changes;
        Ok(changed)
    }

    fn set_filter(&mut self, id: ProxyId, filter: CollisionFilter) -> Result<(), BroadphaseError> {
        let Some(&fat) = self.table.get(id) else {
            return Err(crate::broadphase::unknown_for_filter(id));
        };
        if self.table.filter_of(id) == Some(&filter) {
            return Ok(());
        }
        // Out of its tree under its old filter's bits, back into the moving tree under the
        // new one's, as a moved proxy: its pairs are searched again at the next
        // `overlapping_pairs` (a filter that changed may let in pairs its candidates left
        // out).
        self.leave_trees(id);
        self.table.set_filter(id, filter)?;
        self.enter_moving(id, fat);
        Ok(())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadphaseError> {
        // Out of the trees first, under the filter bits its leaf was filed with.
        if self.table.get(id).is_some() {
            self.leave_trees(id);
        }
        self.table.remove(id)?;
        self.removed = true;
        Ok(())
    }

    fn len(&self) -> usize {
        self.table.len()
    }

    fn fat_aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.table.get(id).copied()
    }

    fn overlapping_pairs(&mut self) -> &[ProxyPair] {
        if !self.dirty.is_empty() || self.removed {
            let _span =
                tracing::trace_span!("broadphase.pairs", changed = self.dirty.len()).entered();
            self.refresh_pairs();
        }
        &self.pairs
    }

    fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<ProxyId>) -> Result<(), BroadphaseError> {
        out.clear();
        valid_aabb("aabb", aabb)?;
        let envelope = Bounds::of(aabb);
        self.visit_all(&|e| envelope.overlaps(e), &mut |id| {
            // The tree box holds the fat box: test the fat box itself.
            if self.table.get(id).expect("present").intersects(aabb) {
                out.push(id);
            }
        });
        out.sort_unstable();
        Ok(())
    }

    fn query_swept(
        &self,
        aabb: &Aabb,
        translation: &Vector,
        out: &mut Vec<ProxyId>,
    ) -> Result<(), BroadphaseError> {
        out.clear();
        check_swept(aabb, translation)?;
        self.query_sweep(&SweptBox::new(aabb, translation), out);
        Ok(())
    }

    fn visit_swept(
        &self,
        aabb: &Aabb,
        translation: &Vector,
        visit: &mut dyn FnMut(ProxyId, Real) -> Real,
    ) -> Result<(), BroadphaseError> {
        check_swept(aabb, translation)?;
        self.walk_swept(&SweptBox::new(aabb, translation), visit);
        Ok(())
    }

    fn search_swept(
        &self,
        aabb: &Aabb,
        translation: &Vector,
        visit: &mut dyn FnMut(ProxyId, Real) -> Real,
    ) -> Result<(), BroadphaseError> {
        check_swept(aabb, translation)?;
        self.search(&SweptBox::new(aabb, translation), visit);
        Ok(())
    }

    fn query_ray(
        &self,
        origin: &Point,
        dir: &Vector,
        max_fraction: Real,
        out: &mut Vec<ProxyId>,
    ) -> Result<(), BroadphaseError> {
        out.clear();
        check_ray(origin, dir, max_fraction)?;
        self.query_sweep(&SweptBox::ray(origin, dir, max_fraction), out);
        Ok(())
    }
}
