//! Checks of a run that need nothing but body states: energy and momentum. The state hash
//! is [`BodySet::state_hash`]; which bodies passed through static geometry,
//! [`impact_stepper::judge`]'s.

use impact_geometry::{Real, Vector};
use impact_solver::BodySet;

/// Kinetic plus potential energy of the dynamic bodies in `gravity`: the sum of
/// `m v^2 / 2 + I w^2 / 2 - m g . c` (potential zero at the origin). Static and kinematic
/// bodies have none: nothing can change what they have.
pub fn mechanical_energy(bodies: &BodySet, gravity: Vector) -> Real {
    bodies
        .iter()
        .filter(|(_, b)| b.is_dynamic())
        .map(|(_, b)| b.kinetic_energy() - b.mass() * gravity.dot(&b.center_of_mass().coords))
        // `sum` of no floats is -0.0; a world without dynamic bodies has +0 energy.
        .fold(0.0, |total, e| total + e)
}

/// The linear momentum of the dynamic bodies, `sum m v`.
pub fn linear_momentum(bodies: &BodySet) -> Vector {
    bodies
        .iter()
        .map(|(_, b)| b.linear_momentum())
        .fold(Vector::zeros(), |a, p| a + p)
}
