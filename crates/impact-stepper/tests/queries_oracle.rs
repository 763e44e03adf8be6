//! Invariant: the world's scene queries answer as a brute-force oracle that tests every body
//! of the scene, written here from the shapes' definitions and sharing no code with the
//! queries (nor with the filter: its rule is written out again here).
//!
//! - Rays, solid and hollow: the oracle crosses the ray's line with every body's boundary
//!   (a circle by its half chord, a segment by Cramer's rule, a capsule as two circles and
//!   two offset sides, a polygon edge by edge) and keeps the nearest hit. `cast_ray`'s
//!   fraction is within 1e-12 of it, its body the same unless another body's fraction is
//!   within 1e-12, its normal within 1e-12 unless the hit is within 1e-9 of a vertex (then
//!   either face's normal); `cast_ray_all` hits the same bodies (a ray that only grazes a
//!   body, hitting or missing it as its line moves by 1e-9, may go either way) at the same
//!   fractions, nearest first.
//! - Translating casts: within 1e-12 of `closed_form_toi` run on every body, the same body
//!   unless tied within 1e-12.
//! - Turning casts: never later than the dense-sampling oracle of `impact_testkit::audit`
//!   over every body within reach (by bounding circles), and where a hit is reported the
//!   shapes are within the target plus the tolerance. A body the cast shape starts within
//!   the target of (not overlapping) counts, as for the time of impact, from when the two
//!   come closer than they started.
//!
//! Each runs with the default filter and with seeded filters (categories, mask, sensors,
//! body types, excluded bodies, a predicate), on fields of 1,000 mixed bodies
//! (`impact_testkit::queries::query_field`), as created and after steps that move bodies off
//! their broadphase boxes, and after a teleport. The default (debug) run checks 10,000 rays,
//! 10,000 translating casts and 2,000 turning casts (1,000 samples each) in about 4 s;
//! `full_counts` (ignored: `cargo test --release -p impact-stepper --test queries_oracle --
//! --ignored`) checks 10,000 of each on other seeds, the turning ones with 2,000 samples.

use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Isometry, Point, Real, Shape, Sweep, Vector, cross};
use impact_narrowphase::ray::Ray;
use impact_narrowphase::{Toi, ToiOptions, closed_form_toi};
use impact_solver::{BodyHandle, BodyType, RigidBody};
use impact_stepper::{CastStatus, Discrete, Interior, QueryFilter, ShapeCastOptions, World};
use impact_testkit::SplitMix64;
use impact_testkit::audit::first_contact_of;
use impact_testkit::queries::{
    query_field, query_field_side, random_cast, random_ray, random_sweep,
};

type TestWorld = World<RTreeBroadphase, Discrete>;

// ---------------------------------------------------------------------------------------
// The filter, written out.

/// A query filter's settings, with the rule applied by hand.
#[derive(Debug, Clone)]
struct Rule {
    category: u64,
    mask: u64,
    sensors: bool,
    no_static: bool,
    no_kinematic: bool,
    no_dynamic: bool,
    exclude: Vec<BodyHandle>,
    /// Bodies whose slot index leaves this remainder modulo 5 are dropped by the predicate.
    drop_remainder: Option<u32>,
}

impl Rule {
    fn everything() -> Self {
        Self {
            category: 1,
            mask: u64::MAX,
            sensors: false,
            no_static: false,
            no_kinematic: false,
            no_dynamic: false,
            exclude: Vec::new(),
            drop_remainder: None,
        }
    }

    fn random(rng: &mut SplitMix64, world: &TestWorld) -> Self {
        let bits = |rng: &mut SplitMix64| 1 + rng.below(15) as u64;
        let handles: Vec<BodyHandle> = world.bodies().map(|(h, _)| h).collect();
        let no_type = rng.below(4);
        Self {
            category: bits(rng),
            mask: bits(rng),
            sensors: rng.below(2) == 0,
            no_static: no_type == 0,
            no_kinematic: no_type == 1,
            no_dynamic: no_type == 2,
            exclude: (0..rng.below(4))
                .map(|_| handles[rng.below(handles.len())])
                .collect(),
            drop_remainder: (rng.below(2) == 0).then(|| rng.below(5) as u32),
        }
    }

    fn passes(&self, handle: BodyHandle, body: &RigidBody) -> bool {
        let f = body.filter();
        let kind_out = match body.body_type() {
            BodyType::Static => self.no_static,
            BodyType::Kinematic => self.no_kinematic,
            BodyType::Dynamic => self.no_dynamic,
        };
        f.category_bits & self.mask != 0
            && f.mask_bits & self.category != 0
            && (self.sensors || !body.is_sensor())
            && !kind_out
            && !self.exclude.contains(&handle)
            && self.drop_remainder != Some(handle.index % 5)
    }

    /// Runs `f` with the query filter of this rule.
    fn with_filter<T>(&self, f: impl FnOnce(&QueryFilter<'_>) -> T) -> T {
        let drop = self.drop_remainder;
        let predicate =
            move |shape: impact_solver::ShapeId, _: &RigidBody| drop != Some(shape.body.index % 5);
        let mut filter = QueryFilter::new()
            .category_bits(self.category)
            .mask_bits(self.mask)
            .include_sensors(self.sensors)
            .exclude_bodies(&self.exclude);
        filter.exclude_fixed = self.no_static;
        filter.exclude_kinematic = self.no_kinematic;
        filter.exclude_dynamic = self.no_dynamic;
        if drop.is_some() {
            filter = filter.predicate(&predicate);
        }
        f(&filter)
    }
}

// ---------------------------------------------------------------------------------------
// The ray oracle.

/// Where the ray's line crosses a body's boundary: the fraction, the outward normal there
/// (for a segment, the side facing the ray's origin), and the normals of the faces meeting
/// at a vertex within 1e-9 of the point (empty away from vertices).
#[derive(Debug, Clone)]
struct Crossing {
    t: Real,
    normal: Vector,
    vertex_normals: Vec<Vector>,
}

/// The crossings of the line `o + t d` with the circle of radius `r` about `c`.
fn circle_crossings(c: Vector, r: Real, o: Vector, d: Vector, out: &mut Vec<Crossing>) {
    let len = d.norm();
    let u = d / len;
    let w = o - c;
    let along = -w.dot(&u);
    let miss = cross(&w, &u).abs();
    if miss > r {
        return;
    }
    let half_chord = ((r - miss) * (r + miss)).sqrt();
    for s in [along - half_chord, along + half_chord] {
        let p = w + u * s;
        let n = if r > 0.0 { p / p.norm() } else { -u };
        out.push(Crossing {
            t: s / len,
            normal: n,
            vertex_normals: Vec::new(),
        });
    }
}

/// The crossing of the line `o + t d` with the segment `a b` (none when parallel), with
/// `normal` if given (an edge's outward normal), else the side facing `o`.
fn segment_crossing(
    a: Vector,
    b: Vector,
    o: Vector,
    d: Vector,
    normal: Option<Vector>,
    vertex_normals: [Option<Vector>; 2],
    out: &mut Vec<Crossing>,
) {
    let e = b - a;
    let det = cross(&d, &e);
    if det == 0.0 {
        return;
    }
    let t = cross(&(a - o), &e) / det;
    let s = cross(&(a - o), &d) / det;
    if !(0.0..=1.0).contains(&s) {
        return;
    }
    let side = Vector::new(e.y, -e.x).normalize();
    let normal = normal.unwrap_or(if side.dot(&(o - a)) >= 0.0 {
        side
    } else {
        -side
    });
    let p = o + d * t;
    let mut near = Vec::new();
    for (end, other) in [(a, vertex_normals[0]), (b, vertex_normals[1])] {
        if (p - end).norm() <= 1e-9 {
            near.push(normal);
            near.push(other.unwrap_or(-d.normalize()));
        }
    }
    out.push(Crossing {
        t,
        normal,
        vertex_normals: near,
    });
}

/// Whether `p` is in the body's shape (its boundary included); a segment holds no point.
fn holds(shape: &Shape, pose: &Isometry, p: Vector) -> bool {
    let world: Vec<Vector> = shape.core().iter().map(|v| (pose * v).coords).collect();
    match shape {
        Shape::Circle(c) => (p - world[0]).norm() <= c.radius(),
        Shape::Segment(_) | Shape::ChainSegment(_) => false,
        Shape::Capsule(c) => {
            let (a, b) = (world[0], world[1]);
            let e = b - a;
            let s = ((p - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
            (p - (a + e * s)).norm() <= c.radius()
        }
        Shape::Polygon(_) => (0..world.len()).all(|i| {
            let (v, w) = (world[i], world[(i + 1) % world.len()]);
            cross(&(w - v), &(p - v)) >= 0.0
        }),
    }
}

/// Every crossing of the line `o + t d` with the body's boundary.
fn crossings(shape: &Shape, pose: &Isometry, o: Vector, d: Vector) -> Vec<Crossing> {
    let world: Vec<Vector> = shape.core().iter().map(|v| (pose * v).coords).collect();
    let mut out = Vec::new();
    match shape {
        Shape::Circle(c) => circle_crossings(world[0], c.radius(), o, d, &mut out),
        Shape::Segment(_) => segment_crossing(world[0], world[1], o, d, None, [None; 2], &mut out),
        // One-sided: crossed only from the front.
        Shape::ChainSegment(s) => {
            if (pose.rotation * s.normal()).dot(&d) < 0.0 {
                segment_crossing(world[0], world[1], o, d, None, [None; 2], &mut out);
            }
        }
        Shape::Capsule(c) => {
            let (a, b, r) = (world[0], world[1], c.radius());
            circle_crossings(a, r, o, d, &mut out);
            circle_crossings(b, r, o, d, &mut out);
            let e = b - a;
            if e.norm() > 0.0 {
                let n = Vector::new(-e.y, e.x).normalize();
                for side in [n, -n] {
                    let (sa, sb) = (a + side * r, b + side * r);
                    segment_crossing(sa, sb, o, d, Some(side), [Some(side); 2], &mut out);
                }
            }
        }
        Shape::Polygon(_) => {
            let m = world.len();
            let normal = |i: usize| {
                let e = world[(i + 1) % m] - world[i];
                Vector::new(e.y, -e.x).normalize()
            };
            for i in 0..m {
                let (prev, next) = (normal((i + m - 1) % m), normal((i + 1) % m));
                let (v, w) = (world[i], world[(i + 1) % m]);
                segment_crossing(
                    v,
                    w,
                    o,
                    d,
                    Some(normal(i)),
                    [Some(prev), Some(next)],
                    &mut out,
                );
            }
        }
    }
    out
}

/// The oracle's hit of `ray` on one body: fraction, normal facing the ray, and the normals
/// that also pass (at a vertex).
fn ray_hit(
    shape: &Shape,
    pose: &Isometry,
    ray: &Ray,
    interior: Interior,
) -> Option<(Real, Vector, Vec<Vector>)> {
    let (o, d) = (ray.origin.coords, ray.translation);
    let all = crossings(shape, pose, o, d);
    let ahead = all.iter().filter(|c| (0.0..=1.0).contains(&c.t));
    if holds(shape, pose, o) {
        return match interior {
            Interior::Solid => Some((0.0, -d.normalize(), Vec::new())),
            Interior::Hollow => ahead.max_by(|a, b| a.t.total_cmp(&b.t)).map(|c| {
                (
                    c.t,
                    -c.normal,
                    c.vertex_normals.iter().map(|n| -n).collect(),
                )
            }),
        };
    }
    ahead
        .min_by(|a, b| a.t.total_cmp(&b.t))
        .map(|c| (c.t, c.normal, c.vertex_normals.clone()))
}

/// Whether the oracle's hit-or-miss of `ray` on a body changes when the ray's line moves by
/// 1e-9 (of the scene's size) either way across it: a graze that rounding may decide.
fn grazes(shape: &Shape, pose: &Isometry, ray: &Ray, interior: Interior, scale: Real) -> bool {
    let n = Vector::new(-ray.translation.y, ray.translation.x).normalize() * (1e-9 * scale);
    let hit = |r: &Ray| ray_hit(shape, pose, r, interior).is_some();
    let base = hit(ray);
    [n, -n, ray.translation * 1e-9, -ray.translation * 1e-9]
        .iter()
        .any(|shift| hit(&Ray::new(ray.origin + shift, ray.translation)) != base)
}

// ---------------------------------------------------------------------------------------
// The scenes.

/// The field of 1,000 bodies of `seed`, after `steps` steps of 1/60 s (moving bodies off
/// their broadphase boxes: the solver pushes overlapping bodies apart), and with one body
/// teleported if `teleport`.
fn field(seed: u64, steps: usize, teleport: bool) -> (TestWorld, Real) {
    let scene = query_field(1_000, seed);
    let (mut world, handles) = scene.build::<RTreeBroadphase, Discrete>().unwrap();
    for _ in 0..steps {
        world.step(1.0 / 60.0).unwrap();
    }
    if teleport {
        let h = handles[17];
        world
            .set_pose(h, Isometry::new(Vector::new(3.0, -4.0), 1.0))
            .unwrap();
        let body = world.body_mut(handles[29]).unwrap();
        body.set_pose(Isometry::new(Vector::new(-20.0, 11.0), 2.0))
            .unwrap();
    }
    (world, query_field_side(1_000))
}

/// The three states of each field the tests query.
const STATES: [(usize, bool); 3] = [(0, false), (3, false), (3, true)];

// ---------------------------------------------------------------------------------------
// Rays.

fn check_rays(seed: u64, rays: usize) {
    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    let mut hits = 0;
    for (k, &(steps, teleport)) in STATES.iter().enumerate() {
        let (world, side) = field(seed + k as u64, steps, teleport);
        for i in 0..rays / STATES.len() {
            let ray = random_ray(&mut rng, side, (0.02 * side, 0.6 * side));
            let interior = if i % 3 == 0 {
                Interior::Hollow
            } else {
                Interior::Solid
            };
            let rule = if i % 2 == 0 {
                Rule::everything()
            } else {
                Rule::random(&mut rng, &world)
            };
            hits += usize::from(check_ray(&world, &ray, interior, &rule, side));
        }
    }
    // The rays must mostly hit something, or the test would check little.
    eprintln!("rays: {hits} hits in {rays}");
    assert!(hits > rays / 3, "{hits} hits in {rays} rays");
}

/// Checks one ray; returns whether it hit.
fn check_ray(world: &TestWorld, ray: &Ray, interior: Interior, rule: &Rule, side: Real) -> bool {
    let mut expected: Vec<(Real, BodyHandle, Vector, Vec<Vector>)> = world
        .bodies()
        .filter(|(h, b)| rule.passes(*h, b))
        .filter_map(|(h, b)| {
            ray_hit(b.shape(), b.pose(), ray, interior).map(|(t, n, alt)| (t, h, n, alt))
        })
        .collect();
    expected.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let (nearest, all) = rule.with_filter(|filter| {
        (
            world.cast_ray(ray, interior, filter).unwrap(),
            world.cast_ray_all(ray, interior, filter).unwrap(),
        )
    });
    let grazing = |h: BodyHandle| {
        let b = world.body(h).unwrap();
        grazes(b.shape(), b.pose(), ray, interior, side)
    };
    let context = || format!("{ray:?} {interior:?} {rule:?}");
    // cast_ray_all: the same bodies, at the same fractions, nearest first, and cast_ray's
    // hit first.
    for w in all.windows(2) {
        assert!(
            (w[0].fraction, w[0].shape) <= (w[1].fraction, w[1].shape),
            "{}",
            context()
        );
    }
    assert_eq!(all.first(), nearest.as_ref(), "{}", context());
    for hit in &all {
        match expected.iter().find(|e| e.1 == hit.body) {
            Some(e) => assert!(
                (hit.fraction - e.0).abs() <= 1e-12,
                "{hit:?} vs {e:?}: {}",
                context()
            ),
            None => assert!(
                grazing(hit.body),
                "{hit:?} not in the oracle: {}",
                context()
            ),
        }
    }
    for e in &expected {
        assert!(
            all.iter().any(|h| h.body == e.1) || grazing(e.1),
            "{e:?} missed: {}",
            context()
        );
    }
    // cast_ray: the nearest.
    let first_solid = expected.iter().find(|e| !grazing(e.1));
    let Some(hit) = nearest else {
        assert!(
            first_solid.is_none(),
            "missed {first_solid:?}: {}",
            context()
        );
        return false;
    };
    let Some(mine) = expected.iter().find(|e| e.1 == hit.body) else {
        // A graze the oracle calls a miss: nothing solid may come before it.
        assert!(
            first_solid.is_none_or(|e| e.0 >= hit.fraction - 1e-12),
            "{}",
            context()
        );
        return true;
    };
    let best = expected[0].0;
    assert!(
        (hit.fraction - best).abs() <= 1e-12,
        "{hit:?} vs {:?}: {}",
        expected[0],
        context()
    );
    assert!(
        (mine.0 - best).abs() <= 1e-12,
        "{hit:?} is not the nearest: {}",
        context()
    );
    let normal_ok = (hit.normal - mine.2).norm() <= 1e-12
        || mine.3.iter().any(|n| (hit.normal - n).norm() <= 1e-12);
    assert!(normal_ok, "{hit:?} vs {mine:?}: {}", context());
    assert!((hit.distance - hit.fraction * ray.translation.norm()).abs() <= 1e-9);
    assert!((hit.point - ray.point_at(hit.fraction)).norm() <= 1e-9);
    true
}

#[test]
fn rays_hit_what_the_oracle_hits() {
    check_rays(1, 10_000);
}

// ---------------------------------------------------------------------------------------
// Translating casts.

fn check_translating_casts(seed: u64, casts: usize) {
    let mut rng = SplitMix64::new(seed ^ 0xca57);
    let mut hits = 0;
    for (k, &(steps, teleport)) in STATES.iter().enumerate() {
        let (world, side) = field(seed + 10 + k as u64, steps, teleport);
        for i in 0..casts / STATES.len() {
            let (shape, pose, translation) = random_cast(&mut rng, side, (0.02 * side, 0.3 * side));
            let target = if i % 4 == 0 { rng.range(0.0, 0.5) } else { 0.0 };
            let rule = if i % 2 == 0 {
                Rule::everything()
            } else {
                Rule::random(&mut rng, &world)
            };
            let options = ShapeCastOptions {
                target_distance: target,
                ..ShapeCastOptions::default()
            };
            let toi = ToiOptions::exact().with_target_separation(target).unwrap();
            let sweep = Sweep::translating(pose, translation).unwrap();
            let mut expected: Vec<(Real, BodyHandle, Toi)> = world
                .bodies()
                .filter(|(h, b)| rule.passes(*h, b))
                .filter_map(|(h, b)| {
                    let still = Sweep::stationary(*b.pose()).unwrap();
                    let answer = closed_form_toi(&shape, &sweep, b.shape(), &still, &toi).unwrap();
                    match answer {
                        Toi::Hit(hit) => Some((hit.fraction, h, answer)),
                        Toi::Overlapping => Some((0.0, h, answer)),
                        _ => None,
                    }
                })
                .collect();
            expected.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let got = rule.with_filter(|filter| {
                world
                    .cast_shape(&shape, &pose, &translation, &options, filter)
                    .unwrap()
            });
            let context = || format!("{shape:?} {pose:?} {translation:?} {target} {rule:?}");
            match (got, expected.first()) {
                (None, None) => {}
                (Some(hit), Some(&(best, _, _))) => {
                    hits += 1;
                    assert!(
                        (hit.fraction - best).abs() <= 1e-12,
                        "{hit:?} vs {:?}: {}",
                        expected[0],
                        context()
                    );
                    let mine = expected
                        .iter()
                        .find(|e| e.1 == hit.body)
                        .expect("a body of the oracle");
                    assert!(
                        (mine.0 - best).abs() <= 1e-12,
                        "{hit:?} is not the nearest: {}",
                        context()
                    );
                    match mine.2 {
                        Toi::Hit(h) => {
                            assert_eq!(hit.status, CastStatus::Hit);
                            assert!((hit.normal + h.normal).norm() <= 1e-12, "{hit:?} vs {h:?}");
                        }
                        _ => assert_eq!((hit.status, hit.fraction), (CastStatus::Overlapping, 0.0)),
                    }
                }
                (got, want) => panic!("{got:?} vs {want:?}: {}", context()),
            }
        }
    }
    eprintln!("translating: {hits} hits in {casts}");
    assert!(hits > casts / 4, "{hits} hits in {casts} casts");
}

#[test]
fn translating_casts_meet_what_the_closed_form_meets() {
    check_translating_casts(2, 10_000);
}

// ---------------------------------------------------------------------------------------
// Turning casts.

/// The largest distance from `center` to the shape (its bounding radius), from its core.
fn reach(shape: &Shape, center: &Point) -> Real {
    shape
        .core()
        .iter()
        .map(|v| (v - center).norm())
        .fold(0.0, Real::max)
        + shape.radius()
}

/// The dense-sampling oracle's first contact of a turning cast with one body, as the
/// time of impact defines it: shapes that start within the target (but not overlapping)
/// meet at 0 if they approach, which the oracle cannot tell from samples and lets pass, and
/// otherwise when they come closer than they started by the tolerance (a turning body can
/// part at one corner and strike with another).
fn turning_contact(
    shape: &Shape,
    sweep: &Sweep,
    other: &Shape,
    pose: &Isometry,
    target: Real,
    tolerance: Real,
    samples: usize,
) -> Option<Real> {
    let gap =
        |t: Real| impact_narrowphase::distance(shape, &sweep.pose_at(t), other, pose).distance;
    let start = gap(0.0);
    let within = if (-tolerance..=target + tolerance).contains(&start) {
        start - tolerance
    } else {
        target
    };
    first_contact_of(gap, within, 1.0, samples)
}

fn check_turning_casts(seed: u64, casts: usize, samples: usize) {
    let mut rng = SplitMix64::new(seed ^ 0x7u64);
    let mut hits = 0;
    for (k, &(steps, teleport)) in STATES.iter().enumerate() {
        let (world, side) = field(seed + 20 + k as u64, steps, teleport);
        for i in 0..casts / STATES.len() {
            let (shape, sweep) = random_sweep(&mut rng, side, (0.01 * side, 0.1 * side));
            let target = if i % 4 == 0 { rng.range(0.0, 0.3) } else { 0.0 };
            let rule = if i % 2 == 0 {
                Rule::everything()
            } else {
                Rule::random(&mut rng, &world)
            };
            let options = ShapeCastOptions {
                target_distance: target,
                ..ShapeCastOptions::default()
            };
            let got = rule
                .with_filter(|filter| world.cast_sweep(&shape, &sweep, &options, filter).unwrap());
            // Bodies within reach of the shape's bounding circle along its centre's path.
            let r = reach(&shape, &sweep.local_center());
            let (c0, c1) = (sweep.center_at(0.0), sweep.center_at(1.0));
            let oracle = world
                .bodies()
                .filter(|(h, b)| rule.passes(*h, b))
                .filter(|(_, b)| {
                    let p = Point::from(b.pose().translation.vector);
                    let e = c1 - c0;
                    let s = ((p - c0).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
                    (p - (c0 + e * s)).norm()
                        <= r + reach(b.shape(), &Point::origin()) + target + 1e-9
                })
                .filter_map(|(_, b)| {
                    turning_contact(
                        &shape,
                        &sweep,
                        b.shape(),
                        b.pose(),
                        target,
                        options.tolerance,
                        samples,
                    )
                })
                .fold(None, |m: Option<Real>, t| Some(m.map_or(t, |m| m.min(t))));
            let context = || format!("{shape:?} {sweep:?} {target} {rule:?}");
            match (got, oracle) {
                (None, Some(o)) => panic!("missed a contact at {o}: {}", context()),
                (Some(hit), o) => {
                    hits += 1;
                    if let Some(o) = o
                        && hit.fraction > o + 1e-9
                    {
                        panic!("{hit:?} later than the oracle's {o}: {}", context());
                    }
                    if hit.status == CastStatus::Hit && hit.fraction > 0.0 {
                        let body = world.body(hit.body).unwrap();
                        let d = impact_narrowphase::distance(
                            &shape,
                            &sweep.pose_at(hit.fraction),
                            body.shape(),
                            body.pose(),
                        );
                        let slack = 1e-9 * (1.0 + side);
                        assert!(
                            d.distance <= target + options.tolerance + slack,
                            "{hit:?} at distance {}: {}",
                            d.distance,
                            context()
                        );
                    }
                }
                (None, None) => {}
            }
        }
    }
    eprintln!("turning: {hits} hits in {casts}");
    assert!(hits > casts / 5, "{hits} hits in {casts} casts");
}

#[test]
fn turning_casts_are_never_later_than_dense_sampling() {
    check_turning_casts(3, 2_000, 1_000);
}

/// The full counts: 10,000 rays, 10,000 translating casts and 10,000 turning casts.
#[test]
#[ignore = "the full counts take minutes in a debug build; run in release"]
fn full_counts() {
    check_rays(101, 10_000);
    check_translating_casts(102, 10_000);
    check_turning_casts(103, 10_000, 2_000);
}
