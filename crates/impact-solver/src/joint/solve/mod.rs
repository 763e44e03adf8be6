//! The velocity rows of every kind of joint, in Box2D v3's soft-step form (its
//! `revolute_joint.c`, `prismatic_joint.c`, `weld_joint.c`, `distance_joint.c`,
//! `wheel_joint.c`, `motor_joint.c` and `mouse_joint.c`): what a joint of each kind
//! prepares once per step, applies at the warm start and solves at each iteration.
//!
//! Every kind reads the joint's [`Frame`] (lever arms and offsets at the step's start, and
//! turned with the bodies since), so the rows measure position errors without reading a
//! pose, and shares [`point_row`] (the two anchors held together) and [`axial_row`] (a soft
//! or one-sided row on the relative angular speed).

mod revolute;
mod weld;

use super::def::JointKind;
use super::rows::JointRow;
use super::set::JointImpulses;
use crate::body::RigidBody;
use crate::settings::Softness;
use crate::solver::bodies::{BodyState, SolverBody};
use impact_geometry::{Point, Real, Vector, cross, cross_scalar_vector};

/// Where a joint's anchors are: at the step's start, and as the bodies have moved since.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    /// The lever arms from each centre of mass to its anchor, world frame, at the start.
    pub(crate) anchor_a: Vector,
    pub(crate) anchor_b: Vector,
    /// B's centre minus A's at the start.
    pub(crate) delta_center: Vector,
    /// The joint angle at the start: B's angle minus A's minus the reference angle, in
    /// `(-pi, pi]`.
    pub(crate) delta_angle: Real,
    /// The lever arms now (turned with the bodies).
    pub(crate) r_a: Vector,
    pub(crate) r_b: Vector,
    /// B's displacement since the start minus A's.
    pub(crate) dp: Vector,
    /// B's rotation since the start minus A's (radians).
    pub(crate) d_angle: Real,
    /// A's rotation since the start, as (cos, sin), for axes fixed in A.
    pub(crate) dq_a: (Real, Real),
}

/// `v` turned by the rotation `(cos, sin)`.
#[inline]
pub(crate) fn rotate((c, s): (Real, Real), v: &Vector) -> Vector {
    Vector::new(c * v.x - s * v.y, s * v.x + c * v.y)
}

/// `angle` brought into `(-pi, pi]`.
#[inline]
pub(crate) fn unwind(angle: Real) -> Real {
    use core::f64::consts::PI;
    if angle < -PI {
        angle + 2.0 * PI
    } else if angle > PI {
        angle - 2.0 * PI
    } else {
        angle
    }
}

impl Frame {
    /// The frame of a joint with anchors `local` (body frames) and `reference_angle`,
    /// between bodies at their current poses.
    pub(crate) fn new(
        (a, b): (&RigidBody, &RigidBody),
        (local_a, local_b): (&Point, &Point),
        reference_angle: Real,
    ) -> Self {
        let anchor_a = a.pose().rotation * (local_a - a.local_center());
        let anchor_b = b.pose().rotation * (local_b - b.local_center());
        let relative = (b.pose().rotation * a.pose().rotation.inverse()).angle();
        Self {
            anchor_a,
            anchor_b,
            delta_center: b.center_of_mass() - a.center_of_mass(),
            delta_angle: unwind(relative - reference_angle),
            r_a: anchor_a,
            r_b: anchor_b,
            dp: Vector::zeros(),
            d_angle: 0.0,
            dq_a: (1.0, 0.0),
        }
    }

    /// The frame after the bodies moved to `a` and `b` (their motion since the start).
    #[inline]
    pub(crate) fn turn(&mut self, a: &BodyState, b: &BodyState) {
        self.r_a = rotate(a.dq, &self.anchor_a);
        self.r_b = rotate(b.dq, &self.anchor_b);
        self.dp = b.dp - a.dp;
        let (ca, sa) = a.dq;
        let (cb, sb) = b.dq;
        self.d_angle = (sb * ca - cb * sa).atan2(cb * ca + sb * sa);
        self.dq_a = a.dq;
    }

    /// B's anchor minus A's now (world frame).
    #[inline]
    pub(crate) fn separation(&self) -> Vector {
        self.dp + (self.r_b - self.r_a) + self.delta_center
    }

    /// The joint angle now (radians, followed continuously from the start's).
    #[inline]
    pub(crate) fn angle(&self) -> Real {
        self.delta_angle + self.d_angle
    }
}

/// What a stage tells the joints.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SolveContext<'a> {
    /// The bodies' motion since the start, indexed like the velocities.
    #[allow(dead_code)]
    pub(crate) states: &'a [BodyState],
    /// The joints' position-correction softness.
    pub(crate) soft: Softness,
    /// The substep (seconds) and its inverse.
    pub(crate) h: Real,
    pub(crate) inv_h: Real,
    /// The solve (with the position bias) or the relax (without).
    pub(crate) use_bias: bool,
}

impl SolveContext<'_> {
    /// The bias, mass scale and impulse scale of a soft row with position error `c` under
    /// `soft` (none in the relax: a rigid row on velocity alone).
    #[inline]
    pub(crate) fn soft_terms(&self, soft: &Softness, c: Real) -> (Real, Real, Real) {
        if self.use_bias {
            (soft.bias_rate * c, soft.mass_scale, soft.impulse_scale)
        } else {
            (0.0, 1.0, 0.0)
        }
    }

    /// The terms of a one-sided row whose position error `c` is positive when it is slack:
    /// a slack row lets the gap close within the substep and no more (speculative); a
    /// violated one is soft in the solve and rigid in the relax.
    #[inline]
    pub(crate) fn limit_terms(&self, c: Real) -> (Real, Real, Real) {
        if c > 0.0 {
            (c * self.inv_h, 1.0, 0.0)
        } else {
            self.soft_terms(&self.soft, c)
        }
    }
}

/// A kind's constants for the step.
#[derive(Debug, Clone)]
pub(crate) enum Prepared {
    Revolute(revolute::Row),
    Weld(weld::Row),
    /// Kinds whose rows are not built yet.
    Inactive,
}

impl Prepared {
    /// The constants of `kind` for a step of substeps `h`, between bodies of the inverse
    /// masses of `masses`.
    pub(crate) fn new(
        kind: &JointKind,
        frame: &Frame,
        masses: (SolverBody, SolverBody),
        bodies: (&RigidBody, &RigidBody),
        h: Real,
    ) -> Self {
        let _ = (frame, bodies);
        match kind {
            JointKind::Revolute(j) => Self::Revolute(revolute::Row::new(j, masses, h)),
            JointKind::Weld(j) => Self::Weld(weld::Row::new(j, masses, h)),
            _ => Self::Inactive,
        }
    }

    /// The joint's reaction on B from its accumulated `impulses`: (linear, angular)
    /// impulses, to be divided by the substep.
    pub(crate) fn reaction(&self, impulses: &JointImpulses, frame: &Frame) -> (Vector, Real) {
        let _ = frame;
        match self {
            Self::Revolute(_) => (
                impulses.linear,
                impulses.spring + impulses.motor + impulses.lower - impulses.upper,
            ),
            Self::Weld(_) => (impulses.linear, impulses.angular),
            Self::Inactive => (Vector::zeros(), 0.0),
        }
    }
}

/// Applies a row's accumulated impulses at the start of a substep.
pub(crate) fn warm_start(row: &JointRow, a: &mut SolverBody, b: &mut SolverBody) {
    let (frame, i) = (&row.frame, &row.impulses);
    match &row.prepared {
        Prepared::Revolute(_) => {
            let axial = i.spring + i.motor + i.lower - i.upper;
            apply(frame, a, b, &i.linear, axial);
        }
        Prepared::Weld(_) => apply(frame, a, b, &i.linear, i.angular),
        Prepared::Inactive => {}
    }
}

/// One iteration of a row.
pub(crate) fn solve(
    row: &mut JointRow,
    a: &mut SolverBody,
    b: &mut SolverBody,
    ctx: &SolveContext<'_>,
) {
    let JointRow {
        prepared,
        frame,
        impulses,
        ..
    } = row;
    match prepared {
        Prepared::Revolute(p) => revolute::solve(p, frame, impulses, (a, b), ctx),
        Prepared::Weld(p) => weld::solve(p, frame, impulses, (a, b), ctx),
        Prepared::Inactive => {}
    }
}

/// Applies `linear` (on B, its opposite on A, at the current lever arms) and `angular` (on
/// B, its opposite on A).
#[inline]
pub(crate) fn apply(
    frame: &Frame,
    a: &mut SolverBody,
    b: &mut SolverBody,
    linear: &Vector,
    angular: Real,
) {
    a.v -= linear * a.inv_mass;
    a.w -= a.inv_inertia * (cross(&frame.r_a, linear) + angular);
    b.v += linear * b.inv_mass;
    b.w += b.inv_inertia * (cross(&frame.r_b, linear) + angular);
}

/// The point row: B's anchor held on A's, with the position error `separation` corrected
/// by `soft` in the solve (the joints' softness, or a soft weld's own). Accumulates into
/// `accumulated` and applies the change.
#[inline]
pub(crate) fn point_row(
    frame: &Frame,
    a: &mut SolverBody,
    b: &mut SolverBody,
    accumulated: &mut Vector,
    (ctx, soft): (&SolveContext<'_>, &Softness),
) {
    let (ra, rb) = (&frame.r_a, &frame.r_b);
    let cdot = b.v + cross_scalar_vector(b.w, rb) - a.v - cross_scalar_vector(a.w, ra);
    let (bias, mass_scale, impulse_scale) = if ctx.use_bias {
        (
            frame.separation() * soft.bias_rate,
            soft.mass_scale,
            soft.impulse_scale,
        )
    } else {
        (Vector::zeros(), 1.0, 0.0)
    };
    let (ma, mb, ia, ib) = (a.inv_mass, b.inv_mass, a.inv_inertia, b.inv_inertia);
    let k11 = ma + mb + ra.y * ra.y * ia + rb.y * rb.y * ib;
    let k12 = -ra.y * ra.x * ia - rb.y * rb.x * ib;
    let k22 = ma + mb + ra.x * ra.x * ia + rb.x * rb.x * ib;
    let rhs = cdot + bias;
    let det = k11 * k22 - k12 * k12;
    let inv_det = if det != 0.0 { 1.0 / det } else { 0.0 };
    let x = Vector::new(
        inv_det * (k22 * rhs.x - k12 * rhs.y),
        inv_det * (k11 * rhs.y - k12 * rhs.x),
    );
    let impulse = -x * mass_scale - *accumulated * impulse_scale;
    *accumulated += impulse;
    apply(frame, a, b, &impulse, 0.0);
}

/// A one-sided row on B's angular speed minus A's (`sign` 1) or A's minus B's (`sign`
/// -1), with position error `c` (positive when slack), effective mass `axial_mass`:
/// a revolute joint's limits.
#[inline]
pub(crate) fn angular_limit_row(
    a: &mut SolverBody,
    b: &mut SolverBody,
    accumulated: &mut Real,
    (c, sign, axial_mass): (Real, Real, Real),
    ctx: &SolveContext<'_>,
) {
    let (bias, mass_scale, impulse_scale) = ctx.limit_terms(c);
    let cdot = sign * (b.w - a.w);
    let old = *accumulated;
    let impulse = -mass_scale * axial_mass * (cdot + bias) - impulse_scale * old;
    *accumulated = (old + impulse).max(0.0);
    let applied = sign * (*accumulated - old);
    a.w -= a.inv_inertia * applied;
    b.w += b.inv_inertia * applied;
}
