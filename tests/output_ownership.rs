//! `build` writes only into a folder it owns and never deletes what it did not write.
//!
//! Each test reproduces a way an earlier `build` destroyed a user's files (a symlinked
//! output, `--out content`, `--out` the root, a file or a device as the output), or a
//! state a killed or concurrent build left behind, and asserts the build now refuses with
//! exit 2 and touches nothing, or puts things right.

mod common;

use common::*;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The marker every output carries.
const MARKER: &str = ".evidence-output";

fn assert_refused(r: &Run, says: &str) {
    assert_eq!(r.code, 2, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains(says),
        "expected `{says}` in:\n{}",
        r.stderr
    );
    assert!(!r.stdout.contains("built "), "{}", r.stdout);
}

#[test]
fn a_symlinked_output_is_refused_and_its_target_kept() {
    let site = fixture_copy();
    let www = tempfile::tempdir().unwrap();
    write_file(www.path(), "KEEP.txt", b"mine\n");
    std::os::unix::fs::symlink(www.path(), site.path().join("site")).unwrap();
    let r = build(site.path(), None);
    assert_refused(&r, "is a symbolic link");
    assert_eq!(entries(www.path()), ["KEEP.txt"]);
    assert!(site.path().join("site").is_symlink());
}

#[test]
fn an_input_folder_as_output_is_refused() {
    let site = fixture_copy();
    let before = read_tree(site.path());
    for input in [
        "content",
        "data",
        "data/runs",
        "static",
        "locales",
        "templates",
    ] {
        let r = build(site.path(), Some(&site.path().join(input)));
        assert_refused(&r, "input folder");
    }
    assert_eq!(read_tree(site.path()), before, "the sources are untouched");
}

#[test]
fn the_root_or_a_folder_holding_it_is_refused() {
    let parent = tempfile::tempdir().unwrap();
    let root = parent.path().join("repo");
    copy_dir(&fixture_dir(), &root);
    write_file(&root, ".git/HEAD", b"ref: refs/heads/main\n");
    let before = read_tree(parent.path());
    assert_refused(&build(&root, Some(&root)), "site's root");
    assert_refused(&build(&root, Some(parent.path())), "site's root");
    assert_refused(&build(&root, Some(&root.join("content/.."))), "site's root");
    assert_refused(&build(&root, Some(&root.join(".git"))), ".git");
    assert_eq!(read_tree(parent.path()), before, "nothing was touched");
}

#[test]
fn a_file_or_a_device_as_output_is_refused() {
    let site = fixture_copy();
    write_file(site.path(), "notes.txt", b"x\n");
    let r = build(site.path(), Some(&site.path().join("notes.txt")));
    assert_refused(&r, "is not a folder");
    assert_eq!(
        std::fs::read(site.path().join("notes.txt")).unwrap(),
        b"x\n"
    );
    let r = build(site.path(), Some(Path::new("/dev/null")));
    assert_refused(&r, "is not a folder");
    let meta = std::fs::metadata("/dev/null").unwrap();
    assert!(
        std::os::unix::fs::FileTypeExt::is_char_device(&meta.file_type()),
        "/dev/null is still a device"
    );
}

#[test]
fn a_foreign_folder_is_refused_but_an_empty_or_marked_one_is_used() {
    let site = fixture_copy();
    let out = site.path().join("www");
    write_file(&out, "index.html", b"someone else's page\n");
    assert_refused(
        &build(site.path(), Some(&out)),
        "no .evidence-output marker",
    );
    assert_eq!(entries(&out), ["index.html"]);

    std::fs::remove_file(out.join("index.html")).unwrap();
    build_ok(site.path(), &out);
    assert!(out.join(MARKER).is_file());
    // Marked, so the next build replaces it, files added by hand included.
    write_file(&out, "added.html", b"by hand\n");
    build_ok(site.path(), &out);
    assert!(!out.join("added.html").exists());
}

#[test]
fn leftovers_of_killed_builds_are_removed_and_a_moved_output_restored() {
    let site = fixture_copy();
    let out = site.path().join("site");
    build_ok(site.path(), &out);
    let built = read_tree(&out);
    // A build killed between moving the output aside and moving the new one in (the
    // fallback swap), and two staging folders of dead builds, one marked, one empty.
    std::fs::rename(&out, site.path().join(".site.old-999999-0")).unwrap();
    write_file(site.path(), "site.tmp-999998-0/.evidence-output", b"x");
    write_file(site.path(), "site.tmp-999998-0/index.html", b"partial");
    std::fs::create_dir(site.path().join("site.tmp-999997-0")).unwrap();
    // Named like a leftover, but not ours: kept.
    write_file(site.path(), "site.tmp-notes/mine.txt", b"mine\n");

    let r = run(&[
        "build".as_ref(),
        "--check".as_ref(),
        "--root".as_ref(),
        site.path().as_ref(),
    ]);
    assert_eq!(r.code, 1, "--check repairs nothing: {}", r.stderr);

    build_ok(site.path(), &out);
    assert_eq!(read_tree(&out), built);
    let mut left = entries(site.path());
    left.retain(|e| e.contains(".tmp-") || e.contains(".old-"));
    assert_eq!(left, ["site.tmp-notes"]);
    assert!(site.path().join("site.tmp-notes/mine.txt").is_file());
}

#[test]
fn concurrent_builds_take_turns() {
    let site = fixture_copy();
    let out = site.path().join("site");
    build_ok(site.path(), &out);
    let built = read_tree(&out);
    let children: Vec<Child> = (0..4).map(|_| spawn_build(site.path())).collect();
    for child in children {
        let o = child.wait_with_output().unwrap();
        assert!(
            o.status.success(),
            "a concurrent build failed:\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert_eq!(read_tree(&out), built);
    assert_eq!(only_expected_entries(site.path()), Vec::<String>::new());
}

fn spawn_build(root: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(["build", "--root"])
        .arg(root)
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn evidence")
}

/// Entries of the site root that are neither its sources nor what `build` owns.
fn only_expected_entries(root: &Path) -> Vec<String> {
    let fixture = entries(&fixture_dir());
    entries(root)
        .into_iter()
        .filter(|e| !fixture.contains(e) && e != "site")
        .filter(|e| e != ".evidence-cache")
        .collect()
}

/// `kill -9` at 50 moments spread over a build: every time, `site/` is the complete old
/// or the complete new output, and what the killed build left is named like a leftover
/// and is gone after the next build.
#[test]
fn a_build_killed_at_any_moment_leaves_a_complete_site() {
    let site = fixture_copy();
    let out = site.path().join("site");
    let page = "content/index.md";
    let original = std::fs::read_to_string(site.path().join(page)).unwrap();
    let edited = original.replacen(
        "This is the fixture English block.",
        "This is the second edition.",
        1,
    );
    assert_ne!(original, edited);

    // The two complete outputs a build may leave.
    build_ok(site.path(), &out);
    let old = read_tree(&out);
    std::fs::write(site.path().join(page), &edited).unwrap();
    let started = Instant::now();
    build_ok(site.path(), &out);
    let full = started.elapsed();
    let new = read_tree(&out);
    assert_ne!(old, new);

    let mut outcomes = Outcomes::default();
    let kill_once = |outcomes: &mut Outcomes, text: &str, delay: Duration| {
        std::fs::write(site.path().join(page), text).unwrap();
        let mut child = spawn_build(site.path());
        std::thread::sleep(delay);
        if child.try_wait().ok().flatten().is_none() {
            outcomes.mid_build += 1;
        }
        let _ = child.kill();
        let _ = child.wait();
        let now = read_tree(&out);
        if now == old {
            outcomes.old += 1;
        } else if now == new {
            outcomes.new += 1;
        } else {
            panic!("kill after {delay:?} left an incomplete site/");
        }
        for e in only_expected_entries(site.path()) {
            assert!(
                e.starts_with("site.tmp-") || e.starts_with(".site.old-") || e == ".site.lock",
                "kill after {delay:?} left {e}"
            );
        }
    };

    // 50 delays over a little more than one build: one in each of 50 even slots, at a
    // pseudo-random point of the slot (a fixed xorshift seed, so a failure can be re-run).
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut jitter = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for i in 0..50u32 {
        let text = if i % 2 == 0 { &original } else { &edited };
        kill_once(
            &mut outcomes,
            text,
            full.mul_f64((f64::from(i) + jitter()) / 40.0),
        );
    }
    // A build that follows a killed one also clears its leftovers, so on a loaded machine
    // every kill above may land before the rename: then kill later and later, until a
    // build of each edition has finished, so both outcomes are seen on any machine.
    let mut later = full.mul_f64(1.5);
    while (outcomes.old == 0 || outcomes.new == 0)
        && later < Duration::from_secs(30).max(full * 200)
    {
        let text = if outcomes.old == 0 {
            &original
        } else {
            &edited
        };
        kill_once(&mut outcomes, text, later);
        later *= 2;
    }
    // Some kills must have found a build running, or nothing was interrupted; only a few
    // are asked for, as the timed build may itself have run slow.
    assert!(
        outcomes.old > 0 && outcomes.new > 0 && outcomes.mid_build >= 5,
        "{outcomes:?}"
    );
    build_ok(site.path(), &out);
    assert_eq!(only_expected_entries(site.path()), Vec::<String>::new());
}

/// What the kills of [`a_build_killed_at_any_moment_leaves_a_complete_site`] left.
#[derive(Debug, Default)]
struct Outcomes {
    /// Kills after which `site/` held the first edition.
    old: u32,
    /// Kills after which `site/` held the second edition.
    new: u32,
    /// Kills that found the build still running.
    mid_build: u32,
}

#[test]
fn init_ignores_everything_build_writes_but_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("x");
    let r = run(&["init".as_ref(), root.as_ref()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let git = |args: &[&str]| git_succeeds(&root, args);
    assert!(git(&["init", "-q"]), "git init");
    for name in [
        ".site.lock",
        "site.tmp-123-0/index.html",
        ".site.old-123-0/index.html",
        ".evidence-cache/parsed/x",
    ] {
        let ignored = git(&["check-ignore", "-q", "--no-index", name]);
        assert!(ignored, "{name} is not ignored");
    }
    let ignored = git(&["check-ignore", "-q", "--no-index", "site/index.html"]);
    assert!(!ignored, "site/ itself is committed");
}

/// `build --check` on `root` with its output at `out`.
fn build_check(root: &Path, out: &Path) -> Run {
    run(&[
        "build".as_ref(),
        "--check".as_ref(),
        "--root".as_ref(),
        root.as_ref(),
        "--out".as_ref(),
        out.as_ref(),
    ])
}

/// Puts one entry into the output.
type AddEntry<'a> = Box<dyn Fn() + 'a>;

/// Whatever the build would not write makes `build --check` fail, named: a symlink (to a
/// file outside, to a folder above, or in place of a page with that page's very bytes),
/// an empty folder, a FIFO. A publishing step that follows links would otherwise ship
/// `/etc/passwd` or the repository while `--check` said "up to date".
#[test]
fn build_check_fails_on_any_entry_the_build_would_not_write() {
    let site = fixture_copy();
    let out = site.path().join("site");
    build_ok(site.path(), &out);
    let r = build_check(site.path(), &out);
    assert_eq!(r.code, 0, "fresh output: {}", r.stderr);

    let page = out.join("index.html");
    let copy = site.path().join("index-copy.html");
    std::fs::copy(&page, &copy).unwrap();
    let fifo = out.join("pipe");
    let cases: Vec<(&str, AddEntry, &str)> = vec![
        (
            "pw.html",
            Box::new(|| std::os::unix::fs::symlink("/etc/passwd", out.join("pw.html")).unwrap()),
            "a symlink",
        ),
        (
            "src",
            Box::new(|| std::os::unix::fs::symlink("..", out.join("src")).unwrap()),
            "a symlink",
        ),
        (
            "index.html",
            Box::new(|| {
                std::fs::remove_file(&page).unwrap();
                std::os::unix::fs::symlink(&copy, &page).unwrap();
            }),
            "a symlink",
        ),
        (
            "empty",
            Box::new(|| std::fs::create_dir(out.join("empty")).unwrap()),
            "a folder",
        ),
        (
            "pipe",
            Box::new(|| {
                let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
                assert!(st.success());
            }),
            "a FIFO",
        ),
    ];
    for (name, add, kind) in cases {
        add();
        let r = build_check(site.path(), &out);
        assert_eq!(r.code, 1, "{name} passed as up to date:\n{}", r.stdout);
        let line = format!("not written by the build: {name} ({kind}");
        assert!(r.stderr.contains(&line), "no `{line}` in:\n{}", r.stderr);
        // Put back: the next case finds only its own entry.
        build_ok(site.path(), &out);
        let r = build_check(site.path(), &out);
        assert_eq!(r.code, 0, "rebuilt: {}", r.stderr);
    }
}

/// A lock file that is a symlink is refused, not followed: a dangling one made a file
/// at its target.
#[test]
fn a_symlinked_lock_is_refused_and_its_target_not_made() {
    let site = fixture_copy();
    let elsewhere = tempfile::tempdir().unwrap();
    let target = elsewhere.path().join("made-by-build");
    std::os::unix::fs::symlink(&target, site.path().join(".site.lock")).unwrap();
    let r = build(site.path(), None);
    assert_refused(&r, ".site.lock is a symbolic link");
    assert!(!target.exists(), "the build made the lock's target");
    assert!(site.path().join(".site.lock").is_symlink());
}
