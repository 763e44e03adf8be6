//! The messages the page sends (JSON over the WebSocket), read and checked: a message that
//! is not one of these, or whose numbers are out of range, is refused with a reason the
//! server logs, and changes nothing.

use impact_scene::{BroadphaseChoice, StepperKind};
use serde::Deserialize;

/// The fastest bullet the page may fire (world units per second).
pub const MAX_BULLET_SPEED: f64 = 10_000.0;
/// The largest bullet radius (world units).
pub const MAX_BULLET_RADIUS: f64 = 1.0;
/// The fastest throw (world units per second): a pointer flicked across a zoomed-out view.
pub const MAX_THROW_SPEED: f64 = 10_000.0;
/// The most substeps the page may ask for.
pub const MAX_SUBSTEPS: u32 = 64;
/// The farthest a point from the page may be from the origin (world units): far beyond any
/// scene, well inside what a body's box may hold.
pub const MAX_COORDINATE: f64 = 1e7;

/// One message from the page. The variants without fields are empty structs rather than
/// unit variants, so that serde's `deny_unknown_fields` refuses `{"type": "pause", "x": 1}`
/// too (an internally tagged unit variant ignores extra fields).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Run in real time.
    Play {},
    /// Stop stepping.
    Pause {},
    /// Pause, then take exactly one step.
    Step {},
    /// The slow-motion factor: simulated seconds per wall second, in `(0, 1]`.
    Speed {
        /// The factor.
        value: f64,
    },
    /// Switch the stepper, keeping the state.
    Stepper {
        /// `"discrete"`, `"clamp"` or `"toi"`.
        value: String,
    },
    /// Switch the broadphase, keeping the state.
    Broadphase {
        /// `"rtree"`, `"sap"` or `"brute"`.
        value: String,
    },
    /// The solver's settings, as Box2D's samples offer them.
    Settings {
        /// Substeps per step, `1..=64`.
        substeps: u32,
        /// The contact stiffness (Hz, positive, at most 1,000).
        contact_hertz: f64,
        /// Warm starting.
        warm_starting: bool,
        /// Whether bodies may sleep (`WorldSettings::sleeping`).
        sleeping: bool,
    },
    /// Rebuild the current scene.
    Restart {},
    /// Load a scene by name (see the catalogue's names).
    Load {
        /// The name.
        scene: String,
    },
    /// Press on the body under `point` (world units): grab it through a mouse joint.
    Grab {
        /// Where the pointer is.
        point: [f64; 2],
    },
    /// Move the grab's target.
    Drag {
        /// Where the pointer is.
        point: [f64; 2],
    },
    /// Let go, throwing the body with the pointer's velocity.
    Release {
        /// The pointer's velocity over its last 100 ms (world units per second).
        velocity: [f64; 2],
    },
    /// Fire a `ccd` disc from `from` along `direction` at `speed`.
    Fire {
        /// Where it starts.
        from: [f64; 2],
        /// Which way (need not be a unit vector; not zero).
        direction: [f64; 2],
        /// How fast, `(0, 10,000]` world units per second.
        speed: f64,
        /// Its radius, `(0, 1]`.
        radius: f64,
        /// Its restitution, `[0, 1]`.
        restitution: f64,
    },
    /// Which overlays the frames carry beyond poses and impacts.
    Overlays {
        /// The swept course of every CCD body over the last step.
        courses: bool,
        /// Contact points and normals.
        contacts: bool,
        /// Broadphase boxes.
        boxes: bool,
    },
}

/// A message refused: why, for the log.
pub type Refused = String;

/// Reads one message and checks its values.
///
/// # Errors
/// Why it is refused: not JSON, an unknown `type` or field, a missing field, a value out
/// of range or not finite, an unknown stepper or broadphase name.
pub fn parse(text: &str) -> Result<Command, Refused> {
    let command: Command = serde_json::from_str(text).map_err(|e| e.to_string())?;
    check(&command)?;
    Ok(command)
}

fn check(command: &Command) -> Result<(), Refused> {
    match command {
        Command::Speed { value } => in_range("speed.value", *value, f64::MIN_POSITIVE, 1.0),
        Command::Stepper { value } => value
            .parse::<StepperKind>()
            .map(drop)
            .map_err(|e| format!("stepper.value: {e}")),
        Command::Broadphase { value } => value
            .parse::<BroadphaseChoice>()
            .map(drop)
            .map_err(|e| format!("broadphase.value: {e}")),
        Command::Settings {
            substeps,
            contact_hertz,
            ..
        } => {
            if !(1..=MAX_SUBSTEPS).contains(substeps) {
                return Err(format!(
                    "settings.substeps: must be in 1..={MAX_SUBSTEPS}, got {substeps}"
                ));
            }
            in_range("settings.contact_hertz", *contact_hertz, 1e-3, 1000.0)
        }
        Command::Grab { point } | Command::Drag { point } => coordinates("point", point),
        Command::Release { velocity } => {
            for (i, v) in velocity.iter().enumerate() {
                in_range(
                    &format!("release.velocity[{i}]"),
                    *v,
                    -MAX_THROW_SPEED,
                    MAX_THROW_SPEED,
                )?;
            }
            Ok(())
        }
        Command::Fire {
            from,
            direction,
            speed,
            radius,
            restitution,
        } => {
            coordinates("fire.from", from)?;
            coordinates("fire.direction", direction)?;
            if direction[0] == 0.0 && direction[1] == 0.0 {
                return Err("fire.direction: must not be zero".to_owned());
            }
            in_range("fire.speed", *speed, f64::MIN_POSITIVE, MAX_BULLET_SPEED)?;
            in_range("fire.radius", *radius, 1e-3, MAX_BULLET_RADIUS)?;
            in_range("fire.restitution", *restitution, 0.0, 1.0)
        }
        Command::Load { scene } if scene.len() > 4096 => {
            Err("load.scene: longer than 4096 bytes".to_owned())
        }
        _ => Ok(()),
    }
}

fn in_range(field: &str, value: f64, min: f64, max: f64) -> Result<(), Refused> {
    if value.is_finite() && (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(format!("{field}: must be in [{min}, {max}], got {value}"))
    }
}

fn coordinates(field: &str, p: &[f64; 2]) -> Result<(), Refused> {
    for (i, v) in p.iter().enumerate() {
        in_range(
            &format!("{field}[{i}]"),
            *v,
            -MAX_COORDINATE,
            MAX_COORDINATE,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_messages_are_read() {
        assert_eq!(parse(r#"{"type": "pause"}"#), Ok(Command::Pause {}));
        assert_eq!(
            parse(r#"{"type": "stepper", "value": "discrete"}"#),
            Ok(Command::Stepper {
                value: "discrete".to_owned()
            })
        );
        assert!(
            parse(
                r#"{"type": "fire", "from": [0, 1], "direction": [1, 0], "speed": 10000,
                    "radius": 0.05, "restitution": 1}"#
            )
            .is_ok()
        );
    }

    #[test]
    fn malformed_messages_are_refused_with_a_reason() {
        for (text, reason) in [
            ("not json", "expected ident"),
            (r#"{"type": "explode"}"#, "unknown variant `explode`"),
            (r#"{"type": "pause", "x": 1}"#, "unknown field `x`"),
            (r#"{"type": "speed"}"#, "missing field `value`"),
            (
                r#"{"type": "speed", "value": 0}"#,
                "speed.value: must be in",
            ),
            (
                r#"{"type": "speed", "value": 2}"#,
                "speed.value: must be in",
            ),
            (
                r#"{"type": "stepper", "value": "rk4"}"#,
                "stepper.value: must be one of",
            ),
            (
                r#"{"type": "broadphase", "value": "kd"}"#,
                "broadphase.value",
            ),
            (
                r#"{"type": "grab", "point": [1e300, 0]}"#,
                "point[0]: must be in",
            ),
            (r#"{"type": "grab", "point": [1]}"#, "invalid length 1"),
            (
                r#"{"type": "release", "velocity": [0, 1e9]}"#,
                "release.velocity[1]",
            ),
            (
                r#"{"type": "fire", "from": [0, 0], "direction": [0, 0], "speed": 1, "radius": 0.1, "restitution": 1}"#,
                "fire.direction: must not be zero",
            ),
            (
                r#"{"type": "fire", "from": [0, 0], "direction": [1, 0], "speed": 20000, "radius": 0.1, "restitution": 1}"#,
                "fire.speed: must be in",
            ),
            (
                r#"{"type": "fire", "from": [0, 0], "direction": [1, 0], "speed": 1, "radius": 0.1, "restitution": 1.5}"#,
                "fire.restitution",
            ),
            (
                r#"{"type": "settings", "substeps": 0, "contact_hertz": 30, "warm_starting": true, "sleeping": false}"#,
                "settings.substeps",
            ),
            (
                r#"{"type": "settings", "substeps": 4, "contact_hertz": -1, "warm_starting": true, "sleeping": false}"#,
                "settings.contact_hertz",
            ),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.contains(reason), "{text}: {e}");
        }
    }
}
