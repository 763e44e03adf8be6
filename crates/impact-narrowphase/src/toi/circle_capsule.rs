//! Time of impact of a translating circle and a translating capsule.
//!
//! Configuration-space obstacle: the capsule's axis rounded by the sum of both radii plus the target separation, a capsule again; the same cast as circle–segment with a larger radius.

use super::linear::{LinearBody, cast_linear};
use crate::{NoClosedForm, Toi, ToiOptions};
use impact_geometry::{Capsule, Circle, Sweep};

/// The first fraction of the step at which the circle `a` and the capsule `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
pub fn toi_circle_capsule(
    a: &Circle,
    sweep_a: &Sweep,
    b: &Capsule,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), a.radius(), sweep_a)?;
    let b = LinearBody::new(b.core(), b.radius(), sweep_b)?;
    Ok(cast_linear(&a, &b, options))
}
