//! The narrowest strip that holds a shape.

use crate::{Point, Real, Vector, perp};

/// The region between two parallel lines that holds a whole shape (core and rounding), in
/// the body frame: the points `p` with `|normal . p - middle| <= half_width`.
///
/// A long thin body lies in a strip far narrower than its bounding circle. Time of impact
/// uses it to skip the stretches of a sweep where the strip, turning with its body, cannot
/// reach the other body's circle: a spinning plank sweeps its whole circle, but meets what is
/// inside it only when it points that way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Strip {
    /// Unit normal of the strip's lines.
    pub normal: Vector,
    /// The position of the strip's centre line along `normal`.
    pub middle: Real,
    /// Half the strip's width: how far the shape reaches from the centre line.
    pub half_width: Real,
}

impl Strip {
    /// The narrowest strip holding the convex polygon with counter-clockwise `vertices` and
    /// outward unit edge `normals` (`normals[i]` the edge leaving `vertices[i]`).
    ///
    /// The narrowest strip around a convex polygon has one line flush with an edge (the
    /// rotating-calipers theorem), so only the edge normals are candidates: for each, the
    /// vertex deepest against it, found by advancing one index around the polygon as the
    /// edges turn (each vertex is visited a bounded number of times: linear time).
    pub(crate) fn of_polygon(vertices: &[Point], normals: &[Vector]) -> Self {
        let n = vertices.len();
        let depth = |k: usize, j: usize| normals[k].dot(&vertices[j].coords);
        let mut deepest = (0..n)
            .min_by(|&i, &j| depth(0, i).total_cmp(&depth(0, j)))
            .unwrap_or(0);
        let mut best = (Real::INFINITY, 0);
        for k in 0..n {
            // The deepest vertex moves forward as the edge normal turns counter-clockwise.
            for _ in 0..n {
                let next = (deepest + 1) % n;
                if depth(k, next) <= depth(k, deepest) {
                    deepest = next;
                } else {
                    break;
                }
            }
            let width = depth(k, k) - depth(k, deepest);
            if width < best.0 {
                best = (width, k);
            }
        }
        let (width, k) = best;
        Self {
            normal: normals[k],
            middle: depth(k, k) - 0.5 * width,
            half_width: 0.5 * width,
        }
    }

    /// The strip along the segment from `a` to `b` inflated by `radius` (a segment's or a
    /// capsule's); none for a segment of zero length, which has no direction.
    pub(crate) fn of_segment(a: &Point, b: &Point, radius: Real) -> Option<Self> {
        let normal = perp(&(b - a)).try_normalize(0.0)?;
        Some(Self {
            normal,
            middle: normal.dot(&a.coords),
            half_width: radius,
        })
    }
}
