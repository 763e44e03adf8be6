//! The prismatic joint's rows (Box2D v3's `prismatic_joint.c`): along A's axis, the user
//! spring toward translation 0, the motor and the lower and upper limits (one-sided rows);
//! then the perpendicular row and the angle row solved together as a 2x2 block, last, so
//! that B's anchor stays on the axis and the bodies do not turn relative to each other.
//!
//! The translation is B's anchor minus A's along the axis; the axis is fixed in A, read in
//! the world frame at the step's start and turned with A since (`Frame::dq_a`).

use super::{Frame, Line, SolveContext, rotate, solve22, spring_terms, user_spring};
use crate::joint::def::PrismaticJoint;
use crate::joint::set::JointImpulses;
use crate::settings::Softness;
use crate::solver::bodies::SolverBody;
use impact_geometry::{Real, Rotation, Vector, perp};

/// A prismatic joint's constants for the step.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    /// The settings, as given (the axis a unit vector in A's frame).
    joint: PrismaticJoint,
    /// The axis in the world frame at the step's start.
    axis: Vector,
    /// The effective mass along the axis at the step's start (of the spring, motor and
    /// limits, as Box2D keeps it for the step).
    axial_mass: Real,
    /// The user spring's softness over a substep, `None` when off or of 0 Hz.
    spring: Option<Softness>,
}

/// The rows' directions with the bodies where `frame` has them: B's anchor minus A's, and
/// the rows along the axis and across it.
struct Lines {
    d: Vector,
    axial: Line,
    across: Line,
}

impl Row {
    pub(crate) fn new(
        joint: &PrismaticJoint,
        frame: &Frame,
        (a, b): (SolverBody, SolverBody),
        rotation_a: &Rotation,
        h: Real,
    ) -> Self {
        let axis = rotation_a * joint.local_axis_a;
        let d = frame.separation();
        let axial = Line::new(axis, &(d + frame.r_a), &frame.r_b);
        Self {
            joint: joint.clone(),
            axis,
            axial_mass: axial.mass(&a, &b),
            spring: user_spring(
                joint.enable_spring,
                joint.spring_hertz,
                joint.spring_damping_ratio,
                h,
            ),
        }
    }

    fn lines(&self, frame: &Frame) -> Lines {
        let axis = rotate(frame.dq_a, &self.axis);
        let d = frame.separation();
        // An impulse at B's anchor acts on A at that same point: A's lever is `d + r_a`.
        let lever_a = d + frame.r_a;
        Lines {
            d,
            axial: Line::new(axis, &lever_a, &frame.r_b),
            across: Line::new(perp(&axis), &lever_a, &frame.r_b),
        }
    }

    /// `impulses` with the rows not solved this step at zero.
    pub(crate) fn used(&self, i: &JointImpulses) -> JointImpulses {
        let j = &self.joint;
        let keep = |on: bool, x: Real| if on { x } else { 0.0 };
        JointImpulses {
            angular: i.angular,
            perpendicular: i.perpendicular,
            spring: keep(self.spring.is_some(), i.spring),
            motor: keep(j.enable_motor, i.motor),
            lower: keep(j.enable_limit, i.lower),
            upper: keep(j.enable_limit, i.upper),
            ..JointImpulses::default()
        }
    }

    /// The impulse along the axis: spring, motor and limits.
    fn axial_impulse(i: &JointImpulses) -> Real {
        i.spring + i.motor + i.lower - i.upper
    }

    /// The accumulated impulses applied at the start of a substep.
    pub(crate) fn warm_start(
        &self,
        frame: &Frame,
        i: &JointImpulses,
        (a, b): (&mut SolverBody, &mut SolverBody),
    ) {
        let l = self.lines(frame);
        l.axial.apply(a, b, Self::axial_impulse(i));
        l.across.apply(a, b, i.perpendicular);
        a.w -= a.inv_inertia * i.angular;
        b.w += b.inv_inertia * i.angular;
    }

    /// The force (world frame) and torque on B of `impulses`, as impulses.
    pub(crate) fn reaction(&self, i: &JointImpulses, frame: &Frame) -> (Vector, Real) {
        let l = self.lines(frame);
        let force = l.axial.n * Self::axial_impulse(i) + l.across.n * i.perpendicular;
        (force, i.angular)
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
    let mass = p.axial_mass;
    if let Some(spring) = &p.spring {
        let terms = spring_terms(spring, translation);
        l.axial.soft((a, b), &mut impulses.spring, terms, mass);
    }
    if j.enable_motor {
        let max = ctx.h * j.max_motor_force;
        let motor = (j.motor_speed, max, mass);
        l.axial.motor((a, b), &mut impulses.motor, motor);
    }
    if j.enable_limit {
        let lower = (translation - j.lower_translation, 1.0, mass);
        l.axial.limit((a, b), &mut impulses.lower, lower, ctx);
        let upper = (j.upper_translation - translation, -1.0, mass);
        l.axial.limit((a, b), &mut impulses.upper, upper, ctx);
    }
    block(&l, frame, impulses, (a, b), ctx);
}

/// The perpendicular and angle rows as one 2x2 block (a stiffer slider than the two solved
/// one after the other), soft with the joints' correction in the solve, rigid in the relax.
fn block(
    l: &Lines,
    frame: &Frame,
    impulses: &mut JointImpulses,
    (a, b): (&mut SolverBody, &mut SolverBody),
    ctx: &SolveContext<'_>,
) {
    let across = &l.across;
    let cdot = Vector::new(across.speed(a, b), b.w - a.w);
    let (bias, mass_scale, impulse_scale) = if ctx.use_bias {
        let c = Vector::new(across.n.dot(&l.d), frame.angle());
        (
            c * ctx.soft.bias_rate,
            ctx.soft.mass_scale,
            ctx.soft.impulse_scale,
        )
    } else {
        (Vector::zeros(), 1.0, 0.0)
    };
    let (ma, mb, ia, ib) = (a.inv_mass, b.inv_mass, a.inv_inertia, b.inv_inertia);
    let (s1, s2) = (across.sa, across.sb);
    let k11 = ma + mb + ia * s1 * s1 + ib * s2 * s2;
    let k12 = ia * s1 + ib * s2;
    // Neither body turns: the angle row is empty, and a unit entry keeps the block regular.
    let k22 = if ia + ib == 0.0 { 1.0 } else { ia + ib };
    let x = solve22((k11, k12, k22), &(cdot + bias));
    let accumulated = Vector::new(impulses.perpendicular, impulses.angular);
    let impulse = -x * mass_scale - accumulated * impulse_scale;
    impulses.perpendicular += impulse.x;
    impulses.angular += impulse.y;
    across.apply(a, b, impulse.x);
    a.w -= ia * impulse.y;
    b.w += ib * impulse.y;
}
