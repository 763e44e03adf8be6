//! Time of impact of a translating segment and a translating segment.
//!
//! Configuration-space obstacle: a parallelogram whose edges are each end point of one segment
//! minus the other segment. Every first contact is end point against edge (or two parallel edges):
//! the obstacle's edges are exactly those cases. With a positive target separation the corners are
//! rounded and end-point–end-point contacts are circle roots.

use super::linear::{LinearBody, cast_linear};
use crate::options::ToiOptions;
use crate::toi_result::{NoClosedForm, Toi};
use impact_geometry::{Segment, Sweep};

/// The first fraction of the step at which the segment `a` and the segment `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
#[inline]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toi::testing::*;
    use impact_geometry::{Point, Vector};

    fn seg(ax: f64, ay: f64, bx: f64, by: f64) -> Segment {
        Segment::new(Point::new(ax, ay), Point::new(bx, by)).unwrap()
    }

    #[test]
    fn end_point_against_edge() {
        // B's lower end (1, 1) falls onto A's interior.
        let hit = expect_hit(
            toi_segment_segment(
                &seg(0.0, 0.0, 2.0, 0.0),
                &resting(0.0, 0.0, 0.0),
                &seg(1.0, 1.0, 1.0, 3.0),
                &moving(0.0, 0.0, 0.0, 0.0, -2.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.5);
        assert_vec(hit.normal, Vector::new(0.0, 1.0));
        assert_vec(hit.point.coords, Vector::new(1.0, 0.0));
    }

    #[test]
    fn edge_against_end_point_and_end_point_against_end_point() {
        // A lies on y = x from (-1, -1) to (1, 1); B is vertical at x = 3 from y = 0 to 1 and
        // moves left by 4. B's top (3, 1) meets A's end (1, 1) at t = 0.5, before B's bottom
        // (3, 0) would reach A's interior at t = 0.75.
        let hit = expect_hit(
            toi_segment_segment(
                &seg(-1.0, -1.0, 1.0, 1.0),
                &resting(0.0, 0.0, 0.0),
                &seg(3.0, 0.0, 3.0, 1.0),
                &moving(0.0, 0.0, 0.0, -4.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.5);
        // Shorter A: its end (0.5, 0.5) is met by B's interior at t = 0.625.
        let hit = expect_hit(
            toi_segment_segment(
                &seg(-1.0, -1.0, 0.5, 0.5),
                &resting(0.0, 0.0, 0.0),
                &seg(3.0, 0.0, 3.0, 1.0),
                &moving(0.0, 0.0, 0.0, -4.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.625);
        assert_vec(hit.normal, Vector::new(1.0, 0.0));
    }

    #[test]
    fn collinear_and_parallel() {
        // Collinear, sliding into each other end to end.
        let hit = expect_hit(
            toi_segment_segment(
                &seg(0.0, 0.0, 1.0, 0.0),
                &resting(0.0, 0.0, 0.0),
                &seg(2.0, 0.0, 3.0, 0.0),
                &moving(0.0, 0.0, 0.0, -2.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.5);
        // Parallel, one above the other, approaching face to face.
        let hit = expect_hit(
            toi_segment_segment(
                &seg(0.0, 0.0, 2.0, 0.0),
                &resting(0.0, 0.0, 0.0),
                &seg(0.5, 1.0, 1.5, 1.0),
                &moving(0.0, 0.0, 0.0, 0.0, -4.0),
                &with_target(0.2),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.2);
        // Parallel and moving along themselves, apart: never.
        let never = toi_segment_segment(
            &seg(0.0, 0.0, 2.0, 0.0),
            &resting(0.0, 0.0, 0.0),
            &seg(0.0, 1.0, 2.0, 1.0),
            &moving(0.0, 0.0, 0.0, 5.0, 0.0),
            &exact(),
        );
        assert_eq!(never, Ok(Toi::Separated));
    }

    #[test]
    fn crossing_at_the_start_is_overlapping() {
        let toi = toi_segment_segment(
            &seg(-1.0, 0.0, 1.0, 0.0),
            &resting(0.0, 0.0, 0.0),
            &seg(0.0, -1.0, 0.0, 1.0),
            &moving(0.0, 0.0, 0.0, 1.0, 0.0),
            &exact(),
        );
        assert_eq!(toi, Ok(Toi::Overlapping));
    }
}
