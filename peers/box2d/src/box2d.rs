//! Box2D v3 worlds of impact's test scenes, through `boxdd`.
//!
//! Each impact body becomes a Box2D body of the same type, pose, velocity, linear damping
//! and shapes, created in scene order; each shape a Box2D shape of the same geometry,
//! density, friction, restitution and collision filter: a circle, a segment, a capsule, a
//! polygon (Box2D's own box for an axis-aligned rectangle, as its scenes make them, the hull
//! of the core otherwise, rounded by the same radius), and a body's chain segments one Box2D
//! chain loop. Each joint of a [`JointedScene`] becomes a revolute joint
//! with the same local anchors, reference angle, limits, motor and spring, and Box2D's
//! default joint softness (60 Hz, damping ratio 2, warm-started: what impact's defaults
//! copy). The world runs Box2D's defaults on one worker (Box2D's own scheduler with one
//! worker runs every task on the calling thread), sleeping off unless [`Sleep`] says
//! otherwise (then with each body's `can_sleep` and sleep threshold). Box2D is f32: the scene's f64 values are rounded.

use crate::SUBSTEPS;
use boxdd::{
    BodyId, BodyType, ChainDef, Filter, Foundation, JointId, Position, RevoluteJointDef, ShapeDef,
    SurfaceMaterial, Transform, Vec2, WorkerCount, shapes,
};
use impact_testkit::scenes::{JointedScene, Scene, SceneJoint};
use impact2d::geometry::{Point, Real, Shape};
use impact2d::solver::{BodyType as ImpactBodyType, JointKind, RigidBodyDef, ShapeDef as Def};

/// Whether Box2D's bodies may sleep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sleep {
    /// No body sleeps (the like-for-like run against engines with sleeping off; the
    /// pyramids and the joint grid in Box2D's own program).
    Off,
    /// Box2D's default, as its program runs the tumbler, spinner and rain; the dynamic
    /// bodies of scene index `asleep_from` on are created asleep (smash's block), `usize::MAX`
    /// for none.
    On {
        /// The first scene index of the bodies created asleep.
        asleep_from: usize,
    },
}

/// A Box2D world of an impact scene, and its bodies in scene order.
pub struct Box2d {
    world: boxdd::World,
    bodies: Vec<BodyId>,
    dynamic: Vec<bool>,
    sleep: Sleep,
}

fn v(p: &Point) -> Vec2 {
    Vec2::new(p.x as f32, p.y as f32)
}

impl Box2d {
    /// An empty world of `gravity`, one worker.
    ///
    /// # Errors
    /// Any `boxdd` error.
    pub fn empty(gravity: (Real, Real), sleep: Sleep) -> boxdd::Result<Self> {
        let foundation = Foundation::initialize_default()?;
        let world = foundation.create_world(
            foundation
                .world_builder()
                .gravity(Vec2::new(gravity.0 as f32, gravity.1 as f32))
                .enable_sleep(sleep != Sleep::Off)
                .worker_count(WorkerCount::new(1)?)
                .build()?,
        )?;
        Ok(Self {
            world,
            bodies: Vec::new(),
            dynamic: Vec::new(),
            sleep,
        })
    }

    /// The bodies of `scene` in a Box2D world of the scene's gravity, sleeping off, one
    /// worker.
    ///
    /// # Errors
    /// Any `boxdd` error (a value Box2D refuses).
    pub fn from_scene(scene: &Scene) -> boxdd::Result<Self> {
        Self::from_scene_with(scene, Sleep::Off)
    }

    /// The bodies of `scene`, sleeping as `sleep` says.
    ///
    /// # Errors
    /// Any `boxdd` error.
    pub fn from_scene_with(scene: &Scene, sleep: Sleep) -> boxdd::Result<Self> {
        let g = scene.settings.gravity;
        let mut b2 = Self::empty((g.x, g.y), sleep)?;
        for def in &scene.bodies {
            let id = b2.add_body(def)?;
            b2.bodies.push(id);
            b2.dynamic.push(def.body_type == ImpactBodyType::Dynamic);
        }
        Ok(b2)
    }

    /// The bodies and revolute joints of `scene`, as [`Box2d::from_scene`].
    ///
    /// # Errors
    /// As [`Box2d::from_scene`]. Panics on a joint other than a revolute one.
    pub fn from_jointed(scene: &JointedScene) -> boxdd::Result<Self> {
        Self::from_jointed_with(scene, Sleep::Off)
    }

    /// The bodies and revolute joints of `scene`, sleeping as `sleep` says.
    ///
    /// # Errors
    /// As [`Box2d::from_scene`]. Panics on a joint other than a revolute one.
    pub fn from_jointed_with(scene: &JointedScene, sleep: Sleep) -> boxdd::Result<Self> {
        let mut b2 = Self::from_scene_with(&scene.scene, sleep)?;
        for j in &scene.joints {
            let ids = j.bodies.map(|i| b2.bodies[i]);
            b2.add_joint(j, ids)?;
        }
        Ok(b2)
    }

    /// Creates a body of `def` (not one of the scene's: [`Box2d::positions`] does not see
    /// it), created awake whatever [`Sleep`] says.
    ///
    /// # Errors
    /// Any `boxdd` error.
    pub fn add_body(&mut self, def: &RigidBodyDef) -> boxdd::Result<BodyId> {
        let index = self.bodies.len();
        let body_type = match def.body_type {
            ImpactBodyType::Dynamic => BodyType::Dynamic,
            ImpactBodyType::Static => BodyType::Static,
            ImpactBodyType::Kinematic => BodyType::Kinematic,
        };
        let t = def.pose.translation.vector;
        let asleep = matches!(self.sleep, Sleep::On { asleep_from } if index >= asleep_from);
        let foundation = Foundation::initialize_default()?;
        let id = self.world.create_body(
            foundation
                .body_builder()
                .body_type(body_type)
                .position(Position::new(t.x as f32, t.y as f32))
                .angle(def.pose.rotation.angle() as f32)
                .linear_velocity(Vec2::new(def.linvel.x as f32, def.linvel.y as f32))
                .angular_velocity(def.angvel as f32)
                .linear_damping(def.linear_damping as f32)
                .angular_damping(def.angular_damping as f32)
                .enable_sleep(self.sleep != Sleep::Off && def.can_sleep)
                .sleep_threshold(def.sleep_threshold as f32)
                .awake(!asleep)
                .build()?,
        )?;
        let first = Def::new(def.shape.clone())
            .density(def.density)
            .friction(def.friction)
            .restitution(def.restitution)
            .filter(def.filter);
        let all: Vec<&Def> = std::iter::once(&first).chain(&def.shapes).collect();
        let mut body = self.world.body(id)?;
        let chain: Vec<&Def> = all
            .iter()
            .copied()
            .filter(|s| matches!(s.shape, Shape::ChainSegment(_)))
            .collect();
        if !chain.is_empty() {
            create_chain(&mut body, &chain)?;
        }
        for s in all
            .into_iter()
            .filter(|s| !matches!(s.shape, Shape::ChainSegment(_)))
        {
            create_shape(&mut body, s)?;
        }
        Ok(id)
    }

    /// Creates the revolute joint `j` between `bodies`.
    ///
    /// # Errors
    /// Any `boxdd` error. Panics on a joint other than a revolute one.
    pub fn add_joint(&mut self, j: &SceneJoint, bodies: [BodyId; 2]) -> boxdd::Result<JointId> {
        let JointKind::Revolute(r) = &j.kind else {
            panic!("only revolute joints are mapped to Box2D");
        };
        let [a, b] = j.local_anchors;
        // Box2D holds frame A (turned by the reference angle) on frame B: at rest B's angle
        // is A's plus the reference angle, impact's convention.
        let base = self
            .world
            .joint_base(bodies[0], bodies[1])?
            .with_local_frame_components(v(&a), j.reference_angle as f32, v(&b), 0.0)?;
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
        self.world.create_revolute_joint(&def)
    }

    /// Destroys joint `id` (Box2D's `b2DestroyJoint`, waking its bodies as Box2D's
    /// `DestroyHuman` does).
    ///
    /// # Errors
    /// Any `boxdd` error.
    pub fn destroy_joint(&mut self, id: JointId) -> boxdd::Result<()> {
        self.world.joint(id)?.destroy(true)
    }

    /// Destroys body `id` and its shapes and joints.
    ///
    /// # Errors
    /// Any `boxdd` error.
    pub fn destroy_body(&mut self, id: BodyId) -> boxdd::Result<()> {
        self.world.body(id)?.destroy()
    }

    /// One step of `dt` seconds in [`SUBSTEPS`] substeps.
    pub fn step(&mut self, dt: Real) {
        let done = self.world.step(dt as f32, SUBSTEPS).expect("valid step");
        assert!(done.post_step_error().is_none(), "Box2D step failed");
    }

    /// How many bodies, shapes and joints the world holds, and its contacts (Box2D's
    /// counters).
    pub fn counts(&self) -> [usize; 4] {
        let c = self.world.counters().expect("counters");
        [c.body_count, c.shape_count, c.joint_count, c.contact_count]
            .map(|n| usize::try_from(n).expect("a count"))
    }

    /// The body of scene index `i`.
    pub fn body_id(&self, i: usize) -> BodyId {
        self.bodies[i]
    }

    /// The angle of body `id` (radians).
    pub fn angle(&mut self, id: BodyId) -> Real {
        let q = self
            .world
            .body(id)
            .and_then(|b| b.rotation())
            .expect("live body");
        Real::from(q.angle())
    }

    /// The position of body `id`.
    pub fn position(&mut self, id: BodyId) -> (Real, Real) {
        let p = self
            .world
            .body(id)
            .and_then(|b| b.position())
            .expect("live body");
        (Real::from(p.x), Real::from(p.y))
    }

    /// The positions of the scene's dynamic bodies, in scene order.
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
                let p = self
                    .world
                    .body(self.bodies[j.bodies[k]])
                    .and_then(|b| b.world_point(v(&j.local_anchors[k])))
                    .expect("live body");
                (Real::from(p.x), Real::from(p.y))
            });
            worst = worst.max((pa.0 - pb.0).hypot(pa.1 - pb.1));
        }
        worst
    }
}

fn shape_def(s: &Def) -> boxdd::Result<ShapeDef> {
    ShapeDef::builder()
        .density(s.density as f32)
        .material(
            SurfaceMaterial::new()
                .with_friction(s.friction as f32)?
                .with_restitution(s.restitution as f32)?,
        )
        .filter(filter(s))
        .build()
}

fn filter(s: &Def) -> Filter {
    Filter {
        category_bits: s.filter.category_bits,
        mask_bits: s.filter.mask_bits,
        group_index: s.filter.group_index,
    }
}

/// The centre and half extents of `core` if it is an axis-aligned rectangle.
fn axis_box(core: &[Point]) -> Option<(Point, Real, Real)> {
    if core.len() != 4 {
        return None;
    }
    let (lo_x, hi_x) = core
        .iter()
        .fold((Real::MAX, Real::MIN), |(l, h), p| (l.min(p.x), h.max(p.x)));
    let (lo_y, hi_y) = core
        .iter()
        .fold((Real::MAX, Real::MIN), |(l, h), p| (l.min(p.y), h.max(p.y)));
    let on_corner = |p: &Point| (p.x == lo_x || p.x == hi_x) && (p.y == lo_y || p.y == hi_y);
    core.iter().all(on_corner).then(|| {
        (
            Point::new(0.5 * (lo_x + hi_x), 0.5 * (lo_y + hi_y)),
            0.5 * (hi_x - lo_x),
            0.5 * (hi_y - lo_y),
        )
    })
}

fn create_shape(body: &mut boxdd::Body<'_>, s: &Def) -> boxdd::Result<()> {
    let def = shape_def(s)?;
    match &s.shape {
        Shape::Circle(c) => {
            body.create_circle(&def, &shapes::circle(v(&c.center()), c.radius() as f32)?)?;
        }
        Shape::Segment(seg) => {
            body.create_segment(&def, &shapes::segment(v(&seg.a()), v(&seg.b()))?)?;
        }
        Shape::Capsule(c) => {
            let axis = c.axis();
            let capsule = shapes::capsule(v(&axis.a()), v(&axis.b()), c.radius() as f32)?;
            body.create_capsule(&def, &capsule)?;
        }
        Shape::Polygon(p) => {
            let r = p.radius() as f32;
            let polygon = match axis_box(p.core()) {
                Some((c, hx, hy)) if c == Point::origin() => {
                    shapes::rounded_box_polygon(hx as f32, hy as f32, r)?
                }
                Some((c, hx, hy)) => shapes::offset_rounded_box_polygon(
                    hx as f32,
                    hy as f32,
                    r,
                    Transform::from_pos_angle(v(&c), 0.0)?,
                )?,
                None => shapes::polygon_from_points(p.core().iter().map(v), r)?,
            };
            body.create_polygon(&def, &polygon)?;
        }
        Shape::ChainSegment(_) => unreachable!("chains are made whole"),
    }
    Ok(())
}

/// One Box2D chain loop of a body's chain segments, in order, with the first segment's material and filter.
fn create_chain(body: &mut boxdd::Body<'_>, segments: &[&Def]) -> boxdd::Result<()> {
    let pieces: Vec<_> = segments
        .iter()
        .map(|s| match &s.shape {
            Shape::ChainSegment(c) => *c,
            _ => unreachable!("chain segments only"),
        })
        .collect();
    // An open Box2D chain's end segments are ghosts that never collide: only loops map
    // one to one (the spinner's ring).
    let closed = pieces.first().map(|c| c.a()) == pieces.last().map(|c| c.b());
    assert!(closed, "only closed chains are mapped to Box2D");
    let points: Vec<Vec2> = pieces.iter().map(|c| v(&c.a())).collect();
    let first = segments[0];
    let material = SurfaceMaterial::new()
        .with_friction(first.friction as f32)?
        .with_restitution(first.restitution as f32)?;
    let def = ChainDef::builder()
        .points(points)
        .is_loop(true)
        .single_material(&material)
        .filter(filter(first))
        .build()?;
    body.create_chain(&def)?;
    Ok(())
}
