//! What the tests of collision filters, sensors and pair hooks share: seeded filters, a
//! stepper that records what the world gave it, the one-way platform's hook, and the scenes
//! made of them.
//!
//! - [`random_filter`]: a seeded [`CollisionFilter`] over few categories and groups, so that
//!   a scene of them has many pairs kept apart and many let through.
//! - [`Recording`]: any stepper, recording each step's contact manifolds and sensor pairs
//!   (the world's answer to the filters) before it runs, so a test can hold them against the
//!   narrowphase.
//! - [`OneWay`]: the pre-solve hook of a one-way platform; [`one_way_platform`], a scene
//!   with one, and a body launched at it.

use crate::SplitMix64;
use crate::scenes::Scene;
use impact_broadphase::Broadphase;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Vector};
use impact_solver::{BodyHandle, CollisionFilter, ContactPair, RigidBody, RigidBodyDef, ShapeId};
use impact_stepper::{
    PreSolveContact, PreSolveHook, StepContext, StepPreview, Stepper, WorldError, WorldSettings,
};

/// A seeded filter: one of four categories (bits 1 to 4), a mask of a random subset of
/// them (each kept with probability 3/4), and one time in four a group from -2 to 2 (0 is
/// no group). Pairs of such filters are often kept apart by the bits and by negative groups,
/// and sometimes brought together by a positive group whatever their bits.
pub fn random_filter(rng: &mut SplitMix64) -> CollisionFilter {
    let category = 1u64 << (1 + rng.below(4));
    let mut mask = 1u64; // Category 1 is the scenes' static geometry: always accepted.
    for bit in 1..=4 {
        if rng.below(4) != 0 {
            mask |= 1 << bit;
        }
    }
    let group = if rng.below(4) == 0 {
        rng.below(5) as i32 - 2
    } else {
        0
    };
    CollisionFilter::new(category, mask).group(group)
}

/// A stepper `S` that records, at each step, the contact manifolds and sensor pairs the
/// world gave it, then steps as `S` does (every question of the world is `S`'s answer).
#[derive(Debug, Clone, Default)]
pub struct Recording<S> {
    /// The stepper that steps.
    pub inner: S,
    /// The last step's contacts, as the world gave them.
    pub contacts: Vec<ContactPair>,
    /// The last step's candidate pairs of shapes with a sensor shape.
    pub sensor_pairs: Vec<(ShapeId, ShapeId, Vector)>,
}

impl<S: Stepper> Stepper for Recording<S> {
    type Report = S::Report;

    fn advance<B: Broadphase>(&mut self, ctx: StepContext<'_, B>) -> Result<S::Report, WorldError> {
        self.contacts.clear();
        self.contacts.extend_from_slice(ctx.contacts);
        self.sensor_pairs.clear();
        self.sensor_pairs.extend_from_slice(ctx.sensor_pairs);
        self.inner.advance(ctx)
    }

    fn needs_world_pass(&mut self, preview: &StepPreview<'_>) -> bool {
        self.inner.needs_world_pass(preview)
    }

    fn contact_reach(&self, body: &RigidBody, gravity: Real, dt: Real, pad: Real) -> Option<Real> {
        self.inner.contact_reach(body, gravity, dt, pad)
    }

    fn speculates_past_size(&self, a: &RigidBody, b: &RigidBody) -> bool {
        self.inner.speculates_past_size(a, b)
    }

    fn follows_courses(&self) -> bool {
        self.inner.follows_courses()
    }
}

/// The pre-solve hook of a one-way platform: a contact of `platform` is kept only if its
/// normal away from the platform points up (within 60 degrees of `+y`), so bodies pass up
/// through the platform and land on it. Every other contact is left alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OneWay {
    /// The platform's body.
    pub platform: BodyHandle,
}

impl PreSolveHook for OneWay {
    fn pre_solve(&self, contact: &mut PreSolveContact<'_>) {
        if let Some(normal) = contact.normal_from(self.platform)
            && normal.y < 0.5
        {
            contact.disable();
        }
    }
}

/// What a one-way platform is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlatformKind {
    /// A static box [`PLATFORM_HALF_WIDTH`] by [`PLATFORM_HALF_HEIGHT`].
    Slab,
    /// A static zero-thickness segment [`PLATFORM_HALF_WIDTH`] each way.
    Segment,
}

/// Half the width of the platform of [`one_way_platform`] (metres).
pub const PLATFORM_HALF_WIDTH: Real = 10.0;
/// Half the thickness of a [`PlatformKind::Slab`] (metres).
pub const PLATFORM_HALF_HEIGHT: Real = 0.1;
/// Radius of the body of [`one_way_platform`] (metres).
pub const JUMPER_RADIUS: Real = 0.25;

/// A static platform centred on the origin (its top at [`PLATFORM_HALF_HEIGHT`] for a slab,
/// 0 for a segment; `handles[0]`), and a dynamic CCD disc of radius [`JUMPER_RADIUS`]
/// (`handles[1]`) at `start` moving at `linvel`, without restitution, with friction 0.6;
/// gravity -10 m/s^2. [`OneWay`] with the platform's handle makes it a one-way platform.
///
/// Parameters are not checked here: a start or velocity that is not finite is refused by
/// [`Scene::build`] with the field named.
pub fn one_way_platform(kind: PlatformKind, start: Point, linvel: Vector) -> Scene {
    let platform: Shape = match kind {
        PlatformKind::Slab => ConvexPolygon::rectangle(PLATFORM_HALF_WIDTH, PLATFORM_HALF_HEIGHT)
            .expect("positive constants")
            .into(),
        PlatformKind::Segment => Segment::new(
            Point::new(-PLATFORM_HALF_WIDTH, 0.0),
            Point::new(PLATFORM_HALF_WIDTH, 0.0),
        )
        .expect("distinct constants")
        .into(),
    };
    let jumper = RigidBodyDef::new(
        Circle::new(JUMPER_RADIUS)
            .expect("a positive constant")
            .into(),
    )
    .pose(Isometry::translation(start.x, start.y))
    .linvel(linvel)
    .friction(0.6)
    .ccd(true);
    Scene {
        name: format!("one_way_platform_{kind:?}").to_lowercase(),
        settings: WorldSettings::with_gravity(Vector::new(0.0, -10.0)),
        bodies: vec![RigidBodyDef::fixed(platform).friction(0.6), jumper],
    }
}

/// The top of the platform of [`one_way_platform`] (metres): where a body lands on it.
pub fn platform_top(kind: PlatformKind) -> Real {
    match kind {
        PlatformKind::Slab => PLATFORM_HALF_HEIGHT,
        PlatformKind::Segment => 0.0,
    }
}
