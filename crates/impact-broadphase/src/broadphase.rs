//! The [`Broadphase`] trait: what every implementation offers the stepper.

use crate::error::{
    BroadphaseError, finite, finite_point, finite_vector, non_negative, valid_aabb,
};
use crate::swept::SweptBox;
use crate::{ProxyId, ProxyPair};
use impact_geometry::{Aabb, CollisionFilter, Point, Real, Vector};

/// A set of boxes, each named by a [`ProxyId`], that finds which of them may touch.
///
/// # Contract
/// - **False positives allowed, false negatives never.** Every implementation stores a *fat*
///   box for each proxy: the box it was given, grown by a margin, kept until the proxy's
///   box leaves it (see each implementation for its margin; this crate's cap it at
///   [`MARGIN_PER_SIZE`](crate::MARGIN_PER_SIZE) of the box's shorter side). Pairs and queries are answered
///   against fat boxes, so they may report proxies whose real boxes do not touch; they never
///   miss one whose real box does. One missed pair is a tunnelled body.
/// - **Filters.** A proxy may be given a [`CollisionFilter`] ([`Broadphase::set_filter`]):
///   pairs whose filters refuse each other are left out of
///   [`Broadphase::overlapping_pairs`] (queries ignore filters). A proxy without one pairs
///   with everything; an implementation that keeps no filters (the trait's default) leaves
///   every pair in, which only costs its user the work of refusing them.
/// - **Deterministic.** Pairs and query results come sorted by handle. They are a function of
///   the stored fat boxes and filters alone, never of the tree layout, the insertion order or
///   the implementation: two broadphases of this crate holding the same fat boxes and
///   filters give identical answers. The
///   fat boxes themselves follow one rule shared by every implementation of this crate, so the
///   same calls with the same margin give the same boxes, and the same answers, whatever the
///   implementation.
/// - **Bad input changes nothing.** Non-finite or inverted boxes, unknown or duplicate
///   handles and bad query parameters return a [`BroadphaseError`] naming the field and the
///   value; no method panics on them.
/// - Touching boxes (sharing only a boundary) overlap.
///
/// The required methods are the minimum an index needs; the provided ones have defaults that
/// an implementation overrides when its structure answers faster (as the R-tree does for
/// swept queries).
pub trait Broadphase {
    /// Adds proxy `id` with box `aabb` (world units).
    ///
    /// # Errors
    /// [`BroadphaseError::DuplicateProxy`] if `id` is present; `NotFinite` or `Inverted` for
    /// a bad `aabb`.
    fn insert(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadphaseError>;

    /// Moves proxy `id` to box `aabb`. Returns whether its fat box changed: `false` means the
    /// box still fits its fat box and nothing was touched.
    ///
    /// # Errors
    /// [`BroadphaseError::UnknownProxy`] if `id` is absent; `NotFinite` or `Inverted` for a
    /// bad `aabb`.
    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, BroadphaseError>;

    /// Removes proxy `id`.
    ///
    /// # Errors
    /// [`BroadphaseError::UnknownProxy`] if `id` is absent.
    fn remove(&mut self, id: ProxyId) -> Result<(), BroadphaseError>;

    /// Sets the collision filter of proxy `id`, kept until it is set again or the proxy is
    /// removed (a proxy inserted has none, and pairs with everything): from the next
    /// [`Broadphase::overlapping_pairs`], its pairs with proxies whose filters refuse it
    /// ([`CollisionFilter::should_collide`]) are left out, and those it now accepts come in.
    ///
    /// The default keeps no filter and leaves every pair in.
    ///
    /// ```
    /// use impact_broadphase::{Broadphase, ProxyId, RTreeBroadphase};
    /// use impact_geometry::{Aabb, CollisionFilter, Point};
    ///
    /// let mut bp = RTreeBroadphase::new();
    /// let unit = |x: f64| Aabb::new(Point::new(x, 0.0), Point::new(x + 1.0, 1.0));
    /// bp.insert(ProxyId(0), unit(0.0))?;
    /// bp.insert(ProxyId(1), unit(0.5))?;
    /// assert_eq!(bp.overlapping_pairs().len(), 1);
    /// // Both in category 2, which their masks refuse (Box2D's joint grid).
    /// let grid = CollisionFilter::new(2, !2);
    /// bp.set_filter(ProxyId(0), grid)?;
    /// bp.set_filter(ProxyId(1), grid)?;
    /// assert!(bp.overlapping_pairs().is_empty());
    /// // A shared positive group pairs them whatever the bits.
    /// bp.set_filter(ProxyId(1), grid.group(4))?;
    /// bp.set_filter(ProxyId(0), grid.group(4))?;
    /// assert_eq!(bp.overlapping_pairs().len(), 1);
    /// # Ok::<(), impact_broadphase::BroadphaseError>(())
    /// ```
    ///
    /// # Errors
    /// [`BroadphaseError::UnknownProxy`] (field `set_filter.id`) if `id` is absent.
    fn set_filter(&mut self, id: ProxyId, filter: CollisionFilter) -> Result<(), BroadphaseError> {
        let _ = filter;
        match self.fat_aabb(id) {
            Some(_) => Ok(()),
            None => Err(unknown_for_filter(id)),
        }
    }

    /// The per-step update: the new boxes of the proxies that moved this step, typically the
    /// swept box of each moving body over the step (`Aabb::swept`). Returns how many fat
    /// boxes changed. Either every entry is applied or, on error, none is.
    ///
    /// The default checks the whole batch and then calls [`Broadphase::update`] per entry; an
    /// index that can restructure in bulk (the R-tree rebuilds when enough moved) overrides it.
    ///
    /// # Errors
    /// As [`Broadphase::update`], with fields named `moved[i].id` and `moved[i].aabb`.
    fn update_batch(&mut self, moved: &[(ProxyId, Aabb)]) -> Result<usize, BroadphaseError> {
        for (i, (id, aabb)) in moved.iter().enumerate() {
            if self.fat_aabb(*id).is_none() {
                return Err(BroadphaseError::UnknownProxy {
                    field: format!("moved[{i}].id"),
                    id: *id,
                });
            }
            valid_aabb(&format!("moved[{i}].aabb"), aabb)?;
        }
        let mut changed = 0;
        for (id, aabb) in moved {
            changed += usize::from(self.update(*id, *aabb)?);
        }
        Ok(changed)
    }

    /// The number of proxies.
    fn len(&self) -> usize;

    /// Whether there is no proxy.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The fat box stored for `id`, or `None` if `id` is absent.
    fn fat_aabb(&self, id: ProxyId) -> Option<Aabb>;

    /// Every pair of proxies whose fat boxes overlap, each once with `a < b`, sorted.
    ///
    /// Takes `&mut self` because implementations update cached pairs lazily here.
    fn overlapping_pairs(&mut self) -> &[ProxyPair];

    /// Clears `out`, then fills it with the proxies whose fat boxes overlap `aabb`, sorted.
    ///
    /// # Errors
    /// `NotFinite` or `Inverted` for a bad `aabb` (field `aabb`); `out` is then empty.
    fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<ProxyId>) -> Result<(), BroadphaseError>;

    /// Clears `out`, then fills it with the proxies whose fat boxes the box `aabb` touches
    /// while it translates by `t * translation` for t in `[0, 1]`, sorted. This is the
    /// question continuous collision detection asks about a body's motion over a step.
    ///
    /// Tighter than querying the union of the start and end boxes: a long diagonal motion
    /// does not report boxes in the corners it never crosses. For a rotating body, pass the
    /// box of its bounding disc at the start and the translation of its centre.
    ///
    /// The default queries the union box and filters it; trees override it to prune nodes by
    /// the same test.
    ///
    /// # Errors
    /// `NotFinite` or `Inverted` (field `aabb`), `NotFinite` (fields `translation` and, when
    /// the end box overflows, `aabb + translation`).
    fn query_swept(
        &self,
        aabb: &Aabb,
        translation: &Vector,
        out: &mut Vec<ProxyId>,
    ) -> Result<(), BroadphaseError> {
        out.clear();
        check_swept(aabb, translation)?;
        filter_by_sweep(self, &SweptBox::new(aabb, translation), out)
    }

    /// Visits, nearest first, the proxies whose fat boxes the box `aabb` touches while it
    /// translates by `t * translation` for t in `[0, 1]`: exactly the proxies
    /// [`Broadphase::query_swept`] reports, each with its *entry*, the first t at which the
    /// moving box touches its fat box (by the same padded test, so never later than the true
    /// first touch). `visit(id, entry)` is called in increasing order of entry, then of
    /// handle, and returns the end of the sweep for the rest of the walk: proxies entered
    /// after the end are not visited. A returned value at or above the current end leaves it
    /// (`1.0` goes on unclipped); a negative or NaN value ends the walk.
    ///
    /// This is the walk of a nearest-first query: a ray or shape cast tests each visited
    /// proxy exactly and clips the sweep at its nearest hit so far, so it stops as soon as no
    /// nearer hit can remain. The order is a function of the fat boxes alone: every
    /// implementation visits the same proxies with the same entries in the same order.
    ///
    /// The default sorts the answer of [`Broadphase::query_swept`] by entry; trees override
    /// it with a best-first walk that opens only the nodes entered before the current end.
    ///
    /// # Errors
    /// As [`Broadphase::query_swept`]; nothing is visited then.
    fn visit_swept(
        &self,
        aabb: &Aabb,
        translation: &Vector,
        visit: &mut dyn FnMut(ProxyId, Real) -> Real,
    ) -> Result<(), BroadphaseError> {
        let mut ids = Vec::new();
        self.query_swept(aabb, translation, &mut ids)?;
        let sweep = SweptBox::new(aabb, translation);
        let mut entries: Vec<(Real, ProxyId)> = ids
            .iter()
            .filter_map(|&id| Some((sweep.entry_aabb(&self.fat_aabb(id)?)?, id)))
            .collect();
        entries.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut end: Real = 1.0;
        for (entry, id) in entries {
            if entry > end {
                break;
            }
            let next = visit(id, entry);
            if next.is_nan() || next < 0.0 {
                break;
            }
            end = end.min(next);
        }
        Ok(())
    }

    /// [`Broadphase::visit_swept`] in an order of the implementation's choosing: every proxy
    /// whose fat box the moving box enters no later than the end of the sweep is visited,
    /// once, with its entry, where the end starts at 1 and is clipped by what `visit`
    /// returns, as for [`Broadphase::visit_swept`] (a negative or NaN value ends the walk).
    /// A proxy entered after the end at the time it is reached is not visited.
    ///
    /// This is the walk of a query for the nearest hit, which needs every proxy that can hit
    /// before its best hit so far and no order among them: an index can answer it without a
    /// priority queue (the R-tree walks depth first, each node's children nearest first, so
    /// the end shrinks early). The default is [`Broadphase::visit_swept`].
    ///
    /// # Errors
    /// As [`Broadphase::query_swept`]; nothing is visited then.
    fn search_swept(
        &self,
        aabb: &Aabb,
        translation: &Vector,
        visit: &mut dyn FnMut(ProxyId, Real) -> Real,
    ) -> Result<(), BroadphaseError> {
        self.visit_swept(aabb, translation, visit)
    }

    /// Clears `out`, then fills it with the proxies whose fat boxes meet the segment from
    /// `origin` to `origin + max_fraction * dir`, sorted.
    ///
    /// The default is [`Broadphase::query_swept`] of a point box.
    ///
    /// # Errors
    /// `NotFinite` for `ray.origin`, `ray.dir`; `NotFinite` or `Negative` for
    /// `ray.max_fraction`.
    fn query_ray(
        &self,
        origin: &Point,
        dir: &Vector,
        max_fraction: Real,
        out: &mut Vec<ProxyId>,
    ) -> Result<(), BroadphaseError> {
        out.clear();
        check_ray(origin, dir, max_fraction)?;
        filter_by_sweep(self, &SweptBox::ray(origin, dir, max_fraction), out)
    }

    /// Clears `out`, then fills it with the proxies whose fat boxes hold `point` (boundary
    /// included), sorted.
    ///
    /// # Errors
    /// `NotFinite` for `point`.
    fn query_point(&self, point: &Point, out: &mut Vec<ProxyId>) -> Result<(), BroadphaseError> {
        out.clear();
        finite_point("point", point)?;
        self.query_aabb(&Aabb::new(*point, *point), out)
    }
}

/// Checks the parameters of a swept query.
///
/// The usual case inline: every number finite (their sum is, unless it overflows, which
/// only sends a good query to the full checks), the box not inverted, and the end box
/// representable; the checks that name the bad field run only when that fails (shape casts
/// call this once each, where the calls cost about 1.5% of the cast).
#[inline]
pub(crate) fn check_swept(aabb: &Aabb, translation: &Vector) -> Result<(), BroadphaseError> {
    let (lo, hi, t) = (aabb.mins, aabb.maxs, translation);
    let reach = |axis: usize| hi[axis].abs().max(lo[axis].abs()) + t[axis].abs();
    if (lo.x + lo.y + hi.x + hi.y + t.x + t.y).is_finite()
        && lo.x <= hi.x
        && lo.y <= hi.y
        && reach(0).max(reach(1)).is_finite()
    {
        return Ok(());
    }
    check_swept_slow(aabb, translation)
}

#[cold]
#[inline(never)]
fn check_swept_slow(aabb: &Aabb, translation: &Vector) -> Result<(), BroadphaseError> {
    valid_aabb("aabb", aabb)?;
    finite_vector("translation", translation)?;
    // The end box must be representable too, or the slab test would see infinities.
    let end = aabb.maxs.coords.abs().sup(&aabb.mins.coords.abs()) + translation.abs();
    finite(|| "aabb + translation".to_owned(), end.max())
}

/// Checks the parameters of a ray query.
pub(crate) fn check_ray(
    origin: &Point,
    dir: &Vector,
    max_fraction: Real,
) -> Result<(), BroadphaseError> {
    finite_point("ray.origin", origin)?;
    finite_vector("ray.dir", dir)?;
    non_negative("ray.max_fraction", max_fraction)?;
    // The segment's end must be representable too, or the slab test would see infinities.
    finite(
        || "ray.max_fraction * ray.dir".to_owned(),
        (dir * max_fraction).abs().max(),
    )
}

/// The entry of the box `aabb` translating by `t * translation` (t in `[0, 1]`) into
/// `target`: the first t at which it touches `target`, by the padded test of
/// [`Broadphase::query_swept`] (never later than the true first touch), or `None` if it never
/// does. The entries [`Broadphase::visit_swept`] reports, for a box that is not in the
/// broadphase (a scene query's bodies whose proxies do not hold them).
///
/// # Errors
/// As [`Broadphase::query_swept`] for `aabb` and `translation`; `NotFinite` or `Inverted`
/// naming `target`.
pub fn swept_entry(
    aabb: &Aabb,
    translation: &Vector,
    target: &Aabb,
) -> Result<Option<Real>, BroadphaseError> {
    check_swept(aabb, translation)?;
    valid_aabb("target", target)?;
    Ok(SweptBox::new(aabb, translation).entry_aabb(target))
}

/// The default swept and ray queries: the proxies whose fat boxes meet the swept box's
/// bounding box, kept only if the moving box really reaches them.
fn filter_by_sweep<B: Broadphase + ?Sized>(
    broadphase: &B,
    sweep: &SweptBox,
    out: &mut Vec<ProxyId>,
) -> Result<(), BroadphaseError> {
    broadphase.query_aabb(sweep.bound(), out)?;
    out.retain(|id| {
        broadphase
            .fat_aabb(*id)
            .is_some_and(|fat| sweep.hits_aabb(&fat))
    });
    Ok(())
}

/// The error of [`Broadphase::set_filter`] for an absent proxy.
pub(crate) fn unknown_for_filter(id: ProxyId) -> BroadphaseError {
    BroadphaseError::UnknownProxy {
        field: "set_filter.id".to_owned(),
        id,
    }
}
