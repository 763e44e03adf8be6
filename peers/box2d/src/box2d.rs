//! Box2D v3 worlds of impact's test scenes, through `boxdd`.
//!
//! Each impact body becomes a Box2D body of the same type, pose, shape (a circle, or a box of
//! the same half extents), density, friction, restitution and collision filter, created in
//! scene order; each joint of a [`JointedScene`] a revolute joint with the same local
//! anchors and reference angle, and Box2D's default joint softness (60 Hz, damping ratio 2,
//! warm-started: what impact's defaults copy). The world runs Box2D's defaults with sleeping
//! off, as its benchmark program does, on one worker (Box2D's own scheduler with one worker
//! runs every task on the calling thread). Box2D is f32: the scene's f64 values are rounded.

use crate::SUBSTEPS;
use boxdd::{
    BodyId, BodyType, Filter, Foundation, Position, RevoluteJointDef, ShapeDef, SurfaceMaterial,
    Vec2, WorkerCount, shapes,
};
use impact_testkit::scenes::{JointedScene, Scene};
use impact2d::geometry::{Isometry, Real, ShapeKind};
use impact2d::solver::{BodyType as ImpactBodyType, JointKind, RigidBodyDef};

/// A Box2D world of an impact scene, and its bodies in scene order.
pub struct Box2d {
    world: boxdd::World,
    bodies: Vec<BodyId>,
    dynamic: Vec<bool>,
}

impl Box2d {
    /// The bodies of `scene` in a Box2D world of the scene's gravity, sleeping off, one
    /// worker.
    ///
    /// # Errors
    /// Any `boxdd` error (a value Box2D refuses). Panics on a shape Box2D's benchmark scenes
    /// do not hold: anything but a circle or a sharp box.
    pub fn from_scene(scene: &Scene) -> boxdd::Result<Self> {
        let foundation = Foundation::initialize_default()?;
        let gravity = scene.settings.gravity;
        let mut world = foundation.create_world(
            foundation
                .world_builder()
                .gravity(Vec2::new(gravity.x as f32, gravity.y as f32))
                .enable_sleep(false)
                .worker_count(WorkerCount::new(1)?)
                .build()?,
        )?;
        let mut bodies = Vec::with_capacity(scene.bodies.len());
        let mut dynamic = Vec::with_capacity(scene.bodies.len());
        for def in &scene.bodies {
            bodies.push(create_body(foundation, &mut world, def)?);
            dynamic.push(def.body_type == ImpactBodyType::Dynamic);
        }
        Ok(Self {
            world,
            bodies,
            dynamic,
        })
    }

    /// The bodies and revolute joints of `scene`, as [`Box2d::from_scene`].
    ///
    /// # Errors
    /// As [`Box2d::from_scene`]. Panics on a joint other than a revolute one (the only kind
    /// Box2D's joint grid holds).
    pub fn from_jointed(scene: &JointedScene) -> boxdd::Result<Self> {
        let mut b2 = Self::from_scene(&scene.scene)?;
        for j in &scene.joints {
            let JointKind::Revolute(r) = &j.kind else {
                panic!("only revolute joints are mapped to Box2D");
            };
            let [a, b] = j.local_anchors;
            // Box2D holds frame A (turned by the reference angle) on frame B: at rest B's angle
            // is A's plus the reference angle, impact's convention.
            let base = b2
                .world
                .joint_base(b2.bodies[j.bodies[0]], b2.bodies[j.bodies[1]])?
                .with_local_frame_components(
                    Vec2::new(a.x as f32, a.y as f32),
                    j.reference_angle as f32,
                    Vec2::new(b.x as f32, b.y as f32),
                    0.0,
                )?;
            let def = RevoluteJointDef::new(base)
                .enable_limit(r.enable_limit)
                .lower_angle(r.lower_angle as f32)
                .upper_angle(r.upper_angle as f32)
                .enable_motor(r.enable_motor)
                .motor_speed(r.motor_speed as f32)
                .max_motor_torque(r.max_motor_torque as f32)
                .enable_spring(r.enable_spring)
                .hertz(r.spring_hertz as f32)
                .damping_ratio(r.spring_damping_ratio as f32);
            b2.world.create_revolute_joint(&def)?;
        }
        Ok(b2)
    }

    /// One step of `dt` seconds in [`SUBSTEPS`] substeps.
    pub fn step(&mut self, dt: Real) {
        let done = self.world.step(dt as f32, SUBSTEPS).expect("valid step");
        assert!(done.post_step_error().is_none(), "Box2D step failed");
    }

    /// The positions of the dynamic bodies, in scene order.
    pub fn positions(&mut self) -> Vec<(Real, Real)> {
        let ids: Vec<BodyId> = self
            .bodies
            .iter()
            .zip(&self.dynamic)
            .filter(|(_, d)| **d)
            .map(|(id, _)| *id)
            .collect();
        ids.into_iter()
            .map(|id| {
                let p = self
                    .world
                    .body(id)
                    .and_then(|b| b.position())
                    .expect("live body");
                (Real::from(p.x), Real::from(p.y))
            })
            .collect()
    }

    /// The largest anchor separation of any joint of `scene` (built by
    /// [`Box2d::from_jointed`]), in world units.
    pub fn stretch(&mut self, scene: &JointedScene) -> Real {
        let mut worst: Real = 0.0;
        for j in &scene.joints {
            let [pa, pb] = [0, 1].map(|k| {
                let local = j.local_anchors[k];
                let p = self
                    .world
                    .body(self.bodies[j.bodies[k]])
                    .and_then(|b| b.world_point(Vec2::new(local.x as f32, local.y as f32)))
                    .expect("live body");
                (Real::from(p.x), Real::from(p.y))
            });
            worst = worst.max((pa.0 - pb.0).hypot(pa.1 - pb.1));
        }
        worst
    }
}

/// A Box2D body of `def`, and its one shape.
fn create_body(
    foundation: &Foundation,
    world: &mut boxdd::World,
    def: &RigidBodyDef,
) -> boxdd::Result<BodyId> {
    assert!(def.shapes.is_empty(), "bodies of one shape only");
    let t = def.pose.translation.vector;
    let body_type = match def.body_type {
        ImpactBodyType::Dynamic => BodyType::Dynamic,
        ImpactBodyType::Static => BodyType::Static,
        ImpactBodyType::Kinematic => BodyType::Kinematic,
    };
    let id = world.create_body(
        foundation
            .body_builder()
            .body_type(body_type)
            .position(Position::new(t.x as f32, t.y as f32))
            .angle(def.pose.rotation.angle() as f32)
            .enable_sleep(false)
            .build()?,
    )?;
    let shape_def = ShapeDef::builder()
        .density(def.density as f32)
        .material(
            SurfaceMaterial::new()
                .with_friction(def.friction as f32)?
                .with_restitution(def.restitution as f32)?,
        )
        .filter(Filter {
            category_bits: def.filter.category_bits,
            mask_bits: def.filter.mask_bits,
            group_index: def.filter.group_index,
        })
        .build()?;
    let mut body = world.body(id)?;
    match def.shape.kind() {
        ShapeKind::Circle => {
            let circle = shapes::circle(Vec2::new(0.0, 0.0), def.shape.radius() as f32)?;
            body.create_circle(&shape_def, &circle)?;
        }
        ShapeKind::Polygon => {
            assert_eq!(def.shape.radius(), 0.0, "sharp boxes only");
            let half = def.shape.aabb(&Isometry::identity()).half_extents();
            let polygon = shapes::box_polygon(half.x as f32, half.y as f32)?;
            body.create_polygon(&shape_def, &polygon)?;
        }
        kind => panic!("no Box2D shape for {kind:?}"),
    }
    Ok(id)
}
