//! Invariant: with the `serde` feature, bodies, sets, settings and the cache round-trip
//! through JSON bit for bit, and deserializing runs the constructors' validation, so an
//! invalid snapshot is refused with the field named.

#![cfg(feature = "serde")]

mod common;

use common::{boxed, disc};
use impact_geometry::{Point, Vector};
use impact_solver::{BodySet, ContactCache, ImpactSettings, Material, RigidBody, SolverSettings};

#[test]
fn round_trips_are_bit_identical() {
    let mut bodies = BodySet::new();
    let a = bodies
        .insert(
            disc(0.3, 2.0, Point::new(0.1, 0.7), Vector::new(1.0 / 3.0, -0.2))
                .angvel(0.7)
                .ccd(true)
                .user_data(u128::MAX),
        )
        .unwrap();
    let b = bodies
        .insert(boxed(0.5, 0.2, Point::new(2.0, 0.0), 0.3))
        .unwrap();
    bodies.remove(a).unwrap();
    let json = serde_json::to_string(&bodies).unwrap();
    let back: BodySet = serde_json::from_str(&json).unwrap();
    assert_eq!(back, bodies);
    assert_eq!(common::state_bits(&back), common::state_bits(&bodies));
    assert!(back.get(a).is_none() && back.get(b).is_some());

    let s = SolverSettings {
        substeps: 8,
        contact_hertz: 45.5,
        ..SolverSettings::default()
    };
    let back: SolverSettings = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
    let m = Material::new(0.25, 0.9).unwrap();
    assert_eq!(
        serde_json::from_str::<Material>(&serde_json::to_string(&m).unwrap()).unwrap(),
        m
    );
    let i = ImpactSettings::default();
    assert_eq!(
        serde_json::from_str::<ImpactSettings>(&serde_json::to_string(&i).unwrap()).unwrap(),
        i
    );
    let c = ContactCache::new();
    assert_eq!(
        serde_json::from_str::<ContactCache>(&serde_json::to_string(&c).unwrap()).unwrap(),
        c
    );
}

#[test]
fn invalid_snapshots_are_refused_with_the_field() {
    let body = RigidBody::new(disc(0.5, 1.0, Point::origin(), Vector::zeros())).unwrap();
    let json = serde_json::to_string(&body).unwrap();
    let bad = json.replace("\"density\":1.0", "\"density\":-1.0");
    assert_ne!(bad, json);
    let err = serde_json::from_str::<RigidBody>(&bad)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("body.density: must be zero or positive, got -1"),
        "{err}"
    );

    let bad = serde_json::to_string(&SolverSettings::default())
        .unwrap()
        .replace("\"substeps\":4", "\"substeps\":0");
    let err = serde_json::from_str::<SolverSettings>(&bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("settings.substeps"), "{err}");

    let err = serde_json::from_str::<Material>(r#"{"restitution":2.0,"friction":0.5}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("material.restitution"), "{err}");

    // A free list naming an occupied slot.
    let mut bodies = BodySet::new();
    bodies
        .insert(disc(0.5, 1.0, Point::origin(), Vector::zeros()))
        .unwrap();
    let bad = serde_json::to_string(&bodies)
        .unwrap()
        .replace("\"free\":[]", "\"free\":[0]");
    let err = serde_json::from_str::<BodySet>(&bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("bodies.free[0]"), "{err}");
}
