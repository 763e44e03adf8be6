//! Joints through the `impact` binary: `impact run` counts a scene's joints and lists those
//! that broke, its trace says at which step, and `impact render` draws the joints (and no
//! longer draws one that broke), the same as `impact run --svg`.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn impact(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_impact"))
        .args(args)
        .output()
        .expect("the impact binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn tmp(name: &str) -> String {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(name)
        .to_str()
        .unwrap()
        .to_owned()
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/scenes")
        .join(name)
        .to_str()
        .unwrap()
        .to_owned()
}

/// The joint colour's marks in an SVG picture: (rings, lines), where a line is a plain or
/// dashed path.
fn joint_marks(svg: &str) -> (usize, usize) {
    let joint = svg.lines().filter(|l| l.contains("stroke=\"#9467bd\""));
    let (mut rings, mut lines) = (0, 0);
    for l in joint {
        if l.starts_with("<circle") {
            rings += 1;
        } else if l.starts_with("<path") {
            lines += 1;
        }
    }
    (rings, lines)
}

/// Two bobs on hinges from two pins; the first hinge breaks under its bob's weight (7.9 N
/// against a threshold of 1 N) at the end of the first step, the second holds.
const BREAKING: &str = r#"{"name": "breaking", "gravity": [0, -10], "steps": 10, "bodies": [
    {"type": "static", "shape": {"type": "circle", "radius": 0.1}},
    {"shape": {"type": "circle", "radius": 0.5}, "pose": {"y": -1}, "ccd": true},
    {"type": "static", "shape": {"type": "circle", "radius": 0.1}, "pose": {"x": 3}},
    {"shape": {"type": "circle", "radius": 0.5}, "pose": {"x": 3, "y": -1}}
], "joints": [
    {"type": "revolute", "bodies": [0, 1], "anchor": [0, 0], "break_force": 1},
    {"type": "revolute", "bodies": [2, 3], "anchor": [3, 0]}
]}"#;

#[test]
fn run_counts_the_joints_and_lists_those_that_broke() {
    let scene = tmp("breaking.json");
    std::fs::write(&scene, BREAKING).unwrap();
    let out = impact(&["run", &scene, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["joints"], 2);
    let broken = summary["joints_broken"].as_array().unwrap();
    assert_eq!(broken.len(), 1, "{summary}");
    assert_eq!(broken[0]["joint"], 0);
    assert_eq!(broken[0]["bodies"], serde_json::json!([0, 1]));
    assert_eq!(broken[0]["step"], 1);
    assert!(broken[0]["force"].as_f64().unwrap() > 1.0);

    // The bob of the hinge that holds hangs within the soft joint's give of its pin, and the
    // broken hinge is not counted.
    let sep = &summary["joint_separation"];
    let worst = sep["worst_linear"].as_f64().unwrap();
    assert!(worst > 0.0 && worst < 0.05, "{summary}");
    assert!(sep["worst_linear_step"].as_u64().unwrap() >= 1, "{summary}");
    assert!(sep["end_linear"].as_f64().unwrap() <= worst, "{summary}");
    assert_eq!(sep["worst_angular"], 0.0, "{summary}");

    let out = impact(&["run", &scene]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\njoints          2 (1 broke)\n"), "{text}");
    assert!(text.contains("\njoint error     worst "), "{text}");
    assert!(
        text.contains("                joint 0 (bodies 0, 1) at step 1: force "),
        "{text}"
    );
    // A scene without joints says nothing of them.
    let out = impact(&["run", &example("spinning_box.json"), "--steps", "2"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("joint"), "{text}");
}

#[test]
fn the_trace_says_when_a_joint_broke_and_render_stops_drawing_it() {
    let scene = tmp("breaking_traced.json");
    std::fs::write(&scene, BREAKING).unwrap();
    let trace = tmp("breaking.jsonl");
    let out = impact(&["run", &scene, "--trace", &trace]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["scene"]["joints"].as_array().unwrap().len(), 2);
    assert_eq!(lines[1]["joints_broken"], serde_json::json!([0]));
    assert!(lines[2..].iter().all(|l| l.get("joints_broken").is_none()));

    // Both hinges at the start, one after the break: a ring at each pin, a line from each
    // bob.
    let svg = tmp("breaking.svg");
    for (frame, marks) in [("0", (2, 2)), ("1", (1, 1)), ("10", (1, 1))] {
        let out = impact(&["render", &trace, "--frame", frame, "--svg", &svg]);
        assert!(out.status.success(), "{}", stderr(&out));
        let picture = std::fs::read_to_string(&svg).unwrap();
        assert_eq!(joint_marks(&picture), marks, "frame {frame}\n{picture}");
    }
}

#[test]
fn render_draws_the_joints_of_every_jointed_example_as_run_does() {
    for (name, joints) in [
        ("pendulum.json", 3),
        ("chain.json", 20),
        ("bridge.json", 21),
        ("ragdoll.json", 9),
    ] {
        let (trace, direct, rendered) = (
            tmp(&format!("{name}.jsonl")),
            tmp(&format!("{name}.direct.svg")),
            tmp(&format!("{name}.svg")),
        );
        let out = impact(&[
            "run",
            &example(name),
            "--steps",
            "30",
            "--trace",
            &trace,
            "--svg",
            &direct,
            "--json",
        ]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(summary["joints"], joints, "{name}");
        assert_eq!(summary["joints_broken"], serde_json::json!([]), "{name}");
        let out = impact(&["render", &trace, "--svg", &rendered, "--png", &tmp("j.png")]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let picture = std::fs::read_to_string(&rendered).unwrap();
        assert_eq!(picture, std::fs::read_to_string(&direct).unwrap(), "{name}");
        // Every joint here is a hinge: a ring at each.
        let (rings, lines) = joint_marks(&picture);
        assert_eq!(rings, joints, "{name}");
        assert!(lines >= joints, "{name}: {lines} lines");
    }
}
