//! The core's run is any investigation's: the settings a run ran under (`conditions:`)
//! are shown and quotable on any site, and the fields of an engine that serves a model
//! (its model, endpoint, a case's hot/cold mode) are the `ggml` pack's: read with the
//! pack on, a located error naming the pack without it, and shown nowhere on a site
//! without it.

mod common;

use common::*;
use std::path::Path;

/// A copy of the three-language fixture (no pack), with `edit` applied to its root.
fn thermostat_site(edit: impl FnOnce(&Path)) -> tempfile::TempDir {
    let site = tempfile::tempdir().expect("tempdir");
    copy_dir(
        &manifest_dir().join("tests/fixtures/three_languages"),
        site.path(),
    );
    edit(site.path());
    site
}

/// Builds `root` into `root/out`, giving the English home page (which quotes the run and
/// shows its table).
fn built_home(root: &Path) -> String {
    let out = root.join("out");
    build_ok(root, &out);
    std::fs::read_to_string(out.join("en/index.html")).expect("the English home page")
}

#[test]
fn a_runs_conditions_load_show_and_quote() {
    let site = thermostat_site(|root| {
        replace_once(
            root,
            "data/runs/morning.yaml",
            "engine: none\n",
            "engine: none\nconditions:\n  setpoint: \"21 C\"\n  fan: auto\n",
        );
        replace_once(
            root,
            "content/index.md",
            "At :v[run:morning.cases.early.measurements.indoor_c] °C the thermostat heats.",
            "At :v[run:morning.cases.early.measurements.indoor_c] °C the thermostat heats \
             (fan :v[run:morning.conditions.fan]).",
        );
    });
    let page = built_home(site.path());
    // Shown with the run, each setting by name in the order of names.
    assert!(
        page.contains("Conditions: fan <code>auto</code> · setpoint <code>21 C</code>"),
        "{page}"
    );
    // Quoted where the page names it.
    let at = page
        .find("°C the thermostat heats")
        .expect("the quoting sentence");
    let sentence = &page[at..at + page[at..].find("</p>").expect("its end")];
    assert!(sentence.contains("auto"), "{sentence}");
}

#[test]
fn inits_run_names_no_engine_and_its_page_shows_none() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("new");
    let r = run(&["init".as_ref(), dir.as_os_str()]);
    assert_eq!(r.code, 0, "stderr:\n{}", r.stderr);
    let file = std::fs::read_to_string(dir.join("data/runs/load-sample.yaml")).expect("the run");
    // `engine` is optional: a run written by hand of no engine leaves it out.
    assert!(!file.contains("engine"), "{file}");
    let out = dir.join("out");
    build_ok(&dir, &out);
    let mut pages = Vec::new();
    for entry in walkdir::WalkDir::new(out.join("en")) {
        let entry = entry.expect("walk");
        if entry.path().extension().is_some_and(|e| e == "html") {
            pages.push(std::fs::read_to_string(entry.path()).expect("page"));
        }
    }
    let with_run: Vec<&String> = pages
        .iter()
        .filter(|p| p.contains("<code>load-test</code>"))
        .collect();
    assert!(!with_run.is_empty(), "no page shows the run");
    for page in with_run {
        assert!(!page.contains("Engine"), "{page}");
    }
}

#[test]
fn a_packless_sites_run_table_has_no_mode_or_model_column() {
    let site = thermostat_site(|_| {});
    let page = built_home(site.path());
    // The run's table: the one headed by its cases.
    let start = page
        .find("<th scope=\"col\">Case</th>")
        .expect("the run's table on the home page");
    let start = page[..start].rfind("<table").expect("its start");
    let table = &page[start..start + page[start..].find("</table>").expect("its end")];
    for header in [">Mode<", ">Model<"] {
        assert!(!table.contains(header), "{header} in {table}");
    }
}

/// Turns the ggml pack on in the site at `root`.
fn with_engine_pack(root: &Path) {
    replace_once(
        root,
        "evidence.yaml",
        "languages: [en, de, ja]\n",
        "languages: [en, de, ja]\npacks: [ggml]\n",
    );
}

/// Gives the run the model, endpoint and case mode an engine run recorded before they
/// were the pack's fields (run files are never rewritten).
fn with_engine_fields(root: &Path) {
    replace_once(
        root,
        "data/runs/morning.yaml",
        "engine: none\n",
        "engine: none\nendpoint: \"http://127.0.0.1:11434\"\nmodel: \"qwen2.5:7b\"\n",
    );
    replace_once(
        root,
        "data/runs/morning.yaml",
        "  - id: early\n",
        "  - id: early\n    mode: hot\n",
    );
}

#[test]
fn an_old_runs_model_endpoint_and_mode_load_and_show_with_the_pack() {
    let site = thermostat_site(|root| {
        with_engine_pack(root);
        with_engine_fields(root);
    });
    let page = built_home(site.path());
    assert!(page.contains("Model <code>qwen2.5:7b</code>"), "{page}");
    assert!(
        page.contains("Endpoint <code>http://127.0.0.1:11434</code>"),
        "{page}"
    );
    let start = page
        .find("<th scope=\"col\">Case</th>")
        .expect("the run's table on the home page");
    let table = &page[start..start + page[start..].find("</table>").expect("its end")];
    assert!(table.contains(">Mode<"), "{table}");
    assert!(table.contains(">hot<"), "{table}");
}

#[test]
fn without_the_pack_an_old_runs_engine_fields_are_located_errors_naming_it() {
    let site = thermostat_site(with_engine_fields);
    let r = build(site.path(), Some(&site.path().join("out")));
    assert_ne!(r.code, 0, "stdout:\n{}", r.stdout);
    // The first pack field of the file, at its line and column.
    assert!(
        r.stderr.contains("data/runs/morning.yaml:5:1"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("`ggml` pack"), "{}", r.stderr);
    assert!(!site.path().join("out").exists(), "nothing is written");
}

#[test]
fn a_packless_sites_engine_run_says_nothing_of_a_model() {
    let site = thermostat_site(|root| {
        let vocabulary =
            std::fs::read_to_string(root.join("data/vocabulary.yaml")).expect("the vocabulary");
        let engines = "engines:\n  - id: controller\n    label: {en: \"Controller\", \
                       de: \"Regler\", ja: \"制御器\"}\n";
        write_file(
            root,
            "data/vocabulary.yaml",
            format!("{engines}{vocabulary}").as_bytes(),
        );
        replace_once(
            root,
            "data/runs/morning.yaml",
            "engine: none\n",
            "engine: controller\n",
        );
    });
    let page = built_home(site.path());
    assert!(page.contains("Controller"), "{page}");
    assert!(!page.contains("Model"), "{page}");
}
