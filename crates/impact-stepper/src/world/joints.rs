//! The world's joints: creating, reading, changing and removing them, the pairs they keep
//! from colliding, and the joints that break at the end of a step.

use super::World;
use crate::error::WorldError;
use crate::stepper::Stepper;
use impact_broadphase::Broadphase;
use impact_geometry::{Real, Vector};
use impact_solver::{
    BodyHandle, Joint, JointDef, JointHandle, JointSeparation, JointSet, SolverError,
};

/// Something that happened to a joint in a step.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum JointEvent {
    /// The joint's reaction exceeded a break threshold of its definition
    /// ([`JointDef::break_force`], [`JointDef::break_torque`]) at the end of the step, and
    /// the world removed it.
    Broken {
        /// The joint, now stale.
        joint: JointHandle,
        /// Its bodies.
        body_a: BodyHandle,
        /// Its bodies.
        body_b: BodyHandle,
        /// Its reaction force on B over the step's last substep (newtons).
        force: Vector,
        /// Its reaction torque on B (newton metres).
        torque: Real,
    },
}

impl<B: Broadphase, S: Stepper> World<B, S> {
    /// Validates `def` and adds the joint; it acts from the next step on. Unless its
    /// `collide_connected` is on, the two bodies' shapes stop colliding from the next step
    /// (their contacts end there, with end events).
    ///
    /// # Errors
    /// As [`JointDef::validate`] (a body that is not in the world, both bodies the same,
    /// non-finite anchors, limits out of order, negative stiffness, ...), wrapped in
    /// [`WorldError::Solver`]; [`WorldError::OutOfRange`] naming `joint` in a periodic
    /// domain, where joints are refused (an anchor's minimum image would change from step to
    /// step as the bodies wrap). The world is unchanged then.
    ///
    /// ```
    /// use impact_geometry::{Circle, Isometry, Point, Vector};
    /// use impact_stepper::{World, WorldSettings};
    /// use impact_solver::{JointDef, RevoluteJoint, RigidBodyDef};
    ///
    /// let mut world: World = World::new(WorldSettings::default())?;
    /// let pivot = world.create_body(RigidBodyDef::fixed(Circle::new(0.05)?.into()))?;
    /// let bob = world.create_body(RigidBodyDef::new(Circle::new(0.1)?.into())
    ///     .pose(Isometry::translation(2.0, 0.0)))?;
    /// let hinge = JointDef::at_world_anchor(world.body_set(), pivot, bob, Point::origin(),
    ///     RevoluteJoint::default().into())?;
    /// world.create_joint(hinge)?;
    /// for _ in 0..60 {
    ///     world.step(1.0 / 60.0)?;
    /// }
    /// // The bob swings on its rod of length 2.
    /// let p = world.body(bob).unwrap().pose().translation.vector;
    /// assert!((p.norm() - 2.0).abs() < 0.01);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn create_joint(&mut self, def: JointDef) -> Result<JointHandle, WorldError> {
        if self.settings.domain.is_periodic() {
            return Err(WorldError::OutOfRange {
                field: "joint".to_owned(),
                value: 0.0,
                expected: "a world without a periodic domain (joints are refused there)",
            });
        }
        let handle = self.joints.insert(&self.bodies, def)?;
        if let Some(joint) = self.joints.get(handle) {
            self.joint_pairs.insert(joint);
            let (a, b) = (joint.body_a(), joint.body_b());
            self.wake_joined(a, b);
        }
        Ok(handle)
    }

    /// Removes the joint and returns it; its bodies may collide again from the next step if
    /// no other joint keeps them apart.
    ///
    /// # Errors
    /// [`WorldError::Solver`] with [`SolverError::UnknownJoint`] naming `handle` if the
    /// handle is stale or foreign; the world is unchanged.
    pub fn remove_joint(&mut self, handle: JointHandle) -> Result<Joint, WorldError> {
        let joint = self
            .joints
            .remove(handle)
            .ok_or(SolverError::UnknownJoint {
                field: "handle".to_owned(),
                handle,
            })?;
        self.joint_pairs.remove(&joint);
        self.wake_joined(joint.body_a(), joint.body_b());
        Ok(joint)
    }

    /// The joint, or `None` if the handle is stale or foreign.
    #[inline]
    pub fn joint(&self, handle: JointHandle) -> Option<&Joint> {
        self.joints.get(handle)
    }

    /// How far the joint is from its constraint at the bodies' current poses (world units
    /// and radians; see [`Joint::separation`] for each kind's rule): the error the soft
    /// step's give under load, or a step that could not hold a jointed group rigidly, left.
    ///
    /// # Errors
    /// [`WorldError`] wrapping [`SolverError::UnknownJoint`] naming `handle` if the handle is
    /// stale or foreign.
    pub fn joint_separation(&self, handle: JointHandle) -> Result<JointSeparation, WorldError> {
        let joint = self.joints.try_get(handle, "handle")?;
        Ok(joint.separation(&self.bodies)?)
    }

    /// The largest linear and the largest angular separation over the world's joints
    /// ([`World::joint_separation`]; zero without joints): a whole scene's joint error in
    /// one read, as a test or a debug overlay wants it.
    pub fn largest_joint_separation(&self) -> JointSeparation {
        self.joints.largest_separation(&self.bodies)
    }

    /// The joint, to change its settings between steps ([`Joint::modify`],
    /// [`Joint::set_mouse_target`], [`Joint::set_enabled`]), or `None` if the handle is stale
    /// or foreign. Its bodies and `collide_connected` cannot change: remove it and create
    /// another.
    ///
    /// The joint's bodies wake with their islands, whatever the caller changes.
    pub fn joint_mut(&mut self, handle: JointHandle) -> Option<&mut Joint> {
        if let Some(joint) = self.joints.get(handle) {
            let (a, b) = (joint.body_a(), joint.body_b());
            self.wake_joined(a, b);
        }
        self.joints.get_mut(handle)
    }

    /// Wakes the islands of a joint's two bodies (a joint created, changed or removed),
    /// their times at rest starting again.
    fn wake_joined(&mut self, a: BodyHandle, b: BodyHandle) {
        for h in [a, b] {
            if self.bodies.contains(h) {
                self.wake(h).ok();
            }
        }
    }

    /// Every joint, in slot order (the order the solver takes them in).
    #[inline]
    pub fn joints(&self) -> &JointSet {
        &self.joints
    }

    /// The joint events of the last successful step (joints that broke), in slot order.
    #[inline]
    pub fn joint_events(&self) -> &[JointEvent] {
        &self.joint_events
    }

    /// Removes the joints of a body that is being removed.
    pub(super) fn remove_joints_of(&mut self, body: BodyHandle) {
        if self.joints.is_empty() {
            return;
        }
        for handle in self.joints.joints_of(body) {
            if let Some(joint) = self.joints.remove(handle) {
                self.joint_pairs.remove(&joint);
            }
        }
    }

    /// At the end of a successful step: removes every joint whose reaction exceeds a break
    /// threshold, and reports it.
    pub(super) fn break_joints(&mut self) {
        self.joint_events.clear();
        if self.joints.is_empty() {
            return;
        }
        let broken: Vec<JointHandle> = self
            .joints
            .iter()
            .filter(|(_, j)| j.exceeds_break_threshold())
            .map(|(h, _)| h)
            .collect();
        for handle in broken {
            if let Some(joint) = self.joints.remove(handle) {
                self.joint_pairs.remove(&joint);
                self.joint_events.push(JointEvent::Broken {
                    joint: handle,
                    body_a: joint.body_a(),
                    body_b: joint.body_b(),
                    force: joint.reaction_force(),
                    torque: joint.reaction_torque(),
                });
            }
        }
    }
}
