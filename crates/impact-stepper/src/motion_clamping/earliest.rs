//! The clamp's question of [`MotionClamping`](super::MotionClamping): how far along its motion
//! each checked body may go, the earliest safe fraction over its candidates.
//!
//! Each candidate pair is one time of impact along both rebuilt sweeps, the candidate on its
//! own unclamped motion. Two answers are not a clamp at once. A pair that overlaps at the
//! start is the contact solver's, unless a body swings its far side round more than the
//! contact distance (the solver's manifold, taken at the start poses, does not bound where it
//! goes): the pair is then followed along the sweeps and stops where the overlap deepens. A
//! pair within the target separation at the start that the solver held over the step is the
//! solver's if its targets are still apart on the same side: clamping it at 0 would freeze a
//! body sliding along a wall. Every fraction is found before any body moves, so the order of
//! the candidates changes nothing.

use super::{MotionClampingSettings, Scratch};
use crate::domain::translated_sweep;
use crate::hooks::ContactResponse;
use crate::motion::{held_contact, held_normal, move_pair_as_one, turned_round};
use crate::report::ClampReport;
use crate::rules::CollisionRules;
use crate::swing::{Deepening, anchored, swinging_deepening, swings, unit_normal};
use impact_geometry::{Point, Real, Shape, Sweep, Vector};
use impact_narrowphase::{Toi, distance, time_of_impact};
use impact_solver::{BodyHandle, BodySet, ContactPair, RigidBody};

impl Scratch {
    /// The earliest safe fraction of each checked body over its candidates, and every body
    /// with one below 1 in `clamps`. `contacts` are the step's manifolds, whose normals keep
    /// the side of an overlapping pair.
    pub(super) fn earliest_fractions(
        &mut self,
        settings: &MotionClampingSettings,
        (bodies, rules): (&mut BodySet, &CollisionRules<'_>),
        contacts: &[ContactPair],
        dt: Real,
        report: &mut ClampReport,
    ) {
        // Only a pre-solve hook has a say over a candidate's time of impact.
        let pre_solve = rules.has_pre_solve().then_some(rules);
        for i in 0..self.candidates.len() {
            let candidate = self.candidates[i];
            self.candidate(
                settings,
                (bodies, pre_solve),
                contacts,
                candidate,
                dt,
                report,
            );
        }
        for (handle, _) in bodies.iter() {
            let earliest = self.earliest[handle.index as usize];
            if earliest < 1.0 {
                self.clamps.push((handle, earliest));
            }
        }
    }

    /// The time of impact of the checked body of slot `x` against the image of `y`
    /// translated by `offset`, taken into the earliest fraction of `x` unless the pre-solve
    /// hook (of `pre_solve`, the rules if they have one) disables it.
    #[inline]
    fn candidate(
        &mut self,
        settings: &MotionClampingSettings,
        (bodies, pre_solve): (&mut BodySet, Option<&CollisionRules<'_>>),
        contacts: &[ContactPair],
        (x, y, offset): (u32, u32, Vector),
        dt: Real,
        report: &mut ClampReport,
    ) {
        let (Some(handle), Some(other_handle)) =
            (self.handles[x as usize], self.handles[y as usize])
        else {
            return;
        };
        let (Some(body), Some(other)) = (bodies.get(handle), bodies.get(other_handle)) else {
            return;
        };
        let (Some(sweep), Some(other_sweep)) = (
            self.sweeps[x as usize],
            self.sweeps[y as usize].and_then(|sweep| translated_sweep(&sweep, &offset)),
        ) else {
            return;
        };
        report.toi_queries += 1;
        let toi = time_of_impact(
            body.shape(),
            &sweep,
            other.shape(),
            &other_sweep,
            &settings.toi,
        );
        if toi == Toi::Overlapping {
            report.overlapping += 1;
            // The solver's manifold holds an overlapping pair, unless a body swings its
            // far side round more than the contact distance: followed along the sweeps,
            // the body stops where the overlap deepens (see `swinging_deepening`).
            let side = || held_normal(contacts, x, y);
            let stop = match swinging_stop(settings, (body, &sweep), (other, &other_sweep), side) {
                Deepening::Never => None,
                Deepening::At {
                    after,
                    point,
                    normal,
                } => {
                    let meeting = ((handle, &sweep), (other_handle, &other_sweep));
                    let at = (after / dt).clamp(0.0, 1.0);
                    let disabled = pre_solve.is_some_and(|rules| {
                        disabled(rules, bodies, meeting, (point, normal), (at, dt), settings)
                    });
                    (!disabled).then_some(after)
                }
                Deepening::Unknown { safe } => Some(safe),
            };
            if let Some(after) = stop {
                let earliest = &mut self.earliest[x as usize];
                *earliest = earliest.min((after / dt).clamp(0.0, 1.0));
            }
            return;
        }
        if let (Toi::Hit(hit), Some(rules)) = (toi, pre_solve)
            && disabled(
                rules,
                bodies,
                ((handle, &sweep), (other_handle, &other_sweep)),
                (hit.point, hit.normal),
                (hit.fraction, dt),
                settings,
            )
        {
            // The hook lets the body pass (a one-way platform met from below).
            return;
        }
        if let Toi::Hit(hit) = toi
            && hit.fraction <= 0.0
            && let Some(&held) = held_contact(&self.solver_contacts, x, y)
        {
            if held_apart(settings, hit.normal, (body, &sweep), (other, &other_sweep)) {
                report.touching += 1;
                return;
            }
            // Stopped with the velocities that closed in, the pair would close in again
            // from the same place at every step, and hang there (a box spinning fast
            // against a falling one: the solver's anchors turn away with it). It leaves
            // moving as one, as a pair pushed through does.
            report.closing_stopped += 1;
            move_pair_as_one(bodies, &self.start, &held);
        }
        if let Some(fraction) = toi.safe_fraction() {
            let earliest = &mut self.earliest[x as usize];
            *earliest = earliest.min(fraction.max(0.0));
        }
    }
}

/// For a pair that overlaps at the start (`body` on `sweep`, `other` on `other_sweep`): if
/// either body swings, where the overlap deepens along the sweeps, its normal kept on the side
/// of the step's manifold (`side`); [`Deepening::Never`] if neither swings or it never
/// deepens.
fn swinging_stop(
    settings: &MotionClampingSettings,
    (body, sweep): (&RigidBody, &Sweep),
    (other, other_sweep): (&RigidBody, &Sweep),
    side: impl Fn() -> Option<Vector>,
) -> Deepening {
    let pad = settings.toi.target_separation() + settings.toi.tolerance();
    if !(swings(body, sweep, pad) || swings(other, other_sweep, pad)) {
        return Deepening::Never;
    }
    let start = distance(
        body.shape(),
        &sweep.pose_at(0.0),
        other.shape(),
        &other_sweep.pose_at(0.0),
    );
    unit_normal(&start).map_or(Deepening::Never, |normal| {
        swinging_deepening(
            (body.shape(), sweep),
            (other.shape(), other_sweep),
            anchored(normal, side()),
            settings.toi.tolerance(),
            settings.toi.max_iterations(),
        )
    })
}

/// Whether the pre-solve hook disables the meeting of the checked body and the other (each
/// its handle and sweep over the step) at `point` with `normal` (from the checked body toward
/// the other), `fraction` of the step of `dt` seconds in: the body is then not clamped there.
fn disabled(
    rules: &CollisionRules<'_>,
    bodies: &BodySet,
    ((x, sweep), (y, other_sweep)): ((BodyHandle, &Sweep), (BodyHandle, &Sweep)),
    (point, normal): (Point, Vector),
    (fraction, dt): (Real, Real),
    settings: &MotionClampingSettings,
) -> bool {
    let side = |handle, sweep: &Sweep| {
        (
            handle,
            sweep.pose_at(fraction),
            (sweep.linvel(), sweep.angvel()),
        )
    };
    rules.pre_solve_impact(
        bodies,
        (side(x, sweep), side(y, other_sweep)),
        (point, normal),
        settings.toi.target_separation(),
        fraction * dt,
    ) == ContactResponse::Disable
}

/// Whether a pair within the target separation at the start (`normal`, the hit's, from
/// `body` toward `other`), whose manifold the contact solver had for the whole step, ends
/// it with its targets still apart on the same side: the solver held the contact.
///
/// Apart means overlapping by no more than a soft contact gives under a load (the
/// tolerance, or a quarter of the smaller body's bounding radius against a body with area),
/// the normal not turned round. Then the pair is the solver's business: clamping at 0 would
/// freeze a body leaving or sliding along a wall, or landing on it with long steps under
/// strong gravity. Otherwise the body stays at the start: once it overlaps deeply the soft
/// solver can push it through a thin wall.
fn held_apart(
    settings: &MotionClampingSettings,
    normal: Vector,
    (body, sweep): (&RigidBody, &Sweep),
    (other, other_sweep): (&RigidBody, &Sweep),
) -> bool {
    let apart = distance(
        body.shape(),
        &sweep.pose_at(1.0),
        other.shape(),
        &other_sweep.pose_at(1.0),
    );
    let slack = if matches!(other.shape(), Shape::Segment(_)) {
        // Through a segment, any overlap is half way: its side is the test.
        settings.toi.tolerance()
    } else {
        settings.toi.tolerance().max(
            0.25 * body
                .shape()
                .bounding_radius(&body.local_center())
                .min(other.shape().bounding_radius(&other.local_center())),
        )
    };
    apart.distance >= -slack
        && !turned_round(
            apart.normal,
            normal,
            (body, &sweep.pose_at(0.0), &sweep.pose_at(1.0)),
            (other, &other_sweep.pose_at(0.0), &other_sweep.pose_at(1.0)),
        )
}
