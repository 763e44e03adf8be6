//! The check behind the `scene_loader` fuzz target (`fuzz/`), here so the ordinary test
//! suite can replay its regressions on stable Rust.

use impact_scene::{Scene, SceneError, ToiQuery};

/// The most bodies a fuzzed scene is stepped with: enough for every pair of shape types,
/// few enough that a step stays fast.
const MAX_STEPPED_BODIES: usize = 64;

/// Loads `data` as a scene file and as a query file; whatever loads must behave.
///
/// Asserts, for any bytes: loading never panics; a scene that loads writes out and reads
/// back equal to the bit; it builds a world, unless a body is wider or taller than half its
/// periodic domain, which the world refuses with that body's path (the file is well formed;
/// the world cannot hold it); up to three steps run without panicking (a step may refuse,
/// with an error, a scene flung beyond the range of `f64`). A query that loads is answered
/// without panicking.
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
            match scene.build() {
                Ok(mut world) => {
                    for _ in 0..scene.steps.min(3) {
                        if world.step(scene.dt).is_err() {
                            break;
                        }
                    }
                }
                Err(e) if too_large_for_its_domain(&e) => {}
                Err(e) => panic!("a loaded scene builds: {e}"),
            }
        }
    }
    if let Ok(text) = core::str::from_utf8(data)
        && let Ok(query) = ToiQuery::from_json(text)
    {
        let _ = query.answer();
    }
}

/// Whether `e` is the world's refusal of a body wider or taller than half its periodic
/// domain, naming the body: `bodies[i].aabb.width` or `.height`.
fn too_large_for_its_domain(e: &SceneError) -> bool {
    let path = e.path();
    path.starts_with("bodies[")
        && (path.ends_with("].aabb.width") || path.ends_with("].aabb.height"))
}
