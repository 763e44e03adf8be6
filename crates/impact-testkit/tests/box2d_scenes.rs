//! Box2D's benchmark scenes, small, build and step under every stepper with every body
//! finite: the scenes are Box2D's own numbers (a motor of `FLT_MAX` torque, joint springs,
//! collision groups), so a validation that refuses one of them is caught here, in the
//! workspace's tests, and not first by the peer benches of `peers/box2d`.

use impact_broadphase::RTreeBroadphase;
use impact_stepper::{Discrete, FirstTimeOfImpact, MotionClamping, Stepper, World};
use impact_testkit::scenes::{
    JointedScene, Scene, joint_grid, many_pyramids, ragdoll_rain, ragdoll_rain_group, smash,
    spinner, tumbler,
};

const DT: f64 = 1.0 / 60.0;

/// A scene without joints as a jointed one.
fn plain(scene: Scene) -> JointedScene {
    JointedScene {
        scene,
        joints: Vec::new(),
    }
}

/// The rain's ground with one group of ragdolls above it.
fn rain() -> JointedScene {
    let mut scene = ragdoll_rain(20);
    let (bodies, joints) = ragdoll_rain_group(20, 0, 0);
    let offset = scene.bodies.len();
    scene.bodies.extend(bodies);
    let joints = joints
        .into_iter()
        .map(|mut j| {
            j.bodies = j.bodies.map(|k| k + offset);
            j
        })
        .collect();
    JointedScene { scene, joints }
}

/// Builds `scene` under `S` and steps it `steps` times: every body's pose and velocity finite.
fn steps<S: Stepper + Default>(name: &str, scene: &JointedScene, steps: usize) {
    let built = scene.build::<RTreeBroadphase, S>();
    let (mut world, _, _): (World<RTreeBroadphase, S>, _, _) =
        built.unwrap_or_else(|e| panic!("{name}: {e}"));
    for step in 0..steps {
        world
            .step(DT)
            .unwrap_or_else(|e| panic!("{name}, step {step}: {e}"));
    }
    for (h, body) in world.body_set().iter() {
        let pose = body.pose();
        let finite = pose.translation.vector.iter().all(|x| x.is_finite())
            && pose.rotation.angle().is_finite()
            && body.linvel().iter().all(|x| x.is_finite())
            && body.angvel().is_finite();
        assert!(finite, "{name}: body {h:?} not finite: {body:?}");
    }
}

fn every_stepper(name: &str, scene: &JointedScene, count: usize) {
    steps::<Discrete>(name, scene, count);
    steps::<MotionClamping>(name, scene, count);
    steps::<FirstTimeOfImpact>(name, scene, count);
}

#[test]
fn the_box2d_scenes_build_and_step_under_every_stepper() {
    every_stepper("joint_grid", &joint_grid(6), 20);
    every_stepper("many_pyramids", &plain(many_pyramids(1, 2)), 20);
    every_stepper("tumbler", &tumbler(4), 20);
    every_stepper("spinner", &spinner(40), 20);
    every_stepper("smash", &plain(smash(4, 3)), 20);
    every_stepper("rain", &rain(), 20);
}

/// The tumbler's drum, once the boxes pile on its walls, is struck by them a hundred times a
/// step and more, and no impact changes its course by more than a rounding: it keeps the
/// plans of its course (`FirstToiReport::kept_plans`) instead of asking every box resting
/// on its walls again at each impact, and only the pair it met is asked again. Planned
/// again at each impact, the drum asked 120 to 150 time-of-impact queries per impact of
/// the step here (60,000 a step); keeping its plans, about 20.
#[test]
fn the_tumblers_drum_keeps_its_plans_when_the_boxes_strike_it() {
    let mut scene = tumbler(20);
    scene.scene.settings.sleeping = false;
    let (mut world, _, _): (World<RTreeBroadphase, FirstTimeOfImpact>, _, _) =
        scene.build().expect("valid scene");
    let (mut queries, mut events, mut kept) = (0, 0, 0);
    for step in 1..=150 {
        let report = world.step(DT).expect("valid step");
        if step > 90 {
            queries += report.stepper.toi_queries;
            events += report.stepper.events;
            kept += report.stepper.kept_plans;
        }
    }
    assert!(
        events > 1_000 && kept > 1_000 && queries < 50 * events,
        "{queries} queries for {events} impacts, {kept} plans kept"
    );
}
