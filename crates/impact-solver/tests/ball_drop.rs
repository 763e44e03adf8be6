//! Invariant: a ball dropped from height `h` onto a static floor with restitution `e`
//! rebounds to `e^2 h` within 2%, simulated by the integrator and the contact solver at
//! 60 Hz (default settings, 4 substeps) with manifolds from `contact_manifold`. With `e = 0`
//! it stays on the floor.
//!
//! What remains of the error is semi-implicit Euler's own: a ballistic flight at speed `v`
//! loses about `g * h_sub / v` of its height per leg (`h_sub` the substep), so slow rebounds
//! at 60 Hz (a 0.3 m rebound leaves at 2.4 m/s: 1.7% on the way up alone) are checked by the
//! convergence test instead: a 4 times smaller step must cut the error at least 3 times, to under 1%.
//!
//! This is the one solver test that runs its own loop; the `World` will own it later. The
//! speculative distance grows with the ball's speed (the distance it can cover in a step),
//! which is what a discrete stepper does so that a contact exists before the ball arrives;
//! the solver then stops the ball at the surface and restitution reverses the velocity
//! captured just before the contact first pushed.

mod common;

use common::body;
use impact_geometry::tolerances::SPECULATIVE_DISTANCE;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Real, Vector};
use impact_narrowphase::contact_manifold;
use impact_solver::{BodySet, ContactCache, ContactPair, RigidBodyDef, SolverSettings, solve_step};

const DT: Real = 1.0 / 60.0;
const G: Real = 9.81;

/// Drops a ball of `radius` whose bottom starts `h` above the floor; returns the peak height
/// of its bottom after the first bounce.
fn rebound_height(h: Real, e: Real, radius: Real, dt: Real) -> Real {
    let mut bodies = BodySet::new();
    let floor = bodies
        .insert(
            RigidBodyDef::fixed(ConvexPolygon::rectangle(5.0, 0.5).unwrap().into())
                .pose(Isometry::translation(0.0, -0.5)),
        )
        .unwrap();
    let ball = bodies
        .insert(
            RigidBodyDef::new(Circle::new(radius).unwrap().into())
                .pose(Isometry::translation(0.0, h + radius))
                .restitution(e),
        )
        .unwrap();
    let gravity = Vector::new(0.0, -G);
    let settings = SolverSettings::default();
    let mut cache = ContactCache::new();
    let mut bounced = false;
    let mut peak: Real = 0.0;
    for step in 0..20_000 {
        let (f, b) = (body(&bodies, floor), body(&bodies, ball));
        let reach = (b.linvel().norm() + G * dt) * dt;
        let manifold = contact_manifold(
            f.shape(),
            f.pose(),
            b.shape(),
            b.pose(),
            SPECULATIVE_DISTANCE + reach,
        );
        let pairs = [ContactPair {
            a: floor,
            b: ball,
            manifold,
            shapes: [0, 0],
            offset: Vector::zeros(),
            material: None,
        }];
        solve_step(&mut bodies, &pairs, &mut cache, gravity, &settings, dt).unwrap();
        let b = body(&bodies, ball);
        let bottom = b.center_of_mass().y - radius;
        assert!(bottom > -0.01, "the ball sank to {bottom} at step {step}");
        if b.linvel().y > 0.0 {
            bounced = true;
        }
        if bounced {
            peak = peak.max(bottom);
            if b.linvel().y < 0.0 {
                return peak;
            }
        }
    }
    panic!("no rebound peak within 20,000 steps (bounced: {bounced})");
}

#[test]
fn rebound_height_is_e_squared_h() {
    for (h, e) in [(2.0, 0.8), (3.0, 0.5), (5.0, 0.9), (10.0, 0.3), (1.0, 1.0)] {
        let got = rebound_height(h, e, 0.25, DT);
        let want = e * e * h;
        let err = (got - want).abs() / want;
        assert!(
            err < 0.02,
            "h {h}, e {e}: rebound {got}, want {want} ({:.2}%)",
            err * 100.0
        );
    }
}

/// The error left is the integrator's (`g * h_sub / v` per ballistic leg), not the
/// contact's: it shrinks in proportion to the step (1.9% at 60 Hz, 0.5% at 240 Hz for this drop).
#[test]
fn rebound_error_converges_with_the_step() {
    let (h, e) = (1.0, 0.8);
    let want = e * e * h;
    let coarse = (rebound_height(h, e, 0.25, DT) - want).abs() / want;
    let fine = (rebound_height(h, e, 0.25, DT / 4.0) - want).abs() / want;
    assert!(fine < coarse / 3.0, "60 Hz: {coarse}, 240 Hz: {fine}");
    assert!(fine < 0.01, "240 Hz: {:.3}%", fine * 100.0);
}

#[test]
fn inelastic_ball_stays_down() {
    let got = rebound_height_or_zero(2.0);
    assert!(got < 0.01, "an e = 0 ball must not bounce, rose {got}");
}

/// With `e = 0` the ball may never move up; returns the highest bottom after first touching.
fn rebound_height_or_zero(h: Real) -> Real {
    let mut bodies = BodySet::new();
    let floor = bodies
        .insert(
            RigidBodyDef::fixed(ConvexPolygon::rectangle(5.0, 0.5).unwrap().into())
                .pose(Isometry::translation(0.0, -0.5)),
        )
        .unwrap();
    let ball = bodies
        .insert(
            RigidBodyDef::new(Circle::new(0.25).unwrap().into())
                .pose(Isometry::translation(0.0, h + 0.25)),
        )
        .unwrap();
    let mut cache = ContactCache::new();
    let mut touched = false;
    let mut peak: Real = 0.0;
    for _ in 0..300 {
        let (f, b) = (body(&bodies, floor), body(&bodies, ball));
        let reach = (b.linvel().norm() + G * DT) * DT;
        let manifold = contact_manifold(
            f.shape(),
            f.pose(),
            b.shape(),
            b.pose(),
            SPECULATIVE_DISTANCE + reach,
        );
        let pairs = [ContactPair {
            a: floor,
            b: ball,
            manifold,
            shapes: [0, 0],
            offset: Vector::zeros(),
            material: None,
        }];
        let solver = solve_step(
            &mut bodies,
            &pairs,
            &mut cache,
            Vector::new(0.0, -G),
            &SolverSettings::default(),
            DT,
        )
        .unwrap();
        let pushed = solver
            .constraints()
            .iter()
            .any(|c| c.points().iter().any(|p| p.max_normal_impulse() > 0.0));
        touched |= pushed;
        if touched {
            peak = peak.max(body(&bodies, ball).center_of_mass().y - 0.25);
        }
    }
    assert!(touched);
    peak
}
