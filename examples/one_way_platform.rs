//! A one-way platform, made by a pre-solve hook, under the three steppers.
//!
//! A static slab 20 wide and 0.2 thick at `y = 0`; a disc of radius 0.25 without restitution.
//! The hook keeps a contact of the platform only where the normal away from the platform
//! points up, and disables every other one for the step: a body coming from below passes
//! through, a body coming from above lands. The hook is asked for every contact manifold and,
//! under the CCD steppers, before every impact and clamp, with the impact's point and normal,
//! so a bullet is judged at the instant it meets the platform, wherever the step would have
//! taken it.
//!
//! Two runs per stepper. The jump: the disc starts 1.5 below the platform at 11 units/s
//! upward, passes through it, comes down on it and rests there. The bullet: 1.5 above at
//! 10,000 units/s downward, which `Discrete` cannot see (it has no continuous collision
//! detection: it tunnels, as without the hook, and the table says so), and both CCD steppers
//! stop on the platform. The program checks what it prints.
//!
//! `cargo run --release --example one_way_platform`

use impact2d::broadphase::RTreeBroadphase;
use impact2d::prelude::*;
use impact2d::stepper::{PreSolveContact, Stepper};

const DT: Real = 1.0 / 60.0;
const RADIUS: Real = 0.25;
const TOP: Real = 0.1;

/// One run: the highest and lowest the disc's centre was at a step's end, where it ended,
/// and how fast it moved then.
struct Run {
    highest: Real,
    lowest: Real,
    end: Point,
    end_speed: Real,
}

fn run<S: Stepper + Default>(start_y: Real, vy: Real) -> Result<Run, Box<dyn std::error::Error>> {
    let mut world: World<RTreeBroadphase, S> =
        World::new(WorldSettings::with_gravity(Vector::new(0.0, -10.0)))?;
    let platform = world.create_body(
        RigidBodyDef::fixed(ConvexPolygon::rectangle(10.0, TOP)?.into()).friction(0.6),
    )?;
    let disc = world.create_body(
        RigidBodyDef::new(Circle::new(RADIUS)?.into())
            .pose(Isometry::translation(0.0, start_y))
            .linvel(Vector::new(0.0, vy))
            .ccd(true),
    )?;
    // The one-way rule: a contact of the platform is kept only if its normal away from the
    // platform points up (within 60 degrees); every other contact of the platform is
    // disabled for this step, and contacts of other bodies are left alone.
    world.set_pre_solve(move |contact: &mut PreSolveContact<'_>| {
        if let Some(normal) = contact.normal_from(platform)
            && normal.y < 0.5
        {
            contact.disable();
        }
    });
    let (mut highest, mut lowest) = (Real::NEG_INFINITY, Real::INFINITY);
    for _ in 0..240 {
        world.step(DT)?;
        let y = world.body(disc).ok_or("disc missing")?.pose().translation.y;
        highest = highest.max(y);
        lowest = lowest.min(y);
    }
    let body = world.body(disc).ok_or("disc missing")?;
    Ok(Run {
        highest,
        lowest,
        end: Point::from(body.pose().translation.vector),
        end_speed: body.linvel().norm(),
    })
}

fn report<S: Stepper + Default>(name: &str) -> Result<(Run, Run), Box<dyn std::error::Error>> {
    let jump = run::<S>(-1.5, 11.0)?;
    let bullet = run::<S>(1.5, -10_000.0)?;
    for (what, r) in [("jump from below", &jump), ("bullet from above", &bullet)] {
        println!(
            "| {name:<17} | {what:<17} | {:>10.3} | {:>10.3} | {:>10.3} | {:>9.3} |",
            r.highest, r.lowest, r.end.y, r.end_speed
        );
    }
    Ok((jump, bullet))
}

/// Whether the disc ended resting on the platform's top.
fn rests_on_top(r: &Run) -> bool {
    (r.end.y - (TOP + RADIUS)).abs() < 0.02 && r.end_speed < 0.1
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!(
        "A disc of radius {RADIUS} and a one-way slab whose top is at y = {TOP}; 4 s at 60 Hz."
    );
    println!(
        "Heights are the disc's centre at step ends; resting on the slab is y = {}.",
        TOP + RADIUS
    );
    println!();
    println!(
        "| stepper           | run               |    highest |     lowest |      end y | end speed |"
    );
    println!("|---|---|---:|---:|---:|---:|");
    let (toi_jump, toi_bullet) = report::<FirstTimeOfImpact>("FirstTimeOfImpact")?;
    let (clamp_jump, clamp_bullet) = report::<MotionClamping>("MotionClamping")?;
    let (discrete_jump, discrete_bullet) = report::<Discrete>("Discrete")?;
    println!();

    // Every stepper lets the jump through and lands it on the platform.
    for (name, jump) in [
        ("FirstTimeOfImpact", &toi_jump),
        ("MotionClamping", &clamp_jump),
        ("Discrete", &discrete_jump),
    ] {
        assert!(
            jump.highest > TOP + RADIUS,
            "{name}: the jump never got above the platform"
        );
        assert!(
            rests_on_top(jump),
            "{name}: the jump did not land on the platform"
        );
    }
    // Both CCD steppers stop the bullet on the platform: it is never below its top by more
    // than half its radius, and it rests there.
    for (name, bullet) in [
        ("FirstTimeOfImpact", &toi_bullet),
        ("MotionClamping", &clamp_bullet),
    ] {
        assert!(
            bullet.lowest > TOP - 0.5 * RADIUS,
            "{name}: the bullet went through"
        );
        assert!(
            rests_on_top(bullet),
            "{name}: the bullet did not stop on the platform"
        );
    }
    // `Discrete` has no continuous collision detection: the bullet crosses the slab inside
    // one step, as it would without the hook.
    assert!(
        discrete_bullet.lowest < -100.0,
        "Discrete stopped the bullet"
    );
    println!("The jump passes up through the platform and lands on it under every stepper;");
    println!(
        "the bullet at 10,000 units/s never passes under FirstTimeOfImpact and MotionClamping,"
    );
    println!("and Discrete, which has no continuous collision detection, lets it through.");
    Ok(())
}
