//! The pass-through detector: what it flags and what it leaves alone.

use impact_geometry::{Circle, Isometry, Point, Segment};
use impact_scene::{Scene, StepperKind};
use impact_solver::{BodySet, RigidBodyDef};
use impact_stepper::judge::{PassThroughDetector, PassThroughKind, TurnRecorder};

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

/// A disc bounced off a wall inside its one step, under `FirstTimeOfImpact`: from (0, 0.5)
/// down to the wall at x = 1.05 and back down-left to about (0, -0.5). Its chord crosses the
/// short segment on y = 0 near its middle; its path went round the segment's right end, 0.2
/// away from it at the closest. Shared with impact-cli's tests.
const BOUNCE: &str = include_str!("scenes/bounce_past_segment.json");

#[test]
fn a_path_bent_inside_the_step_is_judged_on_its_legs_not_its_chord() {
    let scene = Scene::from_json(BOUNCE).unwrap();
    let mut world = scene.build().unwrap();
    let mut by_chord = PassThroughDetector::new(world.body_set());
    let mut by_legs = by_chord.clone();
    let mut hook = TurnRecorder::new(scene.reactions());
    world.step_with(scene.dt, &mut hook).unwrap();
    let turns = hook.turns(world.events());
    assert_eq!(turns.len(), 1, "one bounce: {:?}", world.events());
    let (disc, turn) = turns[0];
    assert!(
        (turn.x - 0.995).abs() < 1e-3 && turn.y.abs() < 0.01,
        "{turn:?}"
    );
    let end = world.body_set().get(disc).unwrap().center_of_mass();
    assert!(
        end.y < -0.4 && end.x.abs() < 0.05,
        "back down-left: {end:?}"
    );

    // The chord cuts the segment on y = 0: the chord alone reports a crossing...
    assert_eq!(by_chord.observe(world.body_set(), 1), 1);
    assert_eq!(by_chord.found()[0].obstacle.index, 1);
    // ...the legs, which the disc actually took, do not.
    assert_eq!(by_legs.observe_with_turns(world.body_set(), 1, &turns), 0);
}

#[test]
fn a_leg_through_a_segment_is_flagged_whatever_the_chord() {
    // Turns made up by hand: from (0, 0.5) down through the segment on y = 0 to (0, -0.5),
    // then back up to (0.01, 0.5). The chord (0, 0.5) to (0.01, 0.5) crosses nothing.
    let mut bodies = BodySet::new();
    let wall = bodies
        .insert(RigidBodyDef::fixed(
            Segment::new(Point::new(-1.0, 0.0), Point::new(1.0, 0.0))
                .unwrap()
                .into(),
        ))
        .unwrap();
    let disc = bodies
        .insert(
            RigidBodyDef::new(Circle::new(0.05).unwrap().into())
                .pose(Isometry::translation(0.0, 0.5)),
        )
        .unwrap();
    let mut detector = PassThroughDetector::new(&bodies);
    bodies
        .get_mut(disc)
        .unwrap()
        .set_pose(Isometry::translation(0.01, 0.5))
        .unwrap();
    let mut chord_only = detector.clone();
    assert_eq!(chord_only.observe(&bodies, 1), 0);
    let turns = [(disc, Point::new(0.0, -0.5)), (wall, Point::new(5.0, 5.0))];
    assert_eq!(detector.observe_with_turns(&bodies, 1, &turns), 1);
    assert_eq!(detector.found()[0].obstacle, wall);
    assert_eq!(detector.found()[0].kind, PassThroughKind::Crossed);
}
