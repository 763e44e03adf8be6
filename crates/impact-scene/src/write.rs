//! Writing a [`Scene`] as a scene file: defaults left out, every number written so that it
//! reads back bit for bit.

use crate::file::{
    BodyFile, FilterFile, ImpactFile, MassPropertiesFile, MaterialFile, Obj, PeriodicFile,
    PoseFile, SceneFile, ShapeFile, SolverFile, StepperFile, ToiOptionsFile, Xy,
};
use crate::scene::{FORMAT_VERSION, Scene, StepperChoice};
use crate::shapes;
use impact_geometry::{Isometry, Point, Real, Rotation, Shape, Vector};
use impact_narrowphase::ToiOptions;
use impact_solver::{BodyType, CollisionFilter, Material, RigidBodyDef, SolverSettings};
use impact_stepper::{Domain, FirstTimeOfImpactSettings, MotionClampingSettings, WorldSettings};

/// `Some(value)` unless it equals `default` bit for bit (so `-0.0` is written, and reads back
/// as `-0.0`).
pub(crate) fn unless<T: Bits>(value: T, default: T) -> Option<T> {
    (!value.same_bits(&default)).then_some(value)
}

/// Bitwise equality, so a value is only left out when leaving it out changes nothing.
pub(crate) trait Bits: Copy {
    fn same_bits(&self, other: &Self) -> bool;
}

impl Bits for Real {
    fn same_bits(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

impl Bits for bool {
    fn same_bits(&self, other: &Self) -> bool {
        self == other
    }
}

impl Bits for i32 {
    fn same_bits(&self, other: &Self) -> bool {
        self == other
    }
}

impl Bits for u32 {
    fn same_bits(&self, other: &Self) -> bool {
        self == other
    }
}

impl Bits for u64 {
    fn same_bits(&self, other: &Self) -> bool {
        self == other
    }
}

impl Bits for u128 {
    fn same_bits(&self, other: &Self) -> bool {
        self == other
    }
}

impl Bits for Xy {
    fn same_bits(&self, other: &Self) -> bool {
        self[0].same_bits(&other[0]) && self[1].same_bits(&other[1])
    }
}

fn xy_point(p: Point) -> Xy {
    [p.x, p.y]
}

fn xy_vector(v: Vector) -> Xy {
    [v.x, v.y]
}

/// The whole file.
pub(crate) fn scene_file(s: &Scene) -> SceneFile {
    let body_file = |(i, def)| {
        let mut file = body(def);
        file.on_first_hit = s.on_first_hit.get(&i).map(|r| r.name().to_owned());
        Obj(file)
    };
    let d = WorldSettings::default();
    SceneFile {
        version: Some(FORMAT_VERSION),
        name: (!s.name.is_empty()).then(|| s.name.clone()),
        domain: Some(
            if s.settings.domain.is_periodic() {
                "periodic"
            } else {
                "unbounded"
            }
            .to_owned(),
        ),
        periodic: match s.settings.domain {
            Domain::Periodic { min, max } => Some(Obj(PeriodicFile {
                min: Some([min.x, min.y]),
                max: Some([max.x, max.y]),
            })),
            _ => None,
        },
        gravity: Some(xy_vector(s.settings.gravity)),
        speculative_distance: unless(s.settings.speculative_distance, d.speculative_distance),
        sleeping: unless(s.settings.sleeping, d.sleeping),
        time_to_sleep: unless(s.settings.time_to_sleep, d.time_to_sleep),
        solver: solver(&s.settings.solver).map(Obj),
        stepper: Some(Obj(stepper(&s.stepper))),
        broadphase: Some(s.broadphase.name().to_owned()),
        dt: Some(s.dt),
        steps: Some(s.steps),
        duration: None,
        bodies: s.bodies.iter().enumerate().map(body_file).collect(),
        joints: s
            .joints
            .iter()
            .map(|j| Obj(crate::joints::write(j, &s.bodies)))
            .collect(),
    }
}

fn solver(s: &SolverSettings) -> Option<SolverFile> {
    let d = SolverSettings::default();
    let file = SolverFile {
        substeps: unless(s.substeps, d.substeps),
        velocity_iterations: unless(s.velocity_iterations, d.velocity_iterations),
        relax_iterations: unless(s.relax_iterations, d.relax_iterations),
        contact_hertz: unless(s.contact_hertz, d.contact_hertz),
        contact_damping_ratio: unless(s.contact_damping_ratio, d.contact_damping_ratio),
        max_push_out_velocity: unless(s.max_push_out_velocity, d.max_push_out_velocity),
        restitution_threshold: unless(s.restitution_threshold, d.restitution_threshold),
        restitution_iterations: unless(s.restitution_iterations, d.restitution_iterations),
        warm_starting: unless(s.warm_starting, d.warm_starting),
        joint_hertz: unless(s.joint_hertz, d.joint_hertz),
        joint_damping_ratio: unless(s.joint_damping_ratio, d.joint_damping_ratio),
    };
    (file != SolverFile::default()).then_some(file)
}

fn stepper(s: &StepperChoice) -> StepperFile {
    let mut file = StepperFile {
        kind: Some(s.kind().name().to_owned()),
        ..StepperFile::default()
    };
    match s {
        StepperChoice::Discrete => {}
        StepperChoice::Clamp(c) => {
            let d = MotionClampingSettings::default();
            file.threshold_radii_per_step =
                unless(c.threshold_radii_per_step, d.threshold_radii_per_step);
            file.toi_options = toi_options(&c.toi).map(Obj);
        }
        StepperChoice::Toi(t) => {
            let d = FirstTimeOfImpactSettings::default();
            file.threshold_radii_per_step =
                unless(t.threshold_radii_per_step, d.threshold_radii_per_step);
            file.toi_options = toi_options(&t.toi).map(Obj);
            let impact = ImpactFile {
                restitution_threshold: unless(
                    t.impact.restitution_threshold,
                    d.impact.restitution_threshold,
                ),
                friction: unless(t.impact.friction, d.impact.friction),
            };
            file.impact = (impact != ImpactFile::default()).then_some(Obj(impact));
            file.max_events = unless(t.max_events as u64, d.max_events as u64);
            file.max_pair_events = unless(t.max_pair_events, d.max_pair_events);
            file.min_advance = unless(t.min_advance, d.min_advance);
            file.reach_skin = unless(t.reach_skin, d.reach_skin);
        }
    }
    file
}

/// Time-of-impact options, or `None` if they are the defaults.
pub(crate) fn toi_options(o: &ToiOptions) -> Option<ToiOptionsFile> {
    let d = ToiOptions::default();
    let file = ToiOptionsFile {
        max_fraction: unless(o.max_fraction(), d.max_fraction()),
        target_separation: unless(o.target_separation(), d.target_separation()),
        tolerance: unless(o.tolerance(), d.tolerance()),
        max_iterations: unless(o.max_iterations(), d.max_iterations()),
    };
    (file != ToiOptionsFile::default()).then_some(file)
}

fn body(def: &RigidBodyDef) -> BodyFile {
    let file = one_shape(def);
    match shapes::write_shapes(def) {
        shapes::Written::One(geometry) => BodyFile {
            shape: Some(Obj(*geometry)),
            ..file
        },
        // Each shape's own fields are in its entry.
        shapes::Written::Several(entries) => BodyFile {
            shape: None,
            shapes: Some(entries),
            density: None,
            material: None,
            filter: None,
            sensor: None,
            contact_force_threshold: None,
            ..file
        },
    }
}

/// A body as a single-shape body is written: its first shape's fields at the body's level.
fn one_shape(def: &RigidBodyDef) -> BodyFile {
    let material = Material::default();
    let restitution = unless(def.restitution, material.restitution());
    let friction = unless(def.friction, material.friction());
    BodyFile {
        kind: match def.body_type {
            BodyType::Dynamic => None,
            BodyType::Static => Some("static".to_owned()),
            BodyType::Kinematic => Some("kinematic".to_owned()),
        },
        shape: Some(Obj(shape(&def.shape))),
        shapes: None,
        pose: pose(&def.pose).map(Obj),
        linvel: unless(xy_vector(def.linvel), [0.0; 2]),
        angvel: unless(def.angvel, 0.0),
        density: unless(def.density, 1.0),
        mass: None,
        mass_properties: def.mass_properties.map(|p| {
            Obj(MassPropertiesFile {
                mass: Some(p.mass),
                inertia: Some(p.inertia),
                center: unless(
                    xy_point(p.local_center),
                    xy_point(shapes::default_center(def)),
                ),
            })
        }),
        material: (restitution.is_some() || friction.is_some()).then_some(Obj(MaterialFile {
            restitution,
            friction,
        })),
        linear_damping: unless(def.linear_damping, 0.0),
        angular_damping: unless(def.angular_damping, 0.0),
        ccd: unless(def.ccd, false),
        user_data: unless(def.user_data, 0),
        filter: filter(&def.filter).map(Obj),
        sensor: unless(def.sensor, false),
        contact_force_threshold: def.contact_force_threshold,
        can_sleep: unless(def.can_sleep, true),
        sleep_threshold: unless(
            def.sleep_threshold,
            impact_geometry::tolerances::SLEEP_THRESHOLD,
        ),
        on_first_hit: None,
    }
}

/// A collision filter, or `None` for the default; each field left out where it is the
/// default's.
pub(crate) fn filter(f: &CollisionFilter) -> Option<FilterFile> {
    let d = CollisionFilter::DEFAULT;
    let file = FilterFile {
        category_bits: unless(f.category_bits, d.category_bits),
        mask_bits: unless(f.mask_bits, d.mask_bits),
        group_index: unless(f.group_index, d.group_index),
    };
    (file != FilterFile::default()).then_some(file)
}

/// One shape (a rectangle is written as the polygon it is, a polygon with a radius as a
/// rounded polygon, a chain segment as a chain segment with its ghosts).
pub(crate) fn shape(shape: &Shape) -> ShapeFile {
    let mut file = ShapeFile {
        kind: Some(crate::read::shape_name(shape).to_owned()),
        ..ShapeFile::default()
    };
    match shape {
        Shape::Circle(c) => {
            file.radius = Some(c.radius());
            file.center = unless(xy_point(c.center()), [0.0; 2]);
        }
        Shape::Segment(s) => {
            file.a = Some(xy_point(s.a()));
            file.b = Some(xy_point(s.b()));
        }
        // On its own: a body's segments that make a chain are written as the chain
        // (`chains::entries`).
        Shape::ChainSegment(s) => {
            file.a = Some(xy_point(s.a()));
            file.b = Some(xy_point(s.b()));
            file.ghost_before = Some(xy_point(s.ghost_before()));
            file.ghost_after = Some(xy_point(s.ghost_after()));
        }
        Shape::Capsule(c) => {
            file.a = Some(xy_point(c.axis().a()));
            file.b = Some(xy_point(c.axis().b()));
            file.radius = Some(c.radius());
        }
        Shape::Polygon(p) => {
            file.vertices = Some(p.vertices().iter().copied().map(xy_point).collect());
            // A rounded polygon (`shape_name`'s "rounded_polygon") with its radius.
            file.radius = (p.radius() > 0.0).then_some(p.radius());
            // A piece of a concave outline keeps its seams (what a sliding body must not meet).
            file.seams = p.has_seams().then(|| p.seams().to_vec());
        }
    }
    file
}

/// A pose, or `None` for the identity.
pub(crate) fn pose(pose: &Isometry) -> Option<PoseFile> {
    let identity = Rotation::identity();
    let same_rotation = |r: &Rotation| {
        r.re.to_bits() == pose.rotation.re.to_bits() && r.im.to_bits() == pose.rotation.im.to_bits()
    };
    let (angle, rotation) = if same_rotation(&identity) {
        (None, None)
    } else {
        match angle_of(&pose.rotation) {
            Some(a) => (Some(a), None),
            None => (None, Some([pose.rotation.re, pose.rotation.im])),
        }
    };
    let file = PoseFile {
        x: unless(pose.translation.x, 0.0),
        y: unless(pose.translation.y, 0.0),
        angle,
        rotation,
    };
    (file.x.is_some() || file.y.is_some() || file.angle.is_some() || file.rotation.is_some())
        .then_some(file)
}

/// An angle whose rotation is `rotation` bit for bit, if one is near `rotation.angle()`.
///
/// A scene file gives angles, and the reader builds `Rotation::new(angle)`; but `atan2` of a
/// rotation's `(cos, sin)` can land an ulp or two away from an angle that rebuilds those
/// exact bits, and a rotation composed by a stepper may not be `Rotation::new` of any angle.
/// The nearest few angles are tried; when none fits, the writer gives the rotation itself.
fn angle_of(rotation: &Rotation) -> Option<Real> {
    let fits = |a: Real| {
        let r = Rotation::new(a);
        r.re.to_bits() == rotation.re.to_bits() && r.im.to_bits() == rotation.im.to_bits()
    };
    let start = rotation.angle();
    let (mut up, mut down) = (start, start);
    if fits(start) {
        return Some(start);
    }
    for _ in 0..4 {
        up = up.next_up();
        down = down.next_down();
        if fits(up) {
            return Some(up);
        }
        if fits(down) {
            return Some(down);
        }
    }
    None
}
