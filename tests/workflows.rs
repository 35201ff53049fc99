//! The GitHub workflows cannot run on GitHub here. Their steps that matter are asserted in
//! order, each by what it must do (so that removing or weakening one fails a test), and the
//! pull-request job's diff and rewrite steps are run for real, their shell lines with the
//! GitHub expressions filled in, on a small git repository.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The binary the workflows build and run.
const BIN: &str = "./target/release/evidence";
/// The pull request's base branch, as fetched by a full-history checkout.
const BASE: &str = "origin/${{ github.base_ref }}";

fn load(name: &str) -> Value {
    let path = format!("{}/.github/workflows/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    serde_saphyr::from_str::<Value>(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn steps<'a>(wf: &'a Value, job: &str) -> &'a [Value] {
    wf["jobs"][job]["steps"]
        .as_array()
        .unwrap_or_else(|| panic!("no job `{job}` with steps"))
}

fn run(step: &Value) -> &str {
    step["run"].as_str().unwrap_or("")
}

fn uses(step: &Value) -> &str {
    step["uses"].as_str().unwrap_or("")
}

/// The index of the first step from `from` on that is `what`, or a failure naming it.
fn step_from(steps: &[Value], from: usize, what: &str, is: impl Fn(&Value) -> bool) -> usize {
    steps
        .iter()
        .enumerate()
        .skip(from)
        .find(|(_, s)| is(s))
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("no step `{what}` after step {from}: {steps:#?}"))
}

/// The file a step's line writes the markdown diff against the base branch into.
fn diff_into_file(line: &str) -> Option<&str> {
    let file = line.strip_prefix(&format!("{BIN} diff --format markdown {BASE} HEAD > "))?;
    (!file.is_empty() && !file.contains(char::is_whitespace)).then_some(file)
}

/// The builds of `evidence` that leave it at [`BIN`].
fn builds_evidence(step: &Value) -> bool {
    let line = run(step);
    line.starts_with("cargo build --release")
        && !line.contains("--target")
        && !line.contains("--profile")
}

/// The pull-request job's steps that matter, found in this order.
struct PullRequest {
    checkout: usize,
    build: usize,
    check: usize,
    site: usize,
    diff: usize,
    comment: usize,
    rewrites: usize,
}

fn pull_request(steps: &[Value]) -> PullRequest {
    let checkout = step_from(steps, 0, "checkout with full history", |s| {
        uses(s).starts_with("actions/checkout@") && s["with"]["fetch-depth"] == 0
    });
    let build = step_from(steps, checkout + 1, "build evidence", builds_evidence);
    let check = step_from(steps, build + 1, "check --format github", |s| {
        run(s) == format!("{BIN} check --format github")
    });
    let site = step_from(steps, check + 1, "build --check", |s| {
        run(s) == format!("{BIN} build --check")
    });
    let diff = step_from(steps, site + 1, "diff against the base into a file", |s| {
        diff_into_file(run(s)).is_some()
    });
    let file = diff_into_file(run(&steps[diff])).unwrap_or_default();
    let comment = step_from(steps, diff + 1, "comment posted from the file", |s| {
        run(s).starts_with("gh pr comment ")
            && run(s).contains(&format!("--body-file {file}"))
            && s["env"]["GH_TOKEN"].is_string()
    });
    let rewrites = step_from(steps, comment + 1, "fail on a rewritten run", |s| {
        run(s) == format!("{BIN} diff --deny-rewrites {BASE} HEAD")
    });
    PullRequest {
        checkout,
        build,
        check,
        site,
        diff,
        comment,
        rewrites,
    }
}

#[test]
fn pull_request_workflow_checks_builds_diffs_comments_then_denies_rewrites() {
    let wf = load("evidence.yml");
    assert!(
        wf["on"].get("pull_request").is_some(),
        "runs on pull requests"
    );
    assert_eq!(wf["permissions"]["pull-requests"], "write", "it comments");
    let steps = steps(&wf, "evidence");
    let pr = pull_request(steps);
    assert!(pr.checkout < pr.build && pr.build < pr.check && pr.check < pr.site);
    assert!(pr.site < pr.diff && pr.diff < pr.comment && pr.comment < pr.rewrites);
    for s in steps {
        assert!(
            !s["continue-on-error"].as_bool().unwrap_or(false) && s.get("if").is_none(),
            "every step runs and a failing one fails the job: {s:#?}"
        );
    }
}

#[test]
fn pages_workflow_checks_the_site_then_publishes_it() {
    let wf = load("pages.yml");
    assert_eq!(wf["on"]["push"]["branches"][0], "main");
    let steps = steps(&wf, "deploy");
    let checkout = step_from(steps, 0, "checkout", |s| {
        uses(s).starts_with("actions/checkout@")
    });
    let build = step_from(steps, checkout + 1, "build evidence", builds_evidence);
    let site = step_from(steps, build + 1, "build or check the site", |s| {
        run(s) == format!("{BIN} build --check") || run(s) == format!("{BIN} build")
    });
    let upload = step_from(steps, site + 1, "upload site/", |s| {
        uses(s).starts_with("actions/upload-pages-artifact@") && s["with"]["path"] == "site"
    });
    step_from(steps, upload + 1, "deploy", |s| {
        uses(s).starts_with("actions/deploy-pages@")
    });
}

// ------------------------------------------------------------------ the steps, run

const CONFIG: &str = "title: {ja: \"試験\", en: \"Test\"}\npacks: [ggml]\n";
const PAGE: &str = "---\ntitle: {ja: \"概要\", en: \"Overview\"}\norder: 0\n---\n\n:::ja\n段落。\n:::\n:::en\nParagraph.\n:::\n";
const RUN: &str = "id: r1
probe: proxy
date: \"2026-03-01\"
engine: ollama
origin: {ja: 試験, en: test}
cases:
  - {id: short, prompt_eval_count: 3, eval_count: 1}
";

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(["-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn commit(dir: &Path, files: &[(&str, &str)], message: &str) {
    for (p, text) in files {
        let path = dir.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", message]);
}

/// Runs a step's shell line in `dir` as GitHub would (`bash -e -o pipefail`), with the
/// pull request's base branch `main` and the binary under test.
fn run_step(dir: &Path, line: &str) -> (i32, String) {
    let bin = env!("CARGO_BIN_EXE_evidence");
    let line = line
        .replace(BIN, &format!("'{bin}'"))
        .replace("${{ github.base_ref }}", "main");
    assert!(!line.contains("${{"), "an expression left unfilled: {line}");
    let out = Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &line])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn pull_request_steps_pass_a_new_run_and_fail_a_rewritten_one() {
    let wf = load("evidence.yml");
    let steps = steps(&wf, "evidence");
    let pr = pull_request(steps);
    let (diff, rewrites) = (run(&steps[pr.diff]), run(&steps[pr.rewrites]));
    let file = diff_into_file(diff).unwrap_or_default();

    let repo = tempfile::tempdir().unwrap();
    let d = repo.path();
    git(d, &["init", "-q", "-b", "main"]);
    let base = [
        ("evidence.yaml", CONFIG),
        ("content/index.md", PAGE),
        ("data/runs/r1.yaml", RUN),
        (
            "data/vocabulary.yaml",
            "engines:\n  - {id: ollama, label: {ja: Ollama, en: Ollama}}\n",
        ),
    ];
    commit(d, &base, "base");
    git(d, &["update-ref", "refs/remotes/origin/main", "HEAD"]);

    let new_run = RUN.replace("id: r1", "id: r2").replace("03-01", "04-01");
    commit(d, &[("data/runs/r2.yaml", &new_run)], "a new run");
    assert_eq!(run_step(d, diff), (0, String::new()));
    let comment = std::fs::read_to_string(d.join(file)).unwrap();
    assert!(comment.contains("**1 run added**"), "{comment}");
    let (code, err) = run_step(d, rewrites);
    assert_eq!(code, 0, "a new run passes: {err}");

    let edited = RUN.replace("eval_count: 1", "eval_count: 2");
    commit(d, &[("data/runs/r1.yaml", &edited)], "rewrite r1");
    assert_eq!(
        run_step(d, diff),
        (0, String::new()),
        "the diff still posts"
    );
    let comment = std::fs::read_to_string(d.join(file)).unwrap();
    assert!(comment.contains("Run records rewritten (1)"), "{comment}");
    let (code, err) = run_step(d, rewrites);
    assert_eq!(code, 1, "a rewritten run fails the job");
    assert!(
        err.contains("run records are never rewritten") && err.contains("data/runs/r1.yaml"),
        "{err}"
    );
}
