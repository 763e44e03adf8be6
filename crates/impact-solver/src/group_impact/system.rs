//! A group's bodies and rows, and what an impulse or a displacement along the rows does to
//! them: the table both the impact ([`GroupImpactSolver`](super::GroupImpactSolver)) and the
//! rigid advance ([`advance_group`](super::advance_group)) solve on.

use super::dense::{Dense, Outcome};
use super::rows::{Bound, Row};
use crate::body::RigidBody;
use crate::body_set::BodyHandle;
use impact_geometry::{Isometry, Point, Real, Vector, rotation_by};

/// One body of the group's table.
#[derive(Debug, Clone, Copy)]
pub(super) struct Member {
    pub(super) handle: BodyHandle,
    /// A dynamic body the caller does not hold: its velocities change.
    pub(super) movable: bool,
    pub(super) inv_mass: Real,
    pub(super) inv_inertia: Real,
    pub(super) v: Vector,
    pub(super) w: Real,
    pub(super) pose: Isometry,
    pub(super) local_center: Point,
    /// How far it turned since it was read (radians, counted through whole turns).
    pub(super) turned: Real,
    /// Its linear and angular damping.
    pub(super) damping: (Real, Real),
}

impl Member {
    /// `body` (with `handle`), movable or of infinite mass.
    pub(super) fn of(handle: BodyHandle, body: &RigidBody, movable: bool) -> Self {
        let (inv_mass, inv_inertia) = if movable {
            (body.inv_mass(), body.inv_inertia())
        } else {
            (0.0, 0.0)
        };
        Self {
            handle,
            movable,
            inv_mass,
            inv_inertia,
            v: body.linvel(),
            w: body.angvel(),
            pose: *body.pose(),
            local_center: body.local_center(),
            turned: 0.0,
            damping: (body.linear_damping(), body.angular_damping()),
        }
    }

    /// The centre of mass (world).
    #[inline]
    pub(super) fn center(&self) -> Point {
        self.pose * self.local_center
    }

    /// Moves the centre of mass by `dx` and turns the body about it by `da`.
    pub(super) fn displace(&mut self, dx: Vector, da: Real) {
        let center = self.center() + dx;
        let rotation = if da == 0.0 {
            self.pose.rotation
        } else {
            self.pose.rotation * rotation_by(da)
        };
        self.pose = Isometry::from_parts(
            (center.coords - rotation * self.local_center.coords).into(),
            rotation,
        );
        self.turned += da;
    }
}

/// The table: members, rows, and the dense problem of the rows.
#[derive(Debug, Clone, Default)]
pub(super) struct System {
    pub(super) members: Vec<Member>,
    pub(super) rows: Vec<Row>,
    pub(super) dense: Dense,
}

impl System {
    /// `J v` of row `i` at the members' velocities.
    #[inline]
    pub(super) fn row_velocity(&self, i: usize) -> Real {
        let r = &self.rows[i];
        let (ma, mb) = (&self.members[r.a as usize], &self.members[r.b as usize]);
        r.velocity((ma.v, ma.w), (mb.v, mb.w))
    }

    /// The problem of the rows from `from` on: `A = J W J^T`, `b_i = rhs(i)`, each row's
    /// bounds from its kind (a one-sided row's impulse at least `-applied[i]`, what earlier
    /// stages gave it; a friction row within its limit).
    pub(super) fn assemble(
        &mut self,
        from: usize,
        rhs: impl Fn(&Self, usize) -> Real,
        applied: &[Real],
    ) {
        let n = self.rows.len() - from;
        // Every entry of `A` is written below (both halves, from the upper triangle).
        self.dense.reset_to_fill(n);
        for i in 0..n {
            let ri = self.rows[from + i];
            self.dense.b[i] = rhs(self, from + i);
            match ri.bound {
                Bound::Equal => {}
                Bound::AtLeast => self.dense.lo[i] = -applied[from + i],
                Bound::Friction(limit) => {
                    (self.dense.lo[i], self.dense.hi[i]) = (-limit, limit);
                }
            }
            for j in i..n {
                let value = coupling(&ri, &self.rows[from + j], &self.members);
                self.dense.a[i * n + j] = value;
                self.dense.a[j * n + i] = value;
            }
        }
    }

    /// Solves the assembled problem. `scale` is what the residual is relative to; returns
    /// the outcome with its residual divided by it.
    pub(super) fn solve(&mut self, scale: Real) -> Outcome {
        let mut outcome = self.dense.solve(scale * 1e-13);
        outcome.residual = if scale > 0.0 {
            outcome.residual / scale
        } else {
            0.0
        };
        outcome
    }

    /// The largest `|b_i|` and `|target_i|` of the assembled rows from `from`: the scale of
    /// a velocity problem.
    pub(super) fn scale(&self, from: usize) -> Real {
        self.rows[from..]
            .iter()
            .zip(&self.dense.b)
            .map(|(r, b)| b.abs().max(r.target.abs()))
            .fold(0.0, Real::max)
    }

    /// Whether every impulse of the last solve is finite.
    pub(super) fn finite(&self) -> bool {
        self.dense.x.iter().all(|x| x.is_finite())
    }

    /// Applies the last solve's impulses (rows from `from`) to the members' velocities, and
    /// adds them to `applied`.
    pub(super) fn apply_velocities(&mut self, from: usize, applied: &mut [Real]) {
        for k in 0..self.dense.x.len() {
            let x = self.dense.x[k];
            applied[from + k] += x;
            self.push_row(from + k, x);
        }
    }

    /// Applies `impulse` along row `i` to its members' velocities.
    pub(super) fn push_row(&mut self, i: usize, impulse: Real) {
        if impulse == 0.0 {
            return;
        }
        let row = self.rows[i];
        for (id, (lin, ang)) in [(row.a, row.ja), (row.b, row.jb)] {
            let m = &mut self.members[id as usize];
            m.v += lin * (m.inv_mass * impulse);
            m.w += m.inv_inertia * ang * impulse;
        }
    }

    /// Moves the members by `W J^T x` over the rows and amounts `(i, x)`.
    pub(super) fn displace_along(&mut self, amounts: impl Iterator<Item = (usize, Real)>) {
        let mut moves = vec![(Vector::zeros(), 0.0); self.members.len()];
        for (i, x) in amounts {
            let row = self.rows[i];
            for (id, (lin, ang)) in [(row.a, row.ja), (row.b, row.jb)] {
                let m = &self.members[id as usize];
                moves[id as usize].0 += lin * (m.inv_mass * x);
                moves[id as usize].1 += m.inv_inertia * ang * x;
            }
        }
        for (m, (dx, da)) in self.members.iter_mut().zip(moves) {
            if m.movable {
                m.displace(dx, da);
            }
        }
    }
}

/// `A_ij`: the rows' coupling through the bodies they share.
pub(super) fn coupling(ri: &Row, rj: &Row, members: &[Member]) -> Real {
    let mut sum = 0.0;
    for (mi, ji) in [(ri.a, ri.ja), (ri.b, ri.jb)] {
        for (mj, jj) in [(rj.a, rj.ja), (rj.b, rj.jb)] {
            if mi == mj {
                let m = &members[mi as usize];
                sum += m.inv_mass * ji.0.dot(&jj.0) + m.inv_inertia * ji.1 * jj.1;
            }
        }
    }
    sum
}
