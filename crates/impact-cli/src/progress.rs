//! [`Progress`]: a progress bar on standard error for long runs.
//!
//! Hand-written rather than a crate (indicatif and its terminal crates): one line redrawn
//! with a carriage return is all a run needs, and it costs no build time. The tool draws it
//! only when standard error is a terminal (`std::io::IsTerminal`), so logs, pipes and CI see
//! nothing of it.

use crate::run::Observer;
use impact_scene::{AnyWorld, Scene};
use std::io::Write;
use std::time::{Duration, Instant};

/// How long a run goes before the bar appears: a short run finishes before a bar would be
/// read, and its flicker is noise.
pub const DEFAULT_DELAY: Duration = Duration::from_millis(500);
/// The least time between two redraws: a terminal that redraws for every one of a million
/// steps would slow the run down.
const REDRAW: Duration = Duration::from_millis(100);
/// Characters of the bar itself.
const WIDTH: u64 = 30;

/// A progress bar drawn on `out` after the run has taken `delay`, redrawn at most every
/// 100 ms, and erased at the end.
pub struct Progress<'a> {
    out: &'a mut dyn Write,
    delay: Duration,
    total: u64,
    start: Instant,
    last: Option<Instant>,
}

impl std::fmt::Debug for Progress<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress")
            .field("delay", &self.delay)
            .field("total", &self.total)
            .finish_non_exhaustive()
    }
}

impl<'a> Progress<'a> {
    /// A bar on `out` that appears once a run has taken `delay` ([`DEFAULT_DELAY`] for the
    /// tool).
    pub fn new(out: &'a mut dyn Write, delay: Duration) -> Self {
        Self {
            out,
            delay,
            total: 0,
            start: Instant::now(),
            last: None,
        }
    }

    /// The line for `step` of `total` after `elapsed`, without the carriage return.
    fn line(step: u64, total: u64, elapsed: Duration) -> String {
        let filled = (step * WIDTH).checked_div(total).unwrap_or(WIDTH);
        let bar: String = (0..WIDTH)
            .map(|i| if i < filled { '#' } else { '.' })
            .collect();
        let percent = (100 * step).checked_div(total).unwrap_or(100);
        let secs = elapsed.as_secs_f64();
        let eta = if step > 0 && step < total {
            format!(", {:.0} s left", secs * (total - step) as f64 / step as f64)
        } else {
            String::new()
        };
        format!("[{bar}] {step}/{total} steps ({percent}%), {secs:.1} s{eta}")
    }
}

impl Observer for Progress<'_> {
    fn begin(&mut self, scene: &Scene, _: &dyn AnyWorld) -> Result<(), String> {
        self.total = scene.steps;
        self.start = Instant::now();
        Ok(())
    }

    fn after_step(&mut self, step: u64, _: &dyn AnyWorld) -> Result<(), String> {
        let now = Instant::now();
        let elapsed = now - self.start;
        let due = match self.last {
            None => elapsed >= self.delay,
            Some(last) => now - last >= REDRAW || step == self.total,
        };
        if due {
            self.last = Some(now);
            // The bar is a courtesy: a terminal that refuses it must not stop the run.
            let _ = write!(self.out, "\r{}", Self::line(step, self.total, elapsed));
            let _ = self.out.flush();
        }
        Ok(())
    }

    fn end(&mut self) -> Result<(), String> {
        if self.last.is_some() {
            // Erase the line, so the summary that follows starts on a clean one.
            let _ = write!(self.out, "\r\x1b[2K");
            let _ = self.out.flush();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_shows_the_share_done() {
        let line = Progress::line(25, 100, Duration::from_secs(2));
        assert!(
            line.starts_with("[#######.......................] 25/100 steps (25%), 2.0 s"),
            "{line}"
        );
        assert!(line.ends_with(", 6 s left"), "{line}");
        assert_eq!(
            Progress::line(0, 0, Duration::ZERO),
            format!("[{}] 0/0 steps (100%), 0.0 s", "#".repeat(30))
        );
    }
}
