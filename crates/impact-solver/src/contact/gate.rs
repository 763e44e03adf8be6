//! Which contact points may push: a point's normal impulse rises only while its bodies are
//! within the contact distance of each other, or come within it over the coming substep.
//!
//! The solver measures a point's separation along the normal it was prepared with, between
//! anchors carried by the bodies (see `current_separation`). Under translation that measure
//! is never above the true distance (the distance between two convex shapes is convex in
//! their relative position, and the measure is its tangent at preparation), which is what
//! lets a speculative contact stop any approach it can see. It is also why it cannot be
//! trusted the other way: once the bodies have moved across the normal, it keeps falling
//! while the true distance does not. A disc dropping past a box's corner with a centimetre
//! to spare keeps the corner's diagonal as its normal; the measure along it reaches zero
//! although the disc never comes within a centimetre of the box, and the contact pushed the
//! disc sideways and, through friction, spun it. The same holds for every pair of shapes
//! wherever the closest features change or the normal turns within a step.
//!
//! So before a point's normal impulse may rise, the solver makes sure the contact is real:
//!
//! - *A certificate* (every substep, for every constraint at once, in
//!   `packed::update_separations`): two points, one in each body whatever the motion, no
//!   farther apart than the contact distance (see [`Certificate`]). Resting and slowly
//!   sliding contacts, nearly all of a stack's, stop here, and the constraint is *armed* for
//!   the substep.
//! - *The distance* ([`Gate::allows`]) of the shapes where they are (GJK's: exact for
//!   separated cores, and within the contact distance for cores that overlap).
//! - *The coming substep*, in the biased pass: the time of impact of the shapes moving at
//!   their current velocities over the substep, as the solver will move them. The relax
//!   pass runs after the bodies moved and only takes back the push-out of bodies in
//!   contact: it looks no further than the distance now.
//!
//! A point that passes none of these holds no impulse: bodies whose course never comes
//! within the contact distance of each other get nothing from each other, whatever the
//! shapes, the corner or the stepper. A point that passes keeps the solver's linear
//! measure, which stops the approach where it says the bodies touch.
//!
//! A constraint with a point within the contact distance when it was prepared is a real
//! contact and is never refused: its bodies touched at the start of the step, which is not
//! the case the gate is for, and in a loaded pile the look ahead, taken at velocities that
//! the rest of the sweep then changes, can refuse pushes the pile needs (gated, thin bodies
//! of the tumbling rain pressed into the floor's corners by a pile went through it).

use super::ContactConstraint;
use crate::body_set::BodySet;
use crate::solver::bodies::BodyState;
use impact_geometry::tolerances::{LINEAR_SLOP, TOI_TOLERANCE};
use impact_geometry::{Isometry, Real, Sweep, Vector};
use impact_narrowphase::{GjkCache, Toi, ToiOptions, gjk_distance, time_of_impact};

/// How close (world units) two bodies must be, or come within the substep, for a contact
/// between them to push: the linear slop, the gap a time of impact leaves between shapes.
pub(super) const CONTACT_DISTANCE: Real = LINEAR_SLOP;

/// The linear and angular velocities of a constraint's two bodies, A's first.
pub(super) type PairVelocities = [(Vector, Real); 2];

/// What the gate needs to decide about a point: the constraints, where their bodies are,
/// and their shapes.
pub(super) struct Gate<'a> {
    pub(super) constraints: &'a [ContactConstraint],
    pub(super) states: &'a [BodyState],
    pub(super) bodies: &'a BodySet,
    /// The substep (seconds): how far ahead the biased pass looks.
    pub(super) h: Real,
}

impl<'b> Gate<'b> {
    /// Whether the bodies of constraint `index` may push each other: they are within
    /// [`CONTACT_DISTANCE`] now, or, when `ahead`, moving at `velocities` for one substep
    /// they come within it (or a time of impact cannot tell).
    pub(super) fn allows(&self, index: u32, velocities: PairVelocities, ahead: bool) -> bool {
        let c = &self.constraints[index as usize];
        // Touching at preparation: a real contact, whatever its bodies do in the step.
        if c.points[..c.count]
            .iter()
            .any(|p| p.separation0 <= CONTACT_DISTANCE)
        {
            return true;
        }
        let (sa, sb) = (
            &self.states[c.state_a as usize],
            &self.states[c.state_b as usize],
        );
        let (Some(body_a), Some(body_b)) = (self.bodies.get(sa.handle), self.bodies.get(sb.handle))
        else {
            // Every stage gathers its bodies first, so they are there; refusing nothing is
            // the behaviour without the gate.
            debug_assert!(false, "the solver's bodies are in the set");
            return true;
        };
        let pose_b = Isometry::from_parts(
            (sb.pose.translation.vector + c.offset).into(),
            sb.pose.rotation,
        );
        let shape =
            |body: &'b crate::RigidBody, side: usize| body.shape_or_first(c.shapes[side]).shape();
        let (shape_a, shape_b) = (shape(body_a, 0), shape(body_b, 1));
        // GJK, not the exact signed distance: only whether the shapes are within the
        // contact distance matters, and GJK says so for cores that overlap (its distance is
        // then minus the radii) and measures separated cores exactly to rounding, for a
        // third of the exact distance's cost (which builds the Minkowski difference).
        let near = gjk_distance(
            shape_a,
            &sa.pose,
            shape_b,
            &pose_b,
            &mut GjkCache::default(),
        );
        if near.cores_overlap || near.distance <= CONTACT_DISTANCE {
            return true;
        }
        if !ahead {
            return false;
        }
        let [(va, wa), (vb, wb)] = velocities;
        let (Ok(sweep_a), Ok(sweep_b)) = (
            Sweep::new(sa.pose, sa.local_center, va, wa, self.h),
            Sweep::new(pose_b, sb.local_center, vb, wb, self.h),
        ) else {
            return true;
        };
        // Apart only when the query proves it for the whole substep: an iterative method
        // that ran out of iterations may still have reached its end.
        match time_of_impact(shape_a, &sweep_a, shape_b, &sweep_b, &toi_options()) {
            Toi::Separated => false,
            Toi::NotConverged { safe_fraction } => safe_fraction < 1.0,
            Toi::Hit(_) | Toi::Overlapping => true,
        }
    }
}

/// A hit means the shapes came within [`CONTACT_DISTANCE`]: the target separation plus the
/// tolerance an iterative method may stop short of it by.
fn toi_options() -> ToiOptions {
    ToiOptions::default()
        .with_tolerance(TOI_TOLERANCE)
        .and_then(|o| o.with_target_separation(CONTACT_DISTANCE - TOI_TOLERANCE))
        .expect("the contact distance exceeds the tolerance, both finite constants")
}

/// A way to tell that a point's bodies are within [`CONTACT_DISTANCE`] without measuring:
/// two *witnesses*, a point of each body that stays inside it however the bodies move
/// within the step, no farther apart than `room`. In terms of what the solver tracks every
/// substep (`packed::update_separations`), the gap `g` by which the core anchors moved
/// apart since preparation and the chord `|dq - 1|` each body's rotation moves a unit lever
/// by, the bodies are within the contact distance while
///
/// ```text
/// |g + lead n| + turn_a chord_a + turn_b chord_b <= room
/// ```
///
/// with `n` the prepared normal.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) struct Certificate {
    pub(super) lead: Real,
    pub(super) room: Real,
    pub(super) turn_a: Real,
    pub(super) turn_b: Real,
}

impl Certificate {
    /// The certificate of a manifold point of separation `s0` between shapes of radii
    /// `(r_a, r_b)`, each a segment or not (`thin`).
    ///
    /// The witnesses are the core anchors whenever the surfaces are less than the contact
    /// distance past touching by more than the radii can hold (`s0 >= -2 (r_a + r_b) - d`):
    /// the ball of its shape's radius about a core point stays in the body however it
    /// turns, so the bodies are within the contact distance while the anchors are within
    /// the radii plus that distance, and they start `s0` plus the radii apart along `n`.
    ///
    /// Deeper, as the bottom of a tall pile of boxes sinks, that leaves no room: the
    /// witnesses are then one point of both bodies, carried by each. The surface point of
    /// one body lies in the other then (the manifold measured the overlap there): A's,
    /// unless B is a segment, which has no inside to hold it, then B's. Carried by A, A's
    /// surface point keeps its distance `r_a` from A's core anchor along the normal turned
    /// with A; carried by B, its distance `s0 + r_b` from B's; each turn moves it by that
    /// distance times the chord. Between two segments there is no such point, and the core
    /// anchors stay the witnesses.
    pub(super) fn new(s0: Real, (ra, rb): (Real, Real), (thin_a, thin_b): (bool, bool)) -> Self {
        let radii = ra + rb;
        if s0 >= -2.0 * radii - CONTACT_DISTANCE || (thin_a && thin_b) {
            return Self {
                lead: s0 + radii,
                room: radii + CONTACT_DISTANCE,
                turn_a: 0.0,
                turn_b: 0.0,
            };
        }
        let (turn_a, turn_b) = if thin_b {
            ((s0 + ra).abs(), rb)
        } else {
            (ra, (s0 + rb).abs())
        };
        Self {
            lead: 0.0,
            room: CONTACT_DISTANCE,
            turn_a,
            turn_b,
        }
    }
}
