//! Invariant, for any ray, cast, point, filter and input (NaN and infinities included): every
//! hit list comes nearest first and begins with the nearest-hit query's answer; a filter that
//! lets nothing through finds nothing; a predicate removes exactly the shapes it refuses and
//! is asked only about shapes that pass the rest of the filter; bad input is refused with an
//! error naming the field, and no query panics.

use impact_broadphase::RTreeBroadphase;
use impact_geometry::{Aabb, Isometry, Point, Real, Rotation, Shape, Sweep, Vector};
use impact_narrowphase::ray::Ray;
use impact_solver::{RigidBody, ShapeId};
use impact_stepper::{Discrete, Interior, QueryError, QueryFilter, ShapeCastOptions, World};
use impact_testkit::SplitMix64;
use impact_testkit::audit::random_shape;
use impact_testkit::queries::query_field;
use proptest::prelude::*;
use std::cell::RefCell;
use std::sync::LazyLock;

type TestWorld = World<RTreeBroadphase, Discrete>;

/// A field of 300 mixed bodies (about 52 units across, centred on the origin), stepped
/// twice so that some bodies have left their broadphase boxes.
static WORLD: LazyLock<TestWorld> = LazyLock::new(|| {
    let (mut world, _) = query_field(300, 21)
        .build::<RTreeBroadphase, Discrete>()
        .unwrap();
    world.step(1.0 / 60.0).unwrap();
    world.step(1.0 / 60.0).unwrap();
    world
});

fn coordinate() -> impl Strategy<Value = Real> {
    -35.0..35.0f64
}

fn ray() -> impl Strategy<Value = Ray> {
    (coordinate(), coordinate(), coordinate(), coordinate())
        .prop_filter("a ray goes somewhere", |(_, _, dx, dy)| {
            *dx != 0.0 || *dy != 0.0
        })
        .prop_map(|(x, y, dx, dy)| Ray::new(Point::new(x, y), Vector::new(dx, dy)))
}

fn interior() -> impl Strategy<Value = Interior> {
    prop_oneof![Just(Interior::Solid), Just(Interior::Hollow)]
}

/// A shape (from a seed) and a turning sweep across the field.
fn sweep() -> impl Strategy<Value = (Shape, Sweep)> {
    (
        any::<u64>(),
        coordinate(),
        coordinate(),
        -20.0..20.0f64,
        -20.0..20.0f64,
        -9.0..9.0f64,
    )
        .prop_map(|(seed, x, y, dx, dy, turn)| {
            let shape = random_shape(&mut SplitMix64::new(seed));
            let sweep = Sweep::new(
                Isometry::translation(x, y),
                Point::origin(),
                Vector::new(dx, dy),
                turn,
                1.0,
            )
            .unwrap();
            (shape, sweep)
        })
}

/// The ways of letting nothing through.
fn nothing<'a>(which: usize, refuse: &'a dyn Fn(ShapeId, &RigidBody) -> bool) -> QueryFilter<'a> {
    match which {
        0 => QueryFilter::new()
            .exclude_fixed()
            .exclude_kinematic()
            .exclude_dynamic(),
        // The field's categories are bits 0 to 3.
        1 => QueryFilter::new().mask_bits(!0b1111),
        _ => QueryFilter::new().predicate(refuse),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn hit_lists_are_nearest_first_and_begin_with_the_nearest_hit(
        ray in ray(),
        interior in interior(),
        (shape, sweep) in sweep(),
    ) {
        let world = &*WORLD;
        let filter = QueryFilter::new().include_sensors(true);
        let all = world.cast_ray_all(&ray, interior, &filter).unwrap();
        for w in all.windows(2) {
            prop_assert!((w[0].fraction, w[0].shape) < (w[1].fraction, w[1].shape), "{:?}", w);
        }
        let nearest = world.cast_ray(&ray, interior, &filter).unwrap();
        prop_assert_eq!(all.first(), nearest.as_ref());
        let options = ShapeCastOptions::default();
        let mut hits = Vec::new();
        world.cast_sweep_with(&shape, &sweep, &options, &filter, &mut |hit| {
            hits.push(*hit);
            1.0
        }).unwrap();
        for w in hits.windows(2) {
            prop_assert!((w[0].fraction, w[0].shape) < (w[1].fraction, w[1].shape), "{:?}", w);
        }
        let first = world.cast_sweep(&shape, &sweep, &options, &filter).unwrap();
        prop_assert_eq!(hits.first(), first.as_ref());
    }

    #[test]
    fn a_filter_that_lets_nothing_through_finds_nothing(
        ray in ray(),
        interior in interior(),
        (shape, sweep) in sweep(),
        which in 0..3usize,
    ) {
        let world = &*WORLD;
        let refuse = |_: ShapeId, _: &RigidBody| false;
        let filter = nothing(which, &refuse);
        prop_assert!(world.cast_ray(&ray, interior, &filter).unwrap().is_none());
        prop_assert!(world.cast_ray_all(&ray, interior, &filter).unwrap().is_empty());
        let options = ShapeCastOptions::default();
        prop_assert!(world.cast_sweep(&shape, &sweep, &options, &filter).unwrap().is_none());
        let start = sweep.start();
        prop_assert!(world.intersections_with_shape(&shape, &start, &filter).unwrap().is_empty());
        prop_assert!(world.intersections_with_point(&ray.origin, &filter).unwrap().is_empty());
        let around = Aabb::new(ray.origin, ray.origin + Vector::new(5.0, 5.0));
        prop_assert!(world.intersections_with_aabb(&around, &filter).unwrap().is_empty());
        prop_assert!(world.project_point(&ray.origin, Real::INFINITY, &filter).unwrap().is_none());
    }

    #[test]
    fn a_predicate_removes_exactly_what_it_refuses(
        ray in ray(),
        interior in interior(),
        (shape, sweep) in sweep(),
        modulus in 2..5u32,
        remainder in 0..5u32,
    ) {
        let world = &*WORLD;
        let keep = |s: ShapeId| s.body.index % modulus != remainder % modulus;
        let asked = RefCell::new(Vec::new());
        let predicate = |s: ShapeId, body: &RigidBody| {
            asked.borrow_mut().push((s, body.is_sensor()));
            keep(s)
        };
        let base = QueryFilter::new();
        let with = base.predicate(&predicate);

        let every = world.cast_ray_all(&ray, interior, &base).unwrap();
        let kept: Vec<_> = every.iter().copied().filter(|h| keep(h.shape)).collect();
        prop_assert_eq!(&world.cast_ray_all(&ray, interior, &with).unwrap(), &kept);
        let nearest = world.cast_ray(&ray, interior, &with).unwrap();
        prop_assert_eq!(nearest.as_ref(), kept.first());

        let start = sweep.start();
        let touching = world.intersections_with_shape(&shape, &start, &base).unwrap();
        let kept: Vec<_> = touching.iter().copied().filter(|s| keep(*s)).collect();
        prop_assert_eq!(world.intersections_with_shape(&shape, &start, &with).unwrap(), kept);

        let options = ShapeCastOptions::default();
        let mut every = Vec::new();
        world.cast_sweep_with(&shape, &sweep, &options, &base, &mut |h| { every.push(*h); 1.0 }).unwrap();
        let kept: Vec<_> = every.iter().copied().filter(|h| keep(h.shape)).collect();
        let first = world.cast_sweep(&shape, &sweep, &options, &with).unwrap();
        prop_assert_eq!(first.as_ref(), kept.first());

        // Sensors are left out before the predicate is asked.
        prop_assert!(asked.borrow().iter().all(|&(_, sensor)| !sensor));
    }

    #[test]
    fn bad_input_is_refused_naming_the_field(
        x in any::<f64>(),
        y in any::<f64>(),
        dx in any::<f64>(),
        dy in any::<f64>(),
        max in any::<f64>(),
        angle in any::<f64>(),
        target in any::<f64>(),
    ) {
        let world = &*WORLD;
        let all = QueryFilter::new();
        let origin = Point::new(x, y);
        let translation = Vector::new(dx, dy);
        let ray = Ray::new(origin, translation);
        let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
        let field = |e: QueryError| match e {
            QueryError::NotFinite { field, .. }
            | QueryError::Negative { field, .. }
            | QueryError::Zero { field }
            | QueryError::OutOfRange { field, .. } => field,
            other => panic!("unexpected {other:?}"),
        };
        match world.cast_ray(&ray, Interior::Solid, &all) {
            Ok(_) => prop_assert!(finite(&[x, y, dx, dy]) && (dx != 0.0 || dy != 0.0)),
            Err(e) => {
                let f = field(e);
                if !finite(&[x, y]) {
                    prop_assert!(f.starts_with("ray.origin."), "{}", f);
                } else {
                    prop_assert!(f.starts_with("ray.translation"), "{}", f);
                }
            }
        }
        match world.project_point(&origin, max, &all) {
            Ok(_) => prop_assert!(finite(&[x, y]) && max >= 0.0),
            Err(e) => {
                let f = field(e);
                prop_assert!(f.starts_with("point.") || (finite(&[x, y]) && f == "max_distance"), "{}", f);
            }
        }
        let shape: Shape = impact_geometry::Circle::new(0.5).unwrap().into();
        let pose = Isometry::from_parts(origin.coords.into(), Rotation::new(if angle.is_finite() { angle } else { 0.0 }));
        let options = ShapeCastOptions { target_distance: target, ..ShapeCastOptions::default() };
        match world.cast_shape(&shape, &pose, &translation, &options, &all) {
            Ok(_) => prop_assert!(finite(&[x, y, dx, dy, target]) && target >= 0.0),
            Err(e) => {
                let f = field(e);
                prop_assert!(
                    f.starts_with("pose.") || f.starts_with("translation") || f == "options.target_distance",
                    "{}", f
                );
            }
        }
        prop_assert!(world.intersections_with_point(&origin, &all).is_ok() == finite(&[x, y]));
        let zero = QueryFilter::new().mask_bits(0);
        prop_assert_eq!(
            field(world.intersections_with_point(&Point::origin(), &zero).unwrap_err()),
            "filter.mask_bits"
        );
        let zero = QueryFilter::new().category_bits(0);
        prop_assert_eq!(
            field(world.cast_ray(&Ray::new(Point::origin(), Vector::new(1.0, 0.0)), Interior::Solid, &zero).unwrap_err()),
            "filter.category_bits"
        );
    }
}

#[test]
fn the_messages_name_the_field_and_the_value() {
    let world = &*WORLD;
    let all = QueryFilter::new();
    let nan = Ray::new(Point::new(Real::NAN, 0.0), Vector::new(1.0, 0.0));
    let e = world.cast_ray(&nan, Interior::Solid, &all).unwrap_err();
    assert_eq!(e.to_string(), "ray.origin.x: must be finite, got NaN");
    let still = Ray::new(Point::origin(), Vector::zeros());
    let e = world.cast_ray(&still, Interior::Solid, &all).unwrap_err();
    assert_eq!(e.to_string(), "ray.translation: must not be zero");
    let e = world
        .project_point(&Point::origin(), -1.0, &all)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "max_distance: must be zero or positive, got -1"
    );
    let e = world
        .project_point(&Point::origin(), Real::NAN, &all)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "max_distance: must be zero or more (infinity for no limit), got NaN"
    );
    let e = world
        .intersections_with_aabb(&Aabb::new(Point::new(1.0, 0.0), Point::new(0.0, 1.0)), &all)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "aabb.maxs.x: must be at least the same coordinate of mins, got 0"
    );
    let e = world
        .intersections_with_point(&Point::origin(), &QueryFilter::new().mask_bits(0))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "filter.mask_bits: must be at least one bit (a query with none can pass no shape), got 0"
    );
    let far = Ray::new(Point::new(1e300, 0.0), Vector::new(1e300, 0.0));
    let e = world.cast_ray(&far, Interior::Solid, &all).unwrap_err();
    assert_eq!(
        e.to_string(),
        "ray.translation.length: must be finite, got inf"
    );
    let options = ShapeCastOptions {
        max_iterations: 0,
        ..ShapeCastOptions::default()
    };
    let disc: Shape = impact_geometry::Circle::new(1.0).unwrap().into();
    let e = world
        .cast_shape(
            &disc,
            &Isometry::identity(),
            &Vector::new(1.0, 0.0),
            &options,
            &all,
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "options.max_iterations: must be at least 1, got 0"
    );
}
