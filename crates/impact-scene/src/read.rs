//! Reading a scene file: the parser (with paths), then the file's structure resolved into a
//! [`Scene`], each part checked as soon as it is resolved so the first error in the file's
//! order is the one reported.

use crate::chains;
use crate::error::{SceneError, finite, non_negative, not_one_of, positive, remap, required};
use crate::file::{
    BodyFile, FilterFile, ImpactFile, Obj, PeriodicFile, PoseFile, SceneFile, ShapeFile,
    SolverFile, StepperFile, ToiOptionsFile, Xy,
};
use crate::scene::{
    BroadphaseChoice, DEFAULT_DT, DEFAULT_STEPS, FORMAT_VERSION, MAX_POLYGON_VERTICES, MAX_STEPS,
    OnFirstHit, Scene, StepperChoice, StepperKind,
};
use crate::shapes::{self, Layout};
use crate::validate;
use impact_geometry::nalgebra::Complex;
use impact_geometry::{
    Capsule, ChainSegment, Circle, ConvexPolygon, Isometry, MassProperties, Point, Real, Rotation,
    Segment, Shape, Vector,
};
use impact_narrowphase::ToiOptions;
use impact_solver::{BodyType, CollisionFilter, RigidBodyDef, ShapeDef, SolverSettings};
use impact_stepper::{Domain, FirstTimeOfImpactSettings, MotionClampingSettings, WorldSettings};
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;

/// The shape types of the file, in the order of the documentation.
pub(crate) const SHAPE_TYPES: [&str; 9] = [
    "circle",
    "segment",
    "capsule",
    "polygon",
    "rounded_polygon",
    "rectangle",
    "chain",
    "chain_segment",
    "outline",
];
/// The body types of the file.
pub(crate) const BODY_TYPES: [&str; 3] = ["dynamic", "static", "kinematic"];

/// Parses JSON into `T`, with the path of the value the parser was reading when it failed.
///
/// serde_json's own errors carry only a line and a column; serde_path_to_error wraps the
/// deserializer and records the path of map keys and sequence indices on the way down, which
/// is what turns "invalid type: string, expected f64 at line 40 column 21" into an error a
/// user can act on without counting lines. Trailing characters after the value are an error.
pub(crate) fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, SceneError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(SceneError::from_json)?;
    de.end().map_err(|e| SceneError::new("", e.to_string()))?;
    Ok(value)
}

/// Resolves and checks the whole file.
pub(crate) fn resolve(f: SceneFile) -> Result<Scene, SceneError> {
    if let Some(v) = f.version
        && v != FORMAT_VERSION
    {
        return Err(SceneError::new(
            "version",
            format!("must be {FORMAT_VERSION}, got {v}"),
        ));
    }
    let domain = domain(f.domain.as_deref(), f.periodic.as_ref().map(|Obj(p)| p))?;
    let mut settings = WorldSettings {
        domain,
        ..WorldSettings::default()
    };
    if let Some(g) = f.gravity {
        settings.gravity = vector(g);
    }
    if let Some(d) = f.speculative_distance {
        settings.speculative_distance = d;
    }
    if let Some(on) = f.sleeping {
        settings.sleeping = on;
    }
    if let Some(t) = f.time_to_sleep {
        settings.time_to_sleep = t;
    }
    if let Some(Obj(s)) = &f.solver {
        settings.solver = solver(s);
    }
    validate::world_settings(&settings)?;
    let stepper = match &f.stepper {
        Some(Obj(s)) => stepper(s)?,
        None => StepperChoice::default(),
    };
    let broadphase = match f.broadphase.as_deref() {
        None => BroadphaseChoice::default(),
        Some(name) => name
            .parse()
            .map_err(|_| not_one_of("broadphase", name, &BroadphaseChoice::NAMES))?,
    };
    let dt = validate::dt(&settings, f.dt.unwrap_or(DEFAULT_DT))?;
    let steps = match (f.steps, f.duration) {
        (Some(_), Some(_)) => {
            return Err(SceneError::new(
                "duration",
                "give steps or duration, not both",
            ));
        }
        (Some(n), None) => n,
        (None, Some(d)) => steps_for(d, dt)?,
        (None, None) => DEFAULT_STEPS,
    };
    validate::steps("steps", steps)?;
    let mut bodies = Vec::with_capacity(f.bodies.len());
    let mut on_first_hit = BTreeMap::new();
    for (i, Obj(b)) in f.bodies.iter().enumerate() {
        let path = format!("bodies[{i}]");
        let (def, layout) = body(b, &path)?;
        validate::body(&def, &path, &layout)?;
        if let Some(name) = b.on_first_hit.as_deref() {
            let field = format!("{path}.on_first_hit");
            let reaction: OnFirstHit = name
                .parse()
                .map_err(|_| not_one_of(&field, name, &OnFirstHit::NAMES))?;
            validate::on_first_hit(&def, &field)?;
            on_first_hit.insert(i, reaction);
        }
        bodies.push(def);
    }
    if settings.domain.is_periodic() && !f.joints.is_empty() {
        return Err(validate::periodic_joints(f.joints.len()));
    }
    let mut joints = Vec::with_capacity(f.joints.len());
    for (k, Obj(j)) in f.joints.iter().enumerate() {
        joints.push(crate::joints::read(j, &format!("joints[{k}]"), &bodies)?);
    }
    Ok(Scene {
        name: f.name.unwrap_or_default(),
        settings,
        bodies,
        joints,
        on_first_hit,
        stepper,
        broadphase,
        dt,
        steps,
    })
}

/// The domain names of the file, in the order of the documentation.
pub(crate) const DOMAINS: [&str; 2] = ["unbounded", "periodic"];

/// `domain` and `periodic`: the plane, or a periodic rectangle whose corners `periodic` gives
/// (and which only a periodic domain may have).
fn domain(name: Option<&str>, periodic: Option<&PeriodicFile>) -> Result<Domain, SceneError> {
    match (name.unwrap_or("unbounded"), periodic) {
        ("unbounded", None) => Ok(Domain::Unbounded),
        ("unbounded", Some(_)) => Err(SceneError::new(
            "periodic",
            "only a periodic domain has one: add \"domain\": \"periodic\" or remove it",
        )),
        ("periodic", None) => Err(required(
            "periodic",
            "a periodic domain needs its rectangle, {\"min\": [x, y], \"max\": [x, y]}",
        )),
        ("periodic", Some(p)) => {
            let corner = |field: &str, xy: Option<Xy>| -> Result<Point, SceneError> {
                let path = format!("periodic.{field}");
                let [x, y] =
                    xy.ok_or_else(|| required(&path, "a corner [x, y] of the rectangle"))?;
                finite(&format!("{path}[0]"), x)?;
                finite(&format!("{path}[1]"), y)?;
                Ok(Point::new(x, y))
            };
            let (min, max) = (corner("min", p.min)?, corner("max", p.max)?);
            for (axis, (lo, hi)) in [(min.x, max.x), (min.y, max.y)].into_iter().enumerate() {
                if !(hi - lo > 0.0 && (hi - lo).is_finite()) {
                    return Err(SceneError::new(
                        format!("periodic.max[{axis}]"),
                        format!(
                            "must be above periodic.min[{axis}] ({lo}) by a finite size, got {hi}"
                        ),
                    ));
                }
            }
            Domain::periodic(min, max).map_err(|e| remap(&e, "settings.domain", "periodic"))
        }
        (other, _) => Err(not_one_of("domain", other, &DOMAINS)),
    }
}

/// The number of steps of `dt` that cover `duration`: the smallest count whose total reaches
/// it, where a count within a billionth of a step of it reaches it (so 1 s at 1/60 s is 60
/// steps, not 61, whatever the rounding of `1.0 / 60.0`).
fn steps_for(duration: f64, dt: f64) -> Result<u64, SceneError> {
    non_negative("duration", duration)?;
    let n = (duration / dt - 1e-9).ceil().max(0.0);
    if n > MAX_STEPS as f64 {
        return Err(SceneError::new(
            "duration",
            format!("must be at most {MAX_STEPS} steps of dt, got {n:e} steps"),
        ));
    }
    Ok(n as u64)
}

fn vector(v: Xy) -> Vector {
    Vector::new(v[0], v[1])
}

fn point(v: Xy) -> Point {
    Point::new(v[0], v[1])
}

fn solver(s: &SolverFile) -> SolverSettings {
    let d = SolverSettings::default();
    SolverSettings {
        substeps: s.substeps.unwrap_or(d.substeps),
        velocity_iterations: s.velocity_iterations.unwrap_or(d.velocity_iterations),
        relax_iterations: s.relax_iterations.unwrap_or(d.relax_iterations),
        contact_hertz: s.contact_hertz.unwrap_or(d.contact_hertz),
        contact_damping_ratio: s.contact_damping_ratio.unwrap_or(d.contact_damping_ratio),
        max_push_out_velocity: s.max_push_out_velocity.unwrap_or(d.max_push_out_velocity),
        restitution_threshold: s.restitution_threshold.unwrap_or(d.restitution_threshold),
        restitution_iterations: s.restitution_iterations.unwrap_or(d.restitution_iterations),
        warm_starting: s.warm_starting.unwrap_or(d.warm_starting),
        joint_hertz: s.joint_hertz.unwrap_or(d.joint_hertz),
        joint_damping_ratio: s.joint_damping_ratio.unwrap_or(d.joint_damping_ratio),
    }
}

fn stepper(s: &StepperFile) -> Result<StepperChoice, SceneError> {
    let kind = match s.kind.as_deref() {
        None => StepperKind::Toi,
        Some(name) => name
            .parse()
            .map_err(|_| not_one_of("stepper.type", name, &StepperKind::NAMES))?,
    };
    let given = [
        (
            "threshold_radii_per_step",
            s.threshold_radii_per_step.is_some(),
        ),
        ("toi_options", s.toi_options.is_some()),
        ("impact", s.impact.is_some()),
        ("max_events", s.max_events.is_some()),
        ("max_pair_events", s.max_pair_events.is_some()),
        ("min_advance", s.min_advance.is_some()),
        ("reach_skin", s.reach_skin.is_some()),
    ];
    let allowed: &[&str] = match kind {
        StepperKind::Discrete => &[],
        StepperKind::Clamp => &["threshold_radii_per_step", "toi_options"],
        StepperKind::Toi => &given.map(|(name, _)| name),
    };
    if let Some((name, _)) = given.iter().find(|(n, g)| *g && !allowed.contains(n)) {
        let has = if allowed.is_empty() {
            "it has no settings".to_owned()
        } else {
            format!("its settings are {}", allowed.join(", "))
        };
        return Err(SceneError::new(
            format!("stepper.{name}"),
            format!(
                "is not a setting of the \"{}\" stepper ({has})",
                kind.name()
            ),
        ));
    }
    let toi = match &s.toi_options {
        Some(Obj(o)) => toi_options(o, "stepper.toi_options")?,
        None => ToiOptions::default(),
    };
    let choice = match kind {
        StepperKind::Discrete => StepperChoice::Discrete,
        StepperKind::Clamp => {
            let d = MotionClampingSettings::default();
            StepperChoice::Clamp(MotionClampingSettings {
                threshold_radii_per_step: s
                    .threshold_radii_per_step
                    .unwrap_or(d.threshold_radii_per_step),
                toi,
            })
        }
        StepperKind::Toi => {
            let d = FirstTimeOfImpactSettings::default();
            let mut impact = d.impact;
            if let Some(Obj(ImpactFile {
                restitution_threshold,
                friction,
            })) = &s.impact
            {
                impact.restitution_threshold =
                    restitution_threshold.unwrap_or(impact.restitution_threshold);
                impact.friction = friction.unwrap_or(impact.friction);
            }
            let max_events = match s.max_events {
                Some(n) => usize::try_from(n).map_err(|_| {
                    SceneError::new(
                        "stepper.max_events",
                        format!("must be at most {}, got {n}", usize::MAX),
                    )
                })?,
                None => d.max_events,
            };
            StepperChoice::Toi(FirstTimeOfImpactSettings {
                threshold_radii_per_step: s
                    .threshold_radii_per_step
                    .unwrap_or(d.threshold_radii_per_step),
                toi,
                impact,
                max_events,
                max_pair_events: s.max_pair_events.unwrap_or(d.max_pair_events),
                min_advance: s.min_advance.unwrap_or(d.min_advance),
                reach_skin: s.reach_skin.unwrap_or(d.reach_skin),
            })
        }
    };
    validate::stepper(&choice)?;
    Ok(choice)
}

/// Time-of-impact options at `path`, defaults for what is not given.
pub(crate) fn toi_options(o: &ToiOptionsFile, path: &str) -> Result<ToiOptions, SceneError> {
    let d = ToiOptions::default();
    ToiOptions::new(
        o.max_fraction.unwrap_or(d.max_fraction()),
        o.target_separation.unwrap_or(d.target_separation()),
        o.tolerance.unwrap_or(d.tolerance()),
        o.max_iterations.unwrap_or(d.max_iterations()),
    )
    .map_err(|e| remap(&e, "toi_options", path))
}

/// The body at `path`, and where each of its shapes is in the file.
fn body(b: &BodyFile, path: &str) -> Result<(RigidBodyDef, Layout), SceneError> {
    let field = |name: &str| format!("{path}.{name}");
    let body_type = match b.kind.as_deref() {
        None | Some("dynamic") => BodyType::Dynamic,
        Some("static") => BodyType::Static,
        Some("kinematic") => BodyType::Kinematic,
        Some(other) => return Err(not_one_of(&field("type"), other, &BODY_TYPES)),
    };
    let (mut def, layout) = body_shapes(b, path)?;
    let pose = match &b.pose {
        Some(Obj(p)) => pose(p, &field("pose"))?,
        None => Isometry::identity(),
    };
    def = def.body_type(body_type).pose(pose);
    if let Some(v) = b.linvel {
        def.linvel = vector(v);
    }
    if let Some(w) = b.angvel {
        def.angvel = w;
    }
    if b.mass.is_some() && b.mass_properties.is_some() {
        return Err(SceneError::new(
            field("mass"),
            "give mass or mass_properties, not both",
        ));
    }
    if b.mass.is_some() && b.density.is_some() {
        return Err(SceneError::new(
            field("mass"),
            "give density or mass, not both",
        ));
    }
    if let Some(d) = b.density {
        def.density = d;
    }
    if let Some(m) = b.mass {
        def.density = density_of_mass(&def, m, &layout, &field("mass"))?;
    }
    if let Some(Obj(mp)) = &b.mass_properties {
        let mp_field = |name: &str| format!("{path}.mass_properties.{name}");
        let mass = mp
            .mass
            .ok_or_else(|| required(&mp_field("mass"), "mass properties give the mass"))?;
        let inertia = mp.inertia.ok_or_else(|| {
            required(
                &mp_field("inertia"),
                "mass properties give the inertia about the centre of mass",
            )
        })?;
        let local_center = match mp.center {
            Some(c) => point(c),
            None => shapes::default_center(&def),
        };
        def.mass_properties = Some(MassProperties {
            mass,
            local_center,
            inertia,
        });
    }
    if let Some(Obj(m)) = &b.material {
        if let Some(r) = m.restitution {
            def.restitution = r;
        }
        if let Some(f) = m.friction {
            def.friction = f;
        }
    }
    if let Some(d) = b.linear_damping {
        def.linear_damping = d;
    }
    if let Some(d) = b.angular_damping {
        def.angular_damping = d;
    }
    if let Some(ccd) = b.ccd {
        def.ccd = ccd;
    }
    if let Some(u) = b.user_data {
        def.user_data = u;
    }
    if let Some(on) = b.can_sleep {
        def.can_sleep = on;
    }
    if let Some(t) = b.sleep_threshold {
        def.sleep_threshold = t;
    }
    shape_flags(b, &mut def);
    if let Layout::Shape(_) = layout {
        // One shape object that stands for several (a chain, an outline): the body's
        // per-shape fields are every one's.
        shapes::spread(&mut def);
    }
    Ok((def, layout))
}

/// The shapes of the body `b` at `path` (from its `shape` or its `shapes`) as a dynamic
/// body's definition with them and nothing else set, and where each shape is in the file.
fn body_shapes(b: &BodyFile, path: &str) -> Result<(RigidBodyDef, Layout), SceneError> {
    let (mut all, layout) = match shapes::read_shapes(b, path)? {
        Some(listed) => (listed.shapes, listed.layout),
        None => {
            let field = format!("{path}.shape");
            let Obj(shape_file) = b.shape.as_ref().ok_or_else(|| {
                required(&field, "every body has a shape (or a list of them, shapes)")
            })?;
            let (kind, _) = shape_kind(shape_file, &field)?;
            let all = shapes::geometry(shape_file, &field, None)?;
            (
                all.into_iter().map(ShapeDef::new).collect(),
                Layout::Shape(kind),
            )
        }
    };
    let first = all.remove(0);
    let mut def = RigidBodyDef::new(first.shape)
        .density(first.density)
        .friction(first.friction)
        .restitution(first.restitution)
        .filter(first.filter)
        .sensor(first.sensor);
    def.contact_force_threshold = first.contact_force_threshold;
    def.shapes = all;
    Ok((def, layout))
}

/// The density at which the shapes of `def` (where `layout` says) weigh `mass` (the body's
/// `mass`, at `path`): the mass over their whole area.
fn density_of_mass(
    def: &RigidBodyDef,
    mass: Real,
    layout: &Layout,
    path: &str,
) -> Result<Real, SceneError> {
    positive(path, mass)?;
    let area: Real = core::iter::once(&def.shape)
        .chain(def.shapes.iter().map(|s| &s.shape))
        .map(MassProperties::area)
        .sum();
    if area <= 0.0 {
        return Err(SceneError::new(
            path,
            format!(
                "{} has no area, so a mass cannot set its density: give mass_properties",
                a(layout.kind().unwrap_or_else(|| shape_name(&def.shape)))
            ),
        ));
    }
    let density = mass / area;
    if !density.is_finite() {
        return Err(SceneError::new(
            path,
            format!("gives a density of {density} (the shape's area is {area})"),
        ));
    }
    Ok(density)
}

/// What a body's shape is and collides with: `filter` (each field defaulting to
/// [`CollisionFilter::DEFAULT`]'s), `sensor` and `contact_force_threshold`.
fn shape_flags(b: &BodyFile, def: &mut RigidBodyDef) {
    if let Some(Obj(f)) = &b.filter {
        def.filter = filter(f);
    }
    if let Some(sensor) = b.sensor {
        def.sensor = sensor;
    }
    if let Some(t) = b.contact_force_threshold {
        def.contact_force_threshold = Some(t);
    }
}

/// A collision filter, each field defaulting to [`CollisionFilter::DEFAULT`]'s.
pub(crate) fn filter(f: &FilterFile) -> CollisionFilter {
    let d = CollisionFilter::DEFAULT;
    CollisionFilter::new(
        f.category_bits.unwrap_or(d.category_bits),
        f.mask_bits.unwrap_or(d.mask_bits),
    )
    .group(f.group_index.unwrap_or(d.group_index))
}

/// The centre of mass `mass_properties.center` defaults to: the shape's centroid.
pub(crate) fn default_center(shape: &Shape) -> Point {
    shape
        .mass_properties(1.0)
        .map(|p| p.local_center)
        .unwrap_or_else(|_| Point::origin())
}

/// The name of a shape's type in the file (a rectangle reads back as a polygon, a polygon
/// with a radius as a rounded polygon; a chain segment is one, though a body's consecutive
/// segments of one chain are written as the `chain` they make).
pub(crate) fn shape_name(shape: &Shape) -> &'static str {
    match shape {
        Shape::Circle(_) => "circle",
        Shape::Segment(_) => "segment",
        Shape::ChainSegment(_) => "chain_segment",
        Shape::Capsule(_) => "capsule",
        Shape::Polygon(p) if p.radius() > 0.0 => "rounded_polygon",
        Shape::Polygon(_) => "polygon",
    }
}

/// A shape type's name with its article: "a chain", "an outline".
pub(crate) fn a(kind: &str) -> String {
    let an = kind.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {kind}", if an { "an" } else { "a" })
}

/// The fields of each shape type, in the order of the documentation.
fn fields_of(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "circle" => &["radius", "center"],
        "segment" => &["a", "b"],
        "capsule" => &["a", "b", "radius"],
        "polygon" => &["vertices", "seams"],
        "rounded_polygon" => &["vertices", "radius", "seams"],
        "rectangle" => &["half_width", "half_height"],
        "chain" => &["points", "closed", "ghost_before", "ghost_after"],
        "chain_segment" => &["a", "b", "ghost_before", "ghost_after"],
        "outline" => &["points"],
        _ => return None,
    })
}

/// The type of the shape object at `path` (one of [`SHAPE_TYPES`]) and its fields, with no
/// field of another type given.
pub(crate) fn shape_kind(
    s: &ShapeFile,
    path: &str,
) -> Result<(&'static str, &'static [&'static str]), SceneError> {
    let field = |name: &str| format!("{path}.{name}");
    let Some(kind) = s.kind.as_deref() else {
        let types: Vec<String> = SHAPE_TYPES.iter().map(|t| format!("\"{t}\"")).collect();
        return Err(required(
            &field("type"),
            &format!("one of {}", types.join(", ")),
        ));
    };
    let (Some(fields), Some(kind)) = (fields_of(kind), SHAPE_TYPES.iter().find(|t| **t == kind))
    else {
        return Err(not_one_of(&field("type"), kind, &SHAPE_TYPES));
    };
    if let Some((name, _)) = s.given().iter().find(|(n, g)| *g && !fields.contains(n)) {
        return Err(SceneError::new(
            field(name),
            format!(
                "is not a field of {} (its fields are {})",
                a(kind),
                fields.join(", ")
            ),
        ));
    }
    Ok((kind, fields))
}

/// One shape at `path`, its fields checked against its type: every type but those that
/// stand for several shapes (`chain`, `outline`: [`shapes::geometry`] reads those, for a
/// body).
pub(crate) fn shape(s: &ShapeFile, path: &str) -> Result<Shape, SceneError> {
    let field = |name: &str| format!("{path}.{name}");
    let (kind, fields) = shape_kind(s, path)?;
    if let Some(one) = chains::one_of(kind) {
        return Err(SceneError::new(
            field("type"),
            format!(
                "{} is several shapes, which only a body holds: give one shape here ({one})",
                a(kind)
            ),
        ));
    }
    // The fields a shape of this kind needs (a polygon's seams are optional).
    let needed: Vec<&str> = fields.iter().copied().filter(|&f| f != "seams").collect();
    let needs = needed.join(", ");
    let need = |value: Option<Xy>, name: &str| {
        value
            .map(point)
            .ok_or_else(|| required(&field(name), &format!("a {kind} needs {needs}")))
    };
    let need_number = |value: Option<f64>, name: &str| {
        value.ok_or_else(|| required(&field(name), &format!("a {kind} needs {needs}")))
    };
    let shape: Shape = match kind {
        "circle" => {
            let r = positive(&field("radius"), need_number(s.radius, "radius")?)?;
            let c = s.center.map_or_else(Point::origin, point);
            Circle::with_center(c, r)
                .map_err(|e| remap(&e, "circle", path))?
                .into()
        }
        "segment" => {
            let (a, b) = (need(s.a, "a")?, need(s.b, "b")?);
            Segment::new(a, b)
                .map_err(|e| remap(&e, "segment", path))?
                .into()
        }
        "capsule" => {
            let (a, b) = (need(s.a, "a")?, need(s.b, "b")?);
            let r = positive(&field("radius"), need_number(s.radius, "radius")?)?;
            Capsule::new(a, b, r)
                .map_err(|e| remap(&e, "capsule", path))?
                .into()
        }
        "polygon" => seamed(polygon(s.vertices.as_deref(), kind, path)?, s, path)?.into(),
        "rounded_polygon" => {
            let sharp = seamed(polygon(s.vertices.as_deref(), kind, path)?, s, path)?;
            let r = positive(&field("radius"), need_number(s.radius, "radius")?)?;
            sharp
                .with_radius(r)
                .map_err(|e| remap(&e, "polygon.radius", &field("radius")))?
                .into()
        }
        "chain_segment" => {
            let (a, b) = (need(s.a, "a")?, need(s.b, "b")?);
            let before = need(s.ghost_before, "ghost_before")?;
            let after = need(s.ghost_after, "ghost_after")?;
            ChainSegment::new(before, a, b, after)
                .map_err(|e| chains::renamed(e, "chain_segment", path))?
                .into()
        }
        _ => {
            let hw = positive(
                &field("half_width"),
                need_number(s.half_width, "half_width")?,
            )?;
            let hh = positive(
                &field("half_height"),
                need_number(s.half_height, "half_height")?,
            )?;
            ConvexPolygon::rectangle(hw, hh)
                .map_err(|e| remap(&e, "rectangle", path))?
                .into()
        }
    };
    validate::shape(&shape, path)?;
    Ok(shape)
}

/// The (sharp) polygon of the `vertices` of the shape at `path`, a `kind` of polygon.
/// `polygon` with the seams `s` gives, if any (a piece of a concave outline, as written).
fn seamed(polygon: ConvexPolygon, s: &ShapeFile, path: &str) -> Result<ConvexPolygon, SceneError> {
    match &s.seams {
        Some(seams) => polygon
            .with_seams(seams)
            .map_err(|e| remap(&e, "polygon.seams", &format!("{path}.seams"))),
        None => Ok(polygon),
    }
}

fn polygon(vertices: Option<&[Xy]>, kind: &str, path: &str) -> Result<ConvexPolygon, SceneError> {
    let field = format!("{path}.vertices");
    let vertices = vertices.ok_or_else(|| {
        required(
            &field,
            &format!("a {kind} needs its vertices, counter-clockwise"),
        )
    })?;
    if vertices.len() > MAX_POLYGON_VERTICES {
        return Err(SceneError::new(
            field,
            format!(
                "must have at most {MAX_POLYGON_VERTICES} vertices, got {}",
                vertices.len()
            ),
        ));
    }
    let points: Vec<Point> = vertices.iter().copied().map(point).collect();
    ConvexPolygon::new(&points).map_err(|e| remap(&e, "polygon.vertices", &field))
}

/// A pose at `path`.
pub(crate) fn pose(p: &PoseFile, path: &str) -> Result<Isometry, SceneError> {
    let translation = Vector::new(p.x.unwrap_or(0.0), p.y.unwrap_or(0.0));
    let rotation = match (p.angle, p.rotation) {
        (Some(_), Some(_)) => {
            return Err(SceneError::new(
                format!("{path}.rotation"),
                "give angle or rotation, not both",
            ));
        }
        (Some(angle), None) => Rotation::new(finite(&format!("{path}.angle"), angle)?),
        // The exact form the writer falls back to when no angle rebuilds the rotation bit
        // for bit; checked to be a rotation, and kept as given (normalising would change it).
        (None, Some([re, im])) => Rotation::new_unchecked(Complex::new(re, im)),
        (None, None) => Rotation::identity(),
    };
    let pose = Isometry::from_parts(translation.into(), rotation);
    validate::pose(&pose, path, p.rotation.is_some())?;
    Ok(pose)
}
