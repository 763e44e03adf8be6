//! The solver's stage loop: [`ContactSolver`], which prepares the rows of a step, then
//! warm starts, solves, integrates, relaxes, applies restitution and stores, substep by
//! substep, in Box2D v3's soft-step form (Box2D's `solver.c`, where `contact_solver.c` is
//! our `contact` module).
//!
//! The loop owns the bodies ([`bodies::BodyTable`]: read from the body set once, integrated
//! in compact arrays, written back once) and the step's constants, and calls every kind of
//! constraint row at every stage through [`rows::RowKind`]: the contacts, and joints beside
//! them without a change to the contacts' code (see `rows` for how a kind plugs in).
//!
//! ```text
//! prepare:   the body table and each kind's rows (contacts from the pairs and the cache)
//! per substep of h = dt / substeps:
//!     integrate velocities (gravity, damping)          the body table
//!     warm start                                       every kind
//!     solve: begin, then velocity_iterations sweeps    every kind, with the bias
//!     integrate positions                              the body table; every kind told
//!     relax: relax_iterations sweeps                   every kind, without the bias
//! store                                                every kind
//! restitution                                          every kind (contacts bounce)
//! write back, and move the bodies no row touches       the body table
//! store impulses into the cache                        contacts
//! ```
//!
//! A caller that steps many times keeps a [`SolverScratch`] and builds each step's solver
//! in it ([`ContactSolver::new_in`], [`solve_step_in`]), so the arrays are not allocated
//! anew every step.

pub(crate) mod bodies;
pub(crate) mod colours;
pub(crate) mod rows;
pub(crate) mod schedule;
mod scratch;

pub use scratch::SolverScratch;

use crate::body_set::BodySet;
#[cfg(doc)]
use crate::contact::ConstraintPoint;
use crate::contact::{ContactCache, ContactConstraint, ContactPair};
use crate::error::{SolverError, finite_vector, positive};
use crate::joint::JointSet;
use crate::settings::SolverSettings;
use bodies::{BodyState, BodyTable, Motion};
use impact_geometry::{Real, Vector};
use rows::{RowKinds, Stage};

/// The sequential-impulse contact solver for one step, in Box2D v3's soft-step form.
///
/// Build it with [`ContactSolver::new`] from the manifolds of the step (this prepares the
/// constraints, captures the approach velocities for restitution and loads warm-starting
/// impulses from the cache), then either run the whole step with [`ContactSolver::step`], or
/// drive the stages yourself, as a stepper that moves bodies its own way does:
///
/// ```text
/// for each of settings.substeps substeps of length h = dt / substeps:
///     integrate_velocities(bodies, gravity, h)
///     solver.warm_start(bodies)          // re-apply the accumulated impulses
///     solver.solve_velocities(bodies)    // soft: push overlap out, stop speculative approach
///     integrate_positions(bodies, h)     // or the stepper's own motion (sweeps, clamping)
///     solver.relax_velocities(bodies)    // rigid: remove the push-out velocity
/// solver.apply_restitution(bodies, gravity)
/// solver.store_impulses(cache)
/// ```
///
/// Every stage validates the handles it was prepared with and returns
/// [`SolverError::UnknownBody`] (changing nothing) if a body was removed in between.
/// Constraints are solved in the order of the pairs given to [`ContactSolver::new`]: the
/// sweeps visit them in an order that only reorders constraints without a body in common,
/// which gives the same result bit for bit.
#[derive(Debug, Clone)]
pub struct ContactSolver {
    /// The bodies of the rows.
    table: BodyTable,
    /// The rows, every kind.
    rows: RowKinds,
    constants: Constants,
}

/// What the solver was prepared with, fixed for the step.
#[derive(Debug, Clone, Copy)]
struct Constants {
    settings: SolverSettings,
    dt: Real,
    h: Real,
    inv_h: Real,
}

impl Constants {
    /// What a stage tells the rows, with the bodies at `states` in `bodies`.
    #[inline]
    fn stage<'a>(
        &'a self,
        (states, motion): (&'a [BodyState], &'a [Motion]),
        bodies: &'a BodySet,
    ) -> Stage<'a> {
        Stage {
            settings: &self.settings,
            dt: self.dt,
            h: self.h,
            inv_h: self.inv_h,
            states,
            motion,
            bodies,
        }
    }
}

impl ContactSolver {
    /// Prepares the constraints of `pairs` (in that order) for a step of `dt` seconds.
    ///
    /// Empty manifolds, and pairs where neither body is dynamic, produce no constraint.
    /// Impulses cached for the same (pair, feature) are loaded when
    /// `settings.warm_starting` is on. The solver's arrays are allocated here; a caller
    /// that steps many times builds in a [`SolverScratch`] instead
    /// ([`ContactSolver::new_in`]).
    ///
    /// # Errors
    /// [`SolverError`] naming `settings.*` (see [`SolverSettings::validate`]), `dt` (not
    /// positive and finite), `pairs[i].a` / `pairs[i].b` (stale handle), `pairs[i]` (both
    /// sides the same body), `pairs[i].manifold.normal` (not a finite unit vector) or
    /// `pairs[i].manifold.points[k]` (not finite).
    pub fn new(
        bodies: &BodySet,
        pairs: &[ContactPair],
        cache: &ContactCache,
        settings: &SolverSettings,
        dt: Real,
    ) -> Result<Self, SolverError> {
        Self::new_in(
            bodies,
            pairs,
            cache,
            settings,
            dt,
            &mut SolverScratch::new(),
        )
    }

    /// [`ContactSolver::new`], in the storage of `scratch` rather than in new allocations:
    /// the same solver, bit for bit. Give the storage back with [`ContactSolver::recycle`]
    /// once the solver is done, for the next step's; on error `scratch` keeps it.
    ///
    /// # Errors
    /// As [`ContactSolver::new`].
    pub fn new_in(
        bodies: &BodySet,
        pairs: &[ContactPair],
        cache: &ContactCache,
        settings: &SolverSettings,
        dt: Real,
        scratch: &mut SolverScratch,
    ) -> Result<Self, SolverError> {
        settings.validate()?;
        positive("dt", dt)?;
        let h = dt / Real::from(settings.substeps);
        let inv_h = 1.0 / h;
        let (mut table, mut rows) = scratch.take();
        let prepared =
            rows.contacts
                .prepare(&mut table, bodies, pairs, cache, settings, (h, inv_h));
        if let Err(error) = prepared {
            scratch.keep(table, rows);
            return Err(error);
        }
        Ok(Self {
            table,
            rows,
            constants: Constants {
                settings: *settings,
                dt,
                h,
                inv_h,
            },
        })
    }

    /// Adds the rows of `joints` to the solver: every enabled joint with a dynamic body,
    /// solved before the contacts at every stage (see the `joint` module's documentation).
    /// Call it once, right after building the solver and before its first stage; the
    /// joints' impulses of the last step warm start them when `settings.warm_starting` is
    /// on. Store the step's impulses back with [`ContactSolver::store_joint_impulses`].
    ///
    /// # Errors
    /// [`SolverError::UnknownBody`] naming `joints[i].body_a` / `joints[i].body_b` (`i` the
    /// joint's slot) if a body of a joint is not in `bodies`; the solver keeps no joint then.
    pub fn prepare_joints(
        &mut self,
        bodies: &BodySet,
        joints: &JointSet,
    ) -> Result<(), SolverError> {
        let c = &self.constants;
        self.rows.joints.clear_rows();
        let prepared =
            self.rows
                .joints
                .prepare(&mut self.table, bodies, joints, &c.settings, (c.h, c.inv_h));
        if prepared.is_err() {
            self.rows.joints.clear_rows();
        }
        prepared
    }

    /// How many joints the solver holds rows for.
    #[inline]
    pub fn joint_count(&self) -> usize {
        self.rows.joints.len()
    }

    /// Writes the step's joint impulses back into `joints` (the set given to
    /// [`ContactSolver::prepare_joints`]), for the next step's warm start, with each joint's
    /// reaction force and torque ([`Joint::reaction_force`](crate::Joint::reaction_force)).
    pub fn store_joint_impulses(&self, joints: &mut JointSet) {
        self.rows.joints.store_into(joints, &self.table.motion);
    }

    /// Hands the solver's storage to `scratch`, for the next solver built in it
    /// ([`ContactSolver::new_in`]).
    pub fn recycle(self, scratch: &mut SolverScratch) {
        scratch.keep(self.table, self.rows);
    }

    /// Counts, from here on, the whole normal impulse each contact point applies over the
    /// step ([`ConstraintPoint::total_normal_impulse`], for contact force events). Call it
    /// before [`ContactSolver::step`], or before the first [`ContactSolver::warm_start`] of
    /// a step driven stage by stage; the solver already counts when a constraint has
    /// restitution. It changes no velocity: the count costs about 1% of a step of a
    /// pyramid of boxes, which is why it is asked for.
    pub fn track_total_impulses(&mut self) {
        self.rows.contacts.count_applied();
    }

    /// Whether the solver counts each point's whole normal impulse over the step (see
    /// [`ContactSolver::track_total_impulses`]).
    #[inline]
    pub fn tracks_total_impulses(&self) -> bool {
        self.rows.contacts.counts_applied()
    }

    /// The constraints, in the order of the pairs they came from.
    #[inline]
    pub fn constraints(&self) -> &[ContactConstraint] {
        self.rows.contacts.constraints()
    }

    /// The settings the solver was prepared with.
    #[inline]
    pub fn settings(&self) -> &SolverSettings {
        &self.constants.settings
    }

    /// The step length (seconds).
    #[inline]
    pub fn dt(&self) -> Real {
        self.constants.dt
    }

    /// The substep length `dt / substeps` (seconds): the `h` each stage assumes.
    #[inline]
    pub fn substep(&self) -> Real {
        self.constants.h
    }

    /// The whole soft step for every body of `bodies`: per substep, gravity, warm start,
    /// biased solve, position integration and relax; then restitution. Bodies without
    /// contacts are integrated too. Call [`ContactSolver::store_impulses`] afterwards to warm
    /// start the next step.
    ///
    /// The bodies of the constraints are read once, integrated in the solver's own compact
    /// arrays and written back once at the end. The velocities are bit for bit those of
    /// running the stages below one after the other
    /// ([`integrate_velocities`](crate::integrate_velocities), [`ContactSolver::warm_start`],
    /// ..., [`integrate_positions`](crate::integrate_positions)), which share their arithmetic
    /// with this loop; so are the poses of bodies that a contact pushed. A body that flies
    /// free over a substep (no contact, or none that pushed it) moves along the mean of the
    /// substep's start and end velocities instead of the end one: the exact path of constant
    /// acceleration, so free flight under gravity keeps `y + v_y^2 / (2 |g|)` to rounding,
    /// where semi-implicit Euler would lose `|g| h^2 / 2` of it per substep `h` (a bouncing
    /// ball's apex would sink at every bounce). Bodies a contact pushes move along their
    /// solved velocities, which is what lets a speculative contact stop them at the surface.
    ///
    /// # Errors
    /// [`SolverError`] naming `gravity` (not finite), or `solver.bodies` if a body of a
    /// constraint was removed since preparation; nothing is changed then.
    pub fn step(&mut self, bodies: &mut BodySet, gravity: Vector) -> Result<(), SolverError> {
        finite_vector("gravity", &gravity)?;
        self.gather(bodies)?;
        let _span = tracing::trace_span!(
            "contact_solver",
            constraints = self.constraints().len(),
            substeps = self.constants.settings.substeps
        )
        .entered();
        let h = self.constants.h;
        let dv = gravity * h;
        for _ in 0..self.constants.settings.substeps {
            self.table.integrate_velocities(&dv, h);
            for kind in self.rows.each() {
                kind.warm_start(&mut self.table.velocities, &self.table.motion);
            }
            self.solve(bodies);
            self.table.integrate_positions(h);
            for kind in self.rows.each() {
                kind.bodies_moved(&self.table.states, &self.table.motion);
            }
            self.table.reset_fixed_velocities();
            self.relax(bodies);
        }
        self.table.reset_fixed_velocities();
        self.store();
        self.restitution(bodies, &gravity);
        // Write back the bodies of the rows, then move the others on their own.
        let substeps = self.constants.settings.substeps;
        self.table.finish_step(bodies, &dv, h, substeps);
        Ok(())
    }

    /// Applies the accumulated impulses to the bodies: the previous step's (from the cache)
    /// on the first substep, the previous substep's afterwards.
    ///
    /// # Errors
    /// [`SolverError::UnknownBody`] if a body was removed since preparation.
    pub fn warm_start(&mut self, bodies: &mut BodySet) -> Result<(), SolverError> {
        self.gather(bodies)?;
        for kind in self.rows.each() {
            kind.warm_start(&mut self.table.velocities, &self.table.motion);
        }
        self.table.scatter(bodies);
        self.store();
        Ok(())
    }

    /// Runs `settings.velocity_iterations` iterations with the soft position bias: overlap is
    /// pushed out (at most `max_push_out_velocity`), speculative contacts let the bodies
    /// close the gap and no more, friction is clamped to the cone. A point's normal impulse
    /// rises only while its bodies are within the linear slop of each other or come within it
    /// over the next substep at their current velocities (see the crate documentation).
    ///
    /// Before the first iteration, contacts that have not pushed yet this step count one
    /// more substep of free flight, so restitution reverses the approach at the substep they
    /// touch rather than the one at the start of the step (a falling ball would otherwise
    /// lose up to `g * dt` of its bounce); see [`ConstraintPoint::relative_velocity`].
    ///
    /// # Errors
    /// [`SolverError::UnknownBody`] if a body was removed since preparation.
    pub fn solve_velocities(&mut self, bodies: &mut BodySet) -> Result<(), SolverError> {
        self.gather(bodies)?;
        self.solve(bodies);
        self.table.scatter(bodies);
        self.store();
        Ok(())
    }

    /// Runs `settings.relax_iterations` iterations without the position bias, after positions
    /// were integrated: the velocity used to push overlap out is taken back, so position
    /// correction never becomes kinetic energy. Points still apart (speculative) are left
    /// alone: the next biased pass caps their approach before positions move again; so are
    /// the points of bodies farther apart than the linear slop.
    ///
    /// # Errors
    /// [`SolverError::UnknownBody`] if a body was removed since preparation.
    pub fn relax_velocities(&mut self, bodies: &mut BodySet) -> Result<(), SolverError> {
        self.gather(bodies)?;
        self.relax(bodies);
        self.table.scatter(bodies);
        self.store();
        Ok(())
    }

    /// Applies restitution once, at the end of the step. Every point that pushed this step
    /// takes part: a point that approached faster than `restitution_threshold` must leave at
    /// `restitution` times its captured approach speed, any other must not approach. The
    /// pass runs Gauss-Seidel sweeps over those points (at most
    /// `restitution_iterations`, fewer once no impulse changes) with an accumulated
    /// restitution impulse clamped at zero, so restitution only pushes.
    ///
    /// Sweeping until the targets hold together, not one point after the other once, is
    /// what keeps energy: a disc hitting a disc pressed against a wall leaves at its own
    /// speed, where a single pass let the pressed disc carry half the bounce into the wall
    /// and lose it. Only islands of bodies with a bounce are swept, and each island keeps at
    /// most the kinetic energy its bodies had in free flight this step (islands touching a
    /// kinematic body excepted); the module `contact::restitution` says what each rule
    /// fixed.
    ///
    /// Then friction at a bounce follows Coulomb's law on the whole normal impulse,
    /// restitution included, as in [`resolve_impact`](crate::resolve_impact): at every
    /// point that bounced (a bounce of its own, not one passed on through a body pressed
    /// against it, whose friction stays the solve's), friction is solved again by Gauss-Seidel
    /// sweeps (at most `restitution_iterations`), the point's total friction over the step
    /// (the solve's, every substep's, plus the new) clamped to
    /// `friction * (N + restitution_impulse)`, with `N` the normal impulse the solve applied
    /// over the whole step, and no further than where the slip stops. So a disc with its
    /// rotation locked, friction 0.6 and restitution 0.9, landing on a floor at (10, -10),
    /// leaves at (0, 9), as from the resolver, not at the (4, 9) that friction bounded by
    /// the solve's impulse alone gives. One point between bodies with their rotation locked
    /// agrees with the resolver to rounding at any settings with at least one relax
    /// iteration. The friction re-solve only removes slip, so it adds no energy; its
    /// impulses are [`ConstraintPoint::restitution_tangent_impulse`], not cached.
    ///
    /// A speculative point that never touched has `max_normal_impulse == 0` and is skipped,
    /// so restitution is neither lost nor invented when contacts are created early. The
    /// restitution impulses are reported apart ([`ConstraintPoint::restitution_impulse`])
    /// and not cached for warm starting; a point that bounced caches no impulse at all, since
    /// its bodies leave.
    ///
    /// `gravity` must be what the step integrated: it completes each point's free-flight
    /// approach (see [`ConstraintPoint::relative_velocity`]).
    ///
    /// # Errors
    /// [`SolverError`] naming `gravity` (not finite), or [`SolverError::UnknownBody`] if a
    /// body was removed since preparation; nothing is changed then.
    pub fn apply_restitution(
        &mut self,
        bodies: &mut BodySet,
        gravity: Vector,
    ) -> Result<(), SolverError> {
        finite_vector("gravity", &gravity)?;
        self.gather(bodies)?;
        // The passes left their results in their own layout; restitution reads them from
        // the rows.
        self.store();
        self.restitution(bodies, &gravity);
        self.table.scatter(bodies);
        Ok(())
    }

    /// Replaces the content of `cache` with this step's accumulated impulses, for the next
    /// step's warm start.
    pub fn store_impulses(&self, cache: &mut ContactCache) {
        let threshold = self.constants.settings.restitution_threshold;
        self.rows.contacts.store_impulses(cache, threshold);
    }

    /// The solve stage on every kind of row: its start, then `velocity_iterations`
    /// iterations with the position bias. `bodies` gives the shapes (it must hold the
    /// bodies the solver was prepared with).
    fn solve(&mut self, bodies: &BodySet) {
        let stage = self
            .constants
            .stage((&self.table.states, &self.table.motion), bodies);
        for kind in self.rows.each() {
            kind.begin_solve(&stage);
        }
        for _ in 0..self.constants.settings.velocity_iterations {
            for kind in self.rows.each() {
                kind.iterate(&mut self.table.velocities, &stage, true);
            }
        }
    }

    /// The relax stage on every kind of row: `relax_iterations` iterations without the
    /// position bias.
    fn relax(&mut self, bodies: &BodySet) {
        let stage = self
            .constants
            .stage((&self.table.states, &self.table.motion), bodies);
        for _ in 0..self.constants.settings.relax_iterations {
            for kind in self.rows.each() {
                kind.iterate(&mut self.table.velocities, &stage, false);
            }
        }
    }

    /// The restitution stage on every kind of row, `gravity` being what the step
    /// integrated.
    fn restitution(&mut self, bodies: &BodySet, gravity: &Vector) {
        let stage = self
            .constants
            .stage((&self.table.states, &self.table.motion), bodies);
        for kind in self.rows.each() {
            kind.restitution(&mut self.table.velocities, &stage, gravity);
        }
    }

    /// Every kind of row's results back where the accessors read them.
    fn store(&mut self) {
        for kind in self.rows.each() {
            kind.store();
        }
    }

    /// Loads velocities, poses and motion since preparation from the bodies, and tells the
    /// rows; fails, changing nothing a caller can see, if any body is gone.
    fn gather(&mut self, bodies: &BodySet) -> Result<(), SolverError> {
        self.table.gather(bodies)?;
        for kind in self.rows.each() {
            kind.bodies_gathered(&self.table.states, &self.table.motion);
        }
        Ok(())
    }
}

/// Prepares, runs [`ContactSolver::step`] and stores the impulses: one whole step of `dt`
/// seconds for every body of `bodies`, with the contacts of `pairs` (the discrete baseline
/// a `World` builds on). Returns the solver, whose constraints hold the step's impulses.
///
/// # Errors
/// As [`ContactSolver::new`] and [`ContactSolver::step`]; nothing is changed then.
pub fn solve_step(
    bodies: &mut BodySet,
    pairs: &[ContactPair],
    cache: &mut ContactCache,
    gravity: Vector,
    settings: &SolverSettings,
    dt: Real,
) -> Result<ContactSolver, SolverError> {
    solve_step_in(
        bodies,
        pairs,
        cache,
        gravity,
        settings,
        dt,
        &mut SolverScratch::new(),
    )
}

/// [`solve_step`] in the storage of `scratch` (see [`ContactSolver::new_in`]): the same
/// step, bit for bit, without allocating the solver's arrays anew. Hand the storage back
/// with [`ContactSolver::recycle`] once done with the solver; on error `scratch` keeps it.
///
/// # Errors
/// As [`solve_step`]; nothing is changed then.
pub fn solve_step_in(
    bodies: &mut BodySet,
    pairs: &[ContactPair],
    cache: &mut ContactCache,
    gravity: Vector,
    settings: &SolverSettings,
    dt: Real,
    scratch: &mut SolverScratch,
) -> Result<ContactSolver, SolverError> {
    let mut solver = ContactSolver::new_in(bodies, pairs, cache, settings, dt, scratch)?;
    if let Err(error) = solver.step(bodies, gravity) {
        solver.recycle(scratch);
        return Err(error);
    }
    solver.store_impulses(cache);
    Ok(solver)
}
