//! Time of impact of a translating segment and a translating capsule.
//!
//! Configuration-space obstacle: the parallelogram of the two axes, rounded by the capsule radius
//! plus target.

use super::linear::{LinearBody, cast_linear};
use crate::options::ToiOptions;
use crate::toi_result::{NoClosedForm, Toi};
use impact_geometry::{Capsule, Segment, Sweep};

/// The first fraction of the step at which the segment `a` and the capsule `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates (see [`crate::time_of_impact`], which then uses
/// conservative advancement).
#[inline]
pub fn toi_segment_capsule(
    a: &Segment,
    sweep_a: &Sweep,
    b: &Capsule,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let a = LinearBody::new(a.core(), 0.0, sweep_a)?;
    let b = LinearBody::new(b.core(), b.radius(), sweep_b)?;
    Ok(cast_linear(&a, &b, options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toi::testing::*;
    use impact_geometry::{Point, Vector};

    #[test]
    fn a_segment_lands_on_a_lying_capsule() {
        let capsule = Capsule::along_x(2.0, 0.5).unwrap();
        let stick = Segment::new(Point::new(-0.5, 0.0), Point::new(0.5, 0.0)).unwrap();
        // The stick falls flat from y = 3: it touches the capsule's top (y = 0.5) at t = 0.625.
        let hit = expect_hit(
            toi_segment_capsule(
                &stick,
                &moving(0.0, 3.0, 0.0, 0.0, -4.0),
                &capsule,
                &resting(0.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.625);
        assert_vec(hit.normal, Vector::new(0.0, -1.0));
        // Falling beside the capsule's end: the stick's right end (3.0 - 0.4 + 0.5) ... the
        // stick spans x in [2.1, 3.1]; its left end meets the end cap around (2, 0):
        // |(0.1, y)| = 0.5 at y = sqrt(0.24).
        let hit = expect_hit(
            toi_segment_capsule(
                &stick,
                &moving(2.6, 3.0, 0.0, 0.0, -4.0),
                &capsule,
                &resting(0.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, (3.0 - 0.24f64.sqrt()) / 4.0);
    }
}
