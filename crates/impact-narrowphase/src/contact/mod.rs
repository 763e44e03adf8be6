//! Contact manifolds for the solver: up to two points per pair of shapes, each with its
//! separation and a feature id for warm starting, produced up to a speculative distance before
//! the shapes touch.
//!
//! Every shape is a rounded polygon here: a circle is one vertex with its radius, a segment or
//! capsule two vertices, a polygon its corners. Two routines do the work: a point core against
//! any core (Voronoi regions of the polygon, `circle_polygon`), and two cores with at least
//! two vertices each (separating axes, then clipping the incident edge against the reference
//! face, `polygon_polygon`). One module per pair in canonical order; the dispatcher swaps the
//! reverse order.

mod capsule_capsule;
mod capsule_polygon;
mod circle_capsule;
mod circle_circle;
mod circle_polygon;
mod circle_segment;
mod on_side;
mod polygon_polygon;
mod rounded;
mod segment_capsule;
mod segment_polygon;
mod segment_segment;

pub use capsule_capsule::contact_capsule_capsule;
pub use capsule_polygon::contact_capsule_polygon;
pub use circle_capsule::contact_circle_capsule;
pub use circle_circle::contact_circle_circle;
pub use circle_polygon::contact_circle_polygon;
pub use circle_segment::contact_circle_segment;
// Where two flush faces touch: it lives at the crate root, beside the time of impact that
// places its hits with it, and is offered here with the manifolds.
pub use crate::face_middle::shared_face_middle;
pub use on_side::contact_manifold_on_side;
pub use polygon_polygon::contact_polygon_polygon;
pub use segment_capsule::contact_segment_capsule;
pub use segment_polygon::contact_segment_polygon;
pub use segment_segment::contact_segment_segment;

use impact_geometry::{Isometry, Point, Real, Shape, Vector};

/// Identifies which features of A and B a contact point comes from, so the solver can carry
/// its accumulated impulse from one step to the next (warm starting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactId(pub u32);

impl ContactId {
    /// The id of the contact between feature `a` of A and feature `b` of B (vertex or edge
    /// indices of the cores).
    #[inline]
    pub fn new(a: usize, b: usize) -> Self {
        Self(((a as u32 & 0xFFFF) << 16) | (b as u32 & 0xFFFF))
    }

    /// The same contact seen with A and B exchanged.
    #[inline]
    pub fn swapped(self) -> Self {
        Self(self.0.rotate_left(16))
    }
}

/// One contact point.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactPoint {
    /// World position, midway between the two surfaces along the manifold normal.
    pub point: Point,
    /// Distance between the surfaces along the normal at this point: negative when they
    /// overlap, positive (up to the speculative distance) before they touch.
    pub separation: Real,
    /// Which features touch, for warm starting.
    pub id: ContactId,
}

/// The contact between two shapes: a normal from A toward B and zero, one or two points.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Manifold {
    /// Unit normal from A toward B (zero when there are no points).
    pub normal: Vector,
    points: [ContactPoint; 2],
    count: usize,
}

impl Manifold {
    /// No contact.
    pub const EMPTY: Self = Self {
        normal: Vector::new(0.0, 0.0),
        points: [ContactPoint {
            point: Point::new(0.0, 0.0),
            separation: 0.0,
            id: ContactId(0),
        }; 2],
        count: 0,
    };

    pub(crate) fn single(normal: Vector, point: ContactPoint) -> Self {
        Self {
            normal,
            points: [point, ContactPoint::default()],
            count: 1,
        }
    }

    pub(crate) fn push(&mut self, point: ContactPoint) {
        debug_assert!(self.count < 2);
        self.points[self.count] = point;
        self.count += 1;
    }

    /// The contact points (zero, one or two).
    #[inline]
    pub fn points(&self) -> &[ContactPoint] {
        &self.points[..self.count]
    }

    /// Whether there is no contact point.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The smallest separation over the points (infinite when empty).
    pub fn min_separation(&self) -> Real {
        self.points()
            .iter()
            .map(|p| p.separation)
            .fold(Real::INFINITY, Real::min)
    }

    /// The same manifold with A and B exchanged.
    pub fn swapped(mut self) -> Self {
        self.normal = -self.normal;
        for p in &mut self.points[..self.count] {
            p.id = p.id.swapped();
        }
        self
    }
}

/// The contact manifold of `a` at `pose_a` and `b` at `pose_b`, with points wherever the
/// surfaces are closer than `speculative_distance` (world units, zero or more; see
/// [`impact_geometry::tolerances::SPECULATIVE_DISTANCE`]).
pub fn contact_manifold(
    a: &Shape,
    pose_a: &Isometry,
    b: &Shape,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    use Shape::{Capsule as Cap, Circle as Cir, Polygon as Pol, Segment as Seg};
    let spec = speculative_distance;
    match (a, b) {
        (Cir(x), Cir(y)) => contact_circle_circle(x, pose_a, y, pose_b, spec),
        (Cir(x), Seg(y)) => contact_circle_segment(x, pose_a, y, pose_b, spec),
        (Cir(x), Cap(y)) => contact_circle_capsule(x, pose_a, y, pose_b, spec),
        (Cir(x), Pol(y)) => contact_circle_polygon(x, pose_a, y, pose_b, spec),
        (Seg(x), Seg(y)) => contact_segment_segment(x, pose_a, y, pose_b, spec),
        (Seg(x), Cap(y)) => contact_segment_capsule(x, pose_a, y, pose_b, spec),
        (Seg(x), Pol(y)) => contact_segment_polygon(x, pose_a, y, pose_b, spec),
        (Cap(x), Cap(y)) => contact_capsule_capsule(x, pose_a, y, pose_b, spec),
        (Cap(x), Pol(y)) => contact_capsule_polygon(x, pose_a, y, pose_b, spec),
        (Pol(x), Pol(y)) => contact_polygon_polygon(x, pose_a, y, pose_b, spec),
        (Seg(_) | Cap(_) | Pol(_), Cir(_)) | (Cap(_) | Pol(_), Seg(_)) | (Pol(_), Cap(_)) => {
            contact_manifold(b, pose_b, a, pose_a, spec).swapped()
        }
    }
}
