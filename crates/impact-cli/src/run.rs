//! `impact run`: a scene run to the end, and its [`RunSummary`].

use impact_geometry::{Point, Real, Vector};
use impact_scene::audit::{linear_momentum, mechanical_energy};
use impact_scene::{AnyWorld, Scene};
use impact_solver::JointSeparation;
use impact_stepper::JointEvent;
use impact_stepper::judge::{PassThrough, PassThroughDetector, PassThroughKind, TurnRecorder};
use serde::Serialize;
use std::fmt;
use std::time::Instant;

/// A quantity at the start and at the end of a run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Drift {
    /// At the start.
    pub initial: Real,
    /// At the end.
    #[serde(rename = "final")]
    pub end: Real,
    /// `final - initial`.
    pub drift: Real,
    /// `drift / |initial|`, or `drift` itself when `initial` is zero.
    pub relative: Real,
}

impl Drift {
    fn new(initial: Real, end: Real) -> Self {
        let drift = end - initial;
        Self {
            initial,
            end,
            drift,
            relative: if initial == 0.0 {
                drift
            } else {
                drift / initial.abs()
            },
        }
    }
}

/// A vector quantity at the start and at the end of a run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct VectorDrift {
    /// At the start, `[x, y]`.
    pub initial: [Real; 2],
    /// At the end.
    #[serde(rename = "final")]
    pub end: [Real; 2],
    /// `|final - initial|`.
    pub drift: Real,
}

/// One body that passed through static geometry, as the summary lists it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PassThroughEntry {
    /// The dynamic body's index in the scene's `bodies`.
    pub body: u32,
    /// The static body's index in the scene's `bodies`.
    pub obstacle: u32,
    /// The step after which it was seen (1 for the first step).
    pub step: u64,
    /// `"crossed"` or `"ended_inside"` (see `docs/scene-format.md`).
    pub kind: &'static str,
    /// Whether the body has the `ccd` flag.
    pub ccd: bool,
}

/// A joint that broke, as the summary lists it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct JointBreakEntry {
    /// The joint's index in the scene's `joints`.
    pub joint: u32,
    /// Its bodies' indices in the scene's `bodies`, A's and B's.
    pub bodies: [u32; 2],
    /// The step at whose end it broke (1 for the first step).
    pub step: u64,
    /// The length of its reaction force over the step's last substep (newtons for SI
    /// scenes).
    pub force: Real,
    /// Its reaction torque (newton metres for SI scenes).
    pub torque: Real,
}

/// How far the joints were from their constraints over a run (see
/// `Joint::separation`: linear in world units, angular in radians).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct JointSeparationSummary {
    /// The largest linear separation of a joint after any step.
    pub worst_linear: Real,
    /// The step after which it was seen (1 for the first; 0 if never off).
    pub worst_linear_step: u64,
    /// The largest angular separation after any step.
    pub worst_angular: Real,
    /// The step after which it was seen.
    pub worst_angular_step: u64,
    /// The largest linear separation after the last step.
    pub end_linear: Real,
    /// The largest angular separation after the last step.
    pub end_angular: Real,
}

impl JointSeparationSummary {
    /// Takes in the joints of `world` after step `step`.
    fn observe(&mut self, world: &dyn AnyWorld, step: u64) {
        let JointSeparation { linear, angular } =
            world.joints().largest_separation(world.body_set());
        if linear > self.worst_linear {
            (self.worst_linear, self.worst_linear_step) = (linear, step);
        }
        if angular > self.worst_angular {
            (self.worst_angular, self.worst_angular_step) = (angular, step);
        }
        (self.end_linear, self.end_angular) = (linear, angular);
    }
}

/// What `impact run` reports: the text summary, or with `--json` the same as JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunSummary {
    /// The scene file, as given.
    pub scene: String,
    /// The scene's name.
    pub name: String,
    /// The stepper run (`discrete`, `clamp`, `toi`).
    pub stepper: &'static str,
    /// The broadphase run (`rtree`, `sap`, `brute`).
    pub broadphase: &'static str,
    /// The step length (seconds).
    pub dt: Real,
    /// Steps taken.
    pub steps: u64,
    /// Simulated time at the end (seconds).
    pub time: Real,
    /// Bodies at the start.
    pub bodies: usize,
    /// Dynamic bodies at the start.
    pub dynamic_bodies: usize,
    /// Dynamic bodies with the `ccd` flag at the start.
    pub ccd_bodies: usize,
    /// Bodies asleep at the end (see the world's sleeping).
    pub sleeping_bodies: usize,
    /// Joints at the start.
    pub joints: usize,
    /// The joints that broke (their reaction passed a `break_force` or `break_torque`),
    /// in the order they broke.
    pub joints_broken: Vec<JointBreakEntry>,
    /// How far the joints were from their constraints, the worst after any step and after
    /// the last (all zero without joints).
    pub joint_separation: JointSeparationSummary,
    /// Collision (hit) events over the run: impacts the stepper resolved inside steps.
    pub events: u64,
    /// Bodies removed by their `on_first_hit` reactions.
    pub removed: usize,
    /// Contact events over the run: pairs that began and stopped touching, and force
    /// events (counted only for bodies with a `contact_force_threshold`).
    pub contacts: ContactCounts,
    /// Sensor events over the run: bodies that began and stopped overlapping a sensor.
    pub sensors: SensorCounts,
    /// Simulated time the stepper lost over all bodies (seconds).
    pub time_lost: Real,
    /// How many dynamic bodies passed through static geometry.
    pub passed_through: usize,
    /// How many of those have the `ccd` flag.
    pub passed_through_ccd: usize,
    /// Each of them.
    pub pass_throughs: Vec<PassThroughEntry>,
    /// Kinetic plus potential energy of the dynamic bodies (joules for SI scenes).
    pub energy: Drift,
    /// Linear momentum of the dynamic bodies.
    pub momentum: VectorDrift,
    /// FNV-1a over every body's handle, pose and velocities at the end, as 16 hex digits.
    pub state_hash: String,
    /// Wall-clock time of the steps alone, without the observers (seconds).
    pub wall_time: Real,
}

/// The contact events of a run, counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ContactCounts {
    /// Pairs that began touching.
    pub begin: u64,
    /// Pairs that stopped touching.
    pub end: u64,
    /// Force events.
    pub force: u64,
}

/// The sensor events of a run, counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct SensorCounts {
    /// Bodies that began overlapping a sensor.
    pub begin: u64,
    /// Bodies that stopped overlapping one.
    pub end: u64,
}

/// A step that failed: the run stopped there.
#[derive(Debug, Clone, PartialEq)]
pub struct StepFailure {
    /// The step that failed (1 for the first).
    pub step: u64,
    /// Why.
    pub error: String,
}

impl fmt::Display for StepFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {}: {}", self.step, self.error)
    }
}

impl std::error::Error for StepFailure {}

/// Something that watches a run: the picture ([`Trajectories`](crate::Trajectories)), the
/// trace ([`TraceWriter`](crate::TraceWriter)), the progress bar
/// ([`Progress`](crate::Progress)).
pub trait Observer {
    /// Called once the world is built, before the first step.
    ///
    /// # Errors
    /// A message; the run stops (an output that cannot be written, say).
    fn begin(&mut self, scene: &Scene, world: &dyn AnyWorld) -> Result<(), String> {
        let _ = (scene, world);
        Ok(())
    }

    /// Called after step `step` (1 for the first).
    ///
    /// # Errors
    /// A message; the run stops.
    fn after_step(&mut self, step: u64, world: &dyn AnyWorld) -> Result<(), String>;

    /// [`after_step`](Observer::after_step), with where the bodies of each of the step's
    /// impacts were: `centres[i]` holds the centres of mass of the two bodies of
    /// `world.events()[i]` at that impact (`None` for a body that is not dynamic; see
    /// [`TurnRecorder`](impact_stepper::judge::TurnRecorder)). The run calls this one; by default it
    /// ignores the centres.
    ///
    /// # Errors
    /// A message; the run stops.
    fn after_step_with_centres(
        &mut self,
        step: u64,
        world: &dyn AnyWorld,
        centres: &[[Option<Point>; 2]],
    ) -> Result<(), String> {
        let _ = centres;
        self.after_step(step, world)
    }

    /// Called after the last step.
    ///
    /// # Errors
    /// A message; the run fails.
    fn end(&mut self) -> Result<(), String> {
        Ok(())
    }
}

/// Runs `scene` for `scene.steps` steps, with the hook of its `on_first_hit` reactions, and
/// summarises the run; `scene_path` is only reported. Each observer sees the world before
/// the first step and after every step; the time they take is not in the summary's wall
/// time.
///
/// # Errors
/// [`StepFailure`] if the scene cannot be built, a step fails (a body flung so far that its
/// box overflows, say) or an observer fails (its output cannot be written); the message
/// names the step.
pub fn run_scene(
    scene: &Scene,
    scene_path: &str,
    observers: &mut [&mut dyn Observer],
) -> Result<RunSummary, StepFailure> {
    let mut world = scene.build().map_err(|e| StepFailure {
        step: 0,
        error: e.to_string(),
    })?;
    let gravity = world.settings().gravity;
    let start = world.body_set();
    let dynamic_bodies = start.iter().filter(|(_, b)| b.is_dynamic()).count();
    let ccd_bodies = start
        .iter()
        .filter(|(_, b)| b.is_dynamic() && b.ccd())
        .count();
    let bodies = start.len();
    let joints = world.joints().len();
    let energy0 = mechanical_energy(start, gravity);
    let momentum0 = linear_momentum(start);
    let mut detector = PassThroughDetector::new(start);
    let observer_failed = |step| move |error| StepFailure { step, error };
    for o in observers.iter_mut() {
        o.begin(scene, &*world).map_err(observer_failed(0))?;
    }

    // The scene's reactions, behind a recorder of where each impact turned its bodies: the
    // detector follows bent paths leg by leg, and the trace keeps the turns.
    let mut hook = TurnRecorder::new(scene.reactions());
    let (mut events, mut removed) = (0u64, 0usize);
    let mut joints_broken = Vec::new();
    let mut joint_separation = JointSeparationSummary::default();
    let (mut contacts, mut sensors) = (ContactCounts::default(), SensorCounts::default());
    let mut time_lost = 0.0;
    let mut wall_time = 0.0;
    for step in 1..=scene.steps {
        let clock = Instant::now();
        let summary = world
            .step_with(scene.dt, &mut hook)
            .map_err(|e| StepFailure {
                step,
                error: e.to_string(),
            })?;
        wall_time += clock.elapsed().as_secs_f64();
        events += summary.events as u64;
        removed += summary.removed;
        let (c, s) = (world.contact_events(), world.sensor_events());
        contacts.begin += c.begin().len() as u64;
        contacts.end += c.end().len() as u64;
        contacts.force += c.force().len() as u64;
        sensors.begin += s.begin().len() as u64;
        sensors.end += s.end().len() as u64;
        time_lost += summary.time_lost;
        joints_broken.extend(world.joint_events().iter().map(|e| break_entry(e, step)));
        if joints > 0 {
            joint_separation.observe(&*world, step);
        }
        detector.observe_with_turns(world.body_set(), step, &hook.turns(world.events()));
        for o in observers.iter_mut() {
            o.after_step_with_centres(step, &*world, hook.centres())
                .map_err(observer_failed(step))?;
        }
        hook.clear();
    }
    for o in observers.iter_mut() {
        o.end().map_err(observer_failed(scene.steps))?;
    }

    let end = world.body_set();
    let momentum1 = linear_momentum(end);
    let pass_throughs: Vec<PassThroughEntry> =
        detector.found().iter().map(pass_through_entry).collect();
    let xy = |v: Vector| [v.x, v.y];
    Ok(RunSummary {
        scene: scene_path.to_owned(),
        name: scene.name.clone(),
        stepper: scene.stepper.kind().name(),
        broadphase: scene.broadphase.name(),
        dt: scene.dt,
        steps: world.step_count(),
        time: world.time(),
        bodies,
        dynamic_bodies,
        ccd_bodies,
        sleeping_bodies: end.asleep_len(),
        joints,
        joints_broken,
        joint_separation,
        events,
        removed,
        contacts,
        sensors,
        time_lost,
        passed_through: pass_throughs.len(),
        passed_through_ccd: pass_throughs.iter().filter(|p| p.ccd).count(),
        pass_throughs,
        energy: Drift::new(energy0, mechanical_energy(end, gravity)),
        momentum: VectorDrift {
            initial: xy(momentum0),
            end: xy(momentum1),
            drift: (momentum1 - momentum0).norm(),
        },
        state_hash: format!("{:016x}", end.state_hash()),
        wall_time,
    })
}

/// A joint event of step `step` as the summary lists it.
fn break_entry(event: &JointEvent, step: u64) -> JointBreakEntry {
    match *event {
        JointEvent::Broken {
            joint,
            body_a,
            body_b,
            force,
            torque,
        } => JointBreakEntry {
            joint: joint.index,
            bodies: [body_a.index, body_b.index],
            step,
            force: force.norm(),
            torque,
        },
    }
}

/// A pass-through as the summary lists it.
fn pass_through_entry(p: &PassThrough) -> PassThroughEntry {
    PassThroughEntry {
        body: p.body.index,
        obstacle: p.obstacle.index,
        step: p.step,
        kind: match p.kind {
            PassThroughKind::Crossed => "crossed",
            PassThroughKind::EndedInside => "ended_inside",
        },
        ccd: p.ccd,
    }
}

impl fmt::Display for RunSummary {
    /// The text summary `impact run` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = if self.name.is_empty() {
            String::new()
        } else {
            format!(" ({})", self.name)
        };
        writeln!(f, "scene           {}{name}", self.scene)?;
        writeln!(
            f,
            "stepper         {}, broadphase {}, dt {} s",
            self.stepper, self.broadphase, self.dt
        )?;
        writeln!(
            f,
            "steps           {} ({} s simulated)",
            self.steps, self.time
        )?;
        writeln!(
            f,
            "bodies          {} ({} dynamic, {} with ccd, {} asleep at the end)",
            self.bodies, self.dynamic_bodies, self.ccd_bodies, self.sleeping_bodies
        )?;
        if self.joints > 0 {
            writeln!(
                f,
                "joints          {} ({} broke)",
                self.joints,
                self.joints_broken.len()
            )?;
            for j in &self.joints_broken {
                writeln!(
                    f,
                    "                joint {} (bodies {}, {}) at step {}: force {:.3e}, torque {:.3e}",
                    j.joint, j.bodies[0], j.bodies[1], j.step, j.force, j.torque
                )?;
            }
            let sep = &self.joint_separation;
            writeln!(
                f,
                "joint error     worst {:.3e} (step {}), {:.3e} rad (step {}); at the end {:.3e}, {:.3e} rad",
                sep.worst_linear,
                sep.worst_linear_step,
                sep.worst_angular,
                sep.worst_angular_step,
                sep.end_linear,
                sep.end_angular
            )?;
        }
        writeln!(f, "events          {}", self.events)?;
        writeln!(
            f,
            "contacts        {} began, {} ended, {} force events",
            self.contacts.begin, self.contacts.end, self.contacts.force
        )?;
        if self.sensors.begin + self.sensors.end > 0 {
            writeln!(
                f,
                "sensors         {} entered, {} left",
                self.sensors.begin, self.sensors.end
            )?;
        }
        if self.removed > 0 {
            writeln!(f, "removed         {} bodies (on_first_hit)", self.removed)?;
        }
        writeln!(f, "time lost       {} s", self.time_lost)?;
        writeln!(
            f,
            "passed through  {} bodies ({} with ccd)",
            self.passed_through, self.passed_through_ccd
        )?;
        for p in &self.pass_throughs {
            writeln!(
                f,
                "                body {} through body {} at step {} ({}{})",
                p.body,
                p.obstacle,
                p.step,
                p.kind.replace('_', " "),
                if p.ccd { ", ccd" } else { "" }
            )?;
        }
        writeln!(
            f,
            "energy          {:.6e} -> {:.6e}, drift {:.3e} ({:+.3}%)",
            self.energy.initial,
            self.energy.end,
            self.energy.drift,
            100.0 * self.energy.relative
        )?;
        writeln!(
            f,
            "momentum        ({:.6e}, {:.6e}) -> ({:.6e}, {:.6e}), drift {:.3e}",
            self.momentum.initial[0],
            self.momentum.initial[1],
            self.momentum.end[0],
            self.momentum.end[1],
            self.momentum.drift
        )?;
        writeln!(f, "state hash      {}", self.state_hash)?;
        let per_step = if self.steps > 0 {
            format!(
                ", {:.3} ms per step",
                1e3 * self.wall_time / self.steps as Real
            )
        } else {
            String::new()
        };
        write!(f, "wall time       {:.3} s{per_step}", self.wall_time)
    }
}
