//! The rule for a body sinking into a static zero-thickness segment it overlaps: a course
//! that lowers the body's centre of mass to within the tolerance of the segment's line over
//! the segment is an impact at the start (see [`sinking`]); the planning asks it of an
//! overlapping pair whose closest points do not approach (`Run::overlapping` in `plan`).

use impact_geometry::{Isometry, Point, Real, Shape, Sweep, Vector, perp};

/// Where a body of `shape` on `course` that overlaps a static zero-thickness segment (its two
/// ends, at `pose`) at the start of the course lowers its centre of mass, on the side `side`
/// points to (a normal from the segment toward the body, of which only the side is read), to
/// within `tolerance` of the segment's line over the segment: at the course's end, or, for a
/// course that ends past an end of the segment, at the first fraction where the centre is
/// both ([`over_segment_below`]). The body's lowest point there, carried back with the body
/// to its start; `None` otherwise.
///
/// The closest points' approach (`Run::deepening` in `plan`) allows a tolerance of
/// deepening per course, and a body in a pile gets a new course at every impact: in the
/// tumbling rain, sticks under piles, struck from above step after step and tilted into the
/// segments they rested on, sank past their middles a millimetre or two at a time. Neither the
/// overlap's depth (a tilted stick whose centre crosses the line can overlap less at the end,
/// the far side now being nearer) nor its normal says which side the body is on; its centre of
/// mass does, and a body whose centre stays on its side is pushed back out on that side by the
/// contact solver, which keeps the side of each segment contact.
///
/// Heights are taken along the segment's own normal. The pair's normal, an overlap's
/// closest-point normal, is often a face normal of the body turned from the segment's, and
/// heights along it, from an end of the segment metres away, are off by that distance times
/// the angle: 0.04 rad put a stick 25 cm above a 6 m segment's line when its centre was 1.7 mm
/// below it, near the far end. With the bodies the tumbling rain hung in mid-air freed (1,000
/// bodies), sticks went through that way on 5 of 80 seeds; none do with the segment's normal.
#[cold]
pub(super) fn sinking(
    (shape, course): (&Shape, &Sweep),
    (ends, pose): (&[Point], &Isometry),
    side: Vector,
    tolerance: Real,
) -> Option<Point> {
    let (from, to) = (pose * ends[0], pose * ends[ends.len() - 1]);
    let along = to - from;
    let line = perp(&along).try_normalize(0.0)?;
    let up = if line.dot(&side) >= 0.0 { line } else { -line };
    let (c0, c1) = (course.center_at(0.0), course.center_at(1.0));
    let (h0, h1) = (up.dot(&(c0 - from)), up.dot(&(c1 - from)));
    if !(h1 < h0 && h1 < tolerance) {
        return None;
    }
    let at = over_segment_below(
        (h0, h1),
        (along.dot(&(c0 - from)), along.dot(&(c1 - from))),
        along.norm_squared(),
        tolerance,
    )?;
    let (start, there) = (course.pose_at(0.0), course.pose_at(at));
    let lowest = shape.core().iter().min_by(|p, q| {
        up.dot(&(there * *p).coords)
            .total_cmp(&up.dot(&(there * *q).coords))
    })?;
    Some(start * lowest - up * shape.radius())
}

/// Where on a course (a fraction) the centre of mass, on its straight path from height `h0`
/// to `h1` over a segment's line (`h1 < h0`) and from `o0` to `o1` along it (times its
/// length, whose square is `len2`), is first both within `tolerance` of the line and over
/// the segment: the end if it ends there, else the first such point, `None` if there is
/// none. A centre that crosses the line over the segment and leaves past an end before the
/// course ends goes through it as surely as one that ends below it (a stick knocked down
/// and sideways near a segment's end, in the tumbling rain of 10,000 bodies).
fn over_segment_below(
    (h0, h1): (Real, Real),
    (o0, o1): (Real, Real),
    len2: Real,
    tolerance: Real,
) -> Option<Real> {
    if (0.0..=len2).contains(&o1) {
        return Some(1.0);
    }
    let low = if h0 < tolerance {
        0.0
    } else {
        (h0 - tolerance) / (h0 - h1)
    };
    let (enter, leave) = if o1 == o0 {
        return None;
    } else {
        let (a, b) = (-o0 / (o1 - o0), (len2 - o0) / (o1 - o0));
        (a.min(b), a.max(b))
    };
    let first = low.max(enter).max(0.0);
    (first <= leave.min(1.0)).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::ConvexPolygon;

    /// A stick 0.18 by 0.02 near the far end of a 6 m segment tilted by 0.1 rad, pressed 2.5
    /// mm into it, whose course lowers its centre from 7.5 mm above the segment's line to
    /// 1.75 mm below, is sinking, whichever normal of the pair gives the side: the segment's
    /// own, or the stick's face normal turned 0.04 rad from it either way (the overlap's
    /// closest-point normal in the tumbling rain); and one that slides along 7.5 mm above the
    /// line is not. Heights along the turned normal, from the segment's far end, were 24 cm
    /// off: the stick sinking through was 25 cm above the line, and the one sliding on it 23
    /// cm below.
    #[test]
    fn a_course_that_lowers_a_centre_through_the_line_is_sinking() {
        let tilt: Real = 0.1;
        let (from, to) = (
            Point::new(3.515, 4.7005),
            Point::new(3.515 + 6.0 * tilt.cos(), 4.7005 + 6.0 * tilt.sin()),
        );
        let ends = [from, to];
        let along = (to - from).normalize();
        let up = perp(&along);
        let at = |distance: Real, height: Real| from + along * distance + up * height;
        let stick: Shape = ConvexPolygon::rectangle(0.09, 0.01).unwrap().into();
        let tolerance = 0.00125;
        let dt = 1.0 / 60.0;
        for turn in [-0.04, 0.0, 0.04] {
            let start = Isometry::new(at(5.95, 0.0075).coords, tilt + turn);
            let face = Vector::new(-(tilt + turn).sin(), (tilt + turn).cos());
            let down = (at(5.944, -0.00175) - at(5.95, 0.0075)) / dt;
            let sinks = Sweep::new(start, Point::origin(), down, 0.0, dt).unwrap();
            let point = sinking(
                (&stick, &sinks),
                (&ends, &Isometry::identity()),
                face,
                tolerance,
            )
            .unwrap_or_else(|| panic!("turned {turn}: not sinking"));
            // The stick's lowest corner, at the start.
            assert!(up.dot(&(point - at(5.95, 0.0075))) < -0.01, "{point:?}");
            // Seen from the other side of the line, the course rises.
            assert!(
                sinking(
                    (&stick, &sinks),
                    (&ends, &Isometry::identity()),
                    -face,
                    tolerance
                )
                .is_none()
            );
            let slides = Sweep::new(start, Point::origin(), along * 3.0, 0.0, dt).unwrap();
            assert!(
                sinking(
                    (&stick, &slides),
                    (&ends, &Isometry::identity()),
                    face,
                    tolerance
                )
                .is_none(),
                "turned {turn}: sliding"
            );
        }
    }

    /// A stick over a segment 0.24 from its end, knocked down and sideways at 40 and 33
    /// units/s (the tumbling rain of 10,000 bodies, seed 6): its centre crosses the line
    /// over the segment and ends the course past the end; it is sinking, first at the
    /// fraction where its centre comes within the tolerance of the line, and the same
    /// course moved a metre from the end is not (its centre is never over the segment).
    #[test]
    fn a_course_that_crosses_the_line_and_leaves_past_the_end_is_sinking() {
        let (from, to) = (Point::new(0.0, 0.0), Point::new(6.0, 0.0));
        let stick: Shape = ConvexPolygon::rectangle(0.09, 0.01).unwrap().into();
        let dt = 1.0 / 60.0;
        let course = |x: Real| {
            let start = Isometry::new(Vector::new(x, 0.0174), 0.3);
            Sweep::new(start, Point::origin(), Vector::new(-33.0, -40.0), 0.0, dt).unwrap()
        };
        let up = Vector::new(0.0, 1.0);
        let ends = [from, to];
        let sinks = sinking(
            (&stick, &course(0.24)),
            (&ends, &Isometry::identity()),
            up,
            0.00125,
        );
        assert!(sinks.is_some());
        let away = sinking(
            (&stick, &course(-1.0)),
            (&ends, &Isometry::identity()),
            up,
            0.00125,
        );
        assert!(away.is_none());
    }

    proptest::proptest! {
        /// The first fraction over the segment and within the tolerance of its line, against
        /// 20,001 samples of the straight path: found where a sample qualifies (no later
        /// than the first sample that does, no earlier than one sample before it), `None`
        /// where none does.
        #[test]
        fn the_first_point_below_over_the_segment_matches_sampling(
            (h0, dh) in (-0.05..0.1, 0.001..1.0),
            (o0, o1) in (-2.0..8.0, -2.0..8.0),
        ) {
            let (h1, len2, tolerance) = (h0 - dh, 36.0, 0.00125);
            let qualifies = |f: Real| {
                let (h, o) = (h0 + f * (h1 - h0), o0 + f * (o1 - o0));
                h < tolerance && (0.0..=len2).contains(&o)
            };
            let first = (0..=20_000).map(|k| Real::from(k) / 20_000.0).find(|&f| qualifies(f));
            let found = over_segment_below((h0, h1), (o0, o1), len2, tolerance);
            if (0.0..=len2).contains(&o1) {
                proptest::prop_assert_eq!(found, Some(1.0));
            } else {
                match (found, first) {
                    (Some(f), Some(g)) => proptest::prop_assert!(f <= g + 1e-12 && f >= g - 5e-5, "{f} {g}"),
                    (None, None) => {}
                    (Some(f), None) => proptest::prop_assert!(qualifies(f) || f > 0.9999, "{f} between samples"),
                    (None, Some(g)) => proptest::prop_assert!(false, "missed the point at {g}"),
                }
            }
        }
    }
}
