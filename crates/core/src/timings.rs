//! `--timings`: how long each pipeline stage took, printed after a build or check.
//!
//! A process-wide record, off unless the command line turns it on, so the pipeline can
//! time its stages without threading a recorder through every call.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static ENABLED: AtomicBool = AtomicBool::new(false);
static STAGES: Mutex<Vec<(&'static str, Duration)>> = Mutex::new(Vec::new());
static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Starts recording.
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// Runs `f`, recording its wall time under `stage` when recording is on. A stage timed
/// twice (a diff loads two sites) adds up.
pub fn time<T>(stage: &'static str, f: impl FnOnce() -> T) -> T {
    if !ENABLED.load(Ordering::Relaxed) {
        return f();
    }
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    if let Ok(mut stages) = STAGES.lock() {
        match stages.iter_mut().find(|(s, _)| *s == stage) {
            Some((_, d)) => *d += took,
            None => stages.push((stage, took)),
        }
    }
    out
}

/// Records a count worth seeing beside the times (`parse cache 16 read, 0 parsed`),
/// when recording is on.
pub fn note(text: impl FnOnce() -> String) {
    if ENABLED.load(Ordering::Relaxed)
        && let Ok(mut notes) = NOTES.lock()
    {
        notes.push(text());
    }
}

/// `load 812.4 ms · model 3.1 ms · …` in the order the stages first ran, then the
/// notes, or `None` when nothing was recorded.
pub fn report() -> Option<String> {
    let stages = STAGES.lock().ok()?;
    if stages.is_empty() {
        return None;
    }
    let mut parts: Vec<String> = stages
        .iter()
        .map(|(s, d)| format!("{s} {:.1} ms", d.as_secs_f64() * 1e3))
        .collect();
    parts.extend(NOTES.lock().ok()?.iter().cloned());
    Some(parts.join(" · "))
}

#[cfg(test)]
mod tests {
    #[test]
    fn records_and_adds_up_when_enabled() {
        super::enable();
        let v = super::time("test-stage", || 41) + super::time("test-stage", || 1);
        assert_eq!(v, 42);
        let r = super::report().unwrap_or_default();
        assert_eq!(r.matches("test-stage").count(), 1, "{r}");
    }
}
