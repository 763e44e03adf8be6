//! The rules of a joint entry, checked on resolved values with the path of each field.

use super::{SceneJoint, axis_of, field, poses};
use crate::error::{SceneError, finite, non_negative, positive, remap};
use crate::file::Xy;
use impact_geometry::{Point, Real, Vector};
use impact_solver::{JointKind, MAX_JOINT_MAGNITUDE, RigidBodyDef};

/// `v` at `path`, both coordinates finite.
pub(super) fn finite_xy(path: &str, v: Xy) -> Result<Xy, SceneError> {
    finite(&format!("{path}[0]"), v[0])?;
    finite(&format!("{path}[1]"), v[1])?;
    Ok(v)
}

/// `value` at `path`, at most [`MAX_JOINT_MAGNITUDE`] in magnitude: a joint's anchor (in
/// its body's frame) or reference angle, which the solver refuses past it.
pub(super) fn bounded(path: &str, value: Real) -> Result<Real, SceneError> {
    if value.abs() <= MAX_JOINT_MAGNITUDE || value.is_nan() {
        Ok(value)
    } else {
        Err(SceneError::new(
            path,
            format!(
                "must be at most 1e12 in magnitude (MAX_JOINT_MAGNITUDE), got {}",
                impact_geometry::validate::Shown(value)
            ),
        ))
    }
}

/// An anchor in its body's frame at `path` (the file's form, whichever it is), each
/// coordinate at most [`MAX_JOINT_MAGNITUDE`] in magnitude.
pub(super) fn bounded_anchor(path: &str, l: Point) -> Result<Point, SceneError> {
    if l.x.abs().max(l.y.abs()) <= MAX_JOINT_MAGNITUDE {
        return Ok(l);
    }
    Err(SceneError::new(
        path,
        format!(
            "puts the anchor at [{}, {}] in its body's frame, past 1e12 (MAX_JOINT_MAGNITUDE)",
            l.x, l.y
        ),
    ))
}

/// An axis at `path`: finite, and not zero.
pub(super) fn axis(path: &str, v: Vector) -> Result<Vector, SceneError> {
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
            format!(
                "must be at most {upper_name} ({}), got {}",
                impact_geometry::validate::Shown(upper),
                impact_geometry::validate::Shown(lower)
            ),
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
pub(super) fn kind_fields(kind: &JointKind, path: &str, axis_name: &str) -> Result<(), SceneError> {
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
                        impact_geometry::validate::Shown(j.min_length),
                        impact_geometry::validate::Shown(j.max_length)
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
        bounded_anchor(&name, *l)?;
        world_anchor(&name, pose * l)?;
    }
    bounded(
        &f("reference_angle"),
        finite(&f("reference_angle"), j.reference_angle)?,
    )?;
    breaks(j, path)?;
    kind_fields(&j.kind, path, "local_axis_a")
}

/// The error for a joint of a body to itself.
pub(super) fn same_body(path: &str, i: usize) -> SceneError {
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
pub(super) fn breaks(j: &SceneJoint, path: &str) -> Result<(), SceneError> {
    if let Some(force) = j.break_force {
        positive(&field(path, "break_force"), force)?;
    }
    if let Some(torque) = j.break_torque {
        positive(&field(path, "break_torque"), torque)?;
    }
    Ok(())
}
