//! [`MotionClamping`]: the discrete step, then every fast CCD body stopped at its first time
//! of impact (seed 002, DigitalRune's motion clamping).

use crate::domain::{PeriodicImages, translated_sweep};
use crate::error::{WorldError, finite};
use crate::motion::{holds_pair, pushed_through, query_box, rebuilt_sweep};
use crate::stepper::{DiscreteReport, StepContext, Stepper, discrete_step};
use impact_broadphase::{Broadphase, ProxyId};
use impact_geometry::{Isometry, Real, Sweep, Vector};
use impact_narrowphase::{Toi, ToiOptions, distance, time_of_impact};
use impact_solver::BodyHandle;

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

/// One body that [`MotionClamping`] stopped short of its target this step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClampedBody {
    /// The body.
    pub body: BodyHandle,
    /// Where along its motion over the step the body stopped, in `[0, 1)`: its earliest
    /// safe time-of-impact fraction.
    pub fraction: Real,
    /// The simulated time the body lost, `(1 - fraction) * dt` seconds.
    pub time_lost: Real,
}

/// What [`MotionClamping`] reports about one step.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClampReport {
    /// The report of the discrete step that produced the targets.
    pub discrete: DiscreteReport,
    /// CCD bodies whose motion exceeded the velocity threshold and was checked.
    pub checked_bodies: usize,
    /// Time-of-impact queries run (broadphase candidates of the checked bodies).
    pub toi_queries: usize,
    /// Candidate pairs skipped because the shapes overlapped at the start of the step (left
    /// to the contact solver).
    pub overlapping: usize,
    /// Candidate pairs skipped because the shapes were already within the target
    /// separation at the start (a hit at fraction 0), the step's contact manifolds held the
    /// pair, and the targets are still on the same side: the contact solver held them.
    pub touching: usize,
    /// Contacts the solver would have pushed through each other (their closest-point normal
    /// turned round over the step, which no time of impact sees since the pair overlapped):
    /// their dynamic bodies stay at their start poses (fraction 0, in `clamped`).
    pub crossings_stopped: usize,
    /// The bodies stopped short of their target, sorted by handle.
    pub clamped: Vec<ClampedBody>,
    /// The time lost over all clamped bodies (seconds): the sum of their `time_lost`.
    pub time_lost: Real,
}

/// Per body slot: the start pose, and the motion over the step once the targets are known.
#[derive(Debug, Clone, Default)]
struct Scratch {
    start: Vec<Option<Isometry>>,
    sweeps: Vec<Option<Sweep>>,
    candidates: Vec<ProxyId>,
    /// Candidates with the translation of the image they are met through.
    images: Vec<(ProxyId, Vector)>,
    clamps: Vec<(BodyHandle, Real)>,
}

/// Motion clamping (seed 002, DigitalRune Physics): the discrete step, then every fast
/// CCD body stopped at its earliest time of impact.
///
/// # One step
/// 1. The start pose of every body is kept, then the step of [`Discrete`](crate::Discrete)
///    runs unchanged (the same code: gravity, the contact solver's soft step, positions).
///    The poses it reaches are *targets*.
/// 2. Each body's motion over the step is rebuilt from its start pose and its target as a
///    constant-velocity [`Sweep`]: linear velocity `(c1 - c0) / dt` of the centre of mass,
///    angular velocity `dtheta / dt`. The solver's substeps make the real path piecewise, so
///    neither the start nor the end velocity describes it; only the two poses are certain,
///    and the straight sweep between them is the motion the body is actually credited with.
///    The angle change is the one of `(-pi, pi]` from the two rotations, moved by whole turns
///    to the one nearest the end angular velocity times `dt`, so a body spinning more than
///    half a turn per step keeps its turns.
/// 3. For each dynamic body with [`RigidBody::ccd`](impact_solver::RigidBody::ccd) set whose motion exceeds
///    [`MotionClampingSettings::velocity_threshold`] (relative to its size), the broadphase
///    is asked for every proxy its sweep's box meets ([`Broadphase::query_swept`], padded by
///    the target separation and the tolerance), and the time of impact is computed against
///    each candidate, static or moving, along that candidate's own rebuilt sweep. Pairs that
///    overlap at the start ([`Toi::Overlapping`]) are the contact solver's business and are
///    skipped; so are pairs already within the target separation at the start (a hit at
///    fraction 0) for which the step had a contact manifold *and* whose targets are still
///    apart on the same side (signed distance at least `-tolerance`, normal within 90
///    degrees of the hit's): the solver held that contact over the step. Any other
///    zero-fraction hit clamps at 0. Overlap is not tolerated there because an overlapping
///    pair is handed to the soft contact solver, which measurably pushes thin walls through
///    (3% of bullets with a one-radius allowance). Without this, a fast body
///    sliding along a wall would be clamped at 0 and frozen every step; with the side check,
///    a body the soft solver let through is still stopped (at fraction 0).
///    The earliest [`Toi::safe_fraction`] wins.
/// 4. Every body with a fraction below 1 is placed at that fraction of its sweep, which is at
///    the target separation from what it hits, so the next step's contacts see it. Its
///    velocities are untouched. The time it lost, `(1 - fraction) dt`, is reported.
///
/// All sweeps are computed from the targets before any body is moved, so the result does
/// not depend on the order bodies are visited; bodies are visited in slot order and
/// candidates in proxy order, and the report lists bodies sorted by handle.
///
/// # Guarantees and limits
/// - A checked body never passes through a static body during the step: its whole motion
///   is covered by the time of impact, which never reports a time later than the first
///   contact. This holds for zero-thickness segments too.
/// - Time is lost, never hidden: a clamped body ends the step short of where its velocity
///   took it, and the report says by how much.
/// - Dynamic versus dynamic is only as good as the targets: the other body's motion is its
///   own unclamped target motion, and the broadphase knows it through the swept box the
///   world gave it from the start velocities (plus the speculative pad). A body the solver
///   deflects far outside that box can be missed. `FirstTimeOfImpact` is the mode for fast
///   bodies meeting each other.
/// - Only the CCD body is stopped; what it hits keeps its target. The exception is a contact
///   the soft solver pushed through: when a pair with a CCD body, touching at the start (a
///   manifold point within the target separation plus the tolerance), ends with its
///   closest-point normal turned round (a disc at the bottom of a loaded pile
///   squeezed through a zero-thickness segment), both of its dynamic bodies stay at their
///   start poses (reported in [`ClampReport::crossings_stopped`] and as clamped at 0), as
///   [`FirstTimeOfImpact`](crate::FirstTimeOfImpact) does. The time of impact cannot see this
///   case: the pair overlaps at the start. It costs a distance query per contact of a CCD
///   body that moved.
/// - If the broadphase refuses a query box (a body at an absurd distance), the body is kept
///   at its start pose (fraction 0) rather than let it move unchecked.
///
/// # Cost
/// One discrete step, plus for each checked body one swept broadphase query and one
/// time-of-impact query per candidate (closed forms when neither body rotates, conservative
/// advancement otherwise). Slow bodies and bodies without the flag cost one comparison.
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
        // and `discrete_step` validates the rest before changing anything.
        let dt = finite("dt", ctx.dt)?;
        let settings = self.settings;
        let scratch = &mut self.scratch;

        // 1. Start poses, by slot.
        scratch.start.clear();
        for (handle, body) in ctx.bodies.iter() {
            let slot = handle.index as usize;
            if scratch.start.len() <= slot {
                scratch.start.resize(slot + 1, None);
            }
            scratch.start[slot] = Some(*body.pose());
        }

        // 2. The discrete step: the targets.
        let discrete = discrete_step(&mut ctx)?;
        let mut report = ClampReport {
            discrete,
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
        let pad = settings.toi.target_separation() + settings.toi.tolerance();
        scratch.clamps.clear();
        // A contact the solver held must not end on the far side, which no time of impact
        // sees (the pair overlaps at the start): both bodies stay where they were. A pair
        // apart at the start is the time of impact's: it stops the body at the contact
        // instead of where it was.
        for c in ctx.contacts {
            if c.manifold.min_separation() <= pad
                && pushed_through(ctx.bodies, &scratch.start, c, pad)
            {
                report.crossings_stopped += 1;
                for handle in [c.a, c.b] {
                    if ctx.bodies.get(handle).is_some_and(|b| b.is_dynamic()) {
                        scratch.clamps.push((handle, 0.0));
                    }
                }
            }
        }
        for (handle, body) in ctx.bodies.iter() {
            if !body.is_dynamic() || !body.ccd() {
                continue;
            }
            let Some(sweep) = scratch.sweeps[handle.index as usize] else {
                continue;
            };
            let radius = body.shape().bounding_radius(&body.local_center());
            let motion = sweep.displacement().norm() + sweep.rotation_angle().abs() * radius;
            if motion <= settings.velocity_threshold * radius || motion.is_nan() {
                continue;
            }
            report.checked_bodies += 1;
            let (aabb, translation) = query_box(body, &sweep, pad);
            if PeriodicImages::query_swept(
                ctx.periodic.as_ref(),
                &*ctx.broadphase,
                &aabb,
                &translation,
                &mut scratch.candidates,
                &mut scratch.images,
            )
            .is_err()
            {
                // Unanswerable query (a box that overflows): do not move unchecked.
                scratch.clamps.push((handle, 0.0));
                continue;
            }
            let mut earliest: Real = 1.0;
            for &(proxy, offset) in &scratch.images {
                let Some(other_handle) = ctx.proxies.get(proxy.index()).copied().flatten() else {
                    continue;
                };
                if other_handle == handle {
                    continue;
                }
                let (Some(other), Some(other_sweep)) = (
                    ctx.bodies.get(other_handle),
                    scratch
                        .sweeps
                        .get(other_handle.index as usize)
                        .copied()
                        .flatten()
                        .and_then(|sweep| translated_sweep(&sweep, &offset)),
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
                    continue;
                }
                if let Toi::Hit(hit) = toi
                    && hit.fraction <= 0.0
                    && holds_pair(ctx.contacts, handle.index, other_handle.index)
                {
                    // Already within the target separation at the start, and the contact
                    // solver had this pair's manifold for the whole step. If the targets
                    // are still apart on the same side (no overlap beyond the tolerance, the
                    // normal not turned round), the solver held the contact and the pair is
                    // its business: clamping at 0 would freeze a body leaving or sliding
                    // along a wall. Otherwise the body stays at the start: once it overlaps
                    // the soft solver can push it through a thin wall.
                    let apart = distance(
                        body.shape(),
                        &sweep.pose_at(1.0),
                        other.shape(),
                        &other_sweep.pose_at(1.0),
                    );
                    if apart.distance >= -settings.toi.tolerance()
                        && apart.normal.dot(&hit.normal) > 0.0
                    {
                        report.touching += 1;
                        continue;
                    }
                }
                if let Some(fraction) = toi.safe_fraction() {
                    earliest = earliest.min(fraction.max(0.0));
                }
            }
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
        if report.crossings_stopped > 0 {
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
}
