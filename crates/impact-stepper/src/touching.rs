//! Pairs that touch at the start of a step and close fast: impacts, not resting contact.
//!
//! A pair within the contact distance at the start of a step goes to the contact solver,
//! which is right for resting and slow contacts. But a pair that touches and closes faster
//! than a bounce's threshold is an impact: a ball stopped at the target separation from the
//! floor in the last step, a line of touching discs struck at one end, an impact that fell on
//! the boundary of two steps. The soft solver handles it badly: it lets the bodies sink in
//! (a disc arriving at 783 units/s sank 3 units in a step), and its restitution acts on every
//! point of the step at once, so a struck line of discs sprays (three equal discs, the first
//! at 2: `(-0.667, 1.333, 1.333)` where the sequence of binary collisions gives `(0, 0, 2)`).
//!
//! Both CCD steppers resolve such pairs first, with the single-impact resolver, as a
//! sequence of binary collisions at the start of the step: the first pair in the order of
//! the step's contacts (by slots) that closes fast, then again the first that does, until
//! none does. The pairs then stay with the contact solver, which sees them touching and no
//! longer closing.

use crate::domain::translated;
use crate::events::{CollisionEvent, EventKind};
use crate::motion::shapes_material;
use core::cmp::Reverse;
use impact_geometry::{Point, Real, Vector};
use impact_solver::{
    BodySet, ContactPair, ImpactSettings, Impulse, RigidBody, resolve_impact_with,
};
use std::collections::BinaryHeap;

/// Closing speeds below this fraction of the pair's speeds are rounding, not impacts: a line
/// of touching bodies that collapses inelastically closes by half at each round of its
/// sequence, and is done when what is left is rounding.
const ROUNDING: Real = 1e-12;

/// How fast a touching pair must close to be an impact (world units per second), for a pair
/// of two dynamic bodies (`.0`) and for a dynamic body against a static or kinematic one
/// (`.1`): faster than the restitution threshold (slower impacts are inelastic, as the
/// solver's contacts are), and against a fixed body also than `tolerance` per step of `dt`
/// and twice the speed `gravity` (its length) gives in a step: a body resting on the ground
/// closes on it by at most one step of gravity, which is resting contact. Between two
/// dynamic bodies (a line of touching discs) every closing speed above the threshold and
/// rounding counts, so that a sequence of collisions ends where the exact one does.
pub(crate) fn impact_speeds(
    restitution_threshold: Real,
    tolerance: Real,
    gravity: Real,
    dt: Real,
) -> (Real, Real) {
    let against_fixed = restitution_threshold
        .max(tolerance / dt)
        .max(2.0 * gravity * dt);
    (restitution_threshold, against_fixed)
}

/// Whether the pair of `a` and `b`, closing at `closing` with their centres of mass moving
/// at `speed` together, closes fast enough to be an impact (see [`impact_speeds`]).
fn is_impact(a: &RigidBody, b: &RigidBody, closing: Real, speeds: (Real, Real)) -> bool {
    let floor = if a.is_dynamic() && b.is_dynamic() {
        speeds.0
    } else {
        speeds.1
    };
    let scale = a.linvel().norm() + b.linvel().norm();
    closing > floor && closing > ROUNDING * scale
}

/// Where the bodies of `c` close fastest along its normal, at their current velocities, and
/// how fast (positive when closing): the middle of its two points when both close (a box
/// landing flat rebounds without spin), else the point that closes faster. The point is in
/// `a`'s frame; `b` is met at its image `c.offset` away.
fn closing_point(a: &RigidBody, b: &RigidBody, c: &ContactPair) -> Option<(Point, Real)> {
    let closing = |p: &Point| {
        -(b.velocity_at_point(&(p - c.offset)) - a.velocity_at_point(p)).dot(&c.manifold.normal)
    };
    match c.manifold.points() {
        [p] => Some((p.point, closing(&p.point))),
        [p, q] => {
            let (sp, sq) = (closing(&p.point), closing(&q.point));
            if sp > 0.0 && sq > 0.0 {
                let middle = impact_geometry::nalgebra::center(&p.point, &q.point);
                Some((middle, closing(&middle)))
            } else if sp >= sq {
                Some((p.point, sp))
            } else {
                Some((q.point, sq))
            }
        }
        _ => None,
    }
}

/// Whether a touching pair of `a` and `b` may be resolved as an impact at the start of a
/// step of `dt` seconds: one of the bodies is a dynamic CCD body, and neither turns any point
/// of its shape farther than `contact_distance` over the step at its start velocity (a disc
/// about its centre never does). The manifold point where a pair closes at the start is
/// where it meets only if neither swings: a body that does meets the other with its far
/// side, somewhere the start does not tell, and its pairs are followed along their courses
/// instead (see [`swings`](crate::swing::swings)).
pub(crate) fn may_resolve(a: &RigidBody, b: &RigidBody, dt: Real, contact_distance: Real) -> bool {
    let swings = |body: &RigidBody| {
        let round = body.has_one_shape()
            && matches!(body.shape(), impact_geometry::Shape::Circle(c)
            if c.center() == impact_geometry::Point::origin()
                && body.local_center() == impact_geometry::Point::origin());
        !round
            && (body.angvel() * dt).abs() * body.bounding_radius(&body.local_center())
                > contact_distance
    };
    (a.is_dynamic() && a.ccd() || b.is_dynamic() && b.ccd()) && !swings(a) && !swings(b)
}

/// What [`resolve_closing`] needs of the step.
pub(crate) struct Closing<'a> {
    /// The step's contacts, sorted by slots (as the world builds them).
    pub contacts: &'a [ContactPair],
    /// Pairs farther apart than this at the start are not touching (world units).
    pub reach: Real,
    /// See [`impact_speeds`].
    pub speeds: (Real, Real),
    /// The resolver's settings.
    pub settings: ImpactSettings,
    /// Most impacts in all; what is left is the solver's.
    pub most: usize,
    /// Most impacts of one pair: an inelastic line of touching bodies collapses in an
    /// endless sequence (each round closes by a fraction of the last), which the contact
    /// solver then holds, as the event loop hands it a Zeno pair.
    pub most_per_pair: u32,
}

/// The buffers of [`resolve_closing`], kept from step to step.
#[derive(Debug, Clone, Default)]
pub(crate) struct ClosingScratch {
    /// Indices into the contacts of the touching pairs.
    candidates: Vec<u32>,
    /// Per body slot, and one past the last: where its candidates start in `incident`.
    first: Vec<u32>,
    /// The candidates of each slot, grouped by slot: the pairs that share a body with a pair
    /// just resolved.
    incident: Vec<u32>,
    heap: BinaryHeap<Reverse<u32>>,
    queued: Vec<bool>,
    /// Impacts so far of each candidate.
    impacts: Vec<u32>,
}

/// Resolves the touching pairs of `step.contacts` that close fast (see the module docs) and
/// pass `eligible`, and calls `resolved` with each impulse and its pair, in the order they
/// were resolved; both see `state`. Returns how many were.
///
/// Most steps have no such pair, and pay one look at each touching pair: the lists of the
/// pairs each body is in are only made once one closes.
pub(crate) fn resolve_closing<S>(
    bodies: &mut BodySet,
    step: &Closing<'_>,
    scratch: &mut ClosingScratch,
    state: &mut S,
    eligible: impl Fn(&BodySet, &ContactPair, &S) -> bool,
    mut resolved: impl FnMut(&mut BodySet, &ContactPair, Impulse, &mut S),
) -> usize {
    let ClosingScratch {
        candidates,
        first,
        incident,
        heap,
        queued,
        impacts,
    } = scratch;
    candidates.clear();
    heap.clear();
    let closes = |bodies: &BodySet, state: &S, c: &ContactPair| -> Option<Point> {
        let (a, b) = (bodies.get(c.a)?, bodies.get(c.b)?);
        let (point, closing) = closing_point(a, b, c)?;
        (is_impact(a, b, closing, step.speeds) && eligible(bodies, c, state)).then_some(point)
    };
    for (i, c) in step.contacts.iter().enumerate() {
        if c.manifold.min_separation() <= step.reach {
            if closes(bodies, state, c).is_some() {
                heap.push(Reverse(candidates.len() as u32));
            }
            candidates.push(i as u32);
        }
    }
    if heap.is_empty() {
        return 0;
    }
    // The candidates of each slot, by counting: `first[s]` ends up where slot `s`'s start.
    let slots = step
        .contacts
        .iter()
        .map(|c| c.a.index.max(c.b.index) as usize + 1)
        .max()
        .unwrap_or(0);
    first.clear();
    first.resize(slots + 1, 0);
    for &i in candidates.iter() {
        let c = &step.contacts[i as usize];
        first[c.a.index as usize + 1] += 1;
        first[c.b.index as usize + 1] += 1;
    }
    for s in 1..first.len() {
        first[s] += first[s - 1];
    }
    incident.clear();
    incident.resize(2 * candidates.len(), 0);
    for (k, &i) in candidates.iter().enumerate() {
        let c = &step.contacts[i as usize];
        for slot in [c.a.index as usize, c.b.index as usize] {
            incident[first[slot] as usize] = k as u32;
            first[slot] += 1;
        }
    }
    // Each start now holds the next slot's: shifted back by one place.
    first.rotate_right(1);
    first[0] = 0;
    queued.clear();
    queued.resize(candidates.len(), false);
    for Reverse(k) in heap.iter() {
        queued[*k as usize] = true;
    }
    impacts.clear();
    impacts.resize(candidates.len(), 0);
    let mut count = 0;
    while let Some(Reverse(k)) = heap.pop() {
        queued[k as usize] = false;
        if count >= step.most {
            break;
        }
        let c = &step.contacts[candidates[k as usize] as usize];
        if impacts[k as usize] >= step.most_per_pair {
            continue;
        }
        let Some(point) = closes(bodies, state, c) else {
            continue;
        };
        impacts[k as usize] += 1;
        let Some(impulse) = resolve_at_image(bodies, c, point, &step.settings) else {
            continue;
        };
        count += 1;
        resolved(bodies, c, impulse, state);
        // The pairs that share a body with this one may close now (the next disc of a
        // line); the first of them in order goes next.
        for slot in [c.a.index as usize, c.b.index as usize] {
            for &j in &incident[first[slot] as usize..first[slot + 1] as usize] {
                let other = &step.contacts[candidates[j as usize] as usize];
                if !queued[j as usize] && closes(bodies, state, other).is_some() {
                    heap.push(Reverse(j));
                    queued[j as usize] = true;
                }
            }
        }
    }
    count
}

/// The event of an impact at the start of a step at `time` (seconds).
pub(crate) fn start_event(c: &ContactPair, impulse: Impulse, time: Real) -> CollisionEvent {
    CollisionEvent {
        time,
        fraction: 0.0,
        a: c.a,
        b: c.b,
        shapes: c.shapes,
        kind: EventKind::Impact,
        impulse,
    }
}

/// [`resolve_impact_with`] for the pair of `c` at `point` (in `a`'s frame), with its
/// material, with `b` at the image
/// it is met through for the lever arms, and back where it was afterwards. `None` if the
/// resolver refused (it does not for a pair of live bodies and a manifold's unit normal).
fn resolve_at_image(
    bodies: &mut BodySet,
    c: &ContactPair,
    point: Point,
    settings: &ImpactSettings,
) -> Option<Impulse> {
    let shifted = c.offset != Vector::zeros();
    let home = *bodies.get(c.b)?.pose();
    if shifted {
        bodies
            .get_mut(c.b)?
            .set_pose(translated(&home, &c.offset))
            .ok()?;
    }
    let impulse = resolve_impact_with(
        bodies,
        c.a,
        c.b,
        point,
        c.manifold.normal,
        c.material
            .or_else(|| shapes_material(bodies, (c.a, c.b), c.shapes))
            .as_ref(),
        settings,
    )
    .ok();
    if shifted {
        bodies.get_mut(c.b)?.set_pose(home).ok()?;
    }
    impulse
}
