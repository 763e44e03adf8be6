//! GJK distance and closest points between two shapes, with a warm-startable simplex.
//!
//! GJK runs on the cores (point, segment, polygon) through their support functions and adds the
//! radii at the end, as Box2D does: a rounded shape never needs a curved support function, and
//! the iteration always works on polygons, where it terminates exactly.
//!
//! The simplex lives in the Minkowski difference `B - A` (points `w = b - a`); its point
//! closest to the origin is the vector from A's closest point to B's. Termination: the simplex
//! holds the origin (the cores overlap), the search direction vanishes (the origin lies on the
//! simplex: touching cores), a support point repeats (no progress is possible: the answer is
//! exact), or the iteration cap is reached (reported). Each support vertex is a vertex of the
//! cores, so a repeat is detected exactly, without tolerances.

use impact_geometry::{Isometry, Point, Real, Shape, Vector, cross};

/// The simplex a query ended with, by vertex indices: pass it to the next query on the same
/// pair (a step later, or the next iteration of conservative advancement) to start where the
/// last one finished. A cache from another pair is harmless (indices out of range are ignored).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GjkCache {
    count: u8,
    index_a: [u16; 3],
    index_b: [u16; 3],
}

impl GjkCache {
    /// A one-vertex simplex to start from when no earlier query on the pair left one: the
    /// vertex of A farthest along `direction` (from A toward B) and the vertex of B farthest
    /// against it. From the default simplex (the first vertices, wherever they are) GJK takes
    /// about twice as many iterations on separated polygons.
    pub(crate) fn toward(
        a: &Shape,
        pose_a: &Isometry,
        b: &Shape,
        pose_b: &Isometry,
        direction: &Vector,
    ) -> Self {
        let a = Proxy {
            points: a.core(),
            pose: pose_a,
        };
        let b = Proxy {
            points: b.core(),
            pose: pose_b,
        };
        Self::toward_support(&a, &b, direction)
    }

    /// [`toward`](Self::toward) for cores already placed in a common frame.
    pub(crate) fn toward_placed(a: &Placed<'_>, b: &Placed<'_>, direction: &Vector) -> Self {
        Self::toward_support(a, b, direction)
    }

    /// The simplex as one edge of a core against one vertex of the other, if it is that:
    /// `Some((true, i, j, v))` for the edge from A's vertices `i` to `j` against B's vertex `v`,
    /// `Some((false, i, j, v))` for B's edge against A's vertex (in the order cached).
    pub(crate) fn edge_against_vertex(&self) -> Option<(bool, usize, usize, usize)> {
        if self.count != 2 {
            return None;
        }
        let (a, b) = (self.index_a, self.index_b);
        if b[0] == b[1] && a[0] != a[1] {
            Some((true, a[0].into(), a[1].into(), b[0].into()))
        } else if a[0] == a[1] && b[0] != b[1] {
            Some((false, b[0].into(), b[1].into(), a[0].into()))
        } else {
            None
        }
    }

    /// The simplex of A's edge from vertex `i` to `j` against B's vertex `v` (`on_a`), or of
    /// B's edge against A's vertex: where GJK starts after a distance found without it.
    /// Indices past `u16` leave the cache as it is.
    pub(crate) fn set_edge_against_vertex(&mut self, on_a: bool, i: usize, j: usize, v: usize) {
        let (Ok(i), Ok(j), Ok(v)) = (u16::try_from(i), u16::try_from(j), u16::try_from(v)) else {
            return;
        };
        self.count = 2;
        if on_a {
            self.index_a = [i, j, 0];
            self.index_b = [v, v, 0];
        } else {
            self.index_a = [v, v, 0];
            self.index_b = [i, j, 0];
        }
    }

    fn toward_support(a: &impl Support, b: &impl Support, direction: &Vector) -> Self {
        let ia = a.support(direction);
        let ib = b.support(&-direction);
        // Indices past `u16` (polygons no one builds) leave the default start.
        match (u16::try_from(ia), u16::try_from(ib)) {
            (Ok(ia), Ok(ib)) => Self {
                count: 1,
                index_a: [ia, 0, 0],
                index_b: [ib, 0, 0],
            },
            _ => Self::default(),
        }
    }
}

/// What GJK found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GjkOutput {
    /// Distance between the surfaces (world units). When the cores are apart but the rounded
    /// shapes overlap this is negative (minus the overlap along `normal`); when the cores
    /// themselves overlap it is `-(radius_a + radius_b)` and `cores_overlap` is set: GJK does
    /// not measure core penetration (use [`crate::distance()`]).
    pub distance: Real,
    /// Unit normal from A toward B (meaningless when `cores_overlap`).
    pub normal: Vector,
    /// Closest point on A's surface.
    pub point_a: Point,
    /// Closest point on B's surface.
    pub point_b: Point,
    /// Whether the cores intersect or touch (distance zero to rounding).
    pub cores_overlap: bool,
    /// Iterations used (for diagnostics and benchmarks).
    pub iterations: u32,
}

/// More iterations than any polygon pair of the geometry crate can use: every iteration adds
/// a new vertex pair or stops, and the cap only guards against rounding cycles.
const MAX_ITERATIONS: u32 = 64;

#[derive(Debug, Clone, Copy, Default)]
struct Vertex {
    /// Support point of A (world).
    wa: Vector,
    /// Support point of B (world).
    wb: Vector,
    /// `wb - wa`.
    w: Vector,
    /// The largest squared norm of `wa`, `wb` and `w`: the size of the numbers `w` was
    /// computed from (see [`scale`]).
    size2: Real,
    /// Barycentric weight in the closest point.
    a: Real,
    ia: usize,
    ib: usize,
}

/// Where GJK reads the vertices of one core: the same iteration runs on shapes placed by a pose
/// and on vertices conservative advancement has already placed.
trait Support {
    /// Number of core vertices.
    fn len(&self) -> usize;
    /// Index of the core vertex farthest along direction `d` (of the common frame).
    fn support(&self, d: &Vector) -> usize;
    /// Vertex `i` in the common frame.
    fn world(&self, i: usize) -> Vector;
}

struct Proxy<'a> {
    points: &'a [Point],
    pose: &'a Isometry,
}

impl Support for Proxy<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.points.len()
    }

    #[inline]
    fn support(&self, d: &Vector) -> usize {
        let local = self.pose.rotation.inverse_transform_vector(d);
        farthest(self.points.iter().map(|p| p.coords.dot(&local)))
    }

    #[inline]
    fn world(&self, i: usize) -> Vector {
        (self.pose * self.points[i]).coords
    }
}

/// A core whose vertices are already turned into the common frame: vertex `i` is
/// `offset + arms[i]`. Conservative advancement places both cores once per evaluation (its
/// step bounds need the turned vertices anyway), so GJK then turns nothing.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Placed<'a> {
    /// The vertices relative to `offset`, in the axes of the common frame.
    pub arms: &'a [Vector],
    /// Where the arms start, in the common frame.
    pub offset: Vector,
}

impl Support for Placed<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.arms.len()
    }

    /// The offset moves every vertex alike, so the arms alone decide.
    #[inline]
    fn support(&self, d: &Vector) -> usize {
        farthest(self.arms.iter().map(|p| p.dot(d)))
    }

    #[inline]
    fn world(&self, i: usize) -> Vector {
        self.offset + self.arms[i]
    }
}

/// The index of the largest of `heights` (a core's vertices along a direction, say), the
/// first of equal ones; 0 if there are none.
#[inline]
pub(crate) fn farthest(mut heights: impl Iterator<Item = Real>) -> usize {
    let Some(mut best_height) = heights.next() else {
        return 0;
    };
    let mut best = 0;
    for (i, h) in heights.enumerate() {
        if h > best_height {
            best = i + 1;
            best_height = h;
        }
    }
    best
}

#[inline]
fn vertex(a: &impl Support, b: &impl Support, ia: usize, ib: usize) -> Vertex {
    let wa = a.world(ia);
    let wb = b.world(ib);
    let w = wb - wa;
    Vertex {
        wa,
        wb,
        w,
        size2: w
            .norm_squared()
            .max(wa.norm_squared())
            .max(wb.norm_squared()),
        a: 1.0,
        ia,
        ib,
    }
}

/// Distance and closest points between `a` at `pose_a` and `b` at `pose_b`, starting from
/// `cache` and leaving the final simplex in it.
pub fn gjk_distance(
    a: &Shape,
    pose_a: &Isometry,
    b: &Shape,
    pose_b: &Isometry,
    cache: &mut GjkCache,
) -> GjkOutput {
    let pa = Proxy {
        points: a.core(),
        pose: pose_a,
    };
    let pb = Proxy {
        points: b.core(),
        pose: pose_b,
    };
    run(&pa, a.radius(), &pb, b.radius(), cache)
}

/// [`gjk_distance`] between cores already placed in a common frame (see [`Placed`]), rounded
/// by `radius_a` and `radius_b`; the points it returns are in that frame. Same iteration, same
/// answer to rounding: only where the vertices come from differs.
pub(crate) fn gjk_placed(
    a: &Placed<'_>,
    radius_a: Real,
    b: &Placed<'_>,
    radius_b: Real,
    cache: &mut GjkCache,
) -> GjkOutput {
    run(a, radius_a, b, radius_b, cache)
}

/// The iteration of [`gjk_distance`], on any two [`Support`]s.
#[inline]
fn run(
    pa: &impl Support,
    radius_a: Real,
    pb: &impl Support,
    radius_b: Real,
    cache: &mut GjkCache,
) -> GjkOutput {
    let mut s = [Vertex::default(); 3];
    let mut count = 0;
    for k in 0..cache.count as usize {
        let (ia, ib) = (cache.index_a[k] as usize, cache.index_b[k] as usize);
        if ia < pa.len() && ib < pb.len() {
            s[count] = vertex(pa, pb, ia, ib);
            count += 1;
        }
    }
    // A cached simplex can degenerate as the shapes move; restart from one vertex if so.
    if count >= 2 && !cached_simplex_is_sound(&s[..count]) {
        count = 1;
    }
    if count == 0 {
        s[0] = vertex(pa, pb, 0, 0);
        count = 1;
    }

    let mut iterations = 0;
    let mut cores_overlap = false;
    while iterations < MAX_ITERATIONS {
        let saved: [(usize, usize); 3] =
            [(s[0].ia, s[0].ib), (s[1].ia, s[1].ib), (s[2].ia, s[2].ib)];
        let saved_count = count;
        count = match count {
            1 => 1,
            2 => solve2(&mut s),
            _ => solve3(&mut s),
        };
        if count == 3 {
            // The barycentric signs of a triangle with very unequal edges can be rounding;
            // check the origin against each edge with a unit normal before believing it.
            match edge_with_origin_outside(&s) {
                None => {
                    cores_overlap = true;
                    break;
                }
                Some((i, j)) => {
                    let (vi, vj) = (s[i], s[j]);
                    s[0] = vi;
                    s[1] = vj;
                    count = solve2(&mut s);
                }
            }
        }
        let d = search_direction(&s, count);
        // The origin lies on the simplex (to rounding): the cores touch or overlap, and GJK
        // cannot tell which (an edge of the simplex through the origin may cut deep into the
        // Minkowski difference).
        if d.norm_squared() <= Real::EPSILON * Real::EPSILON * scale(&s, count) {
            cores_overlap = true;
            break;
        }
        iterations += 1;
        let ia = pa.support(&-d);
        let ib = pb.support(&d);
        // A repeated support vertex means no vertex of the difference is closer: done.
        if saved[..saved_count].contains(&(ia, ib)) {
            break;
        }
        s[count] = vertex(pa, pb, ia, ib);
        count += 1;
    }

    cache.count = count as u8;
    for (k, v) in s[..count].iter().enumerate() {
        cache.index_a[k] = v.ia as u16;
        cache.index_b[k] = v.ib as u16;
    }

    let (ca, cb) = witness_points(&s, count);
    let radius_sum = radius_a + radius_b;
    let delta = cb - ca;
    let core_distance = delta.norm();
    // A closest point at the origin to rounding: the cores touch or overlap (the simplex may
    // have stopped on a chord through the origin deep inside the Minkowski difference).
    if core_distance * core_distance <= 16.0 * Real::EPSILON * Real::EPSILON * scale(&s, count) {
        cores_overlap = true;
    }
    if cores_overlap || core_distance == 0.0 {
        let mid = Point::from((ca + cb) * 0.5);
        return GjkOutput {
            distance: -radius_sum,
            normal: Vector::new(1.0, 0.0),
            point_a: mid,
            point_b: mid,
            cores_overlap: true,
            iterations,
        };
    }
    let normal = delta / core_distance;
    GjkOutput {
        distance: core_distance - radius_sum,
        normal,
        point_a: Point::from(ca + normal * radius_a),
        point_b: Point::from(cb - normal * radius_b),
        cores_overlap: false,
        iterations,
    }
}

/// The edge of a triangle simplex (vertex indices) whose line has the origin on its outer side
/// by more than rounding, if any; `None` when the origin is inside the triangle. Rounding is
/// that of the support points the vertices are differences of (see [`scale`]), not of the
/// vertices alone.
fn edge_with_origin_outside(s: &[Vertex; 3]) -> Option<(usize, usize)> {
    let orientation = cross(&(s[1].w - s[0].w), &(s[2].w - s[0].w)).signum();
    let size = scale(s, 3).sqrt();
    let mut worst: Option<((usize, usize), Real)> = None;
    for (i, j) in [(0, 1), (1, 2), (2, 0)] {
        let e = s[j].w - s[i].w;
        let len = e.norm();
        if len == 0.0 {
            continue;
        }
        // Distance of the origin outside edge i -> j (positive outside).
        let outside = -orientation * cross(&e, &(-s[i].w)) / len;
        if outside > 16.0 * Real::EPSILON * size && worst.is_none_or(|(_, w)| outside > w) {
            worst = Some(((i, j), outside));
        }
    }
    worst.map(|(edge, _)| edge)
}

/// Squared size of the numbers the simplex was computed from, to make the "origin on the
/// simplex" test scale-free: its vertices, and the support points they are differences of.
/// A difference of two points far from the origin carries their rounding, not its own: two
/// shapes overlapping around (-6, -6) left GJK on an edge 8.9e-16 from the origin (rounding
/// at that size), which a tolerance from the vertices alone (about 1 there) took for a
/// distance, and the cores for apart (fuzz/regressions/gjk_distance/crash-93300b7d).
fn scale(s: &[Vertex; 3], count: usize) -> Real {
    // A plain comparison rather than `Real::max`: the same value (no coordinate is NaN), for
    // fewer instructions on every iteration.
    let mut largest = 1e-300;
    for v in &s[..count] {
        if v.size2 > largest {
            largest = v.size2;
        }
    }
    largest
}

fn cached_simplex_is_sound(s: &[Vertex]) -> bool {
    match s.len() {
        2 => s[0].w != s[1].w,
        3 => cross(&(s[1].w - s[0].w), &(s[2].w - s[0].w)).abs() > 0.0,
        _ => true,
    }
}

/// The direction from the simplex toward the origin.
fn search_direction(s: &[Vertex; 3], count: usize) -> Vector {
    if count == 1 {
        return -s[0].w;
    }
    let e = s[1].w - s[0].w;
    // The side of the edge the origin is on.
    if cross(&e, &(-s[0].w)) > 0.0 {
        Vector::new(-e.y, e.x)
    } else {
        Vector::new(e.y, -e.x)
    }
}

/// Closest point of a segment simplex to the origin: keeps the vertex or edge region that
/// holds it.
fn solve2(s: &mut [Vertex; 3]) -> usize {
    let (w1, w2) = (s[0].w, s[1].w);
    let e = w2 - w1;
    let d2 = -w1.dot(&e);
    if d2 <= 0.0 {
        s[0].a = 1.0;
        return 1;
    }
    let d1 = w2.dot(&e);
    if d1 <= 0.0 {
        s[0] = s[1];
        s[0].a = 1.0;
        return 1;
    }
    let inv = 1.0 / (d1 + d2);
    s[0].a = d1 * inv;
    s[1].a = d2 * inv;
    2
}

/// Closest point of a triangle simplex to the origin, by Voronoi regions (Ericson, "Real-Time
/// Collision Detection", 5.1.5, as Box2D writes it).
fn solve3(s: &mut [Vertex; 3]) -> usize {
    let (w1, w2, w3) = (s[0].w, s[1].w, s[2].w);
    let e12 = w2 - w1;
    let d12_1 = w2.dot(&e12);
    let d12_2 = -w1.dot(&e12);
    let e13 = w3 - w1;
    let d13_1 = w3.dot(&e13);
    let d13_2 = -w1.dot(&e13);
    let e23 = w3 - w2;
    let d23_1 = w3.dot(&e23);
    let d23_2 = -w2.dot(&e23);
    let n123 = cross(&e12, &e13);
    let d123_1 = n123 * cross(&w2, &w3);
    let d123_2 = n123 * cross(&w3, &w1);
    let d123_3 = n123 * cross(&w1, &w2);

    if d12_2 <= 0.0 && d13_2 <= 0.0 {
        s[0].a = 1.0;
        return 1;
    }
    if d12_1 > 0.0 && d12_2 > 0.0 && d123_3 <= 0.0 {
        let inv = 1.0 / (d12_1 + d12_2);
        s[0].a = d12_1 * inv;
        s[1].a = d12_2 * inv;
        return 2;
    }
    if d13_1 > 0.0 && d13_2 > 0.0 && d123_2 <= 0.0 {
        let inv = 1.0 / (d13_1 + d13_2);
        s[0].a = d13_1 * inv;
        s[2].a = d13_2 * inv;
        s[1] = s[2];
        return 2;
    }
    if d12_1 <= 0.0 && d23_2 <= 0.0 {
        s[0] = s[1];
        s[0].a = 1.0;
        return 1;
    }
    if d13_1 <= 0.0 && d23_1 <= 0.0 {
        s[0] = s[2];
        s[0].a = 1.0;
        return 1;
    }
    if d23_1 > 0.0 && d23_2 > 0.0 && d123_1 <= 0.0 {
        let inv = 1.0 / (d23_1 + d23_2);
        s[2].a = d23_2 * inv;
        s[1].a = d23_1 * inv;
        s[0] = s[2];
        return 2;
    }
    // Inside the triangle, unless the triangle is so thin that the signs above are rounding:
    // then keep its edge nearest the origin and let the iteration go on from there.
    if n123.abs() <= 64.0 * Real::EPSILON * e12.norm() * e13.norm() {
        let edge_distance = |p: Vector, q: Vector| {
            let e = q - p;
            let s = (-p.dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
            (p + e * s).norm_squared()
        };
        let d12 = edge_distance(w1, w2);
        let d13 = edge_distance(w1, w3);
        let d23 = edge_distance(w2, w3);
        if d13 < d12 && d13 <= d23 {
            s[1] = s[2];
        } else if d23 < d12 {
            s[0] = s[2];
        }
        return solve2(s);
    }
    let inv = 1.0 / (d123_1 + d123_2 + d123_3);
    s[0].a = d123_1 * inv;
    s[1].a = d123_2 * inv;
    s[2].a = d123_3 * inv;
    3
}

/// Closest points on the two cores from the barycentric weights.
fn witness_points(s: &[Vertex; 3], count: usize) -> (Vector, Vector) {
    let mut pa = Vector::zeros();
    let mut pb = Vector::zeros();
    for v in &s[..count] {
        pa += v.wa * v.a;
        pb += v.wb * v.a;
    }
    (pa, pb)
}
