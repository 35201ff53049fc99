//! What `evidence diff` tells a reviewer, on a repository of another field (the planner
//! fixture, a site of no pack): a comparison run, a new probe's first run, a run that
//! takes the latest's place with cases added and dropped, a moved claim, a moved decimal
//! bound, and a run rewritten whose value a page quotes. Each test reads the text, the
//! markdown comment and the review page.

mod common;

use common::{copy_dir, diff, git, write_files};
use std::path::Path;

fn commit(dir: &Path, message: &str) {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", message]);
}

/// The site's own subject and a comparison one.
const SUBJECTS: &str = "- id: pg
  label: {ja: PostgreSQL 16, en: PostgreSQL 16}
- id: other
  label: {ja: 別のデータベース, en: another database}
";

/// A run of the base assessed against the other map, with a case the moved bound flips
/// under the map it was not assessed against.
const RUN_17: &str = "id: v17-a
probe: sweep-17
date: \"2026-03-04\"
engine: none
origin: {ja: 17 系で記録, en: recorded on the 17 series}
assessed_against: pg17
cases:
  - id: s001
    measurements: {selectivity: 0.001, exec_ns: 400000}
";

/// The run that takes `sweep-b`'s place as the latest of its probe: `s300` dropped,
/// `s100` added, `s020` slower.
const RUN_C: &str = "id: sweep-c
probe: selectivity-sweep
date: \"2026-03-20\"
engine: none
origin: {ja: 再計測, en: measured again}
assessed_against: pg16
cases:
  - id: s001
    measurements: {selectivity: 0.001, exec_ns: 390000, plan_ns: 100000}
  - id: s020
    measurements: {selectivity: 0.02, exec_ns: 3700000, plan_ns: 130000}
  - id: s100
    measurements: {selectivity: 0.1, exec_ns: 9100000, plan_ns: 120000}
";

/// A comparison run: another subject, a long environment, a note, a repeated case.
const RUN_OTHER: &str = "id: other-a
probe: selectivity-sweep
date: \"2026-03-21\"
engine: none
subject: other
environment:
  storage: \"NVMe, 16 KiB pages, write-back cache enabled\"
  host: \"a rented machine with eight cores\"
  random_page_cost: \"1.1\"
origin: {ja: 比較, en: comparison}
note: {ja: 別のデータベースでの比較, en: The same sweep on another database}
cases:
  - {id: s020-r1, repeat: {of: s020, index: 1}, measurements: {selectivity: 0.02, exec_ns: 2000000}}
  - {id: s020-r2, repeat: {of: s020, index: 2}, measurements: {selectivity: 0.02, exec_ns: 2400000}}
  - {id: s020-r3, repeat: {of: s020, index: 3}, measurements: {selectivity: 0.02, exec_ns: 2200000}}
";

/// A new probe's first run.
const RUN_SEEK: &str = "id: seek-a
probe: index-seek
date: \"2026-03-22\"
engine: none
origin: {ja: 索引の探索, en: index seeks}
assessed_against: pg16
cases:
  - id: one
    measurements: {selectivity: 0.0001, exec_ns: 80000}
";

/// The claim after: its cannot-show text moved to the can-show side, reworded.
const CLAIMS_AFTER: &str = "- id: k1
  page: index
  can:
    ja: \"ディスクの速さは選択率 0.005 と 0.2 の間で境界を動かす。\"
    en: \"Disk speed moves the bound between selectivity 0.005 and 0.2, as the sweeps show.\"
  cannot:
    ja: \"索引の大きさが境界をどれだけ動かすかは示せない。\"
    en: \"How far the index size moves the bound cannot be shown.\"
  evidence: [\"run:sweep-a\", \"map:pg16\", \"run:sweep-c\"]
  constraint: explain_analyze
  moved: {from: cannot}
";

/// A repository of the planner fixture with two commits: the base, and a head with a
/// comparison run, a new probe, a new latest run, a moved claim and a moved decimal bound
/// (`pg16`'s first bound, 0.005 → 0.0008, flips the cases at selectivity 0.001).
fn planner_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/planner");
    copy_dir(&fixture, d);
    let config = std::fs::read_to_string(d.join("evidence.yaml")).unwrap();
    write_files(
        d,
        &[
            (
                "evidence.yaml",
                &format!("{config}subject: pg\nbase_url: https://example.org/planner/\n"),
            ),
            ("data/subjects.yaml", SUBJECTS),
            ("data/runs/v17-a.yaml", RUN_17),
        ],
    );
    git(d, &["init", "-q", "-b", "main"]);
    commit(d, "base");
    let maps = std::fs::read_to_string(d.join("data/maps.yaml")).unwrap();
    write_files(
        d,
        &[
            (
                "data/maps.yaml",
                &maps.replacen("lt: 0.005", "lt: 0.0008", 1),
            ),
            ("data/claims.yaml", CLAIMS_AFTER),
            ("data/runs/sweep-c.yaml", RUN_C),
            ("data/runs/other-a.yaml", RUN_OTHER),
            ("data/runs/seek-a.yaml", RUN_SEEK),
        ],
    );
    let observers = std::fs::read_to_string(d.join("data/observers.yaml")).unwrap();
    write_files(
        d,
        &[(
            "data/observers.yaml",
            &observers.replacen(
                "Ran each query under `EXPLAIN ANALYZE`.",
                "Ran each query under `EXPLAIN (ANALYZE, BUFFERS)`.",
                1,
            ),
        )],
    );
    commit(d, "a comparison, a new probe, a moved claim and bound");
    // Then a run record rewritten in place: a value the overview page quotes.
    let sweep_a = std::fs::read_to_string(d.join("data/runs/sweep-a.yaml")).unwrap();
    write_files(
        d,
        &[(
            "data/runs/sweep-a.yaml",
            &sweep_a.replacen("exec_ns: 420000", "exec_ns: 410000", 1),
        )],
    );
    commit(d, "sweep-a rewritten");
    dir
}

/// The three formats of the change between `base` and `head`: text, markdown (with a
/// `--link`) and the review page.
fn formats(dir: &Path, base: &str, head: &str) -> (String, String, String) {
    let (code, text, err) = diff(dir, &[base, head]);
    assert_eq!(code, 0, "{err}");
    let (code, md, err) = diff(
        dir,
        &[
            base,
            head,
            "--format",
            "markdown",
            "--link",
            "https://ci.example/review",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let out = tempfile::tempdir().unwrap();
    let (code, _, err) = diff(
        dir,
        &[
            base,
            head,
            "--format",
            "html",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(out.path().join("index.html")).unwrap();
    (text, md, page)
}

/// The line of `text` that starts (after its indent) with `start`.
fn line<'t>(text: &'t str, start: &str) -> &'t str {
    text.lines()
        .find(|l| l.trim_start().starts_with(start))
        .unwrap_or_else(|| panic!("no line starting {start:?} in:\n{text}"))
}

#[test]
fn a_new_run_line_keeps_every_field_whole_and_the_comment_says_it_once() {
    let repo = planner_repo();
    let (_, md, page) = formats(repo.path(), "HEAD~2", "HEAD~1");
    // The subject tells a comparison from evidence: it and the date come before the
    // environment, and no field is cut.
    assert_eq!(
        line(&md, "- new run [`other-a`]"),
        "- new run [`other-a`](<https://example.org/planner/runs/other-a/>): \
         selectivity-sweep, engine none, subject other, 2026-03-21, \
         host a rented machine with eight cores, random_page_cost 1.1, \
         storage NVMe, 16 KiB pages, write-back cache enabled"
    );
    // The details do not list the new runs a second time, word for word.
    assert!(!md.contains("- added [`other-a`]"), "{md}");
    assert!(md.contains("New run [`other-a`]"), "{md}");
    assert!(
        page.contains("subject other, 2026-03-21, host a rented machine"),
        "{page}"
    );
}

#[test]
fn a_moved_claim_shows_its_old_and_new_wording_uncut() {
    let repo = planner_repo();
    let (text, md, page) = formats(repo.path(), "HEAD~2", "HEAD~1");
    let old = "How far disk speed moves the bound cannot be shown.";
    let new = "Disk speed moves the bound between selectivity 0.005 and 0.2, as the sweeps show.";
    assert!(text.contains(&format!("      was: \"{old}\"")), "{text}");
    assert!(md.contains(&format!("“{old}” → “{new}”")), "{md}");
    assert!(page.contains(old) && page.contains(new), "{page}");
}

#[test]
fn the_review_page_shows_no_unchanged_field_and_no_literal_backtick() {
    let repo = planner_repo();
    let (_, _, page) = formats(repo.path(), "HEAD~2", "HEAD~1");
    // The claim kept its constraint: that is no change.
    assert!(!page.contains("constraint explain_analyze"), "{page}");
    let main = &page[page.find("<main>").unwrap()..];
    assert!(!main.contains('`'), "{main}");
    assert!(
        main.contains(
            "Ran each query under <code>EXPLAIN <ins>(</ins>ANALYZE<ins>, BUFFERS)</ins></code>."
        ),
        "{main}"
    );
}

#[test]
fn measurements_and_zones_are_named_by_their_labels() {
    let repo = planner_repo();
    let (text, md, page) = formats(repo.path(), "HEAD~2", "HEAD~1");
    assert!(
        text.contains("s020 execution time: 0.0036 s → 0.0037 s"),
        "{text}"
    );
    assert!(
        text.contains("s001 zone under pg16: Index → Bitmap"),
        "{text}"
    );
    assert!(
        text.contains("one: selectivity 0.0001, execution time 0.0001 s; zone pg16: Index"),
        "{text}"
    );
    assert!(
        md.contains("| `s020` | execution time | 0.0036 s |"),
        "{md}"
    );
    assert!(md.contains("pg16: Bitmap, pg17: Bitmap"), "{md}");
    assert!(page.contains("<td>execution time</td>"), "{page}");
    assert!(
        !page.contains("exec_ns") && !page.contains("bitmap_scan"),
        "{page}"
    );
}

#[test]
fn the_latest_run_comparison_names_the_cases_added_and_dropped() {
    let repo = planner_repo();
    let (text, md, page) = formats(repo.path(), "HEAD~2", "HEAD~1");
    assert!(
        text.contains("  latest selectivity-sweep: sweep-b → sweep-c\n      cases added: s100\n      cases dropped: s300\n"),
        "{text}"
    );
    assert!(md.contains("Cases added: `s100`; dropped: `s300`"), "{md}");
    assert!(
        page.contains("Cases added: <code>s100</code>; dropped: <code>s300</code>"),
        "{page}"
    );
}

#[test]
fn zone_flips_say_their_map_and_mark_runs_read_against_another() {
    let repo = planner_repo();
    let (text, md, page) = formats(repo.path(), "HEAD~2", "HEAD~1");
    // A run new in the head was never read under the old map: no flip of it.
    assert!(!text.contains("flips sweep-c/"), "{text}");
    assert!(
        text.contains(
            "flips v17-a/s001 (selectivity = 0.001): Index → Bitmap (the run was assessed against pg17)"
        ),
        "{text}"
    );
    assert!(
        text.contains("s001 zone under pg16: Index → Bitmap (the run was assessed against pg17)"),
        "{text}"
    );
    assert!(md.contains("| **zone** under pg16 |"), "{md}");
    assert!(
        md.contains("Index → Bitmap (the run was assessed against pg17)"),
        "{md}"
    );
    assert!(
        !page.contains("<code>sweep-c</code></td><th scope=\"row\"><code>s001"),
        "{page}"
    );
    assert!(
        page.contains("the run was assessed against <code>pg17</code>"),
        "{page}"
    );
}

#[test]
fn to_re_read_says_why_a_run_is_listed() {
    let repo = planner_repo();
    let (text, md, page) = formats(repo.path(), "HEAD~2", "HEAD~1");
    let why = "stopped being the latest run of probe selectivity-sweep (its file did not change)";
    assert!(text.contains(&format!("  run:sweep-b {why}")), "{text}");
    assert!(md.contains(&format!("- `run:sweep-b` {why}")), "{md}");
    assert!(
        page.contains(&format!("<code>run:sweep-b</code> {why}")),
        "{page}"
    );
    // A rewritten run that a page quotes (`:v[run:sweep-a…]`) sends its reader there.
    let (text, md, _) = formats(repo.path(), "HEAD~1", "HEAD");
    assert!(
        text.contains("  run:sweep-a was rewritten\n      cited or shown by: claim:k1, page:index, page:runs\n"),
        "{text}"
    );
    assert!(md.contains("- `run:sweep-a` was rewritten"), "{md}");
}

#[test]
fn a_comparison_run_and_a_new_probes_first_run_are_shown_whole_in_every_format() {
    let repo = planner_repo();
    let (text, md, page) = formats(repo.path(), "HEAD~2", "HEAD~1");
    // Neither replaces the latest run of the site's own subject, and both are shown with
    // their values (a repeated case by its median), zones, note, case count and page.
    assert!(
        text.contains("      note: The same sweep on another database\n"),
        "{text}"
    );
    assert!(
        text.contains("      3 cases; page https://example.org/planner/runs/other-a/\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "      s020 (median of 3): selectivity 0.02, execution time 0.0022 s; \
             zone pg16: Bitmap, pg17: Bitmap\n"
        ),
        "{text}"
    );
    assert!(
        md.contains(
            "New run [`seek-a`](<https://example.org/planner/runs/seek-a/>): 1 case; \
             page https://example.org/planner/runs/seek-a/"
        ),
        "{md}"
    );
    assert!(md.contains("> The same sweep on another database"), "{md}");
    assert!(
        md.contains(
            "| `s020` (median of 3) | selectivity 0.02, execution time 0.0022 s | \
             pg16: Bitmap, pg17: Bitmap |"
        ),
        "{md}"
    );
    assert!(page.contains("<li id=\"run-seek-a\">"), "{page}");
    assert!(
        page.contains("<a href=\"https://example.org/planner/runs/other-a/\">its page</a>"),
        "{page}"
    );
    assert!(
        page.contains(
            "<td>selectivity 0.0001, execution time 0.0001 s</td><td>pg16: Index, pg17: Index</td>"
        ),
        "{page}"
    );
    assert!(
        page.contains("The same sweep on another database"),
        "{page}"
    );
}

/// Every table of the review page has a caption, and the box it scrolls in (focusable, so
/// that the keyboard can scroll it) is a region named by that caption; the Field column
/// keeps its paths whole, where the cells before and after may break.
#[test]
fn the_review_pages_scroll_boxes_are_named_and_the_field_column_stays_whole() {
    let repo = planner_repo();
    let (_, _, page) = formats(repo.path(), "HEAD~2", "HEAD~1");
    let tables = page.matches("<table").count();
    let boxes: Vec<&str> = page.split("<div class=\"wrap\"").skip(1).collect();
    assert!(tables > 1, "{page}");
    assert_eq!(boxes.len(), tables, "a table outside a scroll box: {page}");
    let mut ids = std::collections::BTreeSet::new();
    for b in boxes {
        let open = &b[..b.find('>').unwrap()];
        assert!(open.contains(" tabindex=\"0\" role=\"region\""), "{open}");
        let id = open
            .split("aria-labelledby=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or_else(|| panic!("a scroll box without a name: {open}"));
        assert!(
            b[open.len()..].starts_with(&format!("><table><caption id=\"{id}\">")),
            "{id} names no caption: {b}"
        );
        assert!(ids.insert(id.to_string()), "{id} twice");
    }
    assert!(page.contains("<td class=\"field\">"), "{page}");
    assert!(
        page.contains("td.field{overflow-wrap:normal;white-space:nowrap}"),
        "the Field column may break inside a path"
    );
}
