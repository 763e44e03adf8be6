//! rapier2d-f64 worlds of impact's test scenes, as the root benches build them
//! (`benches/joint_grid.rs`, `benches/pyramid.rs`).
//!
//! rapier's defaults (`IntegrationParameters::default()`: 4 solver iterations as substeps,
//! single-threaded, impulse joints), with bodies that cannot sleep: the like-for-like run
//! against impact and Box2D with sleeping off. Each body
//! gets the same type, pose, velocity, damping and continuous collision (rapier's CCD where
//! the body's `ccd` is set: Box2D's scenes set it, as Box2D sweeps every dynamic body), and a collider per shape of the same
//! geometry (a ball, a segment, a capsule, a cuboid or convex polygon, rounded by the same
//! radius; a body's chain segments one oriented polyline, free on the same side), density,
//! friction and restitution. Materials combine as Box2D's do for the values these scenes
//! hold: friction by the minimum (Box2D's geometric mean, for equal values or a zero),
//! restitution by the maximum (Box2D's rule). Filters: the default, the joint grid's
//! (category 2, mask without 2) as collision groups that keep every pair apart, and a shape
//! that touches nothing (category 0 or mask 0); rapier has no negative groups, so the
//! ragdolls are not mapped.

use crate::DT;
use impact_testkit::scenes::{JointedScene, Scene, SceneJoint};
use impact2d::geometry::{Point, Real, Shape};
use impact2d::solver::{BodyType, JointKind, RigidBodyDef, ShapeDef as Def};
use rapier2d_f64::prelude as rp;

/// The damping factor of rapier's velocity motors: large enough that a motor holds its speed
/// as Box2D's rigid motor row does (a smaller factor makes rapier's motor a soft one).
pub const MOTOR_FACTOR: Real = 1e3;

/// A rapier2d world of an impact scene, and its bodies in scene order.
pub struct Rapier {
    /// The world; `world.step()` runs one step of [`DT`].
    pub world: rp::PhysicsWorld,
    bodies: Vec<rp::RigidBodyHandle>,
    dynamic: Vec<bool>,
}

fn v(p: &Point) -> rp::Vector {
    rp::Vector::new(p.x, p.y)
}

impl Rapier {
    /// The bodies of `scene`. Panics on a filter rapier cannot hold (see the module's note).
    pub fn from_scene(scene: &Scene) -> Self {
        let gravity = scene.settings.gravity;
        let mut world = rp::PhysicsWorld {
            gravity: rp::Vector::new(gravity.x, gravity.y),
            ..Default::default()
        };
        world.integration_parameters.dt = DT;
        let mut r = Self {
            world,
            bodies: Vec::with_capacity(scene.bodies.len()),
            dynamic: Vec::with_capacity(scene.bodies.len()),
        };
        for def in &scene.bodies {
            let h = r.add_body(def);
            r.bodies.push(h);
            r.dynamic.push(def.body_type == BodyType::Dynamic);
        }
        r
    }

    /// The bodies and revolute joints of `scene` (see [`Rapier::add_joint`]).
    pub fn from_jointed(scene: &JointedScene) -> Self {
        let mut r = Self::from_scene(&scene.scene);
        for j in &scene.joints {
            let ids = j.bodies.map(|i| r.bodies[i]);
            r.add_joint(j, ids);
        }
        r
    }

    /// Creates a body of `def` that cannot sleep (not one of the scene's:
    /// [`Rapier::positions`] does not see it).
    pub fn add_body(&mut self, def: &RigidBodyDef) -> rp::RigidBodyHandle {
        let t = def.pose.translation.vector;
        let body = match def.body_type {
            BodyType::Dynamic => rp::RigidBodyBuilder::dynamic()
                .can_sleep(false)
                .ccd_enabled(def.ccd),
            BodyType::Static => rp::RigidBodyBuilder::fixed(),
            BodyType::Kinematic => rp::RigidBodyBuilder::kinematic_position_based(),
        }
        .translation(rp::Vector::new(t.x, t.y))
        .rotation(def.pose.rotation.angle())
        .linvel(rp::Vector::new(def.linvel.x, def.linvel.y))
        .angvel(def.angvel)
        .linear_damping(def.linear_damping)
        .angular_damping(def.angular_damping);
        let handle = self.world.insert_body(body);
        let first = Def::new(def.shape.clone())
            .density(def.density)
            .friction(def.friction)
            .restitution(def.restitution)
            .filter(def.filter);
        let all: Vec<&Def> = std::iter::once(&first).chain(&def.shapes).collect();
        let chain: Vec<&Def> = all
            .iter()
            .copied()
            .filter(|s| matches!(s.shape, Shape::ChainSegment(_)))
            .collect();
        if !chain.is_empty() {
            let c = chain_collider(&chain);
            self.world.insert_collider(c, Some(handle));
        }
        for s in all
            .into_iter()
            .filter(|s| !matches!(s.shape, Shape::ChainSegment(_)))
        {
            let c = material(collider(&s.shape), s);
            self.world.insert_collider(c, Some(handle));
        }
        handle
    }

    /// Creates the revolute joint `j` between `bodies`: a hinge with the same anchors,
    /// limits and velocity motor (factor [`MOTOR_FACTOR`], the same maximum torque). Panics
    /// on a reference angle or a spring (rapier's one motor per axis cannot hold Box2D's
    /// spring and joint friction together).
    pub fn add_joint(
        &mut self,
        j: &SceneJoint,
        bodies: [rp::RigidBodyHandle; 2],
    ) -> rp::ImpulseJointHandle {
        let JointKind::Revolute(r) = &j.kind else {
            panic!("only revolute joints are mapped to rapier");
        };
        assert_eq!(j.reference_angle, 0.0, "hinges at reference angle 0 only");
        assert!(!r.enable_spring, "no springs");
        let [a, b] = j.local_anchors;
        let mut joint = rp::RevoluteJointBuilder::new()
            .local_anchor1(v(&a))
            .local_anchor2(v(&b));
        if r.enable_limit {
            joint = joint.limits([r.lower_angle, r.upper_angle]);
        }
        if r.enable_motor {
            joint = joint
                .motor_velocity(r.motor_speed, MOTOR_FACTOR)
                .motor_max_force(r.max_motor_torque);
        }
        self.world.insert_impulse_joint(bodies[0], bodies[1], joint)
    }

    /// How many bodies, colliders and joints the world holds, and its contact pairs.
    pub fn counts(&self) -> [usize; 4] {
        let w = &self.world;
        [
            w.bodies.len(),
            w.colliders.len(),
            w.impulse_joints.len(),
            w.narrow_phase.contact_pairs().count(),
        ]
    }

    /// The angle of the body of scene index `i` (radians).
    pub fn angle(&self, i: usize) -> Real {
        self.world.bodies[self.bodies[i]].rotation().angle()
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
            let q = body.position() * v(p);
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

/// The centre and half extents of `core` if it is an axis-aligned rectangle.
fn axis_box(core: &[Point]) -> Option<(Point, Real, Real)> {
    if core.len() != 4 {
        return None;
    }
    let xs = core.iter().map(|p| p.x);
    let ys = core.iter().map(|p| p.y);
    let (lo_x, hi_x) = (
        xs.clone().fold(Real::MAX, Real::min),
        xs.fold(Real::MIN, Real::max),
    );
    let (lo_y, hi_y) = (
        ys.clone().fold(Real::MAX, Real::min),
        ys.fold(Real::MIN, Real::max),
    );
    let on_corner = |p: &Point| (p.x == lo_x || p.x == hi_x) && (p.y == lo_y || p.y == hi_y);
    core.iter().all(on_corner).then(|| {
        (
            Point::new(0.5 * (lo_x + hi_x), 0.5 * (lo_y + hi_y)),
            0.5 * (hi_x - lo_x),
            0.5 * (hi_y - lo_y),
        )
    })
}

fn collider(shape: &Shape) -> rp::ColliderBuilder {
    match shape {
        Shape::Circle(c) => rp::ColliderBuilder::ball(c.radius()).translation(v(&c.center())),
        Shape::Segment(s) => rp::ColliderBuilder::segment(v(&s.a()), v(&s.b())),
        Shape::Capsule(c) => rp::ColliderBuilder::capsule_from_endpoints(
            v(&c.axis().a()),
            v(&c.axis().b()),
            c.radius(),
        ),
        Shape::Polygon(p) => {
            let r = p.radius();
            match axis_box(p.core()) {
                Some((c, hx, hy)) if r > 0.0 => {
                    rp::ColliderBuilder::round_cuboid(hx, hy, r).translation(v(&c))
                }
                Some((c, hx, hy)) => rp::ColliderBuilder::cuboid(hx, hy).translation(v(&c)),
                None if r > 0.0 => {
                    rp::ColliderBuilder::round_convex_polyline(p.core().iter().map(v).collect(), r)
                        .expect("a convex polygon")
                }
                None => rp::ColliderBuilder::convex_polyline(p.core().iter().map(v).collect())
                    .expect("a convex polygon"),
            }
        }
        Shape::ChainSegment(_) => unreachable!("chains are made whole"),
    }
}

/// One oriented polyline of a body's chain segments (a closed loop only, as Box2D's), with
/// the first segment's material: impact's and rapier's chains are free on the same side.
fn chain_collider(segments: &[&Def]) -> rp::ColliderBuilder {
    let points: Vec<rp::Vector> = segments
        .iter()
        .map(|s| match &s.shape {
            Shape::ChainSegment(c) => v(&c.a()),
            _ => unreachable!("chain segments only"),
        })
        .collect();
    let n = u32::try_from(points.len()).expect("a chain of few points");
    let indices = (0..n).map(|i| [i, (i + 1) % n]).collect();
    material(
        rp::ColliderBuilder::oriented_polyline(points, Some(indices)),
        segments[0],
    )
}

fn material(c: rp::ColliderBuilder, s: &Def) -> rp::ColliderBuilder {
    let c = c
        .density(s.density)
        .friction(s.friction)
        .restitution(s.restitution)
        .friction_combine_rule(rp::CoefficientCombineRule::Min)
        .restitution_combine_rule(rp::CoefficientCombineRule::Max);
    let f = s.filter;
    if f.category_bits == 1 && f.mask_bits == u64::MAX && f.group_index == 0 {
        c
    } else if f.category_bits == 0 || f.mask_bits == 0 {
        c.collision_groups(rp::InteractionGroups::none())
    } else {
        assert!(
            f.category_bits == 2 && f.mask_bits == !2 && f.group_index == 0,
            "the default filter, the joint grid's and none only"
        );
        c.collision_groups(rp::InteractionGroups::new(
            rp::Group::GROUP_2,
            !rp::Group::GROUP_2,
            rp::InteractionTestMode::And,
        ))
    }
}
