//! Time of impact of a translating circle and a translating convex polygon, sharp or rounded.
//!
//! Configuration-space obstacle: the polygon's core (negated about the circle's centre) rounded
//! by the two radii plus target: the ray enters through an offset edge (a line crossing) or a
//! vertex arc (a circle root).

use super::linear::{LinearBody, cast_linear};
use crate::options::ToiOptions;
use crate::toi_result::{NoClosedForm, Toi};
use impact_geometry::{Circle, ConvexPolygon, Sweep};

/// The first fraction of the step at which the circle `a` and the convex polygon `b` (sharp or
/// rounded) come within `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
#[inline]
pub fn toi_circle_polygon(
    a: &Circle,
    sweep_a: &Sweep,
    b: &ConvexPolygon,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), a.radius(), sweep_a)?;
    let b = LinearBody::new(b.core(), b.radius(), sweep_b)?.with_normals(b.normals());
    Ok(cast_linear(&a, &b, options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toi::testing::*;
    use impact_geometry::Vector;

    #[test]
    fn face_and_corner_hits() {
        let disc = Circle::new(1.0).unwrap();
        let block = ConvexPolygon::rectangle(1.0, 1.0).unwrap();
        // Face x = 4 of the block at (5, 0): the centre stops at x = 3.
        let hit = expect_hit(
            toi_circle_polygon(
                &disc,
                &moving(0.0, 0.0, 0.0, 10.0, 0.0),
                &block,
                &resting(5.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.3);
        assert_vec(hit.normal, Vector::new(1.0, 0.0));
        // Corner (4, 1) from a path at y = 1.6: |(x - 4, 0.6)| = 1 at x = 3.2.
        let hit = expect_hit(
            toi_circle_polygon(
                &disc,
                &moving(0.0, 1.6, 0.0, 10.0, 0.0),
                &block,
                &resting(5.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.32);
        assert_vec(hit.normal, Vector::new(0.8, -0.6));
        // Same corner with the block turned by 90 degrees (a square is symmetric).
        let turned = expect_hit(
            toi_circle_polygon(
                &disc,
                &moving(0.0, 1.6, 0.0, 10.0, 0.0),
                &block,
                &resting(5.0, 0.0, core::f64::consts::FRAC_PI_2),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(turned.fraction, 0.32);
        // Passing just above the corner: no hit.
        let miss = toi_circle_polygon(
            &disc,
            &moving(0.0, 2.0 + 1e-9, 0.0, 10.0, 0.0),
            &block,
            &resting(5.0, 0.0, 0.0),
            &exact(),
        );
        assert_eq!(miss, Ok(Toi::Separated));
    }

    #[test]
    fn the_corner_wedge_with_a_target_separation() {
        // A diamond's right corner at (1, 0); a circle of radius 0.5 comes straight at it along
        // y = 0 from the right. The sharp offset polygon is entered early; the true answer is
        // the arc of radius 0.5 + 0.1 around the corner: the centre stops at x = 1.6.
        let diamond = ConvexPolygon::regular(4, 1.0).unwrap();
        let disc = Circle::new(0.5).unwrap();
        let hit = expect_hit(
            toi_circle_polygon(
                &disc,
                &moving(5.0, 0.0, 0.0, -10.0, 0.0),
                &diamond,
                &resting(0.0, 0.0, 0.0),
                &with_target(0.1),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.34);
        assert_vec(hit.normal, Vector::new(-1.0, 0.0));
    }
}
