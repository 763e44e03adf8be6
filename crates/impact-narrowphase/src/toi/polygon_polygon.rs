//! Time of impact of a translating convex polygon and a translating convex polygon.
//!
//! Configuration-space obstacle: the Minkowski difference of the two polygons (at most n + m edges, built by merging edge directions). Its edges are the separating axes of both polygons, so the cast is a swept separating-axis test; with a target separation its corners are rounded and a vertex–vertex approach is a circle root.

use super::linear::{LinearBody, cast_linear};
use crate::{NoClosedForm, Toi, ToiOptions};
use impact_geometry::{ConvexPolygon, Sweep};

/// The first fraction of the step at which the convex polygon `a` and the convex polygon `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
pub fn toi_polygon_polygon(
    a: &ConvexPolygon,
    sweep_a: &Sweep,
    b: &ConvexPolygon,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), 0.0, sweep_a)?;
    let b = LinearBody::new(b.core(), 0.0, sweep_b)?;
    Ok(cast_linear(&a, &b, options))
}
