//! The pass-through detector: what it flags and what it leaves alone.

use impact_geometry::{Circle, Isometry, Point, Segment};
use impact_scene::{PassThroughDetector, PassThroughKind, Scene, StepperKind};
use impact_solver::{BodySet, RigidBodyDef};

const BULLETS: &str = r#"{
    "gravity": [0, 0],
    "steps": 10,
    "bodies": [
        {"type": "static", "shape": {"type": "segment", "a": [0, -10], "b": [0, 10]}},
        {"type": "static", "shape": {"type": "rectangle", "half_width": 0.0005, "half_height": 10}, "pose": {"x": 0, "y": 30}},
        {"shape": {"type": "circle", "radius": 0.05}, "pose": {"x": -1}, "linvel": [5000, 100], "ccd": true},
        {"shape": {"type": "circle", "radius": 0.05}, "pose": {"x": -1, "y": 30}, "linvel": [5000, 100]}
    ]
}"#;

fn run(kind: StepperKind) -> PassThroughDetector {
    let scene = Scene::from_json(BULLETS).unwrap().with_stepper(kind);
    let mut world = scene.build().unwrap();
    let mut detector = PassThroughDetector::new(world.body_set());
    for step in 1..=scene.steps {
        world.step(scene.dt).unwrap();
        detector.observe(world.body_set(), step);
    }
    detector
}

#[test]
fn bullets_through_a_segment_and_a_thin_box_are_flagged_once() {
    let found = run(StepperKind::Discrete).found().to_vec();
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!((found[0].body.index, found[0].obstacle.index), (2, 0));
    assert_eq!((found[1].body.index, found[1].obstacle.index), (3, 1));
    assert!(
        found
            .iter()
            .all(|f| f.kind == PassThroughKind::Crossed && f.step == 1)
    );
    assert!(found[0].ccd && !found[1].ccd);
}

#[test]
fn ccd_bullets_are_not_flagged_under_the_ccd_steppers() {
    for kind in [StepperKind::Clamp, StepperKind::Toi] {
        let found = run(kind).found().to_vec();
        // The bullet without the ccd flag still tunnels through the thin box.
        assert_eq!(found.len(), 1, "{kind}: {found:?}");
        assert!(!found[0].ccd);
    }
}

#[test]
fn ending_inside_a_static_body_is_flagged_and_grazing_an_end_is_not() {
    let mut bodies = BodySet::new();
    let rock = bodies
        .insert(
            RigidBodyDef::fixed(Circle::new(2.0).unwrap().into())
                .pose(Isometry::translation(0.0, 10.0)),
        )
        .unwrap();
    let wall = bodies
        .insert(RigidBodyDef::fixed(
            Segment::new(Point::new(0.0, 0.0), Point::new(10.0, 0.0))
                .unwrap()
                .into(),
        ))
        .unwrap();
    let disc = |x: f64, y: f64| {
        RigidBodyDef::new(Circle::new(0.1).unwrap().into()).pose(Isometry::translation(x, y))
    };
    let diver = bodies.insert(disc(0.0, 13.0)).unwrap();
    let grazer = bodies.insert(disc(-0.05, 0.1)).unwrap();
    let mut detector = PassThroughDetector::new(&bodies);

    // Into the rock, but not through its middle; and past the wall's end, within a radius.
    bodies
        .get_mut(diver)
        .unwrap()
        .set_pose(Isometry::translation(0.0, 11.5))
        .unwrap();
    bodies
        .get_mut(grazer)
        .unwrap()
        .set_pose(Isometry::translation(0.05, -0.1))
        .unwrap();
    assert_eq!(detector.observe(&bodies, 1), 1);
    let found = detector.found()[0];
    assert_eq!((found.body, found.obstacle), (diver, rock));
    assert_eq!(found.kind, PassThroughKind::EndedInside);

    // Staying inside is not news; crossing the wall well inside its ends is.
    bodies
        .get_mut(grazer)
        .unwrap()
        .set_pose(Isometry::translation(1.0, 0.5))
        .unwrap();
    assert_eq!(detector.observe(&bodies, 2), 1);
    assert_eq!(detector.found()[1].obstacle, wall);
    assert_eq!(detector.found()[1].body, grazer);
}
