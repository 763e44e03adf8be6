//! Time of impact of two moving circles (seeds 000, 001 and 004).
//!
//! With centre offset `w = c_b - c_a` and relative displacement `d = d_b - d_a`, the circles
//! are `target` apart when `|w + t d| = rho` with `rho = r_a + r_b + target`: a quadratic in
//! `t` whose smaller root is the answer. It is solved in cancellation-free form (see
//! [`crate::minkowski`]), so grazing and nearly-touching inputs keep full relative accuracy.
//! A circle spinning about its own centre still moves on a straight line, so this closed
//! form serves rotating discs too.

use super::linear::LinearBody;
use crate::minkowski::circle_entry;
use crate::{Hit, NoClosedForm, Toi, ToiOptions};
use impact_geometry::{Circle, Point, Sweep, Vector};

/// The first fraction of the step at which circles `a` and `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates about a point other than the circle's centre.
pub fn toi_circle_circle(
    a: &Circle,
    sweep_a: &Sweep,
    b: &Circle,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    let body_a = LinearBody::new(a.core(), a.radius(), sweep_a)?;
    let body_b = LinearBody::new(b.core(), b.radius(), sweep_b)?;
    let center_a = body_a.start * a.center();
    let center_b = body_b.start * b.center();
    let w = center_b - center_a;
    let d = body_b.displacement - body_a.displacement;
    let radius_sum = a.radius() + b.radius();
    let rho = radius_sum + options.target_separation();
    let hit = |t: f64, offset: Vector, gap: f64| {
        let len = offset.norm();
        let normal = if len > 0.0 {
            offset / len
        } else {
            Vector::new(1.0, 0.0)
        };
        Toi::Hit(Hit {
            fraction: t,
            point: Point::from(
                center_a.coords
                    + body_a.displacement * t
                    + normal * (a.radius() + 0.5 * (gap - radius_sum)),
            ),
            normal,
        })
    };
    let start_distance = w.norm();
    if start_distance <= rho {
        if start_distance < radius_sum - options.tolerance() {
            return Ok(Toi::Overlapping);
        }
        // Within the target at the start: an impact only if they are closing in.
        return Ok(if w.dot(&d) < 0.0 {
            hit(0.0, w, start_distance)
        } else {
            Toi::Separated
        });
    }
    Ok(match circle_entry(&(-w), rho, &d) {
        Some(t) if t <= options.max_fraction() => hit(t, w + d * t, rho),
        _ => Toi::Separated,
    })
}
