//! The earliest answer over two bodies' shape pairs by branch and bound
//! ([`earliest_shape_tois`]) against asking every pair in full ([`shape_tois`]), and the
//! bounding-disc test that skips the query ([`discs_stay_apart`]): seeded compounds spinning
//! onto a hilly chain, into each other, and into single shapes.

use super::discs_stay_apart;
use super::shape_pairs::{earliest, earliest_shape_tois, shape_tois};
use crate::domain::translated_sweep;
use impact_geometry::{Circle, Isometry, Real, Sweep, Vector};
use impact_narrowphase::{Toi, ToiOptions};
use impact_solver::{BodySet, RigidBody, RigidBodyDef};
use impact_testkit::SplitMix64;
use impact_testkit::compounds::{compound, random_pieces};
use impact_testkit::scenes::{Terrain, compound_piece};
use proptest::prelude::*;

const DT: Real = 1.0 / 60.0;

/// A body of `def` at `pose`, and its sweep over a step at `(linvel, angvel)` (about its
/// centre of mass).
fn moving(def: RigidBodyDef, pose: Isometry, (v, w): (Vector, Real)) -> (RigidBody, Sweep) {
    let mut bodies = BodySet::new();
    let handle = bodies.insert(def.pose(pose)).expect("a valid body");
    let body = bodies.get(handle).expect("just inserted").clone();
    let sweep = Sweep::new(pose, body.local_center(), v, w, DT).expect("a finite sweep");
    (body, sweep)
}

/// A seeded pair of bodies that often meet within a step, the first of several shapes:
/// a compound over the hilly chain (falling fast or resting on it), against another
/// compound, or against a disc.
fn seeded_pair(seed: u64) -> ((RigidBody, Sweep), (RigidBody, Sweep)) {
    let mut rng = SplitMix64::new(seed);
    let spin = |rng: &mut SplitMix64| match rng.below(4) {
        0 => 0.0,
        1 => rng.range(-0.5, 0.5),
        2 => rng.range(-30.0, 30.0),
        _ => rng.range(-120.0, 120.0),
    };
    let piece = |rng: &mut SplitMix64| {
        if rng.below(2) == 0 {
            compound_piece(rng.below(4))
        } else {
            compound(&random_pieces(rng))
        }
    };
    let first = piece(&mut rng);
    match rng.below(3) {
        0 => {
            let terrain = Terrain::hilly(6.0, seed);
            let x = rng.range(-5.0, 5.0);
            // Within a step's fall of the ground, or resting on it.
            let height = if rng.below(3) == 0 {
                rng.range(0.0, 0.1)
            } else {
                rng.range(0.0, 4.0)
            };
            let speed = if height < 0.1 {
                rng.range(0.0, 2.0)
            } else {
                rng.range(20.0, 300.0)
            };
            let pose = Isometry::new(
                Vector::new(x, terrain.height(x) + height),
                rng.range(-3.2, 3.2),
            );
            let v = Vector::new(rng.range(-0.25, 0.25) * speed, -speed);
            let ground = RigidBodyDef::from_chain(&terrain.chain());
            let w = spin(&mut rng);
            (
                moving(first, pose, (v, w)),
                moving(ground, Isometry::identity(), (Vector::zeros(), 0.0)),
            )
        }
        kind => {
            let second = if kind == 1 {
                piece(&mut rng)
            } else {
                RigidBodyDef::new(Circle::new(rng.range(0.05, 0.5)).expect("a radius").into())
            };
            let at = Vector::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5));
            let toward = -at * rng.range(0.0, 120.0);
            let pose_a = Isometry::new(Vector::zeros(), rng.range(-3.2, 3.2));
            let pose_b = Isometry::new(at, rng.range(-3.2, 3.2));
            let (wa, wb) = (spin(&mut rng), spin(&mut rng));
            (
                moving(first, pose_a, (Vector::zeros(), wa)),
                moving(second, pose_b, (toward, wb)),
            )
        }
    }
}

/// The fraction by which an answer cuts the search (see [`earliest_shape_tois`]).
fn cuts(toi: &Toi) -> Option<Real> {
    match toi {
        Toi::Hit(hit) if hit.fraction > 0.0 => Some(hit.fraction),
        Toi::NotConverged { safe_fraction } => Some(*safe_fraction),
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Unbounded, the earliest answer is the same shape pair with the same answer, bit for
    /// bit; with a bound, every answer given is the full one, in the same order, and every
    /// pair left out would have come after the bound or the earliest hit.
    #[test]
    fn branch_and_bound_finds_the_earliest_of_all_pairs(seed in any::<u64>(), bound in 0.0..1.5f64) {
        let ((a, sa), (b, sb)) = seeded_pair(seed);
        let options = ToiOptions::default();
        for (x, y) in [((&a, &sa), (&b, &sb)), ((&b, &sb), (&a, &sa))] {
            let mut full = Vec::new();
            shape_tois(x, y, |_| true, &options, &mut full);
            let mut bounded = Vec::new();
            earliest_shape_tois(x, y, |_| true, &options, Real::INFINITY, &mut bounded);
            let (e, f) = (earliest(&bounded), earliest(&full));
            prop_assert_eq!(format!("{e:?}"), format!("{f:?}"));
            for bound in [Real::INFINITY, bound] {
                earliest_shape_tois(x, y, |_| true, &options, bound, &mut bounded);
                // A pair left out, or cut short to `Separated`, would have come later.
                let cut = bounded.iter().filter_map(|(_, t)| cuts(t)).fold(bound, Real::min);
                let later = |toi: &Toi| cuts(toi).is_some_and(|f| f > cut) || *toi == Toi::Separated;
                let mut rest = full.iter();
                for (pair, toi) in &bounded {
                    let same = rest.by_ref().find(|(p, _)| p == pair);
                    prop_assert!(same.is_some(), "{:?} out of order", pair);
                    let (_, whole) = same.unwrap();
                    if format!("{whole:?}") != format!("{toi:?}") {
                        prop_assert!(*toi == Toi::Separated && later(whole), "{:?}: {:?} for {:?}", pair, toi, whole);
                    }
                }
                for (pair, toi) in &full {
                    if !bounded.iter().any(|(p, _)| p == pair) {
                        prop_assert!(later(toi), "{:?} left out: {:?}, cut at {}", pair, toi, cut);
                    }
                }
            }
        }
    }
}

/// Bodies whose bounding discs stay apart ([`discs_stay_apart`], the test the clamp asks
/// before a candidate's or a runner's time of impact) have every shape pair apart by the
/// full query, whatever they turn: the seeded pairs above, the second moved off by up to 3
/// units, both moving or the first standing where it is at a seeded fraction (a runner
/// against a stopped body) while the second goes on over the rest.
#[test]
fn discs_that_stay_apart_leave_every_shape_pair_apart() {
    let options = ToiOptions::default();
    let (mut apart, mut asked) = (0, 0);
    let mut rng = SplitMix64::new(0x5eed_d15c);
    for seed in 0..3_000 {
        let ((a, sa), (b, sb)) = seeded_pair(seed);
        let angle = rng.range(0.0, core::f64::consts::TAU);
        let offset = Vector::new(angle.cos(), angle.sin()) * rng.range(0.0, 3.0);
        let sb = translated_sweep(&sb, &offset).expect("a finite sweep");
        let (sa, sb) = if rng.below(2) == 0 {
            (sa, sb)
        } else {
            let f = rng.range(0.0, 0.9);
            let rest = sb.remainder_from(f).expect("time left");
            let standing = Sweep::new(
                sa.pose_at(f),
                sa.local_center(),
                Vector::zeros(),
                0.0,
                rest.dt(),
            );
            (standing.expect("a finite sweep"), rest)
        };
        let ends = |s: &Sweep| (s.center_at(0.0), s.center_at(1.0));
        let ((a0, a1), (b0, b1)) = (ends(&sa), ends(&sb));
        if !discs_stay_apart((&a, &sa, a0, a1), (&b, &sb, b0, b1), &options) {
            asked += 1;
            continue;
        }
        apart += 1;
        let mut full = Vec::new();
        shape_tois((&a, &sa), (&b, &sb), |_| true, &options, &mut full);
        for (pair, toi) in &full {
            assert_eq!(*toi, Toi::Separated, "seed {seed}: {pair:?}");
        }
    }
    // Both answers are exercised.
    assert!(apart > 300 && asked > 300, "{apart} apart, {asked} asked");
}
