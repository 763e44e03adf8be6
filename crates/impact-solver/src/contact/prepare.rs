//! Contact preparation: the constraints of a step built from the caller's pairs, warm
//! started from the [`ContactCache`], then laid out for the sweeps.
//!
//! Everything a constraint needs for the whole step is computed here once: the lever arms
//! from each centre of mass, the effective masses, the softness (stiffer against an infinite
//! mass), the approach velocity restitution starts from, and the impulses of the same
//! (pair, feature) last step. Bad input is refused here, before a body is touched.

use super::{CacheKey, CachedImpulse};
use super::{ConstraintPoint, ContactConstraint, ContactPair, ContactRows, contact_tangent};
use super::{ContactCache, packed, sweep_order};
use crate::body::RigidBody;
use crate::body_set::BodySet;
use crate::error::{SolverError, finite_vector};
use crate::settings::{Softness, SolverSettings};
use crate::solver::bodies::{BodyTable, inverse_or_zero};
use impact_geometry::{Real, Shape, cross, cross_scalar_vector};
use impact_narrowphase::{ContactId, Manifold};

impl ContactRows {
    /// Counts from here on the impulses every point applies over the step (see
    /// [`packed::Applied`]), if it does not already: call before the first warm start.
    pub(crate) fn count_applied(&mut self) {
        if !self.counting {
            packed::start_applied(&self.chunks, &mut self.applied);
            self.counting = true;
        }
    }

    /// Prepares the constraints of `pairs` (in that order) for a step of substeps `h`
    /// (`inv_h` its inverse), adding their bodies to `table`: the rows must be empty.
    ///
    /// Empty manifolds, and pairs where neither body is dynamic, produce no constraint.
    /// Impulses cached for the same (pair, feature) are loaded when
    /// `settings.warm_starting` is on.
    ///
    /// # Errors
    /// As [`ContactSolver::new`](crate::ContactSolver::new) for the pairs.
    pub(crate) fn prepare(
        &mut self,
        table: &mut BodyTable,
        bodies: &BodySet,
        pairs: &[ContactPair],
        cache: &ContactCache,
        settings: &SolverSettings,
        (h, inv_h): (Real, Real),
    ) -> Result<(), SolverError> {
        // Above a quarter of the substep rate the implicit spring no longer settles in a few
        // substeps; Box2D v3 clamps the same way.
        let hertz = settings.contact_hertz.min(0.25 * inv_h);
        let soft = Softness::new(hertz, settings.contact_damping_ratio, h);
        // Against an infinite mass only one body moves, so the contact can be twice as stiff
        // for the same stability (Box2D v3's static softness).
        let static_soft = Softness::new(2.0 * hertz, settings.contact_damping_ratio, h);

        // First the bodies' places in the table and the cache entries, which follow the pair
        // order; then the constraints, each on its own (on rayon's threads with the
        // `parallel` feature, the same bits for any number of threads).
        let mut jobs = Vec::with_capacity(pairs.len());
        // Where the previous pair's cache entries end.
        let mut cache_cursor = 0;
        for (i, pair) in pairs.iter().enumerate() {
            let (body_a, body_b) = pair_bodies(i, pair, bodies)?;
            if pair.manifold.is_empty() || (!body_a.is_dynamic() && !body_b.is_dynamic()) {
                continue;
            }
            let state_a = table.index_of(pair.a, body_a);
            let state_b = table.index_of(pair.b, body_b);
            let cached_pair = if settings.warm_starting {
                let (entries, end) = cache.pair_entries(pair.a, pair.b, cache_cursor);
                cache_cursor = end;
                entries
            } else {
                &[]
            };
            jobs.push(Job {
                pair,
                bodies: (body_a, body_b),
                states: (state_a, state_b),
                cached_pair,
            });
        }
        let table_now: &BodyTable = table;
        let build = |job: &Job<'_>| {
            constraint_of(
                job.pair,
                job.bodies,
                job.states,
                table_now,
                job.cached_pair,
                (soft, static_soft),
            )
        };
        let constraints = &mut self.constraints;
        build_all(&jobs, build, constraints);
        sweep_order(constraints, &table.velocities, &mut self.order);
        packed::pack(
            constraints,
            &table.velocities,
            &self.order.order,
            &self.order.chunk_starts,
            &mut self.chunks,
            &mut self.anchors,
        );
        if constraints.iter().any(|c| c.restitution != 0.0) {
            self.start_velocities.extend_from_slice(&table.velocities);
            self.count_applied();
        }
        self.prepared = true;
        Ok(())
    }
}

/// The two bodies of pair `i`, once its handles, manifold and offset are checked.
#[inline]
fn pair_bodies<'a>(
    i: usize,
    pair: &ContactPair,
    bodies: &'a BodySet,
) -> Result<(&'a RigidBody, &'a RigidBody), SolverError> {
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
    Ok((body_a, body_b))
}

/// One constraint to build: its pair, the pair's bodies, their places in the solver's table
/// and the pair's cache entries.
struct Job<'a> {
    pair: &'a ContactPair,
    bodies: (&'a RigidBody, &'a RigidBody),
    states: (usize, usize),
    cached_pair: &'a [(CacheKey, CachedImpulse)],
}

/// The constraint of every job, in order, into `out` (whatever it held): on rayon's threads
/// with the `parallel` feature.
fn build_all(
    jobs: &[Job<'_>],
    build: impl Fn(&Job<'_>) -> ContactConstraint + Sync + Send,
    out: &mut Vec<ContactConstraint>,
) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        if jobs.len() >= 256 && rayon::current_num_threads() >= 2 {
            jobs.par_iter()
                .with_min_len(64)
                .map(build)
                .collect_into_vec(out);
            return;
        }
    }
    out.clear();
    out.reserve(jobs.len());
    for job in jobs {
        out.push(build(job));
    }
}

/// The constraint of `pair` between `body_a` and `body_b` (at `states` in `table`), with the
/// impulses of `cached_pair` (the pair's cache entries) and the softness against a finite or
/// an infinite mass, `(soft, static_soft)`.
#[inline(always)]
fn constraint_of(
    pair: &ContactPair,
    (body_a, body_b): (&RigidBody, &RigidBody),
    (state_a, state_b): (usize, usize),
    table: &BodyTable,
    cached_pair: &[(CacheKey, CachedImpulse)],
    (soft, static_soft): (Softness, Softness),
) -> ContactConstraint {
    let (sa, sb) = (&table.states[state_a], &table.states[state_b]);
    let (va, vb) = (&table.velocities[state_a], &table.velocities[state_b]);
    let normal = pair.manifold.normal;
    let tangent = contact_tangent(&normal);
    let (shape_a, shape_b) = (
        pair.shape_of(body_a, 0).shape(),
        pair.shape_of(body_b, 1).shape(),
    );
    // The side of the cache key (smaller handle first) that is a chain segment, if one is.
    let chain_side = match (shape_a, shape_b) {
        (Shape::ChainSegment(_), _) => Some(usize::from(pair.a > pair.b)),
        (_, Shape::ChainSegment(_)) => Some(usize::from(pair.a <= pair.b)),
        _ => None,
    };
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
        let dv = vb.v + cross_scalar_vector(vb.w, &r_b) - va.v - cross_scalar_vector(va.w, &r_a);
        let key = CacheKey::of_shapes(pair.a, pair.b, pair.shapes, mp.id);
        let cached = cached_pair
            .iter()
            .find(|(k, _)| *k == key)
            .map(|e| e.1)
            .or_else(|| chain_side.and_then(|side| from_neighbour(cached_pair, &key, side)))
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
    ContactConstraint {
        a: pair.a,
        b: pair.b,
        shapes: pair.shapes,
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
        // A chain segment has no inside either.
        thin: (
            matches!(shape_a, Shape::Segment(_) | Shape::ChainSegment(_)),
            matches!(shape_b, Shape::Segment(_) | Shape::ChainSegment(_)),
        ),
    }
}

#[inline]
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

/// The cached impulse of the same feature of the other shape against another segment of the
/// same chain body, the nearest in the chain's order (`side` of `key` is the chain segment;
/// segment `i` of a chain body is its shape `i`): a body sliding along a chain moves its
/// contact from one segment to the next, or past several in a step, and starting that
/// contact from zero would let it sink for a step at every joint it crosses (at 100 units/s,
/// a millimetre per second of vertical speed under gravity).
fn from_neighbour(
    entries: &[(CacheKey, CachedImpulse)],
    key: &CacheKey,
    side: usize,
) -> Option<CachedImpulse> {
    let other = 1 - side;
    let feature = |id: ContactId, side: usize| if side == 0 { id.0 >> 16 } else { id.0 & 0xFFFF };
    entries
        .iter()
        .filter(|(k, _)| {
            k.shapes[other] == key.shapes[other]
                && k.shapes[side] != key.shapes[side]
                && feature(k.id, other) == feature(key.id, other)
        })
        .min_by_key(|(k, _)| (k.shapes[side].abs_diff(key.shapes[side]), k.shapes[side]))
        .map(|e| e.1)
}
