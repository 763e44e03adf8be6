//! The dense solve of a group's rows: a mixed linear complementarity problem with bounded
//! variables, by an active set over a direct LDL^T factorisation.
//!
//! With `A = J W J^T` (`W` the inverse masses) and `b = J v - target`, find impulses `x`
//! with `lo <= x <= hi` and `w = A x + b` such that `w_i = 0` where `lo_i < x_i < hi_i`,
//! `w_i >= 0` where `x_i = lo_i` and `w_i <= 0` where `x_i = hi_i`: rigid rows are free
//! (`-inf, inf`), a contact's normal and a limit at its bound have `lo = 0` (or minus what an
//! earlier stage applied), friction has `[-mu N, mu N]`.
//!
//! Each round solves the rows that are *free* (neither at a bound) exactly, the others held
//! at their bounds, with `A_FF x_F = -(b_F + A_FB x_B)` by an LDL^T factorisation without
//! pivoting (`A_FF` is symmetric positive semi-definite): a pivot that falls below
//! `1e-10` of its diagonal marks its row as dependent on the rows before it (a loop that
//! holds a body twice, a weld beside a revolute joint on the same bodies) and its impulse is
//! left at 0, which solves a consistent system; then two rounds of iterative refinement bring
//! the residual to rounding. Rows whose impulse left its bounds go to the bound, and rows at a
//! bound whose velocity would pull them off it are freed. The first rounds move every such
//! row at once (block principal pivoting, Júdice and Pires 1994), and later rounds one at a
//! time, the lowest index first (Murty's least-index rule, 1974, which terminates on a
//! P-matrix), so a cycle of the block rule cannot last. `A` is only semi-definite (rows
//! that depend on each other, a friction row whose bounds are nearly 0), where the
//! least-index rule can cycle too; a round depends only on the active set it starts from,
//! so once a set comes back the solve goes to the fallback (projected Gauss-Seidel, see
//! [`Dense::gauss_seidel`]) at once. In the rain of ragdolls about 3% of the solves do,
//! at the fifteenth round on average.
//!
//! Cost per round for `m` free rows: the factor's sums run over the envelope of `A_FF`
//! (each row from its first column that is not 0, see [`Dense::factor`]), at most
//! `m^3 / 6` multiply-adds, and the products with `A` over its entries that are not 0. A
//! row couples only with the rows that share a body with it, so a ragdoll's rows (about 40
//! at an impact among limbs and the ground) factor in about a quarter of the dense cost. A
//! round per change of the active set: a 20-link chain (41 rows) solves in one round. The
//! groups of jointed bodies a CCD step meets (a ragdoll, a whip) are tens of rows.

use impact_geometry::Real;

/// Where a row stands in the active set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Free,
    AtLower,
    AtUpper,
}

/// A pivot below this fraction of its diagonal marks a dependent row.
const DEPENDENT_PIVOT: Real = 1e-10;

/// Rounds of block pivoting before the least-index rule takes over.
const BLOCK_ROUNDS: u32 = 8;

/// Sweeps of the projected Gauss-Seidel fallback, at most.
const GAUSS_SEIDEL_SWEEPS: u32 = 400;

/// What a solve found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Outcome {
    /// The largest violation of a row's condition (`|w_i|` of a free row, the wrong sign of
    /// one at a bound), in the units of `w` (a velocity).
    pub(super) residual: Real,
    /// How many rounds (factorisations) it took.
    pub(super) rounds: u32,
    /// Whether the active set settled (else the last round's impulses, within their bounds).
    pub(super) settled: bool,
}

/// The problem and the storage of its solve, kept from impact to impact.
#[derive(Debug, Clone, Default)]
pub(super) struct Dense {
    n: usize,
    /// `A`, row-major, `n * n`.
    pub(super) a: Vec<Real>,
    /// `b = J v - target`.
    pub(super) b: Vec<Real>,
    pub(super) lo: Vec<Real>,
    pub(super) hi: Vec<Real>,
    /// The impulses.
    pub(super) x: Vec<Real>,
    state: Vec<State>,
    /// The active sets the least-index rule has met in this solve, `n` states each.
    seen: Vec<State>,
    free: Vec<usize>,
    /// The factor of `A_FF`: unit lower triangle (row-major, `m * m`) and diagonal.
    l: Vec<Real>,
    d: Vec<Real>,
    /// Per free row, the first column of its envelope (see [`Dense::factor`]).
    first: Vec<usize>,
    dependent: Vec<bool>,
    rhs: Vec<Real>,
    step: Vec<Real>,
    residual: Vec<Real>,
    /// `w = A x + b`.
    pub(super) w: Vec<Real>,
    /// The entries of each row of `A` that are not 0, with their columns, in order: row
    /// `i`'s are `columns[starts[i]..starts[i + 1]]` (see [`Dense::index_nonzeros`]).
    columns: Vec<(usize, Real)>,
    starts: Vec<usize>,
    /// Multiply-adds spent by the solves since the count was last reset (factorisations,
    /// substitutions and sweeps; not cleared by [`Dense::reset_to_fill`]).
    pub(super) work: u64,
}

impl Dense {
    /// An empty problem of `n` rows: `A` and `b` zero, every row free, no impulse (the unit
    /// tests' start, which set a few entries of `A`).
    #[cfg(test)]
    fn reset(&mut self, n: usize) {
        self.a.clear();
        self.reset_to_fill(n);
    }

    /// As [`Dense::reset`], but `A` holds whatever its storage held: for a caller that writes
    /// every entry of `A` (the group's assembly), which a clear of `n * n` entries at every
    /// stage of every impact would only repeat.
    pub(super) fn reset_to_fill(&mut self, n: usize) {
        self.n = n;
        let fill = |v: &mut Vec<Real>, len: usize, value: Real| {
            v.clear();
            v.resize(len, value);
        };
        self.a.truncate(n * n);
        self.a.resize(n * n, 0.0);
        fill(&mut self.b, n, 0.0);
        fill(&mut self.lo, n, Real::NEG_INFINITY);
        fill(&mut self.hi, n, Real::INFINITY);
        fill(&mut self.x, n, 0.0);
        fill(&mut self.w, n, 0.0);
        self.state.clear();
        self.state.resize(n, State::Free);
    }

    /// Solves the problem; `tol` is the velocity below which a row's condition counts as
    /// met when deciding the active set (the caller's scale times a small factor).
    pub(super) fn solve(&mut self, tol: Real) -> Outcome {
        let n = self.n;
        let most = n as u32 + 2 * BLOCK_ROUNDS;
        // A one-sided row (a contact, a limit) starts at its bound: most of a group's limits
        // do not act at an impact, and each one started free costs a round to set aside.
        for i in 0..n {
            if self.lo[i].is_finite() && self.hi[i] == Real::INFINITY {
                self.state[i] = State::AtLower;
            }
        }
        self.index_nonzeros();
        let mut rounds = 0;
        self.seen.clear();
        loop {
            rounds += 1;
            self.solve_free();
            self.update_w();
            let single = rounds > BLOCK_ROUNDS;
            let changed = self.pivot(tol, single);
            if !changed {
                return Outcome {
                    residual: self.residual(),
                    rounds,
                    settled: true,
                };
            }
            // Each round depends only on the active set it starts from, so a set the
            // least-index rule meets again would come back for ever.
            let cycled = single && self.seen.chunks_exact(n).any(|seen| seen == self.state);
            if single {
                self.seen.extend_from_slice(&self.state);
            }
            if cycled || rounds >= most {
                self.gauss_seidel(tol);
                return Outcome {
                    residual: self.residual(),
                    rounds,
                    settled: false,
                };
            }
        }
    }

    /// The fallback where the active set does not settle or cycles (rows that depend on
    /// each other in a way the pivot test misreads, as two ragdolls locked limb in limb
    /// against a wall can make): projected Gauss-Seidel from the impulses at 0 (clamped to their bounds),
    /// each row in turn set to the value that zeroes its `w` within its bounds, for at most
    /// `GAUSS_SEIDEL_SWEEPS` sweeps or until every condition holds to `tol`. Each update
    /// lowers `x^T A x / 2 + b^T x` (`A` is positive semi-definite), which is 0 at the
    /// start, so the impulses cannot feed energy into the group the way the last round of a
    /// cycling active set can (Cottle, Pang and Stone, "The Linear Complementarity
    /// Problem", 1992, section 5.2). The rows' states are set from the result.
    fn gauss_seidel(&mut self, tol: Real) {
        let n = self.n;
        for i in 0..n {
            self.x[i] = 0.0_f64.clamp(self.lo[i], self.hi[i]);
        }
        for sweep in 0..GAUSS_SEIDEL_SWEEPS {
            self.work += self.columns.len() as u64;
            for i in 0..n {
                let d = self.a[i * n + i];
                if d.partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater) {
                    continue;
                }
                let w = self.b[i] + self.row_dot(i, |_| true);
                self.x[i] = (self.x[i] - w / d).clamp(self.lo[i], self.hi[i]);
            }
            if sweep % 8 == 7 {
                self.update_w();
                self.mark_states();
                if self.residual() <= tol {
                    return;
                }
            }
        }
        self.update_w();
        self.mark_states();
    }

    /// Each row's state from its impulse: at a bound where it sits there, else free.
    fn mark_states(&mut self) {
        for i in 0..self.n {
            self.state[i] = if self.x[i] <= self.lo[i] && self.lo[i] < self.hi[i] {
                State::AtLower
            } else if self.x[i] >= self.hi[i] && self.lo[i] < self.hi[i] {
                State::AtUpper
            } else {
                State::Free
            };
        }
    }

    /// Moves the rows whose condition fails to or from their bounds (all of them, or with
    /// `single` the first); whether any moved.
    fn pivot(&mut self, tol: Real, single: bool) -> bool {
        let mut changed = false;
        for i in 0..self.n {
            let (x, w) = (self.x[i], self.w[i]);
            let next = match self.state[i] {
                State::Free if x < self.lo[i] => State::AtLower,
                State::Free if x > self.hi[i] => State::AtUpper,
                State::AtLower if w < -tol && self.lo[i] < self.hi[i] => State::Free,
                State::AtUpper if w > tol && self.lo[i] < self.hi[i] => State::Free,
                other => other,
            };
            if next != self.state[i] {
                self.state[i] = next;
                changed = true;
                if single {
                    break;
                }
            }
        }
        changed
    }

    /// The largest violation of a row's condition. A row pinned at one value (`lo == hi`:
    /// friction at a point that took no normal impulse) meets its condition at any `w`.
    fn residual(&self) -> Real {
        (0..self.n)
            .filter(|&i| self.lo[i] < self.hi[i])
            .map(|i| match self.state[i] {
                State::Free => self.w[i].abs(),
                State::AtLower => (-self.w[i]).max(0.0),
                State::AtUpper => self.w[i].max(0.0),
            })
            .fold(0.0, Real::max)
    }

    /// `w = A x + b`.
    fn update_w(&mut self) {
        for i in 0..self.n {
            self.w[i] = self.b[i] + self.row_dot(i, |_| true);
        }
    }

    /// Lists the columns where each row of `A` is not 0. A row couples only with the rows
    /// that share one of its bodies, so a group's `A` is mostly zeros, and the products
    /// below skip them (the terms skipped are zeros, so the sums are the full rows' sums).
    fn index_nonzeros(&mut self) {
        let n = self.n;
        self.columns.clear();
        self.starts.clear();
        self.starts.push(0);
        for i in 0..n {
            let row = &self.a[i * n..(i + 1) * n];
            self.columns
                .extend((0..n).filter(|&j| row[j] != 0.0).map(|j| (j, row[j])));
            self.starts.push(self.columns.len());
        }
    }

    /// The sum of `A_ij x_j` over the columns `j` of row `i` that `take` accepts, in
    /// column order.
    #[inline]
    fn row_dot(&self, i: usize, take: impl Fn(usize) -> bool) -> Real {
        self.columns[self.starts[i]..self.starts[i + 1]]
            .iter()
            .filter(|&&(j, _)| take(j))
            .map(|&(j, a)| a * self.x[j])
            .sum()
    }

    /// The free rows' impulses with the others at their bounds: factor, solve, refine.
    fn solve_free(&mut self) {
        let n = self.n;
        self.free.clear();
        for i in 0..n {
            match self.state[i] {
                State::Free => self.free.push(i),
                State::AtLower => self.x[i] = self.lo[i],
                State::AtUpper => self.x[i] = self.hi[i],
            }
        }
        let m = self.free.len();
        if m == 0 {
            return;
        }
        self.factor();
        self.rhs.clear();
        for k in 0..m {
            let i = self.free[k];
            let bounded = self.row_dot(i, |j| self.state[j] != State::Free);
            self.rhs.push(-(self.b[i] + bounded));
        }
        let mut step = core::mem::take(&mut self.step);
        self.substitute(&self.rhs, &mut step);
        for (k, &i) in self.free.iter().enumerate() {
            self.x[i] = step[k];
        }
        // Iterative refinement: the residual of the free rows, solved again.
        let mut residual = core::mem::take(&mut self.residual);
        for _ in 0..2 {
            residual.clear();
            for (k, &i) in self.free.iter().enumerate() {
                let free_sum = self.row_dot(i, |j| self.state[j] == State::Free);
                residual.push(self.rhs[k] - free_sum);
            }
            self.substitute(&residual, &mut step);
            for (k, &i) in self.free.iter().enumerate() {
                self.x[i] += step[k];
            }
        }
        self.residual = residual;
        self.step = step;
    }

    /// LDL^T of `A_FF`, dependent rows marked (see the module docs). Row `k` of `L` is 0
    /// before the first column where row `k` of `A_FF` is not (no fill outside the
    /// envelope, George and Liu, "Computer Solution of Large Sparse Positive Definite
    /// Systems", 1981, chapter 4), and the sums start there: rows that share no body do not
    /// couple, so most of a group's factor lies outside the envelope.
    fn factor(&mut self) {
        let (n, m) = (self.n, self.free.len());
        // Only the envelope is written and read (a dependent column's entries as 0), so the
        // storage is not cleared: what lies outside it from an earlier round is never read.
        if self.l.len() < m * m {
            self.l.resize(m * m, 0.0);
        }
        self.d.clear();
        self.d.resize(m, 0.0);
        self.dependent.clear();
        self.dependent.resize(m, false);
        self.first.clear();
        for (k, &fk) in self.free.iter().enumerate() {
            let row = &self.a[fk * n..(fk + 1) * n];
            let first = self.free[..k].iter().position(|&j| row[j] != 0.0);
            self.first.push(first.unwrap_or(k));
        }
        let (mut work, mut envelope) = (0, 0);
        for k in 0..m {
            let (fk, first_k) = (self.free[k], self.first[k]);
            let a_row = &self.a[fk * n..(fk + 1) * n];
            // Row `k` of the factor, and the rows before it, which it reads.
            let (done, rest) = self.l.split_at_mut(k * m);
            let row_k = &mut rest[..m];
            for j in first_k..k {
                if self.dependent[j] {
                    row_k[j] = 0.0;
                    continue;
                }
                let from = first_k.max(self.first[j]);
                let row_j = &done[j * m + from..j * m + j];
                let mut s = a_row[self.free[j]];
                for ((lkp, ljp), dp) in row_k[from..j].iter().zip(row_j).zip(&self.d[from..j]) {
                    s -= lkp * ljp * dp;
                }
                work += j - from;
                row_k[j] = s / self.d[j];
            }
            let diagonal = a_row[fk];
            let mut dk = diagonal;
            for (lkp, dp) in row_k[first_k..k].iter().zip(&self.d[first_k..k]) {
                dk -= lkp * lkp * dp;
            }
            work += k - first_k;
            envelope += k - first_k + 1;
            self.d[k] = dk;
            // A NaN pivot counts as dependent too.
            self.dependent[k] =
                dk.partial_cmp(&(DEPENDENT_PIVOT * diagonal)) != Some(core::cmp::Ordering::Greater);
        }
        // The factor, its substitutions (three, forward and back) and `w`.
        self.work += (work + 6 * envelope + self.columns.len()) as u64;
    }

    /// `out = A_FF^-1 rhs` through the factor, dependent rows' impulses 0.
    fn substitute(&self, rhs: &[Real], out: &mut Vec<Real>) {
        let m = self.free.len();
        out.clear();
        out.extend_from_slice(rhs);
        for k in 0..m {
            let first = self.first[k];
            let row = &self.l[k * m + first..k * m + k];
            let y = out[k]
                - row
                    .iter()
                    .zip(&out[first..k])
                    .map(|(l, y)| l * y)
                    .sum::<Real>();
            out[k] = y;
        }
        for (k, y) in out.iter_mut().enumerate() {
            *y = if self.dependent[k] {
                0.0
            } else {
                *y / self.d[k]
            };
        }
        for k in (0..m).rev() {
            // Column `k` below the diagonal, row by row (the storage may run past `m * m`,
            // which the rows' count bounds).
            let column = self
                .l
                .get((k + 1) * m + k..)
                .unwrap_or(&[])
                .iter()
                .step_by(m);
            let below: Real = self.first[k + 1..]
                .iter()
                .zip(column)
                .zip(&out[k + 1..])
                .filter(|((first, _), _)| **first <= k)
                .map(|((_, l), y)| l * y)
                .sum();
            out[k] -= below;
        }
    }
}

/// Solves `a x = b` for a square, not necessarily symmetric `a` (`m * m`, row-major; both
/// overwritten, `b` with `x`) by Gaussian elimination with partial pivoting. A column whose
/// best pivot is below `1e-12` of the matrix's largest entry is taken as dependent: its
/// unknown is 0 and the row left with it is dropped. Cost `O(m^3 / 3)`.
pub(super) fn lu_solve(a: &mut [Real], m: usize, b: &mut [Real]) {
    let scale = a.iter().fold(0.0, |s: Real, x| s.max(x.abs()));
    let mut dependent = vec![false; m];
    let mut pivot_row = 0;
    let mut pivots = Vec::with_capacity(m);
    for k in 0..m {
        let best =
            (pivot_row..m).max_by(|&i, &j| a[i * m + k].abs().total_cmp(&a[j * m + k].abs()));
        let Some(p) = best.filter(|&p| a[p * m + k].abs() > 1e-12 * scale) else {
            dependent[k] = true;
            continue;
        };
        if p != pivot_row {
            for j in 0..m {
                a.swap(p * m + j, pivot_row * m + j);
            }
            b.swap(p, pivot_row);
        }
        let r = pivot_row;
        for i in r + 1..m {
            let f = a[i * m + k] / a[r * m + k];
            if f != 0.0 {
                for j in k..m {
                    a[i * m + j] -= f * a[r * m + j];
                }
                b[i] -= f * b[r];
            }
        }
        pivots.push((r, k));
        pivot_row += 1;
    }
    let mut x = vec![0.0; m];
    for &(r, k) in pivots.iter().rev() {
        let tail: Real = (k + 1..m).map(|j| a[r * m + j] * x[j]).sum();
        x[k] = (b[r] - tail) / a[r * m + k];
    }
    b[..m].copy_from_slice(&x);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3-row problem with a known solution: `A` positive definite, one row at its lower
    /// bound in the solution.
    #[test]
    fn a_bounded_row_goes_to_its_bound_and_the_rest_solve_exactly() {
        let mut p = Dense::default();
        p.reset(3);
        p.a.copy_from_slice(&[4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0]);
        p.b.copy_from_slice(&[-1.0, 2.0, 1.0]);
        // Row 2 may only push (x >= 0); unconstrained, its impulse would be negative.
        p.lo[2] = 0.0;
        let out = p.solve(1e-14);
        assert!(out.settled);
        assert_eq!(p.x[2], 0.0);
        assert!(p.w[0].abs() < 1e-15 && p.w[1].abs() < 1e-15, "{:?}", p.w);
        assert!(p.w[2] >= 0.0);
    }

    /// A non-symmetric system, and one with a dependent row, by LU.
    #[test]
    fn lu_solves_a_general_system_and_drops_a_dependent_row() {
        let mut a = vec![0.0, 2.0, 1.0, 3.0, 1.0, -1.0, 1.0, 1.0, 4.0];
        let x = [1.0, -2.0, 0.5];
        let mut b: Vec<Real> = (0..3)
            .map(|i| (0..3).map(|j| a[i * 3 + j] * x[j]).sum())
            .collect();
        lu_solve(&mut a, 3, &mut b);
        for (got, want) in b.iter().zip(x) {
            assert!((got - want).abs() < 1e-14, "{b:?}");
        }
        let mut a = vec![1.0, 1.0, 2.0, 2.0];
        let mut b = vec![2.0, 4.0];
        lu_solve(&mut a, 2, &mut b);
        assert_eq!(b, vec![2.0, 0.0]);
    }

    /// The fallback alone, on the bounded problem above and on a dependent pair with
    /// conflicting targets (no exact solution): the first reaches the active set's answer,
    /// and neither ends with an objective above its value at zero impulses.
    #[test]
    fn gauss_seidel_converges_and_never_raises_the_objective() {
        let objective = |p: &Dense| -> Real {
            let n = p.n;
            (0..n)
                .map(|i| {
                    let ax: Real = (0..n).map(|j| p.a[i * n + j] * p.x[j]).sum();
                    0.5 * p.x[i] * ax + p.b[i] * p.x[i]
                })
                .sum()
        };
        let mut p = Dense::default();
        p.reset(3);
        p.a.copy_from_slice(&[4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0]);
        p.b.copy_from_slice(&[-1.0, 2.0, 1.0]);
        p.lo[2] = 0.0;
        let mut exact = p.clone();
        exact.solve(1e-14);
        p.index_nonzeros();
        p.gauss_seidel(1e-13);
        for (got, want) in p.x.iter().zip(&exact.x) {
            assert!((got - want).abs() < 1e-12, "{:?} {:?}", p.x, exact.x);
        }
        assert!(objective(&p) <= 0.0);
        let mut q = Dense::default();
        q.reset(2);
        q.a.copy_from_slice(&[2.0, 2.0, 2.0, 2.0]);
        q.b.copy_from_slice(&[-4.0, 4.0]);
        q.lo.fill(0.0);
        q.index_nonzeros();
        q.gauss_seidel(1e-14);
        assert!(q.x.iter().all(|x| x.is_finite() && *x >= 0.0), "{:?}", q.x);
        assert!(objective(&q) <= 0.0, "{}", objective(&q));
    }

    /// Two copies of one row (a dependent pair): the solve keeps one, the system holds.
    #[test]
    fn a_dependent_row_is_left_at_zero() {
        let mut p = Dense::default();
        p.reset(2);
        p.a.copy_from_slice(&[2.0, 2.0, 2.0, 2.0]);
        p.b.copy_from_slice(&[-4.0, -4.0]);
        let out = p.solve(1e-14);
        assert!(out.residual < 1e-14, "{out:?}");
        assert_eq!(p.x, vec![2.0, 0.0]);
    }

    /// A problem from the rain of ragdolls (a friction row whose bounds are nearly 0, a
    /// contact's normal row and two joint rows) on which the least-index rule cycles: the
    /// solve goes to the fallback at the first set that comes back, long before `n + 16`
    /// rounds, and its answer is the fallback's alone, with every row within its bounds.
    #[test]
    fn a_cycling_active_set_goes_to_the_fallback_at_once() {
        let mut p = Dense::default();
        p.reset(4);
        p.a.copy_from_slice(&[
            61.197074475751755,
            -24.082989224802724,
            -15.44934153124603,
            -60.32429111118124,
            -24.082989224802724,
            169.7333602525966,
            167.0010811948944,
            30.97708914322501,
            -15.44934153124603,
            167.0010811948944,
            165.50861637603552,
            22.36760326923068,
            -60.32429111118124,
            30.97708914322501,
            22.36760326923068,
            60.66589958305894,
        ]);
        p.b.copy_from_slice(&[
            0.029615400733643965,
            2.7755575615628914e-17,
            0.0,
            7.363554210826351e-14,
        ]);
        p.lo.copy_from_slice(&[
            -1.7515560194901365e-15,
            -0.0,
            Real::NEG_INFINITY,
            Real::NEG_INFINITY,
        ]);
        p.hi.copy_from_slice(&[
            1.7515560194901365e-15,
            Real::INFINITY,
            Real::INFINITY,
            Real::INFINITY,
        ]);
        let tol = 2.9615400733643967e-15;
        let mut fallback = p.clone();
        let out = p.solve(tol);
        assert!(!out.settled);
        assert!(out.rounds <= BLOCK_ROUNDS + 4, "{out:?}");
        fallback.index_nonzeros();
        fallback.gauss_seidel(tol);
        assert_eq!(p.x, fallback.x);
        for i in 0..4 {
            assert!(p.lo[i] <= p.x[i] && p.x[i] <= p.hi[i], "{:?}", p.x);
        }
    }

    /// A row of a random problem: its bodies (one or two of `bodies`), its Jacobian per
    /// body (two linear, one angular), and its kind (0 rigid, 1 one-sided, 2 friction).
    type RandomRow = (usize, usize, [Real; 6], u8);

    /// `A = J W J^T` of `rows` over `bodies` with inverse masses and inertias of 1.
    fn random_problem(bodies: usize, rows: &[RandomRow], b: &[Real]) -> Dense {
        let n = rows.len();
        let mut p = Dense::default();
        p.reset(n);
        let mut jw = vec![0.0; n * 3 * bodies];
        for (i, &(ba, bb, j, _)) in rows.iter().enumerate() {
            for (body, part) in [(ba % bodies, &j[..3]), (bb % bodies, &j[3..])] {
                for (c, v) in part.iter().enumerate() {
                    jw[i * 3 * bodies + 3 * body + c] += v;
                }
            }
        }
        for i in 0..n {
            for k in 0..n {
                p.a[i * n + k] = (0..3 * bodies)
                    .map(|c| jw[i * 3 * bodies + c] * jw[k * 3 * bodies + c])
                    .sum();
            }
            p.b[i] = b[i];
            match rows[i].3 {
                0 => {}
                1 => p.lo[i] = 0.0,
                _ => (p.lo[i], p.hi[i]) = (-0.5, 0.5),
            }
        }
        p
    }

    /// Whether the `n * n` matrix `a` is positive definite with room: each pivot of its
    /// Cholesky factor above `1e-6` of its largest diagonal entry.
    fn positive_definite(a: &[Real], n: usize) -> bool {
        let largest = (0..n).map(|i| a[i * n + i]).fold(0.0, Real::max);
        let mut l = vec![0.0; n * n];
        for k in 0..n {
            for j in 0..=k {
                let s = a[k * n + j] - (0..j).map(|p| l[k * n + p] * l[j * n + p]).sum::<Real>();
                if j < k {
                    l[k * n + j] = s / l[j * n + j];
                } else if s > 1e-6 * largest {
                    l[k * n + k] = s.sqrt();
                } else {
                    return false;
                }
            }
        }
        true
    }

    proptest::proptest! {
        /// Random groups of 2 to 8 bodies and 2 to 24 rows, each on one or two bodies (most
        /// pairs of rows share none, so `A` is mostly zeros): the impulses are finite and
        /// stay within their bounds; where `A` is positive definite (every pivot of its
        /// Cholesky factor above `1e-6` of the largest diagonal: no more rows than the
        /// bodies' 3 degrees of freedom each, none nearly a combination of others), the
        /// solve settles and meets every row's condition to `1e-9` of the scale.
        #[test]
        fn a_solve_meets_the_conditions_of_its_rows(
            bodies in 2usize..9,
            rows in proptest::collection::vec(
                (0usize..8, 0usize..8, proptest::array::uniform6(-1.0..1.0), 0u8..3),
                2..25,
            ),
            b in proptest::collection::vec(-1.0..1.0, 24),
        ) {
            let mut p = random_problem(bodies, &rows, &b);
            let out = p.solve(1e-13);
            for i in 0..p.n {
                let x = p.x[i];
                proptest::prop_assert!(x.is_finite() && p.lo[i] <= x && x <= p.hi[i], "{:?}", p.x);
            }
            if positive_definite(&p.a, p.n) {
                proptest::prop_assert!(out.settled && out.residual <= 1e-9, "{out:?}");
            }
        }
    }
}
