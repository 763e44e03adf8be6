//! Invariant: a body of several shapes is one body to the world, and each of its shapes
//! collides, senses and is reported on its own.
//!
//! - Sensors are shapes: a static body of a solid wall and a 1 mm sensor slab stops a bullet
//!   at 10,000 units/s at the wall while the slab reports it crossing, begin and end inside
//!   the step at the closed form's times within 1e-9 s, under both CCD steppers, each event
//!   naming the slab's `ShapeId`; a zone above a floor of the same body reports a ball that
//!   falls through it and comes to rest on the floor (the floor shape touching it), whatever
//!   the order of the shapes; a dynamic body's own sensor shape sees the ground, never its
//!   own solid shape.
//! - `World::add_shape`, `remove_shape` and `set_shape_filter`: the body keeps its handle,
//!   queries and steps see the change at once, a removed shape's touching pairs and sensor
//!   overlaps end with end events in the next step at the removal's time, the shapes after it
//!   go on touching under their new index without events, a shape's filter decides for that
//!   shape alone, and a failed call names its field and changes nothing.
//! - `World::create_bodies` puts a list of bodies in consecutive slots, before their further
//!   shapes' proxies hold slots back (one at a time, a body after a body of three shapes is
//!   slot 3), and names a bad def by its place in the list.

mod common;

use common::DT;
use impact_broadphase::{Broadphase, RTreeBroadphase};
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Vector};
use impact_narrowphase::ray::Ray;
use impact_solver::{BodyHandle, CollisionFilter, RigidBodyDef, ShapeDef, ShapeId};
use impact_stepper::{
    Discrete, FirstTimeOfImpact, Interior, MotionClamping, QueryFilter, Stepper, World, WorldError,
    WorldSettings,
};

type W<S> = World<RTreeBroadphase, S>;

fn world<S: Stepper + Default>(gravity: Vector) -> W<S> {
    W::<S>::new(WorldSettings::with_gravity(gravity)).unwrap()
}

/// The box `[x0, x1] x [y0, y1]` in the body frame.
fn rect(x0: Real, y0: Real, x1: Real, y1: Real) -> Shape {
    ConvexPolygon::new(&[
        Point::new(x0, y0),
        Point::new(x1, y0),
        Point::new(x1, y1),
        Point::new(x0, y1),
    ])
    .unwrap()
    .into()
}

fn shape(body: BodyHandle, index: u32) -> ShapeId {
    ShapeId { body, index }
}

/// Every sensor event of the last step as (begin, sensor, visitor, time).
fn sensor_events<S: Stepper>(w: &W<S>) -> Vec<(bool, ShapeId, ShapeId, Real)> {
    let e = w.sensor_events();
    e.begin()
        .iter()
        .map(|e| (true, e.sensor, e.visitor, e.time))
        .chain(e.end().iter().map(|e| (false, e.sensor, e.visitor, e.time)))
        .collect()
}

/// A wall (shape 0: a segment at x = 20) and a sensor slab 1 mm thick at x = 10 (shape 1),
/// one static body; a bullet of radius 0.05 from the origin at 10,000 units/s.
fn wall_and_slab<S: Stepper + Default + Named>() {
    let mut w = world::<S>(Vector::zeros());
    let slab = rect(9.9995, -1.0, 10.0005, 1.0);
    let wall = w
        .create_body(
            RigidBodyDef::fixed(
                Segment::new(Point::new(20.0, -1.0), Point::new(20.0, 1.0))
                    .unwrap()
                    .into(),
            )
            .with_shape(ShapeDef::new(slab).sensor(true)),
        )
        .unwrap();
    let bullet = w
        .create_body(
            RigidBodyDef::new(Circle::new(0.05).unwrap().into())
                .linvel(Vector::new(10_000.0, 0.0))
                .ccd(true),
        )
        .unwrap();
    w.step(DT).unwrap();
    let x = w.body(bullet).unwrap().pose().translation.x;
    assert!(
        x < 20.0 && x > 19.0,
        "{}: stopped at the wall, at {x}",
        S::NAME
    );
    let (t_in, t_out) = (9.9495 / 10_000.0, 10.0505 / 10_000.0);
    let got = sensor_events(&w);
    assert_eq!(got.len(), 2, "{}: {got:?}", S::NAME);
    for (e, (begin, t)) in got.iter().zip([(true, t_in), (false, t_out)]) {
        assert_eq!((e.0, e.1, e.2), (begin, shape(wall, 1), shape(bullet, 0)));
        assert!((e.3 - t).abs() < 1e-9, "{}: {e:?} vs {t}", S::NAME);
    }
    assert!(w.sensor_overlaps().is_empty());
}

/// The names of the steppers in messages.
trait Named {
    const NAME: &'static str;
}
impl Named for FirstTimeOfImpact {
    const NAME: &'static str = "FirstTimeOfImpact";
}
impl Named for MotionClamping {
    const NAME: &'static str = "MotionClamping";
}
impl Named for Discrete {
    const NAME: &'static str = "Discrete";
}

#[test]
fn a_sensor_shape_reports_a_bullet_that_its_solid_sibling_stops() {
    fn run<S: Stepper + Default + Named>() {
        wall_and_slab::<S>();
    }
    run::<FirstTimeOfImpact>();
    run::<MotionClamping>();
}

/// A floor `[-5, 5] x [-1, 0]` and a zone `[-2, 2] x [0, 1]` above it, one static body,
/// the zone first if `zone_first`; a ball of radius 0.25 dropped from y = 3.
fn ball_through_a_zone_onto_its_floor<S: Stepper + Default>(zone_first: bool) {
    let mut w = world::<S>(Vector::new(0.0, -9.81));
    let (zone, floor) = (
        ShapeDef::new(rect(-2.0, 0.0, 2.0, 1.0)).sensor(true),
        ShapeDef::new(rect(-5.0, -1.0, 5.0, 0.0)),
    );
    let (first, second, zone_index, floor_index) = if zone_first {
        (zone, floor, 0, 1)
    } else {
        (floor, zone, 1, 0)
    };
    let mut def = RigidBodyDef::fixed(first.shape.clone()).with_shape(second);
    def.sensor = first.sensor;
    let ground = w.create_body(def).unwrap();
    let ball = w
        .create_body(
            RigidBodyDef::new(Circle::new(0.25).unwrap().into())
                .pose(Isometry::translation(0.3, 3.0)),
        )
        .unwrap();
    let mut begins = Vec::new();
    for _ in 0..180 {
        w.step(DT).unwrap();
        for e in sensor_events(&w) {
            begins.push(e);
        }
    }
    let y = w.body(ball).unwrap().pose().translation.y;
    assert!((y - 0.25).abs() < 0.02, "resting on the floor at {y}");
    assert_eq!(begins.len(), 1, "{begins:?}");
    assert_eq!(
        (begins[0].0, begins[0].1, begins[0].2),
        (true, shape(ground, zone_index), shape(ball, 0))
    );
    assert_eq!(
        w.sensor_overlaps(),
        [(shape(ground, zone_index), shape(ball, 0))]
    );
    assert_eq!(
        w.touching_pairs(),
        [(shape(ground, floor_index), shape(ball, 0))]
    );
}

#[test]
fn a_zone_reports_a_ball_that_rests_on_the_floor_of_its_body() {
    for zone_first in [false, true] {
        ball_through_a_zone_onto_its_floor::<Discrete>(zone_first);
        ball_through_a_zone_onto_its_floor::<FirstTimeOfImpact>(zone_first);
        ball_through_a_zone_onto_its_floor::<MotionClamping>(zone_first);
    }
}

#[test]
fn a_body_s_own_sensor_sees_the_ground_not_the_body() {
    let mut w = world::<Discrete>(Vector::new(0.0, -9.81));
    let ground = w
        .create_body(RigidBodyDef::fixed(rect(-5.0, -1.0, 5.0, 0.0)))
        .unwrap();
    // A disc with a sensor ring of radius 1 about it: the ring reaches the ground first.
    let probe = w
        .create_body(
            RigidBodyDef::new(Circle::new(0.25).unwrap().into())
                .with_shape(ShapeDef::new(Circle::new(1.0).unwrap().into()).sensor(true))
                .pose(Isometry::translation(0.0, 2.0)),
        )
        .unwrap();
    let mut seen = Vec::new();
    for _ in 0..120 {
        w.step(DT).unwrap();
        seen.extend(sensor_events(&w));
    }
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(
        (seen[0].0, seen[0].1, seen[0].2),
        (true, shape(probe, 1), shape(ground, 0))
    );
    assert_eq!(w.touching_pairs(), [(shape(ground, 0), shape(probe, 0))]);
    let y = w.body(probe).unwrap().pose().translation.y;
    assert!(
        (y - 0.25).abs() < 0.02,
        "the disc rests on the ground at {y}"
    );
}

/// Three boxes side by side as one static floor (x in [-6, -2], [-2, 2], [2, 6]) and a
/// box resting on each of the last two.
fn three_floors() -> (W<Discrete>, BodyHandle, BodyHandle, BodyHandle) {
    let mut w = world::<Discrete>(Vector::new(0.0, -9.81));
    let floor = w
        .create_body(
            RigidBodyDef::fixed(rect(-6.0, -1.0, -2.0, 0.0))
                .with_shape(ShapeDef::new(rect(-2.0, -1.0, 2.0, 0.0)))
                .with_shape(ShapeDef::new(rect(2.0, -1.0, 6.0, 0.0))),
        )
        .unwrap();
    let on = |x: Real| {
        RigidBodyDef::new(ConvexPolygon::rectangle(0.5, 0.5).unwrap().into())
            .pose(Isometry::translation(x, 0.5))
    };
    let a = w.create_body(on(0.0)).unwrap();
    let b = w.create_body(on(4.0)).unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    (w, floor, a, b)
}

#[test]
fn a_removed_shape_ends_its_pairs_and_the_next_one_goes_on_touching() {
    let (mut w, floor, a, b) = three_floors();
    assert_eq!(
        w.touching_pairs(),
        [
            (shape(floor, 1), shape(a, 0)),
            (shape(floor, 2), shape(b, 0))
        ]
    );
    let removed = w.remove_shape(shape(floor, 1)).unwrap();
    assert_eq!(removed.shape(), &rect(-2.0, -1.0, 2.0, 0.0));
    assert_eq!(w.body(floor).unwrap().shapes().len(), 2);
    // The box on the right now stands on shape 1, and goes on touching without events.
    assert_eq!(w.touching_pairs(), [(shape(floor, 1), shape(b, 0))]);
    let t = w.time();
    w.step(DT).unwrap();
    let ends: Vec<_> = w
        .contact_events()
        .end()
        .iter()
        .map(|e| (e.a, e.b, e.time))
        .collect();
    assert_eq!(ends, [(shape(floor, 1), shape(a, 0), t)]);
    assert!(w.contact_events().begin().is_empty());
    // The box in the middle falls through the gap; the other rests.
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    assert!(w.body(a).unwrap().pose().translation.y < -0.5);
    assert!((w.body(b).unwrap().pose().translation.y - 0.5).abs() < 0.01);
    // A ray down the middle meets nothing of the floor; one at x = 4 meets shape 1.
    let down = |x: Real| Ray::new(Point::new(x, 5.0), Vector::new(0.0, -10.0));
    let all = QueryFilter::new().exclude_bodies(&[]);
    let hits = w.cast_ray_all(&down(0.0), Interior::Solid, &all).unwrap();
    assert!(hits.iter().all(|h| h.body != floor), "{hits:?}");
    let hits = w.cast_ray_all(&down(4.5), Interior::Solid, &all).unwrap();
    assert_eq!(hits.last().unwrap().shape, shape(floor, 1));
}

#[test]
fn an_added_shape_is_seen_at_once_and_holds_what_falls_on_it() {
    let (mut w, floor, a, _) = three_floors();
    let handle_before = floor;
    // A ledge over the middle box: it is hit by queries at once, and stops a ball.
    let id = w
        .add_shape(floor, ShapeDef::new(rect(-1.0, 3.0, 1.0, 3.5)))
        .unwrap();
    assert_eq!(id, shape(handle_before, 3));
    let hit = w
        .cast_ray(
            &Ray::new(Point::new(0.0, 10.0), Vector::new(0.0, -10.0)),
            Interior::Solid,
            &QueryFilter::new(),
        )
        .unwrap()
        .unwrap();
    assert_eq!((hit.shape, hit.point.y), (id, 3.5));
    let ball = w
        .create_body(
            RigidBodyDef::new(Circle::new(0.2).unwrap().into())
                .pose(Isometry::translation(0.0, 5.0)),
        )
        .unwrap();
    for _ in 0..90 {
        w.step(DT).unwrap();
    }
    let y = w.body(ball).unwrap().pose().translation.y;
    assert!((y - 3.7).abs() < 0.02, "the ball rests on the ledge at {y}");
    assert!(w.touching_pairs().contains(&(id, shape(ball, 0))));
    assert!(w.touching_pairs().contains(&(shape(floor, 1), shape(a, 0))));
}

#[test]
fn a_shape_s_filter_decides_for_that_shape_alone() {
    let (mut w, floor, a, b) = three_floors();
    // Shape 2 (under `b`) no longer collides with anything of category 1.
    w.set_shape_filter(shape(floor, 2), CollisionFilter::new(2, 2))
        .unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    assert!(
        w.body(b).unwrap().pose().translation.y < -0.5,
        "b fell through"
    );
    assert!((w.body(a).unwrap().pose().translation.y - 0.5).abs() < 0.01);
    assert_eq!(
        w.body(floor).unwrap().shapes()[2].filter(),
        CollisionFilter::new(2, 2)
    );
}

#[test]
fn a_removed_sensor_shape_ends_its_overlaps() {
    let mut w = world::<Discrete>(Vector::zeros());
    let zone = w
        .create_body(
            RigidBodyDef::fixed(rect(-5.0, -5.0, -4.0, -4.0))
                .with_shape(ShapeDef::new(rect(-1.0, -1.0, 1.0, 1.0)).sensor(true)),
        )
        .unwrap();
    let ball = w
        .create_body(RigidBodyDef::new(Circle::new(0.25).unwrap().into()))
        .unwrap();
    w.step(DT).unwrap();
    assert_eq!(w.sensor_overlaps(), [(shape(zone, 1), shape(ball, 0))]);
    let t = w.time();
    w.remove_shape(shape(zone, 1)).unwrap();
    assert!(w.sensor_overlaps().is_empty());
    w.step(DT).unwrap();
    let ends = sensor_events(&w);
    assert_eq!(ends, [(false, shape(zone, 1), shape(ball, 0), t)]);
}

#[test]
fn a_failed_shape_change_names_its_field_and_changes_nothing() {
    let (mut w, floor, a, _) = three_floors();
    let before = (
        w.body(floor).unwrap().clone(),
        w.body(a).unwrap().clone(),
        w.touching_pairs().to_vec(),
        w.broadphase().len(),
    );
    let same = |w: &W<Discrete>| {
        assert_eq!(
            (
                w.body(floor).unwrap().clone(),
                w.body(a).unwrap().clone(),
                w.touching_pairs().to_vec(),
                w.broadphase().len(),
            ),
            before
        );
    };
    let message = |e: WorldError| e.to_string();
    let bad = ShapeDef::new(rect(0.0, 0.0, 1.0, 1.0)).restitution(2.0);
    assert!(message(w.add_shape(floor, bad).unwrap_err()).starts_with("shape.restitution"));
    same(&w);
    let bad = ShapeDef::new(rect(0.0, 0.0, 1.0, 1.0)).density(Real::NAN);
    assert!(message(w.add_shape(floor, bad).unwrap_err()).starts_with("shape.density"));
    same(&w);
    let stale = BodyHandle {
        index: a.index,
        generation: a.generation + 1,
    };
    let err = w
        .add_shape(stale, ShapeDef::new(rect(0.0, 0.0, 1.0, 1.0)))
        .unwrap_err();
    assert!(message(err).starts_with("handle"));
    assert!(message(w.remove_shape(shape(stale, 0)).unwrap_err()).starts_with("shape.body"));
    assert!(message(w.remove_shape(shape(floor, 3)).unwrap_err()).starts_with("shape"));
    // A body keeps at least one shape.
    assert!(message(w.remove_shape(shape(a, 0)).unwrap_err()).starts_with("shape"));
    let err = w
        .set_shape_filter(shape(a, 1), CollisionFilter::DEFAULT)
        .unwrap_err();
    assert!(message(err).starts_with("shape"));
    same(&w);
    // A dynamic body left with a segment only would have no mass.
    let stick = w
        .create_body(
            RigidBodyDef::new(Circle::new(0.2).unwrap().into())
                .with_shape(ShapeDef::new(
                    Segment::new(Point::new(0.0, 0.0), Point::new(1.0, 0.0))
                        .unwrap()
                        .into(),
                ))
                .pose(Isometry::translation(0.0, 20.0)),
        )
        .unwrap();
    let kept = w.body(stick).unwrap().clone();
    let err = w.remove_shape(shape(stick, 0)).unwrap_err();
    assert!(message(err).starts_with("body.mass"), "massless");
    assert_eq!(w.body(stick).unwrap(), &kept);
}

#[test]
fn bodies_created_together_take_consecutive_slots() {
    let l = || {
        RigidBodyDef::new(rect(0.0, 0.0, 3.0, 1.0))
            .with_shape(ShapeDef::new(rect(0.0, 1.0, 1.0, 3.0)))
            .with_shape(ShapeDef::new(Circle::new(0.5).unwrap().into()).sensor(true))
    };
    let disc = || RigidBodyDef::new(Circle::new(0.5).unwrap().into());
    // One at a time, a body after an L takes the slot after the L's further shapes.
    let mut w = world::<Discrete>(Vector::zeros());
    let a = w.create_body(l()).unwrap();
    let b = w.create_body(disc()).unwrap();
    assert_eq!((a.index, b.index), (0, 3));
    // Together, the bodies come first.
    let mut w = world::<Discrete>(Vector::zeros());
    let placed = |x: Real, def: RigidBodyDef| def.pose(Isometry::translation(x, 0.0));
    let handles = w
        .create_bodies([placed(0.0, l()), placed(5.0, disc()), placed(10.0, l())])
        .unwrap();
    let slots: Vec<u32> = handles.iter().map(|h| h.index).collect();
    assert_eq!(slots, [0, 1, 2]);
    // Every shape is seen: a ray along y = 0.5 meets the feet and the disc, one along y = 2
    // the legs.
    let along = |y: Real| -> Vec<ShapeId> {
        let ray = Ray::new(Point::new(-1.0, y), Vector::new(20.0, 0.0));
        w.cast_ray_all(&ray, Interior::Solid, &QueryFilter::new())
            .unwrap()
            .iter()
            .map(|h| h.shape)
            .collect()
    };
    assert_eq!(
        along(0.5),
        [
            shape(handles[0], 0),
            shape(handles[1], 0),
            shape(handles[2], 0)
        ]
    );
    assert_eq!(along(2.0), [shape(handles[0], 1), shape(handles[2], 1)]);
    w.step(DT).unwrap();
    // A bad def is named by its place in the list, and nothing is created.
    let before = w.len();
    let bad = disc().friction(-1.0);
    let err = w.create_bodies([disc(), bad]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "bodies[1].friction: must be zero or positive, got -1"
    );
    assert_eq!(w.len(), before);
}
