//! [`ConvexPolygon`]: a convex polygon, counter-clockwise, with its edge normals and its
//! narrowest strip.

use super::Strip;
use crate::tolerances::POLYGON_WELD_RELATIVE;
use crate::validate::{finite_point, positive};
use crate::{GeometryError, Point, Real, Vector, cross};

/// A strictly convex polygon with counter-clockwise vertices (body frame).
///
/// Construction validates the input: at least three finite vertices, counter-clockwise,
/// convex, winding once. Vertices closer than [`POLYGON_WELD_RELATIVE`] times the polygon's
/// size to their predecessor are welded, and vertices that close to the line through their
/// neighbours are dropped as collinear, so every stored vertex is a true corner and no edge
/// can collapse or turn backwards under the rounding of a rotation. Outward unit edge
/// normals are precomputed: `normals()[i]` belongs to the edge from `vertices()[i]` to
/// `vertices()[i + 1]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "ConvexPolygonDef", into = "ConvexPolygonDef")
)]
pub struct ConvexPolygon {
    vertices: Vec<Point>,
    normals: Vec<Vector>,
    strip: Strip,
}

impl ConvexPolygon {
    /// Validates `vertices` (counter-clockwise, convex) and builds the polygon.
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
        })
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

    /// The narrowest strip that holds the polygon (see [`Strip`]), found at construction.
    #[inline]
    pub fn strip(&self) -> &Strip {
        &self.strip
    }

    /// The corners, as the polygon's core.
    #[inline]
    pub fn core(&self) -> &[Point] {
        &self.vertices
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct ConvexPolygonDef {
    vertices: Vec<Point>,
}

#[cfg(feature = "serde")]
impl TryFrom<ConvexPolygonDef> for ConvexPolygon {
    type Error = GeometryError;
    fn try_from(def: ConvexPolygonDef) -> Result<Self, GeometryError> {
        Self::new(&def.vertices)
    }
}

#[cfg(feature = "serde")]
impl From<ConvexPolygon> for ConvexPolygonDef {
    fn from(p: ConvexPolygon) -> Self {
        Self {
            vertices: p.vertices,
        }
    }
}
