//! Joints in a scene file: [`SceneJoint`] (a joint between two bodies named by their index
//! in the scene's `bodies`, so a scene stays free of any world's handles), read from a
//! `joints` entry, checked, and written back.
//!
//! A file places a joint in the world, as a program does with
//! [`JointDef::at_world_anchor`]: `anchor` (one point where both anchors are) or `anchors`
//! (one point per body, what a distance joint or a rope between two points needs) in the
//! world frame, turned into each body's frame by its pose in the file; or `local_anchors`,
//! the body-frame anchors themselves. The reference angle defaults to the bodies' relative
//! angle as placed, a distance joint's length to its anchors' distance, and a prismatic or
//! wheel joint's `axis` is read in the world frame (or `local_axis_a` in body A's). Read
//! in, every value is resolved to what [`JointDef`] holds (body-frame anchors, the
//! reference angle, the axis in A's frame); the writer gives back the world forms when they
//! read back bit for bit, as the pose writer gives an angle, and the exact body-frame ones
//! otherwise.
//!
//! The kind's own fields have the names of the Rust structs' ([`RevoluteJoint`] and the
//! others) and their defaults, so a file and a program speak of `lower_angle`,
//! `enable_motor` and `spring_hertz` alike.

mod read;
mod rules;
mod write;

pub(crate) use read::read;
pub(crate) use rules::validate;
pub(crate) use write::write;

use crate::error::SceneError;
use crate::file::Xy;
use impact_geometry::{Isometry, Point, Real, Vector};
use impact_solver::{BodyHandle, JointDef, JointKind, RigidBodyDef};

/// A joint of a [`Scene`](crate::Scene): the two bodies by their index in
/// [`Scene::bodies`](crate::Scene::bodies), and the rest of a [`JointDef`] (anchors in each
/// body's frame, about its origin; the reference angle; collisions, break thresholds and the
/// kind with its settings).
///
/// ```
/// use impact_geometry::Point;
/// use impact_scene::{Scene, SceneJoint};
/// use impact_solver::{JointKind, RevoluteJoint};
///
/// let scene = Scene::from_json(r#"{"bodies": [
///     {"type": "static", "shape": {"type": "circle", "radius": 0.05}},
///     {"shape": {"type": "circle", "radius": 0.1}, "pose": {"x": 2}}
/// ], "joints": [{"type": "revolute", "bodies": [0, 1], "anchor": [0, 0]}]}"#)?;
/// let hinge = &scene.joints[0];
/// assert_eq!(hinge.bodies, [0, 1]);
/// assert_eq!(hinge.local_anchor_b, Point::new(-2.0, 0.0));
/// assert!(matches!(hinge.kind, JointKind::Revolute(_)));
/// // The same joint made by a program.
/// let made = SceneJoint::at_world_anchor(&scene.bodies, [0, 1], Point::origin(),
///     RevoluteJoint::default().into())?;
/// assert_eq!(&made, hinge);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SceneJoint {
    /// Bodies A and B, as indices into the scene's `bodies` (two different bodies).
    pub bodies: [usize; 2],
    /// The anchor on A, in A's frame ([`JointDef::local_anchor_a`]).
    pub local_anchor_a: Point,
    /// The anchor on B, in B's frame.
    pub local_anchor_b: Point,
    /// B's angle minus A's at rest (radians; [`JointDef::reference_angle`]).
    pub reference_angle: Real,
    /// Whether the two bodies' shapes may still collide (default `false`).
    pub collide_connected: bool,
    /// The reaction force above which the joint breaks (newtons, positive; `None`: never).
    pub break_force: Option<Real>,
    /// The reaction torque above which the joint breaks (newton metres, positive).
    pub break_torque: Option<Real>,
    /// Whether the joint acts (default `true`).
    pub enabled: bool,
    /// The constraint and its settings; a prismatic or wheel axis is in A's frame.
    pub kind: JointKind,
}

impl SceneJoint {
    /// A joint of `kind` between `bodies` at both bodies' origins, reference angle 0, not
    /// colliding, unbreakable, enabled (as [`JointDef::new`]).
    pub fn new(bodies: [usize; 2], kind: JointKind) -> Self {
        Self::from_def(&JointDef::new(HANDLE, HANDLE, kind), bodies)
    }

    /// A joint of `kind` whose anchors meet at `anchor` (world frame) with `scene_bodies`
    /// where their definitions place them, as [`JointDef::at_world_anchor`] computes it: the
    /// reference angle is their relative angle there, a prismatic or wheel axis is read as
    /// a world direction. What a file's `anchor` gives.
    ///
    /// # Errors
    /// [`SceneError`] naming `bodies[k]` for an index past `scene_bodies`.
    pub fn at_world_anchor(
        scene_bodies: &[RigidBodyDef],
        bodies: [usize; 2],
        anchor: Point,
        kind: JointKind,
    ) -> Result<Self, SceneError> {
        Self::at_world_anchors(scene_bodies, bodies, (anchor, anchor), kind)
    }

    /// As [`SceneJoint::at_world_anchor`] with a separate anchor on each body (world
    /// frame): what a file's `anchors` gives.
    ///
    /// # Errors
    /// As [`SceneJoint::at_world_anchor`].
    pub fn at_world_anchors(
        scene_bodies: &[RigidBodyDef],
        bodies: [usize; 2],
        (anchor_a, anchor_b): (Point, Point),
        mut kind: JointKind,
    ) -> Result<Self, SceneError> {
        let [pose_a, pose_b] = poses(scene_bodies, bodies, "")?;
        if let Some(axis) = axis_mut(&mut kind) {
            *axis = pose_a.rotation.inverse() * *axis;
        }
        Ok(Self {
            local_anchor_a: pose_a.inverse_transform_point(&anchor_a),
            local_anchor_b: pose_b.inverse_transform_point(&anchor_b),
            reference_angle: relative_angle(&pose_a, &pose_b),
            ..Self::new(bodies, kind)
        })
    }

    /// The joint's definition between the bodies of handles `a` and `b` (A's and B's in a
    /// world built from the scene).
    pub fn def(&self, a: BodyHandle, b: BodyHandle) -> JointDef {
        JointDef {
            body_a: a,
            body_b: b,
            local_anchor_a: self.local_anchor_a,
            local_anchor_b: self.local_anchor_b,
            reference_angle: self.reference_angle,
            collide_connected: self.collide_connected,
            break_force: self.break_force.unwrap_or(Real::INFINITY),
            break_torque: self.break_torque.unwrap_or(Real::INFINITY),
            enabled: self.enabled,
            kind: self.kind.clone(),
        }
    }

    /// The joint of `def` between the scene's bodies `bodies` (its handles are dropped; an
    /// infinite break threshold, never, is none).
    pub fn from_def(def: &JointDef, bodies: [usize; 2]) -> Self {
        Self {
            bodies,
            local_anchor_a: def.local_anchor_a,
            local_anchor_b: def.local_anchor_b,
            reference_angle: def.reference_angle,
            collide_connected: def.collide_connected,
            break_force: finite(def.break_force),
            break_torque: finite(def.break_torque),
            enabled: def.enabled,
            kind: def.kind.clone(),
        }
    }

    /// Both anchors in the world frame, with `scene_bodies` where their definitions place
    /// them, or `None` if a body index is past `scene_bodies`.
    pub fn world_anchors(&self, scene_bodies: &[RigidBodyDef]) -> Option<[Point; 2]> {
        let [a, b] = self.bodies.map(|i| scene_bodies.get(i).map(|d| d.pose));
        Some([a? * self.local_anchor_a, b? * self.local_anchor_b])
    }
}

/// A placeholder handle for [`SceneJoint::new`]'s definition, whose handles are dropped.
const HANDLE: BodyHandle = BodyHandle {
    index: 0,
    generation: 0,
};

/// The joint types of the file, in the order of the documentation.
pub(crate) const JOINT_TYPES: [&str; 7] = [
    "revolute",
    "prismatic",
    "weld",
    "distance",
    "wheel",
    "motor",
    "mouse",
];

/// The fields of each joint type beyond every joint's, in the order of the documentation.
pub(super) fn fields_of(kind: &str) -> &'static [&'static str] {
    const LIMIT_MOTOR_SPRING: [&str; 9] = [
        "enable_limit",
        "lower_angle",
        "upper_angle",
        "enable_motor",
        "motor_speed",
        "max_motor_torque",
        "enable_spring",
        "spring_hertz",
        "spring_damping_ratio",
    ];
    match kind {
        "revolute" => &LIMIT_MOTOR_SPRING,
        "prismatic" => &[
            "axis",
            "local_axis_a",
            "enable_limit",
            "lower_translation",
            "upper_translation",
            "enable_motor",
            "motor_speed",
            "max_motor_force",
            "enable_spring",
            "spring_hertz",
            "spring_damping_ratio",
        ],
        "weld" => &[
            "linear_hertz",
            "linear_damping_ratio",
            "angular_hertz",
            "angular_damping_ratio",
        ],
        "distance" => &[
            "length",
            "enable_spring",
            "spring_hertz",
            "spring_damping_ratio",
            "enable_limit",
            "min_length",
            "max_length",
            "enable_motor",
            "motor_speed",
            "max_motor_force",
        ],
        "wheel" => &[
            "axis",
            "local_axis_a",
            "enable_spring",
            "spring_hertz",
            "spring_damping_ratio",
            "enable_limit",
            "lower_translation",
            "upper_translation",
            "enable_motor",
            "motor_speed",
            "max_motor_torque",
        ],
        "motor" => &[
            "linear_offset",
            "angular_offset",
            "max_force",
            "max_torque",
            "correction_factor",
        ],
        _ => &["target", "hertz", "damping_ratio", "max_force"],
    }
}

/// The poses of `bodies` (indices into `scene_bodies`), or an error at `path.bodies[k]`
/// (`bodies[k]` for an empty `path`) for an index past them.
pub(super) fn poses(
    scene_bodies: &[RigidBodyDef],
    bodies: [usize; 2],
    path: &str,
) -> Result<[Isometry; 2], SceneError> {
    let mut poses = [Isometry::identity(); 2];
    for (k, (&i, pose)) in bodies.iter().zip(&mut poses).enumerate() {
        let def = scene_bodies.get(i).ok_or_else(|| {
            SceneError::new(
                field(path, &format!("bodies[{k}]")),
                format!(
                    "there is no body {i} (the scene has {} bodies)",
                    scene_bodies.len()
                ),
            )
        })?;
        *pose = def.pose;
    }
    Ok(poses)
}

/// `path.name`, or `name` alone for an empty `path`.
pub(super) fn field(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

/// B's angle minus A's, as [`JointDef::at_world_anchors`] measures it: the reference angle
/// of a joint that is at rest where the bodies are.
pub(super) fn relative_angle(pose_a: &Isometry, pose_b: &Isometry) -> Real {
    (pose_b.rotation * pose_a.rotation.inverse()).angle()
}

/// The distance between the joint's anchors where the bodies are: a distance joint's length
/// when the file gives none.
pub(super) fn anchors_distance(local: [Point; 2], poses: &[Isometry; 2]) -> Real {
    (poses[1] * local[1] - poses[0] * local[0]).norm()
}

/// The axis of a prismatic or wheel joint.
fn axis_mut(kind: &mut JointKind) -> Option<&mut Vector> {
    match kind {
        JointKind::Prismatic(j) => Some(&mut j.local_axis_a),
        JointKind::Wheel(j) => Some(&mut j.local_axis_a),
        _ => None,
    }
}

pub(super) fn axis_of(kind: &JointKind) -> Option<Vector> {
    match kind {
        JointKind::Prismatic(j) => Some(j.local_axis_a),
        JointKind::Wheel(j) => Some(j.local_axis_a),
        _ => None,
    }
}

pub(super) fn point(v: Xy) -> Point {
    Point::new(v[0], v[1])
}

pub(super) fn vector(v: Xy) -> Vector {
    Vector::new(v[0], v[1])
}

/// A break threshold as a scene holds it: none for never (infinite).
fn finite(threshold: Real) -> Option<Real> {
    (threshold < Real::INFINITY).then_some(threshold)
}
