//! Mass properties of the shapes for a uniform density.

use crate::validate::non_negative;
use crate::{GeometryError, Point, Real, Shape, Vector, cross};
use core::f64::consts::PI;

/// Mass, centre of mass and angular inertia of a body or shape.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MassProperties {
    /// Total mass (density times area).
    pub mass: Real,
    /// Centre of mass in the body frame.
    pub local_center: Point,
    /// Angular inertia about the centre of mass.
    pub inertia: Real,
}

impl MassProperties {
    /// Zero mass at the origin: what static bodies and segments have.
    pub const ZERO: Self = Self {
        mass: 0.0,
        local_center: Point::new(0.0, 0.0),
        inertia: 0.0,
    };

    /// Mass properties of `shape` with uniform `density` (mass per unit area).
    ///
    /// Closed forms: disc `m r^2 / 2`; capsule as a rectangle plus two half discs (see the
    /// derivation in the source); polygon by triangles fanned from its vertex mean, and a
    /// rounded polygon as that core plus a rectangle along each edge and a circular sector at
    /// each corner (exact, where Box2D's `b2ComputePolygonMass` approximates; see the
    /// source). A segment or chain segment has zero area and hence zero mass.
    ///
    /// # Errors
    /// [`GeometryError`] naming `density` if it is negative or not finite.
    pub fn from_shape(shape: &Shape, density: Real) -> Result<Self, GeometryError> {
        let density = non_negative("density", density)?;
        let props = match shape {
            Shape::Circle(c) => {
                let r = c.radius();
                let mass = density * PI * r * r;
                Self {
                    mass,
                    local_center: c.center(),
                    inertia: 0.5 * mass * r * r,
                }
            }
            Shape::Segment(s) => Self {
                mass: 0.0,
                local_center: nalgebra::center(&s.a(), &s.b()),
                inertia: 0.0,
            },
            Shape::ChainSegment(s) => Self {
                mass: 0.0,
                local_center: nalgebra::center(&s.a(), &s.b()),
                inertia: 0.0,
            },
            Shape::Capsule(c) => capsule(c.axis().a(), c.axis().b(), c.radius(), density),
            Shape::Polygon(p) => polygon(p.vertices(), p.normals(), p.radius(), density),
        };
        Ok(props)
    }

    /// The mass properties of a body made of `parts` (each in the same body frame): masses
    /// add, the centre of mass is their mass-weighted mean, and each part's inertia is moved
    /// from its own centre to that one by the parallel axis theorem, `I + m d^2`. The sums
    /// are taken about the first part's centre, which keeps their terms small for a body
    /// far from its origin. One part comes back unchanged, bit for bit. No parts give
    /// [`MassProperties::ZERO`]; parts of no mass (segments) give mass and inertia zero at
    /// the plain mean of their centres, about which a kinematic body of them turns.
    pub fn combine(parts: &[MassProperties]) -> Self {
        let first = match parts {
            [] => return Self::ZERO,
            [one] => return *one,
            [first, ..] => first,
        };
        let reference = first.local_center;
        let mass: Real = parts.iter().map(|p| p.mass).sum();
        if mass <= 0.0 {
            let sum = parts.iter().fold(nalgebra::Vector2::zeros(), |acc, p| {
                acc + (p.local_center - reference)
            });
            return Self {
                mass: 0.0,
                local_center: reference + sum / parts.len() as Real,
                inertia: 0.0,
            };
        }
        let moment = parts.iter().fold(nalgebra::Vector2::zeros(), |acc, p| {
            acc + (p.local_center - reference) * p.mass
        });
        let offset = moment / mass;
        let inertia = parts
            .iter()
            .map(|p| p.inertia + p.mass * (p.local_center - reference - offset).norm_squared())
            .sum();
        Self {
            mass,
            local_center: reference + offset,
            inertia,
        }
    }

    /// The area of `shape`.
    pub fn area(shape: &Shape) -> Real {
        match shape {
            Shape::Circle(c) => PI * c.radius() * c.radius(),
            Shape::Segment(_) | Shape::ChainSegment(_) => 0.0,
            Shape::Capsule(c) => {
                let r = c.radius();
                2.0 * r * c.axis().direction().norm() + PI * r * r
            }
            Shape::Polygon(p) => polygon(p.vertices(), p.normals(), p.radius(), 1.0).mass,
        }
    }
}

/// A capsule of axis length `L` and radius `r` is a `L x 2r` rectangle plus a disc split into
/// two half discs at the ends. Each half disc (mass `m_c / 2`) has its centroid `4r / (3 pi)`
/// beyond the end of the axis; moving its inertia `m_c r^2 / 4` from the end point to its
/// centroid and then to the capsule centre (parallel axis theorem twice) gives, for both
/// halves together, `m_c (r^2 / 2 + L^2 / 4 + 4 r L / (3 pi))`.
fn capsule(a: Point, b: Point, r: Real, density: Real) -> MassProperties {
    let length = (b - a).norm();
    let rect_mass = density * length * 2.0 * r;
    let disc_mass = density * PI * r * r;
    let rect_inertia = rect_mass * (length * length + 4.0 * r * r) / 12.0;
    let disc_inertia =
        disc_mass * (0.5 * r * r + 0.25 * length * length + 4.0 * r * length / (3.0 * PI));
    MassProperties {
        mass: rect_mass + disc_mass,
        local_center: nalgebra::center(&a, &b),
        inertia: rect_inertia + disc_inertia,
    }
}

/// Fans triangles from the vertex mean `o` (which keeps the terms small for polygons far from
/// the origin). Triangle `(o, p, q)` with `e1 = p - o`, `e2 = q - o` has area `cross / 2`,
/// centroid `o + (e1 + e2) / 3`, and second moment about `o` of
/// `cross / 12 * (e1.e1 + e1.e2 + e2.e2)`; the rounding by `radius` adds its pieces' moments
/// about `o` (see [`Moments::add_rounding`]); the sum is shifted to the centroid at the end.
/// A sharp polygon (`radius` zero) skips the rounding, so its numbers are the triangles'
/// alone, bit for bit.
pub(crate) fn polygon(
    vertices: &[Point],
    normals: &[Vector],
    radius: Real,
    density: Real,
) -> MassProperties {
    let n = vertices.len();
    let origin = Point::from(
        vertices
            .iter()
            .fold(Vector::zeros(), |acc, v| acc + v.coords)
            / n as Real,
    );
    let mut sum = Moments {
        area: 0.0,
        first: Vector::zeros(),
        second: 0.0,
    };
    for i in 0..n {
        let e1 = vertices[i] - origin;
        let e2 = vertices[(i + 1) % n] - origin;
        let c = cross(&e1, &e2);
        let tri_area = 0.5 * c;
        sum.area += tri_area;
        sum.first += tri_area * (e1 + e2) / 3.0;
        sum.second += c / 12.0 * (e1.dot(&e1) + e1.dot(&e2) + e2.dot(&e2));
    }
    if radius > 0.0 {
        sum.add_rounding(vertices, normals, radius, &origin);
    }
    let Moments {
        area,
        first: first_moment,
        second: second_moment,
    } = sum;
    let centroid_offset = first_moment / area;
    let mass = density * area;
    let inertia_about_origin = density * second_moment;
    MassProperties {
        mass,
        local_center: origin + centroid_offset,
        inertia: inertia_about_origin - mass * centroid_offset.norm_squared(),
    }
}

/// The area, first moment (a vector) and polar second moment of a region about a point.
struct Moments {
    area: Real,
    first: Vector,
    second: Real,
}

impl Moments {
    /// Adds a piece with `area`, first moment `first` and polar second moment `second` about
    /// its own point `at` (relative to the sum's point): by `|at + x|^2 = |x|^2 + 2 at.x +
    /// |at|^2` under the integral, its second moment about the sum's point is
    /// `second + 2 at.first + area |at|^2`, and its first moment `first + area at`.
    fn add_about(&mut self, at: Vector, area: Real, first: Vector, second: Real) {
        self.area += area;
        self.first += first + at * area;
        self.second += second + 2.0 * at.dot(&first) + area * at.norm_squared();
    }

    /// Adds the rounding of the polygon with counter-clockwise `vertices` and outward unit
    /// edge `normals` by `radius`, moments about `origin`. The rounding is, without overlap
    /// (the polygon is convex), a rectangle on each edge, the edge by `radius` out along its
    /// normal, and a circular sector of `radius` at each corner between the normals of its
    /// two edges. Each piece about its first vertex, `t` the edge's unit direction, `L` its
    /// length and `r` the radius:
    ///
    /// - the rectangle `{s t + h n : s in [0, L], h in [0, r]}`: area `L r`, first moment
    ///   `L r (L t + r n) / 2`, second moment `L r (L^2 + r^2) / 3`;
    /// - the sector from normal `n0` to `n1` (angle `theta`, the corner's turn): area
    ///   `theta r^2 / 2`, second moment `theta r^4 / 4`, and first moment, the integral of
    ///   `rho (cos phi, sin phi)` over `rho dphi drho`, `r^3 / 3 (sin phi1 - sin phi0,
    ///   cos phi0 - cos phi1)`, which is `r^3 / 3 (d.y, -d.x)` with `d = n1 - n0`: no
    ///   trigonometry but the angle itself.
    ///
    /// Box2D's `b2ComputePolygonMass` (v3, `geometry.c`) approximates a rounded polygon by
    /// the sharp one with its corners pushed out by `1.412 r` along their bisectors; the
    /// pieces here make it exact, as the disc and the capsule are.
    fn add_rounding(&mut self, vertices: &[Point], normals: &[Vector], r: Real, origin: &Point) {
        let n = vertices.len();
        let (r2, r3) = (r * r, r * r * r);
        for i in 0..n {
            let at = vertices[i] - origin;
            let edge = vertices[(i + 1) % n] - vertices[i];
            let length = edge.norm();
            let normal = normals[i];
            let rect_area = length * r;
            self.add_about(
                at,
                rect_area,
                (edge + normal * r) * (0.5 * rect_area),
                rect_area * (length * length + r2) / 3.0,
            );
            let before = normals[(i + n - 1) % n];
            let theta = cross(&before, &normal).atan2(before.dot(&normal));
            let d = normal - before;
            self.add_about(
                at,
                0.5 * theta * r2,
                Vector::new(d.y, -d.x) * (r3 / 3.0),
                0.25 * theta * r2 * r2,
            );
        }
    }
}
