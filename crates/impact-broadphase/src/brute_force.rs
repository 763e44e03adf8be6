//! [`BruteForce`]: every pair tested, the oracle the other implementations are checked against.

use crate::error::{BroadphaseError, valid_aabb};
use crate::proxy::ProxyTable;
use crate::{Broadphase, DEFAULT_MARGIN, ProxyId, ProxyPair};
use impact_geometry::{Aabb, CollisionFilter, Real};

/// Tests every pair of fat boxes: O(n²) pairs, O(n) queries, and nothing to get wrong.
///
/// It is the reference the other implementations are tested against (with the same margin
/// they store the same fat boxes and must report the same pairs), and a fine choice below a
/// few hundred proxies.
#[derive(Debug, Clone)]
pub struct BruteForce {
    table: ProxyTable,
    pairs: Vec<ProxyPair>,
    /// Whether a fat box changed since `pairs` was computed.
    stale: bool,
}

impl Default for BruteForce {
    fn default() -> Self {
        Self::new()
    }
}

impl BruteForce {
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
            pairs: Vec::new(),
            stale: false,
        })
    }

    /// The fat-box margin (world units).
    pub fn margin(&self) -> Real {
        self.table.margin()
    }
}

impl Broadphase for BruteForce {
    fn insert(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadphaseError> {
        self.table.insert(id, &aabb)?;
        self.stale = true;
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, BroadphaseError> {
        self.table.check_update("update", id, &aabb)?;
        let changed = self.table.update_checked(id, &aabb).is_some();
        self.stale |= changed;
        Ok(changed)
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadphaseError> {
        self.table.remove(id)?;
        self.stale = true;
        Ok(())
    }

    fn set_filter(&mut self, id: ProxyId, filter: CollisionFilter) -> Result<(), BroadphaseError> {
        self.stale |= self.table.set_filter(id, filter)?;
        Ok(())
    }

    fn len(&self) -> usize {
        self.table.len()
    }

    fn fat_aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.table.get(id).copied()
    }

    fn overlapping_pairs(&mut self) -> &[ProxyPair] {
        if self.stale {
            // Copy into a contiguous array first: the inner loop then streams plain boxes.
            let proxies: Vec<(ProxyId, Aabb)> =
                self.table.iter().map(|(id, fat)| (id, *fat)).collect();
            self.pairs.clear();
            // Both loops run in increasing handle order, so the pairs come out sorted.
            for (i, (a, box_a)) in proxies.iter().enumerate() {
                for (b, box_b) in &proxies[i + 1..] {
                    if box_a.intersects(box_b) && self.table.accepts(*a, *b) {
                        self.pairs.push(ProxyPair { a: *a, b: *b });
                    }
                }
            }
            self.stale = false;
        }
        &self.pairs
    }

    fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<ProxyId>) -> Result<(), BroadphaseError> {
        out.clear();
        valid_aabb("aabb", aabb)?;
        out.extend(
            self.table
                .iter()
                .filter(|(_, fat)| fat.intersects(aabb))
                .map(|(id, _)| id),
        );
        Ok(())
    }
}
