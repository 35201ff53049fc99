//! The parse cache (`.evidence-cache/`): a build that reads it gives the same output and
//! the same diagnostics, at the same positions, as one that parses every file; an edited
//! or damaged entry is parsed again; only a successful `build` writes it.

mod common;

use common::*;
use std::path::Path;

/// A copy of this repository's investigation site (its runs include a 130 KB fatbin run).
fn investigation_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for part in [
        "evidence.yaml",
        "content",
        "data",
        "templates",
        "static",
        "locales",
    ] {
        let from = manifest_dir().join(part);
        if from.is_dir() {
            copy_dir(&from, &dir.path().join(part));
        } else if from.is_file() {
            std::fs::copy(&from, dir.path().join(part)).expect("copy");
        }
    }
    dir
}

fn entries_in(root: &Path) -> Vec<String> {
    let dir = root.join(".evidence-cache/parsed");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Data files the loader parses (probe inputs under `data/probes/` are not).
fn data_files(root: &Path) -> usize {
    walkdir::WalkDir::new(root.join("data"))
        .into_iter()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "yaml"))
        .filter(|e| !e.path().starts_with(root.join("data/probes")))
        .count()
}

/// Asserts that `--timings` output says how many data files came from the cache.
fn assert_counts(timings: &str, read: usize, parsed: usize) {
    let want = format!("parse cache {read} read, {parsed} parsed");
    assert!(timings.contains(&want), "expected `{want}` in:\n{timings}");
}

fn run_in(root: &Path, args: &[&str]) -> Run {
    let mut all: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
    all.extend(["--root".as_ref(), root.as_os_str()]);
    run(&all)
}

#[test]
fn a_cached_build_equals_an_uncached_one_with_the_same_positions() {
    let site = investigation_copy();
    let root = site.path();
    let (a, b, c) = (root.join("a"), root.join("b"), root.join("c"));
    build_ok(root, &a);
    let entries = entries_in(root);
    assert_eq!(entries.len(), data_files(root), "{entries:?}");
    assert!(root.join(".evidence-cache/CACHEDIR.TAG").is_file());

    build_ok(root, &b);
    let r = run_in(root, &["build", "--no-cache", "--out", c.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        read_tree(&a),
        read_tree(&b),
        "a build from the cache differs"
    );
    assert_eq!(
        read_tree(&a),
        read_tree(&c),
        "a build without the cache differs"
    );
    assert_eq!(
        entries_in(root),
        entries,
        "an unchanged site rewrote the cache"
    );

    let n = data_files(root);
    let warm = run_in(root, &["check", "--timings"]);
    assert_counts(&warm.stderr, n, 0);

    // Without its `subject:`, every run is the site's own, and the fatbin run of another
    // build disagrees with data/generations.yaml: three warnings pointing into a file this
    // check reads from the cache (evidence.yaml is never cached).
    let config = std::fs::read_to_string(root.join("evidence.yaml")).unwrap();
    let without: String = config
        .lines()
        .filter(|l| !l.starts_with("subject:"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(root.join("evidence.yaml"), without).unwrap();
    let cached = run_in(root, &["check", "--format", "json"]);
    let parsed = run_in(root, &["check", "--no-cache", "--format", "json"]);
    assert_eq!(cached.stdout, parsed.stdout);
    assert!(
        cached.stdout.contains("\"line\": 23"),
        "positions survive the cache:\n{}",
        cached.stdout
    );
}

#[test]
fn an_edited_file_is_parsed_again_and_its_old_entry_removed() {
    let site = fixture_copy();
    let root = site.path();
    let out = root.join("out");
    build_ok(root, &out);
    let before = entries_in(root);
    let claims = std::fs::read_to_string(root.join("data/claims.yaml")).unwrap();
    let first_en = claims
        .lines()
        .find_map(|l| l.trim().strip_prefix("en: "))
        .expect("an English text in claims.yaml")
        .to_string();
    replace_once(
        root,
        "data/claims.yaml",
        &format!("en: {first_en}"),
        "en: \"Edited after the cache was written\"",
    );
    build_ok(root, &out);
    let html = read_tree(&out)
        .into_iter()
        .any(|(_, bytes)| String::from_utf8_lossy(&bytes).contains("Edited after the cache"));
    assert!(html, "the edit reached the output");
    let after = entries_in(root);
    assert_eq!(after.len(), before.len());
    assert_eq!(
        after.iter().filter(|e| !before.contains(e)).count(),
        1,
        "one new entry, for the edited file: {before:?} → {after:?}"
    );
}

#[test]
fn a_damaged_entry_is_parsed_again() {
    let site = fixture_copy();
    let root = site.path();
    let (a, b) = (root.join("a"), root.join("b"));
    build_ok(root, &a);
    for name in entries_in(root) {
        let path = root.join(".evidence-cache/parsed").join(name);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    }
    let n = data_files(root);
    let r = run_in(root, &["build", "--timings", "--out", b.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_counts(&r.stderr, 0, n);
    assert_eq!(read_tree(&a), read_tree(&b));
    // The damaged entries were written again, whole.
    let r = run_in(root, &["check", "--timings"]);
    assert_counts(&r.stderr, n, 0);
}

#[test]
fn only_a_successful_build_writes_the_cache() {
    let site = fixture_copy();
    let root = site.path();
    let cache = root.join(".evidence-cache");
    assert_eq!(run_in(root, &["check"]).code, 0);
    assert!(!cache.exists(), "check wrote the cache");
    let r = run_in(root, &["build", "--no-cache"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!cache.exists(), "--no-cache wrote the cache");
    let r = run_in(root, &["build", "--check"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!cache.exists(), "build --check wrote the cache");

    write_file(root, "data/claims.yaml", b"- id: [unclosed\n");
    let r = run_in(root, &["build"]);
    assert_ne!(r.code, 0);
    assert!(!cache.exists(), "a failed build wrote the cache");
}

#[test]
fn the_first_preview_build_reads_the_cache_and_writes_nothing() {
    let site = fixture_copy();
    let root = site.path();
    build_ok(root, &root.join("out"));
    let before = entries_in(root);
    // The only in-process build of this test binary, so the notes are its own.
    evidence::timings::enable();
    let changes = evidence::incremental::Changes::Unknown;
    let (outcome, next) = evidence::incremental::rebuild(root, changes, None);
    assert!(outcome.site.is_some() && next.is_some());
    let report = evidence::timings::report().unwrap_or_default();
    let n = data_files(root);
    assert_counts(&report, n, 0);
    assert_eq!(entries_in(root), before);
}
