//! Time of impact of a translating capsule and a translating capsule.
//!
//! Configuration-space obstacle: the parallelogram of the two axes rounded by the sum of the radii
//! plus target: end-point–edge contacts are line crossings, end-point–end-point contacts are circle
//! roots.

use super::linear::{LinearBody, cast_linear};
use crate::options::ToiOptions;
use crate::toi_result::{NoClosedForm, Toi};
use impact_geometry::{Capsule, Sweep};

/// The first fraction of the step at which the capsule `a` and the capsule `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
#[inline]
pub fn toi_capsule_capsule(
    a: &Capsule,
    sweep_a: &Sweep,
    b: &Capsule,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), a.radius(), sweep_a)?;
    let b = LinearBody::new(b.core(), b.radius(), sweep_b)?;
    Ok(cast_linear(&a, &b, options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toi::testing::*;
    use impact_geometry::{Point, Vector};

    #[test]
    fn crossing_capsules_and_end_to_end() {
        let horizontal = Capsule::along_x(1.0, 0.25).unwrap();
        let vertical = Capsule::new(Point::new(0.0, -1.0), Point::new(0.0, 1.0), 0.25).unwrap();
        // The vertical capsule's bottom end (0, -1 + 3) falls to y = 0.5: t = 0.5.
        let hit = expect_hit(
            toi_capsule_capsule(
                &horizontal,
                &resting(0.0, 0.0, 0.0),
                &vertical,
                &moving(0.0, 3.0, 0.0, 0.0, -3.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.5);
        assert_vec(hit.normal, Vector::new(0.0, 1.0));
        assert_vec(hit.point.coords, Vector::new(0.0, 0.25));
        // End to end along the x axis: axes end at 1 and 4 - 1, radii sum 0.5: gap 1.5 at 3 per step.
        let hit = expect_hit(
            toi_capsule_capsule(
                &horizontal,
                &resting(0.0, 0.0, 0.0),
                &horizontal,
                &moving(4.0, 0.0, 0.0, -3.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.5);
        // End caps meeting diagonally: ends (1, 0) and (3, 2) - (1, 0)... B's left end at
        // (2.5, 1.5) moving (-3, -3): |(1.5 - 3t)(1, 1)| = 0.5 at t = (1.5 - 0.5 / sqrt 2) / 3.
        let hit = expect_hit(
            toi_capsule_capsule(
                &horizontal,
                &resting(0.0, 0.0, 0.0),
                &horizontal,
                &moving(3.5, 1.5, 0.0, -3.0, -3.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, (1.5 - 0.5 / 2f64.sqrt()) / 3.0);
        assert_vec(hit.normal, Vector::new(1.0, 1.0) / 2f64.sqrt());
    }
}
