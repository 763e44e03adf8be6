//! Planning: the impacts of [`FirstTimeOfImpact`](super::FirstTimeOfImpact) a body's course
//! meets before the step ends, queued in time order.
//!
//! A plan asks one time of impact per neighbour whose course box meets its own, and skips
//! every pair it can rule out first, cheapest test first, because most of a step's work is
//! here: a pair of still courses, a pair the other body asks, a pair the contact solver holds
//! (unless a body swings: the solver's manifold, taken at the start poses, does not bound where
//! a turning body's far side goes), a pair whose bounding discs stay apart. Two discs, and a
//! disc against a static segment, most of a rain's pairs, take their closed forms straight
//! from the courses. A pair that already overlaps is an impact at once if the courses drive
//! it deeper, and otherwise is followed along the courses only if a body swings (under
//! translation an overlap deepens at once or never). The order of the queue never depends on
//! the order of planning: entries are ordered by time, then by slots.

use super::course::round_start;
use super::queue::{Due, Entry};
use super::reach::Neighbour;
use super::sinking::sinking;
use super::state::{Hot, Run};
use crate::domain::translated;
use crate::motion::{
    circles_stay_apart, earliest_shape_tois, held_contact, held_normal, shape_at, shape_tois,
};
use crate::swing::{Deepening, anchored, swinging_deepening, unit_normal};
use impact_geometry::{Point, Real, Shape, Sweep, Vector};
use impact_narrowphase::{
    Distance, Toi, distance, time_of_impact, toi_circle_still_segment, toi_circles,
};

/// Which planning a query belongs to, which decides the pairs it skips.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Planning {
    /// The first of the step: pairs the solver holds are skipped, and a pair of two checked
    /// bodies is asked from the smaller slot only.
    Start,
    /// After an impact: a pair of two re-planned bodies is asked from the smaller slot only.
    Replan,
    /// One body on its own (a body that stopped).
    Alone,
    /// A pair met through a body's escape (see [`Run::escape`]), asked from when the later
    /// of the two courses began: the question the whole-course reach would have asked
    /// then, with the pairs it would have skipped skipped.
    Escape,
}

/// Whether a plan asks a pair (see [`Run::asks`]).
enum Ask {
    No,
    Yes,
    /// Every shape pair but those the contact solver holds: a pair of bodies of several
    /// shapes that the solver holds.
    AllButHeld,
}

/// What a pair's query found to act on: nothing, the one answer of two bodies of one shape
/// each (or of a closed form straight from the courses), or the answers of the shape pairs
/// left in [`Scratch::tois`](super::state::Scratch::tois).
enum Query {
    None,
    One(Toi),
    Shapes,
}

/// Where a query starts: the time, the translation of the other body's image, and the
/// planning body's course from then.
type From<'a> = (Real, &'a Vector, &'a Sweep);

/// When a pair's planning acts, and the contact there (point and normal from the planning
/// body toward the other, in its frame, and the shapes, its first): `None` for a stop.
type Outcome = (Real, Option<(Point, Vector, [u32; 2])>);

impl Run<'_> {
    /// The first plans of the step: every checked body's impacts from the start (see
    /// [`Planning::Start`]), after the escapes of a skin reach, which bound what is queued
    /// (see [`Hot::escape_at`]).
    pub(super) fn plan_start(&mut self) {
        let slots = self.proxies.len();
        if self.settings.reach_skin > 0.0 {
            for slot in 0..slots {
                self.schedule_escape(slot, 0.0);
            }
        }
        for slot in 0..slots {
            if self.s.checked[slot] {
                self.plan(slot as u32, 0.0, Planning::Start);
            }
        }
    }

    /// Queues the impacts of `x` from `t` to the end of the step.
    pub(super) fn plan(&mut self, x: u32, t: Real, planning: Planning) {
        let xs = x as usize;
        if !self.is_live(xs) {
            return;
        }
        let Some((sweep_x, course_box)) = self.course_and_box(xs, t) else {
            return;
        };
        let candidates = core::mem::take(&mut self.s.neighbours[xs]);
        let start = planning == Planning::Start;
        let still_x = self.s.hot[xs].still;
        for &neighbour in &candidates {
            // A stopped body asks its neighbours again, and in a pile most of them are
            // stopped too (see `Hot::still`).
            if still_x && self.s.hot[neighbour.slot as usize].still {
                debug_assert!(
                    self.still_pair_is_quiet(xs, t, &sweep_x, neighbour),
                    "two still courses plan nothing"
                );
                self.report.still_pairs += 1;
                continue;
            }
            // At the start both bodies of a checked pair plan it, and the smaller slot
            // asks (see `plan_pair`): the other one skips it here, before reading anything
            // else of it.
            if start && neighbour.slot < x && self.s.checked[neighbour.slot as usize] {
                continue;
            }
            // Most neighbours' courses miss this one's, which costs less to test here than
            // a call to find out.
            if !self.courses_meet(&course_box, neighbour) {
                continue;
            }
            self.plan_pair(x, &sweep_x, neighbour, (t, t, Real::NEG_INFINITY), planning);
        }
        self.s.neighbours[xs] = candidates;
    }

    /// What [`Run::plan_pair`] would find for two still courses, the impact query run in
    /// full: nothing to queue (only called by a debug assertion).
    fn still_pair_is_quiet(
        &self,
        xs: usize,
        t: Real,
        sweep_x: &Sweep,
        neighbour: Neighbour,
    ) -> bool {
        let (ys, shift) = (neighbour.slot as usize, neighbour.shift(self.s.period));
        let Some((body_x, body_y, sweep_y)) = self.pair_from(xs, ys, t, &shift) else {
            return true;
        };
        let mut tois = Vec::new();
        let admit = self.admit_shapes(xs, ys);
        shape_tois(
            (body_x, sweep_x),
            (body_y, &sweep_y),
            admit,
            &self.settings.toi,
            &mut tois,
        );
        tois.iter().all(|&([i, j], toi)| match toi {
            Toi::Separated => true,
            Toi::Overlapping => {
                let start = distance(
                    shape_at(body_x, i),
                    &sweep_x.pose_at(0.0),
                    shape_at(body_y, j),
                    &sweep_y.pose_at(0.0),
                );
                unit_normal(&start).is_none_or(|normal| {
                    self.deepening(&start, normal, sweep_x, &sweep_y, self.dt - t)
                        .is_none()
                })
            }
            Toi::Hit(_) | Toi::NotConverged { .. } => false,
        })
    }

    /// Which shape pairs of the bodies of slots `xs` and `ys` may collide (see
    /// [`ShapeRules::admits`](crate::motion::ShapeRules::admits)); asked only of a body with
    /// several shapes.
    fn admit_shapes(&self, xs: usize, ys: usize) -> impl Fn([u32; 2]) -> bool + '_ {
        let member = |slot: usize| {
            let handle = self.proxies[slot]?;
            Some((handle, self.bodies.get(handle)?))
        };
        let (x, y) = (member(xs), member(ys));
        let rules = self.shape_rules();
        move |pair| match (x, y) {
            (Some(x), Some(y)) => rules.admits(self.bodies, x, y, pair),
            _ => false,
        }
    }

    /// Queues the impact of `x` on `sweep_x` (its course from `t`) with `neighbour`, if they
    /// meet before the step ends and before the pair's horizon (see [`Hot::escape_at`]).
    /// Callers ask only pairs whose course boxes meet ([`Run::courses_meet`]).
    /// `(t, now, after)`: `now` is the time of the loop (`t` or later), nothing is queued
    /// before it; an impact at or before `after` was queued already and is not queued again.
    pub(super) fn plan_pair(
        &mut self,
        x: u32,
        sweep_x: &Sweep,
        neighbour: Neighbour,
        (t, now, after): (Real, Real, Real),
        planning: Planning,
    ) {
        let xs = x as usize;
        let period = self.s.period;
        let (y, shift) = (neighbour.slot, neighbour.shift(period));
        let ys = y as usize;
        let (hot_x, hot_y) = (self.s.hot[xs], self.s.hot[ys]);
        if !self.is_live(ys) || !hot_x.dynamic && !hot_y.dynamic {
            return;
        }
        let held = match self.asks(x, y, planning) {
            Ask::No => return,
            Ask::Yes => false,
            Ask::AllButHeld => true,
        };
        if self.rules.has_pre_solve() && self.pair_disabled(x, y) {
            return;
        }
        let outcome = match self.query((xs, &hot_x), (ys, &hot_y), (t, held), &shift, sweep_x) {
            Query::None => return,
            Query::One(toi) => self.outcome(xs, ys, (t, &shift, sweep_x), toi, [0, 0]),
            Query::Shapes => self.earliest_outcome(xs, ys, (t, &shift, sweep_x)),
        };
        if let Some((time, contact)) = outcome {
            self.queue_at((x, y), shift, (time, contact), (now, after));
        }
    }

    /// The earliest [`Run::outcome`] over the shape pairs [`Run::general_toi`] left in
    /// `tois` (ties to the first), with the shapes it met at.
    fn earliest_outcome(&mut self, xs: usize, ys: usize, from: From<'_>) -> Option<Outcome> {
        let tois = core::mem::take(&mut self.s.tois);
        let mut best: Option<Outcome> = None;
        for &(shapes, toi) in &tois {
            if let Some(outcome) = self.outcome(xs, ys, from, toi, shapes)
                && best.is_none_or(|b| outcome.0 < b.0)
            {
                best = Some(outcome);
            }
        }
        self.s.tois = tois;
        best
    }

    /// Whether the pre-solve hook disabled an impact of the pair of `x` and `y` in this step:
    /// it passes through for the rest of the step, and nothing of it is asked again.
    #[cold]
    pub(super) fn pair_disabled(&self, x: u32, y: u32) -> bool {
        let key = if x < y { (x, y) } else { (y, x) };
        self.s.pairs.get(&key).is_some_and(|p| p.disabled)
    }

    /// Whether the plan of `x` in `planning` asks its pair with `y`: not a pair that both
    /// bodies plan now, which the smaller slot asks, nor at the start (or at an escape from
    /// the start's courses) a pair the contact solver holds, unless a body swings. A pair of
    /// bodies of several shapes that the solver holds is asked all the same, without the shape
    /// pairs it holds ([`Ask::AllButHeld`]): the solver holds the shape pairs it has contacts
    /// for, not the others (a bullet bounced off one segment of a chain terrain, held there,
    /// flew through the next hill's segments).
    #[inline]
    fn asks(&self, x: u32, y: u32, planning: Planning) -> Ask {
        let (xs, ys) = (x as usize, y as usize);
        let asked_from_other_side = match planning {
            Planning::Start => self.s.checked[ys],
            Planning::Replan => self.s.replan.contains(&y),
            Planning::Alone | Planning::Escape => false,
        };
        if asked_from_other_side && y < x {
            return Ask::No;
        }
        let key = if x < y { (x, y) } else { (y, x) };
        // A body a driven body carries, and its carrier (see `carry`); only a step that
        // carried a body has one.
        if self.s.carried_any && self.carried_pair(xs, ys) {
            return Ask::No;
        }
        // A pair a jointed group keeps in contact (see `groups`) is the group's while the
        // advance that holds its touch moves it; only a step with a group's impact has one.
        if !self.s.touches.is_empty()
            && self.s.pairs.get(&key).is_some_and(|p| p.kept)
            && self.keeps(xs, ys)
        {
            return Ask::No;
        }
        let held = || self.s.held.holds(key.0, key.1);
        // A pair the solver holds is the solver's, unless a body swings its far side round
        // more than the contact distance: a capsule spinning against a wall, held by one
        // point near its top, swung its bottom through the wall.
        let swing = || self.s.swings[xs] || self.s.swings[ys];
        let held_pair = || {
            if self.has_several_shapes(xs) || self.has_several_shapes(ys) {
                Ask::AllButHeld
            } else {
                Ask::No
            }
        };
        match planning {
            Planning::Start if held() && !swing() => return held_pair(),
            Planning::Escape => {
                // Both still on their start-of-step courses: the pair was the start
                // planning's, which asked it only for a checked body and not held by the
                // solver. A pair with a later course was asked when that course began.
                let from_start = !self.s.rerouted[xs] && !self.s.rerouted[ys];
                if from_start && !(self.s.checked[xs] || self.s.checked[ys]) {
                    return Ask::No;
                }
                if from_start && held() && !swing() {
                    return held_pair();
                }
            }
            _ => {}
        }
        Ask::Yes
    }

    /// Whether the body of `slot` has several shapes.
    #[cold]
    fn has_several_shapes(&self, slot: usize) -> bool {
        self.proxies[slot]
            .and_then(|h| self.bodies.get(h))
            .is_some_and(|b| !b.has_one_shape())
    }

    /// The time of impact of `xs` on `sweep_x` and the image of `ys` translated by `shift`,
    /// both from `t` (`hot_x` and `hot_y` their [`Hot`] data): by a closed form straight from
    /// the courses for two discs and for a disc against a static segment, else by the
    /// dispatcher over the shape pairs ([`Run::general_toi`]). [`Query::None`] when there is
    /// nothing to ask: bounding discs that stay apart, a body gone, a course with no time
    /// left, or a start that is not finite.
    #[inline]
    fn query(
        &mut self,
        (xs, hot_x): (usize, &Hot),
        (ys, hot_y): (usize, &Hot),
        (t, held): (Real, bool),
        shift: &Vector,
        sweep_x: &Sweep,
    ) -> Query {
        let rest = self.dt - t;
        let toi = match self.s.motions[ys] {
            Some(course_y) if hot_x.round && hot_y.round && rest > 0.0 => {
                // Two discs about their centres: the closed form the dispatcher would pick,
                // from the same centres and displacements, without building `y`'s sweep
                // or reading either body.
                let start_y = translated(&round_start(course_y, t), shift);
                let linvel_y = course_y.1.linvel();
                if !(start_y.translation.x.is_finite() && start_y.translation.y.is_finite()) {
                    return Query::None;
                }
                self.report.toi_queries += 1;
                toi_circles(
                    sweep_x.start() * Point::origin(),
                    sweep_x.displacement(),
                    hot_x.radius,
                    start_y * Point::origin(),
                    linvel_y * rest,
                    hot_y.radius,
                    &self.settings.toi,
                )
            }
            Some(_) if hot_x.round && rest > 0.0 && self.s.segments[ys].is_some() => {
                // A disc against a static segment: the closed form the dispatcher would
                // pick, from the segment's start pose (a static body's course never moves
                // it), without building the segment's sweep or reading either body. Most of
                // a rain's other plans.
                let (Some(segment), Some(pose)) = (self.s.segments[ys], self.s.start[ys]) else {
                    return Query::None;
                };
                let pose = translated(&pose, shift);
                if !(pose.translation.x.is_finite() && pose.translation.y.is_finite()) {
                    return Query::None;
                }
                self.report.toi_queries += 1;
                toi_circle_still_segment(
                    hot_x.radius,
                    &sweep_x.start(),
                    sweep_x.displacement(),
                    &segment,
                    &pose,
                    &self.settings.toi,
                )
            }
            _ if self.bounds_apart(xs, ys, t, shift, sweep_x) => {
                self.report.bounds_apart += 1;
                return Query::None;
            }
            _ => return self.general_toi((xs, ys, held), t, shift, sweep_x),
        };
        Query::One(toi)
    }

    /// What `toi` of the shapes `[i, j]` calls for (`x` of slot `xs` on `sweep_x`, its
    /// course from `t`, against `ys` at its image translated by `shift`): an impact where the
    /// courses meet or where an overlap deepens, a stop where the query gave up (no contact);
    /// nothing for a pair that stays apart or an overlap that never deepens.
    #[inline]
    fn outcome(
        &mut self,
        xs: usize,
        ys: usize,
        (t, shift, sweep_x): From<'_>,
        toi: Toi,
        shapes: [u32; 2],
    ) -> Option<Outcome> {
        let rest = self.dt - t;
        // The contact (point, normal from `x` toward `y`) in `x`'s frame, or none if the
        // query gave up.
        Some(match toi {
            Toi::Separated => return None,
            Toi::Hit(hit) => (
                t + hit.fraction * rest,
                Some((hit.point, hit.normal, shapes)),
            ),
            Toi::NotConverged { safe_fraction } => (t + safe_fraction * rest, None),
            Toi::Overlapping => match self.overlapping(xs, ys, (t, shift, sweep_x), shapes) {
                Deepening::Never => return None,
                Deepening::At {
                    after,
                    point,
                    normal,
                } => (t + after, Some((point, normal, shapes))),
                Deepening::Unknown { safe } => (t + safe, None),
            },
        })
    }

    /// Queues `(time, contact)` of `x` and `y` (see [`Run::outcome`]; `y` met at its image
    /// translated by `shift`), unless it is before `now`, at or before `after`, or past the
    /// pair's horizon.
    #[inline]
    fn queue_at(
        &mut self,
        (x, y): (u32, u32),
        shift: Vector,
        (time, contact): Outcome,
        (now, after): (Real, Real),
    ) {
        let (xs, ys) = (x as usize, y as usize);
        // The entry has the smaller slot where it is, the larger at its image: from `x`'s
        // frame, where `y` is translated by `shift`, to the smaller slot's.
        let offset = if x < y { shift } else { -shift };
        let due = match contact {
            Some((point, normal, shapes)) if x < y => Due::Impact {
                point,
                normal,
                shapes,
            },
            Some((point, normal, [i, j])) => Due::Impact {
                point: point - shift,
                normal: -normal,
                shapes: [j, i],
            },
            None => Due::Stop,
        };
        // An escape asks from when the courses began; the reach guarantees the pair cannot
        // meet before the escape, which rounding must not contradict.
        let time = time.max(now).min(self.dt);
        if time <= after || time > self.s.hot[xs].escape_at.min(self.s.hot[ys].escape_at) {
            return;
        }
        let key = if x < y { (x, y) } else { (y, x) };
        self.s.queue.push(Entry {
            time,
            a: key.0,
            b: key.1,
            version_a: self.s.hot[key.0 as usize].version,
            version_b: self.s.hot[key.1 as usize].version,
            offset,
            due,
        });
    }

    /// Whether the bounding discs of `xs` on `sweep_x` and of the image of `ys` translated
    /// by `shift`, both from `t`, stay farther apart than the target separation plus the
    /// tolerance to the end of the step: each disc is about its body's centre of mass, which
    /// moves on a straight line whatever the body turns, so the closest approach of the two
    /// is a closed form, and the shapes inside them cannot meet. A time of impact would say
    /// the same after building `ys`'s course (a sine and a cosine) and its own set-up: in the
    /// tumbling rain most of the neighbours a re-planned body asks are such pairs.
    #[inline]
    fn bounds_apart(&self, xs: usize, ys: usize, t: Real, shift: &Vector, sweep_x: &Sweep) -> bool {
        let Some((since, course_y)) = self.s.motions[ys] else {
            return false;
        };
        let rest = self.dt - t;
        let x0 = sweep_x.center_at(0.0);
        let y0 = course_y.center_at((t - since) / course_y.dt()) + shift;
        circles_stay_apart(
            (x0, x0 + sweep_x.linvel() * rest, self.s.hot[xs].bound),
            (y0, y0 + course_y.linvel() * rest, self.s.hot[ys].bound),
            &self.settings.toi,
        )
    }

    /// The time of impact of `xs` on `sweep_x` and the image of `ys` translated by
    /// `shift`, both from `t`, by the dispatcher: for two bodies of one shape each, its
    /// answer; otherwise every shape pair the rules admit whose swept boxes meet, left in
    /// `tois` ([`shape_tois`]), but with `held` those the contact solver holds (see
    /// [`Run::asks`]). [`Query::None`] when either body is gone or `ys` has no
    /// course left. Kept out of [`plan_pair`](Run::plan_pair), whose disc pairs are most of
    /// a rain's plans.
    #[inline(never)]
    fn general_toi(
        &mut self,
        (xs, ys, held): (usize, usize, bool),
        t: Real,
        shift: &Vector,
        sweep_x: &Sweep,
    ) -> Query {
        let mut tois = core::mem::take(&mut self.s.tois);
        let query = match self.pair_from(xs, ys, t, shift) {
            None => Query::None,
            Some((body_x, body_y, sweep_y)) if body_x.has_one_shape() && body_y.has_one_shape() => {
                Query::One(time_of_impact(
                    body_x.shape(),
                    sweep_x,
                    body_y.shape(),
                    &sweep_y,
                    &self.settings.toi,
                ))
            }
            Some((body_x, body_y, sweep_y)) => {
                let admits = self.admit_shapes(xs, ys);
                let contacts = self.s.by_slots.view(&self.s.solver_contacts);
                let (x_slot, y_slot) = (xs as u32, ys as u32);
                let held_by_solver = |[i, j]: [u32; 2]| {
                    held && held_contact(contacts, (x_slot, Some(i)), (y_slot, Some(j))).is_some()
                };
                let admit = |pair| admits(pair) && !held_by_solver(pair);
                let (x, y) = ((body_x, sweep_x), (body_y, &sweep_y));
                // Only the earliest outcome is queued: a pair that would come later is
                // left out (the pre-solve hook disables a body pair as a whole).
                let toi = &self.settings.toi;
                earliest_shape_tois(x, y, admit, toi, Real::INFINITY, &mut tois);
                if held {
                    // An overlap at the start with no contact of the solver's is the end
                    // region of a chain's segment (its one-sided contacts leave it to the
                    // neighbour): the solver holds the pair there, and the closest points'
                    // normal, round the segment's end, is a ghost's.
                    tois.retain(|&(_, toi)| toi != Toi::Overlapping);
                }
                Query::Shapes
            }
        };
        self.report.toi_queries += match query {
            Query::None => 0,
            Query::One(_) => 1,
            Query::Shapes => tois.len(),
        };
        self.s.tois = tois;
        query
    }

    /// Which side of each other the bodies of slots `xs` and `ys` belong on, as a normal
    /// from `xs` toward `ys`: that of the pair's last impact in this step, or else of the
    /// contact solver's manifold, taken at the start poses. An overlap past the middle of a
    /// zero-thickness segment turns the exact distance's normal round, and an impact along
    /// it would push the body the rest of the way through (a stick pressed into a segment by
    /// a pile's weight, then struck).
    fn side_of(&self, xs: usize, ys: usize, [i, j]: [u32; 2]) -> Option<Vector> {
        let (lo, hi) = if xs < ys { (xs, ys) } else { (ys, xs) };
        let shapes = if xs < ys { [i, j] } else { [j, i] };
        let from_pair = self
            .s
            .pairs
            .get(&(lo as u32, hi as u32))
            .filter(|p| p.shapes == shapes)
            .map(|p| p.normal)
            .filter(|n| *n != Vector::zeros())
            .map(|n| if xs < ys { n } else { -n });
        from_pair.or_else(|| {
            let contacts = self.s.by_slots.view(&self.s.solver_contacts);
            held_normal(contacts, (xs as u32, i), (ys as u32, j))
        })
    }

    /// The impact of a pair already overlapping at `t` (`xs` on `sweep_x`, the image of `ys`
    /// translated by `shift`), if the courses drive it deeper. Skipping it would let a body
    /// knocked into a resting neighbour (a disc bounced off a wall into the floor it slides
    /// on) go through it, since the solver's part of the step is over.
    ///
    /// The impact is at once if the closest points approach (see
    /// [`deepening`](Run::deepening)). Otherwise, when neither body swings (see
    /// [`Scratch::swings`](super::state::Scratch::swings)), there is none: under translation
    /// the overlap of two convex shapes only deepens if it deepens at once. A swinging body
    /// can part where it overlaps and strike with its far side (a stick resting on a
    /// segment, struck at one end, swung its other end through): the pair is then followed
    /// along the courses ([`swinging_deepening`]).
    #[cold]
    #[inline(never)]
    fn overlapping(
        &mut self,
        xs: usize,
        ys: usize,
        (t, shift, sweep_x): From<'_>,
        shapes: [u32; 2],
    ) -> Deepening {
        self.report.overlapping += 1;
        let Some((body_x, body_y, sweep_y)) = self.pair_from(xs, ys, t, shift) else {
            return Deepening::Never;
        };
        let (shape_x, shape_y) = (shape_at(body_x, shapes[0]), shape_at(body_y, shapes[1]));
        let (pose_x, pose_y) = (sweep_x.pose_at(0.0), sweep_y.pose_at(0.0));
        let start = distance(shape_x, &pose_x, shape_y, &pose_y);
        let Some(normal) = unit_normal(&start) else {
            return Deepening::Never;
        };
        let normal = anchored(normal, self.side_of(xs, ys, shapes));
        if let Some(point) = self.deepening(&start, normal, sweep_x, &sweep_y, self.dt - t) {
            return Deepening::At {
                after: 0.0,
                point,
                normal,
            };
        }
        let tolerance = self.settings.toi.tolerance();
        // The static segment of a body of one shape (a chain's segments are left to the
        // contact solver's sides).
        let sinking = match (shape_x, shape_y) {
            (_, Shape::Segment(segment)) if self.s.hot[ys].fixed && body_y.has_one_shape() => {
                sinking(
                    (shape_x, sweep_x),
                    (segment.core(), &pose_y),
                    -normal,
                    tolerance,
                )
            }
            (Shape::Segment(segment), _) if self.s.hot[xs].fixed && body_x.has_one_shape() => {
                sinking(
                    (shape_y, &sweep_y),
                    (segment.core(), &pose_x),
                    normal,
                    tolerance,
                )
            }
            _ => None,
        };
        if let Some(point) = sinking {
            return Deepening::At {
                after: 0.0,
                point,
                normal,
            };
        }
        if self.s.swings[xs] || self.s.swings[ys] {
            let toi = &self.settings.toi;
            return swinging_deepening(
                (shape_x, sweep_x),
                (shape_y, &sweep_y),
                normal,
                toi.tolerance(),
                toi.max_iterations(),
            );
        }
        Deepening::Never
    }

    /// Where a pair that touches at the start of its courses (`sweep_x`, `sweep_y`, both
    /// `rest` seconds long), at distance `start`, is driven deeper along `normal` (from `x`
    /// toward `y`) by more than the tolerance: the middle of the deepest points. `None` when
    /// the pair slides or leaves there.
    fn deepening(
        &self,
        start: &Distance,
        normal: Vector,
        sweep_x: &Sweep,
        sweep_y: &Sweep,
        rest: Real,
    ) -> Option<Point> {
        let point = impact_geometry::nalgebra::center(&start.point_a, &start.point_b);
        let approach =
            (sweep_y.velocity_at(0.0, &point) - sweep_x.velocity_at(0.0, &point)).dot(&normal);
        (approach * rest < -self.settings.toi.tolerance()).then_some(point)
    }
}
