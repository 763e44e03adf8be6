//! The advance itself: from the start of the window, evaluate the distance, certify a step by
//! the longest of the linear and curved bounds, and repeat until the shapes are within the
//! tolerance of the target (a hit), the window closes (separated), or the iterations run out.
//! A start within the target is classified here: overlapping, approaching (a hit at once), or
//! sliding and parting (followed until the shapes come closer than they started).

use super::bounds::Bounds;
use super::evaluator::{Evaluator, Path};
use super::frame::Frame;
use super::mover::Mover;
use super::window::open;
use crate::distance::distance;
use crate::gjk::GjkOutput;
use crate::options::ToiOptions;
use crate::toi_result::{Hit, Toi};
use impact_geometry::{Isometry, Point, Real, Shape, Sweep, Vector, nalgebra};

/// [`toi_conservative_advancement`](super::toi_conservative_advancement), with the distance
/// evaluated by `path`, from fraction `from`, up to which the shapes are known to stay farther
/// apart than the target (zero: from the start, which is then classified), stopped with
/// [`Toi::Separated`] once the next fraction is past `cutoff` (see
/// [`conservative_advancement_until`](super::conservative_advancement_until)): the steps
/// are those of the window's end, so the fractions visited are the same for any cutoff.
///
/// Out of line, so that its stack frame (the per-query `Frame` among it) is set up only for
/// the queries that reach it, not for the ground queries the segment's line answers alone.
#[inline(never)]
pub(super) fn advance(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    options: &ToiOptions,
    path: Path,
    (from, cutoff): (Real, Real),
) -> Toi {
    let ma = Mover::new(a, sweep_a);
    let mb = Mover::new(b, sweep_b);
    let tolerance = options.tolerance();
    let mut target = options.target_separation();
    let mut convergence = tolerance;
    // A window that opens past the cutoff: every answer would be at its start or later (a
    // start within the target is only classified at 0, never past a cutoff).
    let Some((enter, end, close_start)) =
        open(&ma, &mb, options, (target, tolerance), (from, cutoff))
    else {
        return Toi::Separated;
    };

    let mut t = enter;
    // Not an `Option<Frame>`: moving the frame into one would copy it.
    let mut frame = Frame::new(&ma, &mb);
    let fits = Frame::fits(ma.core, mb.core);
    if fits {
        frame.load(&ma, &mb);
    }
    let mut eval = Evaluator::new(&ma, &mb, fits.then_some(&mut frame), path);
    let mut now = eval.distance_at(&ma, &mb, t);
    if close_start {
        // Built only for the exact rules below, which most starts do without.
        let poses = || (ma.pose_at(t), mb.pose_at(t));
        // GJK is exact for separated cores and cheap; only overlapping cores need the exact
        // signed distance (to classify how deep they are).
        if now.cores_overlap {
            let (pose_a, pose_b) = poses();
            let exact = distance(a, &pose_a, b, &pose_b);
            now.distance = exact.distance;
            now.normal = exact.normal;
            now.point_a = exact.point_a;
            now.point_b = exact.point_b;
        }
        if now.distance < -tolerance {
            return Toi::Overlapping;
        }
        if now.distance <= target + tolerance {
            // The relative motion of the touching points over the step decides, through the
            // same rule as the closed forms (robust when the distance is of rounding size).
            let relative_motion = mb.point_velocity(&now.point_b) - ma.point_velocity(&now.point_a);
            if approaches(&ma, &mb, poses, &now, &relative_motion, tolerance) {
                return hit(0.0, now.point_a, now.point_b, now.normal);
            }
            // Parting or sliding: only a later approach closer than the start by more than the
            // tolerance is an impact (the closed forms allow the same drift while sliding).
            target = now.distance - tolerance;
            convergence = 0.5 * tolerance;
            eval.sliding = true;
        }
    } else if let Some(toi) = arrived(t, &now, target, convergence, &ma, &mb) {
        // Where the bounding circles first meet, a shape that fills its circle (a disc) is
        // already there.
        return toi;
    }

    let bounds = Bounds {
        relative: ma.displacement - mb.displacement,
        spin: ma.rotation_speed() + mb.rotation_speed(),
        half_curvature: 0.5 * (ma.curvature() + mb.curvature()),
        offset: ma.radius + mb.radius + target,
    };
    let mut previous_gap = Real::INFINITY;
    for _ in 1..options.max_iterations() {
        let gap = now.distance - target;
        let mu = bounds.relative.dot(&now.normal) + bounds.spin;
        if mu <= 0.0 {
            return Toi::Separated;
        }
        let linear = gap / mu;
        // The curved bounds only ever lengthen the step: a linear step past the end already
        // proves the shapes stay apart (past the cutoff: apart until after it).
        if t + linear > end || t + linear > cutoff {
            return Toi::Separated;
        }
        let curved = eval.curved_step(
            &ma,
            &mb,
            &now.normal,
            &bounds,
            end - t,
            gap > 0.5 * previous_gap,
        );
        let next = t + linear.max(curved);
        previous_gap = gap;
        if next > end || next > cutoff {
            return Toi::Separated;
        }
        t = next;
        now = eval.distance_at(&ma, &mb, t);
        if let Some(toi) = arrived(t, &now, target, convergence, &ma, &mb) {
            return toi;
        }
    }
    // Out of iterations: safe up to `t`, which may already be the end (apart all along).
    if t >= end {
        Toi::Separated
    } else {
        Toi::NotConverged { safe_fraction: t }
    }
}

/// Whether shapes touching at the start (`now`, their distance there; `poses`, where they
/// are) approach under the relative motion `d` of B's touching point: the rule of the closed
/// forms ([`approaches_from_touch`](crate::distance::approaches_from_touch)). Where the cores are
/// apart by far more than rounding (`CORES_APART` of their reach) that rule is the normal's
/// alone, `normal . d < -tolerance`, and the normal of `now` (GJK's or a face's, exact for
/// separated cores) is the exact distance's to rounding: the Minkowski difference the full
/// rule builds, about a third of a resting pile's queries, is only needed for cores that
/// touch to rounding, where the normal is noise and the difference's edges must decide.
#[inline]
fn approaches(
    a: &Mover<'_>,
    b: &Mover<'_>,
    poses: impl Fn() -> (Isometry, Isometry),
    now: &GjkOutput,
    d: &Vector,
    tolerance: Real,
) -> bool {
    let cores = now.distance + a.radius + b.radius;
    let reach = a.arm + b.arm + (b.start_center - a.start_center).norm();
    if !now.cores_overlap && cores > CORES_APART * reach {
        return now.normal.dot(d) < -tolerance;
    }
    let (pose_a, pose_b) = poses();
    crate::distance::approaches_from_touch(a.shape, &pose_a, b.shape, &pose_b, d, tolerance)
}

/// How far apart, relative to their reach (arms plus the distance of the centres), two cores
/// must be for the normal of their distance to decide whether they approach (see
/// [`approaches`]): the full rule treats a distance under a few dozen ulps of the coordinates
/// (about 1e-14 of them) as touching, and this is a hundred thousand times that.
const CORES_APART: Real = 1e-9;

/// The hit at `t` if the shapes are within `convergence` of the target there.
#[inline(always)]
fn arrived(
    t: Real,
    now: &GjkOutput,
    target: Real,
    convergence: Real,
    a: &Mover<'_>,
    b: &Mover<'_>,
) -> Option<Toi> {
    if now.cores_overlap {
        return Some(overlapping_cores(t, a, b));
    }
    (now.distance - target <= convergence).then(|| hit(t, now.point_a, now.point_b, now.normal))
}

/// The hit at `t` where GJK found the cores touching. Only rounding can bring the cores
/// together before the target is reached; the exact distance still gives a usable normal and
/// point. Kept out of line: it is rare, and inlined it kept `arrived` from being inlined.
#[cold]
#[inline(never)]
fn overlapping_cores(t: Real, a: &Mover<'_>, b: &Mover<'_>) -> Toi {
    let d = distance(a.shape, &a.pose_at(t), b.shape, &b.pose_at(t));
    hit(t, d.point_a, d.point_b, d.normal)
}

fn hit(t: Real, point_a: Point, point_b: Point, normal: Vector) -> Toi {
    Toi::Hit(Hit {
        fraction: t,
        point: nalgebra::center(&point_a, &point_b),
        normal,
    })
}

#[cfg(test)]
mod tests {
    //! The fused path against the generic one: the same question answered with different
    //! rounding, so the same answers to rounding, and neither later than the oracle.

    use super::*;
    use impact_geometry::ConvexPolygon;
    use impact_testkit::SplitMix64;
    use impact_testkit::audit::{
        Verdict, random_rotating_case, rotating_case_with, skinny_box_case,
    };

    /// Both paths on one case: the fused answer, and whether it differs from the generic one
    /// by more than rounding (a different kind of answer, or fractions apart by more than
    /// 1e-9; an iteration's decision can flip on a rounding-size difference, rarely).
    fn both(c: &impact_testkit::audit::Case, options: &ToiOptions) -> (Toi, bool) {
        let fused = advance(
            &c.a,
            &c.sweep_a,
            &c.b,
            &c.sweep_b,
            options,
            Path::Fused,
            (0.0, Real::INFINITY),
        );
        let generic = advance(
            &c.a,
            &c.sweep_a,
            &c.b,
            &c.sweep_b,
            options,
            Path::Generic,
            (0.0, Real::INFINITY),
        );
        let differs = match (fused, generic) {
            (Toi::Hit(f), Toi::Hit(g)) => (f.fraction - g.fraction).abs() > 1e-9,
            (Toi::NotConverged { safe_fraction: f }, Toi::NotConverged { safe_fraction: g }) => {
                (f - g).abs() > 1e-9
            }
            (Toi::Separated, Toi::Separated) | (Toi::Overlapping, Toi::Overlapping) => false,
            _ => true,
        };
        (fused, differs)
    }

    /// Over seeded rotating sweeps of every pair of shape kinds (all of whose cores fit the
    /// fused path) and of boxes, skinny boxes and hexagons, the fused path agrees with the
    /// generic path to rounding and is never later than the dense-sampling oracle. A fused
    /// path that measured a wrong distance would report hits later than the oracle (too long
    /// a distance) or disagree with the generic path (any error larger than rounding).
    #[test]
    fn fused_path_matches_generic_path_and_oracle() {
        let options = ToiOptions::default();
        let mut rng = SplitMix64::new(0xF05E_D0CA);
        let mut shapes = SplitMix64::new(0x5EED_0B0C);
        let mut polygon = |kind: usize| -> Shape {
            match kind {
                0 => ConvexPolygon::rectangle(shapes.range(0.1, 1.0), shapes.range(0.1, 1.0)),
                1 => ConvexPolygon::rectangle(shapes.range(0.5, 2.0), shapes.range(0.025, 0.1)),
                _ => ConvexPolygon::regular(6, shapes.range(0.3, 1.5)),
            }
            .expect("valid polygon")
            .into()
        };
        let n = 3000;
        let (mut fused_cases, mut hits, mut differ) = (0, 0, 0);
        for i in 0..n {
            let c = if i % 2 == 0 {
                random_rotating_case(&mut rng)
            } else {
                let (a, b) = (polygon(i % 3), polygon((i / 3) % 3));
                rotating_case_with(a, b, &mut rng)
            };
            fused_cases += usize::from(Frame::fits(c.a.core(), c.b.core()));
            let (toi, differs) = both(&c, &options);
            differ += usize::from(differs);
            hits += usize::from(matches!(toi, Toi::Hit(_)));
            let (oracle, verdict) = c.audit(&toi, &options, 200);
            assert!(
                matches!(verdict, Verdict::Agree | Verdict::GaveUp),
                "case {i}: {verdict:?}, fused {toi:?}, oracle {oracle:?}\n{c:?}"
            );
        }
        assert_eq!(
            fused_cases, n,
            "every generated pair should take the fused path"
        );
        assert!(
            hits > n / 4,
            "only {hits} hits: the cases no longer exercise contact"
        );
        assert!(
            differ * 1000 <= n,
            "{differ} of {n} answers differ from the generic path by more than rounding"
        );
    }

    /// The shortcut of [`approaches`] for separated cores decides as the full rule does, over
    /// seeded rotating cases of every pair of shape kinds with seeded relative motions, but
    /// where `normal . d` is within rounding of `-tolerance` (the two normals differ by
    /// rounding); and the cases take the shortcut.
    #[test]
    fn approaches_shortcut_agrees_with_the_full_rule() {
        let mut rng = SplitMix64::new(0xA99E_0AC4);
        let tolerance = ToiOptions::default().tolerance();
        let (mut shortcuts, n) = (0, 4000);
        for i in 0..n {
            let c = random_rotating_case(&mut rng);
            let (ma, mb) = (Mover::new(&c.a, &c.sweep_a), Mover::new(&c.b, &c.sweep_b));
            let mut frame = Frame::new(&ma, &mb);
            let fits = Frame::fits(ma.core, mb.core);
            if fits {
                frame.load(&ma, &mb);
            }
            let mut eval = Evaluator::new(&ma, &mb, fits.then_some(&mut frame), Path::Fused);
            let now = eval.distance_at(&ma, &mb, 0.0);
            // Motions about as long as the tolerance, so that both answers are common.
            let d = Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * 4.0 * tolerance;
            let poses = || (ma.pose_at(0.0), mb.pose_at(0.0));
            let fast = approaches(&ma, &mb, poses, &now, &d, tolerance);
            let (pose_a, pose_b) = poses();
            let full =
                crate::distance::approaches_from_touch(&c.a, &pose_a, &c.b, &pose_b, &d, tolerance);
            let cores = now.distance + ma.radius + mb.radius;
            let reach = ma.arm + mb.arm + (mb.start_center - ma.start_center).norm();
            let took = !now.cores_overlap && cores > CORES_APART * reach;
            shortcuts += usize::from(took);
            let near_threshold = (now.normal.dot(&d) + tolerance).abs() <= 1e-9 * d.norm();
            assert!(
                fast == full || near_threshold,
                "case {i}: shortcut {fast}, full rule {full}, {now:?}\n{c:?}"
            );
        }
        assert!(
            shortcuts > n / 2,
            "only {shortcuts} of {n} took the shortcut"
        );
    }

    /// Box2D's spinning plank over ground (a polygon against a long segment), both paths.
    #[test]
    fn fused_path_matches_generic_path_on_skinny_box() {
        let options = ToiOptions::default();
        let mut differ = 0;
        for i in 0..500 {
            let c = skinny_box_case(2.06 + 1.5 * i as Real / 500.0, 0.0148 * i as Real);
            let (toi, differs) = both(&c, &options);
            differ += usize::from(differs);
            let (_, verdict) = c.audit(&toi, &options, 200);
            assert_eq!(verdict, Verdict::Agree, "case {i}: fused {toi:?}\n{c:?}");
        }
        assert!(differ <= 1, "{differ} answers differ from the generic path");
    }
}
