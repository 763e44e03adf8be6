//! Invariant: a pyramid of unit boxes with a 20-box base (210 boxes) stands for 10 simulated
//! seconds at 60 Hz. "Falling" is defined per box against its place in the built pyramid:
//! a box has fallen if its centre ends more than half a box (0.5) below its row's height, or
//! more than half a box sideways out of its column, or if any coordinate is not finite. No box
//! may fall, at any step.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::Real;
use impact_stepper::Discrete;
use impact_testkit::scenes;

#[test]
fn pyramid_of_twenty_stands_for_ten_seconds() {
    let (mut world, handles) = scenes::pyramid(20)
        .build::<RTreeBroadphase, Discrete>()
        .unwrap();
    let boxes = &handles[1..];
    assert_eq!(boxes.len(), 210);
    let home: Vec<_> = boxes
        .iter()
        .map(|h| world.body(*h).unwrap().pose().translation.vector)
        .collect();
    let (mut worst_sink, mut worst_side): (Real, Real) = (0.0, 0.0);
    for step in 0..600 {
        world.step(DT).unwrap();
        for (i, (h, home)) in boxes.iter().zip(&home).enumerate() {
            let body = world.body(*h).unwrap();
            let p = body.pose().translation.vector;
            assert!(
                p.x.is_finite() && p.y.is_finite() && body.linvel().norm().is_finite(),
                "box {i} is not finite at step {step}"
            );
            let sink = home.y - p.y;
            let side = (p.x - home.x).abs();
            worst_sink = worst_sink.max(sink);
            worst_side = worst_side.max(side);
            assert!(
                sink <= 0.5 && side <= 0.5,
                "box {i} fell at step {step}: home {home:?}, now {p:?}"
            );
        }
    }
    println!(
        "pyramid of 20: worst sink {worst_sink:.4}, worst sideways shift {worst_side:.4} \
         over 10 s"
    );
    // Standing still, not just standing: the top box ends near its place.
    let top = world
        .body(*boxes.last().unwrap())
        .unwrap()
        .pose()
        .translation
        .vector;
    let top_home = home.last().unwrap();
    assert!(
        (top - top_home).norm() < 0.1,
        "the top box ended at {top:?}, built at {top_home:?}"
    );
}
