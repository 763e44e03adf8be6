//! How high a dropped body bounces, under each stepper: the exact bounce of the CCD steppers
//! beside `Discrete` and beside a body without the `ccd` flag (which every stepper leaves to
//! the contact solver).
//!
//! A disc of radius 0.5 and a flat box 1 x 0.5 are dropped from 2 m above the ground, gravity
//! 9.81, with restitution 1, 0.8 and 0.5, at steps of 1/240, 1/60 and 1/15 s. The CCD
//! steppers check the body at every step (`threshold_radii_per_step` 0; at the default, a body that
//! moves less than half its size per step is left to the contact solver, as the last column).
//! For each run the table gives the first rebound's height over `e^2` times the drop (1 is
//! exact), and for restitution 1 the apex after ten bounces over the first (1 is exact).
//! Heights are measured from the state at step ends as `y + v_y^2 / (2 g)`, above the height
//! the body's centre has at the target separation from the ground.
//!
//! Run with `cargo run --release --example bounce_heights`.

use impact2d::prelude::*;

const G: Real = 9.81;
const DROP: Real = 2.0;

/// The first rebound's height over `e^2 DROP`, and the apex after ten bounces over the first
/// apex (restitution 1 only; `NaN` otherwise or if the run had fewer bounces).
fn bounces<S: Stepper>(stepper: S, box_shaped: bool, ccd: bool, e: Real, dt: Real) -> (Real, Real) {
    let mut world: World<RTreeBroadphase, S> = World::with_parts(
        WorldSettings::with_gravity(Vector::new(0.0, -G)),
        RTreeBroadphase::default(),
        stepper,
    )
    .unwrap();
    world
        .create_body(
            RigidBodyDef::fixed(ConvexPolygon::rectangle(20.0, 1.0).unwrap().into())
                .pose(Isometry::translation(0.0, -1.0)),
        )
        .unwrap();
    let (shape, half): (Shape, Real) = if box_shaped {
        (ConvexPolygon::rectangle(0.5, 0.25).unwrap().into(), 0.25)
    } else {
        (Circle::new(0.5).unwrap().into(), 0.5)
    };
    // The centre's height at the target separation from the ground.
    let rest = half + impact2d::geometry::tolerances::TOI_TARGET_SEPARATION;
    let body = world
        .create_body(
            RigidBodyDef::new(shape)
                .pose(Isometry::translation(0.0, half + DROP))
                .restitution(e)
                .friction(0.6)
                .ccd(ccd),
        )
        .unwrap();
    let apex = |w: &World<RTreeBroadphase, S>| {
        let b = w.body(body).unwrap();
        b.pose().translation.y + b.linvel().y * b.linvel().y / (2.0 * G)
    };
    // The first step end after each impact: the state of the rebound. Without events (the
    // contact solver's bounces), a bounce is where the velocity turns upward.
    let mut rebounds = Vec::new();
    let mut last_vy = 0.0;
    let steps = (12.0 * 2.0 * (2.0 * DROP / G).sqrt() / dt) as usize;
    for _ in 0..steps {
        world.step(dt).unwrap();
        let vy = world.body(body).unwrap().linvel().y;
        if last_vy < 0.0 && vy > 0.0 {
            rebounds.push(apex(&world) - rest);
        }
        last_vy = vy;
        if rebounds.len() > 10 {
            break;
        }
    }
    let drop = half + DROP - rest;
    let first = rebounds.first().map_or(Real::NAN, |h| h / (e * e * drop));
    let tenth = if e == 1.0 && rebounds.len() > 10 {
        rebounds[10] / rebounds[0]
    } else {
        Real::NAN
    };
    (first, tenth)
}

/// The CCD steppers, checking every moving CCD body.
fn toi() -> FirstTimeOfImpact {
    FirstTimeOfImpact::new(FirstTimeOfImpactSettings {
        threshold_radii_per_step: 0.0,
        ..FirstTimeOfImpactSettings::default()
    })
    .unwrap()
}

fn clamp() -> MotionClamping {
    MotionClamping::new(MotionClampingSettings {
        threshold_radii_per_step: 0.0,
        ..MotionClampingSettings::default()
    })
    .unwrap()
}

fn main() {
    println!("rebound / (e^2 drop), and for e = 1 the apex after ten bounces / the first");
    println!(
        "{:<6} {:>4} {:>7}  {:>17} {:>17} {:>17} {:>17}",
        "body", "e", "dt", "FirstTimeOfImpact", "MotionClamping", "Discrete", "no ccd flag"
    );
    let cell = |(first, tenth): (Real, Real)| {
        if tenth.is_nan() {
            format!("{first:>8.4}")
        } else {
            format!("{first:>8.4} {tenth:>8.4}")
        }
    };
    for box_shaped in [false, true] {
        for e in [1.0, 0.8, 0.5] {
            for (dt, label) in [
                (1.0 / 240.0, "1/240"),
                (1.0 / 60.0, "1/60"),
                (1.0 / 15.0, "1/15"),
            ] {
                println!(
                    "{:<6} {:>4} {:>7}  {:>17} {:>17} {:>17} {:>17}",
                    if box_shaped { "box" } else { "disc" },
                    e,
                    label,
                    cell(bounces(toi(), box_shaped, true, e, dt)),
                    cell(bounces(clamp(), box_shaped, true, e, dt)),
                    cell(bounces(Discrete, box_shaped, true, e, dt)),
                    cell(bounces(
                        FirstTimeOfImpact::default(),
                        box_shaped,
                        false,
                        e,
                        dt
                    )),
                );
            }
        }
    }
}
