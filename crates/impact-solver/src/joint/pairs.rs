//! [`JointPairs`]: the pairs of bodies that joints keep from colliding.

use super::set::{Joint, JointSet};
use crate::body_set::BodyHandle;

/// The pairs of bodies that joints keep from colliding: those of every joint whose
/// `collide_connected` is off ([`JointDef::collide_connected`](super::JointDef::collide_connected)),
/// in either order, for the broadphase's pair filter. Kept beside a [`JointSet`] (built from
/// one with [`JointPairs::of`], then told of each joint added or removed), so that the
/// filter can be read while the solver writes the joints' impulses.
///
/// Each pair is listed under the slot of its smaller body, as Box2D keeps a body's joint
/// edges: a question about a body without such a joint is answered by one look at its slot,
/// and one about a jointed body by a scan of its few pairs, with no hashing.
#[derive(Debug, Clone, Default)]
pub struct JointPairs {
    /// By the slot ([`BodyHandle::index`]) of the smaller body of each pair: the pair
    /// (smaller handle first) and how many joints with `collide_connected` off join it.
    by_slot: Vec<Vec<(BodyHandle, BodyHandle, u32)>>,
    /// How many pairs are listed.
    len: usize,
}

impl JointPairs {
    /// The pairs of every joint of `joints`.
    pub fn of(joints: &JointSet) -> Self {
        let mut pairs = Self::default();
        for (_, joint) in joints.iter() {
            pairs.insert(joint);
        }
        pairs
    }

    /// Counts `joint` (nothing if its `collide_connected` is on).
    pub fn insert(&mut self, joint: &Joint) {
        if joint.collide_connected() {
            return;
        }
        let (a, b) = ordered_pair(joint.body_a(), joint.body_b());
        let slot = a.index as usize;
        if self.by_slot.len() <= slot {
            self.by_slot.resize_with(slot + 1, Vec::new);
        }
        let list = &mut self.by_slot[slot];
        if let Some(entry) = list.iter_mut().find(|e| (e.0, e.1) == (a, b)) {
            entry.2 += 1;
        } else {
            list.push((a, b, 1));
            self.len += 1;
        }
    }

    /// Forgets `joint`, counted before by [`JointPairs::insert`].
    pub fn remove(&mut self, joint: &Joint) {
        if joint.collide_connected() {
            return;
        }
        let (a, b) = ordered_pair(joint.body_a(), joint.body_b());
        let Some(list) = self.by_slot.get_mut(a.index as usize) else {
            return;
        };
        if let Some(i) = list.iter().position(|e| (e.0, e.1) == (a, b)) {
            list[i].2 -= 1;
            if list[i].2 == 0 {
                list.swap_remove(i);
                self.len -= 1;
            }
        }
    }

    /// Whether a joint keeps `a` and `b` from colliding (in either order).
    #[inline]
    pub fn keeps_apart(&self, a: BodyHandle, b: BodyHandle) -> bool {
        let (a, b) = ordered_pair(a, b);
        self.by_slot
            .get(a.index as usize)
            .is_some_and(|list| list.iter().any(|e| (e.0, e.1) == (a, b)))
    }

    /// Whether no joint keeps any pair apart.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every pair kept apart with its count of joints, smaller handle first, in no
    /// particular order.
    fn entries(&self) -> impl Iterator<Item = &(BodyHandle, BodyHandle, u32)> {
        self.by_slot.iter().flatten()
    }
}

/// Equal when the same pairs are kept apart by the same counts of joints, whatever the order
/// the joints were told in.
impl PartialEq for JointPairs {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len
            && self.entries().all(|&(a, b, n)| {
                other
                    .by_slot
                    .get(a.index as usize)
                    .is_some_and(|list| list.contains(&(a, b, n)))
            })
    }
}

/// A pair of bodies, smaller handle first.
fn ordered_pair(a: BodyHandle, b: BodyHandle) -> (BodyHandle, BodyHandle) {
    if a <= b { (a, b) } else { (b, a) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodySet, JointDef, RevoluteJoint, RigidBodyDef};
    use impact_geometry::Circle;
    use proptest::prelude::*;

    /// A joint made (between bodies `a` and `b`, colliding or not) or the `n`-th joint
    /// (modulo the set's length) removed.
    #[derive(Debug, Clone)]
    enum Change {
        Insert(usize, usize, bool),
        Remove(usize),
    }

    fn change() -> impl Strategy<Value = Change> {
        prop_oneof![
            2 => (0..7usize, 0..7usize, any::<bool>()).prop_map(|(a, b, c)| Change::Insert(a, b, c)),
            1 => any::<usize>().prop_map(Change::Remove),
        ]
    }

    proptest! {
        /// Pairs told of every joint made and removed keep apart exactly the pairs of bodies
        /// some joint of the set with `collide_connected` off joins, in either order, equal
        /// the pairs made from the set, and are empty exactly when no such joint is left.
        #[test]
        fn told_pairs_are_the_pairs_of_the_joints(
            changes in prop::collection::vec(change(), 1..60),
        ) {
            let mut bodies = BodySet::new();
            let body: Vec<BodyHandle> = (0..7)
                .map(|_| {
                    let def = RigidBodyDef::new(Circle::new(0.5).expect("radius").into());
                    bodies.insert(def).expect("a valid body")
                })
                .collect();
            let mut joints = JointSet::new();
            let mut pairs = JointPairs::default();
            for change in &changes {
                match *change {
                    Change::Insert(a, b, collide) if a != b => {
                        let def = JointDef::new(body[a], body[b], RevoluteJoint::default().into())
                            .collide_connected(collide);
                        let handle = joints.insert(&bodies, def).expect("a valid joint");
                        pairs.insert(joints.get(handle).expect("live"));
                    }
                    Change::Remove(n) if !joints.is_empty() => {
                        let handles: Vec<_> = joints.iter().map(|(h, _)| h).collect();
                        let joint = joints.remove(handles[n % handles.len()]).expect("live");
                        pairs.remove(&joint);
                    }
                    _ => {}
                }
                let joined = |x: BodyHandle, y: BodyHandle| {
                    joints.iter().any(|(_, j)| {
                        !j.collide_connected()
                            && ((j.body_a(), j.body_b()) == (x, y)
                                || (j.body_a(), j.body_b()) == (y, x))
                    })
                };
                for &x in &body {
                    for &y in &body {
                        prop_assert_eq!(pairs.keeps_apart(x, y), joined(x, y));
                    }
                }
                prop_assert_eq!(&pairs, &JointPairs::of(&joints));
                prop_assert_eq!(
                    pairs.is_empty(),
                    joints.iter().all(|(_, j)| j.collide_connected())
                );
            }
        }
    }
}
