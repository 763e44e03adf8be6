//! The sequential-impulse contact solver (Box2D v3's soft step) and its warm-starting cache.
//!
//! One [`ContactConstraint`] per manifold, in the caller's order. Each point carries its lever
//! arms from both centres of mass, its normal and tangent effective masses with the full
//! angular terms of seed 003,
//!
//! ```text
//! k_n = 1/m_a + 1/m_b + (r_a x n)^2 / I_a + (r_b x n)^2 / I_b,   normal_mass = 1 / k_n
//! ```
//!
//! (in 2D, `(I^-1 (r x n) x r) . n = (r x n)^2 / I`), and accumulated normal and tangent
//! impulses clamped per point: `normal >= 0`, `|tangent| <= mu * normal` (Coulomb).

use crate::body::{BodyType, RigidBody, advance_pose};
use crate::body_set::{BodyHandle, BodySet};
use crate::error::{SolverError, finite_vector, positive};
use crate::integrate::integrate_velocity;
use crate::material::{Material, combine_friction, combine_restitution};
use crate::settings::{Softness, SolverSettings};
use impact_geometry::{Isometry, Point, Real, Rotation, Shape, Vector, cross, cross_scalar_vector};
use impact_narrowphase::{ContactId, Manifold};

mod gate;
mod packed;
mod restitution;
mod spare;

/// A manifold between two bodies: what the narrowphase produced for the pair, with the
/// normal pointing from `a` toward `b`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactPair {
    /// The body the manifold normal points away from.
    pub a: BodyHandle,
    /// The body the manifold normal points toward.
    pub b: BodyHandle,
    /// The contact points, from
    /// [`contact_manifold`](impact_narrowphase::contact_manifold) with `a`'s shape and pose
    /// first.
    pub manifold: Manifold,
    /// Where `b` was when the manifold was computed, relative to its pose: zero, except in a
    /// periodic domain, where the manifold is between `a` and the image of `b` translated by
    /// a whole number of periods. Lever arms of `b` are taken from that image.
    #[cfg_attr(feature = "serde", serde(default))]
    pub offset: Vector,
    /// The friction and restitution of this contact for this step, in place of the
    /// combination of its bodies' materials (see [`Material`](crate::Material)); `None`, the
    /// usual case, combines them. A pre-solve hook sets it (a one-way platform's contact
    /// without friction, a conveyor's bounce).
    #[cfg_attr(feature = "serde", serde(default))]
    pub material: Option<Material>,
}

impl ContactPair {
    /// The combined friction and restitution of the contact: [`ContactPair::material`] if
    /// set, else the combination of the two bodies' materials (see
    /// [`Material`](crate::Material)), `(friction, restitution)`.
    #[inline]
    pub fn coefficients(&self, body_a: &RigidBody, body_b: &RigidBody) -> (Real, Real) {
        match &self.material {
            Some(m) => (m.friction(), m.restitution()),
            None => (
                combine_friction(body_a.material().friction(), body_b.material().friction()),
                combine_restitution(
                    body_a.material().restitution(),
                    body_b.material().restitution(),
                ),
            ),
        }
    }
}

/// The tangent of a contact: the normal turned a quarter turn clockwise, `(n.y, -n.x)`, as in
/// Box2D. Tangent impulses are signed along it.
#[inline]
pub fn contact_tangent(normal: &Vector) -> Vector {
    Vector::new(normal.y, -normal.x)
}

/// One point of a [`ContactConstraint`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ConstraintPoint {
    r_a: Vector,
    r_b: Vector,
    separation0: Real,
    normal_mass: Real,
    tangent_mass: Real,
    relative_velocity: Real,
    normal_impulse: Real,
    tangent_impulse: Real,
    max_normal_impulse: Real,
    /// Seconds from the step's start to the substep the point first pushed in: the free
    /// flight that gravity adds to the approach velocity restitution reverses.
    free_time: Real,
    /// What the restitution pass added on top of `normal_impulse`, kept apart so the next
    /// step's warm start does not replay a bounce.
    restitution_impulse: Real,
    /// What the restitution pass added to the friction impulse where it bounced (see
    /// `restitution::friction`), kept apart like `restitution_impulse`.
    restitution_tangent_impulse: Real,
    /// The normal and tangent impulses the soft solve applied over the whole step: every
    /// substep's, where `normal_impulse` is the last substep's only. Counted only when a
    /// constraint has restitution, and known once the restitution pass started, which bounds
    /// friction at a bounce by the whole normal impulse (see `packed::Applied`).
    solve_normal_impulse: Real,
    solve_tangent_impulse: Real,
    id: ContactId,
    /// `r_a x n`, `r_b x n`, `r_a x t`, `r_b x t`: what a unit impulse along the normal or
    /// the tangent does to each body's spin, and what its spin does to the relative
    /// velocity there, fixed for the step like the lever arms.
    rn_a: Real,
    rn_b: Real,
    rt_a: Real,
    rt_b: Real,
    /// The separation where the bodies are now, measured between the core anchors (see
    /// `ContactConstraint::core_anchors`): once per position of the bodies (once per
    /// substep), not per iteration. The impulses act at the prepared lever arms for the whole
    /// step; see `current_separation`.
    separation: Real,
}

impl ConstraintPoint {
    /// Lever arm from A's centre of mass to the contact point (world frame, at preparation).
    #[inline]
    pub fn r_a(&self) -> Vector {
        self.r_a
    }

    /// Lever arm from B's centre of mass to the contact point (world frame, at preparation).
    #[inline]
    pub fn r_b(&self) -> Vector {
        self.r_b
    }

    /// `1 / k_n`: the normal impulse that changes the normal relative velocity by 1 (zero when
    /// both bodies have infinite mass).
    #[inline]
    pub fn normal_mass(&self) -> Real {
        self.normal_mass
    }

    /// `1 / k_t`, the same along the tangent.
    #[inline]
    pub fn tangent_mass(&self) -> Real {
        self.tangent_mass
    }

    /// The normal relative velocity (`(v_b - v_a) . n` at the point, negative when
    /// approaching) the bodies would have had, flying free from the step's start, at the
    /// substep the contact first pushed: the velocity restitution reverses. Known once the
    /// restitution pass ran; before, the velocity at the step's start.
    ///
    /// Free flight, not the velocity the solver had reached by then, so that every point's
    /// approach is read off the same state: a disc squeezed between a wall and another disc
    /// would otherwise have the wall's push counted in its approach to the disc and bounce
    /// off both with more energy than it came with.
    #[inline]
    pub fn relative_velocity(&self) -> Real {
        self.relative_velocity
    }

    /// The accumulated normal impulse of the current substep (zero or more; B receives
    /// `+normal_impulse * n`, A the opposite).
    #[inline]
    pub fn normal_impulse(&self) -> Real {
        self.normal_impulse
    }

    /// The accumulated tangent impulse of the current substep, signed along
    /// [`contact_tangent`].
    #[inline]
    pub fn tangent_impulse(&self) -> Real {
        self.tangent_impulse
    }

    /// The largest single normal impulse applied this step: zero means the contact never
    /// pushed (it stayed speculative), and restitution skips it.
    #[inline]
    pub fn max_normal_impulse(&self) -> Real {
        self.max_normal_impulse
    }

    /// The normal impulse the restitution pass applied on top of
    /// [`normal_impulse`](Self::normal_impulse) (zero or more): the bounce. It is not cached
    /// for warm starting, since the next step must not bounce again.
    #[inline]
    pub fn restitution_impulse(&self) -> Real {
        self.restitution_impulse
    }

    /// The friction impulse the restitution pass added where the point bounced, signed
    /// along [`contact_tangent`] (zero where it did not, or without friction): with the
    /// bounce, Coulomb's bound grows to `mu` times the whole normal impulse of the step,
    /// restitution included, and friction is solved again up to it, no further than where
    /// the slip stops (see [`ContactSolver::apply_restitution`]). Not cached for warm
    /// starting, like [`restitution_impulse`](Self::restitution_impulse).
    #[inline]
    pub fn restitution_tangent_impulse(&self) -> Real {
        self.restitution_tangent_impulse
    }

    /// The feature id the impulses are cached under.
    #[inline]
    pub fn id(&self) -> ContactId {
        self.id
    }
}

/// The solver's view of one manifold.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactConstraint {
    a: BodyHandle,
    b: BodyHandle,
    /// Indices into the solver's body arrays.
    state_a: u32,
    state_b: u32,
    normal: Vector,
    friction: Real,
    restitution: Real,
    softness: Softness,
    points: [ConstraintPoint; 2],
    count: usize,
    /// Where B's image is relative to B (see [`ContactPair::offset`]).
    offset: Vector,
    /// The radii of A's and B's shapes: how far each surface is from its core.
    radii: (Real, Real),
    /// Whether A's and B's shapes are segments, which have no inside (see
    /// `gate::Certificate`).
    thin: (bool, bool),
}

impl ContactConstraint {
    /// Lever arms from A's and B's centres of mass to the *core* anchors of point `p` at
    /// preparation: the manifold point moved onto each body's core, by half the separation
    /// plus the body's radius along the normal (a disc's centre, a polygon's surface). The
    /// separation is measured between these points turned with their bodies: a core point
    /// is the one point of a round body that its spin does not carry away from the contact.
    #[inline]
    fn core_anchors(&self, p: &ConstraintPoint) -> (Vector, Vector) {
        let half = 0.5 * p.separation0;
        (
            p.r_a - self.normal * (half + self.radii.0),
            p.r_b + self.normal * (half + self.radii.1),
        )
    }

    /// The two bodies, normal pointing from the first to the second.
    #[inline]
    pub fn bodies(&self) -> (BodyHandle, BodyHandle) {
        (self.a, self.b)
    }

    /// The unit normal from A toward B.
    #[inline]
    pub fn normal(&self) -> Vector {
        self.normal
    }

    /// The combined friction coefficient (see [`Material`](crate::Material)).
    #[inline]
    pub fn friction(&self) -> Real {
        self.friction
    }

    /// The combined restitution (see [`Material`](crate::Material)).
    #[inline]
    pub fn restitution(&self) -> Real {
        self.restitution
    }

    /// The one or two points.
    #[inline]
    pub fn points(&self) -> &[ConstraintPoint] {
        &self.points[..self.count]
    }
}

/// The solver's hot view of a body: velocities and inverse masses, all the iterations touch
/// (48 bytes, one compact array indexed by the constraints).
#[derive(Debug, Clone, Copy, Default)]
struct SolverBody {
    v: Vector,
    w: Real,
    inv_mass: Real,
    inv_inertia: Real,
}

/// The rest of what the solver knows of a body: where it was at preparation, how far it moved
/// since (for the current separation), and what the solver needs to integrate it itself in
/// [`ContactSolver::step`].
#[derive(Debug, Clone, Copy)]
struct BodyState {
    handle: BodyHandle,
    body_type: BodyType,
    center0: Point,
    rotation0: Rotation,
    /// Displacement of the centre of mass since preparation.
    dp: Vector,
    /// Rotation since preparation, as (cos, sin).
    dq: (Real, Real),
    /// How far that rotation moves the end of a unit lever, `|dq - 1|` (see
    /// `gate::Certificate`).
    chord: Real,
    /// The body's pose and velocities as last gathered or integrated by the solver (for
    /// static and kinematic bodies the velocities never change within a step).
    pose: Isometry,
    linvel: Vector,
    angvel: Real,
    local_center: Point,
    linear_damping: Real,
    angular_damping: Real,
    /// A dynamic body's velocities at the start of the current substep, and after its
    /// gravity and damping: if no contact changed them since, the body flies free over the
    /// substep and moves on the exact path of that change (see
    /// [`ContactSolver::integrate_solver_positions`]).
    flight: [(Vector, Real); 2],
}

impl BodyState {
    /// Displacement and rotation since preparation from the current `pose`: what
    /// [`ContactSolver::gather`] reads from the body, operation for operation.
    #[inline]
    fn update_motion(&mut self) {
        self.dp = self.pose * self.local_center - self.center0;
        let rotation = self.pose.rotation;
        (self.dq, self.chord) = if rotation == self.rotation0 {
            ((1.0, 0.0), 0.0)
        } else {
            let d = rotation * self.rotation0.inverse();
            let (c, s) = (d.re - 1.0, d.im);
            ((d.re, d.im), (c * c + s * s).sqrt())
        };
    }
}

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
/// handle first) and the feature id seen from that order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CacheKey {
    /// The smaller handle.
    pub a: BodyHandle,
    /// The larger handle.
    pub b: BodyHandle,
    /// The feature id with `a` as the first shape.
    pub id: ContactId,
}

impl CacheKey {
    /// The key of contact `id` between `a` and `b` (`id` as seen with `a` first). Exchanging
    /// the bodies swaps the id and gives the same key; the impulses need no change, since the
    /// normal and the tangent both flip with the order.
    pub fn new(a: BodyHandle, b: BodyHandle, id: ContactId) -> Self {
        if a <= b {
            Self { a, b, id }
        } else {
            Self {
                a: b,
                b: a,
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

    /// Where the entries of the pair `a`, `b` (any order) are, in key order; the points of
    /// the pair are then found among these few entries.
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

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (CacheKey, CachedImpulse)> + '_ {
        self.entries.iter().copied()
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

/// The sequential-impulse contact solver for one step, in Box2D v3's soft-step form.
///
/// Build it with [`ContactSolver::new`] from the manifolds of the step (this prepares the
/// constraints, captures the approach velocities for restitution and loads warm-starting
/// impulses from the cache), then either run the whole step with [`ContactSolver::step`], or
/// drive the stages yourself, as a stepper that moves bodies its own way does:
///
/// ```text
/// for each of settings.substeps substeps of length h = dt / substeps:
///     integrate_velocities(bodies, gravity, h)
///     solver.warm_start(bodies)          // re-apply the accumulated impulses
///     solver.solve_velocities(bodies)    // soft: push overlap out, stop speculative approach
///     integrate_positions(bodies, h)     // or the stepper's own motion (sweeps, clamping)
///     solver.relax_velocities(bodies)    // rigid: remove the push-out velocity
/// solver.apply_restitution(bodies, gravity)
/// solver.store_impulses(cache)
/// ```
///
/// Every stage validates the handles it was prepared with and returns
/// [`SolverError::UnknownBody`] (changing nothing) if a body was removed in between.
/// Constraints are solved in the order of the pairs given to [`ContactSolver::new`]: the
/// sweeps visit them in an order that only reorders constraints without a body in common,
/// which gives the same result bit for bit.
#[derive(Debug, Clone)]
pub struct ContactSolver {
    constraints: Vec<ContactConstraint>,
    /// Velocities and inverse masses, indexed like `states`.
    solver_bodies: Vec<SolverBody>,
    states: Vec<BodyState>,
    /// Body slot -> index into `states` (`u32::MAX`: not in any constraint).
    state_of: Vec<u32>,
    /// The constraints in the order the per-point passes visit them (see [`sweep_order`]),
    /// one field per four-wide vector; while a stage runs, their impulses,
    /// separations and approach velocities live here (see [`packed`]).
    chunks: Vec<packed::Chunk>,
    /// The lever arms and separations at preparation of the chunks' points, for the
    /// separations.
    anchors: Vec<packed::Anchors>,
    /// Per point of the chunks, the impulses applied so far, less those the points hold now
    /// (see [`packed::Applied`]): counted only when a constraint has restitution (then
    /// `start_velocities` is not empty), for the friction of the restitution pass.
    applied: Vec<[packed::Applied; 2]>,
    settings: SolverSettings,
    dt: Real,
    h: Real,
    inv_h: Real,
    /// The bodies' velocities at preparation, kept when a constraint has restitution: the
    /// restitution pass bounds the energy of a bounce by the energy the bodies came with.
    start_velocities: Vec<SolverBody>,
    /// The sweep order the chunks were packed in, kept only for its storage (see [`spare`]).
    order: spare::SweepOrder,
    /// The restitution pass's buffers (packed points, islands), kept only for their storage.
    restitution_scratch: restitution::Scratch,
    /// Whether the chunks still hold the separations and certificates of preparation (see
    /// `gather`).
    prepared: bool,
}

impl Drop for ContactSolver {
    fn drop(&mut self) {
        spare::give(spare::Buffers {
            constraints: core::mem::take(&mut self.constraints),
            solver_bodies: core::mem::take(&mut self.solver_bodies),
            states: core::mem::take(&mut self.states),
            state_of: core::mem::take(&mut self.state_of),
            start_velocities: core::mem::take(&mut self.start_velocities),
            chunks: core::mem::take(&mut self.chunks),
            anchors: core::mem::take(&mut self.anchors),
            applied: core::mem::take(&mut self.applied),
            order: core::mem::take(&mut self.order),
            restitution_scratch: core::mem::take(&mut self.restitution_scratch),
        });
    }
}

impl ContactSolver {
    /// Prepares the constraints of `pairs` (in that order) for a step of `dt` seconds.
    ///
    /// Empty manifolds, and pairs where neither body is dynamic, produce no constraint.
    /// Impulses cached for the same (pair, feature) are loaded when
    /// `settings.warm_starting` is on.
    ///
    /// # Errors
    /// [`SolverError`] naming `settings.*` (see [`SolverSettings::validate`]), `dt` (not
    /// positive and finite), `pairs[i].a` / `pairs[i].b` (stale handle), `pairs[i]` (both
    /// sides the same body), `pairs[i].manifold.normal` (not a finite unit vector) or
    /// `pairs[i].manifold.points[k]` (not finite).
    pub fn new(
        bodies: &BodySet,
        pairs: &[ContactPair],
        cache: &ContactCache,
        settings: &SolverSettings,
        dt: Real,
    ) -> Result<Self, SolverError> {
        settings.validate()?;
        positive("dt", dt)?;
        let h = dt / Real::from(settings.substeps);
        let inv_h = 1.0 / h;
        // Above a quarter of the substep rate the implicit spring no longer settles in a few
        // substeps; Box2D v3 clamps the same way.
        let hertz = settings.contact_hertz.min(0.25 * inv_h);
        let soft = Softness::new(hertz, settings.contact_damping_ratio, h);
        // Against an infinite mass only one body moves, so the contact can be twice as stiff
        // for the same stability (Box2D v3's static softness).
        let static_soft = Softness::new(2.0 * hertz, settings.contact_damping_ratio, h);

        let spare::Buffers {
            mut constraints,
            mut solver_bodies,
            mut states,
            // Slot index -> state index; a dense table, so lookups do not depend on hash order.
            mut state_of,
            mut start_velocities,
            mut chunks,
            mut anchors,
            mut applied,
            mut order,
            restitution_scratch,
        } = spare::take();
        constraints.reserve(pairs.len());
        // Where the previous pair's cache entries end.
        let mut cache_cursor = 0;

        for (i, pair) in pairs.iter().enumerate() {
            if pair.a == pair.b {
                return Err(SolverError::SameBody {
                    field: format!("pairs[{i}]"),
                    handle: pair.a,
                });
            }
            let body_a = bodies.get(pair.a).ok_or_else(|| SolverError::UnknownBody {
                field: format!("pairs[{i}].a"),
                handle: pair.a,
            })?;
            let body_b = bodies.get(pair.b).ok_or_else(|| SolverError::UnknownBody {
                field: format!("pairs[{i}].b"),
                handle: pair.b,
            })?;
            validate_manifold(i, &pair.manifold)?;
            if !(pair.offset.x.is_finite() && pair.offset.y.is_finite()) {
                finite_vector(&format!("pairs[{i}].offset"), &pair.offset)?;
            }
            if pair.manifold.is_empty() || (!body_a.is_dynamic() && !body_b.is_dynamic()) {
                continue;
            }
            let mut state_index = |handle: BodyHandle, body: &crate::RigidBody| -> usize {
                let slot = handle.index as usize;
                if state_of.len() <= slot {
                    state_of.resize(slot + 1, u32::MAX);
                }
                if state_of[slot] == u32::MAX {
                    state_of[slot] = states.len() as u32;
                    states.push(BodyState {
                        handle,
                        body_type: body.body_type(),
                        center0: body.center_of_mass(),
                        rotation0: body.pose().rotation,
                        dp: Vector::zeros(),
                        dq: (1.0, 0.0),
                        chord: 0.0,
                        pose: *body.pose(),
                        linvel: body.linvel(),
                        angvel: body.angvel(),
                        local_center: body.local_center(),
                        linear_damping: body.linear_damping(),
                        angular_damping: body.angular_damping(),
                        flight: [(Vector::zeros(), 0.0); 2],
                    });
                    solver_bodies.push(SolverBody {
                        v: body.linvel(),
                        w: body.angvel(),
                        inv_mass: body.inv_mass(),
                        inv_inertia: body.inv_inertia(),
                    });
                }
                state_of[slot] as usize
            };
            let state_a = state_index(pair.a, body_a);
            let state_b = state_index(pair.b, body_b);
            let (sa, sb) = (&states[state_a], &states[state_b]);
            let (va, vb) = (&solver_bodies[state_a], &solver_bodies[state_b]);
            let cached_pair = if settings.warm_starting {
                let range = cache.pair_range(pair.a, pair.b, cache_cursor);
                cache_cursor = range.end;
                &cache.entries[range]
            } else {
                &[]
            };

            let normal = pair.manifold.normal;
            let tangent = contact_tangent(&normal);
            let (shape_a, shape_b) = (body_a.shape(), body_b.shape());
            let (radius_a, radius_b) = (shape_a.radius(), shape_b.radius());
            let (ma, ia, mb, ib) = (va.inv_mass, va.inv_inertia, vb.inv_mass, vb.inv_inertia);
            let mut points = [ConstraintPoint::default(); 2];
            let manifold_points = pair.manifold.points();
            for (p, mp) in points.iter_mut().zip(manifold_points) {
                let r_a = mp.point - sa.center0;
                let r_b = mp.point - (sb.center0 + pair.offset);
                let rn_a = cross(&r_a, &normal);
                let rn_b = cross(&r_b, &normal);
                let k_normal = ma + mb + ia * rn_a * rn_a + ib * rn_b * rn_b;
                let rt_a = cross(&r_a, &tangent);
                let rt_b = cross(&r_b, &tangent);
                let k_tangent = ma + mb + ia * rt_a * rt_a + ib * rt_b * rt_b;
                let dv =
                    vb.v + cross_scalar_vector(vb.w, &r_b) - va.v - cross_scalar_vector(va.w, &r_a);
                let key = CacheKey::new(pair.a, pair.b, mp.id);
                let cached = cached_pair
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|e| e.1)
                    .unwrap_or_default();
                *p = ConstraintPoint {
                    r_a,
                    r_b,
                    separation0: mp.separation,
                    normal_mass: inverse_or_zero(k_normal),
                    tangent_mass: inverse_or_zero(k_tangent),
                    relative_velocity: dv.dot(&normal),
                    normal_impulse: cached.normal,
                    tangent_impulse: cached.tangent,
                    max_normal_impulse: 0.0,
                    free_time: 0.0,
                    restitution_impulse: 0.0,
                    restitution_tangent_impulse: 0.0,
                    solve_normal_impulse: 0.0,
                    solve_tangent_impulse: 0.0,
                    id: mp.id,
                    rn_a,
                    rn_b,
                    rt_a,
                    rt_b,
                    separation: mp.separation,
                };
            }
            let infinite_side = ma == 0.0 || mb == 0.0;
            let (friction, restitution) = pair.coefficients(body_a, body_b);
            constraints.push(ContactConstraint {
                a: pair.a,
                b: pair.b,
                state_a: state_a as u32,
                state_b: state_b as u32,
                normal,
                friction,
                restitution,
                softness: if infinite_side { static_soft } else { soft },
                points,
                count: manifold_points.len(),
                offset: pair.offset,
                radii: (radius_a, radius_b),
                thin: (
                    matches!(shape_a, Shape::Segment(_)),
                    matches!(shape_b, Shape::Segment(_)),
                ),
            });
        }
        sweep_order(&constraints, states.len(), &mut order);
        packed::pack(
            &constraints,
            &solver_bodies,
            &order.order,
            &order.chunk_starts,
            &mut chunks,
            &mut anchors,
        );
        if constraints.iter().any(|c| c.restitution != 0.0) {
            start_velocities.extend_from_slice(&solver_bodies);
            packed::start_applied(&chunks, &mut applied);
        }
        Ok(Self {
            start_velocities,
            order,
            restitution_scratch,
            constraints,
            solver_bodies,
            states,
            state_of,
            chunks,
            anchors,
            applied,
            settings: *settings,
            dt,
            h,
            inv_h,
            prepared: true,
        })
    }

    /// The constraints, in the order of the pairs they came from.
    #[inline]
    pub fn constraints(&self) -> &[ContactConstraint] {
        &self.constraints
    }

    /// The settings the solver was prepared with.
    #[inline]
    pub fn settings(&self) -> &SolverSettings {
        &self.settings
    }

    /// The step length (seconds).
    #[inline]
    pub fn dt(&self) -> Real {
        self.dt
    }

    /// The substep length `dt / substeps` (seconds): the `h` each stage assumes.
    #[inline]
    pub fn substep(&self) -> Real {
        self.h
    }

    /// The whole soft step for every body of `bodies`: per substep, gravity, warm start,
    /// biased solve, position integration and relax; then restitution. Bodies without
    /// contacts are integrated too. Call [`ContactSolver::store_impulses`] afterwards to warm
    /// start the next step.
    ///
    /// The bodies of the constraints are read once, integrated in the solver's own compact
    /// arrays and written back once at the end. The velocities are bit for bit those of
    /// running the stages below one after the other
    /// ([`integrate_velocities`](crate::integrate_velocities), [`ContactSolver::warm_start`],
    /// ..., [`integrate_positions`](crate::integrate_positions)), which share their arithmetic
    /// with this loop; so are the poses of bodies that a contact pushed. A body that flies
    /// free over a substep (no contact, or none that pushed it) moves along the mean of the
    /// substep's start and end velocities instead of the end one: the exact path of constant
    /// acceleration, so free flight under gravity keeps `y + v_y^2 / (2 |g|)` to rounding,
    /// where semi-implicit Euler would lose `|g| h^2 / 2` of it per substep `h` (a bouncing
    /// ball's apex would sink at every bounce). Bodies a contact pushes move along their
    /// solved velocities, which is what lets a speculative contact stop them at the surface.
    ///
    /// # Errors
    /// [`SolverError`] naming `gravity` (not finite), or `solver.bodies` if a body of a
    /// constraint was removed since preparation; nothing is changed then.
    pub fn step(&mut self, bodies: &mut BodySet, gravity: Vector) -> Result<(), SolverError> {
        finite_vector("gravity", &gravity)?;
        self.gather(bodies)?;
        let _span = tracing::trace_span!(
            "contact_solver",
            constraints = self.constraints.len(),
            substeps = self.settings.substeps
        )
        .entered();
        let h = self.h;
        let dv = gravity * h;
        for _ in 0..self.settings.substeps {
            self.integrate_solver_velocities(&dv);
            self.warm_start_constraints();
            self.capture_free_flight();
            for _ in 0..self.settings.velocity_iterations {
                self.iterate(true, bodies);
            }
            self.integrate_solver_positions();
            self.reset_fixed_velocities();
            for _ in 0..self.settings.relax_iterations {
                self.iterate(false, bodies);
            }
        }
        self.reset_fixed_velocities();
        packed::store_dynamic(&self.chunks, &mut self.constraints);
        self.restitution_constraints(&gravity);

        // Write back the bodies of the constraints, then move the others on their own: each
        // body's substeps depend on nothing but itself.
        for (s, sb) in self.states.iter().zip(&self.solver_bodies) {
            if s.body_type == BodyType::Static {
                continue;
            }
            if let Some(body) = bodies.get_mut(s.handle) {
                if s.body_type == BodyType::Dynamic {
                    body.set_velocity_unchecked(sb.v, sb.w);
                }
                body.set_pose_unchecked(s.pose);
            }
        }
        for (handle, body) in bodies.iter_mut() {
            let slot = handle.index as usize;
            if self.state_of.get(slot).is_some_and(|&i| i != u32::MAX) {
                continue;
            }
            match body.body_type() {
                BodyType::Static => {}
                BodyType::Kinematic => {
                    for _ in 0..self.settings.substeps {
                        body.advance(h);
                    }
                }
                BodyType::Dynamic => {
                    for _ in 0..self.settings.substeps {
                        let (v0, w0) = (body.linvel(), body.angvel());
                        let (v, w) = integrate_velocity(
                            v0,
                            w0,
                            &dv,
                            h,
                            body.linear_damping(),
                            body.angular_damping(),
                        );
                        body.set_velocity_unchecked(v, w);
                        body.advance_free(h, &v0, w0);
                    }
                }
            }
        }
        Ok(())
    }

    /// Applies the accumulated impulses to the bodies: the previous step's (from the cache)
    /// on the first substep, the previous substep's afterwards.
    ///
    /// # Errors
    /// [`SolverError::UnknownBody`] if a body was removed since preparation.
    pub fn warm_start(&mut self, bodies: &mut BodySet) -> Result<(), SolverError> {
        self.gather(bodies)?;
        self.warm_start_constraints();
        self.scatter(bodies);
        packed::store_dynamic(&self.chunks, &mut self.constraints);
        Ok(())
    }

    /// Runs `settings.velocity_iterations` iterations with the soft position bias: overlap is
    /// pushed out (at most `max_push_out_velocity`), speculative contacts let the bodies
    /// close the gap and no more, friction is clamped to the cone. A point's normal impulse
    /// rises only while its bodies are within the linear slop of each other or come within it
    /// over the next substep at their current velocities (see the crate documentation).
    ///
    /// Before the first iteration, contacts that have not pushed yet this step count one
    /// more substep of free flight, so restitution reverses the approach at the substep they
    /// touch rather than the one at the start of the step (a falling ball would otherwise
    /// lose up to `g * dt` of its bounce); see [`ConstraintPoint::relative_velocity`].
    ///
    /// # Errors
    /// [`SolverError::UnknownBody`] if a body was removed since preparation.
    pub fn solve_velocities(&mut self, bodies: &mut BodySet) -> Result<(), SolverError> {
        self.gather(bodies)?;
        self.capture_free_flight();
        for _ in 0..self.settings.velocity_iterations {
            self.iterate(true, bodies);
        }
        self.scatter(bodies);
        packed::store_dynamic(&self.chunks, &mut self.constraints);
        Ok(())
    }

    /// Runs `settings.relax_iterations` iterations without the position bias, after positions
    /// were integrated: the velocity used to push overlap out is taken back, so position
    /// correction never becomes kinetic energy. Points still apart (speculative) are left
    /// alone: the next biased pass caps their approach before positions move again; so are
    /// the points of bodies farther apart than the linear slop.
    ///
    /// # Errors
    /// [`SolverError::UnknownBody`] if a body was removed since preparation.
    pub fn relax_velocities(&mut self, bodies: &mut BodySet) -> Result<(), SolverError> {
        self.gather(bodies)?;
        for _ in 0..self.settings.relax_iterations {
            self.iterate(false, bodies);
        }
        self.scatter(bodies);
        packed::store_dynamic(&self.chunks, &mut self.constraints);
        Ok(())
    }

    /// Applies restitution once, at the end of the step. Every point that pushed this step
    /// takes part: a point that approached faster than `restitution_threshold` must leave at
    /// `restitution` times its captured approach speed, any other must not approach. The
    /// pass runs Gauss-Seidel sweeps over those points (at most
    /// `restitution_iterations`, fewer once no impulse changes) with an accumulated
    /// restitution impulse clamped at zero, so restitution only pushes.
    ///
    /// Sweeping until the targets hold together, not one point after the other once, is
    /// what keeps energy: a disc hitting a disc pressed against a wall leaves at its own
    /// speed, where a single pass let the pressed disc carry half the bounce into the wall
    /// and lose it. Only islands of bodies with a bounce are swept, and each island keeps at
    /// most the kinetic energy its bodies had in free flight this step (islands touching a
    /// kinematic body excepted); the module `contact::restitution` says what each rule
    /// fixed.
    ///
    /// Then friction at a bounce follows Coulomb's law on the whole normal impulse,
    /// restitution included, as in [`resolve_impact`](crate::resolve_impact): at every
    /// point that bounced (a bounce of its own, not one passed on through a body pressed
    /// against it, whose friction stays the solve's), friction is solved again by Gauss-Seidel
    /// sweeps (at most `restitution_iterations`), the point's total friction over the step
    /// (the solve's, every substep's, plus the new) clamped to
    /// `friction * (N + restitution_impulse)`, with `N` the normal impulse the solve applied
    /// over the whole step, and no further than where the slip stops. So a disc with its
    /// rotation locked, friction 0.6 and restitution 0.9, landing on a floor at (10, -10),
    /// leaves at (0, 9), as from the resolver, not at the (4, 9) that friction bounded by
    /// the solve's impulse alone gives. One point between bodies with their rotation locked
    /// agrees with the resolver to rounding at any settings with at least one relax
    /// iteration. The friction re-solve only removes slip, so it adds no energy; its
    /// impulses are [`ConstraintPoint::restitution_tangent_impulse`], not cached.
    ///
    /// A speculative point that never touched has `max_normal_impulse == 0` and is skipped,
    /// so restitution is neither lost nor invented when contacts are created early. The
    /// restitution impulses are reported apart ([`ConstraintPoint::restitution_impulse`])
    /// and not cached for warm starting; a point that bounced caches no impulse at all, since
    /// its bodies leave.
    ///
    /// `gravity` must be what the step integrated: it completes each point's free-flight
    /// approach (see [`ConstraintPoint::relative_velocity`]).
    ///
    /// # Errors
    /// [`SolverError`] naming `gravity` (not finite), or [`SolverError::UnknownBody`] if a
    /// body was removed since preparation; nothing is changed then.
    pub fn apply_restitution(
        &mut self,
        bodies: &mut BodySet,
        gravity: Vector,
    ) -> Result<(), SolverError> {
        finite_vector("gravity", &gravity)?;
        self.gather(bodies)?;
        // The passes left their results in the chunks; restitution reads them from the
        // constraints.
        packed::store_dynamic(&self.chunks, &mut self.constraints);
        self.restitution_constraints(&gravity);
        self.scatter(bodies);
        Ok(())
    }

    /// Replaces the content of `cache` with this step's accumulated impulses, for the next
    /// step's warm start.
    pub fn store_impulses(&self, cache: &mut ContactCache) {
        let threshold = self.settings.restitution_threshold;
        cache.entries.clear();
        for c in &self.constraints {
            let entry = |p: &ConstraintPoint| {
                // A point that bounced leaves: the impulse that stopped its approach has
                // nothing left to hold, and replayed next step it would push the bodies
                // apart a second time (energy the soft passes only partly take back). A
                // point that only passed a bounce on (a disc pressed against a wall) stays
                // and keeps its impulse.
                let bounced = restitution::bounced(c, p, threshold);
                (
                    CacheKey::new(c.a, c.b, p.id),
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
                // (equal keys keep their order, as the stable sort below would).
                [ref p, ref q] if CacheKey::new(c.a, c.b, p.id) > CacheKey::new(c.a, c.b, q.id) => {
                    cache.entries.push(entry(q));
                    cache.entries.push(entry(p));
                }
                ref points => cache.entries.extend(points.iter().map(entry)),
            }
        }
        // Stable sort, then keep the first of duplicate keys (the same pair given twice):
        // which one survives depends only on the caller's order. Pairs from a broadphase
        // come sorted already, and the check is cheaper than the sort.
        if !cache.entries.is_sorted_by_key(|e| e.0) {
            cache.entries.sort_by_key(|e| e.0);
        }
        cache.entries.dedup_by(|later, first| later.0 == first.0);
    }

    /// Re-applies every accumulated impulse (the warm start), at the prepared lever arms.
    fn warm_start_constraints(&mut self) {
        packed::warm_start(&self.chunks, &mut self.solver_bodies);
        if !self.start_velocities.is_empty() {
            packed::count_warm_start(&self.chunks, &mut self.applied);
        }
    }

    /// Contacts that have not pushed yet this step fly free one more substep.
    fn capture_free_flight(&mut self) {
        packed::capture_free_flight(&mut self.chunks, self.h);
    }

    /// The restitution pass of [`ContactSolver::apply_restitution`] on the solver's bodies
    /// (see [`restitution`]). Reads the solve's results from the constraints (not the
    /// chunks) and writes only `restitution_impulse` and `restitution_tangent_impulse`,
    /// which the chunks do not hold.
    fn restitution_constraints(&mut self, gravity: &Vector) {
        if !self.start_velocities.is_empty() {
            packed::store_applied(&self.chunks, &self.applied, &mut self.constraints);
        }
        restitution::restitution_pass(
            &mut self.constraints,
            &mut self.solver_bodies,
            &self.states,
            &self.start_velocities,
            &mut self.restitution_scratch,
            restitution::Step {
                settings: &self.settings,
                dt: self.dt,
                gravity,
            },
        );
    }

    /// One Gauss-Seidel sweep over the constraints in order: normal impulses first, then
    /// friction clamped by the updated normal impulse.
    ///
    /// The constraints are visited chunk by chunk (see [`sweep_order`]), the four
    /// constraints of a chunk at once in SIMD lanes (see [`packed`]): they share no body, so
    /// this is the result of the pair order (any cut into chunks gives the same bits), and the
    /// processor works on several independent chains of updates at a time.
    ///
    /// `bodies` gives the shapes the gate measures (see [`gate`]); it must hold the bodies
    /// the solver was prepared with.
    fn iterate(&mut self, use_bias: bool, bodies: &BodySet) {
        if use_bias {
            self.sweep::<true>(bodies);
        } else {
            self.sweep::<false>(bodies);
        }
    }

    /// [`ContactSolver::iterate`], with or without the position bias.
    fn sweep<const BIAS: bool>(&mut self, bodies: &BodySet) {
        let gate = gate::Gate {
            constraints: &self.constraints,
            states: &self.states,
            bodies,
            h: self.h,
        };
        packed::sweep::<BIAS>(
            &mut self.chunks,
            &mut self.solver_bodies,
            self.inv_h,
            self.settings.max_push_out_velocity,
            &gate,
        );
    }

    /// Gravity and damping on the dynamic bodies of the constraints (the arithmetic of
    /// [`integrate_velocities`](crate::integrate_velocities)); the others keep the velocities
    /// they had when gathered.
    fn integrate_solver_velocities(&mut self, dv: &Vector) {
        let h = self.h;
        for (s, sb) in self.states.iter_mut().zip(&mut self.solver_bodies) {
            if s.body_type == BodyType::Dynamic {
                let before = (sb.v, sb.w);
                (sb.v, sb.w) =
                    integrate_velocity(sb.v, sb.w, dv, h, s.linear_damping, s.angular_damping);
                s.flight = [before, (sb.v, sb.w)];
            } else {
                (sb.v, sb.w) = (s.linvel, s.angvel);
            }
        }
    }

    /// Moves the bodies of the constraints by one substep (the arithmetic of
    /// [`integrate_positions`](crate::integrate_positions)), then updates their motion since
    /// preparation and every point's separation.
    ///
    /// A dynamic body whose velocities no contact changed in the substep (its contacts were
    /// all speculative and stayed so) flies free: it moves along the mean of the substep's
    /// start and end velocities, the exact path of constant acceleration, bit for bit as a
    /// body without contacts does in [`ContactSolver::step`]. The others move along their
    /// solved velocities, which is what lets a speculative contact stop them at the surface.
    fn integrate_solver_positions(&mut self) {
        let h = self.h;
        for (s, sb) in self.states.iter_mut().zip(&self.solver_bodies) {
            match s.body_type {
                BodyType::Static => {}
                BodyType::Kinematic => {
                    advance_pose(&mut s.pose, &s.local_center, &s.linvel, s.angvel, h);
                }
                BodyType::Dynamic if s.flight[1] == (sb.v, sb.w) => {
                    let (v0, w0) = s.flight[0];
                    let (v, w) = (v0 * 0.5 + sb.v * 0.5, w0 * 0.5 + sb.w * 0.5);
                    advance_pose(&mut s.pose, &s.local_center, &v, w, h);
                }
                BodyType::Dynamic => advance_pose(&mut s.pose, &s.local_center, &sb.v, sb.w, h),
            }
            s.update_motion();
        }
        self.update_separations();
    }

    /// Static and kinematic bodies back to their own velocities. Impulses leave them alone
    /// (zero inverse masses) up to the sign of a zero; the staged API reads them from the
    /// bodies before every stage, and the whole step matches it bit for bit.
    fn reset_fixed_velocities(&mut self) {
        for (s, sb) in self.states.iter().zip(&mut self.solver_bodies) {
            if s.body_type != BodyType::Dynamic {
                (sb.v, sb.w) = (s.linvel, s.angvel);
            }
        }
    }

    /// Every point's separation where the bodies are now: once per position of the bodies,
    /// since the iterations only change velocities.
    fn update_separations(&mut self) {
        self.prepared = false;
        packed::update_separations(
            &mut self.chunks,
            &self.anchors,
            &self.constraints,
            &self.states,
        );
    }

    /// Loads velocities, poses and motion since preparation from the bodies, and the separations
    /// there; fails, changing nothing a caller can see, if any body is gone.
    fn gather(&mut self, bodies: &BodySet) -> Result<(), SolverError> {
        for (s, sb) in self.states.iter_mut().zip(&mut self.solver_bodies) {
            let body = bodies.try_get(s.handle, "solver.bodies")?;
            sb.v = body.linvel();
            sb.w = body.angvel();
            s.linvel = sb.v;
            s.angvel = sb.w;
            s.pose = *body.pose();
            s.update_motion();
        }
        // Bodies where they were prepared have the prepared separations and certificates,
        // which the chunks hold until the first update.
        let unmoved = |s: &BodyState| s.dp == Vector::zeros() && s.dq == (1.0, 0.0);
        if !(self.prepared && self.states.iter().all(unmoved)) {
            self.update_separations();
        }
        Ok(())
    }

    /// Writes velocities back to the dynamic bodies (the others cannot have changed).
    fn scatter(&self, bodies: &mut BodySet) {
        for (s, sb) in self.states.iter().zip(&self.solver_bodies) {
            if s.body_type == BodyType::Dynamic
                && let Some(body) = bodies.get_mut(s.handle)
            {
                body.set_velocity_unchecked(sb.v, sb.w);
            }
        }
    }
}

/// Prepares, runs [`ContactSolver::step`] and stores the impulses: one whole step of `dt`
/// seconds for every body of `bodies`, with the contacts of `pairs` (the discrete baseline
/// a `World` builds on). Returns the solver, whose constraints hold the step's impulses.
///
/// # Errors
/// As [`ContactSolver::new`] and [`ContactSolver::step`]; nothing is changed then.
pub fn solve_step(
    bodies: &mut BodySet,
    pairs: &[ContactPair],
    cache: &mut ContactCache,
    gravity: Vector,
    settings: &SolverSettings,
    dt: Real,
) -> Result<ContactSolver, SolverError> {
    let mut solver = ContactSolver::new(bodies, pairs, cache, settings, dt)?;
    solver.step(bodies, gravity)?;
    solver.store_impulses(cache);
    Ok(solver)
}

/// Constraints solved together by [`ContactSolver::iterate`] (a chunk of [`sweep_order`]):
/// enough independent chains to keep the processor busy while each waits on its own latency.
const LANES: usize = 4;

/// An order of the constraints that every sweep gives the same result as the order of the
/// pairs, bit for bit, cut into chunks of up to [`LANES`] constraints without a body in common.
///
/// A sweep's result depends only on the order in which each body sees its constraints. So
/// each constraint, in pair order, joins the first chunk with room that comes after every
/// chunk holding an earlier constraint of either of its bodies (static bodies included, so
/// even the sign of a zero velocity is unchanged), and the sweeps visit the chunks in turn.
/// The constraints of a chunk are independent, so the processor can work on them side by
/// side instead of waiting out the latency of each impulse on the velocities the previous one
/// wrote (in pair order, neighbours in a stack nearly always share a body).
///
/// Leaves in `work` the order and where each chunk starts in it (one more entry than chunks).
fn sweep_order(constraints: &[ContactConstraint], body_count: usize, work: &mut spare::SweepOrder) {
    schedule(
        constraints.iter().map(|c| (c.state_a, c.state_b)),
        body_count,
        work,
    );
}

/// [`sweep_order`] for any sequence of updates, each given by the two bodies it reads and
/// writes (indices below `body_count`): the order, cut into chunks of up to [`LANES`]
/// updates without a body in common, in which each body sees its updates in the given order.
fn schedule(
    updates: impl Iterator<Item = (u32, u32)>,
    body_count: usize,
    work: &mut spare::SweepOrder,
) {
    work.clear();
    let spare::SweepOrder {
        order,
        chunk_starts,
        next_chunk: next,
        members: chunks,
        room,
    } = work;
    // The first chunk each body's next constraint may join.
    next.resize(body_count, 0);
    // `room[k] == k`: chunk k has room; else a later chunk to look at instead (full chunks
    // are skipped with path compression, so placing every constraint stays near linear).
    let mut count = 0;
    for (i, (a, b)) in updates.enumerate() {
        let (a, b) = (a as usize, b as usize);
        count += 1;
        let first = next[a].max(next[b]) as usize;
        let mut k = first;
        while k < room.len() && room[k] as usize != k {
            k = room[k] as usize;
        }
        let mut x = first;
        while x < k {
            let after = room[x] as usize;
            room[x] = k as u32;
            x = after;
        }
        if k == chunks.len() {
            chunks.push(([0; LANES], 0));
            room.push(k as u32);
        }
        let (members, len) = &mut chunks[k];
        members[*len] = i as u32;
        *len += 1;
        if *len == LANES {
            room[k] = k as u32 + 1;
        }
        next[a] = k as u32 + 1;
        next[b] = k as u32 + 1;
    }
    order.reserve(count);
    chunk_starts.reserve(chunks.len() + 1);
    chunk_starts.push(0);
    for (members, len) in chunks.iter() {
        order.extend_from_slice(&members[..*len]);
        chunk_starts.push(order.len() as u32);
    }
}

fn validate_manifold(i: usize, m: &Manifold) -> Result<(), SolverError> {
    if m.is_empty() {
        return Ok(());
    }
    let n = m.normal;
    if !(n.x.is_finite() && n.y.is_finite()) {
        finite_vector(&format!("pairs[{i}].manifold.normal"), &n)?;
    }
    // Narrowphase normals are unit to rounding; anything visibly off is a caller's bug that
    // would scale every impulse.
    let norm2 = n.norm_squared();
    if (norm2 - 1.0).abs() > 1e-9 {
        return Err(SolverError::OutOfRange {
            field: format!("pairs[{i}].manifold.normal"),
            value: norm2.sqrt(),
            expected: "a unit vector",
        });
    }
    for (k, p) in m.points().iter().enumerate() {
        if !(p.point.x.is_finite() && p.point.y.is_finite()) {
            crate::error::finite_point(
                &format!("pairs[{i}].manifold.points[{k}].point"),
                &p.point,
            )?;
        }
        if !p.separation.is_finite() {
            crate::error::finite(
                &format!("pairs[{i}].manifold.points[{k}].separation"),
                p.separation,
            )?;
        }
    }
    Ok(())
}

/// The separation of point `p` where the bodies are now, measured between its core anchors
/// turned with their bodies (see `ConstraintPoint::core_a`) and along the prepared normal.
///
/// The anchors are the core points behind the contact, not the contact point itself: a disc
/// rolling along a wall turns its contact point up and away from the wall within a step (a
/// quarter of a turn per substep at 12 units/s for a radius of 0.05), and a separation
/// measured there saw the contact open and let the disc ride into the wall; its centre does
/// not move with its spin. For a polygon the core is the surface, so nothing changes there.
///
/// The impulses do not follow those anchors: they act at each body's prepared lever arm from
/// its current centre for the whole step, as in Box2D v3. The anchors travel with their
/// bodies' translations, so against a static body the moving body is pushed at its own contact
/// point however far it slid, and the constraint rows (lever arms, effective masses) stay the
/// same for the whole step, which keeps warm starting consistent. The price: once the bodies
/// have moved relative to each other by `d` since preparation, the two points of application
/// are `d` apart, and an impulse `P` changes the angular momentum by `d x P` (zero at
/// preparation, so the first substep and every staged pass that does not move the bodies
/// conserve it exactly). Two alternatives were measured in the rain bench and dropped: the
/// midpoint of the anchors fixed on each body left the point a unit behind a disc
/// after a 2-unit slide along a wall, and the normal impulse there spun it up and drove it
/// through; one shared point weighted toward the lighter body conserved angular momentum
/// exactly, but its rows changed every substep for two bodies sliding past each other and
/// 10,000 discs under `MotionClamping` exploded.
#[inline]
fn current_separation(
    a: &BodyState,
    b: &BodyState,
    c: &ContactConstraint,
    p: &ConstraintPoint,
) -> Real {
    // How far B's core anchor has moved from A's since preparation (zero then):
    // `(c_b - c_a) = (c_b0 - c_a0) + (dp_b - dp_a)` and `c_b0 - c_a0 = k_a - k_b` up to the
    // gap the anchors had at preparation, `k` the core lever arms.
    let (k_a, k_b) = c.core_anchors(p);
    let gap = (b.dp - a.dp) + (k_a - k_b) + (rotate(b.dq, &k_b) - rotate(a.dq, &k_a));
    gap.dot(&c.normal) + p.separation0
}

#[inline]
fn inverse_or_zero(k: Real) -> Real {
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

/// Velocity of B's material point minus A's, at lever arms `r_a` and `r_b`.
#[inline]
fn relative_velocity(a: &SolverBody, b: &SolverBody, r_a: &Vector, r_b: &Vector) -> Vector {
    b.v + cross_scalar_vector(b.w, r_b) - a.v - cross_scalar_vector(a.w, r_a)
}

/// Applies `impulse` to B and its opposite to A (infinite masses have zero inverses).
#[inline]
fn apply(a: &mut SolverBody, b: &mut SolverBody, r_a: &Vector, r_b: &Vector, impulse: &Vector) {
    a.v -= impulse * a.inv_mass;
    a.w -= a.inv_inertia * cross(r_a, impulse);
    b.v += impulse * b.inv_mass;
    b.w += b.inv_inertia * cross(r_b, impulse);
}

#[inline]
fn rotate((c, s): (Real, Real), r: &Vector) -> Vector {
    Vector::new(c * r.x - s * r.y, s * r.x + c * r.y)
}
