//! Shape casts against the scene: a shape moved along a translation or a whole
//! [`Sweep`], its first contact with each body found by the narrowphase's time of impact.

use super::error::{
    QueryError, displacement, finite, finite_point, non_negative, pose as check_pose,
};
use super::{CastHit, QueryFilter, QueryView, Target};
use impact_broadphase::Broadphase;
use impact_geometry::{Aabb, Isometry, Point, Real, Shape, Sweep, Vector};
use impact_narrowphase::{Toi, ToiOptions, distance, time_of_impact};
use impact_solver::{BodyHandle, ShapeId};

/// How a shape cast looks for contact.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShapeCastOptions {
    /// The distance (world units, zero or more) at which the cast shape counts as meeting a
    /// body: the cast stops this far from it. Default 0: touching. (The steppers keep a
    /// target separation of their own; a query does not.) A cast that starts within this
    /// distance of a body (without overlapping it) meets it at once if it moves toward it,
    /// and otherwise only if it later comes closer than it started, by the tolerance: the
    /// time of impact's rule, under which a body moving away from a wall it is near is not
    /// stopped by it.
    pub target_distance: Real,
    /// Shapes closer than `-tolerance` at the start overlap; iterative casts (turning shapes)
    /// stop within `tolerance` of the target (world units, positive). Default `1e-9`, as
    /// [`ToiOptions::exact`].
    pub tolerance: Real,
    /// The iteration cap of casts of turning shapes (conservative advancement), after which a
    /// hit is reported at the last fraction known to be apart ([`CastStatus::NotConverged`]).
    /// Default 64.
    pub max_iterations: u32,
    /// A body the cast shape overlaps at the start is passed over until the two have come
    /// apart (by more than twice the tolerance); the hit is then the first time they meet
    /// again, if they do. Under translation two convex shapes that overlap only come apart
    /// for good, so such a body is never hit. Default `false`: an overlap at the start is a
    /// hit at fraction 0 ([`CastStatus::Overlapping`]).
    pub ignore_initial_overlaps: bool,
}

impl Default for ShapeCastOptions {
    fn default() -> Self {
        let exact = ToiOptions::exact();
        Self {
            target_distance: 0.0,
            tolerance: exact.tolerance(),
            max_iterations: exact.max_iterations(),
            ignore_initial_overlaps: false,
        }
    }
}

/// What a cast's hit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CastStatus {
    /// The shapes come within the target distance at the hit's fraction: the point is on
    /// the body's surface and the normal is the body's surface normal there.
    Hit,
    /// The shapes overlap at the start (fraction 0): the point is the body's surface point
    /// deepest in the cast shape, the normal the direction that separates them fastest.
    Overlapping,
    /// Conservative advancement reached its iteration cap (a turning shape): up to the hit's
    /// fraction the shapes are known apart; the point and normal are those of their closest
    /// points there.
    NotConverged,
}

/// Where a cast shape first meets a body of the scene.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShapeCastHit {
    /// The shape hit.
    pub shape: ShapeId,
    /// Its body (`shape.body`).
    pub body: BodyHandle,
    /// When, as a fraction of the cast's translation (or sweep), in `[0, 1]`.
    pub fraction: Real,
    /// The point of the hit body's surface where the cast shape meets it (world frame, at
    /// that fraction); with a target distance, the cast shape is that far from it along the
    /// normal.
    pub point: Point,
    /// The unit normal of the hit body's surface at `point`, pointing toward the cast
    /// shape.
    pub normal: Vector,
    /// A hit, an overlap at the start, or the cap of an iterative cast.
    pub status: CastStatus,
}

impl CastHit for ShapeCastHit {
    #[inline]
    fn fraction(&self) -> Real {
        self.fraction
    }

    #[inline]
    fn shape(&self) -> ShapeId {
        self.shape
    }
}

/// A checked cast: the shape, its sweep, the time-of-impact options, and the box that
/// translates with it over the walk.
struct Cast<'c> {
    shape: &'c Shape,
    sweep: Sweep,
    options: ToiOptions,
    ignore_initial_overlaps: bool,
    /// Whether every point of the shape moves with the sweep's translation (no turn, or a
    /// circle spinning about its own centre): then the distance to a body is convex in time.
    translates: bool,
    start_box: Aabb,
    translation: Vector,
}

impl<'c> Cast<'c> {
    /// Checks the options and builds the walk's box: the shape's box at the start for a
    /// translating shape, the box of its bounding circle about its centre of mass for a
    /// turning one (which holds it at every angle), grown by the target distance.
    fn new(
        shape: &'c Shape,
        sweep: Sweep,
        options: &ShapeCastOptions,
        filter: &QueryFilter<'_>,
    ) -> Result<Self, QueryError> {
        check_pose("sweep.start", &sweep.start())?;
        non_negative("options.target_distance", options.target_distance)?;
        finite("options.tolerance", options.tolerance)?;
        let toi = ToiOptions::new(
            1.0,
            options.target_distance,
            options.tolerance,
            options.max_iterations,
        )
        .map_err(|e| QueryError::OutOfRange {
            field: e.field.replace("toi_options", "options"),
            value: e.value,
            expected: e.expected,
        })?;
        filter.validate()?;
        let translates = !sweep.rotates()
            || matches!(shape, Shape::Circle(c) if c.center() == sweep.local_center());
        let (start_box, translation) = if translates {
            let start = sweep.start();
            (shape.aabb(&start), sweep.displacement())
        } else {
            let c0 = sweep.center_at(0.0);
            let r = shape.bounding_radius(&sweep.local_center());
            let disc = Aabb::new(c0, c0).inflated(r);
            // Poses computed at any fraction stay within a few ulps of the true circle.
            let scale = c0.coords.amax() + r + sweep.displacement().amax();
            (
                disc.inflated(8.0 * Real::EPSILON * scale),
                sweep.displacement(),
            )
        };
        let start_box = start_box.inflated(options.target_distance);
        let corners = [start_box.mins, start_box.maxs];
        if !corners.iter().all(|c| c.x.is_finite() && c.y.is_finite()) {
            finite_point("sweep.box.mins", &start_box.mins)?;
            finite_point("sweep.box.maxs", &start_box.maxs)?;
        }
        Ok(Self {
            shape,
            sweep,
            options: toi,
            ignore_initial_overlaps: options.ignore_initial_overlaps,
            translates,
            start_box,
            translation,
        })
    }

    /// The hit of the cast on the shape `target` if it passes `filter`, up to fraction
    /// `end`.
    fn test(
        &self,
        filter: &QueryFilter<'_>,
        target: Target<'_>,
        end: Real,
    ) -> Option<ShapeCastHit> {
        if !filter.passes(target.id, target.body) {
            return None;
        }
        let still = Sweep::stationary(*target.pose()).ok()?;
        // Over the whole cast, whatever the walk's end so far: each shape's answer is then
        // its own, the same in every query form and visiting order (conservative
        // advancement's steps depend on where the window ends).
        let options = &self.options;
        let mut toi = time_of_impact(self.shape, &self.sweep, target.geometry(), &still, options);
        if toi == Toi::Overlapping && self.ignore_initial_overlaps {
            if self.translates {
                return None;
            }
            toi = self.after_separating(target, options);
        }
        if toi.safe_fraction().is_some_and(|t| t > end) {
            return None;
        }
        let separation = options.target_separation();
        // Without a hit the point and normal come from the closest points, found once a hit
        // has won (`Cast::finish`): of a dozen bodies the cast starts in, one is reported.
        let unknown = (Point::origin(), Vector::zeros());
        let (fraction, (point, normal), status) = match toi {
            Toi::Hit(hit) => (
                hit.fraction,
                (hit.point + hit.normal * (0.5 * separation), -hit.normal),
                CastStatus::Hit,
            ),
            Toi::Separated => return None,
            Toi::Overlapping => (0.0, unknown, CastStatus::Overlapping),
            Toi::NotConverged { safe_fraction } => {
                (safe_fraction, unknown, CastStatus::NotConverged)
            }
        };
        Some(ShapeCastHit {
            shape: target.id,
            body: target.id.body,
            fraction,
            point,
            normal,
            status,
        })
    }

    /// `hit` (on `target`) with its point and normal: for an overlap at the start or a
    /// capped cast, the point of the shape hit nearest the cast shape at the hit's fraction
    /// (deepest in it if they overlap) and the unit normal from it toward the cast shape.
    fn finish(&self, hit: ShapeCastHit, target: Option<Target<'_>>) -> ShapeCastHit {
        let Some(target) = target.filter(|_| hit.status != CastStatus::Hit) else {
            return hit;
        };
        let pose = self.sweep.pose_at(hit.fraction);
        let d = distance(target.geometry(), target.pose(), self.shape, &pose);
        ShapeCastHit {
            point: d.point_a,
            normal: d.normal,
            ..hit
        }
    }

    /// The first time a turning cast shape that overlaps `body` at the start meets it again
    /// after coming apart. It marches forward from 0 by the largest step that cannot carry
    /// the distance past `goal + tolerance`, where `goal` is the target plus twice the
    /// tolerance: no point of the shape moves faster than `|v| + |w| r` (`r` its bounding
    /// radius about the centre of mass), so over each step the distance stays below that,
    /// and a step never skips a time at which the shapes are within the target after being
    /// `goal` apart. Once the distance reaches `goal`, the rest of the sweep is cast as
    /// usual. Steps are at least `tolerance / speed`; after `64 * max_iterations` of them
    /// without the shapes coming apart, the body is passed over.
    fn after_separating(&self, target: Target<'_>, options: &ToiOptions) -> Toi {
        let sweep = &self.sweep;
        let tolerance = options.tolerance();
        let goal = options.target_separation() + 2.0 * tolerance;
        let reach = self.shape.bounding_radius(&sweep.local_center());
        let speed = (sweep.linvel().norm() + sweep.angvel().abs() * reach) * sweep.dt();
        let (body, pose) = (target.geometry(), target.pose());
        let Ok(still) = Sweep::stationary(*pose) else {
            return Toi::Separated;
        };
        let max = options.max_fraction();
        let mut t: Real = 0.0;
        for _ in 0..64 * options.max_iterations() {
            let gap = distance(self.shape, &sweep.pose_at(t), body, pose).distance;
            if gap >= goal {
                let (Ok(rest), Ok(rest_options)) = (
                    sweep.remainder_from(t),
                    options.with_max_fraction(((max - t) / (1.0 - t)).clamp(0.0, 1.0)),
                ) else {
                    return Toi::Separated;
                };
                let resume = |f: Real| t + (1.0 - t) * f;
                return match time_of_impact(self.shape, &rest, body, &still, &rest_options) {
                    Toi::Hit(hit) => Toi::Hit(impact_narrowphase::Hit {
                        fraction: resume(hit.fraction),
                        ..hit
                    }),
                    Toi::NotConverged { safe_fraction } => Toi::NotConverged {
                        safe_fraction: resume(safe_fraction),
                    },
                    Toi::Separated | Toi::Overlapping => Toi::Separated,
                };
            }
            if speed <= 0.0 {
                return Toi::Separated;
            }
            t += (goal + tolerance - gap) / speed;
            if t > max {
                return Toi::Separated;
            }
        }
        Toi::Separated
    }
}

impl<B: Broadphase + ?Sized> QueryView<'_, B> {
    /// The first body `shape`, placed at `pose` and moved by `translation` (world units,
    /// without turning), meets among those `filter` passes: the smallest fraction of the
    /// translation, ties going to the smallest [`ShapeId`]; `None` if it meets nothing.
    ///
    /// Each candidate gets the narrowphase's closed-form time of impact, exact to rounding
    /// ([`impact_narrowphase::closed_form_toi`]); see [`ShapeCastOptions`] for the target
    /// distance and for shapes that overlap at the start, and [`ShapeCastHit`] for the point
    /// and normal.
    ///
    /// ```
    /// use impact_geometry::{Circle, ConvexPolygon, Isometry, Vector};
    /// use impact_solver::RigidBodyDef;
    /// use impact_stepper::{CastStatus, QueryFilter, ShapeCastOptions, World, WorldSettings};
    ///
    /// let mut world: World = World::new(WorldSettings::default())?;
    /// let wall = world.create_body(
    ///     RigidBodyDef::fixed(ConvexPolygon::rectangle(0.5, 3.0)?.into()).pose(Isometry::translation(5.0, 0.0)),
    /// )?;
    /// // A disc of radius 1 pushed 10 units right stops with its edge on the wall at x = 4.5.
    /// let disc = Circle::new(1.0)?.into();
    /// let hit = world
    ///     .cast_shape(&disc, &Isometry::identity(), &Vector::new(10.0, 0.0), &ShapeCastOptions::default(), &QueryFilter::new())?
    ///     .unwrap();
    /// assert_eq!((hit.body, hit.status), (wall, CastStatus::Hit));
    /// assert!((hit.fraction - 0.35).abs() < 1e-15);
    /// assert!((hit.point.x - 4.5).abs() < 1e-12 && hit.normal == Vector::new(-1.0, 0.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`QueryError`] naming `pose.translation.x` (`.y`, `pose.rotation.re`, `.im`) if not
    /// finite, `pose.rotation` if not a unit rotation, `translation.x` (`.y`) if not finite,
    /// `translation` if zero, `options.target_distance` if negative or not finite,
    /// `options.tolerance` if not positive, `options.max_iterations` if zero,
    /// `filter.category_bits` or `filter.mask_bits` if zero.
    pub fn cast_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
        translation: &Vector,
        options: &ShapeCastOptions,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<ShapeCastHit>, QueryError> {
        let sweep = translating_sweep(pose, translation)?;
        self.cast_sweep(shape, &sweep, options, filter)
    }

    /// The first body `shape` meets as it moves along `sweep` (turning as it says) among
    /// those `filter` passes: the smallest fraction of the sweep, ties going to the smallest
    /// [`ShapeId`]; `None` if it meets nothing.
    ///
    /// A sweep that turns is cast by conservative advancement, which never reports a
    /// fraction later than the first contact and stops within `options.tolerance` of it, or
    /// reports [`CastStatus::NotConverged`] at its cap; one that does not turn by the closed
    /// form, as [`QueryView::cast_shape`].
    ///
    /// # Errors
    /// As [`QueryView::cast_shape`] for the options and the filter; `sweep.box.mins.x` (...)
    /// if the box of the cast overflows.
    pub fn cast_sweep(
        &self,
        shape: &Shape,
        sweep: &Sweep,
        options: &ShapeCastOptions,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<ShapeCastHit>, QueryError> {
        let cast = Cast::new(shape, *sweep, options, filter)?;
        let nearest = self.nearest(&cast.start_box, &cast.translation, &mut |target, end| {
            cast.test(filter, target, end)
        })?;
        Ok(nearest.map(|hit| cast.finish(hit, self.target(hit.shape))))
    }

    /// Box2D's shape cast with a result function: `callback` is called with the hits of
    /// `shape` along `sweep` (one per body, where it first meets it), nearest first (ties by
    /// [`ShapeId`]), and returns the new end of the cast as a fraction of it, as
    /// [`QueryView::cast_ray_with`]'s does: `1.0` goes on, a hit's own fraction clips the
    /// cast there, and `0.0`, a negative value or NaN stops the query.
    ///
    /// # Errors
    /// As [`QueryView::cast_sweep`]; the callback is not called then.
    pub fn cast_sweep_with(
        &self,
        shape: &Shape,
        sweep: &Sweep,
        options: &ShapeCastOptions,
        filter: &QueryFilter<'_>,
        callback: &mut dyn FnMut(&ShapeCastHit) -> Real,
    ) -> Result<(), QueryError> {
        let cast = Cast::new(shape, *sweep, options, filter)?;
        self.ordered(
            &cast.start_box,
            &cast.translation,
            &mut |target, end| cast.test(filter, target, end),
            &mut |hit| callback(&cast.finish(*hit, self.target(hit.shape))),
        )
    }
}

/// The sweep of a shape placed at `pose` that translates by `translation`, checked.
pub(crate) fn translating_sweep(
    pose: &Isometry,
    translation: &Vector,
) -> Result<Sweep, QueryError> {
    check_pose("pose", pose)?;
    displacement("translation", translation)?;
    // Every number was checked above, so the sweep's own checks pass.
    Sweep::translating(*pose, *translation).map_err(|_| QueryError::NotFinite {
        field: "translation".to_owned(),
        value: translation.norm(),
    })
}
