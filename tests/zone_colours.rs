//! A family's `colour:` in maps.yaml: a theme name, any CSS colour or one per mode. A CSS
//! colour reaches the built style sheet and every figure; one too faint against the page
//! background, or one that is no colour, is an error at its place in maps.yaml.

mod common;

use common::*;

/// A copy of the figures fixture whose `index_scan` family (line 2) has `colour`, written
/// on line 4 at column 13.
fn with_colour(colour: &str) -> tempfile::TempDir {
    let site = tempfile::tempdir().expect("tempdir");
    copy_dir(&manifest_dir().join("tests/fixtures/figures"), site.path());
    replace_once(
        site.path(),
        "data/maps.yaml",
        "    label: {ja: \"インデックス\", en: \"Index\"}\n",
        &format!("    label: {{ja: \"インデックス\", en: \"Index\"}}\n    colour: {colour}\n"),
    );
    site
}

fn built(site: &tempfile::TempDir) -> (tempfile::TempDir, String, String) {
    let out = tempfile::tempdir().expect("tempdir");
    build_ok(site.path(), out.path());
    let read = |rel: &str| {
        std::fs::read_to_string(out.path().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    };
    let css = read("static/style.css");
    let page = read("en/scan-choice/index.html");
    (out, css, page)
}

#[test]
fn a_css_colour_reaches_the_style_sheet_the_badges_and_every_figure() {
    let site = with_colour("'#808080'");
    let (out, css, page) = built(&site);
    assert!(
        css.contains(
            ".fam-index_scan { --t: #808080; --t-bg: color-mix(in srgb, #808080 10%, var(--bg)); }"
        ),
        "{css}"
    );
    assert!(
        css.contains("@media (prefers-color-scheme: dark) { .fam-index_scan { --t: #808080;"),
        "{css}"
    );
    assert!(css.contains("@media print { .fam-index_scan { --t: #000; --t-bg: #fff; } }"));
    assert!(page.contains("class=\"badge fam-index_scan\""), "no badge");
    let map = &page;
    assert!(map.contains("class=\"f-fam-index_scan\""), "{map}");
    assert!(map.contains("svg.evfig{--evf-index_scan:#808080;"), "{map}");
    assert!(map.contains("svg.evfig .f-fam-index_scan{fill:var(--evf-index_scan)}"));
    // The standalone file of a figure carries the same rules.
    let svg = walk_svgs(out.path());
    assert!(svg.iter().any(|s| s.contains("--evf-index_scan:#808080")));
}

#[test]
fn a_pair_gives_each_mode_its_colour() {
    let site = with_colour("{light: darkred, dark: '#ffd700'}");
    let (_out, css, page) = built(&site);
    assert!(css.contains(".fam-index_scan { --t: #8b0000;"), "{css}");
    assert!(
        css.contains("@media (prefers-color-scheme: dark) { .fam-index_scan { --t: #ffd700;"),
        "{css}"
    );
    let map = &page;
    assert!(map.contains("--evf-index_scan:#8b0000"), "{map}");
    assert!(map.contains("--evf-index_scan:#ffd700"), "{map}");
}

#[test]
fn theme_names_leave_the_style_sheet_as_the_theme_wrote_it() {
    let site = with_colour("green");
    let (_out, css, page) = built(&site);
    let theme = std::fs::read_to_string(manifest_dir().join("static/style.css")).expect("css");
    assert_eq!(css, theme);
    assert!(page.contains("class=\"badge hue-3\""));
    assert!(!page.contains("fam-"));
}

#[test]
fn a_colour_too_faint_is_an_error_at_its_place_naming_it_and_the_mode() {
    let site = with_colour("'#ffd700'");
    let found = check_errors(
        site.path(),
        "low-contrast",
        "`#ffd700` has 1.4:1 against the light background (#ffffff); zones need 3:1",
    );
    assert_eq!(found, [("data/maps.yaml".to_string(), 4, 13)]);
    let site = with_colour("rebeccapurple");
    let found = check_errors(site.path(), "low-contrast", "against the dark background");
    assert_eq!(found, [("data/maps.yaml".to_string(), 4, 13)]);
    let out = tempfile::tempdir().expect("tempdir");
    let r = build(site.path(), Some(&out.path().join("site")));
    assert_ne!(r.code, 0, "a build with a faint colour succeeded");
    assert!(!out.path().join("site").exists(), "the failed build wrote");
}

#[test]
fn a_pair_is_judged_mode_by_mode_at_each_colour() {
    let site = with_colour("{light: '#ffd700', dark: navy}");
    let (_, report) = check_json(site.path());
    let faint: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "low-contrast")
        .map(|d| (d.span.line, d.span.column, d.message.clone()))
        .collect();
    assert_eq!(faint.len(), 2, "{}", report.summary());
    assert_eq!((faint[0].0, faint[0].1), (4, 21));
    assert!(faint[0].2.contains("`#ffd700`") && faint[0].2.contains("light"));
    assert_eq!((faint[1].0, faint[1].1), (4, 38));
    assert!(faint[1].2.contains("`navy`") && faint[1].2.contains("dark"));
}

#[test]
fn a_value_that_is_no_colour_is_a_located_error_naming_it() {
    let site = with_colour("'#ggg'");
    let (code, report) = check_json(site.path());
    assert_ne!(code, 0);
    let found: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("`#ggg` is not a colour"))
        .map(|d| (d.span.file.as_str(), d.span.line, d.span.column))
        .collect();
    assert_eq!(found, [("data/maps.yaml", 4, 13)], "{}", report.summary());
    let site = with_colour("rgb(0 0 0 / 50%)");
    let (_, report) = check_json(site.path());
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.message.contains("`rgb(0 0 0 / 50%)` is translucent") && d.span.line == 4),
        "{}",
        report.summary()
    );
}

/// The text of every `.svg` file under `dir`.
fn walk_svgs(dir: &std::path::Path) -> Vec<String> {
    read_tree(dir)
        .into_iter()
        .filter(|(p, _)| p.ends_with(".svg"))
        .map(|(_, b)| String::from_utf8_lossy(&b).into_owned())
        .collect()
}
