//! Conservative advancement (from DigitalRune's CCD article): time of impact for shapes that
//! rotate.
//!
//! At the current time the distance `g` and its normal `n` are known, and the separation of
//! the shapes along the fixed direction `n` is a lower bound on their distance at every later
//! time. Bounds on how fast such a separation can fall certify a step during which the shapes
//! stay farther apart than the target:
//!
//! - **Linear** (DigitalRune's CCD article): every point of A approaches along `n` at most at
//!   `v_a . n + |w_a| r_a` and every point of B recedes at least at `v_b . n - |w_b| r_b` (with
//!   `r` the farthest core point from the centre of mass), so the separation falls by at most
//!   `mu = (v_a - v_b) . n + |w_a| r_a + |w_b| r_b` per step and `(g - target) / mu` is safe.
//!   If `mu <= 0` the shapes can never approach.
//! - **Curved**: the height along `n` of a core vertex at distance `r` from its centre of mass
//!   is `h(t) = h(0) + h'(0) t + e(t)` with `|e(t)| <= w^2 r t^2 / 2` (its second derivative is
//!   the centripetal acceleration's component). The separation is at least the smallest, over
//!   vertex pairs, of `c + s t - k t^2 / 2` (with `c` the pair's gap, `s` its exact approach
//!   rate at the current time and `k = w_a^2 r_a + w_b^2 r_b`), and the first root of that is
//!   safe. Near contact it is Newton's step from below, where the linear bound crawls: a box
//!   turning twice per step approaches at a fraction of the `|w| r` the linear bound assumes.
//! - **Turning face**: the height of B's core vertices over the face of A that faces B, turning
//!   with A (and the same with the roles swapped), is Box2D's separation function. Its fall
//!   below its tangent is bounded too, per vertex: the other's centre as seen from the
//!   turning face, plus the vertex's arm turning against the face at the difference of the
//!   spins, whose fall is cubic for the vertices near the face, which decide (see
//!   `Frame::face_step` in `bounds`). Near a face contact it falls at the true approach rate,
//!   where the fixed normal overstates it by the rate of the face's far corner (see
//!   `bounds::curved_step`).
//!
//! When the last distance was realised by a face against a vertex (polygons and rounded shapes
//! near contact, almost always), the step is that face's turning bound alone, taken with the
//! linear bound: near contact it is the distance itself, to second order, and it costs one
//! pass over the other core. Otherwise (the closest features are two vertices) the step is
//! the fixed-normal curved bound, and when a step closed less than half of the gap, the
//! longest of it and the turning bounds of both facing faces; shapes that start touching and
//! slide take that longest on slow steps even when a face is known (resting piles: without
//! it, the stepper's tumbling rain left bodies hung in mid-air). Each bound is a proof, so
//! whichever is taken is.
//!
//! Before any of this, each body's bounding circle about its centre of mass (radius `r` plus
//! its rounding) moves on a line without turning, so the closed-form time at which the circles
//! come within the target opens a window outside of which the shapes cannot come within it: a
//! sweep whose circles never meet is answered at once, advancement starts where the circles
//! first meet, and it stops where they part for good. When only one body turns, the
//! closed-form time of impact of its circle against the other shape itself opens the window
//! instead (a spinning plank over long static ground, whose own circle covers everything).
//! A long body narrows the window further: it lies in a strip that turns with it, and the
//! other body's circle must reach the strip before the shapes can meet. One sine and cosine
//! per step of the strip's own bound moves the start past the turns where the body points
//! away (see `turning_strip`; a plank spinning twice per step sweeps its whole circle, so the
//! circles' window opens long before it can strike).
//!
//! Against a segment that does not move (ground), the segment's line decides most queries
//! before any of this, and hands the rest back with the fraction up to which it proved the
//! shapes apart (see `still_segment`).
//!
//! By construction the answer is never later than the first time the shapes come within the
//! target (to the accuracy of the distance computation, which is exact to rounding).
//! Iterations stop once within `tolerance` of the target. The distance at `t = 0` is the exact
//! signed distance when the start is close (it must classify overlap); every other distance
//! comes from GJK warm-started from the previous simplex, exact for separated shapes, or from
//! the face that realised the last one (below), exact too.
//!
//! When both cores have at most 16 vertices (every shape but a large polygon), each evaluation
//! takes the fused path: it turns both cores once into the frame of A's centre of mass, from
//! the two rotations and centres alone, and GJK and the step bounds share those vertices (GJK
//! turns nothing, no pose is built). The generic path, which builds both poses and lets GJK
//! place the vertices, remains for larger polygons and as the reference the tests hold the
//! fused path to.
//!
//! On the fused path most evaluations skip GJK too. Near contact, polygons meet face to vertex,
//! and the face that realised one distance almost always realises the next: the lowest vertex
//! of the other core over that face's line, when it projects onto the face itself, is exactly
//! the distance (the separation along the face normal bounds it from below, and the vertex is
//! that far from a point of the face). Each evaluation tries the last such face first, then the
//! other body's face that faces it (near contact the closest features change sides far more
//! often than they move to a neighbouring face of the same body); the first evaluation, and one
//! after a distance realised vertex to vertex, try the faces that face each other along the
//! centres (the first) or the last normal. GJK runs, warm-started from the last simplex, only
//! when every test fails.
//!
//! # Where things are
//!
//! One subsystem per module, each importing (outside its tests) only from those listed before
//! it:
//!
//! - `roots`: the first root of a concave quadratic bound, and over a family of them;
//! - `mover`: a shape on its sweep, with what the bounds read of it;
//! - `turning_strip`: a long body's strip against the other's circle;
//! - `still_segment`: the line of a segment that does not move (ground);
//! - `window`: where an impact is possible at all (circles, a still partner, strips);
//! - `faces`: the faces that turn with their bodies, and the step over one of them;
//! - `frame`: the cores placed at an evaluation, and the distance read off a face;
//! - `bounds`: the curved steps (fixed normal, turning faces) from a placed frame;
//! - `evaluator`: the distance along the sweeps, by the fused or the generic path;
//! - `advance`: the loop, and the classification of a start within the target;
//! - this module: the entry point, which tries the still segment's line first.

mod advance;
mod bounds;
mod evaluator;
mod faces;
mod frame;
mod mover;
mod roots;
mod still_segment;
mod turning_strip;
mod window;

use crate::options::ToiOptions;
use crate::toi_result::Toi;
use advance::advance;
use evaluator::Path;
use impact_geometry::{Real, Shape, Sweep, Vector};
use still_segment::{OverSegment, over_still_segment};

/// Time of impact of any two shapes under any sweeps, by conservative advancement.
///
/// A chain segment is advanced against as its plain segment, and its rules (one-sided, its
/// neighbours' impacts left to them) applied to the answer, as the closed forms do.
///
/// Never later than the true first time the shapes come within the target separation (to the
/// accuracy of the distance computation, which is exact to rounding). Returns
/// [`Toi::NotConverged`] with the last safe fraction after `options.max_iterations()` distance
/// evaluations. Shapes that start within the target and slide or move apart are followed until
/// they come closer than they started by at least half the tolerance (the hit is reported
/// between half and the whole tolerance closer), since a rotating body can part at one corner
/// and strike with another later in the step.
pub fn toi_conservative_advancement(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Toi {
    conservative_advancement_until(a, sweep_a, b, sweep_b, options, Real::INFINITY)
}

/// [`toi_conservative_advancement`], except that an answer whose safe fraction would be past
/// `cutoff` may come back as [`Toi::Separated`] (the advance stops once it has proved the
/// shapes apart up to `cutoff`). Every step is the one the unbounded query takes (the step
/// bounds still reach to the window's end), so an answer at or before `cutoff` is the
/// unbounded answer bit for bit: the chain's and the seams' rules turn a hit into one at
/// the same fraction or later, or into nothing, and ask again without the cutoff.
pub(crate) fn conservative_advancement_until(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
    cutoff: Real,
) -> Toi {
    let toi = any_pair(a, sweep_a, b, sweep_b, options, cutoff);
    crate::toi::ghost::under_seam_rules(toi, (a, sweep_a), (b, sweep_b), options, plain_pair)
}

/// [`any_pair`] as the rules ask it again from a later fraction.
fn plain_pair(a: &Shape, sa: &Sweep, b: &Shape, sb: &Sweep, o: &ToiOptions) -> Option<Toi> {
    Some(any_pair(a, sa, b, sb, o, Real::INFINITY))
}

/// [`conservative_advancement_until`] but for the seams of outlines' pieces (their plain
/// polygons').
fn any_pair(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
    cutoff: Real,
) -> Toi {
    // A chain segment: its plain segment, under the chain's rules.
    match (a, b) {
        (_, Shape::ChainSegment(y)) => {
            use crate::toi::chain_segment::{plain, thin, under_rules};
            if thin(a) {
                return Toi::Separated;
            }
            let toi = any_pair(a, sweep_a, &plain(y), sweep_b, options, cutoff);
            return under_rules(toi, (a, sweep_a), (y, sweep_b), options, plain_pair);
        }
        (Shape::ChainSegment(_), _) => {
            return any_pair(b, sweep_b, a, sweep_a, options, cutoff).swapped();
        }
        _ => {}
    }
    // Against a segment that does not move (ground), its line decides most queries at a
    // fraction of the cost (see `still_segment`).
    let still = |sweep: &Sweep| !sweep.rotates() && sweep.linvel() == Vector::zeros();
    let from = match (a, b) {
        (_, Shape::Segment(segment)) if still(sweep_b) => {
            match over_still_segment(a, sweep_a, segment, &sweep_b.start(), options) {
                OverSegment::Answer(toi) => return toi,
                OverSegment::From(from) => from,
            }
        }
        (Shape::Segment(segment), _) if still(sweep_a) => {
            match over_still_segment(b, sweep_b, segment, &sweep_a.start(), options) {
                OverSegment::Answer(toi) => return toi.swapped(),
                OverSegment::From(from) => from,
            }
        }
        _ => 0.0,
    };
    advance(a, sweep_a, b, sweep_b, options, Path::Fused, (from, cutoff))
}
