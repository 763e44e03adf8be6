//! The checks of a chain's points: enough of them, finite, no point repeating the one before
//! it, and no two segments meeting except neighbours at their shared vertex.

use crate::tolerances::POINT_SEGMENT_RELATIVE;
use crate::validate::finite_point;
use crate::{GeometryError, Point, Real, Vector, cross};

/// Whether `q` is `p` to rounding: the segment between them would be shorter than
/// [`POINT_SEGMENT_RELATIVE`] of their coordinates, the length below which the narrowphase
/// treats a segment as a point (its direction is rounding noise).
pub(crate) fn repeats(p: &Point, q: &Point) -> bool {
    let scale = p.coords.amax().max(q.coords.amax());
    (q - p).amax() <= POINT_SEGMENT_RELATIVE * scale
}

/// Checks the points of a chain, open or `closed`, naming `field[i]` in errors (see
/// [`Chain::new`](super::Chain::new) for the rules).
pub(crate) fn validate_chain(
    field: &str,
    points: &[Point],
    closed: bool,
) -> Result<(), GeometryError> {
    let min = if closed { 3 } else { 2 };
    if points.len() < min {
        return Err(GeometryError::TooFewPoints {
            field: field.to_owned(),
            count: points.len(),
            min,
        });
    }
    for (i, p) in points.iter().enumerate() {
        finite_point(&format!("{field}[{i}]"), p)?;
    }
    let n = points.len();
    let repeated = |i: usize, same_as: usize| GeometryError::RepeatedPoint {
        field: format!("{field}[{i}]"),
        same_as: format!("{field}[{same_as}]"),
    };
    for i in 1..n {
        if repeats(&points[i - 1], &points[i]) {
            return Err(repeated(i, i - 1));
        }
    }
    if closed && repeats(&points[n - 1], &points[0]) {
        return Err(repeated(n - 1, 0));
    }
    if let Some((later, earlier)) = first_crossing(points, closed) {
        return Err(GeometryError::SelfIntersecting {
            field: format!("{field}[{later}]"),
            other: format!("{field}[{earlier}]"),
        });
    }
    Ok(())
}

/// The first pair of segments (by the later one's index, then the earlier one's) that meet
/// where they should not, as `(later, earlier)` segment indices, segment `i` running from
/// point `i` to the next.
///
/// A sweep along x: the segments sorted by their leftmost x, each tested against those still
/// open (whose rightmost x reaches it), so a terrain of thousands of points costs about as
/// many tests as segments. Every meeting found is collected and the least reported, so the
/// answer does not depend on the sweep's order.
fn first_crossing(points: &[Point], closed: bool) -> Option<(usize, usize)> {
    let n = points.len();
    let count = if closed { n } else { n - 1 };
    let ends = |i: usize| (points[i], points[(i + 1) % n]);
    let mut order: Vec<usize> = (0..count).collect();
    let left = |i: usize| {
        let (p, q) = ends(i);
        p.x.min(q.x)
    };
    let right = |i: usize| {
        let (p, q) = ends(i);
        p.x.max(q.x)
    };
    order.sort_by(|&i, &j| left(i).total_cmp(&left(j)).then(i.cmp(&j)));
    let mut open: Vec<usize> = Vec::new();
    let mut first: Option<(usize, usize)> = None;
    for &i in &order {
        let x = left(i);
        open.retain(|&j| right(j) >= x);
        for &j in &open {
            let (later, earlier) = (i.max(j), i.min(j));
            if meet_wrongly(points, closed, later, earlier)
                && first.is_none_or(|f| (later, earlier) < f)
            {
                first = Some((later, earlier));
            }
        }
        open.push(i);
    }
    first
}

/// Whether segments `later > earlier` meet where a chain's segments must not: anywhere, for
/// segments that are not neighbours; for neighbours (sharing one vertex), when they fold
/// back along each other.
fn meet_wrongly(points: &[Point], closed: bool, later: usize, earlier: usize) -> bool {
    let n = points.len();
    let count = if closed { n } else { n - 1 };
    let ends = |i: usize| (points[i], points[(i + 1) % n]);
    let (p, q) = ends(earlier);
    let (r, s) = ends(later);
    if later == earlier + 1 {
        // `q` is `r`: they share it, and meet elsewhere only by folding back.
        return folds_back(&(q - p), &(s - r));
    }
    if closed && earlier == 0 && later == count - 1 {
        // The closing segment ends where the first starts (`s` is `p`).
        return folds_back(&(s - r), &(q - p));
    }
    segments_meet(&p, &q, &r, &s)
}

/// Whether a segment along `d1` starting where one along `d0` ends runs back over it.
fn folds_back(d0: &Vector, d1: &Vector) -> bool {
    cross(d0, d1) == 0.0 && d0.dot(d1) < 0.0
}

/// Whether the closed segments `p q` and `r s` have a point in common, by the signs of the
/// orientations of each segment's ends about the other (touching counts).
fn segments_meet(p: &Point, q: &Point, r: &Point, s: &Point) -> bool {
    let side = |a: &Point, b: &Point, c: &Point| sign(cross(&(b - a), &(c - a)));
    let (o1, o2) = (side(p, q, r), side(p, q, s));
    let (o3, o4) = (side(r, s, p), side(r, s, q));
    if o1 * o2 < 0 && o3 * o4 < 0 {
        return true;
    }
    (o1 == 0 && within_box(p, q, r))
        || (o2 == 0 && within_box(p, q, s))
        || (o3 == 0 && within_box(r, s, p))
        || (o4 == 0 && within_box(r, s, q))
}

/// Whether `c`, on the line through `a` and `b`, lies between them.
fn within_box(a: &Point, b: &Point, c: &Point) -> bool {
    c.x >= a.x.min(b.x) && c.x <= a.x.max(b.x) && c.y >= a.y.min(b.y) && c.y <= a.y.max(b.y)
}

/// The sign of `x`: `-1`, `0` or `1` (`Real::signum` gives `1` for `+0`).
fn sign(x: Real) -> i8 {
    i8::from(x > 0.0) - i8::from(x < 0.0)
}
