//! Inputs that are not what a site's files should be: FIFOs, devices, symlinks leading out
//! of the site or nowhere, a folder that cannot be listed, files too large, text that is
//! not UTF-8, YAML that breaks the parser's limits. Each runs the real `evidence` binary
//! under one generous deadline (a read that blocks or never ends fails the test instead of
//! hanging it) and asserts the exit code, the located message, and that nothing was
//! written: no `site/` made, an existing `site/` unchanged, no run recorded.

mod common;

use common::*;
use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Far longer than any of these commands takes; reached only by one that hangs.
const DEADLINE: Duration = Duration::from_secs(120);

/// Runs `program args` under [`DEADLINE`]; kills it and fails the test if it is reached.
fn run_bounded(mut cmd: Command) -> Run {
    cmd.env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1")
        .env("LC_ALL", "C")
        .env("TZ", "UTC")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start evidence");
    // Drained on threads, so that a full pipe never stalls the child.
    let drain = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut out = Vec::new();
            if let Some(mut r) = r {
                r.read_to_end(&mut out).expect("read child output");
            }
            String::from_utf8_lossy(&out).into_owned()
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for evidence") {
            break status;
        }
        if start.elapsed() > DEADLINE {
            child.kill().expect("kill evidence");
            let _ = child.wait();
            panic!(
                "{cmd:?} did not finish within {DEADLINE:?}: a read blocked or never ended\nstderr:\n{}",
                stderr.join().unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code().expect("exit code (not killed by a signal)"),
        stdout: stdout.join().expect("stdout"),
        stderr: stderr.join().expect("stderr"),
    }
}

fn evidence_bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("evidence")
}

/// `evidence ARGS…` under the deadline.
fn evidence_bounded<S: AsRef<OsStr>>(args: &[S]) -> Run {
    let mut cmd = Command::new(evidence_bin());
    cmd.args(args);
    run_bounded(cmd)
}

fn mkfifo(path: &Path) {
    if path.exists() {
        std::fs::remove_file(path).expect("remove before mkfifo");
    }
    let st = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(st.success(), "mkfifo {}", path.display());
}

fn symlink(target: &Path, link: &Path) {
    if link.symlink_metadata().is_ok() {
        std::fs::remove_file(link).expect("remove before symlink");
    }
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

/// One expected diagnostic: file, line, column and a part of the message.
struct At<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    message: &'a str,
}

/// `check --format json` on `root` under the deadline: exit 1 and the diagnostic `at`.
fn check_reports(root: &Path, at: &At) -> Report {
    let r = evidence_bounded(&[
        OsStr::new("check"),
        OsStr::new("--format"),
        OsStr::new("json"),
        OsStr::new("--root"),
        root.as_os_str(),
    ]);
    let report: Report = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("invalid JSON ({e}):\n{}\nstderr:\n{}", r.stdout, r.stderr));
    assert_eq!(r.code, 1, "check must fail:\n{}", report.summary());
    let found = report.diagnostics.iter().any(|d| {
        d.severity == "error"
            && (d.span.file.as_str(), d.span.line, d.span.column) == (at.file, at.line, at.column)
            && d.message.contains(at.message)
    });
    assert!(
        found,
        "expected an error at {}:{}:{} containing {:?}; got:\n{}",
        at.file,
        at.line,
        at.column,
        at.message,
        report.summary()
    );
    report
}

/// `build` on `root` fails with `at` on stderr, makes no `site/`, and leaves an existing
/// `site/` as it was.
fn build_refused(root: &Path, at: &At) {
    let located = format!("{}:{}:{}", at.file, at.line, at.column);
    let build = || evidence_bounded(&[OsStr::new("build"), OsStr::new("--root"), root.as_os_str()]);
    let before = entries(root);
    let r = build();
    assert_eq!(r.code, 1, "build must fail\nstderr:\n{}", r.stderr);
    assert!(
        r.stderr.contains(&located),
        "no {located} in:\n{}",
        r.stderr
    );
    assert!(r.stderr.contains(at.message), "stderr:\n{}", r.stderr);
    assert_eq!(entries(root), before, "a failed build wrote into the root");

    write_file(root, "site/.evidence-output", b"previous build\n");
    let site = read_tree(&root.join("site"));
    let before = entries(root);
    let r = build();
    assert_eq!(r.code, 1, "build must fail\nstderr:\n{}", r.stderr);
    assert!(r.stderr.contains("nothing was written"), "{}", r.stderr);
    assert_eq!(read_tree(&root.join("site")), site, "site/ changed");
    assert_eq!(
        entries(root),
        before,
        "a failed build left files in the root"
    );
}

/// Both [`check_reports`] and [`build_refused`].
fn refused(root: &Path, at: At) -> Report {
    let report = check_reports(root, &at);
    build_refused(root, &at);
    report
}

// ------------------------------------------------------------------ not regular files

#[test]
fn a_fifo_as_evidence_yaml_is_refused_without_blocking() {
    let site = fixture_copy();
    mkfifo(&site.path().join("evidence.yaml"));
    refused(
        site.path(),
        At {
            file: "evidence.yaml",
            line: 1,
            column: 1,
            message: "is a FIFO, not a regular file",
        },
    );
}

#[test]
fn a_fifo_as_a_data_file_is_refused_without_blocking() {
    let site = fixture_copy();
    mkfifo(&site.path().join("data/questions.yaml"));
    let report = refused(
        site.path(),
        At {
            file: "data/questions.yaml",
            line: 1,
            column: 1,
            message: "is a FIFO, not a regular file",
        },
    );
    assert_eq!(report.errors, 1, "{}", report.summary());
}

#[test]
fn a_fifo_as_a_page_is_refused_without_blocking() {
    let site = fixture_copy();
    mkfifo(&site.path().join("content/details.md"));
    refused(
        site.path(),
        At {
            file: "content/details.md",
            line: 1,
            column: 1,
            message: "is a FIFO, not a regular file",
        },
    );
}

#[test]
fn a_fifo_as_a_template_is_refused_without_blocking() {
    let site = fixture_copy();
    std::fs::create_dir_all(site.path().join("templates")).unwrap();
    mkfifo(&site.path().join("templates/page.html"));
    refused(
        site.path(),
        At {
            file: "templates/page.html",
            line: 1,
            column: 1,
            message: "is a FIFO, not a regular file",
        },
    );
}

#[test]
fn a_symlink_to_dev_zero_in_data_is_refused() {
    let site = fixture_copy();
    symlink(
        Path::new("/dev/zero"),
        &site.path().join("data/runs/zero.yaml"),
    );
    refused(
        site.path(),
        At {
            file: "data/runs/zero.yaml",
            line: 1,
            column: 1,
            message: "is a symlink to `/dev/zero`, outside the site folder",
        },
    );
}

// ------------------------------------------------------------------ symlinks

#[test]
fn a_symlink_to_a_data_file_outside_the_site_is_refused() {
    let site = fixture_copy();
    let elsewhere = tempfile::tempdir().unwrap();
    let outside = elsewhere.path().join("questions.yaml");
    std::fs::rename(site.path().join("data/questions.yaml"), &outside).unwrap();
    symlink(&outside, &site.path().join("data/questions.yaml"));
    refused(
        site.path(),
        At {
            file: "data/questions.yaml",
            line: 1,
            column: 1,
            message: "outside the site folder",
        },
    );
}

#[test]
fn symlinks_inside_the_site_are_followed() {
    let site = fixture_copy();
    let root = site.path();
    // A file and a folder, each kept elsewhere in the site and linked into place.
    std::fs::create_dir_all(root.join("shared")).unwrap();
    std::fs::rename(
        root.join("data/questions.yaml"),
        root.join("shared/questions.yaml"),
    )
    .unwrap();
    symlink(
        Path::new("../shared/questions.yaml"),
        &root.join("data/questions.yaml"),
    );
    std::fs::rename(root.join("data/runs"), root.join("shared/runs")).unwrap();
    symlink(Path::new("../shared/runs"), &root.join("data/runs"));
    let r = evidence_bounded(&[OsStr::new("check"), OsStr::new("--root"), root.as_os_str()]);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let out = root.join("out");
    build_ok(root, &out);
    let details = std::fs::read_to_string(out.join("en/details/index.html")).unwrap();
    assert!(details.contains("An open fixture question."), "{details}");
    // `::run{id="r1"}` shows the run read through the linked folder.
    assert!(details.contains("fixture-model"), "{details}");
}

#[test]
fn a_dangling_symlink_is_an_error() {
    let site = fixture_copy();
    symlink(
        Path::new("nowhere.yaml"),
        &site.path().join("data/runs/gone.yaml"),
    );
    refused(
        site.path(),
        At {
            file: "data/runs/gone.yaml",
            line: 1,
            column: 1,
            message: "is a symlink to `nowhere.yaml`, which does not exist",
        },
    );
}

#[test]
fn symlink_loops_are_errors_not_hangs() {
    let site = fixture_copy();
    // A folder that leads back to its parent, and a link to itself.
    symlink(Path::new(".."), &site.path().join("data/runs/again"));
    symlink(
        Path::new("self.yaml"),
        &site.path().join("data/runs/self.yaml"),
    );
    let report = refused(
        site.path(),
        At {
            file: "data/runs/again",
            line: 1,
            column: 1,
            message: "is a symlink loop: it leads back to `data`",
        },
    );
    let itself = report.diagnostics.iter().any(|d| {
        d.span.file == "data/runs/self.yaml" && d.message.contains("cannot follow the symlink")
    });
    assert!(itself, "{}", report.summary());
}

#[test]
fn hidden_entries_are_ignored_by_rule() {
    let site = fixture_copy();
    let root = site.path();
    // What editors leave next to a page: Emacs's lock (a dangling symlink), a swap file.
    symlink(
        Path::new("user@host.1234:1700000000"),
        &root.join("content/.#details.md"),
    );
    mkfifo(&root.join("data/.questions.yaml.swp"));
    std::fs::create_dir_all(root.join("data/.git")).unwrap();
    write_file(root, "data/.git/extra.yaml", b"not: [a data file\n");
    let r = evidence_bounded(&[OsStr::new("check"), OsStr::new("--root"), root.as_os_str()]);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
}

// ------------------------------------------------------------------ a folder that cannot be read

fn is_root() -> bool {
    let out = Command::new("id").arg("-u").output().expect("run id -u");
    String::from_utf8_lossy(&out.stdout).trim() == "0"
}

/// Runs as `nobody` when this process is root (root reads any folder), or as itself.
fn as_unprivileged(args: &[&OsStr]) -> Run {
    if !is_root() {
        return evidence_bounded(args);
    }
    let mut cmd = Command::new("setpriv");
    cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(evidence_bin())
        .args(args);
    run_bounded(cmd)
}

/// Whether this test can read as a user other than root; under `CI=true` it must.
fn can_drop_privileges() -> bool {
    let setpriv = Command::new("setpriv")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !is_root() || setpriv {
        return true;
    }
    common::skip(
        "an unreadable file",
        "this test runs as root and needs `setpriv` to read as another user: \
         install util-linux",
    );
    false
}

#[test]
fn an_unreadable_folder_is_an_error_not_a_missing_run() {
    if !can_drop_privileges() {
        return;
    }
    let site = fixture_copy();
    let root = site.path();
    // Everything belongs to `nobody`, who may not list data/runs (mode 000).
    let st = Command::new("chown")
        .args(["-R", "65534:65534"])
        .arg(root)
        .status()
        .expect("run chown");
    assert!(st.success(), "chown");
    let runs = root.join("data/runs");
    let mode = |p: &Path, m: u32| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).expect("chmod");
    };
    mode(root, 0o755);
    mode(&runs, 0o000);
    let at = At {
        file: "data/runs",
        line: 1,
        column: 1,
        message: "Permission denied",
    };
    let check = as_unprivileged(&[
        OsStr::new("check"),
        OsStr::new("--format"),
        OsStr::new("json"),
        OsStr::new("--root"),
        root.as_os_str(),
    ]);
    let report: Report = serde_json::from_str(&check.stdout)
        .unwrap_or_else(|e| panic!("invalid JSON ({e}):\n{}\n{}", check.stdout, check.stderr));
    assert_eq!(check.code, 1, "{}", report.summary());
    let found = report.diagnostics.iter().any(|d| {
        (d.span.file.as_str(), d.span.line, d.span.column) == (at.file, at.line, at.column)
            && d.message.contains(at.message)
    });
    assert!(found, "{}", report.summary());
    // The run's folder is missing, not its references: one error, no cascade.
    assert_eq!(report.errors, 1, "{}", report.summary());

    let before = entries(root);
    let build = as_unprivileged(&[OsStr::new("build"), OsStr::new("--root"), root.as_os_str()]);
    mode(&runs, 0o755);
    assert_eq!(build.code, 1, "build must fail\n{}", build.stderr);
    assert!(build.stderr.contains("data/runs:1:1"), "{}", build.stderr);
    assert_eq!(entries(root), before, "a failed build wrote into the root");
}

// ------------------------------------------------------------------ size

#[test]
fn a_data_file_over_the_limit_is_refused_while_reading() {
    let site = fixture_copy();
    let big = std::fs::File::create(site.path().join("data/runs/big.yaml")).unwrap();
    // Sparse: no disk is spent on it.
    big.set_len(64 * 1024 * 1024 + 1).unwrap();
    refused(
        site.path(),
        At {
            file: "data/runs/big.yaml",
            line: 1,
            column: 1,
            message: "the file is larger than 64 MiB, the limit for a site file",
        },
    );
}

// ------------------------------------------------------------------ text

#[test]
fn a_data_file_that_is_not_utf8_is_located_at_the_bad_byte() {
    let site = fixture_copy();
    // `é` is one character of two bytes: the column counts characters.
    let mut bytes = "- id: q1\n  text: é".as_bytes().to_vec();
    bytes.extend_from_slice(b"\xff\n");
    write_file(site.path(), "data/questions.yaml", &bytes);
    refused(
        site.path(),
        At {
            file: "data/questions.yaml",
            line: 2,
            column: 10,
            message: "the file is not UTF-8: byte 0xff",
        },
    );
}

#[test]
fn a_page_that_is_not_utf8_is_located_at_the_bad_byte() {
    let site = fixture_copy();
    let path = site.path().join("content/details.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let (head, tail) = text.split_once("## 表\n").expect("`## 表` in the page");
    // A lead byte without its continuation, after four characters of line 7.
    let mut bytes = format!("{head}## 表").into_bytes();
    bytes.push(0xc3);
    bytes.extend_from_slice(format!("\n{tail}").as_bytes());
    std::fs::write(&path, bytes).unwrap();
    refused(
        site.path(),
        At {
            file: "content/details.md",
            line: 7,
            column: 5,
            message: "the file is not UTF-8: byte 0xc3",
        },
    );
}

#[test]
fn a_page_with_a_byte_order_mark_is_read() {
    let site = fixture_copy();
    let path = site.path().join("content/details.md");
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend(std::fs::read(&path).unwrap());
    std::fs::write(&path, bytes).unwrap();
    let r = evidence_bounded(&[
        OsStr::new("check"),
        OsStr::new("--root"),
        site.path().as_os_str(),
    ]);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let out = site.path().join("out");
    build_ok(site.path(), &out);
    let page = std::fs::read_to_string(out.join("en/details/index.html")).unwrap();
    assert!(page.contains("Fixture details"), "{page}");
    assert!(!page.contains('\u{feff}'), "the mark reached the page");
}

#[test]
fn a_yaml_budget_breach_is_said_in_words() {
    let site = fixture_copy();
    // One anchor used 101 times: more than ten uses per anchor.
    let aliases = ", *r".repeat(101);
    replace_once(
        site.path(),
        "data/questions.yaml",
        "refs: [\"bundle:b2\"]",
        &format!("refs: [&r \"bundle:b2\"{aliases}]"),
    );
    let report = refused(
        site.path(),
        At {
            file: "data/questions.yaml",
            line: 8,
            column: 1,
            message: "too much for the YAML parser: 101 aliases for 1 anchors, \
                      more than 10 uses per anchor",
        },
    );
    assert!(
        report
            .diagnostics
            .iter()
            .all(|d| !d.message.contains("budget breached")),
        "{}",
        report.summary()
    );
}

// ------------------------------------------------------------------ probe and import inputs

/// The recorded runs of `root`, to show that none was added.
fn runs_of(root: &Path) -> Vec<String> {
    entries(&root.join("data/runs"))
}

/// Runs `evidence ARGS --root ROOT`, which must fail with exit 1, saying each of `says`
/// on stderr, and record no run.
fn refused_recording(root: &Path, args: &[&OsStr], says: &[&str]) {
    let before = runs_of(root);
    let mut all = args.to_vec();
    all.extend([OsStr::new("--root"), root.as_os_str()]);
    let r = evidence_bounded(&all);
    assert_eq!(r.code, 1, "stderr:\n{}", r.stderr);
    for s in says {
        assert!(r.stderr.contains(s), "no `{s}` in:\n{}", r.stderr);
    }
    assert_eq!(runs_of(root), before, "a run was recorded");
}

/// `evidence probe ollama` with `cases` against a port where nothing listens: the cases
/// file is read before anything is sent.
fn probe_ollama_args(cases: &OsStr) -> Vec<&OsStr> {
    [
        "probe",
        "ollama",
        "--url",
        "http://127.0.0.1:1",
        "--model",
        "m",
        "--cases",
    ]
    .map(OsStr::new)
    .into_iter()
    .chain([cases])
    .collect()
}

#[test]
fn import_refuses_dev_zero_before_reading() {
    let site = fixture_copy();
    refused_recording(
        site.path(),
        &["import", "ollama", "/dev/zero", "--case", "a"].map(OsStr::new),
        &[
            "/dev/zero: is a character device, not a regular file",
            "nothing was recorded",
        ],
    );
}

#[test]
fn probe_maps_refuses_dev_zero_before_reading() {
    let site = fixture_copy();
    refused_recording(
        site.path(),
        &["probe", "maps", "--file", "/dev/zero"].map(OsStr::new),
        &["cannot read /dev/zero: is a character device, not a regular file"],
    );
}

#[test]
fn probe_refuses_a_cases_file_that_is_dev_zero_before_reading() {
    let site = fixture_copy();
    refused_recording(
        site.path(),
        &probe_ollama_args(OsStr::new("/dev/zero")),
        &["cannot read the cases file /dev/zero: is a character device, not a regular file"],
    );
}

#[test]
fn probe_refuses_a_fifo_among_the_recorded_runs() {
    let site = fixture_copy();
    mkfifo(&site.path().join("data/runs/stuck.yaml"));
    refused_recording(
        site.path(),
        &["probe", "maps", "--file", "/proc/self/maps"].map(OsStr::new),
        &["data/runs/stuck.yaml:1:1", "is a FIFO"],
    );
}

#[test]
fn a_cases_file_that_is_not_utf8_is_located_at_the_bad_byte() {
    let site = fixture_copy();
    let cases = site.path().join("data/probes/bad.yaml");
    let mut bytes = b"cases:\n  - id: a\n    prompt: \"\xe3\x81\x82".to_vec();
    bytes.extend_from_slice(b"\xff\"\n    num_predict: 1\n    mode: hot\n");
    write_file(site.path(), "data/probes/bad.yaml", &bytes);
    // `あ` is one character after `    prompt: "` (13 characters).
    let at = format!("{}:3:15", cases.display());
    refused_recording(
        site.path(),
        &probe_ollama_args(cases.as_os_str()),
        &[&at, "not UTF-8: byte 0xff"],
    );
}

#[test]
fn probe_gguf_refuses_a_fifo_before_opening_it() {
    let site = fixture_copy();
    let fifo = site.path().join("model.gguf");
    mkfifo(&fifo);
    refused_recording(
        site.path(),
        &[OsStr::new("probe"), OsStr::new("gguf"), fifo.as_os_str()],
        &["is a FIFO, not a regular file"],
    );
}

/// A page linked to a file outside the site is refused before it is read, and the
/// message quotes none of its text: `/proc/self/environ` would put the environment (a CI
/// job's tokens) into the log, `/etc/passwd` the accounts. Checked in `check`, `build`
/// and `build --check`, with a marker in the environment the command runs with.
#[test]
fn an_outside_symlink_is_never_quoted() {
    const SECRET: &str = "EVIDENCE_TEST_SECRET=do-not-print-me";
    let site = fixture_copy();
    let root = site.path();
    symlink(
        Path::new("/proc/self/environ"),
        &root.join("content/env.md"),
    );
    symlink(Path::new("/etc/passwd"), &root.join("content/pw.md"));
    for args in [&["check"][..], &["build"], &["build", "--check"]] {
        let mut cmd = Command::new(evidence_bin());
        cmd.args(args)
            .arg("--root")
            .arg(root)
            .env("EVIDENCE_TEST_SECRET", "do-not-print-me");
        let r = run_bounded(cmd);
        assert_ne!(r.code, 0, "{args:?} passed");
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(all.contains("content/env.md:1:1"), "{args:?}:\n{all}");
        assert!(all.contains("outside the site folder"), "{args:?}:\n{all}");
        assert!(
            !all.contains(SECRET),
            "{args:?} printed the environment:\n{all}"
        );
        assert!(
            !all.contains("root:"),
            "{args:?} printed /etc/passwd:\n{all}"
        );
    }
    // The config too is judged before it is read.
    std::fs::remove_file(root.join("content/env.md")).unwrap();
    std::fs::remove_file(root.join("content/pw.md")).unwrap();
    symlink(Path::new("/etc/passwd"), &root.join("evidence.yaml"));
    let r = evidence_bounded(&[OsStr::new("check"), OsStr::new("--root"), root.as_os_str()]);
    assert_ne!(r.code, 0);
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(all.contains("outside the site folder"), "{all}");
    assert!(!all.contains("root:"), "check printed /etc/passwd:\n{all}");
}

/// `evidence ARGS…` with its standard output a pipe whose reader has gone (as in
/// `evidence … | head -0`, or a pager quit early): its exit code and standard error.
fn with_stdout_closed<S: AsRef<OsStr>>(args: &[S]) -> (i32, String) {
    let mut child = Command::new(evidence_bin())
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start evidence");
    // The reading end closed before the command writes its first line.
    drop(child.stdout.take());
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut stderr).expect("read stderr");
    }
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for evidence") {
            break status;
        }
        assert!(start.elapsed() < DEADLINE, "{:?} hangs", args[0].as_ref());
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        status.code().expect("exit code (not killed by a signal)"),
        stderr,
    )
}

/// A closed standard output ends every command quietly: no panic, no "Broken pipe", and
/// the exit status its work earned (0 after a successful build, 1 for a failed check).
#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let site = fixture_copy();
    let root = site.path();
    let other = fixture_copy();
    replace_once(
        other.path(),
        "data/questions.yaml",
        "\"An open fixture question.\"",
        "\"A question reworded.\"",
    );
    let out = root.join("out");
    let review = root.join("review");
    let new_site = root.join("new-site");
    let run_dir = tempfile::tempdir().expect("tempdir");
    let run = std::fs::read_to_string(root.join("data/runs/r1.yaml"))
        .expect("the fixture's run")
        .replacen("id: r1\n", "id: r-elsewhere\n", 1);
    std::fs::write(run_dir.path().join("r.yaml"), run).expect("write a run file");
    let (r, o, b) = (root.as_os_str(), out.as_os_str(), other.path().as_os_str());
    let cases: Vec<(Vec<&OsStr>, i32)> = vec![
        (vec!["--help".as_ref()], 0),
        (
            vec!["build".as_ref(), "--root".as_ref(), r, "--out".as_ref(), o],
            0,
        ),
        (
            vec![
                "build".as_ref(),
                "--check".as_ref(),
                "--root".as_ref(),
                r,
                "--out".as_ref(),
                o,
            ],
            0,
        ),
        (vec!["check".as_ref(), "--root".as_ref(), r], 0),
        (
            vec![
                "check".as_ref(),
                "--format".as_ref(),
                "json".as_ref(),
                "--root".as_ref(),
                r,
            ],
            0,
        ),
        (
            vec![
                "check".as_ref(),
                "--format".as_ref(),
                "github".as_ref(),
                "--root".as_ref(),
                r,
            ],
            0,
        ),
        (vec!["diff".as_ref(), r, b], 0),
        (
            vec![
                "diff".as_ref(),
                r,
                b,
                "--format".as_ref(),
                "markdown".as_ref(),
            ],
            0,
        ),
        (
            vec!["diff".as_ref(), r, b, "--format".as_ref(), "json".as_ref()],
            0,
        ),
        (
            vec![
                "diff".as_ref(),
                r,
                b,
                "--format".as_ref(),
                "html".as_ref(),
                "--out".as_ref(),
                review.as_os_str(),
            ],
            0,
        ),
        (
            vec![
                "import".as_ref(),
                "runs".as_ref(),
                run_dir.path().as_os_str(),
                "--root".as_ref(),
                r,
            ],
            0,
        ),
        (vec!["init".as_ref(), new_site.as_os_str()], 0),
    ];
    for (args, want) in cases {
        let (code, stderr) = with_stdout_closed(&args);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "{args:?}: {stderr}"
        );
        assert_eq!(code, want, "{args:?}: {stderr}");
    }
    assert!(out.join("index.html").is_file(), "the build wrote its site");
    // A check that fails still says so by its status.
    replace_once(root, "content/details.md", "## Tables", "## Tables {#main}");
    let (code, stderr) = with_stdout_closed(&["check".as_ref(), "--root".as_ref(), r]);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(code, 1, "{stderr}");
}

/// A control character (C0 but tab and line breaks, DEL, C1), raw or as a YAML escape in a
/// double-quoted scalar, is refused where it stands, in data and pages alike, before it
/// can reach a page.
#[test]
fn control_characters_are_refused_at_their_place() {
    let cases: [(&str, &str, &str, (usize, usize)); 4] = [
        (
            "data/questions.yaml",
            "\"An open fixture question.\"",
            "\"An open \\u0001 question.\"",
            (4, 18),
        ),
        (
            "data/questions.yaml",
            "\"An open fixture question.\"",
            "\"An open \u{7f} question.\"",
            (4, 18),
        ),
        (
            "content/details.md",
            "The fixture tables.",
            "The fixture\u{1} tables.",
            (17, 12),
        ),
        (
            "content/details.md",
            "The fixture tables.",
            "The \u{85}fixture tables.",
            (17, 5),
        ),
    ];
    for (file, old, new, (line, column)) in cases {
        let site = fixture_copy();
        let root = site.path();
        replace_once(root, file, old, new);
        let found = check_errors(root, "control-character", "control character");
        assert_eq!(found, [(file.to_string(), line, column)], "{new:?}");
        let out = root.join("out");
        let r = build(root, Some(&out));
        assert_eq!(r.code, 1, "{new:?}: {}", r.stderr);
        assert!(!out.exists(), "{new:?}: the build wrote its output");
    }
}
