//! What a joint is made from: [`JointDef`] (the two bodies, their anchors, the reference
//! angle, what the joint does to their collisions and when it breaks) and [`JointKind`],
//! the constraint itself with its limits, motor and spring, each kind with Box2D v3's
//! defaults and a validation that names the field.

use crate::body_set::{BodyHandle, BodySet};
use crate::error::{SolverError, finite, finite_point, finite_vector, non_negative, positive};
use impact_geometry::{Point, Real, Vector};

/// Two bodies held together, where, and how: the definition a joint is created from
/// ([`JointSet::insert`](crate::JointSet::insert)).
///
/// The anchors are in each body's own frame (about its origin, like a shape's offset, not its
/// centre of mass); the reference angle is body B's angle minus body A's at which the joint
/// is at rest (a revolute joint's angle reads 0 there, its limits and spring count from it).
/// [`JointDef::at_world_anchor`] fills all three from the bodies' current poses.
///
/// ```
/// use impact_geometry::{Circle, Isometry, Point};
/// use impact_solver::{BodySet, JointDef, JointKind, JointSet, RevoluteJoint, RigidBodyDef};
///
/// let mut bodies = BodySet::new();
/// let ground = bodies.insert(RigidBodyDef::fixed(Circle::new(0.1)?.into()))?;
/// let bob = bodies.insert(RigidBodyDef::new(Circle::new(0.1)?.into())
///     .pose(Isometry::translation(2.0, 0.0)))?;
/// let hinge = RevoluteJoint::default();
/// let def = JointDef::at_world_anchor(&bodies, ground, bob, Point::origin(), hinge.into())?;
/// assert_eq!(def.local_anchor_b, Point::new(-2.0, 0.0));
/// let mut joints = JointSet::new();
/// let handle = joints.insert(&bodies, def)?;
/// assert!(matches!(joints.get(handle).unwrap().kind(), JointKind::Revolute(_)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointDef {
    /// The first body (for a mouse joint, usually a fixed body: only B is pulled).
    pub body_a: BodyHandle,
    /// The second body; it must differ from `body_a`.
    pub body_b: BodyHandle,
    /// The anchor on A, in A's frame (world units).
    pub local_anchor_a: Point,
    /// The anchor on B, in B's frame (world units).
    pub local_anchor_b: Point,
    /// B's angle minus A's at rest (radians, finite).
    pub reference_angle: Real,
    /// Whether the two bodies' shapes may still collide (default `false`: they never do,
    /// whatever their filters; `true` defers to the filters).
    pub collide_connected: bool,
    /// The joint breaks (is removed at the end of a step, with an event) when the length of
    /// its reaction force exceeds this (newtons, positive; `None`, the default: never).
    #[cfg_attr(feature = "serde", serde(default))]
    pub break_force: Option<Real>,
    /// The same for the size of its reaction torque (newton metres, positive; `None`, the
    /// default: never).
    #[cfg_attr(feature = "serde", serde(default))]
    pub break_torque: Option<Real>,
    /// Whether the joint acts (default `true`); a disabled joint keeps its handle and still
    /// counts for `collide_connected`.
    pub enabled: bool,
    /// The constraint.
    pub kind: JointKind,
}

impl JointDef {
    /// A joint of `kind` between `body_a` and `body_b` at both bodies' origins, reference
    /// angle 0, not colliding, unbreakable, enabled.
    pub fn new(body_a: BodyHandle, body_b: BodyHandle, kind: JointKind) -> Self {
        Self {
            body_a,
            body_b,
            local_anchor_a: Point::origin(),
            local_anchor_b: Point::origin(),
            reference_angle: 0.0,
            collide_connected: false,
            break_force: None,
            break_torque: None,
            enabled: true,
            kind,
        }
    }

    /// A joint of `kind` whose anchors meet at `anchor` (world frame) with the bodies where
    /// they are now, and whose reference angle is their current relative angle. A prismatic
    /// or wheel joint's axis is read as a world direction and turned into A's frame.
    ///
    /// # Errors
    /// [`SolverError::UnknownBody`] naming `joint.body_a` / `joint.body_b`,
    /// [`SolverError::NotFinite`] naming `joint.anchor`.
    pub fn at_world_anchor(
        bodies: &BodySet,
        body_a: BodyHandle,
        body_b: BodyHandle,
        anchor: Point,
        kind: JointKind,
    ) -> Result<Self, SolverError> {
        Self::at_world_anchors(bodies, body_a, body_b, (anchor, anchor), kind)
    }

    /// As [`JointDef::at_world_anchor`] with a separate anchor on each body (world frame):
    /// what a distance joint or a rope between two points needs.
    ///
    /// # Errors
    /// As [`JointDef::at_world_anchor`], naming `joint.anchor_a` / `joint.anchor_b`.
    pub fn at_world_anchors(
        bodies: &BodySet,
        body_a: BodyHandle,
        body_b: BodyHandle,
        (anchor_a, anchor_b): (Point, Point),
        mut kind: JointKind,
    ) -> Result<Self, SolverError> {
        let a = bodies.try_get(body_a, "joint.body_a")?;
        let b = bodies.try_get(body_b, "joint.body_b")?;
        finite_point("joint.anchor_a", &anchor_a)?;
        finite_point("joint.anchor_b", &anchor_b)?;
        let (pose_a, pose_b) = (a.pose(), b.pose());
        if let Some(axis) = kind.axis_mut() {
            *axis = pose_a.rotation.inverse() * *axis;
        }
        Ok(Self {
            local_anchor_a: pose_a.inverse_transform_point(&anchor_a),
            local_anchor_b: pose_b.inverse_transform_point(&anchor_b),
            reference_angle: (pose_b.rotation * pose_a.rotation.inverse()).angle(),
            ..Self::new(body_a, body_b, kind)
        })
    }

    /// Sets both local anchors.
    #[must_use]
    pub fn local_anchors(mut self, a: Point, b: Point) -> Self {
        self.local_anchor_a = a;
        self.local_anchor_b = b;
        self
    }

    /// Sets the reference angle (radians).
    #[must_use]
    pub fn reference_angle(mut self, angle: Real) -> Self {
        self.reference_angle = angle;
        self
    }

    /// Sets whether the bodies' shapes may collide (see [`JointDef::collide_connected`]).
    #[must_use]
    pub fn collide_connected(mut self, collide: bool) -> Self {
        self.collide_connected = collide;
        self
    }

    /// Sets the break thresholds (newtons and newton metres; `None` for never).
    #[must_use]
    pub fn break_at(mut self, force: Option<Real>, torque: Option<Real>) -> Self {
        self.break_force = force;
        self.break_torque = torque;
        self
    }

    /// Checks every field against `bodies`.
    ///
    /// # Errors
    /// [`SolverError`] naming `joint.body_a` / `joint.body_b` (no such body),
    /// `joint` (both the same body), `joint.local_anchor_a` / `joint.local_anchor_b` /
    /// `joint.reference_angle` (not finite), `joint.break_force` / `joint.break_torque` (not
    /// positive), or a field of the kind (see [`JointKind::validate`]).
    pub fn validate(&self, bodies: &BodySet) -> Result<(), SolverError> {
        bodies.try_get(self.body_a, "joint.body_a")?;
        bodies.try_get(self.body_b, "joint.body_b")?;
        if self.body_a == self.body_b {
            return Err(SolverError::SameBody {
                field: "joint".to_owned(),
                handle: self.body_a,
            });
        }
        finite_point("joint.local_anchor_a", &self.local_anchor_a)?;
        finite_point("joint.local_anchor_b", &self.local_anchor_b)?;
        finite("joint.reference_angle", self.reference_angle)?;
        if let Some(force) = self.break_force {
            positive("joint.break_force", force)?;
        }
        if let Some(torque) = self.break_torque {
            positive("joint.break_torque", torque)?;
        }
        self.kind.validate()
    }
}

/// Checks `lower <= upper` (both finite).
fn ordered(field: &str, lower: Real, upper: Real) -> Result<(), SolverError> {
    finite(&format!("{field}.lower"), lower)?;
    finite(&format!("{field}.upper"), upper)?;
    if lower <= upper {
        Ok(())
    } else {
        Err(SolverError::OutOfRange {
            field: format!("{field}.lower"),
            value: lower,
            expected: "at most the upper limit",
        })
    }
}

/// A spring's frequency (Hz, zero or more: zero is no spring force) and damping ratio (zero
/// or more).
fn spring(field: &str, hertz: Real, damping_ratio: Real) -> Result<(), SolverError> {
    non_negative(&format!("{field}.spring_hertz"), hertz)?;
    non_negative(&format!("{field}.spring_damping_ratio"), damping_ratio)?;
    Ok(())
}

/// A motor's target speed (finite) and the most it may apply (zero or more).
fn motor(field: &str, speed: Real, max: Real, max_name: &str) -> Result<(), SolverError> {
    finite(&format!("{field}.motor_speed"), speed)?;
    non_negative(&format!("{field}.{max_name}"), max)?;
    Ok(())
}

/// A unit axis, given as any finite non-zero vector (normalised on creation).
fn axis(field: &str, v: &Vector) -> Result<(), SolverError> {
    finite_vector(field, v)?;
    positive(&format!("{field}.length"), v.norm()).map(|_| ())
}

/// What the joint constrains: one of the seven kinds, each with its own settings.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "snake_case"))]
pub enum JointKind {
    /// A hinge: the anchors coincide, the bodies turn freely about them.
    Revolute(RevoluteJoint),
    /// A slider: B's anchor moves along A's axis, no relative turning.
    Prismatic(PrismaticJoint),
    /// Glued: the anchors coincide and the relative angle stays the reference angle.
    Weld(WeldJoint),
    /// The anchors stay a length apart (rigid, a spring, or a rope with limits).
    Distance(DistanceJoint),
    /// A wheel on a suspension: B's anchor slides along A's axis on a spring, B turns freely.
    Wheel(WheelJoint),
    /// Drives B's pose relative to A toward a target with bounded force and torque.
    Motor(MotorJoint),
    /// Pulls B's anchor toward a world target through a soft spring with bounded force.
    Mouse(MouseJoint),
}

impl JointKind {
    /// The kind's name, as scene files write it (`"revolute"`, `"prismatic"`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Self::Revolute(_) => "revolute",
            Self::Prismatic(_) => "prismatic",
            Self::Weld(_) => "weld",
            Self::Distance(_) => "distance",
            Self::Wheel(_) => "wheel",
            Self::Motor(_) => "motor",
            Self::Mouse(_) => "mouse",
        }
    }

    /// Checks the kind's fields.
    ///
    /// # Errors
    /// [`SolverError`] naming the field under `joint.<kind>.` : limits not ordered or not
    /// finite, negative spring frequency, damping, motor torque or force, a zero or
    /// non-finite axis, a non-positive length, a correction factor outside `[0, 1]`.
    pub fn validate(&self) -> Result<(), SolverError> {
        match self {
            Self::Revolute(j) => j.validate(),
            Self::Prismatic(j) => j.validate(),
            Self::Weld(j) => j.validate(),
            Self::Distance(j) => j.validate(),
            Self::Wheel(j) => j.validate(),
            Self::Motor(j) => j.validate(),
            Self::Mouse(j) => j.validate(),
        }
    }

    /// The axis of a prismatic or wheel joint, in A's frame.
    pub(crate) fn axis_mut(&mut self) -> Option<&mut Vector> {
        match self {
            Self::Prismatic(j) => Some(&mut j.local_axis_a),
            Self::Wheel(j) => Some(&mut j.local_axis_a),
            _ => None,
        }
    }
}

macro_rules! into_kind {
    ($($t:ident => $v:ident),*) => {$(
        impl From<$t> for JointKind {
            fn from(j: $t) -> Self {
                Self::$v(j)
            }
        }
    )*};
}
into_kind!(RevoluteJoint => Revolute, PrismaticJoint => Prismatic, WeldJoint => Weld,
    DistanceJoint => Distance, WheelJoint => Wheel, MotorJoint => Motor, MouseJoint => Mouse);

/// A hinge (Box2D's `b2RevoluteJointDef`): the anchors coincide; the joint angle is B's angle
/// minus A's minus the reference angle, counted continuously past a half turn.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct RevoluteJoint {
    /// Whether the angle is kept within `[lower_angle, upper_angle]` (default `false`).
    pub enable_limit: bool,
    /// The lowest joint angle (radians, at most `upper_angle`).
    pub lower_angle: Real,
    /// The highest joint angle (radians).
    pub upper_angle: Real,
    /// Whether the motor drives the relative angular speed (default `false`).
    pub enable_motor: bool,
    /// The motor's target for B's angular speed minus A's (radians per second).
    pub motor_speed: Real,
    /// The most torque the motor applies (newton metres, zero or more).
    pub max_motor_torque: Real,
    /// Whether an angular spring pulls the joint angle toward 0 (default `false`).
    pub enable_spring: bool,
    /// The spring's frequency (Hz, zero or more).
    pub spring_hertz: Real,
    /// The spring's damping ratio (zero or more).
    pub spring_damping_ratio: Real,
}

impl Default for RevoluteJoint {
    fn default() -> Self {
        Self {
            enable_limit: false,
            lower_angle: 0.0,
            upper_angle: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
            enable_spring: false,
            spring_hertz: 0.0,
            spring_damping_ratio: 0.0,
        }
    }
}

impl RevoluteJoint {
    /// Limits the joint angle to `[lower, upper]` (radians).
    #[must_use]
    pub fn limits(mut self, lower: Real, upper: Real) -> Self {
        (self.enable_limit, self.lower_angle, self.upper_angle) = (true, lower, upper);
        self
    }

    /// A motor toward `speed` (radians per second) with at most `max_torque` (N m).
    #[must_use]
    pub fn motor(mut self, speed: Real, max_torque: Real) -> Self {
        (self.enable_motor, self.motor_speed, self.max_motor_torque) = (true, speed, max_torque);
        self
    }

    /// An angular spring toward angle 0 of `hertz` and `damping_ratio`.
    #[must_use]
    pub fn spring(mut self, hertz: Real, damping_ratio: Real) -> Self {
        (
            self.enable_spring,
            self.spring_hertz,
            self.spring_damping_ratio,
        ) = (true, hertz, damping_ratio);
        self
    }

    fn validate(&self) -> Result<(), SolverError> {
        ordered("joint.revolute.angle", self.lower_angle, self.upper_angle)?;
        motor(
            "joint.revolute",
            self.motor_speed,
            self.max_motor_torque,
            "max_motor_torque",
        )?;
        spring(
            "joint.revolute",
            self.spring_hertz,
            self.spring_damping_ratio,
        )
    }
}

/// A slider (Box2D's `b2PrismaticJointDef`): B's anchor stays on the line through A's anchor
/// along `local_axis_a`, and the relative angle stays the reference angle. The translation
/// is B's anchor minus A's along the axis.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct PrismaticJoint {
    /// The axis in A's frame (any finite non-zero vector; normalised; default x).
    pub local_axis_a: Vector,
    /// Whether the translation is kept within `[lower_translation, upper_translation]`.
    pub enable_limit: bool,
    /// The lowest translation (world units, at most `upper_translation`).
    pub lower_translation: Real,
    /// The highest translation (world units).
    pub upper_translation: Real,
    /// Whether the motor drives the speed along the axis.
    pub enable_motor: bool,
    /// The motor's target speed along the axis (units per second).
    pub motor_speed: Real,
    /// The most force the motor applies (newtons, zero or more).
    pub max_motor_force: Real,
    /// Whether a spring pulls the translation toward 0.
    pub enable_spring: bool,
    /// The spring's frequency (Hz, zero or more).
    pub spring_hertz: Real,
    /// The spring's damping ratio (zero or more).
    pub spring_damping_ratio: Real,
}

impl Default for PrismaticJoint {
    fn default() -> Self {
        Self {
            local_axis_a: Vector::x(),
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
            enable_spring: false,
            spring_hertz: 0.0,
            spring_damping_ratio: 0.0,
        }
    }
}

impl PrismaticJoint {
    /// A slider along `axis` (in A's frame, or the world's through
    /// [`JointDef::at_world_anchor`]).
    pub fn along(axis: Vector) -> Self {
        Self {
            local_axis_a: axis,
            ..Self::default()
        }
    }

    /// Limits the translation to `[lower, upper]` (world units).
    #[must_use]
    pub fn limits(mut self, lower: Real, upper: Real) -> Self {
        (
            self.enable_limit,
            self.lower_translation,
            self.upper_translation,
        ) = (true, lower, upper);
        self
    }

    /// A motor toward `speed` (units per second) with at most `max_force` (N).
    #[must_use]
    pub fn motor(mut self, speed: Real, max_force: Real) -> Self {
        (self.enable_motor, self.motor_speed, self.max_motor_force) = (true, speed, max_force);
        self
    }

    /// A spring toward translation 0 of `hertz` and `damping_ratio`.
    #[must_use]
    pub fn spring(mut self, hertz: Real, damping_ratio: Real) -> Self {
        (
            self.enable_spring,
            self.spring_hertz,
            self.spring_damping_ratio,
        ) = (true, hertz, damping_ratio);
        self
    }

    fn validate(&self) -> Result<(), SolverError> {
        axis("joint.prismatic.local_axis_a", &self.local_axis_a)?;
        ordered(
            "joint.prismatic.translation",
            self.lower_translation,
            self.upper_translation,
        )?;
        motor(
            "joint.prismatic",
            self.motor_speed,
            self.max_motor_force,
            "max_motor_force",
        )?;
        spring(
            "joint.prismatic",
            self.spring_hertz,
            self.spring_damping_ratio,
        )
    }
}

/// Glued together (Box2D's `b2WeldJointDef`): rigid where a frequency is 0 (the default),
/// else a spring of that frequency on the anchors' offset or on the angle.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct WeldJoint {
    /// Frequency of the linear spring (Hz, zero or more; 0: rigid).
    pub linear_hertz: Real,
    /// Damping ratio of the linear spring (zero or more).
    pub linear_damping_ratio: Real,
    /// Frequency of the angular spring (Hz, zero or more; 0: rigid).
    pub angular_hertz: Real,
    /// Damping ratio of the angular spring (zero or more).
    pub angular_damping_ratio: Real,
}

impl WeldJoint {
    /// A soft weld: linear and angular springs.
    pub fn soft(linear: (Real, Real), angular: (Real, Real)) -> Self {
        Self {
            linear_hertz: linear.0,
            linear_damping_ratio: linear.1,
            angular_hertz: angular.0,
            angular_damping_ratio: angular.1,
        }
    }

    /// Whether both parts are rigid.
    pub fn is_rigid(&self) -> bool {
        self.linear_hertz == 0.0 && self.angular_hertz == 0.0
    }

    fn validate(&self) -> Result<(), SolverError> {
        non_negative("joint.weld.linear_hertz", self.linear_hertz)?;
        non_negative("joint.weld.linear_damping_ratio", self.linear_damping_ratio)?;
        non_negative("joint.weld.angular_hertz", self.angular_hertz)?;
        non_negative(
            "joint.weld.angular_damping_ratio",
            self.angular_damping_ratio,
        )?;
        Ok(())
    }
}

/// The anchors a length apart (Box2D's `b2DistanceJointDef`): rigid at `length`, or with
/// `enable_spring` a spring toward it (frequency 0: no force at all), and with
/// `enable_limit` never shorter than `min_length` nor longer than `max_length`. A rope is a
/// spring of frequency 0 with only a maximum ([`DistanceJoint::rope`]).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct DistanceJoint {
    /// The rest length (world units, positive; default 1).
    pub length: Real,
    /// Whether the length is a spring instead of rigid.
    pub enable_spring: bool,
    /// The spring's frequency (Hz, zero or more).
    pub spring_hertz: Real,
    /// The spring's damping ratio (zero or more).
    pub spring_damping_ratio: Real,
    /// Whether `[min_length, max_length]` holds (one-sided rows).
    pub enable_limit: bool,
    /// The shortest length (world units, zero or more, at most `max_length`).
    pub min_length: Real,
    /// The longest length (world units; default `Real::MAX`, no maximum: a finite value, so
    /// that every format writes it).
    pub max_length: Real,
    /// Whether the motor drives the rate the length changes.
    pub enable_motor: bool,
    /// The motor's target rate of lengthening (units per second).
    pub motor_speed: Real,
    /// The most force the motor applies (newtons, zero or more).
    pub max_motor_force: Real,
}

impl Default for DistanceJoint {
    fn default() -> Self {
        Self {
            length: 1.0,
            enable_spring: false,
            spring_hertz: 0.0,
            spring_damping_ratio: 0.0,
            enable_limit: false,
            min_length: 0.0,
            max_length: Real::MAX,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
        }
    }
}

impl DistanceJoint {
    /// A rigid rod of `length`.
    pub fn rod(length: Real) -> Self {
        Self {
            length,
            ..Self::default()
        }
    }

    /// A rope: slack up to `max_length`, taut there.
    pub fn rope(max_length: Real) -> Self {
        Self {
            length: max_length,
            enable_spring: true,
            enable_limit: true,
            max_length,
            ..Self::default()
        }
    }

    /// A spring of `hertz` and `damping_ratio` toward `length`.
    pub fn spring(length: Real, hertz: Real, damping_ratio: Real) -> Self {
        Self {
            length,
            enable_spring: true,
            spring_hertz: hertz,
            spring_damping_ratio: damping_ratio,
            ..Self::default()
        }
    }

    /// Limits the length to `[min, max]`.
    #[must_use]
    pub fn limits(mut self, min: Real, max: Real) -> Self {
        (self.enable_limit, self.min_length, self.max_length) = (true, min, max);
        self
    }

    /// A motor toward lengthening at `speed` with at most `max_force` (N).
    #[must_use]
    pub fn motor(mut self, speed: Real, max_force: Real) -> Self {
        (self.enable_motor, self.motor_speed, self.max_motor_force) = (true, speed, max_force);
        self
    }

    fn validate(&self) -> Result<(), SolverError> {
        positive("joint.distance.length", self.length)?;
        non_negative("joint.distance.min_length", self.min_length)?;
        if self.max_length.is_nan() || self.max_length < self.min_length {
            return Err(SolverError::OutOfRange {
                field: "joint.distance.max_length".to_owned(),
                value: self.max_length,
                expected: "at least min_length",
            });
        }
        spring(
            "joint.distance",
            self.spring_hertz,
            self.spring_damping_ratio,
        )?;
        motor(
            "joint.distance",
            self.motor_speed,
            self.max_motor_force,
            "max_motor_force",
        )
    }
}

/// A wheel on a suspension (Box2D's `b2WheelJointDef`): B's anchor stays on the line through
/// A's anchor along `local_axis_a`, held along it by a spring; B turns freely, driven by an
/// optional motor.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct WheelJoint {
    /// The suspension axis in A's frame (any finite non-zero vector; default y).
    pub local_axis_a: Vector,
    /// Whether the suspension is a spring (default `true`; else it slides freely).
    pub enable_spring: bool,
    /// The suspension's frequency (Hz, zero or more; default 1).
    pub spring_hertz: Real,
    /// The suspension's damping ratio (zero or more; default 0.7).
    pub spring_damping_ratio: Real,
    /// Whether the translation is kept within `[lower_translation, upper_translation]`.
    pub enable_limit: bool,
    /// The lowest translation along the axis (world units).
    pub lower_translation: Real,
    /// The highest translation along the axis (world units).
    pub upper_translation: Real,
    /// Whether the motor drives B's angular speed relative to A.
    pub enable_motor: bool,
    /// The motor's target angular speed (radians per second).
    pub motor_speed: Real,
    /// The most torque the motor applies (newton metres, zero or more).
    pub max_motor_torque: Real,
}

impl Default for WheelJoint {
    fn default() -> Self {
        Self {
            local_axis_a: Vector::y(),
            enable_spring: true,
            spring_hertz: 1.0,
            spring_damping_ratio: 0.7,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
        }
    }
}

impl WheelJoint {
    /// A wheel whose suspension runs along `axis`.
    pub fn along(axis: Vector) -> Self {
        Self {
            local_axis_a: axis,
            ..Self::default()
        }
    }

    /// The suspension spring.
    #[must_use]
    pub fn spring(mut self, hertz: Real, damping_ratio: Real) -> Self {
        (
            self.enable_spring,
            self.spring_hertz,
            self.spring_damping_ratio,
        ) = (true, hertz, damping_ratio);
        self
    }

    /// Limits the suspension's travel to `[lower, upper]`.
    #[must_use]
    pub fn limits(mut self, lower: Real, upper: Real) -> Self {
        (
            self.enable_limit,
            self.lower_translation,
            self.upper_translation,
        ) = (true, lower, upper);
        self
    }

    /// A motor toward `speed` (radians per second) with at most `max_torque` (N m).
    #[must_use]
    pub fn motor(mut self, speed: Real, max_torque: Real) -> Self {
        (self.enable_motor, self.motor_speed, self.max_motor_torque) = (true, speed, max_torque);
        self
    }

    fn validate(&self) -> Result<(), SolverError> {
        axis("joint.wheel.local_axis_a", &self.local_axis_a)?;
        ordered(
            "joint.wheel.translation",
            self.lower_translation,
            self.upper_translation,
        )?;
        spring("joint.wheel", self.spring_hertz, self.spring_damping_ratio)?;
        motor(
            "joint.wheel",
            self.motor_speed,
            self.max_motor_torque,
            "max_motor_torque",
        )
    }
}

/// Drives B's pose relative to A toward a target (Box2D's `b2MotorJointDef`): B's centre
/// toward `linear_offset` in A's frame, the relative angle toward `angular_offset`, with at
/// most `max_force` and `max_torque`, closing `correction_factor` of the error per second
/// per unit of the substep rate.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct MotorJoint {
    /// B's anchor's target position relative to A's anchor, in A's frame (world units).
    pub linear_offset: Vector,
    /// The target of B's angle minus A's minus the reference angle (radians).
    pub angular_offset: Real,
    /// The most force applied (newtons, zero or more; default 1).
    pub max_force: Real,
    /// The most torque applied (newton metres, zero or more; default 1).
    pub max_torque: Real,
    /// How much of the position error is corrected per substep (in `[0, 1]`; default 0.3).
    pub correction_factor: Real,
}

impl Default for MotorJoint {
    fn default() -> Self {
        Self {
            linear_offset: Vector::zeros(),
            angular_offset: 0.0,
            max_force: 1.0,
            max_torque: 1.0,
            correction_factor: 0.3,
        }
    }
}

impl MotorJoint {
    fn validate(&self) -> Result<(), SolverError> {
        finite_vector("joint.motor.linear_offset", &self.linear_offset)?;
        finite("joint.motor.angular_offset", self.angular_offset)?;
        non_negative("joint.motor.max_force", self.max_force)?;
        non_negative("joint.motor.max_torque", self.max_torque)?;
        crate::error::in_range(
            "joint.motor.correction_factor",
            self.correction_factor,
            0.0,
            1.0,
            "in [0, 1]",
        )
        .map(|_| ())
    }
}

/// Pulls B's anchor toward a point of the world (Box2D's `b2MouseJointDef`): a soft spring of
/// `hertz` and `damping_ratio` with at most `max_force`; what a pointer dragging a body uses.
/// Body A only names the joint (usually a fixed body) and is never pulled.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct MouseJoint {
    /// Where B's anchor is pulled (world frame, world units).
    pub target: Point,
    /// The spring's frequency (Hz, positive; default 5).
    pub hertz: Real,
    /// The spring's damping ratio (zero or more; default 0.7).
    pub damping_ratio: Real,
    /// The most force applied (newtons, zero or more; default 1,000).
    pub max_force: Real,
}

impl Default for MouseJoint {
    fn default() -> Self {
        Self {
            target: Point::origin(),
            hertz: 5.0,
            damping_ratio: 0.7,
            max_force: 1000.0,
        }
    }
}

impl MouseJoint {
    /// Pulls toward `target` with the default spring and at most `max_force`.
    pub fn toward(target: Point, max_force: Real) -> Self {
        Self {
            target,
            max_force,
            ..Self::default()
        }
    }

    fn validate(&self) -> Result<(), SolverError> {
        finite_point("joint.mouse.target", &self.target)?;
        positive("joint.mouse.hertz", self.hertz)?;
        non_negative("joint.mouse.damping_ratio", self.damping_ratio)?;
        non_negative("joint.mouse.max_force", self.max_force)?;
        Ok(())
    }
}
