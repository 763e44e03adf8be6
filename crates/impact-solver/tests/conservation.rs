//! Invariant: every impulse conserves linear momentum and angular momentum about a fixed
//! world point, to round-off: the single-impact resolver on random bodies, points and
//! normals, and the contact solver's velocity passes (warm start, biased solve, relax,
//! restitution, over two rounds so the second warm starts from the first) on random
//! manifolds of random dynamic bodies. Whole steps, which move the bodies between substeps,
//! conserve linear momentum to round-off; their angular momentum changes by `d x P` per
//! impulse once the two bodies of a contact moved by `d` relative to each other, because
//! each body is pushed at its own prepared lever arm (see the solver's `Anchors`).
//!
//! Kinetic energy: the resolver conserves it for restitution 1 without friction and never
//! increases it otherwise (each of its two impulses stops or reverses at most the relative
//! velocity it acts on). The contact solver's relax pass never increases it (projected
//! Gauss-Seidel descends the energy without a bias); a single frictionless contact through
//! every velocity stage conserves it for restitution 1 and loses it otherwise. (Only the
//! biased pass may add energy, by design: it pushes overlap out, and relax takes it back.)

mod common;

use common::{angular_momentum, kinetic_energy, linear_momentum, momentum_scale};
use impact_geometry::tolerances::SPECULATIVE_DISTANCE;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Shape, Vector};
use impact_narrowphase::contact_manifold;
use impact_solver::{
    BodyHandle, BodySet, ContactCache, ContactPair, ContactSolver, ImpactSettings, RigidBodyDef,
    SolverSettings, resolve_impact,
};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct BodySpec {
    circle: bool,
    size: (Real, Real),
    density: Real,
    position: (Real, Real),
    angle: Real,
    linvel: (Real, Real),
    angvel: Real,
    restitution: Real,
    friction: Real,
}

fn body_spec(extent: Real) -> impl Strategy<Value = BodySpec> {
    (
        any::<bool>(),
        (0.1..1.0, 0.1..1.0),
        0.1..10.0,
        (-extent..extent, -extent..extent),
        -4.0..4.0,
        (-5.0..5.0, -5.0..5.0),
        -5.0..5.0,
        0.0..=1.0,
        0.0..1.5,
    )
        .prop_map(
            |(circle, size, density, position, angle, linvel, angvel, restitution, friction)| {
                BodySpec {
                    circle,
                    size,
                    density,
                    position,
                    angle,
                    linvel,
                    angvel,
                    restitution,
                    friction,
                }
            },
        )
}

fn def(s: &BodySpec) -> RigidBodyDef {
    let shape: Shape = if s.circle {
        Circle::new(s.size.0).unwrap().into()
    } else {
        ConvexPolygon::rectangle(s.size.0, s.size.1).unwrap().into()
    };
    RigidBodyDef::new(shape)
        .density(s.density)
        .pose(Isometry::new(
            Vector::new(s.position.0, s.position.1),
            s.angle,
        ))
        .linvel(Vector::new(s.linvel.0, s.linvel.1))
        .angvel(s.angvel)
        .restitution(s.restitution)
        .friction(s.friction)
}

struct Snapshot {
    p: Vector,
    l: [Real; 2],
    ke: Real,
    scale: Real,
}

const ORIGINS: [Point; 2] = [Point::new(0.0, 0.0), Point::new(7.0, -3.0)];

fn snapshot(bodies: &BodySet) -> Snapshot {
    Snapshot {
        p: linear_momentum(bodies),
        l: ORIGINS.map(|o| angular_momentum(bodies, &o)),
        ke: kinetic_energy(bodies),
        scale: momentum_scale(bodies),
    }
}

fn assert_momentum(before: &Snapshot, bodies: &BodySet) -> Result<(), TestCaseError> {
    let after = snapshot(bodies);
    let tol = 1e-12 * before.scale.max(after.scale) * 16.0;
    prop_assert!(
        (after.p - before.p).norm() <= tol,
        "linear momentum {} -> {}",
        before.p,
        after.p
    );
    for ((origin, l0), l1) in ORIGINS.iter().zip(before.l).zip(after.l) {
        prop_assert!(
            (l1 - l0).abs() <= tol * 10.0,
            "angular momentum about {} {} -> {}",
            origin,
            l0,
            l1
        );
    }
    Ok(())
}

/// All pairs in index order, with the manifolds the narrowphase gives.
fn pairs_of(bodies: &BodySet, handles: &[BodyHandle], speculative: Real) -> Vec<ContactPair> {
    let mut pairs = Vec::new();
    for i in 0..handles.len() {
        for j in i + 1..handles.len() {
            let (a, b) = (
                &bodies.get(handles[i]).unwrap(),
                &bodies.get(handles[j]).unwrap(),
            );
            let manifold = contact_manifold(a.shape(), a.pose(), b.shape(), b.pose(), speculative);
            if !manifold.is_empty() {
                pairs.push(ContactPair {
                    a: handles[i],
                    b: handles[j],
                    manifold,
                    shapes: [0, 0],
                    offset: Vector::zeros(),
                    material: None,
                });
            }
        }
    }
    pairs
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn resolver_conserves_momentum_and_never_adds_energy(
        a in body_spec(3.0),
        b in body_spec(3.0),
        point in (-3.0..3.0, -3.0..3.0),
        normal_angle in -4.0..4.0,
        elastic_frictionless in any::<bool>(),
    ) {
        let (mut a, mut b) = (a, b);
        if elastic_frictionless {
            a.restitution = 1.0;
            b.restitution = 1.0;
            a.friction = 0.0;
            b.friction = 0.0;
        }
        let mut bodies = BodySet::new();
        let ha = bodies.insert(def(&a)).unwrap();
        let hb = bodies.insert(def(&b)).unwrap();
        let before = snapshot(&bodies);
        let normal = Vector::new(Real::cos(normal_angle), Real::sin(normal_angle));
        let point = Point::new(point.0, point.1);
        let imp = resolve_impact(&mut bodies, ha, hb, point, normal, &ImpactSettings::default())
            .unwrap();
        prop_assert!(imp.normal >= 0.0);
        prop_assert!(imp.tangent.abs() <= a.friction.max(b.friction) * imp.normal + 1e-12);
        assert_momentum(&before, &bodies)?;
        let ke = kinetic_energy(&bodies);
        let tol = 1e-12 * (1.0 + before.ke);
        if elastic_frictionless {
            prop_assert!((ke - before.ke).abs() <= tol, "elastic: {} -> {}", before.ke, ke);
            // Approaching points leave at their approach speed; separating ones are untouched.
            let (ba, bb) = (bodies.get(ha).unwrap(), bodies.get(hb).unwrap());
            let vn = (bb.velocity_at_point(&point) - ba.velocity_at_point(&point)).dot(&normal);
            prop_assert!((vn - imp.approach_speed.abs()).abs() <= 1e-12 * (1.0 + vn.abs()));
        } else {
            prop_assert!(ke <= before.ke + tol, "energy grew: {} -> {}", before.ke, ke);
        }
    }

    /// A moving kinematic paddle may give a body energy in the world, but not in its own
    /// frame: seen from a paddle translating at `u`, the impact is one against a fixed body,
    /// which never adds energy (the body spinning or not).
    #[test]
    fn resolver_never_adds_energy_in_a_moving_paddles_frame(
        a in body_spec(3.0),
        paddle in (-20.0..20.0f64, -20.0..20.0f64),
        point in (-3.0..3.0, -3.0..3.0),
        normal_angle in -4.0..4.0,
    ) {
        let mut bodies = BodySet::new();
        let u = Vector::new(paddle.0, paddle.1);
        let ha = bodies.insert(def(&a)).unwrap();
        let hb = bodies
            .insert(
                RigidBodyDef::kinematic(ConvexPolygon::rectangle(1.0, 0.1).unwrap().into())
                    .linvel(u),
            )
            .unwrap();
        let relative_energy = |bodies: &BodySet| {
            let body = bodies.get(ha).unwrap();
            0.5 * body.mass() * (body.linvel() - u).norm_squared()
                + 0.5 * body.inertia() * body.angvel() * body.angvel()
        };
        let before = relative_energy(&bodies);
        let normal = Vector::new(Real::cos(normal_angle), Real::sin(normal_angle));
        let point = Point::new(point.0, point.1);
        resolve_impact(&mut bodies, ha, hb, point, normal, &ImpactSettings::default()).unwrap();
        prop_assert_eq!(bodies.get(hb).unwrap().linvel(), u);
        let after = relative_energy(&bodies);
        prop_assert!(after <= before * (1.0 + 1e-12) + 1e-15, "{} -> {}", before, after);
    }

    #[test]
    fn contact_solver_velocity_passes_conserve_momentum(
        specs in prop::collection::vec(body_spec(1.2), 2..6),
        warm_starting in any::<bool>(),
    ) {
        let mut bodies = BodySet::new();
        let handles: Vec<_> = specs.iter().map(|s| bodies.insert(def(s)).unwrap()).collect();
        let settings = SolverSettings {
            warm_starting,
            restitution_threshold: 0.0,
            ..SolverSettings::default()
        };
        let mut cache = ContactCache::new();
        let pairs = pairs_of(&bodies, &handles, 0.2);
        prop_assume!(!pairs.is_empty());
        let before = snapshot(&bodies);
        for _ in 0..2 {
            let mut solver =
                ContactSolver::new(&bodies, &pairs, &cache, &settings, 1.0 / 60.0).unwrap();
            solver.warm_start(&mut bodies).unwrap();
            solver.solve_velocities(&mut bodies).unwrap();
            solver.relax_velocities(&mut bodies).unwrap();
            solver.apply_restitution(&mut bodies, Vector::zeros()).unwrap();
            solver.store_impulses(&mut cache);
        }
        assert_momentum(&before, &bodies)?;
    }

    #[test]
    fn contact_solver_steps_conserve_linear_momentum(
        specs in prop::collection::vec(body_spec(1.2), 2..6),
        warm_starting in any::<bool>(),
    ) {
        let mut bodies = BodySet::new();
        let handles: Vec<_> = specs.iter().map(|s| bodies.insert(def(s)).unwrap()).collect();
        let settings = SolverSettings { warm_starting, ..SolverSettings::default() };
        let mut cache = ContactCache::new();
        let dt = 1.0 / 60.0;
        let before = snapshot(&bodies);
        prop_assume!(!pairs_of(&bodies, &handles, 0.2).is_empty());
        // Two steps, so the second warm starts from the first's impulses.
        for _ in 0..2 {
            let pairs = pairs_of(&bodies, &handles, 0.2);
            let mut solver = ContactSolver::new(&bodies, &pairs, &cache, &settings, dt).unwrap();
            solver.step(&mut bodies, Vector::zeros()).unwrap();
            solver.store_impulses(&mut cache);
            for c in solver.constraints() {
                for p in c.points() {
                    prop_assert!(p.normal_impulse() >= 0.0);
                    prop_assert!(p.tangent_impulse().abs() <= c.friction() * p.normal_impulse() * (1.0 + 1e-12));
                }
            }
        }
        let tol = 1e-12 * before.scale.max(momentum_scale(&bodies)) * 16.0;
        let p = linear_momentum(&bodies);
        prop_assert!((p - before.p).norm() <= tol, "linear momentum {} -> {}", before.p, p);
    }

    #[test]
    fn relax_pass_never_adds_energy(
        specs in prop::collection::vec(body_spec(1.2), 2..6),
    ) {
        let mut bodies = BodySet::new();
        let handles: Vec<_> = specs.iter().map(|s| bodies.insert(def(s)).unwrap()).collect();
        let pairs = pairs_of(&bodies, &handles, 0.2);
        prop_assume!(!pairs.is_empty());
        let settings = SolverSettings { relax_iterations: 4, ..SolverSettings::default() };
        let mut solver =
            ContactSolver::new(&bodies, &pairs, &ContactCache::new(), &settings, 1.0 / 60.0).unwrap();
        let before = snapshot(&bodies);
        solver.relax_velocities(&mut bodies).unwrap();
        assert_momentum(&before, &bodies)?;
        let ke = kinetic_energy(&bodies);
        prop_assert!(ke <= before.ke * (1.0 + 1e-12) + 1e-12, "energy grew: {} -> {}", before.ke, ke);
    }

    #[test]
    fn single_frictionless_contact_keeps_or_loses_energy(
        a in body_spec(0.6),
        b in body_spec(0.6),
        elastic in any::<bool>(),
    ) {
        let (mut a, mut b) = (a, b);
        // Circles against anything give one contact point.
        a.circle = true;
        a.friction = 0.0;
        b.friction = 0.0;
        if elastic {
            a.restitution = 1.0;
        }
        let mut bodies = BodySet::new();
        let handles = [bodies.insert(def(&a)).unwrap(), bodies.insert(def(&b)).unwrap()];
        let pairs = pairs_of(&bodies, &handles, SPECULATIVE_DISTANCE * 10.0);
        prop_assume!(!pairs.is_empty());
        prop_assert_eq!(pairs[0].manifold.points().len(), 1);
        let settings = SolverSettings { restitution_threshold: 0.0, ..SolverSettings::default() };
        let mut solver =
            ContactSolver::new(&bodies, &pairs, &ContactCache::new(), &settings, 1.0 / 60.0).unwrap();
        let before = snapshot(&bodies);
        solver.solve_velocities(&mut bodies).unwrap();
        solver.relax_velocities(&mut bodies).unwrap();
        solver.apply_restitution(&mut bodies, Vector::zeros()).unwrap();
        assert_momentum(&before, &bodies)?;
        let ke = kinetic_energy(&bodies);
        let tol = 1e-12 * (1.0 + before.ke);
        let pushed = solver.constraints()[0].points()[0].max_normal_impulse() > 0.0;
        let approaching = solver.constraints()[0].points()[0].relative_velocity() < 0.0;
        if elastic && pushed && approaching {
            prop_assert!((ke - before.ke).abs() <= tol, "elastic: {} -> {}", before.ke, ke);
        } else {
            prop_assert!(ke <= before.ke + tol, "energy grew: {} -> {}", before.ke, ke);
        }
    }
}
