//! Where an impact between two faces acts.
//!
//! Two faces that meet flat, or tilted by less than a tolerance over their length, touch
//! along a stretch, not at a point. The first point of contact a time of impact finds is then
//! an end of that stretch, picked by rounding or by a tilt too small to matter, and an
//! impulse there spins a body that lands flat (a box at 150 units/s onto the floor left
//! spinning at 68 rad/s after a spin of 1e-12 rad/s had turned it by 1e-14). The middle of
//! the stretch is where the impulses along the whole stretch would act together.

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
    let tangent = Vector::new(-normal.y, normal.x);
    // Positions along the faces relative to the point, which keeps scenes far from the
    // origin accurate.
    let from = tangent.dot(&point.coords);
    // A's side first: a corner ends the search.
    let Some((lo_a, hi_a)) = stretch(a.core(), pose_a, &normal, &tangent, tolerance) else {
        return point;
    };
    let Some((lo_b, hi_b)) = stretch(b.core(), pose_b, &-normal, &tangent, tolerance) else {
        return point;
    };
    let (lo, hi) = (lo_a.max(lo_b) - from, hi_a.min(hi_b) - from);
    if hi <= lo {
        return point;
    }
    point + tangent * (0.5 * (lo + hi))
}

/// The vertices of `core` placed at `pose` within `slack` of the core's extreme along
/// `direction` (the side that faces the other shape), as a stretch of positions along
/// `tangent` (world); `None` for a single vertex. Works in the body frame: the two
/// directions are turned once, not every vertex.
fn stretch(
    core: &[Point],
    pose: &Isometry,
    direction: &Vector,
    tangent: &Vector,
    slack: Real,
) -> Option<(Real, Real)> {
    if core.len() < 2 {
        return None;
    }
    let up = pose.rotation.inverse_transform_vector(direction);
    let along = pose.rotation.inverse_transform_vector(tangent);
    // The two highest vertices: a corner (the usual impact) ends here, the second one low.
    let (mut top, mut second) = (Real::NEG_INFINITY, Real::NEG_INFINITY);
    for p in core {
        let h = up.dot(&p.coords);
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
    for p in core {
        if up.dot(&p.coords) >= top - slack {
            let x = along.dot(&p.coords);
            if x < lo {
                lo = x;
            }
            if x > hi {
                hi = x;
            }
        }
    }
    let shift = tangent.dot(&pose.translation.vector);
    (hi > lo).then_some((lo + shift, hi + shift))
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::ConvexPolygon;

    fn floor() -> Shape {
        ConvexPolygon::rectangle(5.0, 0.5).unwrap().into()
    }

    /// The unit-wide block touching the floor's top with its bottom tilted by `tilt`
    /// (counter-clockwise: the left corner low) at `x`, the lower corner on the floor.
    fn block_on_floor(tilt: Real, x: Real) -> (Shape, Isometry, Point) {
        let block: Shape = ConvexPolygon::rectangle(0.5, 0.25).unwrap().into();
        let centre_to_corner = impact_geometry::Rotation::new(tilt) * Vector::new(-0.5, -0.25);
        let corner = Point::new(x - 0.5, 0.5);
        let pose = Isometry::new(corner.coords - centre_to_corner, tilt);
        (block, pose, corner)
    }

    #[test]
    fn faces_within_the_tolerance_meet_at_their_middle() {
        let tolerance = 1.25e-3;
        let floor_pose = Isometry::identity();
        for x in [0.0, 1.7, -3.9] {
            for tilt in [0.0, 0.5 * tolerance] {
                let (block, pose, corner) = block_on_floor(tilt, x);
                let middle = shared_face_middle(
                    &floor(),
                    &floor_pose,
                    &block,
                    &pose,
                    corner,
                    Vector::y(),
                    tolerance,
                );
                assert!((middle.x - x).abs() < 1e-3, "{tilt}: {middle:?}");
                assert_eq!(middle.y, corner.y, "moved along the faces only");
                // The other argument order finds the same stretch.
                let other = shared_face_middle(
                    &block,
                    &pose,
                    &floor(),
                    &floor_pose,
                    corner,
                    -Vector::y(),
                    tolerance,
                );
                assert!((other - middle).norm() < 1e-12);
            }
            // Tilted by twice the tolerance over its width: the corner stays.
            let (block, pose, corner) = block_on_floor(2.0 * tolerance, x);
            let at = shared_face_middle(
                &floor(),
                &floor_pose,
                &block,
                &pose,
                corner,
                Vector::y(),
                tolerance,
            );
            assert_eq!(at, corner);
        }
        // Overhanging the floor's end: the middle of the part over the floor.
        let (block, pose, corner) = block_on_floor(0.0, 4.8);
        let middle = shared_face_middle(
            &floor(),
            &floor_pose,
            &block,
            &pose,
            corner,
            Vector::y(),
            tolerance,
        );
        assert!((middle.x - 4.65).abs() < 1e-12, "{middle:?}");
        // A disc has no face.
        let disc: Shape = impact_geometry::Circle::new(0.5).unwrap().into();
        let at = Point::new(0.3, 0.5);
        let on_disc = Isometry::translation(0.3, 1.0);
        assert_eq!(
            shared_face_middle(&floor(), &floor_pose, &disc, &on_disc, at, Vector::y(), 1.0),
            at
        );
    }
}
