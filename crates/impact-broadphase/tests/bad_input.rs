//! Invariant: bad input (NaN, infinite or inverted boxes, unknown or duplicate handles, bad
//! query parameters, bad configuration) returns an error naming the field and the value,
//! never panics, and changes nothing.

use impact_broadphase::{
    Broadphase, BroadphaseError, BruteForce, ProxyId, ProxyPair, RTreeBroadphase, RTreeConfig,
    SortAndSweep,
};
use impact_geometry::{Aabb, Point, Vector};

fn unit_box(x: f64, y: f64) -> Aabb {
    Aabb::new(Point::new(x, y), Point::new(x + 1.0, y + 1.0))
}

fn with_nan_mins_y() -> Aabb {
    Aabb::new(Point::new(0.0, f64::NAN), Point::new(1.0, 1.0))
}

/// Two overlapping proxies, pairs computed, then every kind of bad call; the state must be
/// the same afterwards.
fn refuses_bad_input<B: Broadphase>(mut bp: B) {
    bp.insert(ProxyId(0), unit_box(0.0, 0.0)).unwrap();
    bp.insert(ProxyId(1), unit_box(0.5, 0.0)).unwrap();
    let pairs_before = bp.overlapping_pairs().to_vec();
    let fat_before = [bp.fat_aabb(ProxyId(0)), bp.fat_aabb(ProxyId(1))];
    let msg = |r: Result<(), BroadphaseError>| r.unwrap_err().to_string();

    assert_eq!(
        msg(bp.insert(ProxyId(2), with_nan_mins_y())),
        "insert.aabb.mins.y: must be finite, got NaN"
    );
    assert_eq!(
        msg(bp.insert(
            ProxyId(2),
            Aabb::new(Point::new(0.0, 0.0), Point::new(f64::INFINITY, 1.0))
        )),
        "insert.aabb.maxs.x: must be finite, got inf"
    );
    assert_eq!(
        msg(bp.insert(
            ProxyId(2),
            Aabb::new(Point::new(3.0, 0.0), Point::new(1.0, 1.0))
        )),
        "insert.aabb.x: mins must not exceed maxs, got mins 3 > maxs 1"
    );
    assert_eq!(
        msg(bp.insert(ProxyId(1), unit_box(9.0, 9.0))),
        "insert.id: proxy 1 is already inserted"
    );
    assert_eq!(
        bp.update(ProxyId(7), unit_box(0.0, 0.0))
            .unwrap_err()
            .to_string(),
        "update.id: unknown proxy 7"
    );
    assert_eq!(
        bp.update(ProxyId(0), with_nan_mins_y())
            .unwrap_err()
            .to_string(),
        "update.aabb.mins.y: must be finite, got NaN"
    );
    assert_eq!(msg(bp.remove(ProxyId(7))), "remove.id: unknown proxy 7");
    // A batch with a bad entry after good ones applies none of them.
    let batch = [
        (ProxyId(0), unit_box(20.0, 20.0)),
        (ProxyId(1), unit_box(20.0, 20.0)),
        (ProxyId(1), with_nan_mins_y()),
    ];
    assert_eq!(
        bp.update_batch(&batch).unwrap_err().to_string(),
        "moved[2].aabb.mins.y: must be finite, got NaN"
    );
    let batch = [
        (ProxyId(0), unit_box(20.0, 20.0)),
        (ProxyId(5), unit_box(0.0, 0.0)),
    ];
    assert_eq!(
        bp.update_batch(&batch).unwrap_err().to_string(),
        "moved[1].id: unknown proxy 5"
    );

    let mut out = vec![ProxyId(3)];
    let q = |r: Result<(), BroadphaseError>| r.unwrap_err().to_string();
    assert_eq!(
        q(bp.query_aabb(&with_nan_mins_y(), &mut out)),
        "aabb.mins.y: must be finite, got NaN"
    );
    assert!(out.is_empty(), "a refused query leaves `out` empty");
    assert_eq!(
        q(bp.query_swept(&unit_box(0.0, 0.0), &Vector::new(1.0, f64::NAN), &mut out)),
        "translation.y: must be finite, got NaN"
    );
    assert_eq!(
        q(bp.query_swept(&unit_box(1e308, 0.0), &Vector::new(1e308, 0.0), &mut out)),
        "aabb + translation: must be finite, got inf"
    );
    assert_eq!(
        q(bp.query_ray(
            &Point::new(f64::NEG_INFINITY, 0.0),
            &Vector::x(),
            1.0,
            &mut out
        )),
        "ray.origin.x: must be finite, got -inf"
    );
    assert_eq!(
        q(bp.query_ray(&Point::origin(), &Vector::x(), -0.5, &mut out)),
        "ray.max_fraction: must be zero or positive, got -0.5"
    );
    assert_eq!(
        q(bp.query_ray(&Point::origin(), &Vector::new(f64::MAX, 0.0), 4.0, &mut out)),
        "ray.max_fraction * ray.dir: must be finite, got inf"
    );
    assert_eq!(
        q(bp.query_point(&Point::new(0.0, f64::NAN), &mut out)),
        "point.y: must be finite, got NaN"
    );

    assert_eq!(bp.len(), 2);
    assert_eq!(
        [bp.fat_aabb(ProxyId(0)), bp.fat_aabb(ProxyId(1))],
        fat_before
    );
    assert_eq!(bp.overlapping_pairs(), pairs_before.as_slice());
    assert_eq!(
        pairs_before,
        [ProxyPair {
            a: ProxyId(0),
            b: ProxyId(1)
        }]
    );
}

#[test]
fn rtree_refuses_bad_input() {
    refuses_bad_input(RTreeBroadphase::new());
}

#[test]
fn sort_and_sweep_refuses_bad_input() {
    refuses_bad_input(SortAndSweep::new());
}

#[test]
fn brute_force_refuses_bad_input() {
    refuses_bad_input(BruteForce::new());
}

#[test]
fn bad_configuration_is_refused() {
    let err = RTreeBroadphase::with_config(RTreeConfig {
        margin: -0.1,
        ..RTreeConfig::default()
    })
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "margin: must be zero or positive, got -0.1"
    );
    let err = RTreeBroadphase::with_config(RTreeConfig {
        rebuild_fraction: f64::NAN,
        ..RTreeConfig::default()
    })
    .unwrap_err();
    assert_eq!(err.to_string(), "rebuild_fraction: must be finite, got NaN");
    assert_eq!(
        SortAndSweep::with_margin(f64::INFINITY)
            .unwrap_err()
            .to_string(),
        "margin: must be finite, got inf"
    );
    assert!(matches!(
        BruteForce::with_margin(-1.0),
        Err(BroadphaseError::Negative { ref field, value }) if field == "margin" && value == -1.0
    ));
}

#[test]
fn a_removed_handle_can_be_inserted_again() {
    let mut bp = RTreeBroadphase::new();
    bp.insert(ProxyId(3), unit_box(0.0, 0.0)).unwrap();
    bp.insert(ProxyId(4), unit_box(0.5, 0.5)).unwrap();
    assert_eq!(bp.overlapping_pairs().len(), 1);
    bp.remove(ProxyId(3)).unwrap();
    assert!(bp.overlapping_pairs().is_empty());
    bp.insert(ProxyId(3), unit_box(10.0, 0.0)).unwrap();
    assert!(bp.overlapping_pairs().is_empty());
    assert_eq!(bp.len(), 2);
}
