//! [`RTreeBroadphase`]: fat boxes in an `rstar` R*-tree, with persistent pairs.

use crate::broadphase::{check_ray, check_swept};
use crate::error::{BroadphaseError, non_negative, valid_aabb};
use crate::proxy::ProxyTable;
use crate::swept::SweptBox;
use crate::{Broadphase, DEFAULT_MARGIN, ProxyId, ProxyPair};
use impact_geometry::{Aabb, Point, Real, Vector};
use rstar::{AABB, ParentNode, RStarInsertionStrategy, RTree, RTreeNode, RTreeObject, RTreeParams};

/// Rebuild the tree with `bulk_load` when more than this fraction of its proxies changed fat
/// box in one [`Broadphase::update_batch`].
///
/// Measured with `cargo run --release -p impact-broadphase --example rebuild_threshold`
/// (table in `docs/benchmarks.md`): counting the pair search that follows, the bulk rebuild
/// breaks even with removing and reinserting the changed proxies at about 17% of them for
/// 1,000 and 10,000 proxies and 6% for 100,000 (where reinsertion pays for cache misses).
/// One fraction cannot match both; at 0.1 the step costs at most 1.6 times the better
/// choice at every measured size and fraction.
pub const DEFAULT_REBUILD_FRACTION: Real = 0.1;

/// Above this fraction of proxies with a changed fat box, the pair search traverses the tree
/// against itself once instead of querying it once per changed proxy. Measured with the same
/// example: the self-join costs as much as querying for 15% (100,000 proxies) to 35% (1,000)
/// of the proxies.
const SELF_JOIN_FRACTION: Real = 0.2;

/// Most children of a tree node (rstar's default).
const NODE_CAPACITY: usize = 6;

/// Node capacities of the tree.
#[derive(Debug, Clone, Copy)]
struct TreeParams;

impl RTreeParams for TreeParams {
    const MIN_SIZE: usize = 3;
    const MAX_SIZE: usize = NODE_CAPACITY;
    const REINSERTION_COUNT: usize = 2;
    type DefaultInsertionStrategy = RStarInsertionStrategy;
}

/// Tuning of [`RTreeBroadphase`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RTreeConfig {
    /// How far (world units) each stored box extends beyond the box it was given, so that a
    /// body moving less than this stays in its box and is not reinserted. Larger margins mean
    /// fewer reinsertions and more false-positive pairs. Default [`DEFAULT_MARGIN`].
    pub margin: Real,
    /// Above this fraction of proxies whose fat box changed in one
    /// [`Broadphase::update_batch`], the tree is rebuilt by bulk loading instead of removing
    /// and reinserting each of them. 0 rebuilds on any change; 1 or more never rebuilds.
    /// Default [`DEFAULT_REBUILD_FRACTION`].
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

/// One proxy as the tree stores it: rstar envelopes must not change after insertion, so a
/// moved proxy is removed and inserted again with its new fat box.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Leaf {
    id: ProxyId,
    envelope: AABB<[Real; 2]>,
}

impl RTreeObject for Leaf {
    type Envelope = AABB<[Real; 2]>;

    #[inline]
    fn envelope(&self) -> Self::Envelope {
        self.envelope
    }
}

fn leaf(id: ProxyId, fat: &Aabb) -> Leaf {
    Leaf {
        id,
        envelope: AABB::from_corners([fat.mins.x, fat.mins.y], [fat.maxs.x, fat.maxs.y]),
    }
}

/// Whether two envelopes share a point (touching counts, as for [`Aabb::intersects`]).
#[inline]
fn overlaps(a: &AABB<[Real; 2]>, b: &AABB<[Real; 2]>) -> bool {
    let (al, au, bl, bu) = (a.lower(), a.upper(), b.lower(), b.upper());
    al[0] <= bu[0] && bl[0] <= au[0] && al[1] <= bu[1] && bl[1] <= au[1]
}

/// Calls `found` for every leaf under `node` whose envelope passes `test`, pruning every
/// subtree whose envelope fails it. `test` must be monotone (a box holding a passing box
/// passes), which holds for overlap and for the swept test.
fn visit<T, F>(node: &ParentNode<Leaf>, test: &T, found: &mut F)
where
    T: Fn(&AABB<[Real; 2]>) -> bool,
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
fn self_join(node: &ParentNode<Leaf>, out: &mut Vec<ProxyPair>) {
    let children = node.children();
    for (i, a) in children.iter().enumerate() {
        if let RTreeNode::Parent(p) = a {
            self_join(p, out);
        }
        let env_a = a.envelope();
        for b in &children[i + 1..] {
            if overlaps(&env_a, &b.envelope()) {
                cross_join(a, b, out);
            }
        }
    }
}

/// Every pair of overlapping leaves with one under `a` and one under `b` (disjoint subtrees
/// whose envelopes overlap): the subtree of `a` is descended first, each of its leaves then
/// descends `b`.
///
/// Measured against descending both sides together inside the intersection of the two
/// envelopes, and against a join restricted to changed proxies (marks per node, pairs of
/// unchanged subtrees skipped): both did more bookkeeping per node than they saved, and ran
/// 1.5 to 2 times slower on the benchmark scenes.
fn cross_join(a: &RTreeNode<Leaf>, b: &RTreeNode<Leaf>, out: &mut Vec<ProxyPair>) {
    match (a, b) {
        (RTreeNode::Leaf(x), RTreeNode::Leaf(y)) => out.push(ProxyPair::new(x.id, y.id)),
        (RTreeNode::Leaf(x), RTreeNode::Parent(q)) => {
            for c in q.children() {
                if overlaps(&x.envelope, &c.envelope()) {
                    cross_join(a, c, out);
                }
            }
        }
        (RTreeNode::Parent(p), _) => {
            let env_b = b.envelope();
            for c in p.children() {
                if overlaps(&c.envelope(), &env_b) {
                    cross_join(c, b, out);
                }
            }
        }
    }
}

/// A broadphase on an `rstar` R*-tree of fat boxes, with persistent pairs.
///
/// - **Fat boxes.** Each proxy is stored grown by [`RTreeConfig::margin`]; an update whose
///   box stays inside (and is not much smaller than) the fat box changes nothing. A proxy
///   that leaves its fat box is removed and reinserted with a new one.
/// - **Bulk rebuilds.** When more than [`RTreeConfig::rebuild_fraction`] of the proxies
///   change fat box in one [`Broadphase::update_batch`], the whole tree is rebuilt with
///   `bulk_load` instead, which is cheaper past that point and restores the tree's quality.
/// - **Persistent pairs.** Pairs of two proxies whose fat boxes did not change since the last
///   call to [`Broadphase::overlapping_pairs`] are kept; only the changed proxies query the
///   tree, and their new pairs are sorted and merged in. When many changed, one traversal of
///   the tree against itself replaces the per-proxy queries. Either way the cost follows the
///   motion and the number of pairs, never a loop over all pairs of proxies.
/// - **Swept and ray queries** prune subtrees by the moving-box test itself, not by the union
///   of the start and end boxes, so a long diagonal motion visits only the nodes it crosses.
///
/// Costs per step, with `m` proxies leaving their fat boxes out of `n`: O(m log n) below the
/// rebuild fraction, O(n log n) above it (rstar's bulk load), plus the pair search. rstar
/// envelopes cannot be refitted in place, so when most bodies move every step (the
/// benchmarks' random walk) the bulk load dominates and a refitting BVH such as parry's is
/// about twice as fast; in dense scenes spread along one axis [`crate::SortAndSweep`] wins.
/// See `docs/benchmarks.md`.
#[derive(Debug, Clone)]
pub struct RTreeBroadphase {
    config: RTreeConfig,
    table: ProxyTable,
    tree: RTree<Leaf, TreeParams>,
    /// Sorted; exact for the fat boxes as of the last `overlapping_pairs`.
    pairs: Vec<ProxyPair>,
    /// Proxies whose fat box changed (or that were inserted) since then, once each.
    dirty: Vec<ProxyId>,
    /// By handle: whether the proxy is in `dirty`.
    is_dirty: Vec<bool>,
    /// Whether a proxy was removed since then (its pairs must go).
    removed: bool,
    /// Scratch: pairs found for changed proxies.
    found: Vec<ProxyPair>,
    /// Scratch: `(id, old fat box)` of the proxies changed by a batch.
    changes: Vec<(ProxyId, Aabb)>,
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
            tree: RTree::new_with_params(),
            pairs: Vec::new(),
            dirty: Vec::new(),
            is_dirty: Vec::new(),
            removed: false,
            found: Vec::new(),
            changes: Vec::new(),
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

    /// How many times [`Broadphase::update_batch`] rebuilt the tree by bulk loading.
    pub fn rebuild_count(&self) -> u64 {
        self.rebuilds
    }

    fn mark_dirty(&mut self, id: ProxyId) {
        if self.is_dirty.len() <= id.index() {
            self.is_dirty.resize(id.index() + 1, false);
        }
        if !self.is_dirty[id.index()] {
            self.is_dirty[id.index()] = true;
            self.dirty.push(id);
        }
    }

    /// Rebuilds the tree from the table, in handle order so the layout is reproducible.
    fn rebuild(&mut self) {
        let leaves = self.table.iter().map(|(id, fat)| leaf(id, fat)).collect();
        self.tree = RTree::bulk_load_with_params(leaves);
        self.rebuilds += 1;
    }

    fn query_envelope(&self, envelope: &AABB<[Real; 2]>, out: &mut Vec<ProxyId>) {
        visit(self.tree.root(), &|e| overlaps(e, envelope), &mut |id| {
            out.push(id)
        });
        out.sort_unstable();
    }

    /// Brings `pairs` up to date with the fat boxes.
    fn refresh_pairs(&mut self) {
        let table = &self.table;
        let is_dirty = &self.is_dirty;
        let dirty_at = |id: ProxyId| is_dirty.get(id.index()).copied().unwrap_or(false);
        self.found.clear();
        if self.dirty.len() as Real > SELF_JOIN_FRACTION * table.len() as Real {
            self_join(self.tree.root(), &mut self.found);
            self.found.sort_unstable_by_key(|p| p.key());
            core::mem::swap(&mut self.pairs, &mut self.found);
        } else {
            // Pairs between two unchanged, still present proxies still overlap: their fat
            // boxes are the same as when the pair was found.
            self.pairs.retain(|p| {
                !dirty_at(p.a)
                    && !dirty_at(p.b)
                    && table.get(p.a).is_some()
                    && table.get(p.b).is_some()
            });
            for &d in &self.dirty {
                let Some(fat) = table.get(d) else { continue };
                let envelope = leaf(d, fat).envelope;
                let found = &mut self.found;
                visit(self.tree.root(), &|e| overlaps(e, &envelope), &mut |h| {
                    // Two changed proxies find each other twice: keep the find from the
                    // smaller handle.
                    if h != d && !(dirty_at(h) && h < d) {
                        found.push(ProxyPair::new(d, h));
                    }
                });
            }
            self.found.sort_unstable_by_key(|p| p.key());
            merge_sorted(&mut self.pairs, &self.found);
        }
        for id in self.dirty.drain(..) {
            self.is_dirty[id.index()] = false;
        }
        self.removed = false;
    }
}

/// Merges sorted `extra` into sorted `pairs` (disjoint sets) in one pass from the back, so
/// nothing is moved twice.
fn merge_sorted(pairs: &mut Vec<ProxyPair>, extra: &[ProxyPair]) {
    let mut i = pairs.len();
    let mut j = extra.len();
    pairs.resize(i + j, ProxyPair::new(ProxyId(0), ProxyId(1)));
    let mut k = pairs.len();
    while j > 0 {
        k -= 1;
        if i > 0 && pairs[i - 1].key() > extra[j - 1].key() {
            i -= 1;
            pairs[k] = pairs[i];
        } else {
            j -= 1;
            pairs[k] = extra[j];
        }
    }
}

impl RTreeBroadphase {
    /// The proxies whose fat boxes the moving box reaches, sorted, pruning every subtree
    /// whose envelope it misses (the swept and ray queries differ only in the box).
    fn query_sweep(&self, sweep: &SweptBox, out: &mut Vec<ProxyId>) {
        visit(
            self.tree.root(),
            &|e| sweep.hits(e.lower(), e.upper()),
            &mut |id| out.push(id),
        );
        out.sort_unstable();
    }
}

impl Broadphase for RTreeBroadphase {
    fn insert(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadphaseError> {
        let fat = self.table.insert(id, &aabb)?;
        self.tree.insert(leaf(id, &fat));
        self.mark_dirty(id);
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, BroadphaseError> {
        self.table.check_update("update", id, &aabb)?;
        match self.table.update_checked(id, &aabb) {
            Some((old, new)) => {
                self.tree.remove(&leaf(id, &old));
                self.tree.insert(leaf(id, &new));
                self.mark_dirty(id);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn update_batch(&mut self, moved: &[(ProxyId, Aabb)]) -> Result<usize, BroadphaseError> {
        let _span = tracing::trace_span!("broadphase.update_batch", moved = moved.len()).entered();
        self.table.check_batch(moved)?;
        let mut changes = core::mem::take(&mut self.changes);
        changes.clear();
        for (id, aabb) in moved {
            if let Some((old, _)) = self.table.update_checked(*id, aabb) {
                changes.push((*id, old));
                self.mark_dirty(*id);
            }
        }
        if changes.len() as Real > self.config.rebuild_fraction * self.table.len() as Real {
            self.rebuild();
        } else {
            for (id, old) in &changes {
                // A handle listed twice in the batch was already moved to its final box by
                // its first entry; its second old box is then not in the tree.
                if self.tree.remove(&leaf(*id, old)).is_some() {
                    let fat = self.table.get(*id).expect("checked by check_batch");
                    self.tree.insert(leaf(*id, fat));
                }
            }
        }
        let changed = changes.len();
        self.changes = changes;
        Ok(changed)
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadphaseError> {
        let fat = self.table.remove(id)?;
        self.tree.remove(&leaf(id, &fat));
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
        self.query_envelope(&leaf(ProxyId(0), aabb).envelope, out);
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
