//! Time of impact of a translating segment and a translating convex polygon.
//!
//! Configuration-space obstacle: the polygon swept along the segment (at most n + 2 edges), entered through an edge (line crossing) or, with a target separation, a rounded corner (circle root).

use super::linear::{LinearBody, cast_linear};
use crate::{NoClosedForm, Toi, ToiOptions};
use impact_geometry::{ConvexPolygon, Segment, Sweep};

/// The first fraction of the step at which the segment `a` and the convex polygon `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
pub fn toi_segment_polygon(
    a: &Segment,
    sweep_a: &Sweep,
    b: &ConvexPolygon,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), 0.0, sweep_a)?;
    let b = LinearBody::new(b.core(), 0.0, sweep_b)?;
    Ok(cast_linear(&a, &b, options))
}
