//! The search of [`MotionClamping`](super::MotionClamping): which bodies are checked, the
//! box of every body's motion over the step, and the pairs whose boxes meet with a checked
//! body in them; and the net under the contact solver's pairs.
//!
//! The candidates of all checked bodies come from one pair search over every body's motion
//! box (a sort and sweep along the axis on which the boxes overlap least; in a periodic
//! domain the wrapped cells of `grid`), not from a broadphase query per body: the world's
//! broadphase knows the other bodies only by the boxes of their start velocities, and a tree
//! descent per fast body cost more than the whole search. The net stops a pair the soft
//! solver pushed through each other, which no time of impact sees (the pair overlaps at the
//! start), and sends it off moving as one body, or it is pushed through again at every step.

use super::{MotionClampingSettings, Scratch, reset};
use crate::grid::ReachGrid;
use crate::motion::{
    ShapeRules, is_finite, motion_scale, move_pair_as_one, moves_past_threshold, never_collides,
    pushed_through,
};
use crate::report::ClampReport;
use crate::sweep_pairs::SweepPairs;
use impact_geometry::{Aabb, Isometry, Point, Real, Vector};
use impact_solver::{BodyHandle, BodySet, BodyType, ContactPair};

impl Scratch {
    /// Which bodies are checked (fast at the start, or a dynamic CCD body whose motion to
    /// its target passes the velocity threshold), and the box of every body's motion: a
    /// checked body meets a candidate only if their boxes meet (the checked one's padded by
    /// the target separation and the tolerance).
    pub(super) fn check_bodies(
        &mut self,
        settings: &MotionClampingSettings,
        bodies: &BodySet,
        dt: Real,
        report: &mut ClampReport,
    ) {
        let pad = settings.toi.target_separation() + settings.toi.tolerance();
        let slots = self.sweeps.len();
        reset(&mut self.boxes, slots, None);
        reset(&mut self.handles, slots, None);
        reset(&mut self.checked, slots, false);
        reset(&mut self.earliest, slots, 1.0);
        reset(&mut self.driver, slots, false);
        reset(&mut self.pusher, slots, false);
        self.drivers = 0;
        self.pushers = 0;
        for (handle, body) in bodies.iter_awake() {
            let slot = handle.index as usize;
            let Some(sweep) = self.sweeps[slot] else {
                continue;
            };
            if never_collides(body) {
                // A sensor never collides: it is no candidate and not checked, and the pair
                // search runs over the same boxes as without it.
                continue;
            }
            let driven = self.driven.get(slot) == Some(&true);
            let past = |r: Real| {
                moves_past_threshold(
                    settings.threshold_radii_per_step,
                    (sweep.linvel().norm(), sweep.angvel()),
                    r,
                    dt,
                )
            };
            let checked = self.fast[slot]
                || body.is_dynamic()
                    && body.ccd()
                    && past(if driven {
                        motion_scale(body)
                    } else {
                        body.bounding_radius(&body.local_center())
                    });
            // A driver is judged by how far its rim moves against its thickness: a paddle 40
            // long and 1.2 thick turning at 5 rad/s sweeps its tip 1.7 a step through what
            // it pushes, though it turns 0.08 rad.
            let kinematic = body.body_type() == BodyType::Kinematic;
            let pusher = body.ccd() && (driven && body.is_dynamic() || kinematic);
            self.pusher[slot] = pusher;
            self.pushers += usize::from(pusher);
            let driver = pusher
                && (sweep.linvel().norm()
                    + sweep.angvel().abs() * body.bounding_radius(&body.local_center()))
                    * dt
                    > settings.threshold_radii_per_step * motion_scale(body);
            self.driver[slot] = driver;
            self.drivers += usize::from(driver);
            let mut aabb = body.swept_aabb(&sweep);
            if checked {
                report.checked_bodies += 1;
                aabb = aabb.inflated(pad);
            } else if driver {
                aabb = aabb.inflated(pad);
            }
            if !is_finite(&aabb) {
                // A box that overflows (a body at an absurd distance): a checked body does
                // not move unchecked.
                if checked {
                    self.clamps.push((handle, 0.0));
                }
                continue;
            }
            self.boxes[slot] = Some(aabb);
            self.handles[slot] = Some(handle);
            self.checked[slot] = checked;
        }
        // The free bodies matter only beside a pusher (most steps have none).
        self.free.clear();
        if self.pushers > 0 {
            reset(&mut self.free, slots, false);
            for (handle, body) in bodies.iter_awake() {
                let slot = handle.index as usize;
                self.free[slot] = body.is_dynamic()
                    && self.boxes[slot].is_some()
                    && self.jointed.get(slot) != Some(&true);
            }
        }
    }

    /// The net under the contact solver's pairs (see [`pushed_through`]): a pair of
    /// `contacts` it pushed through each other stays where it was (its dynamic bodies
    /// clamped at 0) and leaves moving as one body.
    pub(super) fn stop_pushed_through(
        &mut self,
        settings: &MotionClampingSettings,
        bodies: &mut BodySet,
        contacts: &[ContactPair],
        dt: Real,
        report: &mut ClampReport,
    ) {
        let pad = settings.toi.target_separation() + settings.toi.tolerance();
        let scratch = self;
        // A contact the solver held must not end on the far side, which no time of impact
        // sees (the pair overlaps at the start): both bodies stay where they were. A pair
        // apart at the start is the time of impact's when one of its bodies is checked: it
        // stops that body at the contact instead of where it was. A pair of bodies neither
        // of which is checked is the solver's alone, apart or not: a pile pressing a slow
        // stick onto a segment it was still a centimetre above pushed it through the floor
        // of the tumbling rain (seed 1, step 47).
        let checked = |h: BodyHandle| scratch.checked.get(h.index as usize) == Some(&true);
        for c in contacts {
            let dynamic = |h: BodyHandle| bodies.get(h).is_some_and(|b| b.is_dynamic());
            let timed = c.manifold.min_separation() > pad && (checked(c.a) || checked(c.b));
            // A free body a driver pushes through is the carry's: stopped, the driver would
            // stall at every push (see `carry`).
            if scratch.driver_pair(c.a.index, c.b.index) {
                continue;
            }
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
                        bodies,
                        (&scratch.start_velocity, &scratch.start),
                        c,
                        settings.toi.tolerance() / dt,
                    ));
            if !timed && !inside && pushed_through(bodies, &scratch.start, c, pad, dt) {
                report.crossings_stopped += 1;
                for handle in [c.a, c.b] {
                    if bodies.get(handle).is_some_and(|b| b.is_dynamic()) {
                        scratch.clamps.push((handle, 0.0));
                    }
                }
                // Clamped with the velocities that pushed them through, the pair is pushed
                // through again at the next step: in the tumbling rain, 20 to 30 of 1,000
                // bodies hung in mid-air that way (see `move_pair_as_one`).
                move_pair_as_one(bodies, &scratch.start, c);
            }
        }
    }

    /// Every pair of motion boxes that meet with a checked body in it and that `rules` allow,
    /// into `candidates`: through the grid's wrapped cells with the domain's `period`, by a
    /// sort and sweep without one.
    pub(super) fn find_candidates(
        &mut self,
        period: Option<Vector>,
        rules: ShapeRules<'_>,
        bodies: &BodySet,
    ) {
        let scratch = self;
        scratch.candidates.clear();
        scratch.driver_pairs.clear();
        let (checked, candidates) = (&scratch.checked, &mut scratch.candidates);
        let (driver, free, driver_pairs) =
            (&scratch.driver, &scratch.free, &mut scratch.driver_pairs);
        let (handles, open) = (&scratch.handles, !rules.rules.filters_pairs());
        let member = |slot: u32| {
            let handle = handles.get(slot as usize).copied().flatten()?;
            Some((handle, bodies.get(handle)?))
        };
        let admits = |x: u32, y: u32| match (member(x), member(y)) {
            (Some(bx), Some(by)) => rules.admits_bodies(bodies, handles, bx, by),
            _ => true,
        };
        let search = (
            &mut scratch.grid,
            &mut scratch.sweep,
            scratch.boxes.as_slice(),
            &mut scratch.found,
        );
        if scratch.drivers == 0 {
            // Most steps have no driver: the search pays nothing for them.
            return pairs_in(period, search, |x, y, shift| {
                let (check_x, check_y) = (checked[x as usize], checked[y as usize]);
                if !(check_x || check_y) || !open && !admits(x, y) {
                    return;
                }
                if check_x {
                    candidates.push((x, y, shift));
                }
                if check_y {
                    candidates.push((y, x, -shift));
                }
            });
        }
        pairs_in(period, search, |x, y, shift| {
            let (check_x, check_y) = (checked[x as usize], checked[y as usize]);
            let (drives_x, drives_y) = (driver[x as usize], driver[y as usize]);
            if !(check_x || check_y || drives_x || drives_y) || !open && !admits(x, y) {
                return;
            }
            // A driver does not stop against a free body: the carry follows that pair. The
            // free body, if checked, still stops against the driver where they meet, so one
            // that would tunnel through it does not.
            if drives_x && free[y as usize] {
                driver_pairs.push((x, y, shift));
                if check_y {
                    candidates.push((y, x, -shift));
                }
            } else if drives_y && free[x as usize] {
                driver_pairs.push((y, x, -shift));
                if check_x {
                    candidates.push((x, y, shift));
                }
            } else {
                if check_x {
                    candidates.push((x, y, shift));
                }
                if check_y {
                    candidates.push((y, x, -shift));
                }
            }
        });
    }
}

/// The pair search's parts: the grid of a periodic domain, the sort and sweep, every body's
/// motion box by slot, and the grid's buffer.
type Search<'a> = (
    &'a mut ReachGrid,
    &'a mut SweepPairs,
    &'a [Option<Aabb>],
    &'a mut Vec<(u32, Vector)>,
);

/// Calls `found` with every pair of slots whose boxes meet and the translation of the
/// second's image: through the grid's wrapped cells with the domain's `period`, by the sort
/// and sweep without one.
fn pairs_in(
    period: Option<Vector>,
    (grid, sweep, boxes, buffer): Search<'_>,
    mut found: impl FnMut(u32, u32, Vector),
) {
    match period {
        // Images of boxes across the period: the grid's wrapped cells find them.
        Some(_) => {
            grid.build(boxes, Point::origin(), period);
            grid.pairs(boxes, buffer, found);
        }
        None => sweep.pairs(boxes, |x, y| found(x, y, Vector::zeros())),
    }
}

/// Whether the bodies of `c` had, at the start of the step (`velocities` and `poses`, by
/// slot), one rigid motion to within `speed` at its manifold points (world units per second)
/// and the same angular velocity.
fn moving_as_one(
    bodies: &BodySet,
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

impl Scratch {
    /// Whether the bodies of slots `a` and `b` are a driver and a free body (see
    /// [`Scratch::check_bodies`]), a pair the carry follows.
    #[inline]
    pub(super) fn driver_pair(&self, a: u32, b: u32) -> bool {
        if self.drivers == 0 {
            return false;
        }
        let flag = |v: &[bool], slot: u32| v.get(slot as usize) == Some(&true);
        flag(&self.driver, a) && flag(&self.free, b) || flag(&self.driver, b) && flag(&self.free, a)
    }

    /// Whether the body of slot `runner` is a pusher and that of `stopped` a free body (see
    /// [`Scratch::check_bodies`]): the run-over rule lets the pusher go on.
    #[inline]
    pub(super) fn pushes_free(&self, runner: u32, stopped: u32) -> bool {
        if self.pushers == 0 {
            return false;
        }
        let flag = |v: &[bool], slot: u32| v.get(slot as usize) == Some(&true);
        flag(&self.pusher, runner) && flag(&self.free, stopped)
    }
}
