//! A shape on its sweep, with what every bound of conservative advancement reads of it
//! precomputed: its displacement and turn over the step, its arm (the farthest core point from
//! its centre of mass), its core and rounding, and its pose, rotation and centre at any
//! fraction, bit for bit as [`Sweep::pose_at`] gives them; and how many core vertices the
//! curved bounds handle.

use impact_geometry::{
    Isometry, Point, Real, Rotation, Shape, Sweep, Vector, cross_scalar_vector, rotation_by,
};

/// How many core vertices per shape the curved bound handles (it keeps B's on the stack and
/// visits every pair); larger polygons advance by the linear bound alone.
pub(super) const CURVED_MAX_VERTICES: usize = 16;

/// A shape on its sweep, with what the bounds need precomputed.
pub(super) struct Mover<'a> {
    pub(super) shape: &'a Shape,
    pub(super) sweep: &'a Sweep,
    /// Displacement of the centre of mass over the step.
    pub(super) displacement: Vector,
    /// Angle turned over the step.
    pub(super) turn: Real,
    /// The largest distance from the centre of mass to a core point: how far rotation can
    /// move a point of the core per radian (the rounding turns in place).
    pub(super) arm: Real,
    /// The centre of mass at the start, in world coordinates.
    pub(super) start_center: Point,
    /// The shape's core and rounding, looked up once: each lookup is a match on the shape.
    pub(super) core: &'a [Point],
    pub(super) radius: Real,
}

impl<'a> Mover<'a> {
    #[inline(always)]
    pub(super) fn new(shape: &'a Shape, sweep: &'a Sweep) -> Self {
        Self {
            shape,
            sweep,
            displacement: sweep.displacement(),
            turn: sweep.rotation_angle(),
            arm: shape.core_bounding_radius(&sweep.local_center()),
            start_center: sweep.start() * sweep.local_center(),
            core: shape.core(),
            radius: shape.radius(),
        }
    }

    /// The pose at fraction `t`: [`Sweep::pose_at`] bit for bit, with the start's centre of
    /// mass computed once.
    #[inline]
    pub(super) fn pose_at(&self, t: Real) -> Isometry {
        if self.turn == 0.0 {
            return self.sweep.pose_at(t);
        }
        let rotation = self.rotation_at(t);
        let center = self.center_at(t);
        Isometry::from_parts(
            (center.coords - rotation * self.sweep.local_center().coords).into(),
            rotation,
        )
    }

    /// The rotation at fraction `t` ([`pose_at`](Self::pose_at)'s, bit for bit, when the body
    /// turns).
    #[inline]
    pub(super) fn rotation_at(&self, t: Real) -> Rotation {
        if self.turn == 0.0 {
            return self.sweep.start().rotation;
        }
        self.sweep.start().rotation * rotation_by(self.angle_at(t))
    }

    /// The angle turned from the start to fraction `t`.
    #[inline]
    pub(super) fn angle_at(&self, t: Real) -> Real {
        self.sweep.angvel() * (self.sweep.dt() * t)
    }

    /// The centre of mass at fraction `t`, in world coordinates.
    #[inline]
    pub(super) fn center_at(&self, t: Real) -> Point {
        self.start_center + self.sweep.linvel() * (self.sweep.dt() * t)
    }

    /// Radius of the circle about the centre of mass that holds the whole shape
    /// ([`Shape::bounding_radius`] about it, from the arm already known).
    #[inline]
    pub(super) fn bounding_radius(&self) -> Real {
        self.arm + self.radius
    }

    /// How fast rotation can move a core point, per step.
    #[inline]
    pub(super) fn rotation_speed(&self) -> Real {
        self.turn.abs() * self.arm
    }

    /// Bound on the centripetal acceleration of any core point, per step squared.
    #[inline]
    pub(super) fn curvature(&self) -> Real {
        self.turn * self.turn * self.arm
    }

    /// Velocity (per step) of the material point at world position `p` at `t = 0`.
    #[inline]
    pub(super) fn point_velocity(&self, p: &Point) -> Vector {
        self.displacement + cross_scalar_vector(self.turn, &(p - self.start_center))
    }
}
