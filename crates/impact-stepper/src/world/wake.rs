//! The wake pass of sleeping: the sleeping islands an awake body may reach in a step, found
//! at its start (a manifold at the moving body's closing distance, or a fast CCD body's reach)
//! and after the stepper ran (along the paths of the CCD bodies). Islands, the sleep pass and
//! the wake calls are in `sleep`.

use super::World;
use super::sleep::is_still;
use crate::domain::shifted;
use crate::error::WorldError;
use crate::rules::{CollisionRules, PairKind};
use crate::stepper::Stepper;
use impact_broadphase::{Broadphase, ProxyId, ProxyPair};
use impact_geometry::{Aabb, Point, Real, Vector};
use impact_narrowphase::contact_manifold;
use impact_solver::{BodyHandle, RigidBody, ShapeId};

impl<B: Broadphase, S: Stepper> World<B, S> {
    /// The shape of `proxy` and its own box, if its body sleeps. The shape's own box, not
    /// its proxy's fat one: the answer depends only on the bodies, so a restored snapshot
    /// wakes the same.
    fn sleeping_shape_box(&self, proxy: ProxyId) -> Option<(ShapeId, Aabb)> {
        let shape = self.shape_proxies.shape_of(proxy)?;
        if !self.bodies.is_asleep_at(shape.body.index) {
            return None;
        }
        let body = self.bodies.get(shape.body)?;
        let own = body.shapes()[shape.index as usize]
            .shape()
            .aabb(body.pose());
        Some((shape, own))
    }

    /// After the stepper ran, while bodies sleep: the sleeping islands the path of an
    /// awake dynamic CCD body met over the step, woken (for the step to be taken again with
    /// them awake). A body sped up inside the step (struck by a heavier one, kicked by the
    /// contact solver) can go farther than the wake pass's reach from its start velocities,
    /// and a sleeping body is in no stage of the step: without this, it would pass through
    /// it. The path is the box swept over each course the stepper recorded for the body
    /// (`FirstTimeOfImpact`), or over the straight motion from its start to its end (the
    /// other steppers move a body straight within a step), grown by the body's bounding
    /// radius; a sleeping shape whose own box meets it wakes its island. Conservative: a
    /// path that passes close by wakes an island it did not touch. Returns whether any woke.
    pub(super) fn wake_along_paths(&mut self, rules: &CollisionRules<'_>) -> bool {
        let mut paths: Vec<(BodyHandle, Aabb)> = Vec::new();
        let moves = |b: &RigidBody| b.is_dynamic() && b.ccd();
        // One pass over the recorded courses, then the straight paths of the bodies without.
        let mut on_course = vec![false; self.bodies.slot_count()];
        for &(handle, _, ref sweep) in self.scratch.tracking.courses.courses() {
            if let Some(body) = self.bodies.get(handle).filter(|b| moves(b)) {
                on_course[handle.index as usize] = true;
                paths.push((handle, body.swept_aabb(sweep)));
            }
        }
        for &(handle, start, _, _) in &self.scratch.before {
            let Some(body) = self.bodies.get(handle).filter(|b| moves(b)) else {
                continue;
            };
            if on_course[handle.index as usize] {
                continue;
            }
            let center = body.local_center();
            let radius = body.bounding_radius(&center);
            let (c0, c1) = (start * center, body.pose() * center);
            let low = Point::new(c0.x.min(c1.x) - radius, c0.y.min(c1.y) - radius);
            let high = Point::new(c0.x.max(c1.x) + radius, c0.y.max(c1.y) + radius);
            paths.push((handle, Aabb::new(low, high)));
        }
        let mut woke = false;
        let asleep = self.sleeping_bounds();
        for (mover, path) in paths {
            if !path.mins.x.is_finite() || !path.maxs.x.is_finite() {
                continue;
            }
            // A path that misses every sleeping body's box meets no sleeping shape.
            if !asleep.is_some_and(|bounds| bounds.intersects(&path)) {
                continue;
            }
            if self
                .broadphase
                .query_aabb(&path, &mut self.sleep.candidates)
                .is_err()
            {
                continue;
            }
            let candidates = core::mem::take(&mut self.sleep.candidates);
            for &proxy in &candidates {
                let Some((shape, own)) = self.sleeping_shape_box(proxy) else {
                    continue;
                };
                if !own.intersects(&path) {
                    continue;
                }
                // Only a pair that may collide: filtered pairs meet nothing.
                if !mover_may_collide(rules, &self.bodies, mover, (proxy, shape)) {
                    continue;
                }
                woke |= self.wake_body(shape.body);
            }
            self.sleep.candidates = candidates;
        }
        woke
    }

    /// After stage 1, while islands sleep: wakes every sleeping island an awake body may
    /// touch in this step of `dt` seconds (see the module's documentation) and redoes
    /// stage 1 for the woken bodies, until no more wake. Returns whether any woke.
    pub(super) fn wake_reached(
        &mut self,
        dt: Real,
        rules: &CollisionRules<'_>,
        report: &mut super::StepReport<S::Report>,
    ) -> Result<(), WorldError> {
        loop {
            if self.bodies.asleep_len() == 0 {
                return Ok(());
            }
            self.find_reached(dt, rules);
            if self.sleep.to_wake.is_empty() {
                return Ok(());
            }
            let mut ids = core::mem::take(&mut self.sleep.to_wake);
            ids.sort_unstable();
            ids.dedup();
            for &id in &ids {
                self.wake_island(id, true);
            }
            ids.clear();
            self.sleep.to_wake = ids;
            self.bodies.refresh_awake();
            self.update_broadphase(dt, true, report)?;
        }
    }

    /// The sleeping islands an awake body may reach this step, into `sleep.to_wake`.
    fn find_reached(&mut self, dt: Real, rules: &CollisionRules<'_>) {
        let g = self.settings.gravity.norm();
        let base = self.settings.speculative_distance;
        self.sleep.to_wake.clear();
        let images = self.scratch.images;
        self.find_awake_pairs();
        let awake_pairs = core::mem::take(&mut self.scratch.awake_pairs);
        let pairs: &[ProxyPair] = match &images {
            Some(images) => {
                self.scratch.periodic_pairs.clear();
                self.find_periodic_pairs(images);
                &[]
            }
            None if self.scratch.use_awake_pairs => &awake_pairs,
            None => self.broadphase.overlapping_pairs(),
        };
        let size = images.map_or_else(Vector::zeros, |images| images.size());
        let direct = pairs.iter().map(|p| (p.a.0, p.b.0, Vector::zeros()));
        let across = self.scratch.periodic_pairs.iter().map(|&(a, b, kx, ky)| {
            let offset = Vector::new(Real::from(kx) * size.x, Real::from(ky) * size.y);
            (a, b, offset)
        });
        for (ia, ib, offset) in direct.chain(across) {
            let (Some(sa), Some(sb)) = (
                self.shape_proxies.shape_of(ProxyId(ia)),
                self.shape_proxies.shape_of(ProxyId(ib)),
            ) else {
                continue;
            };
            let (asleep_a, asleep_b) = (
                self.bodies.is_asleep_at(sa.body.index),
                self.bodies.is_asleep_at(sb.body.index),
            );
            if asleep_a == asleep_b {
                continue;
            }
            let (Some(a), Some(b)) = (self.bodies.get(sa.body), self.bodies.get(sb.body)) else {
                continue;
            };
            let awake = if asleep_a { b } else { a };
            // Static bodies, and kinematic ones standing still, touch a sleeping island
            // without waking it: only a moving body can disturb it.
            if !awake.is_dynamic() && is_still(awake) {
                continue;
            }
            if rules.filters_pairs() && !allowed(rules, &self.bodies, (ia, ib, sa, sb)) {
                continue;
            }
            let sleeper = if asleep_a { sa.body } else { sb.body };
            let Some(island) = self.sleep.island(sleeper.index) else {
                continue;
            };
            if self.sleep.to_wake.contains(&island) {
                continue;
            }
            let awake_slot = if asleep_a {
                sb.body.index
            } else {
                sa.body.index
            };
            let motion = self.scratch.motion[awake_slot as usize];
            // The boxes the bodies themselves give (the awake one's as stage 1 gave it, the
            // sleeping one's own), not the broadphase's fat ones: a world restored from a
            // snapshot, whose fat boxes differ, wakes the same islands.
            let (sleeping_shape, awake_shape) = if asleep_a { (sa, sb) } else { (sb, sa) };
            let (sleeping_body, awake_body) = if asleep_a { (a, b) } else { (b, a) };
            let own = sleeping_body.shapes()[sleeping_shape.index as usize]
                .shape()
                .aabb(sleeping_body.pose());
            let Some(given) = stage_box(
                (&self.settings, &self.stepper),
                awake_body,
                awake_shape.index,
                dt,
            ) else {
                continue;
            };
            // `offset` moves body b's image: the sleeping one's box when it is b.
            let own = if asleep_a {
                own
            } else {
                shifted(&own, &offset)
            };
            let given = if asleep_a {
                shifted(&given, &offset)
            } else {
                given
            };
            if !own.intersects(&given) {
                continue;
            }
            let margin = base + travel(motion, g, dt);
            let pose_b = crate::domain::translated(b.pose(), &offset);
            let manifold = contact_manifold(
                a.shapes()[sa.index as usize].shape(),
                a.pose(),
                b.shapes()[sb.index as usize].shape(),
                &pose_b,
                margin,
            );
            if !manifold.is_empty() {
                self.sleep.to_wake.push(island);
            }
        }
        self.scratch.awake_pairs = awake_pairs;
        self.find_reached_by_fast(dt, rules);
    }

    /// The sleeping islands a fast CCD body may reach this step, in any direction: a body
    /// deflected inside the step by an impact (under [`FirstTimeOfImpact`]) or by the
    /// contact solver must not meet a body that sleeps, which no stage would see.
    ///
    /// [`FirstTimeOfImpact`]: crate::FirstTimeOfImpact
    fn find_reached_by_fast(&mut self, dt: Real, rules: &CollisionRules<'_>) {
        let g = self.settings.gravity.norm();
        let pad = self.settings.speculative_distance + g * dt * dt;
        let mut shifts = [Vector::zeros(); 8];
        // Without periodic images, an area that misses every sleeping body's box meets no
        // sleeping shape, and is not asked of the broadphase.
        let asleep = self.sleeping_bounds();
        let direct_only = self.scratch.images.is_none();
        for (handle, body) in self.bodies.iter_awake() {
            if !body.is_dynamic() || !body.ccd() {
                continue;
            }
            let Some(&motion) = self.scratch.motion.get(handle.index as usize) else {
                continue;
            };
            let reach = travel(motion, g, dt);
            if reach <= motion.2 {
                // Within its own size: the manifolds of its pairs cover it.
                continue;
            }
            let area = body.aabb().inflated(reach + pad);
            if direct_only && !asleep.is_some_and(|bounds| bounds.intersects(&area)) {
                continue;
            }
            let mut boxes = vec![(area, Vector::zeros())];
            if let Some(images) = &self.scratch.images {
                let n = images.shifts(&area, &mut shifts);
                boxes.extend(shifts[..n].iter().map(|&s| (shifted(&area, &-s), -s)));
            }
            for (query, offset) in boxes {
                if self
                    .broadphase
                    .query_aabb(&query, &mut self.sleep.candidates)
                    .is_err()
                {
                    continue;
                }
                for &proxy in &self.sleep.candidates {
                    let Some((shape, own)) = self.sleeping_shape_box(proxy) else {
                        continue;
                    };
                    if !shifted(&own, &offset).intersects(&area) {
                        continue;
                    }
                    if !mover_may_collide(rules, &self.bodies, handle, (proxy, shape)) {
                        continue;
                    }
                    if let Some(island) = self.sleep.island(shape.body.index)
                        && !self.sleep.to_wake.contains(&island)
                    {
                        self.sleep.to_wake.push(island);
                    }
                }
            }
        }
    }
}

/// The distance a body can travel in the step of `dt` seconds under gravity `g`, from its
/// `(linear velocity, |w| r, r)` motion: the closing speed bound of the manifolds.
#[inline]
fn travel((v, spin, _): (Vector, Real, Real), g: Real, dt: Real) -> Real {
    (v.norm() + spin + g * dt) * dt
}

/// Whether `rules` let the body `mover` (its first shape standing for it) collide with the
/// shape `shape` of proxy `proxy`.
fn mover_may_collide(
    rules: &CollisionRules<'_>,
    bodies: &impact_solver::BodySet,
    mover: BodyHandle,
    (proxy, shape): (ProxyId, ShapeId),
) -> bool {
    if !rules.filters_pairs() {
        return true;
    }
    let first = ProxyId(mover.index);
    let (ia, ib) = (first.0.min(proxy.0), first.0.max(proxy.0));
    let me = ShapeId {
        body: mover,
        index: 0,
    };
    let (sa, sb) = if first.0 < proxy.0 {
        (me, shape)
    } else {
        (shape, me)
    };
    allowed(rules, bodies, (ia, ib, sa, sb))
}

/// Whether `rules` let the shapes `sa` and `sb` of the candidate pair `ia`, `ib` collide
/// (a sensor pair never wakes a body).
fn allowed(
    rules: &CollisionRules<'_>,
    bodies: &impact_solver::BodySet,
    (ia, ib, sa, sb): (u32, u32, impact_solver::ShapeId, impact_solver::ShapeId),
) -> bool {
    matches!(rules.kind(ia, ib), PairKind::Collide) && rules.allows_shapes(bodies, sa, sb)
}

/// The box stage 1 gave the broadphase for shape `index` of the awake `body` in a step of
/// `dt` seconds under `settings` and `stepper` (see `update_broadphase`), or `None` if it
/// cannot be computed.
fn stage_box<S: Stepper>(
    (settings, stepper): (&crate::WorldSettings, &S),
    body: &RigidBody,
    index: u32,
    dt: Real,
) -> Option<Aabb> {
    let g = settings.gravity.norm();
    let pad = settings.speculative_distance + g * dt * dt;
    let shape = body.shapes().get(index as usize)?.shape();
    Some(match stepper.contact_reach(body, g, dt, pad) {
        Some(reach) => shape.aabb(body.pose()).inflated(reach),
        None => Aabb::swept(shape, &body.sweep(dt).ok()?).inflated(pad),
    })
}
