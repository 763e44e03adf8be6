//! The closed-form time of impact of any pair of shapes: one module per pair in canonical order
//! (circle < segment < capsule < polygon); the reverse order is served by swapping the arguments
//! and the answer.

use super::capsule_capsule::toi_capsule_capsule;
use super::capsule_polygon::toi_capsule_polygon;
use super::chain_segment;
use super::circle_capsule::toi_circle_capsule;
use super::circle_circle::toi_circle_circle;
use super::circle_polygon::toi_circle_polygon;
use super::circle_segment::toi_circle_segment;
use super::ghost;
use super::polygon_polygon::toi_polygon_polygon;
use super::segment_capsule::toi_segment_capsule;
use super::segment_polygon::toi_segment_polygon;
use super::segment_segment::toi_segment_segment;
use crate::options::ToiOptions;
use crate::toi_result::{NoClosedForm, Toi};
use impact_geometry::{Shape, Sweep};

/// The closed-form time of impact for any pair of shapes.
///
/// A [`ChainSegment`](impact_geometry::ChainSegment) answers as its plain segment does, but
/// one-sided and without the impacts its neighbours own (see `docs/algorithms/chains.md`);
/// against a segment or another chain segment it is never hit.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (a disc spinning about its own centre is fine).
#[inline]
pub fn closed_form_toi(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let toi = any_pair(a, sweep_a, b, sweep_b, options)?;
    Ok(ghost::under_seam_rules(
        toi,
        (a, sweep_a),
        (b, sweep_b),
        options,
        plain_pair,
    ))
}

/// [`any_pair`] as the rules ask it again from a later fraction.
fn plain_pair(a: &Shape, sa: &Sweep, b: &Shape, sb: &Sweep, o: &ToiOptions) -> Option<Toi> {
    any_pair(a, sa, b, sb, o).ok()
}

/// [`closed_form_toi`] but for the seams of outlines' pieces (their plain polygons').
fn any_pair(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    use Shape::{
        Capsule as Cap, ChainSegment as Chn, Circle as Cir, Polygon as Pol, Segment as Seg,
    };
    let (sa, sb, o) = (sweep_a, sweep_b, options);
    match (a, b) {
        // A chain segment: its plain segment's closed form, under the chain's rules.
        (_, Chn(y)) => {
            let toi = any_pair(a, sa, &chain_segment::plain(y), sb, o)?;
            Ok(if chain_segment::thin(a) {
                Toi::Separated
            } else {
                chain_segment::under_rules(toi, (a, sa), (y, sb), o, plain_pair)
            })
        }
        (Chn(_), _) => any_pair(b, sb, a, sa, o).map(Toi::swapped),
        (Cir(x), Cir(y)) => toi_circle_circle(x, sa, y, sb, o),
        (Cir(x), Seg(y)) => toi_circle_segment(x, sa, y, sb, o),
        (Cir(x), Cap(y)) => toi_circle_capsule(x, sa, y, sb, o),
        (Cir(x), Pol(y)) => toi_circle_polygon(x, sa, y, sb, o),
        (Seg(x), Seg(y)) => toi_segment_segment(x, sa, y, sb, o),
        (Seg(x), Cap(y)) => toi_segment_capsule(x, sa, y, sb, o),
        (Seg(x), Pol(y)) => toi_segment_polygon(x, sa, y, sb, o),
        (Cap(x), Cap(y)) => toi_capsule_capsule(x, sa, y, sb, o),
        (Cap(x), Pol(y)) => toi_capsule_polygon(x, sa, y, sb, o),
        (Pol(x), Pol(y)) => toi_polygon_polygon(x, sa, y, sb, o),
        // The reverse orders: each pair is written once.
        (Seg(_) | Cap(_) | Pol(_), Cir(_)) | (Cap(_) | Pol(_), Seg(_)) | (Pol(_), Cap(_)) => {
            any_pair(b, sb, a, sa, o).map(Toi::swapped)
        }
    }
}
