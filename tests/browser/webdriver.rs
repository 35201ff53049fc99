//! A small W3C WebDriver client for the browser tests: chromedriver as a child process,
//! headless Chromium, plain HTTP + JSON through ureq.
//!
//! [`Browser::start`] finds `chromium` and `chromedriver` (or `EVIDENCE_CHROMIUM` and
//! `EVIDENCE_CHROMEDRIVER`), starts the driver on a free loopback port and opens one
//! session; dropping the [`Browser`] ends the session and stops the driver. Every call has
//! a time limit and every wait loop is bounded.

#![allow(dead_code)]

use serde_json::{Value, json};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Why the browser tests cannot run here.
pub enum Unavailable {
    /// No browser or no driver on this machine.
    Missing(String),
    /// They are installed but did not start.
    Broken(String),
}

/// A running chromedriver with one open session.
pub struct Browser {
    driver: Child,
    base: String,
    session: String,
    agent: ureq::Agent,
    _profile: tempfile::TempDir,
}

/// The first of `names` found as a file on `PATH` (or given as an absolute path).
pub fn which(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    for name in names {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// A port that was free a moment ago.
pub fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("bind: {e}"))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("local_addr: {e}"))
}

/// A browser for `test`, or `None` (skipped, a failure under CI) when none is installed.
pub fn browser(test: &str) -> Option<Browser> {
    match Browser::start() {
        Ok(b) => Some(b),
        Err(Unavailable::Missing(why) | Unavailable::Broken(why)) => {
            crate::common::skip(
                test,
                &format!("{why} (apt-get install -y chromium chromium-driver)"),
            );
            None
        }
    }
}

impl Browser {
    /// Starts chromedriver and a headless Chromium session with a 1280×900 window.
    pub fn start() -> Result<Browser, Unavailable> {
        let chromium = which(
            "EVIDENCE_CHROMIUM",
            &[
                "chromium",
                "chromium-browser",
                "google-chrome-stable",
                "google-chrome",
            ],
        )
        .ok_or_else(|| Unavailable::Missing("no chromium on PATH".into()))?;
        let chromedriver = which("EVIDENCE_CHROMEDRIVER", &["chromedriver"])
            .or_else(|| {
                // GitHub's runners name the folder of their chromedriver in this variable.
                let dir = std::env::var_os("CHROMEWEBDRIVER")?;
                let p = PathBuf::from(dir).join("chromedriver");
                p.is_file().then_some(p)
            })
            .ok_or_else(|| Unavailable::Missing("no chromedriver on PATH".into()))?;
        let broken = Unavailable::Broken;
        let port = free_port().map_err(broken)?;
        let profile = tempfile::tempdir().map_err(|e| broken(format!("tempdir: {e}")))?;
        let driver = Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| broken(format!("cannot start {}: {e}", chromedriver.display())))?;
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(60)))
            .http_status_as_error(false)
            .build()
            .into();
        let mut b = Browser {
            driver,
            base: format!("http://127.0.0.1:{port}"),
            session: String::new(),
            agent,
            _profile: profile,
        };
        b.wait_ready().map_err(broken)?;
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "pageLoadStrategy": "normal",
            "timeouts": {"pageLoad": 30000, "script": 30000},
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {
                "binary": chromium.to_string_lossy(),
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--hide-scrollbars",
                    format!("--user-data-dir={}", b._profile.path().display()),
                    "--window-size=1280,900",
                ],
            },
        }}});
        let v = b
            .http("POST", "/session", Some(&caps))
            .map_err(|e| broken(format!("cannot open a session: {e}")))?;
        b.session = v["sessionId"]
            .as_str()
            .ok_or_else(|| broken(format!("no session id in {v}")))?
            .to_string();
        Ok(b)
    }

    fn wait_ready(&self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut last = String::new();
        while Instant::now() < deadline {
            match self.http("GET", "/status", None) {
                Ok(v) if v["ready"] == json!(true) => return Ok(()),
                Ok(v) => last = v.to_string(),
                Err(e) => last = e,
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(format!("chromedriver did not get ready: {last}"))
    }

    /// One request to the driver; the `value` of a successful reply.
    fn http(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let url = format!("{}{path}", self.base);
        let result = match (method, body) {
            ("GET", _) => self.agent.get(&url).call(),
            ("DELETE", _) => self.agent.delete(&url).call(),
            (_, b) => self
                .agent
                .post(&url)
                .header("Content-Type", "application/json")
                .send(b.unwrap_or(&json!({})).to_string()),
        };
        let mut resp = result.map_err(|e| format!("{method} {path}: {e}"))?;
        let status = resp.status().as_u16();
        let text = resp
            .body_mut()
            .with_config()
            .limit(512 * 1024 * 1024)
            .read_to_string()
            .map_err(|e| format!("{method} {path}: {e}"))?;
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{method} {path}: not JSON ({e}): {text:.200}"))?;
        let value = v.get("value").cloned().unwrap_or(Value::Null);
        if status >= 300 || value.get("error").is_some() {
            return Err(format!(
                "{method} {path}: {status} {}: {}",
                value["error"].as_str().unwrap_or("error"),
                value["message"]
                    .as_str()
                    .unwrap_or_default()
                    .lines()
                    .next()
                    .unwrap_or_default()
            ));
        }
        Ok(value)
    }

    /// A command of this session (`path` after `/session/{id}`).
    pub fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        self.http(
            method,
            &format!("/session/{}{path}", self.session),
            body.as_ref(),
        )
    }

    /// Navigates and waits for the load event.
    pub fn goto(&self, url: &str) -> Result<(), String> {
        self.cmd("POST", "/url", Some(json!({ "url": url })))
            .map(|_| ())
    }

    /// The current URL.
    pub fn url(&self) -> Result<String, String> {
        self.cmd("GET", "/url", None)
            .map(|v| v.as_str().unwrap_or_default().to_string())
    }

    /// Runs a script (a function body; `arguments` holds `args`) and returns its value.
    pub fn exec(&self, script: &str, args: Value) -> Result<Value, String> {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Runs an async script: it calls `arguments[arguments.length - 1]` with its result.
    pub fn exec_async(&self, script: &str, args: Value) -> Result<Value, String> {
        self.cmd(
            "POST",
            "/execute/async",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Sets the outer window size and returns the page's `innerWidth`.
    pub fn window(&self, width: u32, height: u32) -> Result<u64, String> {
        self.cmd(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        )?;
        // The resize lands asynchronously (late on a loaded machine): wait for the page to
        // see it, under a deadline that only catches a resize that never happens.
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let w = self.exec("return window.innerWidth", json!([]))?;
            let w = w.as_u64().unwrap_or_default();
            if w == u64::from(width) || Instant::now() >= deadline {
                return Ok(w);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A Chrome DevTools Protocol command.
    pub fn cdp(&self, cmd: &str, params: Value) -> Result<Value, String> {
        self.cmd(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": cmd, "params": params})),
        )
    }

    /// Emulates `prefers-color-scheme`.
    pub fn color_scheme(&self, dark: bool) -> Result<(), String> {
        let value = if dark { "dark" } else { "light" };
        self.cdp(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-color-scheme", "value": value}]}),
        )
        .map(|_| ())
    }

    /// Browser console entries since the last call: `(level, message)`.
    pub fn logs(&self) -> Result<Vec<(String, String)>, String> {
        let v = self.cmd("POST", "/se/log", Some(json!({"type": "browser"})))?;
        Ok(v.as_array()
            .map(|a| {
                a.iter()
                    .map(|e| {
                        (
                            e["level"].as_str().unwrap_or_default().to_string(),
                            e["message"].as_str().unwrap_or_default().to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default())
    }

    /// A PNG of the viewport.
    pub fn screenshot(&self) -> Result<Vec<u8>, String> {
        let v = self.cmd("GET", "/screenshot", None)?;
        base64_decode(v.as_str().unwrap_or_default())
    }

    /// A PNG of the whole page (at most `max_height` CSS pixels tall), through CDP;
    /// the viewport only when that fails.
    pub fn full_screenshot(&self, max_height: u32) -> Result<Vec<u8>, String> {
        let size = self.exec(
            "const e=document.documentElement;\
             return [Math.max(e.scrollWidth, window.innerWidth), Math.max(e.scrollHeight, document.body ? document.body.scrollHeight : 0)]",
            json!([]),
        )?;
        let w = size[0].as_f64().unwrap_or(1280.0);
        let h = size[1].as_f64().unwrap_or(900.0).min(f64::from(max_height));
        let shot = self.cdp(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true,
                   "clip": {"x": 0, "y": 0, "width": w, "height": h, "scale": 1}}),
        );
        match shot {
            Ok(v) => base64_decode(v["data"].as_str().unwrap_or_default()),
            Err(_) => self.screenshot(),
        }
    }

    /// Polls `script` (returning a truthy value when done) every 50 ms until `timeout`;
    /// script errors (a page mid-reload) count as "not yet". Returns the time it took.
    pub fn wait_for(&self, script: &str, timeout: Duration) -> Result<Duration, String> {
        let start = Instant::now();
        let mut last = String::new();
        while start.elapsed() < timeout {
            match self.exec(script, json!([])) {
                Ok(v) if truthy(&v) => return Ok(start.elapsed()),
                Ok(v) => last = v.to_string(),
                Err(e) => last = e,
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(format!(
            "not true after {timeout:?}: {script} (last: {last})"
        ))
    }
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.http("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (with or without padding) to bytes.
pub fn base64_decode(s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' | b'\n' | b'\r' => continue,
            _ => return Err(format!("not base64: {:?}", c as char)),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}

/// Width and height of a PNG, from its header.
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.len() < 24 || &png[..8] != b"\x89PNG\r\n\x1a\n" {
        return None;
    }
    let w = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
    let h = u32::from_be_bytes([png[20], png[21], png[22], png[23]]);
    Some((w, h))
}

/// Where screenshots go: `target/screenshots/<name>/` (kept by CI).
pub fn screenshot_dir(name: &str) -> PathBuf {
    // CARGO_TARGET_TMPDIR is `<target>/tmp`, wherever the target folder is.
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let target = tmp
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("screenshots").join(name)
}
