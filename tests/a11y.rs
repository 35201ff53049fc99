//! Accessibility and layout of the built-in theme, read from the markup and stylesheet of
//! a built site (the planner fixture: no pack, Japanese and English, with search). What
//! only a browser can tell (the nav scrolled on a phone, the 404 page from `file://`,
//! search ranking and its hint) is in tests/browser_search.rs.

mod common;

use common::*;
use std::path::Path;

/// A copy of the planner fixture, with `base_url` when one is given, built into `out/`.
fn planner(base_url: Option<&str>) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&manifest_dir().join("tests/fixtures/planner"), dir.path());
    if let Some(base) = base_url {
        let cfg = dir.path().join("evidence.yaml");
        let text = std::fs::read_to_string(&cfg).expect("evidence.yaml");
        std::fs::write(&cfg, format!("{text}base_url: \"{base}\"\n")).expect("write");
    }
    let out = dir.path().join("out");
    build_ok(dir.path(), &out);
    (dir, out)
}

fn read(out: &Path, rel: &str) -> String {
    std::fs::read_to_string(out.join(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
}

/// The part of `html` from `start` to the first `end` after it.
fn between<'h>(html: &'h str, start: &str, end: &str) -> &'h str {
    let from = html
        .find(start)
        .unwrap_or_else(|| panic!("no {start:?} in {html}"));
    let rest = &html[from..];
    &rest[..rest
        .find(end)
        .unwrap_or_else(|| panic!("no {end:?} after {start:?}"))]
}

/// The search status and results are inside the header's search landmark, not after it
/// outside every landmark.
#[test]
fn search_results_sit_in_the_search_landmark() {
    let (_dir, out) = planner(None);
    for page in [
        "index.html",
        "en/index.html",
        "ja/maps/index.html",
        "404.html",
    ] {
        let html = read(&out, page);
        let header = between(&html, "<header class=\"site-header\">", "</header>");
        let form = between(
            header,
            "<form class=\"site-search\" role=\"search\"",
            "</form>",
        );
        for id in ["site-search-status", "site-search-results"] {
            assert!(
                form.contains(&format!("id=\"{id}\"")),
                "{page}: {id} outside: {form}"
            );
            assert_eq!(html.matches(&format!("id=\"{id}\"")).count(), 1, "{page}");
        }
    }
}

/// Every page loads the theme's nav script, which scrolls the current page's link into
/// view; on a phone the row of links scrolls with a visible scrollbar and shadows at the
/// edges that have more links past them.
#[test]
fn the_nav_row_scrolls_to_the_current_page_and_shows_that_more_follow() {
    let (_dir, out) = planner(None);
    let html = read(&out, "en/maps/index.html");
    assert!(
        html.contains("<script src=\"../../static/nav.js\" defer></script>"),
        "{html}"
    );
    let script = read(&out, "static/nav.js");
    assert!(script.contains("[aria-current=\"page\"]"), "{script}");
    assert!(script.contains("scrollLeft"), "{script}");
    let css = read(&out, "static/style.css");
    let phone = between(&css, "@media (max-width: 40rem) {", "\n}\n");
    let row = between(phone, ".site-nav ul {", "}");
    for rule in [
        "overflow-x: auto",
        "scrollbar-width: thin",
        "no-repeat local",
        "no-repeat scroll",
    ] {
        assert!(row.contains(rule), "{rule} missing: {row}");
    }
}

/// The 404 page's links start from the path of `base_url` when the site has one, and from
/// `/` without; its script moves them to its own folder when it is opened as a file.
#[test]
fn the_404_page_links_from_the_base_path_and_from_its_own_folder() {
    for (base, root) in [(Some("https://example.org/repo/"), "/repo/"), (None, "/")] {
        let (_dir, out) = planner(base);
        let html = read(&out, "404.html");
        assert!(
            html.contains(&format!("href=\"{root}index.html\"")),
            "{base:?}: {html}"
        );
        assert!(
            html.contains(&format!(
                "<link rel=\"stylesheet\" href=\"{root}static/style.css\">"
            )),
            "{base:?}: {html}"
        );
        let script = between(
            &html,
            &format!("<script data-root=\"{root}\">"),
            "</script>",
        );
        for part in [
            "endsWith(\"/404.html\")",
            "a[href], link[href]",
            "script[src]",
        ] {
            assert!(script.contains(part), "{base:?}: {part} missing: {script}");
        }
    }
}
