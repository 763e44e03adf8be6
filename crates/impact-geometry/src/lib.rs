//! # impact-geometry
//!
//! The geometric vocabulary of [impact](https://docs.rs/impact2d), a 2D physics stack
//! built around continuous collision detection: `f64` math aliases over [`nalgebra`], the
//! convex shapes ([`Circle`], [`Segment`], [`Capsule`], [`ConvexPolygon`], sharp or rounded,
//! the one-sided [`ChainSegment`] of a [`Chain`], and the [`Shape`] enum over them), concave
//! outlines split into convex pieces ([`ConcaveOutline`]), axis-aligned boxes ([`Aabb`]),
//! mass properties ([`MassProperties`]), the
//! motion of a body over a step ([`Sweep`]) and every tolerance in one place
//! ([`tolerances`]).
//!
//! Every constructor validates its input and returns a [`GeometryError`] that names the field
//! and the bad value; a value of these types is always usable.
//!
//! ```
//! use impact_geometry::{Aabb, ConvexPolygon, Isometry, MassProperties, Shape, Sweep, Vector};
//!
//! let plank: Shape = ConvexPolygon::rectangle(2.0, 0.05)?.into();
//! let props = plank.mass_properties(1.0)?;
//! // m (w^2 + h^2) / 12 for a 4 x 0.1 rectangle of density 1
//! let m = 4.0 * 0.1;
//! assert!((props.inertia - m * (16.0 + 0.01) / 12.0).abs() < 1e-12);
//!
//! // Spinning fast while falling: the swept box still holds every pose.
//! let sweep = Sweep::new(Isometry::identity(), props.local_center,
//!                        Vector::new(0.0, -100.0), 50.0, 1.0 / 60.0)?;
//! let bounds = Aabb::swept(&plank, &sweep);
//! assert!(bounds.contains(&plank.aabb(&sweep.pose_at(0.37))));
//!
//! // Bad input is refused with the field and the value.
//! let err = ConvexPolygon::rectangle(-1.0, 1.0).unwrap_err();
//! assert_eq!(err.to_string(), "rectangle.half_width: must be positive, got -1");
//! # Ok::<(), impact_geometry::GeometryError>(())
//! ```
//!
//! The `serde` feature derives `Serialize` and `Deserialize` for every type; deserializing
//! runs the same validation as the constructors.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod aabb;
mod arctangent;
mod box_tree;
mod error;
mod filter;
mod mass;
mod math;
pub mod shape;
mod sweep;
pub mod tolerances;
mod trig;
pub mod validate;

pub use aabb::{Aabb, corners_meet};
pub use arctangent::atan2;
pub use box_tree::BoxTree;
pub use error::GeometryError;
pub use filter::CollisionFilter;
pub use mass::MassProperties;
pub use math::{Isometry, Point, Real, Rotation, Vector, cross, cross_scalar_vector, perp};
pub use shape::{
    Capsule, Chain, ChainSegment, Circle, ConcaveOutline, ConvexPolygon, Seam, Segment, Shape,
    ShapeKind, Strip,
};
pub use sweep::Sweep;
pub use trig::{rotation_by, rotations_by, sin_cos, sin_cos_pair};

pub use nalgebra;
