//! The impact on a jointed group, resolved for the whole group at its instant, and the
//! group's rigid motion over the rest of a step: [`GroupImpactSolver`] (its documentation
//! gives the method, its cost and its sources). `rows` holds what each kind of joint holds
//! rigidly, `dense` the direct solve, `system` the table of bodies and rows they share,
//! `motion` the advance.

mod checks;
mod close;
mod dense;
mod graph;
mod motion;
mod rows;
mod system;
mod types;

use checks::{pair_material, validate, validate_point};
pub use close::JointClosure;
pub use graph::JointGraph;
pub use motion::{GroupAdvance, GroupMotion, GroupStep};
use types::ContactRow;
pub use types::{GroupContact, GroupImpulse, GroupPoint, Held, Touch};

use crate::body_set::{BodyHandle, BodySet};
use crate::contact::contact_tangent;
use crate::error::SolverError;
use crate::impact::{Impulse, resolve_impact_with};
use crate::joint::{JointHandle, JointSet};
use crate::settings::ImpactSettings;
use impact_geometry::{Point, Real, Vector};
use rows::{Bound, Row};
use system::{Member, System};

/// The impact on a jointed group: one collision at its instant, resolved for every body the
/// struck bodies' rigid joints hold, so that a struck link moves its chain as one and no
/// joint is stretched by the blow.
///
/// [`resolve_impact`](crate::resolve_impact) resolves an impact between two bodies alone.
/// When a struck body is held by joints, that answer stretches the joints, and the joint rows
/// of the next solver step pull the group together again over the step, after the bodies
/// have moved: a fast whip or ragdoll's struck link rebounds alone and the rest of it follows
/// through the wall. [`GroupImpactSolver::resolve`] solves the instant's velocity problem of
/// the whole group instead, the rigid joint rows with the contact, in the manner of Baraff's
/// Lagrange multiplier formulation ("Linear-time dynamics using Lagrange multipliers",
/// SIGGRAPH 1996), for impulses rather than forces.
///
/// # The group
/// The bodies reachable from either struck body through enabled joints that can hold rigidly
/// (revolute, prismatic, wheel, welds and distance joints with a rigid part: see
/// [`JointGraph`] and the rows below), between dynamic bodies. Static and kinematic bodies,
/// and bodies the caller holds in place, end the search: their mass is infinite.
///
/// # The problem
/// Rows `J v` with targets, each an impulse `lambda` along `J^T`:
/// - the contact's normal row, `lambda >= 0`;
/// - each joint's rigid rows at the instant, target 0: a revolute joint's two point rows and
///   its limit as a one-sided row only where the angle is at the limit (within the angular
///   slop), a weld's rigid parts, a prismatic joint's row across its axis and its angle
///   row, a wheel's row across its axis, a rigid distance joint's length, and a distance,
///   prismatic or wheel limit at its bound as a one-sided row. Springs, soft weld parts,
///   motors and the mouse joint apply forces, which pass no impulse in an instant.
///
/// As in [`resolve_impact_with`](crate::resolve_impact_with), the normal impulse comes first
/// and friction after, in three stages:
/// 1. *compression*: the normal row with target 0 (the approach stopped) and the joint rows;
/// 2. *restitution*: `e` times the compression impulse more along the normal (`e` as
///    [`resolve_impact_with`](crate::resolve_impact_with) chooses it, 0 below the restitution
///    threshold), the joint rows solved again;
/// 3. *friction*: the friction row with the joint rows, its impulse within `mu` times the
///    whole normal impulse (Coulomb), stopping the slip where that bound allows.
///
/// A one-sided joint row's total impulse stays zero or more throughout. While the active set
/// of the one-sided rows stays the same, stages 1 and 2 are Newton's law of
/// [`resolve_impact_with`](crate::resolve_impact_with), the contact leaving at `e` times its
/// approach speed (the contact's effective mass is then one number); this is Poisson's
/// hypothesis, which also answers where Newton's target cannot be met: a limit at its bound
/// that takes the blow (a limb pressed against its stop, jointed to a fixed body) leaves the
/// contact no room to bounce, and a Newton target would ask for an infinite impulse. A group
/// of one body and no joint row is exactly that resolver (it is called).
///
/// Each stage is a mixed linear complementarity problem on `A = J W J^T`, solved by an active
/// set over a direct LDL^T factorisation (see the `dense` module) to a residual of `1e-9` of
/// the rows' velocities (it reaches rounding in practice; [`GroupImpulse::residual`] says).
/// The solve is dense, which handles loops (a closed linkage, a body jointed twice) as well
/// as trees: `O(m^3 / 6)` per round for `m` rows, one round unless a limit or the friction
/// bound changes the active set; a ragdoll of 10 bodies (27 rows with its limits and the
/// contact) takes about 3,300 multiply-adds, a 20-link chain (41 rows) about 11,000. The
/// elimination of a tree from its leaves to its root, which Baraff's paper makes linear in
/// the group's size, would pay off only for groups of hundreds of bodies.
///
/// # What it gives
/// Linear and angular momentum about any point are conserved when no body of infinite mass
/// is in the group; kinetic energy does not grow for `e <= 1` when the joints' velocity rows
/// held before the impact (the solve projects onto them, and a velocity that violated them
/// loses that part); every rigid joint row holds after it. The tests check each against an
/// oracle that shares no code with the solve (`tests/group_impact.rs`: the KKT system of
/// random trees solved by LU, and every active set of their limits enumerated).
///
/// # The rest of the step
/// [`GroupImpactSolver::advance`] moves the group on from the impact under gravity and its
/// rigid joint rows, for a CCD stepper to aim the group's courses at.
///
/// A CCD stepper moves each body on a straight course (constant velocities) from an impact
/// to the end of the step. A group that turns fast does not: its links swing on arcs, and
/// straight courses from the impact's velocities carry them apart (a chain turning at `w`
/// opens each joint by about `l (w tau)^2 / 2` over `tau` seconds, `l` the link's length: a
/// third of a 0.1 link at 50 rad/s over a 60 Hz step). The soft step of the contact solver,
/// run on the group alone, does not hold such a group either: its joints are springs of
/// [`SolverSettings::joint_hertz`](crate::SolverSettings::joint_hertz), and a 20-link chain
/// of 0.1 links turning at 50 rad/s, started cold, opens its joints by a third of a link in
/// one 60 Hz step of four substeps.
///
/// So the advance integrates the group rigidly, with the rows of the impact, by RATTLE
/// (Andersen, "Rattle: a velocity version of the Shake algorithm for molecular dynamics
/// calculations", J. Comput. Phys. 1983) on the bodies' coordinates `(x, y, angle)`, whose
/// mass matrix is constant in 2D. Per substep `h`:
///
/// 0. (once) the joints closed where the bodies are, and the velocities projected onto
///    them ([`GroupImpactSolver::close_joints`]), so that an error the group came with does
///    not turn into velocity;
/// 1. half a kick of gravity (and damping);
/// 2. the rows at the substep's start, `J_n`, with their limits at their bounds;
/// 3. a drift `h v`, then the position errors removed along `W J_n^T` (SHAKE: quasi-Newton
///    steps `J_n W J_n^T dl = -C`, one-sided rows pushing only, until every joint holds to
///    `1e-10` of the group's size);
/// 4. the velocity the drift and the correction amount to, `(q_n+1 - q_n) / h`, the other
///    half kick, and the velocity rows at the new poses projected out.
///
/// Correcting along the start's rows, and taking the velocity from the corrected motion, is
/// what keeps the energy: a pendulum at 50 rad/s keeps its speed to 1e-10 without gravity,
/// where projecting velocities and positions apart (post-stabilisation) loses 6% of it in a
/// 60 Hz step of four substeps. Springs, soft welds, motors and mouse joints act through
/// forces, which the rigid advance leaves out: over the rest of one step their pull waits
/// for the next step's solver. Contacts are the stepper's: it plans the courses toward these
/// poses against everything else. Cost per substep: a few dense solves of the joint rows
/// (`O(m^3 / 6)` each), the position correction converging by about the substep's turn per
/// solve.
///
/// Resolves impacts on jointed groups and advances a group over the rest of a step
/// ([`GroupImpactSolver::advance`]), keeping its storage from call to call.
#[derive(Debug, Clone, Default)]
pub struct GroupImpactSolver {
    system: System,
    /// By body slot: the member index, `u32::MAX` for none.
    index: Vec<u32>,
    /// The movable members' handles, in the search's order.
    group: Vec<BodyHandle>,
    /// The group's joints, in slot order.
    joints: Vec<JointHandle>,
    /// Per row: the impulse the stages so far applied.
    applied: Vec<Real>,
    /// The contact's normal rows: the struck pair's one or two points first (`primary` of
    /// them), then the other points the group touches with at the instant.
    arms: Vec<ContactRow>,
    primary: usize,
    /// Whether the last resolve changed the members' velocities.
    moved: bool,
    /// The contacts the group keeps (see [`Touch`]), and the corners (B's frame) of each
    /// one that holds a whole shape.
    touches: Vec<Touch>,
    corners: Vec<Vec<Point>>,
    /// The advance's rows with every limit, which of them act, the same rows at the
    /// current poses, and each member's centre and turn at the substep's start.
    all: Vec<Row>,
    acting: Vec<bool>,
    now: Vec<Row>,
    starts: Vec<(Point, Real)>,
}

impl GroupImpactSolver {
    /// An empty solver.
    pub fn new() -> Self {
        Self::default()
    }

    /// Finds the group of the bodies `a` and `b` (see the [`GroupImpactSolver`]): the dynamic
    /// bodies reachable from either through enabled joints of `joints` that can hold
    /// rigidly, never through a body of infinite mass or one that `held` says is held in
    /// place (a body the caller keeps still, which acts with infinite mass). Returns whether
    /// any such joint was met; [`GroupImpactSolver::group`] then lists the group.
    pub fn gather(
        &mut self,
        bodies: &BodySet,
        joints: &JointSet,
        graph: &JointGraph,
        (a, b): (BodyHandle, BodyHandle),
        held: Held<'_>,
    ) -> bool {
        self.gather_for(bodies, joints, graph, (a, b), (held, true))
    }

    /// [`GroupImpactSolver::gather`], the touches' bodies outside the group each a body of
    /// infinite mass if `moving_touches`, else only those that cannot move (static,
    /// kinematic or `held`): a touch whose other body is a dynamic body outside the group is
    /// then left out (see [`GroupImpactSolver::resolve`]).
    fn gather_for(
        &mut self,
        bodies: &BodySet,
        joints: &JointSet,
        graph: &JointGraph,
        (a, b): (BodyHandle, BodyHandle),
        (held, moving_touches): (Held<'_>, bool),
    ) -> bool {
        for m in &self.system.members {
            self.index[m.handle.index as usize] = u32::MAX;
        }
        self.system.members.clear();
        self.group.clear();
        self.joints.clear();
        self.member(bodies, a, held);
        self.member(bodies, b, held);
        let mut next = 0;
        while next < self.system.members.len() {
            let m = self.system.members[next];
            next += 1;
            if !m.movable {
                continue;
            }
            for &handle in graph.joints_of(m.handle) {
                let Some(joint) = joints.get(handle) else {
                    continue;
                };
                if !joint.is_enabled() || !rows::may_bind(joint.kind()) {
                    continue;
                }
                let other = if joint.body_a() == m.handle {
                    joint.body_b()
                } else if joint.body_b() == m.handle {
                    joint.body_a()
                } else {
                    continue;
                };
                if self.member(bodies, other, held).is_some() {
                    self.joints.push(handle);
                }
            }
        }
        self.joints.sort_unstable();
        self.joints.dedup();
        // The bodies the group touches (see `Touch`), as bodies of infinite mass unless the
        // group holds them already.
        for i in 0..self.touches.len() {
            let touch = self.touches[i];
            let (a, b) = (self.index_of(touch.a), self.index_of(touch.b));
            if a.is_some() || b.is_some() {
                let outside = |_: BodyHandle| true;
                for h in [touch.a, touch.b] {
                    let still = || bodies.get(h).is_some_and(|b| !b.is_dynamic() || held(h));
                    if self.index_of(h).is_none() && (moving_touches || still()) {
                        self.member(bodies, h, &outside);
                    }
                }
            }
        }
        self.fill_corners(bodies);
        !self.joints.is_empty()
    }

    /// Sets the contacts the group keeps from now on (see [`Touch`]): each a one-sided row
    /// in [`GroupImpactSolver::resolve`] (no approach at the instant) and in
    /// [`GroupImpactSolver::advance`] (no overlap), while its two points are within the
    /// linear slop of each other along its normal. A touch's body outside the group acts
    /// with infinite mass in the advance; in an impact only one that cannot move (see
    /// [`GroupImpactSolver::resolve`]).
    pub fn set_touches(&mut self, touches: &[Touch]) {
        self.touches.clear();
        self.touches.extend_from_slice(touches);
        if self.corners.len() < touches.len() {
            self.corners.resize_with(touches.len(), Vec::new);
        }
        for corners in &mut self.corners {
            corners.clear();
        }
    }

    /// The corners (B's frame) of each touch that holds a whole shape, read from `bodies`.
    pub(super) fn fill_corners(&mut self, bodies: &BodySet) {
        for (touch, corners) in self.touches.iter().zip(&mut self.corners) {
            corners.clear();
            if let (Some(shape), Some(body)) = (touch.shape, bodies.get(touch.b)) {
                corners.extend_from_slice(body.shape_or_first(shape).shape().core());
            }
        }
    }

    /// The movable bodies of the last group found ([`GroupImpactSolver::gather`], or
    /// [`GroupImpactSolver::resolve`]), the struck ones first.
    pub fn group(&self) -> &[BodyHandle] {
        &self.group
    }

    /// The joints of the last group found that can hold rigidly, in slot order.
    pub fn group_joints(&self) -> &[JointHandle] {
        &self.joints
    }

    /// Every body of the last group found, the movable ones and those of infinite mass its
    /// joints tie it to (static, kinematic or held), in the search's order.
    pub fn bodies(&self) -> impl Iterator<Item = BodyHandle> + '_ {
        self.system.members.iter().map(|m| m.handle)
    }

    /// The member index of `handle`, added if new; `None` for a body not in `bodies`.
    fn member(&mut self, bodies: &BodySet, handle: BodyHandle, held: Held<'_>) -> Option<u32> {
        let body = bodies.get(handle)?;
        let slot = handle.index as usize;
        if self.index.len() <= slot {
            self.index.resize(slot + 1, u32::MAX);
        }
        if self.index[slot] != u32::MAX {
            return Some(self.index[slot]);
        }
        let movable = body.is_dynamic() && !held(handle);
        let id = self.system.members.len() as u32;
        let mut member = Member::of(handle, body, movable);
        if body.is_dynamic() && !movable {
            // A held body stays where it is, whatever velocities it keeps.
            (member.v, member.w) = (Vector::zeros(), 0.0);
        }
        self.system.members.push(member);
        self.index[slot] = id;
        if movable {
            self.group.push(handle);
        }
        Some(id)
    }

    /// Appends the rows of the group's joints at the members' poses to `out` (every enabled
    /// limit's with `all`, see [`rows::joint_rows`]).
    fn build_rows(&self, joints: &JointSet, all: bool, out: &mut Vec<Row>) {
        let members = &self.system.members;
        for (touch, corners) in self.touches.iter().zip(&self.corners) {
            let ids = (self.index_of(touch.a), self.index_of(touch.b));
            let (Some(a), Some(b)) = ids else {
                continue;
            };
            let (ma, mb) = (&members[a as usize], &members[b as usize]);
            if !(ma.movable || mb.movable) {
                continue;
            }
            let placed = ((&ma.pose, ma.center()), (&mb.pose, mb.center()));
            rows::touch_row(touch, corners, placed, (a, b), all, out);
        }
        for &handle in &self.joints {
            let Some(joint) = joints.get(handle) else {
                continue;
            };
            let ids = (
                self.index[joint.body_a().index as usize],
                self.index[joint.body_b().index as usize],
            );
            let (ma, mb) = (&members[ids.0 as usize], &members[ids.1 as usize]);
            let placed = ((&ma.pose, ma.center()), (&mb.pose, mb.center()));
            rows::joint_rows(joint, placed, ids, all, out);
        }
    }

    /// The member index of `handle`, if it is a member.
    fn index_of(&self, handle: BodyHandle) -> Option<u32> {
        let id = *self.index.get(handle.index as usize)?;
        (id != u32::MAX && self.system.members.get(id as usize)?.handle == handle).then_some(id)
    }

    /// Makes the system's rows those of the group's joints at the members' poses, after the
    /// rows before `keep`, with nothing applied yet.
    fn joint_rows(&mut self, joints: &JointSet, keep: usize) {
        let mut rows = core::mem::take(&mut self.system.rows);
        rows.truncate(keep);
        self.build_rows(joints, false, &mut rows);
        self.system.rows = rows;
        self.applied.clear();
        self.applied.resize(self.system.rows.len(), 0.0);
    }

    /// Resolves the impact `contact` for the group of its two bodies (see the
    /// [`GroupImpactSolver`]), with the bodies at their poses and velocities of the instant,
    /// and writes the new velocities of every movable body of the group. Bodies `held` says
    /// are held act with infinite mass and keep their velocities. Without a joint row at the
    /// instant, this is [`resolve_impact_with`](crate::resolve_impact_with), bit for bit.
    ///
    /// A kept touch ([`GroupImpactSolver::set_touches`]) whose other body is a dynamic body
    /// outside the group that `held` does not hold is left out of the impact: that body moves
    /// on its own, and its row, against the body taken as still and of infinite mass, would
    /// stop the group where it presses on it with nothing to say so. A motor-driven paddle of
    /// 48 kg turning at 5 rad/s was stopped dead, its contact impulse 0, by the touch of a
    /// 0.12 kg body of the pile it stirred, struck at the same instant before.
    ///
    /// If the points are not approaching nothing is applied and a zero impulse is returned,
    /// as is one whose impulses overflow `f64`. Where the joint rows alone part the contact
    /// (a limit the group was already moving past takes the blow), the normal impulse is 0
    /// and the joints' impulses still apply.
    ///
    /// # Errors
    /// As [`resolve_impact_with`](crate::resolve_impact_with): [`SolverError`] naming
    /// `impact.a` / `impact.b` (stale handle), `impact` (the same body twice), `impact.point`
    /// (not finite), `impact.normal` (not a finite unit vector) or `impact_settings.*`; no
    /// body is changed then.
    pub fn resolve(
        &mut self,
        bodies: &mut BodySet,
        joints: &JointSet,
        graph: &JointGraph,
        contact: &GroupContact,
        settings: &ImpactSettings,
        held: Held<'_>,
    ) -> Result<GroupImpulse, SolverError> {
        self.resolve_with(bodies, joints, graph, (contact, &[]), settings, held)
    }

    /// [`GroupImpactSolver::resolve`] with the other points where the group touches at the
    /// instant (`also`, see [`GroupPoint`]): each a normal row of the same velocity problem,
    /// pushing only, with its own friction and restitution, so that a group meeting a wall
    /// with several bodies at once is stopped at all of them together. A point whose bodies
    /// are neither movable members of the group, or whose other body is a dynamic body
    /// outside the group, is left out. The impulse reported is the struck pair's alone.
    /// Without a joint row at the instant the points of `also` are left out and this is
    /// [`resolve_impact_with`](crate::resolve_impact_with), bit for bit.
    ///
    /// # Errors
    /// As [`GroupImpactSolver::resolve`], and for a point of `also` at place `i`:
    /// `impact.also[i].a` / `.b` (stale handle), `impact.also[i]` (the same body twice),
    /// `impact.also[i].point` (not finite) or `impact.also[i].normal` (not a finite unit
    /// vector); no body is changed then.
    pub fn resolve_with(
        &mut self,
        bodies: &mut BodySet,
        joints: &JointSet,
        graph: &JointGraph,
        (contact, also): (&GroupContact, &[GroupPoint]),
        settings: &ImpactSettings,
        held: Held<'_>,
    ) -> Result<GroupImpulse, SolverError> {
        let GroupContact {
            a,
            b,
            point,
            normal,
            material,
            ..
        } = *contact;
        validate(bodies, contact, settings)?;
        for (i, p) in also.iter().enumerate() {
            validate_point(bodies, p, i)?;
        }
        self.gather_for(bodies, joints, graph, (a, b), (held, false));
        let ids = (self.index[a.index as usize], self.index[b.index as usize]);
        self.arms.clear();
        self.system.rows.clear();
        let mut row_ids = Vec::with_capacity(2 + also.len());
        let (friction, restitution) = pair_material(bodies, (a, b), material.as_ref());
        {
            let (body_a, body_b) = (
                bodies.try_get(a, "impact.a")?,
                bodies.try_get(b, "impact.b")?,
            );
            for p in core::iter::once(point).chain(contact.second) {
                self.arms.push(ContactRow {
                    normal,
                    arms: (p - body_a.center_of_mass(), p - body_b.center_of_mass()),
                    friction,
                    restitution,
                });
                row_ids.push(ids);
            }
        }
        self.primary = self.arms.len();
        for p in also {
            let Some(ids) = self.point_members(bodies, p) else {
                continue;
            };
            let (friction, restitution) = pair_material(bodies, (p.a, p.b), p.material.as_ref());
            let (ca, cb) = (
                self.system.members[ids.0 as usize].center(),
                self.system.members[ids.1 as usize].center(),
            );
            self.arms.push(ContactRow {
                normal: p.normal,
                arms: (p.point - ca, p.point - cb),
                friction,
                restitution,
            });
            row_ids.push(ids);
        }
        for (c, &ids) in self.arms.iter().zip(&row_ids) {
            self.system
                .rows
                .push(Row::linear(ids, c.normal, c.arms, Bound::AtLeast));
        }
        let k = self.arms.len();
        self.joint_rows(joints, k);
        let joint_rows = self.system.rows.len() - k;
        if joint_rows == 0 {
            let impulse =
                resolve_impact_with(bodies, a, b, point, normal, material.as_ref(), settings)?;
            return Ok(GroupImpulse {
                impulse,
                joint_rows,
                residual: 0.0,
                rounds: 0,
            });
        }
        self.moved = false;
        let out = GroupImpulse {
            joint_rows,
            ..self.solve_stages(contact, settings)
        };
        if self.moved {
            for m in &self.system.members {
                if m.movable
                    && let Some(body) = bodies.get_mut(m.handle)
                {
                    body.set_velocity_unchecked(m.v, m.w);
                }
            }
        }
        Ok(out)
    }

    /// The member indices of the bodies of `p`, the one outside the group added as a body
    /// of infinite mass; `None` where neither is a movable member, or the other is a dynamic
    /// body outside the group (its velocity would be taken as zero).
    fn point_members(&mut self, bodies: &BodySet, p: &GroupPoint) -> Option<(u32, u32)> {
        let movable = |s: &Self, h: BodyHandle| {
            s.index_of(h)
                .is_some_and(|i| s.system.members[i as usize].movable)
        };
        if !movable(self, p.a) && !movable(self, p.b) {
            return None;
        }
        let outside = |_: BodyHandle| true;
        let mut id = |h: BodyHandle| match self.index_of(h) {
            Some(i) => Some(i),
            None if bodies.get(h)?.is_dynamic() => None,
            None => self.member(bodies, h, &outside),
        };
        Some((id(p.a)?, id(p.b)?))
    }

    /// The stages on the members' velocities (rows built, the contact's first, one per
    /// point): the normal impulse with the joint rows, compression then restitution, then
    /// friction with them. A zero impulse leaves the velocities as they were.
    fn solve_stages(&mut self, contact: &GroupContact, settings: &ImpactSettings) -> GroupImpulse {
        let k = self.arms.len();
        let primary = self.primary;
        // The approach at the reported point, and whether any point closes.
        let vn = self.system.row_velocity(0);
        let closing = (0..k).any(|i| self.system.row_velocity(i) < 0.0);
        let mut out = GroupImpulse {
            impulse: Impulse {
                normal: 0.0,
                tangent: 0.0,
                normal_direction: contact.normal,
                tangent_direction: contact_tangent(&contact.normal),
                point: contact.point,
                approach_speed: -vn,
                restitution: 0.0,
            },
            joint_rows: 0,
            residual: 0.0,
            rounds: 0,
        };
        if !closing {
            return out;
        }
        let approach = (0..k)
            .map(|i| -self.system.row_velocity(i))
            .fold(0.0, Real::max);
        // Below the threshold every point's bounce is dropped, as one body's would be.
        let bounces = approach >= settings.restitution_threshold;
        let e = |i: usize| {
            if bounces {
                self.arms[i].restitution
            } else {
                0.0
            }
        };
        let restitution: Vec<Real> = (0..k).map(e).collect();
        let saved: Vec<(Vector, Real)> = self.system.members.iter().map(|m| (m.v, m.w)).collect();
        // Compression: the approach stopped, the joints held. Its impulses may be 0 where the
        // joints alone part the contact (a limit the group was already moving past takes the
        // blow); their impulses still apply.
        let (residual, rounds) = self.stage(0);
        let compression: Vec<Real> = self.applied[..k].to_vec();
        if !self.system.finite() || !compression.iter().all(|c| c.is_finite()) {
            self.restore(&saved);
            return out;
        }
        self.moved = true;
        out.residual = residual;
        out.rounds = rounds;
        // Restitution: each point's `e` times its compression impulse more, the joints held.
        if (0..k).any(|i| restitution[i] > 0.0 && compression[i] > 0.0) {
            for (i, &c) in compression.iter().enumerate() {
                self.system.push_row(i, restitution[i] * c);
                self.applied[i] += restitution[i] * c;
            }
            let (residual, rounds) = self.stage(k);
            out.residual = out.residual.max(residual);
            out.rounds += rounds;
        }
        // The joints' answer to the restitution impulses may turn a point back in (a limit
        // that held in the compression lets go): such a point is stopped again.
        if (0..k).any(|i| self.system.row_velocity(i) < 0.0) {
            for row in &mut self.system.rows[..k] {
                row.target = 0.0;
            }
            // Pushing only: what the rows add is bounded below by 0, not by their totals.
            let pushed: Vec<Real> = self.applied[..k].to_vec();
            self.applied[..k].fill(0.0);
            let (residual, rounds) = self.stage(0);
            for (total, p) in self.applied.iter_mut().zip(pushed) {
                *total += p;
            }
            out.residual = out.residual.max(residual);
            out.rounds += rounds;
        }
        let normals: Vec<Real> = self.applied[..k].to_vec();
        let normal: Real = normals.iter().sum();
        if !self.system.finite() || !normal.is_finite() {
            self.moved = false;
            self.restore(&saved);
            return out;
        }
        out.impulse.normal = normals[..primary].iter().sum();
        out.impulse.restitution = restitution[0];
        if settings.friction && (0..k).any(|i| self.arms[i].friction > 0.0) && normal > 0.0 {
            self.friction_stage(&normals, &mut out);
        }
        out
    }

    /// The friction stage: a tangent row per point within `mu` times its normal impulse
    /// `normals[i]`, beside the normal rows (kept from closing again, pushing only:
    /// friction may take the bounce, as in
    /// [`resolve_impact_with`](crate::resolve_impact_with), but not turn the point back in)
    /// and the joint rows. The normal rows stay in, unlike in that resolver's friction step:
    /// through the joints, a friction impulse at a point far from the group's centre turns the
    /// struck body into what it struck (a ragdoll's shin meeting a wall at 500 units/s was
    /// sent back into it at 180), which one body alone cannot do by more than its own turn.
    fn friction_stage(&mut self, normals: &[Real], out: &mut GroupImpulse) {
        let k = normals.len();
        let primary = self.primary;
        let before: Vec<(Vector, Real)> = self.system.members.iter().map(|m| (m.v, m.w)).collect();
        let kept = (self.system.rows.clone(), self.applied.clone());
        let mut contact_rows = Vec::with_capacity(2 * k);
        for (i, (c, &n)) in self.arms.iter().zip(normals).enumerate() {
            let (ia, ib) = (self.system.rows[i].a, self.system.rows[i].b);
            contact_rows.push(Row::linear(
                (ia, ib),
                contact_tangent(&c.normal),
                c.arms,
                Bound::Friction(c.friction * n),
            ));
        }
        contact_rows.extend(
            self.system.rows[..k]
                .iter()
                .map(|&row| Row { target: 0.0, ..row }),
        );
        self.system.rows.splice(0..k, contact_rows);
        // The normal rows only push further here: their lower bound is what they add.
        let mut applied = vec![0.0; 2 * k];
        applied.extend_from_slice(&self.applied[k..]);
        self.applied = applied;
        if !(0..k).any(|i| self.system.row_velocity(i) != 0.0) {
            (self.system.rows, self.applied) = kept;
            return;
        }
        let (residual, rounds) = self.stage(0);
        if self.system.finite() {
            out.impulse.tangent = self.applied[..primary].iter().sum();
            out.impulse.normal = normals[..primary].iter().sum::<Real>()
                + self.applied[k..k + primary].iter().sum::<Real>();
            out.residual = out.residual.max(residual);
            out.rounds += rounds;
        } else {
            (self.system.rows, self.applied) = kept;
            self.restore(&before);
        }
    }

    /// One stage on the rows from `from`, toward their targets, solved and applied. Returns
    /// the relative residual and the rounds.
    fn stage(&mut self, from: usize) -> (Real, u32) {
        let applied = core::mem::take(&mut self.applied);
        self.system
            .assemble(from, |s, i| s.row_velocity(i) - s.rows[i].target, &applied);
        self.applied = applied;
        let scale = self.system.scale(from);
        let outcome = self.system.solve(scale);
        if self.system.finite() {
            self.system.apply_velocities(from, &mut self.applied);
        }
        (outcome.residual, outcome.rounds)
    }

    /// Puts the members' velocities back.
    fn restore(&mut self, saved: &[(Vector, Real)]) {
        for (m, &(v, w)) in self.system.members.iter_mut().zip(saved) {
            (m.v, m.w) = (v, w);
        }
    }
}
