//! # impact-broadphase
//!
//! The broadphase of [impact](https://example.invalid/impact): which bodies may touch this
//! step, and which a moving body may hit. One false negative here is a tunnelled body, so
//! every answer is conservative: **false positives allowed, false negatives never**.
//!
//! - [`Broadphase`] is the trait the stepper uses: insert, update and remove proxies (a
//!   [`ProxyId`] plus an [`Aabb`]), a per-step [`Broadphase::update_batch`] from swept boxes,
//!   all overlapping pairs sorted, and queries for a box, a swept box (what continuous
//!   collision detection asks), a ray and a point. Swapping the implementation is one type.
//! - [`RTreeBroadphase`]: `rstar` R*-trees, one for settled proxies and one for moving
//!   ones, holding boxes around the fat boxes that drifting bodies stay in for many steps;
//!   persistent candidate pairs, so a step's cost follows what moved. The default.
//! - [`SortAndSweep`]: boxes sorted along one axis and swept; simple and fast for scenes
//!   spread along a line.
//! - [`BruteForce`]: every pair; the oracle the others are tested against.
//!
//! Answers are sorted by handle and depend only on the stored fat boxes, which follow one
//! rule in every implementation (each box grown by [`margin_for`] its size, refitted when it
//! leaves its fat box or the fat box grows four margins too large): same calls, same
//! answers, whatever the implementation and the tree layout. Bad input (NaN or inverted
//! boxes, unknown handles) is refused with a [`BroadphaseError`] that names the field and
//! the value.
//!
//! ```
//! use impact_broadphase::{Broadphase, BruteForce, ProxyId, ProxyPair, RTreeBroadphase};
//! use impact_geometry::{Aabb, Point, Vector};
//!
//! fn unit_box(x: f64, y: f64) -> Aabb {
//!     Aabb::new(Point::new(x, y), Point::new(x + 1.0, y + 1.0))
//! }
//!
//! // Any `B: Broadphase` does; the stepper is generic over it.
//! fn contacts<B: Broadphase>(mut broadphase: B) -> Result<Vec<ProxyPair>, Box<dyn std::error::Error>> {
//!     broadphase.insert(ProxyId(0), unit_box(0.0, 0.0))?;
//!     broadphase.insert(ProxyId(1), unit_box(0.5, 0.5))?;
//!     broadphase.insert(ProxyId(2), unit_box(5.0, 0.0))?;
//!     // One step: body 2 sweeps left onto body 0's column.
//!     broadphase.update_batch(&[(ProxyId(2), unit_box(5.0, 0.0).merged(&unit_box(1.5, 0.0)))])?;
//!     Ok(broadphase.overlapping_pairs().to_vec())
//! }
//!
//! let pairs = contacts(RTreeBroadphase::new())?;
//! assert_eq!(pairs, contacts(BruteForce::new())?);
//! assert_eq!(pairs, [
//!     ProxyPair { a: ProxyId(0), b: ProxyId(1) },
//!     ProxyPair { a: ProxyId(1), b: ProxyId(2) },
//! ]);
//!
//! // What would a bullet crossing the scene diagonally hit? Only what it crosses.
//! let mut tree = RTreeBroadphase::new();
//! tree.insert(ProxyId(7), unit_box(4.0, 4.0))?;
//! tree.insert(ProxyId(8), unit_box(8.0, 0.0))?;
//! let bullet = Aabb::new(Point::new(0.0, 0.0), Point::new(0.1, 0.1));
//! let mut hits = Vec::new();
//! tree.query_swept(&bullet, &Vector::new(10.0, 10.0), &mut hits)?;
//! assert_eq!(hits, [ProxyId(7)]);
//!
//! // Bad input is refused with the field and the value.
//! let err = tree.insert(ProxyId(9), Aabb::new(Point::new(f64::NAN, 0.0), Point::new(1.0, 1.0)));
//! assert_eq!(err.unwrap_err().to_string(), "insert.aabb.mins.x: must be finite, got NaN");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The `serde` feature derives `Serialize` and `Deserialize` for [`ProxyId`], [`ProxyPair`]
//! and [`RTreeConfig`].

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod bounds;
mod broadphase;
mod brute_force;
mod error;
mod filter;
mod pair_sort;
mod proxy;
mod rtree;
mod sort_and_sweep;
mod swept;

pub use broadphase::{Broadphase, swept_entry};
pub use brute_force::BruteForce;
pub use error::BroadphaseError;
pub use proxy::{ProxyId, ProxyPair};
pub use rtree::{DEFAULT_REBUILD_FRACTION, RTreeBroadphase, RTreeConfig};
pub use sort_and_sweep::SortAndSweep;

use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{Aabb, Real};

/// The default fat-box margin (world units): 20 linear slops, 0.1 when units are metres.
///
/// This is Box2D's `B2_AABB_MARGIN` (0.1 m): a body at 3 m/s at 60 Hz stays in its fat box
/// for a couple of steps, so slow and resting bodies are almost never reinserted, while
/// the false-positive pairs it adds stay few next to bodies tens of centimetres across.
/// Smaller bodies get a margin in proportion to their size ([`MARGIN_PER_SIZE`]).
pub const DEFAULT_MARGIN: Real = 20.0 * LINEAR_SLOP;

/// The largest margin of a proxy as a fraction of its box's shorter side: a fat box is the
/// given box grown by the broadphase's margin, or by this fraction of the box's shorter side
/// where that is less (every implementation of this crate follows the rule).
///
/// An absolute margin sized for bodies tens of centimetres across is twice the diameter of
/// a 5 cm disc: in the rain bench's piles of such discs each fat box met eight others and
/// each R-tree box fifty (10,000 discs: 80,000 pairs and 520,000 candidates, of which about
/// 2,500 touch), and the broadphase and the narrowphase spent a third of a step on them. A
/// quarter of its size still lets a body move a quarter of its size before its box is
/// refitted. Bodies larger than four margins (0.4 m by default) keep the whole margin.
pub const MARGIN_PER_SIZE: Real = 0.25;

/// The margin a box gets from a broadphase of margin `margin`: `margin`, or
/// [`MARGIN_PER_SIZE`] of the box's shorter side if that is less.
///
/// ```
/// use impact_broadphase::{DEFAULT_MARGIN, margin_for};
/// use impact_geometry::{Aabb, Point};
///
/// // A 5 cm disc's box gets a quarter of its size; a 1 m box the whole 0.1 m.
/// let disc = Aabb { mins: Point::new(0.0, 0.0), maxs: Point::new(0.1, 0.1) };
/// let crate_box = Aabb { mins: Point::new(0.0, 0.0), maxs: Point::new(1.0, 1.0) };
/// assert!((margin_for(DEFAULT_MARGIN, &disc) - 0.025).abs() < 1e-12);
/// assert_eq!(margin_for(DEFAULT_MARGIN, &crate_box), DEFAULT_MARGIN);
/// ```
#[inline]
pub fn margin_for(margin: Real, aabb: &Aabb) -> Real {
    let half = aabb.half_extents();
    margin.min(2.0 * MARGIN_PER_SIZE * half.x.min(half.y))
}
