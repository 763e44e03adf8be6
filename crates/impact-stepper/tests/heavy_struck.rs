//! Invariant: bullets fired at a thin slab never pass through it, under both CCD steppers,
//! whether the slab is free (and as heavy as the strikes allow) or kinematic; and a
//! kinematic slab keeps its plans under `FirstTimeOfImpact`.
//!
//! A struck body whose motion is imposed (a kinematic one, or one a motor or a spring
//! drives) and whose new course stays within a quarter of the tolerance of the course its
//! queued impacts were planned on keeps its version and those impacts, and is not planned
//! again (`FirstToiReport::kept_plans`); only the pair it met is asked again. The tumbler's
//! drum, struck a hundred times a step by the boxes piled on its walls, was otherwise
//! planned again against every box resting on them at each strike.
//!
//! Scenes, drawn by proptest: without gravity, a free slab 4 long and 0.02 to 0.2 thick, of
//! density 30 to 30,000, or a kinematic one moving down onto the bullets at up to 10
//! units/s, turning at up to 1 rad/s; a layer of 4 to 16 discs resting on its top face; 4
//! to 24 discs of radius 0.02 to 0.05 fired up at its bottom face from below, within its
//! middle 60%, at 20 to 300 units/s, restitution 0 to 0.5. Over 8 steps of 1/60 s, no disc
//! goes from one side of the slab to the other within its length (away from its ends by
//! what each end moves in a step).

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Real, Vector};
use impact_solver::{BodyHandle, RigidBodyDef};
use impact_stepper::{FirstTimeOfImpact, MotionClamping, Stepper, World, WorldSettings};
use proptest::prelude::*;

/// Steps per scene.
const STEPS: usize = 8;
/// The slab's half length.
const HALF_LENGTH: Real = 2.0;

/// A scene of the module docs.
#[derive(Debug, Clone)]
struct Scene {
    half_thickness: Real,
    density: Real,
    spin: Real,
    resting: usize,
    /// Each bullet's place along the slab (a fraction of the half length), radius and speed.
    bullets: Vec<(Real, Real, Real)>,
    restitution: Real,
    /// A kinematic slab (every strike keeps its course, and its plans), moving down onto
    /// the bullets at this speed.
    kinematic: Option<Real>,
}

fn scene() -> impl Strategy<Value = Scene> {
    (
        (0.01..0.1, 1.5..4.5, -1.0..1.0, 4usize..17, 0.0..0.5),
        prop::collection::vec((-0.6..0.6, 0.02..0.05, 20.0..300.0), 4..25),
        prop::option::of(0.0..10.0),
    )
        .prop_map(
            |((half_thickness, log_density, spin, resting, restitution), bullets, kinematic)| {
                Scene {
                    half_thickness,
                    density: 10.0_f64.powf(log_density),
                    spin,
                    resting,
                    bullets,
                    restitution,
                    kinematic,
                }
            },
        )
}

/// The world of `s` under `S`, its slab, and the bullets with their radii.
fn build<S: Stepper + Default>(
    s: &Scene,
) -> (
    World<RTreeBroadphase, S>,
    BodyHandle,
    Vec<(BodyHandle, Real)>,
) {
    let mut w =
        World::<RTreeBroadphase, S>::new(WorldSettings::with_gravity(Vector::zeros())).unwrap();
    let shape = ConvexPolygon::rectangle(HALF_LENGTH, s.half_thickness).unwrap();
    let slab = match s.kinematic {
        Some(speed) => RigidBodyDef::kinematic(shape.into()).linvel(Vector::new(0.0, -speed)),
        None => RigidBodyDef::new(shape.into()).density(s.density),
    };
    let slab = w.create_body(slab.angvel(s.spin).ccd(true)).unwrap();
    for k in 0..s.resting {
        let x = -HALF_LENGTH + (k as Real + 0.5) * 2.0 * HALF_LENGTH / s.resting as Real;
        w.create_body(
            RigidBodyDef::new(Circle::new(0.05).unwrap().into())
                .pose(Isometry::translation(x, s.half_thickness + 0.05 + 1e-4))
                .ccd(true),
        )
        .unwrap();
    }
    let mut bullets = Vec::new();
    for (k, &(along, r, speed)) in s.bullets.iter().enumerate() {
        let at = Vector::new(along * HALF_LENGTH, -0.3 - 0.11 * k as Real);
        let body = w
            .create_body(
                RigidBodyDef::new(Circle::new(r).unwrap().into())
                    .pose(Isometry::translation(at.x, at.y))
                    .linvel(Vector::new(0.0, speed))
                    .restitution(s.restitution)
                    .ccd(true),
            )
            .unwrap();
        bullets.push((body, r));
    }
    (w, slab, bullets)
}

/// Whether a disc of radius `r` centred at `x` along the slab is judged: not nearer an end
/// than that end moves in a step, nor than its own radius.
fn judged(s: &Scene, x: Real, r: Real) -> bool {
    x.abs() <= HALF_LENGTH - (s.spin.abs() * HALF_LENGTH * DT).max(r)
}

/// Runs the scene under `S`: `Err` naming the first step and bullet that went through the
/// slab; else the plans the slab and the bullets kept (`FirstTimeOfImpact` only).
fn not_through<S: Stepper + Default>(
    s: &Scene,
    kept: impl Fn(&S::Report) -> usize,
) -> Result<usize, String> {
    let (mut w, slab, bullets) = build::<S>(s);
    let judged = |x: Real, r: Real| judged(s, x, r);
    let mut sides = common::BarSides::new(&w, (slab, s.half_thickness), &bullets, judged);
    let mut kept_plans = 0;
    for step in 0..STEPS {
        let report = w.step(DT).unwrap();
        kept_plans += kept(&report.stepper);
        if let Some(k) = sides.crossed(&w, judged) {
            return Err(format!("step {step}: bullet {k} went through the slab"));
        }
    }
    Ok(kept_plans)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 96,
        rng_seed: proptest::test_runner::RngSeed::Fixed(3),
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_bullet_passes_a_heavy_slab_first_time_of_impact(s in scene()) {
        let result = not_through::<FirstTimeOfImpact>(&s, |r| r.kept_plans);
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }

    #[test]
    fn no_bullet_passes_a_heavy_slab_motion_clamping(s in scene()) {
        let result = not_through::<MotionClamping>(&s, |_| 0);
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }
}

/// A kinematic slab, which no strike moves, keeps its plans at the strikes, and no bullet
/// passes it.
#[test]
fn a_kinematic_slab_keeps_its_plans() {
    let s = Scene {
        half_thickness: 0.02,
        density: 1.0,
        spin: 0.5,
        resting: 12,
        bullets: (0..16)
            .map(|k| (-0.6 + 0.08 * k as Real, 0.03, 100.0 + 10.0 * k as Real))
            .collect(),
        restitution: 0.2,
        kinematic: Some(1.0),
    };
    let kept = not_through::<FirstTimeOfImpact>(&s, |r| r.kept_plans).unwrap();
    assert!(kept >= 16, "{kept} plans kept");
}
