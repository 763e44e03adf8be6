//! Collision events, and the hook that lets a game react to an impact inside a step
//! (the mid-frame loop of Colp's ECSE write-up).

use crate::error::WorldError;
use impact_geometry::{Isometry, Point, Real, Sweep, Vector};
use impact_solver::{BodyHandle, BodySet, Impulse, RigidBody, ShapeId};

/// What kind of impact an event records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum EventKind {
    /// An impact resolved at its exact time with restitution and friction.
    Impact,
    /// The impact that ended a Zeno sequence: the pair collided too often in one step, so
    /// this impact was resolved inelastically and the pair was handed to the contact solver
    /// for the rest of the step (see
    /// [`FirstTimeOfImpactSettings::max_pair_events`](crate::FirstTimeOfImpactSettings::max_pair_events)).
    ZenoHandover,
}

/// One collision inside a step, in the order the stepper met them (non-decreasing time).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionEvent {
    /// Absolute simulated time of the impact (seconds): the world's time at the start of the
    /// step plus `fraction * dt`.
    pub time: Real,
    /// When in the step, as a fraction of `dt` in `[0, 1]`.
    pub fraction: Real,
    /// The first body (the one with the smaller slot).
    pub a: BodyHandle,
    /// The second body.
    pub b: BodyHandle,
    /// The places of the shapes that met in their bodies' lists (see [`ShapeId`]), `a`'s
    /// first: `[0, 0]` for bodies of one shape.
    #[cfg_attr(feature = "serde", serde(default))]
    pub shapes: [u32; 2],
    /// How it was resolved.
    pub kind: EventKind,
    /// What the resolver applied: the contact point and the normal from `a` toward `b`, the
    /// approach speed before the impact, the normal and friction impulses on `b` (`a` got the
    /// opposite), and the restitution used.
    pub impulse: Impulse,
}

impl CollisionEvent {
    /// The contact point (world), midway between the surfaces, which are the stepper's
    /// target separation apart at the impact.
    #[inline]
    pub fn point(&self) -> Point {
        self.impulse.point
    }

    /// The unit normal from `a` toward `b`.
    #[inline]
    pub fn normal(&self) -> Vector {
        self.impulse.normal_direction
    }

    /// How fast the contact points were closing along the normal before the impact (world
    /// units per second; positive when closing).
    #[inline]
    pub fn approach_speed(&self) -> Real {
        self.impulse.approach_speed
    }

    /// Whether `body` took part.
    #[inline]
    pub fn involves(&self, body: BodyHandle) -> bool {
        self.a == body || self.b == body
    }

    /// The shapes that met, `a`'s then `b`'s, as the contact and sensor events name them.
    #[inline]
    pub fn shapes(&self) -> (ShapeId, ShapeId) {
        (
            ShapeId {
                body: self.a,
                index: self.shapes[0],
            },
            ShapeId {
                body: self.b,
                index: self.shapes[1],
            },
        )
    }
}

/// Code that runs at each impact inside a step, after the stepper resolved it and before it
/// plans what comes next (Colp's ECSE write-up: "the entities return a list of entities that
/// have had their trajectories changed").
///
/// Any `FnMut(&mut Impact<'_>)` closure is a hook. Through [`Impact`] the hook may change
/// velocities, remove bodies, or turn a body's collisions off for the rest of the step; the
/// stepper records which bodies it touched and re-plans exactly those. Steppers without
/// impacts inside the step ([`Discrete`](crate::Discrete),
/// [`MotionClamping`](crate::MotionClamping)) never call it.
pub trait ImpactHook {
    /// Called once per resolved impact, in time order.
    fn on_impact(&mut self, impact: &mut Impact<'_>);

    /// Whether [`ImpactHook::on_impact`] never does anything, so that a stepper may skip
    /// calling it (and keeping what an [`Impact`] shows). `false` unless a hook says
    /// otherwise; [`NoHook`] does.
    fn is_inert(&self) -> bool {
        false
    }
}

impl<F: FnMut(&mut Impact<'_>)> ImpactHook for F {
    #[inline]
    fn on_impact(&mut self, impact: &mut Impact<'_>) {
        self(impact);
    }
}

/// The hook of [`World::step`](crate::World::step): does nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoHook;

impl ImpactHook for NoHook {
    #[inline]
    fn on_impact(&mut self, _impact: &mut Impact<'_>) {}

    #[inline]
    fn is_inert(&self) -> bool {
        true
    }
}

/// What a hook asked for, per body slot; kept by the stepper between impacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct HookRequests {
    pub removed: bool,
    pub disabled: bool,
    /// The hook set the body's velocities in the call that is running: they hold at the
    /// time of the impact (the stepper clears it once it has read it).
    pub velocity_set: bool,
}

/// One impact, as an [`ImpactHook`] sees it: the event, the bodies, and the changes the hook
/// may make. Every change is validated and all-or-nothing; the stepper re-plans the bodies
/// that changed.
pub struct Impact<'a> {
    pub(crate) event: &'a CollisionEvent,
    pub(crate) bodies: &'a mut BodySet,
    /// Each body's motion since its last change: (start time in the step, sweep from there).
    pub(crate) motions: &'a [Option<(Real, Sweep)>],
    /// Time of the impact from the start of the step (seconds).
    pub(crate) at: Real,
    pub(crate) requests: &'a mut Vec<HookRequests>,
    /// Bodies with a request in this call, in the order of their first request.
    pub(crate) touched: &'a mut Vec<BodyHandle>,
}

impl core::fmt::Debug for Impact<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Impact")
            .field("event", self.event)
            .field("touched", self.touched)
            .finish_non_exhaustive()
    }
}

impl Impact<'_> {
    /// The impact, already resolved.
    #[inline]
    pub fn event(&self) -> &CollisionEvent {
        self.event
    }

    /// A body, or `None` for a stale handle or a body removed earlier in this step. Its
    /// velocities are the current ones (after this impact); its pose is where it was when it
    /// last changed course, so use [`Impact::pose`] for where it is now.
    #[inline]
    pub fn body(&self, handle: BodyHandle) -> Option<&RigidBody> {
        if self.is_removed(handle) {
            return None;
        }
        self.bodies.get(handle)
    }

    /// Where `handle` is at the time of the impact, or `None` for a stale handle or a body
    /// removed earlier in this step.
    pub fn pose(&self, handle: BodyHandle) -> Option<Isometry> {
        let body = self.body(handle)?;
        match self.motions.get(handle.index as usize).copied().flatten() {
            Some(course) => Some(crate::motion::pose_on_course(course, self.at)),
            None => Some(*body.pose()),
        }
    }

    /// Sets the velocities of a body from now on (linear: world units per second, angular:
    /// radians per second). The stepper re-plans its impacts for the rest of the step.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] naming `handle` (stale, or removed in this step), or the
    /// body's validation error naming `body.linvel` / `body.angvel`; nothing changes then.
    pub fn set_velocity(
        &mut self,
        handle: BodyHandle,
        linvel: Vector,
        angvel: Real,
    ) -> Result<(), WorldError> {
        self.check(handle)?;
        let body = self.bodies.get_mut(handle).ok_or_else(|| unknown(handle))?;
        body.set_velocity(linvel, angvel)?;
        self.request(handle).velocity_set = true;
        Ok(())
    }

    /// Removes a body: it stops where it is now, takes part in no further impact, and the
    /// world removes it (with its broadphase proxy and cached contacts) when the step ends.
    /// [`World::step_with`](crate::World::step_with) lists it in the step report.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] naming `handle` (stale, or already removed).
    pub fn remove_body(&mut self, handle: BodyHandle) -> Result<(), WorldError> {
        self.check(handle)?;
        self.request(handle).removed = true;
        Ok(())
    }

    /// Turns off the collisions of a body for the rest of this step: it keeps its motion and
    /// passes through whatever it meets (a projectile that pierced its target). The next step
    /// sees it as usual.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] naming `handle` (stale, or removed in this step).
    pub fn disable_collisions(&mut self, handle: BodyHandle) -> Result<(), WorldError> {
        self.check(handle)?;
        self.request(handle).disabled = true;
        Ok(())
    }

    /// Whether `handle` was removed earlier in this step (by this hook or an earlier call).
    #[inline]
    pub fn is_removed(&self, handle: BodyHandle) -> bool {
        self.requests
            .get(handle.index as usize)
            .is_some_and(|r| r.removed)
    }

    fn check(&self, handle: BodyHandle) -> Result<(), WorldError> {
        if !self.bodies.contains(handle) || self.is_removed(handle) {
            return Err(unknown(handle));
        }
        Ok(())
    }

    fn request(&mut self, handle: BodyHandle) -> &mut HookRequests {
        let slot = handle.index as usize;
        if self.requests.len() <= slot {
            self.requests.resize(slot + 1, HookRequests::default());
        }
        if !self.touched.contains(&handle) {
            self.touched.push(handle);
        }
        &mut self.requests[slot]
    }
}

fn unknown(handle: BodyHandle) -> WorldError {
    WorldError::UnknownBody {
        field: "handle".to_owned(),
        handle,
    }
}
