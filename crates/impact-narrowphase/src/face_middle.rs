//! Where an impact between two faces acts.
//!
//! Two faces that meet flat, or tilted by less than a tolerance over their length, touch
//! along a stretch, not at a point. The first point of contact a time of impact finds is then
//! an end of that stretch, picked by rounding or by a tilt too small to matter, and a
//! different end in the other argument order; an impulse there spins a body that lands flat
//! (a box at 150 units/s onto the floor left spinning at 68 rad/s after a spin of 1e-12 rad/s
//! had turned it by 1e-14). The middle of the stretch is where the impulses along the whole
//! stretch would act together, and the same in either order.

use impact_geometry::{Isometry, Point, Real, Shape, Vector};

/// The middle of the stretch along which `a` at `pose_a` and `b` at `pose_b` touch, for an
/// impact at `point` with unit `normal` (from A toward B): every core vertex within
/// `tolerance` of its core's extreme along the normal counts as touching, and `point` is
/// moved along the faces (perpendicular to the normal) to the middle of the part both
/// cores' touching vertices span. `point` itself where either side touches with a single
/// vertex (a corner, a disc) or the two stretches do not overlap.
///
/// ```
/// use impact_geometry::{ConvexPolygon, Isometry, Point, Shape, Vector};
/// use impact_narrowphase::shared_face_middle;
///
/// let floor: Shape = ConvexPolygon::rectangle(5.0, 0.5).unwrap().into();
/// let block: Shape = ConvexPolygon::rectangle(0.5, 0.25).unwrap().into();
/// // The block's bottom left corner touches first; its bottom is 1e-4 higher at the right.
/// let pose = Isometry::new(Vector::new(1.0, 0.75), 1e-4);
/// let corner = Point::new(0.5, 0.5);
/// let middle = shared_face_middle(
///     &floor, &Isometry::identity(), &block, &pose, corner, Vector::y(), 1e-3,
/// );
/// assert!((middle.x - 1.0).abs() < 1e-3);
/// ```
pub fn shared_face_middle(
    a: &Shape,
    pose_a: &Isometry,
    b: &Shape,
    pose_b: &Isometry,
    point: Point,
    normal: Vector,
    tolerance: Real,
) -> Point {
    // Relative to the point, which keeps scenes far from the origin accurate.
    let (a, b) = (
        placed(a, pose_a, point.coords),
        placed(b, pose_b, point.coords),
    );
    match middle_along_faces(a, b, &normal, tolerance, Vector::zeros()) {
        Some(moved) => point + moved,
        None => point,
    }
}

/// The core of `shape` at `pose`, relative to `from`.
fn placed<'s>(
    shape: &'s Shape,
    pose: &Isometry,
    from: Vector,
) -> impl Iterator<Item = Vector> + Clone + 's {
    let pose = *pose;
    shape.core().iter().map(move |p| (pose * p).coords - from)
}

/// [`shared_face_middle`] on placed core vertices (any common frame): `at` (the first point
/// of contact, in that frame) moved along the faces to the middle of the stretch both cores
/// touch along, with every vertex within `slack` of its core's extreme along `normal` (A's
/// side) or `-normal` (B's) counting as touching; `None` for a corner or no overlap.
pub(crate) fn middle_along_faces(
    a: impl Iterator<Item = Vector> + Clone,
    b: impl Iterator<Item = Vector> + Clone,
    normal: &Vector,
    slack: Real,
    at: Vector,
) -> Option<Vector> {
    let tangent = Vector::new(-normal.y, normal.x);
    // A's side first: a corner (a disc's one vertex among them) ends the search.
    let (lo_a, hi_a) = stretch(a, normal, &tangent, slack)?;
    let (lo_b, hi_b) = stretch(b, &-normal, &tangent, slack)?;
    let (lo, hi) = (lo_a.max(lo_b), hi_a.min(hi_b));
    (hi > lo).then(|| at + tangent * (0.5 * (lo + hi) - tangent.dot(&at)))
}

/// The vertices of a core within `slack` of its extreme along `direction` (the side that
/// faces the other shape), as a stretch of positions along `tangent`; `None` for a single
/// vertex.
fn stretch(
    core: impl Iterator<Item = Vector> + Clone,
    direction: &Vector,
    tangent: &Vector,
    slack: Real,
) -> Option<(Real, Real)> {
    // The two highest vertices: a corner (the usual impact) ends here, the second one low.
    let (mut top, mut second) = (Real::NEG_INFINITY, Real::NEG_INFINITY);
    for v in core.clone() {
        let h = direction.dot(&v);
        if h > top {
            (top, second) = (h, top);
        } else if h > second {
            second = h;
        }
    }
    if second < top - slack {
        return None;
    }
    let (mut lo, mut hi) = (Real::INFINITY, Real::NEG_INFINITY);
    for v in core {
        if direction.dot(&v) >= top - slack {
            let x = tangent.dot(&v);
            if x < lo {
                lo = x;
            }
            if x > hi {
                hi = x;
            }
        }
    }
    (hi > lo).then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::ConvexPolygon;

    const TOLERANCE: Real = 1.25e-3;

    fn floor() -> Shape {
        ConvexPolygon::rectangle(5.0, 0.5).unwrap().into()
    }

    /// The unit-wide block touching the floor's top with its bottom tilted by `tilt`
    /// (counter-clockwise: the left corner low) at `x`, the lower corner on the floor; the
    /// point of [`shared_face_middle`] for it, and that of the other argument order.
    fn on_floor(tilt: Real, x: Real) -> (Point, Point, Point) {
        let block: Shape = ConvexPolygon::rectangle(0.5, 0.25).unwrap().into();
        let centre_to_corner = impact_geometry::Rotation::new(tilt) * Vector::new(-0.5, -0.25);
        let corner = Point::new(x - 0.5, 0.5);
        let pose = Isometry::new(corner.coords - centre_to_corner, tilt);
        let still = Isometry::identity();
        let one = shared_face_middle(
            &floor(),
            &still,
            &block,
            &pose,
            corner,
            Vector::y(),
            TOLERANCE,
        );
        let other = shared_face_middle(
            &block,
            &pose,
            &floor(),
            &still,
            corner,
            -Vector::y(),
            TOLERANCE,
        );
        (corner, one, other)
    }

    #[test]
    fn faces_within_the_tolerance_meet_at_their_middle() {
        for x in [0.0, 1.7, -3.9] {
            for tilt in [0.0, 0.5 * TOLERANCE] {
                let (corner, middle, other) = on_floor(tilt, x);
                assert!((middle.x - x).abs() < 1e-3, "{tilt}: {middle:?}");
                assert_eq!(middle.y, corner.y, "moved along the faces only");
                assert!((other - middle).norm() < 1e-12, "{middle:?} {other:?}");
            }
            // Tilted by twice the tolerance over its width: the corner stays.
            let (corner, at, _) = on_floor(2.0 * TOLERANCE, x);
            assert_eq!(at, corner);
        }
        // Overhanging the floor's end: the middle of the part over the floor.
        let (_, middle, _) = on_floor(0.0, 4.8);
        assert!((middle.x - 4.65).abs() < 1e-12, "{middle:?}");
        // A disc has no face.
        let disc: Shape = impact_geometry::Circle::new(0.5).unwrap().into();
        let at = Point::new(0.3, 0.5);
        let (still, on_disc) = (Isometry::identity(), Isometry::translation(0.3, 1.0));
        let moved = shared_face_middle(&floor(), &still, &disc, &on_disc, at, Vector::y(), 1.0);
        assert_eq!(moved, at);
    }
}
