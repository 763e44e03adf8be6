//! Friction at a bounce: Coulomb's bound on the whole normal impulse, restitution included,
//! clamped where the slip stops.
//!
//! The soft solve clamps friction by the normal impulse that stops the approach; the
//! restitution pass then adds the bounce on top. Coulomb's law bounds the friction impulse
//! of an impact by `mu` times the *whole* normal impulse, the bounce included, which is what
//! the single-impact resolver does ([`resolve_impact`](crate::resolve_impact)): a disc
//! with its rotation locked, `mu` 0.6 and restitution 0.9, landing on a floor at (10, -10),
//! leaves at (0, 9) (`0.6 * 19 = 11.4` would stop a slip of 10, and stops it), where a
//! friction bounded by the solve's impulse alone (`0.6 * 10 = 6`) would leave it at (4, 9).
//!
//! So after the restitution impulses are final (energy bound applied), friction is solved
//! again at every point that bounced (a bounce of its own: the pass pushed it, and it
//! approached faster than the restitution threshold with restitution), with Gauss-Seidel
//! sweeps like the pass's own:
//!
//! - the accumulated friction of the point is the solve's over the whole step (every
//!   substep's, see `packed::Applied`) plus what the sweeps add, and is clamped to
//!   `mu * (N + R)`, `N` the solve's normal impulse over the whole step and `R` the
//!   restitution impulse. Both are impulses over the step, not the last substep's: with
//!   the default 4 substeps a landing disc stops its approach in the first substep and
//!   holds nothing in the last, and bounding by the last substep's alone would make the
//!   answer depend on how the soft push-out happened to end;
//! - each update stops the slip at its point where the bound allows it, and no further: a
//!   projected Gauss-Seidel step on one row whose old impulse lies within the bound, so it
//!   never adds kinetic energy (it removes `vt^2 / (2 k_t) (2 s - s^2)` for a step `s` of
//!   the unclamped one, `0 <= s <= 1`). The bound is never tighter than the impulse the
//!   solve already applied, so that stays true whatever it was;
//! - the sweeps stop once no impulse changes the relative velocity by more than a
//!   `SETTLED` fraction of the fastest bounce, or after `restitution_iterations`.
//!
//! One point between two bodies with their rotation locked then gives the resolver's answer
//! to rounding, at any number of substeps and iterations with at least one relax iteration
//! (which takes back the soft push-out): the step's normal impulses add up to the
//! resolver's `(1 + e)` times the one that stops the approach, and friction is solved once
//! against the slip the step came with. Every other point keeps the solve's
//! friction, and scenes without a bounce never get here. That includes a point that only
//! passed a bounce on (a disc pressed against a wall by one that bounces off it): its normal
//! impulse grew too, but solving its friction again as well would take in most points of a
//! pile, which passes most bounces on, and coupled through their bodies they would run the
//! sweeps to their limit nearly every step, several times the cost of the points that
//! bounced. The friction
//! impulses are reported apart (`ConstraintPoint::restitution_tangent_impulse`) and not
//! cached: the next step must not replay them.

use super::super::{ContactConstraint, contact_tangent};
use super::bounced;
use crate::solver::bodies::{SolverBody, apply, relative_velocity};
use impact_geometry::{Real, Vector};

/// One point whose friction is solved again, with what the sweeps read and write of it.
#[derive(Debug, Clone, Copy)]
struct Row {
    state_a: u32,
    state_b: u32,
    tangent: Vector,
    r_a: Vector,
    r_b: Vector,
    tangent_mass: Real,
    /// The bounds of the accumulated friction over the step: `-+ mu (N + R)`, widened to the
    /// solve's own if that was outside.
    low: Real,
    high: Real,
    /// The friction before the sweeps: the solve's over the step, with what an earlier call
    /// of the pass added.
    start: Real,
    /// The accumulated friction over the step.
    impulse: Real,
}

/// The points of the pass whose friction is solved again, and where each came from.
#[derive(Debug, Clone, Default)]
pub(super) struct Rows {
    rows: Vec<Row>,
    /// Per row: its constraint and point.
    from: Vec<(u32, u32)>,
}

impl Rows {
    /// The points of `members` that bounced (see [`bounced`]; `threshold` is the
    /// restitution threshold), with friction, between bodies not both of infinite mass
    /// along the tangent, in the constraints' order.
    pub(super) fn gather(
        &mut self,
        constraints: &[ContactConstraint],
        members: &[u32],
        threshold: Real,
    ) {
        self.rows.clear();
        self.from.clear();
        for &i in members {
            let c = &constraints[i as usize];
            if c.friction == 0.0 {
                continue;
            }
            let tangent = contact_tangent(&c.normal);
            for (k, p) in c.points[..c.count].iter().enumerate() {
                if !(bounced(c, p, threshold) && p.tangent_mass > 0.0) {
                    continue;
                }
                let start = p.solve_tangent_impulse + p.restitution_tangent_impulse;
                let limit = c.friction * (p.solve_normal_impulse + p.restitution_impulse);
                // Impulses past the range of `f64` bound nothing: the point keeps the solve's
                // friction rather than risk a NaN.
                if !(limit.is_finite() && start.is_finite() && p.tangent_mass.is_finite()) {
                    continue;
                }
                let limit = limit.max(0.0);
                self.rows.push(Row {
                    state_a: c.state_a,
                    state_b: c.state_b,
                    tangent,
                    r_a: p.r_a,
                    r_b: p.r_b,
                    tangent_mass: p.tangent_mass,
                    low: (-limit).min(start),
                    high: limit.max(start),
                    start,
                    impulse: start,
                });
                self.from.push((i, k as u32));
            }
        }
    }

    /// Gauss-Seidel sweeps over the rows, until one changes no relative velocity by more
    /// than `settled` or `iterations` ran.
    pub(super) fn sweep_until_settled(
        &mut self,
        bodies: &mut [SolverBody],
        iterations: u32,
        settled: Real,
    ) {
        if self.rows.is_empty() {
            return;
        }
        for _ in 0..iterations {
            let mut unsettled = false;
            for row in &mut self.rows {
                let (ia, ib) = (row.state_a as usize, row.state_b as usize);
                let mut a = bodies[ia];
                let mut b = bodies[ib];
                let vt = relative_velocity(&a, &b, &row.r_a, &row.r_b).dot(&row.tangent);
                // `low <= impulse <= high` holds before and after: the update moves the
                // impulse toward the one that stops the slip, and no further.
                let accumulated = (row.impulse - row.tangent_mass * vt)
                    .max(row.low)
                    .min(row.high);
                let impulse = accumulated - row.impulse;
                unsettled |= impulse.abs() > settled * row.tangent_mass;
                row.impulse = accumulated;
                apply(&mut a, &mut b, &row.r_a, &row.r_b, &(row.tangent * impulse));
                bodies[ia] = a;
                bodies[ib] = b;
            }
            if !unsettled {
                break;
            }
        }
    }

    /// What the sweeps added into the constraints' `restitution_tangent_impulse`.
    pub(super) fn scatter(&self, constraints: &mut [ContactConstraint]) {
        for (row, &(i, k)) in self.rows.iter().zip(&self.from) {
            let p = &mut constraints[i as usize].points[k as usize];
            p.restitution_tangent_impulse += row.impulse - row.start;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::{ConstraintPoint, ContactConstraint};
    use super::super::kinetic_energy;
    use super::{Rows, bounced};
    use crate::body_set::BodyHandle;
    use crate::settings::Softness;
    use crate::solver::bodies::{SolverBody, relative_velocity};
    use impact_geometry::{Real, Vector, cross};
    use proptest::prelude::*;

    /// A body: static (no inverse mass) or dynamic, with its velocities.
    fn body() -> impl Strategy<Value = SolverBody> {
        (
            any::<bool>(),
            0.1..10.0,
            0.01..10.0,
            (-10.0..10.0, -10.0..10.0),
            -10.0..10.0,
        )
            .prop_map(|(fixed, m, i, (vx, vy), w): (bool, Real, Real, _, Real)| {
                if fixed {
                    SolverBody::default()
                } else {
                    SolverBody {
                        v: Vector::new(vx, vy),
                        w,
                        inv_mass: 1.0 / m,
                        inv_inertia: 1.0 / i,
                    }
                }
            })
    }

    /// What a point brings from the solve and the bounce: lever arms, the solve's normal
    /// impulse and the fraction of its cone the solve's friction used, the restitution
    /// impulse, and whether it was a bounce of the point's own (else one passed on).
    type PointSpec = ((Real, Real), (Real, Real), Real, Real, Real, bool);

    /// A constraint: its two bodies (modulo the body count), the normal's angle, the
    /// friction coefficient and its points.
    type PairSpec = ((usize, usize), Real, Real, Vec<PointSpec>);

    fn point() -> impl Strategy<Value = PointSpec> {
        (
            (-1.0..1.0, -1.0..1.0),
            (-1.0..1.0, -1.0..1.0),
            0.0..10.0,
            -1.0..=1.0,
            prop_oneof![Just(0.0), 0.0..10.0],
            any::<bool>(),
        )
    }

    /// Constraints between the bodies `pairs` name (taken modulo the body count), skipping
    /// pairs of one body or of two static bodies.
    fn constraints(bodies: &[SolverBody], pairs: &[PairSpec]) -> Vec<ContactConstraint> {
        let n = bodies.len();
        let mut out = Vec::new();
        for &((i, j), angle, friction, ref specs) in pairs {
            let (i, j) = (i % n, j % n);
            let (a, b) = (&bodies[i], &bodies[j]);
            if i == j || a.inv_mass + b.inv_mass == 0.0 {
                continue;
            }
            let normal = Vector::new(angle.cos(), angle.sin());
            let tangent = super::contact_tangent(&normal);
            let mut points = [ConstraintPoint::default(); 2];
            for (p, &((ax, ay), (bx, by), normal_impulse, used, bounce, own)) in
                points.iter_mut().zip(specs)
            {
                let (r_a, r_b) = (Vector::new(ax, ay), Vector::new(bx, by));
                let (rt_a, rt_b) = (cross(&r_a, &tangent), cross(&r_b, &tangent));
                let k = a.inv_mass
                    + b.inv_mass
                    + a.inv_inertia * rt_a * rt_a
                    + b.inv_inertia * rt_b * rt_b;
                *p = ConstraintPoint {
                    r_a,
                    r_b,
                    tangent_mass: 1.0 / k,
                    solve_normal_impulse: normal_impulse,
                    solve_tangent_impulse: used * friction * normal_impulse,
                    restitution_impulse: bounce,
                    // It pushed; it approached faster than the threshold of 1 if its own.
                    max_normal_impulse: 1.0,
                    relative_velocity: if own { -2.0 } else { 0.0 },
                    ..ConstraintPoint::default()
                };
            }
            out.push(ContactConstraint {
                a: BodyHandle {
                    index: i as u32,
                    generation: 0,
                },
                b: BodyHandle {
                    index: j as u32,
                    generation: 0,
                },
                shapes: [0, 0],
                state_a: i as u32,
                state_b: j as u32,
                normal,
                friction,
                restitution: 1.0,
                softness: Softness::new(30.0, 10.0, 1.0 / 240.0),
                points,
                count: specs.len(),
                offset: Vector::zeros(),
                radii: (0.0, 0.0),
                thin: (false, false),
            });
        }
        out
    }

    const THRESHOLD: Real = 1.0;

    fn energy(bodies: &[SolverBody]) -> Real {
        bodies.iter().map(|b| kinetic_energy(b, &b.v, b.w)).sum()
    }

    proptest! {
        /// The re-solve never adds kinetic energy, keeps each point's friction over the step
        /// within `mu (N + R)` (or the solve's own, if larger), touches only points with a
        /// bounce of their own and friction, and leaves one point on its own either without
        /// slip or on the bound.
        #[test]
        fn friction_at_a_bounce_removes_slip_within_the_whole_cone(
            mut bodies in prop::collection::vec(body(), 2..6),
            pairs in prop::collection::vec(
                (
                    (0usize..6, 0usize..6),
                    -4.0..4.0,
                    prop_oneof![Just(0.0), 0.0..2.0],
                    prop::collection::vec(point(), 1..=2),
                ),
                1..8,
            ),
            iterations in 1u32..40,
        ) {
            let mut constraints = constraints(&bodies, &pairs);
            prop_assume!(!constraints.is_empty());
            let members: Vec<u32> = (0..constraints.len() as u32).collect();
            let before = energy(&bodies);
            let mut rows = Rows::default();
            rows.gather(&constraints, &members, THRESHOLD);
            rows.sweep_until_settled(&mut bodies, iterations, 1e-12);
            rows.scatter(&mut constraints);
            let after = energy(&bodies);
            prop_assert!(after <= before * (1.0 + 1e-12) + 1e-12, "energy {} -> {}", before, after);
            for c in &constraints {
                for p in c.points() {
                    let added = p.restitution_tangent_impulse;
                    if !bounced(c, p, THRESHOLD) || c.friction == 0.0 {
                        prop_assert_eq!(added, 0.0);
                        continue;
                    }
                    let total = p.solve_tangent_impulse + added;
                    let cone = c.friction * (p.solve_normal_impulse + p.restitution_impulse);
                    let bound = cone.max(p.solve_tangent_impulse.abs());
                    prop_assert!(total.abs() <= bound * (1.0 + 1e-12), "{} past {}", total, bound);
                }
            }
            if let [c] = &constraints[..]
                && let [p] = c.points()
                && bounced(c, p, THRESHOLD)
            {
                let (a, b) = (&bodies[c.state_a as usize], &bodies[c.state_b as usize]);
                let tangent = super::contact_tangent(&c.normal);
                let slip = relative_velocity(a, b, &p.r_a, &p.r_b).dot(&tangent);
                let total = p.solve_tangent_impulse + p.restitution_tangent_impulse;
                let cone = c.friction * (p.solve_normal_impulse + p.restitution_impulse);
                prop_assert!(
                    slip.abs() < 1e-9 || total.abs() >= cone * (1.0 - 1e-12),
                    "slip {} left with friction {} inside {}", slip, total, cone
                );
            }
        }
    }
}
