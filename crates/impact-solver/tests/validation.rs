//! Invariant: bad input is refused where it enters, with an error that names the field and
//! the value, and never a panic: every field of `RigidBodyDef`, `Material`, `SolverSettings`
//! and `ImpactSettings`, the setters of `RigidBody`, the integrators, `ContactSolver::new` and
//! `resolve_impact`; random (also NaN and infinite) definitions never panic.

mod common;

use common::disc;
use impact_geometry::{
    Circle, Isometry, MassProperties, Point, Real, Rotation, Segment, Vector,
    nalgebra::{Complex, Translation2 as Translation},
};
use impact_narrowphase::contact_manifold;
use impact_solver::{
    BodySet, BodyType, ContactCache, ContactPair, ContactSolver, ImpactSettings, Material,
    RigidBody, RigidBodyDef, SolverError, SolverSettings, integrate_positions,
    integrate_velocities, resolve_impact,
};
use proptest::prelude::*;

fn ball() -> RigidBodyDef {
    RigidBodyDef::new(Circle::new(0.5).unwrap().into())
}

fn field_of(e: &SolverError) -> String {
    match e {
        SolverError::NotFinite { field, .. }
        | SolverError::Negative { field, .. }
        | SolverError::NotPositive { field, .. }
        | SolverError::OutOfRange { field, .. }
        | SolverError::MasslessDynamic { field, .. }
        | SolverError::UnknownBody { field, .. }
        | SolverError::SameBody { field, .. }
        | SolverError::UnknownShape { field, .. }
        | SolverError::UnknownJoint { field, .. }
        | SolverError::WrongJointKind { field, .. } => field.clone(),
        SolverError::Geometry(g) => g.to_string(),
    }
}

fn assert_refused(def: RigidBodyDef, field: &str) {
    let err = RigidBody::new(def).expect_err(field);
    assert!(
        field_of(&err).starts_with(field),
        "expected {field}, got {err}"
    );
    assert!(err.to_string().starts_with(field), "{err}");
}

#[test]
fn every_definition_field_is_checked() {
    assert_eq!(
        RigidBody::new(ball().density(-1.0))
            .unwrap_err()
            .to_string(),
        "body.density: must be zero or positive, got -1"
    );
    assert_refused(ball().density(Real::NAN), "body.density");
    assert_refused(ball().friction(-0.1), "body.friction");
    assert_refused(ball().friction(Real::INFINITY), "body.friction");
    assert_refused(ball().restitution(1.5), "body.restitution");
    assert_refused(ball().restitution(-0.5), "body.restitution");
    assert_refused(ball().linvel(Vector::new(0.0, Real::NAN)), "body.linvel.y");
    assert_refused(ball().angvel(Real::NEG_INFINITY), "body.angvel");
    assert_refused(ball().damping(-1.0, 0.0), "body.linear_damping");
    assert_refused(ball().damping(0.0, Real::NAN), "body.angular_damping");
    assert_refused(
        ball().pose(Isometry::from_parts(
            Translation::new(Real::NAN, 0.0),
            Rotation::identity(),
        )),
        "body.pose.translation.x",
    );
    assert_refused(
        ball().pose(Isometry::from_parts(
            Translation::new(0.0, 0.0),
            Rotation::new_unchecked(Complex::new(2.0, 0.0)),
        )),
        "body.pose.rotation",
    );
    let hand = |mass, inertia, cx| MassProperties {
        mass,
        inertia,
        local_center: Point::new(cx, 0.0),
    };
    assert_refused(
        ball().mass_properties(hand(0.0, 1.0, 0.0)),
        "body.mass_properties.mass",
    );
    assert_refused(
        ball().mass_properties(hand(-2.0, 1.0, 0.0)),
        "body.mass_properties.mass",
    );
    assert_refused(
        ball().mass_properties(hand(1.0, 0.0, 0.0)),
        "body.mass_properties.inertia",
    );
    assert_refused(
        ball().mass_properties(hand(1.0, 1.0, Real::NAN)),
        "body.mass_properties.local_center.x",
    );
    // A dynamic segment has no area, hence no mass, unless set by hand.
    let segment = RigidBodyDef::new(
        Segment::new(Point::new(0.0, 0.0), Point::new(1.0, 0.0))
            .unwrap()
            .into(),
    );
    assert_refused(segment.clone(), "body.mass");
    assert_refused(ball().density(0.0), "body.mass");
    assert!(RigidBody::new(segment.clone().body_type(BodyType::Static)).is_ok());
    assert!(RigidBody::new(segment.mass_properties(hand(1.0, 0.1, 0.5))).is_ok());
    // A static body cannot move.
    assert_refused(
        RigidBodyDef::fixed(Circle::new(1.0).unwrap().into()).linvel(Vector::new(1.0, 0.0)),
        "body.linvel.x",
    );
    assert_refused(
        RigidBodyDef::fixed(Circle::new(1.0).unwrap().into()).angvel(1.0),
        "body.angvel",
    );
}

#[test]
fn setters_are_checked_and_leave_the_body_unchanged() {
    let mut body = RigidBody::new(ball()).unwrap();
    let before = body.clone();
    assert!(
        field_of(&body.set_linvel(Vector::new(Real::NAN, 0.0)).unwrap_err()) == "body.linvel.x"
    );
    assert!(field_of(&body.set_angvel(Real::INFINITY).unwrap_err()) == "body.angvel");
    assert!(field_of(&body.set_damping(-1.0, 0.0).unwrap_err()) == "body.linear_damping");
    assert!(
        field_of(
            &body
                .set_pose(Isometry::translation(0.0, Real::INFINITY))
                .unwrap_err()
        ) == "body.pose.translation.y"
    );
    assert!(
        field_of(
            &body
                .apply_impulse_at_point(Vector::new(1.0, Real::NAN), Point::origin())
                .unwrap_err()
        ) == "impulse.y"
    );
    assert_eq!(body, before);
    let mut wall = RigidBody::new(RigidBodyDef::fixed(Circle::new(1.0).unwrap().into())).unwrap();
    assert!(wall.set_linvel(Vector::new(1.0, 0.0)).is_err());
    assert!(wall.set_angvel(1.0).is_err());
    assert!(wall.set_linvel(Vector::zeros()).is_ok());
}

#[test]
fn materials_and_settings_are_checked() {
    assert_eq!(
        Material::new(1.2, 0.5).unwrap_err().to_string(),
        "material.restitution: must be in [0, 1], got 1.2"
    );
    assert!(field_of(&Material::new(0.5, -1.0).unwrap_err()) == "material.friction");
    assert!(SolverSettings::default().validate().is_ok());
    let most = impact_solver::MAX_SOLVER_ITERATIONS;
    let at_the_bound = SolverSettings {
        substeps: most,
        velocity_iterations: most,
        relax_iterations: most,
        restitution_iterations: most,
        ..Default::default()
    };
    assert!(at_the_bound.validate().is_ok());
    let bad = [
        (
            SolverSettings {
                substeps: 0,
                ..Default::default()
            },
            "settings.substeps",
        ),
        (
            SolverSettings {
                velocity_iterations: 0,
                ..Default::default()
            },
            "settings.velocity_iterations",
        ),
        (
            SolverSettings {
                substeps: 4_000_000_000,
                ..Default::default()
            },
            "settings.substeps",
        ),
        (
            SolverSettings {
                relax_iterations: impact_solver::MAX_SOLVER_ITERATIONS + 1,
                ..Default::default()
            },
            "settings.relax_iterations",
        ),
        (
            SolverSettings {
                contact_hertz: 0.0,
                ..Default::default()
            },
            "settings.contact_hertz",
        ),
        (
            SolverSettings {
                contact_damping_ratio: -1.0,
                ..Default::default()
            },
            "settings.contact_damping_ratio",
        ),
        (
            SolverSettings {
                max_push_out_velocity: Real::NAN,
                ..Default::default()
            },
            "settings.max_push_out_velocity",
        ),
        (
            SolverSettings {
                restitution_threshold: -0.1,
                ..Default::default()
            },
            "settings.restitution_threshold",
        ),
    ];
    for (s, field) in bad {
        assert_eq!(field_of(&s.validate().unwrap_err()), field);
    }
    let bad = ImpactSettings {
        restitution_threshold: Real::NAN,
        ..Default::default()
    };
    assert_eq!(
        field_of(&bad.validate().unwrap_err()),
        "impact_settings.restitution_threshold"
    );
}

#[test]
fn integrators_check_their_arguments() {
    let mut bodies = BodySet::new();
    bodies.insert(ball().linvel(Vector::new(1.0, 0.0))).unwrap();
    let before = common::state_bits(&bodies);
    let e = integrate_velocities(&mut bodies, Vector::new(0.0, Real::NAN), 0.1).unwrap_err();
    assert_eq!(field_of(&e), "gravity.y");
    let e = integrate_velocities(&mut bodies, Vector::zeros(), 0.0).unwrap_err();
    assert_eq!(e.to_string(), "dt: must be positive, got 0");
    let e = integrate_positions(&mut bodies, -1.0).unwrap_err();
    assert_eq!(field_of(&e), "dt");
    assert!(bodies.iter().next().unwrap().1.sweep(Real::NAN).is_err());
    assert_eq!(common::state_bits(&bodies), before);
}

#[test]
fn solver_and_resolver_check_handles_manifolds_and_vectors() {
    let mut bodies = BodySet::new();
    let a = bodies
        .insert(disc(0.5, 1.0, Point::origin(), Vector::new(1.0, 0.0)))
        .unwrap();
    let b = bodies
        .insert(disc(0.5, 1.0, Point::new(0.9, 0.0), Vector::zeros()))
        .unwrap();
    let gone = bodies
        .insert(disc(0.5, 1.0, Point::new(5.0, 0.0), Vector::zeros()))
        .unwrap();
    bodies.remove(gone).unwrap();
    let (ba, bb) = (bodies.get(a).unwrap(), bodies.get(b).unwrap());
    let manifold = contact_manifold(ba.shape(), ba.pose(), bb.shape(), bb.pose(), 0.1);
    let cache = ContactCache::new();
    let settings = SolverSettings::default();
    let solver = |pairs: &[ContactPair], dt: Real| {
        ContactSolver::new(&bodies, pairs, &cache, &settings, dt).map(|_| ())
    };
    let ok = ContactPair {
        a,
        b,
        manifold,
        shapes: [0, 0],
        offset: Vector::zeros(),
        material: None,
    };
    assert!(solver(&[ok], 0.01).is_ok());
    assert_eq!(field_of(&solver(&[ok], 0.0).unwrap_err()), "dt");
    let stale = ContactPair { b: gone, ..ok };
    let e = solver(&[ok, stale], 0.01).unwrap_err();
    assert_eq!(field_of(&e), "pairs[1].b");
    assert!(
        e.to_string()
            .contains("no body with index 2 and generation 0"),
        "{e}"
    );
    assert_eq!(
        field_of(&solver(&[ContactPair { b: a, ..ok }], 0.01).unwrap_err()),
        "pairs[0]"
    );
    let mut long = ok;
    long.manifold.normal *= 2.0;
    assert_eq!(
        field_of(&solver(&[long], 0.01).unwrap_err()),
        "pairs[0].manifold.normal"
    );
    let bad_settings = SolverSettings {
        substeps: 0,
        ..settings
    };
    assert!(ContactSolver::new(&bodies, &[ok], &cache, &bad_settings, 0.01).is_err());

    // A stage refuses to run once a body of its constraints is gone.
    let mut s = ContactSolver::new(&bodies, &[ok], &cache, &settings, 0.01).unwrap();
    let mut other = bodies.clone();
    other.remove(b).unwrap();
    let e = s.solve_velocities(&mut other).unwrap_err();
    assert_eq!(field_of(&e), "solver.bodies");
    assert!(s.step(&mut bodies, Vector::new(Real::NAN, 0.0)).is_err());

    let before = common::state_bits(&bodies);
    let imp = ImpactSettings::default();
    let p = Point::new(0.5, 0.0);
    let cases = [
        (
            resolve_impact(&mut bodies, a, gone, p, Vector::x(), &imp),
            "impact.b",
        ),
        (
            resolve_impact(&mut bodies, gone, b, p, Vector::x(), &imp),
            "impact.a",
        ),
        (
            resolve_impact(&mut bodies, a, a, p, Vector::x(), &imp),
            "impact",
        ),
        (
            resolve_impact(
                &mut bodies,
                a,
                b,
                Point::new(Real::NAN, 0.0),
                Vector::x(),
                &imp,
            ),
            "impact.point.x",
        ),
        (
            resolve_impact(&mut bodies, a, b, p, Vector::new(1.0, 1.0), &imp),
            "impact.normal",
        ),
        (
            resolve_impact(&mut bodies, a, b, p, Vector::new(0.0, Real::INFINITY), &imp),
            "impact.normal.y",
        ),
    ];
    for (result, field) in cases {
        assert_eq!(field_of(&result.unwrap_err()), field);
    }
    assert_eq!(
        common::state_bits(&bodies),
        before,
        "refused calls change nothing"
    );
}

fn any_real() -> impl Strategy<Value = Real> {
    prop_oneof![
        4 => -10.0..10.0,
        1 => Just(Real::NAN),
        1 => Just(Real::INFINITY),
        1 => Just(Real::NEG_INFINITY),
        1 => Just(0.0),
        1 => Just(-0.0),
    ]
}

proptest! {
    #[test]
    fn random_definitions_never_panic(
        v in prop::collection::vec(any_real(), 12),
        kind in 0u8..3,
        by_hand in any::<bool>(),
    ) {
        let body_type = [BodyType::Dynamic, BodyType::Static, BodyType::Kinematic][kind as usize];
        let mut def = ball()
            .body_type(body_type)
            .density(v[0])
            .friction(v[1])
            .restitution(v[2])
            .linvel(Vector::new(v[3], v[4]))
            .angvel(v[5])
            .damping(v[6], v[7])
            .pose(Isometry::translation(v[8], v[9]));
        if by_hand {
            def = def.mass_properties(MassProperties {
                mass: v[10],
                inertia: v[11],
                local_center: Point::origin(),
            });
        }
        match RigidBody::new(def) {
            Ok(body) => {
                prop_assert!(body.inv_mass().is_finite() && body.inv_inertia().is_finite());
                prop_assert!(body.linvel().x.is_finite() && body.angvel().is_finite());
            }
            Err(e) => prop_assert!(e.to_string().contains(": "), "{}", e),
        }
    }
}
