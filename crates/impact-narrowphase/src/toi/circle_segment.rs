//! Time of impact of a translating circle and a translating segment.
//!
//! Configuration-space obstacle: the segment itself, seen from the circle's centre, rounded by
//! the radius plus the target separation: a capsule. The ray from the centre along the relative
//! motion enters it through one of its two long sides (a line crossing, as in Colp's ECSE
//! write-up) or through the end cap around one end point (a circle root, as in the circles
//! article).

use super::linear::{LinearBody, cast_linear};
use super::rounded_segment::cast_circle_rounded_segment;
use crate::options::ToiOptions;
use crate::toi_result::{NoClosedForm, Toi};
use impact_geometry::{Circle, Isometry, Point, Real, Segment, Sweep, Vector};

/// The first fraction of the step at which the circle `a` and the segment `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
#[inline]
pub fn toi_circle_segment(
    a: &Circle,
    sweep_a: &Sweep,
    b: &Segment,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), a.radius(), sweep_a)?;
    let b = LinearBody::new(b.core(), 0.0, sweep_b)?;
    Ok(
        cast_circle_rounded_segment(&a, &b, options)
            .unwrap_or_else(|| cast_linear(&a, &b, options)),
    )
}

/// [`toi_circle_segment`] for a circle centred on its origin, which starts at `start` and
/// moves by `displacement` over the step, against a segment that does not move, at
/// `pose`: the same answer, bit for bit, for callers that keep poses and velocities and
/// need not build either [`Sweep`] per query (an event-driven stepper asks it of every
/// segment near a circle at every impact of the circle).
#[inline]
pub fn toi_circle_still_segment(
    radius: Real,
    start: &Isometry,
    displacement: Vector,
    segment: &Segment,
    pose: &Isometry,
    options: &ToiOptions,
) -> Toi {
    let core = [Point::origin()];
    let a = LinearBody {
        core: &core,
        normals: None,
        radius,
        start: *start,
        displacement,
    };
    let b = LinearBody {
        core: segment.core(),
        normals: None,
        radius: 0.0,
        start: *pose,
        displacement: Vector::zeros(),
    };
    cast_circle_rounded_segment(&a, &b, options).unwrap_or_else(|| cast_linear(&a, &b, options))
}

/// [`toi_circle_still_segment`] under its former name.
#[deprecated(since = "0.2.0", note = "renamed to `toi_circle_still_segment`")]
#[inline]
pub fn toi_disc_still_segment(
    radius: Real,
    start: &Isometry,
    displacement: Vector,
    segment: &Segment,
    pose: &Isometry,
    options: &ToiOptions,
) -> Toi {
    toi_circle_still_segment(radius, start, displacement, segment, pose, options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toi::testing::*;
    use impact_geometry::{Point, Vector};

    fn seg(ax: f64, ay: f64, bx: f64, by: f64) -> Segment {
        Segment::new(Point::new(ax, ay), Point::new(bx, by)).unwrap()
    }

    fn disc(r: f64) -> Circle {
        Circle::new(r).unwrap()
    }

    #[test]
    fn face_hit_seed_001() {
        // The circle's front reaches the line x = 2 when its centre is at 1.5.
        let hit = expect_hit(
            toi_circle_segment(
                &disc(0.5),
                &moving(0.0, 0.0, 0.0, 4.0, 0.0),
                &seg(2.0, -1.0, 2.0, 1.0),
                &resting(0.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.375);
        assert_vec(hit.normal, Vector::new(1.0, 0.0));
        assert_vec(hit.point.coords, Vector::new(2.0, 0.0));
    }

    #[test]
    fn end_point_hit() {
        // The path passes below the end point (2, 0.8): |(x - 2, -0.8)| = 1 at x = 1.4.
        let hit = expect_hit(
            toi_circle_segment(
                &disc(1.0),
                &moving(0.0, 0.0, 0.0, 4.0, 0.0),
                &seg(2.0, 0.8, 2.0, 3.0),
                &resting(0.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.35);
        assert_vec(hit.normal, Vector::new(0.6, 0.8));
        // The other end point, with the segment given the other way round.
        let hit = expect_hit(
            toi_circle_segment(
                &disc(1.0),
                &moving(0.0, 0.0, 0.0, 4.0, 0.0),
                &seg(2.0, -3.0, 2.0, -0.8),
                &resting(0.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.35);
        assert_vec(hit.normal, Vector::new(0.6, -0.8));
    }

    #[test]
    fn motion_parallel_to_the_segment() {
        // Along y = 0.5 toward the segment (0, 0)-(2, 0): radius 0.4 passes above it, radius
        // 0.6 meets the end point (0, 0) when x = -sqrt(0.11).
        let path = moving(-3.0, 0.5, 0.0, 4.0, 0.0);
        let wall = seg(0.0, 0.0, 2.0, 0.0);
        assert_eq!(
            toi_circle_segment(&disc(0.4), &path, &wall, &resting(0.0, 0.0, 0.0), &exact()),
            Ok(Toi::Separated)
        );
        let hit = expect_hit(
            toi_circle_segment(&disc(0.6), &path, &wall, &resting(0.0, 0.0, 0.0), &exact())
                .unwrap(),
        );
        assert_close(hit.fraction, (3.0 - 0.11f64.sqrt()) / 4.0);
    }

    #[test]
    fn moving_segment_and_zero_length_segment() {
        // The wall moves toward the resting circle.
        let hit = expect_hit(
            toi_circle_segment(
                &disc(0.5),
                &resting(0.0, 0.0, 0.0),
                &seg(-1.0, 0.0, 1.0, 0.0),
                &moving(0.0, 3.0, 0.0, 0.0, -5.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.5);
        assert_vec(hit.normal, Vector::new(0.0, 1.0));
        // A zero-length segment is a point.
        let hit = expect_hit(
            toi_circle_segment(
                &disc(0.5),
                &moving(0.0, 0.0, 0.0, 4.0, 0.0),
                &seg(2.0, 0.0, 2.0, 0.0),
                &resting(0.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.375);
    }

    #[test]
    fn bullet_through_paper() {
        // Radius 0.05 at 10,000 units/s over a 60 Hz step toward a zero-thickness wall.
        let step = 10_000.0 / 60.0;
        let hit = expect_hit(
            toi_circle_segment(
                &disc(0.05),
                &moving(0.0, 0.0, 0.0, step, 0.0),
                &seg(50.0, -1.0, 50.0, 1.0),
                &resting(0.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 49.95 / step);
    }
}
