//! Ray casts against the scene: the nearest hit, every hit in order, and the callback form
//! that clips or stops the ray.

use super::error::{QueryError, displacement, finite_point};
use super::{CastHit, QueryFilter, QueryView, Target};
use impact_broadphase::Broadphase;
use impact_geometry::{Aabb, Point, Real, Vector};
use impact_narrowphase::ray::{Ray, RayIntersection, cast_ray};
use impact_solver::{BodyHandle, ShapeId};

/// What a ray that starts inside a shape hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Interior {
    /// The shape is solid: a ray starting in it (or on its boundary) hits it at fraction 0,
    /// with the normal `-translation / |translation|` (there is no surface there). The
    /// default.
    #[default]
    Solid,
    /// The shape is hollow: a ray starting in it hits it where it leaves, with the inward
    /// normal there (rapier's `solid = false`).
    Hollow,
}

/// Where a ray hits a shape of the scene.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayHit {
    /// The shape hit.
    pub shape: ShapeId,
    /// Its body (`shape.body`).
    pub body: BodyHandle,
    /// How far along the ray, as a fraction of its translation, in `[0, 1]`.
    pub fraction: Real,
    /// How far along the ray, in world units: `fraction * |translation|`.
    pub distance: Real,
    /// The point hit (world frame): the ray's point at `fraction`.
    pub point: Point,
    /// The unit normal of the surface there, facing the ray (`normal . translation <= 0`):
    /// outward where the ray enters, inward where a hollow ray leaves (see [`Interior`]).
    pub normal: Vector,
}

impl CastHit for RayHit {
    #[inline]
    fn fraction(&self) -> Real {
        self.fraction
    }

    #[inline]
    fn shape(&self) -> ShapeId {
        self.shape
    }
}

/// Checks a ray: a finite origin, a finite translation that is not zero.
fn check_ray(ray: &Ray) -> Result<(), QueryError> {
    finite_point("ray.origin", &ray.origin)?;
    displacement("ray.translation", &ray.translation)
}

/// The hit of `ray` on the shape `target` if it passes `filter`, up to fraction `end`.
fn test_shape(
    ray: &Ray,
    length: Real,
    interior: Interior,
    filter: &QueryFilter<'_>,
    target: Target<'_>,
    end: Real,
) -> Option<RayHit> {
    if !filter.passes(target.id, target.body) {
        return None;
    }
    let solid = interior == Interior::Solid;
    let RayIntersection {
        fraction,
        point,
        normal,
    } = cast_ray(target.geometry(), target.pose(), ray, end, solid)?;
    Some(RayHit {
        shape: target.id,
        body: target.id.body,
        fraction,
        distance: fraction * length,
        point,
        normal,
    })
}

impl<B: Broadphase + ?Sized> QueryView<'_, B> {
    /// The nearest shape `ray` hits among those `filter` passes: the smallest fraction, ties
    /// going to the smallest [`ShapeId`]; `None` if it hits nothing.
    ///
    /// Each candidate is tested in closed form ([`impact_narrowphase::ray::cast_ray`]):
    /// exact to rounding, a grazing ray touches. See [`Interior`] for rays that start inside
    /// a shape.
    ///
    /// # Errors
    /// [`QueryError`] naming `ray.origin.x` (`.y`) or `ray.translation.x` (`.y`) if not
    /// finite, `ray.translation` if zero, `ray.translation.length` if it overflows;
    /// `filter.category_bits` or `filter.mask_bits` if zero; [`QueryError::Broadphase`] if
    /// the ray's end overflows.
    pub fn cast_ray(
        &self,
        ray: &Ray,
        interior: Interior,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<RayHit>, QueryError> {
        check_ray(ray)?;
        filter.validate()?;
        let length = ray.translation.norm();
        self.nearest(
            &point_box(&ray.origin),
            &ray.translation,
            &mut |target, end| test_shape(ray, length, interior, filter, target, end),
        )
    }

    /// Every shape `ray` hits among those `filter` passes, nearest first (ties by
    /// [`ShapeId`]), each once: where it enters, or per [`Interior`] for the shapes it starts
    /// in.
    ///
    /// # Errors
    /// As [`QueryView::cast_ray`].
    pub fn cast_ray_all(
        &self,
        ray: &Ray,
        interior: Interior,
        filter: &QueryFilter<'_>,
    ) -> Result<Vec<RayHit>, QueryError> {
        let mut hits = Vec::new();
        self.cast_ray_with(ray, interior, filter, &mut |hit| {
            hits.push(*hit);
            1.0
        })?;
        Ok(hits)
    }

    /// Box2D's cast with a result function: `callback` is called with the hits of `ray`,
    /// nearest first (ties by [`ShapeId`]), and returns the new length of the ray as a
    /// fraction of it: `1.0` (or more) goes on unclipped, the hit's own fraction clips the
    /// ray there (only hits as near come after), a smaller positive value clips it shorter,
    /// and `0.0`, a negative value or NaN stops the query.
    ///
    /// ```
    /// use impact_geometry::{Circle, Isometry, Point, Vector};
    /// use impact_narrowphase::ray::Ray;
    /// use impact_solver::RigidBodyDef;
    /// use impact_stepper::{Interior, QueryFilter, World, WorldSettings};
    ///
    /// let mut world: World = World::new(WorldSettings::default())?;
    /// for x in [2.0, 4.0, 6.0] {
    ///     world.create_body(RigidBodyDef::fixed(Circle::new(0.5)?.into()).pose(Isometry::translation(x, 0.0)))?;
    /// }
    /// // A bullet that goes through two bodies and stops in the third.
    /// let ray = Ray::new(Point::origin(), Vector::new(10.0, 0.0));
    /// let mut pierced = Vec::new();
    /// world.cast_ray_with(&ray, Interior::Solid, &QueryFilter::new(), &mut |hit| {
    ///     pierced.push(hit.point.x);
    ///     if pierced.len() == 2 { 0.0 } else { 1.0 }
    /// })?;
    /// assert_eq!(pierced, [1.5, 3.5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`QueryView::cast_ray`]; the callback is not called then.
    pub fn cast_ray_with(
        &self,
        ray: &Ray,
        interior: Interior,
        filter: &QueryFilter<'_>,
        callback: &mut dyn FnMut(&RayHit) -> Real,
    ) -> Result<(), QueryError> {
        check_ray(ray)?;
        filter.validate()?;
        let length = ray.translation.norm();
        self.ordered(
            &point_box(&ray.origin),
            &ray.translation,
            &mut |target, end| test_shape(ray, length, interior, filter, target, end),
            callback,
        )
    }
}

/// The box of a point.
#[inline]
fn point_box(p: &Point) -> Aabb {
    Aabb::new(*p, *p)
}
