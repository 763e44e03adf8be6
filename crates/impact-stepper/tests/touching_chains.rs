//! Invariant: a line of discs, touching or apart, struck anywhere, ends the step with the
//! velocities of the exact one-dimensional sequence of binary collisions (within 1e-9),
//! under `FirstTimeOfImpact`: pairs touching at the start of the step that close are
//! impacts there, one after the other, and pairs apart meet at their exact times.
//!
//! The oracle shares no code with the stepper: it moves the discs on the line from collision
//! to collision, the earliest first and, at the same instant, the leftmost pair first (the
//! stepper's order: by time, then by slots, the discs being created from left to right),
//! each resolved by the textbook formula for two masses with restitution `e`, until no pair
//! closes by more than rounding (an inelastic collapse of touching discs is an endless
//! sequence that converges).

mod common;

use impact_broadphase::BruteForce;
use impact_geometry::{Circle, Isometry, Real, Vector};
use impact_solver::RigidBodyDef;
use impact_stepper::{FirstTimeOfImpact, FirstTimeOfImpactSettings, World, WorldSettings};
use proptest::prelude::*;

const DT: Real = 1.0 / 60.0;
const R: Real = 0.5;

/// One disc of the line: position of its centre, velocity, mass.
#[derive(Debug, Clone, Copy)]
struct Disc {
    x: Real,
    v: Real,
    m: Real,
}

/// The exact sequence of binary collisions of `discs` (left to right) over `dt`, with
/// restitution `e`, if it ends within `ORACLE_COLLISIONS` collisions.
fn oracle(mut discs: Vec<Disc>, e: Real, dt: Real) -> Option<Vec<Real>> {
    let mut t = 0.0;
    for _ in 0..ORACLE_COLLISIONS {
        let mut next: Option<(Real, usize)> = None;
        for i in 0..discs.len() - 1 {
            let (a, b) = (discs[i], discs[i + 1]);
            let closing = a.v - b.v;
            if closing <= 1e-13 * (a.v.abs() + b.v.abs()) {
                continue;
            }
            // Within rounding of touching (the stepper's tolerance) is touching.
            let gap = b.x - a.x - 2.0 * R;
            let gap = if gap < 1e-12 { 0.0 } else { gap };
            let at = t + gap / closing;
            if at <= dt && next.is_none_or(|(best, _)| at < best) {
                next = Some((at, i));
            }
        }
        let Some((at, i)) = next else {
            return Some(discs.iter().map(|d| d.v).collect());
        };
        for d in &mut discs {
            d.x += d.v * (at - t);
        }
        t = at;
        let (a, b) = (discs[i], discs[i + 1]);
        let (p, m) = (a.m * a.v + b.m * b.v, a.m + b.m);
        discs[i].v = (p - b.m * e * (a.v - b.v)) / m;
        discs[i + 1].v = (p + a.m * e * (a.v - b.v)) / m;
    }
    None
}

/// The longest sequence the property covers. An inelastic line of touching discs of mixed
/// masses collapses in an endless sequence (light discs between heavy ones closing by a
/// fraction of their last speed at each round); the stepper hands such a pair to the
/// contact solver after `max_pair_events` impacts, as it does any Zeno sequence.
const ORACLE_COLLISIONS: usize = 2_000;

/// Every impact exact: no target separation, no Zeno rule (a pair may meet again at once),
/// friction off, and a tolerance far under the 1e-9 the velocities are compared to: a pair
/// touching and closing by less than it over the rest of the step is sliding, and an
/// inelastic collapse ends there, its tail of ever smaller collisions (up to a hundred times
/// the last closing speed, between discs of mass ratio 30) left out.
fn stepper() -> FirstTimeOfImpact {
    let mut settings = FirstTimeOfImpactSettings::event_driven();
    settings.toi = settings.toi.with_tolerance(1e-15).unwrap();
    settings.impact.friction = false;
    settings.max_pair_events = u32::MAX;
    settings.max_events = usize::MAX;
    settings.min_advance = 0.0;
    FirstTimeOfImpact::new(settings).unwrap()
}

fn chains() -> impl Strategy<Value = (Vec<Disc>, Real)> {
    (2usize..=10)
        .prop_flat_map(|n| {
            (
                prop::collection::vec(
                    (
                        0.1..10.0f64,
                        -6.0..6.0f64,
                        prop::bool::weighted(0.4),
                        0.0..0.2f64,
                    ),
                    n,
                ),
                prop_oneof![Just(0.0), Just(1.0), 0.0..=1.0f64],
            )
        })
        .prop_map(|(spec, e)| {
            let mut x = 0.0;
            let discs = spec
                .into_iter()
                .map(|(m, v, touching, gap)| {
                    x += 2.0 * R + if touching { 0.0 } else { gap };
                    Disc { x, v, m }
                })
                .collect();
            (discs, e)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn a_line_of_discs_ends_as_the_sequence_of_binary_collisions((discs, e) in chains()) {
        let want = oracle(discs.clone(), e, DT);
        prop_assume!(want.is_some(), "an endless collapse");
        let want = want.unwrap();
        let mut settings = WorldSettings::with_gravity(Vector::zeros());
        settings.solver.restitution_threshold = 0.0;
        let stepper = stepper();
        let mut world: World<BruteForce, FirstTimeOfImpact> =
            World::with_parts(settings, BruteForce::default(), stepper).unwrap();
        let handles: Vec<_> = discs
            .iter()
            .map(|d| {
                let area = core::f64::consts::PI * R * R;
                world
                    .create_body(
                        RigidBodyDef::new(Circle::new(R).unwrap().into())
                            .pose(Isometry::translation(d.x, 0.0))
                            .linvel(Vector::new(d.v, 0.0))
                            .density(d.m / area)
                            .restitution(e)
                            .friction(0.0)
                            .ccd(true),
                    )
                    .unwrap()
            })
            .collect();
        world.step(DT).unwrap();
        for (i, (&h, w)) in handles.iter().zip(&want).enumerate() {
            let v = world.body(h).unwrap().linvel();
            prop_assert!(
                (v.x - w).abs() < 1e-9 && v.y.abs() < 1e-9,
                "disc {}: {:?}, want {} (all: {:?})", i, v, w, want
            );
        }
    }
}

/// The oracle itself on a line: three equal touching discs, the first at 2.
#[test]
fn the_oracle_passes_the_blow_along_a_line_of_equal_discs() {
    let line = [0.0, 1.0, 2.0].map(|x| Disc { x, v: 0.0, m: 1.0 });
    let mut line = line.to_vec();
    line[0].v = 2.0;
    assert_eq!(oracle(line, 1.0, DT), Some(vec![0.0, 0.0, 2.0]));
}
