//! Bodies of several shapes in a scene file: a body's `shapes` list, read (each entry's
//! `offset` applied to its points), written, and listed for the rules with the path of each
//! shape's fields.
//!
//! A body gives either `shape` (one shape; its density, material, filter, sensor flag and
//! force threshold are the body's own fields, as they always were) or `shapes` (one entry
//! per shape, each with those fields of its own, and none of them at the body's level). A
//! [`RigidBodyDef`]'s own fields are its first shape and `def.shapes` the others, so entry 0
//! is the def's own fields and entry `k` is `def.shapes[k - 1]`; a def with further shapes
//! is written as `shapes`, one without as `shape`, so a file of single-shape bodies reads
//! and writes as it did.
//!
//! An entry places its shape in the body frame by its points (a circle's `center`, a
//! segment's or capsule's ends, a polygon's vertices, a rounded polygon's core) and, for convenience, an `offset`
//! `[x, y, angle]` that turns those points by `angle` about the body origin and then moves
//! them by `(x, y)`: the same box can be written once and placed twice. The offset is
//! applied as the file is read; a scene written back gives the moved points, and no offset.

use crate::error::{SceneError, finite, non_negative, remap, unit_interval};
use crate::file::{BodyFile, MaterialFile, Obj, ShapeEntryFile};
use crate::read;
use crate::validate;
use crate::write;
use impact_geometry::{
    Capsule, ChainSegment, Circle, ConvexPolygon, Isometry, MassProperties, Point, Segment, Shape,
    Vector,
};
use impact_solver::{Material, RigidBodyDef, ShapeDef};

/// One shape of a body as the rules see it: where its geometry's fields are in the file
/// (`bodies[i].shape` or `bodies[i].shapes[k]`), where its density, material, filter, sensor
/// flag and force threshold are (`bodies[i]` or `bodies[i].shapes[k]`), and its definition.
pub(crate) struct ShapeAt {
    pub(crate) geometry: String,
    pub(crate) fields: String,
    pub(crate) def: ShapeDef,
}

/// The first shape of `def`: its own fields.
pub(crate) fn first(def: &RigidBodyDef) -> ShapeDef {
    ShapeDef {
        shape: def.shape.clone(),
        density: def.density,
        friction: def.friction,
        restitution: def.restitution,
        filter: def.filter,
        sensor: def.sensor,
        contact_force_threshold: def.contact_force_threshold,
    }
}

/// Every shape of `def` (the body at `path`), with the paths its fields have in the file.
pub(crate) fn shapes_of(def: &RigidBodyDef, path: &str) -> Vec<ShapeAt> {
    if def.shapes.is_empty() {
        return vec![ShapeAt {
            geometry: format!("{path}.shape"),
            fields: path.to_owned(),
            def: first(def),
        }];
    }
    core::iter::once(first(def))
        .chain(def.shapes.iter().cloned())
        .enumerate()
        .map(|(k, def)| {
            let at = format!("{path}.shapes[{k}]");
            ShapeAt {
                geometry: at.clone(),
                fields: at,
                def,
            }
        })
        .collect()
}

/// The centre of mass `mass_properties.center` defaults to: the centroid of all the body's
/// shapes by area (their densities play no part, as they play none in hand-set mass
/// properties); the origin if none has area.
pub(crate) fn default_center(def: &RigidBodyDef) -> Point {
    if def.shapes.is_empty() {
        return read::default_center(&def.shape);
    }
    let parts: Vec<MassProperties> = core::iter::once(&def.shape)
        .chain(def.shapes.iter().map(|s| &s.shape))
        .map(|s| s.mass_properties(1.0).unwrap_or(MassProperties::ZERO))
        .collect();
    MassProperties::combine(&parts).local_center
}

/// The body-level fields that belong to a shape, which a body with `shapes` gives per shape.
const PER_SHAPE: [&str; 6] = [
    "density",
    "mass",
    "material",
    "filter",
    "sensor",
    "contact_force_threshold",
];

/// The shapes of the body `b` at `path` from its `shapes` list: the first error names its
/// field (`bodies[3].shapes[1].density`).
pub(crate) fn read_shapes(b: &BodyFile, path: &str) -> Result<Vec<ShapeDef>, SceneError> {
    let Some(list) = &b.shapes else {
        return Ok(Vec::new());
    };
    if b.shape.is_some() {
        return Err(SceneError::new(
            format!("{path}.shapes"),
            "give shape or shapes, not both",
        ));
    }
    let given = [
        b.density.is_some(),
        b.mass.is_some(),
        b.material.is_some(),
        b.filter.is_some(),
        b.sensor.is_some(),
        b.contact_force_threshold.is_some(),
    ];
    if let Some((name, _)) = PER_SHAPE.iter().zip(given).find(|(_, g)| *g) {
        let why = if *name == "mass" {
            "is not a field of a body of several shapes: give each shape a density, or the \
             body mass_properties"
                .to_owned()
        } else {
            format!(
                "belongs to each shape of a body of several shapes: give {path}.shapes[k].{name}"
            )
        };
        return Err(SceneError::new(format!("{path}.{name}"), why));
    }
    if list.is_empty() {
        return Err(SceneError::new(
            format!("{path}.shapes"),
            "must list at least one shape, got []",
        ));
    }
    list.iter()
        .enumerate()
        .map(|(k, Obj(e))| entry(e, &format!("{path}.shapes[{k}]")))
        .collect()
}

/// One entry of `shapes` at `path`, its offset applied.
fn entry(e: &ShapeEntryFile, path: &str) -> Result<ShapeDef, SceneError> {
    let field = |name: &str| format!("{path}.{name}");
    let mut shape = read::shape(&e.geometry(), path)?;
    if let Some(offset) = e.offset {
        shape = offset_shape(&shape, offset, &field("offset"))?;
        validate::shape(&shape, path)?;
    }
    let mut def = ShapeDef::new(shape);
    if let Some(d) = e.density {
        def.density = non_negative(&field("density"), d)?;
    }
    if let Some(Obj(MaterialFile {
        restitution,
        friction,
    })) = &e.material
    {
        if let Some(r) = *restitution {
            def.restitution = unit_interval(&field("material.restitution"), r)?;
        }
        if let Some(f) = *friction {
            def.friction = non_negative(&field("material.friction"), f)?;
        }
    }
    if let Some(Obj(f)) = &e.filter {
        def.filter = read::filter(f);
    }
    if let Some(sensor) = e.sensor {
        def.sensor = sensor;
    }
    if let Some(t) = e.contact_force_threshold {
        def.contact_force_threshold = Some(non_negative(&field("contact_force_threshold"), t)?);
    }
    Ok(def)
}

/// `shape` with its points turned by `angle` about the origin and moved by `(x, y)`
/// (`offset`, at `path`).
fn offset_shape(shape: &Shape, offset: [f64; 3], path: &str) -> Result<Shape, SceneError> {
    for (i, v) in offset.iter().enumerate() {
        finite(&format!("{path}[{i}]"), *v)?;
    }
    let [x, y, angle] = offset;
    let by = Isometry::new(Vector::new(x, y), angle);
    let at = |p: Point| by * p;
    let moved: Result<Shape, _> = match shape {
        Shape::Circle(c) => Circle::with_center(at(c.center()), c.radius()).map(Shape::from),
        Shape::Segment(s) => Segment::new(at(s.a()), at(s.b())).map(Shape::from),
        Shape::Capsule(c) => {
            Capsule::new(at(c.axis().a()), at(c.axis().b()), c.radius()).map(Shape::from)
        }
        Shape::Polygon(p) => {
            let points: Vec<Point> = p.vertices().iter().map(|&v| at(v)).collect();
            ConvexPolygon::rounded(&points, p.radius()).map(Shape::from)
        }
        Shape::ChainSegment(c) => ChainSegment::new(
            at(c.ghost_before()),
            at(c.a()),
            at(c.b()),
            at(c.ghost_after()),
        )
        .map(Shape::from),
    };
    // A moved shape is as valid as the original unless the offset takes its points past the
    // range of an `f64`.
    moved.map_err(|e| remap(&e, "", path))
}

/// The `shapes` list of `def`, or `None` for a body of one shape (written as `shape`).
pub(crate) fn write_shapes(def: &RigidBodyDef) -> Option<Vec<Obj<ShapeEntryFile>>> {
    if def.shapes.is_empty() {
        return None;
    }
    let entries = core::iter::once(first(def))
        .chain(def.shapes.iter().cloned())
        .map(|s| Obj(write_entry(&s)))
        .collect();
    Some(entries)
}

/// One entry, defaults left out.
fn write_entry(s: &ShapeDef) -> ShapeEntryFile {
    let material = Material::default();
    let restitution = write::unless(s.restitution, material.restitution());
    let friction = write::unless(s.friction, material.friction());
    ShapeEntryFile {
        density: write::unless(s.density, 1.0),
        material: (restitution.is_some() || friction.is_some()).then_some(Obj(MaterialFile {
            restitution,
            friction,
        })),
        filter: write::filter(&s.filter).map(Obj),
        sensor: write::unless(s.sensor, false),
        contact_force_threshold: s.contact_force_threshold,
        ..ShapeEntryFile::of_geometry(write::shape(&s.shape))
    }
}
