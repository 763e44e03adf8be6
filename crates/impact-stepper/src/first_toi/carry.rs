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
//! them still). A body is carried at most [`MAX_CARRIES`] times in a step; past that, or
//! for a body that cannot be carried (one a rigid joint holds, a driven one), the body
//! stops and the driven body goes on into it, as the peers' soft contacts let it (a body
//! squeezed against a wall is a rigid wedge that would stall the motor whatever its
//! torque; stalled, the spinner's paddle stopped at every body it pushed along its ring).

use super::plan::Planning;
use super::state::Run;
use crate::ramp::Ramp;
use impact_geometry::{Real, Sweep, Vector};

/// The most times one body is carried in a step: a body the pusher squeezes against a wall
/// is struck free of the carry by the wall and met by the pusher again, once per carry,
/// and in a pile a carried body struck free by its neighbours is carried again.
pub(super) const MAX_CARRIES: u8 = 16;

/// No carrier.
const NONE: u32 = u32::MAX;

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
    pub(super) fn carries(&mut self, a: usize, b: usize, t: Real) -> bool {
        match (self.carrier(a), self.carrier(b)) {
            (Some(by), None) => self.try_carry(b, by, t),
            (None, Some(by)) => self.try_carry(a, by, t),
            _ => false,
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

    /// Whether the body of `slot`, which the driven body of `by` meets at `t` and heads
    /// into, is free, and now carried: a dynamic body, live, held by no rigid joint, not
    /// driven, carried fewer than [`MAX_CARRIES`] times in the step, its carrier not
    /// stopped. A stopped body is no longer stopped, and its lost time no longer counted.
    pub(super) fn try_carry(&mut self, slot: usize, by: usize, t: Real) -> bool {
        let free = self.s.hot[slot].dynamic
            && self.is_live(slot)
            && !self.s.requests[slot].removed
            && self.s.jointed.get(slot).is_some_and(Option::is_none)
            && !self.s.driven[slot]
            && !self.s.stopped[by]
            && self.s.carries[slot] < MAX_CARRIES;
        let Some(handle) = self.proxies[slot].filter(|_| free) else {
            return false;
        };
        if core::mem::take(&mut self.s.stopped[slot])
            && let Some(i) = self.report.stopped.iter().position(|c| c.body == handle)
        {
            let stop = self.report.stopped.remove(i);
            self.report.time_lost -= stop.time_lost;
        }
        self.s.carries[slot] += 1;
        if self.carry(slot, by, t) {
            return true;
        }
        self.stop(slot, t);
        false
    }

    /// Whether the pair of slots `a` and `b` is one body carried by the other, or two
    /// bodies carried by the same one: it moves as one rigid body, and is not planned.
    #[inline]
    pub(super) fn carried_pair(&self, a: usize, b: usize) -> bool {
        let (by_a, by_b) = (self.s.carried_by[a], self.s.carried_by[b]);
        by_a == b as u32 || by_b == a as u32 || (by_a != NONE && by_a == by_b)
    }

    /// Carries the body of `slot` on the body of `by` from `t` to the end of the step.
    fn carry(&mut self, slot: usize, by: usize, t: Real) -> bool {
        let (Some(at), Some(carrier_at), Some(carrier_end)) = (
            self.pose_at(slot, t),
            self.pose_at(by, t),
            self.pose_at(by, self.dt),
        ) else {
            return false;
        };
        let (Some(carrier_course), Some((v, w))) =
            (self.s.motions[by], self.velocity_at(by, self.dt))
        else {
            return false;
        };
        let (Some(carrier), Some(body)) = (
            self.proxies[by].and_then(|h| self.bodies.get(h)),
            self.proxies[slot].and_then(|h| self.bodies.get(h)),
        ) else {
            return false;
        };
        let end = carrier_end * (carrier_at.inverse() * at);
        let rest = (self.dt - t).max(Real::MIN_POSITIVE);
        let (from, to) = (at * body.local_center(), end * body.local_center());
        let angvel = carrier_course.1.angvel();
        let Ok(sweep) = Sweep::new(at, body.local_center(), (to - from) / rest, angvel, rest)
        else {
            return false;
        };
        let r = to - carrier_end * carrier.local_center();
        let end_velocity = (v + Vector::new(-w * r.y, w * r.x), w);
        self.install_course(slot, (t, sweep), end_velocity, Ramp::still(self.dt), false);
        self.s.carried_by[slot] = by as u32;
        self.s.carrying[by] += 1;
        self.plan(slot as u32, t, Planning::Alone);
        true
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
        let carried: Vec<usize> = (0..self.s.carried_by.len())
            .filter(|&slot| self.s.carried_by[slot] == by as u32)
            .collect();
        for slot in carried {
            if !self.carry(slot, by, t) {
                self.end_carry(slot);
            }
        }
    }
}
