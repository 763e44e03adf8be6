//! Helpers shared by the solver's integration tests: scene builders and the conserved
//! quantities every test measures the same way.

#![allow(dead_code)]

pub mod kkt;

use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Vector};
use impact_solver::{BodyHandle, BodySet, RigidBodyDef};

/// A dynamic disc of `radius` and `density` at `center` moving at `linvel`.
pub fn disc(radius: Real, density: Real, center: Point, linvel: Vector) -> RigidBodyDef {
    RigidBodyDef::new(Circle::new(radius).unwrap().into())
        .density(density)
        .pose(Isometry::translation(center.x, center.y))
        .linvel(linvel)
}

/// A dynamic box of half extents `hx`, `hy` at `center`, turned by `angle`.
pub fn boxed(hx: Real, hy: Real, center: Point, angle: Real) -> RigidBodyDef {
    RigidBodyDef::new(ConvexPolygon::rectangle(hx, hy).unwrap().into())
        .pose(Isometry::new(center.coords, angle))
}

/// Total linear momentum of the dynamic bodies.
pub fn linear_momentum(bodies: &BodySet) -> Vector {
    bodies
        .iter()
        .fold(Vector::zeros(), |acc, (_, b)| acc + b.linear_momentum())
}

/// Total angular momentum about the fixed world point `origin`.
pub fn angular_momentum(bodies: &BodySet, origin: &Point) -> Real {
    bodies
        .iter()
        .map(|(_, b)| b.angular_momentum_about(origin))
        .sum()
}

/// Total kinetic energy of the dynamic bodies.
pub fn kinetic_energy(bodies: &BodySet) -> Real {
    bodies.iter().map(|(_, b)| b.kinetic_energy()).sum()
}

/// A scale for round-off bounds: total momentum magnitude plus one.
pub fn momentum_scale(bodies: &BodySet) -> Real {
    1.0 + bodies
        .iter()
        .map(|(_, b)| {
            b.mass() * b.linvel().norm()
                + b.inertia() * b.angvel().abs()
                + b.mass() * b.linvel().norm() * b.center_of_mass().coords.norm()
        })
        .sum::<Real>()
}

/// Every bit of every body's pose and velocities, in slot order.
pub fn state_bits(bodies: &BodySet) -> Vec<u64> {
    let mut bits = Vec::new();
    for (h, b) in bodies.iter() {
        bits.push(u64::from(h.index) << 32 | u64::from(h.generation));
        let p = b.pose();
        for x in [
            p.translation.x,
            p.translation.y,
            p.rotation.re,
            p.rotation.im,
            b.linvel().x,
            b.linvel().y,
            b.angvel(),
        ] {
            bits.push(x.to_bits());
        }
    }
    bits
}

/// The handle's body, which the test knows exists.
pub fn body(bodies: &BodySet, h: BodyHandle) -> &impact_solver::RigidBody {
    bodies.get(h).expect("the test's body exists")
}

/// Bodies and joints stepped by the solver alone (no contacts): each step builds a
/// `ContactSolver`, prepares the joints, runs the whole step and stores the impulses back
/// for the next step's warm start.
pub struct JointScene {
    pub bodies: BodySet,
    pub joints: impact_solver::JointSet,
    pub cache: impact_solver::ContactCache,
    pub settings: impact_solver::SolverSettings,
    pub gravity: Vector,
    pub dt: Real,
}

impl JointScene {
    /// An empty scene under `gravity`, stepped at 60 Hz with the default settings.
    pub fn new(gravity: Vector) -> Self {
        Self {
            bodies: BodySet::new(),
            joints: impact_solver::JointSet::new(),
            cache: impact_solver::ContactCache::new(),
            settings: impact_solver::SolverSettings::default(),
            gravity,
            dt: 1.0 / 60.0,
        }
    }

    /// Inserts a body.
    pub fn add(&mut self, def: RigidBodyDef) -> BodyHandle {
        self.bodies.insert(def).expect("a valid test body")
    }

    /// Inserts a joint of `kind` between `a` and `b` meeting at `anchor` (world frame).
    pub fn join(
        &mut self,
        a: BodyHandle,
        b: BodyHandle,
        anchor: Point,
        kind: impact_solver::JointKind,
    ) -> impact_solver::JointHandle {
        let def = impact_solver::JointDef::at_world_anchor(&self.bodies, a, b, anchor, kind)
            .expect("a valid test joint");
        self.joints
            .insert(&self.bodies, def)
            .expect("a valid test joint")
    }

    /// One step of `dt`.
    pub fn step(&mut self) {
        let mut solver = impact_solver::ContactSolver::new(
            &self.bodies,
            &[],
            &self.cache,
            &self.settings,
            self.dt,
        )
        .expect("valid settings");
        solver
            .prepare_joints(&self.bodies, &self.joints)
            .expect("the joints' bodies exist");
        solver
            .step(&mut self.bodies, self.gravity)
            .expect("a valid step");
        solver.store_impulses(&mut self.cache);
        solver.store_joint_impulses(&mut self.joints);
    }

    /// The handle's body.
    pub fn body(&self, h: BodyHandle) -> &impact_solver::RigidBody {
        body(&self.bodies, h)
    }

    /// The handle's joint.
    pub fn joint(&self, h: impact_solver::JointHandle) -> &impact_solver::Joint {
        self.joints.get(h).expect("the test's joint exists")
    }

    /// A body's centre of mass.
    pub fn center(&self, h: BodyHandle) -> Point {
        self.body(h).center_of_mass()
    }

    /// A point fixed in a body (body frame) where the body is now (world frame).
    pub fn point_of(&self, h: BodyHandle, local: Point) -> Point {
        self.body(h).pose() * local
    }

    /// Total mechanical energy of the dynamic bodies: kinetic plus `m |g| height` along
    /// `-gravity`.
    pub fn energy(&self) -> Real {
        let g = self.gravity.norm();
        let up = if g > 0.0 {
            -self.gravity / g
        } else {
            Vector::zeros()
        };
        self.bodies
            .iter()
            .filter(|(_, b)| b.is_dynamic())
            .map(|(_, b)| b.kinetic_energy() + b.mass() * g * b.center_of_mass().coords.dot(&up))
            .sum()
    }
}

/// A fixed disc of radius 0.05 at `at`: the ground joints hang from.
pub fn anchor_body(at: Point) -> RigidBodyDef {
    RigidBodyDef::fixed(Circle::new(0.05).unwrap().into()).pose(Isometry::translation(at.x, at.y))
}

/// Bodies on joints of every kind, under gravity: a chain of six links with a spring and a
/// soft weld at its end, a motorised slider carrying a wheel, a motor joint and a mouse joint.
pub fn mixed_joint_scene() -> JointScene {
    let mut scene = JointScene::new(Vector::new(0.0, -10.0));
    let ground = scene.add(anchor_body(Point::origin()));
    let mut previous = ground;
    for i in 0..6 {
        let link = scene.add(boxed(
            0.25,
            0.05,
            Point::new(0.25 + 0.5 * i as Real, 0.0),
            0.0,
        ));
        scene.join(
            previous,
            link,
            Point::new(0.5 * i as Real, 0.0),
            impact_solver::RevoluteJoint::default().into(),
        );
        previous = link;
    }
    let slider = scene.add(boxed(0.2, 0.2, Point::new(-2.0, 0.0), 0.3));
    let axis = impact_solver::PrismaticJoint::along(Vector::new(1.0, 1.0))
        .limits(-0.5, 0.5)
        .motor(1.0, 5.0);
    scene.join(ground, slider, Point::new(-2.0, 0.0), axis.into());
    let wheel = scene.add(disc(0.3, 1.0, Point::new(-1.0, -1.0), Vector::zeros()));
    scene.join(
        slider,
        wheel,
        Point::new(-1.0, -1.0),
        impact_solver::WheelJoint::default().motor(3.0, 2.0).into(),
    );
    let weight = scene.add(disc(0.2, 2.0, Point::new(3.0, -2.0), Vector::new(1.0, 0.0)));
    scene.join(
        previous,
        weight,
        Point::new(3.0, -2.0),
        impact_solver::DistanceJoint::spring(1.5, 2.0, 0.1).into(),
    );
    let welded = scene.add(boxed(0.1, 0.3, Point::new(1.0, -0.3), 0.0));
    scene.join(
        previous,
        welded,
        Point::new(1.0, 0.0),
        impact_solver::WeldJoint::soft((5.0, 0.5), (3.0, 0.5)).into(),
    );
    let driven = scene.add(boxed(0.3, 0.3, Point::new(0.0, 3.0), 0.0));
    let motor = impact_solver::MotorJoint {
        linear_offset: Vector::new(1.0, 3.0),
        max_force: 20.0,
        ..impact_solver::MotorJoint::default()
    };
    scene.join(ground, driven, Point::new(0.0, 3.0), motor.into());
    let dragged = scene.add(boxed(0.3, 0.2, Point::new(4.0, 3.0), 0.2));
    scene.join(
        ground,
        dragged,
        Point::new(4.2, 3.1),
        impact_solver::MouseJoint::toward(Point::new(5.0, 5.0), 50.0).into(),
    );
    scene
}
