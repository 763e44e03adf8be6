//! Every length and angle tolerance of impact, in one place.
//!
//! All tolerances derive from one base length, [`LINEAR_SLOP`], in world length units (metres
//! for a game at human scale). If your world uses other units (pixels, millimetres, light
//! years), scale the options that take these defaults by the same factor, for example with
//! `ToiOptions::for_length_unit` in the narrowphase. The algorithms never use a bare epsilon
//! for a length: they take one of these, or a multiple of the scene's own size.

use crate::Real;

/// The base length (world units): contacts may overlap by this much without correction, and
/// it is small enough to be invisible at human scale (5 mm when units are metres).
pub const LINEAR_SLOP: Real = 0.005;

/// The distance (world units) that time-of-impact queries leave between shapes by default, so
/// that the contact solver of the next step sees a contact instead of an overlap.
pub const TOI_TARGET_SEPARATION: Real = LINEAR_SLOP;

/// How close (world units) to the target separation an iterative time-of-impact method must
/// land; closed forms are exact to rounding and use it only to classify touching input.
pub const TOI_TOLERANCE: Real = 0.25 * LINEAR_SLOP;

/// Contacts are generated this far (world units) before the shapes touch, so the solver can
/// stop an approaching body without a collision event (speculative contacts).
pub const SPECULATIVE_DISTANCE: Real = 4.0 * LINEAR_SLOP;

/// The angular tolerance (radians) used where the slop matters for rotation.
pub const ANGULAR_SLOP: Real = 2.0 / 180.0 * core::f64::consts::PI;

/// Relative tolerance (dimensionless, a fraction of the polygon's size): a vertex closer than
/// this to its predecessor is welded to it, and a vertex closer than this to the line through
/// its neighbours is dropped as collinear. Far above rounding (1e-16), so no edge of a
/// validated polygon can collapse or turn backwards when the polygon is rotated and moved.
pub const POLYGON_WELD_RELATIVE: Real = 1e-9;
