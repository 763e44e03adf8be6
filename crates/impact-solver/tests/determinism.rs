//! Invariant: the same calls give bit-identical bodies. A small scene (a stack of boxes,
//! bouncing and spinning discs, a kinematic platform) run twice for 240 steps through the
//! integrator, the narrowphase and the contact solver ends in the same bits, and so does a run
//! continued from a clone of the set and cache taken halfway (what a snapshot restores).
//! Integration lands bit for bit where the body's sweep says it will.

mod common;

use common::{boxed, disc, state_bits};
use impact_geometry::tolerances::SPECULATIVE_DISTANCE;
use impact_geometry::{ConvexPolygon, Isometry, Point, Real, Vector};
use impact_narrowphase::contact_manifold;
use impact_solver::{
    BodyHandle, BodySet, ContactCache, ContactPair, RigidBodyDef, SolverSettings,
    integrate_positions, solve_step,
};

const DT: Real = 1.0 / 60.0;

fn scene() -> (BodySet, Vec<BodyHandle>) {
    let mut bodies = BodySet::new();
    let mut handles = vec![
        bodies
            .insert(
                RigidBodyDef::fixed(ConvexPolygon::rectangle(10.0, 0.5).unwrap().into())
                    .pose(Isometry::translation(0.0, -0.5)),
            )
            .unwrap(),
    ];
    for i in 0..4 {
        handles.push(
            bodies
                .insert(boxed(
                    0.5,
                    0.5,
                    Point::new(0.02 * Real::from(i), 0.5 + Real::from(i)),
                    0.0,
                ))
                .unwrap(),
        );
    }
    for i in 0..3 {
        let x = 2.0 + Real::from(i);
        handles.push(
            bodies
                .insert(
                    disc(
                        0.3,
                        1.0,
                        Point::new(x, 2.0 + Real::from(i)),
                        Vector::new(-1.0, 0.0),
                    )
                    .angvel(3.0)
                    .restitution(0.6),
                )
                .unwrap(),
        );
    }
    handles.push(
        bodies
            .insert(
                RigidBodyDef::kinematic(ConvexPolygon::rectangle(1.0, 0.1).unwrap().into())
                    .pose(Isometry::translation(-3.0, 1.0))
                    .linvel(Vector::new(0.5, 0.0))
                    .angvel(0.2),
            )
            .unwrap(),
    );
    (bodies, handles)
}

fn pairs(bodies: &BodySet, handles: &[BodyHandle]) -> Vec<ContactPair> {
    let mut out = Vec::new();
    for i in 0..handles.len() {
        for j in i + 1..handles.len() {
            let (a, b) = (
                bodies.get(handles[i]).unwrap(),
                bodies.get(handles[j]).unwrap(),
            );
            let manifold = contact_manifold(
                a.shape(),
                a.pose(),
                b.shape(),
                b.pose(),
                SPECULATIVE_DISTANCE,
            );
            if !manifold.is_empty() {
                out.push(ContactPair {
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
    out
}

fn run(bodies: &mut BodySet, cache: &mut ContactCache, handles: &[BodyHandle], steps: usize) {
    for _ in 0..steps {
        let p = pairs(bodies, handles);
        solve_step(
            bodies,
            &p,
            cache,
            Vector::new(0.0, -9.81),
            &SolverSettings::default(),
            DT,
        )
        .unwrap();
    }
}

#[test]
fn same_scene_twice_is_bit_identical() {
    let (mut a, handles) = scene();
    let (mut b, _) = scene();
    let (mut ca, mut cb) = (ContactCache::new(), ContactCache::new());
    run(&mut a, &mut ca, &handles, 240);
    run(&mut b, &mut cb, &handles, 240);
    assert_eq!(state_bits(&a), state_bits(&b));
    assert_eq!(ca, cb);
    // The scene did something: the discs fell and the platform moved.
    let disc = a.get(handles[5]).unwrap();
    assert!(disc.pose().translation.y < 1.0);
    assert!(!ca.is_empty());
}

#[test]
fn continuing_from_a_clone_is_bit_identical() {
    let (mut a, handles) = scene();
    let mut ca = ContactCache::new();
    run(&mut a, &mut ca, &handles, 120);
    let (mut b, mut cb) = (a.clone(), ca.clone());
    run(&mut a, &mut ca, &handles, 120);
    run(&mut b, &mut cb, &handles, 120);
    assert_eq!(state_bits(&a), state_bits(&b));
}

#[test]
fn integration_lands_on_the_sweep_end() {
    let (mut bodies, handles) = scene();
    let sweeps: Vec<_> = handles
        .iter()
        .map(|&h| bodies.get(h).unwrap().sweep(DT).unwrap())
        .collect();
    integrate_positions(&mut bodies, DT).unwrap();
    for (&h, sweep) in handles.iter().zip(&sweeps) {
        assert_eq!(*bodies.get(h).unwrap().pose(), sweep.pose_at(1.0));
    }
}

/// A pile larger than [`scene`] in every array: more bodies (higher slots), constraints and
/// chunks, with restitution.
fn larger_pile() -> (BodySet, Vec<BodyHandle>) {
    let (mut bodies, mut handles) = scene();
    for i in 0..40 {
        let (x, y) = (
            Real::from(i % 8) * 0.5 - 2.0,
            0.2 + Real::from(i / 8) * 0.45,
        );
        handles.push(
            bodies
                .insert(disc(0.25, 1.0, Point::new(x, y), Vector::new(0.0, -3.0)).restitution(0.9))
                .unwrap(),
        );
    }
    (bodies, handles)
}

/// The solver reuses the buffers of the last one dropped on its thread: a run after a larger
/// solve must give the bits of the same run on a thread that never solved anything.
#[test]
fn a_solve_after_a_larger_one_is_bit_identical() {
    let small_run = || {
        let (mut bodies, handles) = scene();
        let mut cache = ContactCache::new();
        run(&mut bodies, &mut cache, &handles, 120);
        (state_bits(&bodies), cache)
    };
    let fresh = std::thread::spawn(small_run).join().unwrap();
    let after_larger = std::thread::spawn(move || {
        let (mut pile, pile_handles) = larger_pile();
        let mut cache = ContactCache::new();
        run(&mut pile, &mut cache, &pile_handles, 3);
        // The pile gave the solver more to hold than the scene will.
        assert!(pairs(&pile, &pile_handles).len() > 2 * pairs(&scene().0, &scene().1).len());
        small_run()
    })
    .join()
    .unwrap();
    assert_eq!(fresh, after_larger);
}
