//! Rounded cores: a shape's core placed in world coordinates with its edges' outward normals
//! and its radius, the common input of the manifold kernels (`point_core`, `clipping`);
//! `Quad` holds a box in fixed-size arrays, read through the same `Core` trait.

use crate::scratch::Scratch;
use impact_geometry::{ConvexPolygon, Isometry, Point, Real, Vector};

/// Vertices kept on the stack.
const INLINE: usize = 12;

/// A convex core in world coordinates, counter-clockwise, with its radius. One vertex (a
/// point), two (a segment: two edges with opposite normals) or more (a polygon).
pub(crate) struct Rounded {
    pub vertices: Scratch<Vector, INLINE>,
    pub normals: Scratch<Vector, INLINE>,
    pub radius: Real,
}

impl Rounded {
    pub(crate) fn new(core: &[Point], radius: Real, pose: &Isometry) -> Self {
        let mut vertices = Scratch::new();
        for p in core {
            vertices.push((pose * p).coords);
        }
        // A segment too short for its direction to survive rounding is a point.
        if core.len() == 2 {
            let (p, q) = (vertices.as_slice()[0], vertices.as_slice()[1]);
            if crate::minkowski::is_point_like(p, q, &Vector::zeros()) {
                let mut single = Scratch::new();
                single.push((p + q) * 0.5);
                vertices = single;
            }
        }
        // Normals come from the body-frame edges, rotated: a tiny edge can vanish once
        // transformed to world coordinates, but its body-frame direction is exact.
        let mut normals = Scratch::new();
        let n = vertices.as_slice().len();
        if n >= 2 {
            for i in 0..n {
                let e = core[(i + 1) % n] - core[i];
                let local = Vector::new(e.y, -e.x)
                    .try_normalize(0.0)
                    .unwrap_or_else(|| Vector::new(1.0, 0.0));
                normals.push(pose.rotation * local);
            }
        }
        Self {
            vertices,
            normals,
            radius,
        }
    }

    /// An empty core of radius zero, for [`Rounded::set_polygon`] to fill in place.
    ///
    /// The inline buffers are a few hundred bytes: a pair of polygons filled in place costs
    /// no copies, where returning them from a constructor costs one per core (a large share
    /// of a box-box manifold's time in the pyramid bench).
    #[inline]
    pub(crate) fn empty() -> Self {
        Self {
            vertices: Scratch::new(),
            normals: Scratch::new(),
            radius: 0.0,
        }
    }

    /// Replaces the content with polygon `polygon` at `pose`: what [`Rounded::new`] gives for
    /// its core and radius, bit for bit, with the polygon's precomputed body-frame normals
    /// (the same `e.perp / |e|` as `new` computes) instead of one square root per edge.
    #[inline]
    pub(crate) fn set_polygon(&mut self, polygon: &ConvexPolygon, pose: &Isometry) {
        self.vertices.clear();
        self.normals.clear();
        for (p, n) in polygon.vertices().iter().zip(polygon.normals()) {
            self.vertices.push((pose * p).coords);
            self.normals.push(pose.rotation * n);
        }
        self.radius = polygon.radius();
    }

    #[inline]
    pub(crate) fn v(&self) -> &[Vector] {
        self.vertices.as_slice()
    }

    #[inline]
    pub(crate) fn n(&self) -> &[Vector] {
        self.normals.as_slice()
    }
}

/// What the manifold routines read of a core: its world vertices (counter-clockwise), the
/// outward normal of the edge leaving each, and its radius.
pub(crate) trait Core {
    fn v(&self) -> &[Vector];
    fn n(&self) -> &[Vector];
    fn radius(&self) -> Real;
}

impl Core for Rounded {
    #[inline]
    fn v(&self) -> &[Vector] {
        Rounded::v(self)
    }

    #[inline]
    fn n(&self) -> &[Vector] {
        Rounded::n(self)
    }

    #[inline]
    fn radius(&self) -> Real {
        self.radius
    }
}

/// A four-cornered polygon (a box, sharp or rounded) in world coordinates, in fixed arrays:
/// the manifold routines see slices of a known length and unroll their loops, and nothing is
/// copied to or from the heap-capable buffers of [`Rounded`]. The same vertices, normals and
/// radius as [`Rounded::set_polygon`], bit for bit.
pub(crate) struct Quad {
    vertices: [Vector; 4],
    normals: [Vector; 4],
    radius: Real,
}

impl Quad {
    /// The polygon at `pose`, if it has four corners.
    #[inline]
    pub(crate) fn new(polygon: &ConvexPolygon, pose: &Isometry) -> Option<Self> {
        let (v, n) = (polygon.vertices(), polygon.normals());
        if v.len() != 4 || n.len() != 4 {
            return None;
        }
        Some(Self {
            vertices: core::array::from_fn(|i| (pose * v[i]).coords),
            normals: core::array::from_fn(|i| pose.rotation * n[i]),
            radius: polygon.radius(),
        })
    }
}

impl Core for Quad {
    #[inline]
    fn v(&self) -> &[Vector] {
        &self.vertices
    }

    #[inline]
    fn n(&self) -> &[Vector] {
        &self.normals
    }

    #[inline]
    fn radius(&self) -> Real {
        self.radius
    }
}

/// A core of one or two points (a capsule's, a segment's) in world coordinates, in fixed
/// arrays: the same vertices, normals and radius as [`Rounded::new`], bit for bit (a
/// segment too short for its direction to survive rounding is its midpoint, with no
/// normal), without the few hundred bytes of [`Rounded`]'s inline buffers to fill and move.
pub(crate) struct SegmentCore {
    vertices: [Vector; 2],
    normals: [Vector; 2],
    /// Points: 1 or 2 (normals: 0 or 2).
    len: usize,
    radius: Real,
}

impl SegmentCore {
    /// `core` (one or two points, body frame) at `pose`, with `radius`.
    #[inline]
    pub(crate) fn new(core: &[Point], radius: Real, pose: &Isometry) -> Self {
        Self::placed(core, Self::world_points(core, pose), radius, pose)
    }

    /// The points of `core` (one or two, body frame) at `pose`; a single point twice.
    #[inline]
    pub(crate) fn world_points(core: &[Point], pose: &Isometry) -> [Vector; 2] {
        debug_assert!(matches!(core.len(), 1 | 2), "a segment core");
        let p = (pose * core[0]).coords;
        match core {
            [_, q] => [p, (pose * q).coords],
            _ => [p, p],
        }
    }

    /// [`SegmentCore::new`] for a core whose points are already in world coordinates
    /// (`placed`, as [`SegmentCore::world_points`] gives them).
    #[inline]
    pub(crate) fn placed(
        core: &[Point],
        placed: [Vector; 2],
        radius: Real,
        pose: &Isometry,
    ) -> Self {
        debug_assert!(matches!(core.len(), 1 | 2), "a segment core");
        let [p, q] = placed;
        let mut out = Self {
            vertices: [p, p],
            normals: [Vector::zeros(); 2],
            len: 1,
            radius,
        };
        if let [a, b] = core {
            if crate::minkowski::is_point_like(p, q, &Vector::zeros()) {
                out.vertices[0] = (p + q) * 0.5;
            } else {
                out.vertices[1] = q;
                out.len = 2;
                let e = b - a;
                out.normals = match Vector::new(e.y, -e.x).try_normalize(0.0) {
                    // The edge back is the negated edge, and negation is exact through the
                    // norm, the division and the rotation: the second normal is the first
                    // negated, bit for bit, for one square root in place of two.
                    Some(local) => {
                        let n = pose.rotation * local;
                        [n, -n]
                    }
                    None => [pose.rotation * Vector::new(1.0, 0.0); 2],
                };
            }
        }
        out
    }
}

impl Core for SegmentCore {
    #[inline]
    fn v(&self) -> &[Vector] {
        &self.vertices[..self.len]
    }

    #[inline]
    fn n(&self) -> &[Vector] {
        &self.normals[..if self.len == 2 { 2 } else { 0 }]
    }

    #[inline]
    fn radius(&self) -> Real {
        self.radius
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// A segment core of any length down to a point's, at any pose: the same vertices,
        /// normals and radius as [`Rounded::new`], bit for bit.
        #[test]
        fn a_segment_core_is_the_rounded_core_bit_for_bit(
            (x0, y0) in (-1e3..1e3, -1e3..1e3),
            (dx, dy, scale) in (-1.0..1.0, -1.0..1.0, -20i32..2),
            (x, y, angle, radius) in (-1e3..1e3, -1e3..1e3, -4.0..4.0, 0.0..1.0),
        ) {
            let a = Point::new(x0, y0);
            let b = a + Vector::new(dx, dy) * (10.0 as Real).powi(scale);
            let pose = Isometry::new(Vector::new(x, y), angle);
            for core in [&[a, b][..], &[a][..]] {
                let (fixed, rounded) = (SegmentCore::new(core, radius, &pose), Rounded::new(core, radius, &pose));
                proptest::prop_assert_eq!(Core::v(&fixed), rounded.v());
                proptest::prop_assert_eq!(Core::n(&fixed), rounded.n());
                proptest::prop_assert_eq!(Core::radius(&fixed).to_bits(), rounded.radius.to_bits());
            }
        }
    }
}
