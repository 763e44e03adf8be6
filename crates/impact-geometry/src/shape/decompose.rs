//! The decomposition of a simple polygon into convex pieces: a constrained Delaunay
//! triangulation (the `spade` crate), then Hertel and Mehlhorn's merge of triangles across
//! inessential diagonals.

use super::crossing::orientation;
use super::{ConvexPolygon, Seam};
use crate::{Point, Real, cross};
use spade::handles::FixedVertexHandle;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

/// A convex piece: its vertices as indices into the outline, counter-clockwise from the
/// smallest, and the polygon they make.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Piece {
    pub indices: Vec<usize>,
    pub polygon: ConvexPolygon,
}

/// The `n - 2` triangles of the simple, counter-clockwise outline `points` (edges at least
/// `gap` from every vertex but their own ends), each counter-clockwise from its smallest
/// index, sorted. `Err` names a vertex where a triangle is thinner than `gap`, which
/// validation leaves no room for.
///
/// spade builds the constrained Delaunay triangulation of the points with the outline's
/// edges as constraints, over the points' convex hull; a triangle is kept when it lies on
/// the inner side of the outline at its first vertex (exact orientation tests). Vertices are
/// inserted one at a time in outline order: spade's bulk loader visits a hash set, whose
/// order changes from run to run, and the triangulation of cocircular points depends on
/// the order of insertion. spade gets the points relative to the first and divided by the
/// outline's extent (coordinates within about one, none too small or too large for it); it
/// decides only which triangles there are, never a coordinate of a piece.
pub(crate) fn triangulate(points: &[Point], gap: Real) -> Result<Vec<[usize; 3]>, usize> {
    let n = points.len();
    let o = points[0];
    let extent = points.iter().map(|p| (p - o).amax()).fold(0.0, Real::max);
    let mut cdt = ConstrainedDelaunayTriangulation::<Point2<Real>>::new();
    for (i, p) in points.iter().enumerate() {
        let q = (p - o) / extent;
        let handle = cdt
            .insert(spade::mitigate_underflow(Point2::new(q.x, q.y)))
            .map_err(|_| i)?;
        if handle.index() != i {
            return Err(i);
        }
    }
    for i in 0..n {
        let (from, to) = (i, (i + 1) % n);
        let added = cdt.try_add_constraint(
            FixedVertexHandle::from_index(from),
            FixedVertexHandle::from_index(to),
        );
        if added.len() != 1 {
            return Err(i);
        }
    }
    let mut triangles = Vec::with_capacity(n - 2);
    for face in cdt.inner_faces() {
        let [a, b, c] = face.vertices().map(|v| v.fix().index());
        if inside_at(points, a, b) {
            let t = [a, b, c];
            let first = (0..3).min_by_key(|&k| t[k]).unwrap_or(0);
            triangles.push([t[first], t[(first + 1) % 3], t[(first + 2) % 3]]);
        }
    }
    if triangles.len() != n - 2 {
        return Err(0);
    }
    for t in &triangles {
        for k in 0..3 {
            let (p, c, q) = (points[t[k]], points[t[(k + 1) % 3]], points[t[(k + 2) % 3]]);
            if !corner(&p, &c, &q, gap) {
                return Err(t[(k + 1) % 3]);
            }
        }
    }
    triangles.sort_unstable();
    Ok(triangles)
}

/// Whether the triangle whose counter-clockwise edge leaves vertex `a` toward `b` lies
/// inside the counter-clockwise outline: whether that direction is within the outline's
/// inner angle at `a`, from the edge leaving `a` round to the edge arriving there. A
/// triangle never straddles an edge of the outline (they are constraints), so one corner
/// decides.
fn inside_at(points: &[Point], a: usize, b: usize) -> bool {
    let n = points.len();
    let (pa, pb) = (points[a], points[b]);
    let (next, prev) = (points[(a + 1) % n], points[(a + n - 1) % n]);
    let from_next = orientation(&pa, &next, &pb) >= 0.0;
    let before_prev = orientation(&pa, &pb, &prev) > 0.0;
    if orientation(&pa, &next, &prev) > 0.0 {
        from_next && before_prev
    } else {
        from_next || before_prev
    }
}

/// Whether `c`, between `p` and `q` counter-clockwise, is a corner that
/// [`ConvexPolygon::new`] keeps: a left turn (exactly) more than `gap` from the line through
/// its neighbours, which are more than `gap` from it. `gap` is twice the largest weld
/// distance any piece can have, room for the rounding of `new`'s own test.
fn corner(p: &Point, c: &Point, q: &Point, gap: Real) -> bool {
    let chord = q - p;
    let off_line = cross(&chord, &(c - p)).abs() / chord.norm();
    orientation(p, c, q) > 0.0 && off_line > gap && (c - p).norm() > gap && (q - c).norm() > gap
}

/// Hertel and Mehlhorn's merge: starting from the triangles, each diagonal (an edge two
/// triangles share, in sorted order) is removed when the pieces on its two sides make one
/// convex piece of at most `cap` vertices, a corner at both its ends (see [`corner`]). A
/// diagonal kept once stays needed: the pieces beside it only grow, and their angles at its
/// ends with them. The pieces come out counter-clockwise from their smallest index, sorted
/// by it. `Err` names a vertex of a piece [`ConvexPolygon::new`] would not keep as it is,
/// which the corner test leaves no room for.
pub(crate) fn merge(
    points: &[Point],
    triangles: &[[usize; 3]],
    cap: usize,
    gap: Real,
) -> Result<Vec<Piece>, usize> {
    let n = points.len();
    // Each diagonal, once per side: (low end, high end, triangle).
    let mut sides: Vec<(usize, usize, usize)> = Vec::with_capacity(2 * n);
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (u, v) = (tri[k], tri[(k + 1) % 3]);
            let outline_edge = (u + 1) % n == v || (v + 1) % n == u;
            if !outline_edge {
                sides.push((u.min(v), u.max(v), t));
            }
        }
    }
    sides.sort_unstable();
    let mut pieces: Vec<Option<Vec<usize>>> = triangles.iter().map(|t| Some(t.to_vec())).collect();
    let mut owner: Vec<usize> = (0..triangles.len()).collect();
    let find = |owner: &mut Vec<usize>, mut t: usize| {
        while owner[t] != t {
            owner[t] = owner[owner[t]];
            t = owner[t];
        }
        t
    };
    // A diagonal is the edge of exactly two triangles: consecutive after the sort.
    let diagonals = sides
        .windows(2)
        .filter(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1))
        .map(|w| (w[0].0, w[0].1, w[0].2, w[1].2));
    for (u, v, t1, t2) in diagonals {
        let (p, q) = (find(&mut owner, t1), find(&mut owner, t2));
        let (Some(a), Some(b)) = (&pieces[p], &pieces[q]) else {
            continue;
        };
        if let Some(merged) = merged_piece(points, a, b, (u, v), cap, gap) {
            pieces[p] = Some(merged);
            pieces[q] = None;
            owner[q] = p;
        }
    }
    let mut out: Vec<Piece> = Vec::new();
    for indices in pieces.into_iter().flatten() {
        let first = (0..indices.len()).min_by_key(|&k| indices[k]).unwrap_or(0);
        let mut indices = indices;
        indices.rotate_left(first);
        let corners: Vec<Point> = indices.iter().map(|&i| points[i]).collect();
        let polygon = ConvexPolygon::new(&corners).map_err(|_| indices[0])?;
        if polygon.vertices().len() != indices.len() {
            return Err(indices[0]);
        }
        let polygon = polygon
            .with_seams(&seams_of(points, &indices))
            .map_err(|_| indices[0])?;
        out.push(Piece { indices, polygon });
    }
    out.sort_by_key(|p| p.indices[0]);
    Ok(out)
}

/// The seams of the piece with vertices `indices` (counter-clockwise) of the outline
/// `points`: each edge between vertices that are not consecutive on the outline is a
/// diagonal, shared with another piece, with the outline's vertex after its start and the
/// one before its end.
fn seams_of(points: &[Point], indices: &[usize]) -> Vec<Seam> {
    let (n, m) = (points.len(), indices.len());
    (0..m)
        .filter_map(|edge| {
            let (start, end) = (indices[edge], indices[(edge + 1) % m]);
            ((start + 1) % n != end).then(|| Seam {
                edge,
                after_start: points[(start + 1) % n],
                before_end: points[(end + n - 1) % n],
            })
        })
        .collect()
}

/// Pieces `a` and `b` (counter-clockwise index cycles) that share the diagonal `{u, v}`,
/// joined into one if it is convex with corners at `u` and `v` and has at most `cap`
/// vertices.
fn merged_piece(
    points: &[Point],
    a: &[usize],
    b: &[usize],
    (u, v): (usize, usize),
    cap: usize,
    gap: Real,
) -> Option<Vec<usize>> {
    if a.len() + b.len() - 2 > cap {
        return None;
    }
    // `a` runs x -> y along the diagonal, `b` the other way; a from y round to x, then b
    // from x round to y without its ends, is the joined cycle.
    let k = (0..a.len()).find(|&k| {
        let (s, e) = (a[k], a[(k + 1) % a.len()]);
        (s == u && e == v) || (s == v && e == u)
    })?;
    let (x, y) = (a[k], a[(k + 1) % a.len()]);
    let m = (0..b.len()).find(|&m| b[m] == y && b[(m + 1) % b.len()] == x)?;
    let mut joined = Vec::with_capacity(a.len() + b.len() - 2);
    joined.extend((1..=a.len()).map(|s| a[(k + s) % a.len()]));
    joined.extend((2..b.len()).map(|s| b[(m + s) % b.len()]));
    let len = joined.len();
    // x sits at a.len() - 1, y at 0; their neighbours changed, every other vertex's did not.
    let at = |i: usize| {
        let (p, c, q) = (
            joined[(i + len - 1) % len],
            joined[i],
            joined[(i + 1) % len],
        );
        corner(&points[p], &points[c], &points[q], gap)
    };
    (at(a.len() - 1) && at(0)).then_some(joined)
}
