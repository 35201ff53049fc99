//! Derived facts over several runs of one probe: their order (dated runs by date, then
//! id; undated runs before dated ones), the latest and previous run, and how repeated
//! cases are matched to the case they repeat. The valid fixture has one run; each test
//! adds runs to a copy.

mod common;

use common::*;
use evidence::model::refs::Ref;
use std::path::Path;

/// A run of the fixture's probe with one case `small` (or its repetitions `small-rN`,
/// one per value in `repeats`).
fn run_yaml(id: &str, date: Option<&str>, repeats: &[u64]) -> String {
    let date = date.map(|d| format!("date: \"{d}\"\n")).unwrap_or_default();
    let cases: String = if repeats.is_empty() {
        "  - id: small\n    mode: hot\n    prompt_eval_count: 3\n    eval_count: 1\n".into()
    } else {
        repeats
            .iter()
            .enumerate()
            .map(|(i, n)| {
                format!(
                    "  - id: small-r{k}\n    mode: hot\n    repeat: {{of: small, index: {k}}}\n    \
                     prompt_eval_count: {n}\n    eval_count: 1\n",
                    k = i + 1
                )
            })
            .collect()
    };
    format!(
        "id: {id}\nprobe: fixture-probe\n{date}engine: ollama\nmodel: \"fixture-model\"\n\
         origin: {{ja: \"追加の実行\", en: \"An added run\"}}\ncases:\n{cases}"
    )
}

fn add_run(root: &Path, id: &str, date: Option<&str>, repeats: &[u64]) {
    write_file(
        root,
        &format!("data/runs/{id}.yaml"),
        run_yaml(id, date, repeats).as_bytes(),
    );
}

fn loaded(root: &Path) -> evidence::pipeline::Loaded {
    match evidence::pipeline::evidence(root) {
        Ok(l) => {
            assert!(
                !l.diagnostics.has_errors(),
                "{}",
                evidence::diagnostics::render(
                    &l.diagnostics,
                    evidence::diagnostics::Format::Human,
                    &evidence::load::read::site_text(root),
                    false
                )
            );
            l
        }
        Err(d) => panic!(
            "{}",
            evidence::diagnostics::render(
                &d,
                evidence::diagnostics::Format::Human,
                &evidence::load::read::site_text(root),
                false,
            )
        ),
    }
}

/// The runs of the fixture's probe, oldest first, as `previous` links them from the latest.
fn order(l: &evidence::pipeline::Loaded) -> Vec<String> {
    let ev = &l.evidence;
    let mut out = Vec::new();
    let mut at = l.derived.latest(ev, "fixture-probe");
    while let Some(run) = at {
        out.push(run.id.value.clone());
        at = l.derived.previous(ev, run);
    }
    out.reverse();
    out
}

#[test]
fn dated_runs_are_ordered_by_date_then_id_and_undated_runs_by_nothing() {
    evidence::packs::register();
    let site = fixture_copy();
    let root = site.path();
    // r1 (the fixture's) is dated 2026-01-20.
    add_run(root, "a-late", Some("2026-02-01"), &[]);
    add_run(root, "z-early", Some("2026-01-10"), &[]);
    add_run(root, "b-same-day", Some("2026-01-20"), &[]);
    add_run(root, "y-undated", None, &[]);
    add_run(root, "x-undated", None, &[]);
    let l = loaded(root);
    // No order is known between a run without a date and any other: the chain of
    // previous runs holds the dated runs only.
    assert_eq!(order(&l), ["z-early", "b-same-day", "r1", "a-late"]);
    let ev = &l.evidence;
    for undated in ["x-undated", "y-undated"] {
        let run = ev.runs.get(undated).expect("run");
        assert!(l.derived.previous(ev, run).is_none(), "{undated}");
    }
}

#[test]
fn repeated_cases_are_matched_to_the_case_they_repeat() {
    evidence::packs::register();
    let site = fixture_copy();
    let root = site.path();
    add_run(root, "later", Some("2026-02-01"), &[5, 2, 3]);
    let l = loaded(root);
    let ev = &l.evidence;
    let later = l.derived.latest(ev, "fixture-probe").expect("a latest run");
    assert_eq!(later.id.value, "later");
    let s = l.derived.summaries(later);
    assert_eq!(s.keys().collect::<Vec<_>>(), ["small"]);
    let small = s
        .get("small")
        .expect("the repetitions summarised under `small`");
    assert_eq!(
        (small.n, small.measurement("prompt_eval_count")),
        (3, Some(3.0)),
        "the median of 5, 2, 3"
    );
    let prev = l
        .derived
        .comparable_previous(ev, later)
        .map(|r| r.id.value.as_str());
    assert_eq!(prev, Some("r1"), "r1's `small` is comparable");
}

#[test]
fn runs_that_share_no_case_are_not_compared() {
    evidence::packs::register();
    let site = fixture_copy();
    let root = site.path();
    let text = run_yaml("other", Some("2026-02-01"), &[]).replace("id: small", "id: other");
    write_file(root, "data/runs/other.yaml", text.as_bytes());
    let l = loaded(root);
    let ev = &l.evidence;
    let other = l.derived.latest(ev, "fixture-probe").expect("a latest run");
    assert_eq!(other.id.value, "other");
    assert_eq!(
        l.derived.previous(ev, other).map(|r| r.id.value.as_str()),
        Some("r1")
    );
    assert!(l.derived.comparable_previous(ev, other).is_none());
}

#[test]
fn citations_list_each_record_that_cites_a_target_once() {
    evidence::packs::register();
    let site = fixture_copy();
    let l = loaded(site.path());
    let target = Ref::parse("bundle:b1").expect("a ref");
    let citing: Vec<String> = l
        .derived
        .citations(&target)
        .iter()
        .map(|r| format!("{}:{}", r.kind.name(), r.id))
        .collect();
    assert!(citing.contains(&"claim:c1".to_string()), "{citing:?}");
    let mut unique = citing.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(
        unique.len(),
        citing.len(),
        "each citing record once: {citing:?}"
    );
    let nobody = Ref::parse("bundle:b2").expect("a ref");
    assert!(
        !l.derived.citations(&nobody).iter().any(|r| r.id == "c1"),
        "c1 does not cite b2"
    );
}

/// A page of the copy that lists every run, and the runs index it renders (English view).
const RUNS_PAGE: &str = "---\ntitle: {ja: \"実行\", en: \"Runs\"}\norder: 5\n---\n\n::runs\n";

#[test]
fn a_run_without_a_date_is_never_the_latest() {
    evidence::packs::register();
    let site = fixture_copy();
    let root = site.path();
    replace_once(root, "data/runs/r1.yaml", "date: \"2026-01-20\"\n", "");
    add_run(root, "x-undated", None, &[]);
    write_file(root, "content/runs.md", RUNS_PAGE.as_bytes());
    let l = loaded(root);
    assert!(
        l.derived.latest(&l.evidence, "fixture-probe").is_none(),
        "two runs without a date: neither is the latest"
    );
    // The index marks neither as latest and says their order is unknown.
    let out = tempfile::tempdir().expect("tempdir");
    build_ok(root, out.path());
    let index = std::fs::read_to_string(out.path().join("en/runs/index.html")).expect("index");
    assert!(!index.contains("badge latest"), "{index}");
    assert_eq!(index.matches("order unknown").count(), 2, "{index}");

    // A directive that shows a probe's latest run is an error at its line, not a table
    // of an arbitrary run.
    write_file(
        root,
        "content/runs.md",
        format!("{RUNS_PAGE}\n::latest-run{{probe=\"fixture-probe\"}}\n").as_bytes(),
    );
    let found = check_errors(root, "directive", "has a date, so none is its latest");
    assert_eq!(found, [("content/runs.md".to_string(), 8, 1)]);

    // Once a run has a date it is the latest; the undated ones stay of unknown order.
    write_file(root, "content/runs.md", RUNS_PAGE.as_bytes());
    add_run(root, "dated", Some("2026-03-01"), &[]);
    let l = loaded(root);
    let latest = l
        .derived
        .latest(&l.evidence, "fixture-probe")
        .map(|r| r.id.value.as_str());
    assert_eq!(latest, Some("dated"));
    let out = tempfile::tempdir().expect("tempdir");
    build_ok(root, out.path());
    let index = std::fs::read_to_string(out.path().join("en/runs/index.html")).expect("index");
    assert_eq!(index.matches("badge latest").count(), 1, "{index}");
    assert_eq!(index.matches("order unknown").count(), 2, "{index}");
}

/// A later run that read the same file and recorded the same result takes the earlier
/// run's table: the earlier page points to it, and the later one names the earlier.
#[test]
fn a_run_repeated_by_a_later_one_points_to_it() {
    let dir = fixture_copy();
    let root = dir.path();
    copy_dir(&manifest_dir().join("tests/fixtures/check_rules"), root);
    // The runs index, which gives each run a page of its own.
    let runs_page = manifest_dir().join("tests/fixtures/incremental/content/runs.md");
    std::fs::copy(runs_page, root.join("content/runs.md")).unwrap();
    let first = "fatbin-20261122T023326Z";
    let again = "fatbin-20261123T000000Z";
    let text = std::fs::read_to_string(root.join(format!("data/runs/{first}.yaml"))).unwrap();
    let text = text
        .replace(first, again)
        .replace("2026-11-22T02:33:26Z", "2026-11-23T00:00:00Z");
    write_file(root, &format!("data/runs/{again}.yaml"), text.as_bytes());
    let out = tempfile::tempdir().unwrap();
    build_ok(root, out.path());
    let page = |id: &str| {
        std::fs::read_to_string(out.path().join(format!("en/runs/{id}/index.html"))).unwrap()
    };
    let earlier = page(first);
    assert!(
        earlier.contains("A later run read the same file"),
        "{earlier}"
    );
    assert!(
        earlier.contains(again),
        "the earlier page links the later run"
    );
    let later = page(again);
    assert!(
        later.contains("An earlier run read the same file"),
        "{later}"
    );
    assert!(!later.contains("A later run read the same file"));
}
