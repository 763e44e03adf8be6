//! Motion shared by the CCD steppers: the sweep a body is credited with over a step, and the
//! broadphase query that covers it.

use core::f64::consts::TAU;
use impact_geometry::{Aabb, Isometry, Real, Sweep, Vector};
use impact_solver::{ContactPair, RigidBody};

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

/// The box and translation to query the broadphase with for `sweep` of `body`'s shape:
/// the shape's box at the start and the body-origin translation without rotation, the box of
/// the bounding disc about the centre of mass and the centre's translation with it.
pub(crate) fn query_box(body: &RigidBody, sweep: &Sweep, pad: Real) -> (Aabb, Vector) {
    if sweep.angvel() == 0.0 {
        let start = sweep.start();
        let aabb = body.shape().aabb(&start).inflated(pad);
        (
            aabb,
            sweep.pose_at(1.0).translation.vector - start.translation.vector,
        )
    } else {
        let r = body.shape().bounding_radius(&sweep.local_center());
        let c0 = sweep.center_at(0.0);
        (
            Aabb::from_points([c0]).inflated(r + pad),
            sweep.displacement(),
        )
    }
}

/// Whether `contacts` (sorted by the slots of `a`, then `b`, as the world builds them) hold
/// the pair of slots `x` and `y`, in either order.
pub(crate) fn holds_pair(contacts: &[ContactPair], x: u32, y: u32) -> bool {
    let key = if x < y { (x, y) } else { (y, x) };
    contacts
        .binary_search_by(|c| (c.a.index, c.b.index).cmp(&key))
        .is_ok()
}

/// Where a body is at `t` seconds into the step on a course `(t0, sweep)`: the course that
/// started at `t0` with `sweep` (of duration from `t0` to the end of the step).
#[inline]
pub(crate) fn pose_on_course((t0, sweep): (Real, Sweep), t: Real) -> Isometry {
    sweep.pose_at((t - t0) / sweep.dt())
}
