//! Chains of one-sided segments against oracles that share no code with the chain's rules:
//! - over collinear segments, a disc, a box and a capsule at every offset along the seams and
//!   every small penetration or separation up to the speculative distance get only the face
//!   normal and the separation flat ground gives (the ghost collisions of separate segments
//!   are gone);
//! - at joints bent by up to a degree, no contact is lost (brute-force distance), a concave
//!   joint gives only its faces' normals and a convex one no normal outside its two faces';
//! - time of impact never tunnels: over seeded hilly ground and closed loops, shapes shot
//!   from the front at vertices and edges at up to 10,000 units/s are hit by some segment at
//!   the polyline's first contact (the earliest of the plain segments' times of impact, on
//!   the front of its segment), never later than the dense-sampling oracle, and nothing is
//!   hit from the back (shots that go round an open end of a chain, and meet the corner or
//!   the back there first, are counted apart: the chain answers for nothing there);
//! - rays are one-sided, and distance and GJK see a chain segment as its plain segment.

mod support;

use impact_geometry::tolerances::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use impact_geometry::{
    Capsule, Chain, ChainSegment, Circle, ConvexPolygon, Isometry, Point, Real, Shape, Sweep,
    Vector, cross,
};
use impact_narrowphase::ray::{Ray, cast_ray};
use impact_narrowphase::{
    GjkCache, Manifold, Toi, ToiOptions, closed_form_toi, contact_manifold, distance, gjk_distance,
    time_of_impact,
};
use impact_testkit::SplitMix64;
use impact_testkit::audit::first_contact_by_sampling;
use impact_testkit::chains::{Shot, hilly_ground, in_front, shot_at, star_loop};
use support::gap;

/// The shapes slid over ground: a disc, a box, a capsule lying flat, a small box and a small
/// disc, each with the height of its centre over its lowest point.
fn sliders() -> Vec<(Shape, Real)> {
    vec![
        (Circle::new(0.5).unwrap().into(), 0.5),
        (ConvexPolygon::rectangle(0.5, 0.25).unwrap().into(), 0.25),
        (Capsule::along_x(0.4, 0.2).unwrap().into(), 0.2),
        (ConvexPolygon::rectangle(0.05, 0.05).unwrap().into(), 0.05),
        (Circle::new(0.05).unwrap().into(), 0.05),
    ]
}

/// Every non-empty manifold of `shape` at `pose` with the segments of `chain` at `ground`.
fn manifolds(chain: &Chain, ground: &Isometry, shape: &Shape, pose: &Isometry) -> Vec<Manifold> {
    chain
        .segments()
        .map(|s| contact_manifold(shape, pose, &Shape::from(s), ground, SPECULATIVE_DISTANCE))
        .filter(|m| !m.is_empty())
        .collect()
}

/// The separations a shape's lowest point is placed at over the ground: from a slop deep to
/// just inside the speculative distance.
fn heights() -> Vec<Real> {
    let mut h: Vec<Real> = (0..=24)
        .map(|i| -LINEAR_SLOP + (SPECULATIVE_DISTANCE - 1e-6 + LINEAR_SLOP) * Real::from(i) / 24.0)
        .collect();
    h.extend([-1e-9, 0.0, 1e-9]);
    h
}

/// Offsets along the ground: a fine sweep over four joints, and each joint and each place
/// where a shape's side or end crosses one, to rounding either way.
fn offsets() -> Vec<Real> {
    let mut x: Vec<Real> = (0..=1500)
        .map(|i| -1.5 + 3.0 * Real::from(i) / 1500.0)
        .collect();
    for joint in [-1.5, 0.0, 1.5] {
        for edge in [0.0, 0.05, 0.2, 0.4, 0.5, 0.6, 0.7] {
            for side in [-1.0, 1.0] {
                for nudge in [0.0, 1e-12, 1e-9, 1e-6] {
                    x.push(joint + side * edge + nudge);
                    x.push(joint + side * edge - nudge);
                }
            }
        }
    }
    x
}

#[test]
fn over_collinear_segments_only_the_face_and_the_flat_separation() {
    // Four collinear segments, joints at x = 1.5, 0, -1.5, placed level and turned.
    let chain = Chain::open(&[
        Point::new(3.0, 0.0),
        Point::new(1.5, 0.0),
        Point::new(0.0, 0.0),
        Point::new(-1.5, 0.0),
        Point::new(-3.0, 0.0),
    ])
    .unwrap();
    let mut checked = 0usize;
    for ground in [
        Isometry::identity(),
        Isometry::new(Vector::new(7.25, -3.5), 0.3),
        Isometry::new(Vector::new(-20.0, 11.0), -2.4),
    ] {
        // From the shape toward the ground.
        let down = -(ground.rotation * Vector::y());
        let scale = 1e-12 * (1.0 + ground.translation.vector.amax() + 4.0);
        for (shape, lift) in sliders() {
            for &x in &offsets() {
                for &s in &heights() {
                    let pose = ground * Isometry::translation(x, lift + s);
                    let all = manifolds(&chain, &ground, &shape, &pose);
                    assert!(!all.is_empty(), "lost at x {x}, height {s}");
                    for m in &all {
                        assert!(
                            (m.normal - down).norm() <= 1e-12,
                            "ghost normal {:?} at x {x}, height {s}: {shape:?}",
                            m.normal
                        );
                        for p in m.points() {
                            assert!(
                                (p.separation - s).abs() <= scale,
                                "separation {} for {s} at x {x}: {shape:?}",
                                p.separation
                            );
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100_000);
}

/// The polyline through `(3, 0)`, the origin and two units on, turned there by `bend`
/// radians: positive is convex (the ground falls away past the crest), negative concave.
fn bent(bend: Real) -> Chain {
    let (sin, cos) = bend.sin_cos();
    Chain::open(&[
        Point::new(3.0, 0.0),
        Point::origin(),
        Point::new(-3.0 * cos, -3.0 * sin),
    ])
    .unwrap()
}

#[test]
fn at_joints_bent_by_up_to_a_degree_no_normal_leaves_the_cone() {
    let degree = core::f64::consts::PI / 180.0;
    for bend in [-1.0, -0.6, -0.3, -0.01, 0.01, 0.3, 0.57, 0.6, 1.0].map(|b| b * degree) {
        let chain = bent(bend);
        let segments: Vec<ChainSegment> = chain.segments().collect();
        let plain: Vec<Shape> = segments
            .iter()
            .map(|s| Shape::Segment(s.segment()))
            .collect();
        let (n_a, n_b) = (segments[0].normal(), segments[1].normal());
        let ground = Isometry::identity();
        for (shape, lift) in sliders() {
            for i in 0..=1000 {
                let x = -1.5 + 3.0 * Real::from(i) / 1000.0;
                for &s in &heights() {
                    let pose = Isometry::translation(x, lift + s);
                    let all = manifolds(&chain, &ground, &shape, &pose);
                    let truth = plain
                        .iter()
                        .map(|p| gap(&shape, &pose, p, &ground))
                        .fold(Real::INFINITY, Real::min);
                    if truth <= SPECULATIVE_DISTANCE - 1e-9 {
                        assert!(!all.is_empty(), "lost at x {x}, bend {bend}, gap {truth}");
                    }
                    for m in &all {
                        // From the ground toward the shape.
                        let d = -m.normal;
                        if bend < 0.0 {
                            assert!(
                                (d - n_a).norm() <= 1e-12 || (d - n_b).norm() <= 1e-12,
                                "concave {bend}: {d:?} at x {x}, height {s}: {shape:?}"
                            );
                        } else {
                            assert!(
                                cross(&n_a, &d) >= -1e-12 && cross(&d, &n_b) >= -1e-12,
                                "convex {bend}: {d:?} outside at x {x}, height {s}: {shape:?}"
                            );
                        }
                    }
                    if truth > 1e-9 && !all.is_empty() {
                        // The nearest contact is there, and none claims to be nearer.
                        let nearest = all
                            .iter()
                            .map(Manifold::min_separation)
                            .fold(Real::INFINITY, Real::min);
                        // To 1e-7: the clipping kernel takes a face as the reference within
                        // 4.5e-5 rad of the exact normal, and a point clipped to the face's
                        // end lies up to a micrometre past the closest one, on an edge
                        // tilted by up to a degree against it.
                        assert!(
                            (nearest - truth).abs() <= 1e-7 || truth > SPECULATIVE_DISTANCE - 1e-9,
                            "nearest {nearest} for a gap of {truth} at x {x}, bend {bend}: {shape:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn the_back_of_a_chain_has_no_contact() {
    let chain = Chain::closed(&[
        Point::new(0.0, 0.0),
        Point::new(2.0, 0.0),
        Point::new(2.0, 1.0),
        Point::new(0.0, 1.0),
    ])
    .unwrap();
    // Counter-clockwise: an island. Inside it, touching its walls, nothing collides.
    let disc = Shape::from(Circle::new(0.4).unwrap());
    for x in [0.38, 0.5, 1.0, 1.5, 1.62] {
        let pose = Isometry::translation(x, 0.5);
        assert!(manifolds(&chain, &Isometry::identity(), &disc, &pose).is_empty());
    }
    // Outside, it does.
    let pose = Isometry::translation(1.0, -0.39);
    assert_eq!(
        manifolds(&chain, &Isometry::identity(), &disc, &pose).len(),
        1
    );
    // A segment or another chain segment never touches a chain segment.
    let seg = chain.segment(0).unwrap();
    let thin = Shape::Segment(seg.segment());
    let m = contact_manifold(
        &thin,
        &Isometry::identity(),
        &seg.into(),
        &Isometry::identity(),
        1.0,
    );
    assert!(m.is_empty());
}

/// Every hit of `shot` with `shapes` (each a chain's segment or a plain one) over the step:
/// its fraction, the segment's index and the hit's normal from the segment toward the shape
/// (a safe fraction stands for the hit of a query that did not converge).
fn hits(shot: &Shot, shapes: &[Shape], options: &ToiOptions) -> Vec<(Real, usize, Vector)> {
    let still = Sweep::stationary(Isometry::identity()).unwrap();
    let mut out = Vec::new();
    for (i, s) in shapes.iter().enumerate() {
        match time_of_impact(&shot.shape, &shot.sweep, s, &still, options) {
            Toi::Hit(h) => out.push((h.fraction, i, -h.normal)),
            Toi::NotConverged { safe_fraction } => out.push((safe_fraction, i, Vector::zeros())),
            Toi::Overlapping => panic!("overlapping at the start: {shot:?}"),
            Toi::Separated => {}
        }
    }
    out
}

/// The earliest of `hits`.
fn earliest(hits: &[(Real, usize, Vector)]) -> Option<(Real, usize, Vector)> {
    hits.iter().copied().min_by(|x, y| x.0.total_cmp(&y.0))
}

/// Whether `d` (a unit vector from segment `i` toward the shape) faces the segment's front.
fn faces_front(chain: &Chain, i: usize, d: Vector) -> bool {
    d == Vector::zeros() || d.dot(&chain.segment(i).unwrap().normal()) > 0.0
}

/// Whether `d`, from segment `i` toward the shape, is tilted past an open chain's end (which
/// answers for nothing there: see `Chain`).
fn past_an_open_end(chain: &Chain, i: usize, d: Vector) -> bool {
    let tilt = cross(&chain.segment(i).unwrap().normal(), &d);
    let open = !chain.is_closed();
    (open && i == 0 && tilt < -1e-9) || (open && i + 1 == chain.segment_count() && tilt > 1e-9)
}

/// Shoots `count` shots at each of `chains` (turning if `turning`) and checks the chain's
/// earliest hit against the plain segments' earliest front hit and the dense-sampling
/// oracle. Returns how many shots hit.
fn shoot(chains: &[Chain], count: usize, seed: u64, turning: bool, dense_every: usize) -> usize {
    let mut rng = SplitMix64::new(seed);
    let options = ToiOptions::default();
    let mut hits_count = 0;
    let mut at_open_ends = 0;
    let mut ghosts = 0;
    let mut shots = 0;
    while shots < count {
        let chain = &chains[rng.below(chains.len())];
        let shot = shot_at(&mut rng, chain, turning);
        let start = shot.sweep.start();
        let chain_shapes: Vec<Shape> = chain.segments().map(Shape::from).collect();
        let plain: Vec<Shape> = chain
            .segments()
            .map(|s| Shape::Segment(s.segment()))
            .collect();
        let centre = start * shot.sweep.local_center();
        let clear = plain
            .iter()
            .all(|p| gap(&shot.shape, &start, p, &Isometry::identity()) > 0.01);
        let body_in_front = shot.shape.core().iter().all(|p| in_front(chain, start * p));
        if !(clear && body_in_front && in_front(chain, centre)) {
            continue;
        }
        shots += 1;
        let our_hits = hits(&shot, &chain_shapes, &options);
        let ours = earliest(&our_hits).map(|h| h.0);
        let plain_hits = hits(&shot, &plain, &options);
        // Front hits of plain segments that their chain segments judge as ghosts: leave to
        // a neighbour, or turn to the face that owns their direction.
        ghosts += plain_hits
            .iter()
            .filter(|&&(_, i, d)| {
                faces_front(chain, i, d) && !our_hits.iter().any(|h| h.1 == i && h.2 == d)
            })
            .count();
        let first = earliest(&plain_hits);
        if first.is_some_and(|(_, i, d)| !faces_front(chain, i, d) || past_an_open_end(chain, i, d))
        {
            // The shape goes round an open end of the chain and meets the corner there, or
            // the back beyond it, first: nobody's (see `Chain`).
            at_open_ends += 1;
            continue;
        }
        match (ours, first.map(|h| h.0)) {
            (Some(t), Some(f)) => {
                hits_count += 1;
                let slack = if turning { 1e-6 } else { 1e-9 };
                assert!(
                    (t - f).abs() <= slack,
                    "chain {t} vs the front's first contact {f}: {shot:?} at {chain:?}\n{}",
                    per_segment(&shot, chain, &options)
                );
            }
            (None, None) => {}
            other => panic!(
                "chain vs front {other:?}: {shot:?} at {chain:?}\n{}",
                per_segment(&shot, chain, &options)
            ),
        }
        if shots % dense_every == 0 {
            let still = Sweep::stationary(Isometry::identity()).unwrap();
            let dense = plain
                .iter()
                .filter_map(|p| {
                    first_contact_by_sampling(
                        &shot.shape,
                        &shot.sweep,
                        p,
                        &still,
                        options.target_separation(),
                        1.0,
                        4000,
                    )
                })
                .fold(None, |b: Option<Real>, t| Some(b.map_or(t, |b| b.min(t))));
            if let Some(d) = dense {
                let t = ours.expect("the oracle saw a contact the chain missed");
                assert!(
                    t <= d + 1e-9,
                    "chain {t} later than dense sampling {d}: {shot:?}"
                );
            }
        }
    }
    assert!(
        at_open_ends * 20 < count,
        "{at_open_ends} of {count} met an open end first"
    );
    assert!(
        ghosts * 10 > count,
        "only {ghosts} ghosts in {count} shots: the rules untested"
    );
    hits_count
}

/// Each segment's answer and its plain segment's, for a failure's message.
fn per_segment(shot: &Shot, chain: &Chain, options: &ToiOptions) -> String {
    let still = Sweep::stationary(Isometry::identity()).unwrap();
    chain
        .segments()
        .enumerate()
        .map(|(i, s)| {
            let ours = time_of_impact(&shot.shape, &shot.sweep, &s.into(), &still, options);
            let plain = Shape::Segment(s.segment());
            let theirs = time_of_impact(&shot.shape, &shot.sweep, &plain, &still, options);
            format!(
                "segment {i}: chain {ours:?}, plain {theirs:?}, turns {} {}, normal {:?}\n",
                s.turn_at_a(),
                s.turn_at_b(),
                s.normal()
            )
        })
        .collect()
}

fn test_chains(rng: &mut SplitMix64) -> Vec<Chain> {
    vec![
        hilly_ground(rng, 12),
        hilly_ground(rng, 30),
        star_loop(rng, 7, true),
        star_loop(rng, 16, false),
        star_loop(rng, 5, false),
    ]
}

#[test]
fn translating_shots_never_tunnel_through_the_front() {
    let mut rng = SplitMix64::new(2929);
    let chains = test_chains(&mut rng);
    let hits = shoot(&chains, 3000, 29, false, 10);
    assert!(hits > 1500, "only {hits} of 3000 hit");
}

#[test]
fn turning_shots_never_tunnel_through_the_front() {
    let mut rng = SplitMix64::new(2930);
    let chains = test_chains(&mut rng);
    let hits = shoot(&chains, 600, 30, true, 6);
    assert!(hits > 300, "only {hits} of 600 hit");
}

#[test]
fn from_the_back_nothing_is_hit() {
    let mut rng = SplitMix64::new(31);
    let options = ToiOptions::default();
    let still = Sweep::stationary(Isometry::identity()).unwrap();
    let ground = hilly_ground(&mut rng, 20);
    for _ in 0..500 {
        // A disc below the ground rising through it.
        let x = rng.range(2.0, 18.0);
        let below = ground
            .segments()
            .find(|s| s.a().x >= x && s.b().x <= x)
            .map(|s| s.a().y + (s.b().y - s.a().y) * (s.a().x - x) / (s.a().x - s.b().x))
            .unwrap();
        let r = rng.range(0.05, 0.5);
        let start = Isometry::translation(x, below - r - rng.range(0.01, 3.0));
        let rise = Vector::new(rng.range(-1.0, 1.0), rng.range(4.0, 100.0));
        let sweep = Sweep::translating(start, rise).unwrap();
        let disc = Shape::from(Circle::new(r).unwrap());
        for s in ground.segments() {
            let toi = time_of_impact(&disc, &sweep, &s.into(), &still, &options);
            assert!(matches!(toi, Toi::Separated), "{toi:?}");
        }
    }
}

#[test]
fn rays_hit_from_the_front_only() {
    let mut rng = SplitMix64::new(32);
    let chain = star_loop(&mut rng, 9, true);
    let pose = Isometry::new(Vector::new(3.0, -2.0), 0.7);
    let (mut front, mut back) = (0, 0);
    for _ in 0..5000 {
        let o = Point::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0));
        let to = Point::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0));
        let ray = Ray::between(o, to);
        for s in chain.segments() {
            let ours = cast_ray(&s.into(), &pose, &ray, 1.0, true);
            let plain = cast_ray(&Shape::Segment(s.segment()), &pose, &ray, 1.0, true);
            let facing = (pose.rotation * s.normal()).dot(&ray.translation) < 0.0;
            match (ours, plain) {
                (Some(x), Some(y)) => {
                    assert!(facing);
                    assert_eq!(x, y);
                    front += 1;
                }
                (None, Some(_)) => {
                    assert!(!facing);
                    back += 1;
                }
                (None, None) => {}
                (Some(x), None) => panic!("{x:?} where the segment is missed"),
            }
        }
    }
    assert!(front > 1000 && back > 1000, "{front} {back}");
}

#[test]
fn distance_and_gjk_see_the_plain_segment() {
    let mut rng = SplitMix64::new(33);
    let chain = hilly_ground(&mut rng, 10);
    for _ in 0..2000 {
        let shape = impact_testkit::audit::random_shape(&mut rng);
        let pose = Isometry::new(
            Vector::new(rng.range(0.0, 10.0), rng.range(-3.0, 3.0)),
            rng.range(-3.2, 3.2),
        );
        let ground = Isometry::new(Vector::new(rng.range(-1.0, 1.0), 0.0), rng.range(-0.1, 0.1));
        for s in chain.segments() {
            let (ours, plain) = (Shape::from(s), Shape::Segment(s.segment()));
            assert_eq!(
                distance(&shape, &pose, &ours, &ground),
                distance(&shape, &pose, &plain, &ground)
            );
            assert_eq!(
                gjk_distance(&shape, &pose, &ours, &ground, &mut GjkCache::default()),
                gjk_distance(&shape, &pose, &plain, &ground, &mut GjkCache::default())
            );
        }
    }
}

#[test]
fn the_closed_form_of_a_turning_pair_is_refused_for_a_chain_too() {
    let seg = Shape::from(bent(0.1).segment(0).unwrap());
    let disc = Shape::from(ConvexPolygon::rectangle(0.2, 0.2).unwrap());
    let turning = Sweep::new(
        Isometry::translation(1.0, 2.0),
        Point::origin(),
        Vector::new(0.0, -3.0),
        1.0,
        1.0,
    )
    .unwrap();
    let still = Sweep::stationary(Isometry::identity()).unwrap();
    assert!(closed_form_toi(&disc, &turning, &seg, &still, &ToiOptions::default()).is_err());
    assert!(closed_form_toi(&seg, &still, &disc, &turning, &ToiOptions::default()).is_err());
}
