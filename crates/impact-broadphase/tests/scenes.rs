//! Invariant: on the benchmark scenes (every body moving, many fat boxes changing per step,
//! bulk rebuilds, teleports), every implementation reports at every step exactly the pairs of
//! the brute-force oracle, and never misses a pair of overlapping swept boxes.

use impact_broadphase::{Broadphase, BruteForce, ProxyId, RTreeBroadphase, SortAndSweep};
use impact_geometry::Aabb;
use impact_testkit::moving_boxes::Scene;

fn build<B: Broadphase>(mut bp: B, boxes: &[(ProxyId, Aabb)]) -> B {
    for (id, aabb) in boxes {
        bp.insert(*id, *aabb).unwrap();
    }
    bp
}

fn agrees_with_brute_force(mut scene: Scene, steps: usize) {
    let boxes = scene.boxes();
    let mut tight = boxes.clone();
    let mut rtree = build(RTreeBroadphase::new(), &boxes);
    let mut sap = build(SortAndSweep::new(), &boxes);
    let mut brute = build(BruteForce::new(), &boxes);
    for step in 0..steps {
        scene.step();
        for (id, aabb) in scene.moved() {
            tight[id.index()].1 = *aabb;
        }
        let changed = rtree.update_batch(scene.moved()).unwrap();
        assert_eq!(sap.update_batch(scene.moved()).unwrap(), changed);
        assert_eq!(brute.update_batch(scene.moved()).unwrap(), changed);
        let want = brute.overlapping_pairs().to_vec();
        assert_eq!(
            rtree.overlapping_pairs(),
            want.as_slice(),
            "rtree, step {step}"
        );
        assert_eq!(
            sap.overlapping_pairs(),
            want.as_slice(),
            "sort and sweep, step {step}"
        );
        // No false negative against the swept boxes themselves (sampled: every 7th body).
        for (i, (a, box_a)) in tight.iter().enumerate().step_by(7) {
            for (b, box_b) in &tight[i + 1..] {
                if box_a.intersects(box_b) {
                    let pair = impact_broadphase::ProxyPair::new(*a, *b);
                    assert!(want.binary_search(&pair).is_ok(), "missing {pair:?}");
                }
            }
        }
    }
    assert!(
        rtree.rebuild_count() > 0,
        "the scene should trigger bulk rebuilds"
    );
}

#[test]
fn random_walk_pairs_match_brute_force() {
    agrees_with_brute_force(Scene::random_walk(1_500, 11), 40);
}

#[test]
fn rain_pairs_match_brute_force() {
    agrees_with_brute_force(Scene::rain(1_500, 12), 60);
}
