//! The rigid lock of a jointed group in a step of [`FirstTimeOfImpact`](super::FirstTimeOfImpact):
//! what a free group does where its rigid advance does not hold (see `groups`), and where a
//! Zeno pair of two of its members meets again. The design and its figures:
//! `docs/algorithms/joints-ccd.md`, "Bounds on the work, and what happens past them".

use super::plan::Planning;
use super::queue::Entry;
use super::state::Run;
use impact_geometry::{Isometry, Point, Real, Rotation, Vector, sin_cos};
use impact_solver::{BodyHandle, BodySet, GroupMotion, JointHandle, JointSet};

impl Run<'_> {
    /// A Zeno pair (`e`, handed over earlier in the step) meets again: where its two bodies
    /// are members of one free jointed group that still moves, the group moves as one rigid
    /// body from `e.time` to the step's end (see `rigid_lock`), so the pair cannot meet again
    /// in the step, and returns true; else false, and the caller stops the pair. Two links
    /// of a chain folded onto each other met as a Zeno pair at every step's start; stopping
    /// them stopped the chain around them (a group tied to a stopped body stops with it), and
    /// the chain stayed where it was, step after step, at 1,800 units/s. Once per pair and
    /// step: a pair that meets again after its group's lock stops.
    pub(super) fn lock_zeno_group(&mut self, e: &Entry) -> bool {
        let (a, b) = (e.a as usize, e.b as usize);
        let t = e.time;
        let (Some(ha), Some(hb)) = (self.proxies[a], self.proxies[b]) else {
            return false;
        };
        if e.offset != Vector::zeros()
            || t >= self.dt
            || self.s.pairs.get(&(e.a, e.b)).is_some_and(|p| p.locked)
            || !self.gather_group((a, b), (ha, hb))
        {
            return false;
        }
        let members: Vec<BodyHandle> = self.s.group.group().to_vec();
        if !members.contains(&ha)
            || !members.contains(&hb)
            || !is_free(self.joints, self.s.group.group_joints(), &members)
            || members.iter().any(|&h| !self.moves_on(h.index as usize, h))
        {
            return false;
        }
        self.bring_group_to(t);
        let mut motions = core::mem::take(&mut self.s.group_motions);
        let locked = rigid_lock(
            self.bodies,
            &members,
            self.dt - t,
            self.gravity,
            &mut motions,
        );
        self.s.group_motions = motions;
        if !locked {
            return false;
        }
        self.release_touches(&members);
        self.install_group_motions(t);
        self.s.replan.clear();
        self.s.replan.extend(members.iter().map(|h| h.index));
        for i in 0..self.s.replan.len() {
            let slot = self.s.replan[i];
            self.plan(slot, t, Planning::Replan);
        }
        true
    }

    /// After a rigid lock of `members` (see `rigid_lock`), which holds no touch: their
    /// touches are dropped, and their pairs the group kept are planned again as any other
    /// (a kept pair is left to the group's touch, which the lock does not hold); the pairs
    /// of two members are the lock's for the rest of the step.
    pub(super) fn release_touches(&mut self, members: &[BodyHandle]) {
        for (i, x) in members.iter().enumerate() {
            for y in &members[..i] {
                let (a, b) = (x.index.min(y.index), x.index.max(y.index));
                self.pair_state(a, b).locked = true;
            }
        }
        self.s.any_locked = true;
        self.s
            .touches
            .retain(|t| !members.contains(&t.a) && !members.contains(&t.b));
        self.s.group.set_touches(&self.s.touches);
        let slots: Vec<u32> = members.iter().map(|h| h.index).collect();
        for (&(a, b), pair) in &mut self.s.pairs {
            if slots.contains(&a) || slots.contains(&b) {
                pair.kept = false;
            }
        }
    }
}

/// Whether the group of `members` (its movable bodies) with `group_joints` is free: each of
/// its joints ties two of its members, none a body of infinite mass.
pub(super) fn is_free(
    joints: &JointSet,
    group_joints: &[JointHandle],
    members: &[BodyHandle],
) -> bool {
    group_joints.iter().all(|&j| {
        joints
            .get(j)
            .is_none_or(|j| members.contains(&j.body_a()) && members.contains(&j.body_b()))
    })
}

/// The motion over `rest` of the free group `members` (in `bodies`, where the group's
/// impact left them) as one rigid body, into `out` (cleared); false, with `out` empty, for a
/// group without mass. Its centre of mass goes on at the group's momentum under `gravity`, and
/// the group turns about it at its angular momentum over its inertia there: every relative
/// pose is kept, so its joints and the touches of its impacts hold as they are, momentum and
/// angular momentum are conserved, and the energy of the members' motion relative to one
/// another is lost (a perfectly inelastic lock of the joints). The answer where the rigid
/// advance does not hold (a link turning thousands of radians per second, past what its
/// substeps follow): at their velocities the members would part at the joints by their
/// relative speeds over the rest of the step, units at these speeds, and straight courses at
/// the rigid velocities would part a turning group as well, so the members get the end poses
/// of the rigid turn, which [`Run::group_courses`] makes their courses.
pub(super) fn rigid_lock(
    bodies: &BodySet,
    members: &[BodyHandle],
    rest: Real,
    gravity: Vector,
    out: &mut Vec<GroupMotion>,
) -> bool {
    out.clear();
    let mut mass = 0.0;
    let mut moment = Vector::zeros();
    let mut momentum = Vector::zeros();
    for b in members.iter().filter_map(|&h| bodies.get(h)) {
        mass += b.mass();
        moment += b.center_of_mass().coords * b.mass();
        momentum += b.linvel() * b.mass();
    }
    if mass.is_nan() || mass <= 0.0 || !moment.iter().all(|x| x.is_finite()) {
        return false;
    }
    let center = Point::from(moment / mass);
    let (mut inertia, mut spin) = (0.0, 0.0);
    for b in members.iter().filter_map(|&h| bodies.get(h)) {
        let r = b.center_of_mass() - center;
        let v = b.linvel() - momentum / mass;
        inertia += b.inertia() + b.mass() * r.norm_squared();
        spin += b.inertia() * b.angvel() + b.mass() * (r.x * v.y - r.y * v.x);
    }
    let w = if inertia > 0.0 { spin / inertia } else { 0.0 };
    let v = momentum / mass;
    let turned = w * rest;
    let (sin, cos) = sin_cos(turned);
    let turn = |r: Vector| Vector::new(cos * r.x - sin * r.y, sin * r.x + cos * r.y);
    let drift = v * rest + gravity * (0.5 * rest * rest);
    for &h in members {
        let Some(b) = bodies.get(h) else {
            continue;
        };
        let r = turn(b.center_of_mass() - center);
        let end_center = center + drift + r;
        let angle = b.pose().rotation.angle() + turned;
        let rotation = Rotation::new(angle);
        let translation = end_center.coords - rotation * b.local_center().coords;
        out.push(GroupMotion {
            body: h,
            pose: Isometry::new(translation, angle),
            linvel: v + gravity * rest + Vector::new(-w * r.y, w * r.x),
            angvel: w,
            turned,
        });
    }
    out.iter().all(|m| {
        m.pose.translation.vector.iter().all(|x| x.is_finite())
            && m.linvel.iter().all(|x| x.is_finite())
    })
}
