//! Helpers shared by the integration tests: the fixture site, the `evidence` binary,
//! textual edits that turn the valid fixture into an invalid one, and output readers.

#![allow(dead_code)]

use assert_cmd::Command;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// The crate root (where `Cargo.toml`, `locales/` and `tests/` are).
pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The valid fixture site, `tests/fixtures/valid`. Never build into it: copy it first.
pub fn fixture_dir() -> PathBuf {
    manifest_dir().join("tests/fixtures/valid")
}

/// The `evidence` binary, with a neutral environment (no colour, fixed locale).
pub fn evidence() -> Command {
    let mut cmd = Command::cargo_bin("evidence").expect("the evidence binary is built");
    cmd.env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1")
        .env("LC_ALL", "C")
        .env("TZ", "UTC");
    cmd
}

/// Copies `from` into `to`, recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk fixture");
        let rel = entry.path().strip_prefix(from).unwrap();
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

/// A fresh copy of the valid fixture in a temporary folder. The site root is the
/// folder itself, so the default output is `<tmp>/site`.
pub fn fixture_copy() -> TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&fixture_dir(), dir.path());
    dir
}

/// Replaces `old` by `new` in `root/file`; `old` must occur exactly once.
pub fn replace_once(root: &Path, file: &str, old: &str, new: &str) {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {file}: {e}"));
    let n = text.matches(old).count();
    assert_eq!(n, 1, "`{old}` occurs {n} times in {file}, expected once");
    std::fs::write(&path, text.replacen(old, new, 1)).unwrap();
}

/// Writes `root/file`, creating folders.
pub fn write_file(root: &Path, file: &str, bytes: &[u8]) {
    let path = root.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// Writes each `(path, text)` under `root`, making folders as needed.
pub fn write_files(root: &Path, files: &[(&str, &str)]) {
    for (file, text) in files {
        write_file(root, file, text.as_bytes());
    }
}

/// Runs `evidence diff ARGS --root DIR`: its exit code, stdout and stderr.
pub fn diff(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = evidence()
        .arg("diff")
        .args(args)
        .arg("--root")
        .arg(dir)
        .output()
        .expect("run evidence diff");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    )
}

/// The built-in English messages with every line defining `key` removed.
pub fn builtin_en_ftl_without(key: &str) -> String {
    let text =
        std::fs::read_to_string(manifest_dir().join("crates/core/src/messages/en/evidence.ftl"))
            .unwrap();
    let prefix = format!("{key} =");
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with(&prefix)).collect();
    assert_eq!(
        kept.len() + 1,
        text.lines().count(),
        "`{key}` is defined exactly once in the built-in en messages"
    );
    let mut out = kept.join("\n");
    out.push('\n');
    out
}

/// The 1-based line of the first line defining `key` in a built-in message file.
pub fn builtin_ftl_line(lang: &str, key: &str) -> usize {
    let text = std::fs::read_to_string(
        manifest_dir().join(format!("crates/core/src/messages/{lang}/evidence.ftl")),
    )
    .unwrap();
    let prefix = format!("{key} =");
    text.lines()
        .position(|l| l.starts_with(&prefix))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("`{key}` not in locales/{lang}"))
}

/// One diagnostic of `check --format json`.
#[derive(Debug, Clone, Deserialize)]
pub struct Diag {
    pub span: SpanJson,
    pub severity: String,
    pub code: String,
    pub message: String,
    #[serde(default)]
    pub hint: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SpanJson {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

/// The whole `check --format json` document.
#[derive(Debug, Clone, Deserialize)]
pub struct Report {
    pub errors: usize,
    pub warnings: usize,
    pub diagnostics: Vec<Diag>,
}

impl Report {
    /// The diagnostics with `code`, as (severity, line, column, message), in order.
    pub fn with_code(&self, code: &str) -> Vec<(&str, usize, usize, &str)> {
        self.diagnostics
            .iter()
            .filter(|d| d.code == code)
            .map(|d| {
                let s = &d.span;
                (d.severity.as_str(), s.line, s.column, d.message.as_str())
            })
            .collect()
    }

    /// Diagnostics as `file:line:col [code] message` lines, for assertion messages.
    pub fn summary(&self) -> String {
        self.diagnostics
            .iter()
            .map(|d| {
                format!(
                    "{}:{}:{} [{}] {}",
                    d.span.file, d.span.line, d.span.column, d.code, d.message
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Runs `evidence check --root <root> --format json`; returns the exit code and report.
pub fn check_json(root: &Path) -> (i32, Report) {
    let out = evidence()
        .args(["check", "--format", "json", "--root"])
        .arg(root)
        .output()
        .expect("run evidence check");
    let code = out.status.code().expect("exit code");
    let stdout = String::from_utf8(out.stdout).expect("utf-8 stdout");
    let report: Report = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "check --format json printed invalid JSON ({e}):\n{stdout}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (code, report)
}

/// The errors `check` reports with `code` and a message containing `says`, as (file, line,
/// column).
pub fn check_errors(root: &Path, code: &str, says: &str) -> Vec<(String, usize, usize)> {
    let (_, report) = check_json(root);
    report
        .diagnostics
        .iter()
        .filter(|d| d.severity == "error" && d.code == code && d.message.contains(says))
        .map(|d| (d.span.file.clone(), d.span.line, d.span.column))
        .collect()
}

/// Output of one command run.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `evidence` with `args`.
pub fn run(args: &[&std::ffi::OsStr]) -> Run {
    let out = evidence().args(args).output().expect("run evidence");
    Run {
        code: out.status.code().expect("exit code"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `evidence build --root <root> [--out <out>]`.
pub fn build(root: &Path, out: Option<&Path>) -> Run {
    let mut args: Vec<&std::ffi::OsStr> = vec!["build".as_ref(), "--root".as_ref(), root.as_ref()];
    if let Some(o) = out {
        args.push("--out".as_ref());
        args.push(o.as_ref());
    }
    run(&args)
}

/// Builds `root` into `out` and panics unless the build succeeds.
pub fn build_ok(root: &Path, out: &Path) {
    let r = build(root, Some(out));
    assert_eq!(
        r.code, 0,
        "build failed\nstdout:\n{}\nstderr:\n{}",
        r.stdout, r.stderr
    );
}

/// Every file under `dir`, by `/`-separated relative path, with its bytes.
pub fn read_tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.expect("walk output");
        if entry.file_type().is_file() {
            let rel = entry
                .path()
                .strip_prefix(dir)
                .unwrap()
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            files.insert(rel, std::fs::read(entry.path()).unwrap());
        }
    }
    files
}

/// Names of the entries directly in `dir`, sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The valid fixture, built once per test into a temporary folder.
pub struct Built {
    /// Holds the copied site and its output.
    pub dir: TempDir,
    pub out: PathBuf,
}

impl Built {
    pub fn new() -> Built {
        let dir = fixture_copy();
        let out = dir.path().join("out");
        build_ok(dir.path(), &out);
        Built { dir, out }
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.out.join(rel))
            .unwrap_or_else(|e| panic!("read output {rel}: {e}"))
    }
}

/// The `<figure class="data CLASS" …>…</figure>` elements of `html` whose class list is
/// exactly `data CLASS`.
pub fn figures<'h>(html: &'h str, class: &str) -> Vec<&'h str> {
    let open = format!("<figure class=\"data {class}\"");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find(&open) {
        let from = &rest[start..];
        let end = from.find("</figure>").expect("closed figure") + "</figure>".len();
        out.push(&from[..end]);
        rest = &from[end..];
    }
    out
}

/// The single figure of `class` in `html`.
pub fn figure<'h>(html: &'h str, class: &str) -> &'h str {
    let f = figures(html, class);
    assert_eq!(
        f.len(),
        1,
        "expected one `{class}` figure, found {}",
        f.len()
    );
    f[0]
}

/// Every `<div class="block" lang="…">` language, in document order.
pub fn block_langs(html: &str) -> Vec<String> {
    // `block`, or `block tr` for a translation in the interleaved view.
    let open = "<div class=\"block";
    html.match_indices(open)
        .filter_map(|(i, _)| {
            let rest = &html[i + open.len()..];
            let rest = &rest[rest.find("lang=\"")? + 6..];
            Some(rest[..rest.find('"').unwrap()].to_string())
        })
        .collect()
}

/// The page without its language switcher, whose links name each language in itself.
pub fn without_switcher(html: &str) -> String {
    match (html.find("<nav class=\"views\""), html.find("</nav>")) {
        (Some(a), Some(b)) if a < b => format!("{}{}", &html[..a], &html[b..]),
        _ => html.to_string(),
    }
}

/// Runs `git -C dir args` with a fixed identity and no signing; panics unless it
/// succeeds. Returns its stdout. The one git of the tests.
pub fn git(dir: &Path, args: &[&str]) -> String {
    git_with(dir, &[], args)
}

/// [`git`] with these environment variables set (a commit's dates, say).
pub fn git_with(dir: &Path, envs: &[(&str, &str)], args: &[&str]) -> String {
    let out = git_output(dir, envs, args);
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Whether `git -C dir args` succeeds, for commands whose exit status is the answer
/// (`check-ignore`, say).
pub fn git_succeeds(dir: &Path, args: &[&str]) -> bool {
    git_output(dir, &[], args).status.success()
}

/// Runs git in `dir` with the tests' fixed identity, no signing and `envs`.
fn git_output(dir: &Path, envs: &[(&str, &str)], args: &[&str]) -> std::process::Output {
    std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(["-c", "commit.gpgsign=false"])
        .args(args)
        .envs(envs.iter().copied())
        .output()
        .expect("run git")
}

/// Whether this run is CI (`CI=true`), where a test whose tool is missing fails instead of
/// skipping.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// A test that cannot run here, for `why` (which says how to install what it needs):
/// under CI it fails; elsewhere it says so on stderr and the caller returns. The one skip
/// of the tests.
pub fn skip(test: &str, why: &str) {
    assert!(!under_ci(), "{test} cannot run under CI=true: {why}");
    eprintln!("SKIPPED {test}: {why}");
}

/// Where scripts/test.sh keeps the tests' downloaded tools and inputs (axe-core, vnu.jar,
/// actionlint, llama-server and its model): `$EVIDENCE_TEST_CACHE`, else
/// `~/.cache/evidence-tests`.
pub fn test_cache() -> PathBuf {
    if let Some(d) = std::env::var_os("EVIDENCE_TEST_CACHE") {
        return PathBuf::from(d);
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default();
    home.join(".cache/evidence-tests")
}

/// The HTML files under `dir`, sorted.
pub fn html_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap_or_else(|e| panic!("walk {}: {e}", dir.display())))
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    out.sort();
    out
}

/// The HTML pages under `dir` with no (or an empty) meta description.
pub fn pages_without_description(dir: &Path) -> Vec<String> {
    html_files(dir)
        .into_iter()
        .filter(|page| {
            let html = std::fs::read_to_string(page).expect("read a page");
            let content = html
                .split("<meta name=\"description\" content=\"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap_or_default();
            content.trim().is_empty()
        })
        .map(|page| page.display().to_string())
        .collect()
}

/// Each caption (tags left out) that repeats an earlier one on the same page under `dir`,
/// as `page: caption`.
pub fn alike_captions(dir: &Path) -> Vec<String> {
    let mut alike = Vec::new();
    for page in html_files(dir) {
        let html = std::fs::read_to_string(&page).expect("read a page");
        let mut seen = std::collections::BTreeSet::new();
        for part in html.split("<figcaption").skip(1) {
            let inner = part.split_once('>').map_or("", |(_, r)| r);
            let inner = inner.split("</figcaption>").next().unwrap_or_default();
            let text = without_tags(inner);
            if !seen.insert(text.clone()) {
                alike.push(format!("{}: {text}", page.display()));
            }
        }
    }
    alike
}

/// `html`'s text with its tags left out.
fn without_tags(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}
