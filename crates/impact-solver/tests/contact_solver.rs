//! Invariant: the contact solver behaves like Coulomb contact. A box sliding on the floor
//! stops after `v0^2 / (2 mu g)` (within 3%); a box resting on the floor stays put and its
//! normal impulse carries its weight; a speculative contact that the bodies do not close
//! within the step applies no impulse and leaves velocities alone; warm starting reloads the
//! cached impulses for the same (pair, feature) in either pair order.

mod common;

use common::{body, boxed, disc};
use impact_geometry::tolerances::SPECULATIVE_DISTANCE;
use impact_geometry::{ConvexPolygon, Isometry, Point, Real, Vector};
use impact_narrowphase::contact_manifold;
use impact_solver::{
    BodyHandle, BodySet, ContactCache, ContactPair, ContactSolver, RigidBodyDef, SolverSettings,
    solve_step,
};

const DT: Real = 1.0 / 60.0;
const G: Real = 10.0;

fn floor(bodies: &mut BodySet, friction: Real) -> BodyHandle {
    bodies
        .insert(
            RigidBodyDef::fixed(ConvexPolygon::rectangle(50.0, 0.5).unwrap().into())
                .pose(Isometry::translation(0.0, -0.5))
                .friction(friction),
        )
        .unwrap()
}

fn step(
    bodies: &mut BodySet,
    cache: &mut ContactCache,
    a: BodyHandle,
    b: BodyHandle,
) -> ContactSolver {
    let (x, y) = (body(bodies, a), body(bodies, b));
    let manifold = contact_manifold(
        x.shape(),
        x.pose(),
        y.shape(),
        y.pose(),
        SPECULATIVE_DISTANCE,
    );
    let pairs = [ContactPair {
        a,
        b,
        manifold,
        shapes: [0, 0],
        offset: Vector::zeros(),
        material: None,
    }];
    solve_step(
        bodies,
        &pairs,
        cache,
        Vector::new(0.0, -G),
        &SolverSettings::default(),
        DT,
    )
    .unwrap()
}

#[test]
fn sliding_box_stops_after_the_coulomb_distance() {
    let (mu, v0) = (0.5, 4.0);
    let mut bodies = BodySet::new();
    let ground = floor(&mut bodies, mu);
    let b = bodies
        .insert(
            boxed(0.25, 0.25, Point::new(0.0, 0.25), 0.0)
                .linvel(Vector::new(v0, 0.0))
                .friction(mu),
        )
        .unwrap();
    let mut cache = ContactCache::new();
    for _ in 0..240 {
        step(&mut bodies, &mut cache, ground, b);
    }
    let bx = body(&bodies, b);
    assert!(bx.linvel().norm() < 1e-6, "still moving at {}", bx.linvel());
    assert!(
        bx.angvel().abs() < 1e-6,
        "a sliding box must not tip: {}",
        bx.angvel()
    );
    let want = v0 * v0 / (2.0 * mu * G);
    let got = bx.pose().translation.x;
    assert!((got - want).abs() / want < 0.03, "slid {got}, want {want}");
}

#[test]
fn resting_box_stays_and_carries_its_weight() {
    let mut bodies = BodySet::new();
    let ground = floor(&mut bodies, 0.6);
    let b = bodies
        .insert(boxed(0.5, 0.5, Point::new(0.0, 0.5), 0.0))
        .unwrap();
    let mut cache = ContactCache::new();
    let mut last = None;
    for _ in 0..300 {
        last = Some(step(&mut bodies, &mut cache, ground, b));
    }
    let bx = body(&bodies, b);
    assert!((bx.pose().translation.y - 0.5).abs() < 0.01);
    assert!(bx.pose().translation.x.abs() < 1e-9);
    assert!(bx.linvel().norm() < 1e-6);
    // Accumulated impulses are per substep: together they carry m g h.
    let solver = last.unwrap();
    let h = solver.substep();
    let total: Real = solver.constraints()[0]
        .points()
        .iter()
        .map(|p| p.normal_impulse())
        .sum();
    let weight = bx.mass() * G * h;
    assert!(
        (total - weight).abs() / weight < 0.01,
        "{total} vs {weight}"
    );
    assert_eq!(cache.len(), 2);
}

#[test]
fn distant_speculative_contact_applies_nothing() {
    let mut bodies = BodySet::new();
    let ground = floor(&mut bodies, 0.6);
    // 1.5 cm above the floor (inside the speculative distance), rising slowly.
    let ball = bodies
        .insert(disc(
            0.25,
            1.0,
            Point::new(0.0, 0.265),
            Vector::new(0.3, 0.5),
        ))
        .unwrap();
    let (g, bl) = (body(&bodies, ground), body(&bodies, ball));
    let manifold = contact_manifold(
        g.shape(),
        g.pose(),
        bl.shape(),
        bl.pose(),
        SPECULATIVE_DISTANCE,
    );
    assert_eq!(manifold.points().len(), 1);
    let pairs = [ContactPair {
        a: ground,
        b: ball,
        manifold,
        shapes: [0, 0],
        offset: Vector::zeros(),
        material: None,
    }];
    let mut cache = ContactCache::new();
    let solver = solve_step(
        &mut bodies,
        &pairs,
        &mut cache,
        Vector::zeros(),
        &SolverSettings::default(),
        DT,
    )
    .unwrap();
    let p = solver.constraints()[0].points()[0];
    assert_eq!(
        (
            p.normal_impulse(),
            p.max_normal_impulse(),
            p.tangent_impulse()
        ),
        (0.0, 0.0, 0.0)
    );
    assert_eq!(body(&bodies, ball).linvel(), Vector::new(0.3, 0.5));
}

#[test]
fn warm_start_reloads_impulses_in_either_order() {
    let mut bodies = BodySet::new();
    let ground = floor(&mut bodies, 0.6);
    let b = bodies
        .insert(boxed(0.5, 0.5, Point::new(0.0, 0.5), 0.0))
        .unwrap();
    let mut cache = ContactCache::new();
    for _ in 0..30 {
        step(&mut bodies, &mut cache, ground, b);
    }
    let (g, bx) = (body(&bodies, ground), body(&bodies, b));
    let forward = contact_manifold(
        g.shape(),
        g.pose(),
        bx.shape(),
        bx.pose(),
        SPECULATIVE_DISTANCE,
    );
    let reverse = contact_manifold(
        bx.shape(),
        bx.pose(),
        g.shape(),
        g.pose(),
        SPECULATIVE_DISTANCE,
    );
    let settings = SolverSettings::default();
    let f = ContactSolver::new(
        &bodies,
        &[ContactPair {
            a: ground,
            b,
            manifold: forward,
            shapes: [0, 0],
            offset: Vector::zeros(),
            material: None,
        }],
        &cache,
        &settings,
        DT,
    )
    .unwrap();
    let r = ContactSolver::new(
        &bodies,
        &[ContactPair {
            a: b,
            b: ground,
            manifold: reverse,
            shapes: [0, 0],
            offset: Vector::zeros(),
            material: None,
        }],
        &cache,
        &settings,
        DT,
    )
    .unwrap();
    let sum = |s: &ContactSolver| -> (Real, Real) {
        s.constraints()[0]
            .points()
            .iter()
            .fold((0.0, 0.0), |acc, p| {
                (acc.0 + p.normal_impulse(), acc.1 + p.tangent_impulse())
            })
    };
    let (fn_, ft) = sum(&f);
    let (rn, rt) = sum(&r);
    assert!(fn_ > 0.0, "warm start loaded the cached impulses");
    assert!((fn_ - rn).abs() < 1e-15 && (ft - rt).abs() < 1e-15);
    let cold = ContactSolver::new(
        &bodies,
        &[ContactPair {
            a: ground,
            b,
            manifold: forward,
            shapes: [0, 0],
            offset: Vector::zeros(),
            material: None,
        }],
        &cache,
        &SolverSettings {
            warm_starting: false,
            ..settings
        },
        DT,
    )
    .unwrap();
    assert_eq!(sum(&cold), (0.0, 0.0));
}
