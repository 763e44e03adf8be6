//! Axis-aligned bounding boxes, including boxes that bound a whole sweep.

use crate::{Isometry, Point, Real, Shape, Sweep, Vector};
use wide::f64x4 as F64x4;

/// An axis-aligned box `[mins, maxs]` in world coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Aabb {
    /// The corner with the smallest coordinates.
    pub mins: Point,
    /// The corner with the largest coordinates.
    pub maxs: Point,
}

impl Aabb {
    /// The box with the given corners. The caller guarantees `mins <= maxs` per axis.
    #[inline]
    pub const fn new(mins: Point, maxs: Point) -> Self {
        Self { mins, maxs }
    }

    /// The smallest box holding every point of `points`; an empty iterator gives an inverted
    /// box (`mins = +inf`, `maxs = -inf`) that [`Aabb::merged`] treats as empty.
    pub fn from_points(points: impl IntoIterator<Item = Point>) -> Self {
        let mut mins = Point::new(Real::INFINITY, Real::INFINITY);
        let mut maxs = Point::new(Real::NEG_INFINITY, Real::NEG_INFINITY);
        for p in points {
            mins = mins.inf(&p);
            maxs = maxs.sup(&p);
        }
        Self { mins, maxs }
    }

    /// The box grown by `margin` on every side.
    #[inline]
    pub fn inflated(&self, margin: Real) -> Self {
        let m = Vector::new(margin, margin);
        Self {
            mins: self.mins - m,
            maxs: self.maxs + m,
        }
    }

    /// The smallest box holding both boxes.
    #[inline]
    pub fn merged(&self, other: &Self) -> Self {
        Self {
            mins: self.mins.inf(&other.mins),
            maxs: self.maxs.sup(&other.maxs),
        }
    }

    /// Whether the boxes share at least one point (touching counts).
    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        corners_meet(
            [self.mins.x, self.mins.y],
            [self.maxs.x, self.maxs.y],
            [other.mins.x, other.mins.y],
            [other.maxs.x, other.maxs.y],
        )
    }

    /// Whether `other` lies entirely inside this box.
    #[inline]
    pub fn contains(&self, other: &Self) -> bool {
        self.mins.x <= other.mins.x
            && self.mins.y <= other.mins.y
            && other.maxs.x <= self.maxs.x
            && other.maxs.y <= self.maxs.y
    }

    /// Whether `point` lies in the box (boundary included).
    #[inline]
    pub fn contains_point(&self, point: &Point) -> bool {
        self.mins.x <= point.x
            && point.x <= self.maxs.x
            && self.mins.y <= point.y
            && point.y <= self.maxs.y
    }

    /// The centre of the box.
    #[inline]
    pub fn center(&self) -> Point {
        nalgebra::center(&self.mins, &self.maxs)
    }

    /// Half the size along each axis.
    #[inline]
    pub fn half_extents(&self) -> Vector {
        (self.maxs - self.mins) * 0.5
    }

    /// Area of the box (zero for a degenerate box).
    #[inline]
    pub fn area(&self) -> Real {
        let e = self.maxs - self.mins;
        e.x.max(0.0) * e.y.max(0.0)
    }

    /// A box holding `shape` at every pose of `sweep` for t in [0, 1].
    ///
    /// Without rotation, [`Aabb::swept_in_disc`]. With rotation, also within the start box
    /// swept along the centre of mass's path and grown by the farthest any point turns
    /// about the centre of mass (its bounding radius times the angle, at most: an arc is no
    /// shorter than its chord); the smaller of the two boxes' extents is kept on each side.
    /// A paddle 40 long turning 5 degrees sweeps a box 4.6 wide, where its bounding disc's
    /// box is 40 by 40. The world's swept boxes, which give the contact solver its pairs, and
    /// the steppers' planning are these boxes.
    ///
    /// The box is padded by a few ulps of its coordinates so that poses computed in floating
    /// point at any intermediate t stay inside it.
    pub fn swept(shape: &Shape, sweep: &Sweep) -> Self {
        if sweep.angvel() == 0.0 {
            return Self::swept_in_disc(shape, sweep);
        }
        let r = shape.bounding_radius(&sweep.local_center());
        let (c0, c1) = (sweep.center_at(0.0), sweep.center_at(1.0));
        let path = Self::from_points([c0, c1]);
        let disc = path.inflated(r);
        let start = shape.aabb(&sweep.start());
        let turn = r * sweep.rotation_angle().abs();
        let turned =
            Self::new(start.mins + (path.mins - c0), start.maxs + (path.maxs - c0)).inflated(turn);
        let exact = Self::new(disc.mins.sup(&turned.mins), disc.maxs.inf(&turned.maxs));
        exact.inflated(exact.rounding_pad())
    }

    /// A box holding `shape` at every pose of `sweep` for t in [0, 1], by the shape's
    /// bounding disc when it turns.
    ///
    /// Without rotation this is the union of the start and end boxes, which is exact for a
    /// translating convex shape. With rotation, the shape stays inside the disc of its
    /// [`Shape::bounding_radius`] about the centre of mass, and the centre of mass moves on a
    /// straight line, so the box of that disc at both ends holds every intermediate pose
    /// whatever the number of turns. [`Aabb::swept`] is never larger.
    ///
    /// The box is padded by a few ulps of its coordinates so that poses computed in floating
    /// point at any intermediate t stay inside it.
    pub fn swept_in_disc(shape: &Shape, sweep: &Sweep) -> Self {
        let exact = if sweep.angvel() == 0.0 {
            shape
                .aabb(&sweep.start())
                .merged(&shape.aabb(&sweep.pose_at(1.0)))
        } else {
            let r = shape.bounding_radius(&sweep.local_center());
            let c0 = sweep.center_at(0.0);
            let c1 = sweep.center_at(1.0);
            Self::from_points([c0, c1]).inflated(r)
        };
        exact.inflated(exact.rounding_pad())
    }

    /// [`Aabb::swept`] for a sweep that does not move at all (no velocity, no turn), from its
    /// one pose: the same box, padded the same way, up to the sign of a zero coordinate (the
    /// end pose adds a zero displacement to the start's translation). Half the work for the
    /// shapes of static ground, whose boxes a pair query may test by the hundred.
    pub fn still(shape: &Shape, pose: &Isometry) -> Self {
        let exact = shape.aabb(pose);
        exact.inflated(exact.rounding_pad())
    }

    /// A few ulps of the largest coordinate magnitude of the box.
    fn rounding_pad(&self) -> Real {
        let scale = self.mins.coords.abs().sup(&self.maxs.coords.abs()).max();
        8.0 * Real::EPSILON * scale
    }
}

/// Whether the boxes with corners `a_min`, `a_max` and `b_min`, `b_max` (`[x, y]`) share at
/// least one point, touching counts: [`Aabb::intersects`] for boxes kept as corners (the
/// broadphase's tree envelopes).
///
/// One four-wide comparison and one branch: pair searches make these by the tens of
/// thousands with outcomes close to a coin toss, and four compare-and-branch steps
/// mispredicted far more often than one. Any NaN coordinate fails its lane, as it fails `<=`.
#[inline]
pub fn corners_meet(
    a_min: [Real; 2],
    a_max: [Real; 2],
    b_min: [Real; 2],
    b_max: [Real; 2],
) -> bool {
    let lower = F64x4::from([a_min[0], a_min[1], b_min[0], b_min[1]]);
    let upper = F64x4::from([b_max[0], b_max[1], a_max[0], a_max[1]]);
    lower.simd_le(upper).to_bitmask() == 0b1111
}
