//! Scene queries: what a ray, a moving shape, a point, a box or a placed shape meets among the
//! bodies of a scene, answered exactly, over a broadphase and a body set.
//!
//! - [`QueryView`]: a broadphase, the [`BodySet`] its proxies name, and the bodies its
//!   proxies do not hold; every query is a method of it, and [`World`](crate::World)'s
//!   query methods build one over the world.
//! - Rays (`ray`): [`QueryView::cast_ray`] (the nearest hit), [`QueryView::cast_ray_all`]
//!   (every hit, nearest first) and [`QueryView::cast_ray_with`] (a callback that clips or
//!   stops), solid or hollow ([`Interior`]). Each body is tested by the closed form of
//!   [`impact_narrowphase::ray::cast_ray`].
//! - Shape casts (`cast`): [`QueryView::cast_shape`] (a translation),
//!   [`QueryView::cast_sweep`] (a [`Sweep`](impact_geometry::Sweep), rotation included) and
//!   [`QueryView::cast_sweep_with`], through the narrowphase's
//!   [`time_of_impact`](impact_narrowphase::time_of_impact): the closed form for translating
//!   shapes, conservative advancement for turning ones.
//! - Overlaps (`overlap`): [`QueryView::intersections_with_point`],
//!   [`QueryView::intersections_with_aabb`], [`QueryView::intersections_with_shape`] (the
//!   shapes themselves, by exact distance, not their boxes) and [`QueryView::project_point`].
//! - [`QueryFilter`] (`filter`): categories and mask (Box2D's), excluded bodies and body
//!   types, sensors, a predicate. [`QueryError`] (`error`): why a query was refused.
//!
//! # Nearest first
//! A cast enters a body's box no later than it can meet the body. A cast for the nearest hit
//! searches the broadphase for the bodies whose boxes it enters before its best hit so far
//! ([`Broadphase::search_swept`]), clipping as it finds nearer hits, so it tests only the
//! bodies entered before the nearest; its answer is the least hit, ties going to the
//! smallest [`ShapeId`]. The ordered forms walk the bodies by the time the cast enters their
//! boxes ([`Broadphase::visit_swept`]) and hold each hit until no body left to visit can hit
//! earlier, so their callbacks see hits in increasing order of fraction, ties by
//! [`ShapeId`]. Each body's hit is its own (a function of the cast and the body), so every
//! answer is the same whatever the broadphase, its tree's layout or the order bodies were
//! created in.
//!
//! # Proxies and bodies
//! A proxy `ProxyId(i)` names the body in slot `i` of the body set ([`BodySet::get_by_index`]),
//! the convention [`World`](crate::World) follows (a body's proxy is `ProxyId(handle.index)`,
//! inserted by [`World::create_body`](crate::World::create_body) with the box of its shape at
//! its pose, so a body is queryable as soon as it is created). A proxy whose slot is empty is
//! ignored. A query trusts each proxy's fat box to hold its body's shape at its current pose,
//! except for the bodies listed as *unindexed* ([`QueryView::with_unindexed`]), which it tests
//! from their current boxes instead. Between steps a world's boxes are those the last step
//! gave the broadphase (the sweep over the step, or its start); a body the solver turned
//! mid-step, one moved by hand ([`World::set_pose`](crate::World::set_pose),
//! [`World::body_mut`](crate::World::body_mut)) may have left its box, so the world lists
//! those ([`unindexed_bodies`]) once per change, at its first query.
//!
//! Periodic domains are not supported: a [`World`](crate::World) in a
//! [`Domain::Periodic`](crate::Domain::Periodic) refuses every query with
//! [`QueryError::PeriodicDomain`] naming `settings.domain`.

mod cast;
mod error;
mod filter;
mod overlap;
mod ray;

pub use cast::{CastStatus, ShapeCastHit, ShapeCastOptions};
pub use error::QueryError;
pub use filter::{QueryFilter, ShapePredicate};
pub use overlap::PointProjection;
pub use ray::{Interior, RayHit};

use impact_broadphase::{Broadphase, ProxyId, swept_entry};
use impact_geometry::{Aabb, Real, Vector};
use impact_solver::{BodyHandle, BodySet, RigidBody, ShapeId};

/// The bodies of `bodies` whose proxies in `broadphase` do not hold their shapes at their
/// current poses (or that have no proxy), sorted: what a [`QueryView`] must test from their
/// own boxes ([`QueryView::with_unindexed`]). `O(n)`: one box per body.
pub fn unindexed_bodies<B: Broadphase + ?Sized>(
    broadphase: &B,
    bodies: &BodySet,
) -> Vec<BodyHandle> {
    bodies
        .iter()
        .filter(|(handle, body)| {
            broadphase
                .fat_aabb(ProxyId(handle.index))
                .is_none_or(|fat| !fat.contains(&body.shape().aabb(body.pose())))
        })
        .map(|(handle, _)| handle)
        .collect()
}

/// A broadphase and the body set its proxies name (proxy `ProxyId(i)` is the body in slot
/// `i`), ready for scene queries. See the [module docs](self) for the convention, and
/// [`World`](crate::World)'s query methods for the same queries on a world.
///
/// ```
/// use impact_broadphase::{Broadphase, ProxyId, RTreeBroadphase};
/// use impact_geometry::{Circle, Isometry, Point, Vector};
/// use impact_narrowphase::ray::Ray;
/// use impact_solver::{BodySet, RigidBodyDef};
/// use impact_stepper::{Interior, QueryFilter, QueryView};
///
/// // A body set and a broadphase kept by hand, proxies named by slot.
/// let mut bodies = BodySet::new();
/// let mut broadphase = RTreeBroadphase::new();
/// for x in [2.0, 5.0] {
///     let def = RigidBodyDef::fixed(Circle::new(0.5)?.into()).pose(Isometry::translation(x, 0.0));
///     let handle = bodies.insert(def)?;
///     let body = bodies.get(handle).unwrap();
///     broadphase.insert(ProxyId(handle.index), body.shape().aabb(body.pose()))?;
/// }
/// let view = QueryView::new(&broadphase, &bodies);
/// let ray = Ray::new(Point::origin(), Vector::new(10.0, 0.0));
/// let hit = view.cast_ray(&ray, Interior::Solid, &QueryFilter::new())?.unwrap();
/// assert_eq!((hit.body.index, hit.distance), (0, 1.5));
/// let all = view.cast_ray_all(&ray, Interior::Solid, &QueryFilter::new())?;
/// assert_eq!(all.iter().map(|h| h.distance).collect::<Vec<_>>(), [1.5, 4.5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct QueryView<'a, B: ?Sized> {
    broadphase: &'a B,
    bodies: &'a BodySet,
    unindexed: &'a [BodyHandle],
}

impl<B: ?Sized> Clone for QueryView<'_, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B: ?Sized> Copy for QueryView<'_, B> {}

impl<B: ?Sized> core::fmt::Debug for QueryView<'_, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("QueryView")
            .field("bodies", &self.bodies.len())
            .field("unindexed", &self.unindexed)
            .finish_non_exhaustive()
    }
}

/// One hit of a cast, as the ordered walks sort them: by fraction, then by shape.
pub(crate) trait CastHit {
    /// The fraction of the cast at which it hits.
    fn fraction(&self) -> Real;
    /// The shape hit.
    fn shape(&self) -> ShapeId;
}

/// Whether hit `a` comes before hit `b`: nearer, or as near with a smaller shape id.
#[inline]
fn before<H: CastHit>(a: &H, b: &H) -> bool {
    a.fraction()
        .total_cmp(&b.fraction())
        .then(a.shape().cmp(&b.shape()))
        .is_lt()
}

impl<'a, B: Broadphase + ?Sized> QueryView<'a, B> {
    /// The view of `bodies` through `broadphase`, every proxy trusted to hold its body.
    pub fn new(broadphase: &'a B, bodies: &'a BodySet) -> Self {
        Self {
            broadphase,
            bodies,
            unindexed: &[],
        }
    }

    /// The same view, testing the bodies of `unindexed` (sorted by handle, as
    /// [`unindexed_bodies`] gives them) from their own boxes rather than their proxies. A
    /// list out of order makes the answers count those bodies twice, never miss one.
    #[must_use]
    pub fn with_unindexed(mut self, unindexed: &'a [BodyHandle]) -> Self {
        self.unindexed = unindexed;
        self
    }

    /// The broadphase.
    #[inline]
    pub fn broadphase(&self) -> &'a B {
        self.broadphase
    }

    /// The bodies.
    #[inline]
    pub fn bodies(&self) -> &'a BodySet {
        self.bodies
    }

    /// Whether `handle` is one of the unindexed bodies.
    #[inline]
    fn is_unindexed(&self, handle: BodyHandle) -> bool {
        !self.unindexed.is_empty() && self.unindexed.binary_search(&handle).is_ok()
    }

    /// Walks the bodies whose boxes the box `aabb` touches while it translates by
    /// `t * translation` (t in `[0, 1]`): the broadphase's proxies by their fat boxes and the
    /// unindexed bodies by their shapes' boxes. `visit(handle, body, entry)` returns the end
    /// of the walk as [`Broadphase::visit_swept`]'s visitor does (negative or NaN: stop).
    /// `ordered`: in one order by entry, then slot ([`Broadphase::visit_swept`], the two
    /// sources merged); otherwise every body entered no later than the end, in any order
    /// ([`Broadphase::search_swept`], the unindexed bodies first).
    fn walk<V: FnMut(BodyHandle, &'a RigidBody, Real) -> Real>(
        &self,
        aabb: &Aabb,
        translation: &Vector,
        ordered: bool,
        visit: &mut V,
    ) -> Result<(), QueryError> {
        let mut extra: Vec<(Real, BodyHandle, &'a RigidBody)> = Vec::new();
        for &handle in self.unindexed {
            if let Some(body) = self.bodies.get(handle) {
                let own = body.shape().aabb(body.pose());
                if let Some(entry) = swept_entry(aabb, translation, &own)? {
                    extra.push((entry, handle, body));
                }
            }
        }
        extra.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut next = 0;
        let mut end: Real = 1.0;
        let mut stopped = false;
        let mut step = |handle, body, entry, end: &mut Real| {
            let r = visit(handle, body, entry);
            if r.is_nan() || r < 0.0 {
                return false;
            }
            *end = end.min(r);
            true
        };
        if !ordered {
            for &(e, handle, body) in &extra {
                if e > end {
                    break;
                }
                if !step(handle, body, e, &mut end) {
                    return Ok(());
                }
            }
            next = extra.len();
        }
        let mut on_proxy = |id: ProxyId, entry: Real| {
            while let Some(&(e, handle, body)) = extra.get(next)
                && (e, handle.index) < (entry, id.0)
            {
                next += 1;
                if !step(handle, body, e, &mut end) {
                    stopped = true;
                    return -1.0;
                }
            }
            let Some((handle, body)) = self.bodies.get_by_index(id.0) else {
                return end;
            };
            if self.is_unindexed(handle) {
                return end;
            }
            if !step(handle, body, entry, &mut end) {
                stopped = true;
                return -1.0;
            }
            end
        };
        if ordered {
            self.broadphase
                .visit_swept(aabb, translation, &mut on_proxy)?;
        } else {
            self.broadphase
                .search_swept(aabb, translation, &mut on_proxy)?;
        }
        if !stopped {
            for &(e, handle, body) in &extra[next..] {
                if e > end || !step(handle, body, e, &mut end) {
                    break;
                }
            }
        }
        Ok(())
    }

    /// The nearest hit of a cast: [`QueryView::walk`] clipped at the best hit so far, each
    /// visited body tested by `test(handle, body, end)` (which may ignore hits after `end`).
    ///
    /// A body entered as late as the best hit can at most tie with it, and a tie goes to the
    /// smaller shape: one with a larger shape is passed over untested. A cast that starts in
    /// a body (a hit at 0) thus tests only the bodies of smaller slots among those its box
    /// starts in, not all of them.
    fn nearest<H: CastHit, T: FnMut(BodyHandle, &'a RigidBody, Real) -> Option<H>>(
        &self,
        aabb: &Aabb,
        translation: &Vector,
        test: &mut T,
    ) -> Result<Option<H>, QueryError> {
        let mut best: Option<H> = None;
        self.walk(aabb, translation, false, &mut |handle, body, entry| {
            let end = best.as_ref().map_or(1.0, H::fraction);
            if best
                .as_ref()
                .is_some_and(|b| entry >= b.fraction() && ShapeId::first_of(handle) > b.shape())
            {
                return end;
            }
            if let Some(hit) = test(handle, body, end)
                && hit.fraction() <= end
                && best.as_ref().is_none_or(|b| before(&hit, b))
            {
                best = Some(hit);
            }
            best.as_ref().map_or(1.0, H::fraction)
        })?;
        Ok(best)
    }

    /// Every hit of a cast, nearest first (ties by shape), to `emit`, which returns the new
    /// end of the cast: a value below the current end clips it, one at or above leaves it, and
    /// zero, a negative value or NaN stops the query. Hits are held until no body left to
    /// visit can hit earlier (its entry is later).
    fn ordered<H: CastHit, T: FnMut(BodyHandle, &'a RigidBody, Real) -> Option<H>>(
        &self,
        aabb: &Aabb,
        translation: &Vector,
        test: &mut T,
        emit: &mut dyn FnMut(&H) -> Real,
    ) -> Result<(), QueryError> {
        // Sorted farthest first, so the nearest is popped from the end.
        let mut pending: Vec<H> = Vec::new();
        let mut end: Real = 1.0;
        let mut stopped = false;
        // Emits the pending hits nearer than `limit`; false once the query is stopped.
        let mut flush = |pending: &mut Vec<H>, limit: Real, end: &mut Real| {
            while pending.last().is_some_and(|h| h.fraction() < limit) {
                let hit = pending.pop().expect("checked");
                if hit.fraction() > *end {
                    pending.clear();
                    break;
                }
                let r = emit(&hit);
                if r.is_nan() || r <= 0.0 {
                    pending.clear();
                    return false;
                }
                *end = end.min(r);
            }
            true
        };
        self.walk(aabb, translation, true, &mut |handle, body, entry| {
            if !flush(&mut pending, entry, &mut end) {
                stopped = true;
                return -1.0;
            }
            if let Some(hit) = test(handle, body, end)
                && hit.fraction() <= end
            {
                let at = pending.partition_point(|p| before(&hit, p));
                pending.insert(at, hit);
            }
            end
        })?;
        if !stopped {
            flush(&mut pending, Real::INFINITY, &mut end);
        }
        Ok(())
    }

    /// Every body whose box (its proxy's fat box, or its own box if unindexed) overlaps
    /// `aabb`, sorted by handle.
    fn overlapping(&self, aabb: &Aabb) -> Result<Vec<(BodyHandle, &'a RigidBody)>, QueryError> {
        let mut ids = Vec::new();
        self.broadphase.query_aabb(aabb, &mut ids)?;
        let mut out: Vec<(BodyHandle, &'a RigidBody)> = ids
            .iter()
            .filter_map(|id| self.bodies.get_by_index(id.0))
            .filter(|(handle, _)| !self.is_unindexed(*handle))
            .collect();
        for &handle in self.unindexed {
            if let Some(body) = self.bodies.get(handle)
                && body.shape().aabb(body.pose()).intersects(aabb)
            {
                out.push((handle, body));
            }
        }
        out.sort_unstable_by_key(|(handle, _)| *handle);
        Ok(out)
    }
}
