//! [`MotionClamping`]: the discrete step, then every fast CCD body stopped at its first time
//! of impact (seed 002, DigitalRune's motion clamping).

use crate::domain::translated_sweep;
use crate::error::{WorldError, finite};
use crate::grid::ReachGrid;
use crate::motion::{
    fast_ccd_body, held_contact, held_normal, is_finite, move_pair_as_one, moves_past_threshold,
    pushed_through, rebuilt_sweep, turned_round,
};
use crate::ramp::Ramp;
pub use crate::report::{ClampReport, ClampedBody};
use crate::stepper::{StepContext, Stepper, solve_contacts};
use crate::sweep_pairs::SweepPairs;
use crate::swing::{anchored, swinging_deepening, swings, unit_normal};
use crate::touching::{self, Closing, ClosingScratch};
use impact_broadphase::Broadphase;
use impact_geometry::{Aabb, Isometry, Point, Real, Shape, Sweep, Vector};
use impact_narrowphase::{Toi, ToiOptions, distance, time_of_impact};
use impact_solver::{BodyHandle, ContactPair, ImpactSettings, RigidBody};

/// The settings of [`MotionClamping`], validated by [`MotionClampingSettings::validate`]
/// (and by [`MotionClamping::new`], [`MotionClamping::set_settings`] and deserialization).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "MotionClampingSettingsDef",
        into = "MotionClampingSettingsDef"
    )
)]
pub struct MotionClampingSettings {
    /// How far a CCD body must move over one step, in bounding radii, before its motion is
    /// checked (dimensionless, finite, zero or more; default `0.5`). A body's motion over the
    /// step is the distance its centre of mass covers plus the arc its rim covers
    /// (`|dc| + |dtheta| r`, with `r` its [`bounding radius`] about the centre of mass); it
    /// is checked when that exceeds `velocity_threshold * r`. A body that moves less than
    /// its own size per step cannot pass through anything thicker than zero without its
    /// contacts seeing it first; `0` checks every moving CCD body.
    ///
    /// [`bounding radius`]: impact_geometry::Shape::bounding_radius
    pub velocity_threshold: Real,
    /// The options of every time-of-impact query (default [`ToiOptions::default`]: bodies
    /// stop at the target separation, so the next step's contacts see them).
    pub toi: ToiOptions,
}

impl Default for MotionClampingSettings {
    fn default() -> Self {
        Self {
            velocity_threshold: 0.5,
            toi: ToiOptions::default(),
        }
    }
}

impl MotionClampingSettings {
    /// Checks every field ([`ToiOptions`] is valid by construction).
    ///
    /// # Errors
    /// [`WorldError::NotFinite`] or [`WorldError::Negative`] naming
    /// `motion_clamping.velocity_threshold`.
    pub fn validate(&self) -> Result<(), WorldError> {
        crate::error::non_negative(
            "motion_clamping.velocity_threshold",
            self.velocity_threshold,
        )?;
        Ok(())
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct MotionClampingSettingsDef {
    velocity_threshold: Real,
    toi: ToiOptions,
}

#[cfg(feature = "serde")]
impl TryFrom<MotionClampingSettingsDef> for MotionClampingSettings {
    type Error = WorldError;
    fn try_from(d: MotionClampingSettingsDef) -> Result<Self, WorldError> {
        let s = Self {
            velocity_threshold: d.velocity_threshold,
            toi: d.toi,
        };
        s.validate()?;
        Ok(s)
    }
}

#[cfg(feature = "serde")]
impl From<MotionClampingSettings> for MotionClampingSettingsDef {
    fn from(s: MotionClampingSettings) -> Self {
        Self {
            velocity_threshold: s.velocity_threshold,
            toi: s.toi,
        }
    }
}

/// Per body slot: the start pose, and the motion over the step once the targets are known;
/// the neighbour search over the motions' boxes. Kept from step to step for its storage.
#[derive(Debug, Clone, Default)]
struct Scratch {
    start: Vec<Option<Isometry>>,
    /// Per slot: the body's velocities at the start of the step (after the impacts of
    /// touching pairs), for the pairs that move as one (see the pushed-through net).
    start_velocity: Vec<(Vector, Real)>,
    /// Per slot: the body is in a contact the solver held (not in free flight).
    constrained: Vec<bool>,
    /// The buffers of the impacts of touching pairs at the start of the step.
    closing: ClosingScratch,
    sweeps: Vec<Option<Sweep>>,
    /// Per slot: the box of the body's motion over the step, padded for a checked body.
    boxes: Vec<Option<Aabb>>,
    /// Per slot: the body's handle, and whether its motion is checked.
    handles: Vec<Option<BodyHandle>>,
    checked: Vec<bool>,
    /// Per slot: whether the body was fast at the start of the step.
    fast: Vec<bool>,
    /// The step's contacts that go to the contact solver, sorted as the world's.
    solver_contacts: Vec<ContactPair>,
    /// Per slot: the earliest safe fraction found for a checked body.
    earliest: Vec<Real>,
    /// The pair search in a periodic domain...
    grid: ReachGrid,
    /// ...and outside one.
    sweep: SweepPairs,
    /// The grid's buffer.
    found: Vec<(u32, Vector)>,
    /// `(checked slot, other slot, translation of the other's image)` for every pair of
    /// boxes that meet with a checked body in it.
    candidates: Vec<(u32, u32, Vector)>,
    clamps: Vec<(BodyHandle, Real)>,
}

/// Motion clamping (seed 002, DigitalRune Physics): the discrete step, then every fast
/// CCD body stopped at its earliest time of impact.
///
/// # One step
/// 0. Touching pairs with a dynamic CCD body that close faster than the restitution
///    threshold are impacts, resolved first with the single-impact resolver, one pair after
///    the other (see `docs/algorithms/steppers.md`, "The rules every step keeps"); each is a
///    [`CollisionEvent`](crate::CollisionEvent) at fraction 0 ([`ClampReport::start_impacts`]).
///    A ball clamped at the ground in one step bounces at the start of the next.
/// 1. The start pose of every body is kept, then the contact solver's step of
///    [`Discrete`](crate::Discrete) runs (gravity, the soft step, positions), with one
///    difference: a *fast* body (a dynamic CCD body whose start velocities and gravity move
///    it past [`MotionClampingSettings::velocity_threshold`] over the step) does not get
///    speculative contacts with static and kinematic bodies, only contacts within the target
///    separation plus the tolerance of them at the start. The world gives the broadphase
///    such a body's box at its start pose, padded by the world's speculative pad (or that
///    distance, if larger), instead of its swept box ([`Stepper::contact_reach`]). The clamp below covers the rest of its motion against
///    every body, exactly for static ones, so the solver needs no speculative contact to
///    stop it; speculative contacts with other dynamic bodies, which the clamp covers only
///    along their unclamped targets, are kept wherever the broadphase finds them. The poses
///    the step reaches are *targets*.
/// 2. Each body's motion over the step is rebuilt from its start pose and its target as a
///    constant-velocity [`Sweep`]: linear velocity `(c1 - c0) / dt` of the centre of mass,
///    angular velocity `dtheta / dt`. The solver's substeps make the real path piecewise, so
///    neither the start nor the end velocity describes it; only the two poses are certain,
///    and the straight sweep between them is the motion the body is actually credited with.
///    The angle change is the one of `(-pi, pi]` from the two rotations, moved by whole turns
///    to the one nearest the end angular velocity times `dt`, so a body spinning more than
///    half a turn per step keeps its turns.
/// 3. For each fast body, and each dynamic body with [`RigidBody::ccd`](impact_solver::RigidBody::ccd)
///    set whose rebuilt motion exceeds [`MotionClampingSettings::velocity_threshold`] (relative
///    to its size), the candidates
///    are every body whose motion's box over the step ([`Aabb::swept`] of its rebuilt sweep) meets
///    the checked body's (padded by the target separation and the tolerance), found for all checked
///    bodies at once by a sort and sweep over those boxes (in a periodic domain, by the
///    spatial hash [`FirstTimeOfImpact`](crate::FirstTimeOfImpact) searches with, whose
///    wrapped cells find the images). The time of impact is computed
///    against each candidate, static or moving, along that candidate's own rebuilt sweep. Pairs
///    that overlap at the start ([`Toi::Overlapping`]) are the contact solver's business and are
///    skipped, unless a body of the pair swings (its sweep turns some point of its shape farther
///    than the contact distance, which the solver's manifold, taken at the start poses, does not
///    bound): the pair is then followed along the sweeps, and the body's fraction is where the
///    overlap deepens along the contact normal by the tolerance (a stick on a segment, struck at
///    one end, swings the other through). So are pairs already within the target separation at the start (a hit at fraction 0)
///    for which the step had a contact manifold *and* whose targets are still apart on the same
///    side (signed distance at least `-tolerance`, normal within 90 degrees of the hit's): the
///    solver held that contact over the step. If the solver had the manifold and the targets
///    closed in anyway, the body clamps at 0 and the pair leaves moving as one (below). Any
///    other zero-fraction hit clamps at 0. Overlap is
///    not tolerated there because an overlapping pair is handed to the soft contact solver, which
///    measurably pushes thin walls through (3% of bullets with a one-radius allowance). Without
///    this, a fast body sliding along a wall would be clamped at 0 and frozen every step; with the
///    side check, a body the soft solver let through is still stopped (at fraction 0). The earliest
///    [`Toi::safe_fraction`] wins.
/// 4. Every body with a fraction below 1 is placed at that fraction of its sweep, which is at
///    the target separation from what it hits, so the next step's contacts see it. A body in
///    free flight gets the velocity it has there (its end velocity less the gravity of the
///    time it lost, the component along gravity taken from energy at the chord's height, so
///    a clamp neither gains nor loses energy); a body the solver held keeps the solver's (but
///    for the two pairs that move as one, below). The time it lost, `(1 - fraction) dt`, is
///    reported.
///
/// All sweeps are computed from the targets before any body is moved, so the result does
/// not depend on the order bodies are visited (a body's fraction is the least over its
/// candidates), and the report lists bodies sorted by handle.
///
/// # Guarantees and limits
/// - A checked body never passes through a static body during the step: its whole motion
///   is covered by the time of impact, which never reports a time later than the first
///   contact. This holds for zero-thickness segments too.
/// - Time is lost, never hidden: a clamped body ends the step short of where its velocity
///   took it, and the report says by how much.
/// - Dynamic versus dynamic is only as good as the targets: the other body's motion is its
///   own unclamped target motion (found by the box of that motion, so a body the solver
///   deflects is still a candidate), not the motion it ends up with if it is clamped too.
///   `FirstTimeOfImpact` is the mode for fast bodies meeting each other.
/// - Only the CCD body is stopped; what it hits keeps its target. The exception is a contact
///   the soft solver pushed through: when a pair with a CCD body, touching at the start (a
///   manifold point within the target separation plus the tolerance) or with neither body
///   checked, ends with its closest-point normal turned round (a disc at the bottom of a
///   loaded pile squeezed through a zero-thickness segment; a slow stick a pile pressed
///   through the floor from a centimetre above), both of its dynamic bodies stay at their
///   start poses (reported in [`ClampReport::crossings_stopped`] and as clamped at 0), as
///   [`FirstTimeOfImpact`](crate::FirstTimeOfImpact) does, and they leave moving as one body.
///   The time of impact cannot see the first case (the pair overlaps at the start) and is not
///   asked in the second. It costs a distance query per such contact of a CCD body that
///   moved.
/// - Velocities change in two cases only, both a perfectly inelastic, rough impact that
///   keeps linear and angular momentum (the pair moves on as one body, or with the other
///   body's motion if that one is not dynamic): the pushed-through pair above, and a pair
///   within the target separation at the start whose manifold the solver had but whose
///   targets still overlap beyond the tolerance or turned round
///   ([`ClampReport::closing_stopped`]; a box spinning fast against a falling one, whose
///   contact the solver's anchors, turning with the box, see as opening). Clamped with the
///   velocities that closed them in, either pair would close in again from the same place at
///   every step and hang there: in the tumbling rain (1,000 bodies), 20 to 30 bodies hung in
///   mid-air without the first, and 4 to 10 without the second.
/// - A checked body whose motion's box overflows (a body at an absurd distance) is kept at its
///   start pose (fraction 0) rather than let it move unchecked.
///
/// # Cost
/// One discrete step; one sort of every body's motion box along one axis and one sweep over
/// them, four boxes at a time (the broadphase is not queried); then one time-of-impact query
/// per candidate of each checked body (closed forms when neither body rotates, conservative
/// advancement otherwise). Slow bodies and bodies without the flag are only swept past.
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MotionClamping {
    settings: MotionClampingSettings,
    #[cfg_attr(feature = "serde", serde(skip))]
    scratch: Scratch,
}

impl PartialEq for MotionClamping {
    /// Two steppers are equal when their settings are (the scratch buffers hold nothing
    /// between steps).
    fn eq(&self, other: &Self) -> bool {
        self.settings == other.settings
    }
}

impl MotionClamping {
    /// A stepper with `settings`.
    ///
    /// # Errors
    /// As [`MotionClampingSettings::validate`].
    pub fn new(settings: MotionClampingSettings) -> Result<Self, WorldError> {
        settings.validate()?;
        Ok(Self {
            settings,
            scratch: Scratch::default(),
        })
    }

    /// The settings.
    #[inline]
    pub fn settings(&self) -> &MotionClampingSettings {
        &self.settings
    }

    /// Replaces the settings.
    ///
    /// # Errors
    /// As [`MotionClampingSettings::validate`]; the stepper is unchanged.
    pub fn set_settings(&mut self, settings: MotionClampingSettings) -> Result<(), WorldError> {
        settings.validate()?;
        self.settings = settings;
        Ok(())
    }
}

impl Stepper for MotionClamping {
    type Report = ClampReport;

    fn advance<B: Broadphase>(
        &mut self,
        mut ctx: StepContext<'_, B>,
    ) -> Result<ClampReport, WorldError> {
        // The settings are valid by construction; the step length was checked by the world,
        // and `solve_step` validates the rest before changing anything.
        let dt = finite("dt", ctx.dt)?;
        let settings = self.settings;
        let scratch = &mut self.scratch;

        // 1. Touching pairs of a CCD body that close fast are impacts, resolved before
        // anything moves (see `touching`).
        let pad = settings.toi.target_separation() + settings.toi.tolerance();
        let impact = ImpactSettings {
            restitution_threshold: ctx.solver.restitution_threshold,
            friction: true,
        };
        let closing = Closing {
            contacts: ctx.contacts,
            reach: pad,
            speeds: touching::impact_speeds(
                impact.restitution_threshold,
                settings.toi.tolerance(),
                ctx.gravity.norm(),
                dt,
            ),
            settings: impact,
            most: TOUCHING_IMPACTS,
            most_per_pair: TOUCHING_PAIR_IMPACTS,
        };
        let time = ctx.time;
        let start_impacts = touching::resolve_closing(
            ctx.bodies,
            &closing,
            &mut scratch.closing,
            ctx.events,
            |bodies, c, _| match (bodies.get(c.a), bodies.get(c.b)) {
                (Some(a), Some(b)) => touching::may_resolve(a, b, dt, pad),
                _ => false,
            },
            |_, c, impulse, events| events.push(touching::start_event(c, impulse, time)),
        );

        // Start poses, by slot.
        scratch.start.clear();
        scratch.start_velocity.clear();
        scratch.fast.clear();
        let g = ctx.gravity.norm();
        for (handle, body) in ctx.bodies.iter() {
            let slot = handle.index as usize;
            if scratch.start.len() <= slot {
                scratch.start.resize(slot + 1, None);
                scratch
                    .start_velocity
                    .resize(slot + 1, (Vector::zeros(), 0.0));
                scratch.fast.resize(slot + 1, false);
            }
            scratch.start[slot] = Some(*body.pose());
            scratch.start_velocity[slot] = (body.linvel(), body.angvel());
            scratch.fast[slot] = fast_ccd_body(settings.velocity_threshold, body, g, dt);
        }

        // 2. The contact solver's step: the targets. A fast body's contacts with static and
        // kinematic bodies beyond the contact distance are left out: the clamp covers that
        // motion exactly, and a speculative contact per segment a fast disc's swept box meets
        // made most of the solver's work in the rain of discs.
        let fast = &scratch.fast;
        let fixed = |h: BodyHandle| ctx.bodies.get(h).is_some_and(|b| !b.is_dynamic());
        let clamp_covers = |c: &ContactPair| {
            c.manifold.min_separation() > pad
                && ((fast[c.a.index as usize] && fixed(c.b))
                    || (fast[c.b.index as usize] && fixed(c.a)))
        };
        scratch.solver_contacts.clear();
        scratch
            .solver_contacts
            .extend(ctx.contacts.iter().filter(|c| !clamp_covers(c)));
        let discrete = solve_contacts(&mut ctx, &scratch.solver_contacts)?;
        reset(&mut scratch.constrained, scratch.start.len(), false);
        for c in &scratch.solver_contacts {
            if !c.manifold.is_empty() {
                for h in [c.a, c.b] {
                    if let Some(flag) = scratch.constrained.get_mut(h.index as usize) {
                        *flag = true;
                    }
                }
            }
        }
        let mut report = ClampReport {
            discrete,
            start_impacts,
            ..ClampReport::default()
        };

        // 3. Every body's motion over the step, from its start pose to its target.
        scratch.sweeps.clear();
        scratch.sweeps.resize(scratch.start.len(), None);
        for (handle, body) in ctx.bodies.iter() {
            let slot = handle.index as usize;
            if let Some(start) = scratch.start.get(slot).copied().flatten() {
                scratch.sweeps[slot] = rebuilt_sweep(body, &start, dt);
            }
        }

        // 4. The earliest safe fraction of each fast CCD body.
        scratch.clamps.clear();
        // Which bodies are checked, and the box of every body's motion: a checked body meets
        // a candidate only if their boxes meet (the checked one's padded by the target
        // separation and the tolerance).
        let slots = scratch.sweeps.len();
        reset(&mut scratch.boxes, slots, None);
        reset(&mut scratch.handles, slots, None);
        reset(&mut scratch.checked, slots, false);
        reset(&mut scratch.earliest, slots, 1.0);
        for (handle, body) in ctx.bodies.iter() {
            let slot = handle.index as usize;
            let Some(sweep) = scratch.sweeps[slot] else {
                continue;
            };
            let checked = scratch.fast[slot]
                || body.is_dynamic()
                    && body.ccd()
                    && moves_past_threshold(
                        settings.velocity_threshold,
                        (sweep.linvel().norm(), sweep.angvel()),
                        body.shape().bounding_radius(&body.local_center()),
                        dt,
                    );
            let mut aabb = Aabb::swept(body.shape(), &sweep);
            if checked {
                report.checked_bodies += 1;
                aabb = aabb.inflated(pad);
            }
            if !is_finite(&aabb) {
                // A box that overflows (a body at an absurd distance): a checked body does
                // not move unchecked.
                if checked {
                    scratch.clamps.push((handle, 0.0));
                }
                continue;
            }
            scratch.boxes[slot] = Some(aabb);
            scratch.handles[slot] = Some(handle);
            scratch.checked[slot] = checked;
        }
        // A contact the solver held must not end on the far side, which no time of impact
        // sees (the pair overlaps at the start): both bodies stay where they were. A pair
        // apart at the start is the time of impact's when one of its bodies is checked: it
        // stops that body at the contact instead of where it was. A pair of bodies neither
        // of which is checked is the solver's alone, apart or not: a pile pressing a slow
        // stick onto a segment it was still a centimetre above pushed it through the floor
        // of the tumbling rain (seed 1, step 47).
        let checked = |h: BodyHandle| scratch.checked.get(h.index as usize) == Some(&true);
        for c in ctx.contacts {
            let dynamic = |h: BodyHandle| ctx.bodies.get(h).is_some_and(|b| b.is_dynamic());
            let timed = c.manifold.min_separation() > pad && (checked(c.a) || checked(c.b));
            // Two dynamic bodies already inside each other at the start (a pair the solver
            // pushes apart) have no side to be pushed through from; nor have two that move
            // as one at the start (the net's own answer to a pair pushed through): the
            // solver's straight courses from their start poses do not keep a pair that turns
            // about its common centre together, and found it pushed through again at every
            // step (two sticks turning together at 167 rad/s hung in mid-air).
            let inside = dynamic(c.a)
                && dynamic(c.b)
                && (c.manifold.min_separation() < -settings.toi.tolerance()
                    || moving_as_one(
                        ctx.bodies,
                        (&scratch.start_velocity, &scratch.start),
                        c,
                        settings.toi.tolerance() / dt,
                    ));
            if !timed && !inside && pushed_through(ctx.bodies, &scratch.start, c, pad, dt) {
                report.crossings_stopped += 1;
                for handle in [c.a, c.b] {
                    if ctx.bodies.get(handle).is_some_and(|b| b.is_dynamic()) {
                        scratch.clamps.push((handle, 0.0));
                    }
                }
                // Clamped with the velocities that pushed them through, the pair is pushed
                // through again at the next step: in the tumbling rain, 20 to 30 of 1,000
                // bodies hung in mid-air that way (see `move_pair_as_one`).
                move_pair_as_one(ctx.bodies, &scratch.start, c);
            }
        }
        let period = ctx.periodic.as_ref().map(|p| p.size());
        scratch.candidates.clear();
        {
            let (checked, candidates) = (&scratch.checked, &mut scratch.candidates);
            let mut found = |x: u32, y: u32, shift: Vector| {
                if checked[x as usize] {
                    candidates.push((x, y, shift));
                }
                if checked[y as usize] {
                    candidates.push((y, x, -shift));
                }
            };
            match period {
                // Images of boxes across the period: the grid's wrapped cells find them.
                Some(_) => {
                    scratch.grid.build(&scratch.boxes, Point::origin(), period);
                    scratch
                        .grid
                        .pairs(&scratch.boxes, &mut scratch.found, found);
                }
                None => scratch
                    .sweep
                    .pairs(&scratch.boxes, |x, y| found(x, y, Vector::zeros())),
            }
        }

        // The earliest safe fraction of each checked body, over its candidates.
        for &(x, y, offset) in &scratch.candidates {
            let (Some(handle), Some(other_handle)) =
                (scratch.handles[x as usize], scratch.handles[y as usize])
            else {
                continue;
            };
            let (Some(body), Some(other)) = (ctx.bodies.get(handle), ctx.bodies.get(other_handle))
            else {
                continue;
            };
            let (Some(sweep), Some(other_sweep)) = (
                scratch.sweeps[x as usize],
                scratch.sweeps[y as usize].and_then(|sweep| translated_sweep(&sweep, &offset)),
            ) else {
                continue;
            };
            report.toi_queries += 1;
            let toi = time_of_impact(
                body.shape(),
                &sweep,
                other.shape(),
                &other_sweep,
                &settings.toi,
            );
            if toi == Toi::Overlapping {
                report.overlapping += 1;
                // The solver's manifold holds an overlapping pair, unless a body swings its
                // far side round more than the contact distance: followed along the sweeps,
                // the body stops where the overlap deepens (see `swinging_deepening`).
                if swings(body, &sweep, pad) || swings(other, &other_sweep, pad) {
                    let start = distance(
                        body.shape(),
                        &sweep.pose_at(0.0),
                        other.shape(),
                        &other_sweep.pose_at(0.0),
                    );
                    let stop = unit_normal(&start).and_then(|normal| {
                        swinging_deepening(
                            (body.shape(), &sweep),
                            (other.shape(), &other_sweep),
                            anchored(normal, held_normal(ctx.contacts, x, y)),
                            settings.toi.tolerance(),
                            settings.toi.max_iterations(),
                        )
                        .stop_after()
                    });
                    if let Some(after) = stop {
                        let earliest = &mut scratch.earliest[x as usize];
                        *earliest = earliest.min((after / dt).clamp(0.0, 1.0));
                    }
                }
                continue;
            }
            if let Toi::Hit(hit) = toi
                && hit.fraction <= 0.0
                && let Some(&held) = held_contact(&scratch.solver_contacts, x, y)
            {
                // Already within the target separation at the start, and the contact solver
                // had this pair's manifold for the whole step. If the targets are still apart
                // on the same side (overlapping by no more than a soft contact gives under a
                // load: the tolerance, or a quarter of the smaller body's bounding radius
                // against a body with area; the normal not turned round), the solver held the
                // contact and the pair is its
                // business: clamping at 0 would freeze a body leaving or sliding along a wall,
                // or landing on it with long steps under strong gravity. Otherwise the body
                // stays at the start: once it overlaps deeply the soft solver can push it
                // through a thin wall.
                let apart = distance(
                    body.shape(),
                    &sweep.pose_at(1.0),
                    other.shape(),
                    &other_sweep.pose_at(1.0),
                );
                let slack = if matches!(other.shape(), Shape::Segment(_)) {
                    // Through a segment, any overlap is half way: its side is the test.
                    settings.toi.tolerance()
                } else {
                    settings.toi.tolerance().max(
                        0.25 * body
                            .shape()
                            .bounding_radius(&body.local_center())
                            .min(other.shape().bounding_radius(&other.local_center())),
                    )
                };
                if apart.distance >= -slack
                    && !turned_round(
                        apart.normal,
                        hit.normal,
                        (body, &sweep.pose_at(0.0), &sweep.pose_at(1.0)),
                        (other, &other_sweep.pose_at(0.0), &other_sweep.pose_at(1.0)),
                    )
                {
                    report.touching += 1;
                    continue;
                }
                // Stopped with the velocities that closed in, the pair would close in again
                // from the same place at every step, and hang there (a box spinning fast
                // against a falling one: the solver's anchors turn away with it). It leaves
                // moving as one, as a pair pushed through does.
                report.closing_stopped += 1;
                move_pair_as_one(ctx.bodies, &scratch.start, &held);
            }
            if let Some(fraction) = toi.safe_fraction() {
                let earliest = &mut scratch.earliest[x as usize];
                *earliest = earliest.min(fraction.max(0.0));
            }
        }
        for (handle, _) in ctx.bodies.iter() {
            let earliest = scratch.earliest[handle.index as usize];
            if earliest < 1.0 {
                scratch.clamps.push((handle, earliest));
            }
        }

        let _span = tracing::trace_span!(
            "motion_clamping",
            checked_bodies = report.checked_bodies,
            toi_queries = report.toi_queries,
            clamped = scratch.clamps.len()
        )
        .entered();
        // 5. Clamp, after every sweep is known, so the order of visits changes nothing; a
        // body clamped twice (pushed through, and a time of impact) takes the earlier.
        if scratch.clamps.len() > 1 {
            scratch
                .clamps
                .sort_by(|x, y| x.0.index.cmp(&y.0.index).then(x.1.total_cmp(&y.1)));
            scratch.clamps.dedup_by_key(|c| c.0);
        }
        for &(handle, fraction) in &scratch.clamps {
            let slot = handle.index as usize;
            let (Some(sweep), Some(body)) = (scratch.sweeps[slot], ctx.bodies.get_mut(handle))
            else {
                continue;
            };
            let pose = sweep.pose_at(fraction);
            if body.set_pose(pose).is_err() {
                debug_assert!(false, "a pose on a finite sweep is valid");
                continue;
            }
            // The velocities it has where it stopped: those it ends the step with, without
            // the gravity (and the solver's change) of the part of the step it lost.
            let ramp = Ramp::over_step(body, ctx.gravity, !scratch.constrained[slot], dt);
            let (v, w) =
                ramp.velocity_at((body.linvel(), body.angvel()), (0.0, sweep), fraction * dt);
            if body.is_dynamic() {
                // Refused only past the range of `f64` (a scene of absurd sizes): the body
                // keeps its own, and the world reports what overflowed after the step.
                let _ = body.set_velocity(v, w);
            }
            let time_lost = (1.0 - fraction) * dt;
            report.time_lost += time_lost;
            report.clamped.push(ClampedBody {
                body: handle,
                fraction,
                time_lost,
            });
        }
        Ok(report)
    }

    /// A fast body (see "One step") gives the broadphase its box at the start pose, padded by
    /// the world's pad (or the target separation plus the tolerance, if larger), instead of
    /// its swept box: the clamp covers its motion against every body, and the broadphase and
    /// the narrowphase are spared the pairs its swept box meets. Its pairs with bodies close
    /// at the start, and with dynamic bodies whose own swept boxes reach it, still get their
    /// speculative contacts.
    fn contact_reach(&self, body: &RigidBody, gravity: Real, dt: Real, pad: Real) -> Option<Real> {
        fast_ccd_body(self.settings.velocity_threshold, body, gravity, dt)
            .then(|| pad.max(self.settings.toi.target_separation() + self.settings.toi.tolerance()))
    }
}

/// Most impacts of touching pairs that close fast at the start of a step (see
/// [`touching::resolve_closing`]), in all and of one pair (as `FirstTimeOfImpact`'s
/// defaults); the rest is the contact solver's.
const TOUCHING_IMPACTS: usize = 100_000;
const TOUCHING_PAIR_IMPACTS: u32 = 8;

/// Whether the bodies of `c` had, at the start of the step (`velocities` and `poses`, by
/// slot), one rigid motion to within `speed` at its manifold points (world units per second)
/// and the same angular velocity.
fn moving_as_one(
    bodies: &impact_solver::BodySet,
    (velocities, poses): (&[(Vector, Real)], &[Option<Isometry>]),
    c: &ContactPair,
    speed: Real,
) -> bool {
    let (a, b) = (c.a.index as usize, c.b.index as usize);
    let (Some(&(va, wa)), Some(&(vb, wb))) = (velocities.get(a), velocities.get(b)) else {
        return false;
    };
    let (Some(Some(pa)), Some(Some(pb)), Some(body_a), Some(body_b)) =
        (poses.get(a), poses.get(b), bodies.get(c.a), bodies.get(c.b))
    else {
        return false;
    };
    let (ca, cb) = (
        pa * body_a.local_center(),
        pb * body_b.local_center() + c.offset,
    );
    let at =
        |v: Vector, w: Real, centre: Point, p: &Point| v + impact_geometry::perp(&(p - centre)) * w;
    wa == wb
        && c.manifold
            .points()
            .iter()
            .all(|p| (at(vb, wb, cb, &p.point) - at(va, wa, ca, &p.point)).norm() <= speed)
}

fn reset<T: Clone>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
}
