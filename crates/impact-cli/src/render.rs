//! `impact render`: a trace (`impact run --trace`) drawn as trajectories or as one frame.

use crate::joint_marks::DrawnJoint;
use crate::picture::Picture;
use crate::trace::{TRACE_FORMAT, TRACE_VERSION, TraceHeader, TraceStep};
use crate::trajectories::{Trajectories, title};
use impact_geometry::{Isometry, Point, Vector};
use impact_scene::Scene;
use impact_solver::{BodyHandle, BodySet};
use impact_stepper::judge::PassThroughDetector;
use std::io::BufRead;

/// What to draw of a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum View {
    /// Every moving body's path, and where it ended.
    Trajectories,
    /// The bodies after this step (0 for the start).
    Frame(u64),
}

/// The picture of the trace read from `input`, at most `max_points` points per path.
///
/// The trace's bodies are replayed into a [`BodySet`] built from the header's scene, and
/// recorded by the same [`Trajectories`] as `impact run --svg` uses, so the two pictures of
/// a run agree.
///
/// # Errors
/// `line N: why` for a line that is not JSON of the trace format, a header that is not a
/// trace's or whose scene is refused (with the scene's path of the bad field), a body id the
/// scene does not have, a pose that is not finite, or a frame past the trace's end.
pub(crate) fn picture(input: impl BufRead, view: View, max_points: u64) -> Result<Picture, String> {
    let mut lines = input.lines().enumerate().map(|(i, line)| (i + 1, line));
    let read = |(n, line): (usize, std::io::Result<String>)| {
        line.map(|l| (n, l))
            .map_err(|e| format!("line {n}: cannot read: {e}"))
    };
    let (_, first) = lines
        .next()
        .map(read)
        .transpose()?
        .ok_or("empty: a trace starts with its header line")?;
    let (header, scene) = read_header(&first)?;
    let mut bodies = BodySet::new();
    let handles: Vec<BodyHandle> = scene
        .bodies
        .iter()
        .enumerate()
        .map(|(i, def)| {
            bodies
                .insert(def.clone())
                .map_err(|e| format!("line 1: scene.bodies[{i}]: {e}"))
        })
        .collect::<Result<_, _>>()?;
    let mut recorder = Trajectories::with_max_points(max_points);
    recorder.set_domain(scene.settings.domain);
    recorder.set_joints(drawn_joints(&scene));
    let steps = match view {
        View::Trajectories => header.steps,
        View::Frame(n) => n,
    };
    recorder.begin(&bodies, steps);
    // The same criterion as `impact run`'s summary, so its bodies are drawn in red here too.
    let mut detector = PassThroughDetector::new(&bodies);
    let mut last = 0;
    if view != View::Frame(0) {
        for line in lines {
            let (n, text) = read(line)?;
            if text.trim().is_empty() {
                continue;
            }
            let step: TraceStep = serde_json::from_str(&text).map_err(|e| json_error(n, &e, ""))?;
            let handle = |id: u32, what: &str| {
                handles.get(id as usize).copied().ok_or_else(|| {
                    format!(
                        "line {n}: {what}: no body {id} in the scene (it has {})",
                        handles.len()
                    )
                })
            };
            for (k, b) in step.bodies.iter().enumerate() {
                let h = handle(b.id, &format!("bodies[{k}].id"))?;
                let Some(body) = bodies.get_mut(h) else {
                    return Err(format!(
                        "line {n}: bodies[{k}]: body {} was removed earlier",
                        b.id
                    ));
                };
                body.set_pose(Isometry::new(Vector::new(b.x, b.y), b.angle))
                    .map_err(|e| format!("line {n}: bodies[{k}]: {e}"))?;
            }
            for (k, &id) in step.removed.iter().enumerate() {
                bodies.remove(handle(id, &format!("removed[{k}]"))?);
            }
            recorder.remove_joints(&step.joints_broken);
            recorder.record(
                &bodies,
                step.step,
                step.events.iter().flat_map(|e| {
                    // Where each body was, if the trace says; else the contact point.
                    let at = Point::new(e.point[0], e.point[1]);
                    let [ca, cb] = e.centres.unwrap_or([None, None]);
                    let centre = |c: Option<[f64; 2]>| c.map_or(at, |[x, y]| Point::new(x, y));
                    [(e.a, centre(ca)), (e.b, centre(cb))]
                }),
            );
            // The bodies' centres at each impact, where the trace has them (traces written
            // without them are judged on chords).
            let turns: Vec<(BodyHandle, Point)> = step
                .events
                .iter()
                .filter_map(|e| Some((e, e.centres?)))
                .flat_map(|(e, [a, b])| [(e.a, a), (e.b, b)])
                .filter_map(|(id, c)| {
                    let [x, y] = c?;
                    Some((*handles.get(id as usize)?, Point::new(x, y)))
                })
                .collect();
            detector.observe_with_turns(&bodies, step.step, &turns);
            last = step.step;
            if view == View::Frame(step.step) {
                break;
            }
        }
    }
    if let View::Frame(n) = view
        && n != last
    {
        return Err(format!("--frame {n}: the trace ends at step {last}"));
    }
    let title = title(&scene, &header.scene_file);
    let flagged: Vec<u32> = detector.found().iter().map(|p| p.body.index).collect();
    Ok(match view {
        View::Trajectories => recorder.picture(title, &flagged, true),
        View::Frame(n) => recorder.picture(&format!("{title}, step {n}"), &flagged, false),
    })
}

/// The trace's header line and the scene it holds, checked.
fn read_header(first: &str) -> Result<(TraceHeader, Scene), String> {
    let header: TraceHeader =
        serde_json::from_str(first).map_err(|e| json_error(1, &e, "not a trace header: "))?;
    if header.format != TRACE_FORMAT {
        return Err(format!(
            "line 1: format: must be {TRACE_FORMAT:?}, got {:?}",
            header.format
        ));
    }
    if header.version != TRACE_VERSION {
        return Err(format!(
            "line 1: version: must be {TRACE_VERSION}, got {}",
            header.version
        ));
    }
    let scene =
        Scene::from_json(&header.scene.to_string()).map_err(|e| format!("line 1: scene.{e}"))?;
    Ok((header, scene))
}

/// The joints of `scene` to draw: joint `k` of the scene is slot `k` of its world, between
/// bodies of the slots the scene gives.
fn drawn_joints(scene: &Scene) -> Vec<DrawnJoint> {
    scene
        .joints
        .iter()
        .enumerate()
        .map(|(k, j)| {
            DrawnJoint::new(
                k as u32,
                j.bodies.map(|i| i as u32),
                [j.local_anchor_a, j.local_anchor_b],
                &j.kind,
            )
        })
        .collect()
}

/// The parser's error on line `n` of the trace, placed in the file: the parser sees one
/// line at a time, so its own "at line 1 column C" would mislead.
fn json_error(n: usize, e: &serde_json::Error, what: &str) -> String {
    let message = e.to_string();
    let message = message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(m, _)| m);
    format!("line {n} column {}: {what}{message}", e.column())
}
