//! The revolute joint's rows (Box2D v3's `revolute_joint.c`): the user spring on the joint
//! angle, the motor on the relative angular speed, the lower and upper limits as one-sided
//! rows, then the point row, solved last so the anchors have the final say.

use super::{Frame, SolveContext, angular_limit_row, point_row};
use crate::joint::def::RevoluteJoint;
use crate::joint::set::JointImpulses;
use crate::settings::Softness;
use crate::solver::bodies::{SolverBody, inverse_or_zero};
use impact_geometry::Real;

/// A revolute joint's constants for the step.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    /// The settings, as given.
    joint: RevoluteJoint,
    /// `1 / (iA + iB)`, zero when neither body turns.
    axial_mass: Real,
    /// The user spring's softness over a substep.
    spring: Softness,
}

impl Row {
    pub(crate) fn new(joint: &RevoluteJoint, (a, b): (SolverBody, SolverBody), h: Real) -> Self {
        Self {
            joint: joint.clone(),
            axial_mass: inverse_or_zero(a.inv_inertia + b.inv_inertia),
            spring: Softness::new(joint.spring_hertz, joint.spring_damping_ratio, h),
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
    let turns = p.axial_mass > 0.0;
    if j.enable_spring && turns {
        let c = frame.angle();
        let (bias, mass_scale, impulse_scale) = (
            p.spring.bias_rate * c,
            p.spring.mass_scale,
            p.spring.impulse_scale,
        );
        let cdot = b.w - a.w;
        let impulse = -mass_scale * p.axial_mass * (cdot + bias) - impulse_scale * impulses.spring;
        impulses.spring += impulse;
        a.w -= a.inv_inertia * impulse;
        b.w += b.inv_inertia * impulse;
    }
    if j.enable_motor && turns {
        let cdot = b.w - a.w - j.motor_speed;
        let max = ctx.h * j.max_motor_torque;
        let old = impulses.motor;
        impulses.motor = (old - p.axial_mass * cdot).clamp(-max, max);
        let impulse = impulses.motor - old;
        a.w -= a.inv_inertia * impulse;
        b.w += b.inv_inertia * impulse;
    }
    if j.enable_limit && turns {
        let angle = frame.angle();
        angular_limit_row(
            a,
            b,
            &mut impulses.lower,
            (angle - j.lower_angle, 1.0, p.axial_mass),
            ctx,
        );
        angular_limit_row(
            a,
            b,
            &mut impulses.upper,
            (j.upper_angle - angle, -1.0, p.axial_mass),
            ctx,
        );
    }
    point_row(frame, a, b, &mut impulses.linear, (ctx, &ctx.soft));
}
