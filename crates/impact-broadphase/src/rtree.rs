//! [`RTreeBroadphase`]: tree boxes in two `rstar` R-trees, one for settled proxies and one
//! for moving ones, with persistent candidate pairs.

use crate::bounds::Bounds;
use crate::broadphase::{check_ray, check_swept};
use crate::error::{BroadphaseError, non_negative, valid_aabb};
use crate::pair_sort::sort_pairs;
use crate::proxy::ProxyTable;
use crate::swept::SweptBox;
use crate::{Broadphase, DEFAULT_MARGIN, ProxyId, ProxyPair};
use impact_geometry::{Aabb, Point, Real, Vector};
mod walk;

use rstar::{ParentNode, RStarInsertionStrategy, RTree, RTreeNode, RTreeObject, RTreeParams};

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

/// Above this fraction of moving proxies with a new tree box, the pair search joins the
/// moving tree with itself and with the settled tree; below it, a tree bulk loaded from
/// just those proxies with both trees. Measured on the benchmark scenes: the second is
/// faster up to about half of the moving tree (the first visits every moving leaf, moved
/// or not; the second pays for one more bulk load).
const JOIN_FRACTION: Real = 0.5;

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

/// Most children of a tree node. Larger than rstar's default of 6: bulk loading, which
/// moves every leaf once per level, needs fewer levels. Measured 6, 8, 10, 12, 16, 25 and
/// 36 on the benchmark scenes: 6 and 8 were slower, the others within noise of each other.
const NODE_CAPACITY: usize = 12;

/// Node capacities of the trees.
#[derive(Debug, Clone, Copy)]
struct TreeParams;

impl RTreeParams for TreeParams {
    const MIN_SIZE: usize = NODE_CAPACITY / 2;
    const MAX_SIZE: usize = NODE_CAPACITY;
    const REINSERTION_COUNT: usize = NODE_CAPACITY / 3;
    type DefaultInsertionStrategy = RStarInsertionStrategy;
}

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

/// One proxy as a tree stores it. rstar envelopes must not change after insertion, so a
/// proxy whose tree box changes is removed and inserted again (or its tree rebuilt).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Leaf {
    id: ProxyId,
    envelope: Bounds,
}

impl RTreeObject for Leaf {
    type Envelope = Bounds;

    #[inline]
    fn envelope(&self) -> Self::Envelope {
        self.envelope
    }
}

fn leaf(id: ProxyId, tree_box: &Aabb) -> Leaf {
    Leaf {
        id,
        envelope: Bounds::of(tree_box),
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

/// A pair of proxies whose tree boxes overlap, and whether their fat boxes do.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    pair: ProxyPair,
    fat_overlap: bool,
}

/// Calls `found` for every leaf under `node` whose envelope passes `test`, pruning every
/// subtree whose envelope fails it. `test` must be monotone (a box holding a passing box
/// passes), which holds for overlap and for the swept test.
fn visit<T, F>(node: &ParentNode<Leaf>, test: &T, found: &mut F)
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

/// Every pair of overlapping leaves under `node`, each once: the tree traversed against
/// itself, so that subtrees apart from each other are never compared leaf by leaf.
fn self_join<F: FnMut(ProxyId, ProxyId)>(node: &ParentNode<Leaf>, pair: &mut F) {
    let children = node.children();
    for (i, a) in children.iter().enumerate() {
        if let RTreeNode::Parent(p) = a {
            self_join(p, pair);
        }
        let env_a = a.envelope();
        for b in &children[i + 1..] {
            if env_a.overlaps(&b.envelope()) {
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
            visit(q, &|e| x.envelope.overlaps(e), &mut |y| pair(x.id, y));
        }
        (RTreeNode::Parent(p), RTreeNode::Leaf(y)) => {
            visit(p, &|e| y.envelope.overlaps(e), &mut |x| pair(x, y.id));
        }
        (RTreeNode::Parent(p), RTreeNode::Parent(q)) => {
            let (env_p, env_q) = (p.envelope(), q.envelope());
            if env_p.half_perimeter() >= env_q.half_perimeter() {
                for c in p.children() {
                    if c.envelope().overlaps(&env_q) {
                        cross_join(c, b, pair);
                    }
                }
            } else {
                for d in q.children() {
                    if env_p.overlaps(&d.envelope()) {
                        cross_join(a, d, pair);
                    }
                }
            }
        }
    }
}

/// Every pair of overlapping leaves with one in tree `a` and one in tree `b`, as
/// `pair(leaf of a, leaf of b)`.
fn join_trees<F: FnMut(ProxyId, ProxyId)>(
    a: &ParentNode<Leaf>,
    b: &ParentNode<Leaf>,
    pair: &mut F,
) {
    for c in a.children() {
        for d in b.children() {
            if c.envelope().overlaps(&d.envelope()) {
                cross_join(c, d, pair);
            }
        }
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
    /// Exactly the proxies flagged [`State::MOVING`], with their current tree boxes.
    moving: RTree<Leaf, TreeParams>,
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
            moving: RTree::new_with_params(),
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

    fn mark_dirty(&mut self, i: usize) {
        if !self.state[i].has(State::DIRTY) {
            self.state[i].set(State::DIRTY, true);
            // The table only grows through `insert`, which takes a u32 handle.
            self.dirty.push(ProxyId(i as u32));
        }
    }

    /// Applies the tree-box rule after present proxy `id`'s fat box changed from `old_fat`
    /// to `fat`. Returns `None` if its tree box still holds the fat box; otherwise the proxy
    /// got a new tree box and is now moving, and the result is the moving-tree change to
    /// make: its old tree box to remove, or `None` if it was settled (nothing to remove).
    fn note_change(&mut self, id: ProxyId, old_fat: &Aabb, fat: &Aabb) -> Option<Option<Aabb>> {
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
    fn maybe_settle(&mut self) -> bool {
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
                leaves.push(leaf(ProxyId(i as u32), &self.tree_box[i]));
            }
        }
        self.moving_len -= ready;
        self.stale = 0;
        self.waited = 0;
        self.settled = RTree::bulk_load_with_params(leaves);
        self.rebuilds += 1;
        ready > 0
    }

    /// Rebuilds the moving tree from the flags, in handle order so the layout is
    /// reproducible.
    fn rebuild_moving(&mut self) {
        let mut leaves = Vec::with_capacity(self.moving_len);
        for (i, state) in self.state.iter().enumerate() {
            if state.has(State::MOVING) {
                leaves.push(leaf(ProxyId(i as u32), &self.tree_box[i]));
            }
        }
        self.moving = RTree::bulk_load_with_params(leaves);
        self.rebuilds += 1;
    }

    /// Calls `found` for every present proxy whose tree box passes `test` (monotone, see
    /// [`visit`]), in no particular order.
    fn visit_all<T, F>(&self, test: &T, found: &mut F)
    where
        T: Fn(&Bounds) -> bool,
        F: FnMut(ProxyId),
    {
        visit(self.moving.root(), test, found);
        let state = &self.state;
        visit(self.settled.root(), test, &mut |id| {
            if state[id.index()].has(State::SETTLED) {
                found(id);
            }
        });
    }

    /// Puts every pair of overlapping tree boxes with a moved proxy into `found`, each once,
    /// unsorted.
    fn find_moved_pairs(&mut self) {
        let state = &self.state;
        let moved = |id: ProxyId| state[id.index()].has(State::MOVED);
        let settled = |id: ProxyId| state[id.index()].has(State::SETTLED);
        let found = &mut self.found;
        found.clear();
        // Settled proxies have kept their tree boxes since their tree was built, so every
        // moved proxy is in the moving tree (or absent).
        let moved_count = self.dirty.iter().filter(|&&d| moved(d)).count();
        if moved_count as Real > JOIN_FRACTION * self.moving_len as Real {
            self_join(self.moving.root(), &mut |a, b| {
                if moved(a) || moved(b) {
                    found.push(ProxyPair::new(a, b));
                }
            });
            join_trees(self.moving.root(), self.settled.root(), &mut |m, s| {
                if moved(m) && settled(s) {
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
                .map(|&d| leaf(d, &self.tree_box[d.index()]))
                .collect();
            let moved_tree: RTree<Leaf, TreeParams> = RTree::bulk_load_with_params(leaves);
            join_trees(moved_tree.root(), self.settled.root(), &mut |m, s| {
                if settled(s) {
                    found.push(ProxyPair::new(m, s));
                }
            });
            // Two moved proxies find each other twice: keep the find from the smaller handle.
            join_trees(moved_tree.root(), self.moving.root(), &mut |m, x| {
                if x != m && !(moved(x) && x < m) {
                    found.push(ProxyPair::new(m, x));
                }
            });
        }
    }

    /// Brings `candidates` and `pairs` up to date with the tree and fat boxes.
    fn refresh_pairs(&mut self) {
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
        // Merge: the two lists are sorted and disjoint (new ones have a moved proxy).
        let found = &self.found;
        let mut j = 0;
        for c in self.candidates.iter().filter_map(keep) {
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

    /// The proxies whose fat boxes the moving box reaches, sorted, pruning every subtree
    /// whose envelope it misses (the swept and ray queries differ only in the box).
    fn query_sweep(&self, sweep: &SweptBox, out: &mut Vec<ProxyId>) {
        self.visit_all(&|e| sweep.hits(e.lower(), e.upper()), &mut |id| {
            // The tree box holds the fat box: test the fat box itself.
            if sweep.hits_aabb(self.table.get(id).expect("present")) {
                out.push(id);
            }
        });
        out.sort_unstable();
    }

    /// Applies the moving-tree side of a batch's tree-box changes.
    fn update_moving_tree(&mut self, changes: &[(ProxyId, Option<Aabb>)], settled: bool) {
        if settled || changes.len() as Real > self.config.rebuild_fraction * self.moving_len as Real
        {
            self.rebuild_moving();
            return;
        }
        for (id, old) in changes {
            // A handle listed twice in a batch was moved to its final tree box by its first
            // entry; its second old box is then not in the tree.
            let present = match old {
                Some(old) => self.moving.remove(&leaf(*id, old)).is_some(),
                None => true,
            };
            if present {
                self.moving.insert(leaf(*id, &self.tree_box[id.index()]));
            }
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
        // A handle removed and inserted again before the pairs were refreshed is listed in
        // `dirty` already; `mark_dirty` keeps it once.
        self.mark_dirty(i);
        let state = &mut self.state[i];
        state.set(State::MOVING | State::MOVED | State::TIGHT, true);
        self.tree_box[i] = fat;
        self.moved_at[i] = self.batch;
        // Unknown speed: no slack before the fat box changes.
        self.changed_at[i] = self.batch.wrapping_sub(2);
        self.moving_len += 1;
        self.moving.insert(leaf(id, &fat));
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

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadphaseError> {
        self.table.remove(id)?;
        let i = id.index();
        let state = &mut self.state[i];
        if state.has(State::SETTLED) {
            self.stale += 1;
        } else {
            self.moving.remove(&leaf(id, &self.tree_box[i]));
            self.moving_len -= 1;
        }
        state.set(State::SETTLED | State::MOVING, false);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BruteForce;
    use proptest::prelude::*;

    impl RTreeBroadphase {
        /// Checks the bookkeeping against a recomputation from the table: tree membership,
        /// tree boxes, counters and flags, and, when the pairs are up to date, that the
        /// candidates are exactly the pairs of overlapping tree boxes.
        fn check_invariants(&self) {
            let n = self.state.len();
            let (mut moving, mut settled) = (0, 0);
            for (i, s) in self.state.iter().enumerate() {
                let fat = self.table.get(ProxyId(i as u32));
                assert_eq!(s.present(), fat.is_some(), "proxy {i}: flags {s:?}");
                assert!(!(s.has(State::SETTLED) && s.has(State::MOVING)));
                assert_eq!(s.has(State::DIRTY), self.dirty.contains(&ProxyId(i as u32)));
                if s.has(State::MOVED) {
                    assert!(s.has(State::DIRTY), "proxy {i}: moved but not dirty");
                    assert!(!s.has(State::SETTLED), "proxy {i}: moved but settled");
                }
                let Some(fat) = fat else { continue };
                assert!(self.tree_box[i].contains(fat), "proxy {i}: fat box outside");
                if s.has(State::TIGHT) {
                    assert_eq!(&self.tree_box[i], fat, "proxy {i}: tight but loose");
                }
                if s.has(State::MOVING) {
                    moving += 1;
                } else {
                    settled += 1;
                }
            }
            assert_eq!(moving, self.moving_len);
            let entry = |i: usize| leaf(ProxyId(i as u32), &self.tree_box[i]);
            let mut in_moving: Vec<Leaf> = self.moving.iter().copied().collect();
            in_moving.sort_by_key(|l| l.id);
            let want: Vec<Leaf> = (0..n)
                .filter(|&i| self.state[i].has(State::MOVING))
                .map(entry)
                .collect();
            assert_eq!(in_moving, want, "moving tree");
            let mut seen = vec![0; n];
            for l in self.settled.iter() {
                if self.state[l.id.index()].has(State::SETTLED) {
                    assert_eq!(*l, entry(l.id.index()), "settled entry");
                    seen[l.id.index()] += 1;
                }
            }
            for (i, s) in self.state.iter().enumerate() {
                let want = usize::from(s.has(State::SETTLED));
                assert_eq!(seen[i], want, "proxy {i}: settled entries");
            }
            assert_eq!(self.settled.size() - settled, self.stale, "stale entries");
            if !self.dirty.is_empty() || self.removed {
                return;
            }
            let mut want = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    let (sa, sb) = (self.state[a], self.state[b]);
                    if sa.present()
                        && sb.present()
                        && entry(a).envelope.overlaps(&entry(b).envelope)
                    {
                        let pair = ProxyPair::new(ProxyId(a as u32), ProxyId(b as u32));
                        let fat = |i: usize| self.table.get(ProxyId(i as u32)).unwrap();
                        want.push((pair, fat(a).intersects(fat(b))));
                    }
                }
            }
            let got: Vec<_> = self
                .candidates
                .iter()
                .map(|c| (c.pair, c.fat_overlap))
                .collect();
            assert_eq!(got, want, "candidates");
            let pairs: Vec<_> = want.iter().filter(|c| c.1).map(|c| c.0).collect();
            assert_eq!(self.pairs, pairs, "pairs");
        }
    }

    /// What happens to one body in one step.
    #[derive(Debug, Clone)]
    enum Move {
        /// Keeps still and is not reported (resting or static).
        Rest,
        /// Keeps its velocity (quarter units per step, signed) and reports its swept box.
        Drift,
        /// Takes this velocity from now on.
        Turn(i32, i32),
        /// Jumps here (quarter units) and reports its new box.
        Teleport(i32, i32),
        /// Leaves the broadphase, or comes back where it was.
        Toggle,
    }

    fn body_move() -> impl Strategy<Value = Move> {
        prop_oneof![
            4 => Just(Move::Rest),
            6 => Just(Move::Drift),
            1 => (-3..=3, -3..=3).prop_map(|(x, y)| Move::Turn(x, y)),
            1 => (0..160, 0..160).prop_map(|(x, y)| Move::Teleport(x, y)),
            1 => Just(Move::Toggle),
        ]
    }

    /// Steps of up to 12 bodies; each step also says whether to ask for the pairs and
    /// whether to report by batch or one update at a time.
    fn steps() -> impl Strategy<Value = Vec<(Vec<Move>, bool, bool)>> {
        prop::collection::vec(
            (
                prop::collection::vec(body_move(), 12),
                prop::bool::weighted(0.8),
                prop::bool::weighted(0.9),
            ),
            1..80,
        )
    }

    /// A square body on the quarter grid (all lengths in quarter units).
    struct Body {
        at: (i32, i32),
        velocity: (i32, i32),
        size: i32,
        present: bool,
    }

    impl Body {
        fn aabb(&self) -> Aabb {
            let q = |k: i32| Real::from(k) * 0.25;
            let (x, y) = self.at;
            Aabb::new(
                Point::new(q(x), q(y)),
                Point::new(q(x + self.size), q(y + self.size)),
            )
        }
    }

    /// Runs `steps` on the R-tree and on brute force; after every step both report the same
    /// pairs and the R-tree's bookkeeping holds. Returns the R-tree.
    fn run(
        steps: &[(Vec<Move>, bool, bool)],
        margin: Real,
        rebuild_fraction: Real,
    ) -> RTreeBroadphase {
        let config = RTreeConfig {
            margin,
            rebuild_fraction,
        };
        let mut tree = RTreeBroadphase::with_config(config).unwrap();
        let mut brute = BruteForce::with_margin(margin).unwrap();
        let mut bodies: Vec<Body> = (0..12)
            .map(|i| Body {
                at: (i * 13 % 150, i * 29 % 150),
                velocity: (1, i % 3 - 1),
                size: 2 + i % 5,
                present: true,
            })
            .collect();
        for (i, b) in bodies.iter().enumerate() {
            let aabb = b.aabb();
            tree.insert(ProxyId(i as u32), aabb).unwrap();
            brute.insert(ProxyId(i as u32), aabb).unwrap();
        }
        for (moves, ask, batch) in steps {
            let mut moved = Vec::new();
            for (i, (m, b)) in moves.iter().zip(bodies.iter_mut()).enumerate() {
                let id = ProxyId(i as u32);
                let before = b.aabb();
                match m {
                    Move::Rest => continue,
                    Move::Turn(x, y) => b.velocity = (*x, *y),
                    Move::Drift => {}
                    Move::Teleport(x, y) => b.at = (*x, *y),
                    Move::Toggle => {
                        b.present = !b.present;
                        if b.present {
                            tree.insert(id, before).unwrap();
                            brute.insert(id, before).unwrap();
                        } else {
                            tree.remove(id).unwrap();
                            brute.remove(id).unwrap();
                        }
                        continue;
                    }
                }
                if !b.present {
                    continue;
                }
                let aabb = if let Move::Teleport(..) = m {
                    b.aabb()
                } else {
                    b.at = (b.at.0 + b.velocity.0, b.at.1 + b.velocity.1);
                    before.merged(&b.aabb())
                };
                moved.push((id, aabb));
            }
            if *batch {
                let changed = tree.update_batch(&moved).unwrap();
                assert_eq!(changed, brute.update_batch(&moved).unwrap());
            } else {
                for (id, aabb) in &moved {
                    assert_eq!(
                        tree.update(*id, *aabb).unwrap(),
                        brute.update(*id, *aabb).unwrap()
                    );
                }
            }
            tree.check_invariants();
            if *ask {
                assert_eq!(tree.overlapping_pairs(), brute.overlapping_pairs());
                tree.check_invariants();
            }
        }
        tree
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Bodies that drift (loose, predicted tree boxes), rest (the settled tree), turn,
        /// teleport, leave and come back, reported by batch or one by one, with the pairs
        /// asked for at most steps: the same pairs as brute force, and consistent books.
        #[test]
        fn drifting_and_resting_bodies_match_brute_force(
            steps in steps(),
            margin in prop_oneof![Just(0.0), Just(0.25), Just(0.5)],
            rebuild_fraction in prop_oneof![Just(0.0), Just(0.1), Just(2.0)],
        ) {
            run(&steps, margin, rebuild_fraction);
        }
    }

    /// The scenario the property test relies on actually reaches every path: proxies
    /// settle, leave the settled tree again, and get loose predicted tree boxes.
    #[test]
    fn drifting_then_resting_uses_settled_tree_and_loose_boxes() {
        let drift = (vec![Move::Drift; 12], true, true);
        let rest = (vec![Move::Rest; 12], true, true);
        let mut script = vec![drift.clone(); 6];
        script.extend(vec![rest; 6]);
        // Slow drift: one quarter every other step, so fat boxes change every few steps.
        let slow = (vec![Move::Turn(1, 0); 12], true, true);
        script.push(slow);
        for _ in 0..6 {
            script.push(drift.clone());
            script.push((vec![Move::Rest; 12], true, true));
        }
        let tree = run(&script, 0.25, DEFAULT_REBUILD_FRACTION);
        assert!(tree.settled.size() > 0, "nothing settled");
        assert!(
            tree.stale > 0 || tree.rebuilds > 1,
            "nothing left the settled tree"
        );
        let loose = (0..12)
            .filter(|&i| !tree.state[i].has(State::TIGHT))
            .count();
        assert!(loose > 0, "no loose tree box");
    }

    /// Boxes at the edge of the f64 range: predicting their drift overflows, which must
    /// neither panic nor produce a non-finite tree box.
    #[test]
    fn drift_near_the_largest_coordinates_stays_finite() {
        let mut tree = RTreeBroadphase::new();
        let big = Real::MAX;
        let at = |x: Real| Aabb::new(Point::new(x, -big), Point::new(big, big));
        tree.insert(ProxyId(0), at(-big)).unwrap();
        tree.insert(ProxyId(1), at(0.0)).unwrap();
        for step in 0..6 {
            let x = if step % 2 == 0 { 0.0 } else { -big };
            tree.update_batch(&[(ProxyId(1), at(x))]).unwrap();
            tree.update_batch(&[]).unwrap();
            assert_eq!(
                tree.overlapping_pairs(),
                [ProxyPair::new(ProxyId(0), ProxyId(1))]
            );
            tree.check_invariants();
            assert!(
                tree.tree_box
                    .iter()
                    .all(|b| b.mins.x.is_finite() && b.maxs.y.is_finite())
            );
        }
    }
}
