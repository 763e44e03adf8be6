//! Invariant: every step runs in a `world.step` span with one span per stage, and the counts
//! a user needs to profile a step (pairs, manifolds, TOI queries, events) are fields of those
//! spans, equal to the step report's. Checked with a minimal recording subscriber; the library
//! itself installs none.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_stepper::{FirstTimeOfImpact, MotionClamping};
use impact_testkit::scenes::{self, Wall};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Span name and its fields as recorded (values as debug text), in creation order.
type Spans = Arc<Mutex<Vec<(String, BTreeMap<String, String>)>>>;

struct Recorder(Spans);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn core::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

impl Subscriber for Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut spans = self.0.lock().unwrap();
        let mut fields = BTreeMap::new();
        span.record(&mut Fields(&mut fields));
        spans.push((span.metadata().name().to_owned(), fields));
        Id::from_u64(spans.len() as u64)
    }
    fn record(&self, id: &Id, values: &Record<'_>) {
        let mut spans = self.0.lock().unwrap();
        let index = id.into_u64() as usize - 1;
        values.record(&mut Fields(&mut spans[index].1));
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn field<'a>(spans: &'a [(String, BTreeMap<String, String>)], span: &str, name: &str) -> &'a str {
    spans
        .iter()
        .find(|(n, _)| n == span)
        .and_then(|(_, f)| f.get(name))
        .unwrap_or_else(|| panic!("span {span} has no field {name}: {spans:?}"))
}

#[test]
fn a_first_toi_step_reports_its_counts_in_spans() {
    let (mut world, _) = scenes::bullet_through_paper(3_000.0, 0.2, Wall::Segment)
        .build::<RTreeBroadphase, FirstTimeOfImpact>()
        .unwrap();
    let spans: Spans = Arc::default();
    let report =
        tracing::subscriber::with_default(Recorder(spans.clone()), || world.step(DT).unwrap());
    let spans = spans.lock().unwrap();
    let names: Vec<&str> = spans.iter().map(|(n, _)| n.as_str()).collect();
    for stage in [
        "world.step",
        "broadphase",
        "narrowphase",
        "stepper",
        "first_toi",
    ] {
        assert!(names.contains(&stage), "{stage} missing from {names:?}");
    }
    assert_eq!(
        field(&spans, "world.step", "pairs"),
        report.pairs.to_string()
    );
    assert_eq!(field(&spans, "world.step", "events"), "1");
    assert_eq!(
        field(&spans, "first_toi", "toi_queries"),
        report.stepper.toi_queries.to_string()
    );
    assert_eq!(field(&spans, "first_toi", "events"), "1");
    assert_eq!(
        field(&spans, "first_toi", "invalidated"),
        report.stepper.invalidated.to_string()
    );
}

#[test]
fn a_clamping_step_reports_its_counts_in_spans() {
    let (mut world, _) = scenes::bullet_through_paper(3_000.0, 0.2, Wall::Thin)
        .build::<RTreeBroadphase, MotionClamping>()
        .unwrap();
    let spans: Spans = Arc::default();
    let report =
        tracing::subscriber::with_default(Recorder(spans.clone()), || world.step(DT).unwrap());
    let spans = spans.lock().unwrap();
    assert_eq!(
        field(&spans, "motion_clamping", "toi_queries"),
        report.stepper.toi_queries.to_string()
    );
    assert_eq!(field(&spans, "motion_clamping", "clamped"), "1");
}
