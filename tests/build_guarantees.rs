//! What `evidence build` promises about its output: the same sources give the same bytes
//! whatever the environment, `build --check` tells a fresh output from a stale one, and a
//! build replaces the output folder as a whole.

mod common;

use common::*;
use std::path::Path;

/// Builds the fixture at `root` into `out` with the given environment.
fn build_with_env(root: &Path, out: &Path, env: &[(&str, &str)]) {
    let mut cmd = evidence();
    cmd.arg("build")
        .arg("--root")
        .arg(root)
        .arg("--out")
        .arg(out);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let o = cmd.output().expect("run build");
    assert!(
        o.status.success(),
        "build failed with {env:?}:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn builds_are_byte_identical_across_time_zones_and_locales() {
    let site = fixture_copy();
    let a = site.path().join("out-a");
    let b = site.path().join("nested/out-b");
    build_with_env(
        site.path(),
        &a,
        &[("TZ", "UTC"), ("LANG", "C"), ("LC_ALL", "C")],
    );
    build_with_env(
        site.path(),
        &b,
        &[
            ("TZ", "Asia/Tokyo"),
            ("LANG", "ja_JP.UTF-8"),
            ("LC_ALL", "ja_JP.UTF-8"),
        ],
    );
    let ta = read_tree(&a);
    let tb = read_tree(&b);
    assert!(!ta.is_empty());
    assert_eq!(
        ta.keys().collect::<Vec<_>>(),
        tb.keys().collect::<Vec<_>>(),
        "same file list"
    );
    for (path, bytes) in &ta {
        assert!(tb[path] == *bytes, "{path} differs between the two builds");
    }
}

#[test]
fn a_second_build_in_place_changes_nothing() {
    let site = fixture_copy();
    let out = site.path().join("site");
    build_ok(site.path(), &out);
    let first = read_tree(&out);
    build_ok(site.path(), &out);
    assert_eq!(read_tree(&out), first);
}

#[test]
fn default_output_is_site_under_root() {
    let site = fixture_copy();
    let r = build(site.path(), None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(site.path().join("site/index.html").is_file());
    assert!(r.stdout.contains("built "), "{}", r.stdout);
}

#[test]
fn a_build_replaces_stale_files_and_leaves_no_temporary_folders() {
    let site = fixture_copy();
    let out = site.path().join("site");
    build_ok(site.path(), &out);
    write_file(site.path(), "site/stale.html", b"old\n");
    write_file(site.path(), "site/old/index.html", b"old\n");
    build_ok(site.path(), &out);
    assert!(!out.join("stale.html").exists());
    assert!(!out.join("old").exists());
    let left: Vec<String> = entries(site.path())
        .into_iter()
        .filter(|e| e.contains(".tmp-") || e.contains(".old-"))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

fn check_out(root: &Path, out: &Path) -> Run {
    run(&[
        "build".as_ref(),
        "--check".as_ref(),
        "--root".as_ref(),
        root.as_ref(),
        "--out".as_ref(),
        out.as_ref(),
    ])
}

/// A built fixture and `build --check` against it.
fn built_site() -> (tempfile::TempDir, std::path::PathBuf) {
    let site = fixture_copy();
    let out = site.path().join("site");
    build_ok(site.path(), &out);
    (site, out)
}

#[test]
fn check_passes_right_after_a_build() {
    let (site, out) = built_site();
    let before = read_tree(&out);
    let r = check_out(site.path(), &out);
    assert_eq!(r.code, 0, "stderr:\n{}", r.stderr);
    assert!(r.stdout.contains("is up to date"), "{}", r.stdout);
    assert_eq!(read_tree(&out), before, "--check must write nothing");
}

#[test]
fn check_fails_when_an_output_file_was_changed() {
    let (site, out) = built_site();
    let file = out.join("en/details/index.html");
    let mut html = std::fs::read_to_string(&file).unwrap();
    html.push_str("<!-- edited by hand -->\n");
    std::fs::write(&file, html).unwrap();
    let before = read_tree(&out);
    let r = check_out(site.path(), &out);
    assert_eq!(r.code, 1, "stdout:\n{}", r.stdout);
    assert!(r.stderr.contains("is stale"), "{}", r.stderr);
    assert!(
        r.stderr.contains("changed: en/details/index.html"),
        "{}",
        r.stderr
    );
    assert_eq!(read_tree(&out), before, "--check must write nothing");
}

#[test]
fn check_fails_when_an_extra_file_is_present() {
    let (site, out) = built_site();
    write_file(&out, "static/extra.txt", b"not from the build\n");
    let r = check_out(site.path(), &out);
    assert_eq!(r.code, 1, "stdout:\n{}", r.stdout);
    assert!(
        r.stderr
            .contains("not produced by the build: static/extra.txt"),
        "{}",
        r.stderr
    );
}

#[test]
fn check_fails_when_an_output_file_was_deleted() {
    let (site, out) = built_site();
    std::fs::remove_file(out.join("evidence.json")).unwrap();
    let r = check_out(site.path(), &out);
    assert_eq!(r.code, 1, "stdout:\n{}", r.stdout);
    assert!(r.stderr.contains("missing: evidence.json"), "{}", r.stderr);
}

#[test]
fn check_fails_when_the_sources_changed_since_the_build() {
    let (site, out) = built_site();
    replace_once(
        site.path(),
        "data/bundles.yaml",
        "size_kb: 345",
        "size_kb: 346",
    );
    let r = check_out(site.path(), &out);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("changed: evidence.json"), "{}", r.stderr);
    assert!(
        r.stderr.contains("changed: en/details/index.html"),
        "{}",
        r.stderr
    );
}

#[test]
fn check_fails_when_there_is_no_output_yet() {
    let site = fixture_copy();
    let r = check_out(site.path(), &site.path().join("site"));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("missing: index.html"), "{}", r.stderr);
}

#[test]
fn check_of_an_invalid_site_fails_before_comparing() {
    let (site, out) = built_site();
    replace_once(
        site.path(),
        "data/claims.yaml",
        "\"bundle:b1\"",
        "\"bundle:nope\"",
    );
    let r = check_out(site.path(), &out);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("data/claims.yaml:9:14"), "{}", r.stderr);
    assert!(r.stderr.contains("nothing was written"), "{}", r.stderr);
}
