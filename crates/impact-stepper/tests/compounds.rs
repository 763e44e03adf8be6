//! Bodies of several shapes (compounds) under the CCD steppers: the time of impact of a
//! compound is the earliest of its shapes' (bit for bit when it translates, never later than
//! the dense-sampling oracle when it turns), L- and U-shaped bodies spinning at up to 100
//! rad/s never pass a wall 1 mm thick, compounds dropped on the ground come to rest, and
//! compounds in the tumbling rain never tunnel.

use impact_broadphase::RTreeBroadphase;
use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{Isometry, Real, Shape, Sweep, Vector};
use impact_narrowphase::{Toi, ToiOptions, closed_form_toi, distance, time_of_impact};
use impact_solver::{BodySet, RigidBody, RigidBodyDef};
use impact_stepper::{
    BodyToi, Discrete, FirstTimeOfImpact, MotionClamping, Stepper, World, body_time_of_impact,
};
use impact_stepper::{ContactKind, PreSolveContact};
use impact_testkit::SplitMix64;
use impact_testkit::audit::{first_contact_of, random_shape};
use impact_testkit::compounds::{
    self, THROW_DT, THROW_STEPS, THROW_WALL_HALF_THICKNESS, Thrown, compound, random_pieces,
};
use impact_testkit::scenes::{self, TunnelCounter};
use proptest::prelude::*;
use std::sync::{Arc, Mutex};

const DT: Real = 1.0 / 60.0;

/// A compound of [`random_pieces`] (or, one time in four, a single random shape as the
/// obstacle) at a seeded pose, moving at `linvel` and turning at `angvel`.
fn body_of(pieces: &[Shape], pose: Isometry, linvel: Vector, angvel: Real) -> RigidBodyDef {
    compound(pieces).pose(pose).linvel(linvel).angvel(angvel)
}

/// Two bodies from `seed`: a compound mover of two to four pieces near the origin, thrown
/// toward an obstacle 2 to 5 units away (a compound, or one time in three a single random
/// shape, static one time in two), both turning at up to `spin` rad/s.
fn pair(seed: u64, spin: Real) -> (BodySet, [impact_solver::BodyHandle; 2]) {
    let mut rng = SplitMix64::new(seed);
    let mover = random_pieces(&mut rng);
    let obstacle = if rng.below(3) == 0 {
        vec![random_shape(&mut rng)]
    } else {
        random_pieces(&mut rng)
    };
    let dir = rng.range(-core::f64::consts::PI, core::f64::consts::PI);
    let at = Vector::new(dir.cos(), dir.sin()) * rng.range(2.0, 5.0);
    let aim = Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
    let speed = rng.range(0.5, 2.5) / DT;
    let turn = |rng: &mut SplitMix64| {
        if spin == 0.0 {
            0.0
        } else {
            rng.range(-spin, spin)
        }
    };
    let (a0, w0) = (rng.range(-3.2, 3.2), turn(&mut rng));
    let (a1, w1) = (rng.range(-3.2, 3.2), turn(&mut rng));
    // A segment has no mass: it can only be static.
    let still = rng.below(2) == 0 || matches!(obstacle.as_slice(), [Shape::Segment(_)]);
    let mut bodies = BodySet::new();
    let x = bodies
        .insert(body_of(
            &mover,
            Isometry::new(Vector::zeros(), a0),
            (at + aim).normalize() * speed,
            w0,
        ))
        .expect("a valid mover");
    let def = body_of(
        &obstacle,
        Isometry::new(at, a1),
        -at.normalize() * speed * 0.3,
        w1,
    );
    let def = if still {
        RigidBodyDef {
            body_type: impact_solver::BodyType::Static,
            linvel: Vector::zeros(),
            angvel: 0.0,
            ..def
        }
    } else {
        def
    };
    let y = bodies.insert(def).expect("a valid obstacle");
    (bodies, [x, y])
}

/// Every shape pair of `x` and `y` with its answer from `toi`, in the order of `y`'s shapes,
/// then `x`'s, and the earliest of them by safe fraction (ties to the first).
fn earliest_child(
    x: &RigidBody,
    y: &RigidBody,
    toi: impl Fn(&Shape, &Shape) -> Toi,
) -> (Toi, [u32; 2]) {
    let mut best: Option<(Real, Toi, [u32; 2])> = None;
    for (j, sy) in y.shapes().iter().enumerate() {
        for (i, sx) in x.shapes().iter().enumerate() {
            let answer = toi(sx.shape(), sy.shape());
            if let Some(f) = answer.safe_fraction()
                && best.is_none_or(|(b, _, _)| f < b)
            {
                best = Some((f, answer, [i as u32, j as u32]));
            }
        }
    }
    best.map_or((Toi::Separated, [0, 0]), |(_, t, s)| (t, s))
}

/// The smallest distance between the shapes of `x` and `y` on their sweeps at `t`.
fn gap(x: &RigidBody, sx: &Sweep, y: &RigidBody, sy: &Sweep, t: Real) -> Real {
    let (px, py) = (sx.pose_at(t), sy.pose_at(t));
    let mut d = Real::INFINITY;
    for a in x.shapes() {
        for b in y.shapes() {
            d = d.min(distance(a.shape(), &px, b.shape(), &py).distance);
        }
    }
    d
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A translating compound's time of impact is, bit for bit, the earliest of its shape
    /// pairs' closed forms, with the shapes of that pair.
    #[test]
    fn a_translating_compound_meets_at_its_childrens_earliest_closed_form(seed in any::<u64>()) {
        let (bodies, [hx, hy]) = pair(seed, 0.0);
        let (x, y) = (bodies.get(hx).unwrap(), bodies.get(hy).unwrap());
        let (sx, sy) = (x.sweep(DT).unwrap(), y.sweep(DT).unwrap());
        let options = ToiOptions::default();
        let got = body_time_of_impact(x, &sx, y, &sy, &options);
        let (toi, shapes) = earliest_child(x, y, |a, b| {
            closed_form_toi(a, &sx, b, &sy, &options).expect("translating pieces have closed forms")
        });
        prop_assert_eq!(got, BodyToi { toi, shapes });
    }

    /// A turning compound's time of impact is the earliest of its shape pairs' (each the
    /// narrowphase's conservative advancement on the bodies' sweeps), never later than the
    /// dense-sampling oracle over all the shape pairs, and a hit is within the target
    /// separation plus the tolerance of some shape pair.
    #[test]
    fn a_turning_compound_meets_no_later_than_the_oracle(seed in any::<u64>()) {
        let (bodies, [hx, hy]) = pair(seed, 60.0);
        let (x, y) = (bodies.get(hx).unwrap(), bodies.get(hy).unwrap());
        let (sx, sy) = (x.sweep(DT).unwrap(), y.sweep(DT).unwrap());
        let options = ToiOptions::default();
        let got = body_time_of_impact(x, &sx, y, &sy, &options);
        let (toi, shapes) = earliest_child(x, y, |a, b| time_of_impact(a, &sx, b, &sy, &options));
        // A pair whose swept boxes stay apart is not asked; asked, conservative advancement
        // may give up at the end of the step, which is as safe as no contact.
        let rank = |t: &Toi| t.safe_fraction().filter(|&f| f < 1.0).unwrap_or(Real::INFINITY);
        prop_assert_eq!(rank(&got.toi), rank(&toi));
        if matches!(got.toi, Toi::Hit(_)) {
            prop_assert_eq!(got, BodyToi { toi, shapes });
        }
        let target = options.target_separation();
        let oracle = first_contact_of(|t| gap(x, &sx, y, &sy, t), target, 1.0, 2_000);
        let slack = 1e-9;
        match (got.toi, oracle) {
            (Toi::Hit(hit), Some(o)) => {
                prop_assert!(hit.fraction <= o + slack, "{} > {}", hit.fraction, o)
            }
            (Toi::NotConverged { safe_fraction }, Some(o)) => {
                prop_assert!(safe_fraction <= o + slack)
            }
            (Toi::Separated, Some(o)) => {
                prop_assert!(false, "missed the oracle's contact at {}", o)
            }
            _ => {}
        }
        if let Toi::Hit(hit) = got.toi && hit.fraction > 0.0 {
            let d = gap(x, &sx, y, &sy, hit.fraction);
            prop_assert!(d <= target + options.tolerance() + 1e-9, "a hit {} apart", d);
        }
    }
}

/// How a throw ended: whether the body's centre of mass ever went right of the wall, and the
/// farthest any piece reached past its left face.
#[derive(Debug, Default, Clone, Copy)]
struct Throw {
    through: bool,
    reach: Real,
    events: usize,
    later_shape: bool,
    /// Whether the body headed back left at some step's end: it hit the wall.
    bounced: bool,
}

/// Runs the throw of `thrown` seeded `seed` under `S`.
fn throw<S: Stepper + Default>(thrown: Thrown, seed: u64) -> Throw {
    let scene = compounds::wall_throw(thrown, seed);
    let (mut world, handles): (World<RTreeBroadphase, S>, _) = scene.build().unwrap();
    let mut counter = TunnelCounter::new(&scene);
    let mut out = Throw::default();
    for _ in 0..THROW_STEPS {
        world.step(THROW_DT).unwrap();
        counter.observe_world(&world);
        let body = world.body(handles[1]).unwrap();
        out.through |= body.center_of_mass().x > 0.0;
        out.reach = out
            .reach
            .max(body.aabb().maxs.x + THROW_WALL_HALF_THICKNESS);
        out.bounced |= body.linvel().x < 0.0;
        out.events += world.events().len();
        out.later_shape |= world.events().iter().any(|e| e.shapes != [0, 0]);
    }
    out.through |= counter.tunnelled() > 0;
    out
}

/// Throws `n` seeded L- and U-shaped bodies (alternately) at the wall under `S`; returns how
/// many went through, the deepest reach of a piece past the wall's left face, whether an
/// impact named a shape other than the first, and how many throws hit the wall (the body
/// heading back left at some step's end).
fn throws<S: Stepper + Default>(n: u64) -> (usize, Real, bool, usize) {
    let (mut through, mut reach, mut later, mut reached) = (0, 0.0 as Real, false, 0);
    for seed in 0..n {
        let thrown = if seed % 2 == 0 { Thrown::L } else { Thrown::U };
        let t = throw::<S>(thrown, seed);
        if t.through {
            through += 1;
        }
        reach = reach.max(t.reach);
        later |= t.later_shape;
        if t.bounced {
            reached += 1;
        }
    }
    (through, reach, later, reached)
}

/// How deep a piece may reach into the wall: the overlap the contact solver allows a
/// resting contact ([`LINEAR_SLOP`], 5 mm). The wall is thinner than that, so a piece may
/// poke that much less its thickness past the far face while the body stays on its side;
/// the body's centre of mass never goes through.
const MOST_REACH: Real = LINEAR_SLOP;

#[test]
fn thrown_l_and_u_bodies_never_pass_a_thin_wall_under_first_time_of_impact() {
    let (through, reach, later, reached) = throws::<FirstTimeOfImpact>(1_000);
    assert!(
        reached > 950,
        "{reached} of 1,000 throws bounced off the wall"
    );
    assert_eq!(through, 0);
    assert!(reach < MOST_REACH, "a piece reached {reach} into the wall");
    assert!(later, "some impact is of a shape after the first");
}

#[test]
fn thrown_l_and_u_bodies_never_pass_a_thin_wall_under_motion_clamping() {
    let (through, reach, _, reached) = throws::<MotionClamping>(1_000);
    // A clamp stops some spinning bodies at the wall (moving as one with it) rather than
    // bouncing them: 846 of these 1,000 bounce.
    assert!(
        reached > 800,
        "{reached} of 1,000 throws bounced off the wall"
    );
    assert_eq!(through, 0);
    assert!(reach < MOST_REACH, "a piece reached {reach} into the wall");
}

/// The 10,000 throws of the brief under both CCD steppers (minutes in a debug build).
#[test]
#[ignore = "10,000 throws per stepper: run with --ignored"]
fn ten_thousand_thrown_compounds_never_pass_a_thin_wall() {
    let (through, reach, _, reached) = throws::<FirstTimeOfImpact>(10_000);
    println!("FirstTimeOfImpact: {through} through, {reached} bounced, deepest reach {reach}");
    let (through_mc, reach_mc, _, reached_mc) = throws::<MotionClamping>(10_000);
    println!(
        "MotionClamping: {through_mc} through, {reached_mc} bounced, deepest reach {reach_mc}"
    );
    assert_eq!((through, through_mc), (0, 0));
    assert!(reach < MOST_REACH && reach_mc < MOST_REACH);
}

/// The L and the U of `compounds::compound_drop` come to rest on the ground under `S`
/// within 5 s, above it.
fn comes_to_rest<S: Stepper + Default>() {
    let scene = compounds::compound_drop();
    let (mut world, handles): (World<RTreeBroadphase, S>, _) = scene.build().unwrap();
    for _ in 0..300 {
        world.step(DT).unwrap();
    }
    for &h in &handles[1..] {
        let body = world.body(h).unwrap();
        assert!(
            body.linvel().norm() < 0.05 && body.angvel().abs() < 0.05,
            "{}: still moving: {:?} {}",
            core::any::type_name::<S>(),
            body.linvel(),
            body.angvel()
        );
        let low = body.aabb().mins.y;
        assert!(
            (-0.02..0.5).contains(&low),
            "{}: its lowest point at {low}",
            core::any::type_name::<S>()
        );
    }
}

#[test]
fn a_dropped_compound_comes_to_rest_under_every_stepper() {
    comes_to_rest::<Discrete>();
    comes_to_rest::<MotionClamping>();
    comes_to_rest::<FirstTimeOfImpact>();
}

/// Compounds (every fourth body an L or a U) in the tumbling rain of 200 bodies never
/// tunnel through its segments under either CCD stepper (2 s, seeds 1 to 4).
fn rain_keeps_compounds<S: Stepper + Default>() {
    for seed in 1..=4 {
        let scene = compounds::compound_tumbling_rain(200, seed, 4);
        let (mut world, _): (World<RTreeBroadphase, S>, _) = scene.build().unwrap();
        let mut counter = TunnelCounter::new(&scene);
        for _ in 0..120 {
            world.step(DT).unwrap();
            counter.observe_world(&world);
        }
        assert_eq!(
            counter.tunnelled(),
            0,
            "{} seed {seed}",
            core::any::type_name::<S>()
        );
    }
}

#[test]
fn compounds_in_the_tumbling_rain_never_tunnel_under_first_time_of_impact() {
    rain_keeps_compounds::<FirstTimeOfImpact>();
}

#[test]
fn compounds_in_the_tumbling_rain_never_tunnel_under_motion_clamping() {
    rain_keeps_compounds::<MotionClamping>();
}

/// The compound rain (`scenes::compound_rain`: L, T, U and E pieces of two to four bars,
/// spinning, onto a hilly terrain that is one static body of 100 and more segments) lets no
/// piece through the terrain under either CCD stepper (200 pieces, 2 s, seeds 1 to 3; the
/// terrain's own judge, `Terrain::passed`, on each piece's centre of mass and bounding
/// radius after every step).
fn terrain_keeps_pieces<S: Stepper + Default>() {
    for seed in 1..=3 {
        let scene = scenes::compound_rain(200, seed);
        let terrain = scenes::compound_rain_terrain(200, seed);
        let (mut world, handles): (World<RTreeBroadphase, S>, _) = scene.build().unwrap();
        let mut through = vec![false; handles.len()];
        for _ in 0..120 {
            world.step(DT).unwrap();
            for (seen, &h) in through.iter_mut().zip(&handles) {
                let body = world.body(h).unwrap();
                if body.is_dynamic() {
                    let c = body.center_of_mass();
                    *seen |= terrain.passed(&c, body.bounding_radius(&body.local_center()));
                }
            }
        }
        let n = through.iter().filter(|&&t| t).count();
        assert_eq!(n, 0, "{} seed {seed}", core::any::type_name::<S>());
    }
}

#[test]
fn no_piece_of_the_compound_rain_passes_the_terrain_under_first_time_of_impact() {
    terrain_keeps_pieces::<FirstTimeOfImpact>();
}

#[test]
fn no_piece_of_the_compound_rain_passes_the_terrain_under_motion_clamping() {
    terrain_keeps_pieces::<MotionClamping>();
}

/// The compound rain is the tumbling rain with some bodies made of several shapes.
#[test]
fn the_compound_rain_has_compounds() {
    let scene = compounds::compound_tumbling_rain(40, 3, 4);
    let many = scene.bodies.iter().filter(|d| !d.shapes.is_empty()).count();
    assert_eq!(many, 10);
    let _ = scenes::tumbling_rain(40, 3);
}

/// The hits of a thrown L under `FirstTimeOfImpact`: each with the shape pair that met, as
/// the event and the pre-solve hook name it (the same pairs), some of them the L's second
/// arm.
#[test]
fn an_impact_names_its_shapes_to_the_hook_and_in_its_event() {
    let mut later = false;
    for seed in 0..40 {
        let scene = compounds::wall_throw(Thrown::L, seed);
        let (mut world, handles): (World<RTreeBroadphase, FirstTimeOfImpact>, _) =
            scene.build().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        world.set_pre_solve(move |c: &mut PreSolveContact<'_>| {
            if let ContactKind::Impact { .. } = c.kind() {
                log.lock().unwrap().push(c.shapes());
            }
        });
        for _ in 0..THROW_STEPS {
            seen.lock().unwrap().clear();
            world.step(THROW_DT).unwrap();
            // Every impact planned in the step was asked of the hook (those of touching pairs
            // at its start, at fraction 0, were asked with their manifolds).
            let hits: Vec<_> = world.events().iter().map(|e| e.shapes()).collect();
            let asked = seen.lock().unwrap().clone();
            assert!(asked.iter().all(|s| hits.contains(s)), "seed {seed}");
            for e in world.events().iter().filter(|e| e.fraction > 0.0) {
                assert!(asked.contains(&e.shapes()), "seed {seed}");
            }
            for (wall, body) in hits {
                assert_eq!((wall.body, wall.index), (handles[0], 0));
                assert_eq!(body.body, handles[1]);
                assert!(body.index < 2);
                later |= body.index == 1;
            }
        }
    }
    assert!(later, "some throw hits with the second arm");
}

/// An impact of a compound is resolved with the material of the shapes that met: a U whose
/// base has restitution 0 and whose arms have 1 (the wall's is 0) bounces off a thin wall
/// when its arms' tips hit, and stops dead when its base does.
#[test]
fn an_impact_takes_the_material_of_the_shapes_that_met() {
    let pieces = compounds::about_centre(&Thrown::U.pieces());
    // Thrown along +y at a wall along x: upright (the tips up) the arms hit first, turned
    // over the base does.
    for (turn, arm) in [(0.0, true), (core::f64::consts::PI, false)] {
        let wall =
            RigidBodyDef::fixed(compounds::box_piece(-20.0, 1.0, 20.0, 1.001)).restitution(0.0);
        let restitutions = [0.0, 1.0, 1.0];
        let mut body = RigidBodyDef::new(pieces[0].clone())
            .restitution(restitutions[0])
            .friction(0.0)
            .ccd(true)
            .pose(Isometry::new(Vector::zeros(), turn))
            .linvel(Vector::new(0.0, 60.0));
        for (k, p) in pieces.iter().enumerate().skip(1) {
            body = body.with_shape(
                impact_solver::ShapeDef::new(p.clone())
                    .restitution(restitutions[k])
                    .friction(0.0),
            );
        }
        let mut world: World<RTreeBroadphase, FirstTimeOfImpact> =
            World::new(impact_stepper::WorldSettings {
                gravity: Vector::zeros(),
                ..impact_stepper::WorldSettings::default()
            })
            .unwrap();
        let wall = world.create_body(wall).unwrap();
        let u = world.create_body(body).unwrap();
        world.step(DT).unwrap();
        let hit = world
            .events()
            .first()
            .copied()
            .expect("the U hits the wall");
        let (first, second) = hit.shapes();
        let (own, other) = if first.body == u {
            (first, second)
        } else {
            (second, first)
        };
        assert_eq!(other.body, wall);
        assert_eq!(own.index != 0, arm, "the piece that hit: {own:?}");
        let vy = world.body(u).unwrap().linvel().y;
        if arm {
            assert!(hit.impulse.restitution == 1.0 && vy < 0.0, "left at {vy}");
        } else {
            assert!(
                hit.impulse.restitution == 0.0 && vy.abs() < 1e-9,
                "left at {vy}"
            );
        }
    }
}

/// A piece that is a sensor never collides: the time of impact of a compound is that of its
/// solid pieces, and a body of one sensor shape meets nothing.
#[test]
fn a_sensor_piece_never_collides() {
    let mut bodies = BodySet::new();
    let pieces = compounds::l_pieces(0.4, 0.05);
    let solid = bodies
        .insert(compound(&pieces).linvel(Vector::new(60.0, 0.0)))
        .unwrap();
    let sensing = bodies
        .insert(
            RigidBodyDef::new(pieces[0].clone())
                .with_shape(impact_solver::ShapeDef::new(pieces[1].clone()).sensor(true))
                .linvel(Vector::new(60.0, 0.0)),
        )
        .unwrap();
    // A wall that only the vertical arm (the second piece) can reach: the L's foot passes
    // below it.
    let wall = bodies
        .insert(RigidBodyDef::fixed(compounds::box_piece(
            0.6, 0.2, 0.61, 5.0,
        )))
        .unwrap();
    let options = ToiOptions::default();
    let w = bodies.get(wall).unwrap();
    let sw = w.sweep(DT).unwrap();
    let toi_of = |h| {
        let b = bodies.get(h).unwrap();
        body_time_of_impact(b, &b.sweep(DT).unwrap(), w, &sw, &options)
    };
    let hit = toi_of(solid);
    assert!(matches!(hit.toi, Toi::Hit(_)), "{hit:?}");
    assert_eq!(hit.shapes, [1, 0]);
    assert_eq!(toi_of(sensing).toi, Toi::Separated);
}
