//! Matching the cases of runs of one probe: by case key (the case id, or for a repeated
//! case the id it repeats), each key summarized as the medians over its repetitions.
//!
//! Computed once per build for every run: a run's page, the deltas on the next run's
//! page, the comparison table and the index read them in every view.

use crate::model::{Case, Run};

/// The key two runs' cases are matched by ([`Case::key`]).
pub fn case_key(c: &Case) -> &str {
    c.key()
}

/// Median of the values present (the mean of the middle two for an even count).
pub fn median(mut v: Vec<u64>) -> Option<u64> {
    v.sort_unstable();
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some(((u128::from(v[n / 2 - 1]) + u128::from(v[n / 2])) / 2) as u64),
    }
}

/// Median of the decimal values present (the mean of the middle two for an even count).
pub fn median_f64(mut v: Vec<f64>) -> Option<f64> {
    v.sort_unstable_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// The cases of one key, summarized (medians over repetitions).
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub n: usize,
    pub prompt_eval_count: Option<u64>,
    pub eval_count: Option<u64>,
    pub prompt_eval_ns: Option<u64>,
    pub eval_ns: Option<u64>,
    pub num_predict: Option<u64>,
    pub total_ns: Option<u64>,
    pub load_ns: Option<u64>,
    /// The case's further measurements (`Case::measurements`) by name: empty for runs of
    /// engine counters only, so that their summaries allocate nothing.
    pub others: Vec<(String, f64)>,
}

impl Summary {
    /// One case as it is (no repetitions to take the median of).
    pub fn one(c: &Case) -> Summary {
        Summary {
            n: 1,
            prompt_eval_count: c.prompt_eval_count,
            eval_count: c.eval_count,
            prompt_eval_ns: c.prompt_eval_duration_ns,
            eval_ns: c.eval_duration_ns,
            num_predict: c.num_predict,
            total_ns: c.total_duration_ns,
            load_ns: c.load_duration_ns,
            others: others(&[c]),
        }
    }

    fn of(cases: &[&Case]) -> Summary {
        let m = |f: fn(&Case) -> Option<u64>| median(cases.iter().filter_map(|c| f(c)).collect());
        Summary {
            n: cases.len(),
            prompt_eval_count: m(|c| c.prompt_eval_count),
            eval_count: m(|c| c.eval_count),
            prompt_eval_ns: m(|c| c.prompt_eval_duration_ns),
            eval_ns: m(|c| c.eval_duration_ns),
            num_predict: m(|c| c.num_predict),
            total_ns: m(|c| c.total_duration_ns),
            load_ns: m(|c| c.load_duration_ns),
            others: others(cases),
        }
    }

    /// The measurement called `name` (its median over repetitions).
    pub fn measurement(&self, name: &str) -> Option<f64> {
        let field = match name {
            "prompt_eval_count" => self.prompt_eval_count,
            "eval_count" => self.eval_count,
            "prompt_eval_duration_ns" => self.prompt_eval_ns,
            "eval_duration_ns" => self.eval_ns,
            "num_predict" => self.num_predict,
            "total_duration_ns" => self.total_ns,
            "load_duration_ns" => self.load_ns,
            _ => {
                return self.others.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
            }
        };
        field.map(|v| v as f64)
    }

    /// Prompt-eval time per prompt token, in ns.
    pub fn per_token(&self) -> Option<f64> {
        match (self.prompt_eval_ns, self.prompt_eval_count) {
            (Some(t), Some(n)) if n > 0 => Some(t as f64 / n as f64),
            _ => None,
        }
    }
}

/// Medians of the further measurements of `cases` (`Case::measurements`), by name.
fn others(cases: &[&Case]) -> Vec<(String, f64)> {
    let mut names: Vec<&str> = cases
        .iter()
        .flat_map(|c| c.measurements.keys().map(String::as_str))
        .collect();
    if names.is_empty() {
        return Vec::new();
    }
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .filter_map(|n| {
            let values = cases.iter().filter_map(|c| c.measurement(n)).collect();
            Some((n.to_string(), median_f64(values)?))
        })
        .collect()
}

type FxIndexMap<K, V> = indexmap::IndexMap<K, V, rustc_hash::FxBuildHasher>;

/// The case keys of one run in order of first appearance, with the summary of each.
#[derive(Debug, Default)]
pub struct Summaries(FxIndexMap<String, Summary>);

impl Summaries {
    pub fn of(run: &Run) -> Summaries {
        let mut groups: FxIndexMap<&str, Vec<&Case>> = FxIndexMap::default();
        for c in &run.cases {
            groups.entry(case_key(c)).or_default().push(c);
        }
        let summaries = groups.into_iter().map(|(k, cases)| {
            let summary = match cases.as_slice() {
                [one] => Summary::one(one),
                _ => Summary::of(&cases),
            };
            (k.to_string(), summary)
        });
        Summaries(summaries.collect())
    }

    /// The summary of the cases under `key`.
    pub fn get(&self, key: &str) -> Option<&Summary> {
        self.0.get(key)
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

    fn case(yaml: &str) -> Case {
        serde_saphyr::from_str(yaml).expect("a case")
    }

    #[test]
    fn repeated_cases_are_summarised_by_their_medians_and_single_ones_as_they_are() {
        let run: Run = serde_saphyr::from_str(
            "id: r\nprobe: p\nengine: none\norigin: {ja: \"x\", en: \"x\"}\ncases:\n\
             - {id: a, prompt_eval_count: 10, prompt_eval_duration_ns: 1000, eval_count: 2, eval_duration_ns: 50}\n\
             - {id: b-r1, repeat: {of: b, index: 1}, prompt_eval_count: 4, prompt_eval_duration_ns: 400}\n\
             - {id: b-r2, repeat: {of: b, index: 2}, prompt_eval_count: 8, prompt_eval_duration_ns: 900}\n\
             - {id: b-r3, repeat: {of: b, index: 3}, prompt_eval_count: 6, prompt_eval_duration_ns: 600}\n",
        )
        .expect("a run");
        let s = Summaries::of(&run);
        assert_eq!(s.keys().collect::<Vec<_>>(), ["a", "b"]);
        let a = s.get("a").expect("a");
        assert_eq!(
            (
                a.n,
                a.prompt_eval_count,
                a.eval_count,
                a.prompt_eval_ns,
                a.eval_ns
            ),
            (1, Some(10), Some(2), Some(1000), Some(50))
        );
        let b = s.get("b").expect("b");
        assert_eq!(
            (b.n, b.prompt_eval_count, b.prompt_eval_ns, b.eval_count),
            (3, Some(6), Some(600), None)
        );
        assert_eq!(a.per_token(), Some(100.0));
        assert_eq!(b.per_token(), Some(100.0));
    }

    #[test]
    fn time_per_token_needs_both_values_and_a_token() {
        let one = |yaml: &str| Summary::one(&case(yaml));
        assert_eq!(
            one("{id: x, prompt_eval_count: 4, prompt_eval_duration_ns: 10}").per_token(),
            Some(2.5)
        );
        assert_eq!(
            one("{id: x, prompt_eval_count: 1, prompt_eval_duration_ns: 7}").per_token(),
            Some(7.0)
        );
        assert_eq!(
            one("{id: x, prompt_eval_count: 0, prompt_eval_duration_ns: 10}").per_token(),
            None
        );
        assert_eq!(one("{id: x, prompt_eval_count: 4}").per_token(), None);
        assert_eq!(one("{id: x, prompt_eval_duration_ns: 4}").per_token(), None);
    }
}
