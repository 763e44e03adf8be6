//! [`SortAndSweep`]: fat boxes sorted along one axis, pairs found by one sweep.

use crate::error::{BroadphaseError, valid_aabb};
use crate::proxy::ProxyTable;
use crate::{Broadphase, DEFAULT_MARGIN, ProxyId, ProxyPair};
use impact_geometry::{Aabb, CollisionFilter, Real};

/// One proxy in the sweep array: the fat box is copied here so the sweep streams memory.
#[derive(Debug, Clone, Copy)]
struct Entry {
    id: ProxyId,
    fat: Aabb,
}

/// Sort and sweep (also called sweep and prune): the fat boxes are kept sorted by their lower
/// bound along one axis; a sweep over that order tests each box only against the boxes that
/// start before it ends, on the other axis.
///
/// The axis is the one along which the box centres spread most (re-chosen at every sort, with
/// a factor-of-two hysteresis so it does not flip-flop), because the sweep's cost is the
/// number of boxes overlapping along the axis. Motion between steps leaves the order nearly
/// sorted, which the (run-detecting) sort handles in close to linear time.
///
/// Costs: pairs O(n + s) with `s` the overlaps along the axis; queries O(log n + w) with `w`
/// the proxies whose lower bounds fall within the widest box of the query range. One very
/// long box (a world-spanning floor) makes `w` large; the R-tree has no such weakness.
///
/// Updates mark the order stale; it is re-sorted at the end of
/// [`Broadphase::update_batch`] and by [`Broadphase::overlapping_pairs`]. Queries made while
/// it is stale (after single [`Broadphase::update`] calls) scan every proxy: still correct.
#[derive(Debug, Clone)]
pub struct SortAndSweep {
    table: ProxyTable,
    entries: Vec<Entry>,
    /// Index of each proxy in `entries` (by handle); meaningless for absent handles.
    slot_of: Vec<u32>,
    /// 0 for x, 1 for y.
    axis: usize,
    /// Whether `entries` is sorted along `axis` and `widest` is current.
    sorted: bool,
    /// The largest extent of a fat box along `axis`, valid when `sorted`.
    widest: Real,
    pairs: Vec<ProxyPair>,
    pairs_stale: bool,
}

impl Default for SortAndSweep {
    fn default() -> Self {
        Self::new()
    }
}

impl SortAndSweep {
    /// An empty broadphase with fat-box margin [`DEFAULT_MARGIN`].
    pub fn new() -> Self {
        Self::with_margin(DEFAULT_MARGIN).expect("the default margin is valid")
    }

    /// An empty broadphase whose fat boxes are the given boxes grown by `margin` (world
    /// units), or by [`MARGIN_PER_SIZE`](crate::MARGIN_PER_SIZE) of a box's shorter side if
    /// that is less. A margin of zero stores exact boxes.
    ///
    /// # Errors
    /// [`BroadphaseError::NotFinite`] or [`BroadphaseError::Negative`] naming `margin`.
    pub fn with_margin(margin: Real) -> Result<Self, BroadphaseError> {
        Ok(Self {
            table: ProxyTable::new(margin)?,
            entries: Vec::new(),
            slot_of: Vec::new(),
            axis: 0,
            sorted: true,
            widest: 0.0,
            pairs: Vec::new(),
            pairs_stale: false,
        })
    }

    /// The fat-box margin (world units).
    pub fn margin(&self) -> Real {
        self.table.margin()
    }

    /// The axis boxes are currently sorted along: 0 for x, 1 for y.
    pub fn axis(&self) -> usize {
        self.axis
    }

    fn set_fat(&mut self, id: ProxyId, fat: Aabb) {
        self.entries[self.slot_of[id.index()] as usize].fat = fat;
        self.sorted = false;
        self.pairs_stale = true;
    }

    /// Re-chooses the axis and sorts, if anything changed since the last sort.
    fn sort(&mut self) {
        if self.sorted {
            return;
        }
        let n = self.entries.len() as Real;
        if n > 1.0 {
            let mut sum = [0.0; 2];
            let mut sum_sq = [0.0; 2];
            for e in &self.entries {
                let c = e.fat.center();
                for k in 0..2 {
                    sum[k] += c[k];
                    sum_sq[k] += c[k] * c[k];
                }
            }
            let var = |k: usize| sum_sq[k] / n - (sum[k] / n) * (sum[k] / n);
            let other = 1 - self.axis;
            if var(other) > 2.0 * var(self.axis) {
                self.axis = other;
            }
        }
        let axis = self.axis;
        // Ties broken by handle so that the order, and the sweep's work, is reproducible.
        self.entries.sort_by(|a, b| {
            a.fat.mins[axis]
                .total_cmp(&b.fat.mins[axis])
                .then(a.id.cmp(&b.id))
        });
        self.widest = 0.0;
        for (i, e) in self.entries.iter().enumerate() {
            self.slot_of[e.id.index()] = i as u32;
            self.widest = self.widest.max(e.fat.maxs[axis] - e.fat.mins[axis]);
        }
        self.sorted = true;
    }
}

impl Broadphase for SortAndSweep {
    fn insert(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadphaseError> {
        let fat = self.table.insert(id, &aabb)?;
        if self.slot_of.len() <= id.index() {
            self.slot_of.resize(id.index() + 1, 0);
        }
        self.slot_of[id.index()] = self.entries.len() as u32;
        self.entries.push(Entry { id, fat });
        self.sorted = false;
        self.pairs_stale = true;
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, BroadphaseError> {
        self.table.check_update("update", id, &aabb)?;
        match self.table.update_checked(id, &aabb) {
            Some((_, fat)) => {
                self.set_fat(id, fat);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn update_batch(&mut self, moved: &[(ProxyId, Aabb)]) -> Result<usize, BroadphaseError> {
        self.table.check_batch(moved)?;
        let mut changed = 0;
        for (id, aabb) in moved {
            if let Some((_, fat)) = self.table.update_checked(*id, aabb) {
                self.set_fat(*id, fat);
                changed += 1;
            }
        }
        // Sort now so the step's queries after this batch are logarithmic.
        self.sort();
        Ok(changed)
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadphaseError> {
        self.table.remove(id)?;
        let slot = self.slot_of[id.index()] as usize;
        self.entries.swap_remove(slot);
        if let Some(moved) = self.entries.get(slot) {
            self.slot_of[moved.id.index()] = slot as u32;
        }
        self.sorted = false;
        self.pairs_stale = true;
        Ok(())
    }

    fn set_filter(&mut self, id: ProxyId, filter: CollisionFilter) -> Result<(), BroadphaseError> {
        self.pairs_stale |= self.table.set_filter(id, filter)?;
        Ok(())
    }

    fn len(&self) -> usize {
        self.table.len()
    }

    fn fat_aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.table.get(id).copied()
    }

    fn overlapping_pairs(&mut self) -> &[ProxyPair] {
        if self.pairs_stale {
            self.sort();
            let axis = self.axis;
            let other = 1 - axis;
            self.pairs.clear();
            for (i, a) in self.entries.iter().enumerate() {
                let end = a.fat.maxs[axis];
                // Sorted by lower bound: the boxes that start before `a` ends are next.
                for b in self.entries[i + 1..]
                    .iter()
                    .take_while(|b| b.fat.mins[axis] <= end)
                {
                    if a.fat.mins[other] <= b.fat.maxs[other]
                        && b.fat.mins[other] <= a.fat.maxs[other]
                        && self.table.accepts(a.id, b.id)
                    {
                        self.pairs.push(ProxyPair::new(a.id, b.id));
                    }
                }
            }
            self.pairs.sort_unstable_by_key(|p| p.key());
            self.pairs_stale = false;
        }
        &self.pairs
    }

    fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<ProxyId>) -> Result<(), BroadphaseError> {
        out.clear();
        valid_aabb("aabb", aabb)?;
        let candidates = if self.sorted {
            let axis = self.axis;
            // A box overlapping the query starts no earlier than `widest` before the query
            // and no later than its end. Widths and this difference are rounded, so the
            // lower limit moves down by a few ulps: a box exactly `widest` long that touches
            // the query must not be skipped.
            let reach = self.widest + 4.0 * Real::EPSILON * (aabb.mins[axis].abs() + self.widest);
            let lower = aabb.mins[axis] - reach;
            let first = self.entries.partition_point(|e| e.fat.mins[axis] < lower);
            let last = self
                .entries
                .partition_point(|e| e.fat.mins[axis] <= aabb.maxs[axis]);
            &self.entries[first..last.max(first)]
        } else {
            &self.entries[..]
        };
        out.extend(
            candidates
                .iter()
                .filter(|e| e.fat.intersects(aabb))
                .map(|e| e.id),
        );
        out.sort_unstable();
        Ok(())
    }
}
