//! docs/authoring.md against the code: every record kind of the registry, with its data
//! file, and every directive with each of its attributes, is documented, so that the
//! reference cannot fall behind a new kind or directive.

use evidence::model::directive::SPECS;
use evidence::model::registry::{KINDS, Storage};

fn authoring() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/authoring.md");
    std::fs::read_to_string(path).expect("docs/authoring.md")
}

#[test]
fn every_kind_and_its_file_is_documented() {
    evidence::packs::register();
    // The reference's table of kinds is made from the registry; it must name each kind
    // once, with the file its records are written in.
    let reference = evidence::schema::reference();
    let rows: Vec<&str> = reference.lines().filter(|l| l.starts_with("| `")).collect();
    let pack_kinds = evidence::packs::PACKS
        .iter()
        .flat_map(|p| p.kinds.iter().copied());
    let written = KINDS
        .iter()
        .chain(pack_kinds)
        .filter(|s| s.storage != Storage::Declared);
    for spec in written {
        let place = match spec.storage {
            Storage::File(f) => format!("`data/{f}`"),
            Storage::Folder(d) => format!("`data/{d}*.yaml`"),
            Storage::Pages | Storage::Declared => "`content/**/*.md`".to_string(),
        };
        let row = format!("| `{}` | {place} | ", spec.name);
        let found = rows.iter().filter(|r| r.starts_with(&row)).count();
        assert_eq!(found, 1, "kind `{}` in the reference: {row}", spec.name);
        assert!(
            !spec.about.trim().is_empty(),
            "kind `{}` says what it is",
            spec.name
        );
    }
    // And docs/authoring.md sends the reader there, not to a list of its own.
    assert!(authoring().contains("reference.md#references"));
}

#[test]
fn every_directive_and_attribute_is_documented() {
    let doc = authoring();
    for (name, attrs, _) in SPECS {
        let rows: Vec<&str> = doc
            .lines()
            .filter(|l| l.starts_with('|') && l.contains(&format!("`::{name}")))
            .collect();
        let exact =
            |r: &&str| r.contains(&format!("`::{name}`")) || r.contains(&format!("`::{name}{{"));
        assert!(
            rows.iter().any(exact),
            "`::{name}` has no row in docs/authoring.md"
        );
        for attr in *attrs {
            assert!(
                rows.iter().any(
                    |r| r.contains(&format!("::{name}{{")) && r.contains(&format!("{attr}=\""))
                ),
                "attribute `{attr}` of `::{name}` is not documented"
            );
        }
    }
}

/// The rows of the table under the heading that starts with `heading` (up to the next
/// heading or prose), by their first cell.
fn documented_fields(doc: &str, heading: &str, after: Option<&str>) -> Vec<String> {
    let start = doc
        .find(heading)
        .unwrap_or_else(|| panic!("no `{heading}` in docs"));
    let mut rest = &doc[start..];
    if let Some(marker) = after {
        let at = rest
            .find(marker)
            .unwrap_or_else(|| panic!("no `{marker}` under {heading}"));
        rest = &rest[at..];
    }
    rest.lines()
        .skip_while(|l| !l.starts_with("| field |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.split('|')
                .nth(1)
                .unwrap_or("")
                .trim()
                .trim_matches('`')
                .to_string()
        })
        .collect()
}

#[test]
fn every_field_of_every_kind_is_documented() {
    use evidence::model::registry::struct_fields as fields_of;
    use evidence::model::types::*;
    let doc = authoring();
    let pack_kinds = evidence::packs::PACKS
        .iter()
        .flat_map(|p| p.kinds.iter().copied());
    // A kind's section in docs/authoring.md is optional (the generated reference has
    // every field); one that is there lists the kind's fields as its type has them.
    let mut sections = 0;
    for spec in KINDS.iter().chain(pack_kinds) {
        let heading = format!("### `{}` — ", spec.name);
        if !doc.contains(&heading) {
            continue;
        }
        let fields = (spec.fields)();
        // A run is read by hand (its fields are the site's measurements); its own
        // fields are in the reference.
        if fields.is_empty() {
            continue;
        }
        sections += 1;
        assert_eq!(
            documented_fields(&doc, &heading, None),
            fields,
            "the fields of `{}` in docs/authoring.md",
            spec.name
        );
    }
    assert!(sections >= 20, "only {sections} kinds have a section");
    let nested: [(&str, &str, &[&str]); 2] = [
        ("### `phase` — ", "A fact (`fixed`)", fields_of::<Fact>()),
        (
            "### `map` — ",
            "A branch (`branches`)",
            fields_of::<Branch>(),
        ),
    ];
    for (heading, marker, fields) in nested {
        assert_eq!(
            documented_fields(&doc, heading, Some(marker)),
            fields,
            "{marker}"
        );
    }
}

// ------------------------------------------------------------------ the maps of the code

/// The repository's tracked files, relative to its root (and the files a change adds).
fn repository_files() -> Vec<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(root)
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0 || !((name.starts_with('.') && name != ".github") || name == "target")
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
    {
        let rel = entry.path().strip_prefix(root).unwrap();
        files.push(rel.to_string_lossy().replace('\\', "/"));
    }
    files
}

/// Every identifier in the Rust sources of the tool.
fn source_identifiers(files: &[String]) -> std::collections::HashSet<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut words = std::collections::HashSet::new();
    for file in files
        .iter()
        .filter(|f| f.ends_with(".rs") && !f.starts_with("tests/"))
    {
        let text = std::fs::read_to_string(format!("{root}/{file}")).unwrap();
        for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if !word.is_empty() {
                words.insert(word.to_owned());
            }
        }
    }
    words
}

/// `a/b.rs`, `dir/`: a name the map uses for a file or a folder.
fn is_path(span: &str) -> bool {
    const ENDINGS: [&str; 11] = [
        ".rs", ".sh", ".py", ".yaml", ".yml", ".toml", ".ftl", ".html", ".css", ".js", ".json",
    ];
    let chars_ok = span
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c));
    // `.ftl` alone is a kind of file, not a file; `data/probes/NAME.yaml` is a pattern.
    let placeholder = span
        .split(['/', '.'])
        .any(|part| part.len() > 1 && part.chars().all(|c| c.is_ascii_uppercase() || c == '_'));
    let named = !span.starts_with('.') && !placeholder;
    chars_ok && named && (ENDINGS.iter().any(|e| span.ends_with(e)) || span.ends_with('/'))
}

/// `module::Item`, `Type`, `function()`, `macro!`: a name the map uses for code.
fn is_code_name(span: &str) -> bool {
    let body = span.trim_end_matches("()").trim_end_matches('!');
    let ident = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let camel = |s: &str| {
        s.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && s.chars().skip(1).any(|c| c.is_ascii_uppercase())
            && s.chars().any(|c| c.is_ascii_lowercase())
    };
    if body.contains("::") {
        return body.split("::").all(ident);
    }
    ident(body) && (body.len() < span.len() || camel(body))
}

/// The names in backticks of a map of the code (ARCHITECTURE.md, PERFORMANCE.md) that name
/// no file of the repository or no identifier of the sources.
fn stale_names(
    doc: &str,
    files: &[String],
    words: &std::collections::HashSet<String>,
) -> Vec<String> {
    let text = std::fs::read_to_string(format!("{}/{doc}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{doc}: {e}"));
    let mut stale = Vec::new();
    for span in text.split('`').skip(1).step_by(2) {
        if span.contains('<') || span.contains('*') {
            continue;
        }
        let found = if is_path(span) {
            files.iter().any(|f| {
                let f = format!("/{f}");
                f.ends_with(&format!("/{span}")) || f.contains(&format!("/{span}"))
            })
        } else if is_code_name(span) {
            span.trim_end_matches("()")
                .trim_end_matches('!')
                .split("::")
                .filter(|s| !["crate", "self", "super"].contains(s))
                .all(|s| words.contains(s))
        } else {
            continue;
        };
        if !found {
            stale.push(format!("{doc}: `{span}`"));
        }
    }
    stale
}

#[test]
fn the_maps_of_the_code_name_only_what_exists() {
    let files = repository_files();
    let words = source_identifiers(&files);
    let mut stale = stale_names("ARCHITECTURE.md", &files, &words);
    stale.extend(stale_names("PERFORMANCE.md", &files, &words));
    assert!(stale.is_empty(), "names that no longer exist: {stale:#?}");
    // What the check takes for a name of code or of a file.
    assert!(is_code_name("pipeline::Figures") && is_code_name("Html::text"));
    assert!(is_code_name("RunStore") && is_code_name("directive_list!"));
    assert!(is_path("load/yaml/subset.rs") && is_path("src/packs/"));
    assert!(!is_code_name("build") && !is_path("evidence build"));
}
