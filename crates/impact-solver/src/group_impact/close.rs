//! Closing a jointed group's joints where its bodies are: [`GroupImpactSolver::close_joints`].

use super::motion::{HALVINGS, violation};
use super::system::Member;
use super::{GroupImpactSolver, Held};
use crate::body::BodyType;
use crate::body_set::BodySet;
use crate::joint::JointSet;
use impact_geometry::{Real, Vector};

/// Newton steps of a position projection, at most.
const PROJECTIONS: u32 = 16;

/// What [`GroupImpactSolver::close_joints`] did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct JointClosure {
    /// The largest position error of a rigid joint row before, and after (world units, or
    /// radians for an angle row).
    pub before: Real,
    /// See `before`.
    pub after: Real,
}

impl GroupImpactSolver {
    /// Reads the poses and velocities of the members from `bodies` (a held body, and a
    /// static one, at rest).
    pub(super) fn refresh(&mut self, bodies: &BodySet, held: Held<'_>) {
        self.fill_corners(bodies);
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
    }

    /// Closes the rigid joints of the group of the last [`GroupImpactSolver::gather`] where
    /// its bodies are in `bodies`: their poses moved the least (in the mass metric) that
    /// makes every rigid joint row hold (limits only where passed), by Newton steps on the
    /// position errors along the rows at the current poses, to `1e-10` of the group's size;
    /// then their velocities projected onto the rows (every joint's anchors moving together,
    /// the least change of kinetic energy). Bodies of infinite mass, and those `held` says
    /// are held, do not move. Writes the movable bodies' poses and velocities back.
    ///
    /// What a stepper does with a group whose soft joints its contact solver stretched (see
    /// [`GroupImpactSolver`], "The rest of the step"), before it plans the group's motion.
    pub fn close_joints(
        &mut self,
        bodies: &mut BodySet,
        joints: &JointSet,
        held: Held<'_>,
    ) -> JointClosure {
        self.refresh(bodies, held);
        let closure = self.close(joints);
        for m in &self.system.members {
            if m.movable
                && let Some(body) = bodies.get_mut(m.handle)
            {
                let pose_ok = body.set_pose(m.pose).is_ok();
                let velocity_ok = body.set_velocity(m.v, m.w).is_ok();
                debug_assert!(pose_ok && velocity_ok, "a finite projection");
            }
        }
        closure
    }

    /// The projection of [`GroupImpactSolver::close_joints`] on the members: Newton's steps
    /// along the rows at the current poses (a one-sided row taking part where passed), each
    /// halved until the largest error falls, then the velocities projected.
    pub(super) fn close(&mut self, joints: &JointSet) -> JointClosure {
        let closure = self.project_positions(joints);
        if !self.system.rows.is_empty() {
            self.stage(0);
        }
        closure
    }

    /// The position part of [`GroupImpactSolver::close`]: Newton's steps on the rows at the
    /// current poses, each a dense LCP (one-sided rows pushing only), halved until the
    /// largest error falls. Leaves the rows built at the final poses.
    pub(super) fn project_positions(&mut self, joints: &JointSet) -> JointClosure {
        let mut closure = JointClosure::default();
        if self.system.members.is_empty() {
            return closure;
        }
        let tol = 1e-10 * self.size();
        self.joint_rows(joints, 0);
        let mut error = violation(&self.system.rows);
        closure.before = error;
        let mut saved = Vec::with_capacity(self.system.members.len());
        for _ in 0..PROJECTIONS {
            if error <= tol {
                break;
            }
            let applied = core::mem::take(&mut self.applied);
            self.system.assemble(0, |s, i| s.rows[i].error, &applied);
            self.applied = applied;
            self.system.solve(error);
            if !self.system.finite() {
                break;
            }
            saved.clear();
            saved.extend(self.system.members.iter().map(|m| (m.pose, m.turned)));
            let steps: Vec<Real> = self.system.dense.x.clone();
            let mut improved = false;
            let mut scale = 1.0;
            for _ in 0..HALVINGS {
                self.system
                    .displace_along(steps.iter().enumerate().map(|(i, &x)| (i, x * scale)));
                let mut rows = Vec::with_capacity(self.system.rows.len());
                self.build_rows(joints, false, &mut rows);
                let next = violation(&rows);
                if next < error {
                    error = next;
                    improved = true;
                    break;
                }
                self.restore_poses(&saved);
                scale *= 0.5;
            }
            self.joint_rows(joints, 0);
            if !improved {
                break;
            }
        }
        closure.after = violation(&self.system.rows);
        closure
    }
}
