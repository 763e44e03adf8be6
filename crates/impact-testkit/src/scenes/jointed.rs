//! Scenes with joints: [`JointedScene`] (a [`Scene`] and its joints, by body index) and
//! Box2D's "joint grid" benchmark ([`joint_grid`]).

use super::Scene;
use impact_broadphase::Broadphase;
use impact_geometry::{Circle, Isometry, Point, Real, Vector};
use impact_solver::{
    BodyHandle, CollisionFilter, JointDef, JointHandle, JointKind, RevoluteJoint, RigidBodyDef,
};
use impact_stepper::{Stepper, World, WorldError, WorldSettings};

/// A joint of a [`JointedScene`]: bodies by index in [`Scene::bodies`], anchors in each
/// body's frame.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneJoint {
    /// The bodies, by index.
    pub bodies: [usize; 2],
    /// The anchors in each body's frame.
    pub local_anchors: [Point; 2],
    /// The constraint.
    pub kind: JointKind,
    /// B's angle minus A's at rest (radians).
    pub reference_angle: Real,
}

/// A scene whose bodies are held by joints.
#[derive(Debug, Clone)]
pub struct JointedScene {
    /// The bodies and settings.
    pub scene: Scene,
    /// The joints, created in this order after every body.
    pub joints: Vec<SceneJoint>,
}

/// A built [`JointedScene`]: the world, its bodies' handles in scene order, its joints'.
pub type BuiltJointedScene<B, S> = (World<B, S>, Vec<BodyHandle>, Vec<JointHandle>);

impl JointedScene {
    /// A world of the scene: the handles of the bodies in scene order, and of the joints.
    ///
    /// # Errors
    /// As [`Scene::build`] and [`World::create_joint`].
    pub fn build<B: Broadphase + Default, S: Stepper + Default>(
        &self,
    ) -> Result<BuiltJointedScene<B, S>, WorldError> {
        let (mut world, handles) = self.scene.build::<B, S>()?;
        let joints = self
            .joints
            .iter()
            .map(|j| {
                let def = JointDef::new(handles[j.bodies[0]], handles[j.bodies[1]], j.kind.clone())
                    .local_anchors(j.local_anchors[0], j.local_anchors[1])
                    .reference_angle(j.reference_angle);
                world.create_joint(def)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok((world, handles, joints))
    }
}

/// Box2D v3's benchmark "joint grid" (`benchmark/joint_grid.c`) with `n` x `n` bodies:
/// circles of radius 0.4 a unit apart, column `k` at `x = k`, row `i` at `y = -i`, each
/// jointed by a revolute joint to the body above it and to the one on its left, anchors
/// half-way; the top row's 7 middle bodies are static. Density 1, gravity -10; the shapes
/// are in category 2 and collide with no category 2, so nothing collides: the step is the
/// joints' solve. For `n` = 100: 10,000 bodies, 19,800 joints.
pub fn joint_grid(n: usize) -> JointedScene {
    let rad = 0.4;
    let filter = CollisionFilter::new(2, !2);
    let mut bodies = Vec::with_capacity(n * n);
    let mut joints = Vec::with_capacity(2 * n * (n - 1));
    let hinge = JointKind::from(RevoluteJoint::default());
    for k in 0..n {
        for i in 0..n {
            let index = k * n + i;
            let fixed = i == 0 && k + 3 >= n / 2 && k <= n / 2 + 3;
            let shape = Circle::new(rad).expect("positive radius").into();
            let pose = Isometry::translation(k as Real, -(i as Real));
            let def = if fixed {
                RigidBodyDef::fixed(shape)
            } else {
                RigidBodyDef::new(shape)
            };
            bodies.push(def.pose(pose).filter(filter));
            if i > 0 {
                joints.push(SceneJoint {
                    bodies: [index - 1, index],
                    local_anchors: [Point::new(0.0, -0.5), Point::new(0.0, 0.5)],
                    kind: hinge.clone(),
                    reference_angle: 0.0,
                });
            }
            if k > 0 {
                joints.push(SceneJoint {
                    bodies: [index - n, index],
                    local_anchors: [Point::new(0.5, 0.0), Point::new(-0.5, 0.0)],
                    kind: hinge.clone(),
                    reference_angle: 0.0,
                });
            }
        }
    }
    JointedScene {
        scene: Scene {
            name: format!("joint_grid_{n}"),
            settings: WorldSettings::with_gravity(Vector::new(0.0, -10.0)),
            bodies,
        },
        joints,
    }
}
