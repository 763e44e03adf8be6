//! Scenes round-trip: through a file (`to_json`, `from_json`), through a world
//! (`build`, `from_world`), and through a world snapshot (`snapshot`, `restore`), bit for bit.

use impact_geometry::{
    Capsule, Circle, ConvexPolygon, Isometry, MassProperties, Point, Real, Rotation, Segment,
    Vector,
};
use impact_narrowphase::ToiOptions;
use impact_scene::{BroadphaseChoice, Scene, SceneJoint, StepperChoice, StepperKind, restore};
use impact_solver::{
    BodyType, CollisionFilter, DistanceJoint, PrismaticJoint, RevoluteJoint, RigidBodyDef,
    ShapeDef, WeldJoint,
};
use impact_stepper::{Domain, FirstTimeOfImpactSettings, MotionClampingSettings, WorldSettings};
use impact_testkit::SplitMix64 as Rng;

/// A scene using every field the format has, with awkward values: angles that `atan2`
/// does not give back exactly, a composed rotation, `-0.0`, the largest user data.
fn everything() -> Scene {
    let mut rng = Rng(7);
    let mut bodies = vec![
        RigidBodyDef::fixed(
            Segment::new(Point::new(-5.0, 0.0), Point::new(5.0, 0.0))
                .unwrap()
                .into(),
        )
        .friction(0.3),
        RigidBodyDef::fixed(ConvexPolygon::rectangle(0.5, 2.0).unwrap().into())
            .pose(Isometry::new(Vector::new(6.0, 2.0), 0.1)),
        RigidBodyDef::kinematic(
            Capsule::new(Point::new(0.0, 0.0), Point::new(1.0, 0.5), 0.2)
                .unwrap()
                .into(),
        )
        .pose(Isometry::new(Vector::new(-3.0, 4.0), -2.5))
        .linvel(Vector::new(-0.0, 1.0))
        .angvel(0.7),
        RigidBodyDef::new(
            ConvexPolygon::new(&[
                Point::new(0.0, 0.0),
                Point::new(1.0, 0.0),
                Point::new(1.2, 0.7),
                Point::new(0.1, 1.0),
            ])
            .unwrap()
            .into(),
        )
        .mass_properties(MassProperties {
            mass: 3.0,
            local_center: Point::new(0.5, 0.4),
            inertia: 0.8,
        })
        .density(2.5)
        .damping(0.1, 0.2)
        .restitution(0.9)
        .user_data(u128::MAX)
        .filter(CollisionFilter::new(u64::MAX, 1 << 63).group(i32::MIN))
        .contact_force_threshold(12.5)
        .ccd(true),
        RigidBodyDef::new(
            ConvexPolygon::regular(5, 0.4)
                .unwrap()
                .with_radius(0.1)
                .unwrap()
                .into(),
        )
        .pose(Isometry::new(Vector::new(-6.0, 3.0), 0.3)),
        RigidBodyDef::fixed(Circle::new(3.0).unwrap().into())
            .pose(Isometry::translation(0.0, -20.0))
            .sensor(true)
            .filter(CollisionFilter::new(1, 0)),
        // Bodies of several shapes: an L whose shapes differ in every per-shape field, a
        // static body with a sensor shape beside a solid one, and a body of several shapes
        // with its mass set by hand (its centre of mass left at the shapes' centroid).
        RigidBodyDef::new(rectangle_at(0.0, 0.0, 3.0, 1.0))
            .pose(Isometry::new(Vector::new(8.0, 3.0), 0.3))
            .restitution(0.25)
            .with_shape(
                ShapeDef::new(rectangle_at(0.0, 1.0, 1.0, 3.0))
                    .density(2.5)
                    .friction(0.1)
                    .restitution(0.75)
                    .filter(CollisionFilter::new(4, 5).group(-3))
                    .contact_force_threshold(7.5),
            ),
        RigidBodyDef::fixed(
            Segment::new(Point::new(-1.0, 0.0), Point::new(1.0, 0.0))
                .unwrap()
                .into(),
        )
        .pose(Isometry::translation(-8.0, 0.0))
        .with_shape(
            ShapeDef::new(
                Circle::with_center(Point::new(0.0, 2.0), 1.5)
                    .unwrap()
                    .into(),
            )
            .sensor(true),
        )
        .with_shape(ShapeDef::new(
            Capsule::new(Point::new(2.0, 0.0), Point::new(2.0, 1.0), 0.25)
                .unwrap()
                .into(),
        )),
        RigidBodyDef::new(
            Circle::with_center(Point::new(-1.0, 0.0), 0.5)
                .unwrap()
                .into(),
        )
        .with_shape(ShapeDef::new(
            Circle::with_center(Point::new(1.0, 0.5), 0.25)
                .unwrap()
                .into(),
        ))
        .mass_properties(MassProperties {
            mass: 2.0,
            local_center: MassProperties::combine(&[
                MassProperties::from_shape(
                    &Circle::with_center(Point::new(-1.0, 0.0), 0.5)
                        .unwrap()
                        .into(),
                    1.0,
                )
                .unwrap(),
                MassProperties::from_shape(
                    &Circle::with_center(Point::new(1.0, 0.5), 0.25)
                        .unwrap()
                        .into(),
                    1.0,
                )
                .unwrap(),
            ])
            .local_center,
            inertia: 1.5,
        })
        .pose(Isometry::translation(12.0, 6.0)),
    ];
    for i in 0..40 {
        let angle = rng.range(-10.0, 10.0);
        let mut pose = Isometry::new(Vector::new(rng.range(-3.0, 3.0), 1.0 + i as Real), angle);
        if i % 10 == 0 {
            // What a stepper leaves: a composed rotation, not `Rotation::new` of any angle.
            pose.rotation = Rotation::new(angle) * Rotation::new(rng.range(-1.0, 1.0));
        }
        bodies.push(
            RigidBodyDef::new(
                Circle::with_center(Point::new(0.0, 0.1), 0.2)
                    .unwrap()
                    .into(),
            )
            .pose(pose)
            .linvel(Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)))
            .angvel(rng.range(-3.0, 3.0))
            .density(rng.range(0.5, 2.0))
            .user_data(i)
            .filter(match i % 4 {
                // Each field alone different from the default's, and all three.
                0 => CollisionFilter::DEFAULT,
                1 => CollisionFilter::new(1 << (i % 64), u64::MAX),
                2 => CollisionFilter::new(1, !(1 << (i % 64))),
                _ => CollisionFilter::new(2, 6).group(i as i32 - 20),
            }),
        );
    }
    let mut settings = WorldSettings::with_gravity(Vector::new(0.1, -9.81));
    settings.speculative_distance = 0.01;
    settings.solver.substeps = 6;
    settings.solver.warm_starting = false;
    settings.solver.joint_hertz = 45.0;
    settings.solver.joint_damping_ratio = 0.5;
    // Joints of four kinds between the ground and the falling discs (unit axes only, which
    // a world keeps as they are).
    let joints = vec![
        SceneJoint::at_world_anchor(
            &bodies,
            [0, 9],
            Point::new(0.5, 1.0),
            RevoluteJoint::default().limits(-1.0, 1.0).into(),
        )
        .unwrap(),
        SceneJoint::at_world_anchors(
            &bodies,
            [9, 10],
            (Point::new(0.0, 1.5), Point::new(0.5, 2.5)),
            DistanceJoint::rope(1.5).into(),
        )
        .unwrap(),
        SceneJoint::at_world_anchor(
            &bodies,
            [10, 11],
            Point::new(0.0, 3.0),
            WeldJoint::default().into(),
        )
        .unwrap(),
        SceneJoint::at_world_anchor(
            &bodies,
            [0, 12],
            Point::new(-1.0, 4.0),
            PrismaticJoint::along(Vector::x()).motor(1.0, 10.0).into(),
        )
        .unwrap(),
    ];
    Scene {
        name: "everything".to_owned(),
        settings,
        bodies,
        joints,
        stepper: StepperChoice::Toi(FirstTimeOfImpactSettings {
            max_events: 500,
            toi: ToiOptions::exact(),
            ..FirstTimeOfImpactSettings::event_driven()
        }),
        broadphase: BroadphaseChoice::SortAndSweep,
        dt: 1.0 / 120.0,
        steps: 240,
        ..Scene::default()
    }
}

/// The box `[x0, x1] x [y0, y1]` in the body frame.
fn rectangle_at(x0: Real, y0: Real, x1: Real, y1: Real) -> impact_geometry::Shape {
    ConvexPolygon::new(&[
        Point::new(x0, y0),
        Point::new(x1, y0),
        Point::new(x1, y1),
        Point::new(x0, y1),
    ])
    .unwrap()
    .into()
}

/// How many joints a scene file lists.
fn file_joints(json: &str) -> usize {
    let file: serde_json::Value = serde_json::from_str(json).unwrap();
    file["joints"].as_array().map_or(0, Vec::len)
}

/// Equal, and equal to the bit: `Debug` prints `-0.0` and every digit of a float.
fn assert_same(a: &Scene, b: &Scene) {
    assert_eq!(a, b);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

#[test]
fn a_scene_round_trips_through_its_file() {
    let scene = everything();
    let json = scene.to_json().unwrap();
    let back = Scene::from_json(&json).unwrap();
    assert_same(&back, &scene);
    // Written again, the file is the same.
    assert_eq!(back.to_json().unwrap(), json);
    assert!(
        json.contains("\"rotation\""),
        "composed rotations are written exactly"
    );
    assert!(json.contains("\"angle\""), "others as angles");
    assert_eq!(file_joints(&json), 4);
    // Bodies of one shape are written as they always were; the others list their shapes.
    let file: serde_json::Value = serde_json::from_str(&json).unwrap();
    let bodies = file["bodies"].as_array().unwrap();
    for (def, written) in scene.bodies.iter().zip(bodies) {
        let several = !def.shapes.is_empty();
        assert_eq!(written.get("shapes").is_some(), several, "{written}");
        assert_eq!(written.get("shape").is_some(), !several, "{written}");
    }
    assert!(bodies.iter().any(|b| b.get("shapes").is_some()));
    // The hand-set centre of mass at the shapes' centroid is left out.
    let by_hand = bodies
        .iter()
        .find(|b| b.get("shapes").is_some() && b.get("mass_properties").is_some())
        .unwrap();
    assert!(by_hand["mass_properties"].get("center").is_none());
}

#[test]
fn offsets_place_a_body_s_shapes_as_documented() {
    let text = r#"{"bodies": [{"pose": {"x": 5}, "shapes": [
        {"type": "rectangle", "half_width": 1.5, "half_height": 0.5, "offset": [1.5, 0.5, 0]},
        {"type": "rectangle", "half_width": 1, "half_height": 0.5, "offset": [0.5, 2, 1.5707963267948966],
         "density": 2, "material": {"friction": 0.1}, "sensor": true},
        {"type": "circle", "radius": 0.5, "center": [1, 0], "offset": [0, 1, 3.141592653589793]},
        {"type": "segment", "a": [0, 0], "b": [1, 0], "offset": [2, 0, 0],
         "filter": {"category_bits": 2}, "contact_force_threshold": 3}
    ]}]}"#;
    let scene = Scene::from_json(text).unwrap();
    let def = &scene.bodies[0];
    assert_eq!(def.shapes.len(), 3);
    // The first shape's fields are the def's own: the foot [0, 3] x [0, 1].
    let corners = |s: &impact_geometry::Shape| -> Vec<(Real, Real)> {
        let mut c: Vec<(Real, Real)> = s.core().iter().map(|p| (p.x, p.y)).collect();
        c.sort_by(|a, b| a.partial_cmp(b).unwrap());
        c
    };
    let near = |a: Vec<(Real, Real)>, b: &[(Real, Real)]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(p, q)| (p.0 - q.0).abs() < 1e-12 && (p.1 - q.1).abs() < 1e-12)
    };
    assert!(near(
        corners(&def.shape),
        &[(0.0, 0.0), (0.0, 1.0), (3.0, 0.0), (3.0, 1.0)]
    ));
    // The leg: a 2 x 1 box turned a quarter turn, centred at (0.5, 2): [0, 1] x [1, 3].
    let leg = &def.shapes[0];
    assert!(near(
        corners(&leg.shape),
        &[(0.0, 1.0), (0.0, 3.0), (1.0, 1.0), (1.0, 3.0)]
    ));
    assert_eq!((leg.density, leg.friction, leg.sensor), (2.0, 0.1, true));
    // The circle's centre (1, 0) turned half a turn, then moved up one: (-1, 1).
    assert!(near(corners(&def.shapes[1].shape), &[(-1.0, 1.0)]));
    let seg = &def.shapes[2];
    assert!(near(corners(&seg.shape), &[(2.0, 0.0), (3.0, 0.0)]));
    assert_eq!(seg.filter, CollisionFilter::new(2, u64::MAX));
    assert_eq!(seg.contact_force_threshold, Some(3.0));
    // Written back: the moved points, no offset; read again, the same scene.
    let json = scene.to_json().unwrap();
    assert!(!json.contains("offset") && json.contains("\"shapes\""));
    assert_same(&Scene::from_json(&json).unwrap(), &scene);
    // The world has one body of four shapes, the L's mass from both boxes.
    let world = scene.build().unwrap();
    let (_, body) = world.body_set().iter().next().unwrap();
    assert_eq!(body.shapes().len(), 4);
    assert!((body.mass() - (3.0 + 2.0 * 2.0 + core::f64::consts::PI * 0.25)).abs() < 1e-12);
}

#[test]
fn a_scene_round_trips_through_a_world_with_every_stepper_and_broadphase() {
    for kind in StepperKind::ALL {
        for broadphase in BroadphaseChoice::ALL {
            let scene = Scene {
                broadphase,
                ..everything().with_stepper(kind)
            };
            let world = scene.build().unwrap();
            assert_eq!(world.stepper_choice().kind(), kind);
            assert_eq!(world.broadphase_choice(), broadphase);
            let back = Scene {
                name: scene.name.clone(),
                dt: scene.dt,
                steps: scene.steps,
                ..Scene::from_world(&*world)
            };
            assert_same(&back, &scene);
        }
    }
}

#[test]
fn a_snapshot_restores_the_world_of_a_scene_and_continues_bit_for_bit() {
    for kind in StepperKind::ALL {
        let scene = everything().with_stepper(kind);
        let mut world = scene.build().unwrap();
        for _ in 0..20 {
            world.step(scene.dt).unwrap();
        }
        let mut restored = restore(&world.snapshot().unwrap()).unwrap();
        assert_eq!(restored.step_count(), 20);
        assert_eq!(restored.stepper_choice(), world.stepper_choice());
        for _ in 0..20 {
            world.step(scene.dt).unwrap();
            restored.step(scene.dt).unwrap();
        }
        assert_eq!(
            restored.body_set().state_hash(),
            world.body_set().state_hash(),
            "{kind}"
        );

        // Restored before any step, the snapshot gives back the scene.
        let fresh = restore(&scene.build().unwrap().snapshot().unwrap()).unwrap();
        let back = Scene {
            name: scene.name.clone(),
            dt: scene.dt,
            steps: scene.steps,
            ..Scene::from_world(&*fresh)
        };
        assert_same(&back, &scene);
    }
}

#[test]
fn a_world_captured_mid_run_restarts_from_the_same_state() {
    let scene = everything();
    let mut world = scene.build().unwrap();
    for _ in 0..30 {
        world.step(scene.dt).unwrap();
    }
    let captured = Scene::from_json(&Scene::from_world(&*world).to_json().unwrap()).unwrap();
    let rebuilt = captured.build().unwrap();
    // The same poses and velocities to the bit; the clock and warm starting start afresh.
    assert_eq!(
        rebuilt.body_set().state_hash(),
        world.body_set().state_hash()
    );
    assert_eq!(rebuilt.time(), 0.0);
}

#[test]
fn bad_snapshots_are_refused_with_the_field() {
    let world = everything().build().unwrap();
    let json = world.snapshot().unwrap();
    let err = restore(&json.replace("\"stepper\":\"toi\"", "\"stepper\":\"rk4\""))
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "stepper: must be one of \"discrete\", \"clamp\", \"toi\", got \"rk4\""
    );
    let err = restore(
        "{\"format\": \"x\", \"broadphase\": \"rtree\", \"stepper\": \"toi\", \"world\": 1}",
    )
    .map(|_| ())
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "format: must be \"impact-world-snapshot\", got \"x\""
    );
}

#[test]
fn defaults_and_shorthands_resolve_as_documented() {
    let scene = Scene::from_json("{}").unwrap();
    assert_eq!(scene, Scene::default());
    assert_eq!(scene.settings, WorldSettings::default());
    assert_eq!(
        scene.stepper,
        StepperChoice::Toi(FirstTimeOfImpactSettings::default())
    );

    // A duration is the steps that cover it; 1 s at 60 Hz is 60 steps despite rounding.
    assert_eq!(Scene::from_json(r#"{"duration": 1}"#).unwrap().steps, 60);
    assert_eq!(
        Scene::from_json(r#"{"duration": 1.001}"#).unwrap().steps,
        61
    );
    assert_eq!(Scene::from_json(r#"{"duration": 0}"#).unwrap().steps, 0);

    // A rectangle is a polygon; a mass sets the density.
    let scene = Scene::from_json(
        r#"{"bodies": [{"shape": {"type": "rectangle", "half_width": 2, "half_height": 0.5}, "mass": 8}]}"#,
    )
    .unwrap();
    let body = &scene.bodies[0];
    assert_eq!(
        body.shape,
        ConvexPolygon::rectangle(2.0, 0.5).unwrap().into()
    );
    assert_eq!(body.density, 2.0, "8 kg over 4 square metres");
    assert_eq!(body.body_type, BodyType::Dynamic);

    // A rounded polygon: its core and radius, written back as such; a sharp polygon has no
    // radius.
    let rounded = r#"{"bodies": [{"shape": {"type": "rounded_polygon", "vertices": [[-1, -1], [1, -1], [1, 1], [-1, 1]], "radius": 0.25}}]}"#;
    let scene = Scene::from_json(rounded).unwrap();
    let expected: impact_geometry::Shape = ConvexPolygon::rectangle(1.0, 1.0)
        .unwrap()
        .with_radius(0.25)
        .unwrap()
        .into();
    assert_eq!(scene.bodies[0].shape, expected);
    let json = scene.to_json().unwrap();
    assert!(
        json.contains("\"rounded_polygon\"") && json.contains("\"radius\": 0.25"),
        "{json}"
    );
    assert_eq!(Scene::from_json(&json).unwrap(), scene);

    // Switching steppers keeps the shared settings.
    let clamp = MotionClampingSettings {
        threshold_radii_per_step: 0.0,
        toi: ToiOptions::exact(),
    };
    let toi = StepperChoice::Clamp(clamp).with_kind(StepperKind::Toi);
    let StepperChoice::Toi(settings) = toi else {
        panic!("{toi:?}")
    };
    assert_eq!(settings.threshold_radii_per_step, 0.0);
    assert_eq!(settings.toi, ToiOptions::exact());
    assert_eq!(
        settings.max_events,
        FirstTimeOfImpactSettings::default().max_events
    );
    assert_eq!(
        toi.with_kind(StepperKind::Clamp),
        StepperChoice::Clamp(clamp)
    );
}

/// A periodic scene: its rectangle is written and read back, built into the world's settings
/// under every stepper and broadphase, and kept by `from_world`; the bodies stay in the
/// rectangle as they cross its sides.
#[test]
fn a_periodic_scene_round_trips_and_wraps_its_bodies() {
    let text = r#"{"domain": "periodic", "periodic": {"min": [-2, -1], "max": [6, 3]},
        "gravity": [0, 0], "steps": 30,
        "bodies": [
            {"shape": {"type": "circle", "radius": 0.25}, "pose": {"x": 5.5, "y": 0}, "linvel": [40, 7]},
            {"shape": {"type": "rectangle", "half_width": 0.5, "half_height": 0.25},
             "pose": {"x": -1.5, "y": 2.5}, "linvel": [-30, 25], "angvel": 3}
        ]}"#;
    let scene = Scene::from_json(text).unwrap();
    let domain = Domain::periodic(Point::new(-2.0, -1.0), Point::new(6.0, 3.0)).unwrap();
    assert_eq!(scene.settings.domain, domain);
    let json = scene.to_json().unwrap();
    assert!(json.contains("\"periodic\""));
    assert_same(&Scene::from_json(&json).unwrap(), &scene);
    for kind in StepperKind::ALL {
        for broadphase in BroadphaseChoice::ALL {
            let scene = Scene {
                broadphase,
                ..scene.clone().with_stepper(kind)
            };
            let mut world = scene.build().unwrap();
            assert_eq!(world.settings().domain, domain);
            for _ in 0..scene.steps {
                world.step(scene.dt).unwrap();
            }
            for (_, body) in world.body_set().iter() {
                let p = body.pose().translation.vector;
                assert!(
                    (-2.0..6.0).contains(&p.x) && (-1.0..3.0).contains(&p.y),
                    "{kind:?} {broadphase:?}: a body left the rectangle, at {p:?}"
                );
            }
            assert_eq!(Scene::from_world(&*world).settings.domain, domain);
        }
    }
}

/// Seeded fields of bodies of one to three shapes (random kinds, offsets, filters and
/// sensors: `impact_testkit::queries::compound_field`) round-trip through their file bit
/// for bit, and through a world.
#[test]
fn seeded_bodies_of_several_shapes_round_trip() {
    for seed in 0..20 {
        let field = impact_testkit::queries::compound_field(30, seed);
        let scene = Scene {
            name: field.name.clone(),
            settings: field.settings,
            bodies: field.bodies.clone(),
            ..Scene::default()
        };
        let json = scene.to_json().unwrap();
        let back = Scene::from_json(&json).unwrap();
        assert_same(&back, &scene);
        assert_eq!(back.to_json().unwrap(), json, "seed {seed}");
        let world = scene.build().unwrap();
        let captured = Scene {
            name: scene.name.clone(),
            ..Scene::from_world(&*world)
        };
        assert_same(&captured, &scene);
    }
}
