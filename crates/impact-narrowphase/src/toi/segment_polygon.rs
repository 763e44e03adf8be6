//! Time of impact of a translating segment and a translating convex polygon, sharp or rounded.
//!
//! Configuration-space obstacle: the polygon's core swept along the segment (at most n + 2
//! edges), entered through an edge (line crossing) or, with a target separation or the
//! polygon's radius, a rounded corner (circle root).

use super::linear::{LinearBody, cast_linear};
use crate::options::ToiOptions;
use crate::toi_result::{NoClosedForm, Toi};
use impact_geometry::{ConvexPolygon, Segment, Sweep};

/// The first fraction of the step at which the segment `a` and the convex polygon `b` (sharp or
/// rounded) come within `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
#[inline]
pub fn toi_segment_polygon(
    a: &Segment,
    sweep_a: &Sweep,
    b: &ConvexPolygon,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), 0.0, sweep_a)?;
    let b = LinearBody::new(b.core(), b.radius(), sweep_b)?.with_normals(b.normals());
    Ok(cast_linear(&a, &b, options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toi::testing::*;
    use impact_geometry::{Point, Vector};

    #[test]
    fn a_box_hits_a_thin_wall_and_a_wall_edge_hits_a_box() {
        let wall = Segment::new(Point::new(0.0, -1.0), Point::new(0.0, 1.0)).unwrap();
        let block = ConvexPolygon::rectangle(0.5, 0.5).unwrap();
        // The block's face x = 0.5 + x0 reaches the wall from x0 = -3 moving 5: t = 0.5.
        let hit = expect_hit(
            toi_segment_polygon(
                &wall,
                &resting(0.0, 0.0, 0.0),
                &block,
                &moving(-3.0, 0.0, 0.0, 5.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.5);
        assert_vec(hit.normal, Vector::new(-1.0, 0.0));
        // The block turned 45 degrees: its corner leads, at 0.5 * sqrt(2) from its centre.
        let hit = expect_hit(
            toi_segment_polygon(
                &wall,
                &resting(0.0, 0.0, 0.0),
                &block,
                &moving(-3.0, 0.0, core::f64::consts::FRAC_PI_4, 5.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, (3.0 - 0.5 * 2f64.sqrt()) / 5.0);
        // The wall's end (0, 1) meets the block's bottom face when it passes above the wall.
        let hit = expect_hit(
            toi_segment_polygon(
                &wall,
                &resting(0.0, 0.0, 0.0),
                &block,
                &moving(0.2, 4.0, 0.0, 0.0, -5.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, (4.0 - 1.5) / 5.0);
        assert_vec(hit.normal, Vector::new(0.0, 1.0));
    }
}
