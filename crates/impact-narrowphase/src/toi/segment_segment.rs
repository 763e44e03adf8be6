//! Time of impact of a translating segment and a translating segment.
//!
//! Configuration-space obstacle: a parallelogram whose edges are each end point of one segment minus the other segment. Every first contact is end point against edge (or two parallel edges): the obstacle's edges are exactly those cases. With a positive target separation the corners are rounded and end-point–end-point contacts are circle roots.

use super::linear::{LinearBody, cast_linear};
use crate::{NoClosedForm, Toi, ToiOptions};
use impact_geometry::{Segment, Sweep};

/// The first fraction of the step at which the segment `a` and the segment `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
pub fn toi_segment_segment(
    a: &Segment,
    sweep_a: &Sweep,
    b: &Segment,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), 0.0, sweep_a)?;
    let b = LinearBody::new(b.core(), 0.0, sweep_b)?;
    Ok(cast_linear(&a, &b, options))
}
