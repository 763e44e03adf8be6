//! The scene queries of [`World`]: each is the [`QueryView`] method of the same name, on a
//! view of the world's broadphase and bodies (see [`crate::query`] for the algorithms and
//! the conventions).
//!
//! Every shape of a body is its own proxy, named by the world's [`ShapeProxies`] table and
//! inserted with the box of the shape at its body's pose, so a body is seen by queries from
//! its creation. After a step, a proxy's fat box is the one the step gave the broadphase
//! (the shape's sweep over the step), which the body may have left (a bounce, a push from
//! the solver), and a body moved by hand may be anywhere: the first query after such a
//! change lists the shapes outside their boxes ([`QueryView::unindexed_shapes`], one box per
//! shape), and queries test those from their own boxes until the next change.
//!
//! [`ShapeProxies`]: crate::ShapeProxies

use super::World;
use crate::query::{
    Interior, PointProjection, QueryError, QueryFilter, QueryView, RayHit, ShapeCastHit,
    ShapeCastOptions,
};
use crate::stepper::Stepper;
use impact_broadphase::Broadphase;
use impact_geometry::{Aabb, Isometry, Point, Real, Shape, Sweep, Vector};
use impact_narrowphase::ray::Ray;
use impact_solver::ShapeId;

impl<B: Broadphase, S: Stepper> World<B, S> {
    /// The world's broadphase, bodies and shape proxies as a [`QueryView`]
    /// ([`QueryView::with_proxies`]), the shapes that may have left their proxies' boxes
    /// listed (found at the first query after a step or a move by hand).
    ///
    /// # Errors
    /// [`QueryError::PeriodicDomain`] naming `settings.domain` if the domain is periodic.
    pub fn query_view(&self) -> Result<QueryView<'_, B>, QueryError> {
        if self.settings.domain.is_periodic() {
            return Err(QueryError::PeriodicDomain {
                field: "settings.domain".to_owned(),
            });
        }
        let view = QueryView::with_proxies(&self.broadphase, &self.bodies, &self.shape_proxies);
        let unindexed = self.unindexed.get_or_init(|| view.unindexed_shapes());
        Ok(view.with_unindexed(unindexed))
    }

    /// The nearest shape `ray` hits: [`QueryView::cast_ray`].
    ///
    /// ```
    /// use impact_geometry::{ConvexPolygon, Isometry, Point, Vector};
    /// use impact_narrowphase::ray::Ray;
    /// use impact_solver::RigidBodyDef;
    /// use impact_stepper::{Interior, QueryFilter, World, WorldSettings};
    ///
    /// let mut world: World = World::new(WorldSettings::default())?;
    /// let floor = world.create_body(RigidBodyDef::fixed(ConvexPolygon::rectangle(10.0, 0.5)?.into()))?;
    /// // Straight down from 10 units up: the floor's top face, 9.5 units away.
    /// let ray = Ray::new(Point::new(1.0, 10.0), Vector::new(0.0, -20.0));
    /// let hit = world.cast_ray(&ray, Interior::Solid, &QueryFilter::new())?.unwrap();
    /// assert_eq!((hit.body, hit.distance, hit.normal), (floor, 9.5, Vector::new(0.0, 1.0)));
    /// // Leaving the floor out, the ray hits nothing.
    /// let without = [floor];
    /// let filter = QueryFilter::new().exclude_bodies(&without);
    /// assert!(world.cast_ray(&ray, Interior::Solid, &filter)?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`QueryView::cast_ray`] and [`World::query_view`].
    pub fn cast_ray(
        &self,
        ray: &Ray,
        interior: Interior,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<RayHit>, QueryError> {
        self.query_view()?.cast_ray(ray, interior, filter)
    }

    /// Every shape `ray` hits, nearest first: [`QueryView::cast_ray_all`].
    ///
    /// # Errors
    /// As [`QueryView::cast_ray_all`] and [`World::query_view`].
    pub fn cast_ray_all(
        &self,
        ray: &Ray,
        interior: Interior,
        filter: &QueryFilter<'_>,
    ) -> Result<Vec<RayHit>, QueryError> {
        self.query_view()?.cast_ray_all(ray, interior, filter)
    }

    /// The hits of `ray`, nearest first, to a callback that clips or stops the ray:
    /// [`QueryView::cast_ray_with`].
    ///
    /// # Errors
    /// As [`QueryView::cast_ray_with`] and [`World::query_view`].
    pub fn cast_ray_with(
        &self,
        ray: &Ray,
        interior: Interior,
        filter: &QueryFilter<'_>,
        callback: &mut dyn FnMut(&RayHit) -> Real,
    ) -> Result<(), QueryError> {
        self.query_view()?
            .cast_ray_with(ray, interior, filter, callback)
    }

    /// The first shape `shape` meets, moved from `pose` by `translation`:
    /// [`QueryView::cast_shape`].
    ///
    /// # Errors
    /// As [`QueryView::cast_shape`] and [`World::query_view`].
    pub fn cast_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
        translation: &Vector,
        options: &ShapeCastOptions,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<ShapeCastHit>, QueryError> {
        self.query_view()?
            .cast_shape(shape, pose, translation, options, filter)
    }

    /// The first shape `shape` meets along `sweep`, turning as it says:
    /// [`QueryView::cast_sweep`].
    ///
    /// # Errors
    /// As [`QueryView::cast_sweep`] and [`World::query_view`].
    pub fn cast_sweep(
        &self,
        shape: &Shape,
        sweep: &Sweep,
        options: &ShapeCastOptions,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<ShapeCastHit>, QueryError> {
        self.query_view()?.cast_sweep(shape, sweep, options, filter)
    }

    /// The hits of `shape` along `sweep`, nearest first, to a callback that clips or stops
    /// the cast: [`QueryView::cast_sweep_with`].
    ///
    /// # Errors
    /// As [`QueryView::cast_sweep_with`] and [`World::query_view`].
    pub fn cast_sweep_with(
        &self,
        shape: &Shape,
        sweep: &Sweep,
        options: &ShapeCastOptions,
        filter: &QueryFilter<'_>,
        callback: &mut dyn FnMut(&ShapeCastHit) -> Real,
    ) -> Result<(), QueryError> {
        self.query_view()?
            .cast_sweep_with(shape, sweep, options, filter, callback)
    }

    /// The shapes that hold `point`: [`QueryView::intersections_with_point`].
    ///
    /// # Errors
    /// As [`QueryView::intersections_with_point`] and [`World::query_view`].
    pub fn intersections_with_point(
        &self,
        point: &Point,
        filter: &QueryFilter<'_>,
    ) -> Result<Vec<ShapeId>, QueryError> {
        self.query_view()?.intersections_with_point(point, filter)
    }

    /// The shapes that overlap the box `aabb`: [`QueryView::intersections_with_aabb`].
    ///
    /// # Errors
    /// As [`QueryView::intersections_with_aabb`] and [`World::query_view`].
    pub fn intersections_with_aabb(
        &self,
        aabb: &Aabb,
        filter: &QueryFilter<'_>,
    ) -> Result<Vec<ShapeId>, QueryError> {
        self.query_view()?.intersections_with_aabb(aabb, filter)
    }

    /// The shapes that `shape` placed at `pose` overlaps:
    /// [`QueryView::intersections_with_shape`].
    ///
    /// # Errors
    /// As [`QueryView::intersections_with_shape`] and [`World::query_view`].
    pub fn intersections_with_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
        filter: &QueryFilter<'_>,
    ) -> Result<Vec<ShapeId>, QueryError> {
        self.query_view()?
            .intersections_with_shape(shape, pose, filter)
    }

    /// The shape nearest `point` within `max_distance`: [`QueryView::project_point`].
    ///
    /// # Errors
    /// As [`QueryView::project_point`] and [`World::query_view`].
    pub fn project_point(
        &self,
        point: &Point,
        max_distance: Real,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<PointProjection>, QueryError> {
        self.query_view()?
            .project_point(point, max_distance, filter)
    }
}
