//! Invariant: a sensor never collides, and changes nothing else.
//!
//! - The rain and the tumbling rain, with sensors of every kind added after their bodies (a
//!   static box across the field, a static segment, a kinematic disc sweeping through the
//!   column, fast dynamic CCD discs and a spinning box falling through everything): under
//!   every stepper, at every step, every other body is bit for bit where it is without the
//!   sensors, the events are the same, and the contact manifolds given to the stepper are
//!   the same (no sensor in any). The sensors' candidate pairs are set aside for sensor
//!   events, each with a sensor in it, and the sensors report overlaps (each begin of a
//!   pair before its end).
//! - A dynamic sensor falls as if nothing were there: its velocity is its launch velocity
//!   plus gravity's, whatever it passed through.
//! - A sensor bullet at 10,000 units/s passes through the 1 mm wall and the paper under
//!   every stepper, unslowed, with no event.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Segment, Vector};
use impact_solver::{BodyHandle, BodyType, RigidBodyDef};
use impact_stepper::{Discrete, FirstTimeOfImpact, MotionClamping, Stepper, World};
use impact_testkit::filters::Recording;
use impact_testkit::scenes::{self, Scene};

/// `scene` with sensors after its bodies, around the rain's field of half width
/// `half_width`.
fn with_sensors(scene: &Scene, half_width: Real) -> Scene {
    let mut scene = scene.clone();
    let sensor = |def: RigidBodyDef| def.sensor(true);
    scene.bodies.extend([
        sensor(RigidBodyDef::fixed(
            ConvexPolygon::rectangle(half_width, 1.0).unwrap().into(),
        ))
        .pose(Isometry::translation(0.0, 3.5)),
        sensor(RigidBodyDef::fixed(
            Segment::new(Point::new(-half_width, 1.5), Point::new(half_width, 1.7))
                .unwrap()
                .into(),
        )),
        sensor(RigidBodyDef::kinematic(Circle::new(2.0).unwrap().into()))
            .pose(Isometry::translation(-half_width, 6.0))
            .linvel(Vector::new(10.0, 0.0)),
    ]);
    for k in 0..8 {
        let x = -half_width + (k as Real + 0.5) * half_width / 4.0;
        scene.bodies.push(
            sensor(RigidBodyDef::new(Circle::new(0.3).unwrap().into()))
                .pose(Isometry::translation(x, 40.0))
                .linvel(Vector::new(0.0, -150.0))
                .ccd(true),
        );
    }
    scene.bodies.push(
        sensor(RigidBodyDef::new(
            ConvexPolygon::rectangle(0.5, 0.1).unwrap().into(),
        ))
        .pose(Isometry::translation(0.0, 20.0))
        .linvel(Vector::new(1.0, -60.0))
        .angvel(40.0)
        .ccd(true),
    );
    scene
}

type W<S> = World<RTreeBroadphase, Recording<S>>;

fn untouched<S: Stepper + Default + Clone>(scene: &Scene, half_width: Real) {
    let sensed = with_sensors(scene, half_width);
    let (mut plain, handles) = scene.build::<RTreeBroadphase, Recording<S>>().unwrap();
    let (mut world, all): (W<S>, _) = sensed.build().unwrap();
    let sensors = &all[handles.len()..];
    let mut sensor_pairs = 0;
    let mut open = std::collections::BTreeSet::new();
    let mut begins = 0;
    let steps = 60;
    for step in 0..steps {
        plain.step(DT).unwrap();
        world.step(DT).unwrap();
        for &h in &handles {
            let (x, y) = (plain.body(h).unwrap(), world.body(h).unwrap());
            assert_eq!(
                (x.pose(), x.linvel(), x.angvel()),
                (y.pose(), y.linvel(), y.angvel()),
                "{} step {step}: body {}",
                scene.name,
                h.index
            );
        }
        assert_eq!(plain.events(), world.events(), "{} step {step}", scene.name);
        assert_eq!(
            plain.stepper().contacts,
            world.stepper().contacts,
            "{} step {step}: manifolds",
            scene.name
        );
        for &(a, b, _) in &world.stepper().sensor_pairs {
            assert!(
                sensors.contains(&a.body) || sensors.contains(&b.body),
                "{a:?} {b:?}"
            );
        }
        sensor_pairs += world.stepper().sensor_pairs.len();
        let events = world.sensor_events();
        let mut all: Vec<_> = events
            .begin()
            .iter()
            .map(|e| (e.time, true, e.sensor.body, e.visitor.body))
            .chain(
                events
                    .end()
                    .iter()
                    .map(|e| (e.time, false, e.sensor.body, e.visitor.body)),
            )
            .collect();
        all.sort_by(|x, y| x.0.total_cmp(&y.0).then(y.1.cmp(&x.1)));
        for (_, begin, sensor, body) in all {
            assert!(sensors.contains(&sensor) && !sensors.contains(&body));
            let fresh = if begin {
                open.insert((sensor, body))
            } else {
                open.remove(&(sensor, body))
            };
            assert!(
                fresh,
                "{} step {step}: {begin} twice for {sensor:?} {body:?}",
                scene.name
            );
            begins += usize::from(begin);
        }
    }
    let overlaps: Vec<_> = world
        .sensor_overlaps()
        .iter()
        .map(|(s, v)| (s.body, v.body))
        .collect();
    assert_eq!(
        open.into_iter().collect::<Vec<_>>(),
        overlaps,
        "{}",
        scene.name
    );
    assert!(begins > 50, "{}: {begins} overlaps", scene.name);
    assert!(
        sensor_pairs > 100,
        "{}: {sensor_pairs} sensor pairs",
        scene.name
    );
    // The falling sensors fell freely: launch velocity plus gravity's, through everything.
    let g = scene.settings.gravity.y;
    for &h in sensors {
        let body = world.body(h).unwrap();
        if body.body_type() == BodyType::Dynamic {
            let vy = sensed.bodies[h.index as usize].linvel.y + g * DT * steps as Real;
            assert!(
                (body.linvel().y - vy).abs() < 1e-9,
                "{:?} vs {vy}",
                body.linvel()
            );
        }
    }
}

#[test]
fn bodies_falling_through_sensors_are_untouched() {
    for seed in [1, 6] {
        let rain = scenes::rain(200, seed);
        let half_width = scenes::rain_field(200).half_width;
        untouched::<Discrete>(&rain, half_width);
        untouched::<MotionClamping>(&rain, half_width);
        untouched::<FirstTimeOfImpact>(&rain, half_width);
        let tumbling = scenes::tumbling_rain(200, seed);
        untouched::<MotionClamping>(&tumbling, half_width);
        untouched::<FirstTimeOfImpact>(&tumbling, half_width);
    }
}

fn sensor_bullet_passes<S: Stepper + Default>() {
    for wall in [scenes::Wall::Thin, scenes::Wall::Segment] {
        let mut scene = scenes::bullet_through_paper(10_000.0, 0.3, wall);
        scene.bodies[1].sensor = true;
        let (mut world, handles) = scene.build::<RTreeBroadphase, S>().unwrap();
        let bullet: BodyHandle = handles[1];
        let v = world.body(bullet).unwrap().linvel();
        world.step(DT).unwrap();
        assert!(world.events().is_empty());
        let body = world.body(bullet).unwrap();
        assert!(
            body.pose().translation.x > 100.0,
            "{wall:?}: stopped at {}",
            body.pose()
        );
        assert_eq!(body.linvel(), v);
    }
}

#[test]
fn a_sensor_bullet_passes_through_paper_under_every_stepper() {
    sensor_bullet_passes::<Discrete>();
    sensor_bullet_passes::<MotionClamping>();
    sensor_bullet_passes::<FirstTimeOfImpact>();
}
