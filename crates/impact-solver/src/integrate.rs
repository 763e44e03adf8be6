//! Semi-implicit (symplectic) Euler integration: velocities first, then positions with the
//! new velocities.
//!
//! Semi-implicit Euler is what every game physics engine uses: it is as cheap as explicit
//! Euler, but it does not pump energy into oscillators (a body on a spring orbits instead of
//! spiralling out), and integrating positions with the *solved* velocities is what lets the
//! contact solver stop bodies before they overlap.

use crate::BodySet;
use crate::body::BodyType;
use crate::error::{SolverError, finite_vector, positive};
use impact_geometry::{Real, Vector};

/// Adds `gravity * dt` to the velocity of every awake dynamic body, then applies damping.
///
/// Damping is the implicit form `v <- v / (1 + dt * c)` for a rate `c` (1/s): the exact decay
/// `exp(-c dt)` to first order, but it never overshoots to a reversed velocity however large
/// `c * dt` is. Static and kinematic bodies keep their velocities.
///
/// `gravity` is an acceleration (world units per second squared), `dt` in seconds.
///
/// # Errors
/// [`SolverError`] naming `gravity` (not finite) or `dt` (not positive and finite); no body is
/// changed.
pub fn integrate_velocities(
    bodies: &mut BodySet,
    gravity: Vector,
    dt: Real,
) -> Result<(), SolverError> {
    finite_vector("gravity", &gravity)?;
    positive("dt", dt)?;
    let dv = gravity * dt;
    for (_, body) in bodies.iter_awake_mut() {
        if body.body_type() != BodyType::Dynamic {
            continue;
        }
        let (v, w) = integrate_velocity(
            body.linvel(),
            body.angvel(),
            &dv,
            dt,
            body.linear_damping(),
            body.angular_damping(),
        );
        body.set_velocity_unchecked(v, w);
    }
    Ok(())
}

/// One dynamic body's velocity after `dt` seconds of gravity (`dv = gravity * dt`) and
/// damping: the arithmetic of [`integrate_velocities`], shared with the contact solver's own
/// loop so both give the same bits.
#[inline]
pub(crate) fn integrate_velocity(
    linvel: Vector,
    angvel: Real,
    dv: &Vector,
    dt: Real,
    linear_damping: Real,
    angular_damping: Real,
) -> (Vector, Real) {
    let mut v = linvel + dv;
    let mut w = angvel;
    if linear_damping > 0.0 {
        v /= 1.0 + dt * linear_damping;
    }
    if angular_damping > 0.0 {
        w /= 1.0 + dt * angular_damping;
    }
    (v, w)
}

/// Moves every awake dynamic and kinematic body along its velocity for `dt` seconds, rotating
/// about its centre of mass; static and sleeping bodies stay put.
///
/// Each body lands bit for bit on `body.sweep(dt)?.pose_at(1.0)`, so a stepper that planned
/// with sweeps and a stepper that integrates agree.
///
/// # Errors
/// [`SolverError`] naming `dt` if it is not positive and finite; no body is changed.
pub fn integrate_positions(bodies: &mut BodySet, dt: Real) -> Result<(), SolverError> {
    positive("dt", dt)?;
    for (_, body) in bodies.iter_awake_mut() {
        if body.body_type() != BodyType::Static {
            body.advance(dt);
        }
    }
    Ok(())
}
