//! The seam between the stage loop and the constraint rows it drives: [`RowKind`], what each
//! kind of row does at each stage, and [`RowKinds`], the list of kinds in the order every
//! stage visits them.
//!
//! The loop (`solver.rs`) knows the stages and the bodies; a kind of row knows its own
//! constraints, how to lay them out for the sweeps and what it keeps from step to step.
//! There are two kinds: the joints ([`JointRows`]) and the contacts ([`ContactRows`]), in
//! that order at every stage (as Box2D v3 solves joints before contacts, so that the
//! contacts, solved last, have the final say on overlap). Both add their bodies to the same
//! [`BodyTable`](super::bodies::BodyTable); a step without joints runs the contacts'
//! arithmetic unchanged.

use super::bodies::{BodyState, Motion, SolverBody};
use crate::body_set::BodySet;
use crate::contact::ContactRows;
use crate::joint::JointRows;
use crate::settings::SolverSettings;
use impact_geometry::{Real, Vector};

/// What a stage tells the rows: the step's constants and where the bodies are.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stage<'a> {
    /// The settings the solver was prepared with.
    pub(crate) settings: &'a SolverSettings,
    /// The step (seconds).
    pub(crate) dt: Real,
    /// The substep (seconds) and its inverse.
    pub(crate) h: Real,
    pub(crate) inv_h: Real,
    /// The bodies' poses and motion since preparation, indexed like the velocities.
    pub(crate) states: &'a [BodyState],
    /// The bodies' motion since preparation alone, compact (see [`Motion`]).
    pub(crate) motion: &'a [Motion],
    /// The body set the solver was prepared from, with every body of `states` in it (the
    /// shapes, for rows that measure distances).
    pub(crate) bodies: &'a BodySet,
}

/// One kind of constraint row, as the stage loop drives it. Every method but
/// [`RowKind::restitution`] is called for every kind at every stage, in the order of
/// [`RowKinds::each`]; `velocities` is the body table's, which every kind indexes alike.
///
/// A stage of the whole step, substep by substep: `warm_start`, `begin_solve`, `iterate`
/// with the bias (`velocity_iterations` times), the bodies move, `bodies_moved`, `iterate`
/// without it (`relax_iterations` times); then `store` and `restitution` once. The staged
/// API (`ContactSolver::warm_start` and the others) calls `bodies_gathered` before and
/// `store` after each stage.
pub(crate) trait RowKind {
    /// Empties the rows, keeping their storage.
    fn clear(&mut self);

    /// Re-applies the accumulated impulses at the start of a substep: the previous step's
    /// on the first, the previous substep's afterwards. `motion` is the bodies' motion since
    /// preparation, for rows whose lever arms turn with the bodies.
    fn warm_start(&mut self, velocities: &mut [SolverBody], motion: &[Motion]);

    /// Once per solve stage, before its first biased iteration.
    fn begin_solve(&mut self, stage: &Stage<'_>);

    /// One Gauss-Seidel iteration over the rows: with the position bias (`use_bias`, the
    /// solve) or without it (the relax, after the bodies moved).
    fn iterate(&mut self, velocities: &mut [SolverBody], stage: &Stage<'_>, use_bias: bool);

    /// The bodies were moved by the solver itself: `states` holds their new motion since
    /// preparation, and `motion` the same motion alone.
    fn bodies_moved(&mut self, states: &[BodyState], motion: &[Motion]);

    /// The bodies were read afresh from the body set (at the start of the whole step, or of
    /// a staged call): they may or may not have moved since the rows last saw them. Every
    /// stage follows one of these two calls, so a kind may keep what depends only on where
    /// the bodies are from one to the next.
    fn bodies_gathered(&mut self, states: &[BodyState], motion: &[Motion]);

    /// The end of a stage: what the sweeps hold in their own layout back where the public
    /// accessors (and the restitution pass) read it.
    fn store(&mut self);

    /// The restitution stage, once at the end of the step, after `store`: `gravity` is what
    /// the step integrated. Rows that do not bounce do nothing.
    fn restitution(&mut self, velocities: &mut [SolverBody], stage: &Stage<'_>, gravity: &Vector) {
        let _ = (velocities, stage, gravity);
    }
}

/// The kinds of rows of a solver, each with its storage.
#[derive(Debug, Clone, Default)]
pub(crate) struct RowKinds {
    pub(crate) joints: JointRows,
    pub(crate) contacts: ContactRows,
}

impl RowKinds {
    /// Every kind, in the order each stage visits them.
    #[inline]
    pub(crate) fn each(&mut self) -> [&mut dyn RowKind; 2] {
        [&mut self.joints, &mut self.contacts]
    }
}
