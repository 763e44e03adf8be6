//! Invariant: through the `World` with the `Discrete` stepper at 60 Hz, a ball dropped with
//! its bottom `h` above the floor with restitution `e` rebounds to `e^2 h` within 2%.
//!
//! The drops are from 2 to 10 m, as in the solver's own ball test: what is left of the error
//! is semi-implicit Euler's (a ballistic leg at speed `v` loses about `g h_sub / v` of its
//! height, `h_sub` the substep), which stays under 2% at 60 Hz only for rebounds leaving
//! faster than about 3 m/s (a rebound above about 0.5 m). The speculative margin the world
//! adds (relative speed and gravity over a step) is what lets the solver catch the ball at
//! the surface instead of after it overlaps.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::Real;
use impact_stepper::Discrete;
use impact_testkit::scenes;

/// Drops the ball; returns the peak height of its bottom after the first bounce.
fn rebound_height(h: Real, e: Real) -> Real {
    let (mut world, handles) = scenes::ball_drop(h, e)
        .build::<RTreeBroadphase, Discrete>()
        .unwrap();
    let ball = handles[1];
    let mut bounced = false;
    let mut peak: Real = 0.0;
    for step in 0..2_000 {
        world.step(DT).unwrap();
        let b = world.body(ball).unwrap();
        let bottom = b.center_of_mass().y - scenes::BALL_RADIUS;
        assert!(bottom > -0.01, "the ball sank to {bottom} at step {step}");
        bounced |= b.linvel().y > 0.0;
        if bounced {
            peak = peak.max(bottom);
            if b.linvel().y < 0.0 {
                return peak;
            }
        }
    }
    panic!("no rebound peak within 2,000 steps (bounced: {bounced})");
}

#[test]
fn rebound_height_is_e_squared_h() {
    for (h, e) in [(2.0, 0.8), (3.0, 0.5), (5.0, 0.9), (10.0, 0.3), (1.0, 1.0)] {
        let got = rebound_height(h, e);
        let want = e * e * h;
        let err = (got - want).abs() / want;
        println!(
            "h {h}, e {e}: rebound {got:.4}, want {want:.4} ({:.2}%)",
            err * 100.0
        );
        assert!(
            err < 0.02,
            "h {h}, e {e}: rebound {got}, want {want} ({:.2}%)",
            err * 100.0
        );
    }
}

#[test]
fn inelastic_ball_stays_down() {
    let (mut world, handles) = scenes::ball_drop(2.0, 0.0)
        .build::<RTreeBroadphase, Discrete>()
        .unwrap();
    let mut landed = false;
    for _ in 0..180 {
        world.step(DT).unwrap();
        let b = world.body(handles[1]).unwrap();
        let bottom = b.center_of_mass().y - scenes::BALL_RADIUS;
        landed |= bottom < 0.01;
        if landed {
            assert!(bottom < 0.01, "an e = 0 ball bounced to {bottom}");
        }
    }
    assert!(landed, "the ball never reached the floor");
}
