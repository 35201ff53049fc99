//! Where a site's decision maps live: `data/maps.yaml`, or the file `maps_file:` in
//! evidence.yaml names. The declared file is read as the maps, shown in the "Source:" lines,
//! and a `data/maps.yaml` left beside it, or a declaration naming another kind's file, is an
//! error at its place.

mod common;

use common::*;
use std::path::Path;

/// A copy of the planner fixture with its maps moved to `data/decisions.yaml`, declared.
fn declared_elsewhere() -> tempfile::TempDir {
    let site = tempfile::tempdir().expect("tempdir");
    copy_dir(&manifest_dir().join("tests/fixtures/figures"), site.path());
    let data = site.path().join("data");
    std::fs::rename(data.join("maps.yaml"), data.join("decisions.yaml")).expect("rename");
    append(site.path(), "evidence.yaml", "maps_file: decisions.yaml\n");
    site
}

fn append(root: &Path, file: &str, text: &str) {
    let path = root.join(file);
    let mut now = std::fs::read_to_string(&path).expect("read");
    now.push_str(text);
    std::fs::write(&path, now).expect("write");
}

#[test]
fn the_declared_file_holds_the_maps_and_the_source_lines_name_it() {
    let site = declared_elsewhere();
    let out = tempfile::tempdir().expect("tempdir");
    build_ok(site.path(), out.path());
    let page = std::fs::read_to_string(out.path().join("en/scan-choice/index.html")).unwrap();
    let map = figure(&page, "dispatch-map");
    assert!(map.contains("<code>data/decisions.yaml</code>"), "{map}");
    assert!(!page.contains("data/maps.yaml"));
}

#[test]
fn maps_yaml_beside_a_declared_file_is_an_error_naming_the_declaration() {
    let site = declared_elsewhere();
    std::fs::copy(
        site.path().join("data/decisions.yaml"),
        site.path().join("data/maps.yaml"),
    )
    .expect("copy");
    let found = check_errors(site.path(), "data-file", "declares the decision maps");
    assert_eq!(found, [("data/maps.yaml".to_string(), 1, 1)]);
}

#[test]
fn without_a_declaration_another_file_of_maps_is_unknown() {
    let site = declared_elsewhere();
    replace_once(
        site.path(),
        "evidence.yaml",
        "maps_file: decisions.yaml\n",
        "",
    );
    let found = check_errors(
        site.path(),
        "data-file",
        "unknown data file `decisions.yaml`",
    );
    assert_eq!(found, [("data/decisions.yaml".to_string(), 1, 1)]);
}

#[test]
fn a_declaration_naming_another_kinds_file_is_a_config_error() {
    for bad in [
        "claims.yaml",
        "experiments.yaml",
        "maps.yml",
        "../maps.yaml",
    ] {
        let site = declared_elsewhere();
        replace_once(
            site.path(),
            "evidence.yaml",
            "maps_file: decisions.yaml",
            &format!("maps_file: \"{bad}\""),
        );
        let r = build(site.path(), Some(&site.path().join("out")));
        assert_eq!(r.code, 1, "{bad}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!(
                "the decision maps cannot be written in `data/{bad}`"
            )),
            "{bad}: {}",
            r.stderr
        );
        assert!(r.stderr.contains("evidence.yaml:"), "{}", r.stderr);
        assert!(!site.path().join("out").exists());
    }
}
