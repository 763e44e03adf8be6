//! Time of impact of a translating circle and a translating convex polygon.
//!
//! Configuration-space obstacle: the polygon (negated about the circle's centre) rounded by the radius plus target: the ray enters through an offset edge (a line crossing) or a vertex arc (a circle root).

use super::linear::{LinearBody, cast_linear};
use crate::{NoClosedForm, Toi, ToiOptions};
use impact_geometry::{Circle, ConvexPolygon, Sweep};

/// The first fraction of the step at which the circle `a` and the convex polygon `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
pub fn toi_circle_polygon(
    a: &Circle,
    sweep_a: &Sweep,
    b: &ConvexPolygon,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), a.radius(), sweep_a)?;
    let b = LinearBody::new(b.core(), 0.0, sweep_b)?;
    Ok(cast_linear(&a, &b, options))
}
