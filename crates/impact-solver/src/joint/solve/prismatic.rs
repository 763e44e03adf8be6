//! The prismatic joint's rows (Box2D v3's `prismatic_joint.c`): along A's axis, the user
//! spring toward translation 0, the motor and the lower and upper limits (one-sided rows);
//! then the perpendicular row and the angle row solved together as a 2x2 block, last, so
//! that B's anchor stays on the axis and the bodies do not turn relative to each other.
//!
//! The translation is B's anchor minus A's along the axis; the axis is fixed in A, read in
//! the world frame at the step's start and turned with A since (`Frame::dq_a`).
//!
//! The rows that hold B's anchor on A's rail (the perpendicular row and the limits) act on A
//! at the rail's point nearest B's anchor (within the limits when they are on: see
//! [`rail_point`]), and every row takes its effective mass where the bodies are at each
//! iteration. Box2D acts at B's anchor itself (A's lever is the separation `d + rA`) with
//! the masses of the step's start; the two agree while the joint holds, but a joint pulled
//! open (a CCD stepper stopping one body at a wall while the other goes on, a contact
//! stopping one body in a substep before the joint row sees it) gives those rows a lever of
//! the separation on A, units long against A's own radius of gyration of a few hundredths.
//! Their corrections then mostly turn A, by radians per substep, instead of pulling the
//! bodies together; A's turn swings both levers (the axial row's by the distance off the
//! rail, the perpendicular row's by the translation), so the effective masses swing by
//! `(|d| / r_gyration)^2` within the step and the soft correction, a spring whose stiffness
//! is the effective mass times the joints' `omega^2`, does net work over each swing: two
//! boxes 0.2 x 0.04 thrown at a wall reached 1e10 units/s under `MotionClamping` and NaN
//! under `Discrete`. The rail point's lever is bounded by the limits (without them it is
//! the translation, as for a joint that holds, whatever the distance off the rail), the
//! corrections are
//! the gradient of the distance from B's anchor to the rail (the nearest point moves along
//! the rail, which does not change the distance to first order), and a joint pulled open
//! closes as a revolute joint's would. The spring and the motor act on the translation
//! itself and keep the lever at B's anchor.

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
    /// The user spring's softness over a substep, `None` when off or of 0 Hz.
    spring: Option<Softness>,
}

/// The rows' directions with the bodies where `frame` has them: B's anchor minus A's; the
/// row along the axis at B's anchor (the spring and the motor); and the rows along the axis
/// (the limits) and across it at the rail's point nearest B's anchor. Shared with the wheel
/// joint, whose rows along and across its axis are the same.
pub(super) struct Lines {
    pub(super) d: Vector,
    pub(super) axial: Line,
    pub(super) limit: Line,
    pub(super) across: Line,
}

impl Lines {
    /// The lines of a rail along `axis` (in A's frame at preparation, turned with A since)
    /// with translation `limits`, where `frame` has the bodies.
    pub(super) fn on_rail(frame: &Frame, axis: &Vector, limits: Option<(Real, Real)>) -> Self {
        let axis = rotate(frame.dq_a, axis);
        let d = frame.separation();
        let rail = rail_point(frame, axis, d, limits);
        Self {
            d,
            // An impulse at B's anchor acts on A at that same point: A's lever is `d + r_a`.
            axial: Line::new(axis, &(d + frame.r_a), &frame.r_b),
            limit: Line::new(axis, &rail, &frame.r_b),
            across: Line::new(perp(&axis), &rail, &frame.r_b),
        }
    }
}

impl Row {
    pub(crate) fn new(joint: &PrismaticJoint, rotation_a: &Rotation, h: Real) -> Self {
        let axis = rotation_a * joint.local_axis_a;
        Self {
            joint: joint.clone(),
            axis,
            spring: user_spring(
                joint.enable_spring,
                joint.spring_hertz,
                joint.spring_damping_ratio,
                h,
            ),
        }
    }

    fn lines(&self, frame: &Frame) -> Lines {
        let j = &self.joint;
        let limits = j
            .enable_limit
            .then_some((j.lower_translation, j.upper_translation));
        Lines::on_rail(frame, &self.axis, limits)
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
        l.axial.apply(a, b, i.spring + i.motor);
        l.limit.apply(a, b, i.lower - i.upper);
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
    // The masses where the bodies are now (see the module docs).
    let mass = l.axial.mass(a, b);
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
        let mass = l.limit.mass(a, b);
        let lower = (translation - j.lower_translation, 1.0, mass);
        l.limit.limit((a, b), &mut impulses.lower, lower, ctx);
        let upper = (j.upper_translation - translation, -1.0, mass);
        l.limit.limit((a, b), &mut impulses.upper, upper, ctx);
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

/// A's lever to the point of its rail (the line through its anchor along `axis`) nearest B's
/// anchor, `d` from A's: at translation `axis . d`, held within `limits` when they are on.
/// While the joint holds, that point is B's anchor and the lever is `d + r_a`, Box2D's.
///
/// The rows through this point are the gradient of the distance from B's anchor to the rail
/// (or the segment of it the limits leave): the point slides along the rail as the bodies
/// move, which changes that distance only to second order. Their lever on A is bounded by
/// the anchor and the limits, where `d + r_a` grows with the distance off the rail.
pub(crate) fn rail_point(
    frame: &Frame,
    axis: Vector,
    d: Vector,
    limits: Option<(Real, Real)>,
) -> Vector {
    let t = axis.dot(&d);
    // `max` then `min`, not `clamp`: a NaN translation gives NaN rather than a panic.
    let s = limits.map_or(t, |(lower, upper)| t.max(lower).min(upper));
    frame.r_a + axis * s
}
