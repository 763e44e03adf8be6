//! [`ConcaveOutline`]: a simple polygon, validated and wound counter-clockwise, with its
//! decomposition into convex pieces.

use super::ConvexPolygon;
use super::crossing::check_simple;
use super::decompose::{self, Piece};
use crate::mass::polygon as polygon_mass;
use crate::tolerances::POLYGON_WELD_RELATIVE;
use crate::validate::{finite_point, non_negative};
use crate::{GeometryError, MassProperties, Point, Real, cross};

/// A simple polygon (an outline that does not cross or touch itself), possibly concave, and
/// the convex pieces it splits into, for bodies whose shape is not convex.
///
/// Construction validates the outline, winds it counter-clockwise (either winding is
/// accepted), triangulates it (a constrained Delaunay triangulation by the `spade` crate:
/// Chew, "Constrained Delaunay triangulations", Algorithmica 4, 1989, with Shewchuk's
/// robust predicates) and merges the triangles into convex pieces by Hertel and Mehlhorn's
/// method (Hertel & Mehlhorn, "Fast triangulation of simple polygons", FCT 1983, LNCS 158):
/// a diagonal is removed wherever the two pieces it separates make one convex piece. At most
/// two diagonals remain at each reflex vertex, so there are at most `2 r + 1` pieces for `r`
/// reflex vertices, at most four times the fewest possible (which is at least `r / 2 + 1`),
/// and never more than the `n - 2` triangles. (A merge that would leave an angle straight to
/// within the weld distance is refused as well, since [`ConvexPolygon::new`] would drop that
/// vertex; only an outline with such an angle at a reflex vertex can keep a diagonal more.)
///
/// Holes are not accepted: an outline is one closed loop of vertices. A shape with a hole
/// can be given as an outline cut open along a slit of positive width, or as several
/// outlines.
///
/// Every piece is a [`ConvexPolygon`] whose vertices are vertices of the outline, with their
/// coordinates bit for bit; none is dropped by [`ConvexPolygon::new`] as collinear or
/// welded, so neighbouring pieces meet along whole edges. The pieces cover the outline
/// exactly and do not overlap, and the result depends only on the input: the same outline
/// gives the same pieces, in the same order, on every run.
#[derive(Debug, Clone, PartialEq)]
pub struct ConcaveOutline {
    vertices: Vec<Point>,
    triangles: Vec<[usize; 3]>,
    pieces: Vec<Piece>,
    gap: Real,
}

impl ConcaveOutline {
    /// Validates `outline` (the vertices of a simple polygon, in either winding, the last
    /// joined to the first) and splits it into convex pieces.
    ///
    /// The weld distance is twice [`POLYGON_WELD_RELATIVE`] times the outline's extent (the
    /// larger side of its bounding box): [`ConvexPolygon::new`] welds within that fraction
    /// of a polygon's size, so no piece loses a vertex to it. A vertex nearer than that to
    /// the line through its two neighbours, lying between them, is dropped (which changes
    /// the area by at most that distance times the neighbours' distance), as
    /// [`ConvexPolygon::new`] drops it; every other vertex is kept.
    ///
    /// Time: the simplicity test sorts the edges by their x ranges and tests the pairs whose
    /// ranges (grown by the weld distance) overlap, `O(n log n)` for an outline of short
    /// edges but up to `O(n^2)` where many long edges share an x range (a star of 20,000
    /// spikes of random length: about 1 s, against 0.1 s for the triangulation); spade
    /// inserts the vertices one by one in outline order, each near the last; each merge
    /// copies the two pieces it joins, so outlines whose pieces have thousands of vertices
    /// take time quadratic in them.
    ///
    /// # Errors
    /// - [`GeometryError::TooFewVertices`] naming `outline` if it has fewer than 3 vertices;
    /// - [`GeometryError::NotFinite`] naming `outline[i].x` or `.y`;
    /// - [`GeometryError::OutOfRange`] naming `outline` if its coordinates differ by more
    ///   than an `f64` holds;
    /// - [`GeometryError::RepeatedVertex`] naming `outline[i]` if it is nearer than the weld
    ///   distance to another vertex (consecutive, or where the outline comes back to it);
    /// - [`GeometryError::SelfIntersecting`] naming `outline[i]` if the edge from it crosses,
    ///   touches or comes nearer than the weld distance to another edge, or turns straight
    ///   back along the edge before it;
    /// - [`GeometryError::ZeroArea`] naming `outline` if every vertex lies on one line, or
    ///   naming a vertex where a triangle of the outline would be thinner than the weld
    ///   distance.
    pub fn new(outline: &[Point]) -> Result<Self, GeometryError> {
        let (vertices, original, gap) = validate(outline)?;
        let triangles =
            decompose::triangulate(&vertices, gap).map_err(|at| zero_area_at(original[at]))?;
        let pieces = decompose::merge(&vertices, &triangles, usize::MAX, gap)
            .map_err(|at| zero_area_at(original[at]))?;
        Ok(Self {
            vertices,
            triangles,
            pieces,
            gap,
        })
    }

    /// The outline as kept: counter-clockwise, without the vertices dropped as collinear,
    /// starting at the first kept input vertex (or, for an outline given clockwise, at the
    /// last).
    #[inline]
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// The triangulation the pieces were merged from: `n - 2` triangles, each three indices
    /// into [`vertices`](Self::vertices), counter-clockwise, smallest index first, sorted.
    #[inline]
    pub fn triangles(&self) -> &[[usize; 3]] {
        &self.triangles
    }

    /// The convex pieces, each starting at its vertex of smallest index in
    /// [`vertices`](Self::vertices), sorted by that index. Each piece knows its *seams*: the
    /// edges it shares with another piece (the diagonals of the decomposition), with the
    /// outline's vertices on either side of their ends ([`ConvexPolygon::seams`]), so that
    /// contacts treat the pieces as one surface (no ghost collisions where they meet; see
    /// [`ConvexPolygon::with_seams`]). A piece that is the whole
    /// outline has none.
    pub fn convex_pieces(&self) -> Vec<ConvexPolygon> {
        self.pieces.iter().map(|p| p.polygon.clone()).collect()
    }

    /// Each convex piece as indices into [`vertices`](Self::vertices), counter-clockwise, in
    /// the order of [`convex_pieces`](Self::convex_pieces).
    pub fn piece_indices(&self) -> Vec<Vec<usize>> {
        self.pieces.iter().map(|p| p.indices.clone()).collect()
    }

    /// Convex pieces of at most `max_vertices` vertices each: the same merge, refusing any
    /// that would exceed it (the narrowphase keeps cores of up to 8 vertices on its fast
    /// paths), with their seams as [`convex_pieces`](Self::convex_pieces) gives them.
    /// Hertel and Mehlhorn's bound does not hold under a cap.
    ///
    /// # Errors
    /// [`GeometryError::OutOfRange`] naming `max_vertices` below 3.
    pub fn convex_pieces_with_at_most(
        &self,
        max_vertices: usize,
    ) -> Result<Vec<ConvexPolygon>, GeometryError> {
        if max_vertices < 3 {
            return Err(GeometryError::OutOfRange {
                field: "max_vertices".to_owned(),
                value: max_vertices as Real,
                expected: "at least 3",
            });
        }
        // The triangles passed the same checks in `new`, so the merge cannot fail here.
        let pieces = decompose::merge(&self.vertices, &self.triangles, max_vertices, self.gap)
            .map_err(|_| GeometryError::ZeroArea {
                field: "outline".to_owned(),
            })?;
        Ok(pieces.into_iter().map(|p| p.polygon).collect())
    }

    /// The area enclosed: the sum of the pieces' areas, computed about the outline's first
    /// vertex.
    pub fn area(&self) -> Real {
        self.mass_properties(1.0).map_or(0.0, |m| m.mass)
    }

    /// Mass, centre of mass and angular inertia of the outline filled with uniform
    /// `density`: the pieces' own (fanned triangles, as for a [`ConvexPolygon`]) combined by
    /// the parallel axis theorem ([`MassProperties::combine`]). Computed with the outline
    /// moved to put its first vertex at the origin (a move that is exact for an outline
    /// smaller than its distance from the origin), then moved back: the inertia keeps its
    /// relative accuracy however far the outline lies from the origin.
    ///
    /// # Errors
    /// [`GeometryError`] naming `density` if it is negative or not finite.
    pub fn mass_properties(&self, density: Real) -> Result<MassProperties, GeometryError> {
        let density = non_negative("density", density)?;
        let o = self.vertices[0].coords;
        let parts: Vec<MassProperties> = self
            .pieces
            .iter()
            .map(|piece| {
                let moved: Vec<Point> = piece
                    .indices
                    .iter()
                    .map(|&i| Point::from(self.vertices[i] - o))
                    .collect();
                polygon_mass(&moved, &[], 0.0, density)
            })
            .collect();
        let mut union = MassProperties::combine(&parts);
        union.local_center += o;
        Ok(union)
    }
}

fn zero_area_at(index: usize) -> GeometryError {
    GeometryError::ZeroArea {
        field: format!("outline[{index}]"),
    }
}

/// The outline's vertices as kept, counter-clockwise, with the input index of each, and the
/// weld distance (see [`weld_distance`]).
fn validate(outline: &[Point]) -> Result<(Vec<Point>, Vec<usize>, Real), GeometryError> {
    let n = outline.len();
    if n < 3 {
        return Err(GeometryError::TooFewVertices {
            field: "outline".to_owned(),
            count: n,
        });
    }
    for (i, p) in outline.iter().enumerate() {
        finite_point(&format!("outline[{i}]"), p)?;
    }
    let gap = weld_distance(outline)?;
    for i in 0..n {
        let before = (i + n - 1) % n;
        if (outline[i] - outline[before]).norm() <= gap {
            let (later, first) = if i == 0 { (before, 0) } else { (i, before) };
            return Err(GeometryError::RepeatedVertex {
                field: format!("outline[{later}]"),
                first,
            });
        }
    }
    if on_one_line(outline, gap) {
        return Err(GeometryError::ZeroArea {
            field: "outline".to_owned(),
        });
    }
    let kept = drop_collinear(outline, gap)?;
    if kept.len() < 3 {
        return Err(GeometryError::ZeroArea {
            field: "outline".to_owned(),
        });
    }
    let points: Vec<Point> = kept.iter().map(|&i| outline[i]).collect();
    check_simple(&points, gap).map_err(|e| e.renamed(&kept))?;
    // Twice the signed area, about the first vertex (small terms for outlines far away).
    let o = points[0];
    let twice_area: Real = (1..points.len() - 1)
        .map(|i| cross(&(points[i] - o), &(points[i + 1] - o)))
        .sum();
    if twice_area == 0.0 {
        return Err(GeometryError::ZeroArea {
            field: "outline".to_owned(),
        });
    }
    let (mut points, mut kept) = (points, kept);
    if twice_area < 0.0 {
        points.reverse();
        kept.reverse();
    }
    Ok((points, kept, gap))
}

/// The weld distance of an outline: twice [`POLYGON_WELD_RELATIVE`] times its extent (the
/// larger side of its bounding box). [`ConvexPolygon::new`] welds within that fraction of a
/// polygon's size, which for a piece is at most the outline's extent: twice that leaves
/// room for the rounding of its test.
///
/// # Errors
/// [`GeometryError::OutOfRange`] naming `outline` if the extent overflows.
fn weld_distance(outline: &[Point]) -> Result<Real, GeometryError> {
    let (mut low, mut high) = (outline[0], outline[0]);
    for p in outline {
        low = low.inf(p);
        high = high.sup(p);
    }
    let extent = (high - low).max();
    if !extent.is_finite() {
        return Err(GeometryError::OutOfRange {
            field: "outline".to_owned(),
            value: extent,
            expected: "coordinates whose differences are finite",
        });
    }
    Ok(2.0 * POLYGON_WELD_RELATIVE * extent)
}

/// Whether every vertex is within `gap` of the line through the first and the one farthest
/// from it (which are more than `gap` apart: consecutive vertices are).
fn on_one_line(outline: &[Point], gap: Real) -> bool {
    let o = outline[0];
    let far = outline.iter().fold(o, |f, p| {
        if (p - o).norm() > (f - o).norm() {
            *p
        } else {
            f
        }
    });
    let direction = (far - o) / (far - o).norm();
    outline
        .iter()
        .all(|p| cross(&direction, &(p - o)).abs() <= gap)
}

/// The input indices of the vertices kept once every vertex nearer than `weld` to the line
/// through its neighbours, between them, is dropped (the criterion of
/// [`ConvexPolygon::new`]); a vertex that near the line where the outline turns straight
/// back is a spike of no width, refused.
fn drop_collinear(outline: &[Point], weld: Real) -> Result<Vec<usize>, GeometryError> {
    let n = outline.len();
    let mut next: Vec<usize> = (0..n).map(|i| (i + 1) % n).collect();
    let mut prev: Vec<usize> = (0..n).map(|i| (i + n - 1) % n).collect();
    let mut alive = vec![true; n];
    let mut count = n;
    // Each drop puts the two neighbours back on the list: they have new neighbours.
    let mut pending: Vec<usize> = (0..n).rev().collect();
    while let Some(i) = pending.pop() {
        if !alive[i] || count < 3 {
            continue;
        }
        let (before, after) = (prev[i], next[i]);
        let (p, c, q) = (outline[before], outline[i], outline[after]);
        let chord = q - p;
        let length = chord.norm();
        if length > 0.0 && cross(&chord, &(c - p)).abs() / length > weld {
            continue;
        }
        // Neighbours at one point, or the outline turning straight back at `c`.
        if length == 0.0 || (c - p).dot(&(q - c)) <= 0.0 {
            return Err(GeometryError::SelfIntersecting {
                field: format!("outline[{before}]"),
                other: format!("outline[{i}]"),
            });
        }
        alive[i] = false;
        count -= 1;
        next[before] = after;
        prev[after] = before;
        pending.push(after);
        pending.push(before);
    }
    Ok((0..n).filter(|&i| alive[i]).collect())
}
