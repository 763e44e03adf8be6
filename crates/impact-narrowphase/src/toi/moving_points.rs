//! The predictive-collision article's queries on particles moving in straight lines over a step.

use crate::minkowski::circle_entry;
use impact_geometry::{Point, Real, cross};

/// Where two straight paths cross, whatever the times the particles pass there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PathCrossing {
    /// Fraction along the first path, in `[0, 1]`.
    pub t: Real,
    /// Fraction along the second path, in `[0, 1]`.
    pub s: Real,
    /// The crossing point.
    pub point: Point,
}

/// Where the path `p0 -> pf` crosses the path `q0 -> qf` (Cramer's rule on
/// `p0 + t (pf - p0) = q0 + s (qf - q0)`).
///
/// `None` when the paths do not cross within both segments, or are parallel (including
/// collinear paths, which touch along an interval rather than at a point). Crossing paths do
/// not mean a collision: the particles may pass the point at different times; see
/// [`moving_circles`] for the test that requires the same time.
pub fn path_crossing(p0: Point, pf: Point, q0: Point, qf: Point) -> Option<PathCrossing> {
    let dp = pf - p0;
    let dq = qf - q0;
    let denominator = cross(&dp, &dq);
    if denominator == 0.0 {
        return None;
    }
    let w = q0 - p0;
    let t = cross(&w, &dq) / denominator;
    let s = cross(&w, &dp) / denominator;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&s)).then(|| PathCrossing {
        t,
        s,
        point: p0 + dp * t,
    })
}

/// The first fraction `t` in `[0, 1]` at which circles of radius `r1` moving `p0 -> pf` and
/// `r2` moving `q0 -> qf` (both over the same step) touch: `|p(t) - q(t)| = r1 + r2`.
///
/// `Some(0.0)` if they already touch or overlap at the start; `None` if they never touch
/// during the step. Radii are taken as given (a negative sum never touches).
pub fn moving_circles(
    p0: Point,
    pf: Point,
    r1: Real,
    q0: Point,
    qf: Point,
    r2: Real,
) -> Option<Real> {
    let w = q0 - p0;
    let d = (qf - q0) - (pf - p0);
    let rho = r1 + r2;
    if rho < 0.0 {
        return None;
    }
    if w.norm() <= rho {
        return Some(0.0);
    }
    circle_entry(&(-w), rho, &d).filter(|&t| t <= 1.0)
}

/// [`moving_circles`] under its former name.
#[deprecated(since = "0.2.0", note = "renamed to `moving_circles`")]
#[inline]
pub fn moving_spheres(
    p0: Point,
    pf: Point,
    r1: Real,
    q0: Point,
    qf: Point,
    r2: Real,
) -> Option<Real> {
    moving_circles(p0, pf, r1, q0, qf, r2)
}
