//! Invariant: `impact run` counts the contact and sensor events of a run, and its trace
//! lists each of them at the step it happened, with the fields `docs/trace-format.md`
//! gives; a trace written without those fields still renders.
//!
//! The scene is `examples/scenes/trigger_zone.json`: bullets at 10,000 and 1,000 units/s
//! through a static sensor 1 mm thick, bouncing off a wall behind it, under the `toi`
//! stepper; the fast one crosses twice in the first step, the slow one in the first step
//! and, on its way back, in the second.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn impact(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_impact"))
        .args(args)
        .output()
        .expect("the impact binary runs")
}

fn tmp(name: &str) -> String {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(name)
        .to_str()
        .unwrap()
        .to_owned()
}

fn scene() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/scenes/trigger_zone.json")
        .to_str()
        .unwrap()
        .to_owned()
}

fn lines(path: &str) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn sensor_events_in_the_summary_and_the_trace() {
    let trace = tmp("trigger_zone.jsonl");
    let out = impact(&["run", &scene(), "--json", "--trace", &trace]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["sensors"]["begin"], 4);
    assert_eq!(summary["sensors"]["end"], 4);
    assert_eq!(summary["passed_through"], 0, "a sensor is no obstacle");
    let steps = lines(&trace);
    let count = |field: &str| -> usize {
        steps[1..]
            .iter()
            .map(|l| l.get(field).and_then(Value::as_array).map_or(0, Vec::len))
            .sum()
    };
    assert_eq!(count("sensor_begin"), 4);
    assert_eq!(count("sensor_end"), 4);
    // The fast bullet (id 2) enters at (10 - 0.0005 - 0.05) / 10,000 s.
    let first = &steps[1]["sensor_begin"][0];
    assert_eq!(
        (first["sensor"].clone(), first["body"].clone()),
        (0.into(), 2.into())
    );
    let t = first["time"].as_f64().unwrap();
    assert!((t - 9.9495 / 10_000.0).abs() < 1e-12, "{t}");
    // Fields left out when empty: no contact touched.
    assert!(steps[1..].iter().all(|l| l.get("contact_begin").is_none()));

    // Under `clamp` the bullets stop at the wall and touch it: contacts begin.
    let out = impact(&["run", &scene(), "--stepper", "clamp", "--json"]);
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        summary["contacts"]["begin"].as_u64().unwrap() > 0,
        "{summary}"
    );
    let text = impact(&["run", &scene()]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("sensors         4 entered, 4 left"), "{text}");
}

#[test]
fn a_trace_without_event_fields_renders() {
    let trace = tmp("trigger_zone_plain.jsonl");
    let out = impact(&["run", &scene(), "--trace", &trace]);
    assert!(out.status.success());
    // Strip every optional field, as a trace written before them.
    let stripped: Vec<String> = lines(&trace)
        .into_iter()
        .map(|mut l| {
            if let Some(o) = l.as_object_mut() {
                for field in [
                    "contact_begin",
                    "contact_end",
                    "contact_force",
                    "sensor_begin",
                    "sensor_end",
                ] {
                    o.remove(field);
                }
            }
            l.to_string()
        })
        .collect();
    let old = tmp("trigger_zone_old.jsonl");
    std::fs::write(&old, stripped.join("\n") + "\n").unwrap();
    let svg = tmp("trigger_zone_old.svg");
    let out = impact(&["render", &old, "--svg", &svg]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}
