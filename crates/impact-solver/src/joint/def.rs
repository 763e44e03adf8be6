//! What a joint is made from: [`JointDef`] (the two bodies, their anchors, the reference
//! angle, what the joint does to their collisions and when it breaks) and [`JointKind`],
//! the constraint itself with its limits, motor and spring, each kind with Box2D v3's
//! defaults and a validation that names the field.

pub use super::kinds::{
    DistanceJoint, MAX_JOINT_MAGNITUDE, MotorJoint, MouseJoint, PrismaticJoint, RevoluteJoint,
    WeldJoint, WheelJoint,
};
use crate::body_set::{BodyHandle, BodySet};
use crate::error::{SolverError, finite, finite_point, positive};
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
    /// B's angle minus A's at rest (radians, finite). Whole turns do not count: the joint
    /// angle (B's angle minus A's minus this) is read in `(-pi, pi]`, so `0.3 + 2 pi` is the
    /// joint of `0.3`.
    pub reference_angle: Real,
    /// Whether the two bodies' shapes may still collide (default `false`: they never do,
    /// whatever their filters; `true` defers to the filters).
    pub collide_connected: bool,
    /// The joint breaks (is removed at the end of a step, with an event) when the length of
    /// its reaction force exceeds this (newtons; positive, or infinite for never, the
    /// default; serialized as none, `null` in JSON, which has no infinity).
    #[cfg_attr(feature = "serde", serde(with = "infinite_as_none"))]
    pub break_force: Real,
    /// The same for the length of its reaction torque (newton metres; positive or
    /// infinite, the default, serialized as none).
    #[cfg_attr(feature = "serde", serde(with = "infinite_as_none"))]
    pub break_torque: Real,
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
            break_force: Real::INFINITY,
            break_torque: Real::INFINITY,
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

    /// Sets the break thresholds (newtons and newton metres; infinite for never).
    #[must_use]
    pub fn break_at(mut self, force: Real, torque: Real) -> Self {
        self.break_force = force;
        self.break_torque = torque;
        self
    }

    /// Checks every field against `bodies`.
    ///
    /// # Errors
    /// [`SolverError`] naming `joint.body_a` / `joint.body_b` (no such body),
    /// `joint` (both the same body), `joint.local_anchor_a` / `joint.local_anchor_b` /
    /// `joint.reference_angle` (not finite, or a coordinate or angle past
    /// [`MAX_JOINT_MAGNITUDE`]), `joint.break_force` / `joint.break_torque` (not positive),
    /// or a field of the kind (see [`JointKind::validate`]).
    pub fn validate(&self, bodies: &BodySet) -> Result<(), SolverError> {
        bodies.try_get(self.body_a, "joint.body_a")?;
        bodies.try_get(self.body_b, "joint.body_b")?;
        self.validate_fields()
    }

    /// Checks every field but whether the bodies exist: what a joint restored from a
    /// snapshot must satisfy without its body set at hand (errors as
    /// [`JointDef::validate`]).
    pub(crate) fn validate_fields(&self) -> Result<(), SolverError> {
        if self.body_a == self.body_b {
            return Err(SolverError::SameBody {
                field: "joint".to_owned(),
                handle: self.body_a,
            });
        }
        finite_point("joint.local_anchor_a", &self.local_anchor_a)?;
        finite_point("joint.local_anchor_b", &self.local_anchor_b)?;
        finite("joint.reference_angle", self.reference_angle)?;
        positive_or_infinite("joint.break_force", self.break_force)?;
        positive_or_infinite("joint.break_torque", self.break_torque)?;
        let (a, b) = (&self.local_anchor_a, &self.local_anchor_b);
        super::kinds::bounded(
            "joint",
            &[
                ("local_anchor_a.x", a.x),
                ("local_anchor_a.y", a.y),
                ("local_anchor_b.x", b.x),
                ("local_anchor_b.y", b.y),
                ("reference_angle", self.reference_angle),
            ],
        )?;
        self.kind.validate()
    }
}

/// Serde for a value that may be `+inf` (no threshold, no maximum): written as none (JSON's
/// `null`; JSON has no infinity, and `serde_json` would write `null` and then refuse to read
/// it back), read back as `+inf`; any other value is written as is.
#[cfg(feature = "serde")]
pub(crate) mod infinite_as_none {
    use impact_geometry::Real;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(value: &Real, s: S) -> Result<S::Ok, S::Error> {
        if *value == Real::INFINITY {
            s.serialize_none()
        } else {
            s.serialize_some(value)
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Real, D::Error> {
        Ok(Option::<Real>::deserialize(d)?.unwrap_or(Real::INFINITY))
    }
}

/// `value` is positive (infinity allowed), else an error naming `field`.
fn positive_or_infinite(field: &str, value: Real) -> Result<(), SolverError> {
    if value == Real::INFINITY {
        Ok(())
    } else {
        positive(field, value).map(|_| ())
    }
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
    /// non-finite axis, a non-positive length, a correction factor outside `[0, 1]`, any
    /// number past [`MAX_JOINT_MAGNITUDE`] (but a distance joint's `max_length`).
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
    #[cfg(feature = "serde")]
    pub(crate) fn axis(&self) -> Option<&Vector> {
        match self {
            Self::Prismatic(j) => Some(&j.local_axis_a),
            Self::Wheel(j) => Some(&j.local_axis_a),
            _ => None,
        }
    }

    /// The axis of a prismatic or wheel joint, in A's frame, to change.
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
