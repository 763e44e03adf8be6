//! Helpers shared by the solver's integration tests: scene builders and the conserved
//! quantities every test measures the same way.

#![allow(dead_code)]

pub mod kkt;

use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Vector};
use impact_solver::{BodyHandle, BodySet, RigidBodyDef};

/// A dynamic disc of `radius` and `density` at `center` moving at `linvel`.
pub fn disc(radius: Real, density: Real, center: Point, linvel: Vector) -> RigidBodyDef {
    RigidBodyDef::new(Circle::new(radius).unwrap().into())
        .density(density)
        .pose(Isometry::translation(center.x, center.y))
        .linvel(linvel)
}

/// A dynamic box of half extents `hx`, `hy` at `center`, turned by `angle`.
pub fn boxed(hx: Real, hy: Real, center: Point, angle: Real) -> RigidBodyDef {
    RigidBodyDef::new(ConvexPolygon::rectangle(hx, hy).unwrap().into())
        .pose(Isometry::new(center.coords, angle))
}

/// Total linear momentum of the dynamic bodies.
pub fn linear_momentum(bodies: &BodySet) -> Vector {
    bodies
        .iter()
        .fold(Vector::zeros(), |acc, (_, b)| acc + b.linear_momentum())
}

/// Total angular momentum about the fixed world point `origin`.
pub fn angular_momentum(bodies: &BodySet, origin: &Point) -> Real {
    bodies
        .iter()
        .map(|(_, b)| b.angular_momentum_about(origin))
        .sum()
}

/// Total kinetic energy of the dynamic bodies.
pub fn kinetic_energy(bodies: &BodySet) -> Real {
    bodies.iter().map(|(_, b)| b.kinetic_energy()).sum()
}

/// A scale for round-off bounds: total momentum magnitude plus one.
pub fn momentum_scale(bodies: &BodySet) -> Real {
    1.0 + bodies
        .iter()
        .map(|(_, b)| {
            b.mass() * b.linvel().norm()
                + b.inertia() * b.angvel().abs()
                + b.mass() * b.linvel().norm() * b.center_of_mass().coords.norm()
        })
        .sum::<Real>()
}

/// Every bit of every body's pose and velocities, in slot order.
pub fn state_bits(bodies: &BodySet) -> Vec<u64> {
    let mut bits = Vec::new();
    for (h, b) in bodies.iter() {
        bits.push(u64::from(h.index) << 32 | u64::from(h.generation));
        let p = b.pose();
        for x in [
            p.translation.x,
            p.translation.y,
            p.rotation.re,
            p.rotation.im,
            b.linvel().x,
            b.linvel().y,
            b.angvel(),
        ] {
            bits.push(x.to_bits());
        }
    }
    bits
}

/// The handle's body, which the test knows exists.
pub fn body(bodies: &BodySet, h: BodyHandle) -> &impact_solver::RigidBody {
    bodies.get(h).expect("the test's body exists")
}
