//! What data and markdown may put into the site's HTML: link targets by an allowlist of
//! schemes, the site's `base_url`, and heading attributes (only `#id` and `.class`).
//!
//! A browser finds a URL's scheme after decoding entities, dropping tabs and newlines and
//! leading spaces or control characters, and ignoring case. A denylist of `javascript:`
//! and its kin misses a spelling; so a target is parsed as a browser parses it (the `url`
//! crate follows the WHATWG URL standard) and an absolute URL passes only with a scheme on
//! [`SCHEMES`]. A relative reference (a path, `?query`, `#fragment`, `//host/path`, an
//! `@/page` link) has no scheme of its own and passes.

use std::fmt;
use url::{ParseError, Url};

/// The markdown a page block is read as (CommonMark with tables, strikethrough, footnotes
/// and heading attributes): the one set of options that `check` judges and `render`
/// renders, so that both see the same links and headings.
pub fn options() -> pulldown_cmark::Options {
    use pulldown_cmark::Options;
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_HEADING_ATTRIBUTES
}

/// The hint of a `:v[…]` that quotes nothing.
pub const VALUE_HINT: &str =
    "quote values as `:v[kind:id.field]`, e.g. `:v[run:r1.cases.c1.measurements.exec_ms]`";

/// The hint of an `@/` link to a page that does not exist.
pub const PAGE_LINK_HINT: &str =
    "internal links name a page by its file name under content/, e.g. `@/observers`";

/// The page an internal link (`@/page`, `@/page/`, `@/page#fragment`; `@/` is the home
/// page `index`) names, and its fragment; `None` for any other target.
pub fn internal_link(url: &str) -> Option<(&str, Option<&str>)> {
    let rest = url.strip_prefix("@/")?;
    let (page, fragment) = match rest.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (rest, None),
    };
    let page = page.trim_end_matches('/');
    Some((if page.is_empty() { "index" } else { page }, fragment))
}

/// Link and image targets a browser would run or load as script or data, in the
/// spellings a denylist misses: each must be refused (tests of `check` and `render`).
#[cfg(test)]
pub const HOSTILE_TARGETS: &[&str] = &[
    "[x](javascript:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "[x](javascript&colon;alert(1))",
    "[x](jav&#x09;ascript:alert(1))",
    "[x](<  javascript:alert(1)>)",
    "[x][r]\n\n[r]: vbscript:msgbox(1)",
    "![x](data:image/svg+xml;base64,PHN2Zz4=)",
    "<JaVaScRiPt:alert(1)>",
];

/// The events of a block's markdown, read with [`options`], each with the byte it starts
/// at, and each run of text as one event: pulldown-cmark hands text over in pieces (split
/// at characters that might start markup), and a `:v[…]` may straddle them. A run stays
/// borrowed from `md` while it is one piece, as most runs are. What `check` notes and what
/// `render` writes are read from these same events.
pub fn events(md: &str) -> impl Iterator<Item = (pulldown_cmark::Event<'_>, usize)> {
    use pulldown_cmark::Event;
    let mut parsed = pulldown_cmark::Parser::new_ext(md, options())
        .into_offset_iter()
        .peekable();
    std::iter::from_fn(move || {
        let (event, range) = parsed.next()?;
        let Event::Text(mut run) = event else {
            return Some((event, range.start));
        };
        while let Some((Event::Text(piece), _)) =
            parsed.next_if(|(e, _)| matches!(e, Event::Text(_)))
        {
            let mut joined = std::mem::replace(&mut run, "".into()).into_string();
            joined.push_str(&piece);
            run = joined.into();
        }
        Some((Event::Text(run), range.start))
    })
}

/// A construct of a block's markdown that `check` judges, noted by whoever parses the
/// block (`check` itself, or `render` as it renders).
#[derive(Debug, Clone, PartialEq)]
pub enum Noted {
    /// A link's target, as pulldown-cmark hands it over (entities decoded).
    Link(String),
    /// An image's source.
    Image(String),
    /// A heading attribute other than `#id` and `.class` (at the heading's start).
    Attribute(String),
    /// A run of text that holds `:v[`.
    Values(String),
}

/// What one block's markdown holds that `check` judges, in order, each at its byte offset
/// in the block.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Notes(pub Vec<(usize, Noted)>);

impl Notes {
    /// Parses `md` for its notes alone.
    pub fn of(md: &str) -> Notes {
        let mut notes = Notes::default();
        // Every noted construct needs one of these: a link or image `[` (or `<` for an
        // autolink), heading attributes `{`, a value `:v[`. Without them, nothing to parse.
        if !md.contains(['[', '<', '{']) {
            return notes;
        }
        for (event, at) in events(md) {
            notes.note(&event, at);
        }
        notes
    }

    /// Notes what `event` (one of [`events`], starting at byte `at`) holds.
    pub fn note(&mut self, event: &pulldown_cmark::Event, at: usize) {
        match event {
            pulldown_cmark::Event::Text(text) => self.text(text, at),
            other => self.event(other, at),
        }
    }

    /// Notes what a non-text `event` (starting at byte `at`) holds.
    fn event(&mut self, event: &pulldown_cmark::Event, at: usize) {
        use pulldown_cmark::{Event, Tag};
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => {
                self.0.push((at, Noted::Link(dest_url.to_string())));
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                self.0.push((at, Noted::Image(dest_url.to_string())));
            }
            Event::Start(Tag::Heading { attrs, .. }) => {
                for (key, _) in attrs {
                    self.0.push((at, Noted::Attribute(key.to_string())));
                }
            }
            _ => {}
        }
    }

    /// Notes a run of text starting at byte `at` when it quotes a value.
    fn text(&mut self, text: &str, at: usize) {
        if quotes_value(text) {
            self.0.push((at, Noted::Values(text.to_string())));
        }
    }
}

/// Whether `text` holds `:v[`, the start of a quoted value. Asked of every run of text of
/// every block, most of them short: a byte search for `:` beats building a substring
/// searcher each time.
pub fn quotes_value(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b':', bytes).any(|i| bytes[i + 1..].starts_with(b"v["))
}

/// Every string that may be a link or image target of block `md`, as a scan of its bytes
/// finds them, or `None` when the scan cannot vouch for them. `check` judges these in
/// place of a parse when all pass: a block of prose and `@/` links then costs a byte
/// scan, not a CommonMark parse.
///
/// Every target the parser finds is written right after `](` (inline links and images)
/// or `]:` (reference definitions, which reference links use), past optional spaces and
/// line endings, up to a space, tab, line ending or `)`, unless it holds `(` (balanced
/// ones belong to it), `<` (`<…>` targets), `&` or `\` (entities and escapes change it):
/// a candidate with one of those gives `None`. So does a block with any other ASCII
/// control character (pulldown-cmark reads some as spaces around a target), a `<`
/// followed by something other than a space (autolinks; `a < b` is text), a `}` that
/// ends a line past spaces, closing `#`s and backslashes (heading attributes), or a
/// `:v[` (a quoted value, which `check` judges too). So the strings found there, and the
/// empty one, hold every target; the others (text that only looks like a link, a
/// footnote's first word, a link in code) are judged needlessly. The property test in
/// this module holds this to the parser.
pub fn link_candidates(md: &str) -> Option<Vec<&str>> {
    let b = md.as_bytes();
    let autolink = memchr::memchr_iter(b'<', b)
        .any(|i| !matches!(b.get(i + 1), Some(b' ' | b'\t' | b'\n' | b'\r')));
    // pulldown-cmark reads some control characters (vertical tab, form feed) as spaces
    // around a target and others as part of it: a block with one is parsed.
    // No early exit inside a chunk, so that the loop runs on whole vectors of bytes.
    let odd = |any: bool, &c: &u8| {
        any | (((c < b' ') & (c != b'\t') & (c != b'\n') & (c != b'\r')) | (c == 0x7f))
    };
    let control = b.chunks(1024).any(|c| c.iter().fold(false, odd));
    if autolink || control || attributes(md) || quotes_value(md) {
        return None;
    }
    let mut out = vec![""];
    for i in memchr::memchr_iter(b']', b) {
        if !matches!(b.get(i + 1), Some(b'(' | b':')) {
            continue;
        }
        let mut j = i + 2;
        while j < b.len() && matches!(b[j], b' ' | b'\t' | b'\n' | b'\r') {
            j += 1;
        }
        let start = j;
        while j < b.len() && !matches!(b[j], b' ' | b'\t' | b'\n' | b'\r' | b')') {
            if matches!(b[j], b'(' | b'<' | b'&' | b'\\') {
                return None;
            }
            j += 1;
        }
        // `j` stops at an ASCII byte (or the end): a character boundary.
        out.push(&md[start..j]);
    }
    Some(out)
}

/// Whether a line of `md` may end in a heading's attributes: it ends in `}`, past
/// spaces, a closing sequence of `#`s and backslashes (a setext heading's `{…}\` still
/// counts).
fn attributes(md: &str) -> bool {
    memchr::memchr_iter(b'}', md.as_bytes()).any(|i| {
        let line_end = md[i + 1..]
            .find(['\n', '\r'])
            .map_or(md.len(), |n| i + 1 + n);
        md[i + 1..line_end]
            .trim_matches(|c: char| matches!(c, ' ' | '\t' | '#' | '\\'))
            .is_empty()
    })
}

/// What is handed a page's notes (each noted block by its index among the page's items)
/// as soon as the page is rendered, and returns its findings: `check`'s judgment, which
/// the pipeline gives the renderer, so that no page's notes outlive its rendering.
pub type Judge<'a> = &'a (
        dyn Fn(
    &crate::model::page::PageSource,
    &[(usize, Notes)],
) -> Vec<crate::diagnostics::Diagnostic>
            + Sync
    );

/// The schemes an absolute link target may have.
pub const SCHEMES: [&str; 3] = ["http", "https", "mailto"];

/// Said with every refused link target.
pub const LINK_HINT: &str = "link to `https://…`, `http://…` or `mailto:…` addresses, to a \
     relative path or `#fragment`, or to another page with `@/page`";

/// Said with a refused heading attribute.
pub const ATTRIBUTE_HINT: &str = "a heading takes only `{#id}` and `{.class}`, e.g. \
     `## Results {#results .wide}`";

/// Why a link target may not become an `href` or `src`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// An absolute URL whose scheme is not on [`SCHEMES`] (as the browser reads it).
    Scheme(String),
    /// A target with a scheme that does not parse as a URL at all.
    Malformed(ParseError),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::Scheme(s) => write!(
                f,
                "uses the `{s}:` scheme; links may only be http, https, mailto or relative"
            ),
            Refused::Malformed(e) => write!(f, "is not a valid URL ({e})"),
        }
    }
}

/// Whether `target`, a link or image destination as markdown decoded it, may be written
/// into an `href` or `src`.
pub fn link_target(target: &str) -> Result<(), Refused> {
    match Url::parse(target) {
        Ok(url) if SCHEMES.contains(&url.scheme()) => Ok(()),
        Ok(url) => Err(Refused::Scheme(url.scheme().to_string())),
        // No scheme: resolved against the page, so it keeps the page's http(s).
        Err(ParseError::RelativeUrlWithoutBase) => Ok(()),
        Err(e) => Err(Refused::Malformed(e)),
    }
}

/// The message for a refused link target, naming it as written.
pub fn refused_message(target: &str, why: &Refused) -> String {
    format!("link target `{target}` {why}")
}

/// The message for a heading attribute other than `#id` and `.class`.
pub fn attribute_message(key: &str) -> String {
    format!("heading attribute `{key}` is not allowed: only `#id` and `.class` pass into the page")
}

/// Whether `base` may be the site's `base_url`: an absolute http or https URL, written
/// plainly (no spaces or control characters, which a browser would drop or encode), and
/// without a query or fragment (page paths are appended to it).
pub fn base_url(base: &str) -> Result<(), BaseUrlError> {
    let base_owned = || base.to_string();
    if base.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(BaseUrlError::Unprintable(base_owned()));
    }
    let url = Url::parse(base).map_err(|why| BaseUrlError::NotAbsolute {
        base: base_owned(),
        why,
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(BaseUrlError::Scheme {
            base: base_owned(),
            scheme: url.scheme().to_string(),
        });
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(BaseUrlError::QueryOrFragment(base_owned()));
    }
    Ok(())
}

/// Why a `base_url` (as written) cannot be the site's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BaseUrlError {
    /// It holds spaces or control characters.
    Unprintable(String),
    /// It does not parse as an absolute URL.
    NotAbsolute { base: String, why: url::ParseError },
    /// A scheme other than http(s).
    Scheme { base: String, scheme: String },
    /// A query or fragment, which page paths appended to it would land in.
    QueryOrFragment(String),
}

impl std::fmt::Display for BaseUrlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BaseUrlError::Unprintable(base) => write!(
                f,
                "`base_url` `{}` holds spaces or control characters",
                base.escape_debug()
            ),
            BaseUrlError::NotAbsolute { base, why } => {
                write!(f, "`base_url` `{base}` is not an absolute URL ({why})")
            }
            BaseUrlError::Scheme { base, scheme } => write!(
                f,
                "`base_url` `{base}` uses the `{scheme}:` scheme, not http or https"
            ),
            BaseUrlError::QueryOrFragment(base) => write!(
                f,
                "`base_url` `{base}` has a query or fragment, which page paths cannot follow"
            ),
        }
    }
}

impl std::error::Error for BaseUrlError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_links_name_a_page_and_maybe_a_fragment() {
        assert_eq!(internal_link("@/observers"), Some(("observers", None)));
        assert_eq!(
            internal_link("@/runs/r-1/#c"),
            Some(("runs/r-1", Some("c")))
        );
        assert_eq!(internal_link("@/"), Some(("index", None)));
        assert_eq!(internal_link("@/#top"), Some(("index", Some("top"))));
        assert_eq!(internal_link("observers"), None);
    }

    /// pulldown-cmark splits `a :v[x] b` at the `[`; the run comes back whole, at its start.
    #[test]
    fn a_run_of_text_is_one_event() {
        let texts: Vec<(String, usize)> = events("# T\n\na :v[x] b *c*")
            .filter_map(|(e, at)| match e {
                pulldown_cmark::Event::Text(t) => Some((t.to_string(), at)),
                _ => None,
            })
            .collect();
        assert_eq!(
            texts,
            [("T".into(), 2), ("a :v[x] b ".into(), 5), ("c".into(), 16)]
        );
    }

    #[test]
    fn link_candidates_are_what_follows_a_bracket() {
        let c = link_candidates("a [x](@/p) ![i]( img.png \"t\")\n\n[r]:\n  https://e.org/ z")
            .expect("plain");
        assert_eq!(c, ["", "@/p", "img.png", "https://e.org/"]);
        assert!(link_candidates("a < b & c \\ d {e} f").is_some());
        for vouched_not in [
            "<b>",
            "[x](a&amp;b)",
            "[x](a\\)b)",
            "## H {#h}",
            "## H {#h} ##",
            "H {.c}\n---",
            ":v[a.b]",
            "[x](f(1))",
            "[x](<y>)",
            "![i](\u{b}x)",
            "{x=y}\\\n===",
        ] {
            assert_eq!(link_candidates(vouched_not), None, "{vouched_not}");
        }
        // The control scan runs in chunks: one anywhere, on either side of a chunk's
        // edge, is still found; DEL too, and tabs and line endings are not controls here.
        let long = "a\tb\r\n".repeat(700);
        assert!(link_candidates(&long).is_some());
        for at in [0, 1023, 1024, 1025, 2047, long.len() - 1] {
            for c in ['\u{b}', '\u{0}', '\u{7f}'] {
                let mut odd = long.clone();
                odd.replace_range(at..=at, &c.to_string());
                assert_eq!(link_candidates(&odd), None, "{c:?} at {at}");
            }
        }
    }

    proptest::proptest! {
        /// Whatever the parser finds in a block the scan vouches for is among its
        /// candidates, and the parser notes nothing else (no heading attribute, no value).
        #[test]
        fn link_candidates_hold_every_target_the_parser_finds(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "[a](", "](", "]:", "[", "]", "(", ")", "![i](", "[r]: ", "[r]", "[^1]: ",
                "[^1]", " ", "  ", "\t", "\n", "\n\n", "\r\n", "`", "``", "```\n", "    ",
                "| a | b |\n|---|---|\n", "|", "> ", "- ", "1. ", "# ", "*", "_", "~~",
                "\"t\"", "'t'", "@/p", "@/q#f", "#f", "https://e.org/x", "javascript:x",
                "mailto:a@b", "data:x", "x", "y z", "本文", "\u{3000}", "\u{7f}", "\u{1}",
                "\u{b}", "\u{c}", "\u{0}", "=", "-", "+", "[[", "]]", "<", "< ", ">", "<a@b.c>", "<https://e.org>", "&", "&amp;", "&#x29;", "\\",
                "\\]", "\\)", "{", "}", "{#h}", "{.c}", "{x=y}", "#", " #", "===\n", "---\n",
            ]), 0..24)
        ) {
            let md: String = parts.concat();
            if let Some(candidates) = link_candidates(&md) {
                for (event, _) in events(&md) {
                    use pulldown_cmark::{Event, Tag};
                    let mut noted = Notes::default();
                    noted.note(&event, 0);
                    match event {
                        Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                            proptest::prop_assert!(
                                candidates.contains(&dest_url.as_ref()),
                                "{md:?}: {dest_url:?} not in {candidates:?}"
                            );
                        }
                        _ => proptest::prop_assert!(noted.0.is_empty(), "{md:?}: {:?}", noted.0),
                    }
                }
            }
        }
    }

    #[test]
    fn the_quote_hint_shows_a_core_kind_that_any_site_has() {
        let example = VALUE_HINT.rsplit("`:v[").next().unwrap_or_default();
        let kind = example.split(':').next().unwrap_or_default();
        let kind = crate::model::registry::Kind::from_name(kind).expect("a kind");
        assert!(
            !matches!(kind, crate::model::registry::Kind::Pack(_)),
            "{VALUE_HINT}"
        );
    }

    #[test]
    fn quoted_values_are_found_wherever_they_start() {
        for yes in [":v[a]", "x :v[", "a: b :v[c", "::v["] {
            assert!(quotes_value(yes), "{yes}");
        }
        for no in ["", ":", ":v", "v[x]", ": v[", ":V[", "a:"] {
            assert!(!quotes_value(no), "{no}");
        }
    }

    /// Targets as pulldown-cmark hands them over (entities already decoded).
    #[test]
    fn script_schemes_are_refused_however_spelled() {
        for t in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            "  javascript:alert(1)",
            "\u{1}javascript:alert(1)",
            "jav\tascript:alert(1)",
            "java\nscript:alert(1)",
            "vbscript:msgbox(1)",
            "data:text/html;base64,PHNjcmlwdD4=",
            "DATA:image/svg+xml,<svg onload=alert(1)>",
            "file:///etc/passwd",
            "ftp://example.org/x",
            "blob:https://example.org/x",
        ] {
            assert!(
                matches!(link_target(t), Err(Refused::Scheme(_))),
                "{t:?} passed"
            );
        }
    }

    #[test]
    fn web_mail_and_relative_targets_pass() {
        for t in [
            "https://example.org/a?b=1&c=2#d",
            "HTTP://example.org",
            "mailto:someone@example.org",
            "../runs/r-1/index.html",
            "#step-1",
            "?q=1",
            "//example.org/x",
            "@/observers#step",
            "a@example.org",
            "1javascript:alert(1)",
            "観測/ポイント",
            "",
        ] {
            assert_eq!(link_target(t), Ok(()), "{t:?} refused");
        }
    }

    #[test]
    fn a_broken_absolute_url_is_refused() {
        assert!(matches!(
            link_target("https://exa mple.org/"),
            Err(Refused::Malformed(_))
        ));
    }

    #[test]
    fn base_url_is_an_absolute_http_url() {
        for ok in ["https://example.org/sub/", "http://127.0.0.1:8000/"] {
            assert_eq!(base_url(ok), Ok(()), "{ok}");
        }
        for bad in [
            "javascript:alert(1)//",
            "/sub/",
            "example.org/sub/",
            "mailto:a@example.org",
            "https://example.org/?x=1",
            "https://example.org/#top",
            " https://example.org/",
            "https://example.org/\n",
        ] {
            assert!(base_url(bad).is_err(), "{bad:?} passed");
        }
    }

    #[test]
    fn a_refused_base_url_says_why_as_before() {
        let said = |b: &str| base_url(b).unwrap_err().to_string();
        assert_eq!(
            said("mailto:a@example.org"),
            "`base_url` `mailto:a@example.org` uses the `mailto:` scheme, not http or https"
        );
        assert_eq!(
            said("/sub/"),
            "`base_url` `/sub/` is not an absolute URL (relative URL without a base)"
        );
        assert_eq!(
            said("https://example.org/\n"),
            "`base_url` `https://example.org/\\n` holds spaces or control characters"
        );
        assert_eq!(
            said("https://example.org/#top"),
            "`base_url` `https://example.org/#top` has a query or fragment, which page paths cannot follow"
        );
    }
}
