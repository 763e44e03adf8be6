//! Conservative advancement (seed 002): time of impact for shapes that rotate.
//!
//! At the current time the distance `g` and its normal `n` are known. Along the fixed
//! direction `n`, every point of A approaches at most at `v_a . n + |w_a| r_a` and every point
//! of B recedes at least at `v_b . n - |w_b| r_b` (with `r` the farthest core point from the
//! centre of mass), so the distance cannot fall by more than `mu` per step, where
//! `mu = (v_a - v_b) . n + |w_a| r_a + |w_b| r_b`. Advancing by `(g - target) / mu` therefore
//! never passes the first time the shapes come within the target. If `mu <= 0` the shapes can
//! never approach. Iterations stop once within `tolerance` of the target.
//!
//! The distance at `t = 0` is the exact signed distance (it must classify overlap); later
//! iterations use GJK warm-started from the previous iteration's simplex, which is exact for
//! separated shapes and costs a few support evaluations per iteration.

use crate::distance::distance;
use crate::gjk::{GjkCache, gjk_distance};
use crate::{Hit, Toi, ToiOptions};
use impact_geometry::{Point, Real, Shape, Sweep, Vector, cross_scalar_vector, nalgebra};

/// The largest distance from the centre of mass to a core point: how far rotation can move a
/// point of the core per radian (the radius around the core turns in place).
fn rotation_arm(shape: &Shape, sweep: &Sweep) -> Real {
    let c = sweep.local_center();
    shape
        .core()
        .iter()
        .map(|p| (p - c).norm())
        .fold(0.0, Real::max)
}

/// Velocity (per step) of the material point at world position `p` at `t = 0`.
fn point_velocity(sweep: &Sweep, p: &Point) -> Vector {
    sweep.displacement() + cross_scalar_vector(sweep.rotation_angle(), &(p - sweep.center_at(0.0)))
}

/// Time of impact of any two shapes under any sweeps, by conservative advancement.
///
/// Never later than the true first time the shapes come within the target separation (to the
/// accuracy of the distance computation, which is exact to rounding). Returns
/// [`Toi::NotConverged`] with the last safe fraction after `options.max_iterations()` steps.
/// Shapes that start within the target and slide or move apart are followed until they come
/// closer than they started by at least half the tolerance (the hit is reported between half
/// and the whole tolerance closer), since a rotating body can part at one corner and strike
/// with another later in the step.
pub fn toi_conservative_advancement(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Toi {
    let arm = sweep_a.rotation_angle().abs() * rotation_arm(a, sweep_a)
        + sweep_b.rotation_angle().abs() * rotation_arm(b, sweep_b);
    let relative = sweep_a.displacement() - sweep_b.displacement();
    let tolerance = options.tolerance();
    let mut target = options.target_separation();
    let mut convergence = tolerance;

    let mut cache = GjkCache::default();
    // GJK is exact for separated cores and cheap; only overlapping cores need the exact
    // signed distance (to classify how deep they are).
    let start = {
        let g = gjk_distance(a, &sweep_a.start(), b, &sweep_b.start(), &mut cache);
        if g.cores_overlap {
            distance(a, &sweep_a.start(), b, &sweep_b.start())
        } else {
            crate::Distance {
                distance: g.distance,
                normal: g.normal,
                point_a: g.point_a,
                point_b: g.point_b,
            }
        }
    };
    if start.distance < -tolerance {
        return Toi::Overlapping;
    }
    if start.distance <= target + tolerance {
        // The relative motion of the touching points over the step decides, through the same
        // rule as the closed forms (robust when the distance is of rounding size).
        let relative_motion =
            point_velocity(sweep_b, &start.point_b) - point_velocity(sweep_a, &start.point_a);
        if crate::distance::approaches_from_touch(
            a,
            &sweep_a.start(),
            b,
            &sweep_b.start(),
            &relative_motion,
            tolerance,
        ) {
            return hit(0.0, start.point_a, start.point_b, start.normal);
        }
        // Parting or sliding: only a later approach closer than the start by more than the
        // tolerance is an impact (the closed forms allow the same drift while sliding).
        target = start.distance - tolerance;
        convergence = 0.5 * tolerance;
    }

    let mut t = 0.0;
    let mut gap = start.distance - target;
    let mut normal = start.normal;
    for _ in 0..options.max_iterations() {
        let mu = relative.dot(&normal) + arm;
        if mu <= 0.0 {
            return Toi::Separated;
        }
        let next = t + gap / mu;
        if next > options.max_fraction() {
            return Toi::Separated;
        }
        t = next;
        let pose_a = sweep_a.pose_at(t);
        let pose_b = sweep_b.pose_at(t);
        let now = gjk_distance(a, &pose_a, b, &pose_b, &mut cache);
        if now.cores_overlap {
            // Only rounding can bring the cores together before the target is reached; the
            // exact distance still gives a usable normal and point.
            let d = distance(a, &pose_a, b, &pose_b);
            return hit(t, d.point_a, d.point_b, d.normal);
        }
        gap = now.distance - target;
        normal = now.normal;
        if gap <= convergence {
            return hit(t, now.point_a, now.point_b, now.normal);
        }
    }
    Toi::NotConverged { safe_fraction: t }
}

fn hit(t: Real, point_a: Point, point_b: Point, normal: Vector) -> Toi {
    Toi::Hit(Hit {
        fraction: t,
        point: nalgebra::center(&point_a, &point_b),
        normal,
    })
}
