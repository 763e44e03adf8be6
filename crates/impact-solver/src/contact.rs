//! Contact rows: the solver's view of the narrowphase's manifolds, one
//! [`ContactConstraint`] per manifold in the caller's order, and [`ContactRows`], what the
//! stage loop drives of them (see `solver::rows`).
//!
//! Each point carries its lever arms from both centres of mass, its normal and tangent
//! effective masses with the full angular terms of the al-ro collision demo,
//!
//! ```text
//! k_n = 1/m_a + 1/m_b + (r_a x n)^2 / I_a + (r_b x n)^2 / I_b,   normal_mass = 1 / k_n
//! ```
//!
//! (in 2D, `(I^-1 (r x n) x r) . n = (r x n)^2 / I`), and accumulated normal and tangent
//! impulses clamped per point: `normal >= 0`, `|tangent| <= mu * normal` (Coulomb).
//!
//! The rows' parts, each in its own file:
//!
//! - `prepare`: the constraints built from the pairs, warm started from the cache;
//! - `cache`: [`ContactCache`], the impulses kept from step to step;
//! - `packed`: the per-point passes (warm start, sweeps, separations) on chunks of four
//!   constraints laid out for SIMD;
//! - `gate`: which points may push (the bodies are, or come, within the contact distance);
//! - `restitution`: the bounce, once at the end of the step, and friction where it bounced.

#[cfg(doc)]
use crate::ContactSolver;
use crate::body::RigidBody;
use crate::body_set::BodyHandle;
use crate::material::{Material, combine_friction, combine_restitution};
use crate::settings::Softness;
use crate::shape_def::BodyShape;
use crate::solver::bodies::Motion;
use crate::solver::bodies::{BodyState, SolverBody};
use crate::solver::colours::{BodyAccess, ColourPass, SharedBodies, for_each_colour};
use crate::solver::rows::{RowKind, Stage};
use crate::solver::schedule::{SweepOrder, colour};
use impact_geometry::{Real, Vector};
use impact_narrowphase::{ContactId, Manifold};

mod cache;
mod gate;
mod packed;
mod prepare;
mod restitution;

pub use cache::{CacheKey, CachedImpulse, ContactCache};

/// A manifold between two bodies: what the narrowphase produced for the pair, with the
/// normal pointing from `a` toward `b`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactPair {
    /// The body the manifold normal points away from.
    pub a: BodyHandle,
    /// The body the manifold normal points toward.
    pub b: BodyHandle,
    /// The places of the two shapes in their bodies' lists (see
    /// [`ShapeId`](crate::ShapeId)), `a`'s first: `[0, 0]` for bodies of one shape. The
    /// shapes give the contact its materials, radii and warm-starting key.
    #[cfg_attr(feature = "serde", serde(default))]
    pub shapes: [u32; 2],
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
    /// The contact of the first shapes of `a` and `b` with `manifold` (from `a`'s shape to
    /// `b`'s), no periodic offset and the combined materials.
    pub fn new(a: BodyHandle, b: BodyHandle, manifold: Manifold) -> Self {
        Self {
            a,
            b,
            shapes: [0, 0],
            manifold,
            offset: Vector::zeros(),
            material: None,
        }
    }

    /// The combined friction and restitution of the contact: [`ContactPair::material`] if
    /// set, else the combination of the two shapes' materials (see
    /// [`Material`](crate::Material)), `(friction, restitution)`.
    #[inline]
    pub fn coefficients(&self, body_a: &RigidBody, body_b: &RigidBody) -> (Real, Real) {
        match &self.material {
            Some(m) => (m.friction(), m.restitution()),
            None => {
                let (ma, mb) = (
                    self.shape_of(body_a, 0).material(),
                    self.shape_of(body_b, 1).material(),
                );
                (
                    combine_friction(ma.friction(), mb.friction()),
                    combine_restitution(ma.restitution(), mb.restitution()),
                )
            }
        }
    }

    /// The shape of side `side` (0 for `a`, 1 for `b`) on `body`, its body; the first shape
    /// if the index is past the body's list (a pair checked by the solver never is).
    #[inline]
    pub fn shape_of<'a>(&self, body: &'a RigidBody, side: usize) -> &'a BodyShape {
        body.shape_or_first(self.shapes[side])
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
    /// substep's, where `normal_impulse` is the last substep's only. Counted only while
    /// `ContactRows::counting`, and known once the restitution pass started, which bounds
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

    /// The whole normal impulse the point applied over the step (zero or more; B received
    /// it along the normal, A the opposite): every substep's, not only the last one's as
    /// [`normal_impulse`](Self::normal_impulse), plus the bounce
    /// ([`restitution_impulse`](Self::restitution_impulse)). Divided by the step's `dt`,
    /// the mean normal force (newtons for kilograms, metres and seconds): `m g` for a body
    /// resting on the ground by this point alone.
    ///
    /// Counted only when the solver counts it
    /// ([`ContactSolver::tracks_total_impulses`]): a constraint of the step has restitution,
    /// or [`ContactSolver::track_total_impulses`] was called before the step; and known once
    /// the restitution stage has run ([`ContactSolver::step`] runs it). Zero otherwise.
    #[inline]
    pub fn total_normal_impulse(&self) -> Real {
        self.solve_normal_impulse + self.restitution_impulse
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
    /// The pair's shape indices (see [`ContactPair::shapes`]).
    shapes: [u32; 2],
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

/// The contact rows of a solver: the constraints, their packed chunks for the sweeps, and
/// what the restitution pass needs, each kept for its storage from step to step (see
/// `SolverScratch`).
#[derive(Debug, Clone, Default)]
pub(crate) struct ContactRows {
    constraints: Vec<ContactConstraint>,
    /// The constraints in the order the per-point passes visit them (see [`sweep_order`]),
    /// one field per four-wide vector; while a stage runs, their impulses,
    /// separations and approach velocities live here (see [`packed`]).
    chunks: Vec<packed::Chunk>,
    /// The lever arms and separations at preparation of the chunks' points, for the
    /// separations.
    anchors: Vec<packed::Anchors>,
    /// Per point of the chunks, the impulses applied so far, less those the points hold now
    /// (see [`packed::Applied`]): counted only while `counting`, for the friction of the
    /// restitution pass and for [`ConstraintPoint::total_normal_impulse`].
    applied: Vec<[packed::Applied; 2]>,
    /// Whether `applied` is counted: a constraint has restitution, or the caller asked for
    /// the step's total impulses ([`ContactRows::count_applied`]). Counting costs about 1%
    /// of a step of a pyramid of boxes, which has no restitution.
    counting: bool,
    /// The bodies' velocities at preparation, kept when a constraint has restitution: the
    /// restitution pass bounds the energy of a bounce by the energy the bodies came with.
    start_velocities: Vec<SolverBody>,
    /// The sweep order the chunks were packed in: the colours the passes run one after the
    /// other.
    order: SweepOrder,
    /// The velocities as the passes over the colours share them, kept for its storage.
    shared: SharedBodies,
    /// The restitution pass's buffers (packed points, islands), kept only for their storage.
    restitution_scratch: restitution::Scratch,
    /// Whether the chunks still hold the separations and certificates of preparation (see
    /// [`RowKind::bodies_gathered`]).
    prepared: bool,
}

impl ContactRows {
    /// The constraints, in the order of the pairs they came from.
    #[inline]
    pub(crate) fn constraints(&self) -> &[ContactConstraint] {
        &self.constraints
    }

    /// Whether the impulses applied over the step are counted (see
    /// [`ContactRows::count_applied`]).
    #[inline]
    pub(crate) fn counts_applied(&self) -> bool {
        self.counting
    }

    /// How many constraints the storage holds without growing.
    pub(crate) fn capacity(&self) -> usize {
        self.constraints.capacity()
    }

    /// Replaces the content of `cache` with the step's accumulated impulses, for the next
    /// step's warm start (see [`ContactCache::store`]).
    pub(crate) fn store_impulses(&self, cache: &mut ContactCache, restitution_threshold: Real) {
        cache.store(&self.constraints, restitution_threshold);
    }

    /// Every point's separation where the bodies are now: once per position of the bodies,
    /// since the iterations only change velocities.
    fn update_separations(&mut self, states: &[BodyState]) {
        self.prepared = false;
        packed::update_separations(&mut self.chunks, &self.anchors, &self.constraints, states);
    }

    /// [`RowKind::iterate`], with or without the position bias.
    fn sweep<const BIAS: bool>(&mut self, velocities: &mut [SolverBody], stage: &Stage<'_>) {
        let gate = gate::Gate {
            constraints: &self.constraints,
            states: stage.states,
            bodies: stage.bodies,
            h: stage.h,
        };
        let pass = Sweep::<BIAS> {
            inv_h: stage.inv_h,
            max_push: stage.settings.max_push_out_velocity,
            gate: &gate,
        };
        for_each_colour(
            &mut self.chunks,
            &self.order.colour_starts,
            velocities,
            &mut self.shared,
            &pass,
        );
    }
}

impl RowKind for ContactRows {
    fn clear(&mut self) {
        self.constraints.clear();
        self.start_velocities.clear();
        self.chunks.clear();
        self.anchors.clear();
        self.applied.clear();
        self.counting = false;
        self.order.clear();
        self.prepared = false;
    }

    /// Re-applies every accumulated impulse (the warm start), at the prepared lever arms.
    fn warm_start(&mut self, velocities: &mut [SolverBody], _motion: &[Motion]) {
        for_each_colour(
            &mut self.chunks,
            &self.order.colour_starts,
            velocities,
            &mut self.shared,
            &WarmStart,
        );
        if self.counting {
            packed::count_warm_start(&self.chunks, &mut self.applied);
        }
    }

    /// Contacts that have not pushed yet this step fly free one more substep.
    fn begin_solve(&mut self, stage: &Stage<'_>) {
        packed::capture_free_flight(&mut self.chunks, stage.h);
    }

    /// One Gauss-Seidel sweep over the constraints in order: normal impulses first, then
    /// friction clamped by the updated normal impulse.
    ///
    /// The constraints are visited chunk by chunk (see [`sweep_order`]), the four
    /// constraints of a chunk at once in SIMD lanes (see [`packed`]): they share no body, so
    /// this is the result of the pair order (any cut into chunks gives the same bits), and the
    /// processor works on several independent chains of updates at a time.
    ///
    /// `stage.bodies` gives the shapes the gate measures (see [`gate`]).
    fn iterate(&mut self, velocities: &mut [SolverBody], stage: &Stage<'_>, use_bias: bool) {
        if use_bias {
            self.sweep::<true>(velocities, stage);
        } else {
            self.sweep::<false>(velocities, stage);
        }
    }

    fn bodies_moved(&mut self, states: &[BodyState], _motion: &[Motion]) {
        self.update_separations(states);
    }

    /// Bodies where they were prepared have the prepared separations and certificates,
    /// which the chunks hold until the first update.
    fn bodies_gathered(&mut self, states: &[BodyState], _motion: &[Motion]) {
        let unmoved = |s: &BodyState| s.dp == Vector::zeros() && s.dq == (1.0, 0.0);
        if !(self.prepared && states.iter().all(unmoved)) {
            self.update_separations(states);
        }
    }

    /// Impulses, separations and approach velocities from the chunks back into the
    /// constraints.
    fn store(&mut self) {
        packed::store_dynamic(&self.chunks, &mut self.constraints);
    }

    /// The restitution pass of [`ContactSolver::apply_restitution`] on the solver's bodies
    /// (see [`restitution`]). Reads the solve's results from the constraints (not the
    /// chunks) and writes only `restitution_impulse` and `restitution_tangent_impulse`,
    /// which the chunks do not hold.
    fn restitution(&mut self, velocities: &mut [SolverBody], stage: &Stage<'_>, gravity: &Vector) {
        if self.counting {
            packed::store_applied(&self.chunks, &self.applied, &mut self.constraints);
        }
        restitution::restitution_pass(
            &mut self.constraints,
            velocities,
            stage.states,
            &self.start_velocities,
            &mut self.restitution_scratch,
            restitution::Step {
                settings: stage.settings,
                dt: stage.dt,
                gravity,
            },
        );
    }
}

/// [`packed::warm_start`] as a pass over colours.
struct WarmStart;

impl ColourPass<packed::Chunk> for WarmStart {
    #[inline]
    fn run<B: BodyAccess + ?Sized>(&self, chunks: &mut [packed::Chunk], bodies: &mut B) {
        packed::warm_start(chunks, bodies);
    }
}

/// [`packed::sweep`] as a pass over colours.
struct Sweep<'a, 'g, const BIAS: bool> {
    inv_h: Real,
    max_push: Real,
    gate: &'a gate::Gate<'g>,
}

impl<const BIAS: bool> ColourPass<packed::Chunk> for Sweep<'_, '_, BIAS> {
    #[inline]
    fn run<B: BodyAccess + ?Sized>(&self, chunks: &mut [packed::Chunk], bodies: &mut B) {
        packed::sweep::<BIAS, B>(chunks, bodies, self.inv_h, self.max_push, self.gate);
    }
}

/// The order the per-point passes visit the constraints in: the [`colour`]s of their bodies,
/// each cut into chunks of constraints that write no body in common (bodies of infinite mass
/// are read, never written), so that the chunks of a colour can be swept at once on several
/// threads with the result of one thread bit for bit.
///
/// Leaves in `work` the order, where each chunk starts in it (one more entry than chunks) and
/// where each colour's chunks start.
fn sweep_order(constraints: &[ContactConstraint], bodies: &[SolverBody], work: &mut SweepOrder) {
    colour(
        constraints.iter().map(|c| {
            let (a, b) = (c.state_a, c.state_b);
            let moves = |i: u32| packed::moves(&bodies[i as usize]);
            (a, b, moves(a), moves(b))
        }),
        bodies.len(),
        work,
    );
}

/// The separation of point `p` where the bodies are now, measured between its core anchors
/// turned with their bodies (see `ContactConstraint::core_anchors`) and along the prepared
/// normal.
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
fn rotate((c, s): (Real, Real), r: &Vector) -> Vector {
    Vector::new(c * r.x - s * r.y, s * r.x + c * r.y)
}
