//! The CCD steppers' batch pair search at the start of a step: sort and sweep.
//!
//! [`MotionClamping`](crate::MotionClamping) needs, once per step, every pair of motion boxes
//! that meet, and nothing after; [`FirstTimeOfImpact`](crate::FirstTimeOfImpact) every pair of
//! reach boxes, for its neighbour lists. [`ReachGrid`](crate::grid::ReachGrid) also answers
//! the queries of a step in progress (a course that leaves its reach), which is what
//! `FirstTimeOfImpact` keeps it for; for one batch of pairs its hashed cells cost more than
//! they save. In the rain of 1,000 discs
//! every query visited about nine cells, scattered over the table, and tested about 23
//! listed boxes for two pairs: the pair search was a sixth of the step. Sorted along one
//! axis, the boxes are tested in order, from memory read in order, against the boxes that
//! overlap them on that axis only.
//!
//! The axis is the one along which the boxes overlap least: the rain's column of discs
//! falls along y, and its boxes are tall and narrow.
//!
//! The boxes are sorted by their lower bound on the axis, then by slot: a total order, so
//! the pairs come out in the same order whatever the order the boxes were kept in from the
//! last step (which only makes the sort faster: the order changes little from one step to
//! the next).

use impact_geometry::{Aabb, Real};
use wide::f64x4 as F64x4;

/// Boxes tested at once.
const LANES: usize = 4;

/// One box as the sort orders it.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// The bounds along the sweep axis.
    lo: Real,
    hi: Real,
    /// The bounds along the other axis.
    other_lo: Real,
    other_hi: Real,
    slot: u32,
}

/// The sweep's storage, kept from step to step.
#[derive(Debug, Clone, Default)]
pub(crate) struct SweepPairs {
    entries: Vec<Entry>,
    /// The sorted entries' fields, each in its own array, padded to a multiple of four
    /// lanes with entries that meet nothing: the sweep tests four at a time.
    lo: Vec<Real>,
    other_lo: Vec<Real>,
    other_hi: Vec<Real>,
    /// The slots in last step's sorted order.
    order: Vec<u32>,
    /// Per slot: whether it is in `order`.
    listed: Vec<bool>,
}

impl SweepPairs {
    /// Calls `found(x, y)` once for every pair of slots whose boxes in `boxes` meet
    /// (touching counts), one side of each pair only, in an order that depends on the boxes
    /// alone.
    pub fn pairs(&mut self, boxes: &[Option<Aabb>], mut found: impl FnMut(u32, u32)) {
        let axis = sweep_axis(boxes);
        // Last step's order first (slots that lost their box dropped), then the new slots.
        self.listed.clear();
        self.listed.resize(boxes.len(), false);
        self.entries.clear();
        let entry = |slot: u32, aabb: &Aabb| {
            let (lo, hi, other_lo, other_hi) = if axis == 0 {
                (aabb.mins.x, aabb.maxs.x, aabb.mins.y, aabb.maxs.y)
            } else {
                (aabb.mins.y, aabb.maxs.y, aabb.mins.x, aabb.maxs.x)
            };
            Entry {
                lo,
                hi,
                other_lo,
                other_hi,
                slot,
            }
        };
        for &slot in &self.order {
            if let Some(Some(aabb)) = boxes.get(slot as usize) {
                self.entries.push(entry(slot, aabb));
                self.listed[slot as usize] = true;
            }
        }
        for (slot, aabb) in boxes.iter().enumerate() {
            if let Some(aabb) = aabb
                && !self.listed[slot]
            {
                self.entries.push(entry(slot as u32, aabb));
            }
        }
        sort_entries(&mut self.entries);
        self.order.clear();
        self.order.extend(self.entries.iter().map(|e| e.slot));

        let n = self.entries.len();
        let padded = n.div_ceil(LANES) * LANES;
        let (lo, other_lo, other_hi) = (&mut self.lo, &mut self.other_lo, &mut self.other_hi);
        lo.clear();
        other_lo.clear();
        other_hi.clear();
        lo.extend(self.entries.iter().map(|e| e.lo));
        other_lo.extend(self.entries.iter().map(|e| e.other_lo));
        other_hi.extend(self.entries.iter().map(|e| e.other_hi));
        // Padding lies beyond every box on the sweep axis, and meets nothing on the other.
        lo.resize(padded, Real::INFINITY);
        other_lo.resize(padded, Real::INFINITY);
        other_hi.resize(padded, Real::NEG_INFINITY);

        // Four boxes at a time: one comparison per bound, and branches that go the same way
        // but once per box (the end of its run) or once per pair found. Tested one by one,
        // the overlap on the other axis mispredicted.
        let lanes = |v: &[Real], j: usize| {
            let group: [Real; LANES] = v[j..j + LANES].try_into().expect("four lanes");
            F64x4::from(group)
        };
        for (i, a) in self.entries.iter().enumerate() {
            let (hi, a_lo, a_hi) = (
                F64x4::splat(a.hi),
                F64x4::splat(a.other_lo),
                F64x4::splat(a.other_hi),
            );
            let mut j = i + 1;
            while j < n {
                // The four boxes from `j`, or the last four if that would run past the
                // padding (`j` is not a multiple of four in general).
                let start = j.min(padded - LANES);
                // The lanes of boxes: padding is never reported, even against a box
                // unbounded on both axes (which every padding lane would meet).
                let boxes = if n - start >= LANES {
                    0b1111
                } else {
                    (1 << (n - start)) - 1
                };
                let within = lanes(lo, start).simd_le(hi);
                let meets = within
                    & lanes(other_lo, start).simd_le(a_hi)
                    & a_lo.simd_le(lanes(other_hi, start));
                // Lanes before `j` (a group moved back to fit) were reported already.
                let mut hits = (meets.to_bitmask() & boxes) >> (j - start) << (j - start);
                while hits != 0 {
                    let k = start + hits.trailing_zeros() as usize;
                    hits &= hits - 1;
                    found(a.slot, self.entries[k].slot);
                }
                // Sorted by lower bound: past the first box beyond `a`, all are.
                if within.to_bitmask() & boxes != boxes {
                    break;
                }
                j = start + LANES;
            }
        }
    }
}

/// Sorts `entries` by lower bound, then slot (a total order: slots are distinct, so there is
/// one result whatever the order given). By insertion, which costs a pass plus one move per
/// pair out of order: the entries come in last step's order, which the boxes' moves upset
/// only locally (in the rain of 1,000 discs, about a thirtieth of the general sort's instructions). Past
/// a budget of moves, the general sort finishes the job.
fn sort_entries(entries: &mut [Entry]) {
    let before = |a: &Entry, b: &Entry| a.lo.total_cmp(&b.lo).then(a.slot.cmp(&b.slot)).is_lt();
    let mut budget = 8 * entries.len();
    for i in 1..entries.len() {
        let e = entries[i];
        let mut j = i;
        while j > 0 && before(&e, &entries[j - 1]) {
            entries[j] = entries[j - 1];
            j -= 1;
        }
        entries[j] = e;
        budget = budget.saturating_sub(i - j);
        if budget == 0 {
            entries.sort_unstable_by(|a, b| a.lo.total_cmp(&b.lo).then(a.slot.cmp(&b.slot)));
            return;
        }
    }
}

/// The axis (0: x, 1: y) along which `boxes` overlap least: the one on which the mean box
/// extent is the smaller part of the spread of the boxes, the spread measured as the
/// interquartile range of a strided sample of at most 64 centres. The range of all centres
/// would let a few outliers decide: in the rain, the discs still falling in the column
/// stretch it along y twentyfold, while the boxes crowd a band a few units high.
fn sweep_axis(boxes: &[Option<Aabb>]) -> usize {
    let count = boxes.iter().flatten().count();
    if count < 2 {
        return 0;
    }
    let mut extent = [0.0 as Real; 2];
    for aabb in boxes.iter().flatten() {
        let e = aabb.maxs - aabb.mins;
        extent[0] += e.x;
        extent[1] += e.y;
    }
    let stride = count.div_ceil(SAMPLE);
    let spread = |k: usize| {
        let mut sample = [0.0 as Real; SAMPLE];
        let mut len = 0;
        for aabb in boxes.iter().flatten().step_by(stride) {
            sample[len] = aabb.center()[k];
            len += 1;
        }
        let sample = &mut sample[..len];
        sample.sort_unstable_by(Real::total_cmp);
        sample[len * 3 / 4] - sample[len / 4]
    };
    let (sx, sy) = (spread(0), spread(1));
    // extent / spread per axis, compared without dividing (a zero spread counts as dense).
    usize::from(extent[1] * sx < extent[0] * sy)
}

/// Most centres [`sweep_axis`] samples.
const SAMPLE: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::Point;
    use proptest::prelude::*;

    fn brute_force(boxes: &[Option<Aabb>]) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for (i, a) in boxes.iter().enumerate() {
            for (j, b) in boxes.iter().enumerate().skip(i + 1) {
                if let (Some(a), Some(b)) = (a, b)
                    && a.intersects(b)
                {
                    out.push((i as u32, j as u32));
                }
            }
        }
        out
    }

    fn sorted(mut pairs: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
        for p in &mut pairs {
            if p.0 > p.1 {
                *p = (p.1, p.0);
            }
        }
        pairs.sort_unstable();
        pairs
    }

    fn boxes_strategy() -> impl Strategy<Value = Vec<Option<Aabb>>> {
        prop::collection::vec(
            prop::option::weighted(
                0.9,
                (-10.0..10.0f64, -10.0..10.0f64, 0.0..3.0f64, 0.0..3.0f64).prop_map(
                    |(x, y, w, h)| Aabb {
                        mins: Point::new(x, y),
                        maxs: Point::new(x + w, y + h),
                    },
                ),
            ),
            0..60,
        )
    }

    proptest! {
        /// The pairs are exactly the brute-force pairs, each once, over two steps (the
        /// second starts from the first's order).
        #[test]
        fn the_pairs_are_the_brute_force_pairs(first in boxes_strategy(), second in boxes_strategy()) {
            let mut sweep = SweepPairs::default();
            for boxes in [&first, &second] {
                let mut found = Vec::new();
                sweep.pairs(boxes, |x, y| found.push((x, y)));
                prop_assert_eq!(sorted(found), brute_force(boxes));
            }
        }

        /// The order of the pairs depends on the boxes alone, not on what the sweep saw
        /// before (a world restored from a snapshot starts with no order).
        #[test]
        fn the_order_of_the_pairs_depends_on_the_boxes_alone(first in boxes_strategy(), second in boxes_strategy()) {
            let mut warm = SweepPairs::default();
            warm.pairs(&first, |_, _| {});
            let (mut a, mut b) = (Vec::new(), Vec::new());
            warm.pairs(&second, |x, y| a.push((x, y)));
            SweepPairs::default().pairs(&second, |x, y| b.push((x, y)));
            prop_assert_eq!(a, b);
        }
    }

    proptest! {
        /// The insertion sort, within its budget or past it, gives the general sort's order.
        #[test]
        fn the_sort_is_the_general_sort(
            keys in prop::collection::vec((0u32..40, any::<bool>()), 0..200),
        ) {
            // Few distinct lower bounds, so ties between slots are common.
            let mut entries: Vec<Entry> = keys
                .iter()
                .enumerate()
                .map(|(slot, &(lo, _))| Entry {
                    lo: Real::from(lo),
                    hi: Real::from(lo) + 1.0,
                    other_lo: 0.0,
                    other_hi: 1.0,
                    slot: slot as u32,
                })
                .collect();
            // Nearly sorted input half the time, to stay within the budget.
            if keys.first().is_some_and(|k| k.1) {
                entries.sort_unstable_by(|a, b| a.lo.total_cmp(&b.lo));
                let len = entries.len();
                for i in (1..len).step_by(7) {
                    entries.swap(i - 1, i);
                }
            }
            let mut want = entries.clone();
            want.sort_unstable_by(|a, b| a.lo.total_cmp(&b.lo).then(a.slot.cmp(&b.slot)));
            sort_entries(&mut entries);
            let slots = |v: &[Entry]| v.iter().map(|e| e.slot).collect::<Vec<_>>();
            prop_assert_eq!(slots(&entries), slots(&want));
        }
    }

    #[test]
    fn boxes_without_bounds_meet_every_box_and_no_padding() {
        let inf = Real::INFINITY;
        let unbounded = Some(Aabb {
            mins: Point::new(-inf, -inf),
            maxs: Point::new(inf, inf),
        });
        let unit = |x: f64| {
            Some(Aabb {
                mins: Point::new(x, 0.0),
                maxs: Point::new(x + 1.0, 1.0),
            })
        };
        // Five boxes: the last group of four runs into the padding.
        for boxes in [
            vec![unbounded, unit(0.0), unit(5.0), unbounded, unit(10.0)],
            vec![unit(0.0), unbounded],
        ] {
            let mut found = Vec::new();
            SweepPairs::default().pairs(&boxes, |x, y| found.push((x, y)));
            assert_eq!(sorted(found), brute_force(&boxes));
        }
    }

    #[test]
    fn touching_boxes_meet() {
        let unit = |x: f64, y: f64| {
            Some(Aabb {
                mins: Point::new(x, y),
                maxs: Point::new(x + 1.0, y + 1.0),
            })
        };
        let boxes = [
            unit(0.0, 0.0),
            unit(1.0, 0.0),
            unit(0.0, 1.0),
            unit(2.5, 2.5),
        ];
        let mut found = Vec::new();
        SweepPairs::default().pairs(&boxes, |x, y| found.push((x, y)));
        assert_eq!(sorted(found), vec![(0, 1), (0, 2), (1, 2)]);
    }
}
