//! [`BoxTree`]: a bounding volume hierarchy over boxes fixed in one frame (a body's shapes
//! in its body frame), asked with that frame at any pose which of them may meet a box of
//! the world.
//!
//! A body of many shapes (static ground of thousands of squares, a chain of hundreds of
//! segments) is asked for its shapes near another body at every pair a step looks at; a
//! walk over every shape then costs as much as the body has shapes, for each of those pairs.
//! The tree answers in about the logarithm of the count plus what it finds.

use crate::{Aabb, Isometry, Point, Real, Vector};

/// Boxes per leaf, at most.
const LEAF: usize = 4;

/// The pad, relative to the coordinates' size, by which a node's box turned into the world
/// is grown: far above the rounding of turning it, so the answer holds every box that meets
/// the region once computed in the world frame directly ([`Aabb::still`] included).
const TURN_PAD: Real = 1e-9;

/// A bounding volume hierarchy over a fixed list of boxes in one frame (a body's shapes in
/// its body frame), asked with that frame at any pose which of them may meet a box of the
/// world: built once, top down, each node split at the median of its boxes' centres along
/// the longer side of their bounds; a query takes about the logarithm of the count plus what
/// it finds.
///
/// ```
/// use impact_geometry::{Aabb, BoxTree, Isometry, Point, Vector};
///
/// let boxes: Vec<Aabb> = (0..100)
///     .map(|i| Aabb::new(Point::new(i as f64, 0.0), Point::new(i as f64 + 0.5, 0.5)))
///     .collect();
/// let tree = BoxTree::new(&boxes);
/// // The frame moved up by 10: boxes 40 and 41 meet the region, and few others come back.
/// let pose = Isometry::new(Vector::new(0.0, 10.0), 0.0);
/// let region = Aabb::new(Point::new(40.2, 10.2), Point::new(41.2, 10.3));
/// let mut found = Vec::new();
/// tree.query(&pose, &region, &mut found);
/// assert!(found.contains(&40) && found.contains(&41) && found.len() <= 8);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BoxTree {
    /// Depth first: an inner node's first child follows it.
    nodes: Vec<Node>,
    /// The boxes' places in the list built from, leaf by leaf.
    order: Vec<u32>,
}

/// A node: its box and either its leaf's places (`order[start..start + count]`) or, with
/// `count` 0, its second child at `start`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Node {
    aabb: Aabb,
    start: u32,
    count: u32,
}

impl BoxTree {
    /// The tree over `boxes` (in their own frame), their places `0..boxes.len()`.
    pub fn new(boxes: &[Aabb]) -> Self {
        let mut tree = Self {
            nodes: Vec::with_capacity(2 * boxes.len() / LEAF + 1),
            order: (0..boxes.len() as u32).collect(),
        };
        if !boxes.is_empty() {
            let mut order = core::mem::take(&mut tree.order);
            tree.build(boxes, &mut order, 0);
            tree.order = order;
        }
        tree
    }

    /// Whether the tree holds no box.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Builds the subtree over `items` (places, `offset` their start in the order) and
    /// returns its node.
    fn build(&mut self, boxes: &[Aabb], items: &mut [u32], offset: usize) -> usize {
        let aabb = items
            .iter()
            .map(|&i| boxes[i as usize])
            .reduce(|a, b| a.merged(&b))
            .expect("a subtree has a box");
        let node = self.nodes.len();
        self.nodes.push(Node {
            aabb,
            start: offset as u32,
            count: items.len() as u32,
        });
        if items.len() <= LEAF {
            return node;
        }
        let centres = Aabb::from_points(items.iter().map(|&i| boxes[i as usize].center()));
        let extent = centres.maxs - centres.mins;
        let axis = usize::from(extent.y > extent.x);
        let half = items.len() / 2;
        items.select_nth_unstable_by(half, |&a, &b| {
            let (ca, cb) = (boxes[a as usize].center(), boxes[b as usize].center());
            ca[axis].total_cmp(&cb[axis]).then(a.cmp(&b))
        });
        let (left, right) = items.split_at_mut(half);
        self.build(boxes, left, offset);
        let second = self.build(boxes, right, offset + half);
        self.nodes[node].start = second as u32;
        self.nodes[node].count = 0;
        node
    }

    /// Appends to `out`, in increasing order, the places of the boxes that may meet `region`
    /// (world) with their frame at `pose`: every box whose turned image's bounding box meets
    /// `region` is among them (a node is tested by the bounding box of its turned box, grown
    /// by a billionth of its size), and others near it may be.
    pub fn query(&self, pose: &Isometry, region: &Aabb, out: &mut Vec<u32>) {
        if self.nodes.is_empty() {
            return;
        }
        let from = out.len();
        let (cos, sin) = (pose.rotation.cos_angle(), pose.rotation.sin_angle());
        let (ac, as_) = (cos.abs(), sin.abs());
        let mut stack = [0u32; 64];
        let mut depth = 1;
        while depth > 0 {
            depth -= 1;
            let index = stack[depth] as usize;
            let node = &self.nodes[index];
            let (c, h) = (node.aabb.center(), node.aabb.half_extents());
            let centre: Point = pose * c;
            let half = Vector::new(ac * h.x + as_ * h.y, as_ * h.x + ac * h.y);
            let pad = TURN_PAD * (centre.coords.abs().max() + half.max());
            let half = half + Vector::new(pad, pad);
            if !Aabb::new(centre - half, centre + half).intersects(region) {
                continue;
            }
            if node.count > 0 {
                let (start, count) = (node.start as usize, node.count as usize);
                out.extend_from_slice(&self.order[start..start + count]);
            } else {
                stack[depth] = node.start;
                stack[depth + 1] = index as u32 + 1;
                depth += 2;
            }
        }
        out[from..].sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Random boxes at a random pose, and a random region: the query holds every box
        /// whose turned box meets the region (the brute force), in increasing order, each
        /// once.
        #[test]
        fn the_query_holds_every_box_that_meets_the_region(
            boxes in prop::collection::vec((-50.0..50.0, -50.0..50.0, 0.0..3.0, 0.0..3.0), 0..300),
            (x, y, angle) in (-100.0..100.0, -100.0..100.0, -4.0..4.0),
            (rx, ry, rw, rh) in (-120.0..120.0, -120.0..120.0, 0.0..40.0, 0.0..40.0),
        ) {
            let boxes: Vec<Aabb> = boxes
                .iter()
                .map(|&(x, y, w, h)| Aabb::new(Point::new(x, y), Point::new(x + w, y + h)))
                .collect();
            let tree = BoxTree::new(&boxes);
            let pose = Isometry::new(Vector::new(x, y), angle);
            let region = Aabb::new(Point::new(rx, ry), Point::new(rx + rw, ry + rh));
            let mut found = Vec::new();
            tree.query(&pose, &region, &mut found);
            prop_assert!(found.windows(2).all(|w| w[0] < w[1]), "{found:?}");
            for (i, b) in boxes.iter().enumerate() {
                let corners = [
                    b.mins,
                    Point::new(b.maxs.x, b.mins.y),
                    b.maxs,
                    Point::new(b.mins.x, b.maxs.y),
                ];
                let turned = Aabb::from_points(corners.map(|p| pose * p));
                if turned.intersects(&region) {
                    prop_assert!(found.binary_search(&(i as u32)).is_ok(), "box {i} missed");
                }
            }
        }
    }

    /// A row of 2,505 unit boxes: a region over three of them finds those three and few
    /// others, and the empty tree finds nothing.
    #[test]
    fn a_small_region_finds_few_boxes() {
        let boxes: Vec<Aabb> = (0..2505)
            .map(|i| {
                let x = i as Real;
                Aabb::new(Point::new(x, 0.0), Point::new(x + 0.5, 0.5))
            })
            .collect();
        let tree = BoxTree::new(&boxes);
        let mut found = Vec::new();
        let region = Aabb::new(Point::new(1000.2, 0.2), Point::new(1002.2, 0.3));
        tree.query(&Isometry::identity(), &region, &mut found);
        assert!([1000, 1001, 1002].iter().all(|i| found.contains(i)));
        assert!(found.len() <= 2 * LEAF, "{found:?}");
        let mut none = Vec::new();
        BoxTree::new(&[]).query(&Isometry::identity(), &region, &mut none);
        assert!(none.is_empty() && BoxTree::default().is_empty());
    }
}
