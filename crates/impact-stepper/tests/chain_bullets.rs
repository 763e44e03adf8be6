//! Bullets against chain terrain: 10,000 seeded shots at up to 10,000 units/s at the front
//! side of random hilly chains (one static chain body each), aimed at the chain's vertices
//! and at points of its edges, under both CCD steppers: none ends up beneath the terrain.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Shape, Vector};
use impact_solver::{BodyHandle, CollisionFilter, RigidBodyDef};
use impact_stepper::{FirstTimeOfImpact, MotionClamping, Stepper, World, WorldSettings};
use impact_testkit::SplitMix64;
use impact_testkit::scenes::Terrain;

/// Worlds of 100 shots each; 100 worlds make the 10,000 shots.
const SHOTS_PER_WORLD: usize = 100;

/// One world of `S`: the hilly terrain of `seed` as one chain body (solid below) and 100
/// bullets (discs of radius 0.02 to 0.1, or small boxes, in one negative group so that they
/// pass through each other) fired from 1 to 20 units above the terrain at its vertices and
/// edges at 100 to 10,000 units/s, with seeded restitution.
fn world<S: Stepper + Default>(seed: u64) -> (World<RTreeBroadphase, S>, Vec<BodyHandle>, Terrain) {
    let terrain = Terrain::hilly(20.0, seed);
    let mut w =
        World::<RTreeBroadphase, S>::new(WorldSettings::with_gravity(Vector::new(0.0, -10.0)))
            .unwrap();
    w.create_body(RigidBodyDef::from_chain(&terrain.chain()))
        .unwrap();
    let mut rng = SplitMix64::new(seed ^ 0xb0117);
    let bullets = (0..SHOTS_PER_WORLD)
        .map(|_| {
            let n = terrain.points.len();
            let target = if rng.below(2) == 0 {
                terrain.points[rng.below(n)]
            } else {
                let i = rng.below(n - 1);
                let t = rng.unit();
                terrain.points[i] + (terrain.points[i + 1] - terrain.points[i]) * t
            };
            let x = rng.range(-19.0, 19.0);
            let start = Point::new(x, terrain.height(x) + rng.range(1.0, 20.0));
            let speed = rng.range(100.0, 10_000.0);
            let shape: Shape = if rng.below(2) == 0 {
                Circle::new(rng.range(0.02, 0.1)).unwrap().into()
            } else {
                ConvexPolygon::rectangle(rng.range(0.02, 0.1), rng.range(0.005, 0.05))
                    .unwrap()
                    .into()
            };
            let def = RigidBodyDef::new(shape)
                .pose(Isometry::new(start.coords, rng.range(-3.2, 3.2)))
                .linvel((target - start).normalize() * speed)
                .angvel(rng.range(-50.0, 50.0))
                .restitution(rng.range(0.0, 0.5))
                .filter(CollisionFilter::DEFAULT.group(-1))
                .ccd(true);
            w.create_body(def).unwrap()
        })
        .collect();
    (w, bullets, terrain)
}

/// Whether a body centred at `center` within `radius` lies wholly beneath the terrain
/// between its ends (the terrain has no walls: a bullet thrown past an end is not through).
fn beneath(terrain: &Terrain, center: &Point, radius: Real) -> bool {
    center.x.abs() < terrain.half_width && terrain.passed(center, radius)
}

/// The bullets of `worlds` worlds that end a step wholly beneath the terrain: world seed,
/// bullet, step and where the bullet was.
fn through<S: Stepper + Default>(worlds: u64) -> Vec<String> {
    let mut through = Vec::new();
    for seed in 0..worlds {
        let (mut w, bullets, terrain) = world::<S>(seed);
        let mut passed = vec![false; bullets.len()];
        for step in 0..6 {
            w.step(DT).unwrap();
            for (k, (seen, &h)) in passed.iter_mut().zip(&bullets).enumerate() {
                let body = w.body(h).unwrap();
                let radius = body.bounding_radius(&body.local_center());
                let c = body.center_of_mass();
                if !*seen && beneath(&terrain, &c, radius) {
                    *seen = true;
                    through.push(format!(
                        "world {seed}, bullet {k} ({:?}), step {step}: at {c:?}, terrain {}",
                        body.shape().kind(),
                        terrain.height(c.x)
                    ));
                }
            }
        }
    }
    through
}

#[test]
fn no_bullet_goes_through_chain_terrain_under_first_time_of_impact() {
    let through = through::<FirstTimeOfImpact>(100);
    assert!(through.is_empty(), "{through:#?}");
}

#[test]
fn no_bullet_goes_through_chain_terrain_under_motion_clamping() {
    let through = through::<MotionClamping>(100);
    assert!(through.is_empty(), "{through:#?}");
}

#[test]
fn the_bullet_field_is_not_empty_without_ccd() {
    // The shots are fast enough to pass the terrain without continuous collision detection:
    // a test that cannot fail would not be one.
    let mut through = 0;
    for seed in 0..3 {
        let (mut w, bullets, terrain) = world::<impact_stepper::Discrete>(seed);
        for _ in 0..6 {
            w.step(DT).unwrap();
        }
        through += bullets
            .iter()
            .filter(|&&h| {
                let body = w.body(h).unwrap();
                terrain.passed(
                    &body.center_of_mass(),
                    body.bounding_radius(&body.local_center()),
                )
            })
            .count();
    }
    assert!(through > 10, "{through}");
}
