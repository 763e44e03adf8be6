//! Chains, chain segments and concave outlines in scene files: read into the shapes the
//! library makes of them (`RigidBodyDef::from_chain`, `ConcaveOutline::convex_pieces`),
//! refused with the path of the bad field, written back exactly (a body's segments that make
//! one chain as that chain, the others as chain segments, an outline as its pieces), and
//! bodies of chains that are dynamic or kinematic run as documented.

use impact_geometry::{
    Chain, ChainSegment, ConcaveOutline, ConvexPolygon, Isometry, Point, Real, Shape, Vector,
};
use impact_scene::{Scene, ToiQuery};
use impact_solver::{BodyType, CollisionFilter, RigidBodyDef, ShapeDef};
use impact_testkit::SplitMix64;
use impact_testkit::chains::{hilly_ground, star_loop};
use impact_testkit::outlines;

fn points(p: &[(Real, Real)]) -> Vec<Point> {
    p.iter().map(|&(x, y)| Point::new(x, y)).collect()
}

/// Equal, and equal to the bit: `Debug` prints `-0.0` and every digit of a float.
fn assert_same(a: &Scene, b: &Scene) {
    assert_eq!(a, b);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

/// Every shape of a def, its own first.
fn all_shapes(def: &RigidBodyDef) -> Vec<Shape> {
    core::iter::once(def.shape.clone())
        .chain(def.shapes.iter().map(|s| s.shape.clone()))
        .collect()
}

/// `def` with `f` applied to its own fields and to every further shape's.
fn each_shape(mut def: RigidBodyDef, f: impl Fn(ShapeDef) -> ShapeDef) -> RigidBodyDef {
    let own = f(ShapeDef {
        shape: def.shape.clone(),
        density: def.density,
        friction: def.friction,
        restitution: def.restitution,
        filter: def.filter,
        sensor: def.sensor,
        contact_force_threshold: def.contact_force_threshold,
    });
    def.density = own.density;
    def.friction = own.friction;
    def.restitution = own.restitution;
    def.filter = own.filter;
    def.sensor = own.sensor;
    def.contact_force_threshold = own.contact_force_threshold;
    def.shapes = def.shapes.into_iter().map(f).collect();
    def
}

const HILL: [(Real, Real); 5] = [(4.0, 0.0), (2.0, 0.5), (0.0, 1.5), (-2.0, 0.5), (-4.0, 0.0)];

#[test]
fn a_chain_is_the_segments_of_its_body_with_the_body_s_fields_on_each() {
    let text = r#"{"bodies": [
        {"type": "static", "material": {"friction": 0.3}, "filter": {"category_bits": 2},
         "shape": {"type": "chain", "points": [[4, 0], [2, 0.5], [0, 1.5], [-2, 0.5], [-4, 0]]}},
        {"type": "kinematic", "linvel": [0, 1], "contact_force_threshold": 5,
         "shape": {"type": "chain", "points": [[0, 0], [1, 0], [1, 1], [0, 1]], "closed": true}}
    ]}"#;
    let scene = Scene::from_json(text).unwrap();
    let open = Chain::open(&points(&HILL)).unwrap();
    let expected = each_shape(RigidBodyDef::from_chain(&open), |s| {
        s.friction(0.3).filter(CollisionFilter::new(2, u64::MAX))
    });
    assert_eq!(format!("{:?}", scene.bodies[0]), format!("{expected:?}"));
    assert_eq!(scene.bodies[0].shapes.len(), 3);
    let square = points(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]);
    let closed = Chain::closed(&square).unwrap();
    let mut expected = RigidBodyDef::from_chain(&closed)
        .body_type(BodyType::Kinematic)
        .linvel(Vector::new(0.0, 1.0));
    expected = each_shape(expected, |mut s| {
        s.contact_force_threshold = Some(5.0);
        s
    });
    assert_eq!(format!("{:?}", scene.bodies[1]), format!("{expected:?}"));
    // Segment 3 of the closed square runs from (0, 1) back to (0, 0), its ghosts the
    // neighbours round the loop.
    let Shape::ChainSegment(last) = &scene.bodies[1].shapes[2].shape else {
        panic!("a chain segment");
    };
    assert_eq!(
        (last.ghost_before(), last.a(), last.b(), last.ghost_after()),
        (square[2], square[3], square[0], square[1])
    );
    // The world holds one body per chain, a shape per segment.
    let world = scene.build().unwrap();
    let counts: Vec<usize> = world
        .body_set()
        .iter()
        .map(|(_, b)| b.shapes().len())
        .collect();
    assert_eq!(counts, [4, 4]);
}

#[test]
fn a_chain_or_outline_entry_is_moved_by_its_offset_before_it_is_built() {
    let text = r#"{"bodies": [{"type": "static", "shapes": [
        {"type": "rectangle", "half_width": 1, "half_height": 0.5, "material": {"friction": 0.1}},
        {"type": "chain", "points": [[4, 0], [2, 0.5], [0, 1.5], [-2, 0.5], [-4, 0]],
         "offset": [1, 2, 0.5], "material": {"restitution": 0.5}, "sensor": true},
        {"type": "outline", "points": [[0, 0], [3, 0], [3, 1], [1, 1], [1, 3], [0, 3]],
         "offset": [-5, 0, 0], "density": 2}
    ]}]}"#;
    let scene = Scene::from_json(text).unwrap();
    let def = &scene.bodies[0];
    let shapes = all_shapes(def);
    assert_eq!(shapes.len(), 1 + 4 + 2);
    assert_eq!(def.friction, 0.1);
    let by = Isometry::new(Vector::new(1.0, 2.0), 0.5);
    let moved: Vec<Point> = points(&HILL).iter().map(|&p| by * p).collect();
    let chain = Chain::open(&moved).unwrap();
    for (k, segment) in chain.segments().enumerate() {
        let s = &def.shapes[k];
        assert_eq!(
            format!("{:?}", s.shape),
            format!("{:?}", Shape::from(segment))
        );
        assert_eq!((s.restitution, s.sensor, s.density), (0.5, true, 1.0));
    }
    let l = points(&[
        (-5.0, 0.0),
        (-2.0, 0.0),
        (-2.0, 1.0),
        (-4.0, 1.0),
        (-4.0, 3.0),
        (-5.0, 3.0),
    ]);
    let pieces = ConcaveOutline::new(&l).unwrap().convex_pieces();
    for (s, piece) in def.shapes[4..].iter().zip(&pieces) {
        assert_eq!(
            format!("{:?}", s.shape),
            format!("{:?}", Shape::from(piece.clone()))
        );
        assert_eq!((s.density, s.friction, s.sensor), (2.0, 0.6, false));
    }
    // Written back: the moved points, no offset; read again, the same scene.
    let json = scene.to_json().unwrap();
    assert!(!json.contains("offset") && json.contains("\"chain\""));
    assert_same(&Scene::from_json(&json).unwrap(), &scene);
}

#[test]
fn an_outline_is_its_convex_pieces_and_weighs_its_area() {
    // An L of area 5, given clockwise.
    let l = [
        (0.0, 3.0),
        (1.0, 3.0),
        (1.0, 1.0),
        (3.0, 1.0),
        (3.0, 0.0),
        (0.0, 0.0),
    ];
    let text = r#"{"bodies": [
        {"shape": {"type": "outline", "points": [[0, 3], [1, 3], [1, 1], [3, 1], [3, 0], [0, 0]]},
         "material": {"friction": 0.2}, "density": 3},
        {"shape": {"type": "outline", "points": [[0, 3], [1, 3], [1, 1], [3, 1], [3, 0], [0, 0]]},
         "mass": 10, "pose": {"x": 10}}
    ]}"#;
    let scene = Scene::from_json(text).unwrap();
    let outline = ConcaveOutline::new(&points(&l)).unwrap();
    let expected = each_shape(RigidBodyDef::from_outline(&outline), |s| {
        s.friction(0.2).density(3.0)
    });
    assert_eq!(format!("{:?}", scene.bodies[0]), format!("{expected:?}"));
    // `mass` sets the density from the whole outline's area.
    assert_eq!(scene.bodies[1].density, 2.0);
    assert_eq!(scene.bodies[1].shapes[0].density, 2.0);
    let world = scene.build().unwrap();
    let masses: Vec<Real> = world.body_set().iter().map(|(_, b)| b.mass()).collect();
    assert!((masses[0] - 15.0).abs() < 1e-12, "{masses:?}");
    assert!((masses[1] - 10.0).abs() < 1e-12, "{masses:?}");
    // Written back as its pieces, which read back as the same scene.
    let json = scene.to_json().unwrap();
    assert!(!json.contains("outline") && json.contains("\"polygon\""));
    assert_same(&Scene::from_json(&json).unwrap(), &scene);
}

#[test]
fn a_chain_segment_keeps_its_ghosts_and_is_one_shape_of_a_query_too() {
    let text = r#"{"bodies": [{"type": "static", "shape": {"type": "chain_segment",
        "ghost_before": [2, 1], "a": [1, 0], "b": [-1, 0], "ghost_after": [-2, -1]}}]}"#;
    let scene = Scene::from_json(text).unwrap();
    let expected = ChainSegment::new(
        Point::new(2.0, 1.0),
        Point::new(1.0, 0.0),
        Point::new(-1.0, 0.0),
        Point::new(-2.0, -1.0),
    )
    .unwrap();
    assert_eq!(scene.bodies[0].shape, Shape::from(expected));
    assert!(scene.to_json().unwrap().contains("\"chain_segment\""));
    let query = ToiQuery::from_json(
        r#"{"a": {"shape": {"type": "circle", "radius": 0.1}, "pose": {"y": 1}, "linvel": [0, -2]},
            "b": {"shape": {"type": "chain_segment", "ghost_before": [2, 0], "a": [1, 0],
                            "b": [-1, 0], "ghost_after": [-2, 0]}}}"#,
    )
    .unwrap();
    assert_eq!(
        query.b.shape,
        Shape::ChainSegment(
            ChainSegment::new(
                Point::new(2.0, 0.0),
                Point::new(1.0, 0.0),
                Point::new(-1.0, 0.0),
                Point::new(-2.0, 0.0),
            )
            .unwrap()
        )
    );
}

/// A body with the given fields after three valid ones, so errors point past index 0.
fn body(fields: &str) -> String {
    let ok = r#"{"shape": {"type": "circle", "radius": 1}}"#;
    format!(r#"{{"bodies": [{ok}, {ok}, {{{fields}}}]}}"#)
}

#[test]
fn bad_chains_segments_and_outlines_are_refused_with_their_path() {
    let chain = |points: &str, more: &str| {
        body(&format!(
            r#""type": "static", "shape": {{"type": "chain", "points": {points}{more}}}"#
        ))
    };
    let outline = |points: &str| {
        body(&format!(
            r#""type": "static", "shape": {{"type": "outline", "points": {points}}}"#
        ))
    };
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "a chain without points",
            body(r#""type": "static", "shape": {"type": "chain"}"#),
            "bodies[2].shape.points: missing: a chain needs its points, [[x, y], ...] (its solid side to the right of each segment)",
        ),
        (
            "a chain of one point",
            chain("[[0, 0]]", ""),
            "bodies[2].shape.points: needs at least 2 points, got 1",
        ),
        (
            "a closed chain of two points",
            chain("[[0, 0], [1, 0]]", r#", "closed": true"#),
            "bodies[2].shape.points: needs at least 3 points, got 2",
        ),
        (
            "a repeated point",
            chain("[[4, 0], [3, 0], [2, 0], [1, 0], [1, 0]]", ""),
            "bodies[2].shape.points[4]: the same point as bodies[2].shape.points[3] (consecutive points must differ)",
        ),
        (
            "a closed chain repeating its first point",
            chain("[[0, 0], [1, 0], [1, 1], [0, 0]]", r#", "closed": true"#),
            "bodies[2].shape.points[3]: the same point as bodies[2].shape.points[0] (consecutive points must differ)",
        ),
        (
            "a chain crossing itself",
            chain("[[0, 0], [2, 0], [2, 2], [1, 2], [1, -1]]", ""),
            "bodies[2].shape.points[3]: the segment from this point meets the segment from bodies[2].shape.points[0]",
        ),
        (
            "a field of another type",
            body(
                r#""type": "static", "shape": {"type": "chain", "points": [[0, 0], [1, 0]], "vertices": []}"#,
            ),
            "bodies[2].shape.vertices: is not a field of a chain (its fields are points, closed, ghost_before, ghost_after)",
        ),
        (
            "a bad chain in a list of shapes",
            body(
                r#""type": "static", "shapes": [{"type": "circle", "radius": 1}, {"type": "chain", "points": [[0, 0], [1, 0], [1, 0]], "offset": [5, 0, 0]}]"#,
            ),
            "bodies[2].shapes[1].points[2]: the same point as bodies[2].shapes[1].points[1] (consecutive points must differ)",
        ),
        (
            "a dynamic body of a chain alone",
            body(r#""shape": {"type": "chain", "points": [[1, 0], [0, 0]]}"#),
            "bodies[2].type: a dynamic body needs a mass, and a chain has no area: make it static or kinematic, or give it mass_properties",
        ),
        (
            "the mass of a chain",
            body(
                r#""type": "static", "shape": {"type": "chain", "points": [[1, 0], [0, 0]]}, "mass": 2"#,
            ),
            "bodies[2].mass: a chain has no area, so a mass cannot set its density: give mass_properties",
        ),
        (
            "a negative density on a chain body",
            body(
                r#""type": "static", "shape": {"type": "chain", "points": [[1, 0], [0, 0]]}, "density": -1"#,
            ),
            "bodies[2].density: must be zero or positive, got -1",
        ),
        (
            "a bad friction on a chain entry",
            body(
                r#""type": "static", "shapes": [{"type": "chain", "points": [[1, 0], [0, 0]]}, {"type": "chain", "points": [[2, 0], [1, 1], [0, 0]], "material": {"friction": -1}}]"#,
            ),
            "bodies[2].shapes[1].material.friction: must be zero or positive, got -1",
        ),
        (
            "a chain segment without its ghost before",
            body(
                r#""type": "static", "shape": {"type": "chain_segment", "a": [0, 0], "b": [1, 0], "ghost_after": [2, 0]}"#,
            ),
            "bodies[2].shape.ghost_before: missing: a chain_segment needs a, b, ghost_before, ghost_after",
        ),
        (
            "a chain segment of one point",
            body(
                r#""type": "static", "shape": {"type": "chain_segment", "ghost_before": [-1, 0], "a": [0, 0], "b": [0, 0], "ghost_after": [2, 0]}"#,
            ),
            "bodies[2].shape.b: the same point as bodies[2].shape.a (consecutive points must differ)",
        ),
        (
            "a chain segment whose ghost is its end",
            body(
                r#""type": "static", "shape": {"type": "chain_segment", "ghost_before": [-1, 0], "a": [0, 0], "b": [1, 0], "ghost_after": [1, 0]}"#,
            ),
            "bodies[2].shape.ghost_after: the same point as bodies[2].shape.b (consecutive points must differ)",
        ),
        (
            "a chain longer than an f64 holds",
            chain("[[1.7e308, 0], [-1.7e308, 0]]", ""),
            "bodies[2].shape.points[1]: is too far from bodies[2].shape.points[0]: the segment between them is longer than an f64 holds",
        ),
        (
            "a chain whose end continued leaves the range of an f64",
            chain("[[0, 0], [1e308, 0]]", ""),
            "bodies[2].shape.points[1]: is the end of an open chain whose end segment, continued as far again (the end's ghost), leaves the range of an f64: give ghost_after",
        ),
        (
            "a chain whose given ghost is too far",
            chain(
                "[[1.7e308, 0], [1e308, 0]]",
                r#", "ghost_before": [-1.7e308, 0]"#,
            ),
            "bodies[2].shape.ghost_before: is too far from bodies[2].shape.points[0]: their distance is more than an f64 holds",
        ),
        (
            "a chain segment whose ghost is too far",
            body(
                r#""type": "static", "shape": {"type": "chain_segment", "ghost_before": [-1.7e308, 0], "a": [1.7e308, 0], "b": [1e308, 0], "ghost_after": [0, 0]}"#,
            ),
            "bodies[2].shape.ghost_before: is too far from bodies[2].shape.a: their distance is more than an f64 holds",
        ),
        (
            "a chain segment with points",
            body(r#""type": "static", "shape": {"type": "chain_segment", "points": [[0, 0]]}"#),
            "bodies[2].shape.points: is not a field of a chain_segment (its fields are a, b, ghost_before, ghost_after)",
        ),
        (
            "an outline without points",
            body(r#""shape": {"type": "outline"}"#),
            "bodies[2].shape.points: missing: an outline needs its points, [[x, y], ...] (a simple polygon, either winding)",
        ),
        (
            "an outline of two points",
            outline("[[0, 0], [1, 0]]"),
            "bodies[2].shape.points: needs at least 3 distinct non-collinear vertices, got 2",
        ),
        (
            "an outline on one line",
            outline("[[0, 0], [1, 0], [2, 0]]"),
            "bodies[2].shape.points: encloses no area",
        ),
        (
            "an outline repeating a vertex",
            outline("[[0, 0], [1, 0], [1, 0], [0, 1]]"),
            "bodies[2].shape.points[2]: repeats vertex 1 of the outline",
        ),
        (
            "a bow tie",
            outline("[[0, 0], [2, 2], [2, 0], [0, 2]]"),
            "bodies[2].shape.points[0]: the segment from this point meets the segment from bodies[2].shape.points[2]",
        ),
        (
            "an outline with closed",
            body(
                r#""shape": {"type": "outline", "points": [[0, 0], [1, 0], [0, 1]], "closed": true}"#,
            ),
            "bodies[2].shape.closed: is not a field of an outline (its fields are points)",
        ),
        (
            "a bad outline in a list of shapes",
            body(
                r#""shapes": [{"type": "circle", "radius": 1}, {"type": "outline", "points": [[0, 0], [1, 0], [2, 0]]}]"#,
            ),
            "bodies[2].shapes[1].points: encloses no area",
        ),
    ];
    let mut wrong = Vec::new();
    for (what, text, expected) in &cases {
        let got = match Scene::from_json(text) {
            Ok(_) => "accepted".to_owned(),
            Err(e) => e.to_string(),
        };
        if got != *expected {
            wrong.push(format!("{what}:\n  expected {expected}\n  got      {got}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_query_takes_one_shape_not_a_chain_or_an_outline() {
    let b = r#""b": {"shape": {"type": "circle", "radius": 1}}"#;
    for (shape, expected) in [
        (
            r#"{"type": "chain", "points": [[0, 0], [1, 0]]}"#,
            "a.shape.type: a chain is several shapes, which only a body holds: give one shape here (a chain_segment)",
        ),
        (
            r#"{"type": "outline", "points": [[0, 0], [1, 0], [0, 1]]}"#,
            "a.shape.type: an outline is several shapes, which only a body holds: give one shape here (a polygon)",
        ),
    ] {
        let text = format!(r#"{{"a": {{"shape": {shape}}}, {b}}}"#);
        assert_eq!(
            ToiQuery::from_json(&text).unwrap_err().to_string(),
            expected
        );
    }
}

#[test]
fn an_open_chain_s_end_ghosts_may_be_given() {
    let text = r#"{"bodies": [{"type": "static", "shapes": [
        {"type": "chain", "points": [[4, 0], [2, 0.5], [0, 1.5]], "ghost_after": [-2, 0.5]},
        {"type": "chain", "points": [[0, 1.5], [-2, 0.5], [-4, 0]], "ghost_before": [2, 0.5],
         "offset": [0, 0, 0], "material": {"friction": 0.1}}
    ]}]}"#;
    let scene = Scene::from_json(text).unwrap();
    // The two halves are the whole hill's segments, the second half's of another friction.
    let hill = Chain::open(&points(&HILL)).unwrap();
    let shapes = all_shapes(&scene.bodies[0]);
    assert_eq!(shapes.len(), 4);
    for (shape, segment) in shapes.iter().zip(hill.segments()) {
        assert_eq!(format!("{shape:?}"), format!("{:?}", Shape::from(segment)));
    }
    let json = scene.to_json().unwrap();
    assert_same(&Scene::from_json(&json).unwrap(), &scene);
    let file: serde_json::Value = serde_json::from_str(&json).unwrap();
    let entries = file["bodies"][0]["shapes"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0]["ghost_after"], serde_json::json!([-2.0, 0.5]));
    assert_eq!(entries[1]["ghost_before"], serde_json::json!([2.0, 0.5]));
    for (fields, expected) in [
        (
            r#""points": [[0, 0], [1, 0], [1, 1]], "closed": true, "ghost_after": [2, 2]"#,
            "bodies[0].shape.ghost_after: a closed chain has no ends: its ghosts are its own points",
        ),
        (
            r#""points": [[0, 0], [1, 0], [1, 1]], "ghost_before": [0, 0]"#,
            "bodies[0].shape.ghost_before: the same point as bodies[0].shape.points[0] (a ghost must differ from the end it continues)",
        ),
        (
            r#""points": [[0, 0], [1, 0], [1, 1]], "ghost_after": [1, 1]"#,
            "bodies[0].shape.ghost_after: the same point as bodies[0].shape.points[2] (a ghost must differ from the end it continues)",
        ),
    ] {
        let text = format!(
            r#"{{"bodies": [{{"type": "static", "shape": {{"type": "chain", {fields}}}}}]}}"#
        );
        assert_eq!(Scene::from_json(&text).unwrap_err().to_string(), expected);
    }
}

/// Bodies of chains as a program makes them, with their segments every way they can sit in
/// a body: a hilly ground, an island and a container (each one chain), a ground with one
/// segment of another material, an island listed from another segment, two chains and a box
/// in one dynamic body, a lone segment with the ends continued, one with hand-set ghosts,
/// and a ground whose segment `k` has a ghost that is not its neighbour.
fn chain_bodies(seed: u64) -> Vec<RigidBodyDef> {
    let mut rng = SplitMix64::new(seed);
    let count = 3 + rng.below(40);
    let ground = hilly_ground(&mut rng, count);
    let count = 3 + rng.below(20);
    let island = star_loop(&mut rng, count, true);
    let count = 3 + rng.below(20);
    let container = star_loop(&mut rng, count, false);
    let n = ground.segment_count();
    let mut odd = RigidBodyDef::from_chain(&ground).pose(Isometry::translation(0.0, -30.0));
    let k = rng.below(n - 1);
    odd.shapes[k].friction = 0.1;
    let mut rotated = RigidBodyDef::from_chain(&island).pose(Isometry::translation(20.0, 0.0));
    let mut loop_shapes = all_shapes(&rotated);
    loop_shapes.rotate_left(1 + rng.below(island.segment_count() - 1));
    rotated.shape = loop_shapes[0].clone();
    for (s, shape) in rotated.shapes.iter_mut().zip(&loop_shapes[1..]) {
        s.shape = shape.clone();
    }
    let tray = RigidBodyDef::new(ConvexPolygon::rectangle(1.0, 0.2).unwrap().into())
        .pose(Isometry::new(Vector::new(-20.0, 5.0), rng.range(-3.0, 3.0)))
        .with_shape(ShapeDef::new(
            Chain::open(&points(&[(-1.0, 1.0), (-1.0, 0.2), (1.0, 0.2), (1.0, 1.0)]))
                .unwrap()
                .segment(1)
                .unwrap()
                .into(),
        ));
    let mut tray = tray;
    for chain in [&ground, &island] {
        for segment in chain.segments() {
            tray = tray.with_shape(ShapeDef::new(segment.into()).density(0.5));
        }
    }
    let lone = |before: Point| {
        RigidBodyDef::fixed(
            ChainSegment::new(
                before,
                Point::new(1.0, 0.0),
                Point::new(-1.0, 0.0),
                Point::new(-3.0, 0.0),
            )
            .unwrap()
            .into(),
        )
        .pose(Isometry::translation(0.0, 40.0))
    };
    let mut bent = RigidBodyDef::from_chain(&ground).pose(Isometry::translation(0.0, -60.0));
    let j = rng.below(n - 1);
    let Shape::ChainSegment(s) = bent.shapes[j].shape else {
        unreachable!()
    };
    let ghost = s.ghost_after() + Vector::new(0.0, rng.range(0.1, 1.0));
    bent.shapes[j].shape = ChainSegment::new(s.ghost_before(), s.a(), s.b(), ghost)
        .unwrap()
        .into();
    vec![
        RigidBodyDef::from_chain(&ground),
        RigidBodyDef::from_chain(&island).pose(Isometry::new(Vector::new(20.0, 20.0), 0.3)),
        RigidBodyDef::from_chain(&container)
            .body_type(BodyType::Kinematic)
            .linvel(Vector::new(rng.range(-1.0, 1.0), 1.0))
            .pose(Isometry::translation(-20.0, 20.0)),
        odd,
        rotated,
        tray,
        lone(Point::new(3.0, 0.0)),
        lone(Point::new(2.0, 1.0)),
        bent,
    ]
}

/// What each body of `chain_bodies` is written as: its `shape`'s type, or its entries' types.
fn written_as(body: &serde_json::Value) -> Vec<String> {
    let kind = |s: &serde_json::Value| s["type"].as_str().unwrap().to_owned();
    match body.get("shape") {
        Some(shape) => vec![kind(shape)],
        None => body["shapes"]
            .as_array()
            .unwrap()
            .iter()
            .map(kind)
            .collect(),
    }
}

#[test]
fn seeded_bodies_of_chains_round_trip_bit_for_bit_through_a_file_and_a_world() {
    for seed in 0..40 {
        let scene = Scene {
            name: format!("chains {seed}"),
            bodies: chain_bodies(seed),
            ..Scene::default()
        };
        let json = scene.to_json().unwrap();
        let back = Scene::from_json(&json).unwrap();
        assert_same(&back, &scene);
        assert_eq!(back.to_json().unwrap(), json, "seed {seed}");
        let world = scene.build().unwrap();
        let captured = Scene {
            name: scene.name.clone(),
            ..Scene::from_world(&*world)
        };
        assert_same(&captured, &scene);

        let file: serde_json::Value = serde_json::from_str(&json).unwrap();
        let bodies = file["bodies"].as_array().unwrap();
        let kinds: Vec<Vec<String>> = bodies.iter().map(written_as).collect();
        let strs = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        // One chain each, with the chain's own points (and `closed` for the loops).
        let mut rng = SplitMix64::new(seed);
        let count = 3 + rng.below(40);
        let ground = hilly_ground(&mut rng, count);
        let given: Vec<[Real; 2]> = ground.points().iter().map(|p| [p.x, p.y]).collect();
        assert_eq!(bodies[0]["shape"]["points"], serde_json::json!(given));
        for i in [0, 1, 2, 4] {
            assert_eq!(kinds[i], strs(&["chain"]), "seed {seed} body {i}");
        }
        assert_eq!(bodies[1]["shape"]["closed"], true);
        assert!(bodies[0]["shape"].get("closed").is_none());
        // The odd segment alone (a chain segment, or a chain of two points where its
        // neighbours happen to continue it straight on to the bit, as collinear runs of the
        // ground do), the runs before and after it as chains with the ghosts that join them
        // to it.
        assert!(
            (2..=3).contains(&kinds[3].len())
                && kinds[3]
                    .iter()
                    .all(|t| t == "chain" || t == "chain_segment"),
            "seed {seed}: {:?}",
            kinds[3]
        );
        // The tray: its box, its lone side segment, and the two chains.
        assert_eq!(
            kinds[5],
            strs(&["polygon", "chain_segment", "chain", "chain"]),
            "seed {seed}"
        );
        assert_eq!(bodies[5]["shapes"][3]["closed"], true);
        assert_eq!(kinds[6], strs(&["chain"]));
        assert_eq!(kinds[7], strs(&["chain_segment"]));
        // The bent ghost breaks the ground into two chains, the first ending in the bent
        // ghost (or a last segment alone), or keeps it one chain whose ghost after is given
        // if it is the last segment's.
        assert!(
            kinds[8]
                .iter()
                .all(|t| t == "chain" || t == "chain_segment")
        );
        assert!(
            (1..=3).contains(&kinds[8].len()),
            "seed {seed}: {:?}",
            kinds[8]
        );
    }
}

#[test]
fn seeded_outlines_round_trip_as_their_pieces() {
    let mut rng = SplitMix64::new(29);
    for seed in 0..30 {
        let n = 5 + rng.below(25);
        let outline = match seed % 3 {
            0 => outlines::star(&mut rng, n, Vector::zeros(), 3.0),
            1 => outlines::untangled(&mut rng, n, Vector::zeros(), 3.0),
            _ => outlines::clockwise(outlines::comb(&mut rng, 1 + n % 8, Vector::zeros(), 4.0)),
        };
        let xy: Vec<[Real; 2]> = outline.iter().map(|p| [p.x, p.y]).collect();
        let text = serde_json::json!({"bodies": [
            {"shape": {"type": "outline", "points": xy}, "density": 2.5},
            {"pose": {"x": 10}, "shapes": [
                {"type": "circle", "radius": 0.5},
                {"type": "outline", "points": xy, "offset": [1, 2, 0.7], "sensor": true}
            ]}
        ]})
        .to_string();
        let scene = Scene::from_json(&text).unwrap();
        let pieces = ConcaveOutline::new(&outline).unwrap().convex_pieces();
        let shapes = all_shapes(&scene.bodies[0]);
        assert_eq!(shapes.len(), pieces.len());
        for (shape, piece) in shapes.iter().zip(&pieces) {
            assert_eq!(
                format!("{shape:?}"),
                format!("{:?}", Shape::from(piece.clone()))
            );
        }
        assert_eq!(scene.bodies[1].shapes.len(), pieces.len());
        assert!(scene.bodies[1].shapes.iter().all(|s| s.sensor));
        let json = scene.to_json().unwrap();
        let back = Scene::from_json(&json).unwrap();
        assert_same(&back, &scene);
        assert_eq!(back.to_json().unwrap(), json, "seed {seed}");
    }
}
