//! With the `serde` feature, every type round-trips and deserializing validates like the
//! constructors.
#![cfg(feature = "serde")]

use impact_geometry::{
    Capsule, Chain, Circle, ConvexPolygon, Isometry, Point, Shape, Sweep, Vector,
};

#[test]
fn shapes_round_trip_and_bad_input_is_refused() {
    let shapes: Vec<Shape> = vec![
        Circle::with_center(Point::new(1.0, 2.0), 0.5)
            .unwrap()
            .into(),
        Capsule::along_x(1.0, 0.25).unwrap().into(),
        ConvexPolygon::regular(6, 1.0).unwrap().into(),
        Chain::open(&[Point::new(1.0, 0.0), Point::new(0.0, 0.0)])
            .unwrap()
            .segment(0)
            .unwrap()
            .into(),
        ConvexPolygon::regular(5, 1.0)
            .unwrap()
            .with_radius(0.125)
            .unwrap()
            .into(),
    ];
    let json = serde_json::to_string(&shapes).unwrap();
    let back: Vec<Shape> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, shapes);
    let err = serde_json::from_str::<Shape>(r#"{"type":"circle","radius":-1.0}"#).unwrap_err();
    assert!(
        err.to_string()
            .contains("circle.radius: must be zero or positive, got -1"),
        "{err}"
    );
    let err = serde_json::from_str::<Shape>(r#"{"type":"polygon","vertices":[[0,0],[1,0],[2,0]]}"#)
        .unwrap_err();
    assert!(err.to_string().contains("polygon.vertices"), "{err}");
    // A sharp polygon is written without a radius, and read as sharp without one.
    let sharp =
        serde_json::to_string(&Shape::from(ConvexPolygon::rectangle(1.0, 1.0).unwrap())).unwrap();
    assert!(!sharp.contains("radius"), "{sharp}");
    let rounded: Shape =
        serde_json::from_str(r#"{"type":"polygon","vertices":[[0,0],[1,0],[0,1]],"radius":0.5}"#)
            .unwrap();
    assert_eq!(rounded.radius(), 0.5);
    let err = serde_json::from_str::<Shape>(
        r#"{"type":"polygon","vertices":[[0,0],[1,0],[0,1]],"radius":-0.5}"#,
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("polygon.radius: must be zero or positive, got -0.5"),
        "{err}"
    );
    let sweep = Sweep::new(
        Isometry::new(Vector::new(1.0, 2.0), 0.5),
        Point::new(0.1, 0.0),
        Vector::new(3.0, 4.0),
        2.0,
        0.25,
    )
    .unwrap();
    let back: Sweep = serde_json::from_str(&serde_json::to_string(&sweep).unwrap()).unwrap();
    assert_eq!(back, sweep);

    // Chains and chain segments validate when read.
    let chain = Chain::closed(&[
        Point::new(0.0, 0.0),
        Point::new(1.0, 0.0),
        Point::new(0.0, 1.0),
    ])
    .unwrap();
    let back: Chain = serde_json::from_str(&serde_json::to_string(&chain).unwrap()).unwrap();
    assert_eq!(back, chain);
    let open: Chain = serde_json::from_str(r#"{"points":[[0,0],[1,0]]}"#).unwrap();
    assert!(!open.is_closed());
    let err = serde_json::from_str::<Chain>(r#"{"points":[[0,0],[0,0]]}"#).unwrap_err();
    assert!(err.to_string().contains("chain.points[1]"), "{err}");
    let err = serde_json::from_str::<Shape>(
        r#"{"type":"chain_segment","ghost_before":[-1,0],"a":[0,0],"b":[0,0],"ghost_after":[1,0]}"#,
    )
    .unwrap_err();
    assert!(err.to_string().contains("chain_segment.b"), "{err}");
}
