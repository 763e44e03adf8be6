//! The collision filter a broadphase may keep per proxy, so that pairs no contact could come
//! of never reach its pair list.
//!
//! A scene whose shapes keep apart by category (Box2D's joint grid: ten thousand circles in
//! one category that their masks refuse) has its neighbours' fat boxes overlap at every
//! step: without filters the broadphase would keep, sort and hand on every such pair, for
//! the world to refuse each one again.

use crate::ProxyId;

/// A proxy's collision filter: Box2D's category bits, mask bits and group, with Box2D's rule
/// (`b2ShouldShapesCollide`): two proxies of the same non-zero group always pair (positive)
/// or never do (negative); otherwise each one's category must be in the other's mask.
///
/// It is the rule of `impact_solver::CollisionFilter::should_collide`, which the world
/// copies into its broadphase for every shape's proxy.
///
/// ```
/// use impact_broadphase::ProxyFilter;
///
/// let grid = ProxyFilter::new(2, !2);
/// assert!(!grid.accepts(&grid));
/// assert!(grid.accepts(&ProxyFilter::new(1, u64::MAX)));
/// // A shared positive group overrides the bits.
/// assert!(grid.group(3).accepts(&grid.group(3)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ProxyFilter {
    /// The categories the proxy is in.
    pub category_bits: u64,
    /// The categories it pairs with.
    pub mask_bits: u64,
    /// Proxies of the same non-zero group always pair (positive) or never do (negative),
    /// whatever their bits; 0 is no group.
    pub group_index: i32,
}

impl ProxyFilter {
    /// A filter in `category_bits` that accepts `mask_bits`, no group.
    #[must_use]
    pub const fn new(category_bits: u64, mask_bits: u64) -> Self {
        Self {
            category_bits,
            mask_bits,
            group_index: 0,
        }
    }

    /// The same filter in group `group_index`.
    #[must_use]
    pub const fn group(mut self, group_index: i32) -> Self {
        self.group_index = group_index;
        self
    }

    /// Whether proxies with this filter and `other` may pair. Symmetric.
    #[inline]
    #[must_use]
    pub const fn accepts(&self, other: &Self) -> bool {
        if self.group_index == other.group_index && self.group_index != 0 {
            return self.group_index > 0;
        }
        (self.mask_bits & other.category_bits) != 0 && (other.mask_bits & self.category_bits) != 0
    }
}

/// Per handle: the filter set for the proxy, `None` (pairs with everything) until one is.
#[derive(Debug, Clone, Default)]
pub(crate) struct Filters {
    slots: Vec<Option<ProxyFilter>>,
    /// Whether any proxy has a filter: a broadphase without one tests no pair.
    any: bool,
}

impl Filters {
    /// Sets the filter of `id`; returns whether it changed.
    pub(crate) fn set(&mut self, id: ProxyId, filter: ProxyFilter) -> bool {
        let i = id.index();
        if self.slots.len() <= i {
            self.slots.resize(i + 1, None);
        }
        self.any = true;
        self.slots[i].replace(filter) != Some(filter)
    }

    /// Forgets the filter of `id` (a proxy removed, or inserted again).
    pub(crate) fn clear(&mut self, id: ProxyId) {
        if let Some(slot) = self.slots.get_mut(id.index()) {
            *slot = None;
        }
    }

    /// Whether `a` and `b` may pair: a proxy without a filter pairs with everything.
    #[inline]
    pub(crate) fn accepts(&self, a: ProxyId, b: ProxyId) -> bool {
        if !self.any {
            return true;
        }
        match (self.slots.get(a.index()), self.slots.get(b.index())) {
            (Some(Some(fa)), Some(Some(fb))) => fa.accepts(fb),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Box2D's rule, on every combination of a few bit patterns and groups: symmetric, the
    /// group first, then both masks.
    #[test]
    fn accepts_follows_box2d() {
        let bits = [0u64, 1, 2, 3, u64::MAX, 1 << 63];
        let groups = [-2, -1, 0, 1, 2];
        let mut filters = Vec::new();
        for &c in &bits {
            for &m in &bits {
                for &g in &groups {
                    filters.push(ProxyFilter::new(c, m).group(g));
                }
            }
        }
        for a in &filters {
            for b in &filters {
                let expected = if a.group_index == b.group_index && a.group_index != 0 {
                    a.group_index > 0
                } else {
                    a.mask_bits & b.category_bits != 0 && b.mask_bits & a.category_bits != 0
                };
                assert_eq!(a.accepts(b), expected, "{a:?} {b:?}");
                assert_eq!(a.accepts(b), b.accepts(a));
            }
        }
    }

    #[test]
    fn a_proxy_without_a_filter_pairs_with_everything() {
        let mut filters = Filters::default();
        let (a, b, c) = (ProxyId(0), ProxyId(1), ProxyId(5));
        assert!(filters.accepts(a, b));
        assert!(filters.set(a, ProxyFilter::new(2, !2)));
        assert!(!filters.set(a, ProxyFilter::new(2, !2)), "unchanged");
        assert!(filters.accepts(a, b) && filters.accepts(a, c));
        filters.set(b, ProxyFilter::new(2, !2));
        assert!(!filters.accepts(a, b) && !filters.accepts(b, a));
        filters.clear(b);
        assert!(filters.accepts(a, b));
    }
}
