//! The motion of a body over one step.

use crate::validate::{finite, finite_point, finite_vector, positive};
use crate::{GeometryError, Isometry, Point, Real, Vector};

/// The motion of a body over one step of duration `dt`: its pose at the start, and constant
/// linear and angular velocity, rotating about the centre of mass.
///
/// Times inside the step are fractions `t` in `[0, 1]` (absolute time `t * dt`). The centre of
/// mass moves on a straight line, `c(t) = c0 + linvel * dt * t`; the angle grows linearly,
/// `theta(t) = theta0 + angvel * dt * t`, with no wrapping, so a sweep may turn many times.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "SweepDef", into = "SweepDef"))]
pub struct Sweep {
    start: Isometry,
    local_center: Point,
    linvel: Vector,
    angvel: Real,
    dt: Real,
}

impl Sweep {
    /// A sweep starting at `start` (pose of the body frame), with the centre of mass at
    /// `local_center` (body frame), moving at `linvel` (world units per second, of the centre
    /// of mass) and `angvel` (radians per second, counter-clockwise) for `dt` seconds.
    ///
    /// # Errors
    /// [`GeometryError`] naming `sweep.start`, `sweep.local_center`, `sweep.linvel`,
    /// `sweep.angvel` (not finite) or `sweep.dt` (not finite or not positive).
    #[inline]
    pub fn new(
        start: Isometry,
        local_center: Point,
        linvel: Vector,
        angvel: Real,
        dt: Real,
    ) -> Result<Self, GeometryError> {
        // Every number at once in the usual case: the checks that name the bad field run
        // only when one is bad (conservative advancement and the steppers build sweeps in
        // their inner loops). Their sum is finite whenever every number is, unless it
        // overflows, which only sends a good sweep through the checks (a finiteness test per
        // number cost 50 instructions).
        let t = start.translation.vector;
        let sum = t.x
            + t.y
            + start.rotation.re
            + start.rotation.im
            + local_center.x
            + local_center.y
            + linvel.x
            + linvel.y
            + angvel
            + dt;
        let sweep = Self {
            start,
            local_center,
            linvel,
            angvel,
            dt,
        };
        if !(sum.is_finite() && dt > 0.0) {
            sweep.check()?;
        }
        Ok(sweep)
    }

    /// The checks of [`Sweep::new`] that name the bad field, out of line: the constructors
    /// are inlined into the queries' and steppers' inner loops (a stationary sweep per
    /// candidate of a shape cast), where a call and its result's copy cost more than the
    /// sum.
    #[cold]
    #[inline(never)]
    fn check(&self) -> Result<(), GeometryError> {
        let (start, local_center) = (self.start, self.local_center);
        finite_vector("sweep.start.translation", &start.translation.vector)?;
        finite("sweep.start.rotation.re", start.rotation.re)?;
        finite("sweep.start.rotation.im", start.rotation.im)?;
        finite_point("sweep.local_center", &local_center)?;
        finite_vector("sweep.linvel", &self.linvel)?;
        finite("sweep.angvel", self.angvel)?;
        positive("sweep.dt", self.dt).map(|_| ())
    }

    /// A body that translates by `displacement` over the step (unit duration, no rotation,
    /// centre of mass at the body origin).
    ///
    /// # Errors
    /// As [`Sweep::new`].
    #[inline]
    pub fn translating(start: Isometry, displacement: Vector) -> Result<Self, GeometryError> {
        Self::new(start, Point::origin(), displacement, 0.0, 1.0)
    }

    /// A body that does not move (unit duration).
    ///
    /// # Errors
    /// As [`Sweep::new`].
    #[inline]
    pub fn stationary(start: Isometry) -> Result<Self, GeometryError> {
        Self::translating(start, Vector::zeros())
    }

    /// The pose of the body frame at the start of the step.
    #[inline]
    pub fn start(&self) -> Isometry {
        self.start
    }

    /// The centre of mass in the body frame: the point the body rotates about.
    #[inline]
    pub fn local_center(&self) -> Point {
        self.local_center
    }

    /// Linear velocity of the centre of mass (world units per second).
    #[inline]
    pub fn linvel(&self) -> Vector {
        self.linvel
    }

    /// Angular velocity (radians per second, counter-clockwise positive).
    #[inline]
    pub fn angvel(&self) -> Real {
        self.angvel
    }

    /// Duration of the step (seconds).
    #[inline]
    pub fn dt(&self) -> Real {
        self.dt
    }

    /// Whether the body turns during the step.
    #[inline]
    pub fn rotates(&self) -> bool {
        self.angvel != 0.0
    }

    /// How far the centre of mass (and, without rotation, every point) moves over the step.
    #[inline]
    pub fn displacement(&self) -> Vector {
        self.linvel * self.dt
    }

    /// The angle turned over the whole step (radians).
    #[inline]
    pub fn rotation_angle(&self) -> Real {
        self.angvel * self.dt
    }

    /// The centre of mass in world coordinates at fraction `t`.
    #[inline]
    pub fn center_at(&self, t: Real) -> Point {
        self.start * self.local_center + self.linvel * (self.dt * t)
    }

    /// The body angle (radians, unwrapped) at fraction `t`.
    #[inline]
    pub fn angle_at(&self, t: Real) -> Real {
        self.start.rotation.angle() + self.angvel * (self.dt * t)
    }

    /// The velocity (world units per second) of the body's material point that is at world
    /// position `point` at fraction `t` of the sweep: the linear velocity plus the rotation's
    /// about the centre of mass there.
    ///
    /// ```
    /// use impact_geometry::{Isometry, Point, Sweep, Vector};
    ///
    /// let sweep = Sweep::new(Isometry::identity(), Point::origin(), Vector::new(1.0, 0.0), 2.0, 1.0)
    ///     .unwrap();
    /// // Half way, the centre is at (0.5, 0); a point 1 above it moves at 1 - 2 = -1 along x.
    /// let v = sweep.velocity_at(0.5, &Point::new(0.5, 1.0));
    /// assert!((v - Vector::new(-1.0, 0.0)).norm() < 1e-12);
    /// ```
    #[inline]
    pub fn velocity_at(&self, t: Real, point: &Point) -> Vector {
        self.linvel() + crate::cross_scalar_vector(self.angvel(), &(point - self.center_at(t)))
    }

    /// The pose of the body frame at fraction `t` (meant for `t` in `[0, 1]`; other values
    /// extrapolate the same motion).
    ///
    /// Without rotation the start rotation is reused as is, so a translating body keeps its
    /// orientation bit for bit.
    pub fn pose_at(&self, t: Real) -> Isometry {
        if self.angvel == 0.0 {
            return Isometry::from_parts(
                (self.start.translation.vector + self.linvel * (self.dt * t)).into(),
                self.start.rotation,
            );
        }
        // Composing with the start rotation avoids recovering the start angle with atan2 on
        // every call (conservative advancement evaluates poses in its inner loop).
        let rotation = self.start.rotation * crate::trig::rotation_by(self.angvel * (self.dt * t));
        let center = self.center_at(t);
        Isometry::from_parts(
            (center.coords - rotation * self.local_center.coords).into(),
            rotation,
        )
    }

    /// The sweep with the velocities scaled to cover the sub-interval `[t0, 1]` of this one,
    /// starting from the pose at `t0`; used by steppers that advance to an impact and go on.
    ///
    /// # Errors
    /// [`GeometryError`] naming `sweep.dt` if `t0` leaves no positive time.
    pub fn remainder_from(&self, t0: Real) -> Result<Self, GeometryError> {
        Self::new(
            self.pose_at(t0),
            self.local_center,
            self.linvel,
            self.angvel,
            self.dt * (1.0 - t0),
        )
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct SweepDef {
    start: Isometry,
    local_center: Point,
    linvel: Vector,
    angvel: Real,
    dt: Real,
}

#[cfg(feature = "serde")]
impl TryFrom<SweepDef> for Sweep {
    type Error = GeometryError;
    fn try_from(d: SweepDef) -> Result<Self, GeometryError> {
        Self::new(d.start, d.local_center, d.linvel, d.angvel, d.dt)
    }
}

#[cfg(feature = "serde")]
impl From<Sweep> for SweepDef {
    fn from(s: Sweep) -> Self {
        Self {
            start: s.start,
            local_center: s.local_center,
            linvel: s.linvel,
            angvel: s.angvel,
            dt: s.dt,
        }
    }
}
