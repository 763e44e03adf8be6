//! Invariant: under both CCD steppers, a body dropped onto the ground rebounds exactly as a
//! body falling under gravity does, for any step length, gravity, size and restitution:
//! - restitution `e` in (0, 1]: the rebound reaches `e^2` of the height above the impact,
//!   within 1% plus `|g| dt^2 / 4`;
//! - restitution 1: the apex stays within 0.5% of the drop's over 50 bounces;
//! - restitution 0: the body rebounds no higher than the linear slop.
//!
//! Heights are measured from the state at step ends as `y + v_y^2 / (2 |g|)`, above the
//! height of the body's centre at the impact event; a bounce counts when its approach speed
//! exceeds both the restitution threshold and `4 |g| dt`. The bodies are a disc and a flat
//! box (which lands on two corners at once and must rebound without spin, when its bounce
//! outlasts the step), checked by the
//! stepper on the step of every impact (the velocity threshold is drawn below the motion
//! of that step). The oracle is the closed form itself.

mod common;

use impact_broadphase::{Broadphase, RTreeBroadphase};
use impact_geometry::tolerances::{LINEAR_SLOP, TOI_TARGET_SEPARATION};
use impact_geometry::{Circle, ConvexPolygon, Isometry, Real, Shape, Vector};
use impact_solver::RigidBodyDef;
use impact_stepper::{
    CollisionEvent, FirstTimeOfImpact, FirstTimeOfImpactSettings, MotionClamping,
    MotionClampingSettings, Stepper, World, WorldSettings,
};
use proptest::prelude::*;

/// One drop: the body, its half height (the centre's height above the ground at contact),
/// gravity, the step, the drop height (of the centre above its height at contact) and the
/// restitution.
#[derive(Debug, Clone, Copy)]
struct Drop {
    shape: (bool, Real, Real),
    g: Real,
    dt: Real,
    height: Real,
    restitution: Real,
    /// Where the velocity threshold is, as a fraction of the motion at the impact step.
    threshold: Real,
}

impl Drop {
    fn shape(&self) -> Shape {
        let (disc, a, b) = self.shape;
        if disc {
            Circle::new(a).unwrap().into()
        } else {
            ConvexPolygon::rectangle(a, b).unwrap().into()
        }
    }

    /// The centre's height above the ground when the body rests on it.
    fn half_height(&self) -> Real {
        let (disc, a, b) = self.shape;
        if disc { a } else { b }
    }

    fn impact_speed(&self) -> Real {
        (2.0 * self.g * self.height).sqrt()
    }

    /// A velocity threshold (bounding radii per step) under which the body is checked on
    /// the step it reaches the ground.
    fn threshold_radii_per_step(&self) -> Real {
        let shape = self.shape();
        let r = shape.bounding_radius(&shape.mass_properties(1.0).unwrap().local_center);
        let speed = (self.impact_speed() - self.g * self.dt).max(0.0);
        self.threshold * speed * self.dt / r
    }

    fn settings(&self) -> WorldSettings {
        WorldSettings::with_gravity(Vector::new(0.0, -self.g))
    }

    fn body(&self) -> RigidBodyDef {
        let y = self.half_height() + TOI_TARGET_SEPARATION + self.height;
        RigidBodyDef::new(self.shape())
            .pose(Isometry::translation(0.0, y))
            .restitution(self.restitution)
            .friction(0.6)
            .ccd(true)
    }

    fn ground(&self) -> RigidBodyDef {
        RigidBodyDef::fixed(ConvexPolygon::rectangle(50.0, 1.0).unwrap().into())
            .pose(Isometry::translation(0.0, -1.0))
    }

    fn counts(&self, e: &CollisionEvent, threshold: Real) -> bool {
        e.approach_speed() > threshold.max(4.0 * self.g * self.dt)
    }
}

/// What a run saw: for each counted bounce, the height above the impact before and after
/// it, and the largest spin.
struct Bounces {
    heights: Vec<(Real, Real)>,
    spin: Real,
}

/// Runs `drop` in `world` until `bounces` counted bounces or `steps` steps.
fn run<B: Broadphase, S: Stepper>(
    mut world: World<B, S>,
    drop: &Drop,
    bounces: usize,
    steps: usize,
) -> Bounces {
    world.create_body(drop.ground()).unwrap();
    let body = world.create_body(drop.body()).unwrap();
    let apex = |world: &World<B, S>| {
        let b = world.body(body).unwrap();
        b.pose().translation.y + b.linvel().y * b.linvel().y / (2.0 * drop.g)
    };
    let threshold = world.settings().solver.restitution_threshold;
    let mut out = Bounces {
        heights: Vec::new(),
        spin: 0.0,
    };
    let mut before = apex(&world);
    for _ in 0..steps {
        world.step(drop.dt).unwrap();
        let after = apex(&world);
        let spin = world.body(body).unwrap().angvel().abs();
        out.spin = out.spin.max(spin);
        if let Some(e) = world.events().iter().find(|e| drop.counts(e, threshold)) {
            // The contact point is midway between the ground's top (y = 0) and the body.
            let at = 2.0 * e.point().y + drop.half_height();
            out.heights.push((before - at, after - at));
            if out.heights.len() == bounces {
                break;
            }
        }
        before = after;
    }
    out
}

fn toi(drop: &Drop) -> World<RTreeBroadphase, FirstTimeOfImpact> {
    let stepper = FirstTimeOfImpact::new(FirstTimeOfImpactSettings {
        threshold_radii_per_step: drop.threshold_radii_per_step(),
        ..FirstTimeOfImpactSettings::default()
    })
    .unwrap();
    World::with_parts(drop.settings(), RTreeBroadphase::default(), stepper).unwrap()
}

fn clamp(drop: &Drop) -> World<RTreeBroadphase, MotionClamping> {
    let stepper = MotionClamping::new(MotionClampingSettings {
        threshold_radii_per_step: drop.threshold_radii_per_step(),
        ..MotionClampingSettings::default()
    })
    .unwrap();
    World::with_parts(drop.settings(), RTreeBroadphase::default(), stepper).unwrap()
}

/// Steps enough for `bounces` bounces of `drop`, with a step per bounce for the time a
/// clamp loses.
fn steps_for(drop: &Drop, bounces: usize) -> usize {
    let flight = 2.0 * (2.0 * drop.height / drop.g).sqrt();
    ((bounces as Real + 1.0) * (flight / drop.dt + 1.0)) as usize + 10
}

fn drops(restitution: impl Strategy<Value = Real>) -> impl Strategy<Value = Drop> {
    (
        any::<bool>(),
        0.05..1.0f64,
        0.02..0.5f64,
        1.0..30.0f64,
        1.0 / 240.0..1.0 / 15.0f64,
        0.2..5.0f64,
        restitution,
        0.0..0.9f64,
    )
        .prop_map(|(disc, a, b, g, dt, height, restitution, threshold)| Drop {
            shape: (disc, a, b),
            g,
            dt,
            height,
            restitution,
            threshold,
        })
        // A bounce that counts: faster than the threshold (1) and four steps of gravity.
        .prop_filter("a bounce that counts", |d| {
            d.impact_speed() > 1.05_f64.max(4.5 * d.g * d.dt)
        })
}

fn check_rebound(drop: &Drop, b: &Bounces, who: &str) -> Result<(), TestCaseError> {
    prop_assert!(!b.heights.is_empty(), "{who}: no bounce");
    let e2 = drop.restitution * drop.restitution;
    let (before, after) = b.heights[0];
    let slack = 0.01 * e2 * before + drop.g * drop.dt * drop.dt / 4.0;
    prop_assert!(
        (after - e2 * before).abs() <= slack,
        "{who}: rebound {after} after {before} (e^2 = {e2})"
    );
    // A bounce that outlasts its step leaves without spin (the manifold's two points
    // resolved together); a slower one lands again within the step, on the contact
    // solver's two points, which Gauss-Seidel does not treat alike.
    if drop.restitution * drop.impact_speed() > drop.g * drop.dt {
        prop_assert!(b.spin < 1e-9, "{who}: spin {}", b.spin);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_dropped_body_rebounds_to_e_squared_of_its_height(drop in drops(0.05..=1.0f64)) {
        let steps = steps_for(&drop, 1);
        check_rebound(&drop, &run(toi(&drop), &drop, 1, steps), "FirstTimeOfImpact")?;
        check_rebound(&drop, &run(clamp(&drop), &drop, 1, steps), "MotionClamping")?;
    }

    #[test]
    fn an_inelastic_body_does_not_rebound(drop in drops(Just(0.0))) {
        let steps = steps_for(&drop, 1);
        for (who, b) in [
            ("FirstTimeOfImpact", run(toi(&drop), &drop, 1, steps)),
            ("MotionClamping", run(clamp(&drop), &drop, 1, steps)),
        ] {
            prop_assert!(!b.heights.is_empty(), "{who}: no impact");
            let (_, after) = b.heights[0];
            prop_assert!(after <= LINEAR_SLOP, "{who}: rebounds {after}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn an_elastic_body_keeps_its_apex_over_fifty_bounces(drop in drops(Just(1.0))) {
        let steps = steps_for(&drop, 50);
        for (who, b) in [
            ("FirstTimeOfImpact", run(toi(&drop), &drop, 50, steps)),
            ("MotionClamping", run(clamp(&drop), &drop, 50, steps)),
        ] {
            prop_assert_eq!(b.heights.len(), 50, "{}", who);
            for (i, &(before, after)) in b.heights.iter().enumerate() {
                let drift = (after - drop.height).abs().max((before - drop.height).abs());
                prop_assert!(
                    drift <= 0.005 * drop.height,
                    "{}: bounce {}: {} then {} of {}", who, i, before, after, drop.height
                );
            }
        }
    }
}
