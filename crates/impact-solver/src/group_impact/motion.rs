//! The rest of a step for a jointed group after an impact: [`GroupImpactSolver::advance`],
//! RATTLE on the group's rigid joint rows (see [`GroupImpactSolver`], "The rest of the
//! step", for why and how).

use super::GroupImpactSolver;
use super::rows::{Bound, Row};
use super::system::Member;
use crate::body::BodyType;
use crate::body_set::{BodyHandle, BodySet};
use crate::error::{SolverError, finite_vector, positive};
use crate::integrate::integrate_velocity;
use crate::joint::JointSet;
use impact_geometry::{Isometry, Real, Vector};

/// How far [`GroupImpactSolver::advance`] takes a group.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupStep {
    /// Gravity (world units per second squared, finite).
    pub gravity: Vector,
    /// How long (seconds, positive and finite).
    pub dt: Real,
    /// Substeps, at least 1.
    pub substeps: u32,
}

/// Where [`GroupImpactSolver::advance`] took one body of the group.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupMotion {
    /// The body.
    pub body: BodyHandle,
    /// Its pose at the end.
    pub pose: Isometry,
    /// Its velocities at the end.
    pub linvel: Vector,
    /// Its angular velocity at the end (radians per second).
    pub angvel: Real,
    /// How far it turned, counted through whole turns (radians): its course's angular
    /// velocity is this over the time.
    pub turned: Real,
}

/// Quasi-Newton steps of the position correction per substep, at most.
const CORRECTIONS: u32 = 24;

impl GroupImpactSolver {
    /// Advances the group of the last [`GroupImpactSolver::gather`] or
    /// [`GroupImpactSolver::resolve`] by `step` (see [`GroupImpactSolver`], "The rest of the step"), from the
    /// poses and velocities its bodies have in `bodies` now: its movable bodies under
    /// gravity, their damping and its rigid joint rows; the bodies of infinite mass on their
    /// own velocities (a held one stays put). `bodies` is not changed; `out` receives each
    /// movable body's motion, in [`GroupImpactSolver::group`]'s order.
    ///
    /// # Errors
    /// [`SolverError`] naming `step.gravity` (not finite), `step.dt` (not positive and
    /// finite) or `step.substeps` (zero); `out` is left empty then.
    pub fn advance(
        &mut self,
        bodies: &BodySet,
        joints: &JointSet,
        step: &GroupStep,
        held: super::Held<'_>,
        out: &mut Vec<GroupMotion>,
    ) -> Result<(), SolverError> {
        out.clear();
        finite_vector("step.gravity", &step.gravity)?;
        positive("step.dt", step.dt)?;
        if step.substeps == 0 {
            return Err(SolverError::OutOfRange {
                field: "step.substeps".to_owned(),
                value: 0.0,
                expected: "at least 1",
            });
        }
        for m in &mut self.system.members {
            let Some(body) = bodies.get(m.handle) else {
                continue;
            };
            *m = Member::of(m.handle, body, m.movable);
            let still =
                body.body_type() == BodyType::Static || (body.is_dynamic() && held(m.handle));
            if still {
                (m.v, m.w) = (Vector::zeros(), 0.0);
            }
        }
        let h = step.dt / Real::from(step.substeps);
        for _ in 0..step.substeps {
            self.substep(joints, h, &step.gravity);
        }
        for m in &self.system.members {
            if m.movable {
                out.push(GroupMotion {
                    body: m.handle,
                    pose: m.pose,
                    linvel: m.v,
                    angvel: m.w,
                    turned: m.turned,
                });
            }
        }
        Ok(())
    }

    /// One RATTLE substep of `h` under `gravity`.
    fn substep(&mut self, joints: &JointSet, h: Real, gravity: &Vector) {
        let half = gravity * (0.5 * h);
        let kick = |members: &mut [Member]| {
            for m in members.iter_mut().filter(|m| m.movable) {
                (m.v, m.w) = integrate_velocity(m.v, m.w, &half, 0.5 * h, m.damping.0, m.damping.1);
            }
        };
        kick(&mut self.system.members);
        // The rows at the start, with every limit, kept for the correction.
        let mut all = core::mem::take(&mut self.all);
        all.clear();
        self.build_rows(joints, true, &mut all);
        self.acting.clear();
        self.acting.extend(all.iter().map(Row::acts));
        self.system.rows.clear();
        self.system.rows.extend(
            all.iter()
                .zip(&self.acting)
                .filter(|(_, a)| **a)
                .map(|(r, _)| *r),
        );
        self.all = all;
        self.starts.clear();
        self.starts
            .extend(self.system.members.iter().map(|m| (m.center(), m.turned)));
        for m in &mut self.system.members {
            let (v, w) = (m.v, m.w);
            m.displace(v * h, w * h);
        }
        self.correct(joints);
        for (m, &(center, turned)) in self.system.members.iter_mut().zip(&self.starts) {
            if m.movable {
                m.v = (m.center() - center) / h;
                m.w = (m.turned - turned) / h;
            }
        }
        kick(&mut self.system.members);
        self.joint_rows(joints, 0);
        if !self.system.rows.is_empty() {
            self.stage(0, 0.0);
        }
    }

    /// SHAKE: the position errors of the substep's rows removed along the rows of its start.
    fn correct(&mut self, joints: &JointSet) {
        if self.system.rows.is_empty() {
            return;
        }
        let origin = self.system.members[0].center();
        let size = self
            .system
            .members
            .iter()
            .map(|m| (m.center() - origin).norm())
            .fold(1.0, Real::max);
        let tol = 1e-10 * size;
        self.applied.clear();
        self.applied.resize(self.system.rows.len(), 0.0);
        let mut now = core::mem::take(&mut self.now);
        for _ in 0..CORRECTIONS {
            now.clear();
            self.build_rows(joints, true, &mut now);
            let errors = now.iter().zip(&self.acting).filter(|(_, a)| **a);
            for (row, (fresh, _)) in self.system.rows.iter_mut().zip(errors) {
                row.error = fresh.error;
            }
            let violation = self
                .system
                .rows
                .iter()
                .map(|r| match r.bound {
                    Bound::AtLeast => (-r.error).max(0.0),
                    _ => r.error.abs(),
                })
                .fold(0.0, Real::max);
            if violation <= tol {
                break;
            }
            let applied = core::mem::take(&mut self.applied);
            self.system
                .assemble(0, |s, i| s.rows[i].error, &applied, 0.0);
            self.applied = applied;
            self.system.solve(violation);
            if !self.system.finite() {
                break;
            }
            for (total, x) in self.applied.iter_mut().zip(&self.system.dense.x) {
                *total += x;
            }
            self.system.apply_displacements(0);
        }
        self.now = now;
    }
}
