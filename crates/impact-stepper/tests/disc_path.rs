//! Invariant: the disc path of `FirstTimeOfImpact` (a periodic world of free discs, stepped
//! as classic event-driven molecular dynamics) resolves the collisions the general event
//! loop resolves, in the same order, at the same times to rounding; a disc crosses cells
//! and the sides of the domain where its course says; it is deterministic; it is taken
//! only where it applies, and a step too long for the domain is refused as before.

mod common;

use common::{assert_same_run, elastic_disc, state_hash};
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{ConvexPolygon, Isometry, Real, Vector};
use impact_solver::RigidBodyDef;
use impact_stepper::{Domain, FirstTimeOfImpact, Impact, World, WorldSettings};
use impact_testkit::scenes::{self, hard_disk_stepper};

type Gas = World<RTreeBroadphase, FirstTimeOfImpact>;

/// The hard-disk gas of `n` discs at `eta` under `scenes::hard_disk_stepper()`.
fn gas(n: usize, eta: Real, seed: u64) -> Gas {
    let scene = scenes::hard_disks(n, eta, seed).unwrap();
    let mut world = Gas::with_parts(
        scene.settings,
        RTreeBroadphase::default(),
        FirstTimeOfImpact::new(hard_disk_stepper()).unwrap(),
    )
    .unwrap();
    for def in &scene.bodies {
        world.create_body(def.clone()).unwrap();
    }
    world
}

/// A step down the general path: a hook that does something (here, nothing the stepper
/// can see) is one the disc path cannot call.
fn general_step(
    world: &mut Gas,
    dt: Real,
) -> impact_stepper::StepReport<impact_stepper::FirstToiReport> {
    world.step_with(dt, &mut |_: &mut Impact<'_>| {}).unwrap()
}

/// One step of a small gas each way: the same collisions, pair for pair and in order,
/// at the same times, with the same impulses and normals to rounding, and the same end
/// state to rounding. Rounding differs (the disc path keeps positions on local clocks)
/// and a gas amplifies it, so the step is short: about one collision per disc.
#[test]
fn the_disc_path_and_the_general_path_agree_event_for_event() {
    for (eta, dt) in [(0.3, 1.0), (0.6, 0.3)] {
        let mut discs = gas(100, eta, 3);
        let mut general = gas(100, eta, 3);
        let a = discs.step(dt).unwrap();
        let b = general_step(&mut general, dt);
        assert!(a.stepper.disc_path && !b.stepper.disc_path);
        // The disc path skipped the world's pass. (The general path had it, but its discs
        // are all checked, so the broadphase holds only their start boxes, padded by the
        // target separation: a gas whose discs are apart has no pairs there either.)
        assert_eq!((a.pairs, a.manifolds), (0, 0));
        let (ea, eb) = (discs.events(), general.events());
        assert!(ea.len() > 50, "eta {eta}: {} collisions", ea.len());
        assert_eq!(ea.len(), eb.len(), "eta {eta}");
        assert_eq!(a.stepper.events, b.stepper.events);
        for (k, (x, y)) in ea.iter().zip(eb).enumerate() {
            assert_eq!(
                (x.a, x.b, x.kind),
                (y.a, y.b, y.kind),
                "eta {eta}, event {k}"
            );
            assert!(
                (x.time - y.time).abs() < 1e-9,
                "eta {eta}, event {k}: {x:?} {y:?}"
            );
            assert!((x.fraction - y.fraction).abs() < 1e-9);
            assert!((x.impulse.normal - y.impulse.normal).abs() < 1e-9);
            assert!((x.normal() - y.normal()).norm() < 1e-9);
            assert!((x.point() - y.point()).norm() < 1e-9);
            assert!((x.approach_speed() - y.approach_speed()).abs() < 1e-9);
            assert_eq!(x.impulse.restitution, y.impulse.restitution);
        }
        for ((ha, ba), (hb, bb)) in discs.bodies().zip(general.bodies()) {
            assert_eq!(ha, hb);
            assert!((ba.linvel() - bb.linvel()).norm() < 1e-9);
            let gap = ba.pose().translation.vector - bb.pose().translation.vector;
            let gap = discs.settings().domain.minimum_image(gap);
            assert!(gap.norm() < 1e-9, "{ha:?}: {gap:?}");
        }
        // Counters through the events API: every plan a query per neighbour, every
        // collision planned again.
        assert!(a.stepper.toi_queries > a.stepper.events);
        assert!(a.stepper.reach_escapes > 0, "crossings");
        assert_eq!(a.stepper.checked_bodies, 100);
        assert_eq!(a.stepper.time_lost, 0.0);
        assert_eq!(a.stepper.discrete.constraints, 0);
    }
}

/// Over many steps the two paths drift apart by rounding only: the same number of
/// collisions to a fraction of a percent, and the same pressure (sum of impulses).
#[test]
fn over_many_steps_the_paths_agree_on_the_physics() {
    let mut discs = gas(100, 0.4, 5);
    let mut general = gas(100, 0.4, 5);
    let (mut na, mut nb, mut ja, mut jb) = (0, 0, 0.0, 0.0);
    for _ in 0..40 {
        na += discs.step(0.5).unwrap().events;
        ja += discs
            .events()
            .iter()
            .map(|e| e.impulse.normal)
            .sum::<Real>();
        nb += general_step(&mut general, 0.5).events;
        jb += general
            .events()
            .iter()
            .map(|e| e.impulse.normal)
            .sum::<Real>();
    }
    let rate = (na as Real - nb as Real).abs() / nb as Real;
    assert!(rate < 0.05, "{na} vs {nb} collisions");
    assert!((ja - jb).abs() / jb < 0.05, "{ja} vs {jb}");
}

fn periodic_world(side: Real) -> Gas {
    let settings = WorldSettings {
        gravity: Vector::zeros(),
        speculative_distance: 0.0,
        domain: Domain::periodic_square(side).unwrap(),
        sleeping: false,
        ..WorldSettings::default()
    };
    Gas::with_parts(
        settings,
        RTreeBroadphase::default(),
        FirstTimeOfImpact::new(hard_disk_stepper()).unwrap(),
    )
    .unwrap()
}

/// A lone disc in a square of side 12 has a grid of 4 x 4 cells 3 wide (a few cells per
/// disc at most): over 30 s at unit speed along x from the middle of a cell it crosses
/// exactly ten cell sides, three of them sides of the domain, and ends where the torus
/// puts it. Diagonally it crosses ten each way, corners included.
#[test]
fn a_lone_disc_crosses_cells_and_sides_where_its_course_says() {
    for (v, crossings, end) in [
        (Vector::new(1.0, 0.0), 10, Vector::new(7.5, 1.5)),
        (Vector::new(-1.0, 1.0), 20, Vector::new(7.5, 7.5)),
    ] {
        let mut world = periodic_world(12.0);
        let h = world.create_body(elastic_disc(1.5, 1.5, v.x, v.y)).unwrap();
        let mut crossed = 0;
        for _ in 0..30 {
            let report = world.step(1.0).unwrap();
            assert!(report.stepper.disc_path);
            crossed += report.stepper.reach_escapes;
        }
        assert_eq!(crossed, crossings, "{v:?}");
        let p = world.body(h).unwrap().pose().translation.vector;
        assert!((p - end).norm() < 1e-12, "{v:?}: {p:?}");
    }
}

/// Two discs heading for the same corner of the domain from opposite sides meet through
/// it: the collision is at the time the unfolded plane gives, and energy and momentum are
/// kept.
#[test]
fn discs_meet_across_a_corner() {
    let mut world = periodic_world(12.0);
    let a = world
        .create_body(elastic_disc(1.0, 1.0, -3.0, -3.0))
        .unwrap();
    let b = world
        .create_body(elastic_disc(11.0, 10.8, 3.0, 3.0))
        .unwrap();
    // Through the corner b is at (-1, -1.2) from a, closing at 6 per axis: the first
    // contact of the unfolded courses in closed form.
    let (w, d) = (Vector::new(-2.0, -2.2), Vector::new(6.0, 6.0));
    let (aa, bb, cc) = (d.norm_squared(), 2.0 * w.dot(&d), w.norm_squared() - 1.0);
    let expected = (-bb - (bb * bb - 4.0 * aa * cc).sqrt()) / (2.0 * aa);
    assert!(expected > 0.0 && expected < 0.5, "{expected}");
    let mut events = Vec::new();
    for _ in 0..10 {
        assert!(world.step(0.05).unwrap().stepper.disc_path);
        events.extend_from_slice(world.events());
    }
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(
        (events[0].time - expected).abs() < 1e-12,
        "{} vs {expected}",
        events[0].time
    );
    assert_eq!((events[0].a, events[0].b), (a, b));
    let n = (w + d * expected).normalize();
    assert!((events[0].normal() - n).norm() < 1e-12);
    let (va, vb) = (
        world.body(a).unwrap().linvel(),
        world.body(b).unwrap().linvel(),
    );
    assert!((va + vb).norm() < 1e-12);
    assert!((va.norm_squared() + vb.norm_squared() - 36.0).abs() < 1e-12);
    assert!(va.x > -3.0 && va != Vector::new(-3.0, -3.0));
}

/// The same gas stepped twice gives the same bits, events included; a world rebuilt from
/// the bodies mid-run (a fresh stepper: the disc path keeps nothing between steps)
/// continues bit for bit.
#[test]
fn the_disc_path_is_deterministic() {
    let mut one = gas(200, 0.5, 11);
    let mut two = gas(200, 0.5, 11);
    for _ in 0..10 {
        let (a, b) = (one.step(0.3).unwrap(), two.step(0.3).unwrap());
        assert!(a.stepper.disc_path);
        assert_eq!(a, b);
        assert_eq!(one.events(), two.events());
        assert_eq!(state_hash(&one), state_hash(&two));
    }
    let mut fresh = one.clone();
    *fresh.stepper_mut() = FirstTimeOfImpact::new(hard_disk_stepper()).unwrap();
    assert_same_run(&mut one, &mut fresh, 10, 0.3);
}

/// Anything the disc path does not model sends the step down the general path: gravity,
/// a body that is not a free disc, an unbounded world, the default settings' safety nets.
#[test]
fn the_disc_path_is_taken_only_where_it_applies() {
    let taken = |world: &mut Gas| world.step(0.1).unwrap().stepper.disc_path;
    let mut world = gas(50, 0.3, 1);
    assert!(taken(&mut world));

    world.set_gravity(Vector::new(0.0, -1.0)).unwrap();
    assert!(!taken(&mut world));
    world.set_gravity(Vector::zeros()).unwrap();
    assert!(taken(&mut world));

    // Spin changes nothing without friction; with friction it would.
    let spinning = world.bodies().next().unwrap().0;
    world
        .set_velocity(spinning, Vector::new(0.1, 0.0), 1.0)
        .unwrap();
    assert!(taken(&mut world));
    let mut rough = hard_disk_stepper();
    rough.impact.friction = true;
    world.stepper_mut().set_settings(rough).unwrap();
    assert!(taken(&mut world), "the gas's discs have friction 0");
    let mut sticky = gas(50, 0.3, 1);
    sticky.stepper_mut().set_settings(rough).unwrap();
    let first = sticky.bodies().next().unwrap().0;
    sticky
        .body_mut(first)
        .unwrap()
        .set_material(impact_solver::Material::new(1.0, 0.5).unwrap());
    assert!(!taken(&mut sticky));

    let mut box_world = gas(50, 0.3, 1);
    box_world
        .create_body(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.2, 0.2).unwrap().into())
                .pose(Isometry::translation(0.5, 0.5))
                .ccd(true),
        )
        .unwrap();
    assert!(!taken(&mut box_world));

    let mut nets = gas(50, 0.3, 1);
    nets.stepper_mut()
        .set_settings(impact_stepper::FirstTimeOfImpactSettings::event_driven())
        .unwrap();
    assert!(!taken(&mut nets));

    let mut open = Gas::new(WorldSettings::with_gravity(Vector::zeros())).unwrap();
    open.create_body(elastic_disc(0.0, 0.0, 1.0, 0.0)).unwrap();
    assert!(!open.step(0.1).unwrap().stepper.disc_path);
}

/// The disc path skips the world's pass, and with it the check that swept boxes fit the
/// domain: a step too long is still refused by name, before anything moves.
#[test]
fn a_step_too_long_for_the_domain_is_still_refused() {
    let mut world = periodic_world(12.0);
    world.create_body(elastic_disc(1.5, 1.5, 1.0, 0.0)).unwrap();
    assert!(world.step(1.0).unwrap().stepper.disc_path);
    let hash = state_hash(&world);
    let e = world.step(10.0).unwrap_err();
    assert!(e.to_string().starts_with("dt: must be short enough"), "{e}");
    assert_eq!(state_hash(&world), hash);
    assert_eq!(world.step_count(), 1);
}

/// Energy over a hundred thousand collisions of a small gas: the path moves it by 2e-14
/// relative; with the bias of an earlier version (an impulse divided by a squared length
/// taken back from its square root, a few ulps off near contact) it moved by 3e-13.
#[test]
fn energy_has_no_bias_over_many_collisions() {
    let mut world = gas(100, 0.5, 2);
    let energy = |w: &Gas| {
        w.bodies()
            .map(|(_, b)| 0.5 * b.mass() * b.linvel().norm_squared())
            .sum::<Real>()
    };
    let e0 = energy(&world);
    let mut collisions = 0;
    while collisions < 100_000 {
        let report = world.step(0.5).unwrap();
        assert!(report.stepper.disc_path);
        collisions += report.events;
    }
    let drift = ((energy(&world) - e0) / e0).abs();
    assert!(drift < 1e-13, "{drift:e} over {collisions} collisions");
}
