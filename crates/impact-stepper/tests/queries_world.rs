//! Invariant: a world's scene queries see every body where it is now (from its creation,
//! after steps that move it off its broadphase box, after a teleport by either door), honour
//! each part of the filter, answer solid and hollow rays, overlaps at the start of a cast
//! and ignored overlaps as documented, answer the same bits whatever the broadphase, and
//! refuse a periodic domain naming it. Overlap queries match a brute force over every body.

use impact_broadphase::{BruteForce, RTreeBroadphase, SortAndSweep};
use impact_geometry::{
    Aabb, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Sweep, Vector,
};
use impact_narrowphase::distance;
use impact_narrowphase::ray::Ray;
use impact_solver::{BodyHandle, RigidBodyDef, ShapeId};
use impact_stepper::{
    CastStatus, Discrete, Domain, FirstTimeOfImpact, Interior, QueryError, QueryFilter, QueryView,
    ShapeCastOptions, World, WorldSettings,
};
use impact_testkit::SplitMix64;
use impact_testkit::queries::{query_field, query_field_side};

fn no_gravity() -> WorldSettings {
    WorldSettings::with_gravity(Vector::zeros())
}

fn disc_at(x: Real, y: Real, r: Real) -> RigidBodyDef {
    RigidBodyDef::fixed(Circle::new(r).unwrap().into()).pose(Isometry::translation(x, y))
}

fn along_x(from: Real, length: Real) -> Ray {
    Ray::new(Point::new(from, 0.0), Vector::new(length, 0.0))
}

fn all() -> QueryFilter<'static> {
    QueryFilter::new()
}

#[test]
fn a_body_is_seen_from_its_creation_and_where_it_was_moved() {
    let mut world: World = World::new(no_gravity()).unwrap();
    let a = world.create_body(disc_at(5.0, 0.0, 1.0)).unwrap();
    let hit = world
        .cast_ray(&along_x(0.0, 10.0), Interior::Solid, &all())
        .unwrap()
        .unwrap();
    assert_eq!((hit.body, hit.distance), (a, 4.0));

    // A teleport through the world: the old place is empty, the new one is hit.
    world.set_pose(a, Isometry::translation(5.0, 20.0)).unwrap();
    assert!(
        world
            .cast_ray(&along_x(0.0, 10.0), Interior::Solid, &all())
            .unwrap()
            .is_none()
    );
    let up = Ray::new(Point::new(5.0, 0.0), Vector::new(0.0, 30.0));
    assert_eq!(
        world
            .cast_ray(&up, Interior::Solid, &all())
            .unwrap()
            .unwrap()
            .distance,
        19.0
    );

    // A teleport through the body itself, which the broadphase learns of only at the next
    // step: queries see it at once.
    world
        .body_mut(a)
        .unwrap()
        .set_pose(Isometry::translation(-5.0, 0.0))
        .unwrap();
    assert!(
        world
            .cast_ray(&up, Interior::Solid, &all())
            .unwrap()
            .is_none()
    );
    let left = along_x(0.0, -10.0);
    assert_eq!(
        world
            .cast_ray(&left, Interior::Solid, &all())
            .unwrap()
            .unwrap()
            .distance,
        4.0
    );
    let inside = world
        .intersections_with_point(&Point::new(-5.5, 0.0), &all())
        .unwrap();
    assert_eq!(inside, [ShapeId::first_of(a)]);
}

#[test]
fn a_bullet_that_bounced_inside_the_step_is_found_where_it_ended() {
    let mut world: World<RTreeBroadphase, FirstTimeOfImpact> = World::new(no_gravity()).unwrap();
    let wall = world
        .create_body(RigidBodyDef::fixed(
            Segment::new(Point::new(1.0, -1.0), Point::new(1.0, 1.0))
                .unwrap()
                .into(),
        ))
        .unwrap();
    let bullet = world
        .create_body(
            RigidBodyDef::new(Circle::new(0.05).unwrap().into())
                .linvel(Vector::new(600.0, 0.0))
                .restitution(1.0)
                .ccd(true),
        )
        .unwrap();
    world.step(1.0 / 60.0).unwrap();
    // It met the wall and flew back: its box over the step was swept forward, toward the
    // wall, and it is now well behind where it started.
    let x = world.body(bullet).unwrap().pose().translation.x;
    assert!(x < -5.0, "{x}");
    assert_eq!(
        world.query_view().unwrap().unindexed_shapes(),
        [ShapeId::first_of(bullet)],
        "the bullet left its box"
    );
    let hits = world
        .cast_ray_all(
            &Ray::new(Point::new(x - 1.0, 0.0), Vector::new(20.0, 0.0)),
            Interior::Solid,
            &all(),
        )
        .unwrap();
    let bodies: Vec<BodyHandle> = hits.iter().map(|h| h.body).collect();
    assert_eq!(bodies, [bullet, wall]);
    assert!((hits[0].distance - 0.95).abs() < 1e-12, "{hits:?}");
}

#[test]
fn every_part_of_the_filter_is_honoured() {
    let mut world: World = World::new(no_gravity()).unwrap();
    let fixed = world.create_body(disc_at(2.0, 0.0, 0.5)).unwrap();
    let sensor = world
        .create_body(disc_at(4.0, 0.0, 0.5).sensor(true))
        .unwrap();
    let kinematic = world
        .create_body(
            RigidBodyDef::kinematic(Circle::new(0.5).unwrap().into())
                .pose(Isometry::translation(6.0, 0.0)),
        )
        .unwrap();
    let dynamic = world
        .create_body(
            RigidBodyDef::new(Circle::new(0.5).unwrap().into())
                .pose(Isometry::translation(8.0, 0.0))
                .filter(impact_solver::CollisionFilter::new(2, !1)),
        )
        .unwrap();
    let ray = along_x(0.0, 10.0);
    let seen = |filter: &QueryFilter<'_>| -> Vec<BodyHandle> {
        world
            .cast_ray_all(&ray, Interior::Solid, filter)
            .unwrap()
            .iter()
            .map(|h| h.body)
            .collect()
    };
    // The dynamic body's mask leaves out category 1, the default query's.
    assert_eq!(seen(&all()), [fixed, kinematic]);
    assert_eq!(seen(&all().category_bits(2)), [fixed, kinematic, dynamic]);
    assert_eq!(seen(&all().category_bits(3).mask_bits(2)), [dynamic]);
    assert_eq!(
        seen(&all().include_sensors(true)),
        [fixed, sensor, kinematic]
    );
    assert_eq!(
        seen(&all().category_bits(2).exclude_fixed()),
        [kinematic, dynamic]
    );
    assert_eq!(
        seen(&all().category_bits(2).exclude_kinematic()),
        [fixed, dynamic]
    );
    assert_eq!(
        seen(&all().category_bits(2).exclude_dynamic()),
        [fixed, kinematic]
    );
    let out = [kinematic];
    assert_eq!(seen(&all().exclude_bodies(&out)), [fixed]);
    let far =
        |s: ShapeId, b: &impact_solver::RigidBody| b.pose().translation.x > 3.0 && s.index == 0;
    assert_eq!(
        seen(&all().category_bits(2).include_sensors(true).predicate(&far)),
        [sensor, kinematic, dynamic]
    );
}

#[test]
fn solid_and_hollow_rays_from_inside() {
    let mut world: World = World::new(no_gravity()).unwrap();
    let near = world.create_body(disc_at(0.0, 0.0, 1.0)).unwrap();
    let far = world.create_body(disc_at(3.0, 0.0, 1.0)).unwrap();
    let ray = along_x(0.0, 10.0);
    let solid = world
        .cast_ray(&ray, Interior::Solid, &all())
        .unwrap()
        .unwrap();
    assert_eq!(
        (solid.body, solid.fraction, solid.normal),
        (near, 0.0, Vector::new(-1.0, 0.0))
    );
    let hollow = world.cast_ray_all(&ray, Interior::Hollow, &all()).unwrap();
    let got: Vec<(BodyHandle, Real, Vector)> = hollow
        .iter()
        .map(|h| (h.body, h.distance, h.normal))
        .collect();
    // Out of the near disc through its inside (normal facing the ray), into the far one.
    assert_eq!(
        got,
        [
            (near, 1.0, Vector::new(-1.0, 0.0)),
            (far, 2.0, Vector::new(-1.0, 0.0))
        ]
    );
}

#[test]
fn callbacks_clip_and_stop_the_ray() {
    let mut world: World = World::new(no_gravity()).unwrap();
    let mut discs = Vec::new();
    for x in [2.0, 4.0, 4.0, 6.0] {
        discs.push(world.create_body(disc_at(x, 0.0, 0.5)).unwrap());
    }
    let ray = along_x(0.0, 10.0);
    let run = |answer: &dyn Fn(&impact_stepper::RayHit) -> Real| {
        let mut seen = Vec::new();
        world
            .cast_ray_with(&ray, Interior::Solid, &all(), &mut |hit| {
                seen.push((hit.body, hit.fraction));
                answer(hit)
            })
            .unwrap();
        seen
    };
    // Unclipped: all four, nearest first, the tie by handle.
    let every = run(&|_| 1.0);
    assert_eq!(every.iter().map(|s| s.0).collect::<Vec<_>>(), discs);
    // Clipping at the second hit keeps its twin (as near), and nothing after.
    let clipped = run(&|h| if h.body == discs[1] { h.fraction } else { 1.0 });
    assert_eq!(clipped.iter().map(|s| s.0).collect::<Vec<_>>(), discs[..3]);
    // Zero stops at once; a clip shorter than the next hit leaves it out.
    assert_eq!(run(&|_| 0.0).len(), 1);
    assert_eq!(run(&|_| 0.3).len(), 1);
    assert_eq!(run(&|_| Real::NAN).len(), 1);
    assert_eq!(run(&|_| -1.0).len(), 1);
}

#[test]
fn a_cast_that_starts_overlapping_reports_it_or_passes_it_over() {
    let mut world: World = World::new(no_gravity()).unwrap();
    let under = world.create_body(disc_at(0.0, 0.0, 1.0)).unwrap();
    let ahead = world.create_body(disc_at(5.0, 0.0, 1.0)).unwrap();
    let shape: Shape = Circle::new(0.5).unwrap().into();
    let pose = Isometry::translation(0.5, 0.0);
    let go = Vector::new(10.0, 0.0);
    let hit = world
        .cast_shape(&shape, &pose, &go, &ShapeCastOptions::default(), &all())
        .unwrap()
        .unwrap();
    assert_eq!(
        (hit.body, hit.fraction, hit.status),
        (under, 0.0, CastStatus::Overlapping)
    );
    // The penetration normal points from the body toward the cast shape.
    assert!(
        (hit.normal - Vector::new(1.0, 0.0)).norm() < 1e-12,
        "{hit:?}"
    );
    let ignore = ShapeCastOptions {
        ignore_initial_overlaps: true,
        ..ShapeCastOptions::default()
    };
    let next = world
        .cast_shape(&shape, &pose, &go, &ignore, &all())
        .unwrap()
        .unwrap();
    assert_eq!((next.body, next.status), (ahead, CastStatus::Hit));
    assert!((next.fraction - 0.3).abs() < 1e-12 && (next.point.x - 4.0).abs() < 1e-12);
    // With a target distance the cast stops that far away, the point on the body's surface.
    let apart = ShapeCastOptions {
        target_distance: 0.25,
        ..ignore
    };
    let early = world
        .cast_shape(&shape, &pose, &go, &apart, &all())
        .unwrap()
        .unwrap();
    assert!(
        (early.fraction - 0.275).abs() < 1e-12 && (early.point.x - 4.0).abs() < 1e-12,
        "{early:?}"
    );
}

#[test]
fn a_turning_plank_that_starts_across_a_post_meets_it_again_half_a_turn_later() {
    let mut world: World = World::new(no_gravity()).unwrap();
    let post = world.create_body(disc_at(1.5, 0.0, 0.1)).unwrap();
    let plank: Shape = ConvexPolygon::rectangle(2.0, 0.05).unwrap().into();
    // Half a turn and a bit, about its middle, without moving: it starts across the post.
    let sweep = Sweep::new(
        Isometry::identity(),
        Point::origin(),
        Vector::zeros(),
        4.0,
        1.0,
    )
    .unwrap();
    let options = ShapeCastOptions::default();
    let at_once = world
        .cast_sweep(&plank, &sweep, &options, &all())
        .unwrap()
        .unwrap();
    assert_eq!(
        (at_once.body, at_once.status, at_once.fraction),
        (post, CastStatus::Overlapping, 0.0)
    );
    let ignore = ShapeCastOptions {
        ignore_initial_overlaps: true,
        ..options
    };
    let again = world
        .cast_sweep(&plank, &sweep, &ignore, &all())
        .unwrap()
        .unwrap();
    assert_eq!((again.body, again.status), (post, CastStatus::Hit));
    // The other half of the plank reaches the post when the plank has turned by pi less
    // the angle at which its edge clears the post: distance 0 there, and apart in between.
    let gap = |t: Real| {
        distance(
            &plank,
            &sweep.pose_at(t),
            &Circle::new(0.1).unwrap().into(),
            &Isometry::translation(1.5, 0.0),
        )
        .distance
    };
    assert!(
        gap(again.fraction).abs() < 1e-6,
        "{again:?}: {}",
        gap(again.fraction)
    );
    assert!(gap(0.5 * again.fraction) > 0.1, "{again:?}");
    assert!(
        again.fraction > 0.6 && again.fraction < core::f64::consts::PI / 4.0,
        "{again:?}"
    );
}

#[test]
fn the_answers_are_the_same_bits_whatever_the_broadphase() {
    let scene = query_field(400, 11);
    let side = query_field_side(400);
    let (mut rtree, _) = scene.build::<RTreeBroadphase, Discrete>().unwrap();
    let (mut sap, _) = scene.build::<SortAndSweep, Discrete>().unwrap();
    let (mut brute, _) = scene.build::<BruteForce, Discrete>().unwrap();
    for _ in 0..2 {
        rtree.step(1.0 / 60.0).unwrap();
        sap.step(1.0 / 60.0).unwrap();
        brute.step(1.0 / 60.0).unwrap();
    }
    let mut rng = SplitMix64::new(5);
    for _ in 0..300 {
        let ray = impact_testkit::queries::random_ray(&mut rng, side, (1.0, 0.5 * side));
        let a = rtree.cast_ray_all(&ray, Interior::Solid, &all()).unwrap();
        assert_eq!(a, sap.cast_ray_all(&ray, Interior::Solid, &all()).unwrap());
        assert_eq!(
            a,
            brute.cast_ray_all(&ray, Interior::Solid, &all()).unwrap()
        );
        let (shape, sweep) = impact_testkit::queries::random_sweep(&mut rng, side, (1.0, 10.0));
        let o = ShapeCastOptions::default();
        let c = rtree.cast_sweep(&shape, &sweep, &o, &all()).unwrap();
        assert_eq!(c, sap.cast_sweep(&shape, &sweep, &o, &all()).unwrap());
        assert_eq!(c, brute.cast_sweep(&shape, &sweep, &o, &all()).unwrap());
        let p = ray.origin;
        let n = rtree.project_point(&p, Real::INFINITY, &all()).unwrap();
        assert_eq!(n, brute.project_point(&p, Real::INFINITY, &all()).unwrap());
    }
}

#[test]
fn overlap_queries_match_every_body_tested() {
    let scene = query_field(600, 12);
    let side = query_field_side(600);
    let (mut world, _) = scene.build::<RTreeBroadphase, Discrete>().unwrap();
    for _ in 0..3 {
        world.step(1.0 / 60.0).unwrap();
    }
    let filter = all().include_sensors(true).category_bits(u64::MAX);
    let mut rng = SplitMix64::new(6);
    let brute = |test: &dyn Fn(&impact_solver::RigidBody) -> bool| -> Vec<ShapeId> {
        world
            .bodies()
            .filter(|(_, b)| test(b))
            .map(|(h, _)| ShapeId::first_of(h))
            .collect()
    };
    let point_shape: Shape = Circle::new(0.0).unwrap().into();
    let mut found = 0;
    for _ in 0..400 {
        let p = Point::new(rng.range(-0.5, 0.5) * side, rng.range(-0.5, 0.5) * side);
        let at = Isometry::translation(p.x, p.y);
        let got = world.intersections_with_point(&p, &filter).unwrap();
        assert_eq!(
            got,
            brute(&|b| distance(b.shape(), b.pose(), &point_shape, &at).distance <= 0.0)
        );
        found += got.len();

        let shape = impact_testkit::audit::random_shape(&mut rng);
        let pose = Isometry::new(p.coords, rng.range(-3.0, 3.0));
        let got = world
            .intersections_with_shape(&shape, &pose, &filter)
            .unwrap();
        assert_eq!(
            got,
            brute(&|b| distance(b.shape(), b.pose(), &shape, &pose).distance <= 0.0)
        );
        found += got.len();

        let half = Vector::new(rng.range(0.1, 3.0), rng.range(0.1, 3.0));
        let aabb = Aabb::new(p - half, p + half);
        let box_shape: Shape = ConvexPolygon::rectangle(half.x, half.y).unwrap().into();
        let got = world.intersections_with_aabb(&aabb, &filter).unwrap();
        assert_eq!(
            got,
            brute(&|b| distance(b.shape(), b.pose(), &box_shape, &at).distance <= 0.0)
        );

        let max = rng.range(0.0, 5.0);
        let nearest = world
            .bodies()
            .map(|(h, b)| {
                (
                    distance(b.shape(), b.pose(), &point_shape, &at).distance,
                    ShapeId::first_of(h),
                )
            })
            .filter(|(d, _)| *d <= max)
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let got = world.project_point(&p, max, &filter).unwrap();
        assert_eq!(got.map(|g| (g.distance, g.shape)), nearest);
    }
    assert!(found > 200, "{found}");
}

#[test]
fn an_exact_box_query_leaves_out_a_disc_whose_box_it_overlaps() {
    let mut world: World = World::new(no_gravity()).unwrap();
    let disc = world.create_body(disc_at(0.0, 0.0, 1.0)).unwrap();
    // In the corner of the disc's box, outside the disc.
    let corner = Aabb::new(Point::new(0.8, 0.8), Point::new(2.0, 2.0));
    assert!(
        world
            .intersections_with_aabb(&corner, &all())
            .unwrap()
            .is_empty()
    );
    let edge = Aabb::new(Point::new(0.5, 0.5), Point::new(2.0, 2.0));
    assert_eq!(
        world.intersections_with_aabb(&edge, &all()).unwrap(),
        [ShapeId::first_of(disc)]
    );
    // A box of no area: a segment, and a point.
    let flat = Aabb::new(Point::new(-3.0, 0.5), Point::new(3.0, 0.5));
    assert_eq!(
        world.intersections_with_aabb(&flat, &all()).unwrap().len(),
        1
    );
    let dot = Aabb::new(Point::new(0.9, 0.9), Point::new(0.9, 0.9));
    assert!(
        world
            .intersections_with_aabb(&dot, &all())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn project_point_finds_the_nearest_or_the_deepest_within_reach() {
    let mut world: World = World::new(no_gravity()).unwrap();
    let big = world.create_body(disc_at(0.0, 0.0, 2.0)).unwrap();
    let small = world.create_body(disc_at(1.5, 0.0, 0.75)).unwrap();
    let far = world.create_body(disc_at(100.0, 0.0, 1.0)).unwrap();
    // Inside both: the one it is deeper in.
    let p = world
        .project_point(&Point::new(1.0, 0.0), Real::INFINITY, &all())
        .unwrap()
        .unwrap();
    assert_eq!((p.body, p.distance), (big, -1.0));
    assert_eq!(
        (p.point, p.normal),
        (Point::new(2.0, 0.0), Vector::new(1.0, 0.0))
    );
    let out = [big];
    let p = world
        .project_point(
            &Point::new(1.0, 0.0),
            Real::INFINITY,
            &all().exclude_bodies(&out),
        )
        .unwrap()
        .unwrap();
    assert_eq!((p.body, p.distance), (small, -0.25));
    // Far from everything: the search grows until it finds the far disc, unless capped.
    let q = Point::new(60.0, 0.0);
    assert_eq!(
        world
            .project_point(&q, Real::INFINITY, &all())
            .unwrap()
            .unwrap()
            .body,
        far
    );
    assert!(world.project_point(&q, 30.0, &all()).unwrap().is_none());
    let p = world.project_point(&q, 39.0, &all()).unwrap().unwrap();
    assert_eq!((p.body, p.distance), (far, 39.0));
    // Nothing passes: the search ends without looking forever.
    let none = |_: ShapeId, _: &impact_solver::RigidBody| false;
    assert!(
        world
            .project_point(&q, Real::INFINITY, &all().predicate(&none))
            .unwrap()
            .is_none()
    );
}

#[test]
fn a_periodic_world_refuses_queries_naming_its_domain() {
    let settings = WorldSettings {
        domain: Domain::periodic_square(10.0).unwrap(),
        ..no_gravity()
    };
    let mut world: World = World::new(settings).unwrap();
    world.create_body(disc_at(5.0, 5.0, 1.0)).unwrap();
    let err = world
        .cast_ray(&along_x(0.0, 1.0), Interior::Solid, &all())
        .unwrap_err();
    assert_eq!(
        err,
        QueryError::PeriodicDomain {
            field: "settings.domain".to_owned()
        }
    );
    assert!(
        err.to_string()
            .starts_with("settings.domain: scene queries do not support periodic")
    );
    assert!(
        world
            .intersections_with_point(&Point::origin(), &all())
            .is_err()
    );
    assert!(world.query_view().is_err());
}

#[test]
fn a_bare_broadphase_and_body_set_answer_as_the_world() {
    let scene = query_field(300, 13);
    let side = query_field_side(300);
    let (world, _) = scene.build::<RTreeBroadphase, Discrete>().unwrap();
    // The world's bodies in a broadphase of another kind, proxies named by slot.
    let mut bare = BruteForce::new();
    for (h, b) in world.bodies() {
        impact_broadphase::Broadphase::insert(
            &mut bare,
            impact_broadphase::ProxyId(h.index),
            b.shape().aabb(b.pose()),
        )
        .unwrap();
    }
    let view = QueryView::new(&bare, world.body_set());
    let mut rng = SplitMix64::new(8);
    for _ in 0..200 {
        let ray = impact_testkit::queries::random_ray(&mut rng, side, (1.0, side));
        assert_eq!(
            view.cast_ray_all(&ray, Interior::Hollow, &all()).unwrap(),
            world.cast_ray_all(&ray, Interior::Hollow, &all()).unwrap()
        );
    }
}
