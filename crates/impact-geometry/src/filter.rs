//! Which shapes may touch: [`CollisionFilter`], with Box2D's category, mask and group
//! semantics. It lives here, below the crates that use it, so that the solver's shapes and
//! the broadphase's proxies hold the same filter under the same rule.

/// What a shape is and what it collides with: Box2D's `b2Filter`.
///
/// Two shapes `a` and `b` may touch when [`CollisionFilter::should_collide`] says so:
/// - if both have the same non-zero `group_index`, the group decides alone: a positive group
///   always collides, a negative group never does (a ragdoll's limbs share a negative group);
/// - otherwise each must be in a category the other accepts:
///   `a.mask_bits & b.category_bits != 0` and `b.mask_bits & a.category_bits != 0`.
///
/// Every value is valid: a shape with `category_bits` 0 or `mask_bits` 0 touches nothing. The
/// default is category 1, every bit of the mask, group 0: everything collides with everything,
/// and a world of default filters runs bit for bit as one without filters.
///
/// A filter is honoured wherever a pair can arise: the world's contact pairs, the time of
/// impact of every stepper, and so every event; the scene queries take their own categories
/// and mask in a query filter.
///
/// ```
/// use impact_geometry::CollisionFilter;
///
/// const PLAYER: u64 = 1 << 1;
/// const BULLET: u64 = 1 << 2;
/// let player = CollisionFilter::new(PLAYER, !PLAYER);
/// let own_bullet = CollisionFilter::new(BULLET, !(PLAYER | BULLET));
/// assert!(!player.should_collide(&own_bullet));
/// assert!(player.should_collide(&CollisionFilter::default()));
/// // A shared negative group never collides, whatever the bits say.
/// let limb = CollisionFilter::default().group(-3);
/// assert!(!limb.should_collide(&limb));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct CollisionFilter {
    /// The categories this shape is in (usually one bit).
    pub category_bits: u64,
    /// The categories this shape accepts contacts with.
    pub mask_bits: u64,
    /// Shapes of the same non-zero group always collide (positive) or never do (negative),
    /// whatever their bits; 0 is no group.
    pub group_index: i32,
}

impl CollisionFilter {
    /// Category 1, every bit of the mask, no group: collides with everything.
    pub const DEFAULT: Self = Self {
        category_bits: 1,
        mask_bits: u64::MAX,
        group_index: 0,
    };

    /// A filter in `category_bits` that accepts `mask_bits`, no group.
    #[must_use]
    pub const fn new(category_bits: u64, mask_bits: u64) -> Self {
        Self {
            category_bits,
            mask_bits,
            group_index: 0,
        }
    }

    /// The same filter in group `group_index` (see the type's docs).
    #[must_use]
    pub const fn group(mut self, group_index: i32) -> Self {
        self.group_index = group_index;
        self
    }

    /// Whether a shape with this filter and one with `other` may touch (Box2D's
    /// `b2ShouldShapesCollide`). Symmetric.
    #[inline]
    #[must_use]
    pub const fn should_collide(&self, other: &Self) -> bool {
        if self.group_index == other.group_index && self.group_index != 0 {
            return self.group_index > 0;
        }
        (self.mask_bits & other.category_bits) != 0 && (other.mask_bits & self.category_bits) != 0
    }

    /// Whether this filter lets everything through: with [`CollisionFilter::DEFAULT`] against
    /// any filter, only the other filter decides.
    #[inline]
    #[must_use]
    pub const fn is_default(&self) -> bool {
        self.category_bits == Self::DEFAULT.category_bits
            && self.mask_bits == Self::DEFAULT.mask_bits
            && self.group_index == Self::DEFAULT.group_index
    }
}

impl Default for CollisionFilter {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Box2D's rule, written out on every combination of a few bit patterns and groups,
    /// against the rule's statement: symmetric, the group first, then both masks.
    #[test]
    fn should_collide_follows_box2d() {
        let bits = [0u64, 1, 2, 3, u64::MAX, 1 << 63];
        let groups = [-2, -1, 0, 1, 2];
        let mut filters = Vec::new();
        for &c in &bits {
            for &m in &bits {
                for &g in &groups {
                    filters.push(CollisionFilter::new(c, m).group(g));
                }
            }
        }
        for a in &filters {
            for b in &filters {
                let expected = if a.group_index == b.group_index && a.group_index != 0 {
                    a.group_index > 0
                } else {
                    a.mask_bits & b.category_bits != 0 && b.mask_bits & a.category_bits != 0
                };
                assert_eq!(a.should_collide(b), expected, "{a:?} {b:?}");
                assert_eq!(a.should_collide(b), b.should_collide(a));
            }
        }
    }

    #[test]
    fn the_default_collides_with_every_shape_that_accepts_category_one() {
        let d = CollisionFilter::default();
        assert!(d.is_default());
        assert!(d.should_collide(&d));
        assert!(!d.should_collide(&CollisionFilter::new(2, 2)));
        assert!(d.should_collide(&CollisionFilter::new(2, 1)));
    }
}
