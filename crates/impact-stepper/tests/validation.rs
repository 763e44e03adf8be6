//! Invariant: bad input is refused where it enters, with an error naming the field and the
//! value, and a refused call changes nothing: settings (NaN gravity, negative speculative
//! distance, bad solver settings), step lengths (zero, negative, NaN, infinite), stale
//! handles, bad body definitions, and bad `advance` arguments. The world's state hash, time,
//! step count, body count and contact cache are compared before and after each refused call.

mod common;

use common::{DT, state_hash};
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Circle, Isometry, Real, Vector};
use impact_solver::RigidBodyDef;
use impact_stepper::{Discrete, World, WorldError, WorldSettings};
use impact_testkit::scenes;

type TestWorld = World<RTreeBroadphase, Discrete>;

fn fingerprint(world: &TestWorld) -> (u64, u64, u64, usize, usize, u64) {
    let cache: u64 = world.contact_cache().iter().fold(0, |h, (_, imp)| {
        h.rotate_left(7) ^ imp.normal.to_bits() ^ imp.tangent.to_bits()
    });
    (
        state_hash(world),
        world.time().to_bits(),
        world.step_count(),
        world.len(),
        world.contact_cache().len(),
        cache ^ world.accumulated_time().to_bits(),
    )
}

/// A world mid-simulation: contacts cached, bodies moving.
fn busy_world() -> (TestWorld, Vec<impact_solver::BodyHandle>) {
    let (mut world, handles) = scenes::pyramid(4)
        .build::<RTreeBroadphase, Discrete>()
        .unwrap();
    for _ in 0..10 {
        world.step(DT).unwrap();
    }
    world.advance(0.01, DT, 4).unwrap();
    assert!(!world.contact_cache().is_empty());
    (world, handles)
}

#[test]
fn nan_gravity_is_refused_by_name() {
    let settings = WorldSettings::with_gravity(Vector::new(0.0, Real::NAN));
    let err = TestWorld::new(settings).unwrap_err();
    assert_eq!(
        err.to_string(),
        "settings.gravity.y: must be finite, got NaN"
    );

    let (mut world, _) = busy_world();
    let before = fingerprint(&world);
    let err = world
        .set_gravity(Vector::new(Real::INFINITY, 0.0))
        .unwrap_err();
    assert_eq!(err.to_string(), "gravity.x: must be finite, got inf");
    // Finite components whose length overflows: every step would pad boxes by infinity.
    let err = world.set_gravity(Vector::new(0.0, -1e300)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "gravity: must be a vector whose length is finite in f64 (components below about \
         1.3e154), got 1e300"
    );
    let mut bad = *world.settings();
    bad.speculative_distance = -1.0;
    let err = world.set_settings(bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        "settings.speculative_distance: must be zero or positive, got -1"
    );
    bad = *world.settings();
    bad.solver.substeps = 0;
    assert!(
        world
            .set_settings(bad)
            .unwrap_err()
            .to_string()
            .contains("settings.substeps")
    );
    assert_eq!(world.settings().gravity, Vector::new(0.0, scenes::GRAVITY));
    assert_eq!(fingerprint(&world), before);
}

#[test]
fn bad_step_lengths_are_refused_and_change_nothing() {
    let (mut world, _) = busy_world();
    let before = fingerprint(&world);
    for (dt, message) in [
        (0.0, "dt: must be positive, got 0"),
        (-DT, "dt: must be positive, got -0.016666666666666666"),
        (Real::NAN, "dt: must be finite, got NaN"),
        (Real::INFINITY, "dt: must be finite, got inf"),
        (
            1e308,
            "dt: must be short enough that gravity's reach over a step, |gravity| dt^2, is \
             finite, got 1e308",
        ),
    ] {
        let err = world.step(dt).unwrap_err();
        assert_eq!(err.to_string(), message);
        assert_eq!(fingerprint(&world), before, "dt {dt} changed the world");
    }
    // The world still steps afterwards, exactly as an untouched twin does.
    let (mut twin, _) = busy_world();
    world.step(DT).unwrap();
    twin.step(DT).unwrap();
    assert_eq!(state_hash(&world), state_hash(&twin));
}

#[test]
fn a_step_whose_boxes_overflow_is_refused_and_changes_nothing() {
    let (mut world, handles) = busy_world();
    world
        .set_velocity(handles[3], Vector::new(1e300, 0.0), 0.0)
        .unwrap();
    let before = fingerprint(&world);
    let err = world.step(1e10).unwrap_err();
    // Named by the body whose box over the step leaves the range, before the broadphase.
    assert!(matches!(err, WorldError::NotFinite { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with(&format!("bodies[{}].swept_box", handles[3].index)),
        "{err}"
    );
    assert_eq!(fingerprint(&world), before);
}

proptest::proptest! {
    /// A step whose length and gravity, however large, are accepted by the settings either
    /// runs or fails naming `dt` or the moving body: never a static body that has no motion
    /// of its own, and never leaving anything in the world not finite.
    #[test]
    fn absurd_steps_and_gravity_are_named_by_the_field_that_causes_them(
        dt_exponent in -12.0..308.0_f64,
        gravity_exponent in -3.0..160.0_f64,
        steps in 1_usize..4,
    ) {
        let dt = 10.0_f64.powf(dt_exponent);
        let gravity = Vector::new(0.0, -(10.0_f64.powf(gravity_exponent)));
        let Ok(mut world) = TestWorld::new(WorldSettings::with_gravity(gravity)) else {
            proptest::prop_assert!(gravity.norm().is_infinite());
            return Ok(());
        };
        world
            .create_body(RigidBodyDef::fixed(
                impact_geometry::Segment::new(
                    impact_geometry::Point::new(-5.0, 0.0),
                    impact_geometry::Point::new(5.0, 0.0),
                )
                .unwrap()
                .into(),
            ))
            .unwrap();
        let ball = world
            .create_body(
                RigidBodyDef::new(Circle::new(0.25).unwrap().into())
                    .pose(Isometry::translation(0.0, 2.0)),
            )
            .unwrap();
        for _ in 0..steps {
            let before = fingerprint(&world);
            match world.step(dt) {
                Ok(_) => {
                    let b = world.body(ball).unwrap();
                    proptest::prop_assert!(b.pose().translation.vector.iter().all(|v| v.is_finite()));
                    proptest::prop_assert!(b.linvel().iter().all(|v| v.is_finite()));
                }
                Err(e) => {
                    let text = e.to_string();
                    proptest::prop_assert!(
                        text.starts_with("dt: ") || text.starts_with(&format!("bodies[{}]", ball.index)),
                        "dt {dt:e}, gravity {gravity:?}: {text}"
                    );
                    proptest::prop_assert_eq!(fingerprint(&world), before);
                    break;
                }
            }
        }
    }
}

#[test]
fn stale_handles_are_refused_by_name() {
    let (mut world, handles) = busy_world();
    let gone = handles[2];
    world.remove_body(gone).unwrap();
    // Its slot is reused: the stale handle must not reach the new body.
    let new = world
        .create_body(
            RigidBodyDef::new(Circle::new(0.2).unwrap().into())
                .pose(Isometry::translation(9.0, 9.0)),
        )
        .unwrap();
    assert_eq!(new.index, gone.index);
    assert!(
        world
            .contact_cache()
            .iter()
            .all(|(k, _)| k.a != gone && k.b != gone)
    );
    let before = fingerprint(&world);

    assert!(world.body(gone).is_none());
    assert!(world.body_mut(gone).is_none());
    let msg = format!("handle: no body with index {} and generation 0", gone.index);
    assert_eq!(world.remove_body(gone).unwrap_err().to_string(), msg);
    assert_eq!(world.try_body(gone).unwrap_err().to_string(), msg);
    assert_eq!(
        world
            .set_pose(gone, Isometry::identity())
            .unwrap_err()
            .to_string(),
        msg
    );
    assert_eq!(
        world
            .set_velocity(gone, Vector::zeros(), 0.0)
            .unwrap_err()
            .to_string(),
        msg
    );
    assert_eq!(fingerprint(&world), before);
    world.step(DT).unwrap();
}

#[test]
fn bad_bodies_and_setters_are_refused_by_name() {
    let (mut world, handles) = busy_world();
    let before = fingerprint(&world);
    let err = world
        .create_body(RigidBodyDef::new(Circle::new(0.2).unwrap().into()).density(Real::NAN))
        .unwrap_err();
    assert_eq!(err.to_string(), "body.density: must be finite, got NaN");
    let err = world
        .create_body(
            RigidBodyDef::new(Circle::new(1e308).unwrap().into())
                .pose(Isometry::translation(Real::MAX, 0.0)),
        )
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("body.aabb.maxs.x: must be finite"),
        "{err}"
    );
    let err = world
        .set_velocity(handles[1], Vector::new(1.0, 0.0), Real::NAN)
        .unwrap_err();
    assert_eq!(err.to_string(), "body.angvel: must be finite, got NaN");
    assert_eq!(
        fingerprint(&world),
        before,
        "a refused setter changed the world"
    );
}

#[test]
fn advance_validates_and_keeps_the_remainder() {
    let (mut world, _) = scenes::stack(2)
        .build::<RTreeBroadphase, Discrete>()
        .unwrap();
    let before = fingerprint(&world);
    assert_eq!(
        world.advance(-1.0, DT, 4).unwrap_err().to_string(),
        "elapsed: must be zero or positive, got -1"
    );
    assert_eq!(
        world.advance(0.1, 0.0, 4).unwrap_err().to_string(),
        "fixed_dt: must be positive, got 0"
    );
    assert_eq!(
        world.advance(0.1, DT, 0).unwrap_err().to_string(),
        "max_steps: must be at least 1, got 0"
    );
    assert_eq!(fingerprint(&world), before);

    // 2.5 steps' worth: two steps, half a step kept.
    let r = world.advance(2.5 * DT, DT, 8).unwrap();
    assert_eq!(r.steps, 2);
    assert_eq!(r.dropped_time, 0.0);
    assert!((r.alpha - 0.5).abs() < 1e-9, "alpha {}", r.alpha);
    assert!(r.last.is_some());
    // Another half step completes the third.
    assert_eq!(world.advance(0.5 * DT, DT, 8).unwrap().steps, 1);
    assert_eq!(world.step_count(), 3);
    // A long stall: at most max_steps, the rest dropped and reported.
    let r = world.advance(1.0, DT, 4).unwrap();
    assert_eq!(r.steps, 4);
    assert!(
        (r.dropped_time - 56.0 * DT).abs() < 1e-9,
        "dropped {}",
        r.dropped_time
    );
    assert!(world.accumulated_time() < DT);
    // Same steps as stepping by hand.
    let (mut twin, _) = scenes::stack(2)
        .build::<RTreeBroadphase, Discrete>()
        .unwrap();
    for _ in 0..7 {
        twin.step(DT).unwrap();
    }
    assert_eq!(state_hash(&world), state_hash(&twin));
}

#[test]
fn reports_count_the_stages() {
    let (mut world, _) = scenes::stack(3)
        .build::<RTreeBroadphase, Discrete>()
        .unwrap();
    let r = world.step(DT).unwrap();
    assert_eq!(r.proxies, 4);
    // Ground-box, and box-box for the neighbours (fat boxes also pair boxes two apart).
    assert!(r.pairs >= 3, "{r:?}");
    assert_eq!(r.manifolds, 3, "{r:?}");
    assert_eq!(r.contact_points, 6, "{r:?}");
    assert_eq!(r.stepper.constraints, 3);
    // Two static bodies never pair up in the narrowphase.
    let mut world = TestWorld::new(WorldSettings::default()).unwrap();
    for x in [0.0, 0.5] {
        world
            .create_body(
                RigidBodyDef::fixed(Circle::new(1.0).unwrap().into())
                    .pose(Isometry::translation(x, 0.0)),
            )
            .unwrap();
    }
    let r = world.step(DT).unwrap();
    assert_eq!((r.pairs, r.skipped_pairs, r.manifolds), (1, 1, 0));
}
