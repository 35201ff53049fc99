//! A site of another field, with no pack, shows no word of the GPU investigation (issue 40,
//! point 4): `tests/fixtures/planner`, a PostgreSQL planner study that uses every directive a
//! pack-less site can use, and the site `evidence init` writes, are built, and no page,
//! figure, search index file, `evidence.json`, 404 page or message may hold one.
//!
//! Words that other points of issue 40 remove are listed in [`NOT_YET`] with the point that
//! removes them; an entry that no longer occurs fails the test, so that the list shrinks as
//! those points land.

mod common;

use common::*;
use std::collections::BTreeMap;
use std::path::Path;

/// The GPU investigation's words, matched case-insensitively on whole words (`_` joins a
/// word: `prompt_eval_count` holds `prompt_eval`).
const WORDS: &[&str] = &[
    "ne11", "gfx", "rocm", "hip", "hsaco", "mmvq", "mmq", "ollama", "llama", "ggml", "kernel",
    "kernels", "gguf", "fatbin", "bundle", "bundles", "tensor", "tensors", "prompt", "cold", "hot",
    "model",
];

/// Beginnings of words (`quantized`, `quantization`) and phrases, matched in the lower-cased
/// text with its runs of white space made one space.
const PHRASES: &[&str] = &[
    "quantiz",
    "prompt_eval",
    "llama-server",
    "model unknown",
    "dispatch.yaml",
    "process maps",
];

/// Words still shown, each with the point of issue 40 that removes it; the test fails when
/// one no longer occurs, so that its entry is deleted with the change that removes it.
const NOT_YET: &[(&str, &str)] = &[];

/// The core's directives (a pack's are its own specs): every one the fixture must use.
fn core_directives() -> Vec<&'static str> {
    evidence::model::directive::SPECS
        .iter()
        .map(|(name, _, _)| *name)
        .collect()
}

/// The words of `text` (lower case): runs of letters, digits and `_`.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// The GPU words `text` holds: a listed word, a listed word inside a `_`-joined one, or a
/// phrase.
fn found_in(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for w in words(text) {
        let parts: Vec<&str> = w.split('_').collect();
        for bad in WORDS {
            if w == *bad || parts.contains(bad) {
                found.push(bad.to_string());
            }
        }
    }
    let flat = text
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for phrase in PHRASES {
        if flat.contains(phrase) {
            found.push(phrase.to_string());
        }
    }
    found
}

/// Every GPU word in the files under `dir` and in `messages`, with where it was found.
fn gpu_words(dir: &Path, messages: &[(&str, &str)]) -> BTreeMap<String, Vec<String>> {
    let mut at: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (file, bytes) in read_tree(dir) {
        let text = String::from_utf8_lossy(&bytes);
        for w in found_in(&text) {
            at.entry(w).or_default().push(file.clone());
        }
    }
    for (what, text) in messages {
        for w in found_in(text) {
            at.entry(w).or_default().push(what.to_string());
        }
    }
    for places in at.values_mut() {
        places.sort();
        places.dedup();
    }
    at
}

/// Builds and checks `site`, and asserts that its output and messages hold no GPU word but
/// those [`NOT_YET`] lists, and (with `all_shown`, for the fixture that shows every part)
/// that each of those still occurs.
fn assert_neutral(site: &Path, all_shown: bool) {
    let out = tempfile::tempdir().expect("tempdir");
    let site_dir = out.path().join("site");
    let b = build(site, Some(&site_dir));
    assert_eq!(b.code, 0, "build failed:\n{}{}", b.stdout, b.stderr);
    let root = site.as_os_str();
    let c = run(&["check".as_ref(), "--root".as_ref(), root]);
    assert_eq!(c.code, 0, "check failed:\n{}{}", c.stdout, c.stderr);
    let messages = [
        ("build output", b.stdout.as_str()),
        ("build messages", b.stderr.as_str()),
        ("check output", c.stdout.as_str()),
        ("check messages", c.stderr.as_str()),
    ];
    let mut found = gpu_words(&site_dir, &messages);
    for (word, point) in NOT_YET {
        let shown = found.remove(*word).is_some();
        assert!(
            shown || !all_shown,
            "`{word}` no longer occurs: delete its entry ({point}) from NOT_YET"
        );
    }
    assert!(
        found.is_empty(),
        "GPU words on a pack-less site: {found:#?}"
    );
}

#[test]
fn the_planner_fixture_uses_every_directive_a_pack_less_site_can() {
    let content = manifest_dir().join("tests/fixtures/planner/content");
    let mut text = String::new();
    for page in std::fs::read_dir(&content).expect("content") {
        let path = page.expect("entry").path();
        text.push_str(&std::fs::read_to_string(path).expect("page"));
    }
    let used: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("::"))
        .filter(|l| !l.starts_with(':'))
        .map(|l| l.split(['{', ' ']).next().unwrap_or(l))
        .collect();
    let missing: Vec<&str> = core_directives()
        .into_iter()
        .filter(|d| !used.contains(d))
        .collect();
    assert!(missing.is_empty(), "the fixture does not use {missing:?}");
}

#[test]
fn a_pack_less_site_of_another_field_shows_no_gpu_word() {
    let site = tempfile::tempdir().expect("tempdir");
    copy_dir(&manifest_dir().join("tests/fixtures/planner"), site.path());
    assert_neutral(site.path(), true);
}

#[test]
fn the_site_init_writes_shows_no_gpu_word() {
    let dir = tempfile::tempdir().expect("tempdir");
    let site = dir.path().join("new");
    let i = run(&["init".as_ref(), site.as_os_str()]);
    assert_eq!(i.code, 0, "init failed:\n{}{}", i.stdout, i.stderr);
    assert!(found_in(&i.stdout).is_empty() && found_in(&i.stderr).is_empty());
    assert_neutral(&site, false);
}

/// Words `evidence probe --help` shows of the ggml pack's probes, which it lists as the
/// pack's (by the pack's name): every one must still occur, so that the list stays exact.
const HELP_NOT_YET: &[&str] = &[
    "bundles",
    "ggml",
    "fatbin",
    "gguf",
    "hip",
    "kernel",
    "llama",
    "llama-server",
    "model",
    "ollama",
    "process maps",
    "tensor",
];

#[test]
fn the_help_shows_no_gpu_word_but_the_packs_probes() {
    let point =
        "issue 40 point 4: `evidence probe --help` lists a pack's probes under the pack's name";
    for args in [
        &["--help"][..],
        &["build", "--help"],
        &["check", "--help"],
        &["init", "--help"],
        &["probe", "--help"],
    ] {
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        let r = run(&args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        let mut found = found_in(&format!("{}\n{}", r.stdout, r.stderr));
        found.sort();
        found.dedup();
        if args[0] == "probe" {
            let text = format!("{}{}", r.stdout, r.stderr);
            assert!(text.contains("probe of the `ggml` pack"), "{text}");
            // Each of the pack's probes says whose it is, on its own line.
            for line in text
                .lines()
                .filter(|l| l.contains("ollama") || l.contains("gguf "))
            {
                assert!(line.contains("[ggml pack]"), "{line}");
            }
            for word in HELP_NOT_YET {
                assert!(
                    found.iter().any(|f| f == word),
                    "`{word}` no longer occurs in probe --help: delete it ({point}) from HELP_NOT_YET"
                );
            }
            found.retain(|f| !HELP_NOT_YET.contains(&f.as_str()));
        }
        assert!(found.is_empty(), "{args:?} shows {found:?}");
    }
}

#[test]
fn the_word_test_finds_words_and_not_parts_of_words() {
    assert_eq!(found_in("the Kernel ran"), ["kernel"]);
    assert_eq!(found_in("prompt_eval_count"), ["prompt", "prompt_eval"]);
    assert_eq!(found_in("Model\n  unknown"), ["model", "model unknown"]);
    assert!(found_in("relationship, shot, scold, chip").is_empty());
}
