//! The viewer's built-in scenes, written as scene files so they go through the same loader
//! as every other: the default demo (discs and boxes in a walled box under gravity, ready to
//! be thrown) and the rain of `n` discs the frame-rate test measures.

use serde_json::{Value, json};

/// The walls of a box `half_width` either side of `x = 0` and `height` tall, from `y = 0`:
/// four static segments.
fn walls(half_width: f64, height: f64) -> Vec<Value> {
    let (w, h) = (half_width, height);
    [
        [[-w, 0.0], [w, 0.0]],
        [[w, 0.0], [w, h]],
        [[w, h], [-w, h]],
        [[-w, h], [-w, 0.0]],
    ]
    .iter()
    .map(|[a, b]| {
        json!({
            "type": "static",
            "shape": {"type": "segment", "a": a, "b": b},
            "material": {"restitution": 0.2, "friction": 0.6}
        })
    })
    .collect()
}

/// The default demo: a box 16 wide and 10 tall; three rows of discs and boxes of a few
/// sizes, with a little restitution so throws bounce; a thin wall in the middle of the
/// floor for bullets; every dynamic body `ccd`, so the CCD steppers sweep a throw.
pub fn demo_json() -> String {
    let mut bodies = walls(8.0, 10.0);
    bodies.push(json!({
        "type": "static",
        "shape": {"type": "rectangle", "half_width": 0.01, "half_height": 1.5},
        "pose": {"x": 0, "y": 1.5}
    }));
    for row in 0..3 {
        for col in 0..10 {
            let x = -6.3 + 1.4 * f64::from(col);
            let y = 2.0 + 1.6 * f64::from(row);
            let shape = match (row + col) % 3 {
                0 => json!({"type": "circle", "radius": 0.35 + 0.05 * f64::from(col % 3)}),
                1 => json!({"type": "rectangle", "half_width": 0.4, "half_height": 0.3}),
                _ => json!({"type": "rounded_polygon",
                            "vertices": [[-0.3, -0.3], [0.3, -0.3], [0.0, 0.3]],
                            "radius": 0.08}),
            };
            bodies.push(json!({
                "shape": shape,
                "pose": {"x": x, "y": y},
                "ccd": true,
                "material": {"restitution": 0.3, "friction": 0.5}
            }));
        }
    }
    json!({
        "name": "demo",
        "gravity": [0, -10],
        "stepper": {"type": "toi"},
        "dt": 1.0 / 60.0,
        "bodies": bodies
    })
    .to_string()
}

/// A rain of `n` discs of radius 0.1 on a lattice above a walled floor 16 wide, each with a
/// small sideways velocity from its index (no random generator: the scene is the same on
/// every run), all `ccd`: the scene the browser test measures frames per second on.
pub fn rain_json(n: u32) -> String {
    let mut bodies = walls(8.0, 40.0);
    let per_row = 50;
    for i in 0..n {
        let (row, col) = (i / per_row, i % per_row);
        let x = -7.35 + 0.3 * f64::from(col);
        let y = 1.0 + 0.3 * f64::from(row);
        // A fixed spread of sideways speeds in [-1, 1], so the discs do not stack in columns.
        let vx = f64::from((i * 37) % 21) / 10.0 - 1.0;
        bodies.push(json!({
            "shape": {"type": "circle", "radius": 0.1},
            "pose": {"x": x, "y": y},
            "linvel": [vx, 0],
            "ccd": true,
            "material": {"restitution": 0.1, "friction": 0.3}
        }));
    }
    json!({
        "name": format!("rain of {n} discs"),
        "gravity": [0, -10],
        "stepper": {"type": "toi"},
        "dt": 1.0 / 60.0,
        "bodies": bodies
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_scene::Scene;

    #[test]
    fn the_rain_has_its_discs_and_the_demo_its_bodies() {
        let rain = Scene::from_json(&rain_json(1000)).unwrap();
        assert_eq!(rain.bodies.len(), 1004);
        let demo = Scene::from_json(&demo_json()).unwrap();
        assert_eq!(demo.bodies.len(), 35);
        assert!(demo.build().is_ok());
    }
}
