//! Motion shared by the CCD steppers: the sweep a body is credited with over a step, and the
//! broadphase query that covers it.

use crate::domain::translated;
use core::f64::consts::{PI, TAU};
use impact_geometry::{Aabb, Isometry, Point, Real, Segment, Shape, Sweep, Vector, cross};
use impact_narrowphase::distance;
use impact_narrowphase::toi::moving_points::moving_spheres;
use impact_solver::{BodyHandle, BodySet, ContactPair, RigidBody};

/// The motion of `body` from `start` to its current pose over `dt`, as a constant-velocity
/// sweep about the centre of mass, or `None` if it cannot be built (non-finite values).
pub(crate) fn rebuilt_sweep(body: &RigidBody, start: &Isometry, dt: Real) -> Option<Sweep> {
    let end = body.pose();
    let lc = body.local_center();
    let linvel = (end * lc - start * lc) / dt;
    let angvel = if end.rotation == start.rotation {
        0.0
    } else {
        let wrapped = (start.rotation.inverse() * end.rotation).angle();
        // Whole turns the wrapped angle may have lost, judged by the end angular velocity.
        let turns = ((body.angvel() * dt - wrapped) / TAU).round();
        let delta = if turns.is_finite() {
            wrapped + turns * TAU
        } else {
            wrapped
        };
        delta / dt
    };
    Sweep::new(*start, lc, linvel, angvel, dt).ok()
}

/// Whether every bound of `aabb` is finite.
pub(crate) fn is_finite(aabb: &Aabb) -> bool {
    aabb.mins.x.is_finite()
        && aabb.mins.y.is_finite()
        && aabb.maxs.x.is_finite()
        && aabb.maxs.y.is_finite()
}

/// The pairs of slots the contact solver holds in a step, listed by their smaller slot.
///
/// A plan asks whether the solver holds a pair for every neighbour it meets: a binary
/// search over the whole contact pairs (a few hundred bytes each) misses the cache at
/// every probe in a large world, where this reads one slot's few partners.
#[derive(Debug, Clone, Default)]
pub(crate) struct HeldPairs {
    /// Per slot, and one past the last: where its partners start in `partners`.
    start: Vec<u32>,
    /// The larger slot of each pair, grouped by the smaller.
    partners: Vec<u32>,
    /// The pairs kept by the last rebuild, (smaller slot, larger slot): its storage, reused
    /// from step to step.
    kept: Vec<(u32, u32)>,
}

impl HeldPairs {
    /// Lists the pairs of `contacts` (in any order).
    #[cfg(test)]
    pub fn rebuild(&mut self, contacts: &[ContactPair]) {
        self.rebuild_where(contacts, |_| true);
    }

    /// Lists the pairs of `contacts` (in any order) that pass `keep`, asked once each.
    pub fn rebuild_where(&mut self, contacts: &[ContactPair], keep: impl Fn(&ContactPair) -> bool) {
        self.kept.clear();
        self.kept
            .extend(contacts.iter().filter(|c| keep(c)).map(|c| {
                let (a, b) = (c.a.index, c.b.index);
                if a < b { (a, b) } else { (b, a) }
            }));
        let slots = self.kept.iter().map(|&(lo, _)| lo as usize + 1).max();
        self.start.clear();
        self.start.resize(slots.unwrap_or(0) + 1, 0);
        for &(lo, _) in &self.kept {
            self.start[lo as usize + 1] += 1;
        }
        for i in 1..self.start.len() {
            self.start[i] += self.start[i - 1];
        }
        self.partners.clear();
        self.partners.resize(self.kept.len(), 0);
        // Filled from each slot's start, which moves one place along per partner (and
        // ends at the next slot's start, where the counting put it).
        for &(lo, hi) in &self.kept {
            let at = &mut self.start[lo as usize];
            self.partners[*at as usize] = hi;
            *at += 1;
        }
        // Each start now holds the next slot's: shifted back by one place.
        self.start.rotate_right(1);
        self.start[0] = 0;
    }

    /// Whether the pair of slots `x` and `y` (either order) is listed.
    pub fn holds(&self, x: u32, y: u32) -> bool {
        let (lo, hi) = if x < y { (x, y) } else { (y, x) };
        let lo = lo as usize;
        match (self.start.get(lo), self.start.get(lo + 1)) {
            (Some(&from), Some(&to)) => self.partners[from as usize..to as usize].contains(&hi),
            _ => false,
        }
    }
}

/// Whether the contact solver's targets bring the pair of `c` together along its normal, at
/// one of its points, by more than the separation the manifold had there plus a slack (the
/// larger of `tolerance` and a quarter of the smaller body's bounding radius): a contact the
/// soft solver did not hold. `start` holds the poses at the start of the step by slot; the
/// bodies are at their targets.
pub(crate) fn closes_in(
    bodies: &BodySet,
    start: &[Option<Isometry>],
    c: &ContactPair,
    tolerance: Real,
) -> bool {
    let (Some(a), Some(b)) = (bodies.get(c.a), bodies.get(c.b)) else {
        return false;
    };
    let (Some(Some(start_a)), Some(Some(start_b))) =
        (start.get(c.a.index as usize), start.get(c.b.index as usize))
    else {
        return false;
    };
    // Soft contacts close in a little under a load and push out again: only a quarter of
    // the smaller body's bounding radius beyond that counts.
    let slack = tolerance.max(
        0.25 * a
            .shape()
            .bounding_radius(&a.local_center())
            .min(b.shape().bounding_radius(&b.local_center())),
    );
    // How far the material point at `at` moved over the step.
    let moved =
        |from: &Isometry, to: &Isometry, at: Point| to * from.inverse_transform_point(&at) - at;
    c.manifold.points().iter().any(|p| {
        let (at_a, at_b) = (p.point, p.point - c.offset);
        let closing = (moved(start_a, a.pose(), at_a) - moved(start_b, b.pose(), at_b))
            .dot(&c.manifold.normal);
        closing > p.separation.max(0.0) + slack
    })
}

/// Whether `body` is a *fast* CCD body this step: a dynamic body with the CCD flag whose
/// motion bound over the step, at its start velocities and `gravity` (its length), exceeds
/// `threshold` bounding radii. Both CCD steppers check such a body on their own and tell the
/// world so through [`Stepper::contact_reach`](crate::Stepper::contact_reach), before the
/// step; the stepper and the world must agree, so they share this.
pub(crate) fn fast_ccd_body(threshold: Real, body: &RigidBody, gravity: Real, dt: Real) -> bool {
    if !(body.is_dynamic() && body.ccd()) {
        return false;
    }
    let r = body.shape().bounding_radius(&body.local_center());
    moves_past_threshold(
        threshold,
        (body.linvel().norm() + gravity * dt, body.angvel()),
        r,
        dt,
    )
}

/// Whether a body of bounding radius `r`, moving at `speed` and turning at `angvel`
/// (`(speed, angvel)`), covers more than `threshold` bounding radii in `dt`: the test of a
/// fast body, at its start velocities ([`fast_ccd_body`]) or on a course the contact solver
/// gave it (`FirstTimeOfImpact`'s kicked bodies).
pub(crate) fn moves_past_threshold(
    threshold: Real,
    (speed, angvel): (Real, Real),
    r: Real,
    dt: Real,
) -> bool {
    speed * dt + angvel.abs() * dt * r > threshold * r
}

/// The contact of the pair of slots `x` and `y`, in either order, in `contacts` (sorted by
/// the slots of `a`, then `b`, as the world builds them), if it is there.
pub(crate) fn held_contact(contacts: &[ContactPair], x: u32, y: u32) -> Option<&ContactPair> {
    let key = if x < y { (x, y) } else { (y, x) };
    let i = contacts
        .binary_search_by(|c| (c.a.index, c.b.index).cmp(&key))
        .ok()?;
    Some(&contacts[i])
}

/// The manifold normal of the pair of slots `x` and `y` in `contacts` (sorted as for
/// [`held_contact`]), turned to point from `x` toward `y`; `None` if the pair is not there.
pub(crate) fn held_normal(contacts: &[ContactPair], x: u32, y: u32) -> Option<Vector> {
    let c = held_contact(contacts, x, y)?;
    Some(if c.a.index == x {
        c.manifold.normal
    } else {
        -c.manifold.normal
    })
}

/// Gives the bodies of `a` and `b`, each with its centre of mass where the pair is, one
/// rigid motion: that of the two as one body, linear and angular momentum kept, when both
/// are dynamic; the other body's when only one is; nothing when neither is. In effect a
/// perfectly inelastic, rough impact between them, which takes whatever relative motion they
/// had: the answer for a pair the contact solver pushed through each other and a stepper
/// stopped where it was.
pub(crate) fn move_as_one(
    bodies: &mut BodySet,
    (a, ca): (BodyHandle, Point),
    (b, cb): (BodyHandle, Point),
) {
    let (Some(body_a), Some(body_b)) = (bodies.get(a), bodies.get(b)) else {
        return;
    };
    // A centre of mass, its velocity, and the angular velocity of the motion.
    let (com, linvel, angvel) = match (body_a.is_dynamic(), body_b.is_dynamic()) {
        (true, true) => {
            let (ma, mb) = (body_a.mass(), body_b.mass());
            let m = ma + mb;
            let com = Point::from((ca.coords * ma + cb.coords * mb) / m);
            let linvel = (body_a.linvel() * ma + body_b.linvel() * mb) / m;
            let (ra, rb) = (ca - com, cb - com);
            let momentum = body_a.inertia() * body_a.angvel()
                + ma * cross(&ra, &body_a.linvel())
                + body_b.inertia() * body_b.angvel()
                + mb * cross(&rb, &body_b.linvel());
            let inertia = body_a.inertia()
                + ma * ra.norm_squared()
                + body_b.inertia()
                + mb * rb.norm_squared();
            (com, linvel, momentum / inertia)
        }
        // The body that moves on its own carries the dynamic one along.
        (true, false) => (cb, body_b.linvel(), body_b.angvel()),
        (false, true) => (ca, body_a.linvel(), body_a.angvel()),
        (false, false) => return,
    };
    if !(linvel.x.is_finite() && linvel.y.is_finite() && angvel.is_finite()) {
        return;
    }
    for (handle, centre) in [(a, ca), (b, cb)] {
        if let Some(body) = bodies.get_mut(handle)
            && body.is_dynamic()
        {
            let r = centre - com;
            let ok = body.set_velocity(linvel + Vector::new(-r.y, r.x) * angvel, angvel);
            debug_assert!(ok.is_ok(), "finite velocities");
        }
    }
}

/// [`move_as_one`] for the bodies of contact `c`, with their centres of mass where they
/// were at the start of the step (`start`, by slot; a body without one where it is), the
/// second at the image `c` meets it through.
///
/// The answer of both CCD steppers to a pair the contact solver pushed through each other,
/// which they stop where it was: stopped with the velocities that did it, it would be pushed
/// through again from the same place at the next step, and stopped again. In the tumbling
/// rain (1,000 bodies, seed 6), fast bodies side by side whose corners met mid-step hung in
/// mid-air that way for the rest of the run, gaining speed and spin from gravity and
/// friction while frozen: 304 under `FirstTimeOfImpact`, 20 under `MotionClamping`. Moving
/// as one, they have nothing left to push each other through with.
pub(crate) fn move_pair_as_one(bodies: &mut BodySet, start: &[Option<Isometry>], c: &ContactPair) {
    let centre = |handle: BodyHandle, offset: Vector| {
        let body = bodies.get(handle)?;
        Some((
            handle,
            start_pose(start, handle, body) * body.local_center() + offset,
        ))
    };
    if let (Some(a), Some(b)) = (centre(c.a, Vector::zeros()), centre(c.b, c.offset)) {
        move_as_one(bodies, a, b);
    }
}

/// The pose `body` (of `handle`) had at the start of the step: `start`'s, by slot, or where it
/// is for a body without one.
fn start_pose(start: &[Option<Isometry>], handle: BodyHandle, body: &RigidBody) -> Isometry {
    start
        .get(handle.index as usize)
        .copied()
        .flatten()
        .unwrap_or(*body.pose())
}

/// Where a body is at `t` seconds into the step on a course `(t0, sweep)`: the course that
/// started at `t0` with `sweep` (of duration from `t0` to the end of the step).
#[inline]
pub(crate) fn pose_on_course((t0, sweep): (Real, Sweep), t: Real) -> Isometry {
    sweep.pose_at((t - t0) / sweep.dt())
}

/// Whether the contact solver's targets put the pair of `c`, one of them a dynamic CCD body,
/// on opposite sides of where its manifold had them: the closest-point normal at the targets
/// turned by more than 90 degrees, and either the shapes are still within `reach` or one
/// body's centre of mass, seen from the other body, went through that body's shape on its
/// way (the pair was pushed clean through). A pair that only turned, such as a body that slid
/// round the end of a segment, is left alone. `start` holds the poses at the start of the
/// step, by slot, and `dt` is the step.
///
/// Soft contacts can push a body through a zero-thickness segment under a load (a disc at
/// the bottom of a pile hit by another from above): this is the safety net that stops such a
/// body where it was. It costs a distance query per contact of a CCD body that moved, and two
/// more when the normal turned round; the guarantee is for CCD bodies, and a query per
/// resting contact of every other body (a pyramid's) would buy nothing.
pub(crate) fn pushed_through(
    bodies: &BodySet,
    start: &[Option<Isometry>],
    c: &ContactPair,
    reach: Real,
    dt: Real,
) -> bool {
    let (Some(a), Some(b)) = (bodies.get(c.a), bodies.get(c.b)) else {
        return false;
    };
    if !(a.is_dynamic() && a.ccd() || b.is_dynamic() && b.ccd()) {
        return false;
    }
    let (a0, b0) = (start_pose(start, c.a, a), start_pose(start, c.b, b));
    if a0 == *a.pose() && b0 == *b.pose() {
        return false;
    }
    let (a1, b1) = (*a.pose(), translated(b.pose(), &c.offset));
    // Through a zero-thickness segment, a centre of mass that crossed it is through,
    // whichever way the closest-point normal turned: a stick pressed across a segment near
    // its end overlaps it sideways, its normal not turned round.
    match (a.shape(), b.shape()) {
        (_, Shape::Segment(segment))
            if may_cross(segment, (&translated(&b0, &c.offset), &b1), (a, &a0, &a1))
                && centre_went_through((a, &a0), (b, &b0), &c.offset, dt) =>
        {
            return true;
        }
        (Shape::Segment(segment), _)
            if may_cross(segment, (&a0, &a1), (b, &translated(&b0, &c.offset), &b1))
                && centre_went_through((b, &b0), (a, &a0), &-c.offset, dt) =>
        {
            return true;
        }
        _ => {}
    }
    let end = distance(a.shape(), &a1, b.shape(), &b1);
    if !turned_round(end.normal, c.manifold.normal, (a, &a0, &a1), (b, &b0, &b1)) {
        return false;
    }
    end.distance < reach
        || centre_went_through((a, &a0), (b, &b0), &c.offset, dt)
        || centre_went_through((b, &b0), (a, &a0), &-c.offset, dt)
}

/// Whether the centre of mass of `body` (from `start` to `end`) can have crossed `segment`
/// (at `from` and `to`, the same pose for a segment that does not move): `false` only when
/// the segment stood still and the centre stayed strictly on one side of its line.
fn may_cross(
    segment: &Segment,
    (from, to): (&Isometry, &Isometry),
    (body, start, end): (&RigidBody, &Isometry, &Isometry),
) -> bool {
    if from != to {
        return true;
    }
    let (p, q) = (from * segment.a(), from * segment.b());
    let side = |c: Point| cross(&(q - p), &(c - p));
    let (s0, s1) = (
        side(start * body.local_center()),
        side(end * body.local_center()),
    );
    !(s0 > 0.0 && s1 > 0.0 || s0 < 0.0 && s1 < 0.0)
}

/// Whether the normal `end` of a pair at the end of the step (from `a` toward `b`) points
/// against its normal `start` at the start, seen from the body of the pair that turned less
/// over the step (`a0` to `a1`, `b0` to `b1`; a disc about its centre of mass counts as not
/// turning, whatever its angle says): a pair that turns together (two bodies moving as one,
/// spinning at hundreds of radians per second) turns its normal round in the world without
/// either body changing side, and a body that spins alone against a wall turns its own
/// frame, not the wall's.
pub(crate) fn turned_round(
    end: Vector,
    start: Vector,
    (a, a0, a1): (&RigidBody, &Isometry, &Isometry),
    (b, b0, b1): (&RigidBody, &Isometry, &Isometry),
) -> bool {
    let turn = |body: &RigidBody, from: &Isometry, to: &Isometry| {
        let round = matches!(body.shape(), Shape::Circle(c) if c.center() == body.local_center());
        if round {
            impact_geometry::Rotation::identity()
        } else {
            to.rotation * from.rotation.inverse()
        }
    };
    let (turn_a, turn_b) = (turn(a, a0, a1), turn(b, b0, b1));
    let turn = if turn_a.angle().abs() <= turn_b.angle().abs() {
        turn_a
    } else {
        turn_b
    };
    (turn.inverse() * end).dot(&start) < 0.0
}

/// Whether the centre of mass of `x` went through `y`'s shape over the step, both moving
/// from their `start` poses to their current ones as [`rebuilt_sweep`] has them over `dt`,
/// `y` translated by `offset`: the path of that centre seen from `y`'s own frame, where `y`
/// stands still. The centre moves on a straight line (a sweep turns a body about it), so the
/// path bends only as `y` turns: a polyline with a vertex at least every sixteenth of a half
/// turn of `y` (at most 64 pieces), and a straight line when `y` does not turn or is a disc
/// about its own centre of mass.
///
/// Neither a straight path in `y`'s frame (a disc spinning half a turn while another was
/// pushed through it saw that one's path from its far side at both ends) nor a straight path
/// relative to `y`'s centre against `y` at a fixed orientation (two bodies turning together
/// at 550 rad/s, moving as one after an impact, drew a chord through each other while their
/// sweeps only drew apart) is the path `x` took.
fn centre_went_through(
    (x, x0): (&RigidBody, &Isometry),
    (y, y0): (&RigidBody, &Isometry),
    offset: &Vector,
    dt: Real,
) -> bool {
    let Some(sweep_y) = rebuilt_sweep(y, y0, dt) else {
        // Not a finite motion: the safe answer is the one that stops the pair.
        return true;
    };
    let (from, to) = (x0 * x.local_center(), x.pose() * x.local_center());
    let round = matches!(y.shape(), Shape::Circle(c) if c.center() == y.local_center());
    let turn = if round {
        0.0
    } else {
        sweep_y.angvel().abs() * dt
    };
    let pieces = (turn / (PI / 16.0)).ceil().clamp(1.0, 64.0) as usize;
    let (y_from, y_to) = (
        y0 * y.local_center() + offset,
        y.pose() * y.local_center() + offset,
    );
    let seen = |k: usize| {
        let s = k as Real / pieces as Real;
        let centre = from + (to - from) * s;
        if round {
            // Any orientation of a disc about its centre is the start one.
            y.local_center() + (centre - (y_from + (y_to - y_from) * s))
        } else {
            translated(&sweep_y.pose_at(s), offset).inverse_transform_point(&centre)
        }
    };
    // A piece that keeps out of `y`'s bounding disc cannot meet its shape: most do, where a
    // pair only slid past each other, and the test is a fraction of a distance query.
    let (centre, reach) = (
        y.local_center(),
        y.shape().bounding_radius(&y.local_center()),
    );
    let clear = |a: Point, b: Point| moving_spheres(a, b, reach, centre, centre, 0.0).is_none();
    let mut last = seen(0);
    for k in 1..=pieces {
        let next = seen(k);
        if clear(last, next) {
            last = next;
            continue;
        }
        let Ok(path) = Segment::new(last, next) else {
            last = next;
            continue;
        };
        let through = distance(
            &path.into(),
            &Isometry::identity(),
            y.shape(),
            &Isometry::identity(),
        );
        if through.distance <= 0.0 {
            return true;
        }
        last = next;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::{Circle, ConvexPolygon};
    use impact_narrowphase::contact_manifold;
    use impact_solver::{BodyHandle, RigidBodyDef};

    const REACH: Real = 0.01;
    const DT: Real = 1.0 / 60.0;

    /// The contact pair of `a` and `b` where they stand, which must touch.
    fn touching_pair(bodies: &BodySet, a: BodyHandle, b: BodyHandle) -> ContactPair {
        let (x, y) = (bodies.get(a).unwrap(), bodies.get(b).unwrap());
        let manifold = contact_manifold(x.shape(), x.pose(), y.shape(), y.pose(), REACH);
        assert!(!manifold.points().is_empty(), "touching at the start");
        ContactPair {
            a,
            b,
            manifold,
            offset: Vector::zeros(),
        }
    }

    /// A disc of radius 0.05 starting at `from` over the segment from (-1, 0) to (1, 0), the
    /// contact pair of that start, and the body set with the disc moved to `to`.
    fn disc_over_segment(
        from: Point,
        to: Point,
        ccd: bool,
    ) -> (BodySet, Vec<Option<Isometry>>, ContactPair) {
        let mut bodies = BodySet::new();
        let segment = bodies
            .insert(RigidBodyDef::fixed(
                Segment::new(Point::new(-1.0, 0.0), Point::new(1.0, 0.0))
                    .unwrap()
                    .into(),
            ))
            .unwrap();
        let start = Isometry::translation(from.x, from.y);
        let disc = bodies
            .insert(
                RigidBodyDef::new(Circle::new(0.05).unwrap().into())
                    .pose(start)
                    .ccd(ccd),
            )
            .unwrap();
        let pair = touching_pair(&bodies, segment, disc);
        let seg_body = bodies.get(segment).unwrap();
        let mut poses = vec![None; 2];
        poses[segment.index as usize] = Some(*seg_body.pose());
        poses[disc.index as usize] = Some(start);
        bodies
            .get_mut(disc)
            .unwrap()
            .set_pose(Isometry::translation(to.x, to.y))
            .unwrap();
        (bodies, poses, pair)
    }

    fn pushed(from: (Real, Real), to: (Real, Real), ccd: bool) -> bool {
        let (bodies, start, pair) =
            disc_over_segment(Point::new(from.0, from.1), Point::new(to.0, to.1), ccd);
        pushed_through(&bodies, &start, &pair, REACH, DT)
    }

    /// A disc resting on a segment closes in on it (the manifold's normal points from the
    /// segment to the disc) by what it sinks: within the slack (the tolerance, or a quarter of
    /// the disc's radius, 1.25 cm) the soft contact held it; beyond, it did not. Sliding
    /// along the segment or leaving it never closes in.
    #[test]
    fn a_held_pair_closes_in_only_past_the_slack() {
        let closes = |to: (Real, Real)| {
            let (bodies, start, pair) =
                disc_over_segment(Point::new(0.0, 0.05), Point::new(to.0, to.1), true);
            closes_in(&bodies, &start, &pair, 0.001)
        };
        assert!(!closes((0.0, 0.05)));
        assert!(!closes((0.3, 0.05)), "sliding");
        assert!(!closes((0.0, 0.2)), "leaving");
        assert!(!closes((0.1, 0.04)), "sinking 1 cm");
        assert!(closes((0.1, 0.03)), "sinking 2 cm");
        assert!(closes((0.0, -0.1)), "pushed through");
    }

    proptest::proptest! {
        /// The per-slot lists answer what a binary search over the sorted contacts does,
        /// for every pair of slots, whichever way round the contacts name their bodies.
        #[test]
        fn held_pairs_agree_with_the_search_of_the_sorted_contacts(
            ends in proptest::collection::vec((0u32..40, 0u32..40), 0..120),
        ) {
            let circle = impact_geometry::Shape::from(Circle::new(0.5).unwrap());
            let manifold = contact_manifold(
                &circle,
                &Isometry::identity(),
                &circle,
                &Isometry::translation(0.9, 0.0),
                REACH,
            );
            let handle = |index| impact_solver::BodyHandle { index, generation: 0 };
            let mut keys: Vec<(u32, u32)> = ends
                .iter()
                .filter(|(a, b)| a != b)
                .map(|&(a, b)| (a.min(b), a.max(b)))
                .collect();
            keys.sort_unstable();
            keys.dedup();
            let sorted: Vec<ContactPair> = keys
                .iter()
                .map(|&(a, b)| ContactPair {
                    a: handle(a),
                    b: handle(b),
                    manifold,
                    offset: Vector::zeros(),
                })
                .collect();
            // The same pairs, reversed and with their ends swapped.
            let swapped: Vec<ContactPair> = sorted
                .iter()
                .rev()
                .map(|c| ContactPair { a: c.b, b: c.a, ..*c })
                .collect();
            let (mut held, mut held_swapped) = (HeldPairs::default(), HeldPairs::default());
            held.rebuild(&sorted);
            held_swapped.rebuild(&swapped);
            for x in 0..45 {
                for y in 0..45 {
                    let expected = x != y && held_contact(&sorted, x, y).is_some();
                    proptest::prop_assert_eq!(held.holds(x, y), expected, "{} {}", x, y);
                    proptest::prop_assert_eq!(held_swapped.holds(x, y), expected, "{} {}", x, y);
                }
            }
        }
    }

    #[test]
    fn a_disc_squeezed_through_a_segment_is_caught_just_through_or_clean_through() {
        // Overlapping at the start, centre just beyond the line at the end: within reach.
        assert!(pushed((0.3, 0.04), (0.3, -0.045), true));
        // Clean through in one step, out of reach at the end: its centre crossed the segment.
        assert!(pushed((0.3, 0.04), (0.32, -0.12), true));
        // The same for a disc without the ccd flag is not this guard's business.
        assert!(!pushed((0.3, 0.04), (0.32, -0.12), false));
    }

    #[test]
    fn a_disc_pushed_through_a_spinning_disc_is_caught() {
        // The case of the 1,000-disc rain: two discs 5 mm apart, the upper one pushed down
        // through the lower while both turned half a turn and moved along. Seen in either
        // disc's own frame, the other's path ran past it on the side it started on.
        let mut bodies = BodySet::new();
        let disc = |x: Real, y: Real| {
            RigidBodyDef::new(Circle::new(0.05).unwrap().into())
                .pose(Isometry::translation(x, y))
                .ccd(true)
        };
        let lower = bodies.insert(disc(6.214, 5.756)).unwrap();
        let upper = bodies.insert(disc(6.2035, 5.8606)).unwrap();
        let start = [
            Some(*bodies.get(lower).unwrap().pose()),
            Some(*bodies.get(upper).unwrap().pose()),
        ];
        let pair = touching_pair(&bodies, lower, upper);
        let place = |bodies: &mut BodySet, handle, x: Real, y: Real, angle: Real| {
            let pose = Isometry::new(Vector::new(x, y), angle);
            bodies.get_mut(handle).unwrap().set_pose(pose).unwrap();
        };
        let half_turn = core::f64::consts::PI;
        place(&mut bodies, lower, 6.43, 5.7494, half_turn);
        place(&mut bodies, upper, 6.4174, 5.6376, half_turn);
        assert!(pushed_through(&bodies, &start, &pair, REACH, DT));
        // The same motion without the turns is caught; a pair that only passed side by side
        // is not.
        place(&mut bodies, lower, 6.43, 5.7494, 0.0);
        place(&mut bodies, upper, 6.4174, 5.6376, 0.0);
        assert!(pushed_through(&bodies, &start, &pair, REACH, DT));
        place(&mut bodies, upper, 6.6, 5.86, 0.0);
        assert!(!pushed_through(&bodies, &start, &pair, REACH, DT));
    }

    /// Two sticks face to face, 3.4 mm apart, turning together as one body (the motion
    /// [`move_as_one`] gives a pair), 1.3 rad about their common centre over the step, each
    /// then moved on its own sweep; their body set, and their handles with their start poses.
    fn sticks_turning_together() -> (BodySet, [(BodyHandle, Isometry); 2]) {
        let (angle, gap, angvel): (Real, Real, Real) = (0.5965, 0.003424, 78.48);
        let across = Vector::new(-angle.sin(), angle.cos()) * (0.5 * (0.02 + gap));
        let mut bodies = BodySet::new();
        let stick = |centre: Vector| {
            RigidBodyDef::new(ConvexPolygon::rectangle(0.09, 0.01).unwrap().into())
                .pose(Isometry::new(centre, angle))
                .ccd(true)
        };
        let a = bodies.insert(stick(-across)).unwrap();
        let b = bodies.insert(stick(across)).unwrap();
        // The rigid turn about their common centre, the origin.
        for (h, c) in [(a, -across), (b, across)] {
            let v = Vector::new(-c.y, c.x) * angvel;
            bodies.get_mut(h).unwrap().set_velocity(v, angvel).unwrap();
        }
        let starts = [a, b].map(|h| (h, *bodies.get(h).unwrap().pose()));
        for h in [a, b] {
            let body = bodies.get_mut(h).unwrap();
            let (v, w) = (body.linvel(), body.angvel());
            let pose = *body.pose();
            let end = Isometry::new(pose.translation.vector + v * DT, angle + w * DT);
            body.set_pose(end).unwrap();
        }
        (bodies, starts)
    }

    #[test]
    fn bodies_turning_together_are_not_caught_where_their_sweeps_only_draw_apart() {
        let (bodies, [(a, a0), (b, b0)]) = sticks_turning_together();
        let (x, y) = (bodies.get(a).unwrap(), bodies.get(b).unwrap());
        // The oracle: the sweeps keep the sticks apart all through the step.
        let (sweep_x, sweep_y) = (
            rebuilt_sweep(x, &a0, DT).unwrap(),
            rebuilt_sweep(y, &b0, DT).unwrap(),
        );
        let closest = (0..=2000)
            .map(|k| {
                let s = k as Real / 2000.0;
                distance(
                    x.shape(),
                    &sweep_x.pose_at(s),
                    y.shape(),
                    &sweep_y.pose_at(s),
                )
                .distance
            })
            .fold(Real::INFINITY, Real::min);
        assert!(closest > 0.0, "{closest}");
        // A straight path relative to the other's centre, against that body at its start
        // or its end orientation (the guard's test before), cuts through it...
        let (a1, b1) = (*x.pose(), *y.pose());
        let (from, to) = (a0 * x.local_center(), a1 * x.local_center());
        let (c0, c1) = (b0 * y.local_center(), b1 * y.local_center());
        let chord_cuts = [(b0, c0), (b1, c1)].into_iter().any(|(pose, centre)| {
            let path = Segment::new(centre + (from - c0), centre + (to - c1)).unwrap();
            distance(&path.into(), &Isometry::identity(), y.shape(), &pose).distance <= 0.0
        });
        assert!(chord_cuts);
        // ...where the path in its own frame does not.
        assert!(!centre_went_through(
            (x, &a0),
            (y, &b0),
            &Vector::zeros(),
            DT
        ));
        assert!(!centre_went_through(
            (y, &b0),
            (x, &a0),
            &Vector::zeros(),
            DT
        ));
    }

    proptest::proptest! {
        /// `move_as_one` keeps the pair's linear momentum and its angular momentum about any
        /// point, takes energy and never adds it, and leaves the two with one velocity field;
        /// against a static body, the dynamic one stops.
        #[test]
        fn moving_as_one_keeps_momentum_and_leaves_no_relative_motion(
            (ax, ay, bx, by) in (-2.0..2.0, -2.0..2.0, -2.0..2.0, -2.0..2.0),
            (vax, vay, vbx, vby) in (-50.0..50.0, -50.0..50.0, -50.0..50.0, -50.0..50.0),
            (wa, wb) in (-300.0..300.0, -300.0..300.0),
            (density_a, density_b) in (0.1..10.0, 0.1..10.0),
            b_static in proptest::bool::weighted(0.2),
        ) {
            let mut bodies = BodySet::new();
            let a = bodies
                .insert(
                    RigidBodyDef::new(ConvexPolygon::rectangle(0.09, 0.01).unwrap().into())
                        .pose(Isometry::new(Vector::new(ax, ay), 0.3))
                        .density(density_a)
                        .linvel(Vector::new(vax, vay))
                        .angvel(wa),
                )
                .unwrap();
            let shape_b: impact_geometry::Shape = Circle::new(0.05).unwrap().into();
            let def_b = if b_static {
                RigidBodyDef::fixed(shape_b)
            } else {
                RigidBodyDef::new(shape_b)
                    .density(density_b)
                    .linvel(Vector::new(vbx, vby))
                    .angvel(wb)
            };
            let b = bodies
                .insert(def_b.pose(Isometry::translation(bx, by)))
                .unwrap();
            let centre = |bodies: &BodySet, h| bodies.get(h).unwrap().center_of_mass();
            let (ca, cb) = (centre(&bodies, a), centre(&bodies, b));
            let totals = |bodies: &BodySet| {
                let origin = Point::new(0.7, -1.3);
                [a, b].into_iter().map(|h| bodies.get(h).unwrap()).fold(
                    (Vector::zeros(), 0.0, 0.0),
                    |(p, l, e), body| {
                        (
                            p + body.linear_momentum(),
                            l + body.angular_momentum_about(&origin),
                            e + body.kinetic_energy(),
                        )
                    },
                )
            };
            let before = totals(&bodies);
            move_as_one(&mut bodies, (a, ca), (b, cb));
            let after = totals(&bodies);
            let (x, y) = (bodies.get(a).unwrap(), bodies.get(b).unwrap());
            if b_static {
                proptest::prop_assert_eq!((x.linvel(), x.angvel()), (Vector::zeros(), 0.0));
            } else {
                let scale = 1.0 + before.0.norm();
                proptest::prop_assert!((after.0 - before.0).norm() <= 1e-12 * scale);
                let scale = 1.0 + before.1.abs() + before.0.norm() * 4.0;
                proptest::prop_assert!((after.1 - before.1).abs() <= 1e-11 * scale);
            }
            proptest::prop_assert!(after.2 <= before.2 * (1.0 + 1e-12) + 1e-12);
            // One velocity field: equal velocities at any point, spin alike.
            let p = Point::new(0.4, 0.9);
            let gap = (x.velocity_at_point(&p) - y.velocity_at_point(&p)).norm();
            proptest::prop_assert!(gap <= 1e-9 * (1.0 + x.linvel().norm()), "{}", gap);
            proptest::prop_assert_eq!(x.angvel(), y.angvel());
        }
    }

    /// In a periodic world the pair's second body is met at an image: the two move as one
    /// about their centres as they meet there, not across the domain.
    #[test]
    fn a_pair_met_through_a_periodic_image_moves_as_one_where_it_meets() {
        let disc = |x: Real, vy: Real, w: Real| {
            RigidBodyDef::new(Circle::new(0.1).unwrap().into())
                .pose(Isometry::translation(x, 0.0))
                .linvel(Vector::new(0.0, vy))
                .angvel(w)
        };
        let velocities = |bodies: &BodySet, handles: [BodyHandle; 2]| {
            handles.map(|h| {
                let b = bodies.get(h).unwrap();
                (b.linvel(), b.angvel())
            })
        };
        // Across the side of a domain 20 wide: B at -9.9 is met at its image at 10.1.
        let mut across = BodySet::new();
        let (a, b) = (
            across.insert(disc(9.9, 3.0, 5.0)).unwrap(),
            across.insert(disc(-9.9, -1.0, 0.0)).unwrap(),
        );
        let offset = Vector::new(20.0, 0.0);
        let (x, y) = (across.get(a).unwrap(), across.get(b).unwrap());
        let image = translated(y.pose(), &offset);
        let pair = ContactPair {
            a,
            b,
            manifold: contact_manifold(x.shape(), x.pose(), y.shape(), &image, REACH),
            offset,
        };
        assert!(!pair.manifold.points().is_empty(), "touching at the image");
        let start = [
            Some(*across.get(a).unwrap().pose()),
            Some(*across.get(b).unwrap().pose()),
        ];
        move_pair_as_one(&mut across, &start, &pair);
        // The same two where they meet, in an unbounded world.
        let mut near = BodySet::new();
        let (c, d) = (
            near.insert(disc(9.9, 3.0, 5.0)).unwrap(),
            near.insert(disc(10.1, -1.0, 0.0)).unwrap(),
        );
        let centre = |bodies: &BodySet, h| bodies.get(h).unwrap().center_of_mass();
        let (cc, cd) = (centre(&near, c), centre(&near, d));
        move_as_one(&mut near, (c, cc), (d, cd));
        assert_eq!(velocities(&across, [a, b]), velocities(&near, [c, d]));
    }

    #[test]
    fn a_disc_that_stays_slides_or_goes_round_an_end_is_not_caught() {
        // Stays on top, or slides along it.
        assert!(!pushed((0.3, 0.04), (0.3, 0.04), true));
        assert!(!pushed((0.3, 0.04), (0.6, 0.049), true));
        // Rounds the right end, from on top near it to below beyond it: the normal turned
        // round, but its centre passed beyond the end.
        assert!(!pushed((0.99, 0.05), (1.02, -0.06), true));
        // Leaves upwards.
        assert!(!pushed((0.3, 0.04), (0.3, 0.3), true));
    }
}
