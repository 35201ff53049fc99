//! Matching the cases of runs of one probe: by case key (the case id, or for a repeated
//! case the id it repeats), each key summarized as the medians over its repetitions.
//!
//! Computed once per build for every run: a run's page, the deltas on the next run's
//! page, the comparison table and the index read them in every view.

use crate::model::fields::Measurements;
use crate::model::{Case, Run};

/// The key two runs' cases are matched by ([`Case::key`]).
pub fn case_key(c: &Case) -> &str {
    c.key()
}

/// Median of the whole numbers present (the mean of the middle two, rounded down, for an
/// even count).
pub fn median(mut v: Vec<u64>) -> Option<u64> {
    v.sort_unstable();
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some(((u128::from(v[n / 2 - 1]) + u128::from(v[n / 2])) / 2) as u64),
    }
}

/// Median of the values present (the mean of the middle two for an even count, to one
/// place more than they were written with). Whole
/// numbers (counts, nanoseconds) keep a whole median, as [`median`] gives it.
pub fn median_f64(mut v: Vec<f64>) -> Option<f64> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if v.iter()
        .all(|x| x.fract() == 0.0 && (0.0..EXACT).contains(x))
    {
        return median(v.into_iter().map(|x| x as u64).collect()).map(|m| m as f64);
    }
    v.sort_unstable_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some(crate::model::format::midpoint(v[n / 2 - 1], v[n / 2])),
    }
}

/// The cases of one key, summarized: each measurement's median over the repetitions, or
/// a single case's own measurements.
#[derive(Debug, Clone, Copy)]
pub struct Summary<'a> {
    /// How many cases (repetitions) it summarises.
    pub n: usize,
    pub values: &'a Measurements,
}

impl<'a> Summary<'a> {
    /// The measurement called `name` (its median over repetitions).
    pub fn measurement(&self, name: &str) -> Option<f64> {
        self.values.get(name)
    }
}

/// The medians of cases under one key.
fn medians(cases: &[&Case]) -> Measurements {
    let mut names: Vec<&str> = cases.iter().flat_map(|c| c.measured()).collect();
    names.sort_unstable();
    names.dedup();
    let mut values = Measurements::default();
    for n in names {
        if let Some(m) = median_f64(cases.iter().filter_map(|c| c.measurement(n)).collect()) {
            values.insert(n, m);
        }
    }
    values
}

/// One case key of a run: its first case, and for a key that repeats, how many cases it
/// has and their medians.
#[derive(Debug)]
struct Key {
    case: usize,
    repeated: Option<(usize, Measurements)>,
}

/// The case keys of one run in order of first appearance, each with what summarises its
/// cases. Worked out once per build; read through [`Summaries::read`] with the run, whose
/// cases hold the keys and the single cases' measurements: a sweep has hundreds of
/// thousands of cases, nearly all of them alone under their key, and copying each key and
/// each case's measurements cost a build of 10^6 cases a fifth of its memory.
#[derive(Debug, Default)]
pub struct Summaries {
    keys: Vec<Key>,
    /// Positions in `keys`, by the hash of the key's text.
    table: hashbrown::HashTable<usize>,
    /// The names of the measurements the run's cases have, each once, in the order first
    /// met: a run's columns, found in this pass rather than again by every view.
    measured: Vec<&'static str>,
}

fn hash(key: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(key)
}

impl Summaries {
    pub fn of(run: &Run) -> Summaries {
        let cases = &run.cases;
        let key_of = |keys: &[Key], i: usize| keys.get(i).and_then(|k| cases.get(k.case));
        let mut keys: Vec<Key> = Vec::with_capacity(cases.len());
        let mut table = hashbrown::HashTable::with_capacity(cases.len());
        // The cases of each key that has more than one, by its position in `keys`.
        let mut repeats: rustc_hash::FxHashMap<usize, Vec<&Case>> = Default::default();
        let mut measured: Vec<&'static str> = Vec::new();
        for (i, c) in cases.iter().enumerate() {
            for n in c.measured() {
                if !measured.contains(&n) {
                    measured.push(n);
                }
            }
            let key = case_key(c);
            let h = hash(key);
            let found = table
                .find(h, |&k| key_of(&keys, k).is_some_and(|f| case_key(f) == key))
                .copied();
            match found {
                None => {
                    table.insert_unique(h, keys.len(), |&k| {
                        key_of(&keys, k).map_or(0, |f| hash(case_key(f)))
                    });
                    keys.push(Key {
                        case: i,
                        repeated: None,
                    });
                }
                Some(k) => repeats
                    .entry(k)
                    .or_insert_with(|| key_of(&keys, k).into_iter().collect())
                    .push(c),
            }
        }
        for (k, group) in repeats {
            if let Some(key) = keys.get_mut(k) {
                key.repeated = Some((group.len(), medians(&group)));
            }
        }
        Summaries {
            keys,
            table,
            measured,
        }
    }

    /// These summaries read with `run`, the run they were worked out from.
    pub fn read<'a>(&'a self, run: &'a Run) -> RunSummaries<'a> {
        RunSummaries { of: self, run }
    }
}

/// A run's [`Summaries`] with the run, to read them by key.
#[derive(Debug, Clone, Copy)]
pub struct RunSummaries<'a> {
    of: &'a Summaries,
    run: &'a Run,
}

impl<'a> RunSummaries<'a> {
    /// The names of the measurements the run's cases have, each once, in the order
    /// first met.
    pub fn measured(&self) -> &'a [&'static str] {
        &self.of.measured
    }

    /// The key at position `i` and its summary.
    fn at(&self, i: usize) -> Option<(&'a str, Summary<'a>)> {
        let key = self.of.keys.get(i)?;
        let first = self.run.cases.get(key.case)?;
        let summary = match &key.repeated {
            Some((n, values)) => Summary { n: *n, values },
            None => Summary {
                n: 1,
                values: &first.measurements,
            },
        };
        Some((case_key(first), summary))
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.of
            .table
            .find(hash(key), |&i| self.at(i).is_some_and(|(k, _)| k == key))
            .copied()
    }

    /// The summary of the cases under `key`.
    pub fn get(&self, key: &str) -> Option<Summary<'a>> {
        self.at(self.position(key)?).map(|(_, s)| s)
    }

    /// The summary under `key`, looked for first at position `*at`: runs of one probe
    /// mostly list the same cases in the same order, so a table that walks its cases finds
    /// the previous run's one there without hashing the key. `*at` moves past the one found.
    pub fn find(&self, key: &str, at: &mut usize) -> Option<Summary<'a>> {
        let i = match self.at(*at) {
            Some((k, _)) if k == key => *at,
            _ => self.position(key)?,
        };
        *at = i + 1;
        self.at(i).map(|(_, s)| s)
    }

    /// The case keys in order of first appearance, each with its summary.
    pub fn iter(&self) -> impl Iterator<Item = (&'a str, Summary<'a>)> + use<'a> {
        let this = *self;
        (0..self.of.keys.len()).filter_map(move |i| this.at(i))
    }

    pub fn contains(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// The case keys in order of first appearance.
    pub fn keys(&self) -> impl Iterator<Item = &'a str> + use<'a> {
        self.iter().map(|(k, _)| k)
    }

    /// Whether the two runs share at least one case key: runs with disjoint cases (such
    /// as transcriptions of different tables) are not compared.
    pub fn shares_a_key(&self, other: &RunSummaries) -> bool {
        other.keys().any(|k| self.contains(k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_of_decimals_take_the_middle_value() {
        assert_eq!(median_f64(vec![2.5, 0.5, 1.5]), Some(1.5));
        assert_eq!(median_f64(vec![0.25]), Some(0.25));
        assert_eq!(median_f64(vec![]), None);
    }

    #[test]
    fn medians() {
        assert_eq!(median(vec![]), None);
        assert_eq!(median(vec![5, 1, 3]), Some(3));
        assert_eq!(median(vec![4, 1, 3, 2]), Some(2));
        assert_eq!(median(vec![1, 4]), Some(2), "two: the mean of both");
        assert_eq!(median(vec![9, 1, 7, 3, 5]), Some(5), "five: the third");
        assert_eq!(
            median(vec![u64::MAX, u64::MAX]),
            Some(u64::MAX),
            "no overflow"
        );
    }

    #[test]
    fn repeated_cases_are_summarised_by_their_medians_and_single_ones_as_they_are() {
        let run: Run = serde_saphyr::from_str(
            "id: r\nprobe: p\nengine: none\norigin: {ja: \"x\", en: \"x\"}\ncases:\n\
             - {id: a, measurements: {est_rows: 10, exec_ns: 1000, act_rows: 2, plan_ns: 50}}\n\
             - {id: b-r1, repeat: {of: b, index: 1}, measurements: {est_rows: 4, exec_ns: 400}}\n\
             - {id: b-r2, repeat: {of: b, index: 2}, measurements: {est_rows: 8, exec_ns: 900}}\n\
             - {id: b-r3, repeat: {of: b, index: 3}, measurements: {est_rows: 6, exec_ns: 600}}\n",
        )
        .expect("a run");
        let s = Summaries::of(&run);
        let s = s.read(&run);
        assert_eq!(s.keys().collect::<Vec<_>>(), ["a", "b"]);
        let a = s.get("a").expect("a");
        let get = |x: Summary, n: &str| x.measurement(n);
        assert_eq!(
            (
                a.n,
                get(a, "est_rows"),
                get(a, "act_rows"),
                get(a, "exec_ns"),
                get(a, "plan_ns")
            ),
            (1, Some(10.0), Some(2.0), Some(1000.0), Some(50.0))
        );
        let b = s.get("b").expect("b");
        assert_eq!(
            (
                b.n,
                get(b, "est_rows"),
                get(b, "exec_ns"),
                get(b, "act_rows")
            ),
            (3, Some(6.0), Some(600.0), None)
        );
        // Every name any case measured, once, as the cases first name them (sorted
        // within a case).
        assert_eq!(s.measured(), ["act_rows", "est_rows", "exec_ns", "plan_ns"]);
        let later: Run = serde_saphyr::from_str(
            "id: r\nprobe: p\nengine: none\norigin: {ja: \"x\", en: \"x\"}\ncases:\n\
             - {id: a, measurements: {n: 1}}\n- {id: b, measurements: {m: 1, n: 2}}\n- {id: c}\n",
        )
        .expect("a run");
        assert_eq!(Summaries::of(&later).read(&later).measured(), ["n", "m"]);
    }

    #[test]
    fn a_summary_is_found_wherever_the_hint_points() {
        let run: Run = serde_saphyr::from_str(
            "id: r\nprobe: p\nengine: none\norigin: {ja: \"x\", en: \"x\"}\ncases:\n\
             - {id: a, measurements: {n: 1}}\n\
             - {id: b-r1, repeat: {of: b, index: 1}, measurements: {n: 2}}\n\
             - {id: b-r2, repeat: {of: b, index: 2}, measurements: {n: 4}}\n\
             - {id: c, measurements: {n: 5}}\n",
        )
        .expect("a run");
        let s = Summaries::of(&run);
        let s = s.read(&run);
        let n = |x: Option<Summary>| x.and_then(|x| x.measurement("n"));
        // In order: each where the hint points, the hint moving on.
        let mut at = 0;
        assert_eq!(n(s.find("a", &mut at)), Some(1.0));
        assert_eq!((n(s.find("b", &mut at)), at), (Some(3.0), 2));
        // Out of order, or the hint past the end: found by key all the same.
        assert_eq!((n(s.find("a", &mut at)), at), (Some(1.0), 1));
        let mut past = 9;
        assert_eq!((n(s.find("c", &mut past)), past), (Some(5.0), 3));
        // Missing: nothing, the hint left where it was.
        assert_eq!((n(s.find("z", &mut past)), past), (None, 3));
        let pairs: Vec<(&str, usize)> = s.iter().map(|(k, x)| (k, x.n)).collect();
        assert_eq!(pairs, [("a", 1), ("b", 2), ("c", 1)]);
    }

    #[test]
    fn a_median_of_whole_numbers_stays_whole_and_of_decimals_does_not() {
        assert_eq!(median_f64(vec![4.0, 7.0]), Some(5.0));
        assert_eq!(median_f64(vec![0.5, 1.0]), Some(0.75));
        assert_eq!(median_f64(vec![]), None);
    }

    #[test]
    fn summaries_read_with_another_run_find_nothing_they_cannot_reach() {
        let run = |cases: &str| -> Run {
            serde_saphyr::from_str(&format!(
                "id: r\nprobe: p\nengine: none\norigin: {{ja: \"x\", en: \"x\"}}\ncases:\n{cases}"
            ))
            .expect("a run")
        };
        let long = run("- {id: a, measurements: {n: 1}}\n- {id: b, measurements: {n: 2}}\n");
        let short = run("- {id: b, measurements: {n: 7}}\n");
        let s = Summaries::of(&long);
        // Read with a run it was not made from (an edit between two builds): keys past
        // the run's cases are not there, and nothing panics.
        let wrong = s.read(&short);
        assert_eq!(wrong.get("b").map(|x| x.n), None);
        assert_eq!(wrong.keys().count(), 1);
        assert!(!wrong.contains("a"));
        let right = s.read(&long);
        assert_eq!(right.get("b").and_then(|x| x.measurement("n")), Some(2.0));
    }
}
