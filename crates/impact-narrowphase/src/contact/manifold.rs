//! What a contact manifold is: up to two points, each with its separation and the features it
//! comes from (for warm starting), and a normal; with the numbering of those features.

use impact_geometry::{Point, Real, Vector};

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
    pub(super) points: [ContactPoint; 2],
    pub(super) count: usize,
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

    /// Whether `other` is this manifold bit for bit (normal, points, separations, ids), any
    /// two empty manifolds alike: an empty one's normal is zero of either sign (the point
    /// kernel's swapped empty manifold is `-0`), and nothing reads it. For the tests that
    /// hold a shortcut to the path it saves.
    #[cfg(test)]
    pub(crate) fn same_bits(&self, other: &Self) -> bool {
        if self.is_empty() && other.is_empty() {
            return true;
        }
        let bits = |m: &Self| {
            let mut out = vec![m.normal.x.to_bits(), m.normal.y.to_bits()];
            for c in m.points() {
                out.extend([
                    c.point.x.to_bits(),
                    c.point.y.to_bits(),
                    c.separation.to_bits(),
                    u64::from(c.id.0),
                ]);
            }
            out
        };
        bits(self) == bits(other)
    }
}

/// Feature number of vertex `i` in a [`ContactId`].
pub(crate) fn vertex_feature(i: usize) -> usize {
    i
}

/// Feature number of edge `i` (from vertex `i` to `i + 1`) in a [`ContactId`].
pub(crate) fn edge_feature(i: usize) -> usize {
    0x100 | i
}
