//! [`Seam`]: an edge of a convex polygon that lies inside the concave outline the polygon is
//! a piece of, with where the outline goes on at its two ends; and the table a polygon keeps
//! of its seams.

use crate::tolerances::POLYGON_WELD_RELATIVE;
use crate::validate::finite_point;
use crate::{GeometryError, Point, Vector};

/// An *internal edge* of a convex polygon: an edge it shares with another piece of the same
/// outline (a diagonal of a [`ConcaveOutline`](crate::ConcaveOutline)'s decomposition), so
/// that it is not part of the outline's surface. Like a chain segment's ghost vertices, the
/// seam also holds where the outline goes on at the edge's ends: `after_start`, the
/// outline's vertex after the edge's start (the outline leaves the start along another
/// piece's edge), and `before_end`, the outline's vertex before the edge's end.
///
/// Edge `edge` runs from `vertices()[edge]` to `vertices()[edge + 1]` (the last to the first).
/// The narrowphase reads seams so that a body sliding over the outline's surface is not
/// caught where pieces meet (see [`ConvexPolygon::with_seams`](crate::ConvexPolygon::with_seams)
/// and `docs/algorithms/outlines.md`).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Seam {
    /// The edge's index: from vertex `edge` to vertex `edge + 1` (modulo the vertex count).
    pub edge: usize,
    /// The outline's vertex after the edge's start (body frame).
    pub after_start: Point,
    /// The outline's vertex before the edge's end (body frame).
    pub before_end: Point,
}

/// What a polygon with seams keeps of them: the seams as given, which edges are internal,
/// and the outline's two normals at each vertex.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Seams {
    pub list: Vec<Seam>,
    /// One flag per edge: whether it is internal.
    pub internal: Vec<bool>,
    /// Per vertex, the outward unit normals of the outline's edges into and out of it (body
    /// frame): the polygon's own where its edge there is the outline's, else the normal of
    /// the outline's edge from `before_end` or toward `after_start`, computed as the
    /// neighbouring piece computes its own (`(e.y, -e.x)` normalized), so the two agree bit
    /// for bit.
    pub outline_normals: Vec<[Vector; 2]>,
}

impl Seams {
    /// Validates `seams` against the polygon's `vertices` and `normals` (edge indices below the
    /// vertex count and increasing, points finite and not at the vertex they go on from),
    /// and builds the table; `None` for no seams.
    pub(crate) fn new(
        seams: &[Seam],
        vertices: &[Point],
        normals: &[Vector],
    ) -> Result<Option<Self>, GeometryError> {
        if seams.is_empty() {
            return Ok(None);
        }
        let n = vertices.len();
        let size = vertices
            .iter()
            .map(|v| (v - vertices[0]).amax())
            .fold(0.0, crate::Real::max);
        let weld = POLYGON_WELD_RELATIVE * size;
        let mut internal = vec![false; n];
        let mut before: Option<usize> = None;
        for (k, seam) in seams.iter().enumerate() {
            let field = format!("polygon.seams[{k}]");
            if seam.edge >= n || before.is_some_and(|b| seam.edge <= b) {
                return Err(GeometryError::OutOfRange {
                    field: format!("{field}.edge"),
                    value: seam.edge as crate::Real,
                    expected: "an edge index below the vertex count, above the seam before's",
                });
            }
            before = Some(seam.edge);
            finite_point(&format!("{field}.after_start"), &seam.after_start)?;
            finite_point(&format!("{field}.before_end"), &seam.before_end)?;
            let (start, end) = (seam.edge, (seam.edge + 1) % n);
            for (name, point, vertex) in [
                ("after_start", seam.after_start, start),
                ("before_end", seam.before_end, end),
            ] {
                if (point - vertices[vertex]).norm() <= weld {
                    return Err(GeometryError::RepeatedPoint {
                        field: format!("{field}.{name}"),
                        same_as: format!("polygon.vertices[{vertex}]"),
                    });
                }
            }
            internal[seam.edge] = true;
        }
        let mut outline_normals: Vec<[Vector; 2]> = (0..n)
            .map(|i| [normals[(i + n - 1) % n], normals[i]])
            .collect();
        for seam in seams {
            let (start, end) = (seam.edge, (seam.edge + 1) % n);
            outline_normals[start][1] = right_normal(&(seam.after_start - vertices[start]));
            outline_normals[end][0] = right_normal(&(vertices[end] - seam.before_end));
        }
        Ok(Some(Self {
            list: seams.to_vec(),
            internal,
            outline_normals,
        }))
    }
}

/// The outward normal of an edge along `e` of a counter-clockwise outline, as
/// [`ConvexPolygon::new`](crate::ConvexPolygon::new) computes it.
fn right_normal(e: &Vector) -> Vector {
    Vector::new(e.y, -e.x).normalize()
}
