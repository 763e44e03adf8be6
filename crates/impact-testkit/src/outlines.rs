//! Seeded simple polygons (outlines) for the tests of the convex decomposition
//! ([`impact_geometry::ConcaveOutline`]): star-shaped ones, untangled random ones, and combs
//! with many reflex vertices. Each is counter-clockwise; [`clockwise`] reverses one.

use crate::SplitMix64;
use impact_geometry::{Point, Real, Vector, cross};

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
