//! Timing, not a check (ignored by default; run with `cargo test -p impact-solver --release
//! --test joints_grid -- --ignored --nocapture`): a grid of 100 x 100 small discs, each
//! jointed by revolute joints to its right and lower neighbours (19,800 joints) and the top
//! row to a fixed body (100 more), no contacts; the mean time of a step over 60 steps after
//! 60 of warm-up.

mod common;

use common::{JointScene, anchor_body, disc};
use impact_geometry::{Point, Real, Vector};
use impact_solver::{JointDef, RevoluteJoint};
use std::time::Instant;

#[test]
#[ignore = "a timing, run on demand in release"]
fn a_grid_of_joints_per_step() {
    const N: usize = 100;
    let mut scene = JointScene::new(Vector::new(0.0, -10.0));
    let ground = scene.add(anchor_body(Point::new(0.0, 1.0)));
    let mut grid = Vec::with_capacity(N * N);
    for row in 0..N {
        for column in 0..N {
            let at = Point::new(column as Real, -(row as Real));
            grid.push(scene.add(disc(0.4, 1.0, at, Vector::zeros())));
        }
    }
    let hinge = || RevoluteJoint::default().into();
    for row in 0..N {
        for column in 0..N {
            let here = grid[row * N + column];
            let at = Point::new(column as Real, -(row as Real));
            if column + 1 < N {
                let right = grid[row * N + column + 1];
                let def = JointDef::at_world_anchors(&scene.bodies, here, right, (at, at), hinge());
                scene.joints.insert(&scene.bodies, def.unwrap()).unwrap();
            }
            if row + 1 < N {
                let below = grid[(row + 1) * N + column];
                let def = JointDef::at_world_anchors(&scene.bodies, here, below, (at, at), hinge());
                scene.joints.insert(&scene.bodies, def.unwrap()).unwrap();
            }
            if row == 0 {
                scene.join(ground, here, at, hinge());
            }
        }
    }
    assert_eq!(scene.joints.len(), 2 * N * (N - 1) + N);
    for _ in 0..60 {
        scene.step();
    }
    let start = Instant::now();
    for _ in 0..60 {
        scene.step();
    }
    let mean = start.elapsed().as_secs_f64() / 60.0;
    let lowest = grid
        .iter()
        .map(|h| scene.center(*h).y)
        .fold(Real::INFINITY, Real::min);
    println!(
        "joint grid {N}x{N}: {} joints, {:.2} ms per step (mean of 60 after 60), lowest disc at y = {lowest:.3}",
        scene.joints.len(),
        mean * 1e3
    );
    assert!(lowest.is_finite());
}
