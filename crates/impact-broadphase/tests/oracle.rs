//! Invariant: over any sequence of inserts, moves, batches and removals, every implementation
//! reports exactly the pairs whose fat boxes overlap, where the fat boxes follow the rule the
//! `Broadphase` docs state, computed here independently by brute force; no pair of
//! overlapping given (tight) boxes is ever missing; pairs and query results come sorted, the
//! same on every run and for every insertion order of the same boxes. Queries (box, swept box,
//! ray, point) agree with an exact model, and the nearest-first walk (`visit_swept`) visits
//! exactly the swept query's proxies, in the order of their exact entry times, clipped as
//! its visitor asks, the same in every implementation.
//!
//! Coordinates are multiples of 1/4 so that boxes often touch exactly (touching counts) and
//! so that the swept and ray answers can be checked in exact integer arithmetic.

use impact_broadphase::{
    Broadphase, BroadphaseError, BruteForce, ProxyId, ProxyPair, RTreeBroadphase, RTreeConfig,
    SortAndSweep,
};
use impact_geometry::{Aabb, CollisionFilter, Point, Real, Vector};
use proptest::prelude::*;
use std::collections::BTreeMap;

/// Handles drawn from a small pool so that operations often hit present and absent proxies.
const IDS: u32 = 24;

fn quarter(lo: i32, hi: i32) -> impl Strategy<Value = Real> {
    (lo..=hi).prop_map(|k| Real::from(k) * 0.25)
}

fn aabb() -> impl Strategy<Value = Aabb> {
    (
        quarter(0, 80),
        quarter(0, 80),
        quarter(0, 12),
        quarter(0, 12),
    )
        .prop_map(|(x, y, w, h)| Aabb::new(Point::new(x, y), Point::new(x + w, y + h)))
}

#[derive(Debug, Clone)]
enum Op {
    Insert(u32, Aabb),
    Update(u32, Aabb),
    Remove(u32),
    Batch(Vec<(u32, Aabb)>),
    Pairs,
    /// Sets the filter `FILTERS[k]`.
    Filter(u32, usize),
}

/// Filters that pair with everything, keep a category apart from itself, pair across
/// categories one way only, and group proxies that never (negative) or always (positive,
/// whatever the masks) pair.
const FILTERS: [CollisionFilter; 6] = [
    CollisionFilter::new(1, u64::MAX),
    CollisionFilter::new(2, !2),
    CollisionFilter::new(2, 1),
    CollisionFilter::new(4, u64::MAX).group(-1),
    CollisionFilter::new(4, 0).group(1),
    CollisionFilter::new(8, 0),
];

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..IDS, aabb()).prop_map(|(id, b)| Op::Insert(id, b)),
        3 => (0..IDS, aabb()).prop_map(|(id, b)| Op::Update(id, b)),
        1 => (0..IDS).prop_map(Op::Remove),
        2 => prop::collection::vec((0..IDS, aabb()), 0..20).prop_map(Op::Batch),
        2 => Just(Op::Pairs),
        2 => (0..IDS, 0..FILTERS.len()).prop_map(|(id, k)| Op::Filter(id, k)),
    ]
}

/// Margins that are multiples of 1/4 keep fat boxes on the quarter grid (exact touching).
fn margin() -> impl Strategy<Value = Real> {
    prop_oneof![Just(0.0), Just(0.25), Just(0.5)]
}

/// Rebuild on any change, at the default fraction, or never: every tree path is exercised.
fn rebuild_fraction() -> impl Strategy<Value = Real> {
    prop_oneof![Just(0.0), Just(0.1), Just(2.0)]
}

/// The documented fat-box rule, written from the docs rather than shared with the crate.
#[derive(Debug, Clone, Default)]
struct Model {
    /// handle -> (last given box, fat box)
    proxies: BTreeMap<u32, (Aabb, Aabb)>,
    /// handle -> filter, for proxies given one since they were inserted.
    filters: BTreeMap<u32, CollisionFilter>,
    margin: Real,
}

impl Model {
    fn insert(&mut self, id: u32, aabb: Aabb) -> bool {
        if self.proxies.contains_key(&id) {
            return false;
        }
        self.proxies
            .insert(id, (aabb, aabb.inflated(self.margin_for(&aabb))));
        self.filters.remove(&id);
        true
    }

    /// Whether the filters let `a` and `b` pair: Box2D's rule (the same non-zero group
    /// decides by its sign, else each category in the other's mask); without a filter, yes.
    fn accept(&self, a: u32, b: u32) -> bool {
        match (self.filters.get(&a), self.filters.get(&b)) {
            (Some(x), Some(y)) if x.group_index == y.group_index && x.group_index != 0 => {
                x.group_index > 0
            }
            (Some(x), Some(y)) => {
                x.mask_bits & y.category_bits != 0 && y.mask_bits & x.category_bits != 0
            }
            _ => true,
        }
    }

    /// The margin of a box: the broadphase's, capped at a quarter of the box's shorter side.
    fn margin_for(&self, aabb: &Aabb) -> Real {
        let side = (aabb.maxs - aabb.mins).min();
        self.margin.min(0.25 * side)
    }

    fn update(&mut self, id: u32, aabb: Aabb) -> Option<bool> {
        let margin = self.margin_for(&aabb);
        let (tight, fat) = self.proxies.get_mut(&id)?;
        *tight = aabb;
        // Keep the fat box while the box fits in it and it is not 4 margins too large.
        if fat.contains(&aabb) && aabb.inflated(4.0 * margin).contains(fat) {
            Some(false)
        } else {
            *fat = aabb.inflated(margin);
            Some(true)
        }
    }

    fn fat_pairs(&self) -> Vec<ProxyPair> {
        let all: Vec<_> = self.proxies.iter().collect();
        let mut pairs = Vec::new();
        for (i, (a, (_, fa))) in all.iter().enumerate() {
            for (b, (_, fb)) in &all[i + 1..] {
                if fa.intersects(fb) && self.accept(**a, **b) {
                    pairs.push(ProxyPair {
                        a: ProxyId(**a),
                        b: ProxyId(**b),
                    });
                }
            }
        }
        pairs
    }

    fn tight_pairs(&self) -> Vec<ProxyPair> {
        let all: Vec<_> = self.proxies.iter().collect();
        let mut pairs = Vec::new();
        for (i, (a, (ta, _))) in all.iter().enumerate() {
            for (b, (tb, _)) in &all[i + 1..] {
                if ta.intersects(tb) && self.accept(**a, **b) {
                    pairs.push(ProxyPair {
                        a: ProxyId(**a),
                        b: ProxyId(**b),
                    });
                }
            }
        }
        pairs
    }
}

/// Applies `op` to `bp`; returns the pairs when asked for, and the outcome of each call so
/// that implementations can be compared on errors too.
fn apply<B: Broadphase>(
    bp: &mut B,
    op: &Op,
) -> (Result<usize, BroadphaseError>, Option<Vec<ProxyPair>>) {
    match op {
        Op::Insert(id, b) => (bp.insert(ProxyId(*id), *b).map(|()| 1), None),
        Op::Update(id, b) => (bp.update(ProxyId(*id), *b).map(usize::from), None),
        Op::Remove(id) => (bp.remove(ProxyId(*id)).map(|()| 1), None),
        Op::Batch(moved) => {
            let moved: Vec<_> = moved.iter().map(|(id, b)| (ProxyId(*id), *b)).collect();
            (bp.update_batch(&moved), None)
        }
        Op::Pairs => (Ok(0), Some(bp.overlapping_pairs().to_vec())),
        Op::Filter(id, k) => (bp.set_filter(ProxyId(*id), FILTERS[*k]).map(|()| 0), None),
    }
}

/// Applies `op` to the model; `Err(())` where the broadphases must refuse it.
fn apply_model(model: &mut Model, op: &Op) -> Result<usize, ()> {
    match op {
        Op::Insert(id, b) => model.insert(*id, *b).then_some(1).ok_or(()),
        Op::Update(id, b) => model.update(*id, *b).map(usize::from).ok_or(()),
        Op::Remove(id) => {
            model.filters.remove(id);
            model.proxies.remove(id).map(|_| 1).ok_or(())
        }
        Op::Filter(id, k) => {
            if !model.proxies.contains_key(id) {
                return Err(());
            }
            model.filters.insert(*id, FILTERS[*k]);
            Ok(0)
        }
        Op::Batch(moved) => {
            if moved.iter().any(|(id, _)| !model.proxies.contains_key(id)) {
                return Err(());
            }
            let mut changed = 0;
            for (id, b) in moved {
                changed += usize::from(model.update(*id, *b).expect("checked present"));
            }
            Ok(changed)
        }
        Op::Pairs => Ok(0),
    }
}

fn check_sorted(pairs: &[ProxyPair]) -> Result<(), TestCaseError> {
    for p in pairs {
        prop_assert!(p.a < p.b, "pair {p:?} not in canonical order");
    }
    for w in pairs.windows(2) {
        prop_assert!(w[0] < w[1], "pairs not strictly increasing: {:?}", w);
    }
    Ok(())
}

/// Runs `ops` on one implementation against the model, checking after every operation.
fn run_against_model<B: Broadphase>(
    mut bp: B,
    margin: Real,
    ops: &[Op],
) -> Result<Vec<Vec<ProxyPair>>, TestCaseError> {
    let mut model = Model {
        margin,
        ..Model::default()
    };
    let mut history = Vec::new();
    for op in ops {
        let (got, _) = apply(&mut bp, op);
        let want = apply_model(&mut model, op);
        match (&got, &want) {
            (Ok(g), Ok(w)) => prop_assert_eq!(g, w, "changed count for {:?}", op),
            (Err(_), Err(())) => {}
            _ => prop_assert!(false, "{op:?}: got {got:?}, model says {want:?}"),
        }
        prop_assert_eq!(bp.len(), model.proxies.len());
        for id in 0..IDS {
            let want = model.proxies.get(&id).map(|(_, fat)| *fat);
            prop_assert_eq!(bp.fat_aabb(ProxyId(id)), want, "fat box of {}", id);
        }
        let pairs = bp.overlapping_pairs().to_vec();
        check_sorted(&pairs)?;
        prop_assert_eq!(&pairs, &model.fat_pairs(), "after {:?}", op);
        // Never a false negative: every pair of overlapping given boxes that the filters
        // let pair is reported.
        for p in model.tight_pairs() {
            prop_assert!(pairs.binary_search(&p).is_ok(), "missing {p:?}");
        }
        history.push(pairs);
    }
    Ok(history)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn every_implementation_reports_exactly_the_fat_pairs(
        ops in prop::collection::vec(op(), 1..60),
        margin in margin(),
        rebuild_fraction in rebuild_fraction(),
    ) {
        let config = RTreeConfig { margin, rebuild_fraction };
        let rtree = run_against_model(RTreeBroadphase::with_config(config).unwrap(), margin, &ops)?;
        let sap = run_against_model(SortAndSweep::with_margin(margin).unwrap(), margin, &ops)?;
        let brute = run_against_model(BruteForce::with_margin(margin).unwrap(), margin, &ops)?;
        prop_assert_eq!(&rtree, &brute);
        prop_assert_eq!(&sap, &brute);
        // Same calls, same answers, on every run.
        let again = run_against_model(RTreeBroadphase::with_config(config).unwrap(), margin, &ops)?;
        prop_assert_eq!(&again, &rtree);
    }

    #[test]
    fn pairs_do_not_depend_on_insertion_order(
        boxes in prop::collection::vec(aabb(), 0..40),
        rotate in 0usize..40,
    ) {
        let n = boxes.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.rotate_left(if n == 0 { 0 } else { rotate % n });
        order.reverse();
        fn pairs<B: Broadphase>(mut bp: B, boxes: &[Aabb], order: &[usize]) -> Vec<ProxyPair> {
            for &i in order {
                bp.insert(ProxyId(i as u32), boxes[i]).unwrap();
            }
            bp.overlapping_pairs().to_vec()
        }
        let forward: Vec<usize> = (0..n).collect();
        let want = pairs(BruteForce::new(), &boxes, &forward);
        prop_assert_eq!(&pairs(BruteForce::new(), &boxes, &order), &want);
        prop_assert_eq!(&pairs(RTreeBroadphase::new(), &boxes, &forward), &want);
        prop_assert_eq!(&pairs(RTreeBroadphase::new(), &boxes, &order), &want);
        prop_assert_eq!(&pairs(SortAndSweep::new(), &boxes, &order), &want);
    }
}

/// Exact integer model of the queries: coordinates on the 1/4 grid times 64 are integers.
mod exact {
    use super::*;

    pub const SCALE: Real = 64.0;

    pub fn int(x: Real) -> i64 {
        let v = x * SCALE;
        assert_eq!(v, v.round(), "{x} is not on the test grid");
        v as i64
    }

    /// Whether `start` moved by `t * d`, t in [0, 1], touches `target`, in exact arithmetic:
    /// the segment `t * d` against the Minkowski difference, with t-bounds as fractions.
    pub fn swept_hits(start: &Aabb, d: &Vector, target: &Aabb) -> bool {
        // t-interval as fractions num/den with den > 0; start with [0/1, 1/1].
        let (mut enter_n, mut enter_d, mut exit_n, mut exit_d) = (0i128, 1i128, 1i128, 1i128);
        for k in 0..2 {
            let lo = i128::from(int(target.mins[k]) - int(start.maxs[k]));
            let hi = i128::from(int(target.maxs[k]) - int(start.mins[k]));
            let dk = i128::from(int(d[k]));
            if dk == 0 {
                if lo > 0 || hi < 0 {
                    return false;
                }
                continue;
            }
            let (t0n, t1n, den) = if dk > 0 {
                (lo, hi, dk)
            } else {
                (-hi, -lo, -dk)
            };
            // enter = max(enter, t0n / den); exit = min(exit, t1n / den)
            if t0n * enter_d > enter_n * den {
                enter_n = t0n;
                enter_d = den;
            }
            if t1n * exit_d < exit_n * den {
                exit_n = t1n;
                exit_d = den;
            }
            if enter_n * exit_d > exit_n * enter_d {
                return false;
            }
        }
        true
    }

    /// The first t in [0, 1] at which `start` moved by `t * d` touches `target`, exactly
    /// (the same intervals as [`swept_hits`], as a float only at the end).
    pub fn swept_entry(start: &Aabb, d: &Vector, target: &Aabb) -> Option<Real> {
        if !swept_hits(start, d, target) {
            return None;
        }
        let mut entry: Real = 0.0;
        for k in 0..2 {
            let lo = int(target.mins[k]) - int(start.maxs[k]);
            let hi = int(target.maxs[k]) - int(start.mins[k]);
            let dk = int(d[k]);
            let t0 = match dk.cmp(&0) {
                core::cmp::Ordering::Greater => lo as Real / dk as Real,
                core::cmp::Ordering::Less => hi as Real / dk as Real,
                core::cmp::Ordering::Equal => 0.0,
            };
            entry = entry.max(t0);
        }
        Some(entry)
    }
}

#[derive(Debug, Clone)]
enum Query {
    Aabb(Aabb),
    Swept(Aabb, Vector),
    Ray(Point, Vector, Real),
    Point(Point),
}

fn query() -> impl Strategy<Value = Query> {
    let v = || (quarter(-80, 80), quarter(-80, 80)).prop_map(|(x, y)| Vector::new(x, y));
    let p = || (quarter(-8, 88), quarter(-8, 88)).prop_map(|(x, y)| Point::new(x, y));
    prop_oneof![
        aabb().prop_map(Query::Aabb),
        (aabb(), v()).prop_map(|(b, d)| Query::Swept(b, d)),
        (aabb(), Just(Vector::zeros())).prop_map(|(b, d)| Query::Swept(b, d)),
        (p(), v(), quarter(0, 8)).prop_map(|(o, d, f)| Query::Ray(o, d, f)),
        p().prop_map(Query::Point),
    ]
}

fn run_query<B: Broadphase>(bp: &B, q: &Query) -> Vec<ProxyId> {
    let mut out = vec![ProxyId(999)];
    match q {
        Query::Aabb(b) => bp.query_aabb(b, &mut out),
        Query::Swept(b, d) => bp.query_swept(b, d, &mut out),
        Query::Ray(o, d, f) => bp.query_ray(o, d, *f, &mut out),
        Query::Point(p) => bp.query_point(p, &mut out),
    }
    .expect("valid query");
    out
}

fn expected(model: &Model, q: &Query) -> Vec<ProxyId> {
    model
        .proxies
        .iter()
        .filter(|(_, (_, fat))| match q {
            Query::Aabb(b) => fat.intersects(b),
            Query::Swept(b, d) => exact::swept_hits(b, d, fat),
            Query::Ray(o, d, f) => exact::swept_hits(&Aabb::new(*o, *o), &(d * *f), fat),
            Query::Point(p) => fat.contains_point(p),
        })
        .map(|(id, _)| ProxyId(*id))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn queries_return_exactly_the_fat_boxes_they_touch(
        ops in prop::collection::vec(op(), 1..40),
        queries in prop::collection::vec(query(), 1..20),
        margin in margin(),
        rebuild_fraction in rebuild_fraction(),
    ) {
        let mut rtree = RTreeBroadphase::with_config(RTreeConfig { margin, rebuild_fraction }).unwrap();
        let mut sap = SortAndSweep::with_margin(margin).unwrap();
        let mut brute = BruteForce::with_margin(margin).unwrap();
        let mut model = Model { margin, ..Model::default() };
        for op in &ops {
            let _ = apply(&mut rtree, op);
            let _ = apply(&mut sap, op);
            let _ = apply(&mut brute, op);
            let _ = apply_model(&mut model, op);
        }
        for q in &queries {
            let want = expected(&model, q);
            prop_assert_eq!(&run_query(&rtree, q), &want, "rtree, {:?}", q);
            prop_assert_eq!(&run_query(&sap, q), &want, "sort and sweep, {:?}", q);
            prop_assert_eq!(&run_query(&brute, q), &want, "brute force, {:?}", q);
        }
        // Sort and sweep answers from its sorted order once pairs were asked for.
        sap.overlapping_pairs();
        for q in &queries {
            prop_assert_eq!(&run_query(&sap, q), &expected(&model, q), "sorted sap, {:?}", q);
        }
    }

    /// Off the grid, rounding enters the swept test: it must still never miss a box the
    /// moving box touches at a sampled time, and the tree's pruned traversal must agree with
    /// the default (union box, then filter) exactly.
    #[test]
    fn swept_queries_off_the_grid_never_miss(
        boxes in prop::collection::vec(
            (0.0..50.0f64, 0.0..50.0f64, 0.0..3.0f64, 0.0..3.0f64), 1..40),
        start in (0.0..50.0f64, 0.0..50.0f64, 0.0..2.0f64, 0.0..2.0f64),
        d in (-60.0..60.0f64, -60.0..60.0f64),
    ) {
        let mut rtree = RTreeBroadphase::with_config(RTreeConfig { margin: 0.0, ..RTreeConfig::default() }).unwrap();
        let mut brute = BruteForce::with_margin(0.0).unwrap();
        let boxes: Vec<Aabb> = boxes.iter().map(|&(x, y, w, h)| Aabb::new(Point::new(x, y), Point::new(x + w, y + h))).collect();
        for (i, b) in boxes.iter().enumerate() {
            rtree.insert(ProxyId(i as u32), *b).unwrap();
            brute.insert(ProxyId(i as u32), *b).unwrap();
        }
        let start = Aabb::new(Point::new(start.0, start.1), Point::new(start.0 + start.2, start.1 + start.3));
        let d = Vector::new(d.0, d.1);
        let mut got = Vec::new();
        rtree.query_swept(&start, &d, &mut got).unwrap();
        let mut reference = Vec::new();
        brute.query_swept(&start, &d, &mut reference).unwrap();
        prop_assert_eq!(&got, &reference);
        for k in 0..=256 {
            let t = Real::from(k) / 256.0;
            let moved = Aabb::new(start.mins + d * t, start.maxs + d * t);
            for (i, b) in boxes.iter().enumerate() {
                if moved.intersects(b) {
                    prop_assert!(got.contains(&ProxyId(i as u32)), "missed box {i} at t = {t}");
                }
            }
        }
    }

    /// The nearest-first walk: unclipped, it visits exactly the proxies of the swept query,
    /// each once, in nondecreasing order of entry (ties by handle), each entry no later than
    /// the exact one computed here in integers and within rounding of it; clipped by a
    /// visitor, every implementation visits the same proxies with the same entry bits, and
    /// none entered after the end it was given.
    #[test]
    fn the_nearest_first_walk_visits_in_entry_order_and_honours_its_clip(
        ops in prop::collection::vec(op(), 1..40),
        start in aabb(),
        d in (quarter(-80, 80), quarter(-80, 80)),
        clips in prop::collection::vec(prop_oneof![Just(-1.0), Just(1.0), 0.0..1.0f64, Just(Real::NAN)], 1..8),
        margin in margin(),
        rebuild_fraction in rebuild_fraction(),
    ) {
        let mut rtree = RTreeBroadphase::with_config(RTreeConfig { margin, rebuild_fraction }).unwrap();
        let mut sap = SortAndSweep::with_margin(margin).unwrap();
        let mut brute = BruteForce::with_margin(margin).unwrap();
        let mut model = Model { margin, ..Model::default() };
        for op in &ops {
            let _ = apply(&mut rtree, op);
            let _ = apply(&mut sap, op);
            let _ = apply(&mut brute, op);
            let _ = apply_model(&mut model, op);
        }
        let d = Vector::new(d.0, d.1);
        // Unclipped.
        let walk = |bp: &dyn Broadphase| {
            let mut seen = Vec::new();
            bp.visit_swept(&start, &d, &mut |id, entry| {
                seen.push((id, entry));
                1.0
            })
            .unwrap();
            seen
        };
        let seen = walk(&rtree);
        prop_assert_eq!(&seen, &walk(&sap));
        prop_assert_eq!(&seen, &walk(&brute));
        let mut ids: Vec<ProxyId> = seen.iter().map(|&(id, _)| id).collect();
        for w in seen.windows(2) {
            prop_assert!((w[0].1, w[0].0) < (w[1].1, w[1].0), "out of order: {:?}", w);
        }
        ids.sort_unstable();
        prop_assert_eq!(&ids, &expected(&model, &Query::Swept(start, d)));
        for &(id, entry) in &seen {
            let fat = model.proxies[&id.0].1;
            let exact = exact::swept_entry(&start, &d, &fat).expect("visited proxies are hit");
            prop_assert!(entry <= exact && exact - entry < 1e-12, "{:?}: {} vs {}", id, entry, exact);
        }
        // Clipped: the visitor returns the next clip of the list, in turn.
        let clipped = |bp: &dyn Broadphase| {
            let mut seen = Vec::new();
            let mut end: Real = 1.0;
            let mut i = 0;
            bp.visit_swept(&start, &d, &mut |id, entry| {
                assert!(entry <= end, "{id:?} entered at {entry}, after the end {end}");
                seen.push((id, entry.to_bits()));
                let next = clips[i % clips.len()];
                i += 1;
                if next >= 0.0 {
                    end = end.min(next);
                }
                next
            })
            .unwrap();
            seen
        };
        let got = clipped(&rtree);
        prop_assert_eq!(&got, &clipped(&sap));
        prop_assert_eq!(&got, &clipped(&brute));

        // The search in any order: unclipped, the same proxies with the same entries; clipped,
        // every proxy entered no later than the final end is visited, each once, none
        // entered after the end it was given.
        for bp in [&rtree as &dyn Broadphase, &sap, &brute] {
            let mut found = Vec::new();
            bp.search_swept(&start, &d, &mut |id, entry| {
                found.push((id, entry));
                1.0
            })
            .unwrap();
            found.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            prop_assert_eq!(&found, &seen);
            let mut found = Vec::new();
            let mut end: Real = 1.0;
            let mut i = 0;
            let mut stopped = false;
            bp.search_swept(&start, &d, &mut |id, entry| {
                assert!(entry <= end, "{id:?} entered at {entry}, after the end {end}");
                found.push(id);
                let next = clips[i % clips.len()];
                i += 1;
                if next >= 0.0 {
                    end = end.min(next);
                } else {
                    stopped = true;
                }
                next
            })
            .unwrap();
            let mut unique = found.clone();
            unique.sort_unstable();
            unique.dedup();
            prop_assert_eq!(unique.len(), found.len(), "visited twice");
            if !stopped {
                for &(id, entry) in &seen {
                    if entry <= end {
                        prop_assert!(found.contains(&id), "{:?} entered at {} <= {} missed", id, entry, end);
                    }
                }
            }
        }
    }
}
