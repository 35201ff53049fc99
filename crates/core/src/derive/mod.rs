//! Stage 3: facts computed from the evidence, never stored in `data/`.
//!
//! The dispatch zone of every probe case under every dispatch map, the latest run of each
//! probe, the previous run (for deltas), each run's cases by case key ([`matching`]) and
//! back-references (who cites a record). What a pack's runs found, its own `derive.rs` says.

pub mod matching;

use crate::model::refs::{Kind, Ref};
use crate::model::{Bound, Case, DispatchMap, Edge, Evidence, Run};
pub use matching::{RunSummaries, Summaries, Summary, case_key};
use std::collections::{BTreeMap, HashMap};

/// The family a value of the map's variable routes to: the first branch whose bound holds.
pub fn zone(map: &DispatchMap, value: f64) -> Option<&str> {
    map.branches
        .iter()
        .find(|b| b.bound.is_none_or(|bound| bound.holds(value)))
        .map(|b| b.family.value.as_str())
}

/// The stretches of the variable's values over which every map routes one way, in
/// ascending order, covering every number: the edges of all the maps' bounds cut the
/// axis, a value that is an edge both ways (`lt: 8` in one map, `le: 8` in another)
/// getting a stretch of its own (`= 8`).
pub fn segments(maps: &[&DispatchMap]) -> Vec<Bound> {
    // A cut sits just before its value (`lt`, `ge`: the value starts the next stretch)
    // or just after it (`le`, `gt`: the value ends the stretch before).
    let mut cuts: Vec<(f64, bool)> = Vec::new();
    for b in maps
        .iter()
        .flat_map(|m| &m.branches)
        .filter_map(|b| b.bound)
    {
        cuts.extend(b.lower.map(|e| (e.value, !e.inclusive)));
        cuts.extend(b.upper.map(|e| (e.value, e.inclusive)));
    }
    cuts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    cuts.dedup();
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut lower = None;
    for (value, after) in cuts {
        out.push(Bound {
            lower,
            upper: Some(Edge::new(value, after)),
        });
        lower = Some(Edge::new(value, !after));
    }
    out.push(Bound { lower, upper: None });
    out
}

/// A value inside a stretch of [`segments`] (every map routes all of it one way, so any
/// value stands for the rest): an edge it includes, else a value between its edges.
pub fn sample(seg: &Bound) -> f64 {
    match (seg.lower, seg.upper) {
        (Some(lo), _) if lo.inclusive => lo.value,
        (_, Some(hi)) if hi.inclusive => hi.value,
        (Some(lo), Some(hi)) => lo.value / 2.0 + hi.value / 2.0,
        (Some(lo), None) => beyond(lo.value, 1.0),
        (None, Some(hi)) => beyond(hi.value, -1.0),
        (None, None) => 0.0,
    }
}

/// A value past the edge `x` in direction `dir`: the largest number that way when the
/// step overflows, `x` itself when `x` already is it (the stretch beyond holds no number).
fn beyond(x: f64, dir: f64) -> f64 {
    let v = x + dir * (x.abs() + 1.0);
    match v.is_finite() {
        true => v,
        false if x != dir * f64::MAX => dir * f64::MAX,
        false => x,
    }
}

/// The values that reach each branch of `map` and satisfy its bound, as stretches in
/// ascending order: empty for a branch earlier ones leave nothing to.
pub fn reach(map: &DispatchMap) -> Vec<Vec<Bound>> {
    let mut out = vec![Vec::<Bound>::new(); map.branches.len()];
    let mut previous = None;
    for seg in segments(&[map]) {
        let v = sample(&seg);
        let branch = map
            .branches
            .iter()
            .position(|b| b.bound.is_none_or(|bound| bound.holds(v)));
        if let Some(i) = branch {
            // The stretch next to the last one, to the same branch: one stretch.
            match out[i].last_mut() {
                Some(last) if previous == branch => last.upper = seg.upper,
                _ => out[i].push(seg),
            }
        }
        previous = branch;
    }
    out
}

/// The zone of one case under one map, when the case measured what the map's variable is
/// measured as ([`DispatchMap::measured_as`]).
pub fn case_zone<'m>(map: &'m DispatchMap, case: &Case) -> Option<&'m str> {
    case.measurement(map.measured_as())
        .and_then(|v| zone(map, v))
}

/// Computed facts.
#[derive(Debug, Default)]
pub struct Derived {
    /// Runs of each probe of the site's own subject, oldest first (by date, undated
    /// first, then id).
    pub runs_by_probe: BTreeMap<String, Vec<String>>,
    /// Runs of each probe of each other subject (subject → probe → ids), in the same
    /// order: a comparison run's neighbours and deltas are runs of its own subject.
    compared_by_probe: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    /// Run id → its position in `runs_by_probe` or `compared_by_probe`, so finding
    /// neighbours is not a scan.
    run_position: HashMap<String, usize>,
    /// Who cites each record: target → citing records.
    pub cited_by: HashMap<Ref, Vec<Ref>>,
    /// Each run's cases by case key (run id → summaries).
    summaries: HashMap<String, Summaries>,
    /// How each run's cases fall into the families of the map it was assessed against
    /// (run id → counts), for the runs that have any.
    zone_counts: HashMap<String, ZoneCounts>,
    /// Run id → the next dated run of the same probe and subject that read the same file
    /// and recorded the same result ([`same_result`]): the earlier run's table would
    /// only repeat the later one's.
    repeated_by: HashMap<String, String>,
}

/// How many of a run's cases fall in each family under the map the run was assessed
/// against. Counted once here: every view of the runs index shows them, and a site with
/// many probe runs has a million cases to count.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ZoneCounts {
    /// Each family with its count, in the order of the map's branches.
    pub families: Vec<(String, usize)>,
    /// The cases a reading leaves open, not counted in the zone the map would give them.
    pub open: usize,
}

/// The zone counts of `run`; `None` without an assessed map that holds for the run, or
/// when no case has a zone.
fn count_zones(ev: &Evidence, run: &Run) -> Option<ZoneCounts> {
    let map = run
        .assessed_against
        .as_ref()
        .and_then(|a| ev.maps.get(&a.value))
        .filter(|m| ev.map_applies(m, run))?;
    let mut counts: Vec<(&str, usize)> = Vec::new();
    let mut open = 0;
    for c in &run.cases {
        let Some(z) = case_zone(map, c) else { continue };
        if ev.reading_leaves_open(run, c) {
            open += 1;
            continue;
        }
        match counts.iter_mut().find(|(f, _)| *f == z) {
            Some((_, n)) => *n += 1,
            None => counts.push((z, 1)),
        }
    }
    if counts.is_empty() && open == 0 {
        return None;
    }
    let order = |f: &str| map.branches.iter().position(|b| b.family.value == f);
    counts.sort_by_key(|(f, _)| order(f));
    Some(ZoneCounts {
        families: counts
            .into_iter()
            .map(|(f, n)| (f.to_string(), n))
            .collect(),
        open,
    })
}

impl Derived {
    /// The latest run of a probe: its last run by date. A run without a date is never
    /// the latest (its order against the others is unknown), so a probe whose runs have
    /// no date has none.
    pub fn latest<'e>(&self, ev: &'e Evidence, probe: &str) -> Option<&'e Run> {
        // Undated runs sort first: when the last has no date, none has.
        let id = self.runs_by_probe.get(probe)?.last()?;
        ev.runs
            .get(id)
            .map(|r| &r.value)
            .filter(|r| r.date.is_some())
    }

    /// The run before `run` of the same probe, for deltas.
    pub fn previous<'e>(&self, ev: &'e Evidence, run: &Run) -> Option<&'e Run> {
        self.neighbours(ev, run).0
    }

    /// The runs of the same probe just before and just after `run`, when their order is
    /// known: a run without a date has no known order against any other, so it has neither
    /// a previous nor a next run.
    pub fn neighbours<'e>(
        &self,
        ev: &'e Evidence,
        run: &Run,
    ) -> (Option<&'e Run>, Option<&'e Run>) {
        let (prev, next) = self.adjacent(ev, run);
        let dated = |r: Option<&'e Run>| r.filter(|r| r.date.is_some() && run.date.is_some());
        (dated(prev), dated(next))
    }

    /// Whether `run` has a run of the same probe beside it whose order against it is
    /// unknown, because one of the two has no date.
    pub fn order_unknown(&self, ev: &Evidence, run: &Run) -> bool {
        let (prev, next) = self.adjacent(ev, run);
        [prev, next]
            .into_iter()
            .flatten()
            .any(|r| r.date.is_none() || run.date.is_none())
    }

    /// The runs of `run`'s probe and subject, oldest first.
    fn group_of(&self, ev: &Evidence, run: &Run) -> Option<&Vec<String>> {
        if ev.is_own(run) {
            return self.runs_by_probe.get(&run.probe);
        }
        self.compared_by_probe
            .get(ev.subject_of(run)?)?
            .get(&run.probe)
    }

    /// Whether `run` is the last of the runs of its probe and subject: for the site's own
    /// subject, its probe's latest run.
    pub fn is_last(&self, ev: &Evidence, run: &Run) -> bool {
        self.group_of(ev, run)
            .and_then(|ids| ids.last())
            .is_some_and(|id| *id == run.id.value)
    }

    /// The runs of the same probe and subject sorted just before and just after `run`,
    /// dated or not.
    fn adjacent<'e>(&self, ev: &'e Evidence, run: &Run) -> (Option<&'e Run>, Option<&'e Run>) {
        let Some(ids) = self.group_of(ev, run) else {
            return (None, None);
        };
        let Some(&pos) = self.run_position.get(&run.id.value) else {
            return (None, None);
        };
        let at = |i: Option<usize>| {
            i.and_then(|i| ids.get(i))
                .and_then(|id| ev.runs.get(id))
                .map(|r| &r.value)
        };
        (at(pos.checked_sub(1)), at(pos.checked_add(1)))
    }

    /// The case keys of `run` and their summaries.
    pub fn summaries<'a>(&'a self, run: &'a Run) -> RunSummaries<'a> {
        static NONE: std::sync::OnceLock<Summaries> = std::sync::OnceLock::new();
        self.summaries
            .get(&run.id.value)
            .unwrap_or_else(|| NONE.get_or_init(Summaries::default))
            .read(run)
    }

    /// The run before `run` of the same probe, when the two share a case key.
    pub fn comparable_previous<'e>(&self, ev: &'e Evidence, run: &Run) -> Option<&'e Run> {
        let prev = self.previous(ev, run)?;
        self.summaries(run)
            .shares_a_key(&self.summaries(prev))
            .then_some(prev)
    }

    /// How `run`'s cases fall into the families of the map it was assessed against;
    /// `None` without such a map or when no case has a zone.
    pub fn zone_counts(&self, run: &Run) -> Option<&ZoneCounts> {
        self.zone_counts.get(&run.id.value)
    }

    /// The later run that read the same file as `run` and recorded the same result, if any.
    pub fn repeated_by<'e>(&self, ev: &'e Evidence, run: &Run) -> Option<&'e Run> {
        let id = self.repeated_by.get(&run.id.value)?;
        ev.runs.get(id).map(|r| &r.value)
    }

    /// The earlier runs that read the same file as `run` and recorded the same result.
    pub fn repeats_of<'e>(&self, ev: &'e Evidence, run: &Run) -> Vec<&'e Run> {
        let mut out: Vec<&Run> = self
            .repeated_by
            .iter()
            .filter(|(_, later)| **later == run.id.value)
            .filter_map(|(earlier, _)| ev.runs.get(earlier).map(|r| &r.value))
            .collect();
        out.sort_by(|a, b| run_order(a).cmp(&run_order(b)));
        out
    }

    pub fn citations(&self, target: &Ref) -> &[Ref] {
        self.cited_by.get(target).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// Computes every derived fact. Runs in time linear in the number of records.
pub fn derive(ev: &Evidence) -> Derived {
    let mut runs_by_probe: BTreeMap<String, Vec<&Run>> = BTreeMap::new();
    let mut compared: BTreeMap<String, BTreeMap<String, Vec<&Run>>> = BTreeMap::new();
    // A run of another subject is a comparison: never a probe's latest, never a delta
    // against the site's own runs; its deltas are against its own subject's.
    for r in ev.runs.iter() {
        let group = match ev.subject_of(r).filter(|_| !ev.is_own(r)) {
            None => &mut runs_by_probe,
            Some(subject) => compared.entry(subject.to_string()).or_default(),
        };
        group.entry(r.probe.clone()).or_default().push(&r.value);
    }
    let runs_by_probe = in_order(runs_by_probe);
    let compared_by_probe: BTreeMap<String, BTreeMap<String, Vec<String>>> = compared
        .into_iter()
        .map(|(subject, probes)| (subject, in_order(probes)))
        .collect();
    let run_position = runs_by_probe
        .values()
        .chain(compared_by_probe.values().flat_map(BTreeMap::values))
        .flat_map(|ids| ids.iter().enumerate().map(|(i, id)| (id.clone(), i)))
        .collect();
    // A run at a time on every thread, its cases read while they are in cache.
    let (summaries, zone_counts): (HashMap<_, _>, Vec<_>) = {
        use rayon::prelude::*;
        let runs: Vec<&Run> = ev.runs.iter().map(|r| &r.value).collect();
        runs.par_iter()
            .map(|r| {
                let id = r.id.value.clone();
                let zones = count_zones(ev, r).map(|z| (id.clone(), z));
                ((id, Summaries::of(r)), zones)
            })
            .unzip()
    };
    Derived {
        runs_by_probe,
        compared_by_probe,
        run_position,
        cited_by: citations(ev),
        summaries,
        zone_counts: zone_counts.into_iter().flatten().collect(),
        repeated_by: repeated_runs(ev),
    }
}

/// Each probe's runs as ids, oldest first (by date, undated first, then id).
fn in_order(by_probe: BTreeMap<String, Vec<&Run>>) -> BTreeMap<String, Vec<String>> {
    by_probe
        .into_iter()
        .map(|(probe, mut runs)| {
            runs.sort_by(|a, b| run_order(a).cmp(&run_order(b)));
            (
                probe,
                runs.into_iter().map(|r| r.id.value.clone()).collect(),
            )
        })
        .collect()
}

/// Each dated run that read a file → the next dated run of the same probe and subject
/// that read the same file and recorded the same result. Undated runs are left out: no
/// order is known between them and the others.
fn repeated_runs(ev: &Evidence) -> HashMap<String, String> {
    let mut groups: BTreeMap<(&str, Option<&str>), Vec<&Run>> = BTreeMap::new();
    for r in ev.runs.iter() {
        if r.input.is_some() && r.date.is_some() {
            groups
                .entry((r.probe.as_str(), ev.subject_of(r)))
                .or_default()
                .push(&r.value);
        }
    }
    let mut out = HashMap::new();
    for runs in groups.values_mut() {
        runs.sort_by(|a, b| run_order(a).cmp(&run_order(b)));
        for pair in runs.windows(2) {
            if same_result(pair[0], pair[1]) {
                out.insert(pair[0].id.value.clone(), pair[1].id.value.clone());
            }
        }
    }
    out
}

/// Whether two runs read the same file (name and size, and SHA-256 where both have it)
/// and recorded the same result: no cases, and equal fields of the pack that wrote them.
fn same_result(a: &Run, b: &Run) -> bool {
    let (Some(x), Some(y)) = (&a.input, &b.input) else {
        return false;
    };
    let same_hash = match (&x.sha256, &y.sha256) {
        (Some(h), Some(k)) => h == k,
        _ => true,
    };
    x.name == y.name
        && x.size == y.size
        && same_hash
        && a.cases.is_empty()
        && b.cases.is_empty()
        && a.values == b.values
}

fn run_order(r: &Run) -> (bool, &str, &str) {
    let date = r.date.as_ref().map(|d| d.value.as_str());
    (date.is_some(), date.unwrap_or(""), r.id.value.as_str())
}

fn citations(ev: &Evidence) -> HashMap<Ref, Vec<Ref>> {
    let mut map: HashMap<Ref, Vec<Ref>> = HashMap::new();
    let mut add = |from: Ref, to: &str| {
        if let Ok(t) = Ref::parse(to) {
            let list = map.entry(t).or_default();
            if !list.contains(&from) {
                list.push(from);
            }
        }
    };
    let me = |kind: Kind, id: &str| Ref {
        kind,
        id: id.to_string(),
    };
    for c in ev.claims.iter() {
        for e in &c.evidence {
            add(me(Kind::Claim, &c.id.value), &e.value);
        }
        if let Some(o) = &c.constraint {
            add(
                me(Kind::Claim, &c.id.value),
                &format!("observer:{}", o.value),
            );
        }
    }
    for p in ev.phases.iter() {
        for f in &p.fixed {
            for r in &f.refs {
                add(me(Kind::Phase, &p.id.value), &r.value);
            }
        }
    }
    for q in ev.questions.iter() {
        for r in q.resolved_by.iter().chain(&q.refs) {
            add(me(Kind::Question, &q.id.value), &r.value);
        }
    }
    for f in ev.findings.iter() {
        for r in &f.refs {
            add(me(Kind::Finding, &f.id.value), &r.value);
        }
    }
    for v in map.values_mut() {
        v.sort();
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::yaml;

    fn map(text: &str) -> DispatchMap {
        yaml::parse::<DispatchMap>("m.yaml", text, 0).unwrap()
    }

    const PHASE_A: &str = "id: a\ntitle: {ja: a, en: a}\nsubject: {op: SCAN}\nvariable: est_rows\n\
        source: {repository: r}\nbranches:\n  - {bound: {le: 8}, family: seq}\n  - {bound: {le: 256}, family: index}\n  - {family: bitmap}\n";

    #[test]
    fn a_value_beyond_an_edge_lies_past_it_even_far_out() {
        for x in [0.0, 8.0, -3.5, 1e17, -1e17] {
            assert!(beyond(x, 1.0) > x, "{x}");
            assert!(beyond(x, -1.0) < x, "{x}");
        }
        assert_eq!(
            beyond(f64::MAX, 1.0),
            f64::MAX,
            "nothing lies past the largest number"
        );
        // A step that overflows from a finite edge lands on the largest number that way.
        assert_eq!(beyond(1e308, 1.0), f64::MAX);
        assert_eq!(beyond(-1e308, -1.0), -f64::MAX);
    }

    fn run(id: &str, input: &str) -> Run {
        let text = format!(
            "id: {id}\nprobe: p\ndate: \"2026-01-0{}\"\nengine: none\norigin: {{ja: o, en: o}}\n\
             cases: []\ninput: {input}\n",
            id.len() % 9 + 1
        );
        yaml::parse::<Run>("r.yaml", &text, 0).unwrap()
    }

    #[test]
    fn runs_of_the_same_file_with_the_same_result_are_one_result() {
        let a = run("a", "{name: f.so, size: 10}");
        let b = run("bb", "{name: f.so, size: 10, sha256: ab}");
        assert!(
            same_result(&a, &b),
            "a missing hash does not tell the files apart"
        );
        assert!(!same_result(&a, &run("c", "{name: f.so, size: 11}")));
        assert!(!same_result(&a, &run("d", "{name: g.so, size: 10}")));
        assert!(!same_result(
            &b,
            &run("e", "{name: f.so, size: 10, sha256: cd}")
        ));
    }

    #[test]
    fn zones_follow_the_first_matching_branch() {
        let m = map(PHASE_A);
        assert_eq!(zone(&m, 1.0), Some("seq"));
        assert_eq!(zone(&m, 8.0), Some("seq"));
        assert_eq!(zone(&m, 9.0), Some("index"));
        assert_eq!(zone(&m, 256.0), Some("index"));
        assert_eq!(zone(&m, 290.0), Some("bitmap"));
    }

    #[test]
    fn strict_bounds() {
        let m = map(&PHASE_A.replace("{le: 256}", "{lt: 64}"));
        assert_eq!(zone(&m, 63.0), Some("index"));
        assert_eq!(zone(&m, 64.0), Some("bitmap"));
    }

    #[test]
    fn no_otherwise_branch_leaves_values_unrouted() {
        let m = map(&PHASE_A.replace("  - {family: bitmap}\n", ""));
        assert_eq!(zone(&m, 1000.0), None);
    }

    fn texts(segs: &[Bound]) -> Vec<String> {
        segs.iter()
            .map(|b| b.short().unwrap_or_else(|| "all".into()))
            .collect()
    }

    #[test]
    fn segments_cut_at_every_edge_of_every_map() {
        let a = map(PHASE_A);
        let b = map(&PHASE_A.replace("{le: 256}", "{lt: 64}"));
        assert_eq!(
            texts(&segments(&[&a, &b])),
            ["≤ 8", "(8, 64)", "[64, 256]", "> 256"]
        );
        // One value an edge both ways is a stretch of its own.
        let c = map(&PHASE_A.replace("{le: 256}", "{lt: 8}"));
        assert_eq!(
            texts(&segments(&[&a, &c])),
            ["< 8", "= 8", "(8, 256]", "> 256"]
        );
        assert_eq!(texts(&segments(&[])), ["all"]);
    }

    #[test]
    fn decimal_ranges_route_and_reach() {
        let m = map("id: sel\ntitle: {ja: s, en: s}\nvariable: selectivity\n\
             source: {repository: r}\nbranches:\n  - {bound: {lt: 0.05}, family: index}\n  \
             - {bound: {ge: 0.05, le: 0.2}, family: bitmap}\n  - {family: seq}\n");
        assert_eq!(zone(&m, 0.049), Some("index"));
        assert_eq!(zone(&m, 0.05), Some("bitmap"));
        assert_eq!(zone(&m, 0.2), Some("bitmap"));
        assert_eq!(zone(&m, 0.21), Some("seq"));
        let r: Vec<Vec<String>> = reach(&m).iter().map(|r| texts(r)).collect();
        assert_eq!(r, [vec!["< 0.05"], vec!["[0.05, 0.2]"], vec!["> 0.2"]]);
    }

    #[test]
    fn reach_follows_the_first_match_and_can_be_split() {
        let m = map(PHASE_A);
        let r: Vec<Vec<String>> = reach(&m).iter().map(|r| texts(r)).collect();
        assert_eq!(r, [vec!["≤ 8"], vec!["(8, 256]"], vec!["> 256"]]);
        // A later branch covered by earlier ones is reached by nothing.
        let m2 = map(&PHASE_A.replace("{le: 256}", "{le: 4}"));
        assert!(reach(&m2)[1].is_empty());
        // A range first leaves the otherwise branch two stretches, one each side.
        let m3 = map(&PHASE_A
            .replace("{le: 8}", "{ge: 2, le: 3}")
            .replace("  - {bound: {le: 256}, family: index}\n", ""));
        let r: Vec<Vec<String>> = reach(&m3).iter().map(|r| texts(r)).collect();
        assert_eq!(r, [vec!["[2, 3]"], vec!["< 2", "> 3"]]);
    }
}
