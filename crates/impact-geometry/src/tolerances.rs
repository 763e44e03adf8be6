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

/// The speed (world units per second) below which a body may fall asleep: its linear speed,
/// and its angular speed times its extent, must stay below it (Box2D v3's
/// `b2_defaultSleepThreshold`, 0.05 m/s, which scales with the length unit as every
/// tolerance here does: ten linear slops per second).
pub const SLEEP_THRESHOLD: Real = 10.0 * LINEAR_SLOP;

/// The angular tolerance (radians) used where the slop matters for rotation.
pub const ANGULAR_SLOP: Real = 2.0 / 180.0 * core::f64::consts::PI;

/// Relative tolerance (dimensionless, a fraction of the polygon's size): a vertex closer than
/// this to its predecessor is welded to it, and a vertex closer than this to the line through
/// its neighbours is dropped as collinear. Far above rounding (1e-16), so no edge of a
/// validated polygon can collapse or turn backwards when the polygon is rotated and moved.
pub const POLYGON_WELD_RELATIVE: Real = 1e-9;

// Relative margins against rounding. The algorithms compare quantities computed from world
// coordinates; each comparison that must not flip on rounding takes one of these, times the
// size of the numbers involved (never a bare epsilon). `f64`'s epsilon is 2.2e-16, so 1e-12
// is about 4,500 ulps and 1e-9 about 4.5 million: both far beyond the rounding of the few
// dozen operations between the coordinates and the compared quantity, and far below the
// accuracy the time-of-impact queries promise (1e-9 of the scene's size, see
// `docs/algorithms/toi.md`), so neither can change an answer beyond that accuracy.

/// Relative widening (dimensionless, a fraction of the lengths involved) of a conservative
/// bound on where two shapes can come within reach of each other: the reach of two bounding
/// circles, of a strip and a circle, a circle's clearance over a line or a box. The bound must
/// hold for the true positions, which the computed ones miss by rounding; widening by 1e-9 of
/// the lengths covers that rounding many times over. A wider bound only starts the search
/// for an impact a little earlier: it never changes the answer.
pub const ROUNDING_MARGIN_RELATIVE: Real = 1e-9;

/// Relative length (dimensionless, a fraction of the largest coordinate of its end points)
/// below which a segment is a point in every query: its direction is then rounding noise,
/// which would misplace it among the edges of a Minkowski difference. Treating it as its
/// midpoint moves it by at most this fraction of its coordinates (the same scale as
/// [`POLYGON_WELD_RELATIVE`] for a polygon's vertices).
pub const POINT_SEGMENT_RELATIVE: Real = 1e-9;

/// Relative slack (dimensionless, a fraction of the size of the configuration-space obstacle)
/// by which the entry point of a ray cast may lie beyond the end of a face and still count as
/// on it. An entry that far past an end is within `(1e-9 size)^2 / rho` of the rounded
/// obstacle, and an exact corner-to-corner contact lands there by rounding; a slack per face
/// rather than per obstacle would let one argument order hit where the other misses.
pub const FACE_END_SLACK_RELATIVE: Real = 1e-9;

/// The tilt (radians) below which two faces that meet count as parallel, so that a hit
/// between them is placed at the middle of the stretch they share (the same point in either
/// argument order) rather than at whichever end rounding or a negligible tilt picked first.
/// Applied as a distance: this times the faces' extent along the contact.
pub const PARALLEL_FACES_ANGLE: Real = 1e-9;

/// Relative size (dimensionless, a fraction of the coordinates a distance is computed from)
/// of a distance that is rounding: a ray that enters an obstacle after leaving it by less is
/// a graze, not a miss (two zero-thickness segments crossing side by side make a sliver whose
/// width is rounding, and missing it would let one tunnel through the other), and a position
/// along a contact face within it of an end is at that end.
pub const COORDINATE_ROUNDING_RELATIVE: Real = 1e-12;

/// Relative size (dimensionless, a fraction of the coordinates and displacements of two
/// circles) above which the gap between their centres at a hit is large enough to divide the
/// offset by, in place of normalising it: the offset's length equals the gap up to rounding
/// of about 1e-16 of those terms, so the normal is then unit to about 1e-10, and below it the
/// offset is normalised (zero radii, subnormal targets).
pub const GAP_NORMALISES_RELATIVE: Real = 1e-6;
