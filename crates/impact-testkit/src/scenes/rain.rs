//! [`rain`] and [`tumbling_rain`]: fast bodies onto a field of thin static segments.

use super::{GRAVITY, Scene};
// Named in the docs.
#[cfg(doc)]
use super::TunnelCounter;
use crate::SplitMix64;
use impact_geometry::{
    Capsule, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Vector,
};
use impact_solver::{BodyType, RigidBodyDef};
use impact_stepper::WorldSettings;

/// Radius of the discs of [`rain`] (metres): the bullet's.
pub const RAIN_DISC_RADIUS: Real = 0.05;
/// The slowest launch speed of a disc of [`rain`] (units per second): 1.7 units per 60 Hz
/// step, 17 diameters.
pub const RAIN_MIN_SPEED: Real = 100.0;
/// The fastest launch speed of a disc of [`rain`] (units per second): 5 units per 60 Hz
/// step, 50 diameters.
pub const RAIN_MAX_SPEED: Real = 300.0;
/// The largest angle between a disc's launch velocity and straight down (radians, about 14
/// degrees either way), so that discs also cross the segments obliquely.
pub const RAIN_MAX_ANGLE: Real = 0.25;
/// Restitution of every body of [`rain`]. Modest, and still enough to throw a disc that hits
/// at 300 units/s back up 45 units, into the discs still coming down.
pub const RAIN_RESTITUTION: Real = 0.1;
/// Friction of every body of [`rain`]. Every body has the same material, so the combined
/// values do not depend on an engine's combine rule.
pub const RAIN_FRICTION: Real = 0.3;
/// Rows of tilted segments of [`rain`], above the floor.
pub const RAIN_ROWS: usize = 6;
/// Vertical distance between the floor and the first row, and between rows (metres).
pub const RAIN_ROW_SPACING: Real = 1.0;
/// Length of the segments of the rows (metres). Long next to a step's travel (at most 5
/// units), so that few crossings happen near an end, where [`TunnelCounter`] cannot tell a
/// crossing from a path bent round the end.
pub const RAIN_SEGMENT_LENGTH: Real = 6.0;
/// Horizontal gap between two segments of a row (metres): five diameters, so discs that miss
/// one row, or roll off its low end, fall through to the next.
pub const RAIN_SEGMENT_GAP: Real = 0.5;
/// Tilt of the row segments from horizontal (radians, alternating in sign from row to row),
/// so that discs that land roll toward a gap and keep meeting segments. The ends of a
/// segment are 0.6 m apart vertically, so rows stay 0.4 m (four diameters) apart.
pub const RAIN_TILT: Real = 0.1;
/// Width of the field per disc (metres): the field, and so the number of segments, grows with
/// the number of discs, and the rain stays as dense and as tall.
pub const RAIN_WIDTH_PER_DISC: Real = 0.02;
/// The narrowest field (metres): two segments per row, for scenes of fewer than 700 discs.
pub const RAIN_MIN_WIDTH: Real = 14.0;
/// Area of the column of falling discs per disc (square metres): about one disc per 1.7 m
/// square, so the column is about 150 to 160 m tall for 700 discs or more, and the rain lasts
/// from the first step to about 1.7 s (the slowest discs from the top).
pub const RAIN_AREA_PER_DISC: Real = 3.0;
/// Height of the top of the side walls (metres): far above anything a disc can reach (a
/// bounce at 300 units/s with [`RAIN_RESTITUTION`] rises 45 m above where it hit, and the
/// column starts below 200 m), so a disc outside the walls went through one.
pub const RAIN_WALL_TOP: Real = 1_000.0;

/// The static segments of [`rain`] for a number of discs, in world coordinates.
///
/// A box open at the top: a floor on `y = 0` from wall to wall, and two vertical walls at
/// `x = -half_width` and `x = half_width` from the floor up to [`RAIN_WALL_TOP`] (the floor
/// and the walls share their ends). Inside, [`RAIN_ROWS`] rows of segments at
/// `y = RAIN_ROW_SPACING * (k + 1)` for row `k` (from 0 at the bottom), each segment
/// [`RAIN_SEGMENT_LENGTH`] long and centred on the row's line, tilted by `RAIN_TILT` on even
/// rows and `-RAIN_TILT` on odd rows, with gaps of [`RAIN_SEGMENT_GAP`] between them. Row
/// `k`'s first segment starts one gap from the left wall, shifted right by half a period
/// (`(RAIN_SEGMENT_LENGTH + RAIN_SEGMENT_GAP) / 2`) on odd rows, so the gaps of one row lie
/// over the middle of the next row's segments; a row stops before a segment would come
/// within half a gap of the right wall. Every segment has zero thickness.
#[derive(Debug, Clone, PartialEq)]
pub struct RainField {
    /// Half the distance between the walls (metres): `max(RAIN_MIN_WIDTH, discs *
    /// RAIN_WIDTH_PER_DISC) / 2`.
    pub half_width: Real,
    /// The floor, on `y = 0`.
    pub floor: Segment,
    /// The left and the right wall.
    pub walls: [Segment; 2],
    /// The segments of the rows, bottom row first, each row from left to right.
    pub rows: Vec<Segment>,
}

impl RainField {
    /// Every segment: the floor, the left wall, the right wall, then [`RainField::rows`]. This
    /// is the order of the static bodies at the start of [`rain`].
    pub fn segments(&self) -> impl Iterator<Item = &Segment> + '_ {
        core::iter::once(&self.floor)
            .chain(&self.walls)
            .chain(&self.rows)
    }

    /// The bottom of the column of discs of [`rain`] (metres): one row spacing above the top
    /// row, so the lowest discs meet the field in their first step.
    pub fn column_bottom(&self) -> Real {
        RAIN_ROW_SPACING * (RAIN_ROWS + 1) as Real
    }
}

/// The field of static segments of [`rain`] for `discs` discs: see [`RainField`].
pub fn rain_field(discs: usize) -> RainField {
    let half_width = 0.5 * RAIN_MIN_WIDTH.max(discs as Real * RAIN_WIDTH_PER_DISC);
    let segment =
        |a: Point, b: Point| Segment::new(a, b).expect("the ends of the rain's segments differ");
    let floor = segment(Point::new(-half_width, 0.0), Point::new(half_width, 0.0));
    let walls = [-half_width, half_width]
        .map(|x| segment(Point::new(x, 0.0), Point::new(x, RAIN_WALL_TOP)));
    let period = RAIN_SEGMENT_LENGTH + RAIN_SEGMENT_GAP;
    let half = 0.5 * RAIN_SEGMENT_LENGTH;
    let mut rows = Vec::new();
    for row in 0..RAIN_ROWS {
        let odd = row % 2 == 1;
        let y = RAIN_ROW_SPACING * (row + 1) as Real;
        let tilt = if odd { -RAIN_TILT } else { RAIN_TILT };
        let along = Vector::new(tilt.cos(), tilt.sin()) * half;
        let shift = if odd { 0.5 * period } else { 0.0 };
        let mut x = -half_width + RAIN_SEGMENT_GAP + half + shift;
        while x + half <= half_width - 0.5 * RAIN_SEGMENT_GAP {
            let centre = Point::new(x, y);
            rows.push(segment(centre - along, centre + along));
            x += period;
        }
    }
    RainField {
        half_width,
        floor,
        walls,
        rows,
    }
}

/// A rain of `discs` fast discs onto a field of thin static segments: the scene of the CCD
/// bench (`benches/rain.rs`). Deterministic: the same `discs` and `seed` give the same
/// scene.
///
/// - The static bodies come first: the segments of [`rain_field`]`(discs)`, in the order of
///   [`RainField::segments`], each a zero-thickness [`Segment`] at the identity pose.
/// - Then `discs` dynamic discs of radius [`RAIN_DISC_RADIUS`] (density 1) with the `ccd`
///   flag on, in a column over the field: the column spans the field less 0.25 m at each
///   wall, starts at [`RainField::column_bottom`] and is cut into a grid of cells of about
///   [`RAIN_AREA_PER_DISC`] each, filled row by row from the bottom, one disc per cell at a
///   seeded place at least one diameter inside the cell, so no two discs touch at the start.
///   Each disc is launched at a seeded speed in `[RAIN_MIN_SPEED, RAIN_MAX_SPEED)` at a seeded
///   angle within [`RAIN_MAX_ANGLE`] of straight down (seeded by
///   [`SplitMix64`]`::new(seed)`, cells in order, place then velocity).
/// - Every body has restitution [`RAIN_RESTITUTION`] and friction [`RAIN_FRICTION`]; gravity
///   is [`GRAVITY`], Box2D's.
///
/// A disc moves 1.7 to 5 units in a 60 Hz step, 17 to 50 times its diameter and infinitely
/// more than a segment's thickness: without continuous collision detection a disc can pass a
/// segment between two steps. [`TunnelCounter`] says which did.
///
/// `rain(0, seed)` is the bare field.
pub fn rain(discs: usize, seed: u64) -> Scene {
    let field = rain_field(discs);
    let material = |def: RigidBodyDef| def.restitution(RAIN_RESTITUTION).friction(RAIN_FRICTION);
    let mut bodies: Vec<RigidBodyDef> = field
        .segments()
        .map(|s| material(RigidBodyDef::fixed((*s).into())))
        .collect();

    let margin = 0.25;
    let left = -field.half_width + margin;
    let width = 2.0 * (field.half_width - margin);
    let side = RAIN_AREA_PER_DISC.sqrt();
    let columns = ((width / side).floor() as usize).max(1);
    let cell_width = width / columns as Real;
    let bottom = field.column_bottom();
    // One diameter of clearance inside each cell keeps neighbours at least two diameters
    // apart, whatever the draws.
    let clearance = 2.0 * RAIN_DISC_RADIUS;
    let disc: Shape = Circle::new(RAIN_DISC_RADIUS)
        .expect("the radius is a positive constant")
        .into();
    let mut rng = SplitMix64::new(seed);
    for i in 0..discs {
        let (row, column) = (i / columns, i % columns);
        let x0 = left + column as Real * cell_width;
        let y0 = bottom + row as Real * side;
        let x = rng.range(x0 + clearance, x0 + cell_width - clearance);
        let y = rng.range(y0 + clearance, y0 + side - clearance);
        let speed = rng.range(RAIN_MIN_SPEED, RAIN_MAX_SPEED);
        let angle = rng.range(-RAIN_MAX_ANGLE, RAIN_MAX_ANGLE);
        bodies.push(material(
            RigidBodyDef::new(disc.clone())
                .pose(Isometry::translation(x, y))
                .linvel(Vector::new(angle.sin(), -angle.cos()) * speed)
                .ccd(true),
        ));
    }
    Scene {
        name: format!("rain_{discs}"),
        settings: WorldSettings::with_gravity(Vector::new(0.0, GRAVITY)),
        bodies,
    }
}

/// The fastest spin of a body of [`tumbling_rain`] at launch (radians per second either
/// way): the tip of its longest body then moves about 2.7 units/s, and collisions spin
/// bodies far faster.
pub const TUMBLING_MAX_SPIN: Real = 30.0;

/// [`rain`]`(bodies, seed)` with every disc replaced by a body that turns: a square of side
/// 0.1, a stick 0.18 by 0.02, a capsule of core 0.1 and radius 0.02, or a hexagon of
/// circumradius 0.05 (each fits the disc's clearance), turned and spinning at seeded angles
/// and rates within [`TUMBLING_MAX_SPIN`] (seeded by [`SplitMix64`]`::new(!seed)`, bodies in
/// order: shape, turn, spin). Places, launch velocities, materials and the field are the
/// rain's.
///
/// Sticks on zero-thickness segments are the hard case for continuous collision detection
/// that turns: held by one end, a stick swings the other through.
pub fn tumbling_rain(bodies: usize, seed: u64) -> Scene {
    let mut scene = rain(bodies, seed);
    let square: Shape = ConvexPolygon::rectangle(0.05, 0.05)
        .expect("the half extents are positive constants")
        .into();
    let stick: Shape = ConvexPolygon::rectangle(0.09, 0.01)
        .expect("the half extents are positive constants")
        .into();
    let capsule: Shape = Capsule::new(Point::new(-0.05, 0.0), Point::new(0.05, 0.0), 0.02)
        .expect("the radius is a positive constant")
        .into();
    let hexagon: Shape = ConvexPolygon::regular(6, 0.05)
        .expect("six sides of a positive radius")
        .into();
    let mut rng = SplitMix64::new(!seed);
    for def in scene
        .bodies
        .iter_mut()
        .filter(|d| d.body_type == BodyType::Dynamic)
    {
        def.shape = match rng.below(4) {
            0 => square.clone(),
            1 => stick.clone(),
            2 => capsule.clone(),
            _ => hexagon.clone(),
        };
        let turn = rng.range(-core::f64::consts::PI, core::f64::consts::PI);
        def.pose = Isometry::new(def.pose.translation.vector, turn);
        def.angvel = rng.range(-TUMBLING_MAX_SPIN, TUMBLING_MAX_SPIN);
    }
    scene.name = format!("tumbling_rain_{bodies}");
    scene
}
