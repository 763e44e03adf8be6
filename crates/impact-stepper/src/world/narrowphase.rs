//! Stage 2 of [`World::step`], the narrowphase: a contact manifold per candidate pair that the
//! filters let collide.
//!
//! Three passes, so that the manifolds, most of the stage's work, can be computed on every
//! core while the user's hooks and the step's report see the pairs one at a time in pair
//! order: the filters (sleep, static pairs, [`CollisionRules`] with the pair filter) pick the
//! candidates, in pair order; the manifolds are computed, each on its own (on rayon's threads
//! with the `parallel` feature: each manifold depends only on its pair, so the result is the
//! same bit for bit for any number of threads); then, in pair order again, the pre-solve hook
//! is asked and the manifolds are kept. The pair filter is therefore asked about every
//! candidate of a step before the pre-solve hook is asked about any manifold.

use super::World;
use super::step::StepReport;
use crate::contact_events::touches;
use crate::domain::translated;
use crate::hooks::{ContactBody, ContactKind, ContactResponse, PreSolveContact};
use crate::rules::{CollisionRules, PairKind};
use crate::stepper::Stepper;
use impact_broadphase::{Broadphase, ProxyId, ProxyPair};
use impact_geometry::{Isometry, Real, Shape, Vector};
use impact_narrowphase::{Manifold, contact_manifold, contact_manifold_on_side};
use impact_solver::{BodySet, ContactPair, RigidBody, ShapeId};
use tracing::field::Empty;

/// A candidate pair the filters let collide, waiting for its manifold: its shapes, the
/// translation of the second shape's image (zero outside a periodic domain) and the distance
/// up to which the manifold keeps points.
#[derive(Debug, Clone, Copy)]
pub(super) struct Candidate {
    sa: ShapeId,
    sb: ShapeId,
    offset: Vector,
    speculative: Real,
}

impl<B: Broadphase, S: Stepper> World<B, S> {
    /// Stage 2: a manifold per candidate pair with a dynamic body that `rules` allow; in a
    /// periodic domain, against the image of the pair's second body that it meets through.
    /// Pairs with a sensor are set aside in `scratch.sensor_pairs`.
    pub(super) fn build_contacts(
        &mut self,
        dt: Real,
        rules: &CollisionRules<'_>,
        report: &mut StepReport<S::Report>,
    ) {
        let span = tracing::trace_span!("narrowphase", pairs = Empty, manifolds = Empty).entered();
        self.scratch.periodic_pairs.clear();
        let images = self.scratch.images;
        // A periodic world takes its pairs, the broadphase's among them, from
        // `periodic_pairs`; an unbounded one straight from the broadphase, or, while most
        // bodies sleep, from the queries of the awake ones (`awake_pairs`).
        let awake_pairs = core::mem::take(&mut self.scratch.awake_pairs);
        let pairs: &[ProxyPair] = match &images {
            Some(images) => {
                self.find_periodic_pairs(images);
                &[]
            }
            None if self.scratch.use_awake_pairs => &awake_pairs,
            None => self.broadphase.overlapping_pairs(),
        };
        let size = images.map_or_else(Vector::zeros, |images| images.size());
        report.pairs = pairs.len() + self.scratch.periodic_pairs.len();
        let direct = pairs.iter().map(|p| (p.a.0, p.b.0, Vector::zeros()));
        let periodic = core::mem::take(&mut self.scratch.periodic_pairs);
        let across = periodic.iter().map(|&(a, b, kx, ky)| {
            let offset = Vector::new(Real::from(kx) * size.x, Real::from(ky) * size.y);
            (a, b, offset)
        });
        let mut candidates = core::mem::take(&mut self.scratch.narrow_candidates);
        candidates.clear();
        let filters = Filters {
            proxies: &self.shape_proxies,
            bodies: &self.bodies,
            motion: &self.scratch.motion,
            rules,
            speculation: (
                self.settings.speculative_distance,
                self.settings.gravity.norm(),
                dt,
            ),
        };
        let sensed = &mut self.scratch.sensor_pairs;
        let stepper = &self.stepper;
        #[cfg(feature = "parallel")]
        let shared = periodic.is_empty()
            && !rules.filters_pairs()
            && pairs.len() >= SHARED_FILTER_MIN
            && rayon::current_num_threads() >= 2;
        #[cfg(not(feature = "parallel"))]
        let shared = false;
        if shared {
            #[cfg(feature = "parallel")]
            shared_candidates(&filters, stepper, pairs, &mut candidates, report);
        } else {
            for (ia, ib, offset) in direct.chain(across) {
                if let Some(c) = filters.candidate(stepper, (ia, ib, offset), sensed, report) {
                    candidates.push(c);
                }
            }
        }
        self.scratch.periodic_pairs = periodic;
        let mut manifolds = core::mem::take(&mut self.scratch.narrow_manifolds);
        self.scratch.sides.clear();
        if manifolds_of(&self.bodies, &self.sides, &candidates, &mut manifolds) {
            for (c, manifold) in candidates.iter().zip(manifolds.drain(..)) {
                self.keep_manifold(c, manifold, rules, report);
            }
        } else {
            // On one thread each manifold is kept as it is made, without the copy through
            // `manifolds`: the same manifolds, the hooks asked in the same order.
            for c in &candidates {
                let manifold = manifold_of(&self.bodies, &self.sides, c);
                self.keep_manifold(c, manifold, rules, report);
            }
        }
        self.scratch.narrow_candidates = candidates;
        self.scratch.narrow_manifolds = manifolds;
        // The pairs come sorted by proxy (a periodic domain's too); the sides are looked up
        // by shape, which is the same order unless a body has several shapes.
        let sides = &mut self.scratch.sides;
        if !sides.is_sorted_by_key(|&(a, b, _)| (a, b)) {
            sides.sort_by_key(|&(a, b, _)| (a, b));
        }
        report.manifolds = self.scratch.contacts.len();
        span.record("pairs", report.pairs);
        span.record("manifolds", report.manifolds);
        self.scratch.awake_pairs = awake_pairs;
    }

    /// Keeps the non-empty `manifold` of candidate `c` as a contact pair of the step, unless
    /// the pre-solve hook disables it; remembers the side of a segment contact and whether
    /// the pair touches.
    fn keep_manifold(
        &mut self,
        c: &Candidate,
        manifold: Manifold,
        rules: &CollisionRules<'_>,
        report: &mut StepReport<S::Report>,
    ) {
        if manifold.is_empty() {
            return;
        }
        let (sa, sb) = (c.sa, c.sb);
        let (Some(a), Some(b)) = (self.bodies.get(sa.body), self.bodies.get(sb.body)) else {
            return;
        };
        let material = if rules.has_pre_solve() {
            let pose_b = translated(b.pose(), &c.offset);
            match pre_solve_manifold(rules, (sa, a), (sb, b, &pose_b), &manifold) {
                ContactResponse::Keep => None,
                ContactResponse::Modify(material) => Some(material),
                ContactResponse::Disable => {
                    report.filtered_pairs += 1;
                    return;
                }
            }
        } else {
            None
        };
        let scratch = &mut self.scratch;
        if is_segment(a, sa) || is_segment(b, sb) {
            scratch.sides.push((sa, sb, manifold.normal));
        }
        report.contact_points += manifold.points().len();
        if touches(&manifold) {
            scratch.touched.push((sa, sb));
            scratch.touched_at.push(scratch.contacts.len() as u32);
        }
        scratch.contacts.push(ContactPair {
            a: sa.body,
            b: sb.body,
            manifold,
            shapes: [sa.index, sb.index],
            offset: c.offset,
            material,
        });
    }
}

/// What the first pass of the narrowphase reads to pick the candidates (the stepper, which
/// need not be `Sync`, is passed apart).
struct Filters<'a> {
    proxies: &'a crate::shape_proxies::ShapeProxies,
    bodies: &'a BodySet,
    /// Per body slot: `(linear velocity, |w| r, bounding radius r)` for the step.
    motion: &'a [(Vector, Real, Real)],
    rules: &'a CollisionRules<'a>,
    /// The speculative distance, `|g|` and the step's `dt`.
    speculation: (Real, Real, Real),
}

impl Filters<'_> {
    /// The candidate of the proxy pair `ia`, `ib` (the second at its image `offset` away),
    /// or `None` if it cannot have a manifold: a body asleep, both bodies not dynamic, two
    /// shapes of one body, or `rules` keep the shapes apart (counted in `report`; a pair with
    /// a sensor is set aside in `scratch.sensor_pairs`).
    fn candidate<S: Stepper, R>(
        &self,
        stepper: &S,
        (ia, ib, offset): (u32, u32, Vector),
        sensed: &mut Vec<(ShapeId, ShapeId, Vector)>,
        report: &mut StepReport<R>,
    ) -> Option<Candidate> {
        let (sa, sb, a, b) = match screen(self.proxies, self.bodies, ia, ib) {
            Screened::Pass(sa, sb, a, b) => (sa, sb, a, b),
            Screened::Sleeping => {
                report.sleeping_pairs += 1;
                return None;
            }
            Screened::Skipped => {
                report.skipped_pairs += 1;
                return None;
            }
            Screened::Gone => return None,
        };
        let pair = (ia, ib, sa, sb, offset);
        let rules = self.rules;
        if rules.filters_pairs() && !admit(rules, self.bodies, pair, sensed, report) {
            return None;
        }
        let motion = |s: ShapeId| self.motion[s.body.index as usize];
        let (closing, size) = closing_and_size(motion(sa), motion(sb), self.speculation);
        Some(Candidate {
            sa,
            sb,
            offset,
            speculative: speculative_margin(stepper, (a, b), self.speculation.0, (closing, size)),
        })
    }
}

/// What [`screen`] found of a candidate pair.
enum Screened<'a> {
    /// A body asleep (or, unreachable after the wake pass, one asleep and one that cannot
    /// reach it): no manifold.
    Sleeping,
    /// Two shapes of one body (which never collide), or no dynamic body.
    Skipped,
    /// A proxy without a shape or a live body (unreachable).
    Gone,
    /// The pair's shapes and bodies, for the rules and the margin.
    Pass(ShapeId, ShapeId, &'a RigidBody, &'a RigidBody),
}

/// The first checks of the candidate pair of proxies `ia` and `ib`, which need nothing but
/// the pair: whether a body sleeps, whether the shapes are of one body or of two bodies
/// neither of which is dynamic.
#[inline]
fn screen<'a>(
    proxies: &crate::shape_proxies::ShapeProxies,
    bodies: &'a BodySet,
    ia: u32,
    ib: u32,
) -> Screened<'a> {
    let (Some(sa), Some(sb)) = (proxies.shape_of(ProxyId(ia)), proxies.shape_of(ProxyId(ib)))
    else {
        debug_assert!(false, "every proxy names a shape");
        return Screened::Gone;
    };
    let (ha, hb) = (sa.body, sb.body);
    if bodies.is_asleep_at(ha.index) || bodies.is_asleep_at(hb.index) {
        return Screened::Sleeping;
    }
    let (Some(a), Some(b)) = (bodies.get(ha), bodies.get(hb)) else {
        debug_assert!(false, "every proxy names a live body");
        return Screened::Gone;
    };
    if ha == hb || (!a.is_dynamic() && !b.is_dynamic()) {
        return Screened::Skipped;
    }
    Screened::Pass(sa, sb, a, b)
}

/// Candidate pairs from which the filters run on rayon's threads.
#[cfg(feature = "parallel")]
const SHARED_FILTER_MIN: usize = 2048;

/// The filters of [`Filters::candidate`] over the broadphase's `pairs` (no periodic images,
/// no rules that filter pairs) into `candidates`, in pair order, counted in `report`: each
/// pair screened and its closing distance found on rayon's threads, in runs of consecutive
/// pairs; then, on the stepping thread and in pair order, the stepper's
/// [`speculates_past_size`](Stepper::speculates_past_size) (a stepper need not be `Sync`).
/// The same candidates and counts as the serial loop.
#[cfg(feature = "parallel")]
fn shared_candidates<S: Stepper, R>(
    filters: &Filters<'_>,
    stepper: &S,
    pairs: &[ProxyPair],
    candidates: &mut Vec<Candidate>,
    report: &mut StepReport<R>,
) {
    use rayon::prelude::*;
    /// A pair past the screening, with its closing distance and the smaller body size.
    struct Ready<'a> {
        sa: ShapeId,
        sb: ShapeId,
        bodies: (&'a RigidBody, &'a RigidBody),
        closing: (Real, Real),
    }
    let (proxies, bodies, motion) = (filters.proxies, filters.bodies, filters.motion);
    let speculation = filters.speculation;
    let runs: Vec<(Vec<Ready<'_>>, usize, usize)> = pairs
        .par_chunks(1024)
        .map(|run| {
            let mut ready = Vec::with_capacity(run.len());
            let (mut sleeping, mut skipped) = (0, 0);
            for p in run {
                match screen(proxies, bodies, p.a.0, p.b.0) {
                    Screened::Pass(sa, sb, a, b) => {
                        let motion = |s: ShapeId| motion[s.body.index as usize];
                        let closing = closing_and_size(motion(sa), motion(sb), speculation);
                        ready.push(Ready {
                            sa,
                            sb,
                            bodies: (a, b),
                            closing,
                        });
                    }
                    Screened::Sleeping => sleeping += 1,
                    Screened::Skipped => skipped += 1,
                    Screened::Gone => {}
                }
            }
            (ready, sleeping, skipped)
        })
        .collect();
    for (ready, sleeping, skipped) in runs {
        report.sleeping_pairs += sleeping;
        report.skipped_pairs += skipped;
        candidates.extend(ready.into_iter().map(|r| Candidate {
            sa: r.sa,
            sb: r.sb,
            offset: Vector::zeros(),
            speculative: speculative_margin(stepper, r.bodies, speculation.0, r.closing),
        }));
    }
}

/// The shape `s` of `body`.
#[inline]
fn shape_of(body: &RigidBody, s: ShapeId) -> &Shape {
    body.shapes()[s.index as usize].shape()
}

/// Whether shape `s` of `body` is a segment (which has no inside).
#[inline]
fn is_segment(body: &RigidBody, s: ShapeId) -> bool {
    matches!(shape_of(body, s), Shape::Segment(_))
}

/// The manifold of every candidate, in order, into `out` (whatever it held), on rayon's
/// threads (the same bits for any number of threads); `false`, and nothing done, without the
/// `parallel` feature, on one thread, or for few candidates.
fn manifolds_of(
    bodies: &BodySet,
    sides: &[(ShapeId, ShapeId, Vector)],
    candidates: &[Candidate],
    out: &mut Vec<Manifold>,
) -> bool {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        if candidates.len() >= 256 && rayon::current_num_threads() >= 2 {
            candidates
                .par_iter()
                .with_min_len(64)
                .map(|c| manifold_of(bodies, sides, c))
                .collect_into_vec(out);
            return true;
        }
    }
    let _ = (bodies, sides, candidates, out);
    false
}

/// The manifold of candidate `c` (empty if its bodies are gone). A contact with a segment
/// that overlaps, and whose normal turned round since the last step (`sides`), is taken on
/// the side it had: pressed past the middle, not gone round an end (that turns it a little
/// at a time).
fn manifold_of(bodies: &BodySet, sides: &[(ShapeId, ShapeId, Vector)], c: &Candidate) -> Manifold {
    let (Some(a), Some(b)) = (bodies.get(c.sa.body), bodies.get(c.sb.body)) else {
        debug_assert!(false, "every candidate names a live body");
        return Manifold::default();
    };
    let (shape_a, shape_b) = (shape_of(a, c.sa), shape_of(b, c.sb));
    let pose_b = translated(b.pose(), &c.offset);
    let manifold = contact_manifold(shape_a, a.pose(), shape_b, &pose_b, c.speculative);
    let segment = matches!(shape_a, Shape::Segment(_)) || matches!(shape_b, Shape::Segment(_));
    if segment
        && !manifold.is_empty()
        && manifold.min_separation() < 0.0
        && let Some(side) = side_of(sides, c.sa, c.sb)
        && manifold.normal.dot(&side) < 0.0
        && let Some(kept) =
            contact_manifold_on_side(shape_a, a.pose(), shape_b, &pose_b, side, c.speculative)
        && !kept.is_empty()
    {
        return kept;
    }
    manifold
}
/// How far the pair of bodies with motions `(linear velocity, |w| r, bounding radius r)`
/// can close over the step of `dt` seconds under gravity `g` (its length), and the smaller
/// body's size: an upper bound on how fast any point of one body approaches any point of
/// the other is the relative centre speed plus what each rotation adds at its rim.
#[inline]
fn closing_and_size(
    (va, sa, size_a): (Vector, Real, Real),
    (vb, sb, size_b): (Vector, Real, Real),
    (_, g, dt): (Real, Real, Real),
) -> (Real, Real) {
    let speed = (vb - va).norm() + sa + sb;
    ((speed + g * dt) * dt, size_a.min(size_b))
}

/// The speculative distance of bodies `a` and `b`: `base` plus how far they can close,
/// `closing`, capped at the smaller body's `size` unless `stepper` follows the pair past it.
#[inline]
fn speculative_margin<S: Stepper>(
    stepper: &S,
    (a, b): (&RigidBody, &RigidBody),
    base: Real,
    (closing, size): (Real, Real),
) -> Real {
    if stepper.speculates_past_size(a, b) {
        base + closing
    } else {
        base + closing.min(size)
    }
}

/// Whether `rules` let the candidate pair of slots `ia` and `ib` (bodies `ha` and `hb`,
/// the second met at its image `offset` away) collide; a pair with a sensor that the
/// filters let meet is set aside in `sensor_pairs`. Counted in `report`.
#[cold]
fn admit<R>(
    rules: &CollisionRules<'_>,
    bodies: &BodySet,
    (ia, ib, sa, sb, offset): (u32, u32, ShapeId, ShapeId, Vector),
    sensor_pairs: &mut Vec<(ShapeId, ShapeId, Vector)>,
    report: &mut StepReport<R>,
) -> bool {
    match rules.kind(ia, ib) {
        PairKind::Collide if rules.allows_shapes(bodies, sa, sb) => true,
        PairKind::Sense => {
            sensor_pairs.push((sa, sb, offset));
            report.sensor_pairs += 1;
            false
        }
        PairKind::Collide | PairKind::Ignore => {
            report.filtered_pairs += 1;
            false
        }
    }
}

/// The pre-solve hook's answer for the manifold of `a` and `b` (at `pose_b`), asked with
/// its deepest point; [`ContactResponse::Keep`] without a hook.
#[cold]
fn pre_solve_manifold<'a>(
    rules: &CollisionRules<'_>,
    (sa, a): (ShapeId, &'a RigidBody),
    (sb, b, pose_b): (ShapeId, &'a RigidBody, &Isometry),
    manifold: &'a Manifold,
) -> ContactResponse {
    if !rules.has_pre_solve() {
        return ContactResponse::Keep;
    }
    let Some(deepest) = manifold
        .points()
        .iter()
        .min_by(|p, q| p.separation.total_cmp(&q.separation))
    else {
        return ContactResponse::Keep;
    };
    let side = |shape: ShapeId, body: &'a RigidBody, pose: &Isometry| ContactBody {
        handle: shape.body,
        shape: shape.index,
        body,
        pose: *pose,
        velocity: (body.linvel(), body.angvel()),
    };
    let mut contact = PreSolveContact::new(
        (side(sa, a, a.pose()), side(sb, b, pose_b)),
        (deepest.point, manifold.normal),
        deepest.separation,
        Some(manifold),
        ContactKind::Manifold,
    );
    rules.pre_solve(&mut contact)
}

/// The remembered side of the pair `a`, `b` (see [`World::sides`]).
fn side_of(sides: &[(ShapeId, ShapeId, Vector)], a: ShapeId, b: ShapeId) -> Option<Vector> {
    sides
        .binary_search_by_key(&(a, b), |&(x, y, _)| (x, y))
        .ok()
        .map(|i| sides[i].2)
}
