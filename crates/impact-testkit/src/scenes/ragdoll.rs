//! A ragdoll of eleven bodies and ten revolute joints: Box2D v3's "human"
//! (`shared/human.c`), the body of its benchmark "rain" and of the ragdoll tests and
//! examples.

use super::jointed::SceneJoint;
use impact_geometry::{Capsule, ConvexPolygon, Isometry, Point, Real, Shape, Vector};
use impact_solver::{CollisionFilter, JointKind, RevoluteJoint, RigidBodyDef, ShapeDef};
use std::f64::consts::PI;

/// How many bodies a [`ragdoll`] has.
pub const RAGDOLL_BODIES: usize = 11;

/// A bone: its place above the feet, its capsule (lower and upper end above the bone's place,
/// radius), its parent, the pivot's height, the limits, the friction scale, the reference
/// angle and the linear damping.
struct Bone {
    y: Real,
    capsule: (Real, Real, Real),
    parent: Option<usize>,
    pivot: Real,
    limits: (Real, Real),
    friction: Real,
    reference: Real,
    damping: Real,
    foot: bool,
}

const fn bone(
    y: Real,
    capsule: (Real, Real, Real),
    parent: Option<usize>,
    pivot: Real,
    limits: (Real, Real),
    friction: Real,
) -> Bone {
    Bone {
        y,
        capsule,
        parent,
        pivot,
        limits,
        friction,
        reference: 0.0,
        damping: 0.0,
        foot: false,
    }
}

/// Box2D's bones, in its order: hip, torso, head, upper and lower left leg, upper and lower
/// right leg, upper and lower left arm, upper and lower right arm (heights in units of the
/// scale; limits in half turns).
fn bones() -> [Bone; RAGDOLL_BODIES] {
    let upper_leg = |parent| {
        bone(
            0.775,
            (-0.125, 0.125, 0.06),
            Some(parent),
            0.9,
            (-0.05, 0.4),
            1.0,
        )
    };
    let lower_leg = |parent| Bone {
        foot: true,
        ..bone(
            0.475,
            (-0.155, 0.125, 0.045),
            Some(parent),
            0.625,
            (-0.5, -0.02),
            0.5,
        )
    };
    let upper_arm = || {
        bone(
            1.225,
            (-0.125, 0.125, 0.035),
            Some(1),
            1.35,
            (-0.1, 0.8),
            0.5,
        )
    };
    let lower_arm = |parent| Bone {
        reference: 0.25 * PI,
        damping: 0.1,
        ..bone(
            0.975,
            (-0.125, 0.125, 0.03),
            Some(parent),
            1.1,
            (-0.2, 0.3),
            0.1,
        )
    };
    [
        bone(0.95, (-0.02, 0.02, 0.095), None, 0.0, (0.0, 0.0), 1.0),
        bone(1.2, (-0.135, 0.135, 0.09), Some(0), 1.0, (-0.25, 0.0), 0.5),
        Bone {
            damping: 0.1,
            ..bone(
                1.475,
                (-0.038, 0.039, 0.075),
                Some(1),
                1.4,
                (-0.3, 0.1),
                0.25,
            )
        },
        upper_leg(0),
        lower_leg(3),
        upper_leg(0),
        lower_leg(5),
        upper_arm(),
        lower_arm(7),
        upper_arm(),
        lower_arm(9),
    ]
}

/// The bodies and joints of a ragdoll standing with its feet at `position`, `scale` metres
/// tall in units of Box2D's human (about 1.6 at scale 1), in the negative collision group
/// `-group` (its bones never collide with each other; Box2D's category 2, mask 1 | 2, feet
/// mask 1), with joint friction (a motor of speed 0) of `friction_torque * scale` newton
/// metres times each bone's scale, and the limits of Box2D's human, without joint springs:
/// [`human`] with `hertz` 0. Joint indices are the body indices of the returned list, which
/// starts at 0: offset them by where the bodies are put in a scene.
pub fn ragdoll(
    position: Vector,
    scale: Real,
    group: i32,
    friction_torque: Real,
) -> (Vec<RigidBodyDef>, Vec<SceneJoint>) {
    human(position, scale, group, friction_torque, 0.0, 0.0)
}

/// Box2D's `CreateHuman` (`shared/human.c`): [`ragdoll`], with each joint also a spring of
/// `hertz` and `damping_ratio` toward its reference angle when `hertz` is positive (Box2D's
/// `enableSpring = hertz > 0`), as its benchmark "rain" builds it (5 Hz, damping ratio 0.5).
pub fn human(
    position: Vector,
    scale: Real,
    group: i32,
    friction_torque: Real,
    hertz: Real,
    damping_ratio: Real,
) -> (Vec<RigidBodyDef>, Vec<SceneJoint>) {
    let s = scale;
    let filter = CollisionFilter::new(2, 1 | 2).group(-group.abs().max(1));
    let foot_filter = CollisionFilter::new(2, 1).group(-group.abs().max(1));
    let mut bodies = Vec::with_capacity(RAGDOLL_BODIES);
    let mut joints = Vec::with_capacity(RAGDOLL_BODIES - 1);
    for b in bones() {
        let at = Vector::new(0.0, b.y * s) + position;
        let (lo, hi, r) = b.capsule;
        let capsule: Shape = Capsule::new(Point::new(0.0, lo * s), Point::new(0.0, hi * s), r * s)
            .expect("positive radius")
            .into();
        let mut def = RigidBodyDef::new(capsule)
            .pose(Isometry::translation(at.x, at.y))
            .friction(0.2)
            .filter(filter);
        def.linear_damping = b.damping;
        if b.foot {
            let points = [
                (-0.03, -0.185),
                (0.11, -0.185),
                (0.11, -0.16),
                (-0.03, -0.14),
            ]
            .map(|(x, y)| Point::new(x * s, y * s));
            let foot = ConvexPolygon::rounded(&points, 0.015 * s).expect("a convex foot");
            def = def.with_shape(
                ShapeDef::new(foot.into())
                    .friction(0.05)
                    .filter(foot_filter),
            );
        }
        if let Some(parent) = b.parent {
            let pivot = Point::new(position.x, b.pivot * s + position.y);
            let parent_at = bodies_at(&bodies, parent);
            let mut hinge = RevoluteJoint::default()
                .limits(b.limits.0 * PI, b.limits.1 * PI)
                .motor(0.0, b.friction * friction_torque * s);
            if hertz > 0.0 {
                hinge = hinge.spring(hertz, damping_ratio);
            }
            let kind: JointKind = hinge.into();
            joints.push(SceneJoint {
                bodies: [parent, bodies.len()],
                local_anchors: [pivot - parent_at, pivot - Point::from(at)].map(Point::from),
                kind,
                reference_angle: b.reference,
            });
        }
        bodies.push(def);
    }
    (bodies, joints)
}

/// Where body `i` of `bodies` is (every bone starts unturned).
fn bodies_at(bodies: &[RigidBodyDef], i: usize) -> Point {
    Point::from(bodies[i].pose.translation.vector)
}
