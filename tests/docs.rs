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
    let doc = authoring();
    let kinds_line = doc
        .split("where kind is one of")
        .nth(1)
        .and_then(|rest| rest.split('`').nth(1))
        .expect("the list of reference kinds");
    let listed: Vec<&str> = kinds_line.split_whitespace().collect();
    for spec in KINDS {
        assert!(
            listed.contains(&spec.name),
            "kind `{}` missing from the reference kinds: {listed:?}",
            spec.name
        );
        let file = match spec.storage {
            Storage::File(f) => format!("`data/{f}`"),
            Storage::Folder(d) => format!("`data/{d}"),
            Storage::Pages => continue,
        };
        assert!(
            doc.contains(&file),
            "{file} (kind `{}`) is not documented",
            spec.name
        );
    }
    assert_eq!(
        listed.len(),
        KINDS.len(),
        "documented kinds that do not exist: {listed:?}"
    );
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
