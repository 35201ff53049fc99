//! `evidence serve`: a preview server with live reload.
//!
//! The site is built in memory through the same pipeline as `build`, and served from that
//! map: nothing is written to `site/` and nothing is read from disk to answer a request.
//! A rebuild checks everything but re-renders only the pages the change reaches
//! ([`incremental`]); its output is the same as a full build's. The pieces:
//!
//! - [`http`]: which site file a request names, its status and content type, and the
//!   path rules (no traversal, no directory listing, the site's 404 page);
//! - [`watch`]: notify + debouncer on the inputs of the site;
//! - [`reload`]: the server-sent event stream and the script injected into served HTML;
//! - [`overlay`]: the located build errors shown on top of every page while they last.
//!
//! Threads: a few workers answer requests from a snapshot of the current build; one
//! thread waits for changes, rebuilds, swaps the snapshot and tells the open pages; the
//! main thread waits for Ctrl-C (SIGINT), then stops the others and returns 0.
//!
//! A failed rebuild does not stop anything: the last good site stays served, with the
//! errors in an overlay on every HTML page until the input is fixed.

pub mod http;
pub mod overlay;
pub mod reload;
pub mod watch;

use crate::diagnostics::{self, Format, Severity};
use crate::incremental::{self, Previous};
use crate::render::Site;
use http::Route;
use reload::Clients;
use std::io::IsTerminal;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, RwLock};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tiny_http::{Header, Request, Response, Server};

/// Options of `evidence serve`.
#[derive(Debug, Clone)]
pub struct Options {
    /// Folder holding `evidence.yaml`.
    pub root: PathBuf,
    /// Port to listen on; 0 picks a free one.
    pub port: u16,
    /// Address to listen on; loopback unless asked otherwise.
    pub bind: IpAddr,
}

/// Request-answering threads. Event streams do not hold one (their socket is handed
/// over), so a few are enough for a browser's parallel requests.
const WORKERS: usize = 4;

/// How often the threads look at the stop flag.
const POLL: Duration = Duration::from_millis(100);

/// How long Ctrl-C waits for the threads to finish.
const SHUTDOWN: Duration = Duration::from_secs(2);

/// How often open event streams get a comment line, to notice closed ones.
const PING: Duration = Duration::from_secs(10);

/// Errors of the latest build, rendered for the overlay.
#[derive(Debug, Clone, PartialEq)]
struct Failure {
    report: String,
    errors: usize,
}

/// What requests are answered from: the last good site, the errors of the latest build
/// if it failed, and the version pages compare against to know they are stale.
#[derive(Clone)]
struct Snapshot {
    site: Option<Arc<Site>>,
    failure: Option<Arc<Failure>>,
    version: String,
}

/// State shared by the threads.
struct Shared {
    root: PathBuf,
    snapshot: RwLock<Snapshot>,
    clients: Clients,
    stop: AtomicBool,
    /// Prefix of versions: the start time, so a restarted server's pages reload too.
    epoch: u64,
    builds: AtomicU64,
}

impl Shared {
    fn snapshot(&self) -> Snapshot {
        match self.snapshot.read() {
            Ok(s) => s.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    fn next_version(&self) -> String {
        let n = self.builds.fetch_add(1, Ordering::Relaxed) + 1;
        format!("{}-{n}", self.epoch)
    }

    /// Stores the result of a build; returns whether what pages show changed.
    fn store(&self, result: Result<Site, Failure>) -> bool {
        let mut guard = match self.snapshot.write() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        let changed = match &result {
            Ok(site) => {
                guard.failure.is_some() || guard.site.as_deref().is_none_or(|old| old != site)
            }
            Err(f) => guard.failure.as_deref() != Some(f),
        };
        if !changed {
            return false;
        }
        match result {
            Ok(site) => {
                guard.site = Some(Arc::new(site));
                guard.failure = None;
            }
            Err(f) => guard.failure = Some(Arc::new(f)),
        }
        guard.version = self.next_version();
        true
    }
}

/// Runs the server until Ctrl-C. Exit status: 0 after a clean shutdown, 2 when the site
/// or the address cannot be used.
pub fn run(opts: &Options) -> ExitCode {
    let root = match opts.root.canonicalize() {
        Ok(r) if r.join(watch::CONFIG).is_file() => r,
        _ => {
            eprintln!(
                "error: {} is not an evidence site (no {})",
                opts.root.display(),
                watch::CONFIG
            );
            eprintln!("  = help: pass --root DIR, the folder holding evidence.yaml");
            return ExitCode::from(2);
        }
    };
    let epoch = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default();
    let shared = Arc::new(Shared {
        root: root.clone(),
        snapshot: RwLock::new(Snapshot {
            site: None,
            failure: None,
            version: format!("{epoch}-0"),
        }),
        clients: Clients::default(),
        stop: AtomicBool::new(false),
        epoch,
        builds: AtomicU64::new(0),
    });

    let start = Instant::now();
    let built = build(&root, &[], None);
    let ms = start.elapsed().as_millis();
    match &built.result {
        Ok(site) => println!("built {} files in {ms} ms", site.files.len()),
        Err(f) => println!("build failed in {ms} ms: {}", count(f.errors)),
    }
    shared.store(built.result);
    let previous = built.next;

    let addr = SocketAddr::new(opts.bind, opts.port);
    let server = match Server::http(addr) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("error: cannot listen on {addr}: {e}");
            if opts.port != 0 {
                eprintln!("  = help: another program may use the port; try --port 0");
            }
            return ExitCode::from(2);
        }
    };
    let local = server.server_addr().to_ip().unwrap_or(addr);
    let watcher = match watch::Watch::start(&root) {
        Ok(w) => Some(w),
        Err(e) => {
            eprintln!("warning: {e}; pages will not rebuild on change");
            None
        }
    };
    if let Some(w) = &watcher {
        let folders: Vec<&str> = w.folders().copied().collect();
        println!(
            "watching {} and {} in {}",
            watch::CONFIG,
            if folders.is_empty() {
                "no input folder".to_string()
            } else {
                folders.join("/, ") + "/"
            },
            root.display()
        );
    }
    if !local.ip().is_loopback() {
        eprintln!(
            "warning: listening on {}, reachable from other machines; \
             the default is 127.0.0.1",
            local.ip()
        );
    }
    println!("serving at http://{local}/ (Ctrl-C to stop)");

    let (stop_tx, stop_rx) = mpsc::channel::<()>();
    let signal_tx = stop_tx.clone();
    if let Err(e) = ctrlc::set_handler(move || {
        let _ = signal_tx.send(());
    }) {
        eprintln!("warning: cannot handle Ctrl-C ({e}); stop the server with a kill");
    }

    let mut threads = Vec::new();
    for i in 0..WORKERS {
        let (server, shared) = (server.clone(), shared.clone());
        let spawned = thread::Builder::new()
            .name(format!("serve-http-{i}"))
            .spawn(move || worker(&server, &shared));
        match spawned {
            Ok(t) => threads.push(t),
            Err(e) => eprintln!("warning: cannot start a server thread: {e}"),
        }
    }
    let rebuilds = {
        let shared = shared.clone();
        thread::Builder::new()
            .name("serve-rebuild".into())
            .spawn(move || rebuild_loop(watcher, &shared, previous))
    };
    match rebuilds {
        Ok(t) => threads.push(t),
        Err(e) => eprintln!("warning: cannot start the rebuild thread: {e}"),
    }

    // Blocks until Ctrl-C; `stop_tx` stays alive so that a failed handler means waiting
    // for a kill rather than stopping at once.
    let _ = stop_rx.recv();
    drop(stop_tx);
    shared.stop.store(true, Ordering::SeqCst);
    shared.clients.close_all();
    // The threads see the flag within `POLL`. One still busy after that (a response to a
    // client that stopped reading, a rebuild in progress) is not waited for: nothing is
    // written to disk, so ending the process with it loses nothing.
    let deadline = Instant::now() + SHUTDOWN;
    while threads.iter().any(|t| !t.is_finished()) && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(10));
    }
    for t in threads.into_iter().filter(|t| t.is_finished()) {
        let _ = t.join();
    }
    println!("stopped");
    ExitCode::SUCCESS
}

/// One build of the preview.
struct Built {
    /// The site, or the rendered errors.
    result: Result<Site, Failure>,
    /// What the next rebuild starts from.
    next: Option<Previous>,
    /// What was rendered, and out of how many pages.
    scope: incremental::Scope,
    pages: usize,
}

/// Builds the site in memory, re-rendering what `changed` reaches since `prev` (see
/// [`incremental::rebuild`]). Diagnostics (warnings included) are printed to the terminal
/// as `check` prints them.
fn build(root: &Path, changed: &[String], prev: Option<&Previous>) -> Built {
    let (outcome, next, scope) = incremental::rebuild(root, changed, prev);
    let pages = outcome
        .loaded
        .as_ref()
        .map_or(0, |l| l.evidence.pages.len());
    let diags = &outcome.diagnostics;
    if !diags.is_empty() {
        let color = std::io::stderr().is_terminal();
        eprint!("{}", diagnostics::render(diags, Format::Human, root, color));
    }
    let result = match outcome.site.filter(|_| !diags.has_errors()) {
        Some(site) => Ok(site),
        None => {
            let errors = diags
                .sorted()
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count()
                .max(1);
            let report = diagnostics::render(diags, Format::Human, root, false);
            Err(Failure { report, errors })
        }
    };
    Built {
        result,
        next,
        scope,
        pages,
    }
}

fn count(errors: usize) -> String {
    if errors == 1 {
        "1 error".into()
    } else {
        format!("{errors} errors")
    }
}

/// Waits for changes, rebuilds what they reach since `previous`, and tells the open pages.
/// Pings the event streams while nothing happens.
fn rebuild_loop(
    mut watcher: Option<watch::Watch>,
    shared: &Shared,
    mut previous: Option<Previous>,
) {
    let mut last_ping = Instant::now();
    while !shared.stop.load(Ordering::SeqCst) {
        if last_ping.elapsed() >= PING {
            shared.clients.ping();
            last_ping = Instant::now();
        }
        let Some(w) = watcher.as_mut() else {
            thread::sleep(POLL);
            continue;
        };
        let mut changed = match w.changes.recv_timeout(POLL) {
            Ok(c) => c,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => {
                watcher = None;
                continue;
            }
        };
        // Fold in whatever else arrived while this batch was debounced.
        while let Ok(more) = w.changes.try_recv() {
            changed.extend(more);
        }
        changed.sort();
        changed.dedup();
        for f in w.watch_new_folders() {
            println!("watching {f}/");
        }
        let what = match changed.as_slice() {
            [one] => one.clone(),
            [first, rest @ ..] => format!("{first} and {} more", rest.len()),
            [] => String::new(),
        };
        let start = Instant::now();
        let built = build(&shared.root, &changed, previous.as_ref());
        let ms = start.elapsed().as_millis();
        previous = built.next;
        let line = match &built.result {
            Ok(_) => format!(
                "rebuilt in {ms} ms ({}; {what} changed)",
                built.scope.summary(built.pages)
            ),
            Err(f) => format!(
                "rebuild failed in {ms} ms: {} in {what}; the last good site is still served",
                count(f.errors)
            ),
        };
        if shared.store(built.result) {
            let pages = shared.clients.len();
            shared.clients.broadcast(&shared.snapshot().version);
            println!("{line}; reloading {pages} open page(s)");
        } else {
            println!("{line}; output unchanged");
        }
    }
}

/// Answers requests until the stop flag is set.
fn worker(server: &Server, shared: &Shared) {
    while !shared.stop.load(Ordering::SeqCst) {
        match server.recv_timeout(POLL) {
            Ok(Some(req)) => respond(req, shared),
            Ok(None) => {}
            // A failed accept or read: not the server's end, keep serving.
            Err(_) => thread::sleep(POLL),
        }
    }
}

/// Answers one request from the current snapshot.
fn respond(req: Request, shared: &Shared) {
    let snap = shared.snapshot();
    let empty = Site::default();
    let site = snap.site.as_deref().unwrap_or(&empty);
    let route = http::route(req.method().as_str(), req.url(), site);
    let reply = match route {
        Route::Events => {
            let writer = req.into_writer();
            shared.clients.add(writer, &snap.version);
            return;
        }
        Route::File { key, status } => match site.files.get(&key) {
            Some(bytes) => {
                let ct = http::content_type(&key);
                let body = if http::is_html(ct) {
                    decorate(bytes, &snap)
                } else {
                    bytes.clone()
                };
                reply(status, ct, body)
            }
            None => not_found(&snap),
        },
        Route::NotFound => not_found(&snap),
        Route::Redirect(to) => {
            let mut r = reply(302, "text/plain; charset=utf-8", to.clone().into_bytes());
            if let Ok(h) = Header::from_bytes(&b"Location"[..], to.as_bytes()) {
                r.add_header(h);
            }
            r
        }
        Route::BadRequest(why) => reply(
            400,
            "text/plain; charset=utf-8",
            format!("400 bad request: {why}\n").into_bytes(),
        ),
        Route::MethodNotAllowed => {
            let mut r = reply(
                405,
                "text/plain; charset=utf-8",
                b"405 method not allowed: use GET or HEAD\n".to_vec(),
            );
            if let Ok(h) = Header::from_bytes(&b"Allow"[..], &b"GET, HEAD"[..]) {
                r.add_header(h);
            }
            r
        }
    };
    // The client may have gone away; nothing to do about it.
    let _ = req.respond(reply);
}

/// A 404 without a site 404 page: the error page while no build succeeded, else text.
fn not_found(snap: &Snapshot) -> Response<std::io::Cursor<Vec<u8>>> {
    match (&snap.site, &snap.failure) {
        (None, Some(f)) => {
            let page = overlay::page(&f.report, f.errors);
            let body = reload::inject(page.as_bytes(), &reload::script(&snap.version));
            reply(500, "text/html; charset=utf-8", body)
        }
        _ => reply(
            404,
            "text/plain; charset=utf-8",
            b"404 not found\n".to_vec(),
        ),
    }
}

/// An HTML page as served: the errors overlay (while the build fails) and the reload
/// script before `</body>`.
fn decorate(html: &[u8], snap: &Snapshot) -> Vec<u8> {
    let mut extra = String::new();
    if let Some(f) = &snap.failure {
        extra.push_str(&overlay::overlay(&f.report, f.errors));
    }
    extra.push_str(&reload::script(&snap.version));
    reload::inject(html, &extra)
}

fn reply(status: u16, content_type: &str, body: Vec<u8>) -> Response<std::io::Cursor<Vec<u8>>> {
    // The body is in memory: send a Content-Length rather than chunks.
    let mut r = Response::from_data(body)
        .with_status_code(status)
        .with_chunked_threshold(usize::MAX);
    for (name, value) in [
        ("Content-Type", content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
    ] {
        if let Ok(h) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            r.add_header(h);
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared() -> Shared {
        Shared {
            root: PathBuf::from("."),
            snapshot: RwLock::new(Snapshot {
                site: None,
                failure: None,
                version: "7-0".into(),
            }),
            clients: Clients::default(),
            stop: AtomicBool::new(false),
            epoch: 7,
            builds: AtomicU64::new(0),
        }
    }

    fn site(text: &str) -> Site {
        let mut s = Site::default();
        s.files.insert(
            "index.html".into(),
            format!("<body>{text}</body>").into_bytes(),
        );
        s
    }

    #[test]
    fn keeps_the_last_good_site_and_versions_changes_only() {
        let sh = shared();
        assert!(sh.store(Ok(site("a"))));
        assert_eq!(sh.snapshot().version, "7-1");
        assert!(!sh.store(Ok(site("a"))), "same output: no reload");
        let fail = Failure {
            report: "error: <x>".into(),
            errors: 1,
        };
        assert!(sh.store(Err(fail.clone())));
        let snap = sh.snapshot();
        assert_eq!(snap.version, "7-2");
        assert_eq!(
            snap.site.as_deref(),
            Some(&site("a")),
            "last good site kept"
        );
        let page = String::from_utf8(decorate(b"<body>a</body>", &snap)).unwrap_or_default();
        assert!(page.contains("evidence-error-overlay"));
        assert!(page.contains("error: &lt;x&gt;"));
        assert!(page.contains("const v=\"7-2\""));
        assert!(!sh.store(Err(fail)), "same errors: no reload");
        assert!(sh.store(Ok(site("a"))), "fixed: the overlay goes");
        let snap = sh.snapshot();
        assert!(snap.failure.is_none());
        let page = String::from_utf8(decorate(b"<body>a</body>", &snap)).unwrap_or_default();
        assert!(!page.contains("evidence-error-overlay"));
    }
}
