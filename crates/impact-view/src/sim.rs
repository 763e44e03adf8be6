//! The physics thread: one world, stepped in real time (or slower, or one step at a time),
//! changed by the page's commands, published after each step or change for the page and
//! `/state`.

use crate::command::Command;
use crate::frame::{self, CourseOut, Frame, GrabOut, ImpactOut, SceneMsg, SettingsOut, Stats, xy};
use crate::scenes::Catalogue;
use crate::sleeping;
use crate::world_ops::{switched, world_mut};

mod interact;
use impact_geometry::{Point, Real, Vector};
use impact_narrowphase::contact::contact_manifold;
use impact_scene::audit::mechanical_energy;
use impact_scene::{AnyWorld, BroadphaseChoice, Reactions, Scene, StepperChoice, StepperKind};
use impact_solver::{BodyHandle, JointHandle};
use impact_stepper::WorldSettings;
use impact_stepper::judge::{PassThroughDetector, TurnRecorder};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// A fired bullet farther than this from the origin is removed (world units): at 10,000
/// units per second it is gone a second after it leaves any scene.
const BULLET_RANGE: Real = 1e4;
/// The most steps taken in one go to catch up with the wall clock; past it, time is
/// dropped (the view runs slower than real time rather than falling further behind).
const MAX_CATCH_UP: u32 = 2;

/// What the page and `/state` read: the last scene message and frame, each with a number
/// that grows when it changes.
#[derive(Debug)]
pub struct Published {
    /// The scene message.
    pub scene: Arc<SceneMsg>,
    /// Grows with each scene message.
    pub scene_seq: u64,
    /// The last frame.
    pub frame: Arc<Frame>,
    /// Grows with each frame.
    pub frame_seq: u64,
}

/// What the physics thread shares with the connections.
#[derive(Debug)]
pub struct Shared {
    /// The last published state.
    pub published: Mutex<Published>,
    /// Notified at each publication.
    pub changed: Condvar,
    /// Set to stop the physics thread.
    pub stop: AtomicBool,
}

/// A body held by the pointer.
#[derive(Debug, Clone, Copy)]
struct Grab {
    joint: JointHandle,
    body: BodyHandle,
    local: Point,
    target: Point,
}

/// The physics thread's state.
pub struct Sim {
    catalogue: Catalogue,
    name: String,
    scene: Scene,
    world: Box<dyn AnyWorld>,
    hook: TurnRecorder<Reactions>,
    detector: PassThroughDetector,
    error: Option<String>,
    settings: SettingsOut,
    paused: bool,
    speed: Real,
    overlays: [bool; 3],
    grab: Option<Grab>,
    anchor: Option<BodyHandle>,
    bullets: Vec<BodyHandle>,
    impacts: Vec<ImpactOut>,
    courses: Vec<CourseOut>,
    stats: Stats,
    scene_dirty: bool,
    scene_seq: u64,
    frame_seq: u64,
}

impl Sim {
    /// The viewer's world: the scene `name` of `catalogue`, or an empty world with the
    /// load error shown if it does not load (the error is printed on standard error).
    pub fn new(catalogue: Catalogue, name: &str) -> (Self, Arc<Shared>) {
        let scene = Scene::default();
        let world = scene
            .build()
            .unwrap_or_else(|_| unreachable!("the empty scene builds"));
        let mut sim = Self {
            catalogue,
            name: String::new(),
            detector: PassThroughDetector::new(world.body_set()),
            hook: TurnRecorder::new(scene.reactions()),
            settings: settings_of(&scene.settings),
            scene,
            world,
            error: None,
            paused: false,
            speed: 1.0,
            overlays: [true, false, false],
            grab: None,
            anchor: None,
            bullets: Vec::new(),
            impacts: Vec::new(),
            courses: Vec::new(),
            stats: Stats::default(),
            scene_dirty: true,
            scene_seq: 0,
            frame_seq: 0,
        };
        sim.load(name);
        let shared = Arc::new(Shared {
            published: Mutex::new(Published {
                scene: Arc::new(sim.scene_msg()),
                scene_seq: 0,
                frame: Arc::new(sim.frame()),
                frame_seq: 0,
            }),
            changed: Condvar::new(),
            stop: AtomicBool::new(false),
        });
        (sim, shared)
    }

    /// Runs until `shared.stop` is set or every sender of `commands` is gone.
    pub fn run(mut self, commands: &Receiver<Command>, shared: &Shared) {
        let mut last = Instant::now();
        let mut budget = 0.0;
        while !shared.stop.load(Ordering::Relaxed) {
            let dt = self.scene.dt;
            let wait = if self.paused {
                Duration::from_millis(50)
            } else {
                Duration::from_secs_f64(((dt - budget) / self.speed).clamp(0.0, 0.05))
            };
            let mut changed = false;
            match commands.recv_timeout(wait) {
                Ok(c) => changed |= self.handle(c),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
            while let Ok(c) = commands.try_recv() {
                changed |= self.handle(c);
            }
            let now = Instant::now();
            if self.paused {
                budget = 0.0;
            } else {
                budget += (now - last).as_secs_f64() * self.speed;
                let mut taken = 0;
                while budget >= dt && taken < MAX_CATCH_UP && !self.paused {
                    self.step_once();
                    budget -= dt;
                    taken += 1;
                    changed = true;
                }
                budget = budget.min(dt);
            }
            last = now;
            if changed {
                self.publish(shared);
            }
        }
    }

    /// Carries out one command; whether anything changed.
    fn handle(&mut self, command: Command) -> bool {
        let result = match command {
            Command::Play {} => {
                self.paused = false;
                Ok(())
            }
            Command::Pause {} => {
                self.paused = true;
                Ok(())
            }
            Command::Step {} => {
                self.paused = true;
                self.step_once();
                Ok(())
            }
            Command::Speed { value } => {
                self.speed = value;
                Ok(())
            }
            Command::Stepper { value } => match value.parse::<StepperKind>() {
                Ok(kind) => {
                    let choice = self.world.stepper_choice().with_kind(kind);
                    self.switch(choice, self.world.broadphase_choice())
                }
                Err(e) => Err(e.to_string()),
            },
            Command::Broadphase { value } => match value.parse::<BroadphaseChoice>() {
                Ok(b) => self.switch(self.world.stepper_choice(), b),
                Err(e) => Err(e.to_string()),
            },
            Command::Settings {
                substeps,
                contact_hertz,
                warm_starting,
                sleeping,
            } => {
                self.settings = SettingsOut {
                    substeps,
                    contact_hertz,
                    warm_starting,
                    sleeping,
                };
                self.scene_dirty = true;
                self.apply_settings()
            }
            Command::Restart {} => {
                self.restart();
                Ok(())
            }
            Command::Load { scene } => {
                self.load(&scene);
                Ok(())
            }
            Command::Grab { point } => self.grab(Point::new(point[0], point[1])),
            Command::Drag { point } => self.drag(Point::new(point[0], point[1])),
            Command::Release { velocity } => self.release(Vector::new(velocity[0], velocity[1])),
            Command::Fire {
                from,
                direction,
                speed,
                radius,
                restitution,
            } => self.fire(from, direction, speed, radius, restitution),
            Command::Overlays {
                courses,
                contacts,
                boxes,
            } => {
                self.overlays = [courses, contacts, boxes];
                Ok(())
            }
        };
        if let Err(e) = result {
            eprintln!("impact view: {e}");
        }
        true
    }

    /// Loads scene `name` with its own stepper, broadphase and settings; on failure keeps
    /// the world as it was and shows the error.
    fn load(&mut self, name: &str) {
        match self.catalogue.load(name).and_then(|s| {
            let world = s.build().map_err(|e| format!("{name}: {e}"))?;
            Ok((s, world))
        }) {
            Ok((scene, world)) => {
                self.name = name.to_owned();
                self.settings = settings_of(&scene.settings);
                self.scene = scene;
                self.error = None;
                self.reset(world);
            }
            Err(e) => {
                eprintln!("impact: {e}");
                self.error = Some(e);
                self.scene_dirty = true;
            }
        }
    }

    /// Rebuilds the scene as loaded, with the stepper, broadphase and settings in force.
    fn restart(&mut self) {
        let mut scene = self.scene.clone();
        scene.stepper = self.world.stepper_choice();
        scene.broadphase = self.world.broadphase_choice();
        match scene.build() {
            Ok(world) => {
                self.reset(world);
                if let Err(e) = self.apply_settings() {
                    eprintln!("impact view: {e}");
                }
            }
            Err(e) => {
                let e = format!("{}: {e}", self.name);
                eprintln!("impact: {e}");
                self.error = Some(e);
            }
        }
    }

    /// Starts over with `world`: no grab, no bullets, fresh figures.
    fn reset(&mut self, world: Box<dyn AnyWorld>) {
        self.world = world;
        self.hook = TurnRecorder::new(self.scene.reactions());
        self.detector = PassThroughDetector::new(self.world.body_set());
        self.grab = None;
        self.anchor = None;
        self.bullets.clear();
        self.impacts.clear();
        self.courses.clear();
        self.stats = Stats::default();
        self.scene_dirty = true;
    }

    /// The same state under another stepper or broadphase.
    fn switch(
        &mut self,
        stepper: StepperChoice,
        broadphase: BroadphaseChoice,
    ) -> Result<(), String> {
        self.world = switched(&*self.world, stepper, broadphase)?;
        self.scene_dirty = true;
        Ok(())
    }

    /// The page's settings, into the world.
    fn apply_settings(&mut self) -> Result<(), String> {
        let mut settings = *self.world.settings();
        settings.solver.substeps = self.settings.substeps;
        settings.solver.contact_hertz = self.settings.contact_hertz;
        settings.solver.warm_starting = self.settings.warm_starting;
        sleeping::set_enabled(&mut settings, self.settings.sleeping);
        world_mut(&mut *self.world)?.set_settings(settings)
    }

    /// One step, with its impacts, courses and figures recorded.
    fn step_once(&mut self) {
        let dt = self.scene.dt;
        let starts: Vec<(BodyHandle, Point)> = self
            .world
            .body_set()
            .iter()
            .filter(|(_, b)| b.is_dynamic() && b.ccd())
            .map(|(h, b)| (h, b.center_of_mass()))
            .collect();
        let clock = Instant::now();
        let summary = match self.world.step_with(dt, &mut self.hook) {
            Ok(s) => s,
            Err(e) => {
                let e = format!("{}: step {}: {e}", self.name, self.world.step_count() + 1);
                eprintln!("impact: {e}");
                self.error = Some(e);
                self.paused = true;
                self.scene_dirty = true;
                self.hook.clear();
                return;
            }
        };
        let ms = clock.elapsed().as_secs_f64() * 1e3;
        let events = self.world.events();
        self.impacts = events
            .iter()
            .map(|e| ImpactOut {
                time: e.time,
                fraction: e.fraction,
                a: e.a.index,
                b: e.b.index,
                point: xy(e.point()),
                normal: [e.normal().x, e.normal().y],
                speed: e.approach_speed(),
            })
            .collect();
        let turns = self.hook.turns(events);
        let mut legs: BTreeMap<u32, Vec<[Real; 2]>> = BTreeMap::new();
        for (h, p) in &starts {
            legs.insert(h.index, vec![xy(*p)]);
        }
        for (h, p) in &turns {
            if let Some(points) = legs.get_mut(&h.index) {
                points.push(xy(*p));
            }
        }
        let bodies = self.world.body_set();
        self.courses = starts
            .iter()
            .filter_map(|(h, _)| {
                let end = bodies.get(*h)?.center_of_mass();
                let mut points = legs.remove(&h.index)?;
                points.push(xy(end));
                Some(CourseOut {
                    id: h.index,
                    points,
                })
            })
            .collect();
        self.detector
            .observe_with_turns(bodies, self.world.step_count(), &turns);
        self.hook.clear();
        let gravity = self.world.settings().gravity;
        self.stats = Stats {
            ms_per_step: ms,
            events: summary.events,
            events_total: self.stats.events_total + summary.events as u64,
            time_lost: summary.time_lost,
            passed_through: self.detector.found().len(),
            energy: mechanical_energy(bodies, gravity),
            bodies: bodies.len(),
        };
        if summary.removed > 0 {
            self.scene_dirty = true;
        }
        self.cull_bullets();
    }

    /// Removes the bullets that left for good.
    fn cull_bullets(&mut self) {
        let bodies = self.world.body_set();
        let gone: Vec<BodyHandle> = self
            .bullets
            .iter()
            .copied()
            .filter(|h| {
                bodies
                    .get(*h)
                    .is_none_or(|b| b.center_of_mass().coords.norm() > BULLET_RANGE)
            })
            .collect();
        if gone.is_empty() {
            return;
        }
        self.bullets.retain(|h| !gone.contains(h));
        if let Ok(w) = world_mut(&mut *self.world) {
            for h in gone {
                // A bullet the scene's reactions already removed is gone either way.
                let _ = w.remove_body(h);
            }
        }
        self.scene_dirty = true;
    }

    /// The scene message for the world as it is.
    fn scene_msg(&self) -> SceneMsg {
        SceneMsg {
            kind: "scene",
            name: self.name.clone(),
            title: self.scene.name.clone(),
            error: self.error.clone(),
            scenes: self.catalogue.names(),
            dt: self.scene.dt,
            stepper: self.world.stepper_choice().kind().name(),
            broadphase: self.world.broadphase_choice().name(),
            // The world's, so the page shows what is in force.
            settings: SettingsOut {
                sleeping: self.settings.sleeping,
                ..settings_of(self.world.settings())
            },
            sleeping_available: sleeping::AVAILABLE,
            bodies: frame::bodies_of(&*self.world, |id| {
                self.bullets.iter().any(|h| h.index == id)
            }),
        }
    }

    /// The frame for the world as it is.
    fn frame(&mut self) -> Frame {
        let [courses, contacts, boxes] = self.overlays;
        let bodies = self.world.body_set();
        let grab = self.grab.and_then(|g| {
            let b = bodies.get(g.body)?;
            Some(GrabOut {
                body: g.body.index,
                anchor: xy(b.pose() * g.local),
                target: xy(g.target),
            })
        });
        let contacts = if contacts {
            self.contacts()
        } else {
            Vec::new()
        };
        let boxes = if boxes {
            world_mut(&mut *self.world)
                .map(|w| w.fat_boxes())
                .unwrap_or_default()
                .iter()
                .map(|b| [b.mins.x, b.mins.y, b.maxs.x, b.maxs.y])
                .collect()
        } else {
            Vec::new()
        };
        Frame {
            kind: "frame",
            scene_seq: self.scene_seq,
            step: self.world.step_count(),
            time: self.world.time(),
            dt: self.scene.dt,
            paused: self.paused,
            speed: self.speed,
            stepper: self.world.stepper_choice().kind().name(),
            broadphase: self.world.broadphase_choice().name(),
            bodies: frame::moving_bodies(&*self.world),
            impacts: self.impacts.clone(),
            courses: if courses {
                self.courses.clone()
            } else {
                Vec::new()
            },
            contacts,
            boxes,
            sleeping: sleeping::sleeping_ids(&mut *self.world),
            joints: frame::joints_of(&*self.world),
            grab,
            stats: self.stats,
        }
    }

    /// The contact points and normals of the pairs touching now: each pair's manifold at
    /// the bodies' current poses, up to the world's speculative distance.
    fn contacts(&mut self) -> Vec<[Real; 4]> {
        let spec = self.world.settings().speculative_distance;
        let Ok(pairs) = world_mut(&mut *self.world).map(|w| w.touching()) else {
            return Vec::new();
        };
        let bodies = self.world.body_set();
        let mut out = Vec::new();
        for (a, b) in pairs {
            let (Some(ba), Some(bb)) = (bodies.get(a.body), bodies.get(b.body)) else {
                continue;
            };
            let (sa, sb) = (ba.shape_or_first(a.index), bb.shape_or_first(b.index));
            let m = contact_manifold(sa.shape(), ba.pose(), sb.shape(), bb.pose(), spec);
            for p in m.points() {
                out.push([p.point.x, p.point.y, m.normal.x, m.normal.y]);
            }
        }
        out
    }

    /// Publishes a new frame (and a new scene message first if the bodies changed).
    fn publish(&mut self, shared: &Shared) {
        let scene = self.scene_dirty.then(|| {
            self.scene_dirty = false;
            self.scene_seq += 1;
            Arc::new(self.scene_msg())
        });
        self.frame_seq += 1;
        let frame = Arc::new(self.frame());
        let mut p = shared
            .published
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(scene) = scene {
            p.scene = scene;
            p.scene_seq = self.scene_seq;
        }
        p.frame = frame;
        p.frame_seq = self.frame_seq;
        drop(p);
        shared.changed.notify_all();
    }
}

/// The settings the page shows, from a world's settings.
fn settings_of(settings: &WorldSettings) -> SettingsOut {
    let s = &settings.solver;
    SettingsOut {
        substeps: s.substeps,
        contact_hertz: s.contact_hertz,
        warm_starting: s.warm_starting,
        sleeping: sleeping::enabled(settings),
    }
}
