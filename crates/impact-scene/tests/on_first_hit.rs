//! `"on_first_hit": "destroy"` (the mid-frame reaction of Colp's ECSE write-up): a body with it
//! is removed at the instant of its first impact, inside the step, so nothing it would have met
//! later in that step is met; bodies without it are untouched by the hook. Checked on
//! `examples/scenes/destroyed_at_first_hit.json`.

use impact_scene::{OnFirstHit, Scene, StepperKind};

fn scene() -> Scene {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/scenes/destroyed_at_first_hit.json"
    );
    Scene::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

// The bodies of the example scene, by index.
const HEAVY_BULLET: u32 = 3;
const PANES: [u32; 3] = [4, 5, 6];
const PROJECTILE: u32 = 7;
const FIRST_TARGET: u32 = 8;
const SECOND_TARGET: u32 = 9;
const BOUNCER: u32 = 10;

#[test]
fn a_projectile_destroyed_at_its_first_hit_never_reaches_what_is_behind() {
    let scene = scene();
    assert_eq!(
        scene.on_first_hit.keys().copied().collect::<Vec<_>>(),
        [4, 5, 6, 7]
    );
    let mut world = scene.build().unwrap();
    let mut reactions = scene.reactions();
    let mut events = Vec::new();
    for _ in 0..scene.steps {
        world.step_with(scene.dt, &mut reactions).unwrap();
        events.extend_from_slice(world.events());
    }
    let alive = |i: u32| world.body_set().iter().any(|(h, _)| h.index == i);
    let fired: Vec<u32> = reactions.fired().iter().map(|f| f.body).collect();

    // The heavy bullet shatters the three panes in the order it meets them, within its
    // first step, and survives (it has no reaction).
    assert_eq!(fired, [PANES[0], PROJECTILE, PANES[1], PANES[2]]);
    assert!(reactions.fired().iter().all(|f| f.time < scene.dt));
    for pane in PANES {
        assert!(!alive(pane));
    }
    assert!(alive(HEAVY_BULLET));

    // The light projectile dies at the first target: one impact, and the second target is
    // never in an impact with it.
    let projectile_events: Vec<_> = events
        .iter()
        .filter(|e| e.a.index == PROJECTILE || e.b.index == PROJECTILE)
        .collect();
    assert_eq!(projectile_events.len(), 1);
    assert_eq!(projectile_events[0].b.index, FIRST_TARGET);
    assert!(!alive(PROJECTILE));
    assert!(alive(SECOND_TARGET));

    // The same projectile without the reaction bounces off its target and survives.
    assert!(alive(BOUNCER));
    let bouncer = world
        .body_set()
        .iter()
        .find(|(h, _)| h.index == BOUNCER)
        .unwrap()
        .1;
    assert!(bouncer.linvel().x < 0.0, "bounced back");
}

#[test]
fn without_impacts_inside_the_step_no_reaction_fires() {
    for kind in [StepperKind::Discrete, StepperKind::Clamp] {
        let scene = scene().with_stepper(kind);
        let mut world = scene.build().unwrap();
        let mut reactions = scene.reactions();
        for _ in 0..5 {
            let step = world.step_with(scene.dt, &mut reactions).unwrap();
            assert_eq!(step.removed, 0, "{kind}");
        }
        assert!(reactions.fired().is_empty(), "{kind}");
        assert!(!reactions.is_idle());
        assert_eq!(world.body_set().len(), scene.bodies.len());
    }
}

#[test]
fn reactions_are_written_and_read_back() {
    let scene = scene();
    let text = scene.to_json().unwrap();
    assert_eq!(text.matches("\"on_first_hit\": \"destroy\"").count(), 4);
    assert_eq!(Scene::from_json(&text).unwrap(), scene);
}

#[test]
fn a_program_cannot_give_a_reaction_to_a_missing_or_static_body() {
    let mut scene = scene();
    scene.on_first_hit.insert(99, OnFirstHit::Destroy);
    assert_eq!(
        scene.validate().unwrap_err().to_string(),
        "bodies[99].on_first_hit: there is no body 99 (the scene has 13)"
    );
    let mut scene = self::scene();
    scene.on_first_hit.insert(0, OnFirstHit::Destroy);
    assert_eq!(
        scene.build().unwrap_err().to_string(),
        "bodies[0].on_first_hit: only a dynamic body can react to its first hit"
    );
}
