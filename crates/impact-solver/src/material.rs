//! Surface materials and the rules that combine two of them at a contact.

use crate::error::{SolverError, in_range, non_negative};
use impact_geometry::Real;

/// How a body's surface responds at a contact: how much it bounces and how much it grips.
///
/// # Combine rules
/// A contact involves two materials; the solver uses one coefficient per contact, combined as
/// Box2D does:
/// - **friction** `mu = sqrt(mu_a * mu_b)` (geometric mean). A frictionless surface
///   (`mu = 0`) makes every contact it takes part in frictionless, whatever the other side
///   is (ice is slippery against rubber too), while two equal materials keep their own value.
///   An arithmetic mean would give ice on rubber half of rubber's grip.
/// - **restitution** `e = max(e_a, e_b)`. A bouncy ball bounces on any floor: with the
///   maximum, the designer sets restitution on the one body that should bounce and leaves the
///   rest of the world at the default 0. With the geometric mean, a ball with `e = 0.9` would
///   never bounce on a floor of restitution 0.
///
/// Both rules are symmetric, so the order of the bodies in a pair never changes the result.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "MaterialDef", into = "MaterialDef")
)]
pub struct Material {
    restitution: Real,
    friction: Real,
}

impl Default for Material {
    /// Restitution 0 (no bounce) and friction 0.6, Box2D's defaults.
    fn default() -> Self {
        Self {
            restitution: 0.0,
            friction: 0.6,
        }
    }
}

impl Material {
    /// A material with `restitution` in `[0, 1]` (0: no bounce, 1: perfectly elastic) and a
    /// Coulomb `friction` coefficient of zero or more.
    ///
    /// Restitution above 1 would make every impact add energy, which the solver promises
    /// never to do, so it is refused.
    ///
    /// # Errors
    /// [`SolverError`] naming `material.restitution` (not finite or outside `[0, 1]`) or
    /// `material.friction` (not finite or negative).
    pub fn new(restitution: Real, friction: Real) -> Result<Self, SolverError> {
        let restitution = in_range("material.restitution", restitution, 0.0, 1.0, "in [0, 1]")?;
        let friction = non_negative("material.friction", friction)?;
        Ok(Self {
            restitution,
            friction,
        })
    }

    /// The coefficient of restitution, in `[0, 1]`.
    #[inline]
    pub fn restitution(&self) -> Real {
        self.restitution
    }

    /// The Coulomb friction coefficient, zero or more.
    #[inline]
    pub fn friction(&self) -> Real {
        self.friction
    }

    /// The friction coefficient of a contact between `self` and `other`: `sqrt(mu_a * mu_b)`.
    #[inline]
    pub fn combined_friction(&self, other: &Material) -> Real {
        combine_friction(self.friction, other.friction)
    }

    /// The restitution of a contact between `self` and `other`: `max(e_a, e_b)`.
    #[inline]
    pub fn combined_restitution(&self, other: &Material) -> Real {
        combine_restitution(self.restitution, other.restitution)
    }
}

/// `sqrt(a * b)`: see [`Material`] for why.
#[inline]
pub fn combine_friction(a: Real, b: Real) -> Real {
    (a * b).sqrt()
}

/// `max(a, b)`: see [`Material`] for why.
#[inline]
pub fn combine_restitution(a: Real, b: Real) -> Real {
    a.max(b)
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct MaterialDef {
    restitution: Real,
    friction: Real,
}

#[cfg(feature = "serde")]
impl TryFrom<MaterialDef> for Material {
    type Error = SolverError;
    fn try_from(d: MaterialDef) -> Result<Self, SolverError> {
        Self::new(d.restitution, d.friction)
    }
}

#[cfg(feature = "serde")]
impl From<Material> for MaterialDef {
    fn from(m: Material) -> Self {
        Self {
            restitution: m.restitution,
            friction: m.friction,
        }
    }
}
