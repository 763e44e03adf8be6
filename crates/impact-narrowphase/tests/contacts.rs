//! Contact manifolds against brute force, for every pair of shape kinds:
//! - whenever the shapes are within the speculative distance there is a manifold;
//! - its deepest separation equals the brute-force signed distance (penetration depth by
//!   the separating axis theorem over every edge normal) within 0.1 linear slop when
//!   overlapping (face-choice hysteresis; reference-face normal in corner regions of cores
//!   closer than that), and never exceeds it when apart;
//! - each point sits midway between the surfaces: its A side and B side lie on (or, for the
//!   rounded incident shape of a tilted contact, within the radius of) each surface;
//! - with a circle (a point core) the single point's separation is exactly the distance;
//! - the normal is a unit vector from A to B, ids are distinct, and the reverse order gives
//!   the same manifold swapped.

mod support;

use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{Isometry, Shape, Vector};
use impact_narrowphase::contact_manifold;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError};
use support::{Kind, aligned, point_gap, signed_gap, spec};

const SPECULATIVE: f64 = 0.1;

fn kinds() -> impl Strategy<Value = (Kind, Kind)> {
    let k = prop_oneof![
        Just(Kind::Circle),
        Just(Kind::Segment),
        Just(Kind::Capsule),
        Just(Kind::Polygon),
        Just(Kind::RoundedPolygon)
    ];
    (k.clone(), k)
}

proptest! {
    #![proptest_config(Config { cases: 30_000, rng_seed: RngSeed::Fixed(404), failure_persistence: None, ..Config::default() })]
    #[test]
    fn manifolds_agree_with_brute_force(
        (sa, sb) in kinds().prop_flat_map(|(ka, kb)| (spec(ka), spec(kb))),
        (xb, yb) in (-2.5..2.5f64, -2.5..2.5f64),
        (aa, ab) in (-3.2..3.2f64, -3.2..3.2f64),
    ) {
        let (a, b) = (sa.build(1.0), sb.build(1.0));
        let pose_a = Isometry::new(Vector::zeros(), aa);
        let pose_b = Isometry::new(Vector::new(xb, yb), ab);
        manifold_agrees_with_brute_force(&a, &pose_a, &b, &pose_b, 1.0)?;
    }
}

/// The checks of the module docs on one placed pair, with every rounding allowance (1e-9
/// and 1e-12 in world units near the origin) multiplied by `scale`.
fn manifold_agrees_with_brute_force(
    a: &Shape,
    pose_a: &Isometry,
    b: &Shape,
    pose_b: &Isometry,
    scale: f64,
) -> Result<(), TestCaseError> {
    let (e9, e12) = (1e-9 * scale, 1e-12 * scale);
    let truth = signed_gap(a, pose_a, b, pose_b);
    let m = contact_manifold(a, pose_a, b, pose_b, SPECULATIVE);
    if truth <= SPECULATIVE - e9 {
        prop_assert!(!m.is_empty(), "no manifold at distance {truth}");
    }
    if m.is_empty() {
        return Ok(());
    }
    prop_assert!((m.normal.norm() - 1.0).abs() < 1e-12);
    let deepest = m.min_separation();
    prop_assert!(deepest <= SPECULATIVE + e12);
    if truth <= 0.0 {
        // Within the face-choice hysteresis, and the reference-face normal used in corner
        // regions when the cores are closer than 0.1 slop: either way at most 0.1 slop.
        prop_assert!(
            (deepest - truth).abs() <= 0.1 * LINEAR_SLOP + e9,
            "overlap {truth}, manifold says {deepest}"
        );
    } else {
        prop_assert!(
            deepest <= truth + e9,
            "apart by {truth}, manifold says {deepest}"
        );
    }
    // A point core (a circle) has one closest feature pair: its single point is exact.
    if a.core().len() == 1 || b.core().len() == 1 {
        prop_assert!(
            (deepest - truth).abs() <= e9,
            "circle pair: {deepest} vs {truth}"
        );
    }
    let (ra, rb) = (a.radius(), b.radius());
    for p in m.points() {
        let on_a = p.point - m.normal * (0.5 * p.separation);
        let on_b = p.point + m.normal * (0.5 * p.separation);
        let (ga, gb) = (point_gap(&on_a, a, pose_a), point_gap(&on_b, b, pose_b));
        prop_assert!(ga <= e9 && ga >= -ra - e9, "A side {ga}: {m:?}");
        prop_assert!(gb <= e9 && gb >= -rb - e9, "B side {gb}: {m:?}");
        prop_assert!(
            ga.abs() <= e9 || gb.abs() <= e9,
            "neither side on a surface: {ga} {gb}"
        );
    }
    if let [p, q] = m.points() {
        prop_assert_ne!(p.id, q.id);
    }
    let reverse = contact_manifold(b, pose_b, a, pose_a, SPECULATIVE);
    if a.kind() != b.kind() {
        prop_assert_eq!(reverse, m.swapped());
    } else {
        prop_assert!((reverse.min_separation() - deepest).abs() <= 0.1 * LINEAR_SLOP + e9);
    }
    Ok(())
}

proptest! {
    #![proptest_config(Config { cases: 4_000, rng_seed: RngSeed::Fixed(405), failure_persistence: None, ..Config::default() })]
    /// A segment or capsule standing square on a box's top face, anywhere from the middle of
    /// the face to exactly its end, just apart and turned any way far from the origin: the
    /// incident edge is perpendicular to the reference face, so clipping it to the face's
    /// side planes divides rounding by a span of rounding size (found by fuzzing, which lost
    /// the one contact of a segment standing on the end of a face).
    #[test]
    fn an_edge_standing_square_on_a_face_keeps_its_contact(
        (half_x, half_y) in (1e-3..2.0f64, 1e-3..2.0f64),
        along in prop_oneof![Just(1.0), Just(-1.0), -1.0..1.0f64],
        (length, radius) in (1e-3..3.0f64, prop_oneof![Just(0.0), 0.0..0.5f64]),
        gap in 1e-7..0.09f64,
        angle in -3.2..3.2f64,
        (x, y) in (-1e3..1e3f64, -1e3..1e3f64),
    ) {
        use impact_geometry::{Capsule, ConvexPolygon, Point, Shape};
        let block: Shape = ConvexPolygon::rectangle(half_x, half_y).unwrap().into();
        let foot = Point::new(along * half_x, half_y + radius + gap);
        let post: Shape = Capsule::new(foot, foot + Vector::new(0.0, length), radius).unwrap().into();
        let pose = Isometry::new(Vector::new(x, y), angle);
        let truth = signed_gap(&block, &pose, &post, &pose);
        let m = contact_manifold(&block, &pose, &post, &pose, SPECULATIVE);
        prop_assert!(!m.is_empty(), "no manifold at distance {truth}");
        let scale = 1e-9 * (1.0 + x.abs() + y.abs());
        prop_assert!((m.min_separation() - truth).abs() <= scale, "apart by {truth}, manifold says {}", m.min_separation());
        let reverse = contact_manifold(&post, &pose, &block, &pose, SPECULATIVE);
        prop_assert_eq!(reverse, m.swapped());
    }
}

proptest! {
    #![proptest_config(Config { cases: 200_000, rng_seed: RngSeed::Fixed(406), failure_persistence: None, ..Config::default() })]
    /// Configurations random ones almost never hit: features exactly aligned in the shapes'
    /// own frame (corners on corners, flush sides, collinear edges, posts on face ends), at
    /// gaps from overlap through zero to beyond the speculative distance, then turned and
    /// moved far from the origin together, where the alignment holds only to rounding. The
    /// fuzzer found two such cases (a post on a face end; earlier, a rounded corner); this
    /// asks every combination.
    #[test]
    fn exactly_aligned_features_agree_with_brute_force(
        aligned in aligned(),
        gap in prop_oneof![Just(0.0), -1e-3..1e-3f64, -1e-9..1e-9f64, 0.0..0.12f64],
        (angle, x, y) in (-3.2..3.2f64, -1e3..1e3f64, -1e3..1e3f64),
    ) {
        let (a, b, local_b) = aligned.build(gap);
        let world = Isometry::new(Vector::new(x, y), angle);
        let (pose_a, pose_b) = (world, world * local_b);
        manifold_agrees_with_brute_force(&a, &pose_a, &b, &pose_b, 1.0 + x.abs() + y.abs())?;
    }
}

proptest! {
    #![proptest_config(Config { cases: 50_000, rng_seed: RngSeed::Fixed(407), failure_persistence: None, ..Config::default() })]
    /// [`exactly_aligned_features_agree_with_brute_force`] with rounded boxes and hexagons.
    #[test]
    fn exactly_aligned_rounded_polygons_agree_with_brute_force(
        aligned in support::aligned_rounded(),
        gap in prop_oneof![Just(0.0), -1e-3..1e-3f64, -1e-9..1e-9f64, 0.0..0.12f64],
        (angle, x, y) in (-3.2..3.2f64, -1e3..1e3f64, -1e3..1e3f64),
    ) {
        let (a, b, local_b) = aligned.build(gap);
        let world = Isometry::new(Vector::new(x, y), angle);
        let (pose_a, pose_b) = (world, world * local_b);
        manifold_agrees_with_brute_force(&a, &pose_a, &b, &pose_b, 1.0 + x.abs() + y.abs())?;
    }
}

/// The three cases [`exactly_aligned_features_agree_with_brute_force`] shrank to when it
/// first ran (each fixed in the narrowphase since), pinned so that they stay fixed whatever
/// the generator's seed.
#[test]
fn aligned_features_that_once_failed() {
    use impact_geometry::{Capsule, ConvexPolygon, Point};
    let world = |angle: f64, x: f64, y: f64| Isometry::new(Vector::new(x, y), angle);
    let check = |a: &Shape, b: &Shape, local_b: Isometry, world: Isometry| {
        let scale = 1.0 + world.translation.vector.amax() * 2.0;
        manifold_agrees_with_brute_force(a, &world, b, &(world * local_b), scale)
            .unwrap_or_else(|e| panic!("{e}"));
    };
    // Two segments on one line, 0.8 mm apart end to end, turned and far out: their sides'
    // normals cannot part them, and the Minkowski difference (a sliver with no edge across
    // its ends) took the origin beyond its end for inside.
    let (half, length, gap) = (1.888004430040356, 1.354488781896879, 0.0008186998319747771);
    check(
        &Capsule::new(Point::new(-half, 0.0), Point::new(half, 0.0), 0.0)
            .unwrap()
            .into(),
        &Capsule::new(Point::origin(), Point::new(length, 0.0), 0.0)
            .unwrap()
            .into(),
        Isometry::translation(half + gap, 0.0),
        world(2.469514467308731, 571.6535287401607, 460.38266316807926),
    );
    // A post 8 cm beside a box's top corner and 2.7e-6 above its top: the post's side is
    // within 4.5e-5 rad of the normal, but the box's side does not reach along it.
    let half_x = 1.5558774160045956;
    check(
        &ConvexPolygon::rectangle(half_x, 0.001).unwrap().into(),
        &Capsule::new(Point::origin(), Point::new(0.0, 0.001), 0.0)
            .unwrap()
            .into(),
        Isometry::translation(-1.0510621725360365 * half_x, 0.001 + 2.6613794278256785e-6),
        world(0.0, 0.0, 0.0),
    );
    // A segment flush along a box's side, touching to rounding: the exact normal is noise
    // and picked the box's top face.
    let (half, size_x, size_y) = (1.495381188171515, 1.644503183780569, 1.8360582836306785);
    let block: Shape = ConvexPolygon::rectangle(size_x, size_y).unwrap().into();
    let turn = Isometry::rotation(std::f64::consts::FRAC_PI_2);
    let corner = Vector::new(half, 0.0) - (turn * block.core()[0]).coords;
    check(
        &Capsule::new(Point::new(-half, 0.0), Point::new(half, 0.0), 0.0)
            .unwrap()
            .into(),
        &block,
        Isometry::from_parts(corner.into(), turn.rotation),
        world(-1.4464675113804129, 110.33432936052263, -672.9667178738896),
    );
}
