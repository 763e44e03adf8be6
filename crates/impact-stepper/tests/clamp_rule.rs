//! Invariant: a clamp moves a body to its course's pose at the clamp's fraction `s`, loses
//! exactly `(1 - s) dt`, and changes its velocity only by removing the gravity of the time it
//! lost: a body in free flight is clamped with the velocity of its parabola where it stops,
//! so its energy `g y + v^2 / 2` is the one it started the step with, its horizontal velocity
//! untouched; no clamp leaves a body at velocity exactly zero.
//!
//! The oracle is the closed form of free flight: from `x0` with `v0` under `g` the body ends
//! the step at `x0 + v0 dt + g dt^2 / 2`, and its course is the chord to there.

mod common;

use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Vector};
use impact_solver::RigidBodyDef;
use impact_stepper::{MotionClamping, MotionClampingSettings, World, WorldSettings};
use proptest::prelude::*;

#[derive(Debug, Clone, Copy)]
struct Throw {
    disc: bool,
    size: Real,
    from: (Real, Real),
    velocity: (Real, Real),
    g: Real,
    dt: Real,
    /// The wall: a thin box (false) or a zero-thickness segment (true), along y at x = 0.
    segment: bool,
}

fn throws() -> impl Strategy<Value = Throw> {
    (
        any::<bool>(),
        0.02..0.3f64,
        (-3.0..-0.5f64, -2.0..2.0f64),
        (100.0..2_000.0f64, -50.0..50.0f64),
        0.0..30.0f64,
        1.0 / 240.0..1.0 / 30.0f64,
        any::<bool>(),
    )
        .prop_map(|(disc, size, from, velocity, g, dt, segment)| Throw {
            disc,
            size,
            from,
            velocity,
            g,
            dt,
            segment,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_clamp_keeps_the_course_the_time_and_the_energy(throw in throws()) {
        check(throw)?;
    }
}

/// A box that ends a step 5.5 mm short of the wall, within the touching reach: the next
/// step's start impact stops it, and no clamp is due.
#[test]
fn a_throw_that_ends_a_step_at_the_wall_is_a_start_impact() {
    let throw = Throw {
        disc: false,
        size: 0.19662534153723937,
        from: (-0.8394447944560716, 0.0),
        velocity: (149.01158158444755, 0.0),
        g: 0.0,
        dt: 0.004273396939251957,
        segment: false,
    };
    assert_eq!(check(throw).unwrap(), Outcome::Touched);
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Clamped,
    Touched,
}

/// Throws one body at the wall and judges its clamp against free flight.
fn check(throw: Throw) -> Result<Outcome, TestCaseError> {
    let mut world: World<RTreeBroadphase, MotionClamping> = World::with_parts(
        WorldSettings::with_gravity(Vector::new(0.0, -throw.g)),
        RTreeBroadphase::default(),
        MotionClamping::new(MotionClampingSettings::default()).unwrap(),
    )
    .unwrap();
    let wall: Shape = if throw.segment {
        Segment::new(Point::new(0.0, -10.0), Point::new(0.0, 10.0))
            .unwrap()
            .into()
    } else {
        ConvexPolygon::rectangle(0.0005, 10.0).unwrap().into()
    };
    world.create_body(RigidBodyDef::fixed(wall)).unwrap();
    let shape: Shape = if throw.disc {
        Circle::new(throw.size).unwrap().into()
    } else {
        ConvexPolygon::rectangle(throw.size, 0.5 * throw.size)
            .unwrap()
            .into()
    };
    let x0 = Vector::new(throw.from.0, throw.from.1);
    let v0 = Vector::new(throw.velocity.0, throw.velocity.1);
    let body = world
        .create_body(
            RigidBodyDef::new(shape)
                .pose(Isometry::translation(x0.x, x0.y))
                .linvel(v0)
                .ccd(true),
        )
        .unwrap();
    let g = Vector::new(0.0, -throw.g);
    // The gap along x between the body and the wall's near face: neither turns before
    // it reaches the wall, so the gap is that of their boxes.
    let half_width = throw.size;
    let wall_half = if throw.segment { 0.0 } else { 0.0005 };
    let gap = |x: Vector| -x.x - half_width - wall_half;
    let toi = MotionClampingSettings::default().toi;
    let reach = toi.target_separation() + toi.tolerance();
    let mut clamped_once = false;
    let mut touched = false;
    let (mut x, mut v) = (x0, v0);
    for _ in 0..20 {
        let report = world.step(throw.dt).unwrap().stepper;
        let b = world.body(body).unwrap();
        if !clamped_once && report.start_impacts > 0 {
            // A step that ended with the body within the touching reach of the wall
            // leaves the impact to the next step's start, not to a clamp.
            prop_assert!(
                gap(x) <= reach,
                "start impact at gap {}, reach {}",
                gap(x),
                reach
            );
            touched = true;
            break;
        }
        let Some(clamp) = report.clamped.iter().find(|c| c.body == body) else {
            // Not clamped: free flight or the solver's contact, nothing to judge.
            x = b.pose().translation.vector;
            v = b.linvel();
            if clamped_once {
                break;
            }
            continue;
        };
        if report.start_impacts > 0 || report.crossings_stopped > 0 || report.closing_stopped > 0 {
            break;
        }
        clamped_once = true;
        let s = clamp.fraction;
        prop_assert!((clamp.time_lost - (1.0 - s) * throw.dt).abs() <= 1e-12 * throw.dt);
        let end = x + v * throw.dt + g * (0.5 * throw.dt * throw.dt);
        let travel = (end - x).norm();
        let at = x + (end - x) * s;
        let pose = b.pose().translation.vector;
        prop_assert!(
            (pose - at).norm() <= 1e-12 * travel.max(1.0),
            "pose {:?}, course at {}: {:?}",
            pose,
            s,
            at
        );
        prop_assert_ne!(b.linvel(), Vector::zeros());
        prop_assert!((b.linvel().x - v.x).abs() <= 1e-12 * v.norm());
        let energy = |y: Real, v: Vector| throw.g * y + 0.5 * v.norm_squared();
        let (e0, e1) = (energy(x.y, v), energy(pose.y, b.linvel()));
        prop_assert!(
            (e1 - e0).abs() <= 1e-9 * e0.abs().max(v.norm_squared()),
            "energy {} -> {}",
            e0,
            e1
        );
        break;
    }
    prop_assert!(clamped_once || touched, "never clamped");
    Ok(if clamped_once {
        Outcome::Clamped
    } else {
        Outcome::Touched
    })
}
