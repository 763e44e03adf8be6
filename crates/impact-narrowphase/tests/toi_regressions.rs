//! Regressions found by the differential test against parry2d (`tests/parry_differential.rs`
//! of the workspace root); see `docs/algorithms/toi.md`, "Differential test against parry2d".

use impact_geometry::{
    Capsule, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Sweep, Vector,
};
use impact_narrowphase::{Toi, ToiOptions, distance, time_of_impact};

fn sweep(x: f64, y: f64, angle: f64, dx: f64, dy: f64) -> Sweep {
    Sweep::translating(Isometry::new(Vector::new(x, y), angle), Vector::new(dx, dy)).unwrap()
}

fn toi(a: &Shape, sa: &Sweep, b: &Shape, sb: &Sweep) -> Toi {
    time_of_impact(a, sa, b, sb, &ToiOptions::exact())
}

/// A point crossing the line of a segment far beyond its ends never touches it.
#[test]
fn point_passing_beyond_a_segment_end_is_separated() {
    let wall: Shape = Segment::new(Point::new(1.0, -1.0), Point::new(1.0, 1.0))
        .unwrap()
        .into();
    let wall_sweep = sweep(0.0, 5.0, 0.0, -2.0, 0.0);
    let still = sweep(0.0, 0.0, 0.0, 0.0, 0.0);
    for point in [
        Shape::from(Circle::new(0.0).unwrap()),
        Segment::new(Point::origin(), Point::origin())
            .unwrap()
            .into(),
        Capsule::new(Point::origin(), Point::origin(), 0.0)
            .unwrap()
            .into(),
    ] {
        assert_eq!(toi(&point, &still, &wall, &wall_sweep), Toi::Separated);
        assert_eq!(toi(&wall, &wall_sweep, &point, &still), Toi::Separated);
    }
    // Two parallel segments whose lines cross 4 units apart from each other.
    let s: Shape = Segment::new(Point::new(0.0, 0.0), Point::new(1.0, 0.0))
        .unwrap()
        .into();
    assert_eq!(
        toi(&s, &still, &s, &sweep(5.0, 1.0, 0.0, 0.0, -2.0)),
        Toi::Separated
    );
}

/// Touching to rounding at the start and approaching: the hit is at the start, not later.
#[test]
fn touching_within_rounding_and_approaching_hits_at_once() {
    let capsule: Shape = Capsule::new(
        Point::new(1.7188522914790338, -2.8719067849468325),
        Point::new(2.71009252396317, 1.188112170267523),
        1.0071410992925416,
    )
    .unwrap()
    .into();
    let polygon: Shape = ConvexPolygon::new(&[
        Point::new(-2.388163050353974, 1.95020732333119),
        Point::new(-2.341395332590899, -2.249481255965013),
        Point::new(-1.2157134565478516, -2.2683684266368878),
        Point::new(0.1534965044073413, -1.9055059762723257),
        Point::new(2.9217730737826493, 0.829903907003974),
    ])
    .unwrap()
    .into();
    let sa = sweep(
        4.596206991931595e-1,
        1.348043478925879,
        -3.0230503175280443e-1,
        0.0,
        0.0,
    );
    let sb = sweep(
        -2.401062102380296,
        -1.9864271957070063,
        0.0,
        5.80371725154866,
        5.37716402312892e-1,
    );
    // The shapes overlap right after the start.
    let later = distance(&capsule, &sa.pose_at(1e-3), &polygon, &sb.pose_at(1e-3));
    assert!(later.distance < -1e-3);
    for answer in [
        toi(&capsule, &sa, &polygon, &sb),
        toi(&polygon, &sb, &capsule, &sa).swapped(),
    ] {
        let Toi::Hit(hit) = answer else {
            panic!("expected a hit, got {answer:?}")
        };
        assert!(hit.fraction < 1e-12, "late hit at {}", hit.fraction);
    }
}

/// Circles touching to rounding at the start that slide apart: no hit later in the step.
#[test]
fn circles_touching_within_rounding_and_sliding_do_not_hit_later() {
    let a: Shape = Circle::new(0.007336862399307162).unwrap().into();
    let b: Shape = Circle::new(0.08632009389982194).unwrap().into();
    let sa = sweep(-2.4413875681138542e-1, -2.771041698303292e-1, 0.0, 0.0, 0.0);
    let sb = sweep(
        -1.6496016569148275e-1,
        -3.2712792590166245e-1,
        0.0,
        -4.099045627259759e-2,
        -6.488050542222597e-2,
    );
    match toi(&a, &sa, &b, &sb) {
        Toi::Separated => {}
        Toi::Hit(hit) => assert!(hit.fraction < 1e-12, "hit at {}", hit.fraction),
        other => panic!("unexpected {other:?}"),
    }
}

/// Two points that coincide at the start and move apart are separated in both argument
/// orders (the normal of coincident points is undefined and must not decide the answer).
/// Found by the fuzz check; its input is `fuzz/regressions/toi_closed_form/
/// coincident_points_parting_swap_symmetry`.
#[test]
fn coincident_points_parting_are_separated_in_both_orders() {
    let point: Shape = Segment::new(Point::new(-2.0, -2.0), Point::new(-2.0, -2.0))
        .unwrap()
        .into();
    let a = sweep(-6.0, -6.0, 2.28, -8.25, -12.0);
    let b = sweep(-6.0, -6.0, 2.28, -12.0, -12.0);
    assert_eq!(toi(&point, &a, &point, &b), Toi::Separated);
    assert_eq!(toi(&point, &b, &point, &a), Toi::Separated);
    // Two boxes touching face to face and pressing together do hit at once, either way.
    let block: Shape = ConvexPolygon::rectangle(1.0, 1.0).unwrap().into();
    let below = sweep(0.0, 0.0, 0.0, 0.0, 0.0);
    let above = sweep(0.3, 2.0, 0.0, 0.0, -1.0);
    assert!(matches!(toi(&block, &below, &block, &above), Toi::Hit(h) if h.fraction == 0.0));
    assert!(matches!(toi(&block, &above, &block, &below), Toi::Hit(h) if h.fraction == 0.0));
}

/// Two zero-thickness segments, exactly parallel, crossing side by side touch for an instant:
/// that contact is found in both argument orders (rounding makes their obstacle a sliver whose
/// width is rounding, and an entry just after the exit must count as a graze, not a miss).
/// Found by fuzzing; input in `fuzz/regressions/toi_closed_form/
/// parallel_segments_crossing_side_by_side`.
#[test]
fn parallel_segments_crossing_side_by_side_touch_in_both_orders() {
    let a: Shape = Segment::new(Point::new(-2.0, -2.0), Point::new(-2.0, -1.125))
        .unwrap()
        .into();
    let b: Shape = Segment::new(
        Point::new(0.04032135009765625, 0.04032135009765625),
        Point::new(0.04032135009765625, -2.0),
    )
    .unwrap()
    .into();
    let angle = 0.08064278249; // both bodies share one rotation, so the segments are parallel
    let sa = sweep(
        0.12096405029296875,
        -6.0,
        angle,
        -3.423130989074707,
        0.2419281005859375,
    );
    let sb = sweep(2.6923828125, 0.12096405029296875, angle, -12.0, -12.0);
    let forward = toi(&a, &sa, &b, &sb);
    let backward = toi(&b, &sb, &a, &sa);
    let (Toi::Hit(f), Toi::Hit(g)) = (forward, backward) else {
        panic!("the segments cross: {forward:?} / {backward:?}");
    };
    assert!((f.fraction - g.fraction).abs() < 1e-9);
}

/// Two points meeting exactly head-on touch for an instant, and conservative advancement finds
/// it as the closed form does: its bounding-circle window must not lose that zero-width graze
/// to cancellation. Found by fuzzing; input in `fuzz/regressions/conservative_advancement/
/// head_on_points_graze_window`.
#[test]
fn head_on_points_graze_is_a_hit_for_conservative_advancement() {
    use impact_narrowphase::toi_conservative_advancement;
    let point: Shape = Circle::new(0.0).unwrap().into();
    let a = sweep(-5.868907563025265, -6.0, 2.28, -12.0, -12.0);
    let b = sweep(-6.0, -6.0, 2.28, -7.496677943650866, -12.0);
    let options = ToiOptions::new(0.2, 0.0, 0.00125, 256).unwrap();
    let Toi::Hit(exact) = time_of_impact(&point, &a, &point, &b, &options) else {
        panic!("the points meet");
    };
    let Toi::Hit(ca) = toi_conservative_advancement(&point, &a, &point, &b, &options) else {
        panic!("conservative advancement missed the graze");
    };
    assert!(ca.fraction <= exact.fraction + 1e-12);
    assert!((exact.fraction - 0.131_092_436_974_735 / 4.503_322_056_349_134).abs() < 1e-9);
}

/// A 1 mm quadrilateral overlapping a zero-radius capsule along its diagonal by 0.00077,
/// less than the tolerance, and moving off it: the deepest edge of the obstacle says
/// "approach", but another edge as deep says the distance cannot fall, and it only grows over
/// the step. Both methods call the pair apart (sliding within the tolerance). Found by
/// fuzzing `conservative_advancement`; input in
/// `fuzz/regressions/conservative_advancement/crash-cf57aabe592fb72319f3d03e50f5232efaf9df22`.
#[test]
fn an_overlap_within_the_tolerance_that_only_parts_is_separated() {
    use impact_geometry::Rotation;
    use impact_narrowphase::toi_conservative_advancement;
    let square: Shape = ConvexPolygon::new(&[
        Point::new(-2.0, -2.0),
        Point::new(-1.998_910_189_075_630_2, -2.0),
        Point::new(-1.998_885_296_306_250_7, -1.998_910_189_075_630_2),
        Point::new(-2.0, -1.998_910_189_075_630_2),
    ])
    .unwrap()
    .into();
    let diagonal: Shape = Capsule::new(
        Point::new(-1.998_910_189_075_630_2, -1.998_910_189_075_630_2),
        Point::new(-2.0, -2.0),
        0.0,
    )
    .unwrap()
    .into();
    let rotation =
        Rotation::from_cos_sin_unchecked(-0.653_643_620_863_611_9, 0.756_802_495_307_928_2);
    let pose = Isometry::from_parts(Vector::new(-6.0, -6.0).into(), rotation);
    let sa = Sweep::translating(pose, Vector::new(-11.993_311_777_837_505, -12.0)).unwrap();
    let sb = Sweep::translating(
        pose,
        Vector::new(-11.993_461_134_453_781, -11.993_461_134_453_781),
    )
    .unwrap();
    let options = ToiOptions::new(1.0, 0.000_013_622_636_554_621_85, 0.00125, 256).unwrap();
    let start = distance(&square, &sa.start(), &diagonal, &sb.start()).distance;
    assert!(start < 0.0 && start > -options.tolerance(), "{start}");
    for k in 1..=100 {
        let t = Real::from(k) / 100.0;
        let d = distance(&square, &sa.pose_at(t), &diagonal, &sb.pose_at(t)).distance;
        assert!(d >= start, "the pair closes at {t}: {d}");
    }
    assert_eq!(
        time_of_impact(&square, &sa, &diagonal, &sb, &options),
        Toi::Separated
    );
    assert_eq!(
        toi_conservative_advancement(&square, &sa, &diagonal, &sb, &options),
        Toi::Separated
    );
}

/// Two zero-thickness segments in an L, meeting end to end for an instant (a graze through a
/// sharp corner of the obstacle at target separation zero): a hit in one argument order, and
/// "separated" in the other, where rounding put the fast path's entry after its exit. Such a
/// graze goes to the exact path in either order, which calls it a hit. Found by fuzzing
/// `toi_closed_form`; input in
/// `fuzz/regressions/toi_closed_form/segments_in_an_l_grazing_end_to_end`.
#[test]
fn segments_grazing_end_to_end_hit_in_either_order() {
    use impact_geometry::Rotation;
    let upright: Shape = Segment::new(
        Point::new(-2.0, -2.0),
        Point::new(-2.0, 0.308_142_944_122_664_63),
    )
    .unwrap()
    .into();
    let flat: Shape = Segment::new(
        Point::new(0.290_196_230_164_415_4, -2.0),
        Point::new(-2.0, -2.0),
    )
    .unwrap()
    .into();
    let rotation =
        Rotation::from_cos_sin_unchecked(-0.653_643_620_863_611_9, 0.756_802_495_307_928_2);
    let at = |x: Real| Isometry::from_parts(Vector::new(x, -6.0).into(), rotation);
    let sa = Sweep::translating(
        at(-0.063_865_547_762_361_53),
        Vector::new(-4.149_570_024_339_482, -12.0),
    )
    .unwrap();
    let sb = Sweep::translating(at(0.924_428_832_367_993_9), Vector::new(-12.0, -12.0)).unwrap();
    let options = ToiOptions::new(0.2, 0.0, 0.00125, 256).unwrap();
    let (Toi::Hit(one), Toi::Hit(other)) = (
        time_of_impact(&upright, &sa, &flat, &sb, &options),
        time_of_impact(&flat, &sb, &upright, &sa, &options),
    ) else {
        panic!("a graze is a hit in both orders");
    };
    assert!(
        (one.fraction - 0.125_890_477_743_826).abs() < 1e-9,
        "{one:?}"
    );
    assert!(
        (one.fraction - other.fraction).abs() < 1e-12,
        "{one:?} {other:?}"
    );
    let gap = distance(
        &upright,
        &sa.pose_at(one.fraction),
        &flat,
        &sb.pose_at(one.fraction),
    )
    .distance;
    assert!(gap.abs() < 1e-9, "{gap}");
}

/// A 2 mm box falling past another's side, 4e-10 beside it and drifting in by 4.7e-10 over
/// the step, reaches the other's top corner at the moment its gap closes, to 7e-14 (found by
/// the aligned-features test at target separation zero). Both orders find the side contact:
/// one order's entry lay on the two boxes' merged side faces, beyond the edge its support
/// vertex sees, and was answered by the exact path's allowance at the corner, 7.6e-5 earlier
/// and through the top face.
#[test]
fn a_box_falling_flush_past_a_corner_hits_the_side_in_both_orders() {
    let square: Shape = ConvexPolygon::rectangle(0.001, 0.001).unwrap().into();
    let still = Sweep::translating(
        Isometry::new(Vector::new(792.959_406_847_898_9, 0.0), 0.0),
        Vector::zeros(),
    )
    .unwrap();
    let falling = Sweep::translating(
        Isometry::new(
            Vector::new(792.961_406_848_294_7, 1.793_171_701_256_004_7),
            0.0,
        ),
        Vector::new(-4.693_849_813_858_737e-10, -2.124_313_992_453_316),
    )
    .unwrap();
    let (Toi::Hit(one), Toi::Hit(other)) = (
        toi(&square, &still, &square, &falling),
        toi(&square, &falling, &square, &still),
    ) else {
        panic!("the boxes meet");
    };
    assert_eq!(one.fraction, other.fraction, "{one:?} {other:?}");
    assert_eq!(one.normal, Vector::x(), "{one:?}");
    assert_eq!(other.normal, -Vector::x(), "{other:?}");
    assert!(
        (one.point - other.point).norm() < 1e-12,
        "{one:?} {other:?}"
    );
}

/// Two hexagons whose facing sides lie on one line and meet only at a corner each (the
/// aligned generator's corner to corner, far from the origin). With the merged faces of the
/// test above, both orders are answered by the fast path, to the same bit (the exact path
/// answered one of them, 1 ulp later). In the order whose entry edge is the smaller
/// hexagon's, the meeting corners lie beyond that edge's end: the point is the larger
/// hexagon's corner, not the edge's end (a first version of the merged faces took the end,
/// 1.8 away).
#[test]
fn hexagons_meeting_corner_to_corner_along_one_line_agree_on_the_point() {
    let small: Shape = ConvexPolygon::regular(6, 0.895_478_504_062_152_5)
        .unwrap()
        .into();
    let large: Shape = ConvexPolygon::regular(6, 1.803_449_822_523_843_6)
        .unwrap()
        .into();
    let rotation = impact_geometry::Rotation::from_cos_sin_unchecked(
        -0.999_112_275_267_620_1,
        -0.042_126_730_344_986_53,
    );
    let at = |x: Real, y: Real| Isometry::from_parts(Vector::new(x, y).into(), rotation);
    let sa = Sweep::translating(
        at(-535.447_251_487_891_1, -959.356_765_519_847_6),
        Vector::zeros(),
    )
    .unwrap();
    let sb = Sweep::translating(
        at(-533.988_719_073_854_9, -961.915_081_215_457),
        Vector::new(-0.011_765_204_639_591_543, 0.279_033_295_016_934_36),
    )
    .unwrap();
    let options = ToiOptions::default();
    let (Toi::Hit(one), Toi::Hit(other)) = (
        time_of_impact(&small, &sa, &large, &sb, &options),
        time_of_impact(&large, &sb, &small, &sa, &options),
    ) else {
        panic!("the hexagons meet");
    };
    assert_eq!(one.fraction, other.fraction, "{one:?} {other:?}");
    assert!((one.point - other.point).norm() < 1e-9, "{one:?} {other:?}");
    // Where the corners meet: within the target of both hexagons.
    let corner = |shape: &Shape, sweep: &Sweep| {
        let pose = sweep.pose_at(one.fraction);
        shape
            .core()
            .iter()
            .map(|v| (pose * v - one.point).norm())
            .fold(Real::INFINITY, Real::min)
    };
    assert!(corner(&small, &sa) < 0.01, "{one:?}");
    assert!(corner(&large, &sb) < 0.01, "{one:?}");
}
