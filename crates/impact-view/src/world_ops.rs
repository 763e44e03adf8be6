//! What the viewer does to a world beyond stepping it, whatever its broadphase and stepper:
//! bodies and joints created and removed (bullets, the mouse joint), settings changed, the
//! broadphase's boxes read, and the stepper or broadphase switched with the state kept.
//!
//! [`AnyWorld`] exposes what a scene run needs; these few calls go to the concrete
//! `World<B, S>` through [`world_mut`], which tries the nine types a scene can build.

use impact_broadphase::{BruteForce, ProxyId, RTreeBroadphase, SortAndSweep};
use impact_geometry::{Aabb, Point, Real, Vector};
use impact_scene::{
    AnyWorld, BroadphaseChoice, SceneBroadphase, SceneStepper, StepperChoice, restore,
};
use impact_solver::{BodyHandle, JointDef, JointHandle, RigidBodyDef, ShapeId};
use impact_stepper::{Discrete, FirstTimeOfImpact, MotionClamping, World, WorldSettings};

/// The calls the viewer makes on a concrete world (each is `World`'s method of the same
/// name; errors are the world's, as text).
pub(crate) trait WorldMut {
    /// [`World::create_body`].
    fn create_body(&mut self, def: RigidBodyDef) -> Result<BodyHandle, String>;
    /// [`World::remove_body`].
    fn remove_body(&mut self, handle: BodyHandle) -> Result<(), String>;
    /// [`World::create_joint`].
    fn create_joint(&mut self, def: JointDef) -> Result<JointHandle, String>;
    /// [`World::remove_joint`].
    fn remove_joint(&mut self, handle: JointHandle) -> Result<(), String>;
    /// `joint_mut(handle).set_mouse_target(target)`.
    fn set_mouse_target(&mut self, handle: JointHandle, target: Point) -> Result<(), String>;
    /// [`World::set_velocity`].
    fn set_velocity(
        &mut self,
        handle: BodyHandle,
        linvel: Vector,
        angvel: Real,
    ) -> Result<(), String>;
    /// [`World::set_settings`].
    fn set_settings(&mut self, settings: WorldSettings) -> Result<(), String>;
    /// The broadphase's fat box of each body's first shape (the proxy of its slot), as the
    /// last step left it; bodies whose proxy has none are skipped.
    fn fat_boxes(&self) -> Vec<Aabb>;
    /// [`World::touching_pairs`].
    fn touching(&self) -> Vec<(ShapeId, ShapeId)>;
}

impl<B: SceneBroadphase, S: SceneStepper> WorldMut for World<B, S> {
    fn create_body(&mut self, def: RigidBodyDef) -> Result<BodyHandle, String> {
        World::create_body(self, def).map_err(|e| e.to_string())
    }

    fn remove_body(&mut self, handle: BodyHandle) -> Result<(), String> {
        World::remove_body(self, handle)
            .map(drop)
            .map_err(|e| e.to_string())
    }

    fn create_joint(&mut self, def: JointDef) -> Result<JointHandle, String> {
        World::create_joint(self, def).map_err(|e| e.to_string())
    }

    fn remove_joint(&mut self, handle: JointHandle) -> Result<(), String> {
        World::remove_joint(self, handle)
            .map(drop)
            .map_err(|e| e.to_string())
    }

    fn set_mouse_target(&mut self, handle: JointHandle, target: Point) -> Result<(), String> {
        let joint = self
            .joint_mut(handle)
            .ok_or_else(|| "the grab's joint is gone".to_owned())?;
        joint.set_mouse_target(target).map_err(|e| e.to_string())
    }

    fn set_velocity(
        &mut self,
        handle: BodyHandle,
        linvel: Vector,
        angvel: Real,
    ) -> Result<(), String> {
        World::set_velocity(self, handle, linvel, angvel).map_err(|e| e.to_string())
    }

    fn set_settings(&mut self, settings: WorldSettings) -> Result<(), String> {
        World::set_settings(self, settings).map_err(|e| e.to_string())
    }

    fn fat_boxes(&self) -> Vec<Aabb> {
        let bp = self.broadphase();
        self.bodies()
            .filter_map(|(h, _)| bp.fat_aabb(ProxyId(h.index)))
            .collect()
    }

    fn touching(&self) -> Vec<(ShapeId, ShapeId)> {
        self.touching_pairs().to_vec()
    }
}

/// The concrete world behind `world`, as [`WorldMut`].
///
/// # Errors
/// A message if the world is none of the nine types a scene builds (it always is one: the
/// viewer builds its worlds from scenes and snapshots).
pub(crate) fn world_mut(world: &mut dyn AnyWorld) -> Result<&mut dyn WorldMut, String> {
    macro_rules! try_type {
        ($b:ty, $s:ty) => {
            if world.as_any().is::<World<$b, $s>>() {
                return world
                    .as_any_mut()
                    .downcast_mut::<World<$b, $s>>()
                    .map(|w| w as &mut dyn WorldMut)
                    .ok_or_else(|| "the world changed type".to_owned());
            }
        };
    }
    macro_rules! try_steppers {
        ($b:ty) => {
            try_type!($b, Discrete);
            try_type!($b, MotionClamping);
            try_type!($b, FirstTimeOfImpact);
        };
    }
    try_steppers!(RTreeBroadphase);
    try_steppers!(SortAndSweep);
    try_steppers!(BruteForce);
    Err("the world is of a type the viewer does not know".to_owned())
}

/// The world with another stepper and broadphase, in the same state: its snapshot
/// ([`AnyWorld::snapshot`]: bodies with their handles, joints, warm-starting impulses,
/// clock) with the stepper and the broadphase's name replaced, read back with
/// [`restore`]. Handles stay valid, so a grab and the bullets' list carry over.
///
/// # Errors
/// The message of the stepper's settings or of the snapshot, as text.
pub(crate) fn switched(
    world: &dyn AnyWorld,
    stepper: StepperChoice,
    broadphase: BroadphaseChoice,
) -> Result<Box<dyn AnyWorld>, String> {
    let text = world.snapshot().map_err(|e| e.to_string())?;
    let mut snapshot: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("cannot read the snapshot: {e}"))?;
    let value = match stepper {
        StepperChoice::Discrete => serde_json::to_value(Discrete),
        StepperChoice::Clamp(s) => {
            serde_json::to_value(MotionClamping::new(s).map_err(|e| e.to_string())?)
        }
        StepperChoice::Toi(s) => {
            serde_json::to_value(FirstTimeOfImpact::new(s).map_err(|e| e.to_string())?)
        }
    }
    .map_err(|e| format!("cannot write the stepper: {e}"))?;
    snapshot["world"]["stepper"] = value;
    snapshot["stepper"] = stepper.kind().name().into();
    snapshot["broadphase"] = broadphase.name().into();
    restore(&snapshot.to_string()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_scene::{Scene, StepperKind};

    /// Stepping a world switched to another stepper and broadphase goes on from the same
    /// state: switched back and forth it matches the original bit for bit.
    #[test]
    fn a_switch_keeps_the_state() {
        let scene = Scene::from_json(&crate::demo::demo_json()).unwrap();
        let mut world = scene.build().unwrap();
        for _ in 0..30 {
            world.step(scene.dt).unwrap();
        }
        let hash = world.body_set().state_hash();
        let choice = world.stepper_choice();
        let other = switched(
            &*world,
            choice.with_kind(StepperKind::Discrete),
            BroadphaseChoice::SortAndSweep,
        )
        .unwrap();
        assert_eq!(other.stepper_choice().kind(), StepperKind::Discrete);
        assert_eq!(other.broadphase_choice(), BroadphaseChoice::SortAndSweep);
        assert_eq!(other.body_set().state_hash(), hash);
        assert_eq!(other.step_count(), 30);
        assert_eq!(other.time(), world.time());
        let mut back = switched(&*other, choice, BroadphaseChoice::RTree).unwrap();
        for _ in 0..10 {
            world.step(scene.dt).unwrap();
            back.step(scene.dt).unwrap();
        }
        assert_eq!(back.body_set().state_hash(), world.body_set().state_hash());
        for kind in StepperKind::ALL {
            for b in BroadphaseChoice::ALL {
                let w = switched(&*world, choice.with_kind(kind), b).unwrap();
                assert_eq!(
                    (w.stepper_choice().kind(), w.broadphase_choice()),
                    (kind, b)
                );
                assert_eq!(w.body_set().state_hash(), world.body_set().state_hash());
                assert_eq!(w.time(), world.time());
            }
        }
    }

    #[test]
    fn every_type_is_reached() {
        let scene = Scene::from_json(&crate::demo::demo_json()).unwrap();
        for b in BroadphaseChoice::ALL {
            for k in StepperKind::ALL {
                let mut s = scene.clone().with_stepper(k);
                s.broadphase = b;
                let mut world = s.build().unwrap();
                world.step(s.dt).unwrap();
                let w = world_mut(&mut *world).unwrap();
                assert_eq!(w.fat_boxes().len(), s.bodies.len(), "{b} {k}");
            }
        }
    }
}
