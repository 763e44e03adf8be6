//! Two cores with edges (polygons, segments, capsules; the manifold of every pair without a
//! circle): separating axes, then the incident edge clipped against the reference face (Box2D's
//! method) where the cores overlap, and the exact closest features of the Minkowski difference
//! where they are apart.

use super::face_apart::face_apart;
use super::manifold::{ContactId, ContactPoint, Manifold, vertex_feature};
use super::point_core::rounded_versus_point;
use super::rounded_core::Core;
use crate::minkowski::{largest_coordinate, rounding_at};
use impact_geometry::tolerances::{COORDINATE_ROUNDING_RELATIVE, LINEAR_SLOP};
use impact_geometry::{Point, Real, Vector};

/// The vertex after `i` of a core with `n` vertices (without the integer division of `%`,
/// which shows in a box-box manifold's time).
#[inline]
pub(super) fn next(i: usize, n: usize) -> usize {
    if i + 1 == n { 0 } else { i + 1 }
}

/// The edge of `p1` whose outward normal separates `p2` the most, and that separation.
#[inline]
fn max_separation<P1: Core, P2: Core>(p1: &P1, p2: &P2) -> (usize, Real) {
    let (mut best, mut best_separation) = (0, Real::NEG_INFINITY);
    let vertices = p2.v();
    for (i, (n, v)) in p1.n().iter().zip(p1.v()).enumerate() {
        // A plain comparison rather than `Real::min`: the values are finite, and the
        // separations are only ever compared, so the sign of a zero cannot matter.
        let mut s = Real::INFINITY;
        for w in vertices {
            let d = n.dot(&(w - v));
            if d < s {
                s = d;
            }
        }
        if s > best_separation {
            best = i;
            best_separation = s;
        }
    }
    (best, best_separation)
}

/// [`max_separation`] over the edges of `p1` that `allowed` accepts: the edge and its
/// separation, or `Real::NEG_INFINITY` if it accepts none.
pub(crate) fn max_separation_where<P1: Core, P2: Core>(
    p1: &P1,
    p2: &P2,
    allowed: impl Fn(usize) -> bool,
) -> (usize, Real) {
    let (mut best, mut best_separation) = (0, Real::NEG_INFINITY);
    for (i, (n, v)) in p1.n().iter().zip(p1.v()).enumerate() {
        if !allowed(i) {
            continue;
        }
        let s = p2
            .v()
            .iter()
            .map(|w| n.dot(&(w - v)))
            .fold(Real::INFINITY, Real::min);
        if s > best_separation {
            best = i;
            best_separation = s;
        }
    }
    (best, best_separation)
}

/// The manifold of two rounded cores with at least two vertices each, normal from `a` to `b`.
#[inline]
pub(crate) fn collide_rounded<A: Core, B: Core>(a: &A, b: &B, speculative: Real) -> Manifold {
    collide_rounded_in::<A, B, true>(a, b, speculative)
}

/// [`collide_rounded`] without the shortcut of [`face_apart`]: every pair apart takes the
/// exact closest features.
#[cfg(test)]
pub(crate) fn collide_rounded_exact<A: Core, B: Core>(a: &A, b: &B, speculative: Real) -> Manifold {
    collide_rounded_in::<A, B, false>(a, b, speculative)
}

/// [`collide_rounded`], with the shortcut of [`face_apart`] or without.
#[inline]
fn collide_rounded_in<A: Core, B: Core, const FACE_APART: bool>(
    a: &A,
    b: &B,
    speculative: Real,
) -> Manifold {
    let radius = a.radius() + b.radius();
    let (edge_a, separation_a) = max_separation(a, b);
    // Either axis alone proves the pair apart: pairs the broadphase's fat boxes let through
    // (a third of those of a pyramid) stop here after one search.
    if separation_a - radius > speculative {
        return Manifold::EMPTY;
    }
    let (edge_b, separation_b) = max_separation(b, a);
    if separation_b - radius > speculative {
        return Manifold::EMPTY;
    }
    // Cores apart by no more than rounding touch: the exact normal is noise there (it can
    // pick a face square to the contact, found by a test of aligned features: a segment
    // flush along a box's side, touching, got the top face and a point 3.7 deep), while
    // the face of the largest separation is the contact's.
    let scale = || core_scale(a, b);
    let rounding = || rounding_at(scale());
    let apart = separation_a.max(separation_b);
    // The cores are apart: the face chosen by the largest separation need not hold the
    // closest features of rounded shapes near a corner (found by fuzzing), so take the exact
    // closest features and build the manifold around them. (Box2D keeps clipping up to 0.1
    // slop apart because its corner normal is ill-conditioned there; ours comes from the
    // exact Minkowski difference and is accurate down to rounding.) Where the face across
    // the gap certainly holds them, `face_apart` builds the same manifold from the face.
    if apart > 0.0 {
        let scale = scale();
        if apart > rounding_at(scale) {
            let faces = ((edge_a, separation_a), (edge_b, separation_b));
            if let Some(manifold) = FACE_APART
                .then(|| face_apart(a, b, faces, scale, speculative))
                .flatten()
            {
                return manifold;
            }
            return separated(a, b, Difference::of(a, b), speculative);
        }
    }
    // Two segment cores on one line have only their sides' normals as axes, and those
    // cannot part them end to end: there the exact distance decides (found by the same
    // test: capsules lying end to end 7 cm apart were given a contact as deep as their
    // radii).
    if a.v().len() == 2 && b.v().len() == 2 {
        let difference = Difference::of(a, b);
        if difference.distance > rounding() {
            return separated(a, b, difference, speculative);
        }
    }
    // Overlapping cores: Box2D's reference face and clipping (the least-penetration face is
    // an edge normal of one core, so it is the exact normal). Prefer A's face unless B's is
    // clearly better, so the choice does not flicker between steps.
    let flip = separation_b > separation_a + 0.1 * LINEAR_SLOP;
    if flip {
        reference_face(b, a, edge_b, speculative).swapped()
    } else {
        reference_face(a, b, edge_a, speculative)
    }
}

/// The manifold with edge `e1` of `p1` as the reference face and the edge of `p2` most
/// anti-parallel to it as the incident edge, normal from `p1` to `p2`.
#[inline]
pub(crate) fn reference_face<P1: Core, P2: Core>(
    p1: &P1,
    p2: &P2,
    e1: usize,
    speculative: Real,
) -> Manifold {
    let (n1, n2) = (p1.v().len(), p2.v().len());
    let (i11, i12) = (e1, next(e1, n1));
    let reference_normal = p1.n()[e1];
    // The incident edge is the one of p2 most anti-parallel to the reference face.
    let i21 = incident(p2, reference_normal);
    let i22 = next(i21, n2);
    let edges = [i11, i12, i21, i22];
    clip(p1, p2, edges, &AlongFace::of(p1, p2, edges), speculative)
}

/// [`reference_face`], but no contact when the incident edge lies wholly beyond an end of
/// the reference face along it (to rounding): where a one-sided face has its normal forced
/// on a body that is past its end, the body is the neighbouring face's (Box2D's chain
/// segments clip the same way).
pub(crate) fn reference_face_within<P1: Core, P2: Core>(
    p1: &P1,
    p2: &P2,
    e1: usize,
    speculative: Real,
) -> Manifold {
    clip_overlapping(p1, p2, e1, speculative).unwrap_or(Manifold::EMPTY)
}

/// [`reference_face`] with edge `e1` of `p1` as the reference face if the incident edge of
/// `p2` overlaps it along its length (to rounding); `None` if it lies wholly beyond an end.
pub(super) fn clip_overlapping<P1: Core, P2: Core>(
    p1: &P1,
    p2: &P2,
    e1: usize,
    speculative: Real,
) -> Option<Manifold> {
    let (n1, n2) = (p1.v().len(), p2.v().len());
    let i21 = incident(p2, p1.n()[e1]);
    let edges = [e1, next(e1, n1), i21, next(i21, n2)];
    let along = AlongFace::of(p1, p2, edges);
    along
        .overlaps()
        .then(|| clip(p1, p2, edges, &along, speculative))
}

/// The manifold with edge `e1` of `p1` as the reference face and the incident edge `i21` of
/// `p2`, an edge of which only the two ends are on the surface of what `p2` is part of (a
/// piece's internal edge): no clipping, each end `k` of it (`i21`, then the next vertex) is a
/// point if it lies along the reference face (to rounding), within the speculative distance,
/// and `keep(k)`.
pub(crate) fn reference_face_ends<P1: Core, P2: Core>(
    p1: &P1,
    p2: &P2,
    e1: usize,
    i21: usize,
    speculative: Real,
    keep: impl Fn(usize) -> bool,
) -> Manifold {
    let (n1, n2) = (p1.v().len(), p2.v().len());
    let (i11, i12, i22) = (e1, next(e1, n1), next(i21, n2));
    let along = AlongFace::of(p1, p2, [i11, i12, i21, i22]);
    let v11 = p1.v()[i11];
    let normal = p1.n()[i11];
    let (r1, r2) = (p1.radius(), p2.radius());
    let mut manifold = Manifold {
        normal,
        ..Manifold::EMPTY
    };
    let ends = [
        (
            i22,
            along.lower2,
            ContactId::new(vertex_feature(i11), vertex_feature(i22)),
        ),
        (
            i21,
            along.upper2,
            ContactId::new(vertex_feature(i12), vertex_feature(i21)),
        ),
    ];
    for (k, position, id) in ends {
        let on_face = position >= -along.rounding && position <= along.upper1 + along.rounding;
        let v = p2.v()[k];
        let s = (v - v11).dot(&normal);
        if on_face && s - r1 - r2 <= speculative && keep(k) {
            manifold.push(ContactPoint {
                point: Point::from(v + normal * (0.5 * (r1 - r2 - s))),
                separation: s - r1 - r2,
                id,
            });
        }
    }
    if manifold.is_empty() {
        Manifold::EMPTY
    } else {
        manifold
    }
}

/// The edge of `p` whose normal is most anti-parallel to `reference_normal`.
#[inline]
pub(crate) fn incident<P: Core>(p: &P, reference_normal: Vector) -> usize {
    p.n()
        .iter()
        .enumerate()
        .min_by(|(_, x), (_, y)| {
            x.dot(&reference_normal)
                .total_cmp(&y.dot(&reference_normal))
        })
        .map_or(0, |(i, _)| i)
}

/// The edge of `p` whose normal is most parallel to `direction`, and the cosine.
fn facing<P: Core>(p: &P, direction: Vector) -> Option<(usize, Real)> {
    p.n()
        .iter()
        .enumerate()
        .max_by(|(_, x), (_, y)| x.dot(&direction).total_cmp(&y.dot(&direction)))
        .map(|(i, n)| (i, n.dot(&direction)))
}

/// The vertex of `p` nearest to `x`.
fn nearest<P: Core>(p: &P, x: Vector) -> usize {
    p.v()
        .iter()
        .enumerate()
        .min_by(|(_, u), (_, v)| (*u - x).norm_squared().total_cmp(&(*v - x).norm_squared()))
        .map_or(0, |(i, _)| i)
}

/// A face lies along a contact normal when their directions agree to rounding (cosine).
pub(super) const ALIGNED: Real = 1.0 - 1e-9;

/// The manifold of two cores that do not overlap, from their `difference`: the exact normal;
/// if a face of either shape lies along it, that face is the reference and the other shape's
/// facing edge is clipped against it (two points for parallel faces), else the contact is
/// corner against corner (one point).
fn separated<A: Core, B: Core>(
    a: &A,
    b: &B,
    difference: Difference,
    speculative: Real,
) -> Manifold {
    let radius = a.radius() + b.radius();
    let Difference {
        origin,
        ap,
        k,
        distance: core_distance,
        feature,
        normal,
    } = difference;
    let separation = core_distance - radius;
    if separation > speculative {
        return Manifold::EMPTY;
    }
    // That allows faces 4.5e-5 rad off the normal, where the closest features may still be
    // two corners: a face is the reference only if the other shape's facing edge overlaps
    // it along its length (found by a test of aligned features: a post beside a box's
    // corner, 2.7e-6 above its top, got a point on the box's side, off the post).
    if let Some((ia, _)) = facing(a, normal).filter(|&(_, c)| c >= ALIGNED)
        && let Some(manifold) = clip_overlapping(a, b, ia, speculative)
    {
        return manifold;
    }
    if let Some((ib, _)) = facing(b, -normal).filter(|&(_, c)| c >= ALIGNED)
        && let Some(manifold) = clip_overlapping(b, a, ib, speculative)
    {
        return manifold.swapped();
    }
    // Corner against corner: one point along the exact normal.
    let on_a = feature.point_on_a(k.as_slice(), ap.as_slice()) + origin;
    let on_b = on_a + normal * core_distance;
    Manifold::single(
        normal,
        ContactPoint {
            point: Point::from(on_a + normal * (a.radius() + 0.5 * separation)),
            separation,
            id: ContactId::new(
                vertex_feature(nearest(a, on_a)),
                vertex_feature(nearest(b, on_b)),
            ),
        },
    )
}

/// The Minkowski difference of two cores (A's points relative to its first vertex, minus
/// B's), with the exact signed distance between the cores and where it is realised.
struct Difference {
    /// A's first vertex, which the points are relative to.
    origin: Vector,
    /// A's points relative to `origin`.
    ap: crate::minkowski::CorePoints,
    k: crate::minkowski::Obstacle,
    distance: Real,
    feature: crate::minkowski::Feature,
    /// From A toward B.
    normal: Vector,
}

impl Difference {
    fn of<A: Core, B: Core>(a: &A, b: &B) -> Self {
        use crate::minkowski::{CorePoints, Obstacle, minkowski_sum, signed_distance_to_origin};
        let origin = a.v()[0];
        let (mut ap, mut qp) = (CorePoints::new(), CorePoints::new());
        for v in a.v() {
            ap.push(v - origin);
        }
        for v in b.v() {
            qp.push(origin - v);
        }
        let mut k = Obstacle::new();
        minkowski_sum(&mut k, ap.as_slice(), qp.as_slice());
        let (distance, feature, normal) = signed_distance_to_origin(k.as_slice());
        Self {
            origin,
            ap,
            k,
            distance,
            feature,
            normal,
        }
    }
}

/// The largest coordinate, in magnitude, of the placed cores of `a` and `b`.
fn core_scale<A: Core, B: Core>(a: &A, b: &B) -> Real {
    largest_coordinate(a.v().iter().chain(b.v()).copied())
}

/// The incident edge `v21 -> v22` of `p2` seen along the reference edge `v11 -> v12` of `p1`:
/// positions measured from `v11` along the edge's unit direction, where the reference edge
/// ends at `upper1` and the incident one (running against it) goes from `upper2` (at `v21`)
/// to `lower2` (at `v22`).
struct AlongFace {
    upper1: Real,
    lower2: Real,
    upper2: Real,
    /// Positions along the face carry the rounding of the world-frame vertices.
    rounding: Real,
}

impl AlongFace {
    fn of<P1: Core, P2: Core>(p1: &P1, p2: &P2, [i11, i12, i21, i22]: [usize; 4]) -> Self {
        let (v11, v12, v21, v22) = (p1.v()[i11], p1.v()[i12], p2.v()[i21], p2.v()[i22]);
        let edge = v12 - v11;
        let tangent = edge.normalize();
        Self {
            upper1: edge.dot(&tangent),
            lower2: (v22 - v11).dot(&tangent),
            upper2: (v21 - v11).dot(&tangent),
            rounding: COORDINATE_ROUNDING_RELATIVE
                * (v11.amax() + v12.amax() + v21.amax() + v22.amax()),
        }
    }

    /// Whether the incident edge overlaps the reference edge along it, to rounding.
    fn overlaps(&self) -> bool {
        let (first, last) = (self.upper2.min(self.lower2), self.upper2.max(self.lower2));
        last >= -self.rounding && first <= self.upper1 + self.rounding
    }
}

/// Clips the incident edge `v21 -> v22` of `p2` (seen `along` the reference face) to the side
/// planes of the reference edge `v11 -> v12` of `p1` and keeps the clipped end points within
/// the speculative distance, placed midway between the two surfaces.
#[inline]
fn clip<P1: Core, P2: Core>(
    p1: &P1,
    p2: &P2,
    [i11, i12, i21, i22]: [usize; 4],
    along: &AlongFace,
    speculative: Real,
) -> Manifold {
    let (v11, v21, v22) = (p1.v()[i11], p2.v()[i21], p2.v()[i22]);
    let &AlongFace {
        upper1,
        lower2,
        upper2,
        rounding,
        ..
    } = along;
    let lower1 = 0.0;
    let span = upper2 - lower2;
    // An end within rounding of a side plane is on it, and an incident edge whose span along
    // the face is that small stands square to it: clipping either would divide rounding by
    // the span and slide the end far along the edge (found by fuzzing: a segment standing on
    // the end of a box's face lost its one contact).
    let clips = span > rounding;
    // Clip, but never beyond the incident edge itself: when the incident edge does not
    // overlap the reference face along it (thin polygons, found by fuzzing), extrapolating
    // would invent a point deeper than any of the incident shape's.
    let lerp = |s: Real| v22 + (v21 - v22) * s.clamp(0.0, 1.0);
    let v_lower = if clips && lower2 < lower1 - rounding {
        lerp((lower1 - lower2) / span)
    } else {
        v22
    };
    let v_upper = if clips && upper2 > upper1 + rounding {
        lerp((upper1 - lower2) / span)
    } else {
        v21
    };
    let normal = p1.n()[i11];
    let (r1, r2) = (p1.radius(), p2.radius());
    let radius = r1 + r2;
    let mut manifold = Manifold {
        normal,
        ..Manifold::EMPTY
    };
    let ends = [
        (
            v_lower,
            ContactId::new(vertex_feature(i11), vertex_feature(i22)),
        ),
        (
            v_upper,
            ContactId::new(vertex_feature(i12), vertex_feature(i21)),
        ),
    ];
    // Both ends clamped to the same point: one contact, not two on top of each other.
    let count = if v_lower == v_upper { 1 } else { 2 };
    for &(v, id) in &ends[..count] {
        let s = (v - v11).dot(&normal);
        if s - radius <= speculative {
            manifold.push(ContactPoint {
                point: Point::from(v + normal * (0.5 * (r1 - r2 - s))),
                separation: s - radius,
                id,
            });
        }
    }
    if manifold.is_empty() {
        Manifold::EMPTY
    } else {
        manifold
    }
}

/// [`collide_rounded`] for cores that may be single points (zero-length segments).
pub(crate) fn collide_rounded_any<A: Core, B: Core>(a: &A, b: &B, speculative: Real) -> Manifold {
    match (a.v().len(), b.v().len()) {
        (1, _) => rounded_versus_point(b, a.v()[0], a.radius(), speculative).swapped(),
        (_, 1) => rounded_versus_point(a, b.v()[0], b.radius(), speculative),
        _ => collide_rounded(a, b, speculative),
    }
}
