//! Test support: scene generators and a brute-force distance oracle that shares no code with
//! the crate (no Minkowski difference, no SAT: every vertex against every edge).

#![allow(dead_code)]

use impact_geometry::{
    Capsule, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Sweep, Vector,
};
use proptest::prelude::*;

/// A shape described by numbers, so a scene can be rebuilt at another scale.
#[derive(Debug, Clone)]
pub enum Spec {
    Circle(Real),
    Segment(Point, Point),
    Capsule(Point, Point, Real),
    Polygon(Vec<Point>),
    /// A polygon's core and its radius.
    RoundedPolygon(Vec<Point>, Real),
}

impl Spec {
    pub fn build(&self, k: Real) -> Shape {
        match self {
            Spec::Circle(r) => Circle::new(r * k).unwrap().into(),
            Spec::Segment(a, b) => Segment::new(a * k, b * k).unwrap().into(),
            Spec::Capsule(a, b, r) => Capsule::new(a * k, b * k, r * k).unwrap().into(),
            Spec::Polygon(v) => {
                let scaled: Vec<Point> = v.iter().map(|p| p * k).collect();
                ConvexPolygon::new(&scaled).unwrap().into()
            }
            Spec::RoundedPolygon(v, r) => {
                let scaled: Vec<Point> = v.iter().map(|p| p * k).collect();
                ConvexPolygon::rounded(&scaled, r * k).unwrap().into()
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Circle,
    Segment,
    Capsule,
    Polygon,
    /// A polygon of [`Kind::Polygon`] rounded by a radius from a hundredth to a half.
    RoundedPolygon,
}

fn point(range: Real) -> impl Strategy<Value = Point> {
    (-range..range, -range..range).prop_map(|(x, y)| Point::new(x, y))
}

pub fn spec(kind: Kind) -> BoxedStrategy<Spec> {
    match kind {
        Kind::Circle => prop_oneof![
            1 => Just(Spec::Circle(0.0)),
            9 => (0.02..1.0).prop_map(Spec::Circle),
        ]
        .boxed(),
        Kind::Segment => prop_oneof![
            1 => point(1.0).prop_map(|p| Spec::Segment(p, p)),
            9 => (point(1.0), point(1.0)).prop_map(|(a, b)| Spec::Segment(a, b)),
        ]
        .boxed(),
        Kind::Capsule => (point(1.0), point(1.0), 0.0..0.6)
            .prop_map(|(a, b, r)| Spec::Capsule(a, b, r))
            .boxed(),
        Kind::Polygon => prop_oneof![
            (0.05..1.0f64, 0.05..1.0f64).prop_map(|(w, h)| {
                Spec::Polygon(vec![
                    Point::new(-w, -h),
                    Point::new(w, -h),
                    Point::new(w, h),
                    Point::new(-w, h),
                ])
            }),
            proptest::collection::vec(point(1.0), 3..10).prop_filter_map(
                "hull needs three corners",
                |pts| {
                    ConvexPolygon::from_convex_hull(&pts)
                        .ok()
                        .filter(|p| {
                            // Keep polygons with some area so they are not needles.
                            let s = Shape::from(p.clone());
                            impact_geometry::MassProperties::area(&s) > 0.05
                        })
                        .map(|p| Spec::Polygon(p.vertices().to_vec()))
                }
            ),
        ]
        .boxed(),
        Kind::RoundedPolygon => (spec(Kind::Polygon), prop_oneof![0.01..0.1f64, 0.1..0.5f64])
            .prop_map(|(polygon, r)| match polygon {
                Spec::Polygon(v) => Spec::RoundedPolygon(v, r),
                other => unreachable!("a polygon's spec, not {other:?}"),
            })
            .boxed(),
    }
}

/// A translating two-body scene at unit scale. B starts somewhere around A and moves roughly
/// toward it (so about half the scenes hit), A drifts.
#[derive(Debug, Clone)]
pub struct Scene {
    pub a: Spec,
    pub b: Spec,
    pub pos_a: Vector,
    pub angle_a: Real,
    pub pos_b: Vector,
    pub angle_b: Real,
    pub disp_a: Vector,
    pub disp_b: Vector,
}

pub fn scene(ka: Kind, kb: Kind) -> impl Strategy<Value = Scene> {
    (
        spec(ka),
        spec(kb),
        (-2.0..2.0f64, -2.0..2.0f64, -3.2..3.2f64),
        (2.0..6.0f64, -3.2..3.2f64, -3.2..3.2f64),
        (0.0..2.5f64, -1.0..1.0f64, -1.0..1.0f64),
        (-1.0..1.0f64, -1.0..1.0f64),
    )
        .prop_map(
            |(a, b, (ax, ay, angle_a), (dist, dir, angle_b), (reach, nx, ny), (dax, day))| {
                let pos_a = Vector::new(ax, ay);
                let pos_b = pos_a + Vector::new(dir.cos(), dir.sin()) * dist;
                let toward = (pos_a - pos_b) * reach + Vector::new(nx, ny);
                let disp_a = Vector::new(dax, day);
                Scene {
                    a,
                    b,
                    pos_a,
                    angle_a,
                    pos_b,
                    angle_b,
                    disp_a,
                    disp_b: toward + disp_a,
                }
            },
        )
}

/// The scene placed after scaling by `k`, rotating by `theta` and translating by `offset`.
#[derive(Debug)]
pub struct Placed {
    pub a: Shape,
    pub b: Shape,
    pub sweep_a: Sweep,
    pub sweep_b: Sweep,
    pub scale: Real,
}

impl Scene {
    pub fn place(&self, k: Real, theta: Real, offset: Vector) -> Placed {
        let rot = impact_geometry::Rotation::new(theta);
        let pose =
            |pos: Vector, angle: Real| Isometry::new(rot * (pos * k) + offset, angle + theta);
        Placed {
            a: self.a.build(k),
            b: self.b.build(k),
            sweep_a: Sweep::translating(pose(self.pos_a, self.angle_a), rot * (self.disp_a * k))
                .unwrap(),
            sweep_b: Sweep::translating(pose(self.pos_b, self.angle_b), rot * (self.disp_b * k))
                .unwrap(),
            scale: k,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Brute-force oracle.

fn world_core(shape: &Shape, pose: &Isometry) -> Vec<Point> {
    shape.core().iter().map(|p| pose * p).collect()
}

fn point_segment_distance(p: &Point, a: &Point, b: &Point) -> Real {
    let e = b - a;
    let len2 = e.norm_squared();
    let s = if len2 > 0.0 {
        ((p - a).dot(&e) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + e * s - p).norm()
}

fn orient(a: &Point, b: &Point, c: &Point) -> Real {
    (b - a).perp(&(c - a))
}

/// Whether the segments cross at a point inside both. An orientation within rounding of zero
/// (a point on the other's line, to rounding) is not a side: for segments on one line its
/// sign is noise, and two of them apart end to end would cross (found when the aligned
/// scenes put two segments 0.2 apart on one turned line). Such a touch is the distance of an
/// end point from the other segment, which the caller measures anyway.
fn segments_cross(a: &Point, b: &Point, c: &Point, d: &Point) -> bool {
    let (o1, o2) = (orient(a, b, c), orient(a, b, d));
    let (o3, o4) = (orient(c, d, a), orient(c, d, b));
    let size = (b - a).norm() + (d - c).norm() + (c - a).norm();
    let noise = 1e-12 * size * size;
    let sides = |x: Real, y: Real| x * y < 0.0 && x.abs() > noise && y.abs() > noise;
    sides(o1, o2) && sides(o3, o4)
}

fn inside_polygon(p: &Point, poly: &[Point]) -> bool {
    poly.len() >= 3
        && (0..poly.len()).all(|i| orient(&poly[i], &poly[(i + 1) % poly.len()], p) >= 0.0)
}

fn edges(core: &[Point]) -> Vec<(Point, Point)> {
    match core.len() {
        1 => vec![(core[0], core[0])],
        2 => vec![(core[0], core[1])],
        n => (0..n).map(|i| (core[i], core[(i + 1) % n])).collect(),
    }
}

/// Distance between two cores (zero if they intersect), by every vertex against every edge.
pub fn core_distance(a: &[Point], b: &[Point]) -> Real {
    if a.iter().any(|p| inside_polygon(p, b)) || b.iter().any(|p| inside_polygon(p, a)) {
        return 0.0;
    }
    let mut best = Real::INFINITY;
    for (p0, p1) in edges(a) {
        for (q0, q1) in edges(b) {
            if segments_cross(&p0, &p1, &q0, &q1) {
                return 0.0;
            }
            best = best
                .min(point_segment_distance(&p0, &q0, &q1))
                .min(point_segment_distance(&p1, &q0, &q1))
                .min(point_segment_distance(&q0, &p0, &p1))
                .min(point_segment_distance(&q1, &p0, &p1));
        }
    }
    best
}

/// The gap between the shapes' surfaces (clamped below at minus the radius sum, since the
/// oracle does not measure core penetration).
pub fn gap(a: &Shape, pose_a: &Isometry, b: &Shape, pose_b: &Isometry) -> Real {
    core_distance(&world_core(a, pose_a), &world_core(b, pose_b)) - a.radius() - b.radius()
}

/// Distance from a point to a shape's surface (negative inside a rounded core's band only).
pub fn point_gap(p: &Point, shape: &Shape, pose: &Isometry) -> Real {
    let core = world_core(shape, pose);
    if inside_polygon(p, &core) {
        return -shape.radius();
    }
    edges(&core)
        .iter()
        .map(|(a, b)| point_segment_distance(p, a, b))
        .fold(Real::INFINITY, Real::min)
        - shape.radius()
}

/// The smallest gap over `[t0, t1]`: 200 samples, then golden-section search around the best
/// (under translation the gap is convex in time, so this finds the true minimum).
pub fn min_gap(placed: &Placed, t0: Real, t1: Real) -> (Real, Real) {
    let g = |t: Real| {
        gap(
            &placed.a,
            &placed.sweep_a.pose_at(t),
            &placed.b,
            &placed.sweep_b.pose_at(t),
        )
    };
    let n = 200;
    let mut best = (g(t0), t0);
    for i in 1..=n {
        let t = t0 + (t1 - t0) * i as Real / n as Real;
        let v = g(t);
        if v < best.0 {
            best = (v, t);
        }
    }
    let step = (t1 - t0) / n as Real;
    let (mut lo, mut hi) = ((best.1 - step).max(t0), (best.1 + step).min(t1));
    let phi = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..80 {
        let m1 = hi - phi * (hi - lo);
        let m2 = lo + phi * (hi - lo);
        if g(m1) < g(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let t = 0.5 * (lo + hi);
    let v = g(t);
    if v < best.0 { (v, t) } else { best }
}

/// Outward unit normals of a core's edges (both sides of a segment, none for a point).
fn core_normals(core: &[Point]) -> Vec<Vector> {
    let n = core.len();
    match n {
        1 => vec![],
        2 => {
            let e = core[1] - core[0];
            if e.norm() == 0.0 {
                return vec![];
            }
            let m = Vector::new(e.y, -e.x).normalize();
            vec![m, -m]
        }
        _ => (0..n)
            .map(|i| {
                let e = core[(i + 1) % n] - core[i];
                Vector::new(e.y, -e.x).normalize()
            })
            .collect(),
    }
}

/// Signed distance between the shapes: the brute-force gap when the cores are apart, and
/// minus the smallest overlap over every edge normal of both cores (the separating axis
/// theorem) minus the radii when they intersect.
pub fn signed_gap(a: &Shape, pose_a: &Isometry, b: &Shape, pose_b: &Isometry) -> Real {
    let (ca, cb) = (world_core(a, pose_a), world_core(b, pose_b));
    let d = core_distance(&ca, &cb);
    if d > 0.0 {
        return d - a.radius() - b.radius();
    }
    let mut depth = Real::INFINITY;
    for n in core_normals(&ca).into_iter().chain(core_normals(&cb)) {
        let (amin, amax) = ca
            .iter()
            .fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(n.dot(&p.coords)), hi.max(n.dot(&p.coords)))
            });
        let (bmin, bmax) = cb
            .iter()
            .fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(n.dot(&p.coords)), hi.max(n.dot(&p.coords)))
            });
        depth = depth.min((amax - bmin).min(bmax - amin));
    }
    if depth == Real::INFINITY {
        depth = 0.0;
    }
    -depth - a.radius() - b.radius()
}

/// How two shapes meet in an [`Aligned`] pair: each puts a feature of B exactly on a feature
/// line of A, in A's frame.
#[derive(Debug, Clone, Copy)]
pub enum Meeting {
    /// A box on A's top face, its left side at `along` of the face from its left end:
    /// corners on corners, sides flush with sides, or overhanging.
    Stacked,
    /// A vertical segment or capsule standing on A's top face.
    Post,
    /// A horizontal segment or capsule on the line of A's top face, beyond its right end.
    Collinear,
    /// B turned by a quarter turn times `turns`, its first core vertex just off A's top-right
    /// corner along the diagonal.
    CornerToCorner,
    /// A circle of radius `radius_b` (a point when zero) on the line of A's core edge through
    /// its top right (the top face of a box, the axis of a segment), beyond its right end.
    Bead,
    /// Regular hexagons instead of A and B (circumradii `half_x` and `size_x`), B's bottom
    /// face on A's top face, its middle at `along` of the way from A's middle to where the
    /// faces' ends meet: faces that are neither axis-aligned boxes nor segments.
    Hexagons,
}

/// A pair of shapes whose features line up exactly in their own frames (configurations
/// random placements almost never produce), described by numbers.
#[derive(Debug, Clone, Copy)]
pub struct Aligned {
    pub meeting: Meeting,
    /// A: a box of these half extents (rounded by `radius_a` if `rounded`), or (`flat`) a
    /// horizontal segment of half length `half_x` rounded by `radius_a`.
    pub half_x: Real,
    pub half_y: Real,
    pub flat: bool,
    pub radius_a: Real,
    /// B: a box of these half extents (rounded by `radius_b` if `rounded`), or a segment of
    /// this length (along y for a post, along x on a line) rounded by `radius_b`.
    pub size_x: Real,
    pub size_y: Real,
    pub radius_b: Real,
    pub along: Real,
    pub turns: u8,
    /// Whether the boxes and hexagons are rounded polygons (by `radius_a` and `radius_b`).
    pub rounded: bool,
}

pub fn aligned() -> impl Strategy<Value = Aligned> {
    (
        prop_oneof![
            Just(Meeting::Stacked),
            Just(Meeting::Post),
            Just(Meeting::Collinear),
            Just(Meeting::CornerToCorner),
            Just(Meeting::Bead),
            Just(Meeting::Hexagons)
        ],
        (
            1e-3..2.0f64,
            1e-3..2.0f64,
            any::<bool>(),
            prop_oneof![Just(0.0), 0.0..0.3f64],
        ),
        (
            1e-3..2.0f64,
            1e-3..2.0f64,
            prop_oneof![Just(0.0), 0.0..0.3f64],
        ),
        prop_oneof![Just(0.0), Just(1.0), Just(-1.0), -1.5..1.5f64],
        0..4u8,
    )
        .prop_map(
            |(
                meeting,
                (half_x, half_y, flat, radius_a),
                (size_x, size_y, radius_b),
                along,
                turns,
            )| {
                Aligned {
                    meeting,
                    half_x,
                    half_y,
                    flat,
                    radius_a,
                    size_x,
                    size_y,
                    radius_b,
                    along,
                    turns,
                    rounded: false,
                }
            },
        )
}

/// [`aligned`] with the boxes and hexagons rounded (by `radius_a` and `radius_b`, when not
/// zero): the same meetings between rounded polygons, whose flat faces are moved out by the
/// radius and whose corners are arcs.
pub fn aligned_rounded() -> impl Strategy<Value = Aligned> {
    aligned().prop_map(|aligned| Aligned {
        rounded: true,
        ..aligned
    })
}

impl Aligned {
    /// A, B, and B's pose in A's frame with the meeting features `gap` apart (negative:
    /// overlapping).
    pub fn build(&self, gap: Real) -> (Shape, Shape, Isometry) {
        let (half_x, radius_a, radius_b) = (self.half_x, self.radius_a, self.radius_b);
        // The polygons' radii: zero unless the scene is of rounded polygons.
        let (round_a, round_b) = if self.rounded {
            (radius_a, radius_b)
        } else {
            (0.0, 0.0)
        };
        let (a, top): (Shape, Real) = if self.flat {
            let s = Capsule::new(Point::new(-half_x, 0.0), Point::new(half_x, 0.0), radius_a);
            (s.unwrap().into(), radius_a)
        } else {
            let block = ConvexPolygon::rectangle(half_x, self.half_y).unwrap();
            let block = block.with_radius(round_a).unwrap();
            (block.into(), self.half_y + round_a)
        };
        if let Meeting::Hexagons = self.meeting {
            // A flat top at `r sqrt(3) / 2`, a face `r` long, for circumradius `r`.
            let apothem = |r: Real| r * 0.75f64.sqrt();
            let hexagon = |r: Real, round: Real| -> Shape {
                let sharp = ConvexPolygon::regular(6, r).unwrap();
                sharp.with_radius(round).unwrap().into()
            };
            let (a, b) = (hexagon(half_x, round_a), hexagon(self.size_x, round_b));
            let x = self.along * 0.5 * (half_x + self.size_x);
            let y = apothem(half_x) + round_a + gap + round_b + apothem(self.size_x);
            return (a, b, Isometry::translation(x, y));
        }
        let rounded_box = |w: Real, h: Real| -> Shape {
            let sharp = ConvexPolygon::rectangle(w, h).unwrap();
            sharp.with_radius(round_b).unwrap().into()
        };
        let lift = top + gap;
        let (b, local_b): (Shape, Isometry) = match self.meeting {
            Meeting::Stacked => (
                rounded_box(self.size_x, self.size_y),
                Isometry::translation(
                    half_x * self.along + self.size_x,
                    lift + round_b + self.size_y,
                ),
            ),
            Meeting::Post => (
                Capsule::new(Point::origin(), Point::new(0.0, self.size_y), radius_b)
                    .unwrap()
                    .into(),
                Isometry::translation(half_x * self.along, lift + radius_b),
            ),
            Meeting::Collinear => (
                Capsule::new(Point::origin(), Point::new(self.size_x, 0.0), radius_b)
                    .unwrap()
                    .into(),
                Isometry::translation(
                    half_x + radius_a + radius_b + gap,
                    top - radius_a + radius_b * self.along.signum(),
                ),
            ),
            Meeting::CornerToCorner => {
                let b = rounded_box(self.size_x, self.size_y);
                let turn = Isometry::rotation(Real::from(self.turns) * std::f64::consts::FRAC_PI_2);
                // The turned box's first core vertex, placed just off A's top-right corner.
                let vertex = turn * b.core()[0];
                let corner = Vector::new(half_x, top)
                    + Vector::new(1.0, 1.0) * (gap * std::f64::consts::FRAC_1_SQRT_2);
                (
                    b,
                    Isometry::from_parts((corner - vertex.coords).into(), turn.rotation),
                )
            }
            Meeting::Hexagons => unreachable!("built above"),
            Meeting::Bead => (
                Circle::new(radius_b).unwrap().into(),
                Isometry::translation(half_x + radius_a + radius_b + gap, top - radius_a),
            ),
        };
        (a, b, local_b)
    }

    /// The direction B approaches A along in its meeting (in A's frame).
    pub fn approach(&self) -> Vector {
        match self.meeting {
            Meeting::Stacked | Meeting::Post | Meeting::Hexagons => Vector::new(0.0, -1.0),
            Meeting::Collinear | Meeting::Bead => Vector::new(-1.0, 0.0),
            Meeting::CornerToCorner => Vector::new(-1.0, -1.0) * std::f64::consts::FRAC_1_SQRT_2,
        }
    }
}
