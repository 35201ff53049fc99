//! `evidence probe llama-server` end to end against a real llama.cpp server: the
//! `llama-server` built by `scripts/setup-llama-server.sh` (CPU build of the llama.cpp
//! vendored in llama-cpp-python 0.3.36) running SmolLM2-135M-Instruct Q4_1 on 127.0.0.1.
//!
//! The test skips (with a message) when the binary or the model is missing, except when
//! `CI=true`, where that is a failure. Paths: `EVIDENCE_LLAMA_SERVER` and
//! `EVIDENCE_TEST_MODEL`, else `${EVIDENCE_TEST_CACHE:-$HOME/.cache/evidence-tests}/
//! {bin/llama-server, models/SmolLM2-135M-Instruct.Q4_1.gguf}`.

mod common;
mod probe_support;

use evidence::model::types::Run;
use evidence::packs::ggml::runs::{CacheDefeat, Counters, EngineCase, EngineRun, Residency};
use probe_support::*;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const MODEL_FILE: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";

/// The server binary and the model, or `None` (skip) when they are missing outside CI.
fn inputs() -> Option<(PathBuf, PathBuf)> {
    let bin = std::env::var_os("EVIDENCE_LLAMA_SERVER")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::test_cache().join("bin/llama-server"));
    let model = std::env::var_os("EVIDENCE_TEST_MODEL")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::test_cache().join("models").join(MODEL_FILE));
    let missing: Vec<String> = [&bin, &model]
        .into_iter()
        .filter(|p| !p.is_file())
        .map(|p| p.display().to_string())
        .collect();
    if missing.is_empty() {
        return Some((bin, model));
    }
    let msg = format!(
        "llama-server test inputs missing ({}); run `bash scripts/setup-llama-server.sh`",
        missing.join(", ")
    );
    common::skip("probe_llama_server", &msg);
    None
}

/// A llama-server child process, killed on drop.
struct Server {
    child: Child,
    url: String,
    log: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    }
}

/// Starts llama-server on a free port of 127.0.0.1 and waits (at most two minutes) until
/// `/health` answers 200. Retries on another port if the first one was taken meanwhile.
fn start(bin: &Path, model: &Path, logs: &Path) -> Server {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(2)))
        .http_status_as_error(false)
        .build()
        .into();
    for attempt in 0..3 {
        let port = free_port();
        let log = logs.join(format!("llama-server-{attempt}.log"));
        let out = std::fs::File::create(&log).expect("log file");
        let err = out.try_clone().expect("log file");
        let child = Command::new(bin)
            .args(["-m"])
            .arg(model)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["-c", "2048", "-t", "2", "-np", "1", "--no-webui"])
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .expect("start llama-server");
        let mut server = Server {
            child,
            url: format!("http://127.0.0.1:{port}"),
            log,
        };
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if let Ok(Some(status)) = server.child.try_wait() {
                eprintln!("llama-server exited ({status}):\n{}", server.log_tail());
                break;
            }
            if let Ok(r) = agent.get(format!("{}/health", server.url)).call()
                && r.status().as_u16() == 200
            {
                return server;
            }
            assert!(
                Instant::now() < deadline,
                "llama-server did not become ready in 120 s:\n{}",
                server.log_tail()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        let _ = server.child.wait();
    }
    panic!("llama-server did not start");
}

/// The server's own token count for a prompt, as /completion tokenizes it: with the
/// special tokens (BOS when the model adds one) and special-token parsing on.
fn tokenize(url: &str, prompt: &str) -> usize {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into();
    let body = serde_json::json!({"content": prompt, "add_special": true, "parse_special": true});
    let text = agent
        .post(format!("{url}/tokenize"))
        .header("Content-Type", "application/json")
        .send(body.to_string())
        .expect("POST /tokenize")
        .body_mut()
        .read_to_string()
        .expect("read /tokenize");
    let v: serde_json::Value = serde_json::from_str(&text).expect("tokenize JSON");
    v["tokens"].as_array().expect("tokens").len()
}

fn probe(root: &Path, url: &str, extra: &[&str]) -> Out {
    let mut cmd = evidence();
    cmd.args([
        "probe",
        "llama-server",
        "--url",
        url,
        "--timeout",
        "120",
        "--root",
    ])
    .arg(root);
    if !extra.contains(&"--sweep") {
        cmd.arg("--cases").arg(root.join("data/probes/cases.yaml"));
    }
    cmd.args(extra);
    run(&mut cmd)
}

fn newest(root: &Path) -> Run {
    runs(root)
        .into_iter()
        .map(|(_, r)| r)
        .max_by_key(|r| (r.date.as_ref().map(|d| d.value.clone()), r.id.value.clone()))
        .expect("a run")
}

#[test]
fn llama_server_end_to_end() {
    evidence::packs::register();
    let Some((bin, model)) = inputs() else {
        return;
    };
    let t0 = Instant::now();
    let logs = tempfile::tempdir().expect("tempdir");
    let server = start(&bin, &model, logs.path());
    let started = t0.elapsed();
    let site = site_copy();
    let root = site.path();

    // First run.
    let o = probe(root, &server.url, &[]);
    assert_eq!(
        o.code,
        0,
        "{}\n{}\n{}",
        o.stdout,
        o.stderr,
        server.log_tail()
    );
    assert!(o.stderr.contains("cannot unload its model"), "{}", o.stderr);
    assert_eq!(runs(root).len(), 1);
    check_ok(root);
    let first = newest(root);
    assert_eq!(first.probe, "llama-server-cases");
    assert!(
        first.versions.contains_key("llama-server"),
        "{:?}",
        first.versions
    );
    let details = first.model_details().expect("model details");
    // The model file by its name alone: no local path reaches the site.
    assert_eq!(details.file.as_deref(), Some(MODEL_FILE));
    // …and by its hash, read here since the server runs on this machine.
    let want: String = {
        use sha2::Digest;
        let bytes = std::fs::read(common::test_cache().join("models").join(MODEL_FILE)).unwrap();
        sha2::Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    assert_eq!(details.digest, Some(format!("sha256:{want}")));
    assert_eq!(details.quantization_level.as_deref(), Some("Q4_1"));
    assert_eq!(first.request().and_then(|r| r.cache_prompt), Some(false));
    for c in &first.cases {
        let prompt = c.prompt().map(String::as_str).expect("prompt recorded");
        let n = c.counter("prompt_eval_count").expect("prompt_eval_count") as usize;
        assert_eq!(
            n,
            tokenize(&server.url, prompt),
            "case `{}`: prompt_n is the server's token count of the prompt",
            c.id.value
        );
        let ls = c.llama_server().expect("raw llama-server fields");
        assert_eq!(
            ls.timings.cache_n,
            Some(0),
            "cache_prompt: false leaves nothing cached"
        );
        assert_eq!(ls.timings.prompt_n, c.counter("prompt_eval_count"));
        assert!(
            c.counter("prompt_eval_duration_ns")
                .is_some_and(|ns| ns > 0)
        );
        let np = c.counter("num_predict").expect("num_predict");
        assert!(
            c.counter("eval_count").is_some_and(|e| e >= 1 && e <= np),
            "{:?}",
            c.counter("eval_count")
        );
        assert_eq!(
            c.mode().copied(),
            Some(Residency::Hot),
            "llama-server runs every case resident"
        );
        assert_eq!(c.cache_defeat().cloned(), Some(CacheDefeat::CachePromptOff));
    }
    let first_done = t0.elapsed();

    add_to_index(root, "::latest-run{probe=\"llama-server-cases\"}");
    let out = build_ok(root);
    let html = std::fs::read_to_string(out.join("en/index.html")).unwrap();
    assert!(
        html.contains(&first.id.value),
        "the run is in the latest-run table"
    );
    let runs_html = std::fs::read_to_string(out.join("en/runs/index.html")).unwrap();
    assert!(runs_html.contains(&format!("id=\"run-{}\"", first.id.value)));
    let page = format!("en/runs/{}/index.html", first.id.value);
    let run_html = std::fs::read_to_string(out.join(page)).expect("the run's own page");
    assert!(run_html.contains("cache_prompt: false"));

    // Second run: the tables compare it with the first.
    std::thread::sleep(Duration::from_millis(1100));
    let o = probe(root, &server.url, &[]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    let second = newest(root);
    assert_ne!(second.id.value, first.id.value);
    let out = build_ok(root);
    let html = std::fs::read_to_string(out.join("en/index.html")).unwrap();
    assert!(
        html.contains(&format!("id=\"compare-{}\"", second.id.value)),
        "comparison table"
    );
    assert!(
        html.contains(&format!("Δ since {}", first.id.value)),
        "delta column"
    );
    assert!(html.contains(" → "));

    // A sweep: every target reached exactly, and the server agrees with the count.
    let o = probe(root, &server.url, &["--sweep", "4..36", "--step", "8"]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    let sweep = runs(root)
        .into_iter()
        .map(|(_, r)| r)
        .find(|r| r.probe == "llama-server-prompt-sweep")
        .expect("sweep run");
    assert_eq!(sweep.cases.len(), 5);
    for c in &sweep.cases {
        let p = c.sweep_point().copied().expect("sweep point");
        assert!(
            p.hit,
            "target {} reached ({:?})",
            p.target,
            c.counter("prompt_eval_count")
        );
        let prompt = vec!["the"; p.words as usize].join(" ");
        assert_eq!(tokenize(&server.url, &prompt), p.target as usize);
    }
    check_ok(root);
    build_ok(root);
    eprintln!(
        "llama-server ready in {:.1} s; first run recorded at {:.1} s; whole test {:.1} s",
        started.as_secs_f64(),
        first_done.as_secs_f64(),
        t0.elapsed().as_secs_f64()
    );
}
