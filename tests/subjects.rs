//! What runs were taken of: the site's own subject and the subjects it compares with
//! (`data/subjects.yaml`), on a site of no pack (the three-language thermostat fixture
//! with a runs page). A subject's description is shown with its runs; a note recorded as
//! written is shown once, as such.

mod common;

use common::*;
use std::path::Path;

/// The subjects of the thermostat site: the house's own unit, and a bench unit it is
/// compared with.
const SUBJECTS: &str = r#"- id: house
  label: {en: "The hallway thermostat", de: "Der Thermostat im Flur", ja: "廊下のサーモスタット"}
  description:
    en: "The unit the study watches, on firmware 1."
    de: "Das Gerät, das die Studie beobachtet, mit Firmware 1."
    ja: "この調査が観察する機器。ファームウェア 1。"
- id: bench
  label: {en: "A unit on the bench", de: "Ein Gerät auf dem Prüftisch", ja: "試験台の機器"}
  description:
    en: "A spare unit on the bench, compared with the hallway's."
    de: "Ein Ersatzgerät auf dem Prüftisch, zum Vergleich mit dem im Flur."
    ja: "試験台に置いた予備の機器。廊下の機器と比べるために使う。"
"#;

/// A page that lists the runs, so that each run gets a page of its own.
const RUNS_PAGE: &str = r#"---
title: {en: "Runs", de: "Läufe", ja: "実行"}
---

:::en
## Every run
:::

:::de
## Alle Läufe
:::

:::ja
## すべての実行
:::

::runs
"#;

/// A copy of the three-language fixture with the subjects, the runs page and `edit`
/// applied to its root.
fn site(edit: impl FnOnce(&Path)) -> tempfile::TempDir {
    let site = tempfile::tempdir().expect("tempdir");
    copy_dir(
        &manifest_dir().join("tests/fixtures/three_languages"),
        site.path(),
    );
    let root = site.path();
    write_file(root, "data/subjects.yaml", SUBJECTS.as_bytes());
    write_file(root, "content/runs.md", RUNS_PAGE.as_bytes());
    replace_once(
        root,
        "evidence.yaml",
        "languages: [en, de, ja]\n",
        "languages: [en, de, ja]\nsubject: house\n",
    );
    edit(root);
    site
}

/// A run of `probe` on `date` with one case per `(id, indoor_c)`; `extra` is written
/// after its engine (a subject, environment …). A case id `x-rN` is repetition N of `x`.
fn run_file(id: &str, probe: &str, date: &str, extra: &str, cases: &[(&str, f64)]) -> String {
    let mut text = format!(
        "id: {id}\nprobe: {probe}\ndate: \"{date}\"\nengine: none\n{extra}origin:\n  \
         en: \"By hand.\"\n  de: \"Von Hand.\"\n  ja: \"手で記録。\"\ncases:\n"
    );
    for (case, v) in cases {
        text.push_str(&format!(
            "  - id: {case}\n    measurements: {{indoor_c: {v}}}\n"
        ));
        if let Some((of, n)) = case.rsplit_once("-r") {
            text.push_str(&format!("    repeat: {{of: {of}, index: {n}}}\n"));
        }
    }
    text
}

/// Builds `root` into `root/out`; the page `page` (e.g. `runs/morning`) of view `view`.
fn built(root: &Path, view: &str, page: &str) -> String {
    let out = root.join("out");
    if !out.exists() {
        build_ok(root, &out);
    }
    let path = out.join(view).join(page).join("index.html");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_note_recorded_as_written_is_shown_once_and_said_to_be_untranslated() {
    let site = site(|root| {
        replace_once(
            root,
            "data/runs/morning.yaml",
            "engine: none\n",
            "engine: none\nnote: \"windows open, 3 °C outside\"\n",
        );
    });
    let en = built(site.path(), "en", "runs/morning");
    assert!(
        en.contains(
            "Note: windows open, 3 °C outside <small>(as recorded, not translated)</small>"
        ),
        "{en}"
    );
    // The view of every language shows the words once, not once per language.
    let all = std::fs::read_to_string(site.path().join("out/runs/morning/index.html"))
        .expect("the interleaved view's run page");
    assert_eq!(
        all.matches("windows open, 3 °C outside").count(),
        1,
        "{all}"
    );
    // A note written in each language is shown as a text, with no such mark.
    let translated = self::site(|root| {
        replace_once(
            root,
            "data/runs/morning.yaml",
            "engine: none\n",
            "engine: none\nnote: {en: \"cold\", de: \"kalt\", ja: \"寒い\"}\n",
        );
    });
    let de = built(translated.path(), "de", "runs/morning");
    assert!(de.contains("Notiz: kalt</p>"), "{de}");
    assert!(!de.contains("nicht übersetzt"), "{de}");
}

#[test]
fn subjects_are_described_on_run_pages_and_the_runs_index() {
    let site = site(|root| {
        write_file(
            root,
            "data/runs/bench-1.yaml",
            run_file(
                "bench-1",
                "manual-readings",
                "2026-03-03",
                "subject: bench\n",
                &[("early", 17.0)],
            )
            .as_bytes(),
        );
    });
    let own = built(site.path(), "en", "runs/morning");
    assert!(
        own.contains(
            "Subject: The hallway thermostat — The unit the study watches, on firmware 1."
        ),
        "{own}"
    );
    let other = built(site.path(), "ja", "runs/bench-1");
    assert!(
        other.contains("比較用の実行。対象: 試験台の機器 — 試験台に置いた予備の機器。"),
        "{other}"
    );
    let index = built(site.path(), "en", "runs");
    assert!(
        index.contains(
            "Subject of this investigation: The hallway thermostat — The unit the study watches"
        ),
        "{index}"
    );
    assert!(
        index.contains("A subject compared with: A unit on the bench — A spare unit"),
        "{index}"
    );
}

/// `house` declared as the unit in the hallway, and a run `bench-2` of the same probe that
/// names no subject with `extra` after its engine.
fn declared_site(extra: &str) -> tempfile::TempDir {
    site(|root| {
        replace_once(
            root,
            "data/subjects.yaml",
            "    ja: \"この調査が観察する機器。ファームウェア 1。\"\n",
            "    ja: \"この調査が観察する機器。ファームウェア 1。\"\n  is: {host: hallway, firmware: \"1\"}\n",
        );
        write_file(
            root,
            "data/runs/bench-2.yaml",
            run_file(
                "bench-2",
                "manual-readings",
                "2026-03-04",
                extra,
                &[("early", 17.5)],
            )
            .as_bytes(),
        );
    })
}

#[test]
fn a_run_that_contradicts_the_subject_it_counts_as_is_an_error_at_the_value() {
    let site = declared_site("environment:\n  host: bench-pc\nversions:\n  firmware: \"1\"\n");
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1, "{}", report.summary());
    let found: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "subject-mismatch")
        .collect();
    assert_eq!(found.len(), 1, "{}", report.summary());
    let d = found[0];
    assert_eq!(d.severity, "error");
    // At the value the run recorded: line 6 is `  host: bench-pc`.
    assert_eq!(
        (d.span.file.as_str(), d.span.line, d.span.column),
        ("data/runs/bench-2.yaml", 6, 9),
        "{}",
        report.summary()
    );
    for says in ["`house`", "`host: hallway`", "`environment.host: bench-pc`"] {
        assert!(d.message.contains(says), "{says} in {}", d.message);
    }
    let hint = d.hint.as_deref().unwrap_or_default();
    assert!(hint.contains("--subject"), "{hint}");
    assert!(hint.contains("runs:"), "{hint}");
}

#[test]
fn a_run_that_names_its_subject_or_agrees_is_not_held_to_the_declaration() {
    for extra in [
        // Agrees with every key it records.
        "environment:\n  host: hallway\n",
        // Records none of the declared keys.
        "environment:\n  cpu: arm\n",
        // Says whose run it is: taken at its word.
        "subject: bench\nenvironment:\n  host: bench-pc\n",
        "subject: house\nenvironment:\n  host: bench-pc\n",
    ] {
        let site = declared_site(extra);
        let (code, report) = check_json(site.path());
        assert_eq!(code, 0, "{extra}: {}", report.summary());
    }
    // A subject that lists the run says the same.
    let site = declared_site("environment:\n  host: bench-pc\n");
    replace_once(
        site.path(),
        "data/subjects.yaml",
        "- id: bench\n",
        "- id: bench\n  runs: [bench-2]\n",
    );
    let (code, report) = check_json(site.path());
    assert_eq!(code, 0, "{}", report.summary());
}

/// The house's map made to hold for the house alone, and two runs of the bench unit.
fn bench_site(bench_1: &str) -> tempfile::TempDir {
    site(|root| {
        replace_once(
            root,
            "data/maps.yaml",
            "    variable: indoor_c\n",
            "    variable: indoor_c\n    for_subjects: [house]\n",
        );
        write_file(
            root,
            "data/runs/bench-1.yaml",
            run_file(
                "bench-1",
                "manual-readings",
                "2026-03-03",
                bench_1,
                &[("early", 17.0), ("noon", 21.0)],
            )
            .as_bytes(),
        );
        write_file(
            root,
            "data/runs/bench-2.yaml",
            run_file(
                "bench-2",
                "manual-readings",
                "2026-03-05",
                "subject: bench\n",
                &[("early-r1", 18.0), ("early-r2", 20.0), ("noon-r1", 21.0)],
            )
            .as_bytes(),
        );
    })
}

#[test]
fn a_map_for_other_subjects_gives_a_run_no_zone_and_says_so() {
    let site = bench_site("subject: bench\n");
    let bench = built(site.path(), "en", "runs/bench-1");
    assert!(!bench.contains("class=\"zone"), "{bench}");
    assert!(
        bench.contains("Maps that hold for other subjects give this run no zone: thermostat_v1."),
        "{bench}"
    );
    // No map is assessed, none outlined: the page does not say one is.
    assert!(!bench.contains("outlined"), "{bench}");
    assert!(!bench.contains("Zones are derived"), "{bench}");
    // The house's own run still has its zones, and the outline is explained.
    let own = built(site.path(), "en", "runs/morning");
    assert!(own.contains("class=\"zone assessed\""), "{own}");
    assert!(own.contains("Zones are derived"), "{own}");
    assert!(own.contains("outlined"), "{own}");
    assert!(!own.contains("give this run no zone"), "{own}");
}

#[test]
fn a_run_assessed_against_a_map_for_other_subjects_is_an_error() {
    let site = bench_site("subject: bench\nassessed_against: thermostat_v1\n");
    let found = check_errors(site.path(), "map-not-applicable", "`bench-1`");
    // Line 6: `assessed_against: thermostat_v1`, after the subject.
    assert_eq!(found, [("data/runs/bench-1.yaml".to_string(), 6, 19)]);
}

#[test]
fn runs_of_one_comparison_subject_are_compared_with_each_other() {
    let site = bench_site("subject: bench\n");
    let later = built(site.path(), "en", "runs/bench-2");
    // The run before it of the same subject and probe, linked; a Δ column against it.
    assert!(later.contains("Run before it:"), "{later}");
    assert!(later.contains("bench-1/"), "{later}");
    assert!(later.contains("Δ since bench-1"), "{later}");
    // The last of its subject's runs: compared case by case, a repeated case by its median.
    assert!(later.contains("Compared with the previous run:"), "{later}");
    assert!(later.contains("median of 1/2"), "{later}");
    let earlier = built(site.path(), "en", "runs/bench-1");
    assert!(earlier.contains("Run after it:"), "{earlier}");
    // The house's runs are not among them.
    let own = built(site.path(), "en", "runs/morning");
    assert!(!own.contains("bench-"), "{own}");
}
