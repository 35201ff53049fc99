//! `evidence serve`: a preview server with live reload.
//!
//! The site is built in memory through the same pipeline as `build`, and served from that
//! map: nothing is written to `site/` and nothing is read from disk to answer a request.
//! A rebuild is given the paths the watcher reported (or told that it lost events) and
//! re-renders only the pages the change reaches; an edit of a page's prose is read and
//! checked alone ([`incremental`]). Its output is the same as a full build's. The pieces:
//!
//! - [`conn`]: one connection over `std::net`: the request head read with a 64 KiB bound
//!   (431 past it, and the connection closed at once), the response written, the
//!   connection closed;
//! - [`http`]: the Host rule (421 for another name), which site file a request names,
//!   its status and content type, and the path rules (no traversal, no directory
//!   listing, the site's 404 page);
//! - [`watch`]: notify + debouncer on the inputs of the site, in batches of changed
//!   paths that say whether events were lost;
//! - [`reload`]: the server-sent event stream and the script injected into served HTML;
//! - [`overlay`]: the located build errors shown on top of every page while they last.
//!
//! Threads: one accepts connections and starts a short-lived thread for each (at most
//! `MAX_CONNECTIONS` at a time), which answers its request from a snapshot of the
//! current build; one thread waits for changes, rebuilds, swaps the snapshot and tells the
//! open pages; the main thread waits for Ctrl-C (SIGINT), then stops the others and
//! returns 0. A thread per connection, not a fixed pool: a browser opens idle spare
//! connections, and each would hold a pooled worker until its read timeout.
//!
//! A failed rebuild does not stop anything: the last good site stays served, with the
//! errors in an overlay on every HTML page until the input is fixed.

pub mod conn;
pub mod http;
pub mod overlay;
pub mod reload;
pub mod watch;

use crate::diagnostics::{self, Format, Severity};
use crate::incremental::{self, Changes, Previous, Served};
use crate::load::read::site_text;
use conn::{Head, Response};
use http::Routed;
use reload::Clients;
use std::io::IsTerminal;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, RwLock};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Options of `evidence serve`.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Folder holding `evidence.yaml`.
    pub root: PathBuf,
    /// Port to listen on; 0 picks a free one.
    pub port: u16,
    /// Address to listen on; loopback unless asked otherwise.
    pub bind: IpAddr,
    /// Whether a `bind` address beyond loopback is allowed (`--public`).
    pub public: bool,
}

/// Connections answered at once; past it a connection gets 503 at once. Event streams do
/// not count (their socket is handed over and their thread ends).
const MAX_CONNECTIONS: usize = 64;

/// How long a client may take to send its whole request head, and to take a response.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// How often the rebuild thread looks at the stop flag.
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
    /// A persistent map: a copy per request costs nothing.
    site: Option<Served>,
    /// The `base_url` of the last good site: the preview serves it under its path and
    /// turns links to it into links to the preview.
    base_url: Option<Arc<str>>,
    failure: Option<Arc<Failure>>,
    version: String,
}

impl Snapshot {
    /// The path the site is served under: `base_url`'s path (`/repo/`), or `/`.
    fn base_path(&self) -> String {
        self.base_url
            .as_deref()
            .map_or_else(|| "/".to_string(), crate::render::base_path)
    }

    /// A page or feed as previewed: its links to `base_url` (the language switch's
    /// alternates, a feed's entries) lead into the preview instead, as root-relative
    /// paths under [`Snapshot::base_path`], like `hugo server` and `zola serve` put their
    /// own address in place of the base URL. Only attribute values that start with the
    /// base URL change (`="https://example.org/repo/…`), not text that quotes it.
    fn local_links(&self, bytes: &[u8]) -> Vec<u8> {
        let Some(base) = self.base_url.as_deref() else {
            return bytes.to_vec();
        };
        let from = format!("=\"{}/", base.trim_end_matches('/'));
        let to = format!("=\"{}", self.base_path());
        let from = from.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut rest = bytes;
        while let Some(at) = rest.windows(from.len()).position(|w| w == from) {
            out.extend_from_slice(&rest[..at]);
            out.extend_from_slice(to.as_bytes());
            rest = &rest[at + from.len()..];
        }
        out.extend_from_slice(rest);
        out
    }
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

    /// Stores the result of a build (with the site's `base_url`); returns whether what
    /// pages show changed.
    fn store(&self, result: Result<Served, Failure>, base_url: Option<&str>) -> bool {
        let mut guard = match self.snapshot.write() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        let changed = match &result {
            Ok(site) => {
                guard.failure.is_some()
                    // Cheap: the two maps share all but the files rebuilt.
                    || guard.site.as_ref().is_none_or(|old| old != site)
                    || guard.base_url.as_deref() != base_url
            }
            Err(f) => guard.failure.as_deref() != Some(f),
        };
        if !changed {
            return false;
        }
        match result {
            Ok(site) => {
                guard.site = Some(site);
                guard.base_url = base_url.map(Arc::from);
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
pub fn run(opts: &ServeOptions) -> ExitCode {
    match serve(opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// [`run`]: builds, listens, watches and serves until Ctrl-C; an error before serving
/// has been printed, and gives the exit code.
fn serve(opts: &ServeOptions) -> Result<(), ExitCode> {
    let root = site_root(opts)?;
    let epoch = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default();
    let shared = Arc::new(Shared {
        root: root.clone(),
        snapshot: RwLock::new(Snapshot {
            site: None,
            base_url: None,
            failure: None,
            version: format!("{epoch}-0"),
        }),
        clients: Clients::default(),
        stop: AtomicBool::new(false),
        epoch,
        builds: AtomicU64::new(0),
    });
    let previous = first_build(&root, &shared);
    let (listener, local) = listen(opts)?;
    let watcher = match watch::Watch::start(&root) {
        Ok(w) => Some(w),
        Err(e) => {
            eprintln!("warning: {e}; pages will not rebuild on change");
            None
        }
    };
    announce(&root, watcher.as_ref(), local, &shared);

    let (stop_tx, stop_rx) = mpsc::channel::<()>();
    let signal_tx = stop_tx.clone();
    if let Err(e) = ctrlc::set_handler(move || {
        let _ = signal_tx.send(());
    }) {
        eprintln!("warning: cannot handle Ctrl-C ({e}); stop the server with a kill");
    }

    let mut threads = Vec::new();
    let accepting = {
        let shared = shared.clone();
        thread::Builder::new()
            .name("serve-accept".into())
            .spawn(move || accept_loop(&listener, &shared))
    };
    match accepting {
        Ok(t) => threads.push(t),
        Err(e) => {
            eprintln!("error: cannot start the server thread: {e}");
            return Err(ExitCode::from(2));
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
    shut_down(&shared, local, threads);
    Ok(())
}

/// The site's root, canonical, when `--bind` is allowed and the folder holds
/// `evidence.yaml`; otherwise the error printed and exit code 2.
fn site_root(opts: &ServeOptions) -> Result<PathBuf, ExitCode> {
    if !is_loopback(opts.bind) && !opts.public {
        eprintln!(
            "error: --bind {} would make the preview reachable from other machines",
            opts.bind
        );
        eprintln!("  = help: pass --public as well to mean it, or leave --bind out for 127.0.0.1");
        return Err(ExitCode::from(2));
    }
    match opts.root.canonicalize() {
        Ok(r) if r.join(watch::CONFIG).is_file() => Ok(r),
        _ => {
            eprintln!(
                "error: {} is not an evidence site (no {})",
                opts.root.display(),
                watch::CONFIG
            );
            eprintln!("  = help: pass --root DIR, the folder holding evidence.yaml");
            Err(ExitCode::from(2))
        }
    }
}

/// The first build, reported and stored for serving (a failed one too: its errors are
/// what the preview shows); what the next rebuild starts from.
fn first_build(root: &Path, shared: &Shared) -> Option<Previous> {
    let start = Instant::now();
    let built = build(root, Changes::Unknown, None);
    let ms = start.elapsed().as_millis();
    match &built.result {
        Ok(site) => crate::diagnostics::out_line(format_args!(
            "built {} files in {ms} ms",
            site.files.len()
        )),
        Err(f) => crate::diagnostics::out_line(format_args!(
            "build failed in {ms} ms: {}",
            count(f.errors)
        )),
    }
    shared.store(built.result, built.base_url.as_deref());
    built.next
}

/// The listening socket at `--bind` and `--port`, and the address it got; otherwise the
/// error printed and exit code 2.
fn listen(opts: &ServeOptions) -> Result<(TcpListener, SocketAddr), ExitCode> {
    let addr = SocketAddr::new(opts.bind, opts.port);
    let listener = match TcpListener::bind(addr) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: cannot listen on {addr}: {e}");
            if opts.port != 0 {
                eprintln!("  = help: another program may use the port; try --port 0");
            }
            return Err(ExitCode::from(2));
        }
    };
    match listener.local_addr() {
        Ok(local) => Ok((listener, local)),
        Err(e) => {
            eprintln!("error: cannot read the address listened on ({addr}): {e}");
            Err(ExitCode::from(2))
        }
    }
}

/// Says what is watched, warns when the preview is reachable from other machines, and
/// gives the address to open.
fn announce(root: &Path, watcher: Option<&watch::Watch>, local: SocketAddr, shared: &Shared) {
    if let Some(w) = watcher {
        let folders: Vec<&str> = w.folders().copied().collect();
        crate::diagnostics::out_line(format_args!(
            "watching {} and {} in {}",
            watch::CONFIG,
            if folders.is_empty() {
                "no input folder".to_string()
            } else {
                folders.join("/, ") + "/"
            },
            root.display()
        ));
    }
    if !is_loopback(local.ip()) {
        eprintln!(
            "warning: listening on {}, reachable from other machines; \
             the default is 127.0.0.1",
            local.ip()
        );
    }
    // A site published under a path is previewed under the same path.
    let base = shared.snapshot().base_path();
    crate::diagnostics::out_line(format_args!(
        "serving at http://{}{base} (Ctrl-C to stop)",
        wake_address(local)
    ));
}

/// Stops the server: tells the threads, closes the clients' connections and waits up to
/// [`SHUTDOWN`] for the threads to end.
fn shut_down(shared: &Shared, local: SocketAddr, threads: Vec<thread::JoinHandle<()>>) {
    shared.stop.store(true, Ordering::SeqCst);
    shared.clients.close_all();
    // The accept thread blocks in `accept`: one connection wakes it to see the flag.
    let _ = TcpStream::connect_timeout(&wake_address(local), SHUTDOWN);
    // The rebuild thread sees the flag within `POLL`. A thread still busy after that (a
    // response to a client that stopped reading, a rebuild in progress) is not waited
    // for: nothing is written to disk, so ending the process with it loses nothing.
    let deadline = Instant::now() + SHUTDOWN;
    while threads.iter().any(|t| !t.is_finished()) && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(10));
    }
    for t in threads.into_iter().filter(|t| t.is_finished()) {
        let _ = t.join();
    }
    crate::diagnostics::out_line(format_args!("stopped"));
}

/// One build of the preview.
struct Built {
    /// The site, or the rendered errors.
    result: Result<Served, Failure>,
    /// What the next rebuild starts from.
    next: Option<Previous>,
    /// The site's `base_url`, as configured.
    base_url: Option<String>,
    /// What was rendered, and out of how many pages.
    rerendered: incremental::Rerendered,
    pages: usize,
}

/// Builds the site in memory, re-rendering what `changes` reach since `prev` (see
/// [`incremental::rebuild`]). Diagnostics (warnings included) are printed to the terminal
/// as `check` prints them.
fn build(root: &Path, changes: Changes, prev: Option<Previous>) -> Built {
    let (outcome, next) = incremental::rebuild(root, changes, prev);
    let (pages, base_url, rerendered) = (outcome.pages, outcome.base_url, outcome.rerendered);
    let diags = &outcome.diagnostics;
    if !diags.is_empty() {
        let color = std::io::stderr().is_terminal();
        eprint!(
            "{}",
            diagnostics::render(diags, Format::Human, &site_text(root), color)
        );
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
            let report = diagnostics::render(diags, Format::Human, &site_text(root), false);
            Err(Failure { report, errors })
        }
    };
    Built {
        result,
        next,
        base_url,
        rerendered,
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
        let mut batch = match w.changes.recv_timeout(POLL) {
            Ok(c) => c,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => {
                watcher = None;
                continue;
            }
        };
        // Fold in whatever else arrived while this batch was debounced.
        while let Ok(more) = w.changes.try_recv() {
            batch.merge(more);
        }
        follow_folders(w, &mut batch);
        let changed = &batch.paths;
        let what = match changed.as_slice() {
            [one] => one.clone(),
            [first, rest @ ..] => format!("{first} and {} more", rest.len()),
            [] => "the watcher lost events, so anything".to_string(),
        };
        let changes = if batch.lost {
            Changes::Unknown
        } else {
            Changes::Paths(changed)
        };
        let start = Instant::now();
        let built = build(&shared.root, changes, previous.take());
        let ms = start.elapsed().as_millis();
        previous = built.next;
        let line = match &built.result {
            Ok(_) => format!(
                "rebuilt in {ms} ms ({}; {what} changed)",
                built.rerendered.summary(built.pages)
            ),
            Err(f) => format!(
                "rebuild failed in {ms} ms: {} in {what}; the last good site is still served",
                count(f.errors)
            ),
        };
        if shared.store(built.result, built.base_url.as_deref()) {
            let pages = shared.clients.len();
            shared.clients.broadcast(&shared.snapshot().version);
            crate::diagnostics::out_line(format_args!("{line}; reloading {pages} open page(s)"));
        } else {
            crate::diagnostics::out_line(format_args!("{line}; output unchanged"));
        }
    }
}

/// Lets the watcher follow the input folders `batch` shows appearing, coming back or
/// going, and says so. A folder watched anew joins the batch's paths, so that the rebuild
/// lists it again and looks at every file in it: files written before its watch was in
/// place were reported by no event.
fn follow_folders(w: &mut watch::Watch, batch: &mut watch::Batch) {
    for followed in w.follow_folders(batch) {
        match followed {
            watch::Followed::Watching(f) => {
                crate::diagnostics::out_line(format_args!("watching {f}/"));
                batch.merge(watch::Batch {
                    paths: vec![f.to_string()],
                    lost: false,
                });
            }
            watch::Followed::Gone(f) => crate::diagnostics::out_line(format_args!(
                "{f}/ is gone; it is watched again when it comes back"
            )),
            watch::Followed::Failed(f, e) => {
                eprintln!("warning: {e}; edits in {f}/ will not be seen until it changes again")
            }
        }
    }
}

/// Whether only this machine reaches `ip`: a loopback address, also in IPv6 dress
/// (`::ffff:127.0.0.1`, which `IpAddr::is_loopback` does not count).
fn is_loopback(ip: IpAddr) -> bool {
    ip.to_canonical().is_loopback()
}

/// Where a connection from this machine reaches a listener on `local` (the URL printed,
/// the connection that wakes the accept thread): itself, plain IPv4 for an IPv4-mapped
/// address, or loopback for a listener on every address.
fn wake_address(local: SocketAddr) -> SocketAddr {
    let ip = match local.ip().to_canonical() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, local.port())
}

/// Accepts connections until the stop flag is set, each answered on its own thread.
fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    let active = Arc::new(AtomicUsize::new(0));
    for conn in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            return;
        }
        let stream = match conn {
            Ok(s) => s,
            // A failed accept (a client that reset, no file descriptor left) is not the
            // server's end; wait a little so that a lasting failure does not spin.
            Err(_) => {
                thread::sleep(POLL);
                continue;
            }
        };
        let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
        let Some(slot) = Slot::take(&active) else {
            let busy = Response::text(503, "503 too many connections\n".into());
            conn::reject(stream, &busy);
            continue;
        };
        let shared = shared.clone();
        let spawned = thread::Builder::new()
            .name("serve-conn".into())
            .spawn(move || {
                let _slot = slot;
                handle(stream, &shared);
            });
        if let Err(e) = spawned {
            // The stream and the slot went with the closure: the client sees the
            // connection close and the slot is free again.
            eprintln!("warning: cannot start a connection thread: {e}");
        }
    }
}

/// One of the [`MAX_CONNECTIONS`] places, given back when dropped (whatever way the
/// connection's thread ends, or if it never starts).
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(active: &Arc<AtomicUsize>) -> Option<Slot> {
        let slot = Slot(active.clone());
        (active.fetch_add(1, Ordering::SeqCst) < MAX_CONNECTIONS).then_some(slot)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Reads one request from `stream` and answers it.
fn handle(stream: TcpStream, shared: &Shared) {
    let Ok(local) = stream.local_addr() else {
        return;
    };
    let head = match conn::read_head(&mut conn::Deadline::new(&stream, HEAD_TIMEOUT)) {
        Ok(head) => head,
        Err(e) => {
            match conn::refusal(&e) {
                // The client may still be sending its endless head: no lingering.
                Some(refusal) if e == conn::HeadError::TooLarge => {
                    conn::close_now(stream, &refusal)
                }
                Some(refusal) => conn::finish(stream, &refusal, false),
                None => {}
            }
            return;
        }
    };
    let snap = shared.snapshot();
    match answer(&head, local, &snap) {
        Answer::Events => shared.clients.add(Box::new(stream), &snap.version),
        Answer::Reply(response) => conn::finish(stream, &response, head.method == "HEAD"),
    }
}

/// What a request gets.
#[derive(Debug)]
enum Answer {
    /// The socket becomes an event stream.
    Events,
    Reply(Response),
}

/// Answers one request head, reaching the server at `local`, from a snapshot.
fn answer(head: &Head, local: SocketAddr, snap: &Snapshot) -> Answer {
    let empty = Served::default();
    let site = snap.site.as_ref().unwrap_or(&empty);
    let hosts: Vec<&[u8]> = head.hosts.iter().map(Vec::as_slice).collect();
    let route = match http::check_host(&hosts, head.http11, local) {
        Ok(()) => http::route_under(&head.method, &head.target, site, &snap.base_path()),
        Err(refused) => refused,
    };
    let response = match route {
        Routed::Events => return Answer::Events,
        Routed::File { key, status } => match site.files.get(&key) {
            Some(bytes) => {
                let ct = http::content_type(&key);
                let body = if http::is_html(ct) {
                    decorate(&snap.local_links(bytes), snap)
                } else if ct.starts_with("application/xml") {
                    snap.local_links(bytes)
                } else {
                    bytes.to_vec()
                };
                Response::new(status, ct, body)
            }
            None => not_found(snap),
        },
        Routed::NotFound => not_found(snap),
        Routed::Redirect(to) => Response::text(302, format!("{to}\n")).with("Location", to),
        Routed::BadRequest(why) => Response::text(400, format!("400 bad request: {why}\n")),
        Routed::MethodNotAllowed => {
            Response::text(405, "405 method not allowed: use GET or HEAD\n".into())
                .with("Allow", "GET, HEAD".into())
        }
        // Nothing of the site or its errors: the asker is another site's page.
        Routed::Misdirected => Response::text(
            421,
            format!(
                "421 misdirected request: this server answers to localhost, 127.0.0.1, \
                 [::1] or {local}\n"
            ),
        ),
    };
    Answer::Reply(response)
}

/// A 404 without a site 404 page: the error page while no build succeeded, else text.
fn not_found(snap: &Snapshot) -> Response {
    match (&snap.site, &snap.failure) {
        (None, Some(f)) => {
            let page = overlay::page(&f.report, f.errors);
            let body = reload::inject(page.as_bytes(), &reload::script(&snap.version));
            Response::new(500, "text/html; charset=utf-8", body)
        }
        _ => Response::text(404, "404 not found\n".into()),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn shared() -> Shared {
        Shared {
            root: PathBuf::from("."),
            snapshot: RwLock::new(Snapshot {
                site: None,
                base_url: None,
                failure: None,
                version: "7-0".into(),
            }),
            clients: Clients::default(),
            stop: AtomicBool::new(false),
            epoch: 7,
            builds: AtomicU64::new(0),
        }
    }

    fn site(text: &str) -> Served {
        let mut s = Served::default();
        s.files.insert(
            "index.html".into(),
            format!("<body>{text}</body>").into_bytes().into(),
        );
        s
    }

    fn head(target: &str, host: &str) -> Head {
        Head {
            method: "GET".into(),
            target: target.into(),
            http11: true,
            hosts: vec![host.as_bytes().to_vec()],
        }
    }

    fn body(a: Answer) -> (u16, String) {
        match a {
            Answer::Reply(r) => (r.status, String::from_utf8_lossy(&r.body).into_owned()),
            Answer::Events => (0, "events".into()),
        }
    }

    #[test]
    fn loopback_in_any_dress_is_loopback() {
        let loopback = |ip: &str| ip.parse::<IpAddr>().ok().is_some_and(is_loopback);
        for ip in ["127.0.0.1", "127.8.9.1", "::1", "::ffff:127.0.0.1"] {
            assert!(loopback(ip), "{ip}");
        }
        for ip in [
            "0.0.0.0",
            "::",
            "192.168.1.2",
            "::ffff:192.168.1.2",
            "::ffff:0.0.0.0",
        ] {
            assert!(!loopback(ip), "{ip}");
        }
        let mapped = SocketAddr::new(IpAddr::V6(Ipv4Addr::LOCALHOST.to_ipv6_mapped()), 80);
        assert_eq!(wake_address(mapped), SocketAddr::from(([127, 0, 0, 1], 80)));
        let any = SocketAddr::from(([0, 0, 0, 0], 80));
        assert_eq!(wake_address(any), SocketAddr::from(([127, 0, 0, 1], 80)));
    }

    #[test]
    fn slots_are_bounded_and_given_back() {
        let active = Arc::new(AtomicUsize::new(0));
        let taken: Vec<Slot> = (0..MAX_CONNECTIONS)
            .filter_map(|_| Slot::take(&active))
            .collect();
        assert_eq!(taken.len(), MAX_CONNECTIONS);
        assert!(Slot::take(&active).is_none(), "one more is refused");
        assert_eq!(active.load(Ordering::SeqCst), MAX_CONNECTIONS);
        drop(taken);
        assert_eq!(
            active.load(Ordering::SeqCst),
            0,
            "refused or done: all given back"
        );
        assert!(Slot::take(&active).is_some());
    }

    #[test]
    fn another_host_gets_421_and_nothing_of_the_site() {
        let sh = shared();
        sh.store(Ok(site("the page")), None);
        sh.store(
            Err(Failure {
                report: "error: data/x.yaml:1:1".into(),
                errors: 1,
            }),
            None,
        );
        let snap = sh.snapshot();
        let local = SocketAddr::from(([127, 0, 0, 1], 1111));
        let (status, page) = body(answer(&head("/", "localhost:1111"), local, &snap));
        assert_eq!(status, 200);
        assert!(page.contains("the page") && page.contains(overlay::ID));
        for target in ["/", "/nope", http::EVENTS_PATH] {
            let (status, text) = body(answer(&head(target, "evil.example"), local, &snap));
            assert_eq!(status, 421, "{target}");
            assert!(!text.contains("the page") && !text.contains('<'), "{text}");
            assert!(!text.contains("x.yaml") && !text.contains(overlay::ID));
        }
        let mut no_host = head("/", "");
        no_host.hosts.clear();
        assert_eq!(body(answer(&no_host, local, &snap)).0, 400);
    }

    #[test]
    fn a_base_url_is_served_under_its_path_with_links_into_the_preview() {
        let sh = shared();
        let mut s = site("x");
        s.files.insert(
            "ja/index.html".into(),
            b"<link rel=\"alternate\" href=\"https://example.org/repo/en/\"><body>\
              see https://example.org/repo/ <a href=\"https://example.org/repo/\">x</a></body>"
                .to_vec()
                .into(),
        );
        sh.store(Ok(s), Some("https://example.org/repo/"));
        let snap = sh.snapshot();
        assert_eq!(snap.base_path(), "/repo/");
        let local = SocketAddr::from(([127, 0, 0, 1], 1111));
        let (status, page) = body(answer(&head("/repo/ja/", "localhost:1111"), local, &snap));
        assert_eq!(status, 200);
        assert!(page.contains("href=\"/repo/en/\"") && page.contains("href=\"/repo/\""));
        assert!(!page.contains("=\"https://example.org"), "{page}");
        assert!(
            page.contains("see https://example.org/repo/"),
            "text is left alone"
        );
        match answer(&head("/", "localhost:1111"), local, &snap) {
            Answer::Reply(r) => assert_eq!(r.status, 302),
            Answer::Events => panic!("not the event stream"),
        }
        // A base URL without a path: served at the root, links made root-relative.
        assert!(sh.store(Ok(site("x")), Some("https://example.org")));
        let snap = sh.snapshot();
        assert_eq!(snap.base_path(), "/");
        assert_eq!(
            snap.local_links(b"<a href=\"https://example.org/en/\">"),
            b"<a href=\"/en/\">"
        );
    }

    #[test]
    fn keeps_the_last_good_site_and_versions_changes_only() {
        let sh = shared();
        assert!(sh.store(Ok(site("a")), None));
        assert_eq!(sh.snapshot().version, "7-1");
        assert!(!sh.store(Ok(site("a")), None), "same output: no reload");
        let fail = Failure {
            report: "error: <x>".into(),
            errors: 1,
        };
        assert!(sh.store(Err(fail.clone()), None));
        let snap = sh.snapshot();
        assert_eq!(snap.version, "7-2");
        assert_eq!(snap.site.as_ref(), Some(&site("a")), "last good site kept");
        let page = String::from_utf8(decorate(b"<body>a</body>", &snap)).unwrap_or_default();
        assert!(page.contains("evidence-error-overlay"));
        assert!(page.contains("error: &lt;x&gt;"));
        assert!(page.contains("const v=\"7-2\""));
        assert!(!sh.store(Err(fail), None), "same errors: no reload");
        assert!(sh.store(Ok(site("a")), None), "fixed: the overlay goes");
        let snap = sh.snapshot();
        assert!(snap.failure.is_none());
        let page = String::from_utf8(decorate(b"<body>a</body>", &snap)).unwrap_or_default();
        assert!(!page.contains("evidence-error-overlay"));
    }
}
