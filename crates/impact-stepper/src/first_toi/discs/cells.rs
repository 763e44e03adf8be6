//! The disc path's cell list: the periodic domain cut into a grid of cells at least as wide
//! as the largest pair of discs can be apart and still meet, each cell a doubly linked list
//! of its discs.
//!
//! Two discs can only meet while they sit in the same or adjacent cells, so a disc plans
//! against the 3 x 3 block around its cell and plans again each time it crosses into the
//! next cell (a *crossing*, an event like a collision). The lists are threaded through
//! arrays indexed by disc, so moving a disc between cells allocates nothing.

use impact_geometry::{Point, Real, Vector};

/// No disc: the end of a list.
pub(super) const NONE: u32 = u32::MAX;

/// The grid and its lists.
#[derive(Debug, Clone, Default)]
pub(super) struct Cells {
    /// Cells along x and y (3 or more each, so the 3 x 3 block around a cell holds nine
    /// different cells and a pair meets through one image only).
    pub(super) nx: u32,
    pub(super) ny: u32,
    /// The domain's lower corner and size.
    pub(super) min: Point,
    pub(super) size: Vector,
    /// A cell's width along x and y.
    pub(super) width: Vector,
    /// Per cell: its first disc.
    head: Vec<u32>,
    /// Per disc: the next and previous disc of its cell.
    next: Vec<u32>,
    prev: Vec<u32>,
}

impl Cells {
    /// The cell counts of a periodic domain of `size` with cells at least `reach` wide, or
    /// `None` if fewer than three fit along an axis (or the sizes are not finite).
    pub(super) fn fit(size: Vector, reach: Real) -> Option<(u32, u32)> {
        let count = |side: Real| {
            let n = (side / reach).floor();
            // A million cells a side is far beyond any gas that fits in memory.
            (n.is_finite() && n >= 3.0).then(|| n.min(1e6) as u32)
        };
        Some((count(size.x)?, count(size.y)?))
    }

    /// Empty lists over a grid of `nx` by `ny` cells for `discs` discs. Keeps the storage.
    pub(super) fn reset(&mut self, min: Point, size: Vector, (nx, ny): (u32, u32), discs: usize) {
        self.nx = nx;
        self.ny = ny;
        self.min = min;
        self.size = size;
        self.width = Vector::new(size.x / Real::from(nx), size.y / Real::from(ny));
        self.head.clear();
        self.head.resize(nx as usize * ny as usize, NONE);
        self.next.clear();
        self.next.resize(discs, NONE);
        self.prev.clear();
        self.prev.resize(discs, NONE);
    }

    /// The number of cells.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.head.len()
    }

    /// The cell holding the point `p` of the domain (clamped to the grid, for points a
    /// rounding outside it).
    #[inline]
    pub(super) fn cell_of(&self, p: &Point) -> u32 {
        let index = |x: Real, lo: Real, w: Real, n: u32| {
            let i = ((x - lo) / w).floor();
            if i >= 0.0 { (i as u32).min(n - 1) } else { 0 }
        };
        let cx = index(p.x, self.min.x, self.width.x, self.nx);
        let cy = index(p.y, self.min.y, self.width.y, self.ny);
        cy * self.nx + cx
    }

    /// The lower and upper bounds of `cell` along x and y.
    #[inline]
    pub(super) fn bounds(&self, cell: u32) -> (Point, Point) {
        let (cx, cy) = (cell % self.nx, cell / self.nx);
        let lo = Point::new(
            self.min.x + Real::from(cx) * self.width.x,
            self.min.y + Real::from(cy) * self.width.y,
        );
        let hi = Point::new(
            self.min.x + Real::from(cx + 1) * self.width.x,
            self.min.y + Real::from(cy + 1) * self.width.y,
        );
        (lo, hi)
    }

    /// The cell next to `cell` across `side` (0: +x, 1: -x, 2: +y, 3: -y), and the
    /// translation a disc takes into it: a period where the grid wraps, else zero.
    #[inline]
    pub(super) fn across(&self, cell: u32, side: u8) -> (u32, Vector) {
        let (cx, cy) = (cell % self.nx, cell / self.nx);
        let (cx, cy, shift) = match side {
            0 if cx + 1 == self.nx => (0, cy, Vector::new(-self.size.x, 0.0)),
            0 => (cx + 1, cy, Vector::zeros()),
            1 if cx == 0 => (self.nx - 1, cy, Vector::new(self.size.x, 0.0)),
            1 => (cx - 1, cy, Vector::zeros()),
            2 if cy + 1 == self.ny => (cx, 0, Vector::new(0.0, -self.size.y)),
            2 => (cx, cy + 1, Vector::zeros()),
            _ if cy == 0 => (cx, self.ny - 1, Vector::new(0.0, self.size.y)),
            _ => (cx, cy - 1, Vector::zeros()),
        };
        (cy * self.nx + cx, shift)
    }

    /// The nine cells of the 3 x 3 block around `cell`, each with the translation of the
    /// images of its discs that `cell`'s discs meet (a period where the block wraps).
    #[inline]
    pub(super) fn block(&self, cell: u32) -> [(u32, Vector); 9] {
        self.around(
            cell,
            [
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (0, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ],
        )
    }

    /// The three cells that enter the 3 x 3 block of `cell` when a disc crosses into it
    /// across `side` (see [`Cells::across`]): the far column or row of its block, with
    /// their translations as in [`Cells::block`]. The other six were in the block of the
    /// cell it came from.
    #[inline]
    pub(super) fn strip(&self, cell: u32, side: u8) -> [(u32, Vector); 3] {
        let offsets = match side {
            0 => [(1, -1), (1, 0), (1, 1)],
            1 => [(-1, -1), (-1, 0), (-1, 1)],
            2 => [(-1, 1), (0, 1), (1, 1)],
            _ => [(-1, -1), (0, -1), (1, -1)],
        };
        self.around(cell, offsets)
    }

    /// The cells at `offsets` (cells along x and y) from `cell`, with their translations.
    #[inline]
    fn around<const K: usize>(&self, cell: u32, offsets: [(i32, i32); K]) -> [(u32, Vector); K] {
        let (cx, cy) = (cell % self.nx, cell / self.nx);
        let mut out = [(0, Vector::zeros()); K];
        if cx > 0 && cx + 1 < self.nx && cy > 0 && cy + 1 < self.ny {
            // Inside the grid: no wrap, no translation.
            let row = self.nx as i32;
            for (o, (dx, dy)) in out.iter_mut().zip(offsets) {
                o.0 = cell.wrapping_add_signed(dy * row + dx);
            }
            return out;
        }
        let wrap = |c: u32, d: i32, n: u32, period: Real| -> (u32, Real) {
            match (c, d) {
                (0, -1) => (n - 1, -period),
                (c, 1) if c + 1 == n => (0, period),
                (c, d) => (c.wrapping_add_signed(d), 0.0),
            }
        };
        for (o, (dx, dy)) in out.iter_mut().zip(offsets) {
            let (x, sx) = wrap(cx, dx, self.nx, self.size.x);
            let (y, sy) = wrap(cy, dy, self.ny, self.size.y);
            *o = (y * self.nx + x, Vector::new(sx, sy));
        }
        out
    }

    /// The first disc of `cell`.
    #[inline]
    pub(super) fn first(&self, cell: u32) -> u32 {
        self.head[cell as usize]
    }

    /// The disc after `disc` in its cell.
    #[inline]
    pub(super) fn next(&self, disc: u32) -> u32 {
        self.next[disc as usize]
    }

    /// Puts `disc` at the head of `cell`'s list.
    #[inline]
    pub(super) fn insert(&mut self, disc: u32, cell: u32) {
        let head = self.head[cell as usize];
        self.next[disc as usize] = head;
        self.prev[disc as usize] = NONE;
        if head != NONE {
            self.prev[head as usize] = disc;
        }
        self.head[cell as usize] = disc;
    }

    /// Takes `disc` out of `cell`'s list.
    #[inline]
    pub(super) fn remove(&mut self, disc: u32, cell: u32) {
        let (next, prev) = (self.next[disc as usize], self.prev[disc as usize]);
        if prev == NONE {
            self.head[cell as usize] = next;
        } else {
            self.next[prev as usize] = next;
        }
        if next != NONE {
            self.prev[next as usize] = prev;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid() -> Cells {
        let mut cells = Cells::default();
        let size = Vector::new(10.0, 7.0);
        let fit = Cells::fit(size, 2.0).unwrap();
        assert_eq!(fit, (5, 3));
        cells.reset(Point::new(-5.0, 0.0), size, fit, 4);
        cells
    }

    /// Crossing a side of the grid comes back in on the other side, one period over.
    #[test]
    fn crossings_wrap_at_the_sides_with_a_period() {
        let cells = grid();
        let corner = cells.cell_of(&Point::new(4.9, 6.9));
        assert_eq!(corner, 2 * 5 + 4);
        assert_eq!(cells.across(corner, 0), (2 * 5, Vector::new(-10.0, 0.0)));
        assert_eq!(cells.across(corner, 2), (4, Vector::new(0.0, -7.0)));
        assert_eq!(cells.across(0, 1), (4, Vector::new(10.0, 0.0)));
        assert_eq!(cells.across(0, 3), (2 * 5, Vector::new(0.0, 7.0)));
        assert_eq!(cells.across(6, 0), (7, Vector::zeros()));
        // A block at the corner holds nine different cells, the wrapped ones shifted.
        let block = cells.block(0);
        let mut ids: Vec<u32> = block.iter().map(|b| b.0).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 9);
        assert!(block.contains(&(2 * 5 + 4, Vector::new(-10.0, -7.0))));
        assert!(block.contains(&(1, Vector::zeros())));
    }

    /// The strip a crossing brings into the block is exactly the block's cells that the
    /// block of the cell it came from lacks, with the same translations, at the sides too.
    #[test]
    fn a_crossing_brings_in_the_far_strip() {
        let mut cells = Cells::default();
        let size = Vector::new(10.0, 8.0);
        cells.reset(
            Point::new(-5.0, 0.0),
            size,
            Cells::fit(size, 2.0).unwrap(),
            0,
        );
        assert_eq!((cells.nx, cells.ny), (5, 4));
        for cell in 0..cells.len() as u32 {
            for side in 0..4 {
                let (from, _) = cells.across(cell, side ^ 1);
                let old = cells.block(from);
                let new = cells.block(cell);
                let mut fresh: Vec<u32> = new
                    .iter()
                    .filter(|c| !old.iter().any(|o| o.0 == c.0))
                    .map(|c| c.0)
                    .collect();
                let mut strip: Vec<u32> = cells.strip(cell, side).iter().map(|c| c.0).collect();
                for c in cells.strip(cell, side) {
                    assert!(new.contains(&c), "cell {cell} side {side}: {c:?}");
                }
                fresh.sort_unstable();
                strip.sort_unstable();
                assert_eq!(fresh, strip, "cell {cell} side {side}");
            }
        }
    }

    /// Too small a domain for three cells a side is refused.
    #[test]
    fn fewer_than_three_cells_a_side_do_not_fit() {
        assert!(Cells::fit(Vector::new(5.9, 10.0), 2.0).is_none());
        assert!(Cells::fit(Vector::new(6.0, Real::NAN), 2.0).is_none());
    }

    #[test]
    fn lists_insert_and_remove_anywhere() {
        let mut cells = grid();
        for d in 0..4 {
            cells.insert(d, 3);
        }
        cells.remove(2, 3);
        cells.remove(3, 3);
        cells.remove(0, 3);
        cells.insert(0, 5);
        let mut left = Vec::new();
        let mut d = cells.first(3);
        while d != NONE {
            left.push(d);
            d = cells.next(d);
        }
        assert_eq!(left, [1]);
        assert_eq!(cells.first(5), 0);
        assert_eq!(cells.next(0), NONE);
    }
}
