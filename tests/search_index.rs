//! The search index the build writes, on the search fixture (`tests/fixtures/search`):
//! where its files are, that they hold what the pages say (観測 → the Japanese pages with
//! 観測, one of them in 観測手段), and that two builds write the same bytes.

mod common;

use serde_json::Value;
use std::collections::BTreeMap;

/// The files of a full build of a copy of the search fixture, in memory.
fn site() -> BTreeMap<String, evidence::render::Bytes> {
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_dir(
        &common::manifest_dir().join("tests/fixtures/search"),
        dir.path(),
    );
    let outcome = evidence::pipeline::run(dir.path());
    assert!(!outcome.diagnostics.has_errors(), "the site does not build");
    outcome.site.expect("a site").files
}

/// The data of an index file: `__evidenceSearch("name",DATA);`.
fn data(files: &BTreeMap<String, evidence::render::Bytes>, path: &str) -> (String, Value) {
    let text = std::str::from_utf8(&files[path]).expect("UTF-8");
    let inner = text
        .strip_prefix("__evidenceSearch(")
        .and_then(|t| t.strip_suffix(");\n"))
        .unwrap_or_else(|| panic!("{path} is not an index file: {text:.80}"));
    let (name, json) = inner.split_once(',').expect("name, data");
    (
        serde_json::from_str(name).expect("name"),
        serde_json::from_str(json).expect("JSON"),
    )
}

/// The `<main>` of a page: what the index reads (the footer says 観測 on every page).
fn main(page: &[u8]) -> String {
    let text = String::from_utf8_lossy(page);
    let start = text.find("<main").unwrap_or(0);
    let end = text.find("</main>").unwrap_or(text.len());
    text[start..end].to_string()
}

#[test]
fn each_language_view_has_an_index_that_finds_its_pages() {
    evidence::packs::register();
    let files = site();
    assert!(files.contains_key("static/search.js"));
    assert!(
        !files.keys().any(|k| k.starts_with("search/interleaved/")),
        "the interleaved view searches its languages' indexes"
    );
    for lang in ["ja", "en"] {
        let (name, meta) = data(&files, &format!("search/{lang}/meta.js"));
        assert_eq!(name, format!("{lang}/meta"));
        let shards = meta["shards"].as_u64().expect("shards") as usize;
        let docs = meta["docs"].as_u64().expect("docs") as usize;
        let chunk = meta["chunk"].as_u64().expect("chunk") as usize;
        let pages = files
            .keys()
            .filter(|k| k.starts_with(&format!("{lang}/")) && k.ends_with("index.html"))
            .count();
        assert_eq!(docs, pages, "{lang}: every page is indexed");
        let sizes = meta["sizes"].as_array().expect("sizes");
        assert_eq!(
            sizes.len(),
            docs,
            "{lang}: a size per page, for ranking ties"
        );
        assert!(sizes.iter().all(|n| n.as_u64().is_some_and(|n| n > 0)));
        for s in 0..shards {
            data(&files, &format!("search/{lang}/t/{s}.js"));
        }
        assert_eq!(
            files
                .keys()
                .filter(|k| k.starts_with(&format!("search/{lang}/d/")))
                .count(),
            docs.div_ceil(chunk)
        );
    }
    // 観測 is a bigram of 観測手段: the pages it lists are the Japanese pages with 観測.
    let key = "観";
    let meta = data(&files, "search/ja/meta.js").1;
    let shards = meta["shards"].as_u64().expect("shards") as u32;
    let chunk = meta["chunk"].as_u64().expect("chunk");
    let s = evidence::render::search::fnv1a(key) & (shards - 1);
    let (_, shard) = data(&files, &format!("search/ja/t/{s}.js"));
    let posting = shard["観測"].as_array().expect("観測 is indexed");
    let mut doc = 0;
    let mut found = Vec::new();
    for p in posting {
        doc += p.as_u64().expect("number") >> 3;
        let (_, rows) = data(&files, &format!("search/ja/d/{}.js", doc / chunk));
        let path = rows[(doc % chunk) as usize][0]
            .as_str()
            .expect("path")
            .to_string();
        found.push(format!("ja/{path}"));
    }
    let expected: Vec<String> = files
        .iter()
        .filter(|(k, v)| {
            k.starts_with("ja/") && k.ends_with("index.html") && main(v).contains("観測")
        })
        .map(|(k, _)| k.clone())
        .collect();
    assert_eq!(found, expected);
    assert!(
        found
            .iter()
            .any(|p| String::from_utf8_lossy(&files[p]).contains("観測手段"))
    );
}

#[test]
fn the_index_is_the_same_every_build() {
    evidence::packs::register();
    let (a, b) = (site(), site());
    let index = |f: &BTreeMap<String, evidence::render::Bytes>| -> Vec<(String, Vec<u8>)> {
        f.iter()
            .filter(|(k, _)| k.starts_with("search/"))
            .map(|(k, v)| (k.clone(), v.to_vec()))
            .collect()
    };
    assert!(!index(&a).is_empty());
    assert_eq!(index(&a), index(&b));
}

#[test]
fn a_site_that_does_not_ask_for_search_has_no_index_and_no_field() {
    evidence::packs::register();
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::write(root.join("evidence.yaml"), "title: {ja: 題, en: Title}\n").expect("config");
    std::fs::create_dir_all(root.join("content")).expect("content");
    std::fs::write(
        root.join("content/index.md"),
        "---\ntitle: {ja: 表紙, en: Home}\n---\n\n:::ja\n観測手段\n:::\n\n:::en\nObservers\n:::\n",
    )
    .expect("page");
    let outcome = evidence::pipeline::run(root);
    assert!(!outcome.diagnostics.has_errors(), "the site does not build");
    let files = outcome.site.expect("a site").files;
    assert!(files.keys().any(|k| k.ends_with("index.html")));
    assert!(
        !files
            .keys()
            .any(|k| k.starts_with("search/") || k == "static/search.js"),
        "no index without `search: true`"
    );
    for (path, bytes) in files.iter().filter(|(k, _)| k.ends_with(".html")) {
        let page = String::from_utf8_lossy(bytes);
        assert!(!page.contains("site-search"), "{path} shows a search field");
    }
}
