//! Invariant: a bad joint definition is refused with an error naming the field (NaN
//! anchors, inverted limits, negative frequencies, zero axes, the same body twice, stale
//! handles, ...), and a refused insert or change leaves the set and the joint unchanged.

mod common;

use common::disc;
use impact_geometry::{Point, Real, Vector};
use impact_solver::{
    BodyHandle, BodySet, DistanceJoint, JointDef, JointKind, JointSet, MotorJoint, MouseJoint,
    PrismaticJoint, RevoluteJoint, SolverError, WeldJoint, WheelJoint,
};
use proptest::prelude::*;

fn field_of(e: &SolverError) -> String {
    match e {
        SolverError::NotFinite { field, .. }
        | SolverError::Negative { field, .. }
        | SolverError::NotPositive { field, .. }
        | SolverError::OutOfRange { field, .. }
        | SolverError::MasslessDynamic { field, .. }
        | SolverError::UnknownBody { field, .. }
        | SolverError::SameBody { field, .. }
        | SolverError::UnknownShape { field, .. }
        | SolverError::UnknownJoint { field, .. }
        | SolverError::WrongJointKind { field, .. } => field.clone(),
        SolverError::Geometry(g) => g.to_string(),
    }
}

/// Three bodies, the third removed: (set, a, b, stale handle).
fn bodies() -> (BodySet, BodyHandle, BodyHandle, BodyHandle) {
    let mut set = BodySet::new();
    let a = set
        .insert(disc(0.1, 1.0, Point::origin(), Vector::zeros()))
        .unwrap();
    let b = set
        .insert(disc(0.1, 1.0, Point::new(1.0, 0.0), Vector::zeros()))
        .unwrap();
    let gone = set
        .insert(disc(0.1, 1.0, Point::new(2.0, 0.0), Vector::zeros()))
        .unwrap();
    set.remove(gone).unwrap();
    (set, a, b, gone)
}

/// A value that is not finite, or finite and below zero by a random amount.
fn bad_non_negative() -> impl Strategy<Value = Real> {
    prop_oneof![
        Just(Real::NAN),
        Just(Real::INFINITY),
        Just(Real::NEG_INFINITY),
        (1e-9..1e6_f64).prop_map(|x| -x),
    ]
}

/// A corruption of a valid definition, and the field its error must name.
fn corrupt(
    def: &mut JointDef,
    which: usize,
    bad: Real,
    handles: (BodyHandle, BodyHandle),
) -> String {
    let nan = if bad.is_nan() { bad } else { Real::NAN };
    let negative = if bad.is_finite() { bad } else { -1.0 };
    match which {
        0 => {
            def.local_anchor_a.x = nan;
            return "joint.local_anchor_a.x".into();
        }
        1 => {
            def.local_anchor_b.y = nan;
            return "joint.local_anchor_b.y".into();
        }
        2 => {
            def.reference_angle = Real::INFINITY;
            return "joint.reference_angle".into();
        }
        3 => {
            def.break_force = negative;
            return "joint.break_force".into();
        }
        4 => {
            def.body_b = def.body_a;
            return "joint".into();
        }
        5 => {
            def.body_a = handles.1;
            return "joint.body_a".into();
        }
        6 => {
            def.body_b = handles.1;
            return "joint.body_b".into();
        }
        _ => {}
    }
    let (kind, field) = match which {
        7 => (
            RevoluteJoint::default().limits(1.0, 1.0 + negative).into(),
            "joint.revolute.angle.lower",
        ),
        8 => (
            RevoluteJoint::default().spring(bad, 0.5).into(),
            "joint.revolute.spring_hertz",
        ),
        9 => (
            RevoluteJoint::default().motor(1.0, bad).into(),
            "joint.revolute.max_motor_torque",
        ),
        10 => (
            PrismaticJoint::along(Vector::zeros()).into(),
            "joint.prismatic.local_axis_a.length",
        ),
        11 => (
            PrismaticJoint::along(Vector::new(nan, 1.0)).into(),
            "joint.prismatic.local_axis_a.x",
        ),
        12 => (
            PrismaticJoint::default().limits(0.5, 0.5 + negative).into(),
            "joint.prismatic.translation.lower",
        ),
        13 => (
            WheelJoint::along(Vector::zeros()).into(),
            "joint.wheel.local_axis_a.length",
        ),
        14 => (
            WheelJoint::default().spring(bad, 0.7).into(),
            "joint.wheel.spring_hertz",
        ),
        15 => (DistanceJoint::rod(negative).into(), "joint.distance.length"),
        16 => (
            DistanceJoint::rod(1.0).limits(1.0, 1.0 + negative).into(),
            "joint.distance.max_length",
        ),
        17 => (
            DistanceJoint::spring(1.0, bad, 0.1).into(),
            "joint.distance.spring_hertz",
        ),
        18 => (
            WeldJoint::soft((bad, 0.1), (0.0, 0.0)).into(),
            "joint.weld.linear_hertz",
        ),
        19 => (
            MotorJoint {
                correction_factor: 1.0 - negative,
                ..MotorJoint::default()
            }
            .into(),
            "joint.motor.correction_factor",
        ),
        20 => (
            MotorJoint {
                max_force: bad,
                ..MotorJoint::default()
            }
            .into(),
            "joint.motor.max_force",
        ),
        21 => (
            MouseJoint {
                hertz: negative,
                ..MouseJoint::default()
            }
            .into(),
            "joint.mouse.hertz",
        ),
        _ => (
            MouseJoint::toward(Point::new(nan, 0.0), 10.0).into(),
            "joint.mouse.target.x",
        ),
    };
    def.kind = kind;
    field.into()
}

/// A valid kind, picked by `pick`.
fn valid_kind(pick: usize) -> JointKind {
    match pick % 7 {
        0 => RevoluteJoint::default()
            .limits(-1.0, 1.0)
            .motor(1.0, 5.0)
            .into(),
        1 => PrismaticJoint::along(Vector::new(1.0, 2.0))
            .limits(-1.0, 1.0)
            .into(),
        2 => WeldJoint::default().into(),
        3 => DistanceJoint::rope(2.0).into(),
        4 => WheelJoint::default().into(),
        5 => MotorJoint::default().into(),
        _ => MouseJoint::toward(Point::new(1.0, 1.0), 10.0).into(),
    }
}

proptest! {
    #[test]
    fn every_bad_field_is_named_and_the_set_is_unchanged(
        which in 0usize..23,
        bad in bad_non_negative(),
        pick in 0usize..7,
        existing in 0usize..3,
    ) {
        let (bodies, a, b, gone) = bodies();
        let mut joints = JointSet::new();
        for i in 0..existing {
            joints.insert(&bodies, JointDef::new(a, b, valid_kind(pick + i))).unwrap();
        }
        if existing > 1 {
            let first = joints.iter().next().unwrap().0;
            joints.remove(first).unwrap();
        }
        let before = joints.clone();
        let mut def = JointDef::new(a, b, valid_kind(pick));
        prop_assert!(def.validate(&bodies).is_ok());
        let field = corrupt(&mut def, which, bad, (a, gone));
        let err = joints.insert(&bodies, def).unwrap_err();
        prop_assert_eq!(field_of(&err), field, "{}", err);
        prop_assert_eq!(&joints, &before);
        // The next valid insert takes the handle it would have taken.
        let mut reference = before.clone();
        let def = JointDef::new(a, b, valid_kind(pick));
        prop_assert_eq!(joints.insert(&bodies, def.clone()).unwrap(), reference.insert(&bodies, def).unwrap());
    }

    #[test]
    fn a_refused_change_leaves_the_joint_unchanged(which in 7usize..23, bad in bad_non_negative(), pick in 0usize..7) {
        let (bodies, a, b, gone) = bodies();
        let mut joints = JointSet::new();
        let handle = joints.insert(&bodies, JointDef::new(a, b, valid_kind(pick))).unwrap();
        let before = joints.clone();
        let mut def = JointDef::new(a, b, valid_kind(pick));
        let field = corrupt(&mut def, which, bad, (a, gone));
        let err = joints.get_mut(handle).unwrap().set_kind(def.kind.clone()).unwrap_err();
        prop_assert_eq!(field_of(&err), field.clone());
        let err = joints.get_mut(handle).unwrap().modify(|k| *k = def.kind.clone()).unwrap_err();
        prop_assert_eq!(field_of(&err), field);
        prop_assert_eq!(&joints, &before);
    }
}

#[test]
fn a_mouse_target_is_set_only_on_a_mouse_joint() {
    let (bodies, a, b, _) = bodies();
    let mut joints = JointSet::new();
    let hinge = joints
        .insert(
            &bodies,
            JointDef::new(a, b, RevoluteJoint::default().into()),
        )
        .unwrap();
    let mouse = joints
        .insert(&bodies, JointDef::new(a, b, MouseJoint::default().into()))
        .unwrap();
    let err = joints
        .get_mut(hinge)
        .unwrap()
        .set_mouse_target(Point::origin())
        .unwrap_err();
    assert_eq!(
        err,
        SolverError::WrongJointKind {
            field: "joint.mouse.target".into(),
            kind: "revolute"
        }
    );
    let err = joints
        .get_mut(mouse)
        .unwrap()
        .set_mouse_target(Point::new(Real::NAN, 0.0))
        .unwrap_err();
    assert_eq!(field_of(&err), "joint.mouse.target.x");
    joints
        .get_mut(mouse)
        .unwrap()
        .set_mouse_target(Point::new(3.0, 4.0))
        .unwrap();
    assert!(
        matches!(joints.get(mouse).unwrap().kind(), JointKind::Mouse(m) if m.target == Point::new(3.0, 4.0))
    );
}

#[test]
fn stale_joint_handles_name_no_joint() {
    let (bodies, a, b, _) = bodies();
    let mut joints = JointSet::new();
    let h = joints
        .insert(&bodies, JointDef::new(a, b, WeldJoint::default().into()))
        .unwrap();
    assert!(joints.remove(h).is_some());
    assert!(joints.remove(h).is_none() && joints.get(h).is_none());
    let err = joints.try_get(h, "joint").unwrap_err();
    assert_eq!(
        err,
        SolverError::UnknownJoint {
            field: "joint".into(),
            handle: h
        }
    );
    let again = joints
        .insert(&bodies, JointDef::new(a, b, WeldJoint::default().into()))
        .unwrap();
    assert_eq!((again.index, again.generation), (h.index, h.generation + 1));
    assert!(joints.get(h).is_none());
}

#[test]
fn an_axis_is_stored_as_a_unit_vector() {
    let (bodies, a, b, _) = bodies();
    let mut joints = JointSet::new();
    let h = joints
        .insert(
            &bodies,
            JointDef::new(a, b, PrismaticJoint::along(Vector::new(3.0, 4.0)).into()),
        )
        .unwrap();
    let JointKind::Prismatic(p) = joints.get(h).unwrap().kind() else {
        panic!()
    };
    assert!((p.local_axis_a - Vector::new(0.6, 0.8)).norm() < 1e-15);
}
