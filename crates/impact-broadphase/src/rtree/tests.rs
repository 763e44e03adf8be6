//! Tests of [`RTreeBroadphase`](super::RTreeBroadphase) against brute force, with its
//! bookkeeping checked after every step.

use super::*;
use crate::BruteForce;
use proptest::prelude::*;

impl RTreeBroadphase {
    /// Checks the bookkeeping against a recomputation from the table: tree membership,
    /// tree boxes, counters and flags, and, when the pairs are up to date, that the
    /// candidates are exactly the pairs of overlapping tree boxes that the filters accept.
    fn check_invariants(&self) {
        let n = self.state.len();
        let (mut moving, mut settled) = (0, 0);
        for (i, s) in self.state.iter().enumerate() {
            let fat = self.table.get(ProxyId(i as u32));
            assert_eq!(s.present(), fat.is_some(), "proxy {i}: flags {s:?}");
            assert!(!(s.has(State::SETTLED) && s.has(State::MOVING)));
            assert_eq!(s.has(State::DIRTY), self.dirty.contains(&ProxyId(i as u32)));
            if s.has(State::MOVED) {
                assert!(s.has(State::DIRTY), "proxy {i}: moved but not dirty");
                assert!(!s.has(State::SETTLED), "proxy {i}: moved but settled");
            }
            let Some(fat) = fat else { continue };
            assert!(self.tree_box[i].contains(fat), "proxy {i}: fat box outside");
            if s.has(State::TIGHT) {
                assert_eq!(&self.tree_box[i], fat, "proxy {i}: tight but loose");
            }
            if s.has(State::MOVING) {
                moving += 1;
            } else {
                settled += 1;
            }
        }
        assert_eq!(moving, self.moving_len);
        let entry = |i: usize| filed(&self.table, ProxyId(i as u32), &self.tree_box[i]);
        let mut in_moving: Vec<Leaf> = self.moving.iter().copied().collect();
        in_moving.sort_by_key(|l| l.id);
        let want: Vec<Leaf> = (0..n)
            .filter(|&i| self.state[i].has(State::MOVING))
            .map(entry)
            .collect();
        assert_eq!(in_moving, want, "moving tree");
        let mut seen = vec![0; n];
        for l in self.settled.iter() {
            if self.state[l.id.index()].has(State::SETTLED) {
                assert_eq!(*l, entry(l.id.index()), "settled entry");
                seen[l.id.index()] += 1;
            }
        }
        for (i, s) in self.state.iter().enumerate() {
            let want = usize::from(s.has(State::SETTLED));
            assert_eq!(seen[i], want, "proxy {i}: settled entries");
        }
        assert_eq!(self.settled.size() - settled, self.stale, "stale entries");
        if !self.dirty.is_empty() || self.removed {
            return;
        }
        let mut want = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let (sa, sb) = (self.state[a], self.state[b]);
                let pair = ProxyPair::new(ProxyId(a as u32), ProxyId(b as u32));
                if sa.present()
                    && sb.present()
                    && entry(a).envelope.overlaps(&entry(b).envelope)
                    && self.table.accepts(pair.a, pair.b)
                {
                    let fat = |i: usize| self.table.get(ProxyId(i as u32)).unwrap();
                    want.push((pair, fat(a).intersects(fat(b))));
                }
            }
        }
        let got: Vec<_> = self
            .candidates
            .iter()
            .map(|c| (c.pair, c.fat_overlap))
            .collect();
        assert_eq!(got, want, "candidates");
        let pairs: Vec<_> = want.iter().filter(|c| c.1).map(|c| c.0).collect();
        assert_eq!(self.pairs, pairs, "pairs");
    }
}

/// What happens to one body in one step.
#[derive(Debug, Clone)]
enum Move {
    /// Keeps still and is not reported (resting or static).
    Rest,
    /// Keeps its velocity (quarter units per step, signed) and reports its swept box.
    Drift,
    /// Takes this velocity from now on.
    Turn(i32, i32),
    /// Jumps here (quarter units) and reports its new box.
    Teleport(i32, i32),
    /// Leaves the broadphase, or comes back where it was.
    Toggle,
}

fn body_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        4 => Just(Move::Rest),
        6 => Just(Move::Drift),
        1 => (-3..=3, -3..=3).prop_map(|(x, y)| Move::Turn(x, y)),
        1 => (0..160, 0..160).prop_map(|(x, y)| Move::Teleport(x, y)),
        1 => Just(Move::Toggle),
    ]
}

/// Steps of up to 12 bodies; each step also says whether to ask for the pairs and
/// whether to report by batch or one update at a time.
fn steps() -> impl Strategy<Value = Vec<(Vec<Move>, bool, bool)>> {
    prop::collection::vec(
        (
            prop::collection::vec(body_move(), 12),
            prop::bool::weighted(0.8),
            prop::bool::weighted(0.9),
        ),
        1..80,
    )
}

/// A square body on the quarter grid (all lengths in quarter units).
struct Body {
    at: (i32, i32),
    velocity: (i32, i32),
    size: i32,
    present: bool,
}

impl Body {
    fn aabb(&self) -> Aabb {
        let q = |k: i32| Real::from(k) * 0.25;
        let (x, y) = self.at;
        Aabb::new(
            Point::new(q(x), q(y)),
            Point::new(q(x + self.size), q(y + self.size)),
        )
    }
}

/// Runs `steps` on the R-tree and on brute force; after every step both report the same
/// pairs and the R-tree's bookkeeping holds. Returns the R-tree.
fn run(steps: &[(Vec<Move>, bool, bool)], margin: Real, rebuild_fraction: Real) -> RTreeBroadphase {
    let config = RTreeConfig {
        margin,
        rebuild_fraction,
    };
    let mut tree = RTreeBroadphase::with_config(config).unwrap();
    let mut brute = BruteForce::with_margin(margin).unwrap();
    let mut bodies: Vec<Body> = (0..12)
        .map(|i| Body {
            at: (i * 13 % 150, i * 29 % 150),
            velocity: (1, i % 3 - 1),
            size: 2 + i % 5,
            present: true,
        })
        .collect();
    for (i, b) in bodies.iter().enumerate() {
        let aabb = b.aabb();
        tree.insert(ProxyId(i as u32), aabb).unwrap();
        brute.insert(ProxyId(i as u32), aabb).unwrap();
    }
    for (moves, ask, batch) in steps {
        let mut moved = Vec::new();
        for (i, (m, b)) in moves.iter().zip(bodies.iter_mut()).enumerate() {
            let id = ProxyId(i as u32);
            let before = b.aabb();
            match m {
                Move::Rest => continue,
                Move::Turn(x, y) => b.velocity = (*x, *y),
                Move::Drift => {}
                Move::Teleport(x, y) => b.at = (*x, *y),
                Move::Toggle => {
                    b.present = !b.present;
                    if b.present {
                        tree.insert(id, before).unwrap();
                        brute.insert(id, before).unwrap();
                    } else {
                        tree.remove(id).unwrap();
                        brute.remove(id).unwrap();
                    }
                    continue;
                }
            }
            if !b.present {
                continue;
            }
            let aabb = if let Move::Teleport(..) = m {
                b.aabb()
            } else {
                b.at = (b.at.0 + b.velocity.0, b.at.1 + b.velocity.1);
                before.merged(&b.aabb())
            };
            moved.push((id, aabb));
        }
        if *batch {
            let changed = tree.update_batch(&moved).unwrap();
            assert_eq!(changed, brute.update_batch(&moved).unwrap());
        } else {
            for (id, aabb) in &moved {
                assert_eq!(
                    tree.update(*id, *aabb).unwrap(),
                    brute.update(*id, *aabb).unwrap()
                );
            }
        }
        tree.check_invariants();
        check_search(&tree, &brute);
        if *ask {
            assert_eq!(tree.overlapping_pairs(), brute.overlapping_pairs());
            tree.check_invariants();
        }
    }
    tree
}

/// The search for the nearest hit (through the moving trees and the settled proxies' wide
/// BVH, skipping stale entries, loose tree boxes tested by their fat boxes) visits the same
/// proxies with the same entries as brute force, for a few sweeps across the field.
fn check_search(tree: &RTreeBroadphase, brute: &BruteForce) {
    let sweeps = [
        (
            Aabb::new(Point::new(-1.0, -1.0), Point::new(-1.0, -1.0)),
            Vector::new(41.0, 40.0),
        ),
        (
            Aabb::new(Point::new(40.0, 10.0), Point::new(40.0, 10.0)),
            Vector::new(-42.0, 0.0),
        ),
        (
            Aabb::new(Point::new(0.0, 20.0), Point::new(2.0, 22.5)),
            Vector::new(40.0, -15.0),
        ),
        (
            Aabb::new(Point::new(5.0, 5.0), Point::new(30.0, 30.0)),
            Vector::new(0.0, 3.0),
        ),
    ];
    for (start, translation) in &sweeps {
        let found = |bp: &dyn Broadphase| {
            let mut found = Vec::new();
            bp.search_swept(start, translation, &mut |id, entry| {
                found.push((id, entry.to_bits()));
                1.0
            })
            .unwrap();
            found.sort_unstable();
            found
        };
        assert_eq!(
            found(tree),
            found(brute),
            "sweep of {start:?} by {translation:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Bodies that drift (loose, predicted tree boxes), rest (the settled tree), turn,
    /// teleport, leave and come back, reported by batch or one by one, with the pairs
    /// asked for at most steps: the same pairs as brute force, and consistent books.
    #[test]
    fn drifting_and_resting_bodies_match_brute_force(
        steps in steps(),
        margin in prop_oneof![Just(0.0), Just(0.25), Just(0.5)],
        rebuild_fraction in prop_oneof![Just(0.0), Just(0.1), Just(2.0)],
    ) {
        run(&steps, margin, rebuild_fraction);
    }
}

/// The scenario the property test relies on actually reaches every path: proxies
/// settle, leave the settled tree again, and get loose predicted tree boxes.
#[test]
fn drifting_then_resting_uses_settled_tree_and_loose_boxes() {
    let drift = (vec![Move::Drift; 12], true, true);
    let rest = (vec![Move::Rest; 12], true, true);
    let mut script = vec![drift.clone(); 6];
    script.extend(vec![rest; 6]);
    // Slow drift: one quarter every other step, so fat boxes change every few steps.
    let slow = (vec![Move::Turn(1, 0); 12], true, true);
    script.push(slow);
    for _ in 0..6 {
        script.push(drift.clone());
        script.push((vec![Move::Rest; 12], true, true));
    }
    let tree = run(&script, 0.25, DEFAULT_REBUILD_FRACTION);
    assert!(tree.settled.size() > 0, "nothing settled");
    assert!(
        tree.stale > 0 || tree.rebuilds > 1,
        "nothing left the settled tree"
    );
    let loose = (0..12)
        .filter(|&i| !tree.state[i].has(State::TIGHT))
        .count();
    assert!(loose > 0, "no loose tree box");
}

/// Boxes at the edge of the f64 range: predicting their drift overflows, which must
/// neither panic nor produce a non-finite tree box.
#[test]
fn drift_near_the_largest_coordinates_stays_finite() {
    let mut tree = RTreeBroadphase::new();
    let big = Real::MAX;
    let at = |x: Real| Aabb::new(Point::new(x, -big), Point::new(big, big));
    tree.insert(ProxyId(0), at(-big)).unwrap();
    tree.insert(ProxyId(1), at(0.0)).unwrap();
    for step in 0..6 {
        let x = if step % 2 == 0 { 0.0 } else { -big };
        tree.update_batch(&[(ProxyId(1), at(x))]).unwrap();
        tree.update_batch(&[]).unwrap();
        assert_eq!(
            tree.overlapping_pairs(),
            [ProxyPair::new(ProxyId(0), ProxyId(1))]
        );
        tree.check_invariants();
        assert!(
            tree.tree_box
                .iter()
                .all(|b| b.mins.x.is_finite() && b.maxs.y.is_finite())
        );
    }
}

/// Settled proxies at every scale, from subnormal single-precision coordinates to past the
/// single-precision range (where the search walks the settled rstar tree instead of the
/// wide BVH): the search visits what brute force finds, with the same entries.
#[test]
fn the_search_matches_brute_force_at_every_scale() {
    for scale in [1e-40, 1e-3, 1.0, 1e20, 1e29, 1e31, 1e40, 1e300] {
        let mut tree = RTreeBroadphase::new();
        let mut brute = BruteForce::new();
        for i in 0..40u32 {
            let (x, y) = (Real::from(i % 8) - 3.5, Real::from(i / 8) - 2.0);
            let b = Aabb::new(Point::new(x, y), Point::new(x + 0.5, y + 0.75));
            let b = Aabb::new(b.mins * scale, b.maxs * scale);
            tree.insert(ProxyId(i), b).unwrap();
            brute.insert(ProxyId(i), b).unwrap();
        }
        for _ in 0..6 {
            tree.overlapping_pairs();
            tree.update_batch(&[]).unwrap();
        }
        assert!(tree.moving_len == 0, "not all settled at scale {scale}");
        let sweeps = [
            (
                Point::new(-5.0, -3.0),
                Point::new(-5.0, -3.0),
                Vector::new(10.0, 6.0),
            ),
            (
                Point::new(-4.0, 0.1),
                Point::new(-3.0, 0.6),
                Vector::new(8.0, 0.0),
            ),
            (
                Point::new(0.7, -4.0),
                Point::new(0.7, -4.0),
                Vector::new(0.0, 9.0),
            ),
        ];
        for (lo, hi, d) in sweeps {
            let start = Aabb::new(lo * scale, hi * scale);
            let d = d * scale;
            let found = |bp: &dyn Broadphase| {
                let mut found = Vec::new();
                bp.search_swept(&start, &d, &mut |id, entry| {
                    found.push((id, entry.to_bits()));
                    1.0
                })
                .unwrap();
                found.sort_unstable();
                found
            };
            let want = found(&brute);
            assert!(!want.is_empty(), "the sweep meets nothing at scale {scale}");
            assert_eq!(found(&tree), want, "scale {scale}");
        }
    }
}

/// `n` boxes of sizes 0.1 to 1.6 scattered over a strip 10 times wider than tall, drawn
/// from `seed`; proxy `i` is box `i`.
fn scattered(n: usize, seed: u64) -> Vec<(ProxyId, Aabb)> {
    let mut rng = impact_testkit::SplitMix64::new(seed);
    let width = (n as Real).sqrt() * 4.0;
    (0..n)
        .map(|i| {
            let (x, y) = (rng.range(0.0, width), rng.range(0.0, width / 10.0));
            let (w, h) = (rng.range(0.1, 1.6), rng.range(0.1, 1.6));
            let aabb = Aabb::new(Point::new(x, y), Point::new(x + w, y + h));
            (ProxyId(i as u32), aabb)
        })
        .collect()
}

/// `b` moved by `(dx, dy)`.
fn shifted(b: &Aabb, dx: Real, dy: Real) -> Aabb {
    let d = Vector::new(dx, dy);
    Aabb::new(b.mins + d, b.maxs + d)
}

/// A moving tree large enough to be bulk loaded as a forest: the same pairs as brute force
/// after the rebuild, after inserting and removing single proxies in the forest (a few
/// moved, or left), and after a batch small enough to update the trees entry by entry.
#[test]
fn a_forest_of_moving_trees_matches_brute_force() {
    let n = 6000;
    let mut tree = RTreeBroadphase::new();
    let mut brute = BruteForce::new();
    let boxes = scattered(n, 7);
    for (id, aabb) in &boxes {
        tree.insert(*id, *aabb).unwrap();
        brute.insert(*id, *aabb).unwrap();
    }
    // The pairs, the books, and box, swept and nearest-first queries over the forest.
    let check = |tree: &mut RTreeBroadphase, brute: &mut BruteForce| {
        assert_eq!(tree.overlapping_pairs(), brute.overlapping_pairs());
        tree.check_invariants();
        let (mut got, mut want) = (Vec::new(), Vec::new());
        for (i, (_, b)) in scattered(40, 11).iter().enumerate() {
            let region = b.inflated(Real::from(i as u32 % 5));
            tree.query_aabb(&region, &mut got).unwrap();
            brute.query_aabb(&region, &mut want).unwrap();
            assert_eq!(got, want, "box query {i}");
            let along = Vector::new(40.0, Real::from(i as u32 % 3) - 1.0);
            tree.query_swept(&region, &along, &mut got).unwrap();
            brute.query_swept(&region, &along, &mut want).unwrap();
            assert_eq!(got, want, "swept query {i}");
            // The walk's order is a function of the fat boxes alone.
            let walk = |bp: &dyn Broadphase| {
                let mut seen = Vec::new();
                bp.visit_swept(&region, &along, &mut |id, entry| {
                    seen.push((id, entry.to_bits()));
                    1.0
                })
                .unwrap();
                seen
            };
            assert_eq!(walk(&*tree), walk(&*brute), "nearest-first walk {i}");
        }
    };
    check(&mut tree, &mut brute);
    // Everything moves: the moving tree is rebuilt, as a forest.
    let moved: Vec<_> = scattered(n, 8);
    tree.update_batch(&moved).unwrap();
    brute.update_batch(&moved).unwrap();
    assert!(tree.moving.roots().count() >= 4, "not a forest");
    check(&mut tree, &mut brute);
    // A few move far (entry by entry), a few leave and come back elsewhere.
    let far: Vec<_> = moved
        .iter()
        .step_by(97)
        .map(|(id, b)| (*id, shifted(b, -3.0, 1.0)))
        .collect();
    tree.update_batch(&far).unwrap();
    brute.update_batch(&far).unwrap();
    check(&mut tree, &mut brute);
    for (id, b) in moved.iter().step_by(251) {
        tree.remove(*id).unwrap();
        brute.remove(*id).unwrap();
        let back = shifted(b, 5.0, -0.5);
        tree.insert(*id, back).unwrap();
        brute.insert(*id, back).unwrap();
    }
    check(&mut tree, &mut brute);
    for (id, _) in moved.iter().step_by(13) {
        tree.remove(*id).unwrap();
        brute.remove(*id).unwrap();
    }
    check(&mut tree, &mut brute);
}

/// The forest depends on the leaves alone: bulk loaded on pools of 1 to 4 threads, the
/// same trees with the same leaves in the same order, every leaf once.
#[cfg(feature = "parallel")]
#[test]
fn a_forest_is_the_same_on_any_number_of_threads() {
    let leaves: Vec<Leaf> = scattered(9000, 3)
        .iter()
        .map(|(id, b)| tree::leaf(*id, b, crate::bounds::FilterBits::ALL))
        .collect();
    let layout = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut forest = forest::Forest::new();
        pool.install(|| forest.rebuild(leaves.clone()));
        let roots: Vec<_> = forest.roots().map(|r| r.envelope()).collect();
        let order: Vec<ProxyId> = forest.iter().map(|l| l.id).collect();
        (roots, order)
    };
    let (roots, order) = layout(1);
    assert!(roots.len() >= 4);
    let mut ids = order.clone();
    ids.sort_unstable();
    assert_eq!(ids, (0..9000).map(ProxyId).collect::<Vec<_>>());
    for threads in [2, 3, 4] {
        assert_eq!(layout(threads), (roots.clone(), order.clone()), "{threads}");
    }
}
