//! The bodies that would run over a clamped one: a dynamic body whose motion over the rest of
//! the step meets a checked body where that body was stopped is stopped where they meet.
//!
//! The clamp stops a checked body at its earliest time of impact and lets every other body
//! go on to its target. Against a body that stands still, or one moving away, that is safe;
//! but a dynamic body coming on (the box a bullet was stopped against, or one following the
//! bullet into a wall) has the rest of the step to run into the body that now stands there,
//! and ends over it: a bullet stopped against a box spinning off a toppling pyramid ended
//! with its centre 0.069 inside the box. Such a body is stopped at its own time of impact
//! with the stopped one, at the target separation, and the next step starts with the pair
//! touching: its approach is then an impact of a touching pair, resolved at the start of
//! that step (phase 0 of `MotionClamping`), with the pair's restitution and friction.
//!
//! Stopping the other body, rather than carrying the stopped one along with it for the rest
//! of the step, keeps the stepper's promises at no new cost of checks: every pose either body
//! takes is on its own rebuilt motion, which was all checked (the checked body's) or is the
//! contact solver's (the other's), so nothing is carried into geometry no time of impact
//! looked at; and the velocities a stopped body keeps are those it has where it stops (see
//! `Scratch::clamp`), so no energy is gained. A body so stopped loses time as a clamped one
//! does, and is reported as one.

use super::{MotionClampingSettings, Scratch, reset};
use crate::domain::translated_sweep;
use crate::hooks::ContactResponse;
use crate::motion::{
    ShapeRules, discs_stay_apart, earliest_shape_tois, held_normal, shape_at, shape_tois,
};
use crate::report::ClampReport;
use crate::swing::{Deepening, anchored, swinging_deepening, unit_normal};
use impact_geometry::{Point, Real, Shape, Sweep, Vector};
use impact_narrowphase::{Toi, distance};
use impact_solver::{BodySet, ContactPair};

impl Scratch {
    /// Stops every dynamic body that would run over a checked body stopped below 1 (by its
    /// earliest fraction, or held at its start by the net): for each candidate pair of such a
    /// body `x` stopped at fraction `f` and a dynamic body `y`, the time of impact of `y` along
    /// the rest of its motion, from `f` on, against `x` standing where it stopped; `y`'s
    /// fraction becomes the earliest safe one over these (for a pair that overlaps there,
    /// where the overlap deepens: see [`meets`]), unless the pre-solve hook disables the
    /// meeting. `contacts` are the step's manifolds, whose normals keep an overlapping
    /// pair's side.
    ///
    /// Each fraction is found from the fractions of the clamp alone, before any is lowered
    /// here, so the order of the candidates changes nothing. One pass only: a body stopped
    /// here may in turn be run into by a third body, which then meets it as two bodies
    /// the contact solver holds, or, if checked, on the motion it was not stopped on (the
    /// limit of dynamic versus dynamic that [`MotionClamping`](super::MotionClamping) states).
    pub(super) fn stop_runners(
        &mut self,
        settings: &MotionClampingSettings,
        (bodies, rules, pre_solve): (&BodySet, ShapeRules<'_>, bool),
        contacts: &[ContactPair],
        dt: Real,
        report: &mut ClampReport,
    ) {
        let slots = self.earliest.len();
        // Where each checked body stands: the earliest of its time of impact and the net's.
        reset(&mut self.stopped_at, slots, 1.0);
        for (slot, &earliest) in self.earliest.iter().enumerate() {
            self.stopped_at[slot] = earliest;
        }
        for &(handle, fraction) in &self.clamps {
            if let Some(at) = self.stopped_at.get_mut(handle.index as usize) {
                *at = at.min(fraction);
            }
        }
        reset(&mut self.run_over, slots, 1.0);
        let mut tois = core::mem::take(&mut self.tois);
        for &(x, y, offset) in &self.candidates {
            let f = self.stopped_at[x as usize];
            if f >= 1.0 || f.is_nan() {
                continue;
            }
            let (Some(hx), Some(hy)) = (self.handles[x as usize], self.handles[y as usize]) else {
                continue;
            };
            let (Some(bx), Some(by)) = (bodies.get(hx), bodies.get(hy)) else {
                continue;
            };
            // A driver goes on past a free body stopped before it (see `carry`), and so does a
            // pusher too slow to be a driver (see `Scratch::pusher`).
            if !by.is_dynamic() || self.driver_pair(x, y) || self.pushes_free(y, x) {
                continue;
            }
            let (Some(sweep_x), Some(sweep_y)) = (
                self.sweeps[x as usize],
                self.sweeps[y as usize].and_then(|sweep| translated_sweep(&sweep, &offset)),
            ) else {
                continue;
            };
            // Most runner candidates of a pile (neighbours of a body stopped on a segment)
            // never come near the stopped body: their discs tell without the rest of the
            // sweep, the stopped sweep and the query.
            let standing = sweep_x.center_at(f);
            if discs_stay_apart(
                (bx, &sweep_x, standing, standing),
                (by, &sweep_y, sweep_y.center_at(f), sweep_y.center_at(1.0)),
                &settings.toi,
            ) {
                continue;
            }
            // The rest of `y`'s motion, and `x` standing where it stopped over that time;
            // nothing is left when `f` is 1 to rounding.
            let Ok(rest) = sweep_y.remainder_from(f) else {
                continue;
            };
            let Ok(still) = Sweep::new(
                sweep_x.pose_at(f),
                sweep_x.local_center(),
                Vector::zeros(),
                0.0,
                rest.dt(),
            ) else {
                continue;
            };
            let admit = |pair: [u32; 2]| rules.admits(bodies, (hy, by), (hx, bx), pair);
            let (runner, stopped) = ((by, &rest), (bx, &still));
            if pre_solve {
                // The hook may set the earliest hit aside: every pair is needed.
                shape_tois(runner, stopped, admit, &settings.toi, &mut tois);
            } else {
                let bound = rest_bound(self.run_over[y as usize], f);
                earliest_shape_tois(runner, stopped, admit, &settings.toi, bound, &mut tois);
            }
            report.toi_queries += tois.len();
            for &(shapes, toi) in &tois {
                let (shape_y, shape_x) = (shape_at(by, shapes[0]), shape_at(bx, shapes[1]));
                let by_slots = self.contacts_by_slots.view(contacts);
                let side = || held_normal(by_slots, (y, shapes[0]), (x, shapes[1]));
                let Some((g, meeting)) =
                    meets(settings, toi, ((shape_y, &rest), (shape_x, &still)), side)
                else {
                    continue;
                };
                let g = g.clamp(0.0, 1.0);
                let at = f + g * (1.0 - f);
                if let (Some((point, normal)), true) = (meeting, pre_solve) {
                    let sides = (
                        (
                            hy,
                            shapes[0],
                            rest.pose_at(g),
                            (rest.linvel(), rest.angvel()),
                        ),
                        (hx, shapes[1], still.start(), (Vector::zeros(), 0.0)),
                    );
                    let response = rules.rules.pre_solve_impact(
                        bodies,
                        sides,
                        (point, normal),
                        settings.toi.target_separation(),
                        at * dt,
                    );
                    if response == ContactResponse::Disable {
                        continue;
                    }
                }
                let stop = &mut self.run_over[y as usize];
                *stop = stop.min(at);
            }
        }
        self.tois = tois;
        for (earliest, &run_over) in self.earliest.iter_mut().zip(&self.run_over) {
            *earliest = earliest.min(run_over);
        }
    }
}

/// The fraction of the rest of a runner's motion (from `f` of the step on) past which a
/// meeting stops it no earlier than `stop` (a fraction of the step) already does: the inverse
/// of `f + g * (1 - f)`, which grows with `g`; [`Real::INFINITY`] (every meeting counts) when
/// rounding leaves that in doubt.
fn rest_bound(stop: Real, f: Real) -> Real {
    let span = 1.0 - f;
    if !(stop < 1.0 && span > 0.0) {
        return Real::INFINITY;
    }
    let g = (stop - f) / span;
    if f + g * span >= stop {
        g
    } else {
        Real::INFINITY
    }
}

/// Where the rest of a runner's motion (`y`, the first of `courses`) meets the stopped body
/// (`x`, standing still over the same time), as a fraction of that rest, with the point and
/// the normal (from `y` toward `x`) when one is known: the earliest safe fraction of their
/// time of impact `toi`; or, for a pair that overlaps there, where the overlap deepens along
/// its normal (kept on the side of the step's manifold, `side`) by the tolerance. The contact
/// solver's manifold does not hold that overlap: it held the pair at the targets, and `x`
/// stopped short of its own. `None` if they never meet.
fn meets(
    settings: &MotionClampingSettings,
    toi: Toi,
    ((shape_y, rest), (shape_x, still)): ((&Shape, &Sweep), (&Shape, &Sweep)),
    side: impl Fn() -> Option<Vector>,
) -> Option<(Real, Option<(Point, Vector)>)> {
    match toi {
        Toi::Hit(hit) => Some((hit.fraction, Some((hit.point, hit.normal)))),
        Toi::NotConverged { safe_fraction } => Some((safe_fraction, None)),
        Toi::Separated => None,
        Toi::Overlapping => {
            let start = distance(shape_y, &rest.pose_at(0.0), shape_x, &still.start());
            let normal = anchored(unit_normal(&start)?, side());
            match swinging_deepening(
                (shape_y, rest),
                (shape_x, still),
                normal,
                settings.toi.tolerance(),
                settings.toi.max_iterations(),
            ) {
                Deepening::Never => None,
                Deepening::At {
                    after,
                    point,
                    normal,
                } => Some((after / rest.dt(), Some((point, normal)))),
                Deepening::Unknown { safe } => Some((safe / rest.dt(), None)),
            }
        }
    }
}
