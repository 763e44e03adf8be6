//! Hand-computed checks of the point queries (the predictive-collision article's moving
//! particles), exact distance, option validation, the dispatcher, and conservative advancement
//! against the closed forms.

mod support;

use impact_geometry::{
    Capsule, Circle, ConvexPolygon, Isometry, Point, Segment, Shape, Sweep, Vector,
};
use impact_narrowphase::toi::moving_points::{moving_circles, path_crossing};
use impact_narrowphase::{
    NoClosedForm, Toi, ToiMethod, ToiOptions, closed_form_toi, distance, time_of_impact,
    time_of_impact_with, toi_conservative_advancement,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

#[test]
fn seed_004_paths_crossing_and_spheres_meeting() {
    let crossing = path_crossing(p(0.0, 0.0), p(2.0, 2.0), p(0.0, 2.0), p(2.0, 0.0)).unwrap();
    assert_eq!((crossing.t, crossing.s), (0.5, 0.5));
    assert_eq!(crossing.point, p(1.0, 1.0));
    // Same paths, same times: spheres of radius 0.1 meet when |2 - 4t| = 0.2.
    let t = moving_circles(p(0.0, 0.0), p(2.0, 2.0), 0.1, p(0.0, 2.0), p(2.0, 0.0), 0.1).unwrap();
    assert!((t - 0.45).abs() < 1e-15);
    // Paths that cross at different times: the particles pass 0.63 apart at closest.
    assert!(path_crossing(p(0.0, 0.0), p(2.0, 2.0), p(0.0, 2.0), p(4.0, -2.0)).is_some());
    assert_eq!(
        moving_circles(
            p(0.0, 0.0),
            p(2.0, 2.0),
            0.1,
            p(0.0, 2.0),
            p(4.0, -2.0),
            0.1
        ),
        None
    );
    // Parallel paths never cross at a point; paths that stop short do not cross.
    assert_eq!(
        path_crossing(p(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0), p(1.0, 1.0)),
        None
    );
    assert_eq!(
        path_crossing(p(0.0, 0.0), p(0.4, 0.4), p(0.0, 2.0), p(2.0, 0.0)),
        None
    );
    // Already touching spheres meet at 0.
    assert_eq!(
        moving_circles(p(0.0, 0.0), p(1.0, 0.0), 1.0, p(1.5, 0.0), p(3.0, 0.0), 1.0),
        Some(0.0)
    );
}

#[test]
fn exact_distances() {
    let unit: Shape = ConvexPolygon::rectangle(1.0, 1.0).unwrap().into();
    let at = |x: f64, y: f64, a: f64| Isometry::new(Vector::new(x, y), a);
    // Face to face, 3 apart.
    let d = distance(&unit, &at(0.0, 0.0, 0.0), &unit, &at(5.0, 0.5, 0.0));
    assert!((d.distance - 3.0).abs() < 1e-15);
    assert_eq!(d.normal, Vector::new(1.0, 0.0));
    assert!((d.point_a.x - 1.0).abs() < 1e-15 && (d.point_b.x - 4.0).abs() < 1e-15);
    // Corner to corner along the diagonal.
    let d = distance(&unit, &at(0.0, 0.0, 0.0), &unit, &at(3.0, 3.0, 0.0));
    assert!((d.distance - 2f64.sqrt()).abs() < 1e-15);
    // Overlapping by 0.25 along x: negative distance, normal along the shallow axis.
    let d = distance(&unit, &at(0.0, 0.0, 0.0), &unit, &at(1.75, 0.2, 0.0));
    assert!((d.distance + 0.25).abs() < 1e-15);
    assert_eq!(d.normal, Vector::new(1.0, 0.0));
    // Rounded shapes: a capsule above a circle.
    let capsule: Shape = Capsule::along_x(1.0, 0.25).unwrap().into();
    let disc: Shape = Circle::new(0.5).unwrap().into();
    let d = distance(&disc, &at(0.3, 0.0, 0.0), &capsule, &at(0.0, 2.0, 0.0));
    assert!((d.distance - 1.25).abs() < 1e-15);
    assert_eq!(d.normal, Vector::new(0.0, 1.0));
}

#[test]
fn options_name_the_bad_field() {
    let err = ToiOptions::new(1.5, 0.0, 1e-6, 10).unwrap_err();
    assert_eq!(
        err.to_string(),
        "toi_options.max_fraction: must be in [0, 1], got 1.5"
    );
    let err = ToiOptions::default()
        .with_target_separation(f64::NAN)
        .unwrap_err();
    assert_eq!(err.field, "toi_options.target_separation");
    let err = ToiOptions::default().with_tolerance(0.0).unwrap_err();
    assert_eq!(err.field, "toi_options.tolerance");
    let err = ToiOptions::default().with_max_iterations(0).unwrap_err();
    assert_eq!(err.field, "toi_options.max_iterations");
    let err = ToiOptions::for_length_unit(-1.0).unwrap_err();
    assert_eq!(err.field, "toi_options.length_unit");
    assert!(
        ToiOptions::default()
            .with_max_fraction(f64::INFINITY)
            .is_err()
    );
}

#[test]
fn dispatcher_serves_both_orders_and_the_forced_methods() {
    let wall: Shape = Segment::new(p(0.0, -1.0), p(0.0, 1.0)).unwrap().into();
    let block: Shape = ConvexPolygon::rectangle(0.5, 0.5).unwrap().into();
    let still = Sweep::stationary(Isometry::identity()).unwrap();
    let coming =
        Sweep::translating(Isometry::translation(-3.0, 0.0), Vector::new(5.0, 0.0)).unwrap();
    let opts = ToiOptions::exact();
    let forward = time_of_impact(&wall, &still, &block, &coming, &opts);
    let backward = time_of_impact(&block, &coming, &wall, &still, &opts);
    assert_eq!(forward, backward.swapped());
    assert_eq!(forward.hit().unwrap().fraction, 0.5);
    let spinning = Sweep::new(
        Isometry::translation(-3.0, 0.0),
        Point::origin(),
        Vector::new(5.0, 0.0),
        2.0,
        1.0,
    )
    .unwrap();
    assert_eq!(
        closed_form_toi(&wall, &still, &block, &spinning, &opts),
        Err(NoClosedForm)
    );
    assert_eq!(
        time_of_impact_with(
            ToiMethod::ClosedForm,
            &wall,
            &still,
            &block,
            &spinning,
            &opts
        ),
        Err(NoClosedForm)
    );
    let auto = time_of_impact(&wall, &still, &block, &spinning, &opts);
    assert!(matches!(auto, Toi::Hit(h) if h.fraction < 0.5));
    let forced = time_of_impact_with(
        ToiMethod::ConservativeAdvancement,
        &wall,
        &still,
        &block,
        &coming,
        &opts,
    )
    .unwrap();
    let hit = forced.hit().unwrap();
    assert!(hit.fraction <= 0.5 && hit.fraction > 0.5 - 1e-6, "{hit:?}");
}

#[test]
fn conservative_advancement_stops_a_spinning_plank_before_the_floor() {
    // Box2D's skinny box: 4 x 0.1, falling at 100 units/s while spinning at 50 rad/s, 60 Hz.
    let plank: Shape = ConvexPolygon::rectangle(2.0, 0.05).unwrap().into();
    let floor: Shape = Segment::new(p(-50.0, 0.0), p(50.0, 0.0)).unwrap().into();
    let ground = Sweep::stationary(Isometry::identity()).unwrap();
    let opts = ToiOptions::default();
    let mut hits = 0;
    for i in 0..100 {
        let height = 2.1 + 1.2 * (i as f64 / 100.0);
        let sweep = Sweep::new(
            Isometry::new(Vector::new(0.0, height), 0.1 * i as f64),
            Point::origin(),
            Vector::new(0.0, -100.0),
            50.0,
            1.0 / 60.0,
        )
        .unwrap();
        let toi = time_of_impact(&plank, &sweep, &floor, &ground, &opts);
        // Oracle: the first time the plank's lowest corner reaches the target, by sampling.
        let lowest = |t: f64| {
            let pose = sweep.pose_at(t);
            plank
                .core()
                .iter()
                .map(|c| (pose * c).y)
                .fold(f64::INFINITY, f64::min)
        };
        let samples = 20_000;
        let first = (0..=samples)
            .map(|k| k as f64 / samples as f64)
            .find(|&t| lowest(t) <= opts.target_separation());
        match (toi, first) {
            (Toi::Hit(h), Some(t)) => {
                hits += 1;
                assert!(
                    h.fraction <= t,
                    "reported {} after the sampled contact {t}",
                    h.fraction
                );
                assert!(lowest(h.fraction) >= opts.target_separation() - 1e-9);
                assert!(lowest(h.fraction) <= opts.target_separation() + opts.tolerance() + 1e-9);
            }
            (Toi::Separated, None) => {}
            (toi, first) => panic!("case {i}: {toi:?} but sampled contact at {first:?}"),
        }
    }
    assert!(hits > 30, "only {hits} hits");
}

fn ca_config(seed: u64) -> Config {
    Config {
        cases: 10_000,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

/// On translating input, conservative advancement is never later than the exact answer and
/// lands within the tolerance of the target (measured as distance by the brute-force oracle).
fn ca_agrees(s: &support::Scene) -> Result<(), TestCaseError> {
    let placed = s.place(1.0, 0.0, Vector::zeros());
    let opts = ToiOptions::default().with_max_iterations(200).unwrap();
    let exact = closed_form_toi(
        &placed.a,
        &placed.sweep_a,
        &placed.b,
        &placed.sweep_b,
        &opts,
    )
    .unwrap();
    let ca = toi_conservative_advancement(
        &placed.a,
        &placed.sweep_a,
        &placed.b,
        &placed.sweep_b,
        &opts,
    );
    match (exact, ca) {
        (Toi::Hit(e), Toi::Hit(c)) => {
            prop_assert!(
                c.fraction <= e.fraction + 1e-12,
                "CA {} after exact {}",
                c.fraction,
                e.fraction
            );
            let g = support::gap(
                &placed.a,
                &placed.sweep_a.pose_at(c.fraction),
                &placed.b,
                &placed.sweep_b.pose_at(c.fraction),
            );
            prop_assert!(
                g <= opts.target_separation() + opts.tolerance() + 1e-9,
                "CA stopped at gap {g}"
            );
        }
        (Toi::Hit(e), Toi::NotConverged { safe_fraction }) => {
            prop_assert!(safe_fraction <= e.fraction)
        }
        // CA stops within the tolerance of the target, so a pass that comes that close without
        // reaching the target is a hit for it and not for the exact answer.
        (Toi::Separated, Toi::Hit(c)) => {
            let g = support::gap(
                &placed.a,
                &placed.sweep_a.pose_at(c.fraction),
                &placed.b,
                &placed.sweep_b.pose_at(c.fraction),
            );
            prop_assert!(
                g >= opts.target_separation() - 1e-9,
                "CA hit at gap {g} below the target"
            );
            prop_assert!(
                g <= opts.target_separation() + opts.tolerance() + 1e-9,
                "CA hit at gap {g}, exact separated"
            );
        }
        (e, c) => prop_assert_eq!(e, c),
    }
    Ok(())
}

macro_rules! ca_against_closed_form {
    ($name:ident, $ka:expr, $kb:expr, $seed:expr) => {
        proptest! {
            #![proptest_config(ca_config($seed))]
            #[test]
            fn $name(s in support::scene($ka, $kb)) {
                ca_agrees(&s)?;
            }
        }
    };
}

use support::Kind::{
    Capsule as Cap, Circle as Cir, Polygon as Pol, RoundedPolygon as Rnd, Segment as Seg,
};
ca_against_closed_form!(ca_circle_circle, Cir, Cir, 21);
ca_against_closed_form!(ca_circle_segment, Cir, Seg, 22);
ca_against_closed_form!(ca_circle_capsule, Cir, Cap, 23);
ca_against_closed_form!(ca_circle_polygon, Cir, Pol, 24);
ca_against_closed_form!(ca_segment_segment, Seg, Seg, 25);
ca_against_closed_form!(ca_segment_capsule, Seg, Cap, 26);
ca_against_closed_form!(ca_segment_polygon, Seg, Pol, 27);
ca_against_closed_form!(ca_capsule_capsule, Cap, Cap, 28);
ca_against_closed_form!(ca_capsule_polygon, Cap, Pol, 29);
ca_against_closed_form!(ca_polygon_polygon, Pol, Pol, 30);
ca_against_closed_form!(ca_circle_rounded, Cir, Rnd, 31);
ca_against_closed_form!(ca_segment_rounded, Seg, Rnd, 32);
ca_against_closed_form!(ca_capsule_rounded, Cap, Rnd, 33);
ca_against_closed_form!(ca_polygon_rounded, Pol, Rnd, 34);
ca_against_closed_form!(ca_rounded_rounded, Rnd, Rnd, 35);
