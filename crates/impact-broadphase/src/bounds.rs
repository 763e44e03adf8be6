//! [`Bounds`]: the envelope type of the R-trees, an rstar `AABB` whose bulk loading splits
//! along the longer side of each group instead of alternating axes.

use impact_geometry::{Aabb, Real, corners_meet};
use rstar::{AABB, Envelope, RTreeObject};

/// An axis-aligned box as the R-tree stores it.
///
/// Everything but [`Envelope::partition_envelopes`] is rstar's `AABB`. rstar's bulk load
/// (OMT) cuts every group into the same number of slabs along each axis in turn, whatever
/// the group's shape. For a wide, flat scene (the rain onto a floor: 10,000 units wide, 3
/// high) that cuts a 3-unit height into slabs thinner than the boxes, and sibling nodes then
/// overlap almost entirely, so the pair search descends nearly every pair of them. Cutting
/// each group across its longer side instead (a k-d split) keeps nodes roughly square in
/// any scene, and costs one extra pass over a sample of the group.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bounds(AABB<[Real; 2]>);

impl Bounds {
    /// The box from its corners (`lower <= upper` on each axis).
    #[inline]
    pub(crate) fn new(lower: [Real; 2], upper: [Real; 2]) -> Self {
        Self(AABB::from_corners(lower, upper))
    }

    /// The box of a geometry box.
    #[inline]
    pub(crate) fn of(aabb: &Aabb) -> Self {
        Self::new([aabb.mins.x, aabb.mins.y], [aabb.maxs.x, aabb.maxs.y])
    }

    #[inline]
    pub(crate) fn lower(&self) -> [Real; 2] {
        self.0.lower()
    }

    #[inline]
    pub(crate) fn upper(&self) -> [Real; 2] {
        self.0.upper()
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
        Self(AABB::new_empty())
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn contains_point(&self, point: &[Real; 2]) -> bool {
        self.0.contains_point(point)
    }

    fn contains_envelope(&self, other: &Self) -> bool {
        self.0.contains_envelope(&other.0)
    }

    fn merge(&mut self, other: &Self) {
        self.0.merge(&other.0);
    }

    fn merged(&self, other: &Self) -> Self {
        Self(self.0.merged(&other.0))
    }

    fn intersects(&self, other: &Self) -> bool {
        self.overlaps(other)
    }

    fn intersection_area(&self, other: &Self) -> Real {
        self.0.intersection_area(&other.0)
    }

    fn area(&self) -> Real {
        self.0.area()
    }

    fn distance_2(&self, point: &[Real; 2]) -> Real {
        Envelope::distance_2(&self.0, point)
    }

    fn min_max_dist_2(&self, point: &[Real; 2]) -> Real {
        self.0.min_max_dist_2(point)
    }

    fn center(&self) -> [Real; 2] {
        self.0.center()
    }

    fn perimeter_value(&self) -> Real {
        self.0.perimeter_value()
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
