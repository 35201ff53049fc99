//! `evidence schema`: every data file of the fixture sites and of `evidence init`'s site
//! validates against the schema written for its site (this repository's own data is
//! `tests/investigation`'s), a wrong file does not, and
//! docs/reference.md is the reference the schemas give.

mod common;
mod schema_support;

use schema_support::failures;
use serde_json::Value;
use std::path::PathBuf;

/// The repository's root, where docs/reference.md is.
fn repo() -> PathBuf {
    common::manifest_dir()
}

/// Every data file of the fixture sites validates against its site's schemas: the valid
/// fixture with the binary runs of `check_rules` (the pack's kinds and run shapes), and
/// the sites of no pack (declared collections, three languages).
#[test]
fn every_data_file_of_the_fixture_sites_validates() {
    evidence::packs::register();
    let fixtures = common::manifest_dir().join("tests/fixtures");
    let valid = common::fixture_copy();
    common::copy_dir(&fixtures.join("check_rules"), valid.path());
    let mut seen = 0;
    for root in [
        valid.path().to_path_buf(),
        fixtures.join("planner"),
        fixtures.join("figures"),
        fixtures.join("three_languages"),
    ] {
        let schemas = evidence::schema::site_schemas(&root).expect("schemas");
        let (bad, n) = failures(&root, &schemas);
        assert!(bad.is_empty(), "{}", bad.join("\n"));
        seen += n;
    }
    assert!(seen > 30, "only {seen} files seen");
}

#[test]
fn every_data_file_of_inits_site_validates_and_the_editor_is_pointed_at_the_schemas() {
    evidence::packs::register();
    let dir = tempfile::tempdir().expect("tmp");
    let site = dir.path().join("site");
    evidence::init::init(&site).expect("init");
    let schemas = evidence::schema::site_schemas(&site).expect("schemas");
    let (bad, seen) = failures(&site, &schemas);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(seen >= 8, "only {seen} files seen");
    let settings: Value = serde_json::from_str(
        &std::fs::read_to_string(site.join(".vscode/settings.json")).expect("settings"),
    )
    .expect("json");
    let listed = &settings["yaml.schemas"];
    assert_eq!(listed["./schemas/runs.schema.json"], "data/runs/**/*.yaml");
    for s in &schemas {
        let written = site.join("schemas").join(format!("{}.schema.json", s.name));
        let text = std::fs::read_to_string(&written).expect("written by init");
        assert_eq!(text, evidence::schema::to_text(&s.schema), "{}", s.name);
    }
}

/// Whether `yaml` is a valid file of the schema named `name` of init's site.
fn valid(name: &str, yaml: &str) -> bool {
    let dir = tempfile::tempdir().expect("tmp");
    let site = dir.path().join("site");
    evidence::init::init(&site).expect("init");
    let schemas = evidence::schema::site_schemas(&site).expect("schemas");
    let s = schemas.iter().find(|s| s.name == name).expect(name);
    let v = jsonschema::draft202012::new(&s.schema).expect("schema");
    v.is_valid(&serde_saphyr::from_str::<Value>(yaml).expect("yaml"))
}

#[test]
fn a_wrong_file_does_not_validate() {
    evidence::packs::register();
    let claim = "- id: c1\n  page: index\n  can: {ja: a, en: a}\n  cannot: {ja: b, en: b}\n  evidence: []\n";
    assert!(valid("claims", claim));
    assert!(
        !valid("claims", &format!("{claim}  colour: red\n")),
        "unknown field"
    );
    assert!(
        !valid("claims", &claim.replace("  cannot: {ja: b, en: b}\n", "")),
        "missing field"
    );
    assert!(
        !valid("claims", &claim.replace("can: {ja: a, en: a}", "can: a")),
        "a text"
    );
    assert!(
        !valid(
            "claims",
            &claim.replace("can: {ja: a, en: a}", "can: {ja: a, en: a, fr: x}")
        ),
        "a language the site does not write"
    );
    let run = "id: r\nprobe: p\nengine: none\norigin: {ja: o, en: o}\ncases:\n  - id: c\n";
    assert!(valid("runs", run));
    // A run of no engine leaves it out; the settings it ran under are its conditions.
    assert!(valid(
        "runs",
        "id: r\nprobe: p\norigin: {ja: o, en: o}\nconditions: {work_mem: 64MB}\n"
    ));
    assert!(
        !valid("runs", &format!("{run}    measurements: {{nope: 1}}\n")),
        "undeclared"
    );
    assert!(
        !valid("runs", &format!("{run}    mode: lukewarm\n")),
        "wrong value"
    );
    assert!(
        !valid("runs", "id: r\norigin: {ja: o, en: o}\n"),
        "no probe"
    );
}

#[test]
fn the_reference_in_docs_is_the_one_the_schemas_give() {
    evidence::packs::register();
    let path = repo().join("docs/reference.md");
    let fresh = evidence::schema::reference();
    if std::env::var_os("UPDATE").is_some() {
        std::fs::write(&path, &fresh).expect("write docs/reference.md");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "docs/reference.md is stale: run `UPDATE=1 cargo test --test schema` and commit it"
    );
}

#[test]
fn the_schema_accepts_what_the_loader_accepts_and_refuses_what_it_refuses_for_shape() {
    evidence::packs::register();
    let dir = tempfile::tempdir().expect("tmp");
    let site = dir.path().join("site");
    evidence::init::init(&site).expect("init");
    let langs = evidence::load::config(&site).expect("config").languages();
    let schemas = evidence::schema::site_schemas(&site).expect("schemas");
    let s = schemas.iter().find(|s| s.name == "claims").expect("claims");
    let v = jsonschema::draft202012::new(&s.schema).expect("schema");
    let claim = "- id: c1\n  page: index\n  can: {ja: a, en: a}\n  cannot: {ja: b, en: b}\n  evidence: []\n";
    for yaml in [
        claim.to_string(),
        format!("{claim}  colour: red\n"),
        claim.replace("  evidence: []\n", ""),
        claim.replace("can: {ja: a, en: a}", "can: a"),
        claim.replace("can: {ja: a, en: a}", "can: {ja: a}"),
        claim.replace("evidence: []", "evidence: 3"),
        format!("{claim}  basis: guessed\n"),
        format!("{claim}  basis: inferred\n"),
    ] {
        let loaded = evidence::model::lang::expecting(langs, || {
            evidence::load::yaml::parse::<Vec<evidence::model::Claim>>("data/claims.yaml", &yaml, 0)
        });
        let valid = v.is_valid(&serde_saphyr::from_str::<Value>(&yaml).expect("yaml"));
        assert_eq!(valid, loaded.is_ok(), "{yaml}");
    }
}

#[test]
fn settings_that_are_not_plain_json_are_an_error_at_their_line_and_nothing_is_written() {
    evidence::packs::register();
    let dir = tempfile::tempdir().expect("tmp");
    let site = dir.path().join("site");
    evidence::init::init(&site).expect("init");
    let settings = site.join(".vscode/settings.json");
    std::fs::write(&settings, "{\n  // mine\n  \"editor.tabSize\": 2\n}\n").expect("write");
    let out = site.join("elsewhere");
    let e = evidence::schema::write(&site, &out).expect_err("comments");
    assert_eq!((e.span.line, e.span.column > 0), (2, true), "{}", e.message);
    assert!(!out.exists());
    std::fs::write(&settings, "{\"editor.tabSize\": 2}\n").expect("write");
    evidence::schema::write(&site, &out).expect("plain JSON");
    let kept: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).expect("read")).expect("json");
    assert_eq!(kept["editor.tabSize"], 2);
    assert_eq!(
        kept["yaml.schemas"]["./elsewhere/claims.schema.json"],
        "data/claims.yaml"
    );
}

#[test]
fn the_command_prints_the_reference_and_writes_the_schemas() {
    evidence::packs::register();
    let printed = assert_cmd::Command::cargo_bin("evidence")
        .expect("binary")
        .args(["schema", "--markdown"])
        .output()
        .expect("runs");
    assert!(printed.status.success());
    let text = String::from_utf8(printed.stdout).expect("utf-8");
    assert_eq!(text.trim_end(), evidence::schema::reference().trim_end());
    let dir = tempfile::tempdir().expect("tmp");
    let site = dir.path().join("site");
    evidence::init::init(&site).expect("init");
    std::fs::remove_dir_all(site.join("schemas")).expect("remove");
    let wrote = assert_cmd::Command::cargo_bin("evidence")
        .expect("binary")
        .args(["schema", "--root"])
        .arg(&site)
        .output()
        .expect("runs");
    assert!(wrote.status.success());
    assert!(site.join("schemas/runs.schema.json").exists());
}
