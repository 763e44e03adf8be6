//! The checks of [`GroupImpactSolver::resolve_with`](super::GroupImpactSolver::resolve_with)
//! on its input, and the material of a contact it resolves.

use super::{GroupContact, GroupPoint};
use crate::body_set::{BodyHandle, BodySet};
use crate::error::{SolverError, finite_point, finite_vector};
use crate::material::{Material, combine_friction, combine_restitution};
use crate::settings::ImpactSettings;
use impact_geometry::Real;

/// The friction and restitution of a contact of `a` and `b`: `material`'s, or the
/// combination of the two bodies' (as [`resolve_impact_with`](crate::resolve_impact_with)).
/// Both bodies are live (checked before).
pub(super) fn pair_material(
    bodies: &BodySet,
    (a, b): (BodyHandle, BodyHandle),
    material: Option<&Material>,
) -> (Real, Real) {
    if let Some(m) = material {
        return (m.friction(), m.restitution());
    }
    let (Some(a), Some(b)) = (bodies.get(a), bodies.get(b)) else {
        return (0.0, 0.0);
    };
    (
        combine_friction(a.material().friction(), b.material().friction()),
        combine_restitution(a.material().restitution(), b.material().restitution()),
    )
}

/// The checks of [`GroupImpactSolver::resolve_with`](super::GroupImpactSolver::resolve_with) on the point `p` at place `i` of its
/// other points.
pub(super) fn validate_point(
    bodies: &BodySet,
    p: &GroupPoint,
    i: usize,
) -> Result<(), SolverError> {
    let field = |part: &str| format!("impact.also[{i}]{part}");
    finite_point(&field(".point"), &p.point)?;
    finite_vector(&field(".normal"), &p.normal)?;
    let norm2 = p.normal.norm_squared();
    if (norm2 - 1.0).abs() > 1e-9 {
        return Err(SolverError::OutOfRange {
            field: field(".normal"),
            value: norm2.sqrt(),
            expected: "a unit vector",
        });
    }
    if p.a == p.b {
        return Err(SolverError::SameBody {
            field: field(""),
            handle: p.a,
        });
    }
    bodies.try_get(p.a, &field(".a"))?;
    bodies.try_get(p.b, &field(".b"))?;
    Ok(())
}

/// The checks of [`resolve_impact_with`](crate::resolve_impact_with), in its order.
pub(super) fn validate(
    bodies: &BodySet,
    contact: &GroupContact,
    settings: &ImpactSettings,
) -> Result<(), SolverError> {
    settings.validate()?;
    finite_point("impact.point", &contact.point)?;
    if let Some(second) = &contact.second {
        finite_point("impact.second", second)?;
    }
    finite_vector("impact.normal", &contact.normal)?;
    let norm2 = contact.normal.norm_squared();
    if (norm2 - 1.0).abs() > 1e-9 {
        return Err(SolverError::OutOfRange {
            field: "impact.normal".to_owned(),
            value: norm2.sqrt(),
            expected: "a unit vector",
        });
    }
    if contact.a == contact.b {
        return Err(SolverError::SameBody {
            field: "impact".to_owned(),
            handle: contact.a,
        });
    }
    bodies.try_get(contact.a, "impact.a")?;
    bodies.try_get(contact.b, "impact.b")?;
    Ok(())
}
