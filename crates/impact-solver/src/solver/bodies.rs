//! The solver's table of bodies: the bodies some row touches, read from the [`BodySet`] into
//! compact arrays once, integrated there substep by substep, and written back.
//!
//! Every kind of row (contacts, and joints beside them) indexes the same table, so a body pushed by
//! a contact and pulled by a joint has one velocity that both see. The iterations touch only
//! [`SolverBody`] (velocities and inverse masses, 48 bytes); what the other stages need of a
//! body (where it was prepared, how far it moved since, its damping) lives apart in
//! [`BodyState`], indexed alike.

use crate::body::{BodyType, RigidBody, advance_pose, advance_pose_turned};
use crate::body_set::{BodyHandle, BodySet};
use crate::error::SolverError;
use crate::integrate::integrate_velocity;
use impact_geometry::{
    Isometry, Point, Real, Rotation, Vector, cross, cross_scalar_vector, rotations_by,
};

/// The solver's hot view of a body: velocities and inverse masses, all the iterations touch
/// (48 bytes, one compact array indexed by the rows).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SolverBody {
    pub(crate) v: Vector,
    pub(crate) w: Real,
    pub(crate) inv_mass: Real,
    pub(crate) inv_inertia: Real,
}

/// The rest of what the solver knows of a body: where it was at preparation, how far it moved
/// since (for the current separation), and what the solver needs to integrate it itself in
/// [`ContactSolver::step`](crate::ContactSolver::step).
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyState {
    pub(crate) handle: BodyHandle,
    pub(crate) body_type: BodyType,
    pub(crate) center0: Point,
    pub(crate) rotation0: Rotation,
    /// Displacement of the centre of mass since preparation.
    pub(crate) dp: Vector,
    /// Rotation since preparation, as (cos, sin).
    pub(crate) dq: (Real, Real),
    /// How far that rotation moves the end of a unit lever, `|dq - 1|` (see
    /// `contact::gate::Certificate`).
    pub(crate) chord: Real,
    /// The body's pose and velocities as last gathered or integrated by the solver (for
    /// static and kinematic bodies the velocities never change within a step).
    pub(crate) pose: Isometry,
    pub(crate) linvel: Vector,
    pub(crate) angvel: Real,
    pub(crate) local_center: Point,
    pub(crate) linear_damping: Real,
    pub(crate) angular_damping: Real,
    /// A dynamic body's velocities at the start of the current substep, and after its
    /// gravity and damping: if no row changed them since, the body flies free over the
    /// substep and moves on the exact path of that change (see
    /// [`BodyTable::integrate_positions`]).
    pub(crate) flight: [(Vector, Real); 2],
}

impl BodyState {
    /// Displacement and rotation since preparation from the current `pose`: what
    /// [`BodyTable::gather`] reads from the body, operation for operation.
    #[inline]
    pub(crate) fn update_motion(&mut self) {
        self.dp = self.pose * self.local_center - self.center0;
        let rotation = self.pose.rotation;
        (self.dq, self.chord) = if rotation == self.rotation0 {
            ((1.0, 0.0), 0.0)
        } else {
            let d = rotation * self.rotation0.inverse();
            let (c, s) = (d.re - 1.0, d.im);
            ((d.re, d.im), (c * c + s * s).sqrt())
        };
    }
}

/// A body's motion since preparation, the part of [`BodyState`] the joint rows read at every
/// iteration, kept apart in a compact array (32 bytes a body) so that a row reads two of them
/// rather than two whole states.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Motion {
    /// Displacement of the centre of mass since preparation.
    pub(crate) dp: Vector,
    /// Rotation since preparation, as (cos, sin).
    pub(crate) dq: (Real, Real),
}

impl Motion {
    /// The motion of `state`.
    #[inline]
    fn of(state: &BodyState) -> Self {
        Self {
            dp: state.dp,
            dq: state.dq,
        }
    }
}

/// The bodies of the rows, in the order the rows first named them.
#[derive(Debug, Clone, Default)]
pub(crate) struct BodyTable {
    /// Velocities and inverse masses, indexed like `states`.
    pub(crate) velocities: Vec<SolverBody>,
    pub(crate) states: Vec<BodyState>,
    /// Each body's motion since preparation, indexed like `states` and kept equal to theirs.
    pub(crate) motion: Vec<Motion>,
    /// Body slot -> index into `states` (`u32::MAX`: not in any row). A dense table, so
    /// lookups do not depend on hash order.
    state_of: Vec<u32>,
}

impl BodyTable {
    /// The table, emptied (its storage kept).
    pub(crate) fn clear(&mut self) {
        self.velocities.clear();
        self.states.clear();
        self.motion.clear();
        self.state_of.clear();
    }

    /// How many bodies the rows touch.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.states.len()
    }

    /// The index of `body` (named `handle`) in the table, added at the end if no row named
    /// it before.
    #[inline]
    pub(crate) fn index_of(&mut self, handle: BodyHandle, body: &RigidBody) -> usize {
        let slot = handle.index as usize;
        let state_of = &mut self.state_of;
        if state_of.len() <= slot {
            state_of.resize(slot + 1, u32::MAX);
        }
        if state_of[slot] == u32::MAX {
            state_of[slot] = self.states.len() as u32;
            self.states.push(BodyState {
                handle,
                body_type: body.body_type(),
                center0: body.center_of_mass(),
                rotation0: body.pose().rotation,
                dp: Vector::zeros(),
                dq: (1.0, 0.0),
                chord: 0.0,
                pose: *body.pose(),
                linvel: body.linvel(),
                angvel: body.angvel(),
                local_center: body.local_center(),
                linear_damping: body.linear_damping(),
                angular_damping: body.angular_damping(),
                flight: [(Vector::zeros(), 0.0); 2],
            });
            self.motion.push(Motion {
                dp: Vector::zeros(),
                dq: (1.0, 0.0),
            });
            self.velocities.push(SolverBody {
                v: body.linvel(),
                w: body.angvel(),
                inv_mass: body.inv_mass(),
                inv_inertia: body.inv_inertia(),
            });
        }
        state_of[slot] as usize
    }

    /// Gravity and damping on the dynamic bodies over a substep of `h` (the arithmetic of
    /// [`integrate_velocities`](crate::integrate_velocities)), `dv` being gravity times
    /// `h`; the others keep the velocities they had when gathered.
    pub(crate) fn integrate_velocities(&mut self, dv: &Vector, h: Real) {
        for (s, sb) in self.states.iter_mut().zip(&mut self.velocities) {
            if s.body_type == BodyType::Dynamic {
                let before = (sb.v, sb.w);
                (sb.v, sb.w) =
                    integrate_velocity(sb.v, sb.w, dv, h, s.linear_damping, s.angular_damping);
                s.flight = [before, (sb.v, sb.w)];
            } else {
                (sb.v, sb.w) = (s.linvel, s.angvel);
            }
        }
    }

    /// Moves the bodies by one substep of `h` (the arithmetic of
    /// [`integrate_positions`](crate::integrate_positions)), then updates their motion since
    /// preparation.
    ///
    /// A dynamic body whose velocities no row changed in the substep (its contacts were
    /// all speculative and stayed so) flies free: it moves along the mean of the substep's
    /// start and end velocities, the exact path of constant acceleration, bit for bit as a
    /// body without rows does in [`ContactSolver::step`](crate::ContactSolver::step). The
    /// others move along their solved velocities, which is what lets a speculative contact
    /// stop them at the surface.
    pub(crate) fn integrate_positions(&mut self, h: Real) {
        let one = |((s, sb), m): ((&mut BodyState, &SolverBody), &mut Motion)| {
            if let Some((v, w)) = substep_velocity(s, sb) {
                advance_pose(&mut s.pose, &s.local_center, &v, w, h);
            }
            s.update_motion();
            *m = Motion::of(s);
        };
        // Each body on its own: on rayon's threads with the `parallel` feature.
        #[cfg(feature = "parallel")]
        if self.states.len() >= 2048 && rayon::current_num_threads() >= 2 {
            use rayon::prelude::*;
            self.states
                .par_iter_mut()
                .zip(&self.velocities[..])
                .zip(&mut self.motion[..])
                .with_min_len(256)
                .for_each(one);
            return;
        }
        // Two bodies at a time: the sines and cosines of two turning bodies in one pass of
        // `rotations_by`, the same bits as one at a time.
        let mut states = self.states.chunks_exact_mut(2);
        let mut velocities = self.velocities.chunks_exact(2);
        let mut motion = self.motion.chunks_exact_mut(2);
        for ((s, sb), m) in (&mut states).zip(&mut velocities).zip(&mut motion) {
            let (s0, s1) = s.split_at_mut(1);
            let (a, b) = (&mut s0[0], &mut s1[0]);
            match (substep_velocity(a, &sb[0]), substep_velocity(b, &sb[1])) {
                (Some((va, wa)), Some((vb, wb))) if wa != 0.0 && wb != 0.0 => {
                    let [ta, tb] = rotations_by([wa * (h * 1.0), wb * (h * 1.0)]);
                    advance_pose_turned(&mut a.pose, &a.local_center, &va, ta, h);
                    advance_pose_turned(&mut b.pose, &b.local_center, &vb, tb, h);
                }
                (va, vb) => {
                    for (state, step) in [(&mut *a, va), (&mut *b, vb)] {
                        if let Some((v, w)) = step {
                            advance_pose(&mut state.pose, &state.local_center, &v, w, h);
                        }
                    }
                }
            }
            for (state, motion) in [a, b].into_iter().zip(m) {
                state.update_motion();
                *motion = Motion::of(state);
            }
        }
        let rest = states
            .into_remainder()
            .iter_mut()
            .zip(velocities.remainder());
        rest.zip(motion.into_remainder()).for_each(one);
    }

    /// Static and kinematic bodies back to their own velocities. Impulses leave them alone
    /// (zero inverse masses) up to the sign of a zero; the staged API reads them from the
    /// bodies before every stage, and the whole step matches it bit for bit.
    pub(crate) fn reset_fixed_velocities(&mut self) {
        for (s, sb) in self.states.iter().zip(&mut self.velocities) {
            if s.body_type != BodyType::Dynamic {
                (sb.v, sb.w) = (s.linvel, s.angvel);
            }
        }
    }

    /// Loads velocities, poses and motion since preparation from the bodies; fails, changing
    /// nothing a caller can see, if any body is gone.
    pub(crate) fn gather(&mut self, bodies: &BodySet) -> Result<(), SolverError> {
        let gathered = self.states.iter_mut().zip(&mut self.velocities);
        for ((s, sb), m) in gathered.zip(&mut self.motion) {
            let body = bodies.try_get(s.handle, "solver.bodies")?;
            sb.v = body.linvel();
            sb.w = body.angvel();
            s.linvel = sb.v;
            s.angvel = sb.w;
            s.pose = *body.pose();
            s.update_motion();
            *m = Motion::of(s);
        }
        Ok(())
    }

    /// Writes velocities back to the dynamic bodies (the others cannot have changed).
    pub(crate) fn scatter(&self, bodies: &mut BodySet) {
        for (s, sb) in self.states.iter().zip(&self.velocities) {
            if s.body_type == BodyType::Dynamic
                && let Some(body) = bodies.get_mut(s.handle)
            {
                body.set_velocity_unchecked(sb.v, sb.w);
            }
        }
    }

    /// The end of a whole step: writes back the velocities and poses of the bodies of the
    /// table, then moves every other awake body of `bodies` on its own (sleeping bodies
    /// stay put) over `substeps` substeps of
    /// `h` (`dv` being gravity times `h`): each body's substeps depend on nothing but itself.
    pub(crate) fn finish_step(&self, bodies: &mut BodySet, dv: &Vector, h: Real, substeps: u32) {
        for (s, sb) in self.states.iter().zip(&self.velocities) {
            if s.body_type == BodyType::Static {
                continue;
            }
            if let Some(body) = bodies.get_mut(s.handle) {
                if s.body_type == BodyType::Dynamic {
                    body.set_velocity_unchecked(sb.v, sb.w);
                }
                body.set_pose_unchecked(s.pose);
            }
        }
        let state_of = &self.state_of;
        let free = |handle: BodyHandle, body: &mut RigidBody| {
            let slot = handle.index as usize;
            if state_of.get(slot).is_some_and(|&i| i != u32::MAX) {
                return;
            }
            fly_free(body, dv, h, substeps);
        };
        // Each body on its own: on rayon's threads with the `parallel` feature.
        #[cfg(feature = "parallel")]
        if bodies.len() >= 2048 && rayon::current_num_threads() >= 2 {
            bodies.par_for_each_awake_mut(free);
            return;
        }
        for (handle, body) in bodies.iter_awake_mut() {
            free(handle, body);
        }
    }
}

/// Moves `body`, which no row touches, on its own over `substeps` substeps of `h` (`dv`
/// being gravity times `h`): a kinematic body at its velocities, a dynamic one along the
/// exact path of each substep's constant acceleration (see
/// [`ContactSolver::step`](crate::ContactSolver::step)).
#[inline]
fn fly_free(body: &mut RigidBody, dv: &Vector, h: Real, substeps: u32) {
    match body.body_type() {
        BodyType::Static => {}
        BodyType::Kinematic => {
            for _ in 0..substeps {
                body.advance(h);
            }
        }
        BodyType::Dynamic => {
            for _ in 0..substeps {
                let (v0, w0) = (body.linvel(), body.angvel());
                let (v, w) = integrate_velocity(
                    v0,
                    w0,
                    dv,
                    h,
                    body.linear_damping(),
                    body.angular_damping(),
                );
                body.set_velocity_unchecked(v, w);
                body.advance_free(h, &v0, w0);
            }
        }
    }
}

/// `1 / k`, or zero where `k` is not positive (both bodies of infinite mass).
#[inline]
pub(crate) fn inverse_or_zero(k: Real) -> Real {
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

/// Velocity of B's material point minus A's, at lever arms `r_a` and `r_b`.
#[inline]
pub(crate) fn relative_velocity(
    a: &SolverBody,
    b: &SolverBody,
    r_a: &Vector,
    r_b: &Vector,
) -> Vector {
    b.v + cross_scalar_vector(b.w, r_b) - a.v - cross_scalar_vector(a.w, r_a)
}

/// Applies `impulse` to B and its opposite to A (infinite masses have zero inverses).
#[inline]
pub(crate) fn apply(
    a: &mut SolverBody,
    b: &mut SolverBody,
    r_a: &Vector,
    r_b: &Vector,
    impulse: &Vector,
) {
    a.v -= impulse * a.inv_mass;
    a.w -= a.inv_inertia * cross(r_a, impulse);
    b.v += impulse * b.inv_mass;
    b.w += b.inv_inertia * cross(r_b, impulse);
}

/// The velocities a body of the solver moves along over a substep (see
/// [`BodyTable::integrate_positions`]): a kinematic body's own, a dynamic body's solved ones,
/// or the mean of the substep's start and end velocities for one that flew free; `None` for
/// a static body.
#[inline]
fn substep_velocity(s: &BodyState, sb: &SolverBody) -> Option<(Vector, Real)> {
    match s.body_type {
        BodyType::Static => None,
        BodyType::Kinematic => Some((s.linvel, s.angvel)),
        BodyType::Dynamic if s.flight[1] == (sb.v, sb.w) => {
            let (v0, w0) = s.flight[0];
            Some((v0 * 0.5 + sb.v * 0.5, w0 * 0.5 + sb.w * 0.5))
        }
        BodyType::Dynamic => Some((sb.v, sb.w)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RigidBodyDef;
    use impact_geometry::{ConvexPolygon, Isometry};

    /// Two bodies at a time land on the same bits as one at a time: static, kinematic and
    /// dynamic bodies, turning or not, some in free flight (the mean of the substep's
    /// velocities), in every order, over an odd count (the last one alone).
    #[test]
    fn bodies_moved_in_pairs_land_where_one_at_a_time_does() {
        let square = || ConvexPolygon::rectangle(0.5, 0.25).unwrap().into();
        let mut bodies = BodySet::new();
        let mut table = BodyTable::default();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as Real / (1u64 << 53) as Real - 0.5
        };
        for i in 0..41 {
            let def = match i % 5 {
                0 => RigidBodyDef::fixed(square()),
                1 => RigidBodyDef::kinematic(square()).angvel(3.0 * next()),
                2 => RigidBodyDef::dynamic(square()),
                _ => RigidBodyDef::dynamic(square()).angvel(40.0 * next()),
            };
            let pose = Isometry::new(Vector::new(10.0 * next(), 10.0 * next()), 6.0 * next());
            let linvel = Vector::new(5.0 * next(), 5.0 * next());
            let def = match i % 5 {
                0 => def.pose(pose),
                _ => def.pose(pose).linvel(linvel),
            };
            let handle = bodies.insert(def).unwrap();
            table.index_of(handle, bodies.get(handle).unwrap());
        }
        table.integrate_velocities(&Vector::new(0.0, -10.0 / 240.0), 1.0 / 240.0);
        // Every third dynamic body's velocity solved away from its free flight.
        for (k, sb) in table.velocities.iter_mut().enumerate() {
            if k % 3 == 0 {
                sb.w += 0.5;
            }
        }
        let mut alone = table.clone();
        table.integrate_positions(1.0 / 240.0);
        for ((s, sb), m) in alone
            .states
            .iter_mut()
            .zip(&alone.velocities)
            .zip(&mut alone.motion)
        {
            if let Some((v, w)) = substep_velocity(s, sb) {
                advance_pose(&mut s.pose, &s.local_center, &v, w, 1.0 / 240.0);
            }
            s.update_motion();
            *m = Motion::of(s);
        }
        for (a, b) in table.states.iter().zip(&alone.states) {
            let bits = |s: &BodyState| {
                let t = s.pose.translation.vector;
                let r = s.pose.rotation;
                [t.x, t.y, r.re, r.im, s.dp.x, s.dp.y, s.chord].map(Real::to_bits)
            };
            assert_eq!(bits(a), bits(b), "{:?}", a.handle);
        }
        assert!(table.states.iter().any(|s| s.pose.rotation != s.rotation0));
    }
}
