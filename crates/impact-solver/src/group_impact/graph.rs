//! [`JointGraph`]: which joints a group search follows from each body.

use super::rows;
use crate::body_set::BodyHandle;
use crate::joint::{Joint, JointHandle, JointSet};

/// The joints of each body: which joints a group search follows from a body, built once
/// from a [`JointSet`] and rebuilt whenever joints are added or removed.
#[derive(Debug, Clone, Default)]
pub struct JointGraph {
    /// By body slot ([`BodyHandle::index`]): the joints with that body, in slot order.
    by_body: Vec<Vec<JointHandle>>,
}

impl JointGraph {
    /// The graph of `joints`.
    pub fn of(joints: &JointSet) -> Self {
        let mut graph = Self::default();
        graph.rebuild(joints);
        graph
    }

    /// Makes the graph that of `joints`, keeping its storage.
    pub fn rebuild(&mut self, joints: &JointSet) {
        for list in &mut self.by_body {
            list.clear();
        }
        for (handle, joint) in joints.iter() {
            for body in [joint.body_a(), joint.body_b()] {
                let slot = body.index as usize;
                if self.by_body.len() <= slot {
                    self.by_body.resize_with(slot + 1, Vec::new);
                }
                self.by_body[slot].push(handle);
            }
        }
    }

    /// The joints of the body in slot `body.index`, in slot order (empty for a body without
    /// joints). A stale handle's slot answers for the body now in it.
    pub fn joints_of(&self, body: BodyHandle) -> &[JointHandle] {
        self.by_body
            .get(body.index as usize)
            .map_or(&[], Vec::as_slice)
    }

    /// Whether no body has a joint.
    pub fn is_empty(&self) -> bool {
        self.by_body.iter().all(Vec::is_empty)
    }

    /// Whether `body` has an enabled joint of `joints` (the set the graph was built from)
    /// that can hold it rigidly: one a group search goes through (see
    /// [`GroupImpactSolver::gather`](super::GroupImpactSolver::gather)).
    pub fn holds_rigidly(&self, joints: &JointSet, body: BodyHandle) -> bool {
        self.joints_of(body).iter().any(|&h| {
            joints
                .get(h)
                .is_some_and(|j| (j.body_a() == body || j.body_b() == body) && Self::binds(j))
        })
    }

    /// Whether a group search goes through `joint`: it is enabled and of a kind that can hold
    /// its bodies rigidly at some instant (a limit not at its bound and a slack rope count;
    /// a soft weld, a distance spring without limits, a motor joint and a mouse joint do not).
    pub fn binds(joint: &Joint) -> bool {
        joint.is_enabled() && rows::may_bind(joint.kind())
    }
}
