//! Two segment cores (capsules, segments): most candidate pairs the broadphase hands over are
//! apart by more than the speculative distance, and a few projections prove it before the
//! cores are built and their separating axes and exact distance are searched.
//!
//! The proof: the distance of two convex sets is realised by their closest points, and the
//! direction between those is an axis on which the sets' projections are exactly that far
//! apart. In the plane, for two segments, that direction is a segment's normal (a closest
//! point inside a segment) or the direction between an end of each (two ends closest, the
//! nearest pair of ends). The projections on any axis are never farther apart than the sets,
//! so a gap on one of these three axes wider than the limit proves the pair apart, and when
//! the pair is apart one of them shows it.

use super::clipping::collide_rounded_any;
use super::manifold::Manifold;
use super::rounded_core::SegmentCore;
use crate::minkowski::largest_abs;
use impact_geometry::tolerances::POINT_SEGMENT_RELATIVE;
use impact_geometry::{Isometry, Point, Real, Vector, cross};

/// The margin, relative to the largest coordinate, that a gap must clear beyond the limit to
/// prove a pair apart. It covers the rounding of the projections (a few times 1e-16 of the
/// coordinates), the exact path's own rounding, and a segment so short that the exact path
/// takes it as its midpoint (which moves it by [`POINT_SEGMENT_RELATIVE`] of the
/// coordinates): a pair proved apart is one the exact path finds apart too.
const APART_MARGIN_RELATIVE: Real = 10.0 * POINT_SEGMENT_RELATIVE;

/// Coordinates and limits from here up take the exact path: the squared gaps below stay
/// finite for anything smaller.
const LARGEST_PROVED: Real = 1e60;

/// Axes shorter than this (squared) are skipped: their squared products could lose digits
/// below the smallest normal number.
const SHORTEST_AXIS_SQUARED: Real = 1e-100;

/// The manifold of the segment core `core_a` (one or two points, body frame) of radius `ra` at
/// `pose_a` and `core_b` of radius `rb` at `pose_b` (normal from A to B), with points
/// wherever the surfaces are closer than `speculative`: [`collide_rounded_any`] of their
/// [`SegmentCore`]s, bit for bit, with no cores built for a pair proved farther apart.
#[inline]
pub(crate) fn collide_segment_cores(
    (core_a, ra, pose_a): (&[Point], Real, &Isometry),
    (core_b, rb, pose_b): (&[Point], Real, &Isometry),
    speculative: Real,
) -> Manifold {
    let a = SegmentCore::world_points(core_a, pose_a);
    let b = SegmentCore::world_points(core_b, pose_b);
    if segments_apart(a, b, ra + rb + speculative) {
        return Manifold::EMPTY;
    }
    let core_a = SegmentCore::placed(core_a, a, ra, pose_a);
    let core_b = SegmentCore::placed(core_b, b, rb, pose_b);
    collide_rounded_any(&core_a, &core_b, speculative)
}

/// Whether the segments `p` and `q` (world coordinates; a point is a segment of two equal
/// ends) are certainly farther apart than `limit` (the radii plus the speculative distance):
/// their projections on one of the axes that realise the distance of two segments are apart
/// by more than `limit` plus [`APART_MARGIN_RELATIVE`] of the largest coordinate. `false`
/// when unsure, including for coordinates or a limit of [`LARGEST_PROVED`] or more.
#[inline]
pub(crate) fn segments_apart(p: [Vector; 2], q: [Vector; 2], limit: Real) -> bool {
    let scale = largest_abs(&p[0])
        .max(largest_abs(&p[1]))
        .max(largest_abs(&q[0]))
        .max(largest_abs(&q[1]));
    if !(scale < LARGEST_PROVED && limit < LARGEST_PROVED) {
        return false;
    }
    let bound = limit + APART_MARGIN_RELATIVE * scale;
    // `gap` (along an axis `w` of any length) over `|w|` beyond the bound, without a root.
    let clears = |gap: Real, w: &Vector| {
        let w2 = w.norm_squared();
        w2 > SHORTEST_AXIS_SQUARED && gap > 0.0 && gap * gap > bound * bound * w2
    };
    // One segment's normal: the other's two ends on one side of its line.
    let beside = |s: &[Vector; 2], t: &[Vector; 2]| {
        let e = s[1] - s[0];
        let (u, v) = (cross(&e, &(t[0] - s[0])), cross(&e, &(t[1] - s[0])));
        clears(u.min(v), &e) || clears(-u.max(v), &e)
    };
    if beside(&p, &q) || beside(&q, &p) {
        return true;
    }
    // The nearest pair of ends: Q's projections beyond P's along the direction from one to
    // the other.
    let mut w = q[0] - p[0];
    for (i, j) in [(0, 1), (1, 0), (1, 1)] {
        let d = q[j] - p[i];
        if d.norm_squared() < w.norm_squared() {
            w = d;
        }
    }
    let gap = w.dot(&q[0]).min(w.dot(&q[1])) - w.dot(&p[0]).max(w.dot(&p[1]));
    clears(gap, &w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::rounded_core::SegmentCore;
    use proptest::prelude::*;

    /// The distance of two segments by brute force: zero if they cross (orientation signs),
    /// else the least distance from an end of one to the other.
    fn distance(p: [Vector; 2], q: [Vector; 2]) -> Real {
        let to_segment = |x: Vector, s: [Vector; 2]| {
            let e = s[1] - s[0];
            let len2 = e.norm_squared();
            let t = if len2 > 0.0 {
                ((x - s[0]).dot(&e) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (s[0] + e * t - x).norm()
        };
        // A side within rounding of the line is no side: ends on the other's line do not
        // make a crossing (the ends' distances below find them).
        let scale = [p[0], p[1], q[0], q[1]]
            .iter()
            .map(largest_abs)
            .fold(0.0, Real::max);
        let side = |s: [Vector; 2], x: Vector| {
            let e = s[1] - s[0];
            let o = cross(&e, &(x - s[0]));
            if o.abs() <= 1e-13 * scale * e.norm() {
                0.0
            } else {
                o.signum()
            }
        };
        let crosses = side(p, q[0]) * side(p, q[1]) < 0.0 && side(q, p[0]) * side(q, p[1]) < 0.0;
        if crosses {
            return 0.0;
        }
        [
            to_segment(p[0], q),
            to_segment(p[1], q),
            to_segment(q[0], p),
            to_segment(q[1], p),
        ]
        .into_iter()
        .fold(Real::INFINITY, Real::min)
    }

    /// A segment from `(x, y)` along `angle` of `length`, a point for a zero length.
    fn segment(x: Real, y: Real, angle: Real, length: Real) -> [Vector; 2] {
        let a = Vector::new(x, y);
        [a, a + Vector::new(angle.cos(), angle.sin()) * length]
    }

    /// Four numbers a segment is drawn from.
    type Draw = (Real, Real, Real, Real);

    /// Lengths from a point's up to a long segment's; some segments lie on the line of the
    /// other or parallel to it, where the end-to-end axis and the normals take turns.
    fn pair() -> impl Strategy<Value = ([Vector; 2], [Vector; 2])> {
        let length = prop_oneof![Just(0.0), 1e-13..1e-9, 0.01..3.0];
        (
            (-50.0..50.0, -50.0..50.0, -4.0..4.0, length.clone()),
            (-4.0..4.0, 0.0..6.0, -4.0..4.0, length),
            0u8..3,
        )
            .prop_map(
                |((x, y, angle, la), (dir, gap, turn, lb), layout): (Draw, Draw, u8)| {
                    let p = segment(x, y, angle, la);
                    let q = match layout {
                        // On P's line, beyond its end.
                        0 => segment(
                            p[1].x + angle.cos() * gap,
                            p[1].y + angle.sin() * gap,
                            angle,
                            lb,
                        ),
                        // Parallel, beside it.
                        1 => segment(
                            p[0].x - angle.sin() * gap,
                            p[0].y + angle.cos() * gap,
                            angle + turn.signum() * 1e-12,
                            lb,
                        ),
                        _ => segment(p[0].x + dir.cos() * gap, p[0].y + dir.sin() * gap, turn, lb),
                    };
                    (p, q)
                },
            )
    }

    proptest! {
        /// A pair proved apart is apart by the brute-force distance; a pair farther apart
        /// than the limit by a millionth of its coordinates is proved apart (so every one of
        /// the three axes is needed: without the end-to-end one, segments on one line fail).
        #[test]
        fn proved_apart_exactly_when_apart((p, q) in pair(), fraction in -2.0..2.0 as Real) {
            let d = distance(p, q);
            let scale = [p[0], p[1], q[0], q[1]].iter().map(largest_abs).fold(0.0, Real::max);
            // Limits about the distance: a fraction of a millionth of the coordinates off it.
            let limit = (d + fraction * 1e-6 * scale).max(0.0);
            let proved = segments_apart(p, q, limit);
            if proved {
                prop_assert!(d > limit, "proved apart at {d} within {limit}");
            }
            if d > limit + 1e-6 * scale {
                prop_assert!(proved, "not proved apart at {d} beyond {limit}");
            }
        }

        /// Capsule pairs about the speculative limit: the same manifold as the cores built
        /// and collided, bit for bit.
        #[test]
        fn the_proof_keeps_every_manifold_bit_for_bit(
            (p, q) in pair(),
            (ra, rb) in (0.0..0.5 as Real, 0.0..0.5 as Real),
            offset in prop_oneof![-1e-5..1e-5 as Real, -1e-7..1e-7 as Real, -1e-10..1e-10 as Real],
            (x, y, angle) in (-10.0..10.0, -10.0..10.0, -4.0..4.0),
        ) {
            // Body frames: P and Q at a pose, so the points are placed as a world places them.
            let pose = Isometry::new(Vector::new(x, y), angle);
            let local = |s: [Vector; 2]| [s[0], s[1]].map(|v| pose.inverse_transform_point(&Point::from(v)));
            let (a, b) = (local(p), local(q));
            let placed = |c: &[Point; 2]| c.map(|v| (pose * v).coords);
            let d = distance(placed(&a), placed(&b));
            // Limits from well inside the proof's margin (1e-8 of the coordinates) to well
            // beyond it.
            let scale = largest_abs(&Vector::new(x, y)) + 100.0;
            let speculative = (d - ra - rb + offset * scale).max(0.0);
            for (ca, cb) in [(&a[..], &b[..]), (&a[..1], &b[..]), (&a[..], &b[..1])] {
                let fast = collide_segment_cores((ca, ra, &pose), (cb, rb, &pose), speculative);
                let slow = collide_rounded_any(
                    &SegmentCore::new(ca, ra, &pose),
                    &SegmentCore::new(cb, rb, &pose),
                    speculative,
                );
                prop_assert!(fast.same_bits(&slow), "{fast:?} != {slow:?}");
            }
        }
    }

    #[test]
    fn non_finite_and_huge_limits_prove_nothing() {
        let (p, q) = (segment(0.0, 0.0, 0.0, 1.0), segment(0.0, 5.0, 0.0, 1.0));
        assert!(segments_apart(p, q, 1.0));
        for limit in [Real::NAN, Real::INFINITY, LARGEST_PROVED] {
            assert!(!segments_apart(p, q, limit));
        }
        let far = segment(1e61, 0.0, 0.0, 1.0);
        assert!(!segments_apart(p, far, 1.0));
    }
}
