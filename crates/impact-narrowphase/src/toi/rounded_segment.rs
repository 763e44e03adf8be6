//! The closed form circle–segment and circle–capsule share: a circle (a point core with a
//! radius) against a rounded segment (a segment core with a radius), both translating.
//!
//! Seen from the circle's centre, the obstacle is the segment rounded by both radii plus the
//! target separation: a capsule. The centre enters it through the side it faces (a line
//! crossing, as in Colp's ECSE write-up) or through the cap about an end point (a circle root,
//! as in the circles article), so the answer needs one dot product, a division and at most one
//! square root, where the general cast of two cores (see [`super::linear`]) builds their
//! Minkowski difference first. It follows the general cast's rules case for case (overlap,
//! touching within the tolerance, sliding, the slack beside a side), and the tests hold the two
//! to the same answers.

use super::linear::LinearBody;
use crate::minkowski::{is_point_like, rounding_at, vertex_entry};
use crate::options::ToiOptions;
use crate::toi_result::{Hit, Toi};
use impact_geometry::tolerances::FACE_END_SLACK_RELATIVE;
use impact_geometry::{Real, Vector};

/// The time of impact of the circle `a` (one core point) and the rounded segment `b` (two
/// core points); `None` for a segment so short that it is a point (the general cast takes
/// those, as every query sees them as points).
#[inline]
pub(crate) fn cast_circle_rounded_segment(
    a: &LinearBody<'_>,
    b: &LinearBody<'_>,
    options: &ToiOptions,
) -> Option<Toi> {
    debug_assert!(a.core.len() == 1 && b.core.len() == 2);
    let origin = a.start.translation.vector;
    let center = a.start * a.core[0];
    // The segment's end points from the disc's centre: the scene's far-away coordinates
    // cancel here, once.
    let w0 = b.start * b.core[0] - center;
    let w1 = b.start * b.core[1] - center;
    // As the general cast decides, from the core points relative to A's pose.
    let shift = center.coords - origin;
    if is_point_like(-(w0 + shift), -(w1 + shift), &origin) {
        return None;
    }
    // The segment's motion relative to the disc.
    let d = b.displacement - a.displacement;
    let radius_sum = a.radius + b.radius;
    let rho = radius_sum + options.target_separation();
    let tolerance = options.tolerance();
    let e = w1 - w0;
    let length2 = e.norm_squared();
    let length = length2.sqrt();
    let hit = |t: Real, normal: Vector, distance: Real| {
        let midway = a.radius + 0.5 * (distance - radius_sum);
        Toi::Hit(Hit {
            fraction: t,
            point: center + a.displacement * t + normal * midway,
            normal,
        })
    };

    // Where the segment is now: its closest point to the centre.
    let u = (-w0.dot(&e) / length2).clamp(0.0, 1.0);
    let closest = w0 + e * u;
    let distance = closest.norm();
    if distance < radius_sum - tolerance {
        return Some(Toi::Overlapping);
    }
    if distance <= rho + tolerance {
        // Touching. Distance is convex in time under translation: if it does not fall now it
        // never will, so a pair that slides or parts is apart, and closing by less than the
        // tolerance over the whole step counts as sliding. At a distance of rounding size
        // the normal is noise: a segment has no interior to enter, so it is apart too.
        let rounding = rounding_at(w0.amax().max(w1.amax()));
        if distance <= rounding {
            return Some(Toi::Separated);
        }
        let normal = closest / distance;
        return Some(if normal.dot(&d) < -tolerance {
            hit(0.0, normal, distance)
        } else {
            Toi::Separated
        });
    }

    // Apart: the side the centre faces, at `h` from it along `n` (toward the segment).
    let mut n = Vector::new(e.y, -e.x) / length;
    let mut h = n.dot(&w0);
    if h < 0.0 {
        (n, h) = (-n, -h);
    }
    let end = if h > rho {
        let closing = n.dot(&d);
        if closing >= 0.0 {
            return Some(Toi::Separated);
        }
        let t = (rho - h) / closing;
        if t > options.max_fraction() {
            return Some(Toi::Separated);
        }
        // Where along the side the centre crosses into it, up to the general cast's slack of
        // 1e-9 of the obstacle's size (an entry that far past an end is rho from the segment
        // to within (1e-9 size)^2 / rho).
        let along = -(w0 + d * t).dot(&e) / length;
        let slack = FACE_END_SLACK_RELATIVE * w0.amax().max(w1.amax());
        if (-slack..=length + slack).contains(&along) {
            return Some(hit(t, n, rho));
        }
        if along < 0.0 { w0 } else { w1 }
    } else {
        // Beside the segment's line but beyond an end: only that end's cap can be reached.
        if u < 0.5 { w0 } else { w1 }
    };
    Some(match vertex_entry(&-end, rho, &d, options.max_fraction()) {
        Some((t, normal)) => hit(t, normal, rho),
        None => Toi::Separated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toi::linear::cast_with_obstacle;
    use impact_geometry::{Isometry, Point, Sweep};
    use impact_testkit::SplitMix64;

    /// The same answer, up to the rounding of positions of size `scale` (both casts subtract
    /// them once) over a relative motion `speed` long and a rounded radius `rho`.
    fn agree(fast: Toi, exact: Toi, (scale, speed, rho): (Real, Real, Real), case: &str) {
        let rounding = 64.0 * Real::EPSILON * scale;
        match (fast, exact) {
            (Toi::Hit(f), Toi::Hit(e)) => {
                let fraction = 1e-12 * e.fraction.max(1e-3) + rounding / speed.max(1e-9);
                assert!(
                    (f.fraction - e.fraction).abs() <= fraction,
                    "{case}: {f:?} vs {e:?}"
                );
                let normal = 1e-9 + rounding / rho;
                assert!(
                    (f.normal - e.normal).norm() <= normal,
                    "{case}: {f:?} vs {e:?}"
                );
                let point = 1e-9 + 4.0 * rounding;
                assert!(
                    (f.point - e.point).norm() <= point,
                    "{case}: {f:?} vs {e:?}"
                );
            }
            (f, e) => assert_eq!(f, e, "{case}"),
        }
    }

    /// Every case the general cast distinguishes, on random discs and rounded segments: the
    /// closed form gives its answer. Starts are drawn at random and at set distances from the
    /// segment (overlapping, touching within the tolerance, just beyond it), motions toward
    /// the side, the caps, along the segment and away.
    #[test]
    fn the_closed_form_agrees_with_the_general_cast() {
        let mut rng = SplitMix64::new(20_261_122);
        let options = ToiOptions::default();
        let (target, tolerance) = (options.target_separation(), options.tolerance());
        let mut kinds = [0usize; 4];
        for i in 0..40_000 {
            let radius_a = rng.range(0.01, 1.0);
            let radius_b = if i % 2 == 0 {
                0.0
            } else {
                rng.range(0.01, 0.5)
            };
            let half = rng.range(0.05, 3.0);
            let angle = rng.range(-3.2, 3.2);
            // Far from the world origin now and then: the cancellation happens once.
            let far = if i % 5 == 0 {
                rng.range(-1e4, 1e4)
            } else {
                0.0
            };
            let segment_pose = Isometry::new(Vector::new(far + rng.range(-1.0, 1.0), far), angle);
            let core_b = [Point::new(-half, 0.0), Point::new(half, 0.0)];
            // The disc's centre: at a drawn distance from the segment, or anywhere.
            let rho = radius_a + radius_b + target;
            let gap = match i % 6 {
                0 => rng.range(-0.5, 0.0) * radius_a,
                1 => rng.range(-tolerance, tolerance),
                2 => tolerance * rng.range(1.0, 3.0),
                _ => rng.range(0.0, 4.0),
            };
            let along = rng.range(-1.5, 1.5) * half;
            let local = if along.abs() <= half {
                Point::new(
                    along,
                    (rho + gap) * if rng.range(0.0, 1.0) < 0.5 { -1.0 } else { 1.0 },
                )
            } else {
                let end = Point::new(half * along.signum(), 0.0);
                let direction = rng.range(-3.2, 3.2);
                end + Vector::new(direction.cos(), direction.sin()) * (rho + gap)
            };
            let center = segment_pose * local;
            let core_a = [Point::new(rng.range(-0.2, 0.2), rng.range(-0.2, 0.2))];
            let disc_pose = Isometry::new(center.coords - core_a[0].coords, 0.0);
            let motion = |rng: &mut SplitMix64| match i % 4 {
                0 => (segment_pose * Point::origin() - center) * rng.range(0.0, 3.0),
                1 => segment_pose.rotation * Vector::new(rng.range(-4.0, 4.0), 0.0),
                _ => Vector::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0)),
            };
            let sweep_a = Sweep::translating(disc_pose, motion(&mut rng)).unwrap();
            let sweep_b = Sweep::translating(
                segment_pose,
                Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
            )
            .unwrap();
            let a = LinearBody::new(&core_a, radius_a, &sweep_a).unwrap();
            let b = LinearBody::new(&core_b, radius_b, &sweep_b).unwrap();
            let fast = cast_circle_rounded_segment(&a, &b, &options).expect("not a point");
            let exact = cast_with_obstacle(&a, &b, &options);
            kinds[match exact {
                Toi::Hit(h) if h.fraction == 0.0 => 0,
                Toi::Hit(_) => 1,
                Toi::Overlapping => 2,
                _ => 3,
            }] += 1;
            let speed = (sweep_b.displacement() - sweep_a.displacement()).norm();
            agree(
                fast,
                exact,
                (far.abs() + 10.0, speed, rho),
                &format!("case {i}"),
            );
        }
        // Every kind of answer came up often.
        assert!(kinds.iter().all(|&k| k > 1_000), "{kinds:?}");
    }

    #[test]
    fn a_segment_too_short_for_its_direction_is_left_to_the_general_cast() {
        let core_a = [Point::origin()];
        let core_b = [Point::new(5.0, 0.0), Point::new(5.0, 1e-12)];
        let still = Sweep::stationary(Isometry::identity()).unwrap();
        let moving = Sweep::translating(Isometry::identity(), Vector::new(10.0, 0.0)).unwrap();
        let a = LinearBody::new(&core_a, 0.5, &moving).unwrap();
        let b = LinearBody::new(&core_b, 0.0, &still).unwrap();
        assert!(cast_circle_rounded_segment(&a, &b, &ToiOptions::default()).is_none());
    }
}
