//! Invariant: with the `serde` feature, configurations and handles survive a JSON round trip,
//! and a deserialized configuration is validated when it is used.
#![cfg(feature = "serde")]

use impact_broadphase::{ProxyId, ProxyPair, RTreeBroadphase, RTreeConfig};

#[test]
fn config_and_handles_round_trip() {
    let config = RTreeConfig {
        margin: 0.25,
        rebuild_fraction: 0.3,
    };
    let json = serde_json::to_string(&config).unwrap();
    assert_eq!(json, r#"{"margin":0.25,"rebuild_fraction":0.3}"#);
    assert_eq!(serde_json::from_str::<RTreeConfig>(&json).unwrap(), config);

    let pair = ProxyPair::new(ProxyId(9), ProxyId(2));
    let json = serde_json::to_string(&pair).unwrap();
    assert_eq!(json, r#"{"a":2,"b":9}"#);
    assert_eq!(serde_json::from_str::<ProxyPair>(&json).unwrap(), pair);
}

#[test]
fn a_deserialized_bad_config_is_refused_by_the_constructor() {
    let config: RTreeConfig =
        serde_json::from_str(r#"{"margin":-1.0,"rebuild_fraction":0.1}"#).unwrap();
    let err = RTreeBroadphase::with_config(config).unwrap_err();
    assert_eq!(err.to_string(), "margin: must be zero or positive, got -1");
}
