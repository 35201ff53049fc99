//! The prompt-token sweep: for each target count in `FROM..TO` (inclusive, every `step`),
//! find a prompt whose `prompt_eval_count` is exactly the target and record that request,
//! so a run holds prompt-eval time against prompt tokens.
//!
//! Prompts are one word repeated `n` times (`the the the …`). Calibration fits
//! `prompt_eval_count ≈ a + b·n` from the requests made so far (the template, BOS and
//! nonce make `a`; `b` is the tokens per word, 1 for most words) and tries the `n` that
//! model predicts, at most `max_tries` requests per target. Every try is a real,
//! cache-defeated request; the one recorded is the hit, or the closest try when none hit
//! (`sweep.hit: false`). Targets below what a one-word prompt already takes (`floor`) are
//! skipped and reported.

use super::engine::{Request, Server};
use crate::runs::Residency;
use crate::runs::{Counters, EngineCase, SweepPoint};
use evidence_core::model::types::{Case, Repeat};
use evidence_probe::{ProbeError, new_id};
use indicatif::ProgressBar;

/// Largest target and number of targets a sweep may have (bounds on the request loop).
pub const MAX_TARGET: u64 = 100_000;
pub const MAX_POINTS: usize = 5_000;

/// A parsed `--sweep` option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub from: u64,
    pub to: u64,
    pub step: u64,
    pub word: String,
    pub max_tries: u32,
}

impl Spec {
    /// Parses `FROM..TO` or `FROM..=TO` (both inclusive).
    pub fn parse(range: &str, step: u64, word: &str, max_tries: u32) -> Result<Spec, ProbeError> {
        let bad = || {
            ProbeError::other(
                format!("`{range}` is not a sweep range"),
                "write --sweep FROM..TO with 1 <= FROM <= TO, e.g. --sweep 1..600 --step 8",
            )
        };
        let (a, b) = range.split_once("..").ok_or_else(bad)?;
        let b = b.strip_prefix('=').unwrap_or(b);
        let from: u64 = a.trim().parse().map_err(|_| bad())?;
        let to: u64 = b.trim().parse().map_err(|_| bad())?;
        if from == 0 || from > to {
            return Err(bad());
        }
        if to > MAX_TARGET {
            return Err(ProbeError::other(
                format!("sweep target {to} is above the limit of {MAX_TARGET} tokens"),
                "",
            ));
        }
        if step == 0 {
            return Err(ProbeError::other("--step must be at least 1", ""));
        }
        let word = word.trim();
        if word.is_empty() || word.chars().any(char::is_whitespace) {
            return Err(ProbeError::other(
                format!("`{word}` is not one word"),
                "pass --sweep-word WORD (a single word without spaces)",
            ));
        }
        let spec = Spec {
            from,
            to,
            step,
            word: word.to_string(),
            max_tries: max_tries.clamp(1, 50),
        };
        let n = spec.targets().len();
        if n > MAX_POINTS {
            return Err(ProbeError::other(
                format!("the sweep has {n} targets; at most {MAX_POINTS} are allowed"),
                "use a larger --step",
            ));
        }
        Ok(spec)
    }

    /// Every target, ascending.
    pub fn targets(&self) -> Vec<u64> {
        (self.from..=self.to)
            .step_by(usize::try_from(self.step).unwrap_or(usize::MAX))
            .take(MAX_POINTS + 1)
            .collect()
    }

    /// `n` copies of the word, separated by spaces.
    pub fn prompt(&self, n: u64) -> String {
        vec![self.word.as_str(); usize::try_from(n).unwrap_or(0)].join(" ")
    }

    fn case_id(&self, target: u64) -> String {
        let width = self.to.to_string().len();
        format!("sweep-{target:0width$}")
    }
}

/// The linear model `count ≈ a + b·words` fitted from the latest two distinct tries.
#[derive(Debug, Clone, Copy)]
struct Fit {
    a: f64,
    b: f64,
}

impl Fit {
    fn words_for(&self, target: u64) -> u64 {
        let w = ((target as f64 - self.a) / self.b).round();
        if w.is_finite() && w >= 1.0 {
            (w as u64).min(MAX_TARGET * 4)
        } else {
            1
        }
    }
}

/// Calibration state carried from one target to the next.
struct Calibrator {
    /// (words, prompt_eval_count) of the most recent tries.
    last: Vec<(u64, u64)>,
    fit: Fit,
}

impl Calibrator {
    fn learn(&mut self, words: u64, count: u64) {
        self.last.retain(|&(w, _)| w != words);
        self.last.push((words, count));
        if self.last.len() > 2 {
            self.last.remove(0);
        }
        if let [(w1, c1), (w2, c2)] = self.last[..] {
            let b = (c2 as f64 - c1 as f64) / (w2 as f64 - w1 as f64);
            if b.is_finite() && b > 0.0 {
                self.fit.b = b.clamp(0.2, 16.0);
            }
        }
        self.fit.a = count as f64 - self.fit.b * words as f64;
    }
}

/// Runs the sweep; `repeat > 1` records each target that many times with the prompt
/// length found for it.
pub fn run(
    engine: &mut dyn Server,
    spec: &Spec,
    repeat: u32,
    bar: &ProgressBar,
) -> Result<Vec<Case>, ProbeError> {
    let mut out = Vec::new();
    let mut cal = Calibrator {
        last: Vec::new(),
        fit: Fit { a: 0.0, b: 1.0 },
    };
    let mut floor: Option<u64> = None;
    let mut skipped = Vec::new();
    for target in spec.targets() {
        let id = spec.case_id(target);
        bar.set_message(id.clone());
        if floor.is_some_and(|f| target < f) {
            skipped.push(target);
            bar.inc(u64::from(repeat));
            continue;
        }
        let mut tried: Vec<(u64, Case)> = Vec::new();
        let mut words = if cal.last.is_empty() {
            1
        } else {
            cal.fit.words_for(target)
        };
        let mut chosen = None;
        for attempt in 1..=spec.max_tries {
            if tried.iter().any(|(w, _)| *w == words) {
                break;
            }
            let case = measure(engine, spec, &id, words)?;
            let count = case.counter("prompt_eval_count").unwrap_or(0);
            cal.learn(words, count);
            if words == 1 {
                floor = Some(floor.map_or(count, |f| f.min(count)));
            }
            let hit = count == target;
            tried.push((words, case));
            if hit {
                chosen = Some((tried.len() - 1, attempt, true));
                break;
            }
            if words == 1 && count > target {
                break; // below the floor: no shorter prompt exists
            }
            let next = cal.fit.words_for(target);
            // Step at least one word in the right direction.
            words = if next == words {
                if count < target {
                    words + 1
                } else {
                    words.saturating_sub(1).max(1)
                }
            } else {
                next
            };
        }
        let tries = tried.len() as u32;
        let (index, hit) = match chosen {
            Some((i, _, hit)) => (i, hit),
            None => {
                // The closest try; below the floor, the target is skipped instead.
                if floor.is_some_and(|f| target < f) {
                    skipped.push(target);
                    bar.inc(u64::from(repeat));
                    continue;
                }
                let best = tried
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, (_, c))| {
                        c.counter("prompt_eval_count").unwrap_or(0).abs_diff(target)
                    })
                    .map(|(i, _)| i)
                    .unwrap_or(0);
                (best, false)
            }
        };
        let Some((words, case)) = tried.into_iter().nth(index) else {
            continue;
        };
        let point = SweepPoint {
            target,
            words,
            tries,
            hit,
        };
        out.push(finish(case, &id, point, repeat, 1));
        bar.inc(1);
        for k in 2..=repeat {
            let rid = format!("{id}-r{k}");
            let case = measure(engine, spec, &rid, words)?;
            out.push(finish(case, &id, point, repeat, k));
            bar.inc(1);
        }
    }
    if !skipped.is_empty() {
        bar.suspend(|| {
            eprintln!(
                "note: {} target(s) from {} to {} are below the smallest prompt this engine \
                 takes ({} tokens with a one-word prompt) and were skipped",
                skipped.len(),
                skipped.first().copied().unwrap_or_default(),
                skipped.last().copied().unwrap_or_default(),
                floor.unwrap_or_default()
            )
        });
    }
    Ok(out)
}

fn measure(engine: &mut dyn Server, spec: &Spec, id: &str, words: u64) -> Result<Case, ProbeError> {
    let prompt = spec.prompt(words);
    let req = Request {
        case_id: id,
        prompt: &prompt,
        num_predict: 1,
        mode: Residency::Hot,
    };
    engine.generate(&req).map_err(|e| e.for_case(id))
}

fn finish(mut case: Case, id: &str, point: SweepPoint, repeat: u32, k: u32) -> Case {
    let rid = if repeat > 1 {
        format!("{id}-r{k}")
    } else {
        id.to_string()
    };
    case.id = new_id(&rid);
    case.set_prompt(None);
    case.set_sweep_point(Some(point));
    if repeat > 1 {
        case.repeat = Some(Repeat {
            of: id.to_string(),
            index: k,
        });
    }
    case
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::engine::Environment;
    use crate::runs::{ModelMemory, RequestSettings};

    /// An engine whose prompt_eval_count is `overhead + tokens_per_word · words`.
    struct Fake {
        overhead: u64,
        per_word: u64,
        calls: u32,
    }

    impl Server for Fake {
        fn kind(&self) -> &'static str {
            "llama-server"
        }
        fn endpoint(&self) -> &str {
            "http://fake"
        }
        fn describe(&mut self) -> Result<Environment, ProbeError> {
            Ok(Environment::default())
        }
        fn generate(&mut self, req: &Request) -> Result<Case, ProbeError> {
            self.calls += 1;
            let words = req.prompt.split(' ').count() as u64;
            let mut c = Case::new(req.case_id);
            c.set_counter(
                "prompt_eval_count",
                Some(self.overhead + self.per_word * words),
            );
            c.set_counter("prompt_eval_duration_ns", Some(1000 * words));
            Ok(c)
        }
        fn after(&mut self) -> Result<Option<ModelMemory>, ProbeError> {
            Ok(None)
        }
        fn settings(&self) -> RequestSettings {
            RequestSettings {
                stream: false,
                temperature: 0.0,
                seed: 0,
                timeout_secs: 1,
                raw: None,
                cache_prompt: None,
            }
        }
    }

    #[test]
    fn ranges_parse_inclusively() {
        let s = Spec::parse("1..600", 8, "the", 8).unwrap();
        let t = s.targets();
        assert_eq!((t[0], t[1], *t.last().unwrap()), (1, 9, 593));
        assert_eq!(Spec::parse("5..=5", 1, "a", 3).unwrap().targets(), [5]);
        for bad in ["", "0..5", "9..3", "a..b", "1..1000000"] {
            assert!(Spec::parse(bad, 1, "the", 8).is_err(), "{bad}");
        }
        assert!(Spec::parse("1..5", 1, "two words", 8).is_err());
        assert_eq!(s.case_id(9), "sweep-009");
    }

    #[test]
    fn calibration_hits_every_reachable_target() {
        crate::register();
        let mut e = Fake {
            overhead: 7,
            per_word: 1,
            calls: 0,
        };
        let spec = Spec::parse("1..100", 9, "the", 8).unwrap();
        let cases = run(&mut e, &spec, 1, &ProgressBar::hidden()).unwrap();
        // Targets below 8 (one word + 7) are skipped; every other one is hit.
        assert!(cases.iter().all(|c| c.sweep_point().unwrap().hit));
        assert_eq!(
            cases.first().map(|c| c.counter("prompt_eval_count")),
            Some(Some(10))
        );
        assert_eq!(cases.len(), 11);
        assert!(e.calls <= 2 * 12, "{} calls", e.calls);
    }

    #[test]
    fn unreachable_counts_record_the_closest_try() {
        crate::register();
        let mut e = Fake {
            overhead: 2,
            per_word: 2,
            calls: 0,
        };
        let spec = Spec::parse("5..7", 1, "the", 4).unwrap();
        let cases = run(&mut e, &spec, 2, &ProgressBar::hidden()).unwrap();
        let got: Vec<_> = cases
            .iter()
            .map(|c| {
                (
                    c.id.value.clone(),
                    c.counter("prompt_eval_count").unwrap(),
                    c.sweep_point().unwrap().hit,
                )
            })
            .collect();
        assert_eq!(got[0].0, "sweep-5-r1");
        assert!(!got[0].2, "5 is odd: no prompt hits it");
        assert!(got.iter().any(|g| g.1 == 6 && g.2));
        assert_eq!(cases.len(), 6);
        assert!(e.calls < 3 * 4 + 3 + 1);
    }
}
