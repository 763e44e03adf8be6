//! Writing a joint entry: defaults left out, the world forms where they read back bit for
//! bit.

use super::{SceneJoint, anchors_distance, axis_of, relative_angle};
use crate::file::{JointFile, Xy};
use crate::write::unless;
use impact_geometry::{Point, Real, Vector};
use impact_solver::{
    DistanceJoint, JointKind, MotorJoint, MouseJoint, PrismaticJoint, RevoluteJoint, RigidBodyDef,
    WeldJoint, WheelJoint,
};

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
