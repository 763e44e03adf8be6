//! Malformed scene files: each is refused with the path of the bad field and why, exactly as
//! the table says, and none panics.

use impact_scene::{Scene, ToiQuery};

/// A body with a valid circle, to pad the list so errors point past index 0.
const OK: &str = r#"{"shape": {"type": "circle", "radius": 1}}"#;

fn body(fields: &str) -> String {
    format!(r#"{{"bodies": [{OK}, {OK}, {OK}, {{{fields}}}]}}"#)
}

fn circle(fields: &str) -> String {
    body(&format!(
        r#""shape": {{"type": "circle", "radius": 1}}, {fields}"#
    ))
}

#[test]
fn every_malformed_scene_is_refused_with_its_path_and_reason() {
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "empty file",
            String::new(),
            "EOF while parsing a value at line 1 column 0",
        ),
        (
            "truncated",
            r#"{"bodies": [{"shape": "#.to_owned(),
            "bodies[0].shape: EOF while parsing a value at line 1 column 22",
        ),
        (
            "not an object",
            "[1, 2]".to_owned(),
            "invalid type: sequence, expected a JSON object at line 1 column 0",
        ),
        (
            "trailing comma",
            r#"{"dt": 0.01,}"#.to_owned(),
            "trailing comma at line 1 column 13",
        ),
        (
            "trailing characters",
            r#"{} {}"#.to_owned(),
            "trailing characters at line 1 column 4",
        ),
        (
            "NaN literal",
            r#"{"dt": NaN}"#.to_owned(),
            "dt: expected value at line 1 column 8",
        ),
        (
            "unknown top-level field",
            r#"{"gravty": [0, -10]}"#.to_owned(),
            "gravty: unknown field `gravty`, expected one of `version`, `name`, `domain`, `periodic`, `gravity`, `speculative_distance`, `sleeping`, `time_to_sleep`, `solver`, `stepper`, `broadphase`, `dt`, `steps`, `duration`, `bodies`, `joints` at line 1 column 9",
        ),
        (
            "unknown shape field",
            body(r#""shape": {"type": "circle", "radus": 1}"#),
            "bodies[3].shape.radus: unknown field `radus`, expected one of `type`, `radius`, `center`, `a`, `b`, `vertices`, `half_width`, `half_height`, `points`, `closed`, `ghost_before`, `ghost_after`, `seams` at line 1 column 180",
        ),
        (
            "NaN as a string",
            body(r#""shape": {"type": "circle", "radius": "NaN"}"#),
            "bodies[3].shape.radius: invalid type: string \"NaN\", expected f64 at line 1 column 188",
        ),
        (
            "infinity as a string",
            r#"{"gravity": [0, "-inf"]}"#.to_owned(),
            "gravity[1]: invalid type: string \"-inf\", expected f64 at line 1 column 22",
        ),
        (
            "number out of range",
            r#"{"gravity": [0, -1e400]}"#.to_owned(),
            "gravity[1]: number out of range at line 1 column 22",
        ),
        (
            "wrong type for a flag",
            circle(r#""ccd": "yes""#),
            "bodies[3].ccd: invalid type: string \"yes\", expected a boolean at line 1 column 199",
        ),
        (
            "vector of one number",
            circle(r#""linvel": [1]"#),
            "bodies[3].linvel: invalid length 1, expected an array of length 2 at line 1 column 200",
        ),
        (
            "negative radius",
            body(r#""shape": {"type": "circle", "radius": -1}"#),
            "bodies[3].shape.radius: must be positive, got -1",
        ),
        (
            "zero capsule radius",
            body(r#""shape": {"type": "capsule", "a": [0, 0], "b": [1, 0], "radius": 0}"#),
            "bodies[3].shape.radius: must be positive, got 0",
        ),
        (
            "non-convex polygon",
            body(
                r#""shape": {"type": "polygon", "vertices": [[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]]}"#,
            ),
            "bodies[3].shape.vertices: not convex at vertex 2",
        ),
        (
            "clockwise polygon",
            body(r#""shape": {"type": "polygon", "vertices": [[0, 0], [0, 1], [1, 1], [1, 0]]}"#),
            "bodies[3].shape.vertices: vertices are clockwise, expected counter-clockwise",
        ),
        (
            "degenerate polygon",
            body(r#""shape": {"type": "polygon", "vertices": [[0, 0], [1, 1], [2, 2]]}"#),
            "bodies[3].shape.vertices: needs at least 3 distinct non-collinear vertices, got 2",
        ),
        (
            "rounded polygon without a radius",
            body(r#""shape": {"type": "rounded_polygon", "vertices": [[0, 0], [1, 0], [0, 1]]}"#),
            "bodies[3].shape.radius: missing: a rounded_polygon needs vertices, radius",
        ),
        (
            "rounded polygon with a zero radius",
            body(
                r#""shape": {"type": "rounded_polygon", "vertices": [[0, 0], [1, 0], [0, 1]], "radius": 0}"#,
            ),
            "bodies[3].shape.radius: must be positive, got 0",
        ),
        (
            "rounded polygon with a negative radius",
            body(
                r#""shape": {"type": "rounded_polygon", "vertices": [[0, 0], [1, 0], [0, 1]], "radius": -0.5}"#,
            ),
            "bodies[3].shape.radius: must be positive, got -0.5",
        ),
        (
            "clockwise rounded polygon",
            body(
                r#""shape": {"type": "rounded_polygon", "vertices": [[0, 0], [0, 1], [1, 0]], "radius": 0.1}"#,
            ),
            "bodies[3].shape.vertices: vertices are clockwise, expected counter-clockwise",
        ),
        (
            "rounded polygon without vertices",
            body(r#""shape": {"type": "rounded_polygon", "radius": 0.1}"#),
            "bodies[3].shape.vertices: missing: a rounded_polygon needs its vertices, counter-clockwise",
        ),
        (
            "radius of a sharp polygon",
            body(
                r#""shape": {"type": "polygon", "vertices": [[0, 0], [1, 0], [0, 1]], "radius": 0.1}"#,
            ),
            "bodies[3].shape.radius: is not a field of a polygon (its fields are vertices, seams)",
        ),
        (
            "segment with one point",
            body(r#""type": "static", "shape": {"type": "segment", "a": [1, 2], "b": [1, 2]}"#),
            "bodies[3].shape.b: must differ from a (a segment has two distinct ends), got [1, 2]",
        ),
        (
            "unknown shape type",
            body(r#""shape": {"type": "triangle"}"#),
            "bodies[3].shape.type: must be one of \"circle\", \"segment\", \"capsule\", \"polygon\", \"rounded_polygon\", \"rectangle\", \"chain\", \"chain_segment\", \"outline\", got \"triangle\"",
        ),
        (
            "field of another shape",
            body(r#""shape": {"type": "circle", "radius": 1, "vertices": [[0, 0]]}"#),
            "bodies[3].shape.vertices: is not a field of a circle (its fields are radius, center)",
        ),
        (
            "missing radius",
            body(r#""shape": {"type": "circle"}"#),
            "bodies[3].shape.radius: missing: a circle needs radius, center",
        ),
        (
            "missing shape",
            body(r#""ccd": true"#),
            "bodies[3].shape: missing: every body has a shape (or a list of them, shapes)",
        ),
        (
            "unknown body type",
            body(r#""type": "fixed", "shape": {"type": "circle", "radius": 1}"#),
            "bodies[3].type: must be one of \"dynamic\", \"static\", \"kinematic\", got \"fixed\"",
        ),
        (
            "restitution above 1",
            circle(r#""material": {"restitution": 1.5}"#),
            "bodies[3].material.restitution: must be in [0, 1], got 1.5",
        ),
        (
            "negative friction",
            circle(r#""material": {"friction": -0.1}"#),
            "bodies[3].material.friction: must be zero or positive, got -0.1",
        ),
        (
            "moving static body",
            body(r#""type": "static", "shape": {"type": "circle", "radius": 1}, "linvel": [1, 0]"#),
            "bodies[3].linvel: must be [0, 0] for a static body (make it kinematic to move it), got [1, 0]",
        ),
        (
            "dynamic segment",
            body(r#""shape": {"type": "segment", "a": [0, 0], "b": [1, 0]}"#),
            "bodies[3].type: a dynamic body needs a mass, and a segment has no area: make it static or kinematic, or give it mass_properties",
        ),
        (
            "zero density",
            circle(r#""density": 0"#),
            "bodies[3].density: must be positive for a dynamic body (or give mass_properties), got 0",
        ),
        (
            "density and mass",
            circle(r#""density": 1, "mass": 2"#),
            "bodies[3].mass: give density or mass, not both",
        ),
        (
            "mass of a segment",
            body(
                r#""type": "static", "shape": {"type": "segment", "a": [0, 0], "b": [1, 0]}, "mass": 2"#,
            ),
            "bodies[3].mass: a segment has no area, so a mass cannot set its density: give mass_properties",
        ),
        (
            "mass properties without inertia",
            circle(r#""mass_properties": {"mass": 2}"#),
            "bodies[3].mass_properties.inertia: missing: mass properties give the inertia about the centre of mass",
        ),
        (
            "angle and rotation",
            circle(r#""pose": {"angle": 1, "rotation": [1, 0]}"#),
            "bodies[3].pose.rotation: give angle or rotation, not both",
        ),
        (
            "rotation not unit",
            circle(r#""pose": {"rotation": [2, 0]}"#),
            "bodies[3].pose.rotation: must be a unit vector [cos, sin], got squared norm 4",
        ),
        (
            "pose as an array",
            circle(r#""pose": [1, 2]"#),
            "bodies[3].pose: invalid type: sequence, expected a JSON object at line 1 column 195",
        ),
        (
            "negative user data",
            circle(r#""user_data": -1"#),
            "bodies[3].user_data: number out of range at line 1 column 201",
        ),
        (
            "negative mask",
            circle(r#""filter": {"mask_bits": -1}"#),
            "bodies[3].filter.mask_bits: invalid value: integer `-1`, expected u64 at line 1 column 213",
        ),
        (
            "fractional mask",
            circle(r#""filter": {"mask_bits": 1.5}"#),
            "bodies[3].filter.mask_bits: invalid type: floating point `1.5`, expected u64 at line 1 column 214",
        ),
        (
            "mask as a string",
            circle(r#""filter": {"mask_bits": "0xff"}"#),
            "bodies[3].filter.mask_bits: invalid type: string \"0xff\", expected u64 at line 1 column 217",
        ),
        (
            "category past 64 bits",
            circle(r#""filter": {"category_bits": 18446744073709551616}"#),
            "bodies[3].filter.category_bits: invalid type: floating point `1.8446744073709552e+19`, expected u64 at line 1 column 235",
        ),
        (
            "group past i32",
            circle(r#""filter": {"group_index": 3000000000}"#),
            "bodies[3].filter.group_index: invalid value: integer `3000000000`, expected i32 at line 1 column 223",
        ),
        (
            "unknown filter field",
            circle(r#""filter": {"masks": 1}"#),
            "bodies[3].filter.masks: unknown field `masks`, expected one of `category_bits`, `mask_bits`, `group_index` at line 1 column 205",
        ),
        (
            "filter as an array",
            circle(r#""filter": [1, 2]"#),
            "bodies[3].filter: invalid type: sequence, expected a JSON object at line 1 column 197",
        ),
        (
            "sensor as a string",
            circle(r#""sensor": "yes""#),
            "bodies[3].sensor: invalid type: string \"yes\", expected a boolean at line 1 column 202",
        ),
        (
            "negative force threshold",
            circle(r#""contact_force_threshold": -1"#),
            "bodies[3].contact_force_threshold: must be zero or positive, got -1",
        ),
        (
            "zero dt",
            r#"{"dt": 0}"#.to_owned(),
            "dt: must be positive, got 0",
        ),
        (
            "negative dt",
            r#"{"dt": -0.01}"#.to_owned(),
            "dt: must be positive, got -0.01",
        ),
        (
            "negative steps",
            r#"{"steps": -3}"#.to_owned(),
            "steps: invalid value: integer `-3`, expected u64 at line 1 column 12",
        ),
        (
            "fractional steps",
            r#"{"steps": 2.5}"#.to_owned(),
            "steps: invalid type: floating point `2.5`, expected u64 at line 1 column 13",
        ),
        (
            "steps and duration",
            r#"{"steps": 10, "duration": 1}"#.to_owned(),
            "duration: give steps or duration, not both",
        ),
        (
            "negative duration",
            r#"{"duration": -1}"#.to_owned(),
            "duration: must be zero or positive, got -1",
        ),
        (
            "endless duration",
            r#"{"duration": 1e300}"#.to_owned(),
            "duration: must be at most 1125899906842624 steps of dt, got 6e301 steps",
        ),
        (
            "unknown stepper",
            r#"{"stepper": {"type": "rk4"}}"#.to_owned(),
            "stepper.type: must be one of \"discrete\", \"clamp\", \"toi\", got \"rk4\"",
        ),
        (
            "stepper as a string",
            r#"{"stepper": "toi"}"#.to_owned(),
            "stepper: invalid type: string \"toi\", expected a JSON object at line 1 column 17",
        ),
        (
            "setting of another stepper",
            r#"{"stepper": {"type": "clamp", "max_events": 10}}"#.to_owned(),
            "stepper.max_events: is not a setting of the \"clamp\" stepper (its settings are threshold_radii_per_step, toi_options)",
        ),
        (
            "settings of the discrete stepper",
            r#"{"stepper": {"type": "discrete", "threshold_radii_per_step": 1}}"#.to_owned(),
            "stepper.threshold_radii_per_step: is not a setting of the \"discrete\" stepper (it has no settings)",
        ),
        (
            "negative threshold in radii per step",
            r#"{"stepper": {"type": "toi", "threshold_radii_per_step": -1}}"#.to_owned(),
            "stepper.threshold_radii_per_step: must be zero or positive, got -1",
        ),
        (
            "zero event cap",
            r#"{"stepper": {"type": "toi", "max_events": 0}}"#.to_owned(),
            "stepper.max_events: must be at least 1, got 0",
        ),
        (
            "zero tolerance",
            r#"{"stepper": {"type": "clamp", "toi_options": {"tolerance": 0}}}"#.to_owned(),
            "stepper.toi_options.tolerance: must be finite and positive, got 0",
        ),
        (
            "unknown broadphase",
            r#"{"broadphase": "quadtree"}"#.to_owned(),
            "broadphase: must be one of \"rtree\", \"sap\", \"brute\", got \"quadtree\"",
        ),
        (
            "unknown domain",
            r#"{"domain": "spherical"}"#.to_owned(),
            "domain: must be one of \"unbounded\", \"periodic\", got \"spherical\"",
        ),
        (
            "periodic domain without its rectangle",
            r#"{"domain": "periodic"}"#.to_owned(),
            "periodic: missing: a periodic domain needs its rectangle, {\"min\": [x, y], \"max\": [x, y]}",
        ),
        (
            "rectangle without a periodic domain",
            r#"{"periodic": {"min": [0, 0], "max": [1, 1]}}"#.to_owned(),
            "periodic: only a periodic domain has one: add \"domain\": \"periodic\" or remove it",
        ),
        (
            "periodic rectangle without its upper corner",
            r#"{"domain": "periodic", "periodic": {"min": [0, 0]}}"#.to_owned(),
            "periodic.max: missing: a corner [x, y] of the rectangle",
        ),
        (
            "periodic rectangle upside down",
            r#"{"domain": "periodic", "periodic": {"min": [0, 0], "max": [4, -1]}}"#.to_owned(),
            "periodic.max[1]: must be above periodic.min[1] (0) by a finite size, got -1",
        ),
        (
            "periodic rectangle unknown field",
            r#"{"domain": "periodic", "periodic": {"min": [0, 0], "max": [1, 1], "wrap": true}}"#
                .to_owned(),
            "periodic.wrap: unknown field `wrap`, expected `min` or `max` at line 1 column 72",
        ),
        (
            "future version",
            r#"{"version": 2}"#.to_owned(),
            "version: must be 1, got 2",
        ),
        (
            "zero substeps",
            r#"{"solver": {"substeps": 0}}"#.to_owned(),
            "solver.substeps: must be at least 1, got 0",
        ),
        (
            "four billion substeps",
            r#"{"solver": {"substeps": 4000000000}}"#.to_owned(),
            "solver.substeps: must be at most 1024 (MAX_SOLVER_ITERATIONS), got 4000000000",
        ),
        (
            "a step too long for gravity",
            r#"{"dt": 1e308}"#.to_owned(),
            "dt: must be short enough that gravity's reach over a step, |gravity| dt^2, is finite, got 1e308",
        ),
        (
            "gravity whose length overflows",
            r#"{"gravity": [0, -1e300]}"#.to_owned(),
            "gravity: must have a length finite in f64 (components below about 1.3e154), got [0, -1e300]",
        ),
        (
            "gravity whose length overflows, a component at a time",
            r#"{"gravity": [1e154, 1e154]}"#.to_owned(),
            "gravity: must have a length finite in f64 (components below about 1.3e154), got [1e154, 1e154]",
        ),
        (
            "negative speculative distance",
            r#"{"speculative_distance": -0.5}"#.to_owned(),
            "speculative_distance: must be zero or positive, got -0.5",
        ),
        (
            "negative time to sleep",
            r#"{"time_to_sleep": -1}"#.to_owned(),
            "time_to_sleep: must be zero or positive, got -1",
        ),
        (
            "sleeping not a boolean",
            r#"{"sleeping": 1}"#.to_owned(),
            "sleeping: invalid type: integer `1`, expected a boolean at line 1 column 14",
        ),
        (
            "negative sleep threshold",
            circle(r#""sleep_threshold": -0.1"#),
            "bodies[3].sleep_threshold: must be zero or positive, got -0.1",
        ),
        (
            "body far out",
            body(
                r#""type": "static", "pose": {"x": 1.7e308}, "shape": {"type": "circle", "radius": 1e308}"#,
            ),
            "bodies[3].pose: puts the shape so far out that its bounding box overflows",
        ),
        (
            "huge dynamic body",
            body(r#""shape": {"type": "circle", "radius": 1e200}"#),
            "bodies[3].density: gives a mass of inf and an inertia of inf: the body is too large or too dense",
        ),
        (
            "unknown first-hit reaction",
            circle(r#""on_first_hit": "explode""#),
            "bodies[3].on_first_hit: must be one of \"destroy\", got \"explode\"",
        ),
        (
            "first-hit reaction of a static body",
            body(
                r#""type": "static", "shape": {"type": "circle", "radius": 1}, "on_first_hit": "destroy""#,
            ),
            "bodies[3].on_first_hit: only a dynamic body can react to its first hit",
        ),
        (
            "first-hit reaction that is not a string",
            circle(r#""on_first_hit": true"#),
            "bodies[3].on_first_hit: invalid type: boolean `true`, expected a string at line 1 column 207",
        ),
        (
            "shape and shapes",
            circle(r#""shapes": [{"type": "circle", "radius": 1}]"#),
            "bodies[3].shapes: give shape or shapes, not both",
        ),
        (
            "no shapes",
            body(r#""shapes": []"#),
            "bodies[3].shapes: must list at least one shape, got []",
        ),
        (
            "a body-level density with shapes",
            body(r#""density": 2, "shapes": [{"type": "circle", "radius": 1}]"#),
            "bodies[3].density: belongs to each shape of a body of several shapes: give bodies[3].shapes[k].density",
        ),
        (
            "a body-level filter with shapes",
            body(r#""shapes": [{"type": "circle", "radius": 1}], "filter": {"mask_bits": 1}"#),
            "bodies[3].filter: belongs to each shape of a body of several shapes: give bodies[3].shapes[k].filter",
        ),
        (
            "a mass with shapes",
            body(r#""shapes": [{"type": "circle", "radius": 1}], "mass": 3"#),
            "bodies[3].mass: is not a field of a body of several shapes: give each shape a density, or the body mass_properties",
        ),
        (
            "negative density of a further shape",
            body(
                r#""shapes": [{"type": "circle", "radius": 1}, {"type": "circle", "radius": 1, "center": [2, 0], "density": -1}]"#,
            ),
            "bodies[3].shapes[1].density: must be zero or positive, got -1",
        ),
        (
            "negative radius of a further shape",
            body(
                r#""shapes": [{"type": "circle", "radius": 1}, {"type": "capsule", "a": [0, 0], "b": [1, 0], "radius": -1}]"#,
            ),
            "bodies[3].shapes[1].radius: must be positive, got -1",
        ),
        (
            "restitution of a further shape",
            body(
                r#""shapes": [{"type": "circle", "radius": 1}, {"type": "circle", "radius": 1, "material": {"restitution": 2}}]"#,
            ),
            "bodies[3].shapes[1].material.restitution: must be in [0, 1], got 2",
        ),
        (
            "a field of another shape type in an entry",
            body(r#""shapes": [{"type": "circle", "radius": 1, "vertices": [[0, 0]]}]"#),
            "bodies[3].shapes[0].vertices: is not a field of a circle (its fields are radius, center)",
        ),
        (
            "an unknown field in an entry",
            body(r#""shapes": [{"type": "circle", "radius": 1, "ofset": [1, 0, 0]}]"#),
            "bodies[3].shapes[0].ofset: unknown field `ofset`, expected one of `type`, `radius`, `center`, `a`, `b`, `vertices`, `half_width`, `half_height`, `points`, `closed`, `ghost_before`, `ghost_after`, `seams`, `offset`, `density`, `material`, `filter`, `sensor`, `contact_force_threshold` at line 1 column 195",
        ),
        (
            "an offset of two numbers",
            body(r#""shapes": [{"type": "circle", "radius": 1, "offset": [1, 0]}]"#),
            "bodies[3].shapes[0].offset: invalid length 2, expected an array of length 3 at line 1 column 204",
        ),
        (
            "a dynamic body of segments only",
            body(
                r#""shapes": [{"type": "segment", "a": [0, 0], "b": [1, 0]}, {"type": "segment", "a": [0, 0], "b": [0, 1]}]"#,
            ),
            "bodies[3].type: a dynamic body needs a mass, and none of its shapes has area: make it static or kinematic, or give it mass_properties",
        ),
        (
            "a dynamic body whose shape with area has no density",
            body(
                r#""shapes": [{"type": "segment", "a": [0, 0], "b": [1, 0]}, {"type": "circle", "radius": 1, "density": 0}]"#,
            ),
            "bodies[3].shapes[1].density: must be positive for a dynamic body (or give mass_properties), got 0",
        ),
    ];
    assert!(cases.len() >= 20);
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
fn every_prefix_of_a_scene_is_refused_without_panicking() {
    let text = r#"{"name": "cut", "gravity": [0, -10], "stepper": {"type": "toi", "toi_options": {"tolerance": 1e-6}},
        "bodies": [{"type": "static", "shape": {"type": "polygon", "vertices": [[0, 0], [1, 0], [0, 1]]}},
                   {"shape": {"type": "capsule", "a": [0, 0], "b": [1, 0], "radius": 0.5}, "pose": {"x": 1, "angle": 0.5}}]}"#;
    assert!(Scene::from_json(text).is_ok());
    for end in 0..text.len() {
        assert!(
            Scene::from_json(&text[..end]).is_err(),
            "prefix of {end} bytes"
        );
    }
}

#[test]
fn invalid_utf8_is_an_error() {
    let err = Scene::from_json_slice(b"{\"name\": \"\xff\"}").unwrap_err();
    assert_eq!(
        err.to_string(),
        "name: invalid unicode code point at line 1 column 11"
    );
}

#[test]
fn malformed_queries_are_refused_with_their_path() {
    let a = r#""a": {"shape": {"type": "circle", "radius": 1}}"#;
    let cases = [
        (
            format!("{{{a}}}"),
            "b: missing: the query needs two moving shapes, a and b",
        ),
        (
            r#"{"a": {"shape": {"type": "circle", "radius": -1}}, "b": {}}"#.to_owned(),
            "a.shape.radius: must be positive, got -1",
        ),
        (
            format!(r#"{{{a}, "b": {{"linvel": [1, 0]}}}}"#),
            "b.shape: missing: each side of the query has a shape",
        ),
        (
            format!(r#"{{{a}, "b": {{"shape": {{"type": "circle", "radius": 1}}, "spin": 1}}}}"#),
            "b.spin: unknown field `spin`, expected one of `shape`, `pose`, `linvel`, `angvel`, `center` at line 1 column 104",
        ),
        (
            format!(
                r#"{{{a}, "b": {a_shape}, "options": {{"max_fraction": 2}}}}"#,
                a_shape = r#"{"shape": {"type": "circle", "radius": 1}}"#
            ),
            "options.max_fraction: must be in [0, 1], got 2",
        ),
        (
            format!(
                r#"{{{a}, "b": {a_shape}, "dt": 0}}"#,
                a_shape = r#"{"shape": {"type": "circle", "radius": 1}}"#
            ),
            "dt: must be positive, got 0",
        ),
    ];
    for (text, expected) in cases {
        let got = ToiQuery::from_json(&text)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert_eq!(got, expected, "{text}");
    }
}

/// A body larger than half a periodic rectangle (it could meet a neighbour through two images
/// at once) is refused when the world is built, with the body's path.
#[test]
fn a_body_too_large_for_its_periodic_domain_is_refused_with_its_path() {
    let text = r#"{"domain": "periodic", "periodic": {"min": [0, 0], "max": [4, 4]},
        "bodies": [{"shape": {"type": "circle", "radius": 0.5}},
                   {"shape": {"type": "circle", "radius": 1.5}, "pose": {"x": 2, "y": 2}}]}"#;
    let scene = Scene::from_json(text).expect("the file itself is well formed");
    let Err(error) = scene.build() else {
        panic!("the second disc is 3 across in a 4-wide domain");
    };
    assert_eq!(
        error.to_string(),
        "bodies[1].aabb.width: must be at most half the periodic domain in that direction, got 3"
    );
}

/// A step whose arithmetic leaves the range of `f64` (a disc falling at 1.5e308 units/s,
/// which passes the largest `f64` after about 72 steps) fails with the path of the first body
/// it would have left non-finite, and leaves the world as it was: every body finite, the same
/// step count, and the same error on the next try.
#[test]
fn a_step_that_would_leave_a_body_not_finite_fails_and_changes_nothing() {
    let scene = Scene::from_json(
        r#"{
            "name": "a_disc_falling_past_the_range_of_f64",
            "gravity": [0, -10],
            "stepper": {"type": "discrete"},
            "dt": 0.016666666666666666,
            "duration": 2,
            "bodies": [
                {"shape": {"type": "circle", "radius": 0.25}, "linvel": [0, -1.5e308]}
            ]
        }"#,
    )
    .unwrap();
    let mut world = scene.build().unwrap();
    let state = |world: &dyn impact_scene::AnyWorld| -> Vec<u64> {
        world
            .body_set()
            .iter()
            .flat_map(|(_, b)| {
                let t = b.pose().translation.vector;
                [
                    t.x,
                    t.y,
                    b.pose().rotation.re,
                    b.pose().rotation.im,
                    b.linvel().x,
                    b.linvel().y,
                    b.angvel(),
                ]
            })
            .map(f64::to_bits)
            .collect()
    };
    let mut failed = None;
    for _ in 0..120 {
        let before = (state(world.as_ref()), world.step_count());
        match world.step(scene.dt) {
            Ok(_) => continue,
            Err(e) => {
                assert_eq!((state(world.as_ref()), world.step_count()), before);
                failed = Some(e.to_string());
                break;
            }
        }
    }
    let error = failed.expect("the scene overflows within 120 steps");
    assert!(
        error.starts_with("bodies[") && error.contains("must be finite"),
        "{error}"
    );
    for (_, b) in world.body_set().iter() {
        let t = b.pose().translation.vector;
        assert!(t.x.is_finite() && t.y.is_finite() && b.angvel().is_finite());
    }
    assert_eq!(world.step(scene.dt).unwrap_err().to_string(), error);
}

/// `velocity_threshold`, the former name of `threshold_radii_per_step`, still loads, to the
/// same settings; naming the setting twice, once under each name, is refused with its path.
#[test]
fn the_former_name_of_the_ccd_threshold_loads_and_is_refused_twice() {
    use impact_scene::StepperChoice;
    for kind in ["toi", "clamp"] {
        let old = Scene::from_json(&format!(
            r#"{{"stepper": {{"type": "{kind}", "velocity_threshold": 2.5}}}}"#
        ))
        .unwrap();
        let new = Scene::from_json(&format!(
            r#"{{"stepper": {{"type": "{kind}", "threshold_radii_per_step": 2.5}}}}"#
        ))
        .unwrap();
        let threshold = |s: &Scene| match &s.stepper {
            StepperChoice::Toi(t) => t.threshold_radii_per_step,
            StepperChoice::Clamp(c) => c.threshold_radii_per_step,
            StepperChoice::Discrete => unreachable!("{kind}"),
        };
        assert_eq!(threshold(&old), 2.5, "{kind}");
        assert_eq!(threshold(&old), threshold(&new), "{kind}");
        assert!(!old.to_json().unwrap().contains("velocity_threshold"));
        let both = Scene::from_json(&format!(
            r#"{{"stepper": {{"type": "{kind}", "velocity_threshold": 1, "threshold_radii_per_step": 2}}}}"#
        ))
        .unwrap_err()
        .to_string();
        assert!(both.contains("threshold_radii_per_step"), "{kind}: {both}");
    }
}
