//! The weld joint's rows (Box2D v3's `weld_joint.c`): the angle row, then the point row,
//! each rigid (the joints' position correction) or a spring of its own frequency.

use super::{Frame, SolveContext, point_row};
use crate::joint::def::WeldJoint;
use crate::joint::set::JointImpulses;
use crate::settings::Softness;
use crate::solver::bodies::{SolverBody, inverse_or_zero};
use impact_geometry::Real;

/// A weld joint's constants for the step.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    /// `1 / (iA + iB)`, zero when neither body turns.
    axial_mass: Real,
    /// The linear and angular springs' softness, `None` where rigid.
    linear: Option<Softness>,
    angular: Option<Softness>,
}

impl Row {
    pub(crate) fn new(joint: &WeldJoint, (a, b): (SolverBody, SolverBody), h: Real) -> Self {
        let soft = |hertz: Real, ratio: Real| (hertz > 0.0).then(|| Softness::new(hertz, ratio, h));
        Self {
            axial_mass: inverse_or_zero(a.inv_inertia + b.inv_inertia),
            linear: soft(joint.linear_hertz, joint.linear_damping_ratio),
            angular: soft(joint.angular_hertz, joint.angular_damping_ratio),
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
    // A spring acts in the relax too (it is a force, not a correction); the rigid rows'
    // correction only in the solve.
    let angular = p.angular.unwrap_or(ctx.soft);
    let (bias, mass_scale, impulse_scale) = if p.angular.is_some() || ctx.use_bias {
        (
            angular.bias_rate * frame.angle(),
            angular.mass_scale,
            angular.impulse_scale,
        )
    } else {
        (0.0, 1.0, 0.0)
    };
    let cdot = b.w - a.w;
    let impulse = -p.axial_mass * mass_scale * (cdot + bias) - impulse_scale * impulses.angular;
    impulses.angular += impulse;
    a.w -= a.inv_inertia * impulse;
    b.w += b.inv_inertia * impulse;

    match p.linear {
        Some(linear) => {
            let spring = SolveContext {
                use_bias: true,
                ..*ctx
            };
            point_row(frame, a, b, &mut impulses.linear, (&spring, &linear));
        }
        None => point_row(frame, a, b, &mut impulses.linear, (ctx, &ctx.soft)),
    }
}
