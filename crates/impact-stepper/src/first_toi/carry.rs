//! Bodies a driven body carries in a step of [`FirstTimeOfImpact`](super::FirstTimeOfImpact).
//!
//! A body a motor turns (a flipper, a paddle), or a kinematic body turned at the velocity
//! it is given, that pushes a free body meets it again at once
//! after every impact: the free body leaves on a straight course at the speed of the point
//! that struck it, and the pusher's surface, turning, falls back onto that course (the gap
//! closes as the cube of the time, at once within the tolerance). The sequence is a Zeno
//! pair. Stopping the free body and sending the driven one on lets the pusher pass into it
//! for the rest of the step, and a thin flipper at 30 rad/s passes a small ball whole;
//! stopping the driven body too stalls the motor at every push. So the free body is
//! *carried*: from the instant of the Zeno pair to the end of the step it keeps its pose
//! relative to the pusher, on the straight course from where it is to where the pusher's
//! end pose takes it, turning as the pusher turns, and it ends the step at the velocity of
//! the pusher's point where it rests. On the chord it dips toward the pusher's surface by at
//! most its distance from the pusher's centre along the normal times `1 - cos(turn / 2)`
//! (a turn of 0.67 rad over the rest of a 60 Hz step: 5.5% of it), and ends where it
//! started, relative to the pusher; the pair is not planned while it is carried. What else
//! the carried body meets is planned as for any course; an impact on it ends the carry,
//! and what it pushes into and keeps meeting is carried by the same driven body. A new
//! course of the carrier carries its bodies on from that instant (a stopped carrier holds
//! them still).
//!
//! A carried body the pusher drives against a static body (the ceiling over a flipper, the
//! ring round the spinner's paddle) *slides*: the last static surface the body met in the
//! step is kept as a plane (its normal, and where the body's centre of mass was), and where
//! the carried course would end past that plane, the end pose is moved along the pusher's
//! surface (the tangent at the normal where the two met, turned with the pusher) just far
//! enough to end on it, as a frictionless body squeezed out of a closing wedge goes, and
//! the body ends the step with that slide's velocity added. The centre of mass moves on a
//! straight chord, so it stays on the plane's side all along. Two cases stall a dynamic
//! pusher instead, stopped where it meets the body, which stops too (reported as
//! `wedges`): faces closer to parallel than [`LEAST_WEDGE`], and a slide too long for one
//! chord of the turning pusher (see [`Run::slide`]). A kinematic pusher, moved whatever it
//! meets, carries the body on rigidly there, and so does one a motor of unlimited torque
//! drives (see `motion::unstoppable`): no wedge stalls it. Friction, which locks a narrow rigid wedge,
//! is left out: with it, the spinner's paddle, whose motor has unlimited torque, stalled
//! on the bodies it pressed into its ring at a few degrees, where the peers' soft contacts
//! squeeze them out.
//!
//! A body is carried at most [`MAX_CARRIES`] times in a step, and a driven body carries at
//! most [`MAX_CARRIED`] distinct bodies in a step; past either, or for a body that cannot be
//! carried (one a rigid joint holds, a driven one), the body stops and the driven body goes
//! on into it, as the peers' soft contacts let it. What a carried body pushes is carried
//! rigidly with the driven body, which keeps a stack on a flipper whole but swings a row
//! standing out from the pusher's face round with it as a lever, its far end faster than
//! the pusher's; the cap bounds that lever. Unbounded, the spinner's paddle carries whole
//! rows of its packed pile round with it in its first step, at up to 120 m/s against its
//! tip's 100, and the flung pile, fast everywhere, is planned and stopped step after step.
//! Pushing such a row along with the velocity of its pusher where they meet, without
//! turning, as a frictionless row moves, does not hold a body that rests on two carried
//! bodies: the two frames part, the body is struck free of each in turn until it runs out
//! of carries, and the driven body passes it.

use super::plan::Planning;
use super::queue::{Due, Entry};
use super::state::Run;
use crate::motion::motion_scale;
use crate::ramp::Ramp;
use impact_geometry::{Isometry, Point, Real, Sweep, Vector};
use impact_solver::RigidBody;

/// The most times one body is carried in a step: a body the pusher squeezes against a wall
/// is struck free of the carry by the wall and met by the pusher again, once per carry,
/// and in a pile a carried body struck free by its neighbours is carried again.
pub(super) const MAX_CARRIES: u8 = 16;

/// The most distinct bodies one driven body carries in a step, those it pushes and those they
/// push (a stack on a flipper, a row a paddle shoves end on): past that, a body it would
/// carry is met as a body it cannot carry. Every body a carried body pushes is carried
/// rigidly with the driven body, so a row standing out from the pusher's face is swung round
/// with it as a lever; unbounded, a paddle turning through a packed pile (Box2D's spinner)
/// carries whole rows of it round in one step, faster than its own tip.
pub(super) const MAX_CARRIED: u32 = 32;

/// No carrier.
const NONE: u32 = u32::MAX;

/// The narrowest wedge (radians between its faces) a carried body is squeezed out of:
/// narrower, the slide it would need grows past `1 / sin` of it (100 times the pusher's
/// approach), and the pusher stalls instead.
pub(super) const LEAST_WEDGE: Real = 0.01;

/// Per slot: what a carried body slides on and against (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Slide {
    /// The normal at which the carrier met the body, in the carrier's frame; zero if not
    /// known.
    pub(super) normal: Vector,
    /// The last static surface the body met in the step: its unit normal toward the body,
    /// and where the body's centre of mass was then.
    pub(super) wall: Option<(Vector, Point)>,
}

/// What became of a carry.
enum Carried {
    /// The body is on its carried course.
    Yes,
    /// The carrier squeezes the body into a wedge it cannot leave.
    Wedged,
    /// The body cannot be carried.
    No,
}

impl Run<'_> {
    /// Gives `slot` the course `sweep` from `t` (see [`Run::lay_course`]): the end of any
    /// carry of the body, and the bodies the body carries carried on its new course.
    pub(super) fn install_course(
        &mut self,
        slot: usize,
        course: (Real, Sweep),
        end: (Vector, Real),
        ramp: Ramp,
        halt: bool,
    ) {
        self.end_carry(slot);
        self.lay_course(slot, course, end, ramp, halt);
        if self.s.carrying[slot] > 0 {
            self.carry_on(slot, course.0);
        }
    }

    /// Whether the Zeno pair (or the pair stopped by the event cap or a query that gave
    /// up) of slots `a` and `b` at `t` is a driven body pushing a free one, which it now
    /// carries (see the module docs and [`Run::try_carry`]).
    pub(super) fn carries(&mut self, e: &Entry) -> bool {
        let (a, b) = (e.a as usize, e.b as usize);
        let normal = match e.due {
            Due::Impact { normal, .. } if e.offset == Vector::zeros() => Some(normal),
            _ => None,
        };
        if let Some(normal) = normal {
            self.note_wall(e, normal);
        }
        // Where a body the carrier carries is met, the normal is that body's surface's,
        // which moves with the carrier as rigidly as the carrier's own.
        match (self.carrier(a), self.carrier(b)) {
            (Some(by), None) => self.try_carry(b, by, e.time, normal),
            (None, Some(by)) => self.try_carry(a, by, e.time, normal),
            _ => false,
        }
    }

    /// Keeps the static surface a dynamic body of the impact of `e` (with `normal`, from the
    /// smaller slot toward the larger) met, for the body's slide if it is carried (see the
    /// module docs).
    pub(super) fn note_wall(&mut self, e: &Entry, normal: Vector) {
        if e.offset != Vector::zeros() {
            return;
        }
        let (a, b) = (e.a as usize, e.b as usize);
        for (slot, wall, toward) in [(a, b, -normal), (b, a, normal)] {
            let (hot, other) = (&self.s.hot[slot], &self.s.hot[wall]);
            if !hot.dynamic || !other.fixed {
                continue;
            }
            if let (Some(body), Some(pose)) = (
                self.proxies[slot].and_then(|h| self.bodies.get(h)),
                self.pose_at(slot, e.time),
            ) {
                self.s.slides[slot].wall = Some((toward, pose * body.local_center()));
            }
        }
    }

    /// The driven body that moves the body of `slot`: its own slot for a driven body or a
    /// kinematic one (moved at the velocities it is given, whatever it meets), its carrier's
    /// for a carried one (what a carried body pushes, its carrier carries too).
    pub(super) fn carrier(&self, slot: usize) -> Option<usize> {
        let hot = &self.s.hot[slot];
        if self.s.driven[slot] || !(hot.dynamic || hot.fixed) {
            return Some(slot);
        }
        let by = self.s.carried_by[slot];
        (by != NONE).then_some(by as usize)
    }

    /// Whether the body of `slot`, which the driven body of `by` meets at `t` (at `normal`,
    /// if known) and heads into, is free, and now carried: a dynamic body, live, held by no
    /// rigid joint, not driven, carried fewer than [`MAX_CARRIES`] times in the step, its
    /// carrier not stopped. A stopped body is no longer stopped, and its lost time no
    /// longer counted. A body the carrier squeezes into a wedge it cannot leave stops, and
    /// so does the carrier if it is dynamic (then the pair counts as carried).
    pub(super) fn try_carry(
        &mut self,
        slot: usize,
        by: usize,
        t: Real,
        normal: Option<Vector>,
    ) -> bool {
        let free = self.s.hot[slot].dynamic
            && self.is_live(slot)
            && !self.s.requests[slot].removed
            && self.s.jointed.get(slot).is_some_and(Option::is_none)
            && !self.s.driven[slot]
            && !self.s.stopped[by]
            && self.s.carries[slot] < MAX_CARRIES
            && (self.s.carries[slot] > 0 || self.s.carried_count[by] < MAX_CARRIED);
        let Some(handle) = self.proxies[slot].filter(|_| free) else {
            return false;
        };
        if core::mem::take(&mut self.s.stopped[slot])
            && let Some(i) = self.report.stopped.iter().position(|c| c.body == handle)
        {
            let stop = self.report.stopped.remove(i);
            self.report.time_lost -= stop.time_lost;
        }
        if self.s.carries[slot] == 0 {
            self.s.carried_count[by] += 1;
            self.s.carried_list.push(slot as u32);
        }
        self.s.carries[slot] += 1;
        self.s.slides[slot].normal = match (normal, self.pose_at(by, t)) {
            (Some(normal), Some(carrier)) => carrier.rotation.inverse_transform_vector(&normal),
            _ => Vector::zeros(),
        };
        match self.carry(slot, by, t) {
            Carried::Yes => true,
            Carried::Wedged => {
                self.stop(slot, t);
                self.stop(by, t);
                self.report.wedges += 1;
                true
            }
            Carried::No => {
                self.stop(slot, t);
                false
            }
        }
    }

    /// Whether the pair of slots `a` and `b` is one body carried by the other, or two
    /// bodies carried by the same one: it moves as one rigid body, and is not planned.
    #[inline]
    pub(super) fn carried_pair(&self, a: usize, b: usize) -> bool {
        let (by_a, by_b) = (self.s.carried_by[a], self.s.carried_by[b]);
        by_a == b as u32 || by_b == a as u32 || (by_a != NONE && by_a == by_b)
    }

    /// Carries the body of `slot` on the body of `by` from `t` to the end of the step,
    /// sliding it along the carrier's surface off the last static surface it met (see the
    /// module docs).
    fn carry(&mut self, slot: usize, by: usize, t: Real) -> Carried {
        let (Some(at), Some(carrier_at), Some(carrier_end)) = (
            self.pose_at(slot, t),
            self.pose_at(by, t),
            self.pose_at(by, self.dt),
        ) else {
            return Carried::No;
        };
        let (Some(carrier_course), Some((v, w))) =
            (self.s.motions[by], self.velocity_at(by, self.dt))
        else {
            return Carried::No;
        };
        let (Some(carrier), Some(body)) = (
            self.proxies[by].and_then(|h| self.bodies.get(h)),
            self.proxies[slot].and_then(|h| self.bodies.get(h)),
        ) else {
            return Carried::No;
        };
        let end = carrier_end * (carrier_at.inverse() * at);
        let poses = (&at, &carrier_at, &carrier_end, &end);
        let slide = match self.slide(slot, (carrier, body), poses) {
            Some(slide) => slide,
            None if carrier.is_dynamic() && !self.s.unstoppable[by] => return Carried::Wedged,
            // A kinematic carrier, moved whatever it meets, carries a wedged body rigidly,
            // and so does one a motor of unlimited torque drives (the spinner's paddle,
            // whose tip sweeps within 0.2 of its ring and pressed a body lying there flat
            // into it, stalled at the start of every step for seconds on end).
            None => Vector::zeros(),
        };
        let mut end = end;
        end.translation.vector += slide;
        let rest = (self.dt - t).max(Real::MIN_POSITIVE);
        let (from, to) = (at * body.local_center(), end * body.local_center());
        let angvel = carrier_course.1.angvel();
        let Ok(sweep) = Sweep::new(at, body.local_center(), (to - from) / rest, angvel, rest)
        else {
            return Carried::No;
        };
        let r = to - carrier_end * carrier.local_center();
        let end_velocity = (v + Vector::new(-w * r.y, w * r.x) + slide / rest, w);
        self.install_course(slot, (t, sweep), end_velocity, Ramp::still(self.dt), false);
        self.s.carried_by[slot] = by as u32;
        self.s.carrying[by] += 1;
        self.s.carried_any = true;
        self.plan(slot as u32, t, Planning::Alone);
        Carried::Yes
    }

    /// How far the carried body of `slot` slides along the carrier's surface (the carrier
    /// at `carrier_at` now and `carrier_end` at the end of the step) so that its carried end
    /// pose `end` is not past the last static surface it met (zero if it is not, or if
    /// either surface is not known); `None` for a wedge it cannot leave, or a slide too long
    /// for one chord (see the module docs).
    fn slide(
        &self,
        slot: usize,
        (carrier, body): (&RigidBody, &RigidBody),
        (at, carrier_at, carrier_end, end): (&Isometry, &Isometry, &Isometry, &Isometry),
    ) -> Option<Vector> {
        let slide = self.s.slides[slot];
        let Some((wall, met)) = slide.wall else {
            return Some(Vector::zeros());
        };
        // The plane stands for the surface near where the body met it: a body carried
        // away from there (by more than its bounding radius) is not held by it.
        if (at * body.local_center() - met).norm() > self.s.hot[slot].bound {
            return Some(Vector::zeros());
        }
        let short = wall.dot(&(met - end * body.local_center()));
        if short <= 0.0 || slide.normal == Vector::zeros() {
            return Some(Vector::zeros());
        }
        let normal = carrier_end.rotation * slide.normal;
        let along = Vector::new(-normal.y, normal.x) / normal.norm();
        let across = along.dot(&wall);
        // The wedge's faces meet at `asin(|across|)`.
        if across.abs() <= LEAST_WEDGE.sin() {
            return None;
        }
        // The body's course is the chord to its end pose, while the slide it stands for is
        // a straight line in the turning carrier's frame: halfway, the two are about
        // `slide * sin(turn / 4)` apart. A slide that would leave the chord farther from it
        // than half the thinner body's motion scale (about 0.7 of its half width; the
        // impacts' target separation at least) is not taken, and the carrier stalls: on
        // such a chord the body could pass a thin carrier (a body struck on a corner of the
        // static surface, whose plane stands for the corner only near it, asked of a
        // flipper turning 0.7 rad a step for slides longer than the flipper).
        let slide = along * (short / across);
        let turn = (carrier_at.rotation.inverse() * carrier_end.rotation).angle();
        let apart = slide.norm() * (0.25 * turn).abs().sin();
        let thinner = motion_scale(carrier).min(motion_scale(body));
        let allowed = (0.5 * thinner).max(self.settings.toi.target_separation());
        (apart <= allowed).then_some(slide)
    }

    /// Ends the carry of `slot`, if it is carried: its course changes.
    fn end_carry(&mut self, slot: usize) {
        let by = core::mem::replace(&mut self.s.carried_by[slot], NONE);
        if by != NONE {
            self.s.carrying[by as usize] -= 1;
        }
    }

    /// Carries the bodies `by` carries on its course from `t`.
    fn carry_on(&mut self, by: usize, t: Real) {
        // Carrying a body never adds to the list (only `try_carry` does).
        for i in 0..self.s.carried_list.len() {
            let slot = self.s.carried_list[i] as usize;
            if self.s.carried_by[slot] == by as u32
                && !matches!(self.carry(slot, by, t), Carried::Yes)
            {
                self.end_carry(slot);
            }
        }
    }
}
