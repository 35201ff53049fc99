//! `evidence probe ollama` and `evidence import ollama` against a local HTTP server that
//! replays responses of the documented Ollama API shape (tests/fixtures/probe/ollama/),
//! including faults: a refused connection, a reply slower than --timeout, HTTP 500,
//! truncated JSON, a connection cut mid-body and a response without counters. Each fault
//! must end with a message naming the case and the URL, a non-zero exit and no new file
//! in data/runs/.

mod common;
mod probe_support;

use evidence::packs::ggml::runs::{CacheDefeat, Counters, EngineCase, EngineRun, Residency};
use probe_support::*;
use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;

const MODEL: &str = "fixture";

fn fixture_text(name: &str) -> String {
    std::fs::read_to_string(fixture(&format!("ollama/{name}"))).expect("fixture")
}

/// Which case request (1-based, counting generate requests that carry a prompt) fails,
/// and how.
#[derive(Clone, Copy)]
enum Fault {
    None,
    Status500(usize),
    Slow(usize),
    Truncated(usize),
    CutBody(usize),
    NoCounters(usize),
}

/// A scripted Ollama: `/api/version`, `/api/show`, `/api/tags`, `/api/ps` and
/// `/api/generate` (load, unload, and generations whose prompt_eval_count is the prompt's
/// word count plus a 4-token template).
fn ollama(fault: Fault) -> Handler {
    let mut loaded = false;
    let mut generations = 0usize;
    Box::new(move |req: &Req| -> Reply {
        let ok = |v: String| Reply::Full(200, v);
        match (req.method.as_str(), req.path.as_str()) {
            ("GET", "/api/version") => ok(fixture_text("version.json")),
            ("POST", "/api/show") => {
                if req.json()["model"] == MODEL {
                    ok(fixture_text("show.json"))
                } else {
                    Reply::Full(404, r#"{"error":"model not found"}"#.into())
                }
            }
            ("GET", "/api/tags") => ok(fixture_text("tags.json")),
            ("GET", "/api/ps") => {
                if loaded {
                    ok(fixture_text("ps.json").replace("mistral:latest", "fixture:latest"))
                } else {
                    ok(r#"{"models":[]}"#.into())
                }
            }
            ("POST", "/api/generate") => {
                let body = req.json();
                let base = json!({"model": MODEL, "created_at": "2026-11-20T10:00:00.000000Z", "response": "", "done": true});
                let Some(prompt) = body["prompt"].as_str() else {
                    let mut r = base;
                    if body["keep_alive"] == json!(0) {
                        loaded = false;
                        r["done_reason"] = json!("unload");
                    } else {
                        loaded = true;
                        r["done_reason"] = json!("load");
                    }
                    return ok(r.to_string());
                };
                generations += 1;
                let was_loaded = loaded;
                loaded = true;
                let n = prompt.split_whitespace().count() as u64 + 4;
                let np = body["options"]["num_predict"].as_u64().unwrap_or(1);
                let full = json!({
                    "model": MODEL,
                    "created_at": format!("2026-11-20T10:00:{:02}.000000Z", generations % 60),
                    "response": "Hi",
                    "done": true,
                    "done_reason": "length",
                    "context": [1, 2, 3],
                    "total_duration": 900_000_000u64 + n,
                    "load_duration": if was_loaded { 5_000_000u64 } else { 2_000_000_000 },
                    "prompt_eval_count": n,
                    "prompt_eval_duration": n * 1_000_000 + generations as u64,
                    "eval_count": np,
                    "eval_duration": np * 20_000_000
                })
                .to_string();
                match fault {
                    Fault::Status500(k) if k == generations => Reply::Full(
                        500,
                        r#"{"error":"llama runner process has terminated: exit status 2"}"#.into(),
                    ),
                    Fault::Slow(k) if k == generations => {
                        Reply::Slow(Duration::from_secs(4), 200, full)
                    }
                    Fault::Truncated(k) if k == generations => {
                        Reply::Full(200, full[..full.len() / 2].to_string())
                    }
                    Fault::CutBody(k) if k == generations => {
                        Reply::Short(full[..full.len() / 2].to_string(), 100)
                    }
                    Fault::NoCounters(k) if k == generations => Reply::Full(
                        200,
                        json!({"model": MODEL, "created_at": "2026-11-20T10:00:00Z", "response": "Hi", "done": true, "done_reason": "stop"}).to_string(),
                    ),
                    _ => ok(full),
                }
            }
            _ => Reply::Full(404, r#"{"error":"not found"}"#.into()),
        }
    })
}

fn probe(root: &Path, url: &str, extra: &[&str]) -> Out {
    let mut cmd = evidence();
    cmd.args(["probe", "ollama", "--url", url, "--model", MODEL, "--root"])
        .arg(root);
    if !extra.contains(&"--sweep") {
        cmd.arg("--cases").arg(root.join("data/probes/cases.yaml"));
    }
    cmd.args(extra);
    run(&mut cmd)
}

#[test]
fn a_run_names_its_host_and_keeps_the_note() {
    evidence::packs::register();
    let site = site_copy();
    let root = site.path();
    let server = FakeServer::start(ollama(Fault::None));
    let mut cmd = evidence();
    cmd.env("EVIDENCE_HOST", "GPU-Box.A")
        .args([
            "probe",
            "ollama",
            "--url",
            &server.url,
            "--model",
            MODEL,
            "--root",
        ])
        .arg(root)
        .arg("--cases")
        .arg(root.join("data/probes/cases.yaml"))
        .args(["--note", "CPU build, 135M test model"]);
    let o = run(&mut cmd);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    let runs = runs(root);
    let (_, run) = &runs[0];
    // Parallel machines never collide: the id holds the host, then the time.
    assert!(
        run.id.value.starts_with("ollama-cases-gpu-box-a-20"),
        "{}",
        run.id.value
    );
    assert_eq!(
        run.environment.get("host").map(String::as_str),
        Some("gpu-box-a")
    );
    // The note is stored once, as typed: it is in no language of the site's.
    let note = run.note.as_ref().expect("the note");
    assert!(note.is_untranslated());
    assert!(note.iter().all(|(_, t)| t == "CPU build, 135M test model"));
    // The run's page shows it, with the host.
    let out = tempfile::tempdir().unwrap();
    let b = evidence()
        .args(["build", "--root"])
        .arg(root)
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    let page = std::fs::read_to_string(
        out.path()
            .join(format!("en/runs/{}/index.html", run.id.value)),
    )
    .unwrap();
    assert!(page.contains("Note: CPU build, 135M test model"), "no note");
    assert!(page.contains("host <code>gpu-box-a</code>"), "no host");
}

#[test]
fn probe_records_a_run_with_its_environment() {
    evidence::packs::register();
    let site = site_copy();
    let root = site.path();
    let server = FakeServer::start(ollama(Fault::None));
    let o = probe(root, &server.url, &[]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    assert!(
        o.stdout.contains("recorded run `ollama-cases-"),
        "{}",
        o.stdout
    );

    let runs = runs(root);
    assert_eq!(runs.len(), 1, "{:?}", run_dir_entries(root));
    let (path, run) = &runs[0];
    assert_eq!(
        path.file_name().and_then(|n| n.to_str()),
        Some(format!("{}.yaml", run.id.value).as_str())
    );
    assert_eq!(run.probe, "ollama-cases");
    assert_eq!(run.model().map(String::as_str), Some(MODEL));
    assert_eq!(
        run.endpoint().map(String::as_str),
        Some(server.url.as_str())
    );
    assert_eq!(
        run.versions.get("ollama").map(String::as_str),
        Some("0.5.1")
    );
    assert!(run.date.as_ref().is_some_and(|d| d.value.ends_with('Z')));
    let details = run.model_details().expect("model details");
    assert_eq!(details.family.as_deref(), Some("llama"));
    assert_eq!(details.parameter_size.as_deref(), Some("8.0B"));
    assert_eq!(details.quantization_level.as_deref(), Some("Q4_0"));
    assert!(
        details
            .digest
            .as_deref()
            .is_some_and(|d| d.starts_with("2ae6f6dd"))
    );
    assert_eq!(details.tensor_types.get("Q4_0"), Some(&3));
    assert_eq!(details.tensor_types.get("F32"), Some(&2));
    let loaded = run.loaded().copied().expect("size_vram from /api/ps");
    assert_eq!(
        (loaded.size, loaded.size_vram),
        (5_137_025_024, 5_137_025_024)
    );
    let settings = run.request().expect("request settings");
    assert_eq!(
        (settings.stream, settings.temperature, settings.seed),
        (false, 0.0, 42)
    );

    // Cases: counters as the server sent them, cache defeat by mode, no context array.
    let ids: Vec<_> = run.cases.iter().map(|c| c.id.value.as_str()).collect();
    assert_eq!(ids, ["short_np1", "medium_np1", "long_np4"]);
    let short = &run.cases[0];
    assert_eq!(short.cache_defeat().cloned(), Some(CacheDefeat::Nonce));
    let nonce = short.nonce().map(String::as_str).expect("nonce");
    assert!(short.prompt().is_some_and(|p| p.starts_with(nonce)));
    assert_eq!(short.counter("prompt_eval_count"), Some(4 + 4));
    assert_eq!(short.counter("eval_count"), Some(1));
    assert_eq!(short.done_reason().map(String::as_str), Some("length"));
    assert!(short.created_at().is_some() && short.started_at().is_some());
    let medium = &run.cases[1];
    assert_eq!(medium.mode().copied(), Some(Residency::Cold));
    assert_eq!(medium.cache_defeat().cloned(), Some(CacheDefeat::ColdStart));
    assert_eq!(medium.nonce().cloned(), None);
    assert_eq!(
        medium.counter("load_duration_ns"),
        Some(2_000_000_000),
        "the cold case loaded the model"
    );
    assert_eq!(run.cases[2].counter("eval_count"), Some(4));
    let text = std::fs::read_to_string(path).unwrap();
    assert!(
        !text.contains("context"),
        "the context array is not recorded:\n{text}"
    );

    // The requests: one at a time, stream false, temperature 0, fixed seed, unique
    // nonces, and an unload (keep_alive 0) confirmed by /api/ps before the cold case.
    let reqs = server.requests();
    let gens: Vec<Value> = reqs
        .iter()
        .filter(|r| r.path == "/api/generate")
        .map(Req::json)
        .collect();
    let with_prompt: Vec<&Value> = gens.iter().filter(|g| g["prompt"].is_string()).collect();
    assert_eq!(with_prompt.len(), 3);
    for g in &with_prompt {
        assert_eq!(g["stream"], json!(false));
        assert_eq!(g["options"]["temperature"], json!(0.0));
        assert_eq!(g["options"]["seed"], json!(42));
        assert!(g.get("keep_alive").is_none());
    }
    let unload = reqs
        .iter()
        .position(|r| r.path == "/api/generate" && r.json()["keep_alive"] == json!(0))
        .expect("an unload before the cold case");
    assert_eq!(
        reqs[unload + 1].path,
        "/api/ps",
        "unload is confirmed by /api/ps"
    );
    let cold = reqs
        .iter()
        .position(|r| {
            r.json()["prompt"]
                .as_str()
                .is_some_and(|p| p.contains("rainbow"))
        })
        .unwrap();
    assert!(unload < cold);

    check_ok(root);
    add_to_index(root, "::latest-run{probe=\"ollama-cases\"}");
    let out = build_ok(root);
    let html = std::fs::read_to_string(out.join("en/index.html")).unwrap();
    assert!(html.contains(&run.id.value));
    assert!(
        html.contains("unique nonce before the prompt"),
        "cache-defeat method shown"
    );
    assert!(html.contains("4.78 GiB / 4.78 GiB"), "offload shown");
    let runs_html = std::fs::read_to_string(out.join("en/runs/index.html")).unwrap();
    assert!(runs_html.contains(&format!("id=\"run-{}\"", run.id.value)));
    let link = format!("en/runs/{}/index.html\"", run.id.value);
    assert!(
        runs_html.contains(&link),
        "the index links to the run's page"
    );
    let page = std::fs::read_to_string(out.join(format!("en/runs/{}/index.html", run.id.value)))
        .expect("the run has its own page");
    assert!(page.contains(&format!("id=\"run-{}\"", run.id.value)));
    assert!(page.contains("unique nonce before the prompt"));
}

#[test]
fn a_second_run_is_compared_with_the_first() {
    evidence::packs::register();
    let site = site_copy();
    let root = site.path();
    let server = FakeServer::start(ollama(Fault::None));
    assert_eq!(probe(root, &server.url, &[]).code, 0);
    // Run ids have one-second resolution; the second run must sort after the first.
    std::thread::sleep(Duration::from_millis(1100));
    let o = probe(root, &server.url, &["--repeat", "2"]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    let runs = runs(root);
    assert_eq!(runs.len(), 2);
    let second = runs
        .iter()
        .map(|(_, r)| r)
        .max_by_key(|r| r.date.as_ref().map(|d| d.value.clone()))
        .unwrap();
    let ids: Vec<_> = second.cases.iter().map(|c| c.id.value.as_str()).collect();
    assert_eq!(
        ids,
        [
            "short_np1-r1",
            "medium_np1-r1",
            "long_np4-r1",
            "short_np1-r2",
            "medium_np1-r2",
            "long_np4-r2"
        ]
    );
    assert_eq!(
        second.cases[3]
            .repeat
            .as_ref()
            .map(|r| (r.of.as_str(), r.index)),
        Some(("short_np1", 2))
    );
    let nonces: std::collections::BTreeSet<_> = second
        .cases
        .iter()
        .filter_map(|c| c.nonce().cloned().clone())
        .collect();
    assert_eq!(nonces.len(), 4, "every hot request has its own nonce");

    add_to_index(root, "::latest-run{probe=\"ollama-cases\"}");
    let out = build_ok(root);
    let html = std::fs::read_to_string(out.join("en/index.html")).unwrap();
    assert!(
        html.contains(&format!("id=\"compare-{}\"", second.id.value)),
        "comparison table"
    );
    assert!(html.contains("Compared with the previous run"));
    assert!(html.contains("Δ since"), "delta column");
    assert!(html.contains("median of 1/2"), "repeats compared by median");
}

#[test]
fn a_sweep_calibrates_prompts_to_token_counts() {
    evidence::packs::register();
    let site = site_copy();
    let root = site.path();
    let server = FakeServer::start(ollama(Fault::None));
    let o = probe(root, &server.url, &["--sweep", "5..40", "--step", "5"]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    assert!(
        o.stderr.contains("below the smallest prompt"),
        "{}",
        o.stderr
    );
    let runs = runs(root);
    let run = &runs[0].1;
    assert_eq!(run.probe, "ollama-prompt-sweep");
    assert_eq!(
        run.sweep().map(|s| (s.from, s.to, s.step)),
        Some((5, 40, 5))
    );
    // One word + a 3-word nonce + 4 template tokens = 8: target 5 is out of reach.
    let got: Vec<(String, u64)> = run
        .cases
        .iter()
        .map(|c| (c.id.value.clone(), c.counter("prompt_eval_count").unwrap()))
        .collect();
    assert_eq!(got.first(), Some(&("sweep-10".to_string(), 10)));
    assert_eq!(got.len(), 7);
    for c in &run.cases {
        let p = c.sweep_point().copied().expect("sweep point");
        assert!(p.hit, "{:?}", c.id.value);
        assert_eq!(c.counter("prompt_eval_count"), Some(p.target));
        assert!(c.counter("prompt_eval_duration_ns").is_some());
        assert_eq!(c.prompt().cloned(), None, "sweep prompts are not stored");
    }
    check_ok(root);
    let out = build_ok(root);
    // The sweep's own page plots prompt-eval time against prompt tokens, by itself.
    let page = std::fs::read_to_string(out.join("en/runs").join(&run.id.value).join("index.html"))
        .expect("the run's page");
    assert!(page.contains("scatter-plot"), "no plot on the sweep's page");
    let figure = walkdir::WalkDir::new(out.join("figures"))
        .into_iter()
        .flatten()
        .find(|f| f.file_name().to_string_lossy().starts_with("scatter-"))
        .expect("a scatter figure");
    let svg = std::fs::read_to_string(figure.path()).expect("svg");
    assert!(
        svg.contains("<polyline") || svg.contains("<circle"),
        "{svg}"
    );
}

/// Runs a probe against a faulty server and checks the failure: exit code, a message
/// naming the case and the URL, and nothing new in data/runs/.
fn assert_fails(fault: Fault, case: &str, expect: &str, extra: &[&str]) {
    let site = site_copy();
    let root = site.path();
    let before = run_dir_entries(root);
    let server = FakeServer::start(ollama(fault));
    let o = probe(root, &server.url, extra);
    assert_ne!(o.code, 0, "the probe must fail:\n{}", o.stdout);
    assert!(
        o.stderr.contains(&format!("case `{case}`")),
        "names the case:\n{}",
        o.stderr
    );
    assert!(
        o.stderr.contains(&format!("{}/api/", server.url)),
        "names the URL:\n{}",
        o.stderr
    );
    assert!(o.stderr.contains(expect), "says `{expect}`:\n{}", o.stderr);
    assert!(o.stderr.contains("nothing was recorded"), "{}", o.stderr);
    assert_eq!(run_dir_entries(root), before, "no file in data/runs/");
}

#[test]
fn http_500_names_the_case() {
    evidence::packs::register();
    assert_fails(
        Fault::Status500(2),
        "medium_np1",
        "HTTP 500: llama runner process has terminated",
        &[],
    );
}

#[test]
fn truncated_json_names_the_case() {
    evidence::packs::register();
    assert_fails(Fault::Truncated(3), "long_np4", "truncated", &[]);
}

#[test]
fn a_connection_cut_mid_body_names_the_case() {
    evidence::packs::register();
    assert_fails(Fault::CutBody(1), "short_np1", "closed the connection", &[]);
}

#[test]
fn a_response_without_counters_names_the_case() {
    evidence::packs::register();
    assert_fails(
        Fault::NoCounters(2),
        "medium_np1",
        "has no `prompt_eval_count`",
        &[],
    );
}

#[test]
fn a_slow_reply_times_out_and_names_the_case() {
    evidence::packs::register();
    // The server sends a complete, valid reply after 4 s: only the 1 s timeout can make
    // the probe fail, and the message says which limit ended the wait.
    assert_fails(
        Fault::Slow(1),
        "short_np1",
        "no complete response within 1 s",
        &["--timeout", "1"],
    );
}

#[test]
fn a_server_that_goes_away_names_the_case() {
    evidence::packs::register();
    let site = site_copy();
    let root = site.path();
    // /api/version, /api/show, /api/tags answer; then the server stops listening.
    let server = FakeServer::start_limited(ollama(Fault::None), Some(3));
    let o = probe(root, &server.url, &[]);
    assert_ne!(o.code, 0);
    assert!(o.stderr.contains("case `short_np1`"), "{}", o.stderr);
    assert!(o.stderr.contains("connection refused"), "{}", o.stderr);
    assert!(o.stderr.contains(&server.url), "{}", o.stderr);
    assert!(run_dir_entries(root).is_empty());
}

#[test]
fn a_refused_connection_is_a_clear_error() {
    evidence::packs::register();
    let site = site_copy();
    let root = site.path();
    let url = format!("http://127.0.0.1:{}", free_port());
    let o = probe(root, &url, &[]);
    assert_ne!(o.code, 0);
    assert!(
        o.stderr
            .contains(&format!("GET {url}/api/version: connection refused")),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("is the server running"), "{}", o.stderr);
    assert!(run_dir_entries(root).is_empty());
}

#[test]
fn an_unknown_model_is_reported_before_any_case() {
    evidence::packs::register();
    let site = site_copy();
    let root = site.path();
    let server = FakeServer::start(ollama(Fault::None));
    let o = run(evidence()
        .args([
            "probe",
            "ollama",
            "--url",
            &server.url,
            "--model",
            "nope",
            "--root",
        ])
        .arg(root)
        .arg("--cases")
        .arg(root.join("data/probes/cases.yaml")));
    assert_ne!(o.code, 0);
    assert!(
        o.stderr.contains("HTTP 404: model not found"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("ollama pull nope"), "{}", o.stderr);
    assert!(!server.requests().iter().any(|r| r.path == "/api/generate"));
    assert!(run_dir_entries(root).is_empty());
}

#[test]
fn a_bad_cases_file_is_located_and_nothing_is_sent() {
    evidence::packs::register();
    let site = site_copy();
    let root = site.path();
    let cases = root.join("data/probes/bad.yaml");
    std::fs::write(
        &cases,
        "cases:\n  - id: a\n    prompt: x\n    num_predict: 1\n    mode: warm\n",
    )
    .unwrap();
    let server = FakeServer::start(ollama(Fault::None));
    let o = run(evidence()
        .args([
            "probe",
            "ollama",
            "--url",
            &server.url,
            "--model",
            MODEL,
            "--root",
        ])
        .arg(root)
        .arg("--cases")
        .arg(&cases));
    assert_ne!(o.code, 0);
    assert!(o.stderr.contains("bad.yaml:5:"), "located:\n{}", o.stderr);
    assert!(server.requests().is_empty(), "nothing was sent");
    assert!(run_dir_entries(root).is_empty());
}

#[test]
fn no_site_no_requests() {
    evidence::packs::register();
    let dir = tempfile::tempdir().unwrap();
    let server = FakeServer::start(ollama(Fault::None));
    let o = run(evidence()
        .args([
            "probe",
            "ollama",
            "--url",
            &server.url,
            "--model",
            MODEL,
            "--root",
        ])
        .arg(dir.path())
        .arg("--cases")
        .arg(fixture("site/data/probes/cases.yaml")));
    assert_ne!(o.code, 0);
    assert!(o.stderr.contains("holds no evidence.yaml"), "{}", o.stderr);
    assert!(server.requests().is_empty());
}

// ---------------------------------------------------------------- import

fn import(root: &Path, files: &[&Path], cases: &[&str]) -> Out {
    let mut cmd = evidence();
    cmd.args(["import", "ollama"]);
    for f in files {
        cmd.arg(f);
    }
    for c in cases {
        cmd.args(["--case", c]);
    }
    cmd.arg("--mode").arg("hot").arg("--root").arg(root);
    run(&mut cmd)
}

#[test]
fn import_records_a_json_response_and_a_stream_capture() {
    evidence::packs::register();
    let site = site_copy();
    let root = site.path();
    let json_file = fixture("ollama/generate.json");
    let stream_file = fixture("ollama/generate-stream.ndjson");
    // The two fixtures come from different models; import them one run each.
    let o = import(root, &[&stream_file], &["streamed"]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    let o = import(root, &[&json_file], &["saved"]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    let runs = runs(root);
    assert_eq!(runs.len(), 2);
    let by_case = |id: &str| {
        runs.iter()
            .map(|(_, r)| r)
            .find(|r| r.cases[0].id.value == id)
            .unwrap()
    };
    let s = by_case("streamed");
    assert_eq!(s.probe, "ollama-import");
    assert_eq!(s.model().map(String::as_str), Some("fixture"));
    assert_eq!(
        s.date.as_ref().map(|d| d.value.as_str()),
        Some("2026-11-20T10:00:00Z")
    );
    assert_eq!(s.cases[0].counter("prompt_eval_count"), Some(11));
    assert_eq!(s.cases[0].counter("eval_count"), Some(2));
    assert_eq!(s.cases[0].mode().copied(), Some(Residency::Hot));
    assert_eq!(
        s.cases[0].cache_defeat().cloned(),
        None,
        "unknown for a capture"
    );
    let j = by_case("saved");
    assert_eq!(j.model().map(String::as_str), Some("llama3.2"));
    assert_eq!(j.cases[0].counter("prompt_eval_count"), Some(26));
    assert_eq!(
        j.cases[0].counter("prompt_eval_duration_ns"),
        Some(325_953_000)
    );
    assert_eq!(
        j.date.as_ref().map(|d| d.value.as_str()),
        Some("2023-08-04T19:22:45Z")
    );
    check_ok(root);
    build_ok(root);
}

#[test]
fn import_refuses_bad_captures_and_missing_ids() {
    evidence::packs::register();
    let site = site_copy();
    let root = site.path();
    let cut = fixture("ollama/generate-stream-cut.ndjson");
    let o = import(root, &[&cut], &["c1"]);
    assert_ne!(o.code, 0);
    assert!(o.stderr.contains("case `c1`"), "{}", o.stderr);
    assert!(o.stderr.contains("cut short"), "{}", o.stderr);
    // Without --case and without a terminal on stdin, the ids cannot be asked for.
    let o = import(root, &[&fixture("ollama/generate.json")], &[]);
    assert_ne!(o.code, 0);
    assert!(o.stderr.contains("--case"), "{}", o.stderr);
    // A response without counters.
    let bare = root.join("bare.json");
    std::fs::write(&bare, r#"{"model":"m","done":true,"response":"x"}"#).unwrap();
    let o = import(root, &[&bare], &["bare"]);
    assert_ne!(o.code, 0);
    assert!(
        o.stderr.contains("has no `prompt_eval_count`"),
        "{}",
        o.stderr
    );
    assert!(run_dir_entries(root).is_empty());
}
