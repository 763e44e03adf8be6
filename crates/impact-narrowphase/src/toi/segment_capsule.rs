//! Time of impact of a translating segment and a translating capsule.
//!
//! Configuration-space obstacle: the parallelogram of the two axes, rounded by the capsule radius plus target.

use super::linear::{LinearBody, cast_linear};
use crate::{NoClosedForm, Toi, ToiOptions};
use impact_geometry::{Capsule, Segment, Sweep};

/// The first fraction of the step at which the segment `a` and the capsule `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
pub fn toi_segment_capsule(
    a: &Segment,
    sweep_a: &Sweep,
    b: &Capsule,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), 0.0, sweep_a)?;
    let b = LinearBody::new(b.core(), b.radius(), sweep_b)?;
    Ok(cast_linear(&a, &b, options))
}
