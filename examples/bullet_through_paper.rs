//! Bullet through paper, stepped by a whole World: `Discrete` against `MotionClamping`.
//!
//! A disc of radius 0.05 flies at up to 10,000 units/s toward a static wall 1 mm thick (and a
//! zero-thickness segment), 60 steps per second. For each case the table says whether the
//! bullet ended on the far side of the wall (tunnelled), when in its step it was stopped (the
//! fraction of the step reached, for `MotionClamping`), and how much simulated time the clamp
//! lost. The trajectories are drawn to an SVG file.
//!
//! `cargo run --release --example bullet_through_paper [-- OUTPUT.svg]`
//! (default `target/bullet_through_paper.svg`).

use impact2d::broadphase::RTreeBroadphase;
use impact2d::prelude::*;
use impact2d::stepper::scenes::{self, Wall};
use impact2d::stepper::{Discrete, MotionClamping, Stepper, World};
use std::fmt::Write as _;

const DT: Real = 1.0 / 60.0;
const STEPS: usize = 3;

/// One run: the bullet's centre after every step, whether it ended past the wall, and the
/// first clamp fraction and total time lost (for steppers that clamp).
struct Run {
    path: Vec<Point>,
    tunnelled: bool,
    clamp_fraction: Option<Real>,
    time_lost: Real,
}

fn run<S: Stepper + Default>(
    speed: Real,
    angle: Real,
    wall: Wall,
    clamps: impl Fn(&S::Report) -> (Option<Real>, Real),
) -> Result<Run, Box<dyn std::error::Error>> {
    let (mut world, handles): (World<RTreeBroadphase, S>, _) =
        scenes::bullet_through_paper(speed, angle, wall).build()?;
    let bullet = handles[1];
    let center = |w: &World<RTreeBroadphase, S>| w.body(bullet).map(|b| b.center_of_mass());
    let mut path = vec![center(&world).ok_or("bullet missing")?];
    let (mut clamp_fraction, mut time_lost) = (None, 0.0);
    for _ in 0..STEPS {
        let report = world.step(DT)?;
        let (fraction, lost) = clamps(&report.stepper);
        clamp_fraction = clamp_fraction.or(fraction);
        time_lost += lost;
        path.push(center(&world).ok_or("bullet missing")?);
    }
    let tunnelled = path.last().is_some_and(|p| p.x > 0.0);
    Ok(Run {
        path,
        tunnelled,
        clamp_fraction,
        time_lost,
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
        "{:>16} {:>9} {:>8} {:>10} {:>15} {:>14}",
        "stepper", "wall", "speed", "tunnelled", "clamped at", "time lost (s)"
    );
    let mut svg_paths = String::new();
    for wall in [Wall::Thin, Wall::Segment] {
        for speed in [100.0, 1_000.0, 10_000.0] {
            let discrete = run::<Discrete>(speed, angle, wall, |_| (None, 0.0))?;
            let clamping = run::<MotionClamping>(speed, angle, wall, |r| {
                (r.clamped.first().map(|c| c.fraction), r.time_lost)
            })?;
            for (name, r, colour) in [
                ("Discrete", &discrete, "#d62728"),
                ("MotionClamping", &clamping, "#1f77b4"),
            ] {
                println!(
                    "{name:>16} {:>9} {speed:>8} {:>10} {:>15} {:>14.6}",
                    format!("{wall:?}"),
                    if r.tunnelled { "TUNNELS" } else { "no" },
                    r.clamp_fraction
                        .map_or("-".to_owned(), |f| format!("{f:.6}")),
                    r.time_lost,
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
            "<text x=\"20\" y=\"40\" font-family=\"sans-serif\" font-size=\"14\" fill=\"#1f77b4\">MotionClamping (stops at the wall)</text>\n",
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
