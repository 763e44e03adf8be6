//! The user's hooks on pairs: [`PairFilter`], which may veto a pair of shapes, and
//! [`PreSolveHook`], which may disable a contact or change its friction and restitution for
//! one step, at a contact manifold and at a CCD impact alike.
//!
//! Both are set on the world ([`World::set_pair_filter`](crate::World::set_pair_filter),
//! [`World::set_pre_solve`](crate::World::set_pre_solve)) and called from inside the step,
//! with read-only views of the bodies: they are `Send + Sync` and take `&self`, so a step
//! that asks them from several threads needs no change of API. With the `parallel` feature,
//! `MotionClamping` asks the pair filter from several threads at once while it finds its
//! times of impact, so a filter should answer from its arguments (and the game's state)
//! alone; the narrowphase asks both hooks on the stepping thread, in pair order (see
//! `docs/architecture.md`, "Parallel steps"). They run inside the step, with
//! the world borrowed by it: a hook cannot make scene queries of the world it is called from
//! (a query would need the world the step holds); what it needs to decide is in what it is
//! given, and in the game's own state.

use crate::error::{WorldError, finite, non_negative};
use impact_geometry::{Isometry, Point, Real, Vector};
use impact_narrowphase::Manifold;
use impact_solver::{BodyHandle, Material, RigidBody, ShapeId};

/// A candidate pair of shapes, as a [`PairFilter`] sees it: both shapes and their bodies,
/// `a` the one whose body has the smaller slot.
#[derive(Debug, Clone, Copy)]
pub struct PairView<'a> {
    /// The first shape.
    pub a: ShapeId,
    /// The second shape.
    pub b: ShapeId,
    /// The body of `a`, as the step found it.
    pub body_a: &'a RigidBody,
    /// The body of `b`, as the step found it.
    pub body_b: &'a RigidBody,
}

impl PairView<'_> {
    /// Whether `body` is one of the pair's bodies.
    #[inline]
    pub fn involves(&self, body: BodyHandle) -> bool {
        self.a.body == body || self.b.body == body
    }
}

/// A user's veto over pairs of shapes that their
/// [`CollisionFilter`](impact_solver::CollisionFilter)s let collide (rapier's
/// `filter_contact_pair`, Box2D's custom filter): `false` and the pair has no contact, no
/// impact and no event in the step.
///
/// It is asked where a pair arises: for each of the world's candidate pairs before its
/// contact manifold is computed, and in the CCD steppers' own pair searches before any time
/// of impact of the pair is asked, so before any impact of the pair. It may therefore be
/// asked more than once per pair and step, and should answer from the two shapes and what
/// the game knows of them (teams, owners, a ragdoll's joints), the same way each time within
/// a step. Pairs of a sensor are not asked: a sensor never collides. Any
/// `Fn(&PairView<'_>) -> bool + Send + Sync` closure is a pair filter.
///
/// Cost: one call per candidate pair and step while a filter is set; none without one.
pub trait PairFilter: Send + Sync {
    /// Whether the shapes of `pair` may collide in this step.
    fn should_collide(&self, pair: &PairView<'_>) -> bool;
}

impl<F: Fn(&PairView<'_>) -> bool + Send + Sync> PairFilter for F {
    #[inline]
    fn should_collide(&self, pair: &PairView<'_>) -> bool {
        self(pair)
    }
}

/// Where a [`PreSolveHook`] is asked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContactKind {
    /// A contact manifold the world built at the start of the step, before the steppers
    /// use it (the contact solver, and the impacts of touching pairs that close fast).
    Manifold,
    /// A CCD impact inside the step, `time` seconds after its start, about to be resolved
    /// ([`FirstTimeOfImpact`](crate::FirstTimeOfImpact)) or to stop a body there
    /// ([`MotionClamping`](crate::MotionClamping)).
    Impact {
        /// Seconds from the start of the step.
        time: Real,
    },
}

/// One body of a [`PreSolveContact`]: its handle, the body, and where it is and how it moves
/// at the contact.
#[derive(Debug, Clone, Copy)]
pub struct ContactBody<'a> {
    /// The body's handle.
    pub handle: BodyHandle,
    /// The place of the contact's shape in the body's list (see [`ShapeId`]).
    pub shape: u32,
    /// The body (its own pose and velocities are those the stepper holds, which inside a
    /// step may be older than the contact: use `pose` and `velocity`).
    pub body: &'a RigidBody,
    /// Where the body is at the contact (for the second body of a pair met across a side of
    /// a periodic domain, its image).
    pub pose: Isometry,
    /// Its linear (world units per second) and angular (radians per second) velocity at the
    /// contact.
    pub velocity: (Vector, Real),
}

impl ContactBody<'_> {
    /// The contact's shape.
    #[inline]
    pub fn shape_id(&self) -> ShapeId {
        ShapeId {
            body: self.handle,
            index: self.shape,
        }
    }

    /// The material of the contact's shape (the body's first shape's if `shape` is past its
    /// list).
    #[inline]
    pub fn material(&self) -> Material {
        self.body.shape_or_first(self.shape).material()
    }
}

/// A contact about to be used, as a [`PreSolveHook`] sees it and changes it: the two shapes
/// and bodies, a point and the normal from `a` toward `b`, the manifold if it is one; and
/// what the hook decides, which holds for this contact in this step only.
#[derive(Debug)]
pub struct PreSolveContact<'a> {
    a: ContactBody<'a>,
    b: ContactBody<'a>,
    point: Point,
    normal: Vector,
    separation: Real,
    manifold: Option<&'a Manifold>,
    kind: ContactKind,
    enabled: bool,
    friction: Real,
    restitution: Real,
    changed: bool,
}

/// What a [`PreSolveHook`] decided about a contact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContactResponse {
    /// Use the contact as it is.
    Keep,
    /// Leave the contact out of this step: no push, no impact, no event (the bodies pass).
    Disable,
    /// Use the contact with this friction and restitution in place of its bodies'
    /// combination.
    Modify(Material),
}

impl<'a> PreSolveContact<'a> {
    /// A contact between `a` and `b` at `point` (world) with the unit `normal` from `a`
    /// toward `b`, `separation` apart along it (negative when overlapping), the `manifold`
    /// if the contact is one; its friction and restitution start as the combination of the
    /// two bodies' materials. For a stepper's own CCD impacts; the world builds those of its
    /// manifolds.
    #[must_use]
    pub fn new(
        (a, b): (ContactBody<'a>, ContactBody<'a>),
        (point, normal): (Point, Vector),
        separation: Real,
        manifold: Option<&'a Manifold>,
        kind: ContactKind,
    ) -> Self {
        let material = (a.material(), b.material());
        Self {
            a,
            b,
            point,
            normal,
            separation,
            manifold,
            kind,
            enabled: true,
            friction: material.0.combined_friction(&material.1),
            restitution: material.0.combined_restitution(&material.1),
            changed: false,
        }
    }

    /// The two shapes, `a` first (the body with the smaller slot).
    #[inline]
    pub fn shapes(&self) -> (ShapeId, ShapeId) {
        (self.a.shape_id(), self.b.shape_id())
    }

    /// The first body, `a`.
    #[inline]
    pub fn a(&self) -> &ContactBody<'a> {
        &self.a
    }

    /// The second body, `b`.
    #[inline]
    pub fn b(&self) -> &ContactBody<'a> {
        &self.b
    }

    /// `body`'s side of the contact, or `None` if it is not one of the pair.
    pub fn body(&self, body: BodyHandle) -> Option<&ContactBody<'a>> {
        if self.a.handle == body {
            Some(&self.a)
        } else if self.b.handle == body {
            Some(&self.b)
        } else {
            None
        }
    }

    /// The other body of the pair than `body`, or `None` if `body` is not one of it.
    pub fn other(&self, body: BodyHandle) -> Option<&ContactBody<'a>> {
        if self.a.handle == body {
            Some(&self.b)
        } else if self.b.handle == body {
            Some(&self.a)
        } else {
            None
        }
    }

    /// A point of the contact (world): a manifold's deepest point, an impact's point.
    #[inline]
    pub fn point(&self) -> Point {
        self.point
    }

    /// The unit normal from `a` toward `b`.
    #[inline]
    pub fn normal(&self) -> Vector {
        self.normal
    }

    /// The unit normal pointing away from `body` toward the other body, or `None` if `body`
    /// is not one of the pair. A one-way platform keeps a contact whose normal away from it
    /// points up.
    pub fn normal_from(&self, body: BodyHandle) -> Option<Vector> {
        if self.a.handle == body {
            Some(self.normal)
        } else if self.b.handle == body {
            Some(-self.normal)
        } else {
            None
        }
    }

    /// The bodies' distance along the normal at the contact (world units; negative when they
    /// overlap): a manifold's smallest point separation; for an impact, the stepper's target
    /// separation, which it meets at.
    #[inline]
    pub fn separation(&self) -> Real {
        self.separation
    }

    /// The contact manifold, for [`ContactKind::Manifold`].
    #[inline]
    pub fn manifold(&self) -> Option<&'a Manifold> {
        self.manifold
    }

    /// Where the hook is asked.
    #[inline]
    pub fn kind(&self) -> ContactKind {
        self.kind
    }

    /// Leaves the contact out of this step: the contact solver does not see it, an impact is
    /// not resolved (the bodies pass through each other for the rest of the step, under
    /// [`FirstTimeOfImpact`](crate::FirstTimeOfImpact)) and no body is stopped at it.
    #[inline]
    pub fn disable(&mut self) {
        self.enabled = false;
    }

    /// Whether the contact is used (not [disabled](Self::disable)).
    #[inline]
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// The contact's friction coefficient: its bodies' combination, or what the hook set.
    #[inline]
    pub fn friction(&self) -> Real {
        self.friction
    }

    /// The contact's restitution: its bodies' combination, or what the hook set.
    #[inline]
    pub fn restitution(&self) -> Real {
        self.restitution
    }

    /// Sets the contact's friction coefficient for this step. A clamp of
    /// [`MotionClamping`](crate::MotionClamping) resolves no velocity and ignores it.
    ///
    /// # Errors
    /// [`WorldError`] naming `contact.friction` if it is not finite or negative; nothing
    /// changes then.
    pub fn set_friction(&mut self, friction: Real) -> Result<(), WorldError> {
        self.friction = non_negative("contact.friction", friction)?;
        self.changed = true;
        Ok(())
    }

    /// Sets the contact's restitution for this step, in `[0, 1]`.
    ///
    /// # Errors
    /// [`WorldError`] naming `contact.restitution` if it is not finite or outside `[0, 1]`;
    /// nothing changes then.
    pub fn set_restitution(&mut self, restitution: Real) -> Result<(), WorldError> {
        finite("contact.restitution", restitution)?;
        if !(0.0..=1.0).contains(&restitution) {
            return Err(WorldError::OutOfRange {
                field: "contact.restitution".to_owned(),
                value: restitution,
                expected: "in [0, 1]",
            });
        }
        self.restitution = restitution;
        self.changed = true;
        Ok(())
    }

    /// What the hook decided.
    #[must_use]
    pub fn response(&self) -> ContactResponse {
        if !self.enabled {
            ContactResponse::Disable
        } else if self.changed {
            match Material::new(self.restitution, self.friction) {
                Ok(material) => ContactResponse::Modify(material),
                Err(_) => ContactResponse::Keep,
            }
        } else {
            ContactResponse::Keep
        }
    }
}

/// A user's say over each contact before it is used (rapier's `modify_solver_contacts`,
/// Box2D's pre-solve function): disable it for this step, or change its friction and
/// restitution (through [`PreSolveContact`]). Enough for a one-way platform: keep a contact
/// whose normal away from the platform points up, disable the others, and a body passes up
/// through the platform and lands on it.
///
/// It is asked for every contact manifold the world builds (after the filters and the
/// [`PairFilter`] passed the pair, before any stepper uses it), and before every CCD impact,
/// with the impact's point and normal: under [`FirstTimeOfImpact`](crate::FirstTimeOfImpact)
/// before the impact is resolved (a disabled impact lets the pair pass through each other
/// for the rest of the step), under [`MotionClamping`](crate::MotionClamping) before a body
/// is clamped at a time of impact. A stop that has no point (a time of impact that gave up
/// at its iteration cap) does not ask it. The answers of one step hold for that step only:
/// the next step asks again. Any `Fn(&mut PreSolveContact<'_>) + Send + Sync` closure is a
/// pre-solve hook.
///
/// It differs from [`ImpactHook`](crate::ImpactHook), which runs *after* an impact was
/// resolved, may change the bodies (velocities, removal) and is given per step: this hook
/// runs *before* a contact is used, decides about that contact only, changes no body, is
/// kept by the world, and is asked by every stepper. At an impact of
/// [`FirstTimeOfImpact`](crate::FirstTimeOfImpact) both run: this one first, and the impact
/// hook only if the impact was resolved.
pub trait PreSolveHook: Send + Sync {
    /// Looks at `contact` and disables or changes it for this step.
    fn pre_solve(&self, contact: &mut PreSolveContact<'_>);
}

impl<F: Fn(&mut PreSolveContact<'_>) + Send + Sync> PreSolveHook for F {
    #[inline]
    fn pre_solve(&self, contact: &mut PreSolveContact<'_>) {
        self(contact);
    }
}
