//! Snapshots of the rendered data tables of the valid fixture (English view).
//! Update with `INSTA_UPDATE=always cargo test --test tables` or `cargo insta review`.

mod common;

use common::*;

#[test]
fn claims_table_en() {
    let b = Built::new();
    let html = b.read("en/index.html");
    insta::assert_snapshot!("claims_table_en", figure(&html, "claims"));
}

#[test]
fn bundles_table_en() {
    let b = Built::new();
    let html = b.read("en/details/index.html");
    insta::assert_snapshot!("bundles_table_en", figure(&html, "bundles"));
}

#[test]
fn run_table_en() {
    let b = Built::new();
    let html = b.read("en/details/index.html");
    insta::assert_snapshot!("run_table_en", figure(&html, "run"));
}
