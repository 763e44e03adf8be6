//! The seam for sleeping bodies.
//!
//! The world has no sleeping yet (it comes with the sleeping issue): until it does, no body
//! is reported asleep, the page's "sleeping" setting is kept and shown but changes nothing,
//! and [`AVAILABLE`] tells the page to mark it as not yet available. When `World` gains
//! `is_sleeping(handle)` and `WorldSettings::sleeping`, these four items are the only places
//! to change (with an `is_sleeping` call added to `world_ops::WorldMut`): the frames already
//! carry the ids [`sleeping_ids`] returns, and the page already draws those bodies as
//! sleeping (greyed, with a dashed outline).

use impact_scene::AnyWorld;
use impact_stepper::WorldSettings;

/// Whether the world can put bodies to sleep.
pub const AVAILABLE: bool = false;

/// The ids (slots) of the bodies asleep now.
pub fn sleeping_ids(world: &mut dyn AnyWorld) -> Vec<u32> {
    let _ = world;
    Vec::new()
}

/// Whether `settings` let bodies sleep.
pub fn enabled(settings: &WorldSettings) -> bool {
    let _ = settings;
    false
}

/// Lets bodies sleep, or not, in `settings`.
pub fn set_enabled(settings: &mut WorldSettings, on: bool) {
    let _ = (settings, on);
}
