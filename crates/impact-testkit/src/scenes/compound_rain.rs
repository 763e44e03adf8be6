//! [`compound_rain`]: bodies of several boxes, spinning, onto a hilly terrain, and
//! [`Terrain`], which says which bodies went through it.

use super::{GRAVITY, Scene, rain};
use crate::SplitMix64;
use impact_geometry::{Chain, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Vector};
use impact_solver::{BodyType, RigidBodyDef, ShapeDef};
use impact_stepper::WorldSettings;

/// Thickness of the bars the pieces of [`compound_rain`] are made of (metres).
pub const COMPOUND_BAR: Real = 0.04;
/// Length of the long bar of each piece (metres): the pieces fit the rain's disc clearance.
pub const COMPOUND_SPAN: Real = 0.12;
/// The fastest spin of a piece at launch (radians per second either way).
pub const COMPOUND_MAX_SPIN: Real = 30.0;
/// The terrain's mean height above `y = 0` (metres).
pub const TERRAIN_BASE: Real = 2.0;
/// The shortest and longest segment of the terrain (metres).
pub const TERRAIN_SEGMENT: (Real, Real) = (0.1, 2.0);
/// Height of the terrain's side walls above `y = 0` (metres), far above any bounce.
pub const TERRAIN_WALL_TOP: Real = 1_000.0;

/// The kinds of piece: an L and a T of two bars, a U of three, an E of four.
pub const COMPOUND_KINDS: [&str; 4] = ["L", "T", "U", "E"];

/// A hilly polyline from wall to wall, its points' `x` increasing, with the walls standing on
/// its ends: the ground of [`compound_rain`].
#[derive(Debug, Clone, PartialEq)]
pub struct Terrain {
    /// The polyline's points, left to right, from `x = -half_width` to `x = half_width`.
    pub points: Vec<Point>,
    /// Half the distance between the walls (metres).
    pub half_width: Real,
}

impl Terrain {
    /// A terrain `2 half_width` wide: segments of seeded lengths in [`TERRAIN_SEGMENT`]
    /// (the last one shorter, to end on the wall) over heights `TERRAIN_BASE` plus three
    /// seeded sines of wavelengths 3 to 12 m and amplitudes up to 0.6 m.
    pub fn hilly(half_width: Real, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed ^ 0x7e44_a1b2);
        let waves: Vec<(Real, Real, Real)> = (0..3)
            .map(|_| {
                let length = rng.range(3.0, 12.0);
                (
                    rng.range(0.2, 0.6),
                    core::f64::consts::TAU / length,
                    rng.range(0.0, core::f64::consts::TAU),
                )
            })
            .collect();
        let height = |x: Real| {
            TERRAIN_BASE
                + waves
                    .iter()
                    .map(|&(a, k, phase)| a * (k * x + phase).sin())
                    .sum::<Real>()
        };
        let mut points = Vec::new();
        let mut x = -half_width;
        loop {
            points.push(Point::new(x, height(x)));
            if x >= half_width {
                break;
            }
            let step = rng.range(TERRAIN_SEGMENT.0, TERRAIN_SEGMENT.1);
            x = if half_width - x < step + TERRAIN_SEGMENT.0 {
                half_width
            } else {
                x + step
            };
        }
        Self { points, half_width }
    }

    /// The terrain's segments, left to right.
    pub fn segments(&self) -> impl Iterator<Item = Segment> + '_ {
        self.points
            .windows(2)
            .map(|w| Segment::new(w[0], w[1]).expect("the terrain's points differ"))
    }

    /// The terrain as a chain, right to left: each segment's solid side is below it.
    pub fn chain(&self) -> Chain {
        let points: Vec<Point> = self.points.iter().rev().copied().collect();
        Chain::open(&points).expect("the terrain's points are apart and left to right")
    }

    /// The terrain's height at `x` (clamped to the walls).
    pub fn height(&self, x: Real) -> Real {
        let x = x.clamp(-self.half_width, self.half_width);
        let i = self
            .points
            .partition_point(|p| p.x < x)
            .clamp(1, self.points.len() - 1);
        let (a, b) = (self.points[i - 1], self.points[i]);
        let t = if b.x > a.x {
            (x - a.x) / (b.x - a.x)
        } else {
            0.0
        };
        a.y + t * (b.y - a.y)
    }

    /// The distance from `p` to the polyline.
    pub fn distance(&self, p: &Point) -> Real {
        self.segments()
            .map(|s| {
                let (a, b) = (s.a(), s.b());
                let d = b - a;
                let t = ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0);
                (p - (a + d * t)).norm()
            })
            .fold(Real::INFINITY, Real::min)
    }

    /// Whether a body whose centre of mass is at `center`, and all of which lies within
    /// `radius` of it, went through the terrain or its walls: it is wholly beneath the
    /// polyline (its centre below and farther than `radius` from it), or wholly outside a
    /// wall.
    pub fn passed(&self, center: &Point, radius: Real) -> bool {
        if center.x.abs() > self.half_width + radius {
            return true;
        }
        center.y < self.height(center.x) && self.distance(center) > radius
    }
}

/// A piece of kind `kind` (an index into [`COMPOUND_KINDS`]) as a dynamic body definition of
/// density 1: its bars as shapes in the body frame, the long bar first, centred near the
/// origin.
pub fn compound_piece(kind: usize) -> RigidBodyDef {
    let (s, t) = (0.5 * COMPOUND_SPAN, COMPOUND_BAR);
    let bar = |x0: Real, y0: Real, x1: Real, y1: Real| -> Shape {
        ConvexPolygon::new(&[
            Point::new(x0, y0),
            Point::new(x1, y0),
            Point::new(x1, y1),
            Point::new(x0, y1),
        ])
        .expect("the bars are proper rectangles")
        .into()
    };
    // The long bar along the bottom, from -s to s, 0 to t high.
    let base = bar(-s, 0.0, s, t);
    let leg = |x0: Real| bar(x0, t, x0 + t, 2.0 * t);
    let bars: Vec<Shape> = match kind % COMPOUND_KINDS.len() {
        0 => vec![base, leg(-s)],
        1 => vec![base, leg(-0.5 * t)],
        2 => vec![base, leg(-s), leg(s - t)],
        _ => vec![base, leg(-s), leg(-0.5 * t), leg(s - t)],
    };
    let mut bars = bars.into_iter();
    let mut def = RigidBodyDef::new(bars.next().expect("a piece has bars"));
    for more in bars {
        def = def.with_shape(ShapeDef::new(more));
    }
    def
}

/// [`rain`]`(bodies, seed)` with its field replaced by a [`Terrain::hilly`] ground between two
/// tall walls (the ground one static chain body, [`Terrain::chain`], the walls one segment
/// body each), and every disc replaced by a [`compound_piece`] of a seeded kind,
/// turned and spinning at seeded angles and rates within [`COMPOUND_MAX_SPIN`] (seeded by
/// [`SplitMix64`]`::new(seed ^ 0xc0)`, bodies in order: kind, turn, spin), with the rain's
/// places, launch velocities and materials.
pub fn compound_rain(bodies: usize, seed: u64) -> Scene {
    let rain = rain(bodies, seed);
    let terrain = Terrain::hilly(super::rain_field(bodies).half_width, seed);
    let first = rain
        .bodies
        .iter()
        .find(|d| d.body_type == BodyType::Dynamic)
        .cloned();
    let (restitution, friction) = first.map_or((0.1, 0.3), |d| (d.restitution, d.friction));
    let mut out = vec![terrain_body(&terrain, restitution, friction)];
    for x in [-terrain.half_width, terrain.half_width] {
        let wall = Segment::new(
            Point::new(x, terrain.height(x)),
            Point::new(x, TERRAIN_WALL_TOP),
        )
        .expect("the wall is upright");
        out.push(
            RigidBodyDef::fixed(wall.into())
                .restitution(restitution)
                .friction(friction),
        );
    }
    let mut rng = SplitMix64::new(seed ^ 0xc0);
    for def in rain
        .bodies
        .iter()
        .filter(|d| d.body_type == BodyType::Dynamic)
    {
        let kind = rng.below(COMPOUND_KINDS.len());
        let turn = rng.range(-core::f64::consts::PI, core::f64::consts::PI);
        let spin = rng.range(-COMPOUND_MAX_SPIN, COMPOUND_MAX_SPIN);
        let mut piece = compound_piece(kind)
            .pose(Isometry::new(def.pose.translation.vector, turn))
            .linvel(def.linvel)
            .angvel(spin)
            .ccd(true)
            .restitution(restitution)
            .friction(friction);
        for shape in &mut piece.shapes {
            shape.restitution = restitution;
            shape.friction = friction;
        }
        out.push(piece);
    }
    Scene {
        name: format!("compound_rain_{bodies}"),
        settings: WorldSettings::with_gravity(Vector::new(0.0, GRAVITY)),
        bodies: out,
    }
}

/// The terrain as one static chain body: its points right to left, so that each segment's
/// solid side is below it.
fn terrain_body(terrain: &Terrain, restitution: Real, friction: Real) -> RigidBodyDef {
    let mut def = RigidBodyDef::from_chain(&terrain.chain())
        .restitution(restitution)
        .friction(friction);
    for shape in &mut def.shapes {
        shape.restitution = restitution;
        shape.friction = friction;
    }
    def
}

/// The terrain of a scene made by [`compound_rain`]`(bodies, seed)`.
pub fn compound_rain_terrain(bodies: usize, seed: u64) -> Terrain {
    Terrain::hilly(super::rain_field(bodies).half_width, seed)
}
