//! Joints: constraints that hold two bodies together, solved in the same stage loop as the
//! contacts ([`ContactSolver`](crate::ContactSolver)).
//!
//! A [`JointSet`] holds the joints of a simulation, named by generational [`JointHandle`]s and
//! created from a [`JointDef`]: two bodies, an anchor on each, a reference angle, and a
//! [`JointKind`] (revolute, prismatic, weld, distance and rope, wheel, motor, mouse), each
//! with Box2D v3's settings and defaults. Every joint keeps its accumulated impulses from step
//! to step (its warm start) and its reaction force and torque of the last step.
//!
//! # How they are solved
//! As in Box2D v3 (`joint.c` and one file per kind), a joint is a set of velocity rows in the
//! soft step: at every substep the joints are warm started, solved with a soft position bias
//! (a spring of [`SolverSettings::joint_hertz`](crate::SolverSettings::joint_hertz) and
//! [`SolverSettings::joint_damping_ratio`](crate::SolverSettings::joint_damping_ratio) on the
//! position error, measured afresh from the bodies' motion since the step's start), and
//! relaxed without it, all before the contacts, which are solved last at each stage and so
//! have the final say on overlap. Limits are one-sided rows that speculate like contacts (a
//! limit still ahead lets the joint close the gap within the substep and no more); motors are
//! rows clamped to their force or torque over the substep; user springs are soft rows of
//! their own frequency (none at 0 Hz), which act in the relax too, being forces of the model
//! rather than corrections of drift; so do the motor joint's and the mouse joint's drives
//! toward their targets. Each kind's documentation ([`RevoluteJoint`], ...) lists its rows
//! in the order they are solved. The soft step keeps stiff chains and high mass ratios stable where a
//! rigid Gauss-Seidel solve with Baumgarte correction jitters or explodes (Catto, *Solver2D*,
//! 2024), at the price of a small stretch under load that the substeps keep small.
//!
//! Reduced-coordinate multibodies (Featherstone's articulated bodies) are out of scope: a
//! ragdoll or a chain is a set of bodies held by joints, as in Box2D and rapier's impulse
//! joints.

mod def;
mod hinges;
mod kinds;
mod pairs;
mod rows;
mod separation;
mod set;
mod solve;

pub use def::{
    DistanceJoint, JointDef, JointKind, MAX_JOINT_MAGNITUDE, MotorJoint, MouseJoint,
    PrismaticJoint, RevoluteJoint, WeldJoint, WheelJoint,
};
pub use pairs::JointPairs;
pub(crate) use rows::JointRows;
pub use separation::JointSeparation;
pub use set::{Joint, JointHandle, JointImpulses, JointSet, JointSetState};
pub(crate) use solve::wrap_angle;
