//! How text becomes search tokens, the same way for the index (here) and for a query
//! (`static/search.js`, which mirrors these rules line for line).
//!
//! 1. The text is normalised to NFKC, so full-width `ＲＸ９０７０` is `RX9070` and
//!    half-width `ｶｰﾈﾙ` is `カーネル`, and lower-cased character by character.
//! 2. It is cut into runs of one class of character: **CJK** (the scripts Han, Hiragana
//!    and Katakana, and the prolonged sound mark `ー`), **word** (any other letter or
//!    number) and anything else, which separates.
//! 3. A word run is one token, cut to [`MAX_CHARS`] characters.
//! 4. A CJK run, which has no spaces between its words, gives each pair of neighbouring
//!    characters (a *bigram*) and its last character alone: `観測手段` gives `観測`,
//!    `測手`, `手段` and `段`. A query looks up each of its own bigrams, so `観測` finds
//!    every text containing `観測手段`, without a dictionary of Japanese words; the last
//!    character lets a query of one character find a character that ends a run.

use icu_normalizer::ComposingNormalizerBorrowed;
use icu_properties::props::Script;
use icu_properties::{CodePointMapData, CodePointMapDataBorrowed};
use std::borrow::Cow;

/// Tokens longer than this many characters are cut (queries are cut the same way).
pub const MAX_CHARS: usize = 32;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Cjk,
    Word,
    Gap,
}

const SCRIPTS: CodePointMapDataBorrowed<'static, Script> = CodePointMapData::<Script>::new();

fn class(c: char) -> Class {
    if c.is_ascii() {
        return if c.is_ascii_alphanumeric() {
            Class::Word
        } else {
            Class::Gap
        };
    }
    let script = SCRIPTS.get(c);
    let cjk = [Script::Han, Script::Hiragana, Script::Katakana].contains(&script);
    if cjk || c == '\u{30FC}' {
        Class::Cjk
    } else if c.is_alphanumeric() {
        Class::Word
    } else {
        Class::Gap
    }
}

/// `text` in NFKC, each character lower-cased (as `search.js` does: one character at a
/// time, so that a word-final `Σ` is `σ` on both sides).
pub fn normalize(text: &str) -> Cow<'_, str> {
    // ASCII text is its own NFKC: most of an English page, checked far faster than normalised.
    if text.is_ascii() {
        return if text.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(text.to_ascii_lowercase())
        } else {
            Cow::Borrowed(text)
        };
    }
    let mut nfkc = ComposingNormalizerBorrowed::new_nfkc()
        .normalize(text)
        .into_owned();
    nfkc.make_ascii_lowercase();
    // Upper-case letters beyond ASCII are rare: the text is copied only when it has one.
    if !nfkc.chars().any(|c| !c.is_ascii() && c.is_uppercase()) {
        return Cow::Owned(nfkc);
    }
    let mut out = String::with_capacity(nfkc.len());
    for c in nfkc.chars() {
        out.extend(c.to_lowercase());
    }
    Cow::Owned(out)
}

/// Calls `emit` with each token of `normalized` (the output of [`normalize`]) in order,
/// each a slice of it (see the module documentation).
pub fn tokens<'t>(normalized: &'t str, emit: &mut dyn FnMut(&'t str)) {
    let text = normalized;
    let mut run_start = 0;
    let mut run_class = Class::Gap;
    // Char boundaries of the current run (CJK: for its bigrams; word: to cut it).
    let mut bounds: Vec<usize> = Vec::new();
    let mut flush = |class: Class, start: usize, end: usize, bounds: &mut Vec<usize>| {
        let run = &text[start..end];
        match class {
            Class::Word => {
                let cut = bounds.get(MAX_CHARS).map_or(run.len(), |&b| b - start);
                emit(&run[..cut]);
            }
            Class::Cjk => {
                bounds.push(end);
                for w in bounds.windows(3) {
                    emit(&text[w[0]..w[2]]);
                }
                let last = bounds[bounds.len().saturating_sub(2)];
                emit(&text[last..end]);
            }
            Class::Gap => {}
        }
        bounds.clear();
    };
    for (i, c) in text.char_indices() {
        let k = class(c);
        if k != run_class {
            flush(run_class, run_start, i, &mut bounds);
            run_start = i;
            run_class = k;
        }
        if k == Class::Cjk || (k == Class::Word && bounds.len() <= MAX_CHARS) {
            bounds.push(i);
        }
    }
    flush(run_class, run_start, text.len(), &mut bounds);
}

/// The tokens of `text`, collected (tests, queries).
pub fn collect(text: &str) -> Vec<String> {
    let normalized = normalize(text);
    let mut out = Vec::new();
    tokens(&normalized, &mut |t| out.push(t.to_string()));
    out
}

/// The shard key of a token: its first character for a CJK token, the first two for a
/// word (or the whole of a one-character word). Every token a query can match by prefix
/// shares the key of the query's own token, so a query reads one shard per term.
pub fn key(token: &str) -> &str {
    let n = match token.chars().next().map(class) {
        Some(Class::Cjk) => 1,
        _ => 2,
    };
    match token.char_indices().nth(n) {
        Some((i, _)) => &token[..i],
        None => token,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        collect(text)
    }

    #[test]
    fn japanese_is_cut_into_bigrams_and_its_last_character() {
        assert_eq!(words("観測手段"), ["観測", "測手", "手段", "段"]);
        // A query's bigram is among the indexed ones of the longer word.
        let indexed = words("この観測手段では");
        for q in ["観測", "手段", "測手"] {
            assert!(indexed.contains(&q.to_string()), "{q} in {indexed:?}");
        }
        assert_eq!(words("表"), ["表"]);
        assert_eq!(words("カーネル"), ["カー", "ーネ", "ネル", "ル"]);
    }

    #[test]
    fn latin_words_are_lower_cased_and_split_at_punctuation() {
        assert_eq!(
            words("The ALPHA route, bundle_0030 (v2.1)!"),
            ["the", "alpha", "route", "bundle", "0030", "v2", "1"]
        );
        assert_eq!(words("Größe ÉTÉ"), ["größe", "été"]);
    }

    #[test]
    fn mixed_text_switches_at_each_script() {
        assert_eq!(
            words("BETAは256まで、nx11≤8ならALPHA"),
            [
                "beta", "は", "256", "まで", "で", "nx11", "8", "なら", "ら", "alpha"
            ]
        );
    }

    #[test]
    fn full_and_half_width_forms_are_folded() {
        assert_eq!(words("ＲＸ９０７０"), ["rx9070"]);
        assert_eq!(words("ｶｰﾈﾙ"), words("カーネル"));
    }

    #[test]
    fn long_words_are_cut() {
        let long = "a".repeat(100);
        assert_eq!(words(&long), ["a".repeat(MAX_CHARS)]);
    }

    #[test]
    fn keys_group_every_prefix_match() {
        assert_eq!(key("route"), "ro");
        assert_eq!(key("r"), "r");
        assert_eq!(key("観測"), "観");
        assert_eq!(key("été"), "ét");
    }
}
