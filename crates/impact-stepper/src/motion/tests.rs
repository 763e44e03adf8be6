//! Tests of the motion shared by the CCD steppers: the held pairs, the pushed-through net and
//! moving as one share their fixtures (a disc over a segment, two sticks turning together),
//! so they are kept together here rather than split with the code.

use super::as_one::move_as_one;
use super::pushed_through::centre_went_through;
use super::shape_pairs::swept_box;
use super::*;
use crate::domain::translated;
use impact_geometry::{Circle, ConvexPolygon, Point, Segment, Vector};
use impact_narrowphase::{contact_manifold, distance};
use impact_solver::{BodyHandle, BodySet, ContactPair, RigidBodyDef};

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
        shapes: [0, 0],
        offset: Vector::zeros(),
        material: None,
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
    /// for every pair of slots, whichever way round the contacts name their bodies; a hub
    /// (slot 7, one ground many bodies rest on) has more partners than are scanned.
    #[test]
    fn held_pairs_agree_with_the_search_of_the_sorted_contacts(
        pairs in proptest::collection::vec((0u32..40, 0u32..40), 0..120),
        hub in proptest::collection::vec((proptest::bool::ANY, 0u32..40), 0..60),
    ) {
        let ends: Vec<(u32, u32)> = pairs
            .into_iter()
            .chain(hub.into_iter().map(|(first, x)| if first { (7, x) } else { (x, 7) }))
            .collect();
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
                shapes: [0, 0],
                offset: Vector::zeros(),
                material: None,
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
                let expected = x != y && held_contact(&sorted, (x, None), (y, None)).is_some();
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
    // or its end orientation (a test that ignores how the other turns), cuts through it...
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
        (x, x.shape(), &a0),
        (y, y.shape(), &b0),
        &Vector::zeros(),
        DT
    ));
    assert!(!centre_went_through(
        (y, y.shape(), &b0),
        (x, x.shape(), &a0),
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
        shapes: [0, 0],
        offset,
        material: None,
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

/// A pair of bodies of several shapes is held only if the solver holds every shape pair's
/// contact, and the look-ups by slots find each shape pair's own contact in either order, in
/// contacts that are not in slot order (a further shape's proxy index says nothing of its
/// body's slot).
#[test]
fn a_compound_pair_is_held_only_if_every_shape_pair_is() {
    let circle: impact_geometry::Shape = Circle::new(0.5).unwrap().into();
    let manifold = contact_manifold(
        &circle,
        &Isometry::identity(),
        &circle,
        &Isometry::translation(0.9, 0.0),
        REACH,
    );
    let handle = |index| BodyHandle {
        index,
        generation: 0,
    };
    let contact = |a, b, shapes| ContactPair {
        shapes,
        ..ContactPair::new(handle(a), handle(b), manifold)
    };
    // Bodies 1 and 4 (a compound), met by shapes [0, 0] and, through a further proxy that
    // sorts after body 6's, by shapes [2, 1] with body 4 first.
    let contacts = [
        contact(1, 4, [0, 0]),
        contact(3, 6, [0, 0]),
        contact(4, 1, [1, 2]),
    ];
    let several = |c: &ContactPair| c.a.index != 3;
    let mut held = HeldPairs::default();
    held.rebuild_where(&contacts, |c| c.shapes == [0, 0], several);
    assert!(held.holds(3, 6) && !held.holds(1, 4));
    held.rebuild_where(&contacts, |_| true, several);
    assert!(held.holds(1, 4) && held.holds(4, 1));
    let mut by_slots = BySlots::default();
    by_slots.rebuild(&contacts);
    let view = by_slots.view(&contacts);
    assert!(view.is_sorted_by_key(|c| (c.a.index.min(c.b.index), c.a.index.max(c.b.index))));
    let found = held_contact(view, (1, Some(2)), (4, Some(1))).unwrap();
    assert_eq!((found.a.index, found.shapes), (4, [1, 2]));
    assert!(held_contact(view, (4, Some(0)), (1, Some(0))).is_some());
    assert!(held_contact(view, (1, Some(1)), (4, Some(1))).is_none());
    assert_eq!(held_normal(view, (4, 1), (1, 2)), Some(manifold.normal));
    assert_eq!(held_normal(view, (1, 2), (4, 1)), Some(-manifold.normal));
}

/// A flat open chain from (1, 0) to (-1, 0) in four segments as a static body (its centre of
/// mass, the mean of its segments, at the vertex (0, 0)), and a box 0.2 wide resting on its
/// segment `segment`, sunk 5e-5 and tilted by `tilt`, at `from`; the contact pair of that
/// segment, the start poses, and the body set with the box moved to `to` (same tilt).
fn box_on_chain(
    segment: u32,
    (from, to): (Real, Real),
    tilt: Real,
) -> (BodySet, Vec<Option<Isometry>>, ContactPair) {
    let points: Vec<Point> = (0..=4)
        .map(|i| Point::new(1.0 - 0.5 * Real::from(i), 0.0))
        .collect();
    let chain = impact_geometry::Chain::open(&points).unwrap();
    let mut bodies = BodySet::new();
    let ground = bodies.insert(RigidBodyDef::from_chain(&chain)).unwrap();
    let pose = |x: Real| Isometry::new(Vector::new(x, 0.1 - 5e-5), tilt);
    let cube = bodies
        .insert(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.1, 0.1).unwrap().into())
                .pose(pose(from))
                .ccd(true),
        )
        .unwrap();
    let (g, b) = (bodies.get(ground).unwrap(), bodies.get(cube).unwrap());
    let shape = g.shapes()[segment as usize].shape();
    let manifold = contact_manifold(shape, g.pose(), b.shape(), b.pose(), REACH);
    assert!(!manifold.points().is_empty(), "touching at the start");
    let pair = ContactPair {
        a: ground,
        b: cube,
        manifold,
        shapes: [segment, 0],
        offset: Vector::zeros(),
        material: None,
    };
    let start = vec![Some(*g.pose()), Some(pose(from))];
    bodies.get_mut(cube).unwrap().set_pose(pose(to)).unwrap();
    (bodies, start, pair)
}

#[test]
fn a_box_sliding_over_a_chain_is_never_pushed_through_it() {
    // Across the chain's centre of mass, a point of its surface, the box leaving the segment
    // from 0.5 to 0 onto the next: the normal to that segment turns by 90 degrees and the
    // tilt, and the centre passes through the box's bottom.
    let (bodies, start, pair) = box_on_chain(1, (-0.1, -0.2), 3e-4);
    assert!(!pushed_through(&bodies, &start, &pair, REACH, DT));
    // Its side face ending a millimetre past the segment's end, within reach.
    let (bodies, start, pair) = box_on_chain(1, (0.0, -0.101), 3e-4);
    assert!(!pushed_through(&bodies, &start, &pair, REACH, DT));
    // Pushed down through the segment, half way and clean through: caught.
    for depth in [0.12, 0.3] {
        let (mut bodies, start, pair) = box_on_chain(1, (0.25, 0.25), 0.0);
        let cube = pair.b;
        let pose = Isometry::translation(0.25, 0.1 - depth);
        bodies.get_mut(cube).unwrap().set_pose(pose).unwrap();
        assert!(pushed_through(&bodies, &start, &pair, REACH, DT), "{depth}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

    /// Ground of 1 to 60 squares in one body (a tree over their boxes from 9 on), turned
    /// and placed at random up to 1e5 from the origin (where rounding is largest), still or
    /// moving, against a body of 1 to 3 squares on a random
    /// sweep, either way round: the shape pairs given are exactly those whose boxes meet
    /// (the first body's padded), in the second body's order, then the first's, as a walk
    /// over every shape pair finds them.
    #[test]
    fn the_shape_pairs_are_those_whose_boxes_meet(
        ground in proptest::collection::vec((-5.0..5.0, -5.0..5.0, 0.05..0.6), 1..61),
        (gx, gy, gangle, ground_moves) in (-1e5..1e5, -1e5..1e5, -3.2..3.2, proptest::bool::weighted(0.2)),
        piece in proptest::collection::vec((-0.5..0.5, -0.5..0.5, 0.05..0.3), 1..4),
        (px, py, vx, vy, w) in (-6.0..6.0, -6.0..6.0, -60.0..60.0, -60.0..60.0, -20.0..20.0),
        ground_first in proptest::bool::ANY,
    ) {
        let body = |parts: &[(Real, Real, Real)], def: fn(impact_geometry::Shape) -> RigidBodyDef| {
            let square = |&(x, y, h): &(Real, Real, Real)| -> impact_geometry::Shape {
                ConvexPolygon::new(&[
                    Point::new(x - h, y - h),
                    Point::new(x + h, y - h),
                    Point::new(x + h, y + h),
                    Point::new(x - h, y + h),
                ])
                .unwrap()
                .into()
            };
            let mut d = def(square(&parts[0]));
            for part in &parts[1..] {
                d = d.with_shape(impact_solver::ShapeDef::new(square(part)));
            }
            RigidBody::new(d).unwrap()
        };
        let g = body(&ground, RigidBodyDef::fixed);
        let p = body(&piece, RigidBodyDef::new);
        let ground_velocity = if ground_moves { Vector::new(1.0, -2.0) } else { Vector::zeros() };
        let sweep_g = Sweep::new(
            Isometry::new(Vector::new(gx, gy), gangle),
            g.local_center(),
            ground_velocity,
            0.0,
            DT,
        )
        .unwrap();
        let sweep_p = Sweep::new(
            Isometry::new(Vector::new(gx + px, gy + py), 0.3),
            p.local_center(),
            Vector::new(vx, vy),
            w,
            DT,
        )
        .unwrap();
        let ((x, sx), (y, sy)) = if ground_first {
            ((&g, &sweep_g), (&p, &sweep_p))
        } else {
            ((&p, &sweep_p), (&g, &sweep_g))
        };
        let pad = 0.01;
        let mut found = Vec::new();
        for_each_pair((x, sx), (y, sy), pad, |_| true, |pair, _, _| found.push(pair));
        let mut expected = Vec::new();
        if !(x.has_one_shape() && y.has_one_shape()) {
            for (j, b) in y.shapes().iter().enumerate() {
                let box_y = swept_box(b.shape(), sy);
                for (i, a) in x.shapes().iter().enumerate() {
                    if swept_box(a.shape(), sx).inflated(pad).intersects(&box_y) {
                        expected.push([i as u32, j as u32]);
                    }
                }
            }
        } else {
            expected.push([0, 0]);
        }
        proptest::prop_assert_eq!(found, expected);
    }
}
