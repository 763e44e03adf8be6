//! The queries of [`RTreeBroadphase`] (box, swept box, ray): both trees walked with a test
//! that prunes every subtree the query misses, the settled tree's stale entries skipped, and
//! the fat boxes of the leaves found tested last, since a tree box only holds its fat box.

use super::tree::visit;
use super::{RTreeBroadphase, State};
use crate::ProxyId;
use crate::bounds::Bounds;
use crate::swept::SweptBox;

impl RTreeBroadphase {
    /// Calls `found` for every present proxy whose tree box passes `test` (monotone, see
    /// [`visit`]), in no particular order.
    pub(super) fn visit_all<T, F>(&self, test: &T, found: &mut F)
    where
        T: Fn(&Bounds) -> bool,
        F: FnMut(ProxyId),
    {
        for root in self.moving.roots() {
            visit(root, test, found);
        }
        let state = &self.state;
        visit(self.settled.root(), test, &mut |id| {
            if state[id.index()].has(State::SETTLED) {
                found(id);
            }
        });
    }

    /// The proxies whose fat boxes the moving box reaches, sorted, pruning every subtree
    /// whose envelope it misses (the swept and ray queries differ only in the box).
    pub(super) fn query_sweep(&self, sweep: &SweptBox, out: &mut Vec<ProxyId>) {
        self.visit_all(&|e| sweep.hits(e.lower(), e.upper()), &mut |id| {
            // The tree box holds the fat box: test the fat box itself.
            if sweep.hits_aabb(self.table.get(id).expect("present")) {
                out.push(id);
            }
        });
        out.sort_unstable();
    }
}
