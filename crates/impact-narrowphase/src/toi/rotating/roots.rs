//! The root finders the step bounds share: the first root of a concave quadratic lower bound
//! `c + s t - half_k t^2` in the form without cancellation, and the first root over a family
//! of such bounds, found by trials that shrink strictly (see [`first_root`]).
//!
//! Every certified step of conservative advancement is such a root: the fixed-normal and
//! turning-face bounds (`bounds`), the line of a segment that does not move
//! (`still_segment`), and the turning strip of a long body (`turning_strip`).

use impact_geometry::Real;

/// The first root over a family of bounds `c + s t - half_k t^2` that share `half_k` (each
/// concave), given `lowest(t)`: the `(c, s)` of the member lowest at `t` when each is
/// extrapolated linearly, and `start`, its value at 0 (the callers find it while building
/// the family). Zero if the lowest member at 0 is not positive.
///
/// If the member lowest at a trial is still positive there, every member is (each is concave
/// and positive at 0), and the trial is the answer; otherwise that member's root is a shorter
/// trial. Trials shrink strictly, so each of the `members` is tried at most once.
#[inline]
pub(super) fn first_root(
    half_k: Real,
    members: usize,
    start: (Real, Real),
    lowest: impl Fn(Real) -> (Real, Real),
) -> Real {
    let (gap, rate) = start;
    if gap <= 0.0 {
        return 0.0;
    }
    let mut best = root(gap, rate, half_k);
    for _ in 0..members {
        let (c, s) = lowest(best);
        if c + best * (s - half_k * best) > 0.0 || c <= 0.0 {
            break;
        }
        let shorter = root(c, s, half_k);
        // A member repeats only through rounding of its own root.
        if shorter >= best {
            break;
        }
        best = shorter;
    }
    best
}

/// The first root over a family of concave bounds `c + s t - half_k t^2`, each positive at 0,
/// from `best`, the root of one of them, given `lowest_at(t)`: the member lowest at `t` and its
/// value there. If that member is still positive at the trial, every member is positive up to
/// it (each is concave and positive at 0), and the trial is the answer; otherwise that member's
/// root is a shorter trial. Trials shrink strictly, so each of the `members` is tried at most
/// once. ([`Frame::face_step`](super::frame::Frame::face_step) runs the same search over its
/// stored family inline, which reads the stored members directly where this function's
/// closure would return them.)
#[inline(always)]
pub(super) fn shortest_root(
    mut best: Real,
    members: usize,
    lowest_at: impl Fn(Real) -> ((Real, Real, Real), Real),
) -> Real {
    for _ in 0..members {
        let (low, low_at) = lowest_at(best);
        if low_at > 0.0 {
            break;
        }
        let shorter = root(low.0, low.1, low.2);
        // A member repeats only through rounding of its own root.
        if shorter >= best {
            break;
        }
        best = shorter;
    }
    best
}

/// The positive root of `c + s t - half_k t^2` for `c > 0`, in the form without cancellation;
/// an infinite root (no approach, no curvature) is capped past the end of any step.
#[inline]
pub(super) fn root(c: Real, s: Real, half_k: Real) -> Real {
    (2.0 * c / (-s + (s * s + 4.0 * half_k * c).sqrt())).min(2.0)
}

/// `x` if positive, else zero: `max(x, 0)` in one instruction (`f64::max` also orders NaN,
/// which cannot arise here, in several).
#[inline(always)]
pub(super) fn positive(x: Real) -> Real {
    if x > 0.0 { x } else { 0.0 }
}

/// The smaller of `a` and `b` in one instruction (`f64::min` also orders NaN, which cannot
/// arise here).
#[inline(always)]
pub(super) fn lesser(a: Real, b: Real) -> Real {
    if a < b { a } else { b }
}

/// The `(height, rate)` whose height extrapolated to `t` is the largest (the first of
/// equals). Tracks the index, not the pair: selecting whole pairs moves twice the data.
#[inline]
pub(super) fn highest(heights: &[(Real, Real)], t: Real) -> (Real, Real) {
    let mut top = 0;
    let mut top_at = heights[0].0 + t * heights[0].1;
    for (i, h) in heights.iter().enumerate().skip(1) {
        let at = h.0 + t * h.1;
        if at > top_at {
            top = i;
            top_at = at;
        }
    }
    heights[top]
}

/// The `(height, rate)` whose height extrapolated to `t` is the smallest (the first of
/// equals).
#[inline]
pub(super) fn lowest(heights: &[(Real, Real)], t: Real) -> (Real, Real) {
    let mut bottom = 0;
    let mut bottom_at = heights[0].0 + t * heights[0].1;
    for (i, h) in heights.iter().enumerate().skip(1) {
        let at = h.0 + t * h.1;
        if at < bottom_at {
            bottom = i;
            bottom_at = at;
        }
    }
    heights[bottom]
}
