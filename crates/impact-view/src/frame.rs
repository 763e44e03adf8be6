//! What the server sends the page: a [`SceneMsg`] whenever the set of bodies changes (their
//! shapes, once), and a [`Frame`] after each step or change (poses, velocities, the step's
//! impacts, the overlays asked for, the live figures); and the [`StateView`] of the
//! `/state` route, the same frame with named fields for a test.

use impact_geometry::{Point, Real};
use impact_scene::AnyWorld;
use impact_solver::{BodyType, JointKind};
use serde::Serialize;

/// One shape of a body, in the body frame: every shape is a convex core (one point for a
/// circle, two for a segment, capsule or chain segment, the corners of a polygon) inflated
/// by a radius, so the page draws them all the same way.
#[derive(Debug, Clone, Serialize)]
pub struct ShapeOut {
    /// The core's points.
    pub core: Vec<[Real; 2]>,
    /// The radius.
    pub r: Real,
}

/// One body as the scene message lists it.
#[derive(Debug, Clone, Serialize)]
pub struct BodyOut {
    /// Its slot (a body's id in frames and `/state`).
    pub id: u32,
    /// `"static"`, `"dynamic"` or `"kinematic"`.
    pub kind: &'static str,
    /// Whether the CCD steppers sweep it.
    pub ccd: bool,
    /// Whether the page fired it.
    pub bullet: bool,
    /// Whether it is a sensor (drawn hollow).
    pub sensor: bool,
    /// Its shapes.
    pub shapes: Vec<ShapeOut>,
    /// Its pose now, `[x, y, angle]` (static bodies never move).
    pub pose: [Real; 3],
}

/// The solver settings the page shows.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SettingsOut {
    /// Substeps per step.
    pub substeps: u32,
    /// Contact stiffness (Hz).
    pub contact_hertz: Real,
    /// Warm starting.
    pub warm_starting: bool,
    /// Whether bodies may sleep (`WorldSettings::sleeping`).
    pub sleeping: bool,
}

/// Sent when a scene is loaded, restarted, switched, or its bodies change.
#[derive(Debug, Clone, Serialize)]
pub struct SceneMsg {
    /// Always `"scene"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The scene's name in the catalogue.
    pub name: String,
    /// The scene's own `name` field.
    pub title: String,
    /// Why the last load failed (path and reason, as `impact run` prints it), if it did.
    pub error: Option<String>,
    /// Every scene the page may load.
    pub scenes: Vec<String>,
    /// The step (seconds).
    pub dt: Real,
    /// `"discrete"`, `"clamp"` or `"toi"`.
    pub stepper: &'static str,
    /// `"rtree"`, `"sap"` or `"brute"`.
    pub broadphase: &'static str,
    /// The solver's settings.
    pub settings: SettingsOut,
    /// Whether the world can put bodies to sleep (see `sleeping.rs`).
    pub sleeping_available: bool,
    /// Every body.
    pub bodies: Vec<BodyOut>,
}

/// One impact resolved inside the last step.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ImpactOut {
    /// Absolute simulated time (seconds).
    pub time: Real,
    /// When in the step, as a fraction of `dt`.
    pub fraction: Real,
    /// The bodies' ids.
    pub a: u32,
    /// The second body.
    pub b: u32,
    /// The contact point (world).
    pub point: [Real; 2],
    /// The unit normal from `a` toward `b`.
    pub normal: [Real; 2],
    /// How fast the bodies were closing along the normal (world units per second).
    pub speed: Real,
}

/// The swept course of one CCD body over the last step: its centre of mass at the start,
/// at each impact it took part in, and at the end.
#[derive(Debug, Clone, Serialize)]
pub struct CourseOut {
    /// The body's id.
    pub id: u32,
    /// The centres, in time order.
    pub points: Vec<[Real; 2]>,
}

/// The grab, drawn as a line from the body's anchor to the pointer.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct GrabOut {
    /// The grabbed body's id.
    pub body: u32,
    /// The anchor on the body, in world coordinates.
    pub anchor: [Real; 2],
    /// Where the pointer is.
    pub target: [Real; 2],
}

/// The live figures.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Stats {
    /// Wall time of the last step (milliseconds).
    pub ms_per_step: Real,
    /// Impacts resolved in the last step.
    pub events: usize,
    /// Impacts since the scene was loaded.
    pub events_total: u64,
    /// Time lost by the stepper in the last step (seconds, over all bodies).
    pub time_lost: Real,
    /// Dynamic bodies found passing through static geometry since the scene was loaded
    /// (the criterion of `PassThroughDetector`).
    pub passed_through: usize,
    /// Kinetic plus gravitational potential energy of the dynamic bodies, the potential
    /// counted from `y = 0`.
    pub energy: Real,
    /// Bodies in the world.
    pub bodies: usize,
}

/// One frame.
#[derive(Debug, Clone, Serialize)]
pub struct Frame {
    /// Always `"frame"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The scene message this frame's ids refer to.
    pub scene_seq: u64,
    /// Steps taken.
    pub step: u64,
    /// Simulated time (seconds).
    pub time: Real,
    /// The step (seconds).
    pub dt: Real,
    /// Whether stepping is paused.
    pub paused: bool,
    /// The slow-motion factor.
    pub speed: Real,
    /// The stepper.
    pub stepper: &'static str,
    /// The broadphase.
    pub broadphase: &'static str,
    /// Every body that is not static: `[id, x, y, angle, vx, vy, angvel]`, the velocity
    /// that of the centre of mass.
    pub bodies: Vec<[Real; 7]>,
    /// The impacts of the last step.
    pub impacts: Vec<ImpactOut>,
    /// The courses of the CCD bodies over the last step (when asked for).
    pub courses: Vec<CourseOut>,
    /// Contact points and normals `[x, y, nx, ny]` of the pairs touching now (when asked for).
    pub contacts: Vec<[Real; 4]>,
    /// Broadphase boxes `[min x, min y, max x, max y]` (when asked for).
    pub boxes: Vec<[Real; 4]>,
    /// The ids of sleeping bodies (see `sleeping.rs`).
    pub sleeping: Vec<u32>,
    /// Every joint but the grab's mouse joint: its anchors on A and on B, in world
    /// coordinates, `[ax, ay, bx, by]`.
    pub joints: Vec<[Real; 4]>,
    /// The grab, if any.
    pub grab: Option<GrabOut>,
    /// The live figures.
    pub stats: Stats,
}

/// The anchors of every joint of `world` that is not a mouse joint (see [`Frame::joints`]).
pub fn joints_of(world: &dyn AnyWorld) -> Vec<[Real; 4]> {
    let bodies = world.body_set();
    world
        .joints()
        .iter()
        .filter(|(_, j)| !matches!(j.kind(), JointKind::Mouse(_)))
        .filter_map(|(_, j)| {
            let a = bodies.get(j.body_a())?.pose() * j.def().local_anchor_a;
            let b = bodies.get(j.body_b())?.pose() * j.def().local_anchor_b;
            Some([a.x, a.y, b.x, b.y])
        })
        .collect()
}

/// `[x, y]` of a point.
pub fn xy(p: Point) -> [Real; 2] {
    [p.x, p.y]
}

/// The scene message's bodies: every body of `world`, with `bullet` telling which the page
/// fired.
pub fn bodies_of(world: &dyn AnyWorld, bullet: impl Fn(u32) -> bool) -> Vec<BodyOut> {
    world
        .body_set()
        .iter()
        .map(|(h, b)| BodyOut {
            id: h.index,
            kind: match b.body_type() {
                BodyType::Static => "static",
                BodyType::Dynamic => "dynamic",
                BodyType::Kinematic => "kinematic",
            },
            ccd: b.ccd(),
            bullet: bullet(h.index),
            sensor: b.has_sensor(),
            shapes: b
                .shapes()
                .iter()
                .map(|s| ShapeOut {
                    core: s.shape().core().iter().map(|p| xy(*p)).collect(),
                    r: s.shape().radius(),
                })
                .collect(),
            pose: [
                b.pose().translation.vector.x,
                b.pose().translation.vector.y,
                b.angle(),
            ],
        })
        .collect()
}

/// The frame's bodies: every body that is not static.
pub fn moving_bodies(world: &dyn AnyWorld) -> Vec<[Real; 7]> {
    world
        .body_set()
        .iter()
        .filter(|(_, b)| b.body_type() != BodyType::Static)
        .map(|(h, b)| {
            let t = b.pose().translation.vector;
            let v = b.linvel();
            [
                Real::from(h.index),
                t.x,
                t.y,
                b.angle(),
                v.x,
                v.y,
                b.angvel(),
            ]
        })
        .collect()
}

/// One body of `/state`.
#[derive(Debug, Serialize)]
pub struct BodyState {
    /// Its id.
    pub id: u32,
    /// Position of the body frame's origin.
    pub x: Real,
    /// Position of the body frame's origin.
    pub y: Real,
    /// Angle (radians).
    pub angle: Real,
    /// Velocity of the centre of mass.
    pub linvel: [Real; 2],
    /// Angular velocity (radians per second).
    pub angvel: Real,
}

/// What `/state` returns: the last frame's step, time and bodies with named fields, its
/// impacts and figures, the solver's settings, and the scene's name and load error.
#[derive(Debug, Serialize)]
pub struct StateView<'a> {
    /// The scene's name in the catalogue.
    pub scene: &'a str,
    /// The last load error, if any.
    pub error: Option<&'a str>,
    /// Steps taken.
    pub step: u64,
    /// Simulated time (seconds).
    pub time: Real,
    /// The step (seconds).
    pub dt: Real,
    /// Whether paused.
    pub paused: bool,
    /// The stepper.
    pub stepper: &'static str,
    /// The broadphase.
    pub broadphase: &'static str,
    /// Every body that is not static.
    pub bodies: Vec<BodyState>,
    /// The last step's impacts.
    pub impacts: &'a [ImpactOut],
    /// The live figures.
    pub stats: Stats,
    /// The grab.
    pub grab: Option<GrabOut>,
    /// The solver's settings in force.
    pub settings: SettingsOut,
    /// The ids of the bodies asleep.
    pub sleeping: &'a [u32],
}

impl<'a> StateView<'a> {
    /// The view of `frame` in `scene`.
    pub fn new(frame: &'a Frame, scene: &'a SceneMsg) -> Self {
        Self {
            scene: &scene.name,
            error: scene.error.as_deref(),
            step: frame.step,
            time: frame.time,
            dt: frame.dt,
            paused: frame.paused,
            stepper: frame.stepper,
            broadphase: frame.broadphase,
            bodies: frame
                .bodies
                .iter()
                .map(|b| BodyState {
                    id: b[0] as u32,
                    x: b[1],
                    y: b[2],
                    angle: b[3],
                    linvel: [b[4], b[5]],
                    angvel: b[6],
                })
                .collect(),
            impacts: &frame.impacts,
            stats: frame.stats,
            grab: frame.grab,
            settings: scene.settings,
            sleeping: &frame.sleeping,
        }
    }
}
