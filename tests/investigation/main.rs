//! The investigation this repository publishes (`evidence.yaml`, `content/`, `data/`,
//! `locales/` and the committed `site/` at its root), tested as a site: it checks with no
//! error or warning, every data file validates against its schema, every page has a meta
//! description and no two captions alike, every finding cites a revision, the probe
//! workflow's hosts are subjects it declares, the Nu HTML checker finds no error in
//! `site/`, and every page passes the browser's checks (axe-core among them) in every
//! view.
//!
//! These are the only tests that read the live tree, on purpose: their subject is this
//! investigation, so editing it may fail them, and the fix is in the investigation. The
//! tool's own tests run on the small sites under `tests/fixtures/`, copied to a temporary
//! folder, so that editing the investigation never breaks them.

// The browser's support modules of tests/browser.rs (pages.rs is used only in part here).
#[path = "../browser/axe.rs"]
mod axe;
#[allow(dead_code)]
#[path = "../browser/pages.rs"]
mod browser_pages;
#[path = "../common/mod.rs"]
mod common;
mod in_the_browser;
mod nu_checker;
mod pages;
mod records;
#[path = "../schema_support/mod.rs"]
mod schema_support;
#[path = "../browser/server.rs"]
mod server;
#[path = "../browser/webdriver.rs"]
mod webdriver;
