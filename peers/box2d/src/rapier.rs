//! rapier2d-f64 worlds of impact's test scenes, as the root benches build them
//! (`benches/joint_grid.rs`, `benches/pyramid.rs`).
//!
//! rapier's defaults (`IntegrationParameters::default()`: 4 solver iterations as substeps,
//! single-threaded, impulse joints), with bodies that cannot sleep: impact has no sleeping,
//! and Box2D's benchmark turns it off. Each body gets a collider of the same shape (a ball,
//! or a cuboid of the same half extents), pose, density, friction and body type; the joint
//! grid's filter (category 2, mask without 2) becomes collision groups that keep every pair
//! apart.

use crate::DT;
use impact_testkit::scenes::{JointedScene, Scene};
use impact2d::geometry::{Isometry, Point, Real, ShapeKind};
use impact2d::solver::{BodyType, RigidBodyDef};
use rapier2d_f64::prelude as rp;

/// A rapier2d world of an impact scene, and its bodies in scene order.
pub struct Rapier {
    /// The world; `world.step()` runs one step of [`DT`].
    pub world: rp::PhysicsWorld,
    bodies: Vec<rp::RigidBodyHandle>,
    dynamic: Vec<bool>,
}

impl Rapier {
    /// The bodies of `scene`. Panics on a shape the benchmark scenes do not hold (anything
    /// but a circle or a sharp box) and on a filter other than the default or the joint
    /// grid's.
    pub fn from_scene(scene: &Scene) -> Self {
        let gravity = scene.settings.gravity;
        let mut world = rp::PhysicsWorld {
            gravity: rp::Vector::new(gravity.x, gravity.y),
            ..Default::default()
        };
        world.integration_parameters.dt = DT;
        let mut bodies = Vec::with_capacity(scene.bodies.len());
        let mut dynamic = Vec::with_capacity(scene.bodies.len());
        for def in &scene.bodies {
            bodies.push(insert(&mut world, def));
            dynamic.push(def.body_type == BodyType::Dynamic);
        }
        Self {
            world,
            bodies,
            dynamic,
        }
    }

    /// The bodies and revolute joints of `scene` (rapier's revolute joints are free hinges:
    /// the scene's must have no limit, motor or spring, and reference angle 0).
    pub fn from_jointed(scene: &JointedScene) -> Self {
        let mut r = Self::from_scene(&scene.scene);
        for j in &scene.joints {
            assert_eq!(j.reference_angle, 0.0, "free hinges at angle 0 only");
            let [a, b] = j.local_anchors;
            let joint = rp::RevoluteJointBuilder::new()
                .local_anchor1(rp::Vector::new(a.x, a.y))
                .local_anchor2(rp::Vector::new(b.x, b.y));
            r.world
                .insert_impulse_joint(r.bodies[j.bodies[0]], r.bodies[j.bodies[1]], joint);
        }
        r
    }

    /// The positions of the dynamic bodies, in scene order.
    pub fn positions(&self) -> Vec<(Real, Real)> {
        self.bodies
            .iter()
            .zip(&self.dynamic)
            .filter(|(_, d)| **d)
            .map(|(h, _)| {
                let t = self.world.bodies[*h].translation();
                (t.x, t.y)
            })
            .collect()
    }

    /// The largest anchor separation of any joint of `scene` (built by
    /// [`Rapier::from_jointed`]), in world units.
    pub fn stretch(&self, scene: &JointedScene) -> Real {
        let anchor = |i: usize, p: &Point| {
            let body = &self.world.bodies[self.bodies[i]];
            let q = body.position() * rp::Vector::new(p.x, p.y);
            (q.x, q.y)
        };
        scene
            .joints
            .iter()
            .map(|j| {
                let (ax, ay) = anchor(j.bodies[0], &j.local_anchors[0]);
                let (bx, by) = anchor(j.bodies[1], &j.local_anchors[1]);
                (ax - bx).hypot(ay - by)
            })
            .fold(0.0, Real::max)
    }
}

fn insert(world: &mut rp::PhysicsWorld, def: &RigidBodyDef) -> rp::RigidBodyHandle {
    assert!(def.shapes.is_empty(), "bodies of one shape only");
    let t = def.pose.translation.vector;
    let body = match def.body_type {
        BodyType::Dynamic => rp::RigidBodyBuilder::dynamic().can_sleep(false),
        BodyType::Static => rp::RigidBodyBuilder::fixed(),
        BodyType::Kinematic => rp::RigidBodyBuilder::kinematic_position_based(),
    }
    .translation(rp::Vector::new(t.x, t.y))
    .rotation(def.pose.rotation.angle());
    let collider = match def.shape.kind() {
        ShapeKind::Circle => rp::ColliderBuilder::ball(def.shape.radius()),
        ShapeKind::Polygon => {
            assert_eq!(def.shape.radius(), 0.0, "sharp boxes only");
            let half = def.shape.aabb(&Isometry::identity()).half_extents();
            rp::ColliderBuilder::cuboid(half.x, half.y)
        }
        kind => panic!("no rapier collider for {kind:?}"),
    }
    .density(def.density)
    .friction(def.friction)
    .restitution(def.restitution);
    let f = def.filter;
    let collider = if f.category_bits == 1 && f.mask_bits == u64::MAX && f.group_index == 0 {
        collider
    } else {
        assert!(
            f.category_bits == 2 && f.mask_bits == !2 && f.group_index == 0,
            "the default filter and the joint grid's only"
        );
        collider.collision_groups(rp::InteractionGroups::new(
            rp::Group::GROUP_2,
            !rp::Group::GROUP_2,
            rp::InteractionTestMode::And,
        ))
    };
    world.insert(body, collider).0
}
