//! The step of [`World`]: the pipeline of [`World::step_with`] (broadphase, narrowphase,
//! stepper), the fixed-step clock of [`World::advance`], and what each reports.
//!
//! The pipeline keeps two promises a caller relies on. A step that fails changes nothing a
//! later step reads: the bodies and the warm-starting cache are kept as the stepper found them
//! and put back if it leaves a body that is not finite, which is why the step copies them
//! first. And a periodic domain is invisible to the stages: bodies are wrapped only before
//! and after the step, and pairs across a side come from a second query of the broadphase
//! with the box translated by a period, each pair carrying the translation of its second
//! body's image (see `docs/architecture.md`, "Periodic domains").

use super::World;
use super::events::Ending;
use super::swept_boxes::BodyBoxes;
use crate::domain::{PeriodicImages, shifted};
use crate::error::{WorldError, non_negative, positive};
use crate::events::{ImpactHook, NoHook};
use crate::rules::{CollisionRules, build_table, give_filters};
use crate::stepper::{StepContext, StepPreview, Stepper};
use impact_broadphase::{Broadphase, ProxyPair};
use impact_geometry::{Real, Vector};
use impact_solver::{BodyHandle, BodySet, RigidBody};
use tracing::field::Empty;

/// What one [`World::step`] did, for tracing, events and tests.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StepReport<R> {
    /// Proxies in the broadphase (one per body).
    pub proxies: usize,
    /// Proxies whose fat box changed this step (left its fat box, or shrank a lot).
    pub moved_proxies: usize,
    /// Candidate pairs the broadphase reported.
    pub pairs: usize,
    /// Candidate pairs skipped because neither body is dynamic (static or kinematic on both
    /// sides: nothing can respond to the contact).
    pub skipped_pairs: usize,
    /// Candidate pairs left out because the collision filters keep them apart, a joint
    /// keeps its bodies from colliding, the pair filter hook vetoed them, or the pre-solve
    /// hook disabled their contact. A broadphase that keeps the shapes' filters (every one
    /// of `impact-broadphase`'s) leaves the pairs the filters keep apart out of its
    /// candidates: they are not counted here.
    pub filtered_pairs: usize,
    /// Candidate pairs with a sensor, set aside (see
    /// [`StepContext::sensor_pairs`](crate::StepContext::sensor_pairs)).
    pub sensor_pairs: usize,
    /// Non-empty contact manifolds given to the stepper.
    pub manifolds: usize,
    /// Contact points over those manifolds.
    pub contact_points: usize,
    /// Collision events the stepper recorded (see [`World::events`]).
    pub events: usize,
    /// Bodies given a swept box this step: the awake ones (a sleeping body keeps its
    /// proxy and gets nothing else).
    pub awake_bodies: usize,
    /// Candidate pairs left out because a body of the pair sleeps (no manifold).
    pub sleeping_pairs: usize,
    /// Bodies woken at the start of the step because an awake body could reach them.
    pub woken_bodies: usize,
    /// Bodies asleep when the step ended (after the islands that fell asleep in it).
    pub sleeping_bodies: usize,
    /// Bodies the impact hook removed during the step, in the order it removed them; they
    /// are gone from the world when the step returns.
    pub removed: Vec<BodyHandle>,
    /// The stepper's own report.
    pub stepper: R,
}

/// What one [`World::advance`] did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AdvanceReport<R> {
    /// Fixed steps taken.
    pub steps: usize,
    /// Simulated time dropped because `max_steps` was reached (seconds): the world fell
    /// behind real time and gave up catching up rather than spiral into ever longer frames.
    pub dropped_time: Real,
    /// The time left in the accumulator as a fraction of `fixed_dt`, in `[0, 1)`: how far
    /// between the last and the next step the caller's clock is, for interpolating what is
    /// drawn.
    pub alpha: Real,
    /// The report of the last step taken, if any.
    pub last: Option<StepReport<R>>,
}

impl<B: Broadphase, S: Stepper> World<B, S> {
    /// Advances the world by `dt` seconds: broadphase, narrowphase, then the stepper (see
    /// [`World`]). The same as [`World::step_with`] with a hook that does nothing.
    ///
    /// # Errors
    /// As [`World::step_with`].
    pub fn step(&mut self, dt: Real) -> Result<StepReport<S::Report>, WorldError> {
        self.step_with(dt, &mut NoHook)
    }

    /// Advances the world by `dt` seconds, calling `hook` at each impact the stepper resolves
    /// inside the step (the mid-frame loop of Colp's ECSE write-up): the hook may change
    /// velocities, remove bodies or turn their collisions off for the rest of the step, and the
    /// stepper re-plans exactly the bodies it touched. Bodies it removed are removed from the
    /// world (body, proxy, cached contacts) before this returns and listed in
    /// [`StepReport::removed`].
    ///
    /// ```
    /// use impact_broadphase::BruteForce;
    /// use impact_geometry::{Circle, Isometry, Segment, Point, Vector};
    /// use impact_solver::RigidBodyDef;
    /// use impact_stepper::{FirstTimeOfImpact, Impact, World, WorldSettings};
    ///
    /// let mut world =
    ///     World::<BruteForce, FirstTimeOfImpact>::new(WorldSettings::with_gravity(Vector::zeros()))?;
    /// let wall = world.create_body(RigidBodyDef::fixed(
    ///     Segment::new(Point::new(1.0, -1.0), Point::new(1.0, 1.0))?.into(),
    /// ))?;
    /// let bullet = world.create_body(
    ///     RigidBodyDef::new(Circle::new(0.05)?.into()).linvel(Vector::new(600.0, 0.0)).ccd(true),
    /// )?;
    /// // The bullet is destroyed where it first hits something.
    /// let report = world.step_with(1.0 / 60.0, &mut |impact: &mut Impact<'_>| {
    ///     let _ = impact.remove_body(bullet);
    /// })?;
    /// assert_eq!(report.removed, [bullet]);
    /// assert!(world.body(bullet).is_none() && world.body(wall).is_some());
    /// assert_eq!(world.events().len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`WorldError::NotPositive`] or [`WorldError::NotFinite`] naming `dt`, or
    /// [`WorldError::OutOfRange`] naming `dt` if gravity's reach over the step overflows
    /// ([`WorldSettings::validate_dt`](crate::WorldSettings::validate_dt));
    /// [`WorldError::Broadphase`] if a body's swept box overflows (a body at an absurd
    /// distance or speed); the stepper's error; [`WorldError::NotFinite`] naming
    /// `bodies[i].pose.x` (or `.y`, `.rotation.re`, `.rotation.im`, `linvel.x`, `linvel.y`,
    /// `angvel`) if the step would leave that body not finite (a scene whose masses or
    /// speeds take the solver's arithmetic past the range of `f64`). After an error the
    /// bodies, the cache, the time and the step count are unchanged; only the broadphase's
    /// fat boxes may have grown, which changes no answer a step relies on (false positives
    /// are allowed there). A hook called during a failed step has run (its own effects
    /// outside the world stay).
    pub fn step_with(
        &mut self,
        dt: Real,
        hook: &mut dyn ImpactHook,
    ) -> Result<StepReport<S::Report>, WorldError> {
        self.settings.validate_dt(dt)?;
        #[cfg(feature = "parallel")]
        crate::threads::enter();
        self.bodies_moved();
        // Filters and sensor flags as they are now (a filter changed between steps holds
        // from this one), and the hooks, held apart from the world the stages borrow.
        let mut table = core::mem::take(&mut self.rules);
        if core::mem::take(&mut self.rules_stale) {
            let len = self.shape_proxies.len().max(self.proxies.len());
            self.tracking.scan = build_table(&self.bodies, &self.shape_proxies, len, &mut table);
            give_filters(&self.bodies, &self.shape_proxies, &mut self.broadphase);
        }
        let hooks = self.hooks.clone();
        let joint_pairs = core::mem::take(&mut self.joint_pairs);
        let rules = CollisionRules::new(
            &table,
            hooks.pair_filter.as_deref(),
            hooks.pre_solve.as_deref(),
        )
        .with_joints(&joint_pairs);
        let result = self.run_step(dt, hook, rules);
        self.joint_pairs = joint_pairs;
        self.rules = table;
        result
    }

    /// The step of [`World::step_with`], under `rules`.
    fn run_step(
        &mut self,
        dt: Real,
        hook: &mut dyn ImpactHook,
        rules: CollisionRules<'_>,
    ) -> Result<StepReport<S::Report>, WorldError> {
        let span = tracing::debug_span!(
            "world.step",
            dt,
            proxies = Empty,
            moved_proxies = Empty,
            pairs = Empty,
            manifolds = Empty,
            contact_points = Empty,
            events = Empty,
            removed = Empty
        )
        .entered();
        let mut report = StepReport::<S::Report>::default();
        // Bodies moved out by hand since the last step come back first; a no-op otherwise.
        self.wrap_bodies();
        self.start_sleep_events();
        self.bodies.refresh_awake();
        let pass = self.stepper.needs_world_pass(&StepPreview {
            bodies: &self.bodies,
            gravity: self.settings.gravity,
            domain: &self.settings.domain,
            dt,
            speculative_distance: self.settings.speculative_distance,
            inert_hook: hook.is_inert(),
            rules,
        });
        self.update_broadphase(dt, pass, &mut report)?;
        if pass && self.bodies.asleep_len() > 0 {
            let woken = self.sleep.events.woke.len();
            if let Err(error) = self.wake_reached(dt, &rules, &mut report) {
                self.undo_step_wakes();
                return Err(error);
            }
            report.woken_bodies = self.sleep.events.woke.len() - woken;
        }
        self.find_awake_pairs();
        self.scratch.contacts.clear();
        self.scratch.touched.clear();
        self.scratch.touched_at.clear();
        self.scratch.sensor_pairs.clear();
        if pass {
            self.build_contacts(dt, &rules, &mut report);
        }
        span.record("proxies", report.proxies);
        span.record("moved_proxies", report.moved_proxies);
        span.record("pairs", report.pairs);
        span.record("manifolds", report.manifolds);
        span.record("contact_points", report.contact_points);

        let stepper_span = tracing::debug_span!("stepper", manifolds = report.manifolds).entered();
        self.scratch.events.clear();
        self.scratch.removed.clear();
        self.scratch.before.clear();
        self.scratch.before.extend(
            self.bodies
                .iter_awake()
                .map(|(h, b)| (h, *b.pose(), b.linvel(), b.angvel())),
        );
        self.scratch.cache_before.clone_from(&self.cache);
        self.joints.save_state(&mut self.scratch.joints_before);
        self.start_logs();
        let advanced = self.stepper.advance(StepContext {
            bodies: &mut self.bodies,
            broadphase: &mut self.broadphase,
            proxies: &self.proxies,
            shapes: &self.shape_proxies,
            contacts: &self.scratch.contacts,
            cache: &mut self.cache,
            joints: &mut self.joints,
            solver_scratch: &mut self.scratch.solver,
            gravity: self.settings.gravity,
            solver: &self.settings.solver,
            dt,
            time: self.time,
            events: &mut self.scratch.events,
            hook,
            removed: &mut self.scratch.removed,
            periodic: self.scratch.images,
            rules,
            sensor_pairs: &self.scratch.sensor_pairs,
            courses: &mut self.scratch.tracking.courses,
            impulses: &mut self.scratch.tracking.impulses,
        });
        drop(stepper_span);
        report.stepper = match advanced {
            Ok(stepper_report) => stepper_report,
            Err(error) => {
                self.undo_step_wakes();
                return Err(error);
            }
        };
        if let Some(error) = first_not_finite(&self.bodies) {
            self.put_back();
            self.undo_step_wakes();
            return Err(error);
        }
        // A CCD body whose path met a sleeping body: the step again, with its island
        // awake (see `wake_along_paths`). Each time wakes at least one island, so this
        // ends; the hook sees the impacts of the step taken again, and those of the one
        // put back first.
        if pass && self.bodies.asleep_len() > 0 && self.wake_along_paths(&rules) {
            self.put_back();
            drop(span);
            return self.run_step(dt, hook, rules);
        }
        self.record_events(dt, &rules);
        self.wrap_bodies();
        core::mem::swap(&mut self.events, &mut self.scratch.events);
        if pass {
            core::mem::swap(&mut self.sides, &mut self.scratch.sides);
        } else {
            self.sides.clear();
        }
        report.events = self.events.len();
        for i in 0..self.scratch.removed.len() {
            let handle = self.scratch.removed[i];
            if self
                .remove_body_ending(handle, Ending::InStep { dt })
                .is_ok()
            {
                report.removed.push(handle);
            }
        }
        self.break_joints();
        self.sleep_pass(dt);
        report.sleeping_bodies = self.bodies.asleep_len();
        span.record("events", report.events);
        span.record("removed", report.removed.len());
        self.time += dt;
        self.steps += 1;
        Ok(report)
    }

    /// Puts every body's pose and velocities, and the contact cache, back as the stepper
    /// found them (`Scratch::before`): a step that fails after the stepper ran changes
    /// nothing a later step reads but the broadphase's fat boxes.
    fn put_back(&mut self) {
        for &(handle, pose, linvel, angvel) in &self.scratch.before {
            if let Some(body) = self.bodies.get_mut(handle) {
                let ok = body.set_pose(pose).and(body.set_velocity(linvel, angvel));
                debug_assert!(ok.is_ok(), "the state the step started from was valid");
            }
        }
        core::mem::swap(&mut self.cache, &mut self.scratch.cache_before);
        let restored = self.joints.restore_state(&self.scratch.joints_before);
        debug_assert!(restored, "a step adds or removes no joint");
    }

    /// Advances the world by `elapsed` seconds of real time in fixed steps of `fixed_dt`,
    /// keeping the remainder in an accumulator for the next call (the "fix your timestep"
    /// loop). At most `max_steps` steps are taken; if more were due, the world has fallen
    /// behind and the excess whole steps are dropped and reported, so one slow frame cannot
    /// make every following frame slower.
    ///
    /// # Errors
    /// [`WorldError`] naming `elapsed` (negative or not finite), `fixed_dt` (not positive and
    /// finite) or `max_steps` (zero); nothing is changed then. A step that fails stops the
    /// loop with its error: the steps before it stay taken and their time leaves the
    /// accumulator; the failed step's time stays in it.
    pub fn advance(
        &mut self,
        elapsed: Real,
        fixed_dt: Real,
        max_steps: usize,
    ) -> Result<AdvanceReport<S::Report>, WorldError> {
        non_negative("elapsed", elapsed)?;
        positive("fixed_dt", fixed_dt)?;
        if max_steps == 0 {
            return Err(WorldError::OutOfRange {
                field: "max_steps".to_owned(),
                value: 0.0,
                expected: "at least 1",
            });
        }
        self.accumulator += elapsed;
        // Elapsed times that add up to whole steps (2.5 steps, then half a step) leave the
        // accumulator an ulp short of `fixed_dt` after rounding; a step that is due to within
        // a billionth of its length is taken, and the accumulator never goes negative.
        let due = fixed_dt * (1.0 - 1e-9);
        let mut out = AdvanceReport::default();
        while self.accumulator >= due && out.steps < max_steps {
            out.last = Some(self.step(fixed_dt)?);
            self.accumulator = (self.accumulator - fixed_dt).max(0.0);
            out.steps += 1;
        }
        if self.accumulator >= due {
            // Whole steps by the same tolerance as above, so 56 steps' worth drops 56 steps.
            let whole = (self.accumulator / fixed_dt * (1.0 + 1e-9)).floor();
            let keep = (self.accumulator - whole * fixed_dt).max(0.0);
            out.dropped_time = self.accumulator - keep;
            self.accumulator = keep;
        }
        out.alpha = self.accumulator / fixed_dt;
        Ok(out)
    }

    /// The time waiting in [`World::advance`]'s accumulator (seconds).
    #[inline]
    pub fn accumulated_time(&self) -> Real {
        self.accumulator
    }

    /// Stage 1: every body's swept box to the broadphase; nothing without `pass` (the
    /// stepper needs no world pass, and has checked that the boxes fit a periodic domain).
    pub(super) fn update_broadphase(
        &mut self,
        dt: Real,
        pass: bool,
        report: &mut StepReport<S::Report>,
    ) -> Result<(), WorldError> {
        let _span = tracing::trace_span!("broadphase", proxies = self.bodies.len()).entered();
        let g = self.settings.gravity.norm();
        // Gravity moves a dynamic body up to |g| dt^2 further than its start velocity says
        // (semi-implicit Euler applies it before moving); the speculative base is added so a
        // pair that ends the step just apart still gets its speculative contact.
        let pad = self.settings.speculative_distance + g * dt * dt;
        let scratch = &mut self.scratch;
        scratch.moved.clear();
        scratch.motion.clear();
        scratch.images = PeriodicImages::new(&self.settings.domain);
        if !pass {
            report.proxies = self.broadphase.len();
            return Ok(());
        }
        let boxes = BodyBoxes {
            dt,
            pad,
            shape_proxies: &self.shape_proxies,
        };
        #[cfg(feature = "parallel")]
        if scratch.images.is_none()
            && self.bodies.len() >= super::swept_boxes::MIN_BODIES
            && rayon::current_num_threads() >= 2
        {
            let stepper = &self.stepper;
            let awake: Vec<_> = self
                .bodies
                .iter_awake()
                .map(|b| (b, stepper.contact_reach(b.1, g, dt, pad)))
                .collect();
            report.awake_bodies = awake.len();
            boxes.shared(&awake, &mut scratch.moved, &mut scratch.motion)?;
            report.moved_proxies = self.broadphase.update_batch(&scratch.moved)?;
            report.proxies = self.broadphase.len();
            return Ok(());
        }
        report.awake_bodies = 0;
        for (handle, body) in self.bodies.iter_awake() {
            report.awake_bodies += 1;
            let reach = self.stepper.contact_reach(body, g, dt, pad);
            let slot = handle.index as usize;
            if scratch.motion.len() <= slot {
                scratch.motion.resize(slot + 1, (Vector::zeros(), 0.0, 0.0));
            }
            let images = scratch.images.as_mut();
            let motion = &mut scratch.motion[slot];
            boxes.of((handle, body), reach, images, &mut scratch.moved, motion)?;
        }
        report.moved_proxies = self.broadphase.update_batch(&scratch.moved)?;
        report.proxies = self.broadphase.len();
        Ok(())
    }

    /// While most bodies sleep (more asleep than awake and moving), the candidate pairs
    /// with an awake non-static body, into `scratch.awake_pairs`, sorted: the broadphase's
    /// pairs (fat boxes that overlap) that can have a manifold, found by querying each such
    /// body's fat boxes rather than by walking every pair, most of which sleep. Sets
    /// `scratch.use_awake_pairs`; unbounded worlds only (a periodic one finds its pairs
    /// across the sides by its own queries).
    pub(super) fn find_awake_pairs(&mut self) {
        let scratch = &mut self.scratch;
        scratch.use_awake_pairs = false;
        if scratch.images.is_some() || self.bodies.asleep_len() == 0 {
            return;
        }
        let moving = self
            .bodies
            .iter_awake()
            .filter(|(_, b)| b.body_type() != impact_solver::BodyType::Static)
            .count();
        if moving >= self.bodies.asleep_len() {
            return;
        }
        scratch.use_awake_pairs = true;
        scratch.awake_pairs.clear();
        for (handle, body) in self.bodies.iter_awake() {
            if body.body_type() == impact_solver::BodyType::Static {
                continue;
            }
            for proxy in self
                .shape_proxies
                .proxies_of(handle.index, body.shapes().len())
            {
                let Some(fat) = self.broadphase.fat_aabb(proxy) else {
                    continue;
                };
                if self
                    .broadphase
                    .query_aabb(&fat, &mut scratch.candidates)
                    .is_err()
                {
                    continue;
                }
                scratch.awake_pairs.extend(
                    scratch
                        .candidates
                        .iter()
                        .filter(|&&q| q != proxy)
                        .map(|&q| ProxyPair::new(proxy, q)),
                );
            }
        }
        scratch.awake_pairs.sort_unstable_by_key(|p| (p.a, p.b));
        scratch.awake_pairs.dedup();
    }

    /// The pairs of a periodic domain into `scratch.periodic_pairs`, sorted: the
    /// broadphase's, and those that meet across a side, found by querying each box near a
    /// side again translated by a period.
    pub(super) fn find_periodic_pairs(&mut self, images: &PeriodicImages) {
        let size = images.size();
        let scratch = &mut self.scratch;
        scratch.periodic_pairs.extend(
            self.broadphase
                .overlapping_pairs()
                .iter()
                .map(|p| (p.a.0, p.b.0, 0, 0)),
        );
        let mut shifts = [Vector::zeros(); 8];
        for &(proxy, aabb) in &scratch.moved {
            let n = images.shifts(&aabb, &mut shifts);
            for &s in &shifts[..n] {
                if self
                    .broadphase
                    .query_aabb(&shifted(&aabb, &-s), &mut scratch.candidates)
                    .is_err()
                {
                    debug_assert!(false, "a translate of a finite box is finite");
                    continue;
                }
                // `proxy` meets the image of each candidate translated by `s`.
                let (kx, ky) = period_counts(&s, &size);
                for &other in &scratch.candidates {
                    match proxy.0.cmp(&other.0) {
                        core::cmp::Ordering::Less => {
                            scratch.periodic_pairs.push((proxy.0, other.0, kx, ky));
                        }
                        core::cmp::Ordering::Greater => {
                            scratch.periodic_pairs.push((other.0, proxy.0, -kx, -ky));
                        }
                        core::cmp::Ordering::Equal => {}
                    }
                }
            }
        }
        // Both bodies of a pair across a side usually find it: once each.
        scratch.periodic_pairs.sort_unstable();
        scratch.periodic_pairs.dedup();
    }
}

/// Period counts `(kx, ky)` of an image translated by `s` on a domain of `size`.
fn period_counts(s: &Vector, size: &Vector) -> (i8, i8) {
    ((s.x / size.x).round() as i8, (s.y / size.y).round() as i8)
}

/// The first body (in slot order) whose pose or velocities are not finite, as the error a
/// step that left it so returns: a scene beyond the range of `f64` (a disc of radius 1e39
/// striking others, found by the scene fuzzer) can overflow the solver's arithmetic.
fn first_not_finite(bodies: &BodySet) -> Option<WorldError> {
    // A sleeping body does not move: only the awake ones can have left the range.
    #[cfg(feature = "parallel")]
    if bodies.len() >= 2048 && rayon::current_num_threads() >= 2 {
        use rayon::prelude::*;
        // The first awake slot with a body not finite, as the serial scan finds it.
        let slots = bodies.slot_count() as u32;
        let first = (0..slots)
            .into_par_iter()
            .with_min_len(512)
            .find_first(|&i| {
                !bodies.is_asleep_at(i)
                    && bodies
                        .get_by_index(i)
                        .is_some_and(|(h, b)| not_finite(h, b).is_some())
            })?;
        let (h, b) = bodies.get_by_index(first)?;
        return not_finite(h, b);
    }
    bodies.iter_awake().find_map(|(h, b)| not_finite(h, b))
}

/// The error naming the first of body `h`'s pose and velocities that is not finite.
#[inline]
fn not_finite(h: BodyHandle, b: &RigidBody) -> Option<WorldError> {
    let t = b.pose().translation.vector;
    let r = b.pose().rotation;
    let v = b.linvel();
    [
        ("pose.x", t.x),
        ("pose.y", t.y),
        ("pose.rotation.re", r.re),
        ("pose.rotation.im", r.im),
        ("linvel.x", v.x),
        ("linvel.y", v.y),
        ("angvel", b.angvel()),
    ]
    .into_iter()
    .find(|(_, value)| !value.is_finite())
    .map(|(name, value)| WorldError::NotFinite {
        field: format!("bodies[{}].{name}", h.index),
        value,
    })
}
