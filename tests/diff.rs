//! `evidence diff` on small git repositories built in temporary folders: a claim moved
//! from cannot-show to can-show, a new run with changed values and a flipped zone, a
//! Japanese-only edit, and the error cases.

use assert_cmd::Command;
use std::path::Path;
use std::process::Command as Std;

const CONFIG: &str = "title: {ja: \"差分の試験\", en: \"Diff test\"}\n";

const PAGE: &str = "---\ntitle: {ja: \"概要\", en: \"Overview\"}\norder: 0\n---\n\n:::ja\n最初の段落。\n:::\n:::en\nFirst paragraph.\n:::\n\n::claims\n";

const DISPATCH: &str = "families:
  - {id: mmvq, name: MMVQ, description: {ja: 小さい, en: small}}
  - {id: mmq, name: MMQ, description: {ja: 中くらい, en: medium}}
  - {id: blas, name: BLAS, description: {ja: 大きい, en: large}}
maps:
  - id: m
    title: {ja: 地図, en: map}
    op: MUL_MAT
    tensor_type: Q4_K
    variable: ne11
    source: {repository: example/repo}
    branches:
      - {bound: {le: 8}, family: mmvq}
      - {bound: {le: 256}, family: mmq}
      - {family: blas}
";

const OBSERVERS: &str = "- id: wrap
  name: wrap
  method: tool --wrap
  question: {ja: 問い, en: question}
  tried: {ja: 試した, en: tried}
  outcome: distorts
  showed: {ja: 見えた, en: showed}
  constraint: {ja: 歪む, en: distorts}
  as_of: \"2026-03-28\"
- id: counter
  name: counter
  method: counters
  question: {ja: 問い, en: question}
  tried: {ja: 試した, en: tried}
  outcome: works
  showed: {ja: 見えた, en: showed}
  constraint: {ja: なし, en: none}
  as_of: \"2026-04-01\"
";

const CLAIMS_BEFORE: &str = "- id: c1
  page: index
  can: {ja: 閾値がある, en: The thresholds exist}
  cannot: {ja: どの kernel が動いたか, en: Which kernel ran}
  evidence: [\"map:m\"]
  constraint: wrap
";

const CLAIMS_AFTER: &str = "- id: c1
  page: index
  can: {ja: どの kernel が動いたか, en: Which kernel ran}
  cannot: {ja: 各呼び出しの回数, en: How often each call ran}
  evidence: [\"map:m\", \"observer:counter\", \"run:r2\"]
  constraint: counter
";

const RUN1: &str = "id: r1
probe: proxy
date: \"2026-03-01\"
engine: ollama
origin: {ja: 試験, en: test}
assessed_against: m
cases:
  - {id: short, prompt_eval_count: 3, eval_count: 1}
  - {id: long, prompt_eval_count: 290, eval_count: 1}
";

const RUN2: &str = "id: r2
probe: proxy
date: \"2026-04-01\"
engine: ollama
origin: {ja: 試験, en: test}
assessed_against: m
cases:
  - {id: short, prompt_eval_count: 3, eval_count: 1}
  - {id: long, prompt_eval_count: 200, eval_count: 2}
";

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (p, t) in files {
        let path = dir.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, t).unwrap();
    }
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Std::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .unwrap();
    assert!(
        ok.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&ok.stderr)
    );
}

/// A repository with three commits: the base site, a moved claim plus a new run, and a
/// Japanese-only prose edit.
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    write(
        d,
        &[
            ("evidence.yaml", CONFIG),
            ("content/index.md", PAGE),
            ("data/dispatch.yaml", DISPATCH),
            ("data/observers.yaml", OBSERVERS),
            ("data/claims.yaml", CLAIMS_BEFORE),
            ("data/runs/r1.yaml", RUN1),
        ],
    );
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "base"]);
    write(
        d,
        &[
            ("data/claims.yaml", CLAIMS_AFTER),
            ("data/runs/r2.yaml", RUN2),
        ],
    );
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "counter observer and a new run"]);
    write(
        d,
        &[(
            "content/index.md",
            &PAGE.replace("最初の段落。", "最初の段落を書き直した。"),
        )],
    );
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "ja-only edit"]);
    dir
}

fn diff(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("evidence")
        .unwrap()
        .arg("diff")
        .args(args)
        .arg("--root")
        .arg(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn claim_move_and_new_run_in_text() {
    let repo = repo();
    let (code, out, _) = diff(repo.path(), &["HEAD~2", "HEAD~1"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("diff_text", out);
    assert!(out.contains("moved cannot-to-can"), "{out}");
    assert!(
        out.contains("evidence added: observer:counter, run:r2"),
        "{out}"
    );
    assert!(out.contains("long zone under m: blas → mmq"), "{out}");
}

#[test]
fn markdown_comment() {
    let repo = repo();
    let (code, out, _) = diff(repo.path(), &["HEAD~2", "HEAD~1", "--format", "markdown"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("### Evidence diff `HEAD~2` → `HEAD~1`"),
        "{out}"
    );
    assert!(out.contains("<details><summary>Claims (1)</summary>"));
    insta::assert_snapshot!("diff_markdown", out);
}

#[test]
fn json_schema_is_stable() {
    let repo = repo();
    let (code, out, _) = diff(repo.path(), &["HEAD~2", "HEAD~1", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["claims"][0]["moved"]["direction"], "cannot-to-can");
    assert_eq!(v["runs"]["added"][0]["id"], "r2");
    let case = &v["runs"]["latest"][0]["cases"][0];
    assert_eq!(case["case"], "long");
    assert_eq!(case["zones"][0]["old"], "blas");
    assert_eq!(case["zones"][0]["new"], "mmq");
    insta::assert_snapshot!("diff_json", out);
}

#[test]
fn japanese_only_edit_is_translation_drift() {
    let repo = repo();
    let (_, out, _) = diff(repo.path(), &["HEAD~1", "HEAD"]);
    assert!(out.contains("translation drift: only ja changed"), "{out}");
    let (_, json, _) = diff(repo.path(), &["HEAD~1", "HEAD", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["texts"][0]["drift"], true);
    assert_eq!(v["texts"][0]["langs"], serde_json::json!(["ja"]));
}

#[test]
fn working_tree_is_the_default_head_and_untouched() {
    let repo = repo();
    let before = std::fs::read_to_string(repo.path().join("content/index.md")).unwrap();
    let (code, out, _) = diff(repo.path(), &["HEAD", "--exit-code"]);
    assert_eq!(code, 0, "no differences: {out}");
    assert!(out.contains("no evidence changes"));
    let (code, _, _) = diff(repo.path(), &["HEAD~2", "--exit-code"]);
    assert_eq!(code, 1, "differences with --exit-code");
    assert_eq!(
        std::fs::read_to_string(repo.path().join("content/index.md")).unwrap(),
        before
    );
}

#[test]
fn map_change_lists_flipped_zones() {
    let repo = repo();
    write(
        repo.path(),
        &[(
            "data/dispatch.yaml",
            &DISPATCH.replace("{le: 256}", "{lt: 64}"),
        )],
    );
    let (_, out, _) = diff(repo.path(), &["HEAD"]);
    assert!(
        out.contains("flips r2/long (prompt_eval_count 200): mmq → blas"),
        "{out}"
    );
}

#[test]
fn two_folders() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let base = [
        ("evidence.yaml", CONFIG),
        ("content/index.md", PAGE),
        ("data/dispatch.yaml", DISPATCH),
    ];
    write(a.path(), &base);
    write(b.path(), &base);
    write(
        b.path(),
        &[("content/extra.md", &PAGE.replace("order: 0", "order: 1"))],
    );
    let (code, out, _) = diff(
        a.path(),
        &[a.path().to_str().unwrap(), b.path().to_str().unwrap()],
    );
    assert_eq!(code, 0);
    assert!(out.contains("Pages added\n  + extra"), "{out}");
}

#[test]
fn errors_exit_2() {
    let repo = repo();
    let (code, _, err) = diff(repo.path(), &["no-such-rev"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("`no-such-rev` is neither a folder nor a git revision"),
        "{err}"
    );

    let empty = tempfile::tempdir().unwrap();
    let (code, _, err) = diff(repo.path(), &[empty.path().to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("is not an evidence site"), "{err}");

    write(
        repo.path(),
        &[("data/claims.yaml", "- id: c1\n  page: index\n  bogus: 1\n")],
    );
    let (code, _, err) = diff(repo.path(), &["HEAD"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("the head (working tree) side does not load"),
        "{err}"
    );
    assert!(err.contains("data/claims.yaml:3:3"), "{err}");
}
