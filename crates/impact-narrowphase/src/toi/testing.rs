//! Helpers for the hand-computed unit tests of the pair modules.

use crate::options::ToiOptions;
use crate::toi_result::{Hit, Toi};
use impact_geometry::{Isometry, Real, Sweep, Vector};

/// A translating sweep starting at `(x, y)` with orientation `angle`, moving by `(dx, dy)`.
pub(crate) fn moving(x: Real, y: Real, angle: Real, dx: Real, dy: Real) -> Sweep {
    Sweep::translating(Isometry::new(Vector::new(x, y), angle), Vector::new(dx, dy)).unwrap()
}

/// A body at rest at `(x, y)` with orientation `angle`.
pub(crate) fn resting(x: Real, y: Real, angle: Real) -> Sweep {
    moving(x, y, angle, 0.0, 0.0)
}

/// Exact options: touching means touching.
pub(crate) fn exact() -> ToiOptions {
    ToiOptions::exact()
}

/// Options with a target separation.
pub(crate) fn with_target(target: Real) -> ToiOptions {
    ToiOptions::exact().with_target_separation(target).unwrap()
}

/// The hit, or a panic naming what was found instead.
pub(crate) fn expect_hit(toi: Toi) -> Hit {
    match toi {
        Toi::Hit(hit) => hit,
        other => panic!("expected a hit, got {other:?}"),
    }
}

/// Asserts `a` and `b` agree to `1e-12` relative to their size (at least 1).
pub(crate) fn assert_close(a: Real, b: Real) {
    assert!(
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0),
        "{a} != {b}"
    );
}

/// Asserts two vectors agree to `1e-12` per component.
pub(crate) fn assert_vec(a: Vector, b: Vector) {
    assert_close(a.x, b.x);
    assert_close(a.y, b.y);
}
