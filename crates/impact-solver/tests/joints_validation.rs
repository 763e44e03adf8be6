//! Invariant: a bad joint definition is refused with an error naming the field (NaN
//! anchors, inverted limits, negative frequencies, zero axes, the same body twice, stale
//! handles, a finite value past `MAX_JOINT_MAGNITUDE`, ...), and a refused insert or change
//! leaves the set and the joint unchanged.

mod common;

use common::disc;
use impact_geometry::{Point, Real, Vector};
use impact_solver::{
    BodyHandle, BodySet, DistanceJoint, JointDef, JointKind, JointSet, MAX_JOINT_MAGNITUDE,
    MotorJoint, MouseJoint, PrismaticJoint, RevoluteJoint, SolverError, WeldJoint, WheelJoint,
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

/// A definition with every number of one field set to `value`, and that field's path:
/// `which` picks the field among every finite number a joint holds (the break thresholds and
/// a distance joint's `max_length` aside, which may be infinite).
fn with_value(a: BodyHandle, b: BodyHandle, which: usize, value: Real) -> (JointDef, &'static str) {
    let def = |kind: JointKind| JointDef::new(a, b, kind);
    let revolute = RevoluteJoint::default();
    let prismatic = PrismaticJoint::default();
    let wheel = WheelJoint::default();
    let weld = WeldJoint::default();
    let distance = DistanceJoint::default();
    let motor = MotorJoint::default();
    let mouse = MouseJoint::toward(Point::origin(), 1.0);
    // Ordered limits: the upper one set with the lower one where the lower one is tested.
    let (lo, hi) = (-value.abs(), value.abs());
    match which % 30 {
        0 => (
            def(revolute.into()).local_anchors(Point::new(value, 0.0), Point::origin()),
            "joint.local_anchor_a.x",
        ),
        1 => (
            def(revolute.into()).local_anchors(Point::origin(), Point::new(0.0, value)),
            "joint.local_anchor_b.y",
        ),
        2 => (
            def(revolute.into()).reference_angle(value),
            "joint.reference_angle",
        ),
        3 => (
            def(revolute.limits(lo, 0.0).into()),
            "joint.revolute.lower_angle",
        ),
        4 => (
            def(revolute.motor(value, 1.0).into()),
            "joint.revolute.motor_speed",
        ),
        5 => (
            def(revolute.motor(1.0, value.abs()).into()),
            "joint.revolute.max_motor_torque",
        ),
        6 => (
            def(revolute.spring(value.abs(), 1.0).into()),
            "joint.revolute.spring_hertz",
        ),
        7 => (
            def(revolute.spring(1.0, value.abs()).into()),
            "joint.revolute.spring_damping_ratio",
        ),
        8 => (
            def(prismatic.clone().limits(0.0, hi).into()),
            "joint.prismatic.upper_translation",
        ),
        9 => (
            def(prismatic.clone().motor(1.0, value.abs()).into()),
            "joint.prismatic.max_motor_force",
        ),
        10 => (
            def(prismatic.spring(value.abs(), 1.0).into()),
            "joint.prismatic.spring_hertz",
        ),
        11 => {
            let mut w = weld.clone();
            w.linear_hertz = value.abs();
            (def(w.into()), "joint.weld.linear_hertz")
        }
        12 => {
            let mut w = weld;
            w.angular_damping_ratio = value.abs();
            (def(w.into()), "joint.weld.angular_damping_ratio")
        }
        13 => {
            let mut d = distance.clone();
            d.length = value.abs();
            (def(d.into()), "joint.distance.length")
        }
        14 => {
            let mut d = distance.clone();
            d.min_length = value.abs();
            (def(d.into()), "joint.distance.min_length")
        }
        15 => {
            let mut d = distance.clone();
            d.spring_hertz = value.abs();
            (def(d.into()), "joint.distance.spring_hertz")
        }
        16 => {
            let mut d = distance;
            d.motor_speed = value;
            (def(d.into()), "joint.distance.motor_speed")
        }
        17 => {
            let mut w = wheel.clone();
            (w.lower_translation, w.upper_translation) = (lo, 0.0);
            (def(w.into()), "joint.wheel.lower_translation")
        }
        18 => {
            let mut w = wheel.clone();
            w.spring_hertz = value.abs();
            (def(w.into()), "joint.wheel.spring_hertz")
        }
        19 => {
            let mut w = wheel;
            w.max_motor_torque = value.abs();
            (def(w.into()), "joint.wheel.max_motor_torque")
        }
        20 => {
            let mut m = motor.clone();
            m.linear_offset = Vector::new(0.0, value);
            (def(m.into()), "joint.motor.linear_offset.y")
        }
        21 => {
            let mut m = motor.clone();
            m.angular_offset = value;
            (def(m.into()), "joint.motor.angular_offset")
        }
        22 => {
            let mut m = motor.clone();
            m.max_force = value.abs();
            (def(m.into()), "joint.motor.max_force")
        }
        23 => {
            let mut m = motor;
            m.max_torque = value.abs();
            (def(m.into()), "joint.motor.max_torque")
        }
        24 => {
            let mut m = mouse.clone();
            m.target = Point::new(value, 0.0);
            (def(m.into()), "joint.mouse.target.x")
        }
        25 => {
            let mut m = mouse.clone();
            m.hertz = value.abs();
            (def(m.into()), "joint.mouse.hertz")
        }
        26 => {
            let mut m = mouse.clone();
            m.damping_ratio = value.abs();
            (def(m.into()), "joint.mouse.damping_ratio")
        }
        27 => {
            let mut m = mouse;
            m.max_force = value.abs();
            (def(m.into()), "joint.mouse.max_force")
        }
        28 => (
            def(RevoluteJoint::default().limits(0.0, hi).into()),
            "joint.revolute.upper_angle",
        ),
        _ => (
            def(PrismaticJoint::default().limits(lo, 0.0).into()),
            "joint.prismatic.lower_translation",
        ),
    }
}

/// The fields of [`with_value`] that are a most force or torque (a motor's, a motor joint's,
/// a mouse joint's): not bounded by `MAX_JOINT_MAGNITUDE`.
const MAXIMA: [usize; 6] = [5, 9, 19, 22, 23, 27];

/// A finite magnitude past the bound, spread over the exponents up to `f64`'s largest.
fn past_the_bound() -> impl Strategy<Value = Real> {
    prop_oneof![
        Just(Real::MAX),
        Just(-Real::MAX),
        Just(1e308),
        Just(1e200),
        (12.0..308.0_f64).prop_map(|e| 10.0_f64.powf(e) * 1.0000001),
        (12.0..308.0_f64).prop_map(|e| -(10.0_f64.powf(e) * 1.0000001)),
    ]
    .prop_filter("past the bound", |v: &Real| {
        v.abs() > MAX_JOINT_MAGNITUDE && v.is_finite()
    })
}

proptest! {
    /// Every finite number of a joint past `MAX_JOINT_MAGNITUDE` (an anchor of 1e200, a
    /// spring of 1e308 Hz, which overflow the rows at the first step) but a most force or
    /// torque is refused at creation with the field and the value; at the bound, and a
    /// thousandth of it, it is taken.
    #[test]
    fn a_value_past_the_bound_is_refused_with_its_field_and_value(
        which in 0usize..30,
        value in past_the_bound(),
    ) {
        let (bodies, a, b, _) = bodies();
        let mut joints = JointSet::new();
        let (def, field) = with_value(a, b, which, value);
        if MAXIMA.contains(&(which % 30)) {
            // The most force or torque bounds an accumulated impulse only: any finite value
            // is taken (Box2D's scenes give `FLT_MAX` for no bound).
            prop_assert!(joints.insert(&bodies, def).is_ok(), "{} at {}", field, value);
            return Ok(());
        }
        let err = joints.insert(&bodies, def).unwrap_err();
        prop_assert_eq!(field_of(&err), field, "{}", err);
        let SolverError::OutOfRange { value: named, .. } = err else {
            return Err(TestCaseError::fail(format!("not a range error: {err}")));
        };
        prop_assert!(named == value || named == value.abs() || named == -value.abs());
        prop_assert!(joints.is_empty());
        for within in [MAX_JOINT_MAGNITUDE, 1e-3 * MAX_JOINT_MAGNITUDE] {
            let (def, field) = with_value(a, b, which, within.copysign(value));
            prop_assert!(joints.insert(&bodies, def).is_ok(), "{} at {}", field, within);
        }
    }
}
