//! The site's search index, written by the build itself: no server, no external tool.
//!
//! Every page of each indexed view is read as it passes to the sink ([`Collector`]):
//! its `<main>` text, title and description ([`text`]) become tokens ([`tokens`]: Latin
//! words lower-cased, Japanese and other CJK text as character bigrams). Each view in one
//! language gets its own index under `search/<view>/`; the interleaved view has none of its
//! own when every one of its languages has its view, and its readers search those (the
//! theme's `search.js` links the results to the interleaved pages).
//!
//! An index is a set of small script files, so that it loads from `file://` as well as
//! from a server (a page may load a script from its folder, not `fetch` it). Each calls
//! `__evidenceSearch(name, data)`:
//!
//! - `search/<view>/meta.js`: `{"v": 2, "shards": S, "chunk": C, "docs": N, "sizes":
//!   [n, …]}`, `sizes` the number of distinct tokens of each page, by which `search.js`
//!   ranks pages of equal score (the shorter page, more about the terms, first);
//! - `search/<view>/t/<s>.js`: shard `s` of the postings, `{token: [doc, weight, …]}`, doc
//!   numbers ascending and each but the first written as the difference from the one
//!   before, times 8, plus the token's weight on the page: 1 when it occurs often, 2 when
//!   it is in the title, 4 when it is in a heading or a caption. A token is in the shard
//!   `fnv1a32(key) mod S` of its [`tokens::key`], so a query reads one shard per term,
//!   prefix matches included;
//! - `search/<view>/d/<c>.js`: pages `c·C` to `c·C + C − 1` as `[path, title, excerpt]`,
//!   the path relative to the view's root; a query reads only the chunks of the results
//!   it shows.
//!
//! `S` is the power of two that keeps shards near [`SHARD_BYTES`]. Everything is sorted
//! (pages by id, tokens by their bytes), so the index is as reproducible as the pages.

pub mod text;
pub mod tokens;

use super::Sink;
use crate::model::Evidence;
use crate::model::view::View;
use rustc_hash::FxHashMap;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

/// The index format, in each `meta.js`.
const VERSION: u32 = 2;
/// Pages per file of titles and excerpts.
const CHUNK: usize = 8;
/// The size a shard of postings aims at, in bytes.
pub const SHARD_BYTES: usize = 16 * 1024;

/// The theme's search script, under `static/`: written only for a site with `search: true`.
pub const SCRIPT: &str = "search.js";
/// At most this many shards per index.
const MAX_SHARDS: usize = 4096;
/// Characters of a page's text shown under its title when it has no description.
const EXCERPT_CHARS: usize = 120;
/// A token this many times on a page or more weighs more (weight bit 1).
const OFTEN: usize = 3;
/// A token in the page's title (weight bit 2).
const IN_TITLE: u8 = 2;
/// A token in a heading or caption of the page (weight bit 3).
const IN_HEADING: u8 = 4;
/// The bits of a posting that hold the weight.
const WEIGHT_BITS: u32 = 3;

/// One page as the index keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doc {
    title: String,
    excerpt: String,
    /// Its distinct tokens in byte order, each ended by `\n` (one allocation per page).
    tokens: String,
    /// The weight of each token, in the same order.
    weights: Vec<u8>,
}

impl Doc {
    /// The page whose HTML is `html`.
    pub fn of(html: &str) -> Doc {
        let t = text::page_text(html);
        let body = tokens::normalize(&t.body);
        // Counted first, then only the distinct tokens sorted: a long page repeats most
        // of its words (and its Japanese bigrams), and sorting every occurrence was the
        // larger part of indexing it.
        let mut counts: FxHashMap<&str, usize> = FxHashMap::default();
        tokens::tokens(&body, &mut |tok| *counts.entry(tok).or_default() += 1);
        let mut distinct: Vec<(&str, usize)> = counts.into_iter().collect();
        distinct.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let title = tokens::normalize(&t.title);
        let in_title = sorted_tokens(&title);
        let headings = tokens::normalize(&t.headings);
        let in_headings = sorted_tokens(&headings);
        let mut tokens = String::with_capacity(body.len() / 2);
        let mut weights = Vec::with_capacity(distinct.len());
        for (tok, count) in distinct {
            let mut w = if count >= OFTEN { 1 } else { 0 };
            if in_title.binary_search(&tok).is_ok() {
                w |= IN_TITLE;
            }
            if in_headings.binary_search(&tok).is_ok() {
                w |= IN_HEADING;
            }
            tokens.push_str(tok);
            tokens.push('\n');
            weights.push(w);
        }
        let excerpt = if t.description.is_empty() {
            excerpt(&t.body, &t.title)
        } else {
            t.description
        };
        Doc {
            title: t.title,
            excerpt,
            tokens,
            weights,
        }
    }

    /// How many distinct tokens it has.
    pub fn size(&self) -> usize {
        self.weights.len()
    }

    /// Its tokens with their weights, in byte order.
    pub fn tokens(&self) -> impl Iterator<Item = (&str, u8)> {
        self.tokens
            .split_terminator('\n')
            .zip(self.weights.iter().copied())
    }
}

/// The tokens of `text`, sorted, for a binary search.
fn sorted_tokens(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    tokens::tokens(text, &mut |tok| out.push(tok));
    out.sort_unstable();
    out
}

/// The first words of a page's text after its title, for a page without a description.
fn excerpt(body: &str, title: &str) -> String {
    let mut words = body.split_whitespace().peekable();
    // The text starts with the title (the `<h1>`), which the result shows already.
    for t in title.split_whitespace() {
        if words.peek() == Some(&t) {
            words.next();
        }
    }
    let mut out = String::new();
    let mut n = 0;
    for w in words {
        if !out.is_empty() {
            out.push(' ');
            n += 1;
        }
        for c in w.chars() {
            if n == EXCERPT_CHARS {
                out.push('…');
                return out;
            }
            out.push(c);
            n += 1;
        }
    }
    out
}

/// The pages of every index, by index (a view's name) and page id: what the build
/// indexed, kept by `serve` so that a rebuild reads again only the pages it re-rendered.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Corpus(BTreeMap<&'static str, BTreeMap<String, Arc<Doc>>>);

impl Corpus {
    /// How many pages the index `name` holds.
    pub fn len(&self, name: &str) -> usize {
        self.0.get(name).map_or(0, |d| d.len())
    }
}

/// The views that get an index of their own: each view in one language, and the
/// interleaved view when one of its languages has no view of its own (or the site has
/// one language, whose view is the only one).
pub fn indexed(views: &[View]) -> Vec<View> {
    views
        .iter()
        .copied()
        .filter(|v| !v.interleaved() || v.langs().iter().any(|&l| !views.contains(&View::one(l))))
        .collect()
}

/// The indexes a reader of `view` searches: its own, or those of its languages.
pub fn searched(view: View, views: &[View]) -> Vec<&'static str> {
    if indexed(views).contains(&view) {
        vec![view.name()]
    } else {
        view.langs().iter().map(|&l| View::one(l).name()).collect()
    }
}

/// The Unicode scripts a reader of `view` types in, as the short aliases JavaScript's
/// `\p{Script=…}` reads (`Latn`, `Hani Hira Kana`), space-separated: each language's
/// likely script by CLDR (ICU4X's likely subtags), so that `search.js` can tell a query
/// written in another view's script and point to that view. A writing system that mixes
/// scripts is given as the scripts it mixes.
pub fn scripts(view: View) -> String {
    let expander = icu_locale::LocaleExpander::new_common();
    let mut out: Vec<String> = Vec::new();
    // Every tag was read as BCP 47 when the site loaded; one that CLDR gives no script
    // only means that no view is suggested for its script.
    for lang in view.langs() {
        let Ok(mut id) = icu_locale_core::LanguageIdentifier::try_from_str(lang.code()) else {
            continue;
        };
        expander.maximize(&mut id);
        let Some(script) = id.script else { continue };
        for s in script_parts(script.as_str()) {
            if !out.iter().any(|o| o == s) {
                out.push(s.to_string());
            }
        }
    }
    out.join(" ")
}

/// The scripts an ISO 15924 code stands for: itself, or the ones a mixed writing system
/// (Japanese, Korean, Chinese in its two forms) is made of, which Unicode's Script
/// property knows one by one.
fn script_parts(code: &str) -> Vec<&str> {
    match code {
        "Jpan" => vec!["Hani", "Hira", "Kana"],
        "Kore" => vec!["Hang", "Hani"],
        "Hans" | "Hant" | "Hanb" => vec!["Hani"],
        other => vec![other],
    }
}

/// A page's file relative to its view's root (`observers/index.html`).
fn page_path(page_id: &str) -> String {
    if page_id == "index" {
        "index.html".to_string()
    } else {
        format!("{page_id}/index.html")
    }
}

/// A sink that reads the pages of the indexed views on their way to `inner`, then
/// writes the index ([`Collector::finish`]).
pub struct Collector<'a> {
    inner: &'a dyn Sink,
    /// Output file → (index, page id), for every page of an indexed view.
    files: HashMap<String, (&'static str, String)>,
    corpus: Mutex<Corpus>,
}

impl<'a> Collector<'a> {
    /// `carried`: the corpus of the build before, whose pages stand until they are
    /// rendered again (`serve`'s partial rebuilds); pages and indexes the site no longer
    /// has are left out of it.
    pub fn new(
        inner: &'a dyn Sink,
        ev: &Evidence,
        views: &[View],
        carried: Option<Corpus>,
    ) -> Self {
        let indexed = indexed(views);
        let mut files = HashMap::with_capacity(ev.pages.len() * indexed.len());
        for view in &indexed {
            for p in &ev.pages {
                files.insert(view.file(&p.id), (view.name(), p.id.clone()));
            }
        }
        let mut corpus = Corpus::default();
        for view in &indexed {
            corpus.0.insert(view.name(), BTreeMap::new());
        }
        if let Some(old) = carried {
            for (name, docs) in old.0 {
                if let Some(into) = corpus.0.get_mut(name) {
                    into.extend(docs.into_iter().filter(|(id, _)| ev.page(id).is_some()));
                }
            }
        }
        Collector {
            inner,
            files,
            corpus: Mutex::new(corpus),
        }
    }

    /// Writes every index into the sink and returns what it holds.
    pub fn finish(self) -> Corpus {
        let corpus = self.corpus.into_inner().unwrap_or_else(|e| e.into_inner());
        write(&corpus, self.inner);
        corpus
    }
}

impl Sink for Collector<'_> {
    fn put(&self, path: String, bytes: Vec<u8>) {
        if let Some((name, id)) = self.files.get(&path) {
            // The renderer writes UTF-8; anything else is not a page to read.
            if let Ok(html) = std::str::from_utf8(&bytes) {
                let doc = Arc::new(Doc::of(html));
                if let Ok(mut corpus) = self.corpus.lock()
                    && let Some(docs) = corpus.0.get_mut(name)
                {
                    docs.insert(id.clone(), doc);
                }
            }
        }
        self.inner.put(path, bytes);
    }

    fn put_pieces(&self, path: String, write: &mut crate::render::Pieces) {
        // Pages are read whole; other files pass through in pieces.
        if self.files.contains_key(&path) {
            self.put(path, crate::render::gather(write));
        } else {
            self.inner.put_pieces(path, write);
        }
    }

    fn prepare(&self, folders: &[String]) {
        self.inner.prepare(folders);
    }
}

/// FNV-1a (32 bits) of `s`'s UTF-8 bytes: the shard of a key, computed the same way by
/// `search.js`.
pub fn fnv1a(s: &str) -> u32 {
    s.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// A JSON string literal.
fn json(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// One index file: a call of the loader with the file's name and its data.
fn script(name: &str, index: &str, data: &str) -> Vec<u8> {
    format!(
        "__evidenceSearch({},{data});\n",
        json(&format!("{index}/{name}"))
    )
    .into_bytes()
}

/// Puts the files of every index in `corpus` into `sink`, each as soon as it is made.
pub fn write(corpus: &Corpus, sink: &dyn Sink) {
    use rayon::prelude::*;
    corpus
        .0
        .par_iter()
        .for_each(|(name, docs)| index_files(name, docs, sink));
}

fn index_files(name: &str, docs: &BTreeMap<String, Arc<Doc>>, sink: &dyn Sink) {
    use rayon::prelude::*;
    let mut postings: FxHashMap<&str, Vec<u32>> = FxHashMap::default();
    for (n, doc) in docs.values().enumerate() {
        let n = n as u32;
        for (tok, w) in doc.tokens() {
            postings
                .entry(tok)
                .or_default()
                .push(n << WEIGHT_BITS | u32::from(w));
        }
    }
    // About three bytes per posting (a small number and a comma).
    let total: usize = postings
        .iter()
        .map(|(t, p)| t.len() + 6 + 3 * p.len())
        .sum();
    let shards = (total / SHARD_BYTES)
        .max(1)
        .next_power_of_two()
        .min(MAX_SHARDS);
    let mut buckets: Vec<Vec<(&str, &Vec<u32>)>> = vec![Vec::new(); shards];
    for (tok, list) in &postings {
        let b = fnv1a(tokens::key(tok)) as usize & (shards - 1);
        buckets[b].push((tok, list));
    }
    let dir = format!("{}{name}", crate::model::view::own::SEARCH);
    buckets
        .into_par_iter()
        .enumerate()
        .for_each(|(s, mut bucket)| {
            bucket.sort_unstable_by_key(|(t, _)| *t);
            let mut data = String::from("{");
            for (i, (tok, list)) in bucket.iter().enumerate() {
                if i > 0 {
                    data.push(',');
                }
                data.push_str(&json(tok));
                data.push_str(":[");
                let mut prev = 0;
                let mut num = itoa::Buffer::new();
                for (j, p) in list.iter().enumerate() {
                    let doc = p >> WEIGHT_BITS;
                    if j > 0 {
                        data.push(',');
                    }
                    let weight = p & ((1 << WEIGHT_BITS) - 1);
                    data.push_str(num.format((doc - prev) << WEIGHT_BITS | weight));
                    prev = doc;
                }
                data.push(']');
            }
            data.push('}');
            let file = format!("t/{s}");
            sink.put(format!("{dir}/{file}.js"), script(&file, name, &data));
        });
    let list: Vec<(&String, &Arc<Doc>)> = docs.iter().collect();
    for (c, chunk) in list.chunks(CHUNK).enumerate() {
        let mut data = String::from("[");
        for (i, (id, doc)) in chunk.iter().enumerate() {
            if i > 0 {
                data.push(',');
            }
            let _ = write!(
                data,
                "[{},{},{}]",
                json(&page_path(id)),
                json(&doc.title),
                json(&doc.excerpt)
            );
        }
        data.push(']');
        let file = format!("d/{c}");
        sink.put(format!("{dir}/{file}.js"), script(&file, name, &data));
    }
    let sizes: Vec<String> = docs.values().map(|d| d.size().to_string()).collect();
    let meta = format!(
        "{{\"v\":{VERSION},\"shards\":{shards},\"chunk\":{CHUNK},\"docs\":{},\"sizes\":[{}]}}",
        docs.len(),
        sizes.join(",")
    );
    sink.put(format!("{dir}/meta.js"), script("meta", name, &meta));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(title: &str, body: &str) -> String {
        format!(
            "<html><head></head><body><main id=\"main\"><h1>{title}</h1><p>{body}</p></main></body></html>"
        )
    }

    #[test]
    fn a_page_keeps_its_tokens_with_counts_and_title_marks() {
        let d = Doc::of(&page("観測手段", "Route route ROUTE 観測 beta"));
        let t: BTreeMap<&str, u8> = d.tokens().collect();
        assert_eq!(t["route"], 1);
        assert_eq!(t["beta"], 0);
        assert_eq!(t["観測"], IN_TITLE);
        assert_eq!(t["手段"], IN_TITLE);
        assert_eq!(d.title, "観測手段");
        assert_eq!(d.excerpt, "Route route ROUTE 観測 beta");
    }

    #[test]
    fn a_token_in_a_heading_or_caption_weighs_more_than_one_in_the_body() {
        let html = "<html><body><main><h1>Page</h1><h2>Scans</h2><p>bitmap scans</p>\
            <figure><figcaption>Rows by estimate</figcaption></figure><p>rows</p></main></body></html>";
        let d = Doc::of(html);
        let t: BTreeMap<&str, u8> = d.tokens().collect();
        assert_eq!(t["scans"], IN_HEADING);
        assert_eq!(t["estimate"], IN_HEADING);
        assert_eq!(t["bitmap"], 0);
        assert_eq!(t["page"], IN_TITLE);
        assert_eq!(d.size(), t.len());
    }

    #[test]
    fn excerpts_are_cut() {
        let long = "word ".repeat(100);
        let e = excerpt(&long, "");
        assert_eq!(e.chars().count(), EXCERPT_CHARS + 1);
        assert!(e.ends_with('…'));
    }

    #[test]
    fn views_with_their_own_index() {
        use crate::model::view::View;
        assert_eq!(indexed(View::DEFAULT), [View::JA, View::EN]);
        assert_eq!(searched(View::BILINGUAL, View::DEFAULT), ["ja", "en"]);
        assert_eq!(searched(View::JA, View::DEFAULT), ["ja"]);
        let only = [View::BILINGUAL, View::JA];
        assert_eq!(indexed(&only), [View::BILINGUAL, View::JA]);
        assert_eq!(searched(View::BILINGUAL, &only), ["interleaved"]);
    }

    #[test]
    fn a_views_scripts_are_its_languages_likely_scripts() {
        use crate::model::lang::Lang;
        assert_eq!(scripts(View::one(Lang::JA)), "Hani Hira Kana");
        assert_eq!(scripts(View::one(Lang::EN)), "Latn");
        assert_eq!(scripts(View::BILINGUAL), "Hani Hira Kana Latn");
        let ru = Lang::parse("ru").unwrap();
        assert_eq!(scripts(View::one(ru)), "Cyrl");
    }

    #[test]
    fn fnv_matches_the_reference_values() {
        // FNV-1a 32 test vectors (the same function as `search.js`'s).
        assert_eq!(fnv1a(""), 0x811c_9dc5);
        assert_eq!(fnv1a("a"), 0xe40c_292c);
        assert_eq!(fnv1a("foobar"), 0xbf9c_f968);
    }
}
