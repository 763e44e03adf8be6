//! Oracle: a point-like bob on a revolute joint swings with the period of the physical
//! pendulum (small amplitude) and of the exact elliptic-integral solution (90 degrees), and
//! keeps its energy.

mod common;

use common::{JointScene, anchor_body, disc};
use impact_geometry::{Point, Real, Vector};
use impact_solver::RevoluteJoint;

const L: Real = 2.0;
const G: Real = 10.0;
const R: Real = 0.02;

/// The complete elliptic integral of the first kind `K(k)`, by the arithmetic-geometric mean:
/// `K(k) = pi / (2 agm(1, sqrt(1 - k^2)))`.
fn elliptic_k(k: Real) -> Real {
    let (mut a, mut b) = (1.0, (1.0 - k * k).sqrt());
    while (a - b).abs() > 1e-15 * a {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    core::f64::consts::PI / (2.0 * a)
}

/// The small-amplitude period of the bob (a uniform disc of radius `R` at distance `L` from
/// the pivot): `2 pi sqrt(I_pivot / (m g L))` with `I_pivot = m (L^2 + R^2 / 2)`.
fn physical_period() -> Real {
    2.0 * core::f64::consts::PI * ((L * L + 0.5 * R * R) / (G * L)).sqrt()
}

/// Swings the bob from `amplitude` (radians from the bottom) for `swings` periods; returns
/// the mean period from upward zero crossings of the bob's x (linearly interpolated) and
/// the largest relative drift of the energy (measured from the lowest point).
fn swing(amplitude: Real, swings: usize) -> (Real, Real) {
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let pivot = scene.add(anchor_body(Point::origin()));
    let start = Point::new(L * amplitude.sin(), -L * amplitude.cos());
    let bob = scene.add(disc(R, 1.0, start, Vector::zeros()));
    scene.join(pivot, bob, Point::origin(), RevoluteJoint::default().into());
    let m = scene.body(bob).mass();
    let bottom = m * G * L;
    let e0 = scene.energy() + bottom;
    let (mut crossings, mut drift) = (Vec::new(), 0.0_f64);
    let mut last_x = scene.center(bob).x;
    let mut t = 0.0;
    let horizon = physical_period() * 1.3 * (swings as Real + 1.0);
    while t < horizon && crossings.len() < swings + 1 {
        scene.step();
        t += scene.dt;
        let x = scene.center(bob).x;
        // The bob moves right through the bottom once per period.
        if last_x < 0.0 && x >= 0.0 {
            crossings.push(t - scene.dt * x / (x - last_x));
        }
        last_x = x;
        drift = drift.max(((scene.energy() + bottom) - e0).abs() / e0);
    }
    assert!(
        crossings.len() > swings,
        "only {} crossings",
        crossings.len()
    );
    let period = (crossings[swings] - crossings[0]) / swings as Real;
    (period, drift)
}

#[test]
fn small_swings_have_the_physical_pendulum_period() {
    let (period, drift) = swing(5.0_f64.to_radians(), 20);
    let reference = physical_period();
    let ratio = period / reference;
    println!(
        "5 deg: period {period:.6} s, physical pendulum {reference:.6} s, ratio {ratio:.6}, energy drift {drift:.2e}"
    );
    assert!((ratio - 1.0).abs() < 0.005, "ratio {ratio}");
    assert!(drift < 0.02, "energy drift {drift}");
}

#[test]
fn large_swings_have_the_elliptic_period() {
    let amplitude = 90.0_f64.to_radians();
    let (period, drift) = swing(amplitude, 20);
    let exact =
        physical_period() * 2.0 / core::f64::consts::PI * elliptic_k((0.5 * amplitude).sin());
    let ratio = period / exact;
    println!(
        "90 deg: period {period:.6} s, exact {exact:.6} s (K ratio {:.6}), ratio {ratio:.6}, energy drift {drift:.2e}",
        exact / physical_period()
    );
    assert!((ratio - 1.0).abs() < 0.01, "ratio {ratio}");
    assert!(drift < 0.02, "energy drift {drift}");
}

#[test]
fn the_agm_gives_known_values_of_k() {
    // K(0) = pi / 2; K(sin 45 deg) = 1.854074677301372 (Abramowitz and Stegun, table 17.1).
    assert!((elliptic_k(0.0) - core::f64::consts::FRAC_PI_2).abs() < 1e-15);
    assert!((elliptic_k(0.5_f64.sqrt()) - 1.854_074_677_301_372).abs() < 1e-13);
}
