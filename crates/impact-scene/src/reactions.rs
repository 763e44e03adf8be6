//! [`Reactions`]: the hook that carries out a scene's `on_first_hit` reactions.

use crate::scene::{OnFirstHit, Scene};
use impact_geometry::{Point, Real};
use impact_stepper::{Impact, ImpactHook};

/// A reaction that fired: which body, what happened to it, when and where.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fired {
    /// The body's index in the scene's `bodies` (its slot in the world).
    pub body: u32,
    /// What happened to it.
    pub reaction: OnFirstHit,
    /// The simulated time of the impact (seconds).
    pub time: Real,
    /// Where the impact was (world), midway between the surfaces.
    pub point: Point,
}

/// The [`ImpactHook`] of a scene: at a body's first impact it carries out the body's
/// [`OnFirstHit`] reaction, and records it.
///
/// Made by [`Scene::reactions`] for a world made by [`Scene::build`] of the same scene: it
/// knows bodies by slot, and `build` puts body `i` in slot `i` (a world that gained bodies
/// since would confuse it). Pass it to
/// [`AnyWorld::step_with`](crate::AnyWorld::step_with) at every step.
///
/// ```
/// use impact_scene::{OnFirstHit, Scene};
///
/// // A bullet destroyed where it first hits: the paper, not the wall behind it.
/// let scene = Scene::from_json(r#"{
///     "gravity": [0, 0],
///     "bodies": [
///         {"type": "static", "shape": {"type": "segment", "a": [1, -1], "b": [1, 1]}},
///         {"type": "static", "shape": {"type": "segment", "a": [2, -1], "b": [2, 1]}},
///         {"shape": {"type": "circle", "radius": 0.05}, "linvel": [600, 0], "ccd": true,
///          "on_first_hit": "destroy"}
///     ]
/// }"#)?;
/// let mut world = scene.build()?;
/// let mut reactions = scene.reactions();
/// let step = world.step_with(scene.dt, &mut reactions)?;
/// assert_eq!(step.removed, 1);
/// assert_eq!(world.body_set().len(), 2);
/// let fired = reactions.fired()[0];
/// assert_eq!((fired.body, fired.reaction), (2, OnFirstHit::Destroy));
/// assert!((fired.point.x - 1.0).abs() < 0.01, "at the paper: {fired:?}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reactions {
    /// The reaction still waiting for each slot's first impact.
    pending: Vec<Option<OnFirstHit>>,
    fired: Vec<Fired>,
}

impl Reactions {
    /// Every reaction that fired so far, in the order of the impacts.
    pub fn fired(&self) -> &[Fired] {
        &self.fired
    }

    /// Whether no body has a reaction still waiting (stepping with the hook can then be
    /// skipped, though it costs nothing).
    pub fn is_idle(&self) -> bool {
        self.pending.iter().all(Option::is_none)
    }
}

impl ImpactHook for Reactions {
    fn on_impact(&mut self, impact: &mut Impact<'_>) {
        let event = *impact.event();
        for handle in [event.a, event.b] {
            let slot = handle.index as usize;
            // `take`: whatever the reaction, it is for the first hit only.
            let Some(reaction) = self.pending.get_mut(slot).and_then(Option::take) else {
                continue;
            };
            let done = match reaction {
                // Fails only for a body already removed, which no impact involves.
                OnFirstHit::Destroy => impact.remove_body(handle).is_ok(),
            };
            if done {
                self.fired.push(Fired {
                    body: handle.index,
                    reaction,
                    time: event.time,
                    point: event.point(),
                });
            }
        }
    }
}

impl Scene {
    /// The hook that carries out the bodies' `on_first_hit` reactions in a world this scene
    /// built (see [`Reactions`]).
    pub fn reactions(&self) -> Reactions {
        let mut pending = vec![None; self.bodies.len()];
        for (&i, &reaction) in &self.on_first_hit {
            if let Some(slot) = pending.get_mut(i) {
                *slot = Some(reaction);
            }
        }
        Reactions {
            pending,
            fired: Vec::new(),
        }
    }
}
