//! `evidence import runs PATH…`: the run files of other machines (a probe matrix's
//! artifacts) merged into a site. All or nothing: a bad file or a clash of ids imports
//! nothing; an identical run already recorded is skipped.

mod common;

use common::*;
use std::path::Path;

/// The fixture's run `r1`, recorded again under `id` on another machine.
fn run_file(id: &str, prompt_eval_count: u32) -> String {
    let text = std::fs::read_to_string(fixture_dir().join("data/runs/r1.yaml")).unwrap();
    text.replacen("id: r1\n", &format!("id: {id}\n"), 1)
        .replacen(
            "prompt_eval_count: 3\n",
            &format!("prompt_eval_count: {prompt_eval_count}\n"),
            1,
        )
}

/// An artifact download: one folder per job, each with its run files.
fn artifacts(files: &[(&str, String)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (rel, text) in files {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn import(root: &Path, paths: &[&Path]) -> Run {
    let mut args: Vec<&std::ffi::OsStr> = vec!["import".as_ref(), "runs".as_ref()];
    args.extend(paths.iter().map(|p| p.as_os_str()));
    args.push("--root".as_ref());
    args.push(root.as_ref());
    run(&args)
}

fn runs(root: &Path) -> Vec<String> {
    entries(&root.join("data/runs"))
}

#[test]
fn runs_of_several_machines_are_merged_once() {
    let site = fixture_copy();
    let root = site.path();
    let a = run_file("fixture-probe-gpu-a-20260301T100000Z", 3);
    let b = run_file("fixture-probe-gpu-b-20260301T100002Z", 3);
    let art = artifacts(&[
        ("runs-gpu-a/data/runs/a.yaml", a.clone()),
        ("runs-gpu-b/b.yaml", b.clone()),
        ("runs-gpu-b/notes.txt", "not a run".into()),
    ]);
    let out = import(root, &[art.path()]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("2 imported, 0 already recorded"),
        "{}",
        out.stdout
    );
    // Each under its own id, with the bytes it came with.
    assert_eq!(
        runs(root),
        [
            "fixture-probe-gpu-a-20260301T100000Z.yaml",
            "fixture-probe-gpu-b-20260301T100002Z.yaml",
            "r1.yaml"
        ]
    );
    let written =
        std::fs::read_to_string(root.join("data/runs/fixture-probe-gpu-a-20260301T100000Z.yaml"))
            .unwrap();
    assert_eq!(written, a);
    let (code, report) = check_json(root);
    assert_eq!(code, 0, "{}", report.summary());

    // The same artifacts again (a re-run collect job): nothing changes.
    let before = read_tree(root);
    let again = import(root, &[art.path()]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again.stdout.contains("0 imported, 2 already recorded"),
        "{}",
        again.stdout
    );
    assert_eq!(read_tree(root), before);
}

#[test]
fn an_id_taken_by_other_contents_imports_nothing() {
    let site = fixture_copy();
    let root = site.path();
    let before = read_tree(root);
    // `r1` exists with other values; the good file beside it is not imported either.
    let art = artifacts(&[
        ("a/r1.yaml", run_file("r1", 4)),
        (
            "a/new.yaml",
            run_file("fixture-probe-gpu-a-20260301T100000Z", 3),
        ),
    ]);
    let out = import(root, &[art.path()]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr
            .contains("run `r1` clashes with data/runs/r1.yaml: same id, other contents"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("nothing was imported"));
    // Placed at the first value that differs, not at the file as a whole.
    assert!(out.stderr.contains("r1.yaml:15:24"), "{}", out.stderr);
    assert_eq!(read_tree(root), before, "nothing was written");
}

#[test]
fn two_files_with_one_id_and_other_contents_clash() {
    let site = fixture_copy();
    let root = site.path();
    let before = read_tree(root);
    let id = "fixture-probe-gpu-a-20260301T100000Z";
    let art = artifacts(&[("x/1.yaml", run_file(id, 3)), ("y/2.yaml", run_file(id, 5))]);
    let out = import(root, &[art.path()]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains(&format!("run `{id}` clashes with")),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("2.yaml:15:24"), "{}", out.stderr);
    assert_eq!(read_tree(root), before);
    // The same file twice is one run.
    let twice = artifacts(&[("x/1.yaml", run_file(id, 3)), ("y/1.yaml", run_file(id, 3))]);
    let out = import(root, &[twice.path()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("1 imported, 0 already recorded"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_bad_run_file_is_an_error_at_its_place_and_imports_nothing() {
    let site = fixture_copy();
    let root = site.path();
    let before = read_tree(root);
    let bad = run_file("fixture-probe-gpu-a-20260301T100000Z", 3).replacen(
        "prompt_eval_count: 3\n",
        "prompt_eval_count: three\n",
        1,
    );
    let art = artifacts(&[
        ("a/bad.yaml", bad),
        (
            "a/good.yaml",
            run_file("fixture-probe-gpu-b-20260301T100000Z", 3),
        ),
    ]);
    let file = art.path().join("a/bad.yaml");
    let out = import(root, &[&file, &art.path().join("a/good.yaml")]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    // The line of `prompt_eval_count: three` in the fixture's run (line 15), column 24.
    let at = format!("{}:15:24", file.display());
    assert!(out.stderr.contains(&at), "no {at} in {}", out.stderr);
    assert!(out.stderr.contains("prompt_eval_count"), "{}", out.stderr);
    assert_eq!(read_tree(root), before);

    // A path that does not exist is said, and nothing is imported.
    let out = import(root, &[&art.path().join("missing")]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("no such file or folder"),
        "{}",
        out.stderr
    );
}

/// A path that is neither a file nor a folder is named for what it is, not as missing,
/// and is refused without being read (a FIFO would block, `/dev/zero` never ends).
#[test]
fn a_fifo_or_a_device_is_not_a_regular_file() {
    let site = fixture_copy();
    let root = site.path();
    let before = read_tree(root);
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("run.yaml");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("run mkfifo");
    assert!(made.success());
    for (path, what) in [
        (fifo.as_path(), "a FIFO"),
        (Path::new("/dev/zero"), "a character device"),
    ] {
        let out = import(root, &[path]);
        assert_eq!(out.code, 1, "{}", out.stderr);
        assert!(
            out.stderr.contains("not a regular file") && out.stderr.contains(what),
            "{}",
            out.stderr
        );
        assert!(!out.stderr.contains("no such file"), "{}", out.stderr);
    }
    assert_eq!(read_tree(root), before);
}

/// A run whose file name is taken by another run of the site says which run holds it,
/// at the incoming run's id.
#[test]
fn a_file_name_taken_by_another_run_names_that_run() {
    let site = fixture_copy();
    let root = site.path();
    write_file(
        root,
        "data/runs/gpu-a-run.yaml",
        run_file("someone-else", 3).as_bytes(),
    );
    let before = read_tree(root);
    let art = artifacts(&[("a/run.yaml", run_file("gpu-a-run", 3))]);
    let out = import(root, &[art.path()]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("holds run `someone-else`: the file name is taken"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("same id"), "{}", out.stderr);
    assert!(out.stderr.contains("run.yaml:1:5"), "{}", out.stderr);
    assert_eq!(read_tree(root), before);
}
