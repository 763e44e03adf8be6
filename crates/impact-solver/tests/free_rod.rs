//! Invariant: an off-centre, frictionless hit on a free rod matches the hand derivation.
//!
//! A rod of mass `M = 3`, length `L = 2` (inertia `I = M L^2 / 12 = 1`, set by hand) lies on
//! the x axis, centre at the origin. A disc of mass `m = 1` moving up at `u = 2` hits its
//! underside at `x = d = 0.5`. The normal is `n = +y` (disc A toward rod B) and the lever arm
//! of the rod is `r_b = (d, -h)`, so `r_b x n = d`; the disc is hit on its line of centres,
//! `r_a x n = 0`. The al-ro collision demo's impulse is
//!
//! ```text
//! k = 1/m + 1/M + d^2 / I = 1 + 1/3 + 1/4 = 19/12,      j = (1 + e) u / k = 24 (1 + e) / 19
//! disc:  u' = u - j / m        rod:  V = j / M,   omega = j d / I
//! ```
//!
//! - `e = 1`: `j = 48/19`, `u' = -10/19`, `V = 16/19`, `omega = 24/19`; kinetic energy
//!   `(100 + 3 * 256 + 576) / 722 = 2` is conserved.
//! - `e = 0`: `j = 24/19`, `u' = 14/19`, `V = 8/19`, `omega = 12/19`; the rod's contact
//!   point moves at `V + omega d = 14/19`, the disc's speed: they move together.
//!
//! In both cases the rod's point at `x = -I / (M d) = -2/3` (the centre of percussion's
//! conjugate) is momentarily at rest: `V - omega * 2/3 = 0`.

mod common;

use common::body;
use impact_geometry::{Circle, ConvexPolygon, Isometry, MassProperties, Point, Real, Vector};
use impact_solver::{BodySet, ImpactSettings, RigidBodyDef, resolve_impact};

const TOL: Real = 1e-12;

fn hit(e: Real) -> (Real, Real, Real, BodySet, impact_solver::BodyHandle) {
    let (half_height, radius) = (0.05, 0.2);
    let mut bodies = BodySet::new();
    let rod = bodies
        .insert(
            RigidBodyDef::new(ConvexPolygon::rectangle(1.0, half_height).unwrap().into())
                .mass_properties(MassProperties {
                    mass: 3.0,
                    local_center: Point::origin(),
                    inertia: 1.0,
                })
                .restitution(e)
                .friction(0.0),
        )
        .unwrap();
    let disc = bodies
        .insert(
            RigidBodyDef::new(Circle::new(radius).unwrap().into())
                .mass_properties(MassProperties {
                    mass: 1.0,
                    local_center: Point::origin(),
                    inertia: 0.02,
                })
                .pose(Isometry::translation(0.5, -half_height - radius))
                .linvel(Vector::new(0.0, 2.0))
                .restitution(e)
                .friction(0.0),
        )
        .unwrap();
    let imp = resolve_impact(
        &mut bodies,
        disc,
        rod,
        Point::new(0.5, -half_height),
        Vector::y(),
        &ImpactSettings::default(),
    )
    .unwrap();
    let r = body(&bodies, rod);
    assert!(r.linvel().x.abs() < TOL);
    assert!(body(&bodies, disc).linvel().x.abs() < TOL);
    assert!(body(&bodies, disc).angvel().abs() < TOL);
    // The conjugate point of the rod is at rest right after the hit.
    let still = r.velocity_at_point(&Point::new(-2.0 / 3.0, 0.0));
    assert!(still.norm() < TOL, "conjugate point moves at {still}");
    let (v, w) = (r.linvel().y, r.angvel());
    (imp.normal, v, w, bodies, disc)
}

#[test]
fn elastic_off_centre_hit() {
    let (j, v, w, bodies, disc) = hit(1.0);
    assert!((j - 48.0 / 19.0).abs() < TOL);
    assert!((v - 16.0 / 19.0).abs() < TOL);
    assert!((w - 24.0 / 19.0).abs() < TOL);
    assert!((body(&bodies, disc).linvel().y + 10.0 / 19.0).abs() < TOL);
    assert!((common::kinetic_energy(&bodies) - 2.0).abs() < TOL);
}

#[test]
fn inelastic_off_centre_hit() {
    let (j, v, w, bodies, disc) = hit(0.0);
    assert!((j - 24.0 / 19.0).abs() < TOL);
    assert!((v - 8.0 / 19.0).abs() < TOL);
    assert!((w - 12.0 / 19.0).abs() < TOL);
    let u = body(&bodies, disc).linvel().y;
    assert!((u - 14.0 / 19.0).abs() < TOL);
    assert!(
        (v + w * 0.5 - u).abs() < TOL,
        "contact points move together"
    );
}
