//! Scene queries on a small world: a floor, a wall, crates and a ball, a trigger zone
//! (sensor), then a laser (ray), a bullet that pierces what it meets (every hit, in order),
//! a box pushed along the floor (translating shape cast), a plank swung round (turning
//! cast), what lies under a cursor and nearest to it.
//!
//! `cargo run --example ray_and_shape_casts`

use impact2d::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world: World = World::new(WorldSettings::default())?;
    let mut name = std::collections::BTreeMap::new();
    let mut add =
        |world: &mut World, label: &str, def: RigidBodyDef| -> Result<BodyHandle, WorldError> {
            let handle = world.create_body(def)?;
            name.insert(handle, label.to_owned());
            Ok(handle)
        };
    add(
        &mut world,
        "floor",
        RigidBodyDef::fixed(ConvexPolygon::rectangle(20.0, 0.5)?.into())
            .pose(Isometry::translation(0.0, -0.5)),
    )?;
    add(
        &mut world,
        "wall",
        RigidBodyDef::fixed(Segment::new(Point::new(12.0, 0.0), Point::new(12.0, 6.0))?.into()),
    )?;
    for (i, x) in [3.0, 6.0].iter().enumerate() {
        add(
            &mut world,
            &format!("crate {}", i + 1),
            RigidBodyDef::new(ConvexPolygon::rectangle(0.5, 0.5)?.into())
                .pose(Isometry::translation(*x, 0.5)),
        )?;
    }
    add(
        &mut world,
        "ball",
        RigidBodyDef::new(Circle::new(0.4)?.into()).pose(Isometry::translation(9.0, 0.4)),
    )?;
    add(
        &mut world,
        "trigger zone",
        RigidBodyDef::fixed(ConvexPolygon::rectangle(1.0, 2.0)?.into())
            .pose(Isometry::translation(-4.0, 2.0))
            .sensor(true),
    )?;
    let label = |h: BodyHandle| name.get(&h).cloned().unwrap_or_default();
    let solid = QueryFilter::new();

    // A laser from the left at crate height: the trigger zone is a sensor, left out.
    let laser = Ray::new(Point::new(-10.0, 0.5), Vector::new(30.0, 0.0));
    if let Some(hit) = world.cast_ray(&laser, Interior::Solid, &solid)? {
        println!(
            "laser: hits the {} {:.2} units away at ({:.2}, {:.2}), surface facing ({}, {})",
            label(hit.body),
            hit.distance,
            hit.point.x,
            hit.point.y,
            hit.normal.x + 0.0,
            hit.normal.y + 0.0
        );
    }
    // The same ray sees the trigger zone when sensors are let in.
    let with_sensors = QueryFilter::new().include_sensors(true);
    let first = world.cast_ray(&laser, Interior::Solid, &with_sensors)?;
    println!(
        "laser, sensors included: first the {}",
        first.map(|h| label(h.body)).unwrap_or_default()
    );

    // A bullet that pierces two bodies and stops in the third (Box2D's cast with a result
    // function: the callback's answer clips or stops the ray).
    let mut pierced = Vec::new();
    world.cast_ray_with(&laser, Interior::Solid, &solid, &mut |hit| {
        pierced.push(label(hit.body));
        if pierced.len() == 3 { 0.0 } else { 1.0 }
    })?;
    println!(
        "bullet: through {} and {}, stopped in the {}",
        pierced[0], pierced[1], pierced[2]
    );

    // A box pushed 10 units right along the floor, just above it: where does it stop?
    let pushed: Shape = ConvexPolygon::rectangle(0.5, 0.5)?.into();
    let start = Isometry::translation(-1.0, 0.51);
    let push = Vector::new(10.0, 0.0);
    if let Some(hit) =
        world.cast_shape(&pushed, &start, &push, &ShapeCastOptions::default(), &solid)?
    {
        println!(
            "pushed box: stops after {:.2} of its 10 units, against the {} at x = {:.2}",
            hit.fraction * 10.0,
            label(hit.body),
            hit.point.x
        );
    }

    // A 3-unit plank swung half a turn about its middle at (7.5, 2): the first body it
    // meets, found by conservative advancement.
    let plank: Shape = ConvexPolygon::rectangle(1.5, 0.05)?.into();
    let swing = Sweep::new(
        Isometry::translation(7.5, 2.0),
        Point::origin(),
        Vector::zeros(),
        std::f64::consts::PI,
        1.0,
    )?;
    if let Some(hit) = world.cast_sweep(&plank, &swing, &ShapeCastOptions::default(), &solid)? {
        println!(
            "swung plank: meets the {} after {:.1} degrees",
            label(hit.body),
            hit.fraction * 180.0
        );
    }

    // Under the cursor, and nearest to it.
    let cursor = Point::new(6.2, 0.3);
    let under: Vec<String> = world
        .intersections_with_point(&cursor, &solid)?
        .iter()
        .map(|s| label(s.body))
        .collect();
    println!("under the cursor at (6.2, 0.3): {under:?}");
    let away = Point::new(8.0, 3.0);
    if let Some(p) = world.project_point(&away, 10.0, &solid)? {
        println!(
            "nearest to (8, 3): the {}, {:.3} units away at ({:.3}, {:.3})",
            label(p.body),
            p.distance,
            p.point.x,
            p.point.y
        );
    }
    Ok(())
}
