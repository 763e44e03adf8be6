//! Destroyed at first hit (the mid-frame reaction of Colp's ECSE write-up): a body removed at
//! the instant of its first impact, inside the step, so it never reaches what was behind its
//! target.
//!
//! The scene is `examples/scenes/destroyed_at_first_hit.json`: a light projectile that dies
//! at its first target, the same projectile without the reaction (it bounces), and a heavy
//! bullet that shatters three panes in one step, each pane destroyed at its first hit. The
//! reactions are carried out by a hook written here as a closure, to show the API
//! (`impact_scene::Scene::reactions` is the same hook, ready-made), and every impact is
//! printed with what the hook did.
//!
//! `cargo run --example destroyed_at_first_hit --features scene`

use impact2d::prelude::*;
use impact2d::scene::{OnFirstHit, Scene};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/scenes/destroyed_at_first_hit.json"
    );
    let scene = Scene::from_json(&std::fs::read_to_string(path)?)?;
    let mut world = scene.build()?;

    // Which slots still have a reaction waiting: `build` puts body i in slot i.
    let mut pending: Vec<bool> = (0..scene.bodies.len())
        .map(|i| scene.on_first_hit.get(&i) == Some(&OnFirstHit::Destroy))
        .collect();
    let mut log = Vec::new();
    let mut hook = |impact: &mut Impact<'_>| {
        let event = *impact.event();
        let mut destroyed = Vec::new();
        for body in [event.a, event.b] {
            let slot = body.index as usize;
            if pending[slot] {
                pending[slot] = false;
                // The impact is already resolved: the other body keeps its impulse.
                if impact.remove_body(body).is_ok() {
                    destroyed.push(body.index);
                }
            }
        }
        log.push((event, destroyed));
    };

    for _ in 0..scene.steps {
        world.step_with(scene.dt, &mut hook)?;
    }

    println!(
        "{:>10}  {:>5}  {:>5}  {:>10}  destroyed",
        "time (s)", "a", "b", "x"
    );
    for (event, destroyed) in &log {
        println!(
            "{:>10.6}  {:>5}  {:>5}  {:>10.4}  {}",
            event.time,
            event.a.index,
            event.b.index,
            event.point().x,
            destroyed
                .iter()
                .map(|i| format!("body {i}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let alive: Vec<u32> = world.body_set().iter().map(|(h, _)| h.index).collect();
    println!("bodies left: {alive:?}");
    // The projectile (body 7) met its first target (8) and never the second (9).
    assert!(!alive.contains(&7) && alive.contains(&9));
    let involves = |e: &CollisionEvent, slot: u32| e.a.index == slot || e.b.index == slot;
    assert!(log.iter().all(|(e, _)| !(involves(e, 7) && involves(e, 9))));
    Ok(())
}
