//! The free bodies a driver carries in a step of [`MotionClamping`](super::MotionClamping).
//!
//! A *driver* is a CCD body that a joint's motor or spring drives (a flipper, a paddle) or a
//! kinematic CCD body, moving past the threshold by its thickness; a *free* body is a
//! dynamic body without joints. The contact solver does not hold a free body on a driver
//! that turns fast: its manifold's normal and points are those of the step's start, and a
//! flipper turning 0.67 rad in a step leaves a disc resting on it sunk into its face by the
//! step's end, then past its middle, and the next steps push it out on the far side. The
//! clamp cannot answer either: stopping the driver where the rebuilt sweeps meet stalls the
//! motor at every push (the spinner's paddle turned at 3 of its motor's 5 rad/s), and
//! stopping the free body lets the driver go on through it.
//!
//! So a driver is never stopped by a free body (neither by its own time of impact with it
//! nor as a body that would run over it), and a free body the driver passed into is
//! *carried*: judged at the poses the step ends at, a pair whose overlap is deeper than the
//! slack a held contact has (the tolerance, or a quarter of the smaller bounding radius
//! against a body with area) or whose normal turned round is given, from the moment the two
//! met (0 for a pair touching at the start; else their time of impact along the rebuilt
//! motions, or where the free body stopped if that came first), the driver's motion: the free
//! body keeps its pose relative to the driver from then to the end of the step, and ends at
//! the velocity of the driver's point where it rests, turning as the driver does, as
//! `FirstTimeOfImpact`'s carry does (`first_toi/carry.rs`). Its overlap with the driver at
//! the end is the one it had when they met, so it never deepens from step to step. A free
//! body that is checked still stops against a driver it meets (a ball that would tunnel
//! through a flipper), and is carried from there if the driver then comes on into it.
//!
//! The carried course is checked against the static and kinematic bodies it passes (other
//! than the driver): a free body squeezed between a driver and a wall stops where it meets
//! the wall, at the target separation, and the driver goes on into it, as the peers' soft
//! contacts let it (a rigid wedge would stall the motor whatever its torque). What else it
//! meets on that course, another free body, is the contact solver's at the next step.

use super::{MotionClampingSettings, Scratch, reset};
use crate::domain::{PeriodicImages, translated, translated_sweep};
use crate::motion::{ShapeRules, for_each_pair, pair_toi, round_about_centre, turned_round};
use crate::report::{ClampReport, ClampedBody};
use crate::shape_proxies::ShapeProxies;
use crate::step_log::CourseLog;
use impact_broadphase::Broadphase;
use impact_geometry::{Isometry, Real, Shape, Sweep, Vector, perp};
use impact_narrowphase::{Toi, distance};
use impact_solver::{BodyHandle, BodySet, RigidBody};

/// Where the carry looks for what a carried course meets: the broadphase (every body's box
/// over the step), the images of a periodic domain, and the body of each proxy.
pub(super) type Search<'a, B> = (&'a B, Option<&'a PeriodicImages>, &'a ShapeProxies);

impl Scratch {
    /// Carries every free body a driver passed into (see the module docs), after the clamp
    /// has put every body where it ends: its pose and velocity replaced, its courses recorded
    /// anew in `courses`, and its clamp, if it had one, dropped from `report`.
    pub(super) fn carry_pushed<B: Broadphase>(
        &mut self,
        settings: &MotionClampingSettings,
        (bodies, rules, courses): (&mut BodySet, ShapeRules<'_>, &mut CourseLog),
        search: Search<'_, B>,
        dt: Real,
        report: &mut ClampReport,
    ) {
        if self.driver_pairs.is_empty() {
            return;
        }
        self.stall_wedged(settings, (bodies, rules, search), courses, dt, report);
        reset(&mut self.carried_by, self.start.len(), None);
        for i in 0..self.driver_pairs.len() {
            let (d, f, shift) = self.driver_pairs[i];
            if self.carried_by[f as usize].is_some() {
                continue;
            }
            let Some(mut carry) = self.carry_of(settings, (bodies, rules), (d, f, shift)) else {
                continue;
            };
            let (Some(hd), Some(hf), Some(sweep)) = (
                self.handles[d as usize],
                self.handles[f as usize],
                self.sweeps[f as usize],
            ) else {
                continue;
            };
            let stop = self.wall_on(settings, (bodies, rules, search), (hd, hf), &carry);
            if let Some((g, _)) = stop {
                carry.stop_at(g);
            }
            let Some(body) = bodies.get_mut(hf) else {
                continue;
            };
            if body.set_pose(translated(&carry.end, &-shift)).is_err() {
                continue;
            }
            // Refused only past the range of `f64`: the body keeps its own.
            let _ = body.set_velocity(carry.velocity.0, carry.velocity.1);
            self.carried_by[f as usize] = Some(d);
            report.carried += 1;
            if let Some(i) = report.clamped.iter().position(|c| c.body == hf) {
                let stop = report.clamped.remove(i);
                report.time_lost -= stop.time_lost;
            }
            if stop.is_some() {
                let fraction = carry.fraction();
                let time_lost = (1.0 - fraction) * dt;
                let at = report.clamped.partition_point(|c| c.body.index < hf.index);
                let clamped = ClampedBody {
                    body: hf,
                    fraction,
                    time_lost,
                };
                report.clamped.insert(at, clamped);
                report.time_lost += time_lost;
            }
            if courses.is_recording() {
                record_carry(courses, (hf, sweep), &carry, (shift, dt));
            }
        }
    }

    /// Stops every dynamic driver that would squeeze a free body into a static or kinematic
    /// body where that body meets it (a rigid wedge stalls a motor whatever its torque),
    /// with the velocities the solver gave it, and reports it as clamped. The carries are
    /// then found from where the drivers stop.
    fn stall_wedged<B: Broadphase>(
        &mut self,
        settings: &MotionClampingSettings,
        (bodies, rules, search): (&mut BodySet, ShapeRules<'_>, Search<'_, B>),
        courses: &mut CourseLog,
        dt: Real,
        report: &mut ClampReport,
    ) {
        reset(&mut self.stalled, self.start.len(), 1.0);
        let mut any = false;
        for i in 0..self.driver_pairs.len() {
            let (d, f, shift) = self.driver_pairs[i];
            let (Some(hd), Some(hf)) = (self.handles[d as usize], self.handles[f as usize]) else {
                continue;
            };
            if !bodies.get(hd).is_some_and(RigidBody::is_dynamic) {
                continue;
            }
            let Some(mut carry) = self.carry_of(settings, (&*bodies, rules), (d, f, shift)) else {
                continue;
            };
            if let Some((g, normal)) =
                self.wall_on(settings, (&*bodies, rules, search), (hd, hf), &carry)
                && head_on(&carry.course, normal)
            {
                carry.stop_at(g);
                let stall = &mut self.stalled[d as usize];
                *stall = stall.min(carry.fraction());
                any = true;
            }
        }
        if !any {
            return;
        }
        for slot in 0..self.stalled.len() {
            let at = self.stalled[slot];
            let (Some(handle), Some(sweep)) = (self.handles[slot], self.sweeps[slot]) else {
                continue;
            };
            if at >= self.fraction_of(handle) {
                continue;
            }
            let Some(body) = bodies.get_mut(handle) else {
                continue;
            };
            if body.set_pose(sweep.pose_at(at)).is_err() {
                continue;
            }
            report.stalled_drivers += 1;
            let time_lost = (1.0 - at) * dt;
            if courses.is_recording() {
                courses.forget(handle);
                courses.record(handle, 0.0, sweep);
                let still = Sweep::new(
                    *body.pose(),
                    sweep.local_center(),
                    Vector::zeros(),
                    0.0,
                    time_lost,
                );
                if let Ok(still) = still {
                    courses.record(handle, at * dt, still);
                }
            }
            match report
                .clamped
                .binary_search_by_key(&handle.index, |c| c.body.index)
            {
                Ok(i) => {
                    report.time_lost += time_lost - report.clamped[i].time_lost;
                    report.clamped[i].fraction = at;
                    report.clamped[i].time_lost = time_lost;
                }
                Err(i) => {
                    let clamped = ClampedBody {
                        body: handle,
                        fraction: at,
                        time_lost,
                    };
                    report.clamped.insert(i, clamped);
                    report.time_lost += time_lost;
                }
            }
            match self
                .clamps
                .binary_search_by_key(&handle.index, |c| c.0.index)
            {
                Ok(i) => self.clamps[i].1 = at,
                Err(i) => self.clamps.insert(i, (handle, at)),
            }
        }
    }

    /// The earliest fraction of the carried course of `carry` (the free body of `hf`, carried
    /// by the driver of `hd`) at which it meets a static or kinematic body other than the
    /// driver, `None` if it meets none.
    fn wall_on<B: Broadphase>(
        &mut self,
        settings: &MotionClampingSettings,
        (bodies, rules, (broadphase, periodic, shapes)): (&BodySet, ShapeRules<'_>, Search<'_, B>),
        (hd, hf): (BodyHandle, BodyHandle),
        carry: &Carry,
    ) -> Option<(Real, Option<Vector>)> {
        let free = bodies.get(hf)?;
        let pad = settings.toi.target_separation() + settings.toi.tolerance();
        let aabb = free.swept_aabb(&carry.course).inflated(pad);
        let (mut query, mut found) = (
            core::mem::take(&mut self.carry_query),
            core::mem::take(&mut self.carry_found),
        );
        let ok = PeriodicImages::query_swept(
            periodic,
            broadphase,
            &aabb,
            &Vector::zeros(),
            &mut query,
            &mut found,
        );
        let mut earliest: Option<(Real, Option<Vector>)> = ok.is_err().then_some((0.0, None));
        let mut last: Option<(BodyHandle, Vector)> = None;
        for &(proxy, image) in &found {
            let Some(other) = shapes.shape_of(proxy).map(|s| s.body) else {
                continue;
            };
            // A body's shapes are met together, once per image.
            if other == hd || other == hf || last == Some((other, image)) {
                continue;
            }
            last = Some((other, image));
            let Some(body) = bodies.get(other).filter(|b| !b.is_dynamic()) else {
                continue;
            };
            let Some(course) = self.course_from(other, body, carry, image) else {
                continue;
            };
            let admit = |pair| rules.admits(bodies, (hf, free), (other, body), pair);
            let (toi, _) = pair_toi((free, &carry.course), (body, &course), admit, &settings.toi);
            // An overlap at the start of the carry is a stop there.
            let g = toi.safe_fraction().unwrap_or(0.0).clamp(0.0, 1.0);
            if toi != Toi::Separated && earliest.is_none_or(|(e, _)| g < e) {
                earliest = Some((g, toi.hit().map(|hit| hit.normal)));
            }
        }
        self.carry_query = query;
        self.carry_found = found;
        earliest
    }

    /// The course of the static or kinematic `body` of `handle` over the carry of `carry`
    /// (the rest of its rebuilt motion from where the carry starts), its image translated by
    /// `image`.
    fn course_from(
        &self,
        handle: BodyHandle,
        body: &RigidBody,
        carry: &Carry,
        image: Vector,
    ) -> Option<Sweep> {
        let (met, _) = carry.from;
        let rest = carry.course.dt();
        let course = match self.sweeps.get(handle.index as usize).copied().flatten() {
            Some(sweep) if met < 1.0 => sweep.remainder_from(met).ok()?,
            _ => Sweep::new(
                *body.pose(),
                body.local_center(),
                Vector::zeros(),
                0.0,
                rest,
            )
            .ok()?,
        };
        translated_sweep(&course, &image)
    }

    /// Where the free body of slot `f` ends if the driver of slot `d` carries it (the
    /// free body's image translated by `shift`), or `None` if the driver did not pass into it.
    fn carry_of(
        &self,
        settings: &MotionClampingSettings,
        (bodies, rules): (&BodySet, ShapeRules<'_>),
        (d, f, shift): (u32, u32, Vector),
    ) -> Option<Carry> {
        let (hd, hf) = (self.handles[d as usize]?, self.handles[f as usize]?);
        let (driver, free) = (bodies.get(hd)?, bodies.get(hf)?);
        let sd = self.sweeps[d as usize]?;
        let sf = translated_sweep(&self.sweeps[f as usize]?, &shift)?;
        let (ed, ef) = (self.fraction_of(hd), self.fraction_of(hf));
        let ends = (*driver.pose(), translated(free.pose(), &shift));
        let admit = |pair| rules.admits(bodies, (hd, driver), (hf, free), pair);
        let pad = settings.toi.target_separation() + settings.toi.tolerance();
        // Whether the driver passed into the free body, and whether they touched at the start.
        let (mut passed, mut touching) = (false, false);
        for_each_pair((driver, &sd), (free, &sf), pad, admit, |_, a, b| {
            let start = distance(a, &sd.pose_at(0.0), b, &sf.pose_at(0.0));
            touching |= start.distance <= pad;
            passed |= passed_into(settings, (driver, a, &sd, &ends.0), (free, b, &sf, &ends.1));
        });
        if !passed {
            return None;
        }
        let met = if touching {
            0.0
        } else {
            let (toi, _) = pair_toi((free, &sf), (driver, &sd), swapped(&admit), &settings.toi);
            // Without a time (a pair that never met along the rebuilt motions, which the
            // driver ran into where the free body stopped), from where it stopped.
            let unknown = if ef < 1.0 { ef } else { 0.0 };
            match toi {
                Toi::Overlapping => 0.0,
                toi => toi.safe_fraction().map_or(unknown, |s| s.clamp(0.0, 1.0)),
            }
        };
        let met = met.min(ef);
        let at = sf.pose_at(met);
        let end = ends.0 * (sd.pose_at(met.min(ed)).inverse() * at);
        let (v, w) = (driver.linvel(), driver.angvel());
        let arm = end * free.local_center() - ends.0 * driver.local_center();
        let rest = ((1.0 - met) * sd.dt()).max(Real::MIN_POSITIVE);
        let lc = free.local_center();
        let turn = sd.angvel() * sd.dt() * (ed - met.min(ed));
        let course = Sweep::new(at, lc, (end * lc - at * lc) / rest, turn / rest, rest).ok()?;
        Some(Carry {
            from: (met, at),
            course,
            end,
            velocity: (v + perp(&arm) * w, w),
            stop: 1.0,
        })
    }

    /// The fraction at which the clamp left the body of `handle` (1 if it was not clamped);
    /// the clamps are sorted by slot.
    fn fraction_of(&self, handle: BodyHandle) -> Real {
        self.clamps
            .binary_search_by_key(&handle.index, |c| c.0.index)
            .map_or(1.0, |i| self.clamps[i].1.min(1.0))
    }
}

/// A free body's carry: from `(fraction, pose)` on its own motion (its image's) on the
/// straight `course` to `end` (its image's), turning as the driver does, and leaving with
/// `velocity`, the driver's end velocity at its centre; `stop` of the way along the course
/// if a wall stopped it there (else 1).
struct Carry {
    from: (Real, Isometry),
    course: Sweep,
    end: Isometry,
    velocity: (Vector, Real),
    stop: Real,
}

impl Carry {
    /// Ends the carry `g` of the way along its course, where the body met a wall.
    fn stop_at(&mut self, g: Real) {
        self.end = self.course.pose_at(g);
        self.stop = g;
    }

    /// How far into the step the carried body got, as a fraction of the step: its end, or
    /// where a wall stopped it.
    fn fraction(&self) -> Real {
        let (met, _) = self.from;
        (met + self.stop * (1.0 - met)).min(1.0)
    }
}

/// The shape-pair rule of `admit` (driver first) with the free body first.
fn swapped(admit: &impl Fn([u32; 2]) -> bool) -> impl Fn([u32; 2]) -> bool + '_ {
    move |[i, j]| admit([j, i])
}

/// Whether the driver's shape `a` passed into the free body's shape `b` over the step (each
/// with its body, its rebuilt sweep and its end pose): at their end poses they overlap by
/// more than the slack a held contact has, or their normal turned round in the driver's
/// frame (in the world's, for a disc about its centre).
fn passed_into(
    settings: &MotionClampingSettings,
    (driver, a, sd, end_d): (&RigidBody, &Shape, &Sweep, &Isometry),
    (free, b, sf, end_f): (&RigidBody, &Shape, &Sweep, &Isometry),
) -> bool {
    let end = distance(a, end_d, b, end_f);
    let flat = |s: &Shape| matches!(s, Shape::Segment(_) | Shape::ChainSegment(_));
    let slack = if flat(a) || flat(b) {
        settings.toi.tolerance()
    } else {
        settings.toi.tolerance().max(
            0.25 * driver
                .bounding_radius(&driver.local_center())
                .min(free.bounding_radius(&free.local_center())),
        )
    };
    if end.distance < -slack {
        return true;
    }
    let (d0, f0) = (sd.pose_at(0.0), sf.pose_at(0.0));
    let start = distance(a, &d0, b, &f0);
    if round_about_centre(driver) {
        // A disc's turn moves none of it: its frame tells no side.
        return turned_round(
            end.normal,
            start.normal,
            (driver, &d0, end_d),
            (free, &f0, end_f),
        );
    }
    // The side of the driver the free body lies on, in the driver's own frame: a flipper
    // turning 2.6 rad in a step swept a disc from its top face to below it while the normal
    // between them turned by less than a right angle in the world.
    (end_d.rotation.inverse() * end.normal).dot(&(d0.rotation.inverse() * start.normal)) < 0.0
}

/// Records the courses of a carried body (`handle`, on its rebuilt `sweep`): its own motion
/// to where the carry took it, then its carried course, over a step of `dt` seconds, its
/// image translated by `shift` (and standing where it stopped, if a wall stopped it).
fn record_carry(
    courses: &mut CourseLog,
    (handle, sweep): (BodyHandle, Sweep),
    carry: &Carry,
    (shift, dt): (Vector, Real),
) {
    courses.forget(handle);
    courses.record(handle, 0.0, sweep);
    let (met, _) = carry.from;
    let Some(course) = translated_sweep(&carry.course, &-shift) else {
        return;
    };
    let leg = Sweep::new(
        course.start(),
        course.local_center(),
        course.linvel(),
        course.angvel(),
        course.dt() * carry.stop,
    );
    if let Ok(leg) = leg {
        courses.record(handle, met * dt, leg);
    }
    let stopped = carry.fraction();
    if stopped < 1.0 {
        let rest = (1.0 - stopped) * dt;
        let end = translated(&carry.end, &-shift);
        if let Ok(still) = Sweep::new(end, course.local_center(), Vector::zeros(), 0.0, rest) {
            courses.record(handle, stopped * dt, still);
        }
    }
}

/// Whether a carried `course` meets a wall along `normal` (from the carried body toward the
/// wall) head on: its centre heads into the wall at more than [`HEAD_ON_COS`] of its speed.
/// A course that meets a wall at a glancing angle (the spinner's paddle sweeping a body along
/// its ring) slides the body along it; one that meets it head on (a flipper lifting a disc into
/// a ceiling) is a wedge. `false` where the meeting has no normal.
fn head_on(course: &Sweep, normal: Option<Vector>) -> bool {
    let v = course.linvel();
    normal.is_some_and(|n| v.dot(&n) > HEAD_ON_COS * v.norm())
}

/// The cosine of the largest angle between a carried course and a wall's normal at which
/// the wall stops the driver (45 degrees).
const HEAD_ON_COS: Real = core::f64::consts::FRAC_1_SQRT_2;
