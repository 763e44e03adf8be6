//! Invariant: scene queries test every shape of a body of several shapes on its own, by that
//! shape's filter and sensor flag, and name the shape they hit (`ShapeId { body, index }`).
//!
//! - Against a brute force over every shape of every body (each shape's own hit by the
//!   narrowphase's kernels, the query filter's rule written out on the shape's filter):
//!   `cast_ray_all` is the oracle's hits sorted by fraction then shape, `cast_ray` its
//!   first; `cast_shape` the least time of impact (within 1e-12, the same shape unless
//!   tied); `intersections_with_point`, `_aabb` and `_shape` the shapes at distance at most
//!   0; `project_point` the least signed distance. On fields of bodies of one to three
//!   shapes (`impact_testkit::queries::compound_field`), as created and after steps and a
//!   teleport that move bodies off their broadphase boxes.
//! - A bare broadphase of one box per body (`QueryView::new`) answers as the world's view
//!   of one proxy per shape.
//! - An L of two boxes with a sensor shape beside it: each hit names its shape's index, the
//!   sensor shape is seen only with `include_sensors`, and a shape's own filter decides.

use impact_broadphase::{Broadphase, BruteForce, ProxyId, RTreeBroadphase};
use impact_geometry::{Aabb, Circle, ConvexPolygon, Isometry, Point, Real, Shape, Sweep, Vector};
use impact_narrowphase::ray::{Ray, cast_ray};
use impact_narrowphase::{Toi, ToiOptions, distance, time_of_impact};
use impact_solver::{
    BodyHandle, BodyShape, CollisionFilter, RigidBody, RigidBodyDef, ShapeDef, ShapeId,
};
use impact_stepper::{
    Discrete, Interior, QueryFilter, QueryView, ShapeCastOptions, World, WorldSettings,
};
use impact_testkit::SplitMix64;
use impact_testkit::audit::random_shape;
use impact_testkit::queries::{compound_field, query_field_side, random_cast, random_ray};
use proptest::prelude::*;

type TestWorld = World<RTreeBroadphase, Discrete>;

const BODIES: usize = 80;

/// A compound field of seed `seed`, stepped `steps` times and one body teleported, so that
/// shapes have left their broadphase boxes.
fn field(seed: u64, steps: usize) -> TestWorld {
    let (mut world, handles) = compound_field(BODIES, seed)
        .build::<RTreeBroadphase, Discrete>()
        .unwrap();
    for _ in 0..steps {
        world.step(1.0 / 60.0).unwrap();
    }
    if steps > 0 {
        let h = handles[seed as usize % handles.len()];
        world
            .body_mut(h)
            .unwrap()
            .set_pose(Isometry::new(Vector::new(1.0, -2.0), 0.7))
            .unwrap();
    }
    world
}

/// A query filter's settings, with its rule written out on each shape.
#[derive(Debug, Clone)]
struct Rule {
    category: u64,
    mask: u64,
    sensors: bool,
    exclude: Vec<BodyHandle>,
}

impl Rule {
    fn random(rng: &mut SplitMix64, world: &TestWorld) -> Self {
        let handles: Vec<BodyHandle> = world.bodies().map(|(h, _)| h).collect();
        let bits = |rng: &mut SplitMix64| {
            if rng.below(3) == 0 {
                u64::MAX
            } else {
                1 + rng.below(15) as u64
            }
        };
        Self {
            category: bits(rng),
            mask: bits(rng),
            sensors: rng.below(2) == 0,
            exclude: (0..rng.below(3))
                .map(|_| handles[rng.below(handles.len())])
                .collect(),
        }
    }

    fn filter(&self) -> QueryFilter<'_> {
        QueryFilter::new()
            .category_bits(self.category)
            .mask_bits(self.mask)
            .include_sensors(self.sensors)
            .exclude_bodies(&self.exclude)
    }

    fn passes(&self, id: ShapeId, shape: &BodyShape) -> bool {
        let f = shape.filter();
        f.category_bits & self.mask != 0
            && f.mask_bits & self.category != 0
            && (self.sensors || !shape.is_sensor())
            && !self.exclude.contains(&id.body)
    }
}

/// Every shape of the world that `rule` passes, with its body.
fn shapes<'w>(world: &'w TestWorld, rule: &Rule) -> Vec<(ShapeId, &'w RigidBody, &'w BodyShape)> {
    let mut out = Vec::new();
    for (handle, body) in world.bodies() {
        for (k, shape) in body.shapes().iter().enumerate() {
            let id = ShapeId {
                body: handle,
                index: k as u32,
            };
            if rule.passes(id, shape) {
                out.push((id, body, shape));
            }
        }
    }
    out
}

/// One box per body, proxies named by slot: the bare form of the same scene.
fn bare(world: &TestWorld) -> BruteForce {
    let mut bp = BruteForce::new();
    for (h, b) in world.bodies() {
        bp.insert(ProxyId(h.index), b.aabb()).unwrap();
    }
    bp
}

fn interior(rng: &mut SplitMix64) -> Interior {
    if rng.below(2) == 0 {
        Interior::Solid
    } else {
        Interior::Hollow
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn rays_hit_the_shapes_a_brute_force_hits(seed in 0u64..10_000, steps in 0usize..3) {
        let world = field(seed, steps);
        let bp = bare(&world);
        let view = QueryView::new(&bp, world.body_set());
        let side = query_field_side(BODIES);
        let mut rng = SplitMix64::new(seed ^ 0x5eed);
        let mut further = 0;
        for _ in 0..40 {
            let ray = random_ray(&mut rng, side, (1.0, side));
            let rule = Rule::random(&mut rng, &world);
            let inside = interior(&mut rng);
            let solid = inside == Interior::Solid;
            let mut oracle: Vec<(Real, ShapeId)> = shapes(&world, &rule)
                .into_iter()
                .filter_map(|(id, body, shape)| {
                    cast_ray(shape.shape(), body.pose(), &ray, 1.0, solid).map(|hit| (hit.fraction, id))
                })
                .collect();
            oracle.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let filter = rule.filter();
            let all = world.cast_ray_all(&ray, inside, &filter).unwrap();
            let got: Vec<(Real, ShapeId)> = all.iter().map(|h| (h.fraction, h.shape)).collect();
            prop_assert_eq!(&got, &oracle);
            for hit in &all {
                prop_assert_eq!(hit.body, hit.shape.body);
            }
            let nearest = world.cast_ray(&ray, inside, &filter).unwrap();
            prop_assert_eq!(nearest.map(|h| (h.fraction, h.shape)), oracle.first().copied());
            prop_assert_eq!(&view.cast_ray_all(&ray, inside, &filter).unwrap(), &all);
            further += all.iter().filter(|h| h.shape.index > 0).count();
        }
        // Forty rays across a field of eighty bodies meet further shapes, not only first ones.
        prop_assert!(further > 0);
    }

    #[test]
    fn casts_meet_the_shape_a_brute_force_meets_first(seed in 0u64..10_000, steps in 0usize..3) {
        let world = field(seed, steps);
        let bp = bare(&world);
        let view = QueryView::new(&bp, world.body_set());
        let side = query_field_side(BODIES);
        let mut rng = SplitMix64::new(seed ^ 0xca57);
        let mut met = 0;
        for _ in 0..25 {
            let (shape, pose, translation) = random_cast(&mut rng, side, (1.0, 0.5 * side));
            let rule = Rule::random(&mut rng, &world);
            let sweep = Sweep::translating(pose, translation).unwrap();
            let oracle = shapes(&world, &rule)
                .into_iter()
                .filter_map(|(id, body, s)| {
                    let still = Sweep::stationary(*body.pose()).unwrap();
                    match time_of_impact(&shape, &sweep, s.shape(), &still, &ToiOptions::exact()) {
                        Toi::Hit(hit) => Some((hit.fraction, id)),
                        Toi::Overlapping => Some((0.0, id)),
                        Toi::NotConverged { safe_fraction } => Some((safe_fraction, id)),
                        Toi::Separated => None,
                    }
                })
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let filter = rule.filter();
            let options = ShapeCastOptions::default();
            let got = world.cast_shape(&shape, &pose, &translation, &options, &filter).unwrap();
            match (got, oracle) {
                (None, None) => {}
                (Some(hit), Some((fraction, id))) => {
                    met += 1;
                    prop_assert!((hit.fraction - fraction).abs() <= 1e-12, "{hit:?} {fraction}");
                    if hit.shape != id {
                        // Another shape as near: a tie within rounding.
                        let (_, body, s) = shapes(&world, &rule)
                            .into_iter()
                            .find(|(x, _, _)| *x == hit.shape)
                            .unwrap();
                        let still = Sweep::stationary(*body.pose()).unwrap();
                        let own = time_of_impact(&shape, &sweep, s.shape(), &still, &ToiOptions::exact());
                        prop_assert!(own.safe_fraction().is_some_and(|t| (t - fraction).abs() <= 1e-12));
                    }
                }
                (got, oracle) => prop_assert!(false, "query {got:?}, oracle {oracle:?}"),
            }
            prop_assert_eq!(
                view.cast_shape(&shape, &pose, &translation, &options, &filter).unwrap(),
                got
            );
        }
        prop_assert!(met > 0);
    }

    #[test]
    fn overlaps_and_projections_match_a_brute_force(seed in 0u64..10_000, steps in 0usize..3) {
        let world = field(seed, steps);
        let bp = bare(&world);
        let view = QueryView::new(&bp, world.body_set());
        let side = query_field_side(BODIES);
        let mut rng = SplitMix64::new(seed ^ 0x0e7a);
        let point_shape: Shape = Circle::new(0.0).unwrap().into();
        let mut found = 0;
        for _ in 0..25 {
            let rule = Rule::random(&mut rng, &world);
            let filter = rule.filter();
            let half = 0.55 * side;
            let p = Point::new(rng.range(-half, half), rng.range(-half, half));
            let at = Isometry::translation(p.x, p.y);
            let within = |s: &Shape, pose: &Isometry| -> Vec<ShapeId> {
                shapes(&world, &rule)
                    .into_iter()
                    .filter(|(_, body, shape)| distance(shape.shape(), body.pose(), s, pose).distance <= 0.0)
                    .map(|(id, _, _)| id)
                    .collect()
            };
            // A point.
            let holds = world.intersections_with_point(&p, &filter).unwrap();
            prop_assert_eq!(&holds, &within(&point_shape, &at));
            prop_assert_eq!(view.intersections_with_point(&p, &filter).unwrap(), holds);
            // A box.
            let h = Vector::new(rng.range(0.1, 3.0), rng.range(0.1, 3.0));
            let aabb = Aabb::new(p - h, p + h);
            let rectangle: Shape = ConvexPolygon::rectangle(h.x, h.y).unwrap().into();
            let in_box = world.intersections_with_aabb(&aabb, &filter).unwrap();
            prop_assert_eq!(&in_box, &within(&rectangle, &at));
            prop_assert_eq!(&view.intersections_with_aabb(&aabb, &filter).unwrap(), &in_box);
            // A placed shape.
            let probe = random_shape(&mut rng);
            let pose = Isometry::new(p.coords, rng.range(-3.2, 3.2));
            let met = world.intersections_with_shape(&probe, &pose, &filter).unwrap();
            prop_assert_eq!(&met, &within(&probe, &pose));
            prop_assert_eq!(view.intersections_with_shape(&probe, &pose, &filter).unwrap(), met);
            found += in_box.len();
            // The nearest shape.
            let reach = rng.range(0.5, 10.0);
            let oracle = shapes(&world, &rule)
                .into_iter()
                .map(|(id, body, shape)| (distance(shape.shape(), body.pose(), &point_shape, &at).distance, id))
                .filter(|(d, _)| *d <= reach)
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let got = world.project_point(&p, reach, &filter).unwrap();
            prop_assert_eq!(got.map(|g| (g.distance, g.shape)), oracle);
            prop_assert_eq!(view.project_point(&p, reach, &filter).unwrap(), got);
        }
        prop_assert!(found > 0);
    }
}

/// A foot `[0, 3] x [0, 1]` and a leg `[0, 1] x [1, 3]`, with a sensor box `[4, 5] x [0, 1]`
/// as a third shape, at `x`.
fn l_with_a_sensor(x: Real) -> RigidBodyDef {
    let rect = |x0: Real, y0: Real, x1: Real, y1: Real| -> Shape {
        ConvexPolygon::new(&[
            Point::new(x0, y0),
            Point::new(x1, y0),
            Point::new(x1, y1),
            Point::new(x0, y1),
        ])
        .unwrap()
        .into()
    };
    RigidBodyDef::fixed(rect(0.0, 0.0, 3.0, 1.0))
        .with_shape(ShapeDef::new(rect(0.0, 1.0, 1.0, 3.0)))
        .with_shape(ShapeDef::new(rect(4.0, 0.0, 5.0, 1.0)).sensor(true))
        .pose(Isometry::translation(x, 0.0))
}

#[test]
fn hits_name_the_shape_of_the_body_they_hit() {
    let mut world: World = World::new(WorldSettings::with_gravity(Vector::zeros())).unwrap();
    let l = world.create_body(l_with_a_sensor(10.0)).unwrap();
    let shape = |index| ShapeId { body: l, index };
    let all = QueryFilter::new();
    // From the left at leg height: the leg, shape 1, at x = 10.
    let ray = Ray::new(Point::new(0.0, 2.0), Vector::new(20.0, 0.0));
    let hit = world
        .cast_ray(&ray, Interior::Solid, &all)
        .unwrap()
        .unwrap();
    assert_eq!((hit.shape, hit.body, hit.point.x), (shape(1), l, 10.0));
    // From the right at foot height: the sensor is passed over, the foot (shape 0) is hit at
    // x = 13; with sensors, the sensor box first, at x = 15.
    let back = Ray::new(Point::new(20.0, 0.5), Vector::new(-20.0, 0.0));
    let hit = world
        .cast_ray(&back, Interior::Solid, &all)
        .unwrap()
        .unwrap();
    assert_eq!((hit.shape, hit.point.x), (shape(0), 13.0));
    let sensors = QueryFilter::new().include_sensors(true);
    let hits = world
        .cast_ray_all(&back, Interior::Solid, &sensors)
        .unwrap();
    let named: Vec<(ShapeId, Real)> = hits.iter().map(|h| (h.shape, h.point.x)).collect();
    assert_eq!(named, [(shape(2), 15.0), (shape(0), 13.0)]);
    // Overlaps and projections name shapes too.
    assert_eq!(
        world
            .intersections_with_point(&Point::new(10.5, 0.5), &all)
            .unwrap(),
        [shape(0)]
    );
    assert_eq!(
        world
            .intersections_with_aabb(
                &Aabb::new(Point::new(10.2, 0.2), Point::new(14.5, 2.5)),
                &sensors
            )
            .unwrap(),
        [shape(0), shape(1), shape(2)]
    );
    let near = world
        .project_point(&Point::new(10.5, 3.5), 5.0, &all)
        .unwrap()
        .unwrap();
    assert_eq!((near.shape, near.distance), (shape(1), 0.5));
    // A box cast down onto the foot's right end meets shape 0; one onto the leg, shape 1.
    let probe: Shape = ConvexPolygon::rectangle(0.25, 0.25).unwrap().into();
    let options = ShapeCastOptions::default();
    let down = Vector::new(0.0, -10.0);
    let on_foot = world
        .cast_shape(
            &probe,
            &Isometry::translation(12.5, 6.0),
            &down,
            &options,
            &all,
        )
        .unwrap()
        .unwrap();
    assert_eq!((on_foot.shape, on_foot.point.y), (shape(0), 1.0));
    let on_leg = world
        .cast_shape(
            &probe,
            &Isometry::translation(10.5, 6.0),
            &down,
            &options,
            &all,
        )
        .unwrap()
        .unwrap();
    assert_eq!((on_leg.shape, on_leg.point.y), (shape(1), 3.0));
    // Each shape's own filter: with the leg in category 2, a query that accepts category 1
    // only passes it over, and the ray at leg height meets nothing else.
    world
        .body_mut(l)
        .unwrap()
        .set_shape_filter(1, CollisionFilter::new(2, u64::MAX))
        .unwrap();
    let ones = QueryFilter::new().mask_bits(1);
    assert!(
        world
            .cast_ray(&ray, Interior::Solid, &ones)
            .unwrap()
            .is_none()
    );
    assert_eq!(
        world
            .cast_ray(&ray, Interior::Solid, &all)
            .unwrap()
            .unwrap()
            .shape,
        shape(1)
    );
    // Leaving out static bodies leaves out every shape of the body.
    assert!(
        world
            .cast_ray(
                &back,
                Interior::Solid,
                &QueryFilter::new().include_sensors(true).exclude_fixed()
            )
            .unwrap()
            .is_none()
    );
}
