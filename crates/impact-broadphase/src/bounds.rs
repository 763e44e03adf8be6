//! [`Bounds`]: the envelope type of the R-trees, an rstar `AABB` whose bulk loading splits
//! along the longer side of each group instead of alternating axes, and which carries the
//! union of its proxies' collision filters ([`FilterBits`]) so that the pair search skips
//! nodes whose proxies cannot pair.

use impact_geometry::{Aabb, CollisionFilter, Real, corners_meet};
use rstar::{AABB, Envelope, RTreeObject};

/// An axis-aligned box as the R-tree stores it, with the collision filters of what it holds
/// (see [`FilterBits`]).
///
/// Everything but [`Envelope::partition_envelopes`] is rstar's `AABB`. rstar's bulk load
/// (OMT) cuts every group into the same number of slabs along each axis in turn, whatever
/// the group's shape. For a wide, flat scene (the rain onto a floor: 10,000 units wide, 3
/// high) that cuts a 3-unit height into slabs thinner than the boxes, and sibling nodes then
/// overlap almost entirely, so the pair search descends nearly every pair of them. Cutting
/// each group across its longer side instead (a k-d split) keeps nodes roughly square in
/// any scene, and costs one extra pass over a sample of the group.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bounds {
    aabb: AABB<[Real; 2]>,
    filter: FilterBits,
}

/// The categories and masks of a box's proxies, each folded from 64 bits to 63 (bit 63
/// goes to bit 0): a union over a node's leaves. Two proxies whose filters let them pair
/// share a bit of one's mask and the other's categories, and so do their folds and every
/// union above them; nodes whose unions share none hold no pair (the joint grid's circles,
/// in a category their masks refuse, are pruned at the root). A proxy without a filter, or
/// in a positive group (which pairs whatever the bits), is *open* (the top bit of `masks`):
/// it may pair with anything, and so may every node above it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FilterBits {
    categories: u64,
    masks: u64,
}

/// The bit of [`FilterBits::masks`] that marks an open box.
const OPEN: u64 = 1 << 63;

impl FilterBits {
    /// Open: may pair with anything.
    pub(crate) const ALL: Self = Self {
        categories: u64::MAX,
        masks: u64::MAX,
    };

    /// No bit: the empty union.
    const NONE: Self = Self {
        categories: 0,
        masks: 0,
    };

    /// The bits of a proxy's filter (`None`: without one).
    pub(crate) fn of(filter: Option<&CollisionFilter>) -> Self {
        let fold = |x: u64| (x & !OPEN) | (x >> 63);
        match filter {
            Some(f) if f.group_index <= 0 => Self {
                categories: fold(f.category_bits),
                masks: fold(f.mask_bits),
            },
            _ => Self::ALL,
        }
    }

    #[inline]
    fn union(self, other: Self) -> Self {
        Self {
            categories: self.categories | other.categories,
            masks: self.masks | other.masks,
        }
    }

    /// Whether a proxy under one may pair with one under the other.
    #[inline]
    fn may_pair(self, other: Self) -> bool {
        (self.masks | other.masks) & OPEN != 0
            || ((self.masks & other.categories) != 0 && (other.masks & self.categories) != 0)
    }
}

impl Bounds {
    /// The box from its corners (`lower <= upper` on each axis), every filter bit set.
    #[inline]
    pub(crate) fn new(lower: [Real; 2], upper: [Real; 2]) -> Self {
        Self {
            aabb: AABB::from_corners(lower, upper),
            filter: FilterBits::ALL,
        }
    }

    /// The box of a geometry box, every filter bit set.
    #[inline]
    pub(crate) fn of(aabb: &Aabb) -> Self {
        Self::new([aabb.mins.x, aabb.mins.y], [aabb.maxs.x, aabb.maxs.y])
    }

    /// The same box holding proxies of filter bits `filter`.
    #[inline]
    pub(crate) fn with_filter(mut self, filter: FilterBits) -> Self {
        self.filter = filter;
        self
    }

    #[inline]
    pub(crate) fn lower(&self) -> [Real; 2] {
        self.aabb.lower()
    }

    #[inline]
    pub(crate) fn upper(&self) -> [Real; 2] {
        self.aabb.upper()
    }

    /// Width plus height: a cheap measure of size.
    #[inline]
    pub(crate) fn half_perimeter(&self) -> Real {
        let (l, u) = (self.lower(), self.upper());
        (u[0] - l[0]) + (u[1] - l[1])
    }

    /// Whether the two boxes share a point (touching counts, as for [`Aabb::intersects`]).
    /// The pair search makes a third of a rain step's mispredicted branches; as four
    /// compare-and-branch steps these tests made a sixth of those ([`corners_meet`] is one
    /// branch).
    #[inline]
    pub(crate) fn overlaps(&self, other: &Self) -> bool {
        corners_meet(self.lower(), self.upper(), other.lower(), other.upper())
    }

    /// Whether the pair search must look under both: the boxes overlap and their filter
    /// bits may pair.
    #[inline]
    pub(crate) fn meets(&self, other: &Self) -> bool {
        self.filter.may_pair(other.filter) && self.overlaps(other)
    }
}

/// The axis along which the lower corners of `objects` spread most, from a strided sample
/// of at most 64 of them: the cut must be cheap next to the selection that follows, and a
/// sample tells a wide group from a tall one as well as all of them.
pub(crate) fn longer_axis<T: RTreeObject<Envelope = Bounds>>(objects: &[T]) -> usize {
    let step = objects.len().div_ceil(64).max(1);
    let mut lo = [Real::INFINITY; 2];
    let mut hi = [Real::NEG_INFINITY; 2];
    for o in objects.iter().step_by(step) {
        let lower = o.envelope().lower();
        for axis in 0..2 {
            let k = lower[axis];
            lo[axis] = lo[axis].min(k);
            hi[axis] = hi[axis].max(k);
        }
    }
    usize::from(hi[1] - lo[1] > hi[0] - lo[0])
}

impl Envelope for Bounds {
    type Point = [Real; 2];

    fn new_empty() -> Self {
        Self {
            aabb: AABB::new_empty(),
            filter: FilterBits::NONE,
        }
    }

    fn is_empty(&self) -> bool {
        self.aabb.is_empty()
    }

    fn contains_point(&self, point: &[Real; 2]) -> bool {
        self.aabb.contains_point(point)
    }

    fn contains_envelope(&self, other: &Self) -> bool {
        self.aabb.contains_envelope(&other.aabb)
    }

    fn merge(&mut self, other: &Self) {
        self.aabb.merge(&other.aabb);
        self.filter = self.filter.union(other.filter);
    }

    fn merged(&self, other: &Self) -> Self {
        Self {
            aabb: self.aabb.merged(&other.aabb),
            filter: self.filter.union(other.filter),
        }
    }

    fn intersects(&self, other: &Self) -> bool {
        self.overlaps(other)
    }

    fn intersection_area(&self, other: &Self) -> Real {
        self.aabb.intersection_area(&other.aabb)
    }

    fn area(&self) -> Real {
        self.aabb.area()
    }

    fn distance_2(&self, point: &[Real; 2]) -> Real {
        Envelope::distance_2(&self.aabb, point)
    }

    fn min_max_dist_2(&self, point: &[Real; 2]) -> Real {
        self.aabb.min_max_dist_2(point)
    }

    fn center(&self) -> [Real; 2] {
        self.aabb.center()
    }

    fn perimeter_value(&self) -> Real {
        self.aabb.perimeter_value()
    }

    fn sort_envelopes<T: RTreeObject<Envelope = Self>>(axis: usize, envelopes: &mut [T]) {
        // Insertion's node split (R*) chooses its axis itself: keep rstar's order.
        envelopes.sort_unstable_by(|l, r| {
            l.envelope().lower()[axis].total_cmp(&r.envelope().lower()[axis])
        });
    }

    fn partition_envelopes<T: RTreeObject<Envelope = Self>>(
        _axis: usize,
        envelopes: &mut [T],
        selection_size: usize,
    ) {
        let axis = longer_axis(envelopes);
        // Envelopes are finite (boxes are validated), so `partial_cmp` is total here.
        envelopes.select_nth_unstable_by(selection_size, |l, r| {
            let (l, r) = (l.envelope().lower()[axis], r.envelope().lower()[axis]);
            l.partial_cmp(&r).unwrap_or(core::cmp::Ordering::Equal)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Folded and united, the bits never refuse what the filters accept: every pair of
    /// filters of a few bit patterns and groups (and none), one side alone or in a union
    /// with another filter, may pair whenever the filters let the two collide, or either
    /// has none.
    #[test]
    fn folded_unions_never_refuse_a_pair_the_filters_accept() {
        let bits = [0u64, 1, 2, 3, 1 << 31, 1 << 33, 1 << 62, 1 << 63, u64::MAX];
        let mut filters = vec![None];
        for &c in &bits {
            for &m in &bits {
                for g in [-1, 0, 2] {
                    filters.push(Some(CollisionFilter::new(c, m).group(g)));
                }
            }
        }
        let accepts = |a: &Option<CollisionFilter>, b: &Option<CollisionFilter>| match (a, b) {
            (Some(a), Some(b)) => a.should_collide(b),
            _ => true,
        };
        let mut refused = 0;
        for a in &filters {
            for b in &filters {
                let (fa, fb) = (FilterBits::of(a.as_ref()), FilterBits::of(b.as_ref()));
                if accepts(a, b) {
                    assert!(fa.may_pair(fb), "{a:?} {b:?}");
                    for c in &filters {
                        assert!(fa.union(FilterBits::of(c.as_ref())).may_pair(fb));
                    }
                } else {
                    refused += usize::from(!fa.may_pair(fb));
                }
            }
        }
        // The fold still prunes: most pairs the filters refuse are refused by the bits.
        assert!(refused > 1000, "{refused}");
    }
}
