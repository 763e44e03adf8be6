//! Invariant: an impact on a jointed group takes from the group no momentum beyond what the
//! impulses at its points and its rigid joint rows require. A group on a pivot (a revolute
//! joint to a fixed body, with a motor or a spring, whose forces pass no impulse in an
//! instant) keeps its angular momentum about the pivot but for the moment of the contact's
//! impulse, whatever else it touches: a kept touch ([`Touch`]) with a light dynamic body
//! outside the group, which the impact does not move, is no row of the impact.
//!
//! The case that found it: a 48 kg paddle driven by a motor at 5 rad/s, stirring a pile of
//! 0.12 kg bodies under `FirstTimeOfImpact`, was stopped dead at a group impact whose
//! contact impulse was 0: the touch of a pile body struck at the same instant before held
//! the paddle as if that body were a wall.
//!
//! For random groups of one to three boxes (the first on a motor or spring joint to a fixed
//! body, the others on plain revolute joints), turning about the pivot, each with a touch of
//! a light disc that the group's turn drives into it, struck by another light disc that
//! approaches by nothing or by up to 1e-3 units/s: the group's angular momentum about the
//! pivot changes by the moment of the contact's impulse to 1e-9, and the touched disc keeps
//! its velocity.

mod common;

use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Vector};
use impact_solver::{
    BodyHandle, BodySet, GroupContact, GroupImpactSolver, ImpactSettings, JointDef, JointGraph,
    JointSet, Material, RevoluteJoint, RigidBodyDef, Touch,
};
use proptest::prelude::*;

fn never_held(_: BodyHandle) -> bool {
    false
}

/// A box of the group: half extents, density, and its centre's offset from the previous
/// body's (from the pivot for the first).
type Link = ((Real, Real), Real, (Real, Real));

fn link() -> impl Strategy<Value = Link> {
    ((0.1..1.5, 0.1..1.5), 0.5..5.0, (-2.0..2.0, -2.0..2.0))
}

/// What drives the first body: a motor (speed, torque) or a spring (hertz, damping).
#[derive(Debug, Clone, Copy)]
enum Drive {
    Motor(Real, Real),
    Spring(Real, Real),
}

fn drive() -> impl Strategy<Value = Drive> {
    prop_oneof![
        (-10.0..10.0, 1.0..1e30).prop_map(|(s, t)| Drive::Motor(s, t)),
        (0.5..30.0, 0.0..2.0).prop_map(|(h, d)| Drive::Spring(h, d)),
    ]
}

#[derive(Debug, Clone)]
struct Case {
    links: Vec<Link>,
    drive: Drive,
    /// The group's turn about the pivot.
    omega: Real,
    /// The member touched by the first light disc and struck by the second (indices into
    /// the links), and where on it (a fraction of its half extents).
    touched: prop::sample::Index,
    struck: prop::sample::Index,
    at: ((Real, Real), (Real, Real)),
    /// The contact's normal angle and how fast the struck disc approaches (0 or up to 1e-3).
    normal_angle: Real,
    approach: Real,
    /// The light discs' density (a radius of 0.2: 0.003 to 0.13 kg).
    light: Real,
    material: (Real, Real),
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::collection::vec(link(), 1..=3),
        drive(),
        prop_oneof![-20.0..-0.5, 0.5..20.0],
        (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
        ((-0.9..0.9, -0.9..0.9), (-0.9..0.9, -0.9..0.9)),
        -3.2..3.2,
        prop_oneof![Just(0.0), 0.0..1e-3],
        0.02..1.0,
        (0.0..1.0, 0.0..1.0),
    )
        .prop_map(
            |(
                links,
                drive,
                omega,
                (touched, struck),
                at,
                normal_angle,
                approach,
                light,
                material,
            )| {
                Case {
                    links,
                    drive,
                    omega,
                    touched,
                    struck,
                    at,
                    normal_angle,
                    approach,
                    light,
                    material,
                }
            },
        )
}

/// The group's angular momentum about `pivot`.
fn group_momentum(bodies: &BodySet, group: &[BodyHandle], pivot: &Point) -> Real {
    group
        .iter()
        .map(|&h| bodies.get(h).unwrap().angular_momentum_about(pivot))
        .sum()
}

fn check(case: &Case) -> Result<(), TestCaseError> {
    let mut bodies = BodySet::new();
    let mut joints = JointSet::new();
    let pivot = Point::origin();
    let ground = bodies
        .insert(RigidBodyDef::fixed(Circle::new(0.1).unwrap().into()))
        .unwrap();
    // The group turning rigidly at `omega` about the pivot.
    let mut group = Vec::new();
    let mut centre = pivot;
    let mut previous = (ground, pivot);
    for (k, &((hx, hy), density, (dx, dy))) in case.links.iter().enumerate() {
        let next = centre + Vector::new(dx, dy);
        let def = RigidBodyDef::new(ConvexPolygon::rectangle(hx, hy).unwrap().into())
            .pose(Isometry::translation(next.x, next.y))
            .density(density)
            .linvel(Vector::new(-next.y, next.x) * case.omega)
            .angvel(case.omega);
        let body = bodies.insert(def).unwrap();
        let anchor = if k == 0 {
            pivot
        } else {
            Point::from((previous.1.coords + next.coords) * 0.5)
        };
        let kind = match (k, case.drive) {
            (0, Drive::Motor(speed, torque)) => RevoluteJoint::default().motor(speed, torque),
            (0, Drive::Spring(hertz, damping)) => RevoluteJoint::default().spring(hertz, damping),
            _ => RevoluteJoint::default(),
        };
        let def =
            JointDef::at_world_anchor(&bodies, previous.0, body, anchor, kind.into()).unwrap();
        joints.insert(&bodies, def).unwrap();
        group.push(body);
        previous = (body, next);
        centre = next;
    }
    let place = |bodies: &BodySet, h: BodyHandle, (fx, fy): (Real, Real)| -> Point {
        let i = group.iter().position(|&g| g == h).unwrap();
        let ((hx, hy), _, _) = case.links[i];
        bodies.get(h).unwrap().pose() * Point::new(fx * hx, fy * hy)
    };
    let point_velocity = |bodies: &BodySet, h: BodyHandle, p: &Point| -> Vector {
        let b = bodies.get(h).unwrap();
        let r = p - b.center_of_mass();
        b.linvel() + Vector::new(-b.angvel() * r.y, b.angvel() * r.x)
    };
    let light = |p: Point, v: Vector| {
        RigidBodyDef::new(Circle::new(0.2).unwrap().into())
            .pose(Isometry::translation(p.x, p.y))
            .density(case.light)
            .linvel(v)
    };
    // A light disc at rest, touched where the group's turn drives the member into it.
    let touched = group[case.touched.index(group.len())];
    let tp = place(&bodies, touched, case.at.0);
    let tv = point_velocity(&bodies, touched, &tp);
    prop_assume!(tv.norm() > 1e-6);
    let pebble = bodies.insert(light(tp, Vector::zeros())).unwrap();
    let touch = Touch::at(&bodies, (touched, pebble), tp, tv.normalize()).unwrap();
    // A light disc struck at another point, approaching by `approach` at most.
    let struck = group[case.struck.index(group.len())];
    let sp = place(&bodies, struck, case.at.1);
    let (s, c) = Real::sin_cos(case.normal_angle);
    let normal = Vector::new(c, s);
    let sv = point_velocity(&bodies, struck, &sp) - normal * case.approach;
    let other = bodies.insert(light(sp, sv)).unwrap();
    let contact = GroupContact {
        a: struck,
        b: other,
        point: sp,
        second: None,
        normal,
        material: Some(Material::new(case.material.0, case.material.1).unwrap()),
    };

    let before = group_momentum(&bodies, &group, &pivot);
    let graph = JointGraph::of(&joints);
    let mut solver = GroupImpactSolver::new();
    solver.set_touches(&[touch]);
    let out = solver
        .resolve(
            &mut bodies,
            &joints,
            &graph,
            &contact,
            &ImpactSettings::default(),
            &never_held,
        )
        .unwrap();
    let after = group_momentum(&bodies, &group, &pivot);
    // The impulse on B is along the normal and the tangent; the group's body is A.
    let i = out.impulse;
    let on_group = -(i.normal_direction * i.normal + i.tangent_direction * i.tangent);
    let r = sp - pivot;
    let moment = r.x * on_group.y - r.y * on_group.x;
    let scale = 1.0 + before.abs() + moment.abs();
    prop_assert!(
        (after - before - moment).abs() <= 1e-9 * scale,
        "angular momentum about the pivot {before} -> {after}, the contact's moment {moment}: {out:?}"
    );
    prop_assert_eq!(bodies.get(pebble).unwrap().linvel(), Vector::zeros());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn a_group_on_a_pivot_loses_no_turn_but_its_contact_impulse_moment(c in case()) {
        check(&c)?;
    }
}
