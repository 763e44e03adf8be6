//! `impact run --trace FILE`: the run, step by step, as JSON Lines (`docs/trace-format.md`).
//!
//! The first line is a [`TraceHeader`] holding the whole scene as a scene file, so a trace
//! is self-contained: `impact render` needs nothing else, and the scene it reads is checked
//! by the same loader as any scene file. Then one [`TraceStep`] per step. JSON Lines rather
//! than one JSON document so a trace can be written as the run goes, read a step at a time,
//! and cut with `head` or `grep` and still be readable.

use crate::run::Observer;
use impact_geometry::{Point, Real};
use impact_scene::{AnyWorld, Scene};
use impact_solver::{BodyType, ShapeId};
use impact_stepper::{EventKind, JointEvent, SensorEvent};
use serde::{Deserialize, Serialize};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The `format` of a trace's header.
pub const TRACE_FORMAT: &str = "impact-trace";
/// The version of the trace format this tool writes and reads.
pub const TRACE_VERSION: u32 = 1;

/// The first line of a trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceHeader {
    /// Always [`TRACE_FORMAT`].
    pub format: String,
    /// [`TRACE_VERSION`].
    pub version: u32,
    /// The scene file the run read, as given on the command line.
    pub scene_file: String,
    /// The step length (seconds).
    pub dt: Real,
    /// The number of steps the run was to take (a failed run has fewer lines).
    pub steps: u64,
    /// The scene as run (after `--stepper`, `--broadphase` and `--steps`), as a scene file:
    /// every body's shape, type, flags and starting state. Body `i` is `id` `i` below.
    pub scene: serde_json::Value,
}

/// One moving body after a step.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TraceBody {
    /// The body's index in the scene's `bodies`.
    pub id: u32,
    /// Position of the body frame's origin.
    pub x: Real,
    /// Position of the body frame's origin.
    pub y: Real,
    /// Angle (radians, in `(-pi, pi]`).
    pub angle: Real,
    /// Velocity of the centre of mass, `[x, y]`.
    pub linvel: [Real; 2],
    /// Angular velocity (radians per second).
    pub angvel: Real,
}

/// One collision event of a step (an impact the stepper resolved inside it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceEvent {
    /// Absolute simulated time of the impact (seconds).
    pub time: Real,
    /// When in the step, as a fraction of `dt`.
    pub fraction: Real,
    /// The first body's id (the smaller).
    pub a: u32,
    /// The second body's id.
    pub b: u32,
    /// `"impact"` or `"zeno_handover"`.
    pub kind: String,
    /// The contact point (world).
    pub point: [Real; 2],
    /// The unit normal from `a` toward `b`.
    pub normal: [Real; 2],
    /// How fast the bodies were closing along the normal before the impact.
    pub approach_speed: Real,
    /// Where the centres of mass of `a` and `b` were at the impact (`null` for a body that is
    /// not dynamic), so that a reader can follow a path that turned here. Optional, so that
    /// traces written without it load too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub centres: Option<[Option<[Real; 2]>; 2]>,
}

/// The shape indices of an event's two bodies (`[a's, b's]`, each its place in its body's
/// list of shapes), or `None` when both are 0: left out of the line then, as for every event
/// between bodies of one shape, and a trace written without them reads as all zeros.
pub type TraceShapes = Option<[u32; 2]>;

/// The [`TraceShapes`] of shapes `a` and `b`.
fn shapes_of(a: ShapeId, b: ShapeId) -> TraceShapes {
    (a.index > 0 || b.index > 0).then_some([a.index, b.index])
}

/// Two bodies that began touching (a contact point within the linear slop).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceContact {
    /// The first body's id (the smaller).
    pub a: u32,
    /// The second body's id.
    pub b: u32,
    /// Which of their shapes touch (see [`TraceShapes`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shapes: TraceShapes,
    /// Absolute simulated time (seconds): the start of the step whose contacts touched.
    pub time: Real,
    /// The contact points (world), midway between the surfaces.
    pub points: Vec<[Real; 2]>,
    /// The unit normal from `a` toward `b`.
    pub normal: [Real; 2],
}

/// Two bodies that stopped touching.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TraceContactEnd {
    /// The first body's id (the smaller).
    pub a: u32,
    /// The second body's id.
    pub b: u32,
    /// Which of their shapes stopped touching (see [`TraceShapes`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shapes: TraceShapes,
    /// Absolute simulated time (seconds).
    pub time: Real,
}

/// The normal force between two bodies over a step, above their threshold.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TraceForce {
    /// The first body's id (the smaller).
    pub a: u32,
    /// The second body's id.
    pub b: u32,
    /// Which of their shapes (see [`TraceShapes`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shapes: TraceShapes,
    /// The step's normal impulse over its length (newtons for SI scenes).
    pub force: Real,
    /// The unit normal from `a` toward `b` of the largest impulse.
    pub normal: [Real; 2],
}

/// A body that began or ended overlapping a sensor.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TraceSensor {
    /// The sensor's body's id.
    pub sensor: u32,
    /// The other body's id.
    pub body: u32,
    /// The sensor shape and the other shape (see [`TraceShapes`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shapes: TraceShapes,
    /// Absolute simulated time (seconds).
    pub time: Real,
    /// When in the step, as a fraction of `dt`.
    pub fraction: Real,
}

/// A line of a trace after the header: the state after one step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceStep {
    /// The step (1 for the first).
    pub step: u64,
    /// Simulated time after it (seconds).
    pub time: Real,
    /// Every dynamic and kinematic body still in the world, by id (static bodies never
    /// move: they are in the header's scene).
    pub bodies: Vec<TraceBody>,
    /// The step's collision events, in time order.
    pub events: Vec<TraceEvent>,
    /// The ids of bodies removed during the step (by their `on_first_hit` reactions).
    pub removed: Vec<u32>,
    /// The joints that broke at the end of the step, by their index in the scene's
    /// `joints` (their slot in the world). Left out when empty, and traces written without
    /// it load.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joints_broken: Vec<u32>,
    /// The pairs that began touching. This and the fields below are left out when empty,
    /// and traces written without them load.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contact_begin: Vec<TraceContact>,
    /// The pairs that stopped touching.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contact_end: Vec<TraceContactEnd>,
    /// The pairs whose force passed their threshold.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contact_force: Vec<TraceForce>,
    /// The bodies that began overlapping a sensor, in time order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sensor_begin: Vec<TraceSensor>,
    /// The bodies that stopped overlapping a sensor, in time order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sensor_end: Vec<TraceSensor>,
}

/// Writes a trace as the run goes (an [`Observer`] of [`run_scene`](crate::run_scene)).
#[derive(Debug)]
pub struct TraceWriter {
    path: PathBuf,
    scene_file: String,
    out: BufWriter<std::fs::File>,
    /// Which ids were in the world after the previous step.
    alive: Vec<bool>,
}

impl TraceWriter {
    /// Creates (or truncates) the trace file at `path`; `scene_file` is recorded in the
    /// header.
    ///
    /// # Errors
    /// `path: cannot write: ...` if the file cannot be created.
    pub fn create(path: &Path, scene_file: &str) -> Result<Self, String> {
        let file = std::fs::File::create(path).map_err(|e| cannot_write(path, &e))?;
        Ok(Self {
            path: path.to_owned(),
            scene_file: scene_file.to_owned(),
            out: BufWriter::new(file),
            alive: Vec::new(),
        })
    }

    fn line<T: Serialize>(&mut self, value: &T) -> Result<(), String> {
        serde_json::to_writer(&mut self.out, value)
            .map_err(std::io::Error::from)
            .and_then(|()| self.out.write_all(b"\n"))
            .map_err(|e| cannot_write(&self.path, &e))
    }
}

fn cannot_write(path: &Path, e: &std::io::Error) -> String {
    format!("{}: cannot write: {e}", path.display())
}

impl Observer for TraceWriter {
    fn begin(&mut self, scene: &Scene, world: &dyn AnyWorld) -> Result<(), String> {
        let text = scene
            .to_json()
            .map_err(|e| format!("cannot write the scene into the trace: {e}"))?;
        let scene_value = serde_json::from_str(&text)
            .map_err(|e| format!("cannot write the scene into the trace: {e}"))?;
        self.alive = vec![false; scene.bodies.len()];
        for (h, _) in world.body_set().iter() {
            self.alive[h.index as usize] = true;
        }
        let header = TraceHeader {
            format: TRACE_FORMAT.to_owned(),
            version: TRACE_VERSION,
            scene_file: self.scene_file.clone(),
            dt: scene.dt,
            steps: scene.steps,
            scene: scene_value,
        };
        self.line(&header)
    }

    fn after_step(&mut self, step: u64, world: &dyn AnyWorld) -> Result<(), String> {
        self.after_step_with_centres(step, world, &[])
    }

    fn after_step_with_centres(
        &mut self,
        step: u64,
        world: &dyn AnyWorld,
        centres: &[[Option<Point>; 2]],
    ) -> Result<(), String> {
        let mut now = vec![false; self.alive.len()];
        let mut bodies = Vec::new();
        for (h, b) in world.body_set().iter() {
            if let Some(seen) = now.get_mut(h.index as usize) {
                *seen = true;
            }
            if b.body_type() == BodyType::Static {
                continue;
            }
            let p = b.pose();
            let v = b.linvel();
            bodies.push(TraceBody {
                id: h.index,
                x: p.translation.x,
                y: p.translation.y,
                angle: b.angle(),
                linvel: [v.x, v.y],
                angvel: b.angvel(),
            });
        }
        let removed = (0..self.alive.len())
            .filter(|&i| self.alive[i] && !now[i])
            .map(|i| i as u32)
            .collect();
        self.alive = now;
        let xy = |p: Option<Point>| p.map(|p| [p.x, p.y]);
        let events = world
            .events()
            .iter()
            .enumerate()
            .map(|(i, e)| TraceEvent {
                time: e.time,
                fraction: e.fraction,
                a: e.a.index,
                b: e.b.index,
                kind: match e.kind {
                    EventKind::Impact => "impact",
                    EventKind::ZenoHandover => "zeno_handover",
                }
                .to_owned(),
                point: [e.point().x, e.point().y],
                normal: [e.normal().x, e.normal().y],
                approach_speed: e.approach_speed(),
                centres: centres.get(i).map(|&[a, b]| [xy(a), xy(b)]),
            })
            .collect();
        let mut step = TraceStep {
            step,
            time: world.time(),
            bodies,
            events,
            removed,
            joints_broken: world
                .joint_events()
                .iter()
                .map(|e| match e {
                    JointEvent::Broken { joint, .. } => joint.index,
                })
                .collect(),
            contact_begin: Vec::new(),
            contact_end: Vec::new(),
            contact_force: Vec::new(),
            sensor_begin: Vec::new(),
            sensor_end: Vec::new(),
        };
        add_events(&mut step, world);
        self.line(&step)
    }

    fn end(&mut self) -> Result<(), String> {
        self.out.flush().map_err(|e| cannot_write(&self.path, &e))
    }
}

/// The contact and sensor events of the world's last step into `step`'s fields for them.
fn add_events(step: &mut TraceStep, world: &dyn AnyWorld) {
    let contacts = world.contact_events();
    let sensors = world.sensor_events();
    let sensed = |e: &SensorEvent| TraceSensor {
        sensor: e.sensor.body.index,
        body: e.visitor.body.index,
        shapes: shapes_of(e.sensor, e.visitor),
        time: e.time,
        fraction: e.fraction,
    };
    step.contact_begin.extend(contacts.begin().iter().map(|e| {
        TraceContact {
            a: e.a.body.index,
            b: e.b.body.index,
            shapes: shapes_of(e.a, e.b),
            time: e.time,
            points: e
                .manifold
                .points()
                .iter()
                .map(|p| [p.point.x, p.point.y])
                .collect(),
            normal: [e.manifold.normal.x, e.manifold.normal.y],
        }
    }));
    step.contact_end
        .extend(contacts.end().iter().map(|e| TraceContactEnd {
            a: e.a.body.index,
            b: e.b.body.index,
            shapes: shapes_of(e.a, e.b),
            time: e.time,
        }));
    step.contact_force
        .extend(contacts.force().iter().map(|e| TraceForce {
            a: e.a.body.index,
            b: e.b.body.index,
            shapes: shapes_of(e.a, e.b),
            force: e.force,
            normal: [e.normal.x, e.normal.y],
        }));
    step.sensor_begin.extend(sensors.begin().iter().map(sensed));
    step.sensor_end.extend(sensors.end().iter().map(sensed));
}
