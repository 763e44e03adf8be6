//! The peers build the scenes impact does: same start, and (Box2D running the same solver
//! as impact) nearly the same motion.

use impact_peer_box2d::box2d::Box2d;
use impact_peer_box2d::rapier::Rapier;
use impact_peer_box2d::{DT, assert_same_start, impact_positions, impact_stretch};
use impact_testkit::scenes::{joint_grid, pyramid};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::geometry::Real;
use impact2d::stepper::{Discrete, World};

fn largest_gap(a: &[(Real, Real)], b: &[(Real, Real)]) -> Real {
    a.iter()
        .zip(b)
        .map(|(p, q)| (p.0 - q.0).hypot(p.1 - q.1))
        .fold(0.0, Real::max)
}

#[test]
fn joint_grid_starts_alike_and_swings_alike_in_box2d() {
    let grid = joint_grid(10);
    let (mut impact, _, _): (World<RTreeBroadphase, Discrete>, _, _) =
        grid.build().expect("valid scene");
    let rapier = Rapier::from_jointed(&grid);
    let mut box2d = Box2d::from_jointed(&grid).expect("valid Box2D scene");
    let home = impact_positions(&impact);
    assert_eq!(
        home.len(),
        100 - 7,
        "the top row's 7 middle bodies are static"
    );
    assert_same_start("rapier2d", &home, &rapier.positions());
    assert_same_start("Box2D", &home, &box2d.positions());
    for _ in 0..60 {
        impact.step(DT).expect("valid step");
        box2d.step(DT);
    }
    let gap = largest_gap(&impact_positions(&impact), &box2d.positions());
    let (si, sb) = (impact_stretch(&impact), box2d.stretch(&grid));
    println!("after 60 steps: largest gap {gap:.2e}, stretch impact {si:.3e} Box2D {sb:.3e}");
    assert!(gap < 5e-3, "impact and Box2D part by {gap}");
    assert!((si - sb).abs() < 0.1 * si, "stretch {si} against {sb}");
}

#[test]
fn pyramid_starts_alike_and_stands_in_every_engine() {
    let scene = pyramid(6);
    let (mut impact, _): (World<RTreeBroadphase, Discrete>, _) =
        scene.build().expect("valid scene");
    let mut rapier = Rapier::from_scene(&scene);
    let mut box2d = Box2d::from_scene(&scene).expect("valid Box2D scene");
    let home = impact_positions(&impact);
    assert_eq!(home.len(), 21);
    assert_same_start("rapier2d", &home, &rapier.positions());
    assert_same_start("Box2D", &home, &box2d.positions());
    for _ in 0..120 {
        impact.step(DT).expect("valid step");
        rapier.world.step();
        box2d.step(DT);
    }
    for (name, now) in [
        ("impact", impact_positions(&impact)),
        ("rapier2d", rapier.positions()),
        ("Box2D", box2d.positions()),
    ] {
        let gap = largest_gap(&home, &now);
        assert!(gap < 0.05, "{name}'s pyramid moved {gap}");
    }
}
