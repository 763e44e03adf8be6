//! The wheel joint's rows (Box2D v3's `wheel_joint.c`): the motor on B's angular speed
//! relative to A, the suspension spring along A's axis toward translation 0 (of a positive
//! frequency: a spring of 0 Hz exerts nothing and the wheel slides freely along the axis),
//! the lower and upper limits of the suspension's travel as one-sided rows, then the
//! perpendicular row, last, that keeps B's anchor on the axis. B turns freely.
//!
//! The axis is fixed in A, read in the world frame at the step's start and turned with A
//! since (`Frame::dq_a`).
//!
//! As the prismatic joint's (see its module), the rows that hold B's anchor on A's rail (the
//! perpendicular row and the limits) act on A at the rail's point nearest B's anchor
//! ([`rail_point`]) and every row takes its effective mass where the bodies are at each
//! iteration: at B's anchor (Box2D's lever `d + rA`) a joint pulled open by units turned A
//! by radians per substep instead of pulling the bodies together, and the rows' effective
//! masses swung by `(|d| / r_gyration)^2` within the step (1e40 units/s, then NaN, with the
//! step-start masses; with a limit, energy 1e23-fold in two seconds even with the masses of
//! the moment). The spring acts on the translation itself and keeps the lever at B's
//! anchor.

use super::prismatic::Lines;
use super::{Frame, SolveContext, spring_terms, user_spring};
use crate::joint::def::WheelJoint;
use crate::joint::set::JointImpulses;
use crate::settings::Softness;
use crate::solver::bodies::{SolverBody, inverse_or_zero};
use impact_geometry::{Real, Rotation, Vector};

/// A wheel joint's constants for the step.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    /// The settings, as given (the axis a unit vector in A's frame).
    joint: WheelJoint,
    /// The axis in the world frame at the step's start.
    axis: Vector,
    /// The motor's effective mass (`1 / (iA + iB)`, zero when neither body turns). The
    /// rows along and across the axis take theirs where the bodies are at each iteration
    /// (see the module docs), not at the step's start as Box2D keeps them.
    motor_mass: Real,
    /// The suspension's softness over a substep, `None` when off or of 0 Hz.
    spring: Option<Softness>,
}

impl Row {
    pub(crate) fn new(
        joint: &WheelJoint,
        (a, b): (SolverBody, SolverBody),
        rotation_a: &Rotation,
        h: Real,
    ) -> Self {
        let axis = rotation_a * joint.local_axis_a;
        Self {
            joint: joint.clone(),
            axis,
            motor_mass: inverse_or_zero(a.inv_inertia + b.inv_inertia),
            spring: user_spring(
                joint.enable_spring,
                joint.spring_hertz,
                joint.spring_damping_ratio,
                h,
            ),
        }
    }

    /// `impulses` with the rows not solved this step at zero.
    pub(crate) fn used(&self, i: &JointImpulses) -> JointImpulses {
        let j = &self.joint;
        let keep = |on: bool, x: Real| if on { x } else { 0.0 };
        JointImpulses {
            perpendicular: i.perpendicular,
            spring: keep(self.spring.is_some(), i.spring),
            motor: keep(j.enable_motor && self.motor_mass > 0.0, i.motor),
            lower: keep(j.enable_limit, i.lower),
            upper: keep(j.enable_limit, i.upper),
            ..JointImpulses::default()
        }
    }

    /// The impulse along the axis: spring and limits.
    fn axial_impulse(i: &JointImpulses) -> Real {
        i.spring + i.lower - i.upper
    }

    /// The accumulated impulses applied at the start of a substep.
    pub(crate) fn warm_start(
        &self,
        frame: &Frame,
        i: &JointImpulses,
        (a, b): (&mut SolverBody, &mut SolverBody),
    ) {
        let l = self.lines(frame);
        l.axial.apply(a, b, i.spring);
        l.limit.apply(a, b, i.lower - i.upper);
        l.across.apply(a, b, i.perpendicular);
        a.w -= a.inv_inertia * i.motor;
        b.w += b.inv_inertia * i.motor;
    }

    /// The force (world frame) and torque on B of `impulses`, as impulses.
    pub(crate) fn reaction(&self, i: &JointImpulses, frame: &Frame) -> (Vector, Real) {
        let l = self.lines(frame);
        let force = l.axial.n * Self::axial_impulse(i) + l.across.n * i.perpendicular;
        (force, i.motor)
    }
}

impl Row {
    fn lines(&self, frame: &Frame) -> Lines {
        let j = &self.joint;
        let limits = j
            .enable_limit
            .then_some((j.lower_translation, j.upper_translation));
        Lines::on_rail(frame, &self.axis, limits)
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
    let l = p.lines(frame);
    let translation = l.axial.n.dot(&l.d);
    if j.enable_motor && p.motor_mass > 0.0 {
        let cdot = b.w - a.w - j.motor_speed;
        let max = ctx.h * j.max_motor_torque;
        let old = impulses.motor;
        impulses.motor = (old - p.motor_mass * cdot).clamp(-max, max);
        let impulse = impulses.motor - old;
        a.w -= a.inv_inertia * impulse;
        b.w += b.inv_inertia * impulse;
    }
    if let Some(spring) = &p.spring {
        let terms = spring_terms(spring, translation);
        let mass = l.axial.mass(a, b);
        l.axial.soft((a, b), &mut impulses.spring, terms, mass);
    }
    if j.enable_limit {
        let mass = l.limit.mass(a, b);
        let lower = (translation - j.lower_translation, 1.0, mass);
        l.limit.limit((a, b), &mut impulses.lower, lower, ctx);
        let upper = (j.upper_translation - translation, -1.0, mass);
        l.limit.limit((a, b), &mut impulses.upper, upper, ctx);
    }
    let terms = ctx.soft_terms(&ctx.soft, l.across.n.dot(&l.d));
    let perp_mass = l.across.mass(a, b);
    l.across
        .soft((a, b), &mut impulses.perpendicular, terms, perp_mass);
}
