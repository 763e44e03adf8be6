//! Scalar and linear-algebra aliases used across impact.
//!
//! Everything is expressed with [`nalgebra`] types in `f64`: collision queries lose
//! relative accuracy quickly in `f32` at the scene scales we promise (1e-3 to 1e4 units).

/// The scalar type of every length, time, mass and angle in impact.
pub type Real = f64;
/// A 2D vector (a direction, displacement or velocity).
pub type Vector = nalgebra::Vector2<Real>;
/// A 2D point (a position).
pub type Point = nalgebra::Point2<Real>;
/// A rigid transform: rotation followed by translation.
pub type Isometry = nalgebra::Isometry2<Real>;
/// A 2D rotation stored as a unit complex number.
pub type Rotation = nalgebra::UnitComplex<Real>;

/// The z component of the 3D cross product of two planar vectors: `a.x * b.y - a.y * b.x`.
///
/// Positive when `b` is counter-clockwise from `a`.
#[inline]
pub fn cross(a: &Vector, b: &Vector) -> Real {
    a.x * b.y - a.y * b.x
}

/// The vector rotated a quarter turn counter-clockwise: `(-v.y, v.x)`.
#[inline]
pub fn perp(v: &Vector) -> Vector {
    Vector::new(-v.y, v.x)
}

/// The cross product of a scalar angular velocity with a lever arm: `w × r = w * perp(r)`.
#[inline]
pub fn cross_scalar_vector(w: Real, r: &Vector) -> Vector {
    Vector::new(-w * r.y, w * r.x)
}
