//! Invariant: a contact's own material (`ContactPair::material`, set by a pre-solve hook) takes
//! the place of the combination of its bodies' materials, in the contact solver and in the
//! single-impact resolver alike, and `None` is exactly the combination.
//!
//! The solver: a box sliding at 4 m/s on a floor, both with friction 0.5, stops within a
//! second; given a frictionless material it slides on at 4 m/s, and given the bodies' own
//! combination it stops bit for bit as without one. The resolver: two discs of restitution 0
//! meeting head on stop; given restitution 1 they swap velocities (equal masses).

mod common;

use common::{body, boxed, disc};
use impact_geometry::tolerances::SPECULATIVE_DISTANCE;
use impact_geometry::{ConvexPolygon, Isometry, Point, Real, Vector};
use impact_narrowphase::contact_manifold;
use impact_solver::{
    BodySet, ContactCache, ContactPair, ImpactSettings, Material, RigidBodyDef, SolverSettings,
    resolve_impact, resolve_impact_with, solve_step,
};

const DT: Real = 1.0 / 60.0;

/// The box's velocity after a second of sliding with the contact's `material`.
fn slide(material: Option<Material>) -> Vector {
    let mut bodies = BodySet::new();
    let ground = bodies
        .insert(
            RigidBodyDef::fixed(ConvexPolygon::rectangle(50.0, 0.5).unwrap().into())
                .pose(Isometry::translation(0.0, -0.5))
                .friction(0.5),
        )
        .unwrap();
    let b = bodies
        .insert(
            boxed(0.25, 0.25, Point::new(0.0, 0.25), 0.0)
                .linvel(Vector::new(4.0, 0.0))
                .friction(0.5),
        )
        .unwrap();
    let mut cache = ContactCache::new();
    for _ in 0..60 {
        let (x, y) = (body(&bodies, ground), body(&bodies, b));
        let manifold = contact_manifold(
            x.shape(),
            x.pose(),
            y.shape(),
            y.pose(),
            SPECULATIVE_DISTANCE,
        );
        let pairs = [ContactPair {
            a: ground,
            b,
            manifold,
            shapes: [0, 0],
            offset: Vector::zeros(),
            material,
        }];
        solve_step(
            &mut bodies,
            &pairs,
            &mut cache,
            Vector::new(0.0, -10.0),
            &SolverSettings::default(),
            DT,
        )
        .unwrap();
    }
    body(&bodies, b).linvel()
}

#[test]
fn the_contact_solver_uses_the_contacts_own_material() {
    let combined = slide(None);
    assert!(combined.norm() < 1e-3, "still sliding at {combined}");
    let free = slide(Some(Material::new(0.0, 0.0).unwrap()));
    assert!((free.x - 4.0).abs() < 1e-9, "slowed to {free}");
    // The combination written out is the same contact, bit for bit.
    let same = slide(Some(Material::new(0.0, (0.5_f64 * 0.5).sqrt()).unwrap()));
    assert_eq!(same, combined);
}

#[test]
fn the_resolver_uses_the_contacts_own_material() {
    let meet = |material: Option<Material>| {
        let mut bodies = BodySet::new();
        let a = bodies
            .insert(disc(0.5, 1.0, Point::new(-0.5, 0.0), Vector::new(2.0, 0.0)))
            .unwrap();
        let b = bodies
            .insert(disc(0.5, 1.0, Point::new(0.5, 0.0), Vector::new(-2.0, 0.0)))
            .unwrap();
        let settings = ImpactSettings::default();
        let impulse = resolve_impact_with(
            &mut bodies,
            a,
            b,
            Point::origin(),
            Vector::x(),
            material.as_ref(),
            &settings,
        )
        .unwrap();
        (
            body(&bodies, a).linvel(),
            body(&bodies, b).linvel(),
            impulse,
        )
    };
    let (va, vb, impulse) = meet(None);
    assert_eq!((va.x, vb.x, impulse.restitution), (0.0, 0.0, 0.0));
    let (va, vb, impulse) = meet(Some(Material::new(1.0, 0.0).unwrap()));
    assert_eq!((va.x, vb.x, impulse.restitution), (-2.0, 2.0, 1.0));

    // `resolve_impact` is the resolver without a material of its own.
    let mut bodies = BodySet::new();
    let a = bodies
        .insert(disc(0.5, 1.0, Point::new(-0.5, 0.0), Vector::new(2.0, 0.0)))
        .unwrap();
    let b = bodies
        .insert(disc(0.5, 1.0, Point::new(0.5, 0.0), Vector::new(-2.0, 0.0)))
        .unwrap();
    let plain = resolve_impact(
        &mut bodies,
        a,
        b,
        Point::origin(),
        Vector::x(),
        &ImpactSettings::default(),
    )
    .unwrap();
    assert_eq!(plain, meet(None).2);
}
