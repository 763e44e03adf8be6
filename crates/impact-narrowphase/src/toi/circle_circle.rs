//! Time of impact of two moving circles (the circles article, Colp's ECSE write-up and the
//! predictive-collision article).
//!
//! With centre offset `w = c_b - c_a` and relative displacement `d = d_b - d_a`, the circles
//! are `target` apart when `|w + t d| = rho` with `rho = r_a + r_b + target`: a quadratic in
//! `t` whose smaller root is the answer. It is solved in cancellation-free form (see
//! [`crate::minkowski`]), so grazing and nearly-touching inputs keep full relative accuracy.
//! A circle spinning about its own centre still moves on a straight line, so this closed
//! form serves rotating discs too.

use crate::options::ToiOptions;
use crate::toi_result::{Hit, NoClosedForm, Toi};
use impact_geometry::tolerances::GAP_NORMALISES_RELATIVE;
use impact_geometry::{Circle, Point, Sweep, Vector, cross};

/// The first fraction of the step at which circles `a` and `b` come within
/// `options.target_separation()`; exact to rounding.
///
/// # Errors
/// [`NoClosedForm`] if a sweep rotates about a point other than the circle's centre.
#[inline]
pub fn toi_circle_circle(
    a: &Circle,
    sweep_a: &Sweep,
    b: &Circle,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Result<Toi, NoClosedForm> {
    // A disc spinning about its own centre still moves its centre on a straight line.
    let linear = |c: &Circle, sweep: &Sweep| !sweep.rotates() || c.center() == sweep.local_center();
    if !(linear(a, sweep_a) && linear(b, sweep_b)) {
        return Err(NoClosedForm);
    }
    Ok(toi_circles(
        sweep_a.start() * a.center(),
        sweep_a.displacement(),
        a.radius(),
        sweep_b.start() * b.center(),
        sweep_b.displacement(),
        b.radius(),
        options,
    ))
}

/// [`toi_circle_circle`] for two circles given by their centres at the start, the
/// displacements of the centres over the step and their radii: the same answer, bit for
/// bit, for callers that keep centres and velocities and need not build a [`Sweep`] per
/// query (an event-driven gas asks this of every neighbour at every collision).
#[inline]
pub fn toi_circles(
    center_a: Point,
    displacement_a: Vector,
    radius_a: f64,
    center_b: Point,
    displacement_b: Vector,
    radius_b: f64,
    options: &ToiOptions,
) -> Toi {
    let w = center_b - center_a;
    let d = displacement_b - displacement_a;
    let radius_sum = radius_a + radius_b;
    let rho = radius_sum + options.target_separation();
    let frame = HitFrame {
        center_a,
        displacement_a,
        radius_a,
        radius_sum,
        scale: w.amax() + d.amax(),
        approach: w,
    };
    let hit = |t: f64, offset: Vector, gap: f64| frame.hit(t, offset, gap);
    // Most queries miss: reject them with squared quantities before any square root.
    let near = rho + options.tolerance();
    let w2 = w.norm_squared();
    if w2 > near * near {
        let b = w.dot(&d);
        let d2 = d.norm_squared();
        let cr = cross(&w, &d);
        if b >= 0.0 || cr * cr > rho * rho * d2 {
            return Toi::Separated;
        }
        // The quadratic's constant term and discriminant, each in the cancellation-free
        // factored form (see `minkowski::circle_entry`) exactly where cancellation can occur:
        // near touching (|w| close to rho) and near grazing (|w x d| close to rho |d|). Away
        // from those the plain forms are as accurate and save two square roots.
        let rho2 = rho * rho;
        let c = if w2 > 2.0 * rho2 {
            w2 - rho2
        } else {
            let w_len = w2.sqrt();
            (w_len - rho) * (w_len + rho)
        };
        let cr2 = cr * cr;
        let disc = if 2.0 * cr2 < rho2 * d2 {
            rho2 * d2 - cr2
        } else {
            let (rd, acr) = (rho * d2.sqrt(), cr.abs());
            (rd - acr) * (rd + acr)
        };
        if disc < 0.0 {
            return Toi::Separated;
        }
        let t = c / (-b + disc.sqrt());
        if t > options.max_fraction() {
            return Toi::Separated;
        }
        return hit(t, w + d * t, rho);
    }
    let start_distance = w2.sqrt();
    if start_distance < radius_sum - options.tolerance() {
        return Toi::Overlapping;
    }
    // Within the target at the start: an impact only if they close in by more than the
    // tolerance over the step (less is sliding, to rounding).
    if w.dot(&d) < -options.tolerance() * start_distance {
        hit(0.0, w, start_distance)
    } else {
        Toi::Separated
    }
}

/// [`toi_circles`] under its former name.
#[deprecated(since = "0.2.0", note = "renamed to `toi_circles`")]
#[inline]
pub fn toi_discs(
    center_a: Point,
    displacement_a: Vector,
    radius_a: f64,
    center_b: Point,
    displacement_b: Vector,
    radius_b: f64,
    options: &ToiOptions,
) -> Toi {
    toi_circles(
        center_a,
        displacement_a,
        radius_a,
        center_b,
        displacement_b,
        radius_b,
        options,
    )
}

/// What a hit needs besides its time: where A is and how big the scene is.
struct HitFrame {
    center_a: Point,
    displacement_a: Vector,
    radius_a: f64,
    radius_sum: f64,
    /// Size of the terms the offset is computed from, for judging its rounding.
    scale: f64,
    /// Offset of B from A at the start: the direction of approach if the centres coincide.
    approach: Vector,
}

impl HitFrame {
    #[inline(always)]
    fn hit(&self, t: f64, offset: Vector, gap: f64) -> Toi {
        // At a hit |offset| = gap up to rounding: dividing by it saves a square root, unless
        // the gap is tiny next to the rounding of the offset's terms (zero radii, subnormal
        // targets): then normalise, and if the centres coincide use the approach direction.
        let normal = if gap > GAP_NORMALISES_RELATIVE * self.scale {
            offset * (1.0 / gap)
        } else {
            offset
                .try_normalize(0.0)
                .or_else(|| self.approach.try_normalize(0.0))
                .unwrap_or_else(|| Vector::new(1.0, 0.0))
        };
        let point = self.center_a
            + self.displacement_a * t
            + normal * (self.radius_a + 0.5 * (gap - self.radius_sum));
        // Offsets and displacements whose squares pass the range of `f64` (the scene fuzzer's
        // discs thrown at 1e166 units/s by a disc of radius 3e54) turn the quadratic into
        // NaN: no time can be trusted, and the answer that moves no one too far is none.
        if !(t.is_finite() && is_finite(&normal) && is_finite(&point.coords)) {
            return Toi::NotConverged { safe_fraction: 0.0 };
        }
        Toi::Hit(Hit {
            fraction: t,
            point,
            normal,
        })
    }
}

fn is_finite(v: &Vector) -> bool {
    v.x.is_finite() && v.y.is_finite()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toi::testing::*;

    fn circle(r: f64) -> Circle {
        Circle::new(r).unwrap()
    }

    #[test]
    fn seed_000_moving_circle_against_resting_circle() {
        // Centres 5 apart, radii sum 2: the gap of 3 closes at 10 per step.
        let toi = toi_circle_circle(
            &circle(1.0),
            &moving(0.0, 0.0, 0.0, 10.0, 0.0),
            &circle(1.0),
            &resting(5.0, 0.0, 0.0),
            &exact(),
        );
        let hit = expect_hit(toi.unwrap());
        assert_close(hit.fraction, 0.3);
        assert_vec(hit.normal, Vector::new(1.0, 0.0));
        assert_vec(hit.point.coords, Vector::new(4.0, 0.0));
    }

    #[test]
    fn both_moving_head_on() {
        // Gap 7 closes at 4 + 4 per step.
        let hit = expect_hit(
            toi_circle_circle(
                &circle(1.0),
                &moving(0.0, 0.0, 0.0, 4.0, 0.0),
                &circle(1.0),
                &moving(9.0, 0.0, 0.0, -4.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 7.0 / 8.0);
        assert_vec(hit.point.coords, Vector::new(4.5, 0.0));
    }

    #[test]
    fn offset_path_hits_at_an_angle() {
        // (4 - 8t)^2 + 0.6^2 = 1 at t = 0.4, with the centres along (0.8, 0.6).
        let hit = expect_hit(
            toi_circle_circle(
                &circle(0.5),
                &resting(0.0, 0.0, 0.0),
                &circle(0.5),
                &moving(4.0, 0.6, 0.0, -8.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.4);
        assert_vec(hit.normal, Vector::new(0.8, 0.6));
    }

    #[test]
    fn target_separation_stops_early() {
        let hit = expect_hit(
            toi_circle_circle(
                &circle(1.0),
                &moving(0.0, 0.0, 0.0, 10.0, 0.0),
                &circle(1.0),
                &resting(5.0, 0.0, 0.0),
                &with_target(0.1),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.29);
        // Midway between the surfaces, which are 0.1 apart.
        assert_vec(hit.point.coords, Vector::new(3.9 + 0.05, 0.0));
    }

    #[test]
    fn start_states() {
        let (a, b) = (circle(1.0), circle(1.0));
        let opts = exact();
        let touching_leaving = toi_circle_circle(
            &a,
            &moving(0.0, 0.0, 0.0, -1.0, 0.0),
            &b,
            &resting(2.0, 0.0, 0.0),
            &opts,
        );
        assert_eq!(touching_leaving, Ok(Toi::Separated));
        let touching_sliding = toi_circle_circle(
            &a,
            &moving(0.0, 0.0, 0.0, 0.0, 3.0),
            &b,
            &resting(2.0, 0.0, 0.0),
            &opts,
        );
        assert_eq!(touching_sliding, Ok(Toi::Separated));
        let touching_closing = expect_hit(
            toi_circle_circle(
                &a,
                &moving(0.0, 0.0, 0.0, 1.0, 0.0),
                &b,
                &resting(2.0, 0.0, 0.0),
                &opts,
            )
            .unwrap(),
        );
        assert_eq!(touching_closing.fraction, 0.0);
        let overlapping = toi_circle_circle(
            &a,
            &resting(0.0, 0.0, 0.0),
            &b,
            &resting(1.5, 0.0, 0.0),
            &opts,
        );
        assert_eq!(overlapping, Ok(Toi::Overlapping));
        let parallel = toi_circle_circle(
            &a,
            &moving(0.0, 0.0, 0.0, 5.0, 0.0),
            &b,
            &moving(3.0, 0.0, 0.0, 5.0, 0.0),
            &opts,
        );
        assert_eq!(parallel, Ok(Toi::Separated));
        let too_far = toi_circle_circle(
            &a,
            &moving(0.0, 0.0, 0.0, 1.0, 0.0),
            &b,
            &resting(5.0, 0.0, 0.0),
            &opts,
        );
        assert_eq!(too_far, Ok(Toi::Separated));
    }

    #[test]
    fn zero_radii_points_meet_only_head_on() {
        let p = circle(0.0);
        let hit = expect_hit(
            toi_circle_circle(
                &p,
                &moving(0.0, 0.0, 0.0, 2.0, 0.0),
                &p,
                &resting(1.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.5);
        let miss = toi_circle_circle(
            &p,
            &moving(0.0, 0.0, 0.0, 2.0, 0.0),
            &p,
            &resting(1.0, 1e-9, 0.0),
            &exact(),
        );
        assert_eq!(miss, Ok(Toi::Separated));
    }

    #[test]
    fn a_disc_spinning_about_its_centre_keeps_the_closed_form() {
        let spinning = Sweep::new(
            impact_geometry::Isometry::identity(),
            impact_geometry::Point::origin(),
            Vector::new(10.0, 0.0),
            300.0,
            1.0,
        )
        .unwrap();
        let hit = expect_hit(
            toi_circle_circle(
                &circle(1.0),
                &spinning,
                &circle(1.0),
                &resting(5.0, 0.0, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert_close(hit.fraction, 0.3);
        let off_centre = Sweep::new(
            impact_geometry::Isometry::identity(),
            impact_geometry::Point::new(0.5, 0.0),
            Vector::new(10.0, 0.0),
            300.0,
            1.0,
        )
        .unwrap();
        assert_eq!(
            toi_circle_circle(
                &circle(1.0),
                &off_centre,
                &circle(1.0),
                &resting(5.0, 0.0, 0.0),
                &exact()
            ),
            Err(NoClosedForm)
        );
    }

    #[test]
    fn far_from_the_origin_and_tiny() {
        // Same scene scaled by 1e-3 and moved 1e4 units away: same fraction.
        let k = 1e-3;
        let far = 1e4;
        let hit = expect_hit(
            toi_circle_circle(
                &circle(k),
                &moving(far, far, 0.0, 10.0 * k, 0.0),
                &circle(k),
                &resting(far + 5.0 * k, far, 0.0),
                &exact(),
            )
            .unwrap(),
        );
        assert!((hit.fraction - 0.3).abs() < 1e-9);
    }

    #[test]
    fn discs_past_the_range_of_squares_give_no_nan() {
        // From the scene fuzzer: discs thrown at 1e166 units/s from 1e145 units away, whose
        // squares overflow. The answer is no time at all rather than a NaN one.
        let toi = toi_circles(
            Point::new(-4.1e144, -1.55e145),
            Vector::new(-4.1e144, -1.55e145),
            4.05,
            Point::new(-2.4e42, -5.0),
            Vector::new(-1.59e166, -4.2e124),
            0.3,
            &exact(),
        );
        match toi {
            Toi::Hit(hit) => panic!("a hit from overflowed numbers: {hit:?}"),
            Toi::NotConverged { safe_fraction } => assert_eq!(safe_fraction, 0.0),
            Toi::Separated | Toi::Overlapping => {}
        }
    }
}
