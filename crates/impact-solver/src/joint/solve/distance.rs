//! The distance joint's rows (Box2D v3's `distance_joint.c`), all along the line between the
//! anchors.
//!
//! Without a spring (or with limits that pin the length, `min_length == max_length`) one
//! rigid row holds the length, soft with the joints' correction in the solve. With a spring,
//! the spring row (of a positive frequency; 0 Hz exerts nothing), then the lower and upper
//! limits as one-sided rows, then the motor: a rope is a spring of 0 Hz with a maximum, slack
//! (no force) below it and a one-sided row at it.

use super::{Frame, Line, SolveContext, spring_terms, user_spring};
use crate::joint::def::DistanceJoint;
use crate::joint::set::JointImpulses;
use crate::settings::Softness;
use crate::solver::bodies::SolverBody;
use impact_geometry::{Real, Vector};

/// A distance joint's constants for the step.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    /// The settings, as given.
    joint: DistanceJoint,
    /// Whether the length is soft (a spring, limits, a motor) rather than one rigid row.
    soft: bool,
    /// The spring's softness over a substep, `None` when off or of 0 Hz.
    spring: Option<Softness>,
}

/// The unit vector from A's anchor to B's and the distance between them, with the bodies
/// where `frame` has them; the zero vector when the anchors coincide (no direction to
/// push along).
pub(crate) fn axis(frame: &Frame) -> (Vector, Real) {
    let separation = frame.separation();
    let length = separation.norm();
    if length < Real::EPSILON {
        (Vector::zeros(), length)
    } else {
        (separation / length, length)
    }
}

/// The row along the line between the anchors.
fn line(frame: &Frame) -> (Line, Real) {
    let (n, length) = axis(frame);
    (Line::new(n, &frame.r_a, &frame.r_b), length)
}

/// The whole impulse along the line, positive pushing the anchors apart.
pub(crate) fn axial(i: &JointImpulses) -> Real {
    i.axial + i.spring + i.lower - i.upper + i.motor
}

/// The accumulated impulses applied at the start of a substep.
pub(crate) fn warm_start(
    frame: &Frame,
    i: &JointImpulses,
    (a, b): (&mut SolverBody, &mut SolverBody),
) {
    line(frame).0.apply(a, b, axial(i));
}

impl Row {
    pub(crate) fn new(joint: &DistanceJoint, h: Real) -> Self {
        let soft =
            joint.enable_spring && (joint.min_length < joint.max_length || !joint.enable_limit);
        Self {
            joint: joint.clone(),
            soft,
            spring: user_spring(soft, joint.spring_hertz, joint.spring_damping_ratio, h),
        }
    }

    /// `impulses` with the rows not solved this step at zero.
    pub(crate) fn used(&self, i: &JointImpulses) -> JointImpulses {
        let j = &self.joint;
        let keep = |on: bool, x: Real| if on { x } else { 0.0 };
        JointImpulses {
            axial: keep(!self.soft, i.axial),
            spring: keep(self.spring.is_some(), i.spring),
            lower: keep(self.soft && j.enable_limit, i.lower),
            upper: keep(self.soft && j.enable_limit, i.upper),
            motor: keep(self.soft && j.enable_motor, i.motor),
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
    let (line, length) = line(frame);
    // The mass where the bodies are now, not at the step's start as Box2D keeps it: the
    // line turns with the anchors, and a joint pulled open turns it within the step, the
    // lever `cross(r, n)` of each body going from 0 to its anchor's distance; a mass of the
    // start more than twice the present one overshoots at each iteration (two boxes on a
    // 0.2 rod pulled 3 units apart gained energy 1e7-fold in two seconds).
    let mass = line.mass(a, b);
    if !p.soft {
        let terms = ctx.soft_terms(&ctx.soft, length - j.length);
        line.soft((a, b), &mut impulses.axial, terms, mass);
        return;
    }
    if let Some(spring) = &p.spring {
        let terms = spring_terms(spring, length - j.length);
        line.soft((a, b), &mut impulses.spring, terms, mass);
    }
    if j.enable_limit {
        let lower = (length - j.min_length, 1.0, mass);
        line.limit((a, b), &mut impulses.lower, lower, ctx);
        // No maximum (an infinite one) is a row that is never taut.
        if j.max_length < Real::INFINITY {
            let upper = (j.max_length - length, -1.0, mass);
            line.limit((a, b), &mut impulses.upper, upper, ctx);
        }
    }
    if j.enable_motor {
        let motor = (j.motor_speed, ctx.h * j.max_motor_force, mass);
        line.motor((a, b), &mut impulses.motor, motor);
    }
}
