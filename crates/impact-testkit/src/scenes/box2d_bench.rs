//! Box2D v3's benchmark scenes (`shared/benchmarks.c`, run by `benchmark/main.c`), rebuilt
//! body for body: [`many_pyramids`], [`tumbler`], [`spinner`], [`smash`] and the [`ragdoll_rain`] of
//! ragdolls with its spawn schedule ([`RagdollRainSchedule`]). The large pyramid is
//! [`pyramid`](super::pyramid)`(100)` and the joint grid [`joint_grid`](super::joint_grid)`(100)`.
//!
//! Every value is Box2D's: its default shape (density 1, friction 0.6, restitution 0, the
//! default filter), gravity (0, -10), and each scene's own sizes, densities, frictions and
//! joints; the scenes' parameters are Box2D's release-build counts, smaller values give the
//! same scene at a smaller size (Box2D's debug build does the same). Box2D computes the
//! places in f32 by the same formulas; these are f64.
//!
//! Box2D's world sweeps every dynamic body continuously against static ones (its
//! `enableContinuous`, on in its program), so every dynamic body here has `ccd` set: impact's
//! `FirstTimeOfImpact` sweeps it (`Discrete` ignores the flag).
//!
//! **Sleeping** is as Box2D's program has it ([`BOX2D_SLEEPS`]): off in the pyramids (and
//! the joint grid), on in the tumbler, spinner, smash and rain, with Box2D's per-body
//! settings (the human's sleep threshold of 0.1 m/s, the spinner's paddle never asleep); set
//! `settings.sleeping` to false for a like-for-like run against engines with sleeping off.
//! Two things Box2D's program has that a scene here cannot hold:
//! - **A block created asleep.** Smash creates its block asleep; impact creates bodies
//!   awake, so its block (at rest, each box touching its neighbours) falls asleep after
//!   [`TIME_TO_SLEEP`](impact_stepper::TIME_TO_SLEEP), 30 steps, before the box reaches it
//!   (step 69).
//! - **A body without shapes.** The tumbler's ground body in Box2D has no shape; here it has
//!   one small circle that collides with nothing (category 0, mask 0), so that the motor's
//!   joint has a static body to hold to.

use super::jointed::{JointedScene, SceneJoint};
use super::ragdoll::human;
use super::{GRAVITY, Scene};
use impact_geometry::{
    Capsule, Chain, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Vector,
};
use impact_solver::{CollisionFilter, JointKind, RevoluteJoint, RigidBodyDef, ShapeDef};
use impact_stepper::WorldSettings;
use std::f64::consts::PI;

/// Whether Box2D's benchmark program runs each scene with sleeping on (its default), by the
/// scene's name in `benchmark/main.c`.
pub const BOX2D_SLEEPS: [(&str, bool); 7] = [
    ("joint_grid", false),
    ("large_pyramid", false),
    ("many_pyramids", false),
    ("rain", true),
    ("smash", true),
    ("spinner", true),
    ("tumbler", true),
];

/// The steps Box2D's benchmark program runs each scene for, by name (`benchmark/main.c`).
pub const BOX2D_STEPS: [(&str, usize); 7] = [
    ("joint_grid", 500),
    ("large_pyramid", 500),
    ("many_pyramids", 200),
    ("rain", 1000),
    ("smash", 300),
    ("spinner", 500),
    ("tumbler", 750),
];

/// Gravity (0, -10), sleeping as Box2D's program has it for the scene.
fn settings(sleeping: bool) -> WorldSettings {
    WorldSettings {
        sleeping,
        ..WorldSettings::with_gravity(Vector::new(0.0, GRAVITY))
    }
}

/// An axis-aligned box of half extents `hx`, `hy` centred on `(cx, cy)` of the body frame
/// (Box2D's `b2MakeOffsetBox` with no turn).
pub fn offset_box(hx: Real, hy: Real, cx: Real, cy: Real) -> Shape {
    ConvexPolygon::new(&[
        Point::new(cx - hx, cy - hy),
        Point::new(cx + hx, cy - hy),
        Point::new(cx + hx, cy + hy),
        Point::new(cx - hx, cy + hy),
    ])
    .expect("a box of positive extents")
    .into()
}

/// A dynamic body of `shape`, swept continuously (see the module's note on `ccd`).
fn dynamic(shape: Shape) -> RigidBodyDef {
    RigidBodyDef::new(shape).ccd(true)
}

fn square(h: Real) -> Shape {
    offset_box(h, h, 0.0, 0.0)
}

/// A static body holding `shapes` (at least one), each with the default material and filter.
fn static_body(mut shapes: impl Iterator<Item = Shape>) -> RigidBodyDef {
    let first = shapes.next().expect("at least one shape");
    let mut def = RigidBodyDef::fixed(first);
    def.shapes = shapes.map(ShapeDef::new).collect();
    def
}

/// Box2D's "many_pyramids": `rows` x `columns` pyramids of base 10 (55 boxes of half size
/// 0.5 each, density 1, friction 0.6) on `rows` static segments of one ground body, the
/// segments 11 apart, each `11 * columns` long and centred on `x = 0`. Box2D runs 20 x 20
/// (22,000 boxes), sleeping off, 200 steps.
pub fn many_pyramids(rows: usize, columns: usize) -> Scene {
    let base = 10;
    let extent = 0.5;
    let ground_dy = 2.0 * extent * (base as Real + 1.0);
    let ground_width = 2.0 * extent * columns as Real * (base as Real + 1.0);
    let segments = (0..rows).map(|i| {
        let y = i as Real * ground_dy;
        Segment::new(
            Point::new(-0.5 * ground_width, y),
            Point::new(0.5 * ground_width, y),
        )
        .expect("a segment of positive length")
        .into()
    });
    let mut bodies = vec![static_body(segments)];
    let base_width = 2.0 * extent * base as Real;
    for i in 0..rows {
        let base_y = i as Real * ground_dy;
        for j in 0..columns {
            let center_x =
                -0.5 * ground_width + j as Real * (base_width + 2.0 * extent) + 2.0 * extent;
            for r in 0..base {
                let y = (2.0 * r as Real + 1.0) * extent + base_y;
                for c in r..base {
                    let x = (r as Real + 1.0) * extent + 2.0 * (c - r) as Real * extent + center_x
                        - 0.5;
                    bodies.push(dynamic(square(extent)).pose(Isometry::translation(x, y)));
                }
            }
        }
    }
    Scene {
        name: format!("many_pyramids_{rows}x{columns}"),
        settings: settings(false),
        bodies,
    }
}

/// A static body for a joint to hold to, which touches nothing: Box2D's shapeless ground.
fn anchor_body() -> RigidBodyDef {
    RigidBodyDef::fixed(Circle::new(0.1).expect("positive radius").into())
        .filter(CollisionFilter::new(0, 0))
}

/// Box2D's "tumbler": a dynamic hollow 20 x 20 square at `(0, 10)` (four walls 1 thick,
/// density 50, friction 0.6) turned about its centre by a revolute motor at 25 degrees per
/// second (maximum torque 1e8) to a static body, holding `grid` x `grid` boxes of half size
/// 0.125 (density 1, friction 0.6) 0.4 apart. Bodies: the anchor (see the module's note),
/// the tumbler, the boxes. Box2D runs `grid` = 45 (2,025 boxes), sleeping on, 750 steps.
pub fn tumbler(grid: usize) -> JointedScene {
    let walls = [
        (0.5, 10.0, 10.0, 0.0),
        (0.5, 10.0, -10.0, 0.0),
        (10.0, 0.5, 0.0, 10.0),
        (10.0, 0.5, 0.0, -10.0),
    ];
    let mut drum = dynamic(offset_box(0.5, 10.0, 10.0, 0.0))
        .pose(Isometry::translation(0.0, 10.0))
        .density(50.0);
    drum.shapes = walls[1..]
        .iter()
        .map(|&(hx, hy, cx, cy)| ShapeDef::new(offset_box(hx, hy, cx, cy)).density(50.0))
        .collect();
    let mut bodies = vec![anchor_body(), drum];
    let n = grid as Real;
    for i in 0..grid {
        let y = -0.2 * n + 10.0 + 0.4 * i as Real;
        for j in 0..grid {
            let x = -0.2 * n + 0.4 * j as Real;
            bodies.push(dynamic(square(0.125)).pose(Isometry::translation(x, y)));
        }
    }
    let motor: JointKind = RevoluteJoint::default()
        .motor(PI / 180.0 * 25.0, 1e8)
        .into();
    JointedScene {
        scene: Scene {
            name: format!("tumbler_{grid}"),
            settings: settings(true),
            bodies,
        },
        joints: vec![SceneJoint {
            bodies: [0, 1],
            local_anchors: [Point::new(0.0, 10.0), Point::origin()],
            kind: motor,
            reference_angle: 0.0,
        }],
    }
}

/// How many points the spinner's ring has.
pub const SPINNER_POINTS: usize = 360;

/// Box2D's "spinner": a static closed chain of [`SPINNER_POINTS`] points on a circle of
/// radius 40 about `(0, 32)`, clockwise from `(40, 32)` so that its free side is inside
/// (friction 0.1); a dynamic rounded box of core half extents 0.4 x 20 and radius 0.2 at
/// `(0, 12)` (density 1, friction 0), turned at 5 rad/s by a revolute motor of unlimited
/// torque (f32's largest value, Box2D's `FLT_MAX`) to the ring's body, never asleep; and `count` bodies
/// (density 0.25, friction 0.1, restitution 0.1) in rows 0.5 apart from `(-23, 2)`, 92 to a
/// row, in turn a capsule (core from -0.25 to 0.25 along x, radius 0.25), a circle of radius
/// 0.35 and a square of half size 0.35. Bodies: the ring, the spinner, the rest. Box2D runs
/// `count` = 6,076, sleeping on (the spinner never sleeps), 500 steps.
pub fn spinner(count: usize) -> JointedScene {
    let points: Vec<Point> = (0..SPINNER_POINTS)
        .map(|i| {
            let a = -2.0 * PI * i as Real / SPINNER_POINTS as Real;
            Point::new(40.0 * a.cos(), 40.0 * a.sin() + 32.0)
        })
        .collect();
    let chain = Chain::closed(&points).expect("a circle of distinct points");
    let mut ring = RigidBodyDef::from_chain(&chain).friction(0.1);
    for s in &mut ring.shapes {
        s.friction = 0.1;
    }
    let paddle = ConvexPolygon::rounded(
        &[
            Point::new(-0.4, -20.0),
            Point::new(0.4, -20.0),
            Point::new(0.4, 20.0),
            Point::new(-0.4, 20.0),
        ],
        0.2,
    )
    .expect("a rounded box");
    let mut paddle = dynamic(paddle.into())
        .pose(Isometry::translation(0.0, 12.0))
        .friction(0.0);
    paddle.can_sleep = false;
    let mut bodies = vec![ring, paddle];
    let capsule: Shape = Capsule::new(Point::new(-0.25, 0.0), Point::new(0.25, 0.0), 0.25)
        .expect("a capsule")
        .into();
    let circle: Shape = Circle::new(0.35).expect("positive radius").into();
    let (mut x, mut y) = (-23.0, 2.0);
    for i in 0..count {
        let shape = match i % 3 {
            0 => capsule.clone(),
            1 => circle.clone(),
            _ => square(0.35),
        };
        bodies.push(
            dynamic(shape)
                .pose(Isometry::translation(x, y))
                .density(0.25)
                .friction(0.1)
                .restitution(0.1),
        );
        x += 0.5;
        if x >= 23.0 {
            x = -23.0;
            y += 0.5;
        }
    }
    let motor: JointKind = RevoluteJoint::default()
        .motor(5.0, Real::from(f32::MAX))
        .into();
    JointedScene {
        scene: Scene {
            name: format!("spinner_{count}"),
            settings: settings(true),
            bodies,
        },
        joints: vec![SceneJoint {
            bodies: [0, 1],
            local_anchors: [Point::new(0.0, 12.0), Point::origin()],
            kind: motor,
            reference_angle: 0.0,
        }],
    }
}

/// Box2D's "smash", with no gravity: an 8 x 8 box (density 8, friction 0.6) at `(-20, 0)`
/// moving at 40 m/s along x into a block of `columns` x `rows` boxes 0.4 wide (density 1,
/// friction 0.6), each touching its neighbours, from `x = 30` and centred on `y = 0`
/// (column-major: box `i * rows + j` at `(30 + 0.4 i, 0.4 (j - rows / 2))`). Box2D creates
/// the block asleep and runs `120 x 80` (9,600 boxes), sleeping on, 300 steps.
pub fn smash(columns: usize, rows: usize) -> Scene {
    let ram = dynamic(square(4.0))
        .pose(Isometry::translation(-20.0, 0.0))
        .linvel(Vector::new(40.0, 0.0))
        .density(8.0);
    let mut bodies = vec![ram];
    let d = 0.4;
    for i in 0..columns {
        for j in 0..rows {
            let x = i as Real * d + 30.0;
            let y = (j as Real - rows as Real / 2.0) * d;
            bodies.push(dynamic(square(0.5 * d)).pose(Isometry::translation(x, y)));
        }
    }
    Scene {
        name: format!("smash_{columns}x{rows}"),
        settings: WorldSettings {
            gravity: Vector::zeros(),
            ..settings(true)
        },
        bodies,
    }
}

/// Rows of the rain's ground and of its ragdolls.
pub const BOX2D_RAIN_ROWS: usize = 5;
/// Columns of ragdoll groups before the oldest is made anew.
pub const BOX2D_RAIN_COLUMNS: usize = 40;
/// Ragdolls in a group.
pub const BOX2D_RAIN_GROUP: usize = 5;

/// Box2D's "rain": a static ground body of [`BOX2D_RAIN_ROWS`] rows 45 apart (from `y = 0`) of
/// `grid_count + 1` squares of half size 0.25 each, 0.5 apart from `x = -0.25 * grid_count`
/// (default material); the ragdolls come and go by [`RagdollRainSchedule`] and [`ragdoll_rain_group`]. Box2D
/// runs `grid_count` = 500 (2,505 squares), sleeping on, 1,000 steps.
pub fn ragdoll_rain(grid_count: usize) -> Scene {
    let size = 0.5;
    let boxes = (0..BOX2D_RAIN_ROWS).flat_map(move |i| {
        (0..=grid_count).map(move |j| {
            let x = -0.5 * grid_count as Real * size + j as Real * size;
            offset_box(0.5 * size, 0.5 * size, x, 45.0 * i as Real)
        })
    });
    Scene {
        name: format!("ragdoll_rain_{grid_count}"),
        settings: settings(true),
        bodies: vec![static_body(boxes)],
    }
}

/// The [`BOX2D_RAIN_GROUP`] ragdolls of the rain's group at `row`, `column` (Box2D's
/// `CreateGroup`): Box2D's human at scale 1 with joint friction 0.05, joint springs of 5 Hz
/// and damping ratio 0.5, the first with its feet at `(-0.5 span + (column + 0.5) span / 40,
/// 40 + 45 row)` (`span = 0.5 grid_count`) and each next 0.5 to the right, ragdoll `i` in
/// collision group `-(i + 1)` (so ragdoll `i` of one group never touches ragdoll `i` of
/// another, as in Box2D), each body with Box2D's human's sleep threshold of 0.1 m/s. Joint indices are into the returned bodies.
pub fn ragdoll_rain_group(
    grid_count: usize,
    row: usize,
    column: usize,
) -> (Vec<RigidBodyDef>, Vec<SceneJoint>) {
    let span = grid_count as Real * 0.5;
    let group_distance = span / BOX2D_RAIN_COLUMNS as Real;
    let mut at = Vector::new(
        -0.5 * span + group_distance * (column as Real + 0.5),
        40.0 + 45.0 * row as Real,
    );
    let mut bodies = Vec::new();
    let mut joints = Vec::new();
    for i in 0..BOX2D_RAIN_GROUP {
        let (b, js) = human(at, 1.0, i as i32 + 1, 0.05, 5.0, 0.5);
        let offset = bodies.len();
        bodies.extend(b.into_iter().map(|mut d| {
            d.sleep_threshold = 0.1;
            d.ccd(true)
        }));
        joints.extend(js.into_iter().map(|mut j| {
            j.bodies = j.bodies.map(|k| k + offset);
            j
        }));
        at.x += 0.5;
    }
    (bodies, joints)
}

/// What the rain does before a step: make the groups of `column` in every row, after
/// destroying the ones there if `replace`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RagdollRainSpawn {
    /// The column of groups.
    pub column: usize,
    /// Whether the column holds groups to destroy first (row by row: destroy, then create).
    pub replace: bool,
}

/// Box2D's `StepRain`: every 8 steps (steps 0, 8, 16, ...) a new column of groups in every
/// row until there are [`BOX2D_RAIN_COLUMNS`], then the oldest column destroyed and made anew.
#[derive(Debug, Clone, Default)]
pub struct RagdollRainSchedule {
    column_count: usize,
    column_index: usize,
}

impl RagdollRainSchedule {
    /// What to do before step `step` (counted from 0), if anything.
    pub fn before_step(&mut self, step: usize) -> Option<RagdollRainSpawn> {
        if step & 7 != 0 {
            return None;
        }
        if self.column_count < BOX2D_RAIN_COLUMNS {
            self.column_count += 1;
            return Some(RagdollRainSpawn {
                column: self.column_count - 1,
                replace: false,
            });
        }
        let column = self.column_index;
        self.column_index = (column + 1) % BOX2D_RAIN_COLUMNS;
        Some(RagdollRainSpawn {
            column,
            replace: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenes::RAGDOLL_BODIES;

    #[test]
    fn the_scenes_hold_box2ds_counts() {
        assert_eq!(many_pyramids(20, 20).bodies.len(), 1 + 22_000);
        assert_eq!(many_pyramids(20, 20).bodies[0].shapes.len(), 19);
        assert_eq!(tumbler(45).scene.bodies.len(), 2 + 2_025);
        let s = spinner(6076);
        assert_eq!(s.scene.bodies.len(), 2 + 6076);
        assert_eq!(s.scene.bodies[0].shapes.len(), SPINNER_POINTS - 1);
        assert_eq!(smash(120, 80).bodies.len(), 1 + 9_600);
        assert_eq!(ragdoll_rain(500).bodies[0].shapes.len(), 5 * 501 - 1);
        let (bodies, joints) = ragdoll_rain_group(500, 4, 39);
        assert_eq!(bodies.len(), BOX2D_RAIN_GROUP * RAGDOLL_BODIES);
        assert_eq!(joints.len(), BOX2D_RAIN_GROUP * (RAGDOLL_BODIES - 1));
    }

    #[test]
    fn spinner_rows_hold_92_bodies_and_stay_inside_the_ring() {
        let s = spinner(6076);
        let first_row = s.scene.bodies[2..]
            .iter()
            .filter(|b| b.pose.translation.y == 2.0)
            .count();
        assert_eq!(first_row, 92);
        for b in &s.scene.bodies[2..] {
            let t = b.pose.translation.vector;
            assert!((t - Vector::new(0.0, 32.0)).norm() < 39.0, "{t:?}");
        }
    }

    #[test]
    fn rain_schedule_fills_forty_columns_then_replaces_the_oldest() {
        let mut s = RagdollRainSchedule::default();
        let spawns: Vec<(usize, RagdollRainSpawn)> = (0..1000)
            .filter_map(|step| s.before_step(step).map(|a| (step, a)))
            .collect();
        assert_eq!(spawns.len(), 125, "steps 0, 8, ..., 992");
        assert_eq!(
            spawns[39].1,
            RagdollRainSpawn {
                column: 39,
                replace: false
            }
        );
        assert_eq!(
            spawns[40],
            (
                320,
                RagdollRainSpawn {
                    column: 0,
                    replace: true
                }
            )
        );
        assert_eq!(
            spawns[80].1,
            RagdollRainSpawn {
                column: 0,
                replace: true
            }
        );
    }
}
