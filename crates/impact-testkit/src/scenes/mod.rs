//! The shared scenes: one definition used by the tests, the examples and the benches, so
//! that a number in `docs/benchmarks.md` and a test assertion speak of the same bodies.
//!
//! Units are metres, kilograms and seconds. Every scene but [`bullet_through_paper`],
//! [`rain`], [`tumbling_rain`] and [`hard_disks`] rests on a static ground box whose top
//! face is the line `y = 0`; the ground is always the first body, so after [`Scene::build`]
//! its handle is `handles[0]` and the scene's bodies follow in order.
//! [`bullet_through_paper`] has no ground and no gravity: its wall is `handles[0]`, its
//! bullet `handles[1]`. [`rain`] starts with its static segments (in the order of
//! [`RainField::segments`]), then its discs, and [`tumbling_rain`] is the same with bodies of
//! four shapes that turn.
//!
//! The counters judge a run from body positions alone, so that other engines running the
//! same scene are judged the same way: [`TunnelCounter`] counts the bodies that pass through
//! static geometry (by [`impact_stepper::judge`]), [`CrossingCounter`] the pairs of discs
//! that pass through each other, and [`HungCounter`] the bodies stopped in mid-air; a
//! [`CourseRecorder`] tells the first two where impact's steppers turned bodies inside a
//! step.

use impact_broadphase::Broadphase;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Vector};
use impact_solver::{BodyHandle, RigidBodyDef};
use impact_stepper::{Stepper, World, WorldError, WorldSettings};

mod box2d_bench;
mod compound_rain;
mod crossings;
mod hard_disks;
mod hung;
mod jointed;
mod ragdoll;
mod rain;
mod recorder;
mod tunnel;

pub use box2d_bench::{
    BOX2D_RAIN_COLUMNS, BOX2D_RAIN_GROUP, BOX2D_RAIN_ROWS, BOX2D_SLEEPS, BOX2D_STEPS,
    RagdollRainSchedule, RagdollRainSpawn, SPINNER_POINTS, many_pyramids, offset_box, ragdoll_rain,
    ragdoll_rain_group, smash, spinner, tumbler,
};
pub use compound_rain::{
    COMPOUND_BAR, COMPOUND_KINDS, COMPOUND_MAX_SPIN, COMPOUND_SPAN, TERRAIN_BASE, TERRAIN_SEGMENT,
    TERRAIN_WALL_TOP, Terrain, compound_piece, compound_rain, compound_rain_terrain,
};
pub use crossings::CrossingCounter;
pub use hard_disks::{HARD_DISK_DIAMETER, hard_disk_box_side, hard_disk_stepper, hard_disks};
pub use hung::HungCounter;
pub use jointed::{JointedScene, SceneJoint, joint_grid};
pub use ragdoll::{RAGDOLL_BODIES, human, ragdoll};
pub use rain::{
    RAIN_AREA_PER_DISC, RAIN_DISC_RADIUS, RAIN_FRICTION, RAIN_MAX_ANGLE, RAIN_MAX_SPEED,
    RAIN_MIN_SPEED, RAIN_MIN_WIDTH, RAIN_RESTITUTION, RAIN_ROW_SPACING, RAIN_ROWS,
    RAIN_SEGMENT_GAP, RAIN_SEGMENT_LENGTH, RAIN_TILT, RAIN_WALL_TOP, RAIN_WIDTH_PER_DISC,
    RainField, TUMBLING_MAX_SPIN, rain, rain_field, tumbling_rain,
};
pub use recorder::CourseRecorder;
pub use tunnel::TunnelCounter;

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

/// `count` of Box2D's pyramids of `base` unit boxes (see [`pyramid`]) side by side on one
/// ground, `base + 2` apart (centre to centre), the first centred on `x = 0`:
/// `count base (base + 1) / 2` boxes that settle in their own islands. `pyramids(1000, 4)`
/// is the sleeping bench's settled world of 10,000 boxes.
pub fn pyramids(count: usize, base: usize) -> Scene {
    let pitch = (base + 2) as Real;
    let span = pitch * count as Real;
    let mut ground = ground(0.5 * span + 5.0);
    ground.pose = Isometry::translation(0.5 * span - 0.5 * pitch, -0.5);
    let mut bodies = vec![ground];
    for k in 0..count {
        let cx = k as Real * pitch;
        for row in 0..base {
            let n = base - row;
            let x0 = cx - 0.5 * (n - 1) as Real;
            let y = BOX_HALF_EXTENT + row as Real;
            bodies.extend((0..n).map(|j| unit_box(x0 + j as Real, y)));
        }
    }
    Scene {
        name: format!("pyramids_{count}x{base}"),
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
