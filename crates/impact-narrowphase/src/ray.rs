//! Ray casts against one placed shape: where a ray first meets the shape or, from inside,
//! leaves it, with the point and the surface normal there.
//!
//! Every shape is convex, so a ray's line crosses it along one interval of fractions, its
//! *span* `[t_in, t_out]`; each kind of core gives its span in closed form, in the shape's
//! own frame (the ray is moved there, so a polygon's stored vertices and normals are used as
//! they are):
//! - a circle: the two roots of `|w + t d| = r`, each taken in the form without
//!   cancellation (the product `c = (|w| - r)(|w| + r)` and the discriminant factored by
//!   Lagrange's identity, as the time of impact of two circles does);
//! - a segment (no thickness): the crossing of two lines by cross products, or, along the
//!   segment's own line, the fractions of its ends;
//! - a chain segment: the segment's crossing, for a ray that goes from its front toward its
//!   back only (one-sided: from the back, or along its line, a ray passes);
//! - a capsule: the union of the spans of its two end circles and of the rectangle between
//!   them (entered only through its long sides: whatever enters through an end is inside
//!   that end's circle already);
//! - a polygon: the slabs of its edges clipped in turn (Cyrus and Beck's clipping), each
//!   edge's outward normal entering or leaving;
//! - a rounded polygon: the union of the spans of its corner circles and of the band along
//!   each edge, the edge moved out by the radius (entered and left only through its outer
//!   side: its inner side is the core's edge, inside the shape, and its ends lie in the
//!   corner circles), as a capsule is its end circles and the rectangle between them.
//!
//! The answer then follows from where the span lies: ahead of the origin, it is an entry; about
//! the origin (the origin is in the shape, boundary included), a *solid* cast stops at
//! fraction 0 and a *hollow* one at `t_out`, where it leaves (rapier's `solid = false`).
//! Fractions are exact to rounding, a few ulps of the coordinates involved, with no
//! tolerance: a ray that grazes a shape touches it.

use impact_geometry::{ChainSegment, Isometry, Point, Real, Shape, Vector, cross, perp};

/// A ray: the segment from `origin` to `origin + translation` (world units, world frame),
/// whose points are `origin + t * translation` for fractions `t` in `[0, 1]`.
///
/// A hit's distance from the origin is its fraction times the length of `translation`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ray {
    /// Where the ray starts.
    pub origin: Point,
    /// The whole ray: its direction, times its length.
    pub translation: Vector,
}

impl Ray {
    /// The ray from `origin` along `translation`.
    #[inline]
    pub const fn new(origin: Point, translation: Vector) -> Self {
        Self {
            origin,
            translation,
        }
    }

    /// The ray from `from` to `to`.
    #[inline]
    pub fn between(from: Point, to: Point) -> Self {
        Self::new(from, to - from)
    }

    /// The point at fraction `t` of the ray.
    #[inline]
    pub fn point_at(&self, t: Real) -> Point {
        self.origin + self.translation * t
    }
}

/// Where a ray meets one shape.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayIntersection {
    /// The fraction of the ray's translation, in `[0, max_fraction]`.
    pub fraction: Real,
    /// The point of the ray at that fraction (world frame).
    pub point: Point,
    /// The unit normal of the shape's surface at the point, on the side the ray comes from
    /// (`normal . translation <= 0`): the outward normal where the ray enters, the inward one
    /// where a hollow cast leaves, and `-translation / |translation|` for a solid cast that
    /// starts in the shape (there is no surface there).
    pub normal: Vector,
}

/// The first place at which `ray` meets `shape` placed at `pose`, up to `max_fraction` of
/// the ray (zero or more; `1.0` for the whole ray), or `None`.
///
/// From outside, the hit is where the ray enters the shape. From inside (the boundary
/// included), a `solid` cast hits at fraction 0; a hollow one (`solid == false`) hits where
/// the ray leaves the shape, with the inward normal there. A segment has no inside: a ray
/// crosses it at one point, from either side, or runs along it. A chain segment is hit only
/// from its front (see [`ChainSegment`]): a ray whose direction points from the front
/// toward the back, crossing it; from the back, or running along it, a ray finds nothing.
/// See [`RayIntersection`] for the normal.
///
/// The inputs are expected finite (a scene query checks them first); a zero translation, or
/// a `max_fraction` that is negative or NaN, finds nothing.
///
/// ```
/// use impact_geometry::{ConvexPolygon, Isometry, Point, Shape, Vector};
/// use impact_narrowphase::ray::{Ray, cast_ray};
///
/// let crate_box = Shape::from(ConvexPolygon::rectangle(1.0, 1.0)?);
/// let pose = Isometry::translation(5.0, 0.0);
/// let ray = Ray::new(Point::new(0.0, 0.5), Vector::new(10.0, 0.0));
/// let hit = cast_ray(&crate_box, &pose, &ray, 1.0, true).unwrap();
/// assert_eq!((hit.fraction, hit.point, hit.normal), (0.4, Point::new(4.0, 0.5), Vector::new(-1.0, 0.0)));
/// // From inside: solid stops at once, hollow where it leaves, facing the ray.
/// let inside = Ray::new(Point::new(5.0, 0.5), Vector::new(10.0, 0.0));
/// assert_eq!(cast_ray(&crate_box, &pose, &inside, 1.0, true).unwrap().fraction, 0.0);
/// let out = cast_ray(&crate_box, &pose, &inside, 1.0, false).unwrap();
/// assert_eq!((out.fraction, out.normal), (0.1, Vector::new(-1.0, 0.0)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn cast_ray(
    shape: &Shape,
    pose: &Isometry,
    ray: &Ray,
    max_fraction: Real,
    solid: bool,
) -> Option<RayIntersection> {
    if ray.translation == Vector::zeros() || max_fraction.is_nan() || max_fraction < 0.0 {
        return None;
    }
    let o = pose.inverse_transform_point(&ray.origin).coords;
    let d = pose.rotation.inverse_transform_vector(&ray.translation);
    let span = match shape {
        Shape::Circle(c) => circle_span(&c.center().coords, c.radius(), &o, &d),
        Shape::Segment(s) => segment_span(&s.a().coords, &s.b().coords, &o, &d),
        Shape::Capsule(c) => capsule_span(
            &c.axis().a().coords,
            &c.axis().b().coords,
            c.radius(),
            &o,
            &d,
        ),
        Shape::Polygon(p) if p.radius() > 0.0 => {
            rounded_polygon_span(p.vertices(), p.normals(), p.radius(), &o, &d)
        }
        Shape::Polygon(p) => polygon_span(p.vertices(), p.normals(), &o, &d),
        Shape::ChainSegment(s) => chain_segment_span(s, &o, &d),
    }?;
    let (fraction, normal) = if span.t_out < 0.0 {
        return None;
    } else if span.t_in > 0.0 {
        (span.t_in, pose.rotation * span.n_in)
    } else if solid {
        (0.0, -ray.translation.normalize())
    } else {
        (span.t_out, -(pose.rotation * span.n_out))
    };
    (fraction <= max_fraction).then(|| RayIntersection {
        fraction,
        point: ray.point_at(fraction),
        normal,
    })
}

/// The fractions over which a ray's line is in a shape, with the outward unit normals
/// (shape frame) where it enters and where it leaves.
#[derive(Debug, Clone, Copy)]
struct Span {
    t_in: Real,
    n_in: Vector,
    t_out: Real,
    n_out: Vector,
}

/// The span of the line `o + t d` in the disc of radius `r` about `c`.
fn circle_span(c: &Vector, r: Real, o: &Vector, d: &Vector) -> Option<Span> {
    let w = o - c;
    let dd = d.norm_squared();
    let b = w.dot(d);
    let w_len = w.norm();
    let lc = (w_len - r) * (w_len + r);
    let d_len = dd.sqrt();
    let wd = cross(&w, d).abs();
    let disc = (r * d_len - wd) * (r * d_len + wd);
    if disc < 0.0 {
        return None;
    }
    let root = disc.sqrt();
    // The roots are q / dd and lc / q with q = -(b + sign(b) root): one formula for each
    // root, whichever has no cancellation.
    let (t_in, t_out) = if b < 0.0 {
        let q = root - b;
        (lc / q, q / dd)
    } else {
        let q = -b - root;
        // q is zero only for a line tangent at t = 0 (b = 0 and no discriminant).
        (q / dd, if q == 0.0 { 0.0 } else { lc / q })
    };
    let normal_at = |t: Real, fallback: Vector| {
        let n = w + d * t;
        let len = n.norm();
        if len > 0.0 { n / len } else { fallback }
    };
    let along = d / d_len;
    Some(Span {
        t_in,
        n_in: normal_at(t_in, -along),
        t_out,
        n_out: normal_at(t_out, along),
    })
}

/// The span of the line `o + t d` on the segment from `a` to `b` (no thickness): one
/// crossing, or the fractions of the segment's ends when the line runs along it (the normals
/// of a zero-radius end, against and along the ray).
fn segment_span(a: &Vector, b: &Vector, o: &Vector, d: &Vector) -> Option<Span> {
    let e = b - a;
    let ao = a - o;
    let denom = cross(d, &e);
    if denom != 0.0 {
        let t = cross(&ao, &e) / denom;
        let s = cross(&ao, d) / denom;
        if !(0.0..=1.0).contains(&s) {
            return None;
        }
        let n = perp(&e).normalize();
        let n = if n.dot(d) > 0.0 { -n } else { n };
        return Some(Span {
            t_in: t,
            n_in: n,
            t_out: t,
            n_out: -n,
        });
    }
    if cross(&ao, d) != 0.0 {
        // Parallel to the segment, beside its line.
        return None;
    }
    let dd = d.norm_squared();
    let (ta, tb) = (ao.dot(d) / dd, (b - o).dot(d) / dd);
    let along = d / dd.sqrt();
    Some(Span {
        t_in: ta.min(tb),
        n_in: -along,
        t_out: ta.max(tb),
        n_out: along,
    })
}

/// The span of the line `o + t d` on a one-sided chain segment: the segment's crossing when
/// the line runs from its front toward its back, nothing otherwise (from the back, or along
/// the segment's line, which never crosses the front).
fn chain_segment_span(s: &ChainSegment, o: &Vector, d: &Vector) -> Option<Span> {
    if s.normal().dot(d) >= 0.0 {
        return None;
    }
    segment_span(&s.a().coords, &s.b().coords, o, d)
}

/// The span of the line `o + t d` in the capsule of radius `r` about the segment from `a` to
/// `b`: the union of the spans of its end circles and of the rectangle between them.
fn capsule_span(a: &Vector, b: &Vector, r: Real, o: &Vector, d: &Vector) -> Option<Span> {
    let mut span = union(circle_span(a, r, o, d), circle_span(b, r, o, d));
    let e = b - a;
    let len = e.norm();
    if len > 0.0
        && let Some(side) = rectangle_sides(a, &(e / len), len, r, o, d)
    {
        span = union(span, Some(side));
    }
    span
}

/// The span of two convex pieces of one convex shape along one line, whose union is an
/// interval: the earlier entry and the later exit. On a tie the first piece's normal is kept.
fn union(first: Option<Span>, second: Option<Span>) -> Option<Span> {
    match (first, second) {
        (Some(mut s), Some(o)) => {
            if o.t_in < s.t_in {
                s.t_in = o.t_in;
                s.n_in = o.n_in;
            }
            if o.t_out > s.t_out {
                s.t_out = o.t_out;
                s.n_out = o.n_out;
            }
            Some(s)
        }
        (s, None) | (None, s) => s,
    }
}

/// The span of the line `o + t d` in the rectangle `a + x u + y n`, `x` in `[0, len]`, `y` in
/// `[-r, r]` (`u` a unit vector, `n` its perpendicular), keeping only an entry or an exit
/// through a long side (`y = +-r`). An entry or exit through an end (`x = 0` or `len`) lies on
/// the diameter of that end's circle, which the circle's own span covers, so it is left to the
/// circle (a cap's surface has no corner there) and the end is `+-inf`.
fn rectangle_sides(
    a: &Vector,
    u: &Vector,
    len: Real,
    r: Real,
    o: &Vector,
    d: &Vector,
) -> Option<Span> {
    let n = perp(u);
    let rel = o - a;
    let (x0, dx) = (rel.dot(u), d.dot(u));
    let (y0, dy) = (rel.dot(&n), d.dot(&n));
    // The x slab: the fractions between the ends.
    let (x_in, x_out) = slab(x0, dx, 0.0, len)?;
    // The y slab: the long sides, with their normals.
    let (y_in, y_out) = slab(y0, dy, -r, r)?;
    let t_in = x_in.max(y_in);
    let t_out = x_out.min(y_out);
    if t_in > t_out {
        return None;
    }
    let side = if dy > 0.0 { n } else { -n };
    Some(Span {
        t_in: if y_in >= x_in { y_in } else { Real::INFINITY },
        n_in: -side,
        t_out: if y_out <= x_out {
            y_out
        } else {
            Real::NEG_INFINITY
        },
        n_out: side,
    })
}

/// The span of the line `o + t d` in the convex polygon of counter-clockwise `vertices` and
/// outward unit edge `normals` rounded by `r > 0`: the union of the spans of its corner
/// circles and of its edges' outer bands. The union of the pieces is the shape, which is
/// convex, so the union of their spans is one interval: the earliest entry and the latest
/// exit. Every point of the shape's boundary lies on a corner's circle or on a band's outer
/// side, so the pieces' spans find the shape's.
fn rounded_polygon_span(
    vertices: &[Point],
    normals: &[Vector],
    r: Real,
    o: &Vector,
    d: &Vector,
) -> Option<Span> {
    let n = vertices.len();
    let mut span = None;
    for i in 0..n {
        let (a, b) = (vertices[i].coords, vertices[(i + 1) % n].coords);
        span = union(span, circle_span(&a, r, o, d));
        span = union(span, outer_band(&a, &b, &normals[i], r, o, d));
    }
    span
}

/// The span of the line `o + t d` in the band `a + x u + y n`, `x` in `[0, |b - a|]`, `y` in
/// `[0, r]` (`u` the unit direction from `a` to `b`, `n` the edge's outward unit normal),
/// keeping only an entry or an exit through its outer side (`y = r`, normal `n`): through the
/// inner side (the core's edge) the line is inside the shape already, and an end lies in the
/// corner circle there, which the circle's own span covers; those are `+-inf`.
fn outer_band(a: &Vector, b: &Vector, n: &Vector, r: Real, o: &Vector, d: &Vector) -> Option<Span> {
    let e = b - a;
    let len = e.norm();
    let u = e / len;
    let rel = o - a;
    let (x_in, x_out) = slab(rel.dot(&u), d.dot(&u), 0.0, len)?;
    let dy = d.dot(n);
    let (y_in, y_out) = slab(rel.dot(n), dy, 0.0, r)?;
    if x_in.max(y_in) > x_out.min(y_out) {
        return None;
    }
    // Moving inward (dy < 0) it enters through the outer side; outward, it leaves through it.
    let through_outer_in = dy < 0.0 && y_in >= x_in;
    let through_outer_out = dy > 0.0 && y_out <= x_out;
    Some(Span {
        t_in: if through_outer_in {
            y_in
        } else {
            Real::INFINITY
        },
        n_in: *n,
        t_out: if through_outer_out {
            y_out
        } else {
            Real::NEG_INFINITY
        },
        n_out: *n,
    })
}

/// The fractions `t` at which `x0 + t dx` lies in `[lo, hi]`: all of them (`-inf`, `inf`)
/// when `dx` is zero and `x0` is inside, none when it is outside.
fn slab(x0: Real, dx: Real, lo: Real, hi: Real) -> Option<(Real, Real)> {
    if dx == 0.0 {
        return (lo..=hi)
            .contains(&x0)
            .then_some((Real::NEG_INFINITY, Real::INFINITY));
    }
    let (t0, t1) = ((lo - x0) / dx, (hi - x0) / dx);
    Some(if dx > 0.0 { (t0, t1) } else { (t1, t0) })
}

/// The span of the line `o + t d` in the convex polygon of counter-clockwise `vertices` and
/// outward unit edge `normals`: each edge's half-plane clipped in turn.
fn polygon_span(vertices: &[Point], normals: &[Vector], o: &Vector, d: &Vector) -> Option<Span> {
    let mut t_in = Real::NEG_INFINITY;
    let mut t_out = Real::INFINITY;
    let mut n_in = Vector::zeros();
    let mut n_out = Vector::zeros();
    for (v, n) in vertices.iter().zip(normals) {
        // How far the origin is inside the edge's line, and how fast the ray leaves it.
        let h = n.dot(&(v.coords - o));
        let dn = n.dot(d);
        if dn < 0.0 {
            let t = h / dn;
            if t > t_in {
                t_in = t;
                n_in = *n;
            }
        } else if dn > 0.0 {
            let t = h / dn;
            if t < t_out {
                t_out = t;
                n_out = *n;
            }
        } else if h < 0.0 {
            // Parallel to the edge and outside it.
            return None;
        }
    }
    (t_in <= t_out).then_some(Span {
        t_in,
        n_in,
        t_out,
        n_out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::{Capsule, Circle, ConvexPolygon, Segment};

    fn cast(
        shape: &Shape,
        pose: &Isometry,
        o: (Real, Real),
        t: (Real, Real),
        solid: bool,
    ) -> Option<RayIntersection> {
        cast_ray(
            shape,
            pose,
            &Ray::new(Point::new(o.0, o.1), Vector::new(t.0, t.1)),
            1.0,
            solid,
        )
    }

    fn close(a: Real, b: Real) -> bool {
        (a - b).abs() <= 1e-14 * (1.0 + b.abs())
    }

    #[test]
    fn a_circle_off_its_body_origin_is_entered_on_its_near_side() {
        let disc = Shape::from(Circle::with_center(Point::new(1.0, 0.0), 1.0).unwrap());
        let pose = Isometry::new(Vector::new(3.0, 0.0), core::f64::consts::FRAC_PI_2);
        // The centre is at (3, 1); a ray along y = 1 from x = 0 enters at x = 2.
        let hit = cast(&disc, &pose, (0.0, 1.0), (8.0, 0.0), true).unwrap();
        assert!(close(hit.fraction, 0.25), "{hit:?}");
        assert!((hit.normal - Vector::new(-1.0, 0.0)).norm() < 1e-15);
        // Through its middle from inside: hollow leaves at x = 4.
        let out = cast(&disc, &pose, (3.0, 1.0), (8.0, 0.0), false).unwrap();
        assert!(close(out.fraction, 0.125) && (out.normal - Vector::new(-1.0, 0.0)).norm() < 1e-15);
        // Passing above it, or pointing away, misses.
        assert!(cast(&disc, &pose, (0.0, 2.5), (8.0, 0.0), true).is_none());
        assert!(cast(&disc, &pose, (0.0, 1.0), (-8.0, 0.0), true).is_none());
        // Too short.
        assert!(cast(&disc, &pose, (0.0, 1.0), (1.9, 0.0), true).is_none());
    }

    #[test]
    fn a_tangent_ray_touches_a_circle() {
        let disc = Shape::from(Circle::new(1.0).unwrap());
        let hit = cast(&disc, &Isometry::identity(), (-2.0, 1.0), (4.0, 0.0), true).unwrap();
        assert!(close(hit.fraction, 0.5), "{hit:?}");
        assert!(
            (hit.normal - Vector::new(0.0, 1.0)).norm() < 1e-15,
            "{hit:?}"
        );
    }

    #[test]
    fn a_segment_is_crossed_from_either_side_and_run_along() {
        let paper = Shape::from(Segment::new(Point::new(1.0, -1.0), Point::new(1.0, 1.0)).unwrap());
        let id = Isometry::identity();
        let hit = cast(&paper, &id, (0.0, 0.5), (4.0, 0.0), true).unwrap();
        assert_eq!((hit.fraction, hit.normal), (0.25, Vector::new(-1.0, 0.0)));
        let back = cast(&paper, &id, (2.0, 0.5), (-4.0, 0.0), true).unwrap();
        assert_eq!((back.fraction, back.normal), (0.25, Vector::new(1.0, 0.0)));
        // Beyond its end.
        assert!(cast(&paper, &id, (0.0, 1.5), (4.0, 0.0), true).is_none());
        // Along its line: the near end, facing the ray.
        let along = cast(&paper, &id, (1.0, -3.0), (0.0, 4.0), true).unwrap();
        assert_eq!(
            (along.fraction, along.normal),
            (0.5, Vector::new(0.0, -1.0))
        );
        // Parallel beside it.
        assert!(cast(&paper, &id, (0.5, -3.0), (0.0, 4.0), true).is_none());
    }

    #[test]
    fn a_capsule_is_entered_on_a_side_or_a_cap() {
        let pill = Shape::from(Capsule::along_x(1.0, 0.5).unwrap());
        let id = Isometry::identity();
        // Down onto its long side.
        let side = cast(&pill, &id, (0.3, 2.0), (0.0, -4.0), true).unwrap();
        assert!(close(side.fraction, 1.5 / 4.0) && side.normal == Vector::new(0.0, 1.0));
        // Along its axis onto the right cap: x = 1.5.
        let cap = cast(&pill, &id, (4.0, 0.0), (-4.0, 0.0), true).unwrap();
        assert!(close(cap.fraction, 2.5 / 4.0), "{cap:?}");
        assert!((cap.normal - Vector::new(1.0, 0.0)).norm() < 1e-15);
        // Hollow from the middle, leaving through the top side.
        let out = cast(&pill, &id, (0.0, 0.0), (0.0, 2.0), false).unwrap();
        assert!(
            close(out.fraction, 0.25) && out.normal == Vector::new(0.0, -1.0),
            "{out:?}"
        );
        // Hollow along the axis, leaving through the left cap at x = -1.5.
        let left = cast(&pill, &id, (0.0, 0.0), (-3.0, 0.0), false).unwrap();
        assert!(close(left.fraction, 0.5) && (left.normal - Vector::new(1.0, 0.0)).norm() < 1e-15);
        // Just past the cap's corner region, above the circle: a miss.
        assert!(cast(&pill, &id, (1.45, 2.0), (0.0, -4.0), true).is_some());
        assert!(cast(&pill, &id, (1.51, 2.0), (0.0, -4.0), true).is_none());
    }

    #[test]
    fn a_turned_polygon_is_clipped_by_its_edges() {
        let square = Shape::from(ConvexPolygon::rectangle(1.0, 1.0).unwrap());
        // Turned 45 degrees about (10, 0): its corner points at -x, at x = 10 - sqrt(2).
        let pose = Isometry::new(Vector::new(10.0, 0.0), core::f64::consts::FRAC_PI_4);
        let hit = cast(&square, &pose, (0.0, 0.1), (20.0, 0.0), true).unwrap();
        let x = 10.0 - 2f64.sqrt() + 0.1;
        assert!(close(hit.fraction, x / 20.0), "{hit:?}");
        // Through the upper left face, from (10 - sqrt(2), 0) to (10, sqrt(2)).
        let s = 0.5f64.sqrt();
        assert!((hit.normal - Vector::new(-s, s)).norm() < 1e-15, "{hit:?}");
        // Parallel to a face and outside it.
        let flat = Shape::from(ConvexPolygon::rectangle(1.0, 1.0).unwrap());
        assert!(cast(&flat, &Isometry::identity(), (-3.0, 1.5), (6.0, 0.0), true).is_none());
        // Along a face: touching counts.
        let graze = cast(&flat, &Isometry::identity(), (-3.0, 1.0), (6.0, 0.0), true).unwrap();
        assert_eq!(graze.fraction, 2.0 / 6.0);
    }

    #[test]
    fn a_solid_ray_inside_stops_at_once_facing_back() {
        let square = Shape::from(ConvexPolygon::rectangle(1.0, 1.0).unwrap());
        let hit = cast(&square, &Isometry::identity(), (0.0, 0.0), (0.0, 3.0), true).unwrap();
        assert_eq!(
            (hit.fraction, hit.point, hit.normal),
            (0.0, Point::origin(), Vector::new(0.0, -1.0))
        );
        // A ray that ends before it leaves: hollow finds nothing.
        assert!(
            cast(
                &square,
                &Isometry::identity(),
                (0.0, 0.0),
                (0.0, 0.5),
                false
            )
            .is_none()
        );
    }

    #[test]
    fn degenerate_rays_find_nothing() {
        let disc = Shape::from(Circle::new(1.0).unwrap());
        let id = Isometry::identity();
        assert!(cast(&disc, &id, (0.0, 0.0), (0.0, 0.0), true).is_none());
        let ray = Ray::new(Point::new(-3.0, 0.0), Vector::new(6.0, 0.0));
        assert!(cast_ray(&disc, &id, &ray, Real::NAN, true).is_none());
        assert!(cast_ray(&disc, &id, &ray, -0.5, true).is_none());
        assert!(cast_ray(&disc, &id, &ray, 0.0, true).is_none());
        assert!(cast_ray(&disc, &id, &ray, 1.0 / 3.0, true).is_some());
    }
}
