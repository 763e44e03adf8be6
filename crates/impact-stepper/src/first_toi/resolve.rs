//! Resolution: the event loop of [`FirstTimeOfImpact`](super::FirstTimeOfImpact), impact
//! after impact in time order, and what each impact does.
//!
//! The queue gives the earliest entry still current (an entry whose body changed course since
//! it was planned is dropped as it surfaces, rather than searched for and removed). An impact
//! brings its two bodies to its time on their courses, with the velocities they have there,
//! resolves it with the single-impact resolver, records its event and runs the hook; then the
//! bodies it changed get new courses and are planned again, and nothing else is recomputed.
//! The safety nets that bound the work of a step live here too: a Zeno pair is resolved
//! inelastically and handed to the contact solver, a pair that comes to rest on its contact
//! shares one acceleration from then on, a body that still presses into a stopped one stops,
//! and past the event cap bodies stop at their impacts, the time they lose reported.

use super::course::halted;
use super::plan::Planning;
use super::queue::{Due, Entry};
use super::state::{Run, is_current};
use crate::domain::translated;
use crate::events::{CollisionEvent, EventKind, Impact, ImpactHook};
use crate::hooks::ContactResponse;
use crate::motion::{absorb_approach, move_as_one, shape_at, shapes_material};
use crate::ramp::Ramp;
use impact_geometry::{Point, Real, Vector};

use impact_narrowphase::shared_face_middle;
use impact_solver::{
    BodyHandle, ImpactSettings, Material, combine_restitution, resolve_impact_with,
};

/// A moving body that still closes in on a stopped one after their impact (see
/// [`Run::pressing`]).
struct Pressing {
    /// The moving body's slot.
    slot: usize,
    /// The point of contact, where the moving body is.
    at: Point,
    /// The unit normal from the moving body toward the stopped one.
    into: Vector,
}

impl Run<'_> {
    /// Impact after impact: the earliest current entry of the queue, until it is empty. An
    /// impact is resolved ([`Run::resolve`]) until the event cap, past which its bodies stop
    /// there; a query that gave up stops its bodies at its last safe time; an escape gives
    /// its body a new reach ([`Run::escape`]).
    pub(super) fn impacts(
        &mut self,
        events: &mut Vec<CollisionEvent>,
        hook: &mut dyn ImpactHook,
        removed: &mut Vec<BodyHandle>,
    ) {
        loop {
            let s = &mut *self.s;
            let (hot, requests) = (&s.hot, &s.requests);
            let Some(entry) = s.queue.pop_current(
                |a, b, version_a, version_b| {
                    is_current(hot, requests, (a, version_a), (b, version_b))
                },
                &mut self.report.invalidated,
            ) else {
                break;
            };
            let pair = match entry.due {
                Due::Escape => None,
                _ => self.s.pairs.get(&(entry.a, entry.b)),
            };
            if pair.is_some_and(|p| p.disabled) {
                // The pre-solve hook let the pair through for the rest of the step.
                continue;
            }
            if pair.is_some_and(|p| p.handed_over) {
                // A Zeno pair meets again: rather than another impact, or letting one pass
                // through the other, both stop here until the step ends (time lost,
                // reported); the contact solver takes the pair from the next step.
                self.stop_pair(&entry);
                if entry.time <= 0.0 {
                    self.move_stopped_pair_as_one(&entry);
                }
                continue;
            }
            match entry.due {
                Due::Impact { .. } if self.report.events < self.settings.max_events => {
                    self.resolve(&entry, events, hook, removed);
                }
                Due::Impact { .. } => {
                    self.report.capped = true;
                    self.stop_pair(&entry);
                }
                Due::Stop => self.stop_pair(&entry),
                Due::Escape => self.escape(&entry),
            }
        }
    }

    /// A Zeno pair of two dynamic bodies met again at the very start of the step, and
    /// `stop_pair` stopped both there: they leave moving as one body (see `move_as_one`), a
    /// perfectly inelastic, rough impact between them that keeps their linear and angular
    /// momentum. Left with the velocities that closed them, the pair would start the next
    /// step from the same poses at nearly the same velocities, be planned from there again
    /// (a pair with a body that swings is planned even where the solver holds it), meet again
    /// at the start and stop again, step after step, hung in mid-air (in `tests/hung.rs`, a
    /// stick against a wall and a square spinning at its top end). Not a pair with a static
    /// body: its dynamic body would be left still, where another pair's motion can take it
    /// back into the static one. Nor a pair that a driven body goes on from or carries (its
    /// bodies are not both stopped), nor one held by joints, nor a pair met through a
    /// periodic image.
    fn move_stopped_pair_as_one(&mut self, e: &Entry) {
        let (a, b) = (e.a as usize, e.b as usize);
        let s = &*self.s;
        let stopped = |slot: usize| s.hot[slot].dynamic && s.stopped[slot];
        let jointed = |slot: usize| s.jointed.get(slot).is_some_and(Option::is_some);
        if e.offset != Vector::zeros() || !(stopped(a) && stopped(b)) || jointed(a) || jointed(b) {
            return;
        }
        let (Some(ha), Some(hb)) = (self.proxies[a], self.proxies[b]) else {
            return;
        };
        let centre = |slot: usize, handle: BodyHandle| {
            let body = self.bodies.get(handle)?;
            Some(self.pose_at(slot, e.time)? * body.local_center())
        };
        if let (Some(ca), Some(cb)) = (centre(a, ha), centre(b, hb)) {
            move_as_one(self.bodies, (ha, ca), (hb, cb));
        }
    }

    /// Resolves the impact of `e`, records it, runs the hook and re-plans what changed.
    pub(super) fn resolve(
        &mut self,
        e: &Entry,
        events: &mut Vec<CollisionEvent>,
        hook: &mut dyn ImpactHook,
        removed: &mut Vec<BodyHandle>,
    ) {
        let Due::Impact {
            point,
            normal,
            shapes,
        } = e.due
        else {
            return;
        };
        let material = match self.pre_solve(e, (point, normal), shapes) {
            ContactResponse::Keep => None,
            ContactResponse::Modify(material) => Some(material),
            ContactResponse::Disable => {
                // Not resolved: the pair passes through each other for the rest of the step,
                // on the courses it has (a one-way platform met from below).
                self.pair_state(e.a, e.b).disabled = true;
                return;
            }
        };
        let Some((event, point)) = self.collide(e, (point, normal), shapes, material) else {
            return;
        };
        let t = e.time;
        events.push(event);

        self.s.touched.clear();
        let mut impact = Impact {
            event: &event,
            bodies: &mut *self.bodies,
            motions: &self.s.motions,
            at: t,
            requests: &mut self.s.requests,
            touched: &mut self.s.touched,
        };
        hook.on_impact(&mut impact);
        self.change_courses(e, point, normal, removed);
    }

    /// The pre-solve hook's answer for the impact of `e` at `point` with `normal` (from the
    /// smaller slot toward the larger, whose body is met at its image `e.offset` away) of the
    /// shapes at `shapes` (the smaller slot's first), asked with the bodies where they are and
    /// how they move at the impact.
    fn pre_solve(
        &self,
        e: &Entry,
        (point, normal): (Point, Vector),
        shapes: [u32; 2],
    ) -> ContactResponse {
        if !self.rules.has_pre_solve() {
            return ContactResponse::Keep;
        }
        let t = e.time;
        let side = |slot: usize, shape: u32, offset: Vector| {
            let handle = self.proxies[slot]?;
            let pose = translated(&self.pose_at(slot, t)?, &offset);
            Some((handle, shape, pose, self.velocity_at(slot, t)?))
        };
        let (Some(a), Some(b)) = (
            side(e.a as usize, shapes[0], Vector::zeros()),
            side(e.b as usize, shapes[1], e.offset),
        ) else {
            return ContactResponse::Keep;
        };
        self.rules.pre_solve_impact(
            self.bodies,
            (a, b),
            (point, normal),
            self.settings.toi.target_separation(),
            t,
        )
    }

    /// Brings the bodies of `e` to its time, at the velocities they have there, and resolves
    /// their impact at `point` with `normal` (from the smaller slot toward the larger):
    /// inelastically for a Zeno pair (handed to the contact solver) and for a pair that comes
    /// to rest on the contact ([`Run::rests`]). Returns the event and the point the impulse
    /// acted at ([`Run::acting_point`]); `None` when a body is gone, or when the resolver
    /// refused, which stops both. `material` is the contact's own, set by the pre-solve hook;
    /// without one, a body of several shapes meets with the combined material of the two
    /// shapes at `shapes` (the smaller slot's first), and two bodies of one shape each with
    /// their bodies' (the resolver combines them).
    fn collide(
        &mut self,
        e: &Entry,
        (point, normal): (Point, Vector),
        shapes: [u32; 2],
        material: Option<Material>,
    ) -> Option<(CollisionEvent, Point)> {
        let t = e.time;
        let (a, b) = (e.a as usize, e.b as usize);
        let (Some(ha), Some(hb)) = (self.proxies[a], self.proxies[b]) else {
            return None;
        };
        let material = material.or_else(|| shapes_material(self.bodies, (ha, hb), shapes));
        let material = material.as_ref();
        // Both bodies to the moment of the impact, `b` at the image the impact was planned
        // with (the resolver takes lever arms from the poses).
        // Their velocities too: those they have at `t` on their courses, which the step's
        // gravity after `t` is not yet part of.
        // A body held by rigid joints: its whole group to the moment of the impact (joints
        // are refused in periodic domains, so no image is met).
        let grouped = e.offset == Vector::zeros() && self.gather_group((a, b), (ha, hb));
        if grouped && self.kept_by_group(e, (point, normal)) {
            return None;
        }
        self.s.grouped = grouped;
        if grouped {
            self.bring_group_to(t);
        }
        for (slot, handle, offset) in [(a, ha, Vector::zeros()), (b, hb, e.offset)] {
            if grouped {
                break;
            }
            if let (Some(pose), Some(body)) = (self.pose_at(slot, t), self.bodies.get_mut(handle)) {
                let ok = body.set_pose(translated(&pose, &offset));
                debug_assert!(ok.is_ok(), "a pose on a finite sweep is valid");
            }
            self.bring_velocity_to(slot, t);
        }
        let min_gap = self.settings.min_advance * self.dt;
        let max_pair = self.settings.max_pair_events;
        let pair = self.pair_state(e.a, e.b);
        let zeno = pair.impacts + 1 >= max_pair || (pair.impacts > 0 && t - pair.last < min_gap);
        pair.impacts += 1;
        pair.last = t;
        pair.handed_over = zeno;
        pair.normal = normal;
        pair.shapes = shapes;
        // A group's two faces meeting along a stretch: a row at each end (see `groups`).
        let ends = if grouped {
            (point, self.face_end((ha, hb), shapes, point, normal))
        } else {
            (point, None)
        };
        let point = self.acting_point((ha, hb), shapes, point, normal);
        let rests = self.rests(e, (point, normal), t, material);
        let impact_settings = if zeno || rests {
            // Inelastic: the bounce that would feed the sequence is dropped, and so is one
            // that would not outlast the step.
            ImpactSettings {
                restitution_threshold: Real::MAX,
                ..self.settings.impact
            }
        } else {
            self.settings.impact
        };
        let resolved = if grouped {
            self.resolve_group(
                ((ha, hb), shapes),
                (ends, normal),
                (material, t),
                &impact_settings,
            )
        } else {
            resolve_impact_with(
                self.bodies,
                ha,
                hb,
                point,
                normal,
                material,
                &impact_settings,
            )
        };
        if e.offset != Vector::zeros()
            && let (Some(pose), Some(body)) = (self.pose_at(b, t), self.bodies.get_mut(hb))
        {
            let ok = body.set_pose(pose);
            debug_assert!(ok.is_ok(), "a pose on a finite sweep is valid");
        }
        let impulse = match resolved {
            Ok(impulse) => impulse,
            Err(_) => {
                // Unreachable for a planned pair (live handles, a unit normal from the
                // narrowphase); stopping both is the safe answer if it ever happens.
                debug_assert!(false, "a planned impact resolves");
                self.stop(a, t);
                self.stop(b, t);
                return None;
            }
        };
        self.report.events += 1;
        if zeno {
            self.report.zeno_pairs.push((ha, hb));
        }
        let event = CollisionEvent {
            time: self.time + t,
            fraction: (t / self.dt).clamp(0.0, 1.0),
            a: ha,
            b: hb,
            shapes,
            kind: if zeno {
                EventKind::ZenoHandover
            } else {
                EventKind::Impact
            },
            impulse,
        };
        Some((event, point))
    }

    /// After the impact of `e` at `point` with `normal` and the hook: the two bodies and
    /// whatever the hook touched change course at the impact's time and are planned again;
    /// a body the hook removed stays where it is, and one that still presses into a stopped
    /// body stops.
    fn change_courses(
        &mut self,
        e: &Entry,
        point: Point,
        normal: Vector,
        removed: &mut Vec<BodyHandle>,
    ) {
        let t = e.time;
        self.note_wall(e, normal);
        self.s.replan.clear();
        self.s.replan.extend([e.a, e.b]);
        for i in 0..self.s.touched.len() {
            let slot = self.s.touched[i].index;
            let request = &mut self.s.requests[slot as usize];
            if core::mem::take(&mut request.velocity_set) {
                // What the hook set holds from now on.
                self.s.ramps[slot as usize].at = t;
            }
            if !self.s.replan.contains(&slot) {
                self.s.replan.push(slot);
            }
        }
        // A body that hit a stopped one and still heads into it would hit it again at
        // once: the stopped body keeps its place whatever the impulse gave its velocity.
        // That second impact would be a Zeno sequence (two at one instant), resolved
        // inelastically with the bodies' velocities, which seldom turns the moving body
        // away from a body that does not move; the pair's next meeting, again at once,
        // would stop it. It stops here instead, with the velocities of this impact, without
        // the two impacts and the plans in between. In the rain at 1,000 discs, where
        // piles of stopped discs are hit from above, that was two impacts of every three.
        //
        // Its velocity into the stopped body is taken out as well, as an impact on a body
        // that does not move would take it (inelastic, no friction): kept, it would press the
        // body into the stopped one at the start of the next step too, where both stop again.
        // In the rain, piles of discs held that way kept tens of units per second, step after
        // step, without moving: every disc of a pile was checked, planned and stopped anew.
        //
        // A driven body (a motor's, a spring's, or one it carries) keeps its approach and
        // carries the stopped body on from here if it can (see `carry`); if not, a carried
        // body stops, and a driven one goes on into it (see `Run::stop_pair`).
        if let Some(Pressing { slot, at, into }) = self.pressing(e, point, normal) {
            if let Some(by) = self.carrier(slot) {
                let other = if slot == e.a as usize { e.b } else { e.a };
                if !self.try_carry(other as usize, by, t, Some(normal)) && by != slot {
                    self.s.replan.retain(|&x| x as usize != slot);
                    self.stop(slot, t);
                }
            } else if let Some(body) = self.proxies[slot].and_then(|h| self.bodies.get_mut(h)) {
                absorb_approach(body, at, into);
                self.s.replan.retain(|&x| x as usize != slot);
                self.stop(slot, t);
            }
        }
        // A jointed group's bodies all change course (see `groups`).
        let grouped = core::mem::take(&mut self.s.grouped);
        if grouped {
            let slots: Vec<u32> = self.group_slots().collect();
            for slot in slots {
                if !self.s.replan.contains(&slot) {
                    self.s.replan.push(slot);
                }
            }
        }
        for i in 0..self.s.replan.len() {
            let slot = self.s.replan[i] as usize;
            self.s.plans_kept[slot] = false;
            let request = self.s.requests[slot];
            if grouped && !request.removed && self.in_group(slot) {
                continue;
            }
            if request.removed {
                if let Some(handle) = self.proxies[slot]
                    && !removed.contains(&handle)
                {
                    removed.push(handle);
                    self.report.removed += 1;
                    self.set_course(slot, t, true);
                }
            } else if !halted(&self.s.stopped, &self.s.hot, slot) {
                self.set_course(slot, t, false);
            }
        }
        if grouped {
            self.group_courses(t);
        }
        // A static body that was hit plans nothing: its course did not change, and each of
        // its pairs is planned by its other body, from the start of that body's course
        // (the one it hit just now included). What a plan from here would add is the
        // pairs the contact solver keeps (resting bodies on their solver courses), asked
        // only because something else hit the same body: those are the solver's, with
        // `pushed_through` as their safety net, as at the start of the step. Nor does a
        // body stopped earlier: it keeps its halted course whatever the impulse gave its
        // velocity, so its version and queued impacts stay valid, and the other body
        // plans their pair.
        let s = &mut *self.s;
        // Nor does a body whose new course keeps the plans of its old one (see
        // `Run::keeps_plans`); taken out before the others plan, which ask their pairs
        // with it themselves.
        let (hot, requests, stopped, kept) = (&s.hot, &s.requests, &s.stopped, &s.plans_kept);
        s.replan.retain(|&slot| {
            let slot = slot as usize;
            !hot[slot].fixed
                && (requests[slot].removed || !halted(stopped, hot, slot))
                && !kept[slot]
        });
        for i in 0..self.s.replan.len() {
            let slot = self.s.replan[i];
            self.plan(slot, t, Planning::Replan);
        }
        // The impact's own pair: its entry is spent, and a body of it that plans asks it
        // again. When neither does (one kept its plans, the other kept them too, or is
        // stopped, or static), the one that kept them asks it alone: a kinematic flipper,
        // whose course no impact changes, passed the disc it had just stopped.
        let (a, b) = (e.a, e.b);
        if !self.s.replan.contains(&a) && !self.s.replan.contains(&b) {
            if self.s.plans_kept[a as usize] {
                self.ask_pair_again(a, b, t);
            } else if self.s.plans_kept[b as usize] {
                self.ask_pair_again(b, a, t);
            }
        }
    }

    /// Plans the pair of `x` and `y` from `t`, through every image of `y` in `x`'s
    /// neighbour list.
    fn ask_pair_again(&mut self, x: u32, y: u32, t: Real) {
        let xs = x as usize;
        let Some((sweep_x, _)) = self.course_and_box(xs, t) else {
            return;
        };
        let neighbours = core::mem::take(&mut self.s.neighbours[xs]);
        for &neighbour in neighbours.iter().filter(|n| n.slot == y) {
            self.plan_pair(
                x,
                &sweep_x,
                neighbour,
                (t, t, Real::NEG_INFINITY),
                Planning::Alone,
            );
        }
        self.s.neighbours[xs] = neighbours;
    }

    /// Where the impact of the bodies of `ha` and `hb` (placed at the impact) at `point` with
    /// `normal` acts: the middle of the stretch along which their faces touch, to the
    /// tolerance, where they meet face to face (see [`shared_face_middle`]): the first point
    /// of contact is then an end of it, and an impulse there would spin a body that landed
    /// flat. Unless the faces close at the first point and not at the far end of the stretch
    /// (the point as far past the middle): a spinning body meeting a face with its own face
    /// turns one end in and the other away, and an impulse at the middle then stops at most
    /// the approach there, none of the turn that drives the first point in, so the pair met
    /// again at once, with nothing changed, until the Zeno limit stopped both.
    ///
    /// Refusing the middle only where the faces part there would not do: two bodies turning
    /// about it relative to each other close there by nothing, or by rounding, and the middle
    /// takes an impulse of 1e-19. A capsule and a square falling face to face at 180 units/s,
    /// turning 6 rad/s apart, were then stopped at the start of every step, hung in mid-air
    /// with the bodies that landed on them (the tumbling rain, seed 7: four).
    fn acting_point(
        &self,
        (ha, hb): (BodyHandle, BodyHandle),
        [i, j]: [u32; 2],
        point: Point,
        normal: Vector,
    ) -> Point {
        let (Some(a), Some(b)) = (self.bodies.get(ha), self.bodies.get(hb)) else {
            return point;
        };
        let middle = shared_face_middle(
            shape_at(a, i),
            a.pose(),
            shape_at(b, j),
            b.pose(),
            point,
            normal,
            self.settings.toi.tolerance(),
        );
        let closing =
            |p: &Point| (b.velocity_at_point(p) - a.velocity_at_point(p)).dot(&normal) < 0.0;
        // The approach is affine along the faces: the stretch closes all along only if it
        // closes at both ends.
        let far_end = middle + (middle - point);
        if middle != point && closing(&point) && !closing(&far_end) {
            return point;
        }
        middle
    }

    /// After the impact of `e` at `point` (in the smaller slot's frame) with `normal` (from
    /// the smaller slot toward the larger): the moving body, if one of the two is stopped
    /// and the other (live, dynamic, not touched by the hook's removal) still closes in on
    /// it by more than the tolerance over the rest of the step.
    fn pressing(&self, e: &Entry, point: Point, normal: Vector) -> Option<Pressing> {
        let (a, b) = (e.a as usize, e.b as usize);
        let (mover, sign, at) = match (self.s.stopped[a], self.s.stopped[b]) {
            (true, false) => (b, -1.0, point - e.offset),
            (false, true) => (a, 1.0, point),
            _ => return None,
        };
        if !self.is_live(mover) || self.s.requests[mover].removed {
            return None;
        }
        let body = self.bodies.get(self.proxies[mover]?)?;
        if !body.is_dynamic() {
            return None;
        }
        let into = normal * sign;
        let closing = body.velocity_at_point(&at).dot(&into) * (self.dt - e.time);
        (closing > self.settings.toi.tolerance()).then_some(Pressing {
            slot: mover,
            at,
            into,
        })
    }

    /// Whether the pair of `e`, about to be resolved at `t` (at `point` with `normal`, from
    /// the smaller slot toward the larger, both bodies in place and at their velocities at
    /// `t`; `material` the contact's own, if the pre-solve hook set one), comes to rest on the
    /// contact: its accelerations along the normal (gravity, for a
    /// body falling on the ground) close it, and its bounce, if any, is too slow to part it
    /// for the rest of the step. Such a pair is resolved without the bounce and from then on
    /// shares one acceleration along the normal, the one that keeps the pair's momentum (a
    /// static body's): left with gravity into the ground, a ball's course would meet it
    /// again at once, and again, until the Zeno limit stopped it; let bounce, the bounce
    /// would be carried over the step without the gravity that ends it.
    fn rests(
        &mut self,
        e: &Entry,
        (point, normal): (Point, Vector),
        t: Real,
        material: Option<&Material>,
    ) -> bool {
        let (a, b) = (e.a as usize, e.b as usize);
        let (Some(ha), Some(hb)) = (self.proxies[a], self.proxies[b]) else {
            return false;
        };
        let (Some(body_a), Some(body_b)) = (self.bodies.get(ha), self.bodies.get(hb)) else {
            return false;
        };
        let (ra, rb) = (self.s.ramps[a], self.s.ramps[b]);
        let closing_accel = (rb.accel - ra.accel).dot(&normal);
        if closing_accel >= 0.0 {
            return false;
        }
        let approach =
            -(body_b.velocity_at_point(&point) - body_a.velocity_at_point(&point)).dot(&normal);
        let restitution = if approach < self.settings.impact.restitution_threshold {
            0.0
        } else if let Some(material) = material {
            material.restitution()
        } else {
            combine_restitution(
                body_a.material().restitution(),
                body_b.material().restitution(),
            )
        };
        let rest = self.dt - t;
        if restitution * approach.max(0.0) + closing_accel * rest * 0.5 >= 0.0 {
            return false;
        }
        let (ia, ib) = (body_a.inv_mass(), body_b.inv_mass());
        if ia + ib <= 0.0 {
            return false;
        }
        let shared = (ib * ra.accel.dot(&normal) + ia * rb.accel.dot(&normal)) / (ia + ib);
        for (slot, ramp, dynamic) in [(a, ra, body_a.is_dynamic()), (b, rb, body_b.is_dynamic())] {
            if dynamic {
                self.s.ramps[slot] = Ramp {
                    accel: ramp.accel + normal * (shared - ramp.accel.dot(&normal)),
                    free: false,
                    ..ramp
                };
            }
        }
        true
    }
}
