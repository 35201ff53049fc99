//! `evidence serve` without a browser: raw HTTP requests over TCP against the server
//! running on a copy of the valid fixture. Content types, the 404 page, no directory
//! listing, path traversal, the reload script (served, never written), the event stream,
//! the error overlay over the last good site, the Host check, the bound on request heads,
//! and a clean exit on SIGINT.
//!
//! No test measures time: each waits for its event (a reply, a printed line, a streamed
//! version) under one generous [`DEADLINE`] that fails the test only if the event never
//! comes.

#[path = "browser/server.rs"]
mod server;

use server::{Served, copy_site};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long any awaited event may take before the test gives up on it.
const DEADLINE: Duration = Duration::from_secs(60);

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/valid")
}

/// A copy of the valid fixture, with a secret next to it and one inside it that must
/// never be served.
fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let root = dir.path().join("site-root");
    std::fs::create_dir_all(&root).unwrap_or_else(|e| panic!("mkdir: {e}"));
    copy_site(&fixture(), &root);
    std::fs::write(dir.path().join("secret.txt"), "TOP-SECRET-OUTSIDE\n").ok();
    std::fs::write(root.join("secret.txt"), "TOP-SECRET-ROOT\n").ok();
    std::fs::write(root.join("data/secret.txt"), "TOP-SECRET-DATA\n").ok();
    dir
}

fn root(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("site-root")
}

/// A reply read off the socket.
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends `request` as is (so that no client normalises the path) and reads the reply.
fn raw(origin: &str, request: &str) -> Reply {
    let addr = origin.trim_start_matches("http://");
    let mut s = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    s.set_read_timeout(Some(DEADLINE)).ok();
    s.write_all(request.as_bytes())
        .unwrap_or_else(|e| panic!("write: {e}"));
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    parse(&buf).unwrap_or_else(|| panic!("no HTTP reply to {request:?}: {buf:?}"))
}

fn parse(buf: &[u8]) -> Option<Reply> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&buf[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    Some(Reply {
        status,
        headers,
        body: buf[end + 4..].to_vec(),
    })
}

fn get(origin: &str, target: &str) -> Reply {
    raw(
        origin,
        &format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
    )
}

#[test]
fn serves_files_with_their_content_types() {
    evidence::packs::register();
    let dir = site();
    // A sitemap is written only with a base_url.
    let config = root(&dir).join("evidence.yaml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("base_url: \"https://fixture.invalid/\"\n");
    std::fs::write(&config, text).unwrap();
    let srv = Served::start(&root(&dir));
    let o = &srv.origin;
    for (target, ct) in [
        ("/", "text/html; charset=utf-8"),
        ("/index.html", "text/html; charset=utf-8"),
        ("/ja/", "text/html; charset=utf-8"),
        ("/en/details/", "text/html; charset=utf-8"),
        ("/static/style.css", "text/css; charset=utf-8"),
        ("/evidence.json", "application/json; charset=utf-8"),
        ("/sitemap.xml", "application/xml; charset=utf-8"),
    ] {
        let r = get(o, target);
        assert_eq!(r.status, 200, "{target}");
        assert_eq!(r.header("Content-Type"), Some(ct), "{target}");
        assert_eq!(r.header("X-Content-Type-Options"), Some("nosniff"));
        assert_eq!(
            r.header("Content-Length").and_then(|l| l.parse().ok()),
            Some(r.body.len()),
            "{target}"
        );
    }
    // Any SVG the site has is served as image/svg+xml.
    let json = get(o, "/sitemap.xml").text();
    assert!(json.contains("<urlset"));
    // HEAD: headers without a body.
    let r = raw(
        o,
        "HEAD /index.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(r.status, 200);
    assert!(r.body.is_empty());
    // Other methods are refused.
    let r = raw(
        o,
        "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(r.status, 405);
    assert_eq!(r.header("Allow"), Some("GET, HEAD"));
}

#[test]
fn svg_files_are_image_svg_xml() {
    evidence::packs::register();
    // A figure directive makes the site write a standalone SVG.
    let dir = site();
    let r = root(&dir);
    let details = r.join("content/details.md");
    let mut text = std::fs::read_to_string(&details).unwrap_or_default();
    text.push_str("\n::observer-map\n");
    std::fs::write(&details, text).unwrap_or_else(|e| panic!("write: {e}"));
    let outcome = evidence::pipeline::run(&r);
    let Some(built) = outcome.site.filter(|_| !outcome.diagnostics.has_errors()) else {
        panic!("the fixture with a figure builds")
    };
    let Some(svg) = built.files.keys().find(|k| k.ends_with(".svg")) else {
        panic!("::observer-map writes an SVG file")
    };
    let srv = Served::start(&r);
    let reply = get(&srv.origin, &format!("/{svg}"));
    assert_eq!(reply.status, 200, "{svg}");
    assert_eq!(
        reply.header("Content-Type"),
        Some("image/svg+xml; charset=utf-8")
    );
    assert!(reply.text().contains("<svg"));
    assert!(!reply.text().contains("__evidence"), "no script in an SVG");
}

#[test]
fn missing_files_get_the_404_page_and_folders_no_listing() {
    evidence::packs::register();
    let dir = site();
    let srv = Served::start(&root(&dir));
    let o = &srv.origin;
    let page_404 = get(o, "/404.html");
    assert_eq!(page_404.status, 200);
    for target in [
        "/no-such-page/",
        "/no-such-file.html",
        "/static/",
        "/static",
        "/ja/static/",
        "/data/",
        "/content/index.md",
        "/evidence.yaml",
        "/secret.txt",
        "/data/secret.txt",
    ] {
        let r = get(o, target);
        assert_eq!(r.status, 404, "{target}");
        assert_eq!(r.header("Content-Type"), Some("text/html; charset=utf-8"));
        let body = r.text();
        assert!(
            body.contains("<h1>404</h1>"),
            "{target}: the site's 404 page"
        );
        assert_eq!(body, page_404.text(), "{target}: the 404 page, no listing");
        assert!(!body.contains("TOP-SECRET"));
    }
    // A folder without its slash is sent to it, so that relative links work.
    let r = get(o, "/details");
    assert_eq!(r.status, 302);
    assert_eq!(r.header("Location"), Some("/details/"));
    assert_eq!(get(o, "/details/").status, 200);
}

#[test]
fn path_traversal_is_refused() {
    evidence::packs::register();
    let dir = site();
    let srv = Served::start(&root(&dir));
    let o = &srv.origin;
    for target in [
        "/../Cargo.toml",
        "/../secret.txt",
        "/../../secret.txt",
        "/static/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/..%2f..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt",
        "/static/..%5c..%5csecret.txt",
        "/static\\..\\..\\secret.txt",
        "/..\\secret.txt",
        "/%5c..%5csecret.txt",
        "/%252e%252e/secret.txt",
        "//secret.txt",
        "///etc/passwd",
        "/etc/passwd",
        "/C:/Windows/win.ini",
        "/c%3a/Windows/win.ini",
        "/%00/secret.txt",
        "/secret.txt%00.html",
        "/data/secret.txt",
        "/..",
        "/.%2e/secret.txt",
        "secret.txt",
        "http://127.0.0.1/../secret.txt",
    ] {
        let r = get(o, target);
        assert!(
            r.status == 400 || r.status == 404,
            "{target}: status {}",
            r.status
        );
        let body = r.text();
        assert!(!body.contains("TOP-SECRET"), "{target} served a secret");
        assert!(!body.contains("root:"), "{target} served /etc/passwd");
        assert!(!body.contains("[package]"), "{target} served Cargo.toml");
    }
    // The server is still up and well.
    assert_eq!(get(o, "/").status, 200);
}

/// A request for `target` naming `host` (none if `None`).
fn get_as(origin: &str, target: &str, host: Option<&str>) -> Reply {
    let host = host.map(|h| format!("Host: {h}\r\n")).unwrap_or_default();
    raw(
        origin,
        &format!("GET {target} HTTP/1.1\r\n{host}Connection: close\r\n\r\n"),
    )
}

/// Asserts that `r` is the short 421 reply and shows nothing of the site.
fn assert_misdirected(r: &Reply, what: &str) {
    assert_eq!(r.status, 421, "{what}");
    assert_eq!(r.header("Content-Type"), Some("text/plain; charset=utf-8"));
    let body = r.text();
    assert!(body.len() < 300, "{what}: a short body, got {body:?}");
    for leak in [
        "<",
        "__evidence",
        "evidence-error-overlay",
        "bundles",
        "Bundle",
    ] {
        assert!(!body.contains(leak), "{what}: {leak:?} in {body:?}");
    }
}

#[test]
fn only_names_of_this_server_are_answered() {
    evidence::packs::register();
    let dir = site();
    let srv = Served::start(&root(&dir));
    let o = &srv.origin;
    let port = o.rsplit(':').next().unwrap_or_default();
    for host in [
        "localhost".to_string(),
        "LocalHost".into(),
        format!("localhost:{port}"),
        "127.0.0.1".into(),
        format!("127.0.0.1:{port}"),
        "[::1]".into(),
        format!("[::1]:{port}"),
    ] {
        assert_eq!(get_as(o, "/", Some(&host)).status, 200, "Host: {host}");
    }
    // HTTP/1.0 has no Host header.
    assert_eq!(raw(o, "GET / HTTP/1.0\r\n\r\n").status, 200);
    // DNS rebinding: a page of evil.example whose name now points to 127.0.0.1.
    for host in [
        "evil.example".to_string(),
        format!("evil.example:{port}"),
        "127.0.0.1.evil.example".into(),
        "localhost.evil.example".into(),
        "localhost:1".into(),
        "127.0.0.2".into(),
        "0.0.0.0".into(),
        "[::2]".into(),
        "".into(),
    ] {
        for target in ["/", "/en/", "/no-such-page/", "/__evidence/events"] {
            assert_misdirected(&get_as(o, target, Some(&host)), &format!("{host} {target}"));
        }
    }
    let r = get_as(o, "/", None);
    assert_eq!(r.status, 400, "HTTP/1.1 without Host");
    let r = raw(
        o,
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(r.status, 400, "two Host fields");
}

#[test]
fn a_foreign_host_never_sees_the_error_overlay() {
    evidence::packs::register();
    let dir = site();
    let r = root(&dir);
    let bundles = r.join("data/bundles.yaml");
    let good = std::fs::read_to_string(&bundles).unwrap_or_default();
    std::fs::write(&bundles, good.replacen("size_kb: 12", "size_kb: [", 1))
        .unwrap_or_else(|e| panic!("write: {e}"));
    let srv = Served::start(&r);
    assert_eq!(get(&srv.origin, "/").status, 500, "the error page, to us");
    assert_misdirected(
        &get_as(&srv.origin, "/", Some("evil.example")),
        "the error page, to evil.example",
    );
}

/// Sends a request whose header section holds `pad` bytes of `X-Pad` fields (then its
/// end), reading the reply while it is still being sent. Returns the reply and whether
/// the server then closed the connection.
fn oversized(origin: &str, pad: usize) -> (Reply, bool) {
    let addr = origin.trim_start_matches("http://");
    let mut s = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    let w = s.try_clone().unwrap_or_else(|e| panic!("clone: {e}"));
    let writer = std::thread::spawn(move || {
        let line = format!("X-Pad: {}\r\n", "a".repeat(1016));
        let mut w = std::io::BufWriter::with_capacity(64 * 1024, w);
        let mut ok = w
            .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            .is_ok();
        for _ in 0..pad / line.len() {
            ok = ok && w.write_all(line.as_bytes()).is_ok();
        }
        // The server may stop reading once it has refused the request.
        let _ = w.write_all(b"\r\n").and_then(|()| w.flush());
    });
    s.set_read_timeout(Some(DEADLINE)).ok();
    let mut got = Vec::new();
    let mut buf = [0u8; 8192];
    let closed = loop {
        match s.read(&mut buf) {
            Ok(0) => break true,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) => {
                break !matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                );
            }
        }
    };
    let _ = writer.join();
    let reply = parse(&got).unwrap_or_else(|| panic!("no HTTP reply: {got:?}"));
    (reply, closed)
}

#[test]
fn a_header_section_over_64_kib_gets_431() {
    evidence::packs::register();
    let dir = site();
    let srv = Served::start(&root(&dir));
    let (r, closed) = oversized(&srv.origin, 1 << 20);
    assert_eq!(r.status, 431, "{}", r.text());
    assert_eq!(r.header("Connection"), Some("close"));
    assert!(closed, "the connection is closed after a 431");
    // Just under the bound is a request like any other.
    let (r, _) = oversized(&srv.origin, 60 * 1024);
    assert_eq!(r.status, 200);
    assert_eq!(get(&srv.origin, "/").status, 200, "the server is still up");
}

/// Issue 39, defect 9: after a 431 the server went on reading and dropping what the
/// client sent, for up to 5 s. Now it closes the connection at once: the 431 arrives, then
/// the end of the stream, and what the client sends next is refused (a reset), where the
/// old server took it all in silently.
#[test]
fn a_431_closes_the_connection_at_once() {
    evidence::packs::register();
    let dir = site();
    let srv = Served::start(&root(&dir));
    let addr = srv.origin.trim_start_matches("http://");
    let mut s = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    let line = format!("X-Pad: {}\r\n", "a".repeat(1016));
    let mut head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".to_vec();
    for _ in 0..100 {
        head.extend_from_slice(line.as_bytes());
    }
    // 100 KiB of header, no end: the server may refuse and close before it has all.
    let _ = s.write_all(&head);
    s.set_read_timeout(Some(DEADLINE)).ok();
    let mut got = Vec::new();
    let mut buf = [0u8; 8192];
    let ended = loop {
        match s.read(&mut buf) {
            Ok(0) => break true,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) => {
                break !matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                );
            }
        }
    };
    let reply = parse(&got).unwrap_or_else(|| panic!("no HTTP reply: {got:?}"));
    assert_eq!(reply.status, 431, "{}", reply.text());
    assert!(ended, "the stream ends after the 431");
    // Nobody reads the connection any more: sending on it fails (the first write after
    // the close draws a reset). A lingering server reads these for seconds.
    let refused = (0..100).any(|_| {
        let failed = s.write_all(line.as_bytes()).is_err();
        std::thread::sleep(Duration::from_millis(10));
        failed
    });
    assert!(
        refused,
        "the server still reads the connection after its 431"
    );
    assert_eq!(get(&srv.origin, "/").status, 200, "the server is still up");
}

/// Peak resident memory of a process, in KiB (`VmHWM` of `/proc/PID/status`).
#[cfg(target_os = "linux")]
fn peak_rss_kib(pid: u32) -> u64 {
    let path = format!("/proc/{pid}/status");
    let status = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no VmHWM in {path}:\n{status}"))
}

#[cfg(target_os = "linux")]
#[test]
fn a_huge_header_section_is_never_buffered() {
    evidence::packs::register();
    let dir = site();
    let srv = Served::start(&root(&dir));
    assert_eq!(get(&srv.origin, "/").status, 200);
    let before = peak_rss_kib(srv.pid());
    let (r, closed) = oversized(&srv.origin, 64 << 20);
    let after = peak_rss_kib(srv.pid());
    assert!(
        after < before + 16 * 1024,
        "64 MiB of header grew the server's peak memory from {before} KiB to {after} KiB"
    );
    assert_eq!(r.status, 431);
    assert!(closed);
    assert_eq!(get(&srv.origin, "/").status, 200, "the server is still up");
}

#[test]
fn reload_script_is_served_but_never_written() {
    evidence::packs::register();
    let dir = site();
    let r = root(&dir);
    let srv = Served::start(&r);
    let html = get(&srv.origin, "/").text();
    assert!(html.contains("/__evidence/events"), "script injected");
    assert!(html.contains("EventSource"));
    let pos_script = html.find("/__evidence/events").unwrap_or(0);
    let pos_body = html.rfind("</body>").unwrap_or(0);
    assert!(pos_script < pos_body, "the script sits inside <body>");
    assert!(
        !html.contains("evidence-error-overlay"),
        "no errors, no overlay"
    );
    // Not in other types.
    assert!(
        !get(&srv.origin, "/static/style.css")
            .text()
            .contains("__evidence")
    );
    assert!(
        !get(&srv.origin, "/evidence.json")
            .text()
            .contains("__evidence")
    );
    // Serving never wrote site/.
    assert!(!r.join("site").exists(), "serve does not write site/");
    drop(srv);
    // And a build writes no script.
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(["build", "--root"])
        .arg(&r)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("build: {e}"));
    assert!(status.success());
    let mut html_files = 0;
    for entry in walkdir::WalkDir::new(r.join("site")).into_iter().flatten() {
        if entry.file_type().is_file() {
            let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
            assert!(
                !text.contains("__evidence") && !text.contains("EventSource"),
                "{} holds the reload script",
                entry.path().display()
            );
            html_files += usize::from(entry.path().extension().is_some_and(|e| e == "html"));
        }
    }
    assert!(html_files >= 6);
}

/// Reads from an open event stream until `want` shows up; false if the stream ends or
/// [`DEADLINE`] passes first.
fn read_until(s: &mut TcpStream, got: &mut String, want: &str) -> bool {
    let deadline = Instant::now() + DEADLINE;
    let mut buf = [0u8; 4096];
    while !got.contains(want) {
        let Some(left) = deadline.checked_duration_since(Instant::now()) else {
            return false;
        };
        s.set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .ok();
        match s.read(&mut buf) {
            Ok(0) | Err(_) => return got.contains(want),
            Ok(n) => got.push_str(&String::from_utf8_lossy(&buf[..n])),
        }
    }
    true
}

/// Whether the server closes `s` (end of stream or reset) before [`DEADLINE`], reading and
/// dropping whatever it still sends.
fn closes(s: &mut TcpStream) -> bool {
    s.set_read_timeout(Some(DEADLINE)).ok();
    let mut buf = [0u8; 8192];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) => {
                return !matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                );
            }
        }
    }
}

/// The version an HTML page was served with (from its reload script).
fn version_of(html: &str) -> String {
    html.split("const v=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap_or_default()
        .to_string()
}

#[test]
fn rebuilds_on_change_shows_errors_over_the_last_good_site_then_recovers() {
    evidence::packs::register();
    let dir = site();
    let r = root(&dir);
    let srv = Served::start(&r);
    let o = srv.origin.clone();
    let first = get(&o, "/en/");
    let v1 = version_of(&first.text());
    assert!(
        first
            .text()
            .contains("Bundle b1 is <span class=\"value\">12</span> KB")
    );

    // The event stream sends the current version at once.
    let addr = o.trim_start_matches("http://");
    let mut events = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect: {e}"));
    events
        .write_all(
            b"GET /__evidence/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n",
        )
        .unwrap_or_else(|e| panic!("write: {e}"));
    let mut stream = String::new();
    assert!(read_until(
        &mut events,
        &mut stream,
        &format!("data: {v1}\n\n")
    ));
    assert!(stream.starts_with("HTTP/1.1 200 OK\r\n"));
    assert!(stream.contains("Content-Type: text/event-stream"));

    // A data edit: rebuilt, a new version is pushed, the page shows the new value.
    let bundles = r.join("data/bundles.yaml");
    let good = std::fs::read_to_string(&bundles).unwrap_or_default();
    std::fs::write(&bundles, good.replacen("size_kb: 12", "size_kb: 13", 1))
        .unwrap_or_else(|e| panic!("write: {e}"));
    let line = srv.wait_line(|l| l.starts_with("rebuilt in "), DEADLINE);
    assert!(
        line.is_some(),
        "no rebuild printed; stderr:\n{}",
        srv.stderr_text()
    );
    let page = get(&o, "/en/").text();
    let v2 = version_of(&page);
    assert_ne!(v1, v2);
    assert!(page.contains("Bundle b1 is <span class=\"value\">13</span> KB"));
    assert!(read_until(
        &mut events,
        &mut stream,
        &format!("data: {v2}\n\n")
    ));

    // A type error: every page shows the located error; the last good site stays.
    std::fs::write(
        &bundles,
        good.replacen("size_kb: 12", "size_kb: \"<b>twelve</b>\"", 1),
    )
    .unwrap_or_else(|e| panic!("write: {e}"));
    let line = srv.wait_line(|l| l.starts_with("rebuild failed"), DEADLINE);
    assert!(line.is_some(), "no failed rebuild printed");
    for target in ["/en/", "/ja/details/", "/no-such-page/"] {
        let page = get(&o, target).text();
        assert!(page.contains("id=\"evidence-error-overlay\""), "{target}");
        assert!(
            page.contains("data/bundles.yaml"),
            "{target}: the file is named"
        );
        assert!(
            page.contains("&lt;b&gt;twelve&lt;/b&gt;"),
            "{target}: the offending line is quoted, escaped"
        );
        assert!(
            !page.contains("<b>twelve</b>"),
            "{target}: the error text is escaped"
        );
    }
    let under = get(&o, "/en/").text();
    assert!(
        under.contains("Bundle b1 is <span class=\"value\">13</span> KB"),
        "the last good site is served"
    );
    assert!(
        !get(&o, "/static/style.css")
            .text()
            .contains("evidence-error-overlay")
    );
    assert_eq!(get(&o, "/static/style.css").status, 200);

    // Fixed: the overlay goes.
    std::fs::write(&bundles, good.replacen("size_kb: 12", "size_kb: 14", 1))
        .unwrap_or_else(|e| panic!("write: {e}"));
    let line = srv.wait_line(|l| l.starts_with("rebuilt in "), DEADLINE);
    assert!(line.is_some(), "no rebuild after the fix");
    let page = get(&o, "/en/").text();
    assert!(!page.contains("evidence-error-overlay"));
    assert!(page.contains("Bundle b1 is <span class=\"value\">14</span> KB"));
    assert!(!r.join("site").exists(), "serve does not write site/");
}

#[test]
fn a_site_that_never_built_shows_the_error_page() {
    evidence::packs::register();
    let dir = site();
    let r = root(&dir);
    let bundles = r.join("data/bundles.yaml");
    let good = std::fs::read_to_string(&bundles).unwrap_or_default();
    std::fs::write(&bundles, good.replacen("size_kb: 12", "size_kb: [", 1)).ok();
    let srv = Served::start(&r);
    let page = get(&srv.origin, "/");
    assert_eq!(page.status, 500);
    let text = page.text();
    assert!(text.contains("id=\"evidence-error-overlay\""));
    assert!(text.contains("data/bundles.yaml"));
    assert!(text.contains("/__evidence/events"), "it reloads when fixed");
    std::fs::write(&bundles, good).ok();
    assert!(
        srv.wait_line(|l| l.starts_with("rebuilt in "), DEADLINE)
            .is_some()
    );
    let page = get(&srv.origin, "/");
    assert_eq!(page.status, 200);
    assert!(!page.text().contains("evidence-error-overlay"));
}

#[test]
fn sigint_stops_the_server_cleanly() {
    evidence::packs::register();
    let dir = site();
    let mut srv = Served::start(&root(&dir));
    // An open event stream must not hold the shutdown up.
    let addr = srv.origin.trim_start_matches("http://").to_string();
    let mut events = TcpStream::connect(&addr).unwrap_or_else(|e| panic!("connect: {e}"));
    events
        .write_all(b"GET /__evidence/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .ok();
    let mut got = String::new();
    assert!(read_until(&mut events, &mut got, "data: "));
    let Some(status) = srv.interrupt(DEADLINE) else {
        panic!("serve did not exit within {DEADLINE:?} of SIGINT")
    };
    assert_eq!(status.code(), Some(0), "exit status after Ctrl-C");
    assert!(srv.wait_line(|l| l == "stopped", DEADLINE).is_some());
    assert!(closes(&mut events), "the event stream is closed");
    assert!(TcpStream::connect(&addr).is_err(), "the port is closed");
}

#[test]
fn not_an_evidence_site_is_an_error() {
    evidence::packs::register();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(["serve", "--port", "0", "--root"])
        .arg(dir.path())
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an evidence site"));
}

/// Runs `evidence serve` with `args` on a copy of the fixture until it exits or has
/// printed its URL; returns its exit status (`None` while it runs) and its stderr.
fn serve_briefly(args: &[&str]) -> (Option<i32>, String) {
    let dir = site();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(["serve", "--port", "0", "--root"])
        .arg(root(&dir))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("run: {e}"));
    let deadline = Instant::now() + DEADLINE;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status.code(),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            // Still serving: stopped here, so that a failing test leaves no server.
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    (status, err)
}

/// Issue 39, defect 9: the preview is loopback only unless `--public` says otherwise.
#[test]
fn a_bind_beyond_loopback_needs_public() {
    evidence::packs::register();
    for bind in ["0.0.0.0", "::"] {
        let (code, err) = serve_briefly(&["--bind", bind]);
        assert_eq!(code, Some(2), "--bind {bind} without --public: {err}");
        assert!(
            err.contains("--public") && err.contains(bind),
            "the error names the address and the flag: {err}"
        );
    }
    let dir = site();
    let srv = Served::start_with(&root(&dir), &["--bind", "0.0.0.0", "--public"]);
    assert_eq!(get(&srv.origin, "/").status, 200);
    let err = stderr_at_exit(srv);
    assert!(
        err.contains("reachable from other machines"),
        "--public still warns: {err}"
    );
}

/// Everything `srv` printed to stderr, once stopped with SIGINT.
fn stderr_at_exit(mut srv: Served) -> String {
    let status = srv.interrupt(DEADLINE);
    assert_eq!(status.and_then(|s| s.code()), Some(0), "exit after SIGINT");
    assert!(srv.wait_stderr_end(DEADLINE), "stderr not closed at exit");
    srv.stderr_text()
}

/// Issue 39, defect 9: `::ffff:127.0.0.1` is the loopback address in IPv6 dress, neither
/// reachable from other machines nor in need of `--public`.
#[test]
fn an_ipv4_mapped_loopback_is_loopback() {
    evidence::packs::register();
    let dir = site();
    let srv = Served::start_with(&root(&dir), &["--bind", "::ffff:127.0.0.1"]);
    assert!(
        srv.origin.starts_with("http://127.0.0.1:"),
        "printed as 127.0.0.1: {}",
        srv.origin
    );
    assert_eq!(get(&srv.origin, "/").status, 200);
    let err = stderr_at_exit(srv);
    assert!(
        !err.contains("reachable"),
        "a loopback address was warned: {err}"
    );
}

/// The `href` and `src` values of a page.
fn links_of(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        for part in html.split(attr).skip(1) {
            if let Some(end) = part.find('"') {
                out.push(part[..end].replace("&amp;", "&"));
            }
        }
    }
    out
}

#[test]
fn with_a_base_url_under_a_path_every_link_stays_in_the_preview() {
    evidence::packs::register();
    let dir = site();
    let root = root(&dir);
    let cfg = root.join("evidence.yaml");
    let mut text = std::fs::read_to_string(&cfg).unwrap_or_else(|e| panic!("{e}"));
    text.push_str("base_url: \"https://example.org/repo/\"\n");
    std::fs::write(&cfg, text).unwrap_or_else(|e| panic!("{e}"));
    let srv = Served::start(&root);
    // The preview is served under the published path, and says so.
    let host = srv
        .origin
        .strip_suffix("/repo")
        .unwrap_or_else(|| panic!("serve prints the URL under /repo/: {}", srv.origin))
        .to_string();
    let r = get(&host, "/");
    assert_eq!((r.status, r.header("Location")), (302, Some("/repo/")));
    // Every link of every page (the 404 page too) is relative or under /repo/, and
    // leads to a file the preview serves.
    let base = url::Url::parse(&format!("{host}/")).unwrap_or_else(|e| panic!("{e}"));
    let mut todo = vec!["/repo/".to_string(), "/repo/no-such-page/deep/".to_string()];
    let mut seen = std::collections::BTreeSet::new();
    let mut checked = 0;
    while let Some(path) = todo.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let r = get(&host, &path);
        let missing = path.contains("no-such-page");
        assert_eq!(r.status, if missing { 404 } else { 200 }, "{path}");
        if !r
            .header("Content-Type")
            .is_some_and(|c| c.starts_with("text/html"))
        {
            continue;
        }
        let here = base.join(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for link in links_of(&r.text()) {
            if link.starts_with('#') || link.starts_with("data:") {
                continue;
            }
            // A link to another site (a source a record cites) leaves by design; one to the
            // site's own published address must not.
            let elsewhere = (link.starts_with("https://") || link.starts_with("http://"))
                && !link.contains("example.org");
            if elsewhere {
                continue;
            }
            assert!(
                !link.contains("example.org") && !link.starts_with("//"),
                "{path}: a link out of the preview: {link}"
            );
            if link.starts_with('/') {
                assert!(
                    link.starts_with("/repo/"),
                    "{path}: a link outside the site's path: {link}"
                );
            }
            let to = here
                .join(&link)
                .unwrap_or_else(|e| panic!("{path}: {link}: {e}"));
            assert_eq!(to.origin(), base.origin(), "{path}: {link}");
            checked += 1;
            todo.push(to.path().to_string());
        }
    }
    assert!(
        seen.len() >= 8 && checked >= 50,
        "{} pages and files, {checked} links",
        seen.len()
    );
    // The 404 page in particular: its stylesheet and home link work in the preview.
    let page = get(&host, "/repo/nowhere/").text();
    assert!(page.contains("href=\"/repo/static/style.css\""), "{page}");
    assert_eq!(get(&host, "/repo/static/style.css").status, 200);
    // Outside the site's path: the 404 page.
    assert_eq!(get(&host, "/static/style.css").status, 404);
}

/// The folders `serve` watches, each with a file in it whose text a served page shows.
const WATCHED: [&str; 5] = ["content", "data", "templates", "locales", "static"];

/// Writes version `n` of the marked file of `folder` (creating it and the folder when the
/// fixture has neither), from the fixture's or the built-in theme's text.
fn write_mark(root: &Path, folder: &str, n: u32) {
    let theme = |p: &str| {
        let (_, bytes) = evidence::load::theme::BUILTIN
            .iter()
            .find(|(path, _)| *path == p)
            .unwrap_or_else(|| panic!("no built-in {p}"));
        String::from_utf8_lossy(bytes).into_owned()
    };
    let own =
        |p: &str| std::fs::read_to_string(fixture().join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
    let (file, text) = match folder {
        "content" => (
            "content/details.md",
            own("content/details.md").replacen(
                "The fixture tables.",
                &format!("The fixture tables. watch-mark-{folder}-{n}"),
                1,
            ),
        ),
        "data" => (
            "data/bundles.yaml",
            own("data/bundles.yaml").replacen("size_kb: 12", &format!("size_kb: {}", 100 + n), 1),
        ),
        "templates" => (
            "templates/404.html",
            theme("templates/404.html").replacen(
                "<h1>404</h1>",
                &format!("<h1>404</h1><p>watch-mark-{folder}-{n}</p>"),
                1,
            ),
        ),
        "locales" => (
            "locales/en/evidence.ftl",
            theme("locales/en/evidence.ftl").replacen(
                "not-found = This page does not exist.",
                &format!("not-found = This page does not exist. watch-mark-{folder}-{n}"),
                1,
            ),
        ),
        "static" => ("static/mark.txt", format!("watch-mark-{folder}-{n}\n")),
        other => panic!("no marked file for {other}"),
    };
    let path = root.join(file);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("mkdir {}: {e}", dir.display()));
    }
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("write {file}: {e}"));
}

/// Whether version `n` of the marked file of `folder` is what the server shows.
fn shows_mark(origin: &str, folder: &str, n: u32) -> bool {
    let (page, want) = match folder {
        "content" => ("/en/details/", format!("watch-mark-{folder}-{n}")),
        "data" => (
            "/en/",
            format!("Bundle b1 is <span class=\"value\">{}</span> KB", 100 + n),
        ),
        "templates" | "locales" => ("/404.html", format!("watch-mark-{folder}-{n}")),
        "static" => ("/static/mark.txt", format!("watch-mark-{folder}-{n}")),
        other => panic!("no page for {other}"),
    };
    get(origin, page).text().contains(&want)
}

/// Waits (at most [`DEADLINE`]) until the server shows version `n` of `folder`'s marked file.
fn wait_mark(srv: &Served, folder: &str, n: u32, after: &str) {
    let deadline = Instant::now() + DEADLINE;
    while !shows_mark(&srv.origin, folder, n) {
        assert!(
            Instant::now() < deadline,
            "{folder}/: an edit after {after} was never served; output: {:?}; stderr:\n{}",
            srv.drain(),
            srv.stderr_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits (at most [`DEADLINE`]) for the rebuild that a change of `folder` itself caused.
fn wait_rebuild_of(srv: &Served, folder: &str) {
    let names = |l: &str| {
        l.starts_with("rebuil")
            && (l.contains(&format!(" {folder} ")) || l.contains(&format!(" {folder};")))
    };
    assert!(
        srv.wait_line(names, DEADLINE).is_some(),
        "no rebuild after {folder}/ changed; stderr:\n{}",
        srv.stderr_text()
    );
}

/// Copies the folder tree `from` to `to` (which must not exist).
fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap_or_else(|e| panic!("walk {}: {e}", from.display()));
        let rel = entry.path().strip_prefix(from).unwrap_or(Path::new(""));
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap_or_else(|e| panic!("mkdir: {e}"));
        } else {
            std::fs::copy(entry.path(), &dest).unwrap_or_else(|e| panic!("copy: {e}"));
        }
    }
}

/// Issue 39, defect 5: after a watched folder was moved away and back, or removed and
/// made again, edits in it were never seen (notify dropped its watch with the folder and
/// nothing watched it again). Each watched folder, each way, then an edit that must show.
#[test]
fn a_watched_folder_moved_or_made_again_is_still_watched() {
    evidence::packs::register();
    for folder in WATCHED {
        let dir = site();
        let r = root(&dir);
        let (path, aside, copy) = (
            r.join(folder),
            dir.path().join(format!("{folder}-away")),
            dir.path().join(format!("{folder}-copy")),
        );
        write_mark(&r, folder, 0);
        let srv = Served::start(&r);
        wait_mark(&srv, folder, 0, "the start");

        // Moved out of the site, a rebuild, moved back, a rebuild, then an edit.
        std::fs::rename(&path, &aside).unwrap_or_else(|e| panic!("move {folder}/ away: {e}"));
        wait_rebuild_of(&srv, folder);
        std::fs::rename(&aside, &path).unwrap_or_else(|e| panic!("move {folder}/ back: {e}"));
        wait_rebuild_of(&srv, folder);
        write_mark(&r, folder, 1);
        wait_mark(&srv, folder, 1, "a move away and back");

        // Removed, a rebuild, made again with its files, then an edit.
        copy_tree(&path, &copy);
        std::fs::remove_dir_all(&path).unwrap_or_else(|e| panic!("remove {folder}/: {e}"));
        wait_rebuild_of(&srv, folder);
        copy_tree(&copy, &path);
        write_mark(&r, folder, 2);
        wait_mark(&srv, folder, 2, "a removal and a new folder");
        write_mark(&r, folder, 3);
        wait_mark(&srv, folder, 3, "a removal and a new folder, edited again");

        // Both at once, faster than the watcher's debounce, then an edit.
        std::fs::rename(&path, &aside).unwrap_or_else(|e| panic!("move {folder}/ away: {e}"));
        std::fs::rename(&aside, &path).unwrap_or_else(|e| panic!("move {folder}/ back: {e}"));
        wait_rebuild_of(&srv, folder);
        write_mark(&r, folder, 4);
        wait_mark(&srv, folder, 4, "a quick move away and back");
    }
}

/// A watched folder that did not exist when `serve` started is watched once it appears.
#[test]
fn a_watched_folder_made_after_the_start_is_watched() {
    evidence::packs::register();
    let dir = site();
    let r = root(&dir);
    let srv = Served::start(&r);
    for folder in ["templates", "locales", "static"] {
        assert!(!r.join(folder).exists(), "the fixture has no {folder}/");
        write_mark(&r, folder, 0);
        wait_mark(&srv, folder, 0, "the folder appeared");
        write_mark(&r, folder, 1);
        wait_mark(&srv, folder, 1, "the folder appeared, edited again");
    }
}
