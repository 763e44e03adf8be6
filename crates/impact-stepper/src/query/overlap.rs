//! Overlap queries against the scene: the shapes that hold a point or overlap a box or a
//! placed shape (the shapes themselves, by exact distance), and the shape nearest a point.

use super::error::{QueryError, aabb as check_aabb, finite_point, pose as check_pose};
use super::{QueryFilter, QueryView, Target};
use impact_broadphase::Broadphase;
use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{Aabb, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Vector};
use impact_narrowphase::distance;
use impact_solver::{BodyHandle, ShapeId};

/// The shape nearest a point, and where.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PointProjection {
    /// The shape.
    pub shape: ShapeId,
    /// Its body (`shape.body`).
    pub body: BodyHandle,
    /// The point of the shape's surface nearest the query point (world frame).
    pub point: Point,
    /// The signed distance from the query point to the shape (world units): negative when
    /// the shape holds the point, minus the depth to its surface.
    pub distance: Real,
    /// The unit normal of the shape's surface at `point`, outward (toward the query point
    /// when it is outside).
    pub normal: Vector,
}

/// A point, as a shape: a circle of radius zero.
fn point_shape() -> Shape {
    Shape::Circle(Circle::new(0.0).expect("zero is a valid radius"))
}

/// `aabb` as a shape and its pose: a rectangle, or, for a box too thin for one (a side of
/// zero, or below [`POLYGON_WELD_RELATIVE`](impact_geometry::tolerances::POLYGON_WELD_RELATIVE)
/// of the other), the segment across its longer side (within half the thin side of the box).
fn box_shape(aabb: &Aabb) -> (Shape, Isometry) {
    let c = aabb.center();
    let h = aabb.half_extents();
    let pose = Isometry::translation(c.x, c.y);
    if let Ok(rectangle) = ConvexPolygon::rectangle(h.x, h.y) {
        return (rectangle.into(), pose);
    }
    let (a, b) = if h.x >= h.y {
        (Point::new(-h.x, 0.0), Point::new(h.x, 0.0))
    } else {
        (Point::new(0.0, -h.y), Point::new(0.0, h.y))
    };
    let segment = Segment::new(a, b).expect("finite ends");
    (segment.into(), pose)
}

impl<B: Broadphase + ?Sized> QueryView<'_, B> {
    /// The shapes that `shape` placed at `pose` overlaps, touching included (exact distance
    /// at most 0), among those `filter` passes, sorted.
    fn overlapping_shapes(
        &self,
        shape: &Shape,
        pose: &Isometry,
        filter: &QueryFilter<'_>,
    ) -> Result<Vec<ShapeId>, QueryError> {
        let region = shape.aabb(pose);
        let mut out = Vec::new();
        for target in self.overlapping(&region)? {
            if filter.passes(target.id, target.body)
                && distance(target.geometry(), target.pose(), shape, pose).distance <= 0.0
            {
                out.push(target.id);
            }
        }
        Ok(out)
    }

    /// The shapes that hold `point` (their boundary included), among those `filter` passes,
    /// sorted by [`ShapeId`]. Exact to rounding: each candidate's signed distance to the
    /// point is at most 0.
    ///
    /// # Errors
    /// [`QueryError`] naming `point.x` or `point.y` if not finite; `filter.category_bits` or
    /// `filter.mask_bits` if zero.
    pub fn intersections_with_point(
        &self,
        point: &Point,
        filter: &QueryFilter<'_>,
    ) -> Result<Vec<ShapeId>, QueryError> {
        finite_point("point", point)?;
        filter.validate()?;
        self.overlapping_shapes(
            &point_shape(),
            &Isometry::translation(point.x, point.y),
            filter,
        )
    }

    /// The shapes that overlap the box `aabb` (the shapes themselves, touching included, not
    /// their bounding boxes), among those `filter` passes, sorted by [`ShapeId`]. A box
    /// thinner than [`POLYGON_WELD_RELATIVE`](impact_geometry::tolerances::POLYGON_WELD_RELATIVE)
    /// of its width is taken as the segment across it.
    ///
    /// # Errors
    /// [`QueryError`] naming `aabb.mins.x` (...) if not finite, `aabb.maxs.x` (`.y`) if below
    /// `mins`; `filter.category_bits` or `filter.mask_bits` if zero.
    pub fn intersections_with_aabb(
        &self,
        aabb: &Aabb,
        filter: &QueryFilter<'_>,
    ) -> Result<Vec<ShapeId>, QueryError> {
        check_aabb("aabb", aabb)?;
        filter.validate()?;
        let (shape, pose) = box_shape(aabb);
        self.overlapping_shapes(&shape, &pose, filter)
    }

    /// The shapes that `shape` placed at `pose` overlaps (exact distance at most 0: touching
    /// counts, boxes that overlap do not), among those `filter` passes, sorted by
    /// [`ShapeId`].
    ///
    /// # Errors
    /// [`QueryError`] naming `pose.translation.x` (`.y`, `pose.rotation.re`, `.im`) if not
    /// finite, `pose.rotation` if not a unit rotation; `filter.category_bits` or
    /// `filter.mask_bits` if zero.
    pub fn intersections_with_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
        filter: &QueryFilter<'_>,
    ) -> Result<Vec<ShapeId>, QueryError> {
        check_pose("pose", pose)?;
        filter.validate()?;
        self.overlapping_shapes(shape, pose, filter)
    }

    /// The shape nearest `point` within `max_distance` (world units; infinity for no limit)
    /// among those `filter` passes: the smallest signed distance (a shape that holds the
    /// point is nearer than any that does not, and of two that hold it, the one it is deeper
    /// in), ties going to the smallest [`ShapeId`]; `None` if no shape is that near.
    ///
    /// The search grows a box about the point from the point itself, doubling its reach from
    /// [`LINEAR_SLOP`] until a shape within it is found, then once more to that shape's
    /// distance, so it looks at the bodies near the point, not at the whole scene.
    ///
    /// # Errors
    /// [`QueryError`] naming `point.x` or `point.y` if not finite, `max_distance` if negative
    /// or NaN; `filter.category_bits` or `filter.mask_bits` if zero.
    pub fn project_point(
        &self,
        point: &Point,
        max_distance: Real,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<PointProjection>, QueryError> {
        finite_point("point", point)?;
        if max_distance.is_nan() {
            return Err(QueryError::OutOfRange {
                field: "max_distance".to_owned(),
                value: max_distance,
                expected: "zero or more (infinity for no limit)",
            });
        }
        if max_distance < 0.0 {
            return Err(QueryError::Negative {
                field: "max_distance".to_owned(),
                value: max_distance,
            });
        }
        filter.validate()?;
        let probe = point_shape();
        let at = Isometry::translation(point.x, point.y);
        let mut reach: Real = 0.0;
        loop {
            let r = reach.min(max_distance);
            let region = Aabb::new(point - Vector::new(r, r), point + Vector::new(r, r));
            if !(region.mins.coords.amax().is_finite() && region.maxs.coords.amax().is_finite()) {
                return Ok(None);
            }
            let candidates = self.overlapping(&region)?;
            let mut best: Option<PointProjection> = None;
            for &target in &candidates {
                if let Some(p) = project_on(&probe, &at, target, filter)
                    && p.distance <= max_distance
                    && best.is_none_or(|b| (p.distance, p.shape) < (b.distance, b.shape))
                {
                    best = Some(p);
                }
            }
            match best {
                // Every shape nearer than `r` has its box within the region.
                Some(b) if b.distance <= r => return Ok(Some(b)),
                // Any nearer shape is within `b.distance`: one more look settles it.
                Some(b) => reach = b.distance,
                None if r >= max_distance || candidates.len() >= self.shape_count() => {
                    return Ok(None);
                }
                None if reach == 0.0 => reach = LINEAR_SLOP,
                None => reach *= 2.0,
            }
        }
    }
}

/// The projection of the point `probe` placed `at` on the shape `target`, if it passes
/// `filter`.
fn project_on(
    probe: &Shape,
    at: &Isometry,
    target: Target<'_>,
    filter: &QueryFilter<'_>,
) -> Option<PointProjection> {
    if !filter.passes(target.id, target.body) {
        return None;
    }
    let d = distance(target.geometry(), target.pose(), probe, at);
    Some(PointProjection {
        shape: target.id,
        body: target.id.body,
        point: d.point_a,
        distance: d.distance,
        normal: d.normal,
    })
}
