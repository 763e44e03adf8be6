//! The moving-box test behind swept and ray queries, made conservative under rounding.

use impact_geometry::{Aabb, Point, Real, Vector};
use wide::{f32x4 as F32x4, f64x2 as F64x2};

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
    /// The bound's corners, per axis as lanes (x, y).
    bound_min: F64x2,
    bound_max: F64x2,
    /// `start.maxs + pad` and `start.mins - pad`: a target's `[mins - lo_off, maxs -
    /// hi_off]` is the padded Minkowski difference.
    lo_off: F64x2,
    hi_off: F64x2,
    /// `1 / translation` where the box moves along an axis (its reciprocal finite), 0 where
    /// it does not: the slab times are products, which cost a fraction of a division in a
    /// tree walk that tests dozens of boxes per query.
    inv: F64x2,
    /// All ones in the lanes of the axes the box does not move along.
    still: F64x2,
}

/// The box at the end of the motion, and the pad that makes the test conservative under
/// rounding: 16 ulps of the largest coordinate either box has.
fn end_and_pad(start: &Aabb, translation: &Vector) -> (Aabb, Real) {
    let end = Aabb::new(start.mins + translation, start.maxs + translation);
    let scale = [start.mins, start.maxs, end.mins, end.maxs]
        .iter()
        .map(|p| p.coords.abs().max())
        .fold(0.0, Real::max);
    (end, 16.0 * Real::EPSILON * scale)
}

impl SweptBox {
    /// The caller has validated that every value is finite.
    pub(crate) fn new(start: &Aabb, translation: &Vector) -> Self {
        let (end, pad) = end_and_pad(start, translation);
        let inv = [1.0 / translation.x, 1.0 / translation.y];
        // A motion so small that its reciprocal overflows is no motion, to within the pad.
        let moving = [0, 1].map(|axis| translation[axis] != 0.0 && inv[axis].is_finite());
        let bound = start.merged(&end).inflated(pad);
        let lanes = |x: Real, y: Real| F64x2::from([x, y]);
        let all_ones = Real::from_bits(u64::MAX);
        Self {
            bound_min: lanes(bound.mins.x, bound.mins.y),
            bound_max: lanes(bound.maxs.x, bound.maxs.y),
            lo_off: lanes(start.maxs.x + pad, start.maxs.y + pad),
            hi_off: lanes(start.mins.x - pad, start.mins.y - pad),
            inv: lanes(
                if moving[0] { inv[0] } else { 0.0 },
                if moving[1] { inv[1] } else { 0.0 },
            ),
            still: F64x2::from(moving.map(|m| if m { 0.0 } else { all_ones })),
            bound,
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
        let t = self.first_touch(mins, maxs);
        (t != Real::INFINITY).then_some(t)
    }

    /// [`SweptBox::entry`] as a number: the entry, or infinity when the moving box never
    /// touches `[mins, maxs]`, so that "entered by `end`" is one comparison, `t <= end`.
    ///
    /// Both axes at once and without a branch: a tree walk tests a dozen children per node,
    /// a few of which pass in no pattern a predictor could learn, and a mispredicted branch
    /// cost as much as the whole test. The tests: the target meets the bound (which along
    /// an axis the box does not move is the slab test: the bound is the start box grown by
    /// the pad there, the same numbers as `lo_off` and `hi_off`), and along the moving axes
    /// the slab times overlap each other and `[0, 1]`. Along such an axis `near <= far`
    /// when the box moves up it and `far <= near` when it moves down (the Minkowski
    /// difference is not empty and rounding is monotone), so `min` and `max` pick what a
    /// test of the sign would.
    #[inline]
    pub(crate) fn first_touch(&self, mins: [Real; 2], maxs: [Real; 2]) -> Real {
        let (zero, one) = (F64x2::ZERO, F64x2::ONE);
        let never = F64x2::splat(Real::INFINITY);
        let (mins, maxs) = (F64x2::from(mins), F64x2::from(maxs));
        let meets = mins.simd_le(self.bound_max) & maxs.simd_ge(self.bound_min);
        let near = (mins - self.lo_off) * self.inv;
        let far = (maxs - self.hi_off) * self.inv;
        let t0 = meets.select(self.still.select(zero, near.fast_min(far)), never);
        let t1 = self.still.select(one, near.fast_max(far));
        let [a0, a1] = t0.to_array();
        let [b0, b1] = t1.to_array();
        let t_enter = F64x2::splat(a0).fast_max(F64x2::splat(a1)).fast_max(zero);
        let t_exit = F64x2::splat(b0).fast_min(F64x2::splat(b1)).fast_min(one);
        // Callers order entries by their bits: never a `-0.0`.
        t_enter
            .simd_le(t_exit)
            .select(t_enter + zero, never)
            .to_array()[0]
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

/// The largest magnitude of a sweep's coordinates (its bound's corners) for which
/// [`SweptBoxF32`] is made: well inside the single-precision range, so that neither its
/// constants nor the products of its test overflow into NaN.
const F32_SCALE_MAX: Real = 1e30;

/// How far [`f32_down`] and [`f32_up`] move a number before rounding it to single
/// precision: 2^-22 of it (four times the worst rounding to nearest) and the smallest
/// subnormal (the worst absolute rounding), in double precision, which holds both exactly
/// enough.
const F32_OUTWARD: (Real, Real) = (1.0 / 4_194_304.0, 1.401_298_464_324_817e-45);

/// A single-precision number at most `x` (within a few ulps), finite: clamped to
/// `[-f32::MAX, f32::MAX]` (see [`SweptBoxF32`] on why that is safe). Without a branch: the
/// signs of coordinates follow no pattern.
#[inline]
pub(crate) fn f32_down(x: Real) -> f32 {
    let (relative, absolute) = F32_OUTWARD;
    ((x - x.abs() * relative - absolute) as f32).clamp(-f32::MAX, f32::MAX)
}

/// A single-precision number at least `x` (within a few ulps), finite as [`f32_down`]'s.
#[inline]
pub(crate) fn f32_up(x: Real) -> f32 {
    let (relative, absolute) = F32_OUTWARD;
    ((x + x.abs() * relative + absolute) as f32).clamp(-f32::MAX, f32::MAX)
}

/// A [`SweptBox`] tested in single precision against four boxes at once, one a lane (the
/// children of a four-wide tree node as a structure of arrays, their corners rounded outward
/// by [`f32_down`] and [`f32_up`]): half the width of the double-precision test, so four
/// boxes are one register per coordinate.
///
/// Conservative: for every box the single-precision box holds, the entry it gives is no
/// later than that box's [`SweptBox::first_touch`], and it says never (infinity) only if
/// that one does. The Minkowski difference is padded by 8 single-precision ulps of the
/// sweep's largest coordinate (its `scale`) more, and the bound is rounded outward. Why that
/// covers the rounding: a box's entry decides anything only while it is in `[0, 1]`, and
/// then the difference it comes from is at most the translation, `2 * scale`; its
/// subtraction, the reciprocal's rounding and the product each err by at most 2^-24 of it
/// (3 * 2^-23 * scale together), below the pad's 8 * 2^-23 * scale, which also moves every
/// slab time the safe way (entries earlier, exits later). A box corner past `f32::MAX` is
/// clamped to it, which changes nothing within the bound (at most [`F32_SCALE_MAX`]) and
/// keeps every product free of `inf * 0`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SweptBoxF32 {
    /// Per axis: the bound's corners, rounded outward.
    bound_min: [F32x4; 2],
    bound_max: [F32x4; 2],
    /// Per axis: [`SweptBox`]'s `lo_off` and `hi_off` widened by the pad.
    lo_off: [F32x4; 2],
    hi_off: [F32x4; 2],
    /// Per axis: the reciprocal of the translation, 0 along an axis that does not move (or
    /// whose reciprocal is past the single-precision range: tested as still, a superset).
    inv: [F32x4; 2],
    /// Per axis: 0 and 1 where the box does not move along it, minus infinity where it
    /// does. A still axis has `inv` 0, so its slab times are zero: the entry and exit raised
    /// to these are 0 and 1, the values [`SweptBox::first_touch`] selects, with one `max`
    /// each instead of a select.
    enter_floor: [F32x4; 2],
    exit_floor: [F32x4; 2],
}

impl SweptBoxF32 {
    /// The single-precision form of `sweep`, or `None` if its coordinates pass
    /// [`F32_SCALE_MAX`].
    pub(crate) fn new(sweep: &SweptBox) -> Option<Self> {
        let b = &sweep.bound;
        let scale = [b.mins.x, b.mins.y, b.maxs.x, b.maxs.y]
            .iter()
            .fold(0.0, |m: Real, c| m.max(c.abs()));
        if scale.is_nan() || scale > F32_SCALE_MAX {
            return None;
        }
        // The absolute term covers coordinates so small that single precision is subnormal.
        let pad = 8.0 * Real::from(f32::EPSILON) * scale + 8.0 * Real::from(f32::MIN_POSITIVE);
        let (lo_off, hi_off, inv) = (
            sweep.lo_off.to_array(),
            sweep.hi_off.to_array(),
            sweep.inv.to_array(),
        );
        let splat = |x: f32| F32x4::splat(x);
        let inv32 = inv.map(|i| {
            let i32 = i as f32;
            if i32.is_finite() { i32 } else { 0.0 }
        });
        let floor = |axis: usize, value: f32| {
            splat(if inv32[axis] == 0.0 {
                value
            } else {
                f32::NEG_INFINITY
            })
        };
        Some(Self {
            bound_min: [splat(f32_down(b.mins.x)), splat(f32_down(b.mins.y))],
            bound_max: [splat(f32_up(b.maxs.x)), splat(f32_up(b.maxs.y))],
            lo_off: [0, 1].map(|a| splat(f32_up(lo_off[a] + pad))),
            hi_off: [0, 1].map(|a| splat(f32_down(hi_off[a] - pad))),
            inv: inv32.map(splat),
            enter_floor: [floor(0, 0.0), floor(1, 0.0)],
            exit_floor: [floor(0, 1.0), floor(1, 1.0)],
        })
    }

    /// A lower bound of the entries of four boxes, lane `i` the single-precision box
    /// `[mins[0][i], maxs[0][i]] x [mins[1][i], maxs[1][i]]`, or infinity when no box it
    /// holds is touched (also for an empty lane: lower corner `f32::MAX`, upper `-f32::MAX`).
    #[inline]
    pub(crate) fn first_touch(&self, mins: [F32x4; 2], maxs: [F32x4; 2]) -> F32x4 {
        let (zero, one) = (F32x4::ZERO, F32x4::ONE);
        let never = F32x4::splat(f32::INFINITY);
        let meets = mins[0].simd_le(self.bound_max[0])
            & maxs[0].simd_ge(self.bound_min[0])
            & mins[1].simd_le(self.bound_max[1])
            & maxs[1].simd_ge(self.bound_min[1]);
        let slab = |axis: usize| {
            let near = (mins[axis] - self.lo_off[axis]) * self.inv[axis];
            let far = (maxs[axis] - self.hi_off[axis]) * self.inv[axis];
            (
                near.fast_min(far).fast_max(self.enter_floor[axis]),
                near.fast_max(far).fast_max(self.exit_floor[axis]),
            )
        };
        let ((a0, b0), (a1, b1)) = (slab(0), slab(1));
        let t_enter = a0.fast_max(a1).fast_max(zero);
        let t_exit = b0.fast_min(b1).fast_min(one);
        // Never a `-0.0`: callers order entries by their bits.
        (meets & t_enter.simd_le(t_exit)).select(t_enter + zero, never)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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

    /// The slab test written out axis by axis with a branch per decision: the bound's
    /// four-sided test, then for each moving axis the slab times by the sign of the
    /// translation, the pad and reciprocal computed as [`SweptBox::new`] does.
    fn reference_entry(start: &Aabb, translation: &Vector, target: &Aabb) -> Option<Real> {
        let (end, pad) = end_and_pad(start, translation);
        let bound = start.merged(&end).inflated(pad);
        if !bound.intersects(target) {
            return None;
        }
        let (mut t_enter, mut t_exit): (Real, Real) = (0.0, 1.0);
        for axis in 0..2 {
            let inv = 1.0 / translation[axis];
            if translation[axis] == 0.0 || !inv.is_finite() {
                continue;
            }
            let near = (target.mins[axis] - (start.maxs[axis] + pad)) * inv;
            let far = (target.maxs[axis] - (start.mins[axis] - pad)) * inv;
            let (t0, t1) = if inv > 0.0 { (near, far) } else { (far, near) };
            t_enter = t_enter.max(t0);
            t_exit = t_exit.min(t1);
        }
        (t_enter <= t_exit).then_some(t_enter + 0.0)
    }

    fn coordinate() -> impl Strategy<Value = Real> {
        prop_oneof![
            -50.0..50.0,
            (-50i32..50).prop_map(Real::from),
            Just(0.0),
            Just(-0.0),
            (-1e3..1e3, -300i32..300).prop_map(|(m, e)| m * Real::powi(2.0, e / 10)),
        ]
    }

    fn boxes() -> impl Strategy<Value = Aabb> {
        (coordinate(), coordinate(), 0.0..20.0, 0.0..20.0, 0..4u8).prop_map(
            |(x, y, w, h, shape)| {
                // Points and lines as well as boxes.
                let (w, h) = match shape {
                    0 => (0.0, 0.0),
                    1 => (w, 0.0),
                    _ => (w, h),
                };
                aabb(x, y, x + w, y + h)
            },
        )
    }

    fn translations() -> impl Strategy<Value = Vector> {
        (coordinate(), coordinate(), 0..4u8).prop_map(|(x, y, still)| match still {
            0 => Vector::new(x, 0.0),
            1 => Vector::new(0.0, y),
            2 => Vector::new(x, 1e-310),
            _ => Vector::new(x, y),
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// The lane-wise, branch-free test gives the scalar test's answer to the bit: the
        /// same targets pass, at the same entry.
        #[test]
        fn first_touch_is_the_scalar_slab_test(
            start in boxes(),
            translation in translations(),
            target in boxes(),
        ) {
            let sweep = SweptBox::new(&start, &translation);
            let want = reference_entry(&start, &translation, &target);
            let got = sweep.entry_aabb(&target);
            prop_assert_eq!(got.map(Real::to_bits), want.map(Real::to_bits));
            let touch = sweep.first_touch(
                [target.mins.x, target.mins.y],
                [target.maxs.x, target.maxs.y],
            );
            prop_assert_eq!(touch.to_bits(), want.unwrap_or(Real::INFINITY).to_bits());
        }

        /// The single-precision test is conservative: for each of four boxes, rounded
        /// outward into a lane, an entry no later than the double-precision test's, and
        /// never "never" for a box that test enters; an empty lane is never entered.
        #[test]
        fn single_precision_lanes_bound_the_entries(
            start in boxes(),
            translation in translations(),
            targets in proptest::collection::vec(boxes(), 4),
            empty in 0..16u8,
        ) {
            let sweep = SweptBox::new(&start, &translation);
            let Some(lanes) = SweptBoxF32::new(&sweep) else {
                return Ok(());
            };
            let lane = |f: fn(&Aabb) -> [Real; 2], round: fn(Real) -> f32, empty_value: f32| {
                [0, 1].map(|axis| {
                    let mut v = [0.0; 4];
                    for (i, t) in targets.iter().enumerate() {
                        v[i] = if empty & (1 << i) != 0 { empty_value } else { round(f(t)[axis]) };
                    }
                    F32x4::from(v)
                })
            };
            let mins = lane(|t| [t.mins.x, t.mins.y], f32_down, f32::MAX);
            let maxs = lane(|t| [t.maxs.x, t.maxs.y], f32_up, -f32::MAX);
            let got = lanes.first_touch(mins, maxs).to_array();
            for (i, t) in targets.iter().enumerate() {
                if empty & (1 << i) != 0 {
                    prop_assert_eq!(got[i], f32::INFINITY, "empty lane {}", i);
                    continue;
                }
                let want = sweep.first_touch([t.mins.x, t.mins.y], [t.maxs.x, t.maxs.y]);
                if want != Real::INFINITY {
                    prop_assert!(Real::from(got[i]) <= want, "lane {}: {} after {}", i, got[i], want);
                }
            }
        }

        /// Outward rounding to single precision: below and above, within range.
        #[test]
        fn rounding_to_single_precision_is_outward(
            x in prop_oneof![
                coordinate(),
                (-2.0..2.0, -1074i32..1023).prop_map(|(m, e)| m * Real::powi(2.0, e)),
            ],
        ) {
            prop_assert!(Real::from(f32_down(x)) <= x || x < -Real::from(f32::MAX));
            prop_assert!(Real::from(f32_up(x)) >= x || x > Real::from(f32::MAX));
            prop_assert!(f32_down(x).is_finite() && f32_up(x).is_finite());
        }
    }
}
