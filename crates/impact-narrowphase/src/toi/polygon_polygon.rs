//! Time of impact of two translating convex polygons, each sharp or rounded.
//!
//! Configuration-space obstacle: the Minkowski difference of the two cores (at most n + m edges,
//! built by merging edge directions). Its edges are the separating axes of both polygons, so the
//! cast is a swept separating-axis test; with a target separation or the polygons' radii its
//! corners are rounded and a vertex–vertex approach is a circle root.

use super::linear::{LinearBody, cast_linear};
use crate::options::ToiOptions;
use crate::toi_result::{NoClosedForm, Toi};
use impact_geometry::{ConvexPolygon, Sweep};

/// The first fraction of the step at which the convex polygons `a` and `b` (each sharp or
/// rounded) come within `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
#[inline]
pub fn toi_polygon_polygon(
    a: &ConvexPolygon,
    sweep_a: &Sweep,
    b: &ConvexPolygon,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), a.radius(), sweep_a)?.with_normals(a.normals());
    let b = LinearBody::new(b.core(), b.radius(), sweep_b)?.with_normals(b.normals());
    Ok(cast_linear(&a, &b, options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toi::testing::*;
    use core::f64::consts::FRAC_PI_4;
    use impact_geometry::Vector;

    #[test]
    fn corner_onto_face_and_face_onto_face() {
        let big = ConvexPolygon::rectangle(1.0, 1.0).unwrap();
        let small = ConvexPolygon::rectangle(0.5, 0.5).unwrap();
        // The small box turned 45 degrees leads with a corner at 0.5 sqrt 2 from its centre.
        let hit = expect_hit(
            toi_polygon_polygon(
                &big,
                &resting(0.0, 0.0, 0.0),
                &small,
                &moving(5.0, 0.0, FRAC_PI_4, -10.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, (4.0 - 0.5 * 2f64.sqrt()) / 10.0);
        assert_vec(hit.normal, Vector::new(1.0, 0.0));
        assert_vec(hit.point.coords, Vector::new(1.0, 0.0));
        // Face to face, both moving.
        let hit = expect_hit(
            toi_polygon_polygon(
                &big,
                &moving(0.0, 0.0, 0.0, 1.0, 0.0),
                &small,
                &moving(5.0, 0.3, 0.0, -3.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 3.5 / 4.0);
    }

    #[test]
    fn corner_to_corner_with_a_target_is_a_circle_root() {
        // Corners (1, 1) and (4, 4) close along the diagonal: distance sqrt 2 (3 - 10 t).
        let unit = ConvexPolygon::rectangle(1.0, 1.0).unwrap();
        let target = 0.1;
        let hit = expect_hit(
            toi_polygon_polygon(
                &unit,
                &resting(0.0, 0.0, 0.0),
                &unit,
                &moving(5.0, 5.0, 0.0, -10.0, -10.0),
                &with_target(target),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, (3.0 - target / 2f64.sqrt()) / 10.0);
        assert_vec(hit.normal, Vector::new(1.0, 1.0) / 2f64.sqrt());
        // Exactly touching corners, no target: the sharp answer is exact.
        let hit = expect_hit(
            toi_polygon_polygon(
                &unit,
                &resting(0.0, 0.0, 0.0),
                &unit,
                &moving(5.0, 5.0, 0.0, -10.0, -10.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.3);
    }

    #[test]
    fn start_states() {
        let unit = ConvexPolygon::rectangle(1.0, 1.0).unwrap();
        let opts = exact();
        let overlapping = toi_polygon_polygon(
            &unit,
            &resting(0.0, 0.0, 0.0),
            &unit,
            &resting(1.5, 0.0, 0.0),
            &opts,
        );
        assert_eq!(overlapping, Ok(Toi::Overlapping));
        // Resting on each other and sliding sideways: separated, so stacked boxes can slide.
        let sliding = toi_polygon_polygon(
            &unit,
            &resting(0.0, 0.0, 0.0),
            &unit,
            &moving(0.5, 2.0, 0.0, 3.0, 0.0),
            &opts,
        );
        assert_eq!(sliding, Ok(Toi::Separated));
        let pressing = expect_hit(
            toi_polygon_polygon(
                &unit,
                &resting(0.0, 0.0, 0.0),
                &unit,
                &moving(0.5, 2.0, 0.0, 3.0, -0.1),
                &opts,
            )
            .unwrap(),
        );
        assert_eq!(pressing.fraction, 0.0);
        assert_vec(pressing.normal, Vector::new(0.0, 1.0));
        // A rotating sweep has no closed form.
        let spinning = impact_geometry::Sweep::new(
            impact_geometry::Isometry::identity(),
            impact_geometry::Point::origin(),
            Vector::zeros(),
            1.0,
            1.0,
        )
        .unwrap();
        assert_eq!(
            toi_polygon_polygon(&unit, &spinning, &unit, &resting(5.0, 0.0, 0.0), &opts),
            Err(NoClosedForm)
        );
    }
}
