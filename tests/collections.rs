//! Collections a site declares in `evidence.yaml` (`collections:`): the planner fixture
//! declares `experiment` and shows it with `::table`; every kind of bad input is an error at
//! its place.

mod common;

use common::*;
use std::path::Path;

/// A copy of the planner fixture (`tests/fixtures/figures`), which declares `experiment`.
fn planner() -> tempfile::TempDir {
    let site = tempfile::tempdir().expect("tempdir");
    copy_dir(&manifest_dir().join("tests/fixtures/figures"), site.path());
    site
}

/// The one diagnostic with `code` whose message contains `says`, as (file, line, column).
fn one(root: &Path, code: &str, says: &str) -> (String, usize, usize) {
    let (exit, report) = check_json(root);
    assert_eq!(exit, 1, "{}", report.summary());
    let found: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == code && d.message.contains(says))
        .collect();
    assert_eq!(found.len(), 1, "{code} {says}: {}", report.summary());
    let d = found[0];
    (d.span.file.clone(), d.span.line, d.span.column)
}

#[test]
fn a_declared_collection_is_a_table_a_quote_an_anchor_and_json() {
    let site = planner();
    let out = tempfile::tempdir().expect("tempdir");
    build_ok(site.path(), out.path());
    let page = std::fs::read_to_string(out.path().join("en/scan-choice/index.html")).unwrap();
    let table = figure(&page, "declared declared-experiment");
    for want in [
        "<th scope=\"col\">Hypothesis</th>",
        "<tr id=\"experiment-e1\">",
        "A lookup estimated at 3 rows takes the index scan.",
        // A number with its unit, a decimal as written, a choice by its label.
        "<td>3 rows</td>",
        "<td>0.5 rows</td>",
        "<td>held</td>",
        "<td>refuted</td>",
        // References: to a map shown on the page, a link; to one shown nowhere, its id.
        "<code>planner_v1</code>, <a href=\"../../en/scan-choice/index.html#map-planner_v2\"><code>planner_v2</code></a>",
        "<code>data/experiments.yaml</code>",
    ] {
        assert!(table.contains(want), "missing {want} in {table}");
    }
    // The Japanese view shows the Japanese labels.
    let ja = std::fs::read_to_string(out.path().join("ja/scan-choice/index.html")).unwrap();
    let table = figure(&ja, "declared declared-experiment");
    assert!(table.contains("<th scope=\"col\">仮説</th>") && table.contains("<td>支持</td>"));
    // `:v[experiment:e1.rows]` quotes it like any record.
    assert!(page.contains("estimated at <span class=\"value\">3</span> rows"));
    // A branch anchored to it links to its row.
    let map = figure(&page, "dispatch-map");
    assert!(
        map.contains("scan-choice/index.html#experiment-e1\"><code>experiment:e1</code></a>"),
        "{map}"
    );
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("evidence.json")).unwrap()).unwrap();
    assert_eq!(json["experiment"]["e2"]["rows"], 0.5);
    assert_eq!(json["experiment"]["e1"]["maps"][1], "planner_v2");
}

#[test]
fn a_field_of_the_wrong_type_is_an_error_at_its_value() {
    let site = planner();
    replace_once(
        site.path(),
        "data/experiments.yaml",
        "rows: 3\n",
        "rows: three\n",
    );
    let at = one(
        site.path(),
        "schema",
        "`rows` of `experiment` `e1` must be a number",
    );
    assert_eq!(at, ("data/experiments.yaml".into(), 6, 9));
}

#[test]
fn a_choice_outside_its_choices_is_an_error_listing_them() {
    let site = planner();
    replace_once(
        site.path(),
        "data/experiments.yaml",
        "result: held\n",
        "result: maybe\n",
    );
    let at = one(site.path(), "schema", "must be one of held, refuted");
    assert_eq!(at, ("data/experiments.yaml".into(), 7, 11));
}

#[test]
fn unknown_and_missing_fields_are_errors() {
    let site = planner();
    replace_once(
        site.path(),
        "data/experiments.yaml",
        "  result: refuted\n",
        "  outcome: refuted\n",
    );
    let (exit, report) = check_json(site.path());
    assert_eq!(exit, 1);
    let codes: Vec<(&str, usize)> = report
        .diagnostics
        .iter()
        .map(|d| (d.message.as_str(), d.span.line))
        .collect();
    assert!(
        codes
            .iter()
            .any(|(m, l)| m.contains("unknown field `outcome`") && *l == 15),
        "{}",
        report.summary()
    );
    assert!(
        codes
            .iter()
            .any(|(m, l)| m.contains("has no `result`, which is required") && *l == 10),
        "{}",
        report.summary()
    );
}

#[test]
fn a_reference_to_a_missing_record_is_dangling() {
    let site = planner();
    replace_once(
        site.path(),
        "data/experiments.yaml",
        "run: scan-sample\n",
        "run: scan-sampel\n",
    );
    let at = one(site.path(), "dangling-ref", "no run with id `scan-sampel`");
    assert_eq!(at, ("data/experiments.yaml".into(), 5, 8));
    // A reference into the collection itself.
    let site = planner();
    replace_once(
        site.path(),
        "data/maps.yaml",
        "anchor: experiment:e1",
        "anchor: experiment:e9",
    );
    let at = one(site.path(), "dangling-ref", "no experiment with id `e9`");
    assert_eq!(at.0, "data/maps.yaml");
    // A collection the site does not declare.
    let site = planner();
    replace_once(
        site.path(),
        "data/maps.yaml",
        "anchor: experiment:e1",
        "anchor: trial:e1",
    );
    one(site.path(), "bad-ref", "unknown reference kind `trial`");
}

#[test]
fn a_bad_declaration_is_an_error_in_evidence_yaml() {
    let site = planner();
    replace_once(
        site.path(),
        "evidence.yaml",
        "{name: run, type: ref, to: run, label",
        "{name: run, type: ref, label",
    );
    let at = one(site.path(), "config", "a `ref` field needs `to: <kind>`");
    assert_eq!(at.0, "evidence.yaml");
    let site = planner();
    replace_once(
        site.path(),
        "evidence.yaml",
        "  - name: experiment\n",
        "  - name: claim\n",
    );
    one(
        site.path(),
        "config",
        "a collection cannot be called `claim`",
    );
}

#[test]
fn a_table_of_an_undeclared_collection_or_field_is_a_directive_error() {
    let site = planner();
    replace_once(
        site.path(),
        "content/scan-choice.md",
        "::table{of=experiment columns=id,hypothesis,rows,result,maps}",
        "::table{of=experiment columns=id,verdict}",
    );
    one(
        site.path(),
        "directive",
        "`experiment` has no field `verdict`",
    );
    let site = planner();
    replace_once(
        site.path(),
        "content/scan-choice.md",
        "::table{of=experiment columns=id,hypothesis,rows,result,maps}",
        "::table{of=trial}",
    );
    one(site.path(), "directive", "no collection `trial`");
}

#[test]
fn diff_reports_declared_records_added_removed_and_changed() {
    let (a, b) = (planner(), planner());
    replace_once(
        b.path(),
        "data/experiments.yaml",
        "  rows: 0.5\n",
        "  rows: 0.4\n",
    );
    replace_once(
        b.path(),
        "data/experiments.yaml",
        "- id: e2\n",
        "- id: e3\n",
    );
    let out = evidence()
        .arg("diff")
        .arg(a.path())
        .arg(b.path())
        .arg("--root")
        .arg(a.path())
        .output()
        .expect("run evidence diff");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    for want in ["experiment", "e2", "e3"] {
        assert!(text.contains(want), "missing {want} in {text}");
    }
    // A changed field, by value.
    replace_once(
        b.path(),
        "data/experiments.yaml",
        "  result: held\n",
        "  result: refuted\n",
    );
    let out = evidence()
        .args(["diff", "--format", "json"])
        .arg(a.path())
        .arg(b.path())
        .arg("--root")
        .arg(a.path())
        .output()
        .expect("run evidence diff");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let records = json["records"].as_array().expect("records");
    let e1 = records
        .iter()
        .find(|r| r["kind"] == "experiment" && r["id"] == "e1")
        .unwrap_or_else(|| panic!("{json}"));
    assert_eq!(e1["change"], "changed", "{e1}");
    assert!(e1.to_string().contains("refuted"), "{e1}");
}

#[test]
fn declaration_mistakes_and_id_mistakes_are_located() {
    // Two collections in one file: which one a record belongs to would be an accident.
    let site = planner();
    replace_once(
        site.path(),
        "evidence.yaml",
        "  - name: experiment\n",
        "  - name: trial\n    file: experiments.yaml\n    title: {ja: 試行, en: Trials}\n    fields: []\n  - name: experiment\n",
    );
    one(
        site.path(),
        "config",
        "cannot be written in `data/experiments.yaml`",
    );
    // A name with `-` would make its row anchors ambiguous.
    let site = planner();
    replace_once(
        site.path(),
        "evidence.yaml",
        "  - name: experiment\n",
        "  - name: ex-periment\n    file: experiments.yaml\n",
    );
    one(
        site.path(),
        "config",
        "`ex-periment` cannot name a collection",
    );
    // A number for an id.
    let site = planner();
    replace_once(
        site.path(),
        "data/experiments.yaml",
        "- id: e2\n",
        "- id: 2\n",
    );
    let at = one(site.path(), "schema", "must be a string, not `2`");
    assert_eq!(at, ("data/experiments.yaml".into(), 10, 7));
    // A missing record of the collection: the nearest id of the same collection is hinted.
    let site = planner();
    replace_once(
        site.path(),
        "data/maps.yaml",
        "anchor: experiment:e1",
        "anchor: experiment:e3",
    );
    let (_, report) = check_json(site.path());
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.code == "dangling-ref")
        .unwrap_or_else(|| panic!("{}", report.summary()));
    let hint = d.hint.as_deref().unwrap_or_default();
    assert!(hint.contains("`e1`") || hint.contains("`e2`"), "{hint}");
}

#[test]
fn a_broken_collection_file_does_not_cascade_into_dangling_references() {
    let site = planner();
    write_file(site.path(), "data/experiments.yaml", b"e1: not a list\n");
    let (exit, report) = check_json(site.path());
    assert_eq!(exit, 1);
    assert!(
        !report.diagnostics.iter().any(|d| d.code == "dangling-ref"),
        "{}",
        report.summary()
    );
}

#[test]
fn text_fields_of_declared_records_are_checked_like_any_data_text() {
    let site = planner();
    replace_once(
        site.path(),
        "data/experiments.yaml",
        "    en: \"A lookup estimated at 3 rows takes the index scan.\"",
        "    en: \"A lookup estimated at 3 rows takes the [index scan](@/nowhere).\"",
    );
    let (exit, report) = check_json(site.path());
    assert_eq!(exit, 1, "{}", report.summary());
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.span.file == "data/experiments.yaml" && d.message.contains("nowhere")),
        "{}",
        report.summary()
    );
}

#[test]
fn pages_true_gives_each_record_a_page_that_references_lead_to() {
    let site = planner();
    replace_once(
        site.path(),
        "evidence.yaml",
        "    title: {ja: \"実験\", en: \"Experiments\"}\n",
        "    title: {ja: \"実験\", en: \"Experiments\"}\n    pages: true\n",
    );
    let out = tempfile::tempdir().expect("tempdir");
    build_ok(site.path(), out.path());
    // Below the page with the collection's table, one per record, in every view.
    let page = std::fs::read_to_string(out.path().join("en/scan-choice/e1/index.html"))
        .expect("the page of experiment e1");
    let record = figure(&page, "declared-record declared-experiment");
    assert!(record.contains("id=\"experiment-e1\""), "{record}");
    assert!(
        record.contains("<td>Hypothesis</td>") || record.contains(">Hypothesis<"),
        "{record}"
    );
    assert!(record.contains("A lookup estimated at 3 rows takes the index scan."));
    assert!(out.path().join("ja/scan-choice/e2/index.html").is_file());
    assert!(out.path().join("scan-choice/e2/index.html").is_file());
    // The table's id cell and the branch anchored to e1 lead to that page.
    let list = std::fs::read_to_string(out.path().join("en/scan-choice/index.html")).unwrap();
    let table = figure(&list, "declared declared-experiment");
    assert!(
        table.contains("scan-choice/e1/index.html#experiment-e1\"><code>e1</code>"),
        "{table}"
    );
    let map = figure(&list, "dispatch-map");
    assert!(
        map.contains("scan-choice/e1/index.html#experiment-e1\""),
        "{map}"
    );
}

#[test]
fn a_scatter_of_a_measurement_no_case_has_is_a_directive_error() {
    let site = planner();
    let page = std::fs::read_to_string(site.path().join("content/scan-choice.md")).unwrap();
    std::fs::write(
        site.path().join("content/scan-choice.md"),
        format!("{page}\n::scatter{{run=\"scan-sample\" x=\"est_rows\" y=\"rows_read\"}}\n"),
    )
    .unwrap();
    one(
        site.path(),
        "directive",
        "no case of run `scan-sample` measured `rows_read`",
    );
}

#[test]
fn a_scatter_with_an_axis_name_that_is_none_is_a_directive_error_naming_the_choices() {
    let site = planner();
    let page = std::fs::read_to_string(site.path().join("content/scan-choice.md")).unwrap();
    std::fs::write(
        site.path().join("content/scan-choice.md"),
        format!(
            "{page}\n::scatter{{run=\"scan-sample\" x=\"est_rows\" y=\"est_rows\" log=\"z\"}}\n"
        ),
    )
    .unwrap();
    one(
        site.path(),
        "directive",
        "`log` of `::scatter` must be the axes drawn on a log scale: `x`, `y` or `xy`, not `z`",
    );
}
