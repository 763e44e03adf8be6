//! [`JointRows`]: the joints of one step as rows of the stage loop (a
//! [`RowKind`](crate::solver::rows::RowKind) beside the contacts).
//!
//! Preparation reads each enabled joint with a dynamic body once: its bodies' places in the
//! solver's body table, its anchors as lever arms from the centres of mass (world frame at
//! the step's start), the offset between the centres and the joint angle there, and its
//! impulses of the last step (the warm start). Every later stage measures the joint afresh
//! from the bodies' motion since the start (`BodyState::dp`, `dq`), as Box2D v3 does, so a
//! row never reads a pose.

use super::def::JointKind;
use super::hinges::{self, HingeChunk, is_plain_hinge};
use super::set::{JointImpulses, JointSet};
use super::solve::{self, Anchors, Frame, Prepared, SolveContext};
use crate::body_set::BodySet;
use crate::error::SolverError;
use crate::settings::{Softness, SolverSettings};
use crate::solver::bodies::{BodyState, BodyTable, Motion, SolverBody};
use crate::solver::rows::{RowKind, Stage};
use crate::solver::schedule::{SweepOrder, schedule};
use impact_geometry::{Real, Vector};

/// One joint prepared for the step.
#[derive(Debug, Clone)]
pub(crate) struct JointRow {
    /// The joint's slot in its set, to store back into.
    pub(crate) slot: u32,
    /// Its bodies' indices in the body table.
    pub(crate) a: u32,
    pub(crate) b: u32,
    pub(crate) anchors: Anchors,
    pub(crate) impulses: JointImpulses,
    pub(crate) prepared: Prepared,
}

/// The joint rows of a step, in the order the sweeps visit them: the joint set's slot order,
/// cut into chunks of rows without a body in common ([`schedule`]), which keeps each body's
/// order of rows and so the results bit for bit, while letting the processor work on the
/// rows of a chunk side by side instead of each waiting on the impulse the one before wrote
/// into a shared body (neighbouring joints of a chain or a grid nearly always share one).
#[derive(Debug, Clone, Default)]
pub(crate) struct JointRows {
    pub(crate) rows: Vec<JointRow>,
    /// The joints that get rows, in slot order, with their bodies' places in the body table,
    /// while the rows are prepared; and the schedule's arrays.
    picked: Vec<(u32, u32, u32)>,
    order: SweepOrder,
    /// The joints left without a row because their bodies sleep, in slot order: they keep
    /// their impulses for when the bodies wake.
    asleep: Vec<u32>,
    /// The joints' position-correction softness for the substep.
    soft: Option<Softness>,
    /// The substep and its inverse.
    h: (Real, Real),
    /// The chunks of the schedule made only of plain hinges, four-wide (see `hinges`), and
    /// the runs of chunks every pass visits in the schedule's order: hinge chunks, or rows
    /// solved one by one.
    hinges: Vec<HingeChunk>,
    runs: Vec<Run>,
}

/// A run of the schedule's chunks: consecutive hinge chunks (a range of
/// [`JointRows::hinges`]) or consecutive rows solved one at a time (a range of
/// [`JointRows::rows`]).
#[derive(Debug, Clone)]
enum Run {
    Hinges(core::ops::Range<usize>),
    Rows(core::ops::Range<usize>),
}

impl JointRows {
    /// Empties the rows, keeping their storage.
    pub(crate) fn clear_rows(&mut self) {
        self.rows.clear();
        self.picked.clear();
        self.asleep.clear();
        self.soft = None;
        self.hinges.clear();
        self.runs.clear();
    }

    /// How many joints the rows hold.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.rows.len()
    }

    /// Prepares the enabled joints of `joints` with an awake dynamic body, adding their bodies to
    /// `table`: the rows must be empty.
    ///
    /// # Errors
    /// [`SolverError::UnknownBody`] naming `joints[i].body_a` / `joints[i].body_b` (with `i`
    /// the joint's slot) if a body of a joint is gone; the rows stay empty then.
    pub(crate) fn prepare(
        &mut self,
        table: &mut BodyTable,
        bodies: &BodySet,
        joints: &JointSet,
        settings: &SolverSettings,
        (h, inv_h): (Real, Real),
    ) -> Result<(), SolverError> {
        for (slot, joint) in joints.slots() {
            for (handle, side) in [(joint.body_a(), "a"), (joint.body_b(), "b")] {
                if !bodies.contains(handle) {
                    return Err(SolverError::UnknownBody {
                        field: format!("joints[{slot}].body_{side}"),
                        handle,
                    });
                }
            }
        }
        // Box2D v3 makes the joints twice as stiff as the contacts, capped at half the
        // substep rate.
        let hertz = settings.joint_hertz.min(0.5 * inv_h);
        self.soft = Some(Softness::new(hertz, settings.joint_damping_ratio, h));
        self.h = (h, inv_h);
        // The joints that get rows, with their bodies' places in the table, in slot order;
        // then the rows, built in the order the schedule gives.
        self.asleep.clear();
        let picked = &mut self.picked;
        picked.clear();
        for (slot, joint) in joints.slots() {
            let (Some(body_a), Some(body_b)) =
                (bodies.get(joint.body_a()), bodies.get(joint.body_b()))
            else {
                continue;
            };
            // A joint whose dynamic bodies sleep gets no row: it keeps its impulses for
            // when they wake.
            let moving =
                |handle, body: &crate::RigidBody| body.is_dynamic() && !bodies.is_asleep(handle);
            if !joint.is_enabled() {
                continue;
            }
            if !moving(joint.body_a(), body_a) && !moving(joint.body_b(), body_b) {
                if bodies.is_asleep(joint.body_a()) || bodies.is_asleep(joint.body_b()) {
                    self.asleep.push(slot);
                }
                continue;
            }
            let a = table.index_of(joint.body_a(), body_a) as u32;
            let b = table.index_of(joint.body_b(), body_b) as u32;
            picked.push((slot, a, b));
        }
        schedule(
            picked.iter().map(|&(_, a, b)| (a, b)),
            table.len(),
            &mut self.order,
        );
        self.rows.reserve(picked.len());
        for &i in &self.order.order {
            let (slot, a, b) = picked[i as usize];
            let Some(joint) = joints.slot(slot) else {
                continue;
            };
            let (Some(body_a), Some(body_b)) =
                (bodies.get(joint.body_a()), bodies.get(joint.body_b()))
            else {
                continue;
            };
            let def = joint.def();
            let anchors = Anchors::new(
                (body_a, body_b),
                (&def.local_anchor_a, &def.local_anchor_b),
                reads_angle(&def.kind).then_some(def.reference_angle),
            );
            let masses = (table.velocities[a as usize], table.velocities[b as usize]);
            let prepared =
                Prepared::new(&def.kind, &anchors.at_start(), masses, (body_a, body_b), h);
            let impulses = if settings.warm_starting {
                prepared.used(joint.impulses())
            } else {
                JointImpulses::default()
            };
            self.rows.push(JointRow {
                slot,
                a,
                b,
                anchors,
                impulses,
                prepared,
            });
        }
        self.plan_runs(&table.velocities);
        Ok(())
    }

    /// Packs the schedule's chunks made only of plain hinges and lays out the runs. Each
    /// chunk keeps its place in the schedule, so every body sees its rows in the same order
    /// as one row at a time.
    fn plan_runs(&mut self, velocities: &[SolverBody]) {
        self.hinges.clear();
        self.runs.clear();
        let starts = &self.order.chunk_starts;
        if self.rows.len() != self.order.order.len() {
            // Rows went missing after the schedule was made: one at a time, in order.
            self.runs.push(Run::Rows(0..self.rows.len()));
            return;
        }
        for w in starts.windows(2) {
            let ids = w[0] as usize..w[1] as usize;
            let plain = self.rows[ids.clone()].iter().all(is_plain_hinge);
            match (plain, self.runs.last_mut()) {
                (true, Some(Run::Hinges(r))) => r.end += 1,
                (true, _) => {
                    let k = self.hinges.len();
                    self.runs.push(Run::Hinges(k..k + 1));
                }
                (false, Some(Run::Rows(r))) => r.end = ids.end,
                (false, _) => self.runs.push(Run::Rows(ids.clone())),
            }
            if plain {
                self.hinges.push(HingeChunk::default());
                let chunk = self.hinges.last_mut().expect("just pushed");
                hinges::pack(chunk, ids, &self.rows, velocities);
            }
        }
    }

    /// Writes each joint's impulses and reaction back into `joints` (the set the rows were
    /// prepared from); joints without a row (disabled, or without a dynamic body) get zero.
    pub(crate) fn store_into(&self, joints: &mut JointSet, motion: &[Motion]) {
        let inv_h = self.h.1;
        if self.rows.len() < joints.len() {
            let asleep = &self.asleep;
            for (slot, joint) in joints.slots_mut() {
                if asleep.binary_search(&slot).is_err() {
                    joint.store(JointImpulses::default(), Vector::zeros(), 0.0);
                }
            }
        }
        for row in &self.rows {
            if let Some(joint) = joints.slot_mut(row.slot) {
                let (force, torque) = row.prepared.reaction(&row.impulses, &row.frame(motion));
                joint.store(row.impulses, force * inv_h, torque * inv_h);
            }
        }
    }

    fn context<'a>(&self, motion: &'a [Motion], use_bias: bool) -> SolveContext<'a> {
        SolveContext {
            motion,
            soft: self.soft.unwrap_or(Softness {
                bias_rate: 0.0,
                mass_scale: 1.0,
                impulse_scale: 0.0,
            }),
            h: self.h.0,
            inv_h: self.h.1,
            use_bias,
        }
    }
}

/// Whether the rows of `kind` read the joint angle ([`Frame::angle`]): a revolute joint only
/// for its limits and spring, so a plain hinge skips the arctangent of its angle at the start.
fn reads_angle(kind: &JointKind) -> bool {
    match kind {
        JointKind::Revolute(r) => r.enable_limit || r.enable_spring,
        JointKind::Distance(_) | JointKind::Mouse(_) => false,
        JointKind::Prismatic(_)
        | JointKind::Weld(_)
        | JointKind::Wheel(_)
        | JointKind::Motor(_) => true,
    }
}

impl JointRow {
    /// The row's frame with its bodies moved by `motion` since the start of the step.
    #[inline]
    pub(crate) fn frame(&self, motion: &[Motion]) -> Frame {
        self.anchors
            .frame(&motion[self.a as usize], &motion[self.b as usize])
    }
}

/// The two bodies of a row, copied out of the table.
#[inline]
fn pair(velocities: &[SolverBody], row: &JointRow) -> (SolverBody, SolverBody) {
    (velocities[row.a as usize], velocities[row.b as usize])
}

impl RowKind for JointRows {
    fn clear(&mut self) {
        self.clear_rows();
    }

    fn warm_start(&mut self, velocities: &mut [SolverBody], motion: &[Motion]) {
        for run in &self.runs {
            match run {
                Run::Hinges(r) => hinges::warm_start(&self.hinges[r.clone()], velocities),
                Run::Rows(r) => {
                    for row in &self.rows[r.clone()] {
                        let (mut va, mut vb) = pair(velocities, row);
                        solve::warm_start(row, (&mut va, &mut vb), motion);
                        velocities[row.a as usize] = va;
                        velocities[row.b as usize] = vb;
                    }
                }
            }
        }
    }

    fn begin_solve(&mut self, _stage: &Stage<'_>) {}

    fn iterate(&mut self, velocities: &mut [SolverBody], stage: &Stage<'_>, use_bias: bool) {
        let ctx = self.context(stage.motion, use_bias);
        for run in &self.runs {
            match run {
                Run::Hinges(r) => {
                    let chunks = &mut self.hinges[r.clone()];
                    hinges::solve(chunks, velocities, &ctx.soft, use_bias);
                }
                Run::Rows(r) => {
                    for row in &mut self.rows[r.clone()] {
                        let (mut va, mut vb) = pair(velocities, row);
                        solve::solve(row, &mut va, &mut vb, &ctx);
                        velocities[row.a as usize] = va;
                        velocities[row.b as usize] = vb;
                    }
                }
            }
        }
    }

    /// The hinges' lever arms and effective masses where the bodies are now; every other
    /// row builds its frame from the bodies' motion at each stage.
    fn bodies_moved(&mut self, _states: &[BodyState], motion: &[Motion]) {
        hinges::refresh(&mut self.hinges, motion);
    }

    fn bodies_gathered(&mut self, _states: &[BodyState], motion: &[Motion]) {
        hinges::refresh(&mut self.hinges, motion);
    }

    /// The hinges' impulses back into their rows.
    fn store(&mut self) {
        hinges::store(&self.hinges, &mut self.rows);
    }
}

#[cfg(test)]
mod tests;
