//! Chains for the tests of one-sided polylines: seeded hilly ground and closed loops, shapes
//! shot at them from the front, and which side of a polyline a point is on.
//!
//! Every chain here faces the way the library's convention says ([`Chain`]: the front to the
//! right of each segment's direction): ground runs from right to left so its front is up, an
//! island winds counter-clockwise and a container clockwise.

use crate::SplitMix64;
use crate::audit::random_shape;
use impact_geometry::{Chain, Isometry, Point, Real, Shape, Sweep, Vector, cross};

/// Hilly ground of `count` segments (at least 3), running from right to left (front up) from
/// about `x = count`: each segment 0.4 to 2.5 long, most rising or falling by up to 50
/// degrees, about one in five continuing the segment before it exactly (a flat or sloping
/// run of collinear joints), so both convex and concave joints of every size occur.
pub fn hilly_ground(rng: &mut SplitMix64, count: usize) -> Chain {
    let mut points = vec![Point::new(count as Real, rng.range(-1.0, 1.0))];
    let mut step = Vector::new(-1.0, 0.0);
    for _ in 0..count.max(3) {
        let last = points[points.len() - 1];
        if points.len() < 2 || rng.below(5) != 0 {
            let angle = rng.range(-0.87, 0.87);
            step = Vector::new(-angle.cos(), angle.sin()) * rng.range(0.4, 2.5);
        }
        points.push(last + step);
    }
    Chain::open(&points).expect("ground running left is simple")
}

/// A closed loop of `count` points (at least 3) about the origin, star-shaped (radii 3 to 6
/// at increasing angles, so it never crosses itself): an island (counter-clockwise, solid
/// inside, bodies outside) if `island`, else a container (clockwise, bodies inside).
pub fn star_loop(rng: &mut SplitMix64, count: usize, island: bool) -> Chain {
    let count = count.max(3);
    let mut points: Vec<Point> = (0..count)
        .map(|i| {
            let slot = core::f64::consts::TAU / count as Real;
            let angle = slot * (i as Real + rng.range(0.1, 0.9));
            let radius = rng.range(3.0, 6.0);
            Point::new(radius * angle.cos(), radius * angle.sin())
        })
        .collect();
    if !island {
        points.reverse();
    }
    Chain::closed(&points).expect("a star-shaped loop is simple")
}

/// Whether `p` is on the front side of `chain`: above an open chain's ground (by the segment
/// below or above it; outside the ground's span counts as in front), outside a
/// counter-clockwise loop, inside a clockwise one (by the winding number).
pub fn in_front(chain: &Chain, p: Point) -> bool {
    let points = chain.points();
    if !chain.is_closed() {
        for s in chain.segments() {
            let (a, b) = (s.a(), s.b());
            if p.x <= a.x && p.x >= b.x {
                let t = (a.x - p.x) / (a.x - b.x);
                return p.y >= a.y + (b.y - a.y) * t;
            }
        }
        return true;
    }
    let mut winding = 0i32;
    let n = points.len();
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        let side = cross(&(b - a), &(p - a));
        if a.y <= p.y && b.y > p.y && side > 0.0 {
            winding += 1;
        } else if a.y > p.y && b.y <= p.y && side < 0.0 {
            winding -= 1;
        }
    }
    // Counter-clockwise winds +1 about an inside point; its front is outside.
    let ccw = (0..n)
        .map(|i| cross(&points[i].coords, &points[(i + 1) % n].coords))
        .sum::<Real>()
        > 0.0;
    if ccw { winding == 0 } else { winding != 0 }
}

/// A shape shot at a chain.
#[derive(Debug, Clone)]
pub struct Shot {
    /// The shape (never a segment: a chain gives thin shapes no impacts).
    pub shape: Shape,
    /// Its motion over a step of fraction 1.
    pub sweep: Sweep,
    /// The point of the chain it was aimed at.
    pub aim: Point,
    /// Which segment the aim is on.
    pub segment: usize,
    /// Whether it was aimed at the segment's first vertex (else a point inside the segment).
    pub at_vertex: bool,
}

/// A shot at `chain` from its front: a random shape other than a segment ([`random_shape`]),
/// aimed at a random vertex (three in ten; an inner vertex of an open chain) or a random
/// point of a random segment (not an end segment of an open chain), coming in within 75
/// degrees of the front normal there (the two normals' bisector at a vertex) from 0.001 to
/// 2 beyond reach, at a speed log-uniform from 1 to 10,000 units/s over a 60 Hz step (so up
/// to 167 units: many shots go on through the chain). Turning up to two turns per step if
/// `turning`. Not checked for starting in front or clear of the chain: see [`in_front`].
/// An open chain needs at least three segments (a closed one has them).
pub fn shot_at(rng: &mut SplitMix64, chain: &Chain, turning: bool) -> Shot {
    let shape = loop {
        let s = random_shape(rng);
        if !matches!(s, Shape::Segment(_)) {
            break s;
        }
    };
    let count = chain.segment_count();
    let (first, last) = if chain.is_closed() {
        (0, count)
    } else {
        (1, count - 1)
    };
    let segment = first + rng.below(last - first);
    let s = chain.segment(segment).expect("in range");
    let at_vertex = rng.below(10) < 3;
    let (aim, front) = if at_vertex {
        let bisector = (s.normal_before() + s.normal())
            .try_normalize(1e-9)
            .unwrap_or_else(|| s.normal());
        (s.a(), bisector)
    } else {
        (s.a() + s.direction() * rng.range(0.0, 1.0), s.normal())
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
    let speed = 10f64.powf(rng.range(0.0, 4.0));
    let travel = speed / 60.0;
    let angle = rng.range(-3.2, 3.2);
    let pose = Isometry::new(start.coords, angle);
    let pose = Isometry::new(start.coords - pose.rotation * center.coords, angle);
    let turn = if turning {
        rng.range(-4.0 * core::f64::consts::PI, 4.0 * core::f64::consts::PI)
    } else {
        0.0
    };
    let sweep = Sweep::new(pose, center, -toward * travel, turn, 1.0).expect("finite sweep");
    Shot {
        shape,
        sweep,
        aim,
        segment,
        at_vertex,
    }
}
