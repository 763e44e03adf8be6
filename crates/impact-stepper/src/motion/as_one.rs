//! Moving as one: the motion a pair leaves with when a stepper stopped it because the
//! contact solver pushed it through itself (or let it close in), a perfectly inelastic, rough
//! impact that keeps linear and angular momentum. Stopped with the velocities that did it,
//! the pair would be pushed through again from the same place at every step.

use super::start_pose;
use impact_geometry::{Isometry, Point, Vector, cross};
use impact_solver::{BodyHandle, BodySet, ContactPair};

/// Gives the bodies of `a` and `b`, each with its centre of mass where the pair is, one
/// rigid motion: that of the two as one body, linear and angular momentum kept, when both
/// are dynamic; the other body's when only one is; nothing when neither is. In effect a
/// perfectly inelastic, rough impact between them, which takes whatever relative motion they
/// had: the answer for a pair the contact solver pushed through each other and a stepper
/// stopped where it was.
pub(crate) fn move_as_one(
    bodies: &mut BodySet,
    (a, ca): (BodyHandle, Point),
    (b, cb): (BodyHandle, Point),
) {
    let (Some(body_a), Some(body_b)) = (bodies.get(a), bodies.get(b)) else {
        return;
    };
    // A centre of mass, its velocity, and the angular velocity of the motion.
    let (com, linvel, angvel) = match (body_a.is_dynamic(), body_b.is_dynamic()) {
        (true, true) => {
            let (ma, mb) = (body_a.mass(), body_b.mass());
            let m = ma + mb;
            let com = Point::from((ca.coords * ma + cb.coords * mb) / m);
            let linvel = (body_a.linvel() * ma + body_b.linvel() * mb) / m;
            let (ra, rb) = (ca - com, cb - com);
            let momentum = body_a.inertia() * body_a.angvel()
                + ma * cross(&ra, &body_a.linvel())
                + body_b.inertia() * body_b.angvel()
                + mb * cross(&rb, &body_b.linvel());
            let inertia = body_a.inertia()
                + ma * ra.norm_squared()
                + body_b.inertia()
                + mb * rb.norm_squared();
            (com, linvel, momentum / inertia)
        }
        // The body that moves on its own carries the dynamic one along.
        (true, false) => (cb, body_b.linvel(), body_b.angvel()),
        (false, true) => (ca, body_a.linvel(), body_a.angvel()),
        (false, false) => return,
    };
    if !(linvel.x.is_finite() && linvel.y.is_finite() && angvel.is_finite()) {
        return;
    }
    for (handle, centre) in [(a, ca), (b, cb)] {
        if let Some(body) = bodies.get_mut(handle)
            && body.is_dynamic()
        {
            let r = centre - com;
            let ok = body.set_velocity(linvel + Vector::new(-r.y, r.x) * angvel, angvel);
            debug_assert!(ok.is_ok(), "finite velocities");
        }
    }
}

/// [`move_as_one`] for the bodies of contact `c`, with their centres of mass where they
/// were at the start of the step (`start`, by slot; a body without one where it is), the
/// second at the image `c` meets it through.
///
/// The answer of both CCD steppers to a pair the contact solver pushed through each other,
/// which they stop where it was: stopped with the velocities that did it, it would be pushed
/// through again from the same place at the next step, and stopped again. In the tumbling
/// rain (1,000 bodies, seed 6), fast bodies side by side whose corners met mid-step hung in
/// mid-air that way for the rest of the run, gaining speed and spin from gravity and
/// friction while frozen: 304 under `FirstTimeOfImpact`, 20 under `MotionClamping`. Moving
/// as one, they have nothing left to push each other through with.
pub(crate) fn move_pair_as_one(bodies: &mut BodySet, start: &[Option<Isometry>], c: &ContactPair) {
    let centre = |handle: BodyHandle, offset: Vector| {
        let body = bodies.get(handle)?;
        Some((
            handle,
            start_pose(start, handle, body) * body.local_center() + offset,
        ))
    };
    if let (Some(a), Some(b)) = (centre(c.a, Vector::zeros()), centre(c.b, c.offset)) {
        move_as_one(bodies, a, b);
    }
}
