//! Nothing a reader can see changes without `evidence diff` saying so: a fixture site with
//! a record of every kind (the valid fixture, check_rules' binary runs and the
//! `every_kind` overlay) and the fixture site with a declared collection, each in a git
//! repository,
//! one edit to a record of every kind the registry knows, to a page's front matter and to
//! a block, to a message, to `evidence.yaml`, to a template and to a run file; one diff,
//! which must report each edit where a reviewer looks for it.

mod common;

use assert_cmd::Command;
use common::git;
use serde_json::Value;
use std::path::Path;

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk");
        let rel = entry.path().strip_prefix(from).expect("under");
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &dest).expect("copy");
        }
    }
}

/// A git repository holding a copy of the site at `site` (its sources only).
fn repo_of(site: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp");
    for part in ["content", "data", "locales", "templates", "static"] {
        if site.join(part).is_dir() {
            copy_tree(&site.join(part), &dir.path().join(part));
        }
    }
    std::fs::copy(site.join("evidence.yaml"), dir.path().join("evidence.yaml")).expect("config");
    git(dir.path(), &["init", "-q", "-b", "main"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "base"]);
    dir
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).expect(file)
}

/// Puts a word in front of the English text of the first record under `section` (a
/// top-level key of the file, or the whole file) that has one; gives that record's id.
fn edit_record(dir: &Path, file: &str, section: Option<&str>) -> String {
    let text = read(dir, file);
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let start = match section {
        Some(s) => lines
            .iter()
            .position(|l| l.starts_with(&format!("{s}:")))
            .unwrap_or_else(|| panic!("no section {s} in {file}")),
        None => 0,
    };
    let end = lines
        .iter()
        .enumerate()
        .skip(start + 1)
        .find(|(_, l)| section.is_some() && !l.starts_with([' ', '-', '#']) && !l.is_empty())
        .map_or(lines.len(), |(i, _)| i);
    let ids: Vec<usize> = (start..end)
        .filter(|&i| lines[i].trim_start().starts_with("- id: "))
        .collect();
    for (k, &at) in ids.iter().enumerate() {
        let stop = ids.get(k + 1).copied().unwrap_or(end);
        if let Some(line) = (at..stop).find(|&i| lines[i].contains("en: ")) {
            let l = &lines[line];
            let pos = l.find("en: ").expect("en") + 4;
            let quoted = l[pos..].starts_with('"');
            let insert_at = if quoted { pos + 1 } else { pos };
            lines[line] = format!("{}Edited {}", &l[..insert_at], &l[insert_at..]);
            std::fs::write(dir.join(file), lines.join("\n") + "\n").expect("write");
            return lines[at]
                .trim_start()
                .trim_start_matches("- id: ")
                .trim_matches('"')
                .to_string();
        }
    }
    // No English text: a word-valued field of the first record gets a letter more.
    let at = *ids
        .first()
        .unwrap_or_else(|| panic!("no record in {file} {section:?}"));
    let stop = ids.get(1).copied().unwrap_or(end);
    let line = (at + 1..stop)
        .find(|&i| {
            lines[i]
                .split_once(": ")
                .is_some_and(|(_, v)| v.starts_with(|c: char| c.is_ascii_alphabetic()))
        })
        .unwrap_or_else(|| panic!("nothing to edit in {file} {section:?}"));
    lines[line].push('x');
    std::fs::write(dir.join(file), lines.join("\n") + "\n").expect("write");
    lines[at]
        .trim_start()
        .trim_start_matches("- id: ")
        .trim_matches('"')
        .to_string()
}

fn replace(dir: &Path, file: &str, from: &str, to: &str) {
    let text = read(dir, file);
    assert!(text.contains(from), "{from:?} not in {file}");
    std::fs::write(dir.join(file), text.replacen(from, to, 1)).expect("write");
}

fn diff_json(dir: &Path) -> Value {
    let out = Command::cargo_bin("evidence")
        .expect("binary")
        .args(["diff", "HEAD", "--format", "json", "--root"])
        .arg(dir)
        .output()
        .expect("diff runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json")
}

fn has_record(report: &Value, kind: &str, id: &str) -> bool {
    report["records"]
        .as_array()
        .expect("records")
        .iter()
        .any(|r| r["kind"] == kind && r["id"] == id && r["change"] == "changed")
}

/// The valid fixture with `tests/fixtures/check_rules` (components, generations, binary
/// runs) and `tests/fixtures/every_kind` (every other kind, a site message) copied over it.
fn every_kind_site() -> tempfile::TempDir {
    let site = common::fixture_copy();
    let fixtures = common::manifest_dir().join("tests/fixtures");
    for overlay in ["check_rules", "every_kind"] {
        copy_tree(&fixtures.join(overlay), site.path());
    }
    site
}

#[test]
fn every_kind_of_input_edited_is_reported() {
    evidence::packs::register();
    let site = every_kind_site();
    let repo = repo_of(site.path());
    let d = repo.path();
    // The site declares no text field: one is added to the base first.
    let vocabulary = read(d, "data/vocabulary.yaml");
    std::fs::write(
        d.join("data/vocabulary.yaml"),
        format!(
            "{vocabulary}texts:\n  - id: stop_reason\n    label: {{ja: \"停止理由\", en: \"stop reason\"}}\n"
        ),
    )
    .expect("vocabulary");
    git(d, &["commit", "-qam", "a text field"]);
    // Kinds reported field by field, each edited in its own file (and section).
    let generic: &[(&str, &str, Option<&str>)] = &[
        ("phase", "data/worklog.yaml", None),
        ("bundle", "data/bundles.yaml", None),
        ("observer", "data/observers.yaml", None),
        ("component", "data/components.yaml", None),
        ("question", "data/questions.yaml", None),
        ("finding", "data/findings.yaml", None),
        ("family", "data/maps.yaml", Some("families")),
        ("generation", "data/generations.yaml", None),
        ("term", "data/glossary.yaml", None),
        (
            "tensor_type",
            "data/quantization.yaml",
            Some("tensor_types"),
        ),
        ("file_type", "data/quantization.yaml", Some("file_types")),
        ("layer", "data/quantization.yaml", Some("layers")),
        ("plan", "data/quantization.yaml", Some("plan")),
        ("route", "data/routes.yaml", None),
        ("engine", "data/vocabulary.yaml", Some("engines")),
        ("status", "data/vocabulary.yaml", Some("statuses")),
        ("measurement", "data/vocabulary.yaml", Some("measurements")),
        ("text", "data/vocabulary.yaml", Some("texts")),
        ("subject", "data/subjects.yaml", None),
        ("reading", "data/readings.yaml", None),
    ];
    let mut edited = Vec::new();
    for (kind, file, section) in generic {
        edited.push((*kind, edit_record(d, file, *section)));
    }
    // Kinds with a section of their own.
    let claim = edit_record(d, "data/claims.yaml", None);
    let map = edit_record(d, "data/maps.yaml", Some("maps"));
    replace(
        d,
        "data/runs/r1.yaml",
        "prompt_eval_count: 40",
        "prompt_eval_count: 41",
    );
    // A page's front matter and one of its blocks, a message, the site's configuration.
    let page = read(d, "content/details.md");
    replace(
        d,
        "content/details.md",
        "en: \"Fixture details",
        "en: \"Edited fixture details",
    );
    let block = page
        .split(":::en\n")
        .nth(1)
        .and_then(|b| b.lines().next())
        .expect("an English block")
        .to_string();
    replace(d, "content/details.md", &block, &format!("Edited {block}"));
    let ftl = read(d, "locales/en/overlay.ftl");
    let (msg, _) = ftl
        .lines()
        .find_map(|l| l.split_once(" = ").filter(|(k, _)| !k.starts_with('#')))
        .expect("a message");
    let msg = msg.to_string();
    replace(
        d,
        "locales/en/overlay.ftl",
        &format!("{msg} = "),
        &format!("{msg} = Edited "),
    );
    replace(
        d,
        "evidence.yaml",
        "  en: \"Fixture investigation",
        "  en: \"Edited fixture investigation",
    );
    // A template of the site's own, added.
    std::fs::create_dir_all(d.join("templates")).expect("templates");
    std::fs::write(d.join("templates/extra.html"), "<p>extra</p>\n").expect("template");

    let report = diff_json(d);
    for (kind, id) in &edited {
        assert!(has_record(&report, kind, id), "{kind}:{id} not reported");
    }
    let listed = |section: &str, id: &str| {
        report[section]
            .as_array()
            .expect(section)
            .iter()
            .any(|c| c["id"] == id)
    };
    assert!(listed("claims", &claim), "claim {claim}");
    assert!(listed("maps", &map), "map {map}");
    assert!(
        report["rewrites"]
            .as_array()
            .expect("rewrites")
            .iter()
            .any(|w| w["run"] == "r1"),
        "the run file edited in place"
    );
    assert!(has_record(&report, "page", "details"), "front matter");
    assert!(
        report["texts"]
            .as_array()
            .expect("texts")
            .iter()
            .any(|t| t["page"] == "details" && t["edits"][0]["lang"] == "en"),
        "the English block"
    );
    assert!(has_record(&report, "message", &msg), "message {msg}");
    assert!(
        has_record(&report, "config", "evidence.yaml"),
        "evidence.yaml"
    );
    assert!(
        report["records"]
            .as_array()
            .expect("records")
            .iter()
            .any(|r| r["kind"] == "file"
                && r["id"] == "templates/extra.html"
                && r["change"] == "added"),
        "the template"
    );
    // A one-language edit of a message and of the configuration is translation drift.
    let drift = |kind: &str| {
        report["records"]
            .as_array()
            .expect("records")
            .iter()
            .any(|r| r["kind"] == kind && r["drift"][0]["changed"] == "en")
    };
    assert!(drift("message") && drift("config"), "drift");

    // Every kind of the registry is covered here, by name or by its own section, so a new
    // kind without a case here fails this test.
    let covered: Vec<&str> = generic
        .iter()
        .map(|(k, _, _)| *k)
        .chain(["claim", "map", "run", "page", "record"])
        .collect();
    for spec in evidence::model::registry::KINDS {
        assert!(
            covered.contains(&spec.name),
            "kind `{}` has no edit in this test",
            spec.name
        );
    }
}

#[test]
fn a_record_of_a_declared_collection_edited_is_reported() {
    evidence::packs::register();
    let root = common::manifest_dir().join("tests/fixtures/figures");
    let repo = repo_of(&root);
    let d = repo.path();
    let id = edit_record(d, "data/experiments.yaml", None);
    let report = diff_json(d);
    assert!(
        report["records"]
            .as_array()
            .expect("records")
            .iter()
            .any(|r| r["id"] == id.as_str() && r["change"] == "changed"),
        "{report}"
    );
}
