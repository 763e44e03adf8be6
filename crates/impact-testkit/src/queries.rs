//! The scenes and the seeded inputs of the scene-query tests and bench: a square field of
//! mixed bodies ([`query_field`]), one of bodies of several shapes ([`compound_field`]), and
//! rays, translating casts and turning sweeps across them.
//!
//! The field is centred on the origin, so coordinates stay within half its side and the
//! rounding of world coordinates stays small next to the smallest shapes (radii from 0.02).

use crate::SplitMix64;
use crate::audit::random_shape;
use crate::scenes::Scene;
use impact_geometry::{
    Capsule, ChainSegment, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Sweep,
    Vector,
};
use impact_narrowphase::ray::Ray;
use impact_solver::{BodyType, CollisionFilter, RigidBodyDef, ShapeDef};
use impact_stepper::WorldSettings;

/// The area of the field per body (square units): one body per 3 x 3 square, so bodies of
/// [`random_shape`]'s sizes (0.05 to 2 across, up to 4 for a skinny box) leave gaps between
/// them and sometimes overlap.
pub const QUERY_FIELD_AREA_PER_BODY: Real = 9.0;

/// The categories of [`query_field`]'s bodies: one of these four bits each.
pub const QUERY_FIELD_CATEGORIES: [u64; 4] = [1, 2, 4, 8];

/// The side of [`query_field`]'s square for `n` bodies: `sqrt(n * 9)` (95 for 1,000, 300
/// for 10,000).
pub fn query_field_side(n: usize) -> Real {
    (n as Real * QUERY_FIELD_AREA_PER_BODY).sqrt()
}

/// `n` bodies of [`random_shape`] (circles, segments, capsules, boxes up to 40:1, regular
/// polygons) at uniform positions and angles over the square of side [`query_field_side`]
/// centred on the origin, without gravity.
///
/// Types: segments are static or kinematic (a dynamic body needs area); of the others 40%
/// static, 10% kinematic, 50% dynamic with a velocity of up to 2 units/s and a spin of up to
/// 1 rad/s, so a few steps move them off their broadphase boxes. One body in ten is a
/// sensor. Each body is in one of [`QUERY_FIELD_CATEGORIES`], and its mask accepts every
/// category but, for one body in four, one of them.
pub fn query_field(n: usize, seed: u64) -> Scene {
    let mut rng = SplitMix64::new(seed);
    let half = 0.5 * query_field_side(n);
    let bodies = (0..n)
        .map(|_| {
            let shape = random_shape(&mut rng);
            let position = Vector::new(rng.range(-half, half), rng.range(-half, half));
            let pose = Isometry::new(position, rng.range(-3.2, 3.2));
            let segment = matches!(shape, Shape::Segment(_));
            let body_type = match rng.below(10) {
                0..4 => BodyType::Static,
                4 => BodyType::Kinematic,
                _ if segment => BodyType::Static,
                _ => BodyType::Dynamic,
            };
            let category = QUERY_FIELD_CATEGORIES[rng.below(4)];
            let mask = if rng.below(4) == 0 {
                !QUERY_FIELD_CATEGORIES[rng.below(4)]
            } else {
                u64::MAX
            };
            let sensor = rng.below(10) == 0;
            let linvel = Vector::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
            let angvel = rng.range(-1.0, 1.0);
            let def = RigidBodyDef::new(shape)
                .body_type(body_type)
                .pose(pose)
                .filter(CollisionFilter::new(category, mask))
                .sensor(sensor);
            if body_type == BodyType::Static {
                def
            } else {
                def.linvel(linvel).angvel(angvel)
            }
        })
        .collect();
    Scene {
        name: format!("query_field_{n}"),
        settings: WorldSettings::with_gravity(Vector::zeros()),
        bodies,
    }
}

/// `shape` with its core moved by `offset` (rotated, then translated): the same shape placed
/// elsewhere in its body's frame, as a further shape of a body is given.
///
/// # Panics
/// Never for a valid shape and a finite offset of moderate size: the moved core is as valid
/// as the original.
pub fn offset_shape(shape: &Shape, offset: &Isometry) -> Shape {
    let at = |p: Point| offset * p;
    match shape {
        Shape::Circle(c) => Circle::with_center(at(c.center()), c.radius())
            .expect("a moved circle")
            .into(),
        Shape::Segment(s) => Segment::new(at(s.a()), at(s.b()))
            .expect("a moved segment")
            .into(),
        Shape::Capsule(c) => Capsule::new(at(c.axis().a()), at(c.axis().b()), c.radius())
            .expect("a moved capsule")
            .into(),
        Shape::Polygon(p) => {
            let moved: Vec<Point> = p.vertices().iter().map(|&v| at(v)).collect();
            ConvexPolygon::rounded(&moved, p.radius())
                .expect("a moved polygon")
                .into()
        }
        Shape::ChainSegment(c) => ChainSegment::new(
            at(c.ghost_before()),
            at(c.a()),
            at(c.b()),
            at(c.ghost_after()),
        )
        .expect("a moved chain segment")
        .into(),
    }
}

/// `n` bodies of one to three shapes each over the square of [`query_field_side`]`(n)`:
/// the first a [`random_shape`] about the body's origin, the others [`random_shape`]s moved
/// by up to 1.5 units and any angle in the body frame ([`offset_shape`]), so a body's shapes
/// often overlap each other and sometimes stand apart. Each shape has its own filter (one of
/// [`QUERY_FIELD_CATEGORIES`], a mask that leaves one out for one shape in four) and is a
/// sensor one time in six. Types and velocities as in [`query_field`] (a body of segments
/// only is static or kinematic), without gravity.
pub fn compound_field(n: usize, seed: u64) -> Scene {
    let mut rng = SplitMix64::new(seed);
    let half = 0.5 * query_field_side(n);
    let filter = |rng: &mut SplitMix64| {
        let category = QUERY_FIELD_CATEGORIES[rng.below(4)];
        let mask = if rng.below(4) == 0 {
            !QUERY_FIELD_CATEGORIES[rng.below(4)]
        } else {
            u64::MAX
        };
        (CollisionFilter::new(category, mask), rng.below(6) == 0)
    };
    let bodies = (0..n)
        .map(|_| {
            let first = random_shape(&mut rng);
            let (first_filter, first_sensor) = filter(&mut rng);
            let mut area = !matches!(first, Shape::Segment(_));
            let mut def = RigidBodyDef::new(first)
                .filter(first_filter)
                .sensor(first_sensor);
            for _ in 0..rng.below(3) {
                let offset = Isometry::new(
                    Vector::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)),
                    rng.range(-3.2, 3.2),
                );
                let shape = offset_shape(&random_shape(&mut rng), &offset);
                area |= !matches!(shape, Shape::Segment(_));
                let (f, sensor) = filter(&mut rng);
                def = def.with_shape(ShapeDef::new(shape).filter(f).sensor(sensor));
            }
            let position = Vector::new(rng.range(-half, half), rng.range(-half, half));
            let body_type = match rng.below(10) {
                0..4 => BodyType::Static,
                4 => BodyType::Kinematic,
                _ if !area => BodyType::Static,
                _ => BodyType::Dynamic,
            };
            let linvel = Vector::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
            let angvel = rng.range(-1.0, 1.0);
            let def = def
                .body_type(body_type)
                .pose(Isometry::new(position, rng.range(-3.2, 3.2)));
            if body_type == BodyType::Static {
                def
            } else {
                def.linvel(linvel).angvel(angvel)
            }
        })
        .collect();
    Scene {
        name: format!("compound_field_{n}"),
        settings: WorldSettings::with_gravity(Vector::zeros()),
        bodies,
    }
}

/// A point uniform over the square of side `side` about the origin, grown by a tenth of the
/// side each way (so some queries start outside the field).
fn point_in(rng: &mut SplitMix64, side: Real) -> Point {
    let half = 0.6 * side;
    Point::new(rng.range(-half, half), rng.range(-half, half))
}

/// A unit vector at a uniform angle.
fn direction(rng: &mut SplitMix64) -> Vector {
    let angle = rng.range(-core::f64::consts::PI, core::f64::consts::PI);
    Vector::new(angle.cos(), angle.sin())
}

/// A ray across a field of side `side`: origin uniform over the field's square grown by a
/// tenth of its side each way (so some rays start outside the field), direction uniform,
/// length uniform in `[length.0, length.1)`.
pub fn random_ray(rng: &mut SplitMix64, side: Real, length: (Real, Real)) -> Ray {
    let origin = point_in(rng, side);
    let d = direction(rng);
    Ray::new(origin, d * rng.range(length.0, length.1))
}

/// A translating cast across a field of side `side`: a [`random_shape`] at a point placed as
/// [`random_ray`]'s origin and a uniform angle, moved by a uniform direction times a length uniform in
/// `[length.0, length.1)`.
pub fn random_cast(
    rng: &mut SplitMix64,
    side: Real,
    length: (Real, Real),
) -> (Shape, Isometry, Vector) {
    let shape = random_shape(rng);
    let pose = Isometry::new(point_in(rng, side).coords, rng.range(-3.2, 3.2));
    let translation = direction(rng) * rng.range(length.0, length.1);
    (shape, pose, translation)
}

/// A turning cast across a field of side `side`: a [`random_shape`] placed as in
/// [`random_cast`], turning about its centroid by up to two turns either way over the sweep
/// (70% of sweeps; the others by up to 0.3 rad) while its centroid moves as
/// [`random_cast`]'s translation (unit duration).
pub fn random_sweep(rng: &mut SplitMix64, side: Real, length: (Real, Real)) -> (Shape, Sweep) {
    let (shape, pose, translation) = random_cast(rng, side, length);
    let center = shape
        .mass_properties(1.0)
        .map(|m| m.local_center)
        .unwrap_or_else(|_| Point::origin());
    let turn = if rng.below(10) < 7 {
        rng.range(-4.0 * core::f64::consts::PI, 4.0 * core::f64::consts::PI)
    } else {
        rng.range(-0.3, 0.3)
    };
    let sweep = Sweep::new(pose, center, translation, turn, 1.0).expect("finite sweep");
    (shape, sweep)
}
