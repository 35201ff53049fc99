//! Rules of `evidence check` that need more than one edit of the valid fixture: the valid
//! site with the files of a small overlay (`tests/fixtures/<overlay>/`) copied over it.

mod common;

use common::*;

/// A copy of the valid fixture with `tests/fixtures/<overlay>/` copied over it.
fn fixture_with(overlay: &str) -> tempfile::TempDir {
    let site = fixture_copy();
    copy_dir(
        &manifest_dir().join("tests/fixtures").join(overlay),
        site.path(),
    );
    site
}

/// The latest fatbin and maps runs are compared with the recorded generations and
/// components: exactly the records a run disagrees with are warned about, at their id, and
/// the site still checks (warnings, not errors).
#[test]
fn binary_runs_warn_at_exactly_the_records_they_disagree_with() {
    let site = fixture_with("check_rules");
    let (code, report) = check_json(site.path());
    assert_eq!(
        code,
        0,
        "warnings must not fail check:\n{}",
        report.summary()
    );
    assert_eq!(
        (report.errors, report.warnings),
        (0, 3),
        "{}",
        report.summary()
    );
    let at: Vec<(&str, usize, usize, &str, &str)> = report
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.span.file.as_str(),
                d.span.line,
                d.span.column,
                d.severity.as_str(),
                d.code.as_str(),
            )
        })
        .collect();
    assert_eq!(
        at,
        [
            ("data/components.yaml", 8, 7, "warning", "run-disagrees"),
            ("data/generations.yaml", 15, 7, "warning", "run-disagrees"),
            ("data/generations.yaml", 21, 7, "warning", "run-disagrees"),
        ],
        "{}",
        report.summary()
    );
    let messages: Vec<&str> = report
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        messages[0].starts_with("component `unseen` ")
            && messages[0].contains("maps run `maps-20261125T002415Z` did not see librocblas.so.4"),
        "{}",
        messages[0]
    );
    assert!(
        messages[1]
            .starts_with("generation `disagrees_found` records fatbin target `gfx1201` as `found`")
            && messages[1].ends_with("(file `libggml-hip-f822f971.so`) did not find it"),
        "{}",
        messages[1]
    );
    assert!(
        messages[2].starts_with(
            "generation `disagrees_not_found` records fatbin target `gfx90a` as `not_found`"
        ) && messages[2].ends_with(") found it"),
        "{}",
        messages[2]
    );
}

/// A run of another subject is a comparison: the records are not held to it, and it is
/// not its probe's latest run; the site's own runs still are.
#[test]
fn a_run_of_another_subject_is_a_comparison_not_evidence() {
    let site = fixture_with("check_rules");
    let fatbin = std::fs::read_dir(site.path().join("data/runs"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| {
            e.file_name()
                .to_string_lossy()
                .trim_end_matches(".yaml")
                .to_string()
        })
        .find(|n| n.starts_with("fatbin-"))
        .expect("a fatbin run in the overlay");
    replace_once(
        site.path(),
        "evidence.yaml",
        "packs: [ggml]\n",
        "packs: [ggml]\nsubject: ours\n",
    );
    write_file(
        site.path(),
        "data/subjects.yaml",
        format!(
            "- id: ours\n  label: {{ja: 対象, en: ours}}\n- id: other_build\n  label: {{ja: 別のビルド, en: another build}}\n  runs: [{fatbin}]\n"
        )
        .as_bytes(),
    );
    let (code, report) = check_json(site.path());
    assert_eq!(code, 0, "{}", report.summary());
    let disagree: Vec<&str> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "run-disagrees")
        .map(|d| d.span.file.as_str())
        .collect();
    // The generations were held to the fatbin run; now only the maps run (the site's own)
    // is compared with the components.
    assert_eq!(disagree, ["data/components.yaml"], "{}", report.summary());
    // A run given to two subjects is a located error.
    write_file(
        site.path(),
        "data/subjects.yaml",
        format!(
            "- id: ours\n  label: {{ja: 対象, en: ours}}\n  runs: [{fatbin}]\n- id: other_build\n  label: {{ja: 別のビルド, en: another build}}\n  runs: [{fatbin}]\n"
        )
        .as_bytes(),
    );
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1);
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.code == "subject-clash")
        .unwrap_or_else(|| panic!("{}", report.summary()));
    assert_eq!(
        (d.span.file.as_str(), d.span.line),
        ("data/subjects.yaml", 6)
    );
    // A subject no subjects.yaml declares is a located error.
    replace_once(
        site.path(),
        "evidence.yaml",
        "subject: ours\n",
        "subject: theirs\n",
    );
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1);
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.code == "dangling-ref")
        .unwrap_or_else(|| panic!("{}", report.summary()));
    assert_eq!(d.span.file, "evidence.yaml");
    assert!(
        d.message.contains("no subject with id `theirs`"),
        "{}",
        d.message
    );
}

/// The places, severities and codes of a check report's diagnostics.
fn places(report: &Report) -> Vec<(String, usize, usize, String, String)> {
    report
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.span.file.clone(),
                d.span.line,
                d.span.column,
                d.severity.as_str().to_string(),
                d.code.clone(),
            )
        })
        .collect()
}

/// A glossary entry's `spelling:` makes every variant a page block or a data text writes a
/// warning at its line and column that names the spelling to use; code spans, names
/// (`mul_mat_kernel`), the other language and the entry's own id are not judged.
#[test]
fn a_variant_of_a_declared_term_is_warned_about_where_it_is_written() {
    let site = fixture_with("terminology");
    let (code, report) = check_json(site.path());
    assert_eq!(
        code,
        0,
        "warnings must not fail check:\n{}",
        report.summary()
    );
    let s = |f: &str, l, c| {
        (
            f.to_string(),
            l,
            c,
            "warning".to_string(),
            "terminology".to_string(),
        )
    };
    assert_eq!(
        places(&report),
        [
            s("content/terms.md", 10, 5),
            s("content/terms.md", 10, 18),
            s("data/glossary.yaml", 4, 24),
        ],
        "{}",
        report.summary()
    );
    let messages: Vec<&str> = report
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        messages[0].contains("`kernel` is written `カーネル`"),
        "{messages:?}"
    );
    assert!(
        messages[1].contains("`復号` is written `デコード`"),
        "{messages:?}"
    );
    // A name written per language is a text like any other: its variant is warned about
    // where it is written, while a name the same in every language is not judged.
    replace_once(
        site.path(),
        "data/observers.yaml",
        "  name: fixture observer\n",
        "  name: {ja: \"kernel の観測\", en: \"kernel observer\"}\n",
    );
    let (code, named) = check_json(site.path());
    assert_eq!(code, 0, "{}", named.summary());
    assert!(
        places(&named).contains(&s("data/observers.yaml", 2, 15)),
        "{}",
        named.summary()
    );
    assert_eq!(places(&named).len(), places(&report).len() + 1);
    replace_once(
        site.path(),
        "data/observers.yaml",
        "  name: {ja: \"kernel の観測\", en: \"kernel observer\"}\n",
        "  name: fixture observer\n",
    );
    // A run file is never rewritten, so its texts are not judged: the same variant in a
    // run's reading adds no warning.
    replace_once(
        site.path(),
        "data/runs/r1.yaml",
        "ja: \"フィクスチャの実行。\"",
        "ja: \"kernel を測ったフィクスチャの実行。\"",
    );
    let (code, again) = check_json(site.path());
    assert_eq!(code, 0, "{}", again.summary());
    assert_eq!(places(&again), places(&report), "{}", again.summary());
    // A spelling for a language the site does not have is an error at the entry.
    replace_once(
        site.path(),
        "data/glossary.yaml",
        "    ja: {avoid: [\"kernel\"]}",
        "    fr: {avoid: [\"kernel\"]}",
    );
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1, "{}", report.summary());
    assert!(
        places(&report).contains(&(
            "data/glossary.yaml".into(),
            1,
            7,
            "error".into(),
            "terminology".into()
        )),
        "{}",
        report.summary()
    );
}

/// `basis: source` needs a source a reader can follow, on a record and on a prose block's
/// fence; a site that gives them shows each basis with its own badge and the legend.
#[test]
fn a_source_basis_needs_a_link_and_every_basis_has_its_badge() {
    let site = fixture_with("basis");
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1, "{}", report.summary());
    let e =
        |f: &str, l, c, code: &str| (f.to_string(), l, c, "error".to_string(), code.to_string());
    assert_eq!(
        places(&report),
        [
            e("content/basis.md", 18, 7, "block"),
            e("data/findings.yaml", 10, 7, "basis-source"),
        ],
        "{}",
        report.summary()
    );
    replace_once(
        site.path(),
        "content/basis.md",
        ":::en{basis=\"source\"}",
        ":::en{basis=\"source\" source=\"https://github.com/example-org/example/pull/7\"}",
    );
    replace_once(
        site.path(),
        "data/findings.yaml",
        "    repository: \"a local tree\"\n",
        "    repository: \"a local tree\"\n    url: \"https://example.org/tree/notes.txt\"\n",
    );
    let out = site.path().join("out");
    build_ok(site.path(), &out);
    let page = std::fs::read_to_string(out.join("en/basis/index.html")).unwrap();
    for class in ["basis-observed", "basis-source", "basis-inferred"] {
        assert!(
            page.contains(&format!("<span class=\"badge {class}\">")),
            "no {class} badge"
        );
    }
    assert_eq!(page.matches("<aside class=\"basis-legend\">").count(), 1);
    assert!(page.contains("<a href=\"https://github.com/example-org/example/pull/7\">"));
    assert!(
        page.contains(
            "<a href=\"https://github.com/example-org/example/blob/abc1234/src/lib.rs\">"
        )
    );
    assert!(page.contains("<a href=\"https://example.org/tree/notes.txt\">"));
    // A page that shows no basis has no legend.
    let other = std::fs::read_to_string(out.join("en/details/index.html")).unwrap();
    assert!(!other.contains("basis-legend"));
}
