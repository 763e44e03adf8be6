//! Time of impact of a translating capsule and a translating convex polygon, sharp or rounded.
//!
//! Configuration-space obstacle: the polygon's core swept along the capsule axis, rounded by the
//! two radii plus target.

use super::linear::{LinearBody, cast_linear};
use crate::options::ToiOptions;
use crate::toi_result::{NoClosedForm, Toi};
use impact_geometry::{Capsule, ConvexPolygon, Sweep};

/// The first fraction of the step at which the capsule `a` and the convex polygon `b` (sharp or
/// rounded) come within `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
#[inline]
pub fn toi_capsule_polygon(
    a: &Capsule,
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
    fn a_capsule_falls_on_a_box() {
        let capsule = Capsule::along_x(1.0, 0.25).unwrap();
        let ground = ConvexPolygon::rectangle(5.0, 0.5).unwrap();
        // Lying flat, from y = 3 to the ground's top at 0.5 + 0.25.
        let hit = expect_hit(
            toi_capsule_polygon(
                &capsule,
                &moving(0.0, 3.0, 0.0, 0.0, -4.5),
                &ground,
                &resting(0.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.5);
        assert_vec(hit.normal, Vector::new(0.0, -1.0));
        // Standing upright, it lands on its lower cap: axis end at y0 - 1 must reach 0.75.
        let hit = expect_hit(
            toi_capsule_polygon(
                &capsule,
                &moving(0.0, 3.0, core::f64::consts::FRAC_PI_2, 0.0, -4.5),
                &ground,
                &resting(0.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, (3.0 - 1.75) / 4.5);
        // Beside the ground's corner (5, 0.5): the cap around (6, y) ... the capsule lying at
        // x = 5.9 has its left end (4.9, y) over the top face: it lands on it.
        let hit = expect_hit(
            toi_capsule_polygon(
                &capsule,
                &moving(5.9, 3.0, 0.0, 0.0, -4.5),
                &ground,
                &resting(0.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.5);
    }
}
