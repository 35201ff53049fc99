//! Readings kept beside the runs (`data/readings.yaml`): a run file is never rewritten, so
//! the investigator's reading of a case lives in its own record, takes the place of the
//! run file's `assessment`, and is held to the map like it.

mod common;

use common::*;

const READING: &str = "\
- id: large-again
  run: r1
  case: large
  zone: fam_large
  text:
    ja: \"読み直しても大きい側\"
    en: \"large side on a second reading\"
  date: \"2026-02-01\"
";

#[test]
fn a_reading_takes_the_place_of_the_run_files_own() {
    let site = fixture_copy();
    let root = site.path();
    write_file(root, "data/readings.yaml", READING.as_bytes());
    let (code, report) = check_json(root);
    assert_eq!(code, 0, "{}", report.summary());
    let out = tempfile::tempdir().unwrap();
    build_ok(root, out.path());
    let page = std::fs::read_to_string(out.path().join("en/details/index.html")).unwrap();
    assert!(
        page.contains("large side on a second reading"),
        "the kept reading"
    );
    assert!(!page.contains(">large side<"), "not the run file's own");
    assert!(page.contains("small side"), "another case keeps its own");
    let json = std::fs::read_to_string(out.path().join("evidence.json")).unwrap();
    assert!(json.contains("\"reading\""), "exported under its kind");
}

#[test]
fn a_run_files_wrong_reading_is_corrected_beside_it() {
    let site = fixture_copy();
    let root = site.path();
    // The run file reads `large` (prompt_eval_count 40) as small: an error at its zone,
    // whose hint points to data/readings.yaml, since the run may not be rewritten.
    replace_once(
        root,
        "data/runs/r1.yaml",
        "      zone: fam_large\n",
        "      zone: fam_small\n",
    );
    let (code, report) = check_json(root);
    assert_eq!(code, 1);
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.code == "assessment")
        .expect("the run file's reading is wrong");
    assert!(
        d.hint
            .as_deref()
            .unwrap_or_default()
            .contains("data/readings.yaml"),
        "{d:?}"
    );
    // A reading beside the run settles it, and the run file stays as it was.
    let before = std::fs::read(root.join("data/runs/r1.yaml")).unwrap();
    write_file(root, "data/readings.yaml", READING.as_bytes());
    let (code, report) = check_json(root);
    assert_eq!(code, 0, "{}", report.summary());
    assert_eq!(
        std::fs::read(root.join("data/runs/r1.yaml")).unwrap(),
        before
    );
}

#[test]
fn a_reading_is_held_to_the_map() {
    let site = fixture_copy();
    let root = site.path();
    write_file(
        root,
        "data/readings.yaml",
        READING
            .replace("zone: fam_large", "zone: fam_small")
            .as_bytes(),
    );
    let found = check_errors(
        root,
        "reading",
        "reads case `large` as `fam_small`, but map `fixture_map`",
    );
    assert_eq!(found, [("data/readings.yaml".to_string(), 4, 9)]);
}

#[test]
fn a_reading_names_a_real_case_once() {
    let site = fixture_copy();
    let root = site.path();
    let twice = format!(
        "{READING}{}",
        READING.replace("id: large-again", "id: again")
    );
    write_file(
        root,
        "data/readings.yaml",
        format!(
            "{twice}{}",
            READING
                .replace("id: large-again", "id: none")
                .replace("case: large", "case: huge")
        )
        .as_bytes(),
    );
    assert_eq!(
        check_errors(root, "reading", "already has the reading `large-again`"),
        [("data/readings.yaml".to_string(), 11, 9)]
    );
    assert_eq!(
        check_errors(root, "dangling-ref", "run `r1` has no case `huge`"),
        [("data/readings.yaml".to_string(), 19, 9)]
    );
}

#[test]
fn a_reading_of_the_whole_run_is_shown_with_it_and_marked_when_inferred() {
    let site = fixture_copy();
    let root = site.path();
    write_file(
        root,
        "data/readings.yaml",
        b"- id: settings\n  run: r1\n  basis: inferred\n  text: {ja: \"\xe8\xa8\xad\xe5\xae\x9a\xe3\x81\xaf\xe6\x8e\xa8\xe5\xae\x9a\", en: \"settings inferred from the case names\"}\n",
    );
    let (code, report) = check_json(root);
    assert_eq!(code, 0, "{}", report.summary());
    let out = tempfile::tempdir().unwrap();
    build_ok(root, out.path());
    let page = std::fs::read_to_string(out.path().join("en/details/index.html")).unwrap();
    let at = page
        .find("settings inferred from the case names")
        .expect("shown with the run");
    assert!(
        page[at..].starts_with(
            "settings inferred from the case names <span class=\"badge basis-inferred\">"
        ),
        "marked as the site's reading: {}",
        &page[at..at + 160]
    );
    // A zone is read of a case, never of a whole run.
    write_file(
        root,
        "data/readings.yaml",
        b"- id: settings\n  run: r1\n  zone: fam_small\n  text: {ja: x, en: x}\n",
    );
    assert_eq!(
        check_errors(root, "reading", "names a zone but no case"),
        [("data/readings.yaml".to_string(), 3, 9)]
    );
}

#[test]
fn a_reading_that_leaves_the_route_open_is_not_counted_in_the_maps_zone() {
    let site = fixture_copy();
    let root = site.path();
    write_file(
        root,
        "data/readings.yaml",
        b"- id: open\n  run: r1\n  case: large\n  text: {ja: \"\xe6\x9c\xaa\xe6\xb1\xba\", en: \"a boundary, unresolved\"}\n",
    );
    let page = std::fs::read_to_string(root.join("content/details.md")).unwrap();
    std::fs::write(
        root.join("content/details.md"),
        format!("{page}\n::runs\n\n::proxy-plot{{run=\"r1\"}}\n"),
    )
    .unwrap();
    let (code, report) = check_json(root);
    assert_eq!(code, 0, "{}", report.summary());
    let out = tempfile::tempdir().unwrap();
    build_ok(root, out.path());
    let html = std::fs::read_to_string(out.path().join("en/details/index.html")).unwrap();
    assert!(
        html.contains("SMALL</span> 1 1 left open by its reading"),
        "the runs index counts the other case under its family, and this one as open"
    );
    assert!(
        html.contains("(its recorded reading leaves the route open)"),
        "the plot's description"
    );
}

/// A reading of the whole run that restates its origin, in the fixture's languages.
const RESTATED: &str = "\
- id: r1-origin
  run: r1
  restates: origin
  text:
    ja: \"言い直した由来\"
    en: \"the origin in the site's words\"
";

#[test]
fn a_restatement_takes_the_place_of_the_run_files_origin() {
    let site = fixture_copy();
    let root = site.path();
    let run = std::fs::read_to_string(root.join("data/runs/r1.yaml")).unwrap();
    write_file(root, "data/readings.yaml", RESTATED.as_bytes());
    let (code, report) = check_json(root);
    assert_eq!(code, 0, "{}", report.summary());
    let out = tempfile::tempdir().unwrap();
    build_ok(root, out.path());
    let page = std::fs::read_to_string(out.path().join("en/details/index.html")).unwrap();
    assert!(
        page.contains("the origin in the site&#39;s words")
            || page.contains("the origin in the site's words")
    );
    let origin = run
        .lines()
        .find(|l| l.trim_start().starts_with("en:"))
        .map(|l| {
            l.trim_start()
                .trim_start_matches("en:")
                .trim()
                .trim_matches('"')
        })
        .unwrap();
    assert!(
        !page.contains(origin),
        "the run file's origin is not shown: {origin}"
    );
    // Never a second time among the run's other readings.
    assert_eq!(page.matches("the origin in the site").count(), 1);
    // The run file is as it was, and the export keeps both.
    assert_eq!(
        std::fs::read_to_string(root.join("data/runs/r1.yaml")).unwrap(),
        run
    );
    let json = std::fs::read_to_string(out.path().join("evidence.json")).unwrap();
    assert!(json.contains("\"restates\":\"origin\"") || json.contains("\"restates\": \"origin\""));
}

#[test]
fn a_restatement_of_a_case_or_a_missing_note_is_an_error() {
    let site = fixture_copy();
    let root = site.path();
    let bad = "\
- id: r1-case
  run: r1
  case: large
  restates: origin
  text: {ja: \"誤り\", en: \"wrong\"}
- id: r1-note
  run: r1
  restates: note
  text: {ja: \"誤り\", en: \"wrong\"}
";
    write_file(root, "data/readings.yaml", bad.as_bytes());
    let (code, report) = check_json(root);
    assert_eq!(code, 1);
    let found: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "bad-restatement")
        .collect();
    assert_eq!(found.len(), 2, "{}", report.summary());
    assert!(
        found
            .iter()
            .all(|d| d.span.file == "data/readings.yaml" && d.span.line > 0)
    );
    assert!(found.iter().any(|d| d.message.contains("names a case")));
    assert!(found.iter().any(|d| d.message.contains("no `note`")));
}
