//! Reading a joint entry: its type and bodies, where it holds them, and its kind's fields
//! on the kind's defaults.

use super::rules::{
    axis, bounded, bounded_anchor, breaks, finite_xy, kind_fields, same_body, validate,
};
use super::{
    JOINT_TYPES, SceneJoint, anchors_distance, field, fields_of, point, poses, relative_angle,
    vector,
};
use crate::error::{SceneError, finite, not_one_of, required};
use crate::file::{JointFile, Xy};
use crate::read::a;
use impact_geometry::{Isometry, Point};
use impact_solver::{
    DistanceJoint, JointKind, MotorJoint, MouseJoint, PrismaticJoint, RevoluteJoint, RigidBodyDef,
    WeldJoint, WheelJoint,
};

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
        Some(angle) => bounded(
            &at("reference_angle"),
            finite(&at("reference_angle"), angle)?,
        )?,
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
            bounded_anchor(&at(name), l)
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
                bounded_anchor(
                    &at("local_anchors[0]"),
                    point(finite_xy(&at("local_anchors[0]"), la)?),
                )?,
                bounded_anchor(
                    &at("local_anchors[1]"),
                    point(finite_xy(&at("local_anchors[1]"), lb)?),
                )?,
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
