//! Whether a closed outline is simple: no two of its edges cross, touch or come within a
//! distance of each other, found by a sort and sweep over the edges' boxes with exact
//! orientation tests.

use crate::{GeometryError, Point, Real};
use robust::{Coord, orient2d};

/// Why an outline is not simple, in indices of the points checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotSimple {
    /// Vertices `a` and `b` are within the distance.
    Repeated { a: usize, b: usize },
    /// The edges from vertices `a` and `b` meet or are within the distance.
    Meets { a: usize, b: usize },
}

impl NotSimple {
    /// The error, naming the vertices by their input indices (`original[i]` for point `i`):
    /// the later of two repeated vertices, the earlier of two edges.
    pub(crate) fn renamed(self, original: &[usize]) -> GeometryError {
        match self {
            Self::Repeated { a, b } => {
                let (a, b) = (original[a], original[b]);
                GeometryError::RepeatedVertex {
                    field: format!("outline[{}]", a.max(b)),
                    first: a.min(b),
                }
            }
            Self::Meets { a, b } => {
                let (a, b) = (original[a], original[b]);
                GeometryError::SelfIntersecting {
                    field: format!("outline[{}]", a.min(b)),
                    other: format!("outline[{}]", a.max(b)),
                }
            }
        }
    }
}

/// Checks that the closed outline `points` (edge `i` from `points[i]` to `points[i + 1]`)
/// is simple with room `gap`: no two vertices within `gap`, no two edges that cross or
/// touch (exact orientation tests), no vertex within `gap` of an edge other than its own
/// two. Edges are swept in order of their smallest x, each against those still open there
/// (boxes grown by `gap`), so the first pair found, and the error, depend only on the input.
pub(crate) fn check_simple(points: &[Point], gap: Real) -> Result<(), NotSimple> {
    let n = points.len();
    let edge = |i: usize| (points[i], points[(i + 1) % n]);
    let span = |i: usize| {
        let (p, q) = edge(i);
        (p.x.min(q.x) - gap, p.x.max(q.x) + gap)
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| span(i).0.total_cmp(&span(j).0).then(i.cmp(&j)));
    let mut open: Vec<usize> = Vec::new();
    for &i in &order {
        let start = span(i).0;
        open.retain(|&j| span(j).1 >= start);
        for &j in &open {
            check_pair(points, i.min(j), i.max(j), gap)?;
        }
        open.push(i);
    }
    Ok(())
}

/// The test of edges `i < j` of the closed outline.
fn check_pair(points: &[Point], i: usize, j: usize, gap: Real) -> Result<(), NotSimple> {
    let n = points.len();
    let (a, b) = (points[i], points[(i + 1) % n]);
    let (c, d) = (points[j], points[(j + 1) % n]);
    let boxes_apart = a.y.max(b.y) + gap < c.y.min(d.y) || c.y.max(d.y) + gap < a.y.min(b.y);
    if boxes_apart {
        return Ok(());
    }
    let meets = Err(NotSimple::Meets { a: i, b: j });
    if j == i + 1 || (i == 0 && j == n - 1) {
        // Neighbours share a vertex: each one's far end must keep clear of the other edge.
        let (far_i, far_j) = if j == i + 1 { (a, d) } else { (b, c) };
        if distance_to_segment(&far_j, (a, b)) <= gap || distance_to_segment(&far_i, (c, d)) <= gap
        {
            return meets;
        }
        return Ok(());
    }
    for (p, ip) in [(a, i), (b, (i + 1) % n)] {
        for (q, iq) in [(c, j), (d, (j + 1) % n)] {
            if (p - q).norm() <= gap {
                return Err(NotSimple::Repeated { a: ip, b: iq });
            }
        }
    }
    if segments_meet(&a, &b, &c, &d)
        || distance_to_segment(&a, (c, d)) <= gap
        || distance_to_segment(&b, (c, d)) <= gap
        || distance_to_segment(&c, (a, b)) <= gap
        || distance_to_segment(&d, (a, b)) <= gap
    {
        return meets;
    }
    Ok(())
}

/// The sign of the exact orientation of `p`, `q`, `r`: positive counter-clockwise.
pub(crate) fn orientation(p: &Point, q: &Point, r: &Point) -> Real {
    let c = |p: &Point| Coord { x: p.x, y: p.y };
    let o = orient2d(c(p), c(q), c(r));
    if o > 0.0 {
        1.0
    } else if o < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// Whether segments `ab` and `cd` share a point, by exact orientation tests; segments on
/// one line are left to the distance tests (they meet only where an end is on the other).
fn segments_meet(a: &Point, b: &Point, c: &Point, d: &Point) -> bool {
    let (o1, o2) = (orientation(a, b, c), orientation(a, b, d));
    let (o3, o4) = (orientation(c, d, a), orientation(c, d, b));
    if o1 == 0.0 && o2 == 0.0 {
        return false;
    }
    o1 * o2 <= 0.0 && o3 * o4 <= 0.0
}

/// The distance from `p` to the segment `(s, e)`.
fn distance_to_segment(p: &Point, (s, e): (Point, Point)) -> Real {
    let v = e - s;
    let len2 = v.norm_squared();
    let t = if len2 > 0.0 {
        ((p - s).dot(&v) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (s + v * t - p).norm()
}
