//! The parse cache (`.evidence-cache/`), which holds run files: a build that reads it gives
//! the same output and the same diagnostics, at the same positions, as one that parses
//! every file; an edited or damaged entry is parsed again; only a successful `build`
//! writes it.

mod common;

use common::*;
use std::path::Path;

/// The valid fixture with the binary runs of `tests/fixtures/check_rules` over it: a pack
/// site with three run files, the pack's among them.
fn site_copy() -> tempfile::TempDir {
    let dir = fixture_copy();
    copy_dir(
        &manifest_dir().join("tests/fixtures/check_rules"),
        dir.path(),
    );
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

/// The run files of the site at `root`: those the cache holds.
fn run_files(root: &Path) -> usize {
    walkdir::WalkDir::new(root.join("data/runs"))
        .into_iter()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "yaml"))
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
    evidence::packs::register();
    let site = site_copy();
    let root = site.path();
    let (a, b, c) = (root.join("a"), root.join("b"), root.join("c"));
    build_ok(root, &a);
    let entries = entries_in(root);
    assert_eq!(entries.len(), run_files(root), "{entries:?}");
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

    let n = run_files(root);
    let warm = run_in(root, &["check", "--timings"]);
    assert_counts(&warm.stderr, n, 0);

    // The phase run r1 names is renamed: an error at the name in data/runs/r1.yaml (line
    // 9, column 8), a file this check reads from the cache.
    replace_once(
        root,
        "data/worklog.yaml",
        "- id: p1\n",
        "- id: p1-renamed\n",
    );
    let cached = run_in(root, &["check", "--timings", "--format", "json"]);
    assert_counts(&cached.stderr, n, 0);
    let parsed = run_in(root, &["check", "--no-cache", "--format", "json"]);
    assert_eq!(cached.stdout, parsed.stdout);
    let at_r1 = "\"column\": 8,\n        \"file\": \"data/runs/r1.yaml\",\n        \"line\": 9";
    assert!(
        cached.stdout.contains(at_r1),
        "positions survive the cache:\n{}",
        cached.stdout
    );
}

#[test]
fn an_edited_file_is_parsed_again_and_its_old_entry_removed() {
    evidence::packs::register();
    let site = fixture_copy();
    let root = site.path();
    let out = root.join("out");
    build_ok(root, &out);
    let before = entries_in(root);
    replace_once(
        root,
        "data/runs/r1.yaml",
        "en: \"A fixture run.\"",
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
    evidence::packs::register();
    let site = fixture_copy();
    let root = site.path();
    let (a, b) = (root.join("a"), root.join("b"));
    build_ok(root, &a);
    for name in entries_in(root) {
        let path = root.join(".evidence-cache/parsed").join(name);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    }
    let n = run_files(root);
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
    evidence::packs::register();
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
    evidence::packs::register();
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
    let n = run_files(root);
    assert_counts(&report, n, 0);
    assert_eq!(entries_in(root), before);
}

// ------------------------------------------------------------------ a forged entry (issue 39)

/// The run's origin the fixture commits (X) and the one a forged entry holds (Y).
const FORGED: &str = "Forged by a cache entry made from another text";

/// Whether any file of the tree at `dir` holds `text`.
fn holds(dir: &Path, text: &str) -> bool {
    read_tree(dir)
        .values()
        .any(|bytes| String::from_utf8_lossy(bytes).contains(text))
}

/// The run file of the fixture that the forged entry stands for.
const RUN: &str = "data/runs/r1.yaml";

/// Swaps the English origin of the fixture's run for [`FORGED`] and back: returns the run
/// file's text as committed (X) and as forged (Y).
fn run_x_and_y(root: &Path) -> (String, String) {
    let x = std::fs::read_to_string(root.join(RUN)).unwrap();
    let origin = "en: \"A fixture run.\"";
    assert_eq!(x.matches(origin).count(), 1, "one English origin in {RUN}");
    let y = x.replacen(origin, &format!("en: \"{FORGED}\""), 1);
    (x, y)
}

/// The attack of issue 39, up to the copy: builds `root` with run Y into `out`, keeps
/// that build's entry, restores the run to X and copies Y's entry over the name X's
/// text is looked up under (learnt from a build with X first). Returns X's text.
fn forge_entry(root: &Path, out: &Path) -> String {
    let (x, y) = run_x_and_y(root);
    build_ok(root, &root.join("x-build"));
    let with_x = entries_in(root);
    std::fs::remove_dir_all(root.join("x-build")).unwrap();
    write_file(root, RUN, y.as_bytes());
    build_ok(root, out);
    assert!(holds(out, FORGED), "the build with Y publishes Y");
    let with_y = entries_in(root);
    let only = |a: &[String], b: &[String]| -> String {
        let diff: Vec<&String> = a.iter().filter(|e| !b.contains(e)).collect();
        assert_eq!(diff.len(), 1, "{a:?} against {b:?}");
        diff[0].clone()
    };
    let (x_key, y_entry) = (only(&with_x, &with_y), only(&with_y, &with_x));
    write_file(root, RUN, x.as_bytes());
    let parsed = root.join(".evidence-cache/parsed");
    std::fs::copy(parsed.join(y_entry), parsed.join(x_key)).unwrap();
    x
}

/// An entry copied under another text's name is parsed again, silently: the build
/// publishes the text on disk and the entry is counted as a parse. (Seen failing before
/// entries held the digest of their text: the build published Y.)
#[test]
fn an_entry_made_from_another_text_is_parsed_again() {
    evidence::packs::register();
    let site = fixture_copy();
    let root = site.path();
    forge_entry(root, &root.join("y"));
    let out = root.join("out");
    let r = run_in(
        root,
        &["build", "--timings", "--out", out.to_str().unwrap()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!holds(&out, FORGED), "the forged entry was read");
    assert!(!r.stderr.contains("warning"), "silently: {}", r.stderr);
    let n = run_files(root);
    assert_counts(&r.stderr, n - 1, 1);
    let uncached = root.join("uncached");
    let r = run_in(
        root,
        &["build", "--no-cache", "--out", uncached.to_str().unwrap()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(read_tree(&out), read_tree(&uncached));
}

/// The attack exactly as issue 39 tells it, over a real repository: the forged entry is
/// committed with `git add -f` next to a site built from Y. In a fresh clone `check`,
/// `build`, `build --check` and `diff` all see X, and the commands that would read the
/// cache warn that it came from the repository. (Seen failing before: `build --check`
/// passed and `build` published Y.)
#[test]
fn a_cache_committed_to_the_repository_is_not_read() {
    evidence::packs::register();
    let site = fixture_copy();
    let root = site.path();
    git(root, &["init", "-q", "-b", "main"]);
    std::fs::write(root.join(".gitignore"), ".evidence-cache/\n").unwrap();
    build_ok(root, &root.join("site"));
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "X"]);
    // The pull request: the site as built from Y, the run as X, the forged entry.
    forge_entry(root, &root.join("site"));
    std::fs::remove_dir_all(root.join("x-build")).ok();
    git(root, &["add", "-A"]);
    git(root, &["add", "-f", ".evidence-cache"]);
    git(root, &["commit", "-qm", "forged"]);
    assert!(git(root, &["ls-files", ".evidence-cache"]).contains(".bin"));
    assert_eq!(
        git(root, &["diff", "--stat", "HEAD~1", "HEAD", "--", "data"]),
        ""
    );

    let clones = tempfile::tempdir().unwrap();
    let clone = clones.path().join("clone");
    git(
        clones.path(),
        &["clone", "-q", root.to_str().unwrap(), "clone"],
    );
    let warned = |r: &Run| {
        assert!(
            r.stderr.contains(".evidence-cache/ is tracked by git")
                && r.stderr.contains("git rm -r --cached .evidence-cache"),
            "no warning: {}",
            r.stderr
        );
    };
    let r = run_in(&clone, &["check", "--timings"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    warned(&r);
    let timings = r.stderr.lines().find(|l| l.starts_with("timings:"));
    assert!(
        timings.is_some_and(|t| !t.contains("parse cache")),
        "no cache was opened: {}",
        r.stderr
    );

    let r = run_in(&clone, &["build", "--check"]);
    warned(&r);
    assert_eq!(r.code, 1, "the site built from Y is stale: {}", r.stderr);
    assert!(r.stderr.contains("changed: "), "{}", r.stderr);

    let r = run_in(&clone, &["build"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    warned(&r);
    assert!(!holds(&clone.join("site"), FORGED), "the build published Y");
    let r = run_in(&clone, &["build", "--check"]);
    assert_eq!(r.code, 0, "{}", r.stderr);

    // diff reads no cache: the pull request changes no evidence, and a side whose run
    // say Y differs from it by the forged text.
    let r = run_in(&clone, &["diff", "HEAD~1", "HEAD", "--exit-code"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("no evidence changes"), "{}", r.stdout);
    let y_side = clones.path().join("y-side");
    copy_dir(&fixture_dir(), &y_side);
    let (_, y) = run_x_and_y(&y_side);
    write_file(&y_side, RUN, y.as_bytes());
    let r = run_in(
        &clone,
        &["diff", y_side.to_str().unwrap(), "HEAD", "--format", "json"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(FORGED), "{}", r.stdout);
}
