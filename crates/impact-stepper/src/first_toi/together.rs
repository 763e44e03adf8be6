//! The other places where a jointed group touches what it struck, at the instant of a group
//! impact in a step of [`FirstTimeOfImpact`](super::FirstTimeOfImpact): each a normal row of
//! the impact's velocity problem ([`GroupPoint`]), so that a group meeting a wall with
//! several of its bodies at once is stopped at all of them together.
//!
//! The queue gives one pair at a time. Two welded boxes meeting a wall flat, side by side,
//! meet it at one instant; resolved one after the other, the first impact (restitution 0)
//! stops the first box's face by turning the group about it, which drives the second box in
//! faster, and the second impact stops that box by turning the group back, so that the first
//! leaves the wall: the boxes left a wall they met at 20 units/s at 3.6 units/s, turning at
//! 90 rad/s, and a chain of 10 links lying along the wall left it at half its speed. Solved
//! as one problem (see [`GroupImpactSolver::resolve_with`](impact_solver::GroupImpactSolver::resolve_with)),
//! every point that takes an impulse leaves at its restitution times its approach and the
//! group stops. The points are those of the contact manifolds of the group's other shapes
//! with the struck body's shapes within the time of impact's touching distance (its target
//! separation plus its tolerance, the distance at which the queue's impacts are found), the
//! same rules asked of them as of a planned pair, and not those of a pair the group already
//! keeps in contact from an earlier impact of the step, which its touch holds
//! ([`Run::kept_touch`]).

use super::groups::held;
use super::kept::holds_contact;
use super::state::Run;
use crate::hooks::ContactResponse;
use crate::motion::{shape_at, shapes_material};
use impact_geometry::{Real, Vector};
use impact_narrowphase::contact_manifold;
use impact_solver::{BodyHandle, GroupPoint};

/// The most points [`Run::together`] gives for one impact: a chain of 64 links lying flat
/// along a wall (two points a link). Past it the rest of the group's points wait for their
/// own impacts, as before; the dense solve is `O(m^3)` in its rows.
const MOST_POINTS: usize = 128;

impl Run<'_> {
    /// Whether a touch the group keeps from an earlier impact of the step holds the shape
    /// pair `shapes` of `m` and `wall` with the manifold's unit `normal` (from M toward the
    /// wall; see [`holds_contact`]). Such a pair is not struck at this instant: it has been in
    /// contact since that impact, its touch's row holds it in this impact's problem (no
    /// approach, no bounce), and what approach its bodies show is that of their courses
    /// (chords, and velocities interpolated along them), which the advance that holds the
    /// touch does not have. As a point of the impact it was the touch's row a second time:
    /// the active set of the one-sided rows was not unique, the pair bounced at its
    /// restitution off an approach of its course, and the group kept one more touch of it
    /// at every impact (see `tests/joints_ccd.rs`, the throws that opened a joint).
    fn kept_touch(
        &self,
        (m, wall): (BodyHandle, BodyHandle),
        shapes: [u32; 2],
        normal: Vector,
    ) -> bool {
        self.s.touches.iter().any(|t| {
            self.bodies.get(t.a).is_some_and(|a| {
                holds_contact(t, a.pose().rotation * t.normal, (m, wall), shapes, normal)
            })
        })
    }

    /// The other points where the movable bodies of the gathered group touch, at the
    /// instant (every body of the group brought to it), whichever of the struck bodies `ha`
    /// and `hb` is not a movable member of the group (a wall, a body held in place): every
    /// shape pair but the struck one (`shapes`, `ha`'s first) that the rules let collide,
    /// that the pre-solve hook does not disable and that no kept touch holds
    /// ([`Run::kept_touch`]), each point of their manifold within the touching distance. A struck body that moves and is not in the group gives none (its
    /// velocity would be taken as held).
    pub(super) fn together(
        &self,
        (ha, hb): (BodyHandle, BodyHandle),
        shapes: [u32; 2],
        t: Real,
        (out, out_shapes): (&mut Vec<GroupPoint>, &mut Vec<[u32; 2]>),
    ) {
        out.clear();
        out_shapes.clear();
        let group = self.s.group.group();
        let reach = self.settings.toi.target_separation() + self.settings.toi.tolerance();
        let rules = self.shape_rules();
        let mut places = Vec::new();
        for (wall, struck, struck_shape) in [(hb, ha, shapes[0]), (ha, hb, shapes[1])] {
            let Some(wall_body) = self.bodies.get(wall) else {
                continue;
            };
            if group.contains(&wall) || (wall_body.is_dynamic() && !held(self.s, wall)) {
                continue;
            }
            for &m in group {
                let Some(body) = self.bodies.get(m) else {
                    continue;
                };
                let (ms, ws) = (m.index, wall.index);
                if self.rules.has_pre_solve() && self.pair_disabled(ms, ws) {
                    continue;
                }
                // The wall's shapes whose boxes come within reach of the body's: no other
                // has a point within it (static ground of thousands of squares).
                let near = body.aabb().inflated(reach);
                places.clear();
                wall_body.shapes_near(wall_body.pose(), &near, &mut places);
                for i in 0..body.shapes().len() as u32 {
                    if m == struck && i == struck_shape {
                        continue;
                    }
                    for &j in &places {
                        if !rules.admits(self.bodies, (m, body), (wall, wall_body), [i, j]) {
                            continue;
                        }
                        let manifold = contact_manifold(
                            shape_at(body, i),
                            body.pose(),
                            shape_at(wall_body, j),
                            wall_body.pose(),
                            reach,
                        );
                        let normal = manifold.normal;
                        if self.kept_touch((m, wall), [i, j], normal) {
                            continue;
                        }
                        for p in manifold.points() {
                            if p.separation > reach || out.len() >= MOST_POINTS {
                                continue;
                            }
                            let material = match self.rules.pre_solve_impact(
                                self.bodies,
                                (
                                    (m, i, *body.pose(), (body.linvel(), body.angvel())),
                                    (
                                        wall,
                                        j,
                                        *wall_body.pose(),
                                        (wall_body.linvel(), wall_body.angvel()),
                                    ),
                                ),
                                (p.point, normal),
                                p.separation,
                                t,
                            ) {
                                ContactResponse::Disable => continue,
                                ContactResponse::Modify(material) => Some(material),
                                ContactResponse::Keep => {
                                    shapes_material(self.bodies, (m, wall), [i, j])
                                }
                            };
                            out.push(GroupPoint {
                                a: m,
                                b: wall,
                                point: p.point,
                                normal,
                                material,
                            });
                            out_shapes.push([i, j]);
                        }
                    }
                }
            }
        }
    }
}
