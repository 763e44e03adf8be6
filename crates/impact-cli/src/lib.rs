//! # impact-cli
//!
//! The `impact` command-line tool of [impact](https://docs.rs/impact2d), a 2D physics
//! stack built around continuous collision detection: it runs scene files (see
//! `docs/scene-format.md`), draws their runs, and answers time-of-impact queries.
//!
//! ```text
//! impact run SCENE [--stepper discrete|clamp|toi] [--broadphase rtree|sap|brute]
//!                  [--steps N] [--json] [--svg FILE] [--trace FILE]
//! impact render TRACE (--svg FILE | --png FILE)... [--frame N] [--points N]
//! impact toi QUERY [--json]
//! impact ray SCENE X Y DX DY [--all] [--hollow] [--steps N] [--json]
//! impact view [SCENE] [--port N] [--open] [--scenes DIR]
//! ```
//!
//! `impact run` builds the scene's world (with the stepper, broadphase and number of steps
//! the options override), steps it to the end and prints a [`RunSummary`]: steps, collision
//! events, the joints and those that broke, time lost, the bodies that passed through static geometry (the criterion of
//! [`PassThroughDetector`](impact_stepper::judge::PassThroughDetector)), the drift of energy and
//! momentum, a state hash (FNV-1a over every body's pose and velocity bits: equal hashes,
//! identical runs) and the wall time. `--json` prints the same as JSON; `--svg FILE` draws
//! the static geometry and every moving body's path; `--trace FILE` writes the run step by
//! step as JSON Lines (`docs/trace-format.md`: a header with the scene, then every moving
//! body's pose and velocity and the step's collision events). Bodies with an
//! `on_first_hit` reaction are run with their hook ([`impact_scene::Reactions`]).
//! `impact render` draws a trace as SVG or PNG: the paths, or one frame, with the joints
//! over their bodies. `impact toi`
//! prints a [`ToiAnswer`]. `impact ray` builds the scene's world, runs it `--steps` steps
//! (none by default), casts a ray from `(X, Y)` along `(DX, DY)` (the whole ray: its length
//! is the length of that vector) through it with the world's scene queries, and prints a
//! [`RayAnswer`]: the nearest hit, or with `--all` every hit nearest first, each with the
//! body, distance, fraction, point and normal (sensors are left out; `--hollow` lets a ray
//! that starts in a shape hit where it leaves it rather than at once). `impact view` is the
//! live viewer in the browser of the `impact_view` crate (`docs/guides/viewer.md`). A run that takes more than half a second shows a progress bar on
//! standard error when that is a terminal, and nothing otherwise.
//!
//! Exit codes: 0 when the command did its work (whatever it found), 1 when a run failed
//! (a step refused, an output file that cannot be written), 2 for a usage error or a bad
//! input file. Messages go to standard error and name the file and the field:
//! `impact: scene.json: bodies[3].shape.radius: must be positive, got -1`. No input makes
//! the tool panic.
//!
//! The library behind the binary is public so the tool can be driven in-process:
//!
//! ```
//! use impact_cli::{main_with, run_scene};
//! use impact_scene::Scene;
//!
//! let scene = Scene::from_json(r#"{
//!     "gravity": [0, 0],
//!     "steps": 5,
//!     "bodies": [
//!         {"type": "static", "shape": {"type": "segment", "a": [1, -1], "b": [1, 1]}},
//!         {"shape": {"type": "circle", "radius": 0.05}, "linvel": [600, 50], "ccd": true}
//!     ]
//! }"#)?;
//! let summary = run_scene(&scene, "inline", &mut [])?;
//! assert_eq!((summary.steps, summary.events, summary.passed_through), (5, 1, 0));
//!
//! // The command line: a missing file is bad input, exit code 2, and says which file.
//! let (mut out, mut err) = (Vec::new(), Vec::new());
//! let code = main_with(["run", "no-such-scene.json"].map(Into::into), &mut out, &mut err);
//! assert_eq!(code, 2);
//! assert!(String::from_utf8(err)?.starts_with("impact: no-such-scene.json: cannot read"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod args;
mod joint_marks;
mod picture;
mod png;
mod progress;
mod ray;
mod render;
mod run;
mod svg;
mod toi;
pub mod trace;
mod trajectories;

pub use progress::{DEFAULT_DELAY, Progress};
pub use ray::{RayAnswer, RayHitOut};
pub use run::{
    ContactCounts, Drift, JointBreakEntry, JointSeparationSummary, Observer, PassThroughEntry,
    RunSummary, SensorCounts, StepFailure, VectorDrift, run_scene,
};
pub use toi::{PoseOut, ToiAnswer};
pub use trace::TraceWriter;
pub use trajectories::{DEFAULT_MAX_POINTS, Trajectories};

use args::{Command, RayArgs, RenderArgs, RunArgs, ToiArgs, ViewArgs};
use impact_scene::{MAX_STEPS, Scene, ToiQuery};
use std::ffi::OsString;
use std::io::Write;
use std::path::Path;

/// Exit code: the command did its work.
pub const EXIT_OK: u8 = 0;
/// Exit code: a run failed (a step was refused, an output could not be written).
pub const EXIT_FAILURE: u8 = 1;
/// Exit code: a usage error or a bad input file.
pub const EXIT_USAGE: u8 = 2;

/// An error to report on standard error, with its exit code.
struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    fn usage(message: impl Into<String>) -> Self {
        Self {
            code: EXIT_USAGE,
            message: message.into(),
        }
    }

    fn runtime(message: impl Into<String>) -> Self {
        Self {
            code: EXIT_FAILURE,
            message: message.into(),
        }
    }
}

/// How the tool talks to its terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// Whether a long run draws a progress bar on `err`: the binary sets it when standard
    /// error is a terminal, so a log or a pipe never gets one.
    pub progress: bool,
}

/// Runs the tool with `args` (without the program name), writing results to `out` and
/// messages to `err`, with no progress bar; returns the exit code.
pub fn main_with(
    args: impl IntoIterator<Item = OsString>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    main_with_options(args, out, err, Options::default())
}

/// [`main_with`], with the terminal's [`Options`].
pub fn main_with_options(
    args: impl IntoIterator<Item = OsString>,
    out: &mut dyn Write,
    err: &mut dyn Write,
    options: Options,
) -> u8 {
    let result = match args::parse(args) {
        Ok(Command::Run(a)) => run(&a, out, err, options),
        Ok(Command::Render(a)) => render(&a),
        Ok(Command::Toi(a)) => toi(&a, out),
        Ok(Command::Ray(a)) => ray(&a, out),
        Ok(Command::View(a)) => view(&a),
        Ok(Command::Help) => writeln!(out, "{}", args::USAGE)
            .map_err(|e| Failure::runtime(format!("cannot write the output: {e}"))),
        Ok(Command::Version) => writeln!(out, "impact {}", env!("CARGO_PKG_VERSION"))
            .map_err(|e| Failure::runtime(format!("cannot write the output: {e}"))),
        Err(message) => Err(Failure::usage(format!(
            "{message}\n(impact --help for usage)"
        ))),
    };
    match result {
        Ok(()) => EXIT_OK,
        Err(f) => {
            // Nothing more can be done if standard error is gone; the code still says it.
            let _ = writeln!(err, "impact: {}", f.message);
            f.code
        }
    }
}

/// The file's bytes, or a usage failure naming it.
fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure::usage(format!("{}: cannot read: {e}", path.display())))
}

/// Writes an output file, or a runtime failure naming it.
fn write(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    std::fs::write(path, bytes)
        .map_err(|e| Failure::runtime(format!("{}: cannot write: {e}", path.display())))
}

fn run(
    a: &RunArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
    options: Options,
) -> Result<(), Failure> {
    let name = a.scene.display().to_string();
    let mut scene = Scene::from_json_slice(&read(&a.scene)?)
        .map_err(|e| Failure::usage(format!("{name}: {e}")))?;
    if let Some(kind) = a.stepper {
        scene = scene.with_stepper(kind);
    }
    if let Some(broadphase) = a.broadphase {
        scene.broadphase = broadphase;
    }
    if let Some(steps) = a.steps {
        if steps > MAX_STEPS {
            return Err(Failure::usage(format!(
                "--steps: must be at most {MAX_STEPS}, got {steps}"
            )));
        }
        scene.steps = steps;
    }
    let mut trajectories = a.svg.as_ref().map(|_| Trajectories::default());
    let mut trace = match &a.trace {
        Some(path) => Some(TraceWriter::create(path, &name).map_err(Failure::runtime)?),
        None => None,
    };
    let mut progress = options.progress.then(|| Progress::new(err, DEFAULT_DELAY));
    let mut observers: Vec<&mut dyn Observer> = Vec::new();
    if let Some(t) = trajectories.as_mut() {
        observers.push(t);
    }
    if let Some(t) = trace.as_mut() {
        observers.push(t);
    }
    if let Some(p) = progress.as_mut() {
        observers.push(p);
    }
    let summary = run_scene(&scene, &name, &mut observers)
        .map_err(|e| Failure::runtime(format!("{name}: {e}")))?;
    drop(observers);
    let text = if a.json {
        serde_json::to_string_pretty(&summary)
            .map_err(|e| Failure::runtime(format!("cannot write the summary: {e}")))?
    } else {
        summary.to_string()
    };
    writeln!(out, "{text}")
        .map_err(|e| Failure::runtime(format!("cannot write the output: {e}")))?;
    if let (Some(path), Some(t)) = (&a.svg, &trajectories) {
        let flagged: Vec<u32> = summary.pass_throughs.iter().map(|p| p.body).collect();
        write(
            path,
            t.to_svg(trajectories::title(&scene, &name), &flagged)
                .as_bytes(),
        )?;
    }
    Ok(())
}

fn render(a: &RenderArgs) -> Result<(), Failure> {
    let name = a.trace.display().to_string();
    let file = std::fs::File::open(&a.trace)
        .map_err(|e| Failure::usage(format!("{name}: cannot read: {e}")))?;
    let view = match a.frame {
        Some(n) => render::View::Frame(n),
        None => render::View::Trajectories,
    };
    let picture = render::picture(
        std::io::BufReader::new(file),
        view,
        a.points.unwrap_or(DEFAULT_MAX_POINTS),
    )
    .map_err(|e| Failure::usage(format!("{name}: {e}")))?;
    if let Some(path) = &a.svg {
        write(path, svg::write(&picture).as_bytes())?;
    }
    if let Some(path) = &a.png {
        let bytes = png::write(&picture)
            .map_err(|e| Failure::runtime(format!("{}: cannot encode: {e}", path.display())))?;
        write(path, &bytes)?;
    }
    Ok(())
}

fn toi(a: &ToiArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let name = a.query.display().to_string();
    let bytes = read(&a.query)?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| Failure::usage(format!("{name}: not UTF-8: {e}")))?;
    let query = ToiQuery::from_json(text).map_err(|e| Failure::usage(format!("{name}: {e}")))?;
    let answer = ToiAnswer::of(&query);
    let text = if a.json {
        serde_json::to_string_pretty(&answer)
            .map_err(|e| Failure::runtime(format!("cannot write the answer: {e}")))?
    } else {
        answer.to_string()
    };
    writeln!(out, "{text}").map_err(|e| Failure::runtime(format!("cannot write the output: {e}")))
}

/// Serves the viewer until the process ends; only a port that cannot be bound returns.
fn view(a: &ViewArgs) -> Result<(), Failure> {
    impact_view::serve(impact_view::ViewConfig {
        scene: a.scene.clone(),
        port: a.port,
        open: a.open,
        scenes: a.scenes.clone(),
    })
    .map_err(Failure::runtime)
}

fn ray(a: &RayArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let name = a.scene.display().to_string();
    let scene = Scene::from_json_slice(&read(&a.scene)?)
        .map_err(|e| Failure::usage(format!("{name}: {e}")))?;
    if a.steps > MAX_STEPS {
        return Err(Failure::usage(format!(
            "--steps: must be at most {MAX_STEPS}, got {}",
            a.steps
        )));
    }
    let mut world = scene
        .build()
        .map_err(|e| Failure::usage(format!("{name}: {e}")))?;
    for step in 0..a.steps {
        world
            .step(scene.dt)
            .map_err(|e| Failure::runtime(format!("{name}: step {step}: {e}")))?;
    }
    let answer = RayAnswer::cast(world.as_ref(), a.origin, a.translation, a.all, a.hollow)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let text = if a.json {
        serde_json::to_string_pretty(&answer)
            .map_err(|e| Failure::runtime(format!("cannot write the answer: {e}")))?
    } else {
        answer.to_string()
    };
    writeln!(out, "{text}").map_err(|e| Failure::runtime(format!("cannot write the output: {e}")))
}
