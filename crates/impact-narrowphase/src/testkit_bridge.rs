//! The unit tests' way to the test kit's oracle.
//!
//! `impact-testkit` links the library build of this crate. A unit-test build is a second
//! build of it, whose [`Toi`] and [`ToiOptions`] are types of their own, which the oracle's
//! [`judge`](impact_testkit::audit::judge) and [`Case::audit`](impact_testkit::audit::Case::audit)
//! do not know; these conversions, the same as the test kit's own for the library build,
//! hand them over.

use crate::{Toi, ToiOptions};
use impact_testkit::audit::{Answer, Band};

impl From<&Toi> for Answer {
    fn from(toi: &Toi) -> Self {
        match *toi {
            Toi::Hit(hit) => Self::Hit(hit.fraction),
            Toi::Overlapping => Self::Overlapping,
            Toi::Separated => Self::Separated,
            Toi::NotConverged { safe_fraction } => Self::NotConverged(safe_fraction),
        }
    }
}

impl From<&ToiOptions> for Band {
    fn from(options: &ToiOptions) -> Self {
        Self {
            target: options.target_separation(),
            tolerance: options.tolerance(),
        }
    }
}
