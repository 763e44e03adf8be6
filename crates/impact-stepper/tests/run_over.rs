//! Invariant: under `MotionClamping` a CCD body stopped at its time of impact is never run
//! over by a dynamic body that keeps moving. Over seeded cases of a CCD disc (radius 0.03 to
//! 0.2, 3 to 3,000 units/s) crossing the paths of spinning dynamic boxes and discs without
//! `ccd` (up to 40 units/s, 15 rad/s) set to meet it within the step, half of them in front of
//! a static wall the disc is stopped against, the disc's centre never ends a step inside one
//! of them; a body that would have run over it is stopped where they meet and reported as
//! clamped.

mod common;

use common::{DT, Rng};
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Real, Shape, Vector};
use impact_narrowphase::distance;
use impact_solver::{BodyHandle, RigidBodyDef};
use impact_stepper::{MotionClamping, World, WorldSettings};

type W = World<RTreeBroadphase, MotionClamping>;

/// One seeded case: the world, the disc and its radius, and the other dynamic bodies.
struct Case {
    world: W,
    disc: BodyHandle,
    radius: Real,
    others: Vec<BodyHandle>,
}

/// Whether `shape` at `pose` keeps clear (by 0.01) of every body already in `world`.
fn clear_of_all(world: &W, shape: &Shape, pose: &Isometry) -> bool {
    world
        .bodies()
        .all(|(_, body)| distance(shape, pose, body.shape(), body.pose()).distance > 0.01)
}

/// The case of `seed`: a CCD disc at the origin shot along a random direction, from one to
/// four boxes and discs aimed to cross its path within the first step, and, for odd seeds, a
/// static wall across its path where the disc is stopped, with the other bodies aimed at
/// the place it stops.
fn case(seed: u64) -> Case {
    let mut rng = Rng::new(seed);
    let gravity = if rng.unit() < 0.5 { 0.0 } else { -10.0 };
    let mut world = W::new(WorldSettings::with_gravity(Vector::new(0.0, gravity))).unwrap();
    let radius = rng.range(0.03, 0.2);
    let speed = (rng.range(3.0_f64.ln(), 3_000.0_f64.ln())).exp();
    let heading = rng.range(-core::f64::consts::PI, core::f64::consts::PI);
    let dir = Vector::new(heading.cos(), heading.sin());
    // How far along its path the disc meets the others: at a wall, where it stops.
    let reach = speed * DT;
    let wall_at = (seed % 2 == 1).then(|| rng.range(0.3, 0.95) * reach + radius + 0.02);
    if let Some(at) = wall_at {
        let half = rng.range(0.0005, 0.3);
        let wall = ConvexPolygon::rectangle(half, 3.0).unwrap();
        let pose = Isometry::new(dir * (at + half), heading);
        world
            .create_body(RigidBodyDef::fixed(wall.into()).pose(pose))
            .unwrap();
    }
    let disc_shape: Shape = Circle::new(radius).unwrap().into();
    let disc = world
        .create_body(RigidBodyDef::new(disc_shape).linvel(dir * speed).ccd(true))
        .unwrap();
    let mut others = Vec::new();
    let count = 1 + rng.below(4);
    for _ in 0..count {
        for _attempt in 0..20 {
            let size = rng.range(0.1, 0.8);
            let shape: Shape = if rng.unit() < 0.7 {
                ConvexPolygon::rectangle(size, rng.range(0.1, 0.8))
                    .unwrap()
                    .into()
            } else {
                Circle::new(size).unwrap().into()
            };
            let along = match wall_at {
                Some(at) => at - radius - rng.range(0.0, 2.0 * radius),
                None => rng.range(0.0, 1.0) * reach,
            };
            let meet = dir * along;
            let v = rng.range(2.0, 40.0);
            let angle = rng.range(-core::f64::consts::PI, core::f64::consts::PI);
            let velocity = Vector::new(angle.cos(), angle.sin()) * v;
            // Where it would be at the meeting, a fraction of a step in, with a miss of at
            // most its own size.
            let when = rng.range(0.1, 1.0) * DT;
            let miss = Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * size;
            let centre = meet - velocity * when + miss;
            let pose = Isometry::new(centre, rng.range(0.0, core::f64::consts::TAU));
            if !clear_of_all(&world, &shape, &pose) {
                continue;
            }
            let body = RigidBodyDef::new(shape)
                .pose(pose)
                .linvel(velocity)
                .angvel(rng.range(-15.0, 15.0));
            others.push(world.create_body(body).unwrap());
            break;
        }
    }
    Case {
        world,
        disc,
        radius,
        others,
    }
}

/// Runs `steps` steps of the case of `seed`; the first breach of the invariant, if any.
fn breach(seed: u64, steps: usize) -> Option<String> {
    let Case {
        mut world,
        disc,
        radius,
        others,
    } = case(seed);
    let disc_shape: Shape = Circle::new(radius).unwrap().into();
    for step in 0..steps {
        world.step(DT).unwrap();
        let at = *world.body(disc).unwrap().pose();
        for &h in &others {
            let body = world.body(h).unwrap();
            let d = distance(&disc_shape, &at, body.shape(), body.pose()).distance;
            if d <= -radius {
                return Some(format!(
                    "seed {seed}: the disc ends step {step} {:.4} inside {h:?} (radius {radius})",
                    -d
                ));
            }
        }
    }
    None
}

#[test]
fn a_stopped_ccd_disc_is_never_run_over_by_a_moving_dynamic_body() {
    let breaches: Vec<String> = (0..2_000).filter_map(|seed| breach(seed, 3)).collect();
    assert!(
        breaches.is_empty(),
        "{} of 2,000 cases breached, first: {:?}",
        breaches.len(),
        &breaches[..breaches.len().min(5)]
    );
}

/// The kind of the fault this file guards: a disc stopped against a wall, a box coming on
/// across the place it stops. The box is stopped where it meets the disc (clamped with it),
/// and the disc ends the step at the wall, clear of the box.
#[test]
fn a_box_coming_on_at_a_disc_stopped_at_a_wall_is_stopped_where_they_meet() {
    let mut world = W::new(WorldSettings::with_gravity(Vector::zeros())).unwrap();
    let wall = ConvexPolygon::rectangle(0.05, 3.0).unwrap();
    world
        .create_body(RigidBodyDef::fixed(wall.into()).pose(Isometry::translation(10.05, 0.0)))
        .unwrap();
    let r = 0.05;
    let disc = world
        .create_body(
            RigidBodyDef::new(Circle::new(r).unwrap().into())
                .linvel(Vector::new(1_000.0, 0.0))
                .ccd(true),
        )
        .unwrap();
    // A box coming down onto the place by the wall where the disc stops (at 0.6 of the
    // step), meeting it at 0.8 of the step, and covering its centre by the end.
    let boxed = world
        .create_body(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.3, 0.3).unwrap().into())
                .pose(Isometry::translation(9.68, 1.15))
                .linvel(Vector::new(0.0, -60.0)),
        )
        .unwrap();
    let report = world.step(DT).unwrap();
    let clamped: Vec<BodyHandle> = report.stepper.clamped.iter().map(|c| c.body).collect();
    assert_eq!(clamped, vec![disc, boxed], "{:?}", report.stepper);
    let disc_pose = *world.body(disc).unwrap().pose();
    let b = world.body(boxed).unwrap();
    let d = distance(
        &Circle::new(r).unwrap().into(),
        &disc_pose,
        b.shape(),
        b.pose(),
    );
    assert!(
        d.distance > 0.0,
        "the box ends {:.4} into the disc",
        -d.distance
    );
    assert!((disc_pose.translation.x - (10.0 - r)).abs() < 0.01);
}
