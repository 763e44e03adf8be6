//! The shapes of a body: [`ShapeDef`], what a further shape is created from, and
//! [`BodyShape`], one validated shape with its own density, material, filter, sensor flag and
//! contact force threshold.
//!
//! A body owns one or more shapes, all in the body frame (a shape's local pose is in its
//! vertices and centre: `ConvexPolygon::new` of offset corners, `Circle::with_center`). The
//! body's mass, centre of mass and inertia come from all of them
//! ([`MassProperties::combine`], the parallel-axis theorem) unless set by hand. Each shape is
//! its own broadphase proxy and collides, is filtered and is reported on its own, named by a
//! [`ShapeId`](crate::ShapeId): the body and the shape's place in the body's list.

use crate::error::{SolverError, in_range, non_negative};
use crate::filter::CollisionFilter;
use crate::material::Material;
use impact_geometry::{MassProperties, Real, Shape};

/// Everything needed to add a shape to a body, with defaults for all but the geometry:
/// density 1, the default [`Material`] (friction 0.6, restitution 0), the default filter,
/// not a sensor, no contact force threshold.
///
/// The first shape of a body is given by [`RigidBodyDef`](crate::RigidBodyDef)'s own fields
/// (`shape`, `density`, `friction`, ...); further shapes by
/// [`RigidBodyDef::with_shape`](crate::RigidBodyDef::with_shape) or
/// [`RigidBody::add_shape`](crate::RigidBody::add_shape). Fields are public and unchecked;
/// validation names the first bad field (`body.shapes[2].density`, ...).
///
/// ```
/// use impact_geometry::{ConvexPolygon, Point};
/// use impact_solver::{RigidBody, RigidBodyDef, ShapeDef};
///
/// // An L of two unit-wide boxes: a 3 x 1 foot and a 1 x 2 leg on its left end.
/// let foot = ConvexPolygon::new(&[
///     Point::new(0.0, 0.0), Point::new(3.0, 0.0), Point::new(3.0, 1.0), Point::new(0.0, 1.0),
/// ])?;
/// let leg = ConvexPolygon::new(&[
///     Point::new(0.0, 1.0), Point::new(1.0, 1.0), Point::new(1.0, 3.0), Point::new(0.0, 3.0),
/// ])?;
/// let body = RigidBody::new(
///     RigidBodyDef::new(foot.into()).with_shape(ShapeDef::new(leg.into()).friction(0.2)),
/// )?;
/// assert_eq!(body.shapes().len(), 2);
/// assert!((body.mass() - 5.0).abs() < 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShapeDef {
    /// The geometry, in the body frame.
    pub shape: Shape,
    /// Mass per unit area, zero or more (default 1). Ignored when the body's mass properties
    /// are set by hand.
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub density: Real,
    /// Coulomb friction coefficient, zero or more (default 0.6).
    #[cfg_attr(feature = "serde", serde(default = "default_friction"))]
    pub friction: Real,
    /// Coefficient of restitution in `[0, 1]` (default 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub restitution: Real,
    /// What the shape is and collides with (default: everything).
    #[cfg_attr(feature = "serde", serde(default))]
    pub filter: CollisionFilter,
    /// A sensor never collides and reports what overlaps it (default `false`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub sensor: bool,
    /// The contact force (newtons) above which this shape's contacts report force events
    /// (default `None`: none).
    #[cfg_attr(feature = "serde", serde(default))]
    pub contact_force_threshold: Option<Real>,
}

#[cfg(feature = "serde")]
fn one() -> Real {
    1.0
}

#[cfg(feature = "serde")]
fn default_friction() -> Real {
    Material::default().friction()
}

impl ShapeDef {
    /// `shape` with density 1, the default material and filter, not a sensor.
    pub fn new(shape: Shape) -> Self {
        let material = Material::default();
        Self {
            shape,
            density: 1.0,
            friction: material.friction(),
            restitution: material.restitution(),
            filter: CollisionFilter::DEFAULT,
            sensor: false,
            contact_force_threshold: None,
        }
    }

    /// Sets the density (mass per unit area).
    #[must_use]
    pub fn density(mut self, density: Real) -> Self {
        self.density = density;
        self
    }

    /// Sets the friction coefficient.
    #[must_use]
    pub fn friction(mut self, friction: Real) -> Self {
        self.friction = friction;
        self
    }

    /// Sets the coefficient of restitution.
    #[must_use]
    pub fn restitution(mut self, restitution: Real) -> Self {
        self.restitution = restitution;
        self
    }

    /// Sets friction and restitution from a validated material.
    #[must_use]
    pub fn material(mut self, material: Material) -> Self {
        self.friction = material.friction();
        self.restitution = material.restitution();
        self
    }

    /// Sets the collision filter.
    #[must_use]
    pub fn filter(mut self, filter: CollisionFilter) -> Self {
        self.filter = filter;
        self
    }

    /// Makes the shape a sensor (or not).
    #[must_use]
    pub fn sensor(mut self, sensor: bool) -> Self {
        self.sensor = sensor;
        self
    }

    /// Sets the contact force threshold (newtons, zero or more).
    #[must_use]
    pub fn contact_force_threshold(mut self, threshold: Real) -> Self {
        self.contact_force_threshold = Some(threshold);
        self
    }
}

/// One shape of a body, validated: its geometry in the body frame, density, material,
/// collision filter, sensor flag and contact force threshold.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyShape {
    shape: Shape,
    density: Real,
    material: Material,
    filter: CollisionFilter,
    sensor: bool,
    contact_force_threshold: Option<Real>,
}

impl BodyShape {
    /// Validates `def`; `field` is the path its errors are named under (`"body.shapes[1]"`).
    ///
    /// # Errors
    /// [`SolverError`] naming `{field}.density`, `{field}.friction` (negative or not finite),
    /// `{field}.restitution` (outside `[0, 1]`) or `{field}.contact_force_threshold`.
    pub fn new(def: ShapeDef, field: &str) -> Result<Self, SolverError> {
        let density = non_negative(&format!("{field}.density"), def.density)?;
        let restitution = in_range(
            &format!("{field}.restitution"),
            def.restitution,
            0.0,
            1.0,
            "in [0, 1]",
        )?;
        let friction = non_negative(&format!("{field}.friction"), def.friction)?;
        if let Some(t) = def.contact_force_threshold {
            non_negative(&format!("{field}.contact_force_threshold"), t)?;
        }
        Ok(Self {
            shape: def.shape,
            density,
            material: Material::new(restitution, friction)?,
            filter: def.filter,
            sensor: def.sensor,
            contact_force_threshold: def.contact_force_threshold,
        })
    }

    /// The definition that recreates this shape.
    pub fn to_def(&self) -> ShapeDef {
        ShapeDef {
            shape: self.shape.clone(),
            density: self.density,
            friction: self.material.friction(),
            restitution: self.material.restitution(),
            filter: self.filter,
            sensor: self.sensor,
            contact_force_threshold: self.contact_force_threshold,
        }
    }

    /// The geometry, in the body frame.
    #[inline]
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Mass per unit area.
    #[inline]
    pub fn density(&self) -> Real {
        self.density
    }

    /// The surface material.
    #[inline]
    pub fn material(&self) -> Material {
        self.material
    }

    /// The collision filter.
    #[inline]
    pub fn filter(&self) -> CollisionFilter {
        self.filter
    }

    /// Whether the shape is a sensor.
    #[inline]
    pub fn is_sensor(&self) -> bool {
        self.sensor
    }

    /// The contact force threshold (newtons), if any.
    #[inline]
    pub fn contact_force_threshold(&self) -> Option<Real> {
        self.contact_force_threshold
    }

    /// The shape's mass properties at its density, in the body frame.
    pub(crate) fn mass_properties(&self) -> MassProperties {
        // The density was validated, which is all `from_shape` checks.
        MassProperties::from_shape(&self.shape, self.density).unwrap_or(MassProperties::ZERO)
    }

    pub(crate) fn set_material(&mut self, material: Material) {
        self.material = material;
    }

    pub(crate) fn set_filter(&mut self, filter: CollisionFilter) {
        self.filter = filter;
    }

    pub(crate) fn set_contact_force_threshold(&mut self, threshold: Option<Real>) {
        self.contact_force_threshold = threshold;
    }
}
