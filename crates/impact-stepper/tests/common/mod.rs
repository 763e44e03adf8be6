//! Helpers shared by the integration tests.

#![allow(dead_code)]

use impact_broadphase::Broadphase;
use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{Capsule, Circle, ConvexPolygon, Isometry, Point, Real, Shape, Vector};
use impact_solver::{BodyHandle, CollisionFilter, JointDef, RevoluteJoint, RigidBodyDef};
use impact_stepper::{Stepper, World};

/// The seeded generator of the samples: the test kit's SplitMix64.
pub use impact_testkit::SplitMix64 as Rng;

/// 60 Hz, the step of every scene test.
pub const DT: f64 = 1.0 / 60.0;

/// [`BodySet::state_hash`](impact_solver::BodySet::state_hash) of the world's bodies.
pub fn state_hash<B: Broadphase, S: Stepper>(world: &World<B, S>) -> u64 {
    world.body_set().state_hash()
}

/// Steps `a` and `b` together `steps` times by `dt`: the same collision events at every
/// step, and the same body states, bit for bit, at the end.
pub fn assert_same_run<B: Broadphase, S: Stepper>(
    a: &mut World<B, S>,
    b: &mut World<B, S>,
    steps: usize,
    dt: Real,
) {
    for step in 0..steps {
        a.step(dt).unwrap();
        b.step(dt).unwrap();
        assert_eq!(a.events(), b.events(), "step {step}");
    }
    assert_eq!(state_hash(a), state_hash(b));
}

/// A CCD disc of radius 0.5 at `(x, y)` moving at `(vx, vy)`, perfectly elastic and
/// frictionless: the hard disk of the periodic and disc-path tests.
pub fn elastic_disc(x: Real, y: Real, vx: Real, vy: Real) -> RigidBodyDef {
    RigidBodyDef::new(Circle::new(0.5).unwrap().into())
        .pose(Isometry::translation(x, y))
        .linvel(Vector::new(vx, vy))
        .restitution(1.0)
        .friction(0.0)
        .ccd(true)
}

/// `count` seeded (speed, angle) pairs: speeds in [200, 10,000) units/s, angles within
/// +-1 radian of `+x`.
pub fn samples(seed: u64, count: usize) -> Vec<(Real, Real)> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|_| (rng.range(200.0, 10_000.0), rng.range(-1.0, 1.0)))
        .collect()
}

/// A bar of half extents `half` (length, thickness) at `centre` turned by `angle`, on a
/// fixed pivot at the origin that it does not collide with: dynamic, turned at `omega`
/// rad/s by a revolute motor of torque to spare (10^6), or `kinematic` (the test sets its
/// velocities). Density 20, `ccd` set, restitution 0.
pub fn driven_bar<B: Broadphase + Default, S: Stepper + Default>(
    w: &mut World<B, S>,
    half: (Real, Real),
    (centre, angle): (Vector, Real),
    omega: Real,
    kinematic: bool,
) -> BodyHandle {
    let group = CollisionFilter::DEFAULT.group(-1);
    let pivot = w
        .create_body(RigidBodyDef::fixed(Circle::new(0.01).unwrap().into()).filter(group))
        .unwrap();
    let bar: Shape = ConvexPolygon::rectangle(half.0, half.1).unwrap().into();
    let def = if kinematic {
        RigidBodyDef::kinematic(bar)
    } else {
        RigidBodyDef::new(bar)
    };
    let bar = w
        .create_body(
            def.pose(Isometry::new(centre, angle))
                .density(20.0)
                .filter(group)
                .ccd(true),
        )
        .unwrap();
    if !kinematic {
        let kind = RevoluteJoint::default().motor(omega, 1.0e6);
        let def = JointDef::at_world_anchor(w.body_set(), pivot, bar, Point::origin(), kind.into());
        w.create_joint(def.unwrap()).unwrap();
    }
    bar
}

/// A disc of radius `size` (`kind` 0), a square of half side `size` (1), or a capsule of
/// half core `size` and radius `size / 2` along x (2).
pub fn small_shape(kind: u8, size: Real) -> Shape {
    match kind {
        0 => Circle::new(size).unwrap().into(),
        1 => ConvexPolygon::rectangle(size, size).unwrap().into(),
        _ => Capsule::new(Point::new(-size, 0.0), Point::new(size, 0.0), 0.5 * size)
            .unwrap()
            .into(),
    }
}

/// Free bodies (handles and bounding radii) against a thin bar or slab, followed from step to
/// step to catch one that goes through it: each body's last clear side. A body is judged on
/// its centre in the bar's frame (x along it): clearly on a side when farther from its middle
/// line than the bar's half thickness plus the body's radius less [`LINEAR_SLOP`]; not judged
/// where `judged(x, radius)` says no (near an end, round which it may have gone between two
/// observations), which forgets its side.
#[derive(Debug, Clone)]
pub struct BarSides {
    bar: BodyHandle,
    half_thickness: Real,
    bodies: Vec<(BodyHandle, Real)>,
    last: Vec<Option<bool>>,
}

impl BarSides {
    /// The bodies where they are now in `w`.
    pub fn new<B: Broadphase, S: Stepper>(
        w: &World<B, S>,
        (bar, half_thickness): (BodyHandle, Real),
        bodies: &[(BodyHandle, Real)],
        judged: impl Fn(Real, Real) -> bool,
    ) -> Self {
        let mut sides = Self {
            bar,
            half_thickness,
            bodies: bodies.to_vec(),
            last: vec![None; bodies.len()],
        };
        for k in 0..bodies.len() {
            sides.last[k] = sides.place(w, k, &judged).flatten();
        }
        sides
    }

    /// Where body `k` is: `None` where not judged, else its clear side, if any (`true`: the
    /// side of the bar's local +y).
    fn place<B: Broadphase, S: Stepper>(
        &self,
        w: &World<B, S>,
        k: usize,
        judged: &impl Fn(Real, Real) -> bool,
    ) -> Option<Option<bool>> {
        let (body, r) = self.bodies[k];
        let pose = w.body(self.bar).unwrap().pose();
        let local = pose.inverse_transform_point(&w.body(body).unwrap().center_of_mass());
        if !judged(local.x, r) {
            return None;
        }
        let clear = self.half_thickness + r - LINEAR_SLOP;
        Some((local.y.abs() > clear).then_some(local.y > 0.0))
    }

    /// After a step: the first body clearly on the other side from its last clear one, if
    /// any; the others' sides taken.
    pub fn crossed<B: Broadphase, S: Stepper>(
        &mut self,
        w: &World<B, S>,
        judged: impl Fn(Real, Real) -> bool,
    ) -> Option<usize> {
        for k in 0..self.bodies.len() {
            match self.place(w, k, &judged) {
                None => self.last[k] = None,
                Some(None) => {}
                Some(Some(now)) => {
                    if self.last[k].is_some_and(|before| before != now) {
                        return Some(k);
                    }
                    self.last[k] = Some(now);
                }
            }
        }
        None
    }
}
