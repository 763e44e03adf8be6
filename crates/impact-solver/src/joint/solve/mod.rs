//! The velocity rows of every kind of joint, in Box2D v3's soft-step form (its
//! `revolute_joint.c`, `prismatic_joint.c`, `weld_joint.c`, `distance_joint.c`,
//! `wheel_joint.c`, `motor_joint.c` and `mouse_joint.c`): what a joint of each kind
//! prepares once per step, applies at the warm start and solves at each iteration.
//!
//! Every kind reads the joint's [`Frame`] (lever arms and offsets at the step's start, and
//! turned with the bodies since), so the rows measure position errors without reading a
//! pose, and shares [`point_row`] (the two anchors held together), [`angular_limit_row`]
//! (a one-sided row on the relative angular speed) and the rows along a direction
//! ([`Line`]: a spring, a motor, a limit or a rigid row along a prismatic or wheel joint's
//! axis, its perpendicular, or a distance joint's length).

mod distance;
mod motor;
mod mouse;
mod prismatic;
mod revolute;
mod weld;
mod wheel;

use super::def::JointKind;
use super::rows::JointRow;
use super::set::JointImpulses;
use crate::body::RigidBody;
use crate::settings::Softness;
use crate::solver::bodies::{Motion, SolverBody, inverse_or_zero};
use impact_geometry::{Point, Real, Vector, cross, cross_scalar_vector};

/// Where a joint's anchors are at the step's start: what a row keeps, from which every stage
/// builds the [`Frame`] of the moment from the bodies' [`Motion`] (a row stores nothing that
/// changes as the bodies move, so no pass writes every row after every substep).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Anchors {
    /// The lever arms from each centre of mass to its anchor, world frame, at the start.
    pub(crate) anchor_a: Vector,
    pub(crate) anchor_b: Vector,
    /// B's centre minus A's at the start.
    pub(crate) delta_center: Vector,
    /// The joint angle at the start: B's angle minus A's minus the reference angle, in
    /// `(-pi, pi]`.
    pub(crate) delta_angle: Real,
}

impl Anchors {
    /// The anchors of a joint with anchors `local` (body frames) and, for rows that read the
    /// joint angle, `reference_angle` (`None`: the angle is left at 0, unread), between
    /// bodies at their current poses.
    pub(crate) fn new(
        (a, b): (&RigidBody, &RigidBody),
        (local_a, local_b): (&Point, &Point),
        reference_angle: Option<Real>,
    ) -> Self {
        let delta_angle = reference_angle.map_or(0.0, |reference| {
            let relative = (b.pose().rotation * a.pose().rotation.inverse()).angle();
            wrap_angle(relative - reference)
        });
        Self {
            anchor_a: a.pose().rotation * (local_a - a.local_center()),
            anchor_b: b.pose().rotation * (local_b - b.local_center()),
            delta_center: b.center_of_mass() - a.center_of_mass(),
            delta_angle,
        }
    }

    /// The frame at the start.
    #[inline]
    pub(crate) fn at_start(&self) -> Frame {
        self.frame(&START, &START)
    }

    /// The frame with the bodies moved by `a` and `b` since the start.
    #[inline]
    pub(crate) fn frame(&self, a: &Motion, b: &Motion) -> Frame {
        Frame {
            delta_center: self.delta_center,
            delta_angle: self.delta_angle,
            r_a: rotate(a.dq, &self.anchor_a),
            r_b: rotate(b.dq, &self.anchor_b),
            dp: b.dp - a.dp,
            dq_a: a.dq,
            dq_b: b.dq,
        }
    }
}

/// No motion: a body at the step's start.
const START: Motion = Motion {
    dp: Vector::new(0.0, 0.0),
    dq: (1.0, 0.0),
};

/// Where a joint's anchors are: at the step's start, and as the bodies have moved since.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
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
    /// A's and B's rotations since the start, as (cos, sin): axes fixed in A turn with the
    /// first, and the joint angle's change is read from both ([`Frame::d_angle`]) only by
    /// the rows that need it (an arctangent per joint per substep, a fifth of a step of
    /// Box2D's joint grid, where no row reads it).
    pub(crate) dq_a: (Real, Real),
    pub(crate) dq_b: (Real, Real),
}

/// `v` turned by the rotation `(cos, sin)`.
#[inline]
pub(crate) fn rotate((c, s): (Real, Real), v: &Vector) -> Vector {
    Vector::new(c * v.x - s * v.y, s * v.x + c * v.y)
}

/// `angle` brought into `(-pi, pi]`, however many turns away: a joint angle read from two
/// poses against a reference angle of any size (a reference of `0.3 + 6 pi` is the joint of
/// `0.3`).
///
/// An angle within one turn of that range is [`unwind`]'s, bit for bit.
pub(crate) fn wrap_angle(angle: Real) -> Real {
    use core::f64::consts::PI;
    if (-3.0 * PI..=3.0 * PI).contains(&angle) {
        return unwind(angle);
    }
    let wrapped = (angle + PI).rem_euclid(2.0 * PI) - PI;
    if wrapped == -PI { PI } else { wrapped }
}

/// `angle`, at most one turn out, brought into `(-pi, pi]`.
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
    /// B's rotation since the start minus A's (radians, in `(-pi, pi]`).
    #[inline]
    pub(crate) fn d_angle(&self) -> Real {
        let (ca, sa) = self.dq_a;
        let (cb, sb) = self.dq_b;
        impact_geometry::atan2(sb * ca - cb * sa, cb * ca + sb * sa)
    }

    /// B's anchor minus A's now (world frame).
    #[inline]
    pub(crate) fn separation(&self) -> Vector {
        self.dp + (self.r_b - self.r_a) + self.delta_center
    }

    /// The joint angle now (radians, followed continuously from the start's).
    #[inline]
    pub(crate) fn angle(&self) -> Real {
        self.delta_angle + self.d_angle()
    }
}

/// What a stage tells the joints.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SolveContext<'a> {
    /// The bodies' motion since the start, indexed like the velocities.
    pub(crate) motion: &'a [Motion],
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
    Prismatic(prismatic::Row),
    Weld(weld::Row),
    Distance(distance::Row),
    Wheel(wheel::Row),
    Motor(motor::Row),
    Mouse(mouse::Row),
}

impl Prepared {
    /// The constants of `kind` for a step of substeps `h`, between `bodies` (at their poses
    /// of the step's start) of the inverse masses of `masses`.
    pub(crate) fn new(
        kind: &JointKind,
        frame: &Frame,
        masses: (SolverBody, SolverBody),
        bodies: (&RigidBody, &RigidBody),
        h: Real,
    ) -> Self {
        let rotation_a = &bodies.0.pose().rotation;
        match kind {
            JointKind::Revolute(j) => Self::Revolute(revolute::Row::new(j, masses, h)),
            JointKind::Prismatic(j) => Self::Prismatic(prismatic::Row::new(j, rotation_a, h)),
            JointKind::Weld(j) => Self::Weld(weld::Row::new(j, masses, h)),
            JointKind::Distance(j) => Self::Distance(distance::Row::new(j, h)),
            JointKind::Wheel(j) => Self::Wheel(wheel::Row::new(j, masses, rotation_a, h)),
            JointKind::Motor(j) => Self::Motor(motor::Row::new(j, frame, masses, rotation_a)),
            JointKind::Mouse(j) => Self::Mouse(mouse::Row::new(j, frame, masses, bodies.1, h)),
        }
    }

    /// `impulses` with the rows this joint does not solve this step set to zero: a motor,
    /// limit or spring switched off since (through [`Joint::set_kind`]) must not keep
    /// pushing through the warm start.
    ///
    /// [`Joint::set_kind`]: crate::Joint::set_kind
    pub(crate) fn used(&self, impulses: &JointImpulses) -> JointImpulses {
        match self {
            Self::Revolute(p) => p.used(impulses),
            Self::Prismatic(p) => p.used(impulses),
            Self::Distance(p) => p.used(impulses),
            Self::Wheel(p) => p.used(impulses),
            Self::Weld(_) | Self::Motor(_) | Self::Mouse(_) => JointImpulses {
                linear: impulses.linear,
                angular: impulses.angular,
                ..JointImpulses::default()
            },
        }
    }

    /// The joint's reaction on B from its accumulated `impulses`, with the bodies where
    /// `frame` last saw them: (linear, angular) impulses, to be divided by the substep.
    pub(crate) fn reaction(&self, impulses: &JointImpulses, frame: &Frame) -> (Vector, Real) {
        let i = impulses;
        match self {
            Self::Revolute(_) => (i.linear, i.spring + i.motor + i.lower - i.upper),
            Self::Prismatic(p) => p.reaction(i, frame),
            Self::Distance(_) => (distance::axis(frame).0 * distance::axial(i), 0.0),
            Self::Wheel(p) => p.reaction(i, frame),
            Self::Weld(_) | Self::Motor(_) | Self::Mouse(_) => (i.linear, i.angular),
        }
    }
}

/// Applies a row's accumulated impulses at the start of a substep, the bodies having moved
/// by `motion` since the start of the step.
pub(crate) fn warm_start(
    row: &JointRow,
    (a, b): (&mut SolverBody, &mut SolverBody),
    motion: &[Motion],
) {
    let frame = &row.frame(motion);
    let i = &row.impulses;
    match &row.prepared {
        Prepared::Revolute(_) => {
            let axial = i.spring + i.motor + i.lower - i.upper;
            apply(frame, a, b, &i.linear, axial);
        }
        Prepared::Prismatic(p) => p.warm_start(frame, i, (a, b)),
        Prepared::Weld(_) | Prepared::Motor(_) => apply(frame, a, b, &i.linear, i.angular),
        Prepared::Distance(_) => distance::warm_start(frame, i, (a, b)),
        Prepared::Wheel(p) => p.warm_start(frame, i, (a, b)),
        Prepared::Mouse(_) => mouse::warm_start(frame, i, b),
    }
}

/// One iteration of a row.
pub(crate) fn solve(
    row: &mut JointRow,
    a: &mut SolverBody,
    b: &mut SolverBody,
    ctx: &SolveContext<'_>,
) {
    let frame = &row.frame(ctx.motion);
    let JointRow {
        prepared,
        impulses,
        b: index_b,
        ..
    } = row;
    match prepared {
        Prepared::Revolute(p) => revolute::solve(p, frame, impulses, (a, b), ctx),
        Prepared::Prismatic(p) => prismatic::solve(p, frame, impulses, (a, b), ctx),
        Prepared::Weld(p) => weld::solve(p, frame, impulses, (a, b), ctx),
        Prepared::Distance(p) => distance::solve(p, frame, impulses, (a, b), ctx),
        Prepared::Wheel(p) => wheel::solve(p, frame, impulses, (a, b), ctx),
        Prepared::Motor(p) => motor::solve(p, frame, impulses, (a, b), ctx),
        Prepared::Mouse(p) => {
            let moved_b = ctx.motion[*index_b as usize].dp;
            mouse::solve(p, frame, impulses, (b, &moved_b));
        }
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

/// A row along a direction: B's anchor's speed along the unit vector `n` relative to A's,
/// with the torque arms `sa` and `sb` an impulse along `n` has on A and on B (Box2D's `a1`,
/// `a2` for an axis, `s1`, `s2` for its perpendicular, `cross(r, u)` for a distance joint).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line {
    pub(crate) n: Vector,
    pub(crate) sa: Real,
    pub(crate) sb: Real,
}

impl Line {
    /// The row along `n` through levers `lever_a` (from A's centre) and `lever_b` (from B's).
    #[inline]
    pub(crate) fn new(n: Vector, lever_a: &Vector, lever_b: &Vector) -> Self {
        Self {
            n,
            sa: cross(lever_a, &n),
            sb: cross(lever_b, &n),
        }
    }

    /// The relative speed along the row.
    #[inline]
    pub(crate) fn speed(&self, a: &SolverBody, b: &SolverBody) -> Real {
        self.n.dot(&(b.v - a.v)) + self.sb * b.w - self.sa * a.w
    }

    /// Applies `impulse` along the row (on B, its opposite on A).
    #[inline]
    pub(crate) fn apply(&self, a: &mut SolverBody, b: &mut SolverBody, impulse: Real) {
        let p = self.n * impulse;
        a.v -= p * a.inv_mass;
        a.w -= a.inv_inertia * (self.sa * impulse);
        b.v += p * b.inv_mass;
        b.w += b.inv_inertia * (self.sb * impulse);
    }

    /// The effective mass along the row, zero where nothing can move along it.
    #[inline]
    pub(crate) fn mass(&self, a: &SolverBody, b: &SolverBody) -> Real {
        inverse_or_zero(
            a.inv_mass
                + b.inv_mass
                + a.inv_inertia * self.sa * self.sa
                + b.inv_inertia * self.sb * self.sb,
        )
    }

    /// A soft row of effective mass `mass` with the terms `(bias, mass_scale,
    /// impulse_scale)` (a spring's, or [`SolveContext::soft_terms`] for a rigid row):
    /// accumulates into `accumulated` and applies the change.
    #[inline]
    pub(crate) fn soft(
        &self,
        (a, b): (&mut SolverBody, &mut SolverBody),
        accumulated: &mut Real,
        (bias, mass_scale, impulse_scale): (Real, Real, Real),
        mass: Real,
    ) {
        let cdot = self.speed(a, b);
        let impulse = -mass_scale * mass * (cdot + bias) - impulse_scale * *accumulated;
        *accumulated += impulse;
        self.apply(a, b, impulse);
    }

    /// A motor toward the relative speed `speed` whose accumulated impulse stays within
    /// `max` either way.
    #[inline]
    pub(crate) fn motor(
        &self,
        (a, b): (&mut SolverBody, &mut SolverBody),
        accumulated: &mut Real,
        (speed, max, mass): (Real, Real, Real),
    ) {
        let impulse = mass * (speed - self.speed(a, b));
        let old = *accumulated;
        *accumulated = (old + impulse).clamp(-max, max);
        self.apply(a, b, *accumulated - old);
    }

    /// A one-sided row along the line (`sign` 1: a lower limit) or against it (`sign` -1:
    /// an upper limit), with position error `c` positive when slack (see
    /// [`SolveContext::limit_terms`]); its accumulated impulse stays zero or more.
    #[inline]
    pub(crate) fn limit(
        &self,
        (a, b): (&mut SolverBody, &mut SolverBody),
        accumulated: &mut Real,
        (c, sign, mass): (Real, Real, Real),
        ctx: &SolveContext<'_>,
    ) {
        let (bias, mass_scale, impulse_scale) = ctx.limit_terms(c);
        let cdot = sign * self.speed(a, b);
        let old = *accumulated;
        let impulse = -mass_scale * mass * (cdot + bias) - impulse_scale * old;
        *accumulated = (old + impulse).max(0.0);
        self.apply(a, b, sign * (*accumulated - old));
    }
}

/// The terms of a user spring on position error `c`: it acts in the solve and the relax
/// alike (a spring is a force of the model, not a correction of drift).
#[inline]
pub(crate) fn spring_terms(spring: &Softness, c: Real) -> (Real, Real, Real) {
    (
        spring.bias_rate * c,
        spring.mass_scale,
        spring.impulse_scale,
    )
}

/// A user spring's softness over a substep of `h`, or `None` when it is off or its
/// frequency is 0 (no force at all, where Box2D's `b2MakeSoft` would make a rigid row).
#[inline]
pub(crate) fn user_spring(
    enabled: bool,
    hertz: Real,
    damping_ratio: Real,
    h: Real,
) -> Option<Softness> {
    (enabled && hertz > 0.0).then(|| Softness::new(hertz, damping_ratio, h))
}

/// The solution of the symmetric system `[k11 k12; k12 k22] x = rhs`, zero when singular
/// (Box2D's `b2Solve22`).
#[inline]
pub(crate) fn solve22((k11, k12, k22): (Real, Real, Real), rhs: &Vector) -> Vector {
    let det = k11 * k22 - k12 * k12;
    let inv_det = if det != 0.0 { 1.0 / det } else { 0.0 };
    Vector::new(
        inv_det * (k22 * rhs.x - k12 * rhs.y),
        inv_det * (k11 * rhs.y - k12 * rhs.x),
    )
}

/// The inverse of the point-to-point mass matrix of two bodies at lever arms `ra`, `rb`,
/// as its three distinct entries, zero when singular (Box2D's `b2GetInverse22` of the `K`
/// of a point row).
#[inline]
pub(crate) fn point_mass(
    (a, b): (&SolverBody, &SolverBody),
    ra: &Vector,
    rb: &Vector,
) -> (Real, Real, Real) {
    let (ma, mb, ia, ib) = (a.inv_mass, b.inv_mass, a.inv_inertia, b.inv_inertia);
    let k11 = ma + mb + ra.y * ra.y * ia + rb.y * rb.y * ib;
    let k12 = -ra.y * ra.x * ia - rb.y * rb.x * ib;
    let k22 = ma + mb + ra.x * ra.x * ia + rb.x * rb.x * ib;
    let det = k11 * k22 - k12 * k12;
    let inv_det = if det != 0.0 { 1.0 / det } else { 0.0 };
    (inv_det * k22, -inv_det * k12, inv_det * k11)
}

/// `m v` for the symmetric matrix of entries `m`.
#[inline]
pub(crate) fn mul_sym((m11, m12, m22): (Real, Real, Real), v: &Vector) -> Vector {
    Vector::new(m11 * v.x + m12 * v.y, m12 * v.x + m22 * v.y)
}
