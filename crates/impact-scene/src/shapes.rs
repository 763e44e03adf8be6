//! Bodies of several shapes in a scene file: a body's `shapes` list, read (each entry's
//! `offset` applied to its points), written, and listed for the rules with the path of each
//! shape's fields.
//!
//! A body gives either `shape` (one shape object; its density, material, filter, sensor
//! flag and force threshold are the body's own fields, as they always were) or `shapes` (one
//! entry per shape object, each with those fields of its own, and none of them at the body's
//! level). A shape object is one shape, or for the types that stand for several (`chain`,
//! `outline`: see [`crate::chains`]) several, which share the object's fields. A
//! [`RigidBodyDef`]'s own fields are its first shape and `def.shapes` the others, so the
//! shapes of entry 0 come first; a def whose shapes are written as one shape object (one
//! shape, or the segments of one chain) is written with `shape`, any other with `shapes`, so
//! a file of single-shape bodies reads and writes as it did. [`Layout`] says which object
//! each shape of a body comes from, for the paths of the rules' errors.
//!
//! An entry places its shape in the body frame by its points (a circle's `center`, a
//! segment's or capsule's ends, a polygon's vertices, a rounded polygon's core, a chain's or
//! outline's points) and, for convenience, an `offset` `[x, y, angle]` that turns those
//! points by `angle` about the body origin and then moves them by `(x, y)`: the same box can
//! be written once and placed twice. The offset is applied as the file is read (to a
//! chain's or outline's points before the chain or outline is built); a scene written back
//! gives the moved points, and no offset.

use crate::chains;
use crate::error::{SceneError, finite, non_negative, remap, unit_interval};
use crate::file::{BodyFile, MaterialFile, Obj, ShapeEntryFile, ShapeFile};
use crate::read;
use crate::validate;
use crate::write;
use impact_geometry::{
    Capsule, ChainSegment, Circle, ConvexPolygon, Isometry, MassProperties, Point, Seam, Segment,
    Shape, Vector,
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

/// Where each shape of a body is in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Layout {
    /// The body's `shape`, of this type: every shape of the body comes from it and has the
    /// body's own per-shape fields.
    Shape(&'static str),
    /// The body's `shapes`: the entry each shape of the body comes from, in the body's order.
    Shapes(Vec<usize>),
}

impl Layout {
    /// The type of the body's `shape`, if it has one.
    pub(crate) fn kind(&self) -> Option<&'static str> {
        match self {
            Self::Shape(kind) => Some(kind),
            Self::Shapes(_) => None,
        }
    }
}

/// Every shape of `def`: its own first, then `def.shapes`.
pub(crate) fn all(def: &RigidBodyDef) -> Vec<ShapeDef> {
    core::iter::once(first(def))
        .chain(def.shapes.iter().cloned())
        .collect()
}

/// Where the writer puts each shape of `def` (see [`write_shapes`]).
pub(crate) fn layout_of(def: &RigidBodyDef) -> Layout {
    let entries = chains::entries(&all(def));
    match entries.as_slice() {
        [one] => Layout::Shape(one.kind),
        _ => Layout::Shapes(
            entries
                .iter()
                .enumerate()
                .flat_map(|(k, e)| core::iter::repeat_n(k, e.len))
                .collect(),
        ),
    }
}

/// Every shape of `def` (the body at `path`, its shapes where `layout` says), with the
/// paths its fields have in the file.
pub(crate) fn shapes_of(def: &RigidBodyDef, path: &str, layout: &Layout) -> Vec<ShapeAt> {
    all(def)
        .into_iter()
        .enumerate()
        .map(|(k, def)| match layout {
            Layout::Shape(_) => ShapeAt {
                geometry: format!("{path}.shape"),
                fields: path.to_owned(),
                def,
            },
            Layout::Shapes(entry_of) => {
                let at = format!("{path}.shapes[{}]", entry_of.get(k).copied().unwrap_or(k));
                ShapeAt {
                    geometry: at.clone(),
                    fields: at,
                    def,
                }
            }
        })
        .collect()
}

/// The shapes the shape object `s` at `path` stands for (one, or a chain's segments or an
/// outline's pieces), its points moved by `by` (an entry's `offset`).
pub(crate) fn geometry(
    s: &ShapeFile,
    path: &str,
    by: Option<&Isometry>,
) -> Result<Vec<Shape>, SceneError> {
    let (kind, _) = read::shape_kind(s, path)?;
    if chains::one_of(kind).is_some() {
        return chains::read_several(s, kind, path, by);
    }
    let mut shape = read::shape(s, path)?;
    if let Some(by) = by {
        shape = offset_shape(&shape, by, &format!("{path}.offset"))?;
        validate::shape(&shape, path)?;
    }
    Ok(vec![shape])
}

/// Gives every further shape of `def` the per-shape fields of its first (the body's own),
/// for a body whose one shape object stands for several shapes.
pub(crate) fn spread(def: &mut RigidBodyDef) {
    let own = first(def);
    for s in &mut def.shapes {
        *s = ShapeDef {
            shape: s.shape.clone(),
            ..own.clone()
        };
    }
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

/// The shapes a body's `shapes` list stands for.
pub(crate) struct Listed {
    /// Every shape of the body, in order.
    pub(crate) shapes: Vec<ShapeDef>,
    /// Where they are: [`Layout::Shapes`].
    pub(crate) layout: Layout,
}

/// The shapes of the body `b` at `path` from its `shapes` list, with the entry each comes
/// from; `None` if it has no `shapes`. The first error names its field
/// (`bodies[3].shapes[1].density`).
pub(crate) fn read_shapes(b: &BodyFile, path: &str) -> Result<Option<Listed>, SceneError> {
    let Some(list) = &b.shapes else {
        return Ok(None);
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
    let (mut shapes, mut entry_of) = (Vec::new(), Vec::new());
    for (k, Obj(e)) in list.iter().enumerate() {
        for def in entry(e, &format!("{path}.shapes[{k}]"))? {
            shapes.push(def);
            entry_of.push(k);
        }
    }
    Ok(Some(Listed {
        shapes,
        layout: Layout::Shapes(entry_of),
    }))
}

/// The shapes of one entry of `shapes` at `path` (one, or a chain's or outline's several),
/// its offset applied, each with the entry's fields.
fn entry(e: &ShapeEntryFile, path: &str) -> Result<Vec<ShapeDef>, SceneError> {
    let field = |name: &str| format!("{path}.{name}");
    let by = e
        .offset
        .map(|offset| offset_pose(offset, &field("offset")))
        .transpose()?;
    let shapes = geometry(&e.geometry(), path, by.as_ref())?;
    let mut def = ShapeDef::new(shapes[0].clone());
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
    Ok(shapes
        .into_iter()
        .map(|shape| ShapeDef {
            shape,
            ..def.clone()
        })
        .collect())
}

/// The pose an `offset` `[x, y, angle]` at `path` stands for.
fn offset_pose(offset: [f64; 3], path: &str) -> Result<Isometry, SceneError> {
    for (i, v) in offset.iter().enumerate() {
        finite(&format!("{path}[{i}]"), *v)?;
    }
    let [x, y, angle] = offset;
    Ok(Isometry::new(Vector::new(x, y), angle))
}

/// `shape` with its points moved by `by` (an `offset`, at `path`).
fn offset_shape(shape: &Shape, by: &Isometry, path: &str) -> Result<Shape, SceneError> {
    let at = |p: Point| by * p;
    let moved: Result<Shape, _> = match shape {
        Shape::Circle(c) => Circle::with_center(at(c.center()), c.radius()).map(Shape::from),
        Shape::Segment(s) => Segment::new(at(s.a()), at(s.b())).map(Shape::from),
        Shape::Capsule(c) => {
            Capsule::new(at(c.axis().a()), at(c.axis().b()), c.radius()).map(Shape::from)
        }
        Shape::Polygon(p) => {
            let points: Vec<Point> = p.vertices().iter().map(|&v| at(v)).collect();
            let seams: Vec<Seam> = p
                .seams()
                .iter()
                .map(|s| Seam {
                    edge: s.edge,
                    after_start: at(s.after_start),
                    before_end: at(s.before_end),
                })
                .collect();
            ConvexPolygon::rounded(&points, p.radius())
                .and_then(|q| {
                    if seams.is_empty() {
                        Ok(q)
                    } else {
                        q.with_seams(&seams)
                    }
                })
                .map(Shape::from)
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

/// How a body's shapes are written: one shape object (with the body's own per-shape
/// fields), or a `shapes` list.
pub(crate) enum Written {
    /// `shape`.
    One(Box<ShapeFile>),
    /// `shapes`.
    Several(Vec<Obj<ShapeEntryFile>>),
}

/// The shapes of `def` as written: one shape object if they make one (a single shape, or the
/// segments of one chain with the same fields), otherwise a `shapes` list, a run of segments
/// that makes one chain as one `chain` entry (see [`chains::entries`]).
pub(crate) fn write_shapes(def: &RigidBodyDef) -> Written {
    let all = all(def);
    let mut entries = chains::entries(&all);
    if entries.len() == 1 {
        return Written::One(Box::new(entries.remove(0).geometry));
    }
    Written::Several(
        entries
            .into_iter()
            .map(|e| Obj(write_entry(&all[e.start], e.geometry)))
            .collect(),
    )
}

/// One entry of the shape object `geometry` with the fields of `s`, defaults left out.
fn write_entry(s: &ShapeDef, geometry: ShapeFile) -> ShapeEntryFile {
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
        ..ShapeEntryFile::of_geometry(geometry)
    }
}
