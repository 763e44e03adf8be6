//! Time of impact of a translating capsule and a translating capsule.
//!
//! Configuration-space obstacle: the parallelogram of the two axes rounded by the sum of the radii plus target: end-point–edge contacts are line crossings, end-point–end-point contacts are circle roots.

use super::linear::{LinearBody, cast_linear};
use crate::{NoClosedForm, Toi, ToiOptions};
use impact_geometry::{Capsule, Sweep};

/// The first fraction of the step at which the capsule `a` and the capsule `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
pub fn toi_capsule_capsule(
    a: &Capsule,
    sweep_a: &Sweep,
    b: &Capsule,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), a.radius(), sweep_a)?;
    let b = LinearBody::new(b.core(), b.radius(), sweep_b)?;
    Ok(cast_linear(&a, &b, options))
}
