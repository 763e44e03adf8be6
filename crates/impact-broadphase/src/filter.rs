//! The collision filters a broadphase keeps per proxy ([`CollisionFilter`], the shapes'
//! own), so that pairs no contact could come of never reach its pair list.
//!
//! A scene whose shapes keep apart by category (Box2D's joint grid: ten thousand circles in
//! one category that their masks refuse) has its neighbours' fat boxes overlap at every
//! step: without filters the broadphase would keep, sort and hand on every such pair, for
//! the world to refuse each one again.

use crate::ProxyId;
use impact_geometry::CollisionFilter;

/// Per handle: the filter set for the proxy, `None` (pairs with everything) until one is.
#[derive(Debug, Clone, Default)]
pub(crate) struct Filters {
    slots: Vec<Option<CollisionFilter>>,
    /// Whether any proxy has a filter: a broadphase without one tests no pair.
    any: bool,
}

impl Filters {
    /// Sets the filter of `id`; returns whether it changed.
    pub(crate) fn set(&mut self, id: ProxyId, filter: CollisionFilter) -> bool {
        let i = id.index();
        if self.slots.len() <= i {
            self.slots.resize(i + 1, None);
        }
        self.any = true;
        self.slots[i].replace(filter) != Some(filter)
    }

    /// The filter of `id`, if one was set.
    #[inline]
    pub(crate) fn get(&self, id: ProxyId) -> Option<&CollisionFilter> {
        self.slots.get(id.index()).and_then(Option::as_ref)
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
            (Some(Some(fa)), Some(Some(fb))) => fa.should_collide(fb),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proxy_without_a_filter_pairs_with_everything() {
        let mut filters = Filters::default();
        let (a, b, c) = (ProxyId(0), ProxyId(1), ProxyId(5));
        assert!(filters.accepts(a, b));
        assert!(filters.set(a, CollisionFilter::new(2, !2)));
        assert!(!filters.set(a, CollisionFilter::new(2, !2)), "unchanged");
        assert!(filters.accepts(a, b) && filters.accepts(a, c));
        filters.set(b, CollisionFilter::new(2, !2));
        assert!(!filters.accepts(a, b) && !filters.accepts(b, a));
        filters.clear(b);
        assert!(filters.accepts(a, b));
    }
}
