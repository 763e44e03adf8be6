//! The scene file as serde sees it: every field optional, unknown fields refused.
//!
//! These types only carry the text's structure; [`crate::read`] resolves them into a
//! [`Scene`](crate::Scene) and checks every rule with the path of the field. Names that
//! select a variant (`type`, `domain`, `broadphase`) are plain strings here, so a bad one
//! gets the same kind of message as any other bad value ("must be one of ..."), and a shape's
//! fields are all in one struct, so the path of a bad value inside a shape is known to the
//! parser (an internally tagged enum would buffer the shape and lose it).
//!
//! `docs/scene-format.md` documents every field; keep the two in step.

use core::fmt;
use core::marker::PhantomData;
use serde::de::{MapAccess, Visitor, value::MapAccessDeserializer};
use serde::{Deserialize, Deserializer, Serialize};

/// A JSON object holding a `T`, and nothing else.
///
/// serde's derived structs also accept a sequence of their field values (`"pose": [1, 2]`
/// would read as `x = 1, y = 2`), which hides mistakes in a hand-written file. This wrapper
/// accepts only a map, and hands it to `T` through the same `MapAccess`, so the path of a bad
/// value inside is still tracked.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub(crate) struct Obj<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjVisitor<T> {
            type Value = Obj<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Obj<T>, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(Obj)
            }
        }
        deserializer.deserialize_map(ObjVisitor(PhantomData))
    }
}

/// `[x, y]`: a point or a vector.
pub(crate) type Xy = [f64; 2];

/// The whole file.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct SceneFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub periodic: Option<Obj<PeriodicFile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gravity: Option<Xy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speculative_distance: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sleeping: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_to_sleep: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solver: Option<Obj<SolverFile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stepper: Option<Obj<StepperFile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub broadphase: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dt: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<f64>,
    pub bodies: Vec<Obj<BodyFile>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<Obj<JointFile>>,
}

/// `periodic`: the rectangle of a periodic domain.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct PeriodicFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Xy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Xy>,
}

/// `solver`: the contact solver's settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct SolverFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub substeps: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub velocity_iterations: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relax_iterations: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_hertz: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_damping_ratio: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_push_out_velocity: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restitution_threshold: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restitution_iterations: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warm_starting: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joint_hertz: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joint_damping_ratio: Option<f64>,
}

/// `stepper`: which stepper, and its settings.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct StepperFile {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// `velocity_threshold` is its former name, still read.
    #[serde(alias = "velocity_threshold", skip_serializing_if = "Option::is_none")]
    pub threshold_radii_per_step: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toi_options: Option<Obj<ToiOptionsFile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impact: Option<Obj<ImpactFile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_events: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_pair_events: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_advance: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reach_skin: Option<f64>,
}

/// `stepper.toi_options`, and a query's `options`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct ToiOptionsFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_fraction: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_separation: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_iterations: Option<u32>,
}

/// `stepper.impact`: the single-impact resolver's settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct ImpactFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restitution_threshold: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub friction: Option<bool>,
}

/// One entry of `bodies`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct BodyFile {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<Obj<ShapeFile>>,
    /// Instead of `shape` (and the body's per-shape fields): every shape of the body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shapes: Option<Vec<Obj<ShapeEntryFile>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pose: Option<Obj<PoseFile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linvel: Option<Xy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angvel: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub density: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mass: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mass_properties: Option<Obj<MassPropertiesFile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<Obj<MaterialFile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linear_damping: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angular_damping: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ccd: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_data: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<Obj<FilterFile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sensor: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_force_threshold: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub can_sleep: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sleep_threshold: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_first_hit: Option<String>,
}

/// `filter`: a body's collision filter. Integers only: serde refuses a negative or
/// fractional mask, with the path of the field.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct FilterFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category_bits: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mask_bits: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_index: Option<i32>,
}

/// A shape: `type` selects which of the other fields apply.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct ShapeFile {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub center: Option<Xy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<Xy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<Xy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertices: Option<Vec<Xy>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half_width: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half_height: Option<f64>,
    /// A chain's or an outline's points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<Xy>>,
    /// Whether a chain joins its last point back to its first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed: Option<bool>,
    /// A chain segment's vertex before `a`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ghost_before: Option<Xy>,
    /// A chain segment's vertex after `b`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ghost_after: Option<Xy>,
    /// A polygon's seams (the internal edges of a concave outline's piece), as
    /// `{"edge": k, "after_start": [x, y], "before_end": [x, y]}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seams: Option<Vec<impact_geometry::Seam>>,
}

impl ShapeFile {
    /// The fields given, by name, in the order of the struct (for "not a field of" errors).
    pub(crate) fn given(&self) -> [(&'static str, bool); 12] {
        [
            ("radius", self.radius.is_some()),
            ("center", self.center.is_some()),
            ("a", self.a.is_some()),
            ("b", self.b.is_some()),
            ("vertices", self.vertices.is_some()),
            ("half_width", self.half_width.is_some()),
            ("half_height", self.half_height.is_some()),
            ("points", self.points.is_some()),
            ("closed", self.closed.is_some()),
            ("ghost_before", self.ghost_before.is_some()),
            ("ghost_after", self.ghost_after.is_some()),
            ("seams", self.seams.is_some()),
        ]
    }
}

/// One entry of a body's `shapes`: a shape's own fields (`type` and those it selects, as in
/// [`ShapeFile`]), where it sits in the body frame (`offset`), and what a single-shape body
/// gives at its own level (`density`, `material`, `filter`, `sensor`,
/// `contact_force_threshold`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct ShapeEntryFile {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub center: Option<Xy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<Xy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<Xy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertices: Option<Vec<Xy>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half_width: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half_height: Option<f64>,
    /// A chain's or an outline's points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<Xy>>,
    /// Whether a chain joins its last point back to its first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed: Option<bool>,
    /// A chain segment's vertex before `a`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ghost_before: Option<Xy>,
    /// A chain segment's vertex after `b`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ghost_after: Option<Xy>,
    /// A polygon's seams (the internal edges of a concave outline's piece), as
    /// `{"edge": k, "after_start": [x, y], "before_end": [x, y]}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seams: Option<Vec<impact_geometry::Seam>>,
    /// `[x, y, angle]`: the shape's points are turned by `angle` about the body origin,
    /// then moved by `(x, y)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<[f64; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub density: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<Obj<MaterialFile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<Obj<FilterFile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sensor: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_force_threshold: Option<f64>,
}

impl ShapeEntryFile {
    /// The shape's own fields, as a shape object.
    pub(crate) fn geometry(&self) -> ShapeFile {
        ShapeFile {
            kind: self.kind.clone(),
            radius: self.radius,
            center: self.center,
            a: self.a,
            b: self.b,
            vertices: self.vertices.clone(),
            half_width: self.half_width,
            half_height: self.half_height,
            points: self.points.clone(),
            closed: self.closed,
            ghost_before: self.ghost_before,
            ghost_after: self.ghost_after,
            seams: self.seams.clone(),
        }
    }

    /// An entry of the shape `g`, every other field left out.
    pub(crate) fn of_geometry(g: ShapeFile) -> Self {
        Self {
            kind: g.kind,
            radius: g.radius,
            center: g.center,
            a: g.a,
            b: g.b,
            vertices: g.vertices,
            half_width: g.half_width,
            half_height: g.half_height,
            points: g.points,
            closed: g.closed,
            ghost_before: g.ghost_before,
            ghost_after: g.ghost_after,
            seams: g.seams,
            ..Self::default()
        }
    }
}

/// A pose: position, and the angle (or, for exactness, the rotation as `[cos, sin]`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct PoseFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angle: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation: Option<Xy>,
}

/// `mass_properties`: mass, inertia and centre of mass set by hand.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct MassPropertiesFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mass: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inertia: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub center: Option<Xy>,
}

/// `material`: restitution and friction.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct MaterialFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restitution: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub friction: Option<f64>,
}

/// One entry of `joints`: `type` selects which of the kind's fields apply (as a shape's
/// `type` does), the others are every joint's. A kind's fields have the names of its Rust
/// struct's (`impact_solver::RevoluteJoint` and the others), with `axis` for a prismatic or
/// wheel joint's axis in the world frame beside `local_axis_a` in body A's.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct JointFile {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bodies: Option<[usize; 2]>,
    /// One point of the world where both anchors are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Xy>,
    /// Each body's anchor, in the world.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchors: Option<[Xy; 2]>,
    /// Each body's anchor, in its own frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub local_anchors: Option<[Xy; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_angle: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collide_connected: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub break_force: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub break_torque: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// A prismatic or wheel joint's axis in the world frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub axis: Option<Xy>,
    /// The same in body A's frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub local_axis_a: Option<Xy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable_limit: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_angle: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upper_angle: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_translation: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upper_translation: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable_motor: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motor_speed: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_motor_torque: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_motor_force: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable_spring: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spring_hertz: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spring_damping_ratio: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linear_hertz: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linear_damping_ratio: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angular_hertz: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angular_damping_ratio: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linear_offset: Option<Xy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angular_offset: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_force: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_torque: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correction_factor: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Xy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hertz: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damping_ratio: Option<f64>,
}

impl JointFile {
    /// The kind-specific fields given, by name, in the order of the struct (for "not a
    /// field of" errors).
    pub(crate) fn given(&self) -> [(&'static str, bool); 29] {
        [
            ("axis", self.axis.is_some()),
            ("local_axis_a", self.local_axis_a.is_some()),
            ("enable_limit", self.enable_limit.is_some()),
            ("lower_angle", self.lower_angle.is_some()),
            ("upper_angle", self.upper_angle.is_some()),
            ("lower_translation", self.lower_translation.is_some()),
            ("upper_translation", self.upper_translation.is_some()),
            ("length", self.length.is_some()),
            ("min_length", self.min_length.is_some()),
            ("max_length", self.max_length.is_some()),
            ("enable_motor", self.enable_motor.is_some()),
            ("motor_speed", self.motor_speed.is_some()),
            ("max_motor_torque", self.max_motor_torque.is_some()),
            ("max_motor_force", self.max_motor_force.is_some()),
            ("enable_spring", self.enable_spring.is_some()),
            ("spring_hertz", self.spring_hertz.is_some()),
            ("spring_damping_ratio", self.spring_damping_ratio.is_some()),
            ("linear_hertz", self.linear_hertz.is_some()),
            ("linear_damping_ratio", self.linear_damping_ratio.is_some()),
            ("angular_hertz", self.angular_hertz.is_some()),
            (
                "angular_damping_ratio",
                self.angular_damping_ratio.is_some(),
            ),
            ("linear_offset", self.linear_offset.is_some()),
            ("angular_offset", self.angular_offset.is_some()),
            ("max_force", self.max_force.is_some()),
            ("max_torque", self.max_torque.is_some()),
            ("correction_factor", self.correction_factor.is_some()),
            ("target", self.target.is_some()),
            ("hertz", self.hertz.is_some()),
            ("damping_ratio", self.damping_ratio.is_some()),
        ]
    }
}
