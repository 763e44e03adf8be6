//! # impact-narrowphase
//!
//! Time of impact (TOI) and distance between the shapes of
//! [`impact_geometry`]: exact closed forms for every pair of translating shapes, conservative
//! advancement for rotating ones, and one dispatcher, [`time_of_impact`], over both.
//!
//! Conventions, for every method:
//! - a TOI is a fraction of the step in `[0, max_fraction]` (see [`ToiOptions`]);
//! - normals point from shape A toward shape B;
//! - the answer is a [`Toi`]: a hit (fraction, point, normal), overlapping at the start,
//!   separated over the interval, or (iterative methods) not converged with the last safe
//!   fraction. No method ever reports a time later than the true first contact.
//!
//! ```
//! use impact_narrowphase::{time_of_impact, Toi, ToiOptions};
//! use impact_geometry::{Circle, ConvexPolygon, Isometry, Shape, Sweep, Vector};
//!
//! // A bullet (radius 5 cm) at 1,000 units/s over a 60 Hz step, toward a 1 mm plate 10 units away.
//! let bullet = Shape::from(Circle::new(0.05)?);
//! let plate = Shape::from(ConvexPolygon::rectangle(0.0005, 1.0)?);
//! let bullet_sweep = Sweep::translating(Isometry::identity(), Vector::new(1000.0 / 60.0, 0.0))?;
//! let plate_sweep = Sweep::stationary(Isometry::translation(10.0, 0.0))?;
//!
//! let toi = time_of_impact(&bullet, &bullet_sweep, &plate, &plate_sweep, &ToiOptions::exact());
//! let Toi::Hit(hit) = toi else { panic!("the bullet must not tunnel") };
//! // The bullet's front reaches the plate's face at x = 9.9995.
//! assert!((hit.fraction - (9.9995 - 0.05) / (1000.0 / 60.0)).abs() < 1e-14);
//! assert_eq!(hit.normal, Vector::new(1.0, 0.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Where things are
//!
//! - [`toi`]: the time of impact, one module per pair of shapes for the closed forms, the
//!   folder `toi/rotating/` for conservative advancement, and the dispatchers.
//! - [`contact`]: contact manifolds, one module per pair over two kernels (a point core
//!   against any core, and the clipping of two cores with edges).
//! - [`distance`](mod@distance): the exact signed distance; [`gjk`]: GJK with warm starting.
//! - [`ray`]: where a ray meets one placed shape ([`ray::cast_ray`]), in closed form per
//!   kind of core, from outside or from inside (solid or hollow).
//! - `minkowski`: the configuration-space obstacle of two cores (their Minkowski difference)
//!   and the two queries on it, the distance from a point and a ray cast, which the closed
//!   forms, the exact distance and the contacts share.
//! - `face_middle`: where two flush faces touch, for the hit points of the time of impact and
//!   for callers that place impulses.
//! - `options`, `toi_result`: the options and the answer of every time-of-impact query.
//! - `chain_cone`: the normals a chain segment answers for, which its contacts, times of
//!   impact and rays share (see `docs/algorithms/chains.md`).
//! - `seam_cone`: the normals a piece of a concave outline (a polygon with seams) answers
//!   for in a contact (see `docs/algorithms/outlines.md`).
//! - `audit`: the dense-sampling oracle; `fuzzing` (feature `arbitrary`): the fuzz checks.
//!
//! The shared kernels (`minkowski`, `gjk`, `face_middle`) import from none of the query
//! modules; [`distance`](mod@distance) and [`contact`] import from neither [`toi`] nor each
//! other, and [`toi`] uses the exact distance for conservative advancement's start.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod chain_cone;
pub mod contact;
pub mod distance;
mod face_middle;
pub mod gjk;
mod minkowski;
mod options;
pub mod ray;
mod scratch;
mod seam_cone;
#[cfg(test)]
mod testkit_bridge;
pub mod toi;
mod toi_result;

pub use contact::{ContactId, ContactPoint, Manifold, contact_manifold, contact_manifold_on_side};
pub use distance::{Distance, distance};
pub use face_middle::shared_face_middle;
pub use gjk::{GjkCache, GjkOutput, gjk_distance};
pub use options::{ToiOptions, ToiOptionsError};
pub use toi::{
    ToiMethod, closed_form_toi, time_of_impact, time_of_impact_until, time_of_impact_with,
    toi_circle_still_segment, toi_circles, toi_conservative_advancement,
};
#[allow(deprecated)]
pub use toi::{toi_disc_still_segment, toi_discs};
pub use toi_result::{Hit, NoClosedForm, Toi};
