//! The command line, parsed with lexopt.
//!
//! lexopt rather than clap: it is one small file with no dependencies, so it adds well under
//! a second to a cold build on CI's two cores, where clap with its derive brings in a
//! builder crate and a procedural macro of tens of seconds; and three subcommands with a
//! handful of options are no burden to handle by hand.

use impact_scene::{BroadphaseChoice, StepperKind};
use lexopt::prelude::*;
use std::ffi::OsString;
use std::path::PathBuf;

/// The usage text of `impact --help`.
pub const USAGE: &str = "\
usage: impact run SCENE [--stepper discrete|clamp|toi] [--broadphase rtree|sap|brute]
                        [--steps N] [--json] [--svg FILE] [--trace FILE]
       impact render TRACE (--svg FILE | --png FILE)... [--frame N] [--points N]
       impact toi QUERY [--json]
       impact ray SCENE X Y DX DY [--all] [--hollow] [--steps N] [--json]
       impact view [SCENE] [--port N] [--open] [--scenes DIR]
       impact --help | --version

  run     runs a scene file and prints a summary: steps, events, bodies that passed
          through static geometry, energy and momentum drift, a state hash, wall time;
          --svg draws the trajectories, --trace writes every step (JSON Lines)
  render  draws a trace: every body's path (the default), or the bodies after step N
          (--frame N); --points caps the points per path (default 2000)
  toi     answers one time-of-impact query file
  ray     casts a ray through a scene file's world from (X, Y) along (DX, DY), its whole
          length: the nearest shape hit (--all: every one, nearest first) with the
          distance, point and normal; --steps N runs the scene N steps first; --hollow
          lets a ray that starts in a shape leave it rather than stop at once; sensors
          are left out
  view    a live viewer in the browser: serves a page on 127.0.0.1 (the port given, or
          one the system picks, printed on start) that runs SCENE (default: a demo of
          discs and boxes) in real time; grab and throw bodies, fire bullets, switch the
          stepper live, see every impact; --open launches the browser; --scenes DIR lets
          the page load the scene files of DIR

A long run shows a progress bar when standard error is a terminal.

exit codes: 0 ok, 1 runtime failure, 2 usage or bad input";

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `impact run`.
    Run(RunArgs),
    /// `impact render`.
    Render(RenderArgs),
    /// `impact toi`.
    Toi(ToiArgs),
    /// `impact ray`.
    Ray(RayArgs),
    /// `impact view`.
    View(ViewArgs),
    /// `impact --help`.
    Help,
    /// `impact --version`.
    Version,
}

/// The arguments of `impact run`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunArgs {
    /// The scene file.
    pub scene: PathBuf,
    /// `--stepper`: overrides the scene's stepper (its shared settings carry over).
    pub stepper: Option<StepperKind>,
    /// `--broadphase`: overrides the scene's broadphase.
    pub broadphase: Option<BroadphaseChoice>,
    /// `--steps`: overrides the scene's number of steps.
    pub steps: Option<u64>,
    /// `--json`: the summary as JSON.
    pub json: bool,
    /// `--svg`: where to draw the trajectories.
    pub svg: Option<PathBuf>,
    /// `--trace`: where to write the trace.
    pub trace: Option<PathBuf>,
}

/// The arguments of `impact render`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RenderArgs {
    /// The trace file.
    pub trace: PathBuf,
    /// `--svg`: where to write the picture as SVG.
    pub svg: Option<PathBuf>,
    /// `--png`: where to write the picture as PNG.
    pub png: Option<PathBuf>,
    /// `--frame`: draw the bodies after this step instead of the paths.
    pub frame: Option<u64>,
    /// `--points`: the most points per path.
    pub points: Option<u64>,
}

/// The arguments of `impact toi`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToiArgs {
    /// The query file.
    pub query: PathBuf,
    /// `--json`: the answer as JSON.
    pub json: bool,
}

/// The arguments of `impact ray`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RayArgs {
    /// The scene file.
    pub scene: PathBuf,
    /// Where the ray starts.
    pub origin: [f64; 2],
    /// The whole ray: its direction times its length.
    pub translation: [f64; 2],
    /// `--all`: every hit, not only the nearest.
    pub all: bool,
    /// `--hollow`: a ray that starts in a shape hits it where it leaves.
    pub hollow: bool,
    /// `--steps`: steps run before the ray is cast (default 0: the scene as built).
    pub steps: u64,
    /// `--json`: the answer as JSON.
    pub json: bool,
}

/// The arguments of `impact view`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ViewArgs {
    /// The scene file (`None`: the default demo).
    pub scene: Option<PathBuf>,
    /// `--port`: the port (`0`, the default: one the system picks).
    pub port: u16,
    /// `--open`: launch the system's browser.
    pub open: bool,
    /// `--scenes`: a directory of scene files the page may load.
    pub scenes: Option<PathBuf>,
}

/// Parses the arguments (without the program name).
///
/// # Errors
/// A message for the user: an unknown subcommand or option, a missing or bad value.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, String> {
    let mut parser = lexopt::Parser::from_args(args);
    let command = match parser.next().map_err(|e| e.to_string())? {
        Some(Long("help") | Short('h')) => return Ok(Command::Help),
        Some(Long("version") | Short('V')) => return Ok(Command::Version),
        Some(Value(v)) => v.string().map_err(|e| e.to_string())?,
        Some(other) => return Err(other.unexpected().to_string()),
        None => return Err("missing command: run, render, toi, ray or view".to_owned()),
    };
    match command.as_str() {
        "run" => run_args(&mut parser).map(Command::Run),
        "render" => render_args(&mut parser).map(Command::Render),
        "toi" => toi_args(&mut parser).map(Command::Toi),
        "ray" => ray_args(&mut parser).map(Command::Ray),
        "view" => view_args(&mut parser).map(Command::View),
        "help" => Ok(Command::Help),
        other => Err(format!(
            "unknown command {other:?}: expected run, render, toi, ray or view"
        )),
    }
}

fn run_args(parser: &mut lexopt::Parser) -> Result<RunArgs, String> {
    let mut args = RunArgs::default();
    let mut scene = None;
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Long("stepper") => {
                let v = string_value(parser, "--stepper")?;
                args.stepper = Some(v.parse().map_err(|e| format!("--stepper: {e}"))?);
            }
            Long("broadphase") => {
                let v = string_value(parser, "--broadphase")?;
                args.broadphase = Some(v.parse().map_err(|e| format!("--broadphase: {e}"))?);
            }
            Long("steps") => {
                args.steps = Some(whole(parser, "--steps", "a whole number of steps")?)
            }
            Long("json") => args.json = true,
            Long("svg") => args.svg = Some(path_value(parser)?),
            Long("trace") => args.trace = Some(path_value(parser)?),
            Value(v) if scene.is_none() => scene = Some(PathBuf::from(v)),
            other => return Err(other.unexpected().to_string()),
        }
    }
    args.scene = scene.ok_or("run: missing the scene file")?;
    Ok(args)
}

fn render_args(parser: &mut lexopt::Parser) -> Result<RenderArgs, String> {
    let mut args = RenderArgs::default();
    let mut trace = None;
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Long("svg") => args.svg = Some(path_value(parser)?),
            Long("png") => args.png = Some(path_value(parser)?),
            Long("frame") => {
                args.frame = Some(whole(parser, "--frame", "a step number (0 for the start)")?)
            }
            Long("points") => {
                let n = whole(parser, "--points", "a whole number of points")?;
                if n < 2 {
                    return Err(format!("--points: must be at least 2, got {n}"));
                }
                args.points = Some(n);
            }
            Value(v) if trace.is_none() => trace = Some(PathBuf::from(v)),
            other => return Err(other.unexpected().to_string()),
        }
    }
    args.trace = trace.ok_or("render: missing the trace file")?;
    if args.svg.is_none() && args.png.is_none() {
        return Err("render: give --svg FILE or --png FILE (or both)".to_owned());
    }
    Ok(args)
}

fn toi_args(parser: &mut lexopt::Parser) -> Result<ToiArgs, String> {
    let mut args = ToiArgs::default();
    let mut query = None;
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Long("json") => args.json = true,
            Value(v) if query.is_none() => query = Some(PathBuf::from(v)),
            other => return Err(other.unexpected().to_string()),
        }
    }
    args.query = query.ok_or("toi: missing the query file")?;
    Ok(args)
}

fn view_args(parser: &mut lexopt::Parser) -> Result<ViewArgs, String> {
    let mut args = ViewArgs::default();
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Long("port") => {
                let v = string_value(parser, "--port")?;
                args.port = v.parse().map_err(|_| {
                    format!("--port: must be a port number (0 to 65535), got {v:?}")
                })?;
            }
            Long("open") => args.open = true,
            Long("scenes") => args.scenes = Some(path_value(parser)?),
            Value(v) if args.scene.is_none() => args.scene = Some(PathBuf::from(v)),
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(args)
}

/// The names of `impact ray`'s numbers, in order.
const RAY_NUMBERS: [&str; 4] = ["X", "Y", "DX", "DY"];

fn ray_args(parser: &mut lexopt::Parser) -> Result<RayArgs, String> {
    let mut args = RayArgs::default();
    let mut scene = None;
    let mut numbers = Vec::new();
    loop {
        // A negative number would read as a short option: taken as a value first.
        if let Some(x) = negative_number(parser) {
            numbers.push(x);
            continue;
        }
        let Some(arg) = parser.next().map_err(|e| e.to_string())? else {
            break;
        };
        match arg {
            Long("all") => args.all = true,
            Long("hollow") => args.hollow = true,
            Long("json") => args.json = true,
            Long("steps") => {
                args.steps = whole(parser, "--steps", "a whole number of steps")?;
            }
            Value(v) if scene.is_none() => scene = Some(PathBuf::from(v)),
            Value(v) if numbers.len() < RAY_NUMBERS.len() => {
                let name = RAY_NUMBERS[numbers.len()];
                let text = v.string().map_err(|e| e.to_string())?;
                let x = text
                    .parse()
                    .map_err(|_| format!("ray: {name}: must be a number, got {text:?}"))?;
                numbers.push(x);
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    args.scene = scene.ok_or("ray: missing the scene file")?;
    let [x, y, dx, dy] = numbers[..] else {
        return Err(format!(
            "ray: give the origin and the whole ray as X Y DX DY, got {} number{}",
            numbers.len(),
            if numbers.len() == 1 { "" } else { "s" }
        ));
    };
    args.origin = [x, y];
    args.translation = [dx, dy];
    Ok(args)
}

/// The next argument if it is a negative number (`-3`, `-0.5`, `-1e3`), consumed.
fn negative_number(parser: &mut lexopt::Parser) -> Option<f64> {
    let mut raw = parser.try_raw_args()?;
    let arg = raw.peek()?.to_str()?;
    if !arg.starts_with('-') || arg.starts_with("--") {
        return None;
    }
    let x = arg.parse().ok()?;
    raw.next();
    Some(x)
}

/// The value of an option that names a file.
fn path_value(parser: &mut lexopt::Parser) -> Result<PathBuf, String> {
    Ok(parser.value().map_err(|e| e.to_string())?.into())
}

/// The value of an option that is a count (`what` says what it must be, for the message).
fn whole(parser: &mut lexopt::Parser, option: &str, what: &str) -> Result<u64, String> {
    let v = string_value(parser, option)?;
    v.parse()
        .map_err(|_| format!("{option}: must be {what}, got {v:?}"))
}

/// The value of an option, as UTF-8.
fn string_value(parser: &mut lexopt::Parser, option: &str) -> Result<String, String> {
    parser
        .value()
        .map_err(|e| e.to_string())?
        .string()
        .map_err(|_| format!("{option}: the value is not valid UTF-8"))
}
