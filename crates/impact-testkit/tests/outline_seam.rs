//! The ghost collisions of impact issue 29 at the seams of a concave outline, end to end: a
//! static body of an outline's convex pieces ([`RigidBodyDef::from_outline`]), and a disc or
//! a box sliding along its flat top at 1 to 100 units/s with no gravity, friction or
//! restitution, in either direction, resting exactly on it or 4 mm into it, under every
//! stepper. The tops are an L, a U and a comb upside down and outlines under a flat top
//! (`outlines::flat_tops`), bare (the pieces meet the top at its two ends) and dented by a
//! hair (reflex vertices along it, where the pieces must meet). The slider crosses every seam
//! with a vertical speed below 1e-6, its horizontal speed unchanged to 1e-9 of itself and,
//! for the box, no spin; with gravity it stays within the linear slop of its resting height.
//! The pieces without their seams (plain polygons) catch the slider at the seams.
//!
//! A dented top is not flat: its faces tilt by up to a few millionths, rising to its ends.
//! A slider placed on it touches its two ends; between them it passes within the speculative
//! distance of every seam (where the plain pieces catch it) and nothing touches it, and at
//! the far end it meets the faces rising to the corner, which lift it by its speed times
//! their tilt. (Pushed out of an overlap with faces that tilt by so little, the solver leaves
//! a vertical speed of about 1e-5, as it does over a chain along the same polyline: the
//! bare tops are the ones sunk into.)
//!
//! Also: a box inside an outline (in a piece, or deep across a diagonal) is pushed out under
//! `Discrete`, and under the CCD steppers wherever the plain pieces push it out; bullets at up
//! to 10,000 units/s shot at an outline's first piece never pass through that piece up to the
//! step they hit in (the CCD steppers ask a body's first shape only, for now: the shots are
//! those whose first contact with the filled outline is on that piece, and only it is
//! judged, since a bullet that slides off it into another piece passes through that one).

use impact_broadphase::RTreeBroadphase;
use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{
    Circle, ConcaveOutline, ConvexPolygon, Isometry, Point, Real, Shape, Sweep, Vector,
};
use impact_narrowphase::{Toi, ToiOptions, distance, time_of_impact};
use impact_solver::{BodyType, RigidBodyDef, ShapeDef};
use impact_stepper::judge::{Course, PassThroughJudge, TurnRecorder};
use impact_stepper::{
    Discrete, FirstTimeOfImpact, MotionClamping, NoHook, Stepper, World, WorldSettings,
};
use impact_testkit::SplitMix64;
use impact_testkit::outlines::{self, FlatTop, flat_tops};

const DT: Real = 1.0 / 60.0;

/// How deep the dents of the dented tops are: their faces tilt by up to a few millionths.
const DEPTH: Real = 1e-6;

/// The static body of `outline`'s pieces, frictionless; with `seams` false, the same pieces
/// as plain polygons (which know nothing of each other).
fn outline_body(outline: &[Point], seams: bool) -> RigidBodyDef {
    let shape = ConcaveOutline::new(outline).unwrap();
    let mut def = RigidBodyDef::from_outline(&shape)
        .body_type(BodyType::Static)
        .friction(0.0);
    if !seams {
        let plain = |s: &Shape| match s {
            Shape::Polygon(p) => Shape::from(ConvexPolygon::new(p.vertices()).unwrap()),
            other => other.clone(),
        };
        def.shape = plain(&def.shape);
        for extra in &mut def.shapes {
            *extra = ShapeDef::new(plain(&extra.shape));
        }
    }
    for extra in &mut def.shapes {
        extra.friction = 0.0;
    }
    def
}

/// The sliders: a disc and a box, each with its lowest point `lift` below its centre and
/// `half` its half extent along x.
fn sliders() -> [(Shape, Real, Real); 2] {
    [
        (Circle::new(0.5).unwrap().into(), 0.5, 0.0),
        (ConvexPolygon::rectangle(0.3, 0.5).unwrap().into(), 0.5, 0.3),
    ]
}

/// How a slide strayed from a free one.
#[derive(Debug, Default, Clone, Copy)]
struct Stray {
    /// The largest vertical speed.
    vertical: Real,
    /// The largest change of horizontal speed, relative to it.
    horizontal: Real,
    /// The largest spin.
    spin: Real,
    /// The largest distance of the centre from its height at rest on the top (`lift`).
    height: Real,
}

/// Slides `slider` along `top` at `speed` in `direction` (+1 or -1) from one end of the top
/// to the other, its lowest point `sink` into y = 0, under stepper `S` with `gravity`.
fn slide<S: Stepper + Default>(
    top: &FlatTop,
    (shape, lift, half): &(Shape, Real, Real),
    seams: bool,
    direction: Real,
    speed: Real,
    sink: Real,
    gravity: Real,
) -> Stray {
    let settings = WorldSettings::with_gravity(Vector::new(0.0, -gravity));
    let mut world = World::<RTreeBroadphase, S>::new(settings).unwrap();
    world
        .create_body(outline_body(&top.outline, seams))
        .unwrap();
    let (first, last) = (*half, top.width - half);
    let x0 = if direction > 0.0 { first } else { last };
    let v = speed * direction;
    let body = world
        .create_body(
            RigidBodyDef::new(shape.clone())
                .ccd(true)
                .friction(0.0)
                .restitution(0.0)
                .pose(Isometry::translation(x0, lift - sink))
                .linvel(Vector::new(v, 0.0)),
        )
        .unwrap();
    let steps = ((last - first) / (speed * DT)).floor() as usize;
    let mut stray = Stray::default();
    for _ in 0..steps.min(600) {
        world.step(DT).unwrap();
        let b = world.body(body).unwrap();
        stray.vertical = stray.vertical.max(b.linvel().y.abs());
        stray.horizontal = stray.horizontal.max((b.linvel().x - v).abs() / speed);
        stray.spin = stray.spin.max(b.angvel().abs());
        stray.height = stray.height.max((b.pose().translation.y - lift).abs());
    }
    stray
}

/// The largest tilt of the faces of `top` from the horizontal (the sine): zero on a bare top.
fn tilt(top: &FlatTop) -> Real {
    let n = top.outline.len();
    (0..n)
        .map(|i| (top.outline[i], top.outline[(i + 1) % n]))
        .filter(|(a, b)| a.y.abs() <= 2.0 * top.depth && b.y.abs() <= 2.0 * top.depth)
        .map(|(a, b)| ((b.y - a.y) / (b - a).norm()).abs())
        .fold(0.0, Real::max)
}

/// The speeds slid at.
const SPEEDS: [Real; 4] = [1.0, 7.0, 30.0, 100.0];

fn check_slides<S: Stepper + Default>(name: &str) {
    let mut rng = SplitMix64::new(0x5ea3_0101);
    let tops = flat_tops(&mut rng, DEPTH);
    let (mut caught, mut plains, mut runs) = (0usize, 0usize, 0usize);
    for top in &tops {
        for slider in &sliders() {
            for direction in [1.0, -1.0] {
                for speed in SPEEDS {
                    // Into a dented top, a slider would be pushed out onto faces that are
                    // not flat (see the module docs): only bare tops are sunk into.
                    let sinks: &[Real] = if top.depth > 0.0 {
                        &[0.0]
                    } else {
                        &[0.0, 0.004]
                    };
                    for &sink in sinks {
                        let s = slide::<S>(top, slider, true, direction, speed, sink, 0.0);
                        // Reaching the end of a dented top, a slider meets its faces rising
                        // to the end's corner (the highest point): the surface's own slope.
                        let follows = speed * tilt(top);
                        assert!(
                            s.vertical < 1e-6 + follows
                                && s.horizontal <= 1e-9
                                && s.spin < 1e-6 + 4.0 * follows,
                            "{name}: {:?} at {speed} units/s, direction {direction}, sink {sink}: {s:?}\noutline {:?}",
                            slider.0,
                            top.outline
                        );
                        runs += 1;
                    }
                    // The plain pieces: the seams catch it (a kick, or it is stopped).
                    let plain = slide::<S>(top, slider, false, direction, speed, 0.004, 0.0);
                    caught += usize::from(plain.vertical > 1e-3 || plain.horizontal > 1e-3);
                    plains += 1;
                }
            }
        }
    }
    assert!(runs >= 200, "{runs} slides");
    assert!(
        caught * 4 > plains,
        "{name}: the plain pieces caught only {caught} of {plains} slides: the seams untested"
    );
}

#[test]
fn a_disc_and_a_box_cross_the_seams_freely_under_discrete() {
    check_slides::<Discrete>("Discrete");
}

#[test]
fn a_disc_and_a_box_cross_the_seams_freely_under_motion_clamping() {
    check_slides::<MotionClamping>("MotionClamping");
}

#[test]
fn a_disc_and_a_box_cross_the_seams_freely_under_first_time_of_impact() {
    check_slides::<FirstTimeOfImpact>("FirstTimeOfImpact");
}

fn check_resting<S: Stepper + Default>(name: &str) {
    let mut rng = SplitMix64::new(0x5ea3_0102);
    for top in &flat_tops(&mut rng, DEPTH) {
        for slider in &sliders() {
            for direction in [1.0, -1.0] {
                for speed in [1.0, 30.0] {
                    let s = slide::<S>(top, slider, true, direction, speed, 0.0, 9.81);
                    assert!(
                        s.height <= LINEAR_SLOP + top.depth,
                        "{name}: {:?} at {speed} units/s, direction {direction}: {s:?}\noutline {:?}",
                        slider.0,
                        top.outline
                    );
                }
            }
        }
    }
}

#[test]
fn with_gravity_a_slider_stays_within_the_slop_of_its_rest_under_every_stepper() {
    check_resting::<Discrete>("Discrete");
    check_resting::<MotionClamping>("MotionClamping");
    check_resting::<FirstTimeOfImpact>("FirstTimeOfImpact");
}

// ---------------------------------------------------------------------------------------
// Deep overlaps.

/// The deepest overlap of `shape` at `pose` with the pieces (a positive number when it
/// overlaps).
fn overlap(pieces: &[Shape], shape: &Shape, pose: &Isometry) -> Real {
    pieces
        .iter()
        .map(|p| -distance(shape, pose, p, &Isometry::identity()).distance)
        .fold(Real::NEG_INFINITY, Real::max)
}

/// Places a box inside outlines, at the middle of every diagonal (a box of half size 0.15,
/// across two pieces) if `across`, else at the centre of every piece (a box of half size
/// 0.05, inside one), and runs stepper `S` for 4 s with the outline's pieces (with their
/// seams if `seams`). Returns, per placement, where it was put and how deep it is left.
fn expel<S: Stepper + Default>(across: bool, seams: bool) -> Vec<(Point, Real)> {
    let mut rng = SplitMix64::new(0x5ea3_0103);
    let outlines = [
        outlines::ell(3.0, 1.0),
        outlines::you(4.0, 3.0, 1.0),
        outlines::comb(&mut rng, 4, Vector::zeros(), 4.0),
    ];
    let half = if across { 0.15 } else { 0.05 };
    let block = Shape::from(ConvexPolygon::rectangle(half, half).unwrap());
    let mut left = Vec::new();
    for outline in &outlines {
        let shape = ConcaveOutline::new(outline).unwrap();
        let pieces: Vec<Shape> = shape.convex_pieces().into_iter().map(Shape::from).collect();
        let mut spots: Vec<Point> = Vec::new();
        for piece in &pieces {
            let Shape::Polygon(p) = piece else {
                unreachable!()
            };
            let m = p.vertices().len();
            if across {
                for seam in p.seams() {
                    let (a, b) = (p.vertices()[seam.edge], p.vertices()[(seam.edge + 1) % m]);
                    spots.push(Point::from((a.coords + b.coords) * 0.5));
                }
            } else {
                let centre = p.vertices().iter().map(|v| v.coords).sum::<Vector>() / m as Real;
                spots.push(Point::from(centre));
            }
        }
        for spot in spots {
            let start = Isometry::translation(spot.x, spot.y);
            if overlap(&pieces, &block, &start) <= 0.0 {
                continue;
            }
            // Sleeping off: a box pushed out slower than its sleep threshold would fall
            // asleep part of the way out, and this checks the push.
            let settings = WorldSettings {
                sleeping: false,
                ..WorldSettings::with_gravity(Vector::zeros())
            };
            let mut world = World::<RTreeBroadphase, S>::new(settings).unwrap();
            world.create_body(outline_body(outline, seams)).unwrap();
            let body = world
                .create_body(RigidBodyDef::new(block.clone()).ccd(true).pose(start))
                .unwrap();
            for _ in 0..240 {
                world.step(DT).unwrap();
            }
            let pose = *world.body(body).unwrap().pose();
            left.push((spot, overlap(&pieces, &block, &pose)));
        }
    }
    left
}

/// Checks that every box `expel` places is pushed out under `S`, or, with `as_plain`, every
/// box the plain pieces push out.
fn check_expelled<S: Stepper + Default>(name: &str, across: bool, as_plain: bool) {
    let ours = expel::<S>(across, true);
    let plain = if as_plain {
        expel::<S>(across, false)
    } else {
        Vec::new()
    };
    assert!(ours.len() > 10, "{} boxes placed inside", ours.len());
    for (k, &(spot, left)) in ours.iter().enumerate() {
        let required = !as_plain || plain[k].1 <= 2.0 * LINEAR_SLOP;
        assert!(
            !required || left <= 2.0 * LINEAR_SLOP,
            "{name}: a box placed at {spot:?} is still {left} deep"
        );
    }
}

#[test]
fn a_box_inside_an_outline_is_pushed_out() {
    // Under the CCD steppers a box placed deep in a body of several pieces may be held where
    // it is by the steppers' sweeps (the plain pieces leave some such boxes inside under
    // every stepper): there, every box the plain pieces push out must be pushed out.
    for across in [false, true] {
        check_expelled::<Discrete>("Discrete", across, false);
        check_expelled::<MotionClamping>("MotionClamping", across, true);
        check_expelled::<FirstTimeOfImpact>("FirstTimeOfImpact", across, true);
    }
}

// ---------------------------------------------------------------------------------------
// Bullets.

/// Shoots bullets at the first piece of outlines under stepper `S` and checks that none
/// passes through the outline up to the end of the step it hits in. Returns how many hit.
fn check_bullets<S: Stepper + Default>(name: &str, count: usize, seed: u64) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut all = vec![outlines::ell(3.0, 1.0), outlines::you(4.0, 3.0, 0.8)];
    for _ in 0..3 {
        let c = Vector::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
        all.push(outlines::comb(&mut rng, 4, c, 4.0));
        all.push(outlines::star(&mut rng, 12, c, 3.0));
        let top = outlines::under_flat_top(&mut rng, 4.0, 6);
        let edge = top.len() - 1;
        all.push(outlines::dented(&mut rng, &top, edge, 2, 1e-5));
    }
    let options = ToiOptions::default();
    let still = Sweep::stationary(Isometry::identity()).unwrap();
    let (mut shots, mut hits) = (0, 0);
    while shots < count {
        let outline = &all[rng.below(all.len())];
        let shape = ConcaveOutline::new(outline).unwrap();
        let vertices = shape.vertices().to_vec();
        let pieces: Vec<Shape> = shape.convex_pieces().into_iter().map(Shape::from).collect();
        let shot = outlines::shot_at(&mut rng, &vertices, false);
        let bullet: Shape = match rng.below(2) {
            0 => Circle::new(rng.range(0.02, 0.1)).unwrap().into(),
            _ => ConvexPolygon::rectangle(rng.range(0.02, 0.1), rng.range(0.02, 0.1))
                .unwrap()
                .into(),
        };
        let start = shot.sweep.start();
        let centre = start * shot.sweep.local_center();
        let from = Isometry::translation(centre.x, centre.y);
        let velocity = shot.sweep.linvel() / DT;
        // Clear of the outline at the start, and first meeting it on the first piece.
        let sweep = Sweep::translating(from, velocity * DT * 3.0).unwrap();
        if pieces
            .iter()
            .any(|p| distance(&bullet, &from, p, &Isometry::identity()).distance <= 0.01)
        {
            continue;
        }
        let first = pieces
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let plain = match p {
                    Shape::Polygon(q) => Shape::from(ConvexPolygon::new(q.vertices()).unwrap()),
                    other => other.clone(),
                };
                match time_of_impact(&bullet, &sweep, &plain, &still, &options) {
                    Toi::Hit(h) => Some((h.fraction, i)),
                    _ => None,
                }
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if first.is_none_or(|(_, i)| i != 0) {
            continue;
        }
        shots += 1;
        // The first piece only: the others are not asked for times of impact yet, and a
        // bullet that slides off the first into another passes through it.
        let origin = Isometry::identity();
        let judge = PassThroughJudge::new([(&pieces[0], &origin)]);
        let mut world =
            World::<RTreeBroadphase, S>::new(WorldSettings::with_gravity(Vector::zeros())).unwrap();
        world.create_body(outline_body(outline, true)).unwrap();
        let body = world
            .create_body(
                RigidBodyDef::new(bullet.clone())
                    .ccd(true)
                    .friction(0.0)
                    .restitution(0.0)
                    .pose(from)
                    .linvel(velocity),
            )
            .unwrap();
        let mut hook = TurnRecorder::new(NoHook);
        let (mut before, mut at) = (centre, centre);
        let mut speed = velocity.norm();
        for step in 0..3 {
            world.step_with(DT, &mut hook).unwrap();
            let b = world.body(body).unwrap();
            let to = Point::from(b.pose().translation.vector);
            let turns: Vec<Point> = hook
                .turns(world.events())
                .into_iter()
                .filter(|(h, _)| *h == body)
                .map(|(_, p)| p)
                .collect();
            let course = Course {
                before,
                from: at,
                to,
                reach: DT * speed.max(b.linvel().norm()),
                turns: &turns,
            };
            let passage = judge.judge(&course);
            assert!(
                passage.is_none(),
                "{name}: through the outline at step {step}: {passage:?}, {bullet:?} from {from:?} at {velocity:?}\noutline {outline:?}"
            );
            hook.clear();
            let hit = !world.events().is_empty();
            (before, at, speed) = (at, to, b.linvel().norm());
            if hit {
                hits += 1;
                break;
            }
        }
    }
    hits
}

#[test]
fn bullets_at_an_outline_never_pass_through_under_the_ccd_steppers() {
    let hits = check_bullets::<FirstTimeOfImpact>("FirstTimeOfImpact", 400, 0x5ea3_0104);
    assert!(hits > 100, "FirstTimeOfImpact: {hits} hits");
    let hits = check_bullets::<MotionClamping>("MotionClamping", 400, 0x5ea3_0105);
    assert!(hits > 100, "MotionClamping: {hits} hits");
}
