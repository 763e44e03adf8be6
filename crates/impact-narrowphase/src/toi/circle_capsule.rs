//! Time of impact of a translating circle and a translating capsule.
//!
//! Configuration-space obstacle: the capsule's axis rounded by the sum of both radii plus the
//! target separation, a capsule again; the same cast as circle–segment with a larger radius.

use super::linear::{LinearBody, cast_linear};
use super::rounded_segment::cast_circle_rounded_segment;
use crate::options::ToiOptions;
use crate::toi_result::{NoClosedForm, Toi};
use impact_geometry::{Capsule, Circle, Sweep};

/// The first fraction of the step at which the circle `a` and the capsule `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
#[inline]
pub fn toi_circle_capsule(
    a: &Circle,
    sweep_a: &Sweep,
    b: &Capsule,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), a.radius(), sweep_a)?;
    let b = LinearBody::new(b.core(), b.radius(), sweep_b)?;
    Ok(
        cast_circle_rounded_segment(&a, &b, options)
            .unwrap_or_else(|| cast_linear(&a, &b, options)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toi::testing::*;
    use impact_geometry::{Point, Vector};

    #[test]
    fn side_and_cap_hits() {
        let capsule = Capsule::new(Point::new(0.0, -1.0), Point::new(0.0, 1.0), 0.5).unwrap();
        let disc = Circle::new(0.5).unwrap();
        // Side: centre reaches x = -1 (from -5, moving 10): t = 0.4.
        let hit = expect_hit(
            toi_circle_capsule(
                &disc,
                &moving(-5.0, 0.0, 0.0, 10.0, 0.0),
                &capsule,
                &resting(0.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.4);
        assert_vec(hit.normal, Vector::new(1.0, 0.0));
        assert_vec(hit.point.coords, Vector::new(-0.5, 0.0));
        // Cap: falling onto the top end (0, 1) from above: centre reaches y = 2.
        let hit = expect_hit(
            toi_circle_capsule(
                &disc,
                &moving(0.0, 6.0, 0.0, 0.0, -8.0),
                &capsule,
                &resting(0.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.5);
        assert_vec(hit.normal, Vector::new(0.0, -1.0));
        // Glancing the cap: path x = 0.6 meets the end disc (radius sum 1) at y = 1.8.
        let hit = expect_hit(
            toi_circle_capsule(
                &disc,
                &moving(0.6, 6.0, 0.0, 0.0, -8.0),
                &capsule,
                &resting(0.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, (6.0 - 1.8) / 8.0);
        assert_vec(hit.normal, Vector::new(-0.6, -0.8));
    }
}
