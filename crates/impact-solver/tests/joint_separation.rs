//! `Joint::separation` against closed forms: two bodies at random poses are joined where they
//! stand (every kind of joint reads zero), then body B is turned by `theta` about its anchor
//! and moved by `d`; each kind's error is then known exactly (`|d|` for a hinge, `d` across
//! a slider's axis and past its limits, the length change of a rod, the angle past a
//! hinge's limits, ...). A rigid motion of both bodies together changes no error.

use impact_geometry::{Circle, Isometry, Point, Real, Rotation, Vector};
use impact_solver::{
    BodyHandle, BodySet, DistanceJoint, JointDef, JointKind, JointSeparation, JointSet, MotorJoint,
    MouseJoint, PrismaticJoint, RevoluteJoint, RigidBodyDef, SolverError, WeldJoint, WheelJoint,
};
use proptest::prelude::*;

/// Rounding allowed on an error, positions being up to 100 from the origin.
const TOL: Real = 1e-10;

fn body(bodies: &mut BodySet, pose: Isometry) -> BodyHandle {
    bodies
        .insert(RigidBodyDef::new(Circle::new(0.5).unwrap().into()).pose(pose))
        .unwrap()
}

/// `angle` in `(-pi, pi]`.
fn wrap(angle: Real) -> Real {
    Rotation::new(angle).angle()
}

/// How far `x` is outside `[lo, hi]`.
fn past(x: Real, lo: Real, hi: Real) -> Real {
    (lo - x).max(x - hi).max(0.0)
}

/// A rigid motion of the plane: turn by `theta` about `centre`, then move by `d`.
fn moved(pose: &Isometry, centre: Point, theta: Real, d: Vector) -> Isometry {
    let turn = Isometry::translation(centre.x, centre.y)
        * Isometry::rotation(theta)
        * Isometry::translation(-centre.x, -centre.y);
    Isometry::translation(d.x, d.y) * turn * pose
}

#[derive(Debug)]
struct Case {
    pose_a: Isometry,
    pose_b: Isometry,
    anchor_a: Point,
    anchor_b: Point,
    axis: Vector,
    theta: Real,
    d: Vector,
    limits: (Real, Real),
}

fn case() -> impl Strategy<Value = Case> {
    let p = || (-50.0..50.0f64, -50.0..50.0f64);
    (
        (p(), -3.0..3.0f64, p(), -3.0..3.0f64),
        (p(), p(), -3.1..3.1f64),
        (-3.1..3.1f64, (-2.0..2.0f64, -2.0..2.0f64)),
        (-1.0..0.0f64, 0.0..1.0f64),
    )
        .prop_map(
            |((pa, aa, pb, ab), (qa, qb, axis), (theta, d), limits)| Case {
                pose_a: Isometry::new(Vector::new(pa.0, pa.1), aa),
                pose_b: Isometry::new(Vector::new(pb.0, pb.1), ab),
                anchor_a: Point::new(qa.0, qa.1),
                anchor_b: Point::new(qb.0, qb.1),
                axis: Vector::new(axis.cos(), axis.sin()),
                theta,
                d: Vector::new(d.0, d.1),
                limits,
            },
        )
}

/// Joins A and B by `kind` at `anchors` (world) where they stand, then applies `motion` to
/// the bodies' poses and returns the joint's separation.
fn separation_after(
    c: &Case,
    anchors: (Point, Point),
    kind: JointKind,
    motion: impl Fn(&Isometry, bool) -> Isometry,
) -> JointSeparation {
    let mut bodies = BodySet::new();
    let a = body(&mut bodies, c.pose_a);
    let b = body(&mut bodies, c.pose_b);
    let def = JointDef::at_world_anchors(&bodies, a, b, anchors, kind).unwrap();
    let mut joints = JointSet::new();
    let j = joints.insert(&bodies, def).unwrap();
    let at_rest = joints.get(j).unwrap().separation(&bodies).unwrap();
    assert!(
        at_rest.linear < TOL && at_rest.angular < TOL,
        "joined where they stand, yet off by {at_rest:?}"
    );
    for (h, is_a) in [(a, true), (b, false)] {
        let body = bodies.get_mut(h).unwrap();
        let pose = motion(body.pose(), is_a);
        body.set_pose(pose).unwrap();
    }
    joints.get(j).unwrap().separation(&bodies).unwrap()
}

/// B turned by `theta` about its anchor `at` and moved by `d`; A left.
fn b_moved(c: &Case, at: Point) -> impl Fn(&Isometry, bool) -> Isometry + '_ {
    move |pose, is_a| {
        if is_a {
            *pose
        } else {
            moved(pose, at, c.theta, c.d)
        }
    }
}

fn close(got: Real, want: Real) -> bool {
    (got - want).abs() < TOL * (1.0 + want)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn each_kind_reads_its_closed_form(c in case()) {
        let p = c.anchor_a;
        let (lo, hi) = c.limits;
        let revolute = RevoluteJoint::default();
        let s = separation_after(&c, (p, p), revolute.clone().into(), b_moved(&c, p));
        prop_assert!(close(s.linear, c.d.norm()) && s.angular == 0.0, "revolute {s:?}");

        let limited = revolute.limits(lo, hi);
        let s = separation_after(&c, (p, p), limited.into(), b_moved(&c, p));
        prop_assert!(close(s.angular, past(wrap(c.theta), lo, hi)), "revolute limits {s:?}");

        let s = separation_after(&c, (p, p), WeldJoint::default().into(), b_moved(&c, p));
        prop_assert!(close(s.linear, c.d.norm()), "weld {s:?}");
        prop_assert!(close(s.angular, wrap(c.theta).abs()), "weld {s:?}");
        let soft = WeldJoint::soft((5.0, 0.7), (5.0, 0.7));
        let s = separation_after(&c, (p, p), soft.into(), b_moved(&c, p));
        prop_assert_eq!(s, JointSeparation::default());

        let across = Vector::new(-c.axis.y, c.axis.x).dot(&c.d).abs();
        let along = c.axis.dot(&c.d);
        let slider = PrismaticJoint::along(c.axis);
        let s = separation_after(&c, (p, p), slider.clone().into(), b_moved(&c, p));
        prop_assert!(close(s.linear, across), "prismatic {s:?} want {across}");
        prop_assert!(close(s.angular, wrap(c.theta).abs()), "prismatic {s:?}");
        let s = separation_after(&c, (p, p), slider.limits(lo, hi).into(), b_moved(&c, p));
        let want = across.hypot(past(along, lo, hi));
        prop_assert!(close(s.linear, want), "prismatic limits {s:?} want {want}");

        let wheel = WheelJoint::along(c.axis).limits(lo, hi);
        let s = separation_after(&c, (p, p), wheel.into(), b_moved(&c, p));
        prop_assert!(close(s.linear, want) && s.angular == 0.0, "wheel {s:?} want {want}");

        let (qa, qb) = (c.anchor_a, c.anchor_b);
        let length = (qb - qa).norm();
        prop_assume!(length > 0.1);
        let now = (qb + c.d - qa).norm();
        let rod = DistanceJoint::rod(length);
        let s = separation_after(&c, (qa, qb), rod.into(), b_moved(&c, qb));
        prop_assert!(close(s.linear, (now - length).abs()) && s.angular == 0.0, "rod {s:?}");
        let rope = DistanceJoint::rope(length);
        let s = separation_after(&c, (qa, qb), rope.into(), b_moved(&c, qb));
        prop_assert!(close(s.linear, (now - length).max(0.0)), "rope {s:?}");
        let spring = DistanceJoint::spring(length, 4.0, 0.5);
        let s = separation_after(&c, (qa, qb), spring.into(), b_moved(&c, qb));
        prop_assert_eq!(s, JointSeparation::default());

        for kind in [MotorJoint::default().into(), MouseJoint::toward(qb, 10.0).into()] {
            let s = separation_after(&c, (qa, qb), kind, b_moved(&c, qb));
            prop_assert_eq!(s, JointSeparation::default());
        }
    }

    #[test]
    fn a_rigid_motion_of_both_bodies_changes_no_error(c in case()) {
        let p = c.anchor_a;
        let centre = c.anchor_b;
        // Off first (B moved), then both moved together: the error stays.
        let kinds: Vec<JointKind> = vec![
            RevoluteJoint::default().limits(c.limits.0, c.limits.1).into(),
            WeldJoint::default().into(),
            PrismaticJoint::along(c.axis).limits(c.limits.0, c.limits.1).into(),
            WheelJoint::along(c.axis).limits(c.limits.0, c.limits.1).into(),
        ];
        for kind in kinds {
            let off = separation_after(&c, (p, p), kind.clone(), b_moved(&c, p));
            let both = separation_after(&c, (p, p), kind, |pose, is_a| {
                let pose = if is_a { *pose } else { moved(pose, p, c.theta, c.d) };
                moved(&pose, centre, 1.0 - c.theta, c.d.yx())
            });
            prop_assert!(
                (off.linear - both.linear).abs() < 1e-9 && (off.angular - both.angular).abs() < 1e-9,
                "{off:?} against {both:?}"
            );
        }
    }
}

#[test]
fn a_joint_read_against_another_body_set_names_the_body() {
    let mut bodies = BodySet::new();
    let a = body(&mut bodies, Isometry::identity());
    let b = body(&mut bodies, Isometry::translation(1.0, 0.0));
    let def = JointDef::at_world_anchor(
        &bodies,
        a,
        b,
        Point::new(0.5, 0.0),
        RevoluteJoint::default().into(),
    )
    .unwrap();
    let mut joints = JointSet::new();
    let j = joints.insert(&bodies, def).unwrap();
    let other = BodySet::new();
    let err = joints.get(j).unwrap().separation(&other).unwrap_err();
    assert!(
        matches!(&err, SolverError::UnknownBody { field, .. } if field == "joint.body_a"),
        "{err}"
    );
}
