//! The strip of a long body against the other body's circle: a window narrower than the
//! circles'.
//!
//! A plank spinning twice per step sweeps its whole bounding circle, so the circles' window
//! opens long before it can strike: it must first turn to point at the other body. The plank
//! lies in a narrow strip (see [`Strip`]) that turns with it, and the other body lies in its
//! own circle, which does not turn: the shapes can come within the target only when the
//! circle comes within the target of the strip. The strip's centre line is a separating axis
//! that turns with the plank, so the height of the other body's centre over it has the same
//! kind of certified quadratic bound as the turning faces of conservative advancement, and
//! stepping by its root costs one sine and cosine and a few products: a tenth of a distance
//! evaluation.

use super::roots::root;
use impact_geometry::tolerances::ROUNDING_MARGIN_RELATIVE;
use impact_geometry::{Point, Real, Rotation, Strip, Vector, perp, rotation_by, rotations_by};

/// How many steps the strips take before handing over (whatever they proved is kept). Each
/// step is a chain of latencies (a sine and cosine, a square root, a division, then the next
/// angle) the processor cannot overlap, and the steps after the second rarely move the start
/// by enough to pay for it.
const STRIP_STEPS: usize = 2;

/// The strip of one body on its sweep and the circle of the other, relative to it.
pub(super) struct TurningStrip {
    /// The strip's unit normal in world axes at the start.
    normal: Vector,
    /// The strip's centre line along the normal, from the body's centre of mass.
    middle: Real,
    /// How far the other's centre must stay from the centre line: the strip's half width, the
    /// other's bounding radius and the target (widened far beyond rounding).
    reach: Real,
    /// The angle the strip turns over the step.
    turn: Real,
    /// From the body's centre of mass to the other's, at the start and its change over the
    /// step.
    offset: Vector,
    drift: Vector,
}

impl TurningStrip {
    /// The strip of a body (its strip in body axes, its centre of mass in body axes, its
    /// rotation at the start and its turn over the step) against a circle of `radius` about
    /// the other body's centre of mass, which is at `offset` from the body's at the start and
    /// moves by `drift` relative to it over the step; `target` is the separation the query
    /// looks for.
    pub(super) fn new(
        strip: &Strip,
        local_center: &Point,
        rotation: &Rotation,
        turn: Real,
        (offset, drift): (Vector, Vector),
        radius: Real,
        target: Real,
    ) -> Self {
        let reach = strip.half_width + radius + target;
        Self {
            normal: rotation * strip.normal,
            middle: strip.middle - strip.normal.dot(&local_center.coords),
            reach: reach + ROUNDING_MARGIN_RELATIVE * (reach + offset.norm() + drift.norm()),
            turn,
            offset,
            drift,
        }
    }

    /// How far the other's circle is beyond the reach of the strip at fraction `t`, where the
    /// body has turned by `turned` since the start (negative when within it), and how fast
    /// that grows.
    #[inline(always)]
    fn gap_at(&self, turned: &Rotation, t: Real) -> (Real, Real) {
        let normal = turned * self.normal;
        let offset = self.offset + self.drift * t;
        let height = normal.dot(&offset) - self.middle;
        // The normal turns at `turn`: its rate is `turn * perp(normal)`.
        let rate = self.turn * perp(&normal).dot(&offset) + normal.dot(&self.drift);
        if height >= 0.0 {
            (height - self.reach, rate)
        } else {
            (-height - self.reach, -rate)
        }
    }

    /// Half the bound on the gap's second derivative over `[from, end]`.
    ///
    /// The height `h` of the other's centre over the turning centre line has
    /// `h'' = -w^2 n . c + 2 w perp(n) . v` (`n` the normal turning at `w`, `c` the offset
    /// between the centres and `v` its drift), so `|h''| <= w^2 |c| + 2 |w| |v|`, and `|c|`,
    /// linear in `t`, is largest at an end of the interval.
    fn half_curvature(&self, from: Real, end: Real) -> Real {
        let farthest = (self.offset + self.drift * from)
            .norm()
            .max((self.offset + self.drift * end).norm());
        let w = self.turn.abs();
        0.5 * w * (w * farthest + 2.0 * self.drift.norm())
    }

    /// The step certified from fraction `t` (the body turned by `turned`): the first root of
    /// the gap's quadratic lower bound, before which the circle cannot reach the strip; zero
    /// once the circle is within `near` of the strip's reach.
    #[inline(always)]
    fn step(&self, turned: &Rotation, t: Real, half_k: Real, near: Real) -> Real {
        let (gap, rate) = self.gap_at(turned, t);
        if gap <= near {
            return 0.0;
        }
        root(gap, rate, half_k)
    }
}

/// The first fraction in `[from, end]` at which the shapes could come within the target, as
/// far as the strips can tell (`second` is the other body's, if it is long too), or `None` if
/// they cannot before `end`. Stops once the circles are within `near` of both strips' reach.
///
/// Each strip is a necessary condition on its own, so the longer of their certified steps is
/// safe; with two strips both turns are taken in one paired sine and cosine. One strip keeps a
/// loop of its own: one loop for both cases would compute an unused half of the paired call
/// and test an `Option` at every step.
pub(super) fn clear_until(
    first: &TurningStrip,
    second: Option<&TurningStrip>,
    from: Real,
    end: Real,
    near: Real,
) -> Option<Real> {
    let half_k = first.half_curvature(from, end);
    let mut t = from;
    if let Some(second) = second {
        let other_half_k = second.half_curvature(from, end);
        for _ in 0..STRIP_STEPS {
            let [turned, other_turned] = rotations_by([first.turn * t, second.turn * t]);
            let step = first.step(&turned, t, half_k, near).max(second.step(
                &other_turned,
                t,
                other_half_k,
                near,
            ));
            if step == 0.0 {
                return Some(t);
            }
            t += step;
            if t > end {
                return None;
            }
        }
        return Some(t);
    }
    for _ in 0..STRIP_STEPS {
        let step = first.step(&rotation_by(first.turn * t), t, half_k, near);
        if step == 0.0 {
            return Some(t);
        }
        t += step;
        if t > end {
            return None;
        }
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    //! The strip's window against an oracle that samples the centre's height over the turning
    //! centre line densely and bisects to its first entry into the reach.

    use super::*;
    use impact_geometry::{ConvexPolygon, Shape};
    use impact_testkit::SplitMix64;
    use impact_testkit::audit::first_contact_of;

    /// A plank (half length and half width), turned by `angle` at the start and by `turn`
    /// over the step, against a circle of `radius` at `offset` drifting by `drift`.
    struct Setup {
        strip: Strip,
        center: Point,
        angle: Real,
        turn: Real,
        offset: Vector,
        drift: Vector,
        radius: Real,
    }

    impl Setup {
        fn random(rng: &mut SplitMix64) -> Self {
            let plank: Shape = ConvexPolygon::rectangle(rng.range(0.2, 3.0), rng.range(0.01, 0.3))
                .unwrap()
                .into();
            let turn = match rng.below(4) {
                0 => 0.0,
                1 => rng.range(-0.3, 0.3),
                _ => rng.range(-13.0, 13.0),
            };
            let direction = rng.range(-3.2, 3.2);
            let offset = Vector::new(direction.cos(), direction.sin()) * rng.range(0.5, 6.0);
            Self {
                strip: plank.strip().unwrap(),
                center: Point::new(rng.range(-0.2, 0.2), rng.range(-0.05, 0.05)),
                angle: rng.range(-3.2, 3.2),
                turn,
                drift: -offset * rng.range(0.0, 2.0)
                    + Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
                offset,
                radius: rng.range(0.05, 1.5),
            }
        }

        fn strip(&self, target: Real) -> TurningStrip {
            TurningStrip::new(
                &self.strip,
                &self.center,
                &Rotation::new(self.angle),
                self.turn,
                (self.offset, self.drift),
                self.radius,
                target,
            )
        }

        /// How far the circle is from the strip's reach at `t`, computed afresh from the
        /// pose (independently of the step's bookkeeping).
        fn gap(&self, t: Real, target: Real) -> Real {
            let rotation = Rotation::new(self.angle + self.turn * t);
            let normal = rotation * self.strip.normal;
            let middle = self.strip.middle - self.strip.normal.dot(&self.center.coords);
            let height = normal.dot(&(self.offset + self.drift * t)) - middle;
            height.abs() - (self.strip.half_width + self.radius + target)
        }
    }

    #[test]
    fn the_strip_never_opens_after_the_circle_reaches_it() {
        let mut rng = SplitMix64::new(0x5751_0001);
        let (target, end) = (0.005, 1.0);
        let (mut skipped, mut never, mut within) = (0, 0, 0);
        for case in 0..20_000 {
            let setup = Setup::random(&mut rng);
            let from = if rng.below(2) == 0 {
                0.0
            } else {
                rng.range(0.0, 0.5)
            };
            let oracle = first_contact_of(|t| setup.gap(from + t, target), 0.0, end - from, 4_000)
                .map(|t| from + t);
            match (
                clear_until(&setup.strip(target), None, from, end, 0.00125),
                oracle,
            ) {
                (None, Some(o)) => {
                    panic!("case {case}: never, but the circle reaches the strip at {o}")
                }
                (None, None) => never += 1,
                (Some(t), Some(o)) => {
                    assert!(
                        t <= o + 1e-12,
                        "case {case}: clear until {t}, reached at {o}"
                    );
                    if t > from {
                        skipped += 1;
                    }
                    within += 1;
                }
                (Some(t), None) => assert!(t >= from && t <= end, "case {case}: {t}"),
            }
        }
        // The window must also do its job: skip stretches and rule sweeps out.
        assert!(
            skipped > 5_000 && never > 2_000 && within > 5_000,
            "{skipped} {never} {within}"
        );
    }

    #[test]
    fn two_strips_never_open_after_both_circles_reach_them() {
        // Two long bodies: the shapes can meet only where both circles are within reach of
        // the other's strip, so the joint answer must come no later than the first such time.
        let mut rng = SplitMix64::new(0x5751_0003);
        let (target, end) = (0.005, 1.0);
        let (mut skipped, mut never) = (0, 0);
        for case in 0..20_000 {
            let (one, other) = (Setup::random(&mut rng), Setup::random(&mut rng));
            let both = |t: Real| one.gap(t, target).max(other.gap(t, target));
            let oracle = first_contact_of(both, 0.0, end, 4_000);
            let (first, second) = (one.strip(target), other.strip(target));
            match (clear_until(&first, Some(&second), 0.0, end, 0.01), oracle) {
                (None, Some(o)) => panic!("case {case}: never, but both reach their strips at {o}"),
                (None, None) => never += 1,
                (Some(t), Some(o)) => {
                    assert!(
                        t <= o + 1e-12,
                        "case {case}: clear until {t}, both reached at {o}"
                    );
                    skipped += usize::from(t > 0.0);
                }
                (Some(t), None) => assert!((0.0..=end).contains(&t), "case {case}: {t}"),
            }
        }
        assert!(skipped > 5_000 && never > 2_000, "{skipped} {never}");
    }

    #[test]
    fn a_strip_that_does_not_turn_is_answered_in_one_step() {
        // A plank lying along x, a circle of radius 0.5 coming straight down from 3 above:
        // its centre enters the reach (0.1 + 0.5 + 0.005) when it has fallen 2.395 of 4.
        let strip = *ConvexPolygon::rectangle(2.0, 0.1).unwrap().strip();
        let turning = TurningStrip::new(
            &strip,
            &Point::origin(),
            &Rotation::identity(),
            0.0,
            (Vector::new(0.3, 3.0), Vector::new(0.0, -4.0)),
            0.5,
            0.005,
        );
        let t = clear_until(&turning, None, 0.0, 1.0, 0.00125).unwrap();
        assert!((t - 2.395 / 4.0).abs() < 1e-8, "{t}");
        // Moving away: never.
        let away = TurningStrip::new(
            &strip,
            &Point::origin(),
            &Rotation::identity(),
            0.0,
            (Vector::new(0.3, 3.0), Vector::new(0.0, 4.0)),
            0.5,
            0.005,
        );
        assert_eq!(clear_until(&away, None, 0.0, 1.0, 0.00125), None);
    }
}
