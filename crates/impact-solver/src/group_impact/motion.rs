//! The rest of a step for a jointed group after an impact: [`GroupImpactSolver::advance`],
//! RATTLE on the group's rigid joint rows (see [`GroupImpactSolver`], "The rest of the
//! step", for why and how).

use super::GroupImpactSolver;
use super::dense::lu_solve;
use super::rows::{Bound, Row};
use super::system::{Member, coupling};
use crate::body_set::{BodyHandle, BodySet};
use crate::error::{SolverError, finite_vector, positive};
use crate::integrate::integrate_velocity;
use crate::joint::JointSet;
use impact_geometry::{Isometry, Point, Real, Vector};

/// How far [`GroupImpactSolver::advance`] takes a group.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupStep {
    /// Gravity (world units per second squared, finite).
    pub gravity: Vector,
    /// How long (seconds, positive and finite).
    pub dt: Real,
    /// Substeps, at least 1: more where a body turns more than 0.02 rad in one (up to 128).
    pub substeps: u32,
    /// The most work the advance may take, in multiply-adds of its dense solves
    /// ([`GroupAdvance::work`]): past it, it stops at the end of a substep and gives no
    /// motion. `u64::MAX` for no limit.
    pub max_work: u64,
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

/// What [`GroupImpactSolver::advance`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GroupAdvance {
    /// Whether the rigid rows held to `1e-4` of the group's size at the end of the last
    /// substep without the group gaining energy or a body going farther than its energy
    /// carries it (else the advance gave no motion).
    pub held: bool,
    /// The substeps taken.
    pub substeps: u32,
    /// The multiply-adds its dense solves took (factorisations, substitutions, sweeps),
    /// the measure of its cost that [`GroupStep::max_work`] limits.
    pub work: u64,
}

/// Newton steps of the position correction per substep, at most.
const CORRECTIONS: u32 = 12;

/// How many times a Newton step of a position correction is halved before it is given up.
pub(super) const HALVINGS: u32 = 6;

/// The most a body may turn in one substep of the advance (radians).
const MOST_TURN: Real = 0.02;

/// An advance whose last substep leaves its rows open by more than this fraction of the
/// group's size gives no motion (see [`GroupImpactSolver::advance`]).
const GIVE_UP: Real = 1e-4;

/// How much energy an advance may gain, relative to the group's, before it counts as not
/// holding (see [`GroupImpactSolver::advance`]): RATTLE's energy error over a step of
/// substeps short enough for its turns is far below it.
const ENERGY_SLACK: Real = 0.01;

/// The most substeps an advance takes (a body turning faster than `MOST_TURN` times this
/// over the time is advanced in larger turns).
const MOST_SUBSTEPS: u32 = 128;

impl GroupImpactSolver {
    /// Advances the group of the last [`GroupImpactSolver::gather`] or
    /// [`GroupImpactSolver::resolve`] by `step` (see [`GroupImpactSolver`], "The rest of the step"), from the
    /// poses and velocities its bodies have in `bodies` now: its movable bodies under
    /// gravity, their damping and its rigid joint rows; the bodies of infinite mass on their
    /// own velocities (a held one stays put). `bodies` is not changed; `out` receives each
    /// movable body's motion, in [`GroupImpactSolver::group`]'s order.
    ///
    /// Returns whether the rigid rows held to `1e-4` of the group's size at the end with
    /// no more than 1% more energy than at the start and no body farther from where it
    /// started than twice what the group's kinetic energy in it alone and gravity carry it
    /// plus twice the group's extent, and the substeps taken
    /// ([`GroupAdvance`]). Where they cannot (limits
    /// and contacts that no pose of the group meets, or bodies turning so fast that
    /// Newton's projection finds no closing step), `held` is false with `out` empty, and the
    /// caller moves the bodies otherwise (the `FirstTimeOfImpact` stepper moves a free
    /// group as one rigid body).
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
    ) -> Result<GroupAdvance, SolverError> {
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
        let work_before = self.system.dense.work;
        self.refresh(bodies, held);
        let reach = self.reach(step);
        // RATTLE keeps joints that hold: a group its soft joints left open is closed first,
        // without the correction turning into velocity.
        self.close(joints);
        // Substeps short enough that no body turns more than `MOST_TURN` in one: SHAKE's
        // correction along the rows of the substep's start finds the joints again only
        // while they turn little (a 20-link chain at 30 rad/s in four 60 Hz substeps, 0.125
        // rad each, does not close), and RATTLE's step is stable there.
        let fastest = self
            .system
            .members
            .iter()
            .filter(|m| m.movable)
            .fold(0.0, |w: Real, m| w.max(m.w.abs()));
        let turns = (fastest * step.dt / MOST_TURN).ceil();
        let substeps = if turns.is_finite() && turns > Real::from(step.substeps) {
            turns.min(Real::from(MOST_SUBSTEPS)) as u32
        } else {
            step.substeps
        };
        let h = step.dt / Real::from(substeps);
        // A substep whose rows stay open is not the end: the next substeps' corrections
        // start from where it left them and close them in practice (a ragdoll limb struck
        // into a limit and a wall at once); only the last substep's answer counts.
        let start = self.energy(&step.gravity);
        let mut held = true;
        let mut taken = 0;
        while taken < substeps {
            held = self.substep(joints, h, &step.gravity);
            taken += 1;
            if self.system.dense.work.saturating_sub(work_before) > step.max_work {
                held = false;
                break;
            }
        }
        // Rigid joints and one-sided contacts do no work: an advance that ends with more
        // energy than it started with (beyond rounding, relative to the group's) has
        // turned a projection's position error into velocity, and is not a motion of the
        // group.
        let end = self.energy(&step.gravity);
        held &= end.0 <= start.0 + ENERGY_SLACK * start.1.max(end.1);
        held &= self.within(&reach);
        let work = self.system.dense.work.saturating_sub(work_before);
        if !held {
            return Ok(GroupAdvance {
                held: false,
                substeps: taken,
                work,
            });
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
        Ok(GroupAdvance {
            held: true,
            substeps,
            work,
        })
    }

    /// One RATTLE substep of `h` under `gravity`; whether the group's rows hold at its end
    /// (see [`GroupImpactSolver::advance`]).
    fn substep(&mut self, joints: &JointSet, h: Real, gravity: &Vector) -> bool {
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
        let ok = self.correct(joints);
        let mut holds = true;
        if !ok {
            // What SHAKE could not close (a one-sided row whose nearest corner changes from
            // one Newton step to the next) is projected out along the rows where the bodies
            // are, by the dense solve with its active set: the joints hold at the substep's
            // end, and the velocities are the drift's. Where that cannot close them either
            // (a limb turning hundreds of radians per second into a limit and a wall at
            // once), the substep says so.
            let closure = self.project_positions(joints);
            holds = closure.after <= GIVE_UP * self.size();
        }
        if ok {
            for (m, &(center, turned)) in self.system.members.iter_mut().zip(&self.starts) {
                if m.movable {
                    m.v = (m.center() - center) / h;
                    m.w = (m.turned - turned) / h;
                }
            }
        }
        kick(&mut self.system.members);
        self.joint_rows(joints, 0);
        // A one-sided row still slack may close its gap within the substep and no more (as
        // the contact solver's speculative rows).
        for row in &mut self.system.rows {
            if row.bound == Bound::AtLeast && row.error > 0.0 {
                row.target = -row.error / h;
            }
        }
        if !self.system.rows.is_empty() {
            self.stage(0);
        }
        holds
    }

    /// SHAKE: the position errors of the substep's rows removed along the rows of its start,
    /// `W J_n^T dl`, by Newton's method on `C(q_n + W J_n^T l) = 0` (each step solves
    /// `J_k W J_n^T dl = -C_k` by LU, a one-sided row taking part only where it is passed,
    /// and is halved until the largest error falls: a one-sided row the step passes takes
    /// part in the next). Whether they were removed to `1e-10` of the group's size (or, where
    /// Newton's steps stall on nearly dependent rows, a touch beside a joint of the same
    /// body, to `1e-7`); else the rows cannot all hold (two held bodies a link cannot reach
    /// both of), the best poses met are kept, and the velocities are the drift's.
    fn correct(&mut self, joints: &JointSet) -> bool {
        if self.system.rows.is_empty() {
            return true;
        }
        let size = self.size();
        let tol = 1e-10 * size;
        let mut now = core::mem::take(&mut self.now);
        let mut fresh: Vec<Row> = Vec::with_capacity(self.system.rows.len());
        let mut violation = self.measure(joints, &mut now, &mut fresh);
        let mut saved: Vec<(Isometry, Real)> = Vec::with_capacity(self.system.members.len());
        for _ in 0..CORRECTIONS {
            if violation <= tol {
                break;
            }
            let part: Vec<usize> = (0..fresh.len())
                .filter(|&i| fresh[i].bound != Bound::AtLeast || fresh[i].error < 0.0)
                .collect();
            let m = part.len();
            let mut a = vec![0.0; m * m];
            for (p, &i) in part.iter().enumerate() {
                for (q, &j) in part.iter().enumerate() {
                    a[p * m + q] = coupling(&fresh[i], &self.system.rows[j], &self.system.members);
                }
            }
            let mut dl: Vec<Real> = part.iter().map(|&i| -fresh[i].error).collect();
            lu_solve(&mut a, m, &mut dl);
            if !dl.iter().all(|x| x.is_finite()) {
                break;
            }
            saved.clear();
            saved.extend(self.system.members.iter().map(|m| (m.pose, m.turned)));
            let mut improved = false;
            let mut scale = 1.0;
            for _ in 0..HALVINGS {
                self.system
                    .displace_along(part.iter().zip(&dl).map(|(&i, &x)| (i, x * scale)));
                let next = self.measure(joints, &mut now, &mut fresh);
                if next < violation {
                    violation = next;
                    improved = true;
                    break;
                }
                self.restore_poses(&saved);
                scale *= 0.5;
            }
            if !improved {
                self.measure(joints, &mut now, &mut fresh);
                break;
            }
        }
        self.now = now;
        violation <= 1e-7 * size
    }

    /// The largest error of the substep's acting rows (see [`GroupImpactSolver::correct`])
    /// at the members' poses, those rows rebuilt there into `fresh` (`now` the storage of
    /// every row).
    fn measure(&self, joints: &JointSet, now: &mut Vec<Row>, fresh: &mut Vec<Row>) -> Real {
        now.clear();
        self.build_rows(joints, true, now);
        fresh.clear();
        fresh.extend(
            now.iter()
                .zip(&self.acting)
                .filter(|(_, a)| **a)
                .map(|(r, _)| *r),
        );
        violation(fresh)
    }

    /// Where each movable member starts the advance of `step` (its centre) and how far from
    /// there it may end (see [`GroupImpactSolver::within`]): twice what its share of the
    /// group's kinetic energy and gravity carry it over the step (no row does work, so no
    /// body moves faster than the whole group's energy in it alone allows), plus twice the
    /// group's extent (the farthest centre from the first member's, at least 1), which a
    /// projection closing open joints may move a body by.
    fn reach(&self, step: &GroupStep) -> Vec<(Point, Real)> {
        let movable = || self.system.members.iter().filter(|m| m.movable);
        let kinetic: Real = movable()
            .map(|m| {
                let linear = if m.inv_mass > 0.0 {
                    0.5 * m.v.norm_squared() / m.inv_mass
                } else {
                    0.0
                };
                let angular = if m.inv_inertia > 0.0 {
                    0.5 * m.w * m.w / m.inv_inertia
                } else {
                    0.0
                };
                linear + angular
            })
            .sum();
        let extent = movable().next().map_or(1.0, |first| {
            let origin = first.center();
            movable()
                .map(|m| (m.center() - origin).norm())
                .fold(1.0, Real::max)
        });
        let fall = step.gravity.norm() * step.dt * step.dt;
        movable()
            .map(|m| {
                let speed = (2.0 * kinetic * m.inv_mass).sqrt();
                (m.center(), 2.0 * (speed * step.dt + fall) + 2.0 * extent)
            })
            .collect()
    }

    /// Whether every movable member ends within its `reach` (see
    /// [`GroupImpactSolver::reach`]). A projection along nearly dependent rows can find a
    /// step that closes them by carrying the whole group off, a motion no force of the
    /// group's makes: a chain of four links 0.2 long on ropes, struck by a wall, was moved
    /// 15,000 units along it in 2.6 ms, its velocities untouched.
    fn within(&self, reach: &[(Point, Real)]) -> bool {
        self.system
            .members
            .iter()
            .filter(|m| m.movable)
            .zip(reach)
            .all(|(m, (start, most))| (m.center() - start).norm() <= *most)
    }

    /// Puts the members' poses back.
    pub(super) fn restore_poses(&mut self, saved: &[(Isometry, Real)]) {
        for (m, &(pose, turned)) in self.system.members.iter_mut().zip(saved) {
            (m.pose, m.turned) = (pose, turned);
        }
    }

    /// The movable members' energy under `gravity`, kinetic plus potential, and the sum of
    /// the magnitudes of its parts (the scale the comparison in [`GroupImpactSolver::advance`]
    /// is relative to).
    fn energy(&self, gravity: &Vector) -> (Real, Real) {
        let mut total = 0.0;
        let mut scale = 0.0;
        for m in self.system.members.iter().filter(|m| m.movable) {
            let mut kinetic = 0.0;
            let mut potential = 0.0;
            if m.inv_mass > 0.0 {
                kinetic += 0.5 * m.v.norm_squared() / m.inv_mass;
                potential -= gravity.dot(&m.center().coords) / m.inv_mass;
            }
            if m.inv_inertia > 0.0 {
                kinetic += 0.5 * m.w * m.w / m.inv_inertia;
            }
            total += kinetic + potential;
            scale += kinetic + potential.abs();
        }
        (total, scale)
    }

    /// The group's size: the farthest centre from the first member's, at least 1.
    pub(super) fn size(&self) -> Real {
        let Some(first) = self.system.members.first() else {
            return 1.0;
        };
        let origin = first.center();
        self.system
            .members
            .iter()
            .map(|m| (m.center() - origin).norm())
            .fold(1.0, Real::max)
    }
}

/// The largest error of `rows`: a rigid row's size, a one-sided row's overlap.
pub(super) fn violation(rows: &[Row]) -> Real {
    rows.iter()
        .map(|r| match r.bound {
            Bound::AtLeast => (-r.error).max(0.0),
            _ => r.error.abs(),
        })
        .fold(0.0, Real::max)
}
