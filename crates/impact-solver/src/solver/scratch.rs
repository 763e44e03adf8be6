//! [`SolverScratch`]: the solver's storage, kept by the caller from step to step.
//!
//! A solver lives for one step, and its arrays are as large as the step's rows (a contact
//! constraint is a few hundred bytes, a packed chunk most of a kilobyte). Allocated afresh
//! every step, they take the step's allocations past the allocator's trim threshold, and
//! every step page-faults its memory back in: a large share of a step of a pyramid of boxes
//! or of a rain of discs. A caller that steps many times keeps a [`SolverScratch`] and builds
//! each step's solver in it ([`ContactSolver::new_in`], [`solve_step_in`]), then hands the
//! storage back ([`ContactSolver::recycle`]).
//!
//! Only capacity is kept: every array is emptied when a solver takes it and every element is
//! written before it is read, so nothing of a previous step can reach the results.

use super::bodies::BodyTable;
use super::rows::RowKinds;
#[cfg(doc)]
use super::{ContactSolver, solve_step_in};

/// Storage for [`ContactSolver`], kept from step to step so that a solver does not allocate
/// its arrays anew every step.
///
/// It holds no state: a solver built in it ([`ContactSolver::new_in`]) gives the same
/// results bit for bit as one built with [`ContactSolver::new`], which allocates. A clone
/// is empty, since only the capacity is worth keeping.
///
/// ```
/// use impact_geometry::{Circle, Isometry, Vector};
/// use impact_solver::{BodySet, ContactCache, RigidBodyDef, SolverScratch, SolverSettings,
///                     solve_step_in};
///
/// let mut bodies = BodySet::new();
/// let ball = RigidBodyDef::new(Circle::new(0.5)?.into()).pose(Isometry::translation(0.0, 1.0));
/// bodies.insert(ball)?;
/// let (mut cache, mut scratch) = (ContactCache::new(), SolverScratch::new());
/// for _ in 0..60 {
///     // No contacts here; a world passes the step's manifolds.
///     let solver = solve_step_in(&mut bodies, &[], &mut cache, Vector::new(0.0, -10.0),
///                                &SolverSettings::default(), 1.0 / 60.0, &mut scratch)?;
///     solver.recycle(&mut scratch);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct SolverScratch {
    table: BodyTable,
    rows: RowKinds,
}

impl SolverScratch {
    /// Empty storage: the first solver built in it allocates.
    pub fn new() -> Self {
        Self::default()
    }

    /// The storage, emptied, for a solver to fill; `self` is left without storage until
    /// [`SolverScratch::keep`] gives it back.
    pub(crate) fn take(&mut self) -> (BodyTable, RowKinds) {
        let Self {
            mut table,
            mut rows,
        } = core::mem::take(self);
        table.clear();
        for kind in rows.each() {
            kind.clear();
        }
        (table, rows)
    }

    /// Keeps the storage of a solver that is done.
    pub(crate) fn keep(&mut self, table: BodyTable, rows: RowKinds) {
        *self = Self { table, rows };
    }
}

impl Clone for SolverScratch {
    /// An empty scratch: only the capacity is worth keeping, and a clone need not have it.
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl core::fmt::Debug for SolverScratch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SolverScratch")
            .field("bodies_capacity", &self.table.states.capacity())
            .field("contacts_capacity", &self.rows.contacts.capacity())
            .finish()
    }
}
