//! Jointed groups in a step of [`FirstTimeOfImpact`](super::FirstTimeOfImpact): a body held
//! by rigid joints moves with its whole group, at the start of the step, at an impact and
//! after it. The design, its figures and its sources: `docs/algorithms/joints-ccd.md`.
//!
//! - **The step's motion** ([`Scratch::settle_fast_groups`]): a jointed group with a fast CCD
//!   body (checked, or past the threshold at the solver's velocities) is advanced rigidly over
//!   the step from where it started ([`GroupImpactSolver::advance`](impact_solver::GroupImpactSolver::advance):
//!   gravity, its rigid joint rows, RATTLE), in place of the contact solver's targets, with the
//!   solver's contacts of the group as one-sided rows ([`Touch`]): the soft joints of the
//!   solver's step open a 20-link chain of 0.1 links turning at 50 rad/s by a third of a link
//!   in one 60 Hz step, past anything a course could follow.
//! - **At an impact** ([`Run::collide`]): every body of the group (the dynamic bodies its
//!   rigid joints reach from either struck body, see
//!   [`GroupImpactSolver`](impact_solver::GroupImpactSolver)) is brought to the impact's time
//!   on its course, at its velocities there, and the group's velocity problem (the contact,
//!   at both ends of a stretch where two faces meet, and every rigid joint row) is solved at
//!   once. A body stopped earlier in the step, and one the hook removed or disabled, acts
//!   with infinite mass.
//! - **After it** ([`Run::group_courses`]): the group is advanced rigidly over the rest of
//!   the step, keeping every contact of the step's group impacts (against a wall, the struck
//!   body's whole shape held off the wall's plane: [`Run::keep_touch`]), and each of its
//!   bodies gets the straight course from where it is to where that advance ends it, and is
//!   planned again. Courses from the impact's velocities alone would carry a fast-turning
//!   group apart (a third of a 0.1 link at 50 rad/s over a step). A pair the group keeps in
//!   contact that its new courses meet again at once while its points part is the group's
//!   from there ([`Run::kept_by_group`]): the chord of a body turning about the point it
//!   struck dips toward the wall before it ends the step clear of it. Only while a held
//!   advance moves it ([`Run::keeps`]): once an advance fails and the group goes on at its
//!   velocities, nothing holds the touch, and the pair is planned again. A jointed body that
//!   stops ([`Run::regroup_after_stop`]) is held in place and its groups go on around it.
//! - **Along a course** ([`Turning`]): a jointed body's velocity turns as its course goes
//!   (a pendulum's bob, whose velocity turns 48 degrees over a 60 Hz step at 50 rad/s), so the
//!   velocity an impact resolves is interpolated between the course's two ends, its direction
//!   turning at a constant rate and its size changing linearly: the ramp of free flight
//!   (start velocity plus gravity) would give a pendulum's bob the wrong direction by up to
//!   that turn, and its bounce off a wall a wrong speed by up to 9%.

use super::course::halted;
use super::lock::{is_free, rigid_lock};
use super::plan::Planning;
use super::state::{Run, Scratch, is_live};
use crate::motion::{drives as driven, fast_ccd_body, shape_at};
use crate::ramp::Ramp;
use impact_geometry::{Point, Real, Sweep, Vector, sin_cos};
use impact_narrowphase::shared_face_middle;
use impact_solver::{
    BodyHandle, BodySet, BodyType, ContactPair, GroupContact, GroupStep, ImpactSettings, Impulse,
    JointSet, Material, SolverError, Touch,
};

/// How a jointed body's velocity changes along its course (see the module docs): from
/// `(v0, w0)` at `t0` to its stored velocities at `t1`, the direction of the linear velocity
/// turning at a constant rate, its size and the angular velocity changing linearly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Turning {
    pub(super) t0: Real,
    pub(super) v0: Vector,
    pub(super) w0: Real,
    pub(super) t1: Real,
}

/// A turn between the ends larger than this (radians) is not followed: the velocity is
/// interpolated linearly (a reversal, or a velocity through zero).
const MOST_TURN: Real = 2.0;

impl Turning {
    /// The velocities at `t`, the body's stored velocities `stored` holding at `t1`.
    pub(super) fn velocity_at(&self, stored: (Vector, Real), t: Real) -> (Vector, Real) {
        if t >= self.t1 || self.t1 <= self.t0 {
            return stored;
        }
        if t <= self.t0 {
            return (self.v0, self.w0);
        }
        let f = (t - self.t0) / (self.t1 - self.t0);
        let w = self.w0 + (stored.1 - self.w0) * f;
        (turn_between(self.v0, stored.0, f), w)
    }
}

/// The vector a fraction `f` of the way from `a` to `b`, turning at a constant rate and
/// changing size linearly (linearly altogether where the turn is not defined or too large).
fn turn_between(a: Vector, b: Vector, f: Real) -> Vector {
    let (na, nb) = (a.norm(), b.norm());
    let linear = a + (b - a) * f;
    if na == 0.0 || nb == 0.0 {
        return linear;
    }
    let turn = impact_geometry::atan2(a.x * b.y - a.y * b.x, a.dot(&b));
    if !turn.is_finite() || turn.abs() > MOST_TURN {
        return linear;
    }
    let (s, c) = sin_cos(turn * f);
    let unit = a / na;
    Vector::new(c * unit.x - s * unit.y, s * unit.x + c * unit.y) * (na + (nb - na) * f)
}

impl Scratch {
    /// At the start of a step, once the impacts of touching pairs are resolved: the graph of
    /// `joints`, and which bodies rigid joints hold, with their velocities now (the start of
    /// their first course's turn).
    pub(super) fn note_joints(&mut self, bodies: &BodySet, joints: &JointSet, slots: usize) {
        self.advance_work = 0;
        super::state::reset(&mut self.jointed, slots, None);
        super::state::reset(&mut self.turning, slots, None);
        super::state::reset(&mut self.driven, slots, false);
        super::state::reset(&mut self.unstoppable, slots, false);
        self.touches.clear();
        self.group.set_touches(&[]);
        self.joint_notes.refresh(joints);
        for &handle in self.joint_notes.held() {
            if let Some(body) = bodies.get(handle).filter(|b| b.is_dynamic()) {
                self.jointed[handle.index as usize] = Some((body.linvel(), body.angvel()));
            }
        }
        self.note_driven(joints);
    }

    /// The jointed bodies a spring or a motor drives ([`driven`]), and those enabled joints
    /// tie to them, into `self.driven`.
    fn note_driven(&mut self, joints: &JointSet) {
        for h in self.joint_notes.unstoppable() {
            if let Some(Some(_)) = self.jointed.get(h.index as usize) {
                self.unstoppable[h.index as usize] = true;
            }
        }
        let mut stack: Vec<BodyHandle> = self.joint_notes.drivers().to_vec();
        while let Some(h) = stack.pop() {
            let slot = h.index as usize;
            if self.jointed.get(slot).is_none_or(Option::is_none) || self.driven[slot] {
                continue;
            }
            self.driven[slot] = true;
            for &j in self.joint_notes.graph.joints_of(h) {
                if let Some(j) = joints.get(j).filter(|j| j.is_enabled()) {
                    stack.push(if j.body_a() == h {
                        j.body_b()
                    } else {
                        j.body_a()
                    });
                }
            }
        }
    }

    /// Once the courses are laid: a jointed body's velocity turns along its first course,
    /// from its start velocities to the solver's (see [`Turning`]). Not a driven body's
    /// (`Scratch::driven`): a motor or a spring changes its velocity by force, within the
    /// solver's first substeps for a stiff motor, not by the turn of a rigid linkage, and
    /// its course is the solver's chord. Turned from the start, a motor-driven paddle that
    /// a stall had left at rest met the pile it stirs at the step's start at rest, the
    /// impact set it going at that, and the stall fed itself step after step.
    pub(super) fn turn_jointed(&mut self, dt: Real) {
        for (slot, start) in self.jointed.iter().enumerate() {
            if self.driven[slot] {
                continue;
            }
            if let (Some((v0, w0)), Some(_)) = (start, self.motions[slot]) {
                self.turning[slot] = Some(Turning {
                    t0: 0.0,
                    v0: *v0,
                    w0: *w0,
                    t1: dt,
                });
            }
        }
    }
}

/// The most work the rigid advances of jointed groups may take in one step, in
/// multiply-adds of their dense solves ([`GroupAdvance::work`](impact_solver::GroupAdvance::work)).
/// Past it, the group moves as when its advance does not hold (see `Run::group_courses`
/// and `Scratch::settle_fast_groups`: a free group as one rigid body): twenty
/// ragdolls piled limb in limb against a wall meet it hundreds of times in one step, each
/// advance with its projections costing up to 10^8 multiply-adds, where the 1,000 whip
/// throws of `tests/joints_ccd.rs` take at most 4.9 * 10^8 in a step (about half a second
/// on one core at worst).
pub(super) const ADVANCE_BUDGET: u64 = 1_000_000_000;

/// What [`Scratch::settle_fast_groups`] needs of the step.
#[derive(Debug, Clone, Copy)]
pub(super) struct Settle {
    /// [`FirstTimeOfImpactSettings::threshold_radii_per_step`](super::FirstTimeOfImpactSettings::threshold_radii_per_step).
    pub(super) threshold: Real,
    pub(super) gravity: Vector,
    pub(super) dt: Real,
    pub(super) substeps: u32,
}

impl Scratch {
    /// After the contact solver's step, every jointed group with a fast CCD body (checked,
    /// or moving past the threshold at the solver's velocities) is advanced rigidly over the
    /// step from where it started, in place of the solver's targets (see
    /// [`FirstTimeOfImpact`](super::FirstTimeOfImpact), "Jointed groups"): its joints are
    /// rows that hold, its contacts with the solver's manifolds one-sided rows without
    /// friction ([`Touch`]), and its joints start the next step cold. Returns how many
    /// groups were advanced.
    pub(super) fn settle_fast_groups(
        &mut self,
        bodies: &mut BodySet,
        joints: &mut JointSet,
        settle: Settle,
    ) -> usize {
        let slots = self.jointed.len();
        self.parked.clear();
        super::state::reset(&mut self.visited, slots, false);
        super::state::reset(&mut self.locked, slots, false);
        let mut advanced = 0;
        let mut solver = core::mem::take(&mut self.group);
        let mut motions = core::mem::take(&mut self.group_motions);
        let mut touches = core::mem::take(&mut self.touches);
        let graph = &self.joint_notes.graph;
        for slot in 0..slots {
            if self.jointed[slot].is_none() || self.visited[slot] {
                continue;
            }
            let Some((handle, _)) = bodies.get_by_index(slot as u32) else {
                continue;
            };
            let requests = &self.requests;
            let held = |h: BodyHandle| !is_live(requests, h.index as usize);
            solver.set_touches(&[]);
            solver.gather(bodies, joints, graph, (handle, handle), &held);
            let mut fast = false;
            for h in solver.group() {
                let i = h.index as usize;
                if let Some(seen) = self.visited.get_mut(i) {
                    *seen = true;
                }
                fast |= self.checked.get(i).is_some_and(|&c| c)
                    || bodies.get(*h).is_some_and(|b| {
                        fast_ccd_body(settle.threshold, b, settle.gravity.norm(), settle.dt)
                    });
            }
            // A group that a spring or a motor drives (a car on wheel joints, a ragdoll with
            // joint friction) keeps the solver's step: a rigid advance would drop their pull
            // over the whole step; its impacts are still resolved for the whole group.
            if !fast
                || solver
                    .group_joints()
                    .iter()
                    .any(|&j| joints.get(j).is_some_and(driven))
            {
                continue;
            }
            // Everything the group moves with back at the step's start: its bodies at their
            // start velocities, a kinematic body it is jointed to on its way. The solver's
            // targets are kept: where the advance does not hold, they are the step's motion
            // (the group at its start poses would be a body with a velocity and no motion).
            let members: Vec<BodyHandle> = solver.bodies().collect();
            let mut targets = Vec::new();
            for &h in &members {
                let i = h.index as usize;
                let (Some(Some(pose)), Some(body)) = (self.start.get(i), bodies.get_mut(h)) else {
                    continue;
                };
                targets.push((h, *body.pose(), body.linvel(), body.angvel()));
                let mut ok = body.set_pose(*pose).is_ok();
                if let Some(Some((v, w))) = self.jointed.get(i) {
                    ok &= body.set_velocity(*v, *w).is_ok();
                }
                debug_assert!(ok, "the step's start is valid");
            }
            touches.clear();
            for c in &self.solver_contacts {
                if members.contains(&c.a) || members.contains(&c.b) {
                    contact_touches(bodies, c, &mut touches);
                }
            }
            solver.set_touches(&touches);
            solver.gather(bodies, joints, graph, (handle, handle), &held);
            let step = GroupStep {
                gravity: settle.gravity,
                dt: settle.dt,
                substeps: settle.substeps,
                max_work: ADVANCE_BUDGET.saturating_sub(self.advance_work),
            };
            let ok = self.advance_work < ADVANCE_BUDGET
                && solver
                    .advance(bodies, joints, &step, &held, &mut motions)
                    .is_ok_and(|done| {
                        self.advance_work += done.work;
                        done.held
                    });
            // Where it does not hold, a free group moves as one rigid body (see
            // `rigid_lock`): the soft step's targets of a group turning that fast part its
            // joints by units (2.7 for a chain turning at 3,700 rad/s beside a wall). The
            // lock holds none of the solver's contacts, so the plan asks the pairs the solver
            // holds of its members (`Scratch::locked`), whether or not their courses swing.
            let movable: Vec<BodyHandle> = solver.group().to_vec();
            let free = is_free(joints, solver.group_joints(), &movable);
            let locked = !ok
                && free
                && rigid_lock(bodies, &movable, settle.dt, settle.gravity, &mut motions);
            if locked {
                for h in &movable {
                    if let Some(l) = self.locked.get_mut(h.index as usize) {
                        *l = true;
                    }
                }
            }
            let ok = ok || locked;
            // A tied group whose advance does not hold stays where it started, its lost time
            // reported (`Scratch::parked`): the soft step's targets open a 20-link chain on a
            // pivot by three links.
            let park = !ok && !free;
            if park {
                self.parked.extend_from_slice(&movable);
            }
            for &(h, pose, linvel, angvel) in &targets {
                if let Some(body) = bodies.get_mut(h)
                    && ((!ok && !park) || body.body_type() == BodyType::Kinematic)
                {
                    let restored = body.set_pose(pose).is_ok()
                        && (body.body_type() == BodyType::Kinematic
                            || body.set_velocity(linvel, angvel).is_ok());
                    debug_assert!(restored, "the solver's targets are valid");
                }
            }
            if !ok {
                continue;
            }
            for m in &motions {
                if let Some(body) = bodies.get_mut(m.body) {
                    let ok = body.set_pose(m.pose).is_ok()
                        && body.set_velocity(m.linvel, m.angvel).is_ok();
                    debug_assert!(ok, "a finite advance");
                }
            }
            for &joint in solver.group_joints() {
                if let Some(j) = joints.get_mut(joint) {
                    j.clear_impulses();
                }
            }
            advanced += 1;
        }
        touches.clear();
        solver.set_touches(&[]);
        self.touches = touches;
        self.group = solver;
        self.group_motions = motions;
        advanced
    }
}

/// The touches of the solver's contact `c` (see [`Touch`]): each point of its manifold, the
/// material points of the two surfaces half its separation either side of it along the
/// normal, with the bodies where the manifold was made.
fn contact_touches(bodies: &BodySet, c: &ContactPair, out: &mut Vec<Touch>) {
    let normal = c.manifold.normal;
    for p in c.manifold.points() {
        let half = normal * (0.5 * p.separation);
        if let (Some(a), Some(b)) = (
            Touch::at(bodies, (c.a, c.b), p.point - half, normal),
            Touch::at(bodies, (c.a, c.b), p.point + half, normal),
        ) {
            // An overlap the step starts with is closed by half over the step, not at once:
            // a row that must close it all in the first substep leaves the advance unable to
            // hold (links of a chain crossed by 6 cm kept a fast group from ever advancing).
            out.push(Touch {
                point_b: b.point_b,
                gap: 0.5 * p.separation.min(0.0),
                ..a
            });
        }
    }
}

impl Run<'_> {
    /// Whether the impact of the bodies of slots `a` and `b` (handles `ha`, `hb`) is a
    /// jointed group's: a rigid joint holds either. The group is then the group solver's.
    pub(super) fn gather_group(
        &mut self,
        (a, b): (usize, usize),
        (ha, hb): (BodyHandle, BodyHandle),
    ) -> bool {
        if self.s.jointed.get(a).is_none_or(Option::is_none)
            && self.s.jointed.get(b).is_none_or(Option::is_none)
        {
            return false;
        }
        let mut solver = core::mem::take(&mut self.s.group);
        let s = &*self.s;
        let held = |h: BodyHandle| held(s, h);
        solver.set_touches(&s.touches);
        let grouped = solver.gather(
            self.bodies,
            self.joints,
            &s.joint_notes.graph,
            (ha, hb),
            &held,
        );
        self.s.group = solver;
        grouped
    }

    /// Brings every body of the gathered group to `t` on its course, at its velocities
    /// there, as [`Run::collide`] does for the two struck bodies.
    pub(super) fn bring_group_to(&mut self, t: Real) {
        let members: Vec<BodyHandle> = self.s.group.bodies().collect();
        for handle in members {
            let slot = handle.index as usize;
            if self.proxies.get(slot).copied().flatten() != Some(handle) {
                continue;
            }
            if let (Some(pose), Some(body)) = (self.pose_at(slot, t), self.bodies.get_mut(handle)) {
                let ok = body.set_pose(pose);
                debug_assert!(ok.is_ok(), "a pose on a finite sweep is valid");
            }
            self.bring_velocity_to(slot, t);
        }
    }

    /// Where the faces of the bodies of `ha` and `hb` (placed at the impact) that touch at
    /// `point` with `normal` meet along a stretch, its far end: `point` is its other (see
    /// [`shared_face_middle`]); `None` where they meet at a point.
    pub(super) fn face_end(
        &self,
        (ha, hb): (BodyHandle, BodyHandle),
        [i, j]: [u32; 2],
        point: Point,
        normal: Vector,
    ) -> Option<Point> {
        let (a, b) = (self.bodies.get(ha)?, self.bodies.get(hb)?);
        let middle = shared_face_middle(
            shape_at(a, i),
            a.pose(),
            shape_at(b, j),
            b.pose(),
            point,
            normal,
            self.settings.toi.tolerance(),
        );
        (middle != point).then(|| middle + (middle - point))
    }

    /// Resolves the impact of `ha` and `hb` at `point` (and along the stretch to `second`,
    /// for two faces) with `normal` at `t` for the gathered group (see
    /// [`GroupImpactSolver::resolve_with`](impact_solver::GroupImpactSolver::resolve_with)),
    /// with every other point where the group touches what it struck at that instant
    /// ([`Run::together`]); the group keeps each of those contacts for the rest of the step
    /// (see [`Touch`]).
    pub(super) fn resolve_group(
        &mut self,
        ((ha, hb), shapes): ((BodyHandle, BodyHandle), [u32; 2]),
        ((point, second), normal): ((Point, Option<Point>), Vector),
        (material, t): (Option<&Material>, Real),
        settings: &ImpactSettings,
    ) -> Result<Impulse, SolverError> {
        let mut also = core::mem::take(&mut self.s.together);
        let mut also_shapes = core::mem::take(&mut self.s.together_shapes);
        self.together((ha, hb), shapes, t, (&mut also, &mut also_shapes));
        let mut solver = core::mem::take(&mut self.s.group);
        let s = &*self.s;
        let driven = [ha, hb]
            .iter()
            .any(|h| s.driven.get(h.index as usize) == Some(&true));
        let held = |h: BodyHandle| held(s, h) && !(driven && yields(s, h.index as usize));
        let contact = GroupContact {
            a: ha,
            b: hb,
            point,
            second,
            normal,
            material: material.copied(),
        };
        let resolved = solver.resolve_with(
            self.bodies,
            self.joints,
            &s.joint_notes.graph,
            (&contact, &also),
            settings,
            &held,
        );
        self.s.group = solver;
        if resolved.is_ok() {
            self.report.group_impacts += 1;
            // The group keeps the contacts for the rest of the step: its advance must not
            // drive the struck body, nor the others that touched with it, back through what
            // they struck.
            self.keep_touch((ha, hb), shapes, (point, second), normal);
            let mut i = 0;
            while i < also.len() {
                let (p, shapes) = (also[i], also_shapes[i]);
                // A shape pair's manifold gives its points one after the other.
                let second = also
                    .get(i + 1)
                    .filter(|q| {
                        (q.a, q.b, q.normal) == (p.a, p.b, p.normal) && also_shapes[i + 1] == shapes
                    })
                    .map(|q| q.point);
                self.keep_touch((p.a, p.b), shapes, (p.point, second), p.normal);
                i += 1 + usize::from(second.is_some());
            }
            self.s.group.set_touches(&self.s.touches);
        }
        self.s.together = also;
        self.s.together_shapes = also_shapes;
        resolved.map(|g| g.impulse)
    }

    /// After the body of `slot` stopped at `t` (a Zeno pair meeting again, a query that gave
    /// up, a body pressing into a stopped one): each group its rigid joints tie it to goes on
    /// from `t` with it held in place, re-planned (see [`Run::group_courses`]), rather than on
    /// courses that carry its neighbours away from where it stays.
    pub(super) fn regroup_after_stop(&mut self, slot: usize, t: Real) {
        let Some(handle) = self.proxies[slot] else {
            return;
        };
        if self.s.jointed.get(slot).is_none_or(Option::is_none) || t >= self.dt {
            return;
        }
        let mut neighbours: Vec<BodyHandle> = Vec::new();
        for &joint in self.s.joint_notes.graph.joints_of(handle) {
            if let Some(j) = self.joints.get(joint) {
                let other = if j.body_a() == handle {
                    j.body_b()
                } else {
                    j.body_a()
                };
                if !neighbours.contains(&other) {
                    neighbours.push(other);
                }
            }
        }
        let mut done: Vec<BodyHandle> = Vec::new();
        for n in neighbours {
            let i = n.index as usize;
            if done.contains(&n) || self.s.jointed.get(i).is_none_or(Option::is_none) {
                continue;
            }
            if !self.gather_group((i, i), (n, n)) || self.s.group.group().is_empty() {
                continue;
            }
            done.extend_from_slice(self.s.group.group());
            self.bring_group_to(t);
            self.group_courses(t);
            let slots: Vec<u32> = self.group_slots().collect();
            for x in slots {
                if self.moves_on(x as usize, self.proxies[x as usize].unwrap_or(handle)) {
                    self.plan(x, t, Planning::Alone);
                }
            }
        }
    }

    /// Whether the body of `slot` is a movable body of the group of the last impact.
    pub(super) fn in_group(&self, slot: usize) -> bool {
        self.s
            .group
            .group()
            .iter()
            .any(|h| h.index as usize == slot)
    }

    /// The movable bodies of the group of the last impact, as slots.
    pub(super) fn group_slots(&self) -> impl Iterator<Item = u32> + '_ {
        self.s.group.group().iter().map(|h| h.index)
    }

    /// After a group's impact at `t` and the hook: each movable body of the group that still
    /// moves (not removed, not stopped) gets the course from where it is to where the rigid
    /// advance of the group ends it (see the module docs). Where the advance does not hold,
    /// and for a driven group, the group goes on at its velocities ([`Run::set_course`]),
    /// which no touch holds, so its kept pairs are planned again ([`Run::keeps`]).
    pub(super) fn group_courses(&mut self, t: Real) {
        let rest = self.dt - t;
        let step = GroupStep {
            gravity: self.gravity,
            dt: rest,
            substeps: self.substeps,
            max_work: ADVANCE_BUDGET.saturating_sub(self.s.advance_work),
        };
        let mut motions = core::mem::take(&mut self.s.group_motions);
        let mut solver = core::mem::take(&mut self.s.group);
        // A group a spring or a motor drives goes on at its velocities, as it started the
        // step on the solver's (see `settle_fast_groups`): a rigid advance would drop their
        // pull over the rest of the step.
        let driven_group = solver
            .group_joints()
            .iter()
            .any(|&j| self.joints.get(j).is_some_and(driven));
        let mut work = self.s.advance_work;
        let advanced = {
            let s = &*self.s;
            let held = |h: BodyHandle| held(s, h);
            let work = &mut work;
            rest > 0.0
                && !driven_group
                && *work < ADVANCE_BUDGET
                && solver
                    .advance(self.bodies, self.joints, &step, &held, &mut motions)
                    .is_ok_and(|done| {
                        *work += done.work;
                        done.held
                    })
        };
        self.s.advance_work = work;
        let members: Vec<BodyHandle> = solver.group().to_vec();
        // Where the advance does not hold (past its budget, or a link turning faster than
        // its substeps follow), the group goes on at its velocities, as does a driven group
        // and one at the step's end: a rigid lock here would keep the poses the group has on
        // its chords at the impact, whose joints are open by the turn over them (see
        // `docs/algorithms/joints-ccd.md`).
        self.s.group = solver;
        if !advanced {
            self.s.group_motions = motions;
            for handle in members {
                let slot = handle.index as usize;
                if !self.moves_on(slot, handle) {
                    continue;
                }
                self.set_course(slot, t, false);
            }
            return;
        }
        self.s.group_motions = motions;
        self.install_group_motions(t);
    }

    /// Each body of `self.s.group_motions` that moves on gets the course from where it is at
    /// `t` to its motion's end pose at the step's end, its velocity turning along it.
    pub(super) fn install_group_motions(&mut self, t: Real) {
        let rest = self.dt - t;
        let motions = core::mem::take(&mut self.s.group_motions);
        self.s.advances += 1;
        let advance = self.s.advances;
        for m in &motions {
            let slot = m.body.index as usize;
            if !self.moves_on(slot, m.body) {
                continue;
            }
            let Some(body) = self.bodies.get(m.body) else {
                continue;
            };
            let (pose, center) = (*body.pose(), body.local_center());
            let linvel = (m.pose * center - pose * center) / rest;
            let now = (body.linvel(), body.angvel());
            let Ok(sweep) = Sweep::new(pose, center, linvel, m.turned / rest, rest) else {
                self.set_course(slot, t, false);
                continue;
            };
            self.install_course(
                slot,
                (t, sweep),
                (m.linvel, m.angvel),
                Ramp::still(self.dt),
                false,
            );
            if self.s.motions[slot].is_some_and(|(t0, _)| t0 == t) {
                self.s.advance_of[slot] = advance;
                self.s.turning[slot] = Some(Turning {
                    t0: t,
                    v0: now.0,
                    w0: now.1,
                    t1: self.dt,
                });
            }
        }
        self.s.group_motions = motions;
    }

    /// Whether the body of `slot` (`handle`) moves on after an impact: in the step, live,
    /// and not stopped.
    pub(super) fn moves_on(&self, slot: usize, handle: BodyHandle) -> bool {
        self.proxies.get(slot).copied().flatten() == Some(handle)
            && self.is_live(slot)
            && !halted(&self.s.stopped, &self.s.hot, slot)
    }
}

/// Whether the body of `slot`, if stopped in the step, acts in the impact of a driven group
/// (`Scratch::driven`) with its own mass rather than as held in place: a live body that no
/// rigid joint holds. Struck, it takes its share of the impulse; touched, its touch is left
/// out of the impact (see [`GroupImpactSolver::resolve`](impact_solver::GroupImpactSolver::resolve)).
/// Its course stays halted whatever the impact gives its velocity, as a stopped body's does
/// in an impact of two bodies ([`resolve_impact_with`](impact_solver::resolve_impact_with)
/// takes the masses of both), and the driven body goes on into it (see `Run::stop_pair`).
/// Held in place, a 0.12 kg body of a stirred pile stopped the 48 kg motor-driven paddle
/// that struck it dead (an impulse of 3,200 where its own mass took 0.08).
fn yields(s: &Scratch, slot: usize) -> bool {
    s.jointed.get(slot).is_some_and(Option::is_none) && is_live(&s.requests, slot)
}

/// Whether the group solver takes `h` as held in place: a body stopped in the step, one the
/// hook removed or disabled, or one outside the step's slots.
pub(super) fn held(s: &Scratch, h: BodyHandle) -> bool {
    let slot = h.index as usize;
    slot >= s.stopped.len() || halted(&s.stopped, &s.hot, slot) || !is_live(&s.requests, slot)
}
