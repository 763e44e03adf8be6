//! # impact-testkit
//!
//! What impact's tests, examples, benches and fuzz targets share, and its users never call:
//! one definition of each scene, counter, generator and check, so that a number in
//! `docs/benchmarks.md`, a test's assertion and a fuzz finding speak of the same bodies and
//! the same bytes. Unpublished (`publish = false`): a dev-dependency of the library crates
//! and of the facade (for its examples and benches), and a dependency of `fuzz/`.
//!
//! - [`SplitMix64`]: the one seeded generator. Every scene and random case draws from it, so
//!   a seed names the same bodies on every platform and in every crate.
//! - [`scenes`]: whole worlds (stacks, pyramids, the bullet through paper, the rain of fast
//!   discs and its tumbling variant, the hard-disk gas) and the counters that judge a run of
//!   them from body positions alone, so that other engines are judged the same way:
//!   [`TunnelCounter`](scenes::TunnelCounter) (bodies through static geometry, by
//!   [`impact_stepper::judge`], the judge the `impact` tool's summary uses too),
//!   [`CrossingCounter`](scenes::CrossingCounter) (discs through each other) and
//!   [`HungCounter`](scenes::HungCounter) (bodies stopped in mid-air).
//! - [`moving_boxes`]: boxes that move without shapes or contacts, the broadphase's tests
//!   and benches.
//! - [`filters`]: seeded collision filters, a stepper that records what the world gave it,
//!   and the one-way platform's hook and scene.
//! - [`sensors`]: a bullet crossing a sensor, turned or stopped by a wall mid-step, and the
//!   oracle of when it enters and leaves.
//! - [`compounds`]: bodies of several shapes (L, U and seeded compounds), thrown at a thin
//!   wall, dropped on the ground, and mixed into the tumbling rain.
//! - [`audit`]: the dense-sampling oracle for time of impact and seeded generators of
//!   rotating sweeps.
//! - [`chains`]: seeded hilly ground and closed loops of one-sided chain segments, and
//!   shapes shot at them from the front.
//! - [`outlines`]: seeded simple polygons (star-shaped, untangled random, combs) for the
//!   convex decomposition's tests.
//! - [`queries`]: the field of mixed bodies of the scene-query tests and bench, and seeded
//!   rays, translating casts and turning sweeps across it.
//! - [`fuzzing`]: the structured inputs and invariant checks of the fuzz targets, which the
//!   ordinary tests replay on the minimised findings of `fuzz/regressions/`.
//!
//! ```
//! use impact_broadphase::RTreeBroadphase;
//! use impact_stepper::Discrete;
//! use impact_testkit::scenes::{self, TunnelCounter};
//!
//! // Without continuous collision detection, fast discs pass through the rain's segments.
//! let scene = scenes::rain(20, 1);
//! let (mut world, _) = scene.build::<RTreeBroadphase, Discrete>()?;
//! let mut counter = TunnelCounter::new(&scene);
//! for _ in 0..30 {
//!     world.step(1.0 / 60.0)?;
//!     counter.observe_world(&world);
//! }
//! assert!(counter.tunnelled() > 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod audit;
pub mod chains;
pub mod compounds;
pub mod filters;
pub mod fuzzing;
pub mod moving_boxes;
pub mod outlines;
pub mod queries;
mod rng;
pub mod scenes;
pub mod sensors;

pub use rng::SplitMix64;
