//! Joints in scene files: every kind read, written and read back bit for bit (a table of
//! awkward ones, and seeded random ones), built into a world with the anchors the file
//! gives, captured back, snapshotted, and every bad entry refused with the path of its field.

use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Rotation, Vector};
use impact_scene::{BroadphaseChoice, Scene, SceneJoint, StepperKind, restore};
use impact_solver::{
    DistanceJoint, JointKind, MotorJoint, MouseJoint, PrismaticJoint, RevoluteJoint, RigidBodyDef,
    WeldJoint, WheelJoint,
};
use impact_testkit::SplitMix64 as Rng;

/// Equal, and equal to the bit: `Debug` prints `-0.0` and every digit of a float.
fn assert_same(a: &Scene, b: &Scene) {
    assert_eq!(a, b);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

/// Writes `scene`, reads it back, and checks both the scene and the file come back the same.
fn round_trip(scene: &Scene) -> String {
    let json = scene.to_json().unwrap();
    let back = Scene::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_same(&back, scene);
    assert_eq!(back.to_json().unwrap(), json);
    json
}

/// Bodies at awkward poses: a static ground, boxes turned by angles `atan2` does not give
/// back exactly, one by a composed rotation.
fn bodies() -> Vec<RigidBodyDef> {
    let boxed = |hw: Real, hh: Real| ConvexPolygon::rectangle(hw, hh).unwrap().into();
    let mut composed = Isometry::new(Vector::new(-1.5, 2.25), 0.0);
    composed.rotation = Rotation::new(0.7) * Rotation::new(-2.1);
    vec![
        RigidBodyDef::fixed(boxed(5.0, 0.5)).pose(Isometry::translation(0.0, -0.5)),
        RigidBodyDef::new(boxed(0.5, 0.1)).pose(Isometry::new(Vector::new(1.0, 2.0), 0.1)),
        RigidBodyDef::new(Circle::new(0.25).unwrap().into())
            .pose(Isometry::new(Vector::new(2.3, 1.7), -2.5)),
        RigidBodyDef::new(boxed(0.2, 0.6)).pose(composed),
        RigidBodyDef::kinematic(boxed(0.3, 0.3)).pose(Isometry::new(Vector::new(-3.0, 1.0), 1.0)),
    ]
}

/// A joint of every kind, each with settings off their defaults, placed every way a file
/// can place one.
fn every_kind() -> Scene {
    let bodies = bodies();
    let at = |pair, p: Point, kind: JointKind| {
        SceneJoint::at_world_anchor(&bodies, pair, p, kind).unwrap()
    };
    let revolute = RevoluteJoint::default()
        .limits(-0.5, 0.75)
        .motor(-0.0, 3.5)
        .spring(2.0, 0.3);
    let mut joints = vec![
        at([0, 1], Point::new(0.6, 1.9), revolute.into()),
        at(
            [1, 2],
            Point::new(1.3, 2.01),
            PrismaticJoint::along(Vector::new(1.0, 0.5))
                .limits(-0.25, 1.0)
                .motor(0.5, 20.0)
                .into(),
        ),
        at(
            [2, 3],
            Point::new(-0.1, 2.0),
            WeldJoint::soft((4.0, 0.7), (0.0, 1.5)).into(),
        ),
        SceneJoint::at_world_anchors(
            &bodies,
            [3, 4],
            (Point::new(-1.5, 2.5), Point::new(-3.0, 1.2)),
            DistanceJoint::rope(2.5).motor(1.0, 2.0).into(),
        )
        .unwrap(),
        at(
            [4, 2],
            Point::new(2.3, 1.7),
            WheelJoint::along(Vector::new(0.0, 1.0))
                .spring(3.0, 0.1)
                .limits(-0.1, 0.1)
                .motor(-1.0, 5.0)
                .into(),
        ),
        at(
            [0, 3],
            Point::new(-1.5, 2.25),
            MotorJoint {
                linear_offset: Vector::new(0.5, -0.25),
                angular_offset: 0.3,
                max_force: 50.0,
                max_torque: 0.0,
                correction_factor: 1.0,
            }
            .into(),
        ),
        at(
            [0, 2],
            Point::new(2.4, 1.8),
            MouseJoint::toward(Point::new(3.0, 3.0), 250.0).into(),
        ),
    ];
    // Body-frame anchors no world point gives back, a reference angle of its own, and every
    // flag off its default.
    let mut odd = SceneJoint::new(
        [1, 3],
        DistanceJoint::spring(0.75, 1.5, 0.25)
            .limits(0.5, 1.0)
            .into(),
    );
    odd.local_anchor_a = Point::new(0.1 + 0.2, -0.0);
    odd.local_anchor_b = Point::new(1e-300, 0.3);
    odd.reference_angle = -3.0;
    odd.collide_connected = true;
    odd.enabled = false;
    odd.break_force = Some(1e6);
    odd.break_torque = Some(0.5);
    joints.push(odd);
    // A wheel whose axis is given in A's frame and is not a unit vector.
    let mut wheel = SceneJoint::new([3, 1], WheelJoint::along(Vector::new(3.0, -4.0)).into());
    wheel.local_anchor_b = Point::new(0.5, 0.0);
    joints.push(wheel);
    Scene {
        name: "every kind of joint".to_owned(),
        bodies,
        joints,
        ..Scene::default()
    }
}

#[test]
fn every_kind_of_joint_round_trips_through_its_file() {
    let scene = every_kind();
    let json = round_trip(&scene);
    let file: serde_json::Value = serde_json::from_str(&json).unwrap();
    let joints = file["joints"].as_array().unwrap();
    let types: Vec<&str> = joints.iter().map(|j| j["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        [
            "revolute",
            "prismatic",
            "weld",
            "distance",
            "wheel",
            "motor",
            "mouse",
            "distance",
            "wheel"
        ]
    );
    // Placed in the world where that reads back exactly, in the bodies' frames otherwise.
    for (k, form) in [
        (0, "anchor"),
        (3, "anchors"),
        (7, "local_anchors"),
        (8, "local_anchors"),
    ] {
        assert!(joints[k].get(form).is_some(), "joint {k}: {}", joints[k]);
    }
    assert!(joints[0].get("reference_angle").is_none(), "as placed");
    assert_eq!(joints[7]["reference_angle"], -3.0);
    assert!(joints[1].get("axis").is_some() || joints[1].get("local_axis_a").is_some());
    // A wheel along its default axis (A's y) leaves it out, and a rod as long as its
    // anchors are apart its length.
    let disc = || RigidBodyDef::new(Circle::new(0.5).unwrap().into());
    let bodies = vec![disc(), disc().pose(Isometry::translation(3.0, 4.0))];
    let plain = Scene {
        joints: vec![
            SceneJoint::new([0, 1], WheelJoint::default().into()),
            SceneJoint::at_world_anchors(
                &bodies,
                [0, 1],
                (Point::new(0.0, 0.0), Point::new(3.0, 4.0)),
                DistanceJoint::rod(5.0).into(),
            )
            .unwrap(),
        ],
        bodies,
        ..Scene::default()
    };
    let json = round_trip(&plain);
    assert!(!json.contains("axis") && !json.contains("length"), "{json}");
}

#[test]
fn a_file_of_joints_resolves_as_documented() {
    let text = r#"{"bodies": [
        {"type": "static", "shape": {"type": "circle", "radius": 0.05}},
        {"shape": {"type": "rectangle", "half_width": 1, "half_height": 0.1}, "pose": {"x": 1, "angle": 1.5707963267948966}},
        {"shape": {"type": "circle", "radius": 0.1}, "pose": {"x": 4, "y": 3}}
    ], "joints": [
        {"type": "revolute", "bodies": [0, 1], "anchor": [1, 1], "enable_limit": true, "lower_angle": -0.5, "upper_angle": 0.5},
        {"type": "distance", "bodies": [1, 2], "anchors": [[1, 0], [4, 4]]},
        {"type": "prismatic", "bodies": [1, 2], "anchor": [4, 3], "axis": [0, 2]},
        {"type": "weld", "bodies": [0, 2], "local_anchors": [[0, 0], [0, 0]], "reference_angle": 0.25}
    ]}"#;
    let scene = Scene::from_json(text).unwrap();
    let near = |p: Point, x: Real, y: Real| (p.x - x).abs() < 1e-12 && (p.y - y).abs() < 1e-12;
    let [hinge, rod, slider, weld] = &scene.joints[..] else {
        panic!("{:?}", scene.joints)
    };
    // The hinge: (1, 1) is the origin of body 0's frame moved by (1, 1), and one unit
    // along body 1's x axis (turned a quarter turn: the world's y).
    assert!(near(hinge.local_anchor_a, 1.0, 1.0));
    assert!(
        near(hinge.local_anchor_b, 1.0, 0.0),
        "{:?}",
        hinge.local_anchor_b
    );
    assert!((hinge.reference_angle - core::f64::consts::FRAC_PI_2).abs() < 1e-15);
    assert_eq!(
        hinge.kind,
        RevoluteJoint::default().limits(-0.5, 0.5).into()
    );
    // The rod is as long as its anchors are apart: from (1, 0) to (4, 4), 5.
    let JointKind::Distance(d) = &rod.kind else {
        panic!()
    };
    assert_eq!(d.length, 5.0);
    // The slider's axis is the world's y, in body 1's frame (turned a quarter turn) its x,
    // as given (not normalised: the world does that).
    let JointKind::Prismatic(p) = &slider.kind else {
        panic!()
    };
    assert!(
        near(p.local_axis_a.into(), 2.0, 0.0),
        "{:?}",
        p.local_axis_a
    );
    assert_eq!(weld.reference_angle, 0.25);
    // Built: each joint's anchors meet where the file put them.
    let world = scene.build().unwrap();
    assert_eq!(world.joints().len(), 4);
    let bodies: Vec<_> = world.body_set().iter().map(|(_, b)| *b.pose()).collect();
    for (k, (_, joint)) in world.joints().iter().enumerate() {
        let def = joint.def();
        let a = bodies[def.body_a.index as usize] * def.local_anchor_a;
        let b = bodies[def.body_b.index as usize] * def.local_anchor_b;
        let expected = scene.joints[k].world_anchors(&scene.bodies).unwrap();
        assert!(near(a, expected[0].x, expected[0].y), "joint {k}");
        assert!(near(b, expected[1].x, expected[1].y), "joint {k}");
    }
    let anchors = scene.joints[0].world_anchors(&scene.bodies).unwrap();
    assert!(near(anchors[0], 1.0, 1.0) && near(anchors[1], 1.0, 1.0));
}

/// The scene with every prismatic and wheel axis normalised, as a world keeps them.
fn with_unit_axes(mut scene: Scene) -> Scene {
    for j in &mut scene.joints {
        match &mut j.kind {
            JointKind::Prismatic(p) => p.local_axis_a = p.local_axis_a.normalize(),
            JointKind::Wheel(w) => w.local_axis_a = w.local_axis_a.normalize(),
            _ => {}
        }
    }
    scene
}

#[test]
fn joints_round_trip_through_a_world_with_every_stepper_and_broadphase() {
    for kind in StepperKind::ALL {
        for broadphase in BroadphaseChoice::ALL {
            let scene = Scene {
                broadphase,
                ..every_kind().with_stepper(kind)
            };
            let world = scene.build().unwrap();
            assert_eq!(world.joints().len(), scene.joints.len());
            let back = Scene {
                name: scene.name.clone(),
                ..Scene::from_world(&*world)
            };
            assert_same(&back, &with_unit_axes(scene));
        }
    }
}

#[test]
fn a_snapshot_of_a_jointed_world_continues_bit_for_bit() {
    let scene = every_kind();
    let mut world = scene.build().unwrap();
    for _ in 0..15 {
        world.step(scene.dt).unwrap();
    }
    let mut restored = restore(&world.snapshot().unwrap()).unwrap();
    assert_eq!(restored.joints(), world.joints());
    for _ in 0..15 {
        world.step(scene.dt).unwrap();
        restored.step(scene.dt).unwrap();
    }
    assert_eq!(
        restored.body_set().state_hash(),
        world.body_set().state_hash()
    );
    assert_eq!(restored.joints(), world.joints());
}

#[test]
fn a_pendulum_from_a_file_swings_on_its_rod() {
    let text = r#"{"gravity": [0, -10], "steps": 120, "bodies": [
        {"type": "static", "shape": {"type": "circle", "radius": 0.05}},
        {"shape": {"type": "circle", "radius": 0.1}, "pose": {"x": 2}}
    ], "joints": [{"type": "revolute", "bodies": [0, 1], "anchor": [0, 0]}]}"#;
    let scene = Scene::from_json(text).unwrap();
    let mut world = scene.build().unwrap();
    let mut lowest: Real = 0.0;
    for _ in 0..scene.steps {
        world.step(scene.dt).unwrap();
        let (_, bob) = world.body_set().iter().nth(1).unwrap();
        let p = bob.pose().translation.vector;
        assert!((p.norm() - 2.0).abs() < 0.02, "the rod stretched: {p:?}");
        lowest = lowest.min(p.y);
    }
    assert!(lowest < -1.9, "it swung down: {lowest}");
}

/// A random joint kind with random settings, each field at its default half the time.
fn random_kind(rng: &mut Rng) -> JointKind {
    let mut maybe = |default: Real, lo: Real, hi: Real| {
        if rng.below(2) == 0 {
            default
        } else {
            rng.range(lo, hi)
        }
    };
    let (lower, upper) = (maybe(0.0, -2.0, -0.1), maybe(0.0, 0.0, 2.0));
    let (speed, max) = (maybe(0.0, -5.0, 5.0), maybe(0.0, 0.0, 100.0));
    let (hertz, ratio) = (maybe(0.0, 0.0, 10.0), maybe(0.0, 0.0, 2.0));
    let axis = Vector::new(maybe(1.0, -2.0, 2.0), maybe(0.0, 0.5, 2.0));
    let flags = [(); 3].map(|()| rng.below(2) == 0);
    match rng.below(7) {
        0 => RevoluteJoint {
            enable_limit: flags[0],
            lower_angle: lower,
            upper_angle: upper,
            enable_motor: flags[1],
            motor_speed: speed,
            max_motor_torque: max,
            enable_spring: flags[2],
            spring_hertz: hertz,
            spring_damping_ratio: ratio,
        }
        .into(),
        1 => PrismaticJoint {
            local_axis_a: axis,
            enable_limit: flags[0],
            lower_translation: lower,
            upper_translation: upper,
            enable_motor: flags[1],
            motor_speed: speed,
            max_motor_force: max,
            enable_spring: flags[2],
            spring_hertz: hertz,
            spring_damping_ratio: ratio,
        }
        .into(),
        2 => WeldJoint::soft((hertz, ratio), (max, upper)).into(),
        3 => DistanceJoint {
            length: 0.5 + upper,
            enable_spring: flags[0],
            spring_hertz: hertz,
            spring_damping_ratio: ratio,
            enable_limit: flags[1],
            min_length: -lower,
            max_length: if flags[2] { Real::MAX } else { 3.0 },
            enable_motor: flags[2],
            motor_speed: speed,
            max_motor_force: max,
        }
        .into(),
        4 => WheelJoint {
            local_axis_a: Vector::new(axis.y, axis.x),
            enable_spring: flags[0],
            spring_hertz: hertz,
            spring_damping_ratio: ratio,
            enable_limit: flags[1],
            lower_translation: lower,
            upper_translation: upper,
            enable_motor: flags[2],
            motor_speed: speed,
            max_motor_torque: max,
        }
        .into(),
        5 => MotorJoint {
            linear_offset: Vector::new(lower, speed),
            angular_offset: upper,
            max_force: max,
            max_torque: hertz,
            correction_factor: ratio / 2.0,
        }
        .into(),
        _ => MouseJoint {
            target: Point::new(speed, lower),
            hertz: 0.5 + hertz,
            damping_ratio: ratio,
            max_force: max,
        }
        .into(),
    }
}

/// A random scene: bodies at random poses (some composed rotations), and joints between
/// random pairs of them, placed at a random world point, two random world points, or random
/// body-frame anchors with a random reference angle, with random flags and thresholds.
fn random_scene(seed: u64) -> Scene {
    let mut rng = Rng(seed);
    let n = 2 + rng.below(5);
    let bodies: Vec<RigidBodyDef> = (0..n)
        .map(|i| {
            let mut pose = Isometry::new(
                Vector::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)),
                rng.range(-4.0, 4.0),
            );
            if rng.below(4) == 0 {
                pose.rotation *= Rotation::new(rng.range(-1.0, 1.0));
            }
            let shape = ConvexPolygon::rectangle(0.5, 0.25).unwrap().into();
            match i {
                0 => RigidBodyDef::fixed(shape),
                _ => RigidBodyDef::new(shape),
            }
            .pose(pose)
        })
        .collect();
    let joints = (0..1 + rng.below(6))
        .map(|_| {
            let a = rng.below(n);
            let b = (a + 1 + rng.below(n - 1)) % n;
            let mut point = || Point::new(rng.range(-6.0, 6.0), rng.range(-6.0, 6.0));
            let (pa, pb) = (point(), point());
            let kind = random_kind(&mut rng);
            let mut j = match rng.below(3) {
                0 => SceneJoint::at_world_anchor(&bodies, [a, b], pa, kind).unwrap(),
                1 => SceneJoint::at_world_anchors(&bodies, [a, b], (pa, pb), kind).unwrap(),
                _ => {
                    let mut j = SceneJoint::new([a, b], kind);
                    j.local_anchor_a = pa;
                    j.local_anchor_b = pb;
                    j.reference_angle = rng.range(-7.0, 7.0);
                    j
                }
            };
            j.collide_connected = rng.below(2) == 0;
            j.enabled = rng.below(4) > 0;
            j.break_force = (rng.below(3) == 0).then(|| rng.range(1.0, 1e4));
            j.break_torque = (rng.below(3) == 0).then(|| rng.range(1.0, 1e4));
            j
        })
        .collect();
    Scene {
        name: format!("random joints {seed}"),
        bodies,
        joints,
        ..Scene::default()
    }
}

#[test]
fn seeded_random_joints_round_trip_through_their_file_and_a_world() {
    let mut forms = [0; 3];
    for seed in 0..300 {
        let scene = random_scene(seed);
        scene
            .validate()
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let json = round_trip(&scene);
        // What the `scene_loader` fuzz target asserts: it loads, writes back, builds, steps.
        impact_testkit::fuzzing::check_scene_loader(json.as_bytes());
        for (k, form) in ["\"anchor\"", "\"anchors\"", "\"local_anchors\""]
            .iter()
            .enumerate()
        {
            forms[k] += json.matches(form).count();
        }
        let world = scene.build().unwrap();
        let back = Scene {
            name: scene.name.clone(),
            ..Scene::from_world(&*world)
        };
        assert_same(&back, &with_unit_axes(scene));
    }
    // Every form of placing a joint was written, many times over.
    assert!(forms.iter().all(|&n| n > 50), "{forms:?}");
}

/// Three bodies (a static one at the origin, two dynamic ones) and the joints `joints`
/// after a valid hinge, so the errors name `joints[1]`.
fn scene_with(joint: &str) -> String {
    format!(
        r#"{{"bodies": [
            {{"type": "static", "shape": {{"type": "circle", "radius": 0.05}}}},
            {{"shape": {{"type": "circle", "radius": 0.1}}, "pose": {{"x": 2}}}},
            {{"shape": {{"type": "rectangle", "half_width": 0.5, "half_height": 0.1}}, "pose": {{"x": 4, "y": 1}}}}
        ], "joints": [{{"type": "revolute", "bodies": [0, 1], "anchor": [0, 0]}}, {{{joint}}}]}}"#
    )
}

#[test]
fn every_bad_joint_is_refused_with_its_path_and_reason() {
    let hinge = r#""type": "revolute", "bodies": [0, 1], "anchor": [0, 0]"#;
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "no type",
            scene_with(r#""bodies": [0, 1], "anchor": [0, 0]"#),
            "joints[1].type: missing: one of \"revolute\", \"prismatic\", \"weld\", \"distance\", \"wheel\", \"motor\", \"mouse\"",
        ),
        (
            "unknown type",
            scene_with(r#""type": "hinge", "bodies": [0, 1], "anchor": [0, 0]"#),
            "joints[1].type: must be one of \"revolute\", \"prismatic\", \"weld\", \"distance\", \"wheel\", \"motor\", \"mouse\", got \"hinge\"",
        ),
        (
            "a field of another kind",
            scene_with(&format!(r#"{hinge}, "length": 2"#)),
            "joints[1].length: is not a field of a revolute joint (its own fields are enable_limit, lower_angle, upper_angle, enable_motor, motor_speed, max_motor_torque, enable_spring, spring_hertz, spring_damping_ratio)",
        ),
        (
            "no bodies",
            scene_with(r#""type": "weld", "anchor": [0, 0]"#),
            "joints[1].bodies: missing: the two bodies the joint holds, [a, b] (their indices in bodies)",
        ),
        (
            "a body out of range",
            scene_with(r#""type": "weld", "bodies": [0, 7], "anchor": [0, 0]"#),
            "joints[1].bodies[1]: there is no body 7 (the scene has 3 bodies)",
        ),
        (
            "a body jointed to itself",
            scene_with(r#""type": "weld", "bodies": [2, 2], "anchor": [0, 0]"#),
            "joints[1].bodies: must be two different bodies, got [2, 2]",
        ),
        (
            "no anchor",
            scene_with(r#""type": "weld", "bodies": [1, 2]"#),
            "joints[1].anchor: missing: where the joint holds: anchor [x, y] (one point of the world), anchors [[xa, ya], [xb, yb]] (one per body, in the world) or local_anchors (one per body, in its own frame)",
        ),
        (
            "two ways of placing it",
            scene_with(
                r#""type": "weld", "bodies": [1, 2], "anchor": [0, 0], "local_anchors": [[0, 0], [0, 0]]"#,
            ),
            "joints[1].local_anchors: give one of anchor, anchors and local_anchors, not both anchor and local_anchors",
        ),
        (
            "an anchor past the range of an f64 in a body's frame",
                r#"{"bodies": [{"type": "static", "shape": {"type": "circle", "radius": 1}, "pose": {"x": -1.5e308}},
                    {"shape": {"type": "circle", "radius": 1}}],
                    "joints": [{"type": "weld", "bodies": [0, 1], "anchor": [1.5e308, 0]}]}"#
                .to_owned(),
            "joints[0].anchor: is so far from body A that its position in the body's frame overflows",
        ),
        (
            "NaN in an anchor",
            scene_with(r#""type": "weld", "bodies": [1, 2], "anchor": ["NaN", 0]"#),
            "joints[1].anchor[0]: invalid type: string \"NaN\", expected f64 at line 5 column 131",
        ),
        (
            "inverted limits",
            scene_with(&format!(
                r#"{hinge}, "enable_limit": true, "lower_angle": 1, "upper_angle": -1"#
            )),
            "joints[1].lower_angle: must be at most upper_angle (-1), got 1",
        ),
        (
            "negative spring frequency",
            scene_with(&format!(
                r#"{hinge}, "enable_spring": true, "spring_hertz": -2"#
            )),
            "joints[1].spring_hertz: must be zero or positive, got -2",
        ),
        (
            "negative motor torque",
            scene_with(&format!(r#"{hinge}, "max_motor_torque": -1"#)),
            "joints[1].max_motor_torque: must be zero or positive, got -1",
        ),
        (
            "a weld's negative damping",
            scene_with(
                r#""type": "weld", "bodies": [1, 2], "anchor": [3, 0], "angular_damping_ratio": -0.5"#,
            ),
            "joints[1].angular_damping_ratio: must be zero or positive, got -0.5",
        ),
        (
            "a zero axis",
            scene_with(
                r#""type": "prismatic", "bodies": [1, 2], "anchor": [3, 0], "axis": [0, 0]"#,
            ),
            "joints[1].axis: must be a non-zero direction, got [0, 0]",
        ),
        (
            "both axes",
            scene_with(
                r#""type": "wheel", "bodies": [1, 2], "anchor": [3, 0], "axis": [0, 1], "local_axis_a": [0, 1]"#,
            ),
            "joints[1].local_axis_a: give axis (world frame) or local_axis_a (body A's frame), not both",
        ),
        (
            "a wheel's inverted travel",
            scene_with(
                r#""type": "wheel", "bodies": [1, 2], "anchor": [3, 0], "lower_translation": 0.5, "upper_translation": 0.25"#,
            ),
            "joints[1].lower_translation: must be at most upper_translation (0.25), got 0.5",
        ),
        (
            "a distance joint at one point with no length",
            scene_with(r#""type": "distance", "bodies": [1, 2], "anchor": [3, 0]"#),
            "joints[1].length: missing: the anchors are 0 apart, which is no length: give the length, or anchors [[xa, ya], [xb, yb]] that far apart",
        ),
        (
            "a distance joint of negative length",
            scene_with(
                r#""type": "distance", "bodies": [1, 2], "anchors": [[2, 0], [4, 1]], "length": -1"#,
            ),
            "joints[1].length: must be positive, got -1",
        ),
        (
            "a rope shorter than its least length",
            scene_with(
                r#""type": "distance", "bodies": [1, 2], "anchors": [[2, 0], [4, 1]], "min_length": 2, "max_length": 1"#,
            ),
            "joints[1].max_length: must be at least min_length (2), got 1",
        ),
        (
            "a break force of zero",
            scene_with(&format!(r#"{hinge}, "break_force": 0"#)),
            "joints[1].break_force: must be positive, got 0",
        ),
        (
            "a negative break torque",
            scene_with(&format!(r#"{hinge}, "break_torque": -5"#)),
            "joints[1].break_torque: must be positive, got -5",
        ),
        (
            "a motor joint's correction past 1",
            scene_with(
                r#""type": "motor", "bodies": [0, 2], "anchor": [4, 1], "correction_factor": 2"#,
            ),
            "joints[1].correction_factor: must be in [0, 1], got 2",
        ),
        (
            "a spring past the bound on joints' numbers",
            scene_with(&format!(r#"{hinge}, "enable_spring": true, "spring_hertz": 2e13"#)),
            "joints[1].spring_hertz: must be at most 1e12 in magnitude (MAX_JOINT_MAGNITUDE), got 20000000000000",
        ),
        (
            "an anchor past the bound on joints' numbers",
            scene_with(r#""type": "revolute", "bodies": [0, 1], "anchor": [3e12, 0]"#),
            "joints[1].anchor: puts the anchor at [3000000000000, 0] in its body's frame, past 1e12 (MAX_JOINT_MAGNITUDE)",
        ),
        (
            "a reference angle past the bound on joints' numbers",
            scene_with(&format!(r#"{hinge}, "reference_angle": -2e13"#)),
            "joints[1].reference_angle: must be at most 1e12 in magnitude (MAX_JOINT_MAGNITUDE), got -20000000000000",
        ),
        (
            "a mouse joint of no stiffness",
            scene_with(r#""type": "mouse", "bodies": [0, 2], "anchor": [4, 1], "hertz": 0"#),
            "joints[1].hertz: must be positive, got 0",
        ),
        (
            "a negative body index",
            scene_with(r#""type": "weld", "bodies": [-1, 2], "anchor": [0, 0]"#),
            "joints[1].bodies[0]: invalid value: integer `-1`, expected usize at line 5 column 110",
        ),
        (
            "an entry that is not an object",
            scene_with(r#""type": "weld"}, [0, 1], {"type": "weld""#),
            "joints[2]: invalid type: sequence, expected a JSON object at line 5 column 98",
        ),
        (
            "joints in a periodic domain",
            r#"{"domain": "periodic", "periodic": {"min": [-10, -10], "max": [10, 10]},
                "bodies": [{"shape": {"type": "circle", "radius": 0.5}},
                           {"shape": {"type": "circle", "radius": 0.5}, "pose": {"x": 2}}],
                "joints": [{"type": "weld", "bodies": [0, 1], "anchor": [1, 0]}]}"#
                .to_owned(),
            "joints: must be empty in a periodic domain (a joint's anchors have no one place there as its bodies wrap), got 1 joints",
        ),
    ];
    let mut wrong = Vec::new();
    for (what, text, expected) in &cases {
        let got = match Scene::from_json(text) {
            Ok(_) => "accepted".to_owned(),
            Err(e) => e.to_string(),
        };
        if got != *expected {
            wrong.push(format!("{what}:\n  expected {expected}\n  got      {got}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn an_unknown_joint_field_is_refused_with_its_path() {
    let err = Scene::from_json(&scene_with(
        r#""type": "weld", "bodies": [1, 2], "anchor": [0, 0], "stiffness": 3"#,
    ))
    .unwrap_err();
    assert_eq!(err.path(), "joints[1].stiffness");
    assert!(
        err.message()
            .starts_with("unknown field `stiffness`, expected one of `type`, `bodies`"),
        "{err}"
    );
}

#[test]
fn a_scene_a_program_built_with_bad_joints_is_refused_with_the_path() {
    let base = every_kind();
    type Change = Box<dyn Fn(&mut Scene)>;
    let cases: Vec<(Change, &str)> = vec![
        (
            Box::new(|s| s.joints[2].local_anchor_b.x = Real::NAN),
            "joints[2].local_anchors[1][0]: must be finite, got NaN",
        ),
        (
            Box::new(|s| s.joints[2].local_anchor_a.y = 5e12),
            "joints[2].local_anchors[0]: puts the anchor at [1.743203034081454, 5000000000000] in its body's frame, past 1e12 (MAX_JOINT_MAGNITUDE)",
        ),
        (
            Box::new(|s| s.joints[0].bodies = [0, 9]),
            "joints[0].bodies[1]: there is no body 9 (the scene has 5 bodies)",
        ),
        (
            Box::new(|s| s.joints[1].bodies = [3, 3]),
            "joints[1].bodies: must be two different bodies, got [3, 3]",
        ),
        (
            Box::new(|s| s.joints[4].reference_angle = Real::INFINITY),
            "joints[4].reference_angle: must be finite, got inf",
        ),
        (
            Box::new(|s| s.joints[1].kind = PrismaticJoint::along(Vector::zeros()).into()),
            "joints[1].local_axis_a: must be a non-zero direction, got [0, 0]",
        ),
        (
            Box::new(|s| {
                s.settings.domain = impact_stepper::Domain::periodic(
                    Point::new(-50.0, -50.0),
                    Point::new(50.0, 50.0),
                )
                .unwrap();
            }),
            "joints: must be empty in a periodic domain (a joint's anchors have no one place there as its bodies wrap), got 9 joints",
        ),
    ];
    for (change, expected) in cases {
        let mut scene = base.clone();
        change(&mut scene);
        assert_eq!(scene.validate().unwrap_err().to_string(), expected);
        assert_eq!(scene.to_json().unwrap_err().to_string(), expected);
        assert_eq!(scene.build().map(|_| ()).unwrap_err().to_string(), expected);
    }
}

#[test]
fn every_prefix_of_a_jointed_scene_is_refused_without_panicking() {
    let text = every_kind().to_json().unwrap();
    assert!(Scene::from_json(&text).is_ok());
    for end in (0..text.len()).filter(|&e| text.is_char_boundary(e)) {
        assert!(
            Scene::from_json(&text[..end]).is_err(),
            "prefix of {end} bytes"
        );
    }
}
