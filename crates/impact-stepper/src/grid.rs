//! The neighbour search of both CCD steppers during a step: a hierarchical spatial hash over
//! the boxes of one step's motions.
//!
//! [`FirstTimeOfImpact`](crate::FirstTimeOfImpact) needs, when a course leaves its reach,
//! the bodies a grown reach meets. A tree broadphase answers this, but at the price of a
//! batch update each step, a descent per query and a reinsertion per grown reach; a grid
//! answers it with a few hash lookups per box. The batch of pairs at the start of a step
//! (every pair of reach boxes, or of motion boxes for
//! [`MotionClamping`](crate::MotionClamping)) comes from [`sweep_pairs`](crate::sweep_pairs)
//! outside periodic domains, where sorting beats hashing for one batch, and from this grid's
//! [`pairs`](ReachGrid::pairs) inside one, whose wrapped cells find the images.
//!
//! Level `k` has cells of side `base * 2^k` (`base`: the smallest box's extent); a box lives
//! at the lowest level whose cells are at least as large as the box, so it covers at most
//! 2 x 2 cells there, and is listed in each. A box finds the boxes of its own and coarser
//! levels by looking in the cells it covers there; boxes of finer levels find it the same
//! way, which makes the start-of-step pair search symmetric at 4 cells per level per box.
//! A grown reach looks into the finer levels too (each level's cells it covers, or all the
//! level's boxes when that is fewer). Boxes larger than the coarsest level (a floor, a
//! wall) are kept apart and checked against every query.
//!
//! In a periodic domain a level's cells divide the period (at least the nominal size, so
//! the 2 x 2 bound holds) and cell coordinates wrap; a pair's image is found by trying the
//! translations of one period on each axis. Bodies are within half a period of the domain
//! during a step (they are wrapped at its start), so one period either way is enough.

use impact_geometry::{Aabb, Point, Real, Vector};
use wide::f64x4 as F64x4;

/// Levels beyond the first: cells up to `2^MAX_LEVEL` times the smallest box.
const MAX_LEVEL: usize = 20;
// Levels are bits of `ReachGrid::occupied`.
const _: () = assert!(MAX_LEVEL < 64);

/// A grown reach looks into a finer level cell by cell only while that visits at most this
/// many cells; past it, it tests that level's boxes one by one.
const MAX_CELL_VISITS: i64 = 64;

/// A level with at most this many boxes is tested box by box whenever that is fewer than
/// the cells a query covers there: the coarse levels of a scene hold a floor or a few
/// walls, and every query reaches them. (In the rain of 1,000 discs, 1% fewer instructions
/// and branch misses a step than visiting their cells; more boxes than this and the
/// mispredicted box tests cost more than the cells' hashing.)
const FEW_MEMBERS: i64 = 2;

#[derive(Debug, Clone, Copy, Default)]
struct Level {
    /// Cell side on each axis.
    cell: Vector,
    /// Cells per period on each axis (periodic domains only).
    wrap: Option<(i64, i64)>,
}

/// A box as listed in a cell: a copy, so that a query reads the cell's memory in order.
/// A slot whose reach grew is listed again with its new box; its old listings, with a box
/// inside the new one, only ever miss what the new ones find.
#[derive(Debug, Clone, Copy)]
struct Item {
    slot: u32,
    level: u32,
    /// The box as `[maxs.x, maxs.y, -mins.x, -mins.y]`: a query box meets it when its
    /// [`query_key`] is at most this on every lane, one four-wide comparison and one branch.
    /// Four branches, each taken at random by most items of a cell, mispredicted about one
    /// test in two (negating is exact, so the test is the same).
    key: [Real; 4],
}

impl Item {
    fn new(slot: u32, level: u32, aabb: &Aabb) -> Self {
        Self {
            slot,
            level,
            key: [aabb.maxs.x, aabb.maxs.y, -aabb.mins.x, -aabb.mins.y],
        }
    }

    /// The box listed.
    fn aabb(&self) -> Aabb {
        let [max_x, max_y, neg_min_x, neg_min_y] = self.key;
        Aabb {
            mins: Point::new(-neg_min_x, -neg_min_y),
            maxs: Point::new(max_x, max_y),
        }
    }

    /// Whether the box listed meets the box of `query` (a [`query_key`]), edges included.
    #[inline(always)]
    fn meets(&self, query: F64x4) -> bool {
        query.simd_le(F64x4::from(self.key)).to_bitmask() == 0b1111
    }
}

/// The other side of [`Item::key`]'s comparison: `[mins.x, mins.y, -maxs.x, -maxs.y]`.
#[inline]
fn query_key(aabb: &Aabb) -> F64x4 {
    F64x4::from([aabb.mins.x, aabb.mins.y, -aabb.maxs.x, -aabb.maxs.y])
}

/// The grid (see the module docs). Its storage is kept from step to step.
#[derive(Debug, Clone, Default)]
pub(crate) struct ReachGrid {
    origin: Point,
    /// The period of a periodic domain.
    period: Option<Vector>,
    levels: Vec<Level>,
    /// Hashed cells: the boxes listed in each; a bucket may mix cells (the box test sorts
    /// them out).
    buckets: Vec<Vec<Item>>,
    /// The boxes of each level (and, last, the boxes too large for any level).
    members: Vec<Vec<Item>>,
    /// Bit `k`: level `k` has members. A query walks these bits rather than testing every
    /// level's list, which in the rain of discs alternate between empty and not in no order
    /// a branch predictor learns.
    occupied: u64,
    /// Per slot: the query that last reported it, so a box listed in several cells is
    /// reported once per query.
    stamps: Vec<u32>,
    stamp: u32,
}

impl ReachGrid {
    /// Rebuilds the grid over `boxes` (per slot; `None` is left out), in a periodic domain
    /// of `period` with cells aligned on `origin` if there is one.
    pub fn build(&mut self, boxes: &[Option<Aabb>], origin: Point, period: Option<Vector>) {
        self.origin = origin;
        self.period = period;
        let mut smallest = Real::INFINITY;
        let mut largest: Real = 0.0;
        let mut count: usize = 0;
        for aabb in boxes.iter().flatten() {
            let e = extent(aabb);
            smallest = smallest.min(e);
            largest = largest.max(e);
            count += 1;
        }
        // Boxes of zero extent (points) would make the finest level infinitely fine: the
        // finest level is at most 2^MAX_LEVEL times finer than the largest box.
        let floor = largest * (0.5 as Real).powi(MAX_LEVEL as i32);
        let mut base = smallest.max(floor);
        if !(base.is_finite() && base > 0.0) {
            base = 1.0;
        }
        self.levels.clear();
        let mut side = base;
        while self.levels.len() <= MAX_LEVEL {
            let (cell, wrap) = match period {
                Some(size) => {
                    let nx = ((size.x / side).floor() as i64).max(1);
                    let ny = ((size.y / side).floor() as i64).max(1);
                    (
                        Vector::new(size.x / nx as Real, size.y / ny as Real),
                        Some((nx, ny)),
                    )
                }
                None => (Vector::new(side, side), None),
            };
            self.levels.push(Level { cell, wrap });
            if side >= largest {
                break;
            }
            side *= 2.0;
        }
        let table = (4 * count).next_power_of_two().max(16);
        for bucket in &mut self.buckets {
            bucket.clear();
        }
        if self.buckets.len() < table {
            self.buckets.resize_with(table, Vec::new);
        }
        self.members.iter_mut().for_each(Vec::clear);
        self.occupied = 0;
        if self.members.len() < self.levels.len() + 1 {
            self.members.resize_with(self.levels.len() + 1, Vec::new);
        }
        if self.stamps.len() < boxes.len() {
            self.stamps.resize(boxes.len(), 0);
        }
        for (slot, aabb) in boxes.iter().enumerate() {
            if let Some(aabb) = aabb {
                self.insert(slot as u32, aabb);
            }
        }
    }

    /// Calls `found(x, y, shift)` once for every pair of slots whose boxes in `boxes` (as
    /// built) meet, `x` meeting the image of `y` translated by `shift`; `found` is called
    /// for one side of each pair only. `scratch` is a buffer.
    pub fn pairs(
        &mut self,
        boxes: &[Option<Aabb>],
        scratch: &mut Vec<(u32, Vector)>,
        mut found: impl FnMut(u32, u32, Vector),
    ) {
        for (x, aabb) in boxes.iter().enumerate() {
            let Some(aabb) = aabb else { continue };
            let x = x as u32;
            scratch.clear();
            self.query(x, aabb, boxes, true, |y, s| scratch.push((y, s)));
            for &(y, s) in scratch.iter() {
                found(x, y, s);
            }
        }
    }

    /// Lists `slot` with box `aabb`: in the cells it covers at its level, or with the
    /// large boxes. A slot already in the grid (a reach that grew) is listed again at the
    /// level of its new box; its old listings stay, and queries test the current box.
    pub fn insert(&mut self, slot: u32, aabb: &Aabb) {
        let level = self.level_for(aabb);
        if self.stamps.len() <= slot as usize {
            self.stamps.resize(slot as usize + 1, 0);
        }
        let item = Item::new(slot, level as u32, aabb);
        self.members[level].push(item);
        if level < self.levels.len() {
            self.occupied |= 1 << level;
        }
        if level < self.levels.len() {
            let mask = self.buckets.len() - 1;
            let lv = self.levels[level];
            let (x0, x1, y0, y1) = self.cell_range(level, aabb);
            for ix in x0..=x1 {
                for iy in y0..=y1 {
                    let b = cell_bucket(level, &lv, ix, iy, mask);
                    self.buckets[b].push(item);
                }
            }
        }
    }

    /// Takes back the listing of `slot` made by [`insert`](ReachGrid::insert) with box
    /// `aabb`, for a reach that moves rather than grows; its other listings stay. Only the
    /// cells are cleaned (and the large boxes): a level's member list keeps the stale copy,
    /// which queries only ever test against the slot's current box, and which the next
    /// build drops.
    pub fn remove(&mut self, slot: u32, aabb: &Aabb) {
        let level = self.level_for(aabb);
        let listed = |item: &Item| item.slot == slot && item.aabb() == *aabb;
        if level == self.levels.len() {
            let large = &mut self.members[level];
            if let Some(i) = large.iter().position(listed) {
                large.swap_remove(i);
            }
            return;
        }
        let mask = self.buckets.len() - 1;
        let lv = self.levels[level];
        let (x0, x1, y0, y1) = self.cell_range(level, aabb);
        for ix in x0..=x1 {
            for iy in y0..=y1 {
                let bucket = &mut self.buckets[cell_bucket(level, &lv, ix, iy, mask)];
                if let Some(i) = bucket.iter().position(listed) {
                    bucket.swap_remove(i);
                }
            }
        }
    }

    /// Calls `found(y, shift)` for every slot `y` other than `slot` whose box in `boxes`
    /// meets `aabb` at the image translated by `shift` (zero outside periodic domains):
    /// if `upward`, those of coarser levels and those of `slot`'s level with a larger slot
    /// (the start-of-step pair search, which reports each pair once), of every level
    /// otherwise. Each `(y, shift)` is reported once.
    pub fn query(
        &mut self,
        slot: u32,
        aabb: &Aabb,
        boxes: &[Option<Aabb>],
        upward: bool,
        found: impl FnMut(u32, Vector),
    ) {
        // Outside periodic domains a listed box needs one overlap test and gives one
        // image: the queries of the step's pair search, tens per box, test no periods.
        if self.period.is_some() {
            self.query_in::<true>(slot, aabb, boxes, upward, found);
        } else {
            self.query_in::<false>(slot, aabb, boxes, upward, found);
        }
    }

    /// [`query`](ReachGrid::query), for a periodic domain or not.
    #[inline]
    fn query_in<const PERIODIC: bool>(
        &mut self,
        slot: u32,
        aabb: &Aabb,
        boxes: &[Option<Aabb>],
        upward: bool,
        mut found: impl FnMut(u32, Vector),
    ) {
        let stamp = self.next_stamp();
        let own = self.level_for(aabb);
        let first = if upward {
            own.min(self.levels.len())
        } else {
            0
        };
        let mask = self.buckets.len() - 1;
        let period = self.period;
        let query = query_key(aabb);
        // `kept`: the item comes from a level's member list, which keeps the copies of
        // listings taken out of the cells (`remove`); the cells and the large boxes do not.
        let mut report = |item: &Item, stamps: &mut [u32], kept: bool| {
            let y = item.slot;
            let ys = y as usize;
            // Most listed boxes miss the query's: the box test, on the item's own copy,
            // comes before the tests that read elsewhere (the stamps).
            let listed = if PERIODIC {
                images(aabb, &item.aabb(), period)
            } else if item.meets(query) {
                (1, 1)
            } else {
                (0, 0)
            };
            if listed == (0, 0) {
                return;
            }
            // A bucket mixes cells, of any level: an upward query skips the finer boxes it
            // meets there (they find this one themselves), and the boxes of its own level
            // with a smaller slot (the pair is theirs to report). A box listed in several
            // of the cells visited is tested once.
            let level = item.level as usize;
            if y == slot
                || upward && (level < first || level == first && y < slot)
                || stamps[ys] == stamp
            {
                return;
            }
            stamps[ys] = stamp;
            if !PERIODIC {
                // There is no other image, and the slot's current box holds every box it
                // is listed with in a cell: the listed box meeting the query's, so does the
                // current one. Only a copy kept in a member list may be of a box the slot
                // left, and is tested as the slot is now.
                let current = || boxes.get(ys).copied().flatten();
                debug_assert!(current().is_some(), "a listed slot has a box");
                if !kept || current().is_some_and(|other| aabb.intersects(&other)) {
                    found(y, Vector::zeros());
                }
                return;
            }
            // The images from the slot's current box, which holds every box it was listed
            // with (usually it is that box).
            let Some(other) = boxes.get(ys).copied().flatten() else {
                return;
            };
            let (xs, ys) = if other == item.aabb() {
                listed
            } else {
                images(aabb, &other, period)
            };
            // Every combination of the translations that overlap on each axis on their
            // own (usually one each).
            let size = period.unwrap_or_else(Vector::zeros);
            for (bit, sx) in [(1, 0.0), (2, -size.x), (4, size.x)] {
                if xs & bit == 0 {
                    continue;
                }
                for (bit, sy) in [(1, 0.0), (2, -size.y), (4, size.y)] {
                    if ys & bit != 0 {
                        found(y, Vector::new(sx, sy));
                    }
                }
            }
        };
        let finest = (!PERIODIC && first < self.levels.len()).then(|| self.finest_cells(aabb));
        // A level without boxes has nothing in its cells. Most are empty when the boxes range
        // from a disc to a wall a kilometre long, which spans a dozen levels.
        let mut levels = self.occupied >> first << first;
        while levels != 0 {
            let level = levels.trailing_zeros() as usize;
            levels &= levels - 1;
            let lv = self.levels[level];
            let (x0, x1, y0, y1) = match finest {
                Some(cells) => coarsened(cells, level),
                None => self.cell_range(level, aabb),
            };
            let cells = (x1 - x0 + 1).saturating_mul(y1 - y0 + 1);
            let members = self.members[level].len() as i64;
            if members < cells && (cells > MAX_CELL_VISITS || members <= FEW_MEMBERS) {
                for item in &self.members[level] {
                    report(item, &mut self.stamps, true);
                }
                continue;
            }
            for ix in x0..=x1 {
                for iy in y0..=y1 {
                    let b = cell_bucket(level, &lv, ix, iy, mask);
                    for item in &self.buckets[b] {
                        report(item, &mut self.stamps, false);
                    }
                }
            }
        }
        for item in &self.members[self.levels.len()] {
            report(item, &mut self.stamps, false);
        }
    }

    /// A fresh stamp for a query, which marks the slots it has tested: a box listed in
    /// several of the cells visited is tested once.
    #[inline]
    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Wrapped round: old stamps could match again.
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// The level of a box: the lowest whose cells are as large as the box, or
    /// `levels.len()` (the large boxes).
    fn level_for(&self, aabb: &Aabb) -> usize {
        let e = aabb.maxs - aabb.mins;
        self.levels
            .iter()
            .position(|lv| e.x <= lv.cell.x && e.y <= lv.cell.y)
            .unwrap_or(self.levels.len())
    }

    /// The cells `aabb` covers at `level`, inclusive, clamped to one period (a wrapped range
    /// never repeats a cell) and to a range an `i64` holds.
    fn cell_range(&self, level: usize, aabb: &Aabb) -> Cells {
        let lv = &self.levels[level];
        if lv.wrap.is_none() {
            return coarsened(self.finest_cells(aabb), level);
        }
        // In a periodic domain a point and its image one period away must fall in the same
        // wrapped cell, which rounding in the division can break at a cell's edge: the
        // range is widened by a millionth of a cell, far beyond that rounding.
        let slack = 1e-6;
        let index =
            |v: Real, o: Real, c: Real, side: Real| floor_index((v - o) / c + side * slack, 1e15);
        let (mut x0, mut x1) = (
            index(aabb.mins.x, self.origin.x, lv.cell.x, -1.0),
            index(aabb.maxs.x, self.origin.x, lv.cell.x, 1.0),
        );
        let (mut y0, mut y1) = (
            index(aabb.mins.y, self.origin.y, lv.cell.y, -1.0),
            index(aabb.maxs.y, self.origin.y, lv.cell.y, 1.0),
        );
        if let Some((nx, ny)) = lv.wrap {
            if x1 - x0 >= nx {
                (x0, x1) = (0, nx - 1);
            }
            if y1 - y0 >= ny {
                (y0, y1) = (0, ny - 1);
            }
        }
        (x0, x1, y0, y1)
    }

    /// Outside periodic domains, the cells `aabb` covers at the finest level. Each level's
    /// cells are twice the size of the next finer one's, from the same origin, so a
    /// level's cells are these shifted right by the level ([`coarsened`]): one division
    /// per side for a query over every level, where each level cost four.
    fn finest_cells(&self, aabb: &Aabb) -> Cells {
        let (o, c) = (self.origin, self.levels[0].cell);
        let index = |v: Real, o: Real, c: Real| floor_index((v - o) / c, FINEST_LIMIT);
        (
            index(aabb.mins.x, o.x, c.x),
            index(aabb.maxs.x, o.x, c.x),
            index(aabb.mins.y, o.y, c.y),
            index(aabb.maxs.y, o.y, c.y),
        )
    }
}

/// Cell indices on each axis, inclusive: `(x0, x1, y0, y1)`.
type Cells = (i64, i64, i64, i64);

/// How far from the origin, in finest cells, a box's cells are told apart: beyond, they
/// are clamped (a box that far out shares its cells with every other box that far out).
/// Such indices, and the width of a range between two of them, fit an `i64`.
const FINEST_LIMIT: Real = 4.0e18;

/// `floor(q)` as an integer, `q` first clamped to `[-limit, limit]`. By hand: without
/// SSE4.1 the standard `floor` is a library call, and this runs for every box and query.
#[inline]
fn floor_index(q: Real, limit: Real) -> i64 {
    let q = q.clamp(-limit, limit);
    let i = q as i64;
    if (i as Real) > q { i - 1 } else { i }
}

/// The cells of `level` (outside periodic domains) from those of the finest level:
/// `floor(q / 2^k) = floor(floor(q) / 2^k)`, which an arithmetic shift computes (toward
/// minus infinity, negative indices included). Dividing by a power of two is exact in
/// floating point, so these are the cells the division at that level would give.
#[inline]
fn coarsened((x0, x1, y0, y1): Cells, level: usize) -> Cells {
    (x0 >> level, x1 >> level, y0 >> level, y1 >> level)
}

/// The images of `b` that `a` meets, per axis: bit 1 for `b` itself, 2 for `b` moved back
/// one period on that axis, 4 for `b` moved forward one (the latter two in a periodic
/// domain of `period` only). `a` meets an image when both axes have its bit; `(0, 0)` is
/// returned as soon as one axis has none.
#[inline]
fn images(a: &Aabb, b: &Aabb, period: Option<Vector>) -> (u8, u8) {
    let axis = |lo: Real, hi: Real, other_lo: Real, other_hi: Real, p: Option<Real>| {
        let mut bits = u8::from(lo <= other_hi && other_lo <= hi);
        if let Some(p) = p {
            bits |= u8::from(lo <= other_hi - p && other_lo - p <= hi) << 1;
            bits |= u8::from(lo <= other_hi + p && other_lo + p <= hi) << 2;
        }
        bits
    };
    let x = axis(a.mins.x, a.maxs.x, b.mins.x, b.maxs.x, period.map(|p| p.x));
    if x == 0 {
        return (0, 0);
    }
    let y = axis(a.mins.y, a.maxs.y, b.mins.y, b.maxs.y, period.map(|p| p.y));
    if y == 0 { (0, 0) } else { (x, y) }
}

/// The larger side of a box.
fn extent(aabb: &Aabb) -> Real {
    (aabb.maxs.x - aabb.mins.x).max(aabb.maxs.y - aabb.mins.y)
}

/// `i` wrapped into `[0, n)` when the level wraps.
#[inline]
fn wrap(i: i64, n: Option<i64>) -> i64 {
    n.map_or(i, |n| i.rem_euclid(n))
}

/// The bucket of cell `(ix, iy)` of level number `level` (described by `lv`), the cell
/// wrapped into the period first in a periodic domain.
#[inline]
fn cell_bucket(level: usize, lv: &Level, ix: i64, iy: i64, mask: usize) -> usize {
    bucket(
        level,
        wrap(ix, lv.wrap.map(|w| w.0)),
        wrap(iy, lv.wrap.map(|w| w.1)),
        mask,
    )
}

/// The bucket of cell `(ix, iy)` of `level`.
#[inline]
fn bucket(level: usize, ix: i64, iy: i64, mask: usize) -> usize {
    let mut h = (level as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h = (h ^ ix as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    h = (h.rotate_left(23) ^ iy as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    (h >> 17) as usize & mask
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency for a test).
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> Real {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) as Real / (1u64 << 53) as Real
        }
    }

    fn random_boxes(rng: &mut Lcg, n: usize, span: Real) -> Vec<Option<Aabb>> {
        (0..n)
            .map(|i| {
                if i % 17 == 5 {
                    return None;
                }
                let (x, y) = (rng.next() * span, rng.next() * span);
                // Mostly small boxes, some tall or wide, a few huge, a few points.
                let (w, h) = match i % 11 {
                    0 => (rng.next() * 0.3 * span, 0.1),
                    1 => (0.0, 0.0),
                    2 => (0.2, rng.next() * 0.4 * span),
                    _ => (rng.next() * 2.0, rng.next() * 2.0),
                };
                Some(Aabb::new(Point::new(x, y), Point::new(x + w, y + h)))
            })
            .collect()
    }

    fn brute(
        boxes: &[Option<Aabb>],
        x: usize,
        aabb: &Aabb,
        period: Option<Vector>,
    ) -> Vec<(u32, [i8; 2])> {
        let mut out = Vec::new();
        for (y, other) in boxes.iter().enumerate() {
            let Some(other) = other else { continue };
            if y == x {
                continue;
            }
            let shifts: &[(Real, Real)] = if period.is_some() {
                &[
                    (0.0, 0.0),
                    (-1.0, 0.0),
                    (1.0, 0.0),
                    (0.0, -1.0),
                    (0.0, 1.0),
                    (-1.0, -1.0),
                    (-1.0, 1.0),
                    (1.0, -1.0),
                    (1.0, 1.0),
                ]
            } else {
                &[(0.0, 0.0)]
            };
            for &(kx, ky) in shifts {
                let size = period.unwrap_or_else(Vector::zeros);
                let s = Vector::new(kx * size.x, ky * size.y);
                if aabb.intersects(&Aabb::new(other.mins + s, other.maxs + s)) {
                    out.push((y as u32, [kx as i8, ky as i8]));
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// What the all-level query of slot `x` with box `query` reports, sorted as [`brute`].
    fn query_all(
        grid: &mut ReachGrid,
        x: usize,
        query: &Aabb,
        boxes: &[Option<Aabb>],
        period: Option<Vector>,
    ) -> Vec<(u32, [i8; 2])> {
        let mut got = Vec::new();
        grid.query(x as u32, query, boxes, false, |y, s| {
            got.push(key(y, s, period))
        });
        got.sort_unstable();
        got
    }

    fn key(y: u32, s: Vector, period: Option<Vector>) -> (u32, [i8; 2]) {
        let size = period.unwrap_or(Vector::new(1.0, 1.0));
        (
            y,
            [(s.x / size.x).round() as i8, (s.y / size.y).round() as i8],
        )
    }

    /// The grid reports exactly what a brute-force test of every box reports, for the
    /// all-level queries of grown boxes and, combined over both sides, the upward queries
    /// of the start-of-step pair search; in unbounded and periodic domains, and with the
    /// cells' origin inside the boxes' span (negative cell indices, which coarser levels
    /// take by shifts).
    #[test]
    fn matches_brute_force() {
        for (seed, period, origin) in [
            (1, None, Point::origin()),
            (2, Some(Vector::new(40.0, 30.0)), Point::origin()),
            (3, None, Point::origin()),
            (4, Some(Vector::new(25.0, 25.0)), Point::origin()),
            (7, None, Point::new(27.3, 19.1)),
            (8, None, Point::new(-3.0, 41.7)),
        ] {
            let mut rng = Lcg(seed);
            let span = period.map_or(50.0, |p: Vector| p.x.min(p.y));
            let mut boxes = random_boxes(&mut rng, 300, span);
            let mut grid = ReachGrid::default();
            grid.build(&boxes, origin, period);
            // Pairs from upward queries, each side's, united.
            let mut pairs = Vec::new();
            let mut scratch = Vec::new();
            grid.pairs(&boxes, &mut scratch, |x, y, s| {
                let k = key(y, s, period);
                pairs.push((x, k));
                pairs.push((y, (x, [-k.1[0], -k.1[1]])));
            });
            pairs.sort_unstable();
            let before = pairs.len();
            pairs.dedup();
            assert_eq!(before, pairs.len(), "seed {seed}: each pair reported once");
            let mut expected = Vec::new();
            for x in 0..boxes.len() {
                let Some(aabb) = boxes[x] else { continue };
                expected.extend(
                    brute(&boxes, x, &aabb, period)
                        .into_iter()
                        .map(|k| (x as u32, k)),
                );
            }
            assert_eq!(pairs, expected, "seed {seed}: start pairs");
            // Boxes that grow, one after the other, each asked of every level.
            for x in (0..boxes.len()).step_by(7) {
                let Some(old) = boxes[x] else { continue };
                let grow = rng.next() * 6.0;
                let grown = old.inflated(grow);
                boxes[x] = Some(grown);
                grid.insert(x as u32, &grown);
                assert_eq!(
                    query_all(&mut grid, x, &grown, &boxes, period),
                    brute(&boxes, x, &grown, period),
                    "seed {seed}: grown {x}"
                );
            }
        }
    }

    /// Boxes that move (a skin reach: the old listing taken out, the new one listed) are
    /// found where they are and not where they were, by queries that visit cells and by
    /// queries large enough to test a level's member list, which keeps the old copies.
    #[test]
    fn matches_brute_force_after_boxes_move() {
        for (seed, period) in [(5, None), (6, Some(Vector::new(40.0, 30.0)))] {
            let mut rng = Lcg(seed);
            let span = period.map_or(50.0, |p: Vector| p.x.min(p.y));
            let mut boxes = random_boxes(&mut rng, 300, span);
            let mut grid = ReachGrid::default();
            grid.build(&boxes, Point::origin(), period);
            for x in (0..boxes.len()).step_by(3) {
                let Some(old) = boxes[x] else { continue };
                let shift = Vector::new(rng.next() - 0.5, rng.next() - 0.5) * (0.8 * span);
                let moved = Aabb::new(old.mins + shift, old.maxs + shift);
                grid.remove(x as u32, &old);
                grid.insert(x as u32, &moved);
                boxes[x] = Some(moved);
            }
            for x in (0..boxes.len()).step_by(5) {
                let Some(aabb) = boxes[x] else { continue };
                // As it is, and grown to cover many cells of the finest levels.
                for query in [aabb, aabb.inflated(0.3 * span)] {
                    assert_eq!(
                        query_all(&mut grid, x, &query, &boxes, period),
                        brute(&boxes, x, &query, period),
                        "seed {seed}: query {x}"
                    );
                }
            }
        }
    }
}
