//! What a body is created from: [`RigidBodyDef`] and [`BodyType`].

#[cfg(doc)]
use crate::RigidBody;
use crate::filter::CollisionFilter;
use crate::material::Material;
use crate::shape_def::ShapeDef;
use impact_geometry::{Chain, ConcaveOutline, Isometry, MassProperties, Real, Shape, Vector};

/// How a body takes part in the simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum BodyType {
    /// Moved by gravity, forces and contacts; has finite positive mass.
    #[default]
    Dynamic,
    /// Never moves; infinite mass. Ground, walls.
    Static,
    /// Moves with the velocity the user gives it, unaffected by gravity and contacts; infinite
    /// mass, so it pushes dynamic bodies and nothing pushes it. Platforms, doors.
    Kinematic,
}

/// Everything needed to create a [`RigidBody`], with defaults for all but the shape.
///
/// Fields are public and unchecked; [`RigidBody::new`] (or
/// [`BodySet::insert`](crate::BodySet::insert)) validates them and names the first bad field.
/// The setters consume and return the definition, so a body reads as one expression:
///
/// ```
/// use impact_geometry::{Circle, Isometry, Vector};
/// use impact_solver::{BodyType, RigidBody, RigidBodyDef};
///
/// let ball = RigidBody::new(
///     RigidBodyDef::new(Circle::new(0.5)?.into())
///         .pose(Isometry::translation(0.0, 4.0))
///         .linvel(Vector::new(1.0, 0.0))
///         .restitution(0.8)
///         .ccd(true),
/// )?;
/// assert_eq!(ball.body_type(), BodyType::Dynamic);
/// assert!((ball.mass() - core::f64::consts::PI * 0.25).abs() < 1e-15);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RigidBodyDef {
    /// Dynamic (default), static or kinematic.
    pub body_type: BodyType,
    /// The body's first shape, in the body frame (further ones: [`RigidBodyDef::shapes`]).
    /// The fields `density` to `contact_force_threshold` below are this shape's.
    pub shape: Shape,
    /// Pose of the body frame in the world (default: identity).
    pub pose: Isometry,
    /// Linear velocity of the centre of mass (world units per second; default zero).
    pub linvel: Vector,
    /// Angular velocity (radians per second, counter-clockwise; default zero).
    pub angvel: Real,
    /// Mass per unit area, zero or more (default 1). Ignored when `mass_properties` is set.
    pub density: Real,
    /// Mass, inertia and centre of mass set by hand instead of computed from the shape and
    /// density (default `None`). Mass and inertia must be positive and finite.
    pub mass_properties: Option<MassProperties>,
    /// Coefficient of restitution in `[0, 1]` (default 0).
    pub restitution: Real,
    /// Coulomb friction coefficient, zero or more (default 0.6).
    pub friction: Real,
    /// Linear damping rate (1/s, zero or more; default 0): see
    /// [`integrate_velocities`](crate::integrate_velocities).
    pub linear_damping: Real,
    /// Angular damping rate (1/s, zero or more; default 0).
    pub angular_damping: Real,
    /// Whether the stepper should sweep this body continuously (default `false`).
    pub ccd: bool,
    /// Free for the user: an id, an index, or a packed pointer-sized key (default 0).
    pub user_data: u128,
    /// What the shape is and collides with (default: everything; see [`CollisionFilter`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub filter: CollisionFilter,
    /// A sensor never collides: no contact, no impact, no push (default `false`). The world
    /// of impact-stepper reports the bodies that begin and end overlapping it
    /// (`World::sensor_events`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub sensor: bool,
    /// The contact force (newtons: the step's summed normal impulse over `dt`) above which
    /// this shape's contacts report force events (`World::contact_events` of
    /// impact-stepper: a pair reports above the smaller threshold of its two shapes);
    /// `None` (the default) asks for none. It is kept with the body, in snapshots and in
    /// scene files.
    #[cfg_attr(feature = "serde", serde(default))]
    pub contact_force_threshold: Option<Real>,
    /// Whether the body may fall asleep when it and its island come to rest (default
    /// `true`); `false` keeps it, and every body touching it, awake (see the sleeping of
    /// impact-stepper's `World`).
    #[cfg_attr(feature = "serde", serde(default = "can_sleep_default"))]
    pub can_sleep: bool,
    /// The speed (world units per second, zero or more) below which the body counts as at
    /// rest for sleeping: its linear speed, and its angular speed times its extent about
    /// the centre of mass (default
    /// [`SLEEP_THRESHOLD`](impact_geometry::tolerances::SLEEP_THRESHOLD), 0.05).
    #[cfg_attr(feature = "serde", serde(default = "sleep_threshold_default"))]
    pub sleep_threshold: Real,
    /// The body's further shapes, after the one the fields above describe (default none):
    /// see [`ShapeDef`]. The body's mass properties come from all of them.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub shapes: Vec<ShapeDef>,
}

impl RigidBodyDef {
    /// A dynamic body with `shape` at the origin, at rest, density 1, friction 0.6,
    /// restitution 0, no damping, no CCD.
    pub fn new(shape: Shape) -> Self {
        let material = Material::default();
        Self {
            body_type: BodyType::Dynamic,
            shape,
            pose: Isometry::identity(),
            linvel: Vector::zeros(),
            angvel: 0.0,
            density: 1.0,
            mass_properties: None,
            restitution: material.restitution(),
            friction: material.friction(),
            linear_damping: 0.0,
            angular_damping: 0.0,
            ccd: false,
            user_data: 0,
            filter: CollisionFilter::DEFAULT,
            sensor: false,
            contact_force_threshold: None,
            can_sleep: true,
            sleep_threshold: impact_geometry::tolerances::SLEEP_THRESHOLD,
            shapes: Vec::new(),
        }
    }

    /// [`RigidBodyDef::new`] as a dynamic body.
    pub fn dynamic(shape: Shape) -> Self {
        Self::new(shape)
    }

    /// [`RigidBodyDef::new`] as a static body.
    pub fn fixed(shape: Shape) -> Self {
        Self::new(shape).body_type(BodyType::Static)
    }

    /// [`RigidBodyDef::new`] as a kinematic body.
    pub fn kinematic(shape: Shape) -> Self {
        Self::new(shape).body_type(BodyType::Kinematic)
    }

    /// Sets the body type.
    #[must_use]
    pub fn body_type(mut self, body_type: BodyType) -> Self {
        self.body_type = body_type;
        self
    }

    /// Sets the pose of the body frame.
    #[must_use]
    pub fn pose(mut self, pose: Isometry) -> Self {
        self.pose = pose;
        self
    }

    /// Sets the linear velocity of the centre of mass.
    #[must_use]
    pub fn linvel(mut self, linvel: Vector) -> Self {
        self.linvel = linvel;
        self
    }

    /// Sets the angular velocity.
    #[must_use]
    pub fn angvel(mut self, angvel: Real) -> Self {
        self.angvel = angvel;
        self
    }

    /// Sets the density (mass per unit area).
    #[must_use]
    pub fn density(mut self, density: Real) -> Self {
        self.density = density;
        self
    }

    /// Sets mass, inertia and centre of mass by hand, overriding the shape and density.
    #[must_use]
    pub fn mass_properties(mut self, props: MassProperties) -> Self {
        self.mass_properties = Some(props);
        self
    }

    /// Sets the coefficient of restitution.
    #[must_use]
    pub fn restitution(mut self, restitution: Real) -> Self {
        self.restitution = restitution;
        self
    }

    /// Sets the friction coefficient.
    #[must_use]
    pub fn friction(mut self, friction: Real) -> Self {
        self.friction = friction;
        self
    }

    /// Sets restitution and friction from a validated material.
    #[must_use]
    pub fn material(mut self, material: Material) -> Self {
        self.restitution = material.restitution();
        self.friction = material.friction();
        self
    }

    /// Sets the linear and angular damping rates.
    #[must_use]
    pub fn damping(mut self, linear: Real, angular: Real) -> Self {
        self.linear_damping = linear;
        self.angular_damping = angular;
        self
    }

    /// Sets the continuous-collision flag.
    #[must_use]
    pub fn ccd(mut self, ccd: bool) -> Self {
        self.ccd = ccd;
        self
    }

    /// Sets the user data.
    #[must_use]
    pub fn user_data(mut self, user_data: u128) -> Self {
        self.user_data = user_data;
        self
    }

    /// Sets the shape's collision filter.
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

    /// Sets the contact force threshold (newtons, zero or more; see the field's docs).
    #[must_use]
    pub fn contact_force_threshold(mut self, threshold: Real) -> Self {
        self.contact_force_threshold = Some(threshold);
        self
    }

    /// Lets the body fall asleep, or keeps it awake (see the field's docs).
    #[must_use]
    pub fn can_sleep(mut self, can_sleep: bool) -> Self {
        self.can_sleep = can_sleep;
        self
    }

    /// Sets the sleep threshold (world units per second, zero or more; see the field's
    /// docs).
    #[must_use]
    pub fn sleep_threshold(mut self, threshold: Real) -> Self {
        self.sleep_threshold = threshold;
        self
    }

    /// Adds a further shape (see [`ShapeDef`]).
    #[must_use]
    pub fn with_shape(mut self, shape: ShapeDef) -> Self {
        self.shapes.push(shape);
        self
    }

    /// A dynamic body whose shapes are the convex pieces of a concave `outline` (in the body
    /// frame; see [`ConcaveOutline`] for how it is cut), each piece of density 1 and the
    /// default material like the body's own fields: set them afterwards on the definition
    /// (`density`, `friction`, ... for the first piece, [`RigidBodyDef::shapes`] for the
    /// others). The body's mass properties are the outline's.
    ///
    /// ```
    /// use impact_geometry::{ConcaveOutline, Point};
    /// use impact_solver::{RigidBody, RigidBodyDef};
    ///
    /// // An L of area 5, as one outline.
    /// let outline = ConcaveOutline::new(&[
    ///     Point::new(0.0, 0.0), Point::new(3.0, 0.0), Point::new(3.0, 1.0),
    ///     Point::new(1.0, 1.0), Point::new(1.0, 3.0), Point::new(0.0, 3.0),
    /// ])?;
    /// let body = RigidBody::new(RigidBodyDef::from_outline(&outline))?;
    /// assert_eq!(body.shapes().len(), 2);
    /// assert!((body.mass() - 5.0).abs() < 1e-12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_outline(outline: &ConcaveOutline) -> Self {
        let mut pieces = outline.convex_pieces().into_iter().map(Shape::from);
        let first = pieces
            .next()
            .expect("an outline has at least one convex piece");
        let mut def = Self::new(first);
        def.shapes = pieces.map(ShapeDef::new).collect();
        def
    }

    /// A static body whose shapes are the one-sided segments of `chain`, in order (shape `i`
    /// is segment `i`), each with the default material like the body's own fields: set a
    /// segment's friction and restitution on [`RigidBodyDef::shapes`] (or the body's own
    /// fields for segment 0). The solid side of each segment is to the right of its
    /// direction (see [`ChainSegment`](impact_geometry::ChainSegment)): ground runs right to
    /// left, a counter-clockwise loop is solid inside.
    ///
    /// ```
    /// use impact_geometry::{Chain, Point};
    /// use impact_solver::{BodyType, RigidBody, RigidBodyDef};
    ///
    /// // Ground from x = 10 to x = -10, so its solid side is below.
    /// let chain = Chain::open(&[Point::new(10.0, 0.0), Point::new(0.0, -1.0), Point::new(-10.0, 0.0)])?;
    /// let ground = RigidBody::new(RigidBodyDef::from_chain(&chain))?;
    /// assert_eq!((ground.body_type(), ground.shapes().len()), (BodyType::Static, 2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_chain(chain: &Chain) -> Self {
        let mut segments = chain.segments().map(Shape::from);
        let first = segments.next().expect("a chain has at least one segment");
        let mut def = Self::fixed(first);
        def.shapes = segments.map(ShapeDef::new).collect();
        def
    }
}

#[cfg(feature = "serde")]
fn can_sleep_default() -> bool {
    true
}

#[cfg(feature = "serde")]
fn sleep_threshold_default() -> Real {
    impact_geometry::tolerances::SLEEP_THRESHOLD
}
