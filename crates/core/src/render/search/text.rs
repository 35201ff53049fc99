//! What a rendered page says, as plain text for the search index: its title (the `<h1>`),
//! its meta description, and the text of its `<main>` with the tags taken out and the
//! entities read. The pages are the renderer's own output (well-formed, attributes
//! double-quoted, only the entities `escape` and pulldown-cmark write, and numeric ones), so
//! a scan of the bytes is enough; nothing outside `<main>` (navigation, footer) is read.

use memchr::memmem;

/// The searchable parts of one page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageText {
    /// The text of the page's `<h1>`.
    pub title: String,
    /// The meta description, empty without one.
    pub description: String,
    /// The text of the page's headings below the title and of its tables' and figures'
    /// captions, one per line: what a page is about, which search weighs over its body.
    pub headings: String,
    /// The text of `<main>`, the title included; blocks are separated by a newline,
    /// inline elements are not (a link inside a Japanese sentence stays in its word).
    pub body: String,
}

/// Elements that do not break a word: their tags are dropped without a separator (the
/// renderer writes tag names in lower case).
const INLINE: &[&str] = &[
    "a", "abbr", "b", "bdi", "cite", "code", "data", "del", "dfn", "em", "i", "ins", "kbd", "mark",
    "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "wbr",
];

/// Elements whose content is not text to read.
const SKIPPED: &[&str] = &["script", "style", "template"];

/// Reads the searchable parts of `html`, a page of the site.
pub fn page_text(html: &str) -> PageText {
    let main = section(html, "<main", "</main>").unwrap_or("");
    let title = section(main, "<h1", "</h1>")
        .map(|h1| collapse(&strip(h1)))
        .unwrap_or_default();
    PageText {
        title,
        description: description(html).unwrap_or_default(),
        headings: headings(main),
        body: strip(main),
    }
}

/// Elements that say what the part of a page under them is about: headings below the
/// title, and the captions of tables and figures.
const HEADINGS: &[&str] = &["h2", "h3", "h4", "h5", "h6", "caption", "figcaption"];

/// The text of every [`HEADINGS`] element of `main`, one per line.
fn headings(main: &str) -> String {
    let mut out = String::new();
    for name in HEADINGS {
        let open = format!("<{name}");
        let close = format!("</{name}>");
        let mut rest = main;
        while let Some(at) = memmem::find(rest.as_bytes(), open.as_bytes()) {
            let after = &rest[at + open.len()..];
            // `<h2>` or `<h2 id=…>`, not another element whose name starts the same.
            if !after.starts_with(['>', ' ']) {
                rest = after;
                continue;
            }
            let Some(text) = section(&rest[at..], &open, &close) else {
                break;
            };
            out.push_str(&collapse(&strip(text)));
            out.push('\n');
            rest = after;
        }
    }
    out
}

/// The part of `html` from the end of the tag that starts with `open` to `close`.
fn section<'h>(html: &'h str, open: &str, close: &str) -> Option<&'h str> {
    let start = memmem::find(html.as_bytes(), open.as_bytes())?;
    let after = start + memchr::memchr(b'>', &html.as_bytes()[start..])? + 1;
    let end = memmem::find(&html.as_bytes()[after..], close.as_bytes())? + after;
    html.get(after..end)
}

/// The page's `<meta name="description" content="…">`, its entities read.
fn description(html: &str) -> Option<String> {
    let head = section(html, "<head", "</head>")?;
    let key = "<meta name=\"description\" content=\"";
    let at = memmem::find(head.as_bytes(), key.as_bytes())? + key.len();
    let end = memchr::memchr(b'"', &head.as_bytes()[at..])? + at;
    let mut out = String::new();
    unescape_into(&head[at..end], &mut out);
    Some(out)
}

/// `html` without its tags, entities read; see [`PageText::body`].
pub fn strip(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 2);
    let bytes = html.as_bytes();
    let mut i = 0;
    while let Some(lt) = memchr::memchr(b'<', &bytes[i..]) {
        unescape_into(&html[i..i + lt], &mut out);
        let tag_start = i + lt;
        let Some(gt) = memchr::memchr(b'>', &bytes[tag_start..]) else {
            i = bytes.len();
            break;
        };
        let tag = &html[tag_start + 1..tag_start + gt];
        i = tag_start + gt + 1;
        let closing = tag.starts_with('/');
        let bare = tag.trim_start_matches('/');
        let name = &bare[..bare
            .bytes()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(bare.len())];
        if !closing && SKIPPED.contains(&name) {
            let close = format!("</{name}>");
            i = memmem::find(&bytes[i..], close.as_bytes())
                .map_or(bytes.len(), |e| i + e + close.len());
            continue;
        }
        if !INLINE.contains(&name) && !out.ends_with('\n') {
            out.push('\n');
        }
    }
    unescape_into(&html[i..], &mut out);
    out
}

/// Appends `text` with its character references read (`&amp;`, `&#39;`, `&#x2265;` …);
/// one it does not know is kept as written.
fn unescape_into(text: &str, out: &mut String) {
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let decoded = rest.find(';').filter(|&semi| semi <= 10).and_then(|semi| {
            let c = match &rest[1..semi] {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some('\u{a0}'),
                n => n
                    .strip_prefix("#x")
                    .or_else(|| n.strip_prefix("#X"))
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| n.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            }?;
            Some((c, semi + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

/// `text` with each run of white space made one space, trimmed.
pub fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<!DOCTYPE html><html><head><title>T</title>\
        <meta name=\"description\" content=\"What &amp; why\"></head><body>\
        <nav><a href=\"x\">Navigation</a></nav><main id=\"main\"><article>\
        <h1><span lang=\"ja\">観測</span></h1><p>この<a href=\"#\">観測</a>手段は&lt;8&gt;&#39;s</p>\
        <script>var x = 1;</script><table><tr><td>ALPHA</td><td>BETA</td></tr></table>\
        </article></main><footer>Footer</footer></body></html>";

    #[test]
    fn reads_the_main_text_the_title_and_the_description() {
        let t = page_text(PAGE);
        assert_eq!(t.title, "観測");
        assert_eq!(t.description, "What & why");
        assert!(t.body.contains("この観測手段は<8>'s"), "{:?}", t.body);
        assert!(t.body.contains("ALPHA\nBETA"), "{:?}", t.body);
        assert_eq!(t.headings, "");
        for outside in ["Navigation", "Footer", "var x"] {
            assert!(!t.body.contains(outside), "{outside} in {:?}", t.body);
        }
    }

    #[test]
    fn headings_and_captions_are_read_apart() {
        let page = "<main><h1>Title</h1><h2 id=\"a\">First <code>part</code></h2><p>body</p>\
            <header>not a heading</header><figure><figcaption>Plot of &lt;x&gt;</figcaption>\
            </figure><table><caption>Rows</caption></table><h3>Deep</h3></main>";
        let t = page_text(page);
        assert_eq!(t.headings, "First part\nDeep\nRows\nPlot of <x>\n");
    }

    #[test]
    fn character_references_are_read_and_unknown_ones_kept() {
        let mut out = String::new();
        unescape_into("a &amp; b &#x2265; &#8804; &bogus; &", &mut out);
        assert_eq!(out, "a & b ≥ ≤ &bogus; &");
    }

    #[test]
    fn a_page_without_main_has_no_text() {
        assert_eq!(page_text("<p>x</p>"), PageText::default());
    }
}
