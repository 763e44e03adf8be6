//! The restitution pass: the bounce applied once, at the end of the soft step.
//!
//! Three choices keep it from inventing energy, each found on a scene that did:
//!
//! - **One state for every approach.** A point's approach velocity is what its bodies would
//!   have had flying free from the step's start to the substep it first pushed in (see
//!   `ConstraintPoint::relative_velocity`), not what the solver had reached by then. A disc
//!   squeezed between a wall and another disc otherwise had the wall's push counted in its
//!   approach to the other disc, and bounced off both with more than it came with (25 discs
//!   in a walled box, restitution 1: +70% in 5 s).
//! - **Sweeps until the targets hold together.** Gauss-Seidel sweeps with an accumulated
//!   restitution impulse clamped at zero, until no relative velocity changes, so a disc
//!   hitting a disc pressed against a wall leaves at its own speed (one pass lost a quarter
//!   of the energy there). With restitution 1 and every touching point bouncing, the
//!   result is twice the inelastic impulse, which conserves energy exactly.
//! - **A bound on what comes out.** The soft solve before it is not an exact inelastic
//!   projection: a speculative contact can push at a vertex the body then slides past, and a
//!   point left behind still counts as pushed. From such a start, Newton's targets can ask
//!   for more energy than the bodies had (a fast disc among thin segments doubled its speed
//!   every few steps). So each island of bodies bouncing together keeps at most the
//!   kinetic energy its bodies had in free flight this step, the largest of the step's start
//!   and end under gravity. If the bounce would exceed it, the island's restitution impulses
//!   are scaled down until it does not. Islands touching a kinematic body are exempt: a
//!   moving paddle rightly adds energy.
//!
//! Then, with the bounces final, **friction where they bounced**: Coulomb's bound on the
//! whole normal impulse of the step, restitution included, clamped where the slip stops,
//! the single-impact resolver's rule (see `friction`). The soft solve bounds friction by
//! the impulse that stops the approach, before any bounce, which alone would leave a disc
//! with its rotation locked, friction 0.6 and restitution 0.9, landing at (10, -10), at
//! (4, 9) where the resolver gives (0, 9).

mod friction;

use super::{ConstraintPoint, ContactConstraint};
use crate::body::BodyType;
use crate::settings::SolverSettings;
use crate::solver::bodies::{BodyState, SolverBody, apply, inverse_or_zero, relative_velocity};
use crate::solver::schedule::{SweepOrder, schedule};
use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{Real, Vector};

/// The pass stops once a sweep changes no relative velocity by more than this fraction of
/// the fastest bounce.
const SETTLED: Real = 1e-12;

/// Relative slack on the energy bound, so that rounding in a bounce that conserves energy
/// exactly does not scale it.
const ENERGY_SLACK: Real = 1e-12;

/// What the pass needs of the step.
pub(super) struct Step<'a> {
    pub settings: &'a SolverSettings,
    pub dt: Real,
    pub gravity: &'a Vector,
}

/// Runs the restitution pass on `bodies` (the solver's, indexed like `states`), from the
/// solve's results in `constraints`. `start` holds the bodies' velocities at preparation
/// (empty when no constraint has restitution). `scratch` is the pass's storage, kept from
/// step to step.
pub(super) fn restitution_pass(
    constraints: &mut [ContactConstraint],
    bodies: &mut [SolverBody],
    states: &[BodyState],
    start: &[SolverBody],
    scratch: &mut Scratch,
    step: Step<'_>,
) {
    complete_free_flight(constraints, states, step.gravity);
    let threshold = step.settings.restitution_threshold;
    let fastest = constraints
        .iter()
        .flat_map(|c| {
            c.points[..c.count]
                .iter()
                .filter_map(|p| bounce(c, p, threshold))
        })
        .fold(0.0 as Real, Real::max);
    // Scenes without a bounce this step (stacks, piles) pay one scan and no sweep.
    if fastest == 0.0 {
        return;
    }
    let Scratch {
        rows,
        friction,
        members,
        solved,
        islands,
        energy,
        scales,
    } = scratch;
    islands.rebuild(constraints, states, threshold);
    // Only islands with a bounce are swept: a pile elsewhere has nothing to give back.
    members.clear();
    members.extend((0..constraints.len() as u32).filter(|&i| {
        let c = &constraints[i as usize];
        c.points[..c.count].iter().any(takes_part) && {
            let root = islands.of(c);
            islands.bouncing[root]
        }
    }));
    solved.clear();
    solved.extend_from_slice(bodies);
    rows.gather(constraints, members, &step, bodies.len());
    rows.sweep_until_settled(bodies, &step, fastest);
    rows.scatter(constraints);
    bound_energy(
        constraints,
        members,
        islands,
        (bodies, solved, start),
        (energy, scales),
        &step,
    );
    // With the bounces final, friction where they bounced, bounded by the whole normal
    // impulse (see `friction`).
    friction.gather(constraints, members, threshold);
    friction.sweep_until_settled(
        bodies,
        step.settings.restitution_iterations,
        SETTLED * fastest,
    );
    friction.scatter(constraints);
}

/// What the pass keeps from step to step for its storage only: every buffer is refilled
/// before it is read.
#[derive(Debug, Clone, Default)]
pub(super) struct Scratch {
    rows: Rows,
    /// The points whose friction is solved again.
    friction: friction::Rows,
    /// The constraints of islands with a bounce.
    members: Vec<u32>,
    /// The bodies' velocities after the soft solve, before the pass.
    solved: Vec<SolverBody>,
    islands: Islands,
    /// Per island root: its energy as a function of the scale of its bounce.
    energy: Vec<IslandEnergy>,
    /// Per island root: the scale of its bounce.
    scales: Vec<Real>,
}

/// Dynamic bodies joined by the points that take part in the pass. Static and kinematic
/// bodies join nothing, or one wall would make a single island of everything touching it.
#[derive(Debug, Clone, Default)]
struct Islands {
    parent: Vec<u32>,
    dynamic: Vec<bool>,
    /// Per root: whether a point of the island bounces.
    bouncing: Vec<bool>,
    /// Per root: whether the island touches a kinematic body, which may rightly add energy.
    exempt: Vec<bool>,
    /// Per body: whether a point that takes part touches it.
    touched: Vec<bool>,
}

impl Islands {
    /// The islands of `constraints` over the bodies of `states`, in place of the last ones.
    fn rebuild(
        &mut self,
        constraints: &[ContactConstraint],
        states: &[BodyState],
        threshold: Real,
    ) {
        let n = states.len();
        let islands = self;
        islands.parent.clear();
        islands.parent.extend(0..n as u32);
        islands.dynamic.clear();
        islands
            .dynamic
            .extend(states.iter().map(|s| s.body_type == BodyType::Dynamic));
        for flags in [
            &mut islands.bouncing,
            &mut islands.exempt,
            &mut islands.touched,
        ] {
            flags.clear();
            flags.resize(n, false);
        }
        for c in constraints {
            if !c.points[..c.count].iter().any(takes_part) {
                continue;
            }
            let (ia, ib) = (c.state_a as usize, c.state_b as usize);
            islands.touched[ia] = true;
            islands.touched[ib] = true;
            if islands.dynamic[ia] && islands.dynamic[ib] {
                islands.union(ia, ib);
            }
        }
        // Flags once every join is made, on the final roots.
        for c in constraints {
            let points = &c.points[..c.count];
            if !points.iter().any(takes_part) {
                continue;
            }
            let root = islands.of(c);
            islands.bouncing[root] |= points.iter().any(|p| bounce(c, p, threshold).is_some());
            let kinematic = |i: u32| states[i as usize].body_type == BodyType::Kinematic;
            islands.exempt[root] |= kinematic(c.state_a) || kinematic(c.state_b);
        }
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] as usize != i {
            let up = self.parent[self.parent[i] as usize];
            self.parent[i] = up;
            i = up as usize;
        }
        i
    }

    /// Joins the islands of `a` and `b` under the smaller root, so the result does not
    /// depend on the order of the joins.
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        let (low, high) = if ra < rb { (ra, rb) } else { (rb, ra) };
        self.parent[high] = low as u32;
    }

    /// The root of the island of `c` (a constraint has at least one dynamic body).
    fn of(&mut self, c: &ContactConstraint) -> usize {
        let a = c.state_a as usize;
        self.find(if self.dynamic[a] {
            a
        } else {
            c.state_b as usize
        })
    }
}

/// Adds to each point's approach velocity what gravity gave it in its free flight; only a
/// pair with one side that gravity moves feels it (between two dynamic bodies it cancels).
fn complete_free_flight(
    constraints: &mut [ContactConstraint],
    states: &[BodyState],
    gravity: &Vector,
) {
    let falls = |state: u32| states[state as usize].body_type == BodyType::Dynamic;
    for c in constraints {
        let gravity_along_normal = match (falls(c.state_a), falls(c.state_b)) {
            (true, false) => -gravity.dot(&c.normal),
            (false, true) => gravity.dot(&c.normal),
            _ => 0.0,
        };
        for p in &mut c.points[..c.count] {
            p.relative_velocity += gravity_along_normal * p.free_time;
            p.free_time = 0.0;
        }
    }
}

/// The approach speed restitution must give back at `p`, or `None` when the point has none
/// to give: too slow, inelastic, or it never touched.
fn bounce(c: &ContactConstraint, p: &ConstraintPoint, threshold: Real) -> Option<Real> {
    (c.restitution != 0.0 && p.max_normal_impulse != 0.0 && p.relative_velocity <= -threshold)
        .then_some(-p.relative_velocity)
}

/// Whether the pass gave `p` a bounce of its own (not only a push passed on from another).
pub(super) fn bounced(c: &ContactConstraint, p: &ConstraintPoint, threshold: Real) -> bool {
    p.restitution_impulse > 0.0 && bounce(c, p, threshold).is_some()
}

/// Whether `p` takes part in the pass: it pushed this step, between bodies not both of
/// infinite mass.
fn takes_part(p: &ConstraintPoint) -> bool {
    p.max_normal_impulse != 0.0 && p.normal_mass != 0.0
}

/// One point of the pass, with what the sweeps read and write of it. The sweeps visit the
/// points up to `restitution_iterations` times (all of them in a pile, which never settles
/// to the last bit), and a constraint, with everything the soft solve needed, is several
/// times larger: packed, a pile's points stay in cache from sweep to sweep.
#[derive(Debug, Clone, Copy)]
struct Row {
    state_a: u32,
    state_b: u32,
    normal: Vector,
    r_a: Vector,
    r_b: Vector,
    normal_mass: Real,
    /// The normal relative velocity the point must reach (it only pushes): its bounce, or
    /// no approach (see [`Rows::gather`]). Fixed for the pass.
    target: Real,
    /// The accumulated restitution impulse.
    impulse: Real,
}

/// The points of the pass in sweep order, and where each came from.
///
/// The sweep order is [`schedule`]'s: each body sees its points in the order of the
/// constraints, so every sweep gives the result of that order bit for bit, but consecutive
/// points share no body. In that order the processor works on several points side by side;
/// in the constraints' order, neighbours in a pile nearly always share a body and each point
/// waits out the latency of the one before, which matters in a pile's pass, whose sweeps
/// run to their limit over hundreds of points.
#[derive(Debug, Clone, Default)]
pub(super) struct Rows {
    rows: Vec<Row>,
    /// Per row: its constraint and point.
    from: Vec<(u32, u32)>,
    /// The rows and their origins in the constraints' order, before scheduling.
    staged: Vec<(Row, (u32, u32))>,
    order: SweepOrder,
}

impl Rows {
    /// The points of `members` that take part, in sweep order (see [`Rows`]); `body_count`
    /// bounds the bodies' indices.
    fn gather(
        &mut self,
        constraints: &[ContactConstraint],
        members: &[u32],
        step: &Step<'_>,
        body_count: usize,
    ) {
        self.staged.clear();
        let threshold = step.settings.restitution_threshold;
        let inv_dt = 1.0 / step.dt;
        for &i in members {
            let c = &constraints[i as usize];
            for (k, p) in c.points[..c.count].iter().enumerate() {
                if !takes_part(p) {
                    continue;
                }
                // A point with no bounce only keeps the bounces of others from driving its
                // bodies together: not at all while they touch (within the linear slop the
                // solver leaves between resting bodies), by no more than closes its gap
                // within the step once they drifted apart (a contact that pushed early in
                // the step and was left behind must not hold a body).
                let target = match bounce(c, p, threshold) {
                    Some(speed) => c.restitution * speed,
                    None => -(p.separation - LINEAR_SLOP).max(0.0) * inv_dt,
                };
                let row = Row {
                    state_a: c.state_a,
                    state_b: c.state_b,
                    normal: c.normal,
                    r_a: p.r_a,
                    r_b: p.r_b,
                    normal_mass: p.normal_mass,
                    target,
                    impulse: p.restitution_impulse,
                };
                self.staged.push((row, (i, k as u32)));
            }
        }
        schedule(
            self.staged.iter().map(|(r, _)| (r.state_a, r.state_b)),
            body_count,
            &mut self.order,
        );
        self.rows.clear();
        self.from.clear();
        for &i in &self.order.order {
            let (row, from) = self.staged[i as usize];
            self.rows.push(row);
            self.from.push(from);
        }
    }

    /// Gauss-Seidel sweeps over the rows, until one changes no relative velocity by more
    /// than [`SETTLED`] of the `fastest` bounce or `restitution_iterations` ran.
    fn sweep_until_settled(&mut self, bodies: &mut [SolverBody], step: &Step<'_>, fastest: Real) {
        let settled = SETTLED * fastest;
        for _ in 0..step.settings.restitution_iterations {
            // Whether a row changed a relative velocity by more than `settled`: a running
            // maximum (with its NaN handling) of divided changes chained every row to the one
            // before, and the division held each row up; the comparison with the impulse
            // needs neither.
            let mut unsettled = false;
            for row in &mut self.rows {
                let (ia, ib) = (row.state_a as usize, row.state_b as usize);
                let mut a = bodies[ia];
                let mut b = bodies[ib];
                let vn = relative_velocity(&a, &b, &row.r_a, &row.r_b).dot(&row.normal);
                let accumulated = (row.impulse - row.normal_mass * (vn - row.target)).max(0.0);
                // No branch on a zero impulse: whether a point still pushes is close to a coin
                // toss in a pile, and the skip mispredicted about one row in two. A zero
                // impulse leaves the velocities as they are.
                let impulse = accumulated - row.impulse;
                unsettled |= impulse.abs() > settled * row.normal_mass;
                row.impulse = accumulated;
                apply(&mut a, &mut b, &row.r_a, &row.r_b, &(row.normal * impulse));
                bodies[ia] = a;
                bodies[ib] = b;
            }
            if !unsettled {
                break;
            }
        }
    }

    /// The accumulated impulses back into the constraints.
    fn scatter(&self, constraints: &mut [ContactConstraint]) {
        for (row, &(i, k)) in self.rows.iter().zip(&self.from) {
            constraints[i as usize].points[k as usize].restitution_impulse = row.impulse;
        }
    }
}

/// `m v1 . v2 + I w1 w2` for the mass and inertia of `b`: twice the kinetic energy when
/// both velocities are the same, and how that energy moves to first order when the second
/// is a change of the first.
fn mass_weighted_dot(b: &SolverBody, v1: &Vector, w1: Real, v2: &Vector, w2: Real) -> Real {
    inverse_or_zero(b.inv_mass) * v1.dot(v2) + inverse_or_zero(b.inv_inertia) * w1 * w2
}

/// Kinetic energy of `b` moving at `v`, `w`.
fn kinetic_energy(b: &SolverBody, v: &Vector, w: Real) -> Real {
    0.5 * mass_weighted_dot(b, v, w, v, w)
}

/// One island's energy as a function of the scale `s` of its restitution impulses:
/// `solved + s * linear + s^2 * quadratic`, against the free-flight `bound`.
#[derive(Debug, Clone, Copy, Default)]
struct IslandEnergy {
    solved: Real,
    linear: Real,
    quadratic: Real,
    bound: Real,
    exempt: bool,
}

impl IslandEnergy {
    /// The largest scale in `[0, 1]` that keeps the energy within the bound; when the solve
    /// alone already exceeds it, the scale of least energy.
    fn scale(&self) -> Real {
        if self.exempt {
            return 1.0;
        }
        // Energies past the range of `f64` (a disc of radius 1e39 found by the scene fuzzer)
        // bound nothing: the island gives no bounce back rather than risk adding energy.
        if ![self.solved, self.linear, self.quadratic, self.bound]
            .iter()
            .all(|e| e.is_finite())
        {
            return 0.0;
        }
        let at_one = self.solved + self.linear + self.quadratic;
        if at_one <= self.bound * (1.0 + ENERGY_SLACK) || self.quadratic <= 0.0 {
            return 1.0;
        }
        let least = (-self.linear / (2.0 * self.quadratic)).clamp(0.0, 1.0);
        let room = self.bound - self.solved;
        if room < 0.0 {
            return least;
        }
        // The larger root of quadratic s^2 + linear s - room = 0; room >= 0 puts it at or
        // above zero, and at_one > bound puts it below one.
        let discriminant = self.linear * self.linear + 4.0 * self.quadratic * room;
        ((-self.linear + discriminant.sqrt()) / (2.0 * self.quadratic)).clamp(least, 1.0)
    }
}

/// Scales down the restitution impulses of each island whose bounce would leave it with more
/// kinetic energy than its bodies had in free flight this step.
/// `(bodies, solved, start)`: the velocities now, after the soft solve and at preparation;
/// `(energy, scales)`: storage, per island root.
fn bound_energy(
    constraints: &mut [ContactConstraint],
    members: &[u32],
    islands: &mut Islands,
    (bodies, solved, start): (&mut [SolverBody], &[SolverBody], &[SolverBody]),
    (energy, scales): (&mut Vec<IslandEnergy>, &mut Vec<Real>),
    step: &Step<'_>,
) {
    let swept = |islands: &mut Islands, i: usize| {
        islands.touched[i] && islands.dynamic[i] && {
            let root = islands.find(i);
            islands.bouncing[root]
        }
    };
    energy.clear();
    energy.resize(bodies.len(), IslandEnergy::default());
    let fall = step.gravity * step.dt;
    for i in 0..bodies.len() {
        if !swept(islands, i) {
            continue;
        }
        let root = islands.find(i);
        let (before, after, at_start) = (&solved[i], &bodies[i], &start[i]);
        let (dv, dw) = (after.v - before.v, after.w - before.w);
        let e = &mut energy[root];
        e.exempt = islands.exempt[root];
        e.solved += kinetic_energy(before, &before.v, before.w);
        e.linear += mass_weighted_dot(before, &before.v, before.w, &dv, dw);
        e.quadratic += kinetic_energy(before, &dv, dw);
        // Kinetic energy along a free flight is convex in time: its largest value over the
        // step is at one end.
        e.bound += kinetic_energy(at_start, &at_start.v, at_start.w).max(kinetic_energy(
            at_start,
            &(at_start.v + fall),
            at_start.w,
        ));
    }
    // Only roots gathered anything; an empty entry scales by 1.
    scales.clear();
    scales.extend(energy.iter().map(IslandEnergy::scale));
    if scales.iter().all(|&s| s == 1.0) {
        return;
    }
    for i in 0..bodies.len() {
        if !swept(islands, i) {
            continue;
        }
        let s = scales[islands.find(i)];
        if s < 1.0 {
            let (before, after) = (&solved[i], &mut bodies[i]);
            after.v = before.v + (after.v - before.v) * s;
            after.w = before.w + (after.w - before.w) * s;
        }
    }
    for &i in members {
        let c = &mut constraints[i as usize];
        let s = scales[islands.of(c)];
        for p in &mut c.points[..c.count] {
            p.restitution_impulse *= s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::IslandEnergy;

    fn island(solved: f64, linear: f64, quadratic: f64, bound: f64) -> IslandEnergy {
        IslandEnergy {
            solved,
            linear,
            quadratic,
            bound,
            exempt: false,
        }
    }

    #[test]
    fn a_bounce_within_the_bound_is_kept_whole() {
        // An elastic pair: stopped (solved 0), the bounce gives back exactly the bound.
        assert_eq!(island(0.0, 0.0, 2.0, 2.0).scale(), 1.0);
        // Rounding above the bound by less than the slack does not scale.
        assert_eq!(island(0.0, 0.0, 2.0 * (1.0 + 1e-13), 2.0).scale(), 1.0);
    }

    #[test]
    fn a_bounce_past_the_bound_is_scaled_onto_it() {
        let e = island(1.0, 0.5, 4.0, 3.0);
        let s = e.scale();
        assert!(s > 0.0 && s < 1.0);
        let energy = e.solved + s * e.linear + s * s * e.quadratic;
        assert!((energy - e.bound).abs() < 1e-12, "{energy}");
    }

    #[test]
    fn a_solve_already_past_the_bound_keeps_the_least_energy() {
        // Energy 5 + s (-2) + s^2 (4) is least at s = 1/4.
        assert_eq!(island(5.0, -2.0, 4.0, 3.0).scale(), 0.25);
        // Rising from s = 0: no bounce at all.
        assert_eq!(island(5.0, 1.0, 4.0, 3.0).scale(), 0.0);
    }

    #[test]
    fn energies_past_the_range_of_f64_give_no_bounce_and_no_panic() {
        // The scene fuzzer's disc of radius 3.4e39: its energies overflowed, `least` came out
        // NaN and `clamp(NaN, 1.0)` panicked.
        let inf = f64::INFINITY;
        for e in [
            island(inf, -inf, inf, inf),
            island(1.0, f64::NAN, 4.0, 3.0),
            island(1.0, 0.5, inf, 3.0),
            island(1.0, 0.5, 4.0, inf),
        ] {
            assert_eq!(e.scale(), 0.0, "{e:?}");
        }
    }

    #[test]
    fn an_island_touching_a_kinematic_body_is_never_scaled() {
        let mut e = island(1.0, 0.5, 4.0, 3.0);
        e.exempt = true;
        assert_eq!(e.scale(), 1.0);
    }
}
