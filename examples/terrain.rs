//! A cart made of several shapes pushed over a chain hill while bullets are fired at the hill.
//!
//! The ground is one static body: a chain of 60 one-sided segments (flat, a smooth hill 3
//! units high and 20 wide, flat again), drawn right to left so that its solid side is below.
//! The cart is one dynamic body of three shapes: a 2 by 0.4 chassis and two discs of radius
//! 0.3 under it (skids without friction). A push keeps it at about 6 units/s along the
//! ground; it climbs the hill and runs down the other side without catching on any of the
//! chain's 60 joints. Every fifth step a bullet (a disc of radius 0.05 at 2,000 to 10,000
//! units/s) is fired from above at a seeded point of the hill; a collision filter lets the
//! bullets meet only the ground, where they bounce.
//!
//! The program prints the cart's course and checks what it prints: the cart crests the hill
//! and reaches the far side, its vertical speed on the flat parts stays below 1e-3 (no joint
//! kicks it), and no bullet ends a step beneath the hill.
//!
//! `cargo run --release --example terrain`

use impact2d::broadphase::RTreeBroadphase;
use impact2d::prelude::*;

const DT: Real = 1.0 / 60.0;
const STEPS: usize = 480;
const PUSH_SPEED: Real = 6.0;
/// The bullets' filter: their own category, meeting only the ground's (the default), so
/// they neither meet each other nor knock the cart about (a bullet of 8 grams at 10,000
/// units/s would throw the 2 kg cart off the hill, and spent bullets on the ground would
/// trip it).
const BULLETS: CollisionFilter = CollisionFilter::new(2, 1);
/// The cart's filter: a category of its own, which the bullets' mask leaves out.
const CART: CollisionFilter = CollisionFilter::new(4, u64::MAX);

/// The ground's height at `x`: flat at 0, and a hill of height 3 between `x = -10` and
/// `x = 10` (a raised cosine).
fn height(x: Real) -> Real {
    if x.abs() >= 10.0 {
        0.0
    } else {
        1.5 * (1.0 + (core::f64::consts::PI * x / 10.0).cos())
    }
}

/// The ground's points, right to left: 20 segments across each flat part and 20 over the
/// hill, so that the chain has joints everywhere the cart goes.
fn ground_points() -> Vec<Point> {
    let mut xs: Vec<Real> = (0..=20).map(|i| 40.0 - 1.5 * Real::from(i)).collect();
    xs.extend((1..20).map(|i| 10.0 - Real::from(i)));
    xs.extend((0..=20).map(|i| -10.0 - 1.5 * Real::from(i)));
    xs.into_iter().map(|x| Point::new(x, height(x))).collect()
}

/// A small seeded generator (SplitMix64), so the bullets are the same on every run.
struct Seeded(u64);

impl Seeded {
    fn unit(&mut self) -> Real {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as Real / u64::MAX as Real
    }

    fn range(&mut self, lo: Real, hi: Real) -> Real {
        lo + (hi - lo) * self.unit()
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world: World<RTreeBroadphase, FirstTimeOfImpact> =
        World::new(WorldSettings::with_gravity(Vector::new(0.0, -10.0)))?;
    let chain = Chain::open(&ground_points())?;
    world.create_body(RigidBodyDef::from_chain(&chain).friction(0.0))?;

    let chassis = ConvexPolygon::new(&[
        Point::new(-1.0, 0.3),
        Point::new(1.0, 0.3),
        Point::new(1.0, 0.7),
        Point::new(-1.0, 0.7),
    ])?;
    let wheel = |x: Real| -> Result<Shape, GeometryError> {
        Ok(Circle::with_center(Point::new(x, 0.3), 0.3)?.into())
    };
    let cart = world.create_body(
        RigidBodyDef::new(chassis.into())
            .friction(0.0)
            .filter(CART)
            .with_shape(
                ShapeDef::new(wheel(-0.7)?)
                    .friction(0.0)
                    .density(2.0)
                    .filter(CART),
            )
            .with_shape(
                ShapeDef::new(wheel(0.7)?)
                    .friction(0.0)
                    .density(2.0)
                    .filter(CART),
            )
            .pose(Isometry::translation(-25.0, 0.0))
            .ccd(true),
    )?;

    let mut rng = Seeded(29);
    let mut bullets = Vec::new();
    let (mut crest, mut flat_kick, mut through): (Real, Real, usize) = (0.0, 0.0, 0);
    for step in 0..STEPS {
        // The push: an impulse along the ground that brings the cart back to the push speed.
        let body = world.try_body(cart)?;
        let (x, v, mass) = (body.center_of_mass().x, body.linvel(), body.mass());
        let slope = (height(x + 0.01) - height(x - 0.01)) / 0.02;
        let along = Vector::new(1.0, slope).normalize();
        let short = PUSH_SPEED - v.dot(&along);
        if short > 0.0 {
            let at = body.center_of_mass();
            world
                .body_mut(cart)
                .ok_or("the cart is there")?
                .apply_impulse_at_point(along * (short * mass * 0.2), at)?;
        }
        if step % 5 == 0 {
            let target_x = rng.range(-10.0, 10.0);
            let target = Point::new(target_x, height(target_x));
            let start = Point::new(rng.range(-30.0, 30.0), rng.range(10.0, 30.0));
            let speed = rng.range(2_000.0, 10_000.0);
            bullets.push(
                world.create_body(
                    RigidBodyDef::new(Circle::new(0.05)?.into())
                        .pose(Isometry::translation(start.x, start.y))
                        .linvel((target - start).normalize() * speed)
                        .restitution(0.3)
                        .filter(BULLETS)
                        .ccd(true),
                )?,
            );
        }
        world.step(DT)?;
        let body = world.try_body(cart)?;
        let (x, y) = (body.center_of_mass().x, body.pose().translation.y);
        crest = crest.max(y);
        if x.abs() > 12.0 && x.abs() < 35.0 {
            flat_kick = flat_kick.max(body.linvel().y.abs());
        }
        for &b in &bullets {
            let p = world.try_body(b)?.center_of_mass();
            if p.x.abs() < 40.0 && p.y < height(p.x) - 0.05 {
                through += 1;
            }
        }
        if step % 60 == 0 {
            println!(
                "t = {:>4.1} s: cart at x = {x:>6.2}, y = {y:>5.2}",
                world.time()
            );
        }
    }
    let end_x = world.try_body(cart)?.center_of_mass().x;
    println!(
        "cart: highest {crest:.3}, ends at x = {end_x:.2}; largest vertical speed on the flat \
         parts {flat_kick:.2e} units/s"
    );
    println!(
        "bullets: {} fired, {through} beneath the hill",
        bullets.len()
    );
    assert!(crest > 2.9, "the cart did not crest the hill");
    assert!(end_x > 12.0, "the cart did not reach the far side");
    assert!(flat_kick < 1e-3, "a joint kicked the cart");
    assert_eq!(through, 0, "a bullet went through the hill");
    Ok(())
}
