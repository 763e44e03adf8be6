//! Time of impact: closed forms per shape pair, conservative advancement, and the
//! dispatcher that picks between them (here: [`time_of_impact`]).
//!
//! - One module per pair, in canonical order (circle < segment < capsule < polygon), each
//!   placing the two cores for a shared kernel: `linear`, the cast of two translating cores
//!   (a fast swept-axes path, and the exact path through their Minkowski difference,
//!   `crate::minkowski`), or `rounded_segment`, a circle against a rounded segment (for
//!   circle–segment and circle–capsule).
//! - `closed_form`: [`closed_form_toi`], the dispatch over the pairs, which serves the reverse
//!   order by swapping the arguments and the answer.
//! - `rotating`: conservative advancement, for shapes that turn.
//! - `chain_segment`: the rules a chain segment adds to its plain segment's answer (one-sided,
//!   and its neighbours' impacts left to them), for the closed forms and conservative
//!   advancement alike.
//! - [`moving_points`]: where straight paths cross and when circles on them meet.

mod capsule_capsule;
mod capsule_polygon;
mod chain_segment;
mod circle_capsule;
mod circle_circle;
mod circle_polygon;
mod circle_segment;
mod closed_form;
mod ghost;
pub(crate) mod linear;
pub mod moving_points;
mod polygon_polygon;
mod rotating;
mod rounded_segment;
mod segment_capsule;
mod segment_polygon;
mod segment_segment;
#[cfg(test)]
mod testing;

pub use capsule_capsule::toi_capsule_capsule;
pub use capsule_polygon::toi_capsule_polygon;
pub use circle_capsule::toi_circle_capsule;
#[allow(deprecated)]
pub use circle_circle::toi_discs;
pub use circle_circle::{toi_circle_circle, toi_circles};
pub use circle_polygon::toi_circle_polygon;
#[allow(deprecated)]
pub use circle_segment::toi_disc_still_segment;
pub use circle_segment::{toi_circle_segment, toi_circle_still_segment};
pub use closed_form::closed_form_toi;
pub use polygon_polygon::toi_polygon_polygon;
pub use rotating::toi_conservative_advancement;
pub use segment_capsule::toi_segment_capsule;
pub use segment_polygon::toi_segment_polygon;
pub use segment_segment::toi_segment_segment;
// The closed forms' error, defined with the answer type every query returns.
pub use crate::toi_result::NoClosedForm;

use crate::options::ToiOptions;
use crate::toi_result::Toi;
use impact_geometry::{Real, Shape, Sweep};

/// Which time-of-impact method to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ToiMethod {
    /// The closed form when it applies (no rotation, or discs spinning in place), else
    /// conservative advancement.
    #[default]
    Auto,
    /// Only the closed form; fails with [`NoClosedForm`] for rotating sweeps.
    ClosedForm,
    /// Always conservative advancement, even where a closed form exists.
    ConservativeAdvancement,
}

/// The time of impact of `a` moving along `sweep_a` and `b` along `sweep_b`: the closed form
/// where one exists, conservative advancement otherwise.
///
/// Both argument orders are served; swapping `a` and `b` gives the same fraction and the
/// opposite normal.
#[inline]
pub fn time_of_impact(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Toi {
    dispatch(a, sweep_a, b, sweep_b, options, Real::INFINITY)
}

/// The closed form where one exists, conservative advancement up to `cutoff` otherwise (see
/// [`time_of_impact_until`]).
#[inline]
fn dispatch(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
    cutoff: Real,
) -> Toi {
    // A turning shape other than a circle has no closed form (only a circle can spin in
    // place): say so before the closed forms' dispatch finds it out, which for a polygon
    // falling onto ground would first build the ground's translating body.
    let turns =
        |shape: &Shape, sweep: &Sweep| sweep.rotates() && !matches!(shape, Shape::Circle(_));
    if turns(a, sweep_a) || turns(b, sweep_b) {
        return rotating::conservative_advancement_until(a, sweep_a, b, sweep_b, options, cutoff);
    }
    closed_form_toi(a, sweep_a, b, sweep_b, options).unwrap_or_else(|NoClosedForm| {
        rotating::conservative_advancement_until(a, sweep_a, b, sweep_b, options, cutoff)
    })
}

/// [`time_of_impact`] for a caller that only wants answers up to `cutoff`: the same answer,
/// bit for bit, when its safe fraction ([`Toi::safe_fraction`]) is at most `cutoff`, and
/// [`Toi::Separated`] when it is past it (or the shapes never meet). Conservative
/// advancement stops once it has proved the shapes apart up to `cutoff`, without changing
/// any step it takes before, so the cutoff saves the iterations past it and changes no
/// answer before it. A negative or NaN `cutoff` counts as 0.
///
/// For a minimum over many shape pairs (the shapes of two bodies): a pair asked with the
/// earliest fraction found so far as its cutoff either beats or ties it exactly as it would
/// unbounded, or comes back [`Toi::Separated`].
#[inline]
pub fn time_of_impact_until(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
    cutoff: Real,
) -> Toi {
    let cutoff = cutoff.max(0.0);
    let toi = dispatch(a, sweep_a, b, sweep_b, options, cutoff);
    match toi.safe_fraction() {
        Some(fraction) if fraction > cutoff => Toi::Separated,
        _ => toi,
    }
}

/// [`time_of_impact`] with the method chosen by the caller.
///
/// # Errors
/// [`NoClosedForm`] when `method` is [`ToiMethod::ClosedForm`] and a sweep rotates.
pub fn time_of_impact_with(
    method: ToiMethod,
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    match method {
        ToiMethod::Auto => Ok(time_of_impact(a, sweep_a, b, sweep_b, options)),
        ToiMethod::ClosedForm => closed_form_toi(a, sweep_a, b, sweep_b, options),
        ToiMethod::ConservativeAdvancement => Ok(toi_conservative_advancement(
            a, sweep_a, b, sweep_b, options,
        )),
    }
}
