//! Validation of a site's data files against the schemas `evidence schema` writes for it,
//! shared by `tests/schema.rs` (the fixture sites) and `tests/investigation` (this
//! repository's own data).

use evidence::model::json_schema::FileSchema;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A YAML file's value as a JSON Schema validator (and an editor's language server) sees it.
pub fn value(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("a data file");
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The files under `root` that `glob` names (`data/x.yaml` or `dir/**/*.yaml`).
pub fn files(root: &Path, glob: &str) -> Vec<PathBuf> {
    match glob.split_once("/**/") {
        Some((dir, _)) => walkdir::WalkDir::new(root.join(dir))
            .into_iter()
            .filter_map(Result::ok)
            .map(|e| e.into_path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect(),
        None => Some(root.join(glob))
            .filter(|p| p.exists())
            .into_iter()
            .collect(),
    }
}

/// What fails to validate, each file and its first errors; empty when all do.
pub fn failures(root: &Path, schemas: &[FileSchema]) -> (Vec<String>, usize) {
    let mut bad = Vec::new();
    let mut seen = 0;
    for s in schemas {
        let v = jsonschema::draft202012::new(&s.schema)
            .unwrap_or_else(|e| panic!("{} is a valid schema: {e}", s.name));
        for f in files(root, &s.glob) {
            seen += 1;
            let errors: Vec<String> = v
                .iter_errors(&value(&f))
                .take(3)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            if !errors.is_empty() {
                bad.push(format!("{}: {}", f.display(), errors.join("; ")));
            }
        }
    }
    (bad, seen)
}
