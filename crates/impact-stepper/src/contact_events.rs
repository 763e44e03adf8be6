//! Contact events: when the pairs of the contact solver begin and end touching, and the
//! force a pair carries over a step ([`ContactEvents`], [`World::contact_events`]).
//!
//! A pair *touches* when a point of its contact manifold is within the linear slop
//! ([`LINEAR_SLOP`]) of the other shape, judged on the manifolds the world builds at the
//! start of each step (those the stepper is given: a contact the filters or the pre-solve
//! hook leave out does not touch). The world keeps the touching pairs of the last step,
//! sorted, and compares them with the step's by one merge of two sorted lists, so tracking
//! every contact costs a pass over the step's manifolds. The forces come from the contact
//! solver's whole normal impulse of the step per pair plus the impulses of the step's
//! impacts, counted only while a body has a contact force threshold.
//!
//! [`World::contact_events`]: crate::World::contact_events

use crate::events::CollisionEvent;
use crate::step_log::PairImpulse;
use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{Real, Vector};
use impact_narrowphase::Manifold;
use impact_solver::{BodyHandle, BodySet, ContactPair, ShapeId};

/// Two shapes began touching: a point of their contact manifold came within the linear
/// slop ([`LINEAR_SLOP`]).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactBeginEvent {
    /// The first shape (its body has the smaller slot).
    pub a: ShapeId,
    /// The second shape.
    pub b: ShapeId,
    /// When (seconds, absolute): the start of the step whose manifolds found the pair
    /// touching (the poses the previous step ended at).
    pub time: Real,
    /// The manifold that touched: its points (world, midway between the surfaces) with
    /// their separations, and the unit normal from `a` toward `b`.
    pub manifold: Manifold,
}

/// Two shapes stopped touching: their contact has no point within the linear slop any
/// more, the filters or a hook keep them apart, or one of their bodies was removed.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactEndEvent {
    /// The first shape (its body has the smaller slot; its handle is stale if the body
    /// was removed).
    pub a: ShapeId,
    /// The second shape.
    pub b: ShapeId,
    /// When (seconds, absolute): the start of the step whose manifolds no longer touch; for
    /// a body removed between steps, the time of its removal; for a body the impact hook
    /// removed, the end of the step that removed it.
    pub time: Real,
}

/// The normal force a pair of shapes carried over a step, above the smaller contact force
/// threshold of the two ([`RigidBody::contact_force_threshold`]).
///
/// [`RigidBody::contact_force_threshold`]: impact_solver::RigidBody::contact_force_threshold
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactForceEvent {
    /// The first shape (its body has the smaller slot).
    pub a: ShapeId,
    /// The second shape.
    pub b: ShapeId,
    /// The start of the step (seconds, absolute).
    pub time: Real,
    /// The step's whole normal impulse between the two over the step's length (newtons for
    /// kilograms, metres and seconds): every substep's impulse of the contact solver, the
    /// bounce included, and the impulse of every impact of the pair in the step. A body
    /// resting on the ground by one contact reports its weight, `m g`.
    pub force: Real,
    /// The unit normal from `a` toward `b` of the largest of those impulses.
    pub normal: Vector,
}

/// The contact events of one step ([`World::contact_events`](crate::World::contact_events)):
/// begin and end touching, in pair order, and the forces above a threshold, in pair order.
/// The impacts a CCD stepper resolves inside the step are hit events of their own, in
/// [`World::events`](crate::World::events).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ContactEvents {
    pub(crate) begin: Vec<ContactBeginEvent>,
    pub(crate) end: Vec<ContactEndEvent>,
    pub(crate) force: Vec<ContactForceEvent>,
}

impl ContactEvents {
    /// The pairs that began touching.
    #[inline]
    pub fn begin(&self) -> &[ContactBeginEvent] {
        &self.begin
    }

    /// The pairs that stopped touching.
    #[inline]
    pub fn end(&self) -> &[ContactEndEvent] {
        &self.end
    }

    /// The pairs whose force passed the threshold.
    #[inline]
    pub fn force(&self) -> &[ContactForceEvent] {
        &self.force
    }

    /// Whether there is no event at all.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.begin.is_empty() && self.end.is_empty() && self.force.is_empty()
    }

    pub(crate) fn clear(&mut self) {
        self.begin.clear();
        self.end.clear();
        self.force.clear();
    }
}

/// Whether `manifold` touches: a point within the linear slop.
#[inline]
pub(crate) fn touches(manifold: &Manifold) -> bool {
    manifold
        .points()
        .iter()
        .any(|p| p.separation <= LINEAR_SLOP)
}

/// The begin and end events, at `time`, of the step's touching pairs, `touched` (in pair
/// order, as the world notes them; `at` their indices in `contacts`), against `previous`
/// (the last step's, sorted), into `events`.
///
/// A resting scene touches by the same pairs step after step: one comparison of the two
/// lists says so. Otherwise one merge of the two lists, sorted by [`touch_key`], compared
/// by slots and shape indices: every pair of `previous` names live bodies (a removal ends
/// its pairs at once), so a slot names one body in both lists.
/// The order of touching pairs: by slot and shape index of each side (not by generation,
/// which only tells apart bodies that never coexist in the lists).
#[inline]
pub(crate) fn touch_key((a, b): (ShapeId, ShapeId)) -> (u32, u32, u32, u32) {
    (a.body.index, a.index, b.body.index, b.index)
}

pub(crate) fn touch_events(
    previous: &[(ShapeId, ShapeId)],
    (touched, at, contacts): (&[(ShapeId, ShapeId)], &[u32], &[ContactPair]),
    time: Real,
    events: &mut ContactEvents,
) {
    if previous == touched {
        return;
    }
    let end = |(a, b): (ShapeId, ShapeId)| ContactEndEvent { a, b, time };
    let mut i = 0;
    for (&(a, b), &index) in touched.iter().zip(at) {
        let now = touch_key((a, b));
        // Pairs of the last step before this one stopped touching.
        while let Some(&(x, y)) = previous.get(i)
            && touch_key((x, y)) < now
        {
            events.end.push(end((x, y)));
            i += 1;
        }
        if previous.get(i) == Some(&(a, b)) {
            i += 1;
            continue;
        }
        if let Some(&(x, y)) = previous.get(i)
            && touch_key((x, y)) == now
        {
            // The same slots, other bodies (unreachable while removals end their pairs):
            // the old pair ended.
            events.end.push(end((x, y)));
            i += 1;
        }
        events.begin.push(ContactBeginEvent {
            a,
            b,
            time,
            manifold: contacts[index as usize].manifold,
        });
    }
    events
        .end
        .extend(previous[i..].iter().map(|&gone| end(gone)));
}

/// The force events of a step of `dt` seconds starting at `time`: the solver's impulses
/// recorded in `impulses` plus those of `collisions`, summed per pair, over `dt`, for the
/// pairs whose force is above the smaller threshold of their bodies in `bodies`. Leaves
/// `impulses` sorted by pair.
pub(crate) fn force_events(
    impulses: &mut Vec<PairImpulse>,
    collisions: &[CollisionEvent],
    (bodies, dt, time): (&BodySet, Real, Real),
    events: &mut ContactEvents,
) {
    impulses.extend(collisions.iter().map(|e| PairImpulse {
        a: e.a,
        b: e.b,
        impulse: e.impulse.normal,
        normal: e.impulse.normal_direction,
    }));
    // Stable: the parts of a pair are summed in the order recorded, so the same step gives
    // the same bits.
    impulses.sort_by_key(|p| (p.a, p.b));
    for pair in impulses.chunk_by(|x, y| (x.a, x.b) == (y.a, y.b)) {
        let (a, b) = (pair[0].a, pair[0].b);
        let threshold = |h: BodyHandle| {
            bodies
                .get(h)
                .and_then(|body| body.contact_force_threshold())
        };
        let Some(threshold) = [threshold(a), threshold(b)]
            .into_iter()
            .flatten()
            .reduce(Real::min)
        else {
            continue;
        };
        let total: Real = pair.iter().map(|p| p.impulse).sum();
        let force = total / dt;
        if force > threshold {
            let largest = pair
                .iter()
                .fold(&pair[0], |m, p| if p.impulse > m.impulse { p } else { m });
            events.force.push(ContactForceEvent {
                a: ShapeId::first_of(a),
                b: ShapeId::first_of(b),
                time,
                force,
                normal: largest.normal,
            });
        }
    }
}
