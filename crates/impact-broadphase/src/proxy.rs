//! Proxy handles, pairs, and the fat-box table every implementation shares.

use crate::bounds::FilterBits;
use crate::error::{BroadphaseError, non_negative, valid_aabb};
use crate::filter::Filters;
use impact_geometry::{Aabb, CollisionFilter, Real};

/// The user's handle for one box in a broadphase (typically a body or collider index).
///
/// Handles index a dense table, as body indices do: memory grows with the largest handle in
/// use, not with the number of proxies, so keep them small and reuse freed ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ProxyId(pub u32);

impl ProxyId {
    /// The handle as a table index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Two proxies whose fat boxes overlap, with `a < b`.
///
/// Pairs order by `a`, then `b`, which is the order every [`crate::Broadphase`] reports them in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ProxyPair {
    /// The smaller handle.
    pub a: ProxyId,
    /// The larger handle.
    pub b: ProxyId,
}

impl ProxyPair {
    /// The pair of `x` and `y` in canonical order (smaller handle first). The caller
    /// guarantees `x != y`: a proxy never pairs with itself.
    #[inline]
    pub fn new(x: ProxyId, y: ProxyId) -> Self {
        debug_assert_ne!(x, y, "a proxy never pairs with itself");
        if x < y {
            Self { a: x, b: y }
        } else {
            Self { a: y, b: x }
        }
    }

    /// One `u64` whose integer order is the pair order, so sorts compare one word.
    #[inline]
    pub(crate) fn key(self) -> u64 {
        (u64::from(self.a.0) << 32) | u64::from(self.b.0)
    }
}

/// The fat-box rule shared by every implementation, so that they store identical boxes after
/// identical calls and the brute-force oracle can check the others exactly.
///
/// A box that still fits inside the current fat box keeps it, unless the fat box has become
/// much larger than needed (a fast body that slowed down or stopped): then it is refitted, so
/// a resting body does not keep a huge stale box and its false positives forever. This is
/// Box2D v2.4's `b2DynamicTree::MoveProxy` rule, with the same factor of 4 margins.
///
/// Returns the new fat box, or `None` when the current one is kept.
#[inline]
pub(crate) fn refatten(current: &Aabb, aabb: &Aabb, margin: Real) -> Option<Aabb> {
    if current.contains(aabb) && aabb.inflated(4.0 * margin).contains(current) {
        None
    } else {
        Some(aabb.inflated(margin))
    }
}

/// Dense table from [`ProxyId`] to the proxy's fat box and its filter.
#[derive(Debug, Clone)]
pub(crate) struct ProxyTable {
    slots: Vec<Option<Aabb>>,
    len: usize,
    margin: Real,
    filters: Filters,
}

impl ProxyTable {
    /// An empty table fattening boxes by `margin` (world units, validated by the caller).
    pub(crate) fn new(margin: Real) -> Result<Self, BroadphaseError> {
        non_negative("margin", margin)?;
        Ok(Self {
            slots: Vec::new(),
            len: 0,
            margin,
            filters: Filters::default(),
        })
    }

    /// Sets the filter of present proxy `id` (see [`Broadphase::set_filter`]); returns
    /// whether it changed.
    ///
    /// [`Broadphase::set_filter`]: crate::Broadphase::set_filter
    pub(crate) fn set_filter(
        &mut self,
        id: ProxyId,
        filter: CollisionFilter,
    ) -> Result<bool, BroadphaseError> {
        if self.get(id).is_none() {
            return Err(crate::broadphase::unknown_for_filter(id));
        }
        Ok(self.filters.set(id, filter))
    }

    /// The filter of `id`, if one was set.
    #[inline]
    pub(crate) fn filter_of(&self, id: ProxyId) -> Option<&CollisionFilter> {
        self.filters.get(id)
    }

    /// The tree's folded bits of the filter of `id` (see [`FilterBits`]).
    #[inline]
    pub(crate) fn filter_bits(&self, id: ProxyId) -> FilterBits {
        FilterBits::of(self.filters.get(id))
    }

    /// Whether the filters of `a` and `b` let them pair.
    #[inline]
    pub(crate) fn accepts(&self, a: ProxyId, b: ProxyId) -> bool {
        self.filters.accepts(a, b)
    }

    pub(crate) fn margin(&self) -> Real {
        self.margin
    }

    /// The margin of a proxy whose box is `aabb`: the table's margin, or
    /// [`MARGIN_PER_SIZE`](crate::MARGIN_PER_SIZE) of the box's shorter side if that is less.
    #[inline]
    pub(crate) fn margin_for(&self, aabb: &Aabb) -> Real {
        crate::margin_for(self.margin, aabb)
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(crate) fn get(&self, id: ProxyId) -> Option<&Aabb> {
        self.slots.get(id.index()).and_then(Option::as_ref)
    }

    /// Every proxy in increasing handle order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (ProxyId, &Aabb)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, slot)| {
            // The table only grows through `insert`, which takes a u32 handle.
            slot.as_ref().map(|fat| (ProxyId(i as u32), fat))
        })
    }

    /// Checks an insertion without performing it.
    pub(crate) fn check_insert(&self, id: ProxyId, aabb: &Aabb) -> Result<(), BroadphaseError> {
        valid_aabb("insert.aabb", aabb)?;
        if self.get(id).is_some() {
            return Err(BroadphaseError::DuplicateProxy {
                field: "insert.id".to_owned(),
                id,
            });
        }
        Ok(())
    }

    /// Inserts a proxy and returns its fat box.
    pub(crate) fn insert(&mut self, id: ProxyId, aabb: &Aabb) -> Result<Aabb, BroadphaseError> {
        self.check_insert(id, aabb)?;
        if self.slots.len() <= id.index() {
            self.slots.resize(id.index() + 1, None);
        }
        let fat = aabb.inflated(self.margin_for(aabb));
        self.slots[id.index()] = Some(fat);
        self.filters.clear(id);
        self.len += 1;
        Ok(fat)
    }

    /// Checks an update of proxy `id` to `aabb`, naming fields under `field`.
    pub(crate) fn check_update(
        &self,
        field: &str,
        id: ProxyId,
        aabb: &Aabb,
    ) -> Result<(), BroadphaseError> {
        if self.get(id).is_none() {
            return Err(BroadphaseError::UnknownProxy {
                field: format!("{field}.id"),
                id,
            });
        }
        valid_aabb(&format!("{field}.aabb"), aabb)
    }

    /// Checks every entry of a per-step batch, so that a bad entry changes nothing.
    pub(crate) fn check_batch(
        &self,
        moved: &[(crate::ProxyId, Aabb)],
    ) -> Result<(), BroadphaseError> {
        for (i, (id, aabb)) in moved.iter().enumerate() {
            // Build the path only on error: batches hold every moving body of a step.
            if self.get(*id).is_none() || valid_aabb("", aabb).is_err() {
                return self.check_update(&format!("moved[{i}]"), *id, aabb);
            }
        }
        Ok(())
    }

    /// Applies the fat-box rule to a checked update; returns `(old, new)` fat boxes when the
    /// fat box changed.
    #[inline]
    pub(crate) fn update_checked(&mut self, id: ProxyId, aabb: &Aabb) -> Option<(Aabb, Aabb)> {
        let margin = self.margin_for(aabb);
        let slot = self.slots[id.index()]
            .as_mut()
            .expect("update_checked is only called after check_update");
        let new = refatten(slot, aabb, margin)?;
        let old = core::mem::replace(slot, new);
        Some((old, new))
    }

    /// Removes a proxy and returns its fat box.
    pub(crate) fn remove(&mut self, id: ProxyId) -> Result<Aabb, BroadphaseError> {
        let fat = self
            .slots
            .get_mut(id.index())
            .and_then(Option::take)
            .ok_or_else(|| BroadphaseError::UnknownProxy {
                field: "remove.id".to_owned(),
                id,
            })?;
        self.filters.clear(id);
        self.len -= 1;
        Ok(fat)
    }
}
