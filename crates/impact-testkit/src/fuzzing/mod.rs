//! Structured fuzz inputs and the invariants every fuzz target asserts.
//!
//! The fuzz targets in `fuzz/` and the replay tests of `fuzz/regressions/` call these same
//! functions on the same bytes, so a minimised crash replays exactly in an ordinary test.
//! Each narrowphase check panics, naming the broken invariant, when the narrowphase
//! misbehaves: a panic inside the library, a NaN in an answer, a time of impact later than
//! the true first contact, a hit that is not at the target separation, or answers that
//! disagree. [`check_scene_loader`] (feature `scene`) does the same for scene and query
//! files.

use crate::audit::first_contact_by_sampling;
use arbitrary::{Arbitrary, Unstructured};
use impact_geometry::{
    Capsule, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Sweep, Vector,
};
use impact_narrowphase::{
    GjkCache, Toi, ToiMethod, ToiOptions, closed_form_toi, contact_manifold,
    contact_manifold_on_side, distance, gjk_distance, time_of_impact_with,
};

#[cfg(feature = "scene")]
mod scene;
#[cfg(feature = "scene")]
pub use scene::check_scene_loader;

/// A number from the fuzzer, mapped into `[lo, hi]` (NaN and infinities included, so the
/// mapping never fails).
fn bounded(x: Real, lo: Real, hi: Real) -> Real {
    if !x.is_finite() {
        return lo;
    }
    let unit = (x.abs().fract() + (x.abs() / 7.0).fract()) * 0.5;
    lo + (hi - lo) * unit
}

/// A shape as the fuzzer describes it: raw numbers, first handed to the constructors as they
/// are (they must refuse bad ones without panicking), then mapped to a valid shape.
#[derive(Debug, Clone, Arbitrary)]
pub struct ShapeInput {
    kind: u8,
    a: (Real, Real),
    b: (Real, Real),
    radius: Real,
    sides: u8,
    extra: Vec<(Real, Real)>,
}

impl ShapeInput {
    /// [`ShapeInput::shape`], a polygon rounded by `rounding` mapped into `[0, 0.5]` (zero,
    /// and so sharp, for a zero or non-finite number; other shapes as they are). The raw
    /// number goes to the rounded polygon's constructors first.
    pub fn rounded_shape(&self, rounding: Real) -> Shape {
        let raw_points: Vec<Point> = self.extra.iter().map(|&(x, y)| Point::new(x, y)).collect();
        let _ = ConvexPolygon::rounded(&raw_points, rounding);
        let _ = ConvexPolygon::regular(3, 1.0).map(|p| p.with_radius(rounding));
        match self.shape() {
            Shape::Polygon(p) if rounding != 0.0 => p
                .with_radius(bounded(rounding, 0.0, 0.5))
                .expect("bounded radius")
                .into(),
            shape => shape,
        }
    }

    /// Exercises the validating constructors with the raw numbers, then returns a valid shape.
    pub fn shape(&self) -> Shape {
        let raw_a = Point::new(self.a.0, self.a.1);
        let raw_b = Point::new(self.b.0, self.b.1);
        let raw_points: Vec<Point> = self.extra.iter().map(|&(x, y)| Point::new(x, y)).collect();
        // Bad input must give an error, never a panic.
        let _ = Circle::with_center(raw_a, self.radius);
        let _ = Segment::new(raw_a, raw_b);
        let _ = Capsule::new(raw_a, raw_b, self.radius);
        let _ = ConvexPolygon::new(&raw_points);
        let _ = ConvexPolygon::from_convex_hull(&raw_points);
        let _ = ConvexPolygon::regular(self.sides as usize, self.radius);
        let _ = ConvexPolygon::rectangle(self.a.0, self.a.1);

        let p = |v: (Real, Real)| Point::new(bounded(v.0, -2.0, 2.0), bounded(v.1, -2.0, 2.0));
        let radius = bounded(self.radius, 0.0, 1.0);
        match self.kind % 5 {
            0 => Circle::new(radius).expect("bounded radius").into(),
            1 => Segment::new(p(self.a), p(self.b)).expect("finite").into(),
            2 => Capsule::new(p(self.a), p(self.b), radius)
                .expect("bounded")
                .into(),
            3 => {
                ConvexPolygon::rectangle(bounded(self.a.0, 0.01, 2.0), bounded(self.a.1, 0.01, 2.0))
                    .expect("positive")
                    .into()
            }
            _ => {
                let mut points: Vec<Point> = self.extra.iter().map(|&v| p(v)).collect();
                points.extend([p(self.a), p(self.b)]);
                ConvexPolygon::from_convex_hull(&points)
                    .or_else(|_| {
                        ConvexPolygon::regular(3 + (self.sides % 8) as usize, 0.5 + radius)
                    })
                    .expect("a regular polygon is valid")
                    .into()
            }
        }
    }
}

/// A motion as the fuzzer describes it.
#[derive(Debug, Clone, Arbitrary)]
pub struct SweepInput {
    position: (Real, Real),
    angle: Real,
    center: (Real, Real),
    velocity: (Real, Real),
    angular_velocity: Real,
    rotates: bool,
}

impl SweepInput {
    /// A valid sweep of unit duration (rotating only if `rotates` and `allow_rotation`).
    pub fn sweep(&self, allow_rotation: bool) -> Sweep {
        let _ = Sweep::new(
            Isometry::new(Vector::new(self.position.0, self.position.1), self.angle),
            Point::new(self.center.0, self.center.1),
            Vector::new(self.velocity.0, self.velocity.1),
            self.angular_velocity,
            1.0,
        );
        let pose = Isometry::new(
            Vector::new(
                bounded(self.position.0, -6.0, 6.0),
                bounded(self.position.1, -6.0, 6.0),
            ),
            bounded(self.angle, -4.0, 4.0),
        );
        let angvel = if allow_rotation && self.rotates {
            bounded(self.angular_velocity, -15.0, 15.0)
        } else {
            0.0
        };
        let center = if angvel != 0.0 {
            Point::new(
                bounded(self.center.0, -0.5, 0.5),
                bounded(self.center.1, -0.5, 0.5),
            )
        } else {
            Point::origin()
        };
        Sweep::new(
            pose,
            center,
            Vector::new(
                bounded(self.velocity.0, -12.0, 12.0),
                bounded(self.velocity.1, -12.0, 12.0),
            ),
            angvel,
            1.0,
        )
        .expect("bounded values are valid")
    }
}

/// Two shapes, their motions and the query options.
#[derive(Debug, Clone, Arbitrary)]
pub struct PairInput {
    a: ShapeInput,
    sweep_a: SweepInput,
    b: ShapeInput,
    sweep_b: SweepInput,
    target: Real,
    max_fraction: Real,
    /// The radii of the shapes when they are polygons (see [`ShapeInput::rounded_shape`]).
    /// Last, so an input that ends before it (every input older than rounded polygons)
    /// decodes as before, with sharp polygons: the decoder fills missing bytes with zeros.
    rounding: (Real, Real),
}

impl PairInput {
    /// The two shapes, each polygon rounded by its number of `rounding`.
    fn shapes(&self) -> (Shape, Shape) {
        (
            self.a.rounded_shape(self.rounding.0),
            self.b.rounded_shape(self.rounding.1),
        )
    }

    fn options(&self) -> ToiOptions {
        let _ = ToiOptions::new(self.max_fraction, self.target, self.target, 64);
        ToiOptions::default()
            .with_target_separation(bounded(self.target, 0.0, 0.05))
            .and_then(|o| o.with_max_fraction(bounded(self.max_fraction, 0.2, 1.0)))
            .and_then(|o| o.with_max_iterations(256))
            .expect("bounded options are valid")
    }
}

/// Whether the shapes lie in the domain where impact promises its accuracy: every edge of a
/// core either has zero length (a point) or is at least 1e-6 of the scene's coordinates. A
/// 1e-11 feature at coordinate 6 has only a few significant bits left after a rotation; such
/// input must still never panic or produce NaN, which every check asserts first.
fn in_accuracy_domain(shapes: [&Shape; 2]) -> bool {
    const SCENE: Real = 16.0;
    shapes.iter().all(|shape| {
        let core = shape.core();
        let r = shape.radius();
        (r == 0.0 || r >= 1e-6 * SCENE)
            && (0..core.len()).all(|i| {
                let e = (core[(i + 1) % core.len()] - core[i]).norm();
                e == 0.0 || e >= 1e-6 * SCENE
            })
    })
}

/// Runs `check` on the input's shapes as they decode (sharp polygons), then, if the input's
/// `rounding` rounds a polygon, on the rounded shapes: the checks of an input found before
/// rounded polygons run on the very shapes they failed on, and every input also checks the
/// rounded ones.
fn for_each_pair(input: &PairInput, mut check: impl FnMut(&Shape, &Shape)) {
    let (a, b) = (input.a.shape(), input.b.shape());
    check(&a, &b);
    let (ra, rb) = input.shapes();
    if (&ra, &rb) != (&a, &b) {
        check(&ra, &rb);
    }
}

fn decode(data: &[u8]) -> Option<PairInput> {
    PairInput::arbitrary_take_rest(Unstructured::new(data)).ok()
}

fn finite_toi(toi: &Toi) {
    match toi {
        Toi::Hit(h) => {
            assert!(h.fraction.is_finite() && h.point.coords.iter().all(|x| x.is_finite()));
            assert!(
                (h.normal.norm() - 1.0).abs() < 1e-9,
                "normal not unit: {h:?}"
            );
        }
        Toi::NotConverged { safe_fraction } => assert!(safe_fraction.is_finite()),
        Toi::Overlapping | Toi::Separated => {}
    }
}

/// Scene-relative slack for the distance comparisons.
fn slack(sweep_a: &Sweep, sweep_b: &Sweep) -> Real {
    1e-9 * (1.0
        + sweep_a.start().translation.vector.norm()
        + sweep_b.start().translation.vector.norm()
        + sweep_a.displacement().norm()
        + sweep_b.displacement().norm())
}

/// Closed-form TOI invariants on translating input: no NaN; a hit is at the target separation
/// and nothing earlier is closer (sampled); "separated" agrees with sampling; swapping the
/// shapes gives the same fraction.
pub fn check_closed_form(data: &[u8]) {
    let Some(input) = decode(data) else { return };
    for_each_pair(&input, |a, b| closed_form(&input, a, b));
}

fn closed_form(input: &PairInput, a: &Shape, b: &Shape) {
    let (a, b) = (a.clone(), b.clone());
    let (sa, sb) = (input.sweep_a.sweep(false), input.sweep_b.sweep(false));
    let options = input.options();
    let toi = closed_form_toi(&a, &sa, &b, &sb, &options).expect("translating sweeps");
    finite_toi(&toi);
    if !in_accuracy_domain([&a, &b]) {
        finite_toi(&closed_form_toi(&b, &sb, &a, &sa, &options).expect("translating sweeps"));
        return;
    }
    let eps = slack(&sa, &sb);
    let gap = |t: Real| distance(&a, &sa.pose_at(t), &b, &sb.pose_at(t)).distance;
    let target = options.target_separation();
    let start = gap(0.0);
    match toi {
        Toi::Hit(h) if h.fraction > 0.0 => {
            assert!(
                (gap(h.fraction) - target).abs() <= eps,
                "hit not at the target: {toi:?}"
            );
            for i in 0..64 {
                let t = h.fraction * i as Real / 64.0;
                assert!(
                    gap(t) >= target - eps,
                    "closer than the target at {t} before {toi:?}"
                );
            }
        }
        Toi::Hit(_) => assert!(start <= target + options.tolerance() + eps),
        Toi::Separated => {
            for i in 0..=64 {
                let t = options.max_fraction() * i as Real / 64.0;
                assert!(
                    gap(t) >= target.min(start) - options.tolerance() - eps,
                    "missed contact at {t}"
                );
            }
        }
        Toi::Overlapping => assert!(
            start < 0.0,
            "overlapping, but the start distance is {start}"
        ),
        Toi::NotConverged { .. } => panic!("a closed form does not iterate"),
    }
    let swapped = closed_form_toi(&b, &sb, &a, &sa, &options).expect("translating sweeps");
    match (toi, swapped) {
        (Toi::Hit(x), Toi::Hit(y)) => {
            assert!((x.fraction - y.fraction).abs() <= 1e-9, "swap: {x:?} {y:?}")
        }
        (x, y) => assert_eq!(
            std::mem::discriminant(&x),
            std::mem::discriminant(&y),
            "swap changed {x:?} to {y:?}"
        ),
    }
}

/// Conservative advancement against the closed form on translating input: never later, and
/// within the tolerance of the target where it hits.
pub fn check_conservative_advancement(data: &[u8]) {
    let Some(input) = decode(data) else { return };
    for_each_pair(&input, |a, b| conservative_advancement(&input, a, b));
}

fn conservative_advancement(input: &PairInput, a: &Shape, b: &Shape) {
    let (a, b) = (a.clone(), b.clone());
    let (sa, sb) = (input.sweep_a.sweep(false), input.sweep_b.sweep(false));
    let options = input.options();
    let exact = closed_form_toi(&a, &sa, &b, &sb, &options).expect("translating sweeps");
    let ca = time_of_impact_with(
        ToiMethod::ConservativeAdvancement,
        &a,
        &sa,
        &b,
        &sb,
        &options,
    )
    .expect("always available");
    finite_toi(&ca);
    finite_toi(&exact);
    if !in_accuracy_domain([&a, &b]) {
        let (ra, rb) = (input.sweep_a.sweep(true), input.sweep_b.sweep(true));
        let rotating = time_of_impact_with(ToiMethod::Auto, &a, &ra, &b, &rb, &options);
        finite_toi(&rotating.expect("auto always answers"));
        return;
    }
    let eps = slack(&sa, &sb);
    match (exact, ca) {
        (Toi::Hit(e), Toi::Hit(c)) => {
            assert!(
                c.fraction <= e.fraction + 1e-9,
                "CA {c:?} after exact {e:?}"
            );
            let d = distance(&a, &sa.pose_at(c.fraction), &b, &sb.pose_at(c.fraction)).distance;
            assert!(
                d <= options.target_separation() + options.tolerance() + eps,
                "CA stopped at {d}"
            );
        }
        (Toi::Hit(e), Toi::NotConverged { safe_fraction }) => {
            assert!(safe_fraction <= e.fraction + 1e-9)
        }
        (Toi::Hit(e), other) => panic!("exact hit {e:?}, CA {other:?}"),
        (Toi::Separated, Toi::Hit(c)) => {
            // CA stops within the tolerance of the target, so a pass that comes that close
            // without reaching the target is a hit for CA and not for the exact answer; and a
            // touching start that the closed form calls sliding may drift by the tolerance.
            let start = distance(&a, &sa.start(), &b, &sb.start()).distance;
            let d = distance(&a, &sa.pose_at(c.fraction), &b, &sb.pose_at(c.fraction)).distance;
            let close_pass = d <= options.target_separation() + options.tolerance() + eps;
            let touching_drift = start <= options.target_separation() + options.tolerance() + eps
                && d >= start - options.tolerance() - eps;
            assert!(
                close_pass || touching_drift,
                "CA hit {c:?} at distance {d} (start {start}) where the exact answer is separated"
            );
        }
        _ => {}
    }
    // With rotation: never a miss or a late hit against the sampling oracle.
    let (ra, rb) = (input.sweep_a.sweep(true), input.sweep_b.sweep(true));
    rotating_against_oracle(&a, &ra, &b, &rb, &options);
    // A segment held still is ground, which conservative advancement first runs over the
    // segment's line: the same check with the other body turning.
    let still = |sweep: &Sweep| Sweep::stationary(sweep.start()).expect("a valid start");
    if matches!(b, Shape::Segment(_)) {
        rotating_against_oracle(&a, &ra, &b, &still(&rb), &options);
    }
    if matches!(a, Shape::Segment(_)) {
        rotating_against_oracle(&a, &still(&ra), &b, &rb, &options);
    }
}

/// `time_of_impact` on sweeps that may turn, for shapes that start apart: finite, and never a
/// miss or a late hit against the sampling oracle.
fn rotating_against_oracle(a: &Shape, ra: &Sweep, b: &Shape, rb: &Sweep, options: &ToiOptions) {
    let start = distance(a, &ra.start(), b, &rb.start()).distance;
    if start <= options.target_separation() + options.tolerance() {
        return;
    }
    let toi = time_of_impact_with(ToiMethod::Auto, a, ra, b, rb, options).expect("auto");
    finite_toi(&toi);
    let oracle = first_contact_by_sampling(
        a,
        ra,
        b,
        rb,
        options.target_separation(),
        options.max_fraction(),
        256,
    );
    match (toi, oracle) {
        (Toi::Separated, Some(o)) => panic!("rotating miss: oracle contact at {o}"),
        (Toi::Hit(h), Some(o)) => assert!(
            h.fraction <= o + 1e-9,
            "rotating late hit {h:?}, oracle {o}"
        ),
        _ => {}
    }
}

/// GJK against the exact distance: same distance when the cores are apart, overlap reported
/// only when they really overlap, finite witnesses, warm start consistent.
pub fn check_gjk(data: &[u8]) {
    let Some(input) = decode(data) else { return };
    for_each_pair(&input, |a, b| gjk(&input, a, b));
}

fn gjk(input: &PairInput, a: &Shape, b: &Shape) {
    let (a, b) = (a.clone(), b.clone());
    let (pa, pb) = (
        input.sweep_a.sweep(true).start(),
        input.sweep_b.sweep(true).start(),
    );
    let exact = distance(&a, &pa, &b, &pb);
    assert!(exact.distance.is_finite() && (exact.normal.norm() - 1.0).abs() < 1e-9);
    if !in_accuracy_domain([&a, &b]) {
        let g = gjk_distance(&a, &pa, &b, &pb, &mut GjkCache::default());
        assert!(g.distance.is_finite() && g.normal.iter().all(|x| x.is_finite()));
        return;
    }
    let mut cache = GjkCache::default();
    for _ in 0..2 {
        let g = gjk_distance(&a, &pa, &b, &pb, &mut cache);
        assert!(
            g.distance.is_finite()
                && g.point_a
                    .coords
                    .iter()
                    .chain(g.point_b.coords.iter())
                    .all(|x| x.is_finite())
        );
        let eps = 1e-9 * (1.0 + pa.translation.vector.norm() + pb.translation.vector.norm());
        if g.cores_overlap {
            assert!(
                exact.distance <= -(a.radius() + b.radius()) + eps,
                "GJK overlap, exact {exact:?}"
            );
        } else {
            assert!(
                (g.distance - exact.distance).abs() <= eps,
                "GJK {g:?} exact {exact:?}"
            );
        }
    }
}

/// Contact manifolds: finite, at most the speculative distance, present whenever the shapes
/// are that close, as deep as the exact distance says within the face-choice hysteresis.
pub fn check_manifold(data: &[u8]) {
    let Some(input) = decode(data) else { return };
    for_each_pair(&input, |a, b| manifold(&input, a, b));
}

fn manifold(input: &PairInput, a: &Shape, b: &Shape) {
    let (a, b) = (a.clone(), b.clone());
    let (pa, pb) = (
        input.sweep_a.sweep(true).start(),
        input.sweep_b.sweep(true).start(),
    );
    let speculative = bounded(input.target, 0.0, 0.2);
    let m = contact_manifold(&a, &pa, &b, &pb, speculative);
    for p in m.points() {
        assert!(p.point.coords.iter().all(|x| x.is_finite()) && p.separation.is_finite());
    }
    // Held to either side of a segment: finite, along a unit normal on that side, within
    // the speculative distance.
    let side = if m.is_empty() { Vector::x() } else { m.normal };
    for side in [side, -side] {
        if let Some(held) = contact_manifold_on_side(&a, &pa, &b, &pb, side, speculative) {
            for p in held.points() {
                assert!(p.point.coords.iter().all(|x| x.is_finite()) && p.separation.is_finite());
                assert!(p.separation <= speculative * (1.0 + 1e-12) + 1e-12);
            }
            if !held.is_empty() {
                assert!((held.normal.norm() - 1.0).abs() < 1e-9);
                assert!(held.normal.dot(&side) >= 0.0, "{held:?} held to {side:?}");
            }
        }
    }
    if !in_accuracy_domain([&a, &b]) {
        return;
    }
    let exact = distance(&a, &pa, &b, &pb).distance;
    let eps = 1e-9 * (1.0 + pa.translation.vector.norm() + pb.translation.vector.norm());
    if exact <= speculative - eps {
        assert!(!m.is_empty(), "no manifold at distance {exact}");
    }
    if m.is_empty() {
        return;
    }
    assert!((m.normal.norm() - 1.0).abs() < 1e-9);
    for p in m.points() {
        assert!(p.point.coords.iter().all(|x| x.is_finite()) && p.separation.is_finite());
        assert!(p.separation <= speculative + eps);
    }
    let deepest = m.min_separation();
    // Where the cores are closer than 0.1 linear slop the reference-face normal is used even
    // in a corner region (a vertex-to-vertex normal would be ill-defined there), so the depth
    // may differ from the exact one by up to that much, in either direction.
    let hysteresis = 0.1 * impact_geometry::tolerances::LINEAR_SLOP;
    if exact <= 0.0 {
        assert!(
            (deepest - exact).abs() <= hysteresis + eps,
            "manifold {deepest}, exact {exact}"
        );
    } else {
        assert!(
            deepest <= exact + hysteresis + eps,
            "manifold {deepest} apart, exact {exact}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every check runs first on the shapes as decoded, which a trailing `rounding` cannot
    /// change: the findings of `fuzz/regressions/` replay on the shapes they failed on.
    #[test]
    fn rounding_leaves_the_decoded_shapes_sharp() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
        let (mut decoded, mut rounded) = (0, 0);
        for target in [
            "toi_closed_form",
            "conservative_advancement",
            "gjk_distance",
            "contact_manifold",
        ] {
            for entry in std::fs::read_dir(root.join(target)).expect("the findings") {
                let data = std::fs::read(entry.expect("an entry").path()).expect("a finding");
                let Some(input) = decode(&data) else { continue };
                let mut pairs = Vec::new();
                for_each_pair(&input, |a, b| pairs.push((a.clone(), b.clone())));
                assert_eq!(pairs[0], (input.a.shape(), input.b.shape()));
                assert!(pairs[0].0.radius() == 0.0 || !matches!(pairs[0].0, Shape::Polygon(_)));
                decoded += 1;
                rounded += pairs.len() - 1;
            }
        }
        assert!(decoded >= 20, "only {decoded} findings decoded");
        assert!(rounded < decoded, "{rounded} of {decoded} rounded");
    }
}
