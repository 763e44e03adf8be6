//! Several engines timed in lockstep on a shared, loaded machine, as Box2D's benchmark
//! program times one.
//!
//! Box2D's `benchmark` reports the mean step of steps 1 to N - 1 of a fresh world (step 0
//! pays for building the solver's structures). A scene's cost changes as it moves (a
//! swinging grid moves more bounding boxes than a hanging one), so engines compare only over
//! the same steps of the same scene: [`lockstep`] runs each engine's steps 1 to N - 1 in
//! rounds of a few steps, every engine in turn within a round, so that all of them are at the
//! same step when a round ends. The machine's other jobs come and go over seconds, and a
//! burst of load then spoils a round of one engine, not a whole run: besides the ratio of the
//! means (Box2D's figure), the summary gives the median over rounds of each round's ratio,
//! which a burst in a few rounds does not move.

use std::time::Instant;

/// An engine to time: its name and one step.
pub struct Entrant<'a> {
    /// The name in the summary.
    pub name: &'static str,
    /// One step of the engine's world.
    pub step: Box<dyn FnMut() + 'a>,
}

impl<'a> Entrant<'a> {
    /// An entrant named `name` whose step is `step`.
    pub fn new(name: &'static str, step: impl FnMut() + 'a) -> Self {
        Self {
            name,
            step: Box::new(step),
        }
    }
}

/// The times of one engine over the rounds of [`lockstep`].
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    /// The engine's name.
    pub name: &'static str,
    /// The mean step over every timed step (milliseconds): Box2D's figure.
    pub mean_ms: f64,
    /// Each round's total time (milliseconds), in order.
    pub rounds_ms: Vec<f64>,
}

/// Steps every entrant once (step 0, untimed), then `steps - 1` more in rounds of
/// `round_steps` (the last round may be shorter), every entrant in turn within a round, and
/// gives each entrant's times, in the order given.
pub fn lockstep(entrants: &mut [Entrant<'_>], steps: usize, round_steps: usize) -> Vec<Timing> {
    assert!(steps > 1 && round_steps > 0, "at least one timed step");
    for entrant in entrants.iter_mut() {
        (entrant.step)();
    }
    let mut rounds = vec![Vec::new(); entrants.len()];
    let mut done = 1;
    while done < steps {
        let n = round_steps.min(steps - done);
        for (entrant, rounds) in entrants.iter_mut().zip(&mut rounds) {
            let start = Instant::now();
            for _ in 0..n {
                (entrant.step)();
            }
            rounds.push(start.elapsed().as_secs_f64() * 1e3);
        }
        done += n;
    }
    entrants
        .iter()
        .zip(rounds)
        .map(|(entrant, rounds_ms)| Timing {
            name: entrant.name,
            mean_ms: rounds_ms.iter().sum::<f64>() / (steps - 1) as f64,
            rounds_ms,
        })
        .collect()
}

/// The median of `values` (the upper one of an even count); `NaN` for none.
pub fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The summary lines of `timings`: each engine's mean step, then for each engine named
/// `impact*` over each peer the ratio of the means and the median of the rounds' ratios
/// (below 1: impact is faster).
pub fn summary(timings: &[Timing]) -> Vec<String> {
    let mut lines: Vec<String> = timings
        .iter()
        .map(|t| format!("  {:<16} {:>8.3} ms/step", t.name, t.mean_ms))
        .collect();
    let (ours, peers): (Vec<&Timing>, Vec<&Timing>) =
        timings.iter().partition(|t| t.name.starts_with("impact"));
    for o in &ours {
        for p in &peers {
            let per_round = o
                .rounds_ms
                .iter()
                .zip(&p.rounds_ms)
                .map(|(a, b)| a / b)
                .collect();
            lines.push(format!(
                "  {} / {}: {:.2} (median of rounds {:.2})",
                o.name,
                p.name,
                o.mean_ms / p.mean_ms,
                median(per_round),
            ));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn lockstep_steps_every_entrant_alike_and_times_all_but_the_first_step() {
        let counts = [Cell::new(0), Cell::new(0)];
        // Each entrant records the other's count when it steps: in lockstep, B is never
        // ahead of A, and A never more than a round ahead of B.
        let ahead = Cell::new(0);
        let timings = lockstep(
            &mut [
                Entrant::new("impact", || {
                    counts[0].set(counts[0].get() + 1);
                    ahead.set(ahead.get().max(counts[0].get() - counts[1].get()));
                }),
                Entrant::new("peer", || {
                    assert!(counts[1].get() < counts[0].get(), "B ran ahead of A");
                    counts[1].set(counts[1].get() + 1);
                }),
            ],
            25,
            10,
        );
        assert_eq!([counts[0].get(), counts[1].get()], [25, 25]);
        assert_eq!(ahead.get(), 10, "a round of 10 steps");
        for t in &timings {
            assert_eq!(t.rounds_ms.len(), 3, "24 timed steps: 10, 10 and 4");
            let sum: f64 = t.rounds_ms.iter().sum();
            assert!((t.mean_ms * 24.0 - sum).abs() <= 1e-9 * sum.max(1.0));
        }
        let lines = summary(&timings);
        assert_eq!(lines.len(), 3, "two engines and one ratio");
        assert!(lines[2].starts_with("  impact / peer: "), "{}", lines[2]);
    }

    #[test]
    fn median_is_the_middle_value() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 3.0);
        assert!(median(Vec::new()).is_nan());
    }
}
