//! Snapshots of the rendered data tables of the valid fixture (English view).
//! Update with `INSTA_UPDATE=always cargo test --test tables` or `cargo insta review`.

mod common;

use common::*;

#[test]
fn claims_table_en() {
    let b = Built::new();
    let html = b.read("en/index.html");
    insta::assert_snapshot!("claims_table_en", figure(&html, "claims"));
}

#[test]
fn bundles_table_en() {
    let b = Built::new();
    let html = b.read("en/details/index.html");
    insta::assert_snapshot!("bundles_table_en", figure(&html, "bundles"));
}

#[test]
fn run_table_en() {
    let b = Built::new();
    let html = b.read("en/details/index.html");
    insta::assert_snapshot!("run_table_en", figure(&html, "run"));
}

/// The other views fill the rows' view-dependent fragments (mode, readings, labels) in
/// their own languages: the rows are worked out once per page, by the first view.
#[test]
fn run_table_ja_and_interleaved() {
    let b = Built::new();
    let ja = b.read("ja/details/index.html");
    insta::assert_snapshot!("run_table_ja", figure(&ja, "run"));
    let both = b.read("details/index.html");
    insta::assert_snapshot!("run_table_interleaved", figure(&both, "run"));
}

/// A run after another of the same probe lists, under its table, the cases whose zone
/// under the map changed: each once, with the zones it left and entered, and none whose
/// zone stayed or that is new.
#[test]
fn a_run_notes_the_cases_whose_zone_changed() {
    let dir = fixture_copy();
    let r1 = std::fs::read_to_string(dir.path().join("data/runs/r1.yaml")).unwrap();
    // `small` moves from 3 to 20 (past the bound of 8: SMALL → LARGE), `large` stays
    // LARGE, `extra` is new.
    let r2 = r1
        .replace("id: r1", "id: r2")
        .replace("2026-01-20", "2026-01-21")
        .replace("prompt_eval_count: 3\n", "prompt_eval_count: 20\n")
        .replace("zone: fam_small", "zone: fam_large")
        .replace(
            "cases:\n",
            "cases:\n  - {id: extra, mode: hot, num_predict: 1, prompt_eval_count: 2, eval_count: 1}\n",
        );
    assert_ne!(r1, r2.replace("id: r2", "id: r1"), "the run was changed");
    write_file(dir.path(), "data/runs/r2.yaml", r2.as_bytes());
    replace_once(
        dir.path(),
        "content/details.md",
        "::run{id=\"r1\"}",
        "::run{id=\"r2\"}",
    );
    let out = dir.path().join("out");
    build_ok(dir.path(), &out);
    let html = std::fs::read_to_string(out.join("en/details/index.html")).unwrap();
    let table = figure(&html, "run");
    let note = table
        .split("<p class=\"table-note\">")
        .find(|n| n.contains("Zones under"))
        .unwrap_or_else(|| panic!("no note of changed zones in {table}"));
    let note = &note[..note.find("</p>").unwrap()];
    let badge = |label: &str| {
        let at = note
            .find(&format!(">{label}</span>"))
            .unwrap_or_else(|| panic!("{label} in {note}"));
        note[..at].rfind("<span class=\"badge ").expect("a badge")
    };
    let small = note.find("<code>small</code> ").expect("small is listed");
    assert!(
        small < badge("SMALL") && badge("SMALL") < badge("LARGE"),
        "{note}"
    );
    assert!(note.contains("</span> → <span class=\"badge "), "{note}");
    assert_eq!(note.matches("<code>").count(), 1, "only small: {note}");
}

/// Ids are not words: a reference to a record with a name shows the name with the id as a
/// code detail, and a map's decision flow is captioned with the map's title.
#[test]
fn references_and_figure_titles_name_records_by_their_titles() {
    let site = fixture_copy();
    replace_once(
        site.path(),
        "data/claims.yaml",
        "evidence: [\"bundle:b1\", \"run:r1\"]",
        "evidence: [\"bundle:b1\", \"run:r1\", \"map:fixture_map\"]",
    );
    let page = site.path().join("content/details.md");
    let mut text = std::fs::read_to_string(&page).unwrap();
    text.push_str("\n::dispatch-diagram{map=\"fixture_map\"}\n");
    std::fs::write(&page, text).unwrap();
    let out = site.path().join("out");
    build_ok(site.path(), &out);
    let index = std::fs::read_to_string(out.join("en/index.html")).unwrap();
    assert!(
        index.contains("Fixture map <small><code>map:fixture_map</code></small>"),
        "the reference shows the map's title"
    );
    let details = std::fs::read_to_string(out.join("en/details/index.html")).unwrap();
    assert!(details.contains("Decision flow: Fixture map"));
    assert!(!details.contains("Decision flow of fixture_map"));
}

/// A phase label may be given per language, so that no English label stands in the
/// Japanese view ("setup" in the worklog); a plain string still serves every language.
#[test]
fn a_phase_label_may_be_given_in_each_language() {
    let site = fixture_copy();
    replace_once(
        site.path(),
        "data/worklog.yaml",
        "  label: F1\n",
        "  label: {ja: \"準備\", en: \"setup\"}\n",
    );
    let out = site.path().join("out");
    build_ok(site.path(), &out);
    let ja = std::fs::read_to_string(out.join("ja/details/index.html")).unwrap();
    let en = std::fs::read_to_string(out.join("en/details/index.html")).unwrap();
    assert!(ja.contains("<strong class=\"phase-label\">準備</strong>"));
    assert!(!ja.contains(">setup<"));
    assert!(en.contains("<strong class=\"phase-label\">setup</strong>"));
}

/// Every data table's body rows, from every page of the built fixture: `(figure class, row)`.
fn data_rows(b: &Built) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    for (page, bytes) in read_tree(&b.out) {
        if !page.ends_with(".html") {
            continue;
        }
        let html = String::from_utf8(bytes).unwrap();
        for fig in html.split("<figure class=\"data ").skip(1) {
            let class = fig.split('"').next().unwrap().to_string();
            let Some(body) = fig.split("<tbody>").nth(1) else {
                continue;
            };
            let body = body.split("</tbody>").next().unwrap();
            for row in body.split("<tr").skip(1) {
                rows.push((class.clone(), row.to_string()));
            }
        }
    }
    rows
}

/// Each row of a data table (a run's cases, findings, claims, questions, a map's and a
/// comparison's ranges, records) is named by its first cell: a row header, which a screen
/// reader announces with each cell after it. Only the "no records" row has none.
#[test]
fn every_data_row_is_named_by_a_row_header() {
    let b = Built::new();
    let rows = data_rows(&b);
    for class in ["claims", "dispatch-map", "run"] {
        assert!(rows.iter().any(|(c, _)| c == class), "no {class} rows");
    }
    let unnamed: Vec<_> = rows
        .iter()
        .filter(|(_, r)| !r.contains("class=\"empty\""))
        .filter(|(_, r)| {
            !r.split_once('>')
                .unwrap()
                .1
                .starts_with("<th scope=\"row\">")
        })
        .collect();
    assert!(
        unnamed.is_empty(),
        "rows without a row header: {unnamed:#?}"
    );
}

/// A column head named by an identifier is shown whole: no break opportunity after its
/// `_` (a reader saw "num_ / predict"), and the stylesheet does not break words in heads.
#[test]
fn identifier_heads_are_not_broken() {
    let b = Built::new();
    let html = b.read("en/details/index.html");
    let run = figure(&html, "run");
    for head in ["num_predict", "prompt_eval_count", "eval_count"] {
        assert!(
            run.contains(&format!("<th scope=\"col\">{head}</th>")),
            "{head} whole: {run}"
        );
    }
    assert!(!run.contains("<wbr>"), "{run}");
    let css = b.read("static/style.css");
    let heads = css.split("th[scope=\"col\"] {").nth(1).unwrap();
    let heads = heads.split('}').next().unwrap();
    assert!(heads.contains("overflow-wrap: normal"), "{heads}");
}

/// The zone of the map a run was assessed against says so in words, in each view's
/// language, and stays the only outlined zone when the system forces its colours.
#[test]
fn the_assessed_zone_is_marked_in_words() {
    let b = Built::new();
    for (page, word) in [
        ("en/details/index.html", "(assessed)"),
        ("ja/details/index.html", "(照合)"),
    ] {
        let run = figure(&b.read(page), "run").to_string();
        let assessed = run.split("<span class=\"zone assessed\">").nth(1).unwrap();
        let assessed = assessed.split("</span></span>").next().unwrap();
        assert!(
            assessed.contains(&format!("<small class=\"assessed-label\">{word}</small>")),
            "{page}: {assessed}"
        );
        for other in run.split("<span class=\"zone\">").skip(1) {
            let other = other.split("</span></span>").next().unwrap();
            assert!(!other.contains("assessed-label"), "{page}: {other}");
        }
    }
    let css = b.read("static/style.css");
    let forced = css.split("@media (forced-colors: active)").nth(1).unwrap();
    assert!(
        forced.contains(".zone.assessed { border: 2px solid CanvasText; }"),
        "{forced}"
    );
    assert!(forced.contains(".zone { border-style: none; }"), "{forced}");
}

/// A range where the compared maps route differently is marked by a symbol with words for
/// a screen reader, not by its colour alone; a range where they agree has no mark.
#[test]
fn differing_comparison_rows_carry_a_mark() {
    let dir = fixture_copy();
    let maps = std::fs::read_to_string(dir.path().join("data/maps.yaml")).unwrap();
    let start = maps.find("  - id: fixture_map").unwrap();
    // The same variable, a lower bound: the maps disagree between 5 and 8 only.
    let second = maps[start..]
        .replace("id: fixture_map", "id: other_map")
        .replace("bound: {le: 8}", "bound: {le: 4}")
        .replace("        anchor: bundle:b1\n", "");
    write_file(
        dir.path(),
        "data/maps.yaml",
        format!("{maps}{second}").as_bytes(),
    );
    let page = dir.path().join("content/details.md");
    let text = std::fs::read_to_string(&page).unwrap() + "\n::dispatch-compare\n";
    std::fs::write(&page, text).unwrap();
    let out = dir.path().join("out");
    build_ok(dir.path(), &out);
    for (view, words) in [
        ("en", "the maps differ here"),
        ("ja", "地図どうしで判断が異なる"),
    ] {
        let html = std::fs::read_to_string(out.join(view).join("details/index.html")).unwrap();
        let table = figure(&html, "dispatch-compare");
        let body = table.split("<tbody>").nth(1).unwrap();
        let rows: Vec<&str> = body.split("<tr").skip(1).collect();
        let mark = format!(
            "<th scope=\"row\"><span class=\"differs-mark\" aria-hidden=\"true\">≠</span>\
             <span class=\"sr-only\">{words}</span> "
        );
        let (differ, agree): (Vec<&str>, Vec<&str>) = rows
            .iter()
            .partition(|r| r.starts_with(" class=\"differs\""));
        assert_eq!((differ.len(), agree.len()), (1, 2), "{table}");
        assert!(differ[0].contains(&mark), "{view}: {}", differ[0]);
        assert!(agree.iter().all(|r| !r.contains("differs-mark")), "{table}");
    }
}
