//! The faces of a core that turn with their body: which face of a shape faces a direction,
//! the side of a segment's or capsule's core, and the step certified by the height of the other
//! core's vertices over a turning face (Box2D's separation function, with a proven bound on
//! its second derivative).

use super::mover::{CURVED_MAX_VERTICES, Mover};
use super::roots::{first_root, lowest};
use crate::gjk::farthest;
use impact_geometry::{Real, Rotation, Shape, Sweep, Vector, cross_scalar_vector, perp};

/// The face of `shape` whose outward normal is closest in direction to `direction` (world
/// axes; the body turned by `rotation`; the first of the most aligned): its first vertex and
/// its normal in the body's axes. The side of a segment's or capsule's core that faces
/// `direction`; none for a disc or a core of zero length.
#[inline(always)]
pub(super) fn facing_face(
    shape: &Shape,
    rotation: &Rotation,
    direction: &Vector,
) -> Option<(usize, Vector)> {
    let local = rotation.inverse_transform_vector(direction);
    match shape {
        Shape::Circle(_) => None,
        Shape::Polygon(p) => {
            let normals = p.normals();
            let k = farthest(normals.iter().map(|n| n.dot(&local)));
            Some((k, normals[k]))
        }
        Shape::Segment(s) => Some((0, side_normal(&s.direction(), &local)?)),
        // Conservative advancement sees a chain segment as its plain segment (the chain's
        // rules are applied to its answer), so this is the segment's rule.
        Shape::ChainSegment(s) => Some((0, side_normal(&s.direction(), &local)?)),
        Shape::Capsule(c) => Some((0, side_normal(&c.axis().direction(), &local)?)),
    }
}

/// The unit normal of a segment along `direction` on the side of `toward`; none for a segment
/// of zero length (a point, which has no face).
#[inline]
pub(super) fn side_normal(direction: &Vector, toward: &Vector) -> Option<Vector> {
    let n = perp(direction).try_normalize(0.0)?;
    Some(if n.dot(toward) >= 0.0 { n } else { -n })
}

/// A face of a shape, as the line it lies on, in world axes at the current pose.
pub(super) struct Face {
    /// Outward unit normal.
    normal: Vector,
    /// Distance of the face's line from the body's centre of mass along `normal`.
    offset: Real,
}

impl Face {
    /// The face of `shape` whose outward normal is closest in direction to `direction`; none
    /// for a disc or a segment of zero length, whose core has no face.
    #[inline]
    pub(super) fn facing(
        shape: &Shape,
        sweep: &Sweep,
        rotation: &Rotation,
        direction: &Vector,
    ) -> Option<Self> {
        let (k, normal) = facing_face(shape, rotation, direction)?;
        let on_face = shape.core()[k];
        Some(Self {
            normal: rotation * normal,
            offset: normal.dot(&(on_face - sweep.local_center())),
        })
    }

    /// The step certified by the height over this face (of `body`, which turns with it) of
    /// the core vertices of `other`, whose arms from its centre of mass are `arms` and whose
    /// centre of mass is at `centers` from `body`'s. `offset` is radii plus target.
    ///
    /// A vertex at `x` from the face body's centre has height `g = f . x - offset` with `f`
    /// the turning normal; `g' = w_f perp(f) . x + f . x'` and
    /// `g'' = -w_f^2 f . x + 2 w_f perp(f) . x' + f . x''`, so over the next `remaining` of
    /// the step `|g''| <= w_f^2 (X + V remaining) + 2 |w_f| V + w_o^2 r_o`, with `X` the
    /// largest `|x|` now, `V` the fastest a vertex can move relative to the face body's centre
    /// and `r_o` the other's arm. Every vertex shares that bound, so the first root over the
    /// vertices of `g + g' t - K t^2 / 2` is found by [`first_root`].
    #[inline]
    pub(super) fn step(
        &self,
        body: &Mover<'_>,
        other: &Mover<'_>,
        arms: &[Vector],
        centers: &Vector,
        offset: Real,
        remaining: Real,
    ) -> Real {
        let relative = other.displacement - body.displacement;
        let across = perp(&self.normal);
        let mut heights = [(0.0, 0.0); CURVED_MAX_VERTICES];
        // Trial 0 read off while filling, as in `Frame::step_along`.
        let (mut bottom, mut bottom_height) = (0, Real::INFINITY);
        for (i, arm) in arms.iter().enumerate() {
            let x = centers + arm;
            let velocity = relative + cross_scalar_vector(other.turn, arm);
            let h = (
                self.normal.dot(&x) - self.offset,
                body.turn * across.dot(&x) + self.normal.dot(&velocity),
            );
            heights[i] = h;
            if h.0 < bottom_height {
                (bottom, bottom_height) = (i, h.0);
            }
        }
        let start = (heights[bottom].0 - offset, heights[bottom].1);
        let heights = &heights[..arms.len()];
        let reach = centers.norm() + other.arm;
        let speed = relative.norm() + other.rotation_speed();
        let half_k = 0.5
            * (body.turn * body.turn * (reach + speed * remaining)
                + 2.0 * body.turn.abs() * speed
                + other.curvature());

        first_root(half_k, arms.len(), start, |t| {
            let (h, rate) = lowest(heights, t);
            (h - offset, rate)
        })
    }
}
