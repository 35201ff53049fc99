//! `evidence probe run NAME`: a probe the site declares in `data/probes/`, run with small
//! programs (`printf`, `cat`, `echo`, `sleep`, `yes`, `printenv`) in a site made by
//! `evidence init`. Each failure is a located error and leaves `data/runs/` as it was;
//! `check` judges a probe file without running it, and no other command runs one.

mod common;

use common::evidence;
use evidence::model::types::Run;
use std::path::Path;

/// A site from `evidence init` with a declared text and the probe file `body`.
fn site(body: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    evidence().arg("init").arg(dir.path()).assert().success();
    let vocab = dir.path().join("data/vocabulary.yaml");
    let mut text = std::fs::read_to_string(&vocab).expect("vocabulary");
    text.push_str("texts:\n  - id: node\n    label: {ja: \"節点\", en: \"node\"}\n");
    std::fs::write(&vocab, text).expect("vocabulary");
    std::fs::create_dir_all(dir.path().join("data/probes")).expect("probes");
    std::fs::write(dir.path().join("data/probes/t.yaml"), body).expect("probe file");
    dir
}

/// The names under data/runs/.
fn runs(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root.join("data/runs"))
        .expect("runs")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

const GOOD: &str = r#"probe: t
command: [printf, '{"load": %s, "plan": {"node": "%s"}}', "{load}", "{name}"]
output: json
timeout: 5s
measurements:
  queue_load: /load
texts:
  node: /plan/node
versions:
  tool: [printf, "tool 1.2\nsecond line\n"]
cases:
  - {id: quiet, params: {load: "0.0068", name: "Seq Scan"}}
  - {id: busy, params: {load: "0.75", name: "Index Scan"}}
"#;

/// Runs `evidence probe run t` and expects it to fail with `message` located at
/// `data/probes/t.yaml:line`, and nothing written.
fn refused(body: &str, line: usize, message: &str) {
    let dir = site(body);
    let before = runs(dir.path());
    let out = evidence()
        .args(["probe", "run", "t", "--root"])
        .arg(dir.path())
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(message), "expected `{message}` in:\n{err}");
    assert!(
        err.contains(&format!("--> data/probes/t.yaml:{line}:")),
        "expected line {line} in:\n{err}"
    );
    assert!(err.contains("nothing was recorded"), "{err}");
    assert_eq!(runs(dir.path()), before, "nothing is written");
}

#[test]
fn a_run_records_values_as_written_texts_versions_and_repeats() {
    evidence::packs::register();
    let dir = site(GOOD);
    let out = evidence()
        .args([
            "probe", "run", "t", "--repeat", "3", "--note", "first", "--root",
        ])
        .arg(dir.path())
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let new: Vec<String> = runs(dir.path())
        .into_iter()
        .filter(|n| n.starts_with("t-"))
        .collect();
    assert_eq!(new.len(), 1, "{new:?}");
    let text = std::fs::read_to_string(dir.path().join("data/runs").join(&new[0])).unwrap();
    assert!(text.contains("queue_load: 0.0068\n"), "{text}");
    assert!(text.contains("node: Seq Scan\n"), "{text}");
    // The note is the investigator's words as typed: stored once, in no language.
    assert!(text.contains("\nnote: first\n"), "{text}");
    let run: Run = serde_saphyr::from_str(&text).expect("the run reads back");
    assert_eq!(run.probe, "t");
    assert_eq!(
        run.versions.get("tool").map(String::as_str),
        Some("tool 1.2")
    );
    let ids: Vec<&str> = run.cases.iter().map(|c| c.id.value.as_str()).collect();
    assert_eq!(
        ids,
        [
            "quiet-r1", "busy-r1", "quiet-r2", "busy-r2", "quiet-r3", "busy-r3"
        ]
    );
    assert_eq!(run.cases[1].measurement("queue_load"), Some(0.75));
    assert_eq!(run.cases[1].text("node"), Some("Index Scan"));
    assert_eq!(
        run.recorded(),
        evidence::model::types::Recorded::Probe,
        "the probe file is the run's input"
    );
    // The site checks clean with the run, whose zones come from the map.
    evidence()
        .arg("check")
        .arg("--root")
        .arg(dir.path())
        .assert()
        .success();
}

#[test]
fn holes_are_single_arguments_never_a_shell() {
    evidence::packs::register();
    let body = GOOD.replace("Seq Scan", "$(touch pwned); echo x > pwned2");
    let dir = site(&body);
    evidence()
        .args(["probe", "run", "t", "--root"])
        .arg(dir.path())
        .assert()
        .success();
    assert!(!dir.path().join("pwned").exists());
    assert!(!dir.path().join("pwned2").exists());
    let run = runs(dir.path())
        .into_iter()
        .find(|n| n.starts_with("t-"))
        .unwrap();
    let text = std::fs::read_to_string(dir.path().join("data/runs").join(run)).unwrap();
    assert!(text.contains("$(touch pwned); echo x > pwned2"), "{text}");
}

#[test]
fn the_environment_is_clean_and_passed_values_are_not_recorded() {
    evidence::packs::register();
    // A variable the probe does not pass is not there: `printenv` fails.
    let leak = GOOD.replace(
        "  tool: [printf, \"tool 1.2\\nsecond line\\n\"]",
        "  leak: [printenv, EVIDENCE_TEST_LEAK]",
    );
    let dir = site(&leak);
    let out = evidence()
        .env("EVIDENCE_TEST_LEAK", "visible")
        .args(["probe", "run", "t", "--root"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exited with status 1"));
    // One it passes is there, and its value is recorded by name only.
    let passed = leak.replace("timeout: 5s", "timeout: 5s\nenv: [EVIDENCE_TEST_LEAK]");
    let dir = site(&passed);
    evidence()
        .env("EVIDENCE_TEST_LEAK", "hunter22-secret")
        .args(["probe", "run", "t", "--root"])
        .arg(dir.path())
        .assert()
        .success();
    let run = runs(dir.path())
        .into_iter()
        .find(|n| n.starts_with("t-"))
        .unwrap();
    let text = std::fs::read_to_string(dir.path().join("data/runs").join(run)).unwrap();
    assert!(!text.contains("hunter22"), "{text}");
    assert!(text.contains("leak: $EVIDENCE_TEST_LEAK"), "{text}");
}

#[test]
fn a_missing_measurement_is_located_at_its_pointer() {
    evidence::packs::register();
    refused(
        &GOOD.replace("queue_load: /load", "queue_load: /gone"),
        6,
        "case `quiet`: `printf",
    );
    refused(
        &GOOD.replace("queue_load: /load", "queue_load: /gone"),
        6,
        "the output has nothing at `/gone`",
    );
}

#[test]
fn a_measurement_that_is_not_a_number_is_refused() {
    evidence::packs::register();
    refused(
        &GOOD.replace("queue_load: /load", "queue_load: /plan/node"),
        6,
        "`/plan/node` is the string \"Seq Scan\", not a number",
    );
}

#[test]
fn a_text_that_is_not_a_string_is_refused() {
    evidence::packs::register();
    refused(
        &GOOD.replace("node: /plan/node", "node: /load"),
        8,
        "`/load` is the number 0.0068, not a string",
    );
}

#[test]
fn a_failing_command_is_refused_with_its_status_and_message() {
    evidence::packs::register();
    refused(
        &GOOD.replace(
            r#"[printf, '{"load": %s, "plan": {"node": "%s"}}', "{load}", "{name}"]"#,
            r#"[cat, "no-such-{load}-{name}"]"#,
        ),
        2,
        "exited with status 1: cat: 'no-such-0.0068-Seq Scan': No such file or directory",
    );
}

#[test]
fn output_that_is_not_json_is_refused() {
    evidence::packs::register();
    refused(
        &GOOD.replace(
            r#"[printf, '{"load": %s, "plan": {"node": "%s"}}', "{load}", "{name}"]"#,
            r#"[echo, "plan {load} {name}"]"#,
        ),
        2,
        "the output is not valid JSON",
    );
}

#[test]
fn a_command_past_its_time_limit_is_stopped() {
    evidence::packs::register();
    let body = GOOD
        .replace(
            r#"[printf, '{"load": %s, "plan": {"node": "%s"}}', "{load}", "{name}"]"#,
            r#"[sleep, "5"]"#,
        )
        .replace("timeout: 5s", "timeout: 300ms");
    let cases = body.find("cases:").unwrap();
    refused(
        &format!("{}cases:\n  - {{id: quiet}}\n", &body[..cases]),
        2,
        "did not finish within the time limit (300 ms)",
    );
}

#[test]
fn output_over_the_bound_is_refused() {
    evidence::packs::register();
    refused(
        &GOOD.replace(
            r#"[printf, '{"load": %s, "plan": {"node": "%s"}}', "{load}", "{name}"]"#,
            r#"[yes, "{load} {name}"]"#,
        ),
        2,
        "printed more than 16 MiB on stdout",
    );
}

#[test]
fn a_hole_naming_no_parameter_is_a_check_error_and_the_probe_does_not_run() {
    evidence::packs::register();
    let body = GOOD.replace("\"{name}\"]", "\"{nmae}\"]");
    refused(
        &body,
        2,
        "the hole `{nmae}` names no parameter of case `quiet`",
    );
    let dir = site(&body);
    let out = evidence()
        .arg("check")
        .arg("--root")
        .arg(dir.path())
        .output()
        .unwrap();
    let err =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("data/probes/t.yaml:2:"), "{err}");
    assert!(
        err.contains("parameter `name` of case `quiet` fills no hole"),
        "{err}"
    );
}

#[test]
fn check_locates_unknown_fields_and_undeclared_names() {
    evidence::packs::register();
    for (body, line, message) in [
        (
            GOOD.replace("output: json", "output: json\nshell: true"),
            4,
            "unknown field `shell`",
        ),
        (
            GOOD.replace("queue_load: /load", "queue_lode: /load"),
            6,
            "`queue_lode` is no measurement the site declares",
        ),
        (
            GOOD.replace("node: /plan/node", "nod: /plan/node"),
            8,
            "`nod` is no text the site declares",
        ),
    ] {
        let dir = site(&body);
        let out = evidence()
            .arg("check")
            .arg("--root")
            .arg(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains(message), "expected `{message}` in:\n{err}");
        assert!(
            err.contains(&format!("data/probes/t.yaml:{line}:")),
            "expected line {line} in:\n{err}"
        );
    }
}

#[test]
fn only_probe_run_runs_a_probe_file() {
    evidence::packs::register();
    let body = GOOD.replace(
        r#"[printf, '{"load": %s, "plan": {"node": "%s"}}', "{load}", "{name}"]"#,
        r#"[touch, "ran-{load}-{name}"]"#,
    );
    let dir = site(&body);
    evidence()
        .arg("check")
        .arg("--root")
        .arg(dir.path())
        .assert()
        .success();
    evidence()
        .arg("build")
        .arg("--root")
        .arg(dir.path())
        .assert()
        .success();
    let ran = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().starts_with("ran-"));
    assert!(!ran, "check and build never run a probe");
}

#[test]
fn the_postgres_example_checks_and_builds_clean() {
    evidence::packs::register();
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_dir(
        &common::manifest_dir().join("examples/postgres-planner"),
        dir.path(),
    );
    evidence()
        .arg("check")
        .arg("--root")
        .arg(dir.path())
        .assert()
        .success();
    evidence()
        .arg("build")
        .arg("--root")
        .arg(dir.path())
        .assert()
        .success();
    let page = std::fs::read_to_string(dir.path().join("site/en/index.html")).unwrap();
    assert!(
        page.contains("explain-analyze-"),
        "the recorded run is shown"
    );
    // A declared text has a column of its own, headed by its label.
    assert!(
        page.contains("<th scope=\"col\">scan</th>"),
        "the text's column"
    );
    assert!(page.contains("<td>Index Scan</td>"), "the text as recorded");
}

/// A server on 127.0.0.1 that answers each of `n` requests with a JSON body made from
/// the request's body (the `"load"` field it was sent, doubled) and hands back the
/// requests it read.
fn json_server(n: usize) -> (String, std::thread::JoinHandle<Vec<String>>) {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    let handle = std::thread::spawn(move || {
        let mut seen = Vec::new();
        for _ in 0..n {
            let (stream, _) = listener.accept().expect("accept");
            stream
                .set_read_timeout(Some(std::time::Duration::from_secs(10)))
                .expect("timeout");
            let mut reader = BufReader::new(stream);
            let mut head = String::new();
            let mut length = 0;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).expect("head");
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().expect("length");
                }
                head.push_str(&line);
                if line == "\r\n" || line.is_empty() {
                    break;
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).expect("body");
            let body = String::from_utf8(body).expect("utf-8");
            let sent: serde_json::Value = serde_json::from_str(&body).expect("a JSON body");
            let load: f64 = sent["load"]
                .as_str()
                .expect("load")
                .parse()
                .expect("number");
            let reply = format!(
                r#"{{"result": {{"load": {}, "node": "Hash Join"}}}}"#,
                load * 2.0
            );
            let mut stream = reader.into_inner();
            write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
                reply.len()
            )
            .expect("reply");
            seen.push(format!("{head}{body}"));
        }
        seen
    });
    (format!("http://{addr}"), handle)
}

/// The `request:` form against a real HTTP server on 127.0.0.1: each case's holes are
/// filled in the JSON body, the reply's values land in the run as the server wrote them.
#[test]
fn a_request_probe_posts_each_case_to_a_real_server() {
    evidence::packs::register();
    let (url, server) = json_server(2);
    let body = format!(
        r#"probe: t
request: {{method: POST, url: "{url}/explain", json: {{load: "{{load}}", label: "case {{name}}"}}}}
output: json
timeout: 5s
measurements:
  queue_load: /result/load
texts:
  node: /result/node
cases:
  - {{id: quiet, params: {{load: "0.0034", name: "a"}}}}
  - {{id: busy, params: {{load: "0.375", name: "b"}}}}
"#
    );
    let dir = site(&body);
    let out = evidence()
        .args(["probe", "run", "t", "--root"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen = server.join().expect("server");
    assert!(
        seen[0].starts_with("POST /explain HTTP/1.1\r\n"),
        "{}",
        seen[0]
    );
    assert!(seen[0].contains(r#""label":"case a""#), "{}", seen[0]);
    assert!(seen[1].contains(r#""load":"0.375""#), "{}", seen[1]);
    let new: Vec<String> = runs(dir.path())
        .into_iter()
        .filter(|n| n.starts_with("t-"))
        .collect();
    assert_eq!(new.len(), 1, "{new:?}");
    let text = std::fs::read_to_string(dir.path().join("data/runs").join(&new[0])).unwrap();
    assert!(text.contains("queue_load: 0.0068\n"), "{text}");
    assert!(text.contains("queue_load: 0.75\n"), "{text}");
    assert!(text.contains("node: Hash Join\n"), "{text}");
    evidence()
        .arg("check")
        .arg("--root")
        .arg(dir.path())
        .assert()
        .success();
}

/// The site of [`site`] with a subject of its own, `here`, declared to be on host
/// `elsewhere`, and a subject `there` to compare with.
fn site_with_subject() -> tempfile::TempDir {
    let dir = site(GOOD);
    let root = dir.path();
    let config = root.join("evidence.yaml");
    let mut text = std::fs::read_to_string(&config).expect("config");
    text.push_str("subject: here\n");
    std::fs::write(&config, text).expect("config");
    std::fs::write(
        root.join("data/subjects.yaml"),
        "- id: here\n  label: {ja: \"ここ\", en: \"here\"}\n  is: {host: elsewhere}\n\
         - id: there\n  label: {ja: \"あそこ\", en: \"there\"}\n",
    )
    .expect("subjects");
    dir
}

#[test]
fn a_run_whose_host_is_not_its_subjects_is_recorded_with_a_located_warning() {
    let dir = site_with_subject();
    let out = evidence()
        .env("EVIDENCE_HOST", "probe-box")
        .args(["probe", "run", "t", "--root"])
        .arg(dir.path())
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("warning"), "{err}");
    assert!(err.contains("`host: elsewhere`"), "{err}");
    assert!(err.contains("`environment.host: probe-box`"), "{err}");
    assert!(err.contains("--subject"), "{err}");
    // Placed at the value in the file just written.
    let new: Vec<String> = runs(dir.path())
        .into_iter()
        .filter(|n| n.starts_with("t-"))
        .collect();
    assert!(err.contains(&format!("--> data/runs/{}:", new[0])), "{err}");
    assert!(!err.contains("the site has errors"), "{err}");
    // `check` holds the site to it until the run's subject is said.
    let check = evidence()
        .args(["check", "--root"])
        .arg(dir.path())
        .output()
        .expect("check");
    assert_eq!(check.status.code(), Some(1));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    assert!(
        said.contains("error") && said.contains("`host: elsewhere`"),
        "{said}"
    );
    // With `--subject` the run is another subject's, and nothing is said.
    std::fs::remove_file(dir.path().join("data/runs").join(&new[0])).expect("remove");
    let out = evidence()
        .env("EVIDENCE_HOST", "probe-box")
        .args(["probe", "run", "t", "--subject", "there", "--root"])
        .arg(dir.path())
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("warning"), "{err}");
}
