//! Time of impact of a translating circle and a translating segment.
//!
//! Configuration-space obstacle: the segment itself, seen from the circle's centre, rounded by the radius plus the target separation: a capsule. The ray from the centre along the relative motion enters it through one of its two long sides (a line crossing, seed 001) or through the end cap around one end point (a circle root, seed 000).

use super::linear::{LinearBody, cast_linear};
use crate::{NoClosedForm, Toi, ToiOptions};
use impact_geometry::{Circle, Segment, Sweep};

/// The first fraction of the step at which the circle `a` and the segment `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
pub fn toi_circle_segment(
    a: &Circle,
    sweep_a: &Sweep,
    b: &Segment,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), a.radius(), sweep_a)?;
    let b = LinearBody::new(b.core(), 0.0, sweep_b)?;
    Ok(cast_linear(&a, &b, options))
}
