//! [`QueryFilter`]: which shapes a scene query sees.

use super::error::QueryError;
use core::fmt;
use impact_solver::{BodyHandle, BodyType, RigidBody, ShapeId};

/// A [`QueryFilter`]'s predicate: called with a shape and its body, `true` keeps the shape.
/// It may be called more than once for the same shape in one query (a search for the
/// nearest shape looks again as it widens), so it should answer the same each time.
pub type ShapePredicate<'a> = dyn Fn(ShapeId, &RigidBody) -> bool + 'a;

/// Which shapes a scene query sees: Box2D's `b2QueryFilter` (categories and mask) with
/// rapier's `QueryFilter` exclusions (bodies, body types, sensors, a predicate).
///
/// A shape passes when all of these hold, tested in this order (the predicate last, so it
/// runs only for shapes that pass the rest):
/// 1. **categories and mask**, against the shape's [`CollisionFilter`](impact_solver::CollisionFilter)
///    ([`BodyShape::filter`](impact_solver::BodyShape::filter), each shape of a body its
///    own) as Box2D's `b2ShouldQueryShape` tests them:
///    `shape.category_bits & query.mask_bits != 0` (the query accepts the shape's
///    category) and `shape.mask_bits & query.category_bits != 0` (the shape accepts the
///    query's). The shape's `group_index` plays no part: groups are about pairs of shapes.
/// 2. **sensors**: a sensor shape ([`BodyShape::is_sensor`](impact_solver::BodyShape::is_sensor)) passes only with
///    `include_sensors` (by default sensors are left out: a ray meant for solid things
///    should not stop at a trigger zone);
/// 3. **body types**: `exclude_fixed`, `exclude_kinematic`, `exclude_dynamic` leave out the
///    shapes of static, kinematic or dynamic bodies;
/// 4. **bodies**: the shapes of the bodies in `exclude_bodies` are left out (the body casting
///    the ray, a player's own body);
/// 5. **predicate**: if set, it is called with the shape and its body and must return true.
///
/// The default is category 1, every mask bit, sensors left out, every body type, no body
/// excluded, no predicate: with every shape's filter at its default, every solid shape
/// passes.
///
/// A filter with no category bit or no mask bit can pass no shape; a query refuses it as a
/// mistake ([`QueryError`] naming `filter.category_bits` or `filter.mask_bits`). To find
/// nothing on purpose, there is no need to ask.
///
/// ```
/// use impact_solver::{BodyHandle, CollisionFilter};
/// use impact_stepper::QueryFilter;
///
/// const WALLS: u64 = 1 << 1;
/// const ENEMIES: u64 = 1 << 2;
/// let player = BodyHandle { index: 0, generation: 0 };
/// let exclude = [player];
/// // Line of sight: walls and enemies, not the player's own body, sensors left out.
/// let sight = QueryFilter::new().mask_bits(WALLS | ENEMIES).exclude_bodies(&exclude);
/// assert!(sight.accepts(&CollisionFilter::new(WALLS, u64::MAX)));
/// assert!(!sight.accepts(&CollisionFilter::new(1, u64::MAX)));
/// // A shape whose mask leaves out the query's category does not see it either.
/// assert!(!sight.accepts(&CollisionFilter::new(WALLS, !1)));
/// ```
#[derive(Clone, Copy)]
pub struct QueryFilter<'a> {
    /// The categories the query is in: a shape passes only if its mask has one of them.
    /// Default 1, the category of a default shape.
    pub category_bits: u64,
    /// The categories the query accepts: a shape passes only if it is in one of them.
    /// Default every bit.
    pub mask_bits: u64,
    /// Whether sensor shapes pass. Default `false`.
    pub include_sensors: bool,
    /// Leave out the shapes of static (fixed) bodies.
    pub exclude_fixed: bool,
    /// Leave out the shapes of kinematic bodies.
    pub exclude_kinematic: bool,
    /// Leave out the shapes of dynamic bodies.
    pub exclude_dynamic: bool,
    /// The bodies whose shapes are left out.
    pub exclude_bodies: &'a [BodyHandle],
    /// Called last, for the shapes that pass the rest: `true` keeps the shape.
    pub predicate: Option<&'a ShapePredicate<'a>>,
}

impl Default for QueryFilter<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for QueryFilter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QueryFilter")
            .field("category_bits", &self.category_bits)
            .field("mask_bits", &self.mask_bits)
            .field("include_sensors", &self.include_sensors)
            .field("exclude_fixed", &self.exclude_fixed)
            .field("exclude_kinematic", &self.exclude_kinematic)
            .field("exclude_dynamic", &self.exclude_dynamic)
            .field("exclude_bodies", &self.exclude_bodies)
            .field("predicate", &self.predicate.map(|_| "Fn"))
            .finish()
    }
}

impl<'a> QueryFilter<'a> {
    /// The default filter (see the type's docs): every solid shape of a default filter
    /// passes.
    pub const fn new() -> Self {
        Self {
            category_bits: 1,
            mask_bits: u64::MAX,
            include_sensors: false,
            exclude_fixed: false,
            exclude_kinematic: false,
            exclude_dynamic: false,
            exclude_bodies: &[],
            predicate: None,
        }
    }

    /// The same filter in the categories `category_bits`.
    #[must_use]
    pub const fn category_bits(mut self, category_bits: u64) -> Self {
        self.category_bits = category_bits;
        self
    }

    /// The same filter accepting the categories `mask_bits`.
    #[must_use]
    pub const fn mask_bits(mut self, mask_bits: u64) -> Self {
        self.mask_bits = mask_bits;
        self
    }

    /// The same filter, sensors included or not.
    #[must_use]
    pub const fn include_sensors(mut self, include: bool) -> Self {
        self.include_sensors = include;
        self
    }

    /// The same filter without the shapes of static bodies.
    #[must_use]
    pub const fn exclude_fixed(mut self) -> Self {
        self.exclude_fixed = true;
        self
    }

    /// The same filter without the shapes of kinematic bodies.
    #[must_use]
    pub const fn exclude_kinematic(mut self) -> Self {
        self.exclude_kinematic = true;
        self
    }

    /// The same filter without the shapes of dynamic bodies.
    #[must_use]
    pub const fn exclude_dynamic(mut self) -> Self {
        self.exclude_dynamic = true;
        self
    }

    /// The same filter without the shapes of `bodies`.
    #[must_use]
    pub const fn exclude_bodies(mut self, bodies: &'a [BodyHandle]) -> Self {
        self.exclude_bodies = bodies;
        self
    }

    /// The same filter with a predicate, called last: `true` keeps the shape.
    #[must_use]
    pub fn predicate(mut self, predicate: &'a ShapePredicate<'a>) -> Self {
        self.predicate = Some(predicate);
        self
    }

    /// Whether a shape with collision filter `shape` passes the categories and mask (step 1
    /// of the type's docs).
    #[inline]
    pub fn accepts(&self, shape: &impact_solver::CollisionFilter) -> bool {
        shape.category_bits & self.mask_bits != 0 && shape.mask_bits & self.category_bits != 0
    }

    /// Whether shape `shape` of `body` passes the whole filter (every step of the type's
    /// docs, the predicate last), by that shape's own filter and sensor flag
    /// (`body.shapes()[shape.index]`); `false` if the body has no such shape.
    pub fn passes(&self, shape: ShapeId, body: &RigidBody) -> bool {
        let Some(own) = body.shapes().get(shape.index as usize) else {
            return false;
        };
        if !self.accepts(&own.filter()) || (own.is_sensor() && !self.include_sensors) {
            return false;
        }
        let excluded_type = match body.body_type() {
            BodyType::Static => self.exclude_fixed,
            BodyType::Kinematic => self.exclude_kinematic,
            BodyType::Dynamic => self.exclude_dynamic,
        };
        !excluded_type
            && !self.exclude_bodies.contains(&shape.body)
            && self.predicate.is_none_or(|keep| keep(shape, body))
    }

    /// Checks the filter: at least one category bit and one mask bit.
    ///
    /// # Errors
    /// [`QueryError::OutOfRange`] naming `filter.category_bits` or `filter.mask_bits` when it
    /// is zero.
    pub fn validate(&self) -> Result<(), QueryError> {
        for (field, bits) in [
            ("filter.category_bits", self.category_bits),
            ("filter.mask_bits", self.mask_bits),
        ] {
            if bits == 0 {
                return Err(QueryError::OutOfRange {
                    field: field.to_owned(),
                    value: 0.0,
                    expected: "at least one bit (a query with none can pass no shape)",
                });
            }
        }
        Ok(())
    }
}
