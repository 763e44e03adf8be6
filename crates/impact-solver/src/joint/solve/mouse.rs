//! The mouse joint's rows (Box2D v3's `mouse_joint.c`), on body B alone: first a soft row
//! without bias that damps B's turning (Box2D's 0.5 Hz, damping ratio 0.1), then a soft point
//! row pulling B's anchor toward the target (the joint's own frequency and damping ratio)
//! whose accumulated impulse is clamped to `max_force` times the substep, so the joint
//! never pulls harder than `max_force`. Both act in the solve and the relax alike (the pull
//! is the joint's purpose, not a correction of drift). Body A only names the joint and gets
//! no impulse.

use super::{Frame, mul_sym, point_mass};
use crate::body::RigidBody;
use crate::joint::def::MouseJoint;
use crate::joint::set::JointImpulses;
use crate::settings::Softness;
use crate::solver::bodies::SolverBody;
use impact_geometry::{Real, Vector, cross, cross_scalar_vector};

/// The frequency (Hz) and damping ratio of the row that damps B's turning, Box2D's.
const ANGULAR_HERTZ: Real = 0.5;
const ANGULAR_DAMPING_RATIO: Real = 0.1;

/// A mouse joint's constants for the step.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    /// B's centre minus the target at the step's start.
    delta_center: Vector,
    /// The inverse of the point row's mass matrix (B alone) at the step's start.
    linear_mass: (Real, Real, Real),
    /// The pull's softness and the turning damper's, over a substep.
    linear: Softness,
    angular: Softness,
    /// The most impulse the pull accumulates over a substep.
    max_impulse: Real,
}

impl Row {
    pub(crate) fn new(
        joint: &MouseJoint,
        frame: &Frame,
        (_, b): (SolverBody, SolverBody),
        body_b: &RigidBody,
        h: Real,
    ) -> Self {
        let none = SolverBody::default();
        Self {
            delta_center: body_b.center_of_mass() - joint.target,
            linear_mass: point_mass((&none, &b), &Vector::zeros(), &frame.r_b),
            linear: Softness::new(joint.hertz, joint.damping_ratio, h),
            angular: Softness::new(ANGULAR_HERTZ, ANGULAR_DAMPING_RATIO, h),
            max_impulse: joint.max_force * h,
        }
    }
}

/// The accumulated impulses applied to B at the start of a substep.
pub(crate) fn warm_start(frame: &Frame, i: &JointImpulses, b: &mut SolverBody) {
    b.v += i.linear * b.inv_mass;
    b.w += b.inv_inertia * (cross(&frame.r_b, &i.linear) + i.angular);
}

/// One iteration of the rows; `moved_b` is B's displacement since the step's start (the
/// target is fixed in the world, so A's motion plays no part).
pub(crate) fn solve(
    p: &Row,
    frame: &Frame,
    impulses: &mut JointImpulses,
    (b, moved_b): (&mut SolverBody, &Vector),
) {
    let ib = b.inv_inertia;
    let stop = if ib > 0.0 { -b.w / ib } else { 0.0 };
    let impulse = p.angular.mass_scale * stop - p.angular.impulse_scale * impulses.angular;
    impulses.angular += impulse;
    b.w += ib * impulse;

    let rb = &frame.r_b;
    let cdot = b.v + cross_scalar_vector(b.w, rb);
    let separation = moved_b + rb + p.delta_center;
    let rhs = cdot + separation * p.linear.bias_rate;
    let x = mul_sym(p.linear_mass, &rhs);
    let old = impulses.linear;
    let mut accumulated = old - x * p.linear.mass_scale - old * p.linear.impulse_scale;
    if accumulated.norm() > p.max_impulse {
        accumulated = accumulated.normalize() * p.max_impulse;
    }
    impulses.linear = accumulated;
    let impulse = accumulated - old;
    b.v += impulse * b.inv_mass;
    b.w += ib * cross(rb, &impulse);
}
