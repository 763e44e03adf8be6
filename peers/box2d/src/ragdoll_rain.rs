//! Box2D's benchmark "rain" in impact and in Box2D: the static ground of
//! `impact_testkit::scenes::ragdoll_rain`, and ragdoll groups made and destroyed before steps
//! by `RagdollRainSchedule`, as Box2D's `StepRain` does inside the timed loop of its
//! program (so the times here include them, as Box2D's do).
//!
//! Every group's bodies and joints are built once, before the first step, and each engine
//! creates them from those definitions: the times are the engines', not the building of
//! definitions. rapier2d is not run: its revolute joint has one motor per axis, which cannot
//! hold both the joint friction (a motor of speed 0 and a maximum torque) and the spring of
//! Box2D's human, and it has no negative collision groups.

use crate::DT;
use crate::box2d::{Box2d, Sleep};
use boxdd::{BodyId, JointId};
use impact_testkit::scenes::{
    BOX2D_RAIN_COLUMNS, BOX2D_RAIN_ROWS, RagdollRainSchedule, RagdollRainSpawn, SceneJoint,
    ragdoll_rain, ragdoll_rain_group,
};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::geometry::Real;
use impact2d::solver::{BodyHandle, JointDef, RigidBodyDef};
use impact2d::stepper::{Stepper, World};

/// The bodies and joints of one group.
type Group = (Vec<RigidBodyDef>, Vec<SceneJoint>);

/// Every group of the rain, by `row * BOX2D_RAIN_COLUMNS + column`.
fn groups(grid_count: usize) -> Vec<Group> {
    (0..BOX2D_RAIN_ROWS)
        .flat_map(|row| {
            (0..BOX2D_RAIN_COLUMNS).map(move |column| ragdoll_rain_group(grid_count, row, column))
        })
        .collect()
}

/// The rows' groups of a spawn, in Box2D's order (row by row).
fn spawn_groups(spawn: RagdollRainSpawn) -> impl Iterator<Item = usize> {
    (0..BOX2D_RAIN_ROWS).map(move |row| row * BOX2D_RAIN_COLUMNS + spawn.column)
}

/// The rain in an impact world of stepper `S`.
pub struct ImpactRain<S: Stepper> {
    /// The world.
    pub world: World<RTreeBroadphase, S>,
    defs: Vec<Group>,
    live: Vec<Vec<BodyHandle>>,
    schedule: RagdollRainSchedule,
    step: usize,
}

impl<S: Stepper + Default> ImpactRain<S> {
    /// The ground of `ragdoll_rain(grid_count)`, before step 0, sleeping on (as Box2D's
    /// program runs the rain) if `sleeping`.
    pub fn new(grid_count: usize, sleeping: bool) -> Self {
        let mut scene = ragdoll_rain(grid_count);
        scene.settings.sleeping = sleeping;
        let (world, _) = scene.build().expect("valid scene");
        let defs = groups(grid_count);
        Self {
            world,
            live: vec![Vec::new(); defs.len()],
            defs,
            schedule: RagdollRainSchedule::default(),
            step: 0,
        }
    }

    /// The schedule's spawn, then one step.
    pub fn step(&mut self) {
        if let Some(spawn) = self.schedule.before_step(self.step) {
            for g in spawn_groups(spawn) {
                for h in self.live[g].drain(..) {
                    self.world.remove_body(h).expect("live body");
                }
                let (bodies, joints) = &self.defs[g];
                let handles: Vec<BodyHandle> = bodies
                    .iter()
                    .map(|d| self.world.create_body(d.clone()).expect("valid body"))
                    .collect();
                for j in joints {
                    let def =
                        JointDef::new(handles[j.bodies[0]], handles[j.bodies[1]], j.kind.clone())
                            .local_anchors(j.local_anchors[0], j.local_anchors[1])
                            .reference_angle(j.reference_angle);
                    self.world.create_joint(def).expect("valid joint");
                }
                self.live[g] = handles;
            }
        }
        self.world.step(DT).expect("valid step");
        self.step += 1;
    }

    /// Bodies, shapes and joints.
    pub fn counts(&self) -> [usize; 3] {
        let shapes = self.world.bodies().map(|(_, b)| b.shapes().len()).sum();
        [self.world.len(), shapes, self.world.joints().len()]
    }

    /// How many ragdoll bodies are more than a unit below the top of the ground row their
    /// group fell onto: through it.
    pub fn through_ground(&self) -> usize {
        let world = &self.world;
        count_through(&self.live, |h| {
            world.body(*h).expect("live body").pose().translation.y
        })
    }
}

/// How many of the bodies of `live` (by group) `y` puts more than a unit below the top of
/// their group's ground row (group `g` falls onto row `g / BOX2D_RAIN_COLUMNS`, whose
/// squares' tops are at `45 row + 0.25`).
fn count_through<T>(live: &[Vec<T>], mut y: impl FnMut(&T) -> Real) -> usize {
    live.iter()
        .enumerate()
        .map(|(g, bodies)| {
            let top = 45.0 * (g / BOX2D_RAIN_COLUMNS) as Real + 0.25;
            bodies.iter().filter(|b| y(b) < top - 1.0).count()
        })
        .sum()
}

/// The rain in a Box2D world.
pub struct Box2dRain {
    /// The world.
    pub b2: Box2d,
    defs: Vec<Group>,
    live: Vec<(Vec<BodyId>, Vec<JointId>)>,
    schedule: RagdollRainSchedule,
    step: usize,
}

impl Box2dRain {
    /// The ground of `ragdoll_rain(grid_count)` before step 0, sleeping as `sleep` says.
    pub fn new(grid_count: usize, sleep: Sleep) -> Self {
        let b2 = Box2d::from_scene_with(&ragdoll_rain(grid_count), sleep).expect("valid scene");
        let defs = groups(grid_count);
        Self {
            b2,
            live: vec![(Vec::new(), Vec::new()); defs.len()],
            defs,
            schedule: RagdollRainSchedule::default(),
            step: 0,
        }
    }

    /// The schedule's spawn (Box2D's `DestroyHuman`: joints, then bodies), then one step.
    pub fn step(&mut self) {
        if let Some(spawn) = self.schedule.before_step(self.step) {
            for g in spawn_groups(spawn) {
                let (bodies, joints) = std::mem::take(&mut self.live[g]);
                for j in joints {
                    self.b2.destroy_joint(j).expect("live joint");
                }
                for b in bodies {
                    self.b2.destroy_body(b).expect("live body");
                }
                let (defs, scene_joints) = &self.defs[g];
                let ids: Vec<BodyId> = defs
                    .iter()
                    .map(|d| self.b2.add_body(d).expect("valid body"))
                    .collect();
                let joints = scene_joints
                    .iter()
                    .map(|j| {
                        self.b2
                            .add_joint(j, j.bodies.map(|k| ids[k]))
                            .expect("valid joint")
                    })
                    .collect();
                self.live[g] = (ids, joints);
            }
        }
        self.b2.step(DT);
        self.step += 1;
    }

    /// Bodies, shapes and joints.
    pub fn counts(&self) -> [usize; 3] {
        let [b, s, j, _] = self.b2.counts();
        [b, s, j]
    }

    /// As [`ImpactRain::through_ground`].
    pub fn through_ground(&mut self) -> usize {
        let live: Vec<Vec<BodyId>> = self.live.iter().map(|(b, _)| b.clone()).collect();
        let b2 = &mut self.b2;
        count_through(&live, |id| b2.position(*id).1)
    }
}
