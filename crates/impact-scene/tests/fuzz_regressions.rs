//! Replays every input the `scene_loader` fuzz target ever failed on
//! (`fuzz/regressions/scene_loader/`), and the example scenes, through the same check, on
//! stable Rust.

use std::path::Path;

#[test]
fn fuzz_regressions_and_examples_pass_the_scene_loader_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut checked = 0;
    for dir in ["fuzz/regressions/scene_loader", "examples/scenes"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().is_some_and(|n| n != ".gitkeep"))
            .collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).unwrap();
            impact_testkit::fuzzing::check_scene_loader(&data);
            checked += 1;
        }
    }
    assert!(checked >= 6);
}
