//! Hostile markup through the real pipeline: a corpus of markdown an attacker could write
//! into a page block or a data text, each put into a copy of the valid fixture and built.
//!
//! For every case and place: the rendered site (what `serve` would show, were it to render
//! past the errors) holds none of the case's forbidden substrings, no `on…` attribute and
//! no `href`/`src` whose scheme, as a browser reads it, is not http, https or mailto; a
//! hostile case is an error located in the file that holds it, so `build` exits 1 and
//! writes nothing; a harmless one builds clean and keeps its links.

mod common;

use common::*;
use evidence::diagnostics::Severity;
use std::path::Path;

/// Where a hostile text is put in the fixture.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// The `:::en` block of `content/details.md`.
    Page,
    /// The English text of question `q1` (a YAML text field, inline markdown).
    DataText,
}

impl Place {
    fn file(self) -> &'static str {
        match self {
            Place::Page => "content/details.md",
            Place::DataText => "data/questions.yaml",
        }
    }

    /// The line the text starts on.
    fn line(self) -> usize {
        match self {
            Place::Page => 17,
            Place::DataText => 4,
        }
    }

    fn put(self, root: &Path, text: &str) {
        match self {
            Place::Page => replace_once(
                root,
                self.file(),
                "The fixture tables.\n",
                &format!("{text}\n"),
            ),
            // A JSON string is a YAML double-quoted scalar.
            Place::DataText => replace_once(
                root,
                self.file(),
                "\"An open fixture question.\"",
                &serde_json::to_string(text).expect("a string serializes"),
            ),
        }
    }
}

struct Case {
    markdown: &'static str,
    /// The code it must be reported with; `None` for a harmless text.
    error: Option<&'static str>,
    /// Substrings no output file may hold (compared in lower case).
    forbidden: &'static [&'static str],
    /// Substrings some output file must hold.
    expected: &'static [&'static str],
}

const fn bad(
    markdown: &'static str,
    code: &'static str,
    forbidden: &'static [&'static str],
) -> Case {
    Case {
        markdown,
        error: Some(code),
        forbidden,
        expected: &[],
    }
}

const fn fine(markdown: &'static str, expected: &'static [&'static str]) -> Case {
    Case {
        markdown,
        error: None,
        forbidden: &[],
        expected,
    }
}

const URL: &str = "unsafe-url";
const ATTR: &str = "heading-attribute";

const CORPUS: &[Case] = &[
    // Heading attributes: only `#id` and `.class` pass.
    bad(
        "### X {#y onfocus=alert(1) autofocus tabindex=1}",
        ATTR,
        &["onfocus", "autofocus", "tabindex=\"1\""],
    ),
    bad("### S {#s style=color:red}", ATTR, &["color:red"]),
    bad("### C {.note onclick=alert(1)}", ATTR, &["onclick"]),
    // Link targets, however the scheme is spelled.
    bad("[x](javascript:alert(1))", URL, &["alert(1)\""]),
    bad("[x](JaVaScRiPt:alert(1))", URL, &["alert(1)\""]),
    bad("[x](vbscript:msgbox(1))", URL, &["msgbox"]),
    bad(
        "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        URL,
        &["phnjcmlwdd"],
    ),
    bad("[x](&#106;avascript:alert(1))", URL, &["alert(1)\""]),
    bad("[x](&#x6A;&#x61;vascript:alert(1))", URL, &["alert(1)\""]),
    bad("[x](javascript&colon;alert(1))", URL, &["alert(1)\""]),
    bad("[x](jav&#x09;ascript:alert(1))", URL, &["alert(1)\""]),
    bad("[x](<  javascript:alert(1)>)", URL, &["alert(1)\""]),
    bad("[x](&#32;javascript:alert(1))", URL, &["alert(1)\""]),
    bad("[x](&#1;javascript:alert(1))", URL, &["alert(1)\""]),
    bad("[x][r]\n\n[r]: javascript:alert(1)", URL, &["alert(1)\""]),
    bad("[x](javascript:alert(1) \"title\")", URL, &["alert(1)\""]),
    // Images.
    bad("![x](javascript:alert(1))", URL, &["alert(1)\""]),
    bad(
        "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
        URL,
        &["phn2zy"],
    ),
    bad("![x](&#x20;JAVASCRIPT:alert(1))", URL, &["alert(1)\""]),
    // Autolinks.
    bad("<javascript:alert(1)>", URL, &["href=\"javascript"]),
    bad("<JaVaScRiPt:alert(1)>", URL, &["href=\"javascript"]),
    bad("<vbscript:msgbox(1)>", URL, &["href=\"vbscript"]),
    bad("<data:text/html,x>", URL, &["href=\"data:text"]),
    // Raw HTML stays text.
    fine("<a href=\"javascript:alert(1)\">x</a>", &["&lt;a href="]),
    fine("<img src=x onerror=alert(1)>", &["&lt;img src=x"]),
    fine("<svg><script>alert(1)</script></svg>", &["&lt;svg&gt;"]),
    // An attribute block holding markup is no attribute block: the heading shows it.
    fine(
        "### Q {#q data-x=\"><script>alert(1)</script>}",
        &["&lt;script&gt;alert(1)"],
    ),
    // What must keep working.
    fine(
        "# D {#ok}",
        &["<h2 id=\"ok\">d</h2>", "<h2 id=\"en-ok\">d</h2>"],
    ),
    fine("### W {#w .wide}", &["<h3 id=\"w\" class=\"wide\">w</h3>"]),
    fine(
        "[a](https://example.org/x?a=1&b=2) [m](mailto:a@example.org)",
        &[
            "href=\"https://example.org/x?a=1&amp;b=2\"",
            "href=\"mailto:a@example.org\"",
        ],
    ),
    fine(
        "<https://example.org/y> <a@example.org>",
        &[
            "href=\"https://example.org/y\"",
            "href=\"mailto:a@example.org\"",
        ],
    ),
    fine(
        "[r](../x/y.html) [q](?a=1) [s](//example.org/z) [t](1javascript:x)",
        &[
            "href=\"../x/y.html\"",
            "href=\"?a=1\"",
            "href=\"//example.org/z\"",
            "href=\"1javascript:x\"",
        ],
    ),
    fine("![i](figures/a.svg)", &["src=\"figures/a.svg\""]),
    // Heading ids: unique on the page (as GitHub makes them), never the frame's own.
    fine(
        "## Notes\n\n## Notes\n\n## Main\n\n## Top\n\n## Site search results",
        &[
            "<h2 id=\"notes\">",
            "<h2 id=\"notes-1\">",
            "<h2 id=\"main-1\">",
            "<h2 id=\"top-1\">",
            "<h2 id=\"site-search-results-1\">",
        ],
    ),
];

#[test]
fn hostile_markdown_in_a_page_block_is_refused_and_never_reaches_the_html() {
    evidence::packs::register();
    run_corpus(Place::Page);
}

#[test]
fn hostile_markdown_in_a_data_text_is_refused_and_never_reaches_the_html() {
    evidence::packs::register();
    run_corpus(Place::DataText);
}

/// Runs every case, then fails naming each case that failed (not only the first).
fn run_corpus(place: Place) {
    let failed: Vec<&str> = CORPUS
        .iter()
        .filter(|case| std::panic::catch_unwind(|| run_case(case, place)).is_err())
        .map(|case| case.markdown)
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} cases failed in {place:?}: {failed:#?}",
        failed.len(),
        CORPUS.len()
    );
}

fn run_case(case: &Case, place: Place) {
    let site = fixture_copy();
    let root = site.path();
    place.put(root, case.markdown);
    let what = format!("{place:?} {:?}", case.markdown);

    let outcome = evidence::pipeline::run(root);
    let errors: Vec<_> = outcome
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    match case.error {
        Some(code) => {
            let lines = place.line()..place.line() + case.markdown.lines().count();
            assert!(!errors.is_empty(), "{what}: no error");
            for e in &errors {
                assert!(
                    e.code == code
                        && e.span.file == place.file()
                        && lines.contains(&e.span.line)
                        && e.span.column >= 1,
                    "{what}: expected [{code}] in {}:{lines:?}, got {e:?}",
                    place.file()
                );
                assert!(e.hint.is_some(), "{what}: no hint in {e:?}");
            }
            // `check` judges the blocks by parsing them, a build on the notes its
            // rendering took: the same findings at the same places.
            let (_, report) = check_json(root);
            let mut by_check: Vec<_> = report
                .diagnostics
                .iter()
                .map(|d| {
                    (
                        d.code.clone(),
                        d.span.file.clone(),
                        d.span.line,
                        d.span.column,
                    )
                })
                .collect();
            let mut by_build: Vec<_> = errors
                .iter()
                .map(|d| {
                    (
                        d.code.to_string(),
                        d.span.file.clone(),
                        d.span.line,
                        d.span.column,
                    )
                })
                .collect();
            by_check.sort();
            by_build.sort();
            assert_eq!(by_check, by_build, "{what}");
        }
        None => assert!(errors.is_empty(), "{what}: {errors:?}"),
    }

    let site_files = outcome.site.expect("the site renders");
    let pages: Vec<(&String, String)> = site_files
        .files
        .iter()
        .filter(|(p, _)| p.ends_with(".html") || p.ends_with(".svg"))
        .map(|(p, b)| (p, String::from_utf8_lossy(b).to_lowercase()))
        .collect();
    for (path, html) in &pages {
        for f in case.forbidden {
            assert!(!html.contains(f), "{what}: {path} holds {f:?}");
        }
        assert_safe_markup(&what, path, html);
        assert_unique_ids(&what, path, html);
    }
    for e in case.expected {
        assert!(
            pages.iter().any(|(_, html)| html.contains(e)),
            "{what}: no output holds {e:?}"
        );
    }

    if case.error.is_some() {
        let out = root.join("out");
        let r = build(root, Some(&out));
        assert_eq!(r.code, 1, "{what}: build must fail\n{}", r.stderr);
        assert!(r.stderr.contains(place.file()), "{what}: {}", r.stderr);
        assert!(!out.exists(), "{what}: build wrote {}", out.display());
    }
}

/// No tag of `html` has an `on…` attribute or is a `<script>` but the theme's own (its
/// static scripts, and the 404 page's link fixer), and no link attribute has a scheme
/// other than http, https or mailto (but the template's favicon).
fn assert_safe_markup(what: &str, path: &str, html: &str) {
    for (tag, attrs) in tags(html) {
        if tag == "script" {
            assert!(
                theme_script(path, &attrs),
                "{what}: {path} has a <script> {attrs:?}"
            );
        }
        for (name, value) in attrs {
            assert!(
                !name.starts_with("on"),
                "{what}: {path}: <{tag} {name}={value:?}>"
            );
            // The template's own empty favicon, which spares browsers a request.
            let favicon = tag == "link" && value == "data:,";
            if !favicon
                && matches!(
                    name.as_str(),
                    "href" | "src" | "xlink:href" | "action" | "formaction"
                )
            {
                let scheme = scheme(&decode_entities(&value));
                assert!(
                    scheme
                        .as_deref()
                        .is_none_or(|s| ["http", "https", "mailto"].contains(&s)),
                    "{what}: {path}: <{tag} {name}={value:?}>"
                );
            }
        }
    }
}

/// Whether a `<script>` with `attrs` is one the theme writes: a static script of the
/// theme, loaded deferred, or the 404 page's inline script that knows the site's root.
fn theme_script(path: &str, attrs: &[(String, String)]) -> bool {
    let names: Vec<&str> = attrs.iter().map(|(n, _)| n.as_str()).collect();
    let src = attrs
        .iter()
        .find(|(n, _)| n == "src")
        .map(|(_, v)| v.as_str());
    match src {
        Some(src) => {
            names == ["src", "defer"]
                && ["static/nav.js", "static/search.js"]
                    .iter()
                    .any(|f| src.ends_with(f))
        }
        None => path == "404.html" && names == ["data-root"],
    }
}

/// No id of `html` is given twice.
fn assert_unique_ids(what: &str, path: &str, html: &str) {
    let mut seen = std::collections::BTreeSet::new();
    let repeated: Vec<String> = ids(html)
        .into_iter()
        .filter(|id| !seen.insert(id.clone()))
        .collect();
    assert!(
        repeated.is_empty(),
        "{what}: {path} repeats ids {repeated:?}"
    );
}

/// The scheme a browser finds in `url` (leading spaces and controls dropped, tabs and
/// newlines removed, case folded), or `None` for a relative reference.
fn scheme(url: &str) -> Option<String> {
    let s: String = url
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let (head, _) = s.split_once(':')?;
    let mut chars = head.chars();
    let first = chars.next()?;
    let is_scheme = first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    is_scheme.then(|| head.to_ascii_lowercase())
}

/// Decodes the character references the generator writes into attribute values.
fn decode_entities(v: &str) -> String {
    let mut out = String::new();
    let mut rest = v;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let Some(end) = after.find(';') else {
            out.push_str(&rest[i..]);
            return out;
        };
        let name = &after[..end];
        let c = match name {
            "amp" => Some('&'),
            "quot" => Some('"'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "apos" => Some('\''),
            n if n.starts_with("#x") => u32::from_str_radix(&n[2..], 16)
                .ok()
                .and_then(char::from_u32),
            n if n.starts_with('#') => n[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        };
        match c {
            Some(c) => out.push(c),
            None => out.push_str(&rest[i..i + 2 + end]),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

type Tag = (String, Vec<(String, String)>);

/// Every start tag of `html` with its attributes (names lower-cased, values raw).
fn tags(html: &str) -> Vec<Tag> {
    let b = html.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'<' || !b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
            i += 1;
            continue;
        }
        i += 1;
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' && b[i] != b'/' {
            i += 1;
        }
        let tag = html[start..i].to_ascii_lowercase();
        let mut attrs = Vec::new();
        loop {
            while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
                i += 1;
            }
            if i >= b.len() || b[i] == b'>' {
                break;
            }
            let n = i;
            while i < b.len() && !b[i].is_ascii_whitespace() && !matches!(b[i], b'=' | b'>' | b'/')
            {
                i += 1;
            }
            let name = html[n..i].to_ascii_lowercase();
            let mut value = String::new();
            if b.get(i) == Some(&b'=') {
                i += 1;
                match b.get(i) {
                    Some(&q @ (b'"' | b'\'')) => {
                        let v = i + 1;
                        i = v + html[v..].find(q as char).unwrap_or(html.len() - v);
                        value = html[v..i].to_string();
                        i += 1;
                    }
                    _ => {
                        let v = i;
                        while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
                            i += 1;
                        }
                        value = html[v..i].to_string();
                    }
                }
            }
            attrs.push((name, value));
        }
        out.push((tag, attrs));
    }
    out
}

#[test]
fn the_attribute_scanner_sees_what_a_browser_would() {
    evidence::packs::register();
    let t = tags(
        "<p>a</p><h2 id=\"y\" onfocus=\"alert(1)\" autofocus=\"\"><a href='java&#x73;cript:x'>",
    );
    assert_eq!(t[1].0, "h2");
    assert_eq!(t[1].1[1], ("onfocus".into(), "alert(1)".into()));
    assert_eq!(
        scheme(&decode_entities(&t[2].1[0].1)).as_deref(),
        Some("javascript")
    );
    assert_eq!(scheme(" \tJaVa\nScript:x").as_deref(), Some("javascript"));
    assert_eq!(scheme("../a:b"), None);
    assert_eq!(scheme("1javascript:x"), None);
}

/// The same footnote label in the `ja` and `en` blocks of a page gives two ids in the
/// bilingual view, and each reference points to its own block's note.
#[test]
fn footnotes_and_explicit_ids_are_unique_per_language_and_links_follow() {
    evidence::packs::register();
    let site = fixture_copy();
    let root = site.path();
    replace_once(
        root,
        "content/details.md",
        "フィクスチャの表。\n",
        "## 手順 {#step}\n\n表[^1]、[手順](#step)。\n\n[^1]: 日本語の注。\n",
    );
    replace_once(
        root,
        "content/details.md",
        "The fixture tables.\n",
        "## Step {#step}\n\nTables[^1], [the step](#step).\n\n[^1]: The English note.\n",
    );
    let out = root.join("out");
    build_ok(root, &out);
    let bilingual = std::fs::read_to_string(out.join("details/index.html")).unwrap();
    let ids = ids(&bilingual);
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(ids.len(), unique.len(), "duplicate ids: {ids:?}");
    for lang in ["ja", "en"] {
        let block = block_of(&bilingual, lang);
        for id in ["step", "fn-1"] {
            let want = format!("{lang}-{id}");
            assert!(
                self::ids(block).contains(&want),
                "{lang}: no id {want}\n{block}"
            );
            assert!(
                block.contains(&format!("href=\"#{want}\"")),
                "{lang}: no link to {want}\n{block}"
            );
        }
    }
    for (file, lang) in [
        ("ja/details/index.html", "ja"),
        ("en/details/index.html", "en"),
    ] {
        let html = std::fs::read_to_string(out.join(file)).unwrap();
        let block = block_of(&html, lang);
        for id in ["step", "fn-1"] {
            assert!(
                self::ids(block).contains(&id.to_string()),
                "{file}: no id {id}"
            );
            assert!(
                block.contains(&format!("href=\"#{id}\"")),
                "{file}: no link to {id}"
            );
        }
    }
}

/// The `id` attribute values of `html`, in order.
fn ids(html: &str) -> Vec<String> {
    tags(html)
        .into_iter()
        .flat_map(|(_, attrs)| attrs)
        .filter(|(n, _)| n == "id")
        .map(|(_, v)| v)
        .collect()
}

/// The first `<div class="block" lang="…">` of `lang`, up to the next block.
fn block_of<'h>(html: &'h str, lang: &str) -> &'h str {
    let start = [
        format!("<div class=\"block\" lang=\"{lang}\">"),
        format!("<div class=\"block tr\" lang=\"{lang}\">"),
    ]
    .iter()
    .filter_map(|open| html.find(open.as_str()).map(|i| (i, open.len())))
    .min();
    let (start, open_len) = start.unwrap_or_else(|| panic!("no {lang} block in\n{html}"));
    let rest = &html[start + open_len..];
    &rest[..rest.find("<div class=\"block\"").unwrap_or(rest.len())]
}

/// Record fields that hold a URL or address (a run's `endpoint`, a source's `repository`)
/// are values, not markdown: shown as text, never made into a link.
#[test]
fn url_valued_fields_of_records_stay_text() {
    evidence::packs::register();
    let site = fixture_copy();
    let root = site.path();
    replace_once(
        root,
        "data/runs/r1.yaml",
        "engine: ollama\n",
        "engine: ollama\nendpoint: \"javascript:alert(1)\"\n",
    );
    replace_once(
        root,
        "data/maps.yaml",
        "repository: \"fixture/repo\"",
        "repository: \"JaVaScRiPt:alert(2)\"",
    );
    let out = root.join("out");
    build_ok(root, &out);
    let tree = read_tree(&out);
    let mut shown = [false, false];
    for (path, bytes) in tree.iter().filter(|(p, _)| p.ends_with(".html")) {
        let html = String::from_utf8_lossy(bytes);
        assert_safe_markup("record fields", path, &html.to_lowercase());
        for (i, v) in [
            "<code>javascript:alert(1)</code>",
            "<code>JaVaScRiPt:alert(2)</code>",
        ]
        .iter()
        .enumerate()
        {
            shown[i] |= html.contains(v);
        }
    }
    assert_eq!(shown, [true, true], "both values are shown as code");
}

/// `base_url: "javascript:alert(1)//"` would land in the 404 page's links: `check` and
/// `build` refuse it at its line and column.
#[test]
fn a_base_url_that_is_not_absolute_http_is_an_error_at_its_position() {
    evidence::packs::register();
    for (value, column) in [
        ("\"javascript:alert(1)//\"", 11),
        ("/sub/", 11),
        ("\"data:text/html,x\"", 11),
    ] {
        let site = fixture_copy();
        let root = site.path();
        let mut cfg = std::fs::read_to_string(root.join("evidence.yaml")).unwrap();
        let line = cfg.lines().count() + 1;
        cfg.push_str(&format!("base_url: {value}\n"));
        std::fs::write(root.join("evidence.yaml"), cfg).unwrap();
        let (code, report) = check_json(root);
        assert_eq!(code, 1, "{value}: check must fail:\n{}", report.summary());
        assert_eq!(report.errors, 1, "{value}:\n{}", report.summary());
        let d = &report.diagnostics[0];
        assert_eq!(
            (
                d.span.file.as_str(),
                d.span.line,
                d.span.column,
                d.code.as_str()
            ),
            ("evidence.yaml", line, column, "base-url"),
            "{value}: {}",
            report.summary()
        );
        assert!(d.hint.is_some());
        let out = root.join("out");
        let r = build(root, Some(&out));
        assert_eq!(r.code, 1, "{value}: build must fail\n{}", r.stderr);
        assert!(!out.exists(), "{value}: build wrote its output");
    }
}

/// A page's headings take ids unique on the page across its blocks, as GitHub makes
/// them, and never one its frame or its tables use; a link to a repeated heading names
/// its new id in every view, which the fragment check agrees with.
#[test]
fn repeated_headings_take_unique_ids_and_links_follow() {
    evidence::packs::register();
    let site = fixture_copy();
    let root = site.path();
    replace_once(
        root,
        "content/details.md",
        "The fixture tables.\n",
        "## Tables\n\n## Notes\n\n## Main\n\n## Bundle b1\n\nSee [the second](@/details#notes-1).\n",
    );
    // A second pair of blocks, whose `Notes` is the page's second.
    replace_once(
        root,
        "content/details.md",
        "<script>alert(\"block-en\")</script>\n:::\n",
        "<script>alert(\"block-en\")</script>\n:::\n\n:::ja\n## 注\n:::\n\n:::en\n## Notes\n:::\n",
    );
    let out = root.join("out");
    build_ok(root, &out);
    for (file, prefix) in [("en/details/index.html", ""), ("details/index.html", "en-")] {
        let html = std::fs::read_to_string(out.join(file)).unwrap();
        assert_unique_ids(file, file, &html);
        let ids = ids(&html);
        for id in [
            "tables",
            "tables-1",
            "notes",
            "main-1",
            "bundle-b1-1",
            "notes-1",
        ] {
            let id = format!("{prefix}{id}");
            assert!(ids.contains(&id), "{file}: no id {id} in {ids:?}");
        }
        assert!(
            ids.contains(&"bundle-b1".to_string()),
            "{file}: the row's anchor"
        );
        assert!(
            html.contains(&format!("index.html#{prefix}notes-1\"")),
            "{file}: the link does not name the second Notes"
        );
    }
}

/// An explicit `{#id}` that repeats an id taken before it on the page (by an earlier
/// heading, in any block of the language, by the page's frame, or by a row of the page's
/// table) is an error at the `#id`, in `check` and `build` alike.
#[test]
fn a_repeated_explicit_heading_id_is_a_located_error() {
    evidence::packs::register();
    let site = fixture_copy();
    let root = site.path();
    replace_once(
        root,
        "content/details.md",
        "The fixture tables.\n",
        "## Again {#tables}\n\n## Skip {#main}\n\n## Fine {#fine}\n\n## Row {#bundle-b1}\n",
    );
    replace_once(
        root,
        "content/details.md",
        "<script>alert(\"block-en\")</script>\n:::\n",
        "<script>alert(\"block-en\")</script>\n:::\n\n:::ja\n## 注\n:::\n\n:::en\n## Twice {#fine}\n:::\n",
    );
    let mut found = check_errors(root, "duplicate-id", "is already used");
    found.sort();
    assert_eq!(
        found,
        [
            ("content/details.md".to_string(), 17, 11),
            ("content/details.md".to_string(), 19, 10),
            ("content/details.md".to_string(), 23, 9),
            ("content/details.md".to_string(), 33, 11),
        ]
    );
    let out = root.join("out");
    let r = build(root, Some(&out));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("content/details.md:17:11"),
        "{}",
        r.stderr
    );
    assert!(!out.exists());
}

/// A directive that shows a table or figure an earlier directive of the page already shows
/// (the same id twice: an ambiguous link target and two scroll regions of one name) is a
/// warning at the later directive's line, naming the earlier one, in `check` and `build`.
#[test]
fn a_table_or_figure_shown_twice_on_a_page_is_a_located_warning() {
    evidence::packs::register();
    let site = fixture_copy();
    let root = site.path();
    replace_once(
        root,
        "content/details.md",
        "::worklog\n",
        "::worklog\n\n::run{id=\"r1\"}\n\n::worklog\n",
    );
    let (code, report) = check_json(root);
    assert_eq!(code, 0, "{}", report.summary());
    let found = report.with_code("duplicate-id");
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        matches!(found[0], ("warning", 34, 1, m) if m.starts_with("`::run` shows `")
            && m.ends_with("which `::run` on line 26 already shows on this page")),
        "{found:?}"
    );
    assert!(
        matches!(found[1], ("warning", 36, 1, m)
            if m.ends_with("which `::worklog` on line 32 already shows on this page")),
        "{found:?}"
    );
    let out = root.join("out");
    let r = build(root, Some(&out));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("content/details.md:34:1"), "{}", r.stderr);
}

/// Two directives of a page whose tables or figures have one caption (here the latest
/// plot of a probe and the plot of each of its runs) give two scroll regions of one name:
/// a warning at the later directive's line naming the earlier, and the build goes on.
#[test]
fn two_figures_with_one_caption_on_a_page_are_a_located_warning() {
    evidence::packs::register();
    let site = tempfile::tempdir().expect("tempdir");
    let root = site.path();
    copy_dir(&manifest_dir().join("tests/fixtures/figures"), root);
    replace_once(
        root,
        "content/scan-choice.md",
        "::history-plot",
        "::proxy-plots{probe=\"row-proxy\"}\n\n::history-plot",
    );
    let (code, report) = check_json(root);
    assert_eq!(code, 0, "{}", report.summary());
    let found = report.with_code("alike-captions");
    assert_eq!(
        found,
        [(
            "warning",
            25,
            1,
            "`::proxy-plots` shows a table or figure with the caption of one `::proxy-plot` \
             on line 23 shows"
        )]
    );
}
