//! Audits time of impact under rotation against the dense-sampling oracle.
//!
//! `cargo run --release --example toi_audit -- [CASES] [SAMPLES]` (defaults 100,000 and 1,000)
//! generates seeded random sweeps (rotations past 45 degrees, up to two turns per step), shapes
//! thrown the same way at still ground (a tenth as many), plus Box2D's skinny-box case, runs `time_of_impact` on each, and compares with the oracle. A
//! miss (separated where the oracle sees contact) or a late hit is a bug; the run prints the
//! counts, the mean query time, and exits with an error if any miss or late hit occurred.

use impact_testkit::SplitMix64;
use impact_testkit::audit::{
    Case, Verdict, random_ground_case, random_rotating_case, skinny_box_case,
};
use impact2d::narrowphase::distance;
use impact2d::prelude::*;
use std::time::Instant;

#[derive(Default)]
struct Tally {
    cases: usize,
    touching_starts: usize,
    hits: usize,
    separated: usize,
    misses: usize,
    late: usize,
    spurious: usize,
    gave_up: usize,
    seconds: f64,
}

fn run(
    name: &str,
    cases: impl Iterator<Item = Case>,
    samples: usize,
    options: &ToiOptions,
) -> Tally {
    let mut t = Tally::default();
    for c in cases {
        t.cases += 1;
        let start = distance(&c.a, &c.sweep_a.start(), &c.b, &c.sweep_b.start()).distance;
        if start <= options.target_separation() + options.tolerance() {
            t.touching_starts += 1;
            continue;
        }
        let clock = Instant::now();
        let toi = time_of_impact(&c.a, &c.sweep_a, &c.b, &c.sweep_b, options);
        t.seconds += clock.elapsed().as_secs_f64();
        match c.audit(&toi, options, samples).1 {
            Verdict::Agree if matches!(toi, Toi::Hit(_)) => t.hits += 1,
            Verdict::Agree => t.separated += 1,
            Verdict::Missed { .. } => t.misses += 1,
            Verdict::Late { .. } => t.late += 1,
            Verdict::Spurious { .. } => t.spurious += 1,
            Verdict::GaveUp => t.gave_up += 1,
        }
    }
    let queried = t.cases - t.touching_starts;
    println!(
        "{name:<16} cases {:>7}  hits {:>7}  separated {:>7}  misses {:>3}  late {:>3}  spurious {:>3}  not converged {:>4}  mean {:.0} ns/query",
        t.cases,
        t.hits,
        t.separated,
        t.misses,
        t.late,
        t.spurious,
        t.gave_up,
        1e9 * t.seconds / queried.max(1) as f64
    );
    t
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let cases: usize = args
        .next()
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(100_000);
    let samples: usize = args.next().map(|s| s.parse()).transpose()?.unwrap_or(1_000);
    let options = ToiOptions::default().with_max_iterations(256)?;
    println!(
        "oracle: {samples} samples per sweep, bisection to 1e-12; target {} tolerance {}",
        options.target_separation(),
        options.tolerance()
    );
    let mut rng = SplitMix64::new(0x1234_5678);
    let random = run(
        "random rotating",
        (0..cases).map(|_| random_rotating_case(&mut rng)),
        samples,
        &options,
    );
    let mut rng = SplitMix64::new(0x0067_2017);
    let ground = run(
        "ground",
        (0..(cases / 10).max(1_000)).map(|_| random_ground_case(&mut rng)),
        samples,
        &options,
    );
    let skinny_cases = (cases / 10).max(1_000);
    let skinny = run(
        "skinny box",
        (0..skinny_cases).map(|i| {
            skinny_box_case(
                2.06 + 1.5 * i as f64 / skinny_cases as f64,
                0.0037 * i as f64,
            )
        }),
        samples,
        &options,
    );
    let bad = [random, ground, skinny]
        .iter()
        .map(|t| t.misses + t.late)
        .sum::<usize>();
    if bad > 0 {
        return Err(format!("{bad} missed or late hits").into());
    }
    Ok(())
}
