//! Box2D's benchmark scenes "many_pyramids", "tumbler", "spinner", "smash" and "rain":
//! impact, rapier2d and Box2D v3 on the same scenes, in the same process, by Box2D's
//! protocol (the mean of steps 1 to N - 1 of fresh worlds, N = Box2D's own step count), the
//! engines run in lockstep rounds of `ROUND_STEPS` steps (see `impact_peer_box2d::timing`).
//!
//! Scenes: `impact_testkit::scenes::{many_pyramids, tumbler, spinner, smash, ragdoll_rain}`,
//! rebuilds of Box2D's `shared/benchmarks.c`; gravity -10 (smash: none), 60 Hz, 4 substeps,
//! one thread. Entrants, with sleeping off (like for like with rapier2d): impact
//! (`World<RTreeBroadphase, Discrete>`, and with `B2_TOI=1` `FirstTimeOfImpact` too),
//! rapier2d-f64 (every scene but the rain, see `impact_peer_box2d::ragdoll_rain`) and Box2D;
//! and for the scenes Box2D's program runs with sleeping on (tumbler, spinner, smash, rain)
//! "impact asleep" (`Discrete`) and "Box2D asleep", as Box2D's program runs them (Box2D's
//! smash block created asleep; impact's falls asleep after 30 steps).
//!
//! Run: `cargo bench --bench scenes -- summary [scene ...]` (all five by default).
//! `B2_STEPS=100` cuts every scene to 100 steps; `B2_SMALL=1` runs the sizes of Box2D's debug
//! build (5 x 5 pyramids, a 20 x 20 tumbler, 499 spinner bodies, a 20 x 10 smash, a rain of
//! 200 squares a row). `B2_RAIN_ASLEEP=0` leaves "impact asleep" out of the rain.

use impact_peer_box2d::box2d::{Box2d, Sleep};
use impact_peer_box2d::ragdoll_rain::{Box2dRain, ImpactRain};
use impact_peer_box2d::rapier::Rapier;
use impact_peer_box2d::timing::{Entrant, lockstep, summary};
use impact_peer_box2d::{DT, assert_same_start, awake_jointed, impact_positions};
use impact_testkit::scenes::{
    BOX2D_STEPS, JointedScene, Scene, many_pyramids, smash, spinner, tumbler,
};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::stepper::{Discrete, FirstTimeOfImpact, Stepper, World};
use std::hint::black_box;
use std::time::Instant;

/// Steps of each engine in a round.
const ROUND_STEPS: usize = 10;

fn flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| v == "1")
}

fn steps(scene: &str) -> usize {
    let own = BOX2D_STEPS
        .iter()
        .find(|(n, _)| *n == scene)
        .expect("a Box2D scene")
        .1;
    std::env::var("B2_STEPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(own, |n: usize| n.min(own))
}

fn world<S: Stepper + Default>(scene: &JointedScene) -> World<RTreeBroadphase, S> {
    scene.build().expect("valid scene").0
}

fn print(name: &str, detail: &str, steps: usize, lines: &[String]) {
    println!(
        "\n{name} ({detail}): mean of steps 1 to {} of fresh worlds, in lockstep rounds of \
         {ROUND_STEPS} steps:",
        steps - 1
    );
    for line in lines {
        println!("{line}");
    }
}

/// A scene of bodies and joints in every engine; `box2d_sleep` is how Box2D's program runs
/// it (`None`: sleeping off), `rapier`: whether rapier2d can hold it. `asleep` is the scene
/// with Box2D's program's sleeping; every entrant but the two asleep ones runs it awake.
fn bench_scene(name: &str, asleep: &JointedScene, box2d_sleep: Option<Sleep>, rapier: bool) {
    let n = steps(name);
    let build = Instant::now();
    let scene = &awake_jointed(asleep.clone());
    let mut impact: World<RTreeBroadphase, Discrete> = world(scene);
    let mut impact_asleep = box2d_sleep.map(|_| world::<Discrete>(asleep));
    let mut toi = flag("B2_TOI").then(|| world::<FirstTimeOfImpact>(scene));
    let mut peer = rapier.then(|| Rapier::from_jointed(scene));
    let mut b2 = Box2d::from_jointed(scene).expect("valid Box2D scene");
    let mut b2_asleep =
        box2d_sleep.map(|s| Box2d::from_jointed_with(scene, s).expect("valid Box2D scene"));
    let home = impact_positions(&impact);
    assert_same_start("Box2D", &home, &b2.positions());
    if let Some(r) = &peer {
        assert_same_start("rapier2d", &home, &r.positions());
    }
    eprintln!("{name}: built in {:.1} s", build.elapsed().as_secs_f64());
    let mut entrants = vec![Entrant::new("impact", || {
        black_box(impact.step(DT).expect("valid step"));
    })];
    if let Some(w) = toi.as_mut() {
        entrants.push(Entrant::new("impact FirstTimeOfImpact", move || {
            black_box(w.step(DT).expect("valid step"));
        }));
    }
    if let Some(w) = impact_asleep.as_mut() {
        entrants.push(Entrant::new("impact asleep", move || {
            black_box(w.step(DT).expect("valid step"));
        }));
    }
    if let Some(r) = peer.as_mut() {
        entrants.push(Entrant::new("rapier2d", move || r.world.step()));
    }
    entrants.push(Entrant::new("Box2D", || b2.step(DT)));
    if let Some(w) = b2_asleep.as_mut() {
        entrants.push(Entrant::new("Box2D asleep", move || w.step(DT)));
    }
    let timings = lockstep(&mut entrants, n, ROUND_STEPS);
    drop(entrants);
    let [bodies, shapes, joints, contacts] = b2.counts();
    let detail = format!(
        "{bodies} bodies, {shapes} shapes, {joints} joints, {contacts} contacts in Box2D at the end"
    );
    print(name, &detail, n, &summary(&timings));
    if !scene.joints.is_empty() {
        // The driven body (the tumbler's drum, the spinner's paddle) is body 1.
        let turned = |a: f64| format!("{:.3}", a);
        let mut line = format!(
            "  driven body's angle after {n} steps: impact {}",
            turned(impact.bodies().nth(1).expect("body 1").1.angle())
        );
        if let Some(r) = &peer {
            line += &format!(", rapier2d {}", turned(r.angle(1)));
        }
        let id = b2.body_id(1);
        line += &format!(", Box2D {}", turned(b2.angle(id)));
        println!("{line}");
    }
}

fn plain(scene: Scene) -> JointedScene {
    JointedScene {
        scene,
        joints: Vec::new(),
    }
}

fn bench_rain(grid: usize) {
    let n = steps("rain");
    let mut impact = ImpactRain::<Discrete>::new(grid, false);
    let mut toi = flag("B2_TOI").then(|| ImpactRain::<FirstTimeOfImpact>::new(grid, false));
    let asleep_too = std::env::var("B2_RAIN_ASLEEP").map_or(true, |v| v != "0");
    let mut impact_asleep = asleep_too.then(|| ImpactRain::<Discrete>::new(grid, true));
    let mut b2 = Box2dRain::new(grid, Sleep::Off);
    let mut b2_asleep = Box2dRain::new(
        grid,
        Sleep::On {
            asleep_from: usize::MAX,
        },
    );
    let mut entrants = vec![Entrant::new("impact", || impact.step())];
    if let Some(w) = toi.as_mut() {
        entrants.push(Entrant::new("impact FirstTimeOfImpact", move || w.step()));
    }
    if let Some(w) = impact_asleep.as_mut() {
        entrants.push(Entrant::new("impact asleep", move || w.step()));
    }
    entrants.push(Entrant::new("Box2D", || b2.step()));
    entrants.push(Entrant::new("Box2D asleep", || b2_asleep.step()));
    let timings = lockstep(&mut entrants, n, ROUND_STEPS);
    drop(entrants);
    let [bodies, shapes, joints] = b2.counts();
    assert_eq!(impact.counts(), [bodies, shapes, joints], "the same rain");
    let detail = format!("{bodies} bodies, {shapes} shapes, {joints} joints at the end");
    print("rain", &detail, n, &summary(&timings));
    let mut line = format!(
        "  ragdoll bodies through the ground after {n} steps: impact {}",
        impact.through_ground()
    );
    if let Some(w) = &toi {
        line += &format!(", impact FirstTimeOfImpact {}", w.through_ground());
    }
    line += &format!(", Box2D {}", b2.through_ground());
    println!("{line}");
}

fn main() {
    let small = flag("B2_SMALL");
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-') && a != "summary")
        .collect();
    let all = ["many_pyramids", "tumbler", "spinner", "smash", "rain"];
    let chosen: Vec<&str> = if args.is_empty() {
        all.to_vec()
    } else {
        all.iter()
            .copied()
            .filter(|s| args.iter().any(|a| a == s))
            .collect()
    };
    let on = Sleep::On {
        asleep_from: usize::MAX,
    };
    for name in chosen {
        match name {
            "many_pyramids" => {
                let (r, c) = if small { (5, 5) } else { (20, 20) };
                bench_scene(name, &plain(many_pyramids(r, c)), None, true);
            }
            "tumbler" => bench_scene(name, &tumbler(if small { 20 } else { 45 }), Some(on), true),
            "spinner" => {
                bench_scene(
                    name,
                    &spinner(if small { 499 } else { 6076 }),
                    Some(on),
                    true,
                );
            }
            "smash" => {
                let (c, r) = if small { (20, 10) } else { (120, 80) };
                let asleep = Sleep::On { asleep_from: 1 };
                bench_scene(name, &plain(smash(c, r)), Some(asleep), true);
            }
            "rain" => bench_rain(if small { 200 } else { 500 }),
            _ => unreachable!("a listed scene"),
        }
    }
}
