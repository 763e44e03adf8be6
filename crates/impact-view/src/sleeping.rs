//! The seam for sleeping bodies.
//!
//! The world has no sleeping yet (it comes with the sleeping issue): until it does, no body
//! is reported asleep, the page's "sleeping" setting is kept and shown but changes nothing,
//! and [`AVAILABLE`] tells the page to mark it as not yet available. When `World` gains
//! `is_sleeping` and a sleeping setting, these three items are the only places to change:
//! the frames already carry the ids [`sleeping_ids`] returns, and the page already draws
//! those bodies as sleeping (greyed, with a dashed outline).

use impact_scene::AnyWorld;

/// Whether the world can put bodies to sleep.
pub const AVAILABLE: bool = false;

/// The ids (slots) of the bodies asleep now.
pub fn sleeping_ids(world: &dyn AnyWorld) -> Vec<u32> {
    let _ = world;
    Vec::new()
}

/// Turns sleeping on or off in `world`.
pub fn set_sleeping(world: &mut dyn AnyWorld, on: bool) {
    let _ = (world, on);
}
