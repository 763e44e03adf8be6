//! Reference checks for time-of-impact answers: a dense-sampling oracle and seeded generators
//! of rotating sweeps.
//!
//! The oracle shares nothing with conservative advancement but the exact distance function:
//! it samples the distance at evenly spaced times, and bisects the first interval that ends
//! within the target. It can miss a contact shorter than its sampling interval, never invent
//! one, so "the method reports no contact where the oracle finds one" is a true miss.
//!
//! [`judge`] and [`Case::audit`] take a method's answer as anything that converts into an
//! [`Answer`] (a [`Toi`] does) and its options as anything that converts into a [`Band`] (a
//! [`ToiOptions`] does). The narrowphase's own unit tests are built as a second copy of that
//! crate, whose `Toi` is a type of its own; they hand it over through the same conversions.

use crate::SplitMix64;
use impact_geometry::{
    Capsule, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Sweep, Vector,
};
use impact_narrowphase::{Toi, ToiOptions, distance};

/// A time-of-impact answer as the oracle reads it: the kind of answer and its fraction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Answer {
    /// A hit at this fraction.
    Hit(Real),
    /// Overlapping at the start.
    Overlapping,
    /// No contact over the interval.
    Separated,
    /// An iterative method gave up; safe up to this fraction.
    NotConverged(Real),
}

impl From<&Toi> for Answer {
    fn from(toi: &Toi) -> Self {
        match *toi {
            Toi::Hit(hit) => Self::Hit(hit.fraction),
            Toi::Overlapping => Self::Overlapping,
            Toi::Separated => Self::Separated,
            Toi::NotConverged { safe_fraction } => Self::NotConverged(safe_fraction),
        }
    }
}

/// Where a hit may lie, from a method's options: within `target + tolerance` of contact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Band {
    /// The target separation.
    pub target: Real,
    /// The tolerance about it.
    pub tolerance: Real,
}

impl From<&ToiOptions> for Band {
    fn from(options: &ToiOptions) -> Self {
        Self {
            target: options.target_separation(),
            tolerance: options.tolerance(),
        }
    }
}

/// The first time the oracle sees the shapes within `target` (distance sampled at `samples + 1`
/// evenly spaced fractions of `[0, max_fraction]`, the first crossing bisected to 1e-12), or
/// `None` if no sample is within `target`.
pub fn first_contact_by_sampling(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    target: Real,
    max_fraction: Real,
    samples: usize,
) -> Option<Real> {
    first_contact_of(
        |t| distance(a, &sweep_a.pose_at(t), b, &sweep_b.pose_at(t)).distance,
        target,
        max_fraction,
        samples,
    )
}

/// [`first_contact_by_sampling`] for any gap function of the fraction (for motions that are
/// not a [`Sweep`], such as another library's interpolation).
pub fn first_contact_of(
    gap: impl Fn(Real) -> Real,
    target: Real,
    max_fraction: Real,
    samples: usize,
) -> Option<Real> {
    let mut before = 0.0;
    for i in 0..=samples {
        let t = max_fraction * i as Real / samples as Real;
        if gap(t) <= target {
            if i == 0 {
                return Some(0.0);
            }
            let (mut lo, mut hi) = (before, t);
            while hi - lo > 1e-12 {
                let mid = 0.5 * (lo + hi);
                if gap(mid) <= target {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return Some(hi);
        }
        before = t;
    }
    None
}

/// How a method's answer compares with the oracle's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    /// Both found the same contact (the method no later than the oracle), or neither did.
    Agree,
    /// The oracle found contact at `oracle`, the method reported none.
    Missed {
        /// The oracle's first contact.
        oracle: Real,
    },
    /// The method reported a contact after the oracle's first contact.
    Late {
        /// The method's fraction.
        reported: Real,
        /// The oracle's first contact.
        oracle: Real,
    },
    /// The method reported a contact where the shapes are farther apart than the target plus
    /// the tolerance (a false positive: harmless for safety, costly for a stepper).
    Spurious {
        /// The method's fraction.
        reported: Real,
        /// The distance there.
        distance: Real,
    },
    /// The method gave up (not converged) before the oracle's contact; not a miss, its safe
    /// fraction is still safe.
    GaveUp,
}

/// Compares `toi`, a method's answer (a `&`[`Toi`]), with the oracle answer `oracle` for the
/// given case, the method run with `options` (a `&`[`ToiOptions`]). A hit may be up to 1e-9
/// later than the oracle's (the oracle bisects to 1e-12).
pub fn judge(
    toi: impl Into<Answer>,
    oracle: Option<Real>,
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: impl Into<Band>,
) -> Verdict {
    let slack = 1e-9;
    let band = options.into();
    match (toi.into(), oracle) {
        (Answer::Hit(fraction), Some(o)) if fraction > o + slack => Verdict::Late {
            reported: fraction,
            oracle: o,
        },
        (Answer::Hit(fraction), _) => {
            let d = distance(a, &sweep_a.pose_at(fraction), b, &sweep_b.pose_at(fraction));
            let scale = 1e-9 * (1.0 + sweep_a.start().translation.vector.norm());
            if fraction > 0.0 && d.distance > band.target + band.tolerance + scale {
                Verdict::Spurious {
                    reported: fraction,
                    distance: d.distance,
                }
            } else {
                Verdict::Agree
            }
        }
        (Answer::Separated, Some(o)) => Verdict::Missed { oracle: o },
        (Answer::NotConverged(safe_fraction), Some(o)) if safe_fraction > o + slack => {
            Verdict::Late {
                reported: safe_fraction,
                oracle: o,
            }
        }
        (Answer::NotConverged(_), _) => Verdict::GaveUp,
        _ => Verdict::Agree,
    }
}

/// One two-body time-of-impact case.
#[derive(Debug, Clone)]
pub struct Case {
    /// Shape A.
    pub a: Shape,
    /// A's motion.
    pub sweep_a: Sweep,
    /// Shape B.
    pub b: Shape,
    /// B's motion.
    pub sweep_b: Sweep,
}

impl Case {
    /// The oracle's first contact for this case over the whole step
    /// ([`first_contact_by_sampling`] at `options`' target with `samples` samples), and how
    /// `toi`, a method's answer for it, compares ([`judge`]).
    pub fn audit(
        &self,
        toi: impl Into<Answer>,
        options: impl Into<Band>,
        samples: usize,
    ) -> (Option<Real>, Verdict) {
        let (a, sa, b, sb) = (&self.a, &self.sweep_a, &self.b, &self.sweep_b);
        let band = options.into();
        let oracle = first_contact_by_sampling(a, sa, b, sb, band.target, 1.0, samples);
        (oracle, judge(toi, oracle, a, sa, b, sb, band))
    }
}

/// A random shape of size about 0.05 to 2, including skinny boxes (aspect up to 40:1).
pub fn random_shape(rng: &mut SplitMix64) -> Shape {
    let p = |rng: &mut SplitMix64| Point::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
    match rng.below(5) {
        0 => Circle::new(rng.range(0.05, 1.0))
            .expect("valid radius")
            .into(),
        1 => Segment::new(p(rng), p(rng)).expect("finite").into(),
        2 => Capsule::new(p(rng), p(rng), rng.range(0.02, 0.5))
            .expect("valid capsule")
            .into(),
        3 => ConvexPolygon::rectangle(rng.range(0.05, 2.0), rng.range(0.05, 2.0))
            .expect("positive sizes")
            .into(),
        _ => ConvexPolygon::regular(3 + rng.below(6), rng.range(0.1, 1.5))
            .expect("valid polygon")
            .into(),
    }
}

/// A random rounded polygon of size about 0.05 to 2: a box (up to 40:1), a regular polygon
/// or the hull of a few points, rounded by a radius from 0.005 to 0.5 (sometimes larger than
/// its core is thick).
pub fn random_rounded_polygon(rng: &mut SplitMix64) -> Shape {
    let core = match rng.below(3) {
        0 => ConvexPolygon::rectangle(rng.range(0.05, 2.0), rng.range(0.05, 2.0))
            .expect("positive sizes"),
        1 => ConvexPolygon::regular(3 + rng.below(6), rng.range(0.1, 1.5)).expect("valid polygon"),
        _ => {
            let points: Vec<Point> = (0..3 + rng.below(6))
                .map(|_| Point::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)))
                .collect();
            ConvexPolygon::from_convex_hull(&points)
                .unwrap_or_else(|_| ConvexPolygon::regular(5, 0.7).expect("valid polygon"))
        }
    };
    let radius = if rng.below(2) == 0 {
        rng.range(0.005, 0.05)
    } else {
        rng.range(0.05, 0.5)
    };
    core.with_radius(radius).expect("valid radius").into()
}

/// A random case where both bodies translate and rotate, often by more than 45 degrees and up
/// to two turns per step, with B thrown toward A so that about half the cases hit. The centre
/// of mass is the shape's centroid (what a body would have).
pub fn random_rotating_case(rng: &mut SplitMix64) -> Case {
    let a = random_shape(rng);
    let b = random_shape(rng);
    rotating_case_with(a, b, rng)
}

/// The motion of [`random_rotating_case`] (same draws, in the same order) for given shapes, so
/// benchmarks can pick the shapes and keep the kinematics.
pub fn rotating_case_with(a: Shape, b: Shape, rng: &mut SplitMix64) -> Case {
    let center = |s: &Shape| {
        s.mass_properties(1.0)
            .map(|m| m.local_center)
            .unwrap_or_else(|_| Point::origin())
    };
    let turn = |rng: &mut SplitMix64| {
        if rng.below(10) < 7 {
            rng.range(-4.0 * core::f64::consts::PI, 4.0 * core::f64::consts::PI)
        } else {
            rng.range(-0.3, 0.3)
        }
    };
    let pos_a = Vector::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
    let dir = rng.range(-core::f64::consts::PI, core::f64::consts::PI);
    let pos_b = pos_a + Vector::new(dir.cos(), dir.sin()) * rng.range(2.5, 7.0);
    let aim = Vector::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5));
    let disp_b = (pos_a + aim - pos_b) * rng.range(0.0, 2.0);
    let disp_a = Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
    let sweep = |shape: &Shape, pos: Vector, rng: &mut SplitMix64, disp: Vector| {
        let angle = rng.range(-3.2, 3.2);
        let c = center(shape);
        let pose = Isometry::new(pos, angle);
        let pose = Isometry::new(pos - (pose.rotation * c.coords), angle);
        Sweep::new(pose, c, disp, turn(rng), 1.0).expect("finite sweep")
    };
    let sweep_a = sweep(&a, pos_a, rng, disp_a);
    let sweep_b = sweep(&b, pos_b, rng, disp_b);
    Case {
        a,
        sweep_a,
        b,
        sweep_b,
    }
}

/// A random shape thrown, turning, at ground: a segment that does not move, 0.5 to 20 long at
/// any angle, sometimes in A's way and sometimes so that A passes beside one of its ends or
/// grazes it, A turning as in [`random_rotating_case`] (often by more than 45 degrees, up to
/// two turns per step). A is the mover and B the ground; swap them for the other order.
pub fn random_ground_case(rng: &mut SplitMix64) -> Case {
    let a = random_shape(rng);
    ground_case_with(a, rng)
}

/// The ground and the throw of [`random_ground_case`] (same draws, in the same order) for a
/// given shape `a`.
pub fn ground_case_with(a: Shape, rng: &mut SplitMix64) -> Case {
    let length = if rng.below(2) == 0 {
        rng.range(0.5, 3.0)
    } else {
        rng.range(3.0, 20.0)
    };
    let angle = rng.range(-core::f64::consts::PI, core::f64::consts::PI);
    let along = Vector::new(angle.cos(), angle.sin());
    let middle = Point::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
    let half = along * (0.5 * length);
    let b: Shape = Segment::new(middle - half, middle + half)
        .expect("finite")
        .into();
    // Aimed at a point of the ground's line, up to a little beyond either end.
    let aim = middle + along * (0.5 * length * rng.range(-1.3, 1.3));
    let up = Vector::new(-along.y, along.x) * if rng.below(2) == 0 { 1.0 } else { -1.0 };
    let rise = rng.range(1.0, 6.0);
    let drift = rng.range(-2.0, 2.0);
    let start = aim + up * rise + along * drift;
    let through = rng.range(0.0, 2.0);
    let displacement = (aim - start) * through;
    let center = a
        .mass_properties(1.0)
        .map(|m| m.local_center)
        .unwrap_or_else(|_| Point::origin());
    let turn = if rng.below(10) < 7 {
        rng.range(-4.0 * core::f64::consts::PI, 4.0 * core::f64::consts::PI)
    } else {
        rng.range(-0.3, 0.3)
    };
    let orientation = rng.range(-3.2, 3.2);
    let pose = Isometry::new(start.coords, orientation);
    let pose = Isometry::new(start.coords - pose.rotation * center.coords, orientation);
    Case {
        a,
        sweep_a: Sweep::new(pose, center, displacement, turn, 1.0).expect("finite sweep"),
        b,
        sweep_b: Sweep::stationary(Isometry::identity()).expect("finite sweep"),
    }
}

/// Box2D's "skinny box" case: a 4 x 0.1 box falling at 100 units/s while spinning at
/// 50 rad/s at 60 Hz toward a ground segment, starting at `height` with angle `angle`.
pub fn skinny_box_case(height: Real, angle: Real) -> Case {
    let plank: Shape = ConvexPolygon::rectangle(2.0, 0.05)
        .expect("positive sizes")
        .into();
    let ground: Shape = Segment::new(Point::new(-50.0, 0.0), Point::new(50.0, 0.0))
        .expect("finite")
        .into();
    Case {
        a: plank,
        sweep_a: Sweep::new(
            Isometry::new(Vector::new(0.0, height), angle),
            Point::origin(),
            Vector::new(0.0, -100.0),
            50.0,
            1.0 / 60.0,
        )
        .expect("finite sweep"),
        b: ground,
        sweep_b: Sweep::stationary(Isometry::identity()).expect("finite sweep"),
    }
}
