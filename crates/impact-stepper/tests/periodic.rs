//! Invariant: a periodic domain is the plane folded onto a torus. Two discs meeting across a
//! side (and across a corner) collide at the time and leave with the velocities the
//! two-disc formula gives, under every broadphase; scenes far from the sides step bit for bit
//! as in an unbounded world, under every stepper; bodies stay inside the domain; a snapshot
//! of a periodic world continues bit for bit; bad domains and bodies too big for the domain
//! are refused by name and change nothing; a small hard-disk gas keeps its energy to 1e-12
//! and its momentum to rounding with no overlap beyond 1e-9.

mod common;

#[cfg(feature = "serde")]
use common::assert_same_run;
use common::{DT, elastic_disc, state_hash};
use impact_broadphase::{Broadphase, BruteForce, RTreeBroadphase, SortAndSweep};
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Vector};
use impact_solver::RigidBodyDef;
use impact_stepper::{
    Discrete, Domain, FirstTimeOfImpact, MotionClamping, Stepper, World, WorldError, WorldSettings,
};
use impact_testkit::scenes::{self, hard_disk_stepper};

fn periodic_settings(side: Real) -> WorldSettings {
    WorldSettings {
        gravity: Vector::zeros(),
        domain: Domain::periodic_square(side).unwrap(),
        ..WorldSettings::default()
    }
}

fn event_world<B: Broadphase + Default>(settings: WorldSettings) -> World<B, FirstTimeOfImpact> {
    World::with_parts(
        settings,
        B::default(),
        FirstTimeOfImpact::new(hard_disk_stepper()).unwrap(),
    )
    .unwrap()
}

/// Two unit discs head on across a side, or across a corner: they meet through the
/// images, exchange velocities, and come back out the way they came.
fn two_discs_across<B: Broadphase + Default>(a: (Real, Real), b: (Real, Real), v: (Real, Real)) {
    let side = 10.0;
    let mut world = event_world::<B>(periodic_settings(side));
    let ha = world.create_body(elastic_disc(a.0, a.1, v.0, v.1)).unwrap();
    let hb = world
        .create_body(elastic_disc(b.0, b.1, -v.0, -v.1))
        .unwrap();
    // Through the image of b nearest a: centres `gap` apart, closing at twice the speed.
    let d = Domain::periodic_square(side)
        .unwrap()
        .minimum_image(Vector::new(b.0 - a.0, b.1 - a.1));
    let speed = Vector::new(v.0, v.1).norm();
    let expected_time = (d.norm() - 1.0) / (2.0 * speed);
    let mut events = Vec::new();
    let dt = 0.1;
    for _ in 0..20 {
        world.step(dt).unwrap();
        events.extend_from_slice(world.events());
    }
    assert_eq!(events.len(), 1, "{events:?}");
    let e = events[0];
    assert!(
        (e.time - expected_time).abs() < 1e-12,
        "{} vs {expected_time}",
        e.time
    );
    let n = d / d.norm();
    assert!((e.normal() - n).norm() < 1e-12, "{:?} vs {n:?}", e.normal());
    // Equal masses, head on, elastic: the velocities are exchanged.
    let (va, vb) = (
        world.body(ha).unwrap().linvel(),
        world.body(hb).unwrap().linvel(),
    );
    assert!((va - Vector::new(-v.0, -v.1)).norm() < 1e-12, "{va:?}");
    assert!((vb - Vector::new(v.0, v.1)).norm() < 1e-12, "{vb:?}");
    // At 2 s each disc is back where its reversed path leads: a + v t - v (2 - t).
    let t = expected_time;
    for (h, start, sign) in [(ha, a, 1.0), (hb, b, -1.0)] {
        let along = sign * (2.0 * t - 2.0);
        let expected = Domain::periodic_square(side)
            .unwrap()
            .wrap_point(Point::new(start.0 + v.0 * along, start.1 + v.1 * along));
        let p = world.body(h).unwrap().pose().translation.vector;
        assert!(
            (p - expected.coords).norm() < 1e-12,
            "{p:?} vs {expected:?}"
        );
    }
}

#[test]
fn two_discs_meet_across_a_side_under_every_broadphase() {
    let (a, b, v) = ((8.0, 5.0), (1.0, 5.0), (1.0, 0.0));
    two_discs_across::<BruteForce>(a, b, v);
    two_discs_across::<RTreeBroadphase>(a, b, v);
    two_discs_across::<SortAndSweep>(a, b, v);
}

#[test]
fn two_discs_meet_across_a_corner_under_every_broadphase() {
    let (a, b, v) = ((9.2, 9.3), (0.8, 0.9), (0.7, 0.7));
    two_discs_across::<BruteForce>(a, b, v);
    two_discs_across::<RTreeBroadphase>(a, b, v);
    two_discs_across::<SortAndSweep>(a, b, v);
}

/// The contact solver sees pairs across a side too: under the steppers that leave slow
/// pairs to it, the discs bounce off each other instead of passing through.
fn solver_pair_across_a_side<S: Stepper + Default>() {
    let mut world = World::<RTreeBroadphase, S>::new(periodic_settings(10.0)).unwrap();
    let ha = world.create_body(elastic_disc(8.5, 5.0, 1.0, 0.0)).unwrap();
    let hb = world
        .create_body(elastic_disc(0.5, 5.0, -1.0, 0.0))
        .unwrap();
    for _ in 0..120 {
        world.step(DT).unwrap();
    }
    let (a, b) = (world.body(ha).unwrap(), world.body(hb).unwrap());
    assert!(
        a.linvel().x < -0.9 && b.linvel().x > 0.9,
        "{:?} {:?}",
        a.linvel(),
        b.linvel()
    );
    let gap = world
        .settings()
        .domain
        .minimum_image(b.pose().translation.vector - a.pose().translation.vector);
    assert!(gap.norm() > 0.95, "{gap:?}");
}

#[test]
fn the_contact_solver_sees_pairs_across_a_side() {
    solver_pair_across_a_side::<Discrete>();
    solver_pair_across_a_side::<MotionClamping>();
}

/// A busy scene in the middle of a large periodic square: a pyramid, discs thrown into it
/// and fast bullets. Far from the sides, the fold changes nothing.
fn busy<S: Stepper + Default>(domain: Domain) -> World<RTreeBroadphase, S> {
    let mut scene = scenes::pyramid(5);
    scene.settings.domain = domain;
    let (mut world, _) = scene.build::<RTreeBroadphase, S>().unwrap();
    for i in 0..3 {
        let x = -3.0 + 2.5 * f64::from(i);
        world
            .create_body(
                RigidBodyDef::new(Circle::new(0.3).unwrap().into())
                    .pose(Isometry::translation(x, 8.0))
                    .linvel(Vector::new(1.0 - f64::from(i), -2.0))
                    .restitution(0.6),
            )
            .unwrap();
        world
            .create_body(
                RigidBodyDef::new(Circle::new(0.05).unwrap().into())
                    .pose(Isometry::translation(-20.0, 0.5 + 1.1 * f64::from(i)))
                    .linvel(Vector::new(900.0, 0.0))
                    .restitution(0.5)
                    .ccd(true),
            )
            .unwrap();
    }
    world
}

fn far_from_the_sides_is_bit_for_bit<S: Stepper + Default>() {
    // Wide enough that even a bullet at 900 units/s never reaches a side in 150 steps.
    let periodic =
        Domain::periodic(Point::new(-3000.0, -100.0), Point::new(3100.0, 120.0)).unwrap();
    let mut open = busy::<S>(Domain::Unbounded);
    let mut folded = busy::<S>(periodic);
    for step in 0..150 {
        open.step(DT).unwrap();
        folded.step(DT).unwrap();
        assert_eq!(
            state_hash(&open),
            state_hash(&folded),
            "diverged at step {step}"
        );
        assert_eq!(open.events(), folded.events());
    }
}

#[test]
fn far_from_the_sides_periodic_and_unbounded_agree_bit_for_bit() {
    far_from_the_sides_is_bit_for_bit::<Discrete>();
    far_from_the_sides_is_bit_for_bit::<MotionClamping>();
    far_from_the_sides_is_bit_for_bit::<FirstTimeOfImpact>();
}

/// The hard-disk gas at `eta`: its world and the per-disc handles.
fn gas<B: Broadphase + Default>(
    n: usize,
    eta: Real,
) -> (World<B, FirstTimeOfImpact>, Vec<impact_solver::BodyHandle>) {
    let scene = scenes::hard_disks(n, eta, 7).unwrap();
    let mut world = event_world::<B>(scene.settings);
    let handles = scene
        .bodies
        .iter()
        .map(|d| world.create_body(d.clone()).unwrap())
        .collect();
    (world, handles)
}

fn energy_and_momentum<B: Broadphase, S: Stepper>(world: &World<B, S>) -> (Real, Vector) {
    world
        .bodies()
        .fold((0.0, Vector::zeros()), |(e, p), (_, b)| {
            (
                e + 0.5 * b.mass() * b.linvel().norm_squared(),
                p + b.mass() * b.linvel(),
            )
        })
}

/// Smallest distance between two centres, over minimum images (brute force).
fn closest_pair<B: Broadphase, S: Stepper>(world: &World<B, S>) -> Real {
    let domain = world.settings().domain;
    let centres: Vec<Vector> = world
        .bodies()
        .map(|(_, b)| b.pose().translation.vector)
        .collect();
    let mut closest = Real::INFINITY;
    for i in 0..centres.len() {
        for j in i + 1..centres.len() {
            closest = closest.min(domain.minimum_image(centres[j] - centres[i]).norm());
        }
    }
    closest
}

#[test]
fn a_small_hard_disk_gas_keeps_energy_momentum_and_its_shape() {
    for eta in [0.3, 0.6] {
        let (mut world, _) = gas::<RTreeBroadphase>(100, eta);
        let Domain::Periodic { min, max } = world.settings().domain else {
            unreachable!()
        };
        let (e0, p0) = energy_and_momentum(&world);
        let mut events = 0;
        for _ in 0..60 {
            let report = world.step(0.05).unwrap();
            events += report.events;
            assert_eq!(report.stepper.time_lost, 0.0);
            assert!(report.stepper.zeno_pairs.is_empty());
            assert_eq!(report.stepper.discrete.constraints, 0);
            for (_, b) in world.bodies() {
                let p = b.pose().translation.vector;
                assert!(p.x >= min.x && p.x < max.x && p.y >= min.y && p.y < max.y);
            }
            let closest = closest_pair(&world);
            assert!(closest > 1.0 - 1e-9, "eta {eta}: overlap, {closest}");
        }
        // About 2 (eta 0.3) and 9 (eta 0.6) collisions per disc per unit time.
        assert!(events > 250, "eta {eta}: {events} collisions");
        let (e1, p1) = energy_and_momentum(&world);
        assert!(
            ((e1 - e0) / e0).abs() < 1e-12,
            "eta {eta}: energy {e0} -> {e1}"
        );
        assert!(
            (p1 - p0).norm() < 1e-12,
            "eta {eta}: momentum {p0:?} -> {p1:?}"
        );
    }
}

#[test]
fn bad_domains_and_bodies_too_big_are_refused_by_name() {
    let mut settings = WorldSettings {
        domain: Domain::Periodic {
            min: Point::new(0.0, 0.0),
            max: Point::new(Real::NAN, 1.0),
        },
        ..WorldSettings::default()
    };
    let e = World::<BruteForce, Discrete>::new(settings).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("settings.domain.max.x: must be finite"),
        "{e}"
    );
    settings.domain = Domain::Periodic {
        min: Point::new(0.0, 0.0),
        max: Point::new(4.0, -1.0),
    };
    let e = World::<BruteForce, Discrete>::new(settings).unwrap_err();
    assert_eq!(
        e.to_string(),
        "settings.domain.size.y: must be positive, got -1"
    );

    let mut world = World::<BruteForce, Discrete>::new(periodic_settings(4.0)).unwrap();
    let big = RigidBodyDef::new(ConvexPolygon::rectangle(1.5, 0.5).unwrap().into());
    let e = world.create_body(big).unwrap_err();
    assert_eq!(
        e,
        WorldError::OutOfRange {
            field: "body.aabb.width".to_owned(),
            value: 3.0,
            expected: "at most half the periodic domain in that direction",
        }
    );
    assert!(world.is_empty());

    // A domain too small for the bodies already there: refused, nothing changes.
    let h = world
        .create_body(elastic_disc(5.5, -0.5, 0.0, 0.0))
        .unwrap();
    let wrapped = world.body(h).unwrap().pose().translation.vector;
    assert_eq!(wrapped, Vector::new(1.5, 3.5), "created bodies are wrapped");
    let before = world.settings().to_owned();
    let mut smaller = before;
    smaller.domain = Domain::periodic_square(1.5).unwrap();
    let e = world.set_settings(smaller).unwrap_err();
    assert!(e.to_string().starts_with("body.aabb.width"), "{e}");
    assert_eq!(*world.settings(), before);
    assert_eq!(world.body(h).unwrap().pose().translation.vector, wrapped);

    // A step whose boxes would span half the domain is refused before anything moves.
    world.set_velocity(h, Vector::new(100.0, 0.0), 0.0).unwrap();
    let hash = state_hash(&world);
    let e = world.step(0.1).unwrap_err();
    assert!(e.to_string().starts_with("dt: must be short enough"), "{e}");
    assert_eq!(state_hash(&world), hash);
    assert_eq!(world.step_count(), 0);
}

#[cfg(feature = "serde")]
#[test]
fn a_snapshot_of_a_periodic_gas_continues_bit_for_bit() {
    let (mut one_run, _) = gas::<RTreeBroadphase>(64, 0.4);
    let (mut halves, _) = gas::<RTreeBroadphase>(64, 0.4);
    for _ in 0..40 {
        one_run.step(0.05).unwrap();
        halves.step(0.05).unwrap();
    }
    let json = serde_json::to_string(&halves).unwrap();
    let mut restored: World<RTreeBroadphase, FirstTimeOfImpact> =
        serde_json::from_str(&json).unwrap();
    assert_eq!(restored.settings().domain, one_run.settings().domain);
    assert_same_run(&mut one_run, &mut restored, 40, 0.05);
}

/// A reach skin only changes which neighbours are searched for and when: a gas resolves the
/// same collisions, bit for bit, with the whole-course reach and with skins of one and three
/// radii, over steps long enough for several collisions per disc (many escapes each).
#[test]
fn a_reach_skin_resolves_the_same_collisions_bit_for_bit() {
    for eta in [0.3, 0.6] {
        let worlds: Vec<_> = [0.0, 1.0, 3.0]
            .into_iter()
            .map(|skin| {
                let (mut world, _) = gas::<RTreeBroadphase>(200, eta);
                let mut settings = hard_disk_stepper();
                settings.reach_skin = skin;
                world.stepper_mut().set_settings(settings).unwrap();
                world
            })
            .collect();
        let mut worlds = worlds;
        let mut escapes = 0;
        for step in 0..8 {
            let reports: Vec<_> = worlds.iter_mut().map(|w| w.step(0.4).unwrap()).collect();
            escapes += reports[1].stepper.reach_escapes;
            let first: Vec<_> = worlds[0].events().to_vec();
            assert!(!first.is_empty());
            for (w, world) in worlds.iter().enumerate().skip(1) {
                assert_eq!(reports[w].stepper.time_lost, 0.0);
                assert_eq!(
                    world.events(),
                    &first[..],
                    "eta {eta}, step {step}: skin world {w} differs"
                );
                assert_eq!(state_hash(world), state_hash(&worlds[0]));
            }
        }
        assert!(escapes > 50, "eta {eta}: only {escapes} escapes");
    }
}
