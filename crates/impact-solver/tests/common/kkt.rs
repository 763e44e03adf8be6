//! The oracle of the group impact tests: the KKT system `[M J^T; J 0]` of rows of velocity
//! constraints, assembled from the bodies and solved by nalgebra's LU decomposition with full
//! pivoting, and the brute-force complementarity solve that tries every active set of its
//! one-sided rows. It shares no code with the solver's own solve.

use impact_geometry::nalgebra::{DMatrix, DVector};
use impact_geometry::{Point, Real, Vector, cross};
use impact_solver::{BodyHandle, BodySet};

/// A row of the oracle: bodies (indices into the oracle's list of movable bodies, `None`
/// for infinite mass) and the row's coefficients on each.
pub type OracleRow = [(Option<usize>, Vector, Real); 2];

/// The row of the velocity of B's material point at `p` minus A's, along `dir`.
pub fn point_row(
    (ia, ca): (Option<usize>, Point),
    (ib, cb): (Option<usize>, Point),
    p: (Point, Point),
    dir: Vector,
) -> OracleRow {
    let (ra, rb) = (p.0 - ca, p.1 - cb);
    [(ia, -dir, -cross(&ra, &dir)), (ib, dir, cross(&rb, &dir))]
}

/// The velocities of `list`, stacked.
pub fn velocities(bodies: &BodySet, list: &[BodyHandle]) -> DVector<Real> {
    let mut v = DVector::zeros(3 * list.len());
    for (k, &h) in list.iter().enumerate() {
        let b = bodies.get(h).unwrap();
        v[3 * k] = b.linvel().x;
        v[3 * k + 1] = b.linvel().y;
        v[3 * k + 2] = b.angvel();
    }
    v
}

/// The velocities `v` with `rows` held at `targets` and the impulse `fixed` (along a row of
/// its own) applied, closest to `v0` in the mass metric: the KKT system solved by LU. The
/// multipliers it returns are the rows' impulses with their sign flipped
/// (`M v + J^T l = M v0`); `None` for a singular system.
pub fn kkt(
    bodies: &BodySet,
    list: &[BodyHandle],
    v0: &DVector<Real>,
    rows: &[(OracleRow, Real)],
    fixed: &[(OracleRow, Real)],
) -> Option<(DVector<Real>, DVector<Real>)> {
    let (n, m) = (3 * list.len(), rows.len());
    let mut k = DMatrix::zeros(n + m, n + m);
    let mut rhs = DVector::zeros(n + m);
    for (i, &h) in list.iter().enumerate() {
        let b = bodies.get(h).unwrap();
        let (mass, inertia) = (b.mass(), b.inertia());
        for (j, mj) in [(0, mass), (1, mass), (2, inertia)] {
            k[(3 * i + j, 3 * i + j)] = mj;
            rhs[3 * i + j] = mj * v0[3 * i + j];
        }
    }
    let jt = |row: &OracleRow, column: &mut dyn FnMut(usize, Real)| {
        for &(body, lin, ang) in row {
            if let Some(i) = body {
                column(3 * i, lin.x);
                column(3 * i + 1, lin.y);
                column(3 * i + 2, ang);
            }
        }
    };
    for (r, (row, target)) in rows.iter().enumerate() {
        jt(row, &mut |c, x| {
            k[(c, n + r)] += x;
            k[(n + r, c)] += x;
        });
        rhs[n + r] = *target;
    }
    for &(row, impulse) in fixed {
        jt(&row, &mut |c, x| rhs[c] += x * impulse);
    }
    let solution = k.full_piv_lu().solve(&rhs)?;
    Some((
        solution.rows(0, n).into_owned(),
        solution.rows(n, m).into_owned(),
    ))
}

/// [`kkt`] with one-sided rows `(row, target, prior)` whose total impulse (`prior` plus what
/// this solve adds) stays zero or more and whose velocity stays at least its target, either
/// acting (held at the target) or not (its total back to zero): every subset of acting rows
/// is tried, and the one whose impulses and velocities meet those conditions is the answer.
/// Returns the velocities, each one-sided row's added impulse and each equal row's impulse,
/// or `None` where no regular subset meets them (a degenerate case the oracle cannot tell).
pub fn lcp(
    bodies: &BodySet,
    list: &[BodyHandle],
    v0: &DVector<Real>,
    equal: &[(OracleRow, Real)],
    one_sided: &[(OracleRow, Real, Real)],
    fixed: &[(OracleRow, Real)],
) -> Option<(DVector<Real>, Vec<Real>, Vec<Real>)> {
    let k = one_sided.len();
    let scale = 1.0 + v0.amax();
    for mask in 0..1u32 << k {
        let acting = |j: usize| mask & (1 << j) != 0;
        let mut rows = equal.to_vec();
        let mut pushes = fixed.to_vec();
        for (j, &(row, target, prior)) in one_sided.iter().enumerate() {
            if acting(j) {
                rows.push((row, target));
            } else {
                pushes.push((row, -prior));
            }
        }
        let Some((v, l)) = kkt(bodies, list, v0, &rows, &pushes) else {
            continue;
        };
        let mut added = Vec::with_capacity(k);
        let mut next = equal.len();
        let mut ok = true;
        for (j, &(row, target, prior)) in one_sided.iter().enumerate() {
            if acting(j) {
                let impulse = -l[next];
                next += 1;
                ok &= prior + impulse >= -1e-9 * scale;
                added.push(impulse);
            } else {
                ok &= row_velocity(&row, &v) - target >= -1e-9 * scale;
                added.push(-prior);
            }
        }
        if ok {
            let equal_impulses = (0..equal.len()).map(|i| -l[i]).collect();
            return Some((v, added, equal_impulses));
        }
    }
    None
}

/// `J v` of a row.
pub fn row_velocity(row: &OracleRow, v: &DVector<Real>) -> Real {
    row.iter()
        .filter_map(|&(body, lin, ang)| {
            body.map(|i| lin.x * v[3 * i] + lin.y * v[3 * i + 1] + ang * v[3 * i + 2])
        })
        .sum()
}
