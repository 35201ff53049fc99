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

/// Median of the values present (the mean of the middle two for an even count). Whole
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
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// The cases of one key, summarized: each measurement's median over the repetitions.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// How many cases (repetitions) it summarises.
    pub n: usize,
    pub values: Measurements,
}

impl Summary {
    /// One case as it is (no repetitions to take the median of).
    pub fn one(c: &Case) -> Summary {
        Summary {
            n: 1,
            values: c.measurements.clone(),
        }
    }

    fn of(cases: &[&Case]) -> Summary {
        let mut names: Vec<&str> = cases.iter().flat_map(|c| c.measured()).collect();
        names.sort_unstable();
        names.dedup();
        let mut values = Measurements::default();
        for n in names {
            if let Some(m) = median_f64(cases.iter().filter_map(|c| c.measurement(n)).collect()) {
                values.insert(n, m);
            }
        }
        Summary {
            n: cases.len(),
            values,
        }
    }

    /// The measurement called `name` (its median over repetitions).
    pub fn measurement(&self, name: &str) -> Option<f64> {
        self.values.get(name)
    }
}

type FxIndexMap<K, V> = indexmap::IndexMap<K, V, rustc_hash::FxBuildHasher>;

/// The case keys of one run in order of first appearance, with the summary of each.
#[derive(Debug, Default)]
pub struct Summaries(FxIndexMap<String, Summary>);

impl Summaries {
    pub fn of(run: &Run) -> Summaries {
        // Each key's first case, and its repetitions: most keys have none, and a sweep has
        // hundreds of thousands of cases, so the repetitions alone get a list.
        let mut groups: FxIndexMap<&str, (&Case, Vec<&Case>)> =
            FxIndexMap::with_capacity_and_hasher(run.cases.len(), Default::default());
        for c in &run.cases {
            match groups.entry(case_key(c)) {
                indexmap::map::Entry::Occupied(mut e) => e.get_mut().1.push(c),
                indexmap::map::Entry::Vacant(e) => {
                    e.insert((c, Vec::new()));
                }
            }
        }
        let mut summaries = FxIndexMap::with_capacity_and_hasher(groups.len(), Default::default());
        for (k, (first, more)) in groups {
            let summary = match more.is_empty() {
                true => Summary::one(first),
                false => Summary::of(&[&[first][..], &more].concat()),
            };
            summaries.insert(k.to_string(), summary);
        }
        Summaries(summaries)
    }

    /// The summary of the cases under `key`.
    pub fn get(&self, key: &str) -> Option<&Summary> {
        self.0.get(key)
    }

    /// The summary under `key`, looked for first at position `*at`: runs of one probe
    /// mostly list the same cases in the same order, so a table that walks its cases finds
    /// the previous run's one there without hashing the key. `*at` moves past the one found.
    pub fn find(&self, key: &str, at: &mut usize) -> Option<&Summary> {
        let i = match self.0.get_index(*at) {
            Some((k, _)) if k == key => *at,
            _ => self.0.get_index_of(key)?,
        };
        *at = i + 1;
        self.0.get_index(i).map(|(_, s)| s)
    }

    /// The case keys in order of first appearance, each with its summary.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Summary)> {
        self.0.iter().map(|(k, s)| (k.as_str(), s))
    }

    pub fn contains(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }

    /// The case keys in order of first appearance.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }

    /// Whether the two runs share at least one case key: runs with disjoint cases (such
    /// as transcriptions of different tables) are not compared.
    pub fn shares_a_key(&self, other: &Summaries) -> bool {
        other.keys().any(|k| self.contains(k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(s.keys().collect::<Vec<_>>(), ["a", "b"]);
        let a = s.get("a").expect("a");
        let get = |x: &Summary, n: &str| x.measurement(n);
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
        let n = |x: Option<&Summary>| x.and_then(|x| x.measurement("n"));
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
}
