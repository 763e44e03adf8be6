//! Worlds built from scene files with chains and outlines: the example scene
//! `examples/scenes/chain_hill.json` runs under every stepper and broadphase with every body
//! in front of the hill at every step; a chain on a dynamic body (beside a shape with mass)
//! holds what it carries, and a kinematic chain carries what rests on it.

use impact_geometry::{Chain, Point, Real, Shape};
use impact_scene::{BroadphaseChoice, Scene, StepperKind};
use impact_solver::BodyType;
use impact_testkit::chains::in_front;

fn example(name: &str) -> Scene {
    let path = format!(
        "{}/../../examples/scenes/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Scene::from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The chain a body of chain segments is (its segments in order, one open chain).
fn chain_of(def: &impact_solver::RigidBodyDef) -> Chain {
    let segments: Vec<_> = core::iter::once(&def.shape)
        .chain(def.shapes.iter().map(|s| &s.shape))
        .map(|s| match s {
            Shape::ChainSegment(c) => *c,
            other => panic!("not a chain segment: {other:?}"),
        })
        .collect();
    let mut points: Vec<Point> = segments.iter().map(|s| s.a()).collect();
    points.push(segments[segments.len() - 1].b());
    Chain::open(&points).unwrap()
}

#[test]
fn the_chain_hill_runs_under_every_stepper_with_every_body_in_front_of_the_hill() {
    let scene = example("chain_hill.json");
    // The hill is one static body of 12 segments, the L one body of two convex pieces.
    let hill = chain_of(&scene.bodies[0]);
    assert_eq!(hill.segment_count(), 12);
    assert_eq!(scene.bodies[0].body_type, BodyType::Static);
    assert_eq!(scene.bodies[4].shapes.len(), 1);
    assert!(scene.bodies.iter().any(|b| b.ccd));
    // Its file reads back from its own writing.
    let json = scene.to_json().unwrap();
    assert_eq!(Scene::from_json(&json).unwrap(), scene);
    let mut hashes = Vec::new();
    for kind in StepperKind::ALL {
        for broadphase in BroadphaseChoice::ALL {
            let scene = Scene {
                broadphase,
                ..scene.clone().with_stepper(kind)
            };
            let mut world = scene.build().unwrap();
            for step in 1..=scene.steps {
                world
                    .step(scene.dt)
                    .unwrap_or_else(|e| panic!("{kind}, {broadphase}, step {step}: {e}"));
                for (handle, body) in world.body_set().iter() {
                    if body.body_type() != BodyType::Dynamic {
                        continue;
                    }
                    let c = body.center_of_mass();
                    assert!(
                        c.x.is_finite() && c.y.is_finite() && in_front(&hill, c),
                        "{kind}, {broadphase}, step {step}: body {handle:?} at {c:?}"
                    );
                }
            }
            // The boxes and the L came to rest (the disc may roll on).
            for (handle, body) in world.body_set().iter() {
                if matches!(body.shape(), Shape::Circle(_)) {
                    continue;
                }
                assert!(
                    body.linvel().norm() < 0.1,
                    "{kind}, {broadphase}: body {handle:?} still moves at {}",
                    body.linvel()
                );
            }
            let state: Vec<u64> = world
                .body_set()
                .iter()
                .flat_map(|(_, b)| {
                    let (p, v) = (b.pose(), b.linvel());
                    [
                        p.translation.x,
                        p.translation.y,
                        p.rotation.re,
                        p.rotation.im,
                        v.x,
                        v.y,
                        b.angvel(),
                    ]
                })
                .map(Real::to_bits)
                .collect();
            hashes.push((kind, state));
        }
    }
    // Each stepper ends in one state, to the bit, whatever the broadphase.
    for same in hashes.chunks(BroadphaseChoice::ALL.len()) {
        assert!(same.iter().all(|h| h == &same[0]), "{:?}", same[0].0);
    }
}

/// A tray (a box, with a U of chain segments facing in standing on it) on a floor, and a
/// disc rolling along it toward the U's right side: with the U (`walls`) the disc stays on
/// the tray; without, it rolls off. The U's segments have no mass: the tray's is its box's.
fn tray(walls: bool) -> Scene {
    let u = r#", {"type": "chain", "points": [[1, 1], [1, 0.2], [-1, 0.2], [-1, 1]]}"#;
    let text = format!(
        r#"{{"gravity": [0, -10], "steps": 150, "bodies": [
            {{"type": "static", "shape": {{"type": "rectangle", "half_width": 10, "half_height": 0.5}}, "pose": {{"y": -0.5}}}},
            {{"pose": {{"y": 0.2}}, "shapes": [{{"type": "rectangle", "half_width": 1, "half_height": 0.2, "density": 5}}{}]}},
            {{"shape": {{"type": "circle", "radius": 0.2}}, "pose": {{"x": -0.5, "y": 0.6}}, "linvel": [3, 0]}}
        ]}}"#,
        if walls { u } else { "" }
    );
    Scene::from_json(&text).unwrap()
}

#[test]
fn a_chain_on_a_dynamic_body_holds_what_it_carries() {
    let with = tray(true);
    assert_eq!(with.bodies[1].shapes.len(), 3);
    let world = with.build().unwrap();
    let (_, body) = world.body_set().iter().nth(1).unwrap();
    // The segments add no mass: 2 x 0.4 at density 5.
    assert!((body.mass() - 4.0).abs() < 1e-12);
    for walls in [true, false] {
        for kind in StepperKind::ALL {
            let scene = tray(walls).with_stepper(kind);
            let mut world = scene.build().unwrap();
            for _ in 0..scene.steps {
                world.step(scene.dt).unwrap();
            }
            let bodies: Vec<_> = world.body_set().iter().map(|(_, b)| b).collect();
            let (tray, disc) = (bodies[1], bodies[2]);
            let local = tray.pose().inverse() * disc.center_of_mass();
            let on_tray = local.x.abs() < 1.0 && local.y > 0.2 && local.y < 1.0;
            assert_eq!(
                on_tray, walls,
                "{kind}, walls {walls}: disc at {local:?} on the tray"
            );
            if walls {
                // The disc rests against the U's right side, the tray on the floor.
                assert!((local.x - 0.8).abs() < 0.05, "{kind}: {local:?}");
                assert!((local.y - 0.4).abs() < 0.05, "{kind}: {local:?}");
                assert!((tray.pose().translation.y - 0.2).abs() < 0.05, "{kind}");
            }
        }
    }
}

#[test]
fn a_kinematic_chain_carries_what_rests_on_it() {
    let text = r#"{"gravity": [0, -10], "steps": 60, "bodies": [
        {"type": "kinematic", "linvel": [0, 1],
         "shape": {"type": "chain", "points": [[3, 0], [1, 0], [-1, 0], [-3, 0]]}},
        {"shape": {"type": "rectangle", "half_width": 0.5, "half_height": 0.5}, "pose": {"x": 0.8, "y": 0.5}}
    ]}"#;
    let start = Scene::from_json(text).unwrap();
    for kind in StepperKind::ALL {
        let scene = start.clone().with_stepper(kind);
        let mut world = scene.build().unwrap();
        for _ in 0..scene.steps {
            world.step(scene.dt).unwrap();
        }
        let bodies: Vec<_> = world.body_set().iter().map(|(_, b)| b).collect();
        let lift: Real = bodies[0].pose().translation.y;
        assert!((lift - 1.0).abs() < 1e-9, "{kind}: the platform at {lift}");
        // The box rides on it, over the joint of two segments, half its height above it.
        let p = bodies[1].pose().translation;
        assert!(
            (p.y - lift - 0.5).abs() < 0.02 && (p.x - 0.8).abs() < 0.01,
            "{kind}: the box at {p:?}, the platform at {lift}"
        );
    }
}

/// `value` with each number replaced, one time in `one_in`, by a seeded awkward one.
fn mutate(value: &mut serde_json::Value, rng: &mut impact_testkit::SplitMix64, one_in: usize) {
    const AWKWARD: [f64; 12] = [
        0.0, 1.0, -1.0, 2.0, 0.5, 1e308, -1e308, 1.7e308, 5e-324, 1e-300, -3.0, 1e-9,
    ];
    match value {
        serde_json::Value::Number(_) if rng.below(one_in) == 0 => {
            let x = if rng.below(3) == 0 {
                rng.range(-5.0, 5.0)
            } else {
                AWKWARD[rng.below(AWKWARD.len())]
            };
            *value = serde_json::json!(x);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| mutate(v, rng, one_in)),
        serde_json::Value::Object(fields) => {
            fields.values_mut().for_each(|v| mutate(v, rng, one_in));
        }
        _ => {}
    }
}

/// A scene of every chain and outline form, its numbers replaced at random by seeded awkward
/// values (zero, one, huge, tiny, random): each is refused with an error, or reads, writes
/// and reads back the same, and builds a world that steps (to a result or an error); none
/// panics.
#[test]
fn scenes_of_chains_and_outlines_with_awkward_numbers_never_panic() {
    let base: serde_json::Value = serde_json::from_str(
        r#"{"gravity": [0, -10], "bodies": [
        {"type": "static", "shape": {"type": "chain", "points": [[4, 0], [2, 0.5], [0, 1.5], [-2, 0.5]], "ghost_after": [-4, 0]}},
        {"type": "kinematic", "linvel": [0, 1], "shape": {"type": "chain", "points": [[6, 0], [8, 0], [7, 1]], "closed": true}},
        {"type": "static", "shape": {"type": "chain_segment", "ghost_before": [-5, 1], "a": [-6, 0], "b": [-8, 0], "ghost_after": [-9, 1]}},
        {"shape": {"type": "outline", "points": [[0, 0], [3, 0], [3, 1], [1, 1], [1, 3], [0, 3]]}, "pose": {"x": 1, "y": 3}},
        {"shapes": [{"type": "circle", "radius": 0.5}, {"type": "chain", "points": [[1, 1], [-1, 1]], "offset": [0, 0.5, 0.1]},
                    {"type": "outline", "points": [[0, 0], [1, 0], [0, 1]], "offset": [1, 0, 0.2]}], "linvel": [1, -1], "pose": {"x": -3, "y": 4}}
    ]}"#,
    )
    .unwrap();
    assert!(Scene::from_json(&base.to_string()).is_ok());
    let mut rng = impact_testkit::SplitMix64::new(29);
    let (mut refused, mut built) = (0, 0);
    for _ in 0..3000 {
        let mut value = base.clone();
        mutate(&mut value, &mut rng, 12);
        let text = value.to_string();
        let Ok(scene) = Scene::from_json(&text) else {
            refused += 1;
            continue;
        };
        let json = scene.to_json().unwrap();
        assert_eq!(Scene::from_json(&json).unwrap(), scene, "{text}");
        if let Ok(mut world) = scene.build() {
            built += 1;
            for _ in 0..3 {
                if world.step(scene.dt).is_err() {
                    break;
                }
            }
        }
    }
    assert!(
        refused > 500 && built > 500,
        "{refused} refused, {built} built"
    );
}
