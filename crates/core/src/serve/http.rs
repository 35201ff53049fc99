//! Request routing for the preview server: which key of the in-memory [`Served`] a request
//! target names, with which status and content type.
//!
//! Everything here is a pure function of the request head and the site, so it is tested
//! without a socket. The rules:
//!
//! - The `Host` header must name this server ([`check_host`]): `localhost`, `127.0.0.1`,
//!   `[::1]` or the address the connection reached, each with or without its port,
//!   in any case. Anything else gets 421 and a short text: a page of another site whose
//!   name was rebound to 127.0.0.1 (DNS rebinding) must not read the preview or its
//!   error overlay. An HTTP/1.1 request without Host, or with two, gets 400.
//! - Only `GET` and `HEAD` are answered (anything else: 405).
//! - The target is percent-decoded once and split into segments. A target that does not
//!   start with `/`, that holds a `..` segment (literally or encoded, `%2e%2e`), a backslash
//!   (literally or `%5c`), a NUL or another control character, or that is not UTF-8 after
//!   decoding, is refused with 400. `.` and empty segments are dropped.
//! - The remaining path is looked up as a key of the site map, and nothing else: the
//!   server never touches the file system, so nothing outside the output can be served.
//! - A folder URL (ending in `/`) serves its `index.html`, or the 404 page. A folder
//!   without its trailing slash is redirected to it (relative links need the slash); the
//!   `Location` is percent-encoded again, so that it is plain ASCII.
//!   There is no directory listing.
//! - A missing key gets the site's `404.html` with status 404.
//! - A site with a `base_url` under a path (`https://example.org/repo/`) is served under
//!   that path (`/repo/`), as it will be published ([`route_under`]).

use crate::incremental::Served;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// What the router decided; `mod.rs` turns it into a response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Routed {
    /// Serve the site file with this key and status (200, or 404 for `404.html`).
    File { key: String, status: u16 },
    /// The server-sent events stream (`/__evidence/events`).
    Events,
    /// Redirect to this absolute path (a folder without its trailing slash).
    Redirect(String),
    /// No such file and no 404 page in the site.
    NotFound,
    /// The request target is refused (traversal, backslash, bad encoding…): 400.
    BadRequest(&'static str),
    /// A method other than GET or HEAD: 405.
    MethodNotAllowed,
    /// The `Host` header names another server: 421.
    Misdirected,
}

/// Path of the live-reload event stream.
pub const EVENTS_PATH: &str = "/__evidence/events";

/// Routes one request. `method` is the HTTP method as sent, `target` the raw request
/// target (`/ja/observers/?x=1`).
pub fn route(method: &str, target: &str, site: &Served) -> Routed {
    if method != "GET" && method != "HEAD" {
        return Routed::MethodNotAllowed;
    }
    let path = match normalise(target) {
        Ok(p) => p,
        Err(why) => return Routed::BadRequest(why),
    };
    if method == "GET" && path == EVENTS_PATH.trim_start_matches('/') {
        return Routed::Events;
    }
    let key = if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.clone()
    };
    if site.files.contains_key(&key) {
        return Routed::File { key, status: 200 };
    }
    if !path.is_empty() && !path.ends_with('/') {
        let folder_index = format!("{path}/index.html");
        if site.files.contains_key(&folder_index) {
            return Routed::Redirect(format!("/{}/", encode_path(&path)));
        }
    }
    not_found(site)
}

/// The site's 404 page with status 404, or no page at all.
fn not_found(site: &Served) -> Routed {
    if site.files.contains_key("404.html") {
        Routed::File {
            key: "404.html".into(),
            status: 404,
        }
    } else {
        Routed::NotFound
    }
}

/// Routes one request for a site published under the path `base` (`/repo/` for a
/// `base_url` of `https://example.org/repo/`; `/` at a domain's root): the preview serves
/// the site under that same path, so the root-relative links of its 404 page work in the
/// preview as they will when published. `/` and `/repo` are redirected to `/repo/`; any
/// other path outside it gets the 404 page. The event stream stays at the root.
pub fn route_under(method: &str, target: &str, site: &Served, base: &str) -> Routed {
    let prefix = base.trim_end_matches('/');
    let path = target.split(['?', '#']).next().unwrap_or("");
    if prefix.is_empty() || path == EVENTS_PATH {
        return route(method, target, site);
    }
    if method != "GET" && method != "HEAD" {
        return Routed::MethodNotAllowed;
    }
    if path == "/" || path == prefix {
        return Routed::Redirect(base.to_string());
    }
    if let Some(rest) = target.strip_prefix(prefix).filter(|r| r.starts_with('/')) {
        return match route(method, rest, site) {
            Routed::Redirect(to) => Routed::Redirect(format!("{prefix}{to}")),
            r => r,
        };
    }
    not_found(site)
}

/// Checks the `Host` fields of a request: `hosts` holds the value of each, `http11` says
/// whether the request is HTTP/1.1 (HTTP/1.0 may omit the field), `local` is the address
/// the connection reached (the bound address, or with `--bind 0.0.0.0` the interface's).
/// `Err` holds the refusal to send instead of routing.
pub fn check_host(hosts: &[&[u8]], http11: bool, local: SocketAddr) -> Result<(), Routed> {
    match hosts {
        [] if http11 => Err(Routed::BadRequest(
            "an HTTP/1.1 request needs a Host header",
        )),
        [] => Ok(()),
        [one] if host_allowed(one, local) => Ok(()),
        [_] => Err(Routed::Misdirected),
        _ => Err(Routed::BadRequest("more than one Host header")),
    }
}

/// Whether a `Host` value names this server (see [`check_host`]).
fn host_allowed(value: &[u8], local: SocketAddr) -> bool {
    let Ok(text) = std::str::from_utf8(value) else {
        return false;
    };
    let Some((name, port)) = split_port(text.trim()) else {
        return false;
    };
    if port.is_some_and(|p| p != local.port()) {
        return false;
    }
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let ip = match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(v6) => v6.parse::<Ipv6Addr>().ok().map(IpAddr::V6),
        None => name.parse::<Ipv4Addr>().ok().map(IpAddr::V4),
    };
    // Canonical: a dual-stack socket sees an IPv4 client as `::ffff:a.b.c.d`.
    ip.is_some_and(|ip| {
        ip == Ipv4Addr::LOCALHOST || ip == Ipv6Addr::LOCALHOST || ip == local.ip().to_canonical()
    })
}

/// Splits `name[:port]` (`[v6]:port` for IPv6). `None` when the port is not a number
/// that fits in 16 bits; an empty port is no port.
fn split_port(host: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = if host.starts_with('[') {
        let end = host.find(']')? + 1;
        match &host[end..] {
            "" => (&host[..end], ""),
            rest => (&host[..end], rest.strip_prefix(':')?),
        }
    } else {
        host.rsplit_once(':').unwrap_or((host, ""))
    };
    if port.is_empty() {
        return Some((name, None));
    }
    if !port.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((name, Some(port.parse().ok()?)))
}

/// Percent-encodes a site path for a header: every byte but unreserved characters and
/// `/` is escaped.
pub fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Turns a request target into a site-relative path (no leading slash; a trailing slash
/// kept for folders), or says why it is refused.
pub fn normalise(target: &str) -> Result<String, &'static str> {
    let raw = target.split(['?', '#']).next().unwrap_or("");
    if !raw.starts_with('/') {
        return Err("the request target must be an absolute path starting with `/`");
    }
    if raw.contains('\\') {
        return Err("backslashes are not allowed in paths");
    }
    let bytes = percent_decode(raw).ok_or("malformed percent-encoding")?;
    let decoded = String::from_utf8(bytes).map_err(|_| "the path is not UTF-8")?;
    if decoded.contains('\\') {
        return Err("backslashes are not allowed in paths");
    }
    if decoded.chars().any(char::is_control) {
        return Err("control characters are not allowed in paths");
    }
    let folder = decoded.ends_with('/');
    let mut segments = Vec::new();
    for seg in decoded.split('/') {
        match seg {
            "" | "." => {}
            ".." => return Err("`..` is not allowed in paths"),
            s if s.contains(':') && segments.is_empty() && s.len() == 2 => {
                // `C:` as a first segment: a Windows drive, never a site path.
                return Err("absolute paths are not allowed");
            }
            s => segments.push(s),
        }
    }
    let mut out = segments.join("/");
    if folder && !out.is_empty() {
        out.push('/');
    }
    Ok(out)
}

/// Decodes `%XX` escapes once. `None` for a `%` not followed by two hex digits.
fn percent_decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hi = hex(*b.get(i + 1)?)?;
            let lo = hex(*b.get(i + 2)?)?;
            out.push(hi * 16 + lo);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

fn hex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// The `Content-Type` of a site key, by extension; text types carry `charset=utf-8`.
pub fn content_type(key: &str) -> &'static str {
    let ext = key
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json; charset=utf-8",
        "xml" => "application/xml; charset=utf-8",
        "svg" => "image/svg+xml; charset=utf-8",
        "txt" | "md" => "text/plain; charset=utf-8",
        "csv" => "text/csv; charset=utf-8",
        "yaml" | "yml" => "application/yaml; charset=utf-8",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "pdf" => "application/pdf",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

/// Whether responses of this content type get the reload script and the error overlay.
pub fn is_html(content_type: &str) -> bool {
    content_type.starts_with("text/html")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> Served {
        let mut s = Served::default();
        for k in [
            "index.html",
            "404.html",
            "observers/index.html",
            "ja/observers/index.html",
            "static/style.css",
            "figures/observers/map.en.svg",
        ] {
            s.files.insert(k.into(), b"x"[..].into());
        }
        s
    }

    fn file(key: &str) -> Routed {
        Routed::File {
            key: key.into(),
            status: 200,
        }
    }

    fn not_found() -> Routed {
        Routed::File {
            key: "404.html".into(),
            status: 404,
        }
    }

    #[test]
    fn serves_keys_and_folder_indexes() {
        let s = site();
        assert_eq!(route("GET", "/", &s), file("index.html"));
        assert_eq!(route("HEAD", "/index.html", &s), file("index.html"));
        assert_eq!(
            route("GET", "/observers/", &s),
            file("observers/index.html")
        );
        assert_eq!(
            route("GET", "/ja/observers/?v=1#top", &s),
            file("ja/observers/index.html")
        );
        assert_eq!(
            route("GET", "/static/style.css", &s),
            file("static/style.css")
        );
        assert_eq!(
            route("GET", "/observers", &s),
            Routed::Redirect("/observers/".into())
        );
        assert_eq!(
            route("GET", "/%6Fbservers/", &s),
            file("observers/index.html")
        );
        assert_eq!(
            route("GET", "/./observers//", &s),
            file("observers/index.html")
        );
    }

    #[test]
    fn a_site_with_a_base_path_is_served_under_it() {
        let s = site();
        let base = "/repo/";
        assert_eq!(route_under("GET", "/repo/", &s, base), file("index.html"));
        assert_eq!(
            route_under("GET", "/repo/ja/observers/?x=1", &s, base),
            file("ja/observers/index.html")
        );
        assert_eq!(
            route_under("GET", "/repo/observers", &s, base),
            Routed::Redirect("/repo/observers/".into())
        );
        for to_base in ["/", "/repo", "/repo?x=1"] {
            assert_eq!(
                route_under("GET", to_base, &s, base),
                Routed::Redirect(base.into()),
                "{to_base}"
            );
        }
        // Outside the base path: the site's 404 page, never a file of the site.
        for outside in [
            "/observers/",
            "/static/style.css",
            "/repository/",
            "/other/repo/",
        ] {
            assert_eq!(
                route_under("GET", outside, &s, base),
                not_found(),
                "{outside}"
            );
        }
        assert_eq!(
            route_under("GET", "/repo/../index.html", &s, base),
            Routed::BadRequest("`..` is not allowed in paths")
        );
        assert_eq!(route_under("GET", EVENTS_PATH, &s, base), Routed::Events);
        assert_eq!(
            route_under("POST", "/repo/", &s, base),
            Routed::MethodNotAllowed
        );
        assert_eq!(
            route_under("GET", "/observers/", &s, "/"),
            file("observers/index.html")
        );
    }

    #[test]
    fn no_directory_listing() {
        let s = site();
        assert_eq!(route("GET", "/static/", &s), not_found());
        assert_eq!(route("GET", "/static", &s), not_found());
        assert_eq!(route("GET", "/figures/", &s), not_found());
        assert_eq!(route("GET", "/nope.html", &s), not_found());
        let mut bare = site();
        bare.files.remove("404.html");
        assert_eq!(route("GET", "/nope", &bare), Routed::NotFound);
    }

    #[test]
    fn refuses_traversal() {
        let s = site();
        for t in [
            "/../Cargo.toml",
            "/static/../../Cargo.toml",
            "/%2e%2e/Cargo.toml",
            "/%2E%2E/Cargo.toml",
            "/..%2fCargo.toml",
            "/%2e%2e%2fCargo.toml",
            "/static/..%5c..%5cCargo.toml",
            "/static\\..\\Cargo.toml",
            "/%5cetc%5cpasswd",
            "/C:/Windows/win.ini",
            "/c%3a/Windows/win.ini",
            "http://localhost/../Cargo.toml",
            "Cargo.toml",
            "",
            "/%00index.html",
            "/%zz",
            "/%ff%fe",
            "/..",
        ] {
            assert!(
                matches!(route("GET", t, &s), Routed::BadRequest(_)),
                "{t:?} → {:?}",
                route("GET", t, &s)
            );
        }
        // Decoded once only: a double-encoded `..` is a literal file name, not a key.
        assert_eq!(route("GET", "/%252e%252e/Cargo.toml", &s), not_found());
        // `//etc/passwd` is the site path `etc/passwd`, which is no key.
        assert_eq!(route("GET", "//etc/passwd", &s), not_found());
    }

    #[test]
    fn methods_and_events() {
        let s = site();
        assert_eq!(route("POST", "/", &s), Routed::MethodNotAllowed);
        assert_eq!(route("DELETE", "/index.html", &s), Routed::MethodNotAllowed);
        assert_eq!(route("GET", EVENTS_PATH, &s), Routed::Events);
        assert_eq!(route("GET", "/__evidence/events?x", &s), Routed::Events);
        assert_eq!(route("HEAD", EVENTS_PATH, &s), not_found());
    }

    fn local() -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], 1111))
    }

    fn host(value: &str) -> Result<(), Routed> {
        check_host(&[value.as_bytes()], true, local())
    }

    #[test]
    fn answers_the_names_of_this_server() {
        for h in [
            "localhost",
            "LOCALHOST",
            "localhost:1111",
            "127.0.0.1",
            "127.0.0.1:1111",
            "[::1]",
            "[::1]:1111",
            "[0:0:0:0:0:0:0:1]",
            " localhost:1111 ",
            "localhost:",
        ] {
            assert_eq!(host(h), Ok(()), "{h:?}");
        }
        // The bound address when it is not loopback, in any case for IPv6.
        let lan = SocketAddr::from(([192, 168, 1, 5], 8080));
        assert_eq!(check_host(&[b"192.168.1.5:8080"], true, lan), Ok(()));
        assert_eq!(check_host(&[b"localhost:8080"], true, lan), Ok(()));
        let v6: SocketAddr = "[fe80::ab]:8080".parse().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(check_host(&[b"[FE80::AB]:8080"], true, v6), Ok(()));
        // An IPv4 client of a dual-stack socket.
        let mapped: SocketAddr = "[::ffff:10.0.0.2]:8080"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(check_host(&[b"10.0.0.2:8080"], true, mapped), Ok(()));
        // HTTP/1.0 may leave Host out.
        assert_eq!(check_host(&[], false, local()), Ok(()));
    }

    #[test]
    fn refuses_other_hosts() {
        for h in [
            "evil.example",
            "evil.example:1111",
            "localhost.evil.example",
            "127.0.0.1.evil.example",
            "localhost:1112",
            "localhost:99999",
            "localhost:+1111",
            "localhost:11x",
            "127.0.0.2",
            "0.0.0.0",
            "[::2]",
            "[127.0.0.1]",
            "::1",
            "[::1]x",
            "[::1",
            "0177.0.0.1",
            "2130706433",
            "localhost.",
            "",
        ] {
            assert_eq!(host(h), Err(Routed::Misdirected), "{h:?}");
        }
        let lan = SocketAddr::from(([192, 168, 1, 5], 8080));
        assert_eq!(
            check_host(&[b"192.168.1.6:8080"], true, lan),
            Err(Routed::Misdirected)
        );
        assert_eq!(
            check_host(&[b"local\xffhost"], true, local()),
            Err(Routed::Misdirected)
        );
        assert!(matches!(
            check_host(&[], true, local()),
            Err(Routed::BadRequest(_))
        ));
        assert!(matches!(
            check_host(&[b"localhost", b"evil.example"], true, local()),
            Err(Routed::BadRequest(_))
        ));
    }

    #[test]
    fn redirects_are_ascii() {
        let mut s = site();
        s.files.insert("ja/観測/index.html".into(), b"x"[..].into());
        s.files.insert("a b%/index.html".into(), b"x"[..].into());
        assert_eq!(
            route("GET", "/ja/%E8%A6%B3%E6%B8%AC", &s),
            Routed::Redirect("/ja/%E8%A6%B3%E6%B8%AC/".into())
        );
        assert_eq!(
            route("GET", "/a%20b%25", &s),
            Routed::Redirect("/a%20b%25/".into())
        );
        assert_eq!(encode_path("a-b_c.d~/e"), "a-b_c.d~/e");
        assert_eq!(encode_path("?#:"), "%3F%23%3A");
    }

    #[test]
    fn content_types() {
        assert_eq!(content_type("a/index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("static/style.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("f/x.SVG"), "image/svg+xml; charset=utf-8");
        assert_eq!(
            content_type("evidence.json"),
            "application/json; charset=utf-8"
        );
        assert_eq!(
            content_type("sitemap.xml"),
            "application/xml; charset=utf-8"
        );
        assert_eq!(content_type("a.png"), "image/png");
        assert_eq!(content_type("noext"), "application/octet-stream");
        assert!(is_html(content_type("404.html")));
        assert!(!is_html(content_type("a.svg")));
    }
}
