//! A trigger zone that catches bullets: a sensor 1 mm thick, a disc bullet at 10,000 units/s,
//! under the three steppers.
//!
//! The sensor is a static box 1 mm thick and 2 tall, centred 10 units ahead of the bullet
//! (radius 0.05). At 60 Hz the bullet covers 166.7 units a step, so it is before the sensor
//! at the start of the first step and far past it at the end: it is inside for 10.1
//! microseconds. Both CCD steppers follow its course and report the moment its distance to
//! the sensor reaches zero and the moment it becomes positive again; the closed form is
//! `(10 - 0.0005 - 0.05) / 10,000` s and `(10 + 0.0005 + 0.05) / 10,000` s. `Discrete` judges
//! overlaps at the step's ends, where the bullet is outside, and reports nothing.
//!
//! A second run puts a wall 10 units behind the sensor (restitution 1): under
//! `FirstTimeOfImpact` the bullet bounces inside the step and crosses the sensor again on
//! its way back (four events in one step); under `MotionClamping` it stops at the wall for
//! the rest of the step. The program checks what it prints.
//!
//! `cargo run --release --example trigger_zone`

use impact2d::broadphase::RTreeBroadphase;
use impact2d::prelude::*;

const DT: Real = 1.0 / 60.0;
const SPEED: Real = 10_000.0;
const RADIUS: Real = 0.05;
const HALF_THICKNESS: Real = 0.0005;
const SENSOR_X: Real = 10.0;
const WALL_X: Real = 20.0;

/// The sensor events of the first step, as (begin, time) in time order.
fn crossings<S: Stepper + Default>(
    wall: bool,
) -> Result<Vec<(bool, Real)>, Box<dyn std::error::Error>> {
    let mut world: World<RTreeBroadphase, S> =
        World::new(WorldSettings::with_gravity(Vector::zeros()))?;
    world.create_body(
        RigidBodyDef::fixed(ConvexPolygon::rectangle(HALF_THICKNESS, 1.0)?.into())
            .pose(Isometry::translation(SENSOR_X, 0.0))
            .sensor(true),
    )?;
    if wall {
        world.create_body(
            RigidBodyDef::fixed(
                Segment::new(Point::new(WALL_X, -1.0), Point::new(WALL_X, 1.0))?.into(),
            )
            .restitution(1.0),
        )?;
    }
    world.create_body(
        RigidBodyDef::new(Circle::new(RADIUS)?.into())
            .linvel(Vector::new(SPEED, 0.0))
            .restitution(1.0)
            .ccd(true),
    )?;
    world.step(DT)?;
    let events = world.sensor_events();
    let mut all: Vec<(bool, Real)> = events
        .begin()
        .iter()
        .map(|e| (true, e.time))
        .chain(events.end().iter().map(|e| (false, e.time)))
        .collect();
    all.sort_by(|x, y| x.1.total_cmp(&y.1));
    Ok(all)
}

fn row(stepper: &str, events: &[(bool, Real)], want: &[(bool, Real)]) {
    if events.is_empty() {
        println!(
            "| {stepper:<17} | (none)     |                  |                  |           |"
        );
    }
    for (&(begin, t), &(_, exact)) in events
        .iter()
        .zip(want.iter().chain(core::iter::repeat(&(false, Real::NAN))))
    {
        println!(
            "| {stepper:<17} | {:<10} | {:>16.12} | {:>16.12} | {:>9.1e} |",
            if begin { "begin" } else { "end" },
            t,
            exact,
            (t - exact).abs()
        );
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let enter = (SENSOR_X - HALF_THICKNESS - RADIUS) / SPEED;
    let leave = (SENSOR_X + HALF_THICKNESS + RADIUS) / SPEED;
    // With the wall: the bullet meets it at the stepper's target separation (5 mm), turns,
    // and crosses the sensor again; the time it turned is the closed form's too.
    let turn = (WALL_X - RADIUS - 0.005) / SPEED;
    let back_in = turn + (WALL_X - 0.005 - RADIUS - (SENSOR_X + HALF_THICKNESS + RADIUS)) / SPEED;
    let back_out = turn + (WALL_X - 0.005 - RADIUS - (SENSOR_X - HALF_THICKNESS - RADIUS)) / SPEED;
    let once = [(true, enter), (false, leave)];
    let twice = [
        (true, enter),
        (false, leave),
        (true, back_in),
        (false, back_out),
    ];

    println!(
        "A disc of radius {RADIUS} at {SPEED} units/s through a sensor 1 mm thick, one step at 60 Hz."
    );
    println!("Times are seconds from the step's start; exact is the closed form.");
    println!();
    println!(
        "| stepper           | event      |        time (s)  |        exact (s) |     error |"
    );
    println!("|---|---|---:|---:|---:|");
    let toi = crossings::<FirstTimeOfImpact>(false)?;
    let clamp = crossings::<MotionClamping>(false)?;
    let discrete = crossings::<Discrete>(false)?;
    row("FirstTimeOfImpact", &toi, &once);
    row("MotionClamping", &clamp, &once);
    row("Discrete", &discrete, &once);
    println!();
    println!(
        "With a wall {} units behind the sensor (restitution 1):",
        WALL_X - SENSOR_X
    );
    println!();
    println!(
        "| stepper           | event      |        time (s)  |        exact (s) |     error |"
    );
    println!("|---|---|---:|---:|---:|");
    let toi_wall = crossings::<FirstTimeOfImpact>(true)?;
    let clamp_wall = crossings::<MotionClamping>(true)?;
    row("FirstTimeOfImpact", &toi_wall, &twice);
    row("MotionClamping", &clamp_wall, &once);
    println!();
    println!("Discrete reports nothing: it judges overlaps at the step's ends, and the bullet");
    println!("is outside the sensor at both.");

    let close = |got: &[(bool, Real)], want: &[(bool, Real)]| {
        got.len() == want.len()
            && got
                .iter()
                .zip(want)
                .all(|(g, w)| g.0 == w.0 && (g.1 - w.1).abs() < 1e-9)
    };
    assert!(
        close(&toi, &once) && close(&clamp, &once),
        "{toi:?} {clamp:?}"
    );
    assert!(discrete.is_empty(), "{discrete:?}");
    assert!(close(&toi_wall, &twice), "{toi_wall:?}");
    assert!(close(&clamp_wall, &once), "{clamp_wall:?}");
    Ok(())
}
