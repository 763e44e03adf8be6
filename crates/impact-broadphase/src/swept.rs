//! The moving-box test behind swept and ray queries, made conservative under rounding.

use impact_geometry::{Aabb, Point, Real, Vector, corners_meet};

/// A box `start` translated by `t * translation` for t in [0, 1], ready to test against many
/// targets (tree nodes or proxies).
///
/// The box touches a target at some t exactly when the segment `t * translation` meets the
/// Minkowski difference `[target.mins - start.maxs, target.maxs - start.mins]`: a slab test
/// per axis. Rounding in those subtractions and in the slab times (products by the
/// reciprocal of the translation) could lose a pair that only just touches, which would be a
/// false negative, so the difference is padded by `pad`, 16 ulps of the query's largest
/// coordinate. Near a decision only coordinates of that size take part, so this covers the
/// rounding of every operation (a few ulps) with a wide safety factor (checked by sampling in
/// the tests).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SweptBox {
    /// Union of the start and end boxes, grown by `pad`: a cheap first reject.
    bound: Aabb,
    /// Per axis, `start.maxs + pad` and `start.mins - pad`: a target's `[mins - lo_off,
    /// maxs - hi_off]` is the padded Minkowski difference.
    lo_off: [Real; 2],
    hi_off: [Real; 2],
    /// Per axis, `1 / translation` where the box moves along it (its reciprocal finite), and
    /// whether it does: the slab times are products, which cost a fraction of a division in
    /// a tree walk that tests dozens of boxes per query.
    inv: [Real; 2],
    moving: [bool; 2],
}

impl SweptBox {
    /// The caller has validated that every value is finite.
    pub(crate) fn new(start: &Aabb, translation: &Vector) -> Self {
        let end = Aabb::new(start.mins + translation, start.maxs + translation);
        let scale = [start.mins, start.maxs, end.mins, end.maxs]
            .iter()
            .map(|p| p.coords.abs().max())
            .fold(0.0, Real::max);
        let pad = 16.0 * Real::EPSILON * scale;
        let inv = [1.0 / translation.x, 1.0 / translation.y];
        // A motion so small that its reciprocal overflows is no motion, to within the pad.
        let moving = [0, 1].map(|axis| translation[axis] != 0.0 && inv[axis].is_finite());
        Self {
            bound: start.merged(&end).inflated(pad),
            lo_off: [start.maxs.x + pad, start.maxs.y + pad],
            hi_off: [start.mins.x - pad, start.mins.y - pad],
            inv,
            moving,
        }
    }

    /// A ray from `origin` along `dir` for fractions in `[0, max_fraction]`: a point box
    /// swept over the segment.
    pub(crate) fn ray(origin: &Point, dir: &Vector, max_fraction: Real) -> Self {
        Self::new(&Aabb::new(*origin, *origin), &(dir * max_fraction))
    }

    /// The box holding the whole sweep (padded): every target this sweep hits intersects it.
    pub(crate) fn bound(&self) -> &Aabb {
        &self.bound
    }

    /// Whether the moving box touches `[mins, maxs]` at some t in [0, 1] (touching counts),
    /// allowing false positives within the rounding pad.
    ///
    /// Monotone: a target that holds another target passes whenever the inner one passes,
    /// which lets a tree prune a node by the same test as its leaves.
    #[inline]
    pub(crate) fn hits(&self, mins: [Real; 2], maxs: [Real; 2]) -> bool {
        self.entry(mins, maxs).is_some()
    }

    /// The first t in [0, 1] at which the moving box touches `[mins, maxs]` (padded as
    /// [`SweptBox::hits`], so never later than the true first touch), or `None` when it
    /// never does; `Some` exactly when [`SweptBox::hits`] says so.
    ///
    /// Monotone as [`SweptBox::hits`]: a target that holds another is entered no later, so
    /// a tree node's entry is a lower bound of its leaves' entries.
    #[inline]
    pub(crate) fn entry(&self, mins: [Real; 2], maxs: [Real; 2]) -> Option<Real> {
        let b = &self.bound;
        // One four-wide comparison and one branch: a walk through a tree tests dozens of
        // boxes per query, each passing or not about as often, and four compare-and-branch
        // steps mispredicted far more often.
        if !corners_meet([b.mins.x, b.mins.y], [b.maxs.x, b.maxs.y], mins, maxs) {
            return None;
        }
        // Along an axis the box does not move, the bound's test above was the slab test: the
        // bound is the start box grown by the pad there, the same numbers as `lo_off` and
        // `hi_off`. Along the others, the slab times, compared once at the end: an early
        // return on each axis mispredicts about as often as it is taken.
        let mut t_enter: Real = 0.0;
        let mut t_exit: Real = 1.0;
        for axis in 0..2 {
            if self.moving[axis] {
                let inv = self.inv[axis];
                let near = (mins[axis] - self.lo_off[axis]) * inv;
                let far = (maxs[axis] - self.hi_off[axis]) * inv;
                let (t0, t1) = if inv > 0.0 { (near, far) } else { (far, near) };
                t_enter = if t0 > t_enter { t0 } else { t_enter };
                t_exit = if t1 < t_exit { t1 } else { t_exit };
            }
        }
        if t_enter > t_exit {
            return None;
        }
        // Callers order entries by their bits: never a `-0.0`.
        Some(t_enter + 0.0)
    }

    /// [`SweptBox::entry`] for a geometry box.
    #[inline]
    pub(crate) fn entry_aabb(&self, aabb: &Aabb) -> Option<Real> {
        self.entry([aabb.mins.x, aabb.mins.y], [aabb.maxs.x, aabb.maxs.y])
    }

    /// [`SweptBox::hits`] for a geometry box.
    #[inline]
    pub(crate) fn hits_aabb(&self, aabb: &Aabb) -> bool {
        self.hits([aabb.mins.x, aabb.mins.y], [aabb.maxs.x, aabb.maxs.y])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aabb(x0: Real, y0: Real, x1: Real, y1: Real) -> Aabb {
        Aabb::new(Point::new(x0, y0), Point::new(x1, y1))
    }

    #[test]
    fn diagonal_sweep_misses_box_inside_its_union_bound() {
        // The union of start and end boxes covers (4..6, 0..2), but a unit box moving from
        // (0, 0) to (10, 10) along the diagonal never gets below y = x - 1 there.
        let sweep = SweptBox::new(&aabb(0.0, 0.0, 1.0, 1.0), &Vector::new(10.0, 10.0));
        let target = aabb(4.0, 0.0, 6.0, 2.0);
        assert!(sweep.bound().intersects(&target));
        assert!(!sweep.hits_aabb(&target));
        assert!(sweep.hits_aabb(&aabb(4.0, 4.0, 6.0, 6.0)));
    }

    #[test]
    fn touching_at_the_end_of_the_sweep_counts() {
        // The moving box's right face reaches x = 3 exactly at t = 1.
        let sweep = SweptBox::new(&aabb(0.0, 0.0, 1.0, 1.0), &Vector::new(2.0, 0.0));
        assert!(sweep.hits_aabb(&aabb(3.0, 0.5, 4.0, 0.7)));
        assert!(!sweep.hits_aabb(&aabb(3.001, 0.5, 4.0, 0.7)));
    }

    #[test]
    fn zero_translation_is_a_static_overlap_test() {
        let sweep = SweptBox::new(&aabb(0.0, 0.0, 1.0, 1.0), &Vector::zeros());
        assert!(sweep.hits_aabb(&aabb(1.0, 1.0, 2.0, 2.0)));
        assert!(!sweep.hits_aabb(&aabb(1.5, 0.0, 2.0, 2.0)));
    }
}
