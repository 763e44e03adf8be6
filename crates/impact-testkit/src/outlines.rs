//! Seeded simple polygons (outlines) for the tests of the convex decomposition
//! ([`impact_geometry::ConcaveOutline`]): star-shaped ones, untangled random ones, and combs
//! with many reflex vertices; and for the tests of the seams between its pieces, an L, a U,
//! random outlines under a long flat top, and flat sides dented by a hair so that pieces
//! meet along them. Each is counter-clockwise; [`clockwise`] reverses one.

use crate::SplitMix64;
use crate::audit::random_shape;
use impact_geometry::{Isometry, Point, Real, Shape, Sweep, Vector, cross};

/// A star-shaped outline of `n` vertices (at least 3) about `center`: angles spread round
/// the circle with random gaps (none below a tenth of the mean, so no two vertices meet),
/// each at a random distance between `0.15` and `1` times `radius`, counter-clockwise.
pub fn star(rng: &mut SplitMix64, n: usize, center: Vector, radius: Real) -> Vec<Point> {
    let n = n.max(3);
    let gaps: Vec<Real> = (0..n).map(|_| rng.range(0.1, 1.0)).collect();
    let total: Real = gaps.iter().sum();
    let start = rng.range(0.0, core::f64::consts::TAU);
    let mut angle = start;
    gaps.iter()
        .map(|gap| {
            let r = radius * rng.range(0.15, 1.0);
            let p = Point::from(center + Vector::new(angle.cos(), angle.sin()) * r);
            angle += gap / total * core::f64::consts::TAU;
            p
        })
        .collect()
}

/// A random simple outline of `n` vertices (at least 3) in the square of half-side `half`
/// about `center`: random points, joined in their order of drawing, then untangled by
/// reversing the path between two crossing edges until none cross (each reversal shortens
/// the outline, so this ends), counter-clockwise. Jagged, with about half its vertices
/// reflex. Quadratic in `n` per pass: meant for tens of vertices.
pub fn untangled(rng: &mut SplitMix64, n: usize, center: Vector, half: Real) -> Vec<Point> {
    let n = n.max(3);
    let mut points: Vec<Point> = (0..n)
        .map(|_| Point::from(center + Vector::new(rng.range(-half, half), rng.range(-half, half))))
        .collect();
    'untangle: loop {
        for i in 0..n {
            for j in i + 2..n {
                if i == 0 && j == n - 1 {
                    continue;
                }
                let (a, b) = (points[i], points[i + 1]);
                let (c, d) = (points[j], points[(j + 1) % n]);
                if properly_cross(&a, &b, &c, &d) {
                    points[i + 1..=j].reverse();
                    continue 'untangle;
                }
            }
        }
        break;
    }
    counter_clockwise(points)
}

/// A comb: a spine of height `0.2` along x, with `teeth` teeth (at least 1) of random width
/// and height standing on it with random gaps between them, the first and last at its ends;
/// scaled by `scale` and centred on `center`, counter-clockwise. Every gap between teeth
/// adds two reflex vertices.
pub fn comb(rng: &mut SplitMix64, teeth: usize, center: Vector, scale: Real) -> Vec<Point> {
    let teeth = teeth.max(1);
    let spine = 0.2;
    // The top from left to right: each tooth's corners, with the spine between teeth.
    let mut top: Vec<(Real, Real)> = Vec::new();
    let mut x = 0.0;
    for k in 0..teeth {
        if k > 0 {
            x += rng.range(0.05, 0.3);
            top.push((x, spine));
        }
        let (width, height) = (rng.range(0.05, 0.3), spine + rng.range(0.2, 1.0));
        top.extend([(x, height), (x + width, height)]);
        x += width;
        if k + 1 < teeth {
            top.push((x, spine));
        }
    }
    let mut outline = vec![(0.0, 0.0), (x, 0.0)];
    outline.extend(top.into_iter().rev());
    outline
        .into_iter()
        .map(|(px, py)| Point::from(center + Vector::new(px - 0.5 * x, py - 0.5) * scale))
        .collect()
}

/// An L with its outer corner at the origin: a foot `length` long along x and a leg `length`
/// tall along y, both `thickness` thick (less than `length`), counter-clockwise from the
/// corner. Its one reflex vertex is at `(thickness, thickness)`.
pub fn ell(length: Real, thickness: Real) -> Vec<Point> {
    let (l, t) = (length, thickness);
    [(0.0, 0.0), (l, 0.0), (l, t), (t, t), (t, l), (0.0, l)]
        .into_iter()
        .map(|(x, y)| Point::new(x, y))
        .collect()
}

/// A U with its lower left corner at the origin: a base `width` wide and `thickness` thick,
/// with an arm `height` tall at each end, as thick (`2 thickness` less than `width`, and
/// `thickness` less than `height`), counter-clockwise from the corner.
pub fn you(width: Real, height: Real, thickness: Real) -> Vec<Point> {
    let (w, h, t) = (width, height, thickness);
    [
        (0.0, 0.0),
        (w, 0.0),
        (w, h),
        (w - t, h),
        (w - t, t),
        (t, t),
        (t, h),
        (0.0, h),
    ]
    .into_iter()
    .map(|(x, y)| Point::new(x, y))
    .collect()
}

/// The outline turned upside down (mirrored in the x axis), still counter-clockwise.
pub fn upside_down(outline: &[Point]) -> Vec<Point> {
    outline
        .iter()
        .rev()
        .map(|p| Point::new(p.x, -p.y))
        .collect()
}

/// A random outline under a flat top: the top runs from `(width, 0)` to the origin, and the
/// rest is a jagged x-monotone path below it, from the origin down to `steps` (at least 1)
/// points at increasing x (random gaps) and random depths between 0.1 and 1.5 times
/// `width / steps`, and back up to `(width, 0)`; counter-clockwise. Its reflex vertices are
/// on the jagged bottom.
pub fn under_flat_top(rng: &mut SplitMix64, width: Real, steps: usize) -> Vec<Point> {
    let steps = steps.max(1);
    let unit = width / steps as Real;
    let gaps: Vec<Real> = (0..steps).map(|_| rng.range(0.3, 1.0)).collect();
    let total: Real = gaps.iter().sum();
    let mut outline = vec![Point::origin()];
    let mut x = 0.0;
    outline.push(Point::new(x, -unit * rng.range(0.1, 1.5)));
    for gap in &gaps {
        x = (x + gap / total * width).min(width);
        outline.push(Point::new(x, -unit * rng.range(0.1, 1.5)));
    }
    // The last point below the top's far end, exactly.
    let last = outline.len() - 1;
    outline[last].x = width;
    outline.push(Point::new(width, 0.0));
    outline
}

/// `outline` with `dents` vertices inserted along its edge `edge` (from vertex `edge` to the
/// next), each moved inward (to the left of the counter-clockwise edge) by `depth` times
/// `4 s (1 - s)` at its fraction `s` along the edge: a shallow arc into the outline, so that
/// every inserted vertex is reflex and the convex decomposition must cut there (the pieces
/// meet along the edge, their faces nearly collinear). The fractions are random, at least
/// `1 / (4 dents)` apart and from the ends. `depth` should be well above the outline's weld
/// distance (see [`impact_geometry::ConcaveOutline::new`]) and far below the edge's length.
pub fn dented(
    rng: &mut SplitMix64,
    outline: &[Point],
    edge: usize,
    dents: usize,
    depth: Real,
) -> Vec<Point> {
    let n = outline.len();
    let (a, b) = (outline[edge], outline[(edge + 1) % n]);
    let along = b - a;
    let inward = Vector::new(-along.y, along.x) / along.norm();
    let spacing = 1.0 / (4.0 * dents.max(1) as Real);
    // Fractions in [spacing, 1 - spacing], spaced by at least `spacing`: the gaps above the
    // minimum are random shares of what is left.
    let spare = 1.0 - spacing * (dents as Real + 1.0);
    let shares: Vec<Real> = (0..=dents).map(|_| rng.range(0.0, 1.0)).collect();
    let total: Real = shares.iter().sum();
    let mut s = 0.0;
    let mut inserted = Vec::with_capacity(dents);
    for share in &shares[..dents] {
        s += spacing + spare * share / total;
        let bulge = depth * 4.0 * s * (1.0 - s);
        inserted.push(a + along * s + inward * bulge);
    }
    let mut out = outline[..=edge].to_vec();
    out.extend(inserted);
    out.extend_from_slice(&outline[edge + 1..]);
    out
}

/// An outline with a flat top: the top runs along y = 0 from `(width, 0)` to the origin,
/// with the body below; dented by `depth` (zero when bare, see [`dented`]).
#[derive(Debug, Clone, PartialEq)]
pub struct FlatTop {
    /// The outline, counter-clockwise.
    pub outline: Vec<Point>,
    /// The top's length.
    pub width: Real,
    /// How deep its dents are (their sag below y = 0 is at most this), zero when bare.
    pub depth: Real,
}

/// `outline` moved so that its highest edge (which must be horizontal, running toward -x)
/// runs from `(width, 0)` to the origin, then dented `dents` times by `depth` along it.
///
/// # Panics
/// If the outline has no horizontal edge at its highest y running toward -x.
pub fn on_top(rng: &mut SplitMix64, outline: &[Point], dents: usize, depth: Real) -> FlatTop {
    let n = outline.len();
    let top = outline
        .iter()
        .map(|q| q.y)
        .fold(Real::NEG_INFINITY, Real::max);
    let edge = (0..n)
        .find(|&i| outline[i].y == top && outline[(i + 1) % n].y == top)
        .expect("a horizontal top edge");
    let (right, left) = (outline[edge], outline[(edge + 1) % n]);
    assert!(right.x > left.x, "the top runs toward -x");
    let shifted: Vec<Point> = outline
        .iter()
        .map(|q| Point::new(q.x - left.x, q.y - top))
        .collect();
    let width = right.x - left.x;
    if dents == 0 {
        return FlatTop {
            outline: shifted,
            width,
            depth: 0.0,
        };
    }
    FlatTop {
        outline: dented(rng, &shifted, edge, dents, depth),
        width,
        depth,
    }
}

/// The flat tops the seam tests slide over: an L, a U and a comb upside down, and two
/// outlines under a flat top ([`under_flat_top`]), each bare and dented 1 to 4 times by
/// `depth` (which tilts the faces by up to about `4 depth` over the top's length; the dents
/// must stay above the weld distance, see [`dented`]).
pub fn flat_tops(rng: &mut SplitMix64, depth: Real) -> Vec<FlatTop> {
    let bases = [
        upside_down(&ell(3.0, 1.0)),
        upside_down(&you(3.0, 2.0, 1.0)),
        upside_down(&comb(rng, 4, Vector::zeros(), 3.0)),
        under_flat_top(rng, 4.0, 5),
        under_flat_top(rng, 3.0, 9),
    ];
    let mut all = Vec::new();
    for base in bases {
        all.push(on_top(rng, &base, 0, 0.0));
        let dents = 1 + rng.below(4);
        all.push(on_top(rng, &base, dents, depth));
    }
    all
}

/// A shape shot at an outline.
#[derive(Debug, Clone)]
pub struct OutlineShot {
    /// The shape.
    pub shape: Shape,
    /// Its motion over a step of fraction 1.
    pub sweep: Sweep,
    /// The point of the outline it was aimed at.
    pub aim: Point,
    /// The edge of the outline the aim is on (from vertex `edge` to the next).
    pub edge: usize,
    /// Whether it was aimed at the edge's first vertex (else a point inside the edge).
    pub at_vertex: bool,
}

/// A shot at the counter-clockwise `outline` from outside: a random shape
/// ([`random_shape`]), aimed at a random vertex (three in ten) or a random point of a random
/// edge, coming in within 75 degrees of the outward normal there (the two normals' bisector
/// at a vertex, which points out of a reflex vertex too) from 0.001 to 2 beyond reach, at a
/// speed log-uniform from 1 to 10,000 units/s over a 60 Hz step (so up to 167 units: many
/// shots go on through the outline). Turning up to two turns per step if `turning`. Not
/// checked for starting clear of the outline: where the outline folds, a shot may start
/// inside it.
pub fn shot_at(rng: &mut SplitMix64, outline: &[Point], turning: bool) -> OutlineShot {
    let shape = random_shape(rng);
    let n = outline.len();
    let edge = rng.below(n);
    let normal = |i: usize| {
        let d = outline[(i + 1) % n] - outline[i];
        Vector::new(d.y, -d.x).normalize()
    };
    let at_vertex = rng.below(10) < 3;
    let (aim, front) = if at_vertex {
        let bisector = (normal((edge + n - 1) % n) + normal(edge))
            .try_normalize(1e-9)
            .unwrap_or_else(|| normal(edge));
        (outline[edge], bisector)
    } else {
        let along = outline[(edge + 1) % n] - outline[edge];
        (outline[edge] + along * rng.range(0.0, 1.0), normal(edge))
    };
    let tilt = rng.range(-1.31, 1.31);
    let (sin, cos) = tilt.sin_cos();
    let toward = Vector::new(front.x * cos - front.y * sin, front.x * sin + front.y * cos);
    let center = shape
        .mass_properties(1.0)
        .map(|m| m.local_center)
        .unwrap_or_else(|_| Point::origin());
    let reach = shape.bounding_radius(&center);
    let start = aim + toward * (reach + rng.range(0.001, 2.0));
    let travel = 10f64.powf(rng.range(0.0, 4.0)) / 60.0;
    let angle = rng.range(-3.2, 3.2);
    let pose = Isometry::new(start.coords, angle);
    let pose = Isometry::new(start.coords - pose.rotation * center.coords, angle);
    let turn = if turning {
        rng.range(-4.0 * core::f64::consts::PI, 4.0 * core::f64::consts::PI)
    } else {
        0.0
    };
    let sweep = Sweep::new(pose, center, -toward * travel, turn, 1.0).expect("finite sweep");
    OutlineShot {
        shape,
        sweep,
        aim,
        edge,
        at_vertex,
    }
}

/// The same outline wound the other way.
pub fn clockwise(mut outline: Vec<Point>) -> Vec<Point> {
    outline.reverse();
    outline
}

/// Twice the signed area of `outline` (positive counter-clockwise), about its first vertex.
pub fn twice_signed_area(outline: &[Point]) -> Real {
    let o = outline[0];
    (1..outline.len().saturating_sub(1))
        .map(|i| cross(&(outline[i] - o), &(outline[i + 1] - o)))
        .sum()
}

fn counter_clockwise(outline: Vec<Point>) -> Vec<Point> {
    if twice_signed_area(&outline) < 0.0 {
        clockwise(outline)
    } else {
        outline
    }
}

/// Whether segments `ab` and `cd` cross at a point inside both (or touch or overlap).
fn properly_cross(a: &Point, b: &Point, c: &Point, d: &Point) -> bool {
    let orient = |p: &Point, q: &Point, r: &Point| cross(&(q - p), &(r - p));
    let (o1, o2) = (orient(a, b, c), orient(a, b, d));
    let (o3, o4) = (orient(c, d, a), orient(c, d, b));
    o1 * o2 <= 0.0 && o3 * o4 <= 0.0
}
