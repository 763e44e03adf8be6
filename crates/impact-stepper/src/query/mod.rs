//! Scene queries: what a ray, a moving shape, a point, a box or a placed shape meets among the
//! bodies of a scene, answered exactly, over a broadphase and a body set.
//!
//! - [`QueryView`]: a broadphase, the [`BodySet`] its proxies name (through a
//!   [`ShapeProxies`] table or by body slot), and the shapes its proxies do not hold; every query is a method of it, and [`World`](crate::World)'s
//!   query methods build one over the world.
//! - Rays (`ray`): [`QueryView::cast_ray`] (the nearest hit), [`QueryView::cast_ray_all`]
//!   (every hit, nearest first) and [`QueryView::cast_ray_with`] (a callback that clips or
//!   stops), solid or hollow ([`Interior`]). Each shape is tested by the closed form of
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
//! A cast enters a shape's box no later than it can meet the shape. A cast for the nearest
//! hit searches the broadphase for the shapes whose boxes it enters before its best hit so
//! far ([`Broadphase::search_swept`]), clipping as it finds nearer hits, so it tests only the
//! shapes entered before the nearest; its answer is the least hit, ties going to the
//! smallest [`ShapeId`]. The ordered forms walk the shapes by the time the cast enters their
//! boxes ([`Broadphase::visit_swept`]) and hold each hit until no shape left to visit can hit
//! earlier, so their callbacks see hits in increasing order of fraction, ties by
//! [`ShapeId`]. Each shape's hit is its own (a function of the cast and the shape at its
//! body's pose), so every answer is the same whatever the broadphase, its tree's layout or
//! the order bodies were created in.
//!
//! # Proxies and shapes
//! Every shape of a body is tested on its own, and a hit names it ([`ShapeId`]: the body and
//! the shape's place in its list); its filter and sensor flag are the shape's. A view names
//! the shapes behind the broadphase's proxies in one of two ways:
//! - [`QueryView::with_proxies`]: a [`ShapeProxies`] table says which shape each proxy stands
//!   for, the convention [`World`](crate::World) follows (every shape of a body is its own
//!   proxy, inserted by [`World::create_body`](crate::World::create_body) with the box of the
//!   shape at the body's pose, so a body is queryable as soon as it is created);
//! - [`QueryView::new`]: `ProxyId(i)` names the body in slot `i` of the body set
//!   ([`BodySet::get_by_index`]), its box holding every shape of the body (one proxy per
//!   body, as a bare broadphase kept by hand has for bodies of one shape); each of the body's
//!   shapes is tested.
//!
//! A proxy that names nothing is ignored. A query trusts each proxy's fat box to hold its
//! shapes at their current poses, except for the shapes listed as *unindexed*
//! ([`QueryView::with_unindexed`]), which it tests from their current boxes instead. Between
//! steps a world's boxes are those the last step gave the broadphase (the sweep over the
//! step, or its start); a body the solver turned mid-step, one moved by hand
//! ([`World::set_pose`](crate::World::set_pose),
//! [`World::body_mut`](crate::World::body_mut)) may have left its boxes, so the world lists
//! those shapes ([`QueryView::unindexed_shapes`]) once per change, at its first query.
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

use crate::shape_proxies::ShapeProxies;
use impact_broadphase::{Broadphase, ProxyId, swept_entry};
use impact_geometry::{Aabb, Isometry, Real, Shape, Vector};
use impact_solver::{BodySet, BodyShape, RigidBody, ShapeId};

/// The shapes of `bodies` whose proxies in `broadphase` (one per body, by slot: the
/// convention of [`QueryView::new`]) do not hold them at their current poses, sorted.
#[deprecated(
    since = "0.2.0",
    note = "use `QueryView::unindexed_shapes`, which lists shapes (and knows a world's proxies)"
)]
pub fn unindexed_bodies<B: Broadphase + ?Sized>(broadphase: &B, bodies: &BodySet) -> Vec<ShapeId> {
    QueryView::new(broadphase, bodies).unindexed_shapes()
}

/// How a view's proxies name shapes.
#[derive(Clone, Copy)]
enum Naming<'a> {
    /// `ProxyId(i)` is the body in slot `i`, every one of its shapes.
    BySlot,
    /// The table says which shape each proxy stands for.
    Table(&'a ShapeProxies),
}

/// One shape of the scene as a query tests it: its id, its body and the shape itself (in
/// the body frame).
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub(crate) id: ShapeId,
    pub(crate) body: &'a RigidBody,
    pub(crate) shape: &'a BodyShape,
}

impl Target<'_> {
    /// The geometry, in the body frame.
    #[inline]
    pub(crate) fn geometry(&self) -> &Shape {
        self.shape.shape()
    }

    /// The pose of the body frame.
    #[inline]
    pub(crate) fn pose(&self) -> &Isometry {
        self.body.pose()
    }

    /// The shape's tight box at its body's pose.
    #[inline]
    fn aabb(&self) -> Aabb {
        self.geometry().aabb(self.pose())
    }
}

/// A broadphase and the body set its proxies name, ready for scene queries: through a
/// [`ShapeProxies`] table ([`QueryView::with_proxies`], a world's view) or by body slot
/// ([`QueryView::new`]). See the [module docs](self) for the conventions, and
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
///     broadphase.insert(ProxyId(handle.index), body.aabb())?;
/// }
/// let view = QueryView::new(&broadphase, &bodies);
/// let ray = Ray::new(Point::origin(), Vector::new(10.0, 0.0));
/// let hit = view.cast_ray(&ray, Interior::Solid, &QueryFilter::new())?.unwrap();
/// assert_eq!((hit.body.index, hit.shape.index, hit.distance), (0, 0, 1.5));
/// let all = view.cast_ray_all(&ray, Interior::Solid, &QueryFilter::new())?;
/// assert_eq!(all.iter().map(|h| h.distance).collect::<Vec<_>>(), [1.5, 4.5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct QueryView<'a, B: ?Sized> {
    broadphase: &'a B,
    bodies: &'a BodySet,
    naming: Naming<'a>,
    unindexed: &'a [ShapeId],
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
            .field("by_slot", &matches!(self.naming, Naming::BySlot))
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
    /// The view of `bodies` through `broadphase` whose proxy `ProxyId(i)` is the body in
    /// slot `i` (its box holding every shape of the body: [`RigidBody::aabb`]), every proxy
    /// trusted to hold its body. Each shape of a body is tested on its own.
    pub fn new(broadphase: &'a B, bodies: &'a BodySet) -> Self {
        Self {
            broadphase,
            bodies,
            naming: Naming::BySlot,
            unindexed: &[],
        }
    }

    /// The view of `bodies` through `broadphase` whose proxies stand for the shapes
    /// `proxies` says (a [`World`](crate::World)'s convention: every shape its own proxy),
    /// every proxy trusted to hold its shape.
    pub fn with_proxies(broadphase: &'a B, bodies: &'a BodySet, proxies: &'a ShapeProxies) -> Self {
        Self {
            broadphase,
            bodies,
            naming: Naming::Table(proxies),
            unindexed: &[],
        }
    }

    /// The same view, testing the shapes of `unindexed` (sorted, as
    /// [`QueryView::unindexed_shapes`] gives them) from their own boxes rather than their
    /// proxies. A list out of order makes the answers count those shapes twice, never miss
    /// one.
    #[must_use]
    pub fn with_unindexed(mut self, unindexed: &'a [ShapeId]) -> Self {
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

    /// The shapes whose proxies in the broadphase do not hold them at their bodies' current
    /// poses (or that have no proxy), sorted: what the view must test from their own boxes
    /// ([`QueryView::with_unindexed`]). `O(n)` in the number of shapes: one box each.
    pub fn unindexed_shapes(&self) -> Vec<ShapeId> {
        let mut out = Vec::new();
        for (handle, body) in self.bodies.iter() {
            for (k, shape) in body.shapes().iter().enumerate() {
                let id = ShapeId {
                    body: handle,
                    index: k as u32,
                };
                let proxy = match self.naming {
                    Naming::BySlot => Some(ProxyId(handle.index)),
                    Naming::Table(table) => table.proxy_of(id),
                };
                let held = proxy
                    .and_then(|p| self.broadphase.fat_aabb(p))
                    .is_some_and(|fat| fat.contains(&shape.shape().aabb(body.pose())));
                if !held {
                    out.push(id);
                }
            }
        }
        out
    }

    /// The shape `id`, if its body is live and has it.
    pub(crate) fn target(&self, id: ShapeId) -> Option<Target<'a>> {
        let body = self.bodies.get(id.body)?;
        let shape = body.shapes().get(id.index as usize)?;
        Some(Target { id, body, shape })
    }

    /// How many shapes the scene has.
    fn shape_count(&self) -> usize {
        self.bodies.iter().map(|(_, b)| b.shapes().len()).sum()
    }

    /// Whether `id` is one of the unindexed shapes.
    #[inline]
    fn is_unindexed(&self, id: ShapeId) -> bool {
        !self.unindexed.is_empty() && self.unindexed.binary_search(&id).is_ok()
    }

    /// Calls `each` with every shape `proxy` stands for that is not unindexed (in shape
    /// order), until it returns `false`; `false` then.
    fn each_of_proxy(&self, proxy: ProxyId, mut each: impl FnMut(Target<'a>) -> bool) -> bool {
        match self.naming {
            Naming::Table(table) => match table.shape_of(proxy).and_then(|id| self.target(id)) {
                Some(t) if !self.is_unindexed(t.id) => each(t),
                _ => true,
            },
            Naming::BySlot => {
                let Some((handle, body)) = self.bodies.get_by_index(proxy.0) else {
                    return true;
                };
                for (k, shape) in body.shapes().iter().enumerate() {
                    let id = ShapeId {
                        body: handle,
                        index: k as u32,
                    };
                    if !self.is_unindexed(id) && !each(Target { id, body, shape }) {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// Walks the shapes whose boxes the box `aabb` touches while it translates by
    /// `t * translation` (t in `[0, 1]`): the broadphase's proxies by their fat boxes and the
    /// unindexed shapes by their own boxes. `visit(target, entry)` returns the end of the
    /// walk as [`Broadphase::visit_swept`]'s visitor does (negative or NaN: stop).
    /// `ordered`: in one order by entry ([`Broadphase::visit_swept`], the two sources
    /// merged); otherwise every shape entered no later than the end, in any order
    /// ([`Broadphase::search_swept`], the unindexed shapes first).
    fn walk<V: FnMut(Target<'a>, Real) -> Real>(
        &self,
        aabb: &Aabb,
        translation: &Vector,
        ordered: bool,
        visit: &mut V,
    ) -> Result<(), QueryError> {
        let mut extra: Vec<(Real, Target<'a>)> = Vec::new();
        for &id in self.unindexed {
            if let Some(target) = self.target(id)
                && let Some(entry) = swept_entry(aabb, translation, &target.aabb())?
            {
                extra.push((entry, target));
            }
        }
        extra.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
        let mut next = 0;
        let mut end: Real = 1.0;
        let mut stopped = false;
        let mut step = |target, entry, end: &mut Real| {
            let r = visit(target, entry);
            if r.is_nan() || r < 0.0 {
                return false;
            }
            *end = end.min(r);
            true
        };
        if !ordered {
            for &(e, target) in &extra {
                if e > end {
                    break;
                }
                if !step(target, e, &mut end) {
                    return Ok(());
                }
            }
            next = extra.len();
        }
        let mut on_proxy = |id: ProxyId, entry: Real| {
            while let Some(&(e, target)) = extra.get(next)
                && e < entry
            {
                next += 1;
                if !step(target, e, &mut end) {
                    stopped = true;
                    return -1.0;
                }
            }
            if !self.each_of_proxy(id, |target| step(target, entry, &mut end)) {
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
            for &(e, target) in &extra[next..] {
                if e > end || !step(target, e, &mut end) {
                    break;
                }
            }
        }
        Ok(())
    }

    /// The nearest hit of a cast: [`QueryView::walk`] clipped at the best hit so far, each
    /// visited shape tested by `test(target, end)` (which may ignore hits after `end`).
    ///
    /// A shape entered as late as the best hit can at most tie with it, and a tie goes to
    /// the smaller shape: a larger one is passed over untested. A cast that starts in a
    /// shape (a hit at 0) thus tests only the smaller shapes among those its box starts in,
    /// not all of them.
    fn nearest<H: CastHit, T: FnMut(Target<'a>, Real) -> Option<H>>(
        &self,
        aabb: &Aabb,
        translation: &Vector,
        test: &mut T,
    ) -> Result<Option<H>, QueryError> {
        let mut best: Option<H> = None;
        self.walk(aabb, translation, false, &mut |target, entry| {
            let end = best.as_ref().map_or(1.0, H::fraction);
            if best
                .as_ref()
                .is_some_and(|b| entry >= b.fraction() && target.id > b.shape())
            {
                return end;
            }
            if let Some(hit) = test(target, end)
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
    /// zero, a negative value or NaN stops the query. Hits are held until no shape left to
    /// visit can hit earlier (its entry is later).
    fn ordered<H: CastHit, T: FnMut(Target<'a>, Real) -> Option<H>>(
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
        self.walk(aabb, translation, true, &mut |target, entry| {
            if !flush(&mut pending, entry, &mut end) {
                stopped = true;
                return -1.0;
            }
            if let Some(hit) = test(target, end)
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

    /// Every shape whose box (its proxy's fat box, or its own box if unindexed) overlaps
    /// `aabb`, sorted by [`ShapeId`]. Under [`Naming::BySlot`] every shape of a body whose
    /// box overlaps.
    fn overlapping(&self, aabb: &Aabb) -> Result<Vec<Target<'a>>, QueryError> {
        let mut ids = Vec::new();
        self.broadphase.query_aabb(aabb, &mut ids)?;
        let mut out: Vec<Target<'a>> = Vec::new();
        for &id in &ids {
            self.each_of_proxy(id, |target| {
                out.push(target);
                true
            });
        }
        for &id in self.unindexed {
            if let Some(target) = self.target(id)
                && target.aabb().intersects(aabb)
            {
                out.push(target);
            }
        }
        out.sort_unstable_by_key(|t| t.id);
        Ok(out)
    }
}
