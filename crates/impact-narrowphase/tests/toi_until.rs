//! [`time_of_impact_until`] against [`time_of_impact`]: the same answer, bit for bit, at or
//! before the cutoff, and [`Toi::Separated`] past it, for seeded rotating pairs, throws at
//! the ground and shots at hilly chains (whose rules ask the plain segment again).

use impact_geometry::{Isometry, Real, Shape, Sweep};
use impact_narrowphase::{Toi, ToiOptions, time_of_impact, time_of_impact_until};
use impact_testkit::SplitMix64;
use impact_testkit::audit::{random_ground_case, random_rotating_case};
use impact_testkit::chains::{hilly_ground, shot_at};
use proptest::prelude::*;

/// What [`time_of_impact_until`] must answer, given the full answer.
fn expected(full: Toi, cutoff: Real) -> Toi {
    match full.safe_fraction() {
        Some(f) if f > cutoff.max(0.0) => Toi::Separated,
        _ => full,
    }
}

/// Asks one pair at the full answer's own fraction, just before and after it, and at
/// `cutoff`, each against the full answer.
fn agrees(
    (a, sweep_a): (&Shape, &Sweep),
    (b, sweep_b): (&Shape, &Sweep),
    options: &ToiOptions,
    cutoff: Real,
) -> Result<(), TestCaseError> {
    let full = time_of_impact(a, sweep_a, b, sweep_b, options);
    let own = full.safe_fraction().unwrap_or(0.5);
    for cutoff in [cutoff, own, own * (1.0 - 1e-12), own + 1e-12, 0.0, -1.0] {
        let until = time_of_impact_until(a, sweep_a, b, sweep_b, options, cutoff);
        let want = expected(full, cutoff);
        prop_assert_eq!(
            format!("{until:?}"),
            format!("{want:?}"),
            "cutoff {} full {:?}",
            cutoff,
            full
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn rotating_pairs_answer_as_unbounded_up_to_the_cutoff(seed in any::<u64>(), cutoff in 0.0..1.0f64) {
        let mut rng = SplitMix64::new(seed);
        let options = ToiOptions::default();
        let case = random_rotating_case(&mut rng);
        agrees((&case.a, &case.sweep_a), (&case.b, &case.sweep_b), &options, cutoff)?;
        let ground = random_ground_case(&mut rng);
        agrees((&ground.a, &ground.sweep_a), (&ground.b, &ground.sweep_b), &options, cutoff)?;
    }

    #[test]
    fn shots_at_chains_answer_as_unbounded_up_to_the_cutoff(seed in any::<u64>(), cutoff in 0.0..1.0f64) {
        let mut rng = SplitMix64::new(seed);
        let options = ToiOptions::default();
        let chain = hilly_ground(&mut rng, 6);
        let turning = rng.below(4) != 0;
        let shot = shot_at(&mut rng, &chain, turning);
        let still = Sweep::stationary(Isometry::identity()).expect("a still sweep");
        for segment in chain.segments() {
            let segment = Shape::from(segment);
            agrees((&shot.shape, &shot.sweep), (&segment, &still), &options, cutoff)?;
            agrees((&segment, &still), (&shot.shape, &shot.sweep), &options, cutoff)?;
        }
    }
}
