//! Courses: where each body is and goes inside a step of
//! [`FirstTimeOfImpact`](super::FirstTimeOfImpact).
//!
//! A body's *course* is a constant-velocity sweep from the moment it last changed course to
//! the end of the step, with a [`Ramp`] for how its velocity changes along it. The first
//! course is the chord from the start pose to the contact solver's target (only the two
//! poses are certain: the solver's substeps make the real path piecewise); every impact, stop
//! or hook request gives the bodies it touches a new one from that moment, with a new
//! version that makes their queued impacts stale. Every question a plan asks of a body (its
//! pose at a time, its course from a time and that course's box) is answered here, from the
//! course alone, so that a plan and a resolution see the same motion bit for bit.

use super::FirstTimeOfImpactSettings;
use super::plan::Planning;
use super::queue::Entry;
use super::reach::{Admit, reach, skin_reach};
use super::state::{Hot, Run, Scratch};
use crate::domain::translated_sweep;
use crate::motion::{
    is_finite, motion_scale, moves_past_threshold, never_collides, pose_on_course, rebuilt_sweep,
};
use crate::ramp::Ramp;
use crate::report::{ClampedBody, FirstToiReport};
use crate::stepper::StepContext;
use crate::swing::swings;
use impact_broadphase::Broadphase;
use impact_geometry::{Aabb, Isometry, Point, Real, Shape, Sweep, Vector};
use impact_solver::{BodyType, RigidBody};

/// Where a disc about its own centre is at `t` on `course`, at its course's start rotation:
/// it looks the same at every angle, and the start rotation saves a sine and cosine per
/// query. The position is the one `pose_on_course` gives, bit for bit (its rotation of the
/// zero centre adds exact zeros); a query that works in the disc's frame (disc against
/// segment) rounds differently in the other frame, nothing more.
#[inline]
pub(super) fn round_start((t0, sweep): (Real, Sweep), t: Real) -> Isometry {
    let at =
        sweep.start().translation.vector + sweep.linvel() * (sweep.dt() * ((t - t0) / sweep.dt()));
    Isometry::from_parts(at.into(), sweep.start().rotation)
}

/// Whether a course stays put (see [`Hot::still`]).
pub(super) fn still(sweep: &Sweep) -> bool {
    sweep.linvel() == Vector::zeros() && sweep.angvel() == 0.0
}

/// Whether `slot` was stopped (see [`Run::stop`]) on a course that stays put.
pub(super) fn halted(stopped: &[bool], hot: &[Hot], slot: usize) -> bool {
    stopped[slot] && hot[slot].still
}

impl Scratch {
    /// Every body's first course (its chord from the start pose to the solver's target),
    /// ramp, [`Hot`] data and reach, and the CCD bodies the solver kicked past the velocity
    /// threshold checked from here on ([`FirstToiReport::kicked_bodies`]).
    pub(super) fn lay_courses<B: Broadphase>(
        &mut self,
        settings: &FirstTimeOfImpactSettings,
        ctx: &StepContext<'_, B>,
        report: &mut FirstToiReport,
    ) {
        let s = self;
        let dt = ctx.dt;
        for c in &s.solver_contacts {
            if !c.manifold.is_empty() {
                s.constrained[c.a.index as usize] = true;
                s.constrained[c.b.index as usize] = true;
            }
        }
        let pad = settings.toi.target_separation() + settings.toi.tolerance();
        let periodic = ctx.periodic;
        for (handle, body) in ctx.bodies.iter_awake() {
            let slot = handle.index as usize;
            let Some(start) = s.start[slot] else { continue };
            let Some(sweep) = rebuilt_sweep(body, &start, dt) else {
                continue;
            };
            let swept = body.swept_aabb(&sweep).inflated(pad);
            if !is_finite(&swept) {
                // A box that overflows: the body is too far out to plan; it keeps its
                // target, as under `Discrete`.
                continue;
            }
            let bound = body.bounding_radius(&body.local_center());
            let sensor = never_collides(body);
            if !s.checked[slot] && !sensor && body.is_dynamic() && body.ccd() {
                // Judged by its start velocities alone, a body the solver then kicked (in
                // the tumbling rain, a slow capsule squeezed between two bodies, sent
                // spinning at 200 rad/s) would cross a segment it had no contact with,
                // unplanned and unguarded.
                let velocities = (sweep.linvel().norm(), sweep.angvel());
                let scale = if s.driven[slot] {
                    motion_scale(body)
                } else {
                    bound
                };
                if moves_past_threshold(settings.threshold_radii_per_step, velocities, scale, dt) {
                    s.checked[slot] = true;
                    report.kicked_bodies += 1;
                }
            }
            s.motions[slot] = Some((0.0, sweep));
            s.planned[slot] = Some((0.0, sweep));
            s.ramps[slot] = Ramp::over_step(body, ctx.gravity, !s.constrained[slot], dt);
            // The closed forms straight from the courses are for bodies of one shape.
            let disc = match body.shape() {
                Shape::Circle(c) if c.center() == Point::origin() && body.has_one_shape() => {
                    Some(c.radius())
                }
                _ => None,
            };
            s.hot[slot] = Hot {
                course_box: swept,
                round: disc.is_some() && sweep.local_center() == Point::origin(),
                radius: disc.unwrap_or(0.0),
                bound,
                dynamic: body.is_dynamic(),
                fixed: body.body_type() == BodyType::Static,
                still: still(&sweep),
                ..Hot::default()
            };
            // A body locked rigid with its group at the start moves as no contact of the
            // solver's holds it (see `Scratch::locked`).
            s.swings[slot] = swings(body, &sweep, pad) || s.locked.get(slot).is_some_and(|&l| l);
            if let (BodyType::Static, Shape::Segment(segment)) = (body.body_type(), body.shape())
                && body.has_one_shape()
            {
                s.segments[slot] = Some(*segment);
            }
            if sensor {
                // A sensor never collides: no reach, so no pair search or neighbour list
                // sees it, and they are the same as without it.
                continue;
            }
            s.reach[slot] = Some(if body.body_type() == BodyType::Static {
                // It never leaves its box, and it keeps no neighbour list (see
                // `Hot::fixed`): its reach is only there for the moving bodies to find it.
                swept
            } else if let Some((anchor, around)) =
                skin_reach(body, &start, settings.reach_skin, pad, periodic.as_ref())
            {
                s.anchor[slot] = Some(anchor);
                around
            } else {
                reach(body, swept, &sweep, periodic.as_ref())
            });
        }
        s.turn_jointed(dt);
    }
}

impl Run<'_> {
    /// Where the body of `slot` is at `t` seconds into the step, on its current course.
    pub(super) fn pose_at(&self, slot: usize, t: Real) -> Option<Isometry> {
        Some(pose_on_course(self.s.motions[slot]?, t))
    }

    /// The bodies of slots `xs` and `ys`, and `ys`'s course from `t` translated by `shift`
    /// (the image `xs` meets); `None` when either body is gone or `ys` has no course left.
    pub(super) fn pair_from(
        &self,
        xs: usize,
        ys: usize,
        t: Real,
        shift: &Vector,
    ) -> Option<(&RigidBody, &RigidBody, Sweep)> {
        let body_x = self.proxies[xs].and_then(|h| self.bodies.get(h))?;
        let body_y = self.proxies[ys].and_then(|h| self.bodies.get(h))?;
        let sweep_y = translated_sweep(&self.course_from(ys, t)?, shift)?;
        Some((body_x, body_y, sweep_y))
    }

    /// The course of `slot` from `t` to the end of the step, or `None` if no time is left.
    pub(super) fn course_from(&self, slot: usize, t: Real) -> Option<Sweep> {
        let course = self.s.motions[slot]?;
        let rest = self.dt - t;
        if rest <= 0.0 {
            return None;
        }
        let sweep = course.1;
        let start = if self.s.hot[slot].round {
            round_start(course, t)
        } else {
            pose_on_course(course, t)
        };
        Sweep::new(
            start,
            sweep.local_center(),
            sweep.linvel(),
            sweep.angvel(),
            rest,
        )
        .ok()
    }

    /// The course of `slot` from `t` to the end of the step and its padded box, as
    /// [`Run::plan`] makes them. From the start of the course they are the ones kept in
    /// the scratch, bit for bit, unless the body turns about a point other than its shape's
    /// origin (recomputing the pose then rounds differently).
    pub(super) fn course_and_box(&self, slot: usize, t: Real) -> Option<(Sweep, Aabb)> {
        let (t0, sweep) = self.s.motions[slot]?;
        if t == t0
            && self.dt - t > 0.0
            && sweep.dt() == self.dt - t
            && (self.s.hot[slot].round || sweep.angvel() == 0.0)
        {
            return Some((sweep, self.s.hot[slot].course_box));
        }
        let sweep = self.course_from(slot, t)?;
        let body = self.bodies.get(self.proxies[slot]?)?;
        let pad = self.settings.toi.target_separation() + self.settings.toi.tolerance();
        Some((sweep, body.swept_aabb(&sweep).inflated(pad)))
    }

    /// The velocities of the body of `slot` at `t` on its current course (see [`Ramp`]).
    pub(super) fn velocity_at(&self, slot: usize, t: Real) -> Option<(Vector, Real)> {
        let body = self.bodies.get(self.proxies[slot]?)?;
        let course = self.s.motions[slot]?;
        let stored = (body.linvel(), body.angvel());
        if let Some(turning) = self.s.turning[slot] {
            return Some(turning.velocity_at(stored, t));
        }
        Some(self.s.ramps[slot].velocity_at(stored, course, t))
    }

    /// Gives the body of `slot` the velocities it has at `t` on its course; they hold at `t`
    /// from then on.
    pub(super) fn bring_velocity_to(&mut self, slot: usize, t: Real) {
        let Some((v, w)) = self.velocity_at(slot, t) else {
            return;
        };
        let Some(body) = self.proxies[slot].and_then(|h| self.bodies.get_mut(h)) else {
            return;
        };
        // Velocities past the range of `f64` (a scene of absurd sizes) are refused: the body
        // keeps its own, and the world reports what overflowed after the step.
        if body.is_dynamic() && body.set_velocity(v, w).is_ok() {
            self.s.ramps[slot].at = t;
            // A jointed body's velocity is no longer the end of its course's turn either.
            self.s.turning[slot] = None;
        }
    }

    /// Whether `slot`'s new course `sweep` from `t` keeps the plans of the course they were
    /// made for: every point of the body stays within a quarter of the tolerance of where
    /// that course has it, from `t` to the end of the step, so each impact queued on it, and
    /// each pair it found apart, is still right to the tolerance (the tumbler's drum, struck
    /// about two hundred times a step, would else ask the two thousand boxes resting on its
    /// walls again at each impact). The bodies it
    /// carries are carried on the new course all the same (see `carry`). Only a body whose
    /// motion is imposed, a kinematic one or a driven one (a motor's or a spring's, see
    /// `Scratch::driven`): a free body kept to its plans perturbs the course of a pile
    /// within the tolerance, and in the tumbling rain (seed 10 of 1,000 bodies) that was
    /// enough for a stick hammered into a segment, which sinks into it under every course
    /// (see `docs/benchmarks.md`), to end a step with its centre past the segment's line.
    /// Not a body with a skin reach (its escape is timed on its course), nor a carried one,
    /// nor one on a group's held advance (whose touches the plans skip only while that
    /// advance moves it).
    ///
    /// Each point is `c + R(θ) u` with `|u|` at most the bounding radius: two courses differ
    /// there by at most the distance of their centres plus the angle between them times the
    /// radius, both linear in time, so largest at `t` or at the end.
    fn keeps_plans(&self, slot: usize, t: Real, sweep: &Sweep) -> bool {
        let s = &*self.s;
        let Some((t0, planned)) = s.planned[slot] else {
            return false;
        };
        let imposed = s.driven[slot] || !(s.hot[slot].dynamic || s.hot[slot].fixed);
        if !imposed
            || s.anchor[slot].is_some()
            || s.advance_of[slot] != 0
            || s.carried_by[slot] != u32::MAX
            || s.reach[slot].is_none()
            || planned.dt() <= 0.0
        {
            return false;
        }
        let bound = s.hot[slot].bound;
        let was = planned.pose_at((t - t0) / planned.dt());
        let now = sweep.start();
        let center = sweep.local_center();
        let at_t = (now * center - was * center).norm()
            + (now.rotation * was.rotation.inverse()).angle().abs() * bound;
        let apart = (sweep.linvel() - planned.linvel()).norm()
            + (sweep.angvel() - planned.angvel()).abs() * bound;
        at_t + apart * (self.dt - t) <= 0.25 * self.settings.toi.tolerance()
    }

    /// From `t` on, `slot` follows its body's current velocities (or stays put if `halt`):
    /// a new version, and a box that covers the rest of its motion.
    pub(super) fn set_course(&mut self, slot: usize, t: Real, halt: bool) {
        let (Some(handle), Some(pose)) = (self.proxies[slot], self.pose_at(slot, t)) else {
            return;
        };
        let Some(now) = self.velocity_at(slot, t) else {
            return;
        };
        let Some(body) = self.bodies.get(handle) else {
            return;
        };
        // A stopped body stays stopped for the rest of the step, whatever hits it, and keeps
        // the velocities it had when it stopped.
        let halt = halt || self.s.stopped[slot];
        // A course that starts at the very end of the step still needs a positive length.
        let rest = (self.dt - t).max(Real::MIN_POSITIVE);
        let ((linvel, angvel), end, ramp) = match body.body_type() {
            BodyType::Static => return,
            _ if halt => ((Vector::zeros(), 0.0), now, Ramp::still(t)),
            BodyType::Dynamic | BodyType::Kinematic => {
                let ramp = self.s.ramps[slot];
                let (course, end) = ramp.course(now, rest);
                (
                    course,
                    end,
                    Ramp {
                        at: self.dt,
                        ..ramp
                    },
                )
            }
        };
        let Ok(sweep) = Sweep::new(pose, body.local_center(), linvel, angvel, rest) else {
            return;
        };
        if !halt && self.keeps_plans(slot, t, &sweep) {
            self.s.keep_plans = Some(slot);
        }
        self.install_course(slot, (t, sweep), end, ramp, halt);
    }

    /// Gives `slot` the course `sweep` from `t`, along which its velocity changes as `ramp`
    /// says, ending the step at the velocities `end` (which its body takes now: they hold at
    /// the end of the step); `halt` for a course that stays put. A new version, and a box
    /// that covers the rest of its motion (a larger reach if it leaves its own). The bodies
    /// it carries are carried on the new course ([`Run::install_course`]).
    pub(super) fn lay_course(
        &mut self,
        slot: usize,
        (t, sweep): (Real, Sweep),
        end: (Vector, Real),
        ramp: Ramp,
        halt: bool,
    ) {
        let Some(handle) = self.proxies[slot] else {
            return;
        };
        let Some(body) = self.bodies.get_mut(handle) else {
            return;
        };
        if body.is_dynamic() {
            // Refused only past the range of `f64` (see `bring_velocity_to`).
            let _ = body.set_velocity(end.0, end.1);
        }
        self.s.turning[slot] = None;
        // Not a held advance's course (`install_group_motions` marks its own after this).
        self.s.advance_of[slot] = 0;
        let body = &*body;
        let sensor = never_collides(body);
        if self.courses.is_recording() {
            // The whole motion of a body that changes course: its first course (the chord
            // to its target) at its first change, then every new one.
            if !self.s.rerouted[slot]
                && let Some((t0, first)) = self.s.motions[slot]
            {
                self.courses.record(handle, t0, first);
            }
            self.courses.record(handle, t, sweep);
        }
        self.s.ramps[slot] = ramp;
        self.s.motions[slot] = Some((t, sweep));
        let keep = self.s.keep_plans.take() == Some(slot);
        self.s.plans_kept[slot] = keep;
        self.report.kept_plans += usize::from(keep);
        if !keep {
            self.s.hot[slot].version = self.s.hot[slot].version.wrapping_add(1);
            self.s.planned[slot] = Some((t, sweep));
        }
        self.s.hot[slot].still = still(&sweep);
        self.s.rerouted[slot] = true;
        let pad = self.settings.toi.target_separation() + self.settings.toi.tolerance();
        self.s.swings[slot] = swings(body, &sweep, pad);
        let aabb = body.swept_aabb(&sweep).inflated(pad);
        self.s.hot[slot].course_box = aabb;
        if sensor {
            // A sensor has no reach and no neighbours (it never collides): its course is
            // all it needs.
            return;
        }
        let Some(old) = self.s.reach[slot] else {
            // Never planned (its box overflowed at the start): nothing can be planned
            // against it, so it stays put.
            if !halt {
                self.set_course(slot, t, true);
            }
            return;
        };
        if !is_finite(&aabb) {
            // A box that overflows cannot be planned against: stay put.
            if !halt {
                self.set_course(slot, t, true);
            }
            return;
        }
        if self.s.anchor[slot].is_some() {
            // A skin reach: the list holds every body the new course can meet until the
            // centre leaves its anchor, when the body escapes.
            self.schedule_escape(slot, t);
            return;
        }
        if old.contains(&aabb) {
            // The usual case: the new course stays within the reach, the neighbour list
            // still holds every body it can meet.
            return;
        }
        // The course leaves its reach: a larger reach, and the bodies it meets added to
        // both neighbour lists.
        self.report.reach_escapes += 1;
        let fresh = reach(body, aabb, &sweep, self.periodic.as_ref());
        let admit = Admit::new(self.shape_rules(), self.bodies, self.proxies);
        self.s.grow_reach(slot, fresh.merged(&old), admit);
    }

    /// The event cap was reached, or a query gave up, or a Zeno pair met again: the moving
    /// bodies of the pair stop at the entry's time, and whatever heads into them is planned
    /// anew. Unless one is a driven body (a motor's or a spring's, or one such a body
    /// carries) and the other a free body, which the driven body carries from here (see
    /// `carry`): sent on with the other body stopped, a flipper passed the ball it pushed.
    /// A driven body whose other body cannot be carried (a body squeezed against a wall
    /// past its carries) is not stopped either: the other stops and the driven body goes on
    /// into it, as the peers' soft contacts let it (see `carry`). Stopped, a motor-driven
    /// paddle stirring a pile stalled at every body it pushed along the ring.
    pub(super) fn stop_pair(&mut self, e: &Entry) {
        let (a, b) = (e.a as usize, e.b as usize);
        if self.carries(e) {
            return;
        }
        for (slot, other) in [(a, b), (b, a)] {
            if self.s.driven[slot] && self.s.hot[other].dynamic && !self.s.driven[other] {
                continue;
            }
            self.stop(slot, e.time);
        }
    }

    /// Stops the body of `slot` at `t` for the rest of the step (a dynamic body, once): it
    /// stays put on a halted course, its lost time is reported, and what heads into it is
    /// planned anew.
    pub(super) fn stop(&mut self, slot: usize, t: Real) {
        let Some(handle) = self.proxies[slot] else {
            return;
        };
        if self.s.stopped[slot] || !self.bodies.get(handle).is_some_and(|b| b.is_dynamic()) {
            return;
        }
        self.set_course(slot, t, true);
        self.s.stopped[slot] = true;
        let time_lost = self.dt - t;
        self.report.time_lost += time_lost;
        self.report.stopped.push(ClampedBody {
            body: handle,
            fraction: (t / self.dt).clamp(0.0, 1.0),
            time_lost,
        });
        self.plan(slot as u32, t, Planning::Alone);
        self.regroup_after_stop(slot, t);
    }

    /// Every body that changed course ends the step on its course; the others keep the
    /// contact solver's target.
    pub(super) fn end_on_courses(&mut self) {
        for slot in 0..self.proxies.len() {
            if !self.s.rerouted[slot] {
                continue;
            }
            let (Some(handle), Some((_, sweep))) = (self.proxies[slot], self.s.motions[slot])
            else {
                continue;
            };
            if let Some(body) = self.bodies.get_mut(handle) {
                let ok = body.set_pose(sweep.pose_at(1.0));
                debug_assert!(ok.is_ok(), "a pose on a finite sweep is valid");
            }
        }
    }
}
