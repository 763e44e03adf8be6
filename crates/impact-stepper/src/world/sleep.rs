//! Islands and sleeping: which bodies rest together, when they fall asleep, and what wakes
//! them.
//!
//! An *island* is a set of dynamic bodies linked by contacts (a non-empty manifold between
//! two dynamic bodies) and joints; static bodies, kinematic bodies and sensors link nothing,
//! so a floor does not make one island of everything on it. Islands are rebuilt after every
//! step from that step's manifolds and the joints, with a union-find over the awake bodies
//! (linear in the awake bodies, contacts and joints, nothing for a sleeping one), rather
//! than kept as Box2D v3 keeps them (persistent, merged as contacts begin, split when they
//! end): the step already lists every manifold, and a rebuild has no split to get wrong.
//! `docs/architecture.md` ("Sleeping") has the measurement.
//!
//! Each body has a time at rest ([`BodySet::sleep_time`](impact_solver::BodySet)), reset when
//! it moves faster than its sleep threshold ([`RigidBody::is_resting`]). An island falls
//! asleep when every body in it has rested for [`WorldSettings::time_to_sleep`] and no
//! moving kinematic body touches it or holds it by a joint: its bodies stop (velocities set
//! to zero), leave every stage of the step (no swept box, manifold, solver row, integration
//! or time-of-impact planning; their proxies stay in the broadphase), and their contacts'
//! warm-starting impulses are set aside with the island until it wakes.
//!
//! A sleeping island wakes, whole, at the start of a step in which an awake body may touch
//! it: a candidate pair of an awake non-static body and a sleeping body with a non-empty
//! manifold at the awake body's full closing distance over the step, or, for a fast CCD
//! body (one that can move more than its own size in the step), any sleeping body within
//! the distance it can travel in any direction. Its bodies then take part in the whole step
//! at rest, so a bullet's impact with them is resolved at its exact time against bodies
//! that respond. The world's calls that change a body (pose, velocity, `body_mut`, filters,
//! shapes, joints, removal of a body or joint touching it) wake its island at once.
//!
//! [`WorldSettings::time_to_sleep`]: crate::WorldSettings::time_to_sleep

use super::World;
use crate::contact_events::touch_key;
use crate::error::WorldError;
use crate::stepper::Stepper;
use impact_broadphase::{Broadphase, ProxyId};
use impact_geometry::{Aabb, Real, Vector};
use impact_solver::{BodyHandle, CacheKey, CachedImpulse, RigidBody, ShapeId};

/// A sleeping island: its bodies, in slot order, and the warm-starting impulses of their
/// contacts, set aside while it sleeps.
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(super) struct SleepingIsland {
    pub(super) bodies: Vec<BodyHandle>,
    pub(super) cache: Vec<(CacheKey, CachedImpulse)>,
    /// Its pairs touching (in [`touch_key`] order) and the remembered sides of its segment
    /// contacts, which go on unseen while it sleeps.
    #[cfg_attr(feature = "serde", serde(default))]
    pub(super) touching: Vec<(ShapeId, ShapeId)>,
    #[cfg_attr(feature = "serde", serde(default))]
    pub(super) sides: Vec<(ShapeId, ShapeId, Vector)>,
}

/// The bodies that fell asleep and woke, per body, in handle order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SleepEvents {
    /// Bodies put to sleep at the end of the step, with their islands.
    pub fell_asleep: Vec<BodyHandle>,
    /// Bodies woken since the last step: by a call on the world between the steps, or at
    /// the start of the step by a body that could reach them.
    pub woke: Vec<BodyHandle>,
}

impl SleepEvents {
    /// Whether nothing fell asleep or woke.
    pub fn is_empty(&self) -> bool {
        self.fell_asleep.is_empty() && self.woke.is_empty()
    }

    fn clear(&mut self) {
        self.fell_asleep.clear();
        self.woke.clear();
    }
}

/// What the world keeps of sleeping from step to step, and the buffers of its passes.
#[derive(Debug, Clone, Default)]
pub(super) struct Sleep {
    /// Per body slot, the sleeping island it is in (`u32::MAX`: none).
    island_of: Vec<u32>,
    /// The sleeping islands by id; `None` for an id free for reuse.
    pub(super) islands: Vec<Option<SleepingIsland>>,
    free: Vec<u32>,
    /// The last step's events, and those of the calls since, for the next step's.
    pub(super) events: SleepEvents,
    pending_woke: Vec<BodyHandle>,
    /// The union-find of the sleep pass, by slot.
    parent: Vec<u32>,
    /// The islands to wake found by the wake pass.
    pub(super) to_wake: Vec<u32>,
    /// Per root slot of the sleep pass: the least time at rest over its island, or
    /// `-1` when a moving kinematic body keeps it awake.
    rest: Vec<Real>,
    members: Vec<(u32, BodyHandle)>,
    timers: Vec<(BodyHandle, Real)>,
    taken: Vec<(CacheKey, CachedImpulse)>,
    pub(super) candidates: Vec<ProxyId>,
    /// Sleeping bodies the sleep pass found linked to awake ones, to wake after it.
    stray: Vec<BodyHandle>,
    /// The islands the step's wake pass woke, as they slept, to put back to sleep if the
    /// step fails ([`World::undo_step_wakes`]).
    woken_in_step: Vec<WokenIsland>,
    /// The union of the sleeping bodies' boxes (`None`: no body sleeps), while
    /// `bounds_known`: sleeping bodies do not move, so it changes only when an island falls
    /// asleep or wakes (see [`World::sleeping_bounds`]).
    bounds: Option<Aabb>,
    bounds_known: bool,
}

/// An island woken by a step's wake pass, kept until the step ends: its id, itself as it
/// slept, and its bodies' times at rest then.
#[derive(Debug, Clone)]
struct WokenIsland {
    id: u32,
    island: SleepingIsland,
    times: Vec<Real>,
}

impl Sleep {
    /// The sleeping island of slot `slot`, if any.
    #[inline]
    pub(super) fn island(&self, slot: u32) -> Option<u32> {
        self.island_of
            .get(slot as usize)
            .copied()
            .filter(|&i| i != u32::MAX)
    }

    /// Rebuilds the index of bodies to islands after a snapshot is read, checking that the
    /// islands and the bodies' sleep flags agree.
    #[cfg(feature = "serde")]
    pub(super) fn from_islands(
        islands: Vec<Option<SleepingIsland>>,
        bodies: &impact_solver::BodySet,
    ) -> Result<Self, WorldError> {
        let mut sleep = Self {
            islands,
            ..Self::default()
        };
        let mut listed = 0;
        for (id, island) in sleep.islands.iter().enumerate() {
            let Some(island) = island else {
                sleep.free.push(id as u32);
                continue;
            };
            for (key, _) in &island.cache {
                for h in [key.a, key.b] {
                    if !bodies.contains(h) {
                        return Err(WorldError::UnknownBody {
                            field: format!("sleeping_islands[{id}].cache"),
                            handle: h,
                        });
                    }
                }
            }
            for &h in &island.bodies {
                if !bodies.is_asleep(h) || sleep.island(h.index).is_some() {
                    return Err(WorldError::UnknownBody {
                        field: format!("sleeping_islands[{id}].bodies"),
                        handle: h,
                    });
                }
                let slot = h.index as usize;
                if sleep.island_of.len() <= slot {
                    sleep.island_of.resize(slot + 1, u32::MAX);
                }
                sleep.island_of[slot] = id as u32;
                listed += 1;
            }
        }
        if listed != bodies.asleep_len() {
            return Err(WorldError::OutOfRange {
                field: "sleeping_islands".to_owned(),
                value: listed as Real,
                expected: "every sleeping body in one island",
            });
        }
        sleep.free.reverse();
        Ok(sleep)
    }
}

impl<B: Broadphase, S: Stepper> World<B, S> {
    /// Whether the body sleeps; `false` for a stale or foreign handle.
    #[inline]
    pub fn is_sleeping(&self, handle: BodyHandle) -> bool {
        self.bodies.is_asleep(handle)
    }

    /// How many bodies sleep.
    #[inline]
    pub fn sleeping_count(&self) -> usize {
        self.bodies.asleep_len()
    }

    /// The bodies that fell asleep in the last successful step and those woken since the
    /// step before it (see [`SleepEvents`]).
    #[inline]
    pub fn sleep_events(&self) -> &SleepEvents {
        &self.sleep.events
    }

    /// The touching pairs of the sleeping islands, for [`World::touching_pairs`].
    pub(super) fn sleeping_touching(&self) -> impl Iterator<Item = (ShapeId, ShapeId)> + '_ {
        self.sleep
            .islands
            .iter()
            .flatten()
            .flat_map(|island| island.touching.iter().copied())
    }

    /// Wakes the body and its island; returns whether it slept. Its time at rest starts
    /// again from zero, so it stays awake for at least
    /// [`time_to_sleep`](crate::WorldSettings::time_to_sleep).
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] naming `handle` if it is stale or foreign.
    pub fn wake(&mut self, handle: BodyHandle) -> Result<bool, WorldError> {
        self.try_body(handle)?;
        self.bodies.set_sleep_time(handle, 0.0);
        Ok(self.wake_body(handle))
    }

    /// Wakes every sleeping island.
    pub fn wake_all(&mut self) {
        for id in 0..self.sleep.islands.len() {
            self.wake_island(id as u32, false);
        }
    }

    /// Wakes the island of `handle` if it sleeps (between steps: its events come with the
    /// next step's); returns whether it slept.
    pub(super) fn wake_body(&mut self, handle: BodyHandle) -> bool {
        if !self.bodies.is_asleep(handle) {
            return false;
        }
        match self.sleep.island(handle.index) {
            Some(id) => self.wake_island(id, false),
            None => {
                debug_assert!(false, "every sleeping body is in an island");
                self.bodies.set_asleep(handle, false);
            }
        }
        true
    }

    /// Wakes the sleeping bodies touching `handle` (a body about to be removed or moved by
    /// hand), as the touching pairs list them.
    pub(super) fn wake_touching(&mut self, handle: BodyHandle) {
        if self.bodies.asleep_len() == 0 {
            return;
        }
        // The sleeping islands' pairs too: a static body (a floor taken away) touches
        // sleeping bodies without being in their island.
        let partners: Vec<BodyHandle> = self
            .tracking
            .touching
            .iter()
            .copied()
            .chain(self.sleeping_touching())
            .filter_map(|(a, b)| match (a.body == handle, b.body == handle) {
                (true, false) => Some(b.body),
                (false, true) => Some(a.body),
                _ => None,
            })
            .collect();
        for h in partners {
            self.wake_body(h);
        }
    }

    /// The union of the sleeping bodies' boxes (the boxes of all their shapes where they
    /// stand), `None` if none sleeps: a box that misses it meets no sleeping shape.
    /// Computed again only after an island fell asleep or woke.
    pub(super) fn sleeping_bounds(&mut self) -> Option<Aabb> {
        if !self.sleep.bounds_known {
            let bodies = &self.bodies;
            self.sleep.bounds = self
                .sleep
                .islands
                .iter()
                .flatten()
                .flat_map(|island| &island.bodies)
                .filter_map(|&h| bodies.get(h).map(RigidBody::aabb))
                .reduce(|a, b| a.merged(&b));
            self.sleep.bounds_known = true;
        }
        self.sleep.bounds
    }

    /// Wakes island `id`: its bodies rejoin the step at rest with their time at rest
    /// cleared, its cached impulses go back to the cache. `in_step` says whether the wake
    /// is one of the step's events or one for the next step's.
    pub(super) fn wake_island(&mut self, id: u32, in_step: bool) {
        let Some(island) = self
            .sleep
            .islands
            .get_mut(id as usize)
            .and_then(Option::take)
        else {
            return;
        };
        self.sleep.bounds_known = false;
        self.sleep.free.push(id);
        if in_step {
            let times = island
                .bodies
                .iter()
                .map(|&h| self.bodies.sleep_time(h))
                .collect();
            self.sleep.woken_in_step.push(WokenIsland {
                id,
                island: island.clone(),
                times,
            });
        }
        for &h in &island.bodies {
            self.bodies.set_asleep(h, false);
            self.bodies.set_sleep_time(h, 0.0);
            self.sleep.island_of[h.index as usize] = u32::MAX;
        }
        self.cache.restore(&island.cache);
        if !island.touching.is_empty() {
            let touching = &mut self.tracking.touching;
            touching.extend_from_slice(&island.touching);
            touching.sort_by_key(|&p| touch_key(p));
        }
        if !island.sides.is_empty() {
            self.sides.extend_from_slice(&island.sides);
            self.sides.sort_by_key(|&(a, b, _)| (a, b));
        }
        let woke = if in_step {
            &mut self.sleep.events.woke
        } else {
            &mut self.sleep.pending_woke
        };
        woke.extend_from_slice(&island.bodies);
    }

    /// After a step that fails: the islands its wake pass woke go back to sleep as they
    /// were (bodies, times at rest, warm-starting impulses, touching pairs and segment
    /// sides, and their ids), and their wakes leave the events, so a failed step leaves the
    /// sleeping as it found it. Their bodies' poses and velocities are the step's to put
    /// back ([`World::put_back`]): at rest, as they slept.
    pub(super) fn undo_step_wakes(&mut self) {
        let woken = core::mem::take(&mut self.sleep.woken_in_step);
        if woken.is_empty() {
            return;
        }
        for WokenIsland { id, island, times } in woken.into_iter().rev() {
            if let Some(at) = self.sleep.free.iter().rposition(|&i| i == id) {
                self.sleep.free.remove(at);
            }
            for (&h, &time) in island.bodies.iter().zip(&times) {
                self.bodies.set_asleep(h, true);
                self.bodies.set_sleep_time(h, time);
                if let Some(body) = self.bodies.get_mut(h) {
                    let stopped = body.set_velocity(Vector::zeros(), 0.0);
                    debug_assert!(stopped.is_ok(), "zero is a valid velocity");
                }
                self.sleep.island_of[h.index as usize] = id;
            }
            let members = &island.bodies;
            let bodies = &self.bodies;
            let of_island = |h: BodyHandle| bodies.is_asleep(h) && members.contains(&h);
            self.sleep.taken.clear();
            self.cache.take_asleep(of_island, &mut self.sleep.taken);
            self.sleep.taken.clear();
            self.tracking
                .touching
                .retain(|pair| !island.touching.contains(pair));
            self.sides
                .retain(|&(a, b, _)| !island.sides.iter().any(|s| (s.0, s.1) == (a, b)));
            self.sleep.events.woke.retain(|h| !members.contains(h));
            self.sleep.islands[id as usize] = Some(island);
            self.sleep.bounds_known = false;
        }
        self.bodies.refresh_awake();
    }

    /// Drops a body being removed from the wakes waiting for the next step's events.
    pub(super) fn forget_wake(&mut self, handle: BodyHandle) {
        self.sleep.pending_woke.retain(|&h| h != handle);
    }

    /// At the start of a step: the sleep events of the last one cleared, the wakes of the
    /// calls since made this step's.
    pub(super) fn start_sleep_events(&mut self) {
        let sleep = &mut self.sleep;
        sleep.woken_in_step.clear();
        sleep.events.clear();
        sleep.events.woke.append(&mut sleep.pending_woke);
    }

    /// After a successful step of `dt` seconds: each awake body's time at rest, the step's
    /// islands from its manifolds and the joints, and the islands that fall asleep.
    pub(super) fn sleep_pass(&mut self, dt: Real) {
        if !self.settings.sleeping {
            return;
        }
        let slots = self.bodies.slot_count();
        let sleep = &mut self.sleep;
        if sleep.parent.len() < slots {
            sleep.parent.resize(slots, u32::MAX);
            sleep.rest.resize(slots, 0.0);
        }
        // Every awake dynamic body its own island, with its time at rest.
        let time_to_sleep = self.settings.time_to_sleep;
        let mut any_ready = false;
        let mut timers = core::mem::take(&mut sleep.timers);
        timers.clear();
        for (handle, body) in self.bodies.iter_awake() {
            let slot = handle.index as usize;
            // Kinematic bodies never sleep: one that stands still costs a box, and one
            // asleep would be missing from the steppers' searches when it moves again.
            if !body.is_dynamic() {
                continue;
            }
            let time = if body.is_resting() {
                self.bodies.sleep_time(handle) + dt
            } else {
                0.0
            };
            timers.push((handle, time));
            any_ready |= time >= time_to_sleep;
            sleep.parent[slot] = slot as u32;
            sleep.rest[slot] = time;
        }
        for &(h, t) in &timers {
            self.bodies.set_sleep_time(h, t);
        }
        if any_ready {
            self.link_islands();
            self.fall_asleep(&timers);
            let stray = core::mem::take(&mut self.sleep.stray);
            for &h in &stray {
                self.wake_body(h);
            }
            self.sleep.stray = stray;
        }
        for &(h, _) in &timers {
            self.sleep.parent[h.index as usize] = u32::MAX;
        }
        self.sleep.timers = timers;
    }

    /// Unions the islands of the step's manifolds and the joints (dynamic bodies only; a
    /// kinematic body passes its `rest` of -1, moving, to what it touches).
    fn link_islands(&mut self) {
        let bodies = &self.bodies;
        let sleep = &mut self.sleep;
        let mut stray = core::mem::take(&mut sleep.stray);
        stray.clear();
        let mut link = |a: BodyHandle, b: BodyHandle| {
            let (Some(x), Some(y)) = (bodies.get(a), bodies.get(b)) else {
                return;
            };
            match (x.is_dynamic(), y.is_dynamic()) {
                (true, true) => {
                    let in_pass = |h: BodyHandle| {
                        sleep
                            .parent
                            .get(h.index as usize)
                            .is_some_and(|&p| p != u32::MAX)
                    };
                    let (ia, ib) = (in_pass(a), in_pass(b));
                    match (ia, ib) {
                        (true, true) => {
                            union(&mut sleep.parent, &mut sleep.rest, a.index, b.index);
                        }
                        // A link from an awake body to one asleep (a joint or contact the
                        // islands did not see when that one fell asleep): the awake
                        // island stays awake, and the sleeping one is woken after the
                        // pass, so that they sleep, later, as one.
                        (true, false) | (false, true) => {
                            let (awake, other) = if ia { (a, b) } else { (b, a) };
                            let root = find(&mut sleep.parent, awake.index) as usize;
                            sleep.rest[root] = -1.0;
                            if bodies.is_asleep(other) {
                                stray.push(other);
                            }
                        }
                        (false, false) => {}
                    }
                }
                (true, false) | (false, true) => {
                    let (d, k) = if x.is_dynamic() { (a, y) } else { (b, x) };
                    if k.body_type() == impact_solver::BodyType::Kinematic && !is_still(k) {
                        let root = find(&mut sleep.parent, d.index) as usize;
                        sleep.rest[root] = -1.0;
                    }
                }
                (false, false) => {}
            }
        };
        for c in &self.scratch.contacts {
            if !c.manifold.is_empty() {
                link(c.a, c.b);
            }
        }
        for (_, joint) in self.joints.iter() {
            if joint.is_enabled() {
                link(joint.body_a(), joint.body_b());
            }
        }
        self.sleep.stray = stray;
    }

    /// Puts to sleep every island whose least time at rest reached the time to sleep
    /// (`timers` lists the awake non-static bodies).
    fn fall_asleep(&mut self, timers: &[(BodyHandle, Real)]) {
        let time_to_sleep = self.settings.time_to_sleep;
        let sleep = &mut self.sleep;
        sleep.members.clear();
        for &(h, _) in timers {
            let root = find(&mut sleep.parent, h.index);
            if sleep.rest[root as usize] >= time_to_sleep {
                sleep.members.push((root, h));
            }
        }
        if sleep.members.is_empty() {
            return;
        }
        sleep.members.sort_unstable();
        let mut start = 0;
        while start < sleep.members.len() {
            let root = sleep.members[start].0;
            let end = start
                + sleep.members[start..]
                    .iter()
                    .take_while(|m| m.0 == root)
                    .count();
            let id = match sleep.free.pop() {
                Some(id) => id,
                None => {
                    sleep.islands.push(None);
                    (sleep.islands.len() - 1) as u32
                }
            };
            let mut island = SleepingIsland::default();
            for &(_, h) in &sleep.members[start..end] {
                island.bodies.push(h);
                self.bodies.set_asleep(h, true);
                if let Some(body) = self.bodies.get_mut(h) {
                    let stopped = body.set_velocity(Vector::zeros(), 0.0);
                    debug_assert!(stopped.is_ok(), "zero is a valid velocity");
                }
                let slot = h.index as usize;
                if sleep.island_of.len() <= slot {
                    sleep.island_of.resize(slot + 1, u32::MAX);
                }
                sleep.island_of[slot] = id;
            }
            sleep.events.fell_asleep.extend_from_slice(&island.bodies);
            sleep.islands[id as usize] = Some(island);
            sleep.bounds_known = false;
            start = end;
        }
        sleep.events.fell_asleep.sort_unstable();
        // The sleeping pairs' impulses, each to the island of its sleeping body.
        sleep.taken.clear();
        let bodies = &self.bodies;
        let island_of = &sleep.island_of;
        let newly = |h: BodyHandle| {
            bodies.is_asleep(h)
                && island_of
                    .get(h.index as usize)
                    .is_some_and(|&i| i != u32::MAX)
        };
        self.cache.take_asleep(newly, &mut sleep.taken);
        for &(key, imp) in &sleep.taken {
            let body = if bodies.is_asleep(key.a) {
                key.a
            } else {
                key.b
            };
            let id = island_of[body.index as usize];
            if let Some(Some(island)) = sleep.islands.get_mut(id as usize) {
                island.cache.push((key, imp));
            }
        }
        // Their touching pairs and segment sides likewise, kept in order.
        let island_of_pair = |a: BodyHandle, b: BodyHandle| {
            let body = if bodies.is_asleep(a) { a } else { b };
            island_of.get(body.index as usize).copied()
        };
        let islands = &mut sleep.islands;
        self.tracking.touching.retain(|&(a, b)| {
            if !(bodies.is_asleep(a.body) || bodies.is_asleep(b.body)) {
                return true;
            }
            if let Some(id) = island_of_pair(a.body, b.body)
                && let Some(Some(island)) = islands.get_mut(id as usize)
            {
                island.touching.push((a, b));
            }
            false
        });
        self.sides.retain(|&(a, b, n)| {
            if !(bodies.is_asleep(a.body) || bodies.is_asleep(b.body)) {
                return true;
            }
            if let Some(id) = island_of_pair(a.body, b.body)
                && let Some(Some(island)) = islands.get_mut(id as usize)
            {
                island.sides.push((a, b, n));
            }
            false
        });
        self.bodies.refresh_awake();
    }
}

/// Whether a body has no velocity at all.
#[inline]
pub(super) fn is_still(body: &RigidBody) -> bool {
    body.linvel() == Vector::zeros() && body.angvel() == 0.0
}

/// The root of `x`'s set, halving the path on the way.
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}

/// Joins the sets of `a` and `b` under the smaller root, keeping the least time at rest.
fn union(parent: &mut [u32], rest: &mut [Real], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra == rb {
        return;
    }
    let (root, child) = if ra < rb { (ra, rb) } else { (rb, ra) };
    parent[child as usize] = root;
    rest[root as usize] = rest[root as usize].min(rest[child as usize]);
}
