//! [`Trajectories`]: the static geometry, the path of every moving body's centre, and where
//! each body is at the end (or at the frame asked for), made into a [`Picture`]. Every
//! shape of a body is drawn: a body of several shapes is one outline per shape, at the
//! body's pose, and a sensor shape is drawn as sensors are (green if static, faint if it
//! moves). Joints are drawn over their bodies where the bodies are at the end
//! ([`crate::joint_marks`]); a joint that broke or lost a body is not drawn.

use crate::joint_marks::DrawnJoint;
use crate::picture::{Bounds, Colour, Item, Mark, Picture};
use crate::run::Observer;
use impact_geometry::{Isometry, Point, Shape};
use impact_scene::{AnyWorld, Scene};
use impact_solver::{BodySet, BodyType, JointSet, RigidBody};
use impact_stepper::{Domain, JointEvent};

/// The most points recorded per body by default: longer runs are sampled every few steps.
pub const DEFAULT_MAX_POINTS: u64 = 2_000;

/// The centres of the moving (dynamic and kinematic) bodies over a run, and the static
/// bodies to draw under them.
#[derive(Debug, Clone)]
pub struct Trajectories {
    /// The shapes of the static bodies: shape, its body's pose, and whether it is a sensor
    /// (drawn in green).
    statics: Vec<(Shape, Isometry, bool)>,
    /// Per moving body, in slot order.
    paths: Vec<Path>,
    max_points: u64,
    every: u64,
    /// The world's domain: a periodic one is drawn as its rectangle, and a path is broken
    /// where its body leaves through one side and comes back through the other.
    domain: Domain,
    /// The joints still in the world, in slot order.
    joints: Vec<DrawnJoint>,
    /// Per body slot, while the body is in the world and the run has joints: its pose, its
    /// centre of mass and whether it moves, at the last record.
    ends: Vec<Option<(Isometry, Point, bool)>>,
}

#[derive(Debug, Clone)]
struct Path {
    slot: u32,
    points: Vec<Point>,
    /// Where in `points` a new piece starts after a wrap through a periodic side (the first
    /// piece starts at 0 and is not listed).
    breaks: Vec<usize>,
    ccd: bool,
    /// Its shapes (each with its sensor flag), and its pose at the last record.
    end: (Vec<(Shape, bool)>, Isometry),
    /// Whether it is still in the world at the last record.
    alive: bool,
}

impl Default for Trajectories {
    fn default() -> Self {
        Self::with_max_points(DEFAULT_MAX_POINTS)
    }
}

impl Trajectories {
    /// A recorder that keeps at most about `max_points` points per body (at least 2): a run
    /// of more steps is sampled every `steps / max_points` steps, which keeps the picture
    /// small.
    pub fn with_max_points(max_points: u64) -> Self {
        Self {
            statics: Vec::new(),
            paths: Vec::new(),
            max_points: max_points.max(2),
            every: 1,
            domain: Domain::Unbounded,
            joints: Vec::new(),
            ends: Vec::new(),
        }
    }

    /// Draws the runs to come in `domain` (the plane by default).
    pub fn set_domain(&mut self, domain: Domain) {
        self.domain = domain;
    }

    /// Draws the joints `joints` in the runs to come (none by default).
    pub(crate) fn set_joints(&mut self, joints: Vec<DrawnJoint>) {
        self.joints = joints;
    }

    /// Draws the joints of `joints` in the runs to come.
    pub fn set_joint_set(&mut self, joints: &JointSet) {
        self.set_joints(
            joints
                .iter()
                .map(|(h, j)| {
                    let def = j.def();
                    DrawnJoint::new(
                        h.index,
                        [def.body_a.index, def.body_b.index],
                        [def.local_anchor_a, def.local_anchor_b],
                        &def.kind,
                    )
                })
                .collect(),
        );
    }

    /// Stops drawing the joints of slots `ids` (they broke).
    pub fn remove_joints(&mut self, ids: &[u32]) {
        self.joints.retain(|j| !ids.contains(&j.id));
    }

    /// Keeps where every body of `bodies` is, for the joints to be drawn between them.
    fn keep_ends(&mut self, bodies: &BodySet) {
        if self.joints.is_empty() {
            return;
        }
        self.ends.iter_mut().for_each(|e| *e = None);
        for (h, b) in bodies.iter() {
            let slot = h.index as usize;
            if self.ends.len() <= slot {
                self.ends.resize(slot + 1, None);
            }
            let moves = b.body_type() != BodyType::Static;
            self.ends[slot] = Some((*b.pose(), b.center_of_mass(), moves));
        }
    }

    /// Starts recording a run of `steps` steps: the static bodies, and each moving body's
    /// first point.
    pub fn begin(&mut self, bodies: &BodySet, steps: u64) {
        self.every = steps.div_ceil(self.max_points).max(1);
        self.statics = bodies
            .iter()
            .filter(|(_, b)| b.body_type() == BodyType::Static)
            .flat_map(|(_, b)| {
                shapes(b)
                    .into_iter()
                    .map(|(shape, sensor)| (shape, *b.pose(), sensor))
            })
            .collect();
        self.paths = bodies
            .iter()
            .filter(|(_, b)| b.body_type() != BodyType::Static)
            .map(|(h, b)| Path {
                slot: h.index,
                points: vec![b.center_of_mass()],
                breaks: Vec::new(),
                ccd: b.ccd(),
                end: (shapes(b), *b.pose()),
                alive: true,
            })
            .collect();
        self.keep_ends(bodies);
    }

    /// Records the bodies after step `step`, whose impacts were `hits` (body slot, contact
    /// point). A body no longer in `bodies` (removed by a reaction) keeps its path, which
    /// ends where it last hit something in the step.
    pub fn record(
        &mut self,
        bodies: &BodySet,
        step: u64,
        hits: impl IntoIterator<Item = (u32, Point)>,
    ) {
        let sample = step.is_multiple_of(self.every);
        let hits: Vec<(u32, Point)> = hits.into_iter().collect();
        // Bodies are never added during a run, so the moving bodies keep their order.
        let remove = |gone: &mut Path| {
            if gone.alive {
                gone.alive = false;
                if let Some(&(_, at)) = hits.iter().rev().find(|(slot, _)| *slot == gone.slot) {
                    gone.points.push(at);
                }
            }
        };
        let mut paths = self.paths.iter_mut().peekable();
        for (h, b) in bodies.iter() {
            while let Some(gone) = paths.next_if(|p| p.slot < h.index) {
                remove(gone);
            }
            if let Some(path) = paths.next_if(|p| p.slot == h.index) {
                let c = b.center_of_mass();
                if sample && c.x.is_finite() && c.y.is_finite() {
                    // A move longer than its minimum image went through a periodic side:
                    // drawing it would cross the whole picture.
                    if let Some(last) = path.points.last() {
                        let d = c - last;
                        if self.domain.minimum_image(d) != d {
                            path.breaks.push(path.points.len());
                        }
                    }
                    path.points.push(c);
                }
                path.end.1 = *b.pose();
            }
        }
        for gone in paths {
            remove(gone);
        }
        self.keep_ends(bodies);
        // A joint goes with either of its bodies.
        let ends = &self.ends;
        self.joints.retain(|j| {
            j.bodies
                .iter()
                .all(|&s| ends.get(s as usize).is_some_and(Option::is_some))
        });
    }

    /// The picture of the run. It frames the static geometry and the bodies' starting
    /// points (a body that flies off leaves the frame rather than shrink the scene to a
    /// dot); `flagged` lists the slots of bodies that passed through static geometry, drawn
    /// in red. With `paths` false only the bodies are drawn, where they were at the last
    /// record (a frame of the run). A body removed during the run is a faint ghost where it
    /// was last recorded on the paths picture, and absent from a frame.
    pub(crate) fn picture(&self, title: &str, flagged: &[u32], paths: bool) -> Picture {
        let mut bounds = Bounds::default();
        for (shape, pose, _) in &self.statics {
            bounds.grow_shape(shape, pose);
        }
        for path in &self.paths {
            let (shapes, pose) = &path.end;
            let aabb = shapes
                .iter()
                .map(|(s, _)| s.aabb(pose))
                .reduce(|x, y| x.merged(&y));
            if let Some(aabb) = aabb {
                bounds.grow_around(path.points[0], 0.5 * (aabb.maxs - aabb.mins).amax());
            }
        }
        let rectangle = match self.domain {
            Domain::Periodic { min, max } => {
                bounds.grow(min);
                bounds.grow(max);
                vec![
                    min,
                    Point::new(max.x, min.y),
                    max,
                    Point::new(min.x, max.y),
                    min,
                ]
            }
            Domain::Unbounded => Vec::new(),
        };
        let (lo, hi) = bounds.frame();
        let mut items: Vec<Item> = self
            .statics
            .iter()
            .map(|(shape, pose, sensor)| Item {
                mark: Mark::Outline(shape.clone(), *pose),
                colour: if *sensor {
                    Colour::SENSOR
                } else {
                    Colour::STATIC
                },
                width: 2.0,
                opacity: 1.0,
            })
            .collect();
        if !rectangle.is_empty() {
            items.push(Item {
                mark: Mark::Path(rectangle),
                colour: Colour::STATIC,
                width: 1.0,
                opacity: 0.4,
            });
        }
        for path in &self.paths {
            let colour = if flagged.contains(&path.slot) {
                Colour::FLAGGED
            } else if path.ccd {
                Colour::CCD
            } else {
                Colour::PLAIN
            };
            if paths {
                let starts = core::iter::once(0).chain(path.breaks.iter().copied());
                let ends = path.breaks.iter().copied().chain([path.points.len()]);
                for (start, end) in starts.zip(ends) {
                    if end - start > 1 {
                        items.push(Item {
                            mark: Mark::Path(path.points[start..end].to_vec()),
                            colour,
                            width: 1.0,
                            opacity: 0.6,
                        });
                    }
                }
            }
            if path.alive || paths {
                // A removed body stays as a ghost where it was last recorded; a sensor shape
                // of a moving body is drawn faint, a zone rather than a solid.
                let (shapes, pose) = &path.end;
                for (shape, sensor) in shapes {
                    let opacity = if path.alive { 1.0 } else { 0.3 };
                    items.push(Item {
                        mark: Mark::Outline(shape.clone(), *pose),
                        colour,
                        width: if path.alive { 1.5 } else { 1.0 },
                        opacity: if *sensor { 0.4 * opacity } else { opacity },
                    });
                }
            }
        }
        let mut picture = Picture {
            title: title.to_owned(),
            lo,
            hi,
            items,
        };
        let scale = picture.layout().scale;
        for joint in &self.joints {
            let [a, b] = joint
                .bodies
                .map(|s| self.ends.get(s as usize).copied().flatten());
            if let (Some(a), Some(b)) = (a, b) {
                picture.items.extend(joint.items([a, b], scale));
            }
        }
        picture
    }

    /// The picture of the run as SVG (see [`Trajectories`]): the paths, and each body where
    /// it ended.
    pub fn to_svg(&self, title: &str, flagged: &[u32]) -> String {
        crate::svg::write(&self.picture(title, flagged, true))
    }
}

/// Every shape of `body`, with its sensor flag.
fn shapes(body: &RigidBody) -> Vec<(Shape, bool)> {
    body.shapes()
        .iter()
        .map(|s| (s.shape().clone(), s.is_sensor()))
        .collect()
}

/// The title of a picture of `scene`: its name, or `file` (the scene file) if it has none.
pub(crate) fn title<'a>(scene: &'a Scene, file: &'a str) -> &'a str {
    if scene.name.is_empty() {
        file
    } else {
        &scene.name
    }
}

impl Observer for Trajectories {
    fn begin(&mut self, scene: &Scene, world: &dyn AnyWorld) -> Result<(), String> {
        self.set_domain(world.settings().domain);
        self.set_joint_set(world.joints());
        Trajectories::begin(self, world.body_set(), scene.steps);
        Ok(())
    }

    fn after_step(&mut self, step: u64, world: &dyn AnyWorld) -> Result<(), String> {
        let broken: Vec<u32> = world
            .joint_events()
            .iter()
            .map(|e| match e {
                JointEvent::Broken { joint, .. } => joint.index,
            })
            .collect();
        self.remove_joints(&broken);
        self.record(
            world.body_set(),
            step,
            world
                .events()
                .iter()
                .flat_map(|e| [(e.a.index, e.point()), (e.b.index, e.point())]),
        );
        Ok(())
    }
}
