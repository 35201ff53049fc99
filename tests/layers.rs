//! Imports point down only. Between crates Cargo holds the rule: [`the_crates_depend_downward`]
//! checks the workspace's graph (the core names no pack, a pack only the core, the binary
//! names the packs) and that the pack's heavy dependencies are the pack's. Inside the core
//! crate, every `crate::<module>` use in `crates/core/src/` names a module on a lower layer
//! than the file's own (ARCHITECTURE.md, DESIGN.md "Pipeline and layers").
//!
//! A module is the first path component under `crates/core/src/` (`load/page.rs` is `load`,
//! `pipeline.rs` is `pipeline`). Uses are found in the source text with comments, strings
//! and character literals blanked out, including each name of a `use crate::{…}` group.
//! `python3 ../shared/tools/layers.py crates/core/src` checks the same rules from outside.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom to top. A module may use the modules of lower layers only; the
/// modules of one layer do not use each other.
const LAYERS: &[&[&str]] = &[
    // Located findings, and the process-wide stage timer: both import nothing.
    // (The macros exported at the crate's root for packs — `plain_directive!`, `html!`,
    // `html_into!`, `tables!` — are named by their root paths; what they expand to names
    // only the modules they serve.)
    &[
        "diagnostics",
        "timings",
        "plain_directive",
        "html",
        "html_into",
        "tables",
    ],
    // Types, ids, refs, page structure, views, value formatting: no file format, no reader.
    &["model"],
    // YAML, pages, the theme and its messages, the parse cache, bounded file reading.
    &["load"],
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
    &["serve", "schema"],
    &["init"],
    // The crate's root.
    &["lib"],
];

/// Uses the layer order alone would allow, but that are forbidden all the same.
const ALSO_FORBIDDEN: &[(&str, &str, &str)] = &[(
    "render",
    "check",
    "render never judges: what is wrong is check's to say",
)];

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

/// The module an item path names (`load::x` → load).
fn first_ident(s: &str) -> Option<String> {
    let first: String = s
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!first.is_empty()).then_some(first)
}

/// Every module of the crate that `source` uses through `crate::`.
fn uses(source: &str) -> BTreeSet<String> {
    uses_through(source, "crate::")
}

/// Every module that `source` uses through the path `prefix` (`crate::`, or another
/// crate's name, `evidence_core::`).
fn uses_through(source: &str, prefix: &str) -> BTreeSet<String> {
    let code = code_only(source);
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        // `evidence_crate::x` is another path; `$crate::x` in a macro is this crate.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        found.extend(named_modules(&code[at + prefix.len()..]));
    }
    found
}

/// The module a file under `src` belongs to.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.as_slice() {
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
    let src = core_src();
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
    let src = core_src();
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
}

#[test]
fn files_belong_to_their_top_module() {
    let src = Path::new("src");
    let of = |f: &str| module_of(src, &src.join(f));
    assert_eq!(of("load/yaml/mod.rs"), "load");
    assert_eq!(of("render/tables/records.rs"), "render");
    assert_eq!(of("pipeline.rs"), "pipeline");
    assert_eq!(of("lib.rs"), "lib");
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
        ("model", "render"),
        ("load", "render"),
        ("load", "derive"),
        ("load", "check"),
        ("derive", "check"),
        ("derive", "render"),
        ("check", "render"),
        ("render", "check"),
        ("render", "pipeline"),
        ("diagnostics", "load"),
        ("serve", "init"),
    ] {
        assert!(forbidden(from, to).is_some(), "{from} -> {to} is allowed");
    }
    for (from, to) in [
        ("load", "model"),
        ("check", "derive"),
        ("render", "derive"),
        ("serve", "incremental"),
        ("lib", "serve"),
    ] {
        assert!(forbidden(from, to).is_none(), "{from} -> {to} is refused");
    }
}

/// The review diff is a crate of its own, above the core: it compares evidence and writes its
/// own formats, so it uses none of the core's renderer of site pages.
#[test]
fn the_diff_renders_no_site_pages() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/diff/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 5, "the diff's sources: {files:?}");
    let bad: Vec<String> = files
        .iter()
        .filter(|f| {
            let text =
                std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            uses_through(&text, "evidence_core::").contains("render")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        bad.is_empty(),
        "the diff uses evidence_core::render in {bad:?}"
    );
    assert_eq!(
        uses_through(
            "use evidence_core::{render::Site, model};",
            "evidence_core::"
        )
        .into_iter()
        .collect::<Vec<_>>(),
        ["model", "render"]
    );
    assert!(uses_through("my_evidence_core::render::x", "evidence_core::").is_empty());
}

/// The core crate's sources.
fn core_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src")
}

/// Each workspace crate with the names of its normal (non-dev) dependencies, as Cargo
/// resolves them (`cargo metadata`).
fn workspace_dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("its JSON");
    let packages = meta["packages"].as_array().expect("packages");
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter(|d| d["kind"].is_null())
                .map(|d| d["name"].as_str().unwrap_or_default().to_string())
                .collect();
            (p["name"].as_str().unwrap_or_default().to_string(), deps)
        })
        .collect()
}

/// The crates point down: the core names no other crate of the workspace, the review diff
/// and the probe framework only the core, a pack the core and the probe framework, and only
/// the binary names the packs. The pack's heavy readers (ELF, compression, demangling, mapped files)
/// are its reader crate's, which names no crate of the workspace (so that a clean build
/// compiles it beside the core, and a change in the pack does not compile it again); its
/// record types are its model crate's, which names only the core (so that a change in the
/// pack's tables, probes or rules does not compile their deserializers again); the HTTP
/// client is the probe framework's: none is the core's.
#[test]
fn the_crates_depend_downward() {
    let deps = workspace_dependencies();
    let of = |name: &str| {
        deps.get(name)
            .unwrap_or_else(|| panic!("{name} is a workspace crate: {:?}", deps.keys()))
    };
    let ours = |name: &str| -> BTreeSet<&str> {
        of(name)
            .iter()
            .filter(|d| d.starts_with("evidence"))
            .map(String::as_str)
            .collect()
    };
    assert_eq!(ours("evidence-core"), BTreeSet::new());
    assert_eq!(ours("evidence-probe"), BTreeSet::from(["evidence-core"]));
    assert_eq!(ours("evidence-diff"), BTreeSet::from(["evidence-core"]));
    assert_eq!(
        ours("evidence-ggml"),
        BTreeSet::from([
            "evidence-core",
            "evidence-ggml-binary",
            "evidence-ggml-model",
            "evidence-probe"
        ])
    );
    assert_eq!(
        ours("evidence-ggml-model"),
        BTreeSet::from(["evidence-core"])
    );
    assert_eq!(ours("evidence-ggml-binary"), BTreeSet::new());
    assert!(ours("evidence").contains("evidence-ggml"));
    assert!(ours("evidence").contains("evidence-diff"));
    let packs_only = ["object", "cpp_demangle", "flate2", "ruzstd", "memmap2"];
    for crate_ in [
        "evidence-core",
        "evidence-diff",
        "evidence-probe",
        "evidence-ggml",
        "evidence-ggml-model",
        "evidence",
    ] {
        for heavy in packs_only.iter().chain(["ureq"].iter()) {
            let allowed = crate_ == "evidence-probe" && *heavy == "ureq";
            assert!(
                allowed || !of(crate_).contains(*heavy),
                "{crate_} depends on {heavy}"
            );
        }
    }
    for heavy in packs_only {
        assert!(
            of("evidence-ggml-binary").contains(heavy),
            "the pack's readers read with {heavy}"
        );
    }
}
