//! Invariant: friction at a bounce follows Coulomb's law on the whole normal impulse,
//! restitution included, clamped where the slip stops, in the contact solver as in the
//! single-impact resolver. One contact point between bodies whose rotation is locked (an
//! enormous inertia), in zero gravity and touching at the start of the step, leaves both with
//! the same velocities within 1e-9: a disc with friction 0.6 and restitution 0.9 landing on a
//! static floor at (10, -10) leaves at (0, 9) (friction bounded by the normal impulse before
//! restitution would leave it at (4, 9)), and random masses, velocities approaching faster than
//! the restitution threshold, friction in [0, 2], restitution in [0, 1], normals at any angle,
//! a static or dynamic other body and the solver's default settings. With the disc free to turn
//! the two agree on the same scene too: (6.67, 9), spinning at -13.3 rad/s.

mod common;

use common::body;
use core::f64::consts::PI;
use impact_geometry::tolerances::SPECULATIVE_DISTANCE;
use impact_geometry::{
    Circle, ConvexPolygon, Isometry, MassProperties, Point, Real, Shape, Vector,
};
use impact_narrowphase::contact_manifold;
use impact_solver::{
    BodyHandle, BodySet, ContactCache, ContactPair, ImpactSettings, RigidBodyDef, SolverSettings,
    combine_friction, contact_tangent, resolve_impact, solve_step,
};
use proptest::prelude::*;

const DT: Real = 1.0 / 60.0;
const TOL: Real = 1e-9;
const DISC_RADIUS: Real = 0.5;
const FLOOR_HALF_HEIGHT: Real = 0.5;
/// An inertia no impulse of these scenes can turn: the rotation is locked.
const LOCKED: Real = 1e200;

/// The other body: a box whose top face has outward normal `normal`, centred at `centre`,
/// static (`mass` `None`) or dynamic with its rotation locked.
#[derive(Debug, Clone, Copy)]
struct Floor {
    centre: Point,
    normal: Vector,
    mass: Option<Real>,
    velocity: Vector,
    friction: Real,
}

/// The disc, touching the floor's top face at its middle.
#[derive(Debug, Clone, Copy)]
struct Disc {
    /// `None`: a uniform disc, free to turn.
    mass: Option<Real>,
    velocity: Vector,
    friction: Real,
    restitution: Real,
}

fn locked(mass: Real) -> MassProperties {
    MassProperties {
        mass,
        local_center: Point::origin(),
        inertia: LOCKED,
    }
}

/// The floor and the disc, exactly touching (to the rounding of the floor's turn).
fn scene(floor: &Floor, disc: &Disc) -> (BodySet, BodyHandle, BodyHandle) {
    let angle = floor.normal.y.atan2(floor.normal.x) - 0.5 * PI;
    let shape: Shape = ConvexPolygon::rectangle(5.0, FLOOR_HALF_HEIGHT)
        .unwrap()
        .into();
    let pose = Isometry::new(floor.centre.coords, angle);
    let floor_def = match floor.mass {
        None => RigidBodyDef::fixed(shape),
        Some(m) => RigidBodyDef::new(shape)
            .mass_properties(locked(m))
            .linvel(floor.velocity),
    }
    .pose(pose)
    .friction(floor.friction);
    let centre = floor.centre + floor.normal * (FLOOR_HALF_HEIGHT + DISC_RADIUS);
    let disc_def = RigidBodyDef::new(Circle::new(DISC_RADIUS).unwrap().into())
        .pose(Isometry::translation(centre.x, centre.y))
        .linvel(disc.velocity)
        .friction(disc.friction)
        .restitution(disc.restitution);
    let disc_def = match disc.mass {
        Some(m) => disc_def.mass_properties(locked(m)),
        None => disc_def,
    };
    let mut bodies = BodySet::new();
    let f = bodies.insert(floor_def).unwrap();
    let d = bodies.insert(disc_def).unwrap();
    (bodies, f, d)
}

/// Velocities of the floor and the disc after one step of the contact solver over their one
/// manifold (`settings`, zero gravity).
fn solver(floor: &Floor, disc: &Disc, settings: &SolverSettings) -> [(Vector, Real); 2] {
    let (bodies, _) = solver_in(floor, disc, settings, Vector::zeros());
    bodies
}

/// [`solver`] under `gravity`, with the point's restitution impulse.
fn solver_in(
    floor: &Floor,
    disc: &Disc,
    settings: &SolverSettings,
    gravity: Vector,
) -> ([(Vector, Real); 2], Real) {
    let (mut bodies, f, d) = scene(floor, disc);
    let (x, y) = (body(&bodies, f), body(&bodies, d));
    let manifold = contact_manifold(
        x.shape(),
        x.pose(),
        y.shape(),
        y.pose(),
        SPECULATIVE_DISTANCE,
    );
    assert_eq!(manifold.points().len(), 1);
    assert!(manifold.points()[0].separation.abs() < 1e-12);
    assert!((manifold.normal - floor.normal).norm() < 1e-12);
    let pairs = [ContactPair {
        a: f,
        b: d,
        manifold,
        shapes: [0, 0],
        offset: Vector::zeros(),
        material: None,
    }];
    let mut cache = ContactCache::new();
    let solved = solve_step(&mut bodies, &pairs, &mut cache, gravity, settings, DT).unwrap();
    let restitution = solved.constraints()[0].points()[0].restitution_impulse();
    (
        [f, d].map(|h| (body(&bodies, h).linvel(), body(&bodies, h).angvel())),
        restitution,
    )
}

/// Velocities of the floor and the disc after `resolve_impact` at the touching point, with
/// the solver's restitution threshold.
fn resolver(floor: &Floor, disc: &Disc, settings: &SolverSettings) -> [(Vector, Real); 2] {
    let (mut bodies, f, d) = scene(floor, disc);
    let point = floor.centre + floor.normal * FLOOR_HALF_HEIGHT;
    let impact = ImpactSettings {
        restitution_threshold: settings.restitution_threshold,
        ..ImpactSettings::default()
    };
    resolve_impact(&mut bodies, f, d, point, floor.normal, &impact).unwrap();
    [f, d].map(|h| (body(&bodies, h).linvel(), body(&bodies, h).angvel()))
}

fn issue_scene(disc_mass: Option<Real>) -> (Floor, Disc) {
    (
        Floor {
            centre: Point::new(0.0, -FLOOR_HALF_HEIGHT),
            normal: Vector::y(),
            mass: None,
            velocity: Vector::zeros(),
            friction: 0.6,
        },
        Disc {
            mass: disc_mass,
            velocity: Vector::new(10.0, -10.0),
            friction: 0.6,
            restitution: 0.9,
        },
    )
}

fn assert_close(got: Vector, want: Vector, what: &str) {
    assert!((got - want).norm() < TOL, "{what}: {got} instead of {want}");
}

#[test]
fn a_locked_disc_landing_at_10_minus_10_leaves_at_0_9_from_the_solver_and_the_resolver() {
    let (floor, disc) = issue_scene(Some(1.0));
    let settings = SolverSettings::default();
    let want = Vector::new(0.0, 9.0);
    assert_close(solver(&floor, &disc, &settings)[1].0, want, "solver");
    assert_close(resolver(&floor, &disc, &settings)[1].0, want, "resolver");
}

#[test]
fn a_disc_free_to_turn_leaves_spinning_alike_from_the_solver_and_the_resolver() {
    let (floor, disc) = issue_scene(None);
    let settings = SolverSettings::default();
    let [_, (v, w)] = solver(&floor, &disc, &settings);
    let [_, (rv, rw)] = resolver(&floor, &disc, &settings);
    // The slip stops at the contact: the friction impulse 10/3 (with `r^2 / I = 2 / m`,
    // m = 1) leaves 20/3 along the floor and the disc rolls, `w = -v / r`.
    assert_close(rv, Vector::new(20.0 / 3.0, 9.0), "resolver");
    assert!((rw + 40.0 / 3.0).abs() < TOL, "resolver spin {rw}");
    assert_close(v, rv, "solver");
    assert!((w - rw).abs() < TOL, "solver spin {w} against {rw}");
}

fn floor_strategy() -> impl Strategy<Value = Floor> {
    (
        (-10.0..10.0, -10.0..10.0),
        -PI..PI,
        prop::option::of(0.1..10.0),
        (-20.0..20.0, -20.0..20.0),
        0.0..=2.0,
    )
        .prop_map(|((x, y), angle, mass, (vx, vy), friction)| Floor {
            centre: Point::new(x, y),
            normal: Vector::new(angle.cos(), angle.sin()),
            mass,
            velocity: if mass.is_some() {
                Vector::new(vx, vy)
            } else {
                Vector::zeros()
            },
            friction,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_contact_solver_bounces_with_the_resolvers_friction(
        floor in floor_strategy(),
        disc_mass in 0.1..10.0,
        // Above the default restitution threshold of 1, so every contact bounces.
        approach in 1.001..50.0,
        slip in -50.0..50.0,
        friction in 0.0..=2.0,
        restitution in 0.0..=1.0,
    ) {
        let settings = SolverSettings::default();
        prop_assert_eq!(settings.restitution_threshold, 1.0);
        let tangent = contact_tangent(&floor.normal);
        let disc = Disc {
            mass: Some(disc_mass),
            velocity: floor.velocity - floor.normal * approach + tangent * slip,
            friction,
            restitution,
        };
        let got = solver(&floor, &disc, &settings);
        let want = resolver(&floor, &disc, &settings);
        for (k, ((v, w), (rv, rw))) in got.iter().zip(&want).enumerate() {
            prop_assert!((v - rv).norm() < TOL, "body {}: solver {:?} resolver {:?}", k, v, rv);
            prop_assert!((w - rw).abs() < TOL, "body {}: spin {} against {}", k, w, rw);
        }
    }

    /// The same at any settings with at least one relax iteration: without one, the soft
    /// contact's push-out is not taken back and the normal velocities already differ.
    #[test]
    fn the_agreement_holds_at_any_substeps_and_iterations(
        floor in floor_strategy(),
        disc_mass in 0.1..10.0,
        approach in 1.001..50.0,
        slip in -50.0..50.0,
        friction in 0.0..=2.0,
        restitution in 0.0..=1.0,
        (substeps, velocity_iterations, relax_iterations, restitution_iterations)
            in (1u32..=8, 1u32..=3, 1u32..=3, 1u32..=4),
    ) {
        let settings = SolverSettings {
            substeps,
            velocity_iterations,
            relax_iterations,
            restitution_iterations,
            ..SolverSettings::default()
        };
        let tangent = contact_tangent(&floor.normal);
        let disc = Disc {
            mass: Some(disc_mass),
            velocity: floor.velocity - floor.normal * approach + tangent * slip,
            friction,
            restitution,
        };
        let got = solver(&floor, &disc, &settings);
        let want = resolver(&floor, &disc, &settings);
        for (k, ((v, w), (rv, rw))) in got.iter().zip(&want).enumerate() {
            prop_assert!((v - rv).norm() < TOL, "body {}: solver {:?} resolver {:?}", k, v, rv);
            prop_assert!((w - rw).abs() < TOL, "body {}: spin {} against {}", k, w, rw);
        }
    }

    /// Under gravity, on a slope, the slip of a landing disc can stop within the step and
    /// start again: the bound is on the impulses of the whole step, not the last substep's.
    #[test]
    fn a_bounce_under_gravity_stops_the_slip_or_puts_friction_on_the_whole_cone(
        slope in -1.3..1.3f64,
        approach in 1.1..6.0,
        slip in -2.0..2.0,
        friction in 0.0..=2.0,
        restitution in 0.01..=1.0,
        free_to_turn in any::<bool>(),
    ) {
        let settings = SolverSettings::default();
        let normal = Vector::new(-slope.sin(), slope.cos());
        let tangent = contact_tangent(&normal);
        let floor = Floor {
            centre: Point::new(0.0, -FLOOR_HALF_HEIGHT),
            normal,
            mass: None,
            velocity: Vector::zeros(),
            friction,
        };
        let disc = Disc {
            mass: if free_to_turn { None } else { Some(1.0) },
            velocity: -normal * approach + tangent * slip,
            friction,
            restitution,
        };
        let gravity = Vector::new(0.0, -10.0);
        let ([_, (v, w)], restitution_impulse) = solver_in(&floor, &disc, &settings, gravity);
        prop_assume!(restitution_impulse > 0.0);
        let (bodies, _, d) = scene(&floor, &disc);
        let m = body(&bodies, d).mass();
        // Friction is the only tangential impulse, the floor the only normal one.
        let change = v - disc.velocity - gravity * DT;
        let (jn, jt) = (m * change.dot(&normal), m * change.dot(&tangent));
        let cone = combine_friction(friction, friction) * jn;
        // The slip of the disc's point of contact against the floor, after the step.
        let lever = -normal * DISC_RADIUS;
        let vt = (v + Vector::new(-w * lever.y, w * lever.x)).dot(&tangent);
        let tol = TOL * (1.0 + jn.abs());
        prop_assert!(jt.abs() <= cone + tol, "friction {} past the cone {}", jt, cone);
        prop_assert!(
            vt.abs() < TOL * (1.0 + approach) || jt.abs() >= cone - tol,
            "slip {} left with friction {} inside the cone {}", vt, jt, cone
        );
    }
}
