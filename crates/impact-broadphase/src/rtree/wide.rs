//! [`WideBvh`]: a four-wide bounding volume hierarchy (BVH4) over the leaves of the settled
//! tree, which the nearest-hit search of rays and shape casts
//! ([`Broadphase::search_swept`](crate::Broadphase::search_swept)) walks instead of the
//! settled rstar tree.
//!
//! Why a second index: rstar stores a node's children as an array of enums (56 bytes each,
//! a box and either a proxy or a vector of children), so a walk tests one child at a time
//! and branches on its kind and on each node's varying length; for the 10,000 static bodies
//! of `benches/queries.rs` that was most of a ray's time. Here every node has four lanes,
//! each a child's box in single precision rounded outward, held as a structure of arrays,
//! so one [`SweptBoxF32::first_touch`] gives a lower bound of the four lanes' entries; a
//! sorting network without branches orders the lanes entered, which go on a stack by a
//! count (a lane whose box is empty is never entered). A proxy's own entry, the one the
//! visitor gets, is computed from its exact tree box, kept beside the nodes, so every
//! proxy is visited with its exact entry, and every proxy entered no later than the end is
//! visited, as by the walk over the rstar tree (the order among them, and so which later
//! ones a clipping visitor sees before the end comes down, may differ). The pair search
//! keeps the rstar tree: its joins are written over rstar's nodes.
//!
//! The tree is built top down by the binned surface area heuristic (Wald, "On fast
//! construction of SAH-based bounding volume hierarchies", 2007), with the half-perimeter
//! as the measure (in 2D the chance that a random line crosses a convex region is
//! proportional to its perimeter), into a binary tree, which is then collapsed into
//! four-wide nodes by opening the child of largest half-perimeter until a node has four
//! (Wald, Benthin and Boulos, "Getting rid of packets", 2008). Building depends on the
//! leaves and their order alone, so the tree, and every walk's order, is reproducible.
//!
//! Cost: 80 bytes a node and 40 a leaf; for the bench's 10,000 proxies 4,816 nodes (77% of
//! their lanes used), about 80 bytes a settled proxy besides the rstar tree. It is built
//! from the settled tree at the first search after each rebuild of that tree (a world that
//! never searches never builds it), in about 31 million instructions for those 10,000
//! proxies, against 18 million for rstar's bulk load of them (see `docs/benchmarks.md`).

use super::tree::Leaf;
use crate::ProxyId;
use crate::swept::{SweptBox, SweptBoxF32, f32_down, f32_up};
use impact_geometry::Real;
use wide::f32x4 as F32x4;

/// Lanes of a node.
const WIDTH: usize = 4;

/// The stack of one search: deeper trees are searched by a search of their own from the
/// node where the stack would overflow (each node expanded pushes at most [`WIDTH`]).
const STACK: usize = 32;

/// Bins per axis of the surface area heuristic.
const BINS: usize = 16;

/// Binary depth from which groups are split at their median rather than by the heuristic,
/// so that no tree is deeper than this plus the base-2 logarithm of its leaf count.
const MEDIAN_DEPTH: u32 = 32;

/// Set in a lane's child for a proxy (the other bits its index in [`WideBvh::leaves`]);
/// clear for a node (its index in [`WideBvh::nodes`]).
const LEAF: u32 = 1 << 31;

/// One node: four lanes, each a child (a node or a proxy) or empty. The boxes are in single
/// precision, rounded outward, so that a node is 80 bytes and its four boxes one
/// [`SweptBoxF32::first_touch`]; a proxy's exact box is in [`WideBvh::leaves`].
#[derive(Debug, Clone)]
struct Node {
    /// Per axis, per lane: the lower corner of the child's box (`f32::MAX` in an empty lane).
    mins: [[f32; WIDTH]; 2],
    /// Per axis, per lane: the upper corner (`-f32::MAX` in an empty lane).
    maxs: [[f32; WIDTH]; 2],
    /// Per lane: a node's index, or a proxy's with [`LEAF`] set.
    child: [u32; WIDTH],
}

impl Node {
    const EMPTY: Self = Self {
        mins: [[f32::MAX; WIDTH]; 2],
        maxs: [[-f32::MAX; WIDTH]; 2],
        child: [0; WIDTH],
    };
}

/// A proxy of the tree: its id and its tree box, exact.
#[derive(Debug, Clone, Copy)]
struct LeafBox {
    id: ProxyId,
    lo: [Real; 2],
    hi: [Real; 2],
}

/// The four-wide BVH of a set of leaves (see the [module docs](self)).
#[derive(Clone, Default)]
pub(super) struct WideBvh {
    /// Depth first, the root first; empty for no leaves.
    nodes: Vec<Node>,
    /// The proxies, in the order the walk meets them.
    leaves: Vec<LeafBox>,
    /// The box of every leaf: lower and upper corner.
    bounds: ([Real; 2], [Real; 2]),
}

impl core::fmt::Debug for WideBvh {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("WideBvh")
            .field("nodes", &self.nodes.len())
            .finish_non_exhaustive()
    }
}

/// A leaf as the build sorts it.
#[derive(Clone, Copy)]
struct Item {
    lo: [Real; 2],
    hi: [Real; 2],
    centre: [Real; 2],
    id: u32,
    /// Per axis: its bin in the last [`best_cut`] of its group.
    bin: [u8; 2],
}

/// A node of the binary tree the build makes first.
#[derive(Clone, Copy)]
struct BinNode {
    lo: [Real; 2],
    hi: [Real; 2],
    /// Its two children's indices, or `None` for a leaf.
    children: Option<(u32, u32)>,
    /// The leaf's proxy id.
    id: u32,
}

impl BinNode {
    fn half_perimeter(&self) -> Real {
        (self.hi[0] - self.lo[0]) + (self.hi[1] - self.lo[1])
    }
}

/// A box grown as items are added to it: starts empty.
#[derive(Clone, Copy)]
struct Grow {
    lo: [Real; 2],
    hi: [Real; 2],
}

impl Grow {
    const EMPTY: Self = Self {
        lo: [Real::INFINITY; 2],
        hi: [Real::NEG_INFINITY; 2],
    };

    #[inline]
    fn add(&mut self, lo: [Real; 2], hi: [Real; 2]) {
        for axis in 0..2 {
            self.lo[axis] = self.lo[axis].min(lo[axis]);
            self.hi[axis] = self.hi[axis].max(hi[axis]);
        }
    }

    fn half_perimeter(&self) -> Real {
        (self.hi[0] - self.lo[0]) + (self.hi[1] - self.lo[1])
    }
}

impl WideBvh {
    /// The tree of `leaves` (their tree boxes, which are finite); `None` for more than
    /// [`LEAF`] of them, which its lanes cannot number.
    pub(super) fn build<'a>(leaves: impl Iterator<Item = &'a Leaf>) -> Option<Self> {
        let mut items: Vec<Item> = leaves
            .map(|l| {
                let (lo, hi) = (l.envelope.lower(), l.envelope.upper());
                Item {
                    lo,
                    hi,
                    centre: [0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1])],
                    id: l.id.0,
                    bin: [0; 2],
                }
            })
            .collect();
        if items.is_empty() {
            return Some(Self::default());
        }
        if items.len() >= LEAF as usize {
            return None;
        }
        let mut binary = Vec::with_capacity(2 * items.len() - 1);
        let root = build_binary(&mut items, 0, &mut binary);
        let mut tree = Self {
            nodes: Vec::with_capacity(items.len() / 2 + 1),
            leaves: Vec::with_capacity(items.len()),
            bounds: (binary[root as usize].lo, binary[root as usize].hi),
        };
        collapse(&binary, root, &mut tree);
        Some(tree)
    }

    /// Searches the leaves nearest first, as [`Broadphase::search_swept`] does: each lane
    /// entered no later than `end` as it stands when its turn comes is opened, a proxy's by
    /// `leaf(id, entry of its tree box, end)`, which may lower `end` and returns false to end
    /// the walk; false then.
    ///
    /// The nodes' single-precision test is `lanes`, the form of `sweep` (a lower bound of
    /// each lane's entries); a proxy's entry is `sweep`'s of its exact box.
    ///
    /// [`Broadphase::search_swept`]: crate::Broadphase::search_swept
    pub(super) fn search<F>(
        &self,
        sweep: &SweptBox,
        lanes: &SweptBoxF32,
        end: &mut Real,
        leaf: &mut F,
    ) -> bool
    where
        F: FnMut(ProxyId, Real, &mut Real) -> bool,
    {
        if self.nodes.is_empty() {
            return true;
        }
        let entry = sweep.first_touch(self.bounds.0, self.bounds.1);
        entry > *end || self.search_from(sweep, lanes, 0, end, leaf)
    }

    /// [`WideBvh::search`] of the subtree under node `root`.
    fn search_from<F>(
        &self,
        sweep: &SweptBox,
        lanes: &SweptBoxF32,
        root: u32,
        end: &mut Real,
        leaf: &mut F,
    ) -> bool
    where
        F: FnMut(ProxyId, Real, &mut Real) -> bool,
    {
        // A lane's entry (a lower bound) and child.
        let mut stack = [(0.0f32, 0u32); STACK];
        stack[0] = (0.0, root);
        let mut sp = 1;
        while sp > 0 {
            sp -= 1;
            let (entry, child) = stack[sp];
            if Real::from(entry) > *end {
                continue;
            }
            if child & LEAF != 0 {
                let l = &self.leaves[(child & !LEAF) as usize];
                let entry = sweep.first_touch(l.lo, l.hi);
                if entry <= *end && !leaf(l.id, entry, end) {
                    return false;
                }
                continue;
            }
            if sp + WIDTH > STACK {
                if !self.search_from(sweep, lanes, child, end, leaf) {
                    return false;
                }
                continue;
            }
            let node = &self.nodes[child as usize];
            let t = lanes.first_touch(node.mins.map(F32x4::from), node.maxs.map(F32x4::from));
            // A lane is kept if its entry is no later than the end rounded up (the pop
            // above drops one that is later than the end itself).
            let kept = t.simd_le(F32x4::splat(f32_up(*end))).to_bitmask();
            let t = t.to_array();
            // Each lane's key: its entry's bits (which order as the entries do) with the
            // lane in the two lowest, or the largest key if not kept; sorted, the lanes
            // kept come first, nearest first.
            let mut keys = [u32::MAX; WIDTH];
            for (lane, (key, &t)) in keys.iter_mut().zip(&t).enumerate() {
                if kept & (1 << lane) != 0 {
                    *key = (t.to_bits() & !3) | lane as u32;
                }
            }
            let n = kept.count_ones() as usize;
            sort4(&mut keys);
            // Farthest first, so that the nearest is popped next; a lane not kept is
            // written and then overwritten.
            for (i, key) in keys.iter().enumerate().rev() {
                let lane = (key & 3) as usize;
                stack[sp] = (t[lane], node.child[lane]);
                sp += usize::from(i < n);
            }
        }
        true
    }
}

/// Sorts four keys by a sorting network (five compare-exchanges, `min` and `max` each).
#[inline]
fn sort4(k: &mut [u32; WIDTH]) {
    for (a, b) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
        let (x, y) = (k[a], k[b]);
        k[a] = x.min(y);
        k[b] = x.max(y);
    }
}

/// The binary tree of `items` (at least one) into `out`; returns its root's index.
fn build_binary(items: &mut [Item], depth: u32, out: &mut Vec<BinNode>) -> u32 {
    let (mut bounds, mut centres) = (Grow::EMPTY, Grow::EMPTY);
    for it in items.iter() {
        bounds.add(it.lo, it.hi);
        centres.add(it.centre, it.centre);
    }
    let index = out.len() as u32;
    out.push(BinNode {
        lo: bounds.lo,
        hi: bounds.hi,
        children: None,
        id: items[0].id,
    });
    if items.len() > 1 {
        let m = split(items, &centres, depth);
        let (left, right) = items.split_at_mut(m);
        let l = build_binary(left, depth + 1, out);
        let r = build_binary(right, depth + 1, out);
        out[index as usize].children = Some((l, r));
    }
    index
}

/// Splits `items` (at least two, their centroids' box `centres`) in two, in place; returns
/// the length of the first part, neither part empty. The cut of least `half-perimeter * count` summed over both parts among
/// the bin boundaries of the centroids along either axis, or the median of the centroids
/// along their longer side when no cut separates them or from [`MEDIAN_DEPTH`] on.
fn split(items: &mut [Item], centres: &Grow, depth: u32) -> usize {
    let extent = [0, 1].map(|axis| centres.hi[axis] - centres.lo[axis]);
    let axis = usize::from(extent[1] > extent[0]);
    if extent[axis] > 0.0
        && depth < MEDIAN_DEPTH
        && items.len() > 2
        && let Some((axis, cut)) = best_cut(items, centres, &extent)
    {
        let m = partition(items, |it| usize::from(it.bin[axis]) <= cut);
        if m > 0 && m < items.len() {
            return m;
        }
    }
    let m = items.len() / 2;
    items.select_nth_unstable_by(m, |a, b| a.centre[axis].total_cmp(&b.centre[axis]));
    m
}

/// The bin (of `bins`) of a centroid at `c` along an axis whose centroids start at `lo`.
#[inline]
fn bin(c: Real, lo: Real, scale: Real, bins: usize) -> usize {
    (((c - lo) * scale) as u32 as usize).min(bins - 1)
}

/// The axis and the last bin of the first part of the cheapest cut (see [`split`]), if some
/// cut leaves items on both sides. A group of fewer items than [`BINS`] has a bin per item.
/// Notes each item's bins.
fn best_cut(items: &mut [Item], centres: &Grow, extent: &[Real; 2]) -> Option<(usize, usize)> {
    let bins = items.len().min(BINS);
    let mut best: Option<(Real, usize, usize)> = None;
    for (axis, &extent) in extent.iter().enumerate() {
        if extent <= 0.0 {
            continue;
        }
        let scale = bins as Real / extent;
        let mut boxes = [Grow::EMPTY; BINS];
        let mut counts = [0usize; BINS];
        for it in items.iter_mut() {
            let b = bin(it.centre[axis], centres.lo[axis], scale, bins);
            it.bin[axis] = b as u8;
            boxes[b].add(it.lo, it.hi);
            counts[b] += 1;
        }
        // The cost of every part made of the last bins, then each cut from the left.
        let mut right_cost = [0.0; BINS];
        let (mut acc, mut count) = (Grow::EMPTY, 0);
        for b in (1..bins).rev() {
            acc.add(boxes[b].lo, boxes[b].hi);
            count += counts[b];
            right_cost[b] = if count > 0 {
                acc.half_perimeter() * count as Real
            } else {
                Real::NAN
            };
        }
        let (mut acc, mut count) = (Grow::EMPTY, 0);
        for cut in 0..bins - 1 {
            acc.add(boxes[cut].lo, boxes[cut].hi);
            count += counts[cut];
            if count == 0 || count == items.len() {
                continue;
            }
            let cost = acc.half_perimeter() * count as Real + right_cost[cut + 1];
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, axis, cut));
            }
        }
    }
    best.map(|(_, axis, cut)| (axis, cut))
}

/// Moves the items that pass `left` to the front, in place; returns how many pass.
fn partition(items: &mut [Item], left: impl Fn(&Item) -> bool) -> usize {
    let (mut i, mut j) = (0, items.len());
    while i < j {
        if left(&items[i]) {
            i += 1;
        } else {
            j -= 1;
            items.swap(i, j);
        }
    }
    i
}

/// The four-wide node of binary node `root` and the nodes under it into `out`, depth
/// first; returns its index. Its lanes: `root`'s two children, the one of largest
/// half-perimeter that is not a leaf replaced by its own two while fewer than four (the
/// first such on ties), in their order in the binary tree.
fn collapse(binary: &[BinNode], root: u32, tree: &mut WideBvh) -> u32 {
    let mut lanes: Vec<u32> = match binary[root as usize].children {
        Some((l, r)) => vec![l, r],
        None => vec![root],
    };
    while lanes.len() < WIDTH {
        let widest = (0..lanes.len())
            .filter(|&i| binary[lanes[i] as usize].children.is_some())
            .max_by(|&a, &b| {
                let (a, b) = (&binary[lanes[a] as usize], &binary[lanes[b] as usize]);
                // Reversed on ties: `max_by` keeps the last of equal ones.
                a.half_perimeter()
                    .total_cmp(&b.half_perimeter())
                    .then(core::cmp::Ordering::Greater)
            });
        let Some(i) = widest else { break };
        let (l, r) = binary[lanes[i] as usize].children.expect("not a leaf");
        lanes[i] = l;
        lanes.insert(i + 1, r);
    }
    let index = tree.nodes.len() as u32;
    tree.nodes.push(Node::EMPTY);
    let mut node = Node::EMPTY;
    for (lane, &b) in lanes.iter().enumerate() {
        let child = &binary[b as usize];
        for axis in 0..2 {
            node.mins[axis][lane] = f32_down(child.lo[axis]);
            node.maxs[axis][lane] = f32_up(child.hi[axis]);
        }
        node.child[lane] = match child.children {
            None => {
                tree.leaves.push(LeafBox {
                    id: ProxyId(child.id),
                    lo: child.lo,
                    hi: child.hi,
                });
                (tree.leaves.len() - 1) as u32 | LEAF
            }
            Some(_) => collapse(binary, b, tree),
        };
    }
    tree.nodes[index as usize] = node;
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounds::Bounds;
    use proptest::prelude::*;

    fn leaves(boxes: &[([Real; 2], [Real; 2])]) -> Vec<Leaf> {
        boxes
            .iter()
            .enumerate()
            .map(|(i, &(lo, hi))| Leaf {
                id: ProxyId(i as u32 * 3 + 1),
                envelope: Bounds::new(lo, hi),
            })
            .collect()
    }

    fn boxes(n: usize) -> impl Strategy<Value = Vec<([Real; 2], [Real; 2])>> {
        let one = (-50.0..50.0, -50.0..50.0, 0.0..6.0, 0.0..6.0, 0..4u8).prop_map(
            |(x, y, w, h, kind): (Real, Real, Real, Real, u8)| {
                // Grid points too, so that centroids and boxes coincide.
                let (x, y) = if kind == 0 {
                    (x.round(), y.round())
                } else {
                    (x, y)
                };
                let (w, h) = if kind == 1 { (0.0, 0.0) } else { (w, h) };
                ([x, y], [x + w, y + h])
            },
        );
        proptest::collection::vec(one, 0..n)
    }

    /// Every leaf is in exactly one lane, its exact box in the leaves, under single-precision
    /// boxes that hold it.
    fn check_structure(bvh: &WideBvh, leaves: &[Leaf]) {
        let mut seen = Vec::new();
        let mut stack = vec![0u32];
        let holds = |lo: [f32; 2], hi: [f32; 2], inner_lo: [Real; 2], inner_hi: [Real; 2]| {
            (0..2).all(|a| Real::from(lo[a]) <= inner_lo[a] && Real::from(hi[a]) >= inner_hi[a])
        };
        while let Some(i) = stack.pop() {
            let node = &bvh.nodes[i as usize];
            for lane in 0..WIDTH {
                let (lo, hi) = (
                    [node.mins[0][lane], node.mins[1][lane]],
                    [node.maxs[0][lane], node.maxs[1][lane]],
                );
                let child = node.child[lane];
                if child & LEAF != 0 {
                    let l = bvh.leaves[(child & !LEAF) as usize];
                    let given = leaves.iter().find(|g| g.id == l.id).unwrap();
                    assert_eq!(
                        (given.envelope.lower(), given.envelope.upper()),
                        (l.lo, l.hi)
                    );
                    assert!(holds(lo, hi, l.lo, l.hi));
                    seen.push(l.id.0);
                } else if lo[0] <= hi[0] {
                    let inner = &bvh.nodes[child as usize];
                    for c in 0..WIDTH {
                        if inner.mins[0][c] <= inner.maxs[0][c] {
                            let c_lo = [inner.mins[0][c], inner.mins[1][c]].map(Real::from);
                            let c_hi = [inner.maxs[0][c], inner.maxs[1][c]].map(Real::from);
                            assert!(holds(lo, hi, c_lo, c_hi));
                        }
                    }
                    stack.push(child);
                }
            }
        }
        seen.sort_unstable();
        let mut want: Vec<u32> = leaves.iter().map(|l| l.id.0).collect();
        want.sort_unstable();
        assert_eq!(seen, want);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The search visits exactly the leaves a brute-force scan finds entered no later
        /// than the end, with the same entries to the bit, each once; clipped, every leaf
        /// entered no later than the final end is visited.
        #[test]
        fn search_matches_brute_force(
            boxes in boxes(300),
            start in (-60.0..60.0, -60.0..60.0, 0.0..3.0, 0.0..3.0),
            d in (-80.0..80.0, -80.0..80.0, 0..3u8),
            clip in 0.0..1.2,
        ) {
            let leaves = leaves(&boxes);
            let bvh = WideBvh::build(leaves.iter()).unwrap();
            if !leaves.is_empty() {
                check_structure(&bvh, &leaves);
            }
            let (x, y, w, h) = start;
            let start = impact_geometry::Aabb::new(
                impact_geometry::Point::new(x, y),
                impact_geometry::Point::new(x + w, y + h),
            );
            let d = match d.2 {
                0 => impact_geometry::Vector::new(d.0, 0.0),
                1 => impact_geometry::Vector::new(0.0, d.1),
                _ => impact_geometry::Vector::new(d.0, d.1),
            };
            let sweep = SweptBox::new(&start, &d);
            let lanes = SweptBoxF32::new(&sweep).unwrap();
            let mut want: Vec<(u32, u64)> = leaves
                .iter()
                .filter_map(|l| {
                    let t = sweep.first_touch(l.envelope.lower(), l.envelope.upper());
                    (t <= 1.0).then_some((l.id.0, t.to_bits()))
                })
                .collect();
            want.sort_unstable();
            let mut got = Vec::new();
            let mut end = 1.0;
            bvh.search(&sweep, &lanes, &mut end, &mut |id, t, _| {
                got.push((id.0, t.to_bits()));
                true
            });
            got.sort_unstable();
            prop_assert_eq!(&got, &want);

            // Clipped at each visit to `clip` times the entry (past 1: not clipped).
            let mut seen = Vec::new();
            let mut end = 1.0;
            bvh.search(&sweep, &lanes, &mut end, &mut |id, t, end| {
                assert!(t <= *end, "{id:?} entered at {t}, after the end {end}");
                seen.push(id.0);
                *end = end.min(t * clip);
                true
            });
            let n = seen.len();
            seen.sort_unstable();
            seen.dedup();
            prop_assert_eq!(seen.len(), n, "visited twice");
            for &(id, t) in &want {
                if Real::from_bits(t) <= end {
                    prop_assert!(seen.contains(&id), "{} entered at {} <= {}", id, Real::from_bits(t), end);
                }
            }
        }
    }

    /// A tree deeper than the stack holds (a chain of boxes in a row, each half the last
    /// one's width from the median depth on) is searched whole.
    #[test]
    fn a_deep_tree_is_searched_whole() {
        let boxes: Vec<([Real; 2], [Real; 2])> = (0..2000)
            .map(|i| {
                let x = Real::powi(1.5, i % 60) + Real::from(i / 60);
                ([x, 0.0], [x, 1.0])
            })
            .collect();
        let leaves = leaves(&boxes);
        let bvh = WideBvh::build(leaves.iter()).unwrap();
        check_structure(&bvh, &leaves);
        fn depth(bvh: &WideBvh, i: u32) -> usize {
            let node = &bvh.nodes[i as usize];
            (0..WIDTH)
                .filter(|&lane| {
                    node.child[lane] & LEAF == 0 && node.mins[0][lane] <= node.maxs[0][lane]
                })
                .map(|lane| depth(bvh, node.child[lane]))
                .max()
                .unwrap_or(0)
                + 1
        }
        assert!(
            3 * depth(&bvh, 0) > STACK,
            "not deep enough: {}",
            depth(&bvh, 0)
        );
        let sweep = SweptBox::new(
            &impact_geometry::Aabb::new(
                impact_geometry::Point::new(-1.0, 0.5),
                impact_geometry::Point::new(-1.0, 0.5),
            ),
            &impact_geometry::Vector::new(1e18, 0.0),
        );
        let mut n = 0;
        let lanes = SweptBoxF32::new(&sweep).unwrap();
        bvh.search(&sweep, &lanes, &mut 1.0, &mut |_, _, _| {
            n += 1;
            true
        });
        assert_eq!(n, leaves.len());
    }
}
