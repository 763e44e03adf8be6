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
//! P-matrix), so a cycle of the block rule cannot last.
//!
//! Cost: `O(m^3 / 6)` multiply-adds per round for `m` free rows, and a round per change of
//! the active set: a 20-link chain (41 rows) solves in one round of about 11,000. The
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
    free: Vec<usize>,
    /// The factor of `A_FF`: unit lower triangle (row-major, `m * m`) and diagonal.
    l: Vec<Real>,
    d: Vec<Real>,
    dependent: Vec<bool>,
    rhs: Vec<Real>,
    step: Vec<Real>,
    residual: Vec<Real>,
    /// `w = A x + b`.
    pub(super) w: Vec<Real>,
    /// Multiply-adds spent by the solves since the count was last reset (factorisations,
    /// substitutions and sweeps; not cleared by [`Dense::reset`]).
    pub(super) work: u64,
}

impl Dense {
    /// An empty problem of `n` rows: `A` and `b` zero, every row free, no impulse.
    pub(super) fn reset(&mut self, n: usize) {
        self.n = n;
        let fill = |v: &mut Vec<Real>, len: usize, value: Real| {
            v.clear();
            v.resize(len, value);
        };
        fill(&mut self.a, n * n, 0.0);
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
        let mut rounds = 0;
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
            if rounds >= most {
                self.gauss_seidel(tol);
                return Outcome {
                    residual: self.residual(),
                    rounds,
                    settled: false,
                };
            }
        }
    }

    /// The fallback where the active set does not settle (rows that depend on each other
    /// in a way the pivot test misreads, as two ragdolls locked limb in limb against a wall
    /// can make): projected Gauss-Seidel from the impulses at 0 (clamped to their bounds),
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
            self.work += (n * n) as u64;
            for i in 0..n {
                let d = self.a[i * n + i];
                if d.partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater) {
                    continue;
                }
                let row = &self.a[i * n..(i + 1) * n];
                let w = self.b[i] + row.iter().zip(&self.x).map(|(a, x)| a * x).sum::<Real>();
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
        let n = self.n;
        for i in 0..n {
            let row = &self.a[i * n..(i + 1) * n];
            self.w[i] = self.b[i] + row.iter().zip(&self.x).map(|(a, x)| a * x).sum::<Real>();
        }
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
        for &i in &self.free {
            let row = &self.a[i * n..(i + 1) * n];
            let bounded: Real = (0..n)
                .filter(|&j| self.state[j] != State::Free)
                .map(|j| row[j] * self.x[j])
                .sum();
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
                let row = &self.a[i * n..(i + 1) * n];
                let free_sum: Real = self.free.iter().map(|&j| row[j] * self.x[j]).sum();
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

    /// LDL^T of `A_FF`, dependent rows marked (see the module docs).
    fn factor(&mut self) {
        let (n, m) = (self.n, self.free.len());
        let m64 = m as u64;
        // The factor, its substitutions and `w`.
        self.work += m64 * m64 * m64 / 6 + 6 * m64 * m64 + (n * n) as u64;
        self.l.clear();
        self.l.resize(m * m, 0.0);
        self.d.clear();
        self.d.resize(m, 0.0);
        self.dependent.clear();
        self.dependent.resize(m, false);
        for k in 0..m {
            let fk = self.free[k];
            for j in 0..k {
                if self.dependent[j] {
                    continue;
                }
                let mut s = self.a[fk * n + self.free[j]];
                for p in 0..j {
                    s -= self.l[k * m + p] * self.l[j * m + p] * self.d[p];
                }
                self.l[k * m + j] = s / self.d[j];
            }
            let diagonal = self.a[fk * n + fk];
            let mut dk = diagonal;
            for p in 0..k {
                let lkp = self.l[k * m + p];
                dk -= lkp * lkp * self.d[p];
            }
            self.d[k] = dk;
            // A NaN pivot counts as dependent too.
            self.dependent[k] =
                dk.partial_cmp(&(DEPENDENT_PIVOT * diagonal)) != Some(core::cmp::Ordering::Greater);
        }
    }

    /// `out = A_FF^-1 rhs` through the factor, dependent rows' impulses 0.
    fn substitute(&self, rhs: &[Real], out: &mut Vec<Real>) {
        let m = self.free.len();
        out.clear();
        out.extend_from_slice(rhs);
        for k in 0..m {
            let row = &self.l[k * m..k * m + k];
            let y = out[k] - row.iter().zip(&out[..k]).map(|(l, y)| l * y).sum::<Real>();
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
            let below: Real = (k + 1..m).map(|i| self.l[i * m + k] * out[i]).sum();
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
}
