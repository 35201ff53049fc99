//! The site in a real browser: headless Chromium driven over WebDriver (chromedriver),
//! against `evidence serve --port 0` on a temporary copy of a site.
//!
//! - `every_page_in_every_view` (the checks in `browser/pages.rs`, which
//!   `tests/investigation` runs on the live site): every page of the figures and valid
//!   fixtures in its three views
//!   (listed from the in-memory site map) loads with no console error and no request
//!   outside the site; its language switcher leads to the same page in the other views;
//!   at 375 px the body never scrolls sideways (wide tables scroll in their `.table-wrap`);
//!   diagrams are drawn and their full-size link opens; text is readable (contrast
//!   ≥ 4.5:1, 3:1 for large text) and diagram lines are seen (3:1) in light and dark mode; every `.block` has the right
//!   `lang`; tables have header cells. axe-core (`browser/axe.rs`; WCAG 2.1 A/AA and
//!   best practices) finds no violation at 1280 and 375 px, light and dark (the 404 page
//!   too); no text is under 12 px (SVG text at the figure's current scale) and no touch
//!   target under 24 × 24 px (WCAG 2.5.8), at either width. Screenshots of each page (1280 and 375 px wide,
//!   light and dark) go to `target/screenshots/<fixture>/`.
//! - `markup_in_data_and_markdown_never_runs`: `<script>` and `onerror=` put into data
//!   strings, front matter and markdown do not execute.
//! - `the_accessibility_checks_find_what_they_look_for`: axe and the size checks report
//!   the faults of a page made to have them.
//! - `live_reload_in_the_browser`: an edit shows on the open page within two seconds, a
//!   YAML type error shows the error overlay, the fix removes it.
//!
//! Without chromium or chromedriver the tests are skipped, except under `CI=true`, where
//! a skip is a failure. The tests take one browser each and run one at a time.

mod common;

#[path = "browser/axe.rs"]
mod axe;
#[path = "browser/pages.rs"]
mod pages;
#[path = "browser/server.rs"]
mod server;
#[path = "browser/webdriver.rs"]
mod webdriver;

use pages::*;
use serde_json::{Value, json};
use server::Served;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use webdriver::{browser, png_size, screenshot_dir};

/// One browser at a time: two Chromiums on two cores make the timing checks flaky.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Every page of the fixture sites in every view: the figures fixture (every figure kind,
/// a declared collection) and the valid fixture (the pack's directives). The live
/// investigation's pages go through the same checks in `tests/investigation`.
#[test]
fn every_page_in_every_view() {
    evidence::packs::register();
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let figures = common::manifest_dir().join("tests/fixtures/figures");
    every_page_in_every_view_of("every_page_in_every_view", &figures, "figures");
    let valid = common::manifest_dir().join("tests/fixtures/valid");
    every_page_in_every_view_of("every_page_in_every_view", &valid, "valid");
}

/// The page checks fail where they should: on a page made to break them, axe reports its
/// violations and the size checks their small text and targets (so that a clean run of
/// `every_page_in_every_view` means a clean site, not checks that never fire).
#[test]
fn the_accessibility_checks_find_what_they_look_for() {
    evidence::packs::register();
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let Some(b) = browser("the_accessibility_checks_find_what_they_look_for") else {
        return;
    };
    let source = match axe::source() {
        Ok(s) => s,
        Err(why) => {
            common::skip("the_accessibility_checks_find_what_they_look_for", &why);
            return;
        }
    };
    b.goto("about:blank").unwrap_or_else(|e| panic!("{e}"));
    b.exec(
        "document.documentElement.lang = 'en';\
         document.title = 'broken';\
         document.body.innerHTML = '<main><img src=\"data:,\" width=\"10\" height=\"10\">' +\
           '<p style=\"color:#bbb;background:#fff\">faint words</p>' +\
           '<p style=\"font-size:10px\">tiny words</p>' +\
           '<div><a href=\"#a\" style=\"font-size:10px\">a</a> <a href=\"#b\" style=\"font-size:10px\">b</a></div>' +\
           '<p>A sentence with <a href=\"#c\" style=\"font-size:12px\">a link</a> in it.</p></main>';",
        json!([]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    axe::inject(&b, &source).unwrap_or_else(|e| panic!("{e}"));
    let found = axe::run(&b).unwrap_or_else(|e| panic!("{e}"));
    for rule in ["image-alt", "color-contrast"] {
        assert!(
            found.iter().any(|v| v.starts_with(&format!("axe {rule} "))),
            "axe reports {rule}: {found:#?}"
        );
    }
    let sizes = axe::sizes(&b).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        sizes.small_text.iter().any(|t| t.contains("tiny words")),
        "{:?}",
        sizes.small_text
    );
    let tiny: Vec<&String> = sizes.small_targets.iter().collect();
    assert_eq!(
        tiny.len(),
        2,
        "the two close small links, not the inline one: {tiny:#?}"
    );
}

const PWN_SCRIPT: &str = "<script>window.__pwned=1</script>";
const PWN_IMG: &str = "<img src=x onerror=\"window.__pwned=1\">";

#[test]
fn markup_in_data_and_markdown_never_runs() {
    evidence::packs::register();
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let Some(b) = browser("markup_in_data_and_markdown_never_runs") else {
        return;
    };
    let copy = copy_of(&common::manifest_dir().join("tests/fixtures/valid"));
    let root = copy.path();
    let edit = |file: &str, old: &str, new: &str| {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(text.matches(old).count(), 1, "`{old}` once in {file}");
        std::fs::write(&path, text.replacen(old, new, 1)).unwrap_or_else(|e| panic!("{e}"));
    };
    // Data texts (YAML single quotes keep the double quotes of the payload as they are).
    edit(
        "data/bundles.yaml",
        "en: \"Fixture small bundle.\"",
        &format!("en: 'Fixture small bundle. {PWN_SCRIPT} {PWN_IMG}'"),
    );
    edit(
        "data/bundles.yaml",
        "ja: \"フィクスチャの小さい bundle。\"",
        &format!("ja: '小さい bundle。{PWN_IMG} {PWN_SCRIPT}'"),
    );
    edit(
        "data/claims.yaml",
        "en: \"What the fixture can show.\"",
        &format!("en: 'What the fixture can show. {PWN_IMG}'"),
    );
    // Front matter (titles land in <title>, headings, navigation and attributes).
    edit(
        "content/details.md",
        "en: \"Fixture details\"}",
        &format!("en: 'Fixture details {PWN_IMG}\"><svg onload=window.__pwned=1>'}}"),
    );
    // Markdown blocks: raw HTML, and a heading with an id and a class (the only attributes
    // that pass). A `javascript:` link or an event-handler attribute does not build at all
    // (`check` refuses it: tests/hostile_markup.rs), so it cannot reach a page.
    edit(
        "content/index.md",
        "This is the fixture English block.",
        &format!(
            "This is the fixture English block. {PWN_SCRIPT}\n\n{PWN_IMG}\n\n\
             ### Heading {{#pwn-heading .pwn}}"
        ),
    );
    edit(
        "content/index.md",
        "これはフィクスチャの日本語ブロック。",
        &format!("これはフィクスチャの日本語ブロック。{PWN_IMG}\n\n{PWN_SCRIPT}"),
    );
    let (pages, _) = pages_of(root);
    let srv = Served::start(root);
    let mut failures = Vec::new();
    let mut seen_payload = 0;
    for key in &pages {
        let url = format!("{}/{}", srv.origin, key.trim_end_matches("index.html"));
        if let Err(e) = b.goto(&url) {
            failures.push(format!("{key}: {e}"));
            continue;
        }
        // Give an injected handler every chance to run.
        std::thread::sleep(Duration::from_millis(100));
        match b.exec(PAGE_CHECKS, json!([])) {
            Ok(c) => {
                if c["pwned"] != Value::Null {
                    failures.push(format!(
                        "{key}: injected script ran (__pwned={})",
                        c["pwned"]
                    ));
                }
                if c["injectedImg"].as_u64().unwrap_or(0) > 0 {
                    failures.push(format!("{key}: an injected <img> element exists"));
                }
                for h in c["javascriptLinks"].as_array().into_iter().flatten() {
                    failures.push(format!("{key}: script link {h}"));
                }
                for u in c["foreign"].as_array().into_iter().flatten() {
                    failures.push(format!("{key}: request outside the site: {u}"));
                }
                let text = c["bodyText"].as_str().unwrap_or_default();
                if text.contains("onerror=\"window.__pwned=1\"") {
                    seen_payload += 1;
                }
            }
            Err(e) => failures.push(format!("{key}: {e}")),
        }
        for msg in console_errors(&b) {
            failures.push(format!("{key}: console error: {msg}"));
        }
    }
    assert!(
        failures.is_empty(),
        "injection reached the browser:\n  {}",
        failures.join("\n  ")
    );
    assert!(
        seen_payload >= 3,
        "the payloads are shown as text on the pages that hold them ({seen_payload} pages)"
    );
}

#[test]
fn live_reload_in_the_browser() {
    evidence::packs::register();
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let Some(b) = browser("live_reload_in_the_browser") else {
        return;
    };
    let copy = copy_of(&common::manifest_dir().join("tests/fixtures/valid"));
    let root = copy.path();
    let mut srv = Served::start(root);
    b.goto(&format!("{}/en/", srv.origin))
        .unwrap_or_else(|e| panic!("open the page: {e}"));
    let shows = |n: u32| format!("return document.body.innerText.includes('Bundle b1 is {n} KB')");
    let overlay = "return !!document.getElementById('evidence-error-overlay')";
    b.wait_for(&shows(12), Duration::from_secs(5))
        .unwrap_or_else(|e| panic!("{e}"));
    // Wait for the page's event stream to be open, so that the edit is pushed to it.
    b.wait_for(
        "return performance.getEntriesByType('resource').some(e => e.name.includes('/__evidence/events'))",
        Duration::from_secs(5),
    )
    .ok();
    std::thread::sleep(Duration::from_millis(200));
    let bundles = root.join("data/bundles.yaml");
    let good = std::fs::read_to_string(&bundles).unwrap_or_else(|e| panic!("{e}"));
    let write = |text: String| std::fs::write(&bundles, text).unwrap_or_else(|e| panic!("{e}"));
    // Waits for the page to show the edit. The deadline only catches an edit that never
    // arrives; how long it took is printed, not judged (speed is for the benchmarks).
    let within = |script: &str, what: &str, t0: Instant| {
        let deadline = Duration::from_secs(60);
        match b.wait_for(script, deadline) {
            Ok(_) => t0.elapsed(),
            Err(e) => panic!(
                "{what}: not on the open page {deadline:?} after the edit: {e}\nserve printed: {:?}\nstderr: {}",
                srv.drain(),
                srv.stderr_text()
            ),
        }
    };

    // 1. A value edit shows on the open page, by a reload.
    b.exec("window.__before_edit = 1", json!([])).ok();
    let t0 = Instant::now();
    write(good.replacen("size_kb: 12", "size_kb: 13", 1));
    let t_value = within(&shows(13), "the new value", t0);
    let reloaded = b
        .exec(
            "return typeof window.__before_edit === 'undefined'",
            json!([]),
        )
        .unwrap_or_default();
    assert_eq!(reloaded, json!(true), "the page was reloaded");

    // 2. A YAML type error: the overlay shows the located error over the last good page.
    let t0 = Instant::now();
    write(good.replacen("size_kb: 12", "size_kb: \"twelve\"", 1));
    let t_error = within(overlay, "the error overlay", t0);
    let text = b
        .exec(
            "return document.getElementById('evidence-error-overlay').innerText",
            json!([]),
        )
        .unwrap_or_default();
    let text = text.as_str().unwrap_or_default();
    assert!(
        text.contains("data/bundles.yaml"),
        "the file is named: {text}"
    );
    assert!(
        text.contains("twelve"),
        "the offending line is shown: {text}"
    );
    assert_eq!(
        b.exec(&shows(13), json!([])).unwrap_or_default(),
        json!(true),
        "the last good site is still under the overlay"
    );
    let _ = std::fs::create_dir_all(screenshot_dir("live-reload"));
    if let Ok(png) = b.screenshot() {
        let _ = std::fs::write(screenshot_dir("live-reload").join("error-overlay.png"), png);
    }

    // 3. Fixed: the overlay goes, the new value shows.
    let t0 = Instant::now();
    write(good.replacen("size_kb: 12", "size_kb: 14", 1));
    let fixed = "return !document.getElementById('evidence-error-overlay') \
                 && document.body.innerText.includes('Bundle b1 is 14 KB')";
    let t_fixed = within(fixed, "the fixed page without the overlay", t0);
    let console: Vec<String> = console_errors(&b);
    assert!(console.is_empty(), "console errors: {console:?}");
    eprintln!(
        "edit → page: value {} ms, error overlay {} ms, fix {} ms",
        t_value.as_millis(),
        t_error.as_millis(),
        t_fixed.as_millis()
    );
    let status = srv.interrupt(Duration::from_secs(10));
    assert_eq!(
        status.and_then(|s| s.code()),
        Some(0),
        "serve exits 0 on SIGINT"
    );
}

#[test]
fn the_review_page_in_the_browser() {
    evidence::packs::register();
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let Some(b) = browser("the_review_page_in_the_browser") else {
        return;
    };
    // The valid fixture in a repository, then a reworded claim and a moved bound.
    let copy = copy_of(&common::manifest_dir().join("tests/fixtures/valid"));
    let d = copy.path();
    common::git(d, &["init", "-q", "-b", "main"]);
    common::git(d, &["add", "-A"]);
    common::git(d, &["commit", "-qm", "base"]);
    let edit = |file: &str, from: &str, to: &str| {
        let text = std::fs::read_to_string(d.join(file)).expect("read");
        assert!(text.contains(from), "{from} in {file}");
        std::fs::write(d.join(file), text.replacen(from, to, 1)).expect("write");
    };
    edit(
        "data/claims.yaml",
        "What the fixture can show.",
        "What the fixture is able to show.",
    );
    edit("data/maps.yaml", "le: 8", "le: 12");
    let out = tempfile::tempdir().expect("out");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(["diff", "HEAD", "--format", "html", "--out"])
        .arg(out.path())
        .arg("--root")
        .arg(d)
        .status()
        .expect("diff runs");
    assert!(status.success());
    let page = out.path().join("index.html");
    let url = format!("file://{}", page.display());
    let dir = screenshot_dir("diff");
    std::fs::create_dir_all(&dir).expect("screenshots");
    b.logs().ok();
    let mut failures = Vec::new();
    for (width, name) in [(1280, "desktop"), (375, "mobile")] {
        for dark in [false, true] {
            let mode = if dark { "dark" } else { "light" };
            let step = b
                .window(width, 900)
                .and_then(|_| b.color_scheme(dark))
                .and_then(|_| b.goto(&url));
            if let Err(e) = step {
                failures.push(format!("{name}-{mode}: {e}"));
                continue;
            }
            let seen = b
                .exec(
                    "return {\
                       del: document.querySelectorAll('del').length,\
                       ins: document.querySelectorAll('ins').length,\
                       h1: document.querySelector('h1') ? document.querySelector('h1').textContent : '',\
                       sideways: document.documentElement.scrollWidth > window.innerWidth + 1,\
                       foreign: performance.getEntriesByType('resource').map(e => e.name)\
                         .filter(u => !u.startsWith('file:') && !u.startsWith('data:'))}",
                    json!([]),
                )
                .unwrap_or(Value::Null);
            if seen["del"].as_u64().unwrap_or(0) == 0 || seen["ins"].as_u64().unwrap_or(0) == 0 {
                failures.push(format!("{name}-{mode}: no marked words: {seen}"));
            }
            if !seen["h1"]
                .as_str()
                .unwrap_or_default()
                .starts_with("Evidence diff")
            {
                failures.push(format!("{name}-{mode}: heading: {seen}"));
            }
            if seen["sideways"] != false {
                failures.push(format!("{name}-{mode}: the page scrolls sideways: {seen}"));
            }
            if seen["foreign"].as_array().is_none_or(|a| !a.is_empty()) {
                failures.push(format!("{name}-{mode}: requests: {seen}"));
            }
            match b.full_screenshot(6000) {
                Ok(png) if png_size(&png).is_some() => {
                    let path = dir.join(format!("review-{name}-{mode}.png"));
                    if let Err(e) = std::fs::write(&path, &png) {
                        failures.push(format!("{}: {e}", path.display()));
                    }
                }
                Ok(_) => failures.push(format!("{name}-{mode}: the screenshot is not a PNG")),
                Err(e) => failures.push(format!("{name}-{mode}: screenshot: {e}")),
            }
        }
    }
    let console: Vec<String> = console_errors(&b);
    assert!(console.is_empty(), "console errors: {console:?}");
    assert!(failures.is_empty(), "{failures:#?}");
}
