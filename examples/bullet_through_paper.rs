//! Bullet through paper, stepped by a whole World with each of the three steppers.
//!
//! A disc of radius 0.05 flies at up to 10,000 units/s toward a static wall 1 mm thick (and a
//! zero-thickness segment), 60 steps per second. For each case the table says whether the
//! bullet ended on the far side of the wall (tunnelled), when in its first step it met the
//! wall (the time of impact, as a fraction of the step: where `MotionClamping` stopped it,
//! where `FirstTimeOfImpact` resolved the impact), how much simulated time was lost, and how
//! many impacts were resolved inside the steps. The trajectories are drawn to an SVG file:
//! `Discrete` goes through, `MotionClamping` stops dead at the wall, `FirstTimeOfImpact`
//! meets the wall mid-step and slides along it for the rest of the step.
//!
//! `cargo run --release --example bullet_through_paper [-- OUTPUT.svg]`
//! (default `target/bullet_through_paper.svg`).

use impact_testkit::scenes::{self, Wall};
use impact2d::broadphase::RTreeBroadphase;
use impact2d::prelude::*;
use impact2d::stepper::{Discrete, FirstTimeOfImpact, MotionClamping, Stepper, World};
use std::fmt::Write as _;

const DT: Real = 1.0 / 60.0;
const STEPS: usize = 3;

/// One run: the bullet's centre after every step and at every impact, whether it ended past
/// the wall, the first time of impact, the total time lost and the impacts resolved.
struct Run {
    path: Vec<Point>,
    tunnelled: bool,
    impact_fraction: Option<Real>,
    time_lost: Real,
    events: usize,
}

/// What a stepper's report says of one step: the first time of impact (fraction of the
/// step), if any, and the time lost.
type Reader<S> = fn(&<S as Stepper>::Report) -> (Option<Real>, Real);

fn run<S: Stepper + Default>(
    speed: Real,
    angle: Real,
    wall: Wall,
    read: Reader<S>,
) -> Result<Run, Box<dyn std::error::Error>> {
    let (mut world, handles): (World<RTreeBroadphase, S>, _) =
        scenes::bullet_through_paper(speed, angle, wall).build()?;
    let bullet = handles[1];
    let center = |w: &World<RTreeBroadphase, S>| w.body(bullet).map(|b| b.center_of_mass());
    let mut path = vec![center(&world).ok_or("bullet missing")?];
    let (mut impact_fraction, mut time_lost, mut events) = (None, 0.0, 0);
    for _ in 0..STEPS {
        let report = world.step(DT)?;
        let (fraction, lost) = read(&report.stepper);
        impact_fraction = impact_fraction.or(fraction);
        time_lost += lost;
        // Each impact is a corner of the path: where the bullet met the wall.
        for event in world.events() {
            path.push(event.point());
        }
        events += world.events().len();
        path.push(center(&world).ok_or("bullet missing")?);
    }
    let tunnelled = path.iter().any(|p| p.x > 0.0);
    Ok(Run {
        path,
        tunnelled,
        impact_fraction,
        time_lost,
        events,
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let output = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/bullet_through_paper.svg".to_owned());
    let angle: Real = 0.3;
    println!(
        "bullet r = {} toward a wall at x = 0, {} steps at 60 Hz, aimed {:.1} rad off the normal",
        scenes::BULLET_RADIUS,
        STEPS,
        angle
    );
    println!(
        "{:>18} {:>8} {:>7} {:>10} {:>15} {:>14} {:>7}",
        "stepper", "wall", "speed", "tunnelled", "time of impact", "time lost (s)", "events"
    );
    let mut svg_paths = String::new();
    for wall in [Wall::Thin, Wall::Segment] {
        for speed in [100.0, 1_000.0, 10_000.0] {
            let discrete = run::<Discrete>(speed, angle, wall, |_| (None, 0.0))?;
            let clamping = run::<MotionClamping>(speed, angle, wall, |r| {
                (r.clamped.first().map(|c| c.fraction), r.time_lost)
            })?;
            let first_toi = run::<FirstTimeOfImpact>(speed, angle, wall, |r| (None, r.time_lost))?;
            for (name, r, colour) in [
                ("Discrete", &discrete, "#d62728"),
                ("MotionClamping", &clamping, "#1f77b4"),
                ("FirstTimeOfImpact", &first_toi, "#2ca02c"),
            ] {
                let fraction = r.impact_fraction.or_else(|| {
                    // FirstTimeOfImpact's events carry their fraction; the first is the wall.
                    (r.events > 0)
                        .then(|| first_event_fraction(speed, angle, wall))
                        .flatten()
                });
                println!(
                    "{name:>18} {:>8} {speed:>7} {:>10} {:>15} {:>14.6} {:>7}",
                    format!("{wall:?}"),
                    if r.tunnelled { "TUNNELS" } else { "no" },
                    fraction.map_or("-".to_owned(), |f| format!("{f:.6}")),
                    r.time_lost,
                    r.events,
                );
                let points: Vec<String> = r
                    .path
                    .iter()
                    .map(|p| {
                        format!(
                            "{:.3},{:.3}",
                            400.0 + 250.0 * p.x.clamp(-1.6, 1.6),
                            300.0 - 250.0 * p.y.clamp(-1.2, 1.2)
                        )
                    })
                    .collect();
                writeln!(
                    svg_paths,
                    r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.5" stroke-opacity="0.7"/>"#,
                    points.join(" ")
                )?;
            }
        }
    }
    let svg = format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">"#,
            "\n<rect width=\"800\" height=\"600\" fill=\"white\"/>\n",
            "<line x1=\"400\" y1=\"0\" x2=\"400\" y2=\"600\" stroke=\"black\" stroke-width=\"2\"/>\n",
            "<text x=\"410\" y=\"20\" font-family=\"sans-serif\" font-size=\"14\">wall (1 mm / zero thickness)</text>\n",
            "<text x=\"20\" y=\"20\" font-family=\"sans-serif\" font-size=\"14\" fill=\"#d62728\">Discrete (tunnels)</text>\n",
            "<text x=\"20\" y=\"40\" font-family=\"sans-serif\" font-size=\"14\" fill=\"#1f77b4\">MotionClamping (stops at the wall, loses time)</text>\n",
            "<text x=\"20\" y=\"60\" font-family=\"sans-serif\" font-size=\"14\" fill=\"#2ca02c\">FirstTimeOfImpact (meets the wall mid-step, slides on)</text>\n",
            "{}</svg>\n"
        ),
        svg_paths
    );
    if let Some(parent) = std::path::Path::new(&output).parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(&output, svg)?;
    println!("\ntrajectories written to {output} (positions clamped to the drawing)");
    Ok(())
}

/// The fraction of the step at which `FirstTimeOfImpact` resolved the first impact.
fn first_event_fraction(speed: Real, angle: Real, wall: Wall) -> Option<Real> {
    let (mut world, _): (World<RTreeBroadphase, FirstTimeOfImpact>, _) =
        scenes::bullet_through_paper(speed, angle, wall)
            .build()
            .ok()?;
    for _ in 0..STEPS {
        world.step(DT).ok()?;
        if let Some(event) = world.events().first() {
            return Some(event.fraction);
        }
    }
    None
}
