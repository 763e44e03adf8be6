//! A pyramid of 210 boxes settles and falls asleep; a bullet at 10,000 units/s wakes it.
//!
//! Run: `cargo run --release --example sleeping`.

use impact_testkit::scenes;
use impact2d::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dt = 1.0 / 60.0;
    let (mut world, handles) = scenes::pyramid(20).build::<RTreeBroadphase, FirstTimeOfImpact>()?;
    let boxes = &handles[1..];
    for step in 1..=600 {
        world.step(dt)?;
        if !world.sleep_events().fell_asleep.is_empty() {
            println!(
                "step {step} ({:.2} s): {} boxes fell asleep",
                world.time(),
                world.sleep_events().fell_asleep.len()
            );
        }
        if boxes.iter().all(|&h| world.is_sleeping(h)) {
            break;
        }
    }
    let asleep = world.step(dt)?;
    println!(
        "asleep: {} bodies given a box, {} manifolds, {} sleeping",
        asleep.awake_bodies, asleep.manifolds, asleep.sleeping_bodies
    );
    let bullet = world.create_body(
        RigidBodyDef::new(Circle::new(0.05)?.into())
            .pose(Isometry::translation(-60.0, 0.4))
            .linvel(Vector::new(10_000.0, 0.0))
            .ccd(true),
    )?;
    for _ in 0..3 {
        let report = world.step(dt)?;
        println!(
            "t {:.3} s: {} woken, {} hits, bullet at x = {:.2}",
            world.time(),
            report.woken_bodies,
            world.events().len(),
            world.body(bullet).unwrap().pose().translation.x
        );
    }
    Ok(())
}
