//! Invariant: an impact on a jointed group is the group's exact velocity problem at that
//! instant, checked against an oracle that shares no code with the resolver
//! (`common/kkt.rs`): the KKT system `[M J^T; J 0]` of the rows, assembled here from the
//! bodies' poses and solved by nalgebra's LU decomposition with full pivoting, and for
//! one-sided rows every active set tried.
//!
//! For random trees of 2 to 6 bodies (discs and boxes of random sizes and densities, random
//! poses, revolute joints at random anchors, velocities that keep the joints), each struck at
//! a random point of a random member by a fixed body or by a free disc:
//! - every joint's anchors move together after the impact, to 1e-9 of the rows' velocities;
//! - the velocities and impulses are the oracle's to 1e-9: the contact leaving at `e` times
//!   its approach, then friction stopping the slip within `mu` times the normal impulse (or
//!   sliding at that bound against the slip) with the contact kept from closing again;
//! - linear momentum and angular momentum about a point are conserved when the group holds no
//!   body of infinite mass, and kinetic energy does not grow for `e <= 1`;
//! - the reported residual is below 1e-9.
//!
//! The same trees with revolute limits at their bounds match the enumerated oracle
//! (frictionless). A body without joints is resolved bit for bit as `resolve_impact_with`
//! resolves it; a limit at its bound pushes only one way; a face landing flat is stopped at
//! both ends; a dependent pair of joints (a weld beside a revolute joint on the same bodies)
//! is solved; bad input is refused by name; a group advanced over a step keeps its joints.

mod common;

use common::kkt::{OracleRow, kkt, lcp, point_row, row_velocity, velocities};
use common::{angular_momentum, kinetic_energy, linear_momentum, state_bits};
use impact_geometry::nalgebra::DVector;
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Shape, Vector};
use impact_solver::{
    BodyHandle, BodySet, GroupContact, GroupImpactSolver, GroupStep, ImpactSettings, JointDef,
    JointGraph, JointKind, JointSet, Material, RevoluteJoint, RigidBodyDef, SolverError, WeldJoint,
    contact_tangent, resolve_impact_with,
};
use proptest::prelude::*;
use proptest::sample::Index;

#[derive(Debug, Clone)]
struct BodySpec {
    circle: bool,
    size: (Real, Real),
    density: Real,
    position: (Real, Real),
    angle: Real,
    linvel: (Real, Real),
    angvel: Real,
}

fn body_spec() -> impl Strategy<Value = BodySpec> {
    (
        any::<bool>(),
        (0.1..1.0, 0.1..1.0),
        0.1..10.0,
        (-3.0..3.0, -3.0..3.0),
        -3.0..3.0,
        (-5.0..5.0, -5.0..5.0),
        -5.0..5.0,
    )
        .prop_map(
            |(circle, size, density, position, angle, linvel, angvel)| BodySpec {
                circle,
                size,
                density,
                position,
                angle,
                linvel,
                angvel,
            },
        )
}

fn def_of(spec: &BodySpec) -> RigidBodyDef {
    let shape: Shape = if spec.circle {
        Circle::new(spec.size.0).unwrap().into()
    } else {
        ConvexPolygon::rectangle(spec.size.0, spec.size.1)
            .unwrap()
            .into()
    };
    RigidBodyDef::new(shape)
        .density(spec.density)
        .pose(Isometry::new(
            Vector::new(spec.position.0, spec.position.1),
            spec.angle,
        ))
        .linvel(Vector::new(spec.linvel.0, spec.linvel.1))
        .angvel(spec.angvel)
}

/// A random tree and its impact.
#[derive(Debug, Clone)]
struct Case {
    bodies: Vec<BodySpec>,
    /// Per body after the first: its parent, and where between the two centres (and how far
    /// off that line) the joint's anchor is.
    parents: Vec<(Index, Real, (Real, Real))>,
    struck: Index,
    /// The contact point's offset from the struck body's centre, and the normal's angle.
    offset: (Real, Real),
    normal_angle: Real,
    restitution: Real,
    friction: Real,
    /// Struck by a fixed body (else by a free disc, so the group holds no infinite mass).
    fixed: bool,
    disc: BodySpec,
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::collection::vec(body_spec(), 2..=6),
        prop::collection::vec((any::<Index>(), 0.0..1.0, (-0.5..0.5, -0.5..0.5)), 5),
        any::<Index>(),
        ((-1.0..1.0, -1.0..1.0), -4.0..4.0),
        (0.0..=1.0, 0.0..1.5),
        any::<bool>(),
        body_spec(),
    )
        .prop_map(
            |(
                bodies,
                parents,
                struck,
                (offset, normal_angle),
                (restitution, friction),
                fixed,
                disc,
            )| {
                Case {
                    bodies,
                    parents,
                    struck,
                    offset,
                    normal_angle,
                    restitution,
                    friction,
                    fixed,
                    disc,
                }
            },
        )
}

/// The world of a case: the tree's bodies (in order), its joints, the striker, the contact.
struct Built {
    bodies: BodySet,
    joints: JointSet,
    tree: Vec<BodyHandle>,
    striker: BodyHandle,
    contact: GroupContact,
}

fn build(case: &Case) -> Built {
    let mut bodies = BodySet::new();
    let tree: Vec<BodyHandle> = case
        .bodies
        .iter()
        .map(|s| bodies.insert(def_of(s)).unwrap())
        .collect();
    let mut joints = JointSet::new();
    for k in 1..tree.len() {
        let (index, t, off) = &case.parents[k - 1];
        let parent = index.index(k);
        let (pa, pb) = (
            bodies.get(tree[parent]).unwrap().center_of_mass(),
            bodies.get(tree[k]).unwrap().center_of_mass(),
        );
        let anchor = pa + (pb - pa) * *t + Vector::new(off.0, off.1);
        let def = JointDef::at_world_anchor(
            &bodies,
            tree[parent],
            tree[k],
            anchor,
            RevoluteJoint::default().into(),
        )
        .unwrap();
        joints.insert(&bodies, def).unwrap();
    }
    let struck = tree[case.struck.index(tree.len())];
    let center = bodies.get(struck).unwrap().center_of_mass();
    let point = center + Vector::new(case.offset.0, case.offset.1);
    let striker_def = if case.fixed {
        RigidBodyDef::fixed(Circle::new(0.2).unwrap().into())
            .pose(Isometry::translation(point.x, point.y + 0.3))
    } else {
        def_of(&case.disc).pose(Isometry::translation(point.x + 0.4, point.y - 0.2))
    };
    let striker = bodies.insert(striker_def).unwrap();
    let material = Some(Material::new(case.restitution, case.friction).unwrap());
    let (s, c) = Real::sin_cos(case.normal_angle);
    let contact = GroupContact {
        a: striker,
        b: struck,
        point,
        second: None,
        normal: Vector::new(c, s),
        material,
    };
    let mut built = Built {
        bodies,
        joints,
        tree,
        striker,
        contact,
    };
    make_consistent(&mut built);
    // Approaching: the normal from A toward B against B's velocity relative to A.
    let vn = relative(&built.bodies, &built.contact).dot(&built.contact.normal);
    if vn > 0.0 {
        built.contact.normal = -built.contact.normal;
    }
    built
}

/// B's material point's velocity minus A's at the contact point.
fn relative(bodies: &BodySet, c: &GroupContact) -> Vector {
    bodies.get(c.b).unwrap().velocity_at_point(&c.point)
        - bodies.get(c.a).unwrap().velocity_at_point(&c.point)
}

/// The oracle's view: the movable bodies (the tree, and the striker if dynamic).
fn movable(built: &Built) -> Vec<BodyHandle> {
    let mut list = built.tree.clone();
    if built.bodies.get(built.striker).unwrap().is_dynamic() {
        list.push(built.striker);
    }
    list
}

/// The joints' point rows.
fn joint_rows(built: &Built, list: &[BodyHandle]) -> Vec<OracleRow> {
    let at = |h: BodyHandle| list.iter().position(|&x| x == h);
    let mut rows = Vec::new();
    for (_, j) in built.joints.iter() {
        let (a, b) = (
            built.bodies.get(j.body_a()).unwrap(),
            built.bodies.get(j.body_b()).unwrap(),
        );
        let (pa, pb) = (
            a.pose() * j.def().local_anchor_a,
            b.pose() * j.def().local_anchor_b,
        );
        for dir in [Vector::x(), Vector::y()] {
            rows.push(point_row(
                (at(j.body_a()), a.center_of_mass()),
                (at(j.body_b()), b.center_of_mass()),
                (pa, pb),
                dir,
            ));
        }
    }
    rows
}

/// The contact's row along `dir`.
fn contact_row(built: &Built, list: &[BodyHandle], dir: Vector) -> OracleRow {
    let at = |h: BodyHandle| list.iter().position(|&x| x == h);
    let c = &built.contact;
    point_row(
        (at(c.a), built.bodies.get(c.a).unwrap().center_of_mass()),
        (at(c.b), built.bodies.get(c.b).unwrap().center_of_mass()),
        (c.point, c.point),
        dir,
    )
}

/// Projects the bodies' velocities onto the joints' rows (so the joints hold before the
/// impact), by the oracle.
fn make_consistent(built: &mut Built) {
    let list = built.tree.clone();
    let rows: Vec<(OracleRow, Real)> = joint_rows(built, &list)
        .into_iter()
        .map(|r| (r, 0.0))
        .collect();
    let v0 = velocities(&built.bodies, &list);
    let (v, _) = kkt(&built.bodies, &list, &v0, &rows, &[]).expect("a tree's rows are independent");
    for (k, &h) in list.iter().enumerate() {
        let b = built.bodies.get_mut(h).unwrap();
        b.set_velocity(Vector::new(v[3 * k], v[3 * k + 1]), v[3 * k + 2])
            .unwrap();
    }
}

fn never_held(_: BodyHandle) -> bool {
    false
}

/// The oracle's stages: the velocities after the impact, the whole normal impulse, and the
/// tangent impulse. Compression and restitution (Newton's target, which Poisson's impulse
/// meets while no one-sided row changes); then friction: the tangent row stopping the slip
/// within `mu` times the normal impulse (or clamped there, sliding the right way), beside the
/// normal row kept from closing (pushing only), every case tried.
fn oracle(built: &Built, e: Real, mu: Real) -> (DVector<Real>, Real, Real) {
    let list = movable(built);
    let v0 = velocities(&built.bodies, &list);
    let joints: Vec<(OracleRow, Real)> = joint_rows(built, &list)
        .into_iter()
        .map(|r| (r, 0.0))
        .collect();
    let normal = contact_row(built, &list, built.contact.normal);
    let vn = row_velocity(&normal, &v0);
    let mut rows = joints.clone();
    rows.push((normal, -e * vn));
    let (v1, l1) =
        kkt(&built.bodies, &list, &v0, &rows, &[]).expect("a tree's rows are independent");
    let jn = -l1[l1.len() - 1];
    if mu == 0.0 {
        return (v1, jn, 0.0);
    }
    let tangent = contact_row(built, &list, contact_tangent(&built.contact.normal));
    if row_velocity(&tangent, &v1) == 0.0 {
        return (v1, jn, 0.0);
    }
    let limit = mu * jn;
    let one_sided = [(normal, 0.0, 0.0)];
    let scale = 1.0 + v1.amax();
    // Sticking: the slip stopped within the bound.
    let mut with_tangent = joints.clone();
    with_tangent.push((tangent, 0.0));
    if let Some((v2, added, equal)) = lcp(&built.bodies, &list, &v1, &with_tangent, &one_sided, &[])
    {
        let jt = equal[equal.len() - 1];
        if jt.abs() <= limit * (1.0 + 1e-9) {
            return (v2, jn + added[0], jt);
        }
    }
    // Sliding: the bound, against the slip it leaves.
    for jt in [limit, -limit] {
        if let Some((v2, added, _)) = lcp(
            &built.bodies,
            &list,
            &v1,
            &joints,
            &one_sided,
            &[(tangent, jt)],
        ) {
            let slip = row_velocity(&tangent, &v2);
            if slip * jt.signum() <= 1e-9 * scale {
                return (v2, jn + added[0], jt);
            }
        }
    }
    panic!("no friction case holds")
}

fn check_case(case: &Case) -> Result<(), TestCaseError> {
    let mut built = build(case);
    let list = movable(&built);
    let before = velocities(&built.bodies, &list);
    let scale = 1.0
        + list
            .iter()
            .map(|&h| {
                let b = built.bodies.get(h).unwrap();
                b.linvel().norm() + b.angvel().abs() * 5.0
            })
            .fold(0.0, Real::max);
    let energy0 = kinetic_energy(&built.bodies);
    let origin = Point::new(0.7, -1.3);
    let (p0, l0) = (
        linear_momentum(&built.bodies),
        angular_momentum(&built.bodies, &origin),
    );
    let (expected, jn, jt) = oracle(&built, case.restitution, case.friction);
    let graph = JointGraph::of(&built.joints);
    let mut solver = GroupImpactSolver::new();
    let out = solver
        .resolve(
            &mut built.bodies,
            &built.joints,
            &graph,
            &built.contact,
            &ImpactSettings::default(),
            &never_held,
        )
        .unwrap();
    prop_assert!(out.residual <= 1e-9, "residual {}", out.residual);
    prop_assert_eq!(
        solver.group().len(),
        built.tree.len() + usize::from(!case.fixed)
    );
    let after = velocities(&built.bodies, &list);
    let tol = 1e-9 * scale;
    // Every joint's anchors move together.
    for (row, _) in joint_rows(&built, &list).iter().map(|r| (r, 0.0)) {
        let v = row_velocity(row, &after);
        prop_assert!(v.abs() <= tol, "joint row {v:e} (scale {scale})");
    }
    // The oracle's velocities and impulses.
    let worst = (&after - &expected).amax();
    prop_assert!(worst <= tol, "{worst:e} off the oracle (scale {scale})");
    prop_assert!((out.impulse.normal - jn).abs() <= 1e-9 * (1.0 + jn.abs()) * scale);
    prop_assert!((out.impulse.tangent - jt).abs() <= 1e-9 * (1.0 + jn.abs()) * scale);
    prop_assert!(out.impulse.normal >= 0.0);
    prop_assert!(out.impulse.tangent.abs() <= case.friction * out.impulse.normal * (1.0 + 1e-12));
    if case.friction == 0.0 {
        let normal = contact_row(&built, &list, built.contact.normal);
        let (vn0, vn1) = (
            row_velocity(&normal, &before),
            row_velocity(&normal, &after),
        );
        prop_assert!(
            (vn1 + case.restitution * vn0).abs() <= tol,
            "{vn0} -> {vn1}"
        );
    }
    if !case.fixed {
        let (p1, l1) = (
            linear_momentum(&built.bodies),
            angular_momentum(&built.bodies, &origin),
        );
        let m = 1e-9 * (1.0 + p0.norm() + l0.abs()) * scale;
        prop_assert!((p1 - p0).norm() <= m, "momentum {p0:?} -> {p1:?}");
        prop_assert!((l1 - l0).abs() <= m, "angular momentum {l0} -> {l1}");
    }
    let energy1 = kinetic_energy(&built.bodies);
    prop_assert!(
        energy1 <= energy0 * (1.0 + 1e-9) + 1e-12,
        "energy {energy0} -> {energy1}"
    );
    Ok(())
}

/// Each joint's limits: none at its bound, the lower one, or the upper one.
fn limited_case() -> impl Strategy<Value = (Case, Vec<u8>)> {
    (case(), prop::collection::vec(0u8..3, 5))
}

/// The joints' rows of `built` split into the point rows and the one-sided limit rows at
/// their bounds (`w_b - w_a >= 0` for a lower limit, `<= 0` for an upper one).
fn limit_rows(built: &Built, list: &[BodyHandle]) -> Vec<OracleRow> {
    let at = |h: BodyHandle| list.iter().position(|&x| x == h);
    let mut rows = Vec::new();
    for (_, j) in built.joints.iter() {
        if let JointKind::Revolute(r) = j.kind()
            && r.enable_limit
        {
            let sign = match (r.lower_angle == 0.0, r.upper_angle == 0.0) {
                (true, false) => 1.0,
                (false, true) => -1.0,
                _ => continue,
            };
            rows.push([
                (at(j.body_a()), Vector::zeros(), -sign),
                (at(j.body_b()), Vector::zeros(), sign),
            ]);
        }
    }
    rows
}

fn check_limited(case: &Case, limits: &[u8]) -> Result<(), TestCaseError> {
    let mut built = build(case);
    // The same tree with limits: the joint angles read 0 where the joints were made.
    let handles: Vec<_> = built.joints.iter().map(|(h, _)| h).collect();
    for (k, h) in handles.into_iter().enumerate() {
        let (lo, hi) = match limits[k] {
            0 => (-0.5, 0.5),
            1 => (0.0, 0.5),
            _ => (-0.5, 0.0),
        };
        built
            .joints
            .get_mut(h)
            .unwrap()
            .set_kind(RevoluteJoint::default().limits(lo, hi).into())
            .unwrap();
    }
    let list = movable(&built);
    let v0 = velocities(&built.bodies, &list);
    let equal: Vec<(OracleRow, Real)> = joint_rows(&built, &list)
        .into_iter()
        .map(|r| (r, 0.0))
        .collect();
    let normal = contact_row(&built, &list, built.contact.normal);
    let mut one_sided = vec![(normal, 0.0, 0.0)];
    one_sided.extend(limit_rows(&built, &list).into_iter().map(|r| (r, 0.0, 0.0)));
    let e = case.restitution;
    let Some((v1, added, _)) = lcp(&built.bodies, &list, &v0, &equal, &one_sided, &[]) else {
        return Err(TestCaseError::reject("degenerate"));
    };
    let compression = added[0];
    let limits1: Vec<_> = one_sided[1..]
        .iter()
        .zip(&added[1..])
        .map(|(&(row, t, _), &x)| (row, t, x))
        .collect();
    let expected = if compression > 0.0 && e > 0.0 {
        let fixed = [(normal, e * compression)];
        match lcp(&built.bodies, &list, &v1, &equal, &limits1, &fixed) {
            Some((v2, _, _)) => v2,
            None => return Err(TestCaseError::reject("degenerate")),
        }
    } else {
        v1
    };
    built.contact.material = Some(Material::new(e, 0.0).unwrap());
    let graph = JointGraph::of(&built.joints);
    let out = GroupImpactSolver::new()
        .resolve(
            &mut built.bodies,
            &built.joints,
            &graph,
            &built.contact,
            &ImpactSettings::default(),
            &never_held,
        )
        .unwrap();
    prop_assert!(out.residual <= 1e-9, "residual {}", out.residual);
    let after = velocities(&built.bodies, &list);
    let scale = 1.0 + v0.amax() * 5.0;
    let worst = (&after - &expected).amax();
    prop_assert!(
        worst <= 1e-9 * scale,
        "{worst:e} off the oracle: before {v0:?}, after {after:?}, oracle {expected:?}, {out:?}"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// With limits at their bounds, the active set is the brute-force oracle's: every subset
    /// of the one-sided rows tried, the one that meets the complementarity conditions kept
    /// (frictionless, so the velocities are unique).
    #[test]
    fn a_struck_tree_with_limits_matches_the_enumerated_oracle((case, limits) in limited_case()) {
        check_limited(&case, &limits)?;
    }

    #[test]
    fn a_struck_tree_matches_the_kkt_oracle(case in case()) {
        check_case(&case)?;
    }

    /// A body without joints: exactly the two-body resolver.
    #[test]
    fn a_body_without_joints_is_resolve_impact_bit_for_bit(
        a in body_spec(),
        b in body_spec(),
        angle in -4.0..4.0,
        (restitution, friction) in (0.0..=1.0, 0.0..1.5),
        fixed in any::<bool>(),
    ) {
        let mut bodies = BodySet::new();
        let ha = if fixed {
            bodies.insert(RigidBodyDef::fixed(Circle::new(0.3).unwrap().into())).unwrap()
        } else {
            bodies.insert(def_of(&a)).unwrap()
        };
        let hb = bodies.insert(def_of(&b)).unwrap();
        let point = Point::new(a.position.0 + b.position.0, a.position.1 - b.position.1) * 0.5;
        let (s, c) = Real::sin_cos(angle);
        let material = Some(Material::new(restitution, friction).unwrap());
        let contact = GroupContact { a: ha, b: hb, point, second: None, normal: Vector::new(c, s), material };
        let mut copy = bodies.clone();
        let expected = resolve_impact_with(
            &mut copy, ha, hb, point, contact.normal, material.as_ref(),
            &ImpactSettings::default(),
        ).unwrap();
        let joints = JointSet::new();
        let out = GroupImpactSolver::new()
            .resolve(&mut bodies, &joints, &JointGraph::of(&joints), &contact,
                &ImpactSettings::default(), &never_held)
            .unwrap();
        prop_assert_eq!(out.impulse, expected);
        prop_assert_eq!(out.joint_rows, 0);
        prop_assert_eq!(state_bits(&bodies), state_bits(&copy));
    }
}

/// Two boxes on a hinge at the origin, A fixed, B hanging right; B struck from below at its
/// far end. With the limit at its bound on the side the blow pushes toward, the limit
/// holds (the relative angular speed does not go below 0); with the blow pulling away, the
/// limit is not at work and the answer is the one without it.
#[test]
fn a_limit_at_its_bound_pushes_one_way_only() {
    let run = |limit: Option<(Real, Real)>, up: bool| {
        let mut bodies = BodySet::new();
        let a = bodies
            .insert(RigidBodyDef::fixed(Circle::new(0.1).unwrap().into()))
            .unwrap();
        let b = bodies
            .insert(
                RigidBodyDef::new(ConvexPolygon::rectangle(0.5, 0.1).unwrap().into())
                    .pose(Isometry::translation(0.5, 0.0)),
            )
            .unwrap();
        let hinge = match limit {
            Some((lo, hi)) => RevoluteJoint::default().limits(lo, hi),
            None => RevoluteJoint::default(),
        };
        let mut joints = JointSet::new();
        let def = JointDef::at_world_anchor(&bodies, a, b, Point::origin(), hinge.into()).unwrap();
        joints.insert(&bodies, def).unwrap();
        // A wall body W strikes B's tip: moving B's tip up (`up`) or down.
        let wall = bodies
            .insert(RigidBodyDef::fixed(Circle::new(0.1).unwrap().into()))
            .unwrap();
        let vy = if up { -3.0 } else { 3.0 };
        // Turning about the hinge at `vy` rad/s.
        let centre = Vector::new(0.0, 0.5 * vy);
        bodies.get_mut(b).unwrap().set_velocity(centre, vy).unwrap();
        let normal = if up { Vector::y() } else { -Vector::y() };
        let contact = GroupContact {
            a: wall,
            b,
            point: Point::new(1.0, 0.0),
            second: None,
            normal,
            material: Some(Material::new(0.5, 0.0).unwrap()),
        };
        let out = GroupImpactSolver::new()
            .resolve(
                &mut bodies,
                &joints,
                &JointGraph::of(&joints),
                &contact,
                &ImpactSettings::default(),
                &never_held,
            )
            .unwrap();
        (bodies.get(b).unwrap().angvel(), out)
    };
    // B turning clockwise (-3 rad/s) is struck at its tip from below: it bounces to +1.5.
    let (free, _) = run(None, true);
    assert!((free - 1.5).abs() < 1e-12, "{free}");
    // The upper limit at 0 (B may not turn counterclockwise): the bounce stops at 0.
    let (held, out) = run(Some((-1.0, 0.0)), true);
    assert!(held.abs() < 1e-12, "{held}");
    assert_eq!(out.joint_rows, 3);
    // The lower limit at 0 while B is struck toward positive angles: not in the way.
    let (away, _) = run(Some((0.0, 1.0)), true);
    assert_eq!(away, free);
}

/// A plank hinged at its left end to a fixed pivot swings flat onto a wall below it, face to
/// face: with the two ends of the shared face as two rows, an inelastic impact stops it
/// altogether (one row at the middle would leave it turning about that point).
#[test]
fn a_face_landing_flat_is_stopped_at_both_ends() {
    let mut bodies = BodySet::new();
    let pivot = bodies
        .insert(RigidBodyDef::fixed(Circle::new(0.05).unwrap().into()))
        .unwrap();
    let plank = bodies
        .insert(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.5, 0.05).unwrap().into())
                .pose(Isometry::translation(0.5, 0.0))
                .linvel(Vector::new(0.0, -1.0))
                .angvel(-2.0),
        )
        .unwrap();
    let wall = bodies
        .insert(RigidBodyDef::fixed(Circle::new(0.05).unwrap().into()))
        .unwrap();
    let mut joints = JointSet::new();
    let def = JointDef::at_world_anchor(
        &bodies,
        pivot,
        plank,
        Point::origin(),
        RevoluteJoint::default().into(),
    )
    .unwrap();
    joints.insert(&bodies, def).unwrap();
    let contact = GroupContact {
        a: wall,
        b: plank,
        point: Point::new(0.1, -0.05),
        second: Some(Point::new(1.0, -0.05)),
        normal: Vector::y(),
        material: Some(Material::new(0.0, 0.5).unwrap()),
    };
    let out = GroupImpactSolver::new()
        .resolve(
            &mut bodies,
            &joints,
            &JointGraph::of(&joints),
            &contact,
            &ImpactSettings::default(),
            &never_held,
        )
        .unwrap();
    let b = bodies.get(plank).unwrap();
    assert!(out.residual <= 1e-9, "{out:?}");
    assert!(
        b.linvel().norm() < 1e-12 && b.angvel().abs() < 1e-12,
        "{:?} {}",
        b.linvel(),
        b.angvel()
    );
}

/// A weld beside a revolute joint on the same two bodies: five rows of which two repeat the
/// weld's point rows. The dependent rows are left out, and the pair moves as one body.
#[test]
fn a_dependent_pair_of_joints_is_solved() {
    let mut bodies = BodySet::new();
    let a = bodies
        .insert(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.5, 0.1).unwrap().into())
                .linvel(Vector::new(2.0, 0.0)),
        )
        .unwrap();
    let b = bodies
        .insert(
            RigidBodyDef::new(ConvexPolygon::rectangle(0.5, 0.1).unwrap().into())
                .pose(Isometry::translation(1.0, 0.0))
                .linvel(Vector::new(2.0, 0.0)),
        )
        .unwrap();
    let wall = bodies
        .insert(RigidBodyDef::fixed(Circle::new(0.1).unwrap().into()))
        .unwrap();
    let mut joints = JointSet::new();
    let at = Point::new(0.5, 0.0);
    for kind in [
        JointKind::from(WeldJoint::default()),
        RevoluteJoint::default().into(),
    ] {
        let def = JointDef::at_world_anchor(&bodies, a, b, at, kind).unwrap();
        joints.insert(&bodies, def).unwrap();
    }
    let contact = GroupContact {
        a: wall,
        b,
        point: Point::new(1.5, 0.0),
        second: None,
        normal: -Vector::x(),
        material: Some(Material::new(1.0, 0.3).unwrap()),
    };
    let out = GroupImpactSolver::new()
        .resolve(
            &mut bodies,
            &joints,
            &JointGraph::of(&joints),
            &contact,
            &ImpactSettings::default(),
            &never_held,
        )
        .unwrap();
    assert_eq!(out.joint_rows, 5);
    assert!(out.residual <= 1e-9, "{out:?}");
    let (ba, bb) = (bodies.get(a).unwrap(), bodies.get(b).unwrap());
    // One rigid body: the same angular speed, and the anchor moving as one.
    assert!((ba.angvel() - bb.angvel()).abs() < 1e-12);
    let anchor_gap = bb.velocity_at_point(&at) - ba.velocity_at_point(&at);
    assert!(anchor_gap.norm() < 1e-12, "{anchor_gap:?}");
    // Struck elastically at its end along the rod's axis, the rod bounces whole.
    assert!((ba.linvel().x + 2.0).abs() < 1e-9, "{:?}", ba.linvel());
}

#[test]
fn bad_impacts_are_refused_by_name_and_change_nothing() {
    let mut bodies = BodySet::new();
    let a = bodies
        .insert(RigidBodyDef::new(Circle::new(0.5).unwrap().into()))
        .unwrap();
    let b = bodies
        .insert(RigidBodyDef::new(Circle::new(0.5).unwrap().into()).linvel(Vector::x()))
        .unwrap();
    let joints = JointSet::new();
    let graph = JointGraph::of(&joints);
    let before = state_bits(&bodies);
    let good = GroupContact {
        a,
        b,
        point: Point::origin(),
        second: None,
        normal: Vector::x(),
        material: None,
    };
    let field = |contact: GroupContact, settings: ImpactSettings| {
        let mut bodies = bodies.clone();
        match GroupImpactSolver::new().resolve(
            &mut bodies,
            &joints,
            &graph,
            &contact,
            &settings,
            &never_held,
        ) {
            Err(e) => {
                assert_eq!(state_bits(&bodies), before);
                field_of(&e)
            }
            Ok(_) => panic!("accepted {contact:?}"),
        }
    };
    let s = ImpactSettings::default();
    let nan = Point::new(Real::NAN, 0.0);
    assert_eq!(
        field(GroupContact { point: nan, ..good }, s),
        "impact.point.x"
    );
    let long = Vector::new(2.0, 0.0);
    assert_eq!(
        field(
            GroupContact {
                normal: long,
                ..good
            },
            s
        ),
        "impact.normal"
    );
    assert_eq!(field(GroupContact { b: a, ..good }, s), "impact");
    let stale = BodyHandle {
        index: 9,
        generation: 0,
    };
    assert_eq!(field(GroupContact { b: stale, ..good }, s), "impact.b");
    let bad = ImpactSettings {
        restitution_threshold: -1.0,
        ..s
    };
    assert_eq!(field(good, bad), "impact_settings.restitution_threshold");
}

/// The field an error names.
fn field_of(e: &SolverError) -> String {
    let text = format!("{e:?}");
    let start = text.find("field: \"").expect("the error names a field") + 8;
    text[start..]
        .split('"')
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// A pendulum advanced alone over a step at 50 rad/s keeps its rod to 1e-9, turns by the
/// angle of its swing, and changes nothing in the body set.
#[test]
fn a_group_advanced_alone_keeps_its_joints() {
    let mut bodies = BodySet::new();
    let pivot = bodies
        .insert(RigidBodyDef::fixed(Circle::new(0.05).unwrap().into()))
        .unwrap();
    let bob = bodies
        .insert(
            RigidBodyDef::new(Circle::new(0.1).unwrap().into())
                .pose(Isometry::translation(2.0, 0.0))
                .linvel(Vector::new(0.0, 100.0))
                .angvel(50.0),
        )
        .unwrap();
    let mut joints = JointSet::new();
    let def = JointDef::at_world_anchor(
        &bodies,
        pivot,
        bob,
        Point::origin(),
        RevoluteJoint::default().into(),
    )
    .unwrap();
    joints.insert(&bodies, def).unwrap();
    let graph = JointGraph::of(&joints);
    let mut solver = GroupImpactSolver::new();
    assert!(solver.gather(&bodies, &joints, &graph, (bob, pivot), &never_held));
    assert_eq!(solver.group(), &[bob]);
    let step = GroupStep {
        gravity: Vector::zeros(),
        dt: 1.0 / 60.0,
        substeps: 4,
        max_work: u64::MAX,
    };
    let before = state_bits(&bodies);
    let mut out = Vec::new();
    let held = solver
        .advance(&bodies, &joints, &step, &never_held, &mut out)
        .unwrap();
    assert!(held.held, "a free pendulum's rod holds");
    // 50 rad/s over 1/60 s in turns of at most 0.02 rad.
    assert_eq!(held.substeps, 42);
    assert_eq!(state_bits(&bodies), before);
    assert_eq!(out.len(), 1);
    let m = out[0];
    let r = m.pose.translation.vector.norm();
    let swing = m.pose.translation.y.atan2(m.pose.translation.x);
    println!(
        "a 2-unit pendulum at 50 rad/s, advanced 1/60 s rigidly: rod {r}, turned {} (swing \
         {swing}), speed {}",
        m.turned,
        m.linvel.norm()
    );
    assert!((r - 2.0).abs() < 1e-9, "{r}");
    assert!((m.turned - swing).abs() < 1e-9, "{} {swing}", m.turned);
    // Projection takes no energy from a swing without gravity beyond the integrator's.
    assert!((m.linvel.norm() - 100.0).abs() < 1.0, "{}", m.linvel.norm());
    let bad = GroupStep {
        substeps: 0,
        ..step
    };
    let err = solver
        .advance(&bodies, &joints, &bad, &never_held, &mut out)
        .unwrap_err();
    assert_eq!(field_of(&err), "step.substeps");
}
