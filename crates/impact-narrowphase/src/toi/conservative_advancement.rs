//! Conservative advancement (seed 002): time of impact for shapes that rotate.
//!
//! At the current time the exact distance `g` and its normal `n` are known. Along the fixed
//! direction `n`, every point of A approaches at most at `v_a . n + |w_a| r_a` and every point
//! of B recedes at least at `v_b . n - |w_b| r_b` (with `r` the farthest core point from the
//! centre of mass), so the distance cannot fall by more than `mu * dt` in time `dt`, where
//! `mu = (v_a - v_b) . n + |w_a| r_a + |w_b| r_b`. Advancing by `(g - target) / mu` therefore
//! never passes the first time the shapes come within the target. If `mu <= 0` the shapes can
//! never approach. Iterations stop once within `tolerance` of the target.

use crate::distance::distance;
use crate::{Hit, Toi, ToiOptions};
use impact_geometry::{Real, Shape, Sweep};

/// The largest distance from the centre of mass to a core point: how far rotation can move a
/// point of the core per radian.
fn rotation_arm(shape: &Shape, sweep: &Sweep) -> Real {
    let c = sweep.local_center();
    shape
        .core()
        .iter()
        .map(|p| (p - c).norm())
        .fold(0.0, Real::max)
}

/// Time of impact of any two shapes under any sweeps, by conservative advancement.
///
/// Never later than the true first time the shapes come within the target separation (to the
/// accuracy of the distance computation, which is exact to rounding). Returns
/// [`Toi::NotConverged`] with the last safe fraction after `options.max_iterations()` steps.
/// Shapes that start within the target and move apart are followed until they come closer
/// than they started by half the tolerance, since a rotating body can part at one corner and
/// strike with another later in the step.
pub fn toi_conservative_advancement(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Toi {
    let arm = sweep_a.angvel().abs() * rotation_arm(a, sweep_a) * sweep_a.dt()
        + sweep_b.angvel().abs() * rotation_arm(b, sweep_b) * sweep_b.dt();
    let relative = sweep_a.displacement() - sweep_b.displacement();
    let tolerance = options.tolerance();
    let mut target = options.target_separation();
    let mut t = 0.0;
    for iteration in 0..options.max_iterations() {
        let now = distance(a, &sweep_a.pose_at(t), b, &sweep_b.pose_at(t));
        if iteration == 0 {
            if now.distance < -tolerance {
                return Toi::Overlapping;
            }
            if now.distance <= target + tolerance {
                let approach_speed = relative.dot(&now.normal) + arm;
                let point_velocity = |sweep: &Sweep, p: &impact_geometry::Point| {
                    let r = p - sweep.center_at(0.0);
                    sweep.displacement()
                        + impact_geometry::cross_scalar_vector(sweep.rotation_angle(), &r)
                };
                let closing = (point_velocity(sweep_a, &now.point_a)
                    - point_velocity(sweep_b, &now.point_b))
                .dot(&now.normal);
                if closing > 0.0 {
                    return hit(0.0, &now);
                }
                if approach_speed <= 0.0 {
                    return Toi::Separated;
                }
                target = now.distance - 0.5 * tolerance;
            }
        }
        let gap = now.distance - target;
        if iteration > 0 && gap <= tolerance {
            return hit(t, &now);
        }
        let mu = relative.dot(&now.normal) + arm;
        if mu <= 0.0 {
            return Toi::Separated;
        }
        let next = t + gap / mu;
        if next > options.max_fraction() {
            // One last look at the end: the bound is conservative, the step may end first.
            return Toi::Separated;
        }
        if next <= t {
            return hit(t, &now);
        }
        t = next;
    }
    Toi::NotConverged { safe_fraction: t }
}

fn hit(t: Real, d: &crate::Distance) -> Toi {
    Toi::Hit(Hit {
        fraction: t,
        point: nalgebra_center(d),
        normal: d.normal,
    })
}

fn nalgebra_center(d: &crate::Distance) -> impact_geometry::Point {
    impact_geometry::nalgebra::center(&d.point_a, &d.point_b)
}
