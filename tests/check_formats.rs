//! The output formats of `evidence check`: JSON, GitHub workflow commands and the human
//! report with `file:line:col` and the offending source line.

mod common;

use common::*;
use std::path::Path;

/// The fixture with two defects: a dangling reference and an unknown directive.
fn broken_site() -> tempfile::TempDir {
    let site = fixture_copy();
    replace_once(
        site.path(),
        "data/claims.yaml",
        "\"bundle:b1\"",
        "\"bundle:nope\"",
    );
    replace_once(
        site.path(),
        "content/details.md",
        "::observers\n",
        "::observerz\n",
    );
    site
}

fn check(root: &Path, format: &str) -> Run {
    run(&[
        "check".as_ref(),
        "--root".as_ref(),
        root.as_ref(),
        "--format".as_ref(),
        format.as_ref(),
    ])
}

#[test]
fn json_format_lists_sorted_diagnostics() {
    let site = broken_site();
    let r = check(site.path(), "json");
    assert_eq!(r.code, 1);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).expect("valid JSON");
    assert_eq!(doc["errors"], 2);
    assert_eq!(doc["warnings"], 0);
    let d = doc["diagnostics"].as_array().unwrap();
    assert_eq!(d.len(), 2);
    // Sorted by file, then line.
    assert_eq!(d[0]["span"]["file"], "content/details.md");
    assert_eq!(d[0]["span"]["line"], 28);
    assert_eq!(d[0]["code"], "directive");
    assert_eq!(d[1]["span"]["file"], "data/claims.yaml");
    assert_eq!(d[1]["span"]["line"], 9);
    assert_eq!(d[1]["span"]["column"], 14);
    assert_eq!(d[1]["severity"], "error");
    assert_eq!(d[1]["code"], "dangling-ref");
    assert_eq!(d[1]["message"], "no bundle with id `nope`");
    assert!(d[1]["hint"].is_string() || d[1].get("hint").is_none());
}

#[test]
fn json_format_on_a_clean_site() {
    let r = check(&fixture_dir(), "json");
    assert_eq!(r.code, 0);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).expect("valid JSON");
    assert_eq!(
        doc,
        serde_json::json!({"errors": 0, "warnings": 0, "diagnostics": []})
    );
}

#[test]
fn github_format_prints_workflow_commands() {
    let site = broken_site();
    let r = check(site.path(), "github");
    assert_eq!(r.code, 1);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    assert!(
        lines[0].starts_with(
            "::error file=content/details.md,line=28,col=1,title=directive::unknown directive `::observerz`"
        ),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with(
            "::error file=data/claims.yaml,line=9,col=14,title=dangling-ref::no bundle with id `nope`"
        ),
        "{}",
        lines[1]
    );
}

#[test]
fn github_format_gives_whole_file_findings_line_one() {
    let site = fixture_copy();
    write_file(site.path(), "data/extras.yaml", b"[]\n");
    let r = check(site.path(), "github");
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .starts_with("::error file=data/extras.yaml,line=1,col=1,title=data-file::"),
        "{}",
        r.stdout
    );
}

#[test]
fn github_format_locates_template_errors() {
    let site = fixture_copy();
    write_file(
        site.path(),
        "templates/table.html",
        b"<figure>{% for row in rows %}</figure>\n",
    );
    let r = check(site.path(), "github");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout.lines().count(),
        1,
        "one command per finding:\n{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("file=templates/table.html,line=2,col=1"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.trim_end().contains('\n'), "{}", r.stdout);
}

#[test]
fn human_format_shows_location_and_source_line() {
    let site = broken_site();
    let r = check(site.path(), "human");
    assert_eq!(r.code, 1);
    let out = &r.stdout;
    assert!(out.contains("content/details.md:28:1"), "{out}");
    assert!(out.contains("data/claims.yaml:9:14"), "{out}");
    // The offending lines, quoted from the sources.
    assert!(out.contains("::observerz"), "{out}");
    assert!(
        out.contains("evidence: [\"bundle:nope\", \"run:r1\"]"),
        "{out}"
    );
    assert!(
        out.contains("no bundle with id `nope` [dangling-ref]"),
        "{out}"
    );
    assert!(out.contains("unknown directive `::observerz`"), "{out}");
    assert!(out.contains("2 error(s), 0 warning(s)"), "{out}");
    // No colour codes when not writing to a terminal.
    assert!(!out.contains('\u{1b}'), "{out}");
}

#[test]
fn human_format_points_at_the_column() {
    let site = fixture_copy();
    replace_once(
        site.path(),
        "data/runs/r1.yaml",
        "zone: fam_small",
        "zone: fam_large",
    );
    let r = check(site.path(), "human");
    assert_eq!(r.code, 1);
    let lines: Vec<&str> = r.stdout.lines().collect();
    let src = lines
        .iter()
        .position(|l| l.contains("zone: fam_large"))
        .unwrap_or_else(|| panic!("source line not shown:\n{}", r.stdout));
    // The caret line under the source line marks column 13 (the value). After the
    // gutter bar comes one space, then the source text: column c sits at offset c.
    let caret = lines[src + 1];
    let bar = lines[src].find('|').expect("gutter");
    let under = &caret[bar + 1..];
    assert_eq!(
        under.find('^'),
        Some(13),
        "caret under `fam_large`:\n{}\n{}",
        lines[src],
        caret
    );
}

#[test]
fn human_format_without_a_source_line_still_names_the_file() {
    let site = fixture_copy();
    std::fs::remove_file(site.path().join("evidence.yaml")).unwrap();
    let r = check(site.path(), "human");
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("evidence.yaml:1:1"), "{}", r.stdout);
    assert!(r.stdout.contains("[config]"), "{}", r.stdout);
    assert!(
        r.stdout.contains("1 error(s), 0 warning(s)"),
        "{}",
        r.stdout
    );
}

#[test]
fn human_format_on_a_clean_site() {
    let r = check(&fixture_dir(), "human");
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout, "ok: 2 pages, 1 runs, no errors\n");
}

#[test]
fn build_prints_human_diagnostics_on_stderr() {
    let site = broken_site();
    let r = build(site.path(), None);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("data/claims.yaml:9:14"), "{}", r.stderr);
    assert!(r.stderr.contains("nothing was written"), "{}", r.stderr);
    assert!(!site.path().join("site").exists());
}
