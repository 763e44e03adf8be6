//! The rigid lock of a jointed group in a step of [`FirstTimeOfImpact`](super::FirstTimeOfImpact):
//! what a free group does where its rigid advance at the step's start does not hold (see
//! `groups`). The design and its figures:
//! `docs/algorithms/joints-ccd.md`, "Bounds on the work, and what happens past them".

use impact_geometry::{Isometry, Point, Real, Rotation, Vector, sin_cos};
use impact_solver::{BodyHandle, BodySet, GroupMotion, JointHandle, JointSet};

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
