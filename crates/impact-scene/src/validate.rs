//! The rules of the scene file, checked on resolved values and reported with the path the
//! value has in the file. The reader runs each check as soon as a part is resolved;
//! [`Scene::validate`](crate::Scene::validate) runs them all on a scene a program built.

use crate::error::{
    SceneError, at_least_one, finite, non_negative, positive, remap, unit_interval,
};
use crate::read;
use crate::scene::{MAX_POLYGON_VERTICES, MAX_STEPS, Scene, StepperChoice};
use crate::shapes::{self, Layout, ShapeAt};
use impact_geometry::validate::Shown;
use impact_geometry::{Isometry, MassProperties, Real, Shape};
use impact_solver::{BodyType, RigidBody, RigidBodyDef};
use impact_stepper::WorldSettings;

/// Every rule, in the order of the file.
pub(crate) fn scene(s: &Scene) -> Result<(), SceneError> {
    world_settings(&s.settings)?;
    stepper(&s.stepper)?;
    dt(&s.settings, s.dt)?;
    steps("steps", s.steps)?;
    for (i, def) in s.bodies.iter().enumerate() {
        let path = format!("bodies[{i}]");
        // The paths the body's shapes have in the file it is written as.
        let layout = shapes::layout_of(def);
        for s in shapes::shapes_of(def, &path, &layout) {
            shape(&s.def.shape, &s.geometry)?;
        }
        pose(&def.pose, &format!("{path}.pose"), false)?;
        body(def, &path, &layout)?;
    }
    for &i in s.on_first_hit.keys() {
        let path = format!("bodies[{i}].on_first_hit");
        let def = s.bodies.get(i).ok_or_else(|| {
            SceneError::new(
                &path,
                format!("there is no body {i} (the scene has {})", s.bodies.len()),
            )
        })?;
        on_first_hit(def, &path)?;
    }
    if s.settings.domain.is_periodic() && !s.joints.is_empty() {
        return Err(periodic_joints(s.joints.len()));
    }
    for (k, j) in s.joints.iter().enumerate() {
        crate::joints::validate(j, &s.bodies, &format!("joints[{k}]"))?;
    }
    Ok(())
}

/// The error for the `count` joints of a scene in a periodic domain, which refuses them: an
/// anchor's minimum image would change from step to step as the bodies wrap.
pub(crate) fn periodic_joints(count: usize) -> SceneError {
    SceneError::new(
        "joints",
        format!(
            "must be empty in a periodic domain (a joint's anchors have no one place there \
             as its bodies wrap), got {count} joints"
        ),
    )
}

/// A body's `on_first_hit` at `path`: only a dynamic body reacts. A static or kinematic body
/// that vanished would take away geometry other bodies are resting on or being checked
/// against (the pass-through audit), in the middle of a step.
pub(crate) fn on_first_hit(def: &RigidBodyDef, path: &str) -> Result<(), SceneError> {
    if def.body_type != BodyType::Dynamic {
        return Err(SceneError::new(
            path,
            "only a dynamic body can react to its first hit",
        ));
    }
    Ok(())
}

/// `gravity`, `speculative_distance`, `solver` and the domain (`periodic`).
pub(crate) fn world_settings(s: &WorldSettings) -> Result<(), SceneError> {
    s.domain
        .validate()
        .map_err(|e| remap(&e, "settings.domain", "periodic"))?;
    finite("gravity[0]", s.gravity.x)?;
    finite("gravity[1]", s.gravity.y)?;
    if !s.gravity.norm().is_finite() {
        return Err(SceneError::new(
            "gravity",
            format!(
                "must have a length finite in f64 (components below about 1.3e154), got [{}, {}]",
                Shown(s.gravity.x),
                Shown(s.gravity.y)
            ),
        ));
    }
    non_negative("speculative_distance", s.speculative_distance)?;
    non_negative("time_to_sleep", s.time_to_sleep)?;
    let solver = &s.solver;
    at_least_one("solver.substeps", solver.substeps.into())?;
    at_least_one(
        "solver.velocity_iterations",
        solver.velocity_iterations.into(),
    )?;
    at_least_one(
        "solver.restitution_iterations",
        solver.restitution_iterations.into(),
    )?;
    positive("solver.contact_hertz", solver.contact_hertz)?;
    non_negative("solver.contact_damping_ratio", solver.contact_damping_ratio)?;
    non_negative("solver.max_push_out_velocity", solver.max_push_out_velocity)?;
    non_negative("solver.restitution_threshold", solver.restitution_threshold)?;
    positive("solver.joint_hertz", solver.joint_hertz)?;
    non_negative("solver.joint_damping_ratio", solver.joint_damping_ratio)?;
    // The world's own check, for any rule it has that this file does not know yet.
    s.validate().map_err(|e| remap(&e, "settings", "solver"))
}

/// `dt` under `settings`: finite, positive, and short enough that a step can be taken
/// (gravity's reach over it finite: [`WorldSettings::validate_dt`]).
pub(crate) fn dt(settings: &WorldSettings, dt: Real) -> Result<Real, SceneError> {
    positive("dt", dt)?;
    settings
        .validate_dt(dt)
        .map_err(|e| remap(&e, "dt", "dt"))?;
    Ok(dt)
}

/// `steps` (or the count a `duration` resolved to).
pub(crate) fn steps(path: &str, steps: u64) -> Result<(), SceneError> {
    if steps > MAX_STEPS {
        return Err(SceneError::new(
            path,
            format!("must be at most {MAX_STEPS}, got {steps}"),
        ));
    }
    Ok(())
}

/// `stepper`'s settings.
pub(crate) fn stepper(s: &StepperChoice) -> Result<(), SceneError> {
    match s {
        StepperChoice::Discrete => Ok(()),
        StepperChoice::Clamp(c) => {
            non_negative(
                "stepper.threshold_radii_per_step",
                c.threshold_radii_per_step,
            )?;
            c.validate()
                .map_err(|e| remap(&e, "motion_clamping", "stepper"))
        }
        StepperChoice::Toi(t) => {
            non_negative(
                "stepper.threshold_radii_per_step",
                t.threshold_radii_per_step,
            )?;
            non_negative(
                "stepper.impact.restitution_threshold",
                t.impact.restitution_threshold,
            )?;
            at_least_one("stepper.max_events", t.max_events as u64)?;
            at_least_one("stepper.max_pair_events", t.max_pair_events.into())?;
            non_negative("stepper.min_advance", t.min_advance)?;
            non_negative("stepper.reach_skin", t.reach_skin)?;
            t.validate().map_err(|e| remap(&e, "first_toi", "stepper"))
        }
    }
}

/// The file's rules for shapes, stricter than the library's: a circle or capsule has a
/// positive radius (a zero radius is a point or a segment: say so with the right type), a
/// segment two distinct ends, a polygon (rounded or not) at most [`MAX_POLYGON_VERTICES`]
/// vertices, a chain segment's points each a finite distance from the next; a polygon with
/// a radius is a rounded polygon, whose radius is positive by that.
pub(crate) fn shape(shape: &Shape, path: &str) -> Result<(), SceneError> {
    match shape {
        Shape::Circle(c) => {
            positive(&format!("{path}.radius"), c.radius())?;
        }
        Shape::Capsule(c) => {
            positive(&format!("{path}.radius"), c.radius())?;
        }
        Shape::Segment(s) => {
            if s.a() == s.b() {
                return Err(SceneError::new(
                    format!("{path}.b"),
                    format!(
                        "must differ from a (a segment has two distinct ends), got [{}, {}]",
                        s.b().x,
                        s.b().y
                    ),
                ));
            }
        }
        // Its two ends, and each end and its ghost, differ by construction; they may still be
        // too far apart for their difference to be finite, which no query could use.
        Shape::ChainSegment(c) => {
            let steps = [
                ("ghost_before", "a", c.a() - c.ghost_before()),
                ("b", "a", c.direction()),
                ("ghost_after", "b", c.ghost_after() - c.b()),
            ];
            for (name, from, d) in steps {
                if !(d.x.is_finite() && d.y.is_finite()) {
                    return Err(SceneError::new(
                        format!("{path}.{name}"),
                        format!(
                            "is too far from {path}.{from}: their distance is more than an f64 holds"
                        ),
                    ));
                }
            }
        }
        Shape::Polygon(p) => {
            if p.vertices().len() > MAX_POLYGON_VERTICES {
                return Err(SceneError::new(
                    format!("{path}.vertices"),
                    format!(
                        "must have at most {MAX_POLYGON_VERTICES} vertices, got {}",
                        p.vertices().len()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A pose: finite, and a rotation of unit length. `exact` says the file gave the rotation
/// itself (`pose.rotation`) rather than an angle, which is where a bad one is named.
pub(crate) fn pose(pose: &Isometry, path: &str, exact: bool) -> Result<(), SceneError> {
    finite(&format!("{path}.x"), pose.translation.x)?;
    finite(&format!("{path}.y"), pose.translation.y)?;
    let (re, im) = (pose.rotation.re, pose.rotation.im);
    let rotation = format!("{path}.{}", if exact { "rotation" } else { "angle" });
    finite(&rotation, re)?;
    finite(&rotation, im)?;
    let norm2 = re * re + im * im;
    // As the solver's pose check: a rotation that is not unit length would scale the shape.
    if (norm2 - 1.0).abs() > 1e-9 {
        return Err(SceneError::new(
            rotation,
            format!("must be a unit vector [cos, sin], got squared norm {norm2}"),
        ));
    }
    Ok(())
}

/// A body's values (its shape and pose are checked where they are read), each shape's
/// named where `layout` puts it.
pub(crate) fn body(def: &RigidBodyDef, path: &str, layout: &Layout) -> Result<(), SceneError> {
    let field = |name: &str| format!("{path}.{name}");
    finite(&field("linvel[0]"), def.linvel.x)?;
    finite(&field("linvel[1]"), def.linvel.y)?;
    finite(&field("angvel"), def.angvel)?;
    if def.body_type == BodyType::Static {
        // A static body that reported a velocity would push contacts while staying put.
        if def.linvel.x != 0.0 || def.linvel.y != 0.0 {
            return Err(SceneError::new(
                field("linvel"),
                format!(
                    "must be [0, 0] for a static body (make it kinematic to move it), got [{}, {}]",
                    def.linvel.x, def.linvel.y
                ),
            ));
        }
        if def.angvel != 0.0 {
            return Err(SceneError::new(
                field("angvel"),
                format!(
                    "must be 0 for a static body (make it kinematic to move it), got {}",
                    Shown(def.angvel)
                ),
            ));
        }
    }
    let shapes = shapes::shapes_of(def, path, layout);
    for s in &shapes {
        let field = |name: &str| format!("{}.{name}", s.fields);
        non_negative(&field("density"), s.def.density)?;
        unit_interval(&field("material.restitution"), s.def.restitution)?;
        non_negative(&field("material.friction"), s.def.friction)?;
        if let Some(t) = s.def.contact_force_threshold {
            non_negative(&field("contact_force_threshold"), t)?;
        }
    }
    non_negative(&field("linear_damping"), def.linear_damping)?;
    non_negative(&field("sleep_threshold"), def.sleep_threshold)?;
    non_negative(&field("angular_damping"), def.angular_damping)?;
    match &def.mass_properties {
        Some(p) => {
            positive(&field("mass_properties.mass"), p.mass)?;
            positive(&field("mass_properties.inertia"), p.inertia)?;
            finite(&field("mass_properties.center[0]"), p.local_center.x)?;
            finite(&field("mass_properties.center[1]"), p.local_center.y)?;
        }
        None => mass(def, path, &shapes, layout)?,
    }
    let aabb = shapes
        .iter()
        .map(|s| s.def.shape.aabb(&def.pose))
        .reduce(|x, y| x.merged(&y))
        .expect("a body has a shape");
    if ![aabb.mins.x, aabb.mins.y, aabb.maxs.x, aabb.maxs.y]
        .iter()
        .all(|v| v.is_finite())
    {
        return Err(SceneError::new(
            field("pose"),
            "puts the shape so far out that its bounding box overflows",
        ));
    }
    // The body's own validation, for any rule it has that this file does not know yet.
    RigidBody::new(def.clone()).map_err(|e| remap(&e, "body", path))?;
    Ok(())
}

/// The mass `shapes` (the shapes of `def`, at `path`) give at their densities: finite, and
/// positive for a dynamic body.
fn mass(
    def: &RigidBodyDef,
    path: &str,
    shapes: &[ShapeAt],
    layout: &Layout,
) -> Result<(), SceneError> {
    let mut parts = Vec::with_capacity(shapes.len());
    for s in shapes {
        let density = format!("{}.density", s.fields);
        parts.push(
            s.def
                .shape
                .mass_properties(s.def.density)
                .map_err(|e| remap(&e, "density", &density))?,
        );
    }
    // One shape's own numbers, as the body takes them (a combination of one part can turn
    // an infinite mass's inertia into NaN).
    let props = match parts.as_slice() {
        [one] => *one,
        _ => MassProperties::combine(&parts),
    };
    // Only a dynamic body's mass is used; a huge static one is fine.
    if def.body_type != BodyType::Dynamic {
        return Ok(());
    }
    // The field to blame for a mass that is not finite or not positive: the first shape
    // whose density gives it too much or none, where its area would give some.
    let blame = |too_much: bool| {
        shapes
            .iter()
            .zip(&parts)
            .find(|(s, p)| {
                if too_much {
                    !(p.mass.is_finite() && p.inertia.is_finite())
                } else {
                    MassProperties::area(&s.def.shape) > 0.0
                }
            })
            .map_or_else(|| &shapes[0], |(s, _)| s)
    };
    if !(props.mass.is_finite() && props.inertia.is_finite()) {
        return Err(SceneError::new(
            format!("{}.density", blame(true).fields),
            format!(
                "gives a mass of {} and an inertia of {}: the body is too large or too dense",
                props.mass, props.inertia
            ),
        ));
    }
    if props.mass > 0.0 {
        return Ok(());
    }
    let with_area = shapes
        .iter()
        .any(|s| MassProperties::area(&s.def.shape) > 0.0);
    Err(if !with_area {
        let what = match layout.kind() {
            Some(kind) => format!("{} has no area", read::a(kind)),
            None => "none of its shapes has area".to_owned(),
        };
        SceneError::new(
            format!("{path}.type"),
            format!(
                "a dynamic body needs a mass, and {what}: make it static or kinematic, or give \
                 it mass_properties"
            ),
        )
    } else {
        let s = blame(false);
        SceneError::new(
            format!("{}.density", s.fields),
            format!(
                "must be positive for a dynamic body (or give mass_properties), got {}",
                Shown(s.def.density)
            ),
        )
    })
}
