//! The `impact` binary, run as a user would: every example scene through `impact run`, its
//! JSON summary checked; queries through `impact toi`; and the exit codes and messages of
//! bad usage and bad files.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// How many steps each example scene runs: enough for the fast bodies to meet their
/// obstacles (every scene has its first impacts within three steps).
const STEPS: &str = "5";

/// (scene, stepper) pairs where the stepper is known to break its guarantee on the example
/// scene, with what goes wrong. The test asserts that they still do, so a fix is noticed and
/// the entry removed.
const KNOWN_FAILURES: &[(&str, &str, &str)] = &[];

fn impact(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_impact"))
        .args(args)
        .output()
        .expect("the impact binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn example_scenes() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// A file in this test binary's scratch directory.
fn scratch(name: &str, contents: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn every_example_scene_runs_without_tunnelling_under_both_ccd_steppers() {
    let mut unexpected = Vec::new();
    for file in example_scenes() {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        for stepper in ["clamp", "toi"] {
            let out = impact(&[
                "run",
                file.to_str().unwrap(),
                "--stepper",
                stepper,
                "--steps",
                STEPS,
                "--json",
            ]);
            assert!(out.status.success(), "{name} {stepper}: {}", stderr(&out));
            let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(summary["steps"], 5, "{name}");
            assert_eq!(summary["stepper"], stepper);
            assert!(
                summary["ccd_bodies"].as_u64().unwrap() > 0,
                "{name}: the example scenes use ccd"
            );
            assert_eq!(summary["state_hash"].as_str().unwrap().len(), 16);
            let tunnelled = summary["passed_through_ccd"].as_u64().unwrap();
            let energy = &summary["energy"];
            let (e0, e1) = (
                energy["initial"].as_f64().unwrap(),
                energy["final"].as_f64().unwrap(),
            );
            assert!(e1.is_finite(), "{name} {stepper}: energy {energy}");
            // Nothing in these scenes adds energy: no motors, restitution at most 1, and no
            // overlap at the start for the soft contacts to push out (1% for their springs).
            let gained = e1 > e0 + 0.01 * e0.abs();
            let broken = tunnelled > 0 || gained;
            let known = KNOWN_FAILURES
                .iter()
                .any(|(f, s, _)| *f == name && *s == stepper);
            if broken != known {
                unexpected.push(format!(
                    "{name} under {stepper}: {} (ccd bodies through static geometry: {tunnelled}, energy {e0} -> {e1})",
                    if known { "no longer fails: remove it from KNOWN_FAILURES" } else { "fails" }
                ));
            }
        }
    }
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
}

#[test]
fn the_text_summary_and_the_picture() {
    let scene = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/scenes/bullet_through_paper.json");
    let svg = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bullets.svg");
    let out = impact(&[
        "run",
        scene.to_str().unwrap(),
        "--steps",
        "3",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "scene ",
        "stepper ",
        "steps ",
        "events ",
        "passed through ",
        "energy ",
        "momentum ",
        "state hash ",
        "wall time ",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(line)),
            "no {line:?} line in\n{text}"
        );
    }
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.trim_end().ends_with("</svg>"));
    assert!(
        picture.contains("<path d=\"M"),
        "the bullets' paths are drawn"
    );

    // The discrete stepper lets the bullets through, and the summary says which.
    let out = impact(&[
        "run",
        scene.to_str().unwrap(),
        "--stepper",
        "discrete",
        "--broadphase",
        "brute",
        "--steps",
        "3",
        "--json",
    ]);
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["broadphase"], "brute");
    assert!(
        summary["passed_through_ccd"].as_u64().unwrap() > 0,
        "{summary}"
    );
    assert_eq!(summary["pass_throughs"][0]["kind"], "crossed");
}

#[test]
fn runs_are_deterministic_across_broadphases() {
    let scene =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes/bouncing_discs.json");
    let hash = |broadphase: &str| {
        let out = impact(&[
            "run",
            scene.to_str().unwrap(),
            "--broadphase",
            broadphase,
            "--steps",
            "20",
            "--json",
        ]);
        let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
        summary["state_hash"].as_str().unwrap().to_owned()
    };
    let rtree = hash("rtree");
    assert_eq!(hash("rtree"), rtree);
    assert_eq!(hash("sap"), rtree);
    assert_eq!(hash("brute"), rtree);
}

#[test]
fn a_time_of_impact_query() {
    let query = scratch(
        "bullet_query.json",
        r#"{"a": {"shape": {"type": "circle", "radius": 0.05}, "linvel": [10000, 0]},
            "b": {"shape": {"type": "segment", "a": [1, -1], "b": [1, 1]}},
            "dt": 0.016666666666666666,
            "options": {"target_separation": 0, "tolerance": 1e-9}}"#,
    );
    let out = impact(&["toi", query.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["result"], "hit");
    let fraction = answer["fraction"].as_f64().unwrap();
    assert!(
        (fraction - 0.95 / (10_000.0 / 60.0)).abs() < 1e-12,
        "{answer}"
    );
    assert_eq!(answer["normal"], serde_json::json!([1.0, 0.0]));

    let out = impact(&["toi", query.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("hit at fraction 0.0057"), "{text}");

    let apart = scratch(
        "apart_query.json",
        r#"{"a": {"shape": {"type": "circle", "radius": 0.5}, "linvel": [-1, 0]},
            "b": {"shape": {"type": "circle", "radius": 0.5}, "pose": {"x": 3}}}"#,
    );
    let out = impact(&["toi", apart.to_str().unwrap(), "--json"]);
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["result"], "separated");
}

#[test]
fn bad_usage_and_bad_files_exit_with_2_and_say_why() {
    let bad_scene = scratch(
        "bad_radius.json",
        r#"{"bodies": [{"shape": {"type": "circle", "radius": -1}}]}"#,
    );
    let bad_scene = bad_scene.to_str().unwrap();
    let good_scene =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes/spinning_box.json");
    let good_scene = good_scene.to_str().unwrap();
    let bad_query = scratch(
        "bad_query.json",
        r#"{"a": {"shape": {"type": "circle", "radius": 1}}}"#,
    );
    let not_json = scratch("not_json.json", "\u{1}\u{2} not json");
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec![], "impact: missing command: run or toi".to_owned()),
        (
            vec!["frobnicate"],
            "impact: unknown command \"frobnicate\": expected run or toi".to_owned(),
        ),
        (
            vec!["run"],
            "impact: run: missing the scene file".to_owned(),
        ),
        (
            vec!["run", good_scene, "--stepper", "rk4"],
            "impact: --stepper: must be one of \"discrete\", \"clamp\", \"toi\", got \"rk4\""
                .to_owned(),
        ),
        (
            vec!["run", good_scene, "--broadphase"],
            "impact: missing argument for option '--broadphase'".to_owned(),
        ),
        (
            vec!["run", good_scene, "--steps", "ten"],
            "impact: --steps: must be a whole number of steps, got \"ten\"".to_owned(),
        ),
        (
            vec!["run", good_scene, "--colour"],
            "impact: invalid option '--colour'".to_owned(),
        ),
        (
            vec!["run", good_scene, good_scene],
            format!("impact: unexpected argument {good_scene:?}"),
        ),
        (
            vec!["run", "no/such/scene.json"],
            "impact: no/such/scene.json: cannot read: No such file or directory (os error 2)"
                .to_owned(),
        ),
        (
            vec!["run", bad_scene],
            format!("impact: {bad_scene}: bodies[0].shape.radius: must be positive, got -1"),
        ),
        (
            vec!["run", not_json.to_str().unwrap()],
            format!(
                "impact: {}: expected value at line 1 column 1",
                not_json.display()
            ),
        ),
        (
            vec!["toi"],
            "impact: toi: missing the query file".to_owned(),
        ),
        (
            vec!["toi", bad_query.to_str().unwrap()],
            format!(
                "impact: {}: b: missing: the query needs two moving shapes, a and b",
                bad_query.display()
            ),
        ),
    ];
    for (args, expected) in cases {
        let out = impact(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let message = stderr(&out);
        assert_eq!(message.lines().next().unwrap_or(""), expected, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn runtime_failures_exit_with_1() {
    // Valid, but so fast that its swept box overflows in the first step.
    let flung = scratch(
        "flung.json",
        r#"{"dt": 1, "bodies": [{"shape": {"type": "circle", "radius": 1}, "pose": {"x": 1.7e308}, "linvel": [1e308, 0]}]}"#,
    );
    let out = impact(&["run", flung.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with(&format!("impact: {}: step 1: ", flung.display())),
        "{}",
        stderr(&out)
    );

    let scene =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes/spinning_box.json");
    let out = impact(&[
        "run",
        scene.to_str().unwrap(),
        "--steps",
        "1",
        "--svg",
        "no/such/dir/picture.svg",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("impact: no/such/dir/picture.svg: cannot write"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn help_and_version_exit_with_0() {
    let out = impact(&["--help"]);
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("usage: impact run SCENE")
    );
    let out = impact(&["--version"]);
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("impact 0.")
    );
}
