//! Bodies of several shapes (compounds) for the tests of the CCD steppers: L- and U-shaped
//! bodies of two and three boxes, seeded compounds of two to four pieces, and the scenes
//! they are thrown in (at a thin wall, dropped on the ground, in the tumbling rain).
//!
//! Every piece is placed in the body frame, as a body's shapes are; the body's centre of
//! mass is where the pieces' masses put it, so a compound spins about a point inside it
//! (the corner region of an L, the base of a U) and its arms swing far out.

use crate::SplitMix64;
use crate::scenes::{self, Scene};
use impact_geometry::{
    Capsule, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Vector,
};
use impact_solver::{BodyType, RigidBodyDef, ShapeDef};
use impact_stepper::WorldSettings;

/// The largest spin of a body thrown at the wall by [`wall_throw`] (radians per second).
pub const THROW_MAX_SPIN: Real = 100.0;
/// The slowest and fastest throws of [`wall_throw`] (units per second).
pub const THROW_SPEEDS: (Real, Real) = (20.0, 300.0);
/// Half the thickness of the wall of [`wall_throw`]: a wall 1 mm thick, its faces at
/// `x = -THROW_WALL_HALF_THICKNESS` and `x = THROW_WALL_HALF_THICKNESS`.
pub const THROW_WALL_HALF_THICKNESS: Real = 0.0005;
/// Half the height of the wall of [`wall_throw`], about `y = 0`.
pub const THROW_WALL_HALF_HEIGHT: Real = 20.0;
/// The step of [`wall_throw`] (seconds).
pub const THROW_DT: Real = 1.0 / 60.0;
/// How many steps a throw of [`wall_throw`] runs: long enough for the slowest throw to reach
/// the wall and leave it.
pub const THROW_STEPS: usize = 24;

/// The box from `(x0, y0)` to `(x1, y1)` in the body frame (corners in any order).
///
/// # Panics
/// If the box has no area (the callers pass constants and seeded sizes that are positive).
pub fn box_piece(x0: Real, y0: Real, x1: Real, y1: Real) -> Shape {
    let (lo, hi) = (
        Point::new(x0.min(x1), y0.min(y1)),
        Point::new(x0.max(x1), y0.max(y1)),
    );
    ConvexPolygon::new(&[lo, Point::new(hi.x, lo.y), hi, Point::new(lo.x, hi.y)])
        .expect("a box with area")
        .into()
}

/// `shape` (as made about the origin) moved to `pose` in the body frame.
///
/// # Panics
/// Never for the shapes of [`crate::audit::random_shape`] and a finite pose.
pub fn placed(shape: &Shape, pose: &Isometry) -> Shape {
    match shape {
        Shape::Circle(c) => Circle::with_center(pose * c.center(), c.radius())
            .expect("a placed circle")
            .into(),
        Shape::Segment(s) => Segment::new(pose * s.a(), pose * s.b())
            .expect("a placed segment")
            .into(),
        Shape::Capsule(c) => Capsule::new(pose * c.axis().a(), pose * c.axis().b(), c.radius())
            .expect("a placed capsule")
            .into(),
        Shape::ChainSegment(s) => impact_geometry::ChainSegment::new(
            pose * s.ghost_before(),
            pose * s.a(),
            pose * s.b(),
            pose * s.ghost_after(),
        )
        .expect("a placed chain segment")
        .into(),
        Shape::Polygon(p) => {
            let vertices: Vec<Point> = p.vertices().iter().map(|v| pose * v).collect();
            ConvexPolygon::new(&vertices)
                .expect("a placed polygon")
                .into()
        }
    }
}

/// A dynamic body of `pieces` (the first is the body's own shape, the rest added with
/// [`RigidBodyDef::with_shape`]), density 1, the CCD flag set.
///
/// # Panics
/// If `pieces` is empty.
pub fn compound(pieces: &[Shape]) -> RigidBodyDef {
    let (first, rest) = pieces.split_first().expect("a compound has a piece");
    rest.iter()
        .fold(RigidBodyDef::new(first.clone()).ccd(true), |def, s| {
            def.with_shape(ShapeDef::new(s.clone()))
        })
}

/// An L of two boxes `thickness` thick, its arms `arm` long along `x` and `y` from the
/// corner at the origin.
pub fn l_pieces(arm: Real, thickness: Real) -> Vec<Shape> {
    vec![
        box_piece(0.0, 0.0, arm, thickness),
        box_piece(0.0, thickness, thickness, arm),
    ]
}

/// A U of three boxes `thickness` thick: a base `width` long along `x` from the origin, and
/// two arms rising `height` from its ends.
pub fn u_pieces(width: Real, height: Real, thickness: Real) -> Vec<Shape> {
    vec![
        box_piece(0.0, 0.0, width, thickness),
        box_piece(0.0, thickness, thickness, height),
        box_piece(width - thickness, thickness, width, height),
    ]
}

/// Two to four pieces of [`crate::audit::random_shape`]'s kinds, each scaled to about a
/// quarter of the size and placed within a unit of the origin at any angle: a seeded
/// compound of any shape.
pub fn random_pieces(rng: &mut SplitMix64) -> Vec<Shape> {
    let n = 2 + rng.below(3);
    (0..n)
        .map(|_| {
            let shape = small_shape(rng);
            let pose = Isometry::new(
                Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
                rng.range(-core::f64::consts::PI, core::f64::consts::PI),
            );
            placed(&shape, &pose)
        })
        .collect()
}

/// A shape of size 0.05 to 0.5 about the origin: a disc, a capsule, a box, a regular
/// polygon or (with `segments`) a segment.
fn small_shape(rng: &mut SplitMix64) -> Shape {
    match rng.below(4) {
        0 => Circle::new(rng.range(0.05, 0.4)).expect("radius").into(),
        1 => Capsule::along_x(rng.range(0.05, 0.4), rng.range(0.02, 0.2))
            .expect("capsule")
            .into(),
        2 => ConvexPolygon::rectangle(rng.range(0.05, 0.5), rng.range(0.02, 0.5))
            .expect("box")
            .into(),
        _ => ConvexPolygon::regular(3 + rng.below(5), rng.range(0.1, 0.4))
            .expect("polygon")
            .into(),
    }
}

/// Which compound [`wall_throw`] throws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thrown {
    /// [`l_pieces`]`(0.4, 0.05)`.
    L,
    /// [`u_pieces`]`(0.5, 0.4, 0.05)`.
    U,
}

impl Thrown {
    /// The pieces.
    pub fn pieces(self) -> Vec<Shape> {
        match self {
            Self::L => l_pieces(0.4, 0.05),
            Self::U => u_pieces(0.5, 0.4, 0.05),
        }
    }
}

/// A throw at a static wall 1 mm thick (a box `2 * THROW_WALL_HALF_THICKNESS` wide and `2 *
/// THROW_WALL_HALF_HEIGHT` tall, centred on the origin; the wall is body 0): `thrown`, turned at a
/// seeded angle, its centre of mass (the body's origin: the pieces are placed about it) three units
/// to the left of the wall within a unit of `y = 0`, moving toward the wall at a seeded speed in
/// [`THROW_SPEEDS`] within 30 degrees of `+x`, spinning at a seeded rate within [`THROW_MAX_SPIN`]
/// (body 1). No gravity; restitution 0.5 on both. Seeded by [`SplitMix64`]`::new(seed)`: angle,
/// place, speed, direction, spin.
///
/// Whatever the throw, the body must end on the wall's left: its centre of mass never right
/// of the wall, and no piece deeper into it than the contact solver's slop.
pub fn wall_throw(thrown: Thrown, seed: u64) -> Scene {
    let mut rng = SplitMix64::new(seed);
    let wall = RigidBodyDef::fixed(box_piece(
        -THROW_WALL_HALF_THICKNESS,
        -THROW_WALL_HALF_HEIGHT,
        THROW_WALL_HALF_THICKNESS,
        THROW_WALL_HALF_HEIGHT,
    ))
    .restitution(0.5);
    let angle = rng.range(-core::f64::consts::PI, core::f64::consts::PI);
    let y = rng.range(-1.0, 1.0);
    let speed = rng.range(THROW_SPEEDS.0, THROW_SPEEDS.1);
    let heading = rng.range(-core::f64::consts::FRAC_PI_6, core::f64::consts::FRAC_PI_6);
    let spin = rng.range(-THROW_MAX_SPIN, THROW_MAX_SPIN);
    // The body's origin on its centre of mass, which the tunnel counter follows: a point of
    // the surface (an L's corner) would draw chords through the wall as the body turns.
    let pieces = about_centre(&thrown.pieces());
    let body = compound(&pieces)
        .pose(Isometry::new(Vector::new(-3.0, y), angle))
        .linvel(Vector::new(heading.cos(), heading.sin()) * speed)
        .angvel(spin)
        .restitution(0.5);
    Scene {
        name: format!("wall_throw_{thrown:?}_{seed}"),
        settings: WorldSettings {
            gravity: Vector::zeros(),
            ..WorldSettings::default()
        },
        bodies: vec![wall, body],
    }
}

/// `pieces` moved so that their centre of mass at density 1 is the origin.
pub fn about_centre(pieces: &[Shape]) -> Vec<Shape> {
    let centre = centre_of(pieces);
    pieces
        .iter()
        .map(|p| placed(p, &Isometry::translation(-centre.x, -centre.y)))
        .collect()
}

/// The centre of mass of `pieces` at density 1.
fn centre_of(pieces: &[Shape]) -> Point {
    let (mut mass, mut moment) = (0.0, Vector::zeros());
    for p in pieces {
        let m = p.mass_properties(1.0).expect("a piece with area");
        mass += m.mass;
        moment += m.local_center.coords * m.mass;
    }
    Point::from(moment / mass)
}

/// An L ([`l_pieces`]`(0.6, 0.1)`) and a U ([`u_pieces`]`(0.8, 0.5, 0.1)`) dropped from 2 and
/// 4 units, turned by 0.3 and -0.2 radians, on the ground of the box scenes (the ground is
/// body 0, the L body 1, the U body 2), gravity -10.
pub fn compound_drop() -> Scene {
    let mut bodies =
        vec![RigidBodyDef::fixed(box_piece(-10.0, -1.0, 10.0, 0.0)).friction(scenes::BOX_FRICTION)];
    bodies.push(
        compound(&l_pieces(0.6, 0.1))
            .pose(Isometry::new(Vector::new(-1.5, 2.0), 0.3))
            .friction(scenes::BOX_FRICTION),
    );
    bodies.push(
        compound(&u_pieces(0.8, 0.5, 0.1))
            .pose(Isometry::new(Vector::new(1.5, 4.0), -0.2))
            .friction(scenes::BOX_FRICTION),
    );
    Scene {
        name: "compound_drop".to_owned(),
        settings: WorldSettings {
            gravity: Vector::new(0.0, scenes::GRAVITY),
            ..WorldSettings::default()
        },
        bodies,
    }
}

/// [`scenes::tumbling_rain`]`(bodies, seed)` with every `every`-th dynamic body (the first
/// included) an L or a U of thin boxes, alternately, that fits the disc's clearance: an L of
/// arms 0.09 and a U 0.1 wide and 0.07 tall, both 0.015 thick, placed so that the centre of
/// mass is where the rain put the body's origin (the pieces' own materials are the rain's).
///
/// # Panics
/// If `every` is 0.
pub fn compound_tumbling_rain(bodies: usize, seed: u64, every: usize) -> Scene {
    assert!(every > 0, "every is at least 1");
    let mut scene = scenes::tumbling_rain(bodies, seed);
    let shapes = [l_pieces(0.09, 0.015), u_pieces(0.1, 0.07, 0.015)];
    for (k, def) in scene
        .bodies
        .iter_mut()
        .filter(|d| d.body_type == BodyType::Dynamic)
        .enumerate()
    {
        if k % every == 0 {
            let moved = about_centre(&shapes[(k / every) % 2]);
            def.shape = moved[0].clone();
            def.shapes = moved[1..]
                .iter()
                .map(|s| {
                    ShapeDef::new(s.clone())
                        .friction(def.friction)
                        .restitution(def.restitution)
                        .density(def.density)
                })
                .collect();
        }
    }
    scene.name = format!("compound_tumbling_rain_{bodies}");
    scene
}
