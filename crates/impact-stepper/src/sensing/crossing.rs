//! When one sensor and one body meet and part along their courses over a step: the exact
//! times their distance reaches zero and becomes positive again.
//!
//! The step is cut where either body changes course; on each piece both move on one
//! constant-velocity sweep. A piece that starts apart asks the narrowphase's time of impact
//! with a target separation of zero: the entry. One that is overlapping (from its start or
//! from the entry) and ends apart asks the time of impact of the reversed motion, from the
//! piece's end back to where the overlap began: the last moment the distance was zero, the
//! exit. Between two translating convex shapes the overlap along one piece is one interval
//! (the relative position moves on a line, and the set of overlapping positions is convex),
//! so these two queries are the whole answer, exact to the closed form's rounding. A piece
//! on which either turns has a time of impact by conservative advancement, which never
//! reports a first contact late: the entry is never late and the exit never early, each
//! within the query's tolerance; a turning shape that leaves and enters again within one
//! piece is reported as one overlap, from the first entry to the last exit.

use crate::domain::translated;
use crate::motion::pose_on_course;
use impact_geometry::{Isometry, Real, Shape, Sweep, Vector};
use impact_narrowphase::{Toi, ToiOptions, distance, time_of_impact};

/// One body of a pair: its shape, its courses over the step (start time, sweep from there;
/// sorted, the first at 0), and the translation of the image the other meets.
#[derive(Debug, Clone, Copy)]
pub(super) struct Side<'a> {
    pub(super) shape: &'a Shape,
    pub(super) legs: &'a [(Real, Sweep)],
    pub(super) shift: Vector,
}

impl Side<'_> {
    /// The course in effect at `t` (the last one started by then).
    fn leg_at(&self, t: Real) -> (Real, Sweep) {
        let i = self.legs.partition_point(|l| l.0 <= t).max(1) - 1;
        self.legs[i]
    }

    /// When the course after the one in effect at `t` starts (or `end`).
    fn next_change(&self, t: Real, end: Real) -> Real {
        self.legs
            .iter()
            .map(|l| l.0)
            .find(|&s| s > t)
            .map_or(end, |s| s.min(end))
    }
}

/// Where a body on course `leg` is at `t`, at the image translated by `shift`.
fn pose((t0, sweep): (Real, Sweep), t: Real, shift: &Vector) -> Isometry {
    let pose = if t == t0 {
        sweep.start()
    } else {
        pose_on_course((t0, sweep), t)
    };
    translated(&pose, shift)
}

/// The motion on course `leg` from `t` for `duration` seconds, forward or (`back`) reversed
/// from `t`, at the image translated by `shift`.
fn motion(
    leg: (Real, Sweep),
    t: Real,
    duration: Real,
    back: bool,
    shift: &Vector,
) -> Option<Sweep> {
    let sign = if back { -1.0 } else { 1.0 };
    Sweep::new(
        pose(leg, t, shift),
        leg.1.local_center(),
        leg.1.linvel() * sign,
        leg.1.angvel() * sign,
        duration,
    )
    .ok()
}

/// The time-of-impact options of the sensor queries: touching means touching (a target
/// separation of zero), and a tolerance of 1e-9 world units, which classifies a start within
/// it as touching and is what conservative advancement converges to.
fn options() -> ToiOptions {
    ToiOptions::exact()
}

/// Whether the shapes of `s` and `x`, on their courses `ls` and `lx`, overlap at `t` (their
/// distance is zero or less).
fn overlap_at(s: &Side<'_>, x: &Side<'_>, (ls, lx): Legs, t: Real) -> bool {
    let (ps, px) = (pose(ls, t, &s.shift), pose(lx, t, &x.shift));
    distance(s.shape, &ps, x.shape, &px).distance <= 0.0
}

/// The courses of the two bodies of a pair on one piece of the step.
type Legs = ((Real, Sweep), (Real, Sweep));

/// Follows the pair of sensor `s` and body `x` over a step of `dt` seconds, overlapping at
/// its start if `was` (as the last step ended), and calls `event(begin, t)` at each entry
/// (`true`) and exit (`false`), `t` seconds into the step, in time order. Returns whether
/// they overlap at the end.
pub(super) fn crossings(
    s: Side<'_>,
    x: Side<'_>,
    was: bool,
    dt: Real,
    mut event: impl FnMut(bool, Real),
) -> bool {
    let mut overlapping = was;
    if was && !overlap_at(&s, &x, (s.leg_at(0.0), x.leg_at(0.0)), 0.0) {
        // Apart at the start although the last step ended overlapping: a body moved
        // between steps (a teleport).
        event(false, 0.0);
        overlapping = false;
    }
    let mut ta = 0.0;
    while ta < dt {
        let tb = s.next_change(ta, dt).min(x.next_change(ta, dt));
        if tb <= ta {
            break;
        }
        overlapping = piece(&s, &x, (ta, tb), overlapping, &mut event);
        ta = tb;
    }
    overlapping
}

/// One piece `[ta, tb]` on which both move on one course: the entry if apart at `ta`
/// (`overlapping` false), then the exit if apart at `tb`. Returns whether they overlap at
/// `tb`.
fn piece(
    s: &Side<'_>,
    x: &Side<'_>,
    (ta, tb): (Real, Real),
    overlapping: bool,
    event: &mut impl FnMut(bool, Real),
) -> bool {
    // The courses in effect on the piece: the ones started by `ta`, whatever starts at `tb`.
    let legs @ (ls, lx) = (s.leg_at(ta), x.leg_at(ta));
    let length = tb - ta;
    let from = if overlapping {
        ta
    } else {
        let (Some(sa), Some(xa)) = (
            motion(ls, ta, length, false, &s.shift),
            motion(lx, ta, length, false, &x.shift),
        ) else {
            return overlapping;
        };
        let entry = match time_of_impact(s.shape, &sa, x.shape, &xa, &options()) {
            Toi::Hit(hit) => ta + hit.fraction * length,
            Toi::Overlapping => ta,
            // Closer than the query could tell apart from touching: it counts as the entry.
            Toi::NotConverged { safe_fraction } => ta + safe_fraction * length,
            Toi::Separated => return false,
        };
        let entry = entry.clamp(ta, tb);
        event(true, entry);
        entry
    };
    if overlap_at(s, x, legs, tb) {
        return true;
    }
    let back = tb - from;
    let exit = match (
        motion(ls, tb, back, true, &s.shift),
        motion(lx, tb, back, true, &x.shift),
    ) {
        (Some(sb), Some(xb)) if back > 0.0 => {
            match time_of_impact(s.shape, &sb, x.shape, &xb, &options()) {
                Toi::Hit(hit) => tb - hit.fraction * back,
                Toi::NotConverged { safe_fraction } => tb - safe_fraction * back,
                // Met at `from` only, by a graze the reversed query sees as apart.
                Toi::Separated | Toi::Overlapping => from,
            }
        }
        _ => from,
    };
    event(false, exit.clamp(from, tb));
    false
}
