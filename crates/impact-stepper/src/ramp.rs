//! The velocity a body has at each instant of its course inside a step.
//!
//! A CCD stepper moves a body along a *course*: the straight sweep from where it is to where
//! the step's contact solver (or a free flight) takes it, which the times of impact are
//! computed on. The course's velocity is constant, but the body's is not: gravity and the
//! solver's contacts change it over the step. An impact at time `t` must resolve the velocity
//! the body has at `t` (start velocity plus gravity up to `t`), not the one it ends the step
//! with, which already holds the whole step's gravity: reflecting that one gains energy at
//! every bounce. A [`Ramp`] says how the velocity changes along the current course.
//!
//! - A body in **free flight** (dynamic, without linear damping, in no contact the solver
//!   held) follows a parabola: its velocity at `t` is its velocity at the course's start plus
//!   gravity up to `t`, and its course is the chord of that parabola (the solver moves free
//!   bodies on the exact constant-acceleration path, so the chord's ends are on it). On the
//!   chord, the body is lower along gravity than on the parabola at the same instant (by up
//!   to `|g| T^2 / 8` over a course of `T` seconds), and an impact on the chord with the
//!   parabola's velocity at that instant would lose that height's energy at every bounce.
//!   So the velocity's component along gravity is the parabola's where it reaches the
//!   impact's height: its size from energy (`u^2 = u0^2 + 2 |g| h`, `h` the drop since the
//!   course's start), its sign from the time. The component across gravity is the start's.
//!   A bounce then keeps `y + v_y^2 / (2 |g|)` to rounding, at any step length.
//! - A body the contact solver held (or one with damping) moves on the solver's course and
//!   has the velocities the solver gave it for the whole step: its contacts met its gravity
//!   as the solver saw fit, and the course is built from that solution (a ramp from its
//!   start velocities would disagree with its own course: a body the solver kicked away from
//!   a wall would be found closing on the wall at the start of its course and separating at
//!   once, again and again).
//!
//! After an impact, the rest of the step continues from the resolved velocity with the same
//! acceleration, on the chord of that motion: the course's velocity is the mean, `v + a τ / 2`
//! over the `τ` seconds left, and the body ends the step at `v + a τ`.

use impact_geometry::{Real, Sweep, Vector};
use impact_solver::RigidBody;

/// How a body's velocity changes along its current course (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Ramp {
    /// Linear acceleration along the course (world units per second squared).
    pub accel: Vector,
    /// Angular acceleration (radians per second squared).
    pub alpha: Real,
    /// The course is a chord of a free-flight parabola under `accel` (see the module docs).
    pub free: bool,
    /// The time, in seconds from the start of the step, at which the body's stored
    /// velocities hold: the end of the step (`dt`) for a body on a course, the time of the
    /// impact while one is resolved.
    pub at: Real,
}

impl Default for Ramp {
    fn default() -> Self {
        Self::still(0.0)
    }
}

impl Ramp {
    /// No change of velocity, with the stored velocities holding at `at`.
    pub fn still(at: Real) -> Self {
        Self {
            accel: Vector::zeros(),
            alpha: 0.0,
            free: false,
            at,
        }
    }

    /// The ramp of a body's first course over a step of `dt` seconds, the body holding the
    /// velocities it ends the step with: gravity (the world's) for a dynamic body without
    /// damping that flew free (`free`: in no contact the solver held), none otherwise (see
    /// the module docs).
    pub fn over_step(body: &RigidBody, gravity: Vector, free: bool, dt: Real) -> Self {
        let free = free
            && body.is_dynamic()
            && body.linear_damping() == 0.0
            && body.angular_damping() == 0.0;
        if !free {
            return Self::still(dt);
        }
        Self {
            accel: gravity,
            alpha: 0.0,
            free,
            at: dt,
        }
    }

    /// The velocities at `t` of a body whose stored velocities are `stored` (holding at
    /// [`Ramp::at`]), on the course `(t0, sweep)` that started at `t0`.
    pub fn velocity_at(
        &self,
        stored: (Vector, Real),
        (t0, sweep): (Real, Sweep),
        t: Real,
    ) -> (Vector, Real) {
        if t == self.at {
            return stored;
        }
        let (v, w) = (
            stored.0 + self.accel * (t - self.at),
            stored.1 + self.alpha * (t - self.at),
        );
        if !self.free || t == t0 {
            return (v, w);
        }
        let g = self.accel.norm();
        let Some(down) = self.accel.try_normalize(0.0) else {
            return (v, w);
        };
        // The velocity at the course's start, and the drop along gravity since then on the
        // chord.
        let v0 = stored.0 + self.accel * (t0 - self.at);
        let u0 = v0.dot(&down);
        let drop = sweep.linvel().dot(&down) * (t - t0);
        let speed = (u0 * u0 + 2.0 * g * drop).max(0.0).sqrt();
        let u = if u0 + g * (t - t0) < 0.0 {
            -speed
        } else {
            speed
        };
        (v0 + down * (u - u0), w)
    }

    /// The course from `t` over the `rest` seconds left of a body whose velocities at `t` are
    /// `(v, w)`: the chord's constant velocities (the mean of the motion) and the velocities
    /// at its end.
    pub fn course(&self, (v, w): (Vector, Real), rest: Real) -> ((Vector, Real), (Vector, Real)) {
        (
            (v + self.accel * (rest * 0.5), w + self.alpha * (rest * 0.5)),
            (v + self.accel * rest, w + self.alpha * rest),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::{Isometry, Point};

    /// On the chord of a drop from rest, the velocity at every instant is the one energy
    /// gives at the chord's height, and at the chord's ends the parabola's exactly.
    #[test]
    fn free_flight_velocity_on_the_chord_keeps_energy() {
        let g = Vector::new(0.0, -9.81);
        let dt = 1.0 / 15.0;
        let (v0, y0) = (Vector::new(1.5, -2.0), 3.0);
        // The parabola's end, and the chord to it.
        let end = Vector::new(v0.x * dt, y0 + v0.y * dt + 0.5 * g.y * dt * dt);
        let sweep = Sweep::new(
            Isometry::translation(0.0, y0),
            Point::origin(),
            (end - Vector::new(0.0, y0)) / dt,
            0.0,
            dt,
        )
        .unwrap();
        let ramp = Ramp {
            accel: g,
            alpha: 0.0,
            free: true,
            at: dt,
        };
        let stored = (v0 + g * dt, 0.0);
        let energy = |y: Real, v: Vector| y * 9.81 + 0.5 * v.norm_squared();
        for k in 0..=10 {
            let t = dt * Real::from(k) / 10.0;
            let (v, _) = ramp.velocity_at(stored, (0.0, sweep), t);
            let y = sweep.pose_at(t / dt).translation.y;
            assert!((energy(y, v) - energy(y0, v0)).abs() < 1e-12, "{k}: {v:?}");
            assert_eq!(v.x, v0.x);
        }
        let (v1, _) = ramp.velocity_at(stored, (0.0, sweep), dt);
        assert!((v1 - (v0 + g * dt)).norm() < 1e-12);
    }
}
