//! Where an impact is possible at all, before any distance is evaluated: the bounding circles
//! about the centres of mass (a closed form), a turning body's circle against a partner that
//! does not turn (the closed form against the shape itself), and the strip of each long body
//! against the other's circle (`turning_strip`). Each is a necessary condition for the shapes
//! to come within the target, so together they bound the fractions conservative advancement
//! must search.

use super::mover::Mover;
use super::turning_strip::{TurningStrip, clear_until};
use crate::gjk::{GjkCache, gjk_distance};
use crate::minkowski::{circle_entry, circle_exit};
use crate::options::ToiOptions;
use crate::toi::circle_segment::toi_circle_still_segment;
use crate::toi::closed_form::closed_form_toi;
use crate::toi_result::Toi;
use impact_geometry::tolerances::ROUNDING_MARGIN_RELATIVE;
use impact_geometry::{Circle, Isometry, Point, Real, Rotation, Shape, Strip, Sweep, Vector};

/// Where the bounding circles allow an impact.
enum Window {
    /// The circles never come within the target: no impact is possible.
    Never,
    /// Only in `[enter, leave]` can the shapes come within the target; `close_start` says the
    /// circles are within target plus tolerance at `t = 0`, so the start must be classified.
    Open {
        enter: Real,
        leave: Real,
        close_start: bool,
    },
}

impl Window {
    /// The window of the two bounding circles, each about its body's centre of mass, within
    /// `target` of each other (`tolerance`: how close at the start must be classified).
    #[inline]
    fn new(a: &Mover<'_>, b: &Mover<'_>, target: Real, tolerance: Real) -> Self {
        let p = b.start_center - a.start_center;
        let v = b.displacement - a.displacement;
        let pp = p.norm_squared();
        let reach = a.bounding_radius() + b.bounding_radius() + target;
        // Rounding in the positions must not shrink the window: widen it far beyond it.
        let reach = reach + ROUNDING_MARGIN_RELATIVE * (reach + pp.sqrt());
        let close_start = pp <= (reach + tolerance) * (reach + tolerance);
        // In the frame of A's centre, B's centre starts at `p` and moves by `v`: the point
        // `t v` against the circle of radius `reach` about `-p`.
        let leave = circle_exit(&-p, reach, &v);
        if close_start {
            let leave = match leave {
                Some(t) => t.max(0.0),
                // Not moving apart: the circles stay as close as they start.
                None if v == Vector::zeros() => Real::INFINITY,
                // The line misses the circle of the target: never within it.
                None => 0.0,
            };
            return Self::Open {
                enter: 0.0,
                leave,
                close_start,
            };
        }
        match (circle_entry(&-p, reach, &v), leave) {
            (Some(enter), Some(leave)) => Self::Open {
                enter,
                leave,
                close_start,
            },
            _ => Self::Never,
        }
    }
}

/// The window narrowed by every necessary condition, in turn: the bounding circles
/// ([`Window`]), `from` (when positive: a fraction up to which the shapes are known to stay
/// farther apart than the target, so the start needs no classifying), a turning body's circle
/// against a partner that does not turn ([`against_still_partner`]) and the strips of long
/// bodies ([`through_strips`]). The fraction the advance starts from, the end of the window
/// (at most `max_fraction`), and whether the start must be classified; `None` when the shapes
/// cannot come within the target by the end, or not before `cutoff` (the window only ever
/// narrows, so a start past the cutoff stays past it; the end is not cut, so the strips and
/// the advance see the same window for any cutoff).
#[inline(always)]
pub(super) fn open(
    a: &Mover<'_>,
    b: &Mover<'_>,
    options: &ToiOptions,
    (target, tolerance): (Real, Real),
    (from, cutoff): (Real, Real),
) -> Option<(Real, Real, bool)> {
    let (enter, leave, close_start) = match Window::new(a, b, target, tolerance) {
        Window::Never => return None,
        Window::Open {
            enter,
            leave,
            close_start,
        } => (enter, leave, close_start),
    };
    let (enter, close_start) = if from > 0.0 {
        (enter.max(from), false)
    } else {
        (enter, close_start)
    };
    let end = leave.min(options.max_fraction());
    if enter > end || enter > cutoff {
        return None;
    }
    let (enter, close_start) = match against_still_partner(a, b, options) {
        Some(Toi::Separated) => return None,
        // The circle starts farther than the target plus the tolerance, so the shape does.
        Some(Toi::Hit(h)) => (enter.max(h.fraction), false),
        _ => (enter, close_start),
    };
    if enter > end || enter > cutoff {
        return None;
    }
    let (enter, close_start) = through_strips(a, b, enter, end, target, tolerance, close_start)?;
    (enter <= cutoff).then_some((enter, end, close_start))
}

/// A long body's strip (see [`TurningStrip`]) is used when it is at most this share of its
/// bounding circle's radius wide: for a square it is 0.71, and its strip saves nothing.
const STRIP_SHARE: Real = 0.5;

/// The strips stop stepping once the circles are within this many tolerances of their reach:
/// the last steps before it crawl.
const STRIP_NEAR: Real = 8.0;

/// The window narrowed by each long body's strip against the other's circle: the first
/// fraction from `enter` at which the shapes could come within the target, and whether the
/// start must still be classified (`close_start`: only if the strips cannot show the shapes
/// farther apart than the target plus the tolerance at the start); `None` if they cannot come
/// within the target before `end`.
#[inline]
fn through_strips(
    a: &Mover<'_>,
    b: &Mover<'_>,
    enter: Real,
    end: Real,
    target: Real,
    tolerance: Real,
    close_start: bool,
) -> Option<(Real, bool)> {
    let turning = |strip: Strip, body: &Mover<'_>, other: &Mover<'_>| {
        TurningStrip::new(
            &strip,
            &body.sweep.local_center(),
            &body.sweep.start().rotation,
            body.turn,
            (
                other.start_center - body.start_center,
                other.displacement - body.displacement,
            ),
            other.bounding_radius(),
            target,
        )
    };
    // Checked before any strip is built: building both and returning them as `Option`s goes
    // through memory, on every query of shapes that are not long.
    let (first, second) = match (long_strip(a), long_strip(b)) {
        (Some(sa), sb) => (turning(sa, a, b), sb.map(|sb| turning(sb, b, a))),
        (None, Some(sb)) => (turning(sb, b, a), None),
        (None, None) => return Some((enter, close_start)),
    };
    let clear = clear_until(&first, second.as_ref(), enter, end, STRIP_NEAR * tolerance)?;
    // Clear of the strips by more than the tolerance at `enter`: if that is the start, the
    // shapes do not start touching.
    Some(if clear > enter {
        (clear, false)
    } else {
        (enter, close_start)
    })
}

/// The body's strip if it is long: at most [`STRIP_SHARE`] of its bounding radius wide.
#[inline(always)]
fn long_strip(body: &Mover<'_>) -> Option<Strip> {
    let strip = match body.shape {
        // The common case read in place, without building an `Option` first.
        Shape::Polygon(p) => *p.strip(),
        Shape::Circle(_) => return None,
        shape => shape.strip()?,
    };
    (strip.half_width <= STRIP_SHARE * body.bounding_radius()).then_some(strip)
}

/// When exactly one body turns, the closed-form time of impact of its bounding circle (moving
/// with its centre of mass) against the other shape itself: a tighter window than two circles,
/// which matters most where it is most common, a spinning body falling onto long static
/// ground whose bounding circle covers everything.
///
/// `None` when both or neither turn, or when the circle starts within the target plus the
/// tolerance of the other shape: there the closed form applies its sliding rule to the circle
/// (a circle that starts touching and slides is "separated"), which says nothing about the
/// shape inside it, so only the start classification of conservative advancement can decide.
/// Otherwise `Separated` means the circle, and so the shape, never comes within the target,
/// and a hit is the first time the circle does, before which the shape cannot.
#[inline]
fn against_still_partner(a: &Mover<'_>, b: &Mover<'_>, options: &ToiOptions) -> Option<Toi> {
    let (spinning, still, swapped) = match (a.turn != 0.0, b.turn != 0.0) {
        (true, false) => (a, b, false),
        (false, true) => (b, a, true),
        _ => return None,
    };
    let radius = spinning.bounding_radius();
    let reach = options.target_separation() + options.tolerance();
    let start = Isometry::from_parts(spinning.start_center.coords.into(), Rotation::identity());
    let beyond = starts_beyond_box(spinning.start_center, radius, still, reach);
    // Ground: a segment that does not move. The circle's closed form against it, without the
    // circle shape, its sweep and the dispatch (the same answer, bit for bit, as
    // `toi_circle_still_segment` promises), for a circle the checks below would accept.
    if let (true, Shape::Segment(segment)) = (beyond, still.shape)
        && still.displacement == Vector::zeros()
        && radius >= 0.0
        && (radius + spinning.displacement.x + spinning.displacement.y).is_finite()
    {
        let toi = toi_circle_still_segment(
            radius,
            &start,
            spinning.displacement,
            segment,
            &still.sweep.start(),
            options,
        );
        return Some(if swapped { toi.swapped() } else { toi });
    }
    let circle = Shape::from(Circle::new(radius).ok()?);
    if !beyond {
        let apart = gjk_distance(
            &circle,
            &start,
            still.shape,
            &still.sweep.start(),
            &mut GjkCache::default(),
        );
        if apart.cores_overlap || apart.distance <= reach {
            return None;
        }
    }
    let sweep = Sweep::translating(start, spinning.displacement).ok()?;
    let toi = if swapped {
        closed_form_toi(still.shape, still.sweep, &circle, &sweep, options)
    } else {
        closed_form_toi(&circle, &sweep, still.shape, still.sweep, options)
    };
    toi.ok()
}

/// Whether the circle of `radius` about `center` starts farther than `reach` from the box of
/// the still shape (its tight box at the start), and so from the shape, which lies in it, by a
/// margin far beyond rounding: then GJK, which costs [`against_still_partner`] more than the
/// rest of it, would say the same. Over
/// ground the box is the ground itself; any closer call goes to GJK, so the decision is GJK's.
#[inline]
fn starts_beyond_box(center: Point, radius: Real, still: &Mover<'_>, reach: Real) -> bool {
    let bounds = still.shape.aabb(&still.sweep.start());
    let dx = (bounds.mins.x - center.x)
        .max(center.x - bounds.maxs.x)
        .max(0.0);
    let dy = (bounds.mins.y - center.y)
        .max(center.y - bounds.maxs.y)
        .max(0.0);
    let margin = ROUNDING_MARGIN_RELATIVE * (1.0 + center.coords.amax() + radius + reach);
    (dx * dx + dy * dy).sqrt() - radius > reach + margin
}
