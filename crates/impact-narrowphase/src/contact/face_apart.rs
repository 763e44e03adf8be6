//! Two cores apart with a face of one between them: the manifold of the exact closest features
//! without computing them.
//!
//! When the cores are apart, the manifold kernel finds their exact closest features (the
//! Minkowski difference and the distance of the origin from it) and takes a face of either
//! core that lies along the exact normal as the reference face. Most such pairs in a pile (the
//! gaps between boxes side by side in a row, a limb lying beside another) have a face of one
//! core across the gap with the nearest corner of the other over its inside. Then the exact
//! normal is that face's: the corner is as far from the face's line as the separating axis
//! says, and so as far from the face itself, and nothing of the two is nearer. What the
//! kernel builds from the normal (which face of which core lies along it, the incident edge,
//! the clipping) follows from the face normals alone, bit for bit, when nothing is decided
//! within rounding of its threshold: the gap is wide next to the coordinates' rounding (the
//! computed normal's direction carries that rounding over the gap), the corner is over the
//! face by more than rounding from either end, the gap is within the speculative limit by
//! more than the exact distance's rounding, and each face the kernel would pick is aligned,
//! or not, and ahead of the others, by more than the computed normal's error. Otherwise the
//! kernel computes the closest features.

use super::clipping::{ALIGNED, clip_overlapping, next};
use super::manifold::Manifold;
use super::rounded_core::Core;
use impact_geometry::{Real, Vector};

/// The least gap, relative to the largest coordinate, for the shortcut: the computed normal
/// is then within about 1e-9 rad of the exact one.
const GAP_RELATIVE: Real = 1e-6;

/// A margin relative to the largest coordinate, far above the rounding of the positions and
/// of the exact distance (a few times 1e-16 of the coordinates), for the corner's place along
/// the face and the gap's against the speculative limit.
const MARGIN_RELATIVE: Real = 1e-9;

/// How far a cosine must be from [`ALIGNED`], and the best face's cosine ahead of the
/// others', for the computed normal (within about 1e-9 rad of the exact one) to make the same
/// choice: near `ALIGNED` (4.5e-5 rad) a cosine moves by about 1e-13 under that error, and
/// between two faces by up to twice the error.
const ALIGNED_MARGIN: Real = 1e-11;
const AHEAD_MARGIN: Real = 1e-8;

/// The manifold of the cores `a` and `b` apart, from the separating axes of largest
/// separation of each, `(edge, separation)` (edges of `a`, then of `b`), and the largest
/// coordinate of either core, `scale`, as the kernel's
/// `separated` makes it; `None` when not certain (see the module's docs), or when the
/// closest features are two corners.
pub(super) fn face_apart<A: Core, B: Core>(
    a: &A,
    b: &B,
    ((ia, separation_a), (ib, separation_b)): ((usize, Real), (usize, Real)),
    scale: Real,
    speculative: Real,
) -> Option<Manifold> {
    let margin = MARGIN_RELATIVE * scale;
    let gap = separation_a.max(separation_b);
    let radius = a.radius() + b.radius();
    if !(gap > GAP_RELATIVE * scale && gap - radius <= speculative - margin) {
        return None;
    }
    // The exact normal, from A toward B.
    let normal = if separation_a >= separation_b {
        over_face(a, b, ia, margin)?
    } else {
        -over_face(b, a, ib, margin)?
    };
    // The kernel's choice: a face of A along the normal whose incident edge of B overlaps it,
    // else such a face of B.
    if let Some(ja) = facing(a, normal)?
        && let Some(manifold) = clip_overlapping(a, b, ja, speculative)
    {
        return Some(manifold);
    }
    let jb = facing(b, -normal)??;
    clip_overlapping(b, a, jb, speculative).map(Manifold::swapped)
}

/// The outward normal of face `i` of `p` if the corner of `q` nearest its line lies over the
/// face's inside by more than `margin` from either end (then, `p` and `q` being apart by the
/// face's separating axis, it is their exact normal, from `p` toward `q`).
fn over_face<P: Core, Q: Core>(p: &P, q: &Q, i: usize, margin: Real) -> Option<Vector> {
    let n = p.n()[i];
    let (v1, v2) = (p.v()[i], p.v()[next(i, p.v().len())]);
    let nearest = q
        .v()
        .iter()
        .map(|w| (n.dot(&(w - v1)), *w))
        .fold((Real::INFINITY, Vector::zeros()), |x, y| {
            if y.0 < x.0 { y } else { x }
        })
        .1;
    let edge = v2 - v1;
    let length = edge.norm();
    let along = (nearest - v1).dot(&edge) / length;
    (along > margin && along < length - margin).then_some(n)
}

/// The face of `p` whose normal is most parallel to `direction`, if it lies along it
/// (cosine at least [`ALIGNED`]): `Some(Some(face))`, `Some(None)` for none; `None` when the
/// cosine is within [`ALIGNED_MARGIN`] of `ALIGNED`, or an aligned face is not ahead of the
/// others by [`AHEAD_MARGIN`].
fn facing<P: Core>(p: &P, direction: Vector) -> Option<Option<usize>> {
    let (mut best, mut cos, mut second) = (0, Real::NEG_INFINITY, Real::NEG_INFINITY);
    for (i, n) in p.n().iter().enumerate() {
        let c = n.dot(&direction);
        if c > cos {
            (best, cos, second) = (i, c, cos);
        } else if c > second {
            second = c;
        }
    }
    if (cos - ALIGNED).abs() <= ALIGNED_MARGIN {
        return None;
    }
    if cos < ALIGNED {
        return Some(None);
    }
    (cos - second > AHEAD_MARGIN).then_some(Some(best))
}

#[cfg(test)]
mod tests {
    use super::super::clipping::{collide_rounded, collide_rounded_exact};
    use super::super::rounded_core::{Quad, Rounded, SegmentCore};
    use super::*;
    use impact_geometry::{ConvexPolygon, Isometry, Point};
    use proptest::prelude::*;

    fn quad(half: (Real, Real), pose: &Isometry) -> Quad {
        let rectangle = ConvexPolygon::rectangle(half.0, half.1).expect("a rectangle");
        Quad::new(&rectangle, pose).expect("four corners")
    }

    /// Box A at `pose_a`; B (a box, or a segment along its length) turned by `turn` from A
    /// plus a quarter turn `quarter`, beyond A's face `face` by `gap` (its corner or side
    /// nearest), shifted along the face by `shift` of A's half side.
    fn placed(
        (half_a, pose_a): ((Real, Real), Isometry),
        (half_b, face, quarter): ((Real, Real), usize, u8),
        (gap, turn, shift): (Real, Real, Real),
    ) -> Isometry {
        let angle =
            pose_a.rotation.angle() + Real::from(quarter) * core::f64::consts::FRAC_PI_2 + turn;
        let rotation = impact_geometry::Rotation::new(angle);
        let normal = pose_a.rotation * [Vector::x(), Vector::y(), -Vector::x(), -Vector::y()][face];
        let tangent = Vector::new(-normal.y, normal.x);
        let across = if face % 2 == 0 { half_a.0 } else { half_a.1 };
        let along = if face % 2 == 0 { half_a.1 } else { half_a.0 };
        // B's extent toward A along the normal, from its centre.
        let corners = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)];
        let reach = corners
            .iter()
            .map(|&(x, y)| (rotation * Vector::new(x * half_b.0, y * half_b.1)).dot(&normal))
            .fold(Real::NEG_INFINITY, Real::max);
        let center =
            pose_a.translation.vector + normal * (across + reach + gap) + tangent * (shift * along);
        Isometry::from_parts(center.into(), rotation)
    }

    fn gaps() -> impl Strategy<Value = Real> {
        prop_oneof![1e-12..1e-9, 1e-7..1e-4, 1e-3..0.2]
    }

    fn turns() -> impl Strategy<Value = Real> {
        prop_oneof![
            Just(0.0),
            -1e-12..1e-12,
            4.4e-5..4.6e-5,
            -4.6e-5..-4.4e-5,
            -0.3..0.3,
            0.7..0.9,
        ]
    }

    proptest! {
        // Cheap cases, and the configurations that matter (a corner just past a face's end,
        // a turn at the aligned threshold) are a small share of them.
        #![proptest_config(ProptestConfig::with_cases(8192))]

        /// Boxes and segments beside a box's face, parallel or nearly (about the 4.5e-5 rad at
        /// which a face stops lying along the normal), corners about the face's ends, gaps
        /// from rounding's size up, speculative limits about the gap: the shortcut's
        /// manifold is the exact closest features', bit for bit, either core first.
        #[test]
        fn a_face_across_the_gap_gives_the_exact_manifold(
            (wa, ha, x, y, angle) in (0.05..2.0 as Real, 0.05..2.0 as Real, -50.0..50.0, -50.0..50.0, -4.0..4.0),
            (wb, hb, face, quarter) in (0.05..2.0 as Real, 0.0..2.0 as Real, 0usize..4, 0u8..4),
            (gap, turn, shift) in (gaps(), turns(), -1.6..1.6 as Real),
            (radii, limit) in ((0.0..0.1 as Real, 0.0..0.1 as Real), -1e-6..0.1 as Real),
        ) {
            let pose_a = Isometry::new(Vector::new(x, y), angle);
            let pose_b = placed(((wa, ha), pose_a), ((wb, hb.max(0.05)), face, quarter), (gap, turn, shift));
            let a = quad((wa, ha), &pose_a);
            let speculative = (gap - radii.0 - radii.1 + limit).max(0.0);
            let check = |fast: Manifold, exact: Manifold| -> Result<(), TestCaseError> {
                prop_assert!(fast.same_bits(&exact), "{fast:?} != {exact:?}");
                Ok(())
            };
            let b = quad((wb, hb.max(0.05)), &pose_b);
            check(collide_rounded(&a, &b, speculative), collide_rounded_exact(&a, &b, speculative))?;
            check(collide_rounded(&b, &a, speculative), collide_rounded_exact(&b, &a, speculative))?;
            // A segment along B's length, at B's side nearest A when it lies flat.
            let segment = [Point::new(-wb, -hb.max(0.05)), Point::new(wb, -hb.max(0.05))];
            let s = SegmentCore::new(&segment, radii.1, &pose_b);
            let a = Rounded::new(
                ConvexPolygon::rectangle(wa, ha).expect("a rectangle").core(),
                radii.0,
                &pose_a,
            );
            check(collide_rounded(&a, &s, speculative), collide_rounded_exact(&a, &s, speculative))?;
            check(collide_rounded(&s, &a, speculative), collide_rounded_exact(&s, &a, speculative))?;
        }
    }

    #[test]
    fn boxes_side_by_side_and_a_corner_over_a_face_take_the_shortcut() {
        let separation = |p: &Quad, q: &Quad| {
            (0..4)
                .map(|i| {
                    let (n, v) = (p.n()[i], p.v()[i]);
                    let s = q
                        .v()
                        .iter()
                        .map(|w| n.dot(&(w - v)))
                        .fold(Real::INFINITY, Real::min);
                    (i, s)
                })
                .fold(
                    (0, Real::NEG_INFINITY),
                    |x, y| if y.1 > x.1 { y } else { x },
                )
        };
        // The shortcut's manifold for `p` then `q`, whose separating axis is `p`'s face if
        // `first`, else `q`'s.
        let shortcut = |p: &Quad, q: &Quad, first: bool| {
            let (sp, sq) = (separation(p, q), separation(q, p));
            assert_eq!(sp.1 >= sq.1, first);
            let scale = p
                .v()
                .iter()
                .chain(q.v())
                .map(|v| v.amax())
                .fold(0.0, Real::max);
            let fast = face_apart(p, q, (sp, sq), scale, 0.02).expect("the shortcut applies");
            assert!(fast.same_bits(&collide_rounded_exact(p, q, 0.02)));
            assert!(!fast.is_empty());
        };
        let pose_a = Isometry::new(Vector::new(3.0, -2.0), 0.3);
        let a = quad((0.5, 0.5), &pose_a);
        // Side by side, and a box turned 45 degrees with its corner over A's face (whose
        // faces do not lie along the normal): either first.
        for turn in [0.0, core::f64::consts::FRAC_PI_4] {
            let pose_b = placed(((0.5, 0.5), pose_a), ((0.3, 0.3), 0, 0), (0.01, turn, 0.2));
            let b = quad((0.3, 0.3), &pose_b);
            shortcut(&a, &b, true);
            shortcut(
                &b,
                &a,
                turn == 0.0 && separation(&b, &a).1 >= separation(&a, &b).1,
            );
        }
    }
}
