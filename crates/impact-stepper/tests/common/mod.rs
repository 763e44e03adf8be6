//! Helpers shared by the integration tests.

#![allow(dead_code)]

use impact_broadphase::Broadphase;
use impact_geometry::{Circle, Isometry, Real, Vector};
use impact_solver::RigidBodyDef;
use impact_stepper::{Stepper, World};

/// The seeded generator of the samples: the test kit's SplitMix64.
pub use impact_testkit::SplitMix64 as Rng;

/// 60 Hz, the step of every scene test.
pub const DT: f64 = 1.0 / 60.0;

/// [`BodySet::state_hash`](impact_solver::BodySet::state_hash) of the world's bodies.
pub fn state_hash<B: Broadphase, S: Stepper>(world: &World<B, S>) -> u64 {
    world.body_set().state_hash()
}

/// Steps `a` and `b` together `steps` times by `dt`: the same collision events at every
/// step, and the same body states, bit for bit, at the end.
pub fn assert_same_run<B: Broadphase, S: Stepper>(
    a: &mut World<B, S>,
    b: &mut World<B, S>,
    steps: usize,
    dt: Real,
) {
    for step in 0..steps {
        a.step(dt).unwrap();
        b.step(dt).unwrap();
        assert_eq!(a.events(), b.events(), "step {step}");
    }
    assert_eq!(state_hash(a), state_hash(b));
}

/// A CCD disc of radius 0.5 at `(x, y)` moving at `(vx, vy)`, perfectly elastic and
/// frictionless: the hard disk of the periodic and disc-path tests.
pub fn elastic_disc(x: Real, y: Real, vx: Real, vy: Real) -> RigidBodyDef {
    RigidBodyDef::new(Circle::new(0.5).unwrap().into())
        .pose(Isometry::translation(x, y))
        .linvel(Vector::new(vx, vy))
        .restitution(1.0)
        .friction(0.0)
        .ccd(true)
}

/// `count` seeded (speed, angle) pairs: speeds in [200, 10,000) units/s, angles within
/// +-1 radian of `+x`.
pub fn samples(seed: u64, count: usize) -> Vec<(Real, Real)> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|_| (rng.range(200.0, 10_000.0), rng.range(-1.0, 1.0)))
        .collect()
}
