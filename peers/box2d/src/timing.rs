//! Interleaved timing of several engines on a shared, loaded machine.
//!
//! The machine's other jobs come and go over seconds, so timing one engine after another
//! puts a burst of load on whichever runs during it. Here each round steps every engine in
//! turn for a few steps, and the figure of an engine is the median of its rounds (with the
//! fastest and slowest round as its range): a burst spoils one round of every engine, not
//! all the rounds of one.

use std::time::{Duration, Instant};

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

/// Per-step times of one engine over the rounds of [`interleaved`] (milliseconds).
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// The engine's name.
    pub name: &'static str,
    /// The median round's mean step.
    pub median_ms: f64,
    /// The fastest round's mean step.
    pub min_ms: f64,
    /// The slowest round's mean step.
    pub max_ms: f64,
}

/// Times `rounds` rounds of `steps` steps of every entrant in turn, and gives each entrant's
/// figure, in the order given.
pub fn interleaved(entrants: &mut [Entrant<'_>], rounds: usize, steps: usize) -> Vec<Figure> {
    assert!(rounds > 0 && steps > 0, "at least one round of one step");
    let mut times = vec![Vec::with_capacity(rounds); entrants.len()];
    for _ in 0..rounds {
        for (entrant, times) in entrants.iter_mut().zip(&mut times) {
            let start = Instant::now();
            for _ in 0..steps {
                (entrant.step)();
            }
            times.push(ms(start.elapsed()) / steps as f64);
        }
    }
    entrants
        .iter()
        .zip(times)
        .map(|(entrant, mut times)| {
            times.sort_by(f64::total_cmp);
            Figure {
                name: entrant.name,
                median_ms: times[times.len() / 2],
                min_ms: times[0],
                max_ms: times[times.len() - 1],
            }
        })
        .collect()
}

/// Milliseconds of `d`.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The summary lines of `figures`: each engine's median and range, then the ratio of each
/// engine named `impact*` over each peer (below 1: impact is faster).
pub fn summary(figures: &[Figure]) -> Vec<String> {
    let mut lines: Vec<String> = figures
        .iter()
        .map(|f| {
            format!(
                "  {:<18} {:>8.3} ms/step  (rounds {:.3} to {:.3})",
                f.name, f.median_ms, f.min_ms, f.max_ms
            )
        })
        .collect();
    let (ours, peers): (Vec<&Figure>, Vec<&Figure>) =
        figures.iter().partition(|f| f.name.starts_with("impact"));
    for o in &ours {
        for p in &peers {
            lines.push(format!(
                "  {} / {}: {:.2}",
                o.name,
                p.name,
                o.median_ms / p.median_ms
            ));
        }
    }
    lines
}
