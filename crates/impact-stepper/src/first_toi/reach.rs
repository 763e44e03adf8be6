//! Reaches and neighbour lists: which bodies a plan of
//! [`FirstTimeOfImpact`](super::FirstTimeOfImpact) asks at all.
//!
//! Each body's *reach* is a box holding every place its shape can go in the step, with room
//! for course changes; two bodies can only meet if their reaches do. One pair search over the
//! reach boxes at the start of the step (a sort and sweep; in a periodic domain the wrapped
//! grid of [`grid`](crate::grid)) gives every body its neighbour list, so a plan reads a short
//! list rather than query a broadphase built for the start velocities, and the search is made
//! once per step, not once per impact. A course that leaves its reach grows the reach and asks
//! the grid for the new neighbours. With a skin
//! ([`reach_skin`](crate::FirstTimeOfImpactSettings::reach_skin)) a body's reach is a box about
//! where it is, and the queue holds its *escape*, when it leaves, so the lists stay the exact
//! pairs of reaches that meet however long the step.

use super::plan::Planning;
use super::queue::{Due, Entry};
use super::state::{Hot, Run, Scratch};
use crate::domain::{PeriodicImages, shifted};
use crate::motion::ShapeRules;
use crate::motion::{is_finite, pose_on_course};
use impact_geometry::{Aabb, Isometry, Point, Real, Sweep, Vector};
use impact_solver::{BodyHandle, BodySet, RigidBody};

/// How much room a reach box leaves for course changes: it is the swept box of the body's
/// course grown on every side by this fraction of the distance the course covers. Larger
/// means longer neighbour lists (more time-of-impact queries per plan), smaller means more
/// courses that leave their reach (a grid query each). Most fast bodies never change
/// course in a step, and the room they would leave mostly lists pairs that are never
/// asked: in the rain at 1,000 discs a tenth costs about 100 reach escapes per step
/// against 25 for a half, and saves a sixth of the step's work in the pair search and
/// the plans' longer lists. 0.03 does better still: at 10,000 discs it finds 29% fewer
/// pairs at the start for 1.7 times the escapes, 3% fewer instructions per step than a
/// tenth, and no room at all costs more (2.6 times the escapes). The same pairs are asked
/// whatever the room: the rain's results are the same, bit for bit (it was run with 0.015 to
/// 0.1, and with [`REACH_SKIN_RADII`] 0 to 1, to the same results).
const REACH_SKIN: Real = 0.03;

/// ...and by this many of the body's bounding radii, so that a slow body has room too: a
/// body at rest, whose reach is otherwise its box, left it at the first knock (in the rain
/// of 1,000 discs most escapes were of slow discs nudged by a few centimetres). Half a
/// radius: 2.5% off the rain's step at 1,000 discs and 2.7% at 10,000, 1% off the tumbling
/// rain's (callgrind, instructions with branch and cache misses); 0.25 to 1 were within 1%
/// of each other.
const REACH_SKIN_RADII: Real = 0.5;

/// The reach box of `body` on `sweep` (see [`Scratch::reach`]): its padded swept box
/// `swept`, grown by [`REACH_SKIN`] of the course's length and [`REACH_SKIN_RADII`] of its
/// bounding radius if that keeps it within half a period of a periodic domain.
pub(super) fn reach(
    body: &RigidBody,
    swept: Aabb,
    sweep: &Sweep,
    periodic: Option<&PeriodicImages>,
) -> Aabb {
    let r = body.bounding_radius(&sweep.local_center());
    let length = sweep.displacement().norm() + sweep.angvel().abs() * sweep.dt() * r;
    let grown = swept.inflated(REACH_SKIN * length + REACH_SKIN_RADII * r);
    if is_finite(&grown) && periodic.is_none_or(|images| images.fits(&grown)) {
        grown
    } else {
        swept
    }
}

/// With a positive `skin`, the skin reach of `body` at `pose`: its *anchor*, the box its
/// centre of mass may roam (`skin` bounding radii each way), and the reach around it (the
/// anchor grown by the radius and `pad`), which holds the body's shape until the centre
/// leaves the anchor, whatever its rotation. `None` without a skin, for a body without
/// extent, and for a reach that would overflow or not fit a periodic domain.
pub(super) fn skin_reach(
    body: &RigidBody,
    pose: &Isometry,
    skin: Real,
    pad: Real,
    periodic: Option<&PeriodicImages>,
) -> Option<(Aabb, Aabb)> {
    let center = body.local_center();
    let r = body.bounding_radius(&center);
    let room = Vector::repeat(skin * r);
    if !(room.x > 0.0 && room.x.is_finite()) {
        return None;
    }
    let c = pose * center;
    let anchor = Aabb::new(c - room, c + room);
    let around = anchor.inflated(r + pad);
    (is_finite(&around) && periodic.is_none_or(|images| images.fits(&around)))
        .then_some((anchor, around))
}

/// Which pairs may enter a neighbour list: those the step's rules allow (a pair they keep
/// apart is never planned, so it has no impact and no event).
#[derive(Debug, Clone, Copy)]
pub(super) struct Admit<'a> {
    rules: ShapeRules<'a>,
    bodies: &'a BodySet,
    proxies: &'a [Option<BodyHandle>],
    /// Every pair is allowed: the rules need not be asked.
    open: bool,
}

impl<'a> Admit<'a> {
    pub(super) fn new(
        rules: ShapeRules<'a>,
        bodies: &'a BodySet,
        proxies: &'a [Option<BodyHandle>],
    ) -> Self {
        Self {
            rules,
            bodies,
            proxies,
            open: !rules.rules.filters_pairs(),
        }
    }

    /// Whether the pair of slots `x` and `y` may be listed: some pair of their shapes may
    /// collide.
    #[inline]
    fn admits(&self, x: u32, y: u32) -> bool {
        if self.open {
            return true;
        }
        let member = |slot: u32| {
            let handle = self.proxies.get(slot as usize).copied().flatten()?;
            Some((handle, self.bodies.get(handle)?))
        };
        match (member(x), member(y)) {
            (Some(bx), Some(by)) => self.rules.admits_bodies(self.bodies, self.proxies, bx, by),
            _ => self.rules.rules.allows(self.bodies, self.proxies, x, y),
        }
    }
}

/// Records that `x` meets the image of `y` translated by `shift`: in the list of `x`, and in
/// that of `y` if it keeps one (it has a reach and is not static), unless already there.
fn add_neighbours(
    lists: &mut [Vec<Neighbour>],
    reach: &[Option<Aabb>],
    hot: &[Hot],
    x: usize,
    y: usize,
    shift: Vector,
    period: Option<Vector>,
) {
    if x == y || y >= lists.len() {
        return;
    }
    // The lists of the bodies that keep one are symmetric: every pair goes into both at
    // once (here, at the start of the step, and at a skin escape, which also takes a body
    // out of its old neighbours' lists). So a pair in the list of `x`, which is in cache
    // and short, is in that of `y`, which is all over memory, and one that is not is in
    // neither.
    let there = Neighbour::new(y as u32, shift, period);
    if lists[x].contains(&there) {
        return;
    }
    lists[x].push(there);
    let back = Neighbour::new(x as u32, -shift, period);
    if reach[y].is_some() && !hot[y].fixed {
        debug_assert!(!lists[y].contains(&back), "neighbour lists are symmetric");
        lists[y].push(back);
    }
}

/// An entry of a neighbour list: the slot, and the image it is met through as whole periods
/// on each axis (8 bytes rather than a slot and a vector's 24: the lists of a large gas
/// are read at every plan and should stay in cache).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Neighbour {
    pub(super) slot: u32,
    pub(super) periods: [i8; 2],
}

impl Neighbour {
    /// `slot` met through the image translated by `shift` (whole periods of `period`).
    pub(super) fn new(slot: u32, shift: Vector, period: Option<Vector>) -> Self {
        let periods = match period {
            Some(size) if shift != Vector::zeros() => [
                (shift.x / size.x).round() as i8,
                (shift.y / size.y).round() as i8,
            ],
            _ => [0, 0],
        };
        Self { slot, periods }
    }

    /// The translation of the image: exactly the shift it was made from (a period times
    /// -1, 0 or 1 is exact).
    #[inline]
    pub(super) fn shift(self, period: Option<Vector>) -> Vector {
        match (self.periods, period) {
            ([0, 0], _) | (_, None) => Vector::zeros(),
            ([kx, ky], Some(size)) => Vector::new(Real::from(kx) * size.x, Real::from(ky) * size.y),
        }
    }
}

impl Scratch {
    /// The neighbour lists of the step's first reaches, for `slots` slots: every pair of
    /// reach boxes that meet and that `admit` lets in, through the image they meet through in
    /// a periodic domain, in the lists of both bodies (a static body keeps none, see
    /// [`Hot::fixed`]).
    pub(super) fn list_neighbours(
        &mut self,
        slots: usize,
        periodic: Option<&PeriodicImages>,
        admit: Admit<'_>,
    ) {
        let s = self;
        s.grid
            .build(&s.reach, Point::origin(), periodic.map(|p| p.size()));
        s.period = periodic.map(|p| p.size());
        let period = s.period;
        let hot = &s.hot;
        let neighbours = &mut s.neighbours;
        let mut found = |x: u32, y: u32, shift: Vector| {
            let (xs, ys) = (x as usize, y as usize);
            if ys < slots && xs < slots && admit.admits(x, y) {
                if !hot[xs].fixed {
                    neighbours[xs].push(Neighbour::new(y, shift, period));
                }
                if !hot[ys].fixed {
                    neighbours[ys].push(Neighbour::new(x, -shift, period));
                }
            }
        };
        match period {
            Some(_) => s.grid.pairs(&s.reach, &mut s.found, found),
            None => s.sweep.pairs(&s.reach, |x, y| found(x, y, Vector::zeros())),
        }
    }

    /// Grows the reach of `slot` to `grown`, a course having left it, and lists in both
    /// neighbour lists the bodies the grown reach meets that `admit` lets in.
    pub(super) fn grow_reach(&mut self, slot: usize, grown: Aabb, admit: Admit<'_>) {
        let x = slot as u32;
        let s = self;
        s.reach[slot] = Some(grown);
        s.grid.insert(x, &grown);
        // The list must hold every body the grown reach meets, not only those of the old
        // reach and of the fresh one: a later course that stays inside the grown box is not
        // searched again, and the box is larger than the two it was grown from (a bounce
        // off a diagonal wall turned a course from along x to down; the corner between the
        // two held a resting disc, which the next course, to the right, went into without
        // an impact). The bodies the old reach meets are found again, and skipped by
        // `add_neighbours`.
        let (lists, boxes, hot, period) = (&mut s.neighbours, &s.reach, &s.hot, s.period);
        s.grid.query(x, &grown, boxes, false, |y, shift| {
            if admit.admits(x, y) {
                add_neighbours(lists, boxes, hot, slot, y as usize, shift, period);
            }
        });
    }

    /// Gives `slot` the reach `around` (and `anchor`, the box its centre may roam), in the
    /// grid and in a neighbour list of exactly the reaches it meets now that `admit` lets
    /// in, itself taken out of its old neighbours' lists and put in its new ones. Returns its
    /// old list.
    pub(super) fn relist(
        &mut self,
        slot: usize,
        (anchor, around): (Option<Aabb>, Aabb),
        admit: Admit<'_>,
    ) -> Vec<Neighbour> {
        let x = slot as u32;
        let s = self;
        if let Some(old) = s.reach[slot] {
            s.grid.remove(x, &old);
        }
        s.reach[slot] = Some(around);
        s.anchor[slot] = anchor;
        s.grid.insert(x, &around);
        // Out of its old neighbours' lists: the lists stay exactly the pairs of reaches
        // that meet, so a pair in the old list and the new one has been listed all along,
        // and planned at the start of the later course or when it was listed.
        let old = core::mem::take(&mut s.neighbours[slot]);
        for n in &old {
            let back = Neighbour {
                slot: x,
                periods: [-n.periods[0], -n.periods[1]],
            };
            if let Some(list) = s.neighbours.get_mut(n.slot as usize)
                && let Some(i) = list.iter().position(|m| *m == back)
            {
                list.swap_remove(i);
            }
        }
        let mut list = core::mem::take(&mut s.fresh);
        list.clear();
        let (lists, boxes, hot, period) = (&mut s.neighbours, &s.reach, &s.hot, s.period);
        s.grid.query(x, &around, boxes, false, |y, shift| {
            if !admit.admits(x, y) {
                return;
            }
            list.push(Neighbour::new(y, shift, period));
            let ys = y as usize;
            let back = Neighbour::new(x, -shift, period);
            if ys < lists.len()
                && boxes[ys].is_some()
                && !hot[ys].fixed
                && !lists[ys].contains(&back)
            {
                lists[ys].push(back);
            }
        });
        s.neighbours[slot] = list;
        old
    }
}

impl Run<'_> {
    /// Whether `course_box` meets the box of `neighbour`'s current course, at the image it
    /// is met through: the test every pair passes before it is planned.
    pub(super) fn courses_meet(&self, course_box: &Aabb, neighbour: Neighbour) -> bool {
        let other = self.s.hot[neighbour.slot as usize].course_box;
        let other = match neighbour.periods {
            [0, 0] => other,
            _ => shifted(&other, &neighbour.shift(self.s.period)),
        };
        course_box.intersects(&other)
    }

    /// With a skin reach: queues the time the centre of `slot`, on its course from `t`,
    /// leaves its anchor, if that is before the step ends (a body that does not move
    /// never escapes).
    pub(super) fn schedule_escape(&mut self, slot: usize, t: Real) {
        self.s.hot[slot].escape_at = Real::INFINITY;
        let (Some(anchor), Some(course)) = (self.s.anchor[slot], self.s.motions[slot]) else {
            return;
        };
        let sweep = course.1;
        let v = sweep.linvel();
        let c = pose_on_course(course, t) * sweep.local_center();
        let leaves = |lo: Real, hi: Real, p: Real, v: Real| {
            if v > 0.0 {
                (hi - p).max(0.0) / v
            } else if v < 0.0 {
                (p - lo).max(0.0) / -v
            } else {
                Real::INFINITY
            }
        };
        let time = t + leaves(anchor.mins.x, anchor.maxs.x, c.x, v.x).min(leaves(
            anchor.mins.y,
            anchor.maxs.y,
            c.y,
            v.y,
        ));
        // A NaN time escapes nothing.
        if time.is_nan() || time >= self.dt {
            return;
        }
        self.s.hot[slot].escape_at = time;
        let version = self.s.hot[slot].version;
        self.s.queue.push(Entry {
            time,
            a: slot as u32,
            b: slot as u32,
            version_a: version,
            version_b: version,
            offset: Vector::zeros(),
            due: Due::Escape,
        });
    }

    /// The body of `e` leaves its anchor: a new anchor and reach around where it is, a new
    /// neighbour list from a query of the grid (and it in its new neighbours' lists), and
    /// the pairs new to its list planned. Its course, version and queued impacts stay:
    /// they are still right.
    pub(super) fn escape(&mut self, e: &Entry) {
        let (slot, t) = (e.a as usize, e.time);
        let (Some(handle), Some(course)) = (self.proxies[slot], self.s.motions[slot]) else {
            return;
        };
        let Some(body) = self.bodies.get(handle) else {
            return;
        };
        let pad = self.settings.toi.target_separation() + self.settings.toi.tolerance();
        let periodic = self.periodic.as_ref();
        let (anchor, around) = match skin_reach(
            body,
            &pose_on_course(course, t),
            self.settings.reach_skin,
            pad,
            periodic,
        ) {
            Some((anchor, around)) => (Some(anchor), around),
            None => {
                // No skin reach fits here (unreachable for a body that had one, short of a
                // reach that overflows far out): the rest of the course, as without a skin.
                let Some(sweep) = self.course_from(slot, t) else {
                    return;
                };
                let swept = body.swept_aabb(&sweep).inflated(pad);
                if !is_finite(&swept) {
                    return;
                }
                (None, reach(body, swept, &sweep, periodic))
            }
        };
        self.report.reach_escapes += 1;
        let admit = Admit::new(self.shape_rules(), self.bodies, self.proxies);
        let old = self.s.relist(slot, (anchor, around), admit);
        self.ask_again(slot, course, t, &old);
        self.s.fresh = old;
    }

    /// Asks every pair of the new list of `slot`, which escaped at `t` on `course`, again
    /// (see [`Run::escape`]); `old` is its list before the escape.
    fn ask_again(&mut self, slot: usize, course: (Real, Sweep), t: Real, old: &[Neighbour]) {
        let x = slot as u32;
        // Every pair is asked again, past the old horizon: a pair in the old list had its
        // impacts queued up to this escape, a new one none. Each is asked as the
        // whole-course reach would have asked it, when the later of the two courses began
        // and from that course's body (at the start of the step, from a checked body, the
        // smaller slot if both are): the same query gives the same entry, bit for bit, and
        // the two reaches resolve the same impacts.
        self.schedule_escape(slot, t);
        for i in 0..self.s.neighbours[slot].len() {
            let neighbour = self.s.neighbours[slot][i];
            let after = if old.contains(&neighbour) {
                t
            } else {
                Real::NEG_INFINITY
            };
            let y = neighbour.slot as usize;
            let Some((since, _)) = self.s.motions[y] else {
                continue;
            };
            let x_asks = if course.0 != since {
                course.0 > since
            } else if !self.s.rerouted[slot]
                && !self.s.rerouted[y]
                && self.s.checked[slot] != self.s.checked[y]
            {
                self.s.checked[slot]
            } else {
                slot < y
            };
            let (asker, other) = if x_asks {
                (slot, neighbour)
            } else {
                let back = Neighbour {
                    slot: x,
                    periods: [-neighbour.periods[0], -neighbour.periods[1]],
                };
                (y, back)
            };
            let t_pair = course.0.max(since).min(t);
            let Some((sweep, course_box)) = self.course_and_box(asker, t_pair) else {
                continue;
            };
            if !self.courses_meet(&course_box, other) {
                continue;
            }
            self.plan_pair(
                asker as u32,
                &sweep,
                other,
                (t_pair, t, after),
                Planning::Escape,
            );
        }
    }
}
