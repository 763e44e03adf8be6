//! The check behind the `scene_loader` fuzz target (`fuzz/`), here so the ordinary test
//! suite can replay its regressions on stable Rust.

use crate::{Scene, ToiQuery};

/// The most bodies a fuzzed scene is stepped with: enough for every pair of shape types,
/// few enough that a step stays fast.
const MAX_STEPPED_BODIES: usize = 64;

/// Loads `data` as a scene file and as a query file; whatever loads must behave.
///
/// Asserts, for any bytes: loading never panics; a scene that loads writes out and reads
/// back equal to the bit; it builds a world; up to three steps run without panicking (a
/// step may refuse, with an error, a scene flung beyond the range of `f64`). A query that
/// loads is answered without panicking.
///
/// # Panics
/// When one of those fails: that is the finding.
pub fn check_scene_loader(data: &[u8]) {
    if let Ok(scene) = Scene::from_json_slice(data) {
        let json = scene.to_json().expect("a loaded scene is written");
        let back = Scene::from_json(&json).expect("a written scene loads");
        assert_eq!(
            format!("{back:?}"),
            format!("{scene:?}"),
            "the scene changed through its file"
        );
        if scene.bodies.len() <= MAX_STEPPED_BODIES {
            let mut world = scene.build().expect("a loaded scene builds");
            for _ in 0..scene.steps.min(3) {
                if world.step(scene.dt).is_err() {
                    break;
                }
            }
        }
    }
    if let Ok(text) = core::str::from_utf8(data)
        && let Ok(query) = ToiQuery::from_json(text)
    {
        let _ = query.answer();
    }
}
