//! Bullets against concave outlines: 2,000 seeded shots at 1 to 10,000 units/s at the
//! outside of seeded outlines (stars, combs, an L, a U, tops dented by a hair, jagged random
//! outlines), each one static body of the outline's convex pieces with their seams
//! (`RigidBodyDef::from_outline`), aimed at the outline's vertices and at points of its
//! edges, under both CCD steppers: none passes into the outline under `FirstTimeOfImpact`. A bullet's centre of mass
//! must never cross an edge of a piece (the judge, with the turns of its course at its
//! impacts) nor end a step inside the filled outline.

mod common;

use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_geometry::{
    Circle, ConcaveOutline, ConvexPolygon, Isometry, Point, Real, Shape, Vector, cross,
};
use impact_narrowphase::distance;
use impact_solver::{BodyHandle, BodyType, CollisionFilter, RigidBodyDef};
use impact_stepper::judge::{PassThroughDetector, TurnRecorder};
use impact_stepper::{FirstTimeOfImpact, MotionClamping, NoHook, Stepper, World, WorldSettings};
use impact_testkit::SplitMix64;
use impact_testkit::outlines;

/// Shots per world; 20 worlds make the 2,000 shots.
const SHOTS_PER_WORLD: usize = 100;

/// The outline of world `seed`: one of the seeded kinds, counter-clockwise.
fn outline(rng: &mut SplitMix64) -> Vec<Point> {
    let c = Vector::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
    let count = rng.below(8);
    match rng.below(7) {
        0 => outlines::ell(3.0, 1.0),
        1 => outlines::you(4.0, 3.0, 0.8),
        2 => outlines::comb(rng, 4 + count / 3, c, 4.0),
        3 => outlines::star(rng, 8 + count, c, 3.0),
        4 => outlines::untangled(rng, 10 + count, c, 3.0),
        5 => {
            let top = outlines::under_flat_top(rng, 4.0, 6);
            let edge = top.len() - 1;
            outlines::dented(rng, &top, edge, 2, 1e-5)
        }
        _ => outlines::upside_down(&outlines::comb(rng, 5, c, 4.0)),
    }
}

/// Whether `p` lies inside the simple polygon `outline` (crossing number).
fn inside(outline: &[Point], p: &Point) -> bool {
    let n = outline.len();
    let mut odd = false;
    for i in 0..n {
        let (a, b) = (outline[i], outline[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) {
            let side = cross(&(b - a), &(p - a));
            if (side > 0.0) == (b.y > a.y) {
                odd = !odd;
            }
        }
    }
    odd
}

/// One world of `S`: the outline of `seed` as one static body of its pieces and 100 bullets
/// (discs of radius 0.02 to 0.1 or boxes 0.04 to 0.2 by 0.01 to 0.1, in one negative group
/// so that they pass through each other), each starting clear of the outline and aimed at it
/// from outside (`outlines::shot_at`) at 1 to 10,000 units/s, spinning up to 50 rad/s, with
/// no restitution in even worlds and seeded restitution in odd ones; gravity as on earth.
fn world<S: Stepper + Default>(
    seed: u64,
) -> (World<RTreeBroadphase, S>, Vec<BodyHandle>, Vec<Point>) {
    let mut rng = SplitMix64::new(seed ^ 0x0b1e_77e5);
    let outline = outline(&mut rng);
    let shape = ConcaveOutline::new(&outline).unwrap();
    let vertices = shape.vertices().to_vec();
    let pieces: Vec<Shape> = shape.convex_pieces().into_iter().map(Shape::from).collect();
    let mut w =
        World::<RTreeBroadphase, S>::new(WorldSettings::with_gravity(Vector::new(0.0, -10.0)))
            .unwrap();
    w.create_body(RigidBodyDef::from_outline(&shape).body_type(BodyType::Static))
        .unwrap();
    let mut bullets = Vec::new();
    while bullets.len() < SHOTS_PER_WORLD {
        let shot = outlines::shot_at(&mut rng, &vertices, false);
        let bullet: Shape = match rng.below(2) {
            0 => Circle::new(rng.range(0.02, 0.1)).unwrap().into(),
            _ => ConvexPolygon::rectangle(rng.range(0.02, 0.1), rng.range(0.005, 0.05))
                .unwrap()
                .into(),
        };
        let start = shot.sweep.start() * shot.sweep.local_center();
        let pose = Isometry::new(start.coords, rng.range(-3.2, 3.2));
        let clear = !inside(&vertices, &start)
            && pieces
                .iter()
                .all(|p| distance(&bullet, &pose, p, &Isometry::identity()).distance > 0.01);
        let spin = rng.range(-50.0, 50.0);
        // Bullets that do not bounce stay on the outline, sliding along it at the target
        // separation into its seams and corners: the hard case. Odd worlds bounce.
        let restitution = rng.range(0.0, 0.5) * (seed % 2) as Real;
        if !clear {
            continue;
        }
        let def = RigidBodyDef::new(bullet)
            .pose(pose)
            .linvel(shot.sweep.linvel() / DT)
            .angvel(spin)
            .restitution(restitution)
            .filter(CollisionFilter::DEFAULT.group(-1))
            .ccd(true);
        bullets.push(w.create_body(def).unwrap());
    }
    (w, bullets, vertices)
}

/// The bullets of `worlds` worlds that pass into the outline within 6 steps: world seed,
/// bullet, step and how.
fn through<S: Stepper + Default>(worlds: u64) -> Vec<String> {
    let mut through = Vec::new();
    for seed in 0..worlds {
        let (mut w, bullets, outline) = world::<S>(seed);
        let mut detector = PassThroughDetector::new(w.body_set());
        let mut hook = TurnRecorder::new(NoHook);
        let mut seen = vec![false; bullets.len()];
        for step in 1..=6 {
            w.step_with(DT, &mut hook).unwrap();
            detector.observe_with_turns(w.body_set(), step, &hook.turns(w.events()));
            hook.clear();
            for (k, &h) in bullets.iter().enumerate() {
                let c = w.body(h).unwrap().center_of_mass();
                if !seen[k] && inside(&outline, &c) {
                    seen[k] = true;
                    through.push(format!(
                        "world {seed}, bullet {k}, step {step}: inside at {c:?}"
                    ));
                }
            }
        }
        for found in detector.found() {
            let k = bullets.iter().position(|&h| h == found.body).unwrap();
            if !seen[k] {
                seen[k] = true;
                through.push(format!(
                    "world {seed}, bullet {k}, step {}: {:?}",
                    found.step, found.kind
                ));
            }
        }
    }
    through
}

#[test]
fn no_bullet_passes_into_an_outline_under_first_time_of_impact() {
    let through = through::<FirstTimeOfImpact>(20);
    assert!(
        through.is_empty(),
        "{} through: {through:#?}",
        through.len()
    );
}

#[test]
fn no_bullet_passes_into_an_outline_under_motion_clamping() {
    let through = through::<MotionClamping>(20);
    assert!(
        through.is_empty(),
        "{} through: {through:#?}",
        through.len()
    );
}

#[test]
fn the_outline_bullets_pass_without_ccd() {
    // Fast enough to pass the outlines without continuous collision detection: a test that
    // cannot fail would not be one.
    let through = through::<impact_stepper::Discrete>(3);
    assert!(through.len() > 10, "{}", through.len());
}
