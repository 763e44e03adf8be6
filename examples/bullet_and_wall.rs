//! A bullet against paper: the closed-form time of impact catches what discrete stepping
//! misses.
//!
//! A disc of radius 0.05 flies at speeds up to 10,000 units/s toward a wall 1 mm thick (and a
//! zero-thickness sheet) at 60 Hz. For each speed the table shows whether sampling positions
//! once per step ever sees an overlap (discrete collision detection), and what the exact time
//! of impact reports: the fraction of the step, the contact point and the normal.
//!
//! Run with `cargo run --release --example bullet_and_wall`.

use impact2d::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dt = 1.0 / 60.0;
    let bullet = Shape::from(Circle::new(0.05)?);
    let plate = Shape::from(ConvexPolygon::rectangle(0.0005, 2.0)?);
    let paper = Shape::from(Segment::new(Point::new(0.0, -2.0), Point::new(0.0, 2.0))?);
    let wall_x = 3.0;
    let wall_pose = Isometry::translation(wall_x, 0.0);
    let options = ToiOptions::default();

    println!(
        "bullet r = 0.05 toward a wall at x = {wall_x}, 60 Hz, start x = 0, aimed 10 degrees up"
    );
    println!(
        "{:>10} {:>12} {:>9} {:>11} {:>22} {:>18}",
        "speed", "wall", "discrete", "fraction", "point", "normal"
    );
    for speed in [10.0, 100.0, 400.0, 1_000.0, 5_000.0, 10_000.0] {
        let angle: Real = 10f64.to_radians();
        let velocity = Vector::new(angle.cos(), angle.sin()) * speed;
        for (name, wall) in [("plate 1 mm", &plate), ("paper", &paper)] {
            // Discrete detection: the bullet's position at each step boundary, up to the
            // step in which it would reach the wall.
            let steps_to_cross = ((wall_x + 0.1) / (velocity.x * dt)).ceil() as usize;
            let wall_sweep = Sweep::stationary(wall_pose)?;
            let mut discrete_sees_it = false;
            for step in 0..=steps_to_cross {
                let pose = Isometry::translation(
                    velocity.x * dt * step as Real,
                    velocity.y * dt * step as Real,
                );
                let d = impact2d::narrowphase::distance(&bullet, &pose, wall, &wall_pose);
                discrete_sees_it |= d.distance <= 0.0;
            }
            // Continuous: the exact time of impact inside the step that reaches the wall.
            let step_index = ((wall_x - 0.05) / (velocity.x * dt)).floor();
            let start =
                Isometry::translation(velocity.x * dt * step_index, velocity.y * dt * step_index);
            let sweep = Sweep::new(start, Point::origin(), velocity, 0.0, dt)?;
            let toi = time_of_impact(&bullet, &sweep, wall, &wall_sweep, &options);
            let (fraction, point, normal) = match toi {
                Toi::Hit(hit) => (
                    format!("{:.9}", hit.fraction),
                    format!("({:.4}, {:.4})", hit.point.x, hit.point.y),
                    // Adding 0.0 turns a negative zero into a positive one for display.
                    format!("({:.3}, {:.3})", hit.normal.x + 0.0, hit.normal.y + 0.0),
                ),
                other => (format!("{other:?}"), String::new(), String::new()),
            };
            println!(
                "{speed:>10} {name:>12} {:>9} {fraction:>11} {point:>22} {normal:>18}",
                if discrete_sees_it { "hit" } else { "TUNNELS" },
            );
        }
    }
    println!(
        "\nThe contact point lies midway between the surfaces, which stop {} apart (the target separation).",
        options.target_separation()
    );
    Ok(())
}
