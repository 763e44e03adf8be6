//! Invariant: `resolve_impact` on two frictionless discs of unequal mass reproduces the
//! textbook collision to 1e-12: along the line of centres the 1D formulas
//! `v1' = (m1 v1 + m2 v2 + m2 e (v2 - v1)) / (m1 + m2)` (and symmetrically for `v2'`), the
//! tangential components unchanged, no spin; head on and oblique, for e in {0, 0.5, 1}.
//! With friction, the tangential impulse follows Coulomb's law with the discs' angular terms
//! `r^2 / I = 2 / m`: it stops the slip at the contact when that needs less than `mu j`
//! (sticking), and is exactly `mu j` against the slip otherwise (sliding).

mod common;

use common::{body, disc};
use core::f64::consts::PI;
use impact_geometry::{Point, Real, Vector};
use impact_solver::{BodySet, ImpactSettings, resolve_impact};

const TOL: Real = 1e-12;

/// 1D textbook outcome along the normal.
fn textbook(m1: Real, v1: Real, m2: Real, v2: Real, e: Real) -> (Real, Real) {
    let p = m1 * v1 + m2 * v2;
    (
        (p + m2 * e * (v2 - v1)) / (m1 + m2),
        (p + m1 * e * (v1 - v2)) / (m1 + m2),
    )
}

struct Case {
    r1: Real,
    rho1: Real,
    r2: Real,
    rho2: Real,
    angle: Real,
    v1: Vector,
    v2: Vector,
    e: Real,
}

fn run(c: &Case) {
    let n = Vector::new(c.angle.cos(), c.angle.sin());
    let c1 = Point::new(0.3, -0.2);
    let c2 = c1 + n * (c.r1 + c.r2);
    let mut bodies = BodySet::new();
    let a = bodies
        .insert(disc(c.r1, c.rho1, c1, c.v1).restitution(c.e).friction(0.0))
        .unwrap();
    let b = bodies
        .insert(disc(c.r2, c.rho2, c2, c.v2).restitution(c.e).friction(0.0))
        .unwrap();
    let (m1, m2) = (PI * c.r1 * c.r1 * c.rho1, PI * c.r2 * c.r2 * c.rho2);
    assert!((m1 - m2).abs() > 0.1, "unequal masses");

    let point = c1 + n * c.r1;
    let impulse = resolve_impact(&mut bodies, a, b, point, n, &ImpactSettings::default()).unwrap();

    let t = Vector::new(-n.y, n.x);
    let (u1, u2) = textbook(m1, c.v1.dot(&n), m2, c.v2.dot(&n), c.e);
    let want1 = n * u1 + t * c.v1.dot(&t);
    let want2 = n * u2 + t * c.v2.dot(&t);
    let (got1, got2) = (body(&bodies, a).linvel(), body(&bodies, b).linvel());
    assert!((got1 - want1).norm() < TOL, "disc 1: {got1} vs {want1}");
    assert!((got2 - want2).norm() < TOL, "disc 2: {got2} vs {want2}");
    assert!(body(&bodies, a).angvel().abs() < TOL);
    assert!(body(&bodies, b).angvel().abs() < TOL);
    assert_eq!(impulse.tangent, 0.0);
    assert!((impulse.normal - m2 * (u2 - c.v2.dot(&n))).abs() < TOL);
    assert!((impulse.approach_speed - (c.v1 - c.v2).dot(&n)).abs() < TOL);
}

#[test]
fn head_on_unequal_masses() {
    for e in [0.0, 0.5, 1.0] {
        run(&Case {
            r1: 0.5,
            rho1: 1.0,
            r2: 0.3,
            rho2: 4.0,
            angle: 0.0,
            v1: Vector::new(3.0, 0.0),
            v2: Vector::new(-1.25, 0.0),
            e,
        });
        // One disc at rest, a heavy one hitting it.
        run(&Case {
            r1: 0.7,
            rho1: 3.0,
            r2: 0.4,
            rho2: 1.0,
            angle: PI,
            v1: Vector::new(-2.0, 0.0),
            v2: Vector::zeros(),
            e,
        });
    }
}

#[test]
fn oblique_unequal_masses() {
    for e in [0.0, 0.5, 1.0] {
        for angle in [0.3, 1.1, 2.5, -0.8] {
            let n = Vector::new(Real::cos(angle), Real::sin(angle));
            run(&Case {
                r1: 0.45,
                rho1: 1.5,
                r2: 0.25,
                rho2: 0.7,
                angle,
                // Approaching along n with an arbitrary sideways component each.
                v1: n * 2.0 + Vector::new(0.4, -1.3),
                v2: -n * 0.5 + Vector::new(-0.7, 0.2),
                e,
            });
        }
    }
}

/// Friction branch: the tangential impulse of two discs. For a disc `I = m r^2 / 2`, so the
/// tangential effective mass is `1 / (3 / m1 + 3 / m2)`.
fn friction_case(mu: Real, expect_sticking: bool) {
    let n = Vector::new(0.6, 0.8);
    let t = Vector::new(n.y, -n.x); // the solver's tangent
    let (r1, r2) = (0.5, 0.3);
    let c1 = Point::origin();
    let c2 = c1 + n * (r1 + r2);
    let v1 = n * 2.0 + t * 0.9;
    let v2 = n * -0.5 - t * 0.4;
    let e = 0.5;
    let mut bodies = BodySet::new();
    let a = bodies
        .insert(disc(r1, 1.0, c1, v1).restitution(e).friction(mu))
        .unwrap();
    let b = bodies
        .insert(disc(r2, 1.0, c2, v2).restitution(0.0).friction(mu))
        .unwrap();
    let (m1, m2) = (PI * r1 * r1, PI * r2 * r2);
    let impulse = resolve_impact(
        &mut bodies,
        a,
        b,
        c1 + n * r1,
        n,
        &ImpactSettings::default(),
    )
    .unwrap();

    let vn = (v2 - v1).dot(&n);
    let j = -(1.0 + e) * vn / (1.0 / m1 + 1.0 / m2);
    let vt = (v2 - v1).dot(&t); // no spin before: the contact slips at the centres' rate
    let stick = -vt / (3.0 / m1 + 3.0 / m2);
    let jt = if stick.abs() <= mu * j {
        stick
    } else {
        -vt.signum() * mu * j
    };
    assert_eq!(stick.abs() <= mu * j, expect_sticking);
    assert!((impulse.normal - j).abs() < TOL);
    assert!(
        (impulse.tangent - jt).abs() < TOL,
        "{} vs {jt}",
        impulse.tangent
    );

    let (ba, bb) = (body(&bodies, a), body(&bodies, b));
    let want1 = v1 - (n * j + t * jt) / m1;
    let want2 = v2 + (n * j + t * jt) / m2;
    assert!((ba.linvel() - want1).norm() < TOL);
    assert!((bb.linvel() - want2).norm() < TOL);
    // Lever arms r1 n and -r2 n; cross(n, t) = -1.
    assert!((ba.angvel() - jt * r1 / (0.5 * m1 * r1 * r1)).abs() < TOL);
    assert!((bb.angvel() - jt * r2 / (0.5 * m2 * r2 * r2)).abs() < TOL);
    let p = c1 + n * r1;
    let slip = (bb.velocity_at_point(&p) - ba.velocity_at_point(&p)).dot(&t);
    if expect_sticking {
        assert!(
            slip.abs() < TOL,
            "sticking contacts stop slipping, got {slip}"
        );
    } else {
        assert!(slip * vt > 0.0, "sliding never reverses the slip");
    }
}

#[test]
fn oblique_with_sticking_friction() {
    friction_case(1.0, true);
}

#[test]
fn oblique_with_sliding_friction() {
    friction_case(0.05, false);
}

#[test]
fn separating_discs_get_no_impulse() {
    let mut bodies = BodySet::new();
    let a = bodies
        .insert(disc(0.5, 1.0, Point::origin(), Vector::new(-1.0, 0.3)))
        .unwrap();
    let b = bodies
        .insert(disc(0.5, 1.0, Point::new(1.0, 0.0), Vector::new(1.0, 0.0)))
        .unwrap();
    let imp = resolve_impact(
        &mut bodies,
        a,
        b,
        Point::new(0.5, 0.0),
        Vector::x(),
        &ImpactSettings::default(),
    )
    .unwrap();
    assert!(imp.is_zero());
    assert_eq!(imp.approach_speed, -2.0);
    assert_eq!(body(&bodies, a).linvel(), Vector::new(-1.0, 0.3));
    assert_eq!(body(&bodies, b).linvel(), Vector::new(1.0, 0.0));
}

#[test]
fn static_and_kinematic_bodies_have_infinite_mass() {
    use impact_geometry::ConvexPolygon;
    use impact_solver::RigidBodyDef;
    for kinematic in [false, true] {
        let mut bodies = BodySet::new();
        let wall_def = if kinematic {
            RigidBodyDef::kinematic(ConvexPolygon::rectangle(0.5, 2.0).unwrap().into())
                .linvel(Vector::new(-1.0, 0.0))
        } else {
            RigidBodyDef::fixed(ConvexPolygon::rectangle(0.5, 2.0).unwrap().into())
        }
        .pose(impact_geometry::Isometry::translation(1.0, 0.0))
        .restitution(1.0)
        .friction(0.0);
        let wall = bodies.insert(wall_def).unwrap();
        let ball = bodies
            .insert(disc(0.5, 1.0, Point::origin(), Vector::new(3.0, 1.0)).friction(0.0))
            .unwrap();
        resolve_impact(
            &mut bodies,
            ball,
            wall,
            Point::new(0.5, 0.0),
            Vector::x(),
            &ImpactSettings::default(),
        )
        .unwrap();
        let wall_v = if kinematic { -1.0 } else { 0.0 };
        // Elastic bounce off an infinite mass moving at wall_v: u' = 2 wall_v - u.
        let want = Vector::new(2.0 * wall_v - 3.0, 1.0);
        assert!((body(&bodies, ball).linvel() - want).norm() < TOL);
        assert_eq!(body(&bodies, wall).linvel(), Vector::new(wall_v, 0.0));
        assert_eq!(body(&bodies, wall).angvel(), 0.0);
    }
}

#[test]
fn restitution_below_threshold_is_inelastic() {
    let mut bodies = BodySet::new();
    let a = bodies
        .insert(disc(0.5, 1.0, Point::origin(), Vector::new(0.2, 0.0)).restitution(1.0))
        .unwrap();
    let b = bodies
        .insert(disc(0.5, 1.0, Point::new(1.0, 0.0), Vector::zeros()).restitution(1.0))
        .unwrap();
    let settings = ImpactSettings {
        restitution_threshold: 0.5,
        ..ImpactSettings::default()
    };
    let imp = resolve_impact(
        &mut bodies,
        a,
        b,
        Point::new(0.5, 0.0),
        Vector::x(),
        &settings,
    )
    .unwrap();
    assert_eq!(imp.restitution, 0.0);
    assert!((body(&bodies, a).linvel().x - 0.1).abs() < TOL);
    assert!((body(&bodies, b).linvel().x - 0.1).abs() < TOL);
}
