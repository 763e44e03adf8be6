//! The motor joint's rows (Box2D v3.0's `motor_joint.c`): the angle row drives B's angle
//! relative to A toward the angular offset, then the point row drives B's anchor toward A's
//! anchor plus the linear offset (fixed in A's frame), each closing `correction_factor` of
//! its error per substep and no faster than its bound allows: the angle row's accumulated
//! impulse within `max_torque` times the substep, the point row's length within `max_force`
//! times the substep. Neither has a softness of its own; both act in the solve and the
//! relax alike (the drive is the joint's purpose, not a correction of drift).

use super::{Frame, SolveContext, mul_sym, point_mass, rotate, unwind, wrap_angle};
use crate::joint::def::MotorJoint;
use crate::joint::set::JointImpulses;
use crate::solver::bodies::{SolverBody, inverse_or_zero};
use impact_geometry::{Real, Rotation, Vector, cross, cross_scalar_vector};

/// A motor joint's constants for the step.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    /// The settings, as given.
    joint: MotorJoint,
    /// The linear offset in the world frame at the step's start.
    offset: Vector,
    /// The angle error at the step's start: the joint angle minus the angular offset, in
    /// `(-pi, pi]`.
    angle_error: Real,
    /// The inverse of the point row's mass matrix at the step's start (three entries of a
    /// symmetric matrix), and `1 / (iA + iB)` (zero when neither body turns).
    linear_mass: (Real, Real, Real),
    angular_mass: Real,
}

impl Row {
    pub(crate) fn new(
        joint: &MotorJoint,
        frame: &Frame,
        (a, b): (SolverBody, SolverBody),
        rotation_a: &Rotation,
    ) -> Self {
        Self {
            joint: joint.clone(),
            offset: rotation_a * joint.linear_offset,
            angle_error: wrap_angle(frame.delta_angle - joint.angular_offset),
            linear_mass: point_mass((&a, &b), &frame.r_a, &frame.r_b),
            angular_mass: inverse_or_zero(a.inv_inertia + b.inv_inertia),
        }
    }
}

/// One iteration of the rows.
pub(crate) fn solve(
    p: &Row,
    frame: &Frame,
    impulses: &mut JointImpulses,
    (a, b): (&mut SolverBody, &mut SolverBody),
    ctx: &SolveContext<'_>,
) {
    let j = &p.joint;
    let rate = ctx.inv_h * j.correction_factor;

    let c = unwind(p.angle_error + frame.d_angle());
    let cdot = b.w - a.w;
    let impulse = -p.angular_mass * (cdot + rate * c);
    let max = ctx.h * j.max_torque;
    let old = impulses.angular;
    impulses.angular = (old + impulse).clamp(-max, max);
    let impulse = impulses.angular - old;
    a.w -= a.inv_inertia * impulse;
    b.w += b.inv_inertia * impulse;

    let (ra, rb) = (&frame.r_a, &frame.r_b);
    let c = frame.separation() - rotate(frame.dq_a, &p.offset);
    let cdot = b.v + cross_scalar_vector(b.w, rb) - a.v - cross_scalar_vector(a.w, ra);
    let impulse = -mul_sym(p.linear_mass, &(cdot + c * rate));
    let max = ctx.h * j.max_force;
    let old = impulses.linear;
    let mut accumulated = old + impulse;
    if accumulated.norm_squared() > max * max {
        accumulated = accumulated.normalize() * max;
    }
    impulses.linear = accumulated;
    let impulse = accumulated - old;
    a.v -= impulse * a.inv_mass;
    a.w -= a.inv_inertia * cross(ra, &impulse);
    b.v += impulse * b.inv_mass;
    b.w += b.inv_inertia * cross(rb, &impulse);
}
