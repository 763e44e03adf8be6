//! The single-impact resolver: one collision at the exact moment of contact (the al-ro
//! collision demo).

use crate::body_set::{BodyHandle, BodySet};
use crate::contact::contact_tangent;
use crate::error::{SolverError, finite_point, finite_vector};
use crate::material::{Material, combine_friction, combine_restitution};
use crate::settings::ImpactSettings;
use impact_geometry::{Point, Real, Vector, cross};

/// What [`resolve_impact`] applied: `normal * normal_direction + tangent * tangent_direction`
/// to body B at `point`, and the opposite to body A.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Impulse {
    /// The normal impulse (mass times velocity), zero or more.
    pub normal: Real,
    /// The friction impulse, signed along `tangent_direction`; `|tangent| <= mu * normal`.
    pub tangent: Real,
    /// The unit normal from A toward B.
    pub normal_direction: Vector,
    /// The tangent, [`contact_tangent`] of the normal.
    pub tangent_direction: Vector,
    /// Where the impulse was applied (world).
    pub point: Point,
    /// `-(v_b - v_a) . n` at the point before the impact: positive when the bodies were
    /// closing. An event's approach speed.
    pub approach_speed: Real,
    /// The restitution used: the contact's (see [`resolve_impact_with`]), or 0 below the
    /// threshold.
    pub restitution: Real,
}

impl Impulse {
    /// The impulse vector B received (A received its opposite).
    #[inline]
    pub fn vector(&self) -> Vector {
        self.normal_direction * self.normal + self.tangent_direction * self.tangent
    }

    /// Whether nothing was applied (the bodies were separating, or both have infinite mass).
    #[inline]
    pub fn is_zero(&self) -> bool {
        self.normal == 0.0 && self.tangent == 0.0
    }
}

/// [`resolve_impact_with`] with the combination of the two bodies' materials: the usual
/// impact.
///
/// # Errors
/// As [`resolve_impact_with`].
pub fn resolve_impact(
    bodies: &mut BodySet,
    a: BodyHandle,
    b: BodyHandle,
    point: Point,
    normal: Vector,
    settings: &ImpactSettings,
) -> Result<Impulse, SolverError> {
    resolve_impact_with(bodies, a, b, point, normal, None, settings)
}

/// Resolves one impact between bodies `a` and `b` touching at `point` (world) with unit
/// `normal` from A toward B: the impulse of the al-ro collision demo with the contact's
/// restitution `e` (`material`'s, or the combination of the two bodies' materials without
/// one),
///
/// ```text
/// j = -(1 + e) v_rel . n / (1/m_a + 1/m_b + ((r_a x n)^2 / I_a + (r_b x n)^2 / I_b))
/// ```
///
/// with `v_rel` the velocity of B's material point minus A's and `r` the lever arms from the
/// centres of mass, followed by the Coulomb friction impulse along the tangent: the one that
/// stops the tangential slip (computed after the normal impulse, with the full angular
/// terms), clamped to `mu * j` (`mu` from `material`, or combined likewise). Clamping at the
/// impulse that stops the slip is what makes the contact stick instead of reversing the
/// tangential velocity.
///
/// Both impulses are applied to both bodies, so linear and angular momentum are conserved;
/// each one removes kinetic energy or, for `e = 1` without friction, conserves it. Static
/// and kinematic bodies act with infinite mass. If the points are not approaching
/// (`v_rel . n >= 0`) nothing is applied and a zero impulse is returned; approach speeds
/// below `settings.restitution_threshold` are resolved with `e = 0`.
///
/// # Errors
/// [`SolverError`] naming `impact.a` / `impact.b` (stale handle), `impact` (the same body
/// twice), `impact.point` (not finite), `impact.normal` (not a finite unit vector) or
/// `impact_settings.*`; no body is changed then.
pub fn resolve_impact_with(
    bodies: &mut BodySet,
    a: BodyHandle,
    b: BodyHandle,
    point: Point,
    normal: Vector,
    material: Option<&Material>,
    settings: &ImpactSettings,
) -> Result<Impulse, SolverError> {
    settings.validate()?;
    finite_point("impact.point", &point)?;
    finite_vector("impact.normal", &normal)?;
    let norm2 = normal.norm_squared();
    // Normals from the narrowphase are unit to rounding; a visibly longer one would scale the
    // impulse and break energy conservation.
    if (norm2 - 1.0).abs() > 1e-9 {
        return Err(SolverError::OutOfRange {
            field: "impact.normal".to_owned(),
            value: norm2.sqrt(),
            expected: "a unit vector",
        });
    }
    if a == b {
        return Err(SolverError::SameBody {
            field: "impact".to_owned(),
            handle: a,
        });
    }
    bodies.try_get(a, "impact.a")?;
    bodies.try_get(b, "impact.b")?;
    let Some((body_a, body_b)) = bodies.get_pair_mut(a, b) else {
        // Unreachable after the checks above; answered as an error rather than a panic.
        return Err(SolverError::UnknownBody {
            field: "impact".to_owned(),
            handle: a,
        });
    };

    let tangent = contact_tangent(&normal);
    let r_a = point - body_a.center_of_mass();
    let r_b = point - body_b.center_of_mass();
    let relative = |ba: &crate::RigidBody, bb: &crate::RigidBody| {
        bb.velocity_at_point(&point) - ba.velocity_at_point(&point)
    };
    let vn = relative(body_a, body_b).dot(&normal);
    let mut out = Impulse {
        normal: 0.0,
        tangent: 0.0,
        normal_direction: normal,
        tangent_direction: tangent,
        point,
        approach_speed: -vn,
        restitution: 0.0,
    };
    if vn >= 0.0 {
        return Ok(out);
    }
    let (ma, ia) = (body_a.inv_mass(), body_a.inv_inertia());
    let (mb, ib) = (body_b.inv_mass(), body_b.inv_inertia());
    let rn_a = cross(&r_a, &normal);
    let rn_b = cross(&r_b, &normal);
    let k_normal = ma + mb + ia * rn_a * rn_a + ib * rn_b * rn_b;
    if k_normal <= 0.0 {
        return Ok(out);
    }
    let (mu, mut e) = match material {
        Some(m) => (m.friction(), m.restitution()),
        None => (
            combine_friction(body_a.material().friction(), body_b.material().friction()),
            combine_restitution(
                body_a.material().restitution(),
                body_b.material().restitution(),
            ),
        ),
    };
    if -vn < settings.restitution_threshold {
        e = 0.0;
    }
    let j = -(1.0 + e) * vn / k_normal;
    if !j.is_finite() {
        // Masses, lever arms or speeds past the range of `f64` (a disc of radius 3e54 found by
        // the scene fuzzer): no impulse is better than a NaN one, or a panic in the clamp of
        // the friction below.
        return Ok(out);
    }
    let p = normal * j;
    body_a.apply_impulse_unchecked(&(-p), &r_a);
    body_b.apply_impulse_unchecked(&p, &r_b);
    out.normal = j;
    out.restitution = e;

    if settings.friction && mu > 0.0 {
        let vt = relative(body_a, body_b).dot(&tangent);
        let rt_a = cross(&r_a, &tangent);
        let rt_b = cross(&r_b, &tangent);
        let k_tangent = ma + mb + ia * rt_a * rt_a + ib * rt_b * rt_b;
        let free = -vt / k_tangent;
        if k_tangent > 0.0 && vt != 0.0 && free.is_finite() {
            let limit = mu * j;
            let jt = free.clamp(-limit, limit);
            let pt = tangent * jt;
            body_a.apply_impulse_unchecked(&(-pt), &r_a);
            body_b.apply_impulse_unchecked(&pt, &r_b);
            out.tangent = jt;
        }
    }
    Ok(out)
}
