//! Helpers for the probe tests: the probe test site, the `evidence` binary, the run files
//! of a site, and a small HTTP server on 127.0.0.1 that replays scripted replies.

#![allow(dead_code)]

use assert_cmd::Command;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// A file of the probe fixtures, `tests/fixtures/probe/<path>`.
pub fn fixture(path: &str) -> PathBuf {
    crate::common::manifest_dir()
        .join("tests/fixtures/probe")
        .join(path)
}

/// A fresh copy of `tests/fixtures/probe/site` (no runs yet).
pub fn site_copy() -> TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    crate::common::copy_dir(&fixture("site"), dir.path());
    dir
}

/// The `evidence` binary of [`crate::common::evidence`], with a timeout: a probe that
/// hangs on a scripted server fails the test instead of stalling the suite.
pub fn evidence() -> Command {
    let mut cmd = crate::common::evidence();
    cmd.timeout(Duration::from_secs(300));
    cmd
}

/// Output of one command.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run(cmd: &mut Command) -> Out {
    let out = cmd.output().expect("run evidence");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Every entry of `<root>/data/runs/` (hidden and temporary files included), sorted.
pub fn run_dir_entries(root: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root.join("data/runs"))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The run files (`*.yaml`) of a site, parsed with evidence's own loader.
pub fn runs(root: &Path) -> Vec<(PathBuf, evidence::model::types::Run)> {
    let mut out = Vec::new();
    for name in run_dir_entries(root) {
        if !name.ends_with(".yaml") {
            continue;
        }
        let path = root.join("data/runs").join(&name);
        let text = std::fs::read_to_string(&path).expect("read run");
        let run = evidence::load::yaml::parse::<evidence::model::types::Run>(&name, &text, 0)
            .unwrap_or_else(|d| panic!("{name} does not load: {d:?}\n{text}"));
        out.push((path, run));
    }
    out
}

/// `evidence check --root`, asserting it is clean.
pub fn check_ok(root: &Path) {
    let o = run(evidence().arg("check").arg("--root").arg(root));
    assert_eq!(o.code, 0, "check failed:\n{}\n{}", o.stdout, o.stderr);
}

/// `evidence build --root <root> --out <root>/site`, asserting success.
pub fn build_ok(root: &Path) -> PathBuf {
    let out = root.join("site");
    let o = run(evidence()
        .arg("build")
        .arg("--root")
        .arg(root)
        .arg("--out")
        .arg(&out));
    assert_eq!(o.code, 0, "build failed:\n{}\n{}", o.stdout, o.stderr);
    out
}

/// Appends a directive to the site's home page.
pub fn add_to_index(root: &Path, directive: &str) {
    let p = root.join("content/index.md");
    let mut text = std::fs::read_to_string(&p).expect("read index");
    text.push_str(&format!("\n{directive}\n"));
    std::fs::write(p, text).expect("write index");
}

/// A port nothing listens on (bound, then released).
pub fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

// ---------------------------------------------------------------- the fake server

/// A request the fake server received.
#[derive(Debug, Clone)]
pub struct Req {
    pub method: String,
    pub path: String,
    pub body: String,
}

impl Req {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

/// What the server does with a request.
pub enum Reply {
    /// Status and body, with a correct Content-Length.
    Full(u16, String),
    /// Wait, then reply.
    Slow(Duration, u16, String),
    /// Announce `body.len() + extra` bytes, send `body`, close.
    Short(String, usize),
}

pub type Handler = Box<dyn FnMut(&Req) -> Reply + Send>;

/// An HTTP/1.1 server on 127.0.0.1, one request per connection, replies from a handler.
pub struct FakeServer {
    pub url: String,
    pub requests: Arc<Mutex<Vec<Req>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl FakeServer {
    pub fn start(handler: Handler) -> FakeServer {
        FakeServer::start_limited(handler, None)
    }

    /// A server that stops listening after `refuse_after` requests: later connections
    /// are refused, as when the server goes down mid-run.
    pub fn start_limited(handler: Handler, refuse_after: Option<usize>) -> FakeServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        listener.set_nonblocking(true).expect("nonblocking");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler = Arc::new(Mutex::new(handler));
        let (reqs, stop2) = (requests.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            let mut listener = Some(listener);
            // Bounded: the server lives at most ten minutes.
            let deadline = Instant::now() + Duration::from_secs(600);
            while !stop2.load(Ordering::SeqCst) && Instant::now() < deadline {
                let Some(l) = &listener else {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                };
                match l.accept() {
                    Ok((stream, _)) => {
                        let Some(req) = read_request(&stream) else {
                            continue;
                        };
                        let served = {
                            let mut r = reqs.lock().expect("lock");
                            r.push(req.clone());
                            r.len()
                        };
                        let reply = (handler.lock().expect("lock"))(&req);
                        if refuse_after.is_some_and(|n| served >= n) {
                            listener = None;
                        }
                        // Reply on its own thread so a slow reply does not block others.
                        std::thread::spawn(move || write_reply(stream, reply));
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        FakeServer {
            url,
            requests,
            stop,
            thread: Some(thread),
        }
    }

    pub fn requests(&self) -> Vec<Req> {
        self.requests.lock().expect("lock").clone()
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn read_request(stream: &TcpStream) -> Option<Req> {
    let mut stream = stream.try_clone().ok()?;
    stream.set_nonblocking(false).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let header_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        if buf.len() > 1 << 20 {
            return None;
        }
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..header_end]).into_owned();
    let mut lines = head.lines();
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_string();
    let path = first.next()?.to_string();
    let len: usize = lines
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(0);
    let mut body = buf[header_end..].to_vec();
    while body.len() < len {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(Req {
        method,
        path,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

fn write_reply(mut stream: TcpStream, reply: Reply) {
    let _ = stream.set_nonblocking(false);
    let (status, body, announced) = match reply {
        Reply::Full(s, b) => {
            let n = b.len();
            (s, b, n)
        }
        Reply::Slow(d, s, b) => {
            std::thread::sleep(d);
            let n = b.len();
            (s, b, n)
        }
        Reply::Short(b, extra) => {
            let n = b.len() + extra;
            (200, b, n)
        }
    };
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        500 => "Internal Server Error",
        _ => "Status",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: {announced}\r\nConnection: close\r\n\r\n"
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
    let _ = stream.flush();
}
