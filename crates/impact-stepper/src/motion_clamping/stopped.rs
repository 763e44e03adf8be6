//! Groups of touching bodies stopped at the start of the step, moved on as one rigid body.
//!
//! The clamp stops a body at fraction 0 when its motion to the contact solver's target
//! cannot start: a pair the solver pushed through itself, one that closed in beyond the
//! tolerance, one whose swing deepens an overlap at once, a body that would run over one of
//! those. A body stopped there keeps the velocities it was given, and the next step starts
//! from the same poses. When the bodies touch one another and turn fast, that start is the
//! same trap again: the solver moves each body on a straight course about its own centre,
//! which does not keep a group turning about its common centre together (at 4 radians a step
//! it scrambles them), so the targets overlap again and every body is stopped again. In the
//! tumbling rain (1,000 bodies, seeds 37 and 68) clusters of 10 and 14 bodies, turning at 200
//! to 300 rad/s, hung in mid-air that way for the rest of the run, and, keeping the solver's
//! velocities (a whole step of gravity, and the impulses of deep overlaps), gained energy at
//! every step without moving.
//!
//! Such a group (the dynamic bodies stopped at 0 that the solver's contacts connect) is given
//! one rigid motion instead, that of the group as one body: the linear and angular momentum
//! of their start velocities (after the impacts of touching pairs at the start) about the
//! group's centre of mass, their relative motion removed, as a perfectly inelastic, rough
//! impact among them would leave it. Each body's course is then the group's free flight: a
//! sweep about the group's centre of mass (the sweep's centre need not be the body's), which
//! keeps the group's shape exactly, overlaps and all, however fast it turns. The group
//! advances along it to the earliest safe fraction of its bodies' times of impact with every
//! body outside it (the others on their own rebuilt motions, static ones exactly; an overlap
//! with one stops the group at 0), and ends with the velocities of that motion there. A group
//! stopped at 0 so stays where it was, with its start momentum as one body. Either way no
//! energy is gained: merging the motions loses the relative motion's energy, and the free
//! flight trades height for speed (see `Ramp`).
//!
//! Not in a periodic domain, where a group may straddle the period: there the stopped
//! bodies keep the clamp's velocities.

use super::earliest::{Meeting, deepening_stop, disabled};
use super::{MotionClampingSettings, Scratch, reset};
use crate::motion::{
    ShapeRules, earliest_shape_tois, held_normal, is_finite, shape_at, shape_tois,
};
use crate::ramp::Ramp;
use crate::report::ClampReport;
use crate::rules::CollisionRules;
use crate::swing::{anchored, swinging_deepening, unit_normal};
use impact_geometry::{Isometry, Point, Real, Sweep, Vector, cross, perp};
use impact_narrowphase::{Toi, distance};
use impact_solver::{BodySet, ContactPair, RigidBody};

/// The rigid motion of one group of bodies stopped at the start of the step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct AsOne {
    /// The group's centre of mass at the start of the step.
    centre: Point,
    /// The velocity of the centre of mass at the start of the step (world units per second).
    linvel: Vector,
    /// The group's angular velocity (radians per second).
    angvel: Real,
    /// Where along the motion the group stops, in `[0, 1]`.
    pub(super) fraction: Real,
}

impl Scratch {
    /// Gives every group of dynamic bodies stopped at fraction 0 (in `clamps`) that the
    /// solver's contacts connect, of two bodies or more, one rigid motion and advances it
    /// as far as it is safe (see the module docs): the group's bodies get their course about
    /// the group's centre in `sweeps`, their fraction in `clamps`, and their group in
    /// `as_one_of`, which [`Scratch::clamp`] gives their velocities from.
    pub(super) fn move_stopped_groups(
        &mut self,
        settings: &MotionClampingSettings,
        (bodies, rules, contacts): (&BodySet, ShapeRules<'_>, &[ContactPair]),
        (gravity, periodic): (Vector, bool),
        dt: Real,
        report: &mut ClampReport,
    ) {
        let slots = self.start.len();
        reset(&mut self.as_one_of, slots, None);
        reset(&mut self.group_root, slots, u32::MAX);
        self.groups.clear();
        if periodic || self.clamps.is_empty() {
            return;
        }
        if !self.find_groups(bodies) {
            return;
        }
        self.group_motions(bodies, gravity, dt);
        self.group_fractions(settings, (bodies, rules), contacts, report);
        // Each moved body's course is its group's motion, and its fraction the group's.
        let mut moved = 0;
        // A group that stays at 0 keeps the rebuilt sweeps, whose start is the start pose bit
        // for bit (a sweep about a far centre may round it).
        for clamp in &mut self.clamps {
            let slot = clamp.0.index as usize;
            if let Some(group) = self.as_one_of[slot] {
                clamp.1 = self.groups[group as usize].fraction;
                if clamp.1 > 0.0
                    && let Some(sweep) = self.group_sweeps[slot]
                {
                    self.sweeps[slot] = Some(sweep);
                }
            }
        }
        for slot in self.as_one_of.iter().flatten() {
            moved += usize::from(self.groups[*slot as usize].fraction > 0.0);
        }
        report.stopped_as_one += moved;
    }

    /// The groups: `as_one_of` holds, per slot of a dynamic body stopped at 0 in a group of
    /// two or more (connected by contacts the solver held), its group's index into `groups`
    /// (whose motions are left to [`Scratch::group_motions`]). Returns whether any was found.
    fn find_groups(&mut self, bodies: &BodySet) -> bool {
        let slots = self.start.len();
        // A union-find over the stopped slots, each root the least slot of its group.
        let mut any = false;
        for &(handle, fraction) in &self.clamps {
            let slot = handle.index as usize;
            if fraction <= 0.0
                && slot < slots
                && !self.jointed.get(slot).copied().unwrap_or(false)
                && self.boxes[slot].is_some()
                && bodies.get(handle).is_some_and(RigidBody::is_dynamic)
            {
                self.group_root[slot] = slot as u32;
                any = true;
            }
        }
        if !any {
            return false;
        }
        let roots = &mut self.group_root;
        let stopped = |roots: &[u32], slot: usize| roots.get(slot).is_some_and(|&r| r != u32::MAX);
        for c in &self.solver_contacts {
            let (a, b) = (c.a.index as usize, c.b.index as usize);
            if c.manifold.is_empty() || !stopped(roots, a) || !stopped(roots, b) {
                continue;
            }
            let (ra, rb) = (find_root(roots, a as u32), find_root(roots, b as u32));
            if ra != rb {
                roots[ra.max(rb) as usize] = ra.min(rb);
            }
        }
        // Groups of two or more, numbered in slot order.
        reset(&mut self.group_size, slots, 0);
        for slot in 0..slots {
            if self.group_root[slot] != u32::MAX {
                let root = find_root(&mut self.group_root, slot as u32);
                self.group_size[root as usize] += 1;
            }
        }
        for slot in 0..slots {
            let root = self.group_root[slot];
            if root == u32::MAX || self.group_size[root as usize] < 2 {
                continue;
            }
            if root as usize == slot {
                self.as_one_of[slot] = Some(self.groups.len() as u32);
                self.groups.push(AsOne {
                    centre: Point::origin(),
                    linvel: Vector::zeros(),
                    angvel: 0.0,
                    fraction: 1.0,
                });
            } else {
                self.as_one_of[slot] = self.as_one_of[root as usize];
            }
        }
        !self.groups.is_empty()
    }

    /// Each group's motion as one body from its bodies' start poses and velocities, and each
    /// body's course on it (`group_sweeps`): the group's centre of mass on the chord of its
    /// free flight under `gravity`, turning at the group's angular velocity. A group whose
    /// numbers are not finite is dropped (its bodies keep the clamp's answer).
    fn group_motions(&mut self, bodies: &BodySet, gravity: Vector, dt: Real) {
        let slots = self.as_one_of.len();
        // Mass, first moment and momentum per group; then angular momentum and inertia
        // about the group's centre.
        let mut sums = vec![(0.0, Vector::zeros(), Vector::zeros()); self.groups.len()];
        let mut turns = vec![(0.0, 0.0); self.groups.len()];
        for pass in 0..2 {
            for slot in 0..slots {
                let (Some(group), Some((body, centre, (v, w)))) =
                    (self.as_one_of[slot], self.start_state(bodies, slot))
                else {
                    continue;
                };
                let (g, m) = (group as usize, body.mass());
                if pass == 0 {
                    sums[g].0 += m;
                    sums[g].1 += centre.coords * m;
                    sums[g].2 += v * m;
                } else {
                    let (com, vcom) = (sums[g].1 / sums[g].0, sums[g].2 / sums[g].0);
                    let r = centre.coords - com;
                    turns[g].0 += body.inertia() * w + m * cross(&r, &(v - vcom));
                    turns[g].1 += body.inertia() + m * r.norm_squared();
                }
            }
        }
        for (group, ((mass, moment, momentum), (spin, inertia))) in
            self.groups.iter_mut().zip(sums.into_iter().zip(turns))
        {
            group.centre = Point::from(moment / mass);
            group.linvel = momentum / mass;
            group.angvel = spin / inertia;
        }
        reset(&mut self.group_sweeps, slots, None);
        for slot in 0..slots {
            let Some(g) = self.as_one_of[slot] else {
                continue;
            };
            let group = self.groups[g as usize];
            let start = self.start[slot];
            let sweep = start.and_then(|start| {
                let about = start.inverse() * group.centre;
                let chord = group.linvel + gravity * (0.5 * dt);
                Sweep::new(start, about, chord, group.angvel, dt).ok()
            });
            match sweep {
                Some(sweep) => self.group_sweeps[slot] = Some(sweep),
                // Not finite: the group stays where it was.
                None => self.groups[g as usize].fraction = 0.0,
            }
        }
        for slot in 0..slots {
            if let Some(g) = self.as_one_of[slot]
                && !self.groups[g as usize].angvel.is_finite()
            {
                self.as_one_of[slot] = None;
            }
        }
    }

    /// A stopped body of `slot`: the body, its centre of mass at the start pose and its
    /// start velocities.
    fn start_state<'b>(
        &self,
        bodies: &'b BodySet,
        slot: usize,
    ) -> Option<(&'b RigidBody, Point, (Vector, Real))> {
        let handle = self.handles.get(slot).copied().flatten()?;
        let body = bodies.get(handle)?;
        let start = self.start.get(slot).copied().flatten()?;
        Some((body, start * body.local_center(), self.start_velocity[slot]))
    }

    /// Each group's fraction: the earliest safe one over its bodies' times of impact, on
    /// their courses in `group_sweeps`, with every body outside the group whose motion's box
    /// meets theirs (a body of another group on its group's course, any other on its
    /// rebuilt motion). A pair that touches or overlaps at the start is followed along the
    /// courses and stops the group where it closes in deeper by the tolerance.
    /// `contacts` are the step's manifolds, whose normals keep an overlapping pair's side.
    fn group_fractions(
        &mut self,
        settings: &MotionClampingSettings,
        (bodies, rules): (&BodySet, ShapeRules<'_>),
        contacts: &[ContactPair],
        report: &mut ClampReport,
    ) {
        let pad = settings.toi.target_separation() + settings.toi.tolerance();
        // Every body's box, the grouped ones' over their group's course.
        self.group_boxes.clear();
        self.group_boxes.extend_from_slice(&self.boxes);
        for slot in 0..self.group_boxes.len() {
            let (Some(_), Some(sweep), Some((body, _, _))) = (
                self.as_one_of[slot],
                self.group_sweeps.get(slot).copied().flatten(),
                self.start_state(bodies, slot),
            ) else {
                continue;
            };
            let aabb = body.swept_aabb(&sweep).inflated(pad);
            if is_finite(&aabb) {
                self.group_boxes[slot] = Some(aabb);
            } else {
                let g = self.as_one_of[slot].unwrap_or_default() as usize;
                self.groups[g].fraction = 0.0;
            }
        }
        let mut pairs = core::mem::take(&mut self.group_pairs);
        pairs.clear();
        {
            let (of, handles) = (&self.as_one_of, &self.handles);
            let open = !rules.rules.filters_pairs();
            let member = |slot: u32| {
                let handle = handles.get(slot as usize).copied().flatten()?;
                Some((handle, bodies.get(handle)?))
            };
            // The rules of two bodies, as the clamp's own search asks them: the time of
            // impact of two bodies of one shape each asks none.
            let admits = |x: u32, y: u32| match (member(x), member(y)) {
                (Some(bx), Some(by)) => rules.admits_bodies(bodies, handles, bx, by),
                _ => false,
            };
            self.group_search.pairs(&self.group_boxes, |x, y| {
                let (gx, gy) = (of[x as usize], of[y as usize]);
                if gx == gy || !open && !admits(x, y) {
                    return;
                }
                if gx.is_some() {
                    pairs.push((x, y));
                }
                if gy.is_some() {
                    pairs.push((y, x));
                }
            });
        }
        let mut tois = core::mem::take(&mut self.tois);
        let pre_solve = rules.rules.has_pre_solve().then_some(&rules.rules);
        for &(x, y) in &pairs {
            let g = self.as_one_of[x as usize].unwrap_or_default() as usize;
            if self.groups[g].fraction <= 0.0 {
                continue;
            }
            let (Some(hx), Some(hy)) = (self.handles[x as usize], self.handles[y as usize]) else {
                continue;
            };
            let (Some(bx), Some(by)) = (bodies.get(hx), bodies.get(hy)) else {
                continue;
            };
            let other = match self.as_one_of[y as usize] {
                Some(_) => self.group_sweeps[y as usize],
                None => self.sweeps[y as usize],
            };
            let (Some(sx), Some(sy)) = (self.group_sweeps[x as usize], other) else {
                continue;
            };
            let admit = |pair: [u32; 2]| rules.admits(bodies, (hx, bx), (hy, by), pair);
            if pre_solve.is_some() {
                // The hook may set the earliest hit aside: every pair is needed.
                shape_tois((bx, &sx), (by, &sy), admit, &settings.toi, &mut tois);
            } else {
                let bound = self.groups[g].fraction;
                let (x, y) = ((bx, &sx), (by, &sy));
                earliest_shape_tois(x, y, admit, &settings.toi, bound, &mut tois);
            }
            report.toi_queries += tois.len();
            let by_slots = self.contacts_by_slots.view(contacts);
            for &(shapes, toi) in &tois {
                let meeting = ((hx, shapes[0], &sx), (hy, shapes[1], &sy));
                let side = || held_normal(by_slots, (x, shapes[0]), (y, shapes[1]));
                let stop = stop_on_course(settings, (bodies, pre_solve), meeting, toi, side);
                let group = &mut self.groups[g];
                group.fraction = group.fraction.min(stop);
            }
        }
        self.tois = tois;
        self.group_pairs = pairs;
    }

    /// The velocities of the body of `slot` moved with its group (see the module docs),
    /// standing at `pose` where the group stopped: the group's velocity there (its start
    /// velocity plus the gravity of the time flown, the component along gravity from energy
    /// as [`Ramp`] gives it), plus its turn about the group's centre; `None` for a body in
    /// no group.
    pub(super) fn velocity_as_one(
        &self,
        slot: usize,
        (body, pose): (&RigidBody, &Isometry),
        (gravity, dt): (Vector, Real),
    ) -> Option<(Vector, Real)> {
        let group = self.groups[self.as_one_of.get(slot).copied().flatten()? as usize];
        let fraction = group.fraction;
        if fraction <= 0.0 {
            return None;
        }
        let course = self.group_sweeps.get(slot).copied().flatten();
        let ((v, w), centre) = match course {
            Some(sweep) if fraction > 0.0 => {
                let ramp = Ramp {
                    accel: gravity,
                    alpha: 0.0,
                    free: true,
                    at: dt,
                };
                let end = (group.linvel + gravity * dt, group.angvel);
                (
                    ramp.velocity_at(end, (0.0, sweep), fraction * dt),
                    sweep.center_at(fraction),
                )
            }
            _ => ((group.linvel, group.angvel), group.centre),
        };
        let arm = pose * body.local_center() - centre;
        Some((v + perp(&arm) * w, w))
    }
}

impl Scratch {
    /// Scales down the velocities of every group of bodies left at fraction 0 (a group that
    /// could not move, or a body stopped at 0 alone, with the velocities the clamp gave them)
    /// whose kinetic energy now exceeds what it started the step with, to that energy.
    ///
    /// Those velocities are the contact solver's, for bodies it held: a whole step of gravity
    /// the bodies did not fall through, and the impulses of overlaps they did not leave.
    /// Kept, they are added again at every step from the same poses (a cluster of ten hung in
    /// mid-air spun up from 30 to 300 rad/s that way). Their directions are kept, so the next
    /// step does not start from the same state (the start velocities would repeat the step
    /// exactly, and the bodies stay for good); only their size is cut.
    pub(super) fn cap_stopped_energy(&mut self, bodies: &mut BodySet) {
        let slots = self.group_root.len();
        let mut energy = core::mem::take(&mut self.group_energy);
        reset(&mut energy, slots, (0.0, 0.0));
        let kinetic = |body: &RigidBody, (v, w): (Vector, Real)| {
            0.5 * (body.mass() * v.norm_squared() + body.inertia() * w * w)
        };
        let left = |scratch: &Self, slot: usize| {
            scratch.group_root[slot] != u32::MAX
                && scratch.as_one_of[slot]
                    .is_none_or(|g| scratch.groups[g as usize].fraction <= 0.0)
        };
        for slot in 0..slots {
            if !left(self, slot) {
                continue;
            }
            let root = find_root(&mut self.group_root, slot as u32) as usize;
            let Some((body, _, start)) = self.start_state(bodies, slot) else {
                continue;
            };
            energy[root].0 += kinetic(body, start);
            energy[root].1 += kinetic(body, (body.linvel(), body.angvel()));
        }
        for slot in 0..slots {
            if !left(self, slot) {
                continue;
            }
            let root = find_root(&mut self.group_root, slot as u32) as usize;
            let (start, now) = energy[root];
            let Some(body) = self.handles[slot].and_then(|h| bodies.get_mut(h)) else {
                continue;
            };
            if now > start && body.is_dynamic() {
                let scale = (start / now).sqrt();
                let ok = body.set_velocity(body.linvel() * scale, body.angvel() * scale);
                debug_assert!(ok.is_ok(), "smaller finite velocities");
            }
        }
        self.group_energy = energy;
    }
}

/// Where a grouped body's course (the first of `meeting`: each side's handle, shape place
/// and course) stops against another body's (the second), as a fraction of the step, from
/// their time of impact `toi`: at its safe fraction; for a pair that touches (a hit at 0) or
/// overlaps at the start, where it closes in deeper by the tolerance along the contact
/// normal (the hit's, or the start's kept on the side of the step's manifold, `side`), which
/// a pair sliding along or parting never does (see [`swinging_deepening`]); 1 if never. A
/// meeting the pre-solve hook (of `pre_solve`) disables does not stop it.
fn stop_on_course(
    settings: &MotionClampingSettings,
    (bodies, pre_solve): (&BodySet, Option<&CollisionRules<'_>>),
    meeting: Meeting<'_>,
    toi: Toi,
    side: impl Fn() -> Option<Vector>,
) -> Real {
    let ((hx, shape_x, sx), (hy, shape_y, sy)) = meeting;
    let (Some(bx), Some(by)) = (bodies.get(hx), bodies.get(hy)) else {
        return 1.0;
    };
    let (shape_x, shape_y) = (shape_at(bx, shape_x), shape_at(by, shape_y));
    let dt = sx.dt();
    let normal = match toi {
        Toi::Hit(hit) if hit.fraction > 0.0 => {
            let disabled = pre_solve.is_some_and(|rules| {
                disabled(
                    rules,
                    bodies,
                    meeting,
                    (hit.point, hit.normal),
                    (hit.fraction, dt),
                    settings,
                )
            });
            return if disabled {
                1.0
            } else {
                hit.fraction.clamp(0.0, 1.0)
            };
        }
        // Inside a static or kinematic body already: followed, a stick swung through a thin
        // segment (7 to 11 of the tumbling rain's 1,000 bodies went through the field).
        Toi::Overlapping if !by.is_dynamic() => return 0.0,
        Toi::Hit(hit) => Some(hit.normal),
        Toi::Overlapping => {
            let start = distance(shape_x, &sx.pose_at(0.0), shape_y, &sy.pose_at(0.0));
            unit_normal(&start).map(|normal| anchored(normal, side()))
        }
        Toi::NotConverged { safe_fraction } => return safe_fraction.clamp(0.0, 1.0),
        Toi::Separated => return 1.0,
    };
    // Shapes whose cores coincide have no normal to follow: the group stays.
    let Some(normal) = normal else {
        return 0.0;
    };
    let deepening = swinging_deepening(
        (shape_x, sx),
        (shape_y, sy),
        normal,
        settings.toi.tolerance(),
        settings.toi.max_iterations(),
    );
    deepening_stop(deepening, (pre_solve, bodies, meeting), settings, dt).unwrap_or(1.0)
}

/// The root of `slot` in the union-find `roots`, halving the path on the way.
fn find_root(roots: &mut [u32], mut slot: u32) -> u32 {
    while roots[slot as usize] != slot {
        let up = roots[roots[slot as usize] as usize];
        roots[slot as usize] = up;
        slot = up;
    }
    slot
}
