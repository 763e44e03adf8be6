//! The warm-start cache: [`ContactCache`], the impulses of the last step by (body pair,
//! feature id), which a resting stack starts each step from instead of from zero.
//!
//! A sorted `Vec` of ([`CacheKey`], [`CachedImpulse`]), so that lookups are binary searches,
//! iteration and serialization go in key order, and nothing depends on hash order. The
//! solver reads it when it prepares the constraints (`contact::prepare`) and replaces its
//! content when the step is done ([`ContactCache::store`]).

use super::{ConstraintPoint, ContactConstraint, restitution};
#[cfg(doc)]
use crate::ContactSolver;
use crate::body_set::BodyHandle;
#[cfg(feature = "serde")]
use crate::error::SolverError;
use impact_geometry::Real;
use impact_narrowphase::ContactId;

/// The cached impulses of one contact point.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CachedImpulse {
    /// Accumulated normal impulse (per substep), zero or more.
    pub normal: Real,
    /// Accumulated tangent impulse (per substep), signed along the tangent.
    pub tangent: Real,
}

/// Which contact point an impulse is cached for: a body pair in canonical order (smaller
/// handle first), the places of their two shapes in that order, and the feature id seen from
/// that order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CacheKey {
    /// The smaller handle.
    pub a: BodyHandle,
    /// The larger handle.
    pub b: BodyHandle,
    /// The shapes of `a` and `b` (see [`ShapeId`](crate::ShapeId)): `[0, 0]` for bodies of
    /// one shape.
    #[cfg_attr(feature = "serde", serde(default))]
    pub shapes: [u32; 2],
    /// The feature id with `a` as the first shape.
    pub id: ContactId,
}

impl CacheKey {
    /// The key of contact `id` between `a` and `b` (`id` as seen with `a` first). Exchanging
    /// the bodies swaps the id and gives the same key; the impulses need no change, since the
    /// normal and the tangent both flip with the order.
    pub fn new(a: BodyHandle, b: BodyHandle, id: ContactId) -> Self {
        Self::of_shapes(a, b, [0, 0], id)
    }

    /// The key of contact `id` between shape `shapes[0]` of `a` and shape `shapes[1]` of `b`
    /// (`id` as seen with `a` first); exchanging the sides gives the same key.
    pub fn of_shapes(a: BodyHandle, b: BodyHandle, shapes: [u32; 2], id: ContactId) -> Self {
        if a <= b {
            Self { a, b, shapes, id }
        } else {
            Self {
                a: b,
                b: a,
                shapes: [shapes[1], shapes[0]],
                id: id.swapped(),
            }
        }
    }
}

/// Impulses of the last step by (body pair, feature id), for warm starting: a resting stack
/// starts each step with last step's answer instead of from zero, which is what lets a few
/// iterations hold it still.
///
/// A sorted `Vec` with binary search: lookups are `O(log n)`, iteration (and serialization)
/// is in key order, and nothing depends on hash order. [`ContactSolver::store_impulses`]
/// replaces the whole content, so pairs that stopped touching are forgotten and the cache
/// never grows past one step's contacts.
#[derive(Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "ContactCacheDef", into = "ContactCacheDef")
)]
pub struct ContactCache {
    entries: Vec<(CacheKey, CachedImpulse)>,
}

impl Clone for ContactCache {
    fn clone(&self) -> Self {
        Self {
            entries: self.entries.clone(),
        }
    }

    /// Reuses `self`'s storage: a world keeps a copy of its cache through every step.
    fn clone_from(&mut self, source: &Self) {
        self.entries.clone_from(&source.entries);
    }
}

impl ContactCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The cached impulses of contact `id` between `a` and `b` (any order).
    pub fn get(&self, a: BodyHandle, b: BodyHandle, id: ContactId) -> Option<CachedImpulse> {
        let key = CacheKey::new(a, b, id);
        self.entries
            .binary_search_by(|(k, _)| k.cmp(&key))
            .ok()
            .map(|i| self.entries[i].1)
    }

    /// Where the entries of the pair `a`, `b` (any order; all their shape pairs) are, in key
    /// order; the points of the pair are then found among these few entries.
    ///
    /// The search starts with a short scan forward from `from` when the pair cannot come
    /// before it, and falls back to a binary search: pairs usually arrive in key order, and
    /// passing the end of the previous pair's entries then finds the next pair in a step or
    /// two instead of a binary search over the whole cache.
    fn pair_range(&self, a: BodyHandle, b: BodyHandle, from: usize) -> core::ops::Range<usize> {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let below = |(k, _): &(CacheKey, CachedImpulse)| (k.a, k.b) < (lo, hi);
        let entries = &self.entries;
        let n = entries.len();
        let start = if from <= n && (from == 0 || below(&entries[from - 1])) {
            let scanned = (from + 4).min(n);
            match entries[from..scanned].iter().position(|e| !below(e)) {
                Some(k) => from + k,
                None => scanned + entries[scanned..].partition_point(below),
            }
        } else {
            entries.partition_point(below)
        };
        let len = entries[start..]
            .iter()
            .take_while(|(k, _)| k.a == lo && k.b == hi)
            .count();
        start..start + len
    }

    /// The entries of the pair `a`, `b` (any order) in key order, found from `from` as
    /// [`ContactCache::pair_range`] does, and where they end (the next pair's `from`).
    #[inline]
    pub(super) fn pair_entries(
        &self,
        a: BodyHandle,
        b: BodyHandle,
        from: usize,
    ) -> (&[(CacheKey, CachedImpulse)], usize) {
        let range = self.pair_range(a, b, from);
        let end = range.end;
        (&self.entries[range], end)
    }

    /// How many contact points are cached.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is cached.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Forgets the contacts of `body` (call when removing it, or after teleporting it).
    pub fn remove_body(&mut self, body: BodyHandle) {
        self.entries.retain(|(k, _)| k.a != body && k.b != body);
    }

    /// Moves the entries of the pairs `asleep` says sleep (it is asked of each entry's two
    /// bodies) into `out`, in order: a world keeps them aside while the island sleeps, so
    /// the step's stores, which replace the cache, do not drop them.
    pub fn take_asleep(
        &mut self,
        asleep: impl Fn(BodyHandle) -> bool,
        out: &mut Vec<(CacheKey, CachedImpulse)>,
    ) {
        self.entries.retain(|&(k, imp)| {
            let sleeps = asleep(k.a) || asleep(k.b);
            if sleeps {
                out.push((k, imp));
            }
            !sleeps
        });
    }

    /// Puts entries taken by [`ContactCache::take_asleep`] back (they are merged in key
    /// order; an entry whose key is already present is dropped).
    pub fn restore(&mut self, entries: &[(CacheKey, CachedImpulse)]) {
        if entries.is_empty() {
            return;
        }
        self.entries.extend_from_slice(entries);
        self.entries.sort_by_key(|e| e.0);
        self.entries.dedup_by(|later, first| later.0 == first.0);
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (CacheKey, CachedImpulse)> + '_ {
        self.entries.iter().copied()
    }
}

impl ContactCache {
    /// Replaces the content with the accumulated impulses of `constraints` (a step's, once
    /// it is done), for the next step's warm start; `threshold` is the restitution
    /// threshold the step ran with. What
    /// [`ContactSolver::store_impulses`] does.
    pub(super) fn store(&mut self, constraints: &[ContactConstraint], threshold: Real) {
        self.entries.clear();
        // Each constraint's entries on their own: in runs on rayon's threads with the
        // `parallel` feature, appended in constraint order (the same entries).
        #[cfg(feature = "parallel")]
        if constraints.len() >= 2048 && rayon::current_num_threads() >= 2 {
            use rayon::prelude::*;
            let runs: Vec<Vec<(CacheKey, CachedImpulse)>> = constraints
                .par_chunks(1024)
                .map(|run| {
                    let mut out = Vec::with_capacity(2 * run.len());
                    for c in run {
                        entries_of(c, threshold, &mut out);
                    }
                    out
                })
                .collect();
            for run in runs {
                self.entries.extend_from_slice(&run);
            }
            self.sort_and_dedup();
            return;
        }
        for c in constraints {
            entries_of(c, threshold, &mut self.entries);
        }
        self.sort_and_dedup();
    }

    /// Puts the entries in key order, keeping the first of equal keys.
    fn sort_and_dedup(&mut self) {
        // Stable sort, then keep the first of duplicate keys (the same pair given twice):
        // which one survives depends only on the caller's order. Pairs from a broadphase
        // come sorted already, and the check is cheaper than the sort.
        if !self.entries.is_sorted_by_key(|e| e.0) {
            self.entries.sort_by_key(|e| e.0);
        }
        self.entries.dedup_by(|later, first| later.0 == first.0);
    }
}

/// The cache entries of constraint `c` into `out`, its points in key order, with
/// `threshold` the step's restitution threshold.
#[inline(always)]
fn entries_of(c: &ContactConstraint, threshold: Real, out: &mut Vec<(CacheKey, CachedImpulse)>) {
    let entry = |p: &ConstraintPoint| {
        // A point that bounced leaves: the impulse that stopped its approach has
        // nothing left to hold, and replayed next step it would push the bodies
        // apart a second time (energy the soft passes only partly take back). A
        // point that only passed a bounce on (a disc pressed against a wall) stays
        // and keeps its impulse.
        let bounced = restitution::bounced(c, p, threshold);
        (
            CacheKey::of_shapes(c.a, c.b, c.shapes, p.id),
            if bounced {
                CachedImpulse::default()
            } else {
                CachedImpulse {
                    normal: p.normal_impulse,
                    tangent: p.tangent_impulse,
                }
            },
        )
    };
    match *c.points() {
        // The points of a pair in key order, so that pairs in order need no sort
        // (equal keys keep their order, as the stable sort would).
        [ref p, ref q]
            if CacheKey::of_shapes(c.a, c.b, c.shapes, p.id)
                > CacheKey::of_shapes(c.a, c.b, c.shapes, q.id) =>
        {
            out.push(entry(q));
            out.push(entry(p));
        }
        ref points => out.extend(points.iter().map(entry)),
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct ContactCacheDef {
    entries: Vec<(CacheKey, CachedImpulse)>,
}

#[cfg(feature = "serde")]
impl TryFrom<ContactCacheDef> for ContactCache {
    type Error = SolverError;
    fn try_from(d: ContactCacheDef) -> Result<Self, SolverError> {
        for (i, (key, imp)) in d.entries.iter().enumerate() {
            crate::error::non_negative(&format!("cache.entries[{i}].normal"), imp.normal)?;
            crate::error::finite(&format!("cache.entries[{i}].tangent"), imp.tangent)?;
            if key.a >= key.b || (i > 0 && d.entries[i - 1].0 >= *key) {
                return Err(SolverError::OutOfRange {
                    field: format!("cache.entries[{i}]"),
                    value: i as Real,
                    expected: "keys in strictly increasing order with a < b",
                });
            }
        }
        Ok(Self { entries: d.entries })
    }
}

#[cfg(feature = "serde")]
impl From<ContactCache> for ContactCacheDef {
    fn from(c: ContactCache) -> Self {
        Self { entries: c.entries }
    }
}
