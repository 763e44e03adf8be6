//! Invariant: a five-disc Newton's cradle resolved impact by impact, as the event-driven
//! stepper does, passes all the momentum to the last disc: with equal masses, restitution 1
//! and no friction, each impact stops the hitting disc and launches the next at its speed,
//! so after four impacts discs 0..3 are at rest and disc 4 moves at the first disc's speed.

mod common;

use common::{body, disc};
use impact_geometry::{Point, Real, Vector};
use impact_solver::{BodySet, ImpactSettings, resolve_impact};

#[test]
fn momentum_passes_to_the_last_disc() {
    let speed = 1.7;
    let mut bodies = BodySet::new();
    let discs: Vec<_> = (0..5)
        .map(|i| {
            let v = if i == 0 { speed } else { 0.0 };
            bodies
                .insert(
                    disc(
                        0.5,
                        1.0,
                        Point::new(Real::from(i), 0.0),
                        Vector::new(v, 0.0),
                    )
                    .restitution(1.0)
                    .friction(0.0),
                )
                .unwrap()
        })
        .collect();
    let p0 = common::linear_momentum(&bodies);
    let e0 = common::kinetic_energy(&bodies);

    // The discs touch, so no time passes between impacts: resolve the first approaching pair
    // until none approaches, with a cap so a bug cannot loop forever.
    let mut impacts = 0;
    while impacts < 100 {
        let approaching = (0..4)
            .find(|&i| body(&bodies, discs[i]).linvel().x > body(&bodies, discs[i + 1]).linvel().x);
        let Some(i) = approaching else { break };
        let imp = resolve_impact(
            &mut bodies,
            discs[i],
            discs[i + 1],
            Point::new(i as Real + 0.5, 0.0),
            Vector::x(),
            &ImpactSettings::default(),
        )
        .unwrap();
        assert!(imp.normal > 0.0);
        impacts += 1;
    }
    assert_eq!(impacts, 4, "one impact per touching pair");
    for (i, &h) in discs.iter().enumerate() {
        let want = if i == 4 { speed } else { 0.0 };
        let v = body(&bodies, h).linvel();
        assert!((v.x - want).abs() < 1e-12, "disc {i} moves at {v}");
        assert!(v.y.abs() < 1e-12);
    }
    assert!((common::linear_momentum(&bodies) - p0).norm() < 1e-12);
    assert!((common::kinetic_energy(&bodies) - e0).abs() < 1e-12);
}
