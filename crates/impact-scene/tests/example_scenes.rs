//! Every scene in `examples/scenes` loads, and runs a few steps with every stepper and
//! every broadphase.

use impact_scene::{BroadphaseChoice, Scene, StepperKind};
use std::path::PathBuf;

/// The example scene files, sorted by name.
fn example_scenes() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_example_scene_runs_with_every_stepper_and_broadphase() {
    let files = example_scenes();
    assert!(files.len() >= 6, "{files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let scene = Scene::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(!scene.name.is_empty() && !scene.bodies.is_empty());
        for kind in StepperKind::ALL {
            for broadphase in BroadphaseChoice::ALL {
                let scene = Scene {
                    broadphase,
                    ..scene.clone().with_stepper(kind)
                };
                let mut world = scene.build().unwrap();
                for _ in 0..5 {
                    world
                        .step(scene.dt)
                        .unwrap_or_else(|e| panic!("{} ({kind}): {e}", file.display()));
                }
                for (handle, body) in world.body_set().iter() {
                    let p = body.pose().translation;
                    assert!(
                        p.x.is_finite() && p.y.is_finite() && body.linvel().norm().is_finite(),
                        "{} ({kind}, {broadphase}): body {handle:?}",
                        file.display()
                    );
                }
            }
        }
    }
}
