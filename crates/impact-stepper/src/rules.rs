//! [`CollisionRules`]: which pairs of a step may collide, from the shapes' collision filters
//! and sensor flags and the world's hooks, as every stage asks it.
//!
//! The world builds the rules once per step: a table of each slot's filter and sensor flag,
//! left empty when no pair can be filtered (every body has the same filter, which lets it
//! collide with itself, and none is a sensor: the default world), so that every question
//! costs one test of an empty slice there and the pipeline runs as it did without filters.

use crate::hooks::{
    ContactBody, ContactKind, ContactResponse, PairFilter, PairView, PreSolveContact, PreSolveHook,
};
use crate::shape_proxies::ShapeProxies;
use impact_broadphase::Broadphase;
use impact_geometry::{Isometry, Point, Real, Vector};
use impact_solver::{BodyHandle, BodySet, CollisionFilter, JointPairs, ShapeId};

/// What a slot's shape is to the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ShapeRule {
    filter: CollisionFilter,
    sensor: bool,
}

/// What a pair of shapes is to a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairKind {
    /// The shapes may collide: contacts, impacts, events.
    Collide,
    /// One of the shapes is a sensor, and the filters let the two meet: no collision, but
    /// the sensor sees the other (its overlap events, unless both are sensors or neither
    /// moves).
    Sense,
    /// The filters keep the shapes apart: nothing at all.
    Ignore,
}

/// Which pairs of a step may collide, as the world and the steppers ask it: the shapes'
/// [`CollisionFilter`]s and sensor flags, the joints that keep their bodies from colliding
/// ([`JointPairs`]: a joint whose `collide_connected` is off), and the world's
/// [`PairFilter`] and [`PreSolveHook`]. Given to a stepper in [`StepContext::rules`](crate::StepContext::rules).
///
/// Slots are body slots ([`BodyHandle::index`], the proxies' indices). A stepper of one's own
/// asks [`CollisionRules::allows`] of every pair it finds on its own before it asks a time
/// of impact, and [`CollisionRules::pre_solve`] before it acts on an impact; the world has
/// asked them of the contacts it gives.
#[derive(Clone, Copy, Default)]
pub struct CollisionRules<'a> {
    /// Per slot; empty when no pair is filtered (see the module docs).
    shapes: &'a [ShapeRule],
    pair_filter: Option<&'a dyn PairFilter>,
    pre_solve: Option<&'a dyn PreSolveHook>,
    /// The joints, when one keeps a pair of bodies from colliding.
    joints: Option<&'a JointPairs>,
}

impl core::fmt::Debug for CollisionRules<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CollisionRules")
            .field("filtered", &!self.shapes.is_empty())
            .field("pair_filter", &self.pair_filter.is_some())
            .field("pre_solve", &self.pre_solve.is_some())
            .field("joints", &self.joints.is_some())
            .finish()
    }
}

impl<'a> CollisionRules<'a> {
    /// Rules under which every pair collides and no hook is asked: a world whose bodies all
    /// have the default filter and no sensor, without hooks.
    #[must_use]
    pub const fn none() -> Self {
        Self {
            shapes: &[],
            pair_filter: None,
            pre_solve: None,
            joints: None,
        }
    }

    pub(crate) fn new(
        shapes: &'a [ShapeRule],
        pair_filter: Option<&'a dyn PairFilter>,
        pre_solve: Option<&'a dyn PreSolveHook>,
    ) -> Self {
        Self {
            shapes,
            pair_filter,
            pre_solve,
            joints: None,
        }
    }

    /// The same rules, with the pairs of bodies of `joints` kept apart (nothing changes if
    /// no joint keeps any pair apart).
    #[must_use]
    pub fn with_joints(mut self, joints: &'a JointPairs) -> Self {
        self.joints = (!joints.is_empty()).then_some(joints);
        self
    }

    /// Whether a joint keeps the bodies `a` and `b` from colliding.
    #[inline]
    pub fn joint_keeps_apart(&self, a: BodyHandle, b: BodyHandle) -> bool {
        self.joints.is_some_and(|j| j.keeps_apart(a, b))
    }

    /// Whether every pair collides and no hook is asked (then every question below answers
    /// at once, and a stepper may skip asking).
    #[inline]
    pub fn is_trivial(&self) -> bool {
        self.shapes.is_empty()
            && self.pair_filter.is_none()
            && self.pre_solve.is_none()
            && self.joints.is_none()
    }

    /// Whether [`CollisionRules::allows`] can answer `false`: some filter or sensor keeps a
    /// pair apart, a joint keeps its bodies apart, or a pair filter hook is set.
    #[inline]
    pub fn filters_pairs(&self) -> bool {
        !self.shapes.is_empty() || self.pair_filter.is_some() || self.joints.is_some()
    }

    /// Whether the world has a pre-solve hook.
    #[inline]
    pub fn has_pre_solve(&self) -> bool {
        self.pre_solve.is_some()
    }

    /// What the pair of slots `a` and `b` is by the filters and sensor flags alone (the pair
    /// filter hook is not asked). Symmetric.
    #[inline]
    pub fn kind(&self, a: u32, b: u32) -> PairKind {
        if self.shapes.is_empty() {
            return PairKind::Collide;
        }
        let (Some(x), Some(y)) = (self.shapes.get(a as usize), self.shapes.get(b as usize)) else {
            // A slot past the table has no body; nothing to filter.
            return PairKind::Collide;
        };
        if !x.filter.should_collide(&y.filter) {
            PairKind::Ignore
        } else if x.sensor || y.sensor {
            PairKind::Sense
        } else {
            PairKind::Collide
        }
    }

    /// Whether the shapes of slots `a` and `b` may collide by their filters and sensor flags:
    /// [`CollisionRules::kind`] is [`PairKind::Collide`].
    #[inline]
    pub fn may_collide(&self, a: u32, b: u32) -> bool {
        self.shapes.is_empty() || self.kind(a, b) == PairKind::Collide
    }

    /// Whether the body of `slot` is a sensor.
    #[inline]
    pub fn is_sensor(&self, slot: u32) -> bool {
        self.shapes.get(slot as usize).is_some_and(|s| s.sensor)
    }

    /// Whether the pair of slots `a` and `b` (their bodies named by `proxies`, as
    /// [`StepContext::proxies`](crate::StepContext::proxies)) may collide: the filters and
    /// sensor flags let it ([`CollisionRules::may_collide`]), no joint keeps the bodies
    /// apart, and the pair filter hook, if any, asked with the body of the smaller slot
    /// first, lets it.
    pub fn allows(&self, bodies: &BodySet, proxies: &[Option<BodyHandle>], a: u32, b: u32) -> bool {
        if !self.may_collide(a, b) {
            return false;
        }
        if self.pair_filter.is_none() && self.joints.is_none() {
            return true;
        }
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let handle = |slot: u32| proxies.get(slot as usize).copied().flatten();
        match (handle(lo), handle(hi)) {
            (Some(ha), Some(hb)) => self.allows_bodies(bodies, ha, hb),
            _ => true,
        }
    }

    /// The pair filter hook's answer for the first shapes of the bodies `a` and `b` (`a`
    /// first), `true` without a hook or for a body that is gone. The filters are not asked.
    pub(crate) fn allows_bodies(&self, bodies: &BodySet, a: BodyHandle, b: BodyHandle) -> bool {
        self.allows_shapes(bodies, ShapeId::first_of(a), ShapeId::first_of(b))
    }

    /// Whether no joint keeps the bodies of the shapes `a` and `b` apart and the pair filter
    /// hook lets them collide (`a` first): `true` without either, or for a body that is
    /// gone. The filters are not asked.
    pub(crate) fn allows_shapes(&self, bodies: &BodySet, a: ShapeId, b: ShapeId) -> bool {
        if self.joint_keeps_apart(a.body, b.body) {
            return false;
        }
        let Some(filter) = self.pair_filter else {
            return true;
        };
        let (Some(body_a), Some(body_b)) = (bodies.get(a.body), bodies.get(b.body)) else {
            return true;
        };
        filter.should_collide(&PairView {
            a,
            b,
            body_a,
            body_b,
        })
    }

    /// The pre-solve hook's answer for `contact`, [`ContactResponse::Keep`] without a hook.
    pub fn pre_solve(&self, contact: &mut PreSolveContact<'_>) -> ContactResponse {
        match self.pre_solve {
            Some(hook) => {
                hook.pre_solve(contact);
                contact.response()
            }
            None => ContactResponse::Keep,
        }
    }

    /// The pre-solve hook's answer for a CCD impact of the bodies `x` and `y` (each its
    /// handle, shape, pose and velocities at the impact) at `point` with `normal` from `x` toward
    /// `y`, `time` seconds into the step, at `separation`: asked with the body of the smaller
    /// slot first, as every pair is. [`ContactResponse::Keep`] without a hook or for a body
    /// that is gone.
    pub(crate) fn pre_solve_impact(
        &self,
        bodies: &BodySet,
        (x, y): (ImpactSide, ImpactSide),
        (point, normal): (Point, Vector),
        separation: Real,
        time: Real,
    ) -> ContactResponse {
        if self.pre_solve.is_none() {
            return ContactResponse::Keep;
        }
        let ((a, b), normal) = if x.0.index <= y.0.index {
            ((x, y), normal)
        } else {
            ((y, x), -normal)
        };
        let side = |(handle, shape, pose, velocity): ImpactSide| {
            bodies.get(handle).map(|body| ContactBody {
                handle,
                shape,
                body,
                pose,
                velocity,
            })
        };
        let (Some(a), Some(b)) = (side(a), side(b)) else {
            return ContactResponse::Keep;
        };
        let mut contact = PreSolveContact::new(
            (a, b),
            (point, normal),
            separation,
            None,
            ContactKind::Impact { time },
        );
        self.pre_solve(&mut contact)
    }
}

/// One body of an impact for [`CollisionRules::pre_solve_impact`]: its handle, the place of
/// its shape that met (in the body's list), its pose and its velocities (linear, angular) at
/// the impact.
pub(crate) type ImpactSide = (BodyHandle, u32, Isometry, (Vector, Real));

/// What a look at every body found, besides the table: whether the world asks for sensor
/// events (a body is a sensor) and for contact force events (a body has a threshold).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Scan {
    pub(crate) sensors: bool,
    pub(crate) force_thresholds: bool,
}

/// Fills `table` with each proxy's filter and sensor flag (the proxies of every body's
/// shapes, as `proxies` names them) for `len` proxy indices, or empties it when no pair can
/// be filtered: every shape has the same filter, which collides with itself, and none is a
/// sensor. One look at each shape.
pub(crate) fn build_table(
    bodies: &BodySet,
    proxies: &ShapeProxies,
    len: usize,
    table: &mut Vec<ShapeRule>,
) -> Scan {
    table.clear();
    let mut first = None;
    let mut uniform = true;
    let mut scan = Scan::default();
    for (_, body) in bodies.iter() {
        for shape in body.shapes() {
            let filter = shape.filter();
            scan.sensors |= shape.is_sensor();
            scan.force_thresholds |= shape.contact_force_threshold().is_some();
            uniform &= *first.get_or_insert(filter) == filter;
        }
    }
    uniform &= !scan.sensors;
    if uniform && first.is_none_or(|f: CollisionFilter| f.should_collide(&f)) {
        return scan;
    }
    table.resize(
        len,
        ShapeRule {
            filter: CollisionFilter::DEFAULT,
            sensor: false,
        },
    );
    for (handle, body) in bodies.iter() {
        let shapes = body.shapes();
        for (shape, proxy) in shapes
            .iter()
            .zip(proxies.proxies_of(handle.index, shapes.len()))
        {
            if let Some(rule) = table.get_mut(proxy.index()) {
                *rule = ShapeRule {
                    filter: shape.filter(),
                    sensor: shape.is_sensor(),
                };
            }
        }
    }
    scan
}

/// Gives `broadphase` every shape's filter for its proxy (as `proxies` names them), so that
/// it leaves out the pairs no filter lets meet: in a scene kept apart by category (Box2D's
/// joint grid) those are every pair it finds. One look at each shape; the broadphase acts
/// only on a filter that changed.
pub(crate) fn give_filters<B: Broadphase>(
    bodies: &BodySet,
    proxies: &ShapeProxies,
    broadphase: &mut B,
) {
    for (handle, body) in bodies.iter() {
        let shapes = body.shapes();
        for (shape, proxy) in shapes
            .iter()
            .zip(proxies.proxies_of(handle.index, shapes.len()))
        {
            let given = broadphase.set_filter(proxy, shape.filter());
            debug_assert!(given.is_ok(), "every shape has a proxy");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::Circle;
    use impact_solver::RigidBodyDef;

    fn disc() -> RigidBodyDef {
        RigidBodyDef::new(Circle::new(1.0).unwrap().into())
    }

    #[test]
    fn a_table_only_when_some_pair_can_be_filtered() {
        let mut table = Vec::new();
        let mut bodies = BodySet::new();
        build_table(
            &bodies,
            &ShapeProxies::of_single_shapes(&bodies),
            0,
            &mut table,
        );
        assert!(table.is_empty());
        let a = bodies.insert(disc()).unwrap();
        let b = bodies.insert(disc()).unwrap();
        build_table(
            &bodies,
            &ShapeProxies::of_single_shapes(&bodies),
            2,
            &mut table,
        );
        assert!(table.is_empty(), "default filters");
        // The same filter on every body, colliding with itself: nothing to filter.
        let same = CollisionFilter::new(4, 4);
        for h in [a, b] {
            bodies.get_mut(h).unwrap().set_filter(same);
        }
        build_table(
            &bodies,
            &ShapeProxies::of_single_shapes(&bodies),
            2,
            &mut table,
        );
        assert!(table.is_empty(), "one self-colliding filter");
        let rules = CollisionRules::new(&table, None, None);
        assert!(rules.is_trivial() && rules.may_collide(0, 1));
        // A filter that does not collide with itself keeps the pair apart.
        for h in [a, b] {
            bodies
                .get_mut(h)
                .unwrap()
                .set_filter(CollisionFilter::new(4, 2));
        }
        build_table(
            &bodies,
            &ShapeProxies::of_single_shapes(&bodies),
            2,
            &mut table,
        );
        let rules = CollisionRules::new(&table, None, None);
        assert_eq!(rules.kind(0, 1), PairKind::Ignore);
        // A negative group wins over the bits.
        for h in [a, b] {
            bodies
                .get_mut(h)
                .unwrap()
                .set_filter(CollisionFilter::DEFAULT.group(-1));
        }
        build_table(
            &bodies,
            &ShapeProxies::of_single_shapes(&bodies),
            2,
            &mut table,
        );
        let rules = CollisionRules::new(&table, None, None);
        assert_eq!(rules.kind(0, 1), PairKind::Ignore);
        assert!(!rules.may_collide(1, 0));
    }

    #[test]
    fn a_sensor_senses_what_its_filter_lets_it_meet() {
        let mut table = Vec::new();
        let mut bodies = BodySet::new();
        bodies.insert(disc().sensor(true)).unwrap();
        bodies.insert(disc()).unwrap();
        bodies
            .insert(disc().filter(CollisionFilter::new(2, 2)))
            .unwrap();
        build_table(
            &bodies,
            &ShapeProxies::of_single_shapes(&bodies),
            3,
            &mut table,
        );
        let rules = CollisionRules::new(&table, None, None);
        assert!(rules.is_sensor(0) && !rules.is_sensor(1));
        assert_eq!(rules.kind(0, 1), PairKind::Sense);
        assert_eq!(rules.kind(1, 0), PairKind::Sense);
        assert_eq!(rules.kind(0, 2), PairKind::Ignore);
        assert_eq!(rules.kind(1, 2), PairKind::Ignore);
        assert!(!rules.may_collide(0, 1));
    }
}
