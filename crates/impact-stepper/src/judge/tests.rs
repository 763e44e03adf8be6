//! The judge's rule on hand-placed courses: crossings, ends that can and cannot be gone
//! round, lost bodies, bodies that end inside, and the first obstacle along the path.

use super::*;
use impact_geometry::{Circle, ConvexPolygon, Segment};

fn p(x: Real, y: Real) -> Point {
    Point::new(x, y)
}

fn segment(a: Point, b: Point) -> Shape {
    Segment::new(a, b).unwrap().into()
}

fn judge_of(shapes: &[Shape]) -> PassThroughJudge {
    let identity = Isometry::identity();
    PassThroughJudge::new(shapes.iter().map(|s| (s, &identity)))
}

/// A straight course from `from` to `to`, first observed at `from`.
fn course(from: Point, to: Point) -> Course<'static> {
    Course {
        before: from,
        from,
        to,
        reach: 0.0,
        turns: &[],
    }
}

#[test]
fn a_crossing_counts_and_a_path_round_an_open_end_does_not() {
    let judge = judge_of(&[segment(p(-1.0, 0.0), p(1.0, 0.0))]);
    assert_eq!(
        judge.judge(&course(p(0.0, 0.5), p(0.0, -0.5))),
        Some(Passage::Crossed(0))
    );
    // 0.1 from the end: a body whose last step was 3 units long could have gone round it.
    let long = Course {
        before: p(0.9, 3.5),
        ..course(p(0.9, 0.5), p(0.9, -0.5))
    };
    assert_eq!(judge.judge(&long), None);
    // The same crossing by a body whose speed allows the same 3 units.
    let fast = Course {
        reach: 3.0,
        ..course(p(0.9, 0.5), p(0.9, -0.5))
    };
    assert_eq!(judge.judge(&fast), None);
    // By a body whose steps are short, it counts.
    assert_eq!(
        judge.judge(&course(p(0.9, 0.5), p(0.9, -0.5))),
        Some(Passage::Crossed(0))
    );
    // Missing the segment, or only reaching it, is not a crossing.
    assert_eq!(judge.judge(&course(p(1.5, 0.5), p(1.5, -0.5))), None);
    assert_eq!(judge.judge(&course(p(0.0, 0.5), p(0.0, 0.0))), None);
}

#[test]
fn no_path_goes_round_an_end_another_line_closes() {
    let long = |from, to| Course {
        before: p(-0.05, 5.0),
        ..course(from, to)
    };
    // Two collinear segments end to end: going round their shared end crosses the other.
    let collinear = judge_of(&[
        segment(p(-5.0, 0.0), p(0.0, 0.0)),
        segment(p(0.0, 0.0), p(5.0, 0.0)),
    ]);
    assert_eq!(
        collinear.judge(&long(p(-0.05, 0.5), p(-0.05, -0.5))),
        Some(Passage::Crossed(0))
    );
    // A floor and a wall meeting at a corner, a body inside: it cannot go round the corner
    // without crossing the wall.
    let corner = judge_of(&[
        segment(p(-5.0, 0.0), p(0.0, 0.0)),
        segment(p(0.0, 0.0), p(0.0, 5.0)),
    ]);
    assert_eq!(
        corner.judge(&long(p(-0.05, 0.5), p(-0.05, -0.5))),
        Some(Passage::Crossed(0))
    );
    // The same corner seen from outside, where the wall is not in the way: a body going
    // round the corner from below the floor to the left of the wall has a chord through
    // both, and a path long enough to have gone round.
    let (from, to) = (p(1.0, -0.05), p(-0.05, 1.0));
    let round = Course {
        reach: 2.2,
        ..course(from, to)
    };
    let l_shape = judge_of(&[
        segment(p(0.0, 0.0), p(5.0, 0.0)),
        segment(p(0.0, 0.0), p(0.0, 5.0)),
    ]);
    assert_eq!(l_shape.judge(&round), None);
    assert_eq!(
        l_shape.judge(&course(from, to)),
        Some(Passage::Crossed(0)),
        "a path as short as the chord cannot have gone round"
    );
}

#[test]
fn a_body_rounding_the_corner_of_a_box_is_judged_on_its_path_length() {
    // A unit box: a body beside its right face goes round its top right corner to above
    // its top face; its chord cuts the corner, through both faces near the corner.
    let square: Shape = ConvexPolygon::rectangle(0.5, 0.5).unwrap().into();
    let judge = judge_of(&[square]);
    let (from, to) = (p(0.6, 0.2), p(0.2, 0.6));
    let round = Course {
        reach: 1.0,
        ..course(from, to)
    };
    assert_eq!(judge.judge(&round), None);
    // Straight through the middle it counts, whatever the path's length.
    let through = Course {
        reach: 1.0,
        ..course(p(-0.7, 0.0), p(0.7, 0.0))
    };
    assert_eq!(judge.judge(&through), Some(Passage::Crossed(0)));
}

#[test]
fn a_lost_body_and_a_body_that_ends_inside_count() {
    let square: Shape = ConvexPolygon::rectangle(0.5, 0.5).unwrap().into();
    let rock: Shape = Circle::with_center(p(0.0, 10.0), 2.0).unwrap().into();
    let judge = judge_of(&[square, rock]);
    assert_eq!(
        judge.judge(&course(p(2.0, 0.0), p(Real::NAN, 0.0))),
        Some(Passage::Lost)
    );
    // Into the box through its top edge: a crossing.
    assert_eq!(
        judge.judge(&course(p(0.0, 0.6), p(0.0, 0.3))),
        Some(Passage::Crossed(0))
    );
    // Into the rock, short of its middle: nothing crossed, but it ended inside...
    assert_eq!(
        judge.judge(&course(p(0.0, 13.0), p(0.0, 11.5))),
        Some(Passage::EndedInside(1))
    );
    // ...and staying inside is not news.
    assert_eq!(judge.judge(&course(p(0.0, 11.5), p(0.1, 11.5))), None);
}

#[test]
fn a_path_with_turns_is_judged_leg_by_leg_and_the_first_obstacle_is_reported() {
    let judge = judge_of(&[
        segment(p(-1.0, -1.0), p(1.0, -1.0)),
        segment(p(-1.0, 0.0), p(1.0, 0.0)),
    ]);
    // Down through both: the upper one, met first, is reported.
    assert_eq!(
        judge.judge(&course(p(0.0, 0.5), p(0.0, -1.5))),
        Some(Passage::Crossed(1))
    );
    // Down through the upper one and back: the chord crosses nothing, the legs do.
    let back = Course {
        turns: &[p(0.0, -0.5)],
        ..course(p(0.0, 0.5), p(0.1, 0.5))
    };
    assert_eq!(judge.judge(&course(back.from, back.to)), None);
    assert_eq!(judge.judge(&back), Some(Passage::Crossed(1)));
}

#[test]
fn sensors_are_neither_obstacles_nor_judged() {
    use impact_solver::{BodySet, RigidBodyDef};
    let mut bodies = BodySet::new();
    let wall = |x: Real| segment(p(x, -1.0), p(x, 1.0));
    bodies
        .insert(RigidBodyDef::fixed(wall(1.0)).sensor(true))
        .unwrap();
    bodies.insert(RigidBodyDef::fixed(wall(3.0))).unwrap();
    let disc = || RigidBodyDef::new(Circle::new(0.1).unwrap().into());
    let body = bodies.insert(disc()).unwrap();
    let sensor = bodies.insert(disc().sensor(true)).unwrap();
    let mut detector = PassThroughDetector::new(&bodies);
    // Both move past the sensor wall: nothing found.
    for h in [body, sensor] {
        bodies
            .get_mut(h)
            .unwrap()
            .set_pose(Isometry::translation(2.0, 0.0))
            .unwrap();
    }
    assert_eq!(detector.observe(&bodies, 1), 0);
    // Both move past the wall: the body is found, the sensor is not judged.
    for h in [body, sensor] {
        bodies
            .get_mut(h)
            .unwrap()
            .set_pose(Isometry::translation(4.0, 0.0))
            .unwrap();
    }
    assert_eq!(detector.observe(&bodies, 2), 1);
    assert_eq!(detector.found()[0].body, body);
}

#[test]
fn a_body_ends_inside_a_rounded_polygon_within_its_rounding() {
    // A 2 x 2 box rounded by 0.5: its outline reaches 1.5 along each axis, and round the
    // corner (1, 1) by 0.5.
    let rounded: Shape = ConvexPolygon::rectangle(1.0, 1.0)
        .unwrap()
        .with_radius(0.5)
        .unwrap()
        .into();
    let judge = judge_of(&[rounded]);
    // Into the band beside a face, deeper than the slop: inside.
    assert_eq!(
        judge.judge(&course(p(3.0, 0.2), p(1.3, 0.2))),
        Some(Passage::EndedInside(0))
    );
    // Within the slop of the outline: not inside.
    assert_eq!(judge.judge(&course(p(3.0, 0.2), p(1.5, 0.2))), None);
    // Near the corner: inside the round, and beyond it though within the sharp box of the
    // outline.
    let round = 1.0 + 0.4 * core::f64::consts::FRAC_1_SQRT_2;
    assert_eq!(
        judge.judge(&course(p(3.0, 3.0), p(round, round))),
        Some(Passage::EndedInside(0))
    );
    assert_eq!(judge.judge(&course(p(3.0, 3.0), p(1.45, 1.45))), None);
    // Through the core's edge: a crossing, as for a sharp polygon.
    assert_eq!(
        judge.judge(&course(p(3.0, 0.2), p(0.0, 0.2))),
        Some(Passage::Crossed(0))
    );
}
