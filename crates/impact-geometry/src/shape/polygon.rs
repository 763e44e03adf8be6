//! [`ConvexPolygon`]: a convex polygon, counter-clockwise, with its edge normals, its
//! narrowest strip and the radius it is rounded by.

use super::Strip;
use super::seam::{Seam, Seams};
use crate::tolerances::POLYGON_WELD_RELATIVE;
use crate::validate::{finite_point, non_negative, positive};
use crate::{GeometryError, Point, Real, Vector, cross};

/// A strictly convex polygon with counter-clockwise vertices (body frame), optionally
/// rounded: every point within [`radius`](Self::radius) of the polygon (world units; zero,
/// the default, for a sharp polygon).
///
/// Construction validates the input: at least three finite vertices, counter-clockwise,
/// convex, winding once. Vertices closer than [`POLYGON_WELD_RELATIVE`] times the polygon's
/// size to their predecessor are welded, and vertices that close to the line through their
/// neighbours are dropped as collinear, so every stored vertex is a true corner and no edge
/// can collapse or turn backwards under the rounding of a rotation. Outward unit edge
/// normals are precomputed: `normals()[i]` belongs to the edge from `vertices()[i]` to
/// `vertices()[i + 1]`.
///
/// # Rounded polygons
///
/// A polygon with a radius is Box2D's rounded polygon (`b2Polygon` with its `radius`, as
/// `b2MakeRoundedBox` builds): the vertices are its *core*, and the shape is the core
/// inflated by the radius, flat along each edge (moved out by the radius) and round at each
/// corner (an arc of that radius about the vertex). Like every shape of impact it is a core
/// plus a radius (see [`Shape`](crate::Shape)), so every query serves it exactly: distance,
/// contacts, time of impact, rays, mass properties. A rounded box is
/// `ConvexPolygon::rectangle(hw, hh)?.with_radius(r)?`: its core is `2 hw` by `2 hh`, its
/// outline `2 (hw + r)` by `2 (hh + r)`.
///
/// ```
/// use impact_geometry::{ConvexPolygon, Shape};
///
/// let rounded = ConvexPolygon::rectangle(1.0, 0.5)?.with_radius(0.1)?;
/// assert_eq!(rounded.radius(), 0.1);
/// assert_eq!(Shape::from(rounded.clone()).radius(), 0.1);
/// // The outline reaches 1.1 along x and 0.6 along y; the strip holds the whole shape.
/// assert!((rounded.strip().half_width - 0.6).abs() < 1e-15);
/// assert!(ConvexPolygon::rectangle(1.0, 0.5)?.with_radius(-0.1).is_err());
/// # Ok::<(), impact_geometry::GeometryError>(())
/// ```
///
/// # Pieces of an outline
///
/// A polygon that is one convex piece of a [`ConcaveOutline`](crate::ConcaveOutline) knows
/// which of its edges are *internal*, shared with another piece rather than part of the
/// outline's surface, and where the outline goes on at their ends: its [`Seam`]s
/// ([`ConvexPolygon::with_seams`]; [`ConcaveOutline::convex_pieces`] sets them). The
/// narrowphase never takes an internal edge as a contact's face, and gives a vertex where
/// an internal edge meets the outline only the normals the outline's own surface has there,
/// so that a body sliding along the outline crosses the seams between pieces as it would a
/// flat face (see `docs/algorithms/outlines.md`). A polygon without seams (the default) is
/// what it always was, bit for bit.
///
/// [`ConcaveOutline::convex_pieces`]: crate::ConcaveOutline::convex_pieces
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "ConvexPolygonDef", into = "ConvexPolygonDef")
)]
pub struct ConvexPolygon {
    vertices: Vec<Point>,
    normals: Vec<Vector>,
    /// The narrowest strip of the whole shape: the core's, widened by the radius.
    strip: Strip,
    radius: Real,
    /// The seams of a piece of an outline; `None` for a polygon of its own.
    seams: Option<Box<Seams>>,
}

impl ConvexPolygon {
    /// Validates `vertices` (counter-clockwise, convex) and builds the sharp polygon (radius
    /// zero).
    ///
    /// # Errors
    /// - [`GeometryError::NotFinite`] naming `polygon.vertices[i].x` or `.y`;
    /// - [`GeometryError::TooFewVertices`] if fewer than 3 corners remain once duplicate and
    ///   collinear points are dropped (this includes every zero-area polygon);
    /// - [`GeometryError::Clockwise`] if the polygon is convex but wound clockwise;
    /// - [`GeometryError::NotConvex`] naming the first reflex vertex, or any vertex if the
    ///   outline winds around more than once.
    pub fn new(vertices: &[Point]) -> Result<Self, GeometryError> {
        const FIELD: &str = "polygon.vertices";
        for (i, v) in vertices.iter().enumerate() {
            finite_point(&format!("{FIELD}[{i}]"), v)?;
        }
        // Keep the input index of every surviving vertex so errors point at the user's data.
        let mut kept: Vec<(usize, Point)> = vertices.iter().copied().enumerate().collect();
        let size = vertices
            .iter()
            .map(|v| (v - vertices[0]).amax())
            .fold(0.0, Real::max);
        let weld = POLYGON_WELD_RELATIVE * size;
        // Weld near-duplicates and drop straight-through vertices until none is left; a vertex
        // whose edges turn back on themselves (a spike) is kept and rejected below.
        loop {
            let n = kept.len();
            if n < 3 {
                return Err(GeometryError::TooFewVertices {
                    field: FIELD.to_owned(),
                    count: n,
                });
            }
            let drop = (0..n).find(|&i| {
                let prev = kept[(i + n - 1) % n].1;
                let cur = kept[i].1;
                let next = kept[(i + 1) % n].1;
                let e0 = cur - prev;
                let e1 = next - cur;
                let chord = next - prev;
                let off_line = cross(&chord, &(cur - prev)).abs() / chord.norm();
                e0.norm() <= weld || (off_line <= weld && e0.dot(&e1) > 0.0)
            });
            match drop {
                Some(i) => {
                    kept.remove(i);
                }
                None => break,
            }
        }
        let n = kept.len();
        let turn = |i: usize| {
            let prev = kept[(i + n - 1) % n].1;
            let cur = kept[i].1;
            let next = kept[(i + 1) % n].1;
            cross(&(cur - prev), &(next - cur))
        };
        if (0..n).all(|i| turn(i) < 0.0) {
            return Err(GeometryError::Clockwise {
                field: FIELD.to_owned(),
            });
        }
        if let Some(i) = (0..n).find(|&i| turn(i) <= 0.0) {
            return Err(GeometryError::NotConvex {
                field: FIELD.to_owned(),
                index: kept[i].0,
            });
        }
        // All left turns can still wind twice (a pentagram); a simple convex outline's edge
        // directions pass angle pi exactly once as they sweep through one full turn.
        let angle = |i: usize| {
            let e = kept[(i + 1) % n].1 - kept[i].1;
            e.y.atan2(e.x)
        };
        let wraps = (0..n).filter(|&i| angle((i + 1) % n) < angle(i)).count();
        if wraps != 1 {
            return Err(GeometryError::NotConvex {
                field: FIELD.to_owned(),
                index: kept[0].0,
            });
        }
        let vertices: Vec<Point> = kept.into_iter().map(|(_, p)| p).collect();
        let normals = (0..n)
            .map(|i| {
                let e = vertices[(i + 1) % n] - vertices[i];
                Vector::new(e.y, -e.x).normalize()
            })
            .collect::<Vec<_>>();
        let strip = Strip::of_polygon(&vertices, &normals);
        Ok(Self {
            vertices,
            normals,
            strip,
            radius: 0.0,
            seams: None,
        })
    }

    /// The polygon with core `vertices` (validated as by [`ConvexPolygon::new`]) rounded by
    /// `radius` (world units, zero or more): see [Rounded polygons](Self#rounded-polygons).
    ///
    /// # Errors
    /// As [`ConvexPolygon::new`], and [`GeometryError::NotFinite`] or
    /// [`GeometryError::Negative`] naming `polygon.radius`.
    pub fn rounded(vertices: &[Point], radius: Real) -> Result<Self, GeometryError> {
        Self::new(vertices)?.with_radius(radius)
    }

    /// The same core rounded by `radius` (world units, zero or more) instead of its own
    /// radius: the outline moves out by the difference.
    ///
    /// # Errors
    /// [`GeometryError::NotFinite`] or [`GeometryError::Negative`] naming `polygon.radius`.
    pub fn with_radius(mut self, radius: Real) -> Result<Self, GeometryError> {
        // `+ 0.0` turns a negative zero into zero: a sharp polygon has one radius, bit for bit.
        let radius = non_negative("polygon.radius", radius)? + 0.0;
        self.strip = Strip::of_polygon(&self.vertices, &self.normals);
        self.strip.half_width += radius;
        self.radius = radius;
        Ok(self)
    }

    /// The same polygon as a piece of a concave outline whose internal edges are `seams`
    /// (each an edge index with where the outline goes on at its ends; see [`Seam`]), in
    /// increasing order of edge; no seams makes it a polygon of its own again. The other
    /// edges are the outline's.
    ///
    /// ```
    /// use impact_geometry::{ConvexPolygon, Point, Seam};
    ///
    /// // The lower piece of an L cut along its diagonal from (0, 0) to (1, 1): the outline
    /// // goes on from (0, 0) up to (0, 3), and comes into (1, 1) from (1, 3).
    /// let piece = ConvexPolygon::new(&[
    ///     Point::new(0.0, 0.0), Point::new(3.0, 0.0), Point::new(3.0, 1.0), Point::new(1.0, 1.0),
    /// ])?
    /// .with_seams(&[Seam {
    ///     edge: 3,
    ///     after_start: Point::new(1.0, 3.0),
    ///     before_end: Point::new(0.0, 3.0),
    /// }])?;
    /// assert!(piece.is_internal_edge(3) && !piece.is_internal_edge(0));
    /// // At (0, 0) the outline comes down the L's left side, then runs along the bottom.
    /// let [coming, going] = piece.outline_normals(0);
    /// assert_eq!((coming.x, coming.y, going.x, going.y), (-1.0, 0.0, 0.0, -1.0));
    /// # Ok::<(), impact_geometry::GeometryError>(())
    /// ```
    ///
    /// # Errors
    /// - [`GeometryError::OutOfRange`] naming `polygon.seams[k].edge` if it is not below the
    ///   vertex count, or not above the edge of the seam before;
    /// - [`GeometryError::NotFinite`] naming `polygon.seams[k].after_start.x` (or `.y`, or
    ///   `before_end`);
    /// - [`GeometryError::RepeatedPoint`] naming `polygon.seams[k].after_start` if it is the
    ///   edge's start (to the weld distance, [`POLYGON_WELD_RELATIVE`] of the polygon's
    ///   size), or `before_end` if it is the edge's end.
    pub fn with_seams(mut self, seams: &[Seam]) -> Result<Self, GeometryError> {
        self.seams = Seams::new(seams, &self.vertices, &self.normals)?.map(Box::new);
        Ok(self)
    }

    /// The seams (internal edges) of a piece of an outline, in increasing order of edge;
    /// empty for a polygon of its own.
    #[inline]
    pub fn seams(&self) -> &[Seam] {
        self.seams.as_ref().map_or(&[], |s| &s.list)
    }

    /// Whether the polygon has seams (is a piece of an outline with internal edges).
    #[inline]
    pub fn has_seams(&self) -> bool {
        self.seams.is_some()
    }

    /// Whether edge `edge` (from vertex `edge` to the next) is internal: shared with another
    /// piece of the outline. `false` for an index out of range.
    #[inline]
    pub fn is_internal_edge(&self, edge: usize) -> bool {
        self.seams
            .as_ref()
            .is_some_and(|s| s.internal.get(edge).copied().unwrap_or(false))
    }

    /// The outward unit normals of the outline's edges into and out of vertex `vertex`
    /// (body frame): the polygon's own edges' where they are the outline's, else those of
    /// the neighbouring pieces' edges that the outline runs along (from the seams). For a
    /// polygon without seams, its own two normals there.
    ///
    /// # Panics
    /// If `vertex` is not below the vertex count.
    #[inline]
    pub fn outline_normals(&self, vertex: usize) -> [Vector; 2] {
        match &self.seams {
            Some(s) => s.outline_normals[vertex],
            None => {
                let n = self.normals.len();
                [self.normals[(vertex + n - 1) % n], self.normals[vertex]]
            }
        }
    }

    /// The convex hull of `points` (any order, duplicates and interior points allowed).
    ///
    /// # Errors
    /// As [`ConvexPolygon::new`]: non-finite coordinates, or a hull with fewer than 3 corners.
    pub fn from_convex_hull(points: &[Point]) -> Result<Self, GeometryError> {
        for (i, v) in points.iter().enumerate() {
            finite_point(&format!("polygon.vertices[{i}]"), v)?;
        }
        let mut sorted = points.to_vec();
        sorted.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        sorted.dedup();
        // Andrew's monotone chain: lower hull then upper hull, each keeping left turns only.
        let mut hull: Vec<Point> = Vec::with_capacity(sorted.len() + 1);
        for pass in 0..2 {
            let start = hull.len();
            let iter: Box<dyn Iterator<Item = &Point>> = if pass == 0 {
                Box::new(sorted.iter())
            } else {
                Box::new(sorted.iter().rev())
            };
            for p in iter {
                while hull.len() >= start + 2 {
                    let a = hull[hull.len() - 2];
                    let b = hull[hull.len() - 1];
                    if cross(&(b - a), &(p - b)) <= 0.0 {
                        hull.pop();
                    } else {
                        break;
                    }
                }
                hull.push(*p);
            }
            hull.pop();
        }
        Self::new(&hull)
    }

    /// An axis-aligned rectangle centred on the origin.
    ///
    /// # Errors
    /// [`GeometryError::NotPositive`] naming `rectangle.half_width` or `rectangle.half_height`.
    pub fn rectangle(half_width: Real, half_height: Real) -> Result<Self, GeometryError> {
        let hw = positive("rectangle.half_width", half_width)?;
        let hh = positive("rectangle.half_height", half_height)?;
        Self::new(&[
            Point::new(-hw, -hh),
            Point::new(hw, -hh),
            Point::new(hw, hh),
            Point::new(-hw, hh),
        ])
    }

    /// A regular polygon with `sides` corners on a circle of `radius` about the origin, the
    /// first corner on the positive x axis.
    ///
    /// # Errors
    /// [`GeometryError::OutOfRange`] naming `regular.sides` below 3 or above 1024, and
    /// [`GeometryError::NotPositive`] naming `regular.radius`.
    pub fn regular(sides: usize, radius: Real) -> Result<Self, GeometryError> {
        if !(3..=1024).contains(&sides) {
            return Err(GeometryError::OutOfRange {
                field: "regular.sides".to_owned(),
                value: sides as Real,
                expected: "between 3 and 1024",
            });
        }
        let r = positive("regular.radius", radius)?;
        let vertices: Vec<Point> = (0..sides)
            .map(|i| {
                let a = core::f64::consts::TAU * i as Real / sides as Real;
                Point::new(r * a.cos(), r * a.sin())
            })
            .collect();
        Self::new(&vertices)
    }

    /// The corners, counter-clockwise.
    #[inline]
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// Outward unit normals; `normals()[i]` belongs to the edge leaving `vertices()[i]`.
    #[inline]
    pub fn normals(&self) -> &[Vector] {
        &self.normals
    }

    /// The narrowest strip that holds the whole polygon, its rounding included (see
    /// [`Strip`]), found at construction: the core's narrowest strip, widened by the radius
    /// on both sides (the width of a rounded shape in any direction is its core's plus twice
    /// the radius, so the narrowest direction is the core's).
    #[inline]
    pub fn strip(&self) -> &Strip {
        &self.strip
    }

    /// The radius the core is rounded by (world units): zero for a sharp polygon.
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The corners, as the polygon's core.
    #[inline]
    pub fn core(&self) -> &[Point] {
        &self.vertices
    }
}

/// The serialized form: the core's vertices, the radius only when it is not zero and the
/// seams only when there are some (so a sharp polygon of its own has the form it always
/// had, and an older file without the fields reads as one).
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct ConvexPolygonDef {
    vertices: Vec<Point>,
    #[serde(default, skip_serializing_if = "is_zero")]
    radius: Real,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    seams: Vec<Seam>,
}

#[cfg(feature = "serde")]
fn is_zero(radius: &Real) -> bool {
    *radius == 0.0
}

#[cfg(feature = "serde")]
impl TryFrom<ConvexPolygonDef> for ConvexPolygon {
    type Error = GeometryError;
    fn try_from(def: ConvexPolygonDef) -> Result<Self, GeometryError> {
        Self::rounded(&def.vertices, def.radius)?.with_seams(&def.seams)
    }
}

#[cfg(feature = "serde")]
impl From<ConvexPolygon> for ConvexPolygonDef {
    fn from(p: ConvexPolygon) -> Self {
        Self {
            seams: p.seams.map_or_else(Vec::new, |s| s.list),
            vertices: p.vertices,
            radius: p.radius,
        }
    }
}
