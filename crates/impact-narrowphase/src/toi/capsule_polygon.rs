//! Time of impact of a translating capsule and a translating convex polygon.
//!
//! Configuration-space obstacle: the polygon swept along the capsule axis, rounded by the capsule radius plus target.

use super::linear::{LinearBody, cast_linear};
use crate::{NoClosedForm, Toi, ToiOptions};
use impact_geometry::{Capsule, ConvexPolygon, Sweep};

/// The first fraction of the step at which the capsule `a` and the convex polygon `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
pub fn toi_capsule_polygon(
    a: &Capsule,
    sweep_a: &Sweep,
    b: &ConvexPolygon,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), a.radius(), sweep_a)?;
    let b = LinearBody::new(b.core(), 0.0, sweep_b)?;
    Ok(cast_linear(&a, &b, options))
}
