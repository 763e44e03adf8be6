mod common;
use common::DT;
use impact_broadphase::RTreeBroadphase;
use impact_stepper::scenes::{self, TunnelCounter};
use impact_stepper::{Discrete, MotionClamping, Stepper, World};

fn run<S: Stepper + Default>(n: usize, seed: u64, steps: usize) -> Vec<usize> {
    let scene = scenes::rain(n, seed);
    let (mut world, _) = scene.build::<RTreeBroadphase, S>().unwrap();
    let mut c = TunnelCounter::new(&scene);
    let mut out = vec![];
    for _ in 0..steps {
        world.step(DT).unwrap();
        c.observe_world(&world);
        out.push(c.tunnelled());
    }
    out
}

#[test]
fn explore() {
    for seed in 0..4 {
        let t = std::time::Instant::now();
        let d = run::<Discrete>(200, seed, 120);
        let td = t.elapsed();
        let t = std::time::Instant::now();
        let m = run::<MotionClamping>(200, seed, 120);
        let tm = t.elapsed();
        println!(
            "seed {seed}: discrete {:?} {td:?}\n  mc {:?} {tm:?}",
            d.iter().step_by(10).collect::<Vec<_>>(),
            m.iter().step_by(10).collect::<Vec<_>>()
        );
    }
}

#[test]
fn nan() {
    for seed in 2..3 {
        for which in 0..2 {
            let scene = scenes::rain(200, seed);
            let r = if which == 0 {
                let (mut w, _) = scene.build::<RTreeBroadphase, Discrete>().unwrap();
                (0..120)
                    .map(|i| w.step(DT).map_err(|e| (i, e)))
                    .find_map(|r| r.err())
            } else {
                let (mut w, _) = scene.build::<RTreeBroadphase, MotionClamping>().unwrap();
                (0..120)
                    .map(|i| w.step(DT).map_err(|e| (i, e)))
                    .find_map(|r| r.err())
            };
            println!("seed {seed} which {which}: {r:?}");
        }
    }
}

#[test]
fn nan_dig() {
    let scene = scenes::rain(200, 2);
    let (mut w, _) = scene.build::<RTreeBroadphase, MotionClamping>().unwrap();
    for i in 0..34 {
        let before: Vec<_> = w
            .bodies()
            .map(|(h, b)| (h, *b.pose(), b.linvel(), b.angvel()))
            .collect();
        let r = w.step(DT).unwrap();
        for (h, b) in w.bodies() {
            let t = b.pose().translation;
            if !(t.x.is_finite()
                && t.y.is_finite()
                && b.linvel().x.is_finite()
                && b.angvel().is_finite())
            {
                let old = before.iter().find(|x| x.0 == h).unwrap();
                println!(
                    "step {i}: body {h:?} now {:?} v {:?} w {}; before {:?}",
                    b.pose(),
                    b.linvel(),
                    b.angvel(),
                    old
                );
                println!(
                    "report {:?}",
                    r.stepper
                        .clamped
                        .iter()
                        .filter(|c| c.body == h)
                        .collect::<Vec<_>>()
                );
                println!(
                    "counts checked {} toi {} overlapping {} touching {}",
                    r.stepper.checked_bodies,
                    r.stepper.toi_queries,
                    r.stepper.overlapping,
                    r.stepper.touching
                );
            }
        }
    }
}

#[test]
fn blowup_dig() {
    let scene = scenes::rain(200, 2);
    let (mut w, _) = scene.build::<RTreeBroadphase, MotionClamping>().unwrap();
    let mut seen = 0;
    for i in 0..34 {
        let r = w.step(DT).unwrap();
        for (h, b) in w.bodies() {
            if b.linvel().norm() > 400.0 || b.angvel().abs() > 1e4 {
                let t = b.pose().translation;
                let cl = r.stepper.clamped.iter().find(|c| c.body == h);
                println!(
                    "step {i}: body {} at ({:.4},{:.4}) v ({:.1},{:.1}) w {:.1} clamped {:?}",
                    h.index,
                    t.x,
                    t.y,
                    b.linvel().x,
                    b.linvel().y,
                    b.angvel(),
                    cl.map(|c| c.fraction)
                );
                seen += 1;
            }
        }
        if seen > 40 {
            break;
        }
    }
}

fn maxspeed<S: Stepper + Default>(n: usize, seed: u64, steps: usize) -> String {
    let scene = scenes::rain(n, seed);
    let (mut w, _) = scene.build::<RTreeBroadphase, S>().unwrap();
    let mut out = String::new();
    for i in 0..steps {
        if let Err(e) = w.step(DT) {
            out += &format!(" ERR@{i}: {e}");
            break;
        }
        if i % 10 == 9 {
            let m = w
                .bodies()
                .map(|(_, b)| b.linvel().norm())
                .fold(0.0, f64::max);
            out += &format!(" {m:.0}");
        }
    }
    out
}

#[test]
fn speeds() {
    for n in [200, 1000] {
        for seed in 0..3 {
            println!(
                "n {n} seed {seed} D: {}",
                maxspeed::<Discrete>(n, seed, 120)
            );
            println!(
                "n {n} seed {seed} MC: {}",
                maxspeed::<MotionClamping>(n, seed, 120)
            );
        }
    }
}

#[test]
fn first_gain() {
    let scene = scenes::rain(200, 0);
    // overlap check
    let pts: Vec<_> = scene
        .bodies
        .iter()
        .filter(|d| d.body_type == impact_solver::BodyType::Dynamic)
        .map(|d| d.pose.translation.vector)
        .collect();
    let mut mind = f64::INFINITY;
    for i in 0..pts.len() {
        for j in 0..i {
            mind = mind.min((pts[i] - pts[j]).norm());
        }
    }
    println!("min centre distance {mind}");
    let (mut w, _) = scene.build::<RTreeBroadphase, Discrete>().unwrap();
    for i in 0..60 {
        let before: Vec<_> = w
            .bodies()
            .map(|(h, b)| (h, *b.pose(), b.linvel(), b.angvel()))
            .collect();
        let r = w.step(DT).unwrap();
        let mut hit = false;
        for (h, b) in w.bodies() {
            if b.linvel().norm() > 330.0 {
                let old = before.iter().find(|x| x.0 == h).unwrap();
                let t = b.pose().translation;
                println!(
                    "step {i}: body {} at ({:.4},{:.4}) v ({:.1},{:.1}) w {:.1}; before at ({:.4},{:.4}) v ({:.1},{:.1}) w {:.1}",
                    h.index,
                    t.x,
                    t.y,
                    b.linvel().x,
                    b.linvel().y,
                    b.angvel(),
                    old.1.translation.x,
                    old.1.translation.y,
                    old.2.x,
                    old.2.y,
                    old.3
                );
                hit = true;
            }
        }
        if hit {
            // print neighbours of gaining bodies before the step
            for (h, b) in w.bodies() {
                if b.linvel().norm() > 330.0 {
                    let old = before.iter().find(|x| x.0 == h).unwrap();
                    for o in &before {
                        if o.0 != h
                            && (o.1.translation.vector - old.1.translation.vector).norm() < 6.0
                            && o.2.norm() > 0.0
                        {
                            println!(
                                "   near: body {} at ({:.4},{:.4}) v ({:.1},{:.1})",
                                o.0.index, o.1.translation.x, o.1.translation.y, o.2.x, o.2.y
                            );
                        }
                    }
                }
            }
            println!("manifolds {} points {}", r.manifolds, r.contact_points);
            break;
        }
    }
}

#[test]
fn minimal() {
    use impact_geometry::{Circle, Isometry, Point, Segment, Vector};
    use impact_solver::RigidBodyDef;
    use impact_stepper::WorldSettings;
    for (x, y, vx, vy) in [
        (1.6246, 4.0652, 50.7, -274.0),
        (1.5, 4.0652, 0.0, -274.0),
        (1.25, 4.2, 0.0, -274.0),
        (1.25, 4.2, 0.0, -27.0),
    ] {
        let mut w = World::<RTreeBroadphase, Discrete>::new(WorldSettings::with_gravity(
            Vector::new(0.0, -10.0),
        ))
        .unwrap();
        let a = Point::new(0.7525, 4.0499);
        let b = Point::new(1.7475, 3.9501);
        w.create_body(
            RigidBodyDef::fixed(Segment::new(a, b).unwrap().into())
                .restitution(0.1)
                .friction(0.3),
        )
        .unwrap();
        let d = w
            .create_body(
                RigidBodyDef::new(Circle::new(0.05).unwrap().into())
                    .pose(Isometry::translation(x, y))
                    .linvel(Vector::new(vx, vy))
                    .restitution(0.1)
                    .friction(0.3)
                    .ccd(true),
            )
            .unwrap();
        print!("start ({x},{y}) v ({vx},{vy}):");
        for _ in 0..3 {
            let r = w.step(DT).unwrap();
            let b = w.body(d).unwrap();
            print!(
                " [({:.3},{:.3}) v ({:.1},{:.1}) w {:.1} m{}]",
                b.pose().translation.x,
                b.pose().translation.y,
                b.linvel().x,
                b.linvel().y,
                b.angvel(),
                r.manifolds
            );
        }
        println!();
    }
}

#[test]
fn minimal2() {
    use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Segment, Shape, Vector};
    use impact_solver::RigidBodyDef;
    use impact_stepper::WorldSettings;
    let seg_flat: Shape = Segment::new(Point::new(0.75, 4.0), Point::new(1.75, 4.0))
        .unwrap()
        .into();
    let seg_tilt: Shape = Segment::new(Point::new(0.7525, 4.0499), Point::new(1.7475, 3.9501))
        .unwrap()
        .into();
    let boxs: Shape = ConvexPolygon::rectangle(0.5, 0.5).unwrap().into();
    for (name, shape, pose) in [
        ("flat seg", seg_flat, Isometry::identity()),
        ("tilt seg", seg_tilt, Isometry::identity()),
        ("box", boxs, Isometry::translation(1.25, 3.5)),
    ] {
        for (x, y, vx, vy) in [
            (1.25, 4.2, 0.0, -274.0),
            (1.25, 4.2, 0.0, -27.0),
            (1.25, 4.2, 0.0, -5.0),
            (1.25, 4.08, 0.0, -2.0),
        ] {
            let mut w = World::<RTreeBroadphase, Discrete>::new(WorldSettings::with_gravity(
                Vector::new(0.0, -10.0),
            ))
            .unwrap();
            w.create_body(
                RigidBodyDef::fixed(shape.clone())
                    .pose(pose)
                    .restitution(0.1)
                    .friction(0.3),
            )
            .unwrap();
            let d = w
                .create_body(
                    RigidBodyDef::new(Circle::new(0.05).unwrap().into())
                        .pose(Isometry::translation(x, y))
                        .linvel(Vector::new(vx, vy))
                        .restitution(0.1)
                        .friction(0.3)
                        .ccd(true),
                )
                .unwrap();
            print!("{name} start ({x},{y}) v ({vx},{vy}):");
            for _ in 0..3 {
                let r = w.step(DT).unwrap();
                let b = w.body(d).unwrap();
                print!(
                    " [({:.3},{:.4}) v ({:.1},{:.1}) w {:.1} m{}]",
                    b.pose().translation.x,
                    b.pose().translation.y,
                    b.linvel().x,
                    b.linvel().y,
                    b.angvel(),
                    r.manifolds
                );
            }
            println!();
        }
    }
}

#[test]
fn manifold_tilt() {
    use impact_geometry::{Circle, Isometry, Point, Segment, Shape};
    let seg: Shape = Segment::new(Point::new(0.7525, 4.0499), Point::new(1.7475, 3.9501))
        .unwrap()
        .into();
    let c: Shape = Circle::new(0.05).unwrap().into();
    for y in [4.2, 4.1, 4.05, 4.0] {
        let m = impact_narrowphase::contact_manifold(
            &c,
            &Isometry::translation(1.25, y),
            &seg,
            &Isometry::identity(),
            5.0,
        );
        println!("y {y}: {m:?}");
        let m = impact_narrowphase::contact_manifold(
            &seg,
            &Isometry::identity(),
            &c,
            &Isometry::translation(1.25, y),
            5.0,
        );
        println!("  swapped {m:?}");
    }
}
