//! The element ids of each rendered page and the links it makes into the site, read from
//! the pages as they pass to the sink: the facts `check::fragments` judges, so that every
//! `#fragment`, written or generated, names an id its target page really has.

use super::Sink;
pub use crate::model::page::PageLinks;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// A sink that notes each HTML page's ids and fragment links, then passes it on.
pub struct Links<'a> {
    inner: &'a dyn Sink,
    base: Option<String>,
    pages: Mutex<BTreeMap<String, PageLinks>>,
}

impl<'a> Links<'a> {
    /// `base`: the site's `base_url`, whose absolute links are links into the site.
    pub fn new(inner: &'a dyn Sink, base: Option<&str>) -> Self {
        Links {
            inner,
            base: base.map(|b| format!("{}/", b.trim_end_matches('/'))),
            pages: Mutex::new(BTreeMap::new()),
        }
    }

    /// The pages seen, by output file.
    pub fn into_pages(self) -> BTreeMap<String, PageLinks> {
        self.pages.into_inner().unwrap_or_else(|e| e.into_inner())
    }

    /// Calls `f` with the pages seen so far, by output file.
    pub fn seen<R>(&self, f: impl FnOnce(&BTreeMap<String, PageLinks>) -> R) -> R {
        match self.pages.lock() {
            Ok(pages) => f(&pages),
            Err(e) => f(&e.into_inner()),
        }
    }
}

/// The values of the attribute that `finder` finds (` name="`) in `html` (double-quoted,
/// as the renderer writes them), entities left as written. Bytes are searched with SIMD
/// (memchr's memmem); only the values are read as text.
fn attributes<'h>(html: &'h [u8], finder: &memchr::memmem::Finder) -> Vec<&'h str> {
    let len = finder.needle().len();
    finder
        .find_iter(html)
        .filter_map(|i| {
            let rest = &html[i + len..];
            let end = memchr::memchr(b'"', rest)?;
            std::str::from_utf8(&rest[..end]).ok()
        })
        .collect()
}

/// How often a byte occurs in HTML, roughly: memmem looks first for the two rarest
/// bytes of a needle. By its default ranks, made for prose, those of ` id="` are `=` and
/// `"`, which open every attribute of a page; here the letters are the rarer ones, so
/// that a page's thousands of `class="…"` are not each a candidate.
struct HtmlRank;

impl memchr::arch::all::packedpair::HeuristicFrequencyRank for HtmlRank {
    fn rank(&self, byte: u8) -> u8 {
        match byte {
            b' ' | b'"' | b'=' | b'<' | b'>' | b'/' => 255,
            b'a'..=b'z' => 120,
            _ => 60,
        }
    }
}

/// A finder of ` name="` tuned to HTML.
fn finder(name: &str) -> memchr::memmem::Finder<'static> {
    memchr::memmem::FinderBuilder::new()
        .build_forward_with_ranker(HtmlRank, format!(" {name}=\"").as_bytes())
        .into_owned()
}

static IDS: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| finder("id"));
/// The `id` attributes of an HTML fragment the renderer wrote.
pub fn ids_in(html: &[u8]) -> Vec<&str> {
    attributes(html, &IDS)
}

static HREFS: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| finder("href"));

/// `target` (a link on page `from`) as a file below the site root, or `None` for a link
/// out of the site.
fn resolve(from: &str, target: &str, base: Option<&str>) -> Option<String> {
    let path = match base.and_then(|b| target.strip_prefix(b)) {
        Some(inside) => inside.to_string(),
        None if target.contains("://") || target.starts_with("mailto:") => return None,
        None if target.is_empty() => from.to_string(),
        None => {
            let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
            let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
            for seg in target.split('/') {
                match seg {
                    ".." => {
                        parts.pop()?;
                    }
                    "." | "" => {}
                    s => parts.push(s),
                }
            }
            let mut p = parts.join("/");
            if target.ends_with('/') {
                p.push('/');
            }
            p
        }
    };
    Some(if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path
    })
}

impl Sink for Links<'_> {
    fn put(&self, path: String, bytes: Vec<u8>) {
        if path.ends_with(".html") {
            let mut page = PageLinks::new(attributes(&bytes, &IDS));
            for href in attributes(&bytes, &HREFS) {
                // Most links have no fragment: those cost one scan and nothing else.
                if !href.contains('#') {
                    continue;
                }
                let href = href.replace("&amp;", "&");
                let Some((target, fragment)) = href.split_once('#') else {
                    continue;
                };
                // A browser matches the fragment against ids decoded, as they are written.
                let fragment = percent_encoding::percent_decode_str(fragment).decode_utf8_lossy();
                if let Some(file) = resolve(&path, target, self.base.as_deref()) {
                    page.fragments.push((file, fragment.into_owned()));
                }
            }
            if let Ok(mut pages) = self.pages.lock() {
                pages.insert(path.clone(), page);
            }
        }
        self.inner.put(path, bytes);
    }

    fn put_pieces(&self, path: String, write: &mut super::Pieces) {
        // Pages are scanned whole; other files pass through in pieces.
        if path.ends_with(".html") {
            self.put(path, super::gather(write));
        } else {
            self.inner.put_pieces(path, write);
        }
    }

    fn prepare(&self, folders: &[String]) {
        self.inner.prepare(folders);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The finders tuned to HTML find what a plain search finds, wherever it is.
        #[test]
        fn tuned_finders_find_every_attribute(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    " id=\"a\"", " href=\"#b\"", " class=\"c\"", "<td>", "</td>", "id", "href",
                    " data-id=\"d\"", "=\"", " ", "x", "<a", ">", "\u{3042}",
                ]),
                0..60,
            )
        ) {
            let html = parts.concat();
            for (finder, name) in [(&*IDS, "id"), (&*HREFS, "href")] {
                let plain: Vec<usize> =
                    memchr::memmem::find_iter(html.as_bytes(), format!(" {name}=\"").as_bytes())
                        .collect();
                let tuned: Vec<usize> = finder.find_iter(html.as_bytes()).collect();
                proptest::prop_assert_eq!(tuned, plain);
            }
        }
    }

    #[test]
    fn links_resolve_against_the_page_they_are_on() {
        let base = Some("https://example.org/inv/");
        assert_eq!(
            resolve("en/a/index.html", "../b/index.html", None).as_deref(),
            Some("en/b/index.html")
        );
        assert_eq!(
            resolve("en/a/index.html", "../../index.html", None).as_deref(),
            Some("index.html")
        );
        assert_eq!(
            resolve("en/a/index.html", "", None).as_deref(),
            Some("en/a/index.html")
        );
        assert_eq!(
            resolve("index.html", "en/", None).as_deref(),
            Some("en/index.html")
        );
        assert_eq!(resolve("index.html", "../x", None), None, "above the root");
        assert_eq!(
            resolve("index.html", "https://example.org/inv/en/b/", base).as_deref(),
            Some("en/b/index.html")
        );
        assert_eq!(resolve("index.html", "https://github.com/x", base), None);
    }

    #[test]
    fn ids_and_fragment_links_are_noted_and_passed_on() {
        let inner = super::super::MemorySink::default();
        let links = Links::new(&inner, None);
        links.put(
            "en/a/index.html".into(),
            br##"<h2 id="top">x</h2><a href="#top">t</a><a href="../b/index.html#row-1">b</a><a href="https://x.org/#y">o</a><a href="#%E6%9C%AC%E6%96%87">j</a>"##.to_vec(),
        );
        let pages = links.into_pages();
        let p = &pages["en/a/index.html"];
        assert!(p.has("top") && !p.has("row-1"));
        assert_eq!(
            p.fragments,
            [
                ("en/a/index.html".to_string(), "top".to_string()),
                ("en/b/index.html".to_string(), "row-1".to_string()),
                ("en/a/index.html".to_string(), "本文".to_string())
            ]
        );
        assert_eq!(inner.into_site().files.len(), 1);
    }
}
