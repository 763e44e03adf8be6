//! Invariant: [`ConstraintPoint::total_normal_impulse`] is the whole normal impulse a contact
//! applied over the step, every substep's and the bounce, and counting it changes nothing.
//!
//! - A box resting on the floor: its points' total impulses over `dt` carry its weight,
//!   `m g`, to 1e-9 relative once settled (the last substep's impulses carry `m g h` only
//!   roughly, to 1%).
//! - A ball landing on the floor without friction, with and without restitution: the total
//!   impulse is the change of its momentum plus the step's gravity, to 1e-9 relative.
//! - Counting is asked for ([`ContactSolver::track_total_impulses`]) or on by itself where a
//!   constraint has restitution; asked for, it leaves every body bit for bit as without it.

mod common;

use common::{body, boxed, disc};
use impact_geometry::tolerances::SPECULATIVE_DISTANCE;
use impact_geometry::{ConvexPolygon, Isometry, Point, Real, Vector};
use impact_narrowphase::contact_manifold;
use impact_solver::{
    BodyHandle, BodySet, ContactCache, ContactPair, ContactSolver, RigidBodyDef, SolverScratch,
    SolverSettings,
};

const DT: Real = 1.0 / 60.0;
const G: Real = 10.0;

fn floor(bodies: &mut BodySet) -> BodyHandle {
    bodies
        .insert(
            RigidBodyDef::fixed(ConvexPolygon::rectangle(50.0, 0.5).unwrap().into())
                .pose(Isometry::translation(0.0, -0.5))
                .friction(0.0),
        )
        .unwrap()
}

/// One step of the pair `a`, `b`, counting the total impulses if `track`: the solver, done.
fn step(
    bodies: &mut BodySet,
    cache: &mut ContactCache,
    (a, b): (BodyHandle, BodyHandle),
    track: bool,
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
    let settings = SolverSettings::default();
    let mut scratch = SolverScratch::new();
    let mut solver =
        ContactSolver::new_in(bodies, &pairs, cache, &settings, DT, &mut scratch).unwrap();
    if track {
        solver.track_total_impulses();
    }
    solver.step(bodies, Vector::new(0.0, -G)).unwrap();
    solver.store_impulses(cache);
    solver
}

/// The total normal impulse of every point of the step's constraints.
fn total(solver: &ContactSolver) -> Real {
    solver
        .constraints()
        .iter()
        .flat_map(|c| c.points())
        .map(|p| p.total_normal_impulse())
        .sum()
}

#[test]
fn a_resting_box_carries_its_weight_over_the_step() {
    let mut bodies = BodySet::new();
    let ground = floor(&mut bodies);
    let b = bodies
        .insert(boxed(0.5, 0.5, Point::new(0.0, 0.5), 0.0))
        .unwrap();
    let mut untracked = bodies.clone();
    let (mut cache, mut cache_untracked) = (ContactCache::new(), ContactCache::new());
    for k in 0..300 {
        let solver = step(&mut bodies, &mut cache, (ground, b), true);
        assert!(solver.tracks_total_impulses());
        let plain = step(&mut untracked, &mut cache_untracked, (ground, b), false);
        assert!(!plain.tracks_total_impulses());
        assert_eq!(total(&plain), 0.0, "not counted without restitution");
        let (x, y) = (body(&bodies, b), body(&untracked, b));
        assert_eq!(
            (x.pose(), x.linvel(), x.angvel()),
            (y.pose(), y.linvel(), y.angvel()),
            "step {k}: counting changed the box"
        );
        if k >= 120 {
            let weight = x.mass() * G;
            let force = total(&solver) / DT;
            assert!(
                (force - weight).abs() <= 1e-9 * weight,
                "step {k}: {force} N against {weight} N"
            );
        }
    }
}

#[test]
fn a_landing_ball_takes_its_change_of_momentum() {
    for restitution in [0.0, 0.5, 1.0] {
        let mut bodies = BodySet::new();
        let ground = floor(&mut bodies);
        // 1 cm above the floor, falling at 3 m/s: it lands inside the step.
        let ball = bodies
            .insert(
                disc(0.25, 1.0, Point::new(0.0, 0.26), Vector::new(0.0, -3.0))
                    .restitution(restitution)
                    .friction(0.0),
            )
            .unwrap();
        let mut cache = ContactCache::new();
        let (m, v0) = (body(&bodies, ball).mass(), body(&bodies, ball).linvel().y);
        let solver = step(&mut bodies, &mut cache, (ground, ball), true);
        let v1 = body(&bodies, ball).linvel().y;
        let want = m * (v1 - v0) + m * G * DT;
        let got = total(&solver);
        assert!(got > 0.0, "e = {restitution}: the floor pushed");
        assert!(
            (got - want).abs() <= 1e-9 * want,
            "e = {restitution}: {got} against {want}"
        );
    }
}
