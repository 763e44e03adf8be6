//! Motion shared by the CCD steppers: the course a body is credited with over a step, which
//! bodies are checked, and the contact solver's pairs as the steppers judge them.
//!
//! Both CCD steppers rebuild each body's motion as the straight sweep from its start pose to
//! the contact solver's target (the solver's substeps make the real path piecewise; only the
//! two poses are certain), and both, with the world, must agree on which bodies are fast:
//! what they share is here, so that the answers cannot drift apart. The solver's pairs are
//! judged in three files: `held` (which pairs the solver holds, and whether it held them),
//! `pushed_through` (the net that catches a pair the soft solver pushed through each other)
//! and `as_one` (the motion such a pair leaves with).

mod as_one;
#[cfg(test)]
mod earliest_tests;
mod held;
mod pushed_through;
mod shape_pairs;
#[cfg(test)]
mod tests;

pub(crate) use as_one::{move_as_one, move_pair_as_one};
pub(crate) use held::{
    BySlots, HeldPairs, closes_in, held_contact, held_contact_along, held_normal,
};
pub(crate) use pushed_through::{pushed_through, round_about_centre, turned_round};
pub use shape_pairs::{BodyToi, body_time_of_impact};
pub(crate) use shape_pairs::{
    ShapeRules, earliest_shape_tois, for_each_pair, never_collides, pair_toi, shape_at, shape_tois,
    shapes_material,
};

use core::f64::consts::TAU;
use impact_geometry::{Aabb, Isometry, Point, Real, Shape, Sweep, Vector, cross};
use impact_narrowphase::ToiOptions;
use impact_narrowphase::toi::moving_points::moving_circles;
use impact_solver::{BodyHandle, Joint, JointKind, RigidBody};

/// The motion of `body` from `start` to its current pose over `dt`, as a constant-velocity
/// sweep about the centre of mass, or `None` if it cannot be built (non-finite values).
pub(crate) fn rebuilt_sweep(body: &RigidBody, start: &Isometry, dt: Real) -> Option<Sweep> {
    let end = body.pose();
    let lc = body.local_center();
    let linvel = (end * lc - start * lc) / dt;
    let angvel = if end.rotation == start.rotation {
        0.0
    } else {
        let wrapped = (start.rotation.inverse() * end.rotation).angle();
        // Whole turns the wrapped angle may have lost, judged by the end angular velocity.
        let turns = ((body.angvel() * dt - wrapped) / TAU).round();
        let delta = if turns.is_finite() {
            wrapped + turns * TAU
        } else {
            wrapped
        };
        delta / dt
    };
    Sweep::new(*start, lc, linvel, angvel, dt).ok()
}

/// Whether bodies `a` and `b`, whose centres of mass go straight from the first point to the
/// second over the same time (as every sweep's centre does, whatever the body turns), stay
/// farther apart by their bounding discs about those centres than a time of impact with
/// `toi` reaches (its target separation plus its tolerance, with a relative margin for
/// rounding): the query would find them apart, after building both courses and its own
/// set-up. The closest approach of the discs is a closed form.
pub(crate) fn discs_stay_apart(
    (a, sweep_a, a0, a1): (&RigidBody, &Sweep, Point, Point),
    (b, sweep_b, b0, b1): (&RigidBody, &Sweep, Point, Point),
    toi: &ToiOptions,
) -> bool {
    circles_stay_apart(
        (a0, a1, a.bounding_radius(&sweep_a.local_center())),
        (b0, b1, b.bounding_radius(&sweep_b.local_center())),
        toi,
    )
}

/// [`discs_stay_apart`] given each disc's path (from, to) and radius: the radii plus the
/// target separation and the tolerance, with a relative margin for rounding (a pair this
/// near is asked). `FirstTimeOfImpact`'s plans give their kept radii.
pub(crate) fn circles_stay_apart(
    (a0, a1, ra): (Point, Point, Real),
    (b0, b1, rb): (Point, Point, Real),
    toi: &ToiOptions,
) -> bool {
    let reach = ra + rb + toi.target_separation() + toi.tolerance();
    // Not finite anywhere: no answer, and the query is asked.
    moving_circles(a0, a1, reach * (1.0 + 1e-9), b0, b1, 0.0).is_none() && reach.is_finite()
}

/// Whether every bound of `aabb` is finite.
pub(crate) fn is_finite(aabb: &Aabb) -> bool {
    aabb.mins.x.is_finite()
        && aabb.mins.y.is_finite()
        && aabb.maxs.x.is_finite()
        && aabb.maxs.y.is_finite()
}

/// Whether `body` is a *fast* CCD body this step: a dynamic body with the CCD flag whose
/// motion bound over the step, at its start velocities and `gravity` (its length), exceeds
/// `threshold` bounding radii. Both CCD steppers check such a body on their own and tell the
/// world so through [`Stepper::contact_reach`](crate::Stepper::contact_reach), before the
/// step; the stepper and the world must agree, so they share this.
pub(crate) fn fast_ccd_body(threshold: Real, body: &RigidBody, gravity: Real, dt: Real) -> bool {
    if !(body.is_dynamic() && body.ccd()) {
        return false;
    }
    moves_past_threshold(
        threshold,
        (body.linvel().norm() + gravity * dt, body.angvel()),
        body.bounding_radius(&body.local_center()),
        dt,
    )
}

/// Whether `joint` pulls with a spring or a motor over a step (the rows
/// `FirstTimeOfImpact`'s rigid advance over the step would leave out): the bodies it joins
/// are *driven*, and judged fast by their thickness ([`motion_scale`]). A motor held at speed 0 is joint friction (a ragdoll's): it
/// only takes energy out, and a rigid advance that leaves it out for the rest of one step
/// moves the group as freely as the friction lets it over that time at most; it does not
/// count as driving.
pub(crate) fn drives(joint: &Joint) -> bool {
    match joint.kind() {
        JointKind::Revolute(j) => {
            (j.enable_motor && j.max_motor_torque > 0.0 && j.motor_speed != 0.0)
                || (j.enable_spring && j.spring_hertz > 0.0)
        }
        JointKind::Prismatic(j) => {
            (j.enable_motor && j.max_motor_force > 0.0 && j.motor_speed != 0.0)
                || (j.enable_spring && j.spring_hertz > 0.0)
        }
        JointKind::Weld(j) => !j.is_rigid(),
        JointKind::Distance(j) => {
            (j.enable_motor && j.max_motor_force > 0.0) || (j.enable_spring && j.spring_hertz > 0.0)
        }
        JointKind::Wheel(_) | JointKind::Motor(_) | JointKind::Mouse(_) => true,
    }
}

/// The least maximum torque (or force) of a motor that no contact stalls: Box2D's samples
/// write an unlimited motor as `FLT_MAX` (the spinner's paddle).
pub(crate) const UNLIMITED_MOTOR: Real = f32::MAX as Real;

/// Whether `joint` is a turning or sliding motor of unlimited torque or force
/// ([`UNLIMITED_MOTOR`] or more): its bodies move on whatever they meet, as a kinematic
/// body does.
pub(crate) fn unstoppable(joint: &Joint) -> bool {
    match joint.kind() {
        JointKind::Revolute(j) => {
            j.enable_motor && j.motor_speed != 0.0 && j.max_motor_torque >= UNLIMITED_MOTOR
        }
        JointKind::Prismatic(j) => {
            j.enable_motor && j.motor_speed != 0.0 && j.max_motor_force >= UNLIMITED_MOTOR
        }
        _ => false,
    }
}

/// The size against which the motion of a body a motor or a spring drives is judged fast
/// (`FirstTimeOfImpact`'s kicked bodies): its bounding radius about its centre of mass, or,
/// where smaller, `sqrt(2)` times the half width of its thinnest shape (the half width of
/// the narrowest strip that holds it, a disc's radius; sensors left out). A square is judged
/// by its bounding radius (`sqrt(2)` times its half width), a long thin body by its
/// thickness: a flipper 1 long and 0.04 thick that its motor turns at 15 rad/s moves its
/// rim 0.25 a step, half its bounding radius, and sweeps a disc 0.04 across whole; a body
/// that moves less than its half width cannot carry a body that is not fast past its
/// middle. Other bodies keep their bounding radius: a thin plank sliding slowly along a
/// post, judged by its thickness, is planned as impacts that grind it to a stop.
pub(crate) fn motion_scale(body: &RigidBody) -> Real {
    let bound = body.bounding_radius(&body.local_center());
    let thinnest = body
        .shapes()
        .iter()
        .filter(|s| !s.is_sensor())
        .map(|s| half_width(s.shape()))
        .fold(Real::INFINITY, Real::min);
    bound.min(core::f64::consts::SQRT_2 * thinnest)
}

/// Half the width of the narrowest strip that holds `shape` (a disc's radius).
fn half_width(shape: &Shape) -> Real {
    shape
        .strip()
        .map_or(shape.radius(), |strip| strip.half_width)
}

/// Whether a body of bounding radius `r`, moving at `speed` and turning at `angvel`
/// (`(speed, angvel)`), covers more than `threshold` bounding radii in `dt`: the test of a
/// fast body, at its start velocities ([`fast_ccd_body`]) or on a course the contact solver
/// gave it (`FirstTimeOfImpact`'s kicked bodies).
pub(crate) fn moves_past_threshold(
    threshold: Real,
    (speed, angvel): (Real, Real),
    r: Real,
    dt: Real,
) -> bool {
    speed * dt + angvel.abs() * dt * r > threshold * r
}

/// The pose `body` (of `handle`) had at the start of the step: `start`'s, by slot, or where it
/// is for a body without one.
pub(super) fn start_pose(
    start: &[Option<Isometry>],
    handle: BodyHandle,
    body: &RigidBody,
) -> Isometry {
    start
        .get(handle.index as usize)
        .copied()
        .flatten()
        .unwrap_or(*body.pose())
}

/// Where a body is at `t` seconds into the step on a course `(t0, sweep)`: the course that
/// started at `t0` with `sweep` (of duration from `t0` to the end of the step).
#[inline]
pub(crate) fn pose_on_course((t0, sweep): (Real, Sweep), t: Real) -> Isometry {
    sweep.pose_at((t - t0) / sweep.dt())
}

/// Takes out of `body`'s velocity at `at` its component along `into` (a unit normal toward
/// an obstacle that does not move), if it closes in: the impulse at `at` of an inelastic
/// impact without friction on a fixed body. The obstacle is left as it is.
pub(crate) fn absorb_approach(body: &mut RigidBody, at: Point, into: Vector) {
    let approach = body.velocity_at_point(&at).dot(&into);
    if !body.is_dynamic() || approach <= 0.0 {
        return;
    }
    // How much an impulse of one along `into` at `at` changes the velocity there.
    let arm = cross(&(at - body.center_of_mass()), &into);
    let inverse_mass = body.inv_mass() + body.inv_inertia() * arm * arm;
    if inverse_mass > 0.0 {
        let ok = body.apply_impulse_at_point(-into * (approach / inverse_mass), at);
        debug_assert!(ok.is_ok(), "a finite impulse at a finite point");
    }
}
