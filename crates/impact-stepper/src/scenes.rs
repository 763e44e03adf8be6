//! The shared scenes: one definition used by the tests, the benches and (later) the
//! examples, so that a number in `docs/benchmarks.md` and a test assertion speak of the same
//! bodies.
//!
//! Units are metres, kilograms and seconds. Every scene but [`bullet_through_paper`],
//! [`rain`] and [`tumbling_rain`] rests on a static ground box whose top face is the line
//! `y = 0`; the ground is always the first body, so after [`Scene::build`] its handle is
//! `handles[0]` and the scene's bodies follow in order. [`bullet_through_paper`] has no ground
//! and no gravity: its wall is `handles[0]`, its bullet `handles[1]`. [`rain`] starts with its
//! static segments (in the order of [`RainField::segments`]), then its discs, and
//! [`tumbling_rain`] is the same with bodies of four shapes that turn; [`TunnelCounter`]
//! counts the bodies that pass through the segments, and [`CrossingCounter`] the pairs of
//! discs that pass through each other, from positions alone, so that other engines can be
//! judged the same way.

use crate::domain::Domain;
use crate::error::WorldError;
use crate::events::{Impact, ImpactHook};
use crate::settings::WorldSettings;
use crate::stepper::Stepper;
use crate::world::World;
use impact_broadphase::Broadphase;
use impact_geometry::{
    Capsule, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Vector, cross,
};
use impact_narrowphase::audit::SplitMix64;
use impact_solver::{BodyHandle, BodyType, RigidBodyDef};

mod crossings;
mod hung;

pub use crossings::CrossingCounter;
pub use hung::HungCounter;

/// Fills `out` (whatever it held) with the positions of the dynamic bodies of `world`, in
/// slot order: the scene's order for a world built by [`Scene::build`] with no body removed
/// since, which is how the counters below take a world.
fn dynamic_positions<B: Broadphase, S: Stepper>(world: &World<B, S>, out: &mut Vec<Point>) {
    out.clear();
    out.extend(
        world
            .bodies()
            .filter(|(_, b)| b.is_dynamic())
            .map(|(_, b)| Point::from(b.pose().translation.vector)),
    );
}

/// Half the side of the boxes of [`stack`] and [`pyramid`] (metres): 1 x 1 boxes.
pub const BOX_HALF_EXTENT: Real = 0.5;
/// Density of the boxes (kilograms per square metre).
pub const BOX_DENSITY: Real = 1.0;
/// Friction of the boxes and of the ground (dimensionless).
pub const BOX_FRICTION: Real = 0.6;
/// Gravity of the box scenes (metres per second squared), Box2D's samples' value.
pub const GRAVITY: Real = -10.0;
/// Radius of the ball of [`ball_drop`] (metres).
pub const BALL_RADIUS: Real = 0.25;

/// A scene: the world settings and the bodies to create, in order (the ground first).
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// A short name, for bench ids and messages.
    pub name: String,
    /// Gravity and solver settings.
    pub settings: WorldSettings,
    /// The bodies, created in this order by [`Scene::build`].
    pub bodies: Vec<RigidBodyDef>,
}

impl Scene {
    /// A world of this scene with a default broadphase `B` and stepper `S`, and the handles
    /// of the bodies in the order of [`Scene::bodies`].
    ///
    /// # Errors
    /// As [`World::new`] and [`World::create_body`] (a scene built from bad parameters, such
    /// as a restitution outside `[0, 1]`, is refused here with the field named).
    pub fn build<B: Broadphase + Default, S: Stepper + Default>(
        &self,
    ) -> Result<(World<B, S>, Vec<BodyHandle>), WorldError> {
        let mut world = World::new(self.settings)?;
        let handles = self
            .bodies
            .iter()
            .map(|def| world.create_body(def.clone()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((world, handles))
    }
}

fn rectangle(half_width: Real, half_height: Real) -> Shape {
    ConvexPolygon::rectangle(half_width, half_height)
        .expect("scene dimensions are positive constants")
        .into()
}

/// A static ground box of half width `half_width`, top face on `y = 0`.
fn ground(half_width: Real) -> RigidBodyDef {
    RigidBodyDef::fixed(rectangle(half_width, 0.5))
        .pose(Isometry::translation(0.0, -0.5))
        .friction(BOX_FRICTION)
}

fn unit_box(x: Real, y: Real) -> RigidBodyDef {
    RigidBodyDef::new(rectangle(BOX_HALF_EXTENT, BOX_HALF_EXTENT))
        .pose(Isometry::translation(x, y))
        .density(BOX_DENSITY)
        .friction(BOX_FRICTION)
}

/// A column of `n` unit boxes (1 x 1, density 1, friction 0.6) on the ground, each resting
/// exactly on the one below: box `i` is centred at `(0, 0.5 + i)`.
pub fn stack(n: usize) -> Scene {
    let mut bodies = vec![ground(5.0)];
    bodies.extend((0..n).map(|i| unit_box(0.0, BOX_HALF_EXTENT + i as Real)));
    Scene {
        name: format!("stack_{n}"),
        settings: WorldSettings::with_gravity(Vector::new(0.0, GRAVITY)),
        bodies,
    }
}

/// Box2D's pyramid: rows of unit boxes (1 x 1, density 1, friction 0.6), `base` on the
/// ground row and one fewer on each row above, `base (base + 1) / 2` boxes in all, each
/// touching its neighbours. Row `i` (from 0 at the bottom) is centred at `y = 0.5 + i`,
/// its boxes at `x = -(base - 1 - i) / 2 + j` for `j` in `0..base - i`, symmetric about
/// `x = 0`. `pyramid(100)` is Box2D's "large pyramid" benchmark (5,050 boxes).
pub fn pyramid(base: usize) -> Scene {
    let mut bodies = vec![ground(0.5 * base as Real + 5.0)];
    for row in 0..base {
        let count = base - row;
        let x0 = -0.5 * (count - 1) as Real;
        let y = BOX_HALF_EXTENT + row as Real;
        bodies.extend((0..count).map(|j| unit_box(x0 + j as Real, y)));
    }
    Scene {
        name: format!("pyramid_{base}"),
        settings: WorldSettings::with_gravity(Vector::new(0.0, GRAVITY)),
        bodies,
    }
}

/// A ball of radius [`BALL_RADIUS`] and restitution `restitution`, at rest with its bottom
/// `height` metres above the ground (restitution 0, so the ball's value is the combined one:
/// the rule is the maximum).
///
/// Parameters are not checked here: a bad `height` (not finite) or `restitution` (outside
/// `[0, 1]`) is refused by [`Scene::build`] with the field named.
pub fn ball_drop(height: Real, restitution: Real) -> Scene {
    let ball = RigidBodyDef::new(
        Circle::new(BALL_RADIUS)
            .expect("the radius is a positive constant")
            .into(),
    )
    .pose(Isometry::translation(0.0, height + BALL_RADIUS))
    .restitution(restitution);
    Scene {
        name: "ball_drop".to_owned(),
        settings: WorldSettings::with_gravity(Vector::new(0.0, GRAVITY)),
        bodies: vec![ground(5.0), ball],
    }
}

/// Radius of the bullet of [`bullet_through_paper`] (metres).
pub const BULLET_RADIUS: Real = 0.05;
/// Thickness of the [`Wall::Thin`] box of [`bullet_through_paper`] (metres): 1 mm.
pub const WALL_THICKNESS: Real = 0.001;
/// Half the height of the wall of [`bullet_through_paper`] (metres): tall enough that a
/// bullet cannot get past it by going round an end within a few steps (a grazing bullet is
/// turned along the wall by its contact and may slide 140 units a step), so that ending a
/// step on the far side (`x > 0`) means passing through it.
pub const WALL_HALF_HEIGHT: Real = 1_000.0;
/// How far the bullet's centre starts from the wall's centre (metres), along its path.
pub const BULLET_START_DISTANCE: Real = 1.0;

/// The paper of [`bullet_through_paper`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wall {
    /// A static box [`WALL_THICKNESS`] thick.
    Thin,
    /// A static segment of zero thickness.
    Segment,
}

/// The bullet through paper: a static vertical wall ([`Wall`]) centred at the origin,
/// `2 WALL_HALF_HEIGHT` tall, and a dynamic disc of radius [`BULLET_RADIUS`] with CCD on,
/// [`BULLET_START_DISTANCE`] from the wall's centre, moving at `speed` toward it along the
/// direction `angle` radians from `+x` (its path goes through the origin). No gravity, no
/// restitution. For `|angle| < 60 degrees` the disc starts clear of the wall, and any speed
/// above 66 units/s carries it past the wall in one 60 Hz step if nothing stops it.
///
/// Parameters are not checked here: a non-finite `speed` or `angle` is refused by
/// [`Scene::build`] with the field named.
pub fn bullet_through_paper(speed: Real, angle: Real, wall: Wall) -> Scene {
    let wall_def = match wall {
        Wall::Thin => RigidBodyDef::fixed(rectangle(0.5 * WALL_THICKNESS, WALL_HALF_HEIGHT)),
        Wall::Segment => RigidBodyDef::fixed(
            Segment::new(
                Point::new(0.0, -WALL_HALF_HEIGHT),
                Point::new(0.0, WALL_HALF_HEIGHT),
            )
            .expect("the segment's ends are distinct constants")
            .into(),
        ),
    };
    let direction = Vector::new(angle.cos(), angle.sin());
    let start = -direction * BULLET_START_DISTANCE;
    let bullet = RigidBodyDef::new(
        Circle::new(BULLET_RADIUS)
            .expect("the radius is a positive constant")
            .into(),
    )
    .pose(Isometry::translation(start.x, start.y))
    .linvel(direction * speed)
    .ccd(true);
    Scene {
        name: format!("bullet_through_paper_{wall:?}").to_lowercase(),
        settings: WorldSettings::with_gravity(Vector::zeros()),
        bodies: vec![wall_def, bullet],
    }
}

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

/// A rain of `discs` fast discs onto a field of thin static segments: the scene of issue 6's
/// CCD bench. Deterministic: the same `discs` and `seed` give the same scene.
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

/// One static segment as [`TunnelCounter`] sees it.
#[derive(Debug, Clone, Copy)]
struct Line {
    a: Point,
    b: Point,
    /// Unit direction from `a` to `b`.
    direction: Vector,
    length: Real,
    /// The ends that no other static segment shares, which a body can go round.
    open: [Option<Point>; 2],
}

/// Counts the dynamic bodies of a scene that pass through its static segments, from body
/// positions alone, so that the bodies of any engine running the same scene are judged the
/// same way.
///
/// Feed it the positions (the origin of each body's pose; the centre of a disc) of the
/// scene's dynamic bodies, in the scene's order, after every step ([`TunnelCounter::observe`],
/// or [`TunnelCounter::observe_world`] for a [`World`] built by [`Scene::build`]). The start
/// of the scene counts as the first observation.
///
/// # Definition
/// A body *tunnelled* at an observation `p1`, after `p0` (and `p_prev` before that, `p0` at
/// the first step), if one of these holds:
/// 1. **It crossed a static segment.** `p0` and `p1` are strictly on opposite sides of the
///    segment's line, the chord from `p0` to `p1` meets the line within the segment, and no
///    path of length `S = max(|p1 - p0|, |p0 - p_prev|, dt max(|v0|, |v1|))` could have gone
///    round an open end `E` of the segment (an end no other static segment shares) instead:
///    for every such end, `|p0 - E| + |E - p1| > S`. `S` stands for the length of the body's
///    path over the step: its longer displacement over this step and the previous one, or
///    the step length times its faster speed at the two observations when the speeds are
///    given ([`TunnelCounter::observe_moving`], [`TunnelCounter::observe_world`]; a disc
///    that bounces back within a step travels further than either displacement). The last
///    condition is
///    there because a stepper that resolves impacts inside the step bends paths there: a disc
///    that passes the end of a segment and is then knocked back under it by another disc has
///    a chord that cuts through the segment. Any path from `p0` to `p1` that crosses the line
///    beyond `E` is at least `|p0 - E| + |E - p1|` long, so with a path no longer than `S`
///    the crossings counted are certain; the price is that a true crossing close to an open
///    end, at distance `d` with a chord of length `c`, is not counted when `2 sqrt((c/2)^2 +
///    d^2) <= S`, which is `d` up to about `sqrt(c r)` (0.5 m for a 5 m chord) for a body
///    that keeps its speed.
/// 2. **It left the box.** Only when the static segments close their bounding box below and
///    on both sides (one segment along the whole bottom edge, and one up each side from its
///    ends: the floor and walls of [`rain`]) and every dynamic body starts strictly inside:
///    its centre is below the box's bottom or beyond either side. Nothing gets there without
///    passing through the floor or a wall, since the walls are higher than any body flies, so
///    this count is certain and complete for the floor and the walls whatever the path.
/// 3. **It was lost.** Its position is not finite. Counted with the bodies that left the box.
///
/// Each body counts once, from the first observation at which it tunnelled on. `S` is an
/// estimate: a body sped up and slowed down again within one step, or that went back and
/// forth, can travel further than `S` and so round an end the counter thinks it could not
/// reach. A body that goes through a segment and back within one step is not seen.
#[derive(Debug, Clone)]
pub struct TunnelCounter {
    lines: Vec<Line>,
    /// Indices of `lines` by column of width `column_width` from `x0`: every line whose
    /// horizontal extent meets the column.
    columns: Vec<Vec<u32>>,
    x0: Real,
    column_width: Real,
    /// `(min x, max x, min y)` of the static segments, when every dynamic body starts inside.
    container: Option<(Real, Real, Real)>,
    /// Each body's last two observations: `(p_prev, p0)`.
    previous: Vec<(Point, Point)>,
    /// Each body's speed at the last observation (at the start, its definition's), or zero
    /// where the speeds are not given.
    speeds: Vec<Real>,
    /// The world time of the last [`TunnelCounter::observe_world`] (the scene starts at 0).
    last_time: Real,
    tunnelled: Vec<bool>,
    count: usize,
    escaped: usize,
    /// The positions and velocities `observe_world` gathers, kept from call to call.
    scratch: (Vec<Point>, Vec<Vector>),
    /// `observe_moving_via`'s turns sorted by body, its positions with the bodies that
    /// turned held still, and which bodies turned; kept from call to call.
    via: Vec<(usize, Point)>,
    straight: Vec<Point>,
    turned: Vec<bool>,
}

impl TunnelCounter {
    /// A counter for the static [`Segment`] bodies and the dynamic bodies of `scene`, which
    /// start at the poses of their definitions. Static bodies of other shapes, and kinematic
    /// bodies, are ignored.
    pub fn new(scene: &Scene) -> Self {
        let mut lines = Vec::new();
        let mut start = Vec::new();
        let mut speeds = Vec::new();
        for def in &scene.bodies {
            match (def.body_type, &def.shape) {
                (BodyType::Static, Shape::Segment(s)) => {
                    let (a, b) = (def.pose * s.a(), def.pose * s.b());
                    let length = (b - a).norm();
                    lines.push(Line {
                        a,
                        b,
                        direction: (b - a) / length,
                        length,
                        open: [Some(a), Some(b)],
                    });
                }
                (BodyType::Dynamic, _) => {
                    start.push(Point::from(def.pose.translation.vector));
                    speeds.push(def.linvel.norm());
                }
                _ => {}
            }
        }
        // An end shared with another segment (the floor's corners with the walls) cannot be
        // gone round: the other segment closes it.
        let ends: Vec<Point> = lines.iter().flat_map(|l| [l.a, l.b]).collect();
        for (i, line) in lines.iter_mut().enumerate() {
            for (k, end) in line.open.iter_mut().enumerate() {
                let shared = ends
                    .iter()
                    .enumerate()
                    .any(|(j, e)| j != 2 * i + k && (e - ends[2 * i + k]).norm() <= 1e-9);
                if shared {
                    *end = None;
                }
            }
        }

        let (mut x0, mut x1, mut y0) = (Real::INFINITY, Real::NEG_INFINITY, Real::INFINITY);
        for p in &ends {
            x0 = x0.min(p.x);
            x1 = x1.max(p.x);
            y0 = y0.min(p.y);
        }
        // A box only when the segments close it below and on both sides, as the rain's floor
        // and walls do; a lone segment's box says nothing about where bodies may go.
        let near = |a: Point, b: Point| (a - b).norm() <= 1e-9;
        let has = |from: Point, to: Point| {
            lines
                .iter()
                .any(|l| (near(l.a, from) && near(l.b, to)) || (near(l.a, to) && near(l.b, from)))
        };
        let (corner0, corner1) = (Point::new(x0, y0), Point::new(x1, y0));
        let top = |x: Real| {
            lines
                .iter()
                .filter(|l| l.a.x == x && l.b.x == x)
                .map(|l| l.a.y.max(l.b.y))
                .fold(y0, Real::max)
        };
        let closed = has(corner0, corner1)
            && has(corner0, Point::new(x0, top(x0)))
            && has(corner1, Point::new(x1, top(x1)));
        let container = (closed && start.iter().all(|p| x0 < p.x && p.x < x1 && y0 < p.y))
            .then_some((x0, x1, y0));

        // Columns about as wide as a fast disc's step, so a chord meets one to three of them;
        // never more than 4,096 columns, whatever the scene's extent.
        let (x0, column_width, count) = if lines.is_empty() {
            (0.0, 1.0, 1)
        } else {
            let width = ((x1 - x0) / 4096.0).max(2.0);
            (x0, width, ((x1 - x0) / width).floor() as usize + 1)
        };
        let mut counter = Self {
            lines,
            columns: vec![Vec::new(); count],
            x0,
            column_width,
            container,
            previous: start.iter().map(|&p| (p, p)).collect(),
            speeds,
            last_time: 0.0,
            tunnelled: vec![false; start.len()],
            count: 0,
            escaped: 0,
            scratch: (Vec::new(), Vec::new()),
            via: Vec::new(),
            straight: Vec::new(),
            turned: Vec::new(),
        };
        for i in 0..counter.lines.len() {
            let l = counter.lines[i];
            let columns = counter.columns_of(l.a.x.min(l.b.x), l.a.x.max(l.b.x));
            for column in &mut counter.columns[columns] {
                column.push(i as u32);
            }
        }
        counter
    }

    /// Takes the positions of the dynamic bodies after a step, in the scene's order, and
    /// returns how many bodies tunnelled for the first time (see the type's definition).
    ///
    /// # Panics
    /// If `positions` does not hold one position per dynamic body of the scene.
    pub fn observe(&mut self, positions: &[Point]) -> usize {
        self.speeds.fill(0.0);
        self.observe_paths(positions, |_, _| 0.0)
    }

    /// [`TunnelCounter::observe`] with the bodies' velocities after the step too (in the same
    /// order), and the step's length `dt`: the path a body may have taken is then also bounded
    /// by `dt` times its faster speed at the two observations, which keeps a body that bounced
    /// back round the end of a segment within the step from counting.
    ///
    /// # Panics
    /// If `positions` or `velocities` does not hold one entry per dynamic body of the scene.
    pub fn observe_moving(
        &mut self,
        positions: &[Point],
        velocities: &[Vector],
        dt: Real,
    ) -> usize {
        assert_eq!(
            velocities.len(),
            self.previous.len(),
            "one velocity per dynamic body of the scene"
        );
        let new = self.observe_paths(positions, |i, before| dt * before.max(velocities[i].norm()));
        for (speed, v) in self.speeds.iter_mut().zip(velocities) {
            *speed = v.norm();
        }
        new
    }

    /// [`TunnelCounter::observe_moving`] for an engine that also says where bodies changed
    /// course inside the step: `turns` holds `(body, position)` for each such change (bodies
    /// in the scene's order of dynamic bodies, each body's turns in time order; a
    /// [`CourseRecorder`] collects them from [`FirstTimeOfImpact`](crate::FirstTimeOfImpact)'s
    /// impacts), and a body moves on a straight line between its turns.
    ///
    /// A body with turns is judged on its path itself, not on an estimate of it: it
    /// tunnelled if one of its legs (from the last observation to its first turn, from turn
    /// to turn, from its last turn to `positions`) crosses a static segment (case 1 of the
    /// type's definition with `S` the leg's length, which no way round an end can match, so
    /// every crossing of a segment's interior counts). A body that sped up at a turn and
    /// slowed down at the next can travel much further in a step than its speeds at the
    /// observations allow for; without its turns it could pass round the end of a segment
    /// and be counted as having gone through it. Bodies without turns are judged as by
    /// [`TunnelCounter::observe_moving`].
    ///
    /// # Panics
    /// As [`TunnelCounter::observe_moving`], and if a body of `turns` is out of range.
    pub fn observe_moving_via(
        &mut self,
        positions: &[Point],
        velocities: &[Vector],
        dt: Real,
        turns: &[(usize, Point)],
    ) -> usize {
        let mut via = core::mem::take(&mut self.via);
        via.clear();
        via.extend_from_slice(turns);
        // Stable: each body's turns keep their time order.
        via.sort_by_key(|&(body, _)| body);
        let mut straight = core::mem::take(&mut self.straight);
        straight.clear();
        straight.extend_from_slice(positions);
        let mut turned = core::mem::take(&mut self.turned);
        turned.clear();
        turned.resize(positions.len(), false);
        let mut newly = 0;
        for legs in via.chunk_by(|x, y| x.0 == y.0) {
            let i = legs[0].0;
            turned[i] = true;
            let (_, p0) = self.previous[i];
            if self.tunnelled[i] {
                continue;
            }
            let waypoints = core::iter::once(p0)
                .chain(legs.iter().map(|&(_, p)| p))
                .chain(core::iter::once(positions[i]));
            let mut from = p0;
            for to in waypoints.skip(1) {
                if self.outside(to) || self.crossed(from, from, to, 0.0) {
                    self.tunnelled[i] = true;
                    if self.outside(to) {
                        self.escaped += 1;
                    }
                    newly += 1;
                    break;
                }
                from = to;
            }
        }
        // The bodies with turns were judged above: the usual rule sees them stand still.
        for (i, p) in straight.iter_mut().enumerate() {
            if turned[i] {
                *p = self.previous[i].1;
            }
        }
        self.count += newly;
        newly += self.observe_paths(&straight, |i, before| dt * before.max(velocities[i].norm()));
        for (i, p) in positions.iter().enumerate() {
            if turned[i] {
                // `observe_paths` saw it stand at `p0`: its last two observations are
                // `(p0, p1)`.
                self.previous[i].1 = *p;
            }
        }
        for (speed, v) in self.speeds.iter_mut().zip(velocities) {
            *speed = v.norm();
        }
        self.via = via;
        self.straight = straight;
        self.turned = turned;
        newly
    }

    /// The observation, with `reach(i, speed before)` bounding body `i`'s path beyond its
    /// displacements.
    fn observe_paths(&mut self, positions: &[Point], reach: impl Fn(usize, Real) -> Real) -> usize {
        assert_eq!(
            positions.len(),
            self.previous.len(),
            "one position per dynamic body of the scene"
        );
        let mut new = 0;
        for (i, &p1) in positions.iter().enumerate() {
            let (p_prev, p0) = self.previous[i];
            let path = reach(i, self.speeds[i]);
            if !self.tunnelled[i] {
                if self.outside(p1) {
                    self.escaped += 1;
                    self.tunnelled[i] = true;
                    new += 1;
                } else if self.crossed(p_prev, p0, p1, path) {
                    self.tunnelled[i] = true;
                    new += 1;
                }
            }
            self.previous[i] = (p0, p1);
        }

        self.count += new;
        new
    }

    /// [`TunnelCounter::observe_moving`] with the positions and velocities of the dynamic
    /// bodies of `world`, in slot order (the scene's order for a world built by
    /// [`Scene::build`] with no body removed since), and the world time since the last call
    /// (or since 0, where a built scene starts) as `dt`.
    ///
    /// # Panics
    /// If the world does not hold one dynamic body per dynamic body of the scene.
    pub fn observe_world<B: Broadphase, S: Stepper>(&mut self, world: &World<B, S>) -> usize {
        self.observe_world_with(world, |counter, positions, velocities, dt| {
            counter.observe_moving(positions, velocities, dt)
        })
    }

    /// Gathers the positions and velocities of the dynamic bodies of `world` (slot order)
    /// and the world time since the last call, and hands them to `observe`.
    fn observe_world_with<B: Broadphase, S: Stepper>(
        &mut self,
        world: &World<B, S>,
        observe: impl FnOnce(&mut Self, &[Point], &[Vector], Real) -> usize,
    ) -> usize {
        let (mut positions, mut velocities) = core::mem::take(&mut self.scratch);
        positions.clear();
        velocities.clear();
        for (_, b) in world.bodies().filter(|(_, b)| b.is_dynamic()) {
            positions.push(Point::from(b.pose().translation.vector));
            velocities.push(b.linvel());
        }
        let dt = world.time() - self.last_time;
        self.last_time = world.time();
        let new = observe(self, &positions, &velocities, dt);
        self.scratch = (positions, velocities);
        new
    }

    /// [`TunnelCounter::observe_world`] with the turns `recorder` saw in the step (see
    /// [`TunnelCounter::observe_moving_via`]), which it then forgets, ready for the next step.
    /// Give the recorder to [`World::step_with`] for every step observed this way.
    ///
    /// # Panics
    /// As [`TunnelCounter::observe_world`].
    pub fn observe_world_via<B: Broadphase, S: Stepper>(
        &mut self,
        world: &World<B, S>,
        recorder: &mut CourseRecorder,
    ) -> usize {
        let new = self.observe_world_with(world, |counter, positions, velocities, dt| {
            counter.observe_moving_via(positions, velocities, dt, &recorder.turns)
        });
        recorder.clear();
        new
    }

    /// How many bodies have tunnelled so far.
    #[inline]
    pub fn tunnelled(&self) -> usize {
        self.count
    }

    /// How many of [`TunnelCounter::tunnelled`] were counted because they left the box of
    /// the static segments or their position stopped being finite (cases 2 and 3 of the
    /// definition): the part of the count that holds whatever the bodies' paths.
    #[inline]
    pub fn escaped(&self) -> usize {
        self.escaped
    }

    /// Whether dynamic body `i` (in the scene's order of dynamic bodies) has tunnelled.
    ///
    /// # Panics
    /// If `i` is not below the number of dynamic bodies.
    #[inline]
    pub fn is_tunnelled(&self, i: usize) -> bool {
        self.tunnelled[i]
    }

    /// How many dynamic bodies the counter follows.
    #[inline]
    pub fn bodies(&self) -> usize {
        self.previous.len()
    }

    /// The columns that the horizontal extent `[lo, hi]` meets.
    fn columns_of(&self, lo: Real, hi: Real) -> core::ops::RangeInclusive<usize> {
        let last = (self.columns.len() - 1) as Real;
        let column =
            |x: Real| ((x - self.x0) / self.column_width).floor().clamp(0.0, last) as usize;
        column(lo)..=column(hi)
    }

    /// Cases 2 and 3 of the definition.
    fn outside(&self, p: Point) -> bool {
        !(p.x.is_finite() && p.y.is_finite())
            || self
                .container
                .is_some_and(|(x0, x1, y0)| p.x < x0 || p.x > x1 || p.y < y0)
    }

    /// Case 1 of the definition, for positions that are finite.
    fn crossed(&self, p_prev: Point, p0: Point, p1: Point, reach: Real) -> bool {
        let chord = p1 - p0;
        let path = chord.norm().max((p0 - p_prev).norm()).max(reach);
        self.columns[self.columns_of(p0.x.min(p1.x), p0.x.max(p1.x))]
            .iter()
            .flatten()
            .any(|&i| {
                let l = &self.lines[i as usize];
                let s0 = cross(&l.direction, &(p0 - l.a));
                let s1 = cross(&l.direction, &(p1 - l.a));
                if !((s0 > 0.0 && s1 < 0.0) || (s0 < 0.0 && s1 > 0.0)) {
                    return false;
                }
                let meet = p0 + chord * (s0 / (s0 - s1));
                let t = l.direction.dot(&(meet - l.a));
                (0.0..=l.length).contains(&t)
                    && l.open
                        .iter()
                        .flatten()
                        .all(|e| (p0 - e).norm() + (e - p1).norm() > path)
            })
    }
}

/// An [`ImpactHook`] that records where the dynamic bodies of a world are at each impact
/// inside a step, and when: the turns of their paths, for
/// [`TunnelCounter::observe_world_via`] and [`CrossingCounter::observe_world_timed`] (with
/// the stepper's stops noted, [`CourseRecorder::note_stops`]). It only reads: a step with it
/// is the step without it, bit for bit.
///
/// ```
/// use impact_broadphase::RTreeBroadphase;
/// use impact_stepper::scenes::{self, CourseRecorder, CrossingCounter, TunnelCounter};
/// use impact_stepper::{FirstTimeOfImpact, World};
///
/// let scene = scenes::rain(100, 1);
/// let (mut world, _) = scene.build::<RTreeBroadphase, FirstTimeOfImpact>()?;
/// let mut counter = TunnelCounter::new(&scene);
/// let mut crossings = CrossingCounter::new(&scene);
/// let mut recorder = CourseRecorder::new(&world);
/// for _ in 0..30 {
///     let report = world.step_with(1.0 / 60.0, &mut recorder)?;
///     recorder.note_stops(&report.stepper.stopped, &world);
///     crossings.observe_world_timed(&world, recorder.turns(), recorder.fractions());
///     counter.observe_world_via(&world, &mut recorder);
/// }
/// assert_eq!((counter.tunnelled(), crossings.crossings()), (0, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct CourseRecorder {
    /// Per body slot: its handle and its index among the world's dynamic bodies in slot
    /// order (the scene's order for a world built by [`Scene::build`]).
    dynamic: Vec<Option<(BodyHandle, usize)>>,
    /// `(dynamic body, position)` at each impact, in time order, then at each stop given to
    /// [`CourseRecorder::note_stops`].
    turns: Vec<(usize, Point)>,
    /// The fraction of the step of each of `turns`.
    fractions: Vec<Real>,
}

impl CourseRecorder {
    /// A recorder for the dynamic bodies `world` holds now.
    pub fn new<B: Broadphase, S: Stepper>(world: &World<B, S>) -> Self {
        let mut dynamic = Vec::new();
        for (i, (handle, _)) in world.bodies().filter(|(_, b)| b.is_dynamic()).enumerate() {
            let slot = handle.index as usize;
            if dynamic.len() <= slot {
                dynamic.resize(slot + 1, None);
            }
            dynamic[slot] = Some((handle, i));
        }
        Self {
            dynamic,
            turns: Vec::new(),
            fractions: Vec::new(),
        }
    }

    /// The turns recorded since the last [`TunnelCounter::observe_world_via`]:
    /// `(dynamic body, position)` in time order.
    #[inline]
    pub fn turns(&self) -> &[(usize, Point)] {
        &self.turns
    }

    /// The fraction of the step at which each of [`CourseRecorder::turns`] happened, in the
    /// same order: with them, [`CrossingCounter::observe_timed`] follows each disc along its
    /// path in time.
    #[inline]
    pub fn fractions(&self) -> &[Real] {
        &self.fractions
    }

    /// Records, after a step, where and when the bodies of `stops` stopped (a stepper's
    /// stopped or clamped bodies, such as [`FirstToiReport::stopped`](crate::FirstToiReport::stopped)):
    /// a stopped body stays where `world` has it from its fraction on, and no impact says
    /// when its course bent there.
    pub fn note_stops<B: Broadphase, S: Stepper>(
        &mut self,
        stops: &[crate::ClampedBody],
        world: &World<B, S>,
    ) {
        for stop in stops {
            let Some(&Some((known, i))) = self.dynamic.get(stop.body.index as usize) else {
                continue;
            };
            if let Some(body) = world.body(stop.body).filter(|_| known == stop.body) {
                self.turns
                    .push((i, Point::from(body.pose().translation.vector)));
                self.fractions.push(stop.fraction);
            }
        }
    }

    /// Forgets the turns recorded (done by [`TunnelCounter::observe_world_via`]).
    #[inline]
    pub fn clear(&mut self) {
        self.turns.clear();
        self.fractions.clear();
    }
}

impl ImpactHook for CourseRecorder {
    fn on_impact(&mut self, impact: &mut Impact<'_>) {
        let event = *impact.event();
        for handle in [event.a, event.b] {
            let Some(&Some((known, i))) = self.dynamic.get(handle.index as usize) else {
                continue;
            };
            if known != handle {
                continue;
            }
            if let Some(pose) = impact.pose(handle) {
                self.turns.push((i, Point::from(pose.translation.vector)));
                self.fractions.push(event.fraction);
            }
        }
    }
}

/// The diameter of the discs of [`hard_disks`] (world units).
pub const HARD_DISK_DIAMETER: Real = 1.0;

/// The side of the periodic square holding `n` discs of [`HARD_DISK_DIAMETER`] at packing
/// fraction `eta` (the fraction of the area the discs cover): `sqrt(n pi sigma^2 / (4 eta))`.
pub fn hard_disk_box_side(n: usize, eta: Real) -> Real {
    let sigma = HARD_DISK_DIAMETER;
    (n as Real * core::f64::consts::PI * sigma * sigma / (4.0 * eta)).sqrt()
}

/// The hard-disk gas: `n` equal discs (diameter 1, mass 1, restitution 1, no friction, the
/// `ccd` flag on) in a periodic square at packing fraction `eta` (in `(0, 0.75]`), without
/// gravity, with kinetic energy `n` (so `kT = 1` with `kT` the kinetic energy per disc) and
/// zero total momentum.
///
/// The discs start on a lattice of `ceil(sqrt(n))` columns, every other row shifted by half
/// a column (a triangular lattice, stretched to fill the square), each moved by a seeded
/// jitter small enough that no two overlap; velocities are seeded Gaussians, their mean
/// removed and then scaled to the kinetic energy. Run it with
/// [`hard_disk_stepper`]'s settings, which make every
/// meeting of two discs an exact elastic event.
///
/// # Errors
/// [`WorldError::OutOfRange`] naming `eta` outside `(0, 0.75]` (the lattice would overlap
/// above about 0.78), or `n` below 2.
pub fn hard_disks(n: usize, eta: Real, seed: u64) -> Result<Scene, WorldError> {
    if !(eta > 0.0 && eta <= 0.75) {
        return Err(WorldError::OutOfRange {
            field: "eta".to_owned(),
            value: eta,
            expected: "in (0, 0.75]",
        });
    }
    if n < 2 {
        return Err(WorldError::OutOfRange {
            field: "n".to_owned(),
            value: n as Real,
            expected: "at least 2",
        });
    }
    let side = hard_disk_box_side(n, eta);
    let columns = (n as Real).sqrt().ceil() as usize;
    let rows = n.div_ceil(columns);
    let (ax, ay) = (side / columns as Real, side / rows as Real);
    // Closest lattice neighbours: along a row, or to the next (shifted) row.
    let spacing = ax.min((0.25 * ax * ax + ay * ay).sqrt());
    let sigma = HARD_DISK_DIAMETER;
    // Each coordinate moves at most `jitter`, so two centres come at most 2 sqrt(2) jitter
    // closer: they stay apart.
    let jitter = 0.45 * (spacing - sigma).max(0.0) / core::f64::consts::SQRT_2;
    let mut rng = SplitMix64::new(seed);
    let mut positions = Vec::with_capacity(n);
    'rows: for row in 0..rows {
        for column in 0..columns {
            if positions.len() == n {
                break 'rows;
            }
            let shift = if row % 2 == 1 { 0.5 * ax } else { 0.0 };
            let x = (column as Real + 0.25) * ax + shift + rng.range(-jitter, jitter);
            let y = (row as Real + 0.5) * ay + rng.range(-jitter, jitter);
            positions.push(Point::new(x, y));
        }
    }
    // Box-Muller pairs of standard normals.
    let mut velocities: Vec<Vector> = (0..n)
        .map(|_| {
            let u1 = 1.0 - rng.range(0.0, 1.0);
            let u2 = rng.range(0.0, 1.0);
            let r = (-2.0 * u1.ln()).sqrt();
            let phi = core::f64::consts::TAU * u2;
            Vector::new(r * phi.cos(), r * phi.sin())
        })
        .collect();
    let mean = velocities.iter().sum::<Vector>() / n as Real;
    let mut kinetic = 0.0;
    for v in &mut velocities {
        *v -= mean;
        kinetic += 0.5 * v.norm_squared();
    }
    let scale = (n as Real / kinetic).sqrt();
    let radius = 0.5 * sigma;
    let density = 1.0 / (core::f64::consts::PI * radius * radius);
    let bodies = positions
        .iter()
        .zip(&velocities)
        .map(|(p, v)| {
            RigidBodyDef::new(Circle::new(radius).expect("a positive radius").into())
                .pose(Isometry::translation(p.x, p.y))
                .linvel(v * scale)
                .density(density)
                .restitution(1.0)
                .friction(0.0)
                .ccd(true)
        })
        .collect();
    Ok(Scene {
        name: format!("hard_disks_{n}_{eta}"),
        settings: WorldSettings {
            gravity: Vector::zeros(),
            speculative_distance: 0.0,
            domain: Domain::periodic_square(side)?,
            ..WorldSettings::default()
        },
        bodies,
    })
}

/// The [`FirstTimeOfImpact`](crate::FirstTimeOfImpact) settings for event-driven
/// simulation of perfectly elastic bodies such as [`hard_disks`]: every moving CCD body
/// planned, impacts resolved exactly at contact, every bounce honoured, no friction, and
/// neither an event cap nor Zeno detection that could resolve an impact inelastically (an
/// elastic gas has no Zeno sequences; a cap would make a big step lose time). Reaches of
/// 1.5 radii of skin ([`reach_skin`](crate::FirstTimeOfImpactSettings::reach_skin)) keep
/// the work per collision the same however long the step, so steps of several collisions
/// per disc are cheap; the collisions are those of the whole-course reach, bit for bit.
pub fn hard_disk_stepper() -> crate::FirstTimeOfImpactSettings {
    let mut settings = crate::FirstTimeOfImpactSettings::event_driven();
    settings.impact.friction = false;
    settings.max_events = usize::MAX;
    settings.max_pair_events = u32::MAX;
    settings.min_advance = 0.0;
    // Measured on the gas at eta 0.3 and 0.5: 1 to 2 radii cost within 10% of each other
    // per collision, 1.5 the least cache traffic at N = 65,536.
    settings.reach_skin = 1.5;
    settings
}
