//! Imports point down only: every `crate::<module>` use in `src/` names a module on a lower
//! layer than the file's own (ARCHITECTURE.md, DESIGN.md "Pipeline and layers").
//!
//! A module is the first path component under `src/` (`src/load/page.rs` is `load`,
//! `src/pipeline.rs` is `pipeline`). Uses are found in the source text with comments,
//! strings and character literals blanked out, including each name of a `use crate::{…}`
//! group. `../shared/tools/layers.py` checks the same rules from outside the crate.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers, bottom to top. A module may use the modules of lower layers only; the
/// modules of one layer do not use each other.
const LAYERS: &[&[&str]] = &[
    // Located findings, and the process-wide stage timer: both import nothing.
    // (`plain_directive!`, model's macro exported at the crate's root for packs, is named
    // by its root path; what it expands to names only `model`.)
    &["diagnostics", "timings", "plain_directive"],
    // Types, ids, refs, page structure, views, value formatting: no file format, no reader.
    &["model"],
    // YAML, pages, the theme and its messages, the parse cache, bounded file reading.
    &["load"],
    // Independent binary readers, beside load: they read files through `load::read`
    // only, and model never sees their reports (probe converts them).
    &["binary"],
    &["derive"],
    // Judges; renders no HTML.
    &["check"],
    // Renders; never judges.
    &["render"],
    &["write"],
    // The one driver.
    &["pipeline"],
    // Rebuilds what an edit touched, through the pipeline; `serve` drives it.
    &["incremental"],
    &["probe", "diff", "serve", "schema"],
    &["init"],
    // The command line, and the crate roots.
    &["cli", "lib", "main"],
];

/// Uses the layer order alone would allow, but that are forbidden all the same.
const ALSO_FORBIDDEN: &[(&str, &str, &str)] = &[
    (
        "render",
        "check",
        "render never judges: what is wrong is check's to say",
    ),
    (
        "diff",
        "render",
        "the review diff compares evidence and writes its own formats, not site pages",
    ),
];

/// The layer of `module`, or `None` for a module missing from [`LAYERS`].
fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Why `from` may not use `to`, or `None` when it may.
fn forbidden(from: &str, to: &str) -> Option<String> {
    if from == to {
        return None;
    }
    if let Some((.., why)) = ALSO_FORBIDDEN
        .iter()
        .find(|(a, b, _)| *a == from && *b == to)
    {
        return Some(why.to_string());
    }
    match (layer_of(from), layer_of(to)) {
        (Some(a), Some(b)) if b < a => None,
        (Some(a), Some(b)) if b == a => Some("a module of the same layer".into()),
        (Some(_), Some(_)) => Some("a module of a higher layer".into()),
        (None, _) => Some(format!("`{from}` is in no layer: add it to LAYERS")),
        (_, None) => Some(format!("`{to}` is in no layer: add it to LAYERS")),
    }
}

/// `text` with comments, string literals and character literals replaced by spaces
/// (newlines kept), so that only code is searched.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                blank(&mut out, chars[i]);
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            // Block comments nest in Rust.
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
        } else if c == 'r'
            && (i == 0 || !ident(chars[i - 1]) || chars[i - 1] == 'b')
            && matches!(next, Some('"' | '#'))
            && raw_string_end(&chars, i + 1).is_some()
        {
            let end = raw_string_end(&chars, i + 1).unwrap_or(chars.len());
            for &ch in &chars[i..end] {
                blank(&mut out, ch);
            }
            i = end;
        } else if c == '"' {
            blank(&mut out, c);
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                let step = if chars[i] == '\\' { 2 } else { 1 };
                for &ch in chars.iter().skip(i).take(step) {
                    blank(&mut out, ch);
                }
                i += step;
            }
            if i < chars.len() {
                blank(&mut out, chars[i]);
                i += 1;
            }
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\''); a lifetime ('a) has no closing quote.
            blank(&mut out, c);
            i += 1;
            if chars.get(i) == Some(&'\\') {
                blank(&mut out, '\\');
                i += 1;
            }
            while i < chars.len() && chars[i] != '\'' {
                blank(&mut out, chars[i]);
                i += 1;
            }
            if i < chars.len() {
                blank(&mut out, chars[i]);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The end (one past the closing quote and hashes) of a raw string whose `#`s or opening
/// quote start at `at`, or `None` when that is not a raw string.
fn raw_string_end(chars: &[char], at: usize) -> Option<usize> {
    let hashes = chars[at..].iter().take_while(|&&c| c == '#').count();
    if chars.get(at + hashes) != Some(&'"') {
        return None;
    }
    let mut i = at + hashes + 1;
    while i < chars.len() {
        if chars[i] == '"'
            && chars[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return Some(i + 1 + hashes);
        }
        i += 1;
    }
    Some(chars.len())
}

/// The top-level modules named by the path or `{…}` group that starts `rest` (the text
/// after `crate::`): `load::x` → load; `{a::b, c::{d, e}, self}` → a, c.
fn named_modules(rest: &str) -> Vec<String> {
    let rest = rest.trim_start();
    let Some(group) = rest.strip_prefix('{') else {
        return first_ident(rest).into_iter().collect();
    };
    let mut names = Vec::new();
    let (mut depth, mut item) = (0usize, String::new());
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                names.extend(first_ident(&item));
                item.clear();
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    names.extend(first_ident(&item));
    names.retain(|n| n != "self");
    names
}

/// The module an item path names (`load::x` → load). A path into `packs` names the stage
/// the pack's part belongs to: `packs::render::x` and `packs::<pack>::render::x` → render,
/// anything else in a pack (its descriptor, record types, schema) → model.
fn first_ident(s: &str) -> Option<String> {
    let segments: Vec<String> = s
        .trim_start()
        .split("::")
        .map(|seg| {
            seg.trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .take_while(|seg| !seg.is_empty())
        .take(3)
        .collect();
    let first = segments.first()?.clone();
    if first != "packs" {
        return Some(first);
    }
    Some(pack_stage(&segments[1..]))
}

/// The stage of a path or file inside `packs` (the parts after `packs`): the first of its
/// first two parts that is a module of [`LAYERS`], else model.
fn pack_stage(parts: &[String]) -> String {
    // `packs/mod.rs` and a pack's `mod.rs` put the pack's parts together and hand them to
    // the core: they sit with the command line, above every stage.
    if matches!(parts.last().map(String::as_str), Some("mod.rs")) && parts.len() <= 2 {
        return "cli".to_string();
    }
    parts
        .iter()
        .take(2)
        .map(|p| p.trim_end_matches(".rs"))
        .find(|p| *p != "packs" && layer_of(p).is_some())
        .unwrap_or("model")
        .to_string()
}

/// Every module of the crate that `source` uses through `crate::`.
fn uses(source: &str) -> BTreeSet<String> {
    let code = code_only(source);
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        // `evidence_crate::x` is another path; `$crate::x` in a macro is this crate.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        found.extend(named_modules(&code[at + "crate::".len()..]));
    }
    found
}

/// The module a file under `src` belongs to; a file of `packs` belongs to the stage its
/// path names (`packs/<pack>/render/…` is render, `packs/check.rs` check, the rest model).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.as_slice() {
        [first, rest @ ..] if first == "packs" => pack_stage(rest),
        [first, _, ..] => first.clone(),
        [only] => only.trim_end_matches(".rs").to_string(),
        [] => String::new(),
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every forbidden use under `src`, one line each: `load/mod.rs: load -> render (why)`.
fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    for file in files {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let from = module_of(src, &file);
        for to in uses(&text) {
            if let Some(why) = forbidden(&from, &to) {
                let rel = file.strip_prefix(src).unwrap_or(&file);
                bad.push(format!("{}: {from} -> {to} ({why})", rel.display()));
            }
        }
    }
    bad
}

#[test]
fn imports_point_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = violations(&src);
    assert!(
        bad.is_empty(),
        "{} use(s) point up or sideways (layers, bottom to top: {:?}):\n{}",
        bad.len(),
        LAYERS,
        bad.join("\n")
    );
}

#[test]
fn every_module_has_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let missing: BTreeSet<String> = files
        .iter()
        .map(|f| module_of(&src, f))
        .filter(|m| layer_of(m).is_none())
        .collect();
    assert!(missing.is_empty(), "modules in no layer: {missing:?}");
}

#[test]
fn uses_are_found_in_paths_and_groups() {
    let found = |s: &str| uses(s).into_iter().collect::<Vec<_>>();
    assert_eq!(found("use crate::load::page;"), ["load"]);
    assert_eq!(
        found("use crate::{render::Site, model::{self, Id}, self};"),
        ["model", "render"]
    );
    assert_eq!(found("fn f() { crate::timings::note(|| x) }"), ["timings"]);
    assert_eq!(
        found("use crate::{\n    a,\n    b::{c, d},\n};"),
        ["a", "b"]
    );
    assert_eq!(found("$crate::model::Id"), ["model"]);
    // A pack's parts belong to the stages they serve.
    assert_eq!(found("use crate::packs::render::tables;"), ["render"]);
    assert_eq!(
        found("crate::packs::ggml::binary::fatbin::scan"),
        ["binary"]
    );
    assert_eq!(found("use crate::packs::{Bundle, PACKS};"), ["model"]);
    assert_eq!(found("crate::packs::ggml::PACK"), ["model"]);
}

#[test]
fn pack_files_belong_to_their_stage() {
    let src = Path::new("src");
    let of = |f: &str| module_of(src, &src.join(f));
    assert_eq!(of("packs/mod.rs"), "cli");
    assert_eq!(of("packs/check.rs"), "check");
    assert_eq!(of("packs/ggml/mod.rs"), "cli");
    assert_eq!(of("packs/ggml/load.rs"), "load");
    assert_eq!(of("packs/ggml/scans.rs"), "model");
    assert_eq!(of("packs/ggml/render/binary.rs"), "render");
    assert_eq!(of("packs/ggml/probe/ollama.rs"), "probe");
    assert_eq!(of("load/yaml/mod.rs"), "load");
    assert_eq!(of("cli.rs"), "cli");
}

#[test]
fn comments_and_strings_are_not_uses() {
    let none = |s: &str| assert!(uses(s).is_empty(), "{s:?}: {:?}", uses(s));
    none("// crate::render::x\n/// [`crate::render`]\n//! crate::check");
    none("/* crate::render /* nested */ crate::check */");
    none(r#"let s = "crate::render"; let e = "\"crate::check";"#);
    none(r###"let s = r##"crate::render "# "##;"###);
    none("my_crate::render::x");
    // A lifetime is not a character literal: the code after it is still searched.
    assert_eq!(
        uses("fn f<'a>(x: &'a crate::model::Id) -> char { '\\'' }")
            .into_iter()
            .collect::<Vec<_>>(),
        ["model"]
    );
}

#[test]
fn the_rules_forbid_what_the_design_forbids() {
    for (from, to) in [
        ("model", "load"),
        ("model", "binary"),
        ("model", "render"),
        ("load", "render"),
        ("load", "derive"),
        ("load", "check"),
        ("derive", "check"),
        ("derive", "render"),
        ("check", "render"),
        ("render", "check"),
        ("render", "pipeline"),
        ("diff", "render"),
        ("diagnostics", "load"),
        ("serve", "probe"),
    ] {
        assert!(forbidden(from, to).is_some(), "{from} -> {to} is allowed");
    }
    for (from, to) in [
        ("load", "model"),
        ("check", "derive"),
        ("render", "derive"),
        ("probe", "binary"),
        ("binary", "load"),
        ("serve", "incremental"),
        ("cli", "serve"),
    ] {
        assert!(forbidden(from, to).is_none(), "{from} -> {to} is refused");
    }
}
