//! [`SceneError`], and the checks that produce it with the path of the bad field.

use core::fmt;
use impact_geometry::Real;
use impact_geometry::validate::Shown;
use serde_path_to_error::Segment;

/// Why a scene file, a scene or a time-of-impact query was refused: the path of the bad
/// field in the file (`bodies[3].shape.radius`) and why.
///
/// Displayed as `path: message`, for example
/// `bodies[3].shape.radius: must be positive, got -1`. Errors the JSON parser found (bad
/// syntax, a wrong type, an unknown field) carry the parser's own message with its line and
/// column, after the path of the value it was reading:
/// `bodies[0].shape.radius: invalid type: string "NaN", expected f64 at line 1 column 52`.
/// An error about the file as a whole has an empty path and is displayed as its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SceneError {
    path: String,
    message: String,
}

impl SceneError {
    /// An error about the field at `path` (empty for the whole file).
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }

    /// The path of the bad field, as in the file: `bodies[3].shape.radius`, `stepper.type`,
    /// `dt`; empty when the error is about the file as a whole.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Why the field was refused: `must be positive, got -1`.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The parser's error, with the path serde_path_to_error tracked to it.
    pub(crate) fn from_json(e: serde_path_to_error::Error<serde_json::Error>) -> Self {
        // Built here rather than with the path's `Display`, which writes "." for the file as a
        // whole and "?" for a key the parser had not read yet (at the end of a truncated
        // file): both are left out.
        let mut path = String::new();
        for segment in e.path().iter() {
            match segment {
                Segment::Seq { index } => path.push_str(&format!("[{index}]")),
                Segment::Map { key } | Segment::Enum { variant: key } => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(key);
                }
                Segment::Unknown => {}
            }
        }
        Self::new(path, e.into_inner().to_string())
    }

    /// The same error for a field nested under `prefix` (`a` for `a.shape.radius`).
    pub(crate) fn under(self, prefix: &str) -> Self {
        let path = if self.path.is_empty() {
            prefix.to_owned()
        } else if self.path.starts_with('[') {
            format!("{prefix}{}", self.path)
        } else {
            format!("{prefix}.{}", self.path)
        };
        Self { path, ..self }
    }
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for SceneError {}

/// Turns an error of the library crates, whose message starts with a field of their own
/// (`body.density: ...`, `polygon.vertices: ...`), into one at `path`: the library's field
/// prefix `from` is replaced by `path`. The libraries promise `field: message` in every
/// `Display`, which is what makes this mapping safe.
pub(crate) fn remap(error: &dyn fmt::Display, from: &str, path: &str) -> SceneError {
    let text = error.to_string();
    if let Some((field, message)) = text.split_once(": ")
        && let Some(rest) = field.strip_prefix(from)
        && (rest.is_empty() || rest.starts_with('.') || rest.starts_with('['))
    {
        return SceneError::new(format!("{path}{rest}"), message);
    }
    SceneError::new(path, text)
}

/// `value`, if it is finite.
pub(crate) fn finite(path: &str, value: Real) -> Result<Real, SceneError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(SceneError::new(
            path,
            format!("must be finite, got {}", Shown(value)),
        ))
    }
}

/// `value`, if it is finite and strictly positive.
pub(crate) fn positive(path: &str, value: Real) -> Result<Real, SceneError> {
    finite(path, value)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(SceneError::new(
            path,
            format!("must be positive, got {}", Shown(value)),
        ))
    }
}

/// `value`, if it is finite and zero or more.
pub(crate) fn non_negative(path: &str, value: Real) -> Result<Real, SceneError> {
    finite(path, value)?;
    if value >= 0.0 {
        Ok(value)
    } else {
        Err(SceneError::new(
            path,
            format!("must be zero or positive, got {}", Shown(value)),
        ))
    }
}

/// `value`, if it is finite and in `[0, 1]`.
pub(crate) fn unit_interval(path: &str, value: Real) -> Result<Real, SceneError> {
    finite(path, value)?;
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(SceneError::new(
            path,
            format!("must be in [0, 1], got {}", Shown(value)),
        ))
    }
}

/// `value`, if it is at least 1.
pub(crate) fn at_least_one(path: &str, value: u64) -> Result<u64, SceneError> {
    if value >= 1 {
        Ok(value)
    } else {
        Err(SceneError::new(
            path,
            format!("must be at least 1, got {value}"),
        ))
    }
}

/// The error for a name that is not one of `allowed`.
pub(crate) fn not_one_of(path: &str, value: &str, allowed: &[&str]) -> SceneError {
    let list = allowed
        .iter()
        .map(|a| format!("\"{a}\""))
        .collect::<Vec<_>>()
        .join(", ");
    SceneError::new(path, format!("must be one of {list}, got {value:?}"))
}

/// The error for a field that must be given; `why` says what it is for.
pub(crate) fn required(path: &str, why: &str) -> SceneError {
    SceneError::new(path, format!("missing: {why}"))
}
