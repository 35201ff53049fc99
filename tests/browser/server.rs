//! `evidence serve` as a child process for tests: started on a free port, its printed URL
//! read back, its output lines collected, stopped with SIGINT.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running `evidence serve --port 0`.
pub struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub origin: String,
    lines: Receiver<String>,
    /// Everything printed to stderr so far (diagnostics, warnings).
    pub stderr: Arc<Mutex<String>>,
    /// Set once stderr is closed (the server exited and all it printed is in `stderr`).
    stderr_end: Arc<AtomicBool>,
}

/// Copies the inputs of the site at `from` (config, content, data, templates, locales,
/// static) to `to`; never `site/` or `target/`.
pub fn copy_site(from: &Path, to: &Path) {
    std::fs::copy(from.join("evidence.yaml"), to.join("evidence.yaml"))
        .unwrap_or_else(|e| panic!("copy evidence.yaml: {e}"));
    for folder in ["content", "data", "templates", "locales", "static"] {
        let src = from.join(folder);
        if !src.is_dir() {
            continue;
        }
        for entry in walkdir::WalkDir::new(&src) {
            let entry = entry.unwrap_or_else(|e| panic!("walk {}: {e}", src.display()));
            let Ok(rel) = entry.path().strip_prefix(from) else {
                continue;
            };
            let dest = to.join(rel);
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&dest)
                    .unwrap_or_else(|e| panic!("mkdir {}: {e}", dest.display()));
            } else {
                std::fs::copy(entry.path(), &dest)
                    .unwrap_or_else(|e| panic!("copy {}: {e}", rel.display()));
            }
        }
    }
}

impl Served {
    /// Starts `evidence serve --root ROOT --port 0` and waits (at most 60 s) for its URL.
    pub fn start(root: &Path) -> Served {
        Served::start_with(root, &[])
    }

    /// [`Served::start`] with more arguments (`--bind ADDR`).
    pub fn start_with(root: &Path, args: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_evidence"))
            .args(["serve", "--port", "0", "--root"])
            .arg(root)
            .args(args)
            .env("NO_COLOR", "1")
            .env("LC_ALL", "C")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start evidence serve: {e}"));
        let (tx, rx) = channel();
        if let Some(out) = child.stdout.take() {
            std::thread::spawn(move || {
                for line in BufReader::new(out).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        let stderr = Arc::new(Mutex::new(String::new()));
        let stderr_end = Arc::new(AtomicBool::new(false));
        if let Some(err) = child.stderr.take() {
            let (sink, end) = (stderr.clone(), stderr_end.clone());
            std::thread::spawn(move || {
                for line in BufReader::new(err).lines().map_while(Result::ok) {
                    if let Ok(mut s) = sink.lock() {
                        s.push_str(&line);
                        s.push('\n');
                    }
                }
                end.store(true, Ordering::SeqCst);
            });
        }
        let mut served = Served {
            child,
            origin: String::new(),
            lines: rx,
            stderr,
            stderr_end,
        };
        let line = served
            .wait_line(|l| l.starts_with("serving at "), Duration::from_secs(60))
            .unwrap_or_else(|| {
                panic!(
                    "evidence serve printed no URL; stderr:\n{}",
                    served.stderr_text()
                )
            });
        let url = line
            .trim_start_matches("serving at ")
            .split_whitespace()
            .next()
            .unwrap_or_default();
        served.origin = url.trim_end_matches('/').to_string();
        assert!(
            served.origin.starts_with("http://127.0.0.1:") && !served.origin.ends_with(":0"),
            "serve prints the actual loopback URL, got {line:?}"
        );
        served
    }

    /// The next printed line matching `pred`, waiting at most `timeout`.
    pub fn wait_line(&self, pred: impl Fn(&str) -> bool, timeout: Duration) -> Option<String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.checked_duration_since(Instant::now())?;
            match self.lines.recv_timeout(left) {
                Ok(l) if pred(&l) => return Some(l),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }

    /// Lines printed so far and not yet read.
    pub fn drain(&self) -> Vec<String> {
        self.lines.try_iter().collect()
    }

    /// Waits at most `timeout` for stderr to close (the server exited); whether it did.
    pub fn wait_stderr_end(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while !self.stderr_end.load(Ordering::SeqCst) {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        true
    }

    pub fn stderr_text(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGINT (as Ctrl-C does) and waits at most `timeout` for the exit.
    pub fn interrupt(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let sent = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status();
        if !sent.is_ok_and(|s| s.success()) {
            return None;
        }
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait()
            && self.interrupt(Duration::from_secs(5)).is_none()
        {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
