//! Time of impact of rotating polygons: impact's `time_of_impact` (conservative advancement)
//! against parry2d-f64's `cast_shapes_nonlinear` and `sweep_time_of_impact`, on the same
//! seeded scenes in the same run, plus every method's miss rate against the dense-sampling
//! oracle of `impact_testkit::audit`.
//!
//! `scripts/bench-report --rotating` runs this bench and writes the "Time of impact
//! (rotating)" section of `docs/benchmarks.md`; `cargo bench --bench toi_rotating` alone prints
//! the audit and the timings.
//!
//! # Scenes
//! Five groups, each a seeded stream of cases (B thrown at A, both spinning, about half of the
//! queries hit): boxes, skinny boxes against boxes, hexagons, the audit's own generator
//! (`random_rotating_case`) filtered to polygon–polygon, and Box2D's skinny box (a 4 x 0.1
//! plank falling at 100 units/s and spinning at 50 rad/s onto a ground segment). The random
//! groups copy the kinematics of `random_rotating_case`: 70% of the bodies turn up to two full
//! turns per step. Cases that start within the target (plus tolerance) are left out, as in
//! `examples/toi_audit.rs`. The first 1,024 cases of each group are the timed batch; the audit
//! runs on the first `TOI_ROTATING_CASES` (default 8,000, Box2D's case 2,000) of the same stream.
//!
//! # Mapping onto parry
//! impact's `Sweep { start, local_center, linvel, angvel, dt }` moves the centre of mass on a
//! line and turns at constant rate about it, fraction `t` in `[0, 1]` meaning time `t * dt`.
//! - `cast_shapes_nonlinear`: `NonlinearRigidMotion { start, local_center, linvel * dt,
//!   angvel * dt }` over times `[0, 1]` is the same motion exactly (checked pose by pose in
//!   the setup), with parry's time equal to our fraction (the velocities are per step, which
//!   also serves bodies with different `dt`). It has no target distance: it finds the touching
//!   time. To ask the same question as ours (first time within 0.005) shape A is wrapped in a
//!   `RoundShape` of border 0.005 (for convex shapes, touching the rounded shape is being
//!   exactly 0.005 apart). The plain call (touching, target 0) is measured too, and audited
//!   against the oracle at target 0.
//! - `sweep_time_of_impact`: its `Sweep` interpolates between two end poses (centre of mass
//!   on a line, rotation by normalised lerp), so it is built with `Sweep::from_poses(start,
//!   pose_at(1), local_center)`. The end poses and the centre-of-mass path are ours, the
//!   rotation in between is not: nlerp takes the short way between the end orientations, so a
//!   sweep turning more than half a turn turns the other way in parry, and any turn is
//!   traversed at a non-uniform rate. Its misses are therefore counted twice: against the
//!   oracle on our motion (what a user of our `Sweep` gets), and against the oracle on its own
//!   nlerp motion (the algorithm's own misses). `linear_slop` 0.005 gives it target 0.005 and
//!   tolerance 0.00125 for polygons, as our `ToiOptions::default()`.
//!
//! On the same scenes with the spin removed, the setup checks that all methods agree.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use impact_testkit::SplitMix64;
use impact_testkit::audit::{
    Case, Verdict, first_contact_by_sampling, first_contact_of, judge, random_rotating_case,
    rotating_case_with, skinny_box_case,
};
use impact2d::geometry::{ConvexPolygon, Isometry, Point, Real, Rotation, Shape, Sweep, Vector};
use impact2d::narrowphase::{Hit, Toi, ToiOptions, distance, time_of_impact};
use parry2d_f64::math::{Pose as PPose, Rotation as PRotation, Vector as PVector};
use parry2d_f64::query::sweep_toi::{
    Sweep as PSweep, SweepToiOutput, SweepToiStatus, ToiProxy, sweep_time_of_impact,
};
use parry2d_f64::query::{
    NonlinearRigidMotion, ShapeCastHit, ShapeCastStatus, cast_shapes_nonlinear,
};
use parry2d_f64::shape::{
    ConvexPolygon as PPolygon, RoundShape, Segment as PSegment, Shape as PShape,
};
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Queries per benchmark iteration.
const BATCH: usize = 1024;
/// Linear slop: our default target separation, and parry's `linear_slop`.
const TARGET: Real = 0.005;
/// The oracle's allowance for a late answer (its bisection is to 1e-12).
const SLACK: Real = 1e-9;

// ------------------------------------------------------------------------------------------
// Scenes

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// A rectangle, half sizes 0.1 to 1.
    Box,
    /// A rectangle, half length 0.5 to 2, half thickness 0.025 to 0.1 (aspect 5:1 to 80:1).
    Skinny,
    /// A regular hexagon, radius 0.3 to 1.5.
    Hexagon,
}

fn make_shape(kind: Kind, rng: &mut SplitMix64) -> Shape {
    match kind {
        Kind::Box => ConvexPolygon::rectangle(rng.range(0.1, 1.0), rng.range(0.1, 1.0)),
        Kind::Skinny => ConvexPolygon::rectangle(rng.range(0.5, 2.0), rng.range(0.025, 0.1)),
        Kind::Hexagon => ConvexPolygon::regular(6, rng.range(0.3, 1.5)),
    }
    .expect("valid polygon")
    .into()
}

/// The kinematics of `audit::random_rotating_case` (same draws, same order), with the shapes
/// given by `kind_a` and `kind_b`.
fn rotating_case(kind_a: Kind, kind_b: Kind, rng: &mut SplitMix64) -> Case {
    let a = make_shape(kind_a, rng);
    let b = make_shape(kind_b, rng);
    rotating_case_with(a, b, rng)
}

/// How a group's stream of cases is made.
#[derive(Clone, Copy)]
enum Source {
    /// `rotating_case(a, b)` from `SplitMix64::new(seed)`.
    Kinds(Kind, Kind),
    /// `audit::random_rotating_case` from `SplitMix64::new(seed)`, polygon–polygon only.
    Audit,
    /// `audit::skinny_box_case(2.06 + 1.5 i / 2000, 0.0037 i)`, as `examples/toi_audit.rs`.
    SkinnyBox,
}

struct Group {
    /// Criterion group name (`toi_rotating_<name>`) and key in the audit file.
    name: &'static str,
    /// What the report shows.
    label: &'static str,
    source: Source,
    seed: u64,
    /// Cases audited by default (at least the batch).
    audit_cases: usize,
}

const GROUPS: [Group; 5] = [
    Group {
        name: "boxes",
        label: "boxes",
        source: Source::Kinds(Kind::Box, Kind::Box),
        seed: 0x0B0C_5EED_0001,
        audit_cases: 8_000,
    },
    Group {
        name: "skinny_boxes",
        label: "skinny box vs box",
        source: Source::Kinds(Kind::Skinny, Kind::Box),
        seed: 0x0B0C_5EED_0002,
        audit_cases: 8_000,
    },
    Group {
        name: "hexagons",
        label: "hexagons",
        source: Source::Kinds(Kind::Hexagon, Kind::Hexagon),
        seed: 0x0B0C_5EED_0003,
        audit_cases: 8_000,
    },
    Group {
        name: "audit_polygons",
        label: "audit generator, polygon–polygon",
        source: Source::Audit,
        seed: 0x0B0C_5EED_0004,
        audit_cases: 8_000,
    },
    Group {
        name: "box2d_skinny_box",
        label: "Box2D skinny box (vs ground segment)",
        source: Source::SkinnyBox,
        seed: 0,
        audit_cases: 2_000,
    },
];

fn pv(v: Vector) -> PVector {
    PVector::new(v.x, v.y)
}

fn ppose(iso: &Isometry) -> PPose {
    PPose::from_parts(
        PVector::new(iso.translation.vector.x, iso.translation.vector.y),
        PRotation {
            re: iso.rotation.re,
            im: iso.rotation.im,
        },
    )
}

fn from_ppose(pose: &PPose) -> Isometry {
    Isometry::from_parts(
        Vector::new(pose.translation.x, pose.translation.y).into(),
        Rotation::from_cos_sin_unchecked(pose.rotation.re, pose.rotation.im),
    )
}

fn parry_polygon(shape: &Shape) -> PPolygon {
    let Shape::Polygon(polygon) = shape else {
        panic!("shape A of every scene is a polygon")
    };
    assert_eq!(polygon.radius(), 0.0, "the scenes' polygons are sharp");
    let points = polygon.vertices().iter().map(|p| pv(p.coords)).collect();
    PPolygon::from_convex_polyline_unmodified(points).expect("convex polygon")
}

fn parry_shape(shape: &Shape) -> Box<dyn PShape> {
    match shape {
        Shape::Polygon(_) => Box::new(parry_polygon(shape)),
        Shape::Segment(s) => {
            let [a, b] = [s.core()[0], s.core()[1]];
            Box::new(PSegment::new(pv(a.coords), pv(b.coords)))
        }
        _ => panic!("scenes hold polygons and the ground segment only"),
    }
}

/// Our sweep as parry's constant-velocity motion over times `[0, 1]` (velocities per step).
fn nonlinear_motion(s: &Sweep) -> NonlinearRigidMotion {
    NonlinearRigidMotion::new(
        ppose(&s.start()),
        pv(s.local_center().coords),
        pv(s.displacement()),
        s.rotation_angle(),
    )
}

/// Our sweep's end poses as parry's endpoint-interpolated sweep.
fn endpoint_sweep(s: &Sweep) -> PSweep {
    PSweep::from_poses(
        &ppose(&s.start()),
        &ppose(&s.pose_at(1.0)),
        pv(s.local_center().coords),
    )
}

/// One prepared query, in both libraries' terms.
struct Scene {
    /// Which call of the group's generator made it (0-based, counting filtered-out calls).
    index: usize,
    case: Case,
    parry_a: Box<dyn PShape>,
    /// A inflated by the target distance, so that parry's touching time is our target time.
    round_a: RoundShape<PPolygon>,
    parry_b: Box<dyn PShape>,
    motion_a: NonlinearRigidMotion,
    motion_b: NonlinearRigidMotion,
    sweep_a: PSweep,
    sweep_b: PSweep,
}

impl Scene {
    fn new(index: usize, case: Case) -> Self {
        Self {
            index,
            parry_a: parry_shape(&case.a),
            round_a: RoundShape {
                inner_shape: parry_polygon(&case.a),
                border_radius: TARGET,
            },
            parry_b: parry_shape(&case.b),
            motion_a: nonlinear_motion(&case.sweep_a),
            motion_b: nonlinear_motion(&case.sweep_b),
            sweep_a: endpoint_sweep(&case.sweep_a),
            sweep_b: endpoint_sweep(&case.sweep_b),
            case,
        }
    }

    /// The same scene without spin (same start poses and linear velocities).
    fn without_spin(&self) -> Self {
        let still = |s: &Sweep| {
            Sweep::new(s.start(), s.local_center(), s.linvel(), 0.0, s.dt()).expect("finite")
        };
        let case = Case {
            a: self.case.a.clone(),
            sweep_a: still(&self.case.sweep_a),
            b: self.case.b.clone(),
            sweep_b: still(&self.case.sweep_b),
        };
        Self::new(self.index, case)
    }

    /// The largest turn of either body over the step (radians).
    fn turn(&self) -> Real {
        let c = &self.case;
        c.sweep_a
            .rotation_angle()
            .abs()
            .max(c.sweep_b.rotation_angle().abs())
    }

    fn ours(&self, options: &ToiOptions) -> Toi {
        let c = &self.case;
        time_of_impact(&c.a, &c.sweep_a, &c.b, &c.sweep_b, options)
    }

    fn nonlinear(&self, rounded: bool) -> Option<ShapeCastHit> {
        let a: &dyn PShape = if rounded {
            &self.round_a
        } else {
            self.parry_a.as_ref()
        };
        cast_shapes_nonlinear(
            &self.motion_a,
            a,
            &self.motion_b,
            self.parry_b.as_ref(),
            0.0,
            1.0,
            true,
        )
        .expect("supported pair")
    }

    fn sweep(&self) -> SweepToiOutput {
        let proxy_a = ToiProxy::from_shape(self.parry_a.as_ref()).expect("polygon proxy");
        let proxy_b = ToiProxy::from_shape(self.parry_b.as_ref()).expect("polygon proxy");
        sweep_time_of_impact(
            &proxy_a,
            &self.sweep_a,
            &proxy_b,
            &self.sweep_b,
            1.0,
            TARGET,
        )
    }

    /// Exact distance with A and B at parry's nlerp poses at `t`.
    fn nlerp_gap(&self, t: Real) -> Real {
        let (pa, pb) = (self.sweep_a.transform_at(t), self.sweep_b.transform_at(t));
        let c = &self.case;
        distance(&c.a, &from_ppose(&pa), &c.b, &from_ppose(&pb)).distance
    }
}

/// Cases `0..count` of a group's stream that do not start within the target.
fn scenes(group: &Group, count: usize, options: &ToiOptions) -> Vec<Scene> {
    let mut rng = SplitMix64::new(group.seed);
    let mut out = Vec::with_capacity(count);
    let touching = |c: &Case| {
        distance(&c.a, &c.sweep_a.start(), &c.b, &c.sweep_b.start()).distance
            <= options.target_separation() + options.tolerance()
    };
    let mut index = 0;
    while out.len() < count {
        let case = match group.source {
            Source::Kinds(a, b) => Some(rotating_case(a, b, &mut rng)),
            Source::Audit => {
                let c = random_rotating_case(&mut rng);
                matches!((&c.a, &c.b), (Shape::Polygon(_), Shape::Polygon(_))).then_some(c)
            }
            Source::SkinnyBox => {
                // Fixed spacing, so the timed batch does not depend on the audit's size.
                let i = index as Real;
                Some(skinny_box_case(2.06 + 1.5 * i / 2_000.0, 0.0037 * i))
            }
        };
        if let Some(c) = case.filter(|c| !touching(c)) {
            out.push(Scene::new(index, c));
        }
        index += 1;
    }
    out
}

// ------------------------------------------------------------------------------------------
// Mapping checks

/// Checks that parry's nonlinear motion is our sweep exactly and that the endpoint sweep has
/// our end poses; then, with the spin removed, that every method finds the same impacts.
fn check_mapping(group: &Group, scenes: &[Scene], options: &ToiOptions) -> String {
    // 1. Poses.
    let mut nonlinear_dev: Real = 0.0;
    let mut endpoint_dev: Real = 0.0;
    let mut nlerp_mid_angle: Real = 0.0;
    let dev = |a: &Isometry, b: &PPose| {
        let b = from_ppose(b);
        (a.translation.vector - b.translation.vector)
            .norm()
            .max((a.rotation.re - b.rotation.re).abs())
            .max((a.rotation.im - b.rotation.im).abs())
    };
    for s in scenes {
        for (ours, motion, sweep) in [
            (&s.case.sweep_a, &s.motion_a, &s.sweep_a),
            (&s.case.sweep_b, &s.motion_b, &s.sweep_b),
        ] {
            let scale = 1.0 + ours.start().translation.vector.norm();
            for i in 0..=8 {
                let t = i as Real / 8.0;
                let d = dev(&ours.pose_at(t), &motion.position_at_time(t)) / scale;
                nonlinear_dev = nonlinear_dev.max(d);
                let nlerp = from_ppose(&sweep.transform_at(t));
                let angle = (ours.pose_at(t).rotation.inverse() * nlerp.rotation).angle();
                nlerp_mid_angle = nlerp_mid_angle.max(angle.abs());
            }
            for t in [0.0, 1.0] {
                let end = if t == 0.0 {
                    sweep.transform_at(0.0)
                } else {
                    sweep.final_transform()
                };
                endpoint_dev = endpoint_dev.max(dev(&ours.pose_at(t), &end) / scale);
            }
        }
    }
    assert!(
        nonlinear_dev < 1e-12 && endpoint_dev < 1e-12,
        "{}: motion mapping off: nonlinear {nonlinear_dev:e}, endpoints {endpoint_dev:e}",
        group.name
    );

    // 2. Without spin: ours (closed form) against both parry methods.
    let mut agree = [0usize; 2];
    let mut hits = 0usize;
    // Largest difference in fraction, and largest |distance - target| at parry's answer.
    let mut worst: [Real; 2] = [0.0; 2];
    let mut worst_gap: [Real; 2] = [0.0; 2];
    for s in scenes {
        let s = s.without_spin();
        let c = &s.case;
        let ours = s.ours(options).hit().map(|h| h.fraction);
        let nonlinear = s.nonlinear(true).map(|h| h.time_of_impact);
        let sweep = s.sweep();
        let sweep = (sweep.status == SweepToiStatus::Hit).then_some(sweep.fraction);
        hits += usize::from(ours.is_some());
        for (k, theirs) in [nonlinear, sweep].into_iter().enumerate() {
            match (ours, theirs) {
                (Some(a), Some(b)) => {
                    agree[k] += 1;
                    worst[k] = worst[k].max((a - b).abs());
                    let gap = distance(&c.a, &c.sweep_a.pose_at(b), &c.b, &c.sweep_b.pose_at(b));
                    worst_gap[k] = worst_gap[k].max((gap.distance - TARGET).abs());
                }
                (None, None) => agree[k] += 1,
                _ => {}
            }
        }
    }
    let n = scenes.len();
    // Our closed form is exact; parry must agree on which sweeps hit (grazing sweeps whose
    // closest approach lies within the tolerance band may go either way) and answer where the
    // shapes are within its tolerance of the target (sweep) or at the target (nonlinear).
    for (k, name) in ["cast_shapes_nonlinear", "sweep_time_of_impact"]
        .iter()
        .enumerate()
    {
        assert!(
            agree[k] * 1000 >= n * 995 && worst_gap[k] <= options.tolerance() + 1e-9,
            "{}: without spin, {name} agrees with impact on {} of {n}; its answers are up to \
             {:e} from the target distance",
            group.name,
            agree[k],
            worst_gap[k]
        );
    }
    format!(
        "{:<17} mapping: nonlinear pose deviation {nonlinear_dev:.1e}, endpoint deviation \
         {endpoint_dev:.1e} (nlerp departs from constant rate by up to {:.1} deg in between)\n\
         {:<17} without spin ({hits} of {n} hit): nonlinear agrees {}/{n} (fractions within \
         {:.1e}, distance within {:.1e} of target), sweep agrees {}/{n} (fractions within \
         {:.1e}, distance within {:.1e} of target)",
        group.name,
        nlerp_mid_angle.to_degrees(),
        "",
        agree[0],
        worst[0],
        worst_gap[0],
        agree[1],
        worst[1],
        worst_gap[1],
    )
}

// ------------------------------------------------------------------------------------------
// Audit

/// The methods audited, in report order.
const METHODS: [&str; 5] = [
    "impact",
    "parry_nonlinear",
    "parry_nonlinear_touch",
    "parry_sweep",
    "parry_sweep_own_motion",
];

/// Turn buckets: the larger turn of the two bodies over the step.
const BUCKETS: [&str; 3] = ["<=45deg", "45-180deg", ">180deg"];

fn bucket(turn: Real) -> usize {
    if turn <= std::f64::consts::FRAC_PI_4 {
        0
    } else if turn <= std::f64::consts::PI {
        1
    } else {
        2
    }
}

#[derive(Default, Clone)]
struct Tally {
    sweeps: usize,
    /// Sweeps where the oracle found contact within the target.
    contacts: usize,
    /// Reported no impact where the oracle found one.
    missed: usize,
    /// Reported an impact later than the oracle's first contact (plus 1e-9).
    late: usize,
    /// Reported an impact where the shapes are farther than target + tolerance.
    spurious: usize,
    /// Gave up (not converged) no later than the oracle: safe, not a miss.
    gave_up: usize,
    /// parry reported a `Failed` status (counted by its reported time as any hit).
    failed_status: usize,
    /// Missed or later than the oracle's first time within `target - tolerance`: the shapes
    /// came closer than the method's own tolerance band allows before it answered.
    beyond_tolerance: usize,
    /// Per turn bucket: sweeps, misses + lates, and misses beyond tolerance.
    bucket_sweeps: [usize; 3],
    bucket_misses: [usize; 3],
    bucket_beyond: [usize; 3],
    /// The first few misses: (case index, oracle, reported or None).
    examples: Vec<(usize, Real, Option<Real>)>,
}

impl Tally {
    fn add(&mut self, scene: &Scene, verdict: Verdict, oracle: Option<Real>, band: Verdict) {
        self.sweeps += 1;
        self.contacts += usize::from(oracle.is_some());
        let b = bucket(scene.turn());
        self.bucket_sweeps[b] += 1;
        let beyond = matches!(band, Verdict::Missed { .. } | Verdict::Late { .. });
        self.beyond_tolerance += usize::from(beyond);
        self.bucket_beyond[b] += usize::from(beyond);
        let bad = match verdict {
            Verdict::Agree => None,
            Verdict::Missed { oracle } => {
                self.missed += 1;
                Some((oracle, None))
            }
            Verdict::Late { reported, oracle } => {
                self.late += 1;
                Some((oracle, Some(reported)))
            }
            Verdict::Spurious { .. } => {
                self.spurious += 1;
                None
            }
            Verdict::GaveUp => {
                self.gave_up += 1;
                None
            }
        };
        if let Some((o, r)) = bad {
            self.bucket_misses[b] += 1;
            if self.examples.len() < 5 {
                self.examples.push((scene.index, o, r));
            }
        }
    }

    fn merge(&mut self, other: &Self) {
        self.sweeps += other.sweeps;
        self.contacts += other.contacts;
        self.missed += other.missed;
        self.late += other.late;
        self.spurious += other.spurious;
        self.gave_up += other.gave_up;
        self.failed_status += other.failed_status;
        self.beyond_tolerance += other.beyond_tolerance;
        for b in 0..3 {
            self.bucket_sweeps[b] += other.bucket_sweeps[b];
            self.bucket_misses[b] += other.bucket_misses[b];
            self.bucket_beyond[b] += other.bucket_beyond[b];
        }
        for e in &other.examples {
            if self.examples.len() < 5 {
                self.examples.push(*e);
            }
        }
    }
}

fn as_toi(hit: Option<(Real, PVector, PVector)>) -> Toi {
    match hit {
        Some((fraction, point, normal)) => Toi::Hit(Hit {
            fraction,
            point: Point::new(point.x, point.y),
            normal: Vector::new(normal.x, normal.y),
        }),
        None => Toi::Separated,
    }
}

fn nonlinear_toi(hit: Option<ShapeCastHit>) -> (Toi, bool) {
    let failed = hit.is_some_and(|h| h.status == ShapeCastStatus::Failed);
    // A hit of any status is an impact at its time, as Rapier uses it.
    let toi = as_toi(hit.map(|h| (h.time_of_impact, h.witness1, h.normal1)));
    (toi, failed)
}

fn sweep_toi(out: &SweepToiOutput) -> Toi {
    match out.status {
        SweepToiStatus::Hit => as_toi(Some((out.fraction, out.point, out.normal))),
        SweepToiStatus::Separated => Toi::Separated,
        SweepToiStatus::Overlapped => Toi::Overlapping,
        SweepToiStatus::Failed => Toi::NotConverged {
            safe_fraction: out.fraction,
        },
    }
}

/// `audit::first_contact_of` over the whole step.
fn first_contact(gap: impl Fn(Real) -> Real, target: Real, samples: usize) -> Option<Real> {
    first_contact_of(gap, target, 1.0, samples)
}

/// `audit::judge` for a motion given as a gap function (parry's own nlerp motion).
fn judge_gap(toi: &Toi, oracle: Option<Real>, gap: impl Fn(Real) -> Real) -> Verdict {
    match (*toi, oracle) {
        (Toi::Hit(h), Some(o)) if h.fraction > o + SLACK => Verdict::Late {
            reported: h.fraction,
            oracle: o,
        },
        (Toi::Hit(h), _) => {
            let d = gap(h.fraction);
            if h.fraction > 0.0 && d > TARGET + 0.25 * TARGET + 1e-8 {
                Verdict::Spurious {
                    reported: h.fraction,
                    distance: d,
                }
            } else {
                Verdict::Agree
            }
        }
        (Toi::Separated, Some(o)) => Verdict::Missed { oracle: o },
        (Toi::NotConverged { safe_fraction }, Some(o)) if safe_fraction > o + SLACK => {
            Verdict::Late {
                reported: safe_fraction,
                oracle: o,
            }
        }
        (Toi::NotConverged { .. }, _) => Verdict::GaveUp,
        _ => Verdict::Agree,
    }
}

fn audit_scene(s: &Scene, samples: usize, options: &ToiOptions, tallies: &mut [Tally; 5]) {
    let c = &s.case;
    let (a, sa, b, sb) = (&c.a, &c.sweep_a, &c.b, &c.sweep_b);
    let tol = options.tolerance();
    let touch = ToiOptions::new(1.0, 0.0, tol, options.max_iterations()).expect("valid options");
    // Each oracle at the target and at the bottom of the tolerance band below it.
    let ours = |target| first_contact_by_sampling(a, sa, b, sb, target, 1.0, samples);
    let nlerp = |target| first_contact(|t| s.nlerp_gap(t), target, samples);
    let (oracle, oracle_band) = (ours(TARGET), ours(TARGET - tol));
    let (touch_oracle, touch_band) = (ours(0.0), ours(-tol));
    let (nlerp_oracle, nlerp_band) = (nlerp(TARGET), nlerp(TARGET - tol));
    let on_ours = |toi: &Toi, oracle, options| judge(toi, oracle, a, sa, b, sb, options);

    let toi = s.ours(options);
    let verdict = on_ours(&toi, oracle, options);
    tallies[0].add(s, verdict, oracle, on_ours(&toi, oracle_band, options));

    let (toi, failed) = nonlinear_toi(s.nonlinear(true));
    tallies[1].failed_status += usize::from(failed);
    let verdict = on_ours(&toi, oracle, options);
    tallies[1].add(s, verdict, oracle, on_ours(&toi, oracle_band, options));

    let (toi, failed) = nonlinear_toi(s.nonlinear(false));
    tallies[2].failed_status += usize::from(failed);
    let verdict = on_ours(&toi, touch_oracle, &touch);
    tallies[2].add(s, verdict, touch_oracle, on_ours(&toi, touch_band, &touch));

    let out = s.sweep();
    let toi = sweep_toi(&out);
    let failed = usize::from(out.status == SweepToiStatus::Failed);
    tallies[3].failed_status += failed;
    let verdict = on_ours(&toi, oracle, options);
    tallies[3].add(s, verdict, oracle, on_ours(&toi, oracle_band, options));
    tallies[4].failed_status += failed;
    let verdict = judge_gap(&toi, nlerp_oracle, |t| s.nlerp_gap(t));
    let band = judge_gap(&toi, nlerp_band, |t| s.nlerp_gap(t));
    tallies[4].add(s, verdict, nlerp_oracle, band);
}

/// Audits every method on `scenes`, on all cores.
fn audit(scenes: &[Scene], samples: usize, options: &ToiOptions) -> [Tally; 5] {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = scenes.len().div_ceil(threads).max(1);
    let parts: Vec<[Tally; 5]> = std::thread::scope(|scope| {
        let handles: Vec<_> = scenes
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut tallies: [Tally; 5] = Default::default();
                    for s in part {
                        audit_scene(s, samples, options, &mut tallies);
                    }
                    tallies
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("audit thread"))
            .collect()
    });
    let mut total: [Tally; 5] = Default::default();
    for part in &parts {
        for (t, p) in total.iter_mut().zip(part) {
            t.merge(p);
        }
    }
    total
}

fn env_usize(name: &str) -> Option<usize> {
    std::env::var(name).ok().map(|v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, got {v:?}"))
    })
}

/// Where criterion writes (`$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`, else
/// `target/criterion`), so that the report finds the audit beside the timings.
fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return home.into();
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
        PathBuf::from,
    );
    target.join("criterion")
}

fn json_tally(out: &mut String, t: &Tally) {
    let examples: Vec<String> = t
        .examples
        .iter()
        .map(|(i, o, r)| {
            let r = r.map_or("null".to_string(), |r| format!("{r:.12}"));
            format!("{{\"case\": {i}, \"oracle\": {o:.12}, \"reported\": {r}}}")
        })
        .collect();
    let _ = write!(
        out,
        "{{\"sweeps\": {}, \"contacts\": {}, \"missed\": {}, \"late\": {}, \"spurious\": {}, \
         \"gave_up\": {}, \"failed_status\": {}, \"beyond_tolerance\": {}, \
         \"bucket_sweeps\": {:?}, \"bucket_misses\": {:?}, \"bucket_beyond\": {:?}, \
         \"examples\": [{}]}}",
        t.sweeps,
        t.contacts,
        t.missed,
        t.late,
        t.spurious,
        t.gave_up,
        t.failed_status,
        t.beyond_tolerance,
        t.bucket_sweeps,
        t.bucket_misses,
        t.bucket_beyond,
        examples.join(", ")
    );
}

// ------------------------------------------------------------------------------------------
// Benchmarks

fn toi_rotating(c: &mut Criterion) {
    let options = ToiOptions::default();
    // `cargo test --benches` runs this without `--bench`: keep that a quick smoke test.
    let full = std::env::args().any(|a| a == "--bench");
    let samples = env_usize("TOI_ROTATING_SAMPLES").unwrap_or(if full { 1_000 } else { 100 });
    let mut json = String::from("{\n");
    let _ = writeln!(
        json,
        "  \"samples\": {samples}, \"target\": {TARGET}, \"tolerance\": {}, \
         \"max_iterations\": {}, \"buckets\": {BUCKETS:?},",
        options.tolerance(),
        options.max_iterations()
    );
    let _ = writeln!(json, "  \"groups\": {{");
    let mut prepared = Vec::new();
    let mut totals: [Tally; 5] = Default::default();
    for (g, group) in GROUPS.iter().enumerate() {
        let count = env_usize("TOI_ROTATING_CASES")
            .map(|n| {
                if matches!(group.source, Source::SkinnyBox) {
                    n / 4
                } else {
                    n
                }
            })
            .unwrap_or(if full { group.audit_cases } else { 64 })
            .max(BATCH);
        let clock = Instant::now();
        let scenes = scenes(group, count, &options);
        println!("{}", check_mapping(group, &scenes[..BATCH], &options));
        let tallies = audit(&scenes, samples, &options);
        println!(
            "{:<17} audit: {} sweeps ({} with contact), oracle {samples} samples, {:.1} s",
            group.name,
            tallies[0].sweeps,
            tallies[0].contacts,
            clock.elapsed().as_secs_f64()
        );
        let _ = write!(
            json,
            "    \"{}\": {{\"label\": \"{}\"",
            group.name, group.label
        );
        for (method, t) in METHODS.iter().zip(&tallies) {
            println!(
                "    {method:<24} missed {:>4}  late {:>4}  (beyond tolerance {:>4})  spurious {:>4}  \
                 gave up {:>4}  parry Failed {:>4}  by turn {BUCKETS:?}: sweeps {:?}, missed \
                 or late {:?}, beyond tolerance {:?}",
                t.missed,
                t.late,
                t.beyond_tolerance,
                t.spurious,
                t.gave_up,
                t.failed_status,
                t.bucket_sweeps,
                t.bucket_misses,
                t.bucket_beyond,
            );
            for (i, o, r) in &t.examples {
                println!("        case {i}: oracle {o:.9}, reported {r:?}");
            }
            let _ = write!(json, ", \"{method}\": ");
            json_tally(&mut json, t);
        }
        for (total, t) in totals.iter_mut().zip(&tallies) {
            total.merge(t);
        }
        let comma = if g + 1 < GROUPS.len() { "," } else { "" };
        let _ = writeln!(json, "}}{comma}");
        prepared.push((group, scenes.into_iter().take(BATCH).collect::<Vec<_>>()));
    }
    let _ = writeln!(json, "  }}\n}}");
    let bad = totals[0].missed + totals[0].late;
    println!(
        "all groups: impact {} sweeps, {bad} missed or late; parry nonlinear {}; \
         parry sweep {} (own motion {})",
        totals[0].sweeps,
        totals[1].missed + totals[1].late,
        totals[3].missed + totals[3].late,
        totals[4].missed + totals[4].late,
    );
    if full {
        let dir = criterion_dir();
        let path = dir.join("toi_rotating_audit.json");
        std::fs::create_dir_all(&dir).expect("criterion directory");
        std::fs::write(&path, json).expect("write the audit");
        println!("audit written to {}", path.display());
    }
    assert_eq!(bad, 0, "impact missed or was late on a rotating sweep");

    for (group, scenes) in &prepared {
        let mut g = c.benchmark_group(format!("toi_rotating_{}", group.name));
        g.throughput(Throughput::Elements(BATCH as u64));
        g.bench_function("impact", |bench| {
            bench.iter(|| {
                for s in scenes {
                    let c = &s.case;
                    black_box(time_of_impact(
                        black_box(&c.a),
                        black_box(&c.sweep_a),
                        black_box(&c.b),
                        black_box(&c.sweep_b),
                        &options,
                    ));
                }
            });
        });
        g.bench_function("parry_nonlinear", |bench| {
            bench.iter(|| {
                for s in scenes {
                    let _ = black_box(cast_shapes_nonlinear(
                        black_box(&s.motion_a),
                        black_box(&s.round_a),
                        black_box(&s.motion_b),
                        black_box(s.parry_b.as_ref()),
                        0.0,
                        1.0,
                        true,
                    ));
                }
            });
        });
        g.bench_function("parry_nonlinear_touch", |bench| {
            bench.iter(|| {
                for s in scenes {
                    let _ = black_box(cast_shapes_nonlinear(
                        black_box(&s.motion_a),
                        black_box(s.parry_a.as_ref()),
                        black_box(&s.motion_b),
                        black_box(s.parry_b.as_ref()),
                        0.0,
                        1.0,
                        true,
                    ));
                }
            });
        });
        g.bench_function("parry_sweep", |bench| {
            bench.iter(|| {
                for s in scenes {
                    let proxy_a = ToiProxy::from_shape(black_box(s.parry_a.as_ref()));
                    let proxy_b = ToiProxy::from_shape(black_box(s.parry_b.as_ref()));
                    let (Some(proxy_a), Some(proxy_b)) = (proxy_a, proxy_b) else {
                        unreachable!("polygons and segments have proxies")
                    };
                    black_box(sweep_time_of_impact(
                        &proxy_a,
                        black_box(&s.sweep_a),
                        &proxy_b,
                        black_box(&s.sweep_b),
                        1.0,
                        TARGET,
                    ));
                }
            });
        });
        g.finish();
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(40)
}

criterion_group! {
    name = benches;
    config = config();
    targets = toi_rotating
}
criterion_main!(benches);
