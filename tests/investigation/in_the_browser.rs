//! The investigation's pages in a real browser (headless Chromium over WebDriver, against
//! `evidence serve` on a copy of the site): every page in its three views passes the
//! checks of `tests/browser.rs`'s `every_page_in_every_view`, axe-core's among them.
//! Without chromium or chromedriver the test is skipped, except under `CI=true`.

/// Every page of the investigation in every view; screenshots go to
/// `target/screenshots/site/`.
#[test]
fn every_page_of_the_investigation_in_every_view() {
    evidence::packs::register();
    crate::browser_pages::every_page_in_every_view_of(
        "every_page_of_the_investigation_in_every_view",
        &crate::common::manifest_dir(),
        "site",
    );
}
