//! The batch update of [`RTreeBroadphase`]: the tree-box rule (when a changed fat box needs
//! a new tree box, and how far ahead a drifting body's box reaches), and the upkeep of the
//! two trees it feeds: proxies settling into the settled tree, the moving tree updated entry
//! by entry or rebuilt.
//!
//! The constants below trade reinsertions against false candidates; each was measured on
//! the benchmark scenes (`benches/broadphase.rs`).

use super::tree::filed;
use super::{RTreeBroadphase, State};
use crate::ProxyId;
use impact_geometry::{Aabb, Real};
use rstar::RTree;

/// A proxy whose tree box has not changed for this many batches may join the settled tree
/// at its next rebuild. One quiet batch says little: a landing body, or one that just
/// left its tree box, would settle only to leave again.
const SETTLE_BATCHES: u32 = 2;

/// A fat box that changes again after at most this many batches belongs to a drifting
/// body whose motion is worth predicting; after a longer quiet spell the body was resting
/// (or was teleported) and its next motion is anybody's guess.
const SLOW_GAP_MAX: u32 = 8;

/// The tree box of a drifting body extends ahead of its fat box by the distance it drifted
/// in this many batches (at its last observed rate)...
const PREDICT_BATCHES: Real = 24.0;

/// ...and around it by this many margins, for turns. Both measured on the random walk
/// (bodies at up to half a margin per step): 8, 16, 24 and 32 batches ahead with 0.5 to 4
/// margins around; 24 and 1 were at or near the best at 10,000 and 100,000 bodies. Farther
/// ahead the extra candidate pairs cost more than the saved reinsertions.
const SLACK_MARGINS: Real = 1.0;

impl RTreeBroadphase {
    /// Applies the tree-box rule after present proxy `id`'s fat box changed from `old_fat`
    /// to `fat`. Returns `None` if its tree box still holds the fat box; otherwise the proxy
    /// got a new tree box and is now moving, and the result is the moving-tree change to
    /// make: its old tree box to remove, or `None` if it was settled (nothing to remove).
    pub(super) fn note_change(
        &mut self,
        id: ProxyId,
        old_fat: &Aabb,
        fat: &Aabb,
    ) -> Option<Option<Aabb>> {
        let i = id.index();
        self.mark_dirty(i);
        let gap = self.batch.wrapping_sub(self.changed_at[i]);
        self.changed_at[i] = self.batch;
        if self.tree_box[i].contains(fat) {
            // The fat box changed, so it no longer equals the tree box.
            self.state[i].set(State::TIGHT, false);
            return None;
        }
        let tree_box = if (2..=SLOW_GAP_MAX).contains(&gap) {
            self.drifting_tree_box(old_fat, fat, gap)
        } else {
            *fat
        };
        let tight = tree_box == *fat;
        let old = core::mem::replace(&mut self.tree_box[i], tree_box);
        let state = &mut self.state[i];
        state.set(State::MOVED, true);
        state.set(State::TIGHT, tight);
        self.moved_at[i] = self.batch;
        if state.has(State::SETTLED) {
            // Its settled entry goes stale: it is skipped until the next rebuild.
            state.set(State::SETTLED, false);
            state.set(State::MOVING, true);
            self.stale += 1;
            self.moving_len += 1;
            return Some(None);
        }
        Some(Some(old))
    }

    /// The tree box of a drifting body whose fat box moved from `old_fat` to `fat` over
    /// `gap` batches: the fat box grown by [`SLACK_MARGINS`] and stretched ahead by
    /// [`PREDICT_BATCHES`] of that drift, as Box2D's dynamic tree predicts motion from the
    /// displacement. A body drifting less than a margin per batch is stretched by less than
    /// `PREDICT_BATCHES` margins per axis anyway; clamping to that bound only limits what
    /// a teleport would stretch.
    fn drifting_tree_box(&self, old_fat: &Aabb, fat: &Aabb, gap: u32) -> Aabb {
        let margin = self.table.margin_for(fat);
        let mut tree_box = fat.inflated(SLACK_MARGINS * margin);
        let cap = PREDICT_BATCHES * margin;
        for k in 0..2 {
            let drift = ((fat.mins[k] - old_fat.mins[k]) + (fat.maxs[k] - old_fat.maxs[k]))
                / (2.0 * Real::from(gap));
            let ahead = (drift * PREDICT_BATCHES).clamp(-cap, cap);
            // Boxes near the edge of the f64 range can overflow here: predict nothing then.
            if !ahead.is_finite() {
                continue;
            }
            if ahead < 0.0 {
                tree_box.mins[k] += ahead;
            } else {
                tree_box.maxs[k] += ahead;
            }
        }
        // Growing a finite box can only overflow to infinity at the edge of the range.
        if tree_box
            .mins
            .iter()
            .chain(tree_box.maxs.iter())
            .all(|x| x.is_finite())
        {
            tree_box
        } else {
            *fat
        }
    }

    /// Whether moving proxy `i` may join the settled tree: its tree box unchanged for
    /// [`SETTLE_BATCHES`] and its candidates up to date (moved proxies are searched in the
    /// moving tree).
    #[inline]
    fn ready_to_settle(&self, i: usize) -> bool {
        let s = self.state[i];
        s.has(State::MOVING)
            && !s.has(State::MOVED)
            && self.batch.wrapping_sub(self.moved_at[i]) >= SETTLE_BATCHES
    }

    /// Rebuilds the settled tree, moving every proxy ready to settle into it, once that is
    /// worth it. Returns whether proxies left the moving tree.
    ///
    /// A proxy waiting to settle costs about one leaf of bulk loading per batch in the
    /// moving tree (rebuilt most batches where proxies wait), and rebuilding the settled
    /// tree costs about one per settled proxy: rebuild once the waiting has cost as much
    /// (the ski-rental rule, within twice the best choice in hindsight). Stale entries
    /// count as waiting too: they slow every search of the settled tree down.
    pub(super) fn maybe_settle(&mut self) -> bool {
        let mut ready = 0;
        if self.moving_len > 0 {
            ready = (0..self.state.len())
                .filter(|&i| self.ready_to_settle(i))
                .count();
        }
        self.waited += ready + self.stale;
        let settled_len = self.table.len() - self.moving_len;
        if self.waited <= settled_len + ready {
            return false;
        }
        let mut leaves = Vec::with_capacity(settled_len + ready);
        for i in 0..self.state.len() {
            if self.state[i].has(State::SETTLED) || self.ready_to_settle(i) {
                let state = &mut self.state[i];
                state.set(State::MOVING, false);
                state.set(State::SETTLED, true);
                leaves.push(filed(&self.table, ProxyId(i as u32), &self.tree_box[i]));
            }
        }
        self.moving_len -= ready;
        self.stale = 0;
        self.waited = 0;
        self.settled = RTree::bulk_load_with_params(leaves);
        self.settled_bvh = std::sync::OnceLock::new();
        self.rebuilds += 1;
        ready > 0
    }

    /// Rebuilds the moving tree from the flags, in handle order so the layout is
    /// reproducible.
    fn rebuild_moving(&mut self) {
        // The leaves of a large tree gathered on rayon's threads, in handle order.
        #[cfg(feature = "parallel")]
        if self.moving_len >= 4096 && rayon::current_num_threads() >= 2 {
            use rayon::prelude::*;
            let leaves = (self.state.par_iter().zip(&self.tree_box[..]).enumerate())
                .filter(|(_, (state, _))| state.has(State::MOVING))
                .map(|(i, (_, tree_box))| filed(&self.table, ProxyId(i as u32), tree_box))
                .collect();
            self.moving.rebuild(leaves);
            self.rebuilds += 1;
            return;
        }
        let mut leaves = Vec::with_capacity(self.moving_len);
        for (i, state) in self.state.iter().enumerate() {
            if state.has(State::MOVING) {
                leaves.push(filed(&self.table, ProxyId(i as u32), &self.tree_box[i]));
            }
        }
        self.moving.rebuild(leaves);
        self.rebuilds += 1;
    }

    /// Applies the moving-tree side of a batch's tree-box changes.
    pub(super) fn update_moving_tree(
        &mut self,
        changes: &[(ProxyId, Option<Aabb>)],
        settled: bool,
    ) {
        if settled || changes.len() as Real > self.config.rebuild_fraction * self.moving_len as Real
        {
            self.rebuild_moving();
            return;
        }
        for (id, old) in changes {
            // A handle listed twice in a batch was moved to its final tree box by its first
            // entry; its second old box is then not in the tree.
            let present = match old {
                Some(old) => self.moving.remove(&filed(&self.table, *id, old)).is_some(),
                None => true,
            };
            if present {
                let tree_box = &self.tree_box[id.index()];
                self.moving.insert(filed(&self.table, *id, tree_box));
            }
        }
    }
}
