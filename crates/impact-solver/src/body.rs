//! Rigid bodies: [`RigidBody`], validated from a [`RigidBodyDef`].

mod shapes;

pub(crate) use crate::body_def::{BodyType, RigidBodyDef};
use crate::error::{
    SolverError, finite, finite_point, finite_vector, non_negative, positive, valid_pose,
};
use crate::shape_def::BodyShape;
use impact_geometry::{
    BoxTree, Isometry, MassProperties, Point, Real, Rotation, Shape, Sweep, Vector, cross,
    cross_scalar_vector,
};
use shapes::{body_shapes, combined_mass, largest_radius, shape_tree};

/// A rigid body: one or more shapes, a pose, velocities, mass properties and a material.
///
/// The pose is that of the body frame (the frame the shape is defined in); the body rotates
/// about its centre of mass, [`RigidBody::local_center`] in that frame. Velocities are those
/// of the centre of mass. Static and kinematic bodies have infinite mass: their inverse mass
/// and inverse inertia are zero, which is how the solver treats them without special cases.
///
/// Every field is valid by construction; setters validate and return [`SolverError`].
///
/// With the `serde` feature a body serializes as its [`RigidBodyDef`] plus its current state
/// and is validated again on deserialization; mass properties are recomputed from the same
/// inputs, so a restored body is bit-identical.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "RigidBodyDef", into = "RigidBodyDef")
)]
pub struct RigidBody {
    body_type: BodyType,
    /// One or more; the first is the one the definition's own fields describe.
    shapes: Vec<BodyShape>,
    /// A tree over the shapes' boxes in the body frame, for a body of more than
    /// [`shapes::TREE_FROM`] shapes (else empty): see [`RigidBody::shapes_near`].
    shape_tree: BoxTree,
    pose: Isometry,
    linvel: Vector,
    angvel: Real,
    mass_override: Option<MassProperties>,
    mass: Real,
    inv_mass: Real,
    inertia: Real,
    inv_inertia: Real,
    local_center: Point,
    /// [`RigidBody::bounding_radius`] about `local_center`.
    center_radius: Real,
    linear_damping: Real,
    angular_damping: Real,
    ccd: bool,
    user_data: u128,
    can_sleep: bool,
    sleep_threshold: Real,
}

impl RigidBody {
    /// Validates `def` into a body.
    ///
    /// Mass and inertia come from `def.mass_properties` when set, else from the shape's
    /// [`MassProperties`] at `def.density`. Static and kinematic bodies keep those numbers
    /// for reference but act with infinite mass.
    ///
    /// # Errors
    /// [`SolverError`] naming the first bad field: `body.pose` (not finite or not a unit
    /// rotation), `body.linvel`, `body.angvel` (not finite, or non-zero on a static body),
    /// `body.density`, `body.linear_damping`, `body.angular_damping`, `body.friction`
    /// (not finite or negative), `body.restitution` (outside `[0, 1]`),
    /// `body.mass_properties.mass` / `.inertia` (not positive and finite),
    /// `body.mass_properties.local_center` (not finite), `body.contact_force_threshold` (not
    /// finite or negative), `body.sleep_threshold` (not finite or negative), or `body.mass`
    /// for a dynamic body whose shape and density give
    /// zero mass.
    pub fn new(def: RigidBodyDef) -> Result<Self, SolverError> {
        valid_pose("body.pose", &def.pose)?;
        finite_vector("body.linvel", &def.linvel)?;
        finite("body.angvel", def.angvel)?;
        if def.body_type == BodyType::Static {
            // A static body that reported a velocity would push contacts while staying put.
            for (field, value) in [
                ("body.linvel.x", def.linvel.x),
                ("body.linvel.y", def.linvel.y),
                ("body.angvel", def.angvel),
            ] {
                if value != 0.0 {
                    return Err(SolverError::OutOfRange {
                        field: field.to_owned(),
                        value,
                        expected: "zero for a static body (use a kinematic body to move it)",
                    });
                }
            }
        }
        let linear_damping = non_negative("body.linear_damping", def.linear_damping)?;
        let angular_damping = non_negative("body.angular_damping", def.angular_damping)?;
        let sleep_threshold = non_negative("body.sleep_threshold", def.sleep_threshold)?;
        let shapes = body_shapes(&def)?;
        let props = match def.mass_properties {
            Some(p) => {
                positive("body.mass_properties.mass", p.mass)?;
                positive("body.mass_properties.inertia", p.inertia)?;
                finite_point("body.mass_properties.local_center", &p.local_center)?;
                p
            }
            None => combined_mass(&shapes),
        };
        let (inv_mass, inv_inertia) = inverse_mass(def.body_type, &props)?;
        let center_radius = largest_radius(&shapes, &props.local_center);
        Ok(Self {
            body_type: def.body_type,
            shape_tree: shape_tree(&shapes),
            shapes,
            pose: def.pose,
            linvel: def.linvel,
            angvel: def.angvel,
            mass_override: def.mass_properties,
            mass: props.mass,
            inv_mass,
            inertia: props.inertia,
            inv_inertia,
            local_center: props.local_center,
            center_radius,
            linear_damping,
            angular_damping,
            ccd: def.ccd,
            user_data: def.user_data,
            can_sleep: def.can_sleep,
            sleep_threshold,
        })
    }

    /// The definition that recreates this body in its current state (pose and velocities
    /// included).
    pub fn to_def(&self) -> RigidBodyDef {
        let first = &self.shapes[0];
        RigidBodyDef {
            body_type: self.body_type,
            shape: first.shape().clone(),
            pose: self.pose,
            linvel: self.linvel,
            angvel: self.angvel,
            density: first.density(),
            mass_properties: self.mass_override,
            restitution: first.material().restitution(),
            friction: first.material().friction(),
            linear_damping: self.linear_damping,
            angular_damping: self.angular_damping,
            ccd: self.ccd,
            user_data: self.user_data,
            filter: first.filter(),
            sensor: first.is_sensor(),
            contact_force_threshold: first.contact_force_threshold(),
            can_sleep: self.can_sleep,
            sleep_threshold: self.sleep_threshold,
            shapes: self.shapes[1..].iter().map(BodyShape::to_def).collect(),
        }
    }

    /// Dynamic, static or kinematic.
    #[inline]
    pub fn body_type(&self) -> BodyType {
        self.body_type
    }

    /// Whether contacts and gravity move this body.
    #[inline]
    pub fn is_dynamic(&self) -> bool {
        self.body_type == BodyType::Dynamic
    }

    /// The body's first (or only) shape, in the body frame; [`RigidBody::shapes`] has them
    /// all.
    #[inline]
    pub fn shape(&self) -> &Shape {
        self.shapes[0].shape()
    }

    /// The pose of the body frame.
    #[inline]
    pub fn pose(&self) -> &Isometry {
        &self.pose
    }

    /// Moves the body frame to `pose` (velocities unchanged). Steppers use it to place a body
    /// at its time of impact.
    ///
    /// # Errors
    /// [`SolverError`] naming `body.pose` if it is not finite or not a unit rotation.
    pub fn set_pose(&mut self, pose: Isometry) -> Result<(), SolverError> {
        valid_pose("body.pose", &pose)?;
        self.pose = pose;
        Ok(())
    }

    /// The body angle (radians, in `(-pi, pi]`).
    #[inline]
    pub fn angle(&self) -> Real {
        self.pose.rotation.angle()
    }

    /// The centre of mass in the body frame.
    #[inline]
    pub fn local_center(&self) -> Point {
        self.local_center
    }

    /// The centre of mass in the world.
    #[inline]
    pub fn center_of_mass(&self) -> Point {
        self.pose * self.local_center
    }

    /// Linear velocity of the centre of mass (world units per second).
    #[inline]
    pub fn linvel(&self) -> Vector {
        self.linvel
    }

    /// Sets the linear velocity.
    ///
    /// # Errors
    /// [`SolverError`] naming `body.linvel` if it is not finite, or non-zero on a static body.
    pub fn set_linvel(&mut self, linvel: Vector) -> Result<(), SolverError> {
        finite_vector("body.linvel", &linvel)?;
        if self.body_type == BodyType::Static && linvel != Vector::zeros() {
            return Err(SolverError::OutOfRange {
                field: "body.linvel".to_owned(),
                value: linvel.norm(),
                expected: "zero for a static body (use a kinematic body to move it)",
            });
        }
        self.linvel = linvel;
        Ok(())
    }

    /// Angular velocity (radians per second, counter-clockwise).
    #[inline]
    pub fn angvel(&self) -> Real {
        self.angvel
    }

    /// Sets the angular velocity.
    ///
    /// # Errors
    /// [`SolverError`] naming `body.angvel` if it is not finite, or non-zero on a static body.
    pub fn set_angvel(&mut self, angvel: Real) -> Result<(), SolverError> {
        finite("body.angvel", angvel)?;
        if self.body_type == BodyType::Static && angvel != 0.0 {
            return Err(SolverError::OutOfRange {
                field: "body.angvel".to_owned(),
                value: angvel,
                expected: "zero for a static body (use a kinematic body to move it)",
            });
        }
        self.angvel = angvel;
        Ok(())
    }

    /// Sets both velocities, or neither: the linear one as [`RigidBody::set_linvel`], the
    /// angular one as [`RigidBody::set_angvel`].
    ///
    /// # Errors
    /// As those two; the body is unchanged then.
    pub fn set_velocity(&mut self, linvel: Vector, angvel: Real) -> Result<(), SolverError> {
        let old = self.linvel;
        self.set_linvel(linvel)?;
        if let Err(e) = self.set_angvel(angvel) {
            self.linvel = old;
            return Err(e);
        }
        Ok(())
    }

    /// The velocity of the material point of the body at world position `point`:
    /// `v + w x (point - center)`.
    #[inline]
    pub fn velocity_at_point(&self, point: &Point) -> Vector {
        self.linvel + cross_scalar_vector(self.angvel, &(point - self.center_of_mass()))
    }

    /// The mass (of the shape at its density, or set by hand). Static and kinematic bodies
    /// report it but act with infinite mass; see [`RigidBody::inv_mass`].
    #[inline]
    pub fn mass(&self) -> Real {
        self.mass
    }

    /// The inverse mass the solver uses: `1 / mass` for dynamic bodies, 0 otherwise.
    #[inline]
    pub fn inv_mass(&self) -> Real {
        self.inv_mass
    }

    /// The angular inertia about the centre of mass.
    #[inline]
    pub fn inertia(&self) -> Real {
        self.inertia
    }

    /// The inverse inertia the solver uses: `1 / inertia` for dynamic bodies, 0 otherwise.
    #[inline]
    pub fn inv_inertia(&self) -> Real {
        self.inv_inertia
    }

    /// The linear damping rate (1/s).
    #[inline]
    pub fn linear_damping(&self) -> Real {
        self.linear_damping
    }

    /// The angular damping rate (1/s).
    #[inline]
    pub fn angular_damping(&self) -> Real {
        self.angular_damping
    }

    /// Sets the linear and angular damping rates.
    ///
    /// # Errors
    /// [`SolverError`] naming `body.linear_damping` or `body.angular_damping` if negative or
    /// not finite.
    pub fn set_damping(&mut self, linear: Real, angular: Real) -> Result<(), SolverError> {
        let linear = non_negative("body.linear_damping", linear)?;
        let angular = non_negative("body.angular_damping", angular)?;
        self.linear_damping = linear;
        self.angular_damping = angular;
        Ok(())
    }

    /// Whether the stepper sweeps this body continuously.
    #[inline]
    pub fn ccd(&self) -> bool {
        self.ccd
    }

    /// Turns continuous collision detection on or off for this body.
    #[inline]
    pub fn set_ccd(&mut self, ccd: bool) {
        self.ccd = ccd;
    }

    /// Whether the body may fall asleep (see [`RigidBodyDef::can_sleep`]).
    #[inline]
    pub fn can_sleep(&self) -> bool {
        self.can_sleep
    }

    /// Lets the body fall asleep, or keeps it awake. Through a world, a body kept awake
    /// that sleeps is woken at the next step (the world wakes any body handed out mutably).
    #[inline]
    pub fn set_can_sleep(&mut self, can_sleep: bool) {
        self.can_sleep = can_sleep;
    }

    /// The speed below which the body counts as at rest for sleeping (world units per
    /// second; see [`RigidBodyDef::sleep_threshold`]).
    #[inline]
    pub fn sleep_threshold(&self) -> Real {
        self.sleep_threshold
    }

    /// Sets the sleep threshold (world units per second).
    ///
    /// # Errors
    /// [`SolverError`] naming `body.sleep_threshold` if negative or not finite.
    pub fn set_sleep_threshold(&mut self, threshold: Real) -> Result<(), SolverError> {
        self.sleep_threshold = non_negative("body.sleep_threshold", threshold)?;
        Ok(())
    }

    /// Whether the body moves slower than its sleep threshold: its linear speed, and its
    /// angular speed times its extent (the bounding radius about the centre of mass, as
    /// Box2D v3's `maxExtent`), both below it. Static bodies are always at rest; a body
    /// that cannot sleep never is.
    pub fn is_resting(&self) -> bool {
        if self.body_type == BodyType::Static {
            return true;
        }
        if !self.can_sleep {
            return false;
        }
        let threshold = self.sleep_threshold;
        if self.linvel.norm_squared() > threshold * threshold {
            return false;
        }
        self.angvel == 0.0
            || self.angvel.abs() * self.bounding_radius(&self.local_center) <= threshold
    }

    /// The user data.
    #[inline]
    pub fn user_data(&self) -> u128 {
        self.user_data
    }

    /// Replaces the user data.
    #[inline]
    pub fn set_user_data(&mut self, user_data: u128) {
        self.user_data = user_data;
    }

    /// Applies `impulse` (mass times velocity, world frame) at world position `point`,
    /// changing both velocities of a dynamic body; static and kinematic bodies ignore it.
    ///
    /// # Errors
    /// [`SolverError`] naming `impulse` or `point` if not finite; the body is unchanged.
    pub fn apply_impulse_at_point(
        &mut self,
        impulse: Vector,
        point: Point,
    ) -> Result<(), SolverError> {
        finite_vector("impulse", &impulse)?;
        finite_point("point", &point)?;
        let r = point - self.center_of_mass();
        self.apply_impulse_unchecked(&impulse, &r);
        Ok(())
    }

    /// Applies `impulse` at lever arm `r` (from the centre of mass); no-op on infinite mass.
    #[inline]
    pub(crate) fn apply_impulse_unchecked(&mut self, impulse: &Vector, r: &Vector) {
        self.linvel += impulse * self.inv_mass;
        self.angvel += self.inv_inertia * cross(r, impulse);
    }

    /// Writes solver velocities back (dynamic bodies only; the caller checks).
    #[inline]
    pub(crate) fn set_velocity_unchecked(&mut self, linvel: Vector, angvel: Real) {
        self.linvel = linvel;
        self.angvel = angvel;
    }

    /// Kinetic energy `m v^2 / 2 + I w^2 / 2` (dynamic bodies; 0 for the others, whose mass
    /// is infinite and which no impulse can speed up or slow down).
    pub fn kinetic_energy(&self) -> Real {
        if !self.is_dynamic() {
            return 0.0;
        }
        0.5 * (self.mass * self.linvel.norm_squared() + self.inertia * self.angvel * self.angvel)
    }

    /// Linear momentum `m v` (zero for static and kinematic bodies).
    pub fn linear_momentum(&self) -> Vector {
        if self.is_dynamic() {
            self.linvel * self.mass
        } else {
            Vector::zeros()
        }
    }

    /// Angular momentum about the fixed world point `origin`: `I w + (c - origin) x m v`
    /// (zero for static and kinematic bodies).
    pub fn angular_momentum_about(&self, origin: &Point) -> Real {
        if !self.is_dynamic() {
            return 0.0;
        }
        self.inertia * self.angvel
            + cross(&(self.center_of_mass() - origin), &self.linear_momentum())
    }

    /// The body's motion over the next `dt` seconds at its current velocities, for the
    /// stepper's broadphase and time-of-impact queries. A static body gets a stationary sweep.
    ///
    /// [`integrate_positions`](crate::integrate_positions) with the same `dt` lands exactly
    /// (bit for bit) on `sweep.pose_at(1.0)`.
    ///
    /// # Errors
    /// [`SolverError::Geometry`] naming `sweep.dt` if `dt` is not positive and finite.
    pub fn sweep(&self, dt: Real) -> Result<Sweep, SolverError> {
        let (linvel, angvel) = match self.body_type {
            BodyType::Static => (Vector::zeros(), 0.0),
            BodyType::Dynamic | BodyType::Kinematic => (self.linvel, self.angvel),
        };
        Ok(Sweep::new(
            self.pose,
            self.local_center,
            linvel,
            angvel,
            dt,
        )?)
    }

    /// Moves the body along its velocities for `dt` seconds, rotating about the centre of
    /// mass. Mirrors [`Sweep::pose_at`] at `t = 1` operation for operation, so the pose a
    /// stepper predicted from [`RigidBody::sweep`] is the pose the body reaches.
    pub(crate) fn advance(&mut self, dt: Real) {
        advance_pose(
            &mut self.pose,
            &self.local_center,
            &self.linvel,
            self.angvel,
            dt,
        );
    }

    /// Moves the body over `dt` seconds of free flight in which its velocities went from
    /// `(linvel0, angvel0)` to the current ones: along their mean, which is the exact
    /// constant-acceleration path (`x0 + v0 dt + g dt^2 / 2` under gravity alone), where
    /// moving along the end velocity (semi-implicit Euler) would sink a falling body by
    /// `g dt^2 / 2` per step and lose that much of its height between bounces.
    pub(crate) fn advance_free(&mut self, dt: Real, linvel0: &Vector, angvel0: Real) {
        // Halves first: no overflow, and the same bits as the velocity when it did not change
        // (and as the contact solver's bodies that fly free).
        let linvel = linvel0 * 0.5 + self.linvel * 0.5;
        let angvel = angvel0 * 0.5 + self.angvel * 0.5;
        advance_pose(&mut self.pose, &self.local_center, &linvel, angvel, dt);
    }

    /// Sets the pose without validation (the solver writes back poses it integrated itself
    /// with [`advance_pose`]).
    #[inline]
    pub(crate) fn set_pose_unchecked(&mut self, pose: Isometry) {
        self.pose = pose;
    }
}

/// [`RigidBody::advance`] on a pose: moves `pose` along `linvel` and `angvel` for `dt`
/// seconds, rotating about the centre of mass `local_center` (body frame). The one place
/// this arithmetic lives, so the solver's own integration of its bodies lands on the same
/// bits as [`integrate_positions`](crate::integrate_positions).
#[inline]
pub(crate) fn advance_pose(
    pose: &mut Isometry,
    local_center: &Point,
    linvel: &Vector,
    angvel: Real,
    dt: Real,
) {
    if angvel == 0.0 {
        // Pure translation keeps the rotation bits, as the sweep does.
        pose.translation.vector += linvel * (dt * 1.0);
        return;
    }
    let turn = impact_geometry::rotation_by(angvel * (dt * 1.0));
    advance_pose_turned(pose, local_center, linvel, turn, dt);
}

/// [`advance_pose`] of a body that turns, given the rotation by `angvel * dt` (the
/// [`rotation_by`](impact_geometry::rotation_by) of that angle, or one lane of
/// [`rotations_by`](impact_geometry::rotations_by), the same bits).
#[inline]
pub(crate) fn advance_pose_turned(
    pose: &mut Isometry,
    local_center: &Point,
    linvel: &Vector,
    turn: Rotation,
    dt: Real,
) {
    let start_center = *pose * local_center;
    // Composed, as `Sweep::pose_at` does: the same bits as the sweep's end pose, and no
    // `atan2` to recover the start angle.
    let rotation = pose.rotation * turn;
    let center = start_center + linvel * (dt * 1.0);
    *pose = Isometry::from_parts(
        (center.coords - rotation * local_center.coords).into(),
        rotation,
    );
}

#[cfg(feature = "serde")]
impl TryFrom<RigidBodyDef> for RigidBody {
    type Error = SolverError;
    fn try_from(def: RigidBodyDef) -> Result<Self, SolverError> {
        Self::new(def)
    }
}

#[cfg(feature = "serde")]
impl From<RigidBody> for RigidBodyDef {
    fn from(body: RigidBody) -> Self {
        body.to_def()
    }
}

/// The inverse mass and inertia a body of `body_type` acts with: those of `props` for a
/// dynamic body (which must have positive mass), zero for static and kinematic bodies.
pub(crate) fn inverse_mass(
    body_type: BodyType,
    props: &MassProperties,
) -> Result<(Real, Real), SolverError> {
    Ok(match body_type {
        BodyType::Dynamic => {
            if props.mass <= 0.0 {
                return Err(SolverError::MasslessDynamic {
                    field: "body.mass".to_owned(),
                    value: props.mass,
                });
            }
            // Every shape with area has positive inertia; a zero could only come from
            // underflow, and then locking rotation is the sane reading.
            let inv_inertia = if props.inertia > 0.0 {
                1.0 / props.inertia
            } else {
                0.0
            };
            (1.0 / props.mass, inv_inertia)
        }
        BodyType::Static | BodyType::Kinematic => (0.0, 0.0),
    })
}
