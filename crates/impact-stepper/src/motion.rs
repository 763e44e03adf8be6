//! Motion shared by the CCD steppers: the sweep a body is credited with over a step, and the
//! broadphase query that covers it.

use crate::domain::translated;
use core::f64::consts::TAU;
use impact_geometry::{Aabb, Isometry, Real, Segment, Sweep, Vector};
use impact_narrowphase::distance;
use impact_solver::{BodySet, ContactPair, RigidBody};

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
}

impl HeldPairs {
    /// Lists the pairs of `contacts` (in any order).
    pub fn rebuild(&mut self, contacts: &[ContactPair]) {
        let ends = |c: &ContactPair| {
            let (a, b) = (c.a.index, c.b.index);
            if a < b { (a, b) } else { (b, a) }
        };
        let slots = contacts
            .iter()
            .map(|c| ends(c).0 as usize + 1)
            .max()
            .unwrap_or(0);
        self.start.clear();
        self.start.resize(slots + 1, 0);
        for c in contacts {
            self.start[ends(c).0 as usize + 1] += 1;
        }
        for i in 1..self.start.len() {
            self.start[i] += self.start[i - 1];
        }
        self.partners.clear();
        self.partners.resize(contacts.len(), 0);
        // Filled from each slot's start, which moves one place along per partner (and
        // ends at the next slot's start, where the counting put it).
        for c in contacts {
            let (lo, hi) = ends(c);
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

/// Whether `contacts` (sorted by the slots of `a`, then `b`, as the world builds them) hold
/// the pair of slots `x` and `y`, in either order.
pub(crate) fn holds_pair(contacts: &[ContactPair], x: u32, y: u32) -> bool {
    let key = if x < y { (x, y) } else { (y, x) };
    contacts
        .binary_search_by(|c| (c.a.index, c.b.index).cmp(&key))
        .is_ok()
}

/// The manifold normal of the pair of slots `x` and `y` in `contacts` (sorted as for
/// [`holds_pair`]), turned to point from `x` toward `y`; `None` if the pair is not there.
pub(crate) fn held_normal(contacts: &[ContactPair], x: u32, y: u32) -> Option<Vector> {
    let key = if x < y { (x, y) } else { (y, x) };
    let i = contacts
        .binary_search_by(|c| (c.a.index, c.b.index).cmp(&key))
        .ok()?;
    let normal = contacts[i].manifold.normal;
    Some(if contacts[i].a.index == x {
        normal
    } else {
        -normal
    })
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
/// step, by slot.
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
) -> bool {
    let (Some(a), Some(b)) = (bodies.get(c.a), bodies.get(c.b)) else {
        return false;
    };
    if !(a.is_dynamic() && a.ccd() || b.is_dynamic() && b.ccd()) {
        return false;
    }
    let start_of = |body: &RigidBody, slot: u32| {
        start
            .get(slot as usize)
            .copied()
            .flatten()
            .unwrap_or(*body.pose())
    };
    let (a0, b0) = (start_of(a, c.a.index), start_of(b, c.b.index));
    if a0 == *a.pose() && b0 == *b.pose() {
        return false;
    }
    let (a1, b1) = (*a.pose(), translated(b.pose(), &c.offset));
    let b0 = translated(&b0, &c.offset);
    let end = distance(a.shape(), &a1, b.shape(), &b1);
    if end.normal.dot(&c.manifold.normal) >= 0.0 {
        return false;
    }
    end.distance < reach
        || centre_went_through(a, (&a0, &a1), b, (&b0, &b1))
        || centre_went_through(b, (&b0, &b1), a, (&a0, &a1))
}

/// Whether the centre of mass of `x`, moving from pose `x0` to `x1` while `y` moves from `y0`
/// to `y1`, went through `y`'s shape on the straight path seen from `y`'s centre of mass:
/// against `y`'s shape as it stands at the start, or as it stands at the end.
///
/// Not in `y`'s own frame: when `y` turns, a straight path there is not the path `x` took.
/// A disc spinning half a turn while another was pushed through it saw that one's path from
/// its far side at both ends, on one side of it, and let the pair through. Against the shape
/// without its turn, the relative path is exact for a disc about its centre, and either
/// orientation can flag the crossing of a shape that turned.
fn centre_went_through(
    x: &RigidBody,
    (x0, x1): (&Isometry, &Isometry),
    y: &RigidBody,
    (y0, y1): (&Isometry, &Isometry),
) -> bool {
    let (from, to) = (x0 * x.local_center(), x1 * x.local_center());
    let (c0, c1) = (y0 * y.local_center(), y1 * y.local_center());
    [(y0, c0), (y1, c1)].into_iter().any(|(pose, centre)| {
        let Ok(path) = Segment::new(centre + (from - c0), centre + (to - c1)) else {
            return false;
        };
        distance(&path.into(), &Isometry::identity(), y.shape(), pose).distance <= 0.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::{Circle, Point, Vector};
    use impact_narrowphase::contact_manifold;
    use impact_solver::{BodyHandle, RigidBodyDef};

    const REACH: Real = 0.01;

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
        pushed_through(&bodies, &start, &pair, REACH)
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
                    let expected = x != y && holds_pair(&sorted, x, y);
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
        assert!(pushed_through(&bodies, &start, &pair, REACH));
        // The same motion without the turns is caught; a pair that only passed side by side
        // is not.
        place(&mut bodies, lower, 6.43, 5.7494, 0.0);
        place(&mut bodies, upper, 6.4174, 5.6376, 0.0);
        assert!(pushed_through(&bodies, &start, &pair, REACH));
        place(&mut bodies, upper, 6.6, 5.86, 0.0);
        assert!(!pushed_through(&bodies, &start, &pair, REACH));
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
