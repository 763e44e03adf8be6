//! The configuration-space obstacle of two convex cores, and the two queries every closed
//! form reduces to: the distance from a point to it, and the first time a ray from the origin
//! comes within a given distance of it.
//!
//! For cores `A` and `B` (convex point sets: a point, a segment or a polygon), the shapes
//! `A + disc(ra)` and `B + disc(rb)` are at distance `dist(A - B_offset) - ra - rb`, and
//! `dist(A, B + x) = dist(x, K)` with `K = A ⊖ B = { a - b }`, the Minkowski difference.
//! If B translates by `t * d` relative to A, the shapes first come within `target` of each
//! other at the first `t` where the point `t * d` is within `rho = ra + rb + target` of `K`:
//! a ray cast against `K` rounded by `rho`. `K` is a convex polygon with at most
//! `|A| + |B|` vertices, built in linear time by merging the edges of `A` and `-B` by angle.
//! `docs/algorithms/toi.md` has the derivation and the proof of the corner case below.

use crate::scratch::Scratch;
use impact_geometry::tolerances::{
    COORDINATE_ROUNDING_RELATIVE, FACE_END_SLACK_RELATIVE, POINT_SEGMENT_RELATIVE,
};
use impact_geometry::{Isometry, Point, Real, Vector, cross};

/// A vertex of `K`: `a[ia] - b[j]` for some vertex `j` of `B`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct KVertex {
    /// Position, relative to the reference origin of the query.
    pub p: Vector,
    /// Index of the vertex of `A` it comes from (the vertex of `B` follows from `p`).
    pub ia: usize,
}

/// Vertices kept on the stack: enough for two octagons.
pub(crate) const INLINE: usize = 16;

/// The obstacle `K`, counter-clockwise.
pub(crate) type Obstacle = Scratch<KVertex, INLINE>;

/// Points of one core, relative to the reference origin.
pub(crate) type CorePoints = Scratch<Vector, INLINE>;

/// Core points in the world frame minus `origin`; a zero-length segment becomes a point.
///
/// Into `out` (empty), which the caller owns: a buffer returned by value was copied out of
/// the callee's frame, a memcpy of its whole inline array per call.
pub(crate) fn relative_points(
    out: &mut CorePoints,
    core: &[Point],
    pose: &Isometry,
    origin: &Vector,
    negate: bool,
) {
    debug_assert!(out.as_slice().is_empty());
    let offset = pose.translation.vector - origin;
    let sign = if negate { -1.0 } else { 1.0 };
    for p in core {
        out.push((pose.rotation * p.coords + offset) * sign);
    }
    if core.len() == 2 && is_point_like(out.as_slice()[0], out.as_slice()[1], origin) {
        let middle = (out.as_slice()[0] + out.as_slice()[1]) * 0.5;
        out.clear();
        out.push(middle);
    }
}

/// Whether a segment is so short next to its coordinates ([`POINT_SEGMENT_RELATIVE`] of them)
/// that its direction is rounding noise: such a segment is a point for every query (an error
/// of that much, relative), since a noisy direction would misplace it among the edges of the
/// Minkowski difference. Every query (time of impact, distance, contacts) asks this, so that
/// all see the same shape.
#[inline]
pub(crate) fn is_point_like(p: Vector, q: Vector, origin: &Vector) -> bool {
    let scale = largest_abs(&p)
        .max(largest_abs(&q))
        .max(largest_abs(origin));
    largest_abs(&(q - p)) <= POINT_SEGMENT_RELATIVE * scale
}

/// The larger magnitude of the two coordinates of `v`: nalgebra's `amax`, written out for
/// two coordinates (its generic fold is not unrolled, and this runs for every segment core
/// of every candidate pair). Equal to `v.amax()` for every finite `v`: the maximum of
/// non-negative numbers does not depend on their order.
#[inline(always)]
pub(crate) fn largest_abs(v: &Vector) -> Real {
    v.x.abs().max(v.y.abs())
}

/// A place on the boundary of `K`: the point `(1 - s) * K[k0] + s * K[k1]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Feature {
    pub k0: usize,
    pub k1: usize,
    pub s: Real,
}

impl Feature {
    fn vertex(k: usize) -> Self {
        Self {
            k0: k,
            k1: k,
            s: 0.0,
        }
    }

    /// The point of core `A` this feature comes from (each edge of `K` is an edge of `A`
    /// minus a vertex of `B`, a vertex of `A` minus an edge of `B`, or parallel edges of both,
    /// so the same interpolation splits it into its `A` and `B` parts).
    pub(crate) fn point_on_a(&self, k: &[KVertex], a: &[Vector]) -> Vector {
        let a0 = a[k[self.k0].ia];
        let a1 = a[k[self.k1].ia];
        a0 + (a1 - a0) * self.s
    }
}

/// Whether the direction of `u` comes strictly before that of `v` when angles are measured
/// counter-clockwise from the positive x axis in `[0, 2 pi)`.
#[inline]
fn angle_before(u: &Vector, v: &Vector) -> bool {
    let upper = |w: &Vector| w.y > 0.0 || (w.y == 0.0 && w.x > 0.0);
    match (upper(u), upper(v)) {
        (true, false) => true,
        (false, true) => false,
        _ => cross(u, v) > 0.0,
    }
}

/// Index of the lowest point (smallest y, then smallest x): where edge angles start at 0.
#[inline]
fn lowest(points: &[Vector]) -> usize {
    let mut best = 0;
    for (i, p) in points.iter().enumerate().skip(1) {
        let b = &points[best];
        if p.y < b.y || (p.y == b.y && p.x < b.x) {
            best = i;
        }
    }
    best
}

/// The index after `i` round a polygon of `m` vertices: `(i + 1) % m` without the division,
/// which the walks round `K` would otherwise take at every edge.
#[inline(always)]
fn after(i: usize, m: usize) -> usize {
    if i + 1 >= m { 0 } else { i + 1 }
}

/// `K = A ⊕ Q` for convex counter-clockwise point lists (`Q` is `-B`), with vertex tags.
/// Parallel edges of the same direction are merged into one edge of `K`.
///
/// Into `out` (empty), which the caller owns, as [`relative_points`].
pub(crate) fn minkowski_sum(out: &mut Obstacle, a: &[Vector], q: &[Vector]) {
    debug_assert!(out.as_slice().is_empty());
    let (n, m) = (a.len(), q.len());
    let edges_a = if n > 1 { n } else { 0 };
    let edges_q = if m > 1 { m } else { 0 };
    // Edge `count` of a list from its lowest point, when it has that many: the edge from
    // vertex `k` to the next. Each edge is taken once, when its list moves on to it.
    let edge = |points: &[Vector], k: usize, count: usize, edges: usize| {
        (count < edges).then(|| points[after(k, points.len())] - points[k])
    };
    let (mut i, mut j) = (0, 0);
    let (mut ia, mut jq) = (lowest(a), lowest(q));
    let mut ea = edge(a, ia, i, edges_a);
    let mut eq = edge(q, jq, j, edges_q);
    out.push(KVertex {
        p: a[ia] + q[jq],
        ia,
    });
    while i < edges_a || j < edges_q {
        // An edge that rounding collapsed to nothing has no direction to merge by: skip it
        // (its end is its start, so no vertex is lost).
        let (step_a, step_q) = match (ea, eq) {
            (Some(u), _) if u == Vector::zeros() => (true, false),
            (_, Some(v)) if v == Vector::zeros() => (false, true),
            (Some(u), Some(v)) => {
                if angle_before(&u, &v) {
                    (true, false)
                } else if angle_before(&v, &u) {
                    (false, true)
                } else {
                    (true, true)
                }
            }
            (Some(_), None) => (true, false),
            (None, Some(_)) => (false, true),
            (None, None) => unreachable!("loop condition"),
        };
        let collapsed = ea == Some(Vector::zeros()) || eq == Some(Vector::zeros());
        if step_a {
            i += 1;
            ia = after(ia, n);
            ea = edge(a, ia, i, edges_a);
        }
        if step_q {
            j += 1;
            jq = after(jq, m);
            eq = edge(q, jq, j, edges_q);
        }
        if collapsed {
            continue;
        }
        if i == edges_a && j == edges_q {
            break;
        }
        out.push(KVertex {
            p: a[ia] + q[jq],
            ia,
        });
    }
}

/// The closest point of the boundary of `K` to `q`, as a feature and its squared distance.
pub(crate) fn closest_boundary_point(k: &[KVertex], q: &Vector) -> (Feature, Real) {
    let m = k.len();
    if m == 1 {
        return (Feature::vertex(0), (k[0].p - q).norm_squared());
    }
    let mut best = (Feature::vertex(0), Real::INFINITY);
    for i in 0..m {
        let v = k[i].p;
        let e = k[after(i, m)].p - v;
        let len2 = e.norm_squared();
        let s = if len2 > 0.0 {
            ((q - v).dot(&e) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let d2 = (v + e * s - q).norm_squared();
        if d2 < best.1 {
            best = (
                Feature {
                    k0: i,
                    k1: after(i, m),
                    s,
                },
                d2,
            );
        }
    }
    best
}

/// The signed distance from the origin to `K` (negative inside), the feature nearest to the
/// origin, and the unit normal pointing from `K` toward the origin side (from A to B).
pub(crate) fn signed_distance_to_origin(k: &[KVertex]) -> (Real, Feature, Vector) {
    let m = k.len();
    if m >= 3 {
        // Inside iff the origin is behind every edge; then the depth is the smallest margin.
        let mut deepest: Option<(Real, usize, Vector)> = None;
        let mut inside = true;
        for i in 0..m {
            let v = k[i].p;
            let e = k[after(i, m)].p - v;
            let len = e.norm();
            if len == 0.0 {
                continue;
            }
            let n = Vector::new(e.y, -e.x) / len;
            let h = n.dot(&v);
            if h < 0.0 {
                inside = false;
                break;
            }
            if deepest.is_none_or(|(best, _, _)| h < best) {
                deepest = Some((h, i, n));
            }
        }
        // A `K` of no width (two segment cores on one line) has no edge across its ends, so
        // a point beyond an end, on the line, is behind every edge without being inside: at
        // a depth of rounding size the nearest edge must really be that near (inside a
        // convex `K` the nearest edge is as near as its line). Found by a test of aligned
        // features: collinear segments 0.8 mm apart end to end came out overlapping.
        // (Asked only once the origin is behind every edge.)
        let really_inside = |h: Real| {
            let rounding = rounding_size(k);
            h > rounding || closest_boundary_point(k, &Vector::zeros()).1.sqrt() <= h + rounding
        };
        if let (true, Some((h, i, n))) = (inside, deepest)
            && really_inside(h)
        {
            let e = k[after(i, m)].p - k[i].p;
            let s = (-k[i].p.dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
            return (
                -h,
                Feature {
                    k0: i,
                    k1: after(i, m),
                    s,
                },
                n,
            );
        }
    }
    let (feature, d2) = closest_boundary_point(k, &Vector::zeros());
    let dist = d2.sqrt();
    let closest = k[feature.k0].p + (k[feature.k1].p - k[feature.k0].p) * feature.s;
    let normal = if dist > 0.0 {
        -closest / dist
    } else {
        // The origin is on the boundary: use the outward normal of the edge it lies on.
        edge_normal(k, feature.k0).unwrap_or_else(|| Vector::new(1.0, 0.0))
    };
    (dist, feature, normal)
}

/// A distance of rounding size for `K`: a few dozen ulps of its largest coordinate.
fn rounding_size(k: &[KVertex]) -> Real {
    rounding_at(largest_coordinate(k.iter().map(|v| v.p)))
}

/// The largest coordinate, in magnitude, of `points` (zero for none).
#[inline]
pub(crate) fn largest_coordinate(points: impl IntoIterator<Item = Vector>) -> Real {
    points.into_iter().map(|p| p.amax()).fold(0.0, Real::max)
}

/// A distance of rounding size among numbers up to `largest`: a few dozen ulps of it.
#[inline]
pub(crate) fn rounding_at(largest: Real) -> Real {
    64.0 * Real::EPSILON * largest
}

/// Whether shapes touching at the start (the origin at `dist` from `K`, with closest-point
/// `normal`) approach under the relative motion `d`: closing by more than `tolerance` along
/// the normal. At a distance of rounding size the normal is noise and must not decide: the
/// motion approaches only if it enters `K` (impossible for a point or segment `K`, which has
/// no interior). Inside `K` (overlapping by less than the tolerance) every edge about as
/// deep as the deepest has its say (see [`deepens`]).
pub(crate) fn approaches(
    k: &[KVertex],
    dist: Real,
    normal: &Vector,
    d: &Vector,
    tolerance: Real,
) -> bool {
    let rounding = rounding_size(k);
    if dist.abs() <= rounding {
        enters_interior(k, d, tolerance, dist.abs() + rounding)
    } else if dist < 0.0 {
        deepens(k, -dist, d, tolerance)
    } else {
        normal.dot(d) < -tolerance
    }
}

/// Whether an origin inside `K`, `depth` from its nearest edge, can go deeper by more than
/// `tolerance` over the step along `d`.
///
/// Inside, the signed distance is `max_i (s_i t - h_i)` over the edges (`h_i` the origin's
/// distance from edge `i`, `s_i = n_i . d`): the deepest edge gives its value at the start
/// but not alone its slope. An edge `tolerance` or less less deep than the deepest, that the
/// motion does not cross inward, keeps the distance from falling by more than `tolerance`
/// whatever the deepest edge does: `f(t) >= min(0, s_j) - h_j >= f(0) - tolerance` when
/// `min(0, s_j) >= h_j - depth - tolerance`. Found by fuzzing: a 1 mm square
/// overlapping a segment along its diagonal, the deepest edge's normal saying "approach"
/// while the distance only grew, where conservative advancement said apart.
fn deepens(k: &[KVertex], depth: Real, d: &Vector, tolerance: Real) -> bool {
    (0..k.len()).all(|i| {
        let Some(n) = edge_normal(k, i) else {
            return true;
        };
        let h = n.dot(&k[i].p);
        n.dot(d).min(0.0) < h - depth - tolerance
    })
}

/// Whether a ray from an origin lying on the boundary of `K` (within `on_edge` of each edge
/// it touches) enters the interior: it must point inward, by more than `tolerance` over the
/// step, through every such edge. A point or segment `K` has no interior.
fn enters_interior(k: &[KVertex], d: &Vector, tolerance: Real, on_edge: Real) -> bool {
    if k.len() < 3 {
        return false;
    }
    let mut touched = 0;
    for i in 0..k.len() {
        let Some(n) = edge_normal(k, i) else { continue };
        if n.dot(&k[i].p).abs() <= on_edge {
            touched += 1;
            if n.dot(d) >= -tolerance {
                return false;
            }
        }
    }
    touched > 0
}

/// The outward unit normal of edge `i` of `K`, if `K` has edges and that one has length.
fn edge_normal(k: &[KVertex], i: usize) -> Option<Vector> {
    let m = k.len();
    if m < 2 {
        return None;
    }
    let e = k[after(i, m)].p - k[i].p;
    let len = e.norm();
    (len > 0.0).then(|| Vector::new(e.y, -e.x) / len)
}

/// The first `t > 0` at which the point `t * d` is at distance `rho` from the point `v`,
/// given that it starts farther away. Cancellation-free: `c = (|w| - rho)(|w| + rho)` and the
/// discriminant `rho^2 |d|^2 - (w x d)^2` are both factored, and the root is taken in the
/// form `c / (-b + sqrt(disc))`, whose denominator adds two non-negative terms.
#[inline]
pub(crate) fn circle_entry(v: &Vector, rho: Real, d: &Vector) -> Option<Real> {
    let w = -v;
    let b = w.dot(d);
    if b >= 0.0 {
        return None;
    }
    let (c, disc) = circle_terms(&w, rho, d);
    if disc < 0.0 {
        return None;
    }
    Some(c / (-b + disc.sqrt()))
}

/// Where the point `t * d` first comes within `rho` of the vertex `v` of `K`, if by
/// `max_fraction`: the time and the unit normal there, from the vertex toward the point
/// (from A toward B), or away from `v` in the degenerate `rho = 0` case.
#[inline]
pub(crate) fn vertex_entry(
    v: &Vector,
    rho: Real,
    d: &Vector,
    max_fraction: Real,
) -> Option<(Real, Vector)> {
    let t = circle_entry(v, rho, d).filter(|&t| t <= max_fraction)?;
    let offset = d * t - v;
    let len = offset.norm();
    Some((
        t,
        if len > 0.0 {
            offset / len
        } else {
            -v.normalize()
        },
    ))
}

/// The last `t` (of any sign) at which the point `t * d` is at distance `rho` from the point
/// `v`: where the line leaves the circle. `None` if the line misses the circle or `d` is zero.
/// The same factored terms as [`circle_entry`], and the larger root in whichever form has no
/// cancellation.
#[inline]
pub(crate) fn circle_exit(v: &Vector, rho: Real, d: &Vector) -> Option<Real> {
    let w = -v;
    let b = w.dot(d);
    let (c, disc) = circle_terms(&w, rho, d);
    if disc < 0.0 || *d == Vector::zeros() {
        return None;
    }
    let root = disc.sqrt();
    Some(if b <= 0.0 {
        (-b + root) / d.norm_squared()
    } else {
        c / (-b - root)
    })
}

/// `c = |w|^2 - rho^2` and the discriminant `rho^2 |d|^2 - (w x d)^2` of
/// `|w + t d|^2 = rho^2`, each as a product of factors: neither cancels when `w` is nearly
/// `rho` long or the line passes nearly through the centre (Lagrange's identity).
#[inline]
fn circle_terms(w: &Vector, rho: Real, d: &Vector) -> (Real, Real) {
    let w_len = w.norm();
    let c = (w_len - rho) * (w_len + rho);
    let d_len = d.norm();
    let cr = cross(w, d).abs();
    (c, (rho * d_len - cr) * (rho * d_len + cr))
}

/// What the ray cast against the rounded obstacle found.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Cast {
    /// The cores start closer than `radius_sum - tolerance`.
    Overlapping,
    /// No time in `[0, max_fraction]` comes within `rho`.
    Separated,
    /// At `t`, `t * d` is at `distance` from `K`, nearest to `feature`, along `normal`.
    Hit {
        t: Real,
        feature: Feature,
        normal: Vector,
        distance: Real,
    },
}

/// Parameters of [`cast`].
pub(crate) struct CastInput {
    /// Relative displacement of B with respect to A over the step.
    pub d: Vector,
    /// Sum of the radii of the two shapes.
    pub radius_sum: Real,
    /// Sum of the radii plus the target separation.
    pub rho: Real,
    /// See [`crate::ToiOptions::tolerance`].
    pub tolerance: Real,
    /// See [`crate::ToiOptions::max_fraction`].
    pub max_fraction: Real,
    /// The largest coordinate the shapes were placed at before `K` was made relative to A
    /// (whose rounding `K`'s coordinates carry).
    pub placed_at: Real,
}

/// The first `t` in `[0, max_fraction]` at which `t * d` comes within `rho` of `K`.
///
/// Clipping the ray against the edges of `K` pushed out by `rho` (a sharp-cornered polygon
/// holding the rounded one) gives the entry time into that polygon, exactly. If the entry
/// point lies beside an edge, it is on the rounded boundary and the answer. If it lies in the
/// wedge of a vertex `v`, the ray can reach the rounded boundary inside that wedge only on the
/// arc around `v`, so one circle root finishes the job; a miss means the ray only clips the
/// sharp corner and never comes within `rho`.
pub(crate) fn cast(k: &[KVertex], input: &CastInput) -> Cast {
    let CastInput {
        d,
        radius_sum,
        rho,
        tolerance,
        max_fraction,
        placed_at,
    } = *input;
    let m = k.len();
    // How far a ray may miss an edge, or enter after it exits, and still graze: the rounding
    // of the coordinates, with room for the edge directions' own (a sliver's two sides,
    // nominally parallel, are not quite, which moves where a far ray crosses them).
    let extent = largest_coordinate(k.iter().map(|v| v.p));
    let graze = COORDINATE_ROUNDING_RELATIVE * (extent + d.amax() + placed_at);
    let SweptAxes {
        t_enter,
        enter_face,
        t_exit,
        never,
        exit_speed,
        separation,
    } = SweptAxes::of(k, &d, rho, graze);

    // Only origins within rho + tolerance of the sharp polygon can be touching or overlapping
    // at t = 0 (the separating-axis value is a lower bound of the distance).
    let mut start_vertex = None;
    if separation <= rho + tolerance {
        let (dist, feature, normal) = signed_distance_to_origin(k);
        if dist < radius_sum - tolerance {
            return Cast::Overlapping;
        }
        if dist <= rho + tolerance {
            // Touching: within the target plus the tolerance (see `ToiOptions::tolerance`).
            // Distance is convex in t under translation: if it does not decrease now, it never
            // will, so touching shapes that slide or part are separated. Closing by less than
            // the tolerance over the whole step counts as sliding, so that rounding in a
            // tangential motion does not stop a sliding body.
            let approaching = approaches(k, dist, &normal, &d, tolerance);
            return if approaching {
                Cast::Hit {
                    t: 0.0,
                    feature,
                    normal,
                    distance: dist,
                }
            } else {
                Cast::Separated
            };
        }
        start_vertex = Some((feature, normal));
    }
    // Entry after exit by a rounding-sized distance is a graze, not a miss: two parallel
    // zero-thickness segments that cross side by side make `K` a sliver whose width is
    // rounding, and missing that instant would let one tunnel through the other.
    if never
        || (t_enter > t_exit && (t_enter - t_exit) * exit_speed > graze)
        || t_enter > max_fraction
    {
        return Cast::Separated;
    }

    let p = d * t_enter;
    let vertex = match enter_face {
        None => {
            // Inside the sharp polygon but outside the rounded one: in a vertex wedge.
            match start_vertex {
                // Beside an edge, yet entering no pushed-out edge: rounding put the origin on
                // the inner side of that edge's line although it is (just) farther than `rho`
                // from the edge. It touches now; the circle of an end vertex would be wrong.
                Some((f, normal)) if m >= 2 && f.s > 0.0 && f.s < 1.0 => {
                    return if normal.dot(&d) < 0.0 {
                        Cast::Hit {
                            t: 0.0,
                            feature: f,
                            normal,
                            distance: rho,
                        }
                    } else {
                        Cast::Separated
                    };
                }
                Some((f, _)) if m >= 2 => {
                    if f.s < 0.5 {
                        f.k0
                    } else {
                        f.k1
                    }
                }
                _ => 0,
            }
        }
        Some((f, n)) => match through_face(k, (f, n), &p, t_enter, rho, extent) {
            Ok(hit) => return hit,
            Err(vertex) => vertex,
        },
    };
    match vertex_entry(&k[vertex].p, rho, &d, max_fraction) {
        Some((t, normal)) => Cast::Hit {
            t,
            feature: Feature::vertex(vertex),
            normal,
            distance: rho,
        },
        None => Cast::Separated,
    }
}

/// The ray against the edges of `K` pushed out by `rho` (the sharp-cornered polygon holding
/// the rounded one): when it enters and leaves, and how far outside it the origin starts.
struct SweptAxes {
    /// The latest entry time over the pushed-out edges the origin starts outside of (zero if
    /// none), and that edge with its outward unit normal.
    t_enter: Real,
    enter_face: Option<(usize, Vector)>,
    /// The earliest exit time over the others.
    t_exit: Real,
    /// Whether the ray starts outside a pushed-out edge and never crosses it.
    never: bool,
    /// How fast the ray leaves through the edge it exits by, which turns a time after the
    /// exit into a distance beyond it.
    exit_speed: Real,
    /// The largest separation of the origin from an edge of `K` (a lower bound on its
    /// distance to `K`); from its one vertex when `K` is a point.
    separation: Real,
}

impl SweptAxes {
    /// The ray `t d` against every edge of `K` pushed out by `rho`, an edge's line within
    /// `graze` of the origin and of the ray's direction counting as neither entered nor left.
    #[inline(always)]
    fn of(k: &[KVertex], d: &Vector, rho: Real, graze: Real) -> Self {
        let m = k.len();
        let mut t_enter = 0.0;
        let mut enter_face: Option<(usize, Vector)> = None;
        let mut t_exit = Real::INFINITY;
        let mut never = false;
        let mut exit_speed = 0.0;
        let mut separation = Real::NEG_INFINITY;
        if m >= 2 {
            for i in 0..m {
                let v = k[i].p;
                let e = k[after(i, m)].p - v;
                let len = e.norm();
                if len == 0.0 {
                    continue;
                }
                let n = Vector::new(e.y, -e.x) / len;
                let h = n.dot(&v);
                separation = separation.max(-h);
                let s = h + rho;
                let dn = n.dot(d);
                if s < 0.0 {
                    if -s <= graze && dn.abs() <= graze {
                        // Beside this edge's line by rounding and moving along it: the ray runs
                        // on the boundary all step, a graze the other edges decide. Neither a
                        // miss nor an entry at `s / dn`, a ratio of two rounding errors (found
                        // by the aligned scenes: zero-thickness segments on one line meeting
                        // end to end, and a box sliding down flush with another's side, at
                        // target separation zero, were a miss or a late hit in one argument
                        // order).
                    } else if dn >= 0.0 {
                        never = true;
                    } else {
                        let t = s / dn;
                        if t > t_enter {
                            t_enter = t;
                            enter_face = Some((i, n));
                        }
                    }
                } else if dn > graze || s > graze && dn > 0.0 {
                    // (Within rounding of the line and along it: no exit either.)
                    if s / dn < t_exit {
                        t_exit = s / dn;
                        exit_speed = dn;
                    }
                }
            }
        } else {
            separation = k[0].p.norm();
        }
        Self {
            t_enter,
            enter_face,
            t_exit,
            never,
            exit_speed,
            separation,
        }
    }
}

/// Where the ray, entering the pushed-out edge `f` of `K` (outward unit normal `n`) at `p`
/// (time `t_enter`), comes within `rho` of `K`: `Ok` with the hit when `p` lies beside that
/// edge or, past its end, beside a neighbouring edge; else `Err` with the vertex of `K` in
/// whose wedge it lies, whose circle decides. `extent` is `K`'s largest coordinate.
#[inline(always)]
fn through_face(
    k: &[KVertex],
    (f, n): (usize, Vector),
    p: &Vector,
    t_enter: Real,
    rho: Real,
    extent: Real,
) -> Result<Cast, usize> {
    let m = k.len();
    let p = *p;
    let v0 = k[f].p;
    let e = k[after(f, m)].p - v0;
    let len = e.norm();
    let u = e / len;
    let lambda = (p - v0).dot(&u);
    let face_hit = |s: Real| Cast::Hit {
        t: t_enter,
        feature: Feature {
            k0: f,
            k1: after(f, m),
            s,
        },
        normal: n,
        distance: rho,
    };
    // Beside the face, up to a slack of 1e-9 of `K`'s size: an entry that far past an
    // end is rho from `K` to within (1e-9 size)^2 / rho, and with rho = 0 an exact
    // corner-to-corner contact lands there by rounding. The extent is checked even
    // with rho = 0: rounding can make `K` a parallelogram of almost no width whose
    // pushed-out edges no longer bound it. (The size of `K`, not of the face: `K` of
    // the other argument order is the same size, and its entry may be through
    // another face; a slack per face let a miss by 1e-9 be a hit in one order only.)
    let slack = FACE_END_SLACK_RELATIVE * extent;
    if (-slack..=len + slack).contains(&lambda) {
        return Ok(face_hit((lambda / len).clamp(0.0, 1.0)));
    }
    // Beyond an end of the face. Walk along the boundary in that direction: the entry
    // point is either beside a (nearly collinear) neighbouring edge, where it is exactly
    // rho from `K`, or in the wedge of a vertex, where only the circle about it can be
    // reached first. Checking each edge's extent matters: rounding can make `K` a
    // parallelogram of almost no width whose neighbouring edges are all but collinear,
    // and the entry point can lie beyond all of them.
    let forward = lambda > len;
    let mut vertex = if forward { after(f, m) } else { f };
    let mut beside: Option<(usize, Real)> = None;
    for _ in 0..m {
        // The edge leaving `vertex` (forward) or arriving at it (backward), and the
        // vertex at its far end, where the walk goes on.
        let (edge, far) = if forward {
            (vertex, after(vertex, m))
        } else {
            let previous = if vertex == 0 { m - 1 } else { vertex - 1 };
            (previous, previous)
        };
        let (e0, e1) = (k[edge].p, k[after(edge, m)].p);
        let e = e1 - e0;
        let len2 = e.norm_squared();
        let along = (p - e0).dot(&e);
        let past_vertex = if forward { along > 0.0 } else { along < len2 };
        if !past_vertex {
            // Not beyond the vertex along this edge: in the vertex's wedge.
            break;
        }
        // With the face's relative slack (see above): the walk can end on the far end
        // of a sliver's long side, which an exact end-to-end contact reaches only to
        // rounding (found by the aligned scenes: collinear segments meeting end to end
        // at target separation zero entered through a short side in one order).
        let slack = FACE_END_SLACK_RELATIVE * extent * len2.sqrt();
        if len2 > 0.0 && (-slack..=len2 + slack).contains(&along) {
            beside = Some((edge, (along / len2).clamp(0.0, 1.0)));
            break;
        }
        vertex = far;
    }
    if let Some((edge, s)) = beside {
        let normal = edge_normal(k, edge).unwrap_or(n);
        return Ok(Cast::Hit {
            t: t_enter,
            feature: Feature {
                k0: edge,
                k1: after(edge, m),
                s,
            },
            normal,
            distance: rho,
        });
    }
    Err(vertex)
}
