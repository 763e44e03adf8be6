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

use crate::error::{SceneError, finite, non_negative, not_one_of, positive, remap, required};
use crate::file::{JointFile, Xy};
use crate::read::a;
use crate::write::unless;
use impact_geometry::{Isometry, Point, Real, Vector};
use impact_solver::{
    BodyHandle, DistanceJoint, JointDef, JointKind, MotorJoint, MouseJoint, PrismaticJoint,
    RevoluteJoint, RigidBodyDef, WeldJoint, WheelJoint,
};

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
            break_force: self.break_force,
            break_torque: self.break_torque,
            enabled: self.enabled,
            kind: self.kind.clone(),
        }
    }

    /// The joint of `def` between the scene's bodies `bodies` (its handles are dropped).
    pub fn from_def(def: &JointDef, bodies: [usize; 2]) -> Self {
        Self {
            bodies,
            local_anchor_a: def.local_anchor_a,
            local_anchor_b: def.local_anchor_b,
            reference_angle: def.reference_angle,
            collide_connected: def.collide_connected,
            break_force: def.break_force,
            break_torque: def.break_torque,
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
fn fields_of(kind: &str) -> &'static [&'static str] {
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
fn poses(
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
fn field(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

/// B's angle minus A's, as [`JointDef::at_world_anchors`] measures it: the reference angle
/// of a joint that is at rest where the bodies are.
fn relative_angle(pose_a: &Isometry, pose_b: &Isometry) -> Real {
    (pose_b.rotation * pose_a.rotation.inverse()).angle()
}

/// The distance between the joint's anchors where the bodies are: a distance joint's length
/// when the file gives none.
fn anchors_distance(local: [Point; 2], poses: &[Isometry; 2]) -> Real {
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

fn axis_of(kind: &JointKind) -> Option<Vector> {
    match kind {
        JointKind::Prismatic(j) => Some(j.local_axis_a),
        JointKind::Wheel(j) => Some(j.local_axis_a),
        _ => None,
    }
}

fn point(v: Xy) -> Point {
    Point::new(v[0], v[1])
}

fn vector(v: Xy) -> Vector {
    Vector::new(v[0], v[1])
}

/// `v` at `path`, both coordinates finite.
fn finite_xy(path: &str, v: Xy) -> Result<Xy, SceneError> {
    finite(&format!("{path}[0]"), v[0])?;
    finite(&format!("{path}[1]"), v[1])?;
    Ok(v)
}

/// An axis at `path`: finite, and not zero.
fn axis(path: &str, v: Vector) -> Result<Vector, SceneError> {
    finite_xy(path, [v.x, v.y])?;
    if v.norm() > 0.0 {
        Ok(v)
    } else {
        Err(SceneError::new(
            path,
            format!("must be a non-zero direction, got [{}, {}]", v.x, v.y),
        ))
    }
}

/// `lower` at `lower_path` and `upper` at `upper_path`: finite, and in order.
fn ordered(
    (lower_path, lower): (&str, Real),
    (upper_path, upper): (&str, Real),
) -> Result<(), SceneError> {
    finite(lower_path, lower)?;
    finite(upper_path, upper)?;
    if lower <= upper {
        Ok(())
    } else {
        let upper_name = upper_path.rsplit('.').next().unwrap_or(upper_path);
        Err(SceneError::new(
            lower_path,
            format!("must be at most {upper_name} ({upper}), got {lower}"),
        ))
    }
}

/// A spring's `spring_hertz` and `spring_damping_ratio` under `path`.
fn spring(path: &str, hertz: Real, damping_ratio: Real) -> Result<(), SceneError> {
    non_negative(&field(path, "spring_hertz"), hertz)?;
    non_negative(&field(path, "spring_damping_ratio"), damping_ratio)?;
    Ok(())
}

/// A motor's `motor_speed` and its most force or torque, `max_name`, under `path`.
fn motor(path: &str, speed: Real, (max_name, max): (&str, Real)) -> Result<(), SceneError> {
    finite(&field(path, "motor_speed"), speed)?;
    non_negative(&field(path, max_name), max)?;
    Ok(())
}

/// The kind's own fields of the joint at `path`, its axis named `axis_name` (`axis` or
/// `local_axis_a`, as the file gave it).
pub(crate) fn kind_fields(kind: &JointKind, path: &str, axis_name: &str) -> Result<(), SceneError> {
    let f = |name: &str| field(path, name);
    if let Some(v) = axis_of(kind) {
        axis(&f(axis_name), v)?;
    }
    match kind {
        JointKind::Revolute(j) => {
            ordered(
                (&f("lower_angle"), j.lower_angle),
                (&f("upper_angle"), j.upper_angle),
            )?;
            motor(
                path,
                j.motor_speed,
                ("max_motor_torque", j.max_motor_torque),
            )?;
            spring(path, j.spring_hertz, j.spring_damping_ratio)?;
        }
        JointKind::Prismatic(j) => {
            ordered(
                (&f("lower_translation"), j.lower_translation),
                (&f("upper_translation"), j.upper_translation),
            )?;
            motor(path, j.motor_speed, ("max_motor_force", j.max_motor_force))?;
            spring(path, j.spring_hertz, j.spring_damping_ratio)?;
        }
        JointKind::Weld(j) => {
            non_negative(&f("linear_hertz"), j.linear_hertz)?;
            non_negative(&f("linear_damping_ratio"), j.linear_damping_ratio)?;
            non_negative(&f("angular_hertz"), j.angular_hertz)?;
            non_negative(&f("angular_damping_ratio"), j.angular_damping_ratio)?;
        }
        JointKind::Distance(j) => {
            positive(&f("length"), j.length)?;
            spring(path, j.spring_hertz, j.spring_damping_ratio)?;
            non_negative(&f("min_length"), j.min_length)?;
            // The longest length may be `Real::MAX` (no maximum), but not below the least.
            if j.max_length.is_nan() || j.max_length < j.min_length {
                return Err(SceneError::new(
                    f("max_length"),
                    format!(
                        "must be at least min_length ({}), got {}",
                        j.min_length, j.max_length
                    ),
                ));
            }
            motor(path, j.motor_speed, ("max_motor_force", j.max_motor_force))?;
        }
        JointKind::Wheel(j) => {
            spring(path, j.spring_hertz, j.spring_damping_ratio)?;
            ordered(
                (&f("lower_translation"), j.lower_translation),
                (&f("upper_translation"), j.upper_translation),
            )?;
            motor(
                path,
                j.motor_speed,
                ("max_motor_torque", j.max_motor_torque),
            )?;
        }
        JointKind::Motor(j) => {
            finite_xy(&f("linear_offset"), [j.linear_offset.x, j.linear_offset.y])?;
            finite(&f("angular_offset"), j.angular_offset)?;
            non_negative(&f("max_force"), j.max_force)?;
            non_negative(&f("max_torque"), j.max_torque)?;
            crate::error::unit_interval(&f("correction_factor"), j.correction_factor)?;
        }
        JointKind::Mouse(j) => {
            finite_xy(&f("target"), [j.target.x, j.target.y])?;
            positive(&f("hertz"), j.hertz)?;
            non_negative(&f("damping_ratio"), j.damping_ratio)?;
            non_negative(&f("max_force"), j.max_force)?;
        }
    }
    // The solver's own check, for any rule it has that this file does not know yet.
    kind.validate()
        .map_err(|e| remap(&e, &format!("joint.{}", kind.name()), path))
}

/// The rules for a joint of a scene a program built, named as the writer would write it
/// (the body-frame forms, which every joint has).
pub(crate) fn validate(
    j: &SceneJoint,
    scene_bodies: &[RigidBodyDef],
    path: &str,
) -> Result<(), SceneError> {
    let f = |name: &str| field(path, name);
    let poses = poses(scene_bodies, j.bodies, path)?;
    if j.bodies[0] == j.bodies[1] {
        return Err(same_body(path, j.bodies[0]));
    }
    let local = [j.local_anchor_a, j.local_anchor_b];
    for (k, (l, pose)) in local.iter().zip(&poses).enumerate() {
        let name = f(&format!("local_anchors[{k}]"));
        finite_xy(&name, [l.x, l.y])?;
        world_anchor(&name, pose * l)?;
    }
    finite(&f("reference_angle"), j.reference_angle)?;
    breaks(j, path)?;
    kind_fields(&j.kind, path, "local_axis_a")
}

/// The error for a joint of a body to itself.
fn same_body(path: &str, i: usize) -> SceneError {
    SceneError::new(
        field(path, "bodies"),
        format!("must be two different bodies, got [{i}, {i}]"),
    )
}

/// An anchor at `path` whose world position `w` must be finite.
fn world_anchor(path: &str, w: Point) -> Result<(), SceneError> {
    if w.x.is_finite() && w.y.is_finite() {
        Ok(())
    } else {
        Err(SceneError::new(
            path,
            "puts the anchor so far from its body that its position overflows",
        ))
    }
}

/// `break_force` and `break_torque`: positive where given.
fn breaks(j: &SceneJoint, path: &str) -> Result<(), SceneError> {
    if let Some(force) = j.break_force {
        positive(&field(path, "break_force"), force)?;
    }
    if let Some(torque) = j.break_torque {
        positive(&field(path, "break_torque"), torque)?;
    }
    Ok(())
}

/// The joint entry `f` at `path`, between bodies of `scene_bodies`, resolved and checked.
pub(crate) fn read(
    f: &JointFile,
    path: &str,
    scene_bodies: &[RigidBodyDef],
) -> Result<SceneJoint, SceneError> {
    let at = |name: &str| field(path, name);
    let name = type_of(f, path)?;
    let bodies = f.bodies.ok_or_else(|| {
        required(
            &at("bodies"),
            "the two bodies the joint holds, [a, b] (their indices in bodies)",
        )
    })?;
    let poses = poses(scene_bodies, bodies, path)?;
    if bodies[0] == bodies[1] {
        return Err(same_body(path, bodies[0]));
    }
    let (local, one_point) = anchors(f, path, &poses)?;
    let reference_angle = match f.reference_angle {
        Some(angle) => finite(&at("reference_angle"), angle)?,
        None => relative_angle(&poses[0], &poses[1]),
    };
    let (kind, axis_name) = kind(f, name, path, &poses[0])?;
    let mut joint = SceneJoint {
        bodies,
        local_anchor_a: local[0],
        local_anchor_b: local[1],
        reference_angle,
        collide_connected: f.collide_connected.unwrap_or(false),
        break_force: f.break_force,
        break_torque: f.break_torque,
        enabled: f.enabled.unwrap_or(true),
        kind,
    };
    breaks(&joint, path)?;
    if let JointKind::Distance(d) = &mut joint.kind
        && f.length.is_none()
    {
        let length = anchors_distance(local, &poses);
        if one_point || !(length > 0.0 && length.is_finite()) {
            return Err(required(
                &at("length"),
                &format!(
                    "the anchors are {length} apart, which is no length: give the length, \
                     or anchors [[xa, ya], [xb, yb]] that far apart"
                ),
            ));
        }
        d.length = length;
    }
    kind_fields(&joint.kind, path, axis_name)?;
    // Every rule again on the resolved joint, for what resolving could break (an anchor
    // turned into a body's frame past the range of an f64).
    validate(&joint, scene_bodies, path)?;
    Ok(joint)
}

/// The `type` of the joint entry `f` at `path`, with no field of another type given.
fn type_of<'f>(f: &'f JointFile, path: &str) -> Result<&'f str, SceneError> {
    let at = |name: &str| field(path, name);
    let Some(name) = f.kind.as_deref() else {
        let types: Vec<String> = JOINT_TYPES.iter().map(|t| format!("\"{t}\"")).collect();
        return Err(required(
            &at("type"),
            &format!("one of {}", types.join(", ")),
        ));
    };
    if !JOINT_TYPES.contains(&name) {
        return Err(not_one_of(&at("type"), name, &JOINT_TYPES));
    }
    let fields = fields_of(name);
    if let Some((other, _)) = f.given().iter().find(|(n, g)| *g && !fields.contains(n)) {
        return Err(SceneError::new(
            at(other),
            format!(
                "is not a field of {} joint (its own fields are {})",
                a(name),
                fields.join(", ")
            ),
        ));
    }
    Ok(name)
}

/// The body-frame anchors of the joint entry `f` at `path` between bodies at `poses`, from
/// whichever of `anchor`, `anchors` and `local_anchors` it gives, and whether it gave one
/// point for both (`anchor`).
fn anchors(
    f: &JointFile,
    path: &str,
    poses: &[Isometry; 2],
) -> Result<([Point; 2], bool), SceneError> {
    let at = |name: &str| field(path, name);
    let given = [
        ("anchor", f.anchor.is_some()),
        ("anchors", f.anchors.is_some()),
        ("local_anchors", f.local_anchors.is_some()),
    ];
    let mut named = given.iter().filter(|(_, g)| *g).map(|(n, _)| *n);
    if let (Some(first), Some(second)) = (named.next(), named.next()) {
        return Err(SceneError::new(
            at(second),
            format!("give one of anchor, anchors and local_anchors, not both {first} and {second}"),
        ));
    }
    // Anchor `k` at `w` in the world, at `name`, in its body's frame.
    let to_local = |name: &str, k: usize, w: Xy| -> Result<Point, SceneError> {
        let l = poses[k].inverse_transform_point(&point(finite_xy(&at(name), w)?));
        if l.x.is_finite() && l.y.is_finite() {
            Ok(l)
        } else {
            Err(SceneError::new(
                at(name),
                format!(
                    "is so far from body {} that its position in the body's frame overflows",
                    ["A", "B"][k]
                ),
            ))
        }
    };
    match (f.anchor, f.anchors, f.local_anchors) {
        (Some(w), _, _) => Ok(([to_local("anchor", 0, w)?, to_local("anchor", 1, w)?], true)),
        (None, Some([wa, wb]), _) => Ok((
            [
                to_local("anchors[0]", 0, wa)?,
                to_local("anchors[1]", 1, wb)?,
            ],
            false,
        )),
        (None, None, Some([la, lb])) => Ok((
            [
                point(finite_xy(&at("local_anchors[0]"), la)?),
                point(finite_xy(&at("local_anchors[1]"), lb)?),
            ],
            false,
        )),
        (None, None, None) => Err(required(
            &at("anchor"),
            "where the joint holds: anchor [x, y] (one point of the world), anchors \
             [[xa, ya], [xb, yb]] (one per body, in the world) or local_anchors (one per \
             body, in its own frame)",
        )),
    }
}

/// Sets `target` to `value` if the file gives one.
fn set<T: Copy>(target: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *target = v;
    }
}

/// The kind of the joint entry `f` (whose type is `name`) at `path`, on the kind's defaults,
/// and the name of its axis field as given (`axis`, turned into the frame of body A at
/// `pose_a`, or `local_axis_a`).
fn kind(
    f: &JointFile,
    name: &str,
    path: &str,
    pose_a: &Isometry,
) -> Result<(JointKind, &'static str), SceneError> {
    let (axis, axis_name) = match (f.axis, f.local_axis_a) {
        (Some(_), Some(_)) => {
            return Err(SceneError::new(
                field(path, "local_axis_a"),
                "give axis (world frame) or local_axis_a (body A's frame), not both",
            ));
        }
        (Some(w), None) => {
            let w = axis(&field(path, "axis"), vector(w))?;
            (Some(pose_a.rotation.inverse() * w), "axis")
        }
        (None, l) => (l.map(vector), "local_axis_a"),
    };
    let kind: JointKind = match name {
        "revolute" => {
            let mut j = RevoluteJoint::default();
            set(&mut j.enable_limit, f.enable_limit);
            set(&mut j.lower_angle, f.lower_angle);
            set(&mut j.upper_angle, f.upper_angle);
            set(&mut j.enable_motor, f.enable_motor);
            set(&mut j.motor_speed, f.motor_speed);
            set(&mut j.max_motor_torque, f.max_motor_torque);
            set(&mut j.enable_spring, f.enable_spring);
            set(&mut j.spring_hertz, f.spring_hertz);
            set(&mut j.spring_damping_ratio, f.spring_damping_ratio);
            j.into()
        }
        "prismatic" => {
            let mut j = PrismaticJoint::default();
            set(&mut j.local_axis_a, axis);
            set(&mut j.enable_limit, f.enable_limit);
            set(&mut j.lower_translation, f.lower_translation);
            set(&mut j.upper_translation, f.upper_translation);
            set(&mut j.enable_motor, f.enable_motor);
            set(&mut j.motor_speed, f.motor_speed);
            set(&mut j.max_motor_force, f.max_motor_force);
            set(&mut j.enable_spring, f.enable_spring);
            set(&mut j.spring_hertz, f.spring_hertz);
            set(&mut j.spring_damping_ratio, f.spring_damping_ratio);
            j.into()
        }
        "weld" => {
            let mut j = WeldJoint::default();
            set(&mut j.linear_hertz, f.linear_hertz);
            set(&mut j.linear_damping_ratio, f.linear_damping_ratio);
            set(&mut j.angular_hertz, f.angular_hertz);
            set(&mut j.angular_damping_ratio, f.angular_damping_ratio);
            j.into()
        }
        "distance" => {
            let mut j = DistanceJoint::default();
            set(&mut j.length, f.length);
            set(&mut j.enable_spring, f.enable_spring);
            set(&mut j.spring_hertz, f.spring_hertz);
            set(&mut j.spring_damping_ratio, f.spring_damping_ratio);
            set(&mut j.enable_limit, f.enable_limit);
            set(&mut j.min_length, f.min_length);
            set(&mut j.max_length, f.max_length);
            set(&mut j.enable_motor, f.enable_motor);
            set(&mut j.motor_speed, f.motor_speed);
            set(&mut j.max_motor_force, f.max_motor_force);
            j.into()
        }
        "wheel" => {
            let mut j = WheelJoint::default();
            set(&mut j.local_axis_a, axis);
            set(&mut j.enable_spring, f.enable_spring);
            set(&mut j.spring_hertz, f.spring_hertz);
            set(&mut j.spring_damping_ratio, f.spring_damping_ratio);
            set(&mut j.enable_limit, f.enable_limit);
            set(&mut j.lower_translation, f.lower_translation);
            set(&mut j.upper_translation, f.upper_translation);
            set(&mut j.enable_motor, f.enable_motor);
            set(&mut j.motor_speed, f.motor_speed);
            set(&mut j.max_motor_torque, f.max_motor_torque);
            j.into()
        }
        "motor" => {
            let mut j = MotorJoint::default();
            set(&mut j.linear_offset, f.linear_offset.map(vector));
            set(&mut j.angular_offset, f.angular_offset);
            set(&mut j.max_force, f.max_force);
            set(&mut j.max_torque, f.max_torque);
            set(&mut j.correction_factor, f.correction_factor);
            j.into()
        }
        _ => {
            let mut j = MouseJoint::default();
            set(&mut j.target, f.target.map(point));
            set(&mut j.hertz, f.hertz);
            set(&mut j.damping_ratio, f.damping_ratio);
            set(&mut j.max_force, f.max_force);
            j.into()
        }
    };
    Ok((kind, axis_name))
}

fn xy_point(p: Point) -> Xy {
    [p.x, p.y]
}

fn xy_vector(v: Vector) -> Xy {
    [v.x, v.y]
}

/// Whether two points are the same to the bit.
fn same(p: Point, q: Point) -> bool {
    same_xy(p.coords, q.coords)
}

/// Whether two vectors are the same to the bit.
fn same_xy(p: Vector, q: Vector) -> bool {
    p.x.to_bits() == q.x.to_bits() && p.y.to_bits() == q.y.to_bits()
}

/// The joint `j` of a valid scene whose bodies are `scene_bodies`, as a file entry:
/// defaults left out, the world forms (`anchor`, `anchors`, `axis`) where they read back
/// bit for bit, the body-frame ones otherwise.
pub(crate) fn write(j: &SceneJoint, scene_bodies: &[RigidBodyDef]) -> JointFile {
    let poses = j.bodies.map(|i| scene_bodies[i].pose);
    let local = [j.local_anchor_a, j.local_anchor_b];
    let mut file = JointFile {
        kind: Some(j.kind.name().to_owned()),
        bodies: Some(j.bodies),
        reference_angle: unless(j.reference_angle, relative_angle(&poses[0], &poses[1])),
        collide_connected: unless(j.collide_connected, false),
        break_force: j.break_force,
        break_torque: j.break_torque,
        enabled: unless(j.enabled, true),
        ..JointFile::default()
    };
    // The world anchors that read back as these body-frame ones, if any: one point for
    // both first, then one each.
    let reads_back =
        |w: [Point; 2]| (0..2).all(|k| same(poses[k].inverse_transform_point(&w[k]), local[k]));
    let world = [poses[0] * local[0], poses[1] * local[1]];
    let one_point = [world[0], world[1]]
        .into_iter()
        .find(|&w| reads_back([w, w]));
    match one_point {
        Some(w) => file.anchor = Some(xy_point(w)),
        None if reads_back(world) => file.anchors = Some(world.map(xy_point)),
        None => file.local_anchors = Some(local.map(xy_point)),
    }
    if let Some(v) = axis_of(&j.kind) {
        let default = match j.kind {
            JointKind::Prismatic(_) => PrismaticJoint::default().local_axis_a,
            _ => WheelJoint::default().local_axis_a,
        };
        if !same_xy(v, default) {
            let w = poses[0].rotation * v;
            if same_xy(poses[0].rotation.inverse() * w, v) {
                file.axis = Some(xy_vector(w));
            } else {
                file.local_axis_a = Some(xy_vector(v));
            }
        }
    }
    // A length is left out where the anchors' distance gives it back, which one point for
    // both (`anchor`) does not.
    let default_length = match one_point {
        Some(_) => None,
        None => Some(anchors_distance(local, &poses)),
    };
    kind_file(&j.kind, default_length, &mut file);
    file
}

/// The kind's own fields of `kind` into `file`, each left out at its default (the length
/// at `default_length`, or always written if there is none).
fn kind_file(kind: &JointKind, default_length: Option<Real>, file: &mut JointFile) {
    match kind {
        JointKind::Revolute(j) => {
            let d = RevoluteJoint::default();
            file.enable_limit = unless(j.enable_limit, d.enable_limit);
            file.lower_angle = unless(j.lower_angle, d.lower_angle);
            file.upper_angle = unless(j.upper_angle, d.upper_angle);
            file.enable_motor = unless(j.enable_motor, d.enable_motor);
            file.motor_speed = unless(j.motor_speed, d.motor_speed);
            file.max_motor_torque = unless(j.max_motor_torque, d.max_motor_torque);
            file.enable_spring = unless(j.enable_spring, d.enable_spring);
            file.spring_hertz = unless(j.spring_hertz, d.spring_hertz);
            file.spring_damping_ratio = unless(j.spring_damping_ratio, d.spring_damping_ratio);
        }
        JointKind::Prismatic(j) => {
            let d = PrismaticJoint::default();
            file.enable_limit = unless(j.enable_limit, d.enable_limit);
            file.lower_translation = unless(j.lower_translation, d.lower_translation);
            file.upper_translation = unless(j.upper_translation, d.upper_translation);
            file.enable_motor = unless(j.enable_motor, d.enable_motor);
            file.motor_speed = unless(j.motor_speed, d.motor_speed);
            file.max_motor_force = unless(j.max_motor_force, d.max_motor_force);
            file.enable_spring = unless(j.enable_spring, d.enable_spring);
            file.spring_hertz = unless(j.spring_hertz, d.spring_hertz);
            file.spring_damping_ratio = unless(j.spring_damping_ratio, d.spring_damping_ratio);
        }
        JointKind::Weld(j) => {
            let d = WeldJoint::default();
            file.linear_hertz = unless(j.linear_hertz, d.linear_hertz);
            file.linear_damping_ratio = unless(j.linear_damping_ratio, d.linear_damping_ratio);
            file.angular_hertz = unless(j.angular_hertz, d.angular_hertz);
            file.angular_damping_ratio = unless(j.angular_damping_ratio, d.angular_damping_ratio);
        }
        JointKind::Distance(j) => {
            let d = DistanceJoint::default();
            file.length = match default_length {
                Some(length) => unless(j.length, length),
                None => Some(j.length),
            };
            file.enable_spring = unless(j.enable_spring, d.enable_spring);
            file.spring_hertz = unless(j.spring_hertz, d.spring_hertz);
            file.spring_damping_ratio = unless(j.spring_damping_ratio, d.spring_damping_ratio);
            file.enable_limit = unless(j.enable_limit, d.enable_limit);
            file.min_length = unless(j.min_length, d.min_length);
            file.max_length = unless(j.max_length, d.max_length);
            file.enable_motor = unless(j.enable_motor, d.enable_motor);
            file.motor_speed = unless(j.motor_speed, d.motor_speed);
            file.max_motor_force = unless(j.max_motor_force, d.max_motor_force);
        }
        JointKind::Wheel(j) => {
            let d = WheelJoint::default();
            file.enable_spring = unless(j.enable_spring, d.enable_spring);
            file.spring_hertz = unless(j.spring_hertz, d.spring_hertz);
            file.spring_damping_ratio = unless(j.spring_damping_ratio, d.spring_damping_ratio);
            file.enable_limit = unless(j.enable_limit, d.enable_limit);
            file.lower_translation = unless(j.lower_translation, d.lower_translation);
            file.upper_translation = unless(j.upper_translation, d.upper_translation);
            file.enable_motor = unless(j.enable_motor, d.enable_motor);
            file.motor_speed = unless(j.motor_speed, d.motor_speed);
            file.max_motor_torque = unless(j.max_motor_torque, d.max_motor_torque);
        }
        JointKind::Motor(j) => {
            let d = MotorJoint::default();
            file.linear_offset = unless(xy_vector(j.linear_offset), xy_vector(d.linear_offset));
            file.angular_offset = unless(j.angular_offset, d.angular_offset);
            file.max_force = unless(j.max_force, d.max_force);
            file.max_torque = unless(j.max_torque, d.max_torque);
            file.correction_factor = unless(j.correction_factor, d.correction_factor);
        }
        JointKind::Mouse(j) => {
            let d = MouseJoint::default();
            file.target = unless(xy_point(j.target), xy_point(d.target));
            file.hertz = unless(j.hertz, d.hertz);
            file.damping_ratio = unless(j.damping_ratio, d.damping_ratio);
            file.max_force = unless(j.max_force, d.max_force);
        }
    }
}
