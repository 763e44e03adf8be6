//! Invariants of the closed-form time of impact, for every pair of shape kinds, on seeded
//! random translating scenes, checked against a brute-force distance oracle
//! (`support::core_distance`) that shares no code with the crate:
//! - a hit leaves the shapes at the target separation (within 1e-9 of the scene size), no
//!   earlier time brings them closer than the target, the point lies midway between the
//!   surfaces and moving B along the normal separates them;
//! - a "separated" answer agrees with the exact closest approach over `[0, max_fraction]`;
//! - "overlapping" only when the shapes overlap at the start, and never otherwise;
//! - swapping A and B gives the same fraction and point and the opposite normal;
//! - scaling (1e-3 to 1e3), rotating and translating the scene changes a non-grazing fraction
//!   by at most 1e-9 relative.

mod support;

use impact_geometry::{Real, Vector};
use impact_narrowphase::{Toi, ToiOptions, time_of_impact};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use support::{Kind, Placed, Scene, gap, min_gap, point_gap, scene};

fn config(seed: u64) -> Config {
    Config {
        cases: 2000,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

fn options(scale: Real) -> ToiOptions {
    ToiOptions::for_length_unit(scale).unwrap()
}

/// The length that sets the absolute accuracy we ask for: the extent of the scene, the
/// shapes' own sizes included.
fn scene_length(p: &Placed) -> Real {
    let origin = impact_geometry::Point::origin();
    let extent = (p.sweep_b.start().translation.vector - p.sweep_a.start().translation.vector)
        .norm()
        + p.sweep_a.displacement().norm()
        + p.sweep_b.displacement().norm()
        + p.a.bounding_radius(&origin)
        + p.b.bounding_radius(&origin);
    extent.max(p.scale)
}

fn check_invariants(p: &Placed) -> Result<(), TestCaseError> {
    check_invariants_with(p, options(p.scale))
}

fn check_invariants_with(p: &Placed, opts: ToiOptions) -> Result<(), TestCaseError> {
    let target = opts.target_separation();
    let tol = 1e-9 * scene_length(p);
    let gap_at = |t: Real| gap(&p.a, &p.sweep_a.pose_at(t), &p.b, &p.sweep_b.pose_at(t));
    let toi = time_of_impact(&p.a, &p.sweep_a, &p.b, &p.sweep_b, &opts);
    match toi {
        Toi::Hit(h) => {
            let f = h.fraction;
            prop_assert!((0.0..=opts.max_fraction()).contains(&f), "fraction {f}");
            prop_assert!((h.normal.norm() - 1.0).abs() < 1e-12);
            let g = gap_at(f);
            if f > 0.0 {
                prop_assert!((g - target).abs() <= tol, "gap at hit {g}, target {target}");
                let (earliest, at) = min_gap(p, 0.0, f);
                prop_assert!(
                    earliest >= target - tol,
                    "gap {earliest} at {at} before hit {f}"
                );
            } else {
                // A start within the target plus the tolerance counts as touching: a hit at 0
                // if the motion closes in (random scenes start farther out; aligned ones may
                // start there).
                prop_assert!(
                    g <= target + opts.tolerance() + tol,
                    "hit at 0 but gap {g} > target + tolerance"
                );
            }
            let pose_a = p.sweep_a.pose_at(f);
            let pose_b = p.sweep_b.pose_at(f);
            let to_a = point_gap(&h.point, &p.a, &pose_a);
            let to_b = point_gap(&h.point, &p.b, &pose_b);
            // The oracle measures no depth inside a core: where the shapes overlap at the
            // hit (a start overlapping by less than the tolerance, from the aligned scenes),
            // neither this nor the push below can be judged by it.
            let apart = g > 0.0;
            // Midway. A hit between parallel faces is moved along them to the middle of the
            // stretch they share, and faces within 1e-9 rad count as parallel: the point stays
            // midway from the face whose normal it is, and within a few times the rounding
            // allowance of midway from the other.
            let (off_a, off_b) = ((to_a - 0.5 * g).abs(), (to_b - 0.5 * g).abs());
            prop_assert!(
                !apart || off_a.min(off_b) <= tol && off_a.max(off_b) <= 10.0 * tol,
                "point {to_a} from A and {to_b} from B, gap {g}"
            );
            let push = 1e-6 * scene_length(p);
            let pushed = impact_geometry::Isometry::from_parts(
                (pose_b.translation.vector + h.normal * push).into(),
                pose_b.rotation,
            );
            let g_pushed = gap(&p.a, &pose_a, &p.b, &pushed);
            if apart {
                prop_assert!(g_pushed >= g + 0.5 * push, "normal does not separate");
            }
        }
        Toi::Separated => {
            let g0 = gap_at(0.0);
            let (closest, at) = min_gap(p, 0.0, opts.max_fraction());
            // From a start within the target plus the tolerance, closing in by less than the
            // tolerance is sliding, not an impact.
            let sliding = if g0 <= target + opts.tolerance() {
                opts.tolerance()
            } else {
                0.0
            };
            prop_assert!(
                closest >= target.min(g0) - sliding - tol,
                "separated, but gap {closest} at {at} (start {g0}, target {target})"
            );
        }
        Toi::Overlapping => {
            let g0 = gap_at(0.0);
            prop_assert!(g0 <= tol, "overlapping, but the oracle gap is {g0}");
        }
        Toi::NotConverged { .. } => prop_assert!(false, "closed form did not converge"),
    }
    // Swapping the roles of A and B.
    let swapped = time_of_impact(&p.b, &p.sweep_b, &p.a, &p.sweep_a, &opts);
    match (toi, swapped) {
        (Toi::Hit(h1), Toi::Hit(h2)) => {
            // A fraction is known to the rounding of the positions over the approach speed
            // along the normal: nearly tangential approaches (the aligned scenes' side by
            // side at 2e-9 per step) know it only to 1e-5.
            let approach = (p.sweep_b.displacement() - p.sweep_a.displacement())
                .dot(&h1.normal)
                .abs();
            let placed_at = p.sweep_a.start().translation.vector.amax()
                + p.sweep_b.start().translation.vector.amax();
            let rounding = 1e-14 * (scene_length(p) + placed_at) / approach;
            let df = (h1.fraction - h2.fraction).abs();
            prop_assert!(
                df <= 1e-12 + 1e-9 * h1.fraction + rounding,
                "swap: {h1:?} vs {h2:?}"
            );
            // Opposite normals; but at target separation zero two corners that meet have a
            // whole cone of normals, and either order may pick another of them: then each
            // must separate the shapes (moving B along the other order's normal too).
            let opposite = (h1.normal + h2.normal).norm() <= 1e-6;
            let corners = opts.target_separation() == 0.0 && {
                let (pose_a, pose_b) = (
                    p.sweep_a.pose_at(h1.fraction),
                    p.sweep_b.pose_at(h1.fraction),
                );
                let push = 1e-6 * scene_length(p);
                let pushed = impact_geometry::Isometry::from_parts(
                    (pose_b.translation.vector - h2.normal * push).into(),
                    pose_b.rotation,
                );
                let g = gap(&p.a, &pose_a, &p.b, &pose_b);
                gap(&p.a, &pose_a, &p.b, &pushed) >= g + 0.5 * push
            };
            prop_assert!(opposite || corners, "swap: {h1:?} vs {h2:?}");
            // The point moves with the fraction: by the difference of the two times the
            // relative motion.
            let moved = df * (p.sweep_b.displacement() - p.sweep_a.displacement()).norm();
            prop_assert!(
                (h1.point - h2.point).norm() <= tol + moved,
                "swap: {h1:?} vs {h2:?}"
            );
        }
        // A contact exactly at the end of the step (an aligned scene that stops there) is a
        // rounding tie with the step's end: either order may put it just past. The next
        // step starts touching and takes it then.
        (Toi::Hit(h), Toi::Separated) | (Toi::Separated, Toi::Hit(h))
            if opts.max_fraction() - h.fraction <= 1e-12 => {}
        (x, y) => prop_assert_eq!(
            std::mem::discriminant(&x),
            std::mem::discriminant(&y),
            "swap changed the answer: {:?} vs {:?}",
            x,
            y
        ),
    }
    Ok(())
}

/// Scale, rotation and translation of the whole scene leave a non-grazing fraction unchanged
/// to 1e-9 relative.
fn check_similarity(
    s: &Scene,
    log_k: Real,
    theta: Real,
    shift: (Real, Real),
) -> Result<(), TestCaseError> {
    let base = s.place(1.0, 0.0, Vector::zeros());
    let k = 10f64.powf(log_k);
    let moved = s.place(k, theta, Vector::new(shift.0, shift.1) * k);
    let t0 = time_of_impact(
        &base.a,
        &base.sweep_a,
        &base.b,
        &base.sweep_b,
        &options(1.0),
    );
    let Toi::Hit(h0) = t0 else {
        return Ok(());
    };
    let d = base.sweep_b.displacement() - base.sweep_a.displacement();
    let grazing = h0.normal.dot(&d).abs() < 1e-3 * d.norm();
    let starts_at_target = h0.fraction == 0.0;
    if grazing || starts_at_target {
        return Ok(());
    }
    let t1 = time_of_impact(
        &moved.a,
        &moved.sweep_a,
        &moved.b,
        &moved.sweep_b,
        &options(k),
    );
    let Toi::Hit(h1) = t1 else {
        return Err(TestCaseError::fail(format!(
            "hit {h0:?} at scale 1 became {t1:?} at scale {k}"
        )));
    };
    let df = (h1.fraction - h0.fraction).abs();
    prop_assert!(
        df <= 1e-9 * h0.fraction + 1e-15,
        "fraction {} at scale 1, {} at scale {k} (rel {})",
        h0.fraction,
        h1.fraction,
        df / h0.fraction
    );
    Ok(())
}

macro_rules! pair_properties {
    ($name:ident, $ka:expr, $kb:expr, $seed:expr) => {
        mod $name {
            use super::*;
            proptest! {
                #![proptest_config(config($seed))]
                #[test]
                fn invariants(s in scene($ka, $kb)) {
                    check_invariants(&s.place(1.0, 0.0, Vector::zeros()))?;
                }

                #[test]
                fn invariants_at_other_scales(
                    s in scene($ka, $kb),
                    log_k in -3.0..4.0f64,
                    theta in -3.2..3.2f64,
                ) {
                    let k = 10f64.powf(log_k);
                    check_invariants(&s.place(k, theta, Vector::new(3.0 * k, -7.0 * k)))?;
                }

                #[test]
                fn similarity(
                    s in scene($ka, $kb),
                    log_k in -3.0..3.0f64,
                    theta in -3.2..3.2f64,
                    shift in (-50.0..50.0f64, -50.0..50.0f64),
                ) {
                    check_similarity(&s, log_k, theta, shift)?;
                }
            }
        }
    };
}

pair_properties!(circle_circle, Kind::Circle, Kind::Circle, 1);
pair_properties!(circle_segment, Kind::Circle, Kind::Segment, 2);
pair_properties!(circle_capsule, Kind::Circle, Kind::Capsule, 3);
pair_properties!(circle_polygon, Kind::Circle, Kind::Polygon, 4);
pair_properties!(segment_segment, Kind::Segment, Kind::Segment, 5);
pair_properties!(segment_capsule, Kind::Segment, Kind::Capsule, 6);
pair_properties!(segment_polygon, Kind::Segment, Kind::Polygon, 7);
pair_properties!(capsule_capsule, Kind::Capsule, Kind::Capsule, 8);
pair_properties!(capsule_polygon, Kind::Capsule, Kind::Polygon, 9);
pair_properties!(polygon_polygon, Kind::Polygon, Kind::Polygon, 10);
pair_properties!(polygon_circle, Kind::Polygon, Kind::Circle, 11);
pair_properties!(capsule_segment, Kind::Capsule, Kind::Segment, 12);
pair_properties!(circle_rounded, Kind::Circle, Kind::RoundedPolygon, 13);
pair_properties!(segment_rounded, Kind::Segment, Kind::RoundedPolygon, 14);
pair_properties!(capsule_rounded, Kind::Capsule, Kind::RoundedPolygon, 15);
pair_properties!(polygon_rounded, Kind::Polygon, Kind::RoundedPolygon, 16);
pair_properties!(
    rounded_rounded,
    Kind::RoundedPolygon,
    Kind::RoundedPolygon,
    17
);
pair_properties!(rounded_circle, Kind::RoundedPolygon, Kind::Circle, 18);

/// The generator must exercise every outcome, or the properties above prove little.
#[test]
fn scenes_mix_hits_and_misses() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let kinds = [
        Kind::Circle,
        Kind::Segment,
        Kind::Capsule,
        Kind::Polygon,
        Kind::RoundedPolygon,
    ];
    for (i, &ka) in kinds.iter().enumerate() {
        for &kb in &kinds[i..] {
            let mut runner = TestRunner::new(config(99));
            let strategy = scene(ka, kb);
            let (mut hits, mut at_start, mut separated, mut overlapping) = (0, 0, 0, 0);
            for _ in 0..2000 {
                let s = strategy.new_tree(&mut runner).unwrap().current();
                let p = s.place(1.0, 0.0, Vector::zeros());
                match time_of_impact(&p.a, &p.sweep_a, &p.b, &p.sweep_b, &options(1.0)) {
                    Toi::Hit(h) if h.fraction == 0.0 => at_start += 1,
                    Toi::Hit(_) => hits += 1,
                    Toi::Separated => separated += 1,
                    Toi::Overlapping => overlapping += 1,
                    Toi::NotConverged { .. } => panic!("closed form did not converge"),
                }
            }
            assert!(hits >= 400, "{ka:?}-{kb:?}: only {hits} hits");
            assert!(separated >= 400, "{ka:?}-{kb:?}: only {separated} misses");
            let _ = (at_start, overlapping);
        }
    }
}

/// Two shapes whose features line up exactly in their own frames (`support::Aligned`:
/// corners on corners, flush sides, collinear edges, posts on faces and beside them), B
/// coming at A along the direction the meeting faces (or a little off it), from up to 2
/// units back, far from the origin and turned: the invariants above on the configurations
/// random scenes almost never produce, where the closed forms meet parallel and collinear
/// edges.
fn aligned_scene() -> impl Strategy<Value = Placed> {
    aligned_scene_of(support::aligned())
}

/// [`aligned_scene`] over the meetings `aligned` gives.
fn aligned_scene_of(
    aligned: impl Strategy<Value = support::Aligned>,
) -> impl Strategy<Value = Placed> {
    (
        aligned,
        prop_oneof![Just(0.0), -1e-3..1e-3f64, -1e-9..1e-9f64, 0.0..0.5f64],
        (0.0..2.0f64, prop_oneof![Just(0.0), 0.0..1.0f64]),
        prop_oneof![Just(0.0), -1e-9..1e-9f64, -0.3..0.3f64],
        any::<bool>(),
        (-3.2..3.2f64, -1e3..1e3f64, -1e3..1e3f64),
    )
        .prop_map(
            |(aligned, gap, (back, beyond), wobble, both_move, (angle, x, y))| {
                let (a, b, meeting) = aligned.build(gap);
                let approach = impact_geometry::Rotation::new(wobble) * aligned.approach();
                let world = impact_geometry::Isometry::new(Vector::new(x, y), angle);
                let start_b = world
                    * impact_geometry::Isometry::from_parts(
                        (meeting.translation.vector - approach * back).into(),
                        meeting.rotation,
                    );
                let relative = world.rotation * (approach * (back + beyond));
                let share = if both_move { 0.5 } else { 0.0 };
                Placed {
                    a,
                    b,
                    sweep_a: impact_geometry::Sweep::translating(world, -relative * share).unwrap(),
                    sweep_b: impact_geometry::Sweep::translating(start_b, relative * (1.0 - share))
                        .unwrap(),
                    scale: 1.0,
                }
            },
        )
}

proptest! {
    #![proptest_config(Config { cases: 20_000, ..config(407) })]
    #[test]
    fn aligned_features_keep_the_invariants(p in aligned_scene(), exact in any::<bool>()) {
        // Half the scenes at target separation zero, where the obstacle's corners are sharp
        // and a graze through one is decided to rounding. Left over: a graze of a corner at a
        // distance of rounding while moving along a line within rounding of an edge's (two
        // zero-thickness segments on one line, a box's corner past a thin post's) can be a
        // hit in one argument order and a miss in the other, about once in 150,000 scenes.
        let opts = if exact {
            ToiOptions::exact()
        } else {
            options(p.scale)
        };
        check_invariants_with(&p, opts)?;
    }
}

proptest! {
    #![proptest_config(Config { cases: 10_000, ..config(408) })]
    /// The aligned scenes with rounded boxes and hexagons: their faces flush, their arcs
    /// meeting faces and each other, at target separation zero or the default.
    #[test]
    fn aligned_rounded_polygons_keep_the_invariants(
        p in aligned_scene_of(support::aligned_rounded()),
        exact in any::<bool>(),
    ) {
        let opts = if exact {
            ToiOptions::exact()
        } else {
            options(p.scale)
        };
        check_invariants_with(&p, opts)?;
    }
}

/// A segment (sometimes a point) and its pose, for the disc-against-still-segment check.
fn still_segment() -> impl Strategy<Value = (impact_geometry::Segment, impact_geometry::Isometry)> {
    use impact_geometry::{Isometry, Point, Segment};
    let end = || (-2.0..2.0f64, -2.0..2.0f64).prop_map(|(x, y)| Point::new(x, y));
    (
        end(),
        prop_oneof![3 => end().prop_map(Some), 1 => Just(None)],
        (-3.0..3.0f64, -3.0..3.0f64, -3.2..3.2f64),
    )
        .prop_map(|(a, b, (x, y, angle))| {
            let segment = Segment::new(a, b.unwrap_or(a)).expect("finite ends");
            (segment, Isometry::new(Vector::new(x, y), angle))
        })
}

proptest! {
    #![proptest_config(config(0x0d15_c5e6))]

    /// `toi_circle_still_segment` answers what `toi_circle_segment` does for a disc about its
    /// origin (spinning or not) and a segment that does not move, bit for bit: the stepper
    /// uses one or the other depending on the pair, and both must give the same step.
    #[test]
    fn disc_against_still_segment_is_the_closed_form_bit_for_bit(
        radius in 0.01..1.0f64,
        (x, y, angle) in (-3.0..3.0f64, -3.0..3.0f64, -3.2..3.2f64),
        (vx, vy, w) in (-60.0..60.0f64, -60.0..60.0f64, -50.0..50.0f64),
        (segment, pose) in still_segment(),
        dt in 0.001..0.1f64,
        exact in any::<bool>(),
    ) {
        use impact_geometry::{Circle, Isometry, Point, Sweep};
        use impact_narrowphase::toi::toi_circle_segment;
        use impact_narrowphase::toi_circle_still_segment;
        let opts = if exact { ToiOptions::exact() } else { ToiOptions::default() };
        let disc = Circle::new(radius).expect("positive radius");
        let start = Isometry::new(Vector::new(x, y), angle);
        let sweep = Sweep::new(start, Point::origin(), Vector::new(vx, vy), w, dt).expect("finite");
        let still = Sweep::new(pose, Point::origin(), Vector::zeros(), 0.0, dt).expect("finite");
        let general = toi_circle_segment(&disc, &sweep, &segment, &still, &opts);
        let direct =
            toi_circle_still_segment(radius, &start, sweep.displacement(), &segment, &pose, &opts);
        prop_assert_eq!(general, Ok(direct));
    }
}
