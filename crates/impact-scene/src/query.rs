//! [`ToiQuery`]: one time-of-impact query read from a file (what `impact toi` answers).

use crate::error::{SceneError, required};
use crate::file::{Obj, PoseFile, ShapeFile, ToiOptionsFile, Xy};
use crate::read::{self, default_center};
use impact_geometry::{Isometry, Point, Real, Shape, Sweep, Vector};
use impact_narrowphase::{Toi, ToiOptions, time_of_impact};
use serde::{Deserialize, Serialize};

/// The query file.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct ToiQueryFile {
    a: Option<Obj<SweptShapeFile>>,
    b: Option<Obj<SweptShapeFile>>,
    dt: Option<f64>,
    options: Option<Obj<ToiOptionsFile>>,
}

/// One side of the query.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct SweptShapeFile {
    shape: Option<Obj<ShapeFile>>,
    pose: Option<Obj<PoseFile>>,
    linvel: Option<Xy>,
    angvel: Option<f64>,
    center: Option<Xy>,
}

/// A shape and its motion over the query's interval.
#[derive(Debug, Clone, PartialEq)]
pub struct SweptShape {
    /// The shape, in its body frame.
    pub shape: Shape,
    /// Its motion: start pose, centre of rotation, constant velocities, the query's `dt`.
    pub sweep: Sweep,
}

/// One time-of-impact query: two shapes, their motions over `dt` seconds, and the options.
///
/// The file (see `docs/scene-format.md`) gives each side a `shape` (as in a scene), a
/// `pose`, `linvel`, `angvel` and the `center` it rotates about (default: the shape's
/// centroid); `dt` (default 1, so velocities are displacements) and `options` (the
/// library's defaults: target separation 5 mm).
///
/// ```
/// use impact_scene::ToiQuery;
///
/// let query = ToiQuery::from_json(r#"{
///     "a": {"shape": {"type": "circle", "radius": 0.05}, "linvel": [10000, 0]},
///     "b": {"shape": {"type": "segment", "a": [1, -1], "b": [1, 1]}},
///     "dt": 0.016666666666666666,
///     "options": {"target_separation": 0, "tolerance": 1e-9}
/// }"#)?;
/// let hit = query.answer().hit().copied().expect("the bullet meets the paper");
/// assert!((hit.fraction - 0.95 / (10_000.0 / 60.0)).abs() < 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToiQuery {
    /// Shape A.
    pub a: SweptShape,
    /// Shape B.
    pub b: SweptShape,
    /// The length of the interval (seconds); fractions are of it.
    pub dt: Real,
    /// What counts as an impact, and how precisely it is found.
    pub options: ToiOptions,
}

impl ToiQuery {
    /// Reads and checks a query file (JSON).
    ///
    /// # Errors
    /// [`SceneError`] with the path of the bad field (`a.shape.radius`, `options.tolerance`).
    pub fn from_json(text: &str) -> Result<Self, SceneError> {
        let Obj(file): Obj<ToiQueryFile> = read::parse(text.as_bytes())?;
        let dt = crate::error::positive("dt", file.dt.unwrap_or(1.0))?;
        let a = swept(file.a.as_ref().map(|o| &o.0), "a", dt)?;
        let b = swept(file.b.as_ref().map(|o| &o.0), "b", dt)?;
        let options = match &file.options {
            Some(Obj(o)) => read::toi_options(o, "options")?,
            None => ToiOptions::default(),
        };
        Ok(Self { a, b, dt, options })
    }

    /// The answer: [`time_of_impact`] of the two sweeps.
    pub fn answer(&self) -> Toi {
        time_of_impact(
            &self.a.shape,
            &self.a.sweep,
            &self.b.shape,
            &self.b.sweep,
            &self.options,
        )
    }
}

fn swept(side: Option<&SweptShapeFile>, path: &str, dt: Real) -> Result<SweptShape, SceneError> {
    let side = side.ok_or_else(|| required(path, "the query needs two moving shapes, a and b"))?;
    let Obj(shape_file) = side.shape.as_ref().ok_or_else(|| {
        required(
            &format!("{path}.shape"),
            "each side of the query has a shape",
        )
    })?;
    let shape = read::shape(shape_file, &format!("{path}.shape"))?;
    let pose = match &side.pose {
        Some(Obj(p)) => read::pose(p, &format!("{path}.pose"))?,
        None => Isometry::identity(),
    };
    let linvel = side
        .linvel
        .map_or_else(Vector::zeros, |v| Vector::new(v[0], v[1]));
    let center = side
        .center
        .map_or_else(|| default_center(&shape), |c| Point::new(c[0], c[1]));
    let angvel = side.angvel.unwrap_or(0.0);
    // JSON numbers are finite, so the only way to fail here is a sweep that overflows.
    let sweep = Sweep::new(pose, center, linvel, angvel, dt)
        .map_err(|e| crate::error::remap(&e, "sweep", path))?;
    Ok(SweptShape { shape, sweep })
}
