//! What a step of [`FirstTimeOfImpact`](super::FirstTimeOfImpact) needs of the joints before
//! it plans (see [`groups`](super::groups)): the joint graph, the bodies enabled rigid joints
//! hold, and the bodies of the joints that drive or carry. All of it depends only on a few
//! facts of each joint (its handle, its bodies, and four flags), so it is kept from step to
//! step: while the set's [`stamp`](JointSet::stamp) is the one the notes were made at, the
//! definitions are the same and nothing is asked; when it changed, one pass compares the facts
//! exactly (a motor's speed changed through `get_mut` may leave every fact as it was) and the
//! notes are made again only if they differ. A grid of 19,800 revolute joints is otherwise
//! rebuilt, graph and all, every step.

use crate::motion::{drives, unstoppable};
use impact_solver::{BodyHandle, Joint, JointGraph, JointHandle, JointSet};

/// The joint is enabled.
const ENABLED: u8 = 1;
/// A group search goes through it ([`JointGraph::binds`]).
const BINDS: u8 = 2;
/// Enabled, and a spring or a motor of it drives its bodies ([`drives`]).
const DRIVES: u8 = 4;
/// Enabled, and a motor of unlimited torque or force ([`unstoppable`]).
const UNSTOPPABLE: u8 = 8;

/// The facts of one joint the notes are made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct JointKey {
    handle: JointHandle,
    a: BodyHandle,
    b: BodyHandle,
    flags: u8,
}

impl JointKey {
    fn of(handle: JointHandle, joint: &Joint) -> Self {
        let mut flags = 0;
        if joint.is_enabled() {
            flags |= ENABLED;
            if drives(joint) {
                flags |= DRIVES;
            }
            if unstoppable(joint) {
                flags |= UNSTOPPABLE;
            }
        }
        if JointGraph::binds(joint) {
            flags |= BINDS;
        }
        Self {
            handle,
            a: joint.body_a(),
            b: joint.body_b(),
            flags,
        }
    }
}

/// The joints' notes, made from the keys of the set they were last brought to.
#[derive(Debug, Clone, Default)]
pub(super) struct JointNotes {
    /// The stamp of the set the notes were last brought to (`None`: never).
    stamp: Option<u64>,
    /// The key of every joint, in slot order.
    key: Vec<JointKey>,
    /// The joints of each body.
    pub(super) graph: JointGraph,
    /// The bodies an enabled joint that binds holds ([`JointGraph::holds_rigidly`]), each
    /// once, in the order of their first joint.
    held: Vec<BodyHandle>,
    /// The bodies of enabled joints a spring or a motor drives, as the joints list them.
    drivers: Vec<BodyHandle>,
    /// The bodies of enabled motors of unlimited torque or force, as the joints list them.
    unstoppable: Vec<BodyHandle>,
}

impl JointNotes {
    /// Brings the notes to `joints`; whether they were made again.
    pub(super) fn refresh(&mut self, joints: &JointSet) -> bool {
        if self.stamp == Some(joints.stamp()) {
            debug_assert!(
                joints
                    .iter()
                    .map(|(handle, joint)| JointKey::of(handle, joint))
                    .eq(self.key.iter().copied()),
                "a joint set changed under its stamp"
            );
            return false;
        }
        self.stamp = Some(joints.stamp());
        let mut same = 0;
        let mut iter = joints.iter();
        let mut differs = false;
        for (handle, joint) in iter.by_ref() {
            let key = JointKey::of(handle, joint);
            if self.key.get(same) == Some(&key) {
                same += 1;
                continue;
            }
            self.key.truncate(same);
            self.key.push(key);
            differs = true;
            break;
        }
        if differs {
            self.key
                .extend(iter.map(|(handle, joint)| JointKey::of(handle, joint)));
        } else if same == self.key.len() {
            return false;
        } else {
            // Joints removed from the end of the set.
            self.key.truncate(same);
        }
        self.remake(joints);
        true
    }

    /// Makes the notes again from `self.key`, the keys of `joints`.
    fn remake(&mut self, joints: &JointSet) {
        self.graph.rebuild(joints);
        self.held.clear();
        self.drivers.clear();
        self.unstoppable.clear();
        let mut noted: Vec<bool> = Vec::new();
        for key in &self.key {
            for body in [key.a, key.b] {
                let slot = body.index as usize;
                if key.flags & BINDS != 0 {
                    if noted.len() <= slot {
                        noted.resize(slot + 1, false);
                    }
                    if !noted[slot] {
                        noted[slot] = true;
                        self.held.push(body);
                    }
                }
                if key.flags & DRIVES != 0 {
                    self.drivers.push(body);
                }
                if key.flags & UNSTOPPABLE != 0 {
                    self.unstoppable.push(body);
                }
            }
        }
    }

    /// The bodies enabled rigid joints hold, each once.
    pub(super) fn held(&self) -> &[BodyHandle] {
        &self.held
    }

    /// The bodies of enabled joints a spring or a motor drives (a body may be listed twice).
    pub(super) fn drivers(&self) -> &[BodyHandle] {
        &self.drivers
    }

    /// The bodies of enabled motors of unlimited torque or force (a body may be listed
    /// twice).
    pub(super) fn unstoppable(&self) -> &[BodyHandle] {
        &self.unstoppable
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::UNLIMITED_MOTOR;
    use impact_geometry::Circle;
    use impact_solver::{
        BodySet, DistanceJoint, JointDef, JointKind, MotorJoint, RevoluteJoint, RigidBodyDef,
        WeldJoint,
    };
    use proptest::prelude::*;

    /// One change to a set of joints between bodies of a small world.
    #[derive(Debug, Clone)]
    enum Change {
        /// A joint of kind `kind` (an index into `kind`) between bodies `a` and `b`.
        Insert(usize, usize, u8),
        /// The joint in the `n`-th place of the set (modulo its length) removed.
        Remove(usize),
        /// The `n`-th joint enabled or disabled.
        Enable(usize, bool),
        /// The `n`-th joint's kind replaced by kind `kind`.
        Kind(usize, u8),
        /// Nothing: the notes must be kept.
        Nothing,
    }

    /// The kinds a change draws from: rigid and free revolutes, a driving and an unlimited
    /// motor, rigid and soft welds, a rope and a spring, a motor joint.
    fn kind(k: u8) -> JointKind {
        let motor = |torque| RevoluteJoint {
            enable_motor: true,
            motor_speed: 2.0,
            max_motor_torque: torque,
            ..RevoluteJoint::default()
        };
        match k % 8 {
            0 => RevoluteJoint::default().into(),
            1 => motor(10.0).into(),
            2 => motor(UNLIMITED_MOTOR).into(),
            3 => WeldJoint::default().into(),
            4 => WeldJoint::soft((5.0, 0.7), (5.0, 0.7)).into(),
            5 => DistanceJoint::default().into(),
            6 => DistanceJoint {
                enable_spring: true,
                spring_hertz: 3.0,
                ..DistanceJoint::default()
            }
            .into(),
            _ => MotorJoint::default().into(),
        }
    }

    fn change() -> impl Strategy<Value = Change> {
        prop_oneof![
            3 => (0..6usize, 0..6usize, any::<u8>()).prop_map(|(a, b, k)| Change::Insert(a, b, k)),
            1 => any::<usize>().prop_map(Change::Remove),
            1 => (any::<usize>(), any::<bool>()).prop_map(|(n, e)| Change::Enable(n, e)),
            1 => (any::<usize>(), any::<u8>()).prop_map(|(n, k)| Change::Kind(n, k)),
            1 => Just(Change::Nothing),
        ]
    }

    fn nth(joints: &JointSet, n: usize) -> Option<JointHandle> {
        let handles: Vec<JointHandle> = joints.iter().map(|(h, _)| h).collect();
        (!handles.is_empty()).then(|| handles[n % handles.len()])
    }

    fn apply(joints: &mut JointSet, bodies: &BodySet, body: &[BodyHandle], change: &Change) {
        match *change {
            Change::Insert(a, b, k) if a != b => {
                let def = JointDef::new(body[a], body[b], kind(k));
                joints.insert(bodies, def).expect("a valid joint");
            }
            Change::Remove(n) => {
                if let Some(h) = nth(joints, n) {
                    joints.remove(h);
                }
            }
            Change::Enable(n, enabled) => {
                if let Some(h) = nth(joints, n) {
                    joints.get_mut(h).expect("live").set_enabled(enabled);
                }
            }
            Change::Kind(n, k) => {
                if let Some(h) = nth(joints, n) {
                    joints
                        .get_mut(h)
                        .expect("live")
                        .set_kind(kind(k))
                        .expect("valid");
                }
            }
            _ => {}
        }
    }

    /// The notes as their definitions give them, from scratch: the bodies the graph says
    /// rigid joints hold, and the bodies of driving and of unlimited joints.
    fn from_scratch(
        joints: &JointSet,
        body: &[BodyHandle],
    ) -> (Vec<BodyHandle>, Vec<BodyHandle>, Vec<BodyHandle>) {
        let graph = JointGraph::of(joints);
        let held = body
            .iter()
            .copied()
            .filter(|&h| graph.holds_rigidly(joints, h))
            .collect();
        let ends = |keep: fn(&Joint) -> bool| {
            joints
                .iter()
                .filter(|(_, j)| j.is_enabled() && keep(j))
                .flat_map(|(_, j)| [j.body_a(), j.body_b()])
                .collect()
        };
        (held, ends(drives), ends(unstoppable))
    }

    proptest! {
        /// Notes kept across any changes are the notes made from scratch, and a set that did
        /// not change keeps them.
        #[test]
        fn kept_notes_are_the_notes_of_the_joints(
            changes in prop::collection::vec(change(), 1..40),
        ) {
            let mut bodies = BodySet::new();
            let body: Vec<BodyHandle> = (0..6)
                .map(|_| {
                    let def = RigidBodyDef::new(Circle::new(0.5).expect("radius").into());
                    bodies.insert(def).expect("a valid body")
                })
                .collect();
            let mut joints = JointSet::new();
            let mut notes = JointNotes::default();
            for change in &changes {
                let before = joints.clone();
                apply(&mut joints, &bodies, &body, change);
                let remade = notes.refresh(&joints);
                let (held, drivers, unlimited) = from_scratch(&joints, &body);
                let mut kept_held = notes.held().to_vec();
                kept_held.sort_by_key(|h| h.index);
                prop_assert_eq!(kept_held, held);
                prop_assert_eq!(notes.drivers(), &drivers[..]);
                prop_assert_eq!(notes.unstoppable(), &unlimited[..]);
                let graph = JointGraph::of(&joints);
                for &h in &body {
                    prop_assert_eq!(notes.graph.joints_of(h), graph.joints_of(h));
                }
                if joints == before {
                    prop_assert!(!remade, "notes made again for an unchanged set");
                }
                prop_assert!(!notes.refresh(&joints), "notes made again on a second look");
            }
        }
    }
}
