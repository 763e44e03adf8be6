//! Sleeping bodies on the page: which are asleep (drawn greyed, with a dashed outline), and
//! the world switch the page's "sleeping" setting sets.

use impact_scene::AnyWorld;
use impact_stepper::WorldSettings;

/// Whether the world can put bodies to sleep (the page shows the setting as live).
pub const AVAILABLE: bool = true;

/// The ids (slots) of the bodies asleep now, in slot order.
pub fn sleeping_ids(world: &mut dyn AnyWorld) -> Vec<u32> {
    let bodies = world.body_set();
    if bodies.asleep_len() == 0 {
        return Vec::new();
    }
    bodies
        .iter()
        .filter(|(h, _)| bodies.is_asleep(*h))
        .map(|(h, _)| h.index)
        .collect()
}

/// Whether `settings` let bodies sleep ([`WorldSettings::sleeping`]).
pub fn enabled(settings: &WorldSettings) -> bool {
    settings.sleeping
}

/// Lets bodies sleep, or not, in `settings`.
pub fn set_enabled(settings: &mut WorldSettings, on: bool) {
    settings.sleeping = on;
}
