//! The revolute joint's rows (Box2D v3's `revolute_joint.c`): the user spring on the joint
//! angle (of a positive frequency: a spring of 0 Hz exerts nothing), the motor on the
//! relative angular speed, the lower and upper limits as one-sided rows, then the point
//! row, solved last so the anchors have the final say.

use super::{Frame, SolveContext, angular_limit_row, point_row, spring_terms, user_spring};
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
    /// The user spring's softness over a substep, `None` when off or of 0 Hz.
    spring: Option<Softness>,
}

impl Row {
    pub(crate) fn new(joint: &RevoluteJoint, (a, b): (SolverBody, SolverBody), h: Real) -> Self {
        Self {
            joint: joint.clone(),
            axial_mass: inverse_or_zero(a.inv_inertia + b.inv_inertia),
            spring: user_spring(
                joint.enable_spring,
                joint.spring_hertz,
                joint.spring_damping_ratio,
                h,
            ),
        }
    }

    /// Whether the point row is the joint's only row: no spring, motor or limit acts
    /// (switched off, or neither body turns). Its warm start then applies no torque of its
    /// own either, [`Row::used`] having zeroed those impulses.
    pub(crate) fn is_plain(&self) -> bool {
        let j = &self.joint;
        let turns = self.axial_mass > 0.0;
        !(turns && (self.spring.is_some() || j.enable_motor || j.enable_limit))
    }

    /// `impulses` with the rows not solved this step at zero.
    pub(crate) fn used(&self, i: &JointImpulses) -> JointImpulses {
        let (j, turns) = (&self.joint, self.axial_mass > 0.0);
        let keep = |on: bool, x: Real| if on && turns { x } else { 0.0 };
        let limit = j.enable_limit;
        JointImpulses {
            linear: i.linear,
            spring: keep(self.spring.is_some(), i.spring),
            motor: keep(j.enable_motor, i.motor),
            lower: keep(limit, i.lower),
            upper: keep(limit, i.upper),
            ..JointImpulses::default()
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
    // The joint angle, read once (an arctangent) for the spring and the limits: the rows
    // change velocities, not the poses it is read from.
    let angle = if turns && (p.spring.is_some() || j.enable_limit) {
        frame.angle()
    } else {
        0.0
    };
    if let Some(spring) = p.spring.filter(|_| turns) {
        let (bias, mass_scale, impulse_scale) = spring_terms(&spring, angle);
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
